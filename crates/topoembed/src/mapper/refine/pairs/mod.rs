//! Pairwise refinement on a placement (KaFFPa's refinement on the quotient
//! graph's edges, Sanders & Schulz 2011, with the mapping objective): for
//! every two nearest host nodes whose vertices share an edge, the vertices
//! on both are bipartitioned again — FM and flows ([`super::fm`], [`super::flow`])
//! on the two nodes' induced graph, each vertex's edges to the rest of the
//! guest entering as external costs (volume × distance from each of the two
//! nodes to where the neighbour sits), the cut charged the distance between
//! the two. A bipartition's cost is then the exact hop-bytes of every edge
//! that touches the pair, so a cheaper one lowers the placement's
//! hop-bytes by as much. Flows re-cut a border that single-vertex moves
//! cannot improve one step at a time. Onto a hierarchy the nearest nodes
//! are two leaves of one parent; [`levels`] refines the borders between
//! its groups.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::fm::{self, Balance};
use super::{flow, tree, Capacity};
use crate::mapper::coarsen::Bip;
use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;

pub mod levels;

/// Two host nodes, the smaller first.
type Pair = (u64, u64);

/// FM passes per pair, before and after the flows.
const PASSES: usize = 4;

/// Refines `place` pair by pair of nearest host nodes whose vertices share
/// an edge ([`groups`]), `rounds` times over; returns the hop-bytes gained.
///
/// The pairs are dealt into groups in which no host node appears twice
/// (first fit, in ascending order of the pair); a group's pairs are
/// bipartitioned again in parallel on the placement as the group found it,
/// then kept one by one in the group's order, each only if its gain,
/// recomputed on the placement as it now stands, is still positive — the
/// same placement on any number of threads. (A pair none of whose vertices
/// neighbours a vertex moved by a pair kept before it in the group has the
/// same problem as in parallel, so the same gain. Another's gain changes
/// only by the edges to the vertices moved ([`gain_now`]), and only those
/// are read: rebuilding its problem was a fifth of the phase on mdual, all
/// of it serial.)
pub fn refine(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    rounds: usize,
) -> u128 {
    refine_with(g, dist, place, cap, rounds, ext_never_saturates(g, dist))
}

/// [`refine`], a kept pair's gain updated by the edges that changed
/// ([`gain_now`]) when `incremental`, its problem rebuilt otherwise.
fn refine_with(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    cap: Capacity,
    rounds: usize,
    incremental: bool,
) -> u128 {
    let mut gained = 0u128;
    // Vertices with a neighbour moved by a pair kept earlier in the group.
    let mut beside_moved = vec![false; g.n()];
    let mut marked: Vec<u32> = Vec::new();
    // Each vertex's position in its host node's list of `members`: a pair
    // problem numbers its vertices by it, where a hash map per pair was
    // probed at every edge (with the flows' arcs side by side, the phase
    // 3–12 % faster: copter2 onto tleaf:256:1 0.456 → 0.399 s).
    let mut position = vec![0u32; g.n()];
    // The host node each vertex moved by a pair kept earlier in the group
    // left (NOT_MOVED: none); the vertices so marked, to clear the marks.
    let mut moved_from = vec![NOT_MOVED; g.n()];
    let mut moved: Vec<u32> = Vec::new();
    let forest = tree::is_forest(g);
    for _ in 0..rounds {
        let mut members: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        for (v, &h) in place.iter().enumerate() {
            let on = members.entry(h).or_default();
            position[v] = on.len() as u32;
            on.push(v as u32);
        }
        let mut round = 0u128;
        for group in groups(g, dist, place) {
            let proposals: Vec<Option<(Vec<u8>, u128)>> = group
                .par_iter()
                .map(|&(a, b)| {
                    let verts = pair_vertices(&members, (a, b));
                    let (bip, side) = pair_problem(g, dist, (place, &position), (a, b), &verts);
                    repartition(&bip, &side, cap, (dist.d(a, b), forest))
                })
                .collect();
            for (&(a, b), proposal) in group.iter().zip(proposals) {
                let Some((new, mut gain)) = proposal else {
                    continue;
                };
                let verts = pair_vertices(&members, (a, b));
                if verts.iter().any(|&v| beside_moved[v as usize]) {
                    // Pairs kept before this one moved its neighbours.
                    let now = match incremental {
                        true => gain_now(g, dist, (place, &moved_from), (a, b), &verts, &new, gain),
                        false => {
                            let (bip, side) =
                                pair_problem(g, dist, (place, &position), (a, b), &verts);
                            let d12 = dist.d(a, b);
                            let before = fm::cost(&bip, &side, d12) as i128;
                            before - fm::cost(&bip, &new, d12) as i128
                        }
                    };
                    if now <= 0 {
                        continue;
                    }
                    gain = now as u128;
                }
                for (&v, &s) in verts.iter().zip(&new) {
                    let to = if s == 0 { a } else { b };
                    if place[v as usize] != to {
                        moved_from[v as usize] = place[v as usize];
                        moved.push(v);
                        place[v as usize] = to;
                        for (u, _) in g.edges(v as usize) {
                            if !beside_moved[u] {
                                beside_moved[u] = true;
                                marked.push(u as u32);
                            }
                        }
                    }
                }
                let (on_a, on_b): (Vec<u32>, Vec<u32>) =
                    verts.iter().partition(|&&v| place[v as usize] == a);
                for on in [&on_a, &on_b] {
                    for (k, &v) in on.iter().enumerate() {
                        position[v as usize] = k as u32;
                    }
                }
                members.insert(a, on_a);
                members.insert(b, on_b);
                round += gain;
            }
            for u in marked.drain(..) {
                beside_moved[u as usize] = false;
            }
            for v in moved.drain(..) {
                moved_from[v as usize] = NOT_MOVED;
            }
        }
        gained += round;
        if round == 0 {
            break;
        }
    }
    gained
}

/// No move recorded for a vertex ([`refine`]'s `moved_from`).
const NOT_MOVED: u64 = u64::MAX;

/// Whether no vertex's external costs in a pair problem can saturate
/// ([`Bip::induced`] sums them in u64, saturating): the most volume on one
/// vertex times the longest distance fits. Then a gain follows from the
/// edges that changed ([`gain_now`]) exactly as from the rebuilt problem.
fn ext_never_saturates(g: &WGraph, dist: &HostDistance) -> bool {
    let longest = match dist.table() {
        Some(_) => u64::from(u16::MAX),
        None => dist.host().distance_bound(),
    };
    let heaviest = (0..g.n())
        .map(|v| g.edges(v).map(|(_, w)| u128::from(w)).sum::<u128>())
        .max()
        .unwrap_or(0);
    heaviest * u128::from(longest) <= u128::from(u64::MAX)
}

/// The gain of bipartition `new` of the pair (a, b)'s vertices `verts` on
/// the placement as it now stands, given its gain `then` when the group
/// began: pairs kept since moved some of the vertices' outside neighbours
/// (`moved_from[u]`: the node u left; never a or b, as a group's pairs
/// share no node), and each such edge of volume w from v (on `old`, going
/// to `goes`) changes the gain by w × ((d(old, now) − d(old, was)) −
/// (d(goes, now) − d(goes, was))). The pair's own vertices have not moved,
/// so its induced graph and every other edge's cost are as they were.
fn gain_now(
    g: &WGraph,
    dist: &HostDistance,
    (place, moved_from): (&[u64], &[u64]),
    (a, b): Pair,
    verts: &[u32],
    new: &[u8],
    then: u128,
) -> i128 {
    let mut gain = then as i128;
    for (&v, &s) in verts.iter().zip(new) {
        let old = place[v as usize];
        let goes = if s == 0 { a } else { b };
        if old == goes {
            continue;
        }
        let (from_old, from_goes) = (dist.row(old), dist.row(goes));
        for (u, w) in g.edges(v as usize) {
            let was = moved_from[u];
            if was == NOT_MOVED {
                continue;
            }
            let now = place[u];
            let change = (i128::from(from_old.d(now)) - i128::from(from_old.d(was)))
                - (i128::from(from_goes.d(now)) - i128::from(from_goes.d(was)));
            gain += i128::from(w) * change;
        }
    }
    gain
}

/// The pairs of host nodes with an edge between their vertices that are
/// nearest of all such pairs (one hop on a torus, under one switch on a
/// fat tree), dealt into groups of disjoint pairs.
fn groups(g: &WGraph, dist: &HostDistance, place: &[u64]) -> Vec<Vec<Pair>> {
    let mut pairs: Vec<(Pair, u64)> = (0..g.n())
        .into_par_iter()
        .fold(Vec::new, |mut found, v| {
            let a = place[v];
            let from = dist.row(a);
            for (u, _) in g.edges(v) {
                let b = place[u];
                if a < b {
                    found.push(((a, b), from.d(b)));
                }
            }
            found
        })
        .reduce(Vec::new, |mut x, y| {
            x.extend(y);
            x
        });
    pairs.par_sort_unstable();
    pairs.dedup();
    let nearest = pairs.iter().map(|&(_, d)| d).min().unwrap_or(0);
    let mut pairs: Vec<Pair> = pairs
        .into_iter()
        .filter(|&(_, d)| d == nearest)
        .map(|(pair, _)| pair)
        .collect();
    let mut groups = Vec::new();
    while !pairs.is_empty() {
        let mut used: FxHashSet<u64> = FxHashSet::default();
        let (group, rest): (Vec<Pair>, Vec<Pair>) = pairs.into_iter().partition(|&(a, b)| {
            !used.contains(&a) && !used.contains(&b) && used.insert(a) && used.insert(b)
        });
        groups.push(group);
        pairs = rest;
    }
    groups
}

/// The vertices on host nodes a and b, a's first.
fn pair_vertices(members: &FxHashMap<u64, Vec<u32>>, (a, b): (u64, u64)) -> Vec<u32> {
    let on = |h: u64| members.get(&h).map_or(&[][..], |m| m.as_slice());
    on(a).iter().chain(on(b)).copied().collect()
}

/// The bipartition problem of `verts` (on host nodes a and b, a's first,
/// as [`pair_vertices`] lists them): their induced graph, each one's
/// external costs on a (side 0) and on b, and the sides they are on.
/// `position` is each vertex's place in its host node's list.
fn pair_problem(
    g: &WGraph,
    dist: &HostDistance,
    (place, position): (&[u64], &[u32]),
    (a, b): (u64, u64),
    verts: &[u32],
) -> (Bip, Vec<u8>) {
    let on_a = verts.partition_point(|&v| place[v as usize] == a) as u32;
    let local = |u: usize| match place[u] {
        h if h == a => Some(position[u]),
        h if h == b => Some(on_a + position[u]),
        _ => None,
    };
    let (from_a, from_b) = (dist.row(a), dist.row(b));
    let bip = Bip::induced(g, verts, local, |u| {
        [from_a.d(place[u]), from_b.d(place[u])]
    });
    let side = verts
        .iter()
        .map(|&v| u8::from(place[v as usize] == b))
        .collect();
    (bip, side)
}

/// A cheaper bipartition of `bip` than `side` (FM, flows, FM again; the
/// least where the guest is a `forest`,
/// [`tree`]), both nodes within `cap` (or no further outside than now),
/// and how much cheaper; none when none is found.
fn repartition(
    bip: &Bip,
    side: &[u8],
    cap: Capacity,
    (d12, forest): (u64, bool),
) -> Option<(Vec<u8>, u128)> {
    let total = bip.g.total_load();
    let load0 = bip.load0(side);
    let lo = cap.lo.max(total.saturating_sub(cap.hi)).min(load0);
    let hi = cap.hi.min(total.saturating_sub(cap.lo)).max(load0);
    let bal = Balance { lo, hi, d12 };
    // Two nodes' vertices that induce a forest (a tree's parts) are
    // bipartitioned exactly ([`tree`]); FM moves one vertex at a time where
    // a subtree has to cross.
    let exact = match forest {
        true => tree::bisect(bip, bal, load0),
        false => tree::Found::Nothing,
    };
    let new = match exact {
        tree::Found::Least(new) => new,
        _ => {
            let mut new = side.to_vec();
            fm::refine(bip, &mut new, bal, PASSES);
            if flow::refine(bip, &mut new, bal, load0) > 0 {
                fm::refine(bip, &mut new, bal, PASSES);
            }
            new
        }
    };
    let (before, after) = (fm::cost(bip, side, d12), fm::cost(bip, &new, d12));
    (after < before && bal.excess(bip.load0(&new)) == 0).then(|| (new, before - after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::hop_bytes;
    use crate::topology;

    /// An 8x4 mesh on two nodes of a line, its vertices dealt out in
    /// alternate columns (a cut of 28 edges): the pair is re-cut straight,
    /// across the columns (4 edges a cut; the minimum bisection is one such
    /// cut, FM and flows from this start find two), the loads kept, and
    /// the gain is exactly the drop in hop-bytes.
    #[test]
    fn a_jagged_pair_is_recut_straight() {
        let g = WGraph::from_topology(topology::parse("mesh:8x4").unwrap().as_ref()).unwrap();
        let host = topology::parse("line:2").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        // mesh:8x4 numbers x fastest: column x of vertex v is v % 8.
        let mut place: Vec<u64> = (0..32u64).map(|v| v % 2).collect();
        let before = hop_bytes(&g, &dist, &place);
        assert_eq!(before, 28);
        let cap = Capacity { lo: 16, hi: 16 };
        let gained = refine(&g, &dist, &mut place, cap, 3);
        let after = hop_bytes(&g, &dist, &place);
        assert!(after <= 8, "{after}: {place:?}");
        assert_eq!(gained, before - after);
        assert_eq!(place.iter().filter(|&&h| h == 0).count(), 16);
    }

    /// The nearest pairs are refined even when two units apart (as a fat
    /// tree's nodes under one switch are): on the ends of line:3 the
    /// alternate columns are re-cut, the loads kept, the gain exact.
    #[test]
    fn the_nearest_pairs_are_refined_at_any_distance() {
        let g = WGraph::from_topology(topology::parse("mesh:8x4").unwrap().as_ref()).unwrap();
        let host = topology::parse("line:3").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut place: Vec<u64> = (0..32u64).map(|v| 2 * (v % 2)).collect();
        let before = hop_bytes(&g, &dist, &place);
        let cap = Capacity { lo: 0, hi: 16 };
        let gained = refine(&g, &dist, &mut place, cap, 3);
        let after = hop_bytes(&g, &dist, &place);
        assert!(after <= 2 * 8, "{after}: {place:?}");
        assert_eq!(gained, before - after);
        assert!(place.iter().all(|&h| h != 1));
        assert_eq!(place.iter().filter(|&&h| h == 0).count(), 16);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// A kept pair's gain updated by the edges whose far end moved
        /// is the gain of its problem rebuilt: the same placement and gain
        /// either way, on random graphs of random volumes scattered over
        /// a torus, a tleaf and a ring.
        #[test]
        fn the_gain_updated_is_the_gain_rebuilt(
            n in 20usize..160,
            extra in proptest::collection::vec((0usize..160, 0usize..160, 1u64..20), 0..400),
            host in proptest::sample::select(vec!["torus:4x4", "tleaf:2x2x4:9,3,1", "ring:6"]),
            seed in 0u64..1000,
        ) {
            let g = crate::mapper::coarsen::tests::bip(n, &extra, &[1], &[[0, 0]]).g;
            let host = topology::parse(host).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let p = host.node_count();
            let mut rng = crate::mapper::rng::Rng::new(seed, 0);
            let start: Vec<u64> = (0..n).map(|_| rng.below(p as usize) as u64).collect();
            let cap = Capacity { lo: 0, hi: (n as u64).div_ceil(p) + 2 };
            let run = |incremental: bool| {
                let mut place = start.clone();
                let gained = refine_with(&g, &dist, &mut place, cap, 2, incremental);
                (place, gained)
            };
            let (updated, rebuilt) = (run(true), run(false));
            proptest::prop_assert_eq!(&updated, &rebuilt);
            proptest::prop_assert_eq!(
                updated.1,
                hop_bytes(&g, &dist, &start) - hop_bytes(&g, &dist, &updated.0)
            );
        }
    }

    /// Many pairs a group, side by side (mesh:48x48 in blocks onto
    /// torus:4x4, each block's border frayed by swapping vertices with the
    /// next block): the gain is exactly the drop in hop-bytes whether a
    /// kept pair's problem was rebuilt (a neighbour moved by an earlier
    /// pair of its group) or taken as bipartitioned, the loads are kept,
    /// and the placement is the same on one thread and three.
    #[test]
    fn the_gain_is_exact_with_many_pairs_a_group() {
        let g = WGraph::from_topology(topology::parse("mesh:48x48").unwrap().as_ref()).unwrap();
        let host = topology::parse("torus:4x4").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        // Blocks of 12x12: vertex (x, y) on node (x / 12) + 4 (y / 12).
        let block = |v: usize| ((v % 48) / 12 + 4 * ((v / 48) / 12)) as u64;
        let mut start: Vec<u64> = (0..g.n()).map(block).collect();
        let mut rng = crate::mapper::rng::Rng::new(4, 0);
        for _ in 0..400 {
            // A vertex and its right-hand neighbour in another block trade
            // places (the loads stay 144 each).
            let v = rng.below(g.n());
            if v % 48 + 1 < 48 && start[v] != start[v + 1] {
                start.swap(v, v + 1);
            }
        }
        let cap = Capacity { lo: 144, hi: 144 };
        let before = hop_bytes(&g, &dist, &start);
        let on = |threads: usize| {
            let mut place = start.clone();
            let gained =
                crate::mapper::on_threads(threads, || refine(&g, &dist, &mut place, cap, 2));
            (place, gained)
        };
        let (place, gained) = on(1);
        let after = hop_bytes(&g, &dist, &place);
        assert!(after < before, "{after} >= {before}");
        assert_eq!(gained, before - after);
        let mut load = [0u64; 16];
        for &h in &place {
            load[h as usize] += 1;
        }
        assert!(load.iter().all(|&l| l == 144), "{load:?}");
        assert_eq!(on(3), (place, gained));
    }
}
