//! Recording mode under `mpirun` (needs the `mpi` feature and Open MPI):
//! tests/programs/traffic.c sends known traffic of every kind the recorder
//! intercepts and writes what it sent; the recording must equal it pair by
//! pair, and equal Open MPI's monitoring of the same run where monitoring
//! counts the same messages. A recording that cannot be written, or a run
//! that ends without `MPI_Finalize`, must leave the application's run as it
//! is and no half-written file.
#![cfg(feature = "mpi")]

mod common;

use common::{compile, library, mpirun_command};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use topoembed::spec::Spec;

/// tests/programs/traffic.c, compiled once.
fn traffic() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("topoembed-record-programs");
        compile("mpicc", "traffic.c", &dir, "traffic")
    })
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("record-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `mpirun -np NP traffic ARGS` in `dir`, recording to `record` when
/// given (with the library preloaded), with Open MPI's monitoring writing
/// `monitor.<rank>.prof` when given.
fn run(np: u32, dir: &Path, record: Option<&str>, monitor: Option<&Path>, args: &[&str]) -> Output {
    let (mut cmd, _session) = mpirun_command(np);
    cmd.current_dir(dir);
    if let Some(file) = record {
        let lib = library().display().to_string();
        for (k, v) in [("LD_PRELOAD", lib.as_str()), ("TOPOEMBED_RECORD", file)] {
            cmd.args(["-x", k]).env(k, v);
        }
    }
    if let Some(prefix) = monitor {
        cmd.args(["--mca", "pml_monitoring_enable", "2"])
            .args(["--mca", "pml_monitoring_enable_output", "3"])
            .args(["--mca", "pml_monitoring_filename"])
            .arg(prefix);
    }
    cmd.arg(traffic())
        .args(args)
        .output()
        .expect("mpirun (openmpi-bin)")
}

/// The `KEY value` line of the program's output.
fn line(out: &Output, key: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
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
}

/// Every pair's volume in the graph `graph:path` reads.
fn volumes(path: &Path) -> (u64, BTreeMap<(usize, usize), u64>) {
    let g = topoembed::topology::build(&Spec::Graph(path.to_path_buf()))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let w = topoembed::mapper::WGraph::from_topology(g.as_ref()).unwrap();
    let mut pairs = BTreeMap::new();
    for v in 0..w.n() {
        for (u, volume) in w.edges(v) {
            if u > v {
                pairs.insert((v, u), volume);
            }
        }
    }
    (g.node_count(), pairs)
}

#[test]
fn the_recording_is_the_programs_traffic_and_agrees_with_open_mpi_monitoring() {
    for (np, file) in [(4u32, "run.txt"), (6, "run.graph"), (8, "run.grf")] {
        let dir = scratch(&format!("exact-{np}"));
        let out = run(
            np,
            &dir,
            Some(file),
            Some(&dir.join("monitor")),
            &["expected.txt", "monitored.txt"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{np} ranks:\n{stderr}");
        assert!(stderr.contains(&format!("recorded {np} ranks")), "{stderr}");
        let (nodes, recorded) = volumes(&dir.join(file));
        assert_eq!(nodes, u64::from(np));
        let (_, expected) = volumes(&dir.join("expected.txt"));
        assert_eq!(
            recorded, expected,
            "{np} ranks: recorded vs the program's own count"
        );
        // Open MPI's monitoring of the same run: the application's messages
        // less the neighbourhood collective's and the persistent sends'.
        // One more difference: MPI_Intercomm_create's two leaders (world
        // ranks np-1 and np-2) exchange their groups over MPI_COMM_WORLD
        // with the application's tag, which monitoring counts as the
        // application's message (the recorder sees only the calls the
        // application makes).
        let (_, mut monitored) = volumes(&dir.join("monitor.0.prof"));
        let (_, mut want) = volumes(&dir.join("monitored.txt"));
        let leaders = (np as usize - 2, np as usize - 1);
        let (extra, own) = (monitored.remove(&leaders), want.remove(&leaders));
        assert!(
            extra > own,
            "{np} ranks: the leaders' pair {extra:?} vs {own:?}"
        );
        assert_eq!(
            monitored, want,
            "{np} ranks: monitoring vs the program's own count"
        );
        // The summary: every message, the neighbourhood part, collectives
        // by communicator.
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{file}.json"))).unwrap(),
        )
        .unwrap();
        let messages: u64 = line(&out, "messages").parse().unwrap();
        assert_eq!(summary["ranks"], np);
        assert_eq!(summary["point_to_point"]["messages"], messages);
        assert_eq!(
            summary["point_to_point"]["neighbourhood_collectives"]["bytes"],
            u64::from(np) * 2 * 8 * 4
        );
        assert_eq!(summary["unattributed"]["messages"], 0);
        pair_messages_match(&summary, &recorded, messages);
        let world = summary["collectives"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["communicator"]["name"] == "MPI_COMM_WORLD")
            .expect("MPI_COMM_WORLD's collectives");
        let calls = |op: &str| {
            world["operations"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["operation"] == op)
                .map(|o| o["calls"].as_u64().unwrap())
        };
        assert_eq!(calls("MPI_Barrier"), Some(2));
        assert_eq!(calls("MPI_Alltoall"), Some(1));
        assert_eq!(calls("MPI_Gather"), Some(2));
        // Each half's allreduce, on a communicator of np/2.
        let halves = summary["collectives"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["communicator"]["size"] == np / 2)
            .count();
        assert_eq!(halves, 2);
    }
}

/// tests/programs/traffic.f90 through the Fortran bindings (which call
/// the PMPI C functions directly, so the C interposer never sees them):
/// rank r sends r+1 52 bytes, r+2 24, r-1 60 (persistent, 3 starts) and
/// r+n/2 28; the recording holds exactly that, 8 messages a rank.
#[test]
fn fortran_sends_are_recorded_too() {
    let dir = scratch("fortran");
    let bin = compile("mpifort", "traffic.f90", &dir, "traffic_f");
    for n in [4usize, 6] {
        let (mut cmd, _session) = mpirun_command(n);
        let out = cmd
            .current_dir(&dir)
            .args(["-x", "LD_PRELOAD", "-x", "TOPOEMBED_RECORD"])
            .env("LD_PRELOAD", library())
            .env("TOPOEMBED_RECORD", "run.txt")
            .arg(&bin)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "done");
        let mut want: BTreeMap<(usize, usize), u64> = BTreeMap::new();
        for r in 0..n {
            for (to, bytes) in [(r + 1, 52), (r + 2, 24), (r + n - 1, 60), (r + n / 2, 28)] {
                let to = to % n;
                *want.entry((r.min(to), r.max(to))).or_default() += bytes;
            }
        }
        let (_, got) = volumes(&dir.join("run.txt"));
        assert_eq!(got, want, "{n} ranks");
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("run.txt.json")).unwrap())
                .unwrap();
        assert_eq!(summary["point_to_point"]["messages"], 8 * n as u64);
        pair_messages_match(&summary, &got, 8 * n as u64);
    }
}

/// The summary's `pair_messages` name exactly the graph's pairs and hold
/// every message that crossed between two ranks (`messages` in all, less
/// those a rank sent itself).
fn pair_messages_match(
    summary: &serde_json::Value,
    pairs: &BTreeMap<(usize, usize), u64>,
    messages: u64,
) {
    let listed: Vec<(usize, usize, u64)> = summary["pair_messages"]
        .as_array()
        .expect("pair_messages")
        .iter()
        .map(|t| {
            let t: Vec<u64> = t
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            (t[0] as usize, t[1] as usize, t[2])
        })
        .collect();
    let named: Vec<(usize, usize)> = listed.iter().map(|&(u, v, _)| (u, v)).collect();
    assert_eq!(named, pairs.keys().copied().collect::<Vec<_>>());
    assert!(listed.iter().all(|&(_, _, m)| m > 0));
    let own = summary["point_to_point"]["to_self"]["messages"]
        .as_u64()
        .unwrap();
    assert_eq!(listed.iter().map(|t| t.2).sum::<u64>() + own, messages);
}

#[test]
fn recording_changes_nothing_the_program_computes() {
    let dir = scratch("same");
    let plain = run(4, &dir, None, None, &["a.txt", "b.txt"]);
    let recorded = run(4, &dir, Some("run.txt"), None, &["a.txt", "b.txt"]);
    assert!(plain.status.success() && recorded.status.success());
    assert_eq!(line(&plain, "checksum"), line(&recorded, "checksum"));
    assert_eq!(line(&plain, "messages"), line(&recorded, "messages"));
}

#[test]
fn an_unwritable_recording_warns_once_and_the_run_goes_on() {
    let dir = scratch("unwritable");
    let out = run(
        4,
        &dir,
        Some("/no/such/dir/run.txt"),
        None,
        &["a.txt", "b.txt"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("topoembed-reorder"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("warning: TOPOEMBED_RECORD")
            && warnings[0].contains("/no/such/dir/run.txt")
            && warnings[0].contains("the run goes on"),
        "{}",
        warnings[0]
    );
    assert!(!line(&out, "checksum").is_empty());
}

/// A message to a spawned process (no world rank): one warning from rank 0,
/// the message counted as unattributed, the run as it is without the
/// library.
#[test]
fn a_message_outside_the_world_warns_once_and_the_run_goes_on() {
    let dir = scratch("spawn");
    let bin = compile("mpicc", "spawn.c", &dir, "spawn");
    let launch = |record: bool| {
        let (mut cmd, _session) = mpirun_command(2);
        cmd.current_dir(&dir);
        if record {
            cmd.args(["-x", "LD_PRELOAD", "-x", "TOPOEMBED_RECORD"])
                .env("LD_PRELOAD", library())
                .env("TOPOEMBED_RECORD", "run.txt");
        }
        cmd.arg(&bin).output().unwrap()
    };
    let plain = launch(false);
    let recorded = launch(true);
    assert!(plain.status.success(), "{plain:?}");
    assert!(recorded.status.success(), "{recorded:?}");
    assert_eq!(plain.stdout, recorded.stdout);
    let stderr = String::from_utf8_lossy(&recorded.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("outside MPI_COMM_WORLD"), "{stderr}");
    let (_, pairs) = volumes(&dir.join("run.txt"));
    assert_eq!(pairs.into_iter().collect::<Vec<_>>(), vec![((0, 1), 16)]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.txt.json")).unwrap()).unwrap();
    assert_eq!(summary["unattributed"]["messages"], 1);
    assert_eq!(summary["unattributed"]["bytes"], 16);
}

#[test]
fn a_run_that_ends_without_finalize_leaves_no_recording() {
    let dir = scratch("no-finalize");
    let out = run(4, &dir, Some("run.txt"), None, &["a.txt", "b.txt", "exit"]);
    // Open MPI reports the missing MPI_Finalize; what matters is the folder.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("run"))
        .collect();
    assert!(
        left.is_empty(),
        "left behind: {left:?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
