//! Rank 0's side of a recording: every process's counters merged
//! ([`Recording::gather`]) and written at `MPI_Finalize`
//! ([`Recording::write`]): the guest graph in the format FILE's extension
//! names, as `graph:FILE` reads it, and a JSON summary at `FILE.json`.
//!
//! The graph has one node per world rank and an edge {u, v} wherever u sent
//! v or v sent u a point-to-point message (neighbourhood collectives
//! included, other collectives not); its volume is the bytes u sent v plus
//! the bytes v sent u, at least 1 (a pair that exchanged only empty
//! messages still talked) — as `graph:` reads Open MPI's monitoring files.
//! Both files are written beside their final names and renamed into place,
//! the graph last: a run that dies on the way leaves no half-written
//! recording.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use topoembed::spec::Spec;
use topoembed::topology::{Graph, Topology};
use topoembed::{Error, Result};

use super::traffic::{class_range, CommunicatorKey, Traffic, COLLECTIVES, SIZE_CLASSES};
use super::wire::Export;

/// A whole run's traffic.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// World size.
    pub ranks: u32,
    /// Point-to-point traffic from u to v, by (u, v).
    pub sent: BTreeMap<(u32, u32), Traffic>,
    /// Messages by size class.
    pub sizes: Vec<u64>,
    /// The part of `sent` neighbourhood collectives sent.
    pub neighbourhood: Traffic,
    /// Traffic no world rank could be named for.
    pub unattributed: Traffic,
    /// By communicator and operation: calls (the most any member made) and
    /// bytes (all members' contributions).
    pub collectives: BTreeMap<CommunicatorKey, BTreeMap<u32, Traffic>>,
}

/// The graph formats a recording is written in, by FILE's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphFormat {
    /// `.graph`: METIS.
    Metis,
    /// `.grf` or `.src`: Scotch.
    Scotch,
    /// `.mtx`: Matrix Market.
    MatrixMarket,
    /// Anything else: an edge list `u v bytes` with a `# nodes N` line.
    EdgeList,
}

impl GraphFormat {
    /// The format `path`'s extension names.
    pub fn of(path: &Path) -> GraphFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("graph") => GraphFormat::Metis,
            Some("grf" | "src") => GraphFormat::Scotch,
            Some("mtx") => GraphFormat::MatrixMarket,
            _ => GraphFormat::EdgeList,
        }
    }

    fn name(self) -> &'static str {
        match self {
            GraphFormat::Metis => "METIS",
            GraphFormat::Scotch => "Scotch",
            GraphFormat::MatrixMarket => "Matrix Market",
            GraphFormat::EdgeList => "edge list",
        }
    }
}

impl Recording {
    /// Merges the counters of ranks 0..exports.len() (rank r's at index r).
    pub fn gather(exports: &[Export]) -> std::result::Result<Recording, String> {
        let ranks = u32::try_from(exports.len()).map_err(|_| "too many ranks".to_string())?;
        let mut r = Recording {
            ranks,
            sizes: vec![0; SIZE_CLASSES],
            ..Recording::default()
        };
        for (from, e) in exports.iter().enumerate() {
            for &(to, t) in &e.pairs {
                if to >= ranks {
                    return Err(format!(
                        "rank {from} counted traffic to world rank {to} of {ranks}"
                    ));
                }
                r.sent.entry((from as u32, to)).or_default().merge(t);
            }
            for (total, &s) in r.sizes.iter_mut().zip(&e.sizes) {
                *total = total.saturating_add(s);
            }
            r.neighbourhood.merge(e.neighbourhood);
            r.unattributed.merge(e.unattributed);
            for c in &e.collectives {
                let t = r
                    .collectives
                    .entry(c.communicator.clone())
                    .or_default()
                    .entry(c.operation)
                    .or_default();
                t.messages = t.messages.max(c.calls);
                t.bytes = t.bytes.saturating_add(c.bytes);
            }
        }
        Ok(r)
    }

    /// Every pair's volume: (u, v) with u < v, the bytes u sent v plus
    /// those v sent u, at least 1. Messages a rank sent itself are left
    /// out (they cross no link).
    pub fn volumes(&self) -> BTreeMap<(u32, u32), u64> {
        let mut volumes: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        for (&(u, v), t) in &self.sent {
            if u != v {
                let w = volumes.entry((u.min(v), u.max(v))).or_default();
                *w = w.saturating_add(t.bytes);
            }
        }
        for w in volumes.values_mut() {
            *w = (*w).max(1);
        }
        volumes
    }

    /// Every pair's messages: (u, v) with u < v, the messages u sent v
    /// plus those v sent u (the summary's `pair_messages`: what a message's
    /// latency costs, beside the bytes the graph holds).
    pub fn pair_messages(&self) -> BTreeMap<(u32, u32), u64> {
        let mut messages: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        for (&(u, v), t) in &self.sent {
            if u != v {
                let m = messages.entry((u.min(v), u.max(v))).or_default();
                *m = m.saturating_add(t.messages);
            }
        }
        messages
    }

    /// The guest graph (`path` names it).
    pub fn graph(&self, path: &Path) -> Result<Graph> {
        let volumes = self.volumes();
        let edges: Vec<(u64, u64)> = volumes
            .keys()
            .map(|&(u, v)| (u64::from(u), u64::from(v)))
            .collect();
        let weights: Vec<u64> = volumes.values().copied().collect();
        Graph::from_weighted_edges(
            Spec::Graph(path.to_path_buf()),
            u64::from(self.ranks.max(1)),
            &edges,
            Some(&weights),
        )
    }

    /// Point-to-point totals: (all, to self).
    fn totals(&self) -> (Traffic, Traffic) {
        let (mut all, mut own) = (Traffic::default(), Traffic::default());
        for (&(u, v), &t) in &self.sent {
            all.merge(t);
            if u == v {
                own.merge(t);
            }
        }
        (all, own)
    }

    /// The JSON summary of a recording written to `file`.
    pub fn summary(&self, file: &Path) -> Value {
        let (all, own) = self.totals();
        let traffic = |t: Traffic| json!({"bytes": t.bytes, "messages": t.messages});
        let sizes: Vec<Value> = (0..SIZE_CLASSES)
            .filter(|&k| self.sizes.get(k).is_some_and(|&n| n > 0))
            .map(|k| {
                let (from, to) = class_range(k);
                json!({"from_bytes": from, "to_bytes": to, "messages": self.sizes[k]})
            })
            .collect();
        let collectives: Vec<Value> = self
            .collectives
            .iter()
            .map(|(key, ops)| {
                let calls: u64 = ops.values().map(|t| t.messages).sum();
                let bytes: u64 = ops.values().map(|t| t.bytes).sum();
                json!({
                    "communicator": {
                        "name": key.name,
                        "size": key.size,
                        "first_world_rank": key.leader,
                    },
                    "calls": calls,
                    "bytes": bytes,
                    "operations": ops.iter().map(|(&op, t)| json!({
                        "operation": COLLECTIVES.get(op as usize).copied().unwrap_or("?"),
                        "calls": t.messages,
                        "bytes": t.bytes,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "recording": file.display().to_string(),
            "format": GraphFormat::of(file).name(),
            "ranks": self.ranks,
            "point_to_point": {
                "bytes": all.bytes,
                "messages": all.messages,
                "pairs": self.volumes().len(),
                "neighbourhood_collectives": traffic(self.neighbourhood),
                "to_self": traffic(own),
            },
            "unattributed": traffic(self.unattributed),
            "message_sizes": sizes,
            "collectives": collectives,
            "pair_messages": self
                .pair_messages()
                .into_iter()
                .map(|((u, v), m)| [u64::from(u), u64::from(v), m])
                .collect::<Vec<_>>(),
            "note": "bytes are count x MPI_Type_size as the sender passed them; a pair's volume \
                     in the graph is the bytes each sent the other; collectives other than the \
                     neighbourhood ones are counted here only (bytes: what each member's send \
                     buffers held; calls: the most any member made); pair_messages: [u, v, \
                     messages u sent v plus v sent u] for every pair of the graph",
        })
    }

    /// Writes the graph to `path` (format by extension) and the summary to
    /// `path.json`; returns the line rank 0 prints.
    pub fn write(&self, path: &Path) -> Result<String> {
        let graph = self.graph(path)?;
        let format = GraphFormat::of(path);
        let summary_path = summary_path(path);
        let mut summary = pretty(&self.summary(path))?;
        summary.push('\n');
        let json_tmp = write_aside(&summary_path, &mut |out| {
            out.write_all(summary.as_bytes())
                .map_err(|e| Error::File(e.to_string()))
        })?;
        let graph_tmp = match write_aside(path, &mut |out| Self::write_graph(&graph, format, out)) {
            Ok(t) => t,
            Err(e) => {
                let _ = std::fs::remove_file(&json_tmp);
                return Err(e);
            }
        };
        for (tmp, to) in [
            (&json_tmp, &summary_path),
            (&graph_tmp, &path.to_path_buf()),
        ] {
            std::fs::rename(tmp, to).map_err(|e| {
                let _ = std::fs::remove_file(&json_tmp);
                let _ = std::fs::remove_file(&graph_tmp);
                Error::File(format!("{}: cannot write: {e}", to.display()))
            })?;
        }
        let (all, _) = self.totals();
        Ok(format!(
            "topoembed-reorder: recorded {} ranks: {} point-to-point messages, {} bytes, {} pairs \
             -> {} ({}), summary {}",
            self.ranks,
            all.messages,
            all.bytes,
            graph.edge_count(),
            path.display(),
            format.name(),
            summary_path.display()
        ))
    }

    fn write_graph(graph: &Graph, format: GraphFormat, out: &mut dyn Write) -> Result<()> {
        match format {
            GraphFormat::Metis => topoembed::io::write_metis(graph, out),
            GraphFormat::Scotch => topoembed::io::write_graph(graph, 0, out),
            GraphFormat::MatrixMarket => topoembed::io::write_matrix_market(graph, out),
            GraphFormat::EdgeList => {
                let io = |e: std::io::Error| Error::File(e.to_string());
                writeln!(
                    out,
                    "# topoembed recording: u v bytes (u sent v plus v sent u) per pair of \
                     MPI_COMM_WORLD ranks\n# nodes {}",
                    graph.node_count()
                )
                .map_err(io)?;
                // The graph already holds every pair's volume, in (u, v)
                // order for u < v.
                for u in 0..graph.node_count() {
                    for (&v, w) in graph.adjacency(u).iter().zip(graph.adjacency_volumes(u)) {
                        if u64::from(v) > u {
                            writeln!(out, "{u} {v} {w}").map_err(io)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// Where the summary of a recording at `path` goes: `path.json`.
pub fn summary_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".json");
    PathBuf::from(s)
}

/// Writes `path`'s content to a temporary file beside it (removed on
/// error) and returns that file's path.
fn write_aside(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<PathBuf> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".part{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let cannot =
        |e: &dyn std::fmt::Display| Error::File(format!("{}: cannot write: {e}", path.display()));
    let file = std::fs::File::create(&tmp).map_err(|e| cannot(&e))?;
    let mut out = std::io::BufWriter::new(file);
    let done = write(&mut out).and_then(|()| {
        out.flush().map_err(|e| cannot(&e))?;
        out.get_ref().sync_all().map_err(|e| cannot(&e))
    });
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(cannot(&e));
    }
    Ok(tmp)
}

/// The summary as indented JSON, but with `pair_messages` one `[u, v,
/// messages]` a line (a pair takes a line, not five).
fn pretty(summary: &Value) -> Result<String> {
    const PLACE: &str = "\u{1}pairs\u{1}";
    let fail = |e: serde_json::Error| Error::File(format!("the summary: {e}"));
    let mut short = summary.clone();
    let pairs = short
        .as_object_mut()
        .and_then(|o| o.insert("pair_messages".into(), json!(PLACE)));
    let text = serde_json::to_string_pretty(&short).map_err(fail)?;
    let Some(Value::Array(pairs)) = pairs else {
        return Ok(text);
    };
    let mut lines = Vec::with_capacity(pairs.len());
    for p in &pairs {
        lines.push(format!("    {}", serde_json::to_string(p).map_err(fail)?));
    }
    let list = match lines.is_empty() {
        true => "[]".to_string(),
        false => format!("[\n{}\n  ]", lines.join(",\n")),
    };
    // A control character no communicator's name holds, escaped by JSON.
    Ok(text.replacen("\"\\u0001pairs\\u0001\"", &list, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::counters::Counters;
    use crate::record::wire::CollectiveRecord;

    /// Three ranks: 0 -> 1 (100 bytes, twice), 1 -> 0 (5), 1 -> 2 (0, an
    /// empty message), 2 -> 2 (a message to itself); rank 3 silent.
    fn exports() -> Vec<Export> {
        let mut c: Vec<Counters> = (0..4).map(|_| Counters::default()).collect();
        c[0].send(1, 100);
        c[0].send(1, 100);
        c[1].send(0, 5);
        c[1].send(2, 0);
        c[2].send(2, 64);
        c.iter()
            .map(|c| {
                let mut e = c.export();
                e.collectives.push(CollectiveRecord {
                    communicator: CommunicatorKey {
                        leader: 0,
                        size: 4,
                        name: "MPI_COMM_WORLD".into(),
                    },
                    operation: 12,
                    calls: 3,
                    bytes: 24,
                });
                e
            })
            .collect()
    }

    #[test]
    fn pairs_sum_both_directions_and_keep_silent_ranks() {
        let r = Recording::gather(&exports()).unwrap();
        assert_eq!(
            r.volumes().into_iter().collect::<Vec<_>>(),
            vec![((0, 1), 205), ((1, 2), 1)]
        );
        let s = r.summary(Path::new("run.txt"));
        assert_eq!(s["ranks"], 4);
        assert_eq!(s["point_to_point"]["messages"], 5);
        assert_eq!(s["point_to_point"]["bytes"], 269);
        assert_eq!(s["point_to_point"]["to_self"]["bytes"], 64);
        assert_eq!(
            s["collectives"][0]["operations"][0]["operation"],
            "MPI_Allreduce"
        );
        assert_eq!(s["collectives"][0]["calls"], 3);
        assert_eq!(s["collectives"][0]["bytes"], 96);
        let sizes: u64 = s["message_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["messages"].as_u64().unwrap())
            .sum();
        assert_eq!(sizes, 5);
        // Messages by pair, both ways: 0-1 three, 1-2 one (the empty one);
        // the message to itself is in no pair. The library reads them back.
        assert_eq!(
            s["pair_messages"],
            serde_json::json!([[0, 1, 3], [1, 2, 1]])
        );
        let text = pretty(&s).unwrap();
        assert!(text.contains("\n    [0,1,3],\n    [1,2,1]\n  ]"), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), s);
        let read = topoembed::recorded::parse_summary(Path::new("run.txt.json"), &text).unwrap();
        assert_eq!(read.pair_messages, Some(vec![[0, 1, 3], [1, 2, 1]]));
        assert_eq!(read.ranks, 4);
    }

    #[test]
    fn a_destination_outside_the_world_is_refused() {
        let mut c = Counters::default();
        c.send(9, 1);
        assert!(Recording::gather(&[c.export()])
            .unwrap_err()
            .contains("world rank 9 of 1"));
    }

    #[test]
    fn every_format_reads_back_as_the_same_graph() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let r = Recording::gather(&exports()).unwrap();
        for name in ["run.graph", "run.grf", "run.mtx", "run.txt", "run"] {
            let path = dir.join(name);
            let line = r.write(&path).unwrap();
            assert!(line.contains("recorded 4 ranks"), "{line}");
            let g = topoembed::topology::build(&Spec::Graph(path.clone())).unwrap();
            assert_eq!(g.node_count(), 4, "{name}");
            let mut edges = Vec::new();
            let wg = topoembed::mapper::WGraph::from_topology(g.as_ref()).unwrap();
            for v in 0..wg.n() {
                for (u, w) in wg.edges(v) {
                    if u > v {
                        edges.push(((v, u), w));
                    }
                }
            }
            assert_eq!(edges, vec![((0, 1), 205), ((1, 2), 1)], "{name}");
            let summary: Value =
                serde_json::from_str(&std::fs::read_to_string(summary_path(&path)).unwrap())
                    .unwrap();
            assert_eq!(summary["point_to_point"]["pairs"], 2);
            // Nothing left beside them.
            let parts = std::fs::read_dir(dir)
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .contains(".part")
                })
                .count();
            assert_eq!(parts, 0);
        }
    }

    #[test]
    fn an_unwritable_path_is_an_error_and_leaves_nothing() {
        let r = Recording::gather(&exports()).unwrap();
        let err = r.write(Path::new("/no/such/dir/run.graph")).unwrap_err();
        assert!(err.to_string().contains("/no/such/dir/run.graph"), "{err}");
    }
}
