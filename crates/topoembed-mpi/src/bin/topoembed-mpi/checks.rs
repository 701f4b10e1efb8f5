//! `check-neighbors` and `cart`: where reordered communicators put neighbours.

use std::path::PathBuf;
use std::sync::Arc;

use mpi::collective::{CommunicatorCollectives, Root};
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{CartesianCommunicator, Communicator, SimpleCommunicator};
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;
use topoembed_mpi::communicators;

use crate::{setup, world_placement, Common, Outcome, Setup};

/// Host node of every guest rank, gathered on the guest-ordered communicator.
fn hosts_by_guest_rank(comm: &SimpleCommunicator, node: u64) -> Vec<u64> {
    let mut all = vec![0u64; comm.size() as usize];
    comm.all_gather_into(&node, &mut all[..]);
    all
}

pub(crate) fn check_neighbors(
    world: &SimpleCommunicator,
    common: &Common,
) -> Result<Outcome, Error> {
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
pub(crate) fn cart(
    world: &SimpleCommunicator,
    host_text: &str,
    axes: usize,
    mesh: bool,
    placement: Option<&PathBuf>,
) -> Result<Outcome, Error> {
    let host: Arc<dyn Topology> = Arc::from(topology::parse(host_text)?);
    let size = world.size() as u64;
    let placement = world_placement(world, host.as_ref(), placement.map(PathBuf::as_path))?;
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
