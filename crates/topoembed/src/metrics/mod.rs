//! Metrics of an embedding, each a pass of its own over the implicit guest
//! (the guest graph is never materialised):
//! * [`edges`]: every guest edge mapped and measured once, streamed in
//!   parallel — dilations, spectrum, hop-bytes, the one-to-one check;
//! * [`separable`]: the same for `split`-like maps of meshes into cubes, axis
//!   by axis instead of edge by edge;
//! * [`elements`]: guest nodes per host node (maps not known to be
//!   one-to-one) and tree levels; [`load`]: guest load per host node;
//! * [`routed`]: congestion, link and node loads under a routing model;
//! * [`cube`]: a cube guest's per-dimension distances and CC time;
//! * closed forms are asked of the embedding ([`Embedding::journal`],
//!   [`Embedding::dilation_bound`]), not looked up by its method's name.
//!
//! Definitions follow the lecture notes on embedding metrics (§2) and the xor
//! paper (§2.1-2.2): dilation of an edge = host distance between the images of
//! its ends; load factor = most guest nodes on one host node; expansion = host
//! nodes / guest nodes; for a cube guest, D_i(n) = dilation of the dimension-i
//! edge at n, *constant distances* when every D_i(n) = D_i, and then the
//! average distance D_a = (sum_i D_i) / d.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::closed_form::{self, JournalMetrics};
use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::model::{self, CcTime};
use crate::progress::Progress;
use crate::routing::{HostRoute, Route, TieRule};
use crate::spec::Spec;
use crate::topology::Topology;
mod cube;
mod edges;
mod elements;
mod load;
mod routed;
mod separable;

pub use cube::cube_dilations;
pub use elements::ElementCounts;
pub use load::HostLoad;

use crate::traffic::fat::{self, FatCongestion, FatPaths};
use crate::traffic::{AxisLoad, Congestion, LoadStats};

/// What to compute besides the dilation metrics.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// T_a of the CC model: duration of a compute phase.
    pub ta: f64,
    /// T_c of the CC model: cost of a message over one link.
    pub tc: f64,
    /// Counter for a progress display (units: guest edges, then recurrence pairs).
    pub progress: Option<&'a Progress>,
    /// How guest edges are routed for congestion and node load.
    pub routing: Routing<'a>,
    /// Cube hosts: also spread every guest edge over its edge-disjoint
    /// paths and report the fractional link load (Ho & Johnsson §5).
    pub fat_edges: Option<FatPaths>,
}

/// Which routing the traffic metrics (congestion, node load) use.
#[derive(Clone, Copy)]
pub enum Routing<'a> {
    /// Skip the traffic metrics.
    Off,
    /// The host family's own model ([`crate::topology::Topology::route`]).
    Model(TieRule),
    /// A caller's model.
    Custom(&'a dyn Route),
}

impl std::fmt::Debug for Routing<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Routing::Off => f.write_str("Off"),
            Routing::Model(t) => write!(f, "Model({t})"),
            Routing::Custom(r) => write!(f, "Custom({})", r.describe()),
        }
    }
}

/// The two slowdown factors of the lecture notes' rule of thumb (§2):
/// computation slows by the load factor, communication by congestion x dilation.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Slowdown {
    /// Load factor.
    pub computation: u64,
    /// Congestion x dilation.
    pub communication: u64,
}

impl Default for Options<'_> {
    /// T_a = 0, T_c = 1: the CC time is then the communication cost in link hops.
    fn default() -> Self {
        Options {
            ta: 0.0,
            tc: 1.0,
            progress: None,
            routing: Routing::Model(TieRule::Increasing),
            fat_edges: None,
        }
    }
}

/// Dilation summary over all guest edges.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Dilation {
    /// Largest dilation (the embedding's dilation).
    pub max: u64,
    /// Mean dilation over guest edges.
    pub average: f64,
    /// Sum of dilations over guest edges.
    pub total: u128,
    /// Number of guest edges of each dilation (no cap on the distance).
    pub spectrum: BTreeMap<u64, u64>,
}

/// Dilation range of one cube dimension: D_i(n) over all n.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DimensionDilation {
    /// Cube dimension i.
    pub dimension: u32,
    /// Smallest D_i(n).
    pub min: u64,
    /// Largest D_i(n).
    pub max: u64,
    /// Mean D_i(n).
    pub average: f64,
}

/// All metrics of one embedding. JSON keys are stable.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Metrics {
    /// Guest spec.
    pub guest: String,
    /// Host spec.
    pub host: String,
    /// Method name.
    pub method: String,
    /// Guest node count.
    pub guest_nodes: u64,
    /// Host node count.
    pub host_nodes: u64,
    /// Guest edge count.
    pub guest_edges: u64,
    /// Most guest nodes on one host node.
    pub load_factor: u64,
    /// Host nodes / guest nodes.
    pub expansion: f64,
    /// Dilation summary.
    pub dilation: Dilation,
    /// Σ volume × dilation over guest edges (DESIGN.md: hop-bytes); the
    /// total dilation when edges carry no volumes.
    pub hop_bytes: u128,
    /// Σ volume over guest edges (the edge count without volumes).
    pub total_volume: u128,
    /// Guests with loads or volumes: the guest load on each host node.
    pub host_load: Option<HostLoad>,
    /// Cube guests: D_i(n) range per dimension i.
    pub per_dimension: Option<Vec<DimensionDilation>>,
    /// Cube guests: true when every dimension has one distance.
    pub constant_distance: Option<bool>,
    /// The distances D_i when constant.
    pub distances: Option<Vec<u64>>,
    /// D_a when distances are constant.
    pub average_distance: Option<f64>,
    /// CC time (cube guests).
    pub cc_time: Option<CcTime>,
    /// Maps not known to be one-to-one: guest nodes per host node.
    pub node_elements: Option<ElementCounts>,
    /// Guest edges with both ends on one host node (dilation 0).
    pub edges_inside: u64,
    /// Tree guests: the most tree nodes of one level on one host node, level
    /// by level from the root (lecture notes §3: the `levels` embedding has
    /// load log P + 1 but 1 on every level).
    pub level_load: Option<Vec<u64>>,
    /// Methods with a proven bound on their dilation (`reshape`: Ho &
    /// Johnsson's Theorem 3, with the correction in `embed::mesh_to_cube`).
    pub dilation_bound: Option<u64>,
    /// Where the bound comes from ("…, corrected" when the source prints a
    /// different bound).
    pub dilation_bound_source: Option<String>,
    /// The routing model behind the traffic metrics.
    pub routing: Option<String>,
    /// Link loads: congestion = most guest edges routed over one host link.
    pub congestion: Option<Congestion>,
    /// Grid hosts: link loads per host axis.
    pub link_load: Option<Vec<AxisLoad>>,
    /// Routes passing through each host node, ends not counted (journal §4.5).
    pub node_load: Option<LoadStats>,
    /// Routes through, from or to each host node.
    pub node_traffic: Option<LoadStats>,
    /// Load factor and congestion x dilation.
    pub slowdown: Option<Slowdown>,
    /// Cube hosts with fat edges: link loads with every guest edge spread
    /// over edge-disjoint paths, beside the e-cube `congestion`.
    pub fat_congestion: Option<FatCongestion>,
    /// Standard and xor embeddings of cubes onto power-of-two rings and tori:
    /// the journal metrics from their closed forms, to set beside the measured ones.
    pub closed_form: Option<JournalMetrics>,
    /// What could not be computed, and why.
    pub notes: Vec<String>,
    /// How the method built this embedding (the choices it made, the
    /// searches it ran): detail for `--verbose`, not a caveat on a number.
    pub method_notes: Vec<String>,
}

/// Measures `embedding` of `guest` into `host`.
pub fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    options: &Options,
) -> Result<Metrics> {
    model::check_costs(options.ta, options.tc)?;
    if options.fat_edges.is_some() && !matches!(host.spec(), Spec::Cube(_)) {
        return Err(Error::Parameter(format!(
            "fat edges spread traffic over a hypercube's edge-disjoint paths; {} is not a \
             hypercube (cube:n)",
            host.spec()
        )));
    }
    let nodes = guest.node_count();
    let edges = guest.edge_count();
    if let Some(p) = options.progress {
        p.add_total(edges * (1 + u64::from(options.fat_edges.is_some())));
    }
    if let Some(fast) = separable_fast_path(guest, host, embedding, options) {
        let load_factor = fast.elements.max;
        let mut metrics = summarise(guest, host, embedding, fast.acc, load_factor, options);
        metrics.node_elements = Some(fast.elements);
        if let Some(t) = fast.traffic {
            routed::set_traffic(&mut metrics, t);
        }
        return finish(metrics, guest, host, embedding, options, false);
    }
    let acc = edges::measure(guest, host, embedding, options.progress);

    if let Some((g, h)) = acc.off_host {
        return Err(Error::Internal(format!(
            "{} placed guest node {g} on host node {h}, outside {} ({} nodes)",
            embedding.method(),
            host.spec(),
            host.node_count()
        )));
    }
    if let Some((u, v)) = acc.unreachable {
        return Err(Error::Mismatch(format!(
            "{} is not connected: guest edge {u}-{v} lands on host nodes {} and {} with no path between them",
            host.spec(),
            embedding.map(u),
            embedding.map(v)
        )));
    }
    let elements = if acc.not_injective {
        Some(elements::count_load(nodes, host.node_count(), embedding)?)
    } else {
        None
    };
    let load_factor = elements.map_or(u64::from(nodes > 0), |e| e.max);
    let mut metrics = summarise(guest, host, embedding, acc, load_factor, options);
    metrics.node_elements = elements;
    finish(metrics, guest, host, embedding, options, true)
}

/// `split`-like maps of a mesh into a cube of at most 2^26 nodes, many to
/// one: measured axis by axis ([`separable`]) instead of edge by edge.
fn separable_fast_path(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    options: &Options,
) -> Option<separable::Measured> {
    let per_axis = embedding.per_axis()?;
    let lengths = match guest.spec() {
        Spec::Mesh(sides) => sides.clone(),
        Spec::Line(n) => vec![*n],
        _ => return None,
    };
    let Spec::Cube(n) = *host.spec() else {
        return None;
    };
    if n > separable::MAX_HOST_DIMENSION || guest.node_count() <= host.node_count() {
        return None;
    }
    let routing = match options.routing {
        Routing::Off => None,
        Routing::Model(ties) => Some(HostRoute::new(host, ties).describe()),
        Routing::Custom(_) => return None,
    };
    let classes = guest.edge_classes() as usize;
    let measured = separable::measure(&lengths, n, per_axis, classes, routing);
    crate::progress::advance(options.progress, guest.edge_count());
    Some(measured)
}

/// What every path adds after the dilation metrics: edges inside a node,
/// the method's bound and notes, traffic (unless already there), fat edges.
fn finish(
    mut metrics: Metrics,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    options: &Options,
    route: bool,
) -> Result<Metrics> {
    metrics.edges_inside = metrics.dilation.spectrum.get(&0).copied().unwrap_or(0);
    if guest.is_weighted() {
        metrics.host_load = Some(load::host_load(guest, host, embedding)?);
    }
    if let Spec::BinTree(leaves) = *guest.spec() {
        metrics.level_load = elements::level_load(leaves, host.node_count(), embedding);
    }
    if let Some(bound) = embedding.dilation_bound() {
        metrics.dilation_bound = Some(bound.holds);
        metrics.dilation_bound_source = Some(if bound.holds == bound.printed {
            bound.source.to_string()
        } else {
            format!("{}, corrected", bound.source)
        });
        if metrics.dilation.max > bound.printed {
            metrics.notes.push(format!(
                "dilation {} exceeds {} as printed ({}); the bound that holds is {}",
                metrics.dilation.max, bound.source, bound.printed, bound.holds
            ));
        }
    }
    metrics.method_notes.extend(embedding.notes());
    if route {
        routed::add_traffic(&mut metrics, guest, host, embedding, options)?;
    }
    if let (Some(which), Spec::Cube(n)) = (options.fat_edges, host.spec()) {
        metrics.fat_congestion = Some(fat::measure(guest, *n, embedding, which, options.progress)?);
    }
    Ok(metrics)
}

fn summarise(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    acc: edges::Accumulator,
    load_factor: u64,
    options: &Options,
) -> Metrics {
    let edges = guest.edge_count();
    let dilation = acc.dilation(edges);
    let total = dilation.total;
    let mut metrics = Metrics {
        guest: guest.spec().to_string(),
        host: host.spec().to_string(),
        method: embedding.method().to_string(),
        guest_nodes: guest.node_count(),
        host_nodes: host.node_count(),
        guest_edges: edges,
        load_factor,
        expansion: host.node_count() as f64 / guest.node_count() as f64,
        hop_bytes: if guest.is_weighted() {
            acc.hop_bytes
        } else {
            total
        },
        total_volume: guest.total_volume(),
        host_load: None,
        dilation,
        per_dimension: None,
        constant_distance: None,
        distances: None,
        average_distance: None,
        cc_time: None,
        node_elements: None,
        edges_inside: 0,
        level_load: None,
        dilation_bound_source: None,
        dilation_bound: None,
        routing: None,
        congestion: None,
        link_load: None,
        node_load: None,
        node_traffic: None,
        slowdown: None,
        fat_congestion: None,
        closed_form: match options.routing {
            Routing::Custom(_) => None,
            _ => embedding
                .journal()
                .and_then(|kind| closed_form::journal(kind, guest.spec(), host.spec())),
        },
        notes: Vec::new(),
        method_notes: Vec::new(),
    };
    if let Spec::Cube(dim) = *guest.spec() {
        cube::cube_guest_metrics(&mut metrics, dim, &acc.classes, embedding, host, options);
    }
    metrics
}
