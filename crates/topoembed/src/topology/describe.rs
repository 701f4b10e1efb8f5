//! The words for a host family's own routing model, shown beside the
//! traffic metrics ([`crate::routing`] re-exports it).

use super::{TieRule, Topology};
use crate::spec::Spec;

/// How the family's own model routes, in words.
pub fn describe_model(host: &dyn Topology, ties: TieRule) -> String {
    match host.spec().grid() {
        Some((_, wraps)) if wraps.iter().all(|&w| w) => format!(
            "dimension-order (axis 1 first), shorter way round each ring, ties toward {ties} coordinate"
        ),
        Some((_, wraps)) if wraps.iter().any(|&w| w) => {
            let rings: Vec<String> = (1..=wraps.len())
                .filter(|&k| wraps[k - 1])
                .map(|k| k.to_string())
                .collect();
            format!(
                "dimension-order (axis 1 first), shorter way round the wrapped axes ({}), ties toward {ties} coordinate",
                rings.join(", ")
            )
        }
        Some(_) => "dimension-order (axis 1 first)".to_string(),
        None => match host.spec() {
            Spec::Cube(_) => "e-cube (lowest differing bit first)".to_string(),
            Spec::BinTree(_) => "the unique tree path".to_string(),
            _ if host.as_graph().is_some_and(|g| g.volumes().is_some()) => {
                "cheapest path (edge volumes as link costs), then fewest links, lowest-numbered next hop"
                    .to_string()
            }
            _ => "shortest path, lowest-numbered next hop".to_string(),
        },
    }
}
