//! Test oracles built from first principles, independent of the library's
//! implicit topologies: explicit edge lists from coordinates, BFS distances,
//! and metrics computed edge by edge.
#![allow(dead_code)]

use std::collections::{BTreeMap, VecDeque};

use topoembed::embed::Embedding;
use topoembed::spec::Spec;

mod temp;
pub use temp::{temp_dir, temp_file, TempDir, TempFile};

/// An arbitrary placement given as a table (a permutation or many-to-one).
pub struct Table(pub Vec<u64>);

impl Embedding for Table {
    fn method(&self) -> &'static str {
        "table"
    }
    fn map(&self, g: u64) -> u64 {
        self.0[g as usize]
    }
    fn inverse(&self, _: u64) -> Option<u64> {
        None
    }
}

/// Node count and edge list (u < v, each edge once) of a spec, from its definition.
pub fn explicit_edges(spec: &Spec) -> (u64, Vec<(u64, u64)>) {
    let mut edges = Vec::new();
    let nodes = match spec {
        Spec::Cube(d) => {
            for u in 0..1u64 << d {
                for i in 0..*d {
                    let v = u ^ (1 << i);
                    if u < v {
                        edges.push((u, v));
                    }
                }
            }
            1u64 << d
        }
        Spec::BinTree(p) => {
            for k in 1..2 * p - 1 {
                edges.push(((k - 1) / 2, k));
            }
            2 * p - 1
        }
        _ => {
            let (sides, wraps) = spec.grid().expect("grid spec");
            let n: u64 = sides.iter().product();
            for u in 0..n {
                let mut coords = Vec::new();
                let mut rest = u;
                for &s in sides {
                    coords.push(rest % s);
                    rest /= s;
                }
                for axis in 0..sides.len() {
                    for delta in [1i64, -1] {
                        let c = coords[axis] as i64 + delta;
                        let side = sides[axis] as i64;
                        let c = if (0..side).contains(&c) {
                            c
                        } else if wraps[axis] {
                            c.rem_euclid(side)
                        } else {
                            continue;
                        };
                        let mut other = coords.clone();
                        other[axis] = c as u64;
                        let mut v = 0;
                        for (k, &s) in sides.iter().enumerate().rev() {
                            v = v * s + other[k];
                        }
                        if u < v {
                            edges.push((u, v));
                        }
                    }
                }
            }
            edges.sort_unstable();
            edges.dedup();
            n
        }
    };
    (nodes, edges)
}

/// Adjacency lists of an edge list.
pub fn adjacency(nodes: u64, edges: &[(u64, u64)]) -> Vec<Vec<u32>> {
    let mut adj = vec![Vec::new(); nodes as usize];
    for &(u, v) in edges {
        adj[u as usize].push(v as u32);
        adj[v as usize].push(u as u32);
    }
    adj
}

/// Distances from `source` by breadth-first search.
pub fn bfs(adj: &[Vec<u32>], source: u64) -> Vec<u32> {
    let mut dist = vec![u32::MAX; adj.len()];
    dist[source as usize] = 0;
    let mut queue = VecDeque::from([source as u32]);
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v as usize] {
            if dist[w as usize] == u32::MAX {
                dist[w as usize] = dist[v as usize] + 1;
                queue.push_back(w);
            }
        }
    }
    dist
}

/// All-pairs distances of a spec by BFS from every node.
pub fn all_pairs(spec: &Spec) -> Vec<Vec<u32>> {
    let (n, edges) = explicit_edges(spec);
    let adj = adjacency(n, &edges);
    (0..n).map(|s| bfs(&adj, s)).collect()
}

/// Metrics computed edge by edge from the explicit guest and host distances.
#[derive(Debug, PartialEq)]
pub struct Oracle {
    pub load_factor: u64,
    pub spectrum: BTreeMap<u64, u64>,
    pub max: u64,
    pub total: u128,
    /// For cube guests: (min, max) dilation per dimension.
    pub per_dimension: Vec<(u64, u64)>,
}

pub fn oracle(guest: &Spec, host_dist: &[Vec<u32>], emb: &dyn Embedding) -> Oracle {
    let (n, edges) = explicit_edges(guest);
    let mut load = vec![0u64; host_dist.len()];
    for g in 0..n {
        load[emb.map(g) as usize] += 1;
    }
    let dims = match guest {
        Spec::Cube(d) => *d as usize,
        _ => 0,
    };
    let mut o = Oracle {
        load_factor: load.into_iter().max().unwrap_or(0),
        spectrum: BTreeMap::new(),
        max: 0,
        total: 0,
        per_dimension: vec![(u64::MAX, 0); dims],
    };
    for (u, v) in edges {
        let d = u64::from(host_dist[emb.map(u) as usize][emb.map(v) as usize]);
        *o.spectrum.entry(d).or_default() += 1;
        o.max = o.max.max(d);
        o.total += u128::from(d);
        if dims > 0 {
            let i = (u ^ v).trailing_zeros() as usize;
            o.per_dimension[i].0 = o.per_dimension[i].0.min(d);
            o.per_dimension[i].1 = o.per_dimension[i].1.max(d);
        }
    }
    o
}

/// All compositions of `bits` into `parts` positive parts.
pub fn compositions(bits: u32, parts: u32) -> Vec<Vec<u32>> {
    if parts == 1 {
        return vec![vec![bits]];
    }
    let mut out = Vec::new();
    for first in 1..=bits.saturating_sub(parts - 1) {
        for mut rest in compositions(bits - first, parts - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Grid specs with 2^bits nodes: every composition into up to `max_axes`
/// power-of-two sides, as torus and as mesh (ring / line for one axis).
pub fn pow2_grids(bits: u32, max_axes: u32) -> Vec<Spec> {
    let mut out = Vec::new();
    for axes in 1..=max_axes.min(bits) {
        for widths in compositions(bits, axes) {
            let sides: Vec<u64> = widths.iter().map(|&w| 1u64 << w).collect();
            if axes == 1 {
                out.push(Spec::Ring(sides[0]));
                out.push(Spec::Line(sides[0]));
            } else {
                out.push(Spec::Torus(sides.clone()));
                out.push(Spec::Mesh(sides));
            }
        }
    }
    out
}

/// Logical axes a0, a1, .. of the given sizes, for device meshes.
pub fn logical_axes(sizes: &[u64]) -> Vec<topoembed::device_mesh::LogicalAxis> {
    sizes
        .iter()
        .enumerate()
        .map(|(k, &size)| topoembed::device_mesh::LogicalAxis {
            name: format!("a{k}"),
            size,
        })
        .collect()
}

/// Writes SimGrid's platform of the host `spec` (default options) to
/// `dir/platform.xml` and returns its path.
pub fn simgrid_platform(dir: &std::path::Path, spec: &str) -> std::path::PathBuf {
    let platform = dir.join("platform.xml");
    let mut xml = Vec::new();
    topoembed::io::write_simgrid_platform(
        &spec.parse().unwrap(),
        &topoembed::io::PlatformOptions::default(),
        &mut xml,
    )
    .unwrap();
    std::fs::write(&platform, xml).unwrap();
    platform
}
