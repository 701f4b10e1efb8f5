//! The messages of each collective as SimGrid's SMPI sends them with its
//! default selector (SimGrid 3.32, `smpi_default_selector.cpp`), in the
//! communicator's rank order:
//!
//! | operation | algorithm |
//! |---|---|
//! | `MPI_Bcast` | binomial tree from the root (`bcast__binomial_tree`) |
//! | `MPI_Reduce` (commutative op) | linear: every rank sends the root (`ireduce`) |
//! | `MPI_Allreduce` | `MPI_Reduce` to rank 0, then `MPI_Bcast` from rank 0 |
//! | `MPI_Barrier` | linear: every rank to rank 0, rank 0 to every rank (`ompi_basic_linear`) |
//! | `MPI_Gather(v)` / `MPI_Scatter(v)` | linear to / from the root (`igather`, `iscatter`) |
//! | `MPI_Reduce_scatter(_block)` | `MPI_Reduce` to rank 0, then a linear scatter |
//!
//! The others (all-gathers, all-to-alls, scans and the nonblocking forms)
//! are not modelled: an all-to-all's messages go between every pair, the
//! same on every placement of a vertex-transitive host. A recording keeps
//! no roots, so the rooted operations are taken at root 0 (exact for
//! `MPI_Allreduce`, `MPI_Barrier` and `MPI_Reduce_scatter`, whose root
//! SMPI fixes at 0).

/// One stage of an algorithm: how its messages go among the ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Every rank but the root sends the root one message.
    ToRoot,
    /// The root sends every other rank one message.
    FromRoot,
    /// A binomial tree from the root: rank v receives from v − lowbit(v),
    /// then sends v + 2^j for 2^j below lowbit(v), the largest first.
    Binomial,
}

impl Stage {
    /// The stage's name as the notes print it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::ToRoot => "linear to rank 0",
            Stage::FromRoot => "linear from rank 0",
            Stage::Binomial => "binomial tree from rank 0",
        }
    }

    /// The stage's messages on a communicator of `size` ranks, root 0:
    /// `(from, to, waiting)`, where `waiting` is how many ranks wait for
    /// the message (its receiver and, in a tree, the receiver's subtree:
    /// rank v's subtree is v .. v + lowbit(v) − 1, cut at `size`).
    pub fn messages(self, size: u64) -> impl Iterator<Item = (u64, u64, u64)> {
        (1..size).map(move |v| match self {
            Stage::ToRoot => (v, 0, 1),
            Stage::FromRoot => (0, v, 1),
            Stage::Binomial => {
                let low = v & v.wrapping_neg();
                (v - low, v, low.min(size - v))
            }
        })
    }
}

/// The stages of `operation` under SMPI's default selector, or `None`
/// when it is not modelled.
pub fn algorithm(operation: &str) -> Option<&'static [Stage]> {
    use Stage::*;
    Some(match operation {
        "MPI_Bcast" => &[Binomial],
        "MPI_Reduce" | "MPI_Gather" | "MPI_Gatherv" => &[ToRoot],
        "MPI_Scatter" | "MPI_Scatterv" => &[FromRoot],
        "MPI_Allreduce" => &[ToRoot, Binomial],
        "MPI_Barrier" | "MPI_Reduce_scatter" | "MPI_Reduce_scatter_block" => &[ToRoot, FromRoot],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binomial tree of SMPI's `bcast__binomial_tree`, built as the
    /// code does it: rank r receives from r − mask at its lowest set bit.
    fn parents_by_masks(size: u64) -> Vec<(u64, u64)> {
        let mut edges = Vec::new();
        for r in 1..size {
            let mut mask = 1;
            while mask < size {
                if r & mask != 0 {
                    edges.push((r - mask, r));
                    break;
                }
                mask <<= 1;
            }
        }
        edges
    }

    #[test]
    fn the_binomial_tree_is_smpis() {
        for size in 1..70 {
            let ours: Vec<_> = Stage::Binomial
                .messages(size)
                .map(|(u, v, _)| (u, v))
                .collect();
            assert_eq!(ours, parents_by_masks(size), "size {size}");
        }
    }

    #[test]
    fn a_trees_waiting_counts_its_subtrees() {
        // Waiting ranks of the message to v = v's subtree, counted by
        // walking every rank up to the root.
        for size in 1..70u64 {
            let parent = |v: u64| v - (v & v.wrapping_neg());
            for (_, v, waiting) in Stage::Binomial.messages(size) {
                let below = (0..size)
                    .filter(|&w| {
                        let mut x = w;
                        while x != 0 && x != v {
                            x = parent(x);
                        }
                        x == v
                    })
                    .count() as u64;
                assert_eq!(waiting, below, "size {size}, rank {v}");
            }
            // Every rank but the root is waited for by itself in the star.
            assert!(Stage::ToRoot
                .messages(size)
                .all(|(u, v, w)| v == 0 && u > 0 && w == 1));
        }
    }

    #[test]
    fn every_recorded_collective_is_modelled_or_named_unmodelled() {
        assert_eq!(
            algorithm("MPI_Allreduce"),
            Some(&[Stage::ToRoot, Stage::Binomial][..])
        );
        assert_eq!(algorithm("MPI_Alltoall"), None);
        assert_eq!(algorithm("MPI_Ibcast"), None);
    }
}
