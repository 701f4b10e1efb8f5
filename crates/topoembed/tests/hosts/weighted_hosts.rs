//! Weighted target graphs: a stored host graph's edge volumes are link
//! costs. Distances equal Floyd–Warshall's, routes are cheapest paths with
//! the fewest links, the mapper's distance table agrees, and on a small
//! two-node machine the mapper finds the optimum that trying every
//! placement finds.

use proptest::prelude::*;
use topoembed::mapper::{self, HostDistance, MapOptions, WGraph};
use topoembed::routing::TieRule;
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};

/// A connected graph: the path 0-1-..-(n-1) plus `extra` edges, each edge
/// with its cost.
fn connected(n: u64, path_costs: &[u64], extra: &[(u64, u64, u64)]) -> Graph {
    let mut cost = std::collections::BTreeMap::new();
    for v in 1..n {
        cost.insert((v - 1, v), path_costs[v as usize]);
    }
    for &(a, b, c) in extra {
        let (a, b) = (a % n, b % n);
        if a != b {
            cost.entry((a.min(b), a.max(b))).or_insert(c);
        }
    }
    let edges: Vec<(u64, u64)> = cost.keys().copied().collect();
    Graph::from_edges(Spec::Graph("machine.txt".into()), n, &edges)
        .unwrap()
        .with_volumes(|a, b| cost[&(a.min(b), a.max(b))])
}

/// Least (cost, links) between every pair, by Floyd–Warshall.
fn floyd_warshall(g: &Graph) -> Vec<Vec<(u64, u64)>> {
    let n = g.node_count() as usize;
    let mut d = vec![vec![(u64::MAX, u64::MAX); n]; n];
    for (a, row) in d.iter_mut().enumerate() {
        row[a] = (0, 0);
        for (b, c) in g
            .adjacency(a as u64)
            .iter()
            .zip(g.adjacency_volumes(a as u64))
        {
            row[*b as usize] = row[*b as usize].min((c, 1));
        }
    }
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                let (x, y) = (d[a][k], d[k][b]);
                if x.0 != u64::MAX && y.0 != u64::MAX {
                    d[a][b] = d[a][b].min((x.0 + y.0, x.1 + y.1));
                }
            }
        }
    }
    d
}

fn cost_of(g: &Graph, a: u64, b: u64) -> u64 {
    let k = g
        .adjacency(a)
        .iter()
        .position(|&w| u64::from(w) == b)
        .unwrap();
    g.adjacency_volumes(a).nth(k).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn distances_and_routes_are_cheapest_paths(
        n in 2u64..24,
        path_costs in prop::collection::vec(0u64..10, 24),
        extra in prop::collection::vec((0u64..24, 0u64..24, 0u64..10), 0..40),
        // Costs times 40 pass 255: the mapper's table then takes two bytes
        // an entry, one otherwise.
        scale in prop_oneof![Just(1u64), Just(40)],
    ) {
        let path_costs: Vec<u64> = path_costs.iter().map(|c| c * scale).collect();
        let extra: Vec<(u64, u64, u64)> = extra.iter().map(|&(a, b, c)| (a, b, c * scale)).collect();
        let g = connected(n, &path_costs, &extra);
        let fw = floyd_warshall(&g);
        let table = HostDistance::new(&g).unwrap();
        let mut diameter = 0;
        for a in 0..n {
            for b in 0..n {
                let (cost, links) = fw[a as usize][b as usize];
                prop_assert_eq!(g.distance(a, b), cost, "{} -> {}", a, b);
                prop_assert_eq!(table.d(a, b), cost);
                diameter = diameter.max(cost);
                let mut path = Vec::new();
                g.route(a, b, TieRule::Increasing, &mut path);
                prop_assert_eq!(path.len() as u64, links, "{} -> {}: {:?}", a, b, path);
                let (mut here, mut paid) = (a, 0);
                for &next in &path {
                    paid += cost_of(&g, here, next);
                    here = next;
                }
                prop_assert_eq!(here, b);
                prop_assert_eq!(paid, cost);
            }
        }
        prop_assert_eq!(g.diameter(), diameter);
        prop_assert!(g.distance_bound() >= diameter);
    }
}

/// Two 4-core nodes (cores on a ring of cost-1 links, one cost-10 link
/// between nodes 0 and 4): mesh:2x4 placed by the mapper costs what the best
/// of all 8! placements costs (30: two 2x2 halves, one per node).
#[test]
fn mapper_finds_the_optimum_on_a_two_node_machine() {
    let mut edges = Vec::new();
    for base in [0, 4] {
        for k in 0..4 {
            edges.push((base + k, base + (k + 1) % 4));
        }
    }
    edges.push((0, 4));
    let host = Graph::from_edges(Spec::Graph("machine.txt".into()), 8, &edges)
        .unwrap()
        .with_volumes(|a, b| {
            if a.min(b) == 0 && a.max(b) == 4 {
                10
            } else {
                1
            }
        });
    let guest = topology::parse("mesh:2x4").unwrap();
    let g = WGraph::from_topology(guest.as_ref()).unwrap();
    let dist = HostDistance::new(&host).unwrap();
    let mut best = u128::MAX;
    let mut place: Vec<u64> = (0..8).collect();
    permutations(&mut place, 0, &mut |p| {
        best = best.min(mapper::hop_bytes(&g, &dist, p));
    });
    assert_eq!(best, 30);
    let placement = mapper::map(guest.as_ref(), &host, &MapOptions::default()).unwrap();
    assert_eq!(mapper::hop_bytes(&g, &dist, placement.hosts()), best);
    assert!(placement.notes().iter().any(|n| n.contains("link costs")));
}

fn permutations(p: &mut Vec<u64>, k: usize, visit: &mut impl FnMut(&[u64])) {
    if k == p.len() {
        visit(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, visit);
        p.swap(k, i);
    }
}

/// A disconnected host has no finite diameter, with or without costs.
#[test]
fn disconnected_diameter_is_unbounded() {
    let g = Graph::from_edges(Spec::Graph("two.txt".into()), 4, &[(0, 1), (2, 3)]).unwrap();
    assert_eq!(g.diameter(), u64::MAX);
    assert_eq!(g.with_volumes(|_, _| 3).diameter(), u64::MAX);
}
