//! `standard`: the standard embedding of a d-cube onto a ring, line, torus or
//! mesh (xor paper §2.3): f_std(n) = (p_1, .., p_c) with
//! p_i = (n mod prod_{j<=i} k_j) div prod_{j<i} k_j — the mixed-radix digits
//! of n. With DESIGN.md's numbering (first axis fastest) that node is n itself.

use super::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::spec::Spec;
use crate::topology::Topology;

pub(super) const METHOD: Method = Method {
    name: "standard",
    guest: "cube:D",
    host: "ring, line, torus, mesh",
    preconditions: "host has 2^D nodes (so every side is a power of two)",
    summary: "f(n) = n: mixed-radix digits of n (xor paper §2.3); optimal on meshes",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    if !matches!(guest.spec(), Spec::Cube(_)) {
        return Err("the guest must be a hypercube (cube:D)".into());
    }
    if host.spec().grid().is_none() {
        return Err("the host must be a ring, line, torus or mesh".into());
    }
    same_node_count(guest, host)?;
    Ok(Box::new(Standard))
}

/// The standard embedding: the identity map under mixed-radix numbering.
#[derive(Debug, Clone, Copy)]
pub struct Standard;

impl Embedding for Standard {
    fn method(&self) -> &'static str {
        "standard"
    }
    fn axis_product(&self) -> bool {
        true
    }
    fn journal(&self) -> Option<crate::closed_form::Journal> {
        Some(crate::closed_form::Journal::Standard)
    }
    fn map(&self, guest: u64) -> u64 {
        guest
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        Some(host)
    }
}
