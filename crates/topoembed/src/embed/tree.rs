//! Binary trees into hypercubes (lecture notes on hypercubic permutations, §3).
//!
//! The tree `bintree:P` (P = 2^h leaves) is numbered in heap order: the node at
//! level l (root at level 0), position j is `2^l - 1 + j`.
//!
//! * `levels` (the notes' figure 4): leaf j on cube node j, every internal node
//!   on its left child's node, so the node at level l, position j sits on
//!   `j · 2^(h-l)`. Load h + 1 (the leftmost path all on node 0), but one tree
//!   node per cube node on each level, and every tree edge is a cube edge or
//!   inside a node: tree algorithms that use one level at a time run at load 1.
//! * `inorder`: the 2P - 1 nodes one-to-one into cube:(h + 1), node at level l,
//!   position j on its in-order number `(2j + 1) · 2^(h-l)` (1-based; cube
//!   node 0 stays empty). A node of height t has label `x = p b 1 0^t`; its
//!   children are `p b 0 1 0^(t-1)` (two bits away) and `p b 1 1 0^(t-1)` (one
//!   bit away), so the dilation is at most 2 — the bound the notes mention
//!   for one-to-one tree embeddings, reached with every node but one used.

use super::{DilationBound, Embedding, Method, NotApplicable, Params};
use crate::spec::Spec;
use crate::topology::{heap_node, level_and_position, Topology};

pub(super) const LEVELS: Method = Method {
    name: "levels",
    guest: "bintree:P",
    host: "cube:log2 P",
    preconditions: "host has P nodes (one per leaf)",
    summary: "leaf j on node j, internal nodes on their left child's node (lecture notes §3); \
              load log P + 1, one node per level",
    options: &[],
    build: build_levels,
};

pub(super) const INORDER: Method = Method {
    name: "inorder",
    guest: "bintree:P",
    host: "cube:log2 P + 1",
    preconditions: "host has 2P nodes",
    summary: "in-order number of each tree node (1-based) as its cube label; one-to-one, \
              dilation <= 2",
    options: &[],
    build: build_inorder,
};

/// Height h of `bintree:P` when the host is `cube:(h + extra)`.
fn tree_and_cube(
    guest: &dyn Topology,
    host: &dyn Topology,
    extra: u32,
) -> Result<u32, NotApplicable> {
    let Spec::BinTree(leaves) = *guest.spec() else {
        return Err("the guest must be a binary tree (bintree:P)".into());
    };
    let h = leaves.trailing_zeros();
    let Spec::Cube(n) = *host.spec() else {
        return Err(format!("the host must be a hypercube, cube:{}", h + extra));
    };
    if n != h + extra {
        return Err(format!(
            "bintree:{leaves} needs cube:{} ({} nodes) here, not cube:{n}",
            h + extra,
            1u64 << (h + extra)
        ));
    }
    Ok(h)
}

fn build_levels(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    Ok(Box::new(Levels {
        height: tree_and_cube(guest, host, 0)?,
    }))
}

fn build_inorder(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    Ok(Box::new(InOrder {
        height: tree_and_cube(guest, host, 1)?,
    }))
}

/// The notes' figure 4 embedding of a tree of height `height`.
#[derive(Debug, Clone, Copy)]
pub struct Levels {
    /// log2 of the number of leaves.
    pub height: u32,
}

impl Embedding for Levels {
    fn method(&self) -> &'static str {
        "levels"
    }
    #[inline]
    fn map(&self, guest: u64) -> u64 {
        let (level, j) = level_and_position(guest);
        j << (self.height - level)
    }
    /// Many-to-one: node `r` holds one tree node on each of several levels.
    fn inverse(&self, _host: u64) -> Option<u64> {
        None
    }
    fn dilation_bound(&self) -> Option<DilationBound> {
        Some(DilationBound {
            holds: 1,
            printed: 1,
            source: "lecture notes §3",
        })
    }
}

/// In-order labels: one-to-one into a cube of twice the leaves, dilation <= 2.
#[derive(Debug, Clone, Copy)]
pub struct InOrder {
    /// log2 of the number of leaves.
    pub height: u32,
}

impl Embedding for InOrder {
    fn method(&self) -> &'static str {
        "inorder"
    }
    #[inline]
    fn map(&self, guest: u64) -> u64 {
        let (level, j) = level_and_position(guest);
        (2 * j + 1) << (self.height - level)
    }
    /// Label x = (2j + 1) · 2^t is the node of height t (level h - t), position j.
    fn inverse(&self, host: u64) -> Option<u64> {
        if host == 0 || host >> (self.height + 1) != 0 {
            return None;
        }
        let t = host.trailing_zeros();
        Some(heap_node(self.height - t, host >> (t + 1)))
    }
    fn dilation_bound(&self) -> Option<DilationBound> {
        Some(DilationBound {
            holds: 2,
            printed: 2,
            source: "lecture notes §3, in-order labels",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inorder_is_the_in_order_walk() {
        // In-order walk of the heap-numbered tree, 1-based.
        fn walk(v: u64, nodes: u64, next: &mut u64, out: &mut Vec<u64>) {
            if v >= nodes {
                return;
            }
            walk(2 * v + 1, nodes, next, out);
            out[v as usize] = *next;
            *next += 1;
            walk(2 * v + 2, nodes, next, out);
        }
        for h in 0..8 {
            let nodes = (2u64 << h) - 1;
            let mut labels = vec![0; nodes as usize];
            walk(0, nodes, &mut 1, &mut labels);
            let e = InOrder { height: h };
            for v in 0..nodes {
                assert_eq!(e.map(v), labels[v as usize]);
                assert_eq!(e.inverse(e.map(v)), Some(v));
            }
            assert_eq!(e.inverse(0), None);
        }
    }

    #[test]
    fn levels_puts_internal_nodes_on_their_left_child() {
        let e = Levels { height: 4 };
        for v in 0..15 {
            assert_eq!(e.map(v), e.map(2 * v + 1));
        }
        for j in 0..16 {
            assert_eq!(e.map(heap_node(4, j)), j);
        }
    }
}
