//! Recording mode (`TOPOEMBED_RECORD=FILE`): the application's own traffic,
//! as the guest graph topoembed maps.
//!
//! Layers, arrows down: `record.c` (the interposed MPI calls: what each
//! sends, to which world rank; the gather at `MPI_Finalize`) → [`ffi`] (the
//! C ABI, no unwinding) → [`counters`] (one process's sparse counts) and
//! [`recording`] (rank 0: merged, written as the graph FILE's extension
//! names plus `FILE.json`), both over [`wire`] (what travels to rank 0)
//! and [`traffic`] (the units counted).

pub mod counters;
#[cfg(feature = "mpi")]
pub mod exports;
pub mod ffi;
pub mod recording;
pub mod settings;
pub mod traffic;
pub mod wire;
