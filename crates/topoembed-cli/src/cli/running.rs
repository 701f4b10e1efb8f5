//! Programs and pictures: `run`, `draw`, `report` (`simulate`'s arguments are in [`super::values`]).

use clap::Args;

#[allow(unused_imports)]
use super::help::*;
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
