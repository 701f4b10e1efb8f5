//! Congestion, link load and node load: what routing the guest edges does to
//! the host's links and nodes.
//!
//! Loads are counted in *volume*: a guest edge of volume w adds w wherever
//! its route goes (w = 1 for guests without volumes, so the loads are then
//! counts of guest edges, as in the seeds).
//!
//! Every guest edge {u, v} (u < v) is routed from its host node f(u) to f(v)
//! by a [`Route`]. Then, per the lecture notes on embedding metrics (§2) and
//! the journal xor paper (§4.5-4.6):
//! * the *load* of a host link is the number of routes that use it, and the
//!   **congestion** is the largest link load;
//! * the **node load** of a host node is the number of routes passing
//!   *through* it, ends not counted, so Σ node load = Σ (dilation - 1) over
//!   the guest edges and the average load is that sum / host nodes (§4.6);
//! * the **node traffic** also counts the routes that start or end there:
//!   what a node's router handles. Guest edges whose ends share a host node
//!   use no link and count nowhere.
//!
//! On grid hosts with the built-in dimension-order model ([`lines`]) every
//! route is at most one straight leg per axis, so each leg is two updates of
//! a difference array along its host line, and one prefix sum per line gives
//! every link load: O(guest edges + host nodes), never O(Σ dilation). Node
//! loads then follow from the link loads, because a simple path enters and
//! leaves each inner node by two of its links and each end by one:
//! Σ (loads of the links at x) = 2 · load(x) + ends(x).
//! Any other host or route is walked hop by hop ([`walk`]).

mod counters;
pub mod fat;
mod lines;
mod product;
mod profile;
mod switched;
mod walk;

pub use profile::{node_load_profile, MAX_PROFILE_COUNTERS};

use std::collections::BTreeMap;

use serde::Serialize;

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::routing::Route;
use crate::topology::{Grid, Topology};

/// Link loads over all host links.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Congestion {
    /// The congestion: most routes over one host link.
    pub max: u64,
    /// Mean link load (Σ dilation / host links).
    pub average: f64,
    /// Number of host links with each load (idle links under 0).
    pub histogram: BTreeMap<u64, u64>,
}

/// Link loads of the links along one grid axis.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AxisLoad {
    /// Host axis, 1 first (a switched network's link class, 1 first).
    pub axis: u32,
    /// A switched network's link class, in words ("level 1 to 2", "green").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Most routes over one link of this axis.
    pub max: u64,
    /// Fewest routes over one link of this axis.
    pub min: u64,
    /// Mean load of this axis's links.
    pub average: f64,
}

/// Range of a per-node count over the host nodes.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct LoadStats {
    /// Largest count on one host node.
    pub max: u64,
    /// Smallest count on one host node.
    pub min: u64,
    /// Mean over host nodes.
    pub average: f64,
}

/// Everything routing says about an embedding.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Traffic {
    /// The routing model, in words.
    pub routing: String,
    /// Link loads and congestion.
    pub congestion: Congestion,
    /// Grid hosts: link loads per axis.
    pub link_load: Option<Vec<AxisLoad>>,
    /// Routes through each node, ends not counted (journal §4.5).
    pub node_load: LoadStats,
    /// Routes through, from or to each node.
    pub node_traffic: LoadStats,
}

/// Memory the per-thread counters may take in all.
const COUNTER_MEMORY: u64 = 8 << 30;

/// Routes every guest edge of `embedding` through `host` by `route` and
/// measures link and node loads. The embedding must already be known to map
/// into the host ([`crate::metrics::measure`] checks that first).
pub fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    route: &dyn Route,
    progress: Option<&Progress>,
) -> Result<Traffic> {
    // The built-in model on a grid: by lines (an axis product factors over
    // the axes: exact, and no counters at all) or by difference arrays.
    let grid = match (route.model(), host.spec().grid()) {
        (Some(ties), Some(_)) => Some((ties, Grid::new(host.spec().clone()))),
        _ => None,
    };
    if let Some((ties, grid)) = &grid {
        if let Some(mut traffic) = product::measure(guest, grid, embedding, *ties) {
            traffic.routing = route.describe();
            return Ok(traffic);
        }
    }
    // Counters are u32: a link carries at most the whole volume, a node ends
    // at most twice the volume.
    let edges = guest.edge_count();
    let volume = guest.total_volume();
    if volume > u128::from(u32::MAX / 2) {
        return Err(Error::Parameter(format!(
            "{} has {} {volume}; link and node loads are counted up to {}",
            guest.spec(),
            if guest.is_weighted() {
                "a total volume of"
            } else {
                "edges:"
            },
            u32::MAX / 2
        )));
    }
    if let Some(p) = progress {
        p.add_total(edges);
    }
    // A switched host under its own model: over the network's links.
    if let (Some(network), Some(_)) = (host.network(), route.model()) {
        return switched::measure(guest, host, network, embedding, progress);
    }
    let mut traffic = match grid {
        Some((ties, grid)) => lines::measure(guest, &grid, embedding, ties, progress)?,
        None => walk::measure(guest, host, embedding, route, progress)?,
    };
    traffic.routing = route.describe();
    Ok(traffic)
}

/// Whether [`measure`] routes `embedding` line by line under the host's
/// own model (an axis product onto a grid whose lines are short beside the
/// guest): then routing costs next to nothing beside the edge pass.
pub fn factored(guest: &dyn Topology, host: &dyn Topology, embedding: &dyn Embedding) -> bool {
    host.spec().grid().is_some()
        && product::applies(guest, &Grid::new(host.spec().clone()), embedding)
}

/// Running max / min / sum of counts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tally {
    max: u64,
    min: u64,
    sum: u128,
    count: u64,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            max: 0,
            min: u64::MAX,
            sum: 0,
            count: 0,
        }
    }
}

impl Tally {
    /// `copies` counts of `x`.
    fn add_many(&mut self, x: u64, copies: u64) {
        if copies > 0 {
            self.max = self.max.max(x);
            self.min = self.min.min(x);
            self.sum += u128::from(x) * u128::from(copies);
            self.count += copies;
        }
    }
    #[inline(always)]
    pub(crate) fn add(&mut self, x: u64) {
        self.max = self.max.max(x);
        self.min = self.min.min(x);
        self.sum += u128::from(x);
        self.count += 1;
    }
    fn merge(mut self, other: Tally) -> Tally {
        self.max = self.max.max(other.max);
        self.min = self.min.min(other.min);
        self.sum += other.sum;
        self.count += other.count;
        self
    }
    pub(crate) fn count(&self) -> u64 {
        self.count
    }
    pub(crate) fn average(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }
    pub(crate) fn stats(&self) -> LoadStats {
        LoadStats {
            max: self.max,
            min: if self.count == 0 { 0 } else { self.min },
            average: self.average(),
        }
    }
}

/// Loads below this are counted in an array: `add` runs once per host
/// link, and a hash insert there cost more than the rest of the pass.
const DENSE_LOADS: u64 = 1 << 16;

/// Link-load histogram of one task, merged at the end.
#[derive(Debug, Default)]
struct Histogram {
    dense: Vec<u64>,
    sparse: rustc_hash::FxHashMap<u64, u64>,
}

impl Histogram {
    /// `copies` links of load `load`.
    fn add_many(&mut self, load: u64, copies: u64) {
        *self.sparse.entry(load).or_default() += copies;
    }
    #[inline(always)]
    fn add(&mut self, load: u64) {
        if load < DENSE_LOADS {
            if load as usize >= self.dense.len() {
                self.dense.resize(load as usize + 1, 0);
            }
            self.dense[load as usize] += 1;
        } else {
            *self.sparse.entry(load).or_default() += 1;
        }
    }
    fn merge(mut self, other: Histogram) -> Histogram {
        if self.dense.len() < other.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (a, b) in self.dense.iter_mut().zip(&other.dense) {
            *a += b;
        }
        for (k, c) in other.sparse {
            *self.sparse.entry(k).or_default() += c;
        }
        self
    }
    fn into_map(self) -> BTreeMap<u64, u64> {
        let mut map: BTreeMap<u64, u64> = self.sparse.into_iter().collect();
        for (load, &c) in self.dense.iter().enumerate() {
            if c > 0 {
                map.insert(load as u64, c);
            }
        }
        map
    }
}

/// Per-task partial statistics of the final pass over host nodes and links.
#[derive(Debug, Default)]
struct Summary {
    links: Tally,
    axes: Vec<Tally>,
    histogram: Histogram,
    load: Tally,
    traffic: Tally,
    /// A host node where a supposedly one-to-one map has no guest node.
    not_one_to_one: Option<u64>,
}

impl Summary {
    fn with_axes(axes: usize) -> Summary {
        Summary {
            axes: vec![Tally::default(); axes],
            ..Summary::default()
        }
    }
    fn merge(mut self, other: Summary) -> Summary {
        self.links = self.links.merge(other.links);
        for (a, b) in self.axes.iter_mut().zip(other.axes) {
            *a = a.merge(b);
        }
        self.histogram = self.histogram.merge(other.histogram);
        self.load = self.load.merge(other.load);
        self.traffic = self.traffic.merge(other.traffic);
        self.not_one_to_one = self.not_one_to_one.or(other.not_one_to_one);
        self
    }
    fn finish(self, grid: bool) -> Traffic {
        Traffic {
            routing: String::new(),
            congestion: Congestion {
                max: self.links.max,
                average: self.links.average(),
                histogram: self.histogram.into_map(),
            },
            link_load: grid.then(|| {
                self.axes
                    .iter()
                    .enumerate()
                    .map(|(k, t)| AxisLoad {
                        axis: k as u32 + 1,
                        name: None,
                        max: t.max,
                        min: if t.count == 0 { 0 } else { t.min },
                        average: t.average(),
                    })
                    .collect()
            }),
            node_load: self.load.stats(),
            node_traffic: self.traffic.stats(),
        }
    }
}

/// Maps the guest edges owned by `nodes` batch by batch and hands each batch's
/// host ends `(f(u), f(v))`, u < v, and their volumes to `visit` (the volumes
/// empty when the guest has none: volume 1 each).
fn for_mapped_edges(
    guest: &dyn Topology,
    embedding: &dyn Embedding,
    nodes: std::ops::Range<u64>,
    progress: Option<&Progress>,
    mut visit: impl FnMut(&[u64], &[u64], &[u64]),
) {
    let mut edges = crate::topology::EdgeBuffer::default();
    let (mut from, mut to) = (Vec::new(), Vec::new());
    let mut start = nodes.start;
    while start < nodes.end {
        let end = nodes.end.min(start + crate::stream::NODES_PER_BATCH);
        edges.clear();
        guest.push_edges(start..end, &mut edges);
        from.resize(edges.len(), 0);
        to.resize(edges.len(), 0);
        embedding.map_many(&edges.u, &mut from);
        embedding.map_many(&edges.v, &mut to);
        visit(&from, &to, &edges.volume);
        crate::progress::advance(progress, edges.len() as u64);
        start = end;
    }
}

/// Volume of edge k of a batch (`volumes` empty: 1), as a load counter.
#[inline(always)]
fn volume_at(volumes: &[u64], k: usize) -> u32 {
    // measure() checked that the whole volume fits a counter.
    volumes.get(k).map_or(1, |&w| w as u32)
}

/// The error for an embedding that leaves the host (metrics checks first).
fn off_host(host: &dyn Topology, node: u64) -> Error {
    Error::Internal(format!(
        "an embedding placed a guest node on host node {node}, outside {} ({} nodes)",
        host.spec(),
        host.node_count()
    ))
}
