//! The collectives part of a recording's summary (`FILE.json`, written by
//! `TOPOEMBED_RECORD=FILE` beside the pair graph): calls and bytes by
//! communicator and operation.

use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};

/// What a recording's summary says about collectives.
#[derive(Debug, Clone, Deserialize)]
pub struct Summary {
    /// Ranks in `MPI_COMM_WORLD`.
    pub ranks: u64,
    /// Collectives, by communicator.
    pub collectives: Vec<CommunicatorCollectives>,
    /// `[u, v, messages]`: the point-to-point messages u sent v plus those
    /// v sent u, for every pair of the graph (absent from recordings made
    /// before the library wrote it).
    #[serde(default)]
    pub pair_messages: Option<Vec<[u64; 3]>>,
}

/// The collectives one communicator made.
#[derive(Debug, Clone, Deserialize)]
pub struct CommunicatorCollectives {
    pub communicator: Communicator,
    pub operations: Vec<Operation>,
}

/// How the summary names a communicator: its name (`MPI_COMM_WORLD` for
/// the world), the world rank of its rank 0 and its size.
#[derive(Debug, Clone, Deserialize)]
pub struct Communicator {
    pub name: String,
    pub first_world_rank: u64,
    pub size: u64,
}

/// One operation on one communicator: `calls` (the most any member made)
/// and `bytes` (what all members' send buffers held, over all calls).
#[derive(Debug, Clone, Deserialize)]
pub struct Operation {
    pub operation: String,
    pub calls: u64,
    pub bytes: u64,
}

impl Communicator {
    /// Whether this is `MPI_COMM_WORLD` itself, whose rank i is world rank i.
    pub fn is_world(&self, ranks: u64) -> bool {
        self.name == "MPI_COMM_WORLD" && self.first_world_rank == 0 && self.size == ranks
    }
}

/// Reads a recording's summary; a malformed file is an error naming its
/// line and column.
pub fn read_summary(path: &Path) -> Result<Summary> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    parse_summary(path, &text)
}

/// Parses a summary's text (`path` names it in errors).
pub fn parse_summary(path: &Path, text: &str) -> Result<Summary> {
    let summary: Summary = serde_json::from_str(text).map_err(|e| {
        Error::File(format!(
            "{}:{}:{}: not a recording's summary (the FILE.json TOPOEMBED_RECORD=FILE writes): {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    for c in &summary.collectives {
        if c.communicator.size == 0 || c.communicator.size > summary.ranks {
            return Err(Error::File(format!(
                "{}: communicator {} has {} ranks, the run {}",
                path.display(),
                c.communicator.name,
                c.communicator.size,
                summary.ranks
            )));
        }
    }
    for &[u, v, _] in summary.pair_messages.iter().flatten() {
        if u == v || u >= summary.ranks || v >= summary.ranks {
            return Err(Error::File(format!(
                "{}: pair_messages names the pair {u}, {v} in a run of {} ranks",
                path.display(),
                summary.ranks
            )));
        }
    }
    Ok(summary)
}
