//! The library's integration tests in one test binary (one link of the
//! library instead of one per file: CI builds them from nothing); each
//! file is a module and says what it checks. `golden.rs` and `optimal.rs`
//! stay binaries of their own (CI and the README run them by name).

mod common;

mod allocations;
mod closed_forms;
mod cluster_mesh;
mod device_mesh;
mod graph_files;
mod hamiltonian;
mod hwloc;
mod layout;
mod mapper;
mod mesh_to_cube;
mod methods;
mod networks;
mod profiles;
mod recorded;
mod runtime;
mod scotch_io;
mod simgrid;
mod simulate;
mod slurm;
mod structure;
mod topologies;
mod traffic;
mod virtual_topology;
mod weighted;
mod weighted_hosts;
