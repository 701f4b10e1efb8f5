//! The weighted load pass: how much guest load each host node carries.
//!
//! DESIGN.md: the load of a guest node is its weight (the work it does);
//! a host node's load is the sum over the guest nodes placed on it. The
//! balance a mapper promises (`--imbalance EPS`) is that no host node holds
//! more than ⌈(1 + EPS) · total load / host nodes⌉.

use serde::Serialize;

use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::topology::Topology;

/// Largest host a per-node load table is kept for.
const MAX_HOST_NODES: u64 = 1 << 30;

/// Guest load per host node.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct HostLoad {
    /// Σ guest load.
    pub total: u128,
    /// Most load on one host node.
    pub max: u64,
    /// Least load on one host node.
    pub min: u64,
    /// Total load / host nodes.
    pub average: f64,
    /// max / average − 1: how far the fullest node is above the average.
    pub imbalance: f64,
}

/// Sums the guest loads per host node (guests small enough to be stored).
pub fn host_load(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
) -> Result<HostLoad> {
    let n = host.node_count();
    if n > MAX_HOST_NODES {
        return Err(Error::Parameter(format!(
            "guest loads per host node need a counter per node of {}; at most {MAX_HOST_NODES} are supported",
            host.spec()
        )));
    }
    // One table, filled in one sequential pass: weighted guests are stored
    // graphs, so the pass is no longer than reading them was.
    let mut load = vec![0u64; n as usize];
    for g in 0..guest.node_count() {
        let at = &mut load[embedding.map(g) as usize];
        *at = at.saturating_add(guest.load(g));
    }
    let total: u128 = load.iter().map(|&x| u128::from(x)).sum();
    let max = load.iter().copied().max().unwrap_or(0);
    let average = total as f64 / n.max(1) as f64;
    Ok(HostLoad {
        total,
        max,
        min: load.iter().copied().min().unwrap_or(0),
        average,
        imbalance: if average > 0.0 {
            max as f64 / average - 1.0
        } else {
            0.0
        },
    })
}
