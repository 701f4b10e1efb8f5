//! One step of an annealing chain ([`super`]): the exchange it proposes
//! and the exchange's price, from the cost tables where the chain keeps
//! them or from the edges' sums — small pieces the loop inlines whole.

use crate::mapper::graph::WGraph;
use crate::mapper::rng::Rng;

use super::super::cost_table::{Costs, Tables};

/// No vertex on a host node.
pub(super) const EMPTY: u32 = u32::MAX;

/// The annealing's proposals: a vertex drawn at random, sent to a host
/// node drawn from all (one in `far`) or to a neighbour's node or next to
/// it. A method the loop inlines, where a closure was called every step
/// with its captures read through a pointer and the stream's state stored
/// back after every draw.
pub(super) struct Proposer<'a> {
    pub(super) q: &'a WGraph,
    pub(super) p: u64,
    pub(super) far: usize,
    /// Each host node's neighbours ([`super::neighbour_lists`]).
    pub(super) near: (&'a [u32], &'a [u32]),
}

impl Proposer<'_> {
    /// An exchange to try: vertex a to host node y (`None`: y is a's own).
    #[inline(always)]
    pub(super) fn propose(&self, on: &[u32], rng: &mut Rng) -> Option<(usize, u32)> {
        let (q, (near_start, near_list)) = (self.q, self.near);
        let a = rng.below(q.n());
        let degree = q.xadj[a + 1] - q.xadj[a];
        let y = if degree == 0 || rng.below(self.far) == 0 {
            rng.below(self.p as usize) as u32
        } else {
            let c = q.adj[q.xadj[a] + rng.below(degree)] as usize;
            let y = on[c];
            match near_start.get(y as usize..y as usize + 2) {
                Some(&[s, e]) if s < e && rng.below(2) == 0 => {
                    near_list[s as usize + rng.below((e - s) as usize)]
                }
                _ => y,
            }
        };
        (y != on[a]).then_some((a, y))
    }
}

/// Δ of sending vertex a to host node y and whatever sits on y to a's node
/// (`on`, `at`: the placement both ways): from the cost tables where the
/// chain keeps them, else by the edges' sums. Inlined in the loop with all
/// it calls, as is the proposal ([`Proposer`]): closures calling closures
/// were a call or two a step, their captures read through pointers. The
/// same placements; one thread, medians of 11 interleaved runs:
/// delaunay_n15/1024 onto torus:32x32 0.63 → 0.57 s, /4096 onto
/// torus:16x16x16 0.35 → 0.32 s, /256 onto torus:16x16 0.24 → 0.23 s,
/// /64 onto cube:6 0.07 → 0.06 s.
#[inline(always)]
pub(super) fn priced_delta<D: Fn(u64, u64) -> i64>(
    cost: &Priced,
    (on, at): (&[u32], &[u32]),
    (a, y): (usize, u32),
    sums: &SparseSums<D>,
) -> i64 {
    let b = at[y as usize];
    match cost {
        Priced::Narrow(tables, costs) => tables.exchange_delta(costs, a, (on[a], y), b),
        Priced::Wide(tables, costs) => tables.exchange_delta(costs, a, (on[a], y), b),
        Priced::Sums(cost) => {
            let (x, y) = (u64::from(on[a]), u64::from(y));
            let mut sum = sums.delta(on, cost, a, (x, y), b);
            if b != EMPTY {
                sum += sums.delta(on, cost, b as usize, (y, x), a as u32);
            }
            sum
        }
    }
}

/// Exchanges priced from the edges' sums: each entry's neighbour and
/// (scaled) volume side by side, the rows' bounds, the host's distances.
pub(super) struct SparseSums<'a, D> {
    pub(super) entries: &'a [(u32, i64)],
    pub(super) xadj: &'a [usize],
    pub(super) d: &'a D,
}

impl<D: Fn(u64, u64) -> i64> SparseSums<'_, D> {
    /// v's entries.
    #[inline(always)]
    pub(super) fn row(&self, v: usize) -> &[(u32, i64)] {
        &self.entries[self.xadj[v]..self.xadj[v + 1]]
    }

    /// Σ volume × distance from host node `to` over v's edges, and the
    /// volume of those to `skip`. (No branch: which vertex is `skip` is
    /// unpredictable, and a mispredicted branch per exchange cost more than
    /// the second distance read it saves.)
    #[inline(always)]
    pub(super) fn cost_from(&self, on: &[u32], v: usize, to: u64, skip: u32) -> (i64, i64) {
        let (mut sum, mut skipped) = (0i64, 0i64);
        for &(c, wc) in self.row(v) {
            sum += wc * (self.d)(to, u64::from(on[c as usize]));
            skipped += wc * i64::from(c == skip);
        }
        (sum, skipped)
    }

    /// Δ of moving v from `from` to `to` (v's cost where it sits in
    /// `cost`), its edges to `skip` left out (a swap keeps the distance
    /// between the two it exchanges): `skip` sits on `to`, so those weigh
    /// d(from, to) in v's cost and d(to, to) in the sum from `to`.
    #[inline(always)]
    fn delta(&self, on: &[u32], cost: &[i64], v: usize, (from, to): (u64, u64), skip: u32) -> i64 {
        let d = self.d;
        let (there, skipped) = self.cost_from(on, v, to, skip);
        (there - skipped * d(to, to)) - (cost[v] - skipped * d(from, to))
    }
}

/// How a chain prices an exchange: each vertex's cost where it sits, with
/// the other end's distances read edge by edge, or every vertex's cost on
/// every host node ([`super::super::cost_table`]) in 16 or 32 bits.
#[derive(Clone)]
pub(super) enum Priced<'t> {
    Sums(Vec<i64>),
    Narrow(&'t Tables<i16>, Costs<i16>),
    Wide(&'t Tables<i32>, Costs<i32>),
}

impl Priced<'_> {
    /// Vertex v's cost on host node h, where the sums know it (v on h).
    pub(super) fn of(&self, v: usize, h: u32) -> i64 {
        match self {
            Priced::Sums(cost) => cost[v],
            Priced::Narrow(tables, costs) => tables.cost(costs, v, h),
            Priced::Wide(tables, costs) => tables.cost(costs, v, h),
        }
    }
}
