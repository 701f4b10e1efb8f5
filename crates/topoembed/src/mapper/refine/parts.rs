//! Swapping whole parts: the placement's quotient graph (one node per host
//! node, edge volumes summed) laid out again by pairwise exchange, as in
//! Brandfass, Alrutz & Gerhold's rank reordering and Schulz & Träff's
//! sparse-QAP swap neighbourhood. The contents of two host nodes trade
//! places when that lowers Σ volume × distance over the quotient's edges;
//! every host node keeps its load, so the capacity still holds. Dual
//! recursive bipartitioning fixes where parts go one split at a time; this
//! undoes its worst guesses afterwards at the cost of the quotient graph.

use rustc_hash::FxHashMap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

/// Host nodes of more neighbours than this contribute only themselves as
/// candidates.
const MAX_HOST_DEGREE: u64 = 64;

/// Swaps whole host nodes' contents of `place` while that gains, at most
/// `passes` passes over the parts; returns the hop-bytes gained.
///
/// A part is the contents a host node started with, named by that node; the
/// parts with a cut edge are numbered (their quotient rows and positions
/// are arrays: a gain reads no hash map per edge), the others — empty or
/// cut off — are moved too but cost nothing where they go.
pub fn swap(
    g: &WGraph,
    dist: &HostDistance,
    place: &mut [u64],
    passes: usize,
    rng: &mut Rng,
) -> u128 {
    let q = Quotient::new(g, place);
    // Part a (by number) sits on host node pos[a]; node x holds the part
    // named at[x], and a part not in `at` sits on the node of its name.
    let mut pos: Vec<u64> = q.parts.clone();
    let mut at: FxHashMap<u64, u64> = FxHashMap::default();
    // Each host node's neighbours as candidates (none listed for a node of
    // more than MAX_HOST_DEGREE: it is a candidate alone).
    let mut near: FxHashMap<u64, Vec<u64>> = FxHashMap::default();
    let mut gained = 0u128;
    let mut candidates: Vec<u64> = Vec::new();
    for _ in 0..passes {
        let mut pass_gain = 0u128;
        for a in rng.permutation(q.parts.len()) {
            let a = a as usize;
            let x = pos[a];
            // Where a's neighbours are, and next to there.
            candidates.clear();
            for &(c, _) in q.row(a) {
                let y = pos[c as usize];
                candidates.push(y);
                // (A hierarchy's leaves all neighbour each other: its
                // neighbours' nodes are candidates enough.)
                let list = near.entry(y).or_insert_with(|| {
                    match dist.host().degree(y) <= MAX_HOST_DEGREE {
                        true => dist.host().neighbors(y),
                        false => Vec::new(),
                    }
                });
                candidates.extend_from_slice(list);
            }
            candidates.sort_unstable();
            candidates.dedup();
            // Σ volume × (distance from `from` − distance from `to`) over
            // part k's edges, the one to part `other` left out (a swap keeps
            // the distance between the two it exchanges).
            let cost = |k: Option<usize>, from: u64, to: u64, other: Option<usize>| -> i128 {
                let Some(k) = k else {
                    return 0;
                };
                // (Rows: a dense quotient, an FFT butterfly's, reads
                // hundreds of distances per candidate.)
                let (from, to) = (dist.row(from), dist.row(to));
                q.row(k)
                    .iter()
                    .filter(|&&(c, _)| Some(c as usize) != other)
                    .map(|&(c, w)| {
                        let hc = pos[c as usize];
                        i128::from(w) * (i128::from(from.d(hc)) - i128::from(to.d(hc)))
                    })
                    .sum()
            };
            let mut best: (i128, u64) = (0, x);
            for &y in candidates.iter().filter(|&&y| y != x) {
                let b = q.number(at.get(&y).copied().unwrap_or(y));
                let gain = cost(Some(a), x, y, b) + cost(b, y, x, Some(a));
                if gain > best.0 {
                    best = (gain, y);
                }
            }
            let (gain, y) = best;
            if gain > 0 {
                let b_name = at.get(&y).copied().unwrap_or(y);
                if let Some(b) = q.number(b_name) {
                    pos[b] = x;
                }
                pos[a] = y;
                at.insert(y, q.parts[a]);
                at.insert(x, b_name);
                pass_gain += gain as u128;
            }
        }
        gained += pass_gain;
        if pass_gain == 0 {
            break;
        }
    }
    // Where each node's starting contents went.
    let mut to: FxHashMap<u64, u64> = FxHashMap::default();
    for (&node, &name) in &at {
        to.insert(name, node);
    }
    for h in place.iter_mut() {
        *h = to.get(h).copied().unwrap_or(*h);
    }
    gained
}

/// The placement's quotient graph: one vertex per host node with a cut
/// edge (its *part*), numbered in the order of the nodes, and the volume
/// cut between every two.
struct Quotient {
    /// The host node naming each part, ascending.
    parts: Vec<u64>,
    /// Part of each naming host node.
    numbers: FxHashMap<u64, u32>,
    /// Part k's neighbours and volumes: `adj[xadj[k]..xadj[k + 1]]`.
    xadj: Vec<usize>,
    adj: Vec<(u32, u64)>,
}

impl Quotient {
    fn new(g: &WGraph, place: &[u64]) -> Quotient {
        let mut rows: FxHashMap<u64, FxHashMap<u64, u64>> = FxHashMap::default();
        for v in 0..g.n() {
            for (u, w) in g.edges(v) {
                let (a, b) = (place[v], place[u]);
                if a != b {
                    *rows.entry(a).or_default().entry(b).or_default() += w;
                }
            }
        }
        let mut parts: Vec<u64> = rows.keys().copied().collect();
        parts.sort_unstable();
        let numbers: FxHashMap<u64, u32> = parts
            .iter()
            .enumerate()
            .map(|(k, &a)| (a, k as u32))
            .collect();
        let (mut xadj, mut adj) = (vec![0], Vec::new());
        for a in &parts {
            adj.extend(rows[a].iter().map(|(b, &w)| (numbers[b], w)));
            xadj.push(adj.len());
        }
        Quotient {
            parts,
            numbers,
            xadj,
            adj,
        }
    }

    /// Part k's (neighbour, volume) pairs.
    fn row(&self, k: usize) -> &[(u32, u64)] {
        &self.adj[self.xadj[k]..self.xadj[k + 1]]
    }

    /// The number of the part named `name` (none: it has no cut edge).
    fn number(&self, name: u64) -> Option<usize> {
        self.numbers.get(&name).map(|&k| k as usize)
    }
}
