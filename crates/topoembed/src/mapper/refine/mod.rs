//! Local search phases of the mapper, one file per neighbourhood.

pub mod anneal;
pub mod balance;
mod best;
pub mod congestion;
mod cost_table;
pub mod flow;
pub mod fm;
pub mod kway;
pub mod local;
pub mod pairs;
pub mod parts;
mod queue;
pub mod tree;
pub mod vcycle;

use rayon::prelude::*;

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;

/// The hop-bytes of the placement a refinement is handed, where its caller
/// knows them: the start of the phase before less the gain it returned
/// (every phase returns its exact gain), or a coarser level's (projecting a
/// placement onto a finer level keeps them: a coarse vertex's own edges
/// join vertices on one host node). `None`: summed again. Each phase and
/// each level of a V-cycle summed them over every edge anew — on mdual onto
/// torus:8x8x8 44 ms of a 2.3 s map on one thread.
pub type Known = Option<u128>;

/// The hop-bytes of `place`: `known` where given (checked in debug builds),
/// else summed over every edge.
fn start_hop_bytes(g: &WGraph, dist: &HostDistance, place: &[u64], known: Known) -> u128 {
    let current = known.unwrap_or_else(|| crate::mapper::hop_bytes(g, dist, place));
    debug_assert_eq!(
        current,
        crate::mapper::hop_bytes(g, dist, place),
        "the hop-bytes a refinement is handed"
    );
    current
}

/// Graphs up to this many vertices are refined one vertex (one search) at a
/// time: the sequential local search and FM exactly, where moves of one
/// batch would often meet (a V-cycle's coarse levels), and where the
/// other phases' parallel loops (the flat partition's splits, the
/// annealing's racing chains, pairwise refinement) or a second search
/// take the other threads.
const ONE_AT_A_TIME: usize = crate::mapper::LARGE_GUEST;
/// Above [`ONE_AT_A_TIME`], a batch holds one vertex or search per this
/// many vertices of the level refined, up to [`MAX_BATCH`]. Every batch
/// ends in a wait for its slowest search and a serial commit: with one
/// per 512 vertices mdual's coarse levels (11 211 vertices: 1 528 batches
/// of 21 searches) ran slower on two threads than on one, and the whole
/// map on two threads was 1.62x faster than on one (wall time, medians of
/// 5, 2 cores). One per 256: 1.67–1.78x over three such sets, for +0.2 %
/// hop-bytes on mdual (the mean of 15 runs onto 5 hosts, seeds 1–3:
/// −1.4 % to +1.05 %); the 10^6-vertex stencil, at [`MAX_BATCH`] either
/// way, unchanged. One per 128 (2026-12-03): the time one thread of two
/// ran alone on mdual onto torus:16x16 0.52 → 0.37 s of a 4.5 s run
/// (`perf record`, 5 ms windows; at the V-cycle's coarse levels a
/// batch's wait for its slowest search), the two-thread time −5 % over
/// 12 runs (mdual onto torus:16x16, 8x8x8, 8x8x4 and 32x16, seeds 1–3),
/// hop-bytes +0.2 % on average (−0.4 to +0.7 %; onto tleaf:4x8x8 +0.09
/// and 0.00 %), the stencil the same; one per 64: +0.6 %.
const VERTICES_PER_STEP: usize = 128;
/// Most vertices or searches of one batch (mdual, 2.6·10^5 vertices: 1010;
/// the 10^6-vertex stencil: 1024): they start far apart, so a batch costs
/// little quality, and a large one wakes the pool's threads less often.
const MAX_BATCH: usize = 1024;

/// Vertices (local search) or searches (k-way FM) weighed at once, on the
/// placement as their batch found it, at a level of `level` vertices of a
/// guest of `guest` vertices (a V-cycle's coarse levels are batched when
/// the guest is): fixed by the sizes alone, so every thread count takes
/// the same steps.
pub fn batch_size(guest: usize, level: usize) -> usize {
    match guest {
        0..=ONE_AT_A_TIME => 1,
        _ => (level / VERTICES_PER_STEP).clamp(1, MAX_BATCH),
    }
}

/// Whether vertex `v` has a neighbour on another host node than its own:
/// only such a vertex has a move or a swap to rate.
#[inline]
fn on_border(g: &WGraph, place: &[u64], v: usize) -> bool {
    g.edges(v).any(|(u, _)| place[u] != place[v])
}

/// [`on_border`] of every vertex, on the thread pool.
fn border_flags(g: &WGraph, place: &[u64]) -> Vec<bool> {
    (0..g.n())
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|v| on_border(g, place, v))
        .collect()
}

/// Vertex `v` has just moved: its flag and its neighbours' ([`on_border`])
/// read again, the only ones its move can change.
fn refresh_border(g: &WGraph, place: &[u64], border: &mut [bool], v: usize) {
    border[v] = on_border(g, place, v);
    for (u, _) in g.edges(v) {
        border[u] = on_border(g, place, u);
    }
}

/// A vertex's volume to each host node of its neighbours, summed in a
/// slot per host node instead of by a search of the nodes met so far (the
/// gains of [`kway`] and [`local`] read each node once): the search's
/// exit, a branch per edge, came at no predictable point. On copter2 onto
/// torus:8x8x4 (one thread) the map took 1.77 s with the search, 1.55 s
/// with the tally, the same placement. Hosts of more nodes than the caller
/// allows slots for are summed by the search.
struct Tally {
    /// The sum that last touched each host node ([`Tally::stamp`]; empty
    /// where the nodes are searched instead).
    mark: Vec<u32>,
    /// Each host node's volume in the sum under way (0 between sums; in
    /// 128 bits, as a vertex's edges may carry more than 64 bits of it).
    volume: Vec<u128>,
    /// The host nodes met, in the order first met (as long as the
    /// longest sum).
    met: Vec<u32>,
    /// (host node, volume) met so far where the nodes are searched.
    searched: Vec<(usize, u128)>,
    stamp: u32,
}

impl Tally {
    /// A tally for host nodes `0..p`, by slots where `p` is at most
    /// `most_slots`, else by the search.
    fn new(p: usize, most_slots: usize) -> Tally {
        let slots = if p <= most_slots { p } else { 0 };
        Tally {
            mark: vec![0; slots],
            volume: vec![0; slots],
            met: Vec::new(),
            searched: Vec::new(),
            stamp: 0,
        }
    }

    /// Sums the volumes of `edges` (host node below `p`, volume) per host
    /// node and hands each node's sum to `node`, in the order the edges
    /// first meet the nodes.
    fn sum(
        &mut self,
        edges: impl ExactSizeIterator<Item = (usize, u64)>,
        mut node: impl FnMut(usize, u128),
    ) {
        if self.mark.is_empty() {
            self.searched.clear();
            for (h, w) in edges {
                match self.searched.iter_mut().find(|(x, _)| *x == h) {
                    Some((_, sum)) => *sum += u128::from(w),
                    None => self.searched.push((h, u128::from(w))),
                }
            }
            for &(h, w) in &self.searched {
                node(h, w);
            }
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        if self.met.len() < edges.len() {
            self.met.resize(edges.len(), 0);
        }
        let mut met = 0;
        for (h, w) in edges {
            // No branch: the node is listed at `met` either way, and kept
            // there only when new.
            let new = self.mark[h] != self.stamp;
            self.mark[h] = self.stamp;
            self.volume[h] += u128::from(w);
            self.met[met] = h as u32;
            met += usize::from(new);
        }
        for &h in &self.met[..met] {
            node(h as usize, self.volume[h as usize]);
            self.volume[h as usize] = 0;
        }
    }
}

/// Every host node's load under `place`, indexed by node up to the highest
/// node placed (refinement moves vertices only to their neighbours' nodes,
/// all within it).
fn node_loads(g: &WGraph, place: &[u64]) -> Vec<u64> {
    let p = place.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut load = vec![0u64; p];
    for (v, &h) in place.iter().enumerate() {
        load[h as usize] += g.vw[v];
    }
    load
}

/// Bounds on a host node's load during refinement: no move takes a node
/// above `hi` (the capacity) or below `lo` (as far under the average as the
/// capacity is over it, so no node is drained empty — an MPI job's slots all
/// hold work — unless it started below).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Least load a node may be left with.
    pub lo: u64,
    /// Most load a node may take.
    pub hi: u64,
}

impl Capacity {
    /// Whether a node of load `load` may give away `out` and take `inn`.
    #[inline]
    pub fn allows(&self, load: u64, out: u64, inn: u64) -> bool {
        let after = load - out + inn;
        after <= self.hi.max(load.min(after)) && after >= self.lo.min(load.max(after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    /// What the tally replaced: a linear search of the nodes met so far.
    fn searched(edges: &[(usize, u64)]) -> Vec<(usize, u128)> {
        let mut around: Vec<(usize, u128)> = Vec::new();
        for &(h, w) in edges {
            match around.iter_mut().find(|(x, _)| *x == h) {
                Some((_, sum)) => *sum += u128::from(w),
                None => around.push((h, u128::from(w))),
            }
        }
        around
    }

    proptest! {
        /// Sum after sum on one tally (zero volumes and a stamp about to
        /// wrap among them), the same nodes in the same order with the same
        /// volumes as the search, by slots and searched.
        #[test]
        fn the_tally_sums_as_the_search_does(
            sums in prop::collection::vec(
                prop::collection::vec((0usize..12, prop_oneof![0u64..5, Just(u64::MAX)]), 0..40),
                1..8,
            ),
            stamp in prop_oneof![Just(0u32), Just(u32::MAX - 3)],
        ) {
            for most_slots in [12, 11] {
                let mut tally = Tally::new(12, most_slots);
                tally.stamp = stamp;
                for edges in &sums {
                    let mut got = Vec::new();
                    tally.sum(edges.iter().copied(), |h, w| got.push((h, w)));
                    prop_assert_eq!(got, searched(edges));
                    prop_assert!(tally.volume.iter().all(|&w| w == 0), "volumes left behind");
                }
            }
        }
    }
}
