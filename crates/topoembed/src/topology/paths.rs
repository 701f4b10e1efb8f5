//! Shortest paths in a stored graph seen as a machine. A graph without
//! volumes has unit links (breadth-first search); a graph with volumes, as
//! a *host*, takes them as link costs, the way Scotch's weighted target
//! graphs do: the distance between two nodes is the cheapest path's cost
//! (Dijkstra), and among the cheapest paths routes take the fewest links,
//! then the lowest-numbered next node. Costs of 0 are allowed: the hop
//! count keeps every route finite.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Graph, Topology};

/// Distances from one source (or to one destination: links are undirected).
#[derive(Debug, Clone)]
pub enum Paths {
    /// Unit links: hops per node, `u32::MAX` where unreachable.
    Hops(Vec<u32>),
    /// Link costs: (cost, hops) per node, lexicographically least;
    /// `(u64::MAX, u32::MAX)` where unreachable.
    Costs(Vec<(u64, u32)>),
}

impl Paths {
    /// From `source` in `graph`.
    pub fn from(graph: &Graph, source: u64) -> Paths {
        match graph.volumes() {
            None => Paths::Hops(graph.bfs(source)),
            Some(costs) => Paths::Costs(dijkstra(graph, costs, source)),
        }
    }

    /// Cost of the cheapest path to `v` (hops on unit links), `None` when
    /// unreachable.
    pub fn cost(&self, v: u64) -> Option<u64> {
        match self {
            Paths::Hops(d) => Some(d[v as usize])
                .filter(|&x| x != u32::MAX)
                .map(u64::from),
            Paths::Costs(d) => Some(d[v as usize].0).filter(|&x| x != u64::MAX),
        }
    }

    /// Whether `v` is reached at all, though the cost of the way there may
    /// overflow (links of costs near 2^64 summed): [`Paths::cost`] is then
    /// `None` for a node that is connected.
    pub fn reached(&self, v: u64) -> bool {
        match self {
            Paths::Hops(d) => d[v as usize] != u32::MAX,
            Paths::Costs(d) => d[v as usize].1 != u32::MAX,
        }
    }

    /// The largest cost from the source; `u64::MAX` when a node is
    /// unreachable (as [`Topology::distance`] says of such a pair).
    pub fn eccentricity(&self) -> u64 {
        match self {
            Paths::Hops(d) => d.iter().max().map_or(0, |&x| match x {
                u32::MAX => u64::MAX,
                x => u64::from(x),
            }),
            Paths::Costs(d) => d.iter().map(|x| x.0).max().unwrap_or(0),
        }
    }

    /// The next node from `here` toward the source of these paths: the
    /// lowest-numbered neighbour on a cheapest, then shortest, path.
    pub fn next(&self, graph: &Graph, here: u64) -> Option<u64> {
        let r =
            graph.offsets()[here as usize] as usize..graph.offsets()[here as usize + 1] as usize;
        let adjacency = graph.adjacency(here);
        let found = match self {
            Paths::Hops(d) => {
                let closer = d[here as usize].wrapping_sub(1);
                adjacency.iter().position(|&w| d[w as usize] == closer)
            }
            Paths::Costs(d) => {
                let (cost, hops) = d[here as usize];
                let costs = &graph.volumes().expect("Costs come from volumes")[r];
                adjacency.iter().zip(costs).position(|(&w, &c)| {
                    let (cw, hw) = d[w as usize];
                    hw != u32::MAX && hw + 1 == hops && cw.checked_add(c) == Some(cost)
                })
            }
        };
        found.map(|k| u64::from(adjacency[k]))
    }
}

/// Dijkstra on (cost, hops) from `source`, `costs` aligned with the CSR.
fn dijkstra(graph: &Graph, costs: &[u64], source: u64) -> Vec<(u64, u32)> {
    let n = graph.node_count() as usize;
    let mut best = vec![(u64::MAX, u32::MAX); n];
    let mut heap = BinaryHeap::new();
    best[source as usize] = (0, 0);
    heap.push(Reverse((0u64, 0u32, source as u32)));
    let offsets = graph.offsets();
    while let Some(Reverse((cost, hops, v))) = heap.pop() {
        if (cost, hops) != best[v as usize] {
            continue;
        }
        let r = offsets[v as usize] as usize..offsets[v as usize + 1] as usize;
        for (&w, &c) in graph.adjacency(u64::from(v)).iter().zip(&costs[r]) {
            let reach = (cost.saturating_add(c), hops + 1);
            if reach < best[w as usize] {
                best[w as usize] = reach;
                heap.push(Reverse((reach.0, reach.1, w)));
            }
        }
    }
    best
}
