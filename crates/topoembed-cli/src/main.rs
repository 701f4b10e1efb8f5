//! `topoembed`: the command-line front end of the topoembed library.
//!
//! Parsing, output formats, progress and exit codes live here; every number
//! comes from the library. Exit codes: 0 success, 2 bad input (spec, method,
//! sizes, options), 1 internal failure.

mod cli;
mod commands;
mod device_mesh;
mod drawing;
mod figures;
mod map;
mod optimal;
mod progress;
mod render;
mod report;
mod runs;
mod simulation;
mod table;
mod work;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};
use cli::{
    CompareArgs, CompletionsArgs, DeviceMeshArgs, DilationsArgs, DrawArgs, EmbedArgs, ExportArgs,
    HamiltonianArgs, MapArgs, MethodsArgs, MetricsArgs, NeighborsArgs, RankfileArgs, ReportArgs,
    RunArgs, VerifyCertificateArgs,
};

/// What can end a command: a library error, or a failed write to stdout.
pub enum Failure {
    Library(topoembed::Error),
    Io(io::Error),
}

impl From<topoembed::Error> for Failure {
    fn from(e: topoembed::Error) -> Self {
        Failure::Library(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Methods(MethodsArgs { format }) => commands::methods(format, &mut out),
        Command::Embed(EmbedArgs {
            pair,
            method,
            format,
            prefix,
        }) => commands::embed(&pair, method.as_deref(), format, &prefix, &mut out),
        Command::Dilations(DilationsArgs {
            pair,
            method,
            format,
        }) => commands::dilations(&pair, &method, format, &mut out),
        Command::Metrics(MetricsArgs {
            pair,
            placement,
            costs,
            routing,
            force,
            summary,
            latency_bytes,
            format,
        }) => commands::metrics(
            &pair,
            (
                &placement,
                summary.as_deref().map(|path| (path, latency_bytes)),
            ),
            costs,
            (routing, force),
            format,
            &mut out,
        ),
        Command::Hamiltonian(HamiltonianArgs {
            spec,
            summary,
            format,
        }) => commands::hamiltonian(&spec, summary, format, &mut out),
        Command::Neighbors(NeighborsArgs {
            pair,
            method,
            rank,
            all: _,
            format,
        }) => runs::neighbors(&pair, &method, rank, format, &mut out),
        Command::Run(RunArgs {
            algorithm,
            pair,
            method,
            n,
            costs,
            tb,
            format,
        }) => {
            let costs = topoembed::runtime::Costs {
                ta: costs.ta,
                tc: costs.tc,
                tb,
            };
            runs::run(
                algorithm,
                &pair,
                method.as_deref(),
                n.as_deref(),
                costs,
                format,
                &mut out,
            )
        }
        Command::Draw(DrawArgs {
            pair,
            method,
            figure,
            edges,
            ties,
            output,
        }) => drawing::draw(
            &pair,
            method.as_deref(),
            figure,
            edges,
            ties.into(),
            output.as_deref(),
            &mut out,
        ),
        Command::Report(ReportArgs { pair, output }) => {
            report::report(&pair, &output, true, &mut out)
        }
        Command::Simulate(args) => simulation::simulate(&args, &mut out),
        Command::Rankfile(RankfileArgs {
            pair,
            method,
            hosts,
        }) => runs::rankfile(&pair, &method, &hosts, &mut out),
        Command::DeviceMesh(DeviceMeshArgs {
            host,
            logical,
            weights,
            lines,
            objective,
            assignment,
            format,
        }) => device_mesh::device_mesh(
            &device_mesh::Question {
                host: &host,
                logical: &logical,
                weights: weights.as_deref(),
                lines: lines.as_deref(),
                objective: objective.into(),
                assignment: assignment.as_deref(),
            },
            format,
            &mut out,
        ),
        Command::Optimal(args) => optimal::optimal(&args, &mut out),
        Command::VerifyCertificate(VerifyCertificateArgs {
            dir,
            dimacs,
            checker,
            format,
        }) => optimal::verify_certificate(&dir, dimacs, checker.as_deref(), format, &mut out),
        Command::Export(ExportArgs {
            spec,
            format,
            base,
            prefix,
            bandwidth,
            latency,
            speed,
            explicit_routes,
        }) => commands::export(
            &spec,
            format,
            base,
            &topoembed::io::PlatformOptions {
                prefix,
                speed,
                bandwidth,
                latency,
                explicit_routes,
            },
            &mut out,
        ),
        Command::Completions(CompletionsArgs { shell }) => commands::completions(shell, &mut out),
        Command::Man => commands::man(&mut out),
        Command::Map(MapArgs {
            guest,
            host,
            imbalance,
            seed,
            passes,
            restarts,
            hosts,
            nodes,
            slots_per_node,
            no_traffic,
            phases,
            objective,
            preset,
            format,
            prefix,
            summary,
            latency_bytes,
        }) => map::map(
            &map::Request {
                guest: &guest,
                host: &host,
                imbalance,
                seed,
                passes,
                restarts,
                hosts: hosts.as_deref(),
                nodes: nodes.as_deref().map(|list| (list, slots_per_node)),
                no_traffic,
                phases,
                objective,
                preset,
                prefix: &prefix,
                summary: summary.as_deref().map(|path| (path, latency_bytes)),
            },
            format,
            &mut out,
        ),
        Command::Compare(CompareArgs {
            pair,
            costs,
            routing,
            format,
            all,
            verbose,
        }) => commands::compare(
            &pair,
            (costs, routing),
            format,
            render::Detail { all, verbose },
            &mut out,
        ),
    };
    let result = result.and_then(|()| out.flush().map_err(Failure::Io));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`| head`) is not an error.
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("error: cannot write output: {e}");
            ExitCode::from(1)
        }
        Err(Failure::Library(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_user_error() { 2 } else { 1 })
        }
    }
}
