//! The journal metrics beside their closed forms (xor paper, journal
//! version), measured = closed form.

use std::io;

use topoembed::metrics::Metrics;

use super::Out;
use crate::table::{num, Table};

/// One journal metric: (name, measured, closed form).
type Cell = (&'static str, String, String);

/// The journal metrics of `m`, each as (name, measured, closed form).
pub(super) fn closed_form_cells(m: &Metrics) -> Option<Vec<Cell>> {
    let cf = m.closed_form.as_ref()?;
    let spectrum = |s: &std::collections::BTreeMap<u64, u64>| {
        s.iter()
            .map(|(d, c)| format!("{d}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    Some(vec![
        (
            "spectrum",
            spectrum(&m.dilation.spectrum),
            spectrum(&cf.spectrum),
        ),
        (
            "longest dilation",
            m.dilation.max.to_string(),
            cf.dilation_max.to_string(),
        ),
        (
            "total dilation",
            m.dilation.total.to_string(),
            cf.dilation_total.to_string(),
        ),
        (
            "max node load",
            opt(m.node_load.map(|l| l.max.to_string())),
            cf.node_load_max.to_string(),
        ),
        (
            "min node load",
            opt(m.node_load.map(|l| l.min.to_string())),
            cf.node_load_min.to_string(),
        ),
        (
            "average load",
            opt(m.node_load.map(|l| num(l.average))),
            num(cf.node_load_average),
        ),
        (
            "congestion",
            opt(m.congestion.as_ref().map(|c| c.max.to_string())),
            cf.congestion.to_string(),
        ),
    ])
}

/// `measured = closed form`, or both with a warning mark when they differ
/// (`-` measured: not computed).
pub(super) fn versus(measured: &str, closed: &str) -> String {
    if measured == closed {
        format!("{measured} = {closed}")
    } else if measured == "-" {
        format!("- (closed form {closed})")
    } else {
        format!("{measured} != {closed} (!)")
    }
}

/// For methods with closed forms: each journal metric, measured = closed form.
pub(super) fn closed_form_table(results: &[Metrics], out: Out) -> io::Result<()> {
    let with: Vec<(&Metrics, Vec<Cell>)> = results
        .iter()
        .filter_map(|m| Some((m, closed_form_cells(m)?)))
        .collect();
    if with.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "journal metrics, measured = closed form (xor paper §4):"
    )?;
    let mut header = vec!["  metric"];
    header.extend(with.iter().map(|(m, _)| m.method.as_str()));
    let mut t = Table::new(&header);
    for row in 0..with[0].1.len() {
        let mut cells = vec![format!("  {}", with[0].1[row].0)];
        for (_, c) in &with {
            let (_, measured, closed) = &c[row];
            cells.push(if c[row].0 == "spectrum" && measured.len() > 24 {
                (if measured == closed {
                    "same"
                } else {
                    "differs (!)"
                })
                .to_string()
            } else {
                versus(measured, closed)
            });
        }
        t.row(cells);
    }
    t.write(out)
}
