//! `draw` and `simulate --gantt`: the SVG files are parsed back and their
//! labels, nodes and bars checked against the papers' figures and the numbers.

use serde_json::Value;

use crate::common;

use common::{assert_bad_input, json, ok, temp_dir};

/// The figure on standard output.
fn svg(args: &[&str]) -> String {
    let out = ok(args);
    assert!(
        out.starts_with("<svg"),
        "{args:?}: {}",
        &out[..out.len().min(80)]
    );
    out
}

/// Text of every `<text>` element with `fill`, in document order.
fn texts(svg: &str, fill: Option<&str>) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| fill.map_or(true, |f| n.attribute("fill") == Some(f)))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// Guest labels: the black texts.
fn labels(svg: &str) -> Vec<String> {
    texts(svg, Some("#000000"))
}

/// Position and text of every guest label, in document order.
fn label_points(svg: &str) -> Vec<(f64, f64, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("fill") == Some("#000000"))
        .map(|n| {
            let f = |a| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (
                f("x"),
                f("y"),
                n.text().unwrap_or_default().trim().to_string(),
            )
        })
        .collect()
}

/// Polylines of exactly `points` points (a curve with one point per node).
fn curves(svg: &str, points: usize) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| n.attribute("points").unwrap().split_whitespace().count() == points)
        .count()
}

fn count(svg: &str, tag: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants().filter(|n| n.has_tag_name(tag)).count()
}

/// The xor paper's figure 6 (xor embedding of the 6-cube onto the 8x8
/// torus), row by row as printed.
#[test]
fn draw_redraws_figure_6() {
    let figure: [[u64; 8]; 8] = [
        [0, 1, 2, 3, 6, 7, 4, 5],
        [8, 9, 10, 11, 14, 15, 12, 13],
        [16, 17, 18, 19, 22, 23, 20, 21],
        [24, 25, 26, 27, 30, 31, 28, 29],
        [48, 49, 50, 51, 54, 55, 52, 53],
        [56, 57, 58, 59, 62, 63, 60, 61],
        [32, 33, 34, 35, 38, 39, 36, 37],
        [40, 41, 42, 43, 46, 47, 44, 45],
    ];
    let expected: Vec<String> = figure.iter().flatten().map(u64::to_string).collect();
    for edges in [false, true] {
        let mut args = vec!["draw", "cube:6", "torus:8x8", "--method", "xor"];
        if edges {
            args.push("--edges");
        }
        let svg = svg(&args);
        assert_eq!(labels(&svg), expected);
        assert_eq!(
            count(&svg, "circle"),
            2 * 64,
            "a filled disc and an outline per node"
        );
        // Rows really are rows: every label of a row at one height, left to right.
        let at = label_points(&svg);
        for row in at.chunks(8) {
            assert!(row.iter().all(|p| p.1 == row[0].1));
            assert!(row.windows(2).all(|w| w[0].0 < w[1].0));
        }
        assert!(at
            .chunks(8)
            .collect::<Vec<_>>()
            .windows(2)
            .all(|w| w[0][0].1 < w[1][0].1));
        if edges {
            // 192 cube edges over dilations 1 and 2, and a legend for both.
            let paths = count(&svg, "polyline") + count(&svg, "path") + count(&svg, "line");
            assert!(paths >= 192, "{paths}");
            assert!(texts(&svg, None).contains(&"dilation".to_string()));
        }
    }
}

/// Figure 2a (standard embedding of the 3-cube onto a line) and figure 3a
/// (byweight: labels by weight, equal weights descending).
#[test]
fn draw_redraws_figures_2a_and_3a() {
    let standard = svg(&["draw", "cube:3", "line:8", "--method", "standard"]);
    assert_eq!(labels(&standard), ["0", "1", "2", "3", "4", "5", "6", "7"]);
    let byweight = svg(&["draw", "cube:3", "line:8", "--method", "byweight"]);
    assert_eq!(labels(&byweight), ["0", "4", "2", "1", "6", "5", "3", "7"]);
}

/// A ring is drawn round a circle, node 0 on top, clockwise: the labels
/// come in host order, and their positions turn clockwise.
#[test]
fn draw_ring_is_clockwise_from_the_top() {
    let svg = svg(&["draw", "cube:4", "ring:16", "--method", "xor"]);
    let map: Value = serde_json::from_str(&ok(&[
        "embed", "cube:4", "ring:16", "--method", "xor", "--format", "json",
    ]))
    .unwrap();
    let mut on_node = [0u64; 16];
    for (g, h) in map["map"].as_array().unwrap().iter().enumerate() {
        on_node[h.as_u64().unwrap() as usize] = g as u64;
    }
    let expected: Vec<String> = on_node.iter().map(u64::to_string).collect();
    assert_eq!(labels(&svg), expected);
    let at = label_points(&svg);
    // Node 0 is the highest; node 4 (a quarter round) the rightmost.
    assert!(at.iter().all(|p| p.1 >= at[0].1));
    assert!(at.iter().all(|p| p.0 <= at[4].0));
}

/// Cube hosts as a Gray-code grid: the gray embedding of a 4x4 torus then
/// reads as the torus itself; the headers are the Gray code.
#[test]
fn draw_cube_host_as_gray_grid() {
    let svg = svg(&["draw", "torus:4x4", "cube:4", "--method", "gray"]);
    let expected: Vec<String> = (0..16).map(|g: u64| g.to_string()).collect();
    // Labels come in host node order; sort them by position to read the grid.
    let mut at = label_points(&svg);
    at.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
    let read: Vec<String> = at.into_iter().map(|t| t.2).collect();
    assert_eq!(read, expected);
    let headers = texts(&svg, Some("#BAB0AC"));
    for header in ["00", "01", "11", "10"] {
        assert_eq!(
            headers.iter().filter(|t| *t == header).count(),
            2,
            "{header}"
        );
    }
}

/// Many-to-one: several guest nodes on one host node, empty nodes drawn as "-".
#[test]
fn draw_many_to_one_and_trees() {
    let levels = svg(&["draw", "bintree:8", "cube:3", "--method", "levels"]);
    let l = labels(&levels);
    assert_eq!(l.len(), 8);
    assert_eq!(
        l[0], "0,1,+2",
        "root, its left child and left grandchild and leaf 0"
    );
    let inorder = svg_of_tree();
    assert!(
        labels(&inorder).contains(&"-".to_string()),
        "inorder leaves cube node 0 empty"
    );
    // A tree host, by level: the root above its children, leaves at the bottom.
    let tree = svg(&["draw", "bintree:4", "bintree:4", "--method", "identity"]);
    let ys: Vec<f64> = label_points(&tree).into_iter().map(|p| p.1).collect();
    assert_eq!(ys.len(), 7);
    assert!(ys[0] < ys[1] && ys[1] == ys[2] && ys[2] < ys[3] && ys[3] == ys[6]);
}

fn svg_of_tree() -> String {
    svg(&["draw", "bintree:8", "cube:4", "--method", "inorder"])
}

/// 3-D grids as slices, each captioned with its third coordinate.
#[test]
fn draw_3d_torus_as_slices() {
    let svg = svg(&["draw", "cube:6", "torus:4x4x4", "--method", "xor"]);
    assert_eq!(labels(&svg).len(), 64);
    let all = texts(&svg, None);
    for k in 0..4 {
        assert!(all.contains(&format!("i3 = {k}")), "{all:?}");
    }
}

/// Spectrum bars: the standard embedding of the 6-cube on a ring has 32
/// edges of each dilation 1, 2, 4, .., 32 (xor paper §4.2.1).
#[test]
fn draw_spectrum_bars() {
    let svg = svg(&[
        "draw", "cube:6", "ring:64", "--method", "standard", "--figure", "spectrum",
    ]);
    let all = texts(&svg, None);
    for d in ["1", "2", "4", "8", "16", "32"] {
        assert!(all.contains(&d.to_string()), "{d} {all:?}");
    }
    assert_eq!(
        all.iter().filter(|t| *t == "32").count(),
        7,
        "six bars of 32, and dilation 32"
    );
    // One bar per dilation, plus the background.
    assert_eq!(count(&svg, "rect"), 1 + 6);
}

/// Load profile: one curve per loaded dimension and the sum.
#[test]
fn draw_load_profile() {
    let svg = svg(&[
        "draw", "cube:4", "ring:16", "--method", "standard", "--figure", "load",
    ]);
    let all = texts(&svg, None);
    for name in ["dimension 1", "dimension 2", "dimension 3", "all"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    assert!(
        !all.contains(&"dimension 0".to_string()),
        "dilation 1 loads no node"
    );
    assert_eq!(curves(&svg, 16), 4, "one point per ring node on each curve");
}

/// Files: -o writes the figure and says so; bad input is exit code 2.
#[test]
fn draw_files_and_errors() {
    let dir = temp_dir("draw");
    let file = dir.join("fig.svg");
    let out = ok(&[
        "draw",
        "cube:4",
        "torus:4x4",
        "-m",
        "standard",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.starts_with("wrote "), "{out}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(labels(&written).len(), 16);
    for args in [
        vec!["draw", "cube:13", "ring:8192", "-m", "xor"],
        vec![
            "draw", "cube:4", "ring:16", "-m", "gray", "--figure", "bogus",
        ],
        vec!["draw", "cube:4", "ring:8", "-m", "xor"],
        vec![
            "draw",
            "cube:4",
            "ring:16",
            "-m",
            "xor",
            "-o",
            "/nonexistent/dir/f.svg",
        ],
    ] {
        assert_bad_input(&args);
    }
}

/// The xor paper's figure 4: a CC 3-cube algorithm on a line, standard
/// versus byweight. Byweight's unequal distances make processes wait.
#[test]
fn simulate_figure_4_and_gantt() {
    let dir = temp_dir("gantt");
    let file = dir.join("gantt.svg");
    let std = json(&[
        "simulate",
        "allreduce",
        "cube:3",
        "line:8",
        "-m",
        "standard",
        "--ta",
        "1",
        "--format",
        "json",
    ]);
    let bw = json(&[
        "simulate",
        "allreduce",
        "cube:3",
        "line:8",
        "-m",
        "byweight",
        "--ta",
        "1",
        "--format",
        "json",
        "--gantt",
        file.to_str().unwrap(),
    ]);
    // Standard: distances 1, 2, 4, no waiting: 3·T_a + 7·T_c.
    assert_eq!(std["makespan"], 10.0);
    assert_eq!(std["totals"]["waiting"], 0.0);
    assert_eq!(bw["cc_recurrence"], bw["makespan_without_contention"]);
    assert!(bw["totals"]["waiting"].as_f64().unwrap() > 0.0);
    assert!(bw["makespan"].as_f64().unwrap() > std["makespan"].as_f64().unwrap());
    let svg = std::fs::read_to_string(&file).unwrap();
    let all = texts(&svg, None);
    for r in 0..8 {
        assert!(
            all.iter().any(|t| t.starts_with(&format!("rank {r} "))),
            "{all:?}"
        );
    }
    for name in ["compute", "communicate", "wait"] {
        assert!(all.contains(&name.to_string()));
    }
    // Every rank: 3 compute phases, 3 exchanges, and the waits.
    assert!(count(&svg, "rect") > 8 * 6);
}

#[test]
fn simulate_reports_contention() {
    let out = ok(&["simulate", "fft", "cube:6", "line:64", "-m", "byweight"]);
    assert!(
        out.contains("makespan       118 (without contention 111: +7, +6.3%)"),
        "{out}"
    );
    assert!(
        out.contains("CC recurrence  111 (equal to the contention-free makespan)"),
        "{out}"
    );
    let xor = json(&[
        "simulate",
        "fft",
        "cube:6",
        "torus:8x8",
        "-m",
        "xor",
        "--format",
        "json",
    ]);
    assert_eq!(xor["makespan"], xor["makespan_without_contention"]);
    assert_eq!(xor["delayed_messages"], 0);
    assert_eq!(xor["messages"], 384);
    let half = json(&[
        "simulate",
        "fft",
        "cube:6",
        "torus:8x8",
        "-m",
        "xor",
        "--duplex",
        "half",
        "--format",
        "json",
    ]);
    assert!(half["makespan"].as_f64().unwrap() > xor["makespan"].as_f64().unwrap());
    let ct = json(&[
        "simulate",
        "fft",
        "cube:6",
        "ring:64",
        "-m",
        "standard",
        "--mode",
        "cut-through",
        "--format",
        "json",
    ]);
    assert_eq!(
        ct["makespan_without_contention"], 6.0,
        "one T_c per exchange"
    );
    assert_eq!(
        ct["cc_recurrence"],
        Value::Null,
        "the recurrence is store-and-forward"
    );
    let halo = json(&[
        "simulate", "halo", "mesh:8x8", "cube:4", "-m", "reshape", "--ta", "1", "--format", "json",
    ]);
    assert_eq!(halo["processes"], 64);
    assert!(halo["processor_delay"].as_f64().unwrap() > 0.0);
    let cc = json(&[
        "simulate", "bitonic", "cube:5", "ring:32", "-m", "xor", "--trace", "cc", "--format",
        "json",
    ]);
    assert_eq!(cc["makespan"], cc["cc_recurrence"]);
}

#[test]
fn simulate_bad_input_is_exit_2() {
    for args in [
        vec![
            "simulate", "halo", "mesh:8x8", "cube:4", "-m", "reshape", "--trace", "run",
        ],
        vec![
            "simulate", "fft", "cube:4", "ring:16", "-m", "xor", "--th", "-1",
        ],
        vec![
            "simulate",
            "fft",
            "cube:4",
            "ring:16",
            "-m",
            "xor",
            "--gantt",
            "/nonexistent/g.svg",
        ],
        vec!["simulate", "cannon", "cube:4", "ring:16", "-m", "xor"],
        vec![
            "simulate",
            "cannon",
            "torus:4x4",
            "cube:4",
            "-m",
            "gray",
            "--trace",
            "cc",
        ],
        vec![
            "simulate", "fft", "cube:4", "ring:16", "-m", "xor", "--n", "3",
        ],
        vec![
            "simulate", "halo", "ring:8", "cube:3", "-m", "gray", "--n", "0",
        ],
        vec![
            "simulate",
            "halo",
            "ring:8",
            "cube:3",
            "-m",
            "gray",
            "--iterations",
            "0",
        ],
        vec![
            "simulate",
            "fft",
            "cube:4",
            "ring:16",
            "-m",
            "xor",
            "--gantt-rows",
            "0",
        ],
    ] {
        assert_bad_input(&args);
    }
}
