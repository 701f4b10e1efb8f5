//! `optimal`'s and `verify-certificate`'s answers as tables, CSV and JSON.

use std::path::Path;

use topoembed::optimal::certificate::{self, Verified};
use topoembed::optimal::{
    Answer, BestBijection, Literature, Optimum, Question, Tally, VectorAnswer, VectorDecision,
    VectorSearch,
};

use super::Out;
use crate::cli::Format;
use crate::Failure;

/// Prints what [`topoembed::optimal::answer`] found for `question`.
pub fn answer(
    question: &Question,
    found: &Answer,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    match found {
        Answer::AllBijections { best } => bijections(question, best, format, out),
        Answer::OneVector { decision } => one_vector(decision, format, out),
        Answer::WholeTree { optimum } => {
            let stopped = match question.checkpoint {
                Some(path) => format!(
                    "not proved: the search was stopped; run again with --checkpoint {} to go on",
                    path.display()
                ),
                None => "not proved: the search was stopped (--node-limit or Ctrl-C)".to_string(),
            };
            let size = format!(
                "{} search nodes, {:.2} s",
                optimum.nodes_searched, optimum.seconds
            );
            optimum_report(optimum, &stopped, &size, format, out)
        }
        Answer::Vectors {
            search,
            tally,
            certificate,
        } => {
            let size = vectors_size(question, search, tally, certificate.as_deref());
            let stopped = match (question.certificate, question.checkpoint) {
                (Some(dir), _) => format!(
                    "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C); run again with --certificate {} to go on",
                    dir.display()
                ),
                (None, Some(path)) => format!(
                    "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C); run again with --checkpoint {} to go on",
                    path.display()
                ),
                (None, None) => {
                    "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C)"
                        .to_string()
                }
            };
            optimum_report(&search.optimum, &stopped, &size, format, out)
        }
    }
}

/// The last line of a search by vectors: how many were decided, how they
/// fell, and the certificate written.
fn vectors_size(
    question: &Question,
    search: &VectorSearch,
    tally: &Tally,
    certificate: Option<&Path>,
) -> String {
    let found = &search.optimum;
    let written = match certificate {
        Some(dir) => {
            // A stopped search's certificate proves its lower bound only.
            let what = if found.proved {
                "certificate"
            } else {
                "a certificate of the lower bound alone"
            };
            format!(
                "; {what} in {} ({} proofs, {}), check it with `topoembed verify-certificate {}`",
                dir.display(),
                search.proofs,
                bytes(search.proof_bytes),
                dir.display()
            )
        }
        None => String::new(),
    };
    let earlier = match tally.resumed {
        0 => String::new(),
        n => format!(" ({n} more by the stopped run it went on from)"),
    };
    // Vectors refuted by a sub-cube an earlier vector's search refuted; in
    // a certificate, every vector the branch and bound refuted cites the
    // DRAT proof of its core.
    let by_cores = match (tally.by_earlier_cores, tally.citing_cores) {
        (0, 0) => String::new(),
        (0, _) => format!(
            ", each citing the DRAT proof of its core, {} cores",
            tally.cited_cores
        ),
        (n, _) => format!(" ({n} of them by a sub-cube refuted before)"),
    };
    // Named only where it refuted some (the window lemma's band formulas;
    // in a certificate each with the empty clause as its DRAT proof).
    let propagated = match tally.by_propagation {
        0 => String::new(),
        n => format!("{n} by unit propagation on the window lemma's band, "),
    };
    format!(
        "{} vectors decided{earlier} after the `{}` bounds ({} refuted: {propagated}{} by the branch and bound{by_cores}, {} by SAT), {:.2} s{written}",
        found.nodes_searched,
        question.bounds.name(),
        tally.refuted,
        tally.by_search,
        tally.by_solver,
        found.seconds
    )
}

/// `--all-bijections`: the least CC time over all bijections.
fn bijections(
    question: &Question,
    found: &BestBijection,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    match format {
        Format::Json => json(found, out)?,
        Format::Csv => {
            writeln!(out, "guest,host,min_communication,constant_min,beats_constant,proved,nodes_searched,seconds,cited_min")?;
            writeln!(
                out,
                "{},{},{},{},{},{},{},{:.3},{}",
                found.guest,
                found.host,
                found.min_communication,
                found.constant_min,
                found.beats_constant,
                found.proved,
                found.nodes_searched,
                found.seconds,
                found.literature.min_sum
            )?;
        }
        Format::Table => {
            writeln!(out, "{} -> {}: least CC communication time over all bijections (units of Tc, waiting included)", found.guest, found.host)?;
            writeln!(
                out,
                "  all bijections            {}",
                found.min_communication
            )?;
            writeln!(out, "  constant distances (best) {}", found.constant_min)?;
            cited(out, "cited                     ", &found.literature)?;
            let verdict = match (found.proved, found.beats_constant) {
                (true, false) => {
                    "proved: no bijection beats the best constant-distance embedding".to_string()
                }
                (true, true) => {
                    "proved: giving up constant distances pays here (map in --format json)"
                        .to_string()
                }
                (false, _) => match question.checkpoint {
                    Some(path) => format!(
                        "not proved: the search was stopped (--node-limit or Ctrl-C); run again \
                         with --checkpoint {} to go on",
                        path.display()
                    ),
                    None => {
                        "not proved: the search was stopped (--node-limit or Ctrl-C)".to_string()
                    }
                },
            };
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

/// The optimum beside xor and standard: `stopped` is the verdict when the
/// search did not complete, `size` the line on what it searched.
fn optimum_report(
    found: &Optimum,
    stopped: &str,
    size: &str,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    match format {
        Format::Json => json(found, out)?,
        Format::Csv => {
            writeln!(out, "guest,host,min_sum,distances,xor_sum,standard_sum,xor_optimal,proved,nodes_searched,seconds,cited_min_sum,lower_bound")?;
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.3},{},{}",
                found.guest,
                found.host,
                found.min_sum,
                listed(&found.distances, " "),
                found.xor_sum,
                found.standard_sum,
                found.xor_optimal,
                found.proved,
                found.nodes_searched,
                found.seconds,
                found.literature.min_sum,
                found.lower_bound
            )?;
        }
        Format::Table => {
            let verdict = match (found.proved, found.xor_optimal) {
                (true, true) => "proved: no constant-distance embedding beats xor here".to_string(),
                (true, false) => format!(
                    "proved: xor is NOT optimal here; the embedding below has Σ D_i = {} < xor's {}",
                    found.min_sum, found.xor_sum
                ),
                // An embedding beating xor is a fact even when its optimality
                // is not proved.
                (false, _) if found.min_sum < found.xor_sum => format!(
                    "xor is NOT optimal here: the embedding below has Σ D_i = {} < xor's {}; {stopped}",
                    found.min_sum, found.xor_sum
                ),
                (false, _) => stopped.to_string(),
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
                listed(&found.distances, ", ")
            )?;
            if !found.proved {
                writeln!(
                    out,
                    "  at least  {}: no constant-distance embedding has a smaller Σ D_i (proved so far)",
                    found.lower_bound
                )?;
            }
            writeln!(out, "  xor       {}", found.xor_sum)?;
            writeln!(out, "  standard  {}", found.standard_sum)?;
            cited(out, "cited     ", &found.literature)?;
            writeln!(out, "  {verdict}")?;
            writeln!(out, "  {size}")?;
        }
    }
    Ok(())
}

/// `--distances D0,..`: one vector decided.
fn one_vector(decided: &VectorDecision, format: Format, out: Out) -> Result<(), Failure> {
    match format {
        Format::Json => json(decided, out)?,
        Format::Csv => {
            let answer = match &decided.answer {
                VectorAnswer::Embedding { .. } => "embedding",
                VectorAnswer::RuledOut { .. } => "ruled_out",
                VectorAnswer::Refuted { .. } => "refuted",
                VectorAnswer::Stopped => "stopped",
            };
            writeln!(out, "guest,host,distances,sum,answer,seconds")?;
            writeln!(
                out,
                "{},{},{},{},{answer},{:.3}",
                decided.guest,
                decided.host,
                listed(&decided.distances, " "),
                decided.sum,
                decided.seconds
            )?;
        }
        Format::Table => {
            writeln!(
                out,
                "{} -> {}: D = {} (Σ D_i = {})",
                decided.guest,
                decided.host,
                listed(&decided.distances, ", "),
                decided.sum
            )?;
            let verdict = match &decided.answer {
                VectorAnswer::Embedding { .. } => {
                    "embeds: a constant-distance embedding has these distances (its map: --format json)".to_string()
                }
                VectorAnswer::Stopped => "not decided: stopped (Ctrl-C)".to_string(),
                VectorAnswer::RuledOut { bounds } => format!(
                    "no constant-distance embedding has these distances (by the `{bounds}` bounds)"
                ),
                VectorAnswer::Refuted { refuted } => format!(
                    "no constant-distance embedding has these distances ({})",
                    how_refuted(refuted)
                ),
            };
            writeln!(out, "  {verdict}")?;
            writeln!(out, "  {:.2} s", decided.seconds)?;
        }
    }
    Ok(())
}

/// Who refuted a vector, and with what.
fn how_refuted(refuted: &topoembed::optimal::Refuted) -> String {
    match refuted.by.as_str() {
        // A probe's core: the branch and bound ran on that sub-cube alone.
        "search" if refuted.search_nodes == 0 => format!(
            "by the branch and bound on a sub-cube alone{}",
            not_even(&refuted.core)
        ),
        "search" => format!(
            "by the branch and bound, {} nodes{}",
            refuted.search_nodes,
            not_even(&refuted.core)
        ),
        "propagation" => {
            "by the window lemma: unit propagation on its band formula ends in a conflict"
                .to_string()
        }
        _ => format!(
            "by the SAT solver, {} variables, {} clauses",
            refuted.variables, refuted.clauses
        ),
    }
}

/// What a refutation's core says ([`topoembed::optimal::Refuted::core`]):
/// nothing when the whole vector is its own core.
fn not_even(core: &[u32]) -> String {
    if core.is_empty() {
        return String::new();
    }
    format!(
        ": not even the {}-cube of distances {} embeds",
        core.len(),
        listed(core, ", ")
    )
}

/// `verify-certificate DIR`'s answer.
pub fn verified(dir: &Path, v: &Verified, format: Format, out: Out) -> Result<(), Failure> {
    if format == Format::Json {
        return json(v, out);
    }
    let of_what = if v.complete {
        ""
    } else {
        " (a stopped search's: it proves a lower bound only)"
    };
    writeln!(
        out,
        "{}: certificate holds{of_what}: no constant-distance embedding of {} onto {} has Σ D_i below {}",
        dir.display(),
        v.guest,
        v.host,
        v.lower_bound
    )?;
    writeln!(
        out,
        "  embedding checked: a bijection with constant distances, Σ D_i = {}",
        v.min_sum
    )?;
    writeln!(
        out,
        "  {} vector prefixes cut by the bounds (`{}`, recomputed)",
        v.by_bounds, v.bounds
    )?;
    if v.checker == certificate::BUILT_IN {
        writeln!(
            out,
            "  {} vectors refuted by DRAT proofs ({} lemmas, {} checked), {:.2} s",
            v.by_proofs,
            v.lemmas,
            bytes(v.proof_bytes),
            v.seconds
        )?;
    } else {
        writeln!(
            out,
            "  {} vectors refuted by DRAT proofs ({} checked by `{}`), {:.2} s",
            v.by_proofs,
            bytes(v.proof_bytes),
            v.checker,
            v.seconds
        )?;
    }
    if v.by_cores > 0 {
        writeln!(
            out,
            "  {} of them by the proofs of {} cores (sub-cubes they hold, placed one to one nowhere){}",
            v.by_cores,
            v.cores,
            match v.lex_leader_clauses {
                0 => String::new(),
                n => format!(", citing {n} lex-leader clauses, each checked"),
            }
        )?;
    }
    let lemmas = [
        (
            v.by_propagation,
            "refuted by unit propagation alone (checked here, no proof needed)",
        ),
        (
            v.by_windings,
            "bind dimensions to an axis by the winding lemma",
        ),
        (v.by_halving, "halved (or quartered) by the halving lemma"),
        (v.by_band, "in a band of the torus by the window lemma"),
        (
            v.by_pin,
            "pin half the cube to a window by the slack window",
        ),
    ];
    for (count, what) in lemmas {
        if count > 0 {
            writeln!(out, "  {count} of those formulas {what}")?;
        }
    }
    Ok(())
}

/// The published least wirelength's bound on the row `label`, marked as
/// cited (see `topoembed::optimal::wirelength`).
fn cited(out: Out, label: &str, literature: &Literature) -> std::io::Result<()> {
    writeln!(
        out,
        "  {label}≥ {}: least wirelength {} over all bijections ({}; not checked here)",
        literature.min_sum, literature.min_wirelength, literature.source
    )
}

/// Pretty JSON and a newline.
fn json(value: &impl serde::Serialize, out: Out) -> Result<(), Failure> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(crate::commands::io_error)?;
    writeln!(out)?;
    Ok(())
}

/// `1, 2, 4` or `1 2 4`.
fn listed(values: &[u32], separator: &str) -> String {
    let texts: Vec<String> = values.iter().map(u32::to_string).collect();
    texts.join(separator)
}

/// A byte count for people.
fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / f64::from(1u32 << 30)),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}
