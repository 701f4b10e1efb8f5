//! Renumbering a scattered guest (Cuthill & McKee's breadth-first order,
//! without their degree sort): refinement reads the placement of every
//! neighbour of every vertex it rates, and where the guest's own numbering
//! sends neighbours to random places (a shuffled mesh) each read misses the
//! cache. A shuffled 10^6-vertex 7-point stencil onto torus:16x16x16 took
//! 21.2 s on one thread in its own order and 17.9 s renumbered (12.9 and
//! 11.3 s on two; medians of 3, interleaved), for 120 MB more (the
//! renumbered copy of the graph).

use rayon::prelude::*;

use super::graph::WGraph;
use crate::prefetch::prefetch;

/// Vertices whose placements fill a megabyte as refinement keeps them (4
/// bytes each): edges spanning more in number send the reads of a vertex's
/// neighbours out of a core's cache.
pub const NEAR: u64 = 1 << 18;

/// A numbering of the guest's vertices: vertex `order[i]` is vertex i, and
/// `rank[v]` is v's new number.
pub struct Renumbering {
    order: Vec<u32>,
    rank: Vec<u32>,
}

impl Renumbering {
    /// The breadth-first order of a guest whose own numbering scatters
    /// neighbours: at least a quarter of its edges span more than [`NEAR`]
    /// in number, and four times the share they span in breadth-first order.
    /// None for every other guest (mdual's 2.6·10^5 vertices fit within
    /// [`NEAR`] whatever their order, and renumbering them gained nothing).
    pub fn of_scattered(g: &WGraph) -> Option<Renumbering> {
        if g.n() as u64 <= NEAR {
            return None;
        }
        let given = far_share(g, None, NEAR);
        if given < 0.25 {
            return None;
        }
        let renumbering = Renumbering::breadth_first(g);
        let ranked = far_share(g, Some(&renumbering.rank), NEAR);
        (given >= 4.0 * ranked).then_some(renumbering)
    }

    /// The vertices in breadth-first order from vertex 0 (each further
    /// component from its least vertex).
    pub fn breadth_first(g: &WGraph) -> Renumbering {
        let n = g.n();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut head = order.len();
            order.push(root as u32);
            // The vertices to come have their rows asked for ahead
            // ([`prefetch`]; a shuffled guest's rows lie anywhere): the
            // shuffled 10^6-vertex stencil's order 85–117 → 45–53 ms.
            while head < order.len() {
                if let Some(&ahead) = order.get(head + 16) {
                    prefetch(&g.xadj[ahead as usize]);
                }
                if let Some(&ahead) = order.get(head + 8) {
                    g.prefetch_row(ahead as usize);
                }
                let v = order[head] as usize;
                head += 1;
                for (u, _) in g.edges(v) {
                    if !seen[u] {
                        seen[u] = true;
                        order.push(u as u32);
                    }
                }
            }
        }
        let mut rank = vec![0u32; n];
        for (i, &v) in order.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        Renumbering { order, rank }
    }

    /// `g` with its vertices renumbered.
    pub fn graph(&self, g: &WGraph) -> WGraph {
        g.renumbered(&self.order, &self.rank)
    }

    /// A value per vertex of the guest, in the new numbering.
    pub fn forward<T: Copy>(&self, per_vertex: &[T]) -> Vec<T> {
        self.order.iter().map(|&v| per_vertex[v as usize]).collect()
    }

    /// A value per vertex of the renumbered guest, in the guest's numbering.
    pub fn back<T: Copy>(&self, per_vertex: &[T]) -> Vec<T> {
        self.rank.iter().map(|&i| per_vertex[i as usize]).collect()
    }

    /// The guest's number of the renumbered guest's vertex `i`.
    pub fn original(&self, i: u32) -> u32 {
        self.order[i as usize]
    }
}

/// The share of edge entries whose ends lie more than `window` apart in
/// number under `rank` (None: the graph's own numbering).
pub fn far_share(g: &WGraph, rank: Option<&[u32]>, window: u64) -> f64 {
    let number = |v: usize| rank.map_or(v as u64, |r| u64::from(r[v]));
    let far: usize = (0..g.n())
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|v| {
            g.edges(v)
                .filter(|&(u, _)| number(u).abs_diff(number(v)) > window)
                .count()
        })
        .sum();
    far as f64 / g.adj.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::rng::Rng;
    use crate::topology;

    /// mesh:30x20 with its vertices shuffled.
    fn shuffled_mesh() -> (WGraph, Vec<u32>) {
        let mesh = WGraph::from_topology(topology::parse("mesh:30x20").unwrap().as_ref()).unwrap();
        let shuffle = Rng::new(3, 0).permutation(mesh.n());
        let mut rank = vec![0u32; mesh.n()];
        for (i, &v) in shuffle.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        (mesh.renumbered(&shuffle, &rank), shuffle)
    }

    /// The renumbered graph, copied in parallel chunks, is the one a single
    /// pass builds: row i is row order[i] with every neighbour renamed, in
    /// the same order, on any number of threads (a mesh of several chunks).
    #[test]
    fn a_renumbered_graph_is_copied_row_by_row_on_any_thread_count() {
        let mesh = WGraph::from_topology(topology::parse("mesh:100x90").unwrap().as_ref()).unwrap();
        let order = Rng::new(9, 0).permutation(mesh.n());
        let mut rank = vec![0u32; mesh.n()];
        for (i, &v) in order.iter().enumerate() {
            rank[v as usize] = i as u32;
        }
        let mut want = WGraph {
            xadj: vec![0],
            ..WGraph::default()
        };
        for &v in &order {
            for (u, w) in mesh.edges(v as usize) {
                want.adj.push(rank[u]);
                want.ew.push(w + u as u64);
            }
            want.xadj.push(want.adj.len());
            want.vw.push(mesh.vw[v as usize] + u64::from(v));
        }
        // Volumes and loads told apart per entry and vertex.
        let mut g = mesh.clone();
        for v in 0..g.n() {
            g.vw[v] += v as u64;
            for k in g.xadj[v]..g.xadj[v + 1] {
                g.ew[k] += u64::from(g.adj[k]);
            }
        }
        for threads in [1, 3] {
            let got = crate::mapper::on_threads(threads, || g.renumbered(&order, &rank));
            assert_eq!(
                (&got.xadj, &got.adj, &got.ew, &got.vw),
                (&want.xadj, &want.adj, &want.ew, &want.vw),
                "{threads} threads"
            );
        }
    }

    /// Breadth-first order is an order of every vertex, `back` undoes
    /// `forward`, and the renumbered graph has the same edges, volumes and
    /// loads under the new numbers.
    #[test]
    fn renumbering_keeps_the_graph() {
        let (g, _) = shuffled_mesh();
        let r = Renumbering::breadth_first(&g);
        let mut seen = r.order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..g.n() as u32).collect::<Vec<_>>());
        let loads: Vec<u64> = (0..g.n() as u64).collect();
        assert_eq!(r.back(&r.forward(&loads)), loads);
        let h = r.graph(&g);
        assert_eq!(h.adj.len(), g.adj.len());
        for v in 0..g.n() {
            let i = r.rank[v] as usize;
            assert_eq!(r.original(i as u32) as usize, v);
            assert_eq!(h.vw[i], g.vw[v]);
            let mut mine: Vec<(usize, u64)> =
                g.edges(v).map(|(u, w)| (r.rank[u] as usize, w)).collect();
            let mut theirs: Vec<(usize, u64)> = h.edges(i).collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(mine, theirs, "vertex {v}");
        }
    }

    /// A shuffled mesh's edges span far, breadth-first order brings them
    /// within a few rows; a graph below [`NEAR`] vertices is never
    /// renumbered.
    #[test]
    fn shuffled_numbering_is_far_and_breadth_first_is_near() {
        let (g, _) = shuffled_mesh();
        let r = Renumbering::breadth_first(&g);
        assert!(far_share(&g, None, 40) > 0.8, "{}", far_share(&g, None, 40));
        assert_eq!(far_share(&g, Some(&r.rank), 40), 0.0);
        assert!(Renumbering::of_scattered(&g).is_none());
    }
}
