//! Hosts whose links join switches or routers, not host nodes: fat trees
//! and dragonflies. Their host nodes are the leaves; as in a tleaf, every
//! two leaves are one "edge" of the host graph (what the mapper and the
//! edge counts see), with the distance the number of network links on the
//! route between them. The links the messages really cross are the
//! [`Network`]'s: the traffic metrics route every guest edge over them.

pub(super) mod dragonfly;
pub(super) mod fattree;

use super::{describe_model, EdgeBuffer, TieRule, Topology};

/// The links of a switched network and the route a message takes.
pub trait Network: Send + Sync {
    /// Number of links; ids are `0..link_count()`.
    fn link_count(&self) -> u64;
    /// Number of link classes (levels, or kinds of link).
    fn link_classes(&self) -> u32;
    /// The class of a link.
    fn link_class(&self, link: u64) -> u32;
    /// The name of a link class, for tables ("level 1", "green").
    fn class_name(&self, class: u32) -> String;
    /// Appends to `links` the links of the route from host node `a` to host
    /// node `b` (nothing when `a == b`), in order.
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>);
    /// [`Network::route_links`], and the host nodes the route passes
    /// through, ends not counted, appended to `inner` (none where switches
    /// forward, not host nodes): one route for both.
    fn route_through(&self, a: u64, b: u64, links: &mut Vec<u64>, _inner: &mut Vec<u64>) {
        self.route_links(a, b, links);
    }
    /// The routing model, in words.
    fn describe_routing(&self) -> String;
}

/// A host's own links seen as a network (what an allocation's or a
/// network of nodes' messages cross): its network's links where it has a
/// network, else its link slots along its own routes (ties toward
/// increasing coordinates).
pub struct HostLinks<'a>(pub &'a dyn Topology);

impl HostLinks<'_> {
    pub fn link_count(&self) -> u64 {
        self.0
            .network()
            .map_or_else(|| self.0.link_slots(), |n| n.link_count())
    }
    pub fn link_classes(&self) -> u32 {
        self.0.network().map_or(1, |n| n.link_classes())
    }
    pub fn link_class(&self, link: u64) -> u32 {
        self.0.network().map_or(0, |n| n.link_class(link))
    }
    /// The class's name, `links` for a host without a network.
    pub fn class_name(&self, class: u32, links: &str) -> String {
        self.0
            .network()
            .map_or_else(|| links.to_string(), |n| n.class_name(class))
    }
    /// The links of the route between host nodes `a` and `b`.
    pub fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        self.route_through(a, b, links, &mut |_| {});
    }

    /// [`HostLinks::route_links`], calling `inner` with each host node the
    /// route passes through (ends not counted; none on a network).
    pub fn route_through(&self, a: u64, b: u64, links: &mut Vec<u64>, inner: &mut dyn FnMut(u64)) {
        if let Some(network) = self.0.network() {
            return network.route_links(a, b, links);
        }
        let mut path = Vec::new();
        self.0.route(a, b, TieRule::Increasing, &mut path);
        let mut here = a;
        for (k, &next) in path.iter().enumerate() {
            if let Some(slot) = self.0.link_slot(here, next) {
                links.push(slot);
            }
            if k + 1 < path.len() {
                inner(next);
            }
            here = next;
        }
    }
    /// The routing model, in words.
    pub fn describe(&self) -> String {
        match self.0.network() {
            Some(network) => network.describe_routing(),
            None => describe_model(self.0, TieRule::Increasing),
        }
    }
}

/// The pair graph over `leaves` leaves that switched hosts (and tleaf
/// hierarchies) present: every two leaves are adjacent.
pub(super) struct PairGraph {
    pub leaves: u64,
}

impl PairGraph {
    pub fn edge_count(&self) -> u64 {
        self.leaves * (self.leaves - 1) / 2
    }
    pub fn neighbors(&self, v: u64) -> Vec<u64> {
        (0..self.leaves).filter(|&w| w != v).collect()
    }
    /// Every pair (u, v > u) owned by a node of `nodes`, of class `class(u, v)`.
    pub fn push_edges(
        &self,
        nodes: std::ops::Range<u64>,
        edges: &mut EdgeBuffer,
        class: impl Fn(u64, u64) -> u32,
    ) {
        for u in nodes {
            for v in u + 1..self.leaves {
                edges.push(u, v, class(u, v));
            }
        }
    }
    pub fn link_slots(&self) -> u64 {
        self.leaves * self.leaves
    }
    pub fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        (u != v && u.max(v) < self.leaves).then(|| u.min(v) * self.leaves + u.max(v))
    }
}

/// The [`super::Topology`] methods of a host whose edges are the pairs of
/// its leaves (tleaf, fat tree, dragonfly, hwloc node, Slurm cluster,
/// allocation, network of nodes): counts, neighbours, single-step routes
/// and pair link slots; `push_edges` (its classes) each host writes.
macro_rules! pair_graph_methods {
    () => {
        fn edge_count(&self) -> u64 {
            $crate::topology::network::PairGraph {
                leaves: self.node_count(),
            }
            .edge_count()
        }
        fn neighbors(&self, v: u64) -> Vec<u64> {
            $crate::topology::network::PairGraph {
                leaves: self.node_count(),
            }
            .neighbors(v)
        }
        fn degree(&self, _v: u64) -> u64 {
            self.node_count() - 1
        }
        /// One step: every two leaves are a "link" of the pair graph.
        fn route(&self, a: u64, b: u64, _ties: $crate::topology::TieRule, path: &mut Vec<u64>) {
            if a != b {
                path.push(b);
            }
        }
        fn link_slots(&self) -> u64 {
            $crate::topology::network::PairGraph {
                leaves: self.node_count(),
            }
            .link_slots()
        }
        fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
            $crate::topology::network::PairGraph {
                leaves: self.node_count(),
            }
            .link_slot(u, v)
        }
    };
}
pub(super) use pair_graph_methods;
