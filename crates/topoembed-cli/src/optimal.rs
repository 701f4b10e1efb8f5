//! `topoembed optimal` and `verify-certificate` at the command line: the
//! question built from the arguments, Ctrl-C and the progress bar around
//! the library's [`topoembed::optimal::answer`], the answer printed by
//! [`crate::render::optimal`].

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use topoembed::optimal::certificate::{self, Verified};
use topoembed::optimal::{answer, Method, Question, Watch};
use topoembed::{Error, Progress};

use crate::cli::{DecideBy, Format, OptimalArgs};
use crate::commands::{parse_spec, Out};
use crate::progress::Bar;
use crate::render::optimal as render;
use crate::Failure;

/// Set by Ctrl-C: the search stops with the best found so far.
static STOP: AtomicBool = AtomicBool::new(false);

impl From<DecideBy> for topoembed::optimal::DecideBy {
    fn from(how: DecideBy) -> Self {
        match how {
            DecideBy::Auto => Self::Auto,
            DecideBy::Turns => Self::Turns,
            DecideBy::Search => Self::Search,
            DecideBy::Solver => Self::Solver,
        }
    }
}

/// `optimal GUEST HOST`: by vectors after the bounds (the default, `--sat`,
/// `--certificate DIR`), `--all-bijections`, `--distances D0,..` or
/// `--whole-tree`.
pub fn optimal(args: &OptimalArgs, out: Out) -> Result<(), Failure> {
    let guest = parse_spec(&args.guest)?;
    let host = parse_spec(&args.host)?;
    let method = match (args.all_bijections, &args.distances, args.whole_tree) {
        (true, _, _) => Method::AllBijections,
        (false, Some(distances), _) => Method::OneVector(distances.clone()),
        (false, None, false) => Method::Vectors,
        (false, None, true) => Method::WholeTree,
    };
    let question = Question {
        method,
        node_limit: args.node_limit,
        certificate: args.certificate.as_deref(),
        checkpoint: args.checkpoint.as_deref(),
        bounds: args.bounds,
        decide_by: args.decide_by.map(Into::into),
        // `--sat` names the search by vectors: it runs whatever its size.
        force: args.force || args.sat,
        ..Question::new(&guest, &host)
    };
    let d = topoembed::optimal::cube_dimension(&guest)?;
    let label = match &question.method {
        Method::Vectors => format!("optimal cube:{d} -> {host}: distance vectors decided"),
        Method::WholeTree => {
            format!("optimal cube:{d} -> {host}: search nodes / 1024 (total estimated)")
        }
        Method::AllBijections => {
            format!("optimal cube:{d} -> {host} --all-bijections: branches on cube nodes 1 and 2")
        }
        Method::OneVector(_) => format!("optimal cube:{d} -> {host}: deciding one distance vector"),
    };
    stop_on_ctrl_c();
    let progress = Arc::new(Progress::new());
    let found = {
        let _bar = Bar::start(progress.clone(), label, args.format == Format::Table);
        let say = |note: &str| eprintln!("note: {note}");
        answer(
            &question,
            Watch {
                stop: Some(&STOP),
                progress: Some(&progress),
                say: Some(&say),
            },
        )?
    };
    render::answer(&question, &found, args.format, out)
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
    let verified: Verified = {
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
    render::verified(dir, &verified, format, out)
}
