//! The lecture notes' neighbour formulas, computed from the physical rank
//! alone in O(1) (lecture notes on hypercubic permutations, §1-3).

use super::directions::{step, Direction};
use crate::bits::{btog, gtob};
use crate::topology::{heap_node, level_and_position};

/// A closed form from the notes.
#[derive(Debug, Clone)]
pub(super) enum Formula {
    /// `gray`, ring / torus / mesh -> cube: rank l = x_1 || x_2 || .. (axis 1
    /// in the low bits); guest coordinate gtob(x_k); the neighbour on axis k
    /// is `btog[(gtob(x_k) ± 1) mod 2^w_k]` in field k (§1-2).
    GrayGridToCube {
        /// Bits of each axis, axis 1 first.
        widths: Vec<u32>,
        /// Rings and tori wrap around; lines and meshes do not.
        wrap: bool,
    },
    /// `levels`: rank i takes part in the levels log p - j .. log p (j =
    /// trailing zeros of i); at level k the parent clears bit (log p - k), the
    /// left child is i itself, the right child sets bit (log p - k - 1) (§3).
    TreeLevels {
        /// log2 P.
        height: u32,
    },
    /// `inorder`: label x = p b 1 0^t; parent clears bit t and sets bit t+1;
    /// children are x ∓ 2^(t-1).
    TreeInOrder {
        /// log2 P.
        height: u32,
    },
}

impl Formula {
    /// The guest nodes rank `rank` plays, in increasing order.
    pub(super) fn guests(&self, rank: u64) -> Vec<u64> {
        match self {
            Formula::GrayGridToCube { widths, .. } => {
                let mut guest = 0;
                let mut offset = 0;
                for &w in widths {
                    guest |= gtob(field(rank, offset, w)) << offset;
                    offset += w;
                }
                vec![guest]
            }
            Formula::TreeLevels { height } => {
                let h = *height;
                let zeros = if rank == 0 {
                    h
                } else {
                    rank.trailing_zeros().min(h)
                };
                (h - zeros..=h)
                    .map(|level| heap_node(level, rank >> (h - level)))
                    .collect()
            }
            Formula::TreeInOrder { height } => {
                if rank == 0 || rank >> (height + 1) != 0 {
                    return Vec::new();
                }
                let t = rank.trailing_zeros();
                vec![heap_node(height - t, rank >> (t + 1))]
            }
        }
    }

    /// The rank of the neighbour in direction `dir` of guest node `node`,
    /// which rank `rank` plays.
    pub(super) fn neighbor(&self, rank: u64, node: u64, dir: Direction) -> Option<u64> {
        match (self, dir) {
            (Formula::GrayGridToCube { widths, wrap }, Direction::Axis { axis, up }) => {
                let w = *widths.get(axis as usize)?;
                let offset: u32 = widths[..axis as usize].iter().sum();
                let side = 1u64 << w;
                let y = step(gtob(field(rank, offset, w)), side, up, *wrap)?;
                Some(rank & !((side - 1) << offset) | btog(y) << offset)
            }
            (Formula::TreeLevels { height }, _) => {
                let (level, _) = level_and_position(node);
                let h = *height;
                match dir {
                    Direction::Parent if level > 0 => Some(rank & !(1 << (h - level))),
                    Direction::LeftChild if level < h => Some(rank),
                    Direction::RightChild if level < h => Some(rank | 1 << (h - level - 1)),
                    _ => None,
                }
            }
            (Formula::TreeInOrder { height }, _) => {
                let t = rank.trailing_zeros();
                match dir {
                    Direction::Parent if t < *height => Some(rank & !(1 << t) | 1 << (t + 1)),
                    Direction::LeftChild if t > 0 => Some(rank - (1 << (t - 1))),
                    Direction::RightChild if t > 0 => Some(rank + (1 << (t - 1))),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Bits `offset .. offset + width` of `x`.
#[inline]
fn field(x: u64, offset: u32, width: u32) -> u64 {
    (x >> offset) & ((1u64 << width) - 1)
}
