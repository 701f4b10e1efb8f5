//! Where every guest node goes: the embedding as a table, CSV, streamed
//! JSON and the papers' layouts, and the D_i(n) rows of a cube guest.

use std::io;

use topoembed::embed::Embedding;
use topoembed::spec::Spec;
use topoembed::topology::Topology;

use super::Out;
use crate::cli::Format;
use crate::table::Table;
use crate::Failure;

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
