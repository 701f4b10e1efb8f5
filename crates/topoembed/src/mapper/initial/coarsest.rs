//! The first bisection of a multilevel split, on its coarsest graph (a
//! few dozen vertices): grown from random seeds and from the vertices'
//! preferences, refined by FM, the best kept — by its own cost, or, for the
//! first split of a hierarchy whose halves split at the top level again
//! (a guest above `super::QUARTERED_ABOVE` vertices in which no grid was
//! found), by the four-way cut it leads to ([`quarters`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use crate::mapper::coarsen::Bip;
use crate::mapper::refine::fm::{self, Balance};
use crate::mapper::rng::Rng;

/// Grown bisections tried on the coarsest graph where each is judged by its
/// quarters ([`best_of`]; 6 elsewhere, `super::TRIES`): more draws find
/// one whose quarters cut little. 4elt onto tleaf:4x8x8 (2026-12-04, seeds
/// 1–8, against Scotch's 79 608 hop-bytes): judged by their own cut, four
/// of the eight placements above it (83 842 on seed 1); judged by quarters,
/// of the usual 6 two, of 16 one (81 434 on seed 5, 77 685 → 78 834 on seed
/// 1). Over the 8 tleaf:4x8x8:100,10,1 pairs of `bench/mapper.sh`, one
/// thread, seeds 1–6, against judging by their own cut: hop-bytes −0.07 %
/// in geometric mean (+0.29 % on seeds 1–3, −0.42 % on 4–6; pairs −9 % to
/// +10 %, rgg_n_2_15_s0 both ends: these placements are a draw), 3.5 %
/// more time; tleaf:4x6x8 with delaunay_n15, 4elt and rgg_n_2_15_s0,
/// seeds 4–6, −1.4 %; two fat trees with three graphs, seeds 1–3,
/// +0.3 %; dragonflies (no four-way look-ahead) and every torus, mesh and
/// cube, the same placements. Grids found in the guest keep their own cut's
/// judging: mesh:32x32x8 onto tleaf:4x8x8 lost 3–4 % on 4 of 6 seeds and
/// hosts judged by quarters (a box's least bisection, across its longest
/// axis, is the start of its least four-way cut).
const QUARTERED_TRIES: u64 = 16;

/// Bisections tried for each half of a coarsest bisection judged by its
/// quarters ([`quarters`]).
const QUARTER_TRIES: u64 = 4;

/// The best of one bisection by preference and `tries` grown ones of a
/// (coarsest) graph, each refined by `passes` FM passes — best by its own
/// cost, or where `quartered`, by the four-way cut it leads to
/// ([`quarters`], from [`QUARTERED_TRIES`] grown ones).
pub(super) fn best_of(
    b: &Bip,
    bal: Balance,
    target: u64,
    (tries, passes): (u64, usize),
    quartered: bool,
    rng: &mut Rng,
) -> Vec<u8> {
    let n = b.g.n();
    let mut best: Option<((u64, u128), Vec<u8>)> = None;
    // (Drawn only where judged so: every other bisection keeps its stream.)
    let mut glances = quartered.then(|| Rng::new(rng.next_u64(), 0));
    let tries = match quartered {
        true => QUARTERED_TRIES,
        false => tries,
    };
    let mut keep = |side: Vec<u8>| {
        let cost = match glances.as_mut() {
            Some(glances) => quarters(b, &side, (bal, target), passes, glances).0,
            None => fm::cost(b, &side, bal.d12),
        };
        let score = (bal.excess(b.load0(&side)), cost);
        if best.as_ref().map_or(true, |(s, _)| score < *s) {
            best = Some((score, side));
        }
    };
    // By preference alone: the vertices that most want side 0 first.
    let mut by_pull: Vec<usize> = (0..n).collect();
    by_pull.sort_by_key(|&v| (i128::from(b.ext[v][0]) - i128::from(b.ext[v][1]), v));
    let mut side = fill(b, &by_pull, target);
    fm::refine(b, &mut side, bal, passes);
    keep(side);
    // Tries run in parallel, each with a stream of its own: the same seed
    // gives the same result on any number of threads.
    let base = rng.next_u64();
    let grown: Vec<Vec<u8>> = (0..tries)
        .into_par_iter()
        .map(|t| {
            let mut rng = Rng::new(base, t);
            let mut side = grow(b, rng.below(n), target, bal.d12);
            fm::refine(b, &mut side, bal, passes);
            side
        })
        .collect();
    for side in grown {
        keep(side);
    }
    best.map(|(_, s)| s).unwrap_or_else(|| vec![0; n])
}

/// Side 0 = the first vertices of `order` up to `target` load.
fn fill(b: &Bip, order: &[usize], target: u64) -> Vec<u8> {
    let mut side = vec![1u8; b.g.n()];
    let mut load = 0;
    for &v in order {
        if load >= target {
            break;
        }
        side[v] = 0;
        load += b.g.vw[v];
    }
    side
}

/// Grows side 0 from `seed`, always taking the outside vertex whose move
/// costs least, until it holds `target` load (a disconnected graph restarts
/// from the cheapest vertex left).
fn grow(b: &Bip, seed: usize, target: u64, d12: u64) -> Vec<u8> {
    let n = b.g.n();
    let mut side = vec![1u8; n];
    let mut load = 0;
    // Benefit of moving v to side 0: ext saved + d12 × volume into side 0.
    let mut pull: Vec<i128> = b
        .ext
        .iter()
        .map(|e| i128::from(e[1]) - i128::from(e[0]))
        .collect();
    let mut heap: BinaryHeap<(i128, Reverse<usize>)> = BinaryHeap::new();
    heap.push((i128::MAX, Reverse(seed)));
    let mut rest: Vec<usize> = (0..n).collect();
    rest.sort_by_key(|&v| Reverse(pull[v]));
    let mut next_rest = 0;
    while load < target {
        let v = match heap.pop() {
            Some((p, Reverse(v))) if side[v] == 1 && (p == i128::MAX || p == pull[v]) => v,
            Some(_) => continue,
            None => {
                while next_rest < n && side[rest[next_rest]] == 0 {
                    next_rest += 1;
                }
                if next_rest == n {
                    break;
                }
                rest[next_rest]
            }
        };
        side[v] = 0;
        load += b.g.vw[v];
        for (u, w) in b.g.edges(v) {
            if side[u] == 1 {
                pull[u] += 2 * i128::from(w) * i128::from(d12);
                heap.push((pull[u], Reverse(u)));
            }
        }
    }
    side
}

/// A coarsest bisection `side` judged by the four-way cut it leads to: its
/// own cost (cut × d12 and external costs) plus, for each side, the cut ×
/// d12 of the best of [`QUARTER_TRIES`] bisections of the graph that side
/// induces into halves of its load, within half the split's room. The
/// quarters of a top-level split are all at the top-level distance from
/// each other, so an edge leaving a side costs the same whichever quarter
/// it reaches, and the halves are split without external costs.
///
/// Why: the look-ahead above ([`super::look_ahead`]) judges whole tries
/// by their quarters, but each try was the best bisection by its own cut,
/// and the least cut is a poor start for four parts. On 4elt (7 434
/// vertices) onto tleaf:4x8x8 forty tries' least bisection cut 166 edges
/// and led to quarters cutting 428–550, where bisections cutting 200–207
/// led to 374–382 (Scotch's: 383); judged by their own cut, the tries
/// found such a start in about one of seven.
///
/// Returns the cost and the quarters it counts: vertex v's quarter is
/// 2 × side[v] + its side in its half's split.
fn quarters(
    b: &Bip,
    side: &[u8],
    (bal, target): (Balance, u64),
    passes: usize,
    rng: &mut Rng,
) -> (u128, Vec<u8>) {
    let room = bal.hi.saturating_sub(target) / 2;
    let mut cost = fm::cost(b, side, bal.d12);
    let mut quarter: Vec<u8> = side.iter().map(|&s| 2 * s).collect();
    for s in 0..2u8 {
        let (half, verts) = induced_side(b, side, s);
        if half.g.n() < 2 {
            continue;
        }
        let t = half.g.total_load() / 2;
        let hb = Balance {
            lo: t.saturating_sub(room),
            hi: t + room,
            d12: bal.d12,
        };
        let split = best_of(&half, hb, t, (QUARTER_TRIES, passes), false, rng);
        cost += fm::cost(&half, &split, bal.d12);
        for (&v, &k) in verts.iter().zip(&split) {
            quarter[v as usize] += k;
        }
    }
    (cost, quarter)
}

/// The graph side `s` of `side` induces, without external costs, and the
/// vertex of `b` behind each of its vertices.
fn induced_side(b: &Bip, side: &[u8], s: u8) -> (Bip, Vec<u32>) {
    let verts: Vec<u32> = (0..b.g.n() as u32)
        .filter(|&v| side[v as usize] == s)
        .collect();
    let mut index = vec![u32::MAX; b.g.n()];
    for (k, &v) in verts.iter().enumerate() {
        index[v as usize] = k as u32;
    }
    let inside = |u: usize| (index[u] != u32::MAX).then_some(index[u]);
    (Bip::induced(&b.g, &verts, inside, |_| [0, 0]), verts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::coarsen::tests::bip;
    use crate::mapper::rng::Rng;
    use proptest::prelude::*;

    /// The least cut × d12 of a bisection of `b` (at most 14 vertices)
    /// with side 0's load within `bal`, by trying every subset; `None`
    /// where none is within it.
    fn least_balanced_cut(b: &Bip, bal: Balance) -> Option<u128> {
        let n = b.g.n();
        (0u32..1 << n)
            .filter_map(|mask| {
                let side: Vec<u8> = (0..n).map(|v| ((mask >> v) & 1) as u8 ^ 1).collect();
                let load0 = b.load0(&side);
                (load0 >= bal.lo && load0 <= bal.hi).then(|| {
                    let cut: u128 = (0..n)
                        .flat_map(|v| b.g.edges(v).map(move |(u, w)| (v, u, w)))
                        .filter(|&(v, u, _)| u > v && side[u] != side[v])
                        .map(|(_, _, w)| u128::from(w))
                        .sum();
                    cut * u128::from(bal.d12)
                })
            })
            .min()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A bisection judged by its quarters costs what its four-way
        /// partition does, counted independently: its own external costs,
        /// and d12 for every unit of volume between two quarters (the
        /// quarters are equidistant); each quarter lies in its side. Each
        /// half's split costs at least the least balanced one found by
        /// trying every subset, where the split is itself balanced.
        #[test]
        fn quarters_cost_their_four_way_cut(
            n in 4usize..24,
            extra in prop::collection::vec((0usize..24, 0usize..24, 1u64..9), 0..60),
            loads in prop::collection::vec(1u64..4, 1..5),
            ext in prop::collection::vec((0u64..20, 0u64..20), 1..5),
            d12 in 1u64..5,
            cut_at in 0usize..24,
            seed in 0u64..1000,
        ) {
            let ext: Vec<[u64; 2]> = ext.into_iter().map(|(a, b)| [a, b]).collect();
            let b = bip(n, &extra, &loads, &ext);
            let side: Vec<u8> = (0..n).map(|v| u8::from(v >= cut_at % n)).collect();
            let target = b.g.total_load() / 2;
            let bal = Balance { lo: target.saturating_sub(2), hi: target + 2, d12 };
            let (cost, quarter) = quarters(&b, &side, (bal, target), 4, &mut Rng::new(seed, 0));
            let mut counted: u128 = (0..n).map(|v| u128::from(b.ext[v][side[v] as usize])).sum();
            for v in 0..n {
                prop_assert_eq!(quarter[v] / 2, side[v]);
                for (u, w) in b.g.edges(v) {
                    if u > v && quarter[u] != quarter[v] {
                        counted += u128::from(w) * u128::from(d12);
                    }
                }
            }
            prop_assert_eq!(cost, counted);
            // Each half against every subset of it.
            let room = bal.hi - target;
            for s in 0..2u8 {
                let (half, verts) = induced_side(&b, &side, s);
                if half.g.n() < 2 || half.g.n() > 14 {
                    continue;
                }
                let t = half.g.total_load() / 2;
                let hb = Balance { lo: t.saturating_sub(room / 2), hi: t + room / 2, d12 };
                let split: Vec<u8> = verts.iter().map(|&v| quarter[v as usize] % 2).collect();
                if hb.excess(half.load0(&split)) > 0 {
                    continue;
                }
                let least = least_balanced_cut(&half, hb).expect("the split itself is balanced");
                let theirs = fm::cost(&half, &split, d12);
                prop_assert!(theirs >= least, "{} below the least balanced cut {}", theirs, least);
            }
        }
    }

    /// A 4x8 grid's least four-way cut into quarters of 8 is 12 (four
    /// columns of 4x2, or quadrants of 2x4: 8 + 4), against 24 for its
    /// rows: a bisection judged by its quarters leads to 12 on every seed.
    #[test]
    fn a_grid_bisection_judged_by_its_quarters_leads_to_the_least_four_way_cut() {
        // 4 rows of 8: vertex 8r + c.
        let mut b = Bip::with_capacity(32);
        for v in 0..32u32 {
            let (r, c) = (v / 8, v % 8);
            let near = [
                (c > 0).then(|| v - 1),
                (c < 7).then(|| v + 1),
                (r > 0).then(|| v - 8),
                (r < 3).then(|| v + 8),
            ];
            for u in near.into_iter().flatten() {
                b.g.adj.push(u);
                b.g.ew.push(1);
            }
            b.g.xadj.push(b.g.adj.len());
            b.g.vw.push(1);
            b.ext.push([0, 0]);
        }
        let bal = Balance {
            lo: 16,
            hi: 16,
            d12: 1,
        };
        for seed in 0..8 {
            let side = best_of(&b, bal, 16, (6, 6), true, &mut Rng::new(seed, 0));
            let (cost, quarter) = quarters(&b, &side, (bal, 16), 6, &mut Rng::new(seed, 1));
            let sizes: Vec<usize> = (0..4)
                .map(|q| quarter.iter().filter(|&&k| k == q).count())
                .collect();
            assert_eq!(sizes, vec![8; 4], "seed {seed}");
            assert_eq!(cost, 12, "seed {seed}: quarters {quarter:?}");
        }
    }
}
