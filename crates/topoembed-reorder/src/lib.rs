//! `libtopoembed_reorder.so`: a PMPI interposition library that makes
//! `reorder = 1` real for unchanged MPI applications in C, C++ and Fortran.
//!
//! MPICH ignores the flag (`MPIR_Cart_map` returns the identity), Open MPI
//! ignores it for Cartesian communicators; preloaded in front of Open MPI
//! (`mpirun -x LD_PRELOAD=.../libtopoembed_reorder.so -x
//! TOPOEMBED_HOST=torus:8x8x8 ./app`), this library intercepts
//! `MPI_Cart_create`, `MPI_Dist_graph_create_adjacent` and
//! `MPI_Dist_graph_create` (and their `mpif.h` / `use mpi` Fortran
//! bindings, which Open MPI routes straight to the PMPI C functions) and,
//! when `reorder` is true, places the guest — the grid, or the graph with
//! its edge weights as volumes — on the host with topoembed's mapper, then
//! builds the communicator with the PMPI calls so that rank g is the
//! process that plays guest node g.
//!
//! Layers, arrows down: `shim.c` (the MPI side: gathers, broadcasts,
//! `PMPI_Comm_split`, the PMPI constructors) → [`ffi`] (the C ABI, no
//! unwinding) → [`plan`] (which process plays which node) and [`settings`]
//! (the environment, where processes sit). Any error prints one warning
//! line on rank 0 and falls back to the plain call: the library never
//! stops an application.
//!
//! With `TOPOEMBED_RECORD=FILE` it also records the application's own
//! traffic ([`record`]): every point-to-point send by world destination,
//! collectives apart, written by rank 0 at `MPI_Finalize` as a graph
//! `topoembed` reads (`graph:FILE`) and a JSON summary.

#[cfg(feature = "mpi")]
#[macro_use]
mod forward;

#[cfg(feature = "mpi")]
pub mod exports;
pub mod ffi;
pub mod plan;
pub mod record;
pub mod settings;
