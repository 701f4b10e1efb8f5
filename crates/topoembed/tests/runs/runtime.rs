//! The runtime: algorithms run through embeddings, checked against their
//! sequential references and, for the cube algorithms, against the CC
//! recurrence of the xor paper; the modelled clock's rules on small programs.

use std::sync::Arc;

use topoembed::embed::{self, Params};
use topoembed::model;
use topoembed::runtime::algorithms::{bitonic, run_local, Algorithm, Problem, RunReport};
use topoembed::runtime::{local, Costs, RankStats};
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;

fn vt(guest: &str, host: &str, method: &str) -> VirtualTopology {
    VirtualTopology::from_specs(guest, host, method, &Params::default()).unwrap()
}

fn run(
    alg: Algorithm,
    guest: &str,
    host: &str,
    method: &str,
    n: Option<&str>,
    costs: Costs,
) -> RunReport {
    let vt = vt(guest, host, method);
    let problem = Problem::new(alg, &vt, n).unwrap();
    let report = run_local(&vt, &problem, costs).unwrap();
    assert!(
        report.check.passed,
        "{alg} {guest} {host} {method}: {:?}",
        report.check
    );
    assert_eq!(report.ranks_failed, 0);
    report
}

/// Hosts and methods of 2^d nodes for a cube guest.
fn hosts(d: u32) -> Vec<(String, &'static str)> {
    let n = 1u64 << d;
    let mut out = vec![
        (format!("ring:{n}"), "standard"),
        (format!("ring:{n}"), "gray"),
        (format!("ring:{n}"), "byweight"),
        (format!("line:{n}"), "standard"),
        (format!("line:{n}"), "byweight"),
    ];
    if d >= 2 {
        let (a, b) = (1u64 << (d / 2), 1u64 << (d - d / 2));
        out.push((format!("ring:{n}"), "xor"));
        out.push((format!("torus:{a}x{b}"), "xor"));
        out.push((format!("torus:{a}x{b}"), "standard"));
        out.push((format!("torus:{a}x{b}"), "gray"));
        out.push((format!("mesh:{b}x{a}"), "standard"));
    }
    out
}

/// Costs that are exact binary fractions, so sums of them are exact and
/// the comparison can demand equality.
const EXACT: Costs = Costs {
    ta: 0.5,
    tc: 2.0,
    tb: 0.0,
};

#[test]
fn modelled_time_equals_the_cc_recurrence() {
    for d in 1..=6u32 {
        for (host, method) in hosts(d) {
            let guest = format!("cube:{d}");
            for alg in [Algorithm::Fft, Algorithm::Bitonic, Algorithm::Allreduce] {
                let r = run(alg, &guest, &host, method, None, EXACT);
                let p = r.predicted.clone().expect("cube algorithms are predicted");
                assert_eq!(r.modelled_time, p.time, "{alg} {guest} {host} {method}");
                assert_eq!(r.waiting, p.waiting, "{alg} {guest} {host} {method}");
                // The core issue's recurrence, stage by stage.
                let g = topology::parse(&guest).unwrap();
                let h = topology::parse(&host).unwrap();
                let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
                let stages = match alg {
                    Algorithm::Bitonic => bitonic::stages(d),
                    _ => (0..d).collect(),
                };
                let rec =
                    model::cc_recurrence_stages(d, &stages, e.as_ref(), h.as_ref(), None).unwrap();
                let phases = stages.len() as f64 + f64::from(alg == Algorithm::Bitonic);
                assert_eq!(
                    r.modelled_time,
                    phases * EXACT.ta + rec.communication as f64 * EXACT.tc
                );
                assert_eq!(r.waiting, rec.waiting as f64 * EXACT.tc);
                if alg != Algorithm::Bitonic {
                    let plain = model::cc_recurrence(d, e.as_ref(), h.as_ref(), None).unwrap();
                    assert_eq!(plain, rec);
                }
                // Messages: one per exchange per rank; hops: sum of their dilations.
                assert_eq!(r.messages, stages.len() as u64 * (1 << d));
            }
        }
    }
}

#[test]
fn larger_data_and_byte_costs_keep_the_recurrence() {
    let costs = Costs {
        ta: 0.25,
        tc: 1.0,
        tb: 0.125,
    };
    for (host, method) in hosts(5) {
        for (alg, n) in [
            (Algorithm::Fft, "256"),
            (Algorithm::Bitonic, "96"),
            (Algorithm::Allreduce, "5"),
        ] {
            let r = run(alg, "cube:5", &host, method, Some(n), costs);
            let p = r.predicted.clone().unwrap();
            assert_eq!(r.modelled_time, p.time, "{alg} {host} {method}");
            assert_eq!(r.waiting, p.waiting, "{alg} {host} {method}");
        }
    }
}

/// Costs that are not binary fractions: the run sums message by message,
/// the prediction multiplies once; they agree to rounding.
#[test]
fn decimal_costs_agree_to_rounding() {
    let costs = Costs {
        ta: 0.1,
        tc: 0.3,
        tb: 0.01,
    };
    for (host, method) in hosts(6) {
        let r = run(Algorithm::Fft, "cube:6", &host, method, Some("2^10"), costs);
        let p = r.predicted.clone().unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
        assert!(
            close(r.modelled_time, p.time),
            "{host} {method}: {} vs {}",
            r.modelled_time,
            p.time
        );
        assert!(
            close(r.waiting, p.waiting),
            "{host} {method}: {} vs {}",
            r.waiting,
            p.waiting
        );
    }
}

/// The xor paper's optimality on rings, in a real run: T_cf = 2^d - 1 - 2^(d-2)
/// for xor against 2^d - 1 for the standard embedding (d = 10: 767 vs 1023).
#[test]
fn xor_beats_standard_on_a_ring_by_the_predicted_amount() {
    for alg in [Algorithm::Fft, Algorithm::Allreduce] {
        let xor = run(alg, "cube:10", "ring:1024", "xor", None, Costs::default());
        let std = run(
            alg,
            "cube:10",
            "ring:1024",
            "standard",
            None,
            Costs::default(),
        );
        assert_eq!(xor.modelled_time, 767.0);
        assert_eq!(std.modelled_time, 1023.0);
        assert_eq!((xor.waiting, std.waiting), (0.0, 0.0));
        assert_eq!(xor.messages, 10 * 1024);
    }
    for d in 2..=9u32 {
        let n = 1u64 << d;
        let xor = run(
            Algorithm::Allreduce,
            &format!("cube:{d}"),
            &format!("ring:{n}"),
            "xor",
            None,
            Costs::default(),
        );
        assert_eq!(xor.modelled_time, (n - 1 - n / 4) as f64);
    }
}

#[test]
fn cannon_gives_the_sequential_product() {
    for q in [2u64, 4, 8] {
        let d = 2 * q.trailing_zeros();
        let torus = format!("torus:{q}x{q}");
        for (host, method) in [(format!("cube:{d}"), "gray"), (torus.clone(), "identity")] {
            for n in [
                q.to_string(),
                (4 * q).to_string(),
                format!("{}x{}x{}", 3 * q, 2 * q, q),
            ] {
                let r = run(
                    Algorithm::Cannon,
                    &torus,
                    &host,
                    method,
                    Some(&n),
                    Costs::default(),
                );
                assert!(
                    r.check.error <= 1e-12,
                    "{torus} {host} {n}: {}",
                    r.check.error
                );
                assert!(r.predicted.is_none());
                // Skews from every rank off row / column 0, then 2(q-1) shifts each.
                let skews = 2 * q * (q - 1);
                assert_eq!(
                    r.messages,
                    skews + q * q * 2 * (q - 1),
                    "{torus} {host} {n}"
                );
            }
        }
    }
    // Gray code on a cube: every shift is one hop; the identity on a torus too.
    let r = run(
        Algorithm::Cannon,
        "torus:4x4",
        "cube:4",
        "gray",
        Some("8"),
        Costs::default(),
    );
    let shifts = 16 * 2 * 3;
    assert!(r.hops >= shifts as u64);
    // A non-power-of-two torus with the identity.
    run(
        Algorithm::Cannon,
        "torus:3x3",
        "torus:3x3",
        "identity",
        Some("6x9x3"),
        Costs::default(),
    );
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    type Case<'a> = (
        Algorithm,
        &'a str,
        &'a str,
        &'a str,
        Option<&'a str>,
        &'a str,
    );
    let cases: [Case; 9] = [
        (
            Algorithm::Fft,
            "torus:4x4",
            "cube:4",
            "gray",
            None,
            "guest must be cube:D",
        ),
        (
            Algorithm::Cannon,
            "cube:4",
            "ring:16",
            "xor",
            None,
            "square 2-D torus",
        ),
        (
            Algorithm::Cannon,
            "torus:4x2",
            "cube:3",
            "gray",
            None,
            "square 2-D torus",
        ),
        (
            Algorithm::Cannon,
            "torus:4x4",
            "cube:4",
            "gray",
            Some("10"),
            "not a multiple of 4",
        ),
        (
            Algorithm::Fft,
            "cube:4",
            "ring:16",
            "xor",
            Some("48"),
            "power of two",
        ),
        (
            Algorithm::Fft,
            "cube:4",
            "ring:16",
            "xor",
            Some("8"),
            "at least one point per rank",
        ),
        (
            Algorithm::Bitonic,
            "cube:4",
            "ring:16",
            "xor",
            Some("40"),
            "multiple of 16",
        ),
        (
            Algorithm::Allreduce,
            "cube:4",
            "ring:16",
            "xor",
            Some("2x2"),
            "one size",
        ),
        (
            Algorithm::Allreduce,
            "cube:4",
            "ring:16",
            "xor",
            Some("abc"),
            "not a size",
        ),
    ];
    for (alg, g, h, m, n, want) in cases {
        let err = Problem::new(alg, &vt(g, h, m), n).unwrap_err();
        assert!(err.to_string().contains(want), "{alg} {g} {n:?}: {err}");
        assert!(err.is_user_error());
    }
    let many = vt("bintree:8", "cube:3", "levels");
    let err = Problem::new(Algorithm::Allreduce, &many, None).unwrap_err();
    assert!(err.to_string().contains("cube:D"), "{err}");
    let split = vt("mesh:8x9", "cube:6", "split");
    assert!(!split.is_one_to_one());
    let bad_costs = Costs {
        ta: -1.0,
        ..Costs::default()
    };
    let v = vt("cube:2", "ring:4", "xor");
    let p = Problem::new(Algorithm::Fft, &v, None).unwrap();
    assert!(run_local(&v, &p, bad_costs)
        .unwrap_err()
        .to_string()
        .contains("--ta"));
}

fn host(spec: &str) -> Arc<dyn Topology> {
    Arc::from(topology::parse(spec).unwrap())
}

/// The clock's rules on hand-checked programs (line:3, T_a = 1, T_c = 1).
#[test]
fn clock_rules() {
    let costs = Costs {
        ta: 1.0,
        tc: 1.0,
        tb: 0.0,
    };
    let stats: Vec<RankStats> = local::run(host("line:3"), costs, |mut p| async move {
        match p.rank() {
            // Sends two hops at time 0: busy until 2.
            0 => p.send(2, 7, vec![1.0, 2.0]).await?,
            // Computes 3 phases, then swaps with rank 2 (one hop).
            1 => {
                p.compute(3);
                p.exchange(2, 1, vec![3.0]).await?;
            }
            // Receives rank 0's message (stamped 0): 0 + 2 = 2; then swaps
            // with rank 1, which arrives at 3: both end at 3 + 1 = 4.
            _ => {
                let got = p.receive(0, 7).await?;
                assert_eq!(got, vec![1.0, 2.0]);
                assert_eq!(p.clock(), 2.0);
                let got = p.exchange(1, 1, vec![4.0]).await?;
                assert_eq!(got, vec![3.0]);
            }
        }
        Ok(p.stats())
    })
    .unwrap();
    assert_eq!(stats[0].clock, 2.0);
    assert_eq!(
        (stats[0].messages, stats[0].hops, stats[0].bytes),
        (1, 2, 16)
    );
    assert_eq!(stats[1].clock, 4.0);
    assert_eq!(stats[2].clock, 4.0);
    assert_eq!(stats[2].waiting, 1.0);
    assert_eq!(stats[1].waiting, 0.0);
    for s in &stats {
        assert_eq!(s.clock, s.compute + s.communication + s.waiting);
    }
    // A barrier moves every clock to the latest; its messages are not counted.
    let stats: Vec<RankStats> = local::run(host("ring:8"), costs, |mut p| async move {
        p.compute(p.rank());
        p.barrier().await?;
        Ok(p.stats())
    })
    .unwrap();
    assert!(stats.iter().all(|s| s.clock == 7.0 && s.messages == 0));
    assert_eq!(stats.iter().map(|s| s.waiting).sum::<f64>(), 28.0);
    // A receive from a sender that is already past: the receiver waits.
    let stats: Vec<RankStats> = local::run(host("ring:4"), costs, |mut p| async move {
        if p.rank() == 1 {
            p.compute(5);
            p.send(2, 0, vec![]).await?;
        } else if p.rank() == 2 {
            p.receive(1, 0).await?;
        }
        Ok(p.stats())
    })
    .unwrap();
    assert_eq!((stats[2].clock, stats[2].waiting), (6.0, 5.0));
}

#[test]
fn a_failing_rank_stops_the_run_instead_of_hanging_it() {
    let err = local::run(host("ring:16"), Costs::default(), |mut p| async move {
        if p.rank() == 3 {
            p.send(99, 0, vec![]).await?;
        }
        // Everyone else waits for a message rank 3 never sends.
        if p.rank() != 3 {
            p.receive(3, 0).await?;
        }
        Ok(())
    })
    .unwrap_err();
    assert!(
        matches!(&err, Error::Parameter(m) if m.contains("rank 99")),
        "{err}"
    );
    let err = local::run(host("ring:2"), Costs::default(), |mut p| async move {
        p.send(1 - p.rank(), 40_000, vec![]).await
    })
    .unwrap_err();
    assert!(err.to_string().contains("tag 40000 is reserved"), "{err}");
}

/// 4096 ranks are 4096 tasks on a couple of threads, not OS threads.
#[test]
fn thousands_of_ranks() {
    let r = run(
        Algorithm::Fft,
        "cube:12",
        "torus:64x64",
        "xor",
        None,
        Costs::default(),
    );
    assert_eq!(r.ranks, 4096);
    assert_eq!(r.modelled_time, r.predicted.unwrap().time);
}

mod random {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random cube sizes, hosts, methods, algorithms and data sizes: the
        /// result checks and the modelled time is the recurrence's.
        #[test]
        fn any_run_checks_and_matches_the_recurrence(
            d in 1u32..=8,
            pick in 0usize..64,
            alg in 0usize..3,
            per_rank in 1u64..=4,
            ta in 0u32..4,
        ) {
            let options = hosts(d);
            let (host, method) = &options[pick % options.len()];
            let alg = [Algorithm::Fft, Algorithm::Bitonic, Algorithm::Allreduce][alg];
            let n = match alg {
                Algorithm::Fft => (per_rank.next_power_of_two() << d).to_string(),
                Algorithm::Bitonic => (per_rank << d).to_string(),
                _ => per_rank.to_string(),
            };
            let costs = Costs { ta: f64::from(ta) / 4.0, tc: 1.0, tb: 0.0 };
            let r = run(alg, &format!("cube:{d}"), host, method, Some(&n), costs);
            let p = r.predicted.clone().unwrap();
            prop_assert_eq!(r.modelled_time, p.time);
            prop_assert_eq!(r.waiting, p.waiting);
        }
    }
}
