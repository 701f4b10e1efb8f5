//! How one distance vector is decided ([`Decider`]): in turns
//! ([`Turns`]), each giving the branch and bound and the SAT solver a
//! budget four times the last. A turn first looks for a core
//! ([`crate::optimal::search::cores`]): a known one the vector holds, or one of its probes
//! refuted within the turn's probe budget.
//!
//! The branch and bound and the solver take turns because on vectors of
//! small distances the branch and bound is quick where clause learning is
//! slow (and its proofs huge), on elongated tori the other way round
//! (torus:32x4: 2.6·10^9 nodes, or 160 solves of a tenth of a second).
//! Budgets growing ×4 spend at most 4/3 of the turn that decides on each
//! method, so when the first budgets take about the same time (0.2 s each)
//! the turns cost a few times at most what the better method would alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::optimal::bounds::windings::Winding;
use crate::optimal::certificate::refuted::Refuted;
use crate::optimal::host::SearchHost;
use crate::optimal::proof::core_proofs::CoreProofs;
use crate::optimal::proof::sat::Answer;
use crate::optimal::run::interrupt::Stoppable;
use crate::optimal::search::constant::{decide_by_search_from, Learned, SearchAnswer};
use crate::optimal::search::cores::{Cores, Probing, PROBE_SHARE};

/// Search nodes the branch and bound may spend on one vector before the
/// SAT solver takes it (a few hundredths of a second); four times as many
/// on each later turn. 2^22 before: on elongated tori, where the solver
/// decides and the branch and bound does not, that first turn alone cost
/// more than the solver's answer (torus:64x8, 30 vectors: 14 s against 1.8
/// s now; torus:64x16, 815 vectors: 37 s against 5.4 s), and where the
/// branch and bound decides, the ×4 turns reach its budget soon enough.
pub const SEARCH_BUDGET: u64 = 1 << 18;

/// Proof bytes the SAT solver may write on its first turn at a vector
/// (about 0.2 s of clause learning on torus:16x16); four times as many on
/// each later turn.
pub const PROOF_BUDGET: u64 = 4 << 20;

/// The vectors at which the SAT solver takes its turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolverAt {
    /// Every vector the branch and bound has not decided in its turn.
    Every,
    /// Under the lift bounds ([`Winding::Lifted`]), only a vector whose
    /// formula a winding pair folds (halving, the window lemma's band) or
    /// pins (the slack window): the formula then holds structure the
    /// branch and bound does not use, and that is where the solver has
    /// decided vectors by default — torus:64x16's (1, 2, 2, 4, 4, 4, 4, 4,
    /// 16, 16), folded by 16 + 16 = 64/2, in 2.4 s where the branch and
    /// bound alone takes 11.7 s. On a whole formula it has decided none:
    /// torus:32x32's 2 731 vectors are all refuted by the branch and bound
    /// and its cores, and the solver's turns there cost 630 s against
    /// 356 s without them (2 cores AMD EPYC). Under other bounds: every
    /// vector, as [`SolverAt::Every`] (torus:32x4 under the counting
    /// bounds is 160 solves of a tenth of a second, or 2.6·10^9 nodes of
    /// the branch and bound).
    Folded,
}

/// How the branch and bound and the SAT solver share a vector: each takes
/// turns with these first budgets, four times as much each turn, until one
/// decides it (see [`Decider::decide`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turns {
    /// The branch and bound's first budget in search nodes; 0: no turns,
    /// the solver decides every vector (so a certificate's refutations are
    /// all DRAT proofs).
    pub search_nodes: u64,
    /// The solver's first budget in bytes of proof (a measure of its work
    /// that is the same on every run, unlike its time); 0: the solver takes
    /// no turns.
    pub proof_bytes: u64,
    /// Where the solver takes its turns.
    pub solver_at: SolverAt,
}

impl Turns {
    /// `--decide-by turns`: [`SEARCH_BUDGET`] and [`PROOF_BUDGET`], the
    /// solver at every vector.
    pub const DEFAULT: Turns = Turns {
        search_nodes: SEARCH_BUDGET,
        proof_bytes: PROOF_BUDGET,
        solver_at: SolverAt::Every,
    };

    /// The CLI's default (`--decide-by auto`): [`Turns::DEFAULT`]'s
    /// budgets, the solver only where the lemmas fold or pin the formula
    /// ([`SolverAt::Folded`]).
    pub const AUTO: Turns = Turns {
        solver_at: SolverAt::Folded,
        ..Turns::DEFAULT
    };

    /// No turns: the solver alone, without a budget.
    pub const SOLVER_ONLY: Turns = Turns {
        search_nodes: 0,
        proof_bytes: 0,
        solver_at: SolverAt::Every,
    };

    /// The branch and bound alone, in turns of [`SEARCH_BUDGET`] nodes and
    /// four times as many each turn (on torus:32x32 the solver decides no
    /// vector, and its turns cost many times the branch and bound's: 450 s
    /// for 256 MiB of proof against 25 s for 2^28 nodes). A vector decided
    /// alone spends at most 4/3 of what one search would; a level's vectors
    /// take their turns together, so that the cores of the easy ones can
    /// refute the hard ones.
    pub const SEARCH_ONLY: Turns = Turns {
        search_nodes: SEARCH_BUDGET,
        proof_bytes: 0,
        solver_at: SolverAt::Every,
    };

    /// The next turn's budgets: four times these.
    pub fn next(self) -> Turns {
        Turns {
            search_nodes: self.search_nodes.saturating_mul(4),
            proof_bytes: self.proof_bytes.saturating_mul(4),
            ..self
        }
    }

    /// Search nodes each probe for a core may take in this turn
    /// ([`crate::optimal::search::cores`]): a [`PROBE_SHARE`]th of the search's, one at
    /// least (a budget of 0 nodes would be none at all).
    pub fn probe_nodes(self) -> u64 {
        (self.search_nodes / PROBE_SHARE).max(1)
    }
}

/// Bytes of shapes kept between turns ([`Learning`]) for all the vectors
/// of a run together; past them a vector's next turn starts over.
pub const LEARNED_BYTES: usize = 512 << 20;

/// What the branch and bound learned at each vector it has not decided
/// yet ([`Learned`]), so that its next turn there goes on from it, within
/// [`LEARNED_BYTES`] in all.
#[derive(Default)]
pub(in crate::optimal) struct Learning {
    kept: Mutex<HashMap<Vec<u32>, Learned>>,
}

impl Learning {
    /// What was learned at `dims`, taken out.
    fn take(&self, dims: &[u32]) -> Option<Learned> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.remove(dims)
    }

    /// Keeps what was learned at `dims`, if there is room (the vectors
    /// left undecided at once are a few dozen at most: their bytes are
    /// summed afresh).
    fn keep(&self, dims: &[u32], learned: Learned) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let used: usize = kept.values().map(Learned::bytes).sum();
        if used + learned.bytes() <= LEARNED_BYTES {
            kept.insert(dims.to_vec(), learned);
        }
    }
}

/// One vector decided (or not yet).
pub(in crate::optimal) enum Decision {
    /// An embedding with these distances: the host node of every cube node.
    Embedding(Vec<u16>),
    /// None exists.
    Refuted(Refuted),
    /// The turn's budgets ran out first.
    Undecided,
    /// Stopped (Ctrl-C) before an answer.
    Stopped,
}

/// The lemmas a vector's formula uses ([`Decider::lemmas`]).
struct FormulaLemmas {
    windings: Winding,
    fold: Option<crate::optimal::bounds::halving::Fold>,
    pin: Option<crate::optimal::bounds::pin::Pin>,
}

/// What deciding the vectors of one host needs, shared by all of them.
pub(in crate::optimal) struct Decider<'a> {
    pub h: &'a SearchHost,
    /// The least Σ of a (k+1)-cube's distances, for every k.
    pub prefix_bound: &'a [u32],
    /// The torus is bipartite; the form of the winding lemma the formulas
    /// may use.
    pub form: (bool, Winding),
    /// Where an UNSAT answer's proof goes.
    pub certificate: Option<&'a Path>,
    /// The proofs of the cores the certificate cites so far (used only
    /// with a certificate).
    pub core_proofs: &'a CoreProofs,
    /// The cores known, and those found on the way.
    pub cores: &'a Cores,
    pub stop: Option<&'a AtomicBool>,
    /// What the branch and bound's turns learned at the vectors they left
    /// undecided.
    pub learned: Learning,
}

impl Decider<'_> {
    fn asked_to_stop(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Where the cores' sub-cubes are decided.
    pub(in crate::optimal) fn probing(&self) -> Probing<'_> {
        Probing {
            h: self.h,
            prefix_bound: self.prefix_bound,
            stop: self.stop,
        }
    }

    /// Decides the ascending `dims`, turn after turn from `turns`, until a
    /// turn does (with `Turns::SOLVER_ONLY`, a certificate's, the solver
    /// decides alone without a budget).
    pub(in crate::optimal) fn decide(&self, dims: &[u32], mut turns: Turns) -> Result<Decision> {
        loop {
            match self.turn(dims, turns)? {
                Decision::Undecided => turns = turns.next(),
                decision => return Ok(decision),
            }
        }
    }

    /// One turn at the ascending `dims` with the budgets of `turn`: a known
    /// core it holds, or else its probes, or else the branch and bound,
    /// then the solver (none without a proof budget: building its formula
    /// alone takes seconds on the largest tori). A core found is shrunk
    /// ([`Cores::shrink`]) within the turn's probe budget.
    pub(in crate::optimal) fn turn(&self, dims: &[u32], turn: Turns) -> Result<Decision> {
        let decision = self.turn_at(dims, turn);
        if !matches!(decision, Ok(Decision::Undecided)) {
            // Decided (or stopped): what was learned there is not needed.
            self.learned.take(dims);
        }
        decision
    }

    /// [`Decider::turn`]'s work.
    fn turn_at(&self, dims: &[u32], turn: Turns) -> Result<Decision> {
        if let Some(decision) = self.by_propagation(dims)? {
            return Ok(decision);
        }
        if turn.search_nodes == 0 {
            return self.by_solver(dims, None);
        }
        let probing = self.probing();
        let probe_nodes = turn.probe_nodes();
        let core = match self.cores.refuting(dims) {
            Some(core) => Some(self.cores.shrink(probing, core, probe_nodes)),
            None => self.cores.probe(probing, dims, probe_nodes),
        };
        if let Some(core) = core {
            return self.certified(Refuted::by_core(dims, &core));
        }
        if self.asked_to_stop() {
            return Ok(Decision::Stopped);
        }
        let (answer, learned) = decide_by_search_from(
            self.h,
            self.prefix_bound,
            dims,
            turn.search_nodes,
            self.stop,
            self.learned.take(dims),
        );
        if let Some(learned) = learned {
            self.learned.keep(dims, learned);
        }
        match answer {
            SearchAnswer::Embedding(place) => return Ok(Decision::Embedding(place)),
            SearchAnswer::Refuted { nodes, core } => {
                let mut refuted = Refuted::by_search(dims, nodes, core);
                if !refuted.core.is_empty() {
                    let shrunk = self
                        .cores
                        .shrink(probing, refuted.core.clone(), probe_nodes);
                    if self.certificate.is_some() {
                        // The smaller core, the smaller formula to prove.
                        refuted.core = shrunk;
                    }
                }
                return self.certified(refuted);
            }
            SearchAnswer::Undecided { .. } if self.asked_to_stop() => return Ok(Decision::Stopped),
            SearchAnswer::Undecided { .. } => {}
        }
        if turn.proof_bytes > 0 && self.solver_takes(dims, turn.solver_at) {
            return match self.by_solver(dims, Some(turn.proof_bytes))? {
                Decision::Stopped if !self.asked_to_stop() => Ok(Decision::Undecided),
                decision => Ok(decision),
            };
        }
        Ok(Decision::Undecided)
    }

    /// A refutation by the branch and bound as a certificate must have it:
    /// by the DRAT proof of its core or of another core it holds
    /// ([`CoreProofs::cite`]), or of the whole
    /// vector when it names none. Without a certificate, as it is.
    fn certified(&self, refuted: Refuted) -> Result<Decision> {
        let Some(dir) = self.certificate else {
            return Ok(Decision::Refuted(refuted));
        };
        if refuted.core.is_empty() {
            return self.by_solver(&refuted.distances, None);
        }
        let even = self.form.0;
        match self
            .core_proofs
            .cite(dir, self.h, (refuted, even), self.stop)?
        {
            Some(cited) => Ok(Decision::Refuted(cited)),
            None => Ok(Decision::Stopped),
        }
    }

    /// Whether the solver takes its turn at `dims` ([`SolverAt`]).
    fn solver_takes(&self, dims: &[u32], at: SolverAt) -> bool {
        match at {
            SolverAt::Every => true,
            SolverAt::Folded if self.form.1 != Winding::Lifted => true,
            SolverAt::Folded => {
                let lemmas = self.lemmas(dims);
                lemmas.fold.is_some() || lemmas.pin.is_some()
            }
        }
    }

    /// The lemmas `dims`' formula uses: the winding lemma's form (off where
    /// no pair reaches half a side) and, under the lift bounds, the fold of
    /// a tight winding pair (halving) or the slack window's pin.
    fn lemmas(&self, dims: &[u32]) -> FormulaLemmas {
        let h = self.h;
        let windings = match self.form.1 {
            form if crate::optimal::proof::sat::windings_apply(h, dims, form) => form,
            _ => Winding::Off,
        };
        let lifted = windings == Winding::Lifted;
        FormulaLemmas {
            windings,
            // A tight winding pair halves the formula.
            fold: lifted
                .then(|| crate::optimal::proof::sat::folding(h, dims, windings, true))
                .flatten(),
            // A winding pair with slack pins half the cube to a window.
            pin: lifted
                .then(|| crate::optimal::bounds::pin::pin(h.sides(), dims))
                .flatten(),
        }
    }

    /// The window lemma's band for `dims`, where the solver would use it
    /// (the lifted winding lemma applies and halves the formula, and the
    /// folded part fills a window); None elsewhere.
    fn window(&self, dims: &[u32]) -> Option<crate::optimal::bounds::band::Window> {
        window(self.h, self.form.1, dims)
    }

    /// A refutation by unit propagation on the band formula
    /// ([`crate::optimal::search::band_propagation`]), before any search or solver, for
    /// cubes that fill the host: on torus:128x8 it refutes every vector the
    /// bounds leave, in milliseconds each, where the branch and bound takes
    /// minutes and the solver 90 s in all. A certificate gets it as a
    /// one-step DRAT proof (the empty clause), the checker rebuilding the
    /// formula.
    fn by_propagation(&self, dims: &[u32]) -> Result<Option<Decision>> {
        if self.h.nodes() != 1 << dims.len() {
            return Ok(None);
        }
        let refuted = match self.window(dims) {
            None => false,
            Some(crate::optimal::bounds::band::Window::Empty) => true,
            Some(crate::optimal::bounds::band::Window::Band(band)) => {
                crate::optimal::search::band_propagation::refutes(self.h, dims, self.form.0, &band)
            }
        };
        if !refuted {
            return Ok(None);
        }
        let refuted = Refuted {
            by: "propagation".to_string(),
            windings: true,
            halved: true,
            banded: true,
            ..Refuted::by_search(dims, 0, dims.len())
        };
        let Some(dir) = self.certificate else {
            return Ok(Some(Decision::Refuted(refuted)));
        };
        // Every step of the propagation is one unit propagation makes on
        // the band formula's clauses: the empty clause is the proof.
        let name = proof_name(dims);
        let path = dir.join(&name);
        let mut proof = Vec::new();
        crate::optimal::proof::drat::write_step(&mut proof, b'a', &[])
            .and_then(|()| std::fs::write(&path, &proof))
            .map_err(|e| Error::File(format!("{}: cannot write the proof: {e}", path.display())))?;
        Ok(Some(Decision::Refuted(Refuted {
            by: "drat".to_string(),
            proof: name,
            proof_bytes: proof.len() as u64,
            propagated: true,
            ..refuted
        })))
    }

    /// Decides one vector by the SAT solver, within `proof_budget` bytes of
    /// proof when given ([`Decision::Stopped`] when they run out, or when
    /// `stop` is set).
    fn by_solver(&self, dims: &[u32], proof_budget: Option<u64>) -> Result<Decision> {
        let (h, certificate, stop) = (self.h, self.certificate, self.stop);
        let even = self.form.0;
        let FormulaLemmas {
            windings,
            fold,
            pin,
        } = self.lemmas(dims);
        let halved = fold.is_some();
        // And a folded part at the lift bound's equality fills a band of the
        // torus.
        let window = fold.and_then(|f| crate::optimal::bounds::band::window(h.sides(), dims, f));
        let banded = window.is_some();
        let decide_to = |proof: Option<&mut dyn std::io::Write>| match &window {
            Some(window) => {
                crate::optimal::bounds::band::decide_window(h, dims, even, window, proof)
            }
            None => {
                crate::optimal::proof::sat::decide_in(h, dims, even, (windings, halved, pin), proof)
            }
        };
        // With a stop flag or a budget the proof goes through a `Stoppable`
        // (discarded if no certificate keeps it): the only way to end a solve
        // early.
        let decide = |proof: Option<&mut dyn std::io::Write>| match (stop, proof_budget) {
            (None, None) => decide_to(proof),
            _ => decide_to(Some(&mut Stoppable::new(proof, stop, proof_budget))),
        };
        let name = proof_name(dims);
        let path: Option<PathBuf> = certificate.map(|dir| dir.join(&name));
        let failed = |e: String| Error::File(format!("the SAT solver failed on {dims:?}: {e}"));
        let answer = match &path {
            Some(p) => {
                let file = std::fs::File::create(p).map_err(|e| {
                    Error::File(format!("{}: cannot write the proof: {e}", p.display()))
                })?;
                let mut writer = std::io::BufWriter::new(file);
                let answer = decide(Some(&mut writer)).map_err(failed)?;
                std::io::Write::flush(&mut writer)
                    .map_err(|e| Error::File(format!("{}: {e}", p.display())))?;
                answer
            }
            None => decide(None).map_err(failed)?,
        };
        // Only a refutation keeps its proof file.
        if let (Some(p), Answer::Stopped | Answer::Embedding(_)) = (&path, &answer) {
            let _ = std::fs::remove_file(p);
        }
        match answer {
            Answer::Stopped => Ok(Decision::Stopped),
            Answer::Embedding(place) => Ok(Decision::Embedding(place)),
            Answer::Unsatisfiable { variables, clauses } => {
                let proof_bytes = path
                    .as_ref()
                    .and_then(|p| std::fs::metadata(p).ok())
                    .map_or(0, |m| m.len());
                Ok(Decision::Refuted(Refuted {
                    distances: dims.to_vec(),
                    by: "drat".to_string(),
                    search_nodes: 0,
                    proof: name,
                    variables,
                    clauses,
                    proof_bytes,
                    windings: windings != Winding::Off,
                    halved,
                    banded,
                    pinned: pin.is_some(),
                    propagated: false,
                    core: Vec::new(),
                }))
            }
        }
    }
}

/// The window lemma's band for `dims` on `h` under the winding lemma's
/// `form`, where the solver would use it: the lifted winding lemma applies
/// and halves the formula, and the folded part fills a window (None
/// elsewhere).
pub(in crate::optimal) fn window(
    h: &SearchHost,
    form: Winding,
    dims: &[u32],
) -> Option<crate::optimal::bounds::band::Window> {
    if form != Winding::Lifted
        || !crate::optimal::proof::sat::windings_apply(h, dims, Winding::Lifted)
    {
        return None;
    }
    let fold = crate::optimal::proof::sat::folding(h, dims, Winding::Lifted, true)?;
    crate::optimal::bounds::band::window(h.sides(), dims, fold)
}

/// The proof file of vector `dims`, relative to the certificate directory.
pub(in crate::optimal) fn proof_name(dims: &[u32]) -> String {
    let parts: Vec<String> = dims.iter().map(u32::to_string).collect();
    format!("proofs/{}.drat", parts.join("-"))
}
