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

/// [`PER_UNIT`] / `t`: the scale [`takes_worse`] reads its table's index
/// by, computed once a step where the temperature `t` changes.
#[inline]
pub fn per_unit(t: f64) -> f64 {
    PER_UNIT / t
}

/// Whether a draw `u` in [0, 1) takes an exchange `change` worse at
/// temperature `t` (0 ≤ change ≤ 30 · t): exactly `u < (−(change /
/// t)).exp()`, as [`takes`] decides it, with `scale` = [`per_unit`]`(t)`.
///
/// The table's index is read from `change · scale`, a multiplication, so
/// that no division stands between an exchange's price and its decision
/// (the caller divides while the exchange is priced, and `change / t` is
/// divided only for the few draws the table leaves open). The index may
/// then differ from ⌊16 · change / t⌋ where that quotient lies within
/// rounding (10^−13) of an entry, and [`MARGIN`] covers that as it covers
/// the rounding of x · 16: the decisions are the same. In the annealing's
/// loop the division was a fifth of the samples of a 256-part quotient's
/// layout.
#[inline]
pub fn takes_worse(change: f64, t: f64, scale: f64, u: f64) -> bool {
    decide(change * scale, u, || change / t)
}

/// The table's verdict for `u` at `scaled` ≈ x · [`PER_UNIT`], or
/// `u < (−x).exp()` where the table leaves it open (`x()`: x exactly).
#[inline]
fn decide(scaled: f64, u: f64, x: impl FnOnce() -> f64) -> bool {
    let table = table();
    // (x ≤ 30 up to rounding, so the index fits 32 bits: a shorter
    // conversion than to 64.)
    let k = (scaled as u32 as usize).min(table.len() - 2);
    if u < table[k + 1] * (1.0 - MARGIN) {
        true
    } else if u >= table[k] * (1.0 + MARGIN) {
        false
    } else {
        u < (-x()).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An exchange `x` temperatures worse at temperature 1.
    fn takes(x: f64, u: f64) -> bool {
        takes_worse(x, 1.0, per_unit(1.0), u)
    }

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

        /// An exchange priced in hop-bytes at a temperature is decided as
        /// its share of the temperature is, on random draws, on draws
        /// within a few ulps of the threshold, and on changes that put
        /// the share at or next to one of the table's entries.
        #[test]
        fn a_change_at_a_temperature_decides_as_its_share(
            t in 1e-3f64..1e9,
            share in 0.0f64..30.0,
            entry in 0u32..=480,
            u in 0.0f64..1.0,
            ulps in -4i64..=4,
        ) {
            let scale = per_unit(t);
            for change in [(share * t).round(), (f64::from(entry) / PER_UNIT * t).round(), f64::from(entry) / PER_UNIT * t] {
                let x = change / t;
                if !(0.0..=MOST).contains(&x) {
                    continue;
                }
                prop_assert_eq!(takes_worse(change, t, scale, u), u < (-x).exp());
                let near = f64::from_bits(((-x).exp().to_bits() as i64 + ulps) as u64);
                prop_assert_eq!(takes_worse(change, t, scale, near), near < (-x).exp());
            }
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
