//! The winding cocycle: the winding lemma for any number of pairs.
//!
//! The winding lemma ([`super::windings`]) speaks when exactly one pair of
//! dimensions reaches half an axis. With several such pairs its argument
//! still says which faces of the cube may wind, and how: this module turns
//! that into a cut, decided by a small exhaustive search.
//!
//! *Let A be the axes a of the torus (side k_a) on which every distance is
//! below k_a/2 and Σ D_i is below the lift lemma's bound
//! ([`super::cuts::lift_bound`]), H_a the dimensions that pair with
//! another to reach k_a/2 (D_i + D_j ≥ k_a/2), H the union of the H_a, and
//! X = Σ_{b ∉ A} ⌊k_b/2⌋ the diameter of the other axes. If an embedding
//! exists, the |H|-cube Q_H has a map p into the torus T_A of the axes in A
//! with p(0) = 0, every edge of dimension i between D_i − X and D_i long,
//! and, for every axis a in A, a face whose four steps along a (each the
//! shorter way round, unique as D_i < k_a/2) do not add up to 0.*
//!
//! Proof. Let f be the embedding and p the projection onto T_A of f on the
//! copy of Q_H through node 0 (every dimension outside H zero), translated
//! so that p(0) = 0: an edge of dimension i is D_i long in the torus, the
//! sum of its lengths along the axes, of which at most X lie outside A.
//! Fix a in A. Round a face of dimensions i, j, f's four steps along a add
//! up to w·k_a for an integer w, the face's winding, with
//! |w|·k_a ≤ 2(D_i + D_j): a face of a pair below k_a/2 winds 0. Round a
//! 3-cube the six faces' windings, oriented as its boundary, add up to 0
//! (every edge's step is counted once each way); if m is outside H_a, the
//! four faces with m wind 0, so the two faces of {i, j} wind alike: a
//! face's winding does not change along a dimension outside H_a. If every
//! face wound 0, the coordinate would lift to the integers (steps 1–3 of
//! the axis lemma, [`super::cuts`]) and the lift lemma would give Σ D_i at
//! least its bound: so some face winds, its two dimensions in H_a, and
//! moved along the dimensions outside H (outside H_a) to the copy of Q_H
//! through node 0 it still winds. There p's steps are f's. ∎
//!
//! The search then looks for p, and where none exists the vector has no
//! embedding. Translating the cube by a node of Q_H (and the torus by its
//! image) keeps every distance and turns a winding face into one through
//! node 0, so the first axis of A winds on a face through node 0: the
//! search tries each pair of H that reaches its half (one face per pair of
//! distances: swapping dimensions of equal distances keeps every distance;
//! the faces through node 0 of the pairs tried before are barred from
//! winding), first placing that face (the torus's reflections fix node 1's
//! image up to sign), and then every other node of Q_H next to those
//! already placed. A face's four steps along a add up to w·k_a, so while
//! some of its edges are not placed it can still wind only if they, at
//! most their distances long, make up k_a − |the steps so far|, and stay
//! at 0 only if they make up |the steps so far|. What the search finds out
//! is how the faces share edges: a winding face needs its four edges to
//! move k_a along a between them, a pair adding up to k_a/2 leaves no room
//! to move elsewhere, and every axis needs such a face. On torus:16x16x2,
//! (1, 1, 1, 1, 2, 2, 4, 4, 4) — three pairs of 4 + 4 = 8 — is cut so: two
//! faces of its 3-cube wind round each of the two long axes (the windings
//! round a 3-cube add up to 0), moving their edges along that axis only,
//! and two such faces of different axes always share an edge.
//!
//! It searches twice. The *open* search places the other nodes in
//! ascending order while every other axis has some face that can still
//! wind round it: it refutes fast. Where it runs out of its budget, the
//! *planned* search also branches on the face that winds round each later
//! axis (the faces tried before barred from winding round it) and places
//! the winding faces first, each reached by a path from node 0: it finds
//! maps where the open one wanders (xor's own on torus:32x32 and
//! 16x16x2), at the cost of refuting every branch. Each is exhaustive
//! within [`NODE_BUDGET`] placements; past both, the vector is not cut (so
//! the answer never depends on the machine).

use std::collections::HashMap;
use std::rc::Rc;

use super::cuts::lift_bound;

/// The most placements each search for p makes before it gives up and
/// leaves the vector to the solver.
pub const NODE_BUDGET: u64 = 1 << 18;

/// The most dimensions in H the search takes on.
pub const MAX_HEAVY: usize = 6;

/// The most axes in A the search takes on.
pub const MAX_AXES: usize = 4;

/// What the lemma needs of a vector (module docs): the axes A, the
/// distances of H, and X. Vectors with the same key are cut alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// The sides of the axes in A.
    sides: Vec<u16>,
    /// The distances of the dimensions in H, ascending.
    heavy: Vec<u32>,
    /// The diameter of the axes outside A.
    rest: u32,
    /// Whether H is empty for some axis of A (the lift lemma cuts then).
    lifts: bool,
}

/// The lemma's view of `dims` on a torus of `sides`; None where it says
/// nothing (no axis in A, or H too large to search).
pub fn key(sides: &[u32], dims: &[u32]) -> Option<Key> {
    let total: u32 = dims.iter().sum();
    let axes: Vec<usize> = (0..sides.len())
        .filter(|&a| total < lift_bound(sides, a) && dims.iter().all(|&x| 2 * x < sides[a]))
        .collect();
    if axes.is_empty() {
        return None;
    }
    let mut in_heavy = vec![false; dims.len()];
    let mut lifts = false;
    for &a in &axes {
        let mut any = false;
        for p in 0..dims.len() {
            for q in p + 1..dims.len() {
                if 2 * (dims[p] + dims[q]) >= sides[a] {
                    in_heavy[p] = true;
                    in_heavy[q] = true;
                    any = true;
                }
            }
        }
        lifts |= !any;
    }
    let mut heavy: Vec<u32> = (0..dims.len())
        .filter(|&i| in_heavy[i])
        .map(|i| dims[i])
        .collect();
    heavy.sort_unstable();
    if heavy.len() > MAX_HEAVY || axes.len() > MAX_AXES {
        return None;
    }
    let rest = (0..sides.len())
        .filter(|b| !axes.contains(b))
        .map(|b| sides[b] / 2)
        .sum();
    Some(Key {
        sides: axes.iter().map(|&a| sides[a] as u16).collect(),
        heavy,
        rest,
        lifts,
    })
}

/// Whether the lemma rules out every embedding of `dims` on a torus of
/// `sides` (module docs).
pub fn rules_out(sides: &[u32], dims: &[u32]) -> bool {
    key(sides, dims).is_some_and(|k| k.rules_out())
}

/// The lemma's verdicts so far, per key: vectors of one key are cut
/// alike, and the search runs once per key.
#[derive(Debug, Default)]
pub struct Verdicts {
    cut: HashMap<Key, bool>,
}

impl Verdicts {
    /// Whether the lemma rules out every embedding of `dims` on a torus of
    /// `sides`, as [`rules_out`], searching once per key.
    pub fn rules_out(&mut self, sides: &[u32], dims: &[u32]) -> bool {
        let Some(key) = key(sides, dims) else {
            return false;
        };
        if let Some(&cut) = self.cut.get(&key) {
            return cut;
        }
        let cut = key.rules_out();
        self.cut.insert(key, cut);
        cut
    }
}

/// What the search for p found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No map p: the vector has no embedding.
    Cut,
    /// A map p (the position of every node of Q_H, one coordinate per
    /// axis of A): the lemma does not cut the vector.
    Maps(Vec<Vec<u32>>),
    /// Both searches passed [`NODE_BUDGET`] placements.
    Unknown,
}

impl Key {
    /// Whether no map p exists (module docs): [`Verdict::Cut`] only when
    /// a search, exhaustive within [`NODE_BUDGET`] placements, ends
    /// without one.
    pub fn rules_out(&self) -> bool {
        self.search() == Verdict::Cut
    }

    /// The search for p (module docs).
    pub fn search(&self) -> Verdict {
        if self.lifts {
            return Verdict::Cut;
        }
        let mut search = Search::new(self);
        // The open search refutes fast; the planned one finds maps where
        // the open one runs out of its budget.
        let mut found = search.run(false);
        if found.is_none() {
            found = search.run(true);
        }
        match found {
            Some(true) => {
                let axes = self.sides.len();
                Verdict::Maps(
                    search
                        .at
                        .iter()
                        .map(|p| p[..axes].iter().map(|&c| u32::from(c)).collect())
                        .collect(),
                )
            }
            Some(false) => Verdict::Cut,
            None => Verdict::Unknown,
        }
    }
}

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
struct Search<'k> {
    key: &'k Key,
    /// Node of Q_H → its position, while placed.
    at: Vec<Point>,
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
    /// Placements so far.
    nodes: u64,
}

impl<'k> Search<'k> {
    fn new(key: &'k Key) -> Search<'k> {
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
    fn run(&mut self, planned: bool) -> Option<bool> {
        self.nodes = 0;
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
        let t = (i32::from(y[a]) - i32::from(x[a])).rem_euclid(k);
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
                pos[a] =
                    (i32::from(base[a]) + i32::from(off[a])).rem_euclid(i32::from(side)) as u16;
            }
            let fits = (l0 + 1..h).filter(|l| next_to >> l & 1 == 1).all(|l| {
                let r = self.distance(&pos, &self.at[v ^ 1 << l]);
                r <= self.key.heavy[l] && r + self.key.rest >= self.key.heavy[l]
            });
            if !fits {
                continue;
            }
            self.nodes += 1;
            if self.nodes > NODE_BUDGET {
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

    /// Whether `map` is a map p of the key (module docs), checked from
    /// scratch: node 0 at 0, every edge of dimension i between D_i − X
    /// and D_i long over A, and a face winding round every axis.
    fn holds(key: &Key, map: &[Vec<u32>]) -> bool {
        let sides: Vec<i64> = key.sides.iter().map(|&k| i64::from(k)).collect();
        let h = key.heavy.len();
        let step = |a: usize, x: usize, y: usize| -> i64 {
            let t = (i64::from(map[y][a]) - i64::from(map[x][a])).rem_euclid(sides[a]);
            if 2 * t > sides[a] {
                t - sides[a]
            } else {
                t
            }
        };
        let edges_fit = (0..1usize << h).all(|x| {
            (0..h).all(|i| {
                let length: i64 = (0..sides.len()).map(|a| step(a, x, x ^ 1 << i).abs()).sum();
                let d = i64::from(key.heavy[i]);
                length <= d && length + i64::from(key.rest) >= d
            })
        });
        let winds = |a: usize| {
            (0..h).any(|i| {
                (i + 1..h).any(|j| {
                    (0..1usize << h).any(|x| {
                        let c = [x, x ^ 1 << i, x ^ 1 << i ^ 1 << j, x ^ 1 << j, x];
                        c.windows(2).map(|w| step(a, w[0], w[1])).sum::<i64>() != 0
                    })
                })
            })
        };
        map.len() == 1 << h
            && map[0].iter().all(|&c| c == 0)
            && edges_fit
            && (0..sides.len()).all(winds)
    }

    /// Every map p of the key's cube by brute force (node 0 at 0, then
    /// every node on every point of T_A within its edges' lengths of its
    /// placed neighbours), without the search's symmetries or pruning:
    /// whether one winds along every axis.
    fn some_map_by_brute_force(key: &Key) -> bool {
        let sides: Vec<u32> = key.sides.iter().map(|&k| u32::from(k)).collect();
        let points: Vec<Vec<u32>> = (0..sides.iter().product::<u32>())
            .map(|mut x| {
                sides
                    .iter()
                    .map(|&k| {
                        let c = x % k;
                        x /= k;
                        c
                    })
                    .collect()
            })
            .collect();
        let lee = |x: &[u32], y: &[u32]| -> u32 {
            sides
                .iter()
                .zip(x.iter().zip(y))
                .map(|(&k, (&a, &b))| a.abs_diff(b).min(k - a.abs_diff(b)))
                .sum()
        };
        let step = |k: u32, a: u32, b: u32| -> i64 {
            let t = (i64::from(b) - i64::from(a)).rem_euclid(i64::from(k));
            if 2 * t > i64::from(k) {
                t - i64::from(k)
            } else {
                t
            }
        };
        fn go(
            v: usize,
            at: &mut Vec<usize>,
            key: &Key,
            points: &[Vec<u32>],
            lee: &dyn Fn(&[u32], &[u32]) -> u32,
            done: &dyn Fn(&[usize]) -> bool,
        ) -> bool {
            let h = key.heavy.len();
            if v == 1 << h {
                return done(at);
            }
            for x in 0..points.len() {
                let fits = (0..h).filter(|&l| v >> l & 1 == 1).all(|l| {
                    let r = lee(&points[x], &points[at[v ^ 1 << l]]);
                    r <= key.heavy[l] && r + key.rest >= key.heavy[l]
                });
                if fits {
                    at.push(x);
                    if go(v + 1, at, key, points, lee, done) {
                        return true;
                    }
                    at.pop();
                }
            }
            false
        }
        let h = key.heavy.len();
        let done = |at: &[usize]| -> bool {
            (0..sides.len()).all(|a| {
                (0..h).any(|i| {
                    (i + 1..h).any(|j| {
                        (0..1usize << h)
                            .filter(|x| x >> i & 1 == 0 && x >> j & 1 == 0)
                            .any(|x| {
                                let c = [x, x | 1 << i, x | 1 << i | 1 << j, x | 1 << j, x];
                                c.windows(2)
                                    .map(|w| {
                                        step(sides[a], points[at[w[0]]][a], points[at[w[1]]][a])
                                    })
                                    .sum::<i64>()
                                    != 0
                            })
                    })
                })
            })
        };
        go(1, &mut vec![0], key, &points, &lee, &done)
    }

    #[test]
    fn the_search_answers_as_brute_force() {
        // Every key of two or three distances below k/2 on 8x8, 8x4 and
        // 8x4x4 (and with X = 1 on 8x8): the search finds a map exactly
        // when brute force does, and the map it gives holds.
        let mut seen = [0usize; 2]; // cut, maps
        let (mut unknown, mut decided_on_three_axes) = (0, 0);
        for (sides, rest) in [
            (vec![8u16, 8], 0),
            (vec![8, 8], 1),
            (vec![8, 4], 0),
            (vec![8, 4, 4], 0),
        ] {
            let top = u32::from(*sides.iter().min().unwrap() / 2) - 1;
            let top = top.max(u32::from(sides[0] / 2) - 1);
            for h in 2..=3usize {
                let mut heavy = vec![1u32; h];
                loop {
                    let key = Key {
                        sides: sides.clone(),
                        heavy: heavy.clone(),
                        rest,
                        lifts: false,
                    };
                    let heavy_enough = (0..h).any(|i| {
                        (i + 1..h).any(|j| 2 * (heavy[i] + heavy[j]) >= u32::from(sides[0]))
                    });
                    if heavy_enough {
                        let verdict = key.search();
                        if verdict == Verdict::Unknown {
                            // Only on three axes (each needs two winding
                            // faces of the cube: a harder search).
                            assert_eq!(sides.len(), 3, "{key:?}");
                            unknown += 1;
                        } else {
                            let maps = some_map_by_brute_force(&key);
                            assert_eq!(matches!(verdict, Verdict::Maps(_)), maps, "{key:?}");
                            if let Verdict::Maps(map) = verdict {
                                assert!(holds(&key, &map), "{key:?}: {map:?}");
                            }
                            seen[usize::from(maps)] += 1;
                            if sides.len() == 3 {
                                decided_on_three_axes += 1;
                            }
                        }
                    }
                    // The next ascending vector of h entries up to top.
                    let Some(i) = (0..h).rev().find(|&i| heavy[i] < top) else {
                        break;
                    };
                    let x = heavy[i] + 1;
                    heavy[i..].iter_mut().for_each(|e| *e = x);
                }
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
        assert!(
            decided_on_three_axes > unknown,
            "{decided_on_three_axes} {unknown}"
        );
    }

    #[test]
    fn three_pairs_of_half_an_axis_on_two_axes_are_cut() {
        // The module docs' example: torus:16x16x2, three pairs 4 + 4 = 8.
        let dims = [1, 1, 1, 1, 2, 2, 4, 4, 4];
        let key = key(&[16, 16, 2], &dims).unwrap();
        assert_eq!(
            key,
            Key {
                sides: vec![16, 16],
                heavy: vec![4, 4, 4],
                rest: 1,
                lifts: false
            }
        );
        assert_eq!(key.search(), Verdict::Cut);
        // With one long axis only (16x8x4: the 8 has Σ = 20 above its
        // lift bound 7 + 8 + 2), one axis must wind: a map exists.
        assert!(!rules_out(&[16, 8, 4], &dims));
    }

    #[test]
    fn xor_is_never_cut() {
        // xor's own vectors, below the lift bound on these tori: each has
        // a map (on 16x16x2 an edge may be 3 or 4 long over A), and the
        // search finds one that holds.
        for (sides, dims) in [
            (vec![16, 16], vec![1, 1, 2, 2, 4, 4, 4, 4]),
            (vec![16, 16, 2], vec![1, 1, 1, 2, 2, 4, 4, 4, 4]),
            (vec![32, 32], vec![1, 1, 2, 2, 4, 4, 8, 8, 8, 8]),
            (vec![8, 8], vec![1, 1, 2, 2, 2, 2]),
        ] {
            let key = key(&sides, &dims).unwrap();
            let Verdict::Maps(map) = key.search() else {
                panic!("{sides:?}: no map");
            };
            assert!(holds(&key, &map), "{sides:?}: {map:?}");
        }
    }

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
        let mut search = Search::new(&key);
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
        let key = key(&[32, 32], &[1, 1, 2, 2, 4, 4, 8, 8, 8, 8]).unwrap();
        let mut search = Search::new(&key);
        assert_eq!(search.run(false), None);
        assert_eq!(search.run(true), Some(true));
    }

    #[test]
    fn no_axis_or_too_many_dimensions_says_nothing() {
        // Σ at the lift bound on every axis: no A.
        assert_eq!(key(&[16, 16], &[1, 1, 2, 2, 4, 4, 4, 8]), None);
        // A distance of k/2 on the only long axis: no A.
        assert_eq!(key(&[16, 4], &[1, 1, 2, 8, 1, 1]), None);
        // Every pair below k/2 on an axis of A: the lift lemma's case.
        let k = key(&[64, 4], &[1, 1, 1, 1, 1, 1, 1, 2]).unwrap();
        assert!(k.lifts && k.rules_out());
    }
}
