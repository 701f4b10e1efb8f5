//! `simulate`: an algorithm's messages on the host network, with contention.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use topoembed::embed;
use topoembed::model;
use topoembed::runtime::algorithms::{run_traced, Algorithm, Problem};
use topoembed::runtime::Costs;
use topoembed::simulate::{
    self, Duplex, LinkUse, Network, Options, ProcessTime, Simulation, Switching, Trace,
};
use topoembed::spec::Spec;
use topoembed::topology::Topology;
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Progress;

use crate::cli::{DuplexArg, ModeArg, RunFormat, SimAlgorithmArg, SimulateArgs, TraceArg};
use crate::commands::{io_error, method_or_best, parse_topology, Out};
use crate::figures::{self, gantt};
use crate::progress::Bar;
use crate::table::{num, Table};
use crate::work;
use crate::Failure;

/// The network model the arguments describe.
pub fn network(args: &SimulateArgs, contention: bool) -> Network {
    Network {
        switching: match args.mode {
            ModeArg::Saf => Switching::StoreAndForward,
            ModeArg::CutThrough => Switching::CutThrough,
        },
        duplex: match args.duplex {
            DuplexArg::Full => Duplex::Full,
            DuplexArg::Half => Duplex::Half,
        },
        contention,
        costs: Costs {
            ta: args.costs.ta,
            tc: args.costs.tc,
            tb: args.tb,
        },
        th: args.th,
        ties: args.ties.into(),
    }
}

/// A trace and how to name its processes.
pub struct Traced {
    pub trace: Trace,
    /// The embedding that placed it.
    pub embedding: Arc<dyn embed::Embedding>,
    /// Processes are ranks (host nodes) of a recorded run, else guest nodes.
    pub ranks: Option<VirtualTopology>,
    /// The problem, for the CC recurrence.
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

/// Refuses a simulation whose link hops pass the work limit (without
/// `--force`). Each message crosses its guest edge's dilation, so the hops
/// are about (messages per guest edge) × the embedding's total dilation:
/// fft and allreduce send one message each way over every edge (2), bitonic
/// uses dimension i d − i times ((d + 1) on average), halo 2 per iteration,
/// Cannon about Q per edge of its Q x Q torus. Every message crosses at least
/// one link, so the message count alone refuses the largest runs before the
/// dilation is measured.
fn check_work(
    args: &SimulateArgs,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn embed::Embedding,
) -> Result<(), Failure> {
    let nodes = guest.node_count() as f64;
    let per_edge = match args.algorithm {
        SimAlgorithmArg::Fft | SimAlgorithmArg::Allreduce => 2.0,
        SimAlgorithmArg::Bitonic => nodes.log2() + 1.0,
        SimAlgorithmArg::Halo => 2.0 * f64::from(args.iterations),
        SimAlgorithmArg::Cannon => nodes.sqrt(),
    };
    let messages = per_edge * guest.edge_count() as f64;
    let at_least = work::Estimate {
        units: messages,
        unit: "link hops at least (one per message)",
        rate: work::rate::HOP,
    };
    if !args.force && work::exceeds(at_least)? {
        work::check("simulate", at_least, false)?;
    }
    let options = topoembed::metrics::Options {
        routing: topoembed::metrics::Routing::Off,
        ..Default::default()
    };
    let dilation = topoembed::metrics::measure(guest, host, embedding, &options)?
        .dilation
        .total;
    let estimate = work::Estimate {
        units: per_edge * dilation as f64,
        unit: "link hops",
        rate: work::rate::HOP,
    };
    work::check("simulate", estimate, args.force)
}

/// Builds the trace `args` ask for.
pub fn trace(
    args: &SimulateArgs,
    guest: Arc<dyn Topology>,
    host: Arc<dyn Topology>,
    network: &Network,
) -> Result<Traced, Failure> {
    let method = method_or_best(
        args.method.as_deref(),
        guest.as_ref(),
        host.as_ref(),
        &args.pair,
    )?;
    let embedding: Arc<dyn embed::Embedding> = Arc::from(embed::build_with(
        &method,
        guest.as_ref(),
        host.as_ref(),
        &args.pair.params(),
    )?);
    check_work(args, guest.as_ref(), host.as_ref(), embedding.as_ref())?;
    let algorithm = match args.algorithm {
        SimAlgorithmArg::Halo => {
            if args.trace == Some(TraceArg::Run) {
                return Err(topoembed::Error::Parameter(
                    "halo is built from the guest's edges; --trace run is for the runtime's \
                     algorithms"
                        .into(),
                )
                .into());
            }
            let values = match &args.n {
                None => 1,
                Some(n) => n.parse::<u64>().ok().filter(|&v| v >= 1).ok_or_else(|| {
                    topoembed::Error::Parameter(format!(
                        "halo: --n is the f64s per message, a whole number >= 1; got '{n}'"
                    ))
                })?,
            };
            if args.iterations == 0 {
                return Err(
                    topoembed::Error::Parameter("--iterations must be at least 1".into()).into(),
                );
            }
            let trace = Trace::halo(guest.as_ref(), embedding.as_ref(), args.iterations, values)?;
            return Ok(Traced {
                trace,
                embedding,
                ranks: None,
                problem: None,
            });
        }
        SimAlgorithmArg::Cannon => Algorithm::Cannon,
        SimAlgorithmArg::Fft => Algorithm::Fft,
        SimAlgorithmArg::Bitonic => Algorithm::Bitonic,
        SimAlgorithmArg::Allreduce => Algorithm::Allreduce,
    };
    let vt = VirtualTopology::new(guest.clone(), host, embedding.clone())?;
    let record = match args.trace {
        Some(t) => t == TraceArg::Run,
        None => vt.is_one_to_one() || algorithm == Algorithm::Cannon,
    };
    if record {
        let problem = Problem::new(algorithm, &vt, args.n.as_deref())?;
        let (_, trace) = run_traced(&vt, &problem, network.costs)?;
        Ok(Traced {
            trace,
            embedding,
            ranks: Some(vt),
            problem: Some(problem),
        })
    } else {
        let problem = Problem::for_guest(algorithm, guest.as_ref(), args.n.as_deref())?;
        let trace = Trace::of_problem(&problem, embedding.as_ref())?;
        Ok(Traced {
            trace,
            embedding,
            ranks: None,
            problem: Some(problem),
        })
    }
}

/// The CC recurrence's time for a cube algorithm's problem (store-and-forward only).
pub fn recurrence(
    problem: Option<&Problem>,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn embed::Embedding,
    network: &Network,
) -> Result<Option<f64>, Failure> {
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

#[derive(Serialize)]
struct Report<'a> {
    algorithm: String,
    guest: String,
    host: String,
    method: &'a str,
    trace: &'a str,
    processes: u64,
    operations: u64,
    network: Network,
    makespan: f64,
    makespan_without_contention: f64,
    cc_recurrence: Option<f64>,
    messages: u64,
    hops: u64,
    delayed_messages: u64,
    link_delay: f64,
    processor_delay: f64,
    totals: ProcessTime,
    links_used: usize,
    busiest_links: &'a [LinkUse],
    events: u64,
    wall_seconds: f64,
}

/// Runs `simulate`.
pub fn simulate(args: &SimulateArgs, out: Out) -> Result<(), Failure> {
    let guest: Arc<dyn Topology> = Arc::from(parse_topology(&args.pair.guest)?);
    let host: Arc<dyn Topology> = Arc::from(parse_topology(&args.pair.host)?);
    let net = network(args, !args.no_contention);
    net.check()?;
    let started = Instant::now();
    let traced = trace(args, guest.clone(), host.clone(), &net)?;
    let trace = &traced.trace;
    let progress = Arc::new(Progress::new());
    let label = format!("simulating {} processes", trace.processes());
    let bar = Bar::start(progress.clone(), label, args.format == RunFormat::Table);
    let record = if args.gantt.is_some() {
        args.gantt_rows
    } else {
        0
    };
    let (sim, free) = with_and_without(trace, host.as_ref(), &net, record, Some(&progress))?;
    drop(bar);
    let embedding = traced.embedding.as_ref();
    let cc = recurrence(
        traced.problem.as_ref(),
        guest.as_ref(),
        host.as_ref(),
        embedding,
        &net,
    )?;
    let algorithm = match &traced.problem {
        Some(p) => format!("{} ({})", p.algorithm(), p.describe()),
        None => "halo".to_string(),
    };
    let report = Report {
        algorithm,
        guest: guest.spec().to_string(),
        host: host.spec().to_string(),
        method: embedding.method(),
        trace: &trace.source,
        processes: trace.processes(),
        operations: trace.op_count(),
        network: net,
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
        busiest_links: &sim.links[..sim.links.len().min(args.links)],
        events: sim.events,
        wall_seconds: started.elapsed().as_secs_f64(),
    };
    if let Some(path) = &args.gantt {
        let title = format!(
            "{} on {} -> {} ({}), makespan {}",
            traced
                .problem
                .map_or("halo".to_string(), |p| p.algorithm().to_string()),
            report.guest,
            report.host,
            report.method,
            num(sim.makespan)
        );
        let svg = gantt_of(&traced, &sim, &title, "time")?;
        figures::save(path, &svg)?;
    }
    match args.format {
        RunFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(io_error)?;
            writeln!(out)?;
        }
        RunFormat::Table => {
            let gantt = args.gantt.as_ref().map(|path| {
                format!(
                    "{} ({} of {} processes)",
                    path.display(),
                    sim.intervals.len(),
                    trace.processes()
                )
            });
            write_table(&report, gantt, out)?;
        }
    }
    Ok(())
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
) -> Result<(Simulation, f64), Failure> {
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

/// The Gantt chart of a simulation's recorded processes.
pub fn gantt_of(
    traced: &Traced,
    sim: &Simulation,
    title: &str,
    time_unit: &str,
) -> Result<String, Failure> {
    let rows: Vec<gantt::Row> = sim
        .intervals
        .iter()
        .enumerate()
        .map(|(p, iv)| gantt::Row {
            label: traced.label(p as u64),
            intervals: iv,
        })
        .collect();
    gantt::draw(title, &rows, sim.makespan, time_unit)
}

fn mode(n: &Network) -> String {
    let switching = match n.switching {
        Switching::StoreAndForward => "store-and-forward".to_string(),
        Switching::CutThrough => format!("cut-through (T_h {})", num(n.th)),
    };
    let duplex = match n.duplex {
        Duplex::Full => "full-duplex",
        Duplex::Half => "half-duplex",
    };
    let contention = if n.contention { "" } else { ", no contention" };
    format!(
        "{switching}, {duplex} links{contention}; T_a {}, T_c {}, T_b {}",
        num(n.costs.ta),
        num(n.costs.tc),
        num(n.costs.tb)
    )
}

fn write_table(r: &Report, gantt: Option<String>, out: Out) -> std::io::Result<()> {
    writeln!(
        out,
        "simulate {} on {} -> {} ({})",
        r.algorithm, r.guest, r.host, r.method
    )?;
    let mut t = Table::new(&["", ""]);
    let mut row = |k: &str, v: String| t.row(vec![format!("  {k}"), v]);
    row(
        "trace",
        format!(
            "{}: {} processes, {} operations",
            r.trace, r.processes, r.operations
        ),
    );
    row("network", mode(&r.network));
    let change = r.makespan - r.makespan_without_contention;
    let versus = if !r.network.contention {
        String::new()
    } else if change == 0.0 {
        " (the same without contention)".to_string()
    } else {
        format!(
            " (without contention {}: {}{} , {:+.1}%)",
            num(r.makespan_without_contention),
            if change > 0.0 { "+" } else { "" },
            num(change),
            100.0 * change / r.makespan_without_contention.max(f64::MIN_POSITIVE)
        )
        .replace(" ,", ",")
    };
    row("makespan", format!("{}{versus}", num(r.makespan)));
    if let Some(cc) = r.cc_recurrence {
        let agree = if cc == r.makespan_without_contention {
            "equal to the contention-free makespan"
        } else if (cc - r.makespan_without_contention).abs() <= 1e-9 * cc.abs().max(1.0) {
            "equal up to rounding"
        } else {
            "DIFFERENT from the contention-free makespan"
        };
        row("CC recurrence", format!("{} ({agree})", num(cc)));
    }
    row(
        "messages",
        format!("{} over {} link hops", r.messages, r.hops),
    );
    if r.network.contention {
        row(
            "contention",
            format!(
                "{} messages met a busy link, {} time queued; processors shared: {} time queued",
                r.delayed_messages,
                num(r.link_delay),
                num(r.processor_delay)
            ),
        );
    }
    let s = &r.totals;
    row(
        "process time",
        format!(
            "compute {}, communicate {}, wait {}, blocked {} (sums over processes)",
            num(s.compute),
            num(s.communication),
            num(s.waiting),
            num(s.blocked)
        ),
    );
    let links: Vec<String> = r
        .busiest_links
        .iter()
        .map(|l| {
            let arrow = if r.network.duplex == Duplex::Full {
                "->"
            } else {
                "--"
            };
            format!(
                "{}{arrow}{} busy {} ({} msgs)",
                l.from,
                l.to,
                num(l.busy),
                l.messages
            )
        })
        .collect();
    row(
        "busiest links",
        format!(
            "{} of {} used: {}",
            links.len(),
            r.links_used,
            links.join("; ")
        ),
    );
    if let Some(g) = gantt {
        row("gantt chart", g);
    }
    row(
        "simulated",
        format!("{} events in {:.2} s", r.events, r.wall_seconds),
    );
    t.write_body(out)
}
