//! `topoembed device-mesh HOST LOGICAL`: a logical device mesh laid onto a
//! physical torus or mesh, or onto a cluster (nodes of accelerators under a
//! network), with per-axis figures beside the row-major assignment's and
//! the bound no placement beats.

use std::path::Path;

use topoembed::device_mesh::{self, DeviceMesh, Objective};
use topoembed::report;
use topoembed::Error;

use crate::cli::Format;
use crate::commands::{io_error, parse_spec, Out};
use crate::table::{num, Table};
use crate::Failure;

/// Host nodes up to which the table view draws the layout.
const DRAW_LIMIT: usize = 1024;

/// The command's arguments, as given.
pub struct Question<'a> {
    pub host: &'a str,
    pub logical: &'a str,
    pub weights: Option<&'a str>,
    pub lines: Option<&'a str>,
    pub objective: device_mesh::Objective,
    pub assignment: Option<&'a Path>,
}

pub fn device_mesh(q: &Question, format: Format, out: Out) -> Result<(), Failure> {
    let spec = parse_spec(q.host)?;
    let axes = device_mesh::parse_logical(q.logical)?;
    let weights = q
        .weights
        .map(|w| device_mesh::parse_weights(w, &axes))
        .transpose()?;
    let lines = q
        .lines
        .map(|l| device_mesh::parse_lines(l, &axes))
        .transpose()?
        .unwrap_or_default();
    let result = match q.assignment {
        None => device_mesh::device_mesh(&spec, &axes, (weights.as_deref(), q.objective), &lines)?,
        Some(path) => {
            let ids = read_ids(path)?;
            device_mesh::score_assignment(&spec, &axes, weights.as_deref(), &lines, ids)?
        }
    };
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report::device_mesh(&result))
                .map_err(io_error)?;
            writeln!(out)?;
        }
        Format::Csv => write_csv(&result, out)?,
        Format::Table => write_table(&result, out)?,
    }
    Ok(())
}

/// Every whole number in the file, in order (any separators).
fn read_ids(path: &Path) -> Result<Vec<u64>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::File(format!(
            "cannot read the assignment {}: {e}",
            path.display()
        ))
    })?;
    if let Some(at) = text.find('-').filter(|&at| {
        text[at + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    }) {
        let line = text[..at].lines().count().max(1);
        return Err(Error::Parameter(format!(
            "{}:{line}: a negative number; host node ids are 0 or more",
            path.display()
        ))
        .into());
    }
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u64>().map_err(|_| {
                Failure::Library(Error::Parameter(format!(
                    "{}: '{t}' is not a host node id",
                    path.display()
                )))
            })
        })
        .collect()
}

/// One row per device: its logical coordinates, host node, host coordinates.
fn write_csv(d: &DeviceMesh, out: Out) -> std::io::Result<()> {
    let mut header: Vec<String> = d.logical.iter().map(|a| a.name.clone()).collect();
    header.push("host_node".into());
    let width = d.mesh.first().map_or(0, |&h| d.host_coords(h).len());
    header.extend((1..=width).map(|k| format!("host_axis{k}")));
    writeln!(out, "{}", header.join(","))?;
    for (index, &h) in d.mesh.iter().enumerate() {
        let mut row: Vec<String> = d
            .logical_coords(index as u64)
            .iter()
            .map(u64::to_string)
            .collect();
        row.push(h.to_string());
        row.extend(d.host_coords(h).iter().map(u64::to_string));
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

fn write_table(d: &DeviceMesh, out: Out) -> std::io::Result<()> {
    let shape: Vec<String> = d
        .logical
        .iter()
        .map(|a| format!("{}={}", a.name, a.size))
        .collect();
    writeln!(
        out,
        "device mesh {} on {} ({} devices)",
        shape.join(","),
        d.host,
        d.mesh.len()
    )?;
    let mut t = Table::new(&[
        "axis",
        "size",
        "kind",
        "weight",
        "max hops",
        "avg hops",
        "congestion",
        "bound",
        "| row-major: max hops",
        "avg hops",
        "congestion",
    ]);
    let congestion = |c: u64| {
        if d.congestion_counted {
            c.to_string()
        } else {
            "-".to_string()
        }
    };
    for a in &d.axes {
        t.row(vec![
            a.name.clone(),
            a.size.to_string(),
            a.kind.to_string(),
            num(a.weight),
            a.figures.max_hops.to_string(),
            num(a.figures.average_hops),
            congestion(a.figures.congestion),
            a.lower_bound.value.to_string(),
            format!("| {}", a.row_major.max_hops),
            num(a.row_major.average_hops),
            congestion(a.row_major.congestion),
        ]);
    }
    t.write(out)?;
    writeln!(out, "plan:")?;
    for line in &d.plan {
        writeln!(out, "  {line}")?;
    }
    if !d.candidates.is_empty() {
        writeln!(out, "{}", choice_line(d))?;
    }
    let cluster = d.host_coordinates.is_some();
    for a in &d.axes {
        if cluster && a.size > 1 {
            writeln!(out, "bound for {}: {}", a.name, a.lower_bound.reason)?;
        } else if !cluster && a.lower_bound.value >= 2 {
            writeln!(
                out,
                "no unit-hop ring for {}: {} (bound {})",
                a.name, a.lower_bound.reason, a.lower_bound.value
            )?;
        }
    }
    for note in &d.notes {
        writeln!(out, "note: {note}")?;
    }
    if d.mesh.len() > DRAW_LIMIT {
        writeln!(
            out,
            "layout: not drawn for more than {DRAW_LIMIT} devices; --format json or csv lists every device"
        )?;
        return Ok(());
    }
    if cluster {
        draw_groups(d, out)
    } else {
        draw(d, out)
    }
}

/// The logical coordinates each host node holds, "i,j,..".
fn labels(d: &DeviceMesh) -> Vec<String> {
    let mut label = vec![String::new(); d.mesh.len()];
    for (index, &h) in d.mesh.iter().enumerate() {
        label[h as usize] = d
            .logical_coords(index as u64)
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",");
    }
    label
}

/// A cluster drawn one row per group of host nodes that share every
/// coordinate but the last (the accelerators of one node), each showing
/// the logical coordinates it holds.
fn draw_groups(d: &DeviceMesh, out: Out) -> std::io::Result<()> {
    let label = labels(d);
    let names: Vec<&str> = d.logical.iter().map(|a| a.name.as_str()).collect();
    writeln!(
        out,
        "layout: each row is the host nodes that differ only in their last coordinate (one node's accelerators), each showing the logical coordinates ({}) it holds",
        names.join(",")
    )?;
    let width = label.iter().map(String::len).max().unwrap_or(1);
    let mut rows: Vec<(Vec<u64>, Vec<String>)> = Vec::new();
    for (h, l) in label.into_iter().enumerate() {
        let mut at = d.host_coords(h as u64);
        at.pop();
        match rows.last_mut() {
            Some((prefix, cells)) if *prefix == at => cells.push(format!("{l:>width$}")),
            _ => rows.push((at, vec![format!("{l:>width$}")])),
        }
    }
    let prefix_width = rows
        .iter()
        .map(|(p, _)| format!("{p:?}").len())
        .max()
        .unwrap_or(0);
    for (prefix, cells) in rows {
        let p = format!("{prefix:?}");
        writeln!(out, "  {p:<prefix_width$}  {}", cells.join(" "))?;
    }
    Ok(())
}

/// How the placement was chosen: the objective, and how many of the
/// placements scored no other beats in both Σ max hops and Σ congestion.
fn choice_line(d: &DeviceMesh) -> String {
    let what = match d.objective {
        Objective::Bandwidth => "least congestion, then hops",
        Objective::Latency => "fewest hops, then congestion",
        Objective::Balanced => "least hops + congestion",
    };
    if d.host_coordinates.is_some() {
        return format!(
            "objective {} ({what}, weighted) among the {} orders of the axes scored (row-major included): none beats it on both Σ w·max hops and Σ w·congestion",
            d.objective.name(),
            d.candidates.len()
        );
    }
    let front = topoembed::embed::grid::choice::front(d.candidates.iter().copied());
    let listed: Vec<String> = front.iter().map(|(h, c)| format!("{h}/{c}")).collect();
    format!(
        "objective {} ({what}) among the Σ max hops/Σ congestion no other of the {} placements scored (row-major included) beats on both: {}",
        d.objective.name(),
        d.candidates.len(),
        listed.join(", ")
    )
}

/// The host drawn as rows (host axis 1 across, axis 2 down, further axes
/// as slices), each node showing the logical coordinates it holds.
fn draw(d: &DeviceMesh, out: Out) -> std::io::Result<()> {
    let label = labels(d);
    let names: Vec<&str> = d.logical.iter().map(|a| a.name.as_str()).collect();
    writeln!(
        out,
        "layout: each host node shows the logical coordinates ({}) it holds; host axis 1 across{}",
        names.join(","),
        if d.host_sides.len() > 1 {
            ", axis 2 down"
        } else {
            ""
        }
    )?;
    let width = label.iter().map(String::len).max().unwrap_or(1);
    let k1 = d.host_sides[0] as usize;
    let k2 = d.host_sides.get(1).copied().unwrap_or(1) as usize;
    for (s, slice) in label.chunks(k1 * k2).enumerate() {
        if d.host_sides.len() > 2 {
            let mut rest = s as u64;
            let at: Vec<String> = d.host_sides[2..]
                .iter()
                .enumerate()
                .map(|(k, &side)| {
                    let c = rest % side;
                    rest /= side;
                    format!("axis {} = {c}", k + 3)
                })
                .collect();
            writeln!(out, "host {}:", at.join(", "))?;
        }
        for row in slice.chunks(k1) {
            let cells: Vec<String> = row.iter().map(|l| format!("{l:>width$}")).collect();
            writeln!(out, "  {}", cells.join(" "))?;
        }
    }
    Ok(())
}
