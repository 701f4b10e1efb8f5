//! The mapper's working graph: CSR with a volume per entry and a load per
//! vertex, read once from any guest (a stored graph with its weights, or an
//! implicit topology with volume 1 and load 1).

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::prefetch::prefetch;
use crate::topology::{EdgeBuffer, Topology};

/// Most guest nodes the mapper takes (ids are `u32`).
pub const MAX_GUEST_NODES: u64 = u32::MAX as u64 - 1;

/// Visits ahead whose row bounds [`WGraph::prefetch_ahead`] asks for, and
/// whose rows: on mdual's coarsening (258 569, 142 588 and 76 591
/// vertices, one thread) the three top levels' matching took 38–52 ms
/// without, 18–22 ms with 16 and 8 (4 runs each; 32 and 16 ahead 24–29 ms).
pub const BOUNDS_AHEAD: usize = 16;
/// See [`BOUNDS_AHEAD`].
pub const ROW_AHEAD: usize = 8;

/// Undirected weighted graph in CSR form.
#[derive(Debug, Clone, Default)]
pub struct WGraph {
    /// Node v's entries are `xadj[v]..xadj[v + 1]`.
    pub xadj: Vec<usize>,
    /// Neighbour of each entry.
    pub adj: Vec<u32>,
    /// Volume of each entry (both directions of an edge carry the same).
    pub ew: Vec<u64>,
    /// Load of each vertex.
    pub vw: Vec<u64>,
}

impl WGraph {
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.vw.len()
    }

    /// Asks for the first cache lines of `v`'s row, neighbours and volumes
    /// ([`prefetch`]), for a loop that reads rows in an order of its own.
    #[inline(always)]
    pub fn prefetch_row(&self, v: usize) {
        let start = self.xadj[v];
        prefetch(self.adj.as_ptr().wrapping_add(start));
        prefetch(self.ew.as_ptr().wrapping_add(start));
    }

    /// Asks for the lines of the visits to come when the vertices of
    /// `order` are visited in turn and visit `i` begins
    /// ([`prefetch`]): the row bounds and `extra(v)` (a per-vertex array
    /// of the caller's) [`BOUNDS_AHEAD`] visits ahead, the row itself,
    /// whose place those bounds give, [`ROW_AHEAD`] ahead. A random order
    /// misses every cache at every visit on a graph of 10^5 vertices or
    /// more; asked for ahead, the misses overlap.
    #[inline(always)]
    pub fn prefetch_ahead(&self, order: &[u32], i: usize, extra: impl Fn(usize)) {
        if let Some(&v) = order.get(i + BOUNDS_AHEAD) {
            prefetch(self.xadj.as_ptr().wrapping_add(v as usize));
            extra(v as usize);
        }
        if let Some(&v) = order.get(i + ROW_AHEAD) {
            self.prefetch_row(v as usize);
        }
    }

    /// Asks for the rows of all of `vs` at once, to be read one after the
    /// other ([`prefetch`]): first every row's bounds and `extra(v)` (a
    /// per-vertex array of the caller's), then, those bounds on their way,
    /// every row. Read one by one, a few scattered rows (a moved vertex's
    /// neighbours, a swap's partners) each missed the cache in turn; asked
    /// for together, the misses overlap.
    #[inline(always)]
    pub fn prefetch_rows(&self, vs: &[u32], extra: impl Fn(usize)) {
        for &v in vs {
            prefetch(self.xadj.as_ptr().wrapping_add(v as usize));
            extra(v as usize);
        }
        for &v in vs {
            self.prefetch_row(v as usize);
        }
    }

    /// Entries of `v`: (neighbour, volume).
    #[inline]
    pub fn edges(&self, v: usize) -> impl ExactSizeIterator<Item = (usize, u64)> + '_ {
        let r = self.xadj[v]..self.xadj[v + 1];
        self.adj[r.clone()]
            .iter()
            .zip(&self.ew[r])
            .map(|(&u, &w)| (u as usize, w))
    }

    /// The same graph with vertex `order[i]` as vertex i (`rank` the
    /// inverse: `rank[order[i]] = i`). The rows are copied in parallel,
    /// chunk by chunk, each into its own stretch of the new arrays (the
    /// 10^6-vertex stencil: 0.18 s serially, a random read per entry).
    pub fn renumbered(&self, order: &[u32], rank: &[u32]) -> WGraph {
        const CHUNK: usize = 1 << 12;
        let mut xadj = Vec::with_capacity(self.xadj.len());
        xadj.push(0);
        for (i, &v) in order.iter().enumerate() {
            if let Some(&ahead) = order.get(i + 16) {
                prefetch(&self.xadj[ahead as usize]);
            }
            let v = v as usize;
            xadj.push(xadj[xadj.len() - 1] + self.xadj[v + 1] - self.xadj[v]);
        }
        let entries = xadj[xadj.len() - 1];
        let (mut adj, mut ew) = (vec![0u32; entries], vec![0u64; entries]);
        // Each chunk's stretch of `adj` and `ew`.
        let mut stretches = Vec::with_capacity(order.len().div_ceil(CHUNK));
        let (mut adj_rest, mut ew_rest) = (&mut adj[..], &mut ew[..]);
        for first in (0..order.len()).step_by(CHUNK) {
            let last = (first + CHUNK).min(order.len());
            let len = xadj[last] - xadj[first];
            let (a, a_rest) = std::mem::take(&mut adj_rest).split_at_mut(len);
            let (e, e_rest) = std::mem::take(&mut ew_rest).split_at_mut(len);
            (adj_rest, ew_rest) = (a_rest, e_rest);
            stretches.push((a, e));
        }
        order
            .par_chunks(CHUNK)
            .zip(stretches)
            .for_each(|(vertices, (a, e))| {
                let mut k = 0;
                // Rows read in the new order lie anywhere in the old:
                // their lines, and their neighbours' new numbers, asked
                // for ahead ([`prefetch`]; the shuffled 10^6-vertex
                // stencil's copy 90–125 → 60–80 ms on two threads).
                for (j, &v) in vertices.iter().enumerate() {
                    if let Some(&ahead) = vertices.get(j + 16) {
                        prefetch(&self.xadj[ahead as usize]);
                    }
                    if let Some(&ahead) = vertices.get(j + 8) {
                        self.prefetch_row(ahead as usize);
                    }
                    if let Some(&ahead) = vertices.get(j + 4) {
                        for &u in
                            &self.adj[self.xadj[ahead as usize]..self.xadj[ahead as usize + 1]]
                        {
                            prefetch(&rank[u as usize]);
                        }
                    }
                    for (u, w) in self.edges(v as usize) {
                        (a[k], e[k]) = (rank[u], w);
                        k += 1;
                    }
                }
            });
        WGraph {
            xadj,
            adj,
            ew,
            vw: order.par_iter().map(|&v| self.vw[v as usize]).collect(),
        }
    }

    /// The same vertices with only the edges of volume at least `t`.
    pub fn with_edges_at_least(&self, t: u64) -> WGraph {
        let mut out = WGraph {
            xadj: Vec::with_capacity(self.xadj.len()),
            adj: Vec::new(),
            ew: Vec::new(),
            vw: self.vw.clone(),
        };
        out.xadj.push(0);
        for v in 0..self.n() {
            for (u, w) in self.edges(v) {
                if w >= t {
                    out.adj.push(u as u32);
                    out.ew.push(w);
                }
            }
            out.xadj.push(out.adj.len());
        }
        out
    }

    /// Σ load.
    pub fn total_load(&self) -> u64 {
        self.vw.iter().sum()
    }

    /// Builds the working graph of any guest topology.
    pub fn from_topology(guest: &dyn Topology) -> Result<WGraph> {
        let n = guest.node_count();
        if n > MAX_GUEST_NODES {
            return Err(Error::Parameter(format!(
                "{} has {n} nodes; the mapper takes up to {MAX_GUEST_NODES}",
                guest.spec()
            )));
        }
        if let Some(g) = guest.as_graph() {
            // The stored CSR copied whole, in parallel (node by node it was
            // 0.06–0.08 s of one thread on the 10^6-vertex stencil, on any
            // number of threads; now 0.04 s on one and 0.02 s on two).
            let entries = g.targets().len();
            debug_assert_eq!(g.offsets().last().copied(), Some(entries as u64));
            let copy = |stored: Option<&[u64]>, len: usize| match stored {
                Some(values) => values.par_iter().copied().collect(),
                None => (0..len).into_par_iter().map(|_| 1).collect(),
            };
            return Ok(WGraph {
                xadj: g.offsets().par_iter().map(|&o| o as usize).collect(),
                adj: g.targets().par_iter().copied().collect(),
                ew: copy(g.volumes(), entries),
                vw: copy(g.loads(), n as usize),
            });
        }
        let mut degree = vec![0usize; n as usize + 1];
        let mut edges = EdgeBuffer::default();
        guest.push_edges(0..n, &mut edges);
        for k in 0..edges.len() {
            degree[edges.u[k] as usize + 1] += 1;
            degree[edges.v[k] as usize + 1] += 1;
        }
        for k in 1..degree.len() {
            degree[k] += degree[k - 1];
        }
        let xadj = degree;
        let mut fill = xadj.clone();
        let mut adj = vec![0u32; xadj[n as usize]];
        let mut ew = vec![0u64; xadj[n as usize]];
        for k in 0..edges.len() {
            let (u, v, w) = (edges.u[k] as usize, edges.v[k] as usize, edges.volume(k));
            adj[fill[u]] = v as u32;
            ew[fill[u]] = w;
            fill[u] += 1;
            adj[fill[v]] = u as u32;
            ew[fill[v]] = w;
            fill[v] += 1;
        }
        Ok(WGraph {
            xadj,
            adj,
            ew,
            vw: (0..n).map(|v| guest.load(v)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Spec;
    use crate::topology::Graph;

    /// A stored graph's CSR, copied whole, reads as the graph does node by
    /// node: every vertex's neighbours with their volumes (1 where the graph
    /// has none) and its load (1 where it has none), with and without
    /// volumes and loads stored.
    #[test]
    fn a_stored_graph_reads_as_its_nodes_do() {
        let edges: Vec<(u64, u64)> = (0..40u64)
            .flat_map(|v| [(v, (v + 1) % 40), (v, (v * 7 + 3) % 40)])
            .filter(|&(a, b)| a < b)
            .collect();
        let mut unique = edges;
        unique.sort_unstable();
        unique.dedup();
        let plain = Graph::from_edges(Spec::Graph("test".into()), 40, &unique).unwrap();
        let weighted = plain
            .clone()
            .with_volumes(|a, b| 1 + (a * b) % 9)
            .with_loads((0..40).map(|v| 1 + v % 4).collect())
            .unwrap();
        for graph in [plain, weighted] {
            let g = WGraph::from_topology(&graph).unwrap();
            assert_eq!(g.n(), 40);
            for v in 0..40u64 {
                let read: Vec<(usize, u64)> = g.edges(v as usize).collect();
                let stored: Vec<(usize, u64)> = graph
                    .adjacency(v)
                    .iter()
                    .map(|&u| u as usize)
                    .zip(graph.adjacency_volumes(v))
                    .collect();
                assert_eq!(read, stored, "node {v}");
                assert_eq!(g.vw[v as usize], graph.load(v), "node {v}");
            }
        }
    }

    /// The look-ahead names the vertex BOUNDS_AHEAD visits on to the
    /// caller's `extra`, none past the order's end, and asks for every
    /// vertex of a batch at once; an isolated vertex's empty row at the
    /// end of the arrays is asked for without a fault.
    #[test]
    fn prefetches_name_the_visits_to_come_and_stop_at_the_end() {
        let g = WGraph {
            xadj: vec![0, 1, 2, 2],
            adj: vec![1, 0],
            ew: vec![5, 5],
            vw: vec![1, 1, 1],
        };
        let order: Vec<u32> = (0..BOUNDS_AHEAD as u32 + 3).map(|k| k % 3).collect();
        for i in 0..order.len() {
            let named = std::cell::RefCell::new(Vec::new());
            g.prefetch_ahead(&order, i, |v| named.borrow_mut().push(v));
            let want: Vec<usize> = order
                .get(i + BOUNDS_AHEAD)
                .map(|&v| v as usize)
                .into_iter()
                .collect();
            assert_eq!(named.into_inner(), want, "visit {i}");
        }
        let named = std::cell::RefCell::new(Vec::new());
        g.prefetch_rows(&[2, 0, 1], |v| named.borrow_mut().push(v));
        assert_eq!(named.into_inner(), vec![2, 0, 1]);
    }
}
