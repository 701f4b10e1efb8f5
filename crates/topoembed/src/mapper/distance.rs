//! Host distances as the mapper asks for them: millions of pairs from
//! changing sources. Implicit hosts answer in closed form; a stored host
//! graph is measured once into a table (a BFS per node) so no query runs a
//! search.

use rayon::prelude::*;

use super::coords::{Coords, Differences};
use crate::error::{Error, Result};
use crate::routing::TieRule;
use crate::topology::{Paths, Topology};

/// Largest stored host given a distance table (8192² entries: 64 MiB in
/// bytes, 128 MiB where a distance passes 255).
pub const MAX_TABLE_NODES: u64 = 8192;
/// Largest implicit host tabulated too (4096² entries: 16 MiB in bytes), since a
/// table lookup beats the closed forms' divisions in the local search's
/// millions of queries.
const MAX_IMPLICIT_TABLE_NODES: u64 = 4096;
/// Largest grid or hypercube host tabulated by pairs where its coordinates
/// do not pack for [`Differences`] (from [`MIN_DIFFERENCE_NODES`] nodes
/// they are used where they do): above, distances come from each node's
/// coordinates ([`Coords`]), which stay in the cache where the table does
/// not. The whole map on one thread, the same placements
/// (minimum of 3 or 4 runs): delaunay_n15's 4096-part quotient onto
/// torus:16x16x16 (a 16 MiB table) 2.09 s → 1.49 s (1.27 s once the
/// annealing read them inline, [`HostDistance::coords`]), delaunay_n15 onto
/// torus:64x128 (8192 nodes: no table, the grid's divisions before) 5.36 s
/// → 4.83 s; at 2048 nodes the 4 MiB table was 5–10 % faster (delaunay_n15
/// onto torus:16x16x8 and cube:11, 4elt onto torus:32x64), at 1024 (1 MiB)
/// more (the 1024-part quotient onto torus:32x32: 0.81 s, and 0.95 s with
/// coordinates in its annealing).
const MAX_GRID_TABLE_NODES: u64 = 2048;
/// Fewest nodes of a grid host whose distances come from [`Differences`]
/// (where its coordinates pack into 16 bits) rather than a table by pairs
/// or coordinates: from 1024 nodes the table by pairs (1 MiB and more)
/// leaves the cache the differences' table (4–32 KiB) stays in. The whole
/// map on one thread, CPU time, medians of 4 alternating, the same
/// placements (2026-12-01): delaunay_n15 onto torus:16x16x8 (2048 nodes)
/// 2.05 s against 2.58 s with the table, 4elt onto torus:32x64 2.04 against
/// 2.27 s, delaunay_n15 onto torus:16x16x4 (1024) 1.46 against 1.52 s, its
/// 1024-part quotient onto torus:32x32 0.92 against 0.93 s; at 512 and 256
/// nodes the table by pairs (256 and 64 KiB) was as fast or 3–5 % faster
/// (4elt and rgg_n_2_15_s0 onto torus:8x8x8, delaunay_n15 and its 256-part
/// quotient onto torus:16x16), so it stays there. Above 2048 nodes they
/// replace the coordinates' turn per axis: delaunay_n15's 4096-part
/// quotient onto torus:16x16x16, whose map is nearly all annealing, 1.56 s
/// against 1.77 s; the 10^6-vertex stencil onto it, nearly all
/// refinement, 30.8 s against 32.1 s, within this machine's noise
/// (medians of 5 and 4).
const MIN_DIFFERENCE_NODES: u64 = 1024;

/// Distances between host nodes.
pub struct HostDistance<'a> {
    host: &'a dyn Topology,
    source: Source,
}

/// Where the distances come from.
enum Source {
    /// A table of `.0` nodes a row.
    Table(usize, Table),
    /// The nodes' coordinates.
    Coords(Coords),
    /// The nodes' packed coordinates and a table by their differences.
    Differences(Differences),
    /// The host itself, pair by pair.
    Host,
}

/// A row-major distance table: one byte an entry where every distance is
/// below 256 (tori, meshes and hierarchies of this size all are), two
/// otherwise. The refinement and the annealing read it at random, and
/// bytes take half the cache: the whole map of delaunay_n15's 4096-part
/// quotient onto torus:16x16x16 (a 16 MiB table instead of 32) took 1.49 s
/// on one thread where it took 1.85 (medians of 3, the same placement),
/// its 1024-part one onto torus:32x32 0.57 s for 0.59; hosts of 512 nodes
/// and fewer, whose two-byte tables fit the cache already, gained nothing.
enum Table {
    Bytes(Vec<u8>),
    Words(Vec<u16>),
}

impl Table {
    /// The narrowest table that holds `words`, checked and narrowed on
    /// the thread pool (on one thread, a 4096-node table took 0.04 s
    /// whatever the thread count).
    fn of(words: Vec<u16>) -> Table {
        match words.par_iter().all(|&d| d <= u16::from(u8::MAX)) {
            true => Table::Bytes(words.par_iter().map(|&d| d as u8).collect()),
            false => Table::Words(words),
        }
    }
}

/// The `n` rows `row(0..n)` joined, each built on the thread pool.
fn parallel_rows<T: Copy + Default + Send>(n: u64, row: impl Fn(u64) -> Vec<T> + Sync) -> Vec<T> {
    let width = n as usize;
    let mut table = vec![T::default(); width * width];
    table
        .par_chunks_mut(width.max(1))
        .enumerate()
        .for_each(|(a, out)| out.copy_from_slice(&row(a as u64)));
    table
}

/// The distances from one host node ([`HostDistance::row`]).
#[derive(Clone, Copy)]
pub enum Row<'t> {
    /// A row of a table of bytes.
    Bytes(&'t [u8]),
    /// A row of a table of two-byte words.
    Words(&'t [u16]),
    /// Coordinate differences ([`Differences`]): the node's packed
    /// coordinates, guard bits set, read once for the row.
    Differences(&'t Differences, u32),
    /// No table: each distance asked of the source, from this node.
    Pairs(&'t HostDistance<'t>, u64),
}

impl Row<'_> {
    /// Distance to host node `b`.
    #[inline]
    pub fn d(&self, b: u64) -> u64 {
        match *self {
            Row::Bytes(r) => u64::from(r[b as usize]),
            Row::Words(r) => u64::from(r[b as usize]),
            Row::Differences(diff, source) => diff.from(source, b),
            Row::Pairs(dist, a) => dist.d(a, b),
        }
    }

    /// Σ volume × distance over `around`'s (host node, volume) pairs,
    /// exact: the source matched once for the whole sum, each product a
    /// widening 64 × 64-bit multiplication. (A k-way gain is such a sum per
    /// target; matched per read and multiplied in i128 it was a fifth of
    /// copter2's whole map onto torus:16x16.)
    #[inline]
    pub fn weighted(&self, around: &[(u32, u64)]) -> u128 {
        fn sum(around: &[(u32, u64)], d: impl Fn(u32) -> u64) -> u128 {
            around
                .iter()
                .map(|&(h, w)| u128::from(w) * u128::from(d(h)))
                .sum()
        }
        match *self {
            Row::Bytes(r) => sum(around, |h| u64::from(r[h as usize])),
            Row::Words(r) => sum(around, |h| u64::from(r[h as usize])),
            Row::Differences(diff, source) => sum(around, |h| diff.from(source, u64::from(h))),
            Row::Pairs(dist, a) => sum(around, |h| dist.d(a, u64::from(h))),
        }
    }
}

/// The distance table as [`HostDistance::table`] lends it.
#[derive(Clone, Copy)]
pub enum TableRef<'t> {
    /// Every distance below 256.
    Bytes(&'t [u8]),
    /// Distances up to 65 535.
    Words(&'t [u16]),
}

impl<'a> HostDistance<'a> {
    /// Wraps `host`, tabulating a stored graph's distances.
    pub fn new(host: &'a dyn Topology) -> Result<HostDistance<'a>> {
        let Some(graph) = host.as_graph() else {
            let n = host.node_count();
            let from = |source| Ok(HostDistance { host, source });
            if n >= MIN_DIFFERENCE_NODES {
                if let Some(diff) = Differences::of(host) {
                    return from(Source::Differences(diff));
                }
            }
            if n > MAX_GRID_TABLE_NODES {
                if let Some(coords) = Coords::of(host) {
                    return from(Source::Coords(coords));
                }
            }
            if n > MAX_IMPLICIT_TABLE_NODES {
                return from(Source::Host);
            }
            // Row by row in parallel, each into its place.
            let words = parallel_rows(n, |a| {
                (0..n)
                    .map(|b| u16::try_from(host.distance(a, b)).unwrap_or(u16::MAX))
                    .collect()
            });
            if words.par_iter().any(|&d| d == u16::MAX) {
                return from(Source::Host);
            }
            return from(Source::Table(n as usize, Table::of(words)));
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
                    if row.reached(t) {
                        return Err(Error::Parameter(format!(
                            "{}: host node {s} to {t} costs 2^64 or more; the mapper's distance \
                             table holds costs up to 65535",
                            host.spec()
                        )));
                    }
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
            source: Source::Table(n as usize, Table::of(table)),
        })
    }

    /// Distance between host nodes `a` and `b`.
    #[inline]
    pub fn d(&self, a: u64, b: u64) -> u64 {
        match &self.source {
            Source::Table(n, Table::Bytes(t)) => u64::from(t[a as usize * n + b as usize]),
            Source::Table(n, Table::Words(t)) => u64::from(t[a as usize * n + b as usize]),
            Source::Coords(coords) => coords.d(a, b),
            Source::Differences(diff) => diff.d(a, b),
            Source::Host => self.host.distance(a, b),
        }
    }

    /// The distances from host node `a` to every node, read as one row of
    /// the table where there is one: a gain summed over a vertex's
    /// neighbours reads one row many times, and a row spares each read the
    /// source's dispatch and the row's multiplication.
    #[inline]
    pub fn row(&self, a: u64) -> Row<'_> {
        match &self.source {
            Source::Table(n, Table::Bytes(t)) => {
                let start = a as usize * n;
                Row::Bytes(&t[start..start + n])
            }
            Source::Table(n, Table::Words(t)) => {
                let start = a as usize * n;
                Row::Words(&t[start..start + n])
            }
            // (The 10^6-vertex stencil onto torus:16x16x16: a twenty-fifth
            // of the map's CPU time went to asking the source pair by pair.)
            Source::Differences(diff) => Row::Differences(diff, diff.source(a)),
            _ => Row::Pairs(self, a),
        }
    }

    /// The nodes' coordinates, where distances come from them (no table).
    pub(crate) fn coords(&self) -> Option<&Coords> {
        match &self.source {
            Source::Coords(coords) => Some(coords),
            _ => None,
        }
    }

    /// The distances by coordinate differences, where they come from them.
    pub(crate) fn differences(&self) -> Option<&Differences> {
        match &self.source {
            Source::Differences(diff) => Some(diff),
            _ => None,
        }
    }

    /// The distance table, when there is one: (nodes, row-major distances;
    /// a to b at `a × nodes + b`).
    pub fn table(&self) -> Option<(usize, TableRef<'_>)> {
        match &self.source {
            Source::Table(n, Table::Bytes(t)) => Some((*n, TableRef::Bytes(t))),
            Source::Table(n, Table::Words(t)) => Some((*n, TableRef::Words(t))),
            _ => None,
        }
    }

    /// Appends the route from `a` to `b` under the host's own model with
    /// ties broken toward increasing coordinates — the routes the traffic
    /// metrics count by default. A stored graph's route (the lowest-numbered
    /// neighbour one hop closer, [`Topology::route`]) is walked on the table
    /// here, not by a BFS per destination; one with link costs searches
    /// from each destination (its table lacks the hop counts that break
    /// ties among cheapest paths).
    pub fn route(&self, a: u64, b: u64, path: &mut Vec<u64>) {
        match (self.host.as_graph(), &self.source) {
            (Some(graph), Source::Table(..)) if graph.volumes().is_none() => {
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

    /// Whether distinct host nodes are known to be at least 1 apart: hops
    /// on a grid-shaped host (ring, line, torus, mesh, cube) or a stored
    /// graph without link costs. Then hop-bytes are at least the volume
    /// cut, and a placement with every cut edge one hop long has no shorter
    /// edge to find.
    pub fn at_least_a_hop_apart(&self) -> bool {
        self.host.spec().is_grid() || self.host.as_graph().is_some_and(|g| g.volumes().is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;

    /// Tables narrow to bytes exactly when every distance is below 256,
    /// and either answers as the host does: a torus and a line of 256 nodes
    /// (diameter 255: bytes), a line of 257 (256: two bytes), a host too
    /// large to tabulate, grids of 1024 nodes and more whose coordinates
    /// pack into 16 bits (differences of coordinates), other grids and
    /// cubes above 2048 nodes (coordinates), a line of 1024 (a table: its
    /// distances pass a byte) and a hierarchy of 2048 nodes (a table);
    /// each source's rows ([`HostDistance::row`]) read the same.
    #[test]
    fn tables_take_bytes_below_256_and_answer_as_the_host() {
        for (spec, bytes, differences) in [
            ("torus:8x8x8", Some(true), false),
            ("torus:16x8x4", Some(true), false),
            ("torus:32x32", None, true),
            ("torus:16x16x8", None, true),
            ("line:1024", Some(false), false),
            ("line:256", Some(true), false),
            ("line:257", Some(false), false),
            ("torus:64x128", None, true),
            ("torus:16x16x16", None, true),
            ("mesh:16x16x9", None, true),
            ("torus:8x8x8x8", None, true),
            ("torus:32x32x4x2", None, false),
            ("cube:12", None, false),
            ("cube:11", Some(true), false),
            ("tleaf:8x8x32:100,10,1", Some(true), false),
        ] {
            let host = topology::parse(spec).unwrap();
            let dist = HostDistance::new(host.as_ref()).unwrap();
            let kind = dist.table().map(|(_, t)| matches!(t, TableRef::Bytes(_)));
            assert_eq!(kind, bytes, "{spec}");
            assert_eq!(dist.differences().is_some(), differences, "{spec}");
            let n = host.node_count();
            for a in (0..n).step_by(7) {
                let row = dist.row(a);
                for b in 0..n {
                    assert_eq!(dist.d(a, b), host.distance(a, b), "{spec}: {a} -> {b}");
                    assert_eq!(row.d(b), host.distance(a, b), "{spec}: row {a}, {b}");
                }
                // A weighted sum over the row, volumes past 64 bits of
                // product included, is the sum of its terms.
                let around: Vec<(u32, u64)> = (0..n)
                    .step_by(5)
                    .map(|b| (b as u32, u64::MAX - b * 977))
                    .collect();
                let terms: u128 = around
                    .iter()
                    .map(|&(b, w)| u128::from(w) * u128::from(host.distance(a, u64::from(b))))
                    .sum();
                assert_eq!(row.weighted(&around), terms, "{spec}: weighted row {a}");
            }
        }
    }
}
