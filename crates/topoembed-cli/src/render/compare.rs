//! `compare`: every method's metrics, one row each, the best CC time marked.

use std::io;

use topoembed::metrics::Metrics;

use super::closed_forms::closed_form_table;
use super::metrics::fat_text;
use super::Out;
use crate::cli::Costs;
use crate::table::{num, Table};

/// How much `compare` prints beyond the table and the closed forms.
#[derive(Debug, Clone, Copy, Default)]
pub struct Detail {
    /// Every method that does not apply on a line of its own, with why
    /// (else one line names them).
    pub all: bool,
    /// How each method built its embedding ([`Metrics::method_notes`]).
    pub verbose: bool,
}

pub fn compare_table(
    results: &[Metrics],
    best: &[usize],
    skipped: &[(&str, String)],
    (costs, detail): (Costs, Detail),
    out: Out,
) -> io::Result<()> {
    let first = &results[0];
    writeln!(
        out,
        "{} -> {}   (CC time with Ta={}, Tc={})",
        first.guest,
        first.host,
        num(costs.ta),
        num(costs.tc)
    )?;
    let mut t = Table::new(&[
        "method",
        "load",
        "dil.max",
        "dil.avg",
        "dil.total",
        "constant",
        "D_a",
        "CC time",
        "waiting",
        "congestion",
        "node load",
        "",
    ]);
    for (k, m) in results.iter().enumerate() {
        let opt = |x: Option<f64>| x.map_or("-".to_string(), num);
        t.row(vec![
            m.method.clone(),
            m.load_factor.to_string(),
            m.dilation.max.to_string(),
            num(m.dilation.average),
            m.dilation.total.to_string(),
            m.constant_distance
                .map_or("-".into(), |c| if c { "yes" } else { "no" }.into()),
            opt(m.average_distance),
            opt(m.cc_time.as_ref().map(|c| c.time)),
            opt(m.cc_time.as_ref().map(|c| c.waiting)),
            m.congestion
                .as_ref()
                .map_or("-".into(), |c| c.max.to_string()),
            m.node_load
                .as_ref()
                .map_or("-".into(), |l| format!("{}..{}", l.min, l.max)),
            if best.contains(&k) {
                "<- best CC time".into()
            } else {
                String::new()
            },
        ]);
    }
    t.write(out)?;
    for m in results {
        if let Some(f) = &m.fat_congestion {
            writeln!(
                out,
                "congestion with fat edges ({}): {}",
                m.method,
                fat_text(m, f)
            )?;
        }
    }
    closed_form_table(results, out)?;
    not_applicable(skipped, detail.all, out)?;
    for m in results {
        // What could not be computed is a caveat on the row: always shown.
        let how = m.method_notes.iter().filter(|_| detail.verbose);
        for note in m.notes.iter().chain(how) {
            writeln!(out, "note ({}): {note}", m.method)?;
        }
    }
    Ok(())
}

/// The methods that do not apply: one line naming them, or with `all`
/// one line each with the reason.
fn not_applicable(skipped: &[(&str, String)], all: bool, out: Out) -> io::Result<()> {
    match skipped {
        [] => Ok(()),
        [(name, reason)] => writeln!(out, "not applicable: {name} ({reason})"),
        _ if all => {
            for (name, reason) in skipped {
                writeln!(out, "not applicable: {name} ({reason})")?;
            }
            Ok(())
        }
        _ => {
            let names: Vec<&str> = skipped.iter().map(|(name, _)| *name).collect();
            writeln!(
                out,
                "not applicable: {} methods ({}); --all says why",
                names.len(),
                names.join(", ")
            )
        }
    }
}
