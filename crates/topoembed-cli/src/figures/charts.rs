//! Charts: the dilation spectrum as bars (xor paper §4.2: the number of
//! guest edges of each dilation) and the node-load profile along the host's
//! numbering (journal figures 7-10: load of every ring node due to the
//! links of one dimension, and their sum).

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{drawing_error, palette};
use crate::Failure;

/// Bars of `spectrum` (dilation -> guest edges), one per dilation that occurs.
pub fn spectrum(title: &str, spectrum: &BTreeMap<u64, u64>) -> Result<String, Failure> {
    let bars: Vec<(u64, u64)> = spectrum.iter().map(|(&d, &c)| (d, c)).collect();
    let top = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64 * 1.15;
    let n = bars.len().max(1);
    let width = (160 + 60 * n).clamp(420, 1200) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..top)
            .map_err(drawing_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    bars.get(i as usize)
                        .map_or(String::new(), |b| b.0.to_string())
                } else {
                    String::new()
                }
            })
            .x_desc("dilation")
            .y_desc("guest edges")
            .label_style(("sans-serif", 11))
            .draw()
            .map_err(drawing_error)?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, &(_, c))| {
                let x = i as f64;
                Rectangle::new(
                    [(x - 0.35, 0.0), (x + 0.35, c as f64)],
                    palette::BLUE.filled(),
                )
            }))
            .map_err(drawing_error)?;
        let above = ("sans-serif", 11)
            .into_font()
            .color(&palette::INK)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        for (i, &(_, c)) in bars.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64, c as f64));
            root.draw(&Text::new(c.to_string(), (x, y - 3), above.clone()))
                .map_err(drawing_error)?;
        }
        root.present().map_err(drawing_error)?;
    }
    Ok(svg)
}

/// Colour of series `i` (cycling through the palette).
fn series_colour(i: usize) -> RGBColor {
    const CYCLE: [RGBColor; 5] = [
        palette::BLUE,
        palette::ORANGE,
        palette::GREEN,
        palette::RED,
        RGBColor(0x76, 0xb7, 0xb2),
    ];
    CYCLE[i % CYCLE.len()]
}

/// Load of every host node (`load[class][node]`), one line per class named
/// by `class_name`, and their sum in black.
pub fn load_profile(
    title: &str,
    load: &[Vec<u64>],
    class_name: &dyn Fn(usize) -> String,
) -> Result<String, Failure> {
    let nodes = load.first().map_or(0, Vec::len);
    let total: Vec<u64> = (0..nodes)
        .map(|h| load.iter().map(|c| c[h]).sum())
        .collect();
    let top = total.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 340)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(10)
            .margin_right(150)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..(nodes.max(2) - 1) as f64, 0.0..top)
            .map_err(drawing_error)?;
        chart
            .configure_mesh()
            .x_desc("host node")
            .y_desc("routes through the node")
            .label_style(("sans-serif", 11))
            .draw()
            .map_err(drawing_error)?;
        let points = |v: &[u64]| -> Vec<(f64, f64)> {
            v.iter()
                .enumerate()
                .map(|(h, &l)| (h as f64, l as f64))
                .collect()
        };
        // Classes that load no node add nothing to read; leave them out.
        let mut legend = Vec::new();
        for (i, class) in load
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|&l| l > 0))
        {
            let colour = series_colour(i);
            chart
                .draw_series(LineSeries::new(points(class), colour.stroke_width(1)))
                .map_err(drawing_error)?;
            legend.push((class_name(i), colour, 1));
        }
        chart
            .draw_series(LineSeries::new(points(&total), BLACK.stroke_width(2)))
            .map_err(drawing_error)?;
        legend.push(("all".to_string(), BLACK, 2));
        // The legend to the right of the plot, where no line can run under it.
        let style = ("sans-serif", 11).into_font().color(&palette::INK);
        for (k, (name, colour, width)) in legend.into_iter().enumerate() {
            let y = 40 + 18 * k as i32;
            root.draw(&PathElement::new(
                vec![(760, y), (782, y)],
                colour.stroke_width(width),
            ))
            .map_err(drawing_error)?;
            root.draw(&Text::new(name, (788, y - 6), style.clone()))
                .map_err(drawing_error)?;
        }
        root.present().map_err(drawing_error)?;
    }
    Ok(svg)
}
