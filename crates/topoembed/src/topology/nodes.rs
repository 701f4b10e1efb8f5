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

use super::network::{HostLinks, Network, PairGraph};
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
    super::network::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.network.node_count() * self.per_node
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
    /// Within a node, across the network.
    fn edge_classes(&self) -> u32 {
        2
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        self.pairs().push_edges(nodes, edges, |u, v| {
            u32::from(u / self.per_node != v / self.per_node)
        });
    }
    /// The network's links, when it has any (a tleaf or Slurm network
    /// gives distances only).
    fn network(&self) -> Option<&dyn Network> {
        (!self.network.spec().has_no_links()).then_some(self as &dyn Network)
    }
}

impl Network for Nodes {
    fn link_count(&self) -> u64 {
        HostLinks(self.network.as_ref()).link_count()
    }
    fn link_classes(&self) -> u32 {
        HostLinks(self.network.as_ref()).link_classes()
    }
    fn link_class(&self, link: u64) -> u32 {
        HostLinks(self.network.as_ref()).link_class(link)
    }
    fn class_name(&self, class: u32) -> String {
        HostLinks(self.network.as_ref()).class_name(class, "network links")
    }
    /// Between nodes, the network's route; within a node, none.
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        let (n, m) = (self.split(a).0, self.split(b).0);
        if n != m {
            HostLinks(self.network.as_ref()).route_links(n, m, links);
        }
    }
    fn describe_routing(&self) -> String {
        format!(
            "between nodes, {}",
            HostLinks(self.network.as_ref()).describe()
        )
    }
}
