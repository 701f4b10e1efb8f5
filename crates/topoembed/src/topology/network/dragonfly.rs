//! A dragonfly routed as SimGrid routes its `DRAGONFLY` clusters
//! (`src/kernel/routing/DragonflyZone.cpp`, SimGrid 3.32): Cray Cascade's
//! layout of groups of chassis of routers ([`DragonflyShape`]). Host node
//! i is SimGrid's host i: coordinates (group, chassis, router, node), node
//! fastest.
//!
//! SimGrid's minimal route (`DragonflyZone::get_local_route`), followed
//! link for link: the source's local link; to another group, a green link
//! to the router whose position is the destination group (unless already
//! there), a black link to the group's first chassis (unless already in
//! it), the blue link, after which the current router is the destination
//! group's router numbered by the source group; then a green link to the
//! destination's router position, *after which SimGrid takes the current
//! router to be in chassis 0*, and a black link from there to the
//! destination's chassis when that is not chassis 0; the destination's
//! local link. Inside a group, a route that changes both router position
//! and chassis therefore takes its black link between chassis 0 and the
//! destination's chassis, and one from chassis c ≠ 0 to a different router
//! of chassis 0 has no black link at all (3 links, where a path needs 4).
//! Every other route is a shortest path and as long as the route back. The
//! distance here is the longer of the two directions' link counts — the
//! route's own count but for those shortcut pairs, where it is the 4 of the
//! route back (a distance must be symmetric for hop-bytes and the mapper);
//! the traffic metrics load exactly the links of SimGrid's route, shortcut
//! included. Links are cables, loaded by routes in either direction.

use std::ops::Range;

use super::{EdgeBuffer, Topology};
use super::{Network, PairGraph};
use crate::spec::{pairs, DragonflyShape, Spec};

/// Link classes: host-to-router, router-to-router in a chassis (green),
/// chassis-to-chassis in a group (black), group-to-group (blue).
const CLASS_NAMES: [&str; 4] = ["local", "green", "black", "blue"];

/// A dragonfly (module docs).
#[derive(Debug, Clone)]
pub struct Dragonfly {
    spec: Spec,
    s: DragonflyShape,
    leaves: u64,
    /// First link id of each class, then the total.
    offsets: [u64; 5],
}

/// (group, chassis, router position in the chassis, node on the router).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Coords {
    group: u64,
    chassis: u64,
    router: u64,
    node: u64,
}

/// The index of the pair {i, j} (i != j) among the pairs of n things.
fn pair_index(i: u64, j: u64, n: u64) -> u64 {
    let (i, j) = (i.min(j), i.max(j));
    i * n - i * (i + 1) / 2 + (j - i - 1)
}

impl Dragonfly {
    /// The dragonfly of `shape` (checked by the spec parser).
    pub fn new(shape: &DragonflyShape) -> Dragonfly {
        let counts = [
            shape.local_links(),
            shape.green_links(),
            shape.black_links(),
            shape.blue_links(),
        ];
        let mut offsets = [0; 5];
        for k in 0..4 {
            offsets[k + 1] = offsets[k] + counts[k];
        }
        Dragonfly {
            spec: Spec::Dragonfly(shape.clone()),
            s: shape.clone(),
            leaves: shape.leaves(),
            offsets,
        }
    }

    fn coords_of(&self, v: u64) -> Coords {
        let s = &self.s;
        Coords {
            node: v % s.nodes,
            router: v / s.nodes % s.routers,
            chassis: v / (s.nodes * s.routers) % s.chassis,
            group: v / (s.nodes * s.routers * s.chassis),
        }
    }

    fn router_id(&self, group: u64, chassis: u64, router: u64) -> u64 {
        (group * self.s.chassis + chassis) * self.s.routers + router
    }

    fn local(&self, group: u64, chassis: u64, router: u64, node: u64) -> u64 {
        self.router_id(group, chassis, router) * self.s.nodes + node
    }

    fn green(&self, group: u64, chassis: u64, from: u64, to: u64) -> u64 {
        self.offsets[1]
            + (group * self.s.chassis + chassis) * pairs(self.s.routers)
            + pair_index(from, to, self.s.routers)
    }

    fn black(&self, group: u64, from: u64, to: u64, router: u64) -> u64 {
        self.offsets[2]
            + (group * pairs(self.s.chassis) + pair_index(from, to, self.s.chassis))
                * self.s.routers
            + router
    }

    fn blue(&self, from: u64, to: u64) -> u64 {
        self.offsets[3] + pair_index(from, to, self.s.groups)
    }

    /// Calls `link` for every link of SimGrid's route from `a` to `b`
    /// (module docs), in order.
    fn walk(&self, a: u64, b: u64, mut link: impl FnMut(u64)) {
        if a == b {
            return;
        }
        let (my, to) = (self.coords_of(a), self.coords_of(b));
        link(self.local(my.group, my.chassis, my.router, my.node));
        // (group, chassis, router) of SimGrid's current router.
        let mut at = (my.group, my.chassis, my.router);
        if (to.group, to.chassis, to.router) != at {
            if to.group != at.0 {
                if at.2 != to.group {
                    link(self.green(at.0, at.1, at.2, to.group));
                    at.2 = to.group;
                }
                if at.1 != 0 {
                    link(self.black(at.0, at.1, 0, at.2));
                }
                link(self.blue(my.group, to.group));
                at = (to.group, 0, my.group);
            }
            if to.router != at.2 {
                link(self.green(at.0, at.1, at.2, to.router));
                // SimGrid's current router is now in chassis 0.
                at = (to.group, 0, to.router);
            }
            if to.chassis != at.1 {
                link(self.black(at.0, at.1, to.chassis, at.2));
            }
        }
        link(self.local(to.group, to.chassis, to.router, to.node));
    }

    /// Whether SimGrid's route from `a` to `b` is the shortcut of the
    /// module docs (inside a group, from a chassis other than 0 to another
    /// router position in chassis 0): one link shorter than the route back.
    fn shortcut(&self, a: u64, b: u64) -> bool {
        let (x, y) = (self.coords_of(a), self.coords_of(b));
        x.group == y.group && x.chassis != 0 && y.chassis == 0 && x.router != y.router
    }

    /// The pair's class: 0 same router, 1 same chassis, 2 same group, 3 apart.
    fn pair_class(&self, a: u64, b: u64) -> u32 {
        let (x, y) = (self.coords_of(a), self.coords_of(b));
        if x.group != y.group {
            3
        } else if x.chassis != y.chassis {
            2
        } else if x.router != y.router {
            1
        } else {
            0
        }
    }
}

impl Topology for Dragonfly {
    super::pair_graph_methods!();
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.leaves
    }
    /// The longest of SimGrid's routes: between groups, local + green +
    /// black + blue + green + black + local where the shape has them;
    /// inside a group, local + green + black + local.
    fn diameter(&self) -> u64 {
        let (green, black) = (u64::from(self.s.routers > 1), u64::from(self.s.chassis > 1));
        if self.s.groups > 1 {
            3 + 2 * green + 2 * black
        } else {
            2 + green + black
        }
    }
    /// The longer direction's link count (module docs).
    fn distance(&self, a: u64, b: u64) -> u64 {
        let mut links = 0;
        self.walk(a, b, |_| links += 1);
        links + u64::from(self.shortcut(a, b))
    }
    /// (group, chassis, router, node).
    fn coords(&self, v: u64) -> Vec<u64> {
        let c = self.coords_of(v);
        vec![c.group, c.chassis, c.router, c.node]
    }
    /// Same router, same chassis, same group, different groups.
    fn edge_classes(&self) -> u32 {
        4
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        PairGraph {
            leaves: self.leaves,
        }
        .push_edges(nodes, edges, |u, v| self.pair_class(u, v));
    }
    fn network(&self) -> Option<&dyn Network> {
        Some(self)
    }
}

impl Network for Dragonfly {
    fn link_count(&self) -> u64 {
        self.offsets[4]
    }
    fn link_classes(&self) -> u32 {
        4
    }
    fn link_class(&self, link: u64) -> u32 {
        (self.offsets.partition_point(|&o| o <= link) - 1) as u32
    }
    fn class_name(&self, class: u32) -> String {
        CLASS_NAMES[class as usize].to_string()
    }
    fn route_links(&self, a: u64, b: u64, links: &mut Vec<u64>) {
        self.walk(a, b, |l| links.push(l));
    }
    fn describe_routing(&self) -> String {
        "SimGrid's minimal dragonfly routing (green, black, blue, green, black)".to_string()
    }
}
