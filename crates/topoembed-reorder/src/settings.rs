//! What the user tells the library, through the environment `mpirun -x`
//! forwards to every rank, and where each process sits on the host.
//!
//! * `TOPOEMBED_HOST`: the machine, any topoembed spec (`torus:8x8x8`,
//!   `tleaf:4x8x8:100,10,1`, a Scotch `.tgt` file). Unset: the library
//!   passes every call straight through.
//! * `TOPOEMBED_PLACEMENT=FILE`: the host node of each world rank, one per
//!   line in world-rank order (`#` starts a comment).
//! * `TOPOEMBED_PER_NODE=K`: K processes per host node. Without a placement
//!   file, processes are grouped into host nodes by the name
//!   `MPI_Get_processor_name` gives them: the machines in order of their
//!   lowest world rank, each machine's processes (by world rank) filling
//!   consecutive host nodes, K to a node. Default 1: world rank r on host
//!   node r.
//! * `TOPOEMBED_PRESET=fast`: the mapper's fast preset (`map --preset
//!   fast`: about 40 % less time for about 3 % more hop-bytes), or
//!   `strong` (`map --preset strong`); default: the default preset.
//! * `TOPOEMBED_REPORT=1`: rank 0 of each reordered communicator prints one
//!   line per intercepted call (guest, host, method, hop-bytes and largest
//!   dilation before and after).
//! * Under Slurm, a host that is a Slurm topology (`slurm:topology.conf`)
//!   without an allocation of its own becomes the job's: the nodes
//!   `SLURM_JOB_NODELIST` names, in its order (world rank r on its r-th
//!   node, or grouped by `TOPOEMBED_PER_NODE`).

use std::path::{Path, PathBuf};

use topoembed::mapper::Preset;
use topoembed::{Error, Result};

/// The library's settings, read from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The host spec (`TOPOEMBED_HOST`).
    pub host: String,
    /// A placement file (`TOPOEMBED_PLACEMENT`).
    pub placement: Option<PathBuf>,
    /// Processes per host node (`TOPOEMBED_PER_NODE`, default 1).
    pub per_node: u64,
    /// Whether to print a report line per call (`TOPOEMBED_REPORT=1`).
    pub report: bool,
    /// The mapper's preset (`TOPOEMBED_PRESET`, default: the default).
    pub preset: Preset,
}

impl Settings {
    /// The settings of this process; `None` when `TOPOEMBED_HOST` is unset
    /// or empty (the library then does nothing).
    pub fn from_env() -> Option<Result<Settings>> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Some(
            Settings::parse(
                &var("TOPOEMBED_HOST")?,
                var("TOPOEMBED_PLACEMENT").as_deref(),
                var("TOPOEMBED_PER_NODE").as_deref(),
                var("TOPOEMBED_REPORT").as_deref(),
            )
            .and_then(|s| s.with_preset(var("TOPOEMBED_PRESET").as_deref()))
            .map(|s| s.with_job_nodes(var("SLURM_JOB_NODELIST").as_deref())),
        )
    }

    /// The mapper's preset named by `TOPOEMBED_PRESET` (`default`, `fast`
    /// or `strong`; unset: the default).
    pub fn with_preset(mut self, name: Option<&str>) -> Result<Settings> {
        let name = name.map_or("default", str::trim);
        self.preset = Preset::named(name).ok_or_else(|| {
            Error::Parameter(format!(
                "TOPOEMBED_PRESET={name}: give default, fast or strong"
            ))
        })?;
        Ok(self)
    }

    /// A Slurm-topology host without an allocation of its own becomes the
    /// job's allocation, `nodelist` (Slurm's `SLURM_JOB_NODELIST`, a
    /// hostlist) after its `@`.
    pub fn with_job_nodes(mut self, nodelist: Option<&str>) -> Settings {
        if let Some(list) = nodelist.map(str::trim).filter(|l| !l.is_empty()) {
            if self.host.starts_with("slurm:") && !self.host.contains('@') {
                self.host = format!("{}@{list}", self.host);
            }
        }
        self
    }

    /// The settings from the variables' values.
    pub fn parse(
        host: &str,
        placement: Option<&str>,
        per_node: Option<&str>,
        report: Option<&str>,
    ) -> Result<Settings> {
        let per_node = match per_node {
            None => 1,
            Some(text) => match text.trim().parse::<u64>() {
                Ok(k) if k >= 1 => k,
                _ => {
                    return Err(Error::Parameter(format!(
                        "TOPOEMBED_PER_NODE={text}: give the number of processes per host node (1 or more)"
                    )))
                }
            },
        };
        Ok(Settings {
            host: host.trim().to_string(),
            placement: placement.map(PathBuf::from),
            per_node,
            report: matches!(report.map(str::trim), Some("1" | "yes" | "true")),
            preset: Preset::Default,
        })
    }

    /// Whether the processes' names are needed (per-node grouping without a
    /// placement file), so that the interposer gathers them only then.
    pub fn wants_names(&self) -> bool {
        self.placement.is_none() && self.per_node > 1
    }

    /// The host node of each process of a communicator, given each one's
    /// world rank and, when [`Settings::wants_names`], its processor name.
    pub fn host_nodes(
        &self,
        host_nodes: u64,
        world_size: u64,
        world_ranks: &[u64],
        names: Option<&[String]>,
    ) -> Result<Vec<u64>> {
        if let Some(path) = &self.placement {
            let node_of = read_placement(path, host_nodes, world_size, self.per_node)?;
            return Ok(world_ranks.iter().map(|&r| node_of[r as usize]).collect());
        }
        match names {
            Some(names) if self.per_node > 1 => {
                by_name(world_ranks, names, self.per_node, host_nodes)
            }
            _ => {
                if let Some(&r) = world_ranks.iter().find(|&&r| r >= host_nodes) {
                    return Err(Error::Mismatch(format!(
                        "world rank {r} has no host node: {} has {host_nodes} (world rank r sits on node r; \
                         set TOPOEMBED_PER_NODE or TOPOEMBED_PLACEMENT when processes share nodes)",
                        self.host
                    )));
                }
                Ok(world_ranks.to_vec())
            }
        }
    }
}

/// Reads a placement file: one host node per world rank, no node given to
/// more than `per_node` ranks. Errors name the file and line.
pub fn read_placement(
    path: &Path,
    host_nodes: u64,
    world_size: u64,
    per_node: u64,
) -> Result<Vec<u64>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::File(format!(
            "TOPOEMBED_PLACEMENT {}: cannot read: {e}",
            path.display()
        ))
    })?;
    topoembed::io::parse_placement(&text, host_nodes, world_size, per_node)
        .map_err(|m| Error::File(format!("TOPOEMBED_PLACEMENT {}: {m}", path.display())))
}

/// Host nodes by processor name: machines in order of their lowest world
/// rank, each machine's processes filling consecutive nodes, `per_node` to
/// a node.
fn by_name(
    world_ranks: &[u64],
    names: &[String],
    per_node: u64,
    host_nodes: u64,
) -> Result<Vec<u64>> {
    let mut order: Vec<usize> = (0..world_ranks.len()).collect();
    order.sort_by_key(|&i| world_ranks[i]);
    // Per machine (numbered as they first appear): its current node and how
    // many processes that node holds.
    let mut machines: Vec<(&str, u64, u64)> = Vec::new();
    let mut next_free = 0u64;
    let mut nodes = vec![0u64; world_ranks.len()];
    for i in order {
        let name = names[i].as_str();
        let m = match machines.iter().position(|(n, _, _)| *n == name) {
            Some(m) => m,
            None => {
                machines.push((name, 0, 0));
                machines.len() - 1
            }
        };
        let (_, node, used) = &mut machines[m];
        if *used == 0 || *used == per_node {
            // A new machine, or its node is full: it opens the next free node.
            *node = next_free;
            next_free += 1;
            *used = 0;
        }
        if *node >= host_nodes {
            return Err(Error::Mismatch(format!(
                "the processes need more than the host's {host_nodes} nodes at {per_node} per node \
                 (grouped by processor name; {} machines)",
                machines.len()
            )));
        }
        nodes[i] = *node;
        *used += 1;
    }
    Ok(nodes)
}
