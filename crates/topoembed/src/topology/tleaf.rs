//! A machine hierarchy (Scotch's `tleaf` target): N1 nodes, each of N2
//! sockets, each of N3 cores, ..; host nodes are the leaves (cores), numbered
//! with the lowest level fastest: leaf (i1, i2, .., ik) is
//! `ik + Nk·(i(k-1) + N(k-1)·(..))`, as Scotch numbers a tleaf's terminals.
//!
//! Distance is a cost, not a hop count: two leaves that part at level i (the
//! same ancestor above level i, different ones at it) are
//! `costs[i] + costs[i+1] + .. + costs[k-1]` apart — what Scotch's `gmtst`
//! reports for `tleaf` (`tleaf 3 8 100 8 10 4 1`: same socket 1, same node
//! 11, different nodes 111). Every pair of leaves is one "link" (the
//! hierarchy's switches are not host nodes), so routes are single steps and
//! link loads are not modelled: the metrics note that and measure hop-bytes.

use std::ops::Range;

use super::network::PairGraph;
use super::{EdgeBuffer, Topology};
use crate::spec::Spec;

pub use crate::spec::MAX_TLEAF_LEAVES;

/// A tleaf hierarchy.
#[derive(Debug, Clone)]
pub struct Tleaf {
    spec: Spec,
    /// Leaves under one node of level i: Π sizes[i+1..].
    strides: Vec<u64>,
    /// Distance between leaves parting at level i: Σ costs[i..].
    parting: Vec<u64>,
    leaves: u64,
}

impl Tleaf {
    /// The hierarchy of `sizes` (top first) with level `costs`.
    pub fn new(sizes: &[u64], costs: &[u64]) -> Tleaf {
        let levels = sizes.len();
        let mut strides = vec![1u64; levels];
        for i in (0..levels.saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * sizes[i + 1];
        }
        let mut parting = vec![0u64; levels];
        let mut sum = 0;
        for i in (0..levels).rev() {
            sum += costs[i];
            parting[i] = sum;
        }
        Tleaf {
            spec: Spec::Tleaf(sizes.to_vec(), costs.to_vec()),
            strides,
            parting,
            leaves: sizes.iter().product(),
        }
    }

    /// The level at which leaves `a != b` part (0 = different top-level nodes).
    #[inline]
    pub fn parting_level(&self, a: u64, b: u64) -> usize {
        self.strides
            .iter()
            .position(|&s| a / s != b / s)
            .unwrap_or(self.strides.len() - 1)
    }

    /// Leaves under one node of each level (top first): Π sizes[i+1..].
    pub fn strides(&self) -> &[u64] {
        &self.strides
    }
}

impl Topology for Tleaf {
    super::network::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.leaves
    }
    fn diameter(&self) -> u64 {
        if self.leaves > 1 {
            self.parting[0]
        } else {
            0
        }
    }
    #[inline]
    fn distance(&self, a: u64, b: u64) -> u64 {
        if a == b {
            0
        } else {
            self.parting[self.parting_level(a, b)]
        }
    }
    /// The index under each level's node, top level first.
    fn coords(&self, v: u64) -> Vec<u64> {
        let Spec::Tleaf(sizes, _) = &self.spec else {
            unreachable!("a Tleaf holds a tleaf spec")
        };
        self.strides
            .iter()
            .zip(sizes)
            .map(|(&s, &n)| v / s % n)
            .collect()
    }
    /// One class per level: the level at which the pair parts.
    fn edge_classes(&self) -> u32 {
        self.strides.len() as u32
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        PairGraph {
            leaves: self.leaves,
        }
        .push_edges(nodes, edges, |u, v| self.parting_level(u, v) as u32);
    }
}
