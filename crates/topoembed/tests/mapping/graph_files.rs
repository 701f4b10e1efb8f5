//! METIS graph files and Matrix Market matrices: every part of the formats
//! (comments, isolated vertices, vertex sizes, several vertex weights, edge
//! weights, one-triangle storage) and every kind of bad file, named by file
//! and line.

use crate::common;
use std::path::Path;

use topoembed::io::{parse_metis, read_metis};
use topoembed::topology::{self, Topology};

fn file(name: &str, text: &str) -> common::TempFile {
    common::temp_file("metis", name, text)
}

/// The stored graph `graph:PATH` names.
fn stored(path: &Path) -> Box<dyn Topology> {
    topology::build(&topoembed::spec::Spec::Graph(path.to_path_buf())).unwrap()
}

/// KaHIP's example_weighted.graph (MIT licence; 132 vertices, 328 edges,
/// fmt 11): counts, weights symmetric, and the first vertex as written.
#[test]
fn reads_kahips_weighted_example() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/example_weighted.graph");
    let g = read_metis(&path).unwrap();
    assert_eq!((g.graph.node_count(), g.graph.edge_count()), (132, 328));
    assert!(g.has_edge_weights && g.has_vertex_weights);
    // "287 2 53 10 75": vertex 1 weighs 287, neighbours 2 (53) and 10 (75).
    assert_eq!(g.vertex_weights[0], 287);
    assert_eq!(g.graph.neighbors(0), vec![1, 9]);
    assert_eq!(&g.edge_weights[..2], &[53, 75]);
    // Both directions of every edge carry its weight.
    let mut offsets = vec![0usize];
    for v in 0..132 {
        offsets.push(offsets[v] + g.graph.neighbors(v as u64).len());
    }
    for v in 0..132u64 {
        for (k, u) in g.graph.neighbors(v).into_iter().enumerate() {
            let back = g.graph.neighbors(u).iter().position(|&x| x == v).unwrap();
            assert_eq!(
                g.edge_weights[offsets[v as usize] + k],
                g.edge_weights[offsets[u as usize] + back]
            );
        }
    }
    // The same file as a guest spec.
    let t = topology::parse(&format!("graph:{}", path.display())).unwrap();
    assert_eq!(t.edge_count(), 328);
}

#[test]
fn comments_isolated_vertices_sizes_and_several_weights() {
    let text = "% a comment\n4 2 110 2\n% vertex 1\n7 1 2 2\n1 3 4 1\n\n1 0 0\n";
    // fmt 110: sizes and 2 weights per vertex, no edge weights; vertex 3 has
    // no line content but its size and weights... is the empty line: invalid.
    let e = parse_metis(&file("a.graph", text), text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("a.graph:6: vertex 3 has 0 numbers"), "{e}");
    let text = "% a comment\n4 1 10 2\n% vertex 1\n1 2 2\n3 4 1\n5 6\n7 8\n";
    let g = parse_metis(&file("b.graph", text), text).unwrap();
    assert_eq!(g.ncon, 2);
    assert_eq!(g.vertex_weights, vec![1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!((g.graph.node_count(), g.graph.edge_count()), (4, 1));
    assert_eq!(g.edge_weights, vec![1, 1]);
    // Plain: an empty line is a vertex without neighbours.
    let text = "3 1\n2\n1\n\n";
    let g = parse_metis(&file("c.graph", text), text).unwrap();
    assert_eq!((g.graph.node_count(), g.graph.edge_count()), (3, 1));
    assert!(g.graph.neighbors(2).is_empty());
    assert_eq!(g.vertex_weights, vec![1, 1, 1]);
}

#[test]
fn bad_files_name_the_line() {
    for (text, says) in [
        ("", "empty file"),
        ("3\n", ":1: the header has 1 numbers"),
        ("2 1 12\n2\n1\n", ":1: fmt 12"),
        (
            "2 1 1 2\n2 1\n1 1\n",
            "ncon 2 is given but fmt 1 has no vertex weights",
        ),
        ("2 1 10 0\n1 2\n1 1\n", "ncon 0"),
        ("2 5\n2\n1\n", "5 edges cannot join 2 vertices"),
        ("3 1\n2\n1\n", "announces 3 vertices but the file has 2"),
        (
            "2 1\n3\n1\n",
            ":2: vertex 1 lists neighbour 3; vertices are numbered 1..2",
        ),
        ("2 1\n0\n1\n", "lists neighbour 0"),
        ("2 1\n1\n1\n", ":2: vertex 1 lists itself"),
        ("3 2\n2 2\n1\n\n", "lists neighbour 2 twice"),
        (
            "2 1 1\n2\n1 1\n",
            ":2: vertex 1: a neighbour has no edge weight",
        ),
        ("2 1 1\n2 0\n1 0\n", "weight 0"),
        (
            "2 1 1\n2 3\n1 4\n",
            "the edge 1-2 has weight 3 here and 4 at vertex 2",
        ),
        ("3 1\n2\n\n\n", ":2: vertex 1 lists 2 but 2 does not list 1"),
        ("2 1\n\n1\n", ":3: vertex 2 lists 1 but 1 does not list 2"),
        ("3 2\n2\n1\n\n", "announces 2 edges but the vertices list 1"),
        ("2 1\n2\n1\n1\n", ":4: text after the 2 vertices"),
        ("2 1\n2 x\n1\n", ":2: 'x' is not a whole number"),
        ("2 1 10\n\n1\n", ":2: vertex 1 has 0 numbers"),
    ] {
        let e = parse_metis(&file("bad.graph", text), text)
            .map(|_| "parsed".to_string())
            .unwrap_or_else(|e| e.to_string());
        assert!(e.contains(says), "{text:?}: {e}");
    }
}

/// mesh:100x100 as a METIS file, one line per vertex after the header.
fn mesh_lines() -> Vec<String> {
    use topoembed::io::write_metis;
    let mesh = topology::parse("mesh:100x100").unwrap();
    let mut text = Vec::new();
    write_metis(mesh.as_ref(), &mut text).unwrap();
    String::from_utf8(text)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The lines of a 10^4-vertex file are parsed and checked in parallel,
/// in blocks: a fault anywhere is still named at its first line in the
/// file's order — a bad number in two blocks, an edge listed from one end
/// only (from its higher end, which the check's fast path does not read,
/// and from its lower end), a weight that differs between the ends.
#[test]
fn a_large_files_first_fault_is_named() {
    let parse = |lines: &[String]| {
        let text = lines.join("\n") + "\n";
        parse_metis(&file("mesh.graph", &text), &text)
            .map(|g| g.graph.node_count().to_string())
            .unwrap_or_else(|e| e.to_string())
    };
    let lines = mesh_lines();
    assert_eq!(parse(&lines), "10000");
    // Read back whole: the blocks joined in order give every vertex its
    // own neighbours, and comments and blank lines between the pieces the
    // text is split into change nothing.
    let mesh = topology::parse("mesh:100x100").unwrap();
    let mut commented = lines.clone();
    for k in (1..commented.len()).step_by(997).rev() {
        commented.insert(k, "% a comment".into());
    }
    let text = commented.join("\r\n") + "\r\n";
    let read = parse_metis(&file("mesh.graph", &text), &text)
        .unwrap()
        .graph;
    for v in 0..mesh.node_count() {
        let (mut want, mut got) = (mesh.neighbors(v), read.neighbors(v));
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "vertex {v}");
    }
    // Vertex v is on line v + 1 (the header is line 1).
    let mut bad = lines.clone();
    bad[9000].push_str(" x");
    bad[5000].push_str(" y");
    let e = parse(&bad);
    assert!(
        e.contains("mesh.graph:5001: 'y' is not a whole number"),
        "{e}"
    );
    // Vertex 7002 (1-based, as the file numbers them; on line 7003) and
    // 7003 are neighbours: each in turn no longer lists the other.
    let drop = |line: &str, neighbour: &str| -> String {
        line.split(' ')
            .filter(|t| *t != neighbour)
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (line, neighbour, says) in [
        (
            7002,
            "7003",
            "mesh.graph:7004: vertex 7003 lists 7002 but 7002 does not list 7003",
        ),
        (
            7003,
            "7002",
            "mesh.graph:7003: vertex 7002 lists 7003 but 7003 does not list 7002",
        ),
    ] {
        let mut bad = lines.clone();
        bad[line] = drop(&bad[line], neighbour);
        let e = parse(&bad);
        assert!(e.contains(says), "{e}");
    }
    // Edge weights: 1 everywhere but one end of 4000-4100.
    let mut weighted: Vec<String> = lines
        .iter()
        .map(|l| {
            l.split(' ')
                .map(|t| format!("{t} 1"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    weighted[0] = lines[0].clone() + " 1";
    weighted[4100] = weighted[4100].replace("4000 1", "4000 2");
    let e = parse(&weighted);
    assert!(
        e.contains("mesh.graph:4001: the edge 4000-4100 has weight 1 here and 2 at vertex 4100"),
        "{e}"
    );
}

/// Matrix Market: the symmetrised off-diagonal pattern, |values| as volumes
/// (the larger of a_ij and a_ji), one-triangle storage, and bad files.
#[test]
fn matrix_market_files_are_read_as_their_pattern() {
    use topoembed::io::parse_matrix_market;
    let text = "%%MatrixMarket matrix coordinate real general\n% comment\n3 3 5\n1 1 4.0\n1 2 -2.5\n2 1 3\n3 2 1e0\n3 3 9\n";
    let g = parse_matrix_market(&file("a.mtx", text), text).unwrap();
    assert_eq!((g.graph.node_count(), g.graph.edge_count()), (3, 2));
    assert_eq!(g.volumes, vec![((0, 1), 3.0), ((1, 2), 1.0)]);
    let text = "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n4 3\n4 4\n";
    let g = parse_matrix_market(&file("b.mtx", text), text).unwrap();
    assert_eq!(g.graph.neighbors(3), vec![2]);
    assert_eq!(g.volumes, vec![((0, 1), 1.0), ((2, 3), 1.0)]);
    let c = file("c.mtx", text);
    let t = topology::parse(&format!("graph:{}", c.display())).unwrap();
    assert_eq!(t.edge_count(), 2);
    for (text, says) in [
        ("", "empty file"),
        (
            "%%MatrixMarket matrix array real general\n2 2\n",
            "only sparse matrices",
        ),
        (
            "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n",
            "field 'complex'",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 2 1\n",
            "2 x 3; a graph needs a square matrix",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n",
            "announces 2 entries but the file has 1",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 1\n",
            ":3: '3' is not a row or column in 1..2",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n",
            ":3: an entry has 3 numbers",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n",
            "'nan' is not a finite number",
        ),
        (
            "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n",
            "above the diagonal",
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n2 1 1\n",
            ":4: more entries than the 1",
        ),
        ("matrix 2 2\n", "starts with '%%MatrixMarket"),
    ] {
        let e = parse_matrix_market(&file("bad.mtx", text), text)
            .map(|_| "parsed".to_string())
            .unwrap_or_else(|e| e.to_string());
        assert!(e.contains(says), "{text:?}: {e}");
    }
}

/// The weighted example written as METIS, Scotch .grf and (without its
/// loads) Matrix Market reads back as the same graph: neighbours, volumes
/// and loads.
#[test]
fn writers_round_trip_loads_and_volumes() {
    use topoembed::io::{write_graph, write_matrix_market, write_metis};
    use topoembed::spec::Spec;
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/example_weighted.graph");
    let original = topology::build(&Spec::Graph(source)).unwrap();
    let same = |back: &dyn Topology, loads: bool| {
        let (a, b) = (original.as_graph().unwrap(), back.as_graph().unwrap());
        assert_eq!(a.node_count(), b.node_count());
        for v in 0..a.node_count() {
            assert_eq!(a.adjacency(v), b.adjacency(v), "neighbours of {v}");
            let (wa, wb): (Vec<u64>, Vec<u64>) = (
                a.adjacency_volumes(v).collect(),
                b.adjacency_volumes(v).collect(),
            );
            assert_eq!(wa, wb, "volumes of {v}");
            if loads {
                assert_eq!(original.load(v), back.load(v), "load of {v}");
            }
        }
    };
    let mut text = Vec::new();
    write_metis(original.as_ref(), &mut text).unwrap();
    let path = file("written.graph", std::str::from_utf8(&text).unwrap());
    same(stored(&path).as_ref(), true);
    let mut text = Vec::new();
    write_graph(original.as_ref(), 1, &mut text).unwrap();
    let path = file("written.grf", std::str::from_utf8(&text).unwrap());
    same(stored(&path).as_ref(), true);
    // Matrix Market has no place for loads: refused, not dropped.
    let err = write_matrix_market(original.as_ref(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("node loads"), "{err}");
    let volumes_only = original
        .as_graph()
        .unwrap()
        .clone()
        .with_loads(vec![1; 132])
        .unwrap();
    let mut text = Vec::new();
    write_matrix_market(&volumes_only, &mut text).unwrap();
    let path = file("written.mtx", std::str::from_utf8(&text).unwrap());
    same(stored(&path).as_ref(), false);
}

/// Matrices held in memory read as `graph:FILE.mtx` reads the same entries:
/// the symmetrised pattern, the larger magnitude of a pair as the volume,
/// the diagonal dropped; entries outside the matrix and non-finite values
/// are errors.
#[test]
fn matrix_entries_make_the_graph_a_file_makes() {
    use topoembed::io::matrix_graph;
    use topoembed::spec::Spec;
    let entries = [
        (0, 1, -2.4),
        (1, 0, 1.0),
        (2, 2, 9.0),
        (3, 1, 0.2),
        (2, 3, 5.0),
    ];
    let g = matrix_graph(Spec::Graph("m".into()), 4, entries, true).unwrap();
    let path = file(
        "same.mtx",
        "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 -2.4\n2 1 1.0\n3 3 9\n4 2 0.2\n3 4 5\n",
    );
    let from_file = stored(&path);
    let (a, b) = (g.as_graph().unwrap_or(&g), from_file.as_graph().unwrap());
    for v in 0..4 {
        assert_eq!(a.adjacency(v), b.adjacency(v));
        assert_eq!(
            a.adjacency_volumes(v).collect::<Vec<_>>(),
            b.adjacency_volumes(v).collect::<Vec<_>>()
        );
    }
    assert_eq!(a.adjacency_volumes(0).collect::<Vec<_>>(), vec![2]);
    let outside = matrix_graph(Spec::Graph("m".into()), 2, [(0, 2, 1.0)], true).unwrap_err();
    assert!(
        outside.to_string().contains("outside the 2 x 2"),
        "{outside}"
    );
    let nan = matrix_graph(Spec::Graph("m".into()), 2, [(0, 1, f64::NAN)], true).unwrap_err();
    assert!(nan.to_string().contains("finite"), "{nan}");
}

/// Edge arrays with a volume per edge: both directions carry it, and a
/// count that does not match the edges is an error.
#[test]
fn weighted_edge_arrays() {
    use topoembed::spec::Spec;
    use topoembed::topology::Graph;
    let g =
        Graph::from_weighted_edges(Spec::Graph("e".into()), 3, &[(0, 1), (2, 1)], Some(&[4, 7]))
            .unwrap();
    assert_eq!(g.adjacency_volumes(1).collect::<Vec<_>>(), vec![4, 7]);
    let err = Graph::from_weighted_edges(Spec::Graph("e".into()), 3, &[(0, 1), (2, 1)], Some(&[4]))
        .unwrap_err();
    assert!(err.to_string().contains("1 volumes for 2 edges"), "{err}");
}
