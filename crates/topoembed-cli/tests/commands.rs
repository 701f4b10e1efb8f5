//! The command's integration tests in one test binary (one link instead
//! of one per file: CI builds them from nothing); each file is a module
//! and says what it checks.

mod common;

mod cli;
mod completions;
mod defaults;
mod device_mesh;
mod docs;
mod figures;
mod map;
mod optimal;
mod report;
mod scotch;
