//! `identity`: guest node i on host node i, for any pair with equal node counts.

use super::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::topology::Topology;

/// Node i -> node i.
#[derive(Debug, Clone, Copy)]
pub struct Identity;

impl Embedding for Identity {
    fn method(&self) -> &'static str {
        "identity"
    }
    fn map(&self, guest: u64) -> u64 {
        guest
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        Some(host)
    }
}

pub(super) const METHOD: Method = Method {
    name: "identity",
    guest: "any",
    host: "any",
    preconditions: "equal node counts",
    summary: "guest node i on host node i",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    same_node_count(guest, host)?;
    Ok(Box::new(Identity))
}
