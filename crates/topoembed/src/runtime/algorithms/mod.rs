//! Algorithms written once against a [`VirtualTopology`] and a [`Process`],
//! each checking its own result: Cannon's matrix multiplication on a torus
//! guest; FFT, bitonic sort and allreduce as compute-and-communicate
//! algorithms on a cube guest.
//!
//! [`Problem::new`] checks that an algorithm, a size and a virtual topology
//! fit; [`Problem::prepare`] computes the reference result once;
//! [`rank_program`] is what every rank runs (in process or over MPI);
//! [`run_local`] runs all ranks in this process and sums up.

pub mod allreduce;
pub mod bitonic;
pub mod cannon;
mod data;
pub mod fft;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::{local, Costs, Process, RankStats, Transport};
use crate::error::{Error, Result};
use crate::model;
use crate::simulate::{Op, Trace};
use crate::spec::Spec;
use crate::topology::Topology;
use crate::virtual_topology::{Direction, VirtualTopology};

/// Largest data size (points, keys, vector length, matrix entries) a run takes.
pub const MAX_ELEMENTS: u64 = 1 << 26;

/// The algorithms `run` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Cannon's matrix multiplication on a q x q torus guest.
    Cannon,
    /// Radix-2 FFT on a cube guest.
    Fft,
    /// Bitonic sort on a cube guest.
    Bitonic,
    /// Recursive-doubling allreduce on a cube guest.
    Allreduce,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Cannon,
        Algorithm::Fft,
        Algorithm::Bitonic,
        Algorithm::Allreduce,
    ];

    /// Name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Cannon => "cannon",
            Algorithm::Fft => "fft",
            Algorithm::Bitonic => "bitonic",
            Algorithm::Allreduce => "allreduce",
        }
    }

    /// What `--n` means for it.
    pub fn size_meaning(self) -> &'static str {
        match self {
            Algorithm::Cannon => "matrix order N (A, B, C are N x N) or MxKxN (A is MxK, B is KxN)",
            Algorithm::Fft => "points, a power of two >= the ranks",
            Algorithm::Bitonic => "keys, a multiple of the ranks",
            Algorithm::Allreduce => "length of every rank's vector",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                Error::Parameter(format!(
                    "unknown algorithm '{s}'; known: cannon, fft, bitonic, allreduce"
                ))
            })
    }
}

/// Whether a rank's result matched the reference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Check {
    /// `error <= tolerance`.
    pub passed: bool,
    /// Largest absolute difference (fft, cannon) or number of wrong values
    /// (bitonic, allreduce: their results must be exact).
    pub error: f64,
    /// Largest error allowed.
    pub tolerance: f64,
}

impl Check {
    /// A check with `error` against `tolerance`.
    pub fn new(error: f64, tolerance: f64) -> Check {
        Check {
            passed: error <= tolerance,
            error,
            tolerance,
        }
    }

    fn worst(self, other: Check) -> Check {
        Check {
            passed: self.passed && other.passed,
            error: self.error.max(other.error),
            tolerance: self.tolerance.max(other.tolerance),
        }
    }
}

/// An algorithm with its size, checked against a virtual topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Cannon on a q x q torus.
    Cannon {
        /// Side of the torus.
        q: u64,
        /// Matrix sizes.
        shape: cannon::Shape,
    },
    /// FFT of `n` points on a `dim`-cube.
    Fft {
        /// Cube dimension.
        dim: u32,
        /// Points.
        n: u64,
    },
    /// Bitonic sort of `n` keys on a `dim`-cube.
    Bitonic {
        /// Cube dimension.
        dim: u32,
        /// Keys.
        n: u64,
    },
    /// Allreduce of vectors of `len` on a `dim`-cube.
    Allreduce {
        /// Cube dimension.
        dim: u32,
        /// Vector length.
        len: u64,
    },
}

/// The reference result, computed once.
#[derive(Debug, Clone)]
pub enum Reference {
    /// The transform, and what computed it.
    Fft(Vec<fft::Complex>, &'static str),
    /// The sorted keys.
    Sorted(Vec<f64>),
    /// The sum vector.
    Sum(Vec<f64>),
    /// C = A·B, row-major.
    Product(Vec<f64>),
}

/// Parses `--n`: a count (`4096`, `2^12`) or, for Cannon, `MxKxN`.
fn parse_size(text: &str) -> Result<Vec<u64>> {
    let bad = || {
        Error::Parameter(format!(
            "--n '{text}' is not a size; write a count such as 1024 or 2^10 (Cannon also MxKxN)"
        ))
    };
    text.split('x')
        .map(|part| {
            let part = part.trim();
            let v = match part.split_once('^') {
                Some(("2", e)) => {
                    let e: u32 = e.parse().map_err(|_| bad())?;
                    1u64.checked_shl(e).filter(|_| e < 63).ok_or_else(bad)?
                }
                Some(_) => return Err(bad()),
                None => part.parse().map_err(|_| bad())?,
            };
            if v == 0 {
                return Err(Error::Parameter(format!(
                    "--n '{text}': sizes must be at least 1"
                )));
            }
            Ok(v)
        })
        .collect()
}

impl Problem {
    /// Checks that `algorithm` can run on `vt` with size `size` (its
    /// default when `None`: one point / key / element per rank, vectors of 1).
    pub fn new(algorithm: Algorithm, vt: &VirtualTopology, size: Option<&str>) -> Result<Problem> {
        let guest = vt.guest();
        let ranks = vt.size();
        if ranks > local::MAX_RANKS {
            return Err(Error::Parameter(format!(
                "{} has {ranks} ranks; runs take at most {}",
                vt.host().spec(),
                local::MAX_RANKS
            )));
        }
        let problem = Problem::for_guest(algorithm, guest, size)?;
        if !vt.is_one_to_one() {
            return Err(Error::Mismatch(format!(
                "running a program needs one guest node per rank; '{}' places {} on {} \
                 many-to-one (or leaves ranks empty); use a one-to-one method",
                vt.embedding().method(),
                guest.spec(),
                vt.host().spec()
            )));
        }
        Ok(problem)
    }

    /// Checks that `algorithm` fits `guest` (one process per guest node)
    /// with size `size`, whatever the host: the problem a simulated trace of
    /// the algorithm's structure stands for.
    pub fn for_guest(
        algorithm: Algorithm,
        guest: &dyn Topology,
        size: Option<&str>,
    ) -> Result<Problem> {
        let sizes = size.map(parse_size).transpose()?;
        match algorithm {
            Algorithm::Cannon => cannon_problem(guest.spec(), sizes.as_deref()),
            _ => cube_problem(
                algorithm,
                guest.spec(),
                guest.node_count(),
                sizes.as_deref(),
            ),
        }
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            Problem::Cannon { .. } => Algorithm::Cannon,
            Problem::Fft { .. } => Algorithm::Fft,
            Problem::Bitonic { .. } => Algorithm::Bitonic,
            Problem::Allreduce { .. } => Algorithm::Allreduce,
        }
    }

    /// The size in words.
    pub fn describe(&self) -> String {
        match self {
            Problem::Cannon { q, shape } => format!(
                "A {}x{} times B {}x{}, blocks {}x{} and {}x{}",
                shape.m,
                shape.k,
                shape.k,
                shape.n,
                shape.m / q,
                shape.k / q,
                shape.k / q,
                shape.n / q
            ),
            Problem::Fft { dim, n } => format!("{n} points, {} per rank", n >> dim),
            Problem::Bitonic { dim, n } => format!("{n} keys, {} per rank", n >> dim),
            Problem::Allreduce { len, .. } => format!("vectors of {len}"),
        }
    }

    /// What `Check::error` counts.
    pub fn error_meaning(&self) -> &'static str {
        match self {
            Problem::Cannon { .. } | Problem::Fft { .. } => "largest absolute difference",
            Problem::Bitonic { .. } => "keys out of place",
            Problem::Allreduce { .. } => "sums that differ",
        }
    }

    /// The exchanges of a CC cube algorithm (cube dimension of each stage),
    /// the compute phases of a run and the f64s in every message; `None`
    /// for Cannon.
    pub fn cc_structure(&self) -> Option<(Vec<u32>, u64, usize)> {
        match *self {
            Problem::Fft { dim, n } => {
                let m = n >> dim;
                let phases = u64::from(dim + m.trailing_zeros());
                Some(((0..dim).collect(), phases, 2 * m as usize))
            }
            Problem::Bitonic { dim, n } => {
                let stages = bitonic::stages(dim);
                let phases = 1 + stages.len() as u64;
                Some((stages, phases, (n >> dim) as usize))
            }
            Problem::Allreduce { dim, len } => {
                Some(((0..dim).collect(), u64::from(dim), len as usize))
            }
            Problem::Cannon { .. } => None,
        }
    }

    /// Computes the reference result.
    pub fn prepare(&self) -> Reference {
        match self {
            Problem::Fft { n, .. } => {
                let (x, how) = fft::reference(*n);
                Reference::Fft(x, how)
            }
            Problem::Bitonic { n, .. } => Reference::Sorted(bitonic::reference(*n)),
            Problem::Allreduce { dim, len } => Reference::Sum(allreduce::reference(1 << dim, *len)),
            Problem::Cannon { shape, .. } => Reference::Product(cannon::reference(shape)),
        }
    }
}

/// The guest node `rank` plays (one-to-one, checked by [`Problem::new`]).
fn guest_of(vt: &VirtualTopology, rank: u64) -> Result<u64> {
    vt.guest_of(rank)
        .ok_or_else(|| Error::Internal(format!("rank {rank} plays no guest node")))
}

/// The rank playing `rank`'s guest neighbour in direction `dir`.
fn peer(vt: &VirtualTopology, rank: u64, dir: Direction) -> Result<u64> {
    vt.neighbor(rank, dir)
        .ok_or_else(|| Error::Internal(format!("rank {rank} has no neighbour towards {dir:?}")))
}

/// Cannon on a square torus guest, sizes N or MxKxN, multiples of Q.
fn cannon_problem(guest: &Spec, sizes: Option<&[u64]>) -> Result<Problem> {
    let q = match guest {
        Spec::Torus(s) if s.len() == 2 && s[0] == s[1] && s[0] >= 2 => s[0],
        _ => {
            return Err(Error::Mismatch(format!(
                "cannon runs on a square 2-D torus guest (torus:QxQ, Q >= 2), not {guest}"
            )))
        }
    };
    let shape = match sizes {
        None => cannon::Shape { m: q, k: q, n: q },
        Some(&[n]) => cannon::Shape { m: n, k: n, n },
        Some(&[m, k, n]) => cannon::Shape { m, k, n },
        Some(_) => return Err(Error::Parameter("cannon takes --n N or --n MxKxN".into())),
    };
    for (name, v) in [("M", shape.m), ("K", shape.k), ("N", shape.n)] {
        if v % q != 0 {
            return Err(Error::Parameter(format!(
                "cannon on a {q} x {q} torus cuts matrices into {q} x {q} blocks; \
                 {name} = {v} is not a multiple of {q}"
            )));
        }
    }
    let matrices = [
        shape.m.checked_mul(shape.k),
        shape.k.checked_mul(shape.n),
        shape.m.checked_mul(shape.n),
    ];
    if matrices
        .iter()
        .any(|e| e.map_or(true, |e| e > MAX_ELEMENTS))
    {
        return Err(too_big(Algorithm::Cannon));
    }
    Ok(Problem::Cannon { q, shape })
}

/// FFT, bitonic sort or allreduce on a cube guest of `ranks` nodes.
fn cube_problem(
    algorithm: Algorithm,
    guest: &Spec,
    ranks: u64,
    sizes: Option<&[u64]>,
) -> Result<Problem> {
    let Spec::Cube(dim) = *guest else {
        let hint = if matches!(guest, Spec::Torus(_)) {
            " (cannon runs on a torus guest)"
        } else {
            ""
        };
        return Err(Error::Mismatch(format!(
            "{algorithm} is a d-cube algorithm: the guest must be cube:D, not {guest}{hint}"
        )));
    };
    let size = |default: u64| -> Result<u64> {
        match sizes {
            None => Ok(default),
            Some(&[v]) => Ok(v),
            Some(_) => Err(Error::Parameter(format!(
                "{algorithm} takes one size (--n: {}), not MxKxN",
                algorithm.size_meaning()
            ))),
        }
    };
    let (problem, elements) = match algorithm {
        Algorithm::Fft => {
            let n = size(ranks)?;
            if !n.is_power_of_two() || n < ranks {
                return Err(Error::Parameter(format!(
                    "fft needs n a power of two with at least one point per rank \
                     (n >= {ranks}); got {n}"
                )));
            }
            (Problem::Fft { dim, n }, n)
        }
        Algorithm::Bitonic => {
            let n = size(ranks)?;
            if n % ranks != 0 {
                return Err(Error::Parameter(format!(
                    "bitonic sort gives every rank the same number of keys: n must be a \
                     multiple of {ranks}; got {n}"
                )));
            }
            (Problem::Bitonic { dim, n }, n)
        }
        _ => {
            let len = size(1)?;
            (Problem::Allreduce { dim, len }, len.saturating_mul(ranks))
        }
    };
    if elements > MAX_ELEMENTS {
        return Err(too_big(algorithm));
    }
    Ok(problem)
}

fn too_big(algorithm: Algorithm) -> Error {
    Error::Parameter(format!(
        "{algorithm}: the data would exceed {MAX_ELEMENTS} values (2^26); choose a smaller --n"
    ))
}

/// What every rank runs: the algorithm, then its check.
pub async fn rank_program<T: Transport>(
    p: &mut Process<T>,
    vt: &VirtualTopology,
    problem: &Problem,
    reference: &Reference,
) -> Result<Check> {
    match (*problem, reference) {
        (Problem::Fft { dim, n }, Reference::Fft(x, _)) => fft::run(p, vt, dim, n, x).await,
        (Problem::Bitonic { dim, n }, Reference::Sorted(x)) => bitonic::run(p, vt, dim, n, x).await,
        (Problem::Allreduce { dim, len }, Reference::Sum(x)) => {
            allreduce::run(p, vt, dim, len, x).await
        }
        (Problem::Cannon { q, shape }, Reference::Product(x)) => {
            cannon::run(p, vt, q, &shape, x).await
        }
        _ => Err(Error::Internal(
            "the reference does not belong to the problem".into(),
        )),
    }
}

/// The CC recurrence's prediction for a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    /// phases · T_a + I · (T_c + bytes · T_b): what the run's modelled time must be.
    pub time: f64,
    /// Waiting over all ranks.
    pub waiting: f64,
    /// Exchanges per rank.
    pub stages: usize,
    /// Compute phases per rank.
    pub phases: u64,
}

/// What a run did.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// Algorithm name.
    pub algorithm: Algorithm,
    /// Guest spec.
    pub guest: String,
    /// Host spec.
    pub host: String,
    /// Method.
    pub method: String,
    /// How ranks found their neighbours.
    pub lookup: &'static str,
    /// Number of ranks.
    pub ranks: u64,
    /// The problem size in words.
    pub size: String,
    /// The check over all ranks (worst rank).
    pub check: Check,
    /// What the check's error counts.
    pub error_meaning: &'static str,
    /// What the reference result came from.
    pub reference: &'static str,
    /// Ranks whose check failed.
    pub ranks_failed: u64,
    /// Messages sent.
    pub messages: u64,
    /// Sum of message hops.
    pub hops: u64,
    /// Payload bytes sent.
    pub bytes: u64,
    /// Modelled time: the latest clock.
    pub modelled_time: f64,
    /// Waiting summed over ranks.
    pub waiting: f64,
    /// Model constants.
    pub costs: Costs,
    /// The CC recurrence over the algorithm's stages (cube algorithms).
    pub predicted: Option<Prediction>,
    /// Wall time of the run itself (not the reference), seconds.
    pub wall_seconds: f64,
    /// Every rank's statistics, by rank.
    #[serde(skip)]
    pub per_rank: Vec<RankStats>,
}

/// Runs `problem` on every rank of `vt` in this process.
pub fn run_local(vt: &VirtualTopology, problem: &Problem, costs: Costs) -> Result<RunReport> {
    Ok(run_in_process(vt, problem, costs, false)?.0)
}

/// Runs `problem` like [`run_local`] and records every rank's operations:
/// the trace the simulator replays (ranks are processes, rank r on host node r).
pub fn run_traced(
    vt: &VirtualTopology,
    problem: &Problem,
    costs: Costs,
) -> Result<(RunReport, Trace)> {
    let (report, ops) = run_in_process(vt, problem, costs, true)?;
    let trace = Trace {
        placement: (0..vt.size()).collect(),
        ops,
        source: format!(
            "in-process run of {} ({})",
            problem.algorithm(),
            problem.describe()
        ),
    };
    Ok((report, trace))
}

fn run_in_process(
    vt: &VirtualTopology,
    problem: &Problem,
    costs: Costs,
    record: bool,
) -> Result<(RunReport, Vec<Vec<Op>>)> {
    costs.check()?;
    let reference = Arc::new(problem.prepare());
    let shared = Arc::new(vt.clone());
    let started = Instant::now();
    let results = local::run(vt.shared_host(), costs, |mut p| {
        let (vt, reference, problem) = (Arc::clone(&shared), Arc::clone(&reference), *problem);
        async move {
            if record {
                p.record();
            }
            let check = rank_program(&mut p, &vt, &problem, &reference).await?;
            Ok(((check, p.stats()), p.take_trace()))
        }
    })?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let (results, ops): (Vec<_>, Vec<_>) = results.into_iter().unzip();
    let report = summarise(vt, problem, &reference, costs, results, wall_seconds)?;
    Ok((report, ops))
}

/// Adds up the ranks' checks and statistics, with the prediction.
pub fn summarise(
    vt: &VirtualTopology,
    problem: &Problem,
    reference: &Reference,
    costs: Costs,
    results: Vec<(Check, RankStats)>,
    wall_seconds: f64,
) -> Result<RunReport> {
    let check = results
        .iter()
        .map(|(c, _)| *c)
        .reduce(Check::worst)
        .ok_or_else(|| Error::Internal("a run with no ranks".into()))?;
    let per_rank: Vec<RankStats> = results.iter().map(|(_, s)| *s).collect();
    Ok(RunReport {
        algorithm: problem.algorithm(),
        guest: vt.guest().spec().to_string(),
        host: vt.host().spec().to_string(),
        method: vt.embedding().method().to_string(),
        lookup: vt.lookup(),
        ranks: vt.size(),
        size: problem.describe(),
        check,
        error_meaning: problem.error_meaning(),
        reference: match reference {
            Reference::Fft(_, how) => how,
            Reference::Sorted(_) => "sequential sort",
            Reference::Sum(_) => "sequential sum",
            Reference::Product(_) => "sequential matrix product",
        },
        ranks_failed: results.iter().filter(|(c, _)| !c.passed).count() as u64,
        messages: per_rank.iter().map(|s| s.messages).sum(),
        hops: per_rank.iter().map(|s| s.hops).sum(),
        bytes: per_rank.iter().map(|s| s.bytes).sum(),
        modelled_time: per_rank.iter().map(|s| s.clock).fold(0.0, f64::max),
        waiting: per_rank.iter().map(|s| s.waiting).sum(),
        costs,
        predicted: predict(vt, problem, costs)?,
        wall_seconds,
        per_rank,
    })
}

/// The CC recurrence over the problem's stages, when it is a cube algorithm.
pub fn predict(
    vt: &VirtualTopology,
    problem: &Problem,
    costs: Costs,
) -> Result<Option<Prediction>> {
    let (Some((stages, phases, values)), Spec::Cube(dim)) =
        (problem.cc_structure(), vt.guest().spec())
    else {
        return Ok(None);
    };
    let r = model::cc_recurrence_stages(*dim, &stages, vt.embedding(), vt.host(), None)?;
    let unit = costs.message(1, values);
    Ok(Some(Prediction {
        time: phases as f64 * costs.ta + r.communication as f64 * unit,
        waiting: r.waiting as f64 * unit,
        stages: stages.len(),
        phases,
    }))
}
