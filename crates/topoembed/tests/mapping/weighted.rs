//! Weighted guests: volumes and loads read from every file format reach the
//! metrics, and hop-bytes, guest load per host node and congestion in volume
//! equal a brute-force computation (BFS distances, routes walked hop by hop).

use crate::common;

use proptest::prelude::*;
use topoembed::io::Mapping;
use topoembed::metrics::{self, Options};
use topoembed::routing::TieRule;
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};

fn file(name: &str, text: &str) -> common::TempFile {
    common::temp_file("weighted", name, text)
}

/// Hop-bytes, most load on a host node, and the largest link load when every
/// edge's route is walked with `Topology::route`, all counted naively.
fn brute_force(graph: &Graph, host: &dyn Topology, map: &[u64]) -> (u128, u64, u64) {
    let mut hop_bytes = 0u128;
    let mut links = std::collections::HashMap::<u64, u64>::new();
    for u in 0..graph.node_count() {
        for (v, w) in graph.adjacency(u).iter().zip(graph.adjacency_volumes(u)) {
            let v = u64::from(*v);
            if v < u {
                continue;
            }
            let (a, b) = (map[u as usize], map[v as usize]);
            let dist = host.distance(a, b);
            hop_bytes += u128::from(dist) * u128::from(w);
            let mut path = Vec::new();
            host.route(a, b, TieRule::Increasing, &mut path);
            assert_eq!(path.len() as u64, dist);
            let mut here = a;
            for next in path {
                *links
                    .entry(host.link_slot(here, next).unwrap())
                    .or_default() += w;
                here = next;
            }
        }
    }
    let mut load = vec![0u64; host.node_count() as usize];
    for (g, &h) in map.iter().enumerate() {
        load[h as usize] += graph.load(g as u64);
    }
    let congestion = links.values().copied().max().unwrap_or(0);
    (hop_bytes, load.into_iter().max().unwrap(), congestion)
}

fn weighted_graph(nodes: u64, edges: &[(u64, u64, u64)], loads: Vec<u64>) -> Graph {
    let mut seen = std::collections::BTreeMap::new();
    for &(u, v, w) in edges {
        if u != v {
            seen.insert((u.min(v), u.max(v)), w);
        }
    }
    let list: Vec<(u64, u64)> = seen.keys().copied().collect();
    Graph::from_edges(Spec::Graph("random.txt".into()), nodes, &list)
        .unwrap()
        .with_volumes(|u, v| seen[&(u.min(v), u.max(v))])
        .with_loads(loads)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn weighted_metrics_equal_brute_force(
        nodes in 2u64..14,
        raw in prop::collection::vec((0u64..14, 0u64..14, 0u64..1000), 1..40),
        loads in prop::collection::vec(0u64..50, 14),
        hosts in prop::collection::vec(0u64..1000, 14),
        host in prop::sample::select(vec!["torus:3x4", "ring:5", "mesh:2x3", "cube:3", "grid:3wx3"]),
    ) {
        let edges: Vec<_> = raw.into_iter().map(|(u, v, w)| (u % nodes, v % nodes, w)).collect();
        let graph = weighted_graph(nodes, &edges, loads[..nodes as usize].to_vec());
        let host = topology::parse(host).unwrap();
        let map: Vec<u64> = hosts[..nodes as usize].iter().map(|h| h % host.node_count()).collect();
        let embedding = Mapping::new(map.clone());
        let m = metrics::measure(&graph, host.as_ref(), &embedding, &Options::default()).unwrap();
        let (hop_bytes, most_load, congestion) = brute_force(&graph, host.as_ref(), &map);
        prop_assert_eq!(m.hop_bytes, hop_bytes);
        prop_assert_eq!(m.host_load.unwrap().max, most_load);
        prop_assert_eq!(m.host_load.unwrap().total, u128::from(loads[..nodes as usize].iter().sum::<u64>()));
        if m.guest_edges > 0 {
            prop_assert_eq!(m.congestion.unwrap().max, congestion);
        }
        prop_assert_eq!(m.total_volume, graph.total_volume());
    }
}

/// Without volumes, hop-bytes is the total dilation, and no host load is reported.
#[test]
fn unweighted_hop_bytes_is_the_total_dilation() {
    let guest = topology::parse("torus:4x4").unwrap();
    let host = topology::parse("ring:16").unwrap();
    let e = topoembed::embed::build("identity", guest.as_ref(), host.as_ref()).unwrap();
    let m = metrics::measure(
        guest.as_ref(),
        host.as_ref(),
        e.as_ref(),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(m.hop_bytes, m.dilation.total);
    assert_eq!(m.total_volume, 32);
    assert!(m.host_load.is_none());
}

fn volumes_of(g: &Graph) -> Vec<(u64, u64, u64)> {
    let mut out = Vec::new();
    for u in 0..g.node_count() {
        for (v, w) in g.adjacency(u).iter().zip(g.adjacency_volumes(u)) {
            if u64::from(*v) > u {
                out.push((u, u64::from(*v), w));
            }
        }
    }
    out
}

/// The same weighted triangle-plus-tail in all four formats gives the same
/// volumes and loads.
#[test]
fn every_format_carries_volumes() {
    let edge_list = file("w.txt", "# u v volume\n0 1 5\n1 2 7\n0 2 1\n2 3 9\n");
    let scotch = file(
        "w.grf",
        "0\n4 8\n0 011\n2 2 5 1 1 2\n3 2 5 0 7 2\n1 3 1 0 7 1 9 3\n4 1 9 2\n",
    );
    let metis = file(
        "w.graph",
        "% triangle and tail\n4 4 11\n2 2 5 3 1\n3 1 5 3 7\n1 1 1 2 7 4 9\n4 3 9\n",
    );
    let mtx = file(
        "w.mtx",
        "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 5.2\n2 3 7\n3 1 0.3\n4 3 9\n3 4 2\n",
    );
    let want = vec![(0, 1, 5), (0, 2, 1), (1, 2, 7), (2, 3, 9)];
    for path in [&edge_list, &scotch, &metis, &mtx] {
        let spec = Spec::Graph(path.to_path_buf());
        let g = topology::build(&spec).unwrap();
        assert!(g.is_weighted(), "{}", path.display());
        assert_eq!(g.total_volume(), 22, "{}", path.display());
        let stored = match path.extension().unwrap().to_str().unwrap() {
            "grf" => topoembed::io::read_graph(path).unwrap().graph,
            "graph" => topoembed::io::read_metis(path).unwrap().graph,
            "mtx" => topoembed::io::read_matrix_market(path).unwrap().graph,
            _ => Graph::read_edge_list(path).unwrap(),
        };
        assert_eq!(volumes_of(&stored), want, "{}", path.display());
        if matches!(path.extension().unwrap().to_str(), Some("grf" | "graph")) {
            assert_eq!(
                (0..4).map(|v| stored.load(v)).collect::<Vec<_>>(),
                vec![2, 3, 1, 4]
            );
        }
    }
}

#[test]
fn bad_weights_name_the_line() {
    let cases = [
        (
            "mixed.txt",
            "0 1 5\n1 2\n",
            "mixed.txt:2:",
            "give every edge a volume or none",
        ),
        ("neg.txt", "0 1 -5\n", "neg.txt:1:", "'-5' is not a volume"),
        (
            "word.txt",
            "0 1 lots\n",
            "word.txt:1:",
            "'lots' is not a volume",
        ),
        (
            "asym.grf",
            "0\n2 2\n0 010\n1 3 1\n1 4 0\n",
            "asym.grf:4:",
            "one weight at 0 and another at 1",
        ),
    ];
    for (name, text, at, what) in cases {
        let path = file(name, text);
        let e = match topology::build(&Spec::Graph(path.to_path_buf())) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{name} was accepted"),
        };
        assert!(e.contains(at) && e.contains(what), "{name}: {e}");
    }
}
