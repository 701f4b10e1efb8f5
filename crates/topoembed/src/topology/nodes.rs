//! A network of nodes: `NETWORK*NODE`, every node of the network (a fat
//! tree, dragonfly, torus, Slurm tree, ..) holding one NODE (an hwloc node,
//! a tleaf of sockets and cores, ..). Leaf (n, l) — leaf l of network node
//! n — is number n·L + l (the node's leaves fastest, as a tleaf numbers
//! its cores under its nodes). Two leaves of one node are the node's
//! distance apart; two leaves of different nodes are the network's
//! distance plus the node's diameter (each end climbs its node to the
//! network: the two climbs are at most the node's diameter, and taking it
//! keeps every pair across the network farther apart than any pair within
//! a node). Messages between nodes load the network's links
//! ([`Network`]), where the network has any.

use std::ops::Range;

use super::switched::{Network, PairGraph};
use super::TieRule;
use super::{EdgeBuffer, Topology};
use crate::spec::Spec;

/// A network of nodes (module docs).
pub struct Nodes {
    spec: Spec,
    network: Box<dyn Topology>,
    node: Box<dyn Topology>,
    /// Leaves of one node.
    per_node: u64,
}

impl Nodes {
    /// `network`'s nodes each holding a copy of `node`.
    pub fn new(spec: Spec, network: Box<dyn Topology>, node: Box<dyn Topology>) -> Nodes {
        let per_node = node.node_count();
        Nodes {
            spec,
            network,
            node,
            per_node,
        }
    }

    /// (network node, leaf of the node) of leaf `v`.
    fn split(&self, v: u64) -> (u64, u64) {
        (v / self.per_node, v % self.per_node)
    }

    fn pairs(&self) -> PairGraph {
        PairGraph {
            leaves: self.node_count(),
        }
    }
}

impl Topology for Nodes {
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.network.node_count() * self.per_node
    }
    fn edge_count(&self) -> u64 {
        self.pairs().edge_count()
    }
    fn diameter(&self) -> u64 {
        if self.network.node_count() > 1 {
            self.network.diameter() + self.node.diameter()
        } else {
            self.node.diameter()
        }
    }
    fn distance(&self, a: u64, b: u64) -> u64 {
        let ((n, l), (m, k)) = (self.split(a), self.split(b));
        if n == m {
            self.node.distance(l, k)
        } else {
            self.network.distance(n, m) + self.node.diameter()
        }
    }
    /// The network node's coordinates, then the leaf's within its node.
    fn coords(&self, v: u64) -> Vec<u64> {
        let (n, l) = self.split(v);
        let mut c = self.network.coords(n);
        c.extend(self.node.coords(l));
        c
    }
    fn neighbors(&self, v: u64) -> Vec<u64> {
        self.pairs().neighbors(v)
    }
    fn degree(&self, _v: u64) -> u64 {
        self.node_count() - 1
    }
    /// Within a node, across the network.
    fn edge_classes(&self) -> u32 {
        2
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        self.pairs().push_edges(nodes, edges, |u, v| {
            u32::from(u / self.per_node != v / self.per_node)
        });
    }
    fn route(&self, a: u64, b: u64, _ties: TieRule, path: &mut Vec<u64>) {
        if a != b {
            path.push(b);
        }
    }
    fn link_slots(&self) -> u64 {
        self.pairs().link_slots()
    }
    fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        self.pairs().link_slot(u, v)
    }
    /// The network's links, when it has any (a tleaf or Slurm network
    /// gives distances only).
    fn network(&self) -> Option<&dyn Network> {
        (!self.network.spec().has_no_links()).then_some(self as &dyn Network)
    }
}

impl Network for Nodes {
    fn link_count(&self) -> u64 {
        match self.network.network() {
            Some(network) => network.link_count(),
            None => self.network.link_slots(),
        }
    }
    fn link_classes(&self) -> u32 {
        self.network.network().map_or(1, |n| n.link_classes())
    }
    fn link_class(&self, link: u64) -> u32 {
        self.network.network().map_or(0, |n| n.link_class(link))
    }
    fn class_name(&self, class: u32) -> String {
        match self.network.network() {
            Some(network) => network.class_name(class),
            None => "network links".to_string(),
        }
    }
    /// Between nodes, the network's route; within a node, none.
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        let (n, m) = (self.split(a).0, self.split(b).0);
        if n == m {
            return;
        }
        if let Some(network) = self.network.network() {
            return network.route_links(n, m, links);
        }
        let mut path = Vec::new();
        self.network.route(n, m, TieRule::Increasing, &mut path);
        let mut here = n;
        for next in path {
            if let Some(slot) = self.network.link_slot(here, next) {
                links.push(slot);
            }
            here = next;
        }
    }
    fn describe_routing(&self) -> String {
        match self.network.network() {
            Some(network) => format!("between nodes, {}", network.describe_routing()),
            None => format!(
                "between nodes, {}",
                super::describe_model(self.network.as_ref(), TieRule::Increasing)
            ),
        }
    }
}
