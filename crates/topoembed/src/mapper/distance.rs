//! Host distances as the mapper asks for them: millions of pairs from
//! changing sources. Implicit hosts answer in closed form; a stored host
//! graph is measured once into a table (a BFS per node) so no query runs a
//! search.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::routing::TieRule;
use crate::topology::{Paths, Topology};

/// Largest stored host given a distance table (8192² two-byte entries: 128 MiB).
pub const MAX_TABLE_NODES: u64 = 8192;
/// Largest implicit host tabulated too (4096² entries: 32 MiB), since a
/// table lookup beats the closed forms' divisions in the local search's
/// millions of queries.
const MAX_IMPLICIT_TABLE_NODES: u64 = 4096;

/// Distances between host nodes.
pub struct HostDistance<'a> {
    host: &'a dyn Topology,
    table: Option<(usize, Vec<u16>)>,
}

impl<'a> HostDistance<'a> {
    /// Wraps `host`, tabulating a stored graph's distances.
    pub fn new(host: &'a dyn Topology) -> Result<HostDistance<'a>> {
        let Some(graph) = host.as_graph() else {
            let n = host.node_count();
            if n > MAX_IMPLICIT_TABLE_NODES {
                return Ok(HostDistance { host, table: None });
            }
            let rows: Vec<Vec<u16>> = (0..n)
                .into_par_iter()
                .map(|a| {
                    (0..n)
                        .map(|b| u16::try_from(host.distance(a, b)).unwrap_or(u16::MAX))
                        .collect()
                })
                .collect();
            if rows.iter().flatten().any(|&d| d == u16::MAX) {
                return Ok(HostDistance { host, table: None });
            }
            return Ok(HostDistance {
                host,
                table: Some((n as usize, rows.concat())),
            });
        };
        let n = graph.node_count();
        if n > MAX_TABLE_NODES {
            return Err(Error::Parameter(format!(
                "{} has {n} nodes; the mapper tabulates a stored host's distances, up to \
                 {MAX_TABLE_NODES} nodes (use an implicit host spec such as torus:AxB for larger machines)",
                host.spec()
            )));
        }
        let rows: Vec<Paths> = (0..n).into_par_iter().map(|s| graph.paths(s)).collect();
        let mut table = Vec::with_capacity((n * n) as usize);
        for (s, row) in rows.iter().enumerate() {
            for t in 0..n {
                let Some(d) = row.cost(t) else {
                    return Err(Error::Mismatch(format!(
                        "{} is not connected: no path from host node {s} to {t}",
                        host.spec()
                    )));
                };
                table.push(u16::try_from(d).map_err(|_| {
                    Error::Parameter(format!(
                        "{}: host node {s} to {t} costs {d}; the mapper's distance table holds costs up to 65535",
                        host.spec()
                    ))
                })?);
            }
        }
        Ok(HostDistance {
            host,
            table: Some((n as usize, table)),
        })
    }

    /// Distance between host nodes `a` and `b`.
    #[inline]
    pub fn d(&self, a: u64, b: u64) -> u64 {
        match &self.table {
            Some((n, t)) => u64::from(t[a as usize * n + b as usize]),
            None => self.host.distance(a, b),
        }
    }

    /// The distance table, when there is one: (nodes, row-major distances;
    /// a to b at `a × nodes + b`).
    pub fn table(&self) -> Option<(usize, &[u16])> {
        self.table.as_ref().map(|(n, t)| (*n, t.as_slice()))
    }

    /// Appends the route from `a` to `b` under the host's own model with
    /// ties broken toward increasing coordinates — the routes the traffic
    /// metrics count by default. A stored graph's route (the lowest-numbered
    /// neighbour one hop closer, [`Topology::route`]) is walked on the table
    /// here, not by a BFS per destination; one with link costs searches
    /// from each destination (its table lacks the hop counts that break
    /// ties among cheapest paths).
    pub fn route(&self, a: u64, b: u64, path: &mut Vec<u64>) {
        match (self.host.as_graph(), &self.table) {
            (Some(graph), Some(_)) if graph.volumes().is_none() => {
                let mut here = a;
                while here != b {
                    let closer = self.d(here, b) - 1;
                    let Some(&next) = graph
                        .adjacency(here)
                        .iter()
                        .find(|&&w| self.d(u64::from(w), b) == closer)
                    else {
                        return; // a table is only built for a connected host
                    };
                    here = u64::from(next);
                    path.push(here);
                }
            }
            _ => self.host.route(a, b, TieRule::Increasing, path),
        }
    }

    /// The host.
    pub fn host(&self) -> &'a dyn Topology {
        self.host
    }
}
