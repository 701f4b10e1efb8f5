//! A recording's summary in the mapper's objective. The pair graph holds
//! bytes only, as hop-bytes weighs them; but a message also pays one
//! latency per hop whatever its size, and the collectives — counted apart
//! in the summary — send messages that follow rank numbers (a binomial
//! broadcast's partners are r and r + 2^j), so a placement good for the
//! pairs' bytes can be slow. [`weigh`] adds both to the graph as volume
//! the mapper weighs with the rest.
//!
//! **The model.** A message of b bytes over h hops costs about h·α + b·β
//! (α: one hop's latency, β: seconds per byte); in bytes, h × (b +
//! `latency_bytes`), `latency_bytes` = α/β being what a link carries in
//! one hop's latency (1 µs at 10 GB/s is 10 000 bytes). So each pair's
//! volume gains its messages × `latency_bytes` (the summary's
//! `pair_messages`). A collective's messages are weighed as (bytes +
//! `latency_bytes`) × the ranks that wait for them (a tree's message to v:
//! v's whole subtree), times the calls: their hop-bytes is then Σ over
//! ranks of the hops each waits through. The algorithms are SMPI's default
//! selector's ([`smpi`]); only `MPI_COMM_WORLD`'s collectives are modelled
//! (a split communicator's members are not in the summary).

mod place;
pub mod predict;
pub mod smpi;
mod summary;

pub use place::{map_recorded, Candidate, Chosen};

pub use summary::{
    parse_summary, read_summary, Communicator, CommunicatorCollectives, Operation, Summary,
};

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::topology::{Graph, Topology};

/// Default `latency_bytes`: 1 µs of latency at 10 GB/s.
pub const DEFAULT_LATENCY_BYTES: u64 = 10_000;

/// One modelled operation: what it added to the graph.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Modelled {
    pub operation: String,
    pub calls: u64,
    /// Bytes of one message: the operation's bytes over calls × members.
    pub message_bytes: u64,
    /// The algorithm's stages, as the notes print them.
    pub algorithm: String,
    /// Volume added to the graph (Σ over its edges).
    pub volume: u64,
}

/// The guest graph with the latencies and the modelled collectives added,
/// and what was modelled and left out.
#[derive(Debug, Clone)]
pub struct Weighed {
    pub graph: Graph,
    /// Point-to-point messages whose latency was added (0 when the summary
    /// has no `pair_messages`).
    pub messages: u64,
    /// Volume their latency added.
    pub latency_volume: u64,
    pub modelled: Vec<Modelled>,
    /// One line per operation or communicator left out, saying why.
    pub left_out: Vec<String>,
    pub latency_bytes: u64,
}

/// The `MPI_COMM_WORLD` operations of a run of `n` ranks that SMPI's model
/// covers ([`smpi::algorithm`]), each with its stages and one message's
/// bytes (the operation's bytes over calls × members); none for calls of 0
/// or a single rank.
pub fn modelled_operations(
    summary: &Summary,
    n: u64,
) -> impl Iterator<Item = (&Operation, &'static [smpi::Stage], u64)> {
    summary
        .collectives
        .iter()
        .filter(move |c| c.communicator.is_world(n) && n >= 2)
        .flat_map(|c| &c.operations)
        .filter(|op| op.calls > 0)
        .filter_map(move |op| {
            let stages = smpi::algorithm(&op.operation)?;
            Some((op, stages, op.bytes / op.calls.saturating_mul(n)))
        })
}

/// One line for each communicator and operation the model leaves out,
/// saying why.
fn unmodelled(summary: &Summary, n: u64) -> Vec<String> {
    let mut lines = Vec::new();
    for c in &summary.collectives {
        if !c.communicator.is_world(n) {
            let calls: u64 = c.operations.iter().map(|o| o.calls).sum();
            lines.push(format!(
                "{} ({} ranks from world rank {}): {calls} calls, not modelled (its members are not in the summary)",
                c.communicator.name, c.communicator.size, c.communicator.first_world_rank
            ));
            continue;
        }
        for op in c
            .operations
            .iter()
            .filter(|op| smpi::algorithm(&op.operation).is_none())
        {
            lines.push(format!(
                "{} on MPI_COMM_WORLD: {} calls, not modelled",
                op.operation, op.calls
            ));
        }
    }
    lines
}

/// Which latencies [`weigh`] adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Latencies {
    /// The collectives' messages only.
    Collectives,
    /// The collectives' and each pair's messages.
    All,
}

/// Adds `summary`'s modelled collectives and, with [`Latencies::All`],
/// each pair's message latencies (see the module docs) to `guest`, the
/// recording's pair graph, rank i being guest node i.
pub fn weigh(
    guest: &Graph,
    summary: &Summary,
    latency_bytes: u64,
    latencies: Latencies,
) -> Result<Weighed> {
    let n = guest.node_count();
    if summary.ranks != n {
        return Err(Error::Mismatch(format!(
            "the summary is of a run of {} ranks but {} has {n} nodes; give the summary written beside the graph",
            summary.ranks,
            guest.spec()
        )));
    }
    let overflow = || {
        Error::Parameter(format!(
            "the modelled collectives' volume overflows 64 bits; give a smaller latency (--latency-bytes {latency_bytes})"
        ))
    };
    let mut extra: FxHashMap<(u64, u64), u64> = FxHashMap::default();
    let mut modelled = Vec::new();
    let mut left_out = unmodelled(summary, n);
    for (op, stages, message_bytes) in modelled_operations(summary, n) {
        let per_wait = message_bytes
            .checked_add(latency_bytes)
            .and_then(|w| w.checked_mul(op.calls))
            .ok_or_else(overflow)?;
        let mut volume: u64 = 0;
        for &stage in stages {
            for (u, v, waiting) in stage.messages(n) {
                let w = per_wait.checked_mul(waiting).ok_or_else(overflow)?;
                let slot = extra.entry((u.min(v), u.max(v))).or_insert(0);
                *slot = slot.checked_add(w).ok_or_else(overflow)?;
                volume = volume.checked_add(w).ok_or_else(overflow)?;
            }
        }
        modelled.push(Modelled {
            operation: op.operation.clone(),
            calls: op.calls,
            message_bytes,
            algorithm: stages
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", then "),
            volume,
        });
    }
    // Each pair's messages pay a latency per hop.
    let (mut messages, mut latency_volume) = (0u64, 0u64);
    match &summary.pair_messages {
        _ if latencies == Latencies::Collectives => {}
        Some(pairs) => {
            for &[u, v, m] in pairs {
                let w = m.checked_mul(latency_bytes).ok_or_else(overflow)?;
                let slot = extra.entry((u.min(v), u.max(v))).or_insert(0);
                *slot = slot.checked_add(w).ok_or_else(overflow)?;
                messages = messages.saturating_add(m);
                latency_volume = latency_volume.checked_add(w).ok_or_else(overflow)?;
            }
        }
        None => left_out.push(
            "point-to-point latency: the summary has no pair_messages (recorded by an older library); \
             the pairs weigh their bytes only"
                .into(),
        ),
    }
    // The recorded pairs, then the collectives' edges merged into them.
    for u in 0..n {
        for (&v, w) in guest.adjacency(u).iter().zip(guest.adjacency_volumes(u)) {
            let v = u64::from(v);
            if u < v {
                let slot = extra.entry((u, v)).or_insert(0);
                *slot = slot.checked_add(w).ok_or_else(overflow)?;
            }
        }
    }
    let mut edges: Vec<((u64, u64), u64)> = extra.into_iter().collect();
    edges.sort_unstable();
    let (pairs, volumes): (Vec<(u64, u64)>, Vec<u64>) = edges.into_iter().unzip();
    let mut graph = Graph::from_weighted_edges(guest.spec().clone(), n, &pairs, Some(&volumes))?;
    if let Some(loads) = guest.loads() {
        graph = graph.with_loads(loads.to_vec())?;
    }
    Ok(Weighed {
        graph,
        messages,
        latency_volume,
        modelled,
        left_out,
        latency_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Spec;
    use std::path::Path;

    fn summary(json: &str) -> Summary {
        parse_summary(Path::new("s.json"), json).unwrap()
    }

    fn ring(n: u64) -> Graph {
        let edges: Vec<(u64, u64)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let volumes = vec![1000; n as usize];
        Graph::from_weighted_edges(Spec::Graph("ring.txt".into()), n, &edges, Some(&volumes))
            .unwrap()
    }

    fn volume(g: &Graph, u: u64, v: u64) -> u64 {
        g.adjacency(u)
            .iter()
            .zip(g.adjacency_volumes(u))
            .find(|(&t, _)| u64::from(t) == v)
            .map_or(0, |(_, w)| w)
    }

    #[test]
    fn an_allreduce_adds_its_star_and_its_tree_weighed_by_the_waiting() {
        // 8 ranks, 3 calls of 8 bytes each: 3 × 8 × 8 = 192 bytes.
        let s = summary(
            r#"{"ranks": 8, "collectives": [{"communicator": {"name": "MPI_COMM_WORLD",
            "first_world_rank": 0, "size": 8}, "operations": [{"operation": "MPI_Allreduce",
            "calls": 3, "bytes": 192}]}], "pair_messages": [[0, 1, 4], [5, 6, 2]]}"#,
        );
        let w = weigh(&ring(8), &s, 100, Latencies::All).unwrap();
        let per = 3 * (8 + 100);
        // 5-6: the ring's bytes, two messages' latency, the tree's leaf 6
        // is 4's child (not 5's), so no collective.
        assert_eq!(volume(&w.graph, 5, 6), 1000 + 2 * 100);
        assert_eq!((w.messages, w.latency_volume), (6, 600));
        // 0-4: the tree's first message (subtree 4..7: 4 ranks) and 4's
        // reduce message to 0.
        assert_eq!(volume(&w.graph, 0, 4), per * 4 + per);
        // 6-7: a tree leaf (1 waiting); 7 is not 0's neighbour in the tree.
        assert_eq!(volume(&w.graph, 6, 7), per + 1000);
        // 0-1: the ring's edge, 4 messages' latency, the tree's leaf 1 and
        // 1's reduce message.
        assert_eq!(volume(&w.graph, 0, 1), 1000 + 4 * 100 + per + per);
        // The collectives alone leave the pairs' latency out.
        let c = weigh(&ring(8), &s, 100, Latencies::Collectives).unwrap();
        assert_eq!(volume(&c.graph, 0, 1), 1000 + per + per);
        assert_eq!(c.messages, 0);
        assert_eq!(w.modelled.len(), 1);
        // Tree: Σ subtree sizes = Σ depths = 12 for 8 ranks; star: 7.
        assert_eq!(w.modelled[0].volume, per * (12 + 7));
        assert!(w.left_out.is_empty());
    }

    #[test]
    fn other_communicators_and_unmodelled_operations_are_named() {
        let s = summary(
            r#"{"ranks": 4, "collectives": [
            {"communicator": {"name": "MPI_COMM_WORLD", "first_world_rank": 0, "size": 4},
             "operations": [{"operation": "MPI_Alltoall", "calls": 2, "bytes": 64}]},
            {"communicator": {"name": "", "first_world_rank": 3, "size": 2},
             "operations": [{"operation": "MPI_Bcast", "calls": 5, "bytes": 80}]}]}"#,
        );
        let w = weigh(&ring(4), &s, 100, Latencies::All).unwrap();
        assert!(w.modelled.is_empty());
        assert_eq!(w.left_out.len(), 3);
        assert!(w.left_out[0].contains("MPI_Alltoall"));
        assert!(w.left_out[1].contains("world rank 3"));
        assert!(w.left_out[2].contains("no pair_messages"));
        assert_eq!(volume(&w.graph, 0, 1), 1000);
    }

    #[test]
    fn a_summary_of_another_run_is_refused() {
        let s = summary(r#"{"ranks": 6, "collectives": []}"#);
        assert!(matches!(
            weigh(&ring(4), &s, 1, Latencies::All),
            Err(Error::Mismatch(_))
        ));
    }

    #[test]
    fn an_overflowing_weight_is_an_error() {
        let s = summary(
            r#"{"ranks": 4, "collectives": [{"communicator": {"name": "MPI_COMM_WORLD",
            "first_world_rank": 0, "size": 4}, "operations": [{"operation": "MPI_Bcast",
            "calls": 1000000, "bytes": 0}]}]}"#,
        );
        assert!(matches!(
            weigh(&ring(4), &s, u64::MAX / 1000, Latencies::All),
            Err(Error::Parameter(_))
        ));
    }

    #[test]
    fn malformed_summaries_name_their_line() {
        let e = parse_summary(Path::new("s.json"), "{\n\"ranks\": 4,\n\"collectives\": [}")
            .unwrap_err();
        assert!(e.to_string().contains("s.json:3:"), "{e}");
        let e = parse_summary(
            Path::new("s.json"),
            r#"{"ranks": 2, "collectives": [{"communicator": {"name": "x", "first_world_rank": 0, "size": 3}, "operations": []}]}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("3 ranks"), "{e}");
        for pairs in ["[[0, 2, 1]]", "[[1, 1, 1]]", "[[0, 1]]", "[[0, -1, 1]]"] {
            let text = format!(r#"{{"ranks": 2, "collectives": [], "pair_messages": {pairs}}}"#);
            let e = parse_summary(Path::new("s.json"), &text).unwrap_err();
            assert!(matches!(e, Error::File(_)), "{pairs}: {e}");
            assert!(e.to_string().starts_with("s.json"), "{pairs}: {e}");
        }
    }
}
