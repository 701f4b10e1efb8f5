//! Every implicit topology against its explicit graph: node and edge counts,
//! edge enumeration, neighbours, and distances against BFS.

use crate::common;

use std::collections::BTreeSet;

use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};

fn small_specs() -> Vec<Spec> {
    let mut specs: Vec<Spec> = [
        "ring:2",
        "ring:3",
        "ring:7",
        "ring:16",
        "line:2",
        "line:9",
        "torus:2x2",
        "torus:3x5",
        "torus:4x4",
        "torus:2x3x4",
        "torus:5x2x3x2",
        "mesh:3x5",
        "mesh:8x4",
        "mesh:2x3x4",
        "mesh:2x2x2x2x2",
        "torus:8x8",
        "mesh:7x9",
        "grid:5wx4",
        "grid:4x5w",
        "grid:2wx3x4w",
        "grid:3x2wx5w",
        "grid:6wx3x2",
        "bintree:2",
        "bintree:4",
        "bintree:16",
        "bintree:64",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    specs.extend((1..=9).map(Spec::Cube));
    specs
}

#[test]
fn counts_edges_and_neighbours_match_the_definition() {
    for spec in small_specs() {
        let t = topology::build(&spec).unwrap();
        let (n, edges) = common::explicit_edges(&spec);
        assert_eq!(t.node_count(), n, "{spec}");
        assert_eq!(t.edge_count(), edges.len() as u64, "{spec}");
        let mut enumerated = Vec::new();
        t.for_each_edge(0..n, &mut |u, v, class| {
            assert!(u < v, "{spec}: edge {u}-{v} not owned by its lower end");
            assert!(class < t.edge_classes().max(1), "{spec}: class {class}");
            enumerated.push((u, v));
        });
        enumerated.sort_unstable();
        assert_eq!(enumerated, edges, "{spec}: edge enumeration");
        let adj = common::adjacency(n, &edges);
        for v in 0..n {
            let mine: BTreeSet<u64> = t.neighbors(v).into_iter().collect();
            let theirs: BTreeSet<u64> = adj[v as usize].iter().map(|&w| u64::from(w)).collect();
            assert_eq!(mine, theirs, "{spec}: neighbours of {v}");
            assert_eq!(t.degree(v), theirs.len() as u64, "{spec}: degree of {v}");
        }
    }
}

#[test]
fn distances_equal_bfs_and_diameter_is_the_largest() {
    for spec in small_specs() {
        let t = topology::build(&spec).unwrap();
        let dist = common::all_pairs(&spec);
        let mut diameter = 0;
        for a in 0..t.node_count() {
            let (xs, ys): (Vec<u64>, Vec<u64>) = (0..t.node_count()).map(|b| (a, b)).unzip();
            let mut batch = vec![0; xs.len()];
            t.distances(&xs, &ys, &mut batch);
            for b in 0..t.node_count() {
                let want = u64::from(dist[a as usize][b as usize]);
                assert_eq!(t.distance(a, b), want, "{spec}: distance {a}-{b}");
                assert_eq!(batch[b as usize], want, "{spec}: batch distance {a}-{b}");
                diameter = diameter.max(want);
            }
        }
        assert_eq!(t.diameter(), diameter, "{spec}: diameter");
    }
}

#[test]
fn explicit_graph_is_the_bfs_oracle() {
    for spec in small_specs() {
        let t = topology::build(&spec).unwrap();
        let g = Graph::from_topology(t.as_ref()).unwrap();
        let dist = common::all_pairs(&spec);
        assert_eq!(g.edge_count(), t.edge_count());
        for a in 0..t.node_count() {
            let bfs = g.bfs(a);
            for b in 0..t.node_count() {
                assert_eq!(bfs[b as usize], dist[a as usize][b as usize]);
                assert_eq!(g.distance(a, b), t.distance(a, b));
            }
        }
        assert_eq!(g.diameter(), t.diameter(), "{spec}");
    }
}

#[test]
fn coordinates_follow_the_numbering_of_design_md() {
    let t = topology::parse("mesh:8x4x16x2x8").unwrap();
    // (i1, .., i5) has index i1 + 8*(i2 + 4*(i3 + 16*(i4 + 2*i5))).
    let index = 5 + 8 * (2 + 4 * (3 + 16 * (1 + 2 * 7)));
    assert_eq!(t.coords(index), vec![5, 2, 3, 1, 7]);
    let grid = topoembed::topology::Grid::new("mesh:8x4x16x2x8".parse().unwrap());
    assert_eq!(grid.index(&[5, 2, 3, 1, 7]), index);
    for v in (0..grid.node_count()).step_by(97) {
        assert_eq!(grid.index(&grid.coords(v)), v);
    }
    let cube = topology::parse("cube:4").unwrap();
    assert_eq!(cube.coords(0b0110), vec![0, 1, 1, 0]);
    let tree = topology::parse("bintree:8").unwrap();
    assert_eq!(tree.coords(0), vec![0, 0]);
    assert_eq!(tree.coords(9), vec![3, 2]);
}

#[test]
fn large_implicit_topologies_cost_nothing_to_build() {
    let cube = topology::parse("cube:40").unwrap();
    assert_eq!(cube.node_count(), 1 << 40);
    assert_eq!(cube.edge_count(), 40 << 39);
    assert_eq!(cube.distance(0, (1 << 40) - 1), 40);
    let torus = topology::parse("torus:1048576x1048576").unwrap();
    assert_eq!(torus.edge_count(), 2 << 40);
    assert_eq!(torus.distance(0, (1 << 40) - 1), 2);
    assert_eq!(torus.diameter(), 1 << 20);
}

#[test]
fn edge_list_files_are_read_and_bad_ones_rejected() {
    let dir = common::temp_dir("edges");
    let good = dir.join("square.txt");
    std::fs::write(&good, "# a 4-cycle\n0 1\n1 2\n2 3\n3 0 % closing edge\n").unwrap();
    let g = topology::parse(&format!("graph:{}", good.display())).unwrap();
    assert_eq!(
        (g.node_count(), g.edge_count(), g.distance(0, 2)),
        (4, 4, 2)
    );
    for (name, text, says) in [
        ("empty.txt", "# nothing\n", "has no edges"),
        (
            "four.txt",
            "0 1 2 3\n",
            ":1: expected two node ids and an optional volume",
        ),
        ("word.txt", "0 1\n1 x\n", ":2: 'x' is not a node id"),
        ("loop.txt", "0 0\n", "self-loop"),
        ("twice.txt", "0 1\n1 0\n", "listed twice"),
        // Found by fuzzing: one edge asking for 444 million nodes.
        (
            "sparse.txt",
            "0 1\n444044440 1\n",
            ":2: node id 444044440 makes 444044441 nodes for 2 edges",
        ),
        (
            "few.txt",
            "# nodes 2\n0 1\n1 2\n",
            ":1: '# nodes 2' but line 3 names node 2",
        ),
        (
            "zero.txt",
            "# nodes 0\n",
            ":1: '# nodes 0': a graph has at least one node",
        ),
        (
            "overflow.txt",
            "0 1\n# nodes 99999999999999999999999\n",
            ":2: '# nodes 99999999999999999999999' does not state",
        ),
        (
            "again.txt",
            "# nodes 3\n# nodes 3\n0 1\n",
            ":2: a second '# nodes' line",
        ),
        (
            "bomb.txt",
            "# nodes 4000000000\n0 1\n",
            ":1: '# nodes 4000000000' for 1 edges",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = topology::parse(&format!("graph:{}", path.display()))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(says), "{name}: {err}");
    }
    // A stated node count keeps ranks that exchanged nothing (recordings).
    let stated = dir.join("stated.txt");
    std::fs::write(&stated, "# topoembed recording\n# nodes 6\n0 1 5\n1 2 7\n").unwrap();
    let g = topology::parse(&format!("graph:{}", stated.display())).unwrap();
    assert_eq!((g.node_count(), g.edge_count()), (6, 2));
    // Other comments that start with "nodes" are comments.
    std::fs::write(&stated, "# nodes of the ring below\n0 1\n").unwrap();
    let g = topology::parse(&format!("graph:{}", stated.display())).unwrap();
    assert_eq!(g.node_count(), 2);
    let missing = topology::parse("graph:/no/such/file")
        .err()
        .unwrap()
        .to_string();
    assert!(missing.contains("cannot read"), "{missing}");
}

/// A tleaf's distance, from coordinates: the costs of every level from the
/// first one where the two leaves' indices differ down to the cores.
#[test]
fn tleaf_distances_follow_the_levels() {
    let t = topology::parse("tleaf:3x2x4:100,10,1").unwrap();
    assert_eq!((t.node_count(), t.diameter()), (24, 111));
    let costs = [100u64, 10, 1];
    for a in 0..24 {
        for b in 0..24 {
            let (ca, cb) = (t.coords(a), t.coords(b));
            let want = match (0..3).find(|&i| ca[i] != cb[i]) {
                None => 0,
                Some(i) => costs[i..].iter().sum(),
            };
            assert_eq!(t.distance(a, b), want, "{a} {b}");
        }
    }
    // Leaves are numbered with the cores fastest, as Scotch numbers terminals.
    assert_eq!(t.coords(5), vec![0, 1, 1]);
    assert_eq!(topology::parse("tleaf:4x4").unwrap().distance(0, 5), 2);
    for (bad, says) in [
        ("tleaf:8x4:1", "2 levels but 1 costs"),
        ("tleaf:8x4:1,x", "cost 'x' is not a whole number"),
        ("tleaf:4096x4096x4", "at most 2^24"),
    ] {
        let e = topology::parse(bad).err().unwrap().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn tleaf_targets_round_trip() {
    let spec: topoembed::spec::Spec = "tleaf:8x8x4:100,10,1".parse().unwrap();
    let mut text = Vec::new();
    topoembed::io::write_target(&spec, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert_eq!(text.trim(), "tleaf\t3\t8\t100\t8\t10\t4\t1");
    let path = std::path::Path::new("h.tgt");
    assert_eq!(topoembed::io::parse_target(path, &text).unwrap(), spec);
    // Levels of one child are dropped; a level of none is an error.
    assert_eq!(
        topoembed::io::parse_target(path, "tleaf 3 4 10 1 5 2 1").unwrap(),
        "tleaf:4x2:10,1".parse().unwrap()
    );
    let e = topoembed::io::parse_target(path, "tleaf 2 4 10 0 1").unwrap_err();
    assert!(e.to_string().contains("level 2 has size 0"), "{e}");
}
