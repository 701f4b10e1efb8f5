//! `neighbors`, `run` and `rankfile`: programs seen through an embedding.

use std::sync::Arc;

use topoembed::embed;
use topoembed::runtime::algorithms::{run_local, Problem, RunReport};
use topoembed::runtime::Costs;
use topoembed::virtual_topology::VirtualTopology;
use topoembed::Error;

use crate::cli::{AlgorithmArg, Pair, RunFormat};
use crate::commands::{io_error, method_or_best, parse_topology, Out};
use crate::table::{num, Table};
use crate::Failure;

/// The virtual topology of a pair and method (none: the one `compare`
/// marks best, named on stderr).
pub fn virtual_topology(pair: &Pair, method: Option<&str>) -> Result<VirtualTopology, Failure> {
    let guest: Arc<dyn topoembed::topology::Topology> = Arc::from(parse_topology(&pair.guest)?);
    let host: Arc<dyn topoembed::topology::Topology> = Arc::from(parse_topology(&pair.host)?);
    let method = method_or_best(method, guest.as_ref(), host.as_ref(), pair)?;
    let embedding = embed::build_with(&method, guest.as_ref(), host.as_ref(), &pair.params())?;
    Ok(VirtualTopology::new(guest, host, Arc::from(embedding))?)
}

/// Prints the guest node(s) of `rank` (or of every rank) and the ranks of
/// their guest neighbours.
pub fn neighbors(
    pair: &Pair,
    method: &str,
    rank: Option<u64>,
    format: RunFormat,
    out: Out,
) -> Result<(), Failure> {
    let vt = virtual_topology(pair, Some(method))?;
    let ranks: Vec<u64> = match rank {
        Some(r) => {
            vt.check_rank(r)?;
            vec![r]
        }
        None => (0..vt.size()).collect(),
    };
    match format {
        RunFormat::Json => {
            let list = ranks
                .iter()
                .map(|&r| {
                    Ok(serde_json::json!({
                        "rank": r,
                        "guests": vt.guests(r),
                        "neighbors": vt.neighbors(r)?,
                    }))
                })
                .collect::<Result<Vec<_>, Error>>()?;
            let value = serde_json::json!({
                "guest": vt.guest().spec().to_string(),
                "host": vt.host().spec().to_string(),
                "method": vt.embedding().method(),
                "lookup": vt.lookup(),
                "ranks": list,
            });
            serde_json::to_writer_pretty(&mut *out, &value).map_err(io_error)?;
            writeln!(out)?;
        }
        RunFormat::Table => {
            writeln!(
                out,
                "{}: {} -> {}, neighbours from {}",
                vt.embedding().method(),
                vt.guest().spec(),
                vt.host().spec(),
                vt.lookup()
            )?;
            let tree = vt.guest().spec().kind() == "bintree";
            let mut header = vec!["rank", "guest"];
            if tree {
                header.push("level");
            }
            header.extend(["direction", "neighbour", "its rank", "hops"]);
            let mut t = Table::new(&header);
            for &r in &ranks {
                let list = vt.neighbors(r)?;
                if list.is_empty() {
                    let guests = vt.guests(r);
                    let played = if guests.is_empty() {
                        "-".to_string()
                    } else {
                        join(&guests)
                    };
                    let mut row = vec![r.to_string(), played];
                    if tree {
                        row.push(String::new());
                    }
                    row.push("(none)".into());
                    t.row(row);
                }
                for n in list {
                    let mut row = vec![r.to_string(), n.node.to_string()];
                    if tree {
                        row.push(n.level.map_or(String::new(), |l| l.to_string()));
                    }
                    row.extend([
                        n.direction,
                        n.guest.to_string(),
                        n.rank.to_string(),
                        n.hops.to_string(),
                    ]);
                    t.row(row);
                }
            }
            t.write(out)?;
        }
    }
    Ok(())
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// Runs an algorithm through an embedding in this process and reports.
pub fn run(
    algorithm: AlgorithmArg,
    pair: &Pair,
    method: Option<&str>,
    size: Option<&str>,
    costs: Costs,
    format: RunFormat,
    out: Out,
) -> Result<(), Failure> {
    costs.check()?;
    let vt = virtual_topology(pair, method)?;
    let problem = Problem::new(algorithm.into(), &vt, size)?;
    let report = run_local(&vt, &problem, costs)?;
    match format {
        RunFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(io_error)?;
            writeln!(out)?;
        }
        RunFormat::Table => run_table(&report, out)?,
    }
    if report.check.passed {
        Ok(())
    } else {
        Err(Error::Internal(format!(
            "{} gave a wrong result on {} of {} ranks",
            report.algorithm, report.ranks_failed, report.ranks
        ))
        .into())
    }
}

fn run_table(r: &RunReport, out: Out) -> std::io::Result<()> {
    writeln!(
        out,
        "{} on {} -> {} ({}), {} ranks, {}",
        r.algorithm, r.guest, r.host, r.method, r.ranks, r.size
    )?;
    let mut t = Table::new(&["", ""]);
    let mut row = |k: &str, v: String| t.row(vec![format!("  {k}"), v]);
    let c = &r.check;
    row(
        "check",
        format!(
            "{} on every rank: {} {} (allowed {}; reference: {})",
            if c.passed { "passed" } else { "FAILED" },
            r.error_meaning,
            sci(c.error),
            sci(c.tolerance),
            r.reference
        ),
    );
    if r.ranks_failed > 0 {
        row("ranks failed", r.ranks_failed.to_string());
    }
    row("messages", r.messages.to_string());
    row("hops", r.hops.to_string());
    row("bytes", r.bytes.to_string());
    row("modelled time", num(r.modelled_time));
    if let Some(p) = &r.predicted {
        // Per-message costs that are not binary fractions (T_b = 0.01) are
        // summed in a different order by the run and the recurrence.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
        let agree = if p.time == r.modelled_time && p.waiting == r.waiting {
            "equal".to_string()
        } else if close(p.time, r.modelled_time) && close(p.waiting, r.waiting) {
            format!(
                "equal up to rounding, {:.1e}",
                (p.time - r.modelled_time).abs()
            )
        } else {
            "DIFFERENT".to_string()
        };
        row(
            "CC recurrence",
            format!(
                "{} ({agree}; {} exchanges and {} compute phases per rank)",
                num(p.time),
                p.stages,
                p.phases
            ),
        );
    }
    row("waiting (all ranks)", num(r.waiting));
    row(
        "costs",
        format!(
            "T_a {} per phase, T_c {} + T_b {} per byte, per hop",
            num(r.costs.ta),
            num(r.costs.tc),
            num(r.costs.tb)
        ),
    );
    row("neighbours from", r.lookup.to_string());
    row("wall time", format!("{:.3} s", r.wall_seconds));
    t.write_body(out)
}

/// Small errors in scientific notation, counts as integers.
fn sci(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{x}")
    } else {
        format!("{x:.1e}")
    }
}

/// Writes an Open MPI rankfile for the embedding (see `topoembed rankfile --help`).
pub fn rankfile(
    pair: &Pair,
    method: &str,
    hosts: &std::path::Path,
    out: Out,
) -> Result<(), Failure> {
    let guest = parse_topology(&pair.guest)?;
    let host = parse_topology(&pair.host)?;
    let embedding = embed::build_with(method, guest.as_ref(), host.as_ref(), &pair.params())?;
    let machines = topoembed::io::read_hostfile(hosts)?;
    topoembed::io::write_rankfile(
        guest.node_count(),
        host.node_count(),
        embedding.as_ref(),
        &machines,
        out,
    )?;
    Ok(())
}
