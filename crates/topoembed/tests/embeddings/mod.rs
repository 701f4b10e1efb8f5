//! Embeddings: the methods, closed forms, Hamiltonian cycles, meshes into cubes, structure found in a guest, box stencils, device meshes on tori and on GPU clusters.

mod closed_forms;
mod cluster_mesh;
mod device_mesh;
mod hamiltonian;
mod mesh_to_cube;
mod methods;
mod stencils;
mod structure;
