//! Pairwise refinement across a hierarchy's levels: onto a tleaf, the
//! pairs of [`super::refine`] are two leaves of one parent (the nearest
//! host nodes), so nothing re-cuts the border between two sockets, two
//! nodes or two racks — the cut that costs the most per edge, left as the
//! bipartitioning drew it. Here every level above the leaves is refined
//! as a host of its own: each leaf's vertices are read as on its group
//! (the leaves under one node of that level), the groups are refined pair
//! by pair with FM and flows ([`super::refine`] on the tleaf of the levels
//! above, every distance between groups as the leaves' own), and each
//! vertex that changed group is given a leaf inside its new one
//! ([`settle`]). A level's result is kept only where the placement's
//! hop-bytes fall (a moved vertex's new leaf can cost more below than its
//! move saved above).

use std::collections::BinaryHeap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::hop_bytes;
use crate::mapper::refine::Capacity;
use crate::spec::Spec;
use crate::topology::Tleaf;

/// Passes over the moved vertices once all are settled, each given the
/// best leaf of its group again with every neighbour known.
const SETTLE_PASSES: usize = 2;

/// Whether [`refine`] has levels to refine on `host`: a tleaf of two
/// levels or more.
pub fn applies(host: &Spec) -> bool {
    matches!(host, Spec::Tleaf(sizes, _) if sizes.len() > 1)
}

/// Refines `place` on a tleaf host level by level, top first (see the
/// module); returns the hop-bytes taken off. Other hosts, and tleafs of
/// one level, are left as they are (0).
pub fn refine(g: &WGraph, dist: &HostDistance, place: &mut [u64], cap: Capacity) -> u128 {
    let Spec::Tleaf(sizes, costs) = dist.host().spec() else {
        return 0;
    };
    let before = hop_bytes(g, dist, place);
    let mut now = before;
    for level in 1..sizes.len() {
        let leaves: u64 = sizes[level..].iter().product();
        let Some(moved) = refine_groups(g, (sizes, costs), (level, leaves), place, cap) else {
            continue;
        };
        let mut trial = place.to_vec();
        if settle(g, dist, &mut trial, (&moved, leaves), cap.hi).is_err() {
            continue;
        }
        let after = hop_bytes(g, dist, &trial);
        if after < now {
            place.copy_from_slice(&trial);
            now = after;
        }
    }
    before - now
}

/// The groups of `level` (its `leaves` leaves under one node of it) refined pair by
/// pair ([`super::refine`]) on the tleaf of the levels above: a group's
/// capacity is its leaves', and two groups part at the distance their
/// leaves part at (the levels below add their costs to the last). Returns
/// every vertex whose group changed, with its new group; `None` where none
/// did.
fn refine_groups(
    g: &WGraph,
    (sizes, costs): (&[u64], &[u64]),
    (level, leaves): (usize, u64),
    place: &[u64],
    cap: Capacity,
) -> Option<Vec<(usize, u64)>> {
    let mut above = costs[..level].to_vec();
    above[level - 1] += costs[level..].iter().sum::<u64>();
    let groups = Tleaf::new(&sizes[..level], &above);
    let groups = HostDistance::new(&groups).expect("a tleaf has closed-form distances");
    let mut on_group: Vec<u64> = place.iter().map(|&leaf| leaf / leaves).collect();
    let group_cap = Capacity {
        lo: cap.lo.saturating_mul(leaves),
        hi: cap.hi.saturating_mul(leaves),
    };
    if super::refine(g, &groups, &mut on_group, group_cap, 1) == 0 {
        return None;
    }
    let moved: Vec<(usize, u64)> = (0..g.n())
        .filter(|&v| on_group[v] != place[v] / leaves)
        .map(|v| (v, on_group[v]))
        .collect();
    Some(moved).filter(|m| !m.is_empty())
}

/// Gives every moved vertex `(v, group)` a leaf of its new group (its
/// `leaves` leaves are `group · leaves ..`): the one of least hop-bytes to its
/// neighbours already placed, among those with room under `hi`. Greedy
/// growing: the vertex with the most volume to placed neighbours goes
/// first, so a moved cluster lands beside the vertices it talks to; then
/// [`SETTLE_PASSES`] passes choose again with every neighbour placed.
/// `Err` where a vertex finds no leaf with room (weighted vertices that a
/// group's capacity holds but its leaves do not).
fn settle(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    (moved, leaves): (&[(usize, u64)], u64),
    hi: u64,
) -> Result<(), ()> {
    let mut pending = vec![false; g.n()];
    for &(v, _) in moved {
        pending[v] = true;
    }
    let mut load = vec![0u64; dist.host().node_count() as usize];
    for v in (0..g.n()).filter(|&v| !pending[v]) {
        load[place[v] as usize] += g.vw[v];
    }
    let mut group = vec![0u64; g.n()];
    let mut known = vec![0u64; g.n()];
    let mut queue = BinaryHeap::new();
    for &(v, to) in moved {
        group[v] = to;
        known[v] = g
            .edges(v)
            .filter(|&(u, _)| !pending[u])
            .map(|(_, w)| w)
            .sum();
        queue.push((known[v], v));
    }
    let best_leaf = |v: usize, place: &[u64], pending: &[bool], load: &[u64]| {
        let first = group[v] * leaves;
        (first..first + leaves)
            .filter(|&leaf| load[leaf as usize] + g.vw[v] <= hi)
            .min_by_key(|&leaf| {
                g.edges(v)
                    .filter(|&(u, _)| !pending[u])
                    .map(|(u, w)| w as u128 * dist.d(leaf, place[u]) as u128)
                    .sum::<u128>()
            })
    };
    while let Some((volume, v)) = queue.pop() {
        // (A stale entry: v settled, or more of its neighbours since.)
        if !pending[v] || volume != known[v] {
            continue;
        }
        let leaf = best_leaf(v, place, &pending, &load).ok_or(())?;
        place[v] = leaf;
        load[leaf as usize] += g.vw[v];
        pending[v] = false;
        for (u, w) in g.edges(v) {
            if pending[u] {
                known[u] += w;
                queue.push((known[u], u));
            }
        }
    }
    for _ in 0..SETTLE_PASSES {
        for &(v, _) in moved {
            load[place[v] as usize] -= g.vw[v];
            let leaf = best_leaf(v, place, &pending, &load).ok_or(())?;
            place[v] = leaf;
            load[leaf as usize] += g.vw[v];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::rng::Rng;
    use crate::topology;

    /// mesh:8x4 onto tleaf:2x2:10,1 in pairs of columns (leaf x / 2), but
    /// columns 3 and 4 — the nodes' border, 11 a unit where a socket's is
    /// 1 — trade two vertices: the leaves' own pairs (two leaves of one
    /// node) cannot mend it, the nodes' pair re-cuts it straight, the
    /// traded vertices settle back beside their columns, and the placement
    /// is the least of its kind: 4 edges across the nodes, 4 + 4 across
    /// the sockets, 52 hop-bytes. The loads are kept, the gain exact.
    #[test]
    fn a_jagged_border_between_nodes_is_recut_straight() {
        let g = WGraph::from_topology(topology::parse("mesh:8x4").unwrap().as_ref()).unwrap();
        let host = topology::parse("tleaf:2x2:10,1").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        assert!(applies(host.spec()));
        // mesh:8x4 numbers x fastest: column x of vertex v is v % 8.
        let mut place: Vec<u64> = (0..32u64).map(|v| (v % 8) / 2).collect();
        for row in [0, 2] {
            place.swap(8 * row + 3, 8 * row + 4);
        }
        let before = hop_bytes(&g, &dist, &place);
        let cap = Capacity { lo: 8, hi: 8 };
        let gained = refine(&g, &dist, &mut place, cap);
        let after = hop_bytes(&g, &dist, &place);
        assert_eq!(after, 52, "{place:?}");
        assert_eq!(gained, before - after);
        for leaf in 0..4 {
            assert_eq!(place.iter().filter(|&&h| h == leaf).count(), 8);
        }
    }

    /// Hosts with no level above their leaves are left alone.
    #[test]
    fn a_host_of_one_level_has_no_levels() {
        for spec in ["tleaf:16:1", "torus:4x4", "ring:8"] {
            let host = topology::parse(spec).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            assert!(!applies(host.spec()), "{spec}");
            let g = WGraph::from_topology(topology::parse("mesh:4x4").unwrap().as_ref()).unwrap();
            let mut place: Vec<u64> = (0..16u64).rev().collect();
            let cap = Capacity { lo: 0, hi: 1 };
            assert_eq!(refine(&g, &dist, &mut place, cap), 0);
            assert_eq!(place, (0..16u64).rev().collect::<Vec<_>>());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// On random graphs of random volumes dealt at random over a tleaf
        /// of two or three levels, the hop-bytes never rise, the gain is
        /// exactly their drop, and no leaf goes above the capacity.
        #[test]
        fn the_gain_is_exact_and_the_capacity_kept(
            n in 20usize..160,
            extra in proptest::collection::vec((0usize..160, 0usize..160, 1u64..20), 0..400),
            host in proptest::sample::select(vec!["tleaf:2x2x4:9,3,1", "tleaf:4x4:10,1", "tleaf:2x3:5,1"]),
            seed in 0u64..1000,
        ) {
            let g = crate::mapper::coarsen::tests::bip(n, &extra, &[1], &[[0, 0]]).g;
            let host = topology::parse(host).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let p = host.node_count() as usize;
            let order = Rng::new(seed, 0).permutation(n);
            let mut place = vec![0u64; n];
            for (k, &v) in order.iter().enumerate() {
                place[v as usize] = (k % p) as u64;
            }
            let cap = Capacity { lo: 0, hi: n.div_ceil(p) as u64 + 1 };
            let before = hop_bytes(&g, &dist, &place);
            let gained = refine(&g, &dist, &mut place, cap);
            let after = hop_bytes(&g, &dist, &place);
            proptest::prop_assert!(after <= before);
            proptest::prop_assert_eq!(gained, before - after);
            let mut load = vec![0u64; p];
            for &h in &place {
                load[h as usize] += 1;
            }
            proptest::prop_assert!(load.iter().all(|&l| l <= cap.hi), "{:?}", load);
        }
    }
}
