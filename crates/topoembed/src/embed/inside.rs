//! A guest grid smaller than its host placed inside it with every edge one
//! hop long, where that can be: a sub-grid of a larger grid host (each
//! guest axis along a host axis at least as long; one that wraps along a
//! host ring of its very length), or a sub-cube of a hypercube (each guest
//! axis in a field of ⌈log2 side⌉ bits, numbered by the reflected Gray code,
//! as Ho & Johnsson place a mesh in a cube; one that wraps where its side is
//! a power of two, where the code is cyclic).
//!
//! With one guest node per host node no edge is shorter than one hop, so
//! such a placement is optimal (its hop-bytes is the guest's total volume)
//! and the mapper ends its search on it. Without it a 20x20 mesh onto
//! torus:32x32 was searched by eight restarts for 1.8 s to land on the
//! same 760, and onto cube:10 a reshape was refined to 1 226.

use rayon::prelude::*;

use crate::bits::{btog, ceil_log2};
use crate::mapper::recognize::Grid;
use crate::mapper::Start;
use crate::spec::Spec;
use crate::topology::Topology;

/// The start placing `grid` (built as the topology `shape`) inside `host`
/// with every edge one hop long, or `None` where the host is not a grid or a cube, the guest has no
/// fewer nodes than it, or no such placement is found.
pub fn start(grid: &Grid, shape: &dyn Topology, host: &Spec) -> Option<Start> {
    let guest_nodes: u64 = grid.sides.iter().product();
    let host_nodes = host.node_count()?;
    if guest_nodes >= host_nodes {
        return None;
    }
    let place = match host {
        Spec::Cube(dim) => in_cube(grid, *dim)?,
        _ => {
            let (sides, wraps) = host.grid()?;
            in_grid(grid, sides, &wraps)?
        }
    };
    let hosts = grid
        .node
        .par_iter()
        .map(|&id| place(&shape.coords(id)))
        .collect();
    Some(Start::new(
        format!("{} inside {host}", grid.spec()),
        hosts,
        true,
    ))
}

/// The host node of a guest node's coordinates.
type Placed = Box<dyn Fn(&[u64]) -> u64 + Send + Sync>;

/// Each value's running total before it, from `first` (`combine`d in
/// turn): a grid's strides from its sides, the bit fields' offsets from
/// their widths.
fn before_each(values: &[u64], first: u64, combine: fn(u64, u64) -> u64) -> Vec<u64> {
    values
        .iter()
        .scan(first, |total, &value| {
            let here = *total;
            *total = combine(*total, value);
            Some(here)
        })
        .collect()
}

/// Whether guest axis `a` of `grid` has a wrap-around edge of its own (a
/// ring of 3 or more: a ring of 2's wrap is the edge it already has).
fn wraps_apart(grid: &Grid, a: usize) -> bool {
    grid.wraps[a] && grid.sides[a] >= 3
}

/// The host node of every guest coordinate vector on a grid host of
/// `sides` and `wraps` (first axis fastest): every guest axis of more than
/// one node along a host axis of its own ([`match_axes`]).
fn in_grid(grid: &Grid, sides: &[u64], wraps: &[bool]) -> Option<Placed> {
    let axes: Vec<usize> = (0..grid.sides.len())
        .filter(|&a| grid.sides[a] > 1)
        .collect();
    // Guest axis a fits host axis h with every edge one hop long.
    let fits = |a: usize, h: usize| match wraps_apart(grid, a) {
        true => wraps[h] && sides[h] == grid.sides[a],
        false => sides[h] >= grid.sides[a],
    };
    let along = match_axes(&axes, sides.len(), &fits)?;
    let strides = before_each(sides, 1, |a, b| a * b);
    Some(Box::new(move |coords: &[u64]| {
        axes.iter()
            .zip(&along)
            .map(|(&a, &h)| coords[a] * strides[h])
            .sum()
    }))
}

/// Host axis of each of `axes`, none shared, every one that it `fits`, or
/// `None` where no such matching exists: augmenting paths (Kuhn 1955), in
/// O(axes² · host axes) — a search of the assignments took as many steps
/// as orders of a cube's two dozen axes where none fit.
fn match_axes(
    axes: &[usize],
    host_axes: usize,
    fits: &impl Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    // Guest axis (index into `axes`) on each host axis.
    let mut holder: Vec<Option<usize>> = vec![None; host_axes];
    for k in 0..axes.len() {
        let mut seen = vec![false; host_axes];
        if !augment(k, axes, fits, &mut holder, &mut seen) {
            return None;
        }
    }
    let mut along = vec![0; axes.len()];
    for (h, k) in holder.iter().enumerate() {
        if let Some(k) = k {
            along[*k] = h;
        }
    }
    Some(along)
}

/// Finds guest axis `axes[k]` a host axis, moving the holders of those it
/// fits along where they can go; whether it found one.
fn augment(
    k: usize,
    axes: &[usize],
    fits: &impl Fn(usize, usize) -> bool,
    holder: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for h in 0..holder.len() {
        if seen[h] || !fits(axes[k], h) {
            continue;
        }
        seen[h] = true;
        let free = match holder[h] {
            None => true,
            Some(other) => augment(other, axes, fits, holder, seen),
        };
        if free {
            holder[h] = Some(k);
            return true;
        }
    }
    false
}

/// The host node of every guest coordinate vector on `cube:dim`: guest
/// axis a in the next ⌈log2 side⌉ bits, as the reflected Gray code of its
/// coordinate (consecutive coordinates differ in one bit, and the last and
/// the first do where the side is a power of two).
fn in_cube(grid: &Grid, dim: u32) -> Option<Placed> {
    let bits: Vec<u64> = grid
        .sides
        .iter()
        .map(|&side| u64::from(ceil_log2(side)))
        .collect();
    if bits.iter().sum::<u64>() > u64::from(dim) {
        return None;
    }
    let cyclic =
        (0..grid.sides.len()).all(|a| !wraps_apart(grid, a) || grid.sides[a].is_power_of_two());
    if !cyclic {
        return None;
    }
    let offsets = before_each(&bits, 0, |a, b| a + b);
    Some(Box::new(move |coords: &[u64]| {
        coords
            .iter()
            .zip(&offsets)
            .map(|(&c, &offset)| btog(c) << offset)
            .sum()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;
    use proptest::prelude::*;

    /// Every edge of the grid guest `spec` one hop apart on `host`, no two
    /// guest nodes on one host node; `None` where no start is built.
    fn one_hop_everywhere(guest: &str, host: &str) -> Option<bool> {
        let (guest, host): (Spec, Spec) = (guest.parse().unwrap(), host.parse().unwrap());
        one_hop_on(&guest, &host)
    }

    /// [`one_hop_everywhere`] on parsed specs.
    fn one_hop_on(guest: &Spec, host: &Spec) -> Option<bool> {
        let grid = Grid::of_spec(guest).unwrap();
        let shape = topology::build(&grid.spec()).unwrap();
        let start = start(&grid, shape.as_ref(), host)?;
        let (g, h) = (
            topology::build(guest).unwrap(),
            topology::build(host).unwrap(),
        );
        let mut seen = std::collections::HashSet::new();
        let distinct = start
            .hosts
            .iter()
            .all(|&x| x < h.node_count() && seen.insert(x));
        let one_hop = (0..g.node_count()).all(|v| {
            g.neighbors(v)
                .into_iter()
                .all(|u| h.distance(start.hosts[v as usize], start.hosts[u as usize]) == 1)
        });
        Some(distinct && one_hop)
    }

    /// The seeds' and the benchmarks' small guests inside larger hosts.
    #[test]
    fn small_grids_sit_inside_larger_hosts_one_hop_an_edge() {
        for (guest, host) in [
            ("mesh:20x20", "torus:32x32"),
            ("mesh:20x20", "cube:10"),
            ("mesh:5x5", "torus:8x8x8"),
            ("mesh:4x4x4", "torus:8x8x8"),
            ("torus:8x8", "torus:8x8x8"),
            ("ring:16", "cube:6"),
            ("torus:4x8", "cube:6"),
            ("mesh:3x7", "mesh:4x9x2"),
            ("torus:5x6", "grid:6wx9x5w"),
            ("line:7", "ring:8"),
        ] {
            assert_eq!(
                one_hop_everywhere(guest, host),
                Some(true),
                "{guest} onto {host}"
            );
        }
    }

    /// None where an axis is too long, a ring has no ring of its length,
    /// the cube has too few bits or the ring's Gray code is not cyclic,
    /// the guest is not smaller, or the host is no grid.
    #[test]
    fn none_where_no_one_hop_placement_is_found() {
        for (guest, host) in [
            ("mesh:10x10", "torus:8x8x8"),
            ("mesh:4x4x4", "torus:16x16"),
            ("ring:6", "torus:8x8"),
            ("torus:5x6", "mesh:6x9x5"),
            ("mesh:20x20", "cube:9"),
            ("ring:6", "cube:6"),
            ("mesh:8x8", "torus:8x8"),
            ("mesh:3x3", "tleaf:4x4:10,1"),
            // Two dozen axes that all fit but one: found out at once.
            (
                "grid:2x2x2x2x2x2x2x2x2x2x2x2x5",
                "mesh:3x3x3x3x3x3x3x3x3x3x3x3",
            ),
        ] {
            assert_eq!(one_hop_everywhere(guest, host), None, "{guest} onto {host}");
        }
    }

    proptest! {
        /// Random meshes and tori inside random larger grids: wherever a
        /// start is built, every edge is one hop and nodes are distinct;
        /// and a start is built whenever the guest's sides, sorted, fit
        /// the host's (meshes onto meshes).
        #[test]
        fn a_start_puts_every_edge_one_hop_apart(
            guest in proptest::collection::vec((2u64..6, proptest::bool::ANY), 1..4),
            host in proptest::collection::vec((2u64..8, proptest::bool::ANY), 1..4),
        ) {
            let spec = |axes: &[(u64, bool)]| {
                Spec::grid_of(axes.iter().map(|a| a.0).collect(), axes.iter().map(|a| a.1).collect())
            };
            let (g, h) = (spec(&guest), spec(&host));
            match one_hop_on(&g, &h) {
                Some(ok) => prop_assert!(ok, "{} onto {}", g, h),
                None => {
                    let mut gs: Vec<u64> = guest.iter().map(|a| a.0).collect();
                    let mut hs: Vec<u64> = host.iter().map(|a| a.0).collect();
                    gs.sort_unstable_by(|a, b| b.cmp(a));
                    hs.sort_unstable_by(|a, b| b.cmp(a));
                    let meshes = guest.iter().all(|&(s, w)| !w || s <= 2);
                    let smaller = gs.iter().product::<u64>() < hs.iter().product::<u64>();
                    let fit = gs.len() <= hs.len() && gs.iter().zip(&hs).all(|(a, b)| a <= b);
                    prop_assert!(!(meshes && smaller && fit), "{} onto {}: none built", g, h);
                }
            }
        }
    }
}
