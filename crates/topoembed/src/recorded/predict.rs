//! A recorded run's predicted cost under a placement, in bytes (divide by
//! the link bandwidth for seconds), as a bulk-synchronous program spends
//! it — phases one after the other, the messages of a phase together:
//!
//! * **bandwidth**: the most bytes routed over one host link (the pairs'
//!   traffic under the host's routing, as `metrics` counts congestion; on
//!   a host without links, a tleaf, the hop-bytes over the host nodes);
//! * **point-to-point latency**: `latency_bytes` × the most any pair waits,
//!   ⌈its messages / 2⌉ × its hops (an exchange sends both ways at once);
//! * **collectives**: for each modelled operation, calls × Σ over its
//!   algorithm's stages of the stage's critical path — the most hops any
//!   rank waits through (a linear stage: the farthest rank from the root; a
//!   binomial tree: the longest root-to-rank path) — × (`latency_bytes` +
//!   the message's bytes).
//!
//! The sum is what [`super::place`] minimises over its candidates: a
//! search on hop-bytes alone cannot see a critical path.

use crate::error::{Error, Result};
use crate::mapper::refine::congestion;
use crate::mapper::{self, HostDistance, WGraph};
use crate::topology::{Graph, Topology};

use super::smpi::Stage;
use super::Summary;

/// A placement's predicted cost, by term, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Cost {
    pub bandwidth: u64,
    pub point_to_point_latency: u64,
    pub collectives: u64,
}

impl Cost {
    /// The three terms together.
    pub fn total(&self) -> u64 {
        self.bandwidth
            .saturating_add(self.point_to_point_latency)
            .saturating_add(self.collectives)
    }
}

/// The predicted cost of `hosts` (host node of each rank) on `host` for
/// the recorded pairs `pairs` and the summary beside them.
pub fn placement_cost(
    pairs: &Graph,
    summary: &Summary,
    host: &dyn Topology,
    hosts: &[u64],
    latency_bytes: u64,
) -> Result<Cost> {
    if summary.ranks != pairs.node_count() || hosts.len() as u64 != pairs.node_count() {
        return Err(Error::Mismatch(format!(
            "the summary is of a run of {} ranks, the graph {} has {} nodes and the placement {} entries; give the summary written beside the graph",
            summary.ranks,
            pairs.spec(),
            pairs.node_count(),
            hosts.len()
        )));
    }
    let g = WGraph::from_topology(pairs)?;
    cost(&g, summary, &HostDistance::new(host)?, hosts, latency_bytes)
}

/// The predicted cost of `place` (host node of each rank) for the pairs
/// `g` (bytes) and the summary's messages and collectives.
pub fn cost(
    g: &WGraph,
    summary: &Summary,
    dist: &HostDistance,
    place: &[u64],
    latency_bytes: u64,
) -> Result<Cost> {
    let bandwidth = match congestion::busiest_link(g, dist, place)? {
        Some(load) => load,
        None => {
            let hop_bytes = mapper::hop_bytes(g, dist, place);
            u64::try_from(hop_bytes / u128::from(dist.host().node_count().max(1)))
                .unwrap_or(u64::MAX)
        }
    };
    let waits = summary
        .pair_messages
        .iter()
        .flatten()
        .map(|&[u, v, m]| {
            m.div_ceil(2)
                .saturating_mul(dist.d(place[u as usize], place[v as usize]))
        })
        .max()
        .unwrap_or(0);
    let n = place.len() as u64;
    let mut collectives: u64 = 0;
    for (op, stages, message_bytes) in super::modelled_operations(summary, n) {
        let per_hop = message_bytes.saturating_add(latency_bytes);
        let hops: u64 = stages
            .iter()
            .map(|&s| critical_hops(s, n, dist, place))
            .sum();
        collectives =
            collectives.saturating_add(op.calls.saturating_mul(hops).saturating_mul(per_hop));
    }
    Ok(Cost {
        bandwidth,
        point_to_point_latency: waits.saturating_mul(latency_bytes),
        collectives,
    })
}

/// The most hops a rank waits through in `stage` on `n` ranks (root 0).
pub fn critical_hops(stage: Stage, n: u64, dist: &HostDistance, place: &[u64]) -> u64 {
    let d = |u: u64, v: u64| dist.d(place[u as usize], place[v as usize]);
    match stage {
        Stage::ToRoot | Stage::FromRoot => (1..n).map(|v| d(0, v)).max().unwrap_or(0),
        Stage::Binomial => {
            // Parents come before children (v − lowbit(v) < v).
            let mut arrival = vec![0u64; n as usize];
            for (u, v, _) in stage.messages(n) {
                arrival[v as usize] = arrival[u as usize].saturating_add(d(u, v));
            }
            arrival.into_iter().max().unwrap_or(0)
        }
    }
}
