//! Communicators reordered by an embedding.
//!
//! MPI_Cart_create(.., reorder = 1) in MPICH and Open MPI returns the
//! identity order. Here the user states the machine (the host spec) and
//! where each world rank sits on it ([`Placement`]); MPI_Comm_split with key
//! f^-1(host node) then gives a communicator whose rank *is* the guest node,
//! so an unchanged hypercube / torus / tree program sends along the
//! embedding's host paths.

use std::os::raw::c_int;
use std::sync::Arc;

use mpi::ffi;
use mpi::raw::{AsRaw, FromRaw};
use mpi::topology::{CartesianCommunicator, Color, Communicator, SimpleCommunicator};
use topoembed::embed;
use topoembed::spec::Spec;
use topoembed::topology::{self, Topology};
use topoembed::virtual_topology::VirtualTopology;
use topoembed::{Error, Result};

use crate::dims::dims_for;
use crate::placement::Placement;

/// The guest node world rank `rank` plays: f^-1 of its host node.
pub fn guest_of_world_rank(vt: &VirtualTopology, placement: &Placement, rank: u64) -> Result<u64> {
    let node = placement.node_of(rank);
    vt.guest_of(node).ok_or_else(|| {
        Error::Mismatch(format!(
            "host node {node} plays no single guest node under '{}'; reordered communicators \
             need a one-to-one embedding",
            vt.embedding().method()
        ))
    })
}

fn split(world: &SimpleCommunicator, key: u64) -> Result<SimpleCommunicator> {
    let key = c_int::try_from(key)
        .map_err(|_| Error::Parameter(format!("rank {key} does not fit an MPI rank")))?;
    world
        .split_by_color_with_key(Color::with_value(0), key)
        .ok_or_else(|| Error::Internal("MPI_Comm_split returned no communicator".into()))
}

/// A communicator in which rank g is the process on host node f(g).
pub fn guest_ordered(
    world: &SimpleCommunicator,
    vt: &VirtualTopology,
    placement: &Placement,
) -> Result<SimpleCommunicator> {
    let me = world.rank() as u64;
    split(world, guest_of_world_rank(vt, placement, me)?)
}

/// A communicator in which rank h is the process on host node h (what the
/// runtime's processes address).
pub fn host_ordered(
    world: &SimpleCommunicator,
    placement: &Placement,
) -> Result<SimpleCommunicator> {
    split(world, placement.node_of(world.rank() as u64))
}

/// What MPI_Cart_create should do: a Cartesian communicator of `dims`
/// (periodic or not) whose coordinates are placed on the host by `vt`'s
/// embedding (a torus/mesh guest of those sides). MPI_Cart_shift then names
/// neighbours one embedding path away.
pub fn cartesian(
    world: &SimpleCommunicator,
    vt: &VirtualTopology,
    placement: &Placement,
) -> Result<CartesianCommunicator> {
    let Some((sides, periodic)) = vt.guest().spec().grid() else {
        return Err(Error::Mismatch(format!(
            "a Cartesian communicator needs a grid guest (torus or mesh), not {}",
            vt.guest().spec()
        )));
    };
    let ordered = guest_ordered(world, vt, placement)?;
    // MPI numbers Cartesian ranks row-major, the last axis fastest; the
    // guest numbers its nodes with axis 1 fastest, so the axes are reversed.
    let dims: Vec<i32> = sides.iter().rev().map(|&s| s as i32).collect();
    let periods: Vec<bool> = periodic.into_iter().rev().collect();
    ordered
        .create_cartesian_communicator(&dims, &periods, false)
        .ok_or_else(|| Error::Internal("MPI_Cart_create returned no communicator".into()))
}

/// MPI_Cart_create as it should be: a `axes`-dimensional Cartesian
/// communicator whose sides fit the host ([`dims_for`]) and whose ranks are
/// placed on it by an embedding: `gray` on a hypercube host (dilation 1),
/// else `identity` — the host itself when its axes are the grid's, a plain
/// renumbering otherwise (the virtual topology's metrics say what it costs). Returns the virtual
/// topology too, so the caller can ask where neighbours are.
pub fn cartesian_for_host(
    world: &SimpleCommunicator,
    host: Arc<dyn Topology>,
    placement: &Placement,
    axes: usize,
    periodic: bool,
) -> Result<(CartesianCommunicator, VirtualTopology)> {
    let sides = dims_for(host.spec(), axes)?;
    let guest_spec = if periodic {
        Spec::Torus(sides)
    } else {
        Spec::Mesh(sides)
    };
    let guest: Arc<dyn Topology> = Arc::from(topology::build(&guest_spec)?);
    let method = if matches!(host.spec(), Spec::Cube(_)) {
        "gray"
    } else {
        "identity"
    };
    let embedding = embed::build(method, guest.as_ref(), host.as_ref())?;
    let vt = VirtualTopology::new(guest, host, Arc::from(embedding))?;
    let cart = cartesian(world, &vt, placement)?;
    Ok((cart, vt))
}

/// A distributed-graph communicator (MPI_Dist_graph_create_adjacent) on the
/// guest-ordered ranks, each rank's sources and destinations its guest
/// neighbours in direction order, so neighbour collectives follow the guest.
pub fn dist_graph(
    world: &SimpleCommunicator,
    vt: &VirtualTopology,
    placement: &Placement,
) -> Result<SimpleCommunicator> {
    let ordered = guest_ordered(world, vt, placement)?;
    let node = placement.node_of(world.rank() as u64);
    let neighbours: Vec<c_int> = vt
        .neighbors(node)?
        .iter()
        .map(|n| n.guest as c_int)
        .collect();
    let degree = neighbours.len() as c_int;
    // SAFETY: the arrays outlive the call; MPI writes one communicator handle.
    unsafe {
        let mut graph = ffi::RSMPI_COMM_NULL;
        let code = ffi::MPI_Dist_graph_create_adjacent(
            ordered.as_raw(),
            degree,
            neighbours.as_ptr(),
            ffi::RSMPI_UNWEIGHTED(),
            degree,
            neighbours.as_ptr(),
            ffi::RSMPI_UNWEIGHTED(),
            ffi::RSMPI_INFO_NULL,
            0,
            &mut graph,
        );
        if code != 0 || graph == ffi::RSMPI_COMM_NULL {
            return Err(Error::Internal(format!(
                "MPI_Dist_graph_create_adjacent failed (code {code})"
            )));
        }
        Ok(SimpleCommunicator::from_raw(graph))
    }
}

/// MPI_Neighbor_allgather of one u64 per rank on a distributed-graph
/// communicator: what each source neighbour sent, in source order.
pub fn neighbor_allgather(graph: &SimpleCommunicator, value: u64, degree: usize) -> Vec<u64> {
    let mut out = vec![0u64; degree];
    // SAFETY: one u64 out, `degree` u64 in, as the communicator's in-degree.
    unsafe {
        ffi::MPI_Neighbor_allgather(
            (&value as *const u64).cast(),
            1,
            ffi::RSMPI_UINT64_T,
            out.as_mut_ptr().cast(),
            1,
            ffi::RSMPI_UINT64_T,
            graph.as_raw(),
        );
    }
    out
}
