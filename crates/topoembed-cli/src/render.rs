//! Rendering of embeddings and metrics as tables, CSV, JSON and layouts.

use std::io::{self, Write};

use topoembed::embed::Embedding;
use topoembed::metrics::Metrics;
use topoembed::spec::Spec;
use topoembed::topology::Topology;

use crate::cli::{Costs, Format};
use crate::table::{num, Table};
use crate::Failure;

type Out<'a> = &'a mut dyn Write;

/// Host coordinates as people write them: a bit string (most significant
/// first) for cube nodes, `(i1, i2, ..)` for grids.
fn coords_text(host: &dyn Topology, node: u64) -> String {
    match host.spec() {
        Spec::Cube(d) => format!("{node:0w$b}", w = *d as usize),
        _ => {
            let c = host.coords(node);
            let inner: Vec<String> = c.iter().map(u64::to_string).collect();
            format!("({})", inner.join(", "))
        }
    }
}

pub fn embed_table(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    out: Out,
) -> Result<(), Failure> {
    writeln!(out, "# {}: {} -> {}", e.method(), g.spec(), h.spec())?;
    let guest_w = (g.node_count() - 1).to_string().len().max(5);
    let host_w = (h.node_count() - 1).to_string().len().max(4);
    writeln!(
        out,
        "{:>guest_w$}  {:>host_w$}  host coords",
        "guest", "host"
    )?;
    for n in 0..g.node_count() {
        let p = e.map(n);
        writeln!(out, "{n:>guest_w$}  {p:>host_w$}  {}", coords_text(h, p))?;
    }
    Ok(())
}

pub fn embed_csv(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    out: Out,
) -> Result<(), Failure> {
    writeln!(out, "guest,host,coords")?;
    for n in 0..g.node_count() {
        let p = e.map(n);
        let c: Vec<String> = h.coords(p).iter().map(u64::to_string).collect();
        writeln!(out, "{n},{p},{}", c.join(";"))?;
    }
    Ok(())
}

/// Opens a streamed JSON object: `{"guest":..,"host":..,"method":..,"KEY":[`.
fn json_open(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    key: &str,
    out: Out,
) -> io::Result<()> {
    let q = |s: String| serde_json::to_string(&s).unwrap_or_default();
    write!(
        out,
        "{{\"guest\":{},\"host\":{},\"method\":{},\"{key}\":[",
        q(g.spec().to_string()),
        q(h.spec().to_string()),
        q(e.method().to_string())
    )
}

/// `{guest, host, method, map, coords}`, streamed: the map of a large guest is
/// never held in memory.
pub fn embed_json(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    out: Out,
) -> Result<(), Failure> {
    json_open(g, h, e, "map", out)?;
    for n in 0..g.node_count() {
        write!(out, "{}{}", if n > 0 { "," } else { "" }, e.map(n))?;
    }
    write!(out, "],\"coords\":[")?;
    for n in 0..g.node_count() {
        let c: Vec<String> = h.coords(e.map(n)).iter().map(u64::to_string).collect();
        write!(out, "{}[{}]", if n > 0 { "," } else { "" }, c.join(","))?;
    }
    writeln!(out, "]}}")?;
    Ok(())
}

/// Largest host the layout view draws.
const LAYOUT_LIMIT: u64 = 1 << 16;

/// The host drawn as rows of guest labels: axis 1 along a row, axis 2 down the
/// rows (the xor paper's figures 2, 5 and 6), higher axes as separate slices.
pub fn embed_layout(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    out: Out,
) -> Result<(), Failure> {
    let Some((sides, _)) = h.spec().grid() else {
        return Err(topoembed::Error::Parameter(format!(
            "--format layout draws ring, line, torus and mesh hosts, not {}; use --format table",
            h.spec()
        ))
        .into());
    };
    if h.node_count() > LAYOUT_LIMIT {
        return Err(topoembed::Error::Parameter(format!(
            "{} has {} nodes; --format layout draws hosts of up to {LAYOUT_LIMIT} nodes",
            h.spec(),
            h.node_count()
        ))
        .into());
    }
    let mut on: Vec<Vec<u64>> = vec![Vec::new(); h.node_count() as usize];
    for n in 0..g.node_count() {
        on[e.map(n) as usize].push(n);
    }
    let label = |p: usize| match on[p].as_slice() {
        [] => ".".to_string(),
        list => list
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("/"),
    };
    let width = (0..on.len()).map(|p| label(p).len()).max().unwrap_or(1);
    let cols = sides[0] as usize;
    let rows = sides.get(1).copied().unwrap_or(1) as usize;
    let slices = on.len() / (cols * rows);
    writeln!(out, "# {}: {} -> {}", e.method(), g.spec(), h.spec())?;
    for s in 0..slices {
        if slices > 1 {
            let rest: Vec<String> = h.coords((s * cols * rows) as u64)[2..]
                .iter()
                .map(u64::to_string)
                .collect();
            writeln!(out, "# slice (axis 3..) = ({})", rest.join(", "))?;
        }
        for r in 0..rows {
            let line: Vec<String> = (0..cols)
                .map(|c| format!("{:>width$}", label(s * cols * rows + r * cols + c)))
                .collect();
            writeln!(out, "{}", line.join(" "))?;
        }
    }
    Ok(())
}

/// D_i(n) rows of a cube guest (figure 4a of the xor paper), streamed.
pub fn dilations(
    g: &dyn Topology,
    h: &dyn Topology,
    e: &dyn Embedding,
    dim: u32,
    rows: impl Iterator<Item = Vec<u64>>,
    format: Format,
    out: Out,
) -> Result<(), Failure> {
    let cells =
        |row: &[u64], sep: &str| row.iter().map(u64::to_string).collect::<Vec<_>>().join(sep);
    let names: Vec<String> = (0..dim).map(|i| format!("D_{i}")).collect();
    match format {
        Format::Json => {
            json_open(g, h, e, "dilations", out)?;
            for (n, row) in rows.enumerate() {
                write!(
                    out,
                    "{}[{}]",
                    if n > 0 { "," } else { "" },
                    cells(&row, ",")
                )?;
            }
            writeln!(out, "]}}")?;
        }
        Format::Csv => {
            writeln!(out, "node,{}", names.join(","))?;
            for (n, row) in rows.enumerate() {
                writeln!(out, "{n},{}", cells(&row, ","))?;
            }
        }
        Format::Table => {
            writeln!(out, "# {}: {} -> {}", e.method(), g.spec(), h.spec())?;
            let mut header = vec!["node".to_string()];
            header.extend(names);
            let mut t = Table::new(&header);
            for (n, row) in rows.enumerate() {
                let mut line = vec![n.to_string()];
                line.extend(row.iter().map(u64::to_string));
                t.row(line);
            }
            t.write(out)?;
        }
    }
    Ok(())
}

fn spectrum_text(m: &Metrics) -> String {
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
fn spectrum_summary(m: &Metrics) -> String {
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

/// One journal metric: (name, measured, closed form).
type Cell = (&'static str, String, String);

/// The journal metrics of `m`, each as (name, measured, closed form).
fn closed_form_cells(m: &Metrics) -> Option<Vec<Cell>> {
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
fn versus(measured: &str, closed: &str) -> String {
    if measured == closed {
        format!("{measured} = {closed}")
    } else if measured == "-" {
        format!("- (closed form {closed})")
    } else {
        format!("{measured} != {closed} (!)")
    }
}

/// For methods with closed forms: each journal metric, measured = closed form.
fn closed_form_table(results: &[Metrics], out: Out) -> io::Result<()> {
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

/// `load:links` pairs, shortened like the spectrum when there are many.
fn histogram_summary(h: &std::collections::BTreeMap<u64, u64>) -> String {
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

fn list_text(v: &[u64]) -> String {
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
            row(
                &format!("link load axis {}", a.axis),
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
    for note in &m.notes {
        writeln!(out, "  note: {note}")?;
    }
    Ok(())
}

/// "max 12.5, link average 3.1 (d shortest paths, 1/d each; e-cube max 25)".
fn fat_text(m: &Metrics, f: &topoembed::traffic::fat::FatCongestion) -> String {
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

pub const CSV_HEADER: &str =
    "guest,host,method,guest_nodes,host_nodes,guest_edges,load_factor,expansion,\
dilation_max,dilation_average,dilation_total,hop_bytes,total_volume,spectrum,constant_distance,distances,average_distance,\
cc_ta,cc_tc,cc_time,cc_waiting,congestion,link_load_average,node_load_max,node_load_min,\
node_load_average,node_traffic_max,node_traffic_min,node_traffic_average,fat_congestion";

/// One CSV row of the metrics (spectrum as `dil:count` pairs separated by spaces).
pub fn csv_row(m: &Metrics) -> String {
    let opt = |x: Option<String>| x.unwrap_or_default();
    let cc = m.cc_time.as_ref();
    [
        m.guest.clone(),
        m.host.clone(),
        m.method.clone(),
        m.guest_nodes.to_string(),
        m.host_nodes.to_string(),
        m.guest_edges.to_string(),
        m.load_factor.to_string(),
        m.expansion.to_string(),
        m.dilation.max.to_string(),
        m.dilation.average.to_string(),
        m.dilation.total.to_string(),
        m.hop_bytes.to_string(),
        m.total_volume.to_string(),
        spectrum_text(m),
        opt(m.constant_distance.map(|c| c.to_string())),
        opt(m.distances.as_deref().map(list_text)),
        opt(m.average_distance.map(|x| x.to_string())),
        opt(cc.map(|c| c.ta.to_string())),
        opt(cc.map(|c| c.tc.to_string())),
        opt(cc.map(|c| c.time.to_string())),
        opt(cc.map(|c| c.waiting.to_string())),
        opt(m.congestion.as_ref().map(|c| c.max.to_string())),
        opt(m.congestion.as_ref().map(|c| c.average.to_string())),
        opt(m.node_load.map(|l| l.max.to_string())),
        opt(m.node_load.map(|l| l.min.to_string())),
        opt(m.node_load.map(|l| l.average.to_string())),
        opt(m.node_traffic.map(|l| l.max.to_string())),
        opt(m.node_traffic.map(|l| l.min.to_string())),
        opt(m.node_traffic.map(|l| l.average.to_string())),
        opt(m.fat_congestion.as_ref().map(|f| f.max.to_string())),
    ]
    .map(|f| csv_field(&f))
    .join(",")
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The verification line of `hamiltonian`, then one cycle per line.
pub fn hamiltonian(n: u32, cycles: &[Vec<u64>], summary: bool, out: Out) -> io::Result<()> {
    let nodes = 1u64 << n;
    let edges: usize = cycles.iter().map(Vec::len).sum();
    writeln!(
        out,
        "cube:{n}: {} edge-disjoint Hamiltonian cycles of {nodes} nodes, {edges} of the cube's {} edges{}",
        cycles.len(),
        u64::from(n) << (n - 1),
        if n % 2 == 0 { " (every edge: a Hamiltonian decomposition)" } else { "" }
    )?;
    writeln!(
        out,
        "verified: every cycle visits each node once, consecutive nodes (and last to first) \
         differ in one bit, no edge is on two cycles"
    )?;
    if summary {
        return Ok(());
    }
    for (k, cycle) in cycles.iter().enumerate() {
        write!(out, "cycle {}:", k + 1)?;
        for node in cycle {
            write!(out, " {node}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
