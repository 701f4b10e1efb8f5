//! The library's integration tests in one test binary (one link of the
//! library instead of one per file: CI builds them from nothing); each
//! file is a module and says what it checks. `golden.rs` and `optimal.rs`
//! stay binaries of their own (CI and the README run them by name).

mod common;

mod embeddings;
mod hosts;
mod layout;
mod mapping;
mod runs;
