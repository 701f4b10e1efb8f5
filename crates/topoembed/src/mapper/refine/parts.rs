//! Swapping whole parts: the placement's quotient graph (one node per host
//! node, edge volumes summed) laid out again by pairwise exchange, as in
//! Brandfass, Alrutz & Gerhold's rank reordering and Schulz & Träff's
//! sparse-QAP swap neighbourhood. The contents of two host nodes trade
//! places when that lowers Σ volume × distance over the quotient's edges;
//! every host node keeps its load, so the capacity still holds. Dual
//! recursive bipartitioning fixes where parts go one split at a time; this
//! undoes its worst guesses afterwards at the cost of the quotient graph.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

/// Host nodes of more neighbours than this contribute only themselves as
/// candidates.
const MAX_HOST_DEGREE: u64 = 64;

/// A pass that gains at most 1/STOP_BELOW of the hop-bytes is the last.
const STOP_BELOW: u128 = 1000;

/// Swaps whole host nodes' contents of `place` while that gains, at most
/// `passes` passes over the parts, stopping once a pass gains at most
/// 0.1 % of the quotient's hop-bytes (as local search does, [`super::local`]);
/// returns the hop-bytes gained.
///
/// The rule matters on large quotients only. delaunay_n15's 32 768
/// vertices one per node of torus:32x32x32 (2026-12-04, one thread): the
/// passes after the annealing gained 1 327, 210, 68, 7 and 0 of 193 107
/// hop-bytes at about 0.2 s each; the rule stops after the third. The
/// quotients of 256–4 096 parts of `bench/mapper.sh` gain 0–1 after their
/// first pass.
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
    let mut current = crate::mapper::hop_bytes(g, dist, place);
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
        current -= pass_gain.min(current);
        if pass_gain * STOP_BELOW <= current {
            break;
        }
    }
    // Where each node's starting contents went.
    let mut to: FxHashMap<u64, u64> = FxHashMap::default();
    for (&node, &name) in &at {
        to.insert(name, node);
    }
    if !to.is_empty() {
        place
            .par_iter_mut()
            .with_min_len(1 << 12)
            .for_each(|h| *h = to.get(h).copied().unwrap_or(*h));
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

/// Vertices per chunk of [`Quotient::new`]'s parallel listing.
const QUOTIENT_CHUNK: usize = 1 << 14;

/// `cut` (host node, host node, volume) sorted by its two nodes, the
/// volumes of each pair summed into one entry.
fn summed(cut: &mut Vec<(u64, u64, u64)>) {
    cut.par_sort_unstable_by_key(|&(a, b, _)| (a, b));
    cut.dedup_by(|later, kept| {
        let same = (later.0, later.1) == (kept.0, kept.1);
        if same {
            kept.2 += later.2;
        }
        same
    });
}

impl Quotient {
    /// The cut edges are listed in parallel, chunk by chunk, each chunk's
    /// list sorted by the two host nodes and summed run by run (so it holds
    /// at most one entry per pair of nodes, whatever the cut), then the
    /// lists joined and summed again. One hash map entry per cut edge, on
    /// one thread, was 55 ms of the shuffled 10^6-vertex stencil's map
    /// with the other thread idle.
    fn new(g: &WGraph, place: &[u64]) -> Quotient {
        let mut cut: Vec<(u64, u64, u64)> = (0..g.n().div_ceil(QUOTIENT_CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let first = chunk * QUOTIENT_CHUNK;
                let mut cut = Vec::new();
                for v in first..(first + QUOTIENT_CHUNK).min(g.n()) {
                    let a = place[v];
                    cut.extend(
                        g.edges(v)
                            .filter(|&(u, _)| place[u] != a)
                            .map(|(u, w)| (a, place[u], w)),
                    );
                }
                summed(&mut cut);
                cut
            })
            .collect();
        summed(&mut cut);
        let mut parts: Vec<u64> = cut.iter().map(|&(a, _, _)| a).collect();
        parts.dedup();
        let numbers: FxHashMap<u64, u32> = parts
            .iter()
            .enumerate()
            .map(|(k, &a)| (a, k as u32))
            .collect();
        let mut xadj = vec![0];
        let adj: Vec<(u32, u64)> = cut.iter().map(|&(_, b, w)| (numbers[&b], w)).collect();
        for (i, pair) in cut.windows(2).enumerate() {
            if pair[0].0 != pair[1].0 {
                xadj.push(i + 1);
            }
        }
        if !cut.is_empty() {
            xadj.push(cut.len());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The quotient is the cut counted edge by edge: its parts are the
        /// host nodes with a cut edge, ascending, and each row holds every
        /// other part it cuts to, once, with the volume summed over the
        /// edges between them — the same on one thread and on three.
        #[test]
        fn the_quotient_sums_the_cut_between_every_two_nodes(
            // (Above 128 the mesh spans two chunks of the listing.)
            side in prop_oneof![8usize..40, 130usize..160],
            nodes in 2u64..12,
            seed in 0u64..1000,
        ) {
            let mesh = topology::parse(&format!("mesh:{side}x{side}")).unwrap();
            let mut g = WGraph::from_topology(mesh.as_ref()).unwrap();
            let mut rng = crate::mapper::rng::Rng::new(seed, 0);
            // Volumes of 1 to 5, the same both ways.
            for v in 0..g.n() {
                for i in g.xadj[v]..g.xadj[v + 1] {
                    let u = g.adj[i] as usize;
                    if u > v {
                        let w = 1 + rng.below(5) as u64;
                        g.ew[i] = w;
                        let back = (g.xadj[u]..g.xadj[u + 1])
                            .find(|&j| g.adj[j] as usize == v)
                            .unwrap();
                        g.ew[back] = w;
                    }
                }
            }
            let place: Vec<u64> = (0..g.n()).map(|_| rng.below(nodes as usize) as u64).collect();
            let mut cut = std::collections::BTreeMap::<(u64, u64), u64>::new();
            for v in 0..g.n() {
                for (u, w) in g.edges(v) {
                    if place[u] != place[v] {
                        *cut.entry((place[v], place[u])).or_default() += w;
                    }
                }
            }
            for threads in [1, 3] {
                let q = crate::mapper::on_threads(threads, || Quotient::new(&g, &place));
                let mut parts: Vec<u64> = cut.keys().map(|&(a, _)| a).collect();
                parts.dedup();
                prop_assert_eq!(&q.parts, &parts);
                let mut counted = std::collections::BTreeMap::new();
                for (k, &a) in q.parts.iter().enumerate() {
                    prop_assert_eq!(q.number(a), Some(k));
                    for &(b, w) in q.row(k) {
                        let b = q.parts[b as usize];
                        prop_assert!(counted.insert((a, b), w).is_none(), "{a} -> {b} twice");
                    }
                }
                prop_assert_eq!(&counted, &cut);
            }
        }
    }
}
