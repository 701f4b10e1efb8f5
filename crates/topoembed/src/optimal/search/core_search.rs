//! A core refuted by a search that writes its own DRAT proof, clause by
//! clause, as it backtracks.
//!
//! A SAT solver is a poor judge of cores on large tori: torus:32x32's
//! (1,2,2,3,4,5,5) ran varisat for more than 35 minutes, CaDiCaL for more
//! than 5, while the branch and bound refutes it in 2 s. What the branch
//! and bound does is arc consistency, which unit propagation also does on
//! the core's formula ([`crate::optimal::proof::sat::core_formula`]): its clause
//! x(c, v) → ∨ x(c ⊕ e_i, u) over the u at distance D_i from v is the
//! *support encoding* of the distance constraint, and on it unit
//! propagation removes exactly the values arc consistency removes
//! (Gent, "Arc consistency in SAT", ECAI 2002).
//!
//! So this search keeps every cube node's domain (a bitset of host nodes)
//! arc consistent, with the placed nodes' hosts taken from the others and
//! the formula's symmetry breaking applied once its unit vectors are
//! placed — never more than unit propagation derives from the same
//! placements — and branches on the unplaced cube node of lowest level
//! (the highest bit of its label), fewest hosts first. Where a level's
//! sub-cube is placed whole and a symmetric copy of it is smaller label
//! by label, it cuts, citing that lex-leader clause with its witness
//! ([`crate::optimal::proof::shape_clauses`]): the formula holds the clause, so the cut is
//! unit propagation too. When all
//! the placements of a cube node c under the decisions D fail, the clause
//! ¬D follows by reverse unit propagation: with D assumed, the clauses
//! ¬(D ∧ x(c, v)) written before it rule out the v the search tried, and
//! propagation rules out the rest. The proof is those clauses in the order
//! the search finishes them (each child's deleted once its parent's is
//! written), ending with the empty clause: any DRAT checker verifies it
//! against the formula, and nothing of this search need be trusted. The
//! built-in checker replays such a proof as the tree it is
//! ([`crate::optimal::proof::drat::replay`]), in about the time the search took.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::optimal::host::SearchHost;
use crate::optimal::proof::drat::write_step;
use crate::optimal::proof::sat::Domains;
use crate::optimal::proof::shape_clauses::{self, Transforms};

/// What the search made of a core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::optimal) enum CoreAnswer {
    /// No placement: the proof was written.
    Refuted {
        /// Branching decisions made (search nodes).
        decisions: u64,
        /// Clauses added to the proof.
        lemmas: u64,
    },
    /// A one-to-one placement: the host node of every cube node.
    Placed(Vec<u16>),
    /// `stop` was set; the proof is unfinished.
    Stopped,
}

/// Decisions between two looks at the stop flag.
const STOP_EVERY: u64 = 1 << 10;

/// Where a refutation goes: the binary DRAT proof, and the lex-leader
/// clauses it cites ([`shape_clauses`]), one per line.
pub(in crate::optimal) struct ProofOut<'a> {
    pub proof: &'a mut dyn Write,
    pub shapes: &'a mut dyn Write,
}

/// Refutes or places the sub-cube of distances `core` (ascending) on `h`,
/// whose formula's variables `dom` gives, writing the proof of a
/// refutation to `out`.
pub(in crate::optimal) fn search_core<'a>(
    h: &'a SearchHost,
    core: &'a [u32],
    dom: &'a Domains,
    out: ProofOut<'a>,
    stop: Option<&'a AtomicBool>,
) -> io::Result<CoreAnswer> {
    let mut search = Search::new(h, core, dom, out, stop);
    let queue: Vec<usize> = (0..search.cubes).collect();
    if !search.propagate(queue) {
        // Propagation alone refutes it.
        write_step(search.proof, b'a', &[])?;
        return Ok(CoreAnswer::Refuted {
            decisions: 0,
            lemmas: 1,
        });
    }
    Ok(match search.refute(&mut Vec::new(), 1)? {
        Outcome::Refuted => CoreAnswer::Refuted {
            decisions: search.decisions,
            lemmas: search.lemmas,
        },
        Outcome::Placed => CoreAnswer::Placed(
            (0..search.cubes)
                .map(|c| search.only(c).expect("every node placed"))
                .collect(),
        ),
        Outcome::Stopped => CoreAnswer::Stopped,
    })
}

enum Outcome {
    Refuted,
    Placed,
    Stopped,
}

struct Search<'a> {
    h: &'a SearchHost,
    core: &'a [u32],
    dom: &'a Domains,
    proof: &'a mut dyn Write,
    /// The lex-leader clauses cited, and the transforms that find them.
    shapes: &'a mut dyn Write,
    transforms: Transforms,
    stop: Option<&'a AtomicBool>,
    /// Cube nodes (2^|core|).
    cubes: usize,
    /// Words of a host-node bitset.
    words: usize,
    /// `domains[c * words..][..words]`: the hosts cube node c may still take.
    domains: Vec<u64>,
    /// `seen[c * words..][..words]`: c's hosts when its neighbours were
    /// last revised against it (all host nodes before the first time);
    /// equal to `domains` whenever propagation has finished.
    seen: Vec<u64>,
    /// `residues[(c * |core| + i) * n + u]`: a host of c ⊕ e_i found to
    /// support u in c's domain (a guess, checked before it is used).
    residues: Vec<u16>,
    /// Cube nodes down to one host whose host was taken from the others.
    placed: Vec<bool>,
    /// The hosts at each distinct distance from a host or a set, and
    /// `around_of[i]`: which of them is D_i's.
    around: Vec<Around>,
    around_of: Vec<usize>,
    decisions: u64,
    lemmas: u64,
}

impl<'a> Search<'a> {
    fn new(
        h: &'a SearchHost,
        core: &'a [u32],
        dom: &'a Domains,
        out: ProofOut<'a>,
        stop: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        let (n, cubes) = (h.nodes(), 1usize << core.len());
        let words = n.div_ceil(64);
        let mut domains = vec![0u64; cubes * words];
        for c in 0..cubes {
            for &v in dom.nodes(c) {
                domains[c * words + v as usize / 64] |= 1 << (v % 64);
            }
        }
        let mut distinct = core.to_vec();
        distinct.dedup(); // ascending: equal distances are neighbours
        let around = distinct.iter().map(|&r| Around::new(h, r, words)).collect();
        let around_of = core
            .iter()
            .map(|r| {
                distinct
                    .iter()
                    .position(|d| d == r)
                    .expect("every distance kept")
            })
            .collect();
        Search {
            h,
            core,
            dom,
            proof: out.proof,
            shapes: out.shapes,
            transforms: Transforms::new(core),
            stop,
            cubes,
            words,
            domains,
            seen: (0..cubes * words)
                .map(|at| match (at % words + 1) * 64 {
                    full if full <= n => u64::MAX,
                    end => u64::MAX >> (end - n).min(64),
                })
                .collect(),
            residues: vec![0; cubes * core.len() * n],
            placed: vec![false; cubes],
            around,
            around_of,
            decisions: 0,
            lemmas: 0,
        }
    }

    fn domain(&self, c: usize) -> &[u64] {
        &self.domains[c * self.words..(c + 1) * self.words]
    }

    fn size(&self, c: usize) -> u32 {
        self.domain(c).iter().map(|w| w.count_ones()).sum()
    }

    /// Cube node c's host, when it has one left only.
    fn only(&self, c: usize) -> Option<u16> {
        let mut found = None;
        for (w, &word) in self.domain(c).iter().enumerate() {
            if word == 0 {
                continue;
            }
            if found.is_some() || word.count_ones() > 1 {
                return None;
            }
            found = Some((w * 64 + word.trailing_zeros() as usize) as u16);
        }
        found
    }

    fn hosts(&self, c: usize) -> Vec<u16> {
        ones(self.domain(c)).map(|v| v as u16).collect()
    }

    /// Keeps of c's hosts those `keep` allows; whether any went.
    fn restrict(&mut self, c: usize, keep: impl Fn(usize) -> u64) -> bool {
        let mut changed = false;
        for w in 0..self.words {
            let cell = &mut self.domains[c * self.words + w];
            let kept = *cell & keep(w);
            changed |= kept != *cell;
            *cell = kept;
        }
        changed
    }

    /// Arc consistency from the cube nodes in `queue` on, with every
    /// placed node's host taken from the others and the formula's symmetry
    /// breaking on the unit vectors; false at a domain wiped out. The
    /// queue is first in, first out, so a node's losses gather while it
    /// waits (the fixpoint, the search and its proof are the same: on
    /// torus:32x32, (1, 2, 2, 3, 4, 5, 5) 5.29 → 2.77 s and (1, 2, 2, 4, 5,
    /// 5, 5) 276 → 139 s, the same proofs byte for byte).
    fn propagate(&mut self, queue: Vec<usize>) -> bool {
        let mut queue = VecDeque::from(queue);
        let words = self.words;
        let mut queued = vec![false; self.cubes];
        queue.iter().for_each(|&c| queued[c] = true);
        let mut support = vec![0u64; words];
        let mut removed = vec![0u64; words];
        while let Some(c) = queue.pop_front() {
            queued[c] = false;
            let mut touched = Vec::new();
            match self.size(c) {
                0 => return false,
                1 if !self.placed[c] => {
                    self.placed[c] = true;
                    let v = self.only(c).expect("one host") as usize;
                    let (w, bit) = (v / 64, 1u64 << (v % 64));
                    for other in (0..self.cubes).filter(|&o| o != c) {
                        let cell = &mut self.domains[other * words + w];
                        if *cell & bit != 0 {
                            *cell &= !bit;
                            touched.push(other);
                        }
                    }
                    if c.is_power_of_two() {
                        touched.extend(self.break_symmetry());
                    }
                }
                _ => {}
            }
            // What c lost since its neighbours were last made consistent
            // with it: only their hosts supported there may have lost
            // their support (AC-3 revising from the values removed).
            let mut gone = 0;
            let (now, before) = (
                &self.domains[c * words..][..words],
                &self.seen[c * words..][..words],
            );
            for ((lost, now), before) in removed.iter_mut().zip(now).zip(before) {
                *lost = before & !now;
                gone += lost.count_ones();
            }
            if gone > 0 {
                self.seen[c * words..][..words]
                    .copy_from_slice(&self.domains[c * words..][..words]);
                let mine = self.size(c);
                for i in 0..self.core.len() {
                    let (next, at) = (c ^ (1 << i), self.around_of[i]);
                    if self.revise(c, mine, (&removed, gone), next, at, &mut support) {
                        touched.push(next);
                    }
                }
            }
            for t in touched {
                if self.size(t) == 0 {
                    return false;
                }
                if !queued[t] {
                    queued[t] = true;
                    queue.push_back(t);
                }
            }
        }
        true
    }

    /// Takes from `next` (a neighbour of c across a dimension of distance
    /// `around[at]`'s) the hosts no host left to c supports, c having lost
    /// `removed` (with `gone` hosts) since `next` was last revised against
    /// it; whether any went. When c lost fewer hosts than it kept, only
    /// `next`'s hosts around a lost one are looked at, else every host.
    fn revise(
        &mut self,
        c: usize,
        mine: u32,
        (removed, gone): (&[u64], u32),
        next: usize,
        at: usize,
        scratch: &mut [u64],
    ) -> bool {
        let (words, k, n) = (self.words, self.core.len(), self.h.nodes());
        let i = (c ^ next).trailing_zeros() as usize;
        let theirs = self.size(next);
        let around = &self.around[at];
        let (head, tail) = self.domains.split_at_mut(c.max(next) * words);
        let (mine_cells, next_cells) = if c < next {
            (&head[c * words..][..words], &mut tail[..words])
        } else {
            (&tail[..words], &mut head[next * words..][..words])
        };
        let mut changed = false;
        if gone < mine {
            around.support(removed, (gone, next_cells, theirs), scratch);
            scratch
                .iter_mut()
                .zip(next_cells.iter())
                .for_each(|(s, d)| *s &= d);
            for u in ones(scratch) {
                let bit = 1u64 << (u % 64);
                // The host found last time, if c still has it, else the
                // first of u's sphere in c's domain (AC-3rm's residues).
                let residue = &mut self.residues[(next * k + i) * n + u];
                let r = *residue as usize;
                if mine_cells[r / 64] & (1 << (r % 64)) != 0 {
                    continue;
                }
                let sphere = &around.single[u * words..][..words];
                match sphere.iter().zip(mine_cells).position(|(s, d)| s & d != 0) {
                    Some(w) => {
                        let both = sphere[w] & mine_cells[w];
                        *residue = (w * 64 + both.trailing_zeros() as usize) as u16;
                    }
                    None => {
                        next_cells[u / 64] &= !bit;
                        changed = true;
                    }
                }
            }
        } else {
            around.support(mine_cells, (mine, next_cells, theirs), scratch);
            for (d, &keep) in next_cells.iter_mut().zip(scratch.iter()) {
                changed |= *d & !keep != 0;
                *d &= keep;
            }
        }
        changed
    }

    /// The formula's symmetry breaking ([`crate::optimal::proof::sat::core_formula`]) on
    /// the unit vectors placed: f(e_0) and f(e_1) least of their orbits
    /// under the symmetries fixing the images before them, and equal
    /// distances' images ascending. Returns the nodes it narrowed.
    fn break_symmetry(&mut self) -> Vec<usize> {
        let k = self.core.len();
        let symmetries = self.h.symmetries();
        let mut narrowed = Vec::new();
        let mut stabilizer: Vec<usize> = (0..symmetries.len()).collect();
        // Two levels: the formula's (label order puts e_0 ⊕ e_1 before e_2).
        for level in 0..k.min(2) {
            let unit = 1usize << level;
            if level > 0 && stabilizer.len() > 1 {
                let fixing = stabilizer.clone();
                let gone = |v: usize| fixing.iter().any(|&g| (symmetries[g][v] as usize) < v);
                let mask = self.mask(|v| !gone(v));
                if self.restrict(unit, |w| mask[w]) {
                    narrowed.push(unit);
                }
            }
            let Some(v) = self.only(unit).filter(|_| self.placed[unit]) else {
                break;
            };
            stabilizer.retain(|&g| symmetries[g][v as usize] == v);
        }
        for i in 1..k {
            if self.core[i - 1] != self.core[i] {
                continue;
            }
            let (a, b) = (1usize << (i - 1), 1usize << i);
            if let Some(u) = self.only(a).filter(|_| self.placed[a]) {
                let mask = self.mask(|v| v > u as usize);
                if self.restrict(b, |w| mask[w]) {
                    narrowed.push(b);
                }
            }
            if let Some(v) = self.only(b).filter(|_| self.placed[b]) {
                let mask = self.mask(|u| u < v as usize);
                if self.restrict(a, |w| mask[w]) {
                    narrowed.push(a);
                }
            }
        }
        narrowed
    }

    /// The bitset of the host nodes `keep` holds for.
    fn mask(&self, keep: impl Fn(usize) -> bool) -> Vec<u64> {
        let mut bits = vec![0u64; self.words];
        for v in (0..self.h.nodes()).filter(|&v| keep(v)) {
            bits[v / 64] |= 1 << (v % 64);
        }
        bits
    }

    /// The largest level l with every label below 2^l placed.
    fn complete_level(&self) -> usize {
        let unplaced = (0..self.cubes)
            .find(|&c| !self.placed[c])
            .unwrap_or(self.cubes);
        // The prefix 0..unplaced holds 2^l labels for l = floor(log2).
        (usize::BITS - 1 - unplaced.leading_zeros()) as usize
    }

    /// A lex-leader clause ([`shape_clauses`]) the placement breaks on a
    /// level above `done` (those up to it were looked at on the way here)
    /// and up to `complete`, written to the list of those cited.
    fn breaks_lex_leader(&mut self, done: usize, complete: usize) -> io::Result<bool> {
        if complete <= done.max(1) {
            return Ok(false);
        }
        let place: Vec<u16> = (0..1usize << complete)
            .map(|c| self.only(c).expect("placed"))
            .collect();
        for level in done.max(1) + 1..=complete {
            if let Some(clause) = self.transforms.smaller(self.h, self.dom, level, &place) {
                shape_clauses::write(self.shapes, &clause)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Refutes the decisions `path` (placements, as the negated literals
    /// of the clause ¬path) with propagation done and the lex-leader
    /// clauses of levels up to `done` looked at: writes the clause ¬path
    /// once every placement of the branching node has failed. The node is
    /// the one of fewest hosts among the unplaced of least level (the
    /// highest bit of its label), so that each level's sub-cube is placed
    /// whole before the next and its lex-leader clauses cut it early.
    fn refute(&mut self, path: &mut Vec<i32>, done: usize) -> io::Result<Outcome> {
        let complete = self.complete_level();
        if self.breaks_lex_leader(done, complete)? {
            // The clause just cited is false under the decisions, so
            // unit propagation refutes them.
            self.lemma(path)?;
            return Ok(Outcome::Refuted);
        }
        let level = |c: usize| usize::BITS - c.leading_zeros();
        let Some(c) = (0..self.cubes)
            .filter(|&c| !self.placed[c])
            .min_by_key(|&c| (level(c), self.size(c)))
        else {
            return Ok(Outcome::Placed);
        };
        self.decisions += 1;
        if (self.decisions - 1) % STOP_EVERY == 0
            && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Ok(Outcome::Stopped);
        }
        let mut saved = (self.domains.clone(), self.placed.clone());
        let mut tried = Vec::new();
        for v in self.hosts(c) {
            let (w, bit) = (v as usize / 64, 1u64 << (v % 64));
            if saved.0[c * self.words + w] & bit == 0 {
                continue; // taken out since, by its siblings' failures
            }
            tried.push(v);
            self.restrict(c, |x| if x == w { bit } else { 0 });
            let var = self
                .dom
                .var(c, v)
                .expect("a host in c's domain has a variable");
            path.push(-var);
            let outcome = if self.propagate(vec![c]) {
                self.refute(path, complete.max(done))?
            } else {
                self.lemma(path)?;
                Outcome::Refuted
            };
            path.pop();
            if !matches!(outcome, Outcome::Refuted) {
                return Ok(outcome);
            }
            // c is not on v: the clause just written says so, and unit
            // propagation takes that up under the decisions, so the search
            // does too before it tries c's next host.
            self.domains.copy_from_slice(&saved.0);
            self.seen.copy_from_slice(&saved.0);
            self.placed.copy_from_slice(&saved.1);
            self.restrict(c, |x| if x == w { !bit } else { u64::MAX });
            if !self.propagate(vec![c]) {
                break;
            }
            saved.0.copy_from_slice(&self.domains);
            saved.1.copy_from_slice(&self.placed);
        }
        self.lemma(path)?;
        for &v in &tried {
            path.push(-self.dom.var(c, v).expect("as above"));
            write_step(self.proof, b'd', path)?;
            path.pop();
        }
        Ok(Outcome::Refuted)
    }

    fn lemma(&mut self, clause: &[i32]) -> io::Result<()> {
        self.lemmas += 1;
        write_step(self.proof, b'a', clause)
    }
}

/// The hosts at distance r from a host, or from some host of a set.
struct Around {
    words: usize,
    /// `single[v * words..][..words]`: the sphere of radius r around v.
    single: Vec<u64>,
    /// The torus as rows along its first axis (when a row fits a word):
    /// its width, and the sphere's offsets grouped by their row offset.
    rows: Option<Rows>,
}

/// A torus of first side `width` ≤ 64, stored row after row (node v =
/// x + width·row), with a sphere's offsets grouped by the row they move to.
struct Rows {
    width: usize,
    count: usize,
    /// Per row offset: where each row goes, and the shifts along the row.
    groups: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Around {
    fn new(h: &SearchHost, r: u32, words: usize) -> Around {
        let n = h.nodes();
        let sphere: &[u16] = if r <= u32::from(h.diameter()) {
            h.sphere(r as u16)
        } else {
            &[]
        };
        let mut single = vec![0u64; n * words];
        for v in 0..n {
            for &offset in sphere {
                let u = h.add(v as u16, offset) as usize;
                single[v * words + u / 64] |= 1 << (u % 64);
            }
        }
        let width = h.sides()[0] as usize;
        let rows = (width <= 64 && n > width).then(|| {
            let count = n / width;
            let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
            for &offset in sphere {
                let (shift, row) = (offset as usize % width, offset as usize / width);
                match groups.iter_mut().find(|(r, _)| *r as usize == row) {
                    Some((_, shifts)) => shifts.push(shift as u32),
                    None => groups.push((row as u32, vec![shift as u32])),
                }
            }
            let groups = groups
                .into_iter()
                .map(|(row, shifts)| {
                    let to = (0..count)
                        .map(|from| {
                            let moved = h.add((from * width) as u16, (row as usize * width) as u16);
                            u32::from(moved) / width as u32
                        })
                        .collect();
                    (to, shifts)
                })
                .collect();
            Rows {
                width,
                count,
                groups,
            }
        });
        Around {
            words,
            single,
            rows,
        }
    }

    /// Into `out`: the hosts of `theirs` (with `their_size` of them) at
    /// distance r from some host of `mine` (with `my_size`), by the
    /// cheapest of three ways: the union of the spheres around `mine`'s
    /// hosts, the hosts of `theirs` whose sphere meets `mine`, or `mine`
    /// shifted by every offset of the sphere, row by row.
    fn support(
        &self,
        mine: &[u64],
        (my_size, theirs, their_size): (u32, &[u64], u32),
        out: &mut [u64],
    ) {
        let words = self.words;
        out.fill(0);
        let direct = my_size.min(their_size) as usize * words;
        if let Some(rows) = self
            .rows
            .as_ref()
            .filter(|r| r.count * r.groups.len() * 2 < direct)
        {
            let mask = if rows.width == 64 {
                u64::MAX
            } else {
                (1u64 << rows.width) - 1
            };
            let per_word = 64 / rows.width;
            for from in 0..rows.count {
                let bits = mine[from / per_word] >> (from % per_word * rows.width) & mask;
                if bits == 0 {
                    continue;
                }
                for (to, shifts) in &rows.groups {
                    let mut moved = 0u64;
                    for &a in shifts {
                        moved |= match a {
                            0 => bits,
                            a => (bits << a | bits >> (rows.width as u32 - a)) & mask,
                        };
                    }
                    let to = to[from] as usize;
                    out[to / per_word] |= moved << (to % per_word * rows.width);
                }
            }
        } else if my_size <= their_size {
            for v in ones(mine) {
                let row = &self.single[v * words..][..words];
                out.iter_mut().zip(row).for_each(|(s, r)| *s |= r);
            }
        } else {
            for u in ones(theirs) {
                let row = &self.single[u * words..][..words];
                if row.iter().zip(mine).any(|(r, d)| r & d != 0) {
                    out[u / 64] |= 1 << (u % 64);
                }
            }
        }
    }
}

/// The positions of the set bits of `bits`, ascending.
pub(in crate::optimal) fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + at
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::proof::drat::{check, check_forward, replay};
    use crate::optimal::proof::sat::{ascending_vectors, core_formula, Cnf};

    /// The search on `core`, its proof, and the formula with the
    /// lex-leader clauses it cites, each checked.
    fn search(h: &SearchHost, core: &[u32]) -> (CoreAnswer, Vec<u8>, Cnf, usize) {
        let (mut cnf, dom) = core_formula(h, core, true);
        let (mut proof, mut shapes) = (Vec::new(), Vec::new());
        let out = ProofOut {
            proof: &mut proof,
            shapes: &mut shapes,
        };
        let answer = search_core(h, core, &dom, out, None).unwrap();
        let text = String::from_utf8(shapes).unwrap();
        let cited = shape_clauses::read_checked(&text, h, core, &dom).unwrap();
        let count = cited.len();
        cnf.clauses.extend(cited);
        (answer, proof, cnf, count)
    }

    /// Every ascending vector of 2 to 4 distances on small tori (5 on those
    /// of 32 nodes or more): the search
    /// places a sub-cube exactly when the solver does (on the formula
    /// without lex-leader clauses), every placement it gives is one to one
    /// with the right distances, and every refutation's proof checks
    /// against the formula with the lex-leader clauses it cites.
    #[test]
    fn the_search_agrees_with_the_solver_and_its_proofs_check() {
        // Every case on its own, on every core (counts: placed, refuted,
        // clauses cited).
        use rayon::prelude::*;
        let hosts = [
            vec![8],
            vec![16],
            vec![4, 4],
            vec![8, 4],
            vec![4, 2, 2],
            vec![8, 8],
        ]
        .map(|sides| (SearchHost::new(&sides), sides));
        let cases: Vec<_> = hosts
            .iter()
            .flat_map(|(h, sides)| {
                let top = u32::from(h.diameter()) + 1;
                // Five dimensions where the sub-cube may fit: levels to 5 of
                // lex-leader clauses.
                let most = if h.nodes() >= 32 { 5 } else { 4 };
                (2..=most).flat_map(move |k| {
                    ascending_vectors(k, top)
                        .into_iter()
                        .map(move |dims| (h, sides, dims))
                })
            })
            .collect();
        let [placed, refuted, cited] = cases
            .par_iter()
            .map(|(h, sides, dims)| {
                let (plain, _) = core_formula(h, dims, true);
                let solver = crate::optimal::proof::sat::solve(&plain, None).unwrap();
                let (answer, proof, cnf, clauses) = search(h, dims);
                match answer {
                    CoreAnswer::Placed(place) => {
                        assert!(
                            matches!(solver, crate::optimal::proof::sat::Solved::Model(_)),
                            "{sides:?} {dims:?}: placed, the solver did not"
                        );
                        let mut seen = std::collections::HashSet::new();
                        assert!(place.iter().all(|&v| seen.insert(v)), "not one to one");
                        for (c, &v) in place.iter().enumerate() {
                            for (i, &r) in dims.iter().enumerate() {
                                let u = place[c ^ (1 << i)];
                                assert_eq!(u32::from(h.d(v, u)), r, "{sides:?} {dims:?}");
                            }
                        }
                        [1, 0, clauses]
                    }
                    CoreAnswer::Refuted { .. } => {
                        assert!(
                            matches!(solver, crate::optimal::proof::sat::Solved::Unsatisfiable),
                            "{sides:?} {dims:?}: refuted, the solver placed it"
                        );
                        // Replayed as the search tree it is, and
                        // forward, lemma by lemma: the same verdict.
                        let replayed = replay(&cnf, &proof);
                        assert!(
                            matches!(replayed, Ok(Some(_))),
                            "{sides:?} {dims:?}: {replayed:?}"
                        );
                        let checked = check_forward(&cnf, &proof);
                        assert!(checked.is_ok(), "{sides:?} {dims:?}: {checked:?}");
                        [0, 1, clauses]
                    }
                    CoreAnswer::Stopped => panic!("stopped without a flag"),
                }
            })
            .reduce(|| [0; 3], |a, b| std::array::from_fn(|k| a[k] + b[k]));
        assert!(
            placed > 0 && refuted > 0 && cited > 0,
            "{placed} {refuted} {cited}"
        );
    }

    /// A proof cut short, or without its lemmas, fails the check.
    #[test]
    fn a_damaged_proof_fails() {
        // Four dimensions of distance 2 embed nowhere in torus:32x32.
        let h = SearchHost::new(&[32, 32]);
        let core = [2, 2, 2, 2];
        let (answer, proof, cnf, cited) = search(&h, &core);
        let CoreAnswer::Refuted { decisions, lemmas } = answer else {
            panic!("{answer:?}");
        };
        assert!(
            decisions > 1 && lemmas > 2 && cited > 0,
            "{decisions} {lemmas} {cited}"
        );
        assert!(matches!(replay(&cnf, &proof), Ok(Some(_))));
        assert!(check(&cnf, &proof).is_ok());
        // Cut short: the replay finds no refutation, nor does the forward
        // check.
        let cut = &proof[..proof.len() / 2];
        assert!(matches!(replay(&cnf, cut), Ok(None) | Err(_)));
        assert!(check(&cnf, cut).is_err());

        // The empty clause alone does not follow: the lemmas carry it.
        let mut bare = Vec::new();
        write_step(&mut bare, b'a', &[]).unwrap();
        assert!(check(&cnf, &bare).is_err());

        // Without the lex-leader clauses it cites, the proof fails.
        let (plain, _) = core_formula(&h, &core, true);
        assert!(check(&plain, &proof).is_err());
    }
}
