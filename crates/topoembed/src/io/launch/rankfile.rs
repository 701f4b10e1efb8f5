//! Open MPI rankfiles, for users who place processes at launch instead of
//! reordering communicators: MPI_COMM_WORLD rank g (= guest node g) goes to
//! the slot of host node f(g).
//!
//! The machine is described by an Open MPI hostfile ([`super::hostfile`]).
//! Host node h is the h-th slot counting through the file: the first
//! machine's slots 0..N-1, then the next machine's, and so on. The rankfile
//! has one line per rank, `rank g=name slot=s` (`mpirun --rankfile FILE`),
//! as [`super::launch`] writes it.

use std::io::Write;

use super::hostfile::Machine;
use crate::embed::Embedding;
use crate::error::{Error, Result};

/// Writes the rankfile placing guest node g (world rank g) on host node
/// `embedding.map(g)`, for `guest_nodes` one-to-one onto `host_nodes`.
pub fn write_rankfile(
    guest_nodes: u64,
    host_nodes: u64,
    embedding: &dyn Embedding,
    machines: &[Machine],
    out: &mut dyn Write,
) -> Result<()> {
    let slots: u64 = machines.iter().map(|m| m.slots).sum();
    if slots != host_nodes {
        return Err(Error::Mismatch(format!(
            "the hostfile has {slots} slots on {} machines but the host has {host_nodes} nodes; \
             give one slot per host node",
            machines.len()
        )));
    }
    if guest_nodes != host_nodes {
        return Err(Error::Mismatch(format!(
            "a rankfile places one rank per slot: the guest has {guest_nodes} nodes, the host \
             {host_nodes}"
        )));
    }
    let ranks: Vec<u64> = (0..guest_nodes).map(|g| embedding.map(g)).collect();
    super::write_launch(
        super::LaunchFormat::Rankfile,
        &ranks,
        &super::Slots::from_machines(machines.to_vec()),
        out,
    )
    .map_err(|e| match e {
        Error::Mismatch(m) => Error::Mismatch(format!(
            "'{}': {m}; a rankfile needs one rank per slot",
            embedding.method()
        )),
        other => other,
    })
}
