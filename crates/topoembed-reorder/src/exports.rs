//! The names the application calls: `MPI_Cart_create`,
//! `MPI_Dist_graph_create_adjacent`, `MPI_Dist_graph_create` and the
//! Fortran bindings' `mpi_cart_create_` and `mpi_dist_graph_create_adjacent_`
//! (with the other manglings gfortran and Open MPI use), each forwarding to
//! the C interposer (src/shim.c).
//!
//! They are defined here, not in C, because a Rust cdylib exports only the
//! crate's own `#[no_mangle]` functions: C symbols linked into it stay
//! hidden. MPI handles travel as one machine word (`Handle`): Open MPI's are
//! pointers, and the C side receives them with their real types.
#![allow(non_snake_case)]

use std::ffi::c_int;

use crate::forward::{Handle, F};

forward!(
    "MPI_Cart_create, placed by topoembed when `reorder` is true.",
    [MPI_Cart_create] => topoembed_shim_cart_create(
        comm: Handle, ndims: c_int, dims: *const c_int, periods: *const c_int, reorder: c_int,
        cart: *mut Handle
    ) -> c_int
);

forward!(
    "MPI_Dist_graph_create_adjacent, placed by topoembed when `reorder` is true.",
    [MPI_Dist_graph_create_adjacent] => topoembed_shim_dist_graph_create_adjacent(
        comm: Handle, indegree: c_int, sources: *const c_int, sourceweights: *const c_int,
        outdegree: c_int, destinations: *const c_int, destweights: *const c_int, info: Handle,
        reorder: c_int, graph: *mut Handle
    ) -> c_int
);

forward!(
    "MPI_Dist_graph_create, placed by topoembed when `reorder` is true.",
    [MPI_Dist_graph_create] => topoembed_shim_dist_graph_create(
        comm: Handle, n: c_int, sources: *const c_int, degrees: *const c_int,
        destinations: *const c_int, weights: *const c_int, info: Handle, reorder: c_int,
        graph: *mut Handle
    ) -> c_int
);

forward!(
    "Fortran MPI_CART_CREATE (mpif.h, `use mpi`), under every mangling Open MPI exports.",
    [mpi_cart_create, mpi_cart_create_, mpi_cart_create__, MPI_CART_CREATE]
        => topoembed_shim_cart_create_f(
            comm: F, ndims: F, dims: F, periods: F, reorder: F, cart: F, ierr: F
        )
);

forward!(
    "Fortran MPI_DIST_GRAPH_CREATE_ADJACENT (mpif.h, `use mpi`), under every mangling.",
    [
        mpi_dist_graph_create_adjacent,
        mpi_dist_graph_create_adjacent_,
        mpi_dist_graph_create_adjacent__,
        MPI_DIST_GRAPH_CREATE_ADJACENT
    ] => topoembed_shim_dist_graph_create_adjacent_f(
        comm: F, indegree: F, sources: F, sourceweights: F, outdegree: F, destinations: F,
        destweights: F, info: F, reorder: F, graph: F, ierr: F
    )
);
