//! Routing models: which host links a guest edge's messages use.
//!
//! Every topology family has a deterministic model ([`Topology::route`]):
//! dimension-order on grids (axis 1 first, the shorter way round each ring),
//! e-cube on hypercubes (lowest differing bit first), the unique path on trees
//! and a lowest-numbered shortest path on stored graphs. A guest edge {u, v}
//! is always routed from its lower-numbered guest node u to v, so a route is
//! the same whichever end a user thinks of as the sender.
//!
//! [`Route`] lets a method or a user supply another model; the traffic
//! metrics then walk its paths hop by hop instead of using the prefix-sum
//! shortcut that the built-in grid model allows.

use crate::topology::Topology;

pub use crate::topology::{describe_model, TieRule};

/// A routing model: the host path between two host nodes.
pub trait Route: Send + Sync {
    /// A one-line description shown in the output.
    fn describe(&self) -> String;
    /// Appends the nodes after `a` on the route to `b`, ending with `b`
    /// (nothing when `a == b`). Consecutive nodes must be adjacent in the host
    /// and no node may appear twice.
    fn path(&self, a: u64, b: u64, path: &mut Vec<u64>);
    /// `Some(ties)` when this is the host family's own model
    /// ([`Topology::route`] with that tie rule), which the traffic metrics
    /// compute without walking every hop.
    fn model(&self) -> Option<TieRule> {
        None
    }
}

/// The host family's own routing model (see [`Topology::route`]).
pub struct HostRoute<'a> {
    host: &'a dyn Topology,
    ties: TieRule,
}

impl<'a> HostRoute<'a> {
    /// The model of `host` with tie rule `ties` (only grids with an even ring have ties).
    pub fn new(host: &'a dyn Topology, ties: TieRule) -> HostRoute<'a> {
        HostRoute { host, ties }
    }
}

impl Route for HostRoute<'_> {
    fn describe(&self) -> String {
        describe_model(self.host, self.ties)
    }
    fn path(&self, a: u64, b: u64, path: &mut Vec<u64>) {
        self.host.route(a, b, self.ties, path);
    }
    fn model(&self) -> Option<TieRule> {
        Some(self.ties)
    }
}
