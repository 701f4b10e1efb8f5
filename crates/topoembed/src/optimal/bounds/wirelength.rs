//! What the published least *wirelength* of a hypercube on a ring or torus
//! says about the searches here — cited, not checked.
//!
//! An embedding's wirelength is the sum over the cube's edges of their
//! lengths in the host. For a constant-distance embedding every dimension
//! has 2^(d−1) edges of length D_i, so
//!
//! > WL(f) = 2^(d−1) · Σ_i D_i,
//!
//! and a lower bound on the wirelength of *every* bijection bounds Σ D_i.
//! It bounds the CC time over all bijections too (xor paper §2.1): the
//! recurrence gives I_i(n) ≥ D_i(n) + I_{i−1}(n), so the communication time
//! I ≥ max_n Σ_i D_i(n) ≥ the mean (1/2^d)·Σ_n Σ_i D_i(n) = 2·WL(f)/2^d.
//!
//! The least wirelength is known (Gray coding reaches it):
//! * on the ring C_{2^n}: 3·2^(2n−3) − 2^(n−1) (Chavez and Trapp's
//!   conjecture; Guu's 1997 dissertation, its gaps closed by Q. Liu and
//!   Z. Tang, *A rigorous proof on circular wirelength for hypercubes*,
//!   Acta Math. Sci. 43B (2023) 919–941);
//! * on a torus C_{2^{n_1}} × .. × C_{2^{n_c}}: Σ_j 2^(n−n_j) · WL_j, with
//!   WL_j the ring's value for n_j ≥ 2 and 1 for a side of 2 (a path of
//!   two nodes) (Arockiaraj and Shalini's conjecture, TCS 595 (2015);
//!   Z. Tang, *Embedding hypercubes into torus and Cartesian product of
//!   paths and cycles for minimizing wirelength*, arXiv:2302.13237, 2023,
//!   a preprint).
//!
//! That value is exactly 2^(d−1) times xor's Σ D_i (xor's ring distances
//! 1, 2, .., 2^(n−3), 2^(n−2), 2^(n−2) add up to 3·2^(n−2) − 1), so the
//! theorems, if right, settle the xor paper's open question on every torus
//! with power-of-two sides: xor is optimal among constant-distance
//! embeddings, and no bijection, waiting included, has a shorter CC time.
//! The searches here do not use this: their proofs stand on their own, and
//! where they complete they agree with it (tests).

use crate::error::{Error, Result};
use crate::optimal::host::torus_sides;
use crate::spec::Spec;

/// The least wirelength over all bijections of a cube onto the host, as
/// published, and what it implies.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Literature {
    /// The least wirelength over all bijections (Σ over cube edges of
    /// their host distances).
    pub min_wirelength: u64,
    /// The least Σ D_i it allows a constant-distance embedding:
    /// ⌈min_wirelength / 2^(d−1)⌉; it also bounds every bijection's CC
    /// communication time (units of T_c) from below.
    pub min_sum: u64,
    /// Where the theorem is proved (not checked by topoembed).
    pub source: &'static str,
}

/// The ring's theorem, peer reviewed (module docs for the titles).
const RING_SOURCE: &str = "Liu & Tang 2023, Acta Math. Sci. 43B:919-941";
/// The torus's theorem, a preprint.
const TORUS_SOURCE: &str = "Tang 2023, arXiv:2302.13237, a preprint";

/// The least wirelength of Q_n on the ring C_{2^n} (n ≥ 2), or on the
/// path P_2 (n = 1): Gray coding's.
pub fn ring_wirelength(n: u32) -> u64 {
    match n {
        0 => 0,
        1 => 1,
        _ => 3 * (1u64 << (2 * n - 3)) - (1u64 << (n - 1)),
    }
}

/// Largest cube [`literature`] counts for (its values fit in u64 well
/// beyond: 3·2^(2d−3) < 2^64).
pub const MAX_DIMENSION: u32 = 30;

/// The least wirelength of a cube on the torus with these power-of-two
/// `sides` (product 2^d, d ≤ [`MAX_DIMENSION`]): Σ_j 2^(d−n_j) · ring_wirelength(n_j).
pub fn torus_wirelength(sides: &[u32]) -> u64 {
    let d: u32 = sides.iter().map(|k| k.trailing_zeros()).sum();
    sides
        .iter()
        .map(|k| {
            let n = k.trailing_zeros();
            (1u64 << (d - n)) * ring_wirelength(n)
        })
        .sum()
}

/// What the published wirelength theorem says about cube:`d` on `host`
/// (a ring or torus with power-of-two sides and 2^d nodes).
pub fn literature(d: u32, host: &Spec) -> Result<Literature> {
    if d > MAX_DIMENSION {
        return Err(Error::Parameter(format!(
            "cube:{d}: the wirelength is counted for cubes up to {MAX_DIMENSION} dimensions"
        )));
    }
    let sides = torus_sides(d, host)?;
    let min_wirelength = torus_wirelength(&sides);
    let edges_per_dimension = 1u64 << d.saturating_sub(1);
    Ok(Literature {
        min_wirelength,
        min_sum: min_wirelength.div_ceil(edges_per_dimension),
        // A torus with sides of 2 is a product of cycles and paths: the
        // preprint's theorem; only a ring is the journal's.
        source: if sides.len() == 1 {
            RING_SOURCE
        } else {
            TORUS_SOURCE
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bijection of cube:d onto the torus (d ≤ 3: 8! of them), its
    /// least wirelength by enumeration, distances by coordinates.
    fn least_wirelength_by_enumeration(sides: &[u32]) -> u64 {
        let n: u32 = sides.iter().product();
        let d = n.trailing_zeros();
        let lee = |x: u32, y: u32| -> u64 {
            let (mut x, mut y, mut total) = (x, y, 0);
            for &k in sides {
                let gap = (x % k).abs_diff(y % k);
                total += u64::from(gap.min(k - gap));
                x /= k;
                y /= k;
            }
            total
        };
        fn permute(
            at: &mut Vec<u32>,
            free: &mut Vec<bool>,
            best: &mut u64,
            cost: &dyn Fn(&[u32]) -> u64,
        ) {
            if at.len() == free.len() {
                *best = (*best).min(cost(at));
                return;
            }
            for v in 0..free.len() {
                if free[v] {
                    free[v] = false;
                    at.push(v as u32);
                    permute(at, free, best, cost);
                    at.pop();
                    free[v] = true;
                }
            }
        }
        let cost = |at: &[u32]| -> u64 {
            (0..n)
                .flat_map(|x| (0..d).map(move |i| (x, x ^ 1 << i)))
                .filter(|(x, y)| x < y)
                .map(|(x, y)| lee(at[x as usize], at[y as usize]))
                .sum()
        };
        let mut best = u64::MAX;
        permute(
            &mut Vec::new(),
            &mut vec![true; n as usize],
            &mut best,
            &cost,
        );
        best
    }

    #[test]
    fn the_published_value_is_the_least_by_enumeration_on_small_hosts() {
        for sides in [
            vec![2],
            vec![4],
            vec![2, 2],
            vec![8],
            vec![4, 2],
            vec![2, 2, 2],
        ] {
            assert_eq!(
                torus_wirelength(&sides),
                least_wirelength_by_enumeration(&sides),
                "{sides:?}"
            );
        }
    }

    #[test]
    fn the_ring_value_follows_the_closed_form() {
        // 3·2^(2n−3) − 2^(n−1) = 2^(n−1) · (3·2^(n−2) − 1).
        assert_eq!(ring_wirelength(2), 4);
        assert_eq!(ring_wirelength(3), 20);
        assert_eq!(ring_wirelength(4), 88);
        assert_eq!(ring_wirelength(5), 368);
        for n in 2..=20 {
            assert_eq!(
                ring_wirelength(n),
                (1 << (n - 1)) * (3 * (1 << (n - 2)) - 1)
            );
        }
    }

    #[test]
    fn the_bound_names_its_source_and_rounds_up() {
        let ring = literature(5, &"ring:32".parse().unwrap()).unwrap();
        assert_eq!((ring.min_wirelength, ring.min_sum), (368, 23));
        assert!(ring.source.contains("Acta"));
        let torus = literature(10, &"torus:32x32".parse().unwrap()).unwrap();
        assert_eq!((torus.min_wirelength, torus.min_sum), (23552, 46));
        assert!(torus.source.contains("arXiv"));
        assert!(literature(4, &"torus:8x4".parse().unwrap()).is_err());
        assert!(literature(31, &"ring:2147483648".parse().unwrap()).is_err());
        let large = literature(30, &"torus:32768x32768".parse().unwrap()).unwrap();
        assert_eq!(large.min_sum, 2 * (3 * (1 << 13) - 1));
    }
}
