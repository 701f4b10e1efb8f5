//! Complete binary tree with P leaves (2P-1 nodes), numbered in heap order:
//! level l (root at level 0) holds nodes 2^l - 1 .. 2^(l+1) - 2, and node k
//! has children 2k+1 and 2k+2.

use std::ops::Range;

use super::TieRule;
use super::{EdgeBuffer, Topology};
use crate::spec::Spec;

/// Complete binary tree; distance goes through the lowest common ancestor.
#[derive(Debug, Clone)]
pub struct BinTree {
    spec: Spec,
    leaves: u64,
}

/// Depth of heap position `h` (1-based: the root is 1).
#[inline]
fn depth(h: u64) -> u32 {
    63 - h.leading_zeros()
}

/// Level (root 0) and position in the level of node `v`.
#[inline]
pub fn level_and_position(v: u64) -> (u32, u64) {
    let level = depth(v + 1);
    (level, v + 1 - (1 << level))
}

/// The node at `level`, `position`.
#[inline]
pub fn heap_node(level: u32, position: u64) -> u64 {
    (1u64 << level) - 1 + position
}

impl BinTree {
    /// Tree with `leaves` leaves (a power of two >= 2, checked by the parser).
    pub fn new(leaves: u64) -> BinTree {
        BinTree {
            spec: Spec::BinTree(leaves),
            leaves,
        }
    }

    /// Number of levels below the root: log2 P.
    pub fn height(&self) -> u32 {
        self.leaves.trailing_zeros()
    }
}

impl Topology for BinTree {
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        2 * self.leaves - 1
    }
    fn edge_count(&self) -> u64 {
        2 * self.leaves - 2
    }
    fn diameter(&self) -> u64 {
        2 * u64::from(self.height())
    }
    /// Walk both nodes up to equal depth, then up to their lowest common ancestor,
    /// which in heap positions is the longest common binary prefix.
    fn distance(&self, a: u64, b: u64) -> u64 {
        let (mut ha, mut hb) = (a + 1, b + 1);
        let (da, db) = (depth(ha), depth(hb));
        let lower = da.min(db);
        ha >>= da - lower;
        hb >>= db - lower;
        let up = 64 - (ha ^ hb).leading_zeros();
        u64::from(da - lower + db - lower + 2 * up)
    }
    fn coords(&self, v: u64) -> Vec<u64> {
        let (level, position) = level_and_position(v);
        vec![u64::from(level), position]
    }
    fn neighbors(&self, v: u64) -> Vec<u64> {
        let mut out = Vec::with_capacity(3);
        if v > 0 {
            out.push((v - 1) / 2);
        }
        for child in [2 * v + 1, 2 * v + 2] {
            if child < self.node_count() {
                out.push(child);
            }
        }
        out
    }
    fn edge_classes(&self) -> u32 {
        self.height()
    }
    /// The unique path: up from `a` to the lowest common ancestor, down to `b`.
    /// The deeper end climbs first (`a` on equal depth), so the LCA is
    /// pushed by `a`'s side exactly once.
    fn route(&self, a: u64, b: u64, _ties: TieRule, path: &mut Vec<u64>) {
        let (mut ha, mut hb) = (a + 1, b + 1);
        let mut down = Vec::new();
        while ha != hb {
            if depth(ha) >= depth(hb) {
                ha >>= 1;
                path.push(ha - 1);
            } else {
                down.push(hb - 1);
                hb >>= 1;
            }
        }
        path.extend(down.into_iter().rev());
    }
    fn link_slots(&self) -> u64 {
        self.node_count()
    }
    /// The child end: every link joins a node to its parent.
    fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        let (parent, child) = (u.min(v), u.max(v));
        (child < self.node_count() && child > 0 && (child - 1) / 2 == parent).then_some(child)
    }
    /// A node owns the edges to its children; the class is the parent's level.
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        let internal = self.leaves - 1;
        for u in nodes.start..nodes.end.min(internal) {
            let level = depth(u + 1);
            edges.push(u, 2 * u + 1, level);
            edges.push(u, 2 * u + 2, level);
        }
    }
}
