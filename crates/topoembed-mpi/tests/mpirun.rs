//! The algorithms and the reordered communicators under `mpirun` (needs the
//! `mpi` feature and Open MPI's `mpirun`): every rank verifies its result;
//! counts and modelled time equal the in-process run's; every rank's guest
//! neighbours sit at their predicted host distance; bad input makes every
//! rank exit with a message, not a hang.
#![cfg(feature = "mpi")]

#[path = "../../topoembed-reorder/tests/common/session.rs"]
mod session;
use session::mpirun_command;

use serde_json::Value;
use topoembed::embed::Params;
use topoembed::runtime::algorithms::{run_local, Algorithm, Problem};
use topoembed::runtime::Costs;
use topoembed::virtual_topology::VirtualTopology;

/// `mpirun -np N topoembed-mpi ARGS`, with a time limit so a hang fails.
fn mpirun(np: u64, args: &[&str]) -> (i32, String, String) {
    let (mut cmd, _session) = mpirun_command(np);
    let out = cmd
        .arg(env!("CARGO_BIN_EXE_topoembed-mpi"))
        .args(args)
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .output()
        .expect("mpirun must be installed (openmpi-bin)");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn algorithm(name: &str) -> Algorithm {
    name.parse().unwrap()
}

/// Each algorithm with 4, 8 and 16 ranks on two hosts/methods; the JSON
/// report from rank 0 against the in-process run of the same problem.
#[test]
fn algorithms_under_mpirun_match_the_in_process_runs() {
    let costs = Costs {
        ta: 0.5,
        tc: 1.0,
        tb: 0.0,
    };
    for d in [2u32, 3, 4] {
        let p = 1u64 << d;
        let (a, b) = (1u64 << (d / 2), 1u64 << (d - d / 2));
        let cube = format!("cube:{d}");
        let cases: Vec<(&str, String, String, &str, Option<String>)> = vec![
            (
                "fft",
                cube.clone(),
                format!("ring:{p}"),
                "xor",
                Some((4 * p).to_string()),
            ),
            ("fft", cube.clone(), format!("torus:{a}x{b}"), "gray", None),
            (
                "bitonic",
                cube.clone(),
                format!("ring:{p}"),
                "xor",
                Some((3 * p).to_string()),
            ),
            (
                "bitonic",
                cube.clone(),
                format!("line:{p}"),
                "byweight",
                None,
            ),
            (
                "allreduce",
                cube.clone(),
                format!("ring:{p}"),
                "xor",
                Some("5".into()),
            ),
            (
                "allreduce",
                cube.clone(),
                format!("torus:{a}x{b}"),
                "standard",
                None,
            ),
        ];
        let mut cases = cases;
        if d % 2 == 0 {
            let torus = format!("torus:{a}x{a}");
            cases.push((
                "cannon",
                torus.clone(),
                cube.clone(),
                "gray",
                Some(format!("{}", 4 * a)),
            ));
            cases.push((
                "cannon",
                torus.clone(),
                torus.clone(),
                "identity",
                Some(format!("{}x{}x{}", 2 * a, 3 * a, a)),
            ));
        }
        for (alg, guest, host, method, n) in cases {
            let mut args = vec![
                "run", alg, &guest, &host, "--method", method, "--ta", "0.5", "--format", "json",
            ];
            if let Some(n) = &n {
                args.extend(["--n", n]);
            }
            let (code, out, err) = mpirun(p, &args);
            assert_eq!(code, 0, "{args:?}: {err}");
            let report: Value =
                serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
            let vt =
                VirtualTopology::from_specs(&guest, &host, method, &Params::default()).unwrap();
            let problem = Problem::new(algorithm(alg), &vt, n.as_deref()).unwrap();
            let local = run_local(&vt, &problem, costs).unwrap();
            assert_eq!(report["check"]["passed"], true, "{args:?}");
            assert_eq!(report["ranks_failed"], 0);
            assert_eq!(report["messages"], local.messages, "{args:?}");
            assert_eq!(report["hops"], local.hops, "{args:?}");
            assert_eq!(report["bytes"], local.bytes, "{args:?}");
            assert_eq!(
                report["modelled_time"].as_f64(),
                Some(local.modelled_time),
                "{args:?}"
            );
            assert_eq!(report["waiting"].as_f64(), Some(local.waiting), "{args:?}");
            if let Some(p) = &local.predicted {
                assert_eq!(report["predicted"]["time"].as_f64(), Some(p.time));
            }
        }
    }
}

/// A placement that reverses the world ranks changes nothing the program sees.
#[test]
fn a_placement_file_reorders_the_processes() {
    let dir = std::env::temp_dir().join(format!("topoembed-mpi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let reversed = dir.join("reversed.txt");
    let lines: Vec<String> = (0..16).rev().map(|n| n.to_string()).collect();
    std::fs::write(&reversed, lines.join("\n")).unwrap();
    let path = reversed.to_str().unwrap();
    let (code, out, err) = mpirun(
        16,
        &[
            "run",
            "allreduce",
            "cube:4",
            "ring:16",
            "-m",
            "xor",
            "--placement",
            path,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["modelled_time"].as_f64(), Some(11.0));
    assert_eq!(report["hops"], 176);
    let (code, out, err) = mpirun(
        16,
        &[
            "check-neighbors",
            "cube:4",
            "ring:16",
            "-m",
            "xor",
            "--placement",
            path,
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("all neighbours at their predicted host distance"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Every rank's guest neighbours — point to point in the guest-ordered
/// communicator, through MPI_Cart_shift for grid guests, and by a
/// neighbour allgather on the distributed graph — sit at the host distance
/// the embedding's metrics predict; the total equals twice the metrics'
/// dilation total.
#[test]
fn reordered_communicators_put_neighbours_at_their_predicted_distance() {
    for (np, guest, host, method, total) in [
        (16, "cube:4", "ring:16", "xor", 88),
        (16, "cube:4", "ring:16", "standard", 120),
        (16, "cube:4", "torus:4x4", "gray", 0),
        (16, "torus:4x4", "cube:4", "gray", 32),
        (8, "mesh:2x4", "cube:3", "gray", 10),
        (8, "ring:8", "cube:3", "gray", 8),
        (8, "cube:3", "line:8", "byweight", 0),
        (4, "torus:2x2", "ring:4", "identity", 0),
    ] {
        let (code, out, err) = mpirun(np, &["check-neighbors", guest, host, "-m", method]);
        assert_eq!(code, 0, "{guest} {host} {method}: {err}");
        assert!(
            out.contains("all neighbours at their predicted host distance"),
            "{out}"
        );
        if total > 0 {
            assert!(
                out.contains(&format!("dilation total {total}")),
                "{guest} {host}: {out}"
            );
        }
        if guest.starts_with("torus") || guest.starts_with("mesh") || guest.starts_with("ring") {
            assert!(
                out.contains("MPI_Cart_shift neighbours at their predicted distance"),
                "{out}"
            );
        }
    }
}

/// Bad input: every rank prints the reason and exits 2; nobody hangs and
/// no MPI abort trace appears.
#[test]
fn bad_input_ends_every_rank_with_a_message() {
    let dir = std::env::temp_dir().join(format!("topoembed-mpi-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0\n1\nthree\n3\n").unwrap();
    let twice = dir.join("twice.txt");
    std::fs::write(&twice, "0\n1\n1\n3\n").unwrap();
    let short = dir.join("short.txt");
    std::fs::write(&short, "0\n1\n").unwrap();
    let fft_placed = |file: &std::path::Path| -> Vec<String> {
        let file = file.to_str().unwrap();
        [
            "run",
            "fft",
            "cube:2",
            "ring:4",
            "-m",
            "xor",
            "--placement",
            file,
        ]
        .map(String::from)
        .to_vec()
    };
    let words = |line: &str| -> Vec<String> { line.split(' ').map(String::from).collect() };
    let mut check_short = words("check-neighbors cube:2 ring:4 -m xor --placement");
    check_short.push(short.to_str().unwrap().to_string());
    let cases: Vec<(u64, Vec<String>, &str)> = vec![
        (
            8,
            words("run fft cube:4 ring:16 -m xor"),
            "mpirun started 8 processes but ring:16 has 16 nodes",
        ),
        (
            4,
            fft_placed(&bad),
            "line 3: 'three' is not a host node number",
        ),
        (
            4,
            fft_placed(&twice),
            "host node 1 is given to world ranks 1 and 2",
        ),
        (
            4,
            check_short,
            "lists 2 world ranks, but the host has 4 nodes",
        ),
        (
            4,
            words("run fft torus:2x2 ring:4 -m identity"),
            "the guest must be cube:D",
        ),
        (
            4,
            words("run bitonic cube:2 ring:4 -m xor --n 6"),
            "multiple of 4",
        ),
        (
            4,
            words("run fft cube:2 ring:4 -m spiral"),
            "unknown method 'spiral'",
        ),
    ];
    for (np, args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = mpirun(np, &args);
        assert_ne!(code, 0, "{args:?}");
        assert_ne!(code, 124, "{args:?} hung");
        assert!(out.is_empty(), "{args:?}: {out}");
        let lines = err
            .lines()
            .filter(|l| l.starts_with("error (rank "))
            .count() as u64;
        assert_eq!(lines, np, "{args:?}: every rank says why: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("MPI_ABORT"), "{args:?}: {err}");
        assert!(err.contains("Exit code:    2"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// MPI_Cart_create done right: sides fitted to the host, ranks placed by an
/// embedding, every MPI_Cart_shift neighbour one hop away on a cube or torus.
#[test]
fn cartesian_communicators_fit_the_host() {
    for (np, args, want) in [
        (
            16,
            vec!["cart", "cube:4", "--axes", "2"],
            "torus:4x4 on cube:4 (gray)",
        ),
        (
            16,
            vec!["cart", "cube:4", "--axes", "3", "--mesh"],
            "mesh:4x2x2 on cube:4 (gray)",
        ),
        (
            16,
            vec!["cart", "torus:4x4"],
            "torus:4x4 on torus:4x4 (identity)",
        ),
        (
            8,
            vec!["cart", "torus:4x2"],
            "torus:4x2 on torus:4x2 (identity)",
        ),
    ] {
        let (code, out, err) = mpirun(np, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(want), "{args:?}: {out}");
        assert!(out.contains("at most 1 hops apart"), "{args:?}: {out}");
    }
}

/// A graph guest needs no method: the general mapper places the ranks (a
/// shuffled torus:4x4 is found and laid out with every edge one hop), and
/// the distributed-graph communicator's neighbours are where it predicts.
#[test]
fn graph_guests_are_placed_by_the_mapper() {
    let dir = std::env::temp_dir().join(format!("topoembed-mpi-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // torus:4x4 with its nodes renumbered by v -> 5v + 3 mod 16.
    let relabel = |v: u64| (5 * v + 3) % 16;
    let mut edges = String::new();
    for v in 0..16u64 {
        let (x, y) = (v % 4, v / 4);
        for u in [(x + 1) % 4 + 4 * y, x + 4 * ((y + 1) % 4)] {
            edges += &format!("{} {}\n", relabel(v), relabel(u));
        }
    }
    let torus = dir.join("torus.txt");
    std::fs::write(&torus, edges).unwrap();
    let guest = format!("graph:{}", torus.display());
    let (code, out, err) = mpirun(16, &["check-neighbors", &guest, "torus:4x4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("all neighbours at their predicted host distance"),
        "{out}"
    );
    assert!(out.contains("dilation total 32"), "{out}");
    // Any other guest still names its method.
    let (code, _, err) = mpirun(16, &["check-neighbors", "cube:4", "torus:4x4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--method is needed for cube:4"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
