//! `topoembed-mpi`: the runtime's algorithms under mpirun, and a check that
//! reordered communicators put guest neighbours where the embedding says.
//!
//! Every rank reads the same arguments and files and makes the same
//! decisions before any message, so bad input makes every rank exit with
//! the same message (exit code 2) instead of a hang or an MPI abort.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
mod checks;
mod run;

use mpi::topology::{Communicator, SimpleCommunicator};

use topoembed::runtime::Costs;
use topoembed::topology::Topology;
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;
use topoembed_mpi::communicators::guest_of_world_rank;
use topoembed_mpi::Placement;

use checks::{cart, check_neighbors};
use run::run;

/// Run topoembed's algorithms over MPI, one process per host node, with
/// the processes reordered by an embedding.
#[derive(Debug, Parser)]
#[command(name = "topoembed-mpi", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples (one process per host node):
  mpirun -np 16 topoembed-mpi run fft cube:4 ring:16 --method xor
  mpirun -np 16 topoembed-mpi run cannon torus:4x4 cube:4 --method gray --n 64
  mpirun -np 16 topoembed-mpi check-neighbors cube:4 torus:4x4 --method gray
  mpirun -np 16 topoembed-mpi check-neighbors graph:app.graph torus:4x4   # placed by the mapper
  mpirun -np 16 topoembed-mpi cart cube:4 --axes 2
  mpirun -np 16 --hostfile hosts topoembed-mpi run allreduce cube:4 torus:4x4 --method xor \\
      --placement placement.txt   # world rank r sits on the host node on line r";

#[derive(Debug, Subcommand)]
enum Command {
    /// Run an algorithm (as `topoembed run`, same counts and modelled clock)
    /// with one MPI process per host node; every rank checks its result and
    /// rank 0 prints the report with the measured wall time.
    Run {
        /// cannon (torus:QxQ guest), fft, bitonic or allreduce (cube:D guest).
        #[arg(value_enum)]
        algorithm: AlgorithmArg,
        #[command(flatten)]
        common: Common,
        /// Problem size, as for `topoembed run` (N, MxKxN for cannon, 2^k).
        #[arg(long)]
        n: Option<String>,
        /// T_a: one compute phase.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        ta: f64,
        /// T_c: one message over one link.
        #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
        tc: f64,
        /// T_b: one payload byte over one link.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        tb: f64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Check, on every rank, that its guest neighbours in the reordered
    /// communicators (guest-ordered point to point, Cartesian for grid
    /// guests, distributed graph with a neighbour allgather) sit at exactly
    /// the host distance the embedding's metrics predict.
    CheckNeighbors {
        #[command(flatten)]
        common: Common,
    },
    /// What MPI_Cart_create(reorder = 1) should do: a Cartesian communicator
    /// of AXES axes whose sides fit the host (as MPI_Dims_create would, but
    /// from the host's shape), placed on it by an embedding (gray on a cube,
    /// identity on a grid of those sides); every rank checks its
    /// MPI_Cart_shift neighbours' host distance.
    Cart {
        /// The machine, e.g. cube:4.
        host: String,
        /// Number of Cartesian axes.
        #[arg(long, default_value_t = 2)]
        axes: usize,
        /// No wrap-around (a mesh, not a torus).
        #[arg(long)]
        mesh: bool,
        /// Host node of every world rank, one per line.
        #[arg(long)]
        placement: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
struct Common {
    /// The program's communication graph, e.g. cube:4.
    guest: String,
    /// The machine: its nodes are the MPI processes, e.g. ring:16.
    host: String,
    /// Embedding method; must be one-to-one. Default for a graph: guest:
    /// map, the general mapper (what MPI_Dist_graph_create with reorder=1
    /// should do); other guests name one (topoembed methods lists them).
    #[arg(long, short)]
    method: Option<String>,
    /// Host node of every world rank, one per line in world-rank order
    /// (default: world rank r on host node r).
    #[arg(long)]
    placement: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AlgorithmArg {
    Cannon,
    Fft,
    Bitonic,
    Allreduce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Json,
}

/// What a rank ends with: success, or an exit code and message.
enum Outcome {
    Done,
    Failed(u8, String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(universe) = mpi::initialize() else {
        eprintln!("error: MPI could not be initialised (is this running under mpirun?)");
        return ExitCode::from(1);
    };
    let world = universe.world();
    let outcome = match &cli.command {
        Command::Run {
            algorithm,
            common,
            n,
            ta,
            tc,
            tb,
            format,
        } => {
            let costs = Costs {
                ta: *ta,
                tc: *tc,
                tb: *tb,
            };
            run(&world, *algorithm, common, n.as_deref(), costs, *format)
        }
        Command::CheckNeighbors { common } => check_neighbors(&world, common),
        Command::Cart {
            host,
            axes,
            mesh,
            placement,
        } => cart(&world, host, *axes, *mesh, placement.as_ref()),
    };
    let outcome = outcome
        .unwrap_or_else(|e| Outcome::Failed(if e.is_user_error() { 2 } else { 1 }, e.to_string()));
    match outcome {
        Outcome::Done => ExitCode::SUCCESS,
        Outcome::Failed(code, message) => {
            // One write per line, so that ranks' lines do not interleave.
            let line = format!(
                "error (rank {} of {}): {message}\n",
                world.rank(),
                world.size()
            );
            let _ = std::io::stderr().write_all(line.as_bytes());
            ExitCode::from(code)
        }
    }
}

/// Guest, host, embedding, placement and virtual topology, the same on every rank.
struct Setup {
    host: Arc<dyn Topology>,
    vt: VirtualTopology,
    placement: Placement,
}

fn setup(world: &SimpleCommunicator, common: &Common) -> Result<Setup, Error> {
    let method = match &common.method {
        Some(m) => m.clone(),
        None if common.guest.starts_with("graph:") => "map".to_string(),
        None => {
            return Err(Error::Parameter(format!(
                "--method is needed for {}: name a one-to-one embedding method \
                 (`topoembed methods` lists them; a graph: guest defaults to map)",
                common.guest
            )))
        }
    };
    // The mapper depends on its seed only, so every rank computes the
    // same placement on its own.
    let vt =
        VirtualTopology::from_specs(&common.guest, &common.host, &method, &Default::default())?;
    let host = vt.shared_host();
    let placement = world_placement(world, host.as_ref(), common.placement.as_deref())?;
    // Every rank checks every rank, so all refuse a many-to-one map together.
    for rank in 0..placement.len() {
        guest_of_world_rank(&vt, &placement, rank)?;
    }
    Ok(Setup {
        host,
        vt,
        placement,
    })
}

/// Where the world's ranks sit on `host`: one process per host node, placed
/// by the file if there is one, else rank r on node r.
fn world_placement(
    world: &SimpleCommunicator,
    host: &dyn Topology,
    file: Option<&std::path::Path>,
) -> Result<Placement, Error> {
    let size = world.size() as u64;
    if size != host.node_count() {
        return Err(world_size_mismatch(size, host));
    }
    match file {
        Some(path) => Placement::read(path, size),
        None => Ok(Placement::identity(size)),
    }
}

fn world_size_mismatch(size: u64, host: &dyn Topology) -> Error {
    Error::Mismatch(format!(
        "mpirun started {size} processes but {} has {} nodes: one process per host node \
         (mpirun -np {})",
        host.spec(),
        host.node_count(),
        host.node_count()
    ))
}
