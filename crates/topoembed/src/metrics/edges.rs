//! The streamed edge pass: every guest edge mapped and measured once, in
//! parallel over chunks of the guest's nodes, in batches of
//! [`NODES_PER_BATCH`] (one virtual call per batch, not per edge), each task
//! keeping its own [`Accumulator`]; the accumulators merge at the end. It
//! gives the dilations (per edge class, the spectrum), hop-bytes, and the
//! check that the map stays on the host and is one-to-one.

use std::collections::BTreeMap;
use std::ops::Range;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::Dilation;
use crate::embed::Embedding;
use crate::progress::{self, Progress};
use crate::stream::{chunks, NODES_PER_BATCH};
use crate::topology::{EdgeBuffer, Topology};

/// Guest nodes checked per virtual call.
const BATCH: usize = 1 << 12;
/// Dilations below this are counted in an array, larger ones in a hash map.
const DENSE_SPECTRUM: u64 = 1 << 16;

/// Runs the pass over every guest edge.
pub(super) fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    progress: Option<&Progress>,
) -> Accumulator {
    let dense = host.node_count().min(DENSE_SPECTRUM);
    let classes = guest.edge_classes();
    chunks(guest.node_count())
        .into_par_iter()
        .map(|range| {
            let mut acc = Accumulator::new(classes, dense);
            check_nodes(range.clone(), embedding, host, &mut acc);
            let mut batch = EdgeBatch::default();
            let mut start = range.start;
            while start < range.end {
                let end = range.end.min(start + NODES_PER_BATCH);
                let edges = batch.measure(start..end, guest, embedding, host, &mut acc);
                progress::advance(progress, edges);
                start = end;
            }
            acc
        })
        .reduce_with(Accumulator::merge)
        .unwrap_or_else(|| Accumulator::new(classes, dense))
}

/// Running min / max / sum of the dilations of one edge class.
#[derive(Debug, Clone, Copy)]
pub(super) struct ClassStat {
    pub(super) min: u64,
    pub(super) max: u64,
    pub(super) sum: u128,
    pub(super) count: u64,
}

impl ClassStat {
    /// `copies` edges of dilation `d`.
    pub(super) fn add_many(&mut self, d: u64, copies: u64) {
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
pub(super) struct Accumulator {
    pub(super) classes: Vec<ClassStat>,
    /// Σ volume × dilation.
    pub(super) hop_bytes: u128,
    dense: Vec<u64>,
    pub(super) sparse: FxHashMap<u64, u64>,
    /// A guest node whose image is outside the host, or where the inverse
    /// does not lead back (the map is then not known to be one-to-one).
    pub(super) off_host: Option<(u64, u64)>,
    pub(super) not_injective: bool,
    /// A guest edge whose ends have no host path between them.
    pub(super) unreachable: Option<(u64, u64)>,
}

impl Accumulator {
    pub(super) fn new(classes: u32, dense: u64) -> Accumulator {
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

    /// The dilation summary over `edges` guest edges.
    pub(super) fn dilation(&self, edges: u64) -> Dilation {
        let mut spectrum: BTreeMap<u64, u64> = self.sparse.iter().map(|(&d, &c)| (d, c)).collect();
        for (d, &c) in self.dense.iter().enumerate() {
            if c > 0 {
                spectrum.insert(d as u64, c);
            }
        }
        let total: u128 = self.classes.iter().map(|s| s.sum).sum();
        Dilation {
            max: self.classes.iter().map(|s| s.max).max().unwrap_or(0),
            average: if edges == 0 {
                0.0
            } else {
                total as f64 / edges as f64
            },
            total,
            spectrum,
        }
    }

    pub(super) fn merge(mut self, other: Accumulator) -> Accumulator {
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
