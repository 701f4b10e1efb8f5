//! The general mapper and its inputs: weighted graphs, graph files, recorded runs and their profiles, virtual topologies, trees.

mod closed_forms;
mod graph_files;
mod mapper;
mod profiles;
mod recorded;
mod searches;
mod trees;
mod virtual_topology;
mod weighted;
