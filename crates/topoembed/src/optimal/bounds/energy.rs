//! The energy lemma: a sub-cube that lifts to the plane cannot be spread
//! more widely than its distances allow, and cannot be packed more tightly
//! than distinct lattice points allow.
//!
//! *On a torus with sides k_a, let S be j dimensions whose two largest
//! distances add up to less than k_a/2 on every axis a, and n = 2^j. Then
//! the sub-cube of the dimensions S of any constant-distance embedding has
//! Σ_{i∈S} D_i² ≥ 4·M_m(n)/n, where M_m(n) is the least moment of inertia
//! Σ|p − p̄|² of n distinct points p of the lattice ℤ^m (m axes, p̄ their
//! centroid).*
//!
//! Proof.
//! 1. *It lifts.* As in the axis lemma ([`crate::optimal::bounds::cuts`],
//!    steps 1–3), on every axis: an edge of dimension i moves each
//!    coordinate by a step of size at most D_i < k_a/2, unique the shorter
//!    way round; round a face of dimensions i and l the steps add up to 0
//!    mod k_a and to at most 2(D_i + D_l) < k_a in size, so to 0. The
//!    sub-cube's image therefore lifts to a map g of its 2^j nodes into ℤ^m
//!    whose every edge of dimension i has L1 length D_i (the sum of its
//!    steps' sizes is the torus distance).
//! 2. *Its images are distinct.* Two nodes with g(u) = g(v) would have
//!    f(u) = f(v): the embedding is one to one.
//! 3. *The Poincaré inequality on the cube.* Write g = Σ_T ĝ(T)·χ_T, the
//!    Walsh expansion over subsets T of S (χ_T(u) = (−1)^|u∩T|, vector
//!    coefficients). The variance (1/n)·Σ_u |g(u) − ḡ|² is Σ_{T≠∅} |ĝ(T)|²,
//!    and g(u) − g(u ⊕ e_i) = 2·Σ_{T∋i} ĝ(T)·χ_T(u), so
//!    (1/n)·Σ_u |g(u) − g(u ⊕ e_i)|² = 4·Σ_{T∋i} |ĝ(T)|². Over i ∈ S:
//!    4·Σ_T |T|·|ĝ(T)|² ≥ 4·variance. The Euclidean length of an edge is at
//!    most its L1 length D_i, so Σ_{i∈S} D_i² ≥ 4·variance =
//!    (4/n)·Σ_u |g(u) − ḡ|² ≥ 4·M_m(n)/n by step 2. ∎
//!
//! For a given size j the j smallest distances are the ones to try: they
//! have the least Σ D_i² and the least two largest. Both sides are tight
//! on xor: on a ring its distances 1, 2, .., 2^(j−1) have Σ D_i² =
//! (4^j − 1)/3, and n consecutive integers have the least moment,
//! n(n² − 1)/12 — equality; on a square torus its 1, 1, 2, 2 place 16
//! nodes on a 4×4 square, Σ D_i² = 10 = 4·40/16. Where the counting bounds
//! (the ellipse of [`crate::optimal::search::constant`]) look only at how
//! many points fit, this looks at how far apart the distances push them:
//! on torus:32x32 it rules out every vector the branch and bound had to
//! refute ((1, 1, 2, 2, 4, 5, 5) has Σ D_i² = 76 < 4·M_2(128)/128 ≈
//! 81.4; the 8-cube (1, 2, 2, 4, 5, 5, 5, 5) 125 < 4·M_2(256)/256 ≈ 162.9).
//!
//! M_m(n) itself is computed here, rigorously from below
//! ([`least_square_sum`]): M_m(n) = min over c of the sum of the n smallest
//! |q − c|² over lattice points q (the centroid minimises the moment), c in
//! [0, ½]^m by the lattice's symmetries; a best-first subdivision of that
//! box bounds the sum from below on each part (points sure to be among
//! the n nearest everywhere in it are summed exactly, the rest by their
//! least distance to it) and from above at its corner, until the two give
//! the same least integer Σ D_i².

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Mutex, OnceLock};

/// Box coordinates are in units of 1/SCALE.
const SCALE: i64 = 1 << 16;

/// Parts of the centre box evaluated at most per value in the plane, a
/// quarter of it per axis more (the bound stays sound when it stops: it is
/// then the least over the parts so far, at most one below the exact).
const MAX_PARTS: usize = 20_000;

/// Whether the sub-cube of the ascending `dims` lifts to ℤ^m on a torus
/// of these `sides` (step 1): its two largest distances add up to less
/// than half of every side. A single dimension has no face and always
/// lifts where its distance is below half of every side.
pub fn lifts(sides: &[u32], dims: &[u32]) -> bool {
    let top = match dims {
        [] => 0,
        [a] => *a,
        [.., a, b] => a + b,
    };
    sides.iter().all(|&k| 2 * top < k)
}

/// Whether the energy lemma rules out the sub-cube of the ascending
/// `dims` (its j smallest distances, or any j) on a torus of `sides`: it
/// lifts and Σ D_i² is below [`least_square_sum`].
pub fn rules_out(sides: &[u32], dims: &[u32]) -> bool {
    match dims.split_last() {
        Some((&next, first)) => rules_out_with(sides, first, next),
        None => false,
    }
}

/// Whether the energy lemma rules out the sub-cube of the ascending
/// `dims` and `next` (not below any of them), as [`rules_out`] does,
/// without building it.
pub fn rules_out_with(sides: &[u32], dims: &[u32], next: u32) -> bool {
    let Some(&last) = dims.last() else {
        return false; // One dimension: nothing to rule out.
    };
    if !lifts(sides, &[last, next]) {
        return false;
    }
    let squares: u64 = dims
        .iter()
        .chain([&next])
        .map(|&x| u64::from(x) * u64::from(x))
        .sum();
    squares < least_square_sum(sides.len(), dims.len() as u32 + 1)
}

/// The least Σ D_i² of j dimensions whose sub-cube lifts to ℤ^`axes`:
/// ⌈4·M/2^j⌉ for a lower bound M of M_axes(2^j) (module docs) — exact
/// wherever the subdivision closes the gap, which it does for every
/// value the tests list. Computed once per (axes, j).
pub fn least_square_sum(axes: usize, j: u32) -> u64 {
    static KNOWN: OnceLock<Mutex<HashMap<(usize, u32), u64>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Default::default);
    if let Some(&t) = known.lock().expect("a bound's cache").get(&(axes, j)) {
        return t;
    }
    let t = Moments::new(axes, 1usize << j).least_square_sum();
    known.lock().expect("a bound's cache").insert((axes, j), t);
    t
}

/// One part of the centre box: [lo_a, hi_a] on each axis (units 1/SCALE).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Part {
    lo: Vec<i64>,
    hi: Vec<i64>,
}

impl Part {
    /// The least and the greatest |q − c|² over centres c of the part
    /// (units 1/SCALE², q scaled).
    fn nearest_farthest(&self, q: &[i64]) -> (i128, i128) {
        let (mut near, mut far) = (0i128, 0i128);
        for ((&x, &lo), &hi) in q.iter().zip(&self.lo).zip(&self.hi) {
            let gap = (lo - x).max(x - hi).max(0) as i128;
            let reach = (x - lo).abs().max((x - hi).abs()) as i128;
            near += gap * gap;
            far += reach * reach;
        }
        (near, far)
    }
}

/// The lattice points near the centre box and the sums over them.
struct Moments {
    n: usize,
    /// Candidate points, scaled by SCALE, axis by axis.
    points: Vec<Vec<i64>>,
}

impl Moments {
    /// The lattice points of [−R, R]^axes, R large enough that the n
    /// nearest of every centre in [0, ½]^axes are among them (checked in
    /// [`Moments::least_square_sum`]).
    fn new(axes: usize, n: usize) -> Moments {
        let mut radius = 2i64;
        while (2 * radius + 1).pow(axes as u32) < 4 * n as i64 {
            radius += 1;
        }
        Moments::with_radius(axes, n, radius + 2)
    }

    fn with_radius(axes: usize, n: usize, radius: i64) -> Moments {
        let side = (2 * radius + 1) as usize;
        let count = side.pow(axes as u32);
        let points = (0..count)
            .map(|mut i| {
                (0..axes)
                    .map(|_| {
                        let x = (i % side) as i64 - radius;
                        i /= side;
                        x * SCALE
                    })
                    .collect()
            })
            .collect();
        Moments { n, points }
    }

    /// The least, over centres c of the part, of the sum of the n smallest
    /// |q − c|² (units 1/SCALE²), from below.
    fn lower(&self, part: &Part) -> i128 {
        let (lb, ub): (Vec<i128>, Vec<i128>) =
            self.points.iter().map(|q| part.nearest_farthest(q)).unzip();
        // The points sure to be among the n nearest of every centre of the
        // part: a prefix by farthest distance no farther than any other
        // point's nearest (ties swap points of equal distance, same sum).
        let mut by_ub: Vec<usize> = (0..ub.len()).collect();
        by_ub.sort_unstable_by_key(|&i| ub[i]);
        let mut least_lb_after = vec![i128::MAX; by_ub.len() + 1];
        for s in (0..by_ub.len()).rev() {
            least_lb_after[s] = least_lb_after[s + 1].min(lb[by_ub[s]]);
        }
        let sure = (0..=self.n)
            .rev()
            .find(|&s| s == 0 || ub[by_ub[s - 1]] <= least_lb_after[s])
            .unwrap_or(0);
        // The sure points exactly: Σ (c_a − x)² per axis is a parabola in
        // c_a, least at the points' mean or the part's nearer end.
        let mut total = 0i128;
        for a in 0..part.lo.len() {
            let (s1, s2) = by_ub[..sure]
                .iter()
                .map(|&i| self.points[i][a] as i128)
                .fold((0i128, 0i128), |(s1, s2), x| (s1 + x, s2 + x * x));
            let s = sure as i128;
            if s == 0 {
                continue;
            }
            let (lo, hi) = (part.lo[a] as i128, part.hi[a] as i128);
            let at = |c: i128| s * c * c - 2 * c * s1 + s2;
            total += if s1 < lo * s {
                at(lo)
            } else if s1 > hi * s {
                at(hi)
            } else {
                // (s·s2 − s1²)/s, rounded down.
                (s * s2 - s1 * s1).div_euclid(s)
            };
        }
        // The rest by their nearest distance to the part.
        let mut rest: Vec<i128> = by_ub[sure..].iter().map(|&i| lb[i]).collect();
        let want = self.n - sure;
        if want > 0 {
            rest.select_nth_unstable(want - 1);
            total += rest[..want].iter().sum::<i128>();
        }
        total
    }

    /// The sum of the n smallest |q − c|² at the part's two extreme corners
    /// (units 1/SCALE²), the lesser: a moment some n points reach, so M
    /// from above.
    fn upper(&self, part: &Part) -> i128 {
        [&part.lo, &part.hi]
            .into_iter()
            .map(|corner| {
                let mut d: Vec<i128> = self
                    .points
                    .iter()
                    .map(|q| {
                        q.iter()
                            .zip(corner)
                            .map(|(&x, &c)| ((x - c) as i128).pow(2))
                            .sum()
                    })
                    .collect();
                d.select_nth_unstable(self.n - 1);
                d[..self.n].iter().sum()
            })
            .min()
            .expect("two corners")
    }

    /// The n-th smallest farthest distance from the whole centre box: no
    /// centre has its n-th nearest point farther.
    fn reach(&self, part: &Part) -> i128 {
        let mut ub: Vec<i128> = self
            .points
            .iter()
            .map(|q| part.nearest_farthest(q).1)
            .collect();
        ub.select_nth_unstable(self.n - 1);
        ub[self.n - 1]
    }

    /// ⌈4·M/n⌉ for M bounded from below by a best-first subdivision of
    /// [0, ½]^axes (module docs).
    fn least_square_sum(self) -> u64 {
        let axes = self.points.first().map_or(1, Vec::len);
        let root = Part {
            lo: vec![0; axes],
            hi: vec![SCALE / 2; axes],
        };
        // Every point left out has a coordinate of R + 1 or more, so is at
        // least R + ½ from every centre: it must be no nearer than the
        // n-th nearest, else widen the window.
        let radius = self.points.iter().map(|q| q[0]).max().unwrap_or(0) / SCALE;
        let outside = ((2 * radius + 1) * SCALE / 2) as i128;
        let reach = self.reach(&root);
        if reach > outside * outside {
            return Moments::with_radius(axes, self.n, radius + 2).least_square_sum();
        }
        // Only points within that reach of some centre can be among the n
        // nearest of any (every centre has n points within it).
        let mut moments = self;
        moments
            .points
            .retain(|q| root.nearest_farthest(q).0 <= reach);
        moments.subdivide(&root)
    }

    /// The best-first subdivision of the centre box `root`.
    fn subdivide(&self, root: &Part) -> u64 {
        let axes = root.lo.len();
        let root = root.clone();
        let threshold = |m: i128| -> u64 {
            // ⌈4·m / (n·SCALE²)⌉.
            let den = self.n as i128 * (SCALE as i128).pow(2);
            (4 * m).div_euclid(den) as u64 + u64::from((4 * m).rem_euclid(den) != 0)
        };
        let mut best = self.upper(&root);
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((self.lower(&root), root)));
        let mut parts = 1usize;
        while let Some(Reverse((low, part))) = heap.pop() {
            if threshold(low) >= threshold(best)
                || parts >= MAX_PARTS >> (2 * axes.saturating_sub(2))
            {
                return threshold(low);
            }
            let splittable: Vec<usize> =
                (0..axes).filter(|&a| part.hi[a] - part.lo[a] > 1).collect();
            if splittable.is_empty() {
                return threshold(low);
            }
            for mask in 0..1usize << splittable.len() {
                let mut child = part.clone();
                for (bit, &a) in splittable.iter().enumerate() {
                    let mid = (part.lo[a] + part.hi[a]) / 2;
                    if mask >> bit & 1 == 0 {
                        child.hi[a] = mid;
                    } else {
                        child.lo[a] = mid;
                    }
                }
                best = best.min(self.upper(&child));
                heap.push(Reverse((self.lower(&child), child)));
                parts += 1;
            }
        }
        threshold(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// M_m(n) by brute force: every n-subset of a small window.
    fn brute_moment(axes: usize, n: usize, radius: i64) -> f64 {
        let side = (2 * radius + 1) as usize;
        let pts: Vec<Vec<i64>> = (0..side.pow(axes as u32))
            .map(|mut i| {
                (0..axes)
                    .map(|_| {
                        let x = (i % side) as i64 - radius;
                        i /= side;
                        x
                    })
                    .collect()
            })
            .collect();
        let mut best = f64::MAX;
        let mut pick = Vec::new();
        fn go(pts: &[Vec<i64>], n: usize, from: usize, pick: &mut Vec<usize>, best: &mut f64) {
            if pick.len() == n {
                let axes = pts[0].len();
                let m: f64 = (0..axes)
                    .map(|a| {
                        let x = |i: usize| pts[i][a] as f64;
                        let mean = pick.iter().map(|&i| x(i)).sum::<f64>() / n as f64;
                        pick.iter().map(|&i| (x(i) - mean).powi(2)).sum::<f64>()
                    })
                    .sum();
                *best = best.min(m);
                return;
            }
            for i in from..pts.len() {
                pick.push(i);
                go(pts, n, i + 1, pick, best);
                pick.pop();
            }
        }
        go(&pts, n, 0, &mut pick, &mut best);
        best
    }

    #[test]
    fn the_least_moment_agrees_with_every_subset() {
        // n ≤ 8 points of a 5×5 window (and 7 of a line): ⌈4M/n⌉ exactly.
        for (axes, radius, ns) in [(1usize, 6i64, 2..=8usize), (2, 2, 2..=6)] {
            for n in ns {
                let m = brute_moment(axes, n, radius);
                let want = (4.0 * m / n as f64 - 1e-9).ceil() as u64;
                let got = Moments::new(axes, n).least_square_sum();
                assert_eq!(got, want, "axes {axes}, n {n}: M = {m}");
            }
        }
    }

    #[test]
    fn consecutive_integers_are_the_least_moment_on_a_line() {
        // M_1(n) = n(n² − 1)/12, so ⌈4M/n⌉ = (n² − 1)/3: xor's
        // 1, 2, .., 2^(j−1) meet it exactly.
        for j in 1..=11u32 {
            let n = 1u64 << j;
            assert_eq!(least_square_sum(1, j), (n * n - 1) / 3, "j = {j}");
            let xor: u64 = (0..j).map(|i| 1u64 << (2 * i)).sum();
            assert_eq!(xor, (n * n - 1) / 3);
        }
    }

    #[test]
    fn the_plane_and_space_values() {
        // 4 points: a unit square (M = 2); 16: a 4×4 square (M = 40);
        // 8 points of ℤ³: a unit cube (M = 6).
        assert_eq!(least_square_sum(2, 2), 2);
        assert_eq!(least_square_sum(2, 4), 10);
        assert_eq!(least_square_sum(3, 3), 3);
        // 128 points of the plane: M ≈ 2 604 (4M/n ≈ 81.4).
        assert_eq!(least_square_sum(2, 7), 82);
        // Monotone in j, and the third axis packs tighter.
        for j in 2..=10 {
            assert!(least_square_sum(2, j) < least_square_sum(2, j + 1));
            assert!(least_square_sum(3, j) <= least_square_sum(2, j));
        }
    }

    #[test]
    fn every_small_cube_ruled_out_embeds_nowhere() {
        // The lemma against exhaustive search: every ascending 2- to
        // 4-cube of distances that lifts on these tori and that the lemma
        // rules out has no one-to-one placement at all.
        use crate::optimal::bounds::cuts::small_cube_embeds;
        use crate::optimal::host::SearchHost;
        let mut ruled = 0;
        for sides in [
            vec![16u32],
            vec![64],
            vec![16, 16],
            vec![32, 8],
            vec![8, 8, 8],
        ] {
            let h = SearchHost::new(&sides);
            let half = sides.iter().min().unwrap() / 2;
            let mut dims = Vec::new();
            fn walk(
                h: &SearchHost,
                sides: &[u32],
                half: u32,
                dims: &mut Vec<u32>,
                ruled: &mut u32,
            ) {
                if dims.len() >= 2 && lifts(sides, dims) && rules_out(sides, dims) {
                    let as_u16: Vec<u16> = dims.iter().map(|&x| x as u16).collect();
                    assert!(!small_cube_embeds(h, &as_u16), "{sides:?}: {dims:?} embeds");
                    *ruled += 1;
                }
                if dims.len() == 4 {
                    return;
                }
                for x in dims.last().copied().unwrap_or(1)..half {
                    dims.push(x);
                    walk(h, sides, half, dims, ruled);
                    dims.pop();
                }
            }
            walk(&h, &sides, half, &mut dims, &mut ruled);
        }
        assert!(ruled > 10, "{ruled}");
    }

    #[test]
    fn lifting_needs_the_two_largest_below_half_of_every_side() {
        assert!(lifts(&[32, 32], &[1, 2, 7, 8]));
        assert!(!lifts(&[32, 32], &[1, 2, 8, 8]));
        assert!(!lifts(&[32, 8], &[1, 2, 3]));
        assert!(lifts(&[32, 8], &[1, 1, 2]));
    }

    #[test]
    fn xor_on_a_square_torus_is_never_ruled_out() {
        // xor's prefixes on torus:32x32: 1, 1, 2, 2, 4, 4, 8 (8 + 8 does
        // not lift).
        let xor = [1, 1, 2, 2, 4, 4, 8, 8, 8, 8];
        for j in 2..=xor.len() {
            assert!(!rules_out(&[32, 32], &xor[..j]), "{:?}", &xor[..j]);
        }
        // The 7-cubes the branch and bound took longest to refute there.
        assert!(rules_out(&[32, 32], &[1, 1, 2, 2, 4, 5, 5]));
        assert!(rules_out(&[32, 32], &[1, 2, 3, 4, 4, 4, 4]));
        assert!(!rules_out(&[32, 32], &[1, 2, 2, 4, 5, 5, 5]));
    }
}
