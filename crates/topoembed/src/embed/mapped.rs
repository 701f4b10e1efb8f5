//! `map`: the general mapper ([`crate::mapper`]) as a method, with its
//! defaults (3 % imbalance, seed 1), so every command that takes methods
//! takes it; and [`map`], the entry point `topoembed map` calls, which
//! first looks for structure in the guest ([`super::structured`]) and hands
//! the closed-form placements it finds to the mapper as starts.

use super::{structured, Embedding, Method, NotApplicable, Params};
use crate::error::Result;
use crate::mapper::{self, MapOptions, Placement, Start, WGraph};
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
              least hop-bytes, 3% imbalance (Scotch; Schulz & Traeff); a guest found to be a grid \
              also gets the closed forms",
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
    map(guest, host, &MapOptions::default())
        .map(|p| Box::new(p) as Box<dyn Embedding>)
        .map_err(|e| e.to_string())
}

/// Maps `guest` onto `host`: the mapper's search, weighed against the
/// seeds' closed forms when the guest is a grid or a cube (given by its
/// spec, or recognised in a graph file whatever its numbering).
pub fn map(guest: &dyn Topology, host: &dyn Topology, options: &MapOptions) -> Result<Placement> {
    let g = WGraph::from_topology(guest)?;
    let cap = mapper::capacity(&g, host.node_count(), options.imbalance);
    let starts = structured::starts(guest, &g, host, cap);
    mapper::map_graph(&g, host, options, &starts)
}

/// [`map`] of `objective` — a graph with traffic added to the pairs in
/// `structure`, such as a recording's collectives — weighing against the
/// search the closed forms of the structure found in `structure` (the
/// added traffic would hide a grid) and the `extra` starts (the launch
/// order, for one). The two must have the same nodes and loads.
pub fn map_with(
    objective: &dyn Topology,
    structure: &dyn Topology,
    host: &dyn Topology,
    options: &MapOptions,
    mut extra: Vec<Start>,
) -> Result<Placement> {
    let g = WGraph::from_topology(objective)?;
    let cap = mapper::capacity(&g, host.node_count(), options.imbalance);
    if structure.node_count() == objective.node_count() {
        let pairs = WGraph::from_topology(structure)?;
        extra.extend(structured::starts(structure, &pairs, host, cap));
    }
    mapper::map_graph(&g, host, options, &extra)
}

/// The launcher's order as a start: rank r on host node r, when guest and
/// host have as many nodes.
pub fn launch_order(guest: &dyn Topology, host: &dyn Topology) -> Option<Start> {
    (guest.node_count() == host.node_count()).then(|| Start {
        name: "the launch order (rank r on host node r)".into(),
        hosts: (0..host.node_count()).collect(),
        closed_form: false,
    })
}

impl Embedding for Placement {
    fn method(&self) -> &'static str {
        "map"
    }
    fn map(&self, guest: u64) -> u64 {
        self.hosts()[guest as usize]
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        self.guest_on(host)
    }
    fn notes(&self) -> Vec<String> {
        Placement::notes(self).to_vec()
    }
}
