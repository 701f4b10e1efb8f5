//! `compare`: every method's metrics, one row each, the best CC time marked.

use std::io;

use topoembed::metrics::Metrics;

use super::closed_forms::closed_form_table;
use super::metrics::fat_text;
use super::Out;
use crate::cli::Costs;
use crate::table::{num, Table};

pub fn compare_table(
    results: &[Metrics],
    best: &[usize],
    skipped: &[(&str, String)],
    costs: Costs,
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
    for (name, reason) in skipped {
        writeln!(out, "not applicable: {name} ({reason})")?;
    }
    for m in results {
        for note in &m.notes {
            writeln!(out, "note ({}): {note}", m.method)?;
        }
    }
    Ok(())
}
