//! The placement behind a reordered communicator: which process takes which
//! guest node (Cartesian position or graph vertex), computed by topoembed's
//! mapper ([`topoembed::embed::mapped::map`], which weighs the closed-form
//! grid-into-grid methods against its search), and what it gained over the
//! order MPI would use.
//!
//! Guest node g is the rank MPI gives position g (Cartesian) or the vertex
//! whose adjacency rank g declared (graphs), so the new communicator's rank
//! g must be the process that now plays g: `new_rank[process] = g`. With K
//! processes per host node the mapper places K guest nodes on every node
//! (imbalance 0), and the node's processes take them in rank order.

use std::path::PathBuf;

use topoembed::embed::mapped;
use topoembed::mapper::{MapOptions, Preset, WGraph};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology};
use topoembed::{Error, Result};

/// Hop-bytes and the longest dilation of one placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Σ volume × host distance over the guest's edges.
    pub hop_bytes: u128,
    /// The most host hops between two guest neighbours.
    pub max_dilation: u64,
}

/// A reordering: each process's new rank and what it costs against MPI's
/// own order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// New rank of each process (indexed by its rank in the old communicator).
    pub new_rank: Vec<u32>,
    /// What placed the guest (`axes on torus:4x4`, `map`).
    pub method: String,
    /// Guest node g on the process of old rank g.
    pub before: Cost,
    /// Guest node g on the process of new rank g.
    pub after: Cost,
}

impl Plan {
    /// The report line (`TOPOEMBED_REPORT=1`).
    pub fn report(&self, call: &str, guest: &str, host: &str) -> String {
        format!(
            "topoembed-reorder: {call}: {guest} on {host}, method {}: hop-bytes {} -> {}, max dilation {} -> {}",
            self.method,
            self.before.hop_bytes,
            self.after.hop_bytes,
            self.before.max_dilation,
            self.after.max_dilation
        )
    }
}

/// The guest of a Cartesian communicator: MPI's `dims` and `periods` (the
/// last axis fastest in MPI's rank order, the first in topoembed's, so the
/// axes are reversed), sides of 1 dropped; `None` for a single process.
pub fn cartesian_guest(dims: &[i64], periods: &[bool]) -> Result<Option<Spec>> {
    if dims.len() != periods.len() {
        return Err(Error::Parameter("dims and periods differ in length".into()));
    }
    let mut sides = Vec::new();
    let mut wraps = Vec::new();
    for (&d, &p) in dims.iter().zip(periods).rev() {
        if d < 1 {
            return Err(Error::Parameter(format!(
                "dims {dims:?}: every side must be 1 or more"
            )));
        }
        if d > 1 {
            sides.push(d as u64);
            // A periodic side of 2 is a plain edge (both neighbours coincide).
            wraps.push(p && d > 2);
        }
    }
    if sides.is_empty() {
        return Ok(None);
    }
    Ok(Some(Spec::grid_of(sides, wraps)))
}

/// A graph guest from directed adjacency lists (`targets[xadj[v]..xadj[v +
/// 1]]` are v's destinations, `weights` their volumes, 1 when `None`):
/// both directions of an edge add up to its volume; self-loops and
/// zero-volume edges carry nothing and are dropped.
pub fn graph_guest(
    call: &str,
    xadj: &[usize],
    targets: &[u64],
    weights: Option<&[u64]>,
) -> Result<Graph> {
    let n = xadj.len().saturating_sub(1) as u64;
    let mut volume = std::collections::BTreeMap::<(u64, u64), u64>::new();
    for v in 0..n as usize {
        for e in xadj[v]..xadj[v + 1] {
            let u = targets[e];
            if u >= n {
                return Err(Error::Parameter(format!(
                    "{call}: rank {v} names neighbour {u}, but the communicator has {n} processes"
                )));
            }
            let w = weights.map_or(1, |w| w[e]);
            if u as usize != v && w > 0 {
                let key = (u.min(v as u64), u.max(v as u64));
                *volume.entry(key).or_default() += w;
            }
        }
    }
    let edges: Vec<(u64, u64)> = volume.keys().copied().collect();
    let volumes: Vec<u64> = volume.values().copied().collect();
    Graph::from_weighted_edges(Spec::Graph(PathBuf::from(call)), n, &edges, Some(&volumes))
}

/// Places `guest` on `host`, one guest node per process, by the mapper at
/// `preset`; `members[p]` is the host node of the process of old rank p.
/// Every host node must hold the same number of processes.
pub fn plan(
    guest: &dyn Topology,
    host: &dyn Topology,
    members: &[u64],
    preset: Preset,
) -> Result<Plan> {
    let procs = members.len() as u64;
    let (n, h) = (guest.node_count(), host.node_count());
    if n != procs {
        return Err(Error::Mismatch(format!(
            "{} has {n} nodes but the communicator has {procs} processes",
            guest.spec()
        )));
    }
    let mut on = vec![Vec::<u32>::new(); h as usize];
    for (p, &node) in members.iter().enumerate() {
        if node >= h {
            return Err(Error::Mismatch(format!(
                "process {p} sits on host node {node}, but {} has {h} nodes",
                host.spec()
            )));
        }
        on[node as usize].push(p as u32);
    }
    let per = procs / h;
    if procs % h != 0 || on.iter().any(|ps| ps.len() as u64 != per) {
        let empty = on.iter().filter(|ps| ps.is_empty()).count();
        return Err(Error::Mismatch(format!(
            "the communicator's {procs} processes do not fill {} evenly ({h} nodes, {empty} of them \
             without a process); reordering needs the same number of processes on every host node \
             (set TOPOEMBED_PER_NODE, or give a host of {procs} nodes)",
            host.spec()
        )));
    }
    let options = MapOptions {
        imbalance: 0.0,
        preset,
        ..MapOptions::default()
    };
    let placement = mapped::map(guest, host, &options)?;
    let hosts = placement.hosts();
    // The processes of each host node take its guest nodes in rank order.
    let mut next = vec![0usize; h as usize];
    let mut new_rank = vec![u32::MAX; procs as usize];
    for (g, &node) in hosts.iter().enumerate() {
        let k = &mut next[node as usize];
        let p = on[node as usize].get(*k).copied().ok_or_else(|| {
            Error::Internal(format!(
                "the mapper put more than {per} guest nodes on host node {node}"
            ))
        })?;
        *k += 1;
        new_rank[p as usize] = g as u32;
    }
    let g = WGraph::from_topology(guest)?;
    let before = cost(&g, host, |v| members[v]);
    let after = cost(&g, host, |v| hosts[v]);
    // Never worse than MPI's own order: where the search does not beat it
    // (hop-bytes, then the longest dilation), the order stays.
    if (after.hop_bytes, after.max_dilation) > (before.hop_bytes, before.max_dilation) {
        return Ok(Plan {
            new_rank: (0..procs as u32).collect(),
            method: "identity (kept: no better placement found)".into(),
            before,
            after: before,
        });
    }
    Ok(Plan {
        new_rank,
        method: placement.start().unwrap_or("map").to_string(),
        before,
        after,
    })
}

/// The cost of guest node v on host node `node_of(v)`.
fn cost(g: &WGraph, host: &dyn Topology, node_of: impl Fn(usize) -> u64) -> Cost {
    let mut total = Cost {
        hop_bytes: 0,
        max_dilation: 0,
    };
    for v in 0..g.n() {
        for (u, w) in g.edges(v) {
            if u > v {
                let d = host.distance(node_of(v), node_of(u));
                total.hop_bytes += u128::from(w) * u128::from(d);
                total.max_dilation = total.max_dilation.max(d);
            }
        }
    }
    total
}

/// The host topology of a spec (or a Scotch target file).
pub fn host(spec: &str) -> Result<Box<dyn Topology>> {
    let spec = topoembed::io::parse_spec_or_target(spec)?;
    topology::build(&spec)
}
