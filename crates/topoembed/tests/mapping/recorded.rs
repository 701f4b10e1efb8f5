//! A recording's summary in the placement (`map --summary`,
//! `topoembed::recorded`): the predicted cost against brute force (BFS on
//! the explicit host, routed loads as `metrics` counts them), and the
//! choice among candidates never predicted slower than any of them.

use std::path::Path;

use proptest::prelude::*;
use topoembed::embed::Embedding;
use topoembed::io::Mapping;
use topoembed::mapper::{HostDistance, MapOptions};
use topoembed::metrics::{self, Options};
use topoembed::recorded::{self, predict, smpi::Stage, Summary};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph};
use topoembed::Error;

/// A summary of `n` ranks: `allreduces` calls of 8 bytes on the world,
/// one barrier, and each listed pair's messages.
fn summary(n: u64, allreduces: u64, pairs: &[[u64; 3]]) -> Summary {
    let text = serde_json::json!({
        "ranks": n,
        "collectives": [{
            "communicator": {"name": "MPI_COMM_WORLD", "first_world_rank": 0, "size": n},
            "operations": [
                {"operation": "MPI_Allreduce", "calls": allreduces, "bytes": allreduces * 8 * n},
                {"operation": "MPI_Barrier", "calls": 1, "bytes": 0},
            ],
        }],
        "pair_messages": pairs,
    });
    recorded::parse_summary(Path::new("s.json"), &text.to_string()).unwrap()
}

/// A random graph on `n` nodes from `edges` (ends folded into range,
/// loops and repeats dropped), volumes as given.
fn graph(n: u64, edges: &[(u64, u64, u64)]) -> Graph {
    let mut seen = std::collections::BTreeMap::new();
    for &(a, b, w) in edges {
        let (u, v) = (a % n, b % n);
        if u != v {
            seen.entry((u.min(v), u.max(v))).or_insert(w);
        }
    }
    let (pairs, volumes): (Vec<(u64, u64)>, Vec<u64>) = seen.into_iter().unzip();
    Graph::from_weighted_edges(Spec::Graph("g.txt".into()), n, &pairs, Some(&volumes)).unwrap()
}

fn permutation(n: u64, seed: u64) -> Vec<u64> {
    let mut p: Vec<u64> = (0..n).collect();
    let mut x = seed | 1;
    for i in (1..p.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p.swap(i, (x % (i as u64 + 1)) as usize);
    }
    p
}

/// The binomial tree's longest root-to-rank path, walked up from every
/// rank with BFS distances on the explicit host.
fn longest_path_by_bfs(host: &Graph, place: &[u64]) -> u64 {
    let n = place.len() as u64;
    (0..n)
        .map(|mut v| {
            let mut hops = 0;
            while v != 0 {
                let parent = v - (v & v.wrapping_neg());
                hops += u64::from(host.bfs(place[parent as usize])[place[v as usize] as usize]);
                v = parent;
            }
            hops
        })
        .max()
        .unwrap()
}

#[test]
fn critical_paths_on_a_line_in_rank_order() {
    let host = topology::parse("line:8").unwrap();
    let dist = HostDistance::new(host.as_ref()).unwrap();
    let place: Vec<u64> = (0..8).collect();
    // 0 -> 4 -> 6 -> 7: 4 + 2 + 1 hops; rank 7 is 7 hops from the root.
    assert_eq!(predict::critical_hops(Stage::Binomial, 8, &dist, &place), 7);
    assert_eq!(predict::critical_hops(Stage::ToRoot, 8, &dist, &place), 7);
    // Reversed: the root at the far end, the tree's paths the same lengths.
    let reversed: Vec<u64> = (0..8).rev().collect();
    assert_eq!(
        predict::critical_hops(Stage::Binomial, 8, &dist, &reversed),
        7
    );
    // The root in the middle halves the star.
    let middle = vec![3, 0, 1, 2, 4, 5, 6, 7];
    assert_eq!(predict::critical_hops(Stage::ToRoot, 8, &dist, &middle), 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_predicted_cost_is_brute_forces(
        spec in prop::sample::select(vec!["torus:4x4", "mesh:3x5", "ring:12", "torus:2x3x2", "cube:4"]),
        seed in any::<u64>(),
        edges in prop::collection::vec((0u64..64, 0u64..64, 1u64..5000), 1..40),
        counts in prop::collection::vec(1u64..30, 40),
        calls in 0u64..20,
    ) {
        let host = topology::parse(spec).unwrap();
        let n = host.node_count();
        let pairs = graph(n, &edges);
        let explicit = Graph::from_topology(host.as_ref()).unwrap();
        let place = permutation(n, seed);
        let mut messages = Vec::new();
        for u in 0..n {
            for &v in pairs.adjacency(u) {
                if u < u64::from(v) {
                    messages.push([u, u64::from(v), counts[messages.len() % counts.len()]]);
                }
            }
        }
        let s = summary(n, calls, &messages);
        let latency = 1000;
        let cost = predict::placement_cost(&pairs, &s, host.as_ref(), &place, latency).unwrap();
        // Bandwidth: the congestion `metrics` routes.
        let m = metrics::measure(&pairs, host.as_ref(), &Mapping::new(place.clone()), &Options::default()).unwrap();
        prop_assert_eq!(cost.bandwidth, m.congestion.unwrap().max);
        // Point-to-point latency: the longest wait of a pair, by BFS.
        let d = |a: u64, b: u64| u64::from(explicit.bfs(place[a as usize])[place[b as usize] as usize]);
        let wait = messages.iter().map(|&[u, v, k]| k.div_ceil(2) * d(u, v)).max().unwrap_or(0);
        prop_assert_eq!(cost.point_to_point_latency, wait * latency);
        // Collectives: allreduce = star to rank 0 then the tree; barrier =
        // star in, star out.
        let star = (1..n).map(|v| d(0, v)).max().unwrap();
        let tree = longest_path_by_bfs(&explicit, &place);
        prop_assert_eq!(cost.collectives, calls * (star + tree) * (8 + latency) + 2 * star * latency);
        prop_assert_eq!(cost.total(), cost.bandwidth + cost.point_to_point_latency + cost.collectives);
    }

    #[test]
    fn the_kept_placement_is_never_predicted_slower_than_a_candidate_or_the_launch_order(
        spec in prop::sample::select(vec!["torus:4x4", "mesh:4x4", "torus:2x2x4", "ring:16"]),
        edges in prop::collection::vec((0u64..16, 0u64..16, 1u64..100_000), 8..40),
        calls in 0u64..40,
        latency in prop::sample::select(vec![1000u64, 10_000, 30_000]),
    ) {
        let host = topology::parse(spec).unwrap();
        let pairs = graph(16, &edges);
        let messages: Vec<[u64; 3]> = (0..16u64)
            .flat_map(|u| pairs.adjacency(u).iter().map(move |&v| (u, u64::from(v))))
            .filter(|&(u, v)| u < v)
            .map(|(u, v)| [u, v, 10])
            .collect();
        let s = summary(16, calls, &messages);
        let chosen = recorded::map_recorded(&pairs, &s, host.as_ref(), &MapOptions::default(), latency).unwrap();
        prop_assert_eq!(chosen.candidates.len(), 4);
        let kept = chosen.candidates[chosen.kept].cost.total();
        for c in &chosen.candidates {
            prop_assert!(kept <= c.cost.total(), "{} beats the kept one", c.name);
        }
        // The kept placement is what its cost says, one rank a node.
        let hosts = chosen.placement.hosts();
        let again = predict::placement_cost(&pairs, &s, host.as_ref(), hosts, latency).unwrap();
        prop_assert_eq!(again.total(), kept);
        let mut sorted = hosts.to_vec();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..16).collect::<Vec<u64>>());
        let identity: Vec<u64> = (0..16).collect();
        let launch = predict::placement_cost(&pairs, &s, host.as_ref(), &identity, latency).unwrap();
        prop_assert!(kept <= launch.total());
        prop_assert_eq!(chosen.placement.map(3), hosts[3]);
    }
}

/// A ring's exchange under 40 small all-reduces on a 4x4 torus: the
/// pairs' own best placement puts the tree's partners far apart, and the
/// prediction keeps a placement that is cheaper for the whole run.
#[test]
fn heavy_collectives_move_the_placement_off_the_pairs_optimum() {
    let n = 16u64;
    let order = permutation(n, 7);
    // A ring in scrambled rank order: ranks order[i] and order[i + 1].
    let edges: Vec<(u64, u64, u64)> = (0..n)
        .map(|i| (order[i as usize], order[((i + 1) % n) as usize], 4096))
        .collect();
    let pairs = graph(n, &edges);
    let messages: Vec<[u64; 3]> = edges
        .iter()
        .map(|&(u, v, _)| [u.min(v), u.max(v), 20])
        .collect();
    let s = summary(n, 40, &messages);
    let host = topology::parse("torus:4x4").unwrap();
    let chosen =
        recorded::map_recorded(&pairs, &s, host.as_ref(), &MapOptions::default(), 10_000).unwrap();
    let bytes_only = &chosen.candidates[0];
    assert_eq!(bytes_only.name, "the mapper on the pairs' bytes");
    assert!(chosen.kept != 0, "{:#?}", chosen.candidates);
    assert!(chosen.candidates[chosen.kept].cost.total() < bytes_only.cost.total());
    assert!(chosen.candidates[chosen.kept].cost.collectives < bytes_only.cost.collectives);
}

#[test]
fn a_summary_of_another_run_or_a_short_placement_is_refused() {
    let host = topology::parse("ring:4").unwrap();
    let pairs = graph(4, &[(0, 1, 5), (1, 2, 5)]);
    let six = summary(6, 1, &[]);
    let e = predict::placement_cost(&pairs, &six, host.as_ref(), &[0, 1, 2, 3], 10).unwrap_err();
    assert!(matches!(e, Error::Mismatch(_)), "{e}");
    let four = summary(4, 1, &[]);
    let e = predict::placement_cost(&pairs, &four, host.as_ref(), &[0, 1, 2], 10).unwrap_err();
    assert!(matches!(e, Error::Mismatch(_)), "{e}");
    let e = recorded::map_recorded(&pairs, &six, host.as_ref(), &MapOptions::default(), 10)
        .unwrap_err();
    assert!(matches!(e, Error::Mismatch(_)), "{e}");
}
