//! `optimal` as a user asks it: which search a question runs, with which
//! budgets, after which estimate, and what its answer adds up to. The CLI
//! and the Python package both call [`answer`] and only print what it
//! returns, so the policies below (the solver alone for a certificate, the
//! work estimate of the whole tree, a certificate written after its search,
//! the tally of how vectors fell) live in one place.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::optimal::bounds::cuts::Bounds;
use crate::optimal::certificate;
use crate::optimal::search::bijection::{optimal_bijection, BestBijection};
use crate::optimal::search::constant::{
    estimate_nodes, optimal_constant, Optimum, SearchOptions, ESTIMATE_PROBES,
};
use crate::optimal::search::one_vector::{decide_vector, VectorDecision};
use crate::optimal::search::turns::Turns;
use crate::optimal::search::vectors::{optimal_by_vectors_admitted, Left, VectorSearch};
use crate::progress::Progress;
use crate::spec::Spec;
use crate::work::{self, rate, Estimate};

/// How a distance vector the bounds leave is decided (`--decide-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecideBy {
    /// The default: in turns as [`DecideBy::Turns`], but under the lift
    /// bounds the solver only at vectors whose formula a winding pair folds
    /// or pins ([`Turns::AUTO`], [`crate::optimal::vectors::SolverAt`]).
    Auto,
    /// The branch and bound and the SAT solver in turns, budgets growing
    /// four times each turn, the solver at every vector ([`Turns::DEFAULT`]).
    Turns,
    /// The branch and bound alone, in turns ([`Turns::SEARCH_ONLY`]).
    Search,
    /// The SAT solver alone, without a budget ([`Turns::SOLVER_ONLY`]).
    Solver,
}

impl DecideBy {
    /// The budgets this choice names.
    pub fn turns(self) -> Turns {
        match self {
            DecideBy::Auto => Turns::AUTO,
            DecideBy::Turns => Turns::DEFAULT,
            DecideBy::Search => Turns::SEARCH_ONLY,
            DecideBy::Solver => Turns::SOLVER_ONLY,
        }
    }

    /// The name the CLI and Python take.
    pub fn name(self) -> &'static str {
        match self {
            DecideBy::Auto => "auto",
            DecideBy::Turns => "turns",
            DecideBy::Search => "search",
            DecideBy::Solver => "solver",
        }
    }
}

impl std::str::FromStr for DecideBy {
    type Err = Error;

    fn from_str(s: &str) -> Result<DecideBy> {
        match s {
            "auto" => Ok(DecideBy::Auto),
            "turns" => Ok(DecideBy::Turns),
            "search" => Ok(DecideBy::Search),
            "solver" => Ok(DecideBy::Solver),
            other => Err(Error::Parameter(format!(
                "decide-by {other:?}: give auto, turns, search or solver"
            ))),
        }
    }
}

/// Which search answers the question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// The default: vector by vector after the bounds (`--sat`,
    /// `--certificate` too).
    Vectors,
    /// One branch and bound over every vector and placement
    /// (`--whole-tree`), its size estimated by random probes first.
    WholeTree,
    /// The least CC time over all bijections (`--all-bijections`).
    AllBijections,
    /// This one vector D_0..D_{d−1} (`--distances`).
    OneVector(Vec<u32>),
}

/// A question to [`answer`]: `optimal cube:D HOST` and its options.
#[derive(Debug, Clone)]
pub struct Question<'a> {
    /// The guest: `cube:D` ([`cube_dimension`] says why another is refused).
    pub guest: &'a Spec,
    /// A ring or torus.
    pub host: &'a Spec,
    pub method: Method,
    /// 0: no limit; else search nodes (whole tree, all bijections) or
    /// vectors decided (vectors).
    pub node_limit: u64,
    /// Write (or go on with) a certificate in this folder (vectors only).
    pub certificate: Option<&'a Path>,
    /// Save the search here and go on from it when it exists.
    pub checkpoint: Option<&'a Path>,
    /// The bounds that rule vectors out before any search ([`Bounds::Energy`]
    /// by default).
    pub bounds: Bounds,
    /// `None`: [`DecideBy::Auto`], or the solver alone with a certificate
    /// (so its refutations are all DRAT proofs).
    pub decide_by: Option<DecideBy>,
    /// Run whatever the estimate says (else a search estimated beyond the
    /// work limit is refused, see [`crate::work`]).
    pub force: bool,
}

impl<'a> Question<'a> {
    /// `optimal GUEST HOST` with every default.
    pub fn new(guest: &'a Spec, host: &'a Spec) -> Question<'a> {
        Question {
            guest,
            host,
            method: Method::Vectors,
            node_limit: 0,
            certificate: None,
            checkpoint: None,
            bounds: Bounds::Energy,
            decide_by: None,
            force: false,
        }
    }

    /// The budgets the vectors are decided with.
    pub fn turns(&self) -> Turns {
        match (self.certificate, self.decide_by, &self.method) {
            // A certificate's refutations are all DRAT proofs: by the
            // solver alone unless `decide_by` says otherwise, and then the
            // cores the branch and bound names are proved by the solver on
            // their own.
            (Some(_), None, Method::Vectors) => Turns::SOLVER_ONLY,
            (_, how, _) => how.unwrap_or(DecideBy::Auto).turns(),
        }
    }
}

/// How a running search is watched and stopped.
#[derive(Clone, Copy, Default)]
pub struct Watch<'a> {
    /// Set (by Ctrl-C, say) to stop with what has been found.
    pub stop: Option<&'a AtomicBool>,
    /// Counts the work done; [`Method::WholeTree`] adds its estimate (in
    /// units of 1024 nodes) as the total, [`Method::OneVector`] 1.
    pub progress: Option<&'a Arc<Progress>>,
    /// Told a long estimate before the work starts (the CLI prints it as a
    /// note on stderr).
    pub say: Option<&'a dyn Fn(&str)>,
}

/// How the refuted vectors of a search by vectors fell.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Vectors refuted in all.
    pub refuted: usize,
    /// Of them, by unit propagation on the window lemma's band (in a
    /// certificate each with the empty clause as its DRAT proof).
    pub by_propagation: usize,
    /// By the branch and bound (those citing a core's DRAT proof included).
    pub by_search: usize,
    /// Of those, by a sub-cube refuted before (no search of their own).
    pub by_earlier_cores: usize,
    /// Of those, citing the DRAT proof of a core (in a certificate).
    pub citing_cores: usize,
    /// The distinct cores they cite.
    pub cited_cores: usize,
    /// By the SAT solver.
    pub by_solver: usize,
    /// Decided by the stopped run this one went on from.
    pub resumed: usize,
}

impl Tally {
    /// Counts `search`'s refutations by how they fell.
    pub fn of(search: &VectorSearch) -> Tally {
        let refuted = &search.refuted;
        let by = |how: &str| refuted.iter().filter(|r| r.by == how).count();
        let citing: Vec<&[u32]> = refuted
            .iter()
            .filter(|r| r.by == "drat" && !r.core.is_empty())
            .map(|r| r.core.as_slice())
            .collect();
        let cited: std::collections::HashSet<&[u32]> = citing.iter().copied().collect();
        let by_propagation = refuted.iter().filter(|r| r.propagated).count() + by("propagation");
        let by_search = by("search") + citing.len();
        Tally {
            refuted: refuted.len(),
            by_propagation,
            by_search,
            by_earlier_cores: refuted
                .iter()
                .filter(|r| r.by == "search" && r.search_nodes == 0 && !r.core.is_empty())
                .count(),
            citing_cores: citing.len(),
            cited_cores: cited.len(),
            by_solver: refuted.len() - by_search - by_propagation,
            resumed: search.resumed,
        }
    }
}

/// What [`answer`] found.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "method")]
pub enum Answer {
    /// [`Method::Vectors`]: the search, how its vectors fell, and the
    /// certificate written (if one was asked).
    Vectors {
        search: VectorSearch,
        tally: Tally,
        certificate: Option<PathBuf>,
    },
    WholeTree {
        optimum: Optimum,
    },
    AllBijections {
        best: BestBijection,
    },
    OneVector {
        decision: VectorDecision,
    },
}

/// The cube dimension of a `cube:D` guest.
pub fn cube_dimension(guest: &Spec) -> Result<u32> {
    match guest {
        Spec::Cube(d) => Ok(*d),
        other => Err(Error::Mismatch(format!(
            "{other}: the search embeds hypercubes (cube:D) onto rings and tori"
        ))),
    }
}

/// Answers `question`: runs the search its method names, refusing first
/// a search estimated beyond the work limit unless `force` (the search by
/// vectors estimates the vectors its bounds leave, the work that will
/// run; the whole tree its nodes, by probes), and writes the certificate
/// asked for after a search by vectors (a stopped one's proves its lower
/// bound only).
pub fn answer(question: &Question, watch: Watch) -> Result<Answer> {
    let d = cube_dimension(question.guest)?;
    let host = question.host;
    let say = |note: Option<String>| {
        if let (Some(note), Some(say)) = (note, watch.say) {
            say(&note);
        }
    };
    let options = SearchOptions {
        node_limit: question.node_limit,
        stop: watch.stop,
        progress: watch.progress.map(Arc::as_ref),
        checkpoint: question.checkpoint,
    };
    Ok(match &question.method {
        Method::AllBijections => Answer::AllBijections {
            best: optimal_bijection(d, host, &options)?,
        },
        Method::OneVector(distances) => {
            if let Some(progress) = watch.progress {
                progress.add_total(1);
            }
            let options = SearchOptions {
                node_limit: 0,
                checkpoint: None,
                ..options
            };
            Answer::OneVector {
                decision: decide_vector(
                    d,
                    host,
                    distances,
                    &options,
                    question.turns(),
                    question.bounds,
                )?,
            }
        }
        Method::WholeTree => {
            // The whole tree's size (a checkpoint's remaining search is smaller).
            let nodes = estimate_nodes(d, host, ESTIMATE_PROBES)?;
            let estimate = Estimate {
                units: match question.node_limit {
                    0 => nodes,
                    limit => nodes.min(limit as f64),
                },
                unit: "search nodes",
                rate: rate::SEARCH_NODE,
            };
            say(work::admit("optimal", estimate, question.force)?);
            // The progress total runs on the estimate (units of 1024 nodes,
            // as counted); a tree too large to finish gets a counter only.
            if let (Some(progress), true) = (watch.progress, estimate.units < 1e15) {
                progress.add_total((estimate.units / 1024.0).ceil() as u64);
            }
            Answer::WholeTree {
                optimum: optimal_constant(d, host, &options)?,
            }
        }
        Method::Vectors => {
            // Named by an option, the search runs whatever its size.
            let run_anyway =
                question.force || question.certificate.is_some() || question.decide_by.is_some();
            let admit = |left: Left| -> Result<()> {
                say(work::admit(
                    "optimal",
                    left.estimate(question.node_limit),
                    run_anyway,
                )?);
                Ok(())
            };
            let search = optimal_by_vectors_admitted(
                d,
                host,
                &options,
                (question.certificate, question.turns(), question.bounds),
                &admit,
            )?;
            if let Some(dir) = question.certificate {
                certificate::write(dir, &search)?;
            }
            Answer::Vectors {
                tally: Tally::of(&search),
                search,
                certificate: question.certificate.map(Path::to_path_buf),
            }
        }
    })
}
