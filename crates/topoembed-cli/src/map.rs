//! `topoembed map GUEST HOST`: the general mapper, its placement in the
//! format asked for, and its metrics beside the identity (or, when the
//! guest has more nodes than the host, consecutive blocks) and round-robin
//! placements.

use std::sync::Arc;
use std::time::Instant;

use topoembed::io;
use topoembed::mapper::{MapOptions, Objective};
use topoembed::metrics::{self, Metrics, Options};
use topoembed::report;
use topoembed::{Error, Progress};

use crate::cli::{MapFormat, MapObjective};
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
    pub no_traffic: bool,
    pub objective: MapObjective,
}

pub fn map(request: &Request, format: MapFormat, out: Out) -> Result<(), Failure> {
    let guest = parse_topology(request.guest)?;
    let host = parse_topology(request.host)?;
    if matches!(format, MapFormat::Rankfile) && request.hosts.is_none() {
        return Err(Error::Parameter(
            "--format rankfile needs --hosts FILE (an Open MPI hostfile: 'name slots=N' per line)"
                .into(),
        )
        .into());
    }
    let table = matches!(format, MapFormat::Table);
    let progress = Arc::new(Progress::new());
    let started = Instant::now();
    let placement = {
        let _bar = Bar::start(
            progress.clone(),
            format!("map {} -> {}", guest.spec(), host.spec()),
            table,
        );
        topoembed::embed::mapped::map(
            guest.as_ref(),
            host.as_ref(),
            &MapOptions {
                imbalance: request.imbalance,
                seed: request.seed,
                passes: request.passes,
                restarts: request.restarts,
                objective: match request.objective {
                    MapObjective::HopBytes => Objective::HopBytes,
                    MapObjective::Congestion => Objective::Congestion,
                },
                progress: Some(&progress),
            },
        )?
    };
    let seconds = started.elapsed().as_secs_f64();
    let (g, h) = (guest.as_ref(), host.as_ref());
    match format {
        MapFormat::ScotchMap => {
            io::write_mapping(&scotch_labels(g)?, placement.hosts(), out)?;
            return Ok(());
        }
        MapFormat::Rankfile => {
            let machines = io::read_hostfile(request.hosts.expect("checked above"))?;
            io::write_rankfile(g.node_count(), h.node_count(), &placement, &machines, out)?;
            return Ok(());
        }
        MapFormat::Table | MapFormat::Json => {}
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
    } else {
        let value = serde_json::json!({
            "guest": g.spec().to_string(),
            "host": h.spec().to_string(),
            "imbalance": request.imbalance,
            "capacity": placement.capacity(),
            "seed": request.seed,
            "seconds": seconds,
            "map": placement.hosts(),
            "metrics": measured,
            "baselines": others,
        });
        serde_json::to_writer_pretty(&mut *out, &value).map_err(std::io::Error::from)?;
        writeln!(out)?;
    }
    Ok(())
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
