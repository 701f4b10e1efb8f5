//! The host drawn as in the papers' figures, every host node labelled with
//! the guest node(s) placed on it:
//!
//! * rings as a circle, node 0 at the top, numbered clockwise (xor paper
//!   figure 1b, 2a, 3b, 5);
//! * lines as a row (figures 1a, 2a, 3a);
//! * 2-D meshes and tori with axis 1 across and axis 2 down, node (0, 0) top
//!   left (figures 1c-d, 2b, 6); wrap-around links as stubs at the border,
//!   "not shown for clarity" as the paper puts it;
//! * 3-D and larger grids as 2-D slices, one per value of the other axes;
//! * hypercubes as a Gray-code grid (a Karnaugh map): the low half of the
//!   bits across, the high half down, each in binary-reflected Gray order,
//!   so neighbours along a row or column (wrapping) differ in one bit;
//! * binary trees by level; any other graph on a circle.
//!
//! Guest labels are the only black `<text>` elements (titles and notes are
//! grey); they come in node order, and so for grids in reading order (row by
//! row, left to right) and round a ring clockwise, so a figure can be checked
//! by reading them back.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use topoembed::bits;
use topoembed::embed::Embedding;
use topoembed::spec::Spec;
use topoembed::topology::{level_and_position, Topology};

use super::{dilation_colour, drawing_error, palette};
use crate::Failure;

/// Largest host drawn.
pub const MAX_HOST_NODES: u64 = 4096;
/// Largest guest drawn (its labels and edges).
pub const MAX_GUEST_NODES: u64 = 1 << 16;
/// Font size of the guest labels (smaller for lists of several nodes).
const LABEL_SIZE: u32 = 13;
/// Distance between neighbouring nodes in grids and lines.
const STEP: f64 = 46.0;
/// Node circle radius.
const RADIUS: i32 = 15;
/// Space above the drawing for the title.
const TOP: f64 = 56.0;
const MARGIN: f64 = 40.0;

/// Where each host node goes, which host links to draw, and extra text.
struct Plan {
    at: Vec<(f64, f64)>,
    links: Vec<(u64, u64)>,
    /// Wrap-around links: a short stub from the node in a direction.
    stubs: Vec<(u64, (f64, f64))>,
    notes: Vec<((f64, f64), String)>,
    width: f64,
    height: f64,
}

/// What to draw.
pub struct Request<'a> {
    pub guest: &'a dyn Topology,
    pub host: &'a dyn Topology,
    pub embedding: &'a dyn Embedding,
    /// Also draw every guest edge, coloured by its dilation.
    pub edges: bool,
}

/// The host with its guest labels, as an SVG document.
pub fn draw(r: &Request) -> Result<String, Failure> {
    let (guest, host) = (r.guest, r.host);
    if host.node_count() > MAX_HOST_NODES || guest.node_count() > MAX_GUEST_NODES {
        return Err(topoembed::Error::Parameter(format!(
            "draw shows hosts of at most {MAX_HOST_NODES} nodes and guests of at most \
             {MAX_GUEST_NODES}; {} -> {} is larger (use `metrics` for numbers)",
            guest.spec(),
            host.spec()
        ))
        .into());
    }
    let mut placed: Vec<Vec<u64>> = vec![Vec::new(); host.node_count() as usize];
    for g in 0..guest.node_count() {
        let h = r.embedding.map(g);
        match placed.get_mut(h as usize) {
            Some(list) => list.push(g),
            None => {
                return Err(topoembed::Error::Internal(format!(
                    "{} maps guest node {g} to {h}, outside {}",
                    r.embedding.method(),
                    host.spec()
                ))
                .into())
            }
        }
    }
    let plan = plan(host);
    let legend = if r.edges { 40.0 } else { 0.0 };
    let (w, h) = (plan.width.max(420.0), plan.height + legend);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w as u32, h as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing_error)?;
        let title = format!(
            "{}: {} -> {}",
            r.embedding.method(),
            guest.spec(),
            host.spec()
        );
        let centred = |size: u32, colour: &RGBColor| {
            ("sans-serif", size)
                .into_font()
                .color(colour)
                .pos(Pos::new(HPos::Center, VPos::Center))
        };
        root.draw(&Text::new(
            title,
            ((w / 2.0) as i32, 20),
            centred(16, &palette::INK),
        ))
        .map_err(drawing_error)?;
        let px = |v: u64| {
            let (x, y) = plan.at[v as usize];
            (x.round() as i32, y.round() as i32)
        };
        for &(a, b) in &plan.links {
            root.draw(&PathElement::new(
                vec![px(a), px(b)],
                palette::GREY.stroke_width(2),
            ))
            .map_err(drawing_error)?;
        }
        for &(a, (dx, dy)) in &plan.stubs {
            let (x, y) = px(a);
            let end = (x + (dx * STEP * 0.45) as i32, y + (dy * STEP * 0.45) as i32);
            root.draw(&PathElement::new(
                vec![(x, y), end],
                palette::GREY.stroke_width(2),
            ))
            .map_err(drawing_error)?;
        }
        if r.edges {
            draw_guest_edges(&root, r, &px, w, h - 22.0)?;
        }
        for ((x, y), text) in &plan.notes {
            root.draw(&Text::new(
                text.as_str(),
                (*x as i32, *y as i32),
                centred(10, &palette::GREY),
            ))
            .map_err(drawing_error)?;
        }
        for (v, guests) in placed.iter().enumerate() {
            let (x, y) = px(v as u64);
            let fill = if guests.is_empty() {
                palette::LIGHT
            } else {
                WHITE
            };
            root.draw(&Circle::new((x, y), RADIUS, fill.filled()))
                .map_err(drawing_error)?;
            root.draw(&Circle::new((x, y), RADIUS, palette::INK.stroke_width(1)))
                .map_err(drawing_error)?;
            let text = label(guests);
            let size = if text.len() > 3 { 9 } else { LABEL_SIZE };
            root.draw(&Text::new(text, (x, y), centred(size, &BLACK)))
                .map_err(drawing_error)?;
        }
        root.present().map_err(drawing_error)?;
    }
    Ok(svg)
}

/// Guest nodes on one host node: "5", "0,1,2", "0,1,+6", or "-" when empty.
fn label(guests: &[u64]) -> String {
    match guests.len() {
        0 => "-".to_string(),
        1..=3 => guests
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        n => format!("{},{},+{}", guests[0], guests[1], n - 2),
    }
}

fn draw_guest_edges<F: Fn(u64) -> (i32, i32)>(
    root: &DrawingArea<SVGBackend, Shift>,
    r: &Request,
    px: &F,
    width: f64,
    legend_y: f64,
) -> Result<(), Failure> {
    let mut edges = Vec::new();
    r.guest
        .for_each_edge(0..r.guest.node_count(), &mut |u, v, _| {
            let (a, b) = (r.embedding.map(u), r.embedding.map(v));
            edges.push((a, b, r.host.distance(a, b)));
        });
    let max = edges.iter().map(|e| e.2).max().unwrap_or(1);
    // Longest first, so short (good) edges stay on top.
    edges.sort_by_key(|e| std::cmp::Reverse(e.2));
    for (a, b, d) in edges {
        if a == b {
            continue;
        }
        let colour = dilation_colour(d, max);
        root.draw(&PathElement::new(
            vec![px(a), px(b)],
            colour.mix(0.75).stroke_width(2),
        ))
        .map_err(drawing_error)?;
    }
    // Legend: one swatch per dilation up to 8, else the two ends.
    let shown: Vec<u64> = if max <= 8 {
        (1..=max).collect()
    } else {
        vec![1, max / 2, max]
    };
    let mut x = (width / 2.0 - 60.0 * (shown.len() as f64 + 1.0) / 2.0) as i32;
    let y = legend_y as i32;
    let style = ("sans-serif", 11).into_font().color(&palette::INK);
    root.draw(&Text::new("dilation", (x, y - 6), style.clone()))
        .map_err(drawing_error)?;
    x += 60;
    for d in shown {
        root.draw(&PathElement::new(
            vec![(x, y), (x + 18, y)],
            dilation_colour(d, max).stroke_width(4),
        ))
        .map_err(drawing_error)?;
        root.draw(&Text::new(d.to_string(), (x + 22, y - 6), style.clone()))
            .map_err(drawing_error)?;
        x += 50;
    }
    Ok(())
}

fn plan(host: &dyn Topology) -> Plan {
    match host.spec() {
        Spec::Ring(n) => circle(*n, true),
        Spec::Line(_) | Spec::Torus(_) | Spec::Mesh(_) | Spec::Grid(..) => {
            let (sides, wraps) = host.spec().grid().expect("a grid spec");
            grid(sides, &wraps)
        }
        Spec::Cube(d) => gray_grid(*d),
        Spec::BinTree(_) => tree(host),
        _ => {
            let mut p = circle(host.node_count(), false);
            host.for_each_edge(0..host.node_count(), &mut |u, v, _| p.links.push((u, v)));
            p
        }
    }
}

/// Nodes round a circle, node 0 at the top, clockwise.
fn circle(n: u64, ring: bool) -> Plan {
    let r = (n as f64 * STEP / std::f64::consts::TAU).max(90.0);
    let c = MARGIN + r;
    let at = (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            (c + r * t.sin(), TOP + c - r * t.cos())
        })
        .collect();
    let links = if ring && n > 1 {
        (0..n).map(|i| (i, (i + 1) % n)).collect()
    } else {
        Vec::new()
    };
    Plan {
        at,
        links,
        stubs: Vec::new(),
        notes: Vec::new(),
        width: 2.0 * c,
        height: TOP + 2.0 * c,
    }
}

/// Grids: axis 1 across, axis 2 down; more axes as slices of the first two,
/// laid out left to right, then in rows of slices.
/// Axis 1 across, axis 2 down, further axes as captioned slices; wrapped
/// axes (`wraps`, per axis) get stubs at both ends of every line.
fn grid(sides: &[u64], wraps: &[bool]) -> Plan {
    let wrap1 = wraps[0];
    let wrap2 = wraps.get(1).copied().unwrap_or(false);
    let (k1, k2) = (sides[0], sides.get(1).copied().unwrap_or(1));
    let slices: u64 = sides.iter().skip(2).product();
    let per_row = slices.clamp(1, 4);
    let (slice_w, slice_h) = (k1 as f64 * STEP + STEP, k2 as f64 * STEP + STEP);
    let caption = if sides.len() > 2 { 20.0 } else { 0.0 };
    let n: u64 = sides.iter().product();
    let mut p = Plan {
        at: Vec::with_capacity(n as usize),
        links: Vec::new(),
        stubs: Vec::new(),
        notes: Vec::new(),
        width: 2.0 * MARGIN + per_row as f64 * slice_w - STEP,
        height: TOP + MARGIN + slices.div_ceil(per_row) as f64 * (slice_h + caption),
    };
    for v in 0..n {
        let (i1, i2, s) = (v % k1, (v / k1) % k2, v / (k1 * k2));
        let (ox, oy) = (
            MARGIN + (s % per_row) as f64 * slice_w,
            TOP + caption + (s / per_row) as f64 * (slice_h + caption),
        );
        p.at.push((
            ox + i1 as f64 * STEP + STEP / 2.0,
            oy + i2 as f64 * STEP + STEP / 2.0,
        ));
        if i1 + 1 < k1 {
            p.links.push((v, v + 1));
        } else if wrap1 && k1 > 2 {
            p.stubs.push((v, (1.0, 0.0)));
            p.stubs.push((v + 1 - k1, (-1.0, 0.0)));
        }
        if i2 + 1 < k2 {
            p.links.push((v, v + k1));
        } else if wrap2 && k2 > 2 {
            p.stubs.push((v, (0.0, 1.0)));
            p.stubs.push((v - (k2 - 1) * k1, (0.0, -1.0)));
        }
        if sides.len() > 2 && i1 == 0 && i2 == 0 {
            let mut rest = s;
            let coords: Vec<String> = sides[2..]
                .iter()
                .enumerate()
                .map(|(k, &side)| {
                    let c = rest % side;
                    rest /= side;
                    format!("i{} = {c}", k + 3)
                })
                .collect();
            p.notes.push((
                (ox + k1 as f64 * STEP / 2.0, oy - caption / 2.0),
                coords.join(", "),
            ));
        }
    }
    p
}

/// A d-cube as a Gray-code grid: column = Gray rank of the low ceil(d/2)
/// bits, row = Gray rank of the high bits; binary headers show each
/// column's and row's bits.
fn gray_grid(d: u32) -> Plan {
    let low = d.div_ceil(2);
    let high = d - low;
    let (cols, rows) = (1u64 << low, 1u64 << high);
    let (ox, oy) = (MARGIN + STEP, TOP + STEP * 0.6);
    let mut p = Plan {
        at: vec![(0.0, 0.0); (cols * rows) as usize],
        links: Vec::new(),
        stubs: Vec::new(),
        notes: Vec::new(),
        width: 2.0 * MARGIN + (cols + 1) as f64 * STEP,
        height: oy + MARGIN + rows as f64 * STEP,
    };
    let bits_of = |x: u64, width: u32| {
        (0..width)
            .rev()
            .map(|b| if x >> b & 1 == 1 { '1' } else { '0' })
            .collect::<String>()
    };
    for r in 0..rows {
        for c in 0..cols {
            let v = (bits::btog(r) << low) | bits::btog(c);
            let (x, y) = (
                ox + c as f64 * STEP + STEP / 2.0,
                oy + r as f64 * STEP + STEP / 2.0,
            );
            p.at[v as usize] = (x, y);
            if c + 1 < cols {
                p.links
                    .push((v, (bits::btog(r) << low) | bits::btog(c + 1)));
            } else if cols > 2 {
                p.stubs.push((v, (1.0, 0.0)));
                p.stubs.push(((bits::btog(r) << low), (-1.0, 0.0)));
            }
            if r + 1 < rows {
                p.links
                    .push((v, (bits::btog(r + 1) << low) | bits::btog(c)));
            } else if rows > 2 {
                p.stubs.push((v, (0.0, 1.0)));
                p.stubs.push((bits::btog(c), (0.0, -1.0)));
            }
        }
    }
    if low > 0 {
        for c in 0..cols {
            let x = ox + c as f64 * STEP + STEP / 2.0;
            p.notes.push(((x, oy - 8.0), bits_of(bits::btog(c), low)));
        }
    }
    if high > 0 {
        for r in 0..rows {
            let y = oy + r as f64 * STEP + STEP / 2.0;
            p.notes.push(((ox - 18.0, y), bits_of(bits::btog(r), high)));
        }
    }
    p
}

/// A complete binary tree by levels, leaves at the bottom (heap numbering).
fn tree(host: &dyn Topology) -> Plan {
    let n = host.node_count();
    let leaves = n.div_ceil(2).max(1);
    let levels = 64 - leaves.leading_zeros() as u64;
    let width = 2.0 * MARGIN + leaves as f64 * STEP;
    let mut p = Plan {
        at: Vec::with_capacity(n as usize),
        links: Vec::new(),
        stubs: Vec::new(),
        notes: Vec::new(),
        width,
        height: TOP + MARGIN + levels as f64 * 70.0,
    };
    for k in 0..n {
        let (level, j) = level_and_position(k);
        let span = (width - 2.0 * MARGIN) / (1u64 << level) as f64;
        let level = u64::from(level);
        p.at.push((
            MARGIN + (j as f64 + 0.5) * span,
            TOP + 20.0 + level as f64 * 70.0,
        ));
        if k > 0 {
            p.links.push(((k - 1) / 2, k));
        }
    }
    p
}
