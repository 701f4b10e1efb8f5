//! Gantt chart of a simulation: one row per process (process 0 at the top),
//! time to the right, like the xor paper's figure 4 (compute, communicate,
//! wait intervals of a CC 3-cube algorithm on a line).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use topoembed::simulate::{Activity, Interval};

use super::{drawing_error, palette};
use crate::Failure;

/// Fill colour and legend name of an activity.
pub fn style(activity: Activity) -> (RGBColor, &'static str) {
    match activity {
        Activity::Compute => (palette::BLUE, "compute"),
        Activity::Communicate => (palette::GREEN, "communicate"),
        Activity::Wait => (palette::GREY, "wait"),
        Activity::Blocked => (palette::RED, "blocked (contention)"),
    }
}

/// One row of the chart.
pub struct Row<'a> {
    /// Label at the left, e.g. "rank 3 (guest 5)".
    pub label: String,
    /// The process's intervals, in time order.
    pub intervals: &'a [Interval],
}

/// The chart as an SVG document; `end` is the time axis' end (the makespan).
pub fn draw(title: &str, rows: &[Row], end: f64, time_unit: &str) -> Result<String, Failure> {
    let n = rows.len().max(1);
    let row_height = if n > 64 { 10 } else { 22 };
    let (width, height) = (960u32, (110 + row_height * n) as u32);
    let end = if end > 0.0 { end } else { 1.0 };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing_error)?;
        let label_width = rows
            .iter()
            .map(|r| r.label.chars().count() as u32 * 7 + 12)
            .max()
            .unwrap_or(40);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 16))
            .margin(10)
            .margin_bottom(34)
            .x_label_area_size(34)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0.0..end, 0.0..n as f64)
            .map_err(drawing_error)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(time_unit)
            .label_style(("sans-serif", 11))
            .draw()
            .map_err(drawing_error)?;
        // Row labels beside each row's centre (the mesh's labels sit on grid lines).
        let label_style = ("sans-serif", 11)
            .into_font()
            .color(&palette::INK)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (i, row) in rows.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, (n - i) as f64 - 0.5));
            root.draw(&Text::new(
                row.label.as_str(),
                (x - 6, y),
                label_style.clone(),
            ))
            .map_err(drawing_error)?;
        }
        for (i, row) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            chart
                .draw_series(row.intervals.iter().map(|iv| {
                    let (colour, _) = style(iv.activity);
                    Rectangle::new([(iv.start, y + 0.12), (iv.end, y + 0.88)], colour.filled())
                }))
                .map_err(drawing_error)?;
        }
        draw_legend(&root, height - 18)?;
        root.present().map_err(drawing_error)?;
    }
    Ok(svg)
}

fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    y: u32,
) -> Result<(), Failure> {
    let mut x = 20i32;
    let y = y as i32;
    for activity in [
        Activity::Compute,
        Activity::Communicate,
        Activity::Wait,
        Activity::Blocked,
    ] {
        let (colour, name) = style(activity);
        root.draw(&Rectangle::new(
            [(x, y - 6), (x + 14, y + 6)],
            ShapeStyle::from(colour).filled(),
        ))
        .map_err(drawing_error)?;
        root.draw(&Rectangle::new(
            [(x, y - 6), (x + 14, y + 6)],
            palette::GREY,
        ))
        .map_err(drawing_error)?;
        root.draw(&Text::new(
            name,
            (x + 20, y - 6),
            ("sans-serif", 12).into_font().color(&palette::INK),
        ))
        .map_err(drawing_error)?;
        x += 40 + 7 * name.len() as i32;
    }
    Ok(())
}
