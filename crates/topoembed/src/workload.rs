//! `simulate` as a user asks it: an algorithm's messages, placed by an
//! embedding, ready for the network simulator ([`crate::simulate`]) — the
//! work estimate that refuses a run of hours, the trace (recorded from an
//! in-process run, or built from the algorithm's CC structure, or a halo
//! exchange over the guest's edges), the CC recurrence's time beside it,
//! and the simulation with and without contention. The CLI and the report
//! call these and only print what comes back.

use std::sync::Arc;

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::metrics;
use crate::model;
use crate::progress::Progress;
use crate::runtime::algorithms::{run_traced, Algorithm, Problem};
use crate::simulate::{self, LinkUse, Network, Options, ProcessTime, Simulation, Switching, Trace};
use crate::spec::Spec;
use crate::topology::Topology;
use crate::virtual_topology::VirtualTopology;
use crate::work::{self, rate, Estimate};

/// What runs: one of the runtime's algorithms, or a halo exchange over
/// every guest edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Cannon's matrix product (torus:QxQ guest).
    Cannon,
    /// The FFT (cube:D guest).
    Fft,
    /// Bitonic sort (cube:D guest).
    Bitonic,
    /// All-reduce (cube:D guest).
    Allreduce,
    /// Every guest node exchanges with every neighbour, `iterations` times.
    Halo,
}

impl std::str::FromStr for Workload {
    type Err = Error;

    fn from_str(s: &str) -> Result<Workload> {
        Ok(match s {
            "cannon" => Workload::Cannon,
            "fft" => Workload::Fft,
            "bitonic" => Workload::Bitonic,
            "allreduce" => Workload::Allreduce,
            "halo" => Workload::Halo,
            other => {
                return Err(Error::Parameter(format!(
                    "algorithm {other:?}: give cannon, fft, bitonic, allreduce or halo"
                )))
            }
        })
    }
}

/// Where the operations come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceFrom {
    /// Record an in-process run (ranks are host nodes).
    Run,
    /// The algorithm's CC structure (any embedding, many-to-one too).
    Cc,
}

impl std::str::FromStr for TraceFrom {
    type Err = Error;

    fn from_str(s: &str) -> Result<TraceFrom> {
        match s {
            "run" => Ok(TraceFrom::Run),
            "cc" => Ok(TraceFrom::Cc),
            other => Err(Error::Parameter(format!(
                "trace {other:?}: give run (record an in-process run) or cc (the CC structure)"
            ))),
        }
    }
}

/// A simulation asked for.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub workload: Workload,
    /// Problem size as `run` takes it (halo: f64s per message).
    pub n: Option<&'a str>,
    /// Halo: iterations.
    pub iterations: u32,
    /// `None`: a recorded run when the embedding is one-to-one (or the
    /// algorithm is Cannon's), else the CC structure.
    pub trace: Option<TraceFrom>,
    /// Run whatever the work estimate.
    pub force: bool,
}

/// A trace and how to name its processes.
pub struct Traced {
    pub trace: Trace,
    /// The embedding that placed it.
    pub embedding: Arc<dyn Embedding>,
    /// Processes are ranks (host nodes) of a recorded run, else guest nodes.
    pub ranks: Option<VirtualTopology>,
    /// The problem, for the CC recurrence (`None` for a halo).
    pub problem: Option<Problem>,
}

impl Traced {
    /// Row label of process `p`.
    pub fn label(&self, p: u64) -> String {
        match &self.ranks {
            Some(vt) => match vt.guest_of(p) {
                Some(g) => format!("rank {p} (guest {g})"),
                None => format!("rank {p}"),
            },
            None => format!("guest {p} (node {})", self.trace.placement[p as usize]),
        }
    }
}

/// Refuses a simulation whose link hops pass the work limit (unless
/// `force`) and tells `say` a long one. Each message crosses its guest
/// edge's dilation, so the hops are about (messages per guest edge) × the
/// embedding's total dilation: fft and allreduce send one message each way
/// over every edge (2), bitonic uses dimension i d − i times ((d + 1) on
/// average), halo 2 per iteration, Cannon about Q per edge of its Q x Q
/// torus. Every message crosses at least one link, so the message count
/// alone refuses the largest runs before the dilation is measured.
pub fn check_work(
    ask: &Ask,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    say: &dyn Fn(&str),
) -> Result<()> {
    let nodes = guest.node_count() as f64;
    let per_edge = match ask.workload {
        Workload::Fft | Workload::Allreduce => 2.0,
        Workload::Bitonic => nodes.log2() + 1.0,
        Workload::Halo => 2.0 * f64::from(ask.iterations),
        Workload::Cannon => nodes.sqrt(),
    };
    let messages = per_edge * guest.edge_count() as f64;
    let at_least = Estimate {
        units: messages,
        unit: "link hops at least (one per message)",
        rate: rate::HOP,
    };
    if !ask.force && work::exceeds(at_least)? {
        work::admit("simulate", at_least, false)?;
    }
    let options = metrics::Options {
        routing: metrics::Routing::Off,
        ..Default::default()
    };
    let dilation = metrics::measure(guest, host, embedding, &options)?
        .dilation
        .total;
    let estimate = Estimate {
        units: per_edge * dilation as f64,
        unit: "link hops",
        rate: rate::HOP,
    };
    if let Some(note) = work::admit("simulate", estimate, ask.force)? {
        say(&note);
    }
    Ok(())
}

/// The trace `ask` names, placed by `embedding`, after [`check_work`].
pub fn trace(
    ask: &Ask,
    guest: Arc<dyn Topology>,
    host: Arc<dyn Topology>,
    embedding: Arc<dyn Embedding>,
    network: &Network,
    say: &dyn Fn(&str),
) -> Result<Traced> {
    check_work(ask, guest.as_ref(), host.as_ref(), embedding.as_ref(), say)?;
    let algorithm = match ask.workload {
        Workload::Halo => {
            if ask.trace == Some(TraceFrom::Run) {
                return Err(Error::Parameter(
                    "halo is built from the guest's edges; --trace run is for the runtime's \
                     algorithms"
                        .into(),
                ));
            }
            let values = match ask.n {
                None => 1,
                Some(n) => n.parse::<u64>().ok().filter(|&v| v >= 1).ok_or_else(|| {
                    Error::Parameter(format!(
                        "halo: --n is the f64s per message, a whole number >= 1; got '{n}'"
                    ))
                })?,
            };
            if ask.iterations == 0 {
                return Err(Error::Parameter("--iterations must be at least 1".into()));
            }
            let trace = Trace::halo(guest.as_ref(), embedding.as_ref(), ask.iterations, values)?;
            return Ok(Traced {
                trace,
                embedding,
                ranks: None,
                problem: None,
            });
        }
        Workload::Cannon => Algorithm::Cannon,
        Workload::Fft => Algorithm::Fft,
        Workload::Bitonic => Algorithm::Bitonic,
        Workload::Allreduce => Algorithm::Allreduce,
    };
    let vt = VirtualTopology::new(guest.clone(), host, embedding.clone())?;
    let record = match ask.trace {
        Some(t) => t == TraceFrom::Run,
        None => vt.is_one_to_one() || algorithm == Algorithm::Cannon,
    };
    if record {
        let problem = Problem::new(algorithm, &vt, ask.n)?;
        let (_, trace) = run_traced(&vt, &problem, network.costs)?;
        Ok(Traced {
            trace,
            embedding,
            ranks: Some(vt),
            problem: Some(problem),
        })
    } else {
        let problem = Problem::for_guest(algorithm, guest.as_ref(), ask.n)?;
        let trace = Trace::of_problem(&problem, embedding.as_ref())?;
        Ok(Traced {
            trace,
            embedding,
            ranks: None,
            problem: Some(problem),
        })
    }
}

/// The CC recurrence's time for a cube algorithm's problem
/// (store-and-forward only; `None` otherwise).
pub fn recurrence(
    problem: Option<&Problem>,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    network: &Network,
) -> Result<Option<f64>> {
    let (Some((stages, phases, values)), Spec::Cube(dim), Switching::StoreAndForward) = (
        problem.and_then(Problem::cc_structure),
        guest.spec(),
        network.switching,
    ) else {
        return Ok(None);
    };
    let r = model::cc_recurrence_stages(*dim, &stages, embedding, host, None)?;
    let unit = network.costs.message(1, values);
    Ok(Some(
        phases as f64 * network.costs.ta + r.communication as f64 * unit,
    ))
}

/// Simulates `trace` under `net` (keeping the intervals of processes
/// `0..record`) and, when `net` has contention, again without it for the
/// makespan alone (no link walk); returns the simulation and the
/// contention-free makespan.
pub fn with_and_without(
    trace: &Trace,
    host: &dyn Topology,
    net: &Network,
    record: u64,
    progress: Option<&Progress>,
) -> Result<(Simulation, f64)> {
    let options = Options {
        record,
        skip_links: false,
    };
    let sim = simulate::simulate(trace, host, net, &options, progress)?;
    if !net.contention {
        let free = sim.makespan;
        return Ok((sim, free));
    }
    let free = Network {
        contention: false,
        ..*net
    };
    let only_time = Options {
        record: 0,
        skip_links: true,
    };
    let without = simulate::simulate(trace, host, &free, &only_time, progress)?;
    Ok((sim, without.makespan))
}

/// What a simulation found, as `topoembed simulate --format json` prints it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    /// `fft (2^6 points)`, or `halo`.
    pub algorithm: String,
    pub guest: String,
    pub host: String,
    pub method: String,
    /// Where the operations came from.
    pub trace: String,
    pub processes: u64,
    pub operations: u64,
    pub network: Network,
    pub makespan: f64,
    pub makespan_without_contention: f64,
    /// The CC recurrence's time, for a cube algorithm with store-and-forward.
    pub cc_recurrence: Option<f64>,
    pub messages: u64,
    pub hops: u64,
    pub delayed_messages: u64,
    pub link_delay: f64,
    pub processor_delay: f64,
    pub totals: ProcessTime,
    pub links_used: usize,
    /// The busiest links, most used first.
    pub busiest_links: Vec<LinkUse>,
    pub events: u64,
    pub wall_seconds: f64,
}

/// A whole `simulate`: the trace `ask` names (after the work check), the
/// simulation under `net` keeping the intervals of processes `0..record`
/// (and without contention for the makespan), the CC recurrence beside
/// it, and the summary with the `links` busiest links.
#[allow(clippy::too_many_arguments)]
pub fn run(
    ask: &Ask,
    (guest, host, embedding): (Arc<dyn Topology>, Arc<dyn Topology>, Arc<dyn Embedding>),
    net: &Network,
    record: u64,
    links: usize,
    progress: Option<&Progress>,
    say: &dyn Fn(&str),
) -> Result<(Traced, Simulation, Summary)> {
    net.check()?;
    let started = std::time::Instant::now();
    let traced = trace(ask, guest.clone(), host.clone(), embedding, net, say)?;
    let (sim, free) = with_and_without(&traced.trace, host.as_ref(), net, record, progress)?;
    let cc = recurrence(
        traced.problem.as_ref(),
        guest.as_ref(),
        host.as_ref(),
        traced.embedding.as_ref(),
        net,
    )?;
    let summary = Summary {
        algorithm: match &traced.problem {
            Some(p) => format!("{} ({})", p.algorithm(), p.describe()),
            None => "halo".to_string(),
        },
        guest: guest.spec().to_string(),
        host: host.spec().to_string(),
        method: traced.embedding.method().to_string(),
        trace: traced.trace.source.clone(),
        processes: traced.trace.processes(),
        operations: traced.trace.op_count(),
        network: *net,
        makespan: sim.makespan,
        makespan_without_contention: free,
        cc_recurrence: cc,
        messages: sim.messages,
        hops: sim.hops,
        delayed_messages: sim.delayed_messages,
        link_delay: sim.link_delay,
        processor_delay: sim.processor_delay,
        totals: sim.totals(),
        links_used: sim.links.len(),
        busiest_links: sim.links[..sim.links.len().min(links)].to_vec(),
        events: sim.events,
        wall_seconds: started.elapsed().as_secs_f64(),
    };
    Ok((traced, sim, summary))
}
