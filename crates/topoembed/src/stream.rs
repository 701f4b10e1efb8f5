//! Cutting a guest's node range into parallel tasks and batches: shared by
//! the streamed metrics ([`crate::metrics`]) and the traffic passes
//! ([`crate::traffic`]), below both.

use std::ops::Range;

/// Guest nodes whose edges are mapped and measured per virtual call.
pub(crate) const NODES_PER_BATCH: u64 = 1 << 10;

/// Splits `0..nodes` into enough chunks to balance the threads and report progress.
pub(crate) fn chunks(nodes: u64) -> Vec<Range<u64>> {
    let target = (rayon::current_num_threads() as u64 * 64).max(1);
    let size = nodes.div_ceil(target).max(1 << 10);
    (0..nodes.div_ceil(size))
        .map(|c| c * size..((c + 1) * size).min(nodes))
        .collect()
}
