//! Virtual topologies: the lecture notes' formulas and the methods' closed
//! forms against tables built from the maps, rank by rank; the tree rules of
//! the notes' figure 4; the in-order tree embedding's dilation.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;

use topoembed::embed::{self, Embedding, Params};
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::{guest_neighbor, Direction, VirtualTopology};

fn pair(guest: &str, host: &str, method: &str) -> (VirtualTopology, VirtualTopology) {
    let g: Arc<dyn Topology> = Arc::from(topology::parse(guest).unwrap());
    let h: Arc<dyn Topology> = Arc::from(topology::parse(host).unwrap());
    let e: Arc<dyn Embedding> = Arc::from(embed::build(method, g.as_ref(), h.as_ref()).unwrap());
    (
        VirtualTopology::new(g.clone(), h.clone(), e.clone()).unwrap(),
        VirtualTopology::with_tables(g, h, e).unwrap(),
    )
}

/// Every rank: the same guests and the same neighbours (names, ranks, hops)
/// from both lookups; and every neighbour's rank really plays that guest
/// node, which is its neighbour in the guest.
fn agree(guest: &str, host: &str, method: &str) {
    let (fast, table) = pair(guest, host, method);
    assert_eq!(table.lookup(), "tables");
    for rank in 0..fast.size() {
        assert_eq!(
            fast.guests(rank),
            table.guests(rank),
            "{guest} {host} {method} rank {rank}"
        );
        let (a, b) = (
            fast.neighbors(rank).unwrap(),
            table.neighbors(rank).unwrap(),
        );
        assert_eq!(a, b, "{guest} -> {host} ({method}), rank {rank}");
        for n in &a {
            assert!(table.guests(n.rank).contains(&n.guest));
            assert!(fast.guest().neighbors(n.node).contains(&n.guest));
            assert_eq!(n.hops, fast.host().distance(rank, n.rank));
        }
    }
    // Every guest edge is seen from both ends (a side of 2 names one
    // neighbour twice, left and right).
    let seen: BTreeSet<(u64, u64)> = (0..fast.size())
        .flat_map(|r| fast.neighbors(r).unwrap())
        .map(|n| (n.node, n.guest))
        .collect();
    assert_eq!(
        seen.len() as u64,
        2 * fast.guest().edge_count(),
        "{guest} {host} {method}"
    );
}

#[test]
fn closed_forms_match_tables_for_every_seed_method() {
    let mut cases: Vec<(String, String, &str)> = Vec::new();
    for d in 1..=12u32 {
        let n = 1u64 << d;
        cases.push((format!("ring:{n}"), format!("cube:{d}"), "gray"));
        cases.push((format!("line:{n}"), format!("cube:{d}"), "gray"));
        cases.push((format!("cube:{d}"), format!("ring:{n}"), "standard"));
        cases.push((format!("cube:{d}"), format!("line:{n}"), "byweight"));
        cases.push((format!("cube:{d}"), format!("ring:{n}"), "byweight"));
        cases.push((format!("cube:{d}"), format!("ring:{n}"), "gray"));
        if d >= 2 {
            cases.push((format!("cube:{d}"), format!("ring:{n}"), "xor"));
            let (a, b) = (1u64 << (d / 2), 1u64 << (d - d / 2));
            for kind in ["torus", "mesh"] {
                cases.push((format!("{kind}:{a}x{b}"), format!("cube:{d}"), "gray"));
                cases.push((format!("cube:{d}"), format!("{kind}:{a}x{b}"), "standard"));
            }
            cases.push((format!("cube:{d}"), format!("torus:{a}x{b}"), "xor"));
            cases.push((format!("cube:{d}"), format!("torus:{b}x{a}"), "gray"));
            cases.push((format!("bintree:{n}"), format!("cube:{d}"), "levels"));
            cases.push((
                format!("torus:{a}x{b}"),
                format!("torus:{a}x{b}"),
                "identity",
            ));
        }
        if d >= 3 {
            let (a, b, c) = (1u64 << (d / 3), 1u64 << (d / 3), 1u64 << (d - 2 * (d / 3)));
            cases.push((format!("torus:{a}x{b}x{c}"), format!("cube:{d}"), "gray"));
            cases.push((format!("cube:{d}"), format!("torus:{a}x{b}x{c}"), "xor"));
        }
        if d >= 2 {
            cases.push((format!("bintree:{}", n / 2), format!("cube:{d}"), "inorder"));
        }
    }
    for (g, h, m) in &cases {
        agree(g, h, m);
    }
}

#[test]
fn seed_methods_use_closed_forms() {
    for (g, h, m, lookup) in [
        ("ring:16", "cube:4", "gray", "closed forms on the rank"),
        ("torus:4x8", "cube:5", "gray", "closed forms on the rank"),
        ("bintree:16", "cube:4", "levels", "closed forms on the rank"),
        (
            "bintree:16",
            "cube:5",
            "inorder",
            "closed forms on the rank",
        ),
        ("cube:6", "torus:8x8", "xor", "the method's map and inverse"),
        (
            "cube:6",
            "ring:64",
            "standard",
            "the method's map and inverse",
        ),
        (
            "cube:6",
            "line:64",
            "byweight",
            "the method's map and inverse",
        ),
        ("mesh:35x27", "cube:6", "split", "tables"),
    ] {
        let vt = VirtualTopology::from_specs(g, h, m, &Params::default()).unwrap();
        assert_eq!(vt.lookup(), lookup, "{g} {h} {m}");
    }
}

/// The lecture notes' ring formulas, literally: ring id gtob(i), left
/// btog[(gtob(i) - 1 + p) mod p], right btog[(gtob(i) + 1) mod p] (figure 2).
#[test]
fn ring_neighbours_are_the_notes_formulas() {
    use topoembed::bits::{btog, gtob};
    let vt = VirtualTopology::from_specs("ring:8", "cube:3", "gray", &Params::default()).unwrap();
    let left = Direction::Axis { axis: 0, up: false };
    let right = Direction::Axis { axis: 0, up: true };
    for i in 0..8 {
        assert_eq!(vt.guest_of(i), Some(gtob(i)));
        assert_eq!(vt.neighbor(i, left), Some(btog((gtob(i) + 7) % 8)));
        assert_eq!(vt.neighbor(i, right), Some(btog((gtob(i) + 1) % 8)));
    }
    // The notes' example: ring processor 4 is on processor 6 (110).
    assert_eq!(vt.rank_of(4), 6);
}

/// The notes' figure 4 (16 leaves): the levels each rank takes part in and
/// its parent / children there.
#[test]
fn tree_rules_match_figure_4() {
    let vt =
        VirtualTopology::from_specs("bintree:16", "cube:4", "levels", &Params::default()).unwrap();
    let levels_of = |rank: u64| -> Vec<u32> {
        vt.guests(rank)
            .iter()
            .map(|&v| 63 - (v + 1).leading_zeros())
            .collect()
    };
    assert_eq!(levels_of(0), vec![0, 1, 2, 3, 4]);
    assert_eq!(levels_of(8), vec![1, 2, 3, 4]);
    assert_eq!(levels_of(4), vec![2, 3, 4]);
    assert_eq!(levels_of(6), vec![3, 4]);
    assert_eq!(levels_of(5), vec![4]);
    let find = |rank: u64, level: u32, dir: &str| -> Option<u64> {
        vt.neighbors(rank)
            .unwrap()
            .into_iter()
            .find(|n| n.level == Some(level) && n.direction == dir)
            .map(|n| n.rank)
    };
    // Level k: parent clears bit (log p - k), right child sets bit (log p - k - 1).
    assert_eq!(find(8, 1, "parent"), Some(0));
    assert_eq!(find(8, 1, "left child"), Some(8));
    assert_eq!(find(8, 1, "right child"), Some(12));
    assert_eq!(find(8, 2, "parent"), Some(8));
    assert_eq!(find(8, 2, "right child"), Some(10));
    assert_eq!(find(6, 3, "parent"), Some(4));
    assert_eq!(find(6, 3, "right child"), Some(7));
    assert_eq!(find(0, 0, "parent"), None);
    assert_eq!(find(0, 0, "right child"), Some(8));
    assert_eq!(find(5, 4, "parent"), Some(4));
    assert_eq!(find(5, 4, "left child"), None);
    // One tree node per rank on every level.
    for level in 0..=4u32 {
        let ranks: Vec<u64> = (0..16)
            .filter(|&r| {
                vt.guests(r)
                    .iter()
                    .any(|&v| 63 - (v + 1).leading_zeros() == level)
            })
            .collect();
        assert_eq!(ranks.len(), 1 << level);
        assert!(ranks.iter().all(|r| r % (16 >> level) == 0));
    }
}

/// In-order labels: every tree edge joins labels at most two bits apart,
/// the map is one-to-one and leaves only cube node 0 empty (P up to 2^12).
#[test]
fn inorder_tree_has_dilation_at_most_two() {
    for h in 1..=12u32 {
        let p = 1u64 << h;
        let guest = topology::parse(&format!("bintree:{p}")).unwrap();
        let host = topology::parse(&format!("cube:{}", h + 1)).unwrap();
        let e = embed::build("inorder", guest.as_ref(), host.as_ref()).unwrap();
        let (nodes, edges) = common::explicit_edges(guest.spec());
        let images: BTreeSet<u64> = (0..nodes).map(|v| e.map(v)).collect();
        assert_eq!(images.len() as u64, nodes);
        assert!(!images.contains(&0) && images.iter().all(|&x| x < 2 * p));
        let worst = edges
            .iter()
            .map(|&(u, v)| (e.map(u) ^ e.map(v)).count_ones())
            .max()
            .unwrap();
        assert_eq!(worst, 2, "bintree:{p}");
        // The left-child edges take 2, the right-child edges 1.
        for &(u, v) in &edges {
            let want = if v == 2 * u + 1 { 2 } else { 1 };
            assert_eq!((e.map(u) ^ e.map(v)).count_ones(), want);
        }
    }
}

#[test]
fn levels_metrics_report_load_one_per_level() {
    let guest = topology::parse("bintree:64").unwrap();
    let host = topology::parse("cube:6").unwrap();
    let e = embed::build("levels", guest.as_ref(), host.as_ref()).unwrap();
    let m = topoembed::metrics::measure(
        guest.as_ref(),
        host.as_ref(),
        e.as_ref(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(m.load_factor, 7);
    assert_eq!(m.level_load, Some(vec![1; 7]));
    assert_eq!(m.dilation.max, 1);
    // Left-child edges stay on a node; right-child edges are cube edges.
    assert_eq!(m.edges_inside, 63);
    let e = embed::build(
        "identity",
        guest.as_ref(),
        &*topology::parse("ring:127").unwrap(),
    );
    assert!(e.is_ok());
}

#[test]
fn bad_ranks_and_missing_neighbours() {
    let vt = VirtualTopology::from_specs("mesh:4x4", "cube:4", "gray", &Params::default()).unwrap();
    let err = vt.neighbors(16).unwrap_err().to_string();
    assert!(err.contains("rank 16 is out of range"), "{err}");
    // A mesh corner has no west or north neighbour.
    let corner = vt.rank_of(0);
    assert_eq!(
        vt.neighbor(corner, Direction::Axis { axis: 0, up: false }),
        None
    );
    assert_eq!(
        vt.neighbor(corner, Direction::Axis { axis: 1, up: false }),
        None
    );
    let names: Vec<String> = vt
        .neighbors(corner)
        .unwrap()
        .into_iter()
        .map(|n| n.direction)
        .collect();
    assert_eq!(names, vec!["east", "south"]);
    let guest = topology::parse("torus:4x4").unwrap();
    assert_eq!(
        guest_neighbor(guest.as_ref(), 0, Direction::Axis { axis: 0, up: false }),
        Some(3)
    );
    assert_eq!(
        guest_neighbor(guest.as_ref(), 0, Direction::Dimension(0)),
        None
    );
}
