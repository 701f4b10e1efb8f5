//! What a program did, as the simulator replays it: for every process, its
//! operations in order, and the host node it runs on.
//!
//! A trace comes from a real run ([`crate::runtime::Process`] records one
//! when asked: processes are ranks, each on its own host node) or is built
//! from a program's structure: [`Trace::cc`] for a CC d-cube algorithm (the
//! xor paper's stages: compute, then exchange along one dimension) and
//! [`Trace::halo`] for a neighbour exchange on any guest. Built traces have
//! one process per guest node, placed by the embedding, so many-to-one
//! embeddings put several processes on one host node.

use serde::Serialize;

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::runtime::algorithms::Problem;
use crate::topology::Topology;

/// One operation of a process; processes are numbered `0..processes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    /// `phases` compute phases of T_a each.
    Compute {
        /// Number of phases.
        phases: u64,
    },
    /// A buffered send of `values` f64s: the sender does not wait for the receiver.
    Send {
        /// Receiving process.
        to: u64,
        /// Tag; receives match on (sender, tag), in order.
        tag: u32,
        /// Payload length in f64s.
        values: u64,
    },
    /// A blocking receive of the next message from `from` with `tag`.
    Receive {
        /// Sending process.
        from: u64,
        /// Tag.
        tag: u32,
    },
    /// Send to `to` and receive from `from` at once (MPI_Sendrecv; an
    /// exchange when `to == from`).
    SendRecv {
        /// Receiving process of the outgoing message.
        to: u64,
        /// Payload length of the outgoing message in f64s.
        values: u64,
        /// Sending process of the incoming message.
        from: u64,
        /// Tag of both.
        tag: u32,
    },
    /// Every process waits for every other.
    Barrier,
}

/// The operations of every process and where each process runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Host node of each process.
    pub placement: Vec<u64>,
    /// Operations of each process, in program order.
    pub ops: Vec<Vec<Op>>,
    /// Where the trace came from, in words.
    pub source: String,
}

impl Trace {
    /// Number of processes.
    pub fn processes(&self) -> u64 {
        self.ops.len() as u64
    }

    /// Operations over all processes.
    pub fn op_count(&self) -> u64 {
        self.ops.iter().map(|o| o.len() as u64).sum()
    }

    /// The trace of a CC d-cube algorithm (xor paper §2.1): process n (guest
    /// node n, on host node f(n)) runs `first` compute phases of local work
    /// (none in the paper's model), then, for each stage dimension i in
    /// `stages`, one compute phase and an exchange of `values` f64s with its
    /// neighbour n xor 2^i.
    pub fn cc(
        dim: u32,
        first: u64,
        stages: &[u32],
        values: u64,
        embedding: &dyn Embedding,
    ) -> Result<Trace> {
        if let Some(bad) = stages.iter().find(|&&s| s >= dim) {
            return Err(Error::Parameter(format!(
                "stage along dimension {bad} in a {dim}-cube (dimensions are 0..{dim})"
            )));
        }
        let nodes = checked_processes(1u64.checked_shl(dim).filter(|_| dim < 64))?;
        let local = (first > 0).then_some(Op::Compute { phases: first });
        let ops = (0..nodes)
            .map(|n| {
                local
                    .into_iter()
                    .chain(stages.iter().flat_map(|&i| {
                        let partner = n ^ (1u64 << i);
                        [
                            Op::Compute { phases: 1 },
                            Op::SendRecv {
                                to: partner,
                                values,
                                from: partner,
                                tag: i,
                            },
                        ]
                    }))
                    .collect()
            })
            .collect();
        Ok(Trace {
            placement: placement(nodes, embedding),
            ops,
            source: format!("CC {dim}-cube algorithm, {} stages", stages.len()),
        })
    }

    /// The CC trace of a cube algorithm's problem ([`Problem::cc_structure`]):
    /// its local phases first, then its stages, messages of its size.
    pub fn of_problem(problem: &Problem, embedding: &dyn Embedding) -> Result<Trace> {
        let Some((stages, phases, values)) = problem.cc_structure() else {
            return Err(Error::Mismatch(format!(
                "{} is not a CC d-cube algorithm; simulate a recorded run of it instead",
                problem.algorithm()
            )));
        };
        let dim = match *problem {
            Problem::Fft { dim, .. }
            | Problem::Bitonic { dim, .. }
            | Problem::Allreduce { dim, .. } => dim,
            Problem::Cannon { .. } => unreachable!("Cannon has no CC structure"),
        };
        let first = phases - stages.len() as u64;
        let mut trace = Trace::cc(dim, first, &stages, values as u64, embedding)?;
        trace.source = format!(
            "CC structure of {} ({}): {} stages",
            problem.algorithm(),
            problem.describe(),
            stages.len()
        );
        Ok(trace)
    }

    /// A neighbour (halo) exchange on any guest: `iterations` times, every
    /// process computes one phase, sends `values` f64s to each guest
    /// neighbour and then receives from each. Sends are buffered, so the
    /// order cannot deadlock.
    pub fn halo(
        guest: &dyn Topology,
        embedding: &dyn Embedding,
        iterations: u32,
        values: u64,
    ) -> Result<Trace> {
        let nodes = checked_processes(Some(guest.node_count()))?;
        let ops = (0..nodes)
            .map(|n| {
                let neighbours = guest.neighbors(n);
                let mut ops = Vec::with_capacity(iterations as usize * (1 + 2 * neighbours.len()));
                for it in 0..iterations {
                    ops.push(Op::Compute { phases: 1 });
                    let tag = it % (crate::runtime::MAX_TAG + 1);
                    ops.extend(neighbours.iter().map(|&to| Op::Send { to, tag, values }));
                    ops.extend(neighbours.iter().map(|&from| Op::Receive { from, tag }));
                }
                ops
            })
            .collect();
        Ok(Trace {
            placement: placement(nodes, embedding),
            ops,
            source: format!("halo exchange on {}, {iterations} iterations", guest.spec()),
        })
    }

    /// An error unless every process is placed on a node of `host` and every
    /// operation addresses a process of the trace.
    pub fn check(&self, host: &dyn Topology) -> Result<()> {
        if self.placement.len() != self.ops.len() {
            return Err(Error::Mismatch(format!(
                "the trace places {} processes but has operations for {}",
                self.placement.len(),
                self.ops.len()
            )));
        }
        if let Some((p, &h)) = self
            .placement
            .iter()
            .enumerate()
            .find(|&(_, &h)| h >= host.node_count())
        {
            return Err(Error::Mismatch(format!(
                "process {p} is placed on host node {h}, but {} has {} nodes",
                host.spec(),
                host.node_count()
            )));
        }
        let n = self.processes();
        for (p, ops) in self.ops.iter().enumerate() {
            for op in ops {
                let peers = match *op {
                    Op::Send { to, .. } => [to, to],
                    Op::Receive { from, .. } => [from, from],
                    Op::SendRecv { to, from, .. } => [to, from],
                    Op::Compute { .. } | Op::Barrier => continue,
                };
                if let Some(bad) = peers.into_iter().find(|&q| q >= n) {
                    return Err(Error::Parameter(format!(
                        "process {p} addresses process {bad}, but the trace has {n} processes"
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Largest trace built from a structure (one op list per process).
pub const MAX_PROCESSES: u64 = 1 << 22;

fn checked_processes(nodes: Option<u64>) -> Result<u64> {
    match nodes {
        Some(n) if n <= MAX_PROCESSES => Ok(n),
        _ => Err(Error::Parameter(format!(
            "a simulated trace takes at most {MAX_PROCESSES} processes (2^22)"
        ))),
    }
}

fn placement(nodes: u64, embedding: &dyn Embedding) -> Vec<u64> {
    let guests: Vec<u64> = (0..nodes).collect();
    let mut hosts = vec![0; nodes as usize];
    embedding.map_many(&guests, &mut hosts);
    hosts
}
