//! Host distances from each node's coordinates, for grid-shaped hosts too
//! large for a distance table to stay in the cache ([`super::distance`]):
//! a torus or mesh distance is Σ over axes of min(|Δ|, side − |Δ|) (|Δ| on
//! an axis that does not wrap), a hypercube's the popcount of a XOR — a
//! few instructions on data that fits the cache, where a table of 4096
//! nodes (16 MiB) misses it on nearly every read.

use crate::spec::Spec;
use crate::topology::Topology;

/// Most axes kept (one byte each, in one word per node).
const AXES: usize = 4;
/// Longest side kept (coordinates 0..=255).
const MAX_SIDE: u64 = 256;

/// How distances are computed without a table.
pub(crate) enum Coords {
    /// A ring, line, torus, mesh or mixed grid of at most [`AXES`] axes of
    /// at most [`MAX_SIDE`] nodes each.
    Grid {
        /// Every node's coordinates as the host gives them
        /// ([`Topology::coords`], axis 1 first); unused axes 0.
        at: Vec<[u8; AXES]>,
        /// Per axis, the length of a turn: the side where the axis wraps,
        /// twice it where it does not (so no way round is ever shorter),
        /// 1 on unused axes.
        turn: [i32; AXES],
    },
    /// A hypercube: node numbers are the coordinates.
    Cube,
}

impl Coords {
    /// The coordinates of `host`'s nodes, where it is a hypercube or a grid
    /// they fit; `None` otherwise.
    pub(crate) fn of(host: &dyn Topology) -> Option<Coords> {
        if let Spec::Cube(_) = host.spec() {
            return Some(Coords::Cube);
        }
        let (sides, wraps) = host.spec().grid()?;
        if sides.len() > AXES || sides.iter().any(|&s| s == 0 || s > MAX_SIDE) {
            return None;
        }
        let mut turn = [1i32; AXES];
        for (axis, (&side, &wraps)) in sides.iter().zip(&wraps).enumerate() {
            turn[axis] = if wraps { side as i32 } else { 2 * side as i32 };
        }
        let at = (0..host.node_count())
            .map(|v| {
                let mut c = [0u8; AXES];
                for (axis, x) in host.coords(v).into_iter().enumerate() {
                    c[axis] = x as u8;
                }
                c
            })
            .collect();
        Some(Coords::Grid { at, turn })
    }

    /// Hops between host nodes `a` and `b`.
    #[inline]
    pub(crate) fn d(&self, a: u64, b: u64) -> u64 {
        match self {
            Coords::Cube => u64::from((a ^ b).count_ones()),
            Coords::Grid { at, turn } => {
                let (x, y) = (&at[a as usize], &at[b as usize]);
                let mut sum = 0i32;
                for axis in 0..AXES {
                    let delta = (i32::from(x[axis]) - i32::from(y[axis])).abs();
                    sum += delta.min(turn[axis] - delta);
                }
                sum as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology;

    /// Every pair of nodes is as far apart as the host says, on rings,
    /// lines, tori, meshes, mixed grids (a wrapped side of 2 included) and
    /// cubes; hosts beyond four axes or 256 nodes a side have none.
    #[test]
    fn coordinates_answer_as_the_host() {
        for spec in [
            "ring:7",
            "line:9",
            "torus:6x4",
            "mesh:5x3x2",
            "grid:4wx3x2w",
            "torus:3x2x4x2",
            "torus:256x2",
            "cube:6",
        ] {
            let host = topology::parse(spec).unwrap();
            let coords = Coords::of(host.as_ref()).unwrap();
            let n = host.node_count();
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(coords.d(a, b), host.distance(a, b), "{spec}: {a} -> {b}");
                }
            }
        }
        for spec in ["torus:2x2x2x2x2", "ring:257", "tleaf:4x4:10,1"] {
            let host = topology::parse(spec).unwrap();
            assert!(Coords::of(host.as_ref()).is_none(), "{spec}");
        }
    }
}
