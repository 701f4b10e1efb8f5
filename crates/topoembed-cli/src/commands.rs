//! The subcommands.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use topoembed::embed::{self, Embedding, METHODS};
use topoembed::io;
use topoembed::metrics::{self, Metrics, Options};
use topoembed::report;
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};
use topoembed::traffic::fat::FatPaths;
use topoembed::{Error, Progress};

use crate::cli::{
    Costs, EmbedFormat, ExportFormat, FatEdgesArg, Format, HamiltonianFormat, Pair, Placement,
    Routing,
};
use crate::progress::Bar;
use crate::table::Table;
use crate::{render, work, Failure};

pub type Out<'a> = &'a mut dyn Write;

/// A guest and its host.
type Topologies = (Box<dyn Topology>, Box<dyn Topology>);

/// The spec `text` names: a spec, or a Scotch target file.
pub fn parse_spec(text: &str) -> Result<Spec, Error> {
    io::parse_spec_or_target(text)
}

/// The topology `text` names (see [`parse_spec`]).
pub fn parse_topology(text: &str) -> Result<Box<dyn Topology>, Error> {
    topology::build(&parse_spec(text)?)
}

/// Parses both specs and checks the pair can be embedded one-to-one.
fn topologies(pair: &Pair) -> Result<Topologies, Failure> {
    let guest = parse_topology(&pair.guest)?;
    let host = parse_topology(&pair.host)?;
    // Many-to-one methods (reshape) take pairs of any sizes.
    if guest.node_count() != host.node_count()
        && embed::applicable_with(guest.as_ref(), host.as_ref(), &pair.params()).is_empty()
    {
        return Err(embed::node_count_mismatch(guest.as_ref(), host.as_ref()).into());
    }
    Ok((guest, host))
}

/// The method named, or when none is, the one `compare` marks best
/// ([`report::choose_method`]), named on stderr with why.
pub fn method_or_best(
    method: Option<&str>,
    guest: &dyn Topology,
    host: &dyn Topology,
    pair: &Pair,
) -> Result<String, Failure> {
    if let Some(m) = method {
        return Ok(m.to_string());
    }
    let choice = report::choose_method(guest, host, &pair.params())?;
    eprintln!(
        "note: no --method given: {}, {}; --method names another",
        choice.method, choice.reason
    );
    Ok(choice.method.to_string())
}

pub fn methods(format: Format, out: Out) -> Result<(), Failure> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report::methods()).map_err(io_error)?;
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

pub fn embed(
    pair: &Pair,
    method: Option<&str>,
    format: EmbedFormat,
    prefix: &str,
    out: Out,
) -> Result<(), Failure> {
    let (guest, host) = topologies(pair)?;
    let method = method_or_best(method, guest.as_ref(), host.as_ref(), pair)?;
    let embedding = embed::build_with(&method, guest.as_ref(), host.as_ref(), &pair.params())?;
    let (g, h, e) = (guest.as_ref(), host.as_ref(), embedding.as_ref());
    match format {
        EmbedFormat::Table => render::embed_table(g, h, e, out),
        EmbedFormat::Csv => render::embed_csv(g, h, e, out),
        EmbedFormat::Json => render::embed_json(g, h, e, out),
        EmbedFormat::Layout => render::embed_layout(g, h, e, out),
        EmbedFormat::ScotchMap | EmbedFormat::SmpiHostfile => {
            let nodes: Vec<u64> = (0..g.node_count()).collect();
            let mut hosts = vec![0; nodes.len()];
            e.map_many(&nodes, &mut hosts);
            match format {
                EmbedFormat::ScotchMap => io::write_mapping(&scotch_labels(g)?, &hosts, out)?,
                _ => io::write_smpi_hostfile(&hosts, prefix, out)?,
            }
            Ok(())
        }
    }
}

/// Vertex labels of a Scotch mapping of `guest`: a Scotch graph keeps its
/// own labels; every other guest is numbered from 0.
pub fn scotch_labels(guest: &dyn Topology) -> Result<Vec<u64>, Error> {
    Ok(match guest.spec() {
        Spec::Graph(path) if io::is_scotch_graph(path) => io::read_labels(path)?,
        _ => (0..guest.node_count()).collect(),
    })
}

/// Writes a topology as a Scotch source graph or target architecture.
pub fn export(
    spec: &str,
    format: ExportFormat,
    base: u64,
    platform: &io::PlatformOptions,
    out: Out,
) -> Result<(), Failure> {
    let spec = parse_spec(spec)?;
    match format {
        ExportFormat::Grf => {
            let topology = topology::build(&spec)?;
            let mut buffered = std::io::BufWriter::new(&mut *out);
            io::write_graph(topology.as_ref(), base, &mut buffered)?;
            buffered.flush()?;
        }
        ExportFormat::Tgt => io::write_target(&spec, out)?,
        ExportFormat::Simgrid => io::write_simgrid_platform(&spec, platform, out)?,
    }
    Ok(())
}

/// Builds, verifies and prints edge-disjoint Hamiltonian cycles of a cube.
pub fn hamiltonian(
    spec: &str,
    summary: bool,
    format: HamiltonianFormat,
    out: Out,
) -> Result<(), Failure> {
    let Spec::Cube(n) = parse_spec(spec)? else {
        return Err(Error::Mismatch(format!(
            "hamiltonian takes a hypercube (cube:n), not {spec}"
        ))
        .into());
    };
    let cycles = topoembed::hamiltonian::cycles(n)?;
    let mut out = std::io::BufWriter::new(out);
    match format {
        HamiltonianFormat::Json => {
            let value = serde_json::json!({
                "dimension": n,
                "nodes": 1u64 << n,
                "verified": true,
                "cycles": if summary { Vec::new() } else { cycles },
            });
            serde_json::to_writer(&mut out, &value).map_err(io_error)?;
            writeln!(out)?;
        }
        HamiltonianFormat::Table => render::hamiltonian(n, &cycles, summary, &mut out)?,
    }
    out.flush()?;
    Ok(())
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
    let embedding = embed::build_with(method, guest.as_ref(), host.as_ref(), &pair.params())?;
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
            metrics::Routing::Model(routing.ties.into())
        },
        fat_edges: routing.fat_edges.map(|f| match f {
            FatEdgesArg::Shortest => FatPaths::Shortest,
            FatEdgesArg::All => FatPaths::All,
        }),
    };
    metrics::measure(guest, host, embedding, &options)
}

pub fn metrics(
    pair: &Pair,
    (placement, summary): (&Placement, Option<(&Path, u64)>),
    costs: Costs,
    (routing, force): (Routing, bool),
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    topoembed::model::check_costs(costs.ta, costs.tc)?;
    let table = format == Format::Table;
    let (m, predicted) = match (&placement.method, &placement.mapping) {
        (method, None) => {
            // (clap refuses --method with --mapping.)
            let (guest, host) = topologies(pair)?;
            let method = method_or_best(method.as_deref(), guest.as_ref(), host.as_ref(), pair)?;
            let embedding =
                embed::build_with(&method, guest.as_ref(), host.as_ref(), &pair.params())?;
            let estimate = work::Estimate {
                units: guest.edge_count() as f64,
                unit: "guest edges",
                // An axis product onto a grid is routed line by line, in no
                // time beside the edge pass (topoembed::traffic).
                rate: match routing.no_traffic
                    || topoembed::traffic::factored(
                        guest.as_ref(),
                        host.as_ref(),
                        embedding.as_ref(),
                    ) {
                    true => work::rate::EDGE,
                    false => work::rate::ROUTED_EDGE,
                },
            };
            work::check("metrics", estimate, force)?;
            let m = measure(
                guest.as_ref(),
                host.as_ref(),
                embedding.as_ref(),
                costs,
                routing,
                table,
            )?;
            (m, None)
        }
        (_, Some(file)) => measure_mapping(pair, file, summary, (costs, routing), table)?,
    };
    match format {
        Format::Json => {
            let mut value = serde_json::to_value(&m).map_err(io_error)?;
            if let (Some(cost), Some(object)) = (predicted, value.as_object_mut()) {
                object.insert(
                    "predicted".into(),
                    serde_json::json!({
                        "latency_bytes": summary.map_or(0, |s| s.1),
                        "total": cost.total(),
                        "bandwidth": cost.bandwidth,
                        "point_to_point_latency": cost.point_to_point_latency,
                        "collectives": cost.collectives,
                    }),
                );
            }
            serde_json::to_writer_pretty(&mut *out, &value).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "{}", render::CSV_HEADER)?;
            writeln!(out, "{}", render::csv_row(&m))?;
        }
        Format::Table => {
            render::metrics_table(&m, out)?;
            if let Some(cost) = predicted {
                writeln!(
                    out,
                    "predicted cost: {} bytes (bandwidth {} + point-to-point latency {} + collectives {}; one hop's latency = {} bytes)",
                    cost.total(),
                    cost.bandwidth,
                    cost.point_to_point_latency,
                    cost.collectives,
                    summary.map_or(0, |s| s.1)
                )?;
            }
        }
    }
    Ok(())
}

/// A graph file guest, its host and a Scotch mapping file of it: a Scotch
/// graph's labels as written, any other format's node ids (from 0) as
/// labels.
fn read_mapped(
    pair: &Pair,
    file: &Path,
) -> Result<(io::ScotchGraph, Box<dyn Topology>, io::Mapping), Failure> {
    let Ok(Spec::Graph(path)) = pair.guest.parse::<Spec>() else {
        return Err(Error::Parameter(format!(
            "--mapping needs a graph file as the guest (graph:FILE: .grf, .graph, .mtx or an \
             edge list), not {}",
            pair.guest
        ))
        .into());
    };
    let guest = if io::is_scotch_graph(&path) {
        io::read_graph(&path)?
    } else {
        io::ScotchGraph::numbered(topoembed::topology::build(&Spec::Graph(path.clone()))?)?
    };
    let host = parse_topology(&pair.host)?;
    let mapping = io::read_mapping(file, &guest, host.node_count())?;
    Ok((guest, host, mapping))
}

/// Measures a Scotch mapping file of a graph file guest ([`read_mapped`]),
/// and with a recording's summary its predicted cost.
fn measure_mapping(
    pair: &Pair,
    file: &Path,
    summary: Option<(&Path, u64)>,
    (costs, routing): (Costs, Routing),
    table: bool,
) -> Result<(Metrics, Option<topoembed::recorded::predict::Cost>), Failure> {
    let (guest, host, mapping) = read_mapped(pair, file)?;
    let mut m = measure(&guest.graph, host.as_ref(), &mapping, costs, routing, table)?;
    m.method = format!("mapping {}", file.display());
    let predicted = match summary {
        None => None,
        Some((path, latency_bytes)) => Some(topoembed::recorded::predict::placement_cost(
            &guest.graph,
            &topoembed::recorded::read_summary(path)?,
            host.as_ref(),
            mapping.hosts(),
            latency_bytes,
        )?),
    };
    Ok((m, predicted))
}

pub fn compare(
    pair: &Pair,
    (costs, routing): (Costs, Routing),
    format: Format,
    detail: render::Detail,
    out: Out,
) -> Result<(), Failure> {
    topoembed::model::check_costs(costs.ta, costs.tc)?;
    let (guest, host) = topologies(pair)?;
    let (g, h) = (guest.as_ref(), host.as_ref());
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    for m in METHODS {
        match (m.build)(g, h, &pair.params()) {
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
    let best = report::best_cc_time(&results);
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report::compare(&results))
                .map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "{},best_cc_time", render::CSV_HEADER)?;
            for (k, m) in results.iter().enumerate() {
                writeln!(out, "{},{}", render::csv_row(m), best.contains(&k))?;
            }
        }
        Format::Table => render::compare_table(&results, &best, &skipped, (costs, detail), out)?,
    }
    Ok(())
}

pub fn io_error(e: serde_json::Error) -> Failure {
    Failure::Io(e.into())
}

/// `completions SHELL`: the completion script clap_complete generates from
/// the argument definitions, so it never falls behind them.
pub fn completions(shell: clap_complete::Shell, out: &mut impl Write) -> Result<(), Failure> {
    let mut command = <crate::cli::Cli as clap::CommandFactory>::command();
    clap_complete::generate(shell, &mut command, "topoembed", out);
    Ok(())
}

/// `man`: the manual page (roff) clap_mangen renders from the same
/// definitions, with every subcommand's page appended.
pub fn man(out: &mut impl Write) -> Result<(), Failure> {
    let command = <crate::cli::Cli as clap::CommandFactory>::command();
    clap_mangen::Man::new(command.clone()).render(out)?;
    for sub in command.get_subcommands() {
        let name = format!("topoembed-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name)
            .version(env!("CARGO_PKG_VERSION"));
        clap_mangen::Man::new(page).render(out)?;
    }
    Ok(())
}
