//! The window lemma: a folded formula near the lift bound keeps its part
//! of the cube in a window of the torus, node 0 at its edge.
//!
//! *Let the halving lemma ([`crate::optimal::bounds::halving`]) fold the formula of a
//! distance vector round the axis a of side k, keeping a part K of the cube
//! (the nodes with bit q = 0, or p = q = 0 when quartered) whose images are
//! distinct modulo m (k/2, or k/4) along the axis, and let
//! W = Σ_{i kept} D_i − Σ_{b≠a} ⌊k_b/2⌋ (the kept dimensions' sum less the
//! diameter of the torus T' of the other sides). If W < m − 1, no
//! embedding exists. If m − 1 ≤ W ≤ k/2, one exists if and only if K has a
//! map g into the window [0, W] × T' with g(0) = (0, 0), taking every class
//! (F mod m, t') once, every edge of a kept dimension i D_i long in the
//! window's metric |ΔF| + d_T'(Δ), and the winding lemma's binding (the
//! kept dimension p of a halved formula moves along the axis only) kept.*
//! At W = m − 1 the window is a band of m columns and g a bijection onto
//! it.
//!
//! Proof. No pair of kept dimensions reaches k/2 (the fold's pair is the
//! only one, and it lost a member), and every distance is below k/2, so the
//! axis lemma's argument ([`crate::optimal::bounds::cuts`], steps 1–3) lifts the axis
//! coordinate on K (a sub-cube, its closed walks made of its faces) to an
//! integer F with F(c ⊕ e_i) − F(c) the edge's step t, |t| ≤ D_i, the edge
//! moving D_i − |t| over the other axes. K has as many nodes as there are
//! classes (m values along the axis times the nodes of T') and its images
//! are distinct modulo m: every class is taken once. So F takes every
//! residue modulo m, max F − min F ≥ m − 1; and some image is the diameter
//! of T' away, over the other axes, from that of a node where F is least.
//! The lift lemma's path argument ([`crate::optimal::bounds::cuts`]) inside K then gives
//! max F − min F + diam T' ≤ Σ_{i kept} D_i, that is max F − min F ≤ W.
//! If W < m − 1 that is impossible. Otherwise translate the cube by the
//! node where F is least (K is a sub-cube through 0, so the translate keeps
//! K and every edge's dimension) and the torus to match: that node is 0,
//! its image (0, 0), and (F, the other coordinates) maps K into the window,
//! each class once. An edge's length along the axis is |t| = |ΔF|, as
//! |t| < k/2. Conversely, given such a g, h(c) = (F mod k, the other
//! coordinates) has images distinct modulo m and the same lengths
//! (|ΔF| ≤ W ≤ k/2 is the shorter way round, or a tie), and the halving
//! lemma completes it. The window's symmetries fixing (0, 0), the other
//! axes' reflections and permutations of equal sides, keep lengths, classes
//! and bindings: cube node 1 takes one cell per orbit of those.
//!
//! On torus:128x8 every vector the lift lemma leaves below xor's 100 is
//! quartered with W = 31 = m − 1: the quarter is a bijection onto the
//! cylinder P_32 × C_8, node 0 in a corner, and unit propagation alone
//! refutes every one of the 983 formulas (the quartered formulas, node 0
//! anywhere in the window, took 2 to 370 s each).

use crate::optimal::bounds::halving::Fold;
use crate::optimal::bounds::windings::winding_axes;
use crate::optimal::bounds::windings::Winding;
use crate::optimal::host::SearchHost;
use crate::optimal::proof::sat::{at_most_one, Answer, Cnf, Solved};

/// What the window lemma says of a folded formula.
pub enum Window {
    /// W < m − 1: no embedding.
    Empty,
    /// W = m − 1: the band formula decides the vector.
    Band(Box<Band>),
}

/// The window [0, W] × T' of the window lemma, cells numbered
/// F · |T'| + (node of T').
pub struct Band {
    pub(in crate::optimal) fold: Fold,
    /// W + 1, the window's columns.
    columns: u32,
    /// m: the cells of a class are the columns equal modulo m.
    modulus: u32,
    /// T', the torus of the other sides.
    other: SearchHost,
    /// The host's axes that T' stands for, in T''s order.
    other_axes: Vec<usize>,
}

/// The window lemma's verdict on `dims` folded by `fold` on a torus of
/// `sides` (module docs); None where it says nothing (W > k/2, or a ring).
pub fn window(sides: &[u32], dims: &[u32], fold: Fold) -> Option<Window> {
    if sides.len() < 2 {
        return None;
    }
    let kept: u32 = (0..dims.len())
        .filter(|&i| !fold.folds(i))
        .map(|i| dims[i])
        .sum();
    let other_axes: Vec<usize> = (0..sides.len()).filter(|&b| b != fold.axis).collect();
    let diameter: u32 = other_axes.iter().map(|&b| sides[b] / 2).sum();
    let modulus = fold.modulus();
    if kept + 1 < diameter + modulus {
        return Some(Window::Empty);
    }
    let w = kept - diameter;
    if w > sides[fold.axis] / 2 {
        return None;
    }
    let other_sides: Vec<u32> = other_axes.iter().map(|&b| sides[b]).collect();
    Some(Window::Band(Box::new(Band {
        fold,
        columns: w + 1,
        modulus,
        other: SearchHost::new(&other_sides),
        other_axes,
    })))
}

impl Band {
    pub(in crate::optimal) fn cells(&self) -> usize {
        self.columns as usize * self.other.nodes()
    }

    /// The classes: m columns times the nodes of T'.
    pub(in crate::optimal) fn classes(&self) -> usize {
        self.modulus as usize * self.other.nodes()
    }

    /// The class of a cell: its column modulo m, its node of T'.
    pub(in crate::optimal) fn class(&self, cell: usize) -> usize {
        let n = self.other.nodes();
        (cell / n) % self.modulus as usize * n + cell % n
    }

    fn cell(&self, f: u32, o: u16) -> usize {
        f as usize * self.other.nodes() + o as usize
    }

    /// The host node of a cell: F along the fold's axis, T''s coordinates
    /// on the other axes.
    fn host_node(&self, h: &SearchHost, cell: usize) -> u16 {
        let n = self.other.nodes();
        let (f, mut o) = ((cell / n) as u32, (cell % n) as u32);
        let mut v = f * h.stride(self.fold.axis);
        for &b in &self.other_axes {
            let k = h.sides()[b];
            v += (o % k) * h.stride(b);
            o /= k;
        }
        v as u16
    }

    /// The cells at band distance `r` from `cell` whose offset is at most
    /// `slack` off the axis.
    pub(in crate::optimal) fn neighbours(&self, cell: usize, r: u32, slack: u32) -> Vec<usize> {
        let n = self.other.nodes();
        let (f, o) = ((cell / n) as i64, (cell % n) as u16);
        let mut out = Vec::new();
        for t in 0..=r {
            let off = r - t;
            if off > slack || off > u32::from(self.other.diameter()) {
                continue;
            }
            for &u in self.other.sphere(off as u16) {
                let o2 = self.other.add(o, u);
                for g in [f - i64::from(t), f + i64::from(t)] {
                    if (0..i64::from(self.columns)).contains(&g) && (t > 0 || g == f) {
                        out.push(self.cell(g as u32, o2));
                    }
                    if t == 0 {
                        break;
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Band {
    /// The cells cube node `c` may take (ascending; none outside the kept
    /// part): node 0 the corner (0, 0); node c no further from it than the
    /// sum of its bits' distances, and of the same parity when `bipartite`;
    /// node 1 exactly D_0 away, in one cell per orbit of the symmetries of
    /// T' fixing its node 0.
    pub(in crate::optimal) fn allowed(
        &self,
        dims: &[u32],
        bipartite: bool,
        c: usize,
    ) -> Vec<usize> {
        if !self.fold.kept(c) {
            return Vec::new();
        }
        if c == 0 {
            return vec![0];
        }
        let o_n = self.other.nodes();
        let reach: u32 = (0..dims.len())
            .filter(|&i| c >> i & 1 == 1)
            .map(|i| dims[i])
            .sum();
        (0..self.cells())
            .filter(|&cell| {
                let (f, o) = ((cell / o_n) as u32, (cell % o_n) as u16);
                let r = f + u32::from(self.other.d(0, o));
                let first_ok = c != 1
                    || (r == dims[0] && !self.other.symmetries().iter().any(|g| g[o as usize] < o));
                first_ok && r <= reach && (!bipartite || (reach - r) % 2 == 0)
            })
            .collect()
    }

    /// The kept dimensions with an edge constraint: (i, D_i, how far off
    /// the axis its edges may move — the winding lemma's slack for a
    /// dimension bound to the fold's axis, else unbounded).
    pub(in crate::optimal) fn edges(&self, h: &SearchHost, dims: &[u32]) -> Vec<(usize, u32, u32)> {
        let along = winding_axes(h.sides(), dims, Winding::Lifted);
        (0..dims.len())
            .filter(|&i| !self.fold.folds(i))
            .map(|i| {
                let slack = along[i]
                    .iter()
                    .filter(|b| b.axis == self.fold.axis)
                    .map(|b| b.slack)
                    .min()
                    .unwrap_or(u32::MAX);
                (i, dims[i], slack)
            })
            .collect()
    }
}

/// The band formula (module docs) and, per cube node, the cells its
/// variables stand for (empty outside the kept part).
pub(in crate::optimal) struct BandFormula {
    pub cnf: Cnf,
    cells: Vec<Vec<usize>>,
    first: Vec<i32>,
}

/// The formula of the window lemma for `dims` on `h` under `band`.
/// `bipartite`: every side even (the band is bipartite too).
pub(in crate::optimal) fn formula(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    band: &Band,
) -> BandFormula {
    let n = h.nodes();
    let fold = band.fold;
    let cells: Vec<Vec<usize>> = (0..n).map(|c| band.allowed(dims, bipartite, c)).collect();
    let mut first = Vec::with_capacity(n);
    let mut next = 1i32;
    for allowed in &cells {
        first.push(next);
        next += allowed.len() as i32;
    }
    let mut cnf = Cnf {
        vars: (next - 1) as u32,
        clauses: Vec::new(),
    };
    let var = |c: usize, cell: usize| -> Option<i32> {
        cells[c]
            .binary_search(&cell)
            .ok()
            .map(|k| first[c] + k as i32)
    };
    // Every kept cube node in one cell, every class taken once.
    let mut takers: Vec<Vec<i32>> = vec![Vec::new(); band.cells()];
    for c in (0..n).filter(|&c| fold.kept(c)) {
        let lits: Vec<i32> = (0..cells[c].len() as i32).map(|k| first[c] + k).collect();
        for (k, &cell) in cells[c].iter().enumerate() {
            takers[band.class(cell)].push(first[c] + k as i32);
        }
        cnf.clauses.push(lits.clone());
        at_most_one(&mut cnf, &lits);
    }
    for lits in &takers[..band.classes()] {
        cnf.clauses.push(lits.clone());
        at_most_one(&mut cnf, lits);
    }
    // Every kept edge D_i long in the band, bound ones along the axis.
    for (i, r, slack) in band.edges(h, dims) {
        for c in (0..n).filter(|&c| fold.kept(c)) {
            let other = c ^ (1 << i);
            for (k, &cell) in cells[c].iter().enumerate() {
                let mut clause = vec![-(first[c] + k as i32)];
                clause.extend(
                    band.neighbours(cell, r, slack)
                        .into_iter()
                        .filter_map(|u| var(other, u)),
                );
                cnf.clauses.push(clause);
            }
        }
    }
    BandFormula { cnf, cells, first }
}

impl BandFormula {
    /// The host node of every cube node from a model of the formula (the
    /// kept part only; the fold completes it).
    pub(in crate::optimal) fn placement(
        &self,
        h: &SearchHost,
        band: &Band,
        values: &[bool],
    ) -> Vec<u16> {
        let mut place: Vec<u16> = (0..h.nodes())
            .map(|c| {
                (0..self.cells[c].len())
                    .find(|&k| values[(self.first[c] + k as i32) as usize])
                    .map_or(0, |k| band.host_node(h, self.cells[c][k]))
            })
            .collect();
        band.fold.unfold(h, &mut place);
        place
    }
}

/// The window lemma's formula for `dims` on `h` (with the lifted winding
/// lemma and the halving lemma's fold), if the lemma applies: the band
/// formula, or one empty clause when no window fits. The checker
/// regenerates a refutation marked `banded` with this.
pub(in crate::optimal) fn encode(h: &SearchHost, dims: &[u32], bipartite: bool) -> Option<Cnf> {
    match window_of(h, dims)? {
        Window::Empty => Some(Cnf::unsatisfiable()),
        Window::Band(band) => Some(formula(h, dims, bipartite, &band).cnf),
    }
}

/// The window of `dims` on `h` (with the lifted winding lemma and the
/// halving lemma's fold), if the window lemma applies (module docs).
pub(in crate::optimal) fn window_of(h: &SearchHost, dims: &[u32]) -> Option<Window> {
    let fold = crate::optimal::proof::sat::folding(h, dims, Winding::Lifted, true)?;
    window(h.sides(), dims, fold)
}

/// Decides `dims` on `h` by the window lemma's formula, if it applies
/// (None otherwise); an UNSAT answer's DRAT proof goes to `proof`.
pub(in crate::optimal) fn decide(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    proof: Option<&mut dyn std::io::Write>,
) -> Option<std::result::Result<Answer, String>> {
    Some(decide_window(
        h,
        dims,
        bipartite,
        &window_of(h, dims)?,
        proof,
    ))
}

/// Decides `dims` on `h` by the window lemma's formula in `window`; an
/// UNSAT answer's DRAT proof goes to `proof`.
pub(in crate::optimal) fn decide_window(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    window: &Window,
    proof: Option<&mut dyn std::io::Write>,
) -> std::result::Result<Answer, String> {
    let empty = Cnf::unsatisfiable();
    let built = match window {
        Window::Empty => None,
        Window::Band(band) => Some((formula(h, dims, bipartite, band), band)),
    };
    let cnf = built.as_ref().map_or(&empty, |(f, _)| &f.cnf);
    match (crate::optimal::proof::sat::solve(cnf, proof)?, &built) {
        (Solved::Stopped, _) => Ok(Answer::Stopped),
        (Solved::Model(values), Some((f, band))) => {
            let place = f.placement(h, band, &values);
            if !crate::optimal::proof::sat::is_embedding(h, dims, &place) {
                return Err(format!("the band model for {dims:?} is not an embedding"));
            }
            Ok(Answer::Embedding(place))
        }
        (Solved::Model(_), None) => Err(format!("the empty formula of {dims:?} has a model")),
        (Solved::Unsatisfiable, _) => Ok(Answer::Unsatisfiable {
            variables: cnf.vars,
            clauses: cnf.clauses.len(),
        }),
    }
}

/// Whether an embedding of cube:d onto `sides` with exactly the distances
/// `dims` (in this order) exists, by the solver: the host node of every
/// cube node if so.
pub fn embedding_with(
    sides: &[u32],
    dims: &[u32],
) -> std::result::Result<Option<Vec<u16>>, String> {
    let h = SearchHost::new(sides);
    let even = sides.iter().all(|k| k % 2 == 0);
    // The window lemma's formula where it applies, else the folded one, or
    // the slack window's.
    let pin = crate::optimal::bounds::pin::pin(sides, dims);
    let answer = decide(&h, dims, even, None).unwrap_or_else(|| {
        crate::optimal::proof::sat::decide_in(&h, dims, even, (Winding::Lifted, true, pin), None)
    })?;
    match answer {
        Answer::Embedding(place) => Ok(Some(place)),
        Answer::Unsatisfiable { .. } => Ok(None),
        Answer::Stopped => Err("the solve was stopped".to_string()),
    }
}

#[cfg(test)]
pub(in crate::optimal) mod tests {
    use super::*;
    use crate::optimal::bounds::cuts::{lift_bound, Bounds};
    use crate::optimal::search::vectors::tests::{all_below, SMALL_TORI};

    /// Every ascending vector of `d` entries from 1 to `top`.
    fn ascending(d: usize, top: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut dims = vec![1u32; d];
        loop {
            out.push(dims.clone());
            let Some(k) = (0..d).rev().find(|&k| dims[k] < top) else {
                return out;
            };
            let value = dims[k] + 1;
            dims[k..].fill(value);
        }
    }

    /// Nine small tori, each with every vector the counting bounds leave
    /// below its lift lemma's bound.
    pub(in crate::optimal) fn below_the_lift_bound() -> Vec<(Vec<u32>, Vec<Vec<u32>>)> {
        let more: [&[u32]; 4] = [&[32, 4], &[16, 8], &[16, 4, 2], &[8, 4, 4]];
        SMALL_TORI
            .iter()
            .chain(&more)
            .map(|s| {
                let limit = (0..s.len()).map(|a| lift_bound(s, a)).max().unwrap();
                (s.to_vec(), all_below(s, limit, Bounds::Counting))
            })
            .collect()
    }

    #[test]
    fn the_band_answers_as_the_folded_formula_does() {
        // Every vector the counting bounds leave below the lift lemma's
        // bound on nine small tori: where the window lemma applies, the
        // band formula answers as the folded one, and its embeddings are
        // rebuilt and checked inside `decide_window`.
        let mut seen = [0usize; 2]; // band refuted, band embedded
        for (sides, vectors) in below_the_lift_bound() {
            let h = SearchHost::new(&sides);
            for dims in vectors {
                let Some(answer) = decide(&h, &dims, true, None) else {
                    continue;
                };
                let folded = crate::optimal::proof::sat::decide(
                    &h,
                    &dims,
                    true,
                    Winding::Lifted,
                    true,
                    None,
                )
                .unwrap();
                let embeds = matches!(answer.unwrap(), Answer::Embedding(_));
                assert_eq!(
                    embeds,
                    matches!(folded, Answer::Embedding(_)),
                    "{sides:?} {dims:?}"
                );
                seen[usize::from(embeds)] += 1;
            }
        }
        // 179 refuted and 156 embedded (measured; with torus:64x2 also,
        // 3 055 and 562 in 48 s).
        assert_eq!(seen, [179, 156]);
    }

    #[test]
    fn a_window_too_narrow_leaves_no_embedding() {
        // The counting bounds already cut every vector whose window is
        // empty; without them, on every ascending vector of five small
        // tori below the lift bound, an empty window's vector is refuted by
        // the folded formula too.
        let mut empty = 0;
        for sides in [
            vec![16u32, 4],
            vec![16, 2, 2],
            vec![8, 4],
            vec![32, 2],
            vec![8, 8],
        ] {
            let h = SearchHost::new(&sides);
            let d = h.nodes().trailing_zeros() as usize;
            let limit = (0..sides.len())
                .map(|a| lift_bound(&sides, a))
                .max()
                .unwrap();
            for dims in ascending(d, u32::from(h.diameter())) {
                if dims.iter().sum::<u32>() >= limit {
                    continue;
                }
                let Some(fold) =
                    crate::optimal::proof::sat::folding(&h, &dims, Winding::Lifted, true)
                else {
                    continue;
                };
                if !matches!(window(&sides, &dims, fold), Some(Window::Empty)) {
                    continue;
                }
                empty += 1;
                assert_eq!(encode(&h, &dims, true), Some(Cnf::unsatisfiable()));
                let folded = crate::optimal::proof::sat::decide(
                    &h,
                    &dims,
                    true,
                    Winding::Lifted,
                    true,
                    None,
                )
                .unwrap();
                assert!(
                    matches!(folded, Answer::Unsatisfiable { .. }),
                    "{sides:?} {dims:?}"
                );
            }
        }
        assert_eq!(empty, 84);
    }
}
