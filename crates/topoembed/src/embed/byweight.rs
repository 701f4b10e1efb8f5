//! `byweight`: the byweight embedding of a d-cube onto a line or ring (xor paper
//! §2.3, after Harper and Lai & Sprague): cube labels ordered by weight (number
//! of 1 bits), equal weights in descending order, placed left to right.
//! It minimises the largest dilation on a line but has no constant distances.

use super::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::spec::{Spec, MAX_CUBE_DIM};
use crate::topology::Topology;

pub(super) const METHOD: Method = Method {
    name: "byweight",
    guest: "cube:D",
    host: "line, ring",
    preconditions: "host has 2^D nodes",
    summary:
        "labels by weight, equal weights descending (xor paper §2.3); least max dilation on a line",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let Spec::Cube(d) = *guest.spec() else {
        return Err("the guest must be a hypercube (cube:D)".into());
    };
    if !matches!(host.spec(), Spec::Line(_) | Spec::Ring(_))
        && !matches!(host.spec().grid(), Some((s, _)) if s.len() == 1)
    {
        return Err("the host must be a line or ring".into());
    }
    same_node_count(guest, host)?;
    Ok(Box::new(ByWeight::new(d)))
}

const TABLE: usize = MAX_CUBE_DIM as usize + 1;

/// Byweight order of a d-cube. Positions are computed by combinatorial ranking
/// in O(d), so nothing of size 2^d is stored.
#[derive(Debug, Clone)]
pub struct ByWeight {
    dim: u32,
    /// binom[n][k] = C(n, k); C(40, 20) < 2^38.
    binom: Box<[[u64; TABLE]; TABLE]>,
    /// first[w] = number of labels of weight < w: where weight w starts.
    first: [u64; TABLE + 1],
}

impl ByWeight {
    /// Byweight embedding of `cube:dim`.
    pub fn new(dim: u32) -> ByWeight {
        let mut binom = Box::new([[0u64; TABLE]; TABLE]);
        for n in 0..TABLE {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0 };
            }
        }
        let mut first = [0u64; TABLE + 1];
        for w in 0..TABLE {
            first[w + 1] = first[w] + binom[dim as usize][w];
        }
        ByWeight { dim, binom, first }
    }

    /// How many labels of the same weight are smaller than `n` (its ascending rank).
    fn rank_in_weight(&self, n: u64) -> u64 {
        let mut rank = 0;
        let mut ones = n.count_ones() as usize;
        let mut rest = n;
        while rest != 0 {
            let bit = 63 - rest.leading_zeros() as usize;
            // Labels equal to n above `bit`, with a 0 at `bit` and all `ones`
            // remaining 1s below it, are smaller than n.
            rank += self.binom[bit][ones];
            ones -= 1;
            rest &= !(1 << bit);
        }
        rank
    }

    /// The label of weight `ones` with ascending rank `rank` (inverse of `rank_in_weight`).
    fn unrank_in_weight(&self, mut rank: u64, mut ones: usize) -> u64 {
        let mut n = 0;
        for bit in (0..self.dim as usize).rev() {
            if ones == 0 {
                break;
            }
            let with_zero_here = self.binom[bit][ones];
            if rank >= with_zero_here {
                n |= 1 << bit;
                rank -= with_zero_here;
                ones -= 1;
            }
        }
        n
    }
}

impl Embedding for ByWeight {
    fn method(&self) -> &'static str {
        "byweight"
    }
    /// `first[w]` + (C(d, w) − 1 − ascending rank): descending within a weight.
    fn map(&self, guest: u64) -> u64 {
        let w = guest.count_ones() as usize;
        self.first[w] + self.binom[self.dim as usize][w] - 1 - self.rank_in_weight(guest)
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        if host >= 1 << self.dim {
            return None;
        }
        let w = self.first.partition_point(|&f| f <= host) - 1;
        let descending = host - self.first[w];
        let ascending = self.binom[self.dim as usize][w] - 1 - descending;
        Some(self.unrank_in_weight(ascending, w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figure 3a of the xor paper: 0 | 4 2 1 | 6 5 3 | 7 on a line of 8.
    #[test]
    fn figure_3a_order() {
        let bw = ByWeight::new(3);
        let line: Vec<u64> = (0..8).map(|p| bw.inverse(p).unwrap()).collect();
        assert_eq!(line, [0, 4, 2, 1, 6, 5, 3, 7]);
        for (p, &n) in line.iter().enumerate() {
            assert_eq!(bw.map(n), p as u64);
        }
    }

    /// Against a sort of all labels, for every d up to 16.
    #[test]
    fn matches_a_sort() {
        for d in 1..=16 {
            let bw = ByWeight::new(d);
            let mut order: Vec<u64> = (0..1u64 << d).collect();
            order.sort_by_key(|&n| (n.count_ones(), std::cmp::Reverse(n)));
            for (p, &n) in order.iter().enumerate() {
                assert_eq!(bw.map(n), p as u64, "d={d} n={n}");
                assert_eq!(bw.inverse(p as u64), Some(n));
            }
        }
    }

    #[test]
    fn largest_cube_stays_in_range() {
        let bw = ByWeight::new(40);
        let top = (1u64 << 40) - 1;
        assert_eq!(bw.map(0), 0);
        assert_eq!(bw.map(top), top);
        assert_eq!(bw.inverse(bw.map(0xAB_CDEF_0123)), Some(0xAB_CDEF_0123));
    }
}
