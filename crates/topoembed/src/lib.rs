//! # topoembed
//!
//! Places the processes of a parallel program (the *guest* graph: hypercube,
//! ring, mesh, torus, binary tree) on a machine's interconnect (the *host*),
//! and says how good the placement is.
//!
//! * [`spec`]: the topology spec syntax (`cube:6`, `torus:8x8`, ...).
//! * [`topology`]: implicit topologies behind one trait, plus stored graphs.
//! * [`embed`]: the methods (standard, xor, byweight, gray, identity, the
//!   mesh-into-cube family, the grid-into-grid family) and their registry.
//! * [`device_mesh`]: logical device meshes laid onto accelerator tori and meshes.
//! * [`metrics`]: dilation, spectrum, load, per-dimension distances, streamed in parallel.
//! * [`model`]: the CC-time model of compute-and-communicate d-cube algorithms.
//! * [`closed_form`]: the journal xor paper's metrics in closed form (standard, xor).
//! * [`hamiltonian`]: edge-disjoint Hamiltonian cycles of the n-cube.
//! * [`io`]: Scotch source graphs, target architectures and mappings.
//! * [`recorded`]: a recording's message latencies and collectives, weighed by the mapper.
//! * [`routing`]: routing models and the [`routing::Route`] trait.
//! * [`traffic`]: congestion, link load and node load of routed guest edges.
//! * [`virtual_topology`]: each rank's guest node(s) and its guest neighbours' ranks.
//! * [`runtime`]: programs run through an embedding, with a modelled clock;
//!   Cannon, FFT, bitonic sort and allreduce, each checking its result.
//! * [`simulate`]: a discrete-event simulation of a run's messages on the host
//!   network, with link and processor contention.
//!
//! The library computes and returns; it never prints or exits.
//!
//! ```
//! use topoembed::{embed, metrics, topology};
//! let guest = topology::parse("cube:6")?;
//! let host = topology::parse("torus:8x8")?;
//! let xor = embed::build("xor", guest.as_ref(), host.as_ref())?;
//! let m = metrics::measure(guest.as_ref(), host.as_ref(), xor.as_ref(), &Default::default())?;
//! assert_eq!(m.distances, Some(vec![1, 2, 2, 1, 2, 2]));
//! assert_eq!(m.congestion.map(|c| c.max), Some(3)); // dimension-order routing
//! assert_eq!(m.closed_form.map(|c| c.congestion), Some(3)); // journal closed form
//! # Ok::<(), topoembed::Error>(())
//! ```

// The module docs name the private modules that do each part (the map of
// the code a reader needs; `cargo doc --document-private-items` links them).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bits;
pub mod closed_form;
pub mod device_mesh;
pub mod embed;
mod error;
pub mod hamiltonian;
pub mod io;
pub mod mapper;
pub mod metrics;
pub mod model;
pub mod optimal;
mod prefetch;
mod progress;
pub mod recorded;
pub mod report;
pub mod routing;
pub mod runtime;
pub mod simulate;
pub mod spec;
mod stream;
mod team;
pub mod topology;
pub mod traffic;
pub mod virtual_topology;
pub mod work;
pub mod workload;

pub use error::{Error, Result};
pub use progress::Progress;
