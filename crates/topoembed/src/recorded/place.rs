//! `map --summary`: a recorded run placed by its predicted cost
//! ([`super::predict`]). Hop-bytes, the mapper's objective, sums; a run's
//! time is set by its busiest link and its longest waits. So four
//! candidates are made and the one of least predicted cost is kept (the
//! first on ties):
//!
//! 1. the mapper on the pairs' bytes alone (what `map` does without a
//!    summary);
//! 2. the mapper on the pairs with the collectives' messages added
//!    ([`super::weigh`]), the launch order weighed against its search;
//! 3. the same with each pair's message latencies added too;
//! 4. the launch order itself (rank r on host node r), when ranks and host
//!    nodes are as many — so the placement kept is never predicted slower
//!    than the order the launcher would use.

use crate::embed::mapped;
use crate::error::Result;
use crate::mapper::{self, HostDistance, MapOptions, Placement, WGraph};
use crate::topology::{Graph, Topology};

use super::predict::{self, Cost};
use super::{weigh, Latencies, Summary, Weighed};

/// One candidate and its predicted cost.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Candidate {
    pub name: String,
    pub cost: Cost,
    /// The pairs' hop-bytes (bytes only).
    pub hop_bytes: u128,
}

/// The placement kept, every candidate, and what the summary added.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub placement: Placement,
    pub candidates: Vec<Candidate>,
    /// Index of the kept candidate.
    pub kept: usize,
    pub weighed: Weighed,
}

impl Chosen {
    /// What `map --format json` reports under `summary`: the latency, every
    /// candidate with its predicted cost, the one kept, the collectives
    /// modelled and what was left out.
    pub fn report(&self) -> serde_json::Value {
        serde_json::json!({
            "latency_bytes": self.weighed.latency_bytes,
            "candidates": self.candidates.iter().map(|x| serde_json::json!({
                "name": x.name,
                "hop_bytes": x.hop_bytes,
                "predicted": x.cost,
                "predicted_total": x.cost.total(),
            })).collect::<Vec<_>>(),
            "kept": self.kept,
            "point_to_point_messages": self.weighed.messages,
            "collectives": self.weighed.modelled,
            "left_out": self.weighed.left_out,
        })
    }
}

/// Places the recorded pairs `pairs` (rank i = guest node i) on `host`
/// seeing the summary's latencies and collectives (see the module docs).
pub fn map_recorded(
    pairs: &Graph,
    summary: &Summary,
    host: &dyn Topology,
    options: &MapOptions,
    latency_bytes: u64,
) -> Result<Chosen> {
    let mut placements: Vec<(String, Placement)> = Vec::new();
    placements.push((
        "the mapper on the pairs' bytes".into(),
        mapped::map(pairs, host, options)?,
    ));
    let launch = mapped::launch_order(pairs, host);
    let collectives = weigh(pairs, summary, latency_bytes, Latencies::Collectives)?;
    let weighed = weigh(pairs, summary, latency_bytes, Latencies::All)?;
    for (w, name) in [
        (&collectives, "the mapper on bytes and collectives"),
        (&weighed, "the mapper on bytes, collectives and latencies"),
    ] {
        placements.push((
            name.into(),
            mapped::map_with(
                &w.graph,
                pairs,
                host,
                options,
                launch.iter().cloned().collect(),
            )?
            .with_context(&format!("{name} (hop-bytes with the weights added)")),
        ));
    }
    let g = WGraph::from_topology(pairs)?;
    let cap = mapper::capacity(&g, host.node_count(), options.imbalance);
    if let Some(start) = launch.filter(|_| cap == 1) {
        let given = Placement::given(start.hosts, host.node_count(), cap, &start.name);
        placements.push((start.name, given));
    }
    let dist = HostDistance::new(host)?;
    let mut candidates = Vec::with_capacity(placements.len());
    for (name, p) in &placements {
        let place = p.hosts();
        let hop_bytes = mapper::hop_bytes(&g, &dist, place);
        candidates.push(Candidate {
            name: name.clone(),
            cost: predict::cost(&g, summary, &dist, place, latency_bytes)?,
            hop_bytes,
        });
    }
    let kept = (0..candidates.len())
        .min_by_key(|&i| (candidates[i].cost.total(), i))
        .expect("at least the mapper's candidates");
    let placement = placements.swap_remove(kept).1;
    Ok(Chosen {
        placement,
        candidates,
        kept,
        weighed,
    })
}
