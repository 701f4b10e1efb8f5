//! Dilation and load metrics of an embedding, streamed over guest edges in
//! parallel: the guest graph is never materialised.
//!
//! The guest's node range is cut into chunks; each rayon task enumerates the
//! edges its nodes own (`Topology::for_each_edge`), maps and measures them in
//! batches of [`BATCH`] (one virtual call per batch, not per edge) and keeps
//! its own accumulator; the accumulators are merged at the end.
//!
//! Definitions follow the lecture notes on embedding metrics (§2) and the xor
//! paper (§2.1-2.2): dilation of an edge = host distance between the images of
//! its ends; load factor = most guest nodes on one host node; expansion = host
//! nodes / guest nodes; for a cube guest, D_i(n) = dilation of the dimension-i
//! edge at n, *constant distances* when every D_i(n) = D_i, and then the
//! average distance D_a = (sum_i D_i) / d.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::closed_form::{self, JournalMetrics};
use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::model::{self, CcTime};
use crate::progress::{self, Progress};
use crate::routing::{HostRoute, Route, TieRule};
use crate::spec::Spec;
use crate::topology::{EdgeBuffer, Topology};
mod load;
mod separable;

pub use load::HostLoad;

use crate::traffic::fat::{self, FatCongestion, FatPaths};
use crate::traffic::{self, AxisLoad, Congestion, LoadStats};

/// Guest nodes whose edges are mapped and measured per virtual call.
pub(crate) const NODES_PER_BATCH: u64 = 1 << 10;
/// Guest nodes checked per virtual call.
const BATCH: usize = 1 << 12;
/// Dilations below this are counted in an array, larger ones in a hash map.
const DENSE_SPECTRUM: u64 = 1 << 16;

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
}

/// Running min / max / sum of the dilations of one edge class.
#[derive(Debug, Clone, Copy)]
struct ClassStat {
    min: u64,
    max: u64,
    sum: u128,
    count: u64,
}

impl ClassStat {
    /// `copies` edges of dilation `d`.
    fn add_many(&mut self, d: u64, copies: u64) {
        if copies > 0 {
            self.min = self.min.min(d);
            self.max = self.max.max(d);
            self.sum += u128::from(d) * u128::from(copies);
            self.count += copies;
        }
    }
}

impl Default for ClassStat {
    fn default() -> Self {
        ClassStat {
            min: u64::MAX,
            max: 0,
            sum: 0,
            count: 0,
        }
    }
}

/// One task's partial results.
struct Accumulator {
    classes: Vec<ClassStat>,
    /// Σ volume × dilation.
    hop_bytes: u128,
    dense: Vec<u64>,
    sparse: FxHashMap<u64, u64>,
    /// A guest node whose image is outside the host, or where the inverse
    /// does not lead back (the map is then not known to be one-to-one).
    off_host: Option<(u64, u64)>,
    not_injective: bool,
    /// A guest edge whose ends have no host path between them.
    unreachable: Option<(u64, u64)>,
}

impl Accumulator {
    fn new(classes: u32, dense: u64) -> Accumulator {
        Accumulator {
            classes: vec![ClassStat::default(); classes.max(1) as usize],
            hop_bytes: 0,
            dense: vec![0; dense as usize],
            sparse: FxHashMap::default(),
            off_host: None,
            not_injective: false,
            unreachable: None,
        }
    }

    fn merge(mut self, other: Accumulator) -> Accumulator {
        for (a, b) in self.classes.iter_mut().zip(&other.classes) {
            a.min = a.min.min(b.min);
            a.max = a.max.max(b.max);
            a.sum += b.sum;
            a.count += b.count;
        }
        self.hop_bytes += other.hop_bytes;
        for (a, b) in self.dense.iter_mut().zip(&other.dense) {
            *a += b;
        }
        for (d, c) in other.sparse {
            *self.sparse.entry(d).or_default() += c;
        }
        self.off_host = self.off_host.or(other.off_host);
        self.not_injective |= other.not_injective;
        self.unreachable = self.unreachable.or(other.unreachable);
        self
    }
}

/// Guest edges of a run of nodes, with their images and dilations.
#[derive(Default)]
struct EdgeBatch {
    edges: EdgeBuffer,
    hu: Vec<u64>,
    hv: Vec<u64>,
    dil: Vec<u64>,
}

impl EdgeBatch {
    /// Maps and measures the edges owned by `nodes`; returns how many there were.
    fn measure(
        &mut self,
        nodes: Range<u64>,
        guest: &dyn Topology,
        emb: &dyn Embedding,
        host: &dyn Topology,
        acc: &mut Accumulator,
    ) -> u64 {
        self.edges.clear();
        guest.push_edges(nodes, &mut self.edges);
        let n = self.edges.len();
        for buf in [&mut self.hu, &mut self.hv, &mut self.dil] {
            buf.resize(n, 0);
        }
        emb.map_many(&self.edges.u, &mut self.hu);
        emb.map_many(&self.edges.v, &mut self.hv);
        host.distances(&self.hu, &self.hv, &mut self.dil);
        if !self.edges.volume.is_empty() {
            for (&d, &w) in self.dil.iter().zip(&self.edges.volume) {
                if d != u64::MAX {
                    acc.hop_bytes += u128::from(d) * u128::from(w);
                }
            }
        }
        for (&d, &class) in self.dil.iter().zip(&self.edges.class) {
            if d == u64::MAX {
                continue;
            }
            let s = &mut acc.classes[class as usize];
            s.min = s.min.min(d);
            s.max = s.max.max(d);
            s.sum += u128::from(d);
            s.count += 1;
            match acc.dense.get_mut(d as usize) {
                Some(c) => *c += 1,
                None => *acc.sparse.entry(d).or_default() += 1,
            }
        }
        if let Some(k) = self.dil.iter().position(|&d| d == u64::MAX) {
            acc.unreachable
                .get_or_insert((self.edges.u[k], self.edges.v[k]));
        }
        n as u64
    }
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
            set_traffic(&mut metrics, t);
        }
        return finish(metrics, guest, host, embedding, options, false);
    }
    let dense = host.node_count().min(DENSE_SPECTRUM);
    let classes = guest.edge_classes();
    let acc = chunks(nodes)
        .into_par_iter()
        .map(|range| {
            let mut acc = Accumulator::new(classes, dense);
            check_nodes(range.clone(), embedding, host, &mut acc);
            let mut batch = EdgeBatch::default();
            let mut start = range.start;
            while start < range.end {
                let end = range.end.min(start + NODES_PER_BATCH);
                let edges = batch.measure(start..end, guest, embedding, host, &mut acc);
                progress::advance(options.progress, edges);
                start = end;
            }
            acc
        })
        .reduce_with(Accumulator::merge)
        .unwrap_or_else(|| Accumulator::new(classes, dense));

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
        Some(count_load(nodes, host.node_count(), embedding)?)
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
        metrics.level_load = level_load(leaves, host.node_count(), embedding);
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
    metrics.notes.extend(embedding.notes());
    if route {
        add_traffic(&mut metrics, guest, host, embedding, options)?;
    }
    if let (Some(which), Spec::Cube(n)) = (options.fat_edges, host.spec()) {
        metrics.fat_congestion = Some(fat::measure(guest, *n, embedding, which, options.progress)?);
    }
    Ok(metrics)
}

/// Routes the guest edges (unless routing is off) and records congestion,
/// link and node loads and the slowdown factors; sizes beyond the counters'
/// limits leave a note instead.
fn add_traffic(
    metrics: &mut Metrics,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    options: &Options,
) -> Result<()> {
    if matches!(options.routing, Routing::Model(_)) && matches!(host.spec(), Spec::Tleaf(..)) {
        metrics.notes.push(
            "congestion and node loads not computed: a tleaf hierarchy gives costs between \
             cores, not the links between them; hop-bytes is its measure"
                .into(),
        );
        return Ok(());
    }
    let model;
    let route: &dyn Route = match options.routing {
        Routing::Off => return Ok(()),
        Routing::Model(ties) => {
            model = HostRoute::new(host, ties);
            &model
        }
        Routing::Custom(route) => route,
    };
    match traffic::measure(guest, host, embedding, route, options.progress) {
        Ok(t) => {
            set_traffic(metrics, t);
            Ok(())
        }
        Err(e @ Error::Parameter(_)) => {
            metrics
                .notes
                .push(format!("congestion and node loads not computed: {e}"));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Records what routing found, and the slowdown factors.
fn set_traffic(metrics: &mut Metrics, t: traffic::Traffic) {
    metrics.slowdown = Some(Slowdown {
        computation: metrics.load_factor,
        communication: t.congestion.max * metrics.dilation.max,
    });
    metrics.routing = Some(t.routing);
    metrics.congestion = Some(t.congestion);
    metrics.link_load = t.link_load;
    metrics.node_load = Some(t.node_load);
    metrics.node_traffic = Some(t.node_traffic);
}

/// D_0(n), .., D_{d-1}(n): the dilation of each dimension's edge at cube node n
/// (a row of the xor paper's figure 4a).
pub fn cube_dilations(
    dim: u32,
    embedding: &dyn Embedding,
    host: &dyn Topology,
    n: u64,
) -> Vec<u64> {
    let here = embedding.map(n);
    (0..dim)
        .map(|i| host.distance(here, embedding.map(n ^ (1 << i))))
        .collect()
}

/// Splits `0..nodes` into enough chunks to balance the threads and report progress.
pub(crate) fn chunks(nodes: u64) -> Vec<Range<u64>> {
    let target = (rayon::current_num_threads() as u64 * 64).max(1);
    let size = nodes.div_ceil(target).max(1 << 10);
    (0..nodes.div_ceil(size))
        .map(|c| c * size..((c + 1) * size).min(nodes))
        .collect()
}

/// Checks that every guest node of `range` lands inside the host and that the
/// embedding's inverse leads back to it. Together, over all nodes, that proves
/// the map one-to-one without a table of host nodes.
fn check_nodes(range: Range<u64>, emb: &dyn Embedding, host: &dyn Topology, acc: &mut Accumulator) {
    let mut guest = Vec::with_capacity(BATCH);
    let mut image = vec![0; BATCH];
    let mut start = range.start;
    while start < range.end {
        let end = (start + BATCH as u64).min(range.end);
        guest.clear();
        guest.extend(start..end);
        let image = &mut image[..guest.len()];
        emb.map_many(&guest, image);
        for (&g, &h) in guest.iter().zip(image.iter()) {
            if h >= host.node_count() {
                acc.off_host.get_or_insert((g, h));
            } else if emb.inverse(h) != Some(g) {
                acc.not_injective = true;
            }
        }
        start = end;
    }
}

/// Guest nodes per host node, counted (maps not known to be one-to-one).
fn count_load(guest_nodes: u64, host_nodes: u64, emb: &dyn Embedding) -> Result<ElementCounts> {
    if host_nodes > u64::from(u32::MAX) {
        return Err(Error::Parameter(format!(
            "the load factor of a many-to-one map onto {host_nodes} host nodes needs a counter \
             per host node; at most {} are supported",
            u32::MAX
        )));
    }
    let load: Vec<AtomicU32> = (0..host_nodes).map(|_| AtomicU32::new(0)).collect();
    (0..guest_nodes).into_par_iter().for_each(|g| {
        load[emb.map(g) as usize].fetch_add(1, Ordering::Relaxed);
    });
    let (min, max, unused) = load
        .par_iter()
        .map(|c| u64::from(c.load(Ordering::Relaxed)))
        .fold(
            || (u64::MAX, 0, 0),
            |(lo, hi, idle), x| (lo.min(x), hi.max(x), idle + u64::from(x == 0)),
        )
        .reduce(
            || (u64::MAX, 0, 0),
            |a, b| (a.0.min(b.0), a.1.max(b.1), a.2 + b.2),
        );
    Ok(ElementCounts {
        min: if host_nodes == 0 { 0 } else { min },
        max,
        unused,
    })
}

/// Most nodes of each level of `bintree:leaves` on one host node; `None`
/// when a host counter per node would not fit in memory (over 2^32 nodes).
fn level_load(leaves: u64, host_nodes: u64, emb: &dyn Embedding) -> Option<Vec<u64>> {
    if host_nodes > 1 << 32 {
        return None;
    }
    let mut count = vec![0u32; host_nodes as usize];
    let levels = leaves.trailing_zeros() + 1;
    let loads = (0..levels)
        .map(|level| {
            let nodes = (1u64 << level) - 1..(2u64 << level) - 1;
            let mut most = 0;
            for v in nodes.clone() {
                let c = &mut count[emb.map(v) as usize];
                *c += 1;
                most = most.max(*c);
            }
            for v in nodes {
                count[emb.map(v) as usize] = 0;
            }
            u64::from(most)
        })
        .collect();
    Some(loads)
}

/// Guest nodes per host node of a many-to-one map.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct ElementCounts {
    /// Fewest guest nodes on one host node (0 when some are unused).
    pub min: u64,
    /// Most guest nodes on one host node: the load factor.
    pub max: u64,
    /// Host nodes with no guest node.
    pub unused: u64,
}

fn summarise(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    acc: Accumulator,
    load_factor: u64,
    options: &Options,
) -> Metrics {
    let edges = guest.edge_count();
    let mut spectrum: BTreeMap<u64, u64> = acc.sparse.into_iter().collect();
    for (d, &c) in acc.dense.iter().enumerate() {
        if c > 0 {
            spectrum.insert(d as u64, c);
        }
    }
    let total: u128 = acc.classes.iter().map(|s| s.sum).sum();
    let dilation = Dilation {
        max: acc.classes.iter().map(|s| s.max).max().unwrap_or(0),
        average: if edges == 0 {
            0.0
        } else {
            total as f64 / edges as f64
        },
        total,
        spectrum,
    };
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
    };
    if let Spec::Cube(dim) = *guest.spec() {
        cube_guest_metrics(&mut metrics, dim, &acc.classes, embedding, host, options);
    }
    metrics
}

/// Per-dimension distances, constant-distance flag, D_a and CC time of a cube guest.
fn cube_guest_metrics(
    metrics: &mut Metrics,
    dim: u32,
    classes: &[ClassStat],
    embedding: &dyn Embedding,
    host: &dyn Topology,
    options: &Options,
) {
    metrics.per_dimension = Some(
        classes
            .iter()
            .enumerate()
            .map(|(i, s)| DimensionDilation {
                dimension: i as u32,
                min: s.min,
                max: s.max,
                average: s.sum as f64 / s.count as f64,
            })
            .collect(),
    );
    let constant = metrics.load_factor == 1 && classes.iter().all(|s| s.min == s.max);
    metrics.constant_distance = Some(constant);
    if constant {
        let distances: Vec<u64> = classes.iter().map(|s| s.max).collect();
        metrics.average_distance = Some(distances.iter().sum::<u64>() as f64 / f64::from(dim));
        metrics.cc_time = Some(CcTime::constant(options.ta, options.tc, &distances));
        metrics.distances = Some(distances);
        return;
    }
    match model::cc_recurrence(dim, embedding, host, options.progress) {
        Ok(r) => {
            metrics.cc_time = Some(CcTime::from_recurrence(
                options.ta, options.tc, dim, &r, None,
            ));
        }
        Err(e) => metrics.notes.push(format!("cc_time not computed: {e}")),
    }
}
