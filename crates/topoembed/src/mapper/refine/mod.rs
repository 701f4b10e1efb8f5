//! Local search phases of the mapper, one file per neighbourhood.

pub mod balance;
pub mod fm;
pub mod local;
pub mod parts;
pub mod vcycle;
