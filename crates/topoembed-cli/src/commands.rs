//! The subcommands.

use std::io::Write;
use std::sync::Arc;

use topoembed::embed::{self, Embedding, METHODS};
use topoembed::metrics::{self, Metrics, Options};
use topoembed::routing::TieRule;
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};
use topoembed::{Error, Progress};

use crate::cli::{Costs, EmbedFormat, Format, Pair, Routing, Ties};
use crate::progress::Bar;
use crate::table::Table;
use crate::{render, Failure};

type Out<'a> = &'a mut dyn Write;

/// A guest and its host.
type Topologies = (Box<dyn Topology>, Box<dyn Topology>);

/// Parses both specs and checks the pair can be embedded one-to-one.
fn topologies(pair: &Pair) -> Result<Topologies, Failure> {
    let guest = topology::parse(&pair.guest)?;
    let host = topology::parse(&pair.host)?;
    if guest.node_count() != host.node_count() {
        return Err(embed::node_count_mismatch(guest.as_ref(), host.as_ref()).into());
    }
    Ok((guest, host))
}

pub fn methods(format: Format, out: Out) -> Result<(), Failure> {
    match format {
        Format::Json => {
            let list: Vec<_> = METHODS
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "name": m.name, "guest": m.guest, "host": m.host,
                        "preconditions": m.preconditions, "summary": m.summary,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &list).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "name,guest,host,preconditions,summary")?;
            for m in METHODS {
                let fields = [m.name, m.guest, m.host, m.preconditions, m.summary];
                writeln!(out, "{}", fields.map(render::csv_field).join(","))?;
            }
        }
        Format::Table => {
            let mut t = Table::new(&["method", "guest", "host", "preconditions"]);
            for m in METHODS {
                t.row(vec![
                    m.name.into(),
                    m.guest.into(),
                    m.host.into(),
                    m.preconditions.into(),
                ]);
            }
            t.write(out)?;
            writeln!(out)?;
            for m in METHODS {
                writeln!(out, "{:<9} {}", m.name, m.summary)?;
            }
        }
    }
    Ok(())
}

pub fn embed(pair: &Pair, method: &str, format: EmbedFormat, out: Out) -> Result<(), Failure> {
    let (guest, host) = topologies(pair)?;
    let embedding = embed::build(method, guest.as_ref(), host.as_ref())?;
    let (g, h, e) = (guest.as_ref(), host.as_ref(), embedding.as_ref());
    match format {
        EmbedFormat::Table => render::embed_table(g, h, e, out),
        EmbedFormat::Csv => render::embed_csv(g, h, e, out),
        EmbedFormat::Json => render::embed_json(g, h, e, out),
        EmbedFormat::Layout => render::embed_layout(g, h, e, out),
    }
}

pub fn dilations(pair: &Pair, method: &str, format: Format, out: Out) -> Result<(), Failure> {
    let (guest, host) = topologies(pair)?;
    let Spec::Cube(dim) = *guest.spec() else {
        return Err(Error::Mismatch(format!(
            "dilations lists D_i(n) for hypercube guests; {} is not one (use metrics for its spectrum)",
            guest.spec()
        ))
        .into());
    };
    let embedding = embed::build(method, guest.as_ref(), host.as_ref())?;
    let (g, h, e) = (guest.as_ref(), host.as_ref(), embedding.as_ref());
    let rows = (0..g.node_count()).map(|n| metrics::cube_dilations(dim, e, h, n));
    render::dilations(g, h, e, dim, rows, format, out)
}

/// Measures one embedding with a progress bar on a terminal.
fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    costs: Costs,
    routing: Routing,
    show_progress: bool,
) -> Result<Metrics, Error> {
    let progress = Arc::new(Progress::new());
    let label = format!("{} {} -> {}", embedding.method(), guest.spec(), host.spec());
    let _bar = Bar::start(progress.clone(), label, show_progress);
    let options = Options {
        ta: costs.ta,
        tc: costs.tc,
        progress: Some(&progress),
        routing: if routing.no_traffic {
            metrics::Routing::Off
        } else {
            metrics::Routing::Model(match routing.ties {
                Ties::Increasing => TieRule::Increasing,
                Ties::Decreasing => TieRule::Decreasing,
            })
        },
    };
    metrics::measure(guest, host, embedding, &options)
}

pub fn metrics(
    pair: &Pair,
    method: &str,
    costs: Costs,
    routing: Routing,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    topoembed::model::check_costs(costs.ta, costs.tc)?;
    let (guest, host) = topologies(pair)?;
    let embedding = embed::build(method, guest.as_ref(), host.as_ref())?;
    let m = measure(
        guest.as_ref(),
        host.as_ref(),
        embedding.as_ref(),
        costs,
        routing,
        format == Format::Table,
    )?;
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &m).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "{}", render::CSV_HEADER)?;
            writeln!(out, "{}", render::csv_row(&m))?;
        }
        Format::Table => render::metrics_table(&m, out)?,
    }
    Ok(())
}

pub fn compare(
    pair: &Pair,
    costs: Costs,
    routing: Routing,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    topoembed::model::check_costs(costs.ta, costs.tc)?;
    let (guest, host) = topologies(pair)?;
    let (g, h) = (guest.as_ref(), host.as_ref());
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    for m in METHODS {
        match (m.build)(g, h) {
            Ok(e) => results.push(measure(
                g,
                h,
                e.as_ref(),
                costs,
                routing,
                format == Format::Table,
            )?),
            Err(reason) => skipped.push((m.name, reason)),
        }
    }
    if results.is_empty() {
        let why: Vec<String> = skipped.iter().map(|(n, r)| format!("{n}: {r}")).collect();
        return Err(Error::Mismatch(format!(
            "no method applies to {} -> {} ({})",
            g.spec(),
            h.spec(),
            why.join("; ")
        ))
        .into());
    }
    let best = render::best_cc_time(&results);
    match format {
        Format::Json => {
            let list: Vec<serde_json::Value> = results
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let mut v = serde_json::to_value(m).unwrap_or_default();
                    v["best_cc_time"] = serde_json::Value::Bool(best.contains(&k));
                    v
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &list).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "{},best_cc_time", render::CSV_HEADER)?;
            for (k, m) in results.iter().enumerate() {
                writeln!(out, "{},{}", render::csv_row(m), best.contains(&k))?;
            }
        }
        Format::Table => render::compare_table(&results, &best, &skipped, costs, out)?,
    }
    Ok(())
}

fn io_error(e: serde_json::Error) -> Failure {
    Failure::Io(e.into())
}
