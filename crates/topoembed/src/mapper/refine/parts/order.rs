//! Whole parts moved along a ring or a line: onto one axis the host nodes'
//! contents form a sequence, and the hop-bytes depend on that order alone.
//! Dual recursive bipartitioning fixes the order one split at a time, and
//! where an early split folded the guest the wrong way round the ring, a
//! few parts stand far from the parts they talk to — too far for an
//! exchange of two parts ([`super::swap`]) to mend, since every exchange
//! on the way moves a third part away. Here a short run of parts (up to
//! [`MAX_SEGMENT`]) is lifted out and put back anywhere else, as it was or
//! reversed, the parts between closing up: Or's segment insertion (Or-opt,
//! Or 1976) on the quotient graph, as for the travelling salesman's tours.
//! Every host node keeps its load, so the capacity still holds.
//!
//! Each run's every landing place is priced in one sweep: the run's own
//! edges as sums of piecewise-linear pieces ([`Pieces`]), the parts it
//! passes one at a time, so a run costs the edges it passes rather than
//! its edges times the places it could go (delaunay_n15 onto ring:256, one
//! search: 0.10 → 0.033 s, the same moves).
//!
//! Benchmark (2026-12-06; 4elt, copter2, butterfly_12, delaunay_n15 and
//! rgg_n_2_15_s0 onto ring:64, ring:100, ring:128, ring:200, ring:256,
//! line:64, line:96, line:128 and line:256, seeds 1–2, the whole map on
//! two cores, against no reordering): hop-bytes 0.9904x in geometric mean
//! (0.9428x → 0.9337x `scotch_gmap -Cd -b0.03`'s), lower on 70 of the 90
//! pair-seeds and higher on 3 (by at most 0.03 %), 6 % more CPU time;
//! 4elt onto ring:128 20 769 → 18 972 and onto ring:200 32 677 → 29 705
//! on seed 1 (Scotch: 18 012 and 29 216). Runs of up to 2 parts took off
//! half as much (0.9901x against 0.9823x on 36 of those pair-seeds), runs
//! of up to 8 a quarter more for twice the time (0.9779x); reversing
//! stretches of any length instead (2-opt) left 4elt onto ring:128
//! nearly as it was (20 649, offline); reordering again after the last
//! phase took off 0.18 % more for 8 % more time.

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;

use super::super::Known;
use super::Quotient;

/// Longest run of parts moved at once.
const MAX_SEGMENT: usize = 4;

/// Most edges read per pass (passed parts' edges, about parts × runs ×
/// reach × degree), where that bounds how far a run moves ("reach"):
/// onto 256 nodes a run goes anywhere, onto ring:1024 about 90 nodes
/// either way. Benchmark (delaunay_n15 and 4elt onto ring:1024, ring:512
/// and line:512, seed 1, two cores): anywhere 0.9926x the hop-bytes of no
/// reordering in 2.6x the CPU time, this budget 0.9930x in 1.29x.
const PASS_BUDGET: usize = 3_000_000;

/// Passes at most; a pass that gains at most 1/STOP_BELOW of the
/// hop-bytes is the last.
const MAX_PASSES: usize = 8;
const STOP_BELOW: u128 = 1000;

/// No part on a host node (empty, or nothing of it cut).
const NONE: u32 = u32::MAX;

/// Moves runs of whole host nodes' contents of `place` along the host — a
/// ring or a line, host node k at coordinate k — while that gains (the
/// hop-bytes `known` where the caller has them); returns the hop-bytes
/// gained, 0 on any other host.
pub fn reorder(g: &WGraph, dist: &HostDistance, place: &mut [u64], known: Known) -> u128 {
    let Some(axis) = Axis::of(dist) else {
        return 0;
    };
    let q = Quotient::new(g, place);
    if q.parts.is_empty() {
        return 0;
    }
    let mut current = super::super::start_hop_bytes(g, dist, place, known);
    let mut line = Line::new(&q, axis);
    let mut gained = 0u128;
    for _ in 0..MAX_PASSES {
        let pass_gain = line.pass(&q);
        gained += pass_gain;
        current -= pass_gain.min(current);
        if pass_gain == 0 || pass_gain * STOP_BELOW <= current {
            break;
        }
    }
    if gained > 0 {
        // Where each node's starting contents went.
        let mut to: Vec<u64> = vec![0; axis.p as usize];
        for (x, &name) in line.names.iter().enumerate() {
            to[name as usize] = x as u64;
        }
        place.iter_mut().for_each(|h| *h = to[*h as usize]);
    }
    gained
}

/// A host of one axis: `p` nodes, wrapping round or not.
#[derive(Debug, Clone, Copy)]
struct Axis {
    p: i64,
    wraps: bool,
}

impl Axis {
    /// The host's axis where it is a ring or a line of at least 4 nodes
    /// (below, every order is a rotation or a reflection of another).
    fn of(dist: &HostDistance) -> Option<Axis> {
        let spec = dist.host().spec();
        let (sides, wraps) = spec.grid()?;
        match (sides, wraps.as_slice()) {
            (&[p], &[wraps]) if p >= 4 && p <= i64::MAX as u64 / 4 => {
                Some(Axis { p: p as i64, wraps })
            }
            _ => None,
        }
    }

    /// The distance between coordinates `a` and `b` (on a ring either may
    /// lie up to a lap outside `0..p`; no division, as this is the inner
    /// loop).
    #[inline]
    fn d(self, a: i64, b: i64) -> i128 {
        let mut t = (a - b).abs();
        if self.wraps {
            while t >= self.p {
                t -= self.p;
            }
            t = t.min(self.p - t);
        }
        i128::from(t)
    }
}

/// The order being improved: which part stands at each coordinate.
struct Line {
    axis: Axis,
    /// Part number at each coordinate ([`NONE`]: none of the quotient).
    at: Vec<u32>,
    /// Original host node whose contents stand at each coordinate.
    names: Vec<u64>,
    /// Coordinate of each part.
    pos: Vec<i64>,
    /// Furthest a run moves, in coordinates.
    reach: i64,
}

/// The best move of a run found: the hop-bytes it changes by (negative:
/// a gain), how far, reversed or not.
#[derive(Clone, Copy)]
struct Move {
    delta: i128,
    by: i64,
    reversed: bool,
}

impl Line {
    fn new(q: &Quotient, axis: Axis) -> Line {
        let p = axis.p as usize;
        let mut at = vec![NONE; p];
        let pos: Vec<i64> = q.parts.iter().map(|&x| x as i64).collect();
        for (k, &x) in pos.iter().enumerate() {
            at[x as usize] = k as u32;
        }
        let degree = q.adj.len().div_ceil(q.parts.len()).max(1);
        let per_step = q.parts.len().max(1) * MAX_SEGMENT * degree;
        let reach = (PASS_BUDGET / per_step).max(8).min(p) as i64;
        Line {
            axis,
            at,
            names: (0..p as u64).collect(),
            pos,
            reach,
        }
    }

    /// The coordinate `t` steps from `i` in direction `dir`.
    #[inline]
    fn step(&self, i: i64, dir: i64, t: i64) -> i64 {
        (i + dir * t).rem_euclid(self.axis.p)
    }

    /// How many steps from `i` in direction `dir` coordinate `x` lies
    /// (on a line, negative behind `i`).
    #[inline]
    fn offset(&self, i: i64, dir: i64, x: i64) -> i64 {
        match self.axis.wraps {
            true => (dir * (x - i)).rem_euclid(self.axis.p),
            false => dir * (x - i),
        }
    }

    /// One pass over every run: each run's best move taken where it gains.
    fn pass(&mut self, q: &Quotient) -> u128 {
        let p = self.axis.p;
        let mut gained = 0u128;
        // (The sums' arrays, cleared for each run rather than allocated.)
        let mut pieces = [Pieces::default(), Pieces::default()];
        // Onto a ring a run moved back is a run moved on; a line's run
        // moves either way.
        let dirs: &[i64] = match self.axis.wraps {
            true => &[1],
            false => &[1, -1],
        };
        for i in 0..p {
            for len in 1..=MAX_SEGMENT as i64 {
                let mut best: Option<(Move, i64)> = None;
                for &dir in dirs {
                    if let Some(found) = self.best_move(q, (i, dir, len), &mut pieces) {
                        if best.map_or(true, |(b, _)| found.delta < b.delta) {
                            best = Some((found, dir));
                        }
                    }
                }
                if let Some((m, dir)) = best.filter(|(m, _)| m.delta < 0) {
                    self.apply(i, dir, len, m);
                    gained += (-m.delta) as u128;
                }
            }
        }
        gained
    }

    /// The best move of the run of `len` coordinates from `i` in direction
    /// `dir`, carried on past the next `by` coordinates (which close up
    /// behind it), as it is or reversed; `None` where the run holds no
    /// part or cannot move.
    fn best_move(
        &self,
        q: &Quotient,
        (i, dir, len): (i64, i64, i64),
        pieces: &mut [Pieces; 2],
    ) -> Option<Move> {
        let p = self.axis.p;
        let room = match (self.axis.wraps, dir) {
            // (Carried on by p − len: a rotation, no change.)
            (true, _) => p - len - 1,
            (false, 1) => p - i - len,
            (false, _) => i + 1 - len,
        };
        let room = room.min(self.reach);
        if room < 1 {
            return None;
        }
        let mut run = [NONE; MAX_SEGMENT];
        for (t, k) in run.iter_mut().enumerate().take(len as usize) {
            *k = self.at[self.step(i, dir, t as i64) as usize];
        }
        let run = &run[..len as usize];
        if run.iter().all(|&k| k == NONE) {
            return None;
        }
        // The run's edges to parts outside it (those inside keep their
        // lengths, reversed or not), each summed over every carry at once:
        // its length after a carry by `by` is a distance of `by` plus a
        // constant, one constant before its far end is passed and another
        // after ([`Pieces`]).
        let axis = self.axis;
        pieces.iter_mut().for_each(|sums| sums.clear(axis, room));
        let mut before = 0i128;
        for (t, &k) in run.iter().enumerate() {
            if k == NONE {
                continue;
            }
            let from = self.pos[k as usize];
            for &(c, w) in q.row(k as usize) {
                let to = self.pos[c as usize];
                let off = self.offset(i, dir, to);
                if (0..len).contains(&off) {
                    continue;
                }
                let w = i128::from(w);
                before += w * axis.d(from, to);
                // Where the run's part lands, as it is and reversed: offset
                // s + by, its neighbour at `off` until passed (by > off −
                // len: a neighbour behind the run on a line never is),
                // at off − len after.
                let t = t as i64;
                for (sums, s) in pieces.iter_mut().zip([t, len - 1 - t]) {
                    let passed_at = match off < 0 {
                        true => room + 1,
                        false => off - len + 1,
                    };
                    sums.add(w, s - off, 1, (passed_at - 1).min(room));
                    sums.add(w, s - off + len, passed_at.max(1), room);
                }
            }
        }
        let [kept, reversed] = pieces;
        let (mut kept, mut reversed) = (kept.scan(), reversed.scan());
        let mut best: Option<Move> = None;
        // Σ volume × change of length over the edges of the coordinates
        // passed (each moved back by len) to parts neither passed nor in
        // the run, kept as coordinates are passed one by one.
        let mut passed = 0i128;
        for by in 1..=room {
            let y = self.at[self.step(i, dir, len + by - 1) as usize];
            if y != NONE {
                let from = self.pos[y as usize];
                for &(c, w) in q.row(y as usize) {
                    let to = self.pos[c as usize];
                    let off = self.offset(i, dir, to);
                    let w = i128::from(w);
                    if (0..len).contains(&off) {
                        continue;
                    }
                    if (len..len + by - 1).contains(&off) {
                        // Passed before this one: its term counted this
                        // edge's length to here, and now both ends move.
                        passed -= w * (axis.d(to - dir * len, from) - axis.d(to, from));
                    } else {
                        passed += w * (axis.d(from - dir * len, to) - axis.d(from, to));
                    }
                }
            }
            let (k, r) = (kept.next().unwrap_or(0), reversed.next().unwrap_or(0));
            for (delta, rev) in [(k - before + passed, false), (r - before + passed, true)] {
                if best.map_or(true, |b| delta < b.delta) {
                    best = Some(Move {
                        delta,
                        by,
                        reversed: rev,
                    });
                }
            }
        }
        best
    }

    /// Carries the run of `len` from `i` in direction `dir` on by `m.by`.
    fn apply(&mut self, i: i64, dir: i64, len: i64, m: Move) {
        let span = len + m.by;
        let coords: Vec<usize> = (0..span).map(|t| self.step(i, dir, t) as usize).collect();
        let (at, names): (Vec<u32>, Vec<u64>) =
            coords.iter().map(|&x| (self.at[x], self.names[x])).unzip();
        for (t, &x) in coords.iter().enumerate() {
            let t = t as i64;
            // The coordinates passed close up first; the run follows.
            let from = match (t < m.by, m.reversed) {
                (true, _) => t + len,
                (false, false) => t - m.by,
                (false, true) => len - 1 - (t - m.by),
            } as usize;
            self.at[x] = at[from];
            self.names[x] = names[from];
            if at[from] != NONE {
                self.pos[at[from] as usize] = x as i64;
            }
        }
    }
}

/// Σ volume × D(c + by) over pieces, each for `by` in a range of its own,
/// for every `by` in 1..=room at once: D (the host's distance from 0) is
/// piecewise linear, its step D(u) − D(u − 1) changing only where u is 1
/// on a line and 1 or just past half the ring on a ring, so each piece is
/// its first value, its steps from there and its kinks — O(1) entries of
/// two difference arrays — and one scan sums them all.
struct Pieces {
    axis: Axis,
    room: i64,
    /// Jumps of the sum at each `by` (a piece starting or ending).
    jump: Vec<i128>,
    /// Changes of the sum's step at each `by`.
    step: Vec<i128>,
}

impl Default for Pieces {
    fn default() -> Pieces {
        Pieces::new(Axis { p: 4, wraps: false }, 0)
    }
}

impl Pieces {
    fn new(axis: Axis, room: i64) -> Pieces {
        let mut pieces = Pieces {
            axis,
            room,
            jump: Vec::new(),
            step: Vec::new(),
        };
        pieces.clear(axis, room);
        pieces
    }

    /// No pieces, for `by` in 1..=room onto `axis`.
    fn clear(&mut self, axis: Axis, room: i64) {
        let size = room as usize + 2;
        (self.axis, self.room) = (axis, room);
        for sums in [&mut self.jump, &mut self.step] {
            sums.clear();
            sums.resize(size, 0);
        }
    }

    /// The distance from 0 and its step into u.
    fn d(&self, u: i64) -> i128 {
        self.axis.d(u, 0)
    }
    fn rise(&self, u: i64) -> i128 {
        self.d(u) - self.d(u - 1)
    }

    /// Adds w × D(c + by) for `by` in a..=b (nothing where b < a).
    fn add(&mut self, w: i128, c: i64, a: i64, b: i64) {
        if b < a {
            return;
        }
        let (a_, b_) = (a as usize, b as usize);
        self.jump[a_] += w * self.d(c + a);
        if b < self.room {
            self.jump[b_ + 1] -= w * self.d(c + b);
        }
        if a == b {
            return;
        }
        if b < self.room {
            self.step[b_ + 1] -= w * self.rise(c + b);
        }
        self.step[a_ + 1] += w * self.rise(c + a + 1);
        // The kinks after a + 1: where c + by is 1 (mod p on a ring), or on
        // a ring ⌊p/2⌋ + 1 or ⌈p/2⌉ + 1.
        let p = self.axis.p;
        let kinks: &[i64] = match self.axis.wraps {
            true => &[1, p / 2 + 1, (p + 1) / 2 + 1],
            false => &[1],
        };
        let first = a + 2;
        for (j, &u) in kinks.iter().enumerate() {
            if j == 2 && p % 2 == 0 {
                break;
            }
            let mut k = match self.axis.wraps {
                true => first + (u - (c + first)).rem_euclid(p),
                false => u - c,
            };
            while k >= first && k <= b {
                self.step[k as usize] += w * (self.rise(c + k) - self.rise(c + k - 1));
                match self.axis.wraps {
                    true => k += p,
                    false => break,
                }
            }
        }
    }

    /// The sums for `by` = 1, 2, .., room.
    fn scan(&self) -> impl Iterator<Item = i128> + '_ {
        let (mut sum, mut rise) = (0i128, 0i128);
        (1..=self.room as usize).map(move |by| {
            rise += self.step[by];
            sum += rise + self.jump[by];
            sum
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::hop_bytes;
    use crate::topology;
    use proptest::prelude::*;

    /// A graph of `n` vertices of load 1 with the edges (u, v, volume),
    /// u and v taken mod n, loops left out.
    fn graph(n: usize, edges: &[(usize, usize, u64)]) -> WGraph {
        let mut rows: Vec<Vec<(u32, u64)>> = vec![Vec::new(); n];
        for &(u, v, w) in edges {
            let (u, v) = (u % n, v % n);
            if u != v {
                rows[u].push((v as u32, w));
                rows[v].push((u as u32, w));
            }
        }
        let mut xadj = vec![0];
        rows.iter()
            .for_each(|r| xadj.push(xadj.last().unwrap() + r.len()));
        WGraph {
            xadj,
            adj: rows.iter().flatten().map(|&(u, _)| u).collect(),
            ew: rows.iter().flatten().map(|&(_, w)| w).collect(),
            vw: vec![1; n],
        }
    }

    #[test]
    fn a_misplaced_part_comes_home() {
        // A path of 8 vertices on line:8 with vertices 2 and 5 exchanged
        // (13 hop-bytes): runs carried back make it the identity's 7.
        let g = graph(8, &(0..7).map(|v| (v, v + 1, 1)).collect::<Vec<_>>());
        let host = topology::parse("line:8").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut place: Vec<u64> = vec![0, 1, 5, 3, 4, 2, 6, 7];
        let before = hop_bytes(&g, &dist, &place);
        let gained = reorder(&g, &dist, &mut place, None);
        assert_eq!(hop_bytes(&g, &dist, &place), before - gained);
        assert_eq!(hop_bytes(&g, &dist, &place), 7);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Every gain is the exact change of hop-bytes, every node keeps
        /// its load (the contents move whole), on rings and lines alike.
        #[test]
        fn gains_are_exact_and_loads_move_whole(
            n in 2usize..60,
            p in 4u64..40,
            wraps in any::<bool>(),
            edges in prop::collection::vec((0usize..60, 0usize..60, 1u64..9), 1..150),
            hosts in prop::collection::vec(0u64..24, 60),
        ) {
            let g = graph(n, &edges);
            let kind = if wraps { "ring" } else { "line" };
            let host = topology::parse(&format!("{kind}:{p}")).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let mut place: Vec<u64> = hosts[..n].iter().map(|&h| h % p).collect();
            let loads = |place: &[u64]| {
                let mut l = vec![0usize; p as usize];
                place.iter().for_each(|&h| l[h as usize] += 1);
                l.sort_unstable();
                l
            };
            let (before, loads_before) = (hop_bytes(&g, &dist, &place), loads(&place));
            let first = place.clone();
            let gained = reorder(&g, &dist, &mut place, None);
            prop_assert_eq!(hop_bytes(&g, &dist, &place), before - gained);
            prop_assert_eq!(loads(&place), loads_before);
            // Vertices that shared a node still do, and no others.
            for u in 0..n {
                for v in 0..n {
                    prop_assert_eq!(place[u] == place[v], first[u] == first[v]);
                }
            }
        }

        /// The pieces' scan is the sum of every piece term by term.
        #[test]
        fn pieces_sum_as_term_by_term(
            p in 4i64..30,
            wraps in any::<bool>(),
            room in 1i64..40,
            pieces in prop::collection::vec((1i128..9, -70i64..70, 1i64..40, 0i64..40), 1..12),
        ) {
            let axis = Axis { p, wraps };
            let mut sums = Pieces::new(axis, room);
            let mut want = vec![0i128; room as usize + 1];
            for &(w, c, a, len) in &pieces {
                let (a, b) = (a.min(room), (a + len - 1).min(room));
                sums.add(w, c, a, b);
                for by in a..=b {
                    want[by as usize] += w * axis.d(c + by, 0);
                }
            }
            prop_assert_eq!(sums.scan().collect::<Vec<_>>(), want[1..].to_vec());
        }
    }
}
