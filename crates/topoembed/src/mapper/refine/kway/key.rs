//! The key of a search's queue ([`super::Scratch`]): a queued vertex's
//! best move, ordered by gain and then by vertex — each vertex is queued
//! once, so the keys are distinct and every queue pops one order — with
//! its target carried along.
//!
//! Where every gain of the refinement fits 64 bits ([`gains_fit_i64`]) the
//! three are packed into one `u128` ([`Packed`]): one comparison, and
//! 32-byte heap entries where the tuple `(i128, u32, u32)` ([`Wide`], kept
//! for the rest) took 48. The order is the tuple's, so the placements are
//! the same. Benchmark (mdual onto torus:16x16, one thread, medians of 5
//! runs interleaved with the tuple's): 2.87 → 2.79 s; with FM's packed
//! keys ([`crate::mapper::refine::fm`]) the 38 pairs of `bench/mapper.sh`
//! on one thread 0.985–0.992x the time, three rounds.

use crate::mapper::distance::HostDistance;
use crate::mapper::graph::WGraph;
use crate::mapper::refine::queue::{gain_bits, gain_of_bits};

/// A best move as the queue orders it.
pub(super) trait MoveKey: Copy + Ord + Send + Sync {
    /// Moving `v` to host node `t` gains `gain`.
    fn new(gain: i128, v: u32, t: u32) -> Self;
    /// The gain the key was made with.
    fn gain(self) -> i128;
    /// The host node the move goes to.
    fn target(self) -> u32;
}

/// A gain within ±2^63 in the high 64 bits (its sign bit flipped, so the
/// unsigned order is the signed one), the vertex and the target below.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Packed(u128);

impl MoveKey for Packed {
    #[inline]
    fn new(gain: i128, v: u32, t: u32) -> Packed {
        debug_assert!(i64::try_from(gain).is_ok(), "gain {gain} beyond 64 bits");
        let high = gain_bits(gain as i64);
        Packed(u128::from(high) << 64 | u128::from(v) << 32 | u128::from(t))
    }

    #[inline]
    fn gain(self) -> i128 {
        i128::from(gain_of_bits((self.0 >> 64) as u64))
    }

    #[inline]
    fn target(self) -> u32 {
        self.0 as u32
    }
}

/// Any gain: (gain, vertex, target).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Wide(i128, u32, u32);

impl MoveKey for Wide {
    #[inline]
    fn new(gain: i128, v: u32, t: u32) -> Wide {
        Wide(gain, v, t)
    }

    #[inline]
    fn gain(self) -> i128 {
        self.0
    }

    #[inline]
    fn target(self) -> u32 {
        self.2
    }
}

/// Whether every gain of a refinement of `g` onto `dist`'s host fits an
/// i64 with room to spare: a gain is a difference of two sums of volume ×
/// distance over one vertex's edges, so the graph's whole volume times the
/// host's largest distance bounds it.
pub(super) fn gains_fit_i64(g: &WGraph, dist: &HostDistance) -> bool {
    let volume: u128 = g.ew.iter().map(|&w| u128::from(w)).sum();
    volume.saturating_mul(u128::from(dist.host().distance_bound())) < 1 << 62
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;
    use proptest::prelude::*;

    proptest! {
        /// Packed keys order as the tuples do, and give back what they
        /// hold, over gains up to ±2^62 and any vertex and target.
        #[test]
        fn packed_keys_order_as_tuples(
            a in (-(1i64 << 62)..(1i64 << 62), any::<u32>(), any::<u32>()),
            b in (-(1i64 << 62)..(1i64 << 62), any::<u32>(), any::<u32>()),
            small in -3i64..3,
        ) {
            for (x, y) in [(a, b), (a, (small, a.1, b.2)), ((small, a.1, a.2), (small, b.1, b.2))] {
                let (px, py) = (Packed::new(x.0.into(), x.1, x.2), Packed::new(y.0.into(), y.1, y.2));
                let (wx, wy) = (Wide::new(x.0.into(), x.1, x.2), Wide::new(y.0.into(), y.1, y.2));
                prop_assert_eq!(px.cmp(&py), wx.cmp(&wy));
                prop_assert_eq!((px.gain(), px.target()), (i128::from(x.0), x.2));
            }
        }
    }

    /// The extremes of the packed range keep their order and values.
    #[test]
    fn extreme_gains_keep_their_order() {
        let gains = [i64::MIN, -1, 0, 1, i64::MAX].map(i128::from);
        for w in gains.windows(2) {
            assert!(Packed::new(w[0], 7, 9) < Packed::new(w[1], 0, 0));
            assert_eq!(Packed::new(w[0], 7, 9).gain(), w[0]);
        }
        assert!(Packed::new(5, 1, u32::MAX) < Packed::new(5, 2, 0));
    }

    /// Small volumes pack; volumes whose gains may pass 2^62 do not.
    #[test]
    fn large_volumes_take_the_wide_keys() {
        let host = topology::parse("torus:4x4").unwrap();
        let dist = HostDistance::new(host.as_ref()).unwrap();
        let mut g = WGraph::from_topology(topology::parse("ring:8").unwrap().as_ref()).unwrap();
        assert!(gains_fit_i64(&g, &dist));
        g.ew.iter_mut().for_each(|w| *w = 1 << 58);
        assert!(!gains_fit_i64(&g, &dist));
    }
}
