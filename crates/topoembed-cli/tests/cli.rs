//! The seeds' figures and numbers through the `topoembed` binary, output
//! formats, and bad input (one-line errors, exit code 2).

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common;

use common::{assert_bad_input, json, ok, run};

/// Layout rows as numbers, comment lines dropped.
fn layout(args: &[&str]) -> Vec<Vec<u64>> {
    ok(args)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect()
}

fn map_of(args: &[&str]) -> Vec<u64> {
    json(args)["map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[test]
fn figure_6_xor_of_cube_6_on_torus_8x8() {
    let figure = [
        [0, 1, 2, 3, 6, 7, 4, 5],
        [8, 9, 10, 11, 14, 15, 12, 13],
        [16, 17, 18, 19, 22, 23, 20, 21],
        [24, 25, 26, 27, 30, 31, 28, 29],
        [48, 49, 50, 51, 54, 55, 52, 53],
        [56, 57, 58, 59, 62, 63, 60, 61],
        [32, 33, 34, 35, 38, 39, 36, 37],
        [40, 41, 42, 43, 46, 47, 44, 45],
    ];
    let fig6 = |format: &'static str| {
        [
            "embed",
            "cube:6",
            "torus:8x8",
            "--method",
            "xor",
            "--format",
            format,
        ]
    };
    let rows = layout(&fig6("layout"));
    assert_eq!(rows, figure.map(|r| r.to_vec()).to_vec());
    // The same from the JSON map: rows are m_2, columns m_1 (seeds' errata).
    let v = json(&fig6("json"));
    for (n, c) in v["coords"].as_array().unwrap().iter().enumerate() {
        let (m1, m2) = (
            c[0].as_u64().unwrap() as usize,
            c[1].as_u64().unwrap() as usize,
        );
        assert_eq!(figure[m2][m1], n as u64);
    }
    let m = json(&[
        "metrics",
        "cube:6",
        "torus:8x8",
        "-m",
        "xor",
        "--format",
        "json",
    ]);
    assert_eq!(m["distances"], serde_json::json!([1, 2, 2, 1, 2, 2]));
}

#[test]
fn figure_2_standard_and_figure_5_xor_and_figure_3a_byweight() {
    let line = layout(&[
        "embed", "cube:3", "line:8", "-m", "standard", "--format", "layout",
    ]);
    assert_eq!(line, vec![(0..8).collect::<Vec<u64>>()]);
    let grid = layout(&[
        "embed",
        "cube:4",
        "torus:4x4",
        "-m",
        "standard",
        "--format",
        "layout",
    ]);
    assert_eq!(
        grid,
        (0..4)
            .map(|r| (4 * r..4 * r + 4).collect())
            .collect::<Vec<Vec<u64>>>()
    );
    let ring = layout(&[
        "embed", "cube:4", "ring:16", "-m", "xor", "--format", "layout",
    ]);
    assert_eq!(
        ring,
        vec![vec![0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11]]
    );
    let bw = layout(&[
        "embed", "cube:3", "line:8", "-m", "byweight", "--format", "layout",
    ]);
    assert_eq!(bw, vec![vec![0, 4, 2, 1, 6, 5, 3, 7]]);
}

#[test]
fn figure_4_dilation_table_and_cc_times() {
    let table = |method: &str| {
        json(&[
            "dilations",
            "cube:3",
            "line:8",
            "-m",
            method,
            "--format",
            "json",
        ])["dilations"]
            .clone()
    };
    assert_eq!(table("standard"), serde_json::json!(vec![[1, 2, 4]; 8]));
    assert_eq!(
        table("byweight"),
        serde_json::json!([
            [3, 2, 1],
            [3, 3, 2],
            [4, 2, 2],
            [4, 3, 1],
            [4, 3, 1],
            [4, 2, 2],
            [3, 3, 2],
            [3, 2, 1]
        ])
    );
    let cc = |method: &str| {
        json(&[
            "metrics", "cube:3", "line:8", "-m", method, "--ta", "1", "--tc", "1", "--format",
            "json",
        ])["cc_time"]
            .clone()
    };
    // T = 3Ta + 7Tc (standard) against 3Ta + 9Tc (byweight), 8Tc of waiting.
    assert_eq!(
        (
            cc("standard")["time"].as_f64(),
            cc("standard")["waiting"].as_f64()
        ),
        (Some(10.0), Some(0.0))
    );
    assert_eq!(
        (
            cc("byweight")["time"].as_f64(),
            cc("byweight")["waiting"].as_f64()
        ),
        (Some(12.0), Some(8.0))
    );
    assert_eq!(cc("standard")["closed_form"].as_f64(), Some(10.0));
    assert!(cc("byweight")["closed_form"].is_null());
}

#[test]
fn xor_average_distance_on_rings_and_square_tori() {
    for d in 2..=16u32 {
        let m = json(&[
            "metrics",
            &format!("cube:{d}"),
            &format!("ring:2^{d}"),
            "-m",
            "xor",
            "--format",
            "json",
        ]);
        let want = f64::from(3 * (1u32 << (d - 2)) - 1) / f64::from(d);
        assert_eq!(m["average_distance"].as_f64(), Some(want), "d={d}");
        assert_eq!(m["constant_distance"], Value::Bool(true));
    }
    // c(2^(d/c-2) + 2^(d/c-1) - 1)/d for (2^(d/c))^c tori.
    for (host, c, k) in [
        ("torus:8x8", 2, 3),
        ("torus:32x32", 2, 5),
        ("torus:16x16x16", 3, 4),
        ("torus:4x4x4x4", 4, 2),
    ] {
        let d = c * k;
        let m = json(&[
            "metrics",
            &format!("cube:{d}"),
            host,
            "-m",
            "xor",
            "--format",
            "json",
        ]);
        let want = f64::from(c * ((1 << (k - 2)) + (1 << (k - 1)) - 1)) / f64::from(d);
        assert!(
            (m["average_distance"].as_f64().unwrap() - want).abs() < 1e-12,
            "{host}"
        );
    }
}

#[test]
// Binary literals are grouped by mesh axis, as the notes write them.
#[allow(clippy::unusual_byte_groupings)]
fn lecture_notes_gray_tables_and_the_5_2_3_1_7_example() {
    // Ring of 8 in a 3-cube: ring node 4 -> processor 6 (binary 100 -> Gray 110).
    assert_eq!(
        map_of(&["embed", "ring:8", "cube:3", "-m", "gray", "--format", "json"]),
        [0, 1, 3, 2, 6, 7, 5, 4]
    );
    // Gray order, the reverse direction: host p holds guest btog(p).
    let reverse = map_of(&[
        "embed", "cube:3", "ring:8", "-m", "gray", "--format", "json",
    ]);
    let mut holds = [0u64; 8];
    for (g, &p) in reverse.iter().enumerate() {
        holds[p as usize] = g as u64;
    }
    assert_eq!(holds, [0, 1, 3, 2, 6, 7, 5, 4]);
    // (5,2,3,1,7) in 8x4x16x2x8 -> Gray codes 111, 11, 0010, 1, 100 per axis.
    let index = 5 + 8 * (2 + 4 * (3 + 16 * (1 + 2 * 7)));
    let map = map_of(&[
        "embed",
        "mesh:8x4x16x2x8",
        "cube:13",
        "-m",
        "gray",
        "--format",
        "json",
    ]);
    let rank = map[index];
    let fields: Vec<u64> = [(0, 3), (3, 2), (5, 4), (9, 1), (10, 3)]
        .iter()
        .map(|&(o, w)| (rank >> o) & ((1 << w) - 1))
        .collect();
    assert_eq!(fields, [0b111, 0b11, 0b0010, 0b1, 0b100]);
    // The notes concatenate axis 1 first (high bits): reverse the axes to get their rank.
    let reversed = 7 + 8 * (1 + 2 * (3 + 16 * (2 + 4 * 5)));
    let map = map_of(&[
        "embed",
        "mesh:8x2x16x4x8",
        "cube:13",
        "-m",
        "gray",
        "--format",
        "json",
    ]);
    assert_eq!(map[reversed], 0b111_11_0010_1_100);
    let table = ok(&["embed", "mesh:8x2x16x4x8", "cube:13", "-m", "gray"]);
    assert!(table
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [reversed.to_string().as_str(), "7980", "1111100101100"]));
}

#[test]
fn compare_marks_the_best_cc_time_in_every_format() {
    let table = ok(&["compare", "cube:10", "torus:32x32"]);
    // The mapper recognises the cube and keeps the xor placement: a tie.
    let best: Vec<&str> = table.lines().filter(|l| l.contains("<- best")).collect();
    assert_eq!(best.len(), 2);
    assert!(
        best[0].starts_with("xor ") && best[1].starts_with("map "),
        "{table}"
    );
    assert!(table.contains("not applicable: 11 methods (byweight, "));
    let list = json(&["compare", "cube:10", "torus:32x32", "--format", "json"]);
    let rows = list.as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["method"].as_str().unwrap()).collect();
    assert_eq!(names, ["standard", "xor", "gray", "identity", "map"]);
    let flagged: Vec<&str> = rows
        .iter()
        .filter(|r| r["best_cc_time"] == Value::Bool(true))
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(flagged, ["xor", "map"]);
    assert_eq!(rows[1]["cc_time"]["time"].as_f64(), Some(46.0));
    assert_eq!(rows[0]["cc_time"]["time"].as_f64(), Some(62.0));
    let csv = ok(&["compare", "cube:10", "torus:32x32", "--format", "csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("guest,host,method,") && lines[0].ends_with(",best_cc_time"));
    assert_eq!(lines.len(), 6);
    assert!(lines[2].starts_with("cube:10,torus:32x32,xor,") && lines[2].ends_with(",true"));
}

#[test]
fn metrics_json_has_the_stable_keys() {
    let m = json(&[
        "metrics", "cube:4", "ring:16", "-m", "gray", "--format", "json",
    ]);
    for key in [
        "guest",
        "host",
        "method",
        "guest_nodes",
        "host_nodes",
        "guest_edges",
        "load_factor",
        "expansion",
        "dilation",
        "constant_distance",
        "distances",
        "average_distance",
        "cc_time",
        "per_dimension",
    ] {
        assert!(m.get(key).is_some(), "missing {key}");
    }
    for key in ["max", "average", "total", "spectrum"] {
        assert!(m["dilation"].get(key).is_some(), "missing dilation.{key}");
    }
    for key in ["ta", "tc", "time", "waiting"] {
        assert!(m["cc_time"].get(key).is_some(), "missing cc_time.{key}");
    }
    let spectrum: u64 = m["dilation"]["spectrum"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(spectrum, 32);
    assert_eq!(m["constant_distance"], Value::Bool(false));
    assert!(m["distances"].is_null() && m["average_distance"].is_null());
    let e = json(&[
        "embed",
        "torus:4x2",
        "cube:3",
        "-m",
        "gray",
        "--format",
        "json",
    ]);
    assert_eq!(e["coords"][3], serde_json::json!([0, 1, 0]));
    let methods = json(&["methods", "--format", "json"]);
    assert_eq!(methods.as_array().unwrap().len(), 16);
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["metrics", "hypercube:4", "ring:16", "-m", "xor"], "unknown topology kind 'hypercube'"),
        (&["metrics", "cube:4", "ring:0", "-m", "xor"], "at least 2 nodes"),
        (&["metrics", "cube:4", "ring:1", "-m", "xor"], "at least 2 nodes"),
        (&["metrics", "cube:0", "ring:1", "-m", "xor"], "at least one dimension"),
        (&["metrics", "cube:41", "ring:2^41", "-m", "xor"], "up to cube:40"),
        (&["metrics", "cube:4", "torus:4x0", "-m", "xor"], "axis 2 is 0"),
        (&["metrics", "cube:6", "torus:8x4", "-m", "xor"], "cube:6 has 64 nodes but torus:8x4 has 32; the methods here are one-to-one, so try torus:8x8"),
        (&["compare", "cube:6", "ring:60"], "try ring:64"),
        (&["metrics", "cube:10", "torus:32x32", "-m", "byweight"], "methods that apply: standard, xor, gray, identity"),
        (&["metrics", "cube:10", "mesh:32x32", "-m", "xor"], "methods that apply: standard, gray, identity"),
        (&["metrics", "cube:1", "ring:2", "-m", "xor"], "needs D >= 2"),
        (&["embed", "mesh:3x6", "ring:18", "-m", "gray"], "one side must be a hypercube"),
        (&["embed", "mesh:6x6", "cube:5", "-m", "gray"], "guest has 36 nodes, host has 32; methods that apply: split, reshape, combine, recursive, auto"),
        (&["embed", "torus:6x6", "cube:5", "-m", "gray"], "torus:6x6 has 36 nodes but cube:5 has 32"),
        (&["embed", "cube:4", "ring:16", "-m", "spiral"], "unknown method 'spiral'; known methods: standard, xor, byweight, gray, identity, snake, fold, axes, levels, inorder, split, reshape, combine, recursive, auto"),
        (&["embed", "cube:4", "ring:16", "-m", "snake"], "the guest must be a ring, line, torus, mesh or grid (got cube); methods that apply: standard, xor, byweight, gray, identity"),
        (&["metrics", "cube:4", "ring:16", "-m", "xor", "--ta", "-1"], "--ta must be a finite number >= 0"),
        (&["embed", "cube:4", "cube:4", "-m", "identity", "--format", "layout"], "--format layout draws ring, line, torus and mesh hosts"),
        (&["dilations", "ring:16", "cube:4", "-m", "gray"], "hypercube guests"),
        (&["metrics", "graph:/no/such/file.txt", "ring:4", "-m", "identity"], "cannot read"),
        (&["metrics", "cube:4", "ring:16", "--mapping", "x.map"], "--mapping needs a graph file as the guest"),
        (&["metrics", "graph:/no/such.grf", "ring:16", "--mapping", "x.map"], "/no/such.grf: cannot read"),
        (&["metrics", "cube:4", "/no/such.tgt", "-m", "xor"], "/no/such.tgt: cannot read"),
        (&["export", "bintree:8", "--format", "tgt"], "no Scotch target form"),
        (&["metrics", "ring:9", "torus:8x8x8@0-7,512", "-m", "identity"], "allocation node 512 is outside the host (nodes 0..511)"),
        (&["map", "ring:9", "torus:8x8x8@0-7,3"], "host node 3 is listed twice in the allocation"),
        (&["map", "ring:9", "torus:8x8x8@/no/such/alloc"], "/no/such/alloc: cannot read"),
        (&["metrics", "ring:16", "fattree:2;4,4,4;1,2;1,2", "-m", "identity"], "2 levels but 3 children counts"),
        (&["metrics", "ring:16", "dragonfly:4,1;2,1;3,1;1", "-m", "identity"], "at most as many groups as routers per chassis"),
        (&["export", "tleaf:4x4:10,1", "--format", "simgrid"], "a tleaf has levels with costs"),
        (&["export", "fattree:2;4,4;1,2;1,2", "--format", "simgrid", "--explicit-routes"], "SimGrid's own FAT_TREE cluster"),
        (&["metrics", "ring:4", "hwloc:/no/such/node.xml", "-m", "identity"], "/no/such/node.xml: cannot read"),
        (&["map", "ring:4", "hwloc:Cargo.toml"], "Cargo.toml:1:1: not hwloc XML"),
        (&["map", "ring:4", "slurm:Cargo.toml"], "Cargo.toml:1: '[package]' is not Key=Value"),
        (&["export", "torus:4x4@0-3", "--format", "simgrid"], "an allocation runs on its whole machine"),
        (&["hamiltonian", "cube:1"], "cube:1 has no Hamiltonian cycle"),
        (&["hamiltonian", "torus:4x4"], "hamiltonian takes a hypercube"),
        (&["hamiltonian", "cube:23"], "too large"),
        (&["metrics", "mesh:3x3", "cube:4", "-m", "split"], "fewer than the 16 nodes of the 4-cube; use cube:3 or smaller, or reshape"),
        (&["metrics", "mesh:0x5", "cube:2", "-m", "split"], "axis 1 is 0"),
        (&["metrics", "mesh:30x30", "cube:4", "-m", "split", "--objective", "load"], "--objective does not apply to method 'split'; it is an option of auto"),
        (&["metrics", "mesh:30x30", "cube:4", "-m", "reshape", "--hamiltonian"], "--hamiltonian does not apply to method 'reshape'; it is an option of split"),
        (&["metrics", "mesh:30x30", "cube:4", "-m", "split", "--hamiltonian"], "4 or more dimensions"),
        (&["metrics", "mesh:30x30", "cube:4", "-m", "combine", "--partition", "cyclic"], "--partition does not apply to method 'combine'"),
        (&["metrics", "cube:6", "torus:8x8", "-m", "xor", "--fat-edges", "all"], "torus:8x8 is not a hypercube"),
        (&["neighbors", "ring:8", "cube:3", "-m", "gray", "--rank", "8"], "rank 8 is out of range: cube:3 has ranks 0..7"),
        (&["neighbors", "bintree:16", "cube:5", "-m", "levels", "--rank", "0"], "bintree:16 needs cube:4 (16 nodes) here, not cube:5"),
        (&["run", "fft", "torus:4x4", "cube:4", "-m", "gray"], "fft is a d-cube algorithm: the guest must be cube:D, not torus:4x4"),
        (&["run", "cannon", "torus:4x4", "cube:4", "-m", "gray", "--n", "6"], "M = 6 is not a multiple of 4"),
        (&["run", "bitonic", "cube:4", "ring:16", "-m", "xor", "--n", "17"], "n must be a multiple of 16"),
        (&["run", "fft", "cube:4", "ring:16", "-m", "xor", "--n", "2^30"], "exceed"),
        (&["run", "allreduce", "cube:4", "ring:16", "-m", "xor", "--tb", "-1"], "--tb must be a finite number >= 0"),
        (&["run", "allreduce", "mesh:8x9", "cube:6", "-m", "split"], "the guest must be cube:D"),
    ];
    for (args, says) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
    // Usage errors come from clap, also with exit code 2.
    let (code, _, err) = run(&["metrics", "cube:4", "ring:16", "-m", "xor", "--tc", "fast"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run(&["metrics", "cube:4"]);
    assert_eq!(code, 2);
    let (code, _, err) = run(&[
        "metrics",
        "cube:4",
        "ring:16",
        "-m",
        "xor",
        "--mapping",
        "a.map",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["export", "cube:4", "--format", "grf", "--base", "2"]);
    assert_eq!(code, 2, "{err}");
}

/// A guest exported as a Scotch graph, the xor embedding written as a Scotch
/// mapping and measured back from the files gives the xor embedding's metrics;
/// a mapping with a bad line is an error naming the file and line.
#[test]
fn scotch_files_round_trip_through_the_cli() {
    let dir = common::temp_dir("cli-scotch");
    let grf = dir.join("cube6.grf");
    let tgt = dir.join("torus.tgt");
    let map = dir.join("xor.map");
    std::fs::write(&grf, ok(&["export", "cube:6", "--format", "grf"])).unwrap();
    std::fs::write(&tgt, ok(&["export", "torus:8x8", "--format", "tgt"])).unwrap();
    assert_eq!(std::fs::read_to_string(&tgt).unwrap(), "torus2D\t8\t8\n");
    std::fs::write(
        &map,
        ok(&[
            "embed",
            "cube:6",
            "torus:8x8",
            "-m",
            "xor",
            "--format",
            "scotch-map",
        ]),
    )
    .unwrap();
    let guest = format!("graph:{}", grf.display());
    let from_files = json(&[
        "metrics",
        &guest,
        tgt.to_str().unwrap(),
        "--mapping",
        map.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let direct = json(&[
        "metrics",
        "cube:6",
        "torus:8x8",
        "-m",
        "xor",
        "--format",
        "json",
    ]);
    for key in [
        "dilation",
        "congestion",
        "node_load",
        "node_traffic",
        "load_factor",
    ] {
        assert_eq!(from_files[key], direct[key], "{key}");
    }
    // The same embedding as SimGrid's hostfile: line g = node-<target of g>,
    // with the host names `export --format simgrid --prefix` gives.
    let targets: Vec<String> = std::fs::read_to_string(&map)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| format!("h{}", l.split_whitespace().nth(1).unwrap()))
        .collect();
    let hostfile = ok(&[
        "embed",
        "cube:6",
        "torus:8x8",
        "-m",
        "xor",
        "--format",
        "smpi-hostfile",
        "--prefix",
        "h",
    ]);
    assert_eq!(hostfile.lines().collect::<Vec<_>>(), targets);
    assert_bad_input(&[
        "embed",
        "cube:6",
        "torus:8x8",
        "--format",
        "smpi-hostfile",
        "--prefix",
        "bad name",
    ]);
    std::fs::write(&map, "64\n0 0\n1 99\n").unwrap();
    let (code, _, err) = run(&[
        "metrics",
        &guest,
        "torus:8x8",
        "--mapping",
        map.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("xor.map:3: vertex 1 goes to target 99"),
        "{err}"
    );
}

#[test]
fn help_explains_the_specs() {
    let help = ok(&["--help"]);
    assert!(help.contains("cube:D") && help.contains("first axis fastest"));
    let help = ok(&["metrics", "--help"]);
    assert!(help.contains("--ta") && help.contains("T_c"));
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args(["embed", "cube:20", "ring:2^20", "-m", "xor"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hamiltonian_cycles_are_printed_and_verified() {
    let text = ok(&["hamiltonian", "cube:4"]);
    assert!(
        text.starts_with("cube:4: 2 edge-disjoint Hamiltonian cycles of 16 nodes"),
        "{text}"
    );
    let cycles: Vec<Vec<u64>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("cycle "))
        .map(|l| {
            l.split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(topoembed::hamiltonian::verify(4, &cycles), Ok(()));
    let v = json(&["hamiltonian", "cube:16", "--format", "json", "--summary"]);
    assert_eq!(
        (v["dimension"].as_u64(), v["verified"].as_bool()),
        (Some(16), Some(true))
    );
    let v = json(&["hamiltonian", "cube:7", "--format", "json"]);
    assert_eq!(v["cycles"].as_array().unwrap().len(), 3);
}

/// `compare` shows every many-to-one strategy side by side, and `auto`
/// says which case of §6 it is in and what it chose.
#[test]
fn compare_shows_every_strategy_for_a_mesh_in_a_small_cube() {
    let text = ok(&["compare", "mesh:100x200", "cube:10", "--verbose"]);
    for method in ["split", "reshape", "combine", "recursive", "auto"] {
        assert!(
            text.lines().any(|l| l.starts_with(method)),
            "{method}: {text}"
        );
    }
    assert!(text.contains("M = M1 x M2 = (4x8) x (25x25)"), "{text}");
    let v = json(&[
        "metrics",
        "mesh:100x200",
        "cube:10",
        "-m",
        "auto",
        "--objective",
        "dilation",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["load_factor"].as_u64(), v["dilation"]["max"].as_u64()),
        (Some(25), Some(1))
    );
    let v = json(&[
        "metrics",
        "line:4097",
        "cube:4",
        "-m",
        "split",
        "--partition",
        "cyclic",
        "--hamiltonian",
        "--fat-edges",
        "shortest",
        "--format",
        "json",
    ]);
    assert_eq!(v["congestion"]["max"].as_u64(), Some(128));
    assert_eq!(v["fat_congestion"]["max"].as_f64(), Some(128.0));
}

/// The lecture notes' ring formulas through `neighbors`, the tree rules of
/// figure 4, and `--all` as JSON.
#[test]
fn neighbors_by_name() {
    let out = ok(&["neighbors", "ring:8", "cube:3", "-m", "gray", "--rank", "6"]);
    assert!(out.contains("closed forms on the rank"), "{out}");
    // Rank 6 (110) plays ring node gtob(6) = 4; left 3 is on btog(3) = 2, right 5 on 7.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["6", "4", "left", "3", "2", "1"],
            vec!["6", "4", "right", "5", "7", "1"]
        ]
    );
    let v = json(&[
        "neighbors",
        "torus:4x4",
        "cube:4",
        "-m",
        "gray",
        "--all",
        "--format",
        "json",
    ]);
    let ranks = v["ranks"].as_array().unwrap();
    assert_eq!(ranks.len(), 16);
    for r in ranks {
        let names: Vec<&str> = r["neighbors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["direction"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["west", "east", "north", "south"]);
        assert!(r["neighbors"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["hops"] == 1));
    }
    let tree = ok(&[
        "neighbors",
        "bintree:16",
        "cube:4",
        "-m",
        "levels",
        "--rank",
        "8",
    ]);
    assert!(
        tree.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["8", "2", "1", "right", "child", "6", "12", "1"]),
        "{tree}"
    );
    let cube = json(&[
        "neighbors",
        "cube:3",
        "ring:8",
        "-m",
        "xor",
        "--rank",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(cube["ranks"][0]["guests"], serde_json::json!([7]));
    let dims: Vec<u64> = cube["ranks"][0]["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["rank"].as_u64().unwrap())
        .collect();
    // xor on ring:8: f(n) = n ^ ((n & 4) >> 1); guest 7's neighbours 6, 5, 3 sit on 4, 7, 3.
    assert_eq!(dims, vec![4, 7, 3]);
}

/// A real run shows xor beating standard on a ring by the recurrence's
/// amount (d = 10: 767 against 1023); JSON carries the counts and the check.
#[test]
fn run_reports_check_counts_and_the_recurrence() {
    let xor = json(&[
        "run",
        "fft",
        "cube:10",
        "ring:1024",
        "-m",
        "xor",
        "--format",
        "json",
    ]);
    let std = json(&[
        "run",
        "fft",
        "cube:10",
        "ring:1024",
        "-m",
        "standard",
        "--format",
        "json",
    ]);
    assert_eq!(xor["modelled_time"], 767.0);
    assert_eq!(std["modelled_time"], 1023.0);
    assert_eq!(xor["predicted"]["time"], 767.0);
    assert_eq!(xor["check"]["passed"], true);
    assert_eq!(xor["messages"], 10240);
    assert_eq!(xor["ranks"], 1024);
    for key in [
        "hops",
        "bytes",
        "waiting",
        "wall_seconds",
        "reference",
        "lookup",
        "costs",
    ] {
        assert!(xor.get(key).is_some(), "missing {key}");
    }
    let table = ok(&[
        "run",
        "cannon",
        "torus:4x4",
        "cube:4",
        "-m",
        "gray",
        "--n",
        "16x8x4",
    ]);
    assert!(table.contains("passed on every rank"), "{table}");
    assert!(table.contains("blocks 4x2 and 2x1"), "{table}");
    let table = ok(&[
        "run",
        "bitonic",
        "cube:5",
        "torus:4x8",
        "-m",
        "xor",
        "--n",
        "2^10",
        "--ta",
        "1",
    ]);
    assert!(
        table.contains("(equal; 15 exchanges and 16 compute phases per rank)"),
        "{table}"
    );
}

/// An Open MPI rankfile: world rank g on the slot of host node f(g), slots
/// counted through the hostfile.
#[test]
fn rankfile_places_every_guest_rank_on_its_host_slot() {
    let dir = common::temp_dir("rankfile");
    let hosts = dir.join("hosts");
    std::fs::write(
        &hosts,
        "# two machines\nn0 slots=4\nn1 slots=4 max_slots=8\n",
    )
    .unwrap();
    let hosts = hosts.to_str().unwrap();
    let out = ok(&[
        "rankfile", "cube:3", "ring:8", "-m", "xor", "--hosts", hosts,
    ]);
    // xor on ring:8: f(n) = n ^ ((n & 4) >> 1), so ranks 4..7 sit on nodes 6, 7, 4, 5.
    let want = "rank 0=n0 slot=0\nrank 1=n0 slot=1\nrank 2=n0 slot=2\nrank 3=n0 slot=3\n\
                rank 4=n1 slot=2\nrank 5=n1 slot=3\nrank 6=n1 slot=0\nrank 7=n1 slot=1\n";
    assert_eq!(out, want);
    for (args, says) in [
        (
            vec![
                "rankfile", "cube:4", "ring:16", "-m", "xor", "--hosts", hosts,
            ],
            "8 slots on 2 machines but the host has 16 nodes",
        ),
        (
            vec![
                "rankfile",
                "bintree:8",
                "cube:3",
                "-m",
                "levels",
                "--hosts",
                hosts,
            ],
            "one rank per slot",
        ),
        (
            vec![
                "rankfile",
                "cube:3",
                "ring:8",
                "-m",
                "xor",
                "--hosts",
                "/no/such/hosts",
            ],
            "/no/such/hosts: cannot read",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
