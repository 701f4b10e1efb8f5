//! A stored graph in compressed sparse row form: `graph:` files, and the
//! explicit form of every implicit topology, which the tests use as the
//! breadth-first-search oracle.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::paths::Paths;
use super::TieRule;
use super::{EdgeBuffer, Topology};
use crate::error::{Error, Result};
use crate::spec::Spec;

/// Largest stored graph: node ids are kept as `u32`.
const MAX_STORED_NODES: u64 = u32::MAX as u64;

/// An edge list takes at most this many nodes per edge, plus
/// [`SPARSE_SLACK`]: its node count is implied by the largest id.
const SPARSE_EDGES: u64 = 4;
/// Nodes an edge list may have beyond [`SPARSE_EDGES`] per edge.
const SPARSE_SLACK: u64 = 1024;
/// Nodes a `# nodes N` line may state beyond [`SPARSE_EDGES`] per edge: a
/// recording of 2^24 ranks of which few talk still reads.
const STATED_SLACK: u64 = 1 << 24;

static NEXT_GRAPH_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The last BFS a thread ran: (graph id, source, distances). Metrics ask for
    /// the distances of all guest edges at one guest node in a row, so one
    /// search serves many queries.
    static LAST_BFS: RefCell<Option<(u64, u64, Paths)>> = const { RefCell::new(None) };
}

/// Undirected simple graph in CSR form, with optional communication
/// volumes on its edges and loads on its nodes (DESIGN.md: volume, load).
#[derive(Debug, Clone)]
pub struct Graph {
    spec: Spec,
    id: u64,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    /// Volume of each CSR entry (both directions of an edge carry the same);
    /// `None`: every edge has volume 1.
    volumes: Option<Vec<u64>>,
    /// Load of each node; `None`: every node has load 1.
    loads: Option<Vec<u64>>,
}

impl Graph {
    /// Builds a graph from an undirected edge list over nodes `0..nodes`.
    /// Rejects self-loops, repeated edges and out-of-range ends.
    pub fn from_edges(spec: Spec, nodes: u64, edges: &[(u64, u64)]) -> Result<Graph> {
        if nodes > MAX_STORED_NODES {
            return Err(Error::Mismatch(format!(
                "{spec}: {nodes} nodes is more than a stored graph can hold ({MAX_STORED_NODES})"
            )));
        }
        let mut degree = vec![0u64; nodes as usize + 1];
        for &(u, v) in edges {
            if u >= nodes || v >= nodes {
                return Err(Error::Mismatch(format!(
                    "{spec}: edge {u}-{v} names a node outside 0..{nodes}"
                )));
            }
            if u == v {
                return Err(Error::Mismatch(format!("{spec}: self-loop at node {u}")));
            }
            degree[u as usize + 1] += 1;
            degree[v as usize + 1] += 1;
        }
        for k in 1..degree.len() {
            degree[k] += degree[k - 1];
        }
        let offsets = degree;
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; offsets[nodes as usize] as usize];
        for &(u, v) in edges {
            targets[fill[u as usize] as usize] = v as u32;
            fill[u as usize] += 1;
            targets[fill[v as usize] as usize] = u as u32;
            fill[v as usize] += 1;
        }
        let mut graph = Graph {
            spec,
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            offsets,
            targets,
            volumes: None,
            loads: None,
        };
        for v in 0..nodes {
            let list = graph.adjacency_mut(v);
            list.sort_unstable();
            if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
                let twice = w[0];
                return Err(Error::Mismatch(format!(
                    "{}: edge {v}-{twice} is listed twice",
                    graph.spec
                )));
            }
        }
        Ok(graph)
    }

    /// A graph from CSR arrays: node v's neighbours are
    /// `targets[offsets[v]..offsets[v + 1]]`, with a volume per CSR entry
    /// when `volumes` is given, kept beside its target while each list is
    /// sorted. The caller checks that the lists are symmetric (volumes
    /// included) and free of repeats and self-loops (the file readers do,
    /// naming file and line).
    pub(crate) fn from_weighted_csr(
        spec: Spec,
        offsets: Vec<u64>,
        targets: Vec<u32>,
        volumes: Option<Vec<u64>>,
    ) -> Graph {
        let mut graph = Graph {
            spec,
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            offsets,
            targets,
            volumes,
            loads: None,
        };
        for v in 0..graph.node_count() {
            let r = graph.offsets[v as usize] as usize..graph.offsets[v as usize + 1] as usize;
            match &mut graph.volumes {
                None => graph.targets[r].sort_unstable(),
                Some(volumes) => {
                    let mut pairs: Vec<(u32, u64)> = graph.targets[r.clone()]
                        .iter()
                        .copied()
                        .zip(volumes[r.clone()].iter().copied())
                        .collect();
                    pairs.sort_unstable();
                    for (k, (t, w)) in r.zip(pairs) {
                        graph.targets[k] = t;
                        volumes[k] = w;
                    }
                }
            }
        }
        graph
    }

    /// Gives every node a load (`loads[v]` for node v).
    pub fn with_loads(mut self, loads: Vec<u64>) -> Result<Graph> {
        if loads.len() as u64 != self.node_count() {
            return Err(Error::Mismatch(format!(
                "{}: {} loads for {} nodes",
                self.spec,
                loads.len(),
                self.node_count()
            )));
        }
        self.loads = Some(loads);
        Ok(self)
    }

    /// Gives every edge a volume: `volume(u, v)` for each edge, asked once per
    /// direction (it must be symmetric).
    pub fn with_volumes(mut self, volume: impl Fn(u64, u64) -> u64) -> Graph {
        let mut volumes = Vec::with_capacity(self.targets.len());
        for u in 0..self.node_count() {
            for &v in self.adjacency(u) {
                volumes.push(volume(u, u64::from(v)));
            }
        }
        self.volumes = Some(volumes);
        self
    }

    /// Volumes aligned with the CSR entries, when the graph has them.
    pub fn volumes(&self) -> Option<&[u64]> {
        self.volumes.as_deref()
    }

    /// Node loads, when the graph has them.
    pub fn loads(&self) -> Option<&[u64]> {
        self.loads.as_deref()
    }

    /// The CSR offsets: node v's entries are `offsets[v]..offsets[v + 1]`.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// Every node's neighbours, node 0's first: the CSR entries
    /// [`Graph::offsets`] index.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// Volumes of node v's edges, aligned with [`Graph::adjacency`] (1 each
    /// when the graph has no volumes).
    pub fn adjacency_volumes(&self, v: u64) -> impl Iterator<Item = u64> + '_ {
        let r = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        let len = r.len();
        let stored = self.volumes.as_deref().map(move |w| &w[r]);
        (0..len).map(move |k| stored.map_or(1, |w| w[k]))
    }

    /// The explicit form of any topology (small sizes: it stores every edge).
    pub fn from_topology(topology: &dyn Topology) -> Result<Graph> {
        let mut edges = Vec::with_capacity(topology.edge_count() as usize);
        topology.for_each_edge(0..topology.node_count(), &mut |u, v, _| edges.push((u, v)));
        Graph::from_edges(topology.spec().clone(), topology.node_count(), &edges)
    }

    /// Reads a plain edge list: one edge `u v` per line, or `u v volume` on
    /// every line, node ids from 0, `#` or `%` starting a comment. The node
    /// count is the largest id + 1, or N when a comment line reads exactly
    /// `# nodes N` (what topoembed's recordings write, so that a rank that
    /// exchanged nothing still has its node).
    pub fn read_edge_list(path: &Path) -> Result<Graph> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
        Graph::parse_edge_list(path, &text)
    }

    /// [`Graph::read_edge_list`] on text already read; `path` names it in errors.
    pub fn parse_edge_list(path: &Path, text: &str) -> Result<Graph> {
        let mut edges = Vec::new();
        let mut volumes: Vec<u64> = Vec::new();
        // Whether lines carry a volume, and the first line that said so.
        let mut columns: Option<(usize, usize)> = None;
        let mut nodes = 0u64;
        // The line of the largest node id.
        let mut widest = 0;
        // The node count a `# nodes N` line states, and its line.
        let mut stated: Option<(u64, usize)> = None;
        for (number, line) in text.lines().enumerate() {
            if let Some(count) = stated_nodes(line) {
                let count = count.filter(|&n| n <= MAX_STORED_NODES).ok_or_else(|| {
                    Error::File(format!(
                        "{}:{}: '{}' does not state a node count (a whole number up to {MAX_STORED_NODES})",
                        path.display(),
                        number + 1,
                        line.trim()
                    ))
                })?;
                if let Some((_, first)) = stated {
                    return Err(Error::File(format!(
                        "{}:{}: a second '# nodes' line (the first is line {first})",
                        path.display(),
                        number + 1
                    )));
                }
                stated = Some((count, number + 1));
                continue;
            }
            let line = line.split(['#', '%']).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |what: &str| {
                Error::File(format!(
                    "{}:{}: {what}; an edge list has one edge 'u v' or 'u v volume' per line",
                    path.display(),
                    number + 1
                ))
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            if !(2..=3).contains(&fields.len()) {
                return Err(bad(&format!(
                    "expected two node ids and an optional volume, found '{line}'"
                )));
            }
            match columns {
                None => columns = Some((fields.len(), number + 1)),
                Some((n, first)) if n != fields.len() => {
                    return Err(bad(&format!(
                        "{} numbers here but {n} on line {first}; give every edge a volume or none",
                        fields.len()
                    )))
                }
                Some(_) => {}
            }
            let parse = |s: &str| {
                s.parse::<u64>()
                    .ok()
                    .filter(|&x| x < MAX_STORED_NODES)
                    .ok_or_else(|| bad(&format!("'{s}' is not a node id")))
            };
            let (u, v) = (parse(fields[0])?, parse(fields[1])?);
            if let Some(w) = fields.get(2) {
                volumes.push(w.parse::<u64>().map_err(|_| {
                    bad(&format!(
                        "'{w}' is not a volume (a whole number of bytes or messages, 0 or more)"
                    ))
                })?);
            }
            if u.max(v) + 1 > nodes {
                nodes = u.max(v) + 1;
                widest = number + 1;
            }
            edges.push((u, v));
        }
        if let Some((count, line)) = stated {
            if count == 0 {
                return Err(Error::File(format!(
                    "{}:{line}: '# nodes 0': a graph has at least one node",
                    path.display()
                )));
            }
            if count < nodes {
                return Err(Error::File(format!(
                    "{}:{line}: '# nodes {count}' but line {widest} names node {}",
                    path.display(),
                    nodes - 1
                )));
            }
            // A stated count is the file's word, but a corrupt one must not
            // allocate gigabytes of edgeless nodes.
            let most = SPARSE_EDGES * edges.len() as u64 + STATED_SLACK;
            if count > most {
                return Err(Error::File(format!(
                    "{}:{line}: '# nodes {count}' for {} edges: an edge list states at most \
                     {SPARSE_EDGES} x edges + {STATED_SLACK} nodes (write it as METIS or Scotch .grf)",
                    path.display(),
                    edges.len()
                )));
            }
            let volumes = (!volumes.is_empty()).then_some(&volumes[..]);
            return Graph::from_weighted_edges(
                Spec::Graph(path.to_path_buf()),
                count,
                &edges,
                volumes,
            )
            .map_err(|e| Error::File(e.to_string()));
        }
        if nodes == 0 {
            return Err(Error::File(format!(
                "{}: the file has no edges",
                path.display()
            )));
        }
        // The node count is the largest id + 1: a stray large id would make
        // billions of edgeless nodes (found by fuzzing: "444044440 1" asked
        // for 3.5 GB).
        let most = SPARSE_EDGES * edges.len() as u64 + SPARSE_SLACK;
        if nodes > most {
            return Err(Error::File(format!(
                "{}:{widest}: node id {} makes {nodes} nodes for {} edges; an edge list numbers its nodes \
                 from 0 and takes at most {SPARSE_EDGES} x edges + {SPARSE_SLACK} nodes (write a graph this \
                 sparse as METIS or Scotch .grf, which state their node count)",
                path.display(),
                nodes - 1,
                edges.len()
            )));
        }
        let volumes = (!volumes.is_empty()).then_some(&volumes[..]);
        Graph::from_weighted_edges(Spec::Graph(path.to_path_buf()), nodes, &edges, volumes)
            .map_err(|e| Error::File(e.to_string()))
    }

    /// A graph from an edge list over nodes `0..nodes` with, when given, one
    /// volume per edge (both directions carry it). Rejects self-loops,
    /// repeated edges and out-of-range ends, as [`Graph::from_edges`].
    pub fn from_weighted_edges(
        spec: Spec,
        nodes: u64,
        edges: &[(u64, u64)],
        volumes: Option<&[u64]>,
    ) -> Result<Graph> {
        let graph = Graph::from_edges(spec, nodes, edges)?;
        let Some(volumes) = volumes else {
            return Ok(graph);
        };
        if volumes.len() != edges.len() {
            return Err(Error::Mismatch(format!(
                "{}: {} volumes for {} edges; give one volume per edge",
                graph.spec,
                volumes.len(),
                edges.len()
            )));
        }
        let volume_of: rustc_hash::FxHashMap<(u64, u64), u64> = edges
            .iter()
            .zip(volumes)
            .map(|(&(u, v), &w)| ((u.min(v), u.max(v)), w))
            .collect();
        Ok(graph.with_volumes(|u, v| volume_of[&(u.min(v), u.max(v))]))
    }

    /// Shortest paths from `source`: hops, or with volumes the cheapest
    /// paths taking volumes as link costs ([`Paths`]).
    pub fn paths(&self, source: u64) -> Paths {
        Paths::from(self, source)
    }

    /// Runs `f` on the shortest paths from `source`, computing them only
    /// when this thread's last query was from another source or graph.
    fn with_bfs<T>(&self, source: u64, f: impl FnOnce(&Paths) -> T) -> T {
        LAST_BFS.with(|cell| {
            let mut cache = cell.borrow_mut();
            let hit = matches!(&*cache, Some((id, s, _)) if *id == self.id && *s == source);
            if !hit {
                *cache = Some((self.id, source, self.paths(source)));
            }
            let (_, _, dist) = cache.as_ref().expect("filled above");
            f(dist)
        })
    }

    fn adjacency_mut(&mut self, v: u64) -> &mut [u32] {
        let r = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        &mut self.targets[r]
    }

    /// Neighbours of `v` as stored, sorted.
    pub fn adjacency(&self, v: u64) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// Breadth-first search: the distance from `source` to every node
    /// (`u32::MAX` for nodes it cannot reach).
    pub fn bfs(&self, source: u64) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.node_count() as usize];
        let mut queue = VecDeque::from([source as u32]);
        dist[source as usize] = 0;
        while let Some(v) = queue.pop_front() {
            let next = dist[v as usize] + 1;
            for &w in self.adjacency(u64::from(v)) {
                if dist[w as usize] == u32::MAX {
                    dist[w as usize] = next;
                    queue.push_back(w);
                }
            }
        }
        dist
    }
}

/// `Some(count)` when `line` is an edge list's `# nodes N` line (N all
/// digits; `None` inside when it overflows), `None` for any other line,
/// which stays a comment.
fn stated_nodes(line: &str) -> Option<Option<u64>> {
    let mut words = line.trim().strip_prefix('#')?.split_whitespace();
    let (Some("nodes"), Some(count), None) = (words.next(), words.next(), words.next()) else {
        return None;
    };
    count
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| count.parse().ok())
}

impl Topology for Graph {
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.offsets.len() as u64 - 1
    }
    fn edge_count(&self) -> u64 {
        self.targets.len() as u64 / 2
    }
    /// Exact diameter by a search from every node: O(nodes * edges), for
    /// small graphs. With volumes (link costs, [`Paths`]) the largest
    /// cheapest-path cost.
    fn diameter(&self) -> u64 {
        (0..self.node_count())
            .map(|s| self.paths(s).eccentricity())
            .max()
            .unwrap_or(0)
    }
    /// A simple path visits each node once, so no distance exceeds
    /// (nodes - 1) x the dearest link (the exact diameter costs a search
    /// from every node).
    fn distance_bound(&self) -> u64 {
        let dearest = self
            .volumes
            .as_ref()
            .map_or(1, |v| v.iter().copied().max().unwrap_or(1));
        self.node_count().saturating_sub(1).saturating_mul(dearest)
    }
    /// Hops from `a` to `b`, or with volumes the cheapest path's cost
    /// ([`Paths`]); searched from `a` and cached per thread for the next
    /// query from the same node. Unreachable pairs give `u64::MAX`.
    fn distance(&self, a: u64, b: u64) -> u64 {
        self.with_bfs(a, |paths| paths.cost(b).unwrap_or(u64::MAX))
    }
    fn coords(&self, v: u64) -> Vec<u64> {
        vec![v]
    }
    fn neighbors(&self, v: u64) -> Vec<u64> {
        self.adjacency(v).iter().map(|&w| u64::from(w)).collect()
    }
    fn degree(&self, v: u64) -> u64 {
        self.adjacency(v).len() as u64
    }
    fn edge_classes(&self) -> u32 {
        1
    }
    /// From each node, the lowest-numbered neighbour one hop closer to `b`
    /// (with volumes: on a cheapest, then fewest-link, path; [`Paths`]),
    /// searched from `b` and cached per thread like [`Graph::distance`]'s.
    fn route(&self, a: u64, b: u64, _ties: TieRule, path: &mut Vec<u64>) {
        self.with_bfs(b, |paths| {
            let mut here = a;
            while here != b {
                let Some(next) = paths.next(self, here) else {
                    return; // unreachable: metrics reject this before routing
                };
                here = next;
                path.push(here);
            }
        });
    }
    fn link_slots(&self) -> u64 {
        self.targets.len() as u64
    }
    /// Position of the higher end in the lower end's sorted adjacency list.
    fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        let (low, high) = (u.min(v), u.max(v));
        if high >= self.node_count() {
            return None;
        }
        let pos = self.adjacency(low).binary_search(&(high as u32)).ok()?;
        Some(self.offsets[low as usize] + pos as u64)
    }
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        match &self.volumes {
            None => {
                for u in nodes {
                    for &w in self.adjacency(u) {
                        if u64::from(w) > u {
                            edges.push(u, u64::from(w), 0);
                        }
                    }
                }
            }
            Some(volumes) => {
                for u in nodes {
                    let start = self.offsets[u as usize] as usize;
                    for (k, &w) in self.adjacency(u).iter().enumerate() {
                        if u64::from(w) > u {
                            edges.push_weighted(u, u64::from(w), 0, volumes[start + k]);
                        }
                    }
                }
            }
        }
    }
    fn as_graph(&self) -> Option<&Graph> {
        Some(self)
    }
    fn is_weighted(&self) -> bool {
        self.volumes.is_some() || self.loads.is_some()
    }
    fn load(&self, v: u64) -> u64 {
        self.loads.as_ref().map_or(1, |l| l[v as usize])
    }
    fn total_load(&self) -> u128 {
        self.loads
            .as_ref()
            .map_or(u128::from(self.node_count()), |l| {
                l.iter().map(|&x| u128::from(x)).sum()
            })
    }
    fn total_volume(&self) -> u128 {
        self.volumes
            .as_ref()
            .map_or(u128::from(self.edge_count()), |w| {
                w.iter().map(|&x| u128::from(x)).sum::<u128>() / 2
            })
    }
}
