//! Local search phases of the mapper, one file per neighbourhood.

pub mod anneal;
pub mod balance;
pub mod congestion;
pub mod flow;
pub mod fm;
pub mod kway;
pub mod local;
pub mod parts;
pub mod vcycle;

/// Bounds on a host node's load during refinement: no move takes a node
/// above `hi` (the capacity) or below `lo` (as far under the average as the
/// capacity is over it, so no node is drained empty — an MPI job's slots all
/// hold work — unless it started below).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Least load a node may be left with.
    pub lo: u64,
    /// Most load a node may take.
    pub hi: u64,
}

impl Capacity {
    /// Whether a node of load `load` may give away `out` and take `inn`.
    #[inline]
    pub fn allows(&self, load: u64, out: u64, inn: u64) -> bool {
        let after = load - out + inn;
        after <= self.hi.max(load.min(after)) && after >= self.lo.min(load.max(after))
    }
}
