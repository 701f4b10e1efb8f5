//! `topoembed map` end to end: the JSON placement respects the capacity and
//! its metrics are those `metrics --mapping` gives the Scotch map it
//! writes, the congestion objective lowers the congestion, the same seed
//! gives the same map, and bad requests exit 2 with a one-line reason.

use serde_json::Value;

use crate::common;

use common::{assert_bad_input, json, ok, run, temp_dir, TempDir};

/// The weighted example graph of the library's tests (132 vertices, loads
/// and volumes).
fn example() -> String {
    format!(
        "graph:{}/../topoembed/tests/data/example_weighted.graph",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// A Scotch graph's mapping names its vertices as the file does: its own
/// labels where it has them, numbers from its base where it has none (read
/// from the header alone), and `metrics --mapping` reads it back to the
/// placement's own hop-bytes.
#[test]
fn scotch_maps_name_vertices_by_the_files_labels() {
    let dir = temp_dir("map-labels");
    // An 8-cycle labelled 70, 10, 60, 20, 50, 30, 40, 80 in file order, and
    // the same cycle without labels, numbered from 1.
    let labels = [70u64, 10, 60, 20, 50, 30, 40, 80];
    let mut labelled = String::from("0\n8 16\n1 100\n");
    let mut numbered = String::from("0\n8 16\n1 000\n");
    for v in 0..8 {
        let (prev, next) = ((v + 7) % 8, (v + 1) % 8);
        labelled += &format!("{} 2 {} {}\n", labels[v], labels[prev], labels[next]);
        numbered += &format!("2 {} {}\n", prev + 1, next + 1);
    }
    for (name, text, names) in [
        ("labelled.grf", labelled, labels.to_vec()),
        ("numbered.grf", numbered, (1..=8).collect::<Vec<u64>>()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let guest = format!("graph:{}", path.display());
        let scotch = ok(&["map", &guest, "ring:4", "--format", "scotch-map"]);
        let lines: Vec<&str> = scotch.lines().collect();
        assert_eq!(lines[0], "8", "{name}");
        let written: Vec<u64> = lines[1..]
            .iter()
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(written, names, "{name}");
        let file = dir.join(format!("{name}.map"));
        std::fs::write(&file, &scotch).unwrap();
        let measured = json(&[
            "metrics",
            &guest,
            "ring:4",
            "--mapping",
            file.to_str().unwrap(),
            "--format",
            "json",
        ]);
        let placed = json(&["map", &guest, "ring:4", "--format", "json"]);
        assert_eq!(
            measured["hop_bytes"], placed["metrics"]["hop_bytes"],
            "{name}"
        );
        // A cycle of 8 onto a ring of 4, two consecutive vertices a node.
        assert_eq!(measured["hop_bytes"].as_u64(), Some(4), "{name}");
    }
}

#[test]
fn json_placement_respects_capacity_and_matches_its_scotch_map() {
    let guest = example();
    let out = json(&["map", &guest, "torus:4x4", "--format", "json"]);
    let map = numbers(&out["map"]);
    assert_eq!(map.len(), 132);
    let capacity = out["capacity"].as_u64().unwrap();
    let mut load = [0u64; 16];
    let text = std::fs::read_to_string(guest.trim_start_matches("graph:")).unwrap();
    // METIS: header, then one line per vertex whose first number is its load.
    for (v, line) in text.lines().skip(1).enumerate() {
        let l: u64 = line.split_whitespace().next().unwrap().parse().unwrap();
        load[map[v] as usize] += l;
    }
    assert!(
        load.iter().all(|&l| l <= capacity),
        "{load:?} over {capacity}"
    );
    // The Scotch map it writes measures the same through `metrics`.
    let dir = temp_dir("map-cli");
    let file = dir.join("ours.map");
    let scotch = ok(&["map", &guest, "torus:4x4", "--format", "scotch-map"]);
    std::fs::write(&file, &scotch).unwrap();
    let lines: Vec<&str> = scotch.lines().collect();
    assert_eq!(lines[0], "132");
    for (v, line) in lines[1..].iter().enumerate() {
        assert_eq!(*line, format!("{v}\t{}", map[v]), "line {}", v + 2);
    }
    let m = json(&[
        "metrics",
        &guest,
        "torus:4x4",
        "--mapping",
        file.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(m["hop_bytes"], out["metrics"]["hop_bytes"]);
    assert_eq!(m["congestion"]["max"], out["metrics"]["congestion"]["max"]);
    // The same seed, the same map; the baselines come along.
    assert_eq!(
        numbers(&json(&["map", &guest, "torus:4x4", "--format", "json"])["map"]),
        map
    );
    let names: Vec<&str> = out["baselines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["method"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["blocks", "round-robin"]);
}

/// `--phases` names every phase of every search on standard error (and in
/// the JSON), changes nothing in the placement, and the hop-bytes its
/// refinements took off add up to what the note says refinement took off.
#[test]
fn phases_show_where_the_time_went_and_change_nothing() {
    let guest = example();
    let args = [
        "map",
        &guest,
        "torus:4x4",
        "--restarts",
        "2",
        "--format",
        "json",
    ];
    let plain = json(&args);
    let (code, out, err) = run(&[&args[..], &["--phases"]].concat());
    assert_eq!(code, 0, "{err}");
    let with: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(with["map"], plain["map"], "--phases moved the placement");
    assert!(err.starts_with("phases (wall time"), "{err}");
    assert!(err.contains("map in all:"), "{err}");
    let phases = with["phases"].as_array().unwrap();
    let of =
        |search: u64| -> Vec<&Value> { phases.iter().filter(|p| p["search"] == search).collect() };
    let names = |search: u64| -> Vec<&str> {
        of(search)
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect()
    };
    // Search 0 partitions first, search 1 bipartitions guest and host
    // together and is refined lightly (`Phases::Light`).
    assert_eq!(
        names(0),
        [
            "partitioning",
            "laying out the parts",
            "capacity restored",
            "part swaps",
            "V-cycle",
            "k-way FM",
            "pairs (FM and flows)",
            "move/swap"
        ]
    );
    assert_eq!(
        names(1),
        [
            "dual recursive bipartitioning",
            "capacity restored",
            "pairs (FM and flows)",
            "move/swap"
        ]
    );
    for p in phases {
        assert!(p["seconds"].as_f64().unwrap() >= 0.0, "{p}");
        let first = p["gained"].is_null();
        let placing = [
            "partitioning",
            "laying out the parts",
            "capacity restored",
            "dual recursive bipartitioning",
        ];
        assert_eq!(first, placing.contains(&p["name"].as_str().unwrap()), "{p}");
    }
    // One search: its refinements' gains are what the note says.
    let one = [
        "map",
        &guest,
        "torus:4x4",
        "--restarts",
        "1",
        "--phases",
        "--no-traffic",
    ];
    let (code, table, err) = run(&one);
    assert_eq!(code, 0, "{err}");
    let took: u128 = table
        .split("took ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'took N off' in {table}"));
    let summed: u128 = err
        .lines()
        .filter(|l| l.starts_with("0 "))
        .filter_map(|l| l.split_whitespace().last()?.parse::<u128>().ok())
        .sum();
    assert_eq!(summed, took, "{err}\n{table}");
}

/// `--preset fast` leaves the V-cycle out, runs fewer passes, says so in
/// its note and its JSON, keeps the capacity, and lands near the default's
/// hop-bytes; the same seed gives the same placement again.
#[test]
fn the_fast_preset_skips_the_v_cycle_and_stays_near_the_default() {
    let guest = example();
    let args = |preset: &'static str| {
        vec![
            "map".to_string(),
            guest.clone(),
            "torus:4x4".into(),
            "--restarts".into(),
            "1".into(),
            "--preset".into(),
            preset.into(),
            "--format".into(),
            "json".into(),
            "--phases".into(),
        ]
    };
    let placed = |preset: &'static str| {
        let args = args(preset);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let (fast, default) = (placed("fast"), placed("default"));
    assert_eq!(fast["preset"], "fast");
    assert_eq!(default["preset"], "default");
    let names = |v: &Value| -> Vec<String> {
        v["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(names(&default).contains(&"V-cycle".to_string()));
    assert!(!names(&fast).contains(&"V-cycle".to_string()), "{fast}");
    assert_eq!(
        fast["map"],
        placed("fast")["map"],
        "one seed, one placement"
    );
    let cap = fast["capacity"].as_u64().unwrap();
    let loads = example_loads();
    let mut load = [0u64; 16];
    for (v, h) in numbers(&fast["map"]).into_iter().enumerate() {
        load[h as usize] += loads[v];
    }
    assert!(load.iter().all(|&l| l <= cap), "{load:?} above {cap}");
    let hop_bytes = |v: &Value| v["metrics"]["hop_bytes"].as_u64().unwrap();
    assert!(
        hop_bytes(&fast) * 10 <= hop_bytes(&default) * 12,
        "fast {} against the default's {}",
        hop_bytes(&fast),
        hop_bytes(&default)
    );
    let table = ok(&["map", &guest, "torus:4x4", "--preset", "fast"]);
    assert!(table.contains("--preset fast"), "{table}");
}

/// The example graph's vertex loads (its first vertex weights).
fn example_loads() -> Vec<u64> {
    let path = example();
    let text = std::fs::read_to_string(path.trim_start_matches("graph:")).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('%'))
        .skip(1);
    (0..132)
        .map(|_| {
            let line = lines.next().unwrap();
            line.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn congestion_objective_lowers_the_congestion() {
    let guest = example();
    let congestion = |objective: &str| {
        let out = json(&[
            "map",
            &guest,
            "cube:4",
            "--objective",
            objective,
            "--format",
            "json",
        ]);
        out["metrics"]["congestion"]["max"].as_u64().unwrap()
    };
    let (hop, cong) = (congestion("hop-bytes"), congestion("congestion"));
    assert!(
        cong < hop,
        "congestion objective {cong}, hop-bytes objective {hop}"
    );
    let table = ok(&["map", &guest, "cube:4", "--objective", "congestion"]);
    assert!(
        table.contains("objective congestion: congestion"),
        "{table}"
    );
}

#[test]
fn bad_map_requests_exit_2() {
    let guest = example();
    for (args, says) in [
        (
            vec!["map", &guest, "tleaf:2x8:10,1", "--objective", "congestion"],
            "no congestion",
        ),
        (
            vec!["map", &guest, "torus:4x4", "--imbalance=-1"],
            "imbalance -1",
        ),
        (
            vec!["map", &guest, "torus:4x4", "--format", "rankfile"],
            "a launch format needs the machine's slots: --hosts FILE",
        ),
        (
            vec!["map", &guest, "cube:10", "--imbalance", "0"],
            "guest node 0 has load 287, more than any host node may take (32",
        ),
        (
            vec!["map", "graph:/no/such.graph", "torus:4x4"],
            "/no/such.graph",
        ),
        (
            vec!["map", &guest, "torus:4x4", "--preset", "quick"],
            "possible values: default, fast",
        ),
    ] {
        refused_saying(&args, says);
    }
}

/// Exit 2 for `args`, and a message on stderr that says `says`.
fn refused_saying(args: &[&str], says: &str) {
    assert_bad_input(args);
    let (_, _, err) = run(args);
    assert!(err.contains(says), "{args:?}: {err}");
}

/// A graph file of no vertices (a METIS header `0 0`, a Scotch header
/// promising 0) is refused where it is read, exit 2, by `map` and
/// `metrics` alike: before, `map` looped in its V-cycle until memory ran out.
#[test]
fn graph_files_of_no_vertices_exit_2() {
    let (_dir, files) = graph_files(
        "map-empty",
        &[("empty.graph", "0 0\n"), ("empty.grf", "0\n0\t0\n0\t000\n")],
    );
    for guest in &files {
        for command in ["map", "metrics"] {
            refused_saying(
                &[command, guest.as_str(), "torus:4x4"],
                "0 vertices: a graph needs 1 to",
            );
        }
    }
}

/// A stored host whose nodes cannot all reach each other is refused, and so
/// is one whose path costs overflow (a link of cost 2^64 − 1), each saying
/// which: before, the overflow read as "not connected".
#[test]
fn disconnected_and_overflowing_host_graphs_exit_2() {
    let (_dir, hosts) = graph_files(
        "map-hosts",
        &[
            ("apart.graph", "4 1\n2\n1\n\n\n"),
            (
                "dear.graph",
                "3 2 1\n2 1\n1 1 3 18446744073709551615\n2 18446744073709551615\n",
            ),
        ],
    );
    let says = [
        "is not connected: no path from host node 0 to 2",
        "host node 0 to 2 costs 2^64 or more",
    ];
    for (host, says) in hosts.iter().zip(says) {
        refused_saying(&["map", "ring:3", host.as_str()], says);
    }
}

/// Each `(name, text)` written into a fresh directory `dir` (kept while the
/// returned guard lives), named as a spec: `graph:PATH`.
fn graph_files(dir: &str, files: &[(&str, &str)]) -> (TempDir, Vec<String>) {
    let dir = temp_dir(dir);
    let specs = files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            format!("graph:{}", path.display())
        })
        .collect();
    (dir, specs)
}

/// A run's recorded traffic, 4 ranks (Open MPI monitoring's files; the
/// preload library's recording of bench/apps/halo.c on a 2x2 grid), mapped
/// onto 2 nodes of 2 slots, written for every launcher: each file puts
/// rank g on the host (and slot) the JSON placement gives it.
#[test]
fn a_recorded_graph_round_trips_through_every_launch_format() {
    for file in ["monitoring/P.0.prof", "recording/halo2x2.txt"] {
        let guest = format!(
            "graph:{}/../topoembed/tests/data/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        round_trip_through_launch_formats(&guest);
    }
}

fn round_trip_through_launch_formats(guest: &str) {
    let guest = guest.to_string();
    let host = "tleaf:2x2:10,1";
    let nodes = ["--nodes", "n[01-02]", "--slots-per-node", "2"];
    let map = numbers(&json(&["map", &guest, host, "--format", "json"])["map"]);
    assert_eq!(map.len(), 4);
    let name = |h: u64| format!("n0{}", h / 2 + 1);
    let launch = |format: &str| {
        let mut args = vec!["map", &guest, host, "--format", format];
        args.extend(nodes);
        ok(&args)
    };
    let seq: Vec<String> = launch("seq").lines().map(String::from).collect();
    assert_eq!(seq, map.iter().map(|&h| name(h)).collect::<Vec<_>>());
    // SimGrid's hostfile names the platform's hosts: line g = node-<host>.
    let smpi = ok(&["map", &guest, host, "--format", "smpi-hostfile"]);
    let want: Vec<String> = map.iter().map(|&h| format!("node-{h}")).collect();
    assert_eq!(smpi.lines().collect::<Vec<_>>(), want);
    let metrics = json(&["metrics", &guest, host, "--format", "json"]);
    assert_eq!(metrics["guest_nodes"], 4);
    let rankfile = launch("rankfile");
    for (g, &h) in map.iter().enumerate() {
        let line = format!("rank {g}={} slot={}", name(h), h % 2);
        assert!(rankfile.lines().any(|l| l == line), "{line}\n{rankfile}");
    }
    // host:n runs, expanded, are the seq file again.
    let mut expanded = Vec::new();
    for line in launch("machinefile").lines() {
        let (host, n) = line.split_once(':').unwrap();
        let n: usize = n.parse().unwrap();
        expanded.extend(std::iter::repeat(host.to_string()).take(n));
    }
    assert_eq!(expanded, seq);
    // Slot order: node n01's slots first, each holding the rank placed there.
    let order: Vec<u64> = launch("cray-rank-order")
        .split([',', '\n'])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    for (slot, &g) in order.iter().enumerate() {
        assert_eq!(map[g as usize], slot as u64);
    }
    // A hostfile gives the same slots.
    let dir = temp_dir("map-launch");
    let hostfile = dir.join("hosts");
    std::fs::write(&hostfile, "n01 slots=2\nn02 slots=2\n").unwrap();
    let from_file = ok(&[
        "map",
        &guest,
        host,
        "--format",
        "seq",
        "--hosts",
        hostfile.to_str().unwrap(),
    ]);
    assert_eq!(from_file.lines().collect::<Vec<_>>(), seq);
    // No slots, slots that do not fill the host, a bad hostlist: exit 2.
    assert_bad_input(&["map", &guest, host, "--format", "seq"]);
    assert_bad_input(&["map", &guest, host, "--format", "seq", "--nodes", "n[1-3]"]);
    assert_bad_input(&["map", &guest, host, "--format", "seq", "--nodes", "n[2-1]"]);
    assert_bad_input(&[
        "map",
        &guest,
        host,
        "--format",
        "seq",
        "--nodes",
        "n[1-2]",
        "--slots-per-node",
        "0",
    ]);
}

/// A rankfile for 16 ranks on 8 nodes of 2 cores, run by `mpirun -rf`:
/// every rank reports the node and the core the plan gave it. The nodes
/// are this machine under 8 host names — Open MPI starts each node's
/// daemon through a stand-in for ssh that runs it in its own UTS namespace
/// (`unshare --uts`, root) with the node's name — so the real cores 0 and
/// 1 are each node's slots 0 and 1. Skipped without Open MPI or namespaces
/// (CI has both and sets TOPOEMBED_REQUIRE_MPI).
#[test]
fn a_rankfile_puts_16_ranks_where_the_plan_says() {
    use std::process::Command;
    let required = std::env::var_os("TOPOEMBED_REQUIRE_MPI").is_some();
    let dir = temp_dir("rankfile-16");
    let program = dir.join("where");
    let built = Command::new("mpicc")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/where.c"))
        .arg("-o")
        .arg(&program)
        .status();
    let namespaces = Command::new("unshare")
        .args(["--uts", "true"])
        .status()
        .is_ok_and(|s| s.success());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if !built.is_ok_and(|s| s.success()) || !namespaces || cores < 2 {
        assert!(
            !required,
            "mpicc, unshare --uts (root) and 2 cores are needed: mpicc built {}, namespaces {namespaces}, {cores} cores",
            program.exists()
        );
        eprintln!("skipped: needs mpicc, unshare --uts and 2 cores");
        return;
    }
    let ssh = dir.join("fake-ssh");
    std::fs::write(
        &ssh,
        "#!/bin/sh\n# ssh HOST COMMAND: COMMAND here, under the host name HOST.\n\
         while [ $# -gt 0 ]; do case \"$1\" in -*) shift;; *) break;; esac; done\n\
         host=$1; shift\nexec unshare --uts sh -c \"hostname $host && exec $*\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (guest, host) = ("torus:4x4", "tleaf:8x2:10,1");
    let nodes = ["--nodes", "n[01-08]", "--slots-per-node", "2"];
    let map = numbers(&json(&["map", guest, host, "--format", "json"])["map"]);
    let mut args = vec!["map", guest, host, "--format", "rankfile"];
    args.extend(nodes);
    let rankfile = dir.join("rankfile");
    std::fs::write(&rankfile, ok(&args)).unwrap();
    // The allocation: each node with its 2 slots.
    let hostfile = dir.join("hosts");
    let lines: Vec<String> = (1..=8).map(|k| format!("n0{k} slots=2")).collect();
    std::fs::write(&hostfile, lines.join("\n") + "\n").unwrap();
    let out = Command::new("timeout")
        .arg("120")
        .args(["mpirun", "--allow-run-as-root", "--mca", "plm_rsh_agent"])
        .arg(&ssh)
        .arg("--hostfile")
        .arg(&hostfile)
        .arg("-rf")
        .arg(&rankfile)
        .args(["-np", "16"])
        .arg(&program)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen = 0;
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, rank, _, node, _, core] = words[..] else {
            panic!("unexpected line: {line}");
        };
        let rank: usize = rank.parse().unwrap();
        let h = map[rank];
        assert_eq!(node, format!("n0{}", h / 2 + 1), "rank {rank}: {line}");
        assert_eq!(core, (h % 2).to_string(), "rank {rank}: {line}");
        seen += 1;
    }
    assert_eq!(seen, 16, "{stdout}");
}

/// The recorded 2x2 halo (tests/data/recording) with its summary: `map
/// --summary` weighs four candidates by predicted cost and keeps the
/// cheapest; `metrics --mapping --summary` predicts the same cost for the
/// same placement.
#[test]
fn a_summary_chooses_by_predicted_cost_and_metrics_predicts_the_same() {
    let data = format!(
        "{}/../topoembed/tests/data/recording",
        env!("CARGO_MANIFEST_DIR")
    );
    let guest = format!("graph:{data}/halo2x2.txt");
    let summary = format!("{data}/halo2x2.txt.json");
    let weigh = ["--summary", summary.as_str(), "--latency-bytes", "30000"];
    let mut args = vec!["map", &guest, "torus:2x2", "--format", "json"];
    args.extend(weigh);
    let v = json(&args);
    let candidates = v["summary"]["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 4);
    let kept = v["summary"]["kept"].as_u64().unwrap() as usize;
    let total = |c: &Value| c["predicted_total"].as_u64().unwrap();
    assert!(candidates
        .iter()
        .all(|c| total(&candidates[kept]) <= total(c)));
    assert_eq!(
        v["summary"]["collectives"].as_array().unwrap().len(),
        2,
        "the barrier and the reduces of bench/apps/common.h's report: {v}"
    );
    // The placement as a Scotch map, predicted again by `metrics`.
    let map = numbers(&v["map"]);
    let dir = temp_dir("map-summary");
    let file = dir.join("kept.map");
    let mut text = format!("{}\n", map.len());
    for (g, h) in map.iter().enumerate() {
        text += &format!("{g} {h}\n");
    }
    std::fs::write(&file, text).unwrap();
    let mut args = vec![
        "metrics",
        &guest,
        "torus:2x2",
        "--mapping",
        file.to_str().unwrap(),
    ];
    args.extend(weigh);
    let table = ok(&args);
    assert!(
        table.contains(&format!(
            "predicted cost: {} bytes",
            total(&candidates[kept])
        )),
        "{table}"
    );
    args.extend(["--format", "json"]);
    assert_eq!(
        json(&args)["predicted"]["total"],
        candidates[kept]["predicted_total"]
    );
    // The table names each candidate, the kept one starred.
    let mut args = vec!["map", &guest, "torus:2x2"];
    args.extend(weigh);
    let table = ok(&args);
    assert!(table.contains("predicted cost in bytes"), "{table}");
    assert_eq!(
        table.lines().filter(|l| l.starts_with("* ")).count(),
        1,
        "{table}"
    );
    assert!(table.contains("MPI_Reduce x2 of 8 bytes"), "{table}");
}

#[test]
fn bad_summaries_exit_2() {
    let data = format!(
        "{}/../topoembed/tests/data/recording",
        env!("CARGO_MANIFEST_DIR")
    );
    let guest = format!("graph:{data}/halo2x2.txt");
    let summary = format!("{data}/halo2x2.txt.json");
    let dir = temp_dir("bad-summary");
    let truncated = dir.join("truncated.json");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let truncated = truncated.to_str().unwrap().to_string();
    let other = dir.join("six.json");
    std::fs::write(&other, r#"{"ranks": 6, "collectives": []}"#).unwrap();
    let other = other.to_str().unwrap().to_string();
    for (args, says) in [
        (
            vec!["map", "torus:2x2", "torus:2x2", "--summary", &summary],
            "torus:2x2 is not a graph: give graph:FILE, the recording",
        ),
        (
            vec!["map", &guest, "torus:2x2", "--summary", &truncated],
            "truncated.json:",
        ),
        (
            vec!["map", &guest, "torus:2x2", "--summary", &other],
            "the summary is of a run of 6 ranks",
        ),
        (
            vec!["map", &guest, "torus:2x2", "--summary", "/no/such.json"],
            "/no/such.json: cannot read",
        ),
        (
            vec!["map", &guest, "torus:2x2", "--latency-bytes", "5"],
            "--summary",
        ),
        (
            vec!["metrics", &guest, "torus:2x2", "--summary", &summary],
            "--mapping",
        ),
    ] {
        assert_bad_input(&args);
        let (_, _, err) = run(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A grid smaller than its host that fits inside it (a sub-grid of a grid,
/// a sub-cube of a hypercube by Gray codes) is placed there one hop an
/// edge, the bound, at once — from its spec or from a graph file of it —
/// and where a search meets the bound, the searches after it are dropped
/// with the same placement on one thread and on two.
#[test]
fn small_grids_inside_larger_hosts_meet_the_bound_at_once() {
    let dir = temp_dir("map-inside");
    let file = dir.join("mesh20x20.grf");
    std::fs::write(&file, ok(&["export", "mesh:20x20", "--format", "grf"])).unwrap();
    let file = format!("graph:{}", file.display());
    for (guest, host, bound) in [
        ("mesh:20x20", "cube:10", "760"),
        (file.as_str(), "torus:32x32", "760"),
        ("torus:4x8", "cube:7", "64"),
        ("mesh:4x4x4", "torus:8x8x8", "144"),
    ] {
        let out = ok(&["map", guest, host, "--no-traffic"]);
        let said =
            format!("every edge one hop long, optimal (hop-bytes {bound}, the total volume)");
        assert!(out.contains(&said), "{guest} onto {host}: {out}");
        let hop_bytes = json(&["map", guest, host, "--no-traffic", "--format", "json"])["metrics"]
            ["hop_bytes"]
            .as_u64();
        assert_eq!(hop_bytes.map(|h| h.to_string()).as_deref(), Some(bound));
    }
    // A ring of 10 has no closed form inside torus:4x4x4, but every search
    // finds a cycle of one hop an edge: the first ends the others.
    let placed = |threads: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_topoembed"))
            .args(["map", "ring:10", "torus:4x4x4", "--format", "json"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let out: Value = serde_json::from_slice(&out.stdout).unwrap();
        (numbers(&out["map"]), out["metrics"]["hop_bytes"].as_u64())
    };
    assert_eq!(placed("1"), placed("2"));
    assert_eq!(placed("1").1, Some(10));
    let out = ok(&["map", "ring:10", "torus:4x4x4", "--no-traffic"]);
    assert!(out.contains("search 1 of 8 met the bound"), "{out}");
}

/// A grid smaller than a cube that does not fit inside it is searched, not
/// folded by a many-to-one method that leaves nodes empty (refined, that
/// fold came out above Scotch: mesh:10x10 onto cube:7 279 hop-bytes,
/// mesh:6x6x6 onto cube:8 971, where `scotch_gmap -Cd -b0.03` gives 262
/// and 944).
#[test]
fn small_grids_that_do_not_fit_a_cube_are_searched() {
    for (guest, host, scotch) in [("mesh:10x10", "cube:7", 262), ("mesh:6x6x6", "cube:8", 944)] {
        let out = json(&["map", guest, host, "--no-traffic", "--format", "json"]);
        let hop_bytes = out["metrics"]["hop_bytes"].as_u64().unwrap();
        assert!(hop_bytes < scotch, "{guest} onto {host}: {hop_bytes}");
        let text = ok(&["map", guest, host, "--no-traffic"]);
        assert!(!text.contains("refined instead"), "{text}");
    }
}
