//! The network simulator: without contention it is the CC recurrence and the
//! runtime's clock; with contention, hand-checked queueing on tiny networks,
//! and the xor paper's remark that standard and xor embeddings run CC
//! algorithms without conflicts.

use topoembed::embed::{self, Params};
use topoembed::model;
use topoembed::runtime::algorithms::{bitonic, run_traced, Algorithm, Problem};
use topoembed::runtime::Costs;
use topoembed::simulate::{
    simulate, Activity, Duplex, Network, Op, Options, Simulation, Switching, Trace,
};
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;

fn network(contention: bool, ta: f64) -> Network {
    Network {
        contention,
        costs: Costs {
            ta,
            tc: 1.0,
            tb: 0.0,
        },
        ..Network::default()
    }
}

fn run(trace: &Trace, host: &dyn Topology, net: Network) -> Simulation {
    simulate(
        trace,
        host,
        &net,
        &Options {
            record: 64,
            skip_links: false,
        },
        None,
    )
    .unwrap()
}

/// Every host of 2^d nodes a cube guest embeds into.
fn hosts(d: u32) -> Vec<String> {
    let (a, b) = (d / 2, d - d / 2);
    let mut hosts = vec![format!("ring:{}", 1u64 << d), format!("line:{}", 1u64 << d)];
    if a > 0 {
        hosts.push(format!("torus:{}x{}", 1u64 << a, 1u64 << b));
        hosts.push(format!("mesh:{}x{}", 1u64 << a, 1u64 << b));
    }
    hosts.push(format!("cube:{d}"));
    hosts
}

/// Without contention the simulated makespan and waiting are the CC
/// recurrence's, for every method on every host of cube:2..10 guests.
#[test]
fn without_contention_the_simulation_is_the_recurrence() {
    let mut pairs = 0;
    for d in 2..=10u32 {
        let guest = topology::parse(&format!("cube:{d}")).unwrap();
        let stages: Vec<u32> = (0..d).collect();
        for host in hosts(d) {
            let host = topology::parse(&host).unwrap();
            for (method, emb) in embed::applicable(guest.as_ref(), host.as_ref()) {
                let r = model::cc_recurrence_stages(d, &stages, emb.as_ref(), host.as_ref(), None)
                    .unwrap();
                let trace = Trace::cc(d, 0, &stages, 1, emb.as_ref()).unwrap();
                let sim = run(&trace, host.as_ref(), network(false, 2.0));
                let what = format!("cube:{d} {} {}", host.spec(), method.name);
                assert_eq!(
                    sim.makespan,
                    2.0 * d as f64 + r.communication as f64,
                    "{what}"
                );
                let totals = sim.totals();
                assert_eq!(totals.waiting, r.waiting as f64, "{what}");
                assert_eq!(totals.blocked, 0.0, "{what}");
                assert_eq!(
                    totals.compute,
                    2.0 * d as f64 * (1u64 << d) as f64,
                    "{what}"
                );
                assert_eq!(sim.messages, u64::from(d) << d, "{what}");
                let quick = Options {
                    record: 0,
                    skip_links: true,
                };
                let fast =
                    simulate(&trace, host.as_ref(), &network(false, 2.0), &quick, None).unwrap();
                assert_eq!(fast.makespan, sim.makespan, "{what}");
                assert_eq!(fast.hops, sim.hops, "{what}");
                assert!(fast.links.is_empty());
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 9 * 8, "only {pairs} pairs");
}

/// Bitonic sort's stage sequence too (dimensions 0; 1,0; 2,1,0; ..).
#[test]
fn bitonic_stages_without_contention_are_the_recurrence() {
    for (guest, host, method) in [
        ("cube:6", "line:64", "byweight"),
        ("cube:6", "ring:64", "xor"),
        ("cube:6", "torus:8x8", "standard"),
    ] {
        let guest = topology::parse(guest).unwrap();
        let host = topology::parse(host).unwrap();
        let emb = embed::build(method, guest.as_ref(), host.as_ref()).unwrap();
        let stages = bitonic::stages(6);
        let r = model::cc_recurrence_stages(6, &stages, emb.as_ref(), host.as_ref(), None).unwrap();
        let trace = Trace::cc(6, 0, &stages, 1, emb.as_ref()).unwrap();
        let sim = run(&trace, host.as_ref(), network(false, 0.0));
        assert_eq!(sim.makespan, r.communication as f64, "{method}");
        assert_eq!(sim.totals().waiting, r.waiting as f64, "{method}");
    }
}

/// The xor paper (§4.6): with standard and xor embeddings "conflicts never
/// occur" for CC d-cube algorithms. Store-and-forward with full-duplex links
/// confirms it: contention changes nothing.
#[test]
fn standard_and_xor_have_no_conflicts() {
    for d in 2..=8u32 {
        let guest = topology::parse(&format!("cube:{d}")).unwrap();
        let stages: Vec<u32> = (0..d).collect();
        for host in hosts(d) {
            let host = topology::parse(&host).unwrap();
            for method in ["standard", "xor"] {
                let Ok(emb) = embed::build(method, guest.as_ref(), host.as_ref()) else {
                    continue;
                };
                let trace = Trace::cc(d, 0, &stages, 1, emb.as_ref()).unwrap();
                let free = run(&trace, host.as_ref(), network(false, 1.0));
                let busy = run(&trace, host.as_ref(), network(true, 1.0));
                let what = format!("cube:{d} {} {method}", host.spec());
                assert_eq!(busy.makespan, free.makespan, "{what}");
                assert_eq!(busy.delayed_messages, 0, "{what}");
                assert_eq!(busy.link_delay, 0.0, "{what}");
            }
        }
    }
}

/// Byweight on a line has no constant distances: messages of different
/// lengths cross, and links are shared; contention delays messages.
#[test]
fn byweight_on_a_line_meets_contention() {
    let guest = topology::parse("cube:6").unwrap();
    let host = topology::parse("line:64").unwrap();
    let emb = embed::build("byweight", guest.as_ref(), host.as_ref()).unwrap();
    let trace = Trace::cc(6, 0, &(0..6).collect::<Vec<_>>(), 1, emb.as_ref()).unwrap();
    let free = run(&trace, host.as_ref(), network(false, 1.0));
    let busy = run(&trace, host.as_ref(), network(true, 1.0));
    assert!(busy.delayed_messages > 0);
    assert!(busy.link_delay > 0.0);
    assert!(
        busy.makespan > free.makespan,
        "{} {}",
        busy.makespan,
        free.makespan
    );
    // Half-duplex links make it worse still.
    let half = run(
        &trace,
        host.as_ref(),
        Network {
            duplex: Duplex::Half,
            ..network(true, 1.0)
        },
    );
    assert!(half.makespan > busy.makespan);
}

/// Per-process times add up, intervals tile each recorded process's time.
#[test]
fn intervals_tile_the_time() {
    let guest = topology::parse("cube:5").unwrap();
    let host = topology::parse("line:32").unwrap();
    let emb = embed::build("byweight", guest.as_ref(), host.as_ref()).unwrap();
    let trace = Trace::cc(5, 0, &(0..5).collect::<Vec<_>>(), 1, emb.as_ref()).unwrap();
    for contention in [false, true] {
        let sim = run(&trace, host.as_ref(), network(contention, 1.5));
        for (p, t) in sim.processes.iter().enumerate() {
            let sum = t.compute + t.communication + t.waiting + t.blocked;
            assert!((sum - t.end).abs() < 1e-9, "process {p}: {t:?}");
            let iv = &sim.intervals[p];
            assert_eq!(iv[0].start, 0.0);
            assert_eq!(iv.last().unwrap().end, t.end);
            for w in iv.windows(2) {
                assert_eq!(w[0].end, w[1].start, "process {p}");
            }
            let of = |a: Activity| -> f64 {
                iv.iter()
                    .filter(|i| i.activity == a)
                    .map(|i| i.end - i.start)
                    .sum()
            };
            assert!((of(Activity::Compute) - t.compute).abs() < 1e-9);
            assert!((of(Activity::Wait) - t.waiting).abs() < 1e-9);
            assert!((of(Activity::Blocked) - t.blocked).abs() < 1e-9);
        }
    }
}

/// Without contention a recorded run replays to the runtime's own clocks,
/// rank by rank, for every algorithm (Cannon's shifts too).
#[test]
fn recorded_runs_replay_to_the_runtime_clock() {
    let costs = Costs {
        ta: 1.0,
        tc: 2.0,
        tb: 0.25,
    };
    for (alg, guest, host, method, n) in [
        (Algorithm::Fft, "cube:5", "ring:32", "standard", Some("256")),
        (
            Algorithm::Bitonic,
            "cube:4",
            "line:16",
            "byweight",
            Some("64"),
        ),
        (
            Algorithm::Allreduce,
            "cube:4",
            "torus:4x4",
            "xor",
            Some("3"),
        ),
        (
            Algorithm::Cannon,
            "torus:4x4",
            "cube:4",
            "gray",
            Some("8x4x12"),
        ),
        (Algorithm::Cannon, "torus:4x4", "ring:16", "identity", None),
    ] {
        let vt = VirtualTopology::from_specs(guest, host, method, &Params::default()).unwrap();
        let problem = Problem::new(alg, &vt, n).unwrap();
        let (report, trace) = run_traced(&vt, &problem, costs).unwrap();
        let net = Network {
            contention: false,
            costs,
            ..Network::default()
        };
        let sim = simulate(&trace, vt.host(), &net, &Options::default(), None).unwrap();
        assert_eq!(sim.messages, report.messages, "{alg} {host}");
        assert_eq!(sim.hops, report.hops, "{alg} {host}");
        for (rank, (s, r)) in sim.processes.iter().zip(&report.per_rank).enumerate() {
            let what = format!("{alg} {host} rank {rank}: {s:?} vs {r:?}");
            assert!((s.end - r.clock).abs() < 1e-9, "{what}");
            assert!((s.waiting - r.waiting).abs() < 1e-9, "{what}");
            assert!((s.compute - r.compute).abs() < 1e-9, "{what}");
            assert!((s.communication - r.communication).abs() < 1e-9, "{what}");
        }
        assert!((sim.makespan - report.modelled_time).abs() < 1e-9);
    }
}

/// The CC trace of a problem (local phases, then stages) is the runtime's
/// prediction for it, and the same as simulating its recorded run.
#[test]
fn cc_trace_of_a_problem_is_its_prediction() {
    let costs = Costs {
        ta: 1.0,
        tc: 1.0,
        tb: 0.125,
    };
    for (alg, host, method, n) in [
        (Algorithm::Fft, "line:16", "byweight", "64"),
        (Algorithm::Bitonic, "ring:16", "standard", "48"),
        (Algorithm::Allreduce, "torus:4x4", "xor", "2"),
    ] {
        let vt = VirtualTopology::from_specs("cube:4", host, method, &Params::default()).unwrap();
        let problem = Problem::new(alg, &vt, Some(n)).unwrap();
        let trace = Trace::of_problem(&problem, vt.embedding()).unwrap();
        for contention in [false, true] {
            let net = Network {
                contention,
                costs,
                ..Network::default()
            };
            let from_structure =
                simulate(&trace, vt.host(), &net, &Options::default(), None).unwrap();
            let (report, recorded) = run_traced(&vt, &problem, costs).unwrap();
            let from_run = simulate(&recorded, vt.host(), &net, &Options::default(), None).unwrap();
            assert_eq!(
                from_structure.makespan, from_run.makespan,
                "{alg} {contention}"
            );
            if !contention {
                let predicted = report.predicted.unwrap();
                assert_eq!(from_structure.makespan, predicted.time, "{alg}");
            }
        }
    }
    let cannon =
        VirtualTopology::from_specs("torus:4x4", "cube:4", "gray", &Params::default()).unwrap();
    let problem = Problem::new(Algorithm::Cannon, &cannon, None).unwrap();
    assert!(Trace::of_problem(&problem, cannon.embedding()).is_err());
}

fn line(nodes: u64) -> Box<dyn Topology> {
    topology::parse(&format!("line:{nodes}")).unwrap()
}

fn exchange(with: u64) -> Op {
    Op::SendRecv {
        to: with,
        values: 1,
        from: with,
        tag: 0,
    }
}

/// Two exchanges over line:4 (0<->2, 1<->3; 1 and 3 compute first) meet on
/// link 1->2 at time 1: message 0->2 waits there one time unit.
#[test]
fn two_messages_queue_for_one_link() {
    let trace = Trace {
        placement: vec![0, 1, 2, 3],
        ops: vec![
            vec![exchange(2)],
            vec![Op::Compute { phases: 1 }, exchange(3)],
            vec![exchange(0)],
            vec![Op::Compute { phases: 1 }, exchange(1)],
        ],
        source: "hand-made".into(),
    };
    let host = line(4);
    let busy = run(&trace, host.as_ref(), network(true, 1.0));
    let ends: Vec<f64> = busy.processes.iter().map(|p| p.end).collect();
    assert_eq!(ends, [2.0, 3.0, 3.0, 3.0]);
    assert_eq!(busy.processes[2].blocked, 1.0);
    assert_eq!(busy.delayed_messages, 1);
    assert_eq!(busy.link_delay, 1.0);
    let link = busy
        .links
        .iter()
        .find(|l| (l.from, l.to) == (1, 2))
        .unwrap();
    assert_eq!((link.busy, link.messages), (2.0, 2));
    let free = run(&trace, host.as_ref(), network(false, 1.0));
    let ends: Vec<f64> = free.processes.iter().map(|p| p.end).collect();
    assert_eq!(ends, [2.0, 3.0, 2.0, 3.0]);
}

/// An exchange over one half-duplex link takes two message times.
#[test]
fn half_duplex_serialises_an_exchange() {
    let trace = Trace {
        placement: vec![0, 1],
        ops: vec![vec![exchange(1)], vec![exchange(0)]],
        source: "hand-made".into(),
    };
    let host = line(2);
    let full = run(&trace, host.as_ref(), network(true, 0.0));
    assert_eq!(full.makespan, 1.0);
    let half = Network {
        duplex: Duplex::Half,
        ..network(true, 0.0)
    };
    let half = run(&trace, host.as_ref(), half);
    assert_eq!(half.makespan, 2.0);
    assert_eq!(half.links.len(), 1);
    assert_eq!(half.links[0].busy, 2.0);
}

/// Cut-through: B + (hops - 1)·T_h alone; store-and-forward hops·B.
#[test]
fn cut_through_pipelines_the_hops() {
    let trace = Trace {
        placement: vec![0, 3],
        ops: vec![
            vec![Op::Send {
                to: 1,
                tag: 0,
                values: 4,
            }],
            vec![Op::Receive { from: 0, tag: 0 }],
        ],
        source: "hand-made".into(),
    };
    let host = line(4);
    let costs = Costs {
        ta: 0.0,
        tc: 1.0,
        tb: 0.5,
    };
    for (switching, expected) in [
        (Switching::StoreAndForward, 3.0 * 17.0),
        (Switching::CutThrough, 17.0 + 2.0 * 0.25),
    ] {
        for contention in [false, true] {
            let net = Network {
                switching,
                contention,
                costs,
                th: 0.25,
                ..Network::default()
            };
            let sim = run(&trace, host.as_ref(), net);
            assert_eq!(sim.makespan, expected, "{switching:?}");
            assert_eq!(sim.processes[0].end, expected, "the sender is busy as long");
        }
    }
}

/// In cut-through mode a message blocked behind another waits where its
/// header is and follows it: 0->3 and 1->3 on line:4, both at time 0.
#[test]
fn cut_through_messages_queue_behind_each_other() {
    let trace = Trace {
        placement: vec![0, 1, 3],
        ops: vec![
            vec![Op::Send {
                to: 2,
                tag: 0,
                values: 0,
            }],
            vec![Op::Send {
                to: 2,
                tag: 1,
                values: 0,
            }],
            vec![
                Op::Receive { from: 0, tag: 0 },
                Op::Receive { from: 1, tag: 1 },
            ],
        ],
        source: "hand-made".into(),
    };
    let host = line(4);
    let net = Network {
        switching: Switching::CutThrough,
        th: 0.5,
        ..network(true, 0.0)
    };
    let sim = run(&trace, host.as_ref(), net);
    // 0->3: links 0-1 [0,1], 1-2 [0.5,1.5], 2-3 [1,2]; arrives 2.
    // 1->3 leaves when the receive is posted, at 2: links [2,3], [2.5,3.5]; arrives 3.5.
    assert_eq!(sim.processes[2].end, 3.5);
    assert_eq!(sim.delayed_messages, 0);
}

/// Processes sharing a node share its processor: phases run one at a time.
#[test]
fn processes_on_one_node_share_its_processor() {
    let trace = Trace {
        placement: vec![0, 0, 1],
        ops: vec![
            vec![Op::Compute { phases: 1 }],
            vec![Op::Compute { phases: 1 }],
            vec![Op::Compute { phases: 1 }],
        ],
        source: "hand-made".into(),
    };
    let host = line(2);
    let sim = run(&trace, host.as_ref(), network(true, 1.0));
    let ends: Vec<f64> = sim.processes.iter().map(|p| p.end).collect();
    assert_eq!(ends, [1.0, 2.0, 1.0]);
    assert_eq!(sim.processor_delay, 1.0);
    assert_eq!(
        run(&trace, host.as_ref(), network(false, 1.0)).makespan,
        1.0
    );
}

/// A many-to-one embedding (a mesh reshaped onto a smaller cube): messages
/// between processes on one node are free, phases queue for the processor.
#[test]
fn many_to_one_halo_exchange() {
    let guest = topology::parse("mesh:8x8").unwrap();
    let host = topology::parse("cube:4").unwrap();
    let emb = embed::build("reshape", guest.as_ref(), host.as_ref()).unwrap();
    let trace = Trace::halo(guest.as_ref(), emb.as_ref(), 2, 1).unwrap();
    assert_eq!(trace.processes(), 64);
    let free = run(&trace, host.as_ref(), network(false, 1.0));
    let busy = run(&trace, host.as_ref(), network(true, 1.0));
    assert!(busy.processor_delay > 0.0);
    assert!(busy.makespan >= free.makespan + 3.0, "4 processes per node");
    assert_eq!(free.messages, 2 * 2 * 112);
}

/// Barriers move every clock to the latest.
#[test]
fn barrier_waits_for_the_latest() {
    let trace = Trace {
        placement: vec![0, 1],
        ops: vec![
            vec![
                Op::Compute { phases: 3 },
                Op::Barrier,
                Op::Compute { phases: 1 },
            ],
            vec![Op::Barrier, Op::Compute { phases: 1 }],
        ],
        source: "hand-made".into(),
    };
    let sim = run(&trace, line(2).as_ref(), network(true, 1.0));
    assert_eq!(sim.processes[1].waiting, 3.0);
    assert_eq!(sim.makespan, 4.0);
}

/// Bad traces: a receive nobody answers, an unknown process, a node off the host.
#[test]
fn bad_traces_are_errors() {
    let host = line(2);
    let stuck = Trace {
        placement: vec![0, 1],
        ops: vec![vec![Op::Receive { from: 1, tag: 7 }], vec![]],
        source: "hand-made".into(),
    };
    let err = simulate(
        &stuck,
        host.as_ref(),
        &Network::default(),
        &Options::default(),
        None,
    )
    .unwrap_err();
    assert!(matches!(err, Error::Parameter(_)));
    assert!(err.to_string().contains("deadlocks"), "{err}");
    assert!(err.to_string().contains("tag 7"), "{err}");
    let unknown = Trace {
        ops: vec![vec![exchange(5)], vec![]],
        ..stuck.clone()
    };
    assert!(simulate(
        &unknown,
        host.as_ref(),
        &Network::default(),
        &Options::default(),
        None
    )
    .unwrap_err()
    .to_string()
    .contains("process 5"));
    let off = Trace {
        placement: vec![0, 9],
        ..stuck.clone()
    };
    assert!(matches!(
        simulate(
            &off,
            host.as_ref(),
            &Network::default(),
            &Options::default(),
            None
        ),
        Err(Error::Mismatch(_))
    ));
    let negative = Network {
        th: -1.0,
        ..Network::default()
    };
    assert!(simulate(&stuck, host.as_ref(), &negative, &Options::default(), None).is_err());
    assert!(Trace::cc(
        3,
        0,
        &[3],
        1,
        embed::build(
            "standard",
            topology::parse("cube:3").unwrap().as_ref(),
            line(8).as_ref()
        )
        .unwrap()
        .as_ref()
    )
    .is_err());
}
