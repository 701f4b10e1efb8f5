//! Argument groups (`Pair`, `Costs`, `Routing`, `Placement`, …) and
//! value lists (`--format`, `--objective`, …) the commands share.

use clap::{Args, ValueEnum};

/// `device-mesh --objective`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MeshObjective {
    Balanced,
    Latency,
    Bandwidth,
}

impl From<MeshObjective> for topoembed::device_mesh::Objective {
    fn from(o: MeshObjective) -> Self {
        use topoembed::device_mesh::Objective;
        match o {
            MeshObjective::Balanced => Objective::Balanced,
            MeshObjective::Latency => Objective::Latency,
            MeshObjective::Bandwidth => Objective::Bandwidth,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimAlgorithmArg {
    Cannon,
    Fft,
    Bitonic,
    Allreduce,
    /// Neighbour exchange on any guest.
    Halo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FigureArg {
    Layout,
    Spectrum,
    Load,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceArg {
    Run,
    Cc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Store-and-forward.
    Saf,
    /// Cut-through (virtual cut-through: blocked messages wait where their header is).
    CutThrough,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuplexArg {
    Full,
    Half,
}

/// The algorithms of `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    Cannon,
    Fft,
    Bitonic,
    Allreduce,
}

impl From<AlgorithmArg> for topoembed::runtime::algorithms::Algorithm {
    fn from(a: AlgorithmArg) -> Self {
        use topoembed::runtime::algorithms::Algorithm;
        match a {
            AlgorithmArg::Cannon => Algorithm::Cannon,
            AlgorithmArg::Fft => Algorithm::Fft,
            AlgorithmArg::Bitonic => Algorithm::Bitonic,
            AlgorithmArg::Allreduce => Algorithm::Allreduce,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    Table,
    Json,
}

/// Where the guest nodes go: a method, or a Scotch mapping file.
#[derive(Debug, Args)]
#[group(required = false, multiple = false)]
pub struct Placement {
    /// Embedding method (see `topoembed methods`); without it (and without
    /// --mapping), the method `compare` marks best (named on stderr, with why).
    #[arg(long, short)]
    pub method: Option<String>,
    /// A Scotch mapping (.map: a count, then 'vertex target' lines) of the guest,
    /// which must then be a Scotch graph (graph:FILE.grf); targets are host node ids.
    #[arg(long)]
    pub mapping: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HamiltonianFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Grf,
    Tgt,
    Simgrid,
}

/// The guest and host topologies.
#[derive(Debug, Args)]
pub struct Pair {
    /// The program's communication graph, e.g. cube:10.
    pub guest: String,
    /// The machine's interconnect, e.g. torus:32x32.
    pub host: String,
    /// How `split` cuts mesh axes into segments: consecutive runs (as equal
    /// as possible) or cyclic (element x in segment x mod segments).
    #[arg(long, value_enum, default_value_t = PartitionArg::Consecutive)]
    pub partition: PartitionArg,
    /// `split`: an axis given 4 or more cube dimensions goes round floor(n_i/2)
    /// edge-disjoint Hamiltonian cycles of its subcube, one per block of
    /// segments or round of elements (Ho & Johnsson Theorem 4); with cyclic
    /// segments that divides its congestion by floor(n_i/2).
    #[arg(long)]
    pub hamiltonian: bool,
    /// `auto`: what to minimise first: load (load factor, then dilation),
    /// dilation (dilation 1, then load), congestion (every node used,
    /// dilation 1, least congestion). Default: load.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    Load,
    Dilation,
    Congestion,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PartitionArg {
    Consecutive,
    Cyclic,
}

impl Pair {
    /// The method options these arguments give.
    pub fn params(&self) -> topoembed::embed::Params {
        use topoembed::embed::{Objective, Params, Partition};
        Params {
            partition: match self.partition {
                PartitionArg::Consecutive => Partition::Consecutive,
                PartitionArg::Cyclic => Partition::Cyclic,
            },
            hamiltonian: self.hamiltonian,
            objective: self.objective.map(|o| match o {
                ObjectiveArg::Load => Objective::Load,
                ObjectiveArg::Dilation => Objective::Dilation,
                ObjectiveArg::Congestion => Objective::Congestion,
            }),
        }
    }
}

/// Constants of the CC-time model of compute-and-communicate d-cube algorithms.
#[derive(Debug, Args, Clone, Copy)]
pub struct Costs {
    /// T_a: duration of the compute phase of a stage.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub ta: f64,
    /// T_c: cost of sending a message over one link.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub tc: f64,
}

/// How guest edges are routed for congestion and node load.
#[derive(Debug, Args, Clone, Copy)]
pub struct Routing {
    /// Ring direction when both ways round are equally short (the destination
    /// exactly half way, as for the standard embedding's last dimension on a
    /// ring). Routes run from the lower-numbered guest node of each edge.
    #[arg(long, value_enum, default_value_t = Ties::Increasing)]
    pub ties: Ties,
    /// Skip routing: no congestion, link or node loads (saves their memory,
    /// about 4 bytes x host nodes x (axes + 1) per thread on grids).
    #[arg(long)]
    pub no_traffic: bool,
    /// Cube hosts: also spread every guest edge evenly over edge-disjoint paths
    /// between its ends ("fat edges", Ho & Johnsson §5) and report the
    /// fractional link load beside the e-cube congestion. shortest: the d
    /// shortest paths, 1/d each; all: the n paths (n-d of them of length d+2),
    /// 1/n each.
    #[arg(long, value_enum)]
    pub fat_edges: Option<FatEdgesArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FatEdgesArg {
    Shortest,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Ties {
    /// Toward increasing coordinate.
    Increasing,
    /// Toward decreasing coordinate.
    Decreasing,
}

impl From<Ties> for topoembed::routing::TieRule {
    fn from(t: Ties) -> Self {
        match t {
            Ties::Increasing => topoembed::routing::TieRule::Increasing,
            Ties::Decreasing => topoembed::routing::TieRule::Decreasing,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

/// How `optimal --sat` decides a distance vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DecideBy {
    /// As turns, but under the default lift bounds the solver only at
    /// vectors whose formula a winding pair folds or pins (where it has
    /// decided vectors; on a whole formula the branch and bound has decided
    /// them all).
    Auto,
    /// The branch and bound and the SAT solver in turns, budgets growing
    /// four times each turn, the solver at every vector.
    Turns,
    /// The branch and bound alone, in turns (budgets growing four times each turn).
    Search,
    /// The SAT solver alone, without a budget (as --certificate does).
    Solver,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapObjective {
    HopBytes,
    Congestion,
}

/// `map --preset`: how much each search spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapPreset {
    /// Every phase at the budget the benchmarks set for hop-bytes.
    Default,
    /// Fewer tries and FM passes in every bisection, half the annealing of
    /// the parts' layout, no V-cycle, 2 passes of k-way FM and move/swap
    /// (unless --passes says otherwise): about 40 % less time on one core
    /// for about 3 % more hop-bytes.
    Fast,
    /// Every border vertex a k-way FM seed at every level, a search locking
    /// only the moves it keeps, and the parts laid out 4 times, the best
    /// kept: 2-4x the default's time for 0.6-3.3 % fewer hop-bytes on
    /// copter2, mdual, delaunay_n15 and 4elt onto tori, which more restarts
    /// do not buy (mdual -> torus:8x8x8, one thread: 75 053 in 8.2 s, the
    /// default 77 586 in 3.4 s, --restarts 4 77 586 in 9.0 s).
    Strong,
}

impl From<MapPreset> for topoembed::mapper::Preset {
    fn from(p: MapPreset) -> Self {
        use topoembed::mapper::Preset;
        match p {
            MapPreset::Default => Preset::Default,
            MapPreset::Fast => Preset::Fast,
            MapPreset::Strong => Preset::Strong,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapFormat {
    Table,
    Json,
    ScotchMap,
    Rankfile,
    Seq,
    Machinefile,
    CrayRankOrder,
    SmpiHostfile,
}

impl MapFormat {
    /// The launch file this format writes, if it is one.
    pub fn launch(self) -> Option<topoembed::io::LaunchFormat> {
        use topoembed::io::LaunchFormat;
        match self {
            MapFormat::Rankfile => Some(LaunchFormat::Rankfile),
            MapFormat::Seq => Some(LaunchFormat::Seq),
            MapFormat::Machinefile => Some(LaunchFormat::Machinefile),
            MapFormat::CrayRankOrder => Some(LaunchFormat::CrayRankOrder),
            MapFormat::Table | MapFormat::Json | MapFormat::ScotchMap | MapFormat::SmpiHostfile => {
                None
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EmbedFormat {
    Table,
    Json,
    Csv,
    Layout,
    ScotchMap,
    SmpiHostfile,
}
