//! The general mapper: any guest (an application's weighted communication
//! graph, or any implicit topology) onto any host, minimising hop-bytes
//! (Σ volume × host distance) under a capacity per host node.
//!
//! Multilevel, laid out by phase as KaHIP and Mt-KaHyPar are:
//! * [`coarsen`]: heavy-edge matching, inside every bisection;
//! * [`initial`]: dual recursive bipartitioning of guest and host together
//!   (Pellegrini's Scotch): host domains split along the machine
//!   ([`domain`]), the guest's vertices split with them by multilevel
//!   bisection whose cost sees the distance to neighbours already placed;
//! * [`refine`]: FM on each bisection ([`refine::fm`]), then move and swap
//!   local search on the placement with exact distances ([`refine::local`]).
//!
//! Capacity (DESIGN.md): with `imbalance` EPS no host node holds more than
//! ⌈(1 + EPS) · total load / host nodes⌉; when guest and host have as many
//! nodes and every load is 1, exactly one guest node per host node.
//! Results depend only on the seed, not on the number of threads.

mod coarsen;
mod distance;
mod domain;
mod graph;
mod initial;
pub mod refine;
pub mod rng;

pub use distance::{HostDistance, MAX_TABLE_NODES};
pub use graph::{WGraph, MAX_GUEST_NODES};

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::topology::Topology;

/// Most host nodes the mapper places onto (it lists them).
pub const MAX_HOST_NODES: u64 = 1 << 24;

/// Default imbalance: 3 % above the average load.
pub const DEFAULT_IMBALANCE: f64 = 0.03;

/// Mapper settings.
#[derive(Debug, Clone, Copy)]
pub struct MapOptions<'a> {
    /// How far above the average load a host node may go (0.03: 3 %).
    pub imbalance: f64,
    /// Seed of every random choice.
    pub seed: u64,
    /// Most passes of the final local search.
    pub passes: usize,
    /// Progress counter (units: guest nodes per phase).
    pub progress: Option<&'a Progress>,
}

impl Default for MapOptions<'_> {
    fn default() -> Self {
        MapOptions {
            imbalance: DEFAULT_IMBALANCE,
            seed: 1,
            passes: 12,
            progress: None,
        }
    }
}

/// A placement found by the mapper.
#[derive(Debug, Clone)]
pub struct Placement {
    hosts: Vec<u64>,
    inverse: Option<Vec<u32>>,
    capacity: u64,
    notes: Vec<String>,
}

impl Placement {
    /// Host node of every guest node.
    pub fn hosts(&self) -> &[u64] {
        &self.hosts
    }
    /// Most load a host node was allowed.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }
}

impl Embedding for Placement {
    fn method(&self) -> &'static str {
        "map"
    }
    fn map(&self, guest: u64) -> u64 {
        self.hosts[guest as usize]
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        let inv = self.inverse.as_ref()?;
        inv.get(host as usize)
            .filter(|&&g| g != u32::MAX)
            .map(|&g| u64::from(g))
    }
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

/// The most load one host node may take: ⌈(1 + eps) · total / nodes⌉, and
/// exactly 1 when guest and host have as many nodes and every load is 1.
pub fn capacity(g: &WGraph, host_nodes: u64, eps: f64) -> u64 {
    let total = g.total_load();
    if g.n() as u64 == host_nodes && g.vw.iter().all(|&w| w == 1) {
        return 1;
    }
    let avg = total as f64 / host_nodes as f64;
    ((1.0 + eps) * avg).ceil().max(1.0) as u64
}

/// Maps `guest` onto `host` (see the module docs).
pub fn map(guest: &dyn Topology, host: &dyn Topology, options: &MapOptions) -> Result<Placement> {
    if !(0.0..=100.0).contains(&options.imbalance) || options.imbalance.is_nan() {
        return Err(Error::Parameter(format!(
            "imbalance {}: give a fraction from 0 to 100 (0.03 lets a host node hold 3 % above the average load)",
            options.imbalance
        )));
    }
    let p = host.node_count();
    if p > MAX_HOST_NODES {
        return Err(Error::Parameter(format!(
            "{} has {p} nodes; the mapper places onto at most {MAX_HOST_NODES}",
            host.spec()
        )));
    }
    let g = WGraph::from_topology(guest)?;
    let cap = capacity(&g, p, options.imbalance);
    if let Some(v) = (0..g.n()).find(|&v| g.vw[v] > cap) {
        return Err(Error::Mismatch(format!(
            "guest node {v} has load {}, more than any host node may take ({cap} = ⌈(1 + {}) × {} / {p}⌉); \
             raise --imbalance or use a host with fewer nodes",
            g.vw[v],
            options.imbalance,
            g.total_load()
        )));
    }
    let dist = HostDistance::new(host)?;
    if let Some(pr) = options.progress {
        let levels = 64 - (p.max(1) - 1).leading_zeros() as u64;
        pr.add_total(g.n() as u64 * (levels + options.passes as u64));
    }
    let mut hosts = initial::place(
        &g,
        &dist,
        (0..p).collect(),
        (cap, options.imbalance),
        options.seed,
        options.progress,
    );
    refine::balance::restore(&g, &dist, &mut hosts, p, cap)?;
    let before = hop_bytes(&g, &dist, &hosts);
    let mut rng = rng::Rng::new(options.seed, u64::MAX);
    let gained = refine::local::improve(
        &g,
        &dist,
        &mut hosts,
        cap,
        options.passes,
        &mut rng,
        options.progress,
    );
    let mut notes = vec![format!(
        "dual recursive bipartitioning gave hop-bytes {before}; local search took {gained} off \
         (capacity {cap} load per host node, seed {})",
        options.seed
    )];
    let inverse = if g.n() as u64 == p && cap == 1 {
        let mut inv = vec![u32::MAX; p as usize];
        for (v, &h) in hosts.iter().enumerate() {
            inv[h as usize] = v as u32;
        }
        Some(inv)
    } else {
        None
    };
    if inverse.is_none() && g.n() as u64 == p {
        notes.push("loads differ, so several guest nodes may share a host node".into());
    }
    Ok(Placement {
        hosts,
        inverse,
        capacity: cap,
        notes,
    })
}

/// Σ volume × distance of a placement.
pub fn hop_bytes(g: &WGraph, dist: &HostDistance, hosts: &[u64]) -> u128 {
    let mut total = 0u128;
    for v in 0..g.n() {
        for (u, w) in g.edges(v) {
            if u > v {
                total += u128::from(w) * u128::from(dist.d(hosts[v], hosts[u]));
            }
        }
    }
    total
}
