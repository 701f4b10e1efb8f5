//! The commands that build and measure embeddings: `methods`, `embed`, `dilations`, `metrics`, `compare`, `hamiltonian`, `neighbors`.

use clap::Args;

use super::values::*;

/// The arguments of `Methods`.
#[derive(Debug, Args)]
pub struct MethodsArgs {
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The arguments of `Embed`.
#[derive(Debug, Args)]
pub struct EmbedArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`); without it, the method `compare` marks best (named on stderr, with why).
    #[arg(long, short)]
    pub method: Option<String>,
    /// table | json | csv, or layout: the host drawn as rows of guest labels
    /// (rings and lines on one row; 2-D hosts with axis 2 as rows, like the
    /// xor paper's figures; 3-D and more as 2-D slices), or scotch-map: a Scotch
    /// mapping file (a count, then 'vertex target' lines), or smpi-hostfile:
    /// line g = PREFIX<host node of guest node g>, for `smpirun -hostfile` on
    /// the platform `export --format simgrid` writes.
    #[arg(long, value_enum, default_value_t = EmbedFormat::Table)]
    pub format: EmbedFormat,
    /// Host name prefix of --format smpi-hostfile (as `export --prefix`).
    #[arg(long, default_value = "node-")]
    pub prefix: String,
}

/// The arguments of `Dilations`.
#[derive(Debug, Args)]
pub struct DilationsArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`).
    #[arg(long, short)]
    pub method: String,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The arguments of `Metrics`.
#[derive(Debug, Args)]
pub struct MetricsArgs {
    #[command(flatten)]
    pub pair: Pair,
    #[command(flatten)]
    pub placement: Placement,
    #[command(flatten)]
    pub costs: Costs,
    #[command(flatten)]
    pub routing: Routing,
    /// Run even when the estimated work (guest edges, routed or not) passes
    /// the limit: 10 minutes, or TOPOEMBED_WORK_LIMIT seconds.
    #[arg(long)]
    pub force: bool,
    /// With --mapping of a recorded graph: the recording's summary
    /// (FILE.json); adds the mapping's predicted cost, as `map --summary`
    /// weighs its candidates (busiest link + point-to-point latency +
    /// collectives' critical paths, in bytes).
    #[arg(long, requires = "mapping", value_name = "FILE.json")]
    pub summary: Option<std::path::PathBuf>,
    /// With --summary: what one hop's latency is worth in bytes (α/β).
    #[arg(long, default_value_t = topoembed::recorded::DEFAULT_LATENCY_BYTES, requires = "summary")]
    pub latency_bytes: u64,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The arguments of `Compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub pair: Pair,
    #[command(flatten)]
    pub costs: Costs,
    #[command(flatten)]
    pub routing: Routing,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// List every method that does not apply, with the reason (by
    /// default one line counts them).
    #[arg(long)]
    pub all: bool,
    /// Also print how each method built its embedding (the mapper's
    /// searches, the grid methods' choices); always in --format json.
    #[arg(long, short)]
    pub verbose: bool,
}

/// The arguments of `Hamiltonian`.
#[derive(Debug, Args)]
pub struct HamiltonianArgs {
    /// The cube, cube:n with 2 <= n <= 22.
    pub spec: String,
    /// Print only the verification, not the cycles.
    #[arg(long)]
    pub summary: bool,
    /// table: one cycle per line (node labels in order; the last node
    /// links back to the first); json: {"dimension", "cycles": [[..], ..]}.
    #[arg(long, value_enum, default_value_t = HamiltonianFormat::Table)]
    pub format: HamiltonianFormat,
}

/// The arguments of `Neighbors`.
#[derive(Debug, Args)]
pub struct NeighborsArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`).
    #[arg(long, short)]
    pub method: String,
    /// The rank to describe (0 .. host nodes - 1).
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    pub rank: Option<u64>,
    /// Describe every rank.
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = RunFormat::Table)]
    pub format: RunFormat,
}
