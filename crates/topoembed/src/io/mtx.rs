//! Matrix Market files (`graph:FILE.mtx`): a square sparse matrix read as
//! the graph of its symmetrised pattern (row i and column i are node
//! i − 1; an entry a_ij, i ≠ j, joins i and j; the diagonal is dropped),
//! with the entries' magnitudes as communication volumes.
//!
//! Format (NIST Matrix Market): a banner `%%MatrixMarket matrix coordinate
//! FIELD SYMMETRY` (FIELD real, double, integer or pattern; SYMMETRY general,
//! symmetric, skew-symmetric or hermitian — the last three store one
//! triangle), `%` comments, a size line `M N NNZ`, then NNZ lines `i j
//! [value]`, 1-based.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::tokens::read_text;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{Graph, Topology};

/// Most rows a stored graph holds (ids are `u32`).
const MAX_VERTICES: u64 = u32::MAX as u64 - 1;

/// A Matrix Market matrix as a graph.
#[derive(Debug, Clone)]
pub struct MatrixGraph {
    /// The graph of the symmetrised off-diagonal pattern.
    pub graph: Graph,
    /// Volume of each edge {i, j}, i < j (0-based): the larger of |a_ij|
    /// and |a_ji| (1 for a pattern matrix), in (i, j) order.
    pub volumes: Vec<((u32, u32), f64)>,
    /// The file gives values (not a pattern).
    pub has_values: bool,
}

/// An entry's magnitude as a whole volume: rounded, and at least 1 (a
/// stored entry is a message, even one whose value rounds to 0).
fn as_volume(x: f64) -> u64 {
    (x.abs().round() as u64).max(1)
}

/// True when `path` names a Matrix Market file (`.mtx`).
pub fn is_matrix_market(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("mtx")
}

/// Reads a Matrix Market coordinate matrix as a graph (module docs).
pub fn read_matrix_market(path: &Path) -> Result<MatrixGraph> {
    parse_matrix_market(path, &read_text(path)?)
}

/// [`read_matrix_market`] on text already read; `path` names it in errors.
pub fn parse_matrix_market(path: &Path, text: &str) -> Result<MatrixGraph> {
    let at =
        |line: usize, message: String| Error::File(format!("{}:{line}: {message}", path.display()));
    let mut lines = text.lines().enumerate().map(|(k, l)| (k + 1, l.trim()));
    let (_, banner) = lines
        .next()
        .ok_or_else(|| Error::File(format!("{}: empty file", path.display())))?;
    let words: Vec<String> = banner
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    if words.first().map(String::as_str) != Some("%%matrixmarket") || words.len() != 5 {
        return Err(at(
            1,
            "a Matrix Market file starts with '%%MatrixMarket matrix coordinate FIELD SYMMETRY'"
                .into(),
        ));
    }
    if words[1] != "matrix" || words[2] != "coordinate" {
        return Err(at(
            1,
            format!(
                "'{} {}': only sparse matrices ('matrix coordinate') describe a graph",
                words[1], words[2]
            ),
        ));
    }
    let has_values = match words[3].as_str() {
        "real" | "double" | "integer" => true,
        "pattern" => false,
        other => {
            return Err(at(
                1,
                format!("field '{other}': volumes are real, double, integer or pattern"),
            ))
        }
    };
    let one_triangle = match words[4].as_str() {
        "general" => false,
        "symmetric" | "skew-symmetric" | "hermitian" => true,
        other => {
            return Err(at(
                1,
                format!("symmetry '{other}' is not a Matrix Market symmetry"),
            ))
        }
    };
    let mut body = lines.filter(|(_, l)| !l.is_empty() && !l.starts_with('%'));
    let (size_line, size) = body
        .next()
        .ok_or_else(|| Error::File(format!("{}: no size line 'M N NNZ'", path.display())))?;
    let dims: Vec<u64> = size
        .split_whitespace()
        .map(|t| {
            t.parse()
                .map_err(|_| at(size_line, format!("'{t}' is not a whole number")))
        })
        .collect::<Result<_>>()?;
    let [rows, cols, entries] = dims[..] else {
        return Err(at(size_line, "the size line is 'M N NNZ'".into()));
    };
    if rows != cols {
        return Err(at(
            size_line,
            format!("the matrix is {rows} x {cols}; a graph needs a square matrix"),
        ));
    }
    if rows == 0 || rows > MAX_VERTICES {
        return Err(at(
            size_line,
            format!("{rows} rows: a graph needs 1 to {MAX_VERTICES}"),
        ));
    }
    let mut volumes: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    let mut seen = 0u64;
    for (line, l) in body {
        seen += 1;
        if seen > entries {
            return Err(at(
                line,
                format!("more entries than the {entries} the size line announces"),
            ));
        }
        let parts: Vec<&str> = l.split_whitespace().collect();
        let want = 2 + usize::from(has_values);
        if parts.len() != want {
            return Err(at(
                line,
                format!(
                    "an entry has {want} numbers ('i j{}'), this line {}",
                    if has_values { " value" } else { "" },
                    parts.len()
                ),
            ));
        }
        let index = |t: &str| -> Result<u64> {
            match t.parse::<u64>() {
                Ok(i) if (1..=rows).contains(&i) => Ok(i - 1),
                _ => Err(at(
                    line,
                    format!("'{t}' is not a row or column in 1..{rows}"),
                )),
            }
        };
        let (i, j) = (index(parts[0])?, index(parts[1])?);
        let value = if has_values {
            match parts[2].parse::<f64>() {
                Ok(v) if v.is_finite() => v.abs(),
                _ => return Err(at(line, format!("'{}' is not a finite number", parts[2]))),
            }
        } else {
            1.0
        };
        if one_triangle && j > i {
            return Err(at(
                line,
                format!("entry ({}, {}) is above the diagonal of a {} matrix, which stores the lower triangle", i + 1, j + 1, words[4]),
            ));
        }
        if i == j {
            continue;
        }
        let key = (i.min(j) as u32, i.max(j) as u32);
        let v = volumes.entry(key).or_insert(0.0);
        *v = v.max(value);
    }
    if seen != entries {
        return Err(Error::File(format!(
            "{}: the size line announces {entries} entries but the file has {seen}",
            path.display()
        )));
    }
    let graph = symmetrised(Spec::Graph(path.to_path_buf()), rows, &volumes, has_values)?;
    Ok(MatrixGraph {
        graph,
        volumes: volumes.into_iter().collect(),
        has_values,
    })
}

/// The graph of a square matrix's symmetrised off-diagonal pattern, from its
/// entries (row, column, value), 0-based: an entry joins row and column, the
/// diagonal is dropped, and an edge's volume is the larger magnitude of its
/// two entries, rounded and at least 1 (every edge 1 when `values` is
/// false). What `graph:FILE.mtx` reads, for matrices held in memory (the
/// Python package's scipy.sparse guests).
pub fn matrix_graph(
    spec: Spec,
    rows: u64,
    entries: impl IntoIterator<Item = (u64, u64, f64)>,
    values: bool,
) -> Result<Graph> {
    if rows == 0 || rows > MAX_VERTICES {
        return Err(Error::Mismatch(format!(
            "{spec}: {rows} rows; a graph needs 1 to {MAX_VERTICES}"
        )));
    }
    let mut volumes: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    for (i, j, value) in entries {
        if i >= rows || j >= rows {
            return Err(Error::Mismatch(format!(
                "{spec}: entry ({i}, {j}) lies outside the {rows} x {rows} matrix"
            )));
        }
        if !value.is_finite() {
            return Err(Error::Mismatch(format!(
                "{spec}: entry ({i}, {j}) is {value}; volumes are finite numbers"
            )));
        }
        if i != j {
            let v = volumes
                .entry((i.min(j) as u32, i.max(j) as u32))
                .or_insert(0.0);
            *v = v.max(value.abs());
        }
    }
    symmetrised(spec, rows, &volumes, values)
}

/// The graph of the merged off-diagonal entries `volumes` ({i, j}, i < j).
fn symmetrised(
    spec: Spec,
    rows: u64,
    volumes: &BTreeMap<(u32, u32), f64>,
    has_values: bool,
) -> Result<Graph> {
    let edges: Vec<(u64, u64)> = volumes
        .keys()
        .map(|&(a, b)| (u64::from(a), u64::from(b)))
        .collect();
    let mut graph = Graph::from_edges(spec, rows, &edges)?;
    if has_values {
        graph = graph.with_volumes(|u, v| {
            let key = (u.min(v) as u32, u.max(v) as u32);
            volumes.get(&key).map_or(1, |&x| as_volume(x))
        });
    }
    Ok(graph)
}

/// Writes `topology` as a symmetric Matrix Market matrix: its lower
/// triangle, one entry per edge, the volume as the value (`integer`), or
/// `pattern` when it has no volumes. Loads have no place in the format and
/// are refused rather than dropped.
pub fn write_matrix_market(topology: &dyn Topology, out: &mut dyn Write) -> Result<()> {
    let n = super::grf::writable(topology)?;
    if (0..n).any(|v| topology.load(v) != 1) {
        return Err(Error::Parameter(format!(
            "{} has node loads, which a Matrix Market file cannot hold; write METIS or Scotch .grf",
            topology.spec()
        )));
    }
    let values = topology.as_graph().is_some_and(|g| g.volumes().is_some());
    let io = |e: std::io::Error| Error::File(format!("cannot write the matrix: {e}"));
    let field = if values { "integer" } else { "pattern" };
    writeln!(out, "%%MatrixMarket matrix coordinate {field} symmetric").map_err(io)?;
    writeln!(out, "{n} {n} {}", topology.edge_count()).map_err(io)?;
    for v in 0..n {
        for (w, volume) in super::grf::weighted_neighbors(topology, v) {
            if w < v {
                match values {
                    true => writeln!(out, "{} {} {volume}", v + 1, w + 1),
                    false => writeln!(out, "{} {}", v + 1, w + 1),
                }
                .map_err(io)?;
            }
        }
    }
    Ok(())
}
