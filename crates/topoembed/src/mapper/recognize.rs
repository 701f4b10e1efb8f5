//! Structure finding: is a plain graph a grid — a Cartesian product of
//! paths and cycles (line, ring, mesh, torus, mixed grid, hypercube) — with
//! its vertices numbered anyhow? If so, the closed-form embeddings of the
//! seeds apply to it (a torus onto a torus of its shape: dilation 1; a cube
//! onto a ring: Harper's sum), which no multilevel search reliably finds.
//!
//! The test is exact. In a product of paths and cycles (no cycle of length
//! 4, see below) two edges at a vertex lie on a common 4-cycle exactly when
//! they run along different axes; so a vertex's neighbours fall into axes
//! of one or two, and the frame (plus and minus neighbour per axis) carries
//! from a vertex to its neighbour across every square: the neighbour's plus
//! neighbour on axis j is the fourth corner of the square spanned by the
//! step and the vertex's plus neighbour on j. A breadth-first sweep so
//! gives every vertex coordinates; the answer is then *verified* — the
//! coordinates are a bijection onto the grid and every edge of the graph
//! is a grid edge, as many as the grid has — so a graph that only looks
//! locally like a grid is refused, never mislabelled.
//!
//! A cycle of length 4 is itself the 2x2 mesh (C4 = P2 x P2), so a torus
//! with sides of 4 is recognised with two axes of 2 in place of each such
//! side (torus:4x4 *is* cube:4); every node count and edge still matches.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::graph::WGraph;
use crate::spec::Spec;

/// Largest degree looked at (a grid of more axes is not recognised).
const MAX_DEGREE: usize = 64;

const NONE: u32 = u32::MAX;

/// A grid found in a graph: its shape and each vertex's node id in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Side of each axis, axis 1 first.
    pub sides: Vec<u64>,
    /// Whether each axis wraps around.
    pub wraps: Vec<bool>,
    /// Node id of each vertex in the grid's numbering (first axis fastest).
    pub node: Vec<u64>,
}

impl Grid {
    /// The grid as a topology spec: `cube:D` when every side is 2,
    /// otherwise ring / line / torus / mesh / mixed grid.
    pub fn spec(&self) -> Spec {
        grid_spec(self.sides.clone(), self.wraps.clone())
    }

    /// The grid of an implicit grid or cube spec, vertex i as node i.
    pub fn of_spec(spec: &Spec) -> Option<Grid> {
        let (sides, wraps) = match spec {
            Spec::Cube(d) if *d >= 1 => (vec![2; *d as usize], vec![false; *d as usize]),
            _ => {
                let (sides, wraps) = spec.grid()?;
                (sides.to_vec(), wraps)
            }
        };
        let n: u64 = sides.iter().product();
        Some(Grid {
            sides,
            wraps,
            node: (0..n).collect(),
        })
    }
}

/// `cube:D` when every side is 2 (a mesh of 2s is the hypercube, numbered
/// alike), otherwise the plainest grid spec ([`Spec::grid_of`]).
pub fn grid_spec(sides: Vec<u64>, wraps: Vec<bool>) -> Spec {
    if sides.iter().all(|&s| s == 2) {
        return Spec::Cube(sides.len() as u32);
    }
    Spec::grid_of(sides, wraps)
}

/// Per-vertex frame: plus and minus neighbour on every axis. Atomic so
/// that a level of the sweep writes the next level's frames from every
/// thread (each vertex by the one vertex that reaches it; relaxed loads
/// and stores are plain moves).
struct Frames {
    axes: usize,
    plus: Vec<AtomicU32>,
    minus: Vec<AtomicU32>,
}

impl Frames {
    fn new(n: usize, axes: usize) -> Frames {
        let none = || {
            (0..n * axes)
                .into_par_iter()
                .map(|_| AtomicU32::new(NONE))
                .collect()
        };
        Frames {
            axes,
            plus: none(),
            minus: none(),
        }
    }
    fn get(&self, v: usize, axis: usize, plus: bool) -> u32 {
        let k = v * self.axes + axis;
        if plus {
            self.plus[k].load(Relaxed)
        } else {
            self.minus[k].load(Relaxed)
        }
    }
    fn set(&self, v: usize, axis: usize, plus: bool, u: u32) {
        let k = v * self.axes + axis;
        if plus {
            self.plus[k].store(u, Relaxed)
        } else {
            self.minus[k].store(u, Relaxed)
        }
    }
    /// Vertex `u`'s whole frame: `row` holds the plus then the minus
    /// neighbour of every axis.
    fn set_row(&self, u: usize, row: &[u32]) {
        let at = u * self.axes;
        for (j, &x) in row[..self.axes].iter().enumerate() {
            self.plus[at + j].store(x, Relaxed);
        }
        for (j, &x) in row[self.axes..].iter().enumerate() {
            self.minus[at + j].store(x, Relaxed);
        }
    }
}

/// Distinct volumes tried as thresholds by [`backbone_grid`].
const BACKBONE_THRESHOLDS: usize = 3;

/// The grid the heaviest edges of `g` form, when `g` is no grid itself: for
/// the largest few distinct volumes t (heaviest first), the edges of volume
/// at least t, if they are a grid over every vertex. A 9-point stencil
/// recorded from a run — faces of a block's side, corners of one value —
/// is a mesh of its faces with light diagonals; its mesh placement is the
/// start a multilevel search misses (whole rows would have to move). The
/// grid is only a start: the mapper scores it on every edge.
pub fn backbone_grid(g: &WGraph) -> Option<Grid> {
    let mut volumes: Vec<u64> = g.ew.clone();
    volumes.sort_unstable_by(|a, b| b.cmp(a));
    volumes.dedup();
    for &t in volumes.iter().take(BACKBONE_THRESHOLDS) {
        if t == *volumes.last()? {
            // Every edge: that is `g`, which `grid` already refused.
            break;
        }
        let heavy = g.with_edges_at_least(t);
        if let Some(found) = grid(&heavy) {
            return Some(found);
        }
    }
    None
}

/// The grid under a 9- or 27-point stencil whose edges carry one volume
/// (a 2-D or 3-D grid with every diagonal of its squares and cubes: the
/// strong product of its paths and cycles, a king's graph), numbered
/// anyhow, where [`backbone_grid`] has no lighter diagonals to leave out.
///
/// The faces are the graph's Cartesian skeleton (Hammack & Imrich, "On
/// Cartesian skeletons of graphs", Ars Math. Contemp. 2, 2009): an edge xy
/// is dispensable when some z has both
/// `N[x]∩N[y] ⊊ N[x]∩N[z]` or `N[x] ⊊ N[z] ⊊ N[y]`, and
/// `N[x]∩N[y] ⊊ N[y]∩N[z]` or `N[y] ⊊ N[z] ⊊ N[x]`
/// (`N[v]`: v and its neighbours), and the skeleton of a strong product of
/// R-thin graphs — paths of 3 or more, cycles of 4 or more — is the
/// Cartesian product of theirs, a path's and a cycle's being itself: every
/// diagonal goes, every face stays, on the boundary as inside (where a
/// count of shared neighbours ties a boundary face with a diagonal). Any z
/// that qualifies lies in `N[x]∩N[y]`, so each edge looks at the at most 16
/// vertices there, each set held as a bitmask over `N[x]` (at most 27
/// members). The skeleton is then verified as every grid is ([`grid`]).
///
/// Graphs with a vertex of a degree a 2-D or 3-D stencil has not are not
/// looked at: every closed neighbourhood is a product of 2s and 3s (a
/// side's end or inside), one per axis, and some vertex has 3 on every
/// axis (mdual and butterfly_14, of degree 4 at most, are turned down at
/// once). The grid is a start the mapper scores on every edge, diagonals
/// included: the 128x128 9-point stencil's mesh placement onto
/// torus:8x8x4 has 11 460 hop-bytes where the search alone found 13 964.
pub fn stencil_backbone(g: &WGraph) -> Option<Grid> {
    let n = g.n();
    let degree = |v: usize| g.xadj[v + 1] - g.xadj[v];
    let axes: u32 = match (0..n).into_par_iter().map(degree).max()? {
        8 => 2,
        26 => 3,
        _ => return None,
    };
    // Closed neighbourhood sizes of a product of `axes` sides (2 at an end,
    // 3 inside).
    let sizes: Vec<usize> = (0..=axes)
        .map(|twos| 2usize.pow(twos) * 3usize.pow(axes - twos))
        .collect();
    if n < 3usize.pow(axes)
        || !(0..n)
            .into_par_iter()
            .all(|v| sizes.contains(&(degree(v) + 1)))
    {
        return None;
    }
    // Closed rows, sorted: vertex v's at `start(v)`, one longer than its row.
    let start = |v: usize| g.xadj[v] + v;
    let closed: Vec<u32> = (0..n)
        .into_par_iter()
        .flat_map_iter(|v| {
            let mut row = g.adj[g.xadj[v]..g.xadj[v + 1]].to_vec();
            row.push(v as u32);
            row.sort_unstable();
            row
        })
        .collect();
    let row = |v: usize| &closed[start(v)..start(v + 1)];
    // Each member u of N[x] as a bitmask of N[x]: which of N[x] are in
    // N[u] (bit j: the j-th of N[x]), in closed-row order; its count is
    // |N[x] ∩ N[u]|. (A fixed array per vertex: flattening rows of masks
    // cost more than computing them.)
    let masks: Vec<[u32; MOST_CLOSED]> = (0..n)
        .into_par_iter()
        .map(|x| {
            let nx = row(x);
            let mut masks = [0u32; MOST_CLOSED];
            for (k, &u) in nx.iter().enumerate() {
                let nu = row(u as usize);
                let mut i = 0;
                for (j, &a) in nx.iter().enumerate() {
                    while i < nu.len() && nu[i] < a {
                        i += 1;
                    }
                    if i < nu.len() && nu[i] == a {
                        masks[k] |= 1 << j;
                    }
                }
            }
            masks
        })
        .collect();
    let masks_of = |x: usize| &masks[x][..row(x).len()];
    let size = |v: usize| (degree(v) + 1) as u32;
    // |N[y] ∩ N[z]| for z in N[y].
    let shared_with = |y: usize, z: u32| -> u32 {
        let at = row(y).binary_search(&z).expect("z in N[y]");
        masks_of(y)[at].count_ones()
    };
    // Whether edge xy stays in the skeleton, from x's masks `m`, y the
    // `k`-th of N[x].
    let stays = |x: usize, m: &[u32], k: usize| -> bool {
        let nx = row(x);
        let y = nx[k] as usize;
        let xy = m[k];
        let c = xy.count_ones();
        let (sx, sy) = (size(x), size(y));
        let mut bits = xy;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let z = nx[j];
            if z as usize == x || z as usize == y {
                continue;
            }
            let inside = xy & !m[j] == 0;
            let (xz, yz, sz) = (m[j].count_ones(), shared_with(y, z), size(z as usize));
            let first = (inside && xz > c) || (xz == sx && sx < sz && yz == sz && sz < sy);
            let second = (inside && yz > c) || (yz == sy && sy < sz && xz == sz && sz < sx);
            if first && second {
                return false;
            }
        }
        true
    };
    // The skeleton, each row in sorted order (its own vertex left out).
    let rows: Vec<Vec<u32>> = (0..n)
        .into_par_iter()
        .map(|x| {
            let m = masks_of(x);
            (0..row(x).len())
                .filter(|&k| row(x)[k] as usize != x && stays(x, m, k))
                .map(|k| row(x)[k])
                .collect()
        })
        .collect();
    let mut skeleton = WGraph {
        xadj: Vec::with_capacity(n + 1),
        adj: Vec::new(),
        ew: Vec::new(),
        vw: g.vw.clone(),
    };
    skeleton.xadj.push(0);
    for r in rows {
        skeleton.ew.extend(std::iter::repeat(1).take(r.len()));
        skeleton.adj.extend(r);
        skeleton.xadj.push(skeleton.adj.len());
    }
    grid(&skeleton)
}

/// Most members of a closed neighbourhood [`stencil_backbone`] looks at:
/// a 27-point stencil's 27 (a bit each of a `u32`).
const MOST_CLOSED: usize = 27;

/// The grid `g` is, if it is one (connected, at least 2 vertices).
pub fn grid(g: &WGraph) -> Option<Grid> {
    let n = g.n();
    if n < 2 || (0..n).any(|v| g.xadj[v + 1] - g.xadj[v] > MAX_DEGREE) {
        return None;
    }
    // Axes at vertex 0: neighbours on no common square with each other.
    let root: Vec<u32> = g.adj[g.xadj[0]..g.xadj[1]].to_vec();
    let mut axis_of = vec![usize::MAX; root.len()];
    let mut axes = 0;
    for a in 0..root.len() {
        if axis_of[a] != usize::MAX {
            continue;
        }
        let x = root[a] as usize;
        let mut around_a: Vec<u32> = g.adj[g.xadj[x]..g.xadj[x + 1]].to_vec();
        around_a.sort_unstable();
        let same: Vec<usize> = (0..root.len())
            .filter(|&b| b != a && corner_beside(g, &around_a, root[b], 0).is_none())
            .collect();
        match same.as_slice() {
            [] => {}
            [b] if axis_of[*b] == usize::MAX => axis_of[*b] = axes,
            _ => return None,
        }
        axis_of[a] = axes;
        axes += 1;
    }
    if axes == 0 {
        return None;
    }
    let frames = Frames::new(n, axes);
    for (k, &u) in root.iter().enumerate() {
        let plus = frames.get(0, axis_of[k], true) == NONE;
        frames.set(0, axis_of[k], plus, u);
    }
    let coord = sweep(g, &frames)?;
    // Each axis's side: walk its line through vertex 0.
    let mut sides = Vec::with_capacity(axes);
    let mut wraps = Vec::with_capacity(axes);
    let mut lowest = Vec::with_capacity(axes);
    for axis in 0..axes {
        let walk = |plus: bool| -> (usize, bool) {
            let (mut v, mut steps) = (0usize, 0usize);
            loop {
                let u = frames.get(v, axis, plus);
                if u == NONE {
                    return (steps, false);
                }
                steps += 1;
                if u == 0 || steps > n {
                    return (steps, u == 0);
                }
                v = u as usize;
            }
        };
        let (up, cycle) = walk(true);
        if cycle {
            sides.push(up as u64);
            wraps.push(true);
            lowest.push(0);
        } else {
            let (down, _) = walk(false);
            sides.push((up + down + 1) as u64);
            wraps.push(false);
            lowest.push(-(down as i64));
        }
    }
    let position = verify(g, &coord, &sides, &wraps, &lowest)?;
    number(&position, sides, wraps)
}

/// Frontier vertices per task of the sweep.
const SWEEP_CHUNK: usize = 256;

/// Every vertex's coordinates relative to vertex 0 (`axes` per vertex),
/// its frame carried from the vertex it was reached from; `None` where a
/// frame does not carry or a vertex is not reached.
///
/// Breadth first, level by level: a vertex of the next level is reached
/// from the first vertex of the level, in level order, with a frame
/// neighbour on it (the first such neighbour in axis order, plus before
/// minus) — the vertex a queue would have reached it from. (In a grid
/// every way in carries the same frame and coordinates; in a graph that
/// is none, the sweep or [`verify`] refuses it whichever way is taken: the
/// answer depends on the graph alone, not on the thread count.) Each
/// level's frames are carried in parallel, and written there too, each
/// vertex by the one vertex that reached it (the 10^6-vertex stencil's
/// sweep was 0.35 s of one thread whatever the thread count; with the
/// frames written one level at a time on one thread, 0.036 s of 0.146 s
/// on 16 cores).
fn sweep(g: &WGraph, frames: &Frames) -> Option<Vec<i64>> {
    let (n, axes) = (g.n(), frames.axes);
    let ways = 2 * axes as u64;
    let coord: Vec<AtomicI64> = (0..n * axes)
        .into_par_iter()
        .map(|_| AtomicI64::new(0))
        .collect();
    let seen: Vec<AtomicBool> = (0..n)
        .into_par_iter()
        .map(|_| AtomicBool::new(false))
        .collect();
    seen[0].store(true, Relaxed);
    let mut reached = 1;
    // The least (position in the level × ways + way) that reaches each vertex.
    let claim: Vec<AtomicU64> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    let way = |k: u64| ((k / 2) as usize, k % 2 == 0);
    let unseen = |u: u32| u != NONE && !seen[u as usize].load(Relaxed);
    let mut level = vec![0u32];
    while !level.is_empty() {
        level
            .par_iter()
            .enumerate()
            .with_min_len(SWEEP_CHUNK)
            .for_each(|(i, &v)| {
                for k in 0..ways {
                    let (axis, plus) = way(k);
                    let u = frames.get(v as usize, axis, plus);
                    if unseen(u) {
                        claim[u as usize].fetch_min(i as u64 * ways + k, Relaxed);
                    }
                }
            });
        // Per chunk of the level, in order: the vertices it reached, each
        // given its frame, coordinates and mark on the way. A vertex is
        // claimed by one (vertex, way) alone, so no two threads write the
        // same vertex, and none reads a vertex of the next level.
        let found: Vec<Vec<u32>> = level
            .par_chunks(SWEEP_CHUNK)
            .enumerate()
            .map(|(chunk, vertices)| {
                let (mut next, mut row) = (Vec::new(), Vec::with_capacity(2 * axes));
                for (j, &v) in vertices.iter().enumerate() {
                    let i = (chunk * SWEEP_CHUNK + j) as u64;
                    for k in 0..ways {
                        let (axis, plus) = way(k);
                        let u = frames.get(v as usize, axis, plus);
                        if !unseen(u) || claim[u as usize].load(Relaxed) != i * ways + k {
                            continue;
                        }
                        let (u, v) = (u as usize, v as usize);
                        row.clear();
                        frame_of(g, frames, (v, u), (axis, plus), &mut row)?;
                        frames.set_row(u, &row);
                        for a in 0..axes {
                            let step = match (a == axis, plus) {
                                (false, _) => 0,
                                (true, true) => 1,
                                (true, false) => -1,
                            };
                            coord[u * axes + a]
                                .store(coord[v * axes + a].load(Relaxed) + step, Relaxed);
                        }
                        seen[u].store(true, Relaxed);
                        next.push(u as u32);
                    }
                }
                Some(next)
            })
            .collect::<Option<Vec<Vec<u32>>>>()?;
        level = found.concat();
        reached += level.len();
    }
    (reached == n).then(|| coord.into_par_iter().map(AtomicI64::into_inner).collect())
}

/// The frame of `u`, reached from `v` by a step along `axis` (plus or
/// minus), appended to `row` (plus then minus neighbour per axis): across
/// every other axis the square's fourth corner; along `axis`, `v` behind
/// and the one neighbour left ahead. `None` where the squares or the
/// degree say `u`'s neighbourhood is no grid's.
fn frame_of(
    g: &WGraph,
    frames: &Frames,
    (v, u): (usize, usize),
    (axis, plus): (usize, bool),
    row: &mut Vec<u32>,
) -> Option<()> {
    let axes = frames.axes;
    let start = row.len();
    row.resize(start + 2 * axes, NONE);
    let (plus_row, minus_row) = row[start..].split_at_mut(axes);
    // u's neighbours, sorted, for the common-neighbour queries (degree at
    // most MAX_DEGREE: on the stack).
    let around = &g.adj[g.xadj[u]..g.xadj[u + 1]];
    let mut sorted = [0u32; MAX_DEGREE];
    let sorted = &mut sorted[..around.len()];
    sorted.copy_from_slice(around);
    sorted.sort_unstable();
    let mut used = 1; // v
    for j in (0..axes).filter(|&j| j != axis) {
        for side in [true, false] {
            let y0 = frames.get(v, j, side);
            let y = if y0 == NONE {
                NONE
            } else {
                used += 1;
                corner_beside(g, sorted, y0, v as u32)?
            };
            if side {
                plus_row[j] = y;
            } else {
                minus_row[j] = y;
            }
        }
    }
    if plus {
        minus_row[axis] = v as u32;
    } else {
        plus_row[axis] = v as u32;
    }
    let assigned = |x: &u32| plus_row.contains(x) || minus_row.contains(x);
    let mut ahead = around.iter().filter(|x| !assigned(x));
    let next = ahead.next().copied().unwrap_or(NONE);
    if ahead.next().is_some() || around.len() != used + usize::from(next != NONE) {
        return None;
    }
    if plus {
        plus_row[axis] = next;
    } else {
        minus_row[axis] = next;
    }
    Some(())
}

/// The one common neighbour of a vertex (its neighbours `sorted`) and `b`
/// other than `not`; `None` if there is none or more than one (a binary
/// search per neighbour of `b`: no marks shared between threads).
fn corner_beside(g: &WGraph, sorted: &[u32], b: u32, not: u32) -> Option<u32> {
    let b = b as usize;
    let mut found = None;
    for &x in &g.adj[g.xadj[b]..g.xadj[b + 1]] {
        if x != not && sorted.binary_search(&x).is_ok() {
            if found.is_some() {
                return None;
            }
            found = Some(x);
        }
    }
    found
}

/// Checks every coordinate lies on the grid, the node count is the grid's
/// and the graph's edges are exactly the grid's; returns each vertex's
/// position (`axes` per vertex).
fn verify(
    g: &WGraph,
    coord: &[i64],
    sides: &[u64],
    wraps: &[bool],
    lowest: &[i64],
) -> Option<Vec<u64>> {
    let n = g.n();
    let axes = sides.len();
    let total = sides.iter().try_fold(1u64, |acc, &s| acc.checked_mul(s))?;
    if total != n as u64 {
        return None;
    }
    let mut position = vec![0u64; n * axes];
    for v in 0..n {
        for a in 0..axes {
            let c = coord[v * axes + a] - lowest[a];
            let side = sides[a] as i64;
            let c = if wraps[a] { c.rem_euclid(side) } else { c };
            if !(0..side).contains(&c) {
                return None;
            }
            position[v * axes + a] = c as u64;
        }
    }
    let expected: u64 = (0..axes)
        .map(|a| {
            let lines = total / sides[a];
            lines * if wraps[a] { sides[a] } else { sides[a] - 1 }
        })
        .sum();
    if expected != (g.adj.len() / 2) as u64 {
        return None;
    }
    // Every edge one step along one axis (a torus's wrap-around too), in
    // parallel: a 10^6-vertex stencil has 6·10^6 entries to check.
    let one_step = |v: usize, u: usize| -> bool {
        let mut differing = (0..axes).filter(|&a| position[v * axes + a] != position[u * axes + a]);
        let (Some(a), None) = (differing.next(), differing.next()) else {
            return false;
        };
        let (x, y) = (position[v * axes + a], position[u * axes + a]);
        let d = x.abs_diff(y);
        d == 1 || (wraps[a] && d == sides[a] - 1)
    };
    let grid_edges = (0..n)
        .into_par_iter()
        .with_min_len(1 << 12)
        .all(|v| g.edges(v).all(|(u, _)| one_step(v, u)));
    if !grid_edges {
        return None;
    }
    Some(position)
}

/// Numbers the vertices in the grid with its longest axes first (ties:
/// wrapping first), so the same shape always reads the same (`torus:64x32`,
/// not `32x64`); `None` unless the positions are a bijection onto the grid.
fn number(position: &[u64], sides: Vec<u64>, wraps: Vec<bool>) -> Option<Grid> {
    let axes = sides.len();
    let mut order: Vec<usize> = (0..axes).collect();
    order.sort_by_key(|&a| (std::cmp::Reverse(sides[a]), !wraps[a], a));
    let n = position.len() / axes;
    let mut node = vec![0u64; n];
    let mut taken = vec![false; n];
    for (v, id) in node.iter_mut().enumerate() {
        *id = order
            .iter()
            .rev()
            .fold(0u64, |acc, &a| acc * sides[a] + position[v * axes + a]);
        if std::mem::replace(&mut taken[*id as usize], true) {
            return None;
        }
    }
    Some(Grid {
        sides: order.iter().map(|&a| sides[a]).collect(),
        wraps: order.iter().map(|&a| wraps[a]).collect(),
        node,
    })
}
