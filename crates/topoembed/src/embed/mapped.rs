//! `map`: the general mapper ([`crate::mapper`]) as a method, with its
//! defaults (3 % imbalance, seed 1), so every command that takes methods
//! takes it; and [`map`], the entry point `topoembed map` calls, which
//! first looks for structure in the guest ([`super::structured`]) and hands
//! the closed-form placements it finds to the mapper as starts.

use super::{structured, Embedding, Method, NotApplicable, Params};
use crate::error::Result;
use crate::mapper::{self, MapOptions, Placement, Renumbering, Start, WGraph};
use crate::spec::Spec;
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
    mapper::map_graph_with(&g, host, options, |working, renumbering| {
        starts_on(guest, (&g, working, renumbering), host, cap)
    })
}

/// The closed-form starts of `guest` (working graph `g`) in the numbering
/// of `working`, the graph the search runs on (`g` itself, or `g`
/// renumbered by `renumbering`).
fn starts_on(
    guest: &dyn Topology,
    (g, working, renumbering): (&WGraph, &WGraph, Option<&Renumbering>),
    host: &dyn Topology,
    cap: u64,
) -> Vec<Start> {
    match (guest.spec(), renumbering) {
        // A graph's grid is recognised whatever its numbering: on the graph
        // the search runs on (renumbered, the sweep reads memory in order).
        (Spec::Graph(_), _) | (_, None) => structured::starts(guest, working, host, cap),
        // An implicit grid's closed forms are in its own numbering.
        (_, Some(renumbering)) => structured::starts(guest, g, host, cap)
            .iter()
            .map(|s| s.renumbered(renumbering))
            .collect(),
    }
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
    (guest.node_count() == host.node_count()).then(|| {
        Start::new(
            "the launch order (rank r on host node r)".into(),
            (0..host.node_count()).collect(),
            false,
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::rng::Rng;
    use crate::mapper::{hop_bytes, map_numbered, HostDistance};
    use crate::topology::{self, Graph};

    /// torus:32x32 with its nodes shuffled, as a graph file would give it.
    fn shuffled_torus() -> Graph {
        let torus = topology::parse("torus:32x32").unwrap();
        let shuffle = Rng::new(5, 0).permutation(1024);
        let edges: Vec<(u64, u64)> = (0..1024u64)
            .flat_map(|v| {
                let shuffle = &shuffle;
                torus
                    .neighbors(v)
                    .into_iter()
                    .filter(move |&u| u > v)
                    .map(move |u| {
                        (
                            u64::from(shuffle[v as usize]),
                            u64::from(shuffle[u as usize]),
                        )
                    })
            })
            .collect();
        Graph::from_edges(Spec::Graph("shuffled-torus".into()), 1024, &edges).unwrap()
    }

    /// A shuffled grid renumbered for the search has its grid found and its
    /// closed forms built on the renumbered graph: the best start places
    /// 4x4 boxes onto torus:8x8 (512 hop-bytes: 2 × 32 lines × 8 box sides,
    /// each cut edge one hop long), and the placement comes back in the
    /// guest's own numbering at most as long (scored on the guest itself,
    /// where a placement left renumbered would cost thousands).
    #[test]
    fn a_renumbered_graphs_starts_are_built_on_the_graph_the_search_runs_on() {
        let guest = shuffled_torus();
        let g = WGraph::from_topology(&guest).unwrap();
        let renumbering = Renumbering::breadth_first(&g);
        let working = renumbering.graph(&g);
        let host = topology::parse("torus:8x8").unwrap();
        let host = host.as_ref();
        let cap = mapper::capacity(&g, 64, 0.03);
        let dist = HostDistance::new(host).unwrap();
        let starts = starts_on(&guest, (&g, &working, Some(&renumbering)), host, cap);
        let best = starts
            .iter()
            .map(|s| hop_bytes(&working, &dist, &s.hosts))
            .min();
        assert_eq!(best, Some(512), "{} starts", starts.len());
        let options = MapOptions::default();
        let placement = map_numbered(&g, host, &options, Some(&renumbering), |w, r| {
            starts_on(&guest, (&g, w, r), host, cap)
        })
        .unwrap();
        let placed = hop_bytes(&g, &dist, placement.hosts());
        assert!(placed <= 512, "{placed} hop-bytes");
    }
}
