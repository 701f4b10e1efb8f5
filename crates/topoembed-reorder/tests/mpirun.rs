//! The preload library under `mpirun` (needs the `mpi` feature, Open MPI's
//! `mpicc` and `mpirun`; `mpifort` for the Fortran program): C and Fortran
//! programs (tests/programs) that check every value they receive run with
//! and without `LD_PRELOAD`; the results must be identical, the report
//! must say what the placement the program prints really costs on the
//! host, and bad settings must leave the application running unreordered.
#![cfg(feature = "mpi")]

mod common;

use common::{compile, library, mpirun_command};

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};

/// The test programs, compiled once into a temporary folder.
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("topoembed-reorder-programs");
        for (compiler, file, out) in [
            ("mpicc", "halo.c", "halo"),
            ("mpicc", "graph.c", "graph"),
            ("mpifort", "halo.f90", "halof"),
        ] {
            compile(compiler, file, &dir, out);
        }
        dir
    })
}

/// What one run printed.
#[derive(Debug)]
struct Run {
    code: i32,
    checksum: String,
    placement: Vec<u64>,
    verified: bool,
    stderr: String,
}

/// `mpirun -np NP PROGRAM ARGS` with the environment `env` forwarded, the
/// library preloaded when `preload`.
fn run(np: u64, program: &str, args: &[&str], env: &[(&str, &str)], preload: bool) -> Run {
    let (mut cmd, _session) = mpirun_command(np);
    let lib = library();
    let mut vars: Vec<(&str, String)> = env.iter().map(|&(k, v)| (k, v.to_string())).collect();
    if preload {
        vars.push(("LD_PRELOAD", lib.display().to_string()));
    }
    for (k, v) in &vars {
        cmd.args(["-x", k]).env(k, v);
    }
    let out = cmd
        .arg(programs().join(program))
        .args(args)
        .output()
        .expect("mpirun (openmpi-bin)");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|| {
                panic!(
                    "no '{key}' line in:\n{stdout}\n{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            })
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        checksum: line("checksum"),
        placement: line("placement")
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect(),
        verified: stdout.lines().any(|l| l == "verified"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The report line's "hop-bytes A -> B, max dilation C -> D".
fn reported(stderr: &str) -> ((u128, u128), (u64, u64)) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("topoembed-reorder: MPI_"))
        .unwrap_or_else(|| panic!("no report line in:\n{stderr}"));
    let after = |key: &str| -> (String, String) {
        let rest = &line[line.find(key).unwrap() + key.len()..];
        let mut parts = rest.split(" -> ");
        let a = parts.next().unwrap().trim().to_string();
        let b: String = parts
            .next()
            .unwrap()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        (a, b)
    };
    let (h0, h1) = after("hop-bytes ");
    let (d0, d1) = after("max dilation ");
    (
        (h0.parse().unwrap(), h1.parse().unwrap()),
        (d0.parse().unwrap(), d1.parse().unwrap()),
    )
}

/// Hop-bytes and max dilation of guest node g on the host node of world
/// rank `world[g]` (world rank r on node r).
fn measured(guest: &dyn Topology, host: &dyn Topology, world: &[u64]) -> (u128, u64) {
    let g = topoembed::mapper::WGraph::from_topology(guest).unwrap();
    let (mut total, mut max) = (0u128, 0u64);
    for v in 0..g.n() {
        for (u, w) in g.edges(v) {
            if u > v {
                let d = host.distance(world[v], world[u]);
                total += u128::from(w) * u128::from(d);
                max = max.max(d);
            }
        }
    }
    (total, max)
}

fn build(spec: &str) -> Box<dyn Topology> {
    topology::build(&spec.parse::<Spec>().unwrap()).unwrap()
}

/// The report's figures are those of the placements: identity before, the
/// printed placement after.
fn check_report(run: &Run, guest: &dyn Topology, host: &str) -> ((u128, u128), (u64, u64)) {
    let host = build(host);
    let ((h0, h1), (d0, d1)) = reported(&run.stderr);
    let identity: Vec<u64> = (0..run.placement.len() as u64).collect();
    assert_eq!(
        measured(guest, host.as_ref(), &identity),
        (h0, d0),
        "{}",
        run.stderr
    );
    assert_eq!(
        measured(guest, host.as_ref(), &run.placement),
        (h1, d1),
        "{}",
        run.stderr
    );
    ((h0, h1), (d0, d1))
}

const HOST: (&str, &str) = ("TOPOEMBED_HOST", "torus:4x4");
const REPORT: (&str, &str) = ("TOPOEMBED_REPORT", "1");

#[test]
fn ring_of_16_on_torus_4x4_goes_from_dilation_2_to_1() {
    let plain = run(16, "halo", &["16x1", "1"], &[], false);
    let placed = run(16, "halo", &["16x1", "1"], &[HOST, REPORT], true);
    for r in [&plain, &placed] {
        assert!(r.verified && r.code == 0, "{r:?}");
    }
    assert_eq!(plain.checksum, placed.checksum);
    assert_eq!(
        plain.placement,
        (0..16).collect::<Vec<_>>(),
        "Open MPI does not reorder"
    );
    assert_ne!(placed.placement, plain.placement);
    let (_, dilation) = check_report(&placed, build("ring:16").as_ref(), "torus:4x4");
    assert_eq!(dilation, (2, 1));
}

#[test]
fn three_dimensional_halo_exchange() {
    let plain = run(16, "halo", &["2x4x2", "1"], &[], false);
    let placed = run(16, "halo", &["2x4x2", "1"], &[HOST, REPORT], true);
    assert!(plain.verified && placed.verified, "{placed:?}");
    assert_eq!(plain.checksum, placed.checksum);
    // MPI's 2x4x2, last axis fastest: topoembed's 2x4x2 reversed; the
    // sides of 2 are single edges.
    let guest = build("grid:2x4wx2");
    let (hops, dilation) = check_report(&placed, guest.as_ref(), "torus:4x4");
    assert!(
        hops.1 < hops.0 && dilation.1 < dilation.0,
        "{}",
        placed.stderr
    );
}

#[test]
fn weighted_dist_graph_adjacent_and_general() {
    let guest = {
        // graph.c's graph: v ± 1 (volume 10), v ± 4 (volume 1) on 16 vertices.
        let mut edges = Vec::new();
        let mut volumes = Vec::new();
        for v in 0..16u64 {
            edges.push((v, (v + 1) % 16));
            volumes.push(20);
            edges.push((v, (v + 4) % 16));
            volumes.push(2);
        }
        topology::Graph::from_weighted_edges(
            Spec::Graph("graph.c".into()),
            16,
            &edges,
            Some(&volumes),
        )
        .unwrap()
    };
    for form in [&["4", "1"][..], &["4", "1", "general"][..]] {
        let plain = run(16, "graph", form, &[], false);
        let placed = run(16, "graph", form, &[HOST, REPORT], true);
        assert!(
            plain.verified && placed.verified && placed.code == 0,
            "{placed:?}"
        );
        assert_eq!(plain.checksum, placed.checksum);
        let (hops, _) = check_report(&placed, &guest, "torus:4x4");
        assert!(hops.1 < hops.0, "{}", placed.stderr);
    }
    // The mapper's fast preset (TOPOEMBED_PRESET=fast) places it too.
    let fast = ("TOPOEMBED_PRESET", "fast");
    let placed = run(
        16,
        "graph",
        &["4", "1", "general"],
        &[HOST, REPORT, fast],
        true,
    );
    assert!(placed.verified && placed.code == 0, "{placed:?}");
    let (hops, _) = check_report(&placed, &guest, "torus:4x4");
    assert!(hops.1 < hops.0, "{}", placed.stderr);
}

#[test]
fn fortran_cart_create_is_reordered() {
    let plain = run(16, "halof", &["16"], &[], false);
    let placed = run(16, "halof", &["16"], &[HOST, REPORT], true);
    assert!(plain.verified && placed.verified, "{placed:?}");
    assert_eq!(plain.checksum, placed.checksum);
    let (_, dilation) = check_report(&placed, build("ring:16").as_ref(), "torus:4x4");
    assert_eq!(dilation, (2, 1));
}

#[test]
fn processes_sharing_host_nodes() {
    // 16 processes, 2 per node of torus:2x4, grouped by processor name.
    let per = [
        ("TOPOEMBED_HOST", "torus:2x4"),
        ("TOPOEMBED_PER_NODE", "2"),
        REPORT,
    ];
    let placed = run(16, "halo", &["16x1", "1"], &per, true);
    assert!(placed.verified, "{placed:?}");
    let (_, (before, after)) = reported(&placed.stderr);
    assert!(after < before, "{}", placed.stderr);
    // Ranks 2k and 2k + 1 share node k: neighbours on the ring share a node
    // or sit one hop apart.
    let host = build("torus:2x4");
    for g in 0..16 {
        let (a, b) = (placed.placement[g] / 2, placed.placement[(g + 1) % 16] / 2);
        assert!(host.distance(a, b) <= 1, "{:?}", placed.placement);
    }
}

#[test]
fn bad_settings_leave_the_application_running_unreordered() {
    let plain = run(16, "halo", &["16x1", "1"], &[], false);
    let cases: [&[(&str, &str)]; 5] = [
        &[("TOPOEMBED_HOST", "torus:4xq")],
        &[("TOPOEMBED_HOST", "torus:4x8")],
        &[HOST, ("TOPOEMBED_PLACEMENT", "/nonexistent/placement")],
        &[HOST, ("TOPOEMBED_PER_NODE", "zero")],
        &[HOST, ("TOPOEMBED_PRESET", "quick")],
    ];
    for env in cases {
        let r = run(16, "halo", &["16x1", "1"], env, true);
        assert!(r.verified && r.code == 0, "{env:?}: {r:?}");
        assert_eq!(r.checksum, plain.checksum);
        assert_eq!(r.placement, plain.placement, "{env:?}");
        let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("warning")).collect();
        assert_eq!(
            warnings.len(),
            1,
            "one warning line, on rank 0: {}",
            r.stderr
        );
        assert!(
            warnings[0].contains("runs without reordering"),
            "{}",
            warnings[0]
        );
    }
    // The graph call too.
    let r = run(
        16,
        "graph",
        &["4", "1"],
        &[("TOPOEMBED_HOST", "torus:4x8")],
        true,
    );
    assert!(
        r.verified && r.stderr.contains("do not fill torus:4x8 evenly"),
        "{r:?}"
    );
}

#[test]
fn without_reorder_or_host_the_calls_pass_through() {
    let plain = run(16, "halo", &["16x1", "0"], &[], false);
    for env in [&[HOST, REPORT][..], &[REPORT][..]] {
        let r = run(16, "halo", &["16x1", "0"], env, true);
        assert!(r.verified, "{r:?}");
        assert_eq!(
            (&r.checksum, &r.placement),
            (&plain.checksum, &plain.placement)
        );
        assert!(!r.stderr.contains("topoembed-reorder"), "{}", r.stderr);
    }
    let r = run(16, "halo", &["16x1", "1"], &[REPORT], true);
    assert_eq!(r.placement, plain.placement);
    assert!(!r.stderr.contains("topoembed-reorder"), "{}", r.stderr);
}
