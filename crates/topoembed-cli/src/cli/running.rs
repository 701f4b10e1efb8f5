//! Programs and pictures: `run`, `simulate`, `draw`, `report`.

use clap::Args;

use super::values::*;

/// The arguments of `Run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// cannon (torus:QxQ guest), fft, bitonic or allreduce (cube:D guest).
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`); must be one-to-one; without it, the method `compare` marks best (named on stderr, with why).
    #[arg(long, short)]
    pub method: Option<String>,
    /// Problem size. fft: points (a power of two >= ranks; default: one per
    /// rank); bitonic: keys (a multiple of the ranks; default one per rank);
    /// allreduce: every rank's vector length (default 1); cannon: matrix
    /// order N, or MxKxN for A (MxK) times B (KxN), each a multiple of Q
    /// (default Q). 2^k is accepted.
    #[arg(long)]
    pub n: Option<String>,
    #[command(flatten)]
    pub costs: Costs,
    /// T_b: cost of one payload byte over one link (store and forward).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub tb: f64,
    #[arg(long, value_enum, default_value_t = RunFormat::Table)]
    pub format: RunFormat,
}

/// The arguments of `Simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// cannon (torus:QxQ guest), fft, bitonic, allreduce (cube:D guest), or
    /// halo (any guest).
    #[arg(value_enum)]
    pub algorithm: SimAlgorithmArg,
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`); without it, the method `compare` marks best (named on stderr, with why).
    #[arg(long, short)]
    pub method: Option<String>,
    /// Problem size, as for `run` (halo: f64s per message, default 1).
    #[arg(long)]
    pub n: Option<String>,
    /// Where the operations come from: run (record an in-process run) or cc
    /// (the algorithm's CC structure). Default: run when the embedding is
    /// one-to-one, else cc.
    #[arg(long, value_enum)]
    pub trace: Option<TraceArg>,
    /// halo: number of iterations.
    #[arg(long, default_value_t = 4)]
    pub iterations: u32,
    /// Run even when the estimated work (link hops of all messages) passes
    /// the limit: 10 minutes, or TOPOEMBED_WORK_LIMIT seconds.
    #[arg(long)]
    pub force: bool,
    /// saf: store-and-forward (hops x B); cut-through: B + (hops - 1) x T_h,
    /// where B = T_c + bytes x T_b.
    #[arg(long, value_enum, default_value_t = ModeArg::Saf)]
    pub mode: ModeArg,
    /// full: one message per direction per link; half: one message per link.
    #[arg(long, value_enum, default_value_t = DuplexArg::Full)]
    pub duplex: DuplexArg,
    /// Links and processors are never busy (the runtime's modelled clock).
    #[arg(long)]
    pub no_contention: bool,
    #[command(flatten)]
    pub costs: Costs,
    /// T_b: cost of one payload byte over one link.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub tb: f64,
    /// T_h: header delay per hop in cut-through mode.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub th: f64,
    /// Ring direction when both ways round are equally short.
    #[arg(long, value_enum, default_value_t = Ties::Increasing)]
    pub ties: Ties,
    /// Write a Gantt chart (SVG) of the first --gantt-rows processes.
    #[arg(long)]
    pub gantt: Option<std::path::PathBuf>,
    /// Processes in the Gantt chart.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub gantt_rows: u64,
    /// Busiest links listed.
    #[arg(long, default_value_t = 5)]
    pub links: usize,
    #[arg(long, value_enum, default_value_t = RunFormat::Table)]
    pub format: RunFormat,
}

/// The arguments of `Draw`.
#[derive(Debug, Args)]
pub struct DrawArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method (see `topoembed methods`); without it, the method `compare` marks best (named on stderr, with why).
    #[arg(long, short)]
    pub method: Option<String>,
    /// Which figure.
    #[arg(long, value_enum, default_value_t = FigureArg::Layout)]
    pub figure: FigureArg,
    /// layout: also draw every guest edge, coloured by its dilation
    /// (green 1 .. red the largest).
    #[arg(long)]
    pub edges: bool,
    /// load: ring direction when both ways round are equally short.
    #[arg(long, value_enum, default_value_t = Ties::Increasing)]
    pub ties: Ties,
    /// Output file; the SVG goes to standard output when not given.
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
}

/// The arguments of `Report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// The HTML file to write.
    #[arg(long, short)]
    pub output: std::path::PathBuf,
}
