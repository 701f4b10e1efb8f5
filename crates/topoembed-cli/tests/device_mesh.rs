//! `topoembed device-mesh` and the grid-into-grid methods through the binary.

use crate::common;

use common::{assert_bad_input, json, ok, run, temp_dir};
use serde_json::Value;

/// JSON: `mesh[i][j]` is the host node of logical (i, j), `coords` its host
/// coordinates, per-axis figures beside the row-major ones and the bound.
#[test]
fn json_mesh_is_shaped_like_the_logical_mesh() {
    let v = json(&[
        "device-mesh",
        "torus:4x4x4",
        "data=16,model=4",
        "--format",
        "json",
    ]);
    let mesh = v["mesh"].as_array().unwrap();
    assert_eq!(mesh.len(), 16);
    assert!(mesh.iter().all(|row| row.as_array().unwrap().len() == 4));
    let mut ids: Vec<u64> = mesh
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()))
        .collect();
    let coords = &v["coords"];
    for (i, row) in mesh.iter().enumerate() {
        for (j, id) in row.as_array().unwrap().iter().enumerate() {
            let c: Vec<u64> = coords[i][j]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert_eq!(c[0] + 4 * (c[1] + 4 * c[2]), id.as_u64().unwrap());
        }
    }
    ids.sort_unstable();
    assert_eq!(ids, (0..64).collect::<Vec<u64>>());
    let axes = v["axes"].as_array().unwrap();
    assert_eq!(axes[0]["name"], "data");
    assert_eq!(axes[1]["size"], 4);
    for a in axes {
        assert_eq!(a["max_hops"], 1);
        assert_eq!(a["average_hops"], 1.0);
        assert_eq!(a["congestion"], 1);
        assert_eq!(a["lower_bound"], 1);
        assert_eq!(a["kind"], "ring");
    }
    // Row-major: the data ring over the 4x4 plane closes 2 hops away.
    assert_eq!(axes[0]["row_major"]["max_hops"], 2);
    assert_eq!(axes[0]["row_major"]["average_hops"], 1.25);
    // Three axes: nested three deep.
    let v = json(&["device-mesh", "torus:4x4x4", "2x8x4", "--format", "json"]);
    assert_eq!(v["mesh"][1][7].as_array().unwrap().len(), 4);
}

/// The example: (32, 8) on a 16x16 torus and mesh; JAX's rows close
/// 9 and 23 hops away with 8 messages on a link, as row-major does.
#[test]
fn thirty_two_by_eight_on_sixteen_by_sixteen() {
    for (host, row_major_max, row_major_cong) in [("torus:16x16", 9, 8), ("mesh:16x16", 23, 8)] {
        let v = json(&["device-mesh", host, "32x8", "--format", "json"]);
        let a = &v["axes"][0];
        assert_eq!(a["row_major"]["max_hops"], row_major_max, "{host}");
        assert_eq!(a["row_major"]["congestion"], row_major_cong, "{host}");
        assert!(a["max_hops"].as_u64().unwrap() <= 4, "{host}: {a}");
        assert!(a["congestion"].as_u64().unwrap() <= 4, "{host}: {a}");
    }
}

#[test]
fn table_draws_the_host_and_csv_lists_every_device() {
    let out = ok(&["device-mesh", "mesh:3x3", "9"]);
    assert!(
        out.contains("device mesh axis1=9 on mesh:3x3 (9 devices)"),
        "{out}"
    );
    assert!(out.contains("no unit-hop ring for axis1"), "{out}");
    assert!(out.contains("layout:"), "{out}");
    // Three rows of three cells, every logical coordinate 0..8 once.
    let rows: Vec<&str> = out.lines().rev().take(3).collect();
    let mut cells: Vec<u64> = rows
        .iter()
        .flat_map(|r| r.split_whitespace().map(|c| c.parse::<u64>().unwrap()))
        .collect();
    cells.sort_unstable();
    assert_eq!(cells, (0..9).collect::<Vec<u64>>());
    let csv = ok(&[
        "device-mesh",
        "grid:4wx4",
        "pipe=4,data=4",
        "--lines",
        "pipe",
        "--format",
        "csv",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "pipe,data,host_node,host_axis1,host_axis2");
    assert_eq!(lines.len(), 17);
    let v = json(&[
        "device-mesh",
        "grid:4wx4",
        "pipe=4,data=4",
        "--lines",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(v["axes"][0]["kind"], "line");
    assert_eq!(v["axes"][0]["messages"], 12);
    assert_eq!(v["axes"][1]["messages"], 16);
}

/// `--assignment` scores a given mesh; a nested JSON list is read as is.
#[test]
fn assignment_files_are_scored() {
    let dir = temp_dir("assignment");
    let file = dir.join("row-major.json");
    let ids: Vec<u64> = (0..64).collect();
    std::fs::write(&file, serde_json::to_string(&ids).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let given = json(&[
        "device-mesh",
        "torus:4x4x4",
        "16x4",
        "--assignment",
        f,
        "--format",
        "json",
    ]);
    for k in 0..2 {
        let a: &Value = &given["axes"][k];
        assert_eq!(a["max_hops"], a["row_major"]["max_hops"]);
        assert_eq!(a["congestion"], a["row_major"]["congestion"]);
    }
    for (name, text, says) in [
        (
            "short",
            "0 1 2",
            "has 3 host node ids but the logical mesh has 64",
        ),
        (
            "twice",
            &format!(
                "0 0 {}",
                (2..64).map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
            ),
            "two devices on host node 0",
        ),
        (
            "far",
            &format!(
                "{} 64",
                (0..63).map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
            ),
            "host node 64",
        ),
        ("negative", "-1 2", "negative"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let args = [
            "device-mesh",
            "torus:4x4x4",
            "16x4",
            "--assignment",
            path.to_str().unwrap(),
        ];
        assert_bad_input(&args);
        let (_, _, err) = run(&args);
        assert!(err.contains(says), "{name}: {err}");
    }
    assert_bad_input(&[
        "device-mesh",
        "torus:4x4x4",
        "16x4",
        "--assignment",
        "/nonexistent/file",
    ]);
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    for (args, says) in [
        (
            &["device-mesh", "torus:4x4x4", "16x8"][..],
            "has 128 devices but torus:4x4x4 has 64",
        ),
        (&["device-mesh", "torus:4x4x4", "16x0x4"], "size 0"),
        (&["device-mesh", "torus:4x4x4", "16x"], "axis 2 has no size"),
        (&["device-mesh", "torus:4x4x4", "16*4"], "not a size"),
        (
            &["device-mesh", "torus:4x4x4", "data=16,model"],
            "has no '=SIZE'",
        ),
        (
            &["device-mesh", "torus:4x4x4", "16x4", "--weights", "1,2,3"],
            "3 weight(s) but the logical mesh has 2 axes",
        ),
        (
            &["device-mesh", "torus:4x4x4", "16x4", "--weights", "1,x"],
            "'x' is not a weight",
        ),
        (
            &["device-mesh", "torus:4x4x4", "16x4", "--lines", "pipe"],
            "no logical axis 'pipe'",
        ),
        (
            &["device-mesh", "fattree:2;4,4;1,2;1,1*tleaf:8:1", "3x5"],
            "has 15 devices but fattree:2;4,4;1,2;1,1*tleaf:8:1 has 128 nodes",
        ),
        (
            &[
                "device-mesh",
                "fattree:2;4,4;1,2;1,1*tleaf:8:1",
                "16x8",
                "--weights",
                "1",
            ],
            "1 weight(s) but the logical mesh has 2 axes",
        ),
        (&["device-mesh", "torus:4x0", "4"], "axis 2 is 0"),
        (&["device-mesh", "grid:4wxx4", "16"], "axis 2 has no size"),
    ] {
        assert_bad_input(args);
        let (_, _, err) = run(args);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// The two pairs that had only `identity`: snake and axes reach
/// dilation 1, and the methods list them.
#[test]
fn grid_pairs_of_other_shapes_get_unit_dilation() {
    for (guest, host) in [("ring:36", "torus:6x6"), ("torus:16x4", "torus:4x4x4")] {
        let v = json(&[
            "metrics", guest, host, "--method", "axes", "--format", "json",
        ]);
        assert_eq!(v["dilation"]["max"], 1, "{guest} -> {host}");
        assert_eq!(v["congestion"]["max"], 1, "{guest} -> {host}");
    }
    let v = json(&[
        "metrics",
        "ring:36",
        "torus:6x6",
        "--method",
        "snake",
        "--format",
        "json",
    ]);
    assert_eq!(v["dilation"]["max"], 1);
    let v = json(&[
        "metrics",
        "torus:5x7",
        "mesh:5x7",
        "--method",
        "fold",
        "--format",
        "json",
    ]);
    assert_eq!(v["dilation"]["max"], 2);
    let methods = ok(&["methods"]);
    for m in ["snake", "fold", "axes"] {
        assert!(
            methods.lines().any(|l| l.starts_with(m)),
            "{m} missing: {methods}"
        );
    }
    // A mixed host through draw and embed.
    let svg = ok(&["draw", "torus:8x8", "grid:4wx4x4w", "--method", "axes"]);
    assert!(svg.contains("<svg"), "{svg}");
    let layout = ok(&[
        "embed",
        "ring:12",
        "grid:4wx3",
        "--method",
        "snake",
        "--format",
        "layout",
    ]);
    assert!(layout.contains("snake: ring:12 -> grid:4wx3"), "{layout}");
}

/// A GPU cluster (16 nodes of 8 GPUs under a two-level fat tree): the
/// heavier axis's rings stay inside the nodes, the table says how the
/// order was chosen and draws one row per node; csv and json carry the
/// cluster's coordinates and whether congestion was counted.
#[test]
fn gpu_clusters_keep_the_heavy_axis_inside_a_node() {
    let host = "fattree:2;4,4;1,2;1,1*tleaf:8:1";
    let table = ok(&["device-mesh", host, "dp=16,tp=8", "--weights", "1,8"]);
    let tp = table.lines().find(|l| l.starts_with("tp ")).unwrap();
    let cells: Vec<&str> = tp.split_whitespace().collect();
    assert_eq!(&cells[4..7], ["1", "1", "0"], "{table}");
    assert!(
        table.contains("orders of the axes scored (row-major included)"),
        "{table}"
    );
    assert!(
        table.contains("bound for dp: its 16 devices need a group"),
        "{table}"
    );
    assert!(
        table.contains("layout: each row is the host nodes"),
        "{table}"
    );
    // One row per node: 16 rows of 8 logical coordinates, node n holding
    // dp = n and every tp.
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("  [")).collect();
    assert_eq!(rows.len(), 16, "{table}");
    assert!(
        rows[3].ends_with(" 3,0  3,1  3,2  3,3  3,4  3,5  3,6  3,7"),
        "{}",
        rows[3]
    );
    let csv = ok(&["device-mesh", host, "dp=16,tp=8", "--format", "csv"]);
    let head = csv.lines().next().unwrap();
    assert!(head.starts_with("dp,tp,host_node,host_axis1"), "{head}");
    assert_eq!(csv.lines().count(), 129);
    let json = ok(&["device-mesh", host, "dp=16,tp=8", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["congestion_counted"], true);
    assert_eq!(doc["mesh"].as_array().unwrap().len(), 16);
    let tleaf = ok(&["device-mesh", "tleaf:4x8:10,1", "4x8", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&tleaf).unwrap();
    assert_eq!(doc["congestion_counted"], false);
}
