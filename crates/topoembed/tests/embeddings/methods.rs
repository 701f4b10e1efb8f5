//! Every method on every size up to 2^12 nodes: a bijection, and its streamed
//! metrics equal to the ones computed edge by edge from BFS distances on the
//! explicit graphs. Larger random sizes with proptest.

use crate::common;

use proptest::prelude::*;
use topoembed::embed::{self, Embedding};
use topoembed::metrics::{self, Metrics};
use topoembed::spec::Spec;
use topoembed::topology;

/// Checks one (guest, host, method) against the oracle; `host_dist` is the
/// host's all-pairs BFS distance matrix.
fn check(guest: &Spec, host: &Spec, host_dist: &[Vec<u32>], name: &str, emb: &dyn Embedding) {
    let g = topology::build(guest).unwrap();
    let h = topology::build(host).unwrap();
    let what = format!("{name}: {guest} -> {host}");
    // Bijection: every host node holds exactly one guest node; inverse agrees.
    let mut seen = vec![false; h.node_count() as usize];
    for n in 0..g.node_count() {
        let p = emb.map(n);
        assert!(!seen[p as usize], "{what}: host node {p} used twice");
        seen[p as usize] = true;
        assert_eq!(emb.inverse(p), Some(n), "{what}: inverse of {p}");
    }
    let m: Metrics = metrics::measure(g.as_ref(), h.as_ref(), emb, &Default::default()).unwrap();
    let o = common::oracle(guest, host_dist, emb);
    assert_eq!(m.load_factor, o.load_factor, "{what}: load factor");
    assert_eq!(m.dilation.spectrum, o.spectrum, "{what}: spectrum");
    assert_eq!(m.dilation.max, o.max, "{what}: max dilation");
    assert_eq!(m.dilation.total, o.total, "{what}: total dilation");
    assert_eq!(
        m.guest_edges,
        o.spectrum.values().sum::<u64>(),
        "{what}: edge count"
    );
    if let Spec::Cube(d) = guest {
        let per: Vec<(u64, u64)> = m
            .per_dimension
            .as_ref()
            .unwrap()
            .iter()
            .map(|x| (x.min, x.max))
            .collect();
        assert_eq!(per, o.per_dimension, "{what}: per-dimension dilation");
        let constant = o.per_dimension.iter().all(|(a, b)| a == b);
        assert_eq!(m.constant_distance, Some(constant), "{what}: constant flag");
        if constant {
            let d_i: Vec<u64> = o.per_dimension.iter().map(|x| x.0).collect();
            let da = d_i.iter().sum::<u64>() as f64 / f64::from(*d);
            assert_eq!(m.distances.as_ref(), Some(&d_i), "{what}: D_i");
            assert!(
                (m.average_distance.unwrap() - da).abs() < 1e-12,
                "{what}: D_a"
            );
        } else {
            assert_eq!(m.distances, None, "{what}");
        }
    }
}

/// All methods that apply, checked against the oracle; returns how many applied.
fn check_all(guest: &Spec, host: &Spec, host_dist: &[Vec<u32>]) -> Vec<&'static str> {
    let g = topology::build(guest).unwrap();
    let h = topology::build(host).unwrap();
    let list = embed::applicable(g.as_ref(), h.as_ref());
    for (m, e) in &list {
        check(guest, host, host_dist, m.name, e.as_ref());
    }
    list.iter().map(|(m, _)| m.name).collect()
}

/// Axis splits tested for 2^bits nodes: all up to 6 bits, up to three axes to
/// 9 bits, up to two axes to 12 bits.
fn grids(bits: u32) -> Vec<Spec> {
    let axes = match bits {
        0..=6 => bits,
        7..=9 => 3,
        _ => 2,
    };
    common::pow2_grids(bits, axes)
}

#[test]
fn cube_guests_on_every_grid_up_to_2_to_the_12() {
    for d in 1..=12u32 {
        for host in grids(d) {
            let dist = common::all_pairs(&host);
            let applied = check_all(&Spec::Cube(d), &host, &dist);
            assert!(
                applied.contains(&"standard") && applied.contains(&"gray"),
                "{host}"
            );
            let wraps = matches!(host, Spec::Ring(_) | Spec::Torus(_));
            assert_eq!(applied.contains(&"xor"), wraps && d != 1, "{host}");
            let one_axis = matches!(host, Spec::Ring(_) | Spec::Line(_));
            assert_eq!(applied.contains(&"byweight"), one_axis, "{host}");
        }
    }
}

#[test]
fn grid_guests_in_cubes_up_to_2_to_the_12() {
    for d in 1..=12u32 {
        let cube = Spec::Cube(d);
        let dist = common::all_pairs(&cube);
        for guest in grids(d) {
            let applied = check_all(&guest, &cube, &dist);
            // split and reshape (many-to-one) also take meshes and lines of
            // 2^d elements, and are then bijections too (checked like the rest).
            if matches!(guest, Spec::Mesh(_) | Spec::Line(_)) {
                assert_eq!(
                    applied,
                    [
                        "gray",
                        "identity",
                        "split",
                        "reshape",
                        "combine",
                        "recursive",
                        "auto"
                    ],
                    "{guest}"
                );
            } else {
                assert_eq!(applied, ["gray", "identity"], "{guest}");
            }
            // BRGC per axis keeps every grid neighbour a cube neighbour.
            let g = topology::build(&guest).unwrap();
            let h = topology::build(&cube).unwrap();
            let gray = embed::build("gray", g.as_ref(), h.as_ref()).unwrap();
            let m = metrics::measure(g.as_ref(), h.as_ref(), gray.as_ref(), &Default::default())
                .unwrap();
            assert_eq!(m.dilation.max, 1, "gray {guest} -> {cube}");
        }
    }
}

#[test]
fn identity_on_sizes_that_are_not_powers_of_two() {
    for (guest, host, methods) in [
        ("mesh:3x5", "ring:15", &["identity", "snake", "axes"][..]),
        ("torus:3x5", "mesh:5x3", &["identity", "snake", "axes"]),
        ("torus:3x4x5", "line:60", &["identity", "snake", "axes"]),
        ("bintree:8", "ring:15", &["identity"]),
        ("bintree:16", "line:31", &["identity"]),
        ("ring:31", "bintree:16", &["identity"]),
        ("mesh:7x9", "torus:9x7", &["identity", "snake", "axes"]),
        (
            "torus:7x9",
            "mesh:7x9",
            &["identity", "snake", "fold", "axes"],
        ),
    ] {
        let (g, h): (Spec, Spec) = (guest.parse().unwrap(), host.parse().unwrap());
        let applied = check_all(&g, &h, &common::all_pairs(&h));
        assert_eq!(applied, methods, "{guest} -> {host}");
    }
}

/// Grid specs with `n` nodes: every ordered factoring into up to three
/// sides >= 2, each axis wrapping or not.
fn grids_of_size(n: u64) -> Vec<Spec> {
    fn factorings(n: u64, axes: usize) -> Vec<Vec<u64>> {
        if axes == 1 {
            return vec![vec![n]];
        }
        let mut out = Vec::new();
        for f in 2..=n / 2 {
            if n % f == 0 {
                for mut rest in factorings(n / f, axes - 1) {
                    rest.insert(0, f);
                    out.push(rest);
                }
            }
        }
        out
    }
    let mut out = Vec::new();
    for axes in 1..=3 {
        for sides in factorings(n, axes) {
            for mask in 0..1u32 << axes {
                let wraps = (0..axes).map(|k| mask >> k & 1 == 1).collect();
                out.push(Spec::grid_of(sides.clone(), wraps));
            }
        }
    }
    out
}

/// Grid guests on grid hosts of any sides and wrap-around (odd, non-power-
/// of-two, mixed): snake, fold and axes are bijections whose metrics equal
/// the oracle's, and snake and axes apply to every pair.
#[test]
fn grid_guests_on_grid_hosts_of_any_sides() {
    for n in [6u64, 9, 12, 15, 16, 18, 27, 30, 36] {
        let specs = grids_of_size(n);
        for (k, host) in specs.iter().enumerate() {
            let dist = common::all_pairs(host);
            // Every guest for a few hosts, a sample of guests for the rest.
            for guest in specs
                .iter()
                .skip(k % 3)
                .step_by(if k % 7 == 0 { 1 } else { 5 })
            {
                let applied = check_all(guest, host, &dist);
                assert!(
                    applied.contains(&"snake") && applied.contains(&"axes"),
                    "{guest} -> {host}: {applied:?}"
                );
            }
        }
    }
}

/// A random power-of-two grid of 2^bits nodes with up to three axes.
fn grid_strategy(bits: u32) -> impl Strategy<Value = Spec> {
    (1..=3u32.min(bits), any::<bool>(), any::<u64>()).prop_map(move |(axes, wrap, seed)| {
        let all = common::compositions(bits, axes);
        let sides: Vec<u64> = all[(seed % all.len() as u64) as usize]
            .iter()
            .map(|&w| 1 << w)
            .collect();
        match (sides.len(), wrap) {
            (1, true) => Spec::Ring(sides[0]),
            (1, false) => Spec::Line(sides[0]),
            (_, true) => Spec::Torus(sides),
            (_, false) => Spec::Mesh(sides),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random sizes from 2^13 to 2^18 nodes: bijection, and for sampled guest
    /// nodes every edge's dilation (BFS on the explicit host graph from the
    /// node's image) lies in the reported per-dimension range and spectrum.
    #[test]
    fn larger_random_sizes(
        (d, host) in (13u32..=18).prop_flat_map(|d| (Just(d), grid_strategy(d))),
        method in 0usize..5,
        samples in proptest::collection::vec(any::<u64>(), 4),
    ) {
        let g = topology::build(&Spec::Cube(d)).unwrap();
        let h = topology::build(&host).unwrap();
        let applicable = embed::applicable(g.as_ref(), h.as_ref());
        let (m, emb) = &applicable[method % applicable.len()];
        let mut seen = vec![false; h.node_count() as usize];
        for n in 0..g.node_count() {
            let p = emb.map(n);
            prop_assert!(!seen[p as usize], "{} host node {} used twice", m.name, p);
            seen[p as usize] = true;
            prop_assert_eq!(emb.inverse(p), Some(n));
        }
        let metrics = metrics::measure(g.as_ref(), h.as_ref(), emb.as_ref(), &Default::default()).unwrap();
        prop_assert_eq!(metrics.dilation.spectrum.values().sum::<u64>(), g.edge_count());
        let (nodes, edges) = common::explicit_edges(&host);
        let adj = common::adjacency(nodes, &edges);
        let per = metrics.per_dimension.as_ref().unwrap();
        for s in samples {
            let n = s % g.node_count();
            let dist = common::bfs(&adj, emb.map(n));
            for i in 0..d {
                let dil = u64::from(dist[emb.map(n ^ (1 << i)) as usize]);
                prop_assert!(per[i as usize].min <= dil && dil <= per[i as usize].max,
                    "{} {}: D_{}({}) = {} outside {:?}", m.name, host, i, n, dil, per[i as usize]);
                prop_assert!(metrics.dilation.spectrum.contains_key(&dil));
                prop_assert_eq!(dil, h.distance(emb.map(n), emb.map(n ^ (1 << i))));
            }
        }
    }
}
