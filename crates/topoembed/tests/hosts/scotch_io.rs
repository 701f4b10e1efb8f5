//! Scotch file readers and writers: round trips, and every kind of bad file
//! a clear error naming the file and the line.

use crate::common;

use topoembed::io;
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};

/// Writes `text` to a fresh file named `name` and returns its path.
fn file(name: &str, text: &str) -> common::TempFile {
    common::temp_file("io", name, text)
}

fn edge_set(t: &dyn Topology) -> Vec<(u64, u64)> {
    let mut edges = Vec::new();
    t.for_each_edge(0..t.node_count(), &mut |u, v, _| edges.push((u, v)));
    edges.sort_unstable();
    edges
}

#[test]
fn graphs_round_trip_in_both_bases() {
    for spec in [
        "cube:5",
        "torus:4x6",
        "mesh:3x5",
        "bintree:8",
        "ring:7",
        "torus:2x3",
        "line:2",
    ] {
        let t = topology::parse(spec).unwrap();
        for base in [0, 1] {
            let mut text = Vec::new();
            io::write_graph(t.as_ref(), base, &mut text).unwrap();
            let path = file(&format!("rt{base}.grf"), &String::from_utf8(text).unwrap());
            let g = io::read_graph(&path).unwrap();
            assert_eq!(g.base, base);
            assert_eq!(g.labels, (base..base + t.node_count()).collect::<Vec<_>>());
            assert_eq!(
                edge_set(&g.graph),
                edge_set(t.as_ref()),
                "{spec} base {base}"
            );
            // And as a guest spec.
            let again = topology::parse(&format!("graph:{}", path.display())).unwrap();
            assert_eq!(edge_set(again.as_ref()), edge_set(t.as_ref()));
        }
    }
}

#[test]
fn labelled_weighted_graphs_are_read_by_label() {
    // A 4-cycle with labels 40, 10, 30, 20 (in file order), edge weights and vertex loads.
    let text =
        "0\n4 8\n1 111\n40 5 2 7 10 7 20\n10 5 2 7 40 7 30\n30 5 2 7 10 7 20\n20 5 2 7 30 7 40\n";
    let g = io::read_graph(&file("lab.grf", text)).unwrap();
    assert_eq!(g.labels, vec![40, 10, 30, 20]);
    assert!(g.edge_weights && g.vertex_loads);
    assert_eq!(edge_set(&g.graph), vec![(0, 1), (0, 3), (1, 2), (2, 3)]);
    // A mapping names vertices by label.
    let m = io::read_mapping(&file("lab.map", "4\n10 1\n20 3\n30 2\n40 0\n"), &g, 4).unwrap();
    assert_eq!(m.hosts(), &[0, 1, 2, 3]);
}

/// A mapping of many vertices (several chunks formatted apart) is the
/// count, then `label<TAB>host` a line in vertex order, and reads back to
/// the same hosts.
#[test]
fn long_mappings_are_written_line_for_line() {
    let n = 40_000u64;
    let ring = io::read_graph(&{
        let mut text = Vec::new();
        io::write_graph(
            topology::parse(&format!("ring:{n}")).unwrap().as_ref(),
            1,
            &mut text,
        )
        .unwrap();
        file("long.grf", &String::from_utf8(text).unwrap())
    })
    .unwrap();
    let hosts: Vec<u64> = (0..n)
        .map(|v| (v * 7919) % 1000 + u64::from(v == n - 1) * u64::MAX / 2)
        .collect();
    let mut written = Vec::new();
    io::write_mapping(&ring.labels, &hosts, &mut written).unwrap();
    let text = String::from_utf8(written).unwrap();
    let mut expected = format!("{n}\n");
    for (l, h) in ring.labels.iter().zip(&hosts) {
        expected += &format!("{l}\t{h}\n");
    }
    assert_eq!(text, expected);
    let mut fitting = hosts.clone();
    fitting[n as usize - 1] = 999;
    let mut written = Vec::new();
    io::write_mapping(&ring.labels, &fitting, &mut written).unwrap();
    let path = file("long.map", &String::from_utf8(written).unwrap());
    assert_eq!(
        io::read_mapping(&path, &ring, 1000).unwrap().hosts(),
        &fitting[..]
    );
    assert!(io::write_mapping(&ring.labels, &hosts[1..], &mut Vec::new()).is_err());
}

/// The labels alone, as a mapping is written with them: the file's own
/// labels where it has them, numbers from the base otherwise (read from
/// the header alone), and a bad header the same error as reading the graph.
#[test]
fn labels_are_read_as_the_graph_reads_them() {
    let labelled =
        "0\n4 8\n1 111\n40 5 2 7 10 7 20\n10 5 2 7 40 7 30\n30 5 2 7 10 7 20\n20 5 2 7 30 7 40\n";
    let path = file("labels.grf", labelled);
    assert_eq!(io::read_labels(&path).unwrap(), vec![40, 10, 30, 20]);
    for base in [0, 1] {
        let mut text = Vec::new();
        io::write_graph(
            topology::parse("torus:3x5").unwrap().as_ref(),
            base,
            &mut text,
        )
        .unwrap();
        let path = file(
            &format!("numbered{base}.grf"),
            &String::from_utf8(text).unwrap(),
        );
        let labels = io::read_labels(&path).unwrap();
        assert_eq!(labels, io::read_graph(&path).unwrap().labels);
        assert_eq!(labels, (base..base + 15).collect::<Vec<_>>());
        // A header past the first bytes read, or split across them.
        for pad in [5000, 4090] {
            let text = std::fs::read_to_string(&path).unwrap();
            let far = file("far.grf", &(" ".repeat(pad) + &text));
            assert_eq!(io::read_labels(&far).unwrap(), labels, "{pad}");
        }
    }
    for bad in [
        "1\n2 2\n0 000\n",
        "0\n2 3\n0 000\n",
        "0\n2 2\n2 000\n",
        "0\n2 2\n0 0x0\n",
        "0\n2\n",
        "0\n4000000000 0\n0 000\n",
    ] {
        let path = file("badlabels.grf", bad);
        let (Err(labels), Err(graph)) = (io::read_labels(&path), io::read_graph(&path)) else {
            panic!("{bad:?} read");
        };
        assert_eq!(labels.to_string(), graph.to_string(), "{bad:?}");
    }
}

#[test]
fn targets_round_trip_and_read_scotch_forms() {
    for spec in [
        "cube:6",
        "ring:12",
        "line:9",
        "torus:4x6",
        "torus:2x3x4",
        "torus:2x2x2x2",
        "mesh:3x5",
        "mesh:2x3x4",
        "mesh:2x2x2x3",
    ] {
        let spec: Spec = spec.parse().unwrap();
        let mut text = Vec::new();
        io::write_target(&spec, &mut text).unwrap();
        let back = io::read_target(&file("rt.tgt", &String::from_utf8(text).unwrap())).unwrap();
        assert_eq!(back, spec);
    }
    for (text, spec) in [
        ("hcub 4", "cube:4"),
        ("torus2D\n8 8\n", "torus:8x8"),
        ("torus2D 16 1", "ring:16"),
        ("torusXD 1 16", "ring:16"),
        ("meshXD 1 16", "line:16"),
        ("mesh3D 4 1 3", "mesh:4x3"),
        ("torusXD 4 2 3 1 4", "torus:2x3x4"),
    ] {
        assert_eq!(
            io::read_target(&file("t.tgt", text)).unwrap(),
            spec.parse::<Spec>().unwrap(),
            "{text}"
        );
    }
    assert!(io::write_target(&"bintree:8".parse().unwrap(), &mut Vec::new()).is_err());
}

/// A grid that wraps some axes only, and a dragonfly, are written as
/// decomposition-defined targets (`deco 0`): labels = host node ids, leaves
/// of one binary decomposition, and every pair's distance equal to BFS on
/// the explicit grid (the dragonfly's own distance).
#[test]
fn mixed_grids_are_written_as_decomposition_defined_targets() {
    for text in [
        "grid:4wx3",
        "grid:3x5w",
        "grid:2wx3x4w",
        "dragonfly:3,1;4,1;3,1;2",
        "dragonfly:2,1;2,1;2,1;1",
    ] {
        let spec: Spec = text.parse().unwrap();
        let mut out = Vec::new();
        io::write_target(&spec, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let mut tokens = out.split_whitespace();
        assert_eq!(tokens.next(), Some("deco"));
        assert_eq!(tokens.next(), Some("0"));
        let mut next = || tokens.next().unwrap().parse::<u64>().unwrap();
        let (n, max) = (next(), next());
        assert_eq!(n, spec.node_count().unwrap());
        let mut nums = std::collections::BTreeSet::new();
        for label in 0..n {
            assert_eq!((next(), next()), (label, 1), "{text}");
            let num = next();
            assert!((1..=max).contains(&num), "{text}");
            nums.insert(num);
        }
        // Leaves of one tree: no number is an ancestor (num / 2^k) of another.
        for &a in &nums {
            let mut up = a / 2;
            while up > 0 {
                assert!(!nums.contains(&up), "{text}: {up} is above {a}");
                up /= 2;
            }
        }
        // Grids: BFS on the explicit grid; dragonflies: the host's own
        // distance (tests/hosts/networks.rs holds it to SimGrid's routes).
        let host = topoembed::topology::build(&spec).unwrap();
        let bfs = spec.grid().map(|_| {
            let (nodes, edges) = common::explicit_edges(&spec);
            common::adjacency(nodes, &edges)
        });
        for i in 1..n {
            let dist: Vec<u64> = match &bfs {
                Some(adj) => common::bfs(adj, i).iter().map(|&d| u64::from(d)).collect(),
                None => (0..n).map(|j| host.distance(i, j)).collect(),
            };
            for j in 0..i {
                assert_eq!(next(), dist[j as usize], "{text}: d({i}, {j})");
            }
        }
    }
    let big: Spec = "grid:128wx64".parse().unwrap();
    let e = io::write_target(&big, &mut Vec::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("--format grf"), "{e}");
}

/// `(file text, words the message must contain)`; each message must also
/// name the file, and the line where one applies.
fn assert_bad(
    kind: &str,
    cases: &[(&str, &[&str])],
    read: impl Fn(&std::path::Path) -> topoembed::Result<()>,
) {
    for (k, (text, words)) in cases.iter().enumerate() {
        let path = file(&format!("bad{k}.{kind}"), text);
        let err = read(&path)
            .expect_err(&format!("{kind} case {k} was accepted: {text:?}"))
            .to_string();
        assert!(
            err.contains(&path.display().to_string()),
            "{kind} case {k}: no file name in '{err}'"
        );
        for w in *words {
            assert!(err.contains(w), "{kind} case {k}: '{err}' lacks '{w}'");
        }
    }
}

#[test]
fn bad_graph_files_are_clear_errors() {
    let cases: &[(&str, &[&str])] = &[
        ("", &["ends where the version"]),
        ("1\n2 2\n0 000\n1 1\n1 0\n", &[":1:", "version 1"]),
        (
            "0\n2 2\n0 000\n1 1\n",
            &[":4:", "ends where the degree of vertex 1"],
        ),
        ("0\n2 3\n0 000\n1 1\n1 0\n", &["arc count 3 is odd"]),
        (
            "0\n3 4\n0 000\n1 1\n1 0\n0\n",
            &["announces 4 arcs but the vertices list 2"],
        ),
        ("0\n2 2\n0 000\n1 1\n1 0\n7\n", &[":6:", "unexpected '7'"]),
        (
            "0\n2 2\n0 000\n1 5\n1 0\n",
            &[":4:", "neighbour 5", "not a vertex"],
        ),
        ("0\n2 2\n1 000\n1 0\n1 1\n", &[":4:", "neighbour 0"]),
        ("0\n2 2\n0 000\n1 0\n1 0\n", &[":4:", "lists itself"]),
        (
            "0\n3 2\n0 000\n1 1\n0\n1 0\n",
            &["lists neighbour 1 but 1 does not list 0"],
        ),
        (
            "0\n3 4\n0 000\n2 1 1\n2 0 0\n0\n",
            &["lists neighbour 1 twice"],
        ),
        ("0\n2 2\n0 100\n7 1 7\n7 1 7\n", &["same label 7"]),
        ("0\n2 2\n0 012\n1 1\n1 0\n", &[":3:", "flags '012'"]),
        ("0\n2 2\n2 000\n1 1\n1 0\n", &[":3:", "base"]),
        ("0\nx 2\n", &[":2:", "expected the vertex count, found 'x'"]),
        (
            "0\n3 2\n0 000\n1 1\n2 0 2\n1 1\n",
            &["more neighbours than the 2 arcs"],
        ),
    ];
    assert_bad("grf", cases, |p| io::read_graph(p).map(|_| ()));
}

#[test]
fn bad_target_files_are_clear_errors() {
    let cases: &[(&str, &[&str])] = &[
        ("", &["ends where a target architecture name"]),
        ("deco 0 1", &[":1:", "'deco' is not read"]),
        ("torus2D 8", &["ends where the size of dimension 2"]),
        ("mesh2D 4 0", &["dimension 2 has size 0"]),
        ("hcub 4 extra", &["unexpected 'extra'"]),
        ("hcub 0", &["single node"]),
        ("torus2D 1 1", &["single node"]),
        ("torusXD 3 1048576 1048576 1048576", &["more than"]),
        ("hcub 41", &["more than 40"]),
    ];
    assert_bad("tgt", cases, |p| io::read_target(p).map(|_| ()));
}

#[test]
fn bad_mapping_files_are_clear_errors() {
    let graph = io::read_graph(&file(
        "ring4.grf",
        "0\n4 8\n1 000\n2 2 4\n2 1 3\n2 2 4\n2 3 1\n",
    ))
    .unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("", &["ends where the number of mapped vertices"]),
        (
            "3\n1 0\n2 1\n3 2\n",
            &[":1:", "lists 3 vertices but the graph has 4"],
        ),
        (
            "4\n1 0\n2 1\n3 2\n",
            &["ends where the label of mapping entry 4"],
        ),
        (
            "4\n1 0\n2 1\n3 2\n0 3\n",
            &[":5:", "vertex 0 is not in", "labelled 1..4"],
        ),
        (
            "4\n1 0\n2 1\n3 2\n4 9\n",
            &[":5:", "target 9", "nodes 0..3"],
        ),
        (
            "4\n1 0\n2 1\n2 2\n4 3\n",
            &[":4:", "vertex 2 is mapped twice"],
        ),
        ("4\n1 0\n2 1\n3 2\n4 3\n5 0\n", &[":6:", "unexpected '5'"]),
        ("4\n1 0\n2 -1\n", &[":3:", "found '-1'"]),
    ];
    assert_bad("map", cases, |p| io::read_mapping(p, &graph, 4).map(|_| ()));
}

/// Every input the fuzzers ever crashed on (fuzz/artifacts/<reader>/) is
/// now read without a panic, as a value or an error.
#[test]
fn fuzz_crashers_stay_fixed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/artifacts");
    let ring = io::parse_graph(
        std::path::Path::new("ring.grf"),
        "0\n4 8\n1 100\n10 2 20 40\n20 2 10 30\n30 2 20 40\n40 2 30 10\n",
    )
    .unwrap();
    let mut seen = 0;
    for reader in ["grf", "tgt", "map", "edge_list"] {
        let Ok(dir) = std::fs::read_dir(root.join(reader)) else {
            continue;
        };
        for entry in dir {
            let path = entry.unwrap().path();
            let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap()) else {
                continue;
            };
            let _ = match reader {
                "grf" => io::parse_graph(&path, &text).map(|_| ()),
                "tgt" => io::parse_target(&path, &text).map(|_| ()),
                "edge_list" => {
                    topoembed::topology::Graph::parse_edge_list(&path, &text).map(|_| ())
                }
                _ => io::parse_mapping(&path, &text, &ring, 6).map(|_| ()),
            };
            seen += 1;
        }
    }
    assert!(seen >= 1, "no crashers found under {}", root.display());
}

/// Fat trees, regular hwloc nodes and networks of nodes are written as
/// Scotch `tleaf` targets whose level costs, added from the level where
/// two leaves part down to the leaves (as Scotch adds them: gmtst agrees
/// on fat trees, `topoembed-cli/tests/scotch.rs`), are exactly topoembed's
/// distances, pair by pair.
#[test]
fn tree_hosts_are_tleafs_with_the_hosts_distances() {
    let hwloc = format!(
        "{}/tests/data/hwloc/two-pack-numa-smt.xml",
        env!("CARGO_MANIFEST_DIR")
    );
    for spec in [
        "fattree:2;4,4;1,2;1,1".to_string(),
        "fattree:3;2,3,2;1,2,2;1,1,1".to_string(),
        format!("hwloc:{hwloc}"),
        "fattree:2;4,2;1,2;1,1*tleaf:2x3:10,1".to_string(),
        format!("fattree:2;2,2;1,2;1,1*hwloc:{hwloc}"),
    ] {
        let host = topology::parse(&spec).unwrap();
        let mut text = Vec::new();
        io::write_target(host.spec(), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let words: Vec<u64> = text
            .split_whitespace()
            .skip(1)
            .map(|w| w.parse().unwrap())
            .collect();
        assert!(text.starts_with("tleaf"), "{spec}: {text}");
        let levels: Vec<(u64, u64)> = words[1..].chunks(2).map(|c| (c[0], c[1])).collect();
        assert_eq!(levels.len() as u64, words[0]);
        let leaves: u64 = levels.iter().map(|l| l.0).product();
        assert_eq!(leaves, host.node_count(), "{spec}");
        // Digits top first; the first that differs is where they part.
        let digits = |mut v: u64| {
            let mut d = vec![0; levels.len()];
            for (k, &(n, _)) in levels.iter().enumerate().rev() {
                d[k] = v % n;
                v /= n;
            }
            d
        };
        for a in 0..leaves {
            for b in 0..leaves {
                let (x, y) = (digits(a), digits(b));
                let scotch: u64 = (0..levels.len())
                    .find(|&k| x[k] != y[k])
                    .map_or(0, |k| levels[k..].iter().map(|l| l.1).sum());
                assert_eq!(scotch, host.distance(a, b), "{spec}: {a} {b}");
            }
        }
    }
}
