//! Hosts: the topologies, networks routed as SimGrid routes them, hwloc nodes, Slurm clusters, allocations, weighted host graphs, Scotch target files.

mod allocations;
mod hwloc;
mod networks;
mod scotch_io;
mod simgrid;
mod slurm;
mod topologies;
mod weighted_hosts;
