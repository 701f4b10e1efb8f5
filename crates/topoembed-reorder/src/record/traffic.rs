//! What the recorder counts in: bytes and messages ([`Traffic`]), the
//! message-size classes, the collectives it knows by name, and how a
//! communicator is named in the summary ([`CommunicatorKey`]). Below both
//! the counters and the wire form.

/// Bytes and messages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Bytes (the packed size of the data: count × `MPI_Type_size`).
    pub bytes: u64,
    /// Messages.
    pub messages: u64,
}

impl Traffic {
    /// Counts one message of `bytes` bytes.
    pub fn add(&mut self, bytes: u64) {
        self.bytes = self.bytes.saturating_add(bytes);
        self.messages = self.messages.saturating_add(1);
    }

    /// Adds `other` in.
    pub fn merge(&mut self, other: Traffic) {
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.messages = self.messages.saturating_add(other.messages);
    }
}

/// Message-size classes: class 0 holds empty messages, class k ≥ 1 the
/// sizes 2^(k−1) ..= 2^k − 1.
pub const SIZE_CLASSES: usize = 65;

/// The size class of a message of `bytes` bytes.
pub fn size_class(bytes: u64) -> usize {
    (u64::BITS - bytes.leading_zeros()) as usize
}

/// The smallest and largest size of class `k`.
pub fn class_range(k: usize) -> (u64, u64) {
    match k {
        0 => (0, 0),
        64 => (1 << 63, u64::MAX),
        _ => (1 << (k - 1), (1 << k) - 1),
    }
}

/// The collectives the interposer counts, by the name it passes. A name
/// outside this list is not counted (the interposer's names are checked
/// against it in the tests).
pub const COLLECTIVES: &[&str] = &[
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Scatter",
    "MPI_Scatterv",
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Alltoall",
    "MPI_Alltoallv",
    "MPI_Alltoallw",
    "MPI_Reduce",
    "MPI_Allreduce",
    "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block",
    "MPI_Scan",
    "MPI_Exscan",
    "MPI_Ibarrier",
    "MPI_Ibcast",
    "MPI_Igather",
    "MPI_Igatherv",
    "MPI_Iscatter",
    "MPI_Iscatterv",
    "MPI_Iallgather",
    "MPI_Iallgatherv",
    "MPI_Ialltoall",
    "MPI_Ialltoallv",
    "MPI_Ialltoallw",
    "MPI_Ireduce",
    "MPI_Iallreduce",
    "MPI_Ireduce_scatter",
    "MPI_Ireduce_scatter_block",
    "MPI_Iscan",
    "MPI_Iexscan",
];

/// What names a communicator in the summary: the world rank of its rank 0,
/// its size and its name (`MPI_Comm_get_name` when first seen). Two
/// communicators alike in all three (a duplicate of another) are counted
/// together.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommunicatorKey {
    /// World rank of the communicator's rank 0.
    pub leader: u32,
    /// Its size.
    pub size: u32,
    /// Its name, empty when it has none.
    pub name: String,
}
