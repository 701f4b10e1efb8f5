//! Cuts of a grid into one box per host node, and the grid of boxes each
//! cut leaves: what [`super::structured`] places. Onto a grid host of
//! fewer axes than the guest's grid the boxes fold, and which cut is best
//! depends on where they land ([`folded`]): the edges across an axis whose
//! boxes lie a hop apart cost one hop each, those across an axis folded
//! around another cost its mean step. (A host axis of 2 is one link, so
//! torus:8x8x2 counts as a host of two axes here.)

use rayon::prelude::*;

use super::{grid, nested};
use crate::mapper::recognize::{self, Grid};
use crate::spec::Spec;
use crate::topology::{self, Topology};

/// Cuts placed on a host of fewer axes ([`folded`]).
const FOLDS: usize = 3;
/// Factorizations weighed by [`folded`] at most (cuts alike but for their
/// axes' order counted once).
const MAX_FOLDED: usize = 256;
/// Factorizations met by [`folded`] per one weighed, at most (most are
/// alike where many axes are: a hypercube's grid of 2s).
const MET_PER_FOLDED: usize = 16;

/// Guest edges cut across each axis of a grid of `sides` (`wraps`: the
/// axes that close into rings) cut into `cut` segments per axis: a ring
/// cut into b ≥ 2 segments is cut by b planes, a line by b − 1, each plane
/// crossing n / side edges.
pub(super) fn cut_across(sides: &[u64], wraps: &[bool], cut: &[u64]) -> Vec<u64> {
    let n: u64 = sides.iter().product();
    (0..sides.len())
        .map(|a| {
            let planes = match (cut[a], wraps[a]) {
                (1, _) => 0,
                (b, true) => b,
                (b, false) => b - 1,
            };
            planes * (n / sides[a])
        })
        .collect()
}

/// Nodes in the largest box of a grid of `sides` cut `cut` per axis into
/// near-equal segments (⌈side / cut⌉ per axis).
pub(super) fn largest_box(sides: &[u64], cut: &[u64]) -> u64 {
    cut.iter()
        .zip(sides)
        .map(|(&b, &k)| k.div_ceil(b))
        .product()
}

/// Whether `cut` divides every side of `sides`: every box alike.
pub(super) fn cuts_evenly(sides: &[u64], cut: &[u64]) -> bool {
    cut.iter().zip(sides).all(|(&b, &k)| k % b == 0)
}

/// The axes `cut` cuts, and the sides and wrap-arounds of its grid of
/// boxes along them (an axis wraps where the grid's does and it has at
/// least 3 boxes); `None` when nothing is cut.
fn box_axes(grid: &Grid, cut: &[u64]) -> Option<(Vec<usize>, Vec<u64>, Vec<bool>)> {
    let axes: Vec<usize> = (0..cut.len()).filter(|&a| cut[a] > 1).collect();
    if axes.is_empty() {
        return None;
    }
    let sides = axes.iter().map(|&a| cut[a]).collect();
    let wraps = axes.iter().map(|&a| grid.wraps[a] && cut[a] >= 3).collect();
    Some((axes, sides, wraps))
}

/// The grid of boxes `cut` makes: the axes it cuts, its spec and the grid
/// itself ([`box_axes`]); `None` when nothing is cut.
pub(super) fn box_grid(grid: &Grid, cut: &[u64]) -> Option<(Vec<usize>, Spec, Box<dyn Topology>)> {
    let (axes, sides, wraps) = box_axes(grid, cut)?;
    let box_spec = recognize::grid_spec(sides, wraps);
    let box_grid = topology::build(&box_spec).ok()?;
    Some((axes, box_spec, box_grid))
}

/// A cut of the grid and the host node of each of its boxes.
pub(super) struct FoldedCut {
    /// Segments per axis of the guest grid.
    pub cut: Vec<u64>,
    /// Host node of every box of the cut's box grid ([`box_grid`]).
    pub hosts: Vec<u64>,
    /// The placement's hop-bytes where every segment of an axis is as long
    /// ([`boxes_hop_bytes`]).
    pub hop_bytes: f64,
}

/// Onto a grid host of fewer axes than `grid` (a torus, mesh, ring or
/// line, `p` nodes): the [`FOLDS`] cuts into `p` boxes whose box grids,
/// placed as below, cost the least hop-bytes; none onto any other host.
/// A cut's box grid is placed by `axes` with each axis weighed by the
/// guest edges cut across it, and also with any two of its axes first
/// merged into one by a cycle through their boxes ([`merged_position`]),
/// again while it has more axes than the host, each merged grid placed so
/// ([`Folding`]); the placement of least hop-bytes is kept.
///
/// Why: the cut of fewest edges (near-cubes) folds its box grid onto the
/// host, and the edges across a folded axis lie several hops apart. A
/// 16^3 7-point stencil onto torus:16x16 in 4x2x2 boxes costs 7 680
/// hop-bytes (4 352 cut edges, most folded); in 1x2x8 boxes, 16x8x2 of
/// them (5 888 cut edges), the 8 boxes along y and the 2 along z share
/// one host axis of 16 as a cycle — the z halves head to tail around its
/// wrap — every x or y edge one hop, the 256 z edges 4 on average: 6 656
/// (Scotch: 6 606). Each placement takes one plan search (milliseconds
/// onto a host of two axes), so at most [`MAX_FOLDED`] cuts are weighed,
/// in parallel.
pub(super) fn folded(grid: &Grid, p: u64, host: &dyn Topology) -> Vec<FoldedCut> {
    let Some((host_sides, _)) = host.spec().grid() else {
        return Vec::new();
    };
    // (An axis of 2 is one link: a grid folds onto torus:8x8x2 as onto
    // fewer axes.)
    let host_axes = host_sides.iter().filter(|&&k| k > 2).count();
    let grid_axes = grid.sides.iter().filter(|&&k| k > 1).count();
    if host_axes == 0 || host_axes >= grid_axes {
        return Vec::new();
    }
    // Cuts alike but for the order of their axes — the same (side,
    // wrap-around, segments) on every axis, in another order: a hypercube's
    // 2^12 grid cut into 64 boxes 924 ways — make the same box grid with
    // the same weights, and are weighed once (the first met).
    let mut cuts: Vec<Vec<u64>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut budget = MAX_FOLDED * MET_PER_FOLDED;
    let mut cut = Vec::with_capacity(grid.sides.len());
    nested::factorizations(&grid.sides, p, &mut cut, &mut budget, &mut |c| {
        let mut alike: Vec<(u64, bool, u64)> = (0..c.len())
            .map(|a| (grid.sides[a], grid.wraps[a], c[a]))
            .collect();
        alike.sort_unstable();
        if cuts.len() < MAX_FOLDED && seen.insert(alike) {
            cuts.push(c.to_vec());
        }
    });
    let mut weighed: Vec<FoldedCut> = cuts
        .into_par_iter()
        .filter_map(|cut| best_fold(grid, cut, host))
        .collect();
    // (Ties: the lesser cut, whatever the threads.)
    weighed.sort_by(|a, b| a.hop_bytes.total_cmp(&b.hop_bytes).then(a.cut.cmp(&b.cut)));
    weighed.truncate(FOLDS);
    weighed
}

/// The least hop-bytes placement of `cut`'s box grid onto `host` among
/// those [`folded`] tries.
fn best_fold(grid: &Grid, cut: Vec<u64>, host: &dyn Topology) -> Option<FoldedCut> {
    let (axes, sides, wraps) = box_axes(grid, &cut)?;
    let across = cut_across(&grid.sides, &grid.wraps, &cut);
    let across: Vec<u64> = axes.iter().map(|&a| across[a]).collect();
    let p: u64 = sides.iter().product();
    let mut coords = vec![0u64; p as usize * sides.len()];
    for (id, c) in coords.chunks_mut(sides.len()).enumerate() {
        decode(id as u64, &sides, c);
    }
    let start = Folding {
        sides: sides.clone(),
        wraps: wraps.clone(),
        weights: across.iter().map(|&e| e as f64).collect(),
        coords,
    };
    // (Merges stop at the host's axes, those of 2 counted: an axis of 2
    // left over takes a factor of 2.)
    let host_axes = host
        .spec()
        .sides()
        .map_or(0, |s| s.iter().filter(|&&k| k > 1).count());
    let mut tried = Vec::new();
    start.place_all(host, host_axes, &mut tried);
    // Onto a host with an axis of 2 also every even axis split in two by a
    // snake, a factor of 2 outside or inside, free to take that link: 16^3
    // onto torus:16x8x2 in 2x2x4 boxes, z's 4 split 2x2 — one half head to
    // tail with x around 16, the other across the link — 5 120 (unsplit
    // 5 888, Scotch 5 440).
    if host.spec().sides().is_some_and(|s| s.contains(&2)) {
        for (axis, &side) in sides.iter().enumerate() {
            if side > 2 && side % 2 == 0 {
                for f in [2, side / 2] {
                    start.split(axis, f).place_all(host, host_axes, &mut tried);
                }
            }
        }
    }
    tried
        .into_iter()
        .map(|hosts| {
            (
                boxes_hop_bytes(&sides, &wraps, &across, &hosts, host),
                hosts,
            )
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(hop_bytes, hosts)| FoldedCut {
            cut,
            hosts,
            hop_bytes,
        })
}

/// A box grid on its way to the host's axes: the grid it is now (sides,
/// wraps, each axis's weight) and every box's coordinates in it (box b's
/// at `coords[b·axes..]`).
struct Folding {
    sides: Vec<u64>,
    wraps: Vec<bool>,
    weights: Vec<f64>,
    coords: Vec<u64>,
}

impl Folding {
    /// Every box's host node as `axes` places this grid, weighed, then, while
    /// it has more axes than the host (`host_axes`), the same for every two
    /// of its axes merged ([`Folding::merged`]): a 3-D box grid onto a ring
    /// is walked as a cycle of cycles, onto two axes once merged.
    fn place_all(&self, host: &dyn Topology, host_axes: usize, out: &mut Vec<Vec<u64>>) {
        let d = self.sides.len();
        let spec = recognize::grid_spec(self.sides.clone(), self.wraps.clone());
        let placed = topology::build(&spec)
            .ok()
            .and_then(|g| grid::axes_least_weighted_mean_hop(g.as_ref(), host, &self.weights).ok());
        if let Some((emb, _)) = placed {
            out.push(
                self.coords
                    .chunks(d)
                    .map(|c| {
                        let id = c
                            .iter()
                            .zip(&self.sides)
                            .rev()
                            .fold(0, |acc, (&x, &s)| acc * s + x);
                        emb.map(id)
                    })
                    .collect(),
            );
        }
        if d <= host_axes {
            return;
        }
        // Axes alike (the same side, wrap-around and weight) are
        // interchangeable — the boxes' grid is their product, and swapping
        // two alike axes maps it onto itself — so merging one or another
        // gives the same placements up to that swap, at the same hop-bytes:
        // only the first of each kind is merged (a hypercube's box grid of
        // 2s, 6 axes onto torus:8x8, was 43 200 placements for one).
        for outer in (0..d).filter(|&a| self.first_alike(a, None)) {
            for inner in (0..d).filter(|&a| a != outer && self.first_alike(a, Some(outer))) {
                self.merged(outer, inner).place_all(host, host_axes, out);
            }
        }
    }

    /// Whether `axis` is the first of the axes alike it (side, wrap-around
    /// and weight the same) but `besides`.
    fn first_alike(&self, axis: usize, besides: Option<usize>) -> bool {
        let kind = |a: usize| (self.sides[a], self.wraps[a], self.weights[a].to_bits());
        (0..axis).all(|a| Some(a) == besides || kind(a) != kind(axis))
    }

    /// This grid with `axis` (of side f·g) split into an axis of `f` in its
    /// place and one of g last, the two walked by a snake (the g along
    /// each of the f in turn, alternate ones backwards: every step of the
    /// axis a step of one of them), lines both, weighed by their steps.
    fn split(&self, axis: usize, f: u64) -> Folding {
        let d = self.sides.len();
        let s = self.sides[axis];
        let g = s / f;
        let steps = (s - 1) as f64;
        let mut sides = self.sides.clone();
        let mut wraps = self.wraps.clone();
        let mut weights = self.weights.clone();
        sides[axis] = f;
        sides.push(g);
        wraps[axis] = false;
        wraps.push(false);
        let w = weights[axis];
        weights[axis] = w * (f - 1) as f64 / steps;
        weights.push(w * (f * (g - 1)) as f64 / steps);
        let coords = self
            .coords
            .chunks(d)
            .flat_map(|c| {
                let (u, v) = (c[axis] / g, c[axis] % g);
                let v = if u % 2 == 0 { v } else { g - 1 - v };
                let mut split = c.to_vec();
                split[axis] = u;
                split.push(v);
                split
            })
            .collect();
        Folding {
            sides,
            wraps,
            weights,
            coords,
        }
    }

    /// This grid with axes `outer` and `inner` merged into one of their
    /// product's length at `outer`'s place, walked by [`merged_position`]
    /// (a ring where the walk is a cycle), weighed as `inner` (whose edges
    /// are its steps).
    fn merged(&self, outer: usize, inner: usize) -> Folding {
        let d = self.sides.len();
        let (a, b) = (self.sides[outer], self.sides[inner]);
        let kept: Vec<usize> = (0..d).filter(|&x| x != inner).collect();
        let pick = |x: usize| if x == outer { inner } else { x };
        Folding {
            sides: kept
                .iter()
                .map(|&x| if x == outer { a * b } else { self.sides[x] })
                .collect(),
            wraps: kept
                .iter()
                .map(|&x| match x == outer {
                    true => a % 2 == 0 || b % 2 == 0,
                    false => self.wraps[x],
                })
                .collect(),
            weights: kept.iter().map(|&x| self.weights[pick(x)]).collect(),
            coords: self
                .coords
                .chunks(d)
                .flat_map(|c| {
                    kept.iter().map(move |&x| match x == outer {
                        true => merged_position(c[outer], c[inner], (a, b)),
                        false => c[x],
                    })
                })
                .collect(),
        }
    }
}

/// Position of node (u, v) of an `a` × `b` grid along one walk through it:
/// a cycle of unit steps where a or b is even (a ring of a·b positions),
/// otherwise a boustrophedon (a line). The cycle, for even a: rows u
/// walked along v = 1..b in alternate directions, then back up column
/// v = 0 — for a = 2, row 0 one way and row 1 the other, head to tail.
fn merged_position(u: u64, v: u64, (a, b): (u64, u64)) -> u64 {
    if a % 2 == 1 && b % 2 == 0 {
        return merged_position(v, u, (b, a));
    }
    if a % 2 == 1 || b == 1 {
        return u * b + if u % 2 == 0 { v } else { b - 1 - v };
    }
    match v {
        0 => a * (b - 1) + (a - 1 - u),
        _ => u * (b - 1) + if u % 2 == 0 { v - 1 } else { b - 1 - v },
    }
}

/// Coordinates of box `id` of a grid of `sides` (first axis fastest).
fn decode(mut id: u64, sides: &[u64], coords: &mut [u64]) {
    for (c, &s) in coords.iter_mut().zip(sides) {
        *c = id % s;
        id /= s;
    }
}

/// Hop-bytes of a box grid of `sides` (`wraps`) placed on `hosts`, the
/// `across[a]` guest edges across axis a shared evenly by its neighbouring
/// boxes: Σ over neighbouring boxes of their share × host distance.
fn boxes_hop_bytes(
    sides: &[u64],
    wraps: &[bool],
    across: &[u64],
    hosts: &[u64],
    host: &dyn Topology,
) -> f64 {
    let p: u64 = sides.iter().product();
    let mut total = 0.0;
    let mut coords = vec![0u64; sides.len()];
    let mut stride = 1;
    for (a, (&side, &wrap)) in sides.iter().zip(wraps).enumerate() {
        let pairs = (p / side) * (side - 1 + u64::from(wrap));
        let share = across[a] as f64 / pairs.max(1) as f64;
        let mut hops = 0u64;
        for id in 0..p {
            decode(id, sides, &mut coords);
            let next = match (coords[a] + 1 < side, wrap) {
                (true, _) => id + stride,
                (false, true) => id + stride - side * stride,
                (false, false) => continue,
            };
            hops += host.distance(hosts[id as usize], hosts[next as usize]);
        }
        total += share * hops as f64;
        stride *= side;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A grid of `sides` (`wraps`) as the recognizer gives it, in natural
    /// numbering.
    fn natural(sides: &[u64], wraps: &[bool]) -> Grid {
        let n: u64 = sides.iter().product();
        Grid {
            sides: sides.to_vec(),
            wraps: wraps.to_vec(),
            node: (0..n).collect(),
        }
    }

    /// Hop-bytes of the grid of `sides` (`wraps`), every edge volume 1,
    /// each node on the host node of its box (`cut`, even segments),
    /// counted edge by edge.
    fn enumerated(
        sides: &[u64],
        wraps: &[bool],
        cut: &[u64],
        box_hosts: &[u64],
        host: &dyn Topology,
    ) -> u64 {
        let n: u64 = sides.iter().product();
        let d = sides.len();
        let (axes, _, _) = box_grid(&natural(sides, wraps), cut).unwrap();
        let box_of = |c: &[u64]| -> u64 {
            axes.iter()
                .rev()
                .fold(0, |acc, &a| acc * cut[a] + c[a] * cut[a] / sides[a])
        };
        let mut c = vec![0u64; d];
        let mut total = 0;
        for v in 0..n {
            decode(v, sides, &mut c);
            for a in 0..d {
                let wrap = wraps[a] && sides[a] >= 3;
                if c[a] + 1 == sides[a] && !wrap {
                    continue;
                }
                let mut next = c.clone();
                next[a] = (c[a] + 1) % sides[a];
                let (x, y) = (box_of(&c), box_of(&next));
                total += host.distance(box_hosts[x as usize], box_hosts[y as usize]);
            }
        }
        total
    }

    /// The box grid of `sides` (`wraps`, axis weights `weights`) in its own
    /// coordinates, before any merge.
    fn unfolded(sides: &[u64], wraps: &[bool], weights: &[f64]) -> Folding {
        let p: u64 = sides.iter().product();
        let mut coords = vec![0u64; p as usize * sides.len()];
        for (id, c) in coords.chunks_mut(sides.len()).enumerate() {
            decode(id as u64, sides, c);
        }
        Folding {
            sides: sides.to_vec(),
            wraps: wraps.to_vec(),
            weights: weights.to_vec(),
            coords,
        }
    }

    /// [`Folding::place_all`] merging every two axes, alike or not: the
    /// placements the alike axes' skip leaves out among them.
    fn place_every(
        folding: &Folding,
        host: &dyn Topology,
        host_axes: usize,
        out: &mut Vec<Vec<u64>>,
    ) {
        // (This grid alone: no merge below as many axes as it has.)
        folding.place_all(host, usize::MAX, out);
        if folding.sides.len() <= host_axes {
            return;
        }
        let d = folding.sides.len();
        for outer in 0..d {
            for inner in (0..d).filter(|&inner| inner != outer) {
                place_every(&folding.merged(outer, inner), host, host_axes, out);
            }
        }
    }

    /// Hop-bytes of the first of `folds` counted edge by edge on `grid`.
    fn first_counted(grid: &Grid, folds: &[FoldedCut], host: &dyn Topology) -> u64 {
        enumerated(
            &grid.sides,
            &grid.wraps,
            &folds[0].cut,
            &folds[0].hosts,
            host,
        )
    }

    /// The least boxes' hop-bytes among `tried`.
    fn least(f: &Folding, across: &[u64], tried: &[Vec<u64>], host: &dyn Topology) -> f64 {
        tried
            .iter()
            .map(|hosts| boxes_hop_bytes(&f.sides, &f.wraps, across, hosts, host))
            .min_by(f64::total_cmp)
            .unwrap()
    }

    /// A hypercube's grid of 2s cut into 64 boxes (a box grid of six alike
    /// axes) onto torus:8x8: the first of the alike axes merged, 54
    /// placements (43 200 when every two were merged), the least of
    /// them what the edges give, Scotch's 20 480 for cube:12; and the
    /// 924 cuts alike but for their order weighed as one.
    #[test]
    fn alike_axes_are_merged_once() {
        let host = topology::parse("torus:8x8").unwrap();
        let start = unfolded(&[2; 6], &[false; 6], &[2048.0; 6]);
        let mut tried = Vec::new();
        start.place_all(host.as_ref(), 2, &mut tried);
        assert!(tried.len() <= 64, "{} placements", tried.len());
        let grid = natural(&[2; 12], &[false; 12]);
        let folds = folded(&grid, 64, host.as_ref());
        assert_eq!(folds.len(), 1, "one cut up to its axes' order");
        assert_eq!(folds[0].hop_bytes, 20_480.0);
        assert_eq!(first_counted(&grid, &folds, host.as_ref()), 20_480);
    }

    proptest! {
        /// The merged walk visits every node of the a × b grid once, and
        /// every step (around the end too where a or b is even) joins
        /// neighbours.
        #[test]
        fn the_merged_walk_is_a_cycle_of_unit_steps_where_one_exists(a in 2u64..10, b in 2u64..10) {
            let mut at = vec![None; (a * b) as usize];
            for u in 0..a {
                for v in 0..b {
                    let pos = merged_position(u, v, (a, b)) as usize;
                    prop_assert!(at[pos].is_none(), "({u}, {v}) and {:?} at {pos}", at[pos]);
                    at[pos] = Some((u, v));
                }
            }
            let at: Vec<(u64, u64)> = at.into_iter().map(Option::unwrap).collect();
            let closed = a % 2 == 0 || b % 2 == 0;
            let steps = at.len() - usize::from(!closed);
            for k in 0..steps {
                let ((u, v), (x, y)) = (at[k], at[(k + 1) % at.len()]);
                prop_assert_eq!(u.abs_diff(x) + v.abs_diff(y), 1, "step {} of {}x{}", k, a, b);
            }
        }

        /// Merging only the first of alike axes loses nothing: the least
        /// hop-bytes among its placements is the least among those of
        /// every merge order (box grids of 3 or 4 axes, sides 2 to 4, the
        /// weights those of equal sides alike as a cut's are, onto a ring
        /// or a torus of two axes).
        #[test]
        fn merging_one_of_alike_axes_loses_nothing(
            sides in prop::collection::vec(2u64..5, 3..5),
            wraps in prop::collection::vec(any::<bool>(), 4),
            two_axes in any::<bool>(),
        ) {
            let wraps: Vec<bool> = sides.iter().zip(&wraps).map(|(&s, &w)| w && s >= 3).collect();
            let p: u64 = sides.iter().product();
            let across: Vec<u64> = sides.iter().map(|&s| p / s * 8).collect();
            let weights: Vec<f64> = across.iter().map(|&e| e as f64).collect();
            let host = match two_axes {
                true => {
                    let a = (1..=p).rev().find(|&a| p % a == 0 && a * a <= p).unwrap();
                    format!("torus:{}x{}", p / a, a)
                }
                false => format!("ring:{p}"),
            };
            let host = topology::parse(&host).unwrap();
            let host_axes = host.spec().sides().unwrap().iter().filter(|&&k| k > 1).count();
            let start = unfolded(&sides, &wraps, &weights);
            let (mut skipping, mut every) = (Vec::new(), Vec::new());
            start.place_all(host.as_ref(), host_axes, &mut skipping);
            place_every(&start, host.as_ref(), host_axes, &mut every);
            prop_assert!(skipping.len() <= every.len());
            let (ours, all) = (
                least(&start, &across, &skipping, host.as_ref()),
                least(&start, &across, &every, host.as_ref()),
            );
            prop_assert!((ours - all).abs() < 1e-6, "{} against {} ({:?} onto {})", ours, all, sides, host.spec());
        }

        /// Where the cut divides every side, the boxes' hop-bytes are the
        /// grid's, edge by edge, for any placement of the boxes.
        #[test]
        fn the_boxes_cost_what_the_edges_give(
            sides in prop::collection::vec(1u64..4, 2..4),
            cut_shift in prop::collection::vec(0u32..2, 3),
            wraps in prop::collection::vec(any::<bool>(), 3),
            seed in any::<u64>(),
        ) {
            // Sides of 2^s·2^c cut into 2^c: every segment alike.
            let cut: Vec<u64> = sides.iter().zip(&cut_shift).map(|(_, &c)| 1 << c).collect();
            let sides: Vec<u64> = sides.iter().zip(&cut).map(|(&s, &c)| s * c).collect();
            let wraps: Vec<bool> = wraps[..sides.len()].to_vec();
            let grid = natural(&sides, &wraps);
            prop_assume!(box_grid(&grid, &cut).is_some());
            let p: u64 = cut.iter().product();
            let host = topology::parse(&format!("ring:{p}")).unwrap();
            let hosts: Vec<u64> = crate::mapper::rng::Rng::new(seed, 0)
                .permutation(p as usize)
                .into_iter()
                .map(|h| h as u64)
                .collect();
            let (axes, _, _) = box_grid(&grid, &cut).unwrap();
            let box_sides: Vec<u64> = axes.iter().map(|&a| cut[a]).collect();
            let box_wraps: Vec<bool> = axes.iter().map(|&a| wraps[a] && cut[a] >= 3).collect();
            let across: Vec<u64> = {
                let all = cut_across(&sides, &wraps, &cut);
                axes.iter().map(|&a| all[a]).collect()
            };
            // (A side of 2 that wraps is one edge per pair, as the ring
            // of 2 the recognizer sees.)
            let wraps_seen: Vec<bool> = sides.iter().zip(&wraps).map(|(&s, &w)| w && s >= 3).collect();
            prop_assume!(wraps_seen == wraps);
            let counted = boxes_hop_bytes(&box_sides, &box_wraps, &across, &hosts, host.as_ref());
            let edges = enumerated(&sides, &wraps, &cut, &hosts, host.as_ref());
            prop_assert!((counted - edges as f64).abs() < 1e-6, "{} against {}", counted, edges);
        }
    }

    /// The 16^3 grid onto torus:16x16: 1x2x8 boxes (or the same turned),
    /// two axes of their 16x8x2 grid sharing one host axis as a cycle,
    /// 6 656 hop-bytes (the near-cube boxes folded by `axes`: 7 680); onto
    /// torus:8x8, 4x4x4 boxes folded, 3 072. Onto a host of as many axes
    /// nothing is folded, but for those of 2 (one link): onto torus:16x8x2
    /// as onto two axes, an axis split to take the link, 5 120.
    #[test]
    fn a_grid_folds_onto_a_torus_of_fewer_axes_in_its_cheapest_boxes() {
        let grid = natural(&[16, 16, 16], &[false; 3]);
        // (Onto torus:16x8x2 2x2x4 boxes, z split 2x2: one half head to
        // tail with x around 16, the other across the link.)
        for (host, least) in [
            ("torus:16x16", 6_656.0),
            ("torus:8x8", 3_072.0),
            ("torus:16x8x2", 5_120.0),
        ] {
            let host = topology::parse(host).unwrap();
            let folds = folded(&grid, host.node_count(), host.as_ref());
            assert_eq!(folds.len(), FOLDS);
            assert_eq!(folds[0].hop_bytes, least, "{:?}", folds[0].cut);
            assert_eq!(first_counted(&grid, &folds, host.as_ref()) as f64, least);
            assert!(folds.windows(2).all(|w| w[0].hop_bytes <= w[1].hop_bytes));
        }
        let mut cut = folded(&grid, 256, topology::parse("torus:16x16").unwrap().as_ref())[0]
            .cut
            .clone();
        cut.sort();
        assert_eq!(cut, [2, 8, 16]);
        for host in [
            "torus:16x16x16",
            "torus:4x4x4x4",
            "cube:8",
            "tleaf:16x16:10,1",
        ] {
            let host = topology::parse(host).unwrap();
            assert!(folded(&grid, host.node_count(), host.as_ref()).is_empty());
        }
    }
}
