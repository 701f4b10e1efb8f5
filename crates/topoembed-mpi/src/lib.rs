//! # topoembed-mpi
//!
//! MPI for topoembed: communicators reordered by an embedding, and the
//! runtime's algorithms (Cannon, FFT, bitonic sort, allreduce) over MPI.
//!
//! * [`placement`]: where MPI's world ranks sit on the host (default: rank
//!   r on host node r; or a file) — no MPI needed.
//! * [`dims`]: a Cartesian factorisation that fits the host — no MPI needed.
//! * `communicators` (feature `mpi`): guest-ordered and host-ordered
//!   communicators (MPI_Comm_split keyed by f^-1), a Cartesian communicator
//!   that is really reordered for the host, a distributed-graph communicator
//!   of the guest's neighbours.
//! * `transport` (feature `mpi`): the runtime's `Transport` over MPI, so
//!   `topoembed::runtime::algorithms::rank_program` runs unchanged under
//!   `mpirun`, with the same counts and modelled clock as in process.
//!
//! Without the `mpi` feature the crate builds and tests without an MPI
//! library (`cargo test --workspace`); `--features mpi` needs Open MPI.

pub mod dims;
pub mod placement;

#[cfg(feature = "mpi")]
pub mod communicators;
#[cfg(feature = "mpi")]
pub mod transport;

pub use dims::dims_for;
pub use placement::Placement;
