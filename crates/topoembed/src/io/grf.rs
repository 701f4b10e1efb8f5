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

use rayon::prelude::*;
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

/// The vertex labels of a Scotch source graph ([`ScotchGraph::labels`]):
/// a file without labels is read no further than its header (its vertices
/// are numbered from the base), so writing a mapping of a graph the mapper
/// has just read costs no second parse of it (0.05 s of serial time for
/// mdual's 2.6·10^5 vertices). A labelled file is read whole, and so is
/// one whose header promises more vertices than its text can hold (a
/// vertex takes at least two bytes), to fail as [`read_graph`] does.
pub fn read_labels(path: &Path) -> Result<Vec<u64>> {
    if let Some(labels) = unlabelled_by_header(path) {
        return Ok(labels);
    }
    Ok(read_graph(path)?.labels)
}

/// [`read_labels`] of a file without labels from its first bytes alone
/// (the whole 43 MB of the 10^6-vertex stencil took 20 ms to read and
/// check as UTF-8); `None` where the header is not all there, is bad, or
/// says the file has labels, or more vertices than it can hold.
fn unlabelled_by_header(path: &Path) -> Option<Vec<u64>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut start = Vec::new();
    file.take(HEADER_BYTES).read_to_end(&mut start).ok()?;
    // Up to the last whitespace read, so no token is cut.
    let whole = match start.len() as u64 == size {
        true => start.len(),
        false => start.iter().rposition(|b| b.is_ascii_whitespace())?,
    };
    let text = std::str::from_utf8(&start[..whole]).ok()?;
    let header = parse_header(&mut Tokens::new(path, text)).ok()?;
    (!header.flags[0] && header.n <= size / 2)
        .then(|| (header.base..header.base + header.n).collect())
}

/// Bytes read for a header ([`unlabelled_by_header`]).
const HEADER_BYTES: u64 = 4096;

/// What a source graph's header says: vertex and arc counts, the base and
/// the flags (labels, edge weights, vertex loads).
#[derive(Debug, Clone, Copy)]
struct Header {
    n: u64,
    arcs: u64,
    base: u64,
    flags: [bool; 3],
}

/// Reads the header from `t`, rejecting a version other than 0, an odd arc
/// count, more arcs than the vertices can hold without repeats, a base
/// other than 0 or 1, and malformed flags.
fn parse_header(t: &mut Tokens) -> Result<Header> {
    let version = t.number("the version number (0)", u64::MAX)?;
    if version != 0 {
        return Err(t.error(&format!(
            "version {version}: only version 0 source graphs are read"
        )));
    }
    let n = t.number("the vertex count", MAX_VERTICES)?;
    if n == 0 {
        return Err(t.error(&format!("0 vertices: a graph needs 1 to {MAX_VERTICES}")));
    }
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
    let flags = parse_flags(flags).ok_or_else(|| {
        t.error(&format!(
            "flags '{flags}': expected three digits 0/1 (labels, edge weights, vertex loads), like 000"
        ))
    })?;
    Ok(Header {
        n,
        arcs,
        base,
        flags,
    })
}

/// [`read_graph`] on text already read; `path` names it in errors.
pub fn parse_graph(path: &Path, text: &str) -> Result<ScotchGraph> {
    let mut t = Tokens::new(path, text);
    let header = parse_header(&mut t)?;
    if let Some(graph) = parse_in_parallel(path, text, t.offset(), &header) {
        return Ok(graph);
    }
    parse_serially(path, text, t, header)
}

/// The body of a source graph token by token after its header (`t` stands
/// after it), every error naming its line.
fn parse_serially(path: &Path, text: &str, mut t: Tokens, header: Header) -> Result<ScotchGraph> {
    let Header {
        n,
        arcs,
        base,
        flags: [labeled, weighted, loaded],
    } = header;

    let room = text.len() as u64 / 2;
    let mut lists = Lists::reserved(&header, room);
    let Lists {
        labels,
        offsets,
        ends,
        volumes,
        loads,
    } = &mut lists;
    let mut lines: Vec<usize> = Vec::with_capacity(n.min(room) as usize);
    for v in 0..n {
        let label = if labeled {
            t.number_with(|| format!("the label of vertex {}", v + base), u64::MAX)?
        } else {
            v + base
        };
        labels.push(label);
        if loaded {
            loads.push(t.number_with(|| format!("the load of vertex {label}"), u64::MAX)?);
        }
        let degree = t.number_with(
            || format!("the degree of vertex {label}"),
            n.saturating_sub(1),
        )?;
        lines.push(t.token_line());
        if ends.len() as u64 + degree > arcs {
            return Err(t.error(&format!(
                "vertex {label} has more neighbours than the {arcs} arcs the header announces"
            )));
        }
        for k in 0..degree {
            if weighted {
                volumes.push(t.number_with(
                    || format!("the weight of edge {} of vertex {label}", k + 1),
                    u64::MAX,
                )?);
            }
            ends.push(t.number_with(
                || format!("neighbour {} of vertex {label}", k + 1),
                u64::MAX,
            )?);
        }
        offsets.push(ends.len() as u64);
    }
    t.finish(&format!("the {n} vertices the header announces"))?;
    if ends.len() as u64 != arcs {
        return Err(Error::File(format!(
            "{}: the header announces {arcs} arcs but the vertices list {}",
            path.display(),
            ends.len()
        )));
    }
    assemble(path, &header, lists, &lines)
}

/// Bodies of at least this many bytes are parsed in parallel
/// ([`parse_in_parallel`]), in pieces of this many.
const PARALLEL_PIECE: usize = 1 << 20;

/// The body of a source graph (from byte `offset`, after the header) parsed
/// on the thread pool: cut into pieces at whitespace, every piece's numbers
/// read in parallel, then laid out vertex by vertex. `None` at the first
/// thing out of the ordinary — a token that is not plain decimal digits, a
/// number past 2^64, a degree above n − 1, more or fewer numbers than the
/// header's counts call for, an end that names no vertex, an edge listed
/// from one end — and the serial parse then reads the file again and names
/// the line. Below [`PARALLEL_PIECE`] bytes `None` at once. The 10^6-vertex
/// stencil (43 MB) took 0.25 s to parse on one thread while the other
/// waited.
fn parse_in_parallel(path: &Path, text: &str, offset: usize, h: &Header) -> Option<ScotchGraph> {
    let body = text.as_bytes().get(offset..)?;
    if body.len() < PARALLEL_PIECE {
        return None;
    }
    let mut cuts = vec![0];
    let mut at = PARALLEL_PIECE;
    while at < body.len() {
        while at < body.len() && !body[at].is_ascii_whitespace() {
            at += 1;
        }
        cuts.push(at);
        at += PARALLEL_PIECE;
    }
    cuts.push(body.len());
    let pieces: Vec<Vec<u64>> = cuts
        .par_windows(2)
        .map(|w| decimal_numbers(&body[w[0]..w[1]]))
        .collect::<Option<_>>()?;
    let [labeled, weighted, loaded] = h.flags;
    let mut numbers = pieces.iter().flatten().copied();
    let mut lists = Lists::reserved(h, body.len() as u64 / 2);
    let Lists {
        labels,
        offsets,
        ends,
        volumes,
        loads,
    } = &mut lists;
    for v in 0..h.n {
        labels.push(match labeled {
            true => numbers.next()?,
            false => v + h.base,
        });
        if loaded {
            loads.push(numbers.next()?);
        }
        let degree = numbers.next()?;
        if degree > h.n.saturating_sub(1) || ends.len() as u64 + degree > h.arcs {
            return None;
        }
        for _ in 0..degree {
            if weighted {
                volumes.push(numbers.next()?);
            }
            ends.push(numbers.next()?);
        }
        offsets.push(ends.len() as u64);
    }
    if numbers.next().is_some() || ends.len() as u64 != h.arcs {
        return None;
    }
    drop(pieces);
    assemble(path, h, lists, &[]).ok()
}

/// A source graph's vertices as read, before their ends are resolved.
struct Lists {
    labels: Vec<u64>,
    /// Where each vertex's entries start in `ends` (and `volumes`).
    offsets: Vec<u64>,
    /// The ends as written (labels, or numbers + base).
    ends: Vec<u64>,
    /// Edge weights, one per end (none without the flag).
    volumes: Vec<u64>,
    /// Vertex loads (none without the flag).
    loads: Vec<u64>,
}

impl Lists {
    /// Empty lists for `h`'s counts, each reserving at most `room` entries:
    /// a header may promise billions of vertices that the file does not
    /// have (found by fuzzing), and a vertex or an arc takes at least two
    /// bytes of it. `offsets` starts at 0.
    fn reserved(h: &Header, room: u64) -> Lists {
        let [_, weighted, loaded] = h.flags;
        let (n, arcs) = (h.n.min(room) as usize, h.arcs.min(room) as usize);
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        Lists {
            labels: Vec::with_capacity(n),
            offsets,
            ends: Vec::with_capacity(arcs),
            volumes: Vec::with_capacity(if weighted { arcs } else { 0 }),
            loads: Vec::with_capacity(if loaded { n } else { 0 }),
        }
    }
}

/// The graph of `lists`: ends resolved to vertices, every edge checked to
/// be listed from both ends once, loads attached. `lines` is each vertex's
/// line for errors (empty: the parallel parse, which reads again on error).
fn assemble(path: &Path, h: &Header, lists: Lists, lines: &[usize]) -> Result<ScotchGraph> {
    let [labeled, weighted, loaded] = h.flags;
    let Lists {
        labels,
        offsets,
        ends,
        volumes,
        loads,
    } = lists;
    let targets = resolve_ends(path, &labels, lines, &offsets, &ends, labeled, h.base)?;
    drop(ends);
    let mut graph = Graph::from_weighted_csr(
        Spec::Graph(path.to_path_buf()),
        offsets,
        targets,
        weighted.then_some(volumes),
    );
    check_lists(path, &graph, &labels, lines)?;
    if loaded {
        graph = graph.with_loads(loads)?;
    }
    Ok(ScotchGraph {
        graph,
        base: h.base,
        labels,
        edge_weights: weighted,
        vertex_loads: loaded,
    })
}

/// The whitespace-separated numbers of `text`, each plain decimal digits
/// below 2^64; `None` at anything else.
fn decimal_numbers(text: &[u8]) -> Option<Vec<u64>> {
    let mut numbers = Vec::with_capacity(text.len() / 4);
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let mut x: u64 = 0;
        while i < text.len() && !text[i].is_ascii_whitespace() {
            let digit = text[i].wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            x = x.checked_mul(10)?.checked_add(u64::from(digit))?;
            i += 1;
        }
        numbers.push(x);
    }
    Some(numbers)
}

/// Turns the ends as written (labels, or numbers + base) into vertex
/// positions, rejecting ends that name no vertex and self-loops.
fn resolve_ends(
    path: &Path,
    labels: &[u64],
    lines: &[usize],
    offsets: &[u64],
    ends: &[u64],
    labeled: bool,
    base: u64,
) -> Result<Vec<u32>> {
    let index = vertex_index(path, labels, labeled, base)?;
    let mut targets = Vec::with_capacity(ends.len());
    for v in 0..labels.len() {
        // (No line where the parse in parallel kept none: its errors are
        // found again by the serial parse, which keeps them.)
        let line = lines.get(v).copied().unwrap_or(0);
        let at = |m: String| Error::File(format!("{}:{line}: {m}", path.display()));
        for &end in &ends[offsets[v] as usize..offsets[v + 1] as usize] {
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
            targets.push(w);
        }
    }
    Ok(targets)
}

impl ScotchGraph {
    /// Any stored graph as a Scotch graph numbered from 0 without labels
    /// (vertex v is labelled v): how mappings of METIS, Matrix Market and
    /// edge-list guests name their vertices.
    pub fn numbered(topology: Box<dyn Topology>) -> Result<ScotchGraph> {
        let spec = topology.spec().clone();
        let Some(graph) = topology.as_graph() else {
            return Err(Error::Parameter(format!(
                "{spec} is not a stored graph; mappings are read for graph files"
            )));
        };
        Ok(ScotchGraph {
            labels: (0..graph.node_count()).collect(),
            base: 0,
            edge_weights: graph.volumes().is_some(),
            vertex_loads: graph.loads().is_some(),
            graph: graph.clone(),
        })
    }

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

/// Every edge must be listed from both ends, and once only: each sorted
/// adjacency list has no repeats, and v in u's list means u in v's list
/// (a binary search in a short list, in parallel over the vertices).
fn check_lists(path: &Path, graph: &Graph, labels: &[u64], lines: &[usize]) -> Result<()> {
    let n = graph.node_count();
    let bad = (0..n).into_par_iter().find_map_first(|u| {
        let list = graph.adjacency(u);
        if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
            return Some((u, w[0], true));
        }
        list.iter()
            .zip(graph.adjacency_volumes(u))
            .find(|&(&v, w)| {
                let back = graph.adjacency(u64::from(v)).binary_search(&(u as u32));
                match back {
                    Err(_) => true,
                    Ok(k) => graph.adjacency_volumes(u64::from(v)).nth(k) != Some(w),
                }
            })
            .map(|(&v, _)| (u, v, false))
    });
    let Some((u, v, twice)) = bad else {
        return Ok(());
    };
    let one_sided = graph
        .adjacency(u64::from(v))
        .binary_search(&(u as u32))
        .is_err();
    let (lu, lv) = (labels[u as usize], labels[v as usize]);
    let line = lines.get(u as usize).copied().unwrap_or(0);
    Err(Error::File(if twice {
        format!(
            "{}:{line}: vertex {lu} lists neighbour {lv} twice",
            path.display()
        )
    } else if one_sided {
        format!(
            "{}:{line}: vertex {lu} lists neighbour {lv} but {lv} does not list {lu}; \
             a source graph lists every edge from both ends",
            path.display()
        )
    } else {
        format!(
            "{}:{line}: the edge {lu}-{lv} has one weight at {lu} and another at {lv}; \
             both ends of an edge carry the same weight",
            path.display()
        )
    }))
}

/// Writes `topology` as an unlabelled Scotch source graph with numbering
/// base `base` (0 or 1); node i of the topology is vertex i + base. A
/// weighted topology keeps its loads and volumes (flags `011`).
pub fn write_graph(topology: &dyn Topology, base: u64, out: &mut dyn Write) -> Result<()> {
    if base > 1 {
        return Err(Error::Parameter(format!(
            "base {base}: Scotch graphs are numbered from 0 or 1"
        )));
    }
    let n = writable(topology)?;
    let weighted = topology.is_weighted();
    let io = |e: std::io::Error| Error::File(format!("cannot write the graph: {e}"));
    let flags = if weighted { "011" } else { "000" };
    writeln!(
        out,
        "0\n{n}\t{}\n{base}\t{flags}",
        2 * topology.edge_count()
    )
    .map_err(io)?;
    let mut line = String::new();
    for v in 0..n {
        let neighbors = weighted_neighbors(topology, v);
        line.clear();
        if weighted {
            line.push_str(&format!("{}\t", topology.load(v)));
        }
        line.push_str(&neighbors.len().to_string());
        for (w, volume) in neighbors {
            if weighted {
                line.push_str(&format!("\t{volume}"));
            }
            line.push('\t');
            line.push_str(&(w + base).to_string());
        }
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}

/// The node count of a topology small enough to write as a stored graph.
pub(super) fn writable(topology: &dyn Topology) -> Result<u64> {
    let n = topology.node_count();
    if n > MAX_VERTICES {
        return Err(Error::Parameter(format!(
            "{} has {n} nodes; a stored graph holds at most {MAX_VERTICES}",
            topology.spec()
        )));
    }
    Ok(n)
}

/// Node v's neighbours with the volume of each edge (1 on unweighted topologies).
pub(super) fn weighted_neighbors(topology: &dyn Topology, v: u64) -> Vec<(u64, u64)> {
    match topology.as_graph() {
        Some(graph) => graph
            .adjacency(v)
            .iter()
            .map(|&w| u64::from(w))
            .zip(graph.adjacency_volumes(v))
            .collect(),
        None => topology.neighbors(v).into_iter().map(|w| (w, 1)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random graph of `n` vertices as a source graph file's text: a
    /// ring plus chords, labels (shuffled, when `flags[0]`), edge weights
    /// and vertex loads as the flags say, tokens split over lines oddly.
    fn random_graph(n: u64, flags: [bool; 3], seed: u64) -> String {
        let mut rng = crate::mapper::rng::Rng::new(seed, 0);
        let mut adj: Vec<Vec<(u64, u64)>> = vec![Vec::new(); n as usize];
        let mut seen = std::collections::HashSet::new();
        let mut add = |a: u64, b: u64, w: u64, adj: &mut Vec<Vec<(u64, u64)>>| {
            if a != b && seen.insert((a.min(b), a.max(b))) {
                adj[a as usize].push((b, w));
                adj[b as usize].push((a, w));
            }
        };
        for v in 0..n {
            add(v, (v + 1) % n, 1 + v % 5, &mut adj);
            let u = rng.below(n as usize) as u64;
            add(v, u, 1 + rng.below(9) as u64, &mut adj);
        }
        let label: Vec<u64> = match flags[0] {
            true => rng
                .permutation(n as usize)
                .iter()
                .map(|&x| 3 * u64::from(x) + 7)
                .collect(),
            false => (0..n).map(|v| v + 1).collect(),
        };
        let arcs: usize = adj.iter().map(Vec::len).sum();
        let bit = |b: bool| if b { '1' } else { '0' };
        let mut text = format!(
            "0\n{n} {arcs}\n1 {}{}{}\n",
            bit(flags[0]),
            bit(flags[1]),
            bit(flags[2])
        );
        for (v, list) in adj.iter().enumerate() {
            if flags[0] {
                text += &format!("{} ", label[v]);
            }
            if flags[2] {
                text += &format!("{} ", 1 + v % 3);
            }
            text += &list.len().to_string();
            for (k, &(u, w)) in list.iter().enumerate() {
                text += if k % 7 == 6 { "\n\t" } else { " " };
                if flags[1] {
                    text += &format!("{w} ");
                }
                text += &label[u as usize].to_string();
            }
            text.push('\n');
        }
        text
    }

    fn serially(path: &Path, text: &str) -> Result<ScotchGraph> {
        let mut t = Tokens::new(path, text);
        let header = parse_header(&mut t)?;
        parse_serially(path, text, t, header)
    }

    fn same(a: &ScotchGraph, b: &ScotchGraph) -> bool {
        let edges = |g: &Graph| {
            (0..g.node_count())
                .map(|v| g.adjacency(v).to_vec())
                .collect::<Vec<_>>()
        };
        a.labels == b.labels
            && a.base == b.base
            && (a.edge_weights, a.vertex_loads) == (b.edge_weights, b.vertex_loads)
            && edges(&a.graph) == edges(&b.graph)
            && a.graph.volumes() == b.graph.volumes()
            && a.graph.loads() == b.graph.loads()
    }

    /// Files above a piece are parsed in parallel into the graph the serial
    /// parse reads, whatever the flags; below one the parallel parse
    /// declines.
    #[test]
    fn the_parallel_parse_reads_what_the_serial_one_reads() {
        let path = Path::new("random.grf");
        for (k, flags) in [
            [false, false, false],
            [true, false, false],
            [false, true, false],
            [true, true, true],
            [false, false, true],
        ]
        .into_iter()
        .enumerate()
        {
            let text = random_graph(90_000, flags, k as u64);
            assert!(text.len() > 2 * PARALLEL_PIECE, "{flags:?}: {}", text.len());
            let mut t = Tokens::new(path, &text);
            let header = parse_header(&mut t).unwrap();
            let parallel = parse_in_parallel(path, &text, t.offset(), &header)
                .unwrap_or_else(|| panic!("{flags:?}: declined"));
            assert!(
                same(&parallel, &serially(path, &text).unwrap()),
                "{flags:?}"
            );
            let small = random_graph(1000, flags, k as u64);
            let mut t = Tokens::new(path, &small);
            let header = parse_header(&mut t).unwrap();
            assert!(parse_in_parallel(path, &small, t.offset(), &header).is_none());
        }
    }

    /// Whatever is wrong in a large file, the parallel parse declines and
    /// `parse_graph` gives the serial parse's error, line and all.
    #[test]
    fn a_large_bad_file_gets_the_serial_error() {
        let path = Path::new("bad.grf");
        let good = random_graph(90_000, [false, true, false], 5);
        let lines: Vec<&str> = good.lines().collect();
        let late = lines.len() - 10;
        let with = |line: usize, edit: &dyn Fn(&str) -> String| -> String {
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out[line] = edit(lines[line]);
            out.join("\n") + "\n"
        };
        let mut cases: Vec<(String, &str)> = vec![
            (with(late, &|l| l.replacen(' ', " x", 1)), "expected"),
            (
                with(late, &|l| format!("{l} 99999999999999999999")),
                "expected",
            ),
            (with(late, &|l| format!("{l} 1 5")), "vertex"),
            (good.clone() + "7\n", "unexpected '7'"),
            (with(late, &|l| l.replacen(' ', " +", 1)), ""),
            (
                with(late, &|l| {
                    let mut t: Vec<String> = l.split_whitespace().map(String::from).collect();
                    let last = t.len() - 1;
                    t[last] = "90001".into();
                    t.join(" ")
                }),
                "not a vertex",
            ),
        ];
        // A header promising billions of vertices over a large body: no
        // more is reserved than the text holds, and the serial error.
        let promise = "0\n4000000000 8000000000\n0 000\n".to_string() + &"1 1\n".repeat(400_000);
        let mut t = Tokens::new(path, &promise);
        let header = parse_header(&mut t).unwrap();
        let lists = Lists::reserved(&header, promise.len() as u64 / 2);
        assert!(lists.labels.capacity() <= promise.len() / 2);
        assert!(lists.ends.capacity() <= promise.len() / 2);
        cases.push((promise, "vertex"));
        for (text, says) in cases {
            let serial = serially(path, &text);
            let read = parse_graph(path, &text);
            match (&read, &serial) {
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string());
                    assert!(a.to_string().contains(says), "{a}");
                    assert!(!a.to_string().contains("bad.grf:0:"), "{a}");
                }
                (Ok(a), Ok(b)) => assert!(same(a, b) && says.is_empty()),
                _ => panic!("{:?} against {:?}", read.map(|_| ()), serial.map(|_| ())),
            }
        }
    }
}
