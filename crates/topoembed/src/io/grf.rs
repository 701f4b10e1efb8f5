//! Scotch source graphs (`.grf`): read into a stored [`Graph`], written from
//! any topology.
//!
//! Format (Scotch user's manual, "Source graph files"): a version number
//! (0); the vertex count and the *arc* count (twice the edges); the base
//! (0 or 1) and a three-digit flag "LWV" (L: vertex labels, W: edge
//! weights, V: vertex loads); then per vertex: [label] [load] degree and
//! that many ([weight] end) entries. Ends are vertex labels when the graph
//! has labels, vertex numbers + base otherwise. Tokens may be split over
//! lines in any way.

use std::io::Write;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::tokens::{read_text, Tokens};
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{Graph, Topology};

/// Most vertices a stored graph holds (ids are `u32`).
const MAX_VERTICES: u64 = u32::MAX as u64 - 1;

/// A Scotch graph as read: the graph (vertex i is the i-th in the file) and
/// what the file said about its vertices.
#[derive(Debug, Clone)]
pub struct ScotchGraph {
    /// The graph, nodes numbered 0.. in file order.
    pub graph: Graph,
    /// Base of the file's numbering (0 or 1).
    pub base: u64,
    /// Label of each vertex: its label when the file has labels, else its
    /// number + base. Mapping files name vertices by these.
    pub labels: Vec<u64>,
    /// The file carries edge weights (topoembed counts every edge once).
    pub edge_weights: bool,
    /// The file carries vertex loads (ignored likewise).
    pub vertex_loads: bool,
}

/// Reads a Scotch source graph, rejecting what Scotch would misread:
/// wrong counts, ends that name no vertex, self-loops, repeated edges,
/// one-sided edges, repeated labels, and anything after the last vertex.
pub fn read_graph(path: &Path) -> Result<ScotchGraph> {
    parse_graph(path, &read_text(path)?)
}

/// [`read_graph`] on text already read; `path` names it in errors.
pub fn parse_graph(path: &Path, text: &str) -> Result<ScotchGraph> {
    let mut t = Tokens::new(path, text);
    let version = t.number("the version number (0)", u64::MAX)?;
    if version != 0 {
        return Err(t.error(&format!(
            "version {version}: only version 0 source graphs are read"
        )));
    }
    let n = t.number("the vertex count", MAX_VERTICES)?;
    let arcs = t.number("the arc count (twice the edge count)", u64::MAX)?;
    if arcs % 2 == 1 {
        return Err(t.error(&format!(
            "the arc count {arcs} is odd; it counts each edge twice, once from each end"
        )));
    }
    if arcs > n.saturating_mul(n.saturating_sub(1)) {
        return Err(t.error(&format!(
            "{arcs} arcs cannot join {n} vertices without repeats"
        )));
    }
    let base = t.number("the base (0 or 1)", 1)?;
    let flags = t.expect("the flags (three digits 0/1: labels, edge weights, vertex loads)")?;
    let [labeled, weighted, loaded] = parse_flags(flags).ok_or_else(|| {
        t.error(&format!(
            "flags '{flags}': expected three digits 0/1 (labels, edge weights, vertex loads), like 000"
        ))
    })?;

    // Reserve no more than the text can hold (each vertex and arc takes at
    // least two bytes): a header may promise billions of vertices that the
    // file does not have (found by fuzzing).
    let room = text.len() as u64 / 2;
    let mut labels = Vec::with_capacity(n.min(room) as usize);
    let mut degrees = Vec::with_capacity(n.min(room) as usize);
    let mut ends: Vec<(u64, usize)> = Vec::with_capacity(arcs.min(room) as usize);
    for v in 0..n {
        let label = if labeled {
            t.number(&format!("the label of vertex {}", v + base), u64::MAX)?
        } else {
            v + base
        };
        labels.push(label);
        if loaded {
            t.number(&format!("the load of vertex {label}"), u64::MAX)?;
        }
        let degree = t.number(
            &format!("the degree of vertex {label}"),
            n.saturating_sub(1),
        )?;
        degrees.push(degree);
        for k in 0..degree {
            if weighted {
                t.number(
                    &format!("the weight of edge {} of vertex {label}", k + 1),
                    u64::MAX,
                )?;
            }
            let end = t.number(&format!("neighbour {} of vertex {label}", k + 1), u64::MAX)?;
            if ends.len() as u64 == arcs {
                return Err(t.error(&format!(
                    "vertex {label} has more neighbours than the {arcs} arcs the header announces"
                )));
            }
            ends.push((end, t.token_line()));
        }
    }
    t.finish(&format!("the {n} vertices the header announces"))?;
    if ends.len() as u64 != arcs {
        return Err(Error::File(format!(
            "{}: the header announces {arcs} arcs but the vertices list {}",
            path.display(),
            ends.len()
        )));
    }
    let index = vertex_index(path, &labels, labeled, base)?;
    let mut arcs_list: Vec<(u32, u32)> = Vec::with_capacity(ends.len());
    let mut next = ends.iter();
    for (v, &degree) in degrees.iter().enumerate() {
        for _ in 0..degree {
            let &(end, line) = next.next().expect("counted above");
            let at = |m: String| Error::File(format!("{}:{line}: {m}", path.display()));
            let w = index(end).ok_or_else(|| {
                at(format!(
                    "vertex {} lists neighbour {end}, which is not a vertex{}",
                    labels[v],
                    if labeled {
                        " label"
                    } else {
                        " number (vertices are numbered from the base)"
                    }
                ))
            })?;
            if w as usize == v {
                return Err(at(format!(
                    "vertex {} lists itself (a self-loop)",
                    labels[v]
                )));
            }
            arcs_list.push((v as u32, w));
        }
    }
    drop(index);
    check_symmetric(path, &mut arcs_list, &labels)?;
    let edges: Vec<(u64, u64)> = arcs_list
        .iter()
        .filter(|(u, v)| u < v)
        .map(|&(u, v)| (u64::from(u), u64::from(v)))
        .collect();
    let graph = Graph::from_edges(Spec::Graph(path.to_path_buf()), n, &edges)?;
    Ok(ScotchGraph {
        graph,
        base,
        labels,
        edge_weights: weighted,
        vertex_loads: loaded,
    })
}

impl ScotchGraph {
    /// The file the graph came from, for messages.
    pub fn graph_path(&self) -> String {
        match self.graph.spec() {
            Spec::Graph(p) => p.display().to_string(),
            other => other.to_string(),
        }
    }
}

fn parse_flags(flags: &str) -> Option<[bool; 3]> {
    let b = flags.as_bytes();
    if b.len() != 3 || !b.iter().all(|c| matches!(c, b'0' | b'1')) {
        return None;
    }
    Some([b[0] == b'1', b[1] == b'1', b[2] == b'1'])
}

/// Lookup from a file's vertex reference (label, or number + base) to the
/// vertex's position; fails on a repeated label.
fn vertex_index<'a>(
    path: &Path,
    labels: &'a [u64],
    labeled: bool,
    base: u64,
) -> Result<Box<dyn Fn(u64) -> Option<u32> + 'a>> {
    let n = labels.len() as u64;
    if !labeled {
        return Ok(Box::new(move |x| {
            (x >= base && x - base < n).then(|| (x - base) as u32)
        }));
    }
    let mut by_label = FxHashMap::default();
    for (v, &label) in labels.iter().enumerate() {
        if let Some(first) = by_label.insert(label, v as u32) {
            return Err(Error::File(format!(
                "{}: vertices {} and {} (in file order, from 1) have the same label {label}",
                path.display(),
                first + 1,
                v + 1
            )));
        }
    }
    Ok(Box::new(move |x| by_label.get(&x).copied()))
}

/// Every edge must be listed from both ends, and once only.
fn check_symmetric(path: &Path, arcs: &mut [(u32, u32)], labels: &[u64]) -> Result<()> {
    arcs.sort_unstable();
    if let Some(w) = arcs.windows(2).find(|w| w[0] == w[1]) {
        let (u, v) = w[0];
        return Err(Error::File(format!(
            "{}: vertex {} lists neighbour {} twice",
            path.display(),
            labels[u as usize],
            labels[v as usize]
        )));
    }
    for &(u, v) in arcs.iter() {
        if arcs.binary_search(&(v, u)).is_err() {
            return Err(Error::File(format!(
                "{}: vertex {} lists neighbour {} but {} does not list {}; \
                 a source graph lists every edge from both ends",
                path.display(),
                labels[u as usize],
                labels[v as usize],
                labels[v as usize],
                labels[u as usize]
            )));
        }
    }
    Ok(())
}

/// Writes `topology` as an unlabelled, unweighted Scotch source graph with
/// numbering base `base` (0 or 1); node i of the topology is vertex i + base.
pub fn write_graph(topology: &dyn Topology, base: u64, out: &mut dyn Write) -> Result<()> {
    if base > 1 {
        return Err(Error::Parameter(format!(
            "base {base}: Scotch graphs are numbered from 0 or 1"
        )));
    }
    let n = topology.node_count();
    if n > MAX_VERTICES {
        return Err(Error::Parameter(format!(
            "{} has {n} nodes; a stored graph holds at most {MAX_VERTICES}",
            topology.spec()
        )));
    }
    let io = |e: std::io::Error| Error::File(format!("cannot write the graph: {e}"));
    writeln!(out, "0\n{n}\t{}\n{base}\t000", 2 * topology.edge_count()).map_err(io)?;
    let mut line = String::new();
    for v in 0..n {
        let neighbors = topology.neighbors(v);
        line.clear();
        line.push_str(&neighbors.len().to_string());
        for w in neighbors {
            line.push('\t');
            line.push_str(&(w + base).to_string());
        }
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}
