//! Commands without --method use the method `compare` marks best and say
//! which and why on stderr.

use crate::common;

use common::{assert_bad_input, json, run};
use serde_json::Value;

/// The method compare's JSON marks best (least CC time), or, without CC
/// times, the least hop-bytes then max dilation, first listed on ties.
fn compare_best(guest: &str, host: &str) -> String {
    let rows = json(&["compare", guest, host, "--no-traffic", "--format", "json"]);
    let rows = rows.as_array().expect("an array of rows");
    let marked: Vec<&Value> = rows.iter().filter(|r| r["best_cc_time"] == true).collect();
    if let Some(first) = marked.first() {
        return first["method"].as_str().unwrap().to_string();
    }
    let key = |r: &Value| {
        (
            r["hop_bytes"].as_u64().unwrap(),
            r["dilation"]["max"].as_u64().unwrap(),
        )
    };
    let best = rows.iter().map(key).min().unwrap();
    rows.iter().find(|r| key(r) == best).unwrap()["method"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_command_uses_the_method_compare_marks() {
    for (guest, host) in [
        ("cube:10", "ring:1024"),
        ("cube:6", "torus:8x8"),
        ("cube:5", "line:32"),
        ("ring:16", "torus:4x4"),
        ("torus:8x4", "torus:4x8"),
        ("bintree:16", "cube:4"),
    ] {
        let best = compare_best(guest, host);
        let (code, out, err) = run(&["metrics", guest, host, "--no-traffic", "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let m: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(m["method"], best.as_str(), "{guest} -> {host}: {err}");
        assert!(
            err.starts_with(&format!("note: no --method given: {best}, ")),
            "{err}"
        );
        assert!(
            err.contains("methods that apply") || err.contains("the only method"),
            "{err}"
        );
        // embed places nodes as the chosen method does.
        let (code, out, _) = run(&["embed", guest, host, "--format", "json"]);
        assert_eq!(code, 0);
        let named: Value =
            serde_json::from_str(&run(&["embed", guest, host, "-m", &best, "--format", "json"]).1)
                .unwrap();
        let chosen: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(chosen["map"], named["map"], "{guest} -> {host}");
    }
}

#[test]
fn run_simulate_and_draw_choose_too() {
    let (code, out, err) = run(&[
        "run",
        "allreduce",
        "cube:6",
        "torus:8x8",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"], "xor", "{out}");
    assert!(
        err.contains("no --method given: xor, the least CC time"),
        "{err}"
    );
    let (code, out, err) = run(&["simulate", "fft", "cube:4", "ring:16"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(xor)") && err.contains("no --method given: xor"),
        "{out}{err}"
    );
    let dir = common::temp_dir("defaults");
    let svg = dir.join("d.svg");
    let (code, _, err) = run(&["draw", "cube:4", "ring:16", "-o", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("no --method given: xor") && svg.exists(),
        "{err}"
    );
}

#[test]
fn a_named_method_is_used_silently() {
    let (code, _, err) = run(&[
        "metrics",
        "cube:4",
        "ring:16",
        "-m",
        "standard",
        "--no-traffic",
    ]);
    assert_eq!(code, 0);
    assert!(!err.contains("note:"), "{err}");
}

#[test]
fn nothing_to_choose_is_bad_input() {
    // Different sizes, nothing many-to-one: the node-count message.
    assert_bad_input(&["metrics", "cube:4", "ring:15"]);
    let (_, _, err) = run(&["metrics", "cube:4", "ring:15"]);
    assert!(err.contains("try ring:16"), "{err}");
    assert_bad_input(&["embed", "cube:4", "ring:15"]);
}

/// `topoembed ARGS` with the work limit `limit` seconds.
fn run_limited(limit: &str, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args(args)
        .env("TOPOEMBED_WORK_LIMIT", limit)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn work_beyond_the_limit_is_refused_without_force() {
    let metrics = [
        "metrics",
        "cube:10",
        "ring:1024",
        "-m",
        "xor",
        "--no-traffic",
    ];
    let (code, out, err) = run_limited("0.000001", &metrics);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("metrics: about 5120 guest edges") && err.contains("add --force"),
        "{err}"
    );
    let (code, out, _) = run_limited("0.000001", &[&metrics[..], &["--force"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("xor: cube:10 -> ring:1024"));
    // simulate: fft sends 2 messages per edge over the total dilation (xor on
    // ring:16: 2 x 88 = 176 hops).
    let sim = ["simulate", "fft", "cube:4", "ring:16", "-m", "xor"];
    // One hop per message (64) is the bound checked before measuring.
    let (code, _, err) = run_limited("0.000001", &sim);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("simulate: about 64 link hops at least"),
        "{err}"
    );
    // Past that bound (10 µs at 160 ns a hop), the estimate itself (28 µs).
    let (code, _, err) = run_limited("0.00002", &sim);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("simulate: about 176 link hops, an estimated 28 µs"),
        "{err}"
    );
    assert_eq!(
        run_limited("0.000001", &[&sim[..], &["--force"]].concat()).0,
        0
    );
    assert_eq!(run_limited("600", &sim).0, 0);
    let (code, _, err) = run_limited("soon", &metrics);
    assert_eq!(code, 2);
    assert!(err.contains("TOPOEMBED_WORK_LIMIT=soon"), "{err}");
}

/// The `at least` row of a stopped `optimal` table.
fn at_least(table: &str) -> u64 {
    table
        .split("at least  ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `at least` row in {table}"))
}

/// A stopped search by vectors states the same proved lower bound in every
/// format: the table's `at least` row, JSON's `lower_bound`, CSV's last
/// column (the library's tests check the value against the candidate list).
#[test]
fn a_stopped_optimal_states_its_lower_bound_in_every_format() {
    let args = |format: &'static str| {
        [
            "optimal",
            "cube:8",
            "torus:16x16",
            "--sat",
            "--bounds",
            "counting",
            "--node-limit",
            "10",
            "--format",
            format,
        ]
    };
    let (code, table, err) = run(&args("table"));
    assert_eq!(code, 0, "{err}");
    let least = at_least(&table);
    assert!(least < 22 && table.contains("not proved"), "{table}");
    let (_, json, _) = run(&args("json"));
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["lower_bound"], least, "{json}");
    assert_eq!(v["proved"], false, "{json}");
    let (_, csv, _) = run(&args("csv"));
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",lower_bound"), "{csv}");
    assert!(
        lines.next().unwrap().ends_with(&format!(",{least}")),
        "{csv}"
    );
    // Run to the end, the bound is the optimum and the row is gone.
    let (_, whole, _) = run(&["optimal", "cube:8", "torus:16x16", "--sat"]);
    assert!(
        !whole.contains("at least") && whole.contains("proved:"),
        "{whole}"
    );
}

/// `optimal` runs the bounds first and estimates only the vectors they
/// leave: none on a ring (proved under any limit), seven on torus:16x16
/// under `lift` (refused under a tiny limit, run with --force or when asked for by
/// name with --sat), the estimate capped by --node-limit.
#[test]
fn optimal_estimates_the_vectors_its_bounds_leave() {
    let (code, out, err) = run_limited(
        "0.000001",
        &["optimal", "cube:12", "ring:4096", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["proved"].as_bool(), v["min_sum"].as_u64()),
        (Some(true), Some(3071))
    );
    // Under `lift`: the default (`energy`) leaves none there.
    let search = ["optimal", "cube:8", "torus:16x16", "--bounds", "lift"];
    let (code, out, err) = run_limited("0.01", &search);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("about 7 distance vectors left after the bounds, an estimated 175 ms")
            && err.contains("--force"),
        "{err}"
    );
    let (code, out, err) = run_limited("0.01", &[&search[..], &["--force"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("proved: no constant-distance embedding beats xor"),
        "{out}"
    );
    let (code, _, err) = run_limited("0.01", &[&search[..], &["--sat"]].concat());
    assert_eq!(code, 0, "{err}");
    // Two vectors at 0.05 s: a tenth of a second, within a limit of one.
    let (code, out, err) = run_limited("1", &[&search[..], &["--node-limit", "2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("not proved"), "{out}");
}

/// `optimal --whole-tree` estimates its search tree (Knuth's random probes)
/// and refuses one beyond the limit; --force runs it, --node-limit caps the
/// estimate.
#[test]
fn the_whole_tree_is_estimated_and_refused_beyond_the_limit() {
    // cube:8 on torus:16x16: 1.9·10^7 search nodes, about a second.
    let search = ["optimal", "cube:8", "torus:16x16", "--whole-tree"];
    let (code, out, err) = run_limited("0.01", &search);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("search nodes") && err.contains("--force"),
        "{err}"
    );
    // The estimate is the tree's size to within a small factor: between
    // 10^6 and 10^9 nodes here.
    let units = err
        .split("about ")
        .nth(1)
        .and_then(|rest| rest.split(" search nodes").next())
        .expect("an estimate in the message");
    let exponent: i32 = units
        .split("·10^")
        .nth(1)
        .and_then(|e| e.parse().ok())
        .expect("a count in scientific form");
    assert!((6..=9).contains(&exponent), "{units}");
    // Capped by the node limit, the same search is allowed and runs.
    let capped = [
        "optimal",
        "cube:8",
        "torus:16x16",
        "--whole-tree",
        "--node-limit",
        "1000",
    ];
    let (code, out, err) = run_limited("0.01", &capped);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("not proved"), "{out}");
    // ... and says what it did prove: the counting bound, below xor's 22.
    assert!(at_least(&out) < 22, "{out}");
    // --force runs the whole search past the limit.
    let mut forced = search.to_vec();
    forced.push("--force");
    forced.push("--format");
    forced.push("json");
    let (code, out, err) = run_limited("0.01", &forced);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"proved\": true"), "{out}");
    // A small search passes the default limit silently.
    let (code, _, err) = run_limited("600", &["optimal", "cube:6", "torus:8x8"]);
    assert_eq!(code, 0);
    assert!(!err.contains("note:"), "{err}");
}
