//! `topoembed optimal cube:D HOST`: the least Σ D_i over all
//! constant-distance embeddings, beside xor's and standard's.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use topoembed::optimal::certificate::{self, Verified};
use topoembed::optimal::Turns;
use topoembed::optimal::{
    decide_vector, estimate_nodes, optimal_bijection, optimal_by_vectors_admitted,
    optimal_constant, Bounds, Left, Literature, Optimum, Refuted, SearchOptions, VectorAnswer,
    ESTIMATE_PROBES,
};
use topoembed::spec::Spec;
use topoembed::{Error, Progress};

use crate::progress::Bar;

use crate::cli::{DecideBy, Format};
use crate::commands::{io_error, parse_spec, Out};
use crate::{work, Failure};

/// Set by Ctrl-C: the search stops with the best found so far.
static STOP: AtomicBool = AtomicBool::new(false);

/// The cube dimension of a `cube:D` guest.
fn cube(guest: &str) -> Result<u32, Failure> {
    match guest.parse::<Spec>()? {
        Spec::Cube(d) => Ok(d),
        other => Err(Error::Mismatch(format!(
            "{other}: the search embeds hypercubes (cube:D) onto rings and tori"
        ))
        .into()),
    }
}

/// `optimal --all-bijections`: the least CC time over all bijections.
pub fn bijections(
    guest: &str,
    host: &str,
    (node_limit, checkpoint): (u64, Option<&Path>),
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let d = cube(guest)?;
    let host = parse_spec(host)?;
    stop_on_ctrl_c();
    let progress = Arc::new(Progress::new());
    let found = {
        let _bar = Bar::start(
            progress.clone(),
            format!("optimal cube:{d} -> {host} --all-bijections: branches on cube nodes 1 and 2"),
            format == Format::Table,
        );
        optimal_bijection(
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
                (false, _) => match checkpoint {
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
            footer(out, &verdict, found.nodes_searched, found.seconds)?;
        }
    }
    Ok(())
}

/// `optimal --whole-tree`: one branch and bound over every vector and
/// placement, its size estimated by random probes first.
pub fn optimal(
    guest: &str,
    host: &str,
    (node_limit, force): (u64, bool),
    checkpoint: Option<&Path>,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let d = cube(guest)?;
    let host = parse_spec(host)?;
    // The whole tree's size (a checkpoint's remaining search is smaller).
    let nodes = estimate_nodes(d, &host, ESTIMATE_PROBES)?;
    let estimate = work::Estimate {
        units: match node_limit {
            0 => nodes,
            limit => nodes.min(limit as f64),
        },
        unit: "search nodes",
        rate: work::rate::SEARCH_NODE,
    };
    work::check("optimal", estimate, force)?;
    stop_on_ctrl_c();
    let progress = Arc::new(Progress::new());
    // The bar's ETA runs on the estimate (units of 1024 nodes, as counted);
    // a tree too large to finish gets a counter only.
    if estimate.units < 1e15 {
        progress.add_total((estimate.units / 1024.0).ceil() as u64);
    }
    let found = {
        let _bar = Bar::start(
            progress.clone(),
            format!("optimal cube:{d} -> {host}: search nodes / 1024 (total estimated)"),
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
    let stopped = match checkpoint {
        Some(path) => format!(
            "not proved: the search was stopped; run again with --checkpoint {} to go on",
            path.display()
        ),
        None => "not proved: the search was stopped (--node-limit or Ctrl-C)".to_string(),
    };
    let size = format!(
        "{} search nodes, {:.2} s",
        found.nodes_searched, found.seconds
    );
    report(&found, &stopped, &size, format, out)
}

/// The optimum beside xor and standard: `stopped` is the verdict when the
/// search did not complete, `size` the line on what it searched.
fn report(
    found: &Optimum,
    stopped: &str,
    size: &str,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, found).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "guest,host,min_sum,distances,xor_sum,standard_sum,xor_optimal,proved,nodes_searched,seconds,cited_min_sum,lower_bound")?;
            let dims: Vec<String> = found.distances.iter().map(u32::to_string).collect();
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.3},{},{}",
                found.guest,
                found.host,
                found.min_sum,
                dims.join(" "),
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
            let dims: Vec<String> = found.distances.iter().map(u32::to_string).collect();
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
                dims.join(", ")
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

/// The published least wirelength's bound on the row `label`, marked as
/// cited (see `topoembed::optimal::wirelength`).
fn cited(out: Out, label: &str, literature: &Literature) -> std::io::Result<()> {
    writeln!(
        out,
        "  {label}≥ {}: least wirelength {} over all bijections ({}; not checked here)",
        literature.min_sum, literature.min_wirelength, literature.source
    )
}

/// The verdict and the search's size, last in both tables.
fn footer(out: Out, verdict: &str, nodes: u64, seconds: f64) -> std::io::Result<()> {
    writeln!(out, "  {verdict}")?;
    writeln!(out, "  {nodes} search nodes, {seconds:.2} s")
}

/// The first Ctrl-C sets [`STOP`] (the search ends with what it has); a
/// second one, or a handler that cannot be set, ends the process as usual.
/// A second interrupt within [`ECHO`] of the first is taken for the same
/// one delivered twice: `timeout -s INT` and `pkill -INT` signal both the
/// process and its group, and the report would be lost.
fn stop_on_ctrl_c() {
    let first = std::sync::OnceLock::new();
    let _ = ctrlc::set_handler(move || {
        let at = *first.get_or_init(std::time::Instant::now);
        if STOP.swap(true, Ordering::Relaxed) && at.elapsed() >= ECHO {
            std::process::exit(130);
        }
    });
}

/// How soon after the first interrupt a second one is its echo.
const ECHO: std::time::Duration = std::time::Duration::from_millis(500);

/// `optimal` (by default), `--sat` and `--certificate DIR`: vector by
/// vector, after the bounds. Unless `run_anyway`, the vectors the bounds
/// leave are counted first and a search estimated beyond the work limit is
/// refused (the work that will run: nothing else is searched).
#[allow(clippy::too_many_arguments)]
pub fn by_vectors(
    guest: &str,
    host: &str,
    vector_limit: u64,
    (certificate, checkpoint): (Option<&Path>, Option<&Path>),
    (bounds, decide_by): (Bounds, Option<DecideBy>),
    run_anyway: bool,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let d = cube(guest)?;
    let host = parse_spec(host)?;
    // The vectors the bounds leave, counted by the search itself before it
    // decides any: the work that will run.
    let admit = |left: Left| -> topoembed::Result<()> {
        work::admit("optimal", left.estimate(vector_limit), run_anyway)
    };
    // A certificate's refutations are all DRAT proofs: by the solver alone
    // unless --decide-by says otherwise, and then the cores the branch and
    // bound names are proved by the solver on their own.
    let turns = match (certificate, decide_by) {
        (Some(_), None) => Turns::SOLVER_ONLY,
        (_, how) => turns(how.unwrap_or(DecideBy::Turns)),
    };
    stop_on_ctrl_c();
    let progress = Arc::new(Progress::new());
    let search = {
        let _bar = Bar::start(
            progress.clone(),
            format!("optimal cube:{d} -> {host}: distance vectors decided"),
            format == Format::Table,
        );
        optimal_by_vectors_admitted(
            d,
            &host,
            &SearchOptions {
                node_limit: vector_limit,
                stop: Some(&STOP),
                progress: Some(&progress),
                checkpoint,
            },
            (certificate, turns, bounds),
            &admit,
        )?
    };
    let found = &search.optimum;
    let written = match certificate {
        Some(dir) => {
            // A stopped search's certificate proves its lower bound only.
            certificate::write(dir, &search)?;
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
    let earlier = match search.resumed {
        0 => String::new(),
        n => format!(" ({n} more by the stopped run it went on from)"),
    };
    // Vectors refuted by a sub-cube an earlier vector's search refuted; in
    // a certificate, every vector the branch and bound refuted cites the
    // DRAT proof of its core.
    let cited: Vec<&Refuted> = search
        .refuted
        .iter()
        .filter(|r| r.by == "drat" && !r.core.is_empty())
        .collect();
    let by_cores = match search
        .refuted
        .iter()
        .filter(|r| r.by == "search" && r.search_nodes == 0 && !r.core.is_empty())
        .count()
    {
        0 if cited.is_empty() => String::new(),
        0 => {
            let cores: std::collections::HashSet<&[u32]> =
                cited.iter().map(|r| r.core.as_slice()).collect();
            format!(
                ", each citing the DRAT proof of its core, {} cores",
                cores.len()
            )
        }
        n => format!(" ({n} of them by a sub-cube refuted before)"),
    };
    let by = |how: &str| search.refuted.iter().filter(|r| r.by == how).count();
    // Named only where it refuted some (the window lemma's band formulas;
    // in a certificate each with the empty clause as its DRAT proof).
    let propagated = search.refuted.iter().filter(|r| r.propagated).count() + by("propagation");
    let propagated_text = match propagated {
        0 => String::new(),
        n => format!("{n} by unit propagation on the window lemma's band, "),
    };
    let size = format!(
        "{} vectors decided{earlier} after the `{}` bounds ({} refuted: {propagated_text}{} by the branch and bound{by_cores}, {} by SAT), {:.2} s{written}",
        found.nodes_searched,
        bounds.name(),
        search.refuted.len(),
        by("search") + cited.len(),
        search.refuted.len() - cited.len() - by("search") - propagated,
        found.seconds
    );
    let stopped = match (certificate, checkpoint) {
        (Some(dir), _) => format!(
            "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C); run again with --certificate {} to go on",
            dir.display()
        ),
        (None, Some(path)) => format!(
            "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C); run again with --checkpoint {} to go on",
            path.display()
        ),
        (None, None) => {
            "not proved: the search was stopped (--node-limit counts vectors, or Ctrl-C)".to_string()
        }
    };
    report(found, &stopped, &size, format, out)
}

/// `optimal --distances D0,..`: one vector decided.
pub fn one_vector(
    guest: &str,
    host: &str,
    distances: &[u32],
    (bounds, decide_by): (Bounds, DecideBy),
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let d = cube(guest)?;
    let host = parse_spec(host)?;
    stop_on_ctrl_c();
    let progress = Arc::new(Progress::new());
    progress.add_total(1);
    let decided = {
        let _bar = Bar::start(
            progress.clone(),
            format!("optimal cube:{d} -> {host}: deciding one distance vector"),
            format == Format::Table,
        );
        decide_vector(
            d,
            &host,
            distances,
            &SearchOptions {
                stop: Some(&STOP),
                progress: Some(&progress),
                ..SearchOptions::default()
            },
            turns(decide_by),
            bounds,
        )?
    };
    let listed: Vec<String> = decided.distances.iter().map(u32::to_string).collect();
    let (answer, by) = match &decided.answer {
        VectorAnswer::Embedding { .. } => ("embedding", String::new()),
        VectorAnswer::RuledOut { bounds } => ("ruled_out", format!("by the `{bounds}` bounds")),
        // A probe's core: the branch and bound ran on that sub-cube alone.
        VectorAnswer::Refuted { refuted }
            if refuted.by == "search" && refuted.search_nodes == 0 =>
        {
            (
                "refuted",
                format!(
                    "by the branch and bound on a sub-cube alone{}",
                    not_even(&refuted.core)
                ),
            )
        }
        VectorAnswer::Refuted { refuted } if refuted.by == "search" => (
            "refuted",
            format!(
                "by the branch and bound, {} nodes{}",
                refuted.search_nodes,
                not_even(&refuted.core)
            ),
        ),
        VectorAnswer::Refuted { refuted } if refuted.by == "propagation" => (
            "refuted",
            "by the window lemma: unit propagation on its band formula ends in a conflict"
                .to_string(),
        ),
        VectorAnswer::Refuted { refuted } => (
            "refuted",
            format!(
                "by the SAT solver, {} variables, {} clauses",
                refuted.variables, refuted.clauses
            ),
        ),
        VectorAnswer::Stopped => ("stopped", String::new()),
    };
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &decided).map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "guest,host,distances,sum,answer,seconds")?;
            writeln!(
                out,
                "{},{},{},{},{answer},{:.3}",
                decided.guest,
                decided.host,
                listed.join(" "),
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
                listed.join(", "),
                decided.sum
            )?;
            let verdict = match &decided.answer {
                VectorAnswer::Embedding { .. } => {
                    "embeds: a constant-distance embedding has these distances (its map: --format json)".to_string()
                }
                VectorAnswer::Stopped => "not decided: stopped (Ctrl-C)".to_string(),
                _ => format!("no constant-distance embedding has these distances ({by})"),
            };
            writeln!(out, "  {verdict}")?;
            writeln!(out, "  {:.2} s", decided.seconds)?;
        }
    }
    Ok(())
}

/// The budgets `--decide-by` names.
fn turns(decide_by: DecideBy) -> Turns {
    match decide_by {
        DecideBy::Turns => Turns::DEFAULT,
        DecideBy::Search => Turns::SEARCH_ONLY,
        DecideBy::Solver => Turns::SOLVER_ONLY,
    }
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

/// `verify-certificate DIR`.
pub fn verify_certificate(
    dir: &Path,
    dimacs: bool,
    checker: Option<&str>,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let checker: Option<Vec<String>> =
        checker.map(|c| c.split_whitespace().map(str::to_string).collect());
    if checker.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::Parameter(
            "--checker: give a command, as `rate` or `drat-trim`".to_string(),
        )
        .into());
    }
    let progress = Arc::new(Progress::new());
    let v: Verified = {
        let _bar = Bar::start(
            progress.clone(),
            format!("verify {}: proofs checked", dir.display()),
            format == Format::Table,
        );
        certificate::verify_with(
            dir,
            &certificate::CheckOptions {
                dimacs,
                checker,
                progress: Some(&progress),
            },
        )?
    };
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &v).map_err(io_error)?;
            writeln!(out)?;
        }
        _ => {
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
            if v.by_propagation > 0 {
                writeln!(
                    out,
                    "  {} of those formulas refuted by unit propagation alone (checked here, no proof needed)",
                    v.by_propagation
                )?;
            }
            if v.by_windings > 0 {
                writeln!(
                    out,
                    "  {} of those formulas bind dimensions to an axis by the winding lemma",
                    v.by_windings
                )?;
            }
            if v.by_halving > 0 {
                writeln!(
                    out,
                    "  {} of those formulas halved (or quartered) by the halving lemma",
                    v.by_halving
                )?;
            }
            if v.by_band > 0 {
                writeln!(
                    out,
                    "  {} of those formulas in a band of the torus by the window lemma",
                    v.by_band
                )?;
            }
            if v.by_pin > 0 {
                writeln!(
                    out,
                    "  {} of those formulas pin half the cube to a window by the slack window",
                    v.by_pin
                )?;
            }
        }
    }
    Ok(())
}

/// What a refutation's core says ([`topoembed::optimal::Refuted::core`]):
/// nothing when the whole vector is its own core.
fn not_even(core: &[u32]) -> String {
    if core.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = core.iter().map(u32::to_string).collect();
    format!(
        ": not even the {}-cube of distances {} embeds",
        core.len(),
        listed.join(", ")
    )
}
