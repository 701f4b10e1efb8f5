//! Scotch mappings (`.map`): a count, then one `label target` pair per
//! vertex. Labels are the graph's vertex labels (vertex number + base when
//! the graph has none); targets are terminal numbers, which for the targets
//! topoembed reads are host node ids (see the module doc of [`super`]).

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::grf::ScotchGraph;
use super::tokens::{read_text, Tokens};
use crate::embed::Embedding;
use crate::error::{Error, Result};

/// A mapping read from a file: guest vertex (position in the graph) -> host node.
#[derive(Debug, Clone)]
pub struct Mapping {
    hosts: Vec<u64>,
}

impl Mapping {
    /// A mapping from a table: `hosts[v]` is guest vertex v's host node.
    pub fn new(hosts: Vec<u64>) -> Mapping {
        Mapping { hosts }
    }
    /// Host node of every guest vertex.
    pub fn hosts(&self) -> &[u64] {
        &self.hosts
    }
}

impl Embedding for Mapping {
    fn method(&self) -> &'static str {
        "mapping"
    }
    fn map(&self, guest: u64) -> u64 {
        self.hosts[guest as usize]
    }
    fn inverse(&self, _host: u64) -> Option<u64> {
        // Unknown without a table of host nodes: metrics count the load instead.
        None
    }
}

/// Reads a mapping of `graph`'s vertices onto `host_nodes` host nodes.
/// Every vertex must appear exactly once, under a label the graph has, with
/// a target below `host_nodes`.
pub fn read_mapping(path: &Path, graph: &ScotchGraph, host_nodes: u64) -> Result<Mapping> {
    parse_mapping(path, &read_text(path)?, graph, host_nodes)
}

/// [`read_mapping`] on text already read; `path` names it in errors.
pub fn parse_mapping(
    path: &Path,
    text: &str,
    graph: &ScotchGraph,
    host_nodes: u64,
) -> Result<Mapping> {
    let mut t = Tokens::new(path, text);
    let n = graph.labels.len() as u64;
    let count = t.number("the number of mapped vertices", u64::MAX)?;
    if count != n {
        return Err(t.error(&format!(
            "the mapping lists {count} vertices but the graph has {n}; every vertex needs a target"
        )));
    }
    let by_label: FxHashMap<u64, u32> = graph
        .labels
        .iter()
        .enumerate()
        .map(|(v, &l)| (l, v as u32))
        .collect();
    let mut hosts = vec![u64::MAX; n as usize];
    for k in 0..count {
        let label = t.number_with(|| format!("the label of mapping entry {}", k + 1), u64::MAX)?;
        let target = t.number_with(|| format!("the target of vertex {label}"), u64::MAX)?;
        let Some(&v) = by_label.get(&label) else {
            return Err(t.error(&format!(
                "vertex {label} is not in {} (its vertices are {}; labels start at the base {})",
                graph.graph_path(),
                label_range(&graph.labels),
                graph.base
            )));
        };
        if target >= host_nodes {
            return Err(t.error(&format!(
                "vertex {label} goes to target {target}, but the host has nodes 0..{}",
                host_nodes.saturating_sub(1)
            )));
        }
        if hosts[v as usize] != u64::MAX {
            return Err(t.error(&format!("vertex {label} is mapped twice")));
        }
        hosts[v as usize] = target;
    }
    t.finish(&format!("the {count} mapping entries"))?;
    Ok(Mapping { hosts })
}

fn label_range(labels: &[u64]) -> String {
    match (labels.iter().min(), labels.iter().max()) {
        (Some(a), Some(b)) => format!("labelled {a}..{b}"),
        _ => "none".into(),
    }
}

/// Writes a mapping: vertex `labels[v]` goes to `hosts[v]`.
pub fn write_mapping(labels: &[u64], hosts: &[u64], out: &mut dyn Write) -> Result<()> {
    if labels.len() != hosts.len() {
        return Err(Error::Internal(format!(
            "{} labels for {} mapped vertices",
            labels.len(),
            hosts.len()
        )));
    }
    let io = |e: std::io::Error| Error::File(format!("cannot write the mapping: {e}"));
    writeln!(out, "{}", labels.len()).map_err(io)?;
    // Lines formatted chunk by chunk on the thread pool, then written in
    // order: one line at a time through `writeln!` was 0.1–0.15 s of one
    // thread alone at the end of the 10^6-vertex stencil's map.
    let chunks: Vec<Vec<u8>> = labels
        .par_chunks(WRITE_CHUNK)
        .zip(hosts.par_chunks(WRITE_CHUNK))
        .map(|(labels, hosts)| {
            let mut text = Vec::with_capacity(labels.len() * 16);
            let mut number = itoa::Buffer::new();
            for (&l, &h) in labels.iter().zip(hosts) {
                text.extend_from_slice(number.format(l).as_bytes());
                text.push(b'\t');
                text.extend_from_slice(number.format(h).as_bytes());
                text.push(b'\n');
            }
            text
        })
        .collect();
    for text in chunks {
        out.write_all(&text).map_err(io)?;
    }
    Ok(())
}

/// Lines of a mapping formatted together ([`write_mapping`]).
const WRITE_CHUNK: usize = 1 << 14;
