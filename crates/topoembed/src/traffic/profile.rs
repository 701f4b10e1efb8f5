//! Node load node by node, split by guest edge class (cube dimension, grid
//! axis, tree level): the journal xor paper's figures 7-10 plot it along a
//! ring, one curve per dimension and their sum. O(Σ dilation) and one
//! counter per host node and class, so it is meant for hosts small enough to
//! draw; [`super::measure`] gives the max / min / mean of any size.

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::routing::Route;
use crate::topology::Topology;

/// Largest host the profile is counted for (classes x nodes counters).
pub const MAX_PROFILE_COUNTERS: u64 = 1 << 26;

/// `load[c][h]`: guest edges of class `c` whose route passes through host
/// node `h` (its ends not counted, journal §4.5).
pub fn node_load_profile(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    route: &dyn Route,
) -> Result<Vec<Vec<u64>>> {
    let classes = u64::from(guest.edge_classes().max(1));
    let n = host.node_count();
    if classes.saturating_mul(n) > MAX_PROFILE_COUNTERS {
        return Err(Error::Parameter(format!(
            "a node-load profile of {} takes {classes} x {n} counters, more than {MAX_PROFILE_COUNTERS}",
            host.spec()
        )));
    }
    let mut load = vec![vec![0u64; n as usize]; classes as usize];
    let mut path = Vec::new();
    let mut fault = None;
    guest.for_each_edge(0..guest.node_count(), &mut |u, v, class| {
        let (a, b) = (embedding.map(u), embedding.map(v));
        if a.max(b) >= n {
            fault.get_or_insert(a.max(b));
            return;
        }
        path.clear();
        route.path(a, b, &mut path);
        // Every node after `a` except the last (`b`) is passed through.
        for &h in path.iter().take(path.len().saturating_sub(1)) {
            load[class as usize][h as usize] += 1;
        }
    });
    match fault {
        Some(h) => Err(Error::Mismatch(format!(
            "the embedding maps a guest node to {h}, outside {}",
            host.spec()
        ))),
        None => Ok(load),
    }
}
