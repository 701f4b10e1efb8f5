//! Routing and traffic metrics against brute force: every route is checked
//! hop by hop against the explicit graph, and the congestion / node loads of
//! the prefix-sum shortcut are checked against a plain hop-walking count.

use crate::common;

use common::Table;

use std::collections::HashMap;

use proptest::prelude::*;
use topoembed::embed::{self, Embedding};
use topoembed::metrics::{self, Options};
use topoembed::routing::{HostRoute, Route, TieRule};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};
use topoembed::traffic::{self, Traffic};

const TIES: [TieRule; 2] = [TieRule::Increasing, TieRule::Decreasing];

/// A deterministic pseudo-random permutation of 0..n (xorshift, Fisher-Yates).
fn shuffled(n: u64, mut seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..n).collect();
    for i in (1..v.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    v
}

/// Loads counted the slow, obvious way: walk every route, count each link
/// (as an unordered node pair) and each inner node.
struct Counted {
    links: HashMap<(u64, u64), u64>,
    inner: Vec<u64>,
    ends: Vec<u64>,
}

fn count_by_walking(
    guest: &Spec,
    host: &dyn Topology,
    emb: &dyn Embedding,
    route: &dyn Route,
) -> Counted {
    let (_, guest_edges) = common::explicit_edges(guest);
    let (_, host_edges) = common::explicit_edges(host.spec());
    let n = host.node_count() as usize;
    let mut c = Counted {
        links: host_edges
            .iter()
            .map(|&(u, v)| ((u.min(v), u.max(v)), 0))
            .collect(),
        inner: vec![0; n],
        ends: vec![0; n],
    };
    for (u, v) in guest_edges {
        let (u, v) = (u.min(v), u.max(v));
        let (a, b) = (emb.map(u), emb.map(v));
        if a == b {
            continue;
        }
        let mut path = Vec::new();
        route.path(a, b, &mut path);
        let mut here = a;
        for (k, &next) in path.iter().enumerate() {
            *c.links
                .get_mut(&(here.min(next), here.max(next)))
                .expect("a host link") += 1;
            if k + 1 < path.len() {
                c.inner[next as usize] += 1;
            }
            here = next;
        }
        c.ends[a as usize] += 1;
        c.ends[b as usize] += 1;
    }
    c
}

/// Asserts that `t` agrees with the hop-walking count.
fn assert_matches(t: &Traffic, c: &Counted, what: &str) {
    let loads: Vec<u64> = c.links.values().copied().collect();
    assert_eq!(
        t.congestion.max,
        loads.iter().copied().max().unwrap_or(0),
        "{what}: congestion"
    );
    let mut histogram = std::collections::BTreeMap::new();
    for &l in &loads {
        *histogram.entry(l).or_insert(0u64) += 1;
    }
    assert_eq!(
        t.congestion.histogram, histogram,
        "{what}: link-load histogram"
    );
    let sum: u64 = loads.iter().sum();
    assert!(
        (t.congestion.average - sum as f64 / loads.len() as f64).abs() < 1e-9,
        "{what}"
    );
    let traffic: Vec<u64> = c.inner.iter().zip(&c.ends).map(|(i, e)| i + e).collect();
    for (stats, counts, name) in [
        (&t.node_load, &c.inner, "node load"),
        (&t.node_traffic, &traffic, "node traffic"),
    ] {
        assert_eq!(
            stats.max,
            *counts.iter().max().unwrap(),
            "{what}: {name} max"
        );
        assert_eq!(
            stats.min,
            *counts.iter().min().unwrap(),
            "{what}: {name} min"
        );
        let avg = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
        assert!((stats.average - avg).abs() < 1e-9, "{what}: {name} average");
    }
}

fn small_hosts() -> Vec<&'static str> {
    vec![
        "ring:2",
        "ring:3",
        "ring:5",
        "ring:6",
        "ring:8",
        "line:2",
        "line:5",
        "torus:4x6",
        "torus:2x3",
        "torus:3x3x2",
        "torus:2x2x2",
        "mesh:3x4",
        "mesh:2x3x2",
        "grid:4wx3",
        "grid:3x4w",
        "grid:2x3wx4",
        "cube:4",
        "bintree:8",
    ]
}

/// Every route of every built-in model is a shortest path of host links
/// that visits no node twice; grid routes finish axis 1 before axis 2 and so
/// on; cube routes flip bits lowest first; ring ties go the way asked.
#[test]
fn routes_are_shortest_simple_paths_in_model_order() {
    for spec in small_hosts() {
        let spec: Spec = spec.parse().unwrap();
        let host = topology::build(&spec).unwrap();
        let dist = common::all_pairs(&spec);
        let (n, edges) = common::explicit_edges(&spec);
        let adj = common::adjacency(n, &edges);
        for ties in TIES {
            for a in 0..n {
                for b in 0..n {
                    let mut path = Vec::new();
                    host.route(a, b, ties, &mut path);
                    let what = format!("{spec} {ties} route {a}->{b}: {path:?}");
                    assert_eq!(path.len() as u32, dist[a as usize][b as usize], "{what}");
                    assert_eq!(path.last().copied().unwrap_or(a), b, "{what}");
                    let mut seen = vec![a];
                    let mut here = a;
                    for &next in &path {
                        assert!(adj[here as usize].contains(&(next as u32)), "{what}");
                        assert!(!seen.contains(&next), "{what}");
                        seen.push(next);
                        here = next;
                    }
                    check_model_order(host.as_ref(), ties, a, b, &path, &what);
                }
            }
        }
    }
}

fn check_model_order(host: &dyn Topology, ties: TieRule, a: u64, b: u64, path: &[u64], what: &str) {
    let mut here = a;
    let mut last_class = 0;
    for &next in path {
        let (ch, cn) = (host.coords(here), host.coords(next));
        let class = (0..ch.len()).find(|&k| ch[k] != cn[k]).unwrap();
        match host.spec() {
            Spec::Cube(_) => assert!(class >= last_class, "{what}: e-cube order"),
            Spec::Ring(_) | Spec::Torus(_) | Spec::Mesh(_) | Spec::Line(_) | Spec::Grid(..) => {
                assert!(class >= last_class, "{what}: dimension order");
                let side = host.spec().grid().unwrap().0[class];
                let forward = cn[class] == (ch[class] + 1) % side;
                let (x, y) = (host.coords(a)[class], host.coords(b)[class]);
                let ahead = (y + side - x) % side;
                let wraps = host.spec().grid().unwrap().1[class] && side > 2;
                if wraps && 2 * ahead == side {
                    assert_eq!(forward, ties == TieRule::Increasing, "{what}: tie rule");
                }
            }
            _ => {}
        }
        last_class = class;
        here = next;
    }
}

/// The prefix-sum shortcut (grids) and the hop walker (other hosts) agree
/// with the brute-force count for the built-in methods, for random
/// permutations and for many-to-one maps.
#[test]
fn traffic_matches_hop_walking_count() {
    let cases: Vec<(&str, &str)> = vec![
        ("cube:4", "ring:16"),
        ("cube:5", "ring:32"),
        ("cube:6", "torus:8x8"),
        ("cube:6", "torus:4x16"),
        ("cube:6", "mesh:8x8"),
        ("cube:5", "torus:2x4x4"),
        ("cube:3", "torus:2x2x2"),
        ("cube:5", "line:32"),
        ("ring:12", "torus:3x4"),
        ("torus:4x6", "ring:24"),
        ("mesh:3x5", "torus:5x3"),
        ("bintree:8", "ring:15"),
        ("cube:4", "cube:4"),
        ("torus:4x4", "cube:4"),
        ("ring:15", "bintree:8"),
    ];
    for (g, h) in cases {
        let guest = topology::parse(g).unwrap();
        let host = topology::parse(h).unwrap();
        let (gn, hn) = (guest.node_count(), host.node_count());
        let mut maps: Vec<Box<dyn Embedding>> = embed::applicable(guest.as_ref(), host.as_ref())
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        for seed in 1..4 {
            let perm = shuffled(hn, seed * 7919);
            maps.push(Box::new(Table(
                (0..gn).map(|x| perm[(x % hn) as usize]).collect(),
            )));
        }
        // Many-to-one: everything on the first few host nodes.
        maps.push(Box::new(Table((0..gn).map(|x| x % 3).collect())));
        for emb in &maps {
            for ties in TIES {
                let route = HostRoute::new(host.as_ref(), ties);
                let t = traffic::measure(guest.as_ref(), host.as_ref(), emb.as_ref(), &route, None)
                    .unwrap();
                let c = count_by_walking(guest.spec(), host.as_ref(), emb.as_ref(), &route);
                assert_matches(&t, &c, &format!("{g} -> {h} {} ties {ties}", emb.method()));
            }
        }
    }
}

/// The stored-graph host routes like any other, through the same code.
#[test]
fn stored_graph_host_gives_same_loads_as_tree_host() {
    let guest = topology::parse("ring:15").unwrap();
    let tree = topology::parse("bintree:8").unwrap();
    let graph = Graph::from_topology(tree.as_ref()).unwrap();
    let emb = Table(shuffled(15, 42));
    let a = traffic::measure(
        guest.as_ref(),
        tree.as_ref(),
        &emb,
        &HostRoute::new(tree.as_ref(), TieRule::Increasing),
        None,
    )
    .unwrap();
    let b = traffic::measure(
        guest.as_ref(),
        &graph,
        &emb,
        &HostRoute::new(&graph, TieRule::Increasing),
        None,
    )
    .unwrap();
    assert_eq!(a.congestion, b.congestion);
    assert_eq!(a.node_load, b.node_load);
    assert_eq!(a.node_traffic, b.node_traffic);
}

/// A user route that goes the long way round a ring is walked hop by hop;
/// one that jumps between non-neighbours is an error, not a wrong number.
#[test]
fn custom_routes_are_walked_and_checked() {
    struct LongWay(u64);
    impl Route for LongWay {
        fn describe(&self) -> String {
            "long way".into()
        }
        fn path(&self, a: u64, b: u64, path: &mut Vec<u64>) {
            let n = self.0;
            let ahead = (b + n - a) % n;
            let step = if 2 * ahead > n { 1 } else { n - 1 };
            let mut x = a;
            while x != b {
                x = (x + step) % n;
                path.push(x);
            }
        }
    }
    struct Jump;
    impl Route for Jump {
        fn describe(&self) -> String {
            "jump".into()
        }
        fn path(&self, _: u64, b: u64, path: &mut Vec<u64>) {
            path.push(b);
        }
    }
    let guest = topology::parse("cube:4").unwrap();
    let host = topology::parse("ring:16").unwrap();
    let std = embed::build("standard", guest.as_ref(), host.as_ref()).unwrap();
    let t = traffic::measure(
        guest.as_ref(),
        host.as_ref(),
        std.as_ref(),
        &LongWay(16),
        None,
    )
    .unwrap();
    let c = count_by_walking(guest.spec(), host.as_ref(), std.as_ref(), &LongWay(16));
    assert_matches(&t, &c, "long way");
    assert_eq!(t.routing, "long way");
    let err =
        traffic::measure(guest.as_ref(), host.as_ref(), std.as_ref(), &Jump, None).unwrap_err();
    assert!(err.to_string().contains("not neighbours"), "{err}");
}

/// Journal §4.5: with the standard embedding on a ring, nodes 0 and 2^d - 1
/// carry no load (ties toward increasing coordinate).
#[test]
fn standard_on_ring_leaves_the_ends_idle() {
    for d in 2..=10u32 {
        let guest = topology::parse(&format!("cube:{d}")).unwrap();
        let host = topology::parse(&format!("ring:{}", 1u64 << d)).unwrap();
        let std = embed::build("standard", guest.as_ref(), host.as_ref()).unwrap();
        let route = HostRoute::new(host.as_ref(), TieRule::Increasing);
        let c = count_by_walking(guest.spec(), host.as_ref(), std.as_ref(), &route);
        assert_eq!(c.inner[0], 0);
        assert_eq!(c.inner[(1 << d) - 1], 0);
        let t =
            traffic::measure(guest.as_ref(), host.as_ref(), std.as_ref(), &route, None).unwrap();
        assert_eq!(t.node_load.min, 0);
    }
}

/// Random grids of 1 to 3 axes, each axis wrapping or not (tori, meshes and
/// mixed grids, written in the `grid:` form).
fn grid_spec() -> impl Strategy<Value = String> {
    prop::collection::vec((2u64..7, any::<bool>()), 1..=3).prop_map(|axes| {
        let sides: Vec<String> = axes
            .iter()
            .map(|&(side, wraps)| format!("{side}{}", if wraps { "w" } else { "" }))
            .collect();
        format!("grid:{}", sides.join("x"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random grid guests and hosts of the same size, random permutations:
    /// the shortcut equals the hop-walking count.
    #[test]
    fn shortcut_matches_walking_on_random_grids(guest in grid_spec(), host in grid_spec(), seed in 1u64.., decreasing in any::<bool>()) {
        let g = topology::parse(&guest).unwrap();
        let h = topology::parse(&host).unwrap();
        let emb = Table((0..g.node_count()).map(|x| shuffled(h.node_count(), seed)[(x % h.node_count()) as usize]).collect());
        let ties = if decreasing { TieRule::Decreasing } else { TieRule::Increasing };
        let route = HostRoute::new(h.as_ref(), ties);
        let t = traffic::measure(g.as_ref(), h.as_ref(), &emb, &route, None).unwrap();
        let c = count_by_walking(g.spec(), h.as_ref(), &emb, &route);
        assert_matches(&t, &c, &format!("{guest} -> {host}"));
    }
}

/// Fat edges (Ho & Johnsson §5): the fractional link loads add up to the
/// total path length (Σ d with the d shortest paths; Σ (d·d + (n−d)(d+2))/n
/// with all n), equal e-cube congestion for dilation-1 maps with shortest
/// paths only, and match a brute-force sum over the paths themselves.
#[test]
fn fat_edge_link_loads() {
    use topoembed::traffic::fat::{paths, FatPaths};
    for (mesh, n, method) in [
        ("mesh:12x10", 4u32, "reshape"),
        ("mesh:9x7", 4, "reshape"),
        ("mesh:40x24", 5, "split"),
    ] {
        let g = topology::parse(mesh).unwrap();
        let h = topology::parse(&format!("cube:{n}")).unwrap();
        let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
        for which in [FatPaths::Shortest, FatPaths::All] {
            let options = Options {
                fat_edges: Some(which),
                ..Options::default()
            };
            let m = metrics::measure(g.as_ref(), h.as_ref(), e.as_ref(), &options).unwrap();
            let fat = m.fat_congestion.clone().unwrap();
            let mut load = std::collections::HashMap::<(u64, u64), f64>::new();
            let mut total = 0.0;
            g.for_each_edge(0..g.node_count(), &mut |u, v, _| {
                let (a, b) = (e.map(u), e.map(v));
                if a == b {
                    return;
                }
                let all = paths(a, b, n, which);
                for path in &all {
                    let mut at = a;
                    for &dim in path {
                        let next = at ^ 1 << dim;
                        *load.entry((at.min(next), at.max(next))).or_default() +=
                            1.0 / all.len() as f64;
                        at = next;
                    }
                }
                let d = f64::from((a ^ b).count_ones());
                total += match which {
                    FatPaths::Shortest => d,
                    FatPaths::All => (d * d + (f64::from(n) - d) * (d + 2.0)) / f64::from(n),
                };
            });
            let max = load.values().copied().fold(0.0, f64::max);
            let links = f64::from(n) * f64::from(1u32 << (n - 1));
            assert!(
                (fat.max - max).abs() < 1e-9,
                "{mesh} {which:?}: {} vs {max}",
                fat.max
            );
            assert!(
                (fat.average * links - total).abs() < 1e-6,
                "{mesh} {which:?}"
            );
            if m.dilation.max == 1 && which == FatPaths::Shortest {
                assert_eq!(fat.max, m.congestion.unwrap().max as f64);
            }
        }
    }
}

/// The node-load profile: its max / min / mean are the traffic metrics', and
/// the journal's figure 7 (standard 4-cube on a ring of 16, load due to the
/// dilation-4 links of dimension 2) is a triangle of period 8.
#[test]
fn node_load_profile_matches_the_metrics_and_figure_7() {
    for (g, h, method) in [
        ("cube:4", "ring:16", "standard"),
        ("cube:4", "ring:16", "xor"),
        ("cube:6", "torus:8x8", "xor"),
        ("cube:5", "line:32", "byweight"),
        ("torus:4x4", "cube:4", "gray"),
        ("mesh:6x5", "cube:3", "reshape"),
    ] {
        let guest = topology::parse(g).unwrap();
        let host = topology::parse(h).unwrap();
        let emb = embed::build(method, guest.as_ref(), host.as_ref()).unwrap();
        let route = HostRoute::new(host.as_ref(), TieRule::Increasing);
        let profile =
            traffic::node_load_profile(guest.as_ref(), host.as_ref(), emb.as_ref(), &route)
                .unwrap();
        assert_eq!(profile.len(), guest.edge_classes() as usize);
        let total: Vec<u64> = (0..host.node_count() as usize)
            .map(|n| profile.iter().map(|c| c[n]).sum())
            .collect();
        let t =
            traffic::measure(guest.as_ref(), host.as_ref(), emb.as_ref(), &route, None).unwrap();
        let what = format!("{g} {h} {method}");
        assert_eq!(total.iter().max().copied(), Some(t.node_load.max), "{what}");
        assert_eq!(total.iter().min().copied(), Some(t.node_load.min), "{what}");
        let mean = total.iter().sum::<u64>() as f64 / total.len() as f64;
        assert!((mean - t.node_load.average).abs() < 1e-9, "{what}");
    }
    let guest = topology::parse("cube:4").unwrap();
    let host = topology::parse("ring:16").unwrap();
    let std = embed::build("standard", guest.as_ref(), host.as_ref()).unwrap();
    let route = HostRoute::new(host.as_ref(), TieRule::Increasing);
    let profile =
        traffic::node_load_profile(guest.as_ref(), host.as_ref(), std.as_ref(), &route).unwrap();
    let triangle = [0, 1, 2, 3, 3, 2, 1, 0];
    let expected: Vec<u64> = triangle.iter().chain(&triangle).copied().collect();
    assert_eq!(profile[2], expected);
}
