//! `topoembed map GUEST HOST`: the general mapper, its placement in the
//! format asked for, and its metrics beside the identity (or, when the
//! guest has more nodes than the host, consecutive blocks) and round-robin
//! placements.

use std::sync::Arc;
use std::time::Instant;

use topoembed::embed::mapped;
use topoembed::io;
use topoembed::mapper::{MapOptions, Objective, Phase, PhaseLog};
use topoembed::metrics::{self, Metrics, Options};
use topoembed::recorded::{self, Chosen};
use topoembed::report;
use topoembed::{Error, Progress};

use crate::cli::{MapFormat, MapObjective, MapPreset};
use crate::commands::{parse_topology, scotch_labels, Out};
use crate::progress::Bar;
use crate::table::{num, Table};
use crate::Failure;

/// What `map` was asked.
pub struct Request<'a> {
    pub guest: &'a str,
    pub host: &'a str,
    pub imbalance: f64,
    pub seed: u64,
    pub passes: usize,
    pub restarts: usize,
    pub hosts: Option<&'a std::path::Path>,
    /// A Slurm hostlist and the slots on each of its nodes.
    pub nodes: Option<(&'a str, u64)>,
    pub no_traffic: bool,
    /// Whether to print every phase's time and gain (`--phases`).
    pub phases: bool,
    pub objective: MapObjective,
    /// How much each search spends.
    pub preset: MapPreset,
    /// Host name prefix of the SMPI hostfile.
    pub prefix: &'a str,
    /// A recording's summary, whose message latencies and collectives join
    /// the objective, and the bytes one hop's latency is worth.
    pub summary: Option<(&'a std::path::Path, u64)>,
}

pub fn map(request: &Request, format: MapFormat, out: Out) -> Result<(), Failure> {
    let guest = parse_topology(request.guest)?;
    let host = parse_topology(request.host)?;
    // A recording's summary: the placement is then chosen by predicted
    // cost among the mapper's candidates (`recorded::map_recorded`).
    let summary = match request.summary {
        None => None,
        Some((path, latency_bytes)) => {
            if guest.as_graph().is_none() {
                return Err(Error::Parameter(format!(
                    "--summary weighs a recording's latencies and collectives on its graph; {} is not a graph: give graph:FILE, the recording",
                    guest.spec()
                ))
                .into());
            }
            Some((recorded::read_summary(path)?, latency_bytes))
        }
    };
    // The launch file's slots, read before the mapper runs.
    let slots = match (format.launch(), request.hosts, request.nodes) {
        (None, _, _) => None,
        (Some(_), Some(path), _) => Some(io::Slots::from_machines(io::read_hostfile(path)?)),
        (Some(_), None, Some((list, per_node))) => Some(
            io::Slots::from_hostlist(list, per_node)
                .map_err(|e| Error::Parameter(format!("--nodes: {e}")))?,
        ),
        (Some(_), None, None) => {
            return Err(Error::Parameter(
                "a launch format needs the machine's slots: --hosts FILE (an Open MPI hostfile, \
                 'name slots=N' per line) or --nodes HOSTLIST (node[01-16]) with --slots-per-node N"
                    .into(),
            )
            .into())
        }
    };
    if let Some(slots) = &slots {
        if slots.total() != host.node_count() {
            return Err(Error::Mismatch(format!(
                "{} slots on {} hosts but {} has {} nodes; give a host with one node per slot \
                 (nodes x slots per node: tleaf:{}x{}:.. when ranks share nodes)",
                slots.total(),
                slots.machines.len(),
                host.spec(),
                host.node_count(),
                slots.machines.len(),
                slots.machines.first().map_or(1, |m| m.slots)
            ))
            .into());
        }
    }
    let table = matches!(format, MapFormat::Table);
    let progress = Arc::new(Progress::new());
    let log = PhaseLog::new();
    let started = Instant::now();
    let (placement, chosen) = {
        let _bar = Bar::start(
            progress.clone(),
            format!("map {} -> {}", guest.spec(), host.spec()),
            table,
        );
        let options = MapOptions {
            imbalance: request.imbalance,
            seed: request.seed,
            passes: request.passes,
            restarts: request.restarts,
            objective: match request.objective {
                MapObjective::HopBytes => Objective::HopBytes,
                MapObjective::Congestion => Objective::Congestion,
            },
            preset: request.preset.into(),
            progress: Some(&progress),
            phases: request.phases.then_some(&log),
        };
        match (&summary, guest.as_graph()) {
            (Some((summary, latency_bytes)), Some(pairs)) => {
                let chosen = recorded::map_recorded(
                    pairs,
                    summary,
                    host.as_ref(),
                    &options,
                    *latency_bytes,
                )?;
                let placement = chosen.placement.clone();
                (placement, Some(chosen))
            }
            _ => (mapped::map(guest.as_ref(), host.as_ref(), &options)?, None),
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let phases = log.phases();
    if request.phases {
        write_phases(&phases, seconds, &mut std::io::stderr().lock())?;
    }
    let (g, h) = (guest.as_ref(), host.as_ref());
    match format {
        MapFormat::ScotchMap => {
            io::write_mapping(&scotch_labels(g)?, placement.hosts(), out)?;
            return Ok(());
        }
        MapFormat::SmpiHostfile => {
            io::write_smpi_hostfile(placement.hosts(), request.prefix, out)?;
            return Ok(());
        }
        _ if format.launch().is_some() => {
            let slots = slots.expect("read above for every launch format");
            let launch = format.launch().expect("a launch format");
            io::write_launch(launch, placement.hosts(), &slots, out)?;
            return Ok(());
        }
        _ => {}
    }
    let options = Options {
        routing: if request.no_traffic {
            metrics::Routing::Off
        } else {
            Options::default().routing
        },
        ..Options::default()
    };
    let measured = metrics::measure(g, h, &placement, &options)?;
    let others = report::measured_baselines(g, h, &options)?;
    if table {
        write_table(
            &measured,
            &others,
            placement.capacity(),
            seconds,
            request,
            out,
        )?;
        if let Some(c) = &chosen {
            write_recorded(c, out)?;
        }
    } else {
        let mut value = serde_json::json!({
            "guest": g.spec().to_string(),
            "host": h.spec().to_string(),
            "imbalance": request.imbalance,
            "capacity": placement.capacity(),
            "seed": request.seed,
            "preset": topoembed::mapper::Preset::from(request.preset).name(),
            "seconds": seconds,
            "map": placement.hosts(),
            "metrics": measured,
            "baselines": others,
            "summary": chosen.as_ref().map(Chosen::report),
        });
        if request.phases {
            value["phases"] = serde_json::to_value(&phases).map_err(std::io::Error::from)?;
        }
        serde_json::to_writer_pretty(&mut *out, &value).map_err(std::io::Error::from)?;
        writeln!(out)?;
    }
    Ok(())
}

/// The phases of `--phases`: one line each, search by search, with the
/// map's whole time last (searches run in parallel, so their phases may
/// add up to more than it).
fn write_phases(phases: &[Phase], seconds: f64, out: Out) -> std::io::Result<()> {
    let mut table = Table::new(&["search", "phase", "time", "hop-bytes off"]);
    for phase in phases {
        table.row(vec![
            phase.search.to_string(),
            phase.name.to_string(),
            format!("{:.3} s", phase.seconds),
            phase.gained.map_or("-".into(), |g| g.to_string()),
        ]);
    }
    writeln!(out, "phases (wall time; searches run in parallel):")?;
    table.write(out)?;
    writeln!(out, "map in all: {seconds:.3} s")
}

fn write_table(
    m: &Metrics,
    others: &[Metrics],
    capacity: u64,
    seconds: f64,
    request: &Request,
    out: Out,
) -> std::io::Result<()> {
    writeln!(
        out,
        "map: {} -> {} (imbalance {}: at most {capacity} load per host node; seed {}; {:.2} s)",
        m.guest, m.host, request.imbalance, request.seed, seconds
    )?;
    let mut t = Table::new(&[
        "placement",
        "hop-bytes",
        "vs map",
        "dilation max",
        "dilation avg",
        "congestion",
        "most load",
        "imbalance",
    ]);
    for x in std::iter::once(m).chain(others) {
        let (load, imbalance) = match &x.host_load {
            Some(l) => (l.max.to_string(), format!("{:.1}%", 100.0 * l.imbalance)),
            None => {
                let average = x.guest_nodes as f64 / x.host_nodes as f64;
                (
                    x.load_factor.to_string(),
                    format!("{:.1}%", 100.0 * (x.load_factor as f64 / average - 1.0)),
                )
            }
        };
        t.row(vec![
            x.method.clone(),
            x.hop_bytes.to_string(),
            if m.hop_bytes == 0 {
                "-".into()
            } else {
                format!("{:.2}x", x.hop_bytes as f64 / m.hop_bytes as f64)
            },
            x.dilation.max.to_string(),
            num(x.dilation.average),
            x.congestion
                .as_ref()
                .map_or("-".into(), |c| c.max.to_string()),
            load,
            imbalance,
        ]);
    }
    t.write(out)?;
    for note in m.notes.iter().chain(&m.method_notes) {
        writeln!(out, "  note: {note}")?;
    }
    Ok(())
}

/// What `--summary` did: each candidate's predicted cost (the kept one
/// marked), the collectives modelled and what was left out.
fn write_recorded(c: &Chosen, out: Out) -> std::io::Result<()> {
    let w = &c.weighed;
    writeln!(
        out,
        "predicted cost in bytes = bandwidth (the busiest link's bytes; on a tleaf, hop-bytes / nodes) + p2p latency + collectives' critical paths, at {} bytes a hop:",
        w.latency_bytes
    )?;
    let mut t = Table::new(&[
        "candidate",
        "predicted",
        "bandwidth",
        "p2p latency",
        "collectives",
        "hop-bytes",
    ]);
    for (i, x) in c.candidates.iter().enumerate() {
        t.row(vec![
            format!("{}{}", if i == c.kept { "* " } else { "  " }, x.name),
            x.cost.total().to_string(),
            x.cost.bandwidth.to_string(),
            x.cost.point_to_point_latency.to_string(),
            x.cost.collectives.to_string(),
            x.hop_bytes.to_string(),
        ]);
    }
    t.write(out)?;
    for m in &w.modelled {
        writeln!(
            out,
            "  {} x{} of {} bytes on MPI_COMM_WORLD: {} (SimGrid SMPI's default)",
            m.operation, m.calls, m.message_bytes, m.algorithm
        )?;
    }
    for line in &w.left_out {
        writeln!(out, "  left out: {line}")?;
    }
    Ok(())
}
