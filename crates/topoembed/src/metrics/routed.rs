//! The routed pass: guest edges routed over the host (its own model or a
//! caller's), giving congestion, link and node loads ([`crate::traffic`])
//! and the lecture notes' slowdown factors.

use super::{Metrics, Options, Routing, Slowdown};
use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::routing::{HostRoute, Route};
use crate::topology::Topology;
use crate::traffic;

/// Routes the guest edges (unless routing is off) and records congestion,
/// link and node loads and the slowdown factors; sizes beyond the counters'
/// limits leave a note instead.
pub(super) fn add_traffic(
    metrics: &mut Metrics,
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    options: &Options,
) -> Result<()> {
    if matches!(options.routing, Routing::Model(_)) && host.spec().has_no_links() {
        metrics.notes.push(format!(
            "congestion and node loads not computed: {} gives costs between its leaves, not \
                 the links between them; hop-bytes is its measure",
            host.spec()
        ));
        return Ok(());
    }
    let model;
    let route: &dyn Route = match options.routing {
        Routing::Off => return Ok(()),
        Routing::Model(ties) => {
            model = HostRoute::new(host, ties);
            &model
        }
        Routing::Custom(route) => route,
    };
    match traffic::measure(guest, host, embedding, route, options.progress) {
        Ok(t) => {
            set_traffic(metrics, t);
            Ok(())
        }
        Err(e @ Error::Parameter(_)) => {
            metrics
                .notes
                .push(format!("congestion and node loads not computed: {e}"));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Records what routing found, and the slowdown factors.
pub(super) fn set_traffic(metrics: &mut Metrics, t: traffic::Traffic) {
    metrics.slowdown = Some(Slowdown {
        computation: metrics.load_factor,
        communication: t.congestion.max * metrics.dilation.max,
    });
    metrics.routing = Some(t.routing);
    metrics.congestion = Some(t.congestion);
    metrics.link_load = t.link_load;
    metrics.node_load = Some(t.node_load);
    metrics.node_traffic = Some(t.node_traffic);
}
