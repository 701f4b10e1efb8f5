//! `topoembed map` end to end: the JSON placement respects the capacity and
//! its metrics are those `metrics --mapping` gives the Scotch map it
//! writes, the congestion objective lowers the congestion, the same seed
//! gives the same map, and bad requests exit 2 with a one-line reason.

use serde_json::Value;

mod common;

use common::{assert_bad_input, json, ok, run, temp_dir};

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
    std::fs::remove_dir_all(&dir).ok();
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
            "--format rankfile needs --hosts",
        ),
        (
            vec!["map", &guest, "cube:10", "--imbalance", "0"],
            "guest node 0 has load 287, more than any host node may take (32",
        ),
        (
            vec!["map", "graph:/no/such.graph", "torus:4x4"],
            "/no/such.graph",
        ),
    ] {
        assert_bad_input(&args);
        let (_, _, err) = run(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
