//! Exact link and node loads of an axis-product embedding of a d-cube onto
//! a grid with power-of-two sides (xor, standard: host coordinate j of f(n)
//! depends only on the cube bits of axis j's field,
//! [`Embedding::axis_product`]).
//!
//! A cube edge along a dimension of axis j's field then changes host
//! coordinate j alone, so dimension-order routing moves it along axis j
//! only, on the host line through its ends; and every line of axis j — one
//! per value of the other fields — carries the same loads, those of the
//! sub-cube of axis j's field mapped onto one line. One line per axis,
//! counted with its multiplicity N / side, gives every link load, the
//! congestion, the histogram and the per-axis loads; a node's load is the
//! sum over the axes of its lines' through-counts. O(d · largest side), no
//! counter per host node: cube:30 on torus:32768x32768 is routed in
//! milliseconds where counters per node would need 16 GiB a thread.

use super::{Summary, Tally, Traffic};
use crate::embed::Embedding;
use crate::routing::TieRule;
use crate::spec::Spec;
use crate::topology::{Grid, Topology};

/// Lines are routed only when their edges are at most this share of the
/// guest's (a ring is one line holding every edge: there the parallel
/// edge-by-edge pass is faster, 8.0 s against 14 s for cube:26 on
/// ring:2^26).
const MOST_LINE_SHARE: u64 = 8;

/// The traffic of `embedding` when [`applies`]; `None` otherwise (or when an
/// edge turns out to leave its axis: then the caller routes edge by edge).
pub(super) fn measure(
    guest: &dyn Topology,
    grid: &Grid,
    embedding: &dyn Embedding,
    ties: TieRule,
) -> Option<Traffic> {
    if !applies(guest, grid, embedding) {
        return None;
    }
    factored(grid, embedding, ties)
}

/// Whether `embedding` of `guest` onto `grid` is routed line by line
/// ([`measure`]): an axis product whose lines are short beside the guest.
pub(super) fn applies(guest: &dyn Topology, grid: &Grid, embedding: &dyn Embedding) -> bool {
    is_product(guest, grid, embedding) && short_lines(guest, grid)
}

/// Whether `embedding` is an axis product of a cube onto `grid` with
/// power-of-two sides and as many nodes, without volumes.
fn is_product(guest: &dyn Topology, grid: &Grid, embedding: &dyn Embedding) -> bool {
    let sides = grid.sides();
    let widths: u32 = sides.iter().map(|k| k.trailing_zeros()).sum();
    embedding.axis_product()
        && !guest.is_weighted()
        && sides.iter().all(|k| k.is_power_of_two())
        && matches!(*guest.spec(), Spec::Cube(d) if d == widths)
}

/// Whether the lines' edges are at most 1 / [`MOST_LINE_SHARE`] of the guest's.
fn short_lines(guest: &dyn Topology, grid: &Grid) -> bool {
    let line_edges: u64 = grid
        .sides()
        .iter()
        .map(|&k| k * u64::from(k.trailing_zeros()) / 2)
        .sum();
    line_edges.saturating_mul(MOST_LINE_SHARE) <= guest.edge_count()
}

/// The line-by-line loads of an axis product ([`is_product`]), whatever
/// the lines' size.
fn factored(grid: &Grid, embedding: &dyn Embedding, ties: TieRule) -> Option<Traffic> {
    let sides = grid.sides();
    let rings = grid.rings();
    let widths: Vec<u32> = sides.iter().map(|k| k.trailing_zeros()).collect();
    let n = grid.node_count();
    let mut s = Summary::with_axes(sides.len());
    // Σ over the axes of each line's through-count and traffic extremes.
    let (mut load, mut traffic) = (Tally::default(), Tally::default());
    let (mut load_max, mut load_min, mut traffic_max, mut traffic_min) = (0, 0, 0, 0);
    let mut offset = 0;
    for (j, (&side, &w)) in sides.iter().zip(&widths).enumerate() {
        let line = Line::route(embedding, grid, (j, offset, w), side, ties)?;
        let copies = n / side;
        let links = if rings[j] { side } else { side - 1 };
        for &l in &line.links[..links as usize] {
            for tally in [&mut s.links, &mut s.axes[j]] {
                tally.add_many(l, copies);
            }
            s.histogram.add_many(l, copies);
        }
        let mut through = Tally::default();
        let mut handled = Tally::default();
        for t in 0..side as usize {
            let before = match t {
                0 if rings[j] => line.links[side as usize - 1],
                0 => 0,
                _ => line.links[t - 1],
            };
            let after = if t + 1 < side as usize || rings[j] {
                line.links[t]
            } else {
                0
            };
            let incident = before + after;
            through.add_many((incident - line.ends[t]) / 2, copies);
            handled.add_many((incident + line.ends[t]) / 2, copies);
        }
        load.sum += through.sum;
        traffic.sum += handled.sum;
        load_max += through.max;
        load_min += through.min;
        traffic_max += handled.max;
        traffic_min += handled.min;
        offset += w;
    }
    load.count = n;
    traffic.count = n;
    (load.max, load.min, traffic.max, traffic.min) = (load_max, load_min, traffic_max, traffic_min);
    s.load = load;
    s.traffic = traffic;
    Some(s.finish(true))
}

/// The loads of one line of axis j: `links[t]` on the link from coordinate
/// t to t + 1 (the wrap link at t = side − 1 on a ring), `ends[t]` the routes
/// that start or end at t.
struct Line {
    links: Vec<u64>,
    ends: Vec<u64>,
}

impl Line {
    /// Routes every edge of the sub-cube of axis j's field (`w` bits from
    /// bit `offset`), the other fields 0, by the grid's own legs; `None` if
    /// an edge leaves axis j.
    fn route(
        embedding: &dyn Embedding,
        grid: &Grid,
        (j, offset, w): (usize, u32, u32),
        side: u64,
        ties: TieRule,
    ) -> Option<Line> {
        let mut diff = vec![0i64; side as usize + 1];
        let mut ends = vec![0u64; side as usize];
        let stride: u64 = grid.strides()[j];
        let coordinate = |x: u64| (x / stride) % side;
        let mut on_axis = true;
        for m in 0..side {
            let a = embedding.map(m << offset);
            for b in (0..w).filter(|b| m >> b & 1 == 0) {
                let z = embedding.map((m | 1 << b) << offset);
                if a == z {
                    continue;
                }
                ends[coordinate(a) as usize] += 1;
                ends[coordinate(z) as usize] += 1;
                grid.legs(a, z, ties, |leg| {
                    if leg.axis != j {
                        on_axis = false;
                        return;
                    }
                    let end = leg.first_link + leg.len;
                    diff[leg.first_link as usize] += 1;
                    if end <= side {
                        diff[end as usize] -= 1;
                    } else {
                        // The run wraps past coordinate side − 1.
                        diff[side as usize] -= 1;
                        diff[0] += 1;
                        diff[(end - side) as usize] -= 1;
                    }
                });
            }
        }
        if !on_axis {
            return None;
        }
        let mut links = Vec::with_capacity(side as usize);
        let mut running = 0i64;
        for &x in &diff[..side as usize] {
            running += x;
            links.push(running as u64);
        }
        Some(Line { links, ends })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed;
    use crate::topology;

    /// The factored loads equal the edge-by-edge difference arrays of
    /// [`super::super::lines`] on rings, tori with sides of 2, 4 and more,
    /// and both tie rules.
    #[test]
    fn factored_loads_equal_the_routed_ones() {
        let mut compared = 0;
        for (d, host) in [
            (4, "ring:16"),
            (6, "torus:8x8"),
            (6, "torus:4x16"),
            (7, "torus:2x8x8"),
            (5, "torus:2x2x8"),
            (8, "torus:4x4x16"),
            (3, "torus:2x2x2"),
            (9, "torus:8x64"),
            (6, "mesh:8x8"),
            (4, "line:16"),
            (7, "grid:16wx8"),
        ] {
            let guest = topology::parse(&format!("cube:{d}")).unwrap();
            let name = host;
            let host = topology::parse(host).unwrap();
            let grid = Grid::new(host.spec().clone());
            for method in ["xor", "standard"] {
                let Ok(e) = embed::build(method, guest.as_ref(), host.as_ref()) else {
                    continue;
                };
                for ties in [TieRule::Increasing, TieRule::Decreasing] {
                    assert!(is_product(guest.as_ref(), &grid, e.as_ref()));
                    let factored = factored(&grid, e.as_ref(), ties)
                        .expect("xor and standard stay on their axes");
                    let routed =
                        super::super::lines::measure(guest.as_ref(), &grid, e.as_ref(), ties, None)
                            .unwrap();
                    assert_eq!(factored, routed, "{method} cube:{d} on {name} ({ties})");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 36, "{compared} cases compared");
    }

    /// Other embeddings, guests and hosts are left to the edge-by-edge pass.
    #[test]
    fn only_axis_products_are_factored() {
        let pair = |guest: &str, host: &str, method: &str| {
            let (g, h) = (
                topology::parse(guest).unwrap(),
                topology::parse(host).unwrap(),
            );
            let e = embed::build(method, g.as_ref(), h.as_ref()).unwrap();
            let grid = Grid::new(h.spec().clone());
            (
                is_product(g.as_ref(), &grid, e.as_ref()),
                applies(g.as_ref(), &grid, e.as_ref()),
            )
        };
        assert_eq!(pair("cube:6", "torus:8x8", "gray"), (false, false));
        assert_eq!(pair("torus:8x8", "torus:8x8", "identity"), (false, false));
        assert_eq!(pair("ring:48", "torus:8x6", "identity"), (false, false));
        // A ring is one line holding every edge: left to the parallel pass.
        assert_eq!(pair("cube:6", "ring:64", "xor"), (true, false));
        assert_eq!(pair("cube:12", "torus:64x64", "xor"), (true, true));
        let (g, h) = (
            topology::parse("cube:12").unwrap(),
            topology::parse("torus:64x64").unwrap(),
        );
        let e = embed::build("xor", g.as_ref(), h.as_ref()).unwrap();
        let grid = Grid::new(h.spec().clone());
        assert!(measure(g.as_ref(), &grid, e.as_ref(), TieRule::Increasing).is_some());
    }
}
