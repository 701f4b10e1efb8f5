//! The hypercube Q_D: nodes are D-bit labels, neighbours differ in one bit.

use std::ops::Range;

use super::TieRule;
use super::{EdgeBuffer, Topology};
use crate::spec::Spec;

/// Hypercube of dimension `dim`: 2^dim nodes, distance = Hamming distance.
#[derive(Debug, Clone)]
pub struct Cube {
    spec: Spec,
    dim: u32,
}

impl Cube {
    /// Q_dim; `dim` is checked by the spec parser (1..=40).
    pub fn new(dim: u32) -> Cube {
        Cube {
            spec: Spec::Cube(dim),
            dim,
        }
    }

    /// The dimension D.
    pub fn dim(&self) -> u32 {
        self.dim
    }
}

impl Topology for Cube {
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        1 << self.dim
    }
    fn edge_count(&self) -> u64 {
        u64::from(self.dim) << (self.dim - 1)
    }
    fn diameter(&self) -> u64 {
        u64::from(self.dim)
    }
    fn distance(&self, a: u64, b: u64) -> u64 {
        u64::from((a ^ b).count_ones())
    }
    fn coords(&self, v: u64) -> Vec<u64> {
        (0..self.dim).map(|i| (v >> i) & 1).collect()
    }
    fn neighbors(&self, v: u64) -> Vec<u64> {
        (0..self.dim).map(|i| v ^ (1 << i)).collect()
    }
    fn degree(&self, _v: u64) -> u64 {
        u64::from(self.dim)
    }
    fn edge_classes(&self) -> u32 {
        self.dim
    }
    /// E-cube routing: flip the differing bits from the lowest up.
    fn route(&self, a: u64, b: u64, _ties: TieRule, path: &mut Vec<u64>) {
        let (mut here, mut differ) = (a, a ^ b);
        while differ != 0 {
            here ^= differ & differ.wrapping_neg();
            path.push(here);
            differ &= differ - 1;
        }
    }
    fn link_slots(&self) -> u64 {
        u64::from(self.dim) << self.dim
    }
    /// `lower end * D + dimension`.
    fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        let differ = u ^ v;
        (differ.is_power_of_two() && u.max(v) < self.node_count())
            .then(|| u.min(v) * u64::from(self.dim) + u64::from(differ.trailing_zeros()))
    }
    /// The edge of dimension i at node u is owned by the end whose bit i is 0.
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        let owned = (nodes.end - nodes.start) * u64::from(self.dim) / 2;
        edges.u.reserve(owned as usize);
        edges.v.reserve(owned as usize);
        edges.class.reserve(owned as usize);
        for u in nodes {
            let mut free = !u & ((1u64 << self.dim) - 1);
            while free != 0 {
                let i = free.trailing_zeros();
                edges.push(u, u | (1 << i), i);
                free &= free - 1;
            }
        }
    }
}
