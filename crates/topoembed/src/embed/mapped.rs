//! `map`: the general mapper ([`crate::mapper`]) as a method, with its
//! defaults (3 % imbalance, seed 1), so every command that takes methods
//! takes it. `topoembed map` gives its options and takes larger guests.

use super::{Embedding, Method, NotApplicable, Params};
use crate::mapper::{self, MapOptions};
use crate::topology::Topology;

/// Largest guest the method maps when `compare` or `metrics` ask (a few
/// seconds); `topoembed map` has no such limit.
pub const METHOD_MAX_GUEST_NODES: u64 = 1 << 16;

pub(super) const METHOD: Method = Method {
    name: "map",
    guest: "any",
    host: "any",
    preconditions: "guest up to 2^16 nodes (topoembed map: any size); host up to 2^24 nodes",
    summary: "general mapper: multilevel dual recursive bipartitioning + move/swap local search, \
              least hop-bytes, 3% imbalance (Scotch; Schulz & Traeff)",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    if guest.node_count() > METHOD_MAX_GUEST_NODES {
        return Err(format!(
            "the map method takes guests up to {METHOD_MAX_GUEST_NODES} nodes; `topoembed map` takes any size"
        ));
    }
    mapper::map(guest, host, &MapOptions::default())
        .map(|p| Box::new(p) as Box<dyn Embedding>)
        .map_err(|e| e.to_string())
}
