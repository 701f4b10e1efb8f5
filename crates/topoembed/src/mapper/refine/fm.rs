//! Fiduccia–Mattheyses refinement of a bipartition (Fiduccia & Mattheyses
//! 1982), with the mapping costs of dual recursive bipartitioning (Pellegrini,
//! Scotch): moving v from side s to s' changes the cost by
//! `ext[v][s'] − ext[v][s] + d12 · (volume to s − volume to s')`, where
//! d12 is the distance between the two host halves. Passes move every
//! vertex at most once, best gain first, negative gains allowed, and keep the
//! best prefix (in balance first, then cheapest).

use std::cmp::Reverse;

use super::queue::{gain_bits, gain_of_bits, VertexHeap};
use crate::mapper::coarsen::Bip;

/// Fewest moves without a new best before a pass gives up (n / 50 on
/// larger graphs). Most of the bisections' passes are on small graphs,
/// where this floor decides: on delaunay_n15 into 256 parts 92 % of the
/// moves made were undone at 64. Benchmark (2026-12-03, the 38 pairs of
/// `bench/mapper.sh`, one thread, each pair run with both builds in turn,
/// seeds 1–4, CPU seconds): 16 against 64 −6.8 % time (46.2 / 46.8 / 44.7
/// / 45.2 s against 49.7 / 50.2 / 47.9 / 49.2 s), hop-bytes 0.8013x
/// Scotch's on average over the seeds against 0.8023x (per seed 0.7980,
/// 0.8050, 0.8049, 0.7974 against 0.7998, 0.8065, 0.8005, 0.8025); 8
/// +0.2 % hop-bytes for 1–2 % less time; 16 with n / 200 above it +0.9 %.
const PATIENCE: usize = 16;

/// Moves without a new best before a pass of FM on `n` vertices gives up.
fn patience(n: usize) -> usize {
    PATIENCE.max(n / 50)
}

/// Load bounds on side 0, and the cost of a unit of cut volume.
#[derive(Debug, Clone, Copy)]
pub struct Balance {
    /// Least load side 0 may hold.
    pub lo: u64,
    /// Most load side 0 may hold.
    pub hi: u64,
    /// Distance between the two halves.
    pub d12: u64,
}

impl Balance {
    /// How far `load0` is outside the bounds (0 inside).
    pub fn excess(&self, load0: u64) -> u64 {
        self.lo.saturating_sub(load0) + load0.saturating_sub(self.hi)
    }
}

/// The cost of a bipartition: d12 × cut volume + external costs.
///
/// Every entry is summed, each cut edge twice (both its directions carry
/// its volume), without a branch: which edges are cut is unpredictable.
/// The bisections' tries and the coarsest level's starts are judged by it:
/// with a branch per entry 4.1–5.2 % of delaunay_n15's map onto
/// tleaf:4x8x8:100,10,1 (one thread, `perf record`), now 2.3–2.7 %.
pub fn cost(b: &Bip, side: &[u8], d12: u64) -> u128 {
    let (mut ext, mut twice_cut) = (0u128, 0u128);
    for v in 0..b.g.n() {
        ext += u128::from(b.ext[v][side[v] as usize]);
        for (u, w) in b.g.edges(v) {
            // All ones where u lies across (the sides are 0 and 1).
            let across = u64::from(side[u] ^ side[v]).wrapping_neg();
            twice_cut += u128::from(w & across);
        }
    }
    ext + twice_cut / 2 * u128::from(d12)
}

/// Gain of moving v to the other side, and whether v has an edge to it.
#[inline]
fn gain_and_border(b: &Bip, side: &[u8], d12: u64, v: usize) -> (i128, bool) {
    let s = side[v] as usize;
    let (mut all, mut other) = (0u128, 0u128);
    for (u, w) in b.g.edges(v) {
        // No branch (which neighbours lie across is unpredictable): the
        // sides are 0 and 1, so `across` is all ones or all zeros.
        let across = u64::from(side[u] ^ side[v]).wrapping_neg();
        all += u128::from(w);
        other += u128::from(w & across);
    }
    let same = all - other;
    let gain = i128::from(b.ext[v][s]) - i128::from(b.ext[v][1 - s])
        + (other as i128 - same as i128) * i128::from(d12);
    (gain, other > 0)
}

/// Refines `side` in place by FM passes until a pass gains nothing.
///
/// Only the border is touched after the first scan: a pass starts from
/// the vertices with an edge to the other side or a side preferred from
/// outside (the first pass finds them in one sweep, later passes keep the
/// last border and add what the kept moves touched), and a vertex's gain
/// is computed when it is first needed in a pass, then kept up to date
/// move by move (O(degree) per move). The heap orders moves by (gain,
/// vertex), so the moves made are those of a full sweep; it holds each
/// vertex once, its key changed in place ([`VertexHeap`]).
pub fn refine(b: &Bip, side: &mut [u8], bal: Balance, max_passes: usize) {
    refine_from(b, side, bal, max_passes, None);
}

/// [`refine`] whose first pass scans `first` alone (ascending; it must
/// hold every vertex with an edge to the other side or a side preferred
/// from outside — the border a coarser level's cut projects onto a finer
/// one, [`border_below`]) instead of every vertex: the same moves, without
/// a gain computed for each vertex inside a side.
pub fn refine_from(
    b: &Bip,
    side: &mut [u8],
    bal: Balance,
    max_passes: usize,
    first: Option<Vec<u32>>,
) {
    if b.g.n() < 2 {
        return;
    }
    match gains_fit_i64(b, bal.d12) {
        true => passes::<i64>(b, side, bal, max_passes, first),
        false => passes::<i128>(b, side, bal, max_passes, first),
    }
}

/// Whether every gain, and every sum of a pass's gains, fits an i64 (with
/// room to spare): a pass moves each vertex once, and a move gains at most
/// its larger external cost plus its volume × d12, so Σ over the vertices
/// bounds them all. Gains in 64 bits halve the heap's entries (32 → 16
/// bytes with the vertex) and the gain array; the moves are the same.
fn gains_fit_i64(b: &Bip, d12: u64) -> bool {
    let ext: u128 = b.ext.iter().map(|e| u128::from(e[0].max(e[1]))).sum();
    let volume: u128 = b.g.ew.iter().map(|&w| u128::from(w)).sum();
    ext.saturating_add(volume.saturating_mul(u128::from(d12))) < 1 << 61
}

/// The gains' integer type: i64 where [`gains_fit_i64`], else i128.
trait Gain:
    Copy
    + Ord
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::AddAssign
    + std::ops::Mul<Output = Self>
    + std::ops::Neg<Output = Self>
{
    /// A queued vertex's key: its gain, then the lower vertex first.
    type Key: Ord + Copy;
    /// `x` in this type (in range by [`gains_fit_i64`]).
    fn of(x: i128) -> Self;
    /// Vertex v queued at gain `self`.
    fn key(self, v: u32) -> Self::Key;
    /// The gain a key was made of.
    fn of_key(key: Self::Key) -> Self;
}

impl Gain for i64 {
    /// The gain in the high 64 bits, its sign bit flipped (the unsigned
    /// order is the signed one), and the vertex's complement below: one
    /// comparison per step of the heap, the tuple's order, so the same
    /// moves. Benchmark (one thread, medians of 5 runs interleaved with
    /// the tuple's): copter2 onto torus:8x8x4 1.17 → 1.12 s, butterfly_12
    /// onto tleaf:4x8x8:100,10,1 0.74 → 0.72 s, delaunay_n15 onto it
    /// 0.52 s either way.
    type Key = u128;

    #[inline]
    fn of(x: i128) -> i64 {
        x as i64
    }

    #[inline]
    fn key(self, v: u32) -> u128 {
        u128::from(gain_bits(self)) << 64 | u128::from(!v)
    }

    #[inline]
    fn of_key(key: u128) -> i64 {
        gain_of_bits((key >> 64) as u64)
    }
}

impl Gain for i128 {
    type Key = (i128, Reverse<u32>);

    #[inline]
    fn of(x: i128) -> i128 {
        x
    }

    #[inline]
    fn key(self, v: u32) -> (i128, Reverse<u32>) {
        (self, Reverse(v))
    }

    #[inline]
    fn of_key(key: (i128, Reverse<u32>)) -> i128 {
        key.0
    }
}

/// [`refine_from`]'s passes with gains in `G`.
fn passes<G: Gain>(
    b: &Bip,
    side: &mut [u8],
    bal: Balance,
    max_passes: usize,
    first: Option<Vec<u32>>,
) {
    let n = b.g.n();
    let twice_d12 = G::of(2 * i128::from(bal.d12));
    let mut load0 = b.load0(side);
    let total = b.g.total_load();
    // Give up a pass after this many moves without a new best.
    let patience = patience(n);
    // Moves may leave the bounds by one vertex on the way (with exact bounds
    // no single move would be allowed); the best prefix kept is in bounds.
    let slack = b.g.vw.iter().copied().max().unwrap_or(1);
    // The pass in which a vertex was locked, its gain computed, or it was
    // listed as a candidate for the next pass's border.
    let mut locked = vec![0u32; n];
    let mut known = vec![0u32; n];
    let mut listed = vec![0u32; n];
    let mut gains = vec![G::default(); n];
    let mut candidates: Vec<u32> = first.unwrap_or_else(|| (0..n as u32).collect());
    let mut heap: VertexHeap<G::Key> = VertexHeap::new(n);
    for pass in 1..=max_passes as u32 {
        heap.clear();
        let mut border = Vec::with_capacity(candidates.len());
        for &v in &candidates {
            let (g, cut) = gain_and_border(b, side, bal.d12, v as usize);
            let g = G::of(g);
            gains[v as usize] = g;
            known[v as usize] = pass;
            if cut || b.ext[v as usize][0] != b.ext[v as usize][1] {
                heap.set(v, g.key(v));
                border.push(v);
            }
        }
        let mut moves: Vec<usize> = Vec::new();
        let start = (bal.excess(load0), G::default());
        let (mut best, mut best_len, mut run) = (start, 0usize, G::default());
        let mut since_best = 0;
        // Locked vertices are never queued: every vertex popped is free.
        while let Some((key, v)) = heap.pop() {
            let (g, v) = (G::of_key(key), v as usize);
            let w = b.g.vw[v];
            let new0 = if side[v] == 0 { load0 - w } else { load0 + w };
            // Within a vertex of the bounds, or closer to them than now.
            if bal.excess(new0) > bal.excess(load0).max(slack) {
                continue;
            }
            side[v] ^= 1;
            locked[v] = pass;
            load0 = new0;
            run += g;
            moves.push(v);
            let state = (bal.excess(load0), -run);
            if state < best {
                best = state;
                best_len = moves.len();
                since_best = 0;
            } else {
                since_best += 1;
                if since_best > patience {
                    break;
                }
            }
            // v left side s for s': a neighbour on s' now gains less by
            // leaving, one on s more (2 × volume × d12 either way); a
            // neighbour first met now has its gain computed after the move.
            gains[v] = -gains[v];
            for (u, w) in b.g.edges(v) {
                if known[u] == pass {
                    let delta = G::of(i128::from(w)) * twice_d12;
                    gains[u] += if side[u] == side[v] { -delta } else { delta };
                } else {
                    gains[u] = G::of(gain_and_border(b, side, bal.d12, u).0);
                    known[u] = pass;
                }
                if locked[u] != pass {
                    heap.set(u as u32, gains[u].key(u as u32));
                }
            }
        }
        // Undo past the best prefix (gains are recomputed next pass).
        for &v in &moves[best_len..] {
            side[v] ^= 1;
            let w = b.g.vw[v];
            load0 = if side[v] == 0 { load0 + w } else { load0 - w };
        }
        if best >= start {
            break;
        }
        // The next border lies within this one and the kept moves' reach.
        candidates.clear();
        let mut add = |v: usize, candidates: &mut Vec<u32>| {
            if listed[v] != pass {
                listed[v] = pass;
                candidates.push(v as u32);
            }
        };
        for &v in &border {
            add(v as usize, &mut candidates);
        }
        for &v in &moves[..best_len] {
            add(v, &mut candidates);
            for (u, _) in b.g.edges(v) {
                add(u, &mut candidates);
            }
        }
        // A full sweep visits vertices in index order; so does the border.
        candidates.sort_unstable();
    }
    debug_assert!(load0 <= total);
}

/// The vertices of `finer` (ascending) that may lie on the border once
/// `coarse_side`, a bipartition of `coarse` (its vertex `map[v]` holding
/// v), is projected onto it: those of a coarse vertex with an edge to the
/// other side, and those preferring a side from outside. A finer vertex
/// with a neighbour across the cut sits in a coarse vertex that has one
/// (their coarse vertices differ, and contraction keeps the edge), so
/// every border vertex is among them.
pub fn border_below(finer: &Bip, coarse: &Bip, map: &[u32], coarse_side: &[u8]) -> Vec<u32> {
    let on_cut: Vec<bool> = (0..coarse.g.n())
        .map(|c| {
            coarse
                .g
                .edges(c)
                .any(|(d, _)| coarse_side[d] != coarse_side[c])
        })
        .collect();
    (0..finer.g.n())
        .filter(|&v| on_cut[map[v] as usize] || finer.ext[v][0] != finer.ext[v][1])
        .map(|v| v as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::coarsen::tests::bip;
    use proptest::prelude::*;
    use std::collections::BinaryHeap;

    /// The plain FM: every gain computed by a full sweep at the start of
    /// each pass (what [`refine`] must reproduce move for move).
    fn full_sweep(b: &Bip, side: &mut [u8], bal: Balance, max_passes: usize) {
        let n = b.g.n();
        let mut load0 = b.load0(side);
        let patience = patience(n);
        let slack = b.g.vw.iter().copied().max().unwrap_or(1);
        for _ in 0..max_passes {
            let mut gains: Vec<i128> = (0..n)
                .map(|v| gain_and_border(b, side, bal.d12, v).0)
                .collect();
            let mut stamp = vec![0u32; n];
            let mut locked = vec![false; n];
            let mut heap = BinaryHeap::new();
            for (v, &gain) in gains.iter().enumerate() {
                if gain_and_border(b, side, bal.d12, v).1 || b.ext[v][0] != b.ext[v][1] {
                    heap.push((gain, Reverse(v), 0u32));
                }
            }
            let mut moves = Vec::new();
            let start = (bal.excess(load0), 0i128);
            let (mut best, mut best_len, mut run, mut since) = (start, 0, 0i128, 0);
            while let Some((g, Reverse(v), st)) = heap.pop() {
                if locked[v] || st != stamp[v] {
                    continue;
                }
                let w = b.g.vw[v];
                let new0 = if side[v] == 0 { load0 - w } else { load0 + w };
                if bal.excess(new0) > bal.excess(load0).max(slack) {
                    continue;
                }
                side[v] ^= 1;
                locked[v] = true;
                load0 = new0;
                run += g;
                moves.push(v);
                if (bal.excess(load0), -run) < best {
                    (best, best_len, since) = ((bal.excess(load0), -run), moves.len(), 0);
                } else {
                    since += 1;
                    if since > patience {
                        break;
                    }
                }
                gains[v] = -gains[v];
                for (u, w) in b.g.edges(v) {
                    let delta = 2 * i128::from(w) * i128::from(bal.d12);
                    gains[u] += if side[u] == side[v] { -delta } else { delta };
                    if !locked[u] {
                        stamp[u] += 1;
                        heap.push((gains[u], Reverse(u), stamp[u]));
                    }
                }
            }
            for &v in &moves[best_len..] {
                side[v] ^= 1;
                let w = b.g.vw[v];
                load0 = if side[v] == 0 { load0 + w } else { load0 - w };
            }
            if best >= start {
                break;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Border-only passes with gains computed on first use make the
        /// moves of full sweeps (in i128), with gains in i64 and in i128,
        /// and never raise the cost; so does a first
        /// pass over the border a coarser level's cut projects (the
        /// coarse graph a matching of the fine one, its sides random).
        #[test]
        fn border_passes_equal_full_sweeps(
            n in 2usize..80,
            extra in prop::collection::vec((0usize..80, 0usize..80, 1u64..6), 0..160),
            loads in prop::collection::vec(1u64..4, 1..8),
            ext in prop::collection::vec([0u64..20, 0u64..20], 1..8),
            sides in prop::collection::vec(0u8..2, 80),
            d12 in 1u64..5,
            eps in 0u64..20,
            passes in 1usize..8,
            seed in 0u64..1000,
            wide in any::<bool>(),
        ) {
            // Wide: 2^62 more external cost on both sides of every vertex,
            // the same moves, with gains summed in i128.
            let lift = if wide { 1u64 << 62 } else { 0 };
            let ext: Vec<[u64; 2]> = ext.iter().map(|e| [e[0] + lift, e[1] + lift]).collect();
            let b = bip(n, &extra, &loads, &ext);
            prop_assert_eq!(gains_fit_i64(&b, d12), !wide);
            let total = b.g.total_load();
            let target = total / 2;
            let bal = Balance { lo: target.saturating_sub(eps), hi: (target + eps).min(total), d12 };
            let mut fast = sides[..n].to_vec();
            let mut plain = fast.clone();
            let before = (bal.excess(b.load0(&fast)), cost(&b, &fast, d12));
            refine(&b, &mut fast, bal, passes);
            full_sweep(&b, &mut plain, bal, passes);
            prop_assert_eq!(&fast, &plain);
            prop_assert!((bal.excess(b.load0(&fast)), cost(&b, &fast, d12)) <= before);

            let mut rng = crate::mapper::rng::Rng::new(seed, 0);
            let (coarse, map) = crate::mapper::coarsen::coarsen(&b, u64::MAX, None, &mut rng);
            let coarse_side = &sides[..coarse.g.n()];
            let first = border_below(&b, &coarse, &map, coarse_side);
            let mut fast: Vec<u8> = map.iter().map(|&c| coarse_side[c as usize]).collect();
            let mut plain = fast.clone();
            refine_from(&b, &mut fast, bal, passes, Some(first));
            full_sweep(&b, &mut plain, bal, passes);
            prop_assert_eq!(&fast, &plain);
        }
    }
}
