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
use mpi::collective::{CommunicatorCollectives, Root};
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{CartesianCommunicator, Communicator, SimpleCommunicator};
use topoembed::embed::{self, Embedding};
use topoembed::runtime::algorithms::{self, rank_program, Algorithm, Check, Problem};
use topoembed::runtime::{Costs, Process, RankStats};
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;
use topoembed_mpi::communicators::{self, guest_of_world_rank};
use topoembed_mpi::transport::MpiTransport;
use topoembed_mpi::Placement;

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
    /// Embedding method; must be one-to-one.
    #[arg(long, short)]
    method: String,
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
    let guest: Arc<dyn Topology> = Arc::from(topology::parse(&common.guest)?);
    let host: Arc<dyn Topology> = Arc::from(topology::parse(&common.host)?);
    let size = world.size() as u64;
    if size != host.node_count() {
        return Err(world_size_mismatch(size, host.as_ref()));
    }
    let placement = match &common.placement {
        Some(path) => Placement::read(path, host.node_count())?,
        None => Placement::identity(size),
    };
    let embedding: Arc<dyn Embedding> =
        Arc::from(embed::build(&common.method, guest.as_ref(), host.as_ref())?);
    let vt = VirtualTopology::new(guest, host.clone(), embedding)?;
    // Every rank checks every rank, so all refuse a many-to-one map together.
    for rank in 0..size {
        guest_of_world_rank(&vt, &placement, rank)?;
    }
    Ok(Setup {
        host,
        vt,
        placement,
    })
}

/// One rank's check and statistics as f64s, for a gather.
const ROW: usize = 10;

fn row(check: &Check, s: &RankStats) -> [f64; ROW] {
    [
        f64::from(u8::from(check.passed)),
        check.error,
        check.tolerance,
        s.messages as f64,
        s.hops as f64,
        s.bytes as f64,
        s.compute,
        s.communication,
        s.waiting,
        s.clock,
    ]
}

fn unrow(r: &[f64]) -> (Check, RankStats) {
    (
        Check {
            passed: r[0] == 1.0,
            error: r[1],
            tolerance: r[2],
        },
        RankStats {
            messages: r[3] as u64,
            hops: r[4] as u64,
            bytes: r[5] as u64,
            compute: r[6],
            communication: r[7],
            waiting: r[8],
            clock: r[9],
        },
    )
}

fn run(
    world: &SimpleCommunicator,
    algorithm: AlgorithmArg,
    common: &Common,
    size: Option<&str>,
    costs: Costs,
    format: Format,
) -> Result<Outcome, Error> {
    costs.check()?;
    let Setup {
        host,
        vt,
        placement,
    } = setup(world, common)?;
    let algorithm = match algorithm {
        AlgorithmArg::Cannon => Algorithm::Cannon,
        AlgorithmArg::Fft => Algorithm::Fft,
        AlgorithmArg::Bitonic => Algorithm::Bitonic,
        AlgorithmArg::Allreduce => Algorithm::Allreduce,
    };
    let problem = Problem::new(algorithm, &vt, size)?;
    let reference = problem.prepare();
    let comm = communicators::host_ordered(world, &placement)?;
    let mut process = Process::new(MpiTransport::new(comm), host, costs);
    world.barrier();
    let started = mpi::time();
    let check = futures::executor::block_on(rank_program(&mut process, &vt, &problem, &reference))?;
    let mine = mpi::time() - started;
    let comm = process.transport().comm();
    let mut wall = 0.0;
    let root = comm.process_at_rank(0);
    let mine_row = row(&check, &process.stats());
    if comm.rank() == 0 {
        root.reduce_into_root(&mine, &mut wall, mpi::collective::SystemOperation::max());
        let mut all = vec![0.0; ROW * comm.size() as usize];
        root.gather_into_root(&mine_row[..], &mut all[..]);
        let results: Vec<(Check, RankStats)> = all.chunks(ROW).map(unrow).collect();
        let report = algorithms::summarise(&vt, &problem, &reference, costs, results, wall)?;
        print_report(&report, format);
        if !report.check.passed {
            return Ok(Outcome::Failed(
                1,
                format!(
                    "{} gave a wrong result on {} of {} ranks",
                    report.algorithm, report.ranks_failed, report.ranks
                ),
            ));
        }
    } else {
        root.reduce_into(&mine, mpi::collective::SystemOperation::max());
        root.gather_into(&mine_row[..]);
    }
    if check.passed {
        Ok(Outcome::Done)
    } else {
        Ok(Outcome::Failed(
            1,
            format!(
                "result check failed: error {} > {}",
                check.error, check.tolerance
            ),
        ))
    }
}

fn print_report(r: &algorithms::RunReport, format: Format) {
    if format == Format::Json {
        match serde_json::to_string_pretty(r) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("error: cannot write the report: {e}"),
        }
        return;
    }
    println!(
        "{} on {} -> {} ({}), {} MPI processes, {}",
        r.algorithm, r.guest, r.host, r.method, r.ranks, r.size
    );
    let verdict = if r.check.passed { "passed" } else { "FAILED" };
    println!(
        "  check: {verdict} on every rank ({} {:.1e}, allowed {:.1e}; reference: {})",
        r.error_meaning, r.check.error, r.check.tolerance, r.reference
    );
    println!(
        "  messages {}, hops {}, bytes {}",
        r.messages, r.hops, r.bytes
    );
    match &r.predicted {
        Some(p) => println!(
            "  modelled time {} (CC recurrence {}), waiting {}",
            r.modelled_time, p.time, r.waiting
        ),
        None => println!("  modelled time {}, waiting {}", r.modelled_time, r.waiting),
    }
    println!(
        "  measured wall time {:.6} s (slowest rank)",
        r.wall_seconds
    );
}

/// Host node of every guest rank, gathered on the guest-ordered communicator.
fn hosts_by_guest_rank(comm: &SimpleCommunicator, node: u64) -> Vec<u64> {
    let mut all = vec![0u64; comm.size() as usize];
    comm.all_gather_into(&node, &mut all[..]);
    all
}

fn check_neighbors(world: &SimpleCommunicator, common: &Common) -> Result<Outcome, Error> {
    let Setup {
        host,
        vt,
        placement,
    } = setup(world, common)?;
    let node = placement.node_of(world.rank() as u64);
    let embedding = vt.embedding();
    let predicted = |g: u64, n: u64| host.distance(embedding.map(g), embedding.map(n));
    let mut problems = Vec::new();
    let mut pairs = 0u64;
    let mut total = 0u64;

    // 1. Guest-ordered communicator: rank = guest node; swap host nodes with
    //    every guest neighbour point to point (tag: the direction's index).
    let ordered = communicators::guest_ordered(world, &vt, &placement)?;
    let g = ordered.rank() as u64;
    let hosts = hosts_by_guest_rank(&ordered, node);
    if hosts
        .iter()
        .enumerate()
        .any(|(x, &h)| embedding.map(x as u64) != h)
    {
        problems.push("the guest-ordered communicator's rank x is not on host node f(x)".into());
    }
    let neighbours = vt.neighbors(node)?;
    // All sends first (non-blocking), then the receives: ranks list their
    // neighbours in different orders (my west is my neighbour's east).
    let mut swapped = vec![0u64; neighbours.len()];
    mpi::request::scope(|scope| {
        let sends: Vec<_> = neighbours
            .iter()
            .map(|n| {
                ordered
                    .process_at_rank(n.guest as i32)
                    .immediate_send(scope, &node)
            })
            .collect();
        for (n, slot) in neighbours.iter().zip(swapped.iter_mut()) {
            *slot = ordered.process_at_rank(n.guest as i32).receive::<u64>().0;
        }
        for s in sends {
            s.wait_without_status();
        }
    });
    // A side of 2 names one neighbour twice (west and east): count edges once.
    let mut counted = std::collections::BTreeSet::new();
    for (n, &theirs) in neighbours.iter().zip(&swapped) {
        let got = host.distance(node, theirs);
        if counted.insert(n.guest) {
            pairs += 1;
            total += got;
        }
        if got != predicted(g, n.guest) || got != n.hops {
            problems.push(format!(
                "guest {g} -> {} ({}) is {got} hops away, predicted {}",
                n.guest,
                n.direction,
                predicted(g, n.guest)
            ));
        }
    }

    // 2. Distributed graph: a neighbour allgather of host nodes.
    let graph = communicators::dist_graph(world, &vt, &placement)?;
    let got = communicators::neighbor_allgather(&graph, node, neighbours.len());
    for (n, &theirs) in neighbours.iter().zip(&got) {
        if host.distance(node, theirs) != predicted(g, n.guest) {
            problems.push(format!(
                "dist graph: neighbour {} of guest {g} sent host node {theirs}",
                n.guest
            ));
        }
    }

    // 3. Cartesian communicator for grid guests: MPI_Cart_shift by one on
    //    every axis names the guest's neighbours, at the predicted distance.
    let mut cartesian = "not a grid guest";
    if vt.guest().spec().grid().is_some() {
        let cart = communicators::cartesian(world, &vt, &placement)?;
        problems.extend(check_cartesian(&cart, &vt, node));
        cartesian = "MPI_Cart_shift neighbours at their predicted distance";
    }

    // Totals on rank 0, against the metrics' dilation total.
    let mine = [pairs, total, problems.len() as u64];
    let root = world.process_at_rank(0);
    if world.rank() == 0 {
        let mut sums = [0u64; 3];
        root.reduce_into_root(
            &mine[..],
            &mut sums[..],
            mpi::collective::SystemOperation::sum(),
        );
        let metrics = topoembed::metrics::measure(
            vt.guest(),
            vt.host(),
            embedding,
            &topoembed::metrics::Options {
                routing: topoembed::metrics::Routing::Off,
                ..Default::default()
            },
        )?;
        let expected = metrics.dilation.total as u64 * 2;
        println!(
            "{} -> {} ({}), {} MPI processes: {} guest-neighbour pairs swapped host nodes through \
             the guest-ordered communicator, total distance {} = 2 x the metrics' dilation total {}",
            vt.guest().spec(),
            vt.host().spec(),
            embedding.method(),
            world.size(),
            sums[0],
            sums[1],
            metrics.dilation.total
        );
        println!("  distributed graph: neighbour allgather matched on every rank");
        println!("  Cartesian: {cartesian}");
        if sums[1] != expected || sums[2] > 0 {
            return Ok(Outcome::Failed(
                1,
                format!(
                    "{} ranks saw neighbours off their predicted distance",
                    sums[2]
                ),
            ));
        }
        println!("  every rank: all neighbours at their predicted host distance");
    } else {
        root.reduce_into(&mine[..], mpi::collective::SystemOperation::sum());
    }
    match problems.first() {
        None => Ok(Outcome::Done),
        Some(p) => Ok(Outcome::Failed(1, p.clone())),
    }
}

/// Host node of every Cartesian neighbour one step down each axis (the
/// source of a shift by one), with the axis and the neighbour's rank.
fn shifted_hosts(cart: &CartesianCommunicator, node: u64) -> Vec<(i32, i32, u64)> {
    let mut out = Vec::new();
    for axis in 0..cart.num_dimensions() {
        // A mesh border has no neighbour on one side (MPI_PROC_NULL).
        let (from, to) = cart.shift(axis, 1);
        let theirs = mpi::request::scope(|scope| {
            let send = to.map(|to| cart.process_at_rank(to).immediate_send(scope, &node));
            let got = from.map(|from| cart.process_at_rank(from).receive::<u64>().0);
            if let Some(s) = send {
                s.wait_without_status();
            }
            got
        });
        if let (Some(from), Some(theirs)) = (from, theirs) {
            out.push((axis, from, theirs));
        }
    }
    out
}

/// Swaps host nodes along every axis of a Cartesian communicator (shift by
/// one) and compares each distance with the embedding's; returns what differs.
fn check_cartesian(cart: &CartesianCommunicator, vt: &VirtualTopology, node: u64) -> Vec<String> {
    let embedding = vt.embedding();
    let me = cart.rank() as u64;
    shifted_hosts(cart, node)
        .into_iter()
        .filter_map(|(axis, from, theirs)| {
            let predicted = vt
                .host()
                .distance(embedding.map(me), embedding.map(from as u64));
            let got = vt.host().distance(node, theirs);
            (got != predicted).then(|| {
                format!(
                    "Cartesian axis {axis}: rank {from} is {got} hops away, predicted {predicted}"
                )
            })
        })
        .collect()
}

/// A Cartesian communicator of `axes` axes fitted to the host, checked.
fn cart(
    world: &SimpleCommunicator,
    host_text: &str,
    axes: usize,
    mesh: bool,
    placement: Option<&PathBuf>,
) -> Result<Outcome, Error> {
    let host: Arc<dyn Topology> = Arc::from(topology::parse(host_text)?);
    let size = world.size() as u64;
    if size != host.node_count() {
        return Err(world_size_mismatch(size, host.as_ref()));
    }
    let placement = match placement {
        Some(path) => Placement::read(path, host.node_count())?,
        None => Placement::identity(size),
    };
    let (cart, vt) =
        communicators::cartesian_for_host(world, host.clone(), &placement, axes, !mesh)?;
    let node = placement.node_of(world.rank() as u64);
    let problems = check_cartesian(&cart, &vt, node);
    let ours = shifted_hosts(&cart, node);
    // The same grid from MPI_Cart_create(reorder = 1) on the world, for comparison.
    let sides = topoembed_mpi::dims_for(host.spec(), axes)?;
    let dims: Vec<i32> = sides.iter().rev().map(|&s| s as i32).collect();
    let theirs = world
        .create_cartesian_communicator(&dims, &vec![!mesh; dims.len()], true)
        .map(|c| shifted_hosts(&c, node))
        .ok_or_else(|| Error::Internal("MPI_Cart_create returned no communicator".into()))?;
    let hops = |list: &[(i32, i32, u64)]| -> (u64, u64) {
        let d: Vec<u64> = list
            .iter()
            .map(|&(_, _, h)| host.distance(node, h))
            .collect();
        (d.iter().sum(), d.iter().copied().max().unwrap_or(0))
    };
    let ((our_sum, our_max), (mpi_sum, mpi_max)) = (hops(&ours), hops(&theirs));
    let root = world.process_at_rank(0);
    let sums = [our_sum, mpi_sum];
    let maxes = [problems.len() as u64, our_max, mpi_max];
    let (sum, max) = (
        mpi::collective::SystemOperation::sum(),
        mpi::collective::SystemOperation::max(),
    );
    if world.rank() == 0 {
        let (mut total, mut worst) = ([0u64; 2], [0u64; 3]);
        root.reduce_into_root(&sums[..], &mut total[..], sum);
        root.reduce_into_root(&maxes[..], &mut worst[..], max);
        println!(
            "{} on {} ({}), {} MPI processes: MPI_Cart_shift neighbours at most {} hops apart \
             ({} hops over all shifts), each at its predicted distance",
            vt.guest().spec(),
            vt.host().spec(),
            vt.embedding().method(),
            size,
            worst[1],
            total[0]
        );
        println!(
            "  MPI_Cart_create(reorder = 1) on the same processes: at most {} hops apart \
             ({} hops over all shifts)",
            worst[2], total[1]
        );
    } else {
        root.reduce_into(&sums[..], sum);
        root.reduce_into(&maxes[..], max);
    }
    match problems.first() {
        None => Ok(Outcome::Done),
        Some(p) => Ok(Outcome::Failed(1, p.clone())),
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
