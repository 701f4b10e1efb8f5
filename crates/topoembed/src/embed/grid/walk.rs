//! Walks of a sub-box: orders of the points of a small grid (the components
//! one guest axis is spread over) in which consecutive points differ by one
//! step of one component, closed into a Hamiltonian cycle wherever the
//! sub-box has one, and otherwise closed at distance 2, which is the least
//! possible.
//!
//! Every walk is a closed form: [`Walk::point`] and [`Walk::rank`] cost
//! O(components), so a guest axis of 2^30 nodes needs no table.
//!
//! The shapes, with the sub-box written as columns (component `c`) by rows
//! (the others, walked in reflected mixed-radix Gray order):
//! * **cylinder**: up column 0, then rows q−1 .. 1 boustrophedon over
//!   columns 1 .. m−1, then row 0 back towards column 0. The last point is
//!   (1, 0) when q is even (a unit step from the start in any grid), or
//!   (m−1, 0) when q is odd (a unit step when `c` wraps around or m = 2).
//!   So a Hamiltonian cycle whenever the sub-box has one: a product of paths
//!   has one exactly when it has two or more components and an even node
//!   count (a bipartite graph with more nodes of one colour has none);
//!   any component on a ring gives one.
//! * **odd path**: all components paths, all sides odd (no Hamiltonian
//!   cycle: the two colour classes differ by one). Row 0 left to right,
//!   columns m−1 .. 2 boustrophedon over rows 1 .. q−1, then a zigzag over
//!   columns 1 and 0 down to (1, 1): a Hamiltonian path whose ends are at
//!   distance 2.
//! * **fold**: one component without wrap-around closed into a ring: the
//!   even positions up, the odd ones down (0 2 4 .. 5 3 1); every step moves
//!   1 or 2 positions. A path has no cycle at all, so 2 is the least
//!   possible longest step.
//! * **ring**: one component on a ring (or of side 2): in order.
//! * **gray**: the reflected mixed-radix Gray order, component 0 fastest:
//!   unit steps, not closed (for axes that are lines).

/// One component of a sub-box: `side` positions; `ring` when the last
/// position and the first are one step apart too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comp {
    /// Number of positions (at least 2).
    pub side: u64,
    /// Wraps around (side > 2 on a wrapped host axis).
    pub ring: bool,
}

/// The shape of a walk (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One component in order (a ring, a side of 2, or a line left open).
    Ring,
    /// Reflected mixed-radix Gray order, open.
    Gray,
    /// One line component closed by folding.
    Fold,
    /// Columns (component 0) by rows (Gray order of the others), closed.
    Cylinder,
    /// All sides odd and no wrap-around: a path whose ends are 2 apart.
    OddPath,
}

/// A move of a walk: `(component, positions moved)` for each component that
/// changes, and how many steps of the walk make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepKind {
    /// How many steps of the walk move this way.
    pub count: u64,
    /// The components moved, each by this many positions (1, or 2 when folded).
    pub moves: Vec<(usize, u64)>,
}

/// An order of the points of a sub-box. Components are in walk order (for
/// cylinders and odd paths component 0 is the column, the rest the rows,
/// fastest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    comps: Vec<Comp>,
    shape: Shape,
    /// Whether the walk is read as a cycle (its last point followed by the first).
    closed: bool,
}

impl Walk {
    /// A walk of `shape` over `comps` (walk order); `closed` when the guest
    /// axis is a ring.
    ///
    /// # Panics
    /// If the shape does not fit the components (see [`Walk::choices`]).
    pub fn new(comps: Vec<Comp>, shape: Shape, closed: bool) -> Walk {
        let w = Walk {
            comps,
            shape,
            closed,
        };
        assert!(w.fits(), "{shape:?} does not fit {:?}", w.comps);
        w
    }

    fn fits(&self) -> bool {
        let r = self.comps.len();
        let rows: u64 = self.comps.iter().skip(1).map(|c| c.side).product();
        let c0 = self.comps.first().copied();
        match self.shape {
            // In order closes in one step only round a ring (or over 2 points).
            Shape::Ring => r == 1 && c0.is_some_and(|c| !self.closed || c.ring || c.side <= 2),
            Shape::Fold => r == 1,
            Shape::Gray => r >= 1,
            Shape::Cylinder => r >= 2 && c0.is_some_and(|c| rows % 2 == 0 || c.ring || c.side == 2),
            Shape::OddPath => {
                r >= 2
                    && self.comps.iter().all(|c| c.side % 2 == 1 && !c.ring)
                    && c0.is_some_and(|c| c.side >= 3)
            }
        }
    }

    /// The components, in walk order.
    pub fn comps(&self) -> &[Comp] {
        &self.comps
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of points.
    pub fn len(&self) -> u64 {
        self.comps.iter().map(|c| c.side).product()
    }

    /// Always false: a sub-box has at least one point.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// True when the walk is a cycle of unit steps, the closing one
    /// included: a Hamiltonian cycle of the sub-box.
    pub fn is_unit_cycle(&self) -> bool {
        match self.shape {
            Shape::Ring => self.closed && (self.comps[0].ring || self.comps[0].side == 2),
            Shape::Cylinder => true,
            Shape::Fold | Shape::Gray | Shape::OddPath => false,
        }
    }

    /// The walks worth trying for `comps` (any order), each with its
    /// components permuted into walk order: `perm[k]` is the index in `comps`
    /// of walk component k. Open walks: the Gray order, components sorted by
    /// `cost` (cheapest fastest). Closed: a cylinder on every component that
    /// can be its column, else odd paths.
    pub fn choices(comps: &[Comp], costs: &[u64], closed: bool) -> Vec<(Walk, Vec<usize>)> {
        let r = comps.len();
        let mut by_cost: Vec<usize> = (0..r).collect();
        by_cost.sort_by_key(|&k| (costs[k], std::cmp::Reverse(comps[k].side), k));
        let permuted = |perm: &[usize]| perm.iter().map(|&k| comps[k]).collect::<Vec<_>>();
        if r == 1 {
            let c = comps[0];
            let shape = if !closed || c.ring || c.side == 2 {
                Shape::Ring
            } else {
                Shape::Fold
            };
            return vec![(Walk::new(vec![c], shape, closed), vec![0])];
        }
        if !closed {
            return vec![(Walk::new(permuted(&by_cost), Shape::Gray, false), by_cost)];
        }
        let columns = |shape: Shape| -> Vec<(Walk, Vec<usize>)> {
            by_cost
                .iter()
                .map(|&c| {
                    let mut perm = vec![c];
                    perm.extend(by_cost.iter().copied().filter(|&k| k != c));
                    let w = Walk {
                        comps: permuted(&perm),
                        shape,
                        closed: true,
                    };
                    (w, perm)
                })
                .filter(|(w, _)| w.fits())
                .collect()
        };
        let cylinders = columns(Shape::Cylinder);
        if cylinders.is_empty() {
            columns(Shape::OddPath)
        } else {
            cylinders
        }
    }

    /// The positions of the walk's point number `rank`, one per component.
    pub fn point(&self, rank: u64, out: &mut [u64]) {
        let m = self.comps[0].side;
        match self.shape {
            Shape::Ring => out[0] = rank,
            Shape::Fold => {
                let evens = m.div_ceil(2);
                out[0] = if rank < evens {
                    2 * rank
                } else {
                    2 * (m - 1 - rank) + 1
                };
            }
            Shape::Gray => gray_point(&self.comps, rank, out),
            Shape::Cylinder => {
                let q = self.len() / m;
                let (c, row) = cylinder_point(m, q, rank);
                out[0] = c;
                gray_point(&self.comps[1..], row, &mut out[1..]);
            }
            Shape::OddPath => {
                let q = self.len() / m;
                let (c, row) = odd_path_point(m, q, rank);
                out[0] = c;
                gray_point(&self.comps[1..], row, &mut out[1..]);
            }
        }
    }

    /// The rank of the point with positions `p` (inverse of [`Walk::point`]).
    pub fn rank(&self, p: &[u64]) -> u64 {
        let m = self.comps[0].side;
        match self.shape {
            Shape::Ring => p[0],
            Shape::Fold => {
                if p[0] % 2 == 0 {
                    p[0] / 2
                } else {
                    m - 1 - (p[0] - 1) / 2
                }
            }
            Shape::Gray => gray_rank(&self.comps, p),
            Shape::Cylinder => {
                let q = self.len() / m;
                cylinder_rank(m, q, p[0], gray_rank(&self.comps[1..], &p[1..]))
            }
            Shape::OddPath => {
                let q = self.len() / m;
                odd_path_rank(m, q, p[0], gray_rank(&self.comps[1..], &p[1..]))
            }
        }
    }

    /// The walk's steps by kind (closing step included for closed walks),
    /// counted in closed form. Their counts add up to `len()` when closed,
    /// `len() - 1` when open.
    pub fn step_kinds(&self) -> Vec<StepKind> {
        let n = self.len();
        let unit = |k: usize, count: u64| StepKind {
            count,
            moves: vec![(k, 1)],
        };
        let mut out = Vec::new();
        match self.shape {
            Shape::Ring => out.push(unit(0, if self.closed { n } else { n - 1 })),
            Shape::Fold => {
                out.push(StepKind {
                    count: n - 2,
                    moves: vec![(0, 2)],
                });
                out.push(unit(0, 2));
            }
            Shape::Gray => {
                for (k, count) in gray_step_counts(&self.comps) {
                    out.push(unit(k, count));
                }
                if self.closed {
                    out.push(StepKind {
                        count: 1,
                        moves: gray_closing(&self.comps),
                    });
                }
            }
            Shape::Cylinder => {
                let (m, q) = (self.comps[0].side, n / self.comps[0].side);
                out.push(unit(0, q * (m - 2) + 2));
                for (k, count) in gray_step_counts(&self.comps[1..]) {
                    out.push(unit(k + 1, 2 * count));
                }
            }
            Shape::OddPath => {
                let (a, q) = (self.comps[0].side, n / self.comps[0].side);
                out.push(unit(0, 2 * a + q - 4));
                // Row step 0 is walked once; every other row step a - 1 times.
                for (k, count) in gray_step_counts(&self.comps[1..]) {
                    let count = (a - 1) * count - if k == 0 { a - 2 } else { 0 };
                    out.push(unit(k + 1, count));
                }
                out.push(StepKind {
                    count: 1,
                    moves: vec![(0, 1), (1, 1)],
                });
            }
        }
        out.retain(|s| s.count > 0);
        out
    }
}

/// Point `rank` of the reflected mixed-radix Gray order over `comps`
/// (component 0 fastest): the plain digits, each reflected when the digits
/// above it have an odd sum of odd values (a boustrophedon).
pub(crate) fn gray_point(comps: &[Comp], mut rank: u64, out: &mut [u64]) {
    let mut block: u64 = comps.iter().map(|c| c.side).product();
    let mut reversed = false;
    for k in (0..comps.len()).rev() {
        block /= comps[k].side;
        let d = rank / block;
        rank %= block;
        let v = if reversed { comps[k].side - 1 - d } else { d };
        out[k] = v;
        reversed ^= v % 2 == 1;
    }
}

/// Rank of positions `p` in the reflected Gray order (inverse of [`gray_point`]).
pub(crate) fn gray_rank(comps: &[Comp], p: &[u64]) -> u64 {
    let mut rank = 0;
    let mut reversed = false;
    for k in (0..comps.len()).rev() {
        let v = p[k];
        let d = if reversed { comps[k].side - 1 - v } else { v };
        rank = rank * comps[k].side + d;
        reversed ^= v % 2 == 1;
    }
    rank
}

/// Steps of the open Gray order along each component: component k moves
/// (side_k − 1) times per run of the components above it.
fn gray_step_counts(comps: &[Comp]) -> Vec<(usize, u64)> {
    (0..comps.len())
        .map(|k| {
            let above: u64 = comps[k + 1..].iter().map(|c| c.side).product();
            (k, (comps[k].side - 1) * above)
        })
        .collect()
}

/// The move from the last point of the Gray order back to the first:
/// component k ends at side − 1 when the product of the sides above it is
/// odd (the last component always), else at 0.
fn gray_closing(comps: &[Comp]) -> Vec<(usize, u64)> {
    let mut moves = Vec::new();
    for k in 0..comps.len() {
        let above: u64 = comps[k + 1..].iter().map(|c| c.side).product();
        if above % 2 == 1 {
            let c = comps[k];
            let d = c.side - 1;
            moves.push((k, if c.ring { d.min(c.side - d) } else { d }));
        }
    }
    moves
}

/// (column, row) of point `rank` of the cylinder of m columns and q rows.
fn cylinder_point(m: u64, q: u64, rank: u64) -> (u64, u64) {
    if rank < q {
        return (0, rank);
    }
    let k = rank - q;
    let band = (q - 1) * (m - 1);
    if k < band {
        let (b, t) = (k / (m - 1), k % (m - 1));
        let c = if b % 2 == 0 { 1 + t } else { m - 1 - t };
        return (c, q - 1 - b);
    }
    let t = k - band;
    // Row 0 runs towards column 0: from m - 1 when the band ended there.
    let c = if q % 2 == 0 { m - 1 - t } else { 1 + t };
    (c, 0)
}

fn cylinder_rank(m: u64, q: u64, c: u64, row: u64) -> u64 {
    if c == 0 {
        return row;
    }
    if row >= 1 {
        let b = q - 1 - row;
        let t = if b % 2 == 0 { c - 1 } else { m - 1 - c };
        return q + b * (m - 1) + t;
    }
    let t = if q % 2 == 0 { m - 1 - c } else { c - 1 };
    q + (q - 1) * (m - 1) + t
}

/// (column, row) of point `rank` of the odd path over a columns and q rows.
fn odd_path_point(a: u64, q: u64, rank: u64) -> (u64, u64) {
    if rank < a {
        return (rank, 0);
    }
    let k = rank - a;
    let band = (a - 2) * (q - 1);
    if k < band {
        let (ci, t) = (k / (q - 1), k % (q - 1));
        let row = if ci % 2 == 0 { 1 + t } else { q - 1 - t };
        return (a - 1 - ci, row);
    }
    let u = k - band;
    let hi = q - 1 - 2 * (u / 4);
    match u % 4 {
        0 => (1, hi),
        1 => (0, hi),
        2 => (0, hi - 1),
        _ => (1, hi - 1),
    }
}

fn odd_path_rank(a: u64, q: u64, c: u64, row: u64) -> u64 {
    if row == 0 {
        return c;
    }
    if c >= 2 {
        let ci = a - 1 - c;
        let t = if ci % 2 == 0 { row - 1 } else { q - 1 - row };
        return a + ci * (q - 1) + t;
    }
    let from_top = q - 1 - row;
    let w = match (from_top % 2 == 0, c) {
        (true, 1) => 0,
        (true, _) => 1,
        (false, 0) => 2,
        (false, _) => 3,
    };
    a + (a - 2) * (q - 1) + 4 * (from_top / 2) + w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comp(side: u64, ring: bool) -> Comp {
        Comp { side, ring }
    }

    /// Positions moved between two points, per component (ring-aware).
    fn moved(comps: &[Comp], a: &[u64], b: &[u64]) -> Vec<u64> {
        comps
            .iter()
            .zip(a.iter().zip(b))
            .map(|(c, (&x, &y))| {
                let d = x.abs_diff(y);
                if c.ring {
                    d.min(c.side - d)
                } else {
                    d
                }
            })
            .collect()
    }

    /// Walks every shape over every small sub-box: a bijection, rank the
    /// inverse of point, unit steps (2 at most when folded), the closing
    /// distance as promised, and step kinds equal to the counted steps.
    #[test]
    fn every_walk_is_a_bijection_with_the_promised_steps() {
        let sides = [2u64, 3, 4, 5, 6];
        let mut boxes: Vec<Vec<Comp>> = Vec::new();
        for &s in &sides {
            for ring in [false, true] {
                boxes.push(vec![comp(s, ring && s > 2)]);
            }
        }
        for &s in &sides {
            for &t in &sides {
                for (r1, r2) in [(false, false), (true, false), (false, true)] {
                    boxes.push(vec![comp(s, r1 && s > 2), comp(t, r2 && t > 2)]);
                    for &u in &[3u64, 2] {
                        boxes.push(vec![
                            comp(s, r1 && s > 2),
                            comp(t, false),
                            comp(u, r2 && u > 2),
                        ]);
                    }
                }
            }
        }
        for comps in boxes {
            let costs = vec![1; comps.len()];
            for closed in [false, true] {
                for (walk, perm) in Walk::choices(&comps, &costs, closed) {
                    let n = walk.len();
                    let r = comps.len();
                    assert_eq!(n, comps.iter().map(|c| c.side).product::<u64>());
                    assert_eq!(perm.len(), r);
                    let wc = walk.comps().to_vec();
                    let mut seen = std::collections::HashSet::new();
                    let mut points = Vec::new();
                    for rank in 0..n {
                        let mut p = vec![0; r];
                        walk.point(rank, &mut p);
                        assert!(p.iter().zip(&wc).all(|(&x, c)| x < c.side), "{walk:?}");
                        assert_eq!(walk.rank(&p), rank, "{walk:?} rank {rank}");
                        assert!(seen.insert(p.clone()), "{walk:?} repeats {p:?}");
                        points.push(p);
                    }
                    let mut kinds: std::collections::BTreeMap<Vec<(usize, u64)>, u64> =
                        Default::default();
                    let steps = if closed { n } else { n - 1 };
                    for i in 0..steps {
                        let (a, b) = (&points[i as usize], &points[((i + 1) % n) as usize]);
                        let m: Vec<(usize, u64)> = moved(&wc, a, b)
                            .into_iter()
                            .enumerate()
                            .filter(|&(_, d)| d > 0)
                            .collect();
                        *kinds.entry(m).or_default() += 1;
                    }
                    let mut expected: std::collections::BTreeMap<Vec<(usize, u64)>, u64> =
                        Default::default();
                    for k in walk.step_kinds() {
                        *expected.entry(k.moves).or_default() += k.count;
                    }
                    assert_eq!(kinds, expected, "{walk:?}");
                    if closed {
                        // A Hamiltonian cycle exists exactly when the box has
                        // at most 2 points, some component wraps, or there
                        // are two or more components and an even count; then
                        // every step, the closing one included, is unit.
                        let exists = n <= 2 || wc.iter().any(|c| c.ring) || (r >= 2 && n % 2 == 0);
                        let unit_cycle = kinds.keys().all(|m| m.len() == 1 && m[0].1 == 1);
                        assert_eq!(unit_cycle, exists, "{walk:?}");
                        assert_eq!(walk.is_unit_cycle(), exists, "{walk:?}");
                        if !exists {
                            let far = kinds.keys().map(|m| m.iter().map(|x| x.1).sum::<u64>());
                            assert_eq!(far.max(), Some(2), "{walk:?}: closed at distance 2");
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn a_line_is_not_a_ring_in_order() {
        Walk::new(vec![comp(5, false)], Shape::Ring, true);
    }

    #[test]
    fn gray_order_is_the_boustrophedon() {
        let comps = [comp(3, false), comp(2, false)];
        let order: Vec<Vec<u64>> = (0..6)
            .map(|r| {
                let mut p = vec![0; 2];
                gray_point(&comps, r, &mut p);
                p
            })
            .collect();
        assert_eq!(
            order,
            [[0, 0], [1, 0], [2, 0], [2, 1], [1, 1], [0, 1]].map(|p| p.to_vec())
        );
    }
}
