//! Closed-form placements for a guest that is a grid or a cube, handed to
//! the mapper as starts ([`crate::mapper::Start`]): where theory gives the
//! answer, the search should not have to rediscover it.
//!
//! The guest's grid comes from its spec (`torus:64x64`) or, for a graph
//! file, from [`crate::mapper::recognize`] (vertices numbered anyhow; or
//! the grid its heaviest edges form, as a recorded 9-point stencil's faces
//! do under its light diagonals, or the grid under a 9- or 27-point
//! stencil of one volume, its faces told from its diagonals as the
//! graph's Cartesian skeleton).
//! * Every constructing method of the registry that applies to the grid and
//!   the host (`axes`, `snake`, `gray`, `standard`, the many-to-one cube
//!   methods, ...) gives a start: a torus onto a torus of its shape comes
//!   back with dilation 1, a cube onto a ring with Harper's sum.
//! * More guest nodes than host nodes: the grid is cut into boxes, one per
//!   host node (sides cut into near-equal segments), and the grid of boxes
//!   is placed by every method that applies to it — grid-order blocks, the
//!   classic placement of a stencil code. Box shapes are tried cheapest cut
//!   first; onto a host of fewer axes also those cutting no more axes than
//!   it has, and onto a ring or a line those cheapest strung out along it;
//!   onto a grid host of fewer axes, the cuts whose boxes fold onto it at
//!   least hop-bytes ([`super::box_cuts::folded`]), each placed as it was
//!   weighed (these only weighed after the search, never refined instead
//!   of it).
//! * Onto a grid host of fewer axes, or a ring, the grid is also placed as
//!   a product ([`super::product`]): groups of its axes searched onto the
//!   host's axes (a mesh round its middle onto a ring), weighed after the
//!   search.
//! * Where no even cut fits the capacity (100^3 onto 16^3 nodes: boxes of
//!   6 or 7 per side hold 216 to 343 nodes, the capacity is 252), the grid
//!   is cut by balanced planes instead: sorted along the first axis and cut
//!   into slabs of equal load, each slab sorted along the next axis and cut
//!   again, and so on (recursive coordinate bisection with exact balance,
//!   Berger & Bokhari 1987); a slab's boundary is a plane with a step in it.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::box_cuts::{box_grid, cut_across, cuts_evenly, folded, largest_box};
use super::product::product_starts;
use super::{applicable_as_starts, inside, nested, Embedding};
use crate::mapper::recognize::{self, Grid};
use crate::mapper::{Start, WGraph};
use crate::spec::Spec;
use crate::topology::{self, Topology};

/// Box shapes weighed per guest (the cheapest cuts).
const SHAPES: usize = 3;
/// Factorizations looked at before the cheapest found so far are taken.
const MAX_FACTORIZATIONS: usize = 100_000;

/// The starts for `guest` (working graph `g`) on `host` with capacity `cap`.
pub fn starts(guest: &dyn Topology, g: &WGraph, host: &dyn Topology, cap: u64) -> Vec<Start> {
    // (Whether the grid is the one under a 9- or 27-point stencil, found
    // as its skeleton: its starts are then checked for edges stretched
    // beyond it.)
    let (grid, under_a_stencil) = match guest.spec() {
        Spec::Graph(_) => match recognize::grid(g).or_else(|| recognize::backbone_grid(g)) {
            Some(grid) => (Some(grid), false),
            None => (recognize::stencil_backbone(g), true),
        },
        spec => (Grid::of_spec(spec), false),
    };
    let Some(grid) = grid else {
        return Vec::new();
    };
    let spec = grid.spec();
    let mut starts = Vec::new();
    let Ok(shape) = topology::build(&spec) else {
        return Vec::new();
    };
    for (method, emb) in applicable_as_starts(shape.as_ref(), host) {
        starts.push(Start::new(
            format!("{} of {spec}", method.name),
            grid.node.iter().map(|&id| emb.map(id)).collect(),
            true,
        ));
    }
    let p = host.node_count();
    if (g.n() as u64) < p {
        starts.extend(inside::start(&grid, shape.as_ref(), host.spec()));
    }
    if (g.n() as u64) > p {
        // Every guest node's grid coordinates, once for all cuts.
        let coords: Vec<u64> = grid
            .node
            .par_iter()
            .flat_map_iter(|&id| shape.coords(id))
            .collect();
        // The host's axes of more than one node (a ring's or a line's
        // boxes are strung out along it; a grid of more axes folds).
        let host_axes = host
            .spec()
            .sides()
            .map(|sides| sides.iter().filter(|&&k| k > 1).count());
        let even = box_shapes(&grid.sides, &grid.wraps, (p, cap), host_axes);
        // Balanced slabs where the even cut leaves boxes of unequal size
        // (where it divides every side, they are the boxes above).
        let uneven: Vec<(Vec<u64>, bool)> =
            box_shapes(&grid.sides, &grid.wraps, (p, u64::MAX), host_axes)
                .into_iter()
                .filter(|(cut, _)| !cuts_evenly(&grid.sides, cut))
                .collect();
        let shape = shape.as_ref();
        let weighed = |cut: Option<Boxes>, weighed_only: bool| {
            cut.map(|cut| Boxes {
                weighed_only,
                ..cut
            })
        };
        let cuts: Vec<Boxes> =
            even.par_iter()
                .map(|(cut, only)| weighed(boxes(&grid, &coords, shape, cut), *only))
                .chain(uneven.par_iter().map(|(cut, only)| {
                    weighed(balanced_boxes(&grid, &coords, shape, cut, g), *only)
                }))
                .flatten()
                .collect();
        starts.extend(place_all(&cuts, host));
        starts.extend(folded_starts(&grid, &coords, (shape, g), host, cap));
        starts.extend(product_starts(&grid, &coords, (g, host), cap));
        if let Spec::Tleaf(sizes, _) = host.spec() {
            starts.extend(nested_boxes(&grid, &coords, sizes, &spec));
        }
    }
    let axes = grid.sides.iter().filter(|&&k| k > 1).count();
    let ringed = pieces_ring_round(&grid, host.spec());
    for start in &mut starts {
        start.grid_axes = axes;
        start.weighed_only |= ringed;
        start.under_diagonals = under_a_stencil;
        if under_a_stencil {
            start.non_expanding = within_the_grid(g, &grid, shape.as_ref(), host, &start.hosts);
        }
    }
    starts
}

/// Whether a ring of pieces round the middle of `grid` (sectors, as
/// Scotch's recursive bipartitioning finds them) may cut fewer edges than
/// any box cut onto `host`, so that a closed form's cut is weighed after
/// the search, never trusted instead of it: a ring of 3 nodes or more
/// (its only axis wraps) under a grid of two axes or more none of which
/// wraps. Strung along the ring, p slabs of an n x n mesh cut (p − 1)·n
/// edges one hop long; p sectors meeting in its middle cut about p·n/2,
/// every edge one hop long too. Measured (2026-12-06, seed 1): mesh:30x30
/// onto ring:5 88 hop-bytes searched against its slabs' 120 (Scotch 116),
/// onto ring:7 131 against 185 (Scotch 133), 12^3 onto ring:5 443 against
/// 623 (Scotch 432). A torus folds round no middle: its slabs stay.
fn pieces_ring_round(grid: &Grid, host: &Spec) -> bool {
    let Some((sides, wraps)) = host.grid() else {
        return false;
    };
    let host_axes: Vec<usize> = (0..sides.len()).filter(|&a| sides[a] > 1).collect();
    let ring = matches!(host_axes[..], [a] if wraps[a] && sides[a] >= 3);
    let open_axes = (0..grid.sides.len()).filter(|&a| grid.sides[a] > 1);
    ring && open_axes.clone().count() >= 2 && open_axes.into_iter().all(|a| !grid.wraps[a])
}

/// The grid cut level by level along a tleaf of `sizes` ([`nested`]),
/// every node's grid coordinates in `coords`; none where a level cannot
/// be cut within the boxes.
fn nested_boxes(grid: &Grid, coords: &[u64], sizes: &[u64], spec: &Spec) -> Option<Start> {
    let cuts = nested::level_cuts(&grid.sides, &grid.wraps, sizes)?;
    let hosts = nested::leaves(coords, grid.sides.len(), &cuts, sizes);
    let even_levels = nested::in_equal_boxes(&grid.sides, &cuts);
    let levels: Vec<String> = cuts
        .iter()
        .map(|cut| cut.iter().map(u64::to_string).collect::<Vec<_>>().join("x"))
        .collect();
    let name = format!(
        "{spec} cut by the host's levels ({})",
        levels.join(", then ")
    );
    Some(Start {
        by_levels: true,
        even_levels,
        ..Start::new(name, hosts, true)
    })
}

/// Whether `hosts` puts no edge of `g` more hops apart on `host` than the
/// grid found in it (`shape`, vertex v at `grid.node[v]`) does.
fn within_the_grid(
    g: &WGraph,
    grid: &Grid,
    shape: &dyn Topology,
    host: &dyn Topology,
    hosts: &[u64],
) -> bool {
    (0..g.n()).into_par_iter().all(|v| {
        g.edges(v).all(|(u, _)| {
            host.distance(hosts[v], hosts[u]) <= shape.distance(grid.node[v], grid.node[u])
        })
    })
}

/// Starts from cutting the grid into `cut` slabs per axis of equal load
/// (module docs): box coordinate along each cut axis, then the grid of
/// boxes placed as in [`boxes`].
fn balanced_boxes(
    grid: &Grid,
    coords: &[u64],
    shape: &dyn Topology,
    cut: &[u64],
    g: &WGraph,
) -> Option<Boxes> {
    let spec = shape.spec();
    let (axes, box_spec, box_grid) = box_grid(grid, cut)?;
    let dims = grid.sides.len();
    // Box index of every guest node, built axis by axis (last cut axis most
    // significant, as the box grid numbers its nodes); before axis a is
    // cut, its value so far names the group of boxes a node is in. Each
    // step runs in parallel (one after the other on one thread, the steps
    // were 0.095 s of the 10^6-vertex stencil's 1.6 s on 16 cores): every
    // array is written at places no other thread writes, through relaxed
    // atomics (plain moves).
    let n = g.n();
    let box_of: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    let mut stride = 1u64;
    for (i, &a) in axes.iter().enumerate() {
        // Along axis a, ties broken by the axes cut before, then by the
        // axes still to cut, the last first: a slab's boundary is a plane
        // with a step, and the step runs along the axes cut later, so every
        // line across the slab along the next axis to cut holds as many
        // nodes, and the next cuts line up from slab to slab.
        let order: Vec<usize> = std::iter::once(a)
            .chain(axes[..i].iter().copied())
            .chain(axes[i + 1..].iter().rev().copied())
            .chain((0..dims).filter(|k| !axes.contains(k)))
            .collect();
        // The position in that order, as one number (mixed radix: the
        // product of the sides is the node count, below 2^64). The order
        // runs over every axis, so the keys are the numbers 0..n, each
        // once: placing every node at its key sorts all groups at once,
        // in O(n), the same order as sorting each group by its keys (the
        // 10^6-vertex stencil's three cuts onto torus:16x16x16: 0.88 →
        // 0.59 s on one thread, the same placement).
        let key = |v: usize| -> usize {
            let at = v * dims;
            order
                .iter()
                .fold(0u64, |acc, &k| acc * grid.sides[k] + coords[at + k]) as usize
        };
        let by_key: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(u32::MAX)).collect();
        (0..n)
            .into_par_iter()
            .for_each(|v| by_key[key(v)].store(v as u32, Relaxed));
        debug_assert!(
            by_key.iter().all(|v| v.load(Relaxed) != u32::MAX),
            "a grid's coordinates number its nodes one-to-one"
        );
        // Every group's nodes in key order.
        let groups = stride as usize;
        let (sorted, bounds) = match groups {
            1 => (by_key, vec![0, n]),
            _ => by_group(&by_key, &box_of, groups),
        };
        // Each group cut on its own, in parallel, in key order.
        bounds.par_windows(2).for_each(|range| {
            let members = &sorted[range[0]..range[1]];
            let load = |v: &AtomicU32| g.vw[v.load(Relaxed) as usize];
            let total: u64 = members.iter().map(load).sum();
            let mut before = 0u64;
            for v in members {
                // Part ⌊(load before v + half its own) · B / total⌋.
                let w = load(v);
                let part = ((u128::from(2 * before + w) * u128::from(cut[a]))
                    / (2 * u128::from(total.max(1))))
                .min(u128::from(cut[a] - 1)) as u64;
                before += w;
                // (A load and a store, not an atomic add: no other
                // thread writes this node's box.)
                let slot = &box_of[v.load(Relaxed) as usize];
                slot.store(slot.load(Relaxed) + part * stride, Relaxed);
            }
        });
        stride *= cut[a];
    }
    let box_of: Vec<u64> = box_of.into_par_iter().map(AtomicU64::into_inner).collect();
    let name = cut
        .iter()
        .zip(&grid.sides)
        .map(|(&b, &k)| format!("{k}/{b}"))
        .collect::<Vec<_>>()
        .join("x");
    Some(Boxes {
        box_of,
        grid: box_grid,
        what: format!("{spec} in balanced slabs {name} as {box_spec}"),
        weighed_only: false,
    })
}

/// The nodes of `by_key` (in key order) gathered group by group — a
/// node's group is its box index so far, `box_of`, below `groups` — each
/// group's in key order: a stable counting sort, chunk by chunk in
/// parallel, each node's group read once. Returns the nodes and where
/// each group starts (and, last, where the last one ends).
fn by_group(
    by_key: &[AtomicU32],
    box_of: &[AtomicU64],
    groups: usize,
) -> (Vec<AtomicU32>, Vec<usize>) {
    let n = by_key.len();
    let group_at: Vec<u32> = by_key
        .par_iter()
        .map(|v| box_of[v.load(Relaxed) as usize].load(Relaxed) as u32)
        .collect();
    let chunk = n.div_ceil(4 * rayon::current_num_threads()).max(1);
    let counts: Vec<Vec<usize>> = group_at
        .par_chunks(chunk)
        .map(|chunk| {
            let mut count = vec![0usize; groups];
            for &k in chunk {
                count[k as usize] += 1;
            }
            count
        })
        .collect();
    // Where each chunk's nodes of each group start, group by group.
    let mut starts = vec![vec![0usize; groups]; counts.len()];
    let mut bounds = Vec::with_capacity(groups + 1);
    let mut at = 0;
    for k in 0..groups {
        bounds.push(at);
        for (c, count) in counts.iter().enumerate() {
            starts[c][k] = at;
            at += count[k];
        }
    }
    bounds.push(at);
    let sorted: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    by_key
        .par_chunks(chunk)
        .zip(group_at.par_chunks(chunk))
        .zip(starts)
        .for_each(|((nodes, group), mut next)| {
            for (v, &k) in nodes.iter().zip(group) {
                sorted[next[k as usize]].store(v.load(Relaxed), Relaxed);
                next[k as usize] += 1;
            }
        });
    (sorted, bounds)
}

/// A cut of the guest grid into boxes: every guest node's box, and the
/// grid of boxes to be placed onto the host.
struct Boxes {
    box_of: Vec<u64>,
    grid: Box<dyn Topology>,
    /// What cut it is, for the start's name.
    what: String,
    /// Cut for the host's shape, not among the fewest cut edges: its
    /// starts are only weighed ([`Start::weighed_only`]).
    weighed_only: bool,
}

/// One start per cut and per method that places its grid of boxes onto
/// `host`, each guest node on its box's host node (named `WHAT, placed by
/// METHOD`). Cuts of one box grid share its placements: each is built
/// once, the grids in parallel (`axes` searches half a second for a
/// 16x16x16 box grid onto torus:16x16x16).
fn place_all(cuts: &[Boxes], host: &dyn Topology) -> Vec<Start> {
    let mut specs: Vec<&Boxes> = Vec::new();
    for cut in cuts {
        if !specs.iter().any(|b| b.grid.spec() == cut.grid.spec()) {
            specs.push(cut);
        }
    }
    // Per distinct box grid: (method, host node of every box).
    let tables: Vec<Vec<(&'static str, Vec<u64>)>> = specs
        .par_iter()
        .map(|b| {
            applicable_as_starts(b.grid.as_ref(), host)
                .into_iter()
                .map(|(method, emb): (_, Box<dyn Embedding>)| {
                    let table = (0..b.grid.node_count()).map(|x| emb.map(x)).collect();
                    (method.name, table)
                })
                .collect()
        })
        .collect();
    let mut starts = Vec::new();
    for cut in cuts {
        let k = specs
            .iter()
            .position(|b| b.grid.spec() == cut.grid.spec())
            .expect("every cut's box grid is listed");
        for (method, table) in &tables[k] {
            let mut start = Start::new(
                format!("{}, placed by {method}", cut.what),
                cut.box_of.par_iter().map(|&b| table[b as usize]).collect(),
                true,
            );
            start.weighed_only = cut.weighed_only;
            starts.push(start);
        }
    }
    starts
}

/// The cuts [`folded`] onto `host` (a grid of fewer axes), each box on the
/// host node its weighed plan gives: where a cut leaves boxes over `cap`
/// (or of unequal sides) also as balanced slabs. Only weighed, as the
/// other cuts for the host's shape ([`Start::weighed_only`]).
fn folded_starts(
    grid: &Grid,
    coords: &[u64],
    (shape, g): (&dyn Topology, &WGraph),
    host: &dyn Topology,
    cap: u64,
) -> Vec<Start> {
    let mut starts = Vec::new();
    for fold in folded(grid, host.node_count(), host) {
        let largest = largest_box(&grid.sides, &fold.cut);
        let even = cuts_evenly(&grid.sides, &fold.cut);
        let cuts = [
            (largest <= cap).then(|| boxes(grid, coords, shape, &fold.cut)),
            (!even).then(|| balanced_boxes(grid, coords, shape, &fold.cut, g)),
        ];
        for cut in cuts.into_iter().flatten().flatten() {
            let mut start = Start::new(
                format!(
                    "{}, placed by axes weighed by the edges cut across each",
                    cut.what
                ),
                cut.box_of
                    .par_iter()
                    .map(|&b| fold.hosts[b as usize])
                    .collect(),
                true,
            );
            start.weighed_only = true;
            starts.push(start);
        }
    }
    starts
}

/// Starts from cutting the grid into boxes of `cut` per axis.
fn boxes(grid: &Grid, coords: &[u64], shape: &dyn Topology, cut: &[u64]) -> Option<Boxes> {
    let spec = shape.spec();
    let (axes, box_spec, box_grid) = box_grid(grid, cut)?;
    let dims = grid.sides.len();
    // Box of every guest node: coordinate c of side K in cut B lies in
    // segment ⌊c·B/K⌋ (segments of ⌊K/B⌋ or ⌈K/B⌉ nodes).
    let box_of: Vec<u64> = (0..grid.node.len())
        .into_par_iter()
        .map(|v| {
            let at = v * dims;
            axes.iter().rev().fold(0u64, |acc, &a| {
                acc * cut[a] + coords[at + a] * cut[a] / grid.sides[a]
            })
        })
        .collect();
    let shape = cut
        .iter()
        .zip(&grid.sides)
        .map(|(&b, &k)| match k % b {
            0 => (k / b).to_string(),
            _ => format!("{}-{}", k / b, k / b + 1),
        })
        .collect::<Vec<_>>()
        .join("x");
    Some(Boxes {
        box_of,
        grid: box_grid,
        what: format!("{spec} in {shape} blocks as {box_spec}"),
        weighed_only: false,
    })
}

/// Cuts per axis (∏ = `p`, each at most its side) whose largest box holds
/// at most `cap` nodes, the fewest cut edges first (at most [`SHAPES`]),
/// each with whether it is only to be weighed; onto a host of `host_axes`
/// axes fewer than the grid's, also the [`SHAPES`] of fewest cut edges
/// that cut at most that many axes, and onto a ring or a line the
/// [`SHAPES`] of least [`strung_out`] hop-bytes (those only weighed).
///
/// Why: the fewest cut edges are those of boxes near cubes, and onto a
/// torus or mesh of as many axes each cut edge is one hop long. Onto fewer
/// axes the boxes fold, and their neighbours along the folded axes lie
/// hops apart: the shuffled 24^3 7-point stencil onto torus:12x12 in
/// 6x4x4 boxes (4x6x6 of them folded) costs 13 248 hop-bytes, in 2x2x24
/// columns (12x12 of them, every cut edge one hop) 12 672 — Scotch's
/// 12 680. Strung out along a ring, a 16x16x32 one onto ring:128 in 4x4x4
/// boxes (8x4x4 of them) costs 36 352, in 16x4x1 boxes (1x4x32 of them,
/// the 1 536 edges across the short axis laid 4 apart) 33 280 — Scotch's
/// 33 508. Such cuts cut more edges than the search does, so they are not
/// refined instead of it.
fn box_shapes(
    sides: &[u64],
    wraps: &[bool],
    (p, cap): (u64, u64),
    host_axes: Option<usize>,
) -> Vec<(Vec<u64>, bool)> {
    // (Edges cut, the cut, hop-bytes strung out.)
    let mut found: Vec<(u64, Vec<u64>, u64)> = Vec::new();
    let mut cut = Vec::with_capacity(sides.len());
    let mut budget = MAX_FACTORIZATIONS;
    nested::factorizations(sides, p, &mut cut, &mut budget, &mut |cut| {
        if largest_box(sides, cut) <= cap {
            let across = cut_across(sides, wraps, cut);
            // (Strung out only where the host is a ring or a line.)
            let strung = match host_axes {
                Some(1) => strung_out(cut, &across),
                _ => 0,
            };
            found.push((across.iter().sum(), cut.to_vec(), strung));
        }
    });
    found.sort();
    found.dedup();
    let mut shapes: Vec<(Vec<u64>, bool)> = found
        .iter()
        .take(SHAPES)
        .map(|(_, c, _)| (c.clone(), false))
        .collect();
    let add = |c: &Vec<u64>, shapes: &mut Vec<(Vec<u64>, bool)>| {
        if !shapes.iter().any(|(s, _)| s == c) {
            shapes.push((c.clone(), true));
        }
    };
    let grid_axes = sides.iter().filter(|&&k| k > 1).count();
    if let Some(h) = host_axes.filter(|&h| h >= 1 && h < grid_axes) {
        let cut_axes = |c: &[u64]| c.iter().filter(|&&b| b > 1).count();
        for (_, c, _) in found
            .iter()
            .filter(|(_, c, _)| cut_axes(c) <= h)
            .take(SHAPES)
        {
            add(c, &mut shapes);
        }
    }
    if host_axes == Some(1) {
        found.sort_by(|a, b| (a.2, a.0, &a.1).cmp(&(b.2, b.0, &b.1)));
        for (_, c, _) in found.iter().take(SHAPES) {
            add(c, &mut shapes);
        }
    }
    shapes
}

/// The hop-bytes of boxes cut `cut` per axis (`across[a]` guest edges cut
/// across axis a) laid along a line in grid order, the axes taken fastest
/// first in the best order: an edge across an axis joins boxes as many
/// apart as the boxes along the faster axes (its stride), Σ across[a] ×
/// stride(a). The best order puts first the axis of most edges per extra
/// box, across[a] / (cut[a] − 1) (exchanging two neighbouring axes a, b
/// costs across[a] + across[b]·cut[a] against across[b] + across[a]·cut[b],
/// as in Smith's ratio rule). A boustrophedon walk stretches its edges as
/// much on average.
fn strung_out(cut: &[u64], across: &[u64]) -> u64 {
    let mut axes: Vec<usize> = (0..cut.len()).filter(|&a| cut[a] > 1).collect();
    // Descending across / (cut − 1), compared by cross products.
    axes.sort_by(|&a, &b| {
        let key = |x: usize, y: usize| u128::from(across[x]) * u128::from(cut[y] - 1);
        key(b, a).cmp(&key(a, b))
    });
    let mut stride = 1u64;
    let mut total = 0u64;
    for a in axes {
        total = total.saturating_add(across[a].saturating_mul(stride));
        stride = stride.saturating_mul(cut[a]);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_prefer_cubes_and_respect_capacity() {
        // 24^3 onto 512 nodes: 8x8x8 boxes of 3x3x3.
        let shapes = box_shapes(&[24, 24, 24], &[false; 3], (512, 27), None);
        assert_eq!(shapes[0], (vec![8, 8, 8], false));
        // 100x100 onto 16 nodes: 4x4 cut, boxes of 25x25 = 625 nodes.
        let shapes = box_shapes(&[100, 100], &[true, true], (16, 625), None);
        assert_eq!(shapes, vec![(vec![4, 4], false)]);
        // No cut fits a capacity below the average.
        assert!(box_shapes(&[10, 10], &[false; 2], (4, 24), None).is_empty());
    }

    /// Strung out along a line, boxes cut `cut` from a grid of `sides`
    /// (no wrap-around) cost what enumerating the guest's edges gives for
    /// the best order of the axes: each box at its grid-order index, the
    /// axes fastest first.
    #[test]
    fn strung_out_boxes_cost_what_enumeration_gives() {
        for (sides, cut) in [
            (vec![16u64, 16, 32], vec![1u64, 4, 32]),
            (vec![16, 16, 32], vec![4, 4, 8]),
            (vec![6, 4, 10], vec![3, 2, 5]),
            (vec![12, 9], vec![4, 3]),
            (vec![8, 8, 8], vec![8, 1, 2]),
        ] {
            let n: u64 = sides.iter().product();
            let across: Vec<u64> = (0..sides.len())
                .map(|a| (cut[a] - 1) * (n / sides[a]))
                .collect();
            // Every order of the axes: the d-digit words over d letters
            // that use each letter once.
            let d = sides.len();
            let mut least = u64::MAX;
            for word in 0..d.pow(d as u32) {
                let order: Vec<usize> = (0..d).map(|k| word / d.pow(k as u32) % d).collect();
                if (0..d).any(|a| !order.contains(&a)) {
                    continue;
                }
                // Box index of a node: its box coordinates, `order[0]` fastest.
                let index = |c: &[u64]| -> u64 {
                    order
                        .iter()
                        .rev()
                        .fold(0, |acc, &a| acc * cut[a] + c[a] * cut[a] / sides[a])
                };
                let mut total = 0;
                let mut c = vec![0u64; d];
                for v in 0..n {
                    let mut rest = v;
                    for a in 0..d {
                        c[a] = rest % sides[a];
                        rest /= sides[a];
                    }
                    for a in 0..d {
                        if c[a] + 1 < sides[a] {
                            let mut next = c.clone();
                            next[a] += 1;
                            total += index(&c).abs_diff(index(&next));
                        }
                    }
                }
                least = least.min(total);
            }
            assert_eq!(strung_out(&cut, &across), least, "{sides:?} cut {cut:?}");
        }
        assert_eq!(strung_out(&[1, 4, 32], &[0, 1536, 7936]), 33_280);
    }

    /// Onto a ring or a line the boxes of least strung-out cost join the
    /// cheapest cuts: 16x16x32 onto 128 nodes cut 1x4x32 or 2x2x32
    /// (33 280 hop-bytes strung out), beside the near-cubes of fewest cut
    /// edges (4x4x8: 36 352) that a torus of three axes gets alone; onto two
    /// axes, the cuts of two axes at most (24^3 onto 144 nodes: 12x12x1
    /// columns). The cuts added are only weighed.
    #[test]
    fn a_host_of_fewer_axes_weighs_the_boxes_it_holds_best() {
        let (sides, wraps) = ([16, 16, 32], [false; 3]);
        let flat = box_shapes(&sides, &wraps, (128, 64), Some(3));
        let strung = box_shapes(&sides, &wraps, (128, 64), Some(1));
        assert_eq!(flat.len(), SHAPES);
        assert!(flat.iter().all(|(c, only)| c[2] < 32 && !only), "{flat:?}");
        assert_eq!(strung[..SHAPES], flat[..]);
        for cut in [vec![1, 4, 32], vec![2, 2, 32]] {
            assert!(strung.contains(&(cut, true)), "{strung:?}");
        }
        let cube = box_shapes(&[24, 24, 24], &[false; 3], (144, 96), Some(2));
        assert!(
            cube[..SHAPES].iter().all(|(c, _)| c.iter().all(|&b| b > 1)),
            "{cube:?}"
        );
        assert!(cube.contains(&(vec![12, 12, 1], true)), "{cube:?}");
        assert_eq!(
            box_shapes(&[24, 24, 24], &[false; 3], (144, 96), Some(3)).len(),
            SHAPES
        );
    }

    /// Box of every guest node under the balanced slabs of `cut`, and the
    /// load of every box.
    fn slabs(spec: &str, cut: &[u64], host: &str) -> (Vec<u64>, Vec<u64>) {
        let guest = topology::parse(spec).unwrap();
        let host = topology::parse(host).unwrap();
        let g = WGraph::from_topology(guest.as_ref()).unwrap();
        let grid = Grid::of_spec(guest.spec()).unwrap();
        let coords: Vec<u64> = grid.node.iter().flat_map(|&id| guest.coords(id)).collect();
        let cuts: Vec<Boxes> = balanced_boxes(&grid, &coords, guest.as_ref(), cut, &g)
            .into_iter()
            .collect();
        let starts = place_all(&cuts, host.as_ref());
        let identity = starts
            .iter()
            .find(|s| s.name.ends_with("placed by identity"))
            .expect("the box grid onto a host of its shape, by identity");
        let mut load = vec![0u64; host.node_count() as usize];
        for &h in &identity.hosts {
            load[h as usize] += 1;
        }
        (identity.hosts.clone(), load)
    }

    #[test]
    fn balanced_slabs_share_the_load_evenly() {
        for (spec, cut, host) in [
            ("mesh:21x21x21", &[4u64, 4, 4][..], "torus:4x4x4"),
            ("mesh:10x10", &[3, 3], "torus:3x3"),
            ("mesh:7x5", &[2, 2], "mesh:2x2"),
            ("torus:30x7", &[4, 2], "torus:4x2"),
            ("mesh:100x9x3", &[8, 2, 1], "mesh:8x2"),
        ] {
            let (hosts, load) = slabs(spec, cut, host);
            let n = hosts.len() as u64;
            let p = load.len() as u64;
            let axes = cut.iter().filter(|&&b| b > 1).count() as u64;
            // Each level cuts a group into parts within one node of each
            // other; the levels' roundings add up to at most one per axis.
            assert_eq!(load.iter().sum::<u64>(), n);
            let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            assert!(
                *hi < n.div_ceil(p) + axes && *lo + axes >= n / p,
                "{spec}: loads {lo}..{hi} for {n} / {p}"
            );
        }
    }

    mod gathered {
        use proptest::prelude::*;

        use super::*;

        proptest! {
            /// Gathered by group, the nodes keep their key order within
            /// each group (a stable sort by group), whatever the chunks.
            #[test]
            fn by_group_is_a_stable_sort_by_group(
                by_key_plain in (0u32..300).prop_flat_map(|n| Just((0..n).collect::<Vec<u32>>()).prop_shuffle()),
                groups in 1usize..9,
                salt in 0u64..1000,
            ) {
                let n = by_key_plain.len();
                let group_of = |v: u32| (u64::from(v) * 2_654_435_761 + salt) % groups as u64;
                let by_key: Vec<AtomicU32> = by_key_plain.iter().map(|&v| AtomicU32::new(v)).collect();
                let box_of: Vec<AtomicU64> = (0..n as u32).map(|v| AtomicU64::new(group_of(v))).collect();
                let (sorted, bounds) = by_group(&by_key, &box_of, groups);
                let mut want = by_key_plain.clone();
                want.sort_by_key(|&v| group_of(v)); // stable
                let got: Vec<u32> = sorted.iter().map(|v| v.load(Relaxed)).collect();
                prop_assert_eq!(&got, &want);
                prop_assert_eq!(bounds.len(), groups + 1);
                for k in 0..groups {
                    prop_assert!(want[bounds[k]..bounds[k + 1]].iter().all(|&v| group_of(v) == k as u64));
                }
            }
        }
    }

    #[test]
    fn balanced_slabs_are_planes_when_sides_divide() {
        // 8x8 cut 4x2: slabs of 2 along the first axis, 4 along the second.
        let (hosts, _) = slabs("mesh:8x8", &[4, 2], "mesh:4x2");
        for (v, &h) in hosts.iter().enumerate() {
            let (x, y) = (v as u64 % 8, v as u64 / 8);
            assert_eq!(h, x / 2 + 4 * (y / 4), "node ({x}, {y})");
        }
    }
}
