//! One embedding's metrics as a table: dilations and their spectrum,
//! distances, CC time, congestion and loads.

use std::io;

use topoembed::metrics::Metrics;

use super::closed_forms::{closed_form_cells, versus};
use super::Out;
use crate::table::{num, Table};

pub(super) fn spectrum_text(m: &Metrics) -> String {
    let parts: Vec<String> = m
        .dilation
        .spectrum
        .iter()
        .map(|(d, c)| format!("{d}:{c}"))
        .collect();
    parts.join(" ")
}

/// Most spectrum entries a table shows; JSON and CSV always carry all of them.
const SPECTRUM_SHOWN: usize = 12;

/// The spectrum, shortened for a table when it has many distinct dilations.
pub(super) fn spectrum_summary(m: &Metrics) -> String {
    let s = &m.dilation.spectrum;
    if s.len() <= SPECTRUM_SHOWN {
        return spectrum_text(m);
    }
    let part = |it: &mut dyn Iterator<Item = (&u64, &u64)>| {
        it.map(|(d, c)| format!("{d}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{} ... {} ({} distinct dilations; all of them with --format json or csv)",
        part(&mut s.iter().take(SPECTRUM_SHOWN - 3)),
        part(&mut s.iter().skip(s.len() - 2)),
        s.len()
    )
}

/// `load:links` pairs, shortened like the spectrum when there are many.
pub(super) fn histogram_summary(h: &std::collections::BTreeMap<u64, u64>) -> String {
    let pairs: Vec<String> = h.iter().map(|(l, c)| format!("{l}:{c}")).collect();
    if pairs.len() <= 12 {
        return pairs.join(" ");
    }
    format!(
        "{} .. {} ({} distinct loads; full histogram in --format json)",
        pairs[..6].join(" "),
        pairs[pairs.len() - 3..].join(" "),
        pairs.len()
    )
}

pub(super) fn list_text(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

pub fn metrics_table(m: &Metrics, out: Out) -> io::Result<()> {
    writeln!(out, "{}: {} -> {}", m.method, m.guest, m.host)?;
    let mut t = Table::new(&["", ""]);
    let mut row = |k: &str, v: String| t.row(vec![format!("  {k}"), v]);
    row("guest nodes", m.guest_nodes.to_string());
    row("host nodes", m.host_nodes.to_string());
    row("guest edges", m.guest_edges.to_string());
    row("load factor", m.load_factor.to_string());
    row("expansion", num(m.expansion));
    if let Some(e) = &m.node_elements {
        row(
            "guest nodes per host node",
            format!(
                "min {} max {} ({} host nodes unused)",
                e.min, e.max, e.unused
            ),
        );
        row("edges inside a node", m.edges_inside.to_string());
    }
    if let Some(levels) = &m.level_load {
        row(
            "load per tree level",
            format!("{} (root first)", list_text(levels)),
        );
    }
    row("dilation max", m.dilation.max.to_string());
    if let Some(b) = m.dilation_bound {
        let source = m.dilation_bound_source.as_deref().unwrap_or("the method");
        row("dilation bound", format!("{b} ({source})"));
    }
    row("dilation average", num(m.dilation.average));
    row("dilation total", m.dilation.total.to_string());
    if m.total_volume != u128::from(m.guest_edges) || m.hop_bytes != m.dilation.total {
        row("total volume", m.total_volume.to_string());
        row(
            "hop-bytes",
            format!("{} (Σ volume x dilation)", m.hop_bytes),
        );
    } else {
        row("hop-bytes", format!("{} (volume 1 per edge)", m.hop_bytes));
    }
    if let Some(l) = &m.host_load {
        row(
            "guest load per host node",
            format!(
                "max {} min {} average {} (imbalance {:.1}%)",
                l.max,
                l.min,
                num(l.average),
                100.0 * l.imbalance
            ),
        );
    }
    row("spectrum (dil:edges)", spectrum_summary(m));
    if let Some(c) = m.constant_distance {
        row(
            "constant distances",
            if c { "yes" } else { "no" }.to_string(),
        );
    }
    if let Some(d) = &m.distances {
        row("distances D_i", list_text(d));
    }
    if let Some(da) = m.average_distance {
        row("average distance D_a", num(da));
    }
    if let Some(cc) = &m.cc_time {
        let how = match cc.closed_form {
            Some(_) => "closed form d(Ta + Tc*D_a)",
            None => "recurrence, xor paper §2.1",
        };
        row(
            "CC time",
            format!(
                "{} (Ta={}, Tc={}; {how})",
                num(cc.time),
                num(cc.ta),
                num(cc.tc)
            ),
        );
        row("waiting (all processes)", num(cc.waiting));
    }
    if let Some(c) = &m.congestion {
        row(
            "congestion",
            if m.total_volume != u128::from(m.guest_edges) {
                format!("{} (in volume)", c.max)
            } else {
                c.max.to_string()
            },
        );
        row("link load average", num(c.average));
        row("link loads (load:links)", histogram_summary(&c.histogram));
    }
    if let Some(f) = &m.fat_congestion {
        row("congestion, fat edges", fat_text(m, f));
    }
    if let Some(axes) = m.link_load.as_ref().filter(|a| a.len() > 1) {
        for a in axes {
            let which = a
                .name
                .as_ref()
                .map_or_else(|| format!("axis {}", a.axis), |name| format!("({name})"));
            row(
                &format!("link load {which}"),
                format!("max {} min {} average {}", a.max, a.min, num(a.average)),
            );
        }
    }
    if let Some(l) = &m.node_load {
        row(
            "node load (through)",
            format!("max {} min {} average {}", l.max, l.min, num(l.average)),
        );
    }
    if let Some(l) = &m.node_traffic {
        row(
            "node traffic (+ends)",
            format!("max {} min {} average {}", l.max, l.min, num(l.average)),
        );
    }
    if let Some(s) = &m.slowdown {
        row(
            "slowdown",
            format!(
                "computation x{} (load factor), communication x{} (congestion x dilation)",
                s.computation, s.communication
            ),
        );
    }
    if let Some(r) = &m.routing {
        row("routing", r.clone());
    }
    t.write_body(out)?;
    if let Some(dims) = &m.per_dimension {
        writeln!(out, "  per dimension:")?;
        let mut t = Table::new(&["    dim", "min", "max", "average"]);
        for d in dims {
            t.row(vec![
                format!("    {}", d.dimension),
                d.min.to_string(),
                d.max.to_string(),
                num(d.average),
            ]);
        }
        t.write(out)?;
    }
    if let Some(cells) = closed_form_cells(m) {
        let differ: Vec<String> = cells
            .iter()
            .filter(|(_, measured, closed)| measured != closed)
            .map(|(name, measured, closed)| format!("{name} {}", versus(measured, closed)))
            .collect();
        if differ.is_empty() {
            writeln!(
                out,
                "  closed forms (xor paper §4): all {} journal metrics agree",
                cells.len()
            )?;
        } else {
            writeln!(out, "  closed forms (xor paper §4): {}", differ.join("; "))?;
        }
    }
    for note in m.notes.iter().chain(&m.method_notes) {
        writeln!(out, "  note: {note}")?;
    }
    Ok(())
}

/// "max 12.5, link average 3.1 (d shortest paths, 1/d each; e-cube max 25)".
pub(super) fn fat_text(m: &Metrics, f: &topoembed::traffic::fat::FatCongestion) -> String {
    use topoembed::traffic::fat::FatPaths;
    let paths = match f.paths {
        FatPaths::Shortest => "the d shortest paths, 1/d each",
        FatPaths::All => "all n paths, d of length d and n-d of length d+2, 1/n each",
    };
    let ecube = m
        .congestion
        .as_ref()
        .map_or(String::new(), |c| format!("; e-cube max {}", c.max));
    format!(
        "max {}, link average {} ({paths}{ecube})",
        num(f.max),
        num(f.average)
    )
}
