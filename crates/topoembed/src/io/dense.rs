//! Dense communication matrices (`graph:FILE.mat`, or any graph file whose
//! first row has more than three numbers): N rows of N whitespace-separated
//! numbers, row i what rank i sent each rank (bytes or messages) — as
//! TreeMatch's `mapping -c` reads them, EZTrace writes
//! `communication_matrix_*.dat`, and Open MPI's monitoring writes
//! `monitoring_*.mat` (its matrices symmetrised as (a_ij + a_ji)/2).
//!
//! The guest has N nodes, one per rank (a rank that talks to nobody is an
//! isolated node), and an edge {i, j} wherever a_ij + a_ji > 0, its volume
//! that sum rounded (at least 1): the bytes i sent j plus those j sent i, as
//! a recording's pair volume, whichever of the two forms the file holds
//! (a symmetrised matrix gives back the sum). The diagonal (a rank's
//! messages to itself) never crosses a link and is left out. `#` and `%`
//! start comments.

use std::path::Path;

use super::tokens::read_text;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::Graph;

/// Most ranks a dense matrix may have: its N² numbers are read into memory
/// (65 536² entries are 34 GB of text already).
pub const MAX_DENSE_RANKS: usize = 65_536;

/// A dense matrix as a guest graph.
#[derive(Debug, Clone)]
pub struct DenseMatrix {
    /// One node per row, edges where the pair exchanged anything.
    pub graph: Graph,
    /// N: rows (and columns).
    pub ranks: usize,
    /// Σ_{i≠j} a_ij: everything the off-diagonal entries add up to.
    pub total: f64,
}

/// True when `path` names a dense matrix by its extension (`.mat`).
pub fn is_dense_matrix(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("mat")
}

/// The rows of `text` that hold data: comments cut, blank lines skipped,
/// each with its 1-based line number.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(k, line)| {
        let line = line.split(['#', '%']).next().unwrap_or("").trim();
        (!line.is_empty()).then_some((k + 1, line))
    })
}

/// Whether a graph file without a telling extension holds a dense matrix:
/// its first row has more than three numbers (an edge list has two or
/// three, `u v [volume]`).
pub fn looks_dense(text: &str) -> bool {
    data_lines(text)
        .next()
        .is_some_and(|(_, line)| line.split_whitespace().count() > 3)
}

/// Reads a dense matrix as a guest graph (module docs).
pub fn read_dense_matrix(path: &Path) -> Result<DenseMatrix> {
    parse_dense_matrix(path, &read_text(path)?)
}

/// [`read_dense_matrix`] on text already read; `path` names it in errors.
pub fn parse_dense_matrix(path: &Path, text: &str) -> Result<DenseMatrix> {
    let at =
        |line: usize, message: String| Error::File(format!("{}:{line}: {message}", path.display()));
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut first_line = 0;
    for (line, data) in data_lines(text) {
        let values = data
            .split_whitespace()
            .map(|word| {
                word.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| {
                        at(
                            line,
                            format!(
                                "'{word}' is not a volume (a number of bytes or messages, 0 or more)"
                            ),
                        )
                    })
            })
            .collect::<Result<Vec<f64>>>()?;
        match rows.first() {
            None => {
                first_line = line;
                if values.len() > MAX_DENSE_RANKS {
                    return Err(at(
                        line,
                        format!(
                            "{} columns: a dense matrix takes at most {MAX_DENSE_RANKS} ranks \
                             (write a larger graph as an edge list or METIS)",
                            values.len()
                        ),
                    ));
                }
            }
            Some(first) if first.len() != values.len() => {
                return Err(at(
                    line,
                    format!(
                        "{} numbers here but {} on line {first_line}; a dense matrix has N rows of N numbers",
                        values.len(),
                        first.len()
                    ),
                ));
            }
            Some(first) if rows.len() == first.len() => {
                return Err(at(
                    line,
                    format!(
                        "row {} of a matrix with {} columns; a dense matrix has N rows of N numbers",
                        rows.len() + 1,
                        first.len()
                    ),
                ));
            }
            Some(_) => {}
        }
        rows.push(values);
    }
    let n = rows.len();
    if n == 0 {
        return Err(Error::File(format!(
            "{}: the file has no rows; a dense matrix has N rows of N numbers",
            path.display()
        )));
    }
    if rows[0].len() != n {
        return Err(Error::File(format!(
            "{}: {n} rows of {} numbers; a dense matrix has N rows of N numbers (is the file cut short?)",
            path.display(),
            rows[0].len()
        )));
    }
    let mut edges = Vec::new();
    let mut volumes = Vec::new();
    let mut total = 0.0;
    for (i, row) in rows.iter().enumerate() {
        for (j, &sent) in row.iter().enumerate() {
            if i != j {
                total += sent;
            }
            let both = sent + rows[j][i];
            if j > i && both > 0.0 {
                edges.push((i as u64, j as u64));
                volumes.push((both.round() as u64).max(1));
            }
        }
    }
    let graph = Graph::from_weighted_edges(
        Spec::Graph(path.to_path_buf()),
        n as u64,
        &edges,
        Some(&volumes),
    )
    .map_err(|e| Error::File(e.to_string()))?;
    Ok(DenseMatrix {
        graph,
        ranks: n,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Topology;

    fn parse(text: &str) -> Result<DenseMatrix> {
        parse_dense_matrix(Path::new("m.mat"), text)
    }

    #[test]
    fn pair_volumes_are_both_directions_added() {
        // Rank 0 sends 10 to 1 and 1 sends 4 back; 2 sends 6 to 0; 3 is
        // silent; the diagonal is left out.
        let m = parse("# sent\n5 10 0 0\n4 0 0 0\n6 0 7 0\n0 0 0 0\n").unwrap();
        assert_eq!(
            (m.ranks, m.graph.node_count(), m.graph.edge_count()),
            (4, 4, 2)
        );
        let volume = |u: u64, v: u64| {
            let k = m
                .graph
                .adjacency(u)
                .iter()
                .position(|&w| u64::from(w) == v)?;
            Some(m.graph.adjacency_volumes(u).nth(k).unwrap())
        };
        assert_eq!(
            (volume(0, 1), volume(1, 0), volume(0, 2)),
            (Some(14), Some(14), Some(6))
        );
        assert_eq!(volume(2, 3), None);
        assert_eq!(m.total, 20.0);
        // Symmetrised as Open MPI writes it: the same volumes.
        let s = parse("0 7 3\n7 0 0\n3 0 0\n").unwrap();
        let t = parse("0 10 6\n4 0 0\n0 0 0\n").unwrap();
        assert_eq!(s.graph.volumes(), t.graph.volumes());
    }

    #[test]
    fn malformed_matrices_name_the_line() {
        for (text, says) in [
            (
                "0 1 2\n1 0\n2 0 0\n",
                "m.mat:2: 2 numbers here but 3 on line 1",
            ),
            (
                "0 1\n1 0\n0 0\n",
                "m.mat:3: row 3 of a matrix with 2 columns",
            ),
            ("0 1 2\n1 0 0\n", "m.mat: 2 rows of 3 numbers"),
            ("0 -1\n1 0\n", "m.mat:1: '-1' is not a volume"),
            ("0 x\n1 0\n", "m.mat:1: 'x' is not a volume"),
            ("0 NaN\n1 0\n", "m.mat:1: 'NaN' is not a volume"),
            ("# nothing\n\n", "m.mat: the file has no rows"),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn only_rows_of_more_than_three_numbers_look_dense() {
        assert!(looks_dense("% c\n0 1 2 3\n1 0 0 0\n"));
        assert!(!looks_dense("0 1 5\n1 2 7\n"));
        assert!(!looks_dense("0 1\n"));
        assert!(!looks_dense(""));
    }
}
