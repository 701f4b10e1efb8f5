//! `report`: one self-contained HTML page comparing every method that
//! applies to a pair: a metrics table, what each metric means, and for each
//! method its layout, dilation spectrum, node-load profile and the Gantt
//! chart of a simulated run. Figures are inline SVG, styles inline; the page
//! loads nothing from anywhere, so it opens offline and can be mailed.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use topoembed::embed::{self, Embedding, Method};
use topoembed::metrics::{self, Metrics, Options, Routing};
use topoembed::routing::TieRule;
use topoembed::runtime::Costs;
use topoembed::simulate::{Network, Trace};
use topoembed::spec::Spec;
use topoembed::topology::Topology;
use topoembed::Progress;

use crate::cli::Pair;
use crate::commands::{parse_topology, Out};
use crate::drawing;
use crate::figures::{self, layout};
use crate::progress::Bar;
use crate::simulation;
use crate::table::num;
use crate::Failure;

/// Processes in each Gantt chart.
const GANTT_ROWS: u64 = 16;
/// Largest guest simulated for the report.
const MAX_SIMULATED: u64 = 1 << 16;

/// What every metric in the table means (DESIGN.md's vocabulary).
const GLOSSARY: &[(&str, &str)] = &[
    ("load factor", "the most guest nodes placed on one host node (1: one-to-one)."),
    ("dilation", "the host distance between the ends of a guest edge: how many links a message between guest neighbours crosses. Max, mean and total over guest edges; the spectrum counts the edges of each dilation (xor paper §4.2)."),
    ("congestion", "the most guest edges routed over one host link under the host's routing model (dimension-order on grids, e-cube on cubes)."),
    ("node load", "guest edges whose route passes through a host node, its two ends not counted (journal xor paper §4.5): max / min / mean over host nodes. The profile plots it node by node, per guest dimension or axis."),
    ("CC time", "time of a compute-and-communicate d-cube algorithm (compute, then exchange along one dimension, d times) by the xor paper's recurrence, with T_a = T_c = 1 (as the simulation). Cube guests only."),
    ("simulated", "makespan of the simulated program on the host network: links carry one message per direction at a time, messages queue for busy links (store-and-forward). In brackets, without contention; the difference is what link sharing costs. Cube guests run the CC exchange of every dimension, other guests a neighbour (halo) exchange."),
    ("Gantt chart", "what the first processes did over time: compute (blue), communicate (green), wait for a partner (grey), blocked by contention (red), as in the xor paper's figure 4."),
];

/// One method's numbers and figures.
struct Section {
    method: &'static Method,
    metrics: Metrics,
    simulated: Option<(f64, f64)>,
    figures: Vec<(&'static str, String, String)>,
}

/// Writes the report for `pair` to `output`.
pub fn report(pair: &Pair, output: &Path, show_progress: bool, out: Out) -> Result<(), Failure> {
    let guest: Arc<dyn Topology> = Arc::from(parse_topology(&pair.guest)?);
    let host: Arc<dyn Topology> = Arc::from(parse_topology(&pair.host)?);
    let methods = embed::applicable_with(guest.as_ref(), host.as_ref(), &pair.params());
    if methods.is_empty() {
        return Err(topoembed::Error::Mismatch(format!(
            "no method applies to {} -> {}; see `topoembed methods`",
            guest.spec(),
            host.spec()
        ))
        .into());
    }
    let progress = Arc::new(Progress::new());
    progress.add_total(methods.len() as u64);
    let label = format!("report {} -> {}", guest.spec(), host.spec());
    let bar = Bar::start(progress.clone(), label, show_progress);
    let mut sections = Vec::new();
    for (method, embedding) in methods {
        sections.push(section(
            method,
            guest.as_ref(),
            host.as_ref(),
            Arc::from(embedding),
        )?);
        progress.advance(1);
    }
    drop(bar);
    let html = page(guest.as_ref(), host.as_ref(), &sections);
    figures::save(output, &html)?;
    writeln!(
        out,
        "wrote {}: {} methods compared ({}), {} figures, {} KiB",
        output.display(),
        sections.len(),
        sections
            .iter()
            .map(|s| s.method.name)
            .collect::<Vec<_>>()
            .join(", "),
        sections.iter().map(|s| s.figures.len()).sum::<usize>(),
        html.len().div_ceil(1024)
    )?;
    Ok(())
}

fn section(
    method: &'static Method,
    guest: &dyn Topology,
    host: &dyn Topology,
    shared: Arc<dyn Embedding>,
) -> Result<Section, Failure> {
    let embedding = Arc::clone(&shared);
    let embedding = embedding.as_ref();
    // T_a = T_c = 1 here and in the simulation, so that the CC time and the
    // contention-free makespan of a cube guest are the same number.
    let options = Options {
        ta: 1.0,
        tc: 1.0,
        routing: Routing::Model(TieRule::Increasing),
        ..Options::default()
    };
    let metrics = metrics::measure(guest, host, embedding, &options)?;
    let mut figures = Vec::new();
    let drawable = host.node_count() <= layout::MAX_HOST_NODES
        && guest.node_count() <= layout::MAX_GUEST_NODES;
    if drawable {
        let svg = layout::draw(&layout::Request {
            guest,
            host,
            embedding,
            edges: guest.edge_count() <= 512,
        })?;
        let caption = format!(
            "Layout: each host node of {} labelled with its guest node(s){}.",
            host.spec(),
            if guest.edge_count() <= 512 {
                "; guest edges coloured by dilation"
            } else {
                ""
            }
        );
        figures.push(("layout", svg, caption));
    }
    figures.push((
        "spectrum",
        drawing::spectrum(guest, host, embedding)?,
        "Dilation spectrum: guest edges of each dilation.".to_string(),
    ));
    if drawable {
        figures.push((
            "load",
            drawing::load(guest, host, embedding, TieRule::Increasing)?,
            "Node load along the host's numbering, per guest dimension or axis, and in all."
                .to_string(),
        ));
    }
    let mut simulated = None;
    if guest.node_count() <= MAX_SIMULATED {
        let trace = match guest.spec() {
            Spec::Cube(d) => Trace::cc(*d, 0, &(0..*d).collect::<Vec<_>>(), 1, embedding)?,
            _ => Trace::halo(guest, embedding, 2, 1)?,
        };
        let net = Network {
            costs: Costs {
                ta: 1.0,
                tc: 1.0,
                tb: 0.0,
            },
            ..Network::default()
        };
        let (sim, free) =
            topoembed::workload::with_and_without(&trace, host, &net, GANTT_ROWS, None)?;
        simulated = Some((sim.makespan, free));
        let title = format!("{}, makespan {}", trace.source, num(sim.makespan));
        let caption = format!(
            "Gantt chart of the first {} processes of the simulated {}.",
            sim.intervals.len(),
            trace.source
        );
        let traced = topoembed::workload::Traced {
            trace,
            embedding: shared,
            ranks: None,
            problem: None,
        };
        let svg = simulation::gantt_of(&traced, &sim, &title, "time (T_a = T_c = 1)")?;
        figures.push(("gantt", svg, caption));
    }
    Ok(Section {
        method,
        metrics,
        simulated,
        figures,
    })
}

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #333; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.best { font-weight: bold; color: #2a7a2a; }
dt { font-weight: bold; margin-top: 0.6em; }
figure { margin: 1em 0; overflow-x: auto; }
figcaption { font-size: 0.85em; color: #666; }
nav a { margin-right: 1em; }
";

fn page(guest: &dyn Topology, host: &dyn Topology, sections: &[Section]) -> String {
    let title = format!("{} -> {}", guest.spec(), host.spec());
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>topoembed report: {t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>topoembed report: {t}</h1>\n<p>{} guest nodes, {} guest edges on {} host nodes. \
         {} methods apply. Generated by topoembed {}.</p>\n<nav>",
        guest.node_count(),
        guest.edge_count(),
        host.node_count(),
        sections.len(),
        env!("CARGO_PKG_VERSION"),
        t = escape(&title),
    );
    for s in sections {
        let _ = write!(h, "<a href=\"#method-{0}\">{0}</a>", s.method.name);
    }
    h.push_str("</nav>\n<h2>Metrics</h2>\n");
    h.push_str(&metrics_table(sections));
    h.push_str("<h2>What the metrics mean</h2>\n<dl>\n");
    for (term, meaning) in GLOSSARY {
        let _ = writeln!(h, "<dt>{term}</dt><dd>{}</dd>", escape(meaning));
    }
    h.push_str("</dl>\n");
    for s in sections {
        let _ = write!(
            h,
            "<h2 id=\"method-{0}\">{0}</h2>\n<p>{1}</p>\n",
            s.method.name,
            escape(s.method.summary)
        );
        for (kind, svg, caption) in &s.figures {
            let _ = write!(
                h,
                "<figure class=\"{kind}\" data-method=\"{}\" data-host-nodes=\"{}\">\n{svg}\n\
                 <figcaption>{}</figcaption>\n</figure>\n",
                s.method.name,
                host.node_count(),
                escape(caption)
            );
        }
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn metrics_table(sections: &[Section]) -> String {
    let cc = |s: &Section| s.metrics.cc_time.as_ref().map(|c| c.time);
    let best_cc = sections.iter().filter_map(cc).fold(f64::INFINITY, f64::min);
    let best_sim = sections
        .iter()
        .filter_map(|s| s.simulated.map(|x| x.0))
        .fold(f64::INFINITY, f64::min);
    let mut h = String::from(
        "<table>\n<tr><th>method</th><th>load factor</th><th>dilation max</th><th>mean</th>\
         <th>total</th><th>congestion</th><th>node load max / min / mean</th><th>CC time</th>\
         <th>simulated (no contention)</th></tr>\n",
    );
    for s in sections {
        let m = &s.metrics;
        let cell = |v: Option<f64>, best: f64| match v {
            Some(x) if x == best => format!("<td class=\"best\">{}</td>", num(x)),
            Some(x) => format!("<td>{}</td>", num(x)),
            None => "<td>-</td>".to_string(),
        };
        let load = m.node_load.map_or("-".to_string(), |l| {
            format!("{} / {} / {:.2}", l.max, l.min, l.average)
        });
        let simulated = match s.simulated {
            Some((with, without)) if with == best_sim => {
                format!("<td class=\"best\">{} ({})</td>", num(with), num(without))
            }
            Some((with, without)) => format!("<td>{} ({})</td>", num(with), num(without)),
            None => "<td>-</td>".to_string(),
        };
        let _ =
            writeln!(
            h,
            "<tr><td><a href=\"#method-{0}\">{0}</a></td><td>{1}</td><td>{2}</td><td>{3:.3}</td>\
             <td>{4}</td><td>{5}</td><td>{6}</td>{7}{8}</tr>",
            s.method.name,
            m.load_factor,
            m.dilation.max,
            m.dilation.average,
            m.dilation.total,
            m.congestion.as_ref().map_or("-".to_string(), |c| c.max.to_string()),
            load,
            cell(cc(s), best_cc),
            simulated,
        );
    }
    h.push_str("</table>\n<p>Best CC time and simulated makespan in bold green.</p>\n");
    h
}
