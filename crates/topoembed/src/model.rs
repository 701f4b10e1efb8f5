//! Cost models. The CC time of a compute-and-communicate d-cube algorithm
//! (xor paper §2.1, with the seeds' errata):
//!
//! ```text
//! T_f    = d·T_a + T_cf,      T_cf = max_n T_{d-1}(n)
//! T_i(n) = D_i(n)·T_c + max{ T_{i-1}(n), T_{i-1}(N_i(n)) },   T_{-1}(n) = 0
//! ```
//!
//! T_c is a common factor of every T_i(n), so the recurrence runs on the integer
//! sums I_i(n) = T_i(n) / T_c: exact, whatever T_a and T_c are. In stage i the
//! pair (n, N_i(n)) both end at max(I(n), I(N_i(n))) + D_i(n), so one array is
//! updated in place, pair by pair, in parallel. With constant distances no one
//! waits and T_f = d·(T_a + T_c·D_a) (§2.2).

use rayon::prelude::*;
use serde::Serialize;

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::progress::{self, Progress};
use crate::topology::Topology;

/// Largest array the recurrence may allocate (bytes).
pub const RECURRENCE_MEMORY_LIMIT: u64 = 4 << 30;

/// Pairs handled per batch: one virtual call maps and measures a whole batch.
const BATCH: usize = 1 << 12;

/// Integer outcome of the recurrence, in units of T_c.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recurrence {
    /// max_n I_{d-1}(n): T_cf / T_c.
    pub communication: u64,
    /// Sum over processes and stages of the waiting periods, / T_c.
    pub waiting: u128,
}

/// CC time of a run, in the units of T_a and T_c.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcTime {
    /// Duration of a compute phase.
    pub ta: f64,
    /// Cost of one message over one link.
    pub tc: f64,
    /// T_f, the time of the whole algorithm.
    pub time: f64,
    /// Total waiting time over all processes and stages.
    pub waiting: f64,
    /// d·(T_a + T_c·D_a) when distances are constant, else `None`.
    pub closed_form: Option<f64>,
    /// `"closed form"` (constant distances) or `"recurrence"`.
    pub computed_by: &'static str,
}

impl CcTime {
    /// From the closed form, for an embedding with constant distances D_i:
    /// d·(T_a + T_c·D_a), evaluated as d·T_a + T_c·sum_i D_i so that integer
    /// distances give an exact time (D_a itself is rarely a finite binary fraction).
    pub fn constant(ta: f64, tc: f64, distances: &[u64]) -> CcTime {
        let d = distances.len() as f64;
        let closed = d * ta + tc * distances.iter().sum::<u64>() as f64;
        CcTime {
            ta,
            tc,
            time: closed,
            waiting: 0.0,
            closed_form: Some(closed),
            computed_by: "closed form",
        }
    }

    /// From the recurrence's integer result for a `dim`-cube.
    pub fn from_recurrence(
        ta: f64,
        tc: f64,
        dim: u32,
        r: &Recurrence,
        closed_form: Option<f64>,
    ) -> CcTime {
        CcTime {
            ta,
            tc,
            time: f64::from(dim) * ta + tc * r.communication as f64,
            waiting: tc * r.waiting as f64,
            closed_form,
            computed_by: "recurrence",
        }
    }
}

/// Checks the model constants: finite and not negative.
pub fn check_costs(ta: f64, tc: f64) -> Result<()> {
    for (name, v) in [("--ta", ta), ("--tc", tc)] {
        if !v.is_finite() || v < 0.0 {
            return Err(Error::Parameter(format!(
                "{name} must be a finite number >= 0, got {v}"
            )));
        }
    }
    Ok(())
}

/// Runs the recurrence for a `dim`-cube guest placed by `embedding` on `host`.
/// Memory: one counter per guest node (u32 when the sums fit, else u64).
pub fn cc_recurrence(
    dim: u32,
    embedding: &dyn Embedding,
    host: &dyn Topology,
    progress: Option<&Progress>,
) -> Result<Recurrence> {
    let stages: Vec<u32> = (0..dim).collect();
    cc_recurrence_stages(dim, &stages, embedding, host, progress)
}

/// The recurrence for an algorithm whose stage k exchanges along cube
/// dimension `stages[k]` (the CC d-cube algorithm is `0, 1, .., d-1`;
/// bitonic sort is `0; 1, 0; 2, 1, 0; ..`): the same rule
/// I(n), I(N(n)) <- max(I(n), I(N(n))) + D(n), one stage after another.
pub fn cc_recurrence_stages(
    dim: u32,
    stages: &[u32],
    embedding: &dyn Embedding,
    host: &dyn Topology,
    progress: Option<&Progress>,
) -> Result<Recurrence> {
    if let Some(bad) = stages.iter().find(|&&s| s >= dim) {
        return Err(Error::Parameter(format!(
            "stage along dimension {bad} in a {dim}-cube (dimensions are 0..{dim})"
        )));
    }
    let nodes = 1u64 << dim;
    // No chain is longer than one message per stage of at most the longest distance each.
    let bound = (stages.len() as u64).saturating_mul(host.distance_bound());
    let narrow = bound <= u64::from(u32::MAX);
    let bytes = nodes * if narrow { 4 } else { 8 };
    if bytes > RECURRENCE_MEMORY_LIMIT {
        return Err(Error::Parameter(format!(
            "the CC recurrence for cube:{dim} needs {} GiB (one counter per process), more than \
             the {} GiB allowed; it is only needed when distances are not constant",
            bytes >> 30,
            RECURRENCE_MEMORY_LIMIT >> 30
        )));
    }
    if let Some(p) = progress {
        p.add_total(stages.len() as u64 * nodes / 2);
    }
    if narrow {
        run::<u32>(dim, stages, embedding, host, progress)
    } else {
        run::<u64>(dim, stages, embedding, host, progress)
    }
}

/// A counter cell of the recurrence (u32 or u64).
trait Cell: Copy + Ord + Default + Send + Sync + Into<u64> + TryFrom<u64> {}
impl Cell for u32 {}
impl Cell for u64 {}

fn run<T: Cell>(
    dim: u32,
    stages: &[u32],
    embedding: &dyn Embedding,
    host: &dyn Topology,
    progress: Option<&Progress>,
) -> Result<Recurrence> {
    let mut time = vec![T::default(); 1usize << dim];
    let mut waiting = 0u128;
    for &stage in stages {
        waiting += run_stage(&mut time, stage, embedding, host, progress)?;
    }
    let communication = time.par_iter().map(|&t| t.into()).max().unwrap_or(0);
    Ok(Recurrence {
        communication,
        waiting,
    })
}

/// Stage `stage`: every pair (n, n + 2^stage) with bit `stage` of n clear.
/// Returns the waiting this stage adds (in units of T_c).
fn run_stage<T: Cell>(
    time: &mut [T],
    stage: u32,
    embedding: &dyn Embedding,
    host: &dyn Topology,
    progress: Option<&Progress>,
) -> Result<u128> {
    let half = 1usize << stage;
    let block = 2 * half;
    if block <= BATCH {
        // Small blocks: a batch holds whole blocks, both halves of each.
        time.par_chunks_mut(BATCH.min(time.len()))
            .enumerate()
            .map(|(c, chunk)| {
                let base = (c * BATCH) as u64;
                let blocks = chunk.chunks_mut(block).enumerate().map(|(b, blk)| {
                    let (lo, hi) = blk.split_at_mut(half);
                    (base + (b * block) as u64, lo, hi)
                });
                update_pairs(blocks, half as u64, embedding, host, progress)
            })
            .sum()
    } else {
        // Large blocks: split each block's halves into matching batches.
        time.par_chunks_mut(block)
            .enumerate()
            .flat_map(|(b, blk)| {
                let (lo, hi) = blk.split_at_mut(half);
                lo.par_chunks_mut(BATCH)
                    .zip(hi.par_chunks_mut(BATCH))
                    .enumerate()
                    .map(move |(c, (l, h))| ((b * block + c * BATCH) as u64, l, h))
            })
            .map(|(first, lo, hi)| {
                update_pairs(
                    std::iter::once((first, lo, hi)),
                    half as u64,
                    embedding,
                    host,
                    progress,
                )
            })
            .sum()
    }
}

/// Applies I(n), I(m) <- max(I(n), I(m)) + D(n, m) to runs of pairs: `lo[k]` is
/// guest `first + k`, `hi[k]` its partner `first + k + half`.
fn update_pairs<'a, T: Cell + 'a>(
    runs: impl Iterator<Item = (u64, &'a mut [T], &'a mut [T])>,
    half: u64,
    embedding: &dyn Embedding,
    host: &dyn Topology,
    progress: Option<&Progress>,
) -> Result<u128> {
    let runs: Vec<_> = runs.collect();
    let count: usize = runs.iter().map(|(_, lo, _)| lo.len()).sum();
    let mut n = Vec::with_capacity(count);
    let mut m = Vec::with_capacity(count);
    for (first, lo, _) in &runs {
        for k in 0..lo.len() as u64 {
            n.push(first + k);
            m.push(first + k + half);
        }
    }
    let (mut hn, mut hm, mut dil) = (vec![0; count], vec![0; count], vec![0; count]);
    embedding.map_many(&n, &mut hn);
    embedding.map_many(&m, &mut hm);
    host.distances(&hn, &hm, &mut dil);
    let mut waiting = 0u128;
    let mut dil = dil.into_iter();
    for (_, lo, hi) in runs {
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let d = dil.next().unwrap_or(0);
            let (x, y): (u64, u64) = ((*a).into(), (*b).into());
            waiting += u128::from(x.abs_diff(y));
            let next = T::try_from(x.max(y) + d).map_err(|_| {
                Error::Internal("CC recurrence counter overflowed its bound".into())
            })?;
            *a = next;
            *b = next;
        }
    }
    progress::advance(progress, count as u64);
    Ok(waiting)
}

/// Constants of the modelled clock.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Costs {
    /// T_a: one compute phase.
    pub ta: f64,
    /// T_c: one message over one link.
    pub tc: f64,
    /// T_b: one byte over one link (0 in the xor paper's model).
    pub tb: f64,
}

impl Default for Costs {
    /// T_a = 0, T_c = 1, T_b = 0: times count link hops.
    fn default() -> Self {
        Costs {
            ta: 0.0,
            tc: 1.0,
            tb: 0.0,
        }
    }
}

impl Costs {
    /// An error unless every constant is finite and not negative.
    pub fn check(&self) -> Result<()> {
        check_costs(self.ta, self.tc)?;
        if !self.tb.is_finite() || self.tb < 0.0 {
            return Err(Error::Parameter(format!(
                "--tb must be a finite number >= 0, got {}",
                self.tb
            )));
        }
        Ok(())
    }

    /// Cost of a message of `values` f64s over `hops` links.
    pub fn message(&self, hops: u64, values: usize) -> f64 {
        hops as f64 * (self.tc + self.tb * (8 * values) as f64)
    }
}
