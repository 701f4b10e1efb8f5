//! `topoembed optimal cube:D HOST`: the least Σ D_i over all
//! constant-distance embeddings, beside xor's and standard's.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use topoembed::optimal::{optimal_constant, SearchOptions};
use topoembed::spec::Spec;
use topoembed::{Error, Progress};

use crate::progress::Bar;

use crate::cli::Format;
use crate::commands::{io_error, parse_spec, Out};
use crate::Failure;

/// Set by Ctrl-C: the search stops with the best found so far.
static STOP: AtomicBool = AtomicBool::new(false);

pub fn optimal(
    guest: &str,
    host: &str,
    node_limit: u64,
    checkpoint: Option<&Path>,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let d = match guest.parse::<Spec>()? {
        Spec::Cube(d) => d,
        other => {
            return Err(Error::Mismatch(format!(
                "{other}: the search embeds hypercubes (cube:D) onto rings and tori"
            ))
            .into())
        }
    };
    let host = parse_spec(host)?;
    // A second Ctrl-C (or a handler that cannot be set) ends the process as usual.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let progress = Arc::new(Progress::new());
    let found = {
        let _bar = Bar::start(
            progress.clone(),
            format!("optimal cube:{d} -> {host}: thousand search nodes"),
            format == Format::Table,
        );
        optimal_constant(
            d,
            &host,
            &SearchOptions {
                node_limit,
                stop: Some(&STOP),
                progress: Some(&progress),
                checkpoint,
            },
        )?
    };
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &found).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "guest,host,min_sum,distances,xor_sum,standard_sum,xor_optimal,proved,nodes_searched,seconds")?;
            let dims: Vec<String> = found.distances.iter().map(u32::to_string).collect();
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.3}",
                found.guest,
                found.host,
                found.min_sum,
                dims.join(" "),
                found.xor_sum,
                found.standard_sum,
                found.xor_optimal,
                found.proved,
                found.nodes_searched,
                found.seconds
            )?;
        }
        Format::Table => {
            let dims: Vec<String> = found.distances.iter().map(u32::to_string).collect();
            let verdict = match (found.proved, found.xor_optimal) {
                (true, true) => "proved: no constant-distance embedding beats xor here".to_string(),
                (true, false) => format!(
                    "proved: xor is NOT optimal here; the embedding below has Σ D_i = {} < xor's {}",
                    found.min_sum, found.xor_sum
                ),
                (false, _) => match checkpoint {
                    Some(path) => format!(
                        "not proved: the search was stopped; run again with --checkpoint {} to go on",
                        path.display()
                    ),
                    None => "not proved: the search was stopped (--node-limit or Ctrl-C)".to_string(),
                },
            };
            writeln!(
                out,
                "{} -> {}: least Σ D_i over constant-distance embeddings",
                found.guest, found.host
            )?;
            writeln!(
                out,
                "  optimum   {} (D = {})",
                found.min_sum,
                dims.join(", ")
            )?;
            writeln!(out, "  xor       {}", found.xor_sum)?;
            writeln!(out, "  standard  {}", found.standard_sum)?;
            writeln!(out, "  {verdict}")?;
            writeln!(
                out,
                "  {} search nodes, {:.2} s",
                found.nodes_searched, found.seconds
            )?;
        }
    }
    Ok(())
}
