//! The seeds' closed forms and numbers, from the streamed metrics.

use topoembed::embed::{self, Embedding};
use topoembed::metrics::{self, Metrics, Options};
use topoembed::model::{self, CcTime};
use topoembed::topology::{self, Topology};

fn try_measure(
    guest: &str,
    host: &str,
    method: &str,
    ta: f64,
    tc: f64,
) -> topoembed::Result<Metrics> {
    let g = topology::parse(guest).unwrap();
    let h = topology::parse(host).unwrap();
    let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
    let options = Options {
        ta,
        tc,
        progress: None,
        // These cases check dilations and CC times up to 2^30 nodes; the
        // traffic metrics have tests of their own (traffic.rs, closed_forms.rs).
        routing: metrics::Routing::Off,
        fat_edges: None,
    };
    metrics::measure(g.as_ref(), h.as_ref(), e.as_ref(), &options)
}

fn measure(guest: &str, host: &str, method: &str, ta: f64, tc: f64) -> Metrics {
    try_measure(guest, host, method, ta, tc).unwrap()
}

/// Largest d streamed: 26 by default; `TOPOEMBED_GOLDEN_MAX=N` streams
/// every d up to N (at most 30; .ci/run sets 27, a stage of its own), and
/// `TOPOEMBED_FULL_GOLDEN=1` up to 30 (2^30 nodes, 1.6e10 edges: about
/// 3.5 minutes on 2 cores for d = 27..30).
fn largest_ring_dimension() -> u32 {
    if std::env::var("TOPOEMBED_FULL_GOLDEN").as_deref() == Ok("1") {
        return 30;
    }
    match std::env::var("TOPOEMBED_GOLDEN_MAX") {
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(d @ 2..=30) => d,
            _ => panic!("TOPOEMBED_GOLDEN_MAX={text}: give a d from 2 to 30"),
        },
        Err(_) => 26,
    }
}

/// xor paper §3: D_i = 2^i (i <= d-2), D_{d-1} = 2^(d-2), D_a = (3·2^(d-2) - 1)/d,
/// which Theorem 10 proves is the least of all constant-distance embeddings.
#[test]
fn xor_on_rings_has_the_optimal_average_distance() {
    for d in 2..=largest_ring_dimension() {
        let m = measure(
            &format!("cube:{d}"),
            &format!("ring:2^{d}"),
            "xor",
            0.0,
            1.0,
        );
        let mut want: Vec<u64> = (0..d - 1).map(|i| 1 << i).collect();
        want.push(1 << (d - 2));
        assert_eq!(m.distances.as_ref(), Some(&want), "d={d}");
        let da = f64::from(3 * (1u32 << (d - 2)) - 1) / f64::from(d);
        assert_eq!(m.average_distance, Some(da), "d={d}");
        assert_eq!(
            m.cc_time.unwrap().time,
            f64::from(3 * (1u32 << (d - 2)) - 1),
            "d={d}"
        );
    }
}

/// xor paper §2.3 and §4 on (2^(d/c))^c tori: standard D_i = 2^(i mod d/c);
/// xor D_i = 2^(d/c-2) at i = l·d/c - 1, else 2^(i mod d/c);
/// D_a(xor) = c(2^(d/c-2) + 2^(d/c-1) - 1)/d.
#[test]
fn square_tori_follow_the_papers_formulas() {
    for (c, k) in [
        (1, 2),
        (1, 5),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 8),
        (3, 2),
        (3, 3),
        (3, 5),
        (4, 2),
        (4, 3),
    ] {
        let d = c * k;
        let host = format!(
            "torus:{}",
            vec![(1u64 << k).to_string(); c as usize].join("x")
        );
        let std = measure(&format!("cube:{d}"), &host, "standard", 0.0, 1.0);
        let want: Vec<u64> = (0..d).map(|i| 1 << (i % k)).collect();
        assert_eq!(std.distances.as_ref(), Some(&want), "standard {host}");
        let xor = measure(&format!("cube:{d}"), &host, "xor", 0.0, 1.0);
        let want: Vec<u64> = (0..d)
            .map(|i| {
                if (i + 1) % k == 0 {
                    1 << (k - 2)
                } else {
                    1 << (i % k)
                }
            })
            .collect();
        assert_eq!(xor.distances.as_ref(), Some(&want), "xor {host}");
        let da = f64::from(c * ((1 << (k - 2)) + (1 << (k - 1)) - 1)) / f64::from(d);
        assert!(
            (xor.average_distance.unwrap() - da).abs() < 1e-12,
            "xor D_a {host}"
        );
    }
}

/// The journal's headline: on tori the standard embedding takes about 33% longer
/// than xor (CC time ratio 4/3 as d/c grows).
#[test]
fn standard_takes_a_third_longer_than_xor_on_large_square_tori() {
    let std = measure("cube:20", "torus:1024x1024", "standard", 0.0, 1.0)
        .cc_time
        .unwrap()
        .time;
    let xor = measure("cube:20", "torus:1024x1024", "xor", 0.0, 1.0)
        .cc_time
        .unwrap()
        .time;
    assert_eq!((std, xor), (2046.0, 1534.0));
    assert!((std / xor - 4.0 / 3.0).abs() < 0.001);
}

/// Figure 4 of the xor paper: the per-node dilations of standard and byweight on
/// a line of 8, and the CC 3-cube algorithm's times: 3Ta + 7Tc against
/// 3Ta + 9Tc, byweight's waiting periods adding up to 8Tc.
#[test]
fn figure_4_dilations_and_cc_times() {
    let g = topology::parse("cube:3").unwrap();
    let h = topology::parse("line:8").unwrap();
    let table = |method: &str| -> Vec<Vec<u64>> {
        let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
        (0..8)
            .map(|n| metrics::cube_dilations(3, e.as_ref(), h.as_ref(), n))
            .collect()
    };
    assert_eq!(table("standard"), vec![vec![1, 2, 4]; 8]);
    let byweight = [
        [3, 2, 1],
        [3, 3, 2],
        [4, 2, 2],
        [4, 3, 1],
        [4, 3, 1],
        [4, 2, 2],
        [3, 3, 2],
        [3, 2, 1],
    ];
    assert_eq!(table("byweight"), byweight.map(|r| r.to_vec()).to_vec());

    let (ta, tc) = (2.0, 3.0);
    let std = measure("cube:3", "line:8", "standard", ta, tc)
        .cc_time
        .unwrap();
    assert_eq!((std.time, std.waiting), (3.0 * ta + 7.0 * tc, 0.0));
    let bw = measure("cube:3", "line:8", "byweight", ta, tc)
        .cc_time
        .unwrap();
    assert_eq!(
        (bw.time, bw.waiting, bw.closed_form),
        (3.0 * ta + 9.0 * tc, 8.0 * tc, None)
    );
}

/// A plain two-array transcription of the recurrence, for checking the
/// in-place parallel one.
fn naive_recurrence(d: u32, e: &dyn Embedding, h: &dyn Topology) -> (u64, u128) {
    let mut t = vec![0u64; 1 << d];
    let mut waiting = 0u128;
    for i in 0..d {
        let prev = t.clone();
        for n in 0..1u64 << d {
            let m = n ^ (1 << i);
            let dil = h.distance(e.map(n), e.map(m));
            let ready = prev[n as usize].max(prev[m as usize]);
            waiting += u128::from(ready - prev[n as usize]);
            t[n as usize] = dil + ready;
        }
    }
    (t.into_iter().max().unwrap(), waiting)
}

#[test]
fn recurrence_matches_naive_transcription_and_closed_form() {
    for d in 2..=12u32 {
        let g = topology::parse(&format!("cube:{d}")).unwrap();
        for host in [
            format!("ring:2^{d}"),
            format!("line:2^{d}"),
            format!("torus:2x2^{}", d - 1),
        ] {
            let h = topology::parse(&host).unwrap();
            for (m, e) in embed::applicable(g.as_ref(), h.as_ref()) {
                let r = model::cc_recurrence(d, e.as_ref(), h.as_ref(), None).unwrap();
                let (comm, waiting) = naive_recurrence(d, e.as_ref(), h.as_ref());
                assert_eq!(
                    (r.communication, r.waiting),
                    (comm, waiting),
                    "{} {host} d={d}",
                    m.name
                );
                let metrics =
                    metrics::measure(g.as_ref(), h.as_ref(), e.as_ref(), &Options::default())
                        .unwrap();
                if let Some(distances) = metrics.distances {
                    // Constant distances: no waiting, and d(Ta + Tc·D_a) exactly.
                    assert_eq!(r.waiting, 0, "{} {host}", m.name);
                    let closed = CcTime::constant(1.5, 0.5, &distances);
                    let rec = CcTime::from_recurrence(1.5, 0.5, d, &r, None);
                    assert!((closed.time - rec.time).abs() < 1e-9, "{} {host}", m.name);
                }
            }
        }
    }
}

/// The recurrence runs in place, in u32 cells when the sums fit; cube:22 on a
/// ring with byweight needs u64 cells (22 · 2^21 > 2^32).
#[test]
fn recurrence_at_larger_sizes() {
    let m = measure("cube:20", "ring:2^20", "byweight", 0.0, 1.0);
    let cc = m.cc_time.unwrap();
    assert_eq!(cc.computed_by, "recurrence");
    assert!(cc.time >= m.dilation.total as f64 / (1u64 << 19) as f64);
    let g = topology::parse("cube:22").unwrap();
    let h = topology::parse("line:2^22").unwrap();
    let e = embed::build("gray", g.as_ref(), h.as_ref()).unwrap();
    let r = model::cc_recurrence(22, e.as_ref(), h.as_ref(), None).unwrap();
    // Gray order on a line: dimension i's edges span 1 .. 2^(i+1) - 1 nodes;
    // the slowest chain takes the longest of each.
    assert!(r.communication <= (0..22).map(|i| (1u64 << (i + 1)) - 1).sum::<u64>());
    assert!(r.communication >= (0..22).map(|i| 1u64 << i).sum::<u64>());
}

#[test]
fn cost_constants_are_checked() {
    for (ta, tc) in [(-1.0, 1.0), (0.0, f64::NAN), (f64::INFINITY, 1.0)] {
        let err = try_measure("cube:3", "ring:8", "xor", ta, tc).unwrap_err();
        assert!(err.to_string().contains("must be a finite number >= 0"));
    }
}

/// A stored graph goes through the same metrics and recurrence: a path whose
/// position p holds graph node btog(p), with `identity`, is exactly `gray`
/// (guest n at position gtob(n)) on line:64.
#[test]
fn stored_graph_hosts_measure_like_their_implicit_twins() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gray-path.txt");
    let edges: String = (0..63u64)
        .map(|p| {
            format!(
                "{} {}\n",
                topoembed::bits::btog(p),
                topoembed::bits::btog(p + 1)
            )
        })
        .collect();
    std::fs::write(&path, edges).unwrap();
    let stored = measure(
        "cube:6",
        &format!("graph:{}", path.display()),
        "identity",
        1.0,
        2.0,
    );
    let implicit = measure("cube:6", "line:64", "gray", 1.0, 2.0);
    assert_eq!(stored.dilation, implicit.dilation);
    assert_eq!(stored.per_dimension, implicit.per_dimension);
    assert_eq!(stored.cc_time, implicit.cc_time);
    assert_eq!(stored.cc_time.unwrap().computed_by, "recurrence");
}
