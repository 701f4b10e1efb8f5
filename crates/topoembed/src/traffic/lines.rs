//! Link and node loads on grid hosts under dimension-order routing, by
//! difference arrays along the host lines: O(guest edges + host nodes).
//!
//! Counter layout: for each axis k an array over host nodes whose entry at
//! node x is, after the prefix sums, the load of the link from x to its +1
//! neighbour on axis k (the wrap link at coordinate K-1 of a ring); then one
//! array of route ends per node.

use rayon::prelude::*;

use super::counters::Replicas;
use super::{for_mapped_edges, off_host, volume_at, Summary, Traffic};
use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::routing::TieRule;
use crate::topology::{Grid, Leg, Topology};

pub(super) fn measure(
    guest: &dyn Topology,
    grid: &Grid,
    embedding: &dyn Embedding,
    ties: TieRule,
    progress: Option<&Progress>,
) -> Result<Traffic> {
    let n = grid.node_count();
    let axes = grid.edge_classes() as usize;
    // For a one-to-one map onto the whole host no guest edge has both ends on
    // one node, so the routes ending at x are the guest edges at f^-1(x):
    // its degree. No need to count them (a third fewer counter updates).
    // (With volumes, the ends' loads are volumes, not degrees.)
    let one_to_one =
        guest.node_count() == n && embedding.inverse(0).is_some() && !guest.is_weighted();
    let arrays = axes as u64 + u64::from(!one_to_one);
    let replicas = Replicas::new(n * arrays, "link and node loads")?;
    let failed = crate::stream::chunks(guest.node_count())
        .into_par_iter()
        .map(|range| {
            replicas.with(|counters| {
                let (links, ends) = counters.split_at_mut(axes * n as usize);
                let mut bad = None;
                for_mapped_edges(guest, embedding, range, progress, |from, to, volumes| {
                    for (k, (&a, &b)) in from.iter().zip(to).enumerate() {
                        if a == b {
                            continue;
                        }
                        if a.max(b) >= n {
                            bad = Some(a.max(b));
                            continue;
                        }
                        let w = volume_at(volumes, k);
                        if !one_to_one {
                            ends[a as usize] += w;
                            ends[b as usize] += w;
                        }
                        grid.legs(a, b, ties, |leg| add_leg(links, n, &leg, w));
                    }
                });
                bad
            })
        })
        .find_any(Option::is_some)
        .flatten();
    if let Some(node) = failed {
        return Err(off_host(grid, node));
    }
    let mut counters = replicas.sum();
    let (links, ends) = counters.split_at_mut(axes * n as usize);
    let sides = grid.sides();
    let strides = grid.strides();
    for (k, array) in links.chunks_mut(n as usize).enumerate() {
        prefix_along_axis(array, sides[k], strides[k]);
    }
    let ends = if one_to_one {
        Ends::Degrees { guest, embedding }
    } else {
        Ends::Counted(ends)
    };
    let summary = summarise(grid, links, &ends)?;
    if summary.load.count != n {
        return Err(Error::Internal("node loads were not all counted".into()));
    }
    Ok(summary.finish(true))
}

/// Adds one leg's links, `first_link .. first_link + len` cyclically, to the
/// difference array of its axis: +w where the run starts, -w just after it.
#[inline(always)]
fn add_leg(links: &mut [u32], n: u64, leg: &Leg, w: u32) {
    let array = &mut links[leg.axis * n as usize..][..n as usize];
    let at = |t: u64| (leg.base + t * leg.stride) as usize;
    let end = leg.first_link + leg.len;
    array[at(leg.first_link)] = array[at(leg.first_link)].wrapping_add(w);
    if end < leg.side {
        array[at(end)] = array[at(end)].wrapping_sub(w);
    } else if end > leg.side {
        // The run wraps past coordinate K-1: it also covers 0 .. end - K.
        array[at(0)] = array[at(0)].wrapping_add(w);
        array[at(end - leg.side)] = array[at(end - leg.side)].wrapping_sub(w);
    }
}

/// Prefix sums along every line of one axis. The array is `[outer][side][stride]`:
/// each outer block holds `stride` lines side by side, so summing row t-1 into
/// row t handles all of them with contiguous, vectorisable loops.
fn prefix_along_axis(array: &mut [u32], side: u64, stride: u64) {
    let (side, stride) = (side as usize, stride as usize);
    let block = side * stride;
    let rows = |b: &mut [u32], parallel: bool| {
        for t in 1..side {
            let (prev, row) = b[(t - 1) * stride..(t + 1) * stride].split_at_mut(stride);
            let add = |(r, p): (&mut [u32], &[u32])| {
                for (x, y) in r.iter_mut().zip(p) {
                    *x = x.wrapping_add(*y);
                }
            };
            if parallel {
                row.par_chunks_mut(1 << 14)
                    .zip(prev.par_chunks(1 << 14))
                    .for_each(add);
            } else {
                row.chunks_mut(1 << 14)
                    .zip(prev.chunks(1 << 14))
                    .for_each(add);
            }
        }
    };
    if array.len() / block >= 4 * rayon::current_num_threads() {
        array.par_chunks_mut(block).for_each(|b| rows(b, false));
    } else {
        for b in array.chunks_mut(block) {
            rows(b, true);
        }
    }
}

/// Routes ending at each host node.
enum Ends<'a> {
    /// Counted during the pass.
    Counted(&'a [u32]),
    /// A one-to-one map: the guest degree of the node placed there.
    Degrees {
        guest: &'a dyn Topology,
        embedding: &'a dyn Embedding,
    },
}

impl Ends<'_> {
    /// Routes ending at `x`; `None` if the map turns out not to be one-to-one.
    #[inline]
    fn at(&self, x: u64) -> Option<u64> {
        match self {
            Ends::Counted(c) => Some(u64::from(c[x as usize])),
            Ends::Degrees { guest, embedding } => {
                let g = embedding.inverse(x)?;
                (g < guest.node_count() && embedding.map(g) == x).then(|| guest.degree(g))
            }
        }
    }
}

/// Link-load and node-load statistics from the summed link loads and ends.
fn summarise(grid: &Grid, links: &[u32], ends: &Ends) -> Result<Summary> {
    let n = grid.node_count();
    let sides = grid.sides();
    let strides = grid.strides();
    let axes = sides.len();
    // A ring of side 2 is one link, like a line of side 2.
    let ring = grid.rings();
    let summary = crate::stream::chunks(n)
        .into_par_iter()
        .map(|range| {
            let mut s = Summary::with_axes(axes);
            let mut coords = grid.coords(range.start);
            for x in range {
                let mut incident = 0u64;
                for k in 0..axes {
                    let array = &links[k * n as usize..][..n as usize];
                    let (c, side, stride) = (coords[k], sides[k], strides[k]);
                    if c + 1 < side || ring[k] {
                        let load = u64::from(array[x as usize]);
                        incident += load;
                        s.links.add(load);
                        s.axes[k].add(load);
                        s.histogram.add(load);
                    }
                    if c > 0 {
                        incident += u64::from(array[(x - stride) as usize]);
                    } else if ring[k] {
                        incident += u64::from(array[(x + (side - 1) * stride) as usize]);
                    }
                }
                let Some(end) = ends.at(x) else {
                    s.not_one_to_one = Some(x);
                    break;
                };
                s.load.add((incident - end) / 2);
                s.traffic.add((incident + end) / 2);
                // Next coordinates, axis 1 fastest.
                for k in 0..axes {
                    coords[k] += 1;
                    if coords[k] < sides[k] {
                        break;
                    }
                    coords[k] = 0;
                }
            }
            s
        })
        .reduce(|| Summary::with_axes(axes), Summary::merge);
    match summary.not_one_to_one {
        Some(x) => Err(Error::Internal(format!(
            "the embedding's inverse does not lead back to host node {x}"
        ))),
        None => Ok(summary),
    }
}
