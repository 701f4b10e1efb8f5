//! Communication profiles of a run as guest graphs: Open MPI monitoring's
//! per-rank `.prof` files (a fixture Debian's Open MPI 4.1 wrote, and a
//! fresh run under `mpirun` where Open MPI is installed) and dense
//! matrices, each checked against the traffic the program makes by
//! construction.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

use topoembed::io::{read_dense_matrix, read_monitoring};
use topoembed::topology::{self, Graph, Topology};

/// `tests/data/monitoring/ring.c` on N ranks: rank r sends three messages
/// of 100·(r + 1) bytes to rank r + 1 (mod N) by `MPI_Sendrecv`, then an
/// `MPI_Allreduce` and an `MPI_Bcast` on a communicator split with the
/// ranks reversed, which must stay out of the pair volumes. Pair {r, r+1}
/// carries 300·(r + 1) bytes, pair {N−1, 0} 300·N.
fn ring_volumes(n: u64) -> Vec<((u64, u64), u64)> {
    let mut pairs: Vec<((u64, u64), u64)> = (0..n)
        .map(|r| {
            let next = (r + 1) % n;
            ((r.min(next), r.max(next)), 300 * (r + 1))
        })
        .collect();
    pairs.sort_unstable();
    pairs
}

/// Every edge of `g` with its volume, u < v, sorted.
fn volumes(g: &Graph) -> Vec<((u64, u64), u64)> {
    let mut out = Vec::new();
    for u in 0..g.node_count() {
        for (&v, w) in g.adjacency(u).iter().zip(g.adjacency_volumes(u)) {
            if u < u64::from(v) {
                out.push(((u, u64::from(v)), w));
            }
        }
    }
    out.sort_unstable();
    out
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn temp(name: &str) -> common::TempDir {
    common::temp_dir(&format!("profiles-{name}"))
}

#[test]
fn the_recorded_ring_reads_as_its_traffic() {
    // The four files of one run (pml_monitoring_enable 2), named by any of
    // them or by the prefix: the same graph.
    for name in [
        "monitoring/P.0.prof",
        "monitoring/P.3.prof",
        "monitoring/P.prof",
    ] {
        let m = read_monitoring(&data(name)).unwrap();
        assert_eq!(m.ranks, 4, "{name}");
        assert_eq!(volumes(&m.graph), ring_volumes(4), "{name}");
        assert_eq!(m.point_to_point, (3000, 12));
        // The collectives' messages are counted apart.
        assert!(m.internal_bytes > 0 && m.collective_bytes > 0);
        let built = topology::parse(&format!("graph:{}", data(name).display())).unwrap();
        assert_eq!(built.edge_count(), 4);
    }
}

#[test]
fn a_missing_or_broken_profile_is_named() {
    let dir = temp("broken");
    for r in [0, 1, 3] {
        std::fs::copy(
            data(&format!("monitoring/P.{r}.prof")),
            dir.join(format!("P.{r}.prof")),
        )
        .unwrap();
    }
    let e = read_monitoring(&dir.join("P.0.prof"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("P.2.prof: missing (3 profiles found, ranks up to 3)"),
        "{e}"
    );
    // The last rank's file gone: MPI_COMM_WORLD's line says so.
    std::fs::remove_file(dir.join("P.3.prof")).unwrap();
    let e = read_monitoring(&dir.join("P.0.prof"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("MPI_COMM_WORLD has 4 ranks but 2 profiles"),
        "{e}"
    );
    // A file cut in the middle of a line.
    let text = std::fs::read_to_string(data("monitoring/P.1.prof")).unwrap();
    std::fs::write(dir.join("P.1.prof"), &text[..30]).unwrap();
    let e = read_monitoring(&dir.join("P.1.prof"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("P.1.prof:2: "), "{e}");
    let e = read_monitoring(&dir.join("Q.prof"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("no profile") && e.contains("Q.0.prof"), "{e}");
}

#[test]
fn dense_matrices_read_as_the_same_pairs() {
    // Row i what rank i sent: the ring's traffic as a matrix, a `.mat`, and
    // symmetrised as Open MPI writes it ((a_ij + a_ji)/2) in a `.dat`
    // (sniffed: rows of more than three numbers).
    let dir = temp("dense");
    let n = 5u64;
    let mut sent = vec![vec![0u64; n as usize]; n as usize];
    for r in 0..n {
        sent[r as usize][((r + 1) % n) as usize] = 300 * (r + 1);
    }
    let rows = |f: &dyn Fn(usize, usize) -> String| -> String {
        (0..n as usize)
            .map(|i| {
                (0..n as usize)
                    .map(|j| f(i, j))
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect()
    };
    std::fs::write(dir.join("ring.mat"), rows(&|i, j| sent[i][j].to_string())).unwrap();
    let symmetric = rows(&|i, j| format!("{}", (sent[i][j] + sent[j][i]) as f64 / 2.0));
    std::fs::write(dir.join("ring.dat"), format!("# symmetrised\n{symmetric}")).unwrap();
    let m = read_dense_matrix(&dir.join("ring.mat")).unwrap();
    assert_eq!(volumes(&m.graph), ring_volumes(n));
    let g = topology::parse(&format!("graph:{}", dir.join("ring.dat").display())).unwrap();
    assert_eq!(g.edge_count(), n);
    assert_eq!(m.total, 300.0 * 15.0);
    // An edge list still reads as one.
    std::fs::write(dir.join("edges.dat"), "0 1 5\n1 2 7\n").unwrap();
    let e = topology::parse(&format!("graph:{}", dir.join("edges.dat").display())).unwrap();
    assert_eq!((e.node_count(), e.edge_count()), (3, 2));
}

/// The ring program recorded live by Open MPI's monitoring reads as the
/// traffic it makes by construction, on 4 and 6 ranks (skipped where
/// `mpicc` is not installed; CI installs it and sets
/// TOPOEMBED_REQUIRE_MPI).
#[test]
fn a_fresh_monitoring_run_reads_as_the_programs_traffic() {
    let dir = temp("live");
    let binary = dir.join("ring");
    let built = Command::new("mpicc")
        .arg(data("monitoring/ring.c"))
        .arg("-o")
        .arg(&binary)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        assert!(
            std::env::var_os("TOPOEMBED_REQUIRE_MPI").is_none(),
            "mpicc is not installed"
        );
        return;
    }
    for n in [4u64, 6] {
        let prefix = dir.join(format!("run{n}"));
        let status = Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-np"])
            .arg(n.to_string())
            .args(["--mca", "pml_monitoring_enable", "2"])
            .args(["--mca", "pml_monitoring_enable_output", "3"])
            .args(["--mca", "pml_monitoring_filename"])
            .arg(&prefix)
            .arg(&binary)
            .status()
            .unwrap();
        assert!(status.success(), "mpirun -np {n}");
        let m = read_monitoring(&dir.join(format!("run{n}.0.prof"))).unwrap();
        assert_eq!(m.ranks, n);
        assert_eq!(volumes(&m.graph), ring_volumes(n), "{n} ranks");
    }
}
