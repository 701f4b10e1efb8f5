//! Closed-form placements for a guest that is a grid or a cube, handed to
//! the mapper as starts ([`crate::mapper::Start`]): where theory gives the
//! answer, the search should not have to rediscover it.
//!
//! The guest's grid comes from its spec (`torus:64x64`) or, for a graph
//! file, from [`crate::mapper::recognize`] (vertices numbered anyhow; or
//! the grid its heaviest edges form, as a recorded 9-point stencil's faces
//! do under its light diagonals).
//! * Every constructing method of the registry that applies to the grid and
//!   the host (`axes`, `snake`, `gray`, `standard`, the many-to-one cube
//!   methods, ...) gives a start: a torus onto a torus of its shape comes
//!   back with dilation 1, a cube onto a ring with Harper's sum.
//! * More guest nodes than host nodes: the grid is cut into boxes, one per
//!   host node (sides cut into near-equal segments), and the grid of boxes
//!   is placed by every method that applies to it — grid-order blocks, the
//!   classic placement of a stencil code. Box shapes are tried cheapest cut
//!   first.

use super::{applicable, Embedding};
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
    let grid = match guest.spec() {
        Spec::Graph(_) => recognize::grid(g).or_else(|| recognize::backbone_grid(g)),
        spec => Grid::of_spec(spec),
    };
    let Some(grid) = grid else {
        return Vec::new();
    };
    let spec = grid.spec();
    let mut starts = Vec::new();
    let Ok(shape) = topology::build(&spec) else {
        return Vec::new();
    };
    for (method, emb) in applicable(shape.as_ref(), host) {
        starts.push(Start {
            name: format!("{} of {spec}", method.name),
            hosts: grid.node.iter().map(|&id| emb.map(id)).collect(),
        });
    }
    let p = host.node_count();
    if (g.n() as u64) > p {
        for cut in box_shapes(&grid.sides, &grid.wraps, p, cap) {
            starts.extend(boxes(&grid, shape.as_ref(), &cut, host));
        }
    }
    starts
}

/// Starts from cutting the grid into boxes of `cut` per axis.
fn boxes(grid: &Grid, shape: &dyn Topology, cut: &[u64], host: &dyn Topology) -> Vec<Start> {
    let spec = shape.spec();
    let axes: Vec<usize> = (0..cut.len()).filter(|&a| cut[a] > 1).collect();
    if axes.is_empty() {
        return Vec::new();
    }
    let sides: Vec<u64> = axes.iter().map(|&a| cut[a]).collect();
    let wraps: Vec<bool> = axes.iter().map(|&a| grid.wraps[a] && cut[a] >= 3).collect();
    let box_spec = recognize::grid_spec(sides, wraps);
    let Ok(box_grid) = topology::build(&box_spec) else {
        return Vec::new();
    };
    // Box of every guest node: coordinate c of side K in cut B lies in
    // segment ⌊c·B/K⌋ (segments of ⌊K/B⌋ or ⌈K/B⌉ nodes).
    let box_of: Vec<u64> = grid
        .node
        .iter()
        .map(|&id| {
            let coords = shape.coords(id);
            axes.iter().rev().fold(0u64, |acc, &a| {
                acc * cut[a] + coords[a] * cut[a] / grid.sides[a]
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
    applicable(box_grid.as_ref(), host)
        .into_iter()
        .map(|(method, emb): (_, Box<dyn Embedding>)| Start {
            name: format!(
                "{spec} in {shape} blocks as {box_spec}, placed by {}",
                method.name
            ),
            hosts: box_of.iter().map(|&b| emb.map(b)).collect(),
        })
        .collect()
}

/// Cuts per axis (∏ = `p`, each at most its side) whose largest box holds
/// at most `cap` nodes, the fewest cut edges first (at most [`SHAPES`]).
fn box_shapes(sides: &[u64], wraps: &[bool], p: u64, cap: u64) -> Vec<Vec<u64>> {
    let n: u64 = sides.iter().product();
    let cut_edges = |cut: &[u64]| -> u64 {
        (0..sides.len())
            .map(|a| {
                let planes = match (cut[a], wraps[a]) {
                    (1, _) => 0,
                    (b, true) => b,
                    (b, false) => b - 1,
                };
                planes * (n / sides[a])
            })
            .sum()
    };
    let mut found: Vec<(u64, Vec<u64>)> = Vec::new();
    let mut cut = Vec::with_capacity(sides.len());
    let mut budget = MAX_FACTORIZATIONS;
    factorizations(sides, p, &mut cut, &mut budget, &mut |cut| {
        let largest: u64 = cut
            .iter()
            .zip(sides)
            .map(|(&b, &k)| k.div_ceil(b))
            .product();
        if largest <= cap {
            found.push((cut_edges(cut), cut.to_vec()));
        }
    });
    found.sort();
    found.dedup();
    found.into_iter().take(SHAPES).map(|(_, c)| c).collect()
}

/// Calls `each` with every way of writing `rest` as a product of one factor
/// per remaining axis, each at most that axis's side.
fn factorizations(
    sides: &[u64],
    rest: u64,
    cut: &mut Vec<u64>,
    budget: &mut usize,
    each: &mut dyn FnMut(&[u64]),
) {
    if *budget == 0 {
        return;
    }
    let a = cut.len();
    if a == sides.len() {
        if rest == 1 {
            *budget -= 1;
            each(cut);
        }
        return;
    }
    for b in 1..=sides[a].min(rest) {
        if rest % b == 0 {
            cut.push(b);
            factorizations(sides, rest / b, cut, budget, each);
            cut.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_prefer_cubes_and_respect_capacity() {
        // 24^3 onto 512 nodes: 8x8x8 boxes of 3x3x3.
        let shapes = box_shapes(&[24, 24, 24], &[false; 3], 512, 27);
        assert_eq!(shapes[0], vec![8, 8, 8]);
        // 100x100 onto 16 nodes: 4x4 cut, boxes of 25x25 = 625 nodes.
        let shapes = box_shapes(&[100, 100], &[true, true], 16, 625);
        assert_eq!(shapes, vec![vec![4, 4]]);
        // No cut fits a capacity below the average.
        assert!(box_shapes(&[10, 10], &[false; 2], 4, 24).is_empty());
    }
}
