//! The search for the winding cocycle's map p ([`super`]): an *open*
//! search that refutes fast, and a *planned* one that finds maps where the
//! open one runs out of its budget.

use std::rc::Rc;

use super::{Budget, Key, MAX_AXES};

/// A position in T_A (coordinates, unused ones 0) and an offset.
type Point = [u16; MAX_AXES];
type Offset = [i16; MAX_AXES];

/// A face of Q_H: its nodes in cyclic order from the one with neither
/// dimension, and the dimension of each edge from one to the next.
struct Face {
    cycle: [usize; 4],
    dims: [usize; 4],
}

/// One branch of the search: per face, the axes (bit masks) it must wind
/// round and those it must not.
struct Plan {
    /// The face that winds round each of the first axes; each later axis
    /// is open: some face must wind round it.
    winding: Vec<usize>,
    must: Vec<u8>,
    barred: Vec<u8>,
}

/// The search for p on one key.
///
/// It branches on the face that winds round the first axis: a face
/// through node 0 (module docs), one per pair of distances, those of the
/// pairs tried before barred from winding. The *open* search then places
/// the other nodes, in ascending order, while every other axis has some
/// face that can still wind round it. The *planned* search also branches
/// on the face that winds round each later axis, the faces tried before
/// barred, and places the winding faces first (each reached by a path from
/// node 0): it finds maps sooner, at the cost of refuting each branch. Both
/// check every face as its last node is placed.
pub(super) struct Search<'k> {
    key: &'k Key,
    /// Node of Q_H → its position, while placed (after a search that
    /// found p: p).
    pub(super) at: Vec<Point>,
    /// Whether a node is placed.
    placed: Vec<bool>,
    /// Per dimension of Q_H: the offsets an edge may take (Lee length over
    /// A between D_i − X and D_i).
    shells: Vec<Rc<Vec<Offset>>>,
    faces: Vec<Face>,
    /// Node → the faces through it.
    faces_at: Vec<Vec<usize>>,
    /// Per open axis and face (`axis * faces + face`): whether the face
    /// can still wind round the axis ([`Search::may_wind`], which only
    /// turns false as nodes are placed).
    open_may: Vec<bool>,
    /// Per open axis: how many faces can still wind round it.
    open_count: Vec<usize>,
    /// The entries of `open_may` turned false, to undo.
    open_undo: Vec<usize>,
    /// Placements so far, the most each search makes, and the most the
    /// one running makes.
    nodes: u64,
    budget: Budget,
    limit: u64,
}

impl<'k> Search<'k> {
    pub(super) fn new(key: &'k Key, budget: Budget) -> Search<'k> {
        let h = key.heavy.len();
        let n = 1usize << h;
        let shells = key
            .heavy
            .iter()
            .map(|&r| Rc::new(shell(&key.sides, r.saturating_sub(key.rest), r)))
            .collect();
        let mut faces = Vec::new();
        for i in 0..h {
            for j in i + 1..h {
                for x in (0..n).filter(|x| x >> i & 1 == 0 && x >> j & 1 == 0) {
                    faces.push(Face {
                        cycle: [x, x | 1 << i, x | 1 << i | 1 << j, x | 1 << j],
                        dims: [i, j, i, j],
                    });
                }
            }
        }
        // Nearest node 0 first: a later axis tries those faces first.
        faces.sort_by_key(|f| (f.cycle[0].count_ones(), f.cycle[0]));
        let mut faces_at = vec![Vec::new(); n];
        for (f, face) in faces.iter().enumerate() {
            for &v in &face.cycle {
                faces_at[v].push(f);
            }
        }
        Search {
            key,
            at: vec![[0; MAX_AXES]; n],
            placed: vec![false; n],
            shells,
            faces,
            faces_at,
            open_may: Vec::new(),
            open_count: Vec::new(),
            open_undo: Vec::new(),
            nodes: 0,
            budget,
            limit: budget.open,
        }
    }

    /// Whether a face of dimensions i, j can wind round axis a at all:
    /// its four edges reach k_a between them.
    fn can_wind(&self, a: usize, face: &Face) -> bool {
        let heavy = &self.key.heavy;
        2 * (heavy[face.dims[0]] + heavy[face.dims[1]]) >= u32::from(self.key.sides[a])
    }

    /// Whether p exists, by the planned or the open search; None past the
    /// budget.
    pub(super) fn run(&mut self, planned: bool) -> Option<bool> {
        self.nodes = 0;
        self.limit = if planned {
            self.budget.planned
        } else {
            self.budget.open
        };
        let faces = self.faces.len();
        let mut plan = Plan {
            winding: Vec::new(),
            must: vec![0; faces],
            barred: vec![0; faces],
        };
        let at_zero: Vec<usize> = (0..faces)
            .filter(|&f| self.faces[f].cycle[0] == 0)
            .collect();
        let pair = |s: &Self, f: usize| {
            let d = s.faces[f].dims;
            (s.key.heavy[d[0]], s.key.heavy[d[1]])
        };
        let mut tried: Vec<(u32, u32)> = Vec::new();
        for &f in &at_zero {
            // Dimensions of equal distances can be swapped (a symmetry of
            // the cube keeping every distance): one face per pair of
            // distances.
            if !self.can_wind(0, &self.faces[f]) || tried.contains(&pair(self, f)) {
                continue;
            }
            for &g in &at_zero {
                if tried.contains(&pair(self, g)) {
                    plan.barred[g] |= 1;
                }
            }
            tried.push(pair(self, f));
            plan.winding.push(f);
            plan.must[f] |= 1;
            let found = if planned {
                self.later_axes(1, &mut plan)
            } else {
                self.place_all(&plan)
            };
            plan.must[f] &= !1;
            plan.winding.pop();
            if found != Some(false) {
                return found;
            }
        }
        Some(false)
    }

    /// Picks the face winding round axis b and each later one, then
    /// places the nodes.
    fn later_axes(&mut self, b: usize, plan: &mut Plan) -> Option<bool> {
        if b == self.key.sides.len() {
            return self.place_all(plan);
        }
        let bit = 1u8 << b;
        let candidates: Vec<usize> = (0..self.faces.len())
            .filter(|&f| self.can_wind(b, &self.faces[f]))
            .collect();
        let mut found = Some(false);
        for &f in &candidates {
            plan.winding.push(f);
            plan.must[f] |= bit;
            found = self.later_axes(b + 1, plan);
            plan.must[f] &= !bit;
            plan.winding.pop();
            if found != Some(false) {
                break;
            }
            // Later branches: this face does not wind round b.
            plan.barred[f] |= bit;
        }
        for &f in &candidates {
            plan.barred[f] &= !bit;
        }
        found
    }

    /// Places every node in the plan's order: whether p exists, None past
    /// the budget.
    fn place_all(&mut self, plan: &Plan) -> Option<bool> {
        let n = self.placed.len();
        let mut order = vec![0];
        let mut queued = vec![false; n];
        queued[0] = true;
        let mut queue = |v: usize, order: &mut Vec<usize>| {
            if !queued[v] {
                queued[v] = true;
                order.push(v);
            }
        };
        for &f in &plan.winding {
            // A path from node 0 to the face's first node, one dimension
            // at a time, then round the face: each node next to one before.
            let base = self.faces[f].cycle[0];
            let mut y = 0;
            for l in (0..usize::BITS).filter(|l| base >> l & 1 == 1) {
                y |= 1 << l;
                queue(y, &mut order);
            }
            for &v in &self.faces[f].cycle {
                queue(v, &mut order);
            }
        }
        // The rest in ascending order: v ^ (its lowest dimension) is
        // smaller, so placed before.
        for v in 0..n {
            queue(v, &mut order);
        }
        self.placed.iter_mut().for_each(|p| *p = false);
        self.at[0] = [0; MAX_AXES];
        self.placed[0] = true;
        // With node 0 alone placed a face can wind round an open axis when
        // its distances reach the side.
        let faces = self.faces.len();
        let axes = self.key.sides.len();
        self.open_may = (0..axes * faces)
            .map(|x| {
                x / faces >= plan.winding.len() && self.can_wind(x / faces, &self.faces[x % faces])
            })
            .collect();
        self.open_count = (0..axes)
            .map(|a| {
                self.open_may[a * faces..(a + 1) * faces]
                    .iter()
                    .filter(|&&m| m)
                    .count()
            })
            .collect();
        self.open_undo.clear();
        self.place(&order, 1, plan)
    }

    /// Lee distance over A.
    fn distance(&self, x: &Point, y: &Point) -> u32 {
        let mut total = 0;
        for (a, &k) in self.key.sides.iter().enumerate() {
            let gap = x[a].abs_diff(y[a]);
            total += u32::from(gap.min(k - gap));
        }
        total
    }

    /// The step from x to y along axis a, the shorter way round.
    fn step(&self, a: usize, x: &Point, y: &Point) -> i32 {
        let k = i32::from(self.key.sides[a]);
        let t = wrap(i32::from(y[a]) - i32::from(x[a]), k);
        if 2 * t > k {
            t - k
        } else {
            t
        }
    }

    /// Round `face` along axis a: the sum of the steps of its placed
    /// edges (both nodes placed), the sum of the distances of the others,
    /// and whether every edge is placed.
    fn balance(&self, a: usize, face: &Face) -> (i32, u32, bool) {
        let c = &face.cycle;
        let (mut steps, mut slack, mut complete) = (0, 0, true);
        for e in 0..4 {
            let (u, v) = (c[e], c[(e + 1) % 4]);
            if self.placed[u] && self.placed[v] {
                steps += self.step(a, &self.at[u], &self.at[v]);
            } else {
                slack += self.key.heavy[face.dims[e]];
                complete = false;
            }
        }
        (steps, slack, complete)
    }

    /// Whether `face` can still wind along axis a: its steps add up to
    /// a nonzero multiple w·k_a, so the unplaced edges, at most their
    /// distances long, must make up k_a − |steps so far| at least.
    fn may_wind(&self, a: usize, face: &Face) -> bool {
        let (steps, slack, complete) = self.balance(a, face);
        if complete {
            steps != 0
        } else {
            steps.unsigned_abs() + slack >= u32::from(self.key.sides[a])
        }
    }

    /// Whether `face` can still not wind along axis a: the unplaced edges
    /// can bring its steps back to 0.
    fn may_stay(&self, a: usize, face: &Face) -> bool {
        let (steps, slack, complete) = self.balance(a, face);
        if complete {
            steps == 0
        } else {
            steps.unsigned_abs() <= slack
        }
    }

    /// Whether the faces through v, just placed, keep the plan: each can
    /// still wind round the axes it must and not round those it must not
    /// (with every node placed: does).
    fn faces_keep_plan(&self, v: usize, plan: &Plan) -> bool {
        self.faces_at[v].iter().all(|&f| {
            let face = &self.faces[f];
            let (must, barred) = (plan.must[f], plan.barred[f]);
            (0..self.key.sides.len()).all(|a| {
                (must >> a & 1 == 0 || self.may_wind(a, face))
                    && (barred >> a & 1 == 0 || self.may_stay(a, face))
            })
        })
    }

    /// After placing v: marks the faces through v that can no longer
    /// wind round an open axis (no face chosen to wind round it), and
    /// whether every open axis still has one that can. (No face is barred
    /// from an open axis.)
    fn open_axes_may_wind(&mut self, v: usize, plan: &Plan) -> bool {
        let faces = self.faces.len();
        let mut every = true;
        for a in plan.winding.len()..self.key.sides.len() {
            for i in 0..self.faces_at[v].len() {
                let f = self.faces_at[v][i];
                if self.open_may[a * faces + f] && !self.may_wind(a, &self.faces[f]) {
                    self.open_may[a * faces + f] = false;
                    self.open_count[a] -= 1;
                    self.open_undo.push(a * faces + f);
                }
            }
            every &= self.open_count[a] > 0;
        }
        every
    }

    /// Undoes [`Search::open_axes_may_wind`] back to `mark` entries.
    fn undo_open_axes(&mut self, mark: usize) {
        let faces = self.faces.len();
        for x in self.open_undo.drain(mark..) {
            self.open_may[x] = true;
            self.open_count[x / faces] += 1;
        }
    }

    /// Places `order[k..]`: whether p exists, None past the budget.
    fn place(&mut self, order: &[usize], k: usize, plan: &Plan) -> Option<bool> {
        if k == order.len() {
            return Some(true);
        }
        let v = order[k];
        let h = self.key.heavy.len();
        // The dimensions to placed neighbours: the first gives the
        // offsets, the others check them.
        let next_to = (0..h)
            .filter(|&l| self.placed[v ^ 1 << l])
            .fold(0usize, |m, l| m | 1 << l);
        let l0 = next_to.trailing_zeros() as usize;
        let base = self.at[v ^ 1 << l0];
        let shell = Rc::clone(&self.shells[l0]);
        for off in shell.iter() {
            // Node 1 of the order: one of each set of mirror images (the
            // reflections of T_A fix node 0 and keep whether each face
            // winds).
            if k == 1 && off.iter().any(|&c| c < 0) {
                continue;
            }
            let mut pos = [0; MAX_AXES];
            for (a, &side) in self.key.sides.iter().enumerate() {
                pos[a] = wrap(i32::from(base[a]) + i32::from(off[a]), i32::from(side)) as u16;
            }
            let fits = (l0 + 1..h).filter(|l| next_to >> l & 1 == 1).all(|l| {
                let r = self.distance(&pos, &self.at[v ^ 1 << l]);
                r <= self.key.heavy[l] && r + self.key.rest >= self.key.heavy[l]
            });
            if !fits {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.limit {
                return None;
            }
            self.at[v] = pos;
            self.placed[v] = true;
            let mark = self.open_undo.len();
            let found = if self.faces_keep_plan(v, plan) && self.open_axes_may_wind(v, plan) {
                self.place(order, k + 1, plan)
            } else {
                Some(false)
            };
            self.undo_open_axes(mark);
            self.placed[v] = false;
            if found != Some(false) {
                return found;
            }
        }
        Some(false)
    }
}

/// t mod k for t in (−k, 2k): a coordinate plus an offset, or the
/// difference of two coordinates, back on a side of k points (a compare
/// where `rem_euclid` divided: a fifth of the search's time on
/// torus:32x32's keys).
fn wrap(t: i32, k: i32) -> i32 {
    debug_assert!(-k < t && t < 2 * k);
    if t < 0 {
        t + k
    } else if t >= k {
        t - k
    } else {
        t
    }
}

/// The offsets of T_A (signed, each coordinate in (−k/2, k/2]) whose Lee
/// length is in [lo, hi].
fn shell(sides: &[u16], lo: u32, hi: u32) -> Vec<Offset> {
    let mut out: Vec<(Offset, u32)> = vec![([0; MAX_AXES], 0)];
    for (a, &k) in sides.iter().enumerate() {
        let half = i32::from(k / 2);
        let mut next = Vec::new();
        for &(prefix, used) in &out {
            for c in (1 - half)..=half {
                let len = used + c.unsigned_abs();
                if len <= hi {
                    let mut p = prefix;
                    p[a] = c as i16;
                    next.push((p, len));
                }
            }
        }
        out = next;
    }
    out.into_iter()
        .filter(|&(_, len)| len >= lo)
        .map(|(p, _)| p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_face_winds_only_if_its_steps_so_far_leave_room() {
        // One face of distances 4, 4 on 16x16: its steps must add up to
        // ±16, every edge 4 along the first axis.
        let key = Key {
            sides: vec![16, 16],
            heavy: vec![4, 4],
            rest: 0,
            lifts: false,
        };
        let mut search = Search::new(&key, super::super::SEARCH_BUDGET);
        let face = Face {
            cycle: [0, 1, 3, 2],
            dims: [0, 1, 0, 1],
        };
        search.placed[0] = true;
        search.placed[1] = true;
        search.placed[3] = true;
        // Out by 4 and back by 4: the two edges left (8 at most) cannot
        // make up 16, though the steps' lengths and theirs add up to 16.
        search.at[1] = [4, 0, 0, 0];
        search.at[3] = [0, 0, 0, 0];
        assert!(!search.may_wind(0, &face) && search.may_stay(0, &face));
        // Out by 8: they can go on round or come back.
        search.at[3] = [8, 0, 0, 0];
        assert!(search.may_wind(0, &face) && search.may_stay(0, &face));
        // Round the whole face: it winds.
        search.placed[2] = true;
        search.at[2] = [12, 0, 0, 0];
        assert!(search.may_wind(0, &face) && !search.may_stay(0, &face));
        // Along the other axis nothing moves.
        assert!(!search.may_wind(1, &face) && search.may_stay(1, &face));
    }

    #[test]
    fn the_planned_search_finds_what_the_open_one_misses() {
        // xor's vector on 32x32: the open search passes its budget, the
        // planned one finds a map.
        let key = super::super::key(&[32, 32], &[1, 1, 2, 2, 4, 4, 8, 8, 8, 8]).unwrap();
        let mut search = Search::new(&key, super::super::SEARCH_BUDGET);
        assert_eq!(search.run(false), None);
        assert_eq!(search.run(true), Some(true));
    }
}
