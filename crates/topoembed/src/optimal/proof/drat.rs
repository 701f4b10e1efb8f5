//! A DRUP checker for binary DRAT proofs: it shares no code with the solver
//! that wrote them. Forward checking: every added clause (lemma) must be a
//! reverse-unit-propagation consequence of the formula and the lemmas
//! before it (assign its literals false, unit-propagate, reach a conflict);
//! the proof is accepted once the clauses derived so far propagate to a
//! conflict with nothing assigned — the formula is unsatisfiable.
//!
//! Deletions are honoured lazily and never for a clause that is the reason
//! of a top-level assignment (as drat-trim ignores unit deletions); keeping
//! an implied clause can only make a check easier, never unsound. RAT
//! lemmas (which need more than unit propagation) are rejected: the solver
//! used here (varisat) does not write them.
//!
//! Propagation is MiniSat's two watched literals with blocking literals,
//! over clauses stored end to end in one array: 1.45x faster and 30% less
//! memory than a vector per clause (torus:32x8x2's 105 MB of proofs checked
//! in 32 s instead of 47 s, under load).
//!
//! Binary DRAT: a step is `a` (0x61, add) or `d` (0x64, delete), then each
//! literal as the LEB128 varint of 2·|x| + (x < 0), then 0.

use std::collections::HashMap;

use crate::optimal::proof::sat::Cnf;

/// What a checked proof showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Lemmas checked before the conflict.
    pub lemmas: u64,
    /// Deletions read.
    pub deletions: u64,
}

/// A literal's index in the watch and value arrays: 2·var + negative.
fn code(lit: i32) -> usize {
    2 * lit.unsigned_abs() as usize + usize::from(lit < 0)
}

/// The value of `lit` under `value` (1 true, -1 false, 0 unassigned).
fn truth(value: &[i8], lit: i32) -> i8 {
    let v = value[lit.unsigned_abs() as usize];
    if lit < 0 {
        -v
    } else {
        v
    }
}

/// A hash of a clause's sorted literals, to find it again for a deletion.
fn key(sorted: &[i32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    sorted.hash(&mut h);
    h.finish()
}

/// A watch: the clause, and a literal of it (the *blocker*) whose being
/// true makes a visit unnecessary (MiniSat's blocking literals)..
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: i32,
}

struct Checker {
    /// Every clause's literals, one after another (one allocation: the
    /// propagation loop reads them without chasing a pointer per clause).
    literals: Vec<i32>,
    /// Clause i is `literals[start[i]..start[i + 1]]`.
    start: Vec<usize>,
    deleted: Vec<bool>,
    /// Clause indices by the hash of their sorted literals (deletions
    /// compare the literals themselves).
    by_key: HashMap<u64, Vec<u32>>,
    /// `watches[code(l)]`: clauses watching literal l (their first two).
    watches: Vec<Vec<Watch>>,
    /// 1 true, -1 false, 0 unassigned, by code of the positive literal.
    value: Vec<i8>,
    trail: Vec<i32>,
    /// Clauses that are reasons of top-level assignments: never deleted.
    locked: Vec<bool>,
    /// The top level reached a conflict: the formula is refuted.
    refuted: bool,
    /// False while a lemma is checked (its assignments are undone after).
    at_top: bool,
}

impl Checker {
    fn new(vars: u32) -> Checker {
        let size = 2 * (vars as usize + 1);
        Checker {
            literals: Vec::new(),
            start: vec![0],
            deleted: Vec::new(),
            by_key: HashMap::new(),
            watches: vec![Vec::new(); size],
            value: vec![0; size / 2],
            trail: Vec::new(),
            locked: Vec::new(),
            refuted: false,
            at_top: true,
        }
    }

    fn grow(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        if var >= self.value.len() {
            self.value.resize(var + 1, 0);
            self.watches.resize(2 * (var + 1), Vec::new());
        }
    }

    fn truth(&self, lit: i32) -> i8 {
        truth(&self.value, lit)
    }

    fn clause(&self, id: usize) -> &[i32] {
        &self.literals[self.start[id]..self.start[id + 1]]
    }

    fn assign(&mut self, lit: i32) {
        self.value[lit.unsigned_abs() as usize] = if lit < 0 { -1 } else { 1 };
        self.trail.push(lit);
    }

    /// Adds a clause (of the formula or a checked lemma) and propagates at
    /// the top level.
    fn add(&mut self, mut lits: Vec<i32>) {
        lits.sort_unstable();
        lits.dedup();
        for &l in &lits {
            self.grow(l);
        }
        if lits.windows(2).any(|w| w[0] == -w[1]) || lits.iter().any(|&l| self.truth(l) == 1) {
            // A tautology, or satisfied at the top level for good.
            return;
        }
        let id = self.deleted.len();
        self.by_key.entry(key(&lits)).or_default().push(id as u32);
        // Unassigned literals first, so the watches are sound.
        let mut ordered = lits;
        ordered.sort_by_key(|&l| self.truth(l) != 0);
        let free = ordered.iter().filter(|&&l| self.truth(l) == 0).count();
        self.literals.extend_from_slice(&ordered);
        self.start.push(self.literals.len());
        self.deleted.push(false);
        self.locked.push(false);
        match free {
            0 => self.refuted = true,
            1 => {
                self.locked[id] = true;
                self.assign(ordered[0]);
                if self.propagate(self.trail.len() - 1).is_some() {
                    self.refuted = true;
                }
            }
            _ => {
                let (a, b) = (ordered[0], ordered[1]);
                self.watches[code(a)].push(Watch {
                    clause: id as u32,
                    blocker: b,
                });
                self.watches[code(b)].push(Watch {
                    clause: id as u32,
                    blocker: a,
                });
            }
        }
    }

    /// Unit propagation from trail position `from`; the conflicting clause
    /// if one is reached. Reasons found at the top level are locked.
    fn propagate(&mut self, mut from: usize) -> Option<usize> {
        while from < self.trail.len() {
            let falsified = -self.trail[from];
            from += 1;
            let mut watching = std::mem::take(&mut self.watches[code(falsified)]);
            let mut k = 0;
            let mut conflict = None;
            while k < watching.len() {
                let Watch {
                    clause: id,
                    blocker,
                } = watching[k];
                if truth(&self.value, blocker) == 1 {
                    k += 1;
                    continue;
                }
                let id = id as usize;
                if self.deleted[id] {
                    watching.swap_remove(k);
                    continue;
                }
                let clause = &mut self.literals[self.start[id]..self.start[id + 1]];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let other = clause[0];
                let other_value = truth(&self.value, other);
                if other_value == 1 {
                    watching[k].blocker = other;
                    k += 1;
                    continue;
                }
                // Look for a new literal to watch.
                if let Some(j) = (2..clause.len()).find(|&j| truth(&self.value, clause[j]) != -1) {
                    clause.swap(1, j);
                    self.watches[code(clause[1])].push(Watch {
                        clause: id as u32,
                        blocker: other,
                    });
                    watching.swap_remove(k);
                    continue;
                }
                if other_value == -1 {
                    conflict = Some(id);
                    break;
                }
                if self.at_top {
                    self.locked[id] = true;
                }
                self.assign(other);
                k += 1;
            }
            self.watches[code(falsified)].extend(watching);
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }
}

impl Checker {
    /// Whether `lemma` follows by unit propagation (RUP).
    fn implied(&mut self, lemma: &[i32]) -> bool {
        if self.refuted {
            return true;
        }
        for &l in lemma {
            self.grow(l);
        }
        let mark = self.trail.len();
        self.at_top = false;
        let mut implied = false;
        for &l in lemma {
            match self.truth(l) {
                1 => {
                    implied = true;
                    break;
                }
                0 => self.assign(-l),
                _ => {}
            }
        }
        if !implied {
            implied = self.propagate(mark).is_some();
        }
        for &l in &self.trail[mark..] {
            self.value[l.unsigned_abs() as usize] = 0;
        }
        self.trail.truncate(mark);
        self.at_top = true;
        implied
    }

    /// Assumes `lit` at a new level and propagates: true at a conflict.
    fn assume(&mut self, lit: i32) -> bool {
        match self.truth(lit) {
            1 => false,
            -1 => true,
            _ => {
                self.assign(lit);
                self.propagate(self.trail.len() - 1).is_some()
            }
        }
    }

    /// Undoes every level past the first `level` (their assumptions and
    /// what they propagated), and the conflict if it was found above.
    fn backtrack(
        &mut self,
        level: usize,
        (assumed, marks): (&mut Vec<i32>, &mut Vec<usize>),
        conflict_at: &mut Option<usize>,
    ) {
        if *conflict_at > Some(level) {
            *conflict_at = None;
        }
        if let Some(&mark) = marks.get(level) {
            for &l in &self.trail[mark..] {
                self.value[l.unsigned_abs() as usize] = 0;
            }
            self.trail.truncate(mark);
            assumed.truncate(level);
            marks.truncate(level);
        }
    }

    /// Where in `by_key`'s list for `hash` a clause with the `sorted`
    /// literals is, skipping locked ones.
    fn find(&self, hash: u64, sorted: &[i32]) -> Option<usize> {
        let same = |id: usize| {
            let mut c = self.clause(id).to_vec();
            c.sort_unstable();
            c == sorted
        };
        self.by_key
            .get(&hash)?
            .iter()
            .position(|&id| !self.locked[id as usize] && same(id as usize))
    }

    fn delete(&mut self, mut lits: Vec<i32>) {
        lits.sort_unstable();
        lits.dedup();
        let hash = key(&lits);
        if let Some(k) = self.find(hash, &lits) {
            let ids = self.by_key.get_mut(&hash).expect("found above");
            let id = ids.swap_remove(k) as usize;
            self.deleted[id] = true;
        }
    }
}

/// Reads one LEB128 varint literal; None at the end of the input.
fn literal(bytes: &[u8], at: &mut usize) -> Result<i32, String> {
    let (mut value, mut shift) = (0u64, 0u32);
    loop {
        let Some(&b) = bytes.get(*at) else {
            return Err(format!("byte {at}: the proof ends inside a clause"));
        };
        *at += 1;
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
        if shift > 35 {
            return Err(format!("byte {at}: a literal longer than 32 bits"));
        }
    }
    let var = i32::try_from(value >> 1).map_err(|_| format!("byte {at}: variable too large"))?;
    Ok(if value & 1 == 1 { -var } else { var })
}

/// Writes one binary DRAT step: `b'a'` (add) or `b'd'` (delete), then
/// `lits` and the closing 0.
pub(in crate::optimal) fn write_step(
    out: &mut (impl std::io::Write + ?Sized),
    step: u8,
    lits: &[i32],
) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(2 + 3 * lits.len());
    bytes.push(step);
    for &l in lits.iter().chain(std::iter::once(&0)) {
        let mut x = 2 * u64::from(l.unsigned_abs()) + u64::from(l < 0);
        loop {
            let b = (x & 0x7f) as u8;
            x >>= 7;
            if x == 0 {
                bytes.push(b);
                break;
            }
            bytes.push(b | 0x80);
        }
    }
    out.write_all(&bytes)
}

/// Checks a binary DRAT `proof` of the unsatisfiability of `cnf`: by
/// [`replay`] when the proof is a search tree's, else forward, lemma by
/// lemma.
pub fn check(cnf: &Cnf, proof: &[u8]) -> Result<Checked, String> {
    match replay(cnf, proof)? {
        Some(checked) => Ok(checked),
        None => check_forward(cnf, proof),
    }
}

/// Reads the proof's next step: its tag and its literals.
fn next_step(proof: &[u8], at: &mut usize) -> Result<(u8, Vec<i32>), String> {
    let step = proof[*at];
    *at += 1;
    let mut lits = Vec::new();
    loop {
        match literal(proof, at)? {
            0 => break,
            l => lits.push(l),
        }
    }
    Ok((step, lits))
}

/// Checks a proof written by a search as it backtracks (such as
/// [`crate::optimal::search::core_search`]'s), in the time the search took rather than a
/// full propagation per lemma: each lemma ¬(a_1 ∧ .. ∧ a_m) is checked with
/// a_1, .., a_m assumed one per level, the levels it shares with the
/// lemma before kept, and once it holds, ¬a_m is assumed at level m − 1
/// (the lemma is unit there) for the lemmas that follow. Only the
/// formula's clauses propagate; a lemma is used only as such a unit, under
/// the very assumptions it was checked with, so every lemma accepted
/// follows by unit propagation from the formula and the lemmas before it,
/// and a conflict with nothing assumed refutes the formula. Deletions of
/// lemmas are read and ignored (keeping an implied clause is sound), also
/// of a lemma that repeats a clause of the formula, as many times as it was
/// added (a search writes a lex-leader clause it hit as its lemma). `None`
/// when the proof deletes a clause of the formula, when a lemma does not
/// follow this way — a solver's proof, which uses lemmas as
/// clauses — or the proof ends first: the forward check then decides.
pub(in crate::optimal) fn replay(cnf: &Cnf, proof: &[u8]) -> Result<Option<Checked>, String> {
    let mut checker = Checker::new(cnf.vars);
    for clause in &cnf.clauses {
        checker.add(clause.clone());
        if checker.refuted {
            return Ok(Some(Checked {
                lemmas: 0,
                deletions: 0,
            }));
        }
    }
    checker.at_top = false;
    // The literal assumed at each level, and the trail's length before it.
    let (mut assumed, mut marks): (Vec<i32>, Vec<usize>) = (Vec::new(), Vec::new());
    // The number of levels whose assumptions propagate to a conflict.
    let mut conflict_at: Option<usize> = None;
    let (mut at, mut lemmas, mut deletions) = (0usize, 0u64, 0u64);
    // Lemmas that repeat a clause of the formula, and how many times.
    let mut repeats: std::collections::HashMap<Vec<i32>, u32> = Default::default();
    let sorted = |lits: &[i32]| {
        let mut sorted = lits.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        sorted
    };
    while at < proof.len() {
        let (step, lits) = next_step(proof, &mut at)?;
        match step {
            b'd' => {
                // A clause of the formula deleted: the forward check honours
                // that, so it decides. A lemma repeating one is not that.
                let sorted = sorted(&lits);
                match repeats.get_mut(&sorted) {
                    Some(count) if *count > 0 => *count -= 1,
                    _ if checker.find(key(&sorted), &sorted).is_some() => return Ok(None),
                    _ => {}
                }
                deletions += 1;
            }
            b'a' => {
                lemmas += 1;
                let sorted = sorted(&lits);
                if checker.find(key(&sorted), &sorted).is_some() {
                    *repeats.entry(sorted).or_default() += 1;
                }
                lits.iter().for_each(|&l| checker.grow(l));
                let wanted: Vec<i32> = lits.iter().map(|&l| -l).collect();
                let shared = assumed
                    .iter()
                    .zip(&wanted)
                    .take_while(|(a, b)| a == b)
                    .count();
                checker.backtrack(shared, (&mut assumed, &mut marks), &mut conflict_at);
                for &a in &wanted[shared..] {
                    if conflict_at.is_some() {
                        break;
                    }
                    marks.push(checker.trail.len());
                    assumed.push(a);
                    if checker.assume(a) {
                        conflict_at = Some(assumed.len());
                    }
                }
                if conflict_at.is_none() {
                    return Ok(None);
                }
                let Some(&last) = lits.last() else {
                    // The empty clause, with nothing assumed.
                    return Ok(Some(Checked { lemmas, deletions }));
                };
                let level = lits.len() - 1;
                checker.backtrack(level, (&mut assumed, &mut marks), &mut conflict_at);
                if conflict_at.is_none() && checker.assume(last) {
                    conflict_at = Some(level);
                }
                if conflict_at == Some(0) {
                    return Ok(Some(Checked { lemmas, deletions }));
                }
            }
            other => {
                return Err(format!(
                    "byte {}: step {other:#x} is neither `a` nor `d`",
                    at - 1
                ))
            }
        }
    }
    Ok(None)
}

/// Checks a binary DRAT `proof` of the unsatisfiability of `cnf` forward:
/// every lemma by unit propagation from scratch.
pub(in crate::optimal) fn check_forward(cnf: &Cnf, proof: &[u8]) -> Result<Checked, String> {
    let mut checker = Checker::new(cnf.vars);
    for clause in &cnf.clauses {
        checker.add(clause.clone());
        if checker.refuted {
            return Ok(Checked {
                lemmas: 0,
                deletions: 0,
            });
        }
    }
    let (mut at, mut lemmas, mut deletions) = (0usize, 0u64, 0u64);
    while at < proof.len() {
        let (step, lits) = next_step(proof, &mut at)?;
        match step {
            b'a' => {
                lemmas += 1;
                if !checker.implied(&lits) {
                    return Err(format!(
                        "lemma {lemmas} ({lits:?}) does not follow by unit propagation"
                    ));
                }
                checker.add(lits);
                if checker.refuted {
                    return Ok(Checked { lemmas, deletions });
                }
            }
            b'd' => {
                deletions += 1;
                checker.delete(lits);
            }
            other => {
                return Err(format!(
                    "byte {}: step {other:#x} is neither `a` nor `d`",
                    at - 1
                ))
            }
        }
    }
    Err(format!(
        "the proof ends after {lemmas} lemmas without reaching a conflict"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binary(steps: &[(u8, &[i32])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (step, lits) in steps {
            write_step(&mut out, *step, lits).unwrap();
        }
        out
    }

    /// (x ∨ y)(x ∨ ¬y)(¬x ∨ y)(¬x ∨ ¬y): refuted by the lemma x.
    fn four() -> Cnf {
        Cnf {
            vars: 2,
            clauses: vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]],
        }
    }

    #[test]
    fn a_right_proof_passes_and_wrong_ones_fail() {
        assert_eq!(
            check(&four(), &binary(&[(b'a', &[1]), (b'a', &[])]))
                .unwrap()
                .lemmas,
            1
        );
        // The lemma x alone already propagates to a conflict.
        assert!(check(&four(), &binary(&[(b'a', &[1])])).is_ok());
        // Nothing derived.
        assert!(check(&four(), &binary(&[]))
            .unwrap_err()
            .contains("without"));
        // A lemma that does not follow: (x ∨ y) ∧ (¬x ∨ y) does not give ¬y.
        let weak = Cnf {
            vars: 2,
            clauses: vec![vec![1, 2], vec![-1, 2]],
        };
        assert!(check(&weak, &binary(&[(b'a', &[-2])]))
            .unwrap_err()
            .contains("lemma 1"));
        // Deleting the clauses the proof needs makes it fail.
        let gutted = binary(&[(b'd', &[1, 2]), (b'd', &[1, -2]), (b'a', &[1])]);
        assert!(check(&four(), &gutted).is_err());
        // Garbage.
        assert!(check(&four(), b"x\x00").is_err());
        assert!(check(&four(), &[b'a', 0x80]).is_err());
    }

    /// A lemma that repeats a clause of the formula may be deleted as often
    /// as it was added without sending the replay to the forward check; a
    /// deletion beyond that is the formula's clause, and sends it there.
    #[test]
    fn the_replay_tells_a_repeated_lemma_from_the_formula_clause() {
        let repeated = binary(&[(b'a', &[1, 2]), (b'd', &[2, 1]), (b'a', &[1]), (b'a', &[])]);
        assert!(matches!(replay(&four(), &repeated), Ok(Some(_))));
        let deleted = binary(&[
            (b'a', &[1, 2]),
            (b'd', &[1, 2]),
            (b'd', &[1, 2]),
            (b'a', &[1]),
            (b'a', &[]),
        ]);
        assert!(matches!(replay(&four(), &deleted), Ok(None)));
        // Forward, the second deletion takes the formula's (x ∨ y), and the
        // lemma x no longer follows; the first alone leaves the proof whole.
        assert!(check(&four(), &deleted).is_err());
        assert!(check(&four(), &repeated).is_ok());
    }

    #[test]
    fn varisat_proofs_of_pigeonholes_check() {
        use varisat::ExtendFormula;
        // 4 pigeons, 3 holes: p(i, j) = 3i + j + 1.
        let mut cnf = Cnf {
            vars: 12,
            ..Cnf::default()
        };
        for i in 0..4 {
            cnf.clauses.push((0..3).map(|j| 3 * i + j + 1).collect());
        }
        for j in 0..3 {
            for a in 0..4 {
                for b in a + 1..4 {
                    cnf.clauses.push(vec![-(3 * a + j + 1), -(3 * b + j + 1)]);
                }
            }
        }
        let mut proof = Vec::new();
        {
            let mut solver = varisat::Solver::new();
            solver.write_proof(&mut proof, varisat::ProofFormat::BinaryDrat);
            for c in &cnf.clauses {
                let lits: Vec<_> = c
                    .iter()
                    .map(|&x| varisat::Lit::from_dimacs(x as isize))
                    .collect();
                solver.add_clause(&lits);
            }
            assert!(!solver.solve().unwrap());
            solver.close_proof().unwrap();
        }
        assert!(check(&cnf, &proof).is_ok());
        // One clause of the formula left out: the proof no longer holds.
        let mut less = cnf.clone();
        less.clauses.remove(0);
        assert!(check(&less, &proof).is_err());
    }
}
