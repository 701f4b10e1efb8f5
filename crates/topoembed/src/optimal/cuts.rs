//! Which distance vectors the search by vectors may skip without deciding
//! them, beyond the counting bounds of [`super::constant`]:
//!
//! * **small cubes**: a constant-distance embedding of the d-cube restricts
//!   to one of each of its sub-cubes, with the same distances, so a vector
//!   two or three of whose distances no 2- or 3-cube embeds with (decided
//!   here by exhaustive search on the host, and remembered) has no
//!   embedding. On a ring this is the xor paper's Lemma 2: two equal
//!   distances are N/4;
//! * **the ring lemma** (rings only): with N nodes, if the two largest
//!   distances add up to less than N/2, then Σ D_i ≥ N − 1. This is the
//!   paper's Corollary 9 (there: every distance below N/4), proved here
//!   more simply:
//!   1. No two distances are equal: two equal distances D would be N/4
//!      (Lemma 2), and then the two largest add up to N/2 or more.
//!   2. On a ring, dimension i moves node x to x + s_i(x)·D_i, with
//!      s_i(x) = ±1. Follow the 4-cycle x → σ_j x → σ_k σ_j x → σ_k x → x
//!      of two dimensions j ≠ k. Its four moves α D_j, β D_k, γ D_j and
//!      δ D_k add up to 0 mod N, and their absolute values add up to
//!      2D_j + 2D_k < N. So the sum is 0 in ℤ: (α + γ)D_j + (β + δ)D_k = 0.
//!      Since D_j ≠ D_k, this forces γ = −α. That says s_j(σ_k x) = s_j(x):
//!      moving along another dimension never turns dimension j around.
//!   3. Take any node x. The images of all 2^d cube nodes are then
//!      x + Σ_{i∈W} s_i(x)·D_i over the subsets W. These are 2^d = N
//!      distinct residues mod N, all lying in one interval of Σ D_i + 1
//!      integers. So Σ D_i ≥ N − 1.
//!
//!   On a ring the three together rule out every vector below xor's
//!   3·2^(d−2) − 1, for every d. Of any d − 2 distances,
//!   Σ ≥ 2^(d−2) − 1 = N/4 − 1 (Lemma 1 as the counting bounds state it),
//!   so a vector below that sum has D_{d−2} + D_{d−1} < N/2.
//!
//! [`super::certificate`] recomputes both with code of its own. A
//! certificate says which of them it relies on ([`Bounds`]).

use std::collections::HashMap;

use super::host::SearchHost;

/// The bounds a search by vectors uses, each level including the ones before.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
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
    /// Also the ring lemma (module docs), on rings.
    All,
}

impl Bounds {
    /// The name the CLI and certificates use.
    pub fn name(self) -> &'static str {
        match self {
            Bounds::Counting => "counting",
            Bounds::SmallCubes => "small-cubes",
            Bounds::All => "all",
        }
    }
}

impl std::str::FromStr for Bounds {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Bounds, String> {
        [Bounds::Counting, Bounds::SmallCubes, Bounds::All]
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| format!("bounds {s:?}: expected counting, small-cubes or all"))
    }
}

/// The cuts of one search: which pairs and triples of distances embed
/// (computed on first use), and the ring's node count.
pub(super) struct Cuts<'a> {
    h: &'a SearchHost,
    bounds: Bounds,
    /// N when the host is a ring (the ring lemma applies).
    ring: Option<u32>,
    cubes: HashMap<Vec<u16>, bool>,
}

impl<'a> Cuts<'a> {
    pub(super) fn new(h: &'a SearchHost, bounds: Bounds, is_ring: bool) -> Cuts<'a> {
        Cuts {
            h,
            bounds,
            ring: (is_ring && bounds >= Bounds::All).then_some(h.nodes() as u32),
            cubes: HashMap::new(),
        }
    }

    /// Whether appending `next` (not below any entry) to the ascending
    /// `dims` keeps every pair and triple of distances embeddable.
    pub(super) fn admits(&mut self, dims: &[u32], next: u32) -> bool {
        if self.bounds < Bounds::SmallCubes {
            return true;
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
    /// ring lemma: the last two must reach N/2 when s < N − 1), or None
    /// when nothing caps them. `Some(None)`: no vector of sum s survives.
    pub(super) fn ring_cap(&self, d: usize, s: u32) -> Option<Option<u32>> {
        let n = self.ring?;
        if d < 2 || s >= n - 1 {
            return None;
        }
        Some(s.checked_sub(n / 2))
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
pub(super) fn small_cube_embeds(h: &SearchHost, dims: &[u16]) -> bool {
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
    fn the_ring_lemma_caps_the_first_entries() {
        let h = SearchHost::new(&[64]);
        let cuts = Cuts::new(&h, Bounds::All, true);
        // N = 64, d = 6, s = 40: the first four add up to at most 8.
        assert_eq!(cuts.ring_cap(6, 40), Some(Some(8)));
        assert_eq!(cuts.ring_cap(6, 20), Some(None));
        assert_eq!(cuts.ring_cap(6, 63), None);
        assert_eq!(
            Cuts::new(&h, Bounds::SmallCubes, true).ring_cap(6, 40),
            None
        );
    }
}
