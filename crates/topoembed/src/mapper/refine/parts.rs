//! Swapping whole parts: the placement's quotient graph (one node per host
//! node, edge volumes summed) laid out again by pairwise exchange, as in
//! Brandfass, Alrutz & Gerhold's rank reordering and Schulz & Träff's
//! sparse-QAP swap neighbourhood. The contents of two host nodes trade
//! places when that lowers Σ volume × distance over the quotient's edges;
//! every host node keeps its load, so the capacity still holds. Dual
//! recursive bipartitioning fixes where parts go one split at a time; this
//! undoes its worst guesses afterwards at the cost of the quotient graph.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

/// Host nodes of more neighbours than this contribute only themselves as
/// candidates.
const MAX_HOST_DEGREE: u64 = 64;

/// Swaps whole host nodes' contents of `place` while that gains, at most
/// `passes` passes over the parts; returns the hop-bytes gained.
pub fn swap(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    passes: usize,
    rng: &mut Rng,
) -> u128 {
    let mut quotient: FxHashMap<u64, FxHashMap<u64, u64>> = FxHashMap::default();
    for v in 0..g.n() {
        for (u, w) in g.edges(v) {
            let (a, b) = (place[v], place[u]);
            if a != b {
                *quotient.entry(a).or_default().entry(b).or_default() += w;
            }
        }
    }
    // Part a (the contents host node a started with) sits on node pos[a];
    // node x holds part at[x]. Both start as the identity.
    let mut pos: FxHashMap<u64, u64> = FxHashMap::default();
    let mut at: FxHashMap<u64, u64> = FxHashMap::default();
    let pos_of = |pos: &FxHashMap<u64, u64>, a: u64| pos.get(&a).copied().unwrap_or(a);
    let mut parts: Vec<u64> = quotient.keys().copied().collect();
    parts.sort_unstable();
    let mut gained = 0u128;
    let mut candidates = FxHashSet::default();
    for _ in 0..passes {
        let mut pass_gain = 0u128;
        for k in rng.permutation(parts.len()) {
            let a = parts[k as usize];
            let x = pos_of(&pos, a);
            // Where a's neighbours are, and next to there.
            candidates.clear();
            for &c in quotient[&a].keys() {
                let y = pos_of(&pos, c);
                candidates.insert(y);
                // (A hierarchy's leaves all neighbour each other: its
                // neighbours' nodes are candidates enough.)
                if dist.host().degree(y) <= MAX_HOST_DEGREE {
                    candidates.extend(dist.host().neighbors(y));
                }
            }
            candidates.remove(&x);
            let cost = |part: u64, from: u64, to: u64, other: u64| -> i128 {
                let Some(edges) = quotient.get(&part) else {
                    return 0;
                };
                edges
                    .iter()
                    .filter(|&(&c, _)| c != other)
                    .map(|(&c, &w)| {
                        let hc = pos_of(&pos, c);
                        i128::from(w) * (i128::from(dist.d(from, hc)) - i128::from(dist.d(to, hc)))
                    })
                    .sum()
            };
            let mut best: (i128, u64) = (0, x);
            let mut sorted: Vec<u64> = candidates.iter().copied().collect();
            sorted.sort_unstable();
            for y in sorted {
                let b = at.get(&y).copied().unwrap_or(y);
                let gain = cost(a, x, y, b) + cost(b, y, x, a);
                if gain > best.0 {
                    best = (gain, y);
                }
            }
            let (gain, y) = best;
            if gain > 0 {
                let b = at.get(&y).copied().unwrap_or(y);
                pos.insert(a, y);
                pos.insert(b, x);
                at.insert(y, a);
                at.insert(x, b);
                pass_gain += gain as u128;
            }
        }
        gained += pass_gain;
        if pass_gain == 0 {
            break;
        }
    }
    for h in place.iter_mut() {
        *h = pos_of(&pos, *h);
    }
    gained
}
