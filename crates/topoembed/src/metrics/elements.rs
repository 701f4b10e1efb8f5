//! Guest nodes per host node: the load factor of maps not known to be
//! one-to-one, and the per-level load of tree guests (lecture notes §3).

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::embed::Embedding;
use crate::error::{Error, Result};

/// Guest nodes per host node, counted (maps not known to be one-to-one).
pub(super) fn count_load(
    guest_nodes: u64,
    host_nodes: u64,
    emb: &dyn Embedding,
) -> Result<ElementCounts> {
    if host_nodes > u64::from(u32::MAX) {
        return Err(Error::Parameter(format!(
            "the load factor of a many-to-one map onto {host_nodes} host nodes needs a counter \
             per host node; at most {} are supported",
            u32::MAX
        )));
    }
    let load: Vec<AtomicU32> = (0..host_nodes).map(|_| AtomicU32::new(0)).collect();
    (0..guest_nodes).into_par_iter().for_each(|g| {
        load[emb.map(g) as usize].fetch_add(1, Ordering::Relaxed);
    });
    let (min, max, unused) = load
        .par_iter()
        .map(|c| u64::from(c.load(Ordering::Relaxed)))
        .fold(
            || (u64::MAX, 0, 0),
            |(lo, hi, idle), x| (lo.min(x), hi.max(x), idle + u64::from(x == 0)),
        )
        .reduce(
            || (u64::MAX, 0, 0),
            |a, b| (a.0.min(b.0), a.1.max(b.1), a.2 + b.2),
        );
    Ok(ElementCounts {
        min: if host_nodes == 0 { 0 } else { min },
        max,
        unused,
    })
}

/// Most nodes of each level of `bintree:leaves` on one host node; `None`
/// when a host counter per node would not fit in memory (over 2^32 nodes).
pub(super) fn level_load(leaves: u64, host_nodes: u64, emb: &dyn Embedding) -> Option<Vec<u64>> {
    if host_nodes > 1 << 32 {
        return None;
    }
    let mut count = vec![0u32; host_nodes as usize];
    let levels = leaves.trailing_zeros() + 1;
    let loads = (0..levels)
        .map(|level| {
            let nodes = (1u64 << level) - 1..(2u64 << level) - 1;
            let mut most = 0;
            for v in nodes.clone() {
                let c = &mut count[emb.map(v) as usize];
                *c += 1;
                most = most.max(*c);
            }
            for v in nodes {
                count[emb.map(v) as usize] = 0;
            }
            u64::from(most)
        })
        .collect();
    Some(loads)
}

/// Guest nodes per host node of a many-to-one map.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct ElementCounts {
    /// Fewest guest nodes on one host node (0 when some are unused).
    pub min: u64,
    /// Most guest nodes on one host node: the load factor.
    pub max: u64,
    /// Host nodes with no guest node.
    pub unused: u64,
}
