//! `simulate`: an algorithm's messages on the host network, with contention.

use std::sync::Arc;

use topoembed::embed;
use topoembed::runtime::Costs;
use topoembed::simulate::{Duplex, Network, Simulation, Switching};
use topoembed::topology::Topology;
use topoembed::workload::{self, Ask, Summary, TraceFrom, Traced, Workload};
use topoembed::Progress;

use crate::cli::{DuplexArg, ModeArg, RunFormat, SimAlgorithmArg, SimulateArgs, TraceArg};
use crate::commands::{io_error, method_or_best, parse_topology, Out};
use crate::figures::{self, gantt};
use crate::progress::Bar;
use crate::table::{num, Table};
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

/// The request `args` make, and the embedding: the method named, or the
/// one `compare` marks best.
fn request<'a>(
    args: &'a SimulateArgs,
    guest: &dyn Topology,
    host: &dyn Topology,
) -> Result<(Ask<'a>, Arc<dyn embed::Embedding>), Failure> {
    let method = method_or_best(args.method.as_deref(), guest, host, &args.pair)?;
    let embedding: Arc<dyn embed::Embedding> = Arc::from(embed::build_with(
        &method,
        guest,
        host,
        &args.pair.params(),
    )?);
    let ask = Ask {
        workload: match args.algorithm {
            SimAlgorithmArg::Cannon => Workload::Cannon,
            SimAlgorithmArg::Fft => Workload::Fft,
            SimAlgorithmArg::Bitonic => Workload::Bitonic,
            SimAlgorithmArg::Allreduce => Workload::Allreduce,
            SimAlgorithmArg::Halo => Workload::Halo,
        },
        n: args.n.as_deref(),
        iterations: args.iterations,
        trace: args.trace.map(|t| match t {
            TraceArg::Run => TraceFrom::Run,
            TraceArg::Cc => TraceFrom::Cc,
        }),
        force: args.force,
    };
    Ok((ask, embedding))
}

/// Runs `simulate`.
pub fn simulate(args: &SimulateArgs, out: Out) -> Result<(), Failure> {
    let guest: Arc<dyn Topology> = Arc::from(parse_topology(&args.pair.guest)?);
    let host: Arc<dyn Topology> = Arc::from(parse_topology(&args.pair.host)?);
    let net = network(args, !args.no_contention);
    net.check()?;
    let (ask, embedding) = request(args, guest.as_ref(), host.as_ref())?;
    let progress = Arc::new(Progress::new());
    let label = format!("simulating {} on {}", guest.spec(), host.spec());
    let bar = Bar::start(progress.clone(), label, args.format == RunFormat::Table);
    let record = if args.gantt.is_some() {
        args.gantt_rows
    } else {
        0
    };
    let say = |note: &str| eprintln!("note: {note}");
    let (traced, sim, report) = workload::run(
        &ask,
        (guest, host, embedding),
        &net,
        record,
        args.links,
        Some(&progress),
        &say,
    )?;
    drop(bar);
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
                    traced.trace.processes()
                )
            });
            write_table(&report, gantt, out)?;
        }
    }
    Ok(())
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

fn write_table(r: &Summary, gantt: Option<String>, out: Out) -> std::io::Result<()> {
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
