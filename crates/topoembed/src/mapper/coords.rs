//! Host distances from each node's coordinates, for grid-shaped hosts too
//! large for a distance table to stay in the cache ([`super::distance`]):
//! a torus or mesh distance is Σ over axes of min(|Δ|, side − |Δ|) (|Δ| on
//! an axis that does not wrap), a hypercube's the popcount of a XOR — a
//! few instructions on data that fits the cache, where a table of 4096
//! nodes (16 MiB) misses it on nearly every read. Where a grid's
//! coordinates pack into a word of 16 bits with a spare bit per axis,
//! [`Differences`] reads the distance from a table by their difference
//! instead (64 KiB at most), with no turn to compute per axis.

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
            turn[axis] = turn_of(side, wraps) as i32;
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

/// The length of a turn along an axis of `side` nodes: the side where it
/// wraps, twice it where it does not (so no way round is ever shorter);
/// `|Δ|` hops along it are `min(|Δ|, turn − |Δ|)`.
fn turn_of(side: u64, wraps: bool) -> u64 {
    match wraps {
        true => side,
        false => 2 * side,
    }
}

/// Most bits of a [`Differences`] index (a table of 64 KiB at most).
const MAX_DIFFERENCE_BITS: u32 = 16;

/// Grid distances by the coordinates' differences: every node's
/// coordinates packed into one word (`code`), each axis in a field one
/// bit wider than its coordinates need, and a table of the distance of
/// every difference. `(code[a] | guard) − code[b]` sets the spare bit of
/// each field before subtracting, so no field borrows from the next: field
/// i holds 2^bᵢ + xᵢ(a) − xᵢ(b), which names the signed difference on that
/// axis, and the whole word indexes the table. A torus of 512 nodes has a
/// table of 4 KiB where the table by pairs holds 256 KiB. (Public only as
/// [`super::distance::Row::Differences`] holds it: no path outside the
/// crate names it.)
pub struct Differences {
    code: Vec<u32>,
    guard: u32,
    table: Vec<u8>,
}

impl Differences {
    /// The differences of `host`, a ring, line, torus, mesh or mixed grid
    /// whose index fits [`MAX_DIFFERENCE_BITS`] and whose distances fit a
    /// byte; `None` otherwise.
    pub(crate) fn of(host: &dyn Topology) -> Option<Differences> {
        let (sides, wraps) = host.spec().grid()?;
        if host.diameter() > u64::from(u8::MAX) {
            return None;
        }
        // Per axis: bits of a coordinate, and where its field starts.
        let mut fields = Vec::with_capacity(sides.len());
        let mut at = 0u32;
        for &side in sides {
            let bits = 64 - (side.max(2) - 1).leading_zeros();
            fields.push((bits, at));
            at += bits + 1;
            if at > MAX_DIFFERENCE_BITS {
                return None;
            }
        }
        let guard = fields.iter().map(|&(bits, at)| 1u32 << (at + bits)).sum();
        let code = (0..host.node_count())
            .map(|v| {
                host.coords(v)
                    .iter()
                    .zip(&fields)
                    .map(|(&x, &(_, at))| (x as u32) << at)
                    .sum()
            })
            .collect();
        let mut table = vec![0u8; 1 << at];
        for (index, entry) in table.iter_mut().enumerate() {
            let mut sum = 0u64;
            for ((&side, &wraps), &(bits, at)) in sides.iter().zip(&wraps).zip(&fields) {
                let field = (index as u64 >> at) & ((2 << bits) - 1);
                let delta = field.abs_diff(1 << bits);
                sum += delta.min(turn_of(side, wraps).saturating_sub(delta));
            }
            // Differences no two nodes have may hold anything.
            *entry = u8::try_from(sum).unwrap_or(u8::MAX);
        }
        Some(Differences { code, guard, table })
    }

    /// Node `a`'s packed coordinates with every field's spare bit set:
    /// the left side of [`Differences::from`].
    #[inline]
    pub(crate) fn source(&self, a: u64) -> u32 {
        self.code[a as usize] | self.guard
    }

    /// Hops from the node whose [`Differences::source`] is `source` to `b`.
    #[inline]
    pub(crate) fn from(&self, source: u32, b: u64) -> u64 {
        u64::from(self.table[(source - self.code[b as usize]) as usize])
    }

    /// Hops between host nodes `a` and `b`.
    #[inline]
    pub(crate) fn d(&self, a: u64, b: u64) -> u64 {
        self.from(self.source(a), b)
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// On random grids of one to four axes, each wrapping or not, the
        /// differences exist exactly where the packed index fits 16 bits
        /// and answer as the host for every pair.
        #[test]
        fn differences_answer_as_random_grids(
            axes in proptest::collection::vec((2u64..=12, proptest::bool::ANY), 1..=4),
        ) {
            let spec = format!(
                "grid:{}",
                axes.iter()
                    .map(|&(side, wraps)| format!("{side}{}", if wraps { "w" } else { "" }))
                    .collect::<Vec<_>>()
                    .join("x")
            );
            let host = topology::parse(&spec).unwrap();
            let bits: u32 = axes.iter().map(|&(side, _)| 65 - (side.max(2) - 1).leading_zeros()).sum();
            let diff = Differences::of(host.as_ref());
            proptest::prop_assert_eq!(diff.is_some(), bits <= MAX_DIFFERENCE_BITS, "{}", spec);
            if let Some(diff) = diff {
                let n = host.node_count();
                for a in 0..n {
                    for b in 0..n {
                        proptest::prop_assert_eq!(diff.d(a, b), host.distance(a, b), "{}: {} -> {}", spec, a, b);
                    }
                }
            }
        }
    }

    /// The differences answer as the host on rings, lines, tori, meshes
    /// and mixed grids of odd and even sides; an index past 16 bits, a
    /// distance past a byte and hosts that are not grids have none.
    #[test]
    fn differences_answer_as_the_host() {
        for spec in [
            "ring:7",
            "line:9",
            "ring:2",
            "torus:6x4",
            "torus:8x8x8",
            "mesh:5x3x2",
            "grid:4wx3x2w",
            "torus:3x2x4x2",
            "torus:16x16",
            "mesh:32x32",
            "torus:2x2x2x2x2",
        ] {
            let host = topology::parse(spec).unwrap();
            let diff = Differences::of(host.as_ref()).unwrap_or_else(|| panic!("{spec}"));
            let n = host.node_count();
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(diff.d(a, b), host.distance(a, b), "{spec}: {a} -> {b}");
                }
            }
        }
        for spec in [
            "torus:16x16x16x2",
            "line:300",
            "torus:256x256",
            "cube:6",
            "tleaf:4x4:10,1",
        ] {
            let host = topology::parse(spec).unwrap();
            assert!(Differences::of(host.as_ref()).is_none(), "{spec}");
        }
    }
}
