//! METIS graph files (`graph:FILE.graph`): read into a stored [`Graph`]
//! with their vertex weights and edge weights.
//!
//! Format (METIS 5 manual, §4.1.1): lines starting with `%` are comments;
//! a header `n m [fmt [ncon]]` (vertices, *edges*; fmt's digits, hundreds to
//! ones: vertex sizes, vertex weights, edge weights; ncon vertex weights per
//! vertex, 1 by default); then one line per vertex, in order — an empty
//! line is a vertex without neighbours — holding [size] [ncon weights] and
//! its neighbours, numbered from 1, each followed by the edge's weight when
//! fmt says so. Vertex i of the file (1-based) is guest node i − 1.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::tokens::read_text;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{Graph, Topology};

/// Most vertices a stored graph holds (ids are `u32`).
const MAX_VERTICES: u64 = u32::MAX as u64 - 1;

/// A METIS graph as read.
#[derive(Debug, Clone)]
pub struct MetisGraph {
    /// The graph, vertex i of the file (1-based) as node i − 1.
    pub graph: Graph,
    /// Vertex weights per vertex (`ncon` of them), row by row:
    /// `vertex_weights[v * ncon + c]`; all 1 when the file has none.
    pub vertex_weights: Vec<u64>,
    /// Weights per vertex.
    pub ncon: usize,
    /// Weight of each edge, aligned with the graph's sorted adjacency lists
    /// (`edge_weights[k]` for the k-th entry of the CSR); all 1 when the file
    /// has none. Both directions of an edge carry the same weight.
    pub edge_weights: Vec<u64>,
    /// The file carries edge weights.
    pub has_edge_weights: bool,
    /// The file carries vertex weights.
    pub has_vertex_weights: bool,
}

/// True when `path` names a METIS graph (`.graph` or `.metis`).
pub fn is_metis_graph(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("graph" | "metis")
    )
}

/// Reads a METIS graph, rejecting what METIS would misread: wrong counts,
/// neighbours that name no vertex, self-loops, repeated or one-sided edges,
/// weights that differ between an edge's two ends, missing or extra numbers.
pub fn read_metis(path: &Path) -> Result<MetisGraph> {
    parse_metis(path, &read_text(path)?)
}

/// [`read_metis`] on text already read; `path` names it in errors.
pub fn parse_metis(path: &Path, text: &str) -> Result<MetisGraph> {
    let at =
        |line: usize, message: String| Error::File(format!("{}:{line}: {message}", path.display()));
    // Lines that are not comments, with their 1-based line numbers.
    let lines = content_lines(text);
    let header_at = lines
        .iter()
        .position(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| {
            Error::File(format!(
                "{}: empty file; a METIS graph starts with 'n m [fmt [ncon]]'",
                path.display()
            ))
        })?;
    let (header_line, header) = lines[header_at];
    let numbers = |line: usize, l: &str| -> Result<Vec<u64>> {
        l.split_whitespace()
            .map(|t| {
                t.parse::<u64>()
                    .map_err(|_| at(line, format!("'{t}' is not a whole number")))
            })
            .collect()
    };
    let head = numbers(header_line, header)?;
    if !(2..=4).contains(&head.len()) {
        return Err(at(
            header_line,
            format!(
                "the header has {} numbers; it is 'n m [fmt [ncon]]'",
                head.len()
            ),
        ));
    }
    let (n, m) = (head[0], head[1]);
    if n > MAX_VERTICES {
        return Err(at(
            header_line,
            format!("{n} vertices is more than a stored graph holds"),
        ));
    }
    if n == 0 {
        return Err(at(
            header_line,
            format!("0 vertices: a graph needs 1 to {MAX_VERTICES}"),
        ));
    }
    let fmt = head.get(2).copied().unwrap_or(0);
    let digits = [fmt / 100, fmt / 10 % 10, fmt % 10];
    if fmt > 111 || digits.iter().any(|&d| d > 1) {
        return Err(at(
            header_line,
            format!("fmt {fmt}: its digits (vertex sizes, vertex weights, edge weights) are 0 or 1, like 11"),
        ));
    }
    let [sizes, weighted_vertices, weighted_edges] = digits.map(|d| d == 1);
    let ncon = match head.get(3) {
        None => 1,
        Some(_) if !weighted_vertices => {
            return Err(at(
                header_line,
                format!(
                    "ncon {} is given but fmt {fmt} has no vertex weights",
                    head[3]
                ),
            ))
        }
        Some(&0) => {
            return Err(at(
                header_line,
                "ncon 0: give at least one weight per vertex".into(),
            ))
        }
        Some(&c) => c as usize,
    };
    if m > n.saturating_mul(n.saturating_sub(1)) / 2 {
        return Err(at(
            header_line,
            format!("{m} edges cannot join {n} vertices without repeats"),
        ));
    }
    // The vertex lines, parsed in parallel in blocks: each block in order,
    // so the first bad line of the file is the one named. (The shuffled
    // 10^6-vertex stencil, 41 MB, read and checked in 0.62 s before, now
    // 0.44 s on one thread and 0.29 s on two.)
    // (A slice of the lines scanned, not a copy.)
    let after_header = &lines[header_at + 1..];
    let (vertex_lines, trailing) = after_header.split_at(after_header.len().min(n as usize));
    let format = Format {
        n,
        fmt,
        ncon,
        sizes,
        weighted_vertices,
        weighted_edges,
    };
    // (Every block's outcome is kept: a parallel collect into a Result
    // gives some error, not the first.)
    let blocks: Vec<Result<Block>> = vertex_lines
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(b, block)| format.block(path, (b * BLOCK) as u64, block))
        .collect();
    let blocks: Vec<Block> = blocks.into_iter().collect::<Result<_>>()?;
    if (vertex_lines.len() as u64) < n {
        return Err(Error::File(format!(
            "{}: the header announces {n} vertices but the file has {}",
            path.display(),
            vertex_lines.len()
        )));
    }
    if let Some(&(line, _)) = trailing.iter().find(|(_, l)| !l.trim().is_empty()) {
        return Err(at(
            line,
            format!("text after the {n} vertices the header announces"),
        ));
    }
    let (offsets, targets, edge_weights, vertex_weights) = join_blocks(blocks, ncon);
    let symmetric = Symmetry {
        offsets: &offsets,
        targets: &targets,
        weights: &edge_weights,
    };
    if let Some((v, message)) = symmetric.first_one_sided() {
        return Err(at(vertex_lines[v].0, message));
    }
    if targets.len() as u64 != 2 * m {
        return Err(Error::File(format!(
            "{}: the header announces {m} edges but the vertices list {}",
            path.display(),
            targets.len() / 2
        )));
    }
    let mut graph = Graph::from_weighted_csr(
        Spec::Graph(path.to_path_buf()),
        offsets,
        targets,
        weighted_edges.then(|| edge_weights.clone()),
    );
    if weighted_vertices {
        // The first weight is the load the mapper balances.
        let loads = vertex_weights.iter().step_by(ncon).copied().collect();
        graph = graph.with_loads(loads)?;
    }
    debug_assert_eq!(graph.edge_count(), m);
    Ok(MetisGraph {
        graph,
        vertex_weights,
        ncon,
        edge_weights,
        has_edge_weights: weighted_edges,
        has_vertex_weights: weighted_vertices,
    })
}

/// Vertices per block of lines parsed at once.
const BLOCK: usize = 1 << 12;

/// Bytes of text per piece that [`content_lines`] splits at once.
const PIECE: usize = 1 << 20;

/// The lines of `text` (as [`str::lines`] cuts them) that are not comments,
/// with their 1-based numbers, found piece by piece in parallel: each
/// piece of about [`PIECE`] bytes ends just after a newline, so the
/// pieces' lines are the text's, and a piece's first line number is one
/// past the newlines before it. (One scan of the shuffled 10^6-vertex
/// stencil's 41 MB took 0.04 s whatever the thread count.)
fn content_lines(text: &str) -> Vec<(usize, &str)> {
    content_lines_in(text, PIECE)
}

/// [`content_lines`] in pieces of about `piece` bytes.
fn content_lines_in(text: &str, piece: usize) -> Vec<(usize, &str)> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        // Cut just after a newline (an ASCII byte: a character boundary).
        let end = match rest
            .as_bytes()
            .get(piece..)
            .and_then(|after| after.iter().position(|&b| b == b'\n'))
        {
            Some(k) => piece + k + 1,
            None => rest.len(),
        };
        let (piece, tail) = rest.split_at(end);
        pieces.push(piece);
        rest = tail;
    }
    let newlines: Vec<usize> = pieces
        .par_iter()
        .map(|p| p.bytes().filter(|&b| b == b'\n').count())
        .collect();
    let firsts: Vec<usize> = newlines
        .iter()
        .scan(1, |next, &count| {
            let first = *next;
            *next += count;
            Some(first)
        })
        .collect();
    pieces
        .par_iter()
        .zip(firsts)
        .flat_map_iter(|(piece, first)| {
            piece
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with('%'))
                .map(move |(k, l)| (first + k, l))
        })
        .collect()
}

/// The blocks joined in order into the CSR offsets, the neighbours, their
/// edge weights and the vertex weights, each block copied into its place
/// in parallel (joined one after the other they were 0.06 s of the
/// shuffled 10^6-vertex stencil's read whatever the thread count).
fn join_blocks(blocks: Vec<Block>, ncon: usize) -> (Vec<u64>, Vec<u32>, Vec<u64>, Vec<u64>) {
    let n: usize = blocks.iter().map(|b| b.degrees.len()).sum();
    let entries: usize = blocks.iter().map(|b| b.lists.len()).sum();
    let mut offsets = vec![0u64; n + 1];
    let mut targets = vec![0u32; entries];
    let mut edge_weights = vec![0u64; entries];
    let mut vertex_weights = vec![0u64; n * ncon];
    // Each block's share of the four, and its first entry's index.
    let mut shares = Vec::with_capacity(blocks.len());
    let (mut o, mut t, mut e, mut w) = (
        &mut offsets[1..],
        &mut targets[..],
        &mut edge_weights[..],
        &mut vertex_weights[..],
    );
    let mut first = 0u64;
    for block in &blocks {
        let (vertices, listed) = (block.degrees.len(), block.lists.len());
        let (o_here, o_rest) = std::mem::take(&mut o).split_at_mut(vertices);
        let (t_here, t_rest) = std::mem::take(&mut t).split_at_mut(listed);
        let (e_here, e_rest) = std::mem::take(&mut e).split_at_mut(listed);
        let (w_here, w_rest) = std::mem::take(&mut w).split_at_mut(block.weights.len());
        shares.push((block, first, o_here, t_here, e_here, w_here));
        (o, t, e, w) = (o_rest, t_rest, e_rest, w_rest);
        first += listed as u64;
    }
    shares
        .into_par_iter()
        .for_each(|(block, first, o, t, e, w)| {
            let mut end = first;
            for (slot, &degree) in o.iter_mut().zip(&block.degrees) {
                end += u64::from(degree);
                *slot = end;
            }
            for ((t, e), &(target, weight)) in t.iter_mut().zip(e.iter_mut()).zip(&block.lists) {
                (*t, *e) = (target, weight);
            }
            w.copy_from_slice(&block.weights);
        });
    (offsets, targets, edge_weights, vertex_weights)
}

/// What the header says the vertex lines hold.
struct Format {
    n: u64,
    fmt: u64,
    ncon: usize,
    sizes: bool,
    weighted_vertices: bool,
    weighted_edges: bool,
}

/// A block of vertex lines, parsed: each vertex's degree, its neighbours
/// (0-based, sorted) with their edge weights, and its `ncon` weights.
struct Block {
    degrees: Vec<u32>,
    lists: Vec<(u32, u64)>,
    weights: Vec<u64>,
}

impl Format {
    /// Parses the lines of vertices `first..` (each with its 1-based line
    /// number); the first bad line is the error.
    fn block(&self, path: &Path, first: u64, lines: &[(usize, &str)]) -> Result<Block> {
        let (n, ncon) = (self.n, self.ncon);
        let at = |line: usize, message: String| {
            Error::File(format!("{}:{line}: {message}", path.display()))
        };
        let mut block = Block {
            degrees: Vec::with_capacity(lines.len()),
            lists: Vec::new(),
            weights: Vec::with_capacity(lines.len() * ncon),
        };
        // Numbers before the neighbours (size, weights), numbers per neighbour.
        let lead = usize::from(self.sizes) + if self.weighted_vertices { ncon } else { 0 };
        let step = 1 + usize::from(self.weighted_edges);
        let mut nums: Vec<u64> = Vec::new();
        for (v, &(line, l)) in (first..).zip(lines) {
            nums.clear();
            for t in l.split_whitespace() {
                let x = t
                    .parse::<u64>()
                    .map_err(|_| at(line, format!("'{t}' is not a whole number")))?;
                nums.push(x);
            }
            if nums.len() < lead {
                return Err(at(
                    line,
                    format!(
                        "vertex {} has {} numbers; it needs its size and {ncon} weight(s) first",
                        v + 1,
                        nums.len()
                    ),
                ));
            }
            if self.weighted_vertices {
                block
                    .weights
                    .extend_from_slice(&nums[usize::from(self.sizes)..lead]);
            } else {
                block.weights.resize(block.weights.len() + ncon, 1);
            }
            let rest = &nums[lead..];
            if rest.len() % step != 0 {
                return Err(at(line, format!("vertex {}: a neighbour has no edge weight (fmt {} gives every neighbour one)", v + 1, self.fmt)));
            }
            let start = block.lists.len();
            for pair in rest.chunks(step) {
                let u = pair[0];
                if u == 0 || u > n {
                    return Err(at(
                        line,
                        format!(
                            "vertex {} lists neighbour {u}; vertices are numbered 1..{n}",
                            v + 1
                        ),
                    ));
                }
                if u == v + 1 {
                    return Err(at(line, format!("vertex {} lists itself", v + 1)));
                }
                let w = if self.weighted_edges { pair[1] } else { 1 };
                if w == 0 {
                    return Err(at(
                        line,
                        format!(
                            "vertex {}: the edge to {u} has weight 0; edge weights are positive",
                            v + 1
                        ),
                    ));
                }
                block.lists.push(((u - 1) as u32, w));
            }
            block.lists[start..].sort_unstable();
            if let Some(pair) = block.lists[start..].windows(2).find(|p| p[0].0 == p[1].0) {
                return Err(at(
                    line,
                    format!("vertex {} lists neighbour {} twice", v + 1, pair[0].0 + 1),
                ));
            }
            block.degrees.push((block.lists.len() - start) as u32);
        }
        Ok(block)
    }
}

/// The adjacency lists read, for the check that both ends list every edge
/// with the same weight.
struct Symmetry<'a> {
    offsets: &'a [u64],
    targets: &'a [u32],
    weights: &'a [u64],
}

impl Symmetry<'_> {
    fn row(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    /// The weight u's list gives v, if it lists v.
    fn mirror(&self, v: usize, u: usize) -> Option<u64> {
        let row = self.row(u);
        let k = self.targets[row.clone()].binary_search(&(v as u32)).ok()?;
        Some(self.weights[row.start + k])
    }

    /// Whether u lists v with the weight w that v gives u.
    fn mirrored(&self, (v, u, w): (usize, usize, u64)) -> bool {
        self.mirror(v, u) == Some(w)
    }

    /// Why v's entry for u is one-sided, if it is.
    fn fault(&self, (v, u, w): (usize, usize, u64)) -> Option<String> {
        match self.mirror(v, u) {
            None => Some(format!(
                "vertex {} lists {} but {} does not list {}; METIS lists every edge from both ends",
                v + 1,
                u + 1,
                u + 1,
                v + 1
            )),
            Some(other) if other != w => Some(format!(
                "the edge {}-{} has weight {w} here and {other} at vertex {}",
                v + 1,
                u + 1,
                u + 1
            )),
            Some(_) => None,
        }
    }

    /// The first vertex, in the file's order, listing an edge its other end
    /// does not list with the same weight, and what is wrong.
    ///
    /// Checked in parallel, and from the lower end only: lists hold no
    /// repeats, so "every entry (v, u) with v < u has its mirror" maps
    /// those entries one to one onto the entries with v > u, and as many
    /// of each makes it onto (every edge then listed from both ends). A
    /// 10^6-vertex shuffled stencil's check reads half the rows at random
    /// that way. Where that fails, every entry is looked at in order, to
    /// name the same first fault as a check of every entry would.
    fn first_one_sided(&self) -> Option<(usize, String)> {
        let n = self.offsets.len() - 1;
        let entries = |v: usize| {
            self.row(v)
                .map(move |k| (v, self.targets[k] as usize, self.weights[k]))
        };
        let (upward, fine) = (0..n)
            .into_par_iter()
            .with_min_len(1 << 10)
            .map(|v| {
                entries(v).fold((0usize, true), |(up, fine), e| match e.1 > v {
                    true => (up + 1, fine && self.mirrored(e)),
                    false => (up, fine),
                })
            })
            .reduce(|| (0, true), |a, b| (a.0 + b.0, a.1 && b.1));
        if fine && 2 * upward == self.targets.len() {
            return None;
        }
        (0..n).find_map(|v| entries(v).find_map(|e| self.fault(e).map(|m| (v, m))))
    }
}

/// Writes `topology` as a METIS graph: `n m` and, when it is weighted, fmt
/// `011` (the load first on each line, then `neighbour volume` pairs);
/// vertices numbered from 1, as METIS reads them.
pub fn write_metis(topology: &dyn Topology, out: &mut dyn Write) -> Result<()> {
    let n = super::grf::writable(topology)?;
    let weighted = topology.is_weighted();
    let io = |e: std::io::Error| Error::File(format!("cannot write the graph: {e}"));
    let fmt = if weighted { " 011" } else { "" };
    writeln!(out, "{n} {}{fmt}", topology.edge_count()).map_err(io)?;
    let mut line = String::new();
    for v in 0..n {
        line.clear();
        if weighted {
            line.push_str(&topology.load(v).to_string());
        }
        for (w, volume) in super::grf::weighted_neighbors(topology, v) {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&(w + 1).to_string());
            if weighted {
                line.push_str(&format!(" {volume}"));
            }
        }
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::content_lines_in;

    /// The lines one scan finds: every line that is not a comment, numbered from 1.
    fn one_scan(text: &str) -> Vec<(usize, &str)> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim_start().starts_with('%'))
            .map(|(k, l)| (k + 1, l))
            .collect()
    }

    proptest! {
        /// Cut into pieces anywhere, the lines and their numbers are one
        /// scan's: blank lines, comments, CRLF endings, a last line without
        /// a newline and characters of several bytes included.
        #[test]
        fn pieces_find_the_lines_one_scan_finds(
            text in "([0-9 %é\r]{0,6}\n){0,30}[0-9 %é]{0,4}",
            piece in 1usize..40,
        ) {
            prop_assert_eq!(content_lines_in(&text, piece), one_scan(&text));
        }
    }
}
