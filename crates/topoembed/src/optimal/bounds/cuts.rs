//! Which distance vectors the search by vectors may skip without deciding
//! them, beyond the counting bounds of [`crate::optimal::search::constant`]:
//!
//! * **small cubes**: a constant-distance embedding of the d-cube restricts
//!   to one of each of its sub-cubes, with the same distances, so a vector
//!   two or three of whose distances no 2- or 3-cube embeds with (decided
//!   here by exhaustive search on the host, and remembered) has no
//!   embedding. On a ring this is the xor paper's Lemma 2: two equal
//!   distances are N/4;
//! * **the axis lemma**: *on a torus with an axis of side k, if the two
//!   largest distances add up to less than k/2, then Σ D_i ≥ k − 1*. On a
//!   ring (k = N) this is the paper's Corollary 9 (stated there for every
//!   distance below N/4, and proved through its Lemmas 2–7). The proof here:
//!   1. An edge of dimension i moves the axis coordinate by a step t, the
//!      shorter way round that axis: |t| ≤ D_i < k/2, so t is unique and the
//!      edge taken backwards steps −t.
//!   2. Round a 4-cycle of dimensions j and l the four steps add up to 0
//!      mod k, and their sizes to at most 2D_j + 2D_l < k: so to 0 in ℤ.
//!   3. So the steps add up to 0 round every closed walk of the cube: its
//!      flips can be brought to nothing by swapping neighbouring flips of
//!      different dimensions (a 4-cycle: the sum is unchanged) and dropping
//!      a flip repeated at once (t − t). The axis coordinate therefore lifts
//!      to an integer F(c) on the cube nodes with F(c ⊕ e_i) − F(c) the step.
//!   4. The images take every one of the k values of the axis, so F takes
//!      at least k integer values: max F − min F ≥ k − 1. From the node of
//!      the minimum to the node of the maximum, flipping each dimension they
//!      differ in once, F changes by at most Σ D_i. So Σ D_i ≥ k − 1.
//!
//!   On a ring, with Lemma 1 (any d − 2 distances add up to at least
//!   N/4 − 1, as the counting bounds state it), a vector below xor's
//!   3N/4 − 1 has its two largest below N/2: below N − 1, it is ruled out.
//!   So on rings nothing below xor is left, for every d. On a torus every
//!   side gives one such rule: on torus:64x4, every vector below xor's 49
//!   needs its two largest to reach 32.
//! * **the two-axis lemma**: *on a torus with axes of sides k_a and k_b, if
//!   the two largest distances add up to less than min(k_a, k_b)/2, then
//!   Σ D_i ≥ 3(k_a + k_b − 2)/4.* Both coordinates lift as above, to F_a
//!   and F_b, and a step of dimension i moves (F_a, F_b) by at most D_i in
//!   the L1 norm. Take the nodes where F_a and F_b are least and greatest,
//!   and a closed walk of the cube through the four, in some cyclic order,
//!   each leg flipping the dimensions its ends differ in once. The walk's
//!   image goes from the least F_a to the greatest and back, and so for
//!   F_b: its L1 length is at least 2(k_a − 1) + 2(k_b − 1). A dimension is
//!   flipped on 0, 2 or 4 legs, and on 4 in at most one of the three cyclic
//!   orders (when its bit alternates round that order), so the shortest of
//!   the three walks is at most 2Σ D_i + 2·(Σ D_i)/3 long. Hence
//!   (k_a − 1) + (k_b − 1) ≤ (4/3)·Σ D_i.
//!
//! * **the lift lemma** (`--bounds lift`, the default): *if the coordinate
//!   on an axis of side k lifts to the integers as in the axis lemma — in
//!   particular if the two largest distances add up to less than k/2 — then
//!   Σ D_i ≥ k − 1 + Σ_{b ≠ a} ⌊k_b/2⌋*, k − 1 plus the diameter of the
//!   torus of the other sides. Proof: let F be the lift, m and M nodes of
//!   its least and greatest values (F(M) − F(m) ≥ k − 1, step 4 above) and
//!   S the dimensions they differ in. For any node x let y agree with x on
//!   S and with m elsewhere. A path from m through y to M flips each
//!   dimension of S once; an edge of dimension i moves |step| along the
//!   axis and D_i − |step| over the other axes (the torus distance is the
//!   sum over the axes), and the steps climb F by at least k − 1 on the
//!   way: so over the other axes the path, and its part from m to y,
//!   moves at most Σ_{i∈S} D_i − (k − 1). From y to x flips only
//!   dimensions outside S, each once: at most Σ_{i∉S} D_i more. Every
//!   image is therefore within Σ D_i − (k − 1) of m's over the other axes;
//!   as the images cover the torus, one is the other axes' diameter away.
//!   On a ring the diameter is 0 and this is the axis lemma. On a torus it
//!   is stronger, and it implies the two-axis lemma: the longest side's
//!   rule reaches at least as high (by (k_a − k_b + 2)/4) and needs at least
//!   as much, so `lift` uses the one-side rules only. On torus:32x16 it
//!   leaves 98 of the 879 vectors `all` leaves; on 16x8, none of 5.
//!
//! * **the winding cocycle** (`lift`, on whole vectors): the winding lemma
//!   for several pairs reaching half a side, in [`crate::optimal::bounds::cocycle`].
//! * **the energy lemma** (`--bounds energy`, the default since
//!   2026-12-01): a sub-cube whose two largest distances add up to less
//!   than half of every side lifts to the lattice, where the Poincaré
//!   inequality on the cube caps how far apart its distances spread its
//!   2^j distinct images: Σ D_i² ≥ 4·M/2^j, M the least moment of inertia
//!   of 2^j lattice points ([`crate::optimal::bounds::energy`]).
//!
//! [`crate::optimal::certificate`] recomputes them with code of its own (the
//! winding cocycle with that module's search). A
//! certificate says which of them it relies on ([`Bounds`]).

use std::collections::HashMap;

use crate::optimal::host::SearchHost;

/// The bounds a search by vectors uses, each level including the ones before.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Bounds {
    /// The counting bounds only: sub-cube images are distinct, near node 0
    /// and in one ellipse (the certificates of earlier versions).
    #[default]
    Counting,
    /// Also: every pair and triple of distances must embed as a 2- or 3-cube.
    SmallCubes,
    /// Also the axis lemmas (module docs), on every side and every pair
    /// of sides, and the winding lemma in its first form, exactly as
    /// certificates of earlier versions name them.
    All,
    /// The axis lemmas sharpened by the lift lemma (module docs), the
    /// winding lemma in its lifted form, and the winding cocycle on whole
    /// vectors ([`crate::optimal::bounds::cocycle`]), as certificates of
    /// earlier versions name them.
    Lift,
    /// Also the energy lemma on every prefix ([`crate::optimal::bounds::energy`]): the
    /// default.
    Energy,
}

impl Bounds {
    /// The name the CLI and certificates use.
    pub fn name(self) -> &'static str {
        match self {
            Bounds::Counting => "counting",
            Bounds::SmallCubes => "small-cubes",
            Bounds::All => "all",
            Bounds::Lift => "lift",
            Bounds::Energy => "energy",
        }
    }
}

impl std::str::FromStr for Bounds {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Bounds, String> {
        [
            Bounds::Counting,
            Bounds::SmallCubes,
            Bounds::All,
            Bounds::Lift,
            Bounds::Energy,
        ]
        .into_iter()
        .find(|b| b.name() == s)
        .ok_or_else(|| format!("bounds {s:?}: expected counting, small-cubes, all, lift or energy"))
    }
}

/// The cuts of one search: which pairs and triples of distances embed
/// (computed on first use), and the rules of the axis lemmas.
pub(in crate::optimal) struct Cuts<'a> {
    h: &'a SearchHost,
    bounds: Bounds,
    rules: Vec<AxisRule>,
    cubes: HashMap<Vec<u16>, bool>,
    /// The winding cocycle's verdicts so far ([`crate::optimal::bounds::cocycle`]).
    cocycles: crate::optimal::bounds::cocycle::Verdicts,
}

/// One axis lemma as a rule: a vector with a sum below `below` needs its
/// two largest entries to add up to `need` or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::optimal) struct AxisRule {
    pub below: u32,
    pub need: u32,
}

pub use crate::optimal::bounds::lift::lift_bound;

/// The rules of the axis lemmas (module docs) on a torus of these sides.
/// With `lift`, one per side (below its [`lift_bound`], need k/2): the
/// two-axis lemma's rules are weaker than the longest side's (module
/// docs). Without, as first published: one per side k (below k − 1, need
/// k/2) and one per pair of sides (below 3(k_a + k_b − 2)/4, need
/// min(k_a, k_b)/2).
pub(in crate::optimal) fn axis_rules(sides: &[u32], lift: bool) -> Vec<AxisRule> {
    if lift {
        return (0..sides.len())
            .map(|a| AxisRule {
                below: lift_bound(sides, a),
                need: sides[a].div_ceil(2),
            })
            .collect();
    }
    let mut rules: Vec<AxisRule> = sides
        .iter()
        .map(|&k| AxisRule {
            below: k.saturating_sub(1),
            need: k.div_ceil(2),
        })
        .collect();
    for (a, &ka) in sides.iter().enumerate() {
        for &kb in &sides[a + 1..] {
            rules.push(AxisRule {
                below: (3 * (ka + kb).saturating_sub(2)).div_ceil(4),
                need: ka.min(kb).div_ceil(2),
            });
        }
    }
    rules
}

impl<'a> Cuts<'a> {
    /// `sides`: the host's, for the axis lemmas.
    pub(in crate::optimal) fn new(h: &'a SearchHost, bounds: Bounds, sides: &[u32]) -> Cuts<'a> {
        Cuts {
            h,
            bounds,
            rules: if bounds >= Bounds::All {
                axis_rules(sides, bounds >= Bounds::Lift)
            } else {
                Vec::new()
            },
            cubes: HashMap::new(),
            cocycles: crate::optimal::bounds::cocycle::Verdicts::default(),
        }
    }

    /// Whether a whole vector (ascending) survives the cuts that need all
    /// of it: with `lift`, the winding cocycle ([`crate::optimal::bounds::cocycle`]).
    pub(in crate::optimal) fn admits_vector(&mut self, dims: &[u32]) -> bool {
        self.bounds < Bounds::Lift || !self.cocycles.rules_out(self.h.sides(), dims)
    }

    /// Settles, on all cores, what [`Cuts::admits_vector`] will be asked
    /// of `vectors` (the winding cocycle's searches, once per key).
    pub(in crate::optimal) fn settle_vectors(&mut self, vectors: &[Vec<u32>]) {
        if self.bounds >= Bounds::Lift {
            self.cocycles.settle(self.h.sides(), vectors.iter());
        }
    }

    /// Whether appending `next` (not below any entry) to the ascending
    /// `dims` keeps every pair and triple of distances embeddable, and
    /// (`energy`) the sub-cube of them all within the energy lemma.
    pub(in crate::optimal) fn admits(&mut self, dims: &[u32], next: u32) -> bool {
        if self.bounds < Bounds::SmallCubes {
            return true;
        }
        if self.bounds >= Bounds::Energy
            && crate::optimal::bounds::energy::rules_out_with(self.h.sides(), dims, next)
        {
            return false;
        }
        let next = next as u16;
        for (i, &a) in dims.iter().enumerate() {
            // Equal entries give the same pairs and triples again.
            if i > 0 && dims[i - 1] == a {
                continue;
            }
            if !self.embeds(vec![a as u16, next]) {
                return false;
            }
            for (j, &b) in dims.iter().enumerate().skip(i + 1) {
                if j > i + 1 && dims[j - 1] == b {
                    continue;
                }
                if !self.embeds(vec![a as u16, b as u16, next]) {
                    return false;
                }
            }
        }
        true
    }

    /// For a sum `s`: the most the first d − 2 entries may add up to (the
    /// axis lemmas: the last two must reach every `need` of a rule whose
    /// `below` is above s), or None when nothing caps them. `Some(None)`:
    /// no vector of sum s survives.
    pub(in crate::optimal) fn axis_cap(&self, d: usize, s: u32) -> Option<Option<u32>> {
        let need = self
            .rules
            .iter()
            .filter(|r| s < r.below)
            .map(|r| r.need)
            .max()?;
        if d < 2 {
            return None;
        }
        Some(s.checked_sub(need))
    }

    /// Whether a small cube with these distances (ascending) embeds.
    fn embeds(&mut self, dims: Vec<u16>) -> bool {
        if let Some(&known) = self.cubes.get(&dims) {
            return known;
        }
        let known = small_cube_embeds(self.h, &dims);
        self.cubes.insert(dims, known);
        known
    }
}

/// Whether the k-cube (k = `dims.len()`, small) embeds in the host with
/// dimension i at distance `dims[i]`: an exhaustive search with f(0) = 0
/// and f(1) on the least node of each orbit of the symmetries fixing 0.
pub(in crate::optimal) fn small_cube_embeds(h: &SearchHost, dims: &[u16]) -> bool {
    fn place(h: &SearchHost, dims: &[u16], at: &mut Vec<u16>) -> bool {
        let v = at.len();
        if v == 1 << dims.len() {
            return true;
        }
        let low = v.trailing_zeros() as usize;
        let base = at[v ^ (1 << low)];
        for &step in h.sphere(dims[low]) {
            let x = h.add(base, step);
            if v == 1 && h.symmetries().iter().any(|s| s[x as usize] < x) {
                continue;
            }
            let fits = !at.contains(&x)
                && (low + 1..dims.len())
                    .filter(|&i| v & (1 << i) != 0)
                    .all(|i| h.d(at[v ^ (1 << i)], x) == dims[i]);
            if fits {
                at.push(x);
                if place(h, dims, at) {
                    return true;
                }
                at.pop();
            }
        }
        false
    }
    place(h, dims, &mut vec![0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_distances_on_a_ring_are_a_quarter_of_it() {
        // The xor paper's Lemma 2, found by the search: on ring:32 a
        // 2-cube with two equal distances D embeds only for D = 8.
        let h = SearchHost::new(&[32]);
        for a in 1..=16u16 {
            assert_eq!(small_cube_embeds(&h, &[a, a]), a == 8, "D = {a}");
            for b in a + 1..=16 {
                // Distinct distances: x, x + a, x + a + b, x + b (b < 16
                // or a < 16 keeps the four apart).
                assert!(small_cube_embeds(&h, &[a, b]), "({a}, {b})");
            }
        }
    }

    #[test]
    fn the_3_cube_of_unit_distances_is_not_in_a_grid() {
        let h = SearchHost::new(&[8, 8]);
        assert!(small_cube_embeds(&h, &[1, 1]));
        assert!(!small_cube_embeds(&h, &[1, 1, 1]));
        assert!(small_cube_embeds(&h, &[1, 1, 4]));
        // In three dimensions it is.
        assert!(small_cube_embeds(&SearchHost::new(&[4, 4, 4]), &[1, 1, 1]));
    }

    #[test]
    fn small_cubes_agree_with_brute_force() {
        // Against every placement, without symmetry breaking.
        fn brute(h: &SearchHost, dims: &[u16]) -> bool {
            let n = h.nodes() as u16;
            let m = 1usize << dims.len();
            let mut at = vec![0u16; m];
            fn go(h: &SearchHost, dims: &[u16], at: &mut [u16], v: usize, n: u16) -> bool {
                if v == at.len() {
                    return true;
                }
                (0..n).any(|x| {
                    let ok = !at[..v].contains(&x)
                        && (0..dims.len())
                            .filter(|&i| v & (1 << i) != 0)
                            .all(|i| h.d(at[v ^ (1 << i)], x) == dims[i]);
                    ok && {
                        at[v] = x;
                        go(h, dims, at, v + 1, n)
                    }
                })
            }
            go(h, dims, &mut at, 1, n)
        }
        for sides in [vec![16], vec![4, 4], vec![8, 2], vec![2, 2, 2]] {
            let h = SearchHost::new(&sides);
            let top = h.diameter();
            for a in 1..=top {
                for b in a..=top {
                    assert_eq!(small_cube_embeds(&h, &[a, b]), brute(&h, &[a, b]));
                    for c in b..=top {
                        let dims = [a, b, c];
                        assert_eq!(
                            small_cube_embeds(&h, &dims),
                            brute(&h, &dims),
                            "{sides:?} {dims:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_axis_lemma_caps_the_first_entries() {
        let h = SearchHost::new(&[64]);
        let cuts = Cuts::new(&h, Bounds::All, &[64]);
        // k = 64, d = 6, s = 40: the first four add up to at most 8.
        assert_eq!(cuts.axis_cap(6, 40), Some(Some(8)));
        assert_eq!(cuts.axis_cap(6, 20), Some(None));
        assert_eq!(cuts.axis_cap(6, 63), None);
        let weaker = Cuts::new(&h, Bounds::SmallCubes, &[64]);
        assert_eq!(weaker.axis_cap(6, 40), None);
        // torus:32x16: the sides' rules (31, 16) and (15, 8), the pair's
        // (3·46/4 → 35, 8).
        let rules = axis_rules(&[32, 16], false);
        let pairs: Vec<(u32, u32)> = rules.iter().map(|r| (r.below, r.need)).collect();
        assert_eq!(pairs, vec![(31, 16), (15, 8), (35, 8)]);
        let h = SearchHost::new(&[32, 16]);
        let cuts = Cuts::new(&h, Bounds::All, &[32, 16]);
        assert_eq!(cuts.axis_cap(9, 30), Some(Some(14)));
        assert_eq!(cuts.axis_cap(9, 33), Some(Some(25)));
        assert_eq!(cuts.axis_cap(9, 35), None);
    }
}
