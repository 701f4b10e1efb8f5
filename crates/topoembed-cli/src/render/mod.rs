//! Rendering of embeddings and metrics as tables, CSV, JSON and layouts, one
//! file per kind of output (as ripgrep's printer is split), so a new
//! command's output does not grow one file.

use std::io::Write;

/// Where every renderer writes.
type Out<'a> = &'a mut dyn Write;

mod closed_forms;
mod compare;
mod csv;
mod embedding;
mod hamiltonian;
mod metrics;
pub mod optimal;

pub use compare::{compare_table, Detail};
pub use csv::{csv_field, csv_row, CSV_HEADER};
pub use embedding::{dilations, embed_csv, embed_json, embed_layout, embed_table};
pub use hamiltonian::hamiltonian;
pub use metrics::metrics_table;
