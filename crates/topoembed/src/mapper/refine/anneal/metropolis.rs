//! The Metropolis test of the annealing (Metropolis et al. 1953): an
//! exchange `x` temperatures worse is taken when a uniform draw u in [0, 1)
//! falls below e^(−x). Most draws are decided by a table of e^(−k/16)
//! without computing the exponential: on [k/16, (k+1)/16) it lies between
//! two entries, so u below the lower or at or above the upper settles it,
//! and only a draw between them (at most 1 − e^(−1/16), 6 %, of the draws)
//! computes `(−x).exp()`. The decisions are exactly those of `u <
//! (−x).exp()` (a margin of 10^−9 covers the rounding of x · 16 and of the
//! exponential), so every placement is the one the plain test gives; the
//! exponential was an eighth of the time of a 64-part quotient's annealing.

use std::sync::OnceLock;

/// Table entries per unit of x.
const PER_UNIT: f64 = 16.0;
/// The largest x asked ([`takes`]' callers reject worse exchanges first).
pub const MOST: f64 = 30.0;
/// Relative margin around each entry: far above the rounding of x · 16 and
/// of the exponential (about 10^−15 each), far below the gap between two
/// entries (6 %).
const MARGIN: f64 = 1e-9;

/// e^(−k/16) for k = 0 ..= 30 · 16 + 1.
fn table() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let last = (MOST * PER_UNIT) as usize + 1;
        (0..=last).map(|k| (-(k as f64) / PER_UNIT).exp()).collect()
    })
}

/// Whether a draw `u` in [0, 1) takes an exchange `x` temperatures worse
/// (0 ≤ x ≤ 30, up to rounding): exactly `u < (−x).exp()`.
#[inline]
pub fn takes(x: f64, u: f64) -> bool {
    let table = table();
    // (x ≤ 30 up to rounding: the index fits 32 bits, a shorter conversion
    // than to 64.)
    let k = ((x * PER_UNIT) as u32 as usize).min(table.len() - 2);
    if u < table[k + 1] * (1.0 - MARGIN) {
        true
    } else if u >= table[k] * (1.0 + MARGIN) {
        false
    } else {
        u < (-x).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The table decides as the exponential does, on random x and u
        /// and on draws within a few ulps of e^(−x).
        #[test]
        fn the_table_decides_as_the_exponential(
            x in 0.0f64..30.0,
            u in 0.0f64..1.0,
            ulps in -4i64..=4,
        ) {
            prop_assert_eq!(takes(x, u), u < (-x).exp());
            let near = f64::from_bits(((-x).exp().to_bits() as i64 + ulps) as u64);
            prop_assert_eq!(takes(x, near), near < (-x).exp());
        }
    }

    /// At the entries themselves, at 0 and at the ends of the range.
    #[test]
    fn entries_and_ends_decide_as_the_exponential() {
        for k in 0..=481u32 {
            let x = f64::from(k) / PER_UNIT;
            for u in [0.0, 0.5, (-x).exp(), (-x).exp() * (1.0 - 1e-12), 0.999_999] {
                assert_eq!(takes(x, u), u < (-x).exp(), "x {x}, u {u}");
            }
        }
        assert!(takes(30.000_000_000_000_004, 0.0));
        assert!(!takes(30.0, 1e-13));
    }
}
