//! `draw`: one figure of an embedding as SVG.

use std::path::Path;

use topoembed::embed::{self, Embedding};
use topoembed::metrics::{self, Options, Routing};
use topoembed::routing::{HostRoute, TieRule};
use topoembed::spec::Spec;
use topoembed::topology::Topology;
use topoembed::traffic;

use crate::cli::{FigureArg, Pair};
use crate::commands::{method_or_best, parse_topology, Out};
use crate::figures::{self, charts, layout};
use crate::Failure;

/// Draws `figure` and writes it to `output` (or `out`).
pub fn draw(
    pair: &Pair,
    method: Option<&str>,
    figure: FigureArg,
    edges: bool,
    ties: TieRule,
    output: Option<&Path>,
    out: Out,
) -> Result<(), Failure> {
    let guest = parse_topology(&pair.guest)?;
    let host = parse_topology(&pair.host)?;
    let method = method_or_best(method, guest.as_ref(), host.as_ref(), pair)?;
    let embedding = embed::build_with(&method, guest.as_ref(), host.as_ref(), &pair.params())?;
    let (g, h, e) = (guest.as_ref(), host.as_ref(), embedding.as_ref());
    let (svg, what) = match figure {
        FigureArg::Layout => (
            layout::draw(&layout::Request {
                guest: g,
                host: h,
                embedding: e,
                edges,
            })?,
            format!("layout of {} host nodes", h.node_count()),
        ),
        FigureArg::Spectrum => (spectrum(g, h, e)?, "dilation spectrum".to_string()),
        FigureArg::Load => (
            load(g, h, e, ties)?,
            format!("node-load profile of {} host nodes", h.node_count()),
        ),
    };
    match output {
        Some(path) => {
            figures::save(path, &svg)?;
            writeln!(out, "wrote {}: {what}", path.display())?;
        }
        None => out.write_all(svg.as_bytes())?,
    }
    Ok(())
}

/// The dilation spectrum as bars.
pub fn spectrum(
    guest: &dyn Topology,
    host: &dyn Topology,
    e: &dyn Embedding,
) -> Result<String, Failure> {
    let options = Options {
        routing: Routing::Off,
        ..Options::default()
    };
    let m = metrics::measure(guest, host, e, &options)?;
    let title = format!(
        "dilation spectrum, {}: {} -> {} (max {}, mean {:.3})",
        e.method(),
        guest.spec(),
        host.spec(),
        m.dilation.max,
        m.dilation.average
    );
    charts::spectrum(&title, &m.dilation.spectrum)
}

/// The node-load profile, one line per guest edge class.
pub fn load(
    guest: &dyn Topology,
    host: &dyn Topology,
    e: &dyn Embedding,
    ties: TieRule,
) -> Result<String, Failure> {
    if host.node_count() > layout::MAX_HOST_NODES {
        return Err(topoembed::Error::Parameter(format!(
            "a load profile draws at most {} host nodes; {} has {}",
            layout::MAX_HOST_NODES,
            host.spec(),
            host.node_count()
        ))
        .into());
    }
    let route = HostRoute::new(host, ties);
    let profile = traffic::node_load_profile(guest, host, e, &route)?;
    let class = |i: usize| match guest.spec() {
        Spec::Cube(_) => format!("dimension {i}"),
        Spec::BinTree(_) => format!("level {i}"),
        s if s.grid().is_some() => format!("axis {}", i + 1),
        _ => "edges".to_string(),
    };
    let title = format!(
        "node load along {}, {}: {} (routes through each node, ends not counted)",
        host.spec(),
        e.method(),
        guest.spec()
    );
    charts::load_profile(&title, &profile, &class)
}
