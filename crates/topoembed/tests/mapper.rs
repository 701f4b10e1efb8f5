//! The general mapper: capacities hold, one-to-one when counts are equal,
//! the same seed gives the same placement on any number of threads, the
//! local search's gains equal the recomputed objective, small grids come
//! back optimal, and impossible loads are refused.

use proptest::prelude::*;
use topoembed::mapper::{self, refine, rng::Rng, HostDistance, MapOptions, WGraph};
use topoembed::metrics::{self, Options};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};

fn random_graph(nodes: u64, raw: &[(u64, u64, u64)], loads: &[u64]) -> Graph {
    let mut seen = std::collections::BTreeMap::new();
    for &(u, v, w) in raw {
        let (u, v) = (u % nodes, v % nodes);
        if u != v {
            seen.insert((u.min(v), u.max(v)), w);
        }
    }
    let edges: Vec<(u64, u64)> = seen.keys().copied().collect();
    Graph::from_edges(Spec::Graph("random.txt".into()), nodes, &edges)
        .unwrap()
        .with_volumes(|u, v| seen[&(u.min(v), u.max(v))])
        .with_loads(loads[..nodes as usize].to_vec())
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// No host node above ⌈(1 + ε) · total / P⌉, and the metrics agree.
    #[test]
    fn capacities_hold(
        nodes in 2u64..120,
        raw in prop::collection::vec((0u64..120, 0u64..120, 1u64..50), 1..300),
        loads in prop::collection::vec(1u64..4, 120),
        host in prop::sample::select(vec!["torus:4x4", "ring:6", "mesh:3x3", "cube:3", "tleaf:2x4:10,1"]),
        eps in prop::sample::select(vec![0.0, 0.03, 0.5]),
    ) {
        let guest = random_graph(nodes, &raw, &loads);
        let host = topology::parse(host).unwrap();
        let p = host.node_count();
        let options = MapOptions { imbalance: eps, ..MapOptions::default() };
        let placement = match mapper::map(&guest, host.as_ref(), &options) {
            Ok(x) => x,
            // Loads that do not pack: refused, and rightly (first-fit
            // decreasing, the mapper's last resort, fails here too).
            Err(e) => {
                let total: u64 = (0..nodes).map(|v| guest.load(v)).sum();
                let cap = ((1.0 + eps) * total as f64 / p as f64).ceil() as u64;
                let mut loads: Vec<u64> = (0..nodes).map(|v| guest.load(v)).collect();
                loads.sort_unstable_by(|a, b| b.cmp(a));
                let mut bins = vec![0u64; p as usize];
                let packs = loads.iter().all(|&l| match bins.iter_mut().find(|b| **b + l <= cap) {
                    Some(b) => { *b += l; true }
                    None => false,
                });
                prop_assert!(!packs, "{e}");
                return Ok(());
            }
        };
        let mut load = vec![0u64; p as usize];
        for v in 0..nodes {
            load[placement.hosts()[v as usize] as usize] += guest.load(v);
        }
        prop_assert!(load.iter().all(|&l| l <= placement.capacity()), "{load:?} cap {}", placement.capacity());
        let m = metrics::measure(&guest, host.as_ref(), &placement, &Options::default()).unwrap();
        let g = WGraph::from_topology(&guest).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        prop_assert_eq!(m.hop_bytes, mapper::hop_bytes(&g, &dist, placement.hosts()));
    }

    /// The local search's reported gain is the drop in the recomputed hop-bytes.
    #[test]
    fn gains_equal_recomputed_objective(
        nodes in 2u64..60,
        raw in prop::collection::vec((0u64..60, 0u64..60, 1u64..20), 1..150),
        start in prop::collection::vec(0u64..16, 60),
        seed in 0u64..1000,
    ) {
        let guest = random_graph(nodes, &raw, &[1; 60]);
        let host = topology::parse("torus:4x4").unwrap();
        let g = WGraph::from_topology(&guest).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut place: Vec<u64> = start[..nodes as usize].to_vec();
        let cap = nodes.div_ceil(16) + 1;
        let mut load = [0u64; 16];
        for &h in &place { load[h as usize] += 1; }
        // Start within the capacity.
        for v in 0..nodes as usize {
            if load[place[v] as usize] > cap {
                let free = (0..16).find(|&h| load[h] < cap).unwrap();
                load[place[v] as usize] -= 1;
                load[free] += 1;
                place[v] = free as u64;
            }
        }
        let loads = |place: &[u64]| {
            let mut l = [0u64; 16];
            for &h in place { l[h as usize] += 1; }
            l
        };
        let mut rng = Rng::new(seed, 0);
        // Whole-part swaps: the gain is exact and every node keeps a load
        // that some node had before (contents trade places).
        let before = mapper::hop_bytes(&g, &dist, &place);
        let mut sorted_before = loads(&place);
        let gained = refine::parts::swap(&g, &dist, &mut place, 4, &mut rng);
        prop_assert_eq!(before - gained, mapper::hop_bytes(&g, &dist, &place));
        let mut sorted_after = loads(&place);
        sorted_before.sort_unstable();
        sorted_after.sort_unstable();
        prop_assert_eq!(sorted_before, sorted_after);
        // The V-cycle, k-way FM, then the local search: exact gains,
        // capacity kept.
        let lo = mapper::floor(nodes, 16, 0.25);
        let bounds = refine::Capacity { lo, hi: cap };
        for phase in 0..3 {
            let start_loads = loads(&place);
            let before = mapper::hop_bytes(&g, &dist, &place);
            let gained = match phase {
                0 => refine::vcycle::refine(&g, &dist, &mut place, bounds, &mut rng),
                1 => refine::kway::refine(&g, &dist, &mut place, bounds, 4, &mut rng),
                _ => refine::local::improve(&g, &dist, &mut place, bounds, 6, &mut rng, None),
            };
            prop_assert_eq!(before - gained, mapper::hop_bytes(&g, &dist, &place));
            let after = loads(&place);
            // No node above the capacity, none drained below the floor
            // (or below where it started, if it started below).
            prop_assert!(after.iter().all(|&l| l <= cap));
            prop_assert!(after.iter().zip(&start_loads).all(|(&l, &s)| l >= lo.min(s)), "{after:?} from {start_loads:?}, floor {lo}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Annealing a one-to-one placement (some host nodes empty): the gain
    /// is the drop in the recomputed hop-bytes, never negative, and the
    /// placement stays one-to-one.
    #[test]
    fn annealing_keeps_one_to_one_and_reports_exact_gains(
        nodes in 3u64..=16,
        raw in prop::collection::vec((0u64..16, 0u64..16, 1u64..20), 1..60),
        seed in 0u64..1000,
    ) {
        let guest = random_graph(nodes, &raw, &[1; 60]);
        let host = topology::parse("torus:4x4").unwrap();
        let g = WGraph::from_topology(&guest).unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut rng = Rng::new(seed, 0);
        let mut place: Vec<u64> = rng.permutation(16)[..nodes as usize].iter().map(|&h| u64::from(h)).collect();
        let before = mapper::hop_bytes(&g, &dist, &place);
        let gained = refine::anneal::anneal(&g, &dist, &mut place, 16, &mut rng);
        prop_assert_eq!(before - gained, mapper::hop_bytes(&g, &dist, &place));
        let mut seen = [false; 16];
        for &h in &place {
            prop_assert!(h < 16 && !seen[h as usize]);
            seen[h as usize] = true;
        }
    }
}

/// Equal counts and unit loads: one guest node per host node.
#[test]
fn equal_counts_are_one_to_one() {
    for (guest, host) in [
        ("torus:8x8", "torus:8x8"),
        ("cube:6", "ring:64"),
        ("mesh:4x16", "tleaf:4x4x4:100,10,1"),
    ] {
        let (g, h) = (
            topology::parse(guest).unwrap(),
            topology::parse(host).unwrap(),
        );
        let p = mapper::map(g.as_ref(), h.as_ref(), &MapOptions::default()).unwrap();
        let mut seen = [false; 64];
        for &x in p.hosts() {
            assert!(!seen[x as usize], "{guest} -> {host}: host node {x} twice");
            seen[x as usize] = true;
        }
        assert_eq!(p.capacity(), 1);
    }
}

/// The same seed, the same placement, on one thread or two.
#[test]
fn seeds_reproduce_on_any_thread_count() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/example_weighted.graph");
    let guest = topology::build(&Spec::Graph(path)).unwrap();
    let host = topology::parse("torus:4x4").unwrap();
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let options = MapOptions {
                seed,
                ..MapOptions::default()
            };
            mapper::map(guest.as_ref(), host.as_ref(), &options)
                .unwrap()
                .hosts()
                .to_vec()
        })
    };
    assert_eq!(run(1, 5), run(2, 5));
    assert_eq!(run(2, 5), run(2, 5));
    assert_ne!(run(2, 5), run(2, 6), "another seed, another placement");
}

/// Small grids onto themselves come back optimal: Σ dilation = edge count.
#[test]
fn small_grids_come_back_optimal() {
    for (spec, edges) in [
        ("mesh:4x4", 24),
        ("mesh:8x8", 112),
        ("ring:16", 16),
        ("line:64", 63),
    ] {
        let t = topology::parse(spec).unwrap();
        let p = mapper::map(t.as_ref(), t.as_ref(), &MapOptions::default()).unwrap();
        let g = WGraph::from_topology(t.as_ref()).unwrap();
        let dist = HostDistance::new(t.as_ref()).unwrap();
        assert_eq!(mapper::hop_bytes(&g, &dist, p.hosts()), edges, "{spec}");
    }
}

#[test]
fn impossible_loads_and_bad_options_are_refused() {
    let guest = random_graph(4, &[(0, 1, 1), (1, 2, 1), (2, 3, 1)], &[1, 1, 1, 40]);
    let host = topology::parse("ring:4").unwrap();
    let e = mapper::map(&guest, host.as_ref(), &MapOptions::default()).unwrap_err();
    assert!(e.to_string().contains("guest node 3 has load 40"), "{e}");
    let bad = MapOptions {
        imbalance: -1.0,
        ..MapOptions::default()
    };
    let e = mapper::map(&guest, host.as_ref(), &bad).unwrap_err();
    assert!(e.to_string().contains("imbalance -1"), "{e}");
}
