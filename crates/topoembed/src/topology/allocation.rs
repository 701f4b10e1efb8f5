//! An allocation: some nodes of a host, numbered 0..n−1 in the order they
//! were listed, with the whole host's distances and routes (what Scotch's
//! `sub` target is). Its nodes are rarely neighbours, so, as for a tleaf,
//! every two of them are one "edge" of the host graph; the links messages
//! cross are the whole host's ([`Network`]): its link slots on a host with
//! links of its own (a route's nodes outside the allocation included), the
//! network's links on a fat tree or dragonfly.

use std::ops::Range;
use std::sync::OnceLock;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::network::{HostLinks, Network, PairGraph};
use super::{EdgeBuffer, Topology};
use crate::error::{Error, Result};
use crate::spec::{check_allocation, AllocationNodes, Spec};

/// Largest allocation whose diameter is found by trying every pair; above
/// it the host's diameter stands in (an upper bound).
const EXACT_DIAMETER_NODES: u64 = 1 << 13;

/// An allocation of a host (module docs).
pub struct Allocation {
    spec: Spec,
    host: Box<dyn Topology>,
    nodes: Vec<u64>,
    /// Allocation node of each allocated host node.
    index: FxHashMap<u64, u64>,
    diameter: OnceLock<u64>,
}

impl Allocation {
    /// The nodes `listed` of `host` (checked: inside the host, none twice).
    pub fn new(host: Box<dyn Topology>, listed: &AllocationNodes) -> Result<Allocation> {
        let nodes = match (listed, host.node_names()) {
            (AllocationNodes::File(path), Some(names)) => by_name(host.spec(), names, path)?,
            _ => listed.resolve()?,
        };
        check_allocation(&host.spec().to_string(), host.node_count(), &nodes)?;
        Ok(Allocation {
            spec: Spec::Allocation(Box::new(host.spec().clone()), listed.clone()),
            host,
            index: nodes.iter().zip(0..).map(|(&h, k)| (h, k)).collect(),
            nodes,
            diameter: OnceLock::new(),
        })
    }

    /// The whole host.
    pub fn host(&self) -> &dyn Topology {
        self.host.as_ref()
    }

    /// Host node of each allocation node.
    pub fn nodes(&self) -> &[u64] {
        &self.nodes
    }

    fn pairs(&self) -> PairGraph {
        PairGraph {
            leaves: self.nodes.len() as u64,
        }
    }
}

/// The nodes of a host with names (a Slurm topology) that `text` lists:
/// a file of ids or of hostlists, or a hostlist itself (`node[01-16,20]`).
fn by_name(host: &Spec, names: &[String], text: &std::path::Path) -> Result<Vec<u64>> {
    let listed = match std::fs::read_to_string(text) {
        Ok(body) => {
            let words: Vec<&str> = body
                .lines()
                .map(|l| l.split('#').next().unwrap_or(""))
                .flat_map(str::split_whitespace)
                .collect();
            if words.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit())) {
                return crate::spec::read_allocation(text);
            }
            words.join(",")
        }
        Err(_) => text.display().to_string(),
    };
    let wanted = crate::io::expand_hostlist(&listed).map_err(Error::Spec)?;
    let index: FxHashMap<&str, u64> = names
        .iter()
        .zip(0..)
        .map(|(n, k)| (n.as_str(), k))
        .collect();
    wanted
        .iter()
        .map(|name| {
            index.get(name.as_str()).copied().ok_or_else(|| {
                Error::Spec(format!(
                    "{host}: node {name} of the allocation is not in the topology (its nodes: {})",
                    abbreviate(names)
                ))
            })
        })
        .collect()
}

/// The first few names, for messages.
fn abbreviate(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(4).map(String::as_str).collect();
    if names.len() > 4 {
        format!("{}, .. ({} in all)", shown.join(", "), names.len())
    } else {
        shown.join(", ")
    }
}

impl Topology for Allocation {
    super::network::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.nodes.len() as u64
    }
    /// The longest distance between two of its nodes (the host's diameter,
    /// an upper bound, above [`EXACT_DIAMETER_NODES`]).
    fn diameter(&self) -> u64 {
        *self.diameter.get_or_init(|| {
            let n = self.node_count();
            if n > EXACT_DIAMETER_NODES {
                return self.host.diameter();
            }
            (0..n)
                .into_par_iter()
                .map(|a| (a + 1..n).map(|b| self.distance(a, b)).max().unwrap_or(0))
                .max()
                .unwrap_or(0)
        })
    }
    fn distance_bound(&self) -> u64 {
        self.host.distance_bound()
    }
    #[inline]
    fn distance(&self, a: u64, b: u64) -> u64 {
        self.host
            .distance(self.nodes[a as usize], self.nodes[b as usize])
    }
    /// The host node's coordinates.
    fn coords(&self, v: u64) -> Vec<u64> {
        self.host.coords(self.nodes[v as usize])
    }
    fn edge_classes(&self) -> u32 {
        1
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        self.pairs().push_edges(nodes, edges, |_, _| 0);
    }
    /// The whole host's links; none when the host has no links (a tleaf).
    fn network(&self) -> Option<&dyn Network> {
        (!self.spec.has_no_links()).then_some(self as &dyn Network)
    }
}

impl Network for Allocation {
    fn link_count(&self) -> u64 {
        HostLinks(self.host.as_ref()).link_count()
    }
    fn link_classes(&self) -> u32 {
        HostLinks(self.host.as_ref()).link_classes()
    }
    fn link_class(&self, link: u64) -> u32 {
        HostLinks(self.host.as_ref()).link_class(link)
    }
    fn class_name(&self, class: u32) -> String {
        HostLinks(self.host.as_ref()).class_name(class, "host links")
    }
    /// The host's route between the two host nodes.
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        let (a, b) = (self.nodes[a as usize], self.nodes[b as usize]);
        HostLinks(self.host.as_ref()).route_links(a, b, links);
    }
    /// The host's route, and the allocation's nodes on it (others are not
    /// its nodes).
    fn route_through(&self, a: u64, b: u64, links: &mut Vec<u64>, inner: &mut Vec<u64>) {
        let (a, b) = (self.nodes[a as usize], self.nodes[b as usize]);
        HostLinks(self.host.as_ref()).route_through(a, b, links, &mut |h| {
            inner.extend(self.index.get(&h));
        });
    }
    fn describe_routing(&self) -> String {
        let words = HostLinks(self.host.as_ref()).describe();
        match self.host.network() {
            Some(_) => words,
            None => format!("{words}, over the whole host's links"),
        }
    }
}
