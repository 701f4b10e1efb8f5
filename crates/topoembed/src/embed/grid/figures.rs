//! Per-axis figures of a grid guest on a grid host, counted message by
//! message: every node of every ring of guest axis i sends one message to
//! its successor (the last to the first on a ring, nothing from the last
//! node of a line), all at once, routed dimension-order on the host.

use crate::routing::TieRule;
use crate::topology::{Grid, Topology};

/// What one guest axis's rings cost on the host.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AxisFigures {
    /// Most hops between consecutive nodes of a ring (closing pair included).
    pub max_hops: u64,
    /// Mean hops over every ring's consecutive pairs.
    pub average_hops: f64,
    /// Most messages on one directed host link.
    pub congestion: u64,
    /// Messages sent (every ring's consecutive pairs).
    pub messages: u64,
}

impl AxisFigures {
    /// The figures of `messages` messages whose hops total `total`, the
    /// longest `max_hops`, `congestion` on the busiest link.
    pub fn from_counts(max_hops: u64, total: u64, messages: u64, congestion: u64) -> AxisFigures {
        AxisFigures {
            max_hops,
            average_hops: if messages == 0 {
                0.0
            } else {
                total as f64 / messages as f64
            },
            congestion,
            messages,
        }
    }
}

/// Figures of every guest axis (lengths `sides`, rings where `closed`) when
/// guest node with coordinates c sits on host node `place(c)`. The map must
/// be a bijection onto the host (the callers check node counts).
pub fn exact_figures(
    host: &Grid,
    sides: &[u64],
    closed: &[bool],
    place: &dyn Fn(&[u64]) -> u64,
) -> Vec<AxisFigures> {
    let n: u64 = sides.iter().product();
    // Host node of every guest node, guest numbering (axis 1 fastest).
    let mut table = Vec::with_capacity(n as usize);
    let mut coords = vec![0u64; sides.len()];
    for _ in 0..n {
        table.push(place(&coords));
        for (c, &s) in coords.iter_mut().zip(sides) {
            *c += 1;
            if *c < s {
                break;
            }
            *c = 0;
        }
    }
    figures_of_table(host, sides, closed, &table)
}

/// [`exact_figures`] from a table: `table[g]` is the host node of guest node g.
pub fn figures_of_table(
    host: &Grid,
    sides: &[u64],
    closed: &[bool],
    table: &[u64],
) -> Vec<AxisFigures> {
    let n = table.len() as u64;
    let axes = host.edge_classes() as usize;
    let mut links = vec![0u32; (host.node_count() as usize) * axes * 2];
    let mut stride = 1;
    let mut out = Vec::with_capacity(sides.len());
    for (&side, &ring) in sides.iter().zip(closed) {
        links.fill(0);
        let (mut max, mut total, mut messages, mut congestion) = (0, 0u64, 0u64, 0u32);
        for g in 0..n {
            let c = (g / stride) % side;
            let next = if c + 1 < side {
                g + stride
            } else if ring && side > 1 {
                g - c * stride
            } else {
                continue;
            };
            let (a, b) = (table[g as usize], table[next as usize]);
            let d = host.distance(a, b);
            max = max.max(d);
            total += d;
            messages += 1;
            host.legs(a, b, TieRule::Increasing, |leg| {
                for t in 0..leg.len {
                    let link = (leg.first_link + t) % leg.side;
                    let node = leg.base + link * leg.stride;
                    let at = (node as usize * axes + leg.axis) * 2 + usize::from(leg.forward);
                    links[at] += 1;
                    congestion = congestion.max(links[at]);
                }
            });
        }
        out.push(AxisFigures::from_counts(
            max,
            total,
            messages,
            u64::from(congestion),
        ));
        stride *= side;
    }
    out
}
