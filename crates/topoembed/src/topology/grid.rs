//! The grid family: rings, lines, tori, meshes and grids that wrap some axes
//! only, with any number of axes and any sides >= 2. Node `(i1, i2, ..)` is
//! `i1 + K1*(i2 + K2*(..))`.

use std::ops::Range;

use super::TieRule;
use super::{EdgeBuffer, Topology};
use crate::spec::Spec;

/// One axis: its side, whether it is a ring (wraps around with side > 2: a
/// side of 2 has one link either way) and, when the side is a power of two,
/// the shift that replaces the division (the metrics hot loop divides twice
/// per axis per edge).
#[derive(Debug, Clone, Copy)]
struct Axis {
    side: u64,
    stride: u64,
    ring: bool,
    shift: Option<u32>,
}

impl Axis {
    #[inline(always)]
    fn divmod(&self, x: u64) -> (u64, u64) {
        match self.shift {
            Some(s) => (x >> s, x & (self.side - 1)),
            None => (x / self.side, x % self.side),
        }
    }
}

/// One straight part of a dimension-order route: `len` hops along axis
/// `axis` on the line of nodes `base + t * stride` (t = 0..side), starting at
/// coordinate `from`. The links used are `first_link .. first_link + len`
/// taken cyclically, link t joining coordinates t and t + 1 (mod side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Leg {
    pub axis: usize,
    pub base: u64,
    pub side: u64,
    pub stride: u64,
    pub first_link: u64,
    pub from: u64,
    pub forward: bool,
    pub len: u64,
}

/// A torus (wrap-around on every axis), a mesh (none) or a grid that wraps
/// some axes only. Rings and lines are the one-axis cases. A side of 2 has one
/// edge per line, not two parallel ones.
#[derive(Debug, Clone)]
pub struct Grid {
    spec: Spec,
    axes: Vec<Axis>,
    nodes: u64,
}

impl Grid {
    /// Builds the grid of a ring, line, torus or mesh spec (sides checked by the parser).
    ///
    /// # Panics
    /// If `spec` is not of the grid family; [`super::build`] only passes grid specs.
    pub fn new(spec: Spec) -> Grid {
        let (sides, wraps) = spec.grid().expect("Grid::new takes a grid spec");
        let mut stride = 1;
        let axes = sides
            .iter()
            .zip(wraps)
            .map(|(&side, wraps)| {
                let axis = Axis {
                    side,
                    stride,
                    ring: wraps && side > 2,
                    shift: side.is_power_of_two().then(|| side.trailing_zeros()),
                };
                stride *= side;
                axis
            })
            .collect();
        Grid {
            axes,
            nodes: stride,
            spec,
        }
    }

    /// Sides, axis 1 first.
    pub fn sides(&self) -> Vec<u64> {
        self.axes.iter().map(|a| a.side).collect()
    }

    /// Per axis (axis 1 first): true where the axis is a ring, i.e. wraps
    /// around and has more than 2 nodes (a wrapped side of 2 is one link).
    pub fn rings(&self) -> Vec<bool> {
        self.axes.iter().map(|a| a.ring).collect()
    }

    /// Distance along one axis between coordinates `x` and `y`.
    #[inline(always)]
    fn axis_distance(axis: &Axis, x: u64, y: u64) -> u64 {
        let dx = x.abs_diff(y);
        if axis.ring {
            dx.min(axis.side - dx)
        } else {
            dx
        }
    }

    /// The legs of the dimension-order route from `a` to `b` (see [`Leg`]),
    /// axis 1 first, skipping axes where the two agree. On a ring the leg goes
    /// the shorter way; when both ways have the same length (the destination
    /// is exactly half way round) `ties` picks the direction.
    #[inline]
    pub(crate) fn legs(&self, a: u64, b: u64, ties: TieRule, mut leg: impl FnMut(Leg)) {
        let (mut here, mut ra, mut rb) = (a, a, b);
        for (k, axis) in self.axes.iter().enumerate() {
            let (qa, x) = axis.divmod(ra);
            let (qb, y) = axis.divmod(rb);
            ra = qa;
            rb = qb;
            if x == y {
                continue;
            }
            let base = here - x * axis.stride;
            let (forward, len) = if axis.ring {
                let ahead = if y > x { y - x } else { y + axis.side - x };
                let back = axis.side - ahead;
                if ahead < back || (ahead == back && ties == TieRule::Increasing) {
                    (true, ahead)
                } else {
                    (false, back)
                }
            } else {
                (y > x, x.abs_diff(y))
            };
            leg(Leg {
                axis: k,
                base,
                side: axis.side,
                stride: axis.stride,
                first_link: if forward { x } else { y },
                from: x,
                forward,
                len,
            });
            here = base + y * axis.stride;
        }
    }

    /// Strides of the axes (axis 1 first): node index step per coordinate step.
    pub(crate) fn strides(&self) -> Vec<u64> {
        self.axes.iter().map(|a| a.stride).collect()
    }

    /// Node index of coordinates (axis 1 first).
    pub fn index(&self, coords: &[u64]) -> u64 {
        coords
            .iter()
            .zip(&self.axes)
            .map(|(&c, a)| c * a.stride)
            .sum()
    }
}

impl Topology for Grid {
    fn spec(&self) -> &Spec {
        &self.spec
    }
    fn node_count(&self) -> u64 {
        self.nodes
    }
    fn edge_count(&self) -> u64 {
        self.axes
            .iter()
            .map(|a| {
                let per_line = if a.ring { a.side } else { a.side - 1 };
                self.nodes / a.side * per_line
            })
            .sum()
    }
    fn diameter(&self) -> u64 {
        self.axes
            .iter()
            .map(|a| if a.ring { a.side / 2 } else { a.side - 1 })
            .sum()
    }
    /// Sum over axes of min(|dx|, K-|dx|) on ring axes, |dx| on the others.
    #[inline]
    fn distance(&self, a: u64, b: u64) -> u64 {
        let (last, rest) = self.axes.split_last().expect("a grid has an axis");
        let (mut a, mut b, mut sum) = (a, b, 0);
        for axis in rest {
            let (qa, ra) = axis.divmod(a);
            let (qb, rb) = axis.divmod(b);
            sum += Grid::axis_distance(axis, ra, rb);
            a = qa;
            b = qb;
        }
        sum + Grid::axis_distance(last, a, b)
    }
    /// Power-of-two sides: node by node, every axis a mask and a shift (no
    /// copies of the batch; 40 % of the streamed metrics' time went to the
    /// axis-by-axis passes below). Other sides: axis by axis over the whole
    /// batch, so the divisions' loops vectorise.
    fn distances(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        if self.axes.iter().all(|axis| axis.shift.is_some()) {
            let axes: Vec<(u64, u32, u64, bool)> = self
                .axes
                .iter()
                .map(|axis| {
                    let shift = axis.shift.unwrap_or(0);
                    (axis.side - 1, shift, axis.side, axis.ring)
                })
                .collect();
            for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                let (mut x, mut y, mut sum) = (x, y, 0);
                for &(mask, shift, side, ring) in &axes {
                    let dx = (x & mask).abs_diff(y & mask);
                    sum += if ring { dx.min(side - dx) } else { dx };
                    x >>= shift;
                    y >>= shift;
                }
                *o = sum;
            }
            return;
        }
        let (mut qa, mut qb) = (a.to_vec(), b.to_vec());
        out.fill(0);
        for axis in &self.axes {
            let (side, ring) = (axis.side, axis.ring);
            let step = |x: &mut u64,
                        y: &mut u64,
                        o: &mut u64,
                        (qx, rx): (u64, u64),
                        (qy, ry): (u64, u64)| {
                let dx = rx.abs_diff(ry);
                *o += if ring { dx.min(side - dx) } else { dx };
                *x = qx;
                *y = qy;
            };
            let cells = qa.iter_mut().zip(qb.iter_mut()).zip(out.iter_mut());
            match axis.shift {
                Some(shift) => {
                    let mask = side - 1;
                    for ((x, y), o) in cells {
                        let (vx, vy) = (*x, *y);
                        step(x, y, o, (vx >> shift, vx & mask), (vy >> shift, vy & mask));
                    }
                }
                None => {
                    for ((x, y), o) in cells {
                        let (vx, vy) = (*x, *y);
                        step(x, y, o, (vx / side, vx % side), (vy / side, vy % side));
                    }
                }
            }
        }
    }
    fn coords(&self, mut v: u64) -> Vec<u64> {
        self.axes
            .iter()
            .map(|a| {
                let (q, r) = a.divmod(v);
                v = q;
                r
            })
            .collect()
    }
    fn neighbors(&self, v: u64) -> Vec<u64> {
        let coords = self.coords(v);
        let mut out = Vec::with_capacity(2 * self.axes.len());
        for (axis, &c) in self.axes.iter().zip(&coords) {
            let base = v - c * axis.stride;
            let mut push = |x: u64| {
                let w = base + x * axis.stride;
                if w != v && !out.contains(&w) {
                    out.push(w);
                }
            };
            if c + 1 < axis.side {
                push(c + 1);
            } else if axis.ring {
                push(0);
            }
            if c > 0 {
                push(c - 1);
            } else if axis.ring {
                push(axis.side - 1);
            }
        }
        out
    }
    /// Per axis: 2 on a ring of side > 2, else one per existing +1 / -1 step.
    fn degree(&self, mut v: u64) -> u64 {
        let mut degree = 0;
        for axis in &self.axes {
            let (q, c) = axis.divmod(v);
            v = q;
            degree += if axis.ring {
                2
            } else {
                u64::from(c > 0) + u64::from(c + 1 < axis.side)
            };
        }
        degree
    }
    fn edge_classes(&self) -> u32 {
        self.axes.len() as u32
    }
    fn route(&self, a: u64, b: u64, ties: TieRule, path: &mut Vec<u64>) {
        self.legs(a, b, ties, |leg| {
            let mut t = leg.from;
            for _ in 0..leg.len {
                t = if leg.forward {
                    (t + 1) % leg.side
                } else {
                    (t + leg.side - 1) % leg.side
                };
                path.push(leg.base + t * leg.stride);
            }
        });
    }
    fn link_slots(&self) -> u64 {
        self.nodes * self.axes.len() as u64
    }
    /// `node * axes + axis` where the link joins `node` (coordinate t) and
    /// coordinate t + 1 (mod side) on that axis.
    fn link_slot(&self, u: u64, v: u64) -> Option<u64> {
        if u.max(v) >= self.nodes || u == v {
            return None;
        }
        // The one axis where the coordinates differ (no allocation: this
        // runs once per hop in the simulator).
        let (mut ru, mut rv, mut differ) = (u, v, None);
        for (k, axis) in self.axes.iter().enumerate() {
            let ((qu, x), (qv, y)) = (axis.divmod(ru), axis.divmod(rv));
            if x != y {
                if differ.is_some() {
                    return None;
                }
                differ = Some((k, x, y));
            }
            (ru, rv) = (qu, qv);
        }
        let (k, x, y) = differ?;
        let side = self.axes[k].side;
        let t = if x + 1 == y {
            x
        } else if y + 1 == x {
            y
        } else if self.axes[k].ring && x.min(y) == 0 && x.max(y) == side - 1 {
            side - 1
        } else {
            return None;
        };
        let node = u - x * self.axes[k].stride + t * self.axes[k].stride;
        Some(node * self.axes.len() as u64 + k as u64)
    }
    /// A node owns its +1 edge on each axis and, at coordinate 0 of a ring
    /// axis, the wrap-around edge to coordinate K-1.
    fn push_edges(&self, nodes: Range<u64>, edges: &mut EdgeBuffer) {
        for u in nodes {
            let mut rest = u;
            for (k, axis) in self.axes.iter().enumerate() {
                let (q, c) = axis.divmod(rest);
                rest = q;
                if c + 1 < axis.side {
                    edges.push(u, u + axis.stride, k as u32);
                }
                if axis.ring && c == 0 {
                    edges.push(u, u + (axis.side - 1) * axis.stride, k as u32);
                }
            }
        }
    }
}
