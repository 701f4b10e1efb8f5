//! Traffic and time: link and node loads, the network simulator, programs run through an embedding.

mod runtime;
mod simulate;
mod traffic;
mod workload;
