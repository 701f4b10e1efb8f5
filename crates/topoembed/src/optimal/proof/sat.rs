//! One distance vector decided by a SAT solver: does a constant-distance
//! embedding of a d-cube onto the torus with distances D_0..D_{d−1} exist?
//! An UNSAT answer comes with a DRAT proof (binary format, as drat-trim
//! reads it) that [`crate::optimal::proof::drat`] — or any DRAT checker — verifies against
//! the formula [`encode`] writes.
//!
//! The formula (variables x(c, v): cube node c on host node v):
//! * f(0) = 0 (the torus is vertex-transitive), and f(1) on one node per
//!   orbit of the symmetries fixing node 0 (any embedding composed with such
//!   a symmetry keeps its distances);
//! * c can only sit where its walk from node 0 can reach: d(0, v) ≤ R_c =
//!   Σ_{i ∈ c} D_i, with the parity of R_c when every side is even (the
//!   torus is then bipartite) — these are the only x(c, v) created;
//! * every c somewhere, every host node taken by some c and by at most one
//!   (a sequential counter): with as many cube nodes as host nodes, that is
//!   a bijection;
//! * x(c, v) → ∨ x(c ⊕ e_i, u) over the u at distance D_i from v, for every
//!   dimension i: every edge of dimension i is D_i long. With the winding
//!   lemma ([`crate::optimal::bounds::windings`]), the u of a dimension it binds to an axis
//!   are only those at most its slack off that axis (with slack 0, the two
//!   on the axis; none, bound to two axes with too little slack).

use std::io::Write;

use crate::optimal::bounds::halving::{fold, Fold};
use crate::optimal::bounds::pin::Pin;
use crate::optimal::bounds::windings::{winding_axes, Winding};
use crate::optimal::host::SearchHost;

/// A formula in conjunctive normal form, literals as DIMACS integers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables (1..=vars).
    pub vars: u32,
    /// The clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// The formula of one empty clause: no model, refuted by the empty
    /// proof.
    pub fn unsatisfiable() -> Cnf {
        Cnf {
            vars: 0,
            clauses: vec![Vec::new()],
        }
    }

    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars as i32
    }
    /// Writes the formula in DIMACS format.
    pub fn write_dimacs(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "p cnf {} {}", self.vars, self.clauses.len())?;
        for clause in &self.clauses {
            for lit in clause {
                write!(out, "{lit} ")?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }
}

/// Where each cube node may sit, and its variables.
pub(in crate::optimal) struct Domains {
    /// The part of the cube the formula keeps (None: all of it).
    fold: Option<Fold>,
    /// `nodes[c]`: the host nodes c may sit on, ascending.
    nodes: Vec<Vec<u16>>,
    /// `first[c]`: the variable of (c, nodes[c][0]); the others follow.
    first: Vec<i32>,
}

impl Domains {
    /// The host nodes cube node `c` may sit on, ascending.
    pub(in crate::optimal) fn nodes(&self, c: usize) -> &[u16] {
        &self.nodes[c]
    }

    /// The cube node and host node variable `var` stands for, if any.
    pub(in crate::optimal) fn placement(&self, var: i32) -> Option<(usize, u16)> {
        // With empty domains several nodes share a `first`: the last owns it.
        let c = self.first.partition_point(|&f| f <= var).checked_sub(1)?;
        let at = usize::try_from(var - self.first[c]).ok()?;
        self.nodes[c].get(at).map(|&v| (c, v))
    }

    /// The variable "cube node `c` on host node `v`", if there is one.
    pub(in crate::optimal) fn var(&self, c: usize, v: u16) -> Option<i32> {
        self.nodes[c]
            .binary_search(&v)
            .ok()
            .map(|k| self.first[c] + k as i32)
    }
}

/// The formula "an embedding with distances `dims` exists" (module docs).
/// `first_images`: the nodes cube node 1 may take (one per orbit).
/// With a `fold`, the nodes outside the part it keeps get no variables;
/// with a `pin`, the nodes it pins sit in its window.
fn domains(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    first_images: &[u16],
    fold: Option<Fold>,
    pin: Option<Pin>,
) -> Domains {
    // The cube's nodes: the host's, or a sub-cube's (a core).
    let n = 1usize << dims.len();
    let mut nodes = Vec::with_capacity(n);
    for c in 0..n {
        if !kept(fold, c) {
            nodes.push(Vec::new());
            continue;
        }
        let reach: u32 = (0..dims.len())
            .filter(|&i| c >> i & 1 == 1)
            .map(|i| dims[i])
            .sum();
        let allowed: Vec<u16> = match c {
            0 => vec![0],
            1 => first_images.to_vec(),
            _ => (0..h.nodes() as u16)
                .filter(|&v| {
                    let r = u32::from(h.d(0, v));
                    r <= reach && (!bipartite || (reach - r) % 2 == 0)
                })
                .filter(|&v| pin.map_or(true, |p| !p.pins(c) || p.admits(h, v)))
                .collect(),
        };
        nodes.push(allowed);
    }
    let mut first = Vec::with_capacity(n);
    let mut next = 1i32;
    for allowed in &nodes {
        first.push(next);
        next += allowed.len() as i32;
    }
    Domains { fold, nodes, first }
}

/// The nodes at distance `r` from node 0 that are the least of their orbit
/// under the symmetries fixing node 0.
/// With a `pin`: least of their orbit under the symmetries that
/// also keep its axis's direction ([`crate::optimal::bounds::pin`]), and in its window
/// when it pins cube node 1.
fn representatives(h: &SearchHost, r: u32, pin: Option<Pin>) -> Vec<u16> {
    if r > u32::from(h.diameter()) {
        return Vec::new();
    }
    let symmetries: Vec<&Vec<u16>> = h
        .symmetries()
        .iter()
        .filter(|g| pin.map_or(true, |p| p.keeps(h, g)))
        .collect();
    h.sphere(r as u16)
        .iter()
        .copied()
        .filter(|&u| pin.map_or(true, |p| !p.pins(1) || p.admits(h, u)))
        .filter(|&u| !symmetries.iter().any(|g| g[u as usize] < u))
        .collect()
}

/// The formula for distances `dims` (any order) on `h` (module docs).
/// `bipartite`: every side of the torus is even; `windings`: which form of
/// the winding lemma binds dimensions to axes; `halve`: halved (or
/// quartered) by the halving lemma where it applies ([`crate::optimal::bounds::halving`]).
pub(in crate::optimal) fn encode(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    windings: Winding,
    halve: bool,
) -> Cnf {
    formula(h, dims, bipartite, windings, halve).0
}

/// Whether the winding lemma in `form` changes the formula of `dims` on `h`.
pub(in crate::optimal) fn windings_apply(h: &SearchHost, dims: &[u32], form: Winding) -> bool {
    winding_axes(h.sides(), dims, form)
        .iter()
        .any(|a| !a.is_empty())
}

/// The fold of `dims`' formula when halved (None: the whole cube).
pub(in crate::optimal) fn folding(
    h: &SearchHost,
    dims: &[u32],
    windings: Winding,
    halve: bool,
) -> Option<Fold> {
    halve.then(|| fold(h.sides(), dims, windings)).flatten()
}

/// Whether cube node c has variables under `fold`.
fn kept(fold: Option<Fold>, c: usize) -> bool {
    fold.map_or(true, |f| f.kept(c))
}

/// The host node standing for v's class: v itself, or with a fold, v with
/// its coordinate along the fold's axis reduced modulo the fold's modulus.
fn class_of(h: &SearchHost, fold: Option<Fold>, v: u16) -> u16 {
    let Some(f) = fold else { return v };
    let stride = h.stride(f.axis);
    let x = (u32::from(v) / stride) % h.sides()[f.axis];
    (u32::from(v) - (x - x % f.modulus()) * stride) as u16
}

/// The formula and the domains its variables stand for.
fn formula(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    windings: Winding,
    halve: bool,
) -> (Cnf, Domains) {
    formula_in(h, dims, bipartite, windings, halve, None)
}

/// The formula "a sub-cube with distances `core` (any order) is placed one
/// to one on `h`" — a *core* ([`crate::optimal::certificate::refuted::Refuted::core`]) when it has
/// no model. As [`encode`]'s, but with 2^|core| cube nodes, each host node
/// taken at most once and none required, and no lemma (the winding,
/// halving, window and slack-window lemmas all rest on a bijection onto
/// the host). Every embedding of a larger cube with distances holding
/// `core` places such a sub-cube: the dimensions with those distances
/// span it, and a shift of the torus puts its node 0 on node 0. With the
/// formula come the domains its variables stand for.
///
/// Symmetry is broken by a lex-leader argument: of the transforms of a
/// placement f with f(0) = 0 — by a symmetry σ of the torus fixing node 0,
/// a permutation π of dimensions of equal distance, and a translation of
/// the cube recentred on node 0 ([`crate::optimal::proof::shape_clauses`]) — take the one
/// that is least label by label, f(1) first, then f(2), f(3), .. It has
/// * f(1) = f(e_0) the least of its orbit (the representatives cube node
///   1 may take);
/// * f(2) = f(e_1) the least of its orbit under the symmetries fixing
///   f(1) (else such a σ lowers f(2) and keeps labels 0 and 1): a clause
///   per f(1) whose stabilizer is not trivial;
/// * f(e_{i−1}) < f(e_i) where D_{i−1} = D_i (swapping the two dimensions
///   keeps every label below e_{i−1} and moves e_{i−1} to e_i);
/// * the lex-leader clauses of [`crate::optimal::proof::shape_clauses`], which a proof
///   cites as it needs them, each with its transform.
///
/// All are facts of one transform, so together they keep a placement
/// whenever there is one (the third took torus:32x32's (1,3,3,3,3) from
/// 9.42 s of the solver to 0.16 s). Unit vectors past e_1 are not held to
/// their stabilizers: label order puts e_0 ⊕ e_1 before e_2, and the
/// least transform lowers f(3) before f(4).
pub(in crate::optimal) fn core_formula(
    h: &SearchHost,
    core: &[u32],
    bipartite: bool,
) -> (Cnf, Domains) {
    let reps = representatives(h, core[0], None);
    let dom = domains(h, core, bipartite, &reps, None, None);
    let mut cnf = placements(h, core, &dom, false, Winding::Off);
    // Dimensions of equal distance in ascending order of their unit
    // vectors' images: f(e_i) < f(e_j) for i < j with D_i = D_j.
    for i in 1..core.len() {
        if core[i - 1] != core[i] {
            continue;
        }
        let (a, b) = (1usize << (i - 1), 1usize << i);
        for (k, &u) in dom.nodes[a].iter().enumerate() {
            for (l, &v) in dom.nodes[b].iter().enumerate() {
                if v <= u {
                    cnf.clauses
                        .push(vec![-(dom.first[a] + k as i32), -(dom.first[b] + l as i32)]);
                }
            }
        }
    }
    let all: Vec<usize> = (0..h.symmetries().len()).collect();
    least_under_stabilizers(
        h,
        core.len().min(2),
        &dom,
        (&mut Vec::new(), &all),
        &mut cnf,
    );
    (cnf, dom)
}

/// The clauses "f(e_h) is the least of its orbit under `stabilizer`, the
/// symmetries fixing the images `prefix` chose for e_0, .., e_{h−1}" for
/// h = |prefix| up to `k` − 1, down every prefix whose stabilizer moves a
/// node (the identity alone breaks nothing).
fn least_under_stabilizers(
    h: &SearchHost,
    k: usize,
    dom: &Domains,
    (prefix, stabilizer): (&mut Vec<i32>, &[usize]),
    cnf: &mut Cnf,
) {
    let level = prefix.len();
    let symmetries = h.symmetries();
    let moves = |g: usize| {
        symmetries[g]
            .iter()
            .enumerate()
            .any(|(v, &u)| v != u as usize)
    };
    if level == k || !stabilizer.iter().any(|&g| moves(g)) {
        return;
    }
    let unit = 1usize << level;
    for (index, &v) in dom.nodes[unit].iter().enumerate() {
        let lit = dom.first[unit] + index as i32;
        if stabilizer.iter().any(|&g| symmetries[g][v as usize] < v) {
            // Level 0's domain holds representatives only: nothing here.
            let mut clause: Vec<i32> = prefix.iter().map(|&p| -p).collect();
            clause.push(-lit);
            cnf.clauses.push(clause);
            continue;
        }
        let fixing: Vec<usize> = stabilizer
            .iter()
            .copied()
            .filter(|&g| symmetries[g][v as usize] == v)
            .collect();
        prefix.push(lit);
        least_under_stabilizers(h, k, dom, (prefix, &fixing), cnf);
        prefix.pop();
    }
}

/// The formula, with the nodes a `pin` pins in its window (and cube node
/// 1's orbits under the symmetries it allows).
fn formula_in(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    windings: Winding,
    halve: bool,
    pin: Option<Pin>,
) -> (Cnf, Domains) {
    let fold = folding(h, dims, windings, halve);
    let reps = representatives(h, dims[0], pin);
    let dom = domains(h, dims, bipartite, &reps, fold, pin);
    let cnf = placements(h, dims, &dom, true, windings);
    (cnf, dom)
}

/// The clauses over `dom`'s variables: every cube node at one place, every
/// host node taken at most once — and at least once when `onto` — and
/// every edge of dimension i `dims[i]` long (and close to its axes where
/// the winding lemma in `windings` binds it).
fn placements(h: &SearchHost, dims: &[u32], dom: &Domains, onto: bool, windings: Winding) -> Cnf {
    let n = dom.nodes.len();
    let fold = dom.fold;
    let mut cnf = Cnf {
        vars: (dom.first[n - 1] - 1) as u32 + dom.nodes[n - 1].len() as u32,
        clauses: Vec::new(),
    };
    // Every cube node somewhere (an empty domain gives the empty clause).
    for c in (0..n).filter(|&c| kept(fold, c)) {
        let clause = (0..dom.nodes[c].len() as i32)
            .map(|k| dom.first[c] + k)
            .collect();
        cnf.clauses.push(clause);
    }
    // Every cube node at one place only: implied by the rest (a bijection
    // by counting), but it lets unit propagation see it.
    for c in 0..n {
        let lits: Vec<i32> = (0..dom.nodes[c].len() as i32)
            .map(|k| dom.first[c] + k)
            .collect();
        at_most_one(&mut cnf, &lits);
    }
    // Every host node taken (onto), and by at most one cube node (with a
    // fold: every class modulo the fold's modulus along its axis, once).
    let mut takers: Vec<Vec<i32>> = vec![Vec::new(); h.nodes()];
    for c in 0..n {
        for (k, &v) in dom.nodes[c].iter().enumerate() {
            takers[class_of(h, fold, v) as usize].push(dom.first[c] + k as i32);
        }
    }
    for (v, lits) in takers.iter().enumerate() {
        if class_of(h, fold, v as u16) as usize != v {
            continue;
        }
        if onto {
            cnf.clauses.push(lits.clone());
        }
        at_most_one(&mut cnf, lits);
    }
    // Every edge of dimension i is D_i long (and close to its axes, if the
    // winding lemma binds it to some); a fold's own dimensions are its.
    let along = winding_axes(h.sides(), dims, windings);
    for (i, &r) in dims.iter().enumerate() {
        if fold.is_some_and(|f| f.folds(i)) {
            continue;
        }
        if r > u32::from(h.diameter()) {
            // No node is that far: no cube node can be placed.
            cnf.clauses.push(Vec::new());
            continue;
        }
        let sphere: Vec<u16> = h
            .sphere(r as u16)
            .iter()
            .copied()
            .filter(|&u| along[i].iter().all(|b| h.off_axis(u, b.axis) <= b.slack))
            .collect();
        for c in (0..n).filter(|&c| kept(fold, c)) {
            let other = c ^ (1 << i);
            for (k, &v) in dom.nodes[c].iter().enumerate() {
                let mut clause = vec![-(dom.first[c] + k as i32)];
                clause.extend(
                    sphere
                        .iter()
                        .filter_map(|&offset| dom.var(other, h.add(v, offset))),
                );
                cnf.clauses.push(clause);
            }
        }
    }
    cnf
}

/// At most one of `lits` true: Sinz's sequential counter (s_k: one of the
/// first k + 1 is true), 3n clauses and n − 1 new variables.
pub(in crate::optimal) fn at_most_one(cnf: &mut Cnf, lits: &[i32]) {
    if lits.len() < 2 {
        return;
    }
    let mut previous = cnf.fresh();
    cnf.clauses.push(vec![-lits[0], previous]);
    for (k, &lit) in lits.iter().enumerate().skip(1) {
        cnf.clauses.push(vec![-lit, -previous]);
        if k + 1 == lits.len() {
            break;
        }
        let s = cnf.fresh();
        cnf.clauses.push(vec![-lit, s]);
        cnf.clauses.push(vec![-previous, s]);
        previous = s;
    }
}

/// What the solver answered for one distance vector.
pub enum Answer {
    /// An embedding: the host node of every cube node.
    Embedding(Vec<u16>),
    /// No embedding; the binary DRAT proof was written where asked.
    Unsatisfiable {
        /// Variables of the formula.
        variables: u32,
        /// Clauses of the formula.
        clauses: usize,
    },
    /// Stopped before an answer (see [`crate::optimal::run::interrupt`]).
    Stopped,
}

/// What varisat said of a formula.
#[derive(Debug)]
pub(in crate::optimal) enum Solved {
    /// A model: the value of every variable, indexed from 1.
    Model(Vec<bool>),
    /// No model; the proof went where it was asked to.
    Unsatisfiable,
    /// The proof target was a [`Stoppable`](crate::optimal::run::interrupt::Stoppable)
    /// and its flag was set or its byte budget spent: nothing was decided.
    Stopped,
}

/// Decides `cnf` with varisat; when `proof` is given an UNSAT answer's
/// binary DRAT proof is written to it (a
/// [`Stoppable`](crate::optimal::run::interrupt::Stoppable) proof target can stop the
/// solve).
pub(in crate::optimal) fn solve(
    cnf: &Cnf,
    proof: Option<&mut dyn Write>,
) -> std::result::Result<Solved, String> {
    use varisat::solver::SolverError;
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    if let Some(out) = proof {
        solver.write_proof(out, varisat::ProofFormat::BinaryDrat);
    }
    let lit = |x: i32| varisat::Lit::from_dimacs(x as isize);
    for _ in 0..cnf.vars {
        solver.new_var();
    }
    for clause in &cnf.clauses {
        let lits: Vec<varisat::Lit> = clause.iter().map(|&x| lit(x)).collect();
        solver.add_clause(&lits);
    }
    // A stop can come during the solve or after it, while the proof is
    // closed (its last flush): either way the proof is cut short and
    // nothing is decided.
    let stopped = |e: &SolverError| match e {
        SolverError::ProofIoError { cause } => crate::optimal::run::interrupt::is_stop(cause),
        _ => false,
    };
    let sat = match solver.solve() {
        Ok(sat) => sat,
        Err(e) if stopped(&e) => return Ok(Solved::Stopped),
        Err(e) => return Err(e.to_string()),
    };
    match solver.close_proof() {
        Ok(()) => {}
        Err(e) if stopped(&e) => return Ok(Solved::Stopped),
        Err(e) => return Err(e.to_string()),
    }
    if !sat {
        return Ok(Solved::Unsatisfiable);
    }
    let model = solver.model().unwrap_or_default();
    let mut values = vec![false; cnf.vars as usize + 1];
    for l in model {
        let x = l.to_dimacs();
        if x > 0 {
            values[x as usize] = true;
        }
    }
    Ok(Solved::Model(values))
}

/// Decides whether an embedding with distances `dims` exists on `h`; an
/// UNSAT answer's DRAT proof goes to `proof` when given.
#[cfg(test)]
pub(in crate::optimal) fn decide(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    windings: Winding,
    halve: bool,
    proof: Option<&mut dyn Write>,
) -> std::result::Result<Answer, String> {
    decide_in(h, dims, bipartite, (windings, halve, None), proof)
}

/// The formula of the slack window ([`crate::optimal::bounds::pin`]) for `dims` on `h`,
/// if the lemma applies (lifted windings, not folded). The checker
/// regenerates a refutation marked `pinned` with this.
pub(in crate::optimal) fn encode_pinned(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
) -> Option<Cnf> {
    let pin = crate::optimal::bounds::pin::pin(h.sides(), dims)?;
    Some(formula_in(h, dims, bipartite, Winding::Lifted, false, Some(pin)).0)
}

/// Decides `dims` as [`decide`] does, the formula's form given by
/// `(windings, halve, pin)`.
pub(in crate::optimal) fn decide_in(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    (windings, halve, pin): (Winding, bool, Option<Pin>),
    proof: Option<&mut dyn Write>,
) -> std::result::Result<Answer, String> {
    let (cnf, dom) = formula_in(h, dims, bipartite, windings, halve, pin);
    match solve(&cnf, proof)? {
        Solved::Stopped => Ok(Answer::Stopped),
        Solved::Unsatisfiable => Ok(Answer::Unsatisfiable {
            variables: cnf.vars,
            clauses: cnf.clauses.len(),
        }),
        Solved::Model(values) => {
            let mut place: Vec<u16> = (0..h.nodes())
                .map(|c| {
                    (0..dom.nodes[c].len())
                        .find(|&k| values[(dom.first[c] + k as i32) as usize])
                        .map_or(0, |k| dom.nodes[c][k])
                })
                .collect();
            if let Some(f) = dom.fold {
                f.unfold(h, &mut place);
            }
            if !is_embedding(h, dims, &place) {
                return Err(format!("the model for {dims:?} is not an embedding"));
            }
            Ok(Answer::Embedding(place))
        }
    }
}

/// Whether `place` is a bijection onto the host with every edge of
/// dimension i `dims[i]` long.
pub(in crate::optimal) fn is_embedding(h: &SearchHost, dims: &[u32], place: &[u16]) -> bool {
    let mut seen = vec![false; h.nodes()];
    place.len() == h.nodes()
        && place
            .iter()
            .all(|&v| !std::mem::replace(&mut seen[v as usize], true))
        && (0..place.len()).all(|c| {
            (0..dims.len()).all(|i| u32::from(h.d(place[c], place[c ^ (1 << i)])) == dims[i])
        })
}

/// Every ascending vector of `k` distances from 1 to `top`, in
/// lexicographic order (the tests' sub-cubes).
#[cfg(test)]
pub(in crate::optimal) fn ascending_vectors(k: usize, top: u32) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    let mut dims = vec![1u32; k];
    loop {
        all.push(dims.clone());
        let Some(j) = (0..k).rev().find(|&j| dims[j] < top) else {
            return all;
        };
        let value = dims[j] + 1;
        dims[j..].fill(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over every one-to-one placement with f(0) = 0 of the
    /// cube of `dims` (the whole host's: a bijection): is there one with
    /// these constant distances?
    fn exists(h: &SearchHost, dims: &[u32]) -> bool {
        fn go(h: &SearchHost, dims: &[u32], place: &mut Vec<u16>, used: &mut [bool]) -> bool {
            let c = place.len();
            if c == 1 << dims.len() {
                return true;
            }
            for v in 0..h.nodes() as u16 {
                let fits = !used[v as usize]
                    && (0..dims.len()).all(|i| {
                        c >> i & 1 == 0 || u32::from(h.d(v, place[c ^ (1 << i)])) == dims[i]
                    });
                if fits {
                    used[v as usize] = true;
                    place.push(v);
                    if go(h, dims, place, used) {
                        return true;
                    }
                    place.pop();
                    used[v as usize] = false;
                }
            }
            false
        }
        let mut used = vec![false; h.nodes()];
        used[0] = true;
        go(h, dims, &mut vec![0], &mut used)
    }

    #[test]
    fn the_solver_agrees_with_brute_force_and_its_embeddings_hold() {
        for sides in [vec![8u32], vec![4, 2], vec![4, 4], vec![2, 2, 2], vec![16]] {
            let h = SearchHost::new(&sides);
            let d = h.nodes().trailing_zeros() as usize;
            // Every ascending vector with entries up to the diameter.
            let mut dims = vec![1u32; d];
            loop {
                let expected = exists(&h, &dims);
                match decide(&h, &dims, true, Winding::Off, false, None).unwrap() {
                    Answer::Embedding(place) => {
                        assert!(
                            expected,
                            "{sides:?} {dims:?}: found one brute force did not"
                        );
                        let mut seen = vec![false; h.nodes()];
                        for (c, &v) in place.iter().enumerate() {
                            assert!(!seen[v as usize]);
                            seen[v as usize] = true;
                            for (i, &r) in dims.iter().enumerate() {
                                assert_eq!(u32::from(h.d(v, place[c ^ (1 << i)])), r);
                            }
                        }
                    }
                    Answer::Unsatisfiable { .. } => assert!(!expected, "{sides:?} {dims:?}"),
                    Answer::Stopped => panic!("{sides:?} {dims:?}: stopped without a stop flag"),
                }
                // Next ascending vector.
                let top = u32::from(h.diameter());
                let Some(k) = (0..d).rev().find(|&k| dims[k] < top) else {
                    break;
                };
                let value = dims[k] + 1;
                dims[k..].fill(value);
            }
        }
    }

    #[test]
    fn the_core_formula_agrees_with_brute_force_and_its_proofs_check() {
        // Every ascending vector of 2..=4 distances up to the diameter, on
        // tori where some sub-cubes embed nowhere and some do (the equal
        // distances' ordering clauses must keep one of each placement).
        let (mut placed, mut refuted) = (0, 0);
        for sides in [vec![8u32], vec![16], vec![4, 4], vec![8, 4], vec![4, 2, 2]] {
            let h = SearchHost::new(&sides);
            let d = h.nodes().trailing_zeros() as usize;
            let top = u32::from(h.diameter());
            for k in 2..=d.min(4) {
                for dims in ascending_vectors(k, top) {
                    let expected = exists(&h, &dims);
                    let (cnf, _) = core_formula(&h, &dims, true);
                    let mut proof = Vec::new();
                    match solve(&cnf, Some(&mut proof)).unwrap() {
                        Solved::Model(_) => {
                            assert!(expected, "{sides:?} {dims:?}: placed, brute force did not");
                            placed += 1;
                        }
                        Solved::Unsatisfiable => {
                            assert!(
                                !expected,
                                "{sides:?} {dims:?}: refuted, brute force placed it"
                            );
                            assert!(crate::optimal::proof::drat::check(&cnf, &proof).is_ok());
                            refuted += 1;
                        }
                        Solved::Stopped => panic!("stopped without a flag"),
                    }
                }
            }
        }
        assert!(placed > 0 && refuted > 0, "{placed} {refuted}");
        // A whole cube's distances as a core: the one-to-one formula of
        // torus:4x4's optimum (1, 1, 1, 1) places it, with no
        // requirement that every host node be taken.
        let h = SearchHost::new(&[4, 4]);
        assert!(matches!(
            solve(&core_formula(&h, &[1, 1, 1, 1], true).0, None).unwrap(),
            Solved::Model(_)
        ));
    }

    #[test]
    fn the_slack_window_pins_half_the_cube() {
        // torus:64x16, 16 + 17 with slack 2: the half with bit 9 = 0 sits
        // in columns 0..=33 (W = 39 − (8 − 2)); node 1 (distance 1) on one
        // node per orbit of the reflection of the 16-cycle only, in the
        // window: (1, 0) and (0, 1).
        let h = SearchHost::new(&[64, 16]);
        let dims = [1, 1, 2, 2, 2, 3, 4, 8, 16, 17];
        let pin = crate::optimal::bounds::pin::pin(h.sides(), &dims).unwrap();
        assert_eq!((pin.axis, pin.drop, pin.width), (0, 9, 33));
        assert_eq!(representatives(&h, 1, Some(pin)), vec![1, 64]);
        let pinned = encode_pinned(&h, &dims, true).unwrap();
        let free = encode(&h, &dims, true, Winding::Lifted, false);
        // Fewer variables (909 226 against 1 104 418, measured).
        assert!(pinned.vars < free.vars, "{} {}", pinned.vars, free.vars);
        // Folded vectors (slack 0) and unbound ones are not pinned.
        assert!(encode_pinned(&h, &[1, 1, 2, 2, 2, 3, 4, 8, 16, 16], true).is_none());
        assert!(encode_pinned(&h, &[1, 1, 2, 2, 2, 3, 4, 8, 8, 8], true).is_none());
        // Column 33 is in the window, column 34 not, nor column 63 (−1).
        assert!(pin.admits(&h, 33) && !pin.admits(&h, 34) && !pin.admits(&h, 63));
    }

    #[test]
    fn a_dimension_bound_to_two_axes_with_too_little_slack_has_no_embedding() {
        // torus:16x16, D = (1, 2, 2, 2, 2, 2, 4, 5): Σ = 20 is below the
        // lift lemma's 15 + 8 on both axes and only 4 + 5 reaches 16/2, with
        // slack 2, on both: an edge of dimension 7 moves at least 5 − 2
        // along each axis, 6 > 5. In the lifted formula no placement of a
        // node has a neighbour of dimension 7 (unit clauses ¬x(c, v)), so
        // unit propagation refutes it (the solver's proof is 3 KB); that
        // proof does not hold for the formula of the first form, which binds
        // nothing here.
        let h = SearchHost::new(&[16, 16]);
        let dims = [1, 2, 2, 2, 2, 2, 4, 5];
        let lifted = encode(&h, &dims, true, Winding::Lifted, false);
        let tight = encode(&h, &dims, true, Winding::Tight, false);
        let units = |f: &Cnf| f.clauses.iter().filter(|c| c.len() == 1).count();
        assert!(units(&lifted) > units(&tight) + h.nodes());
        let mut proof = Vec::new();
        let answer = decide(&h, &dims, true, Winding::Lifted, false, Some(&mut proof)).unwrap();
        assert!(matches!(answer, Answer::Unsatisfiable { .. }));
        assert!(crate::optimal::proof::drat::check(&lifted, &proof).is_ok());
        assert!(crate::optimal::proof::drat::check(&tight, &proof).is_err());
    }

    /// n + 1 pigeons in n holes, p(i, j) = n·i + j + 1: unsatisfiable, and
    /// clause learning needs exponentially many conflicts to see it.
    fn pigeonhole(n: i32) -> Cnf {
        let p = |i: i32, j: i32| n * i + j + 1;
        let mut cnf = Cnf {
            vars: ((n + 1) * n) as u32,
            clauses: (0..=n).map(|i| (0..n).map(|j| p(i, j)).collect()).collect(),
        };
        for j in 0..n {
            for a in 0..=n {
                for b in a + 1..=n {
                    cnf.clauses.push(vec![-p(a, j), -p(b, j)]);
                }
            }
        }
        cnf
    }

    #[test]
    fn a_set_stop_flag_ends_a_solve_and_an_unset_one_changes_nothing() {
        use crate::optimal::run::interrupt::Stoppable;
        use std::sync::atomic::AtomicBool;
        let hard = pigeonhole(8);
        let stop = AtomicBool::new(true);
        let stopped = solve(&hard, Some(&mut Stoppable::new(None, Some(&stop), None))).unwrap();
        assert!(matches!(stopped, Solved::Stopped));
        // Unset, the flag passes the same proof on and the answer stands.
        let small = pigeonhole(4);
        let (mut plain, mut passed) = (Vec::new(), Vec::new());
        let alone = solve(&small, Some(&mut plain)).unwrap();
        let stop = AtomicBool::new(false);
        let kept = solve(
            &small,
            Some(&mut Stoppable::new(Some(&mut passed), Some(&stop), None)),
        )
        .unwrap();
        assert!(matches!(alone, Solved::Unsatisfiable));
        assert!(matches!(kept, Solved::Unsatisfiable));
        assert_eq!(plain, passed);
        assert!(crate::optimal::proof::drat::check(&small, &passed).is_ok());
        // Discarded, it still lets a satisfiable formula find its model.
        let mut easy = pigeonhole(4);
        easy.clauses.remove(0);
        let model = solve(&easy, Some(&mut Stoppable::new(None, Some(&stop), None))).unwrap();
        assert!(matches!(model, Solved::Model(_)));
    }

    /// A stop that comes after the solve has its answer, while the proof is
    /// being closed (the flag set between the solve's own flush and the
    /// closing one), is a stop, not a failed solver: the search keeps what it
    /// decided. (Once a flaky `cargo test`: the certificate run stopped by
    /// its flag while a proof was closed returned "the SAT solver failed".)
    #[test]
    fn a_stop_while_the_proof_is_closed_is_a_stop() {
        use crate::optimal::run::interrupt::StopRequested;
        /// Takes every step; refuses the flush numbered `refuse` (from 1) as
        /// a flag set just then would.
        struct Flushes {
            count: usize,
            refuse: usize,
        }
        impl Write for Flushes {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                self.count += 1;
                match self.count == self.refuse {
                    true => Err(std::io::Error::other(StopRequested)),
                    false => Ok(()),
                }
            }
        }
        let cnf = pigeonhole(4);
        let mut counted = Flushes {
            count: 0,
            refuse: 0,
        };
        assert!(matches!(
            solve(&cnf, Some(&mut counted)),
            Ok(Solved::Unsatisfiable)
        ));
        assert!(counted.count >= 2, "the solve and the close flush");
        // The last flush is the closing one; every earlier one is the solve's.
        for refuse in 1..=counted.count {
            let mut out = Flushes { count: 0, refuse };
            let answer = solve(&cnf, Some(&mut out));
            assert!(
                matches!(answer, Ok(Solved::Stopped)),
                "flush {refuse}: {answer:?}"
            );
        }
    }
}
