//! SVG figures, drawn with plotters' SVG backend: text stays `<text>`
//! elements (the viewer's sans-serif), so no font files are needed and the
//! labels can be read back from the file.
//!
//! * [`gantt`]: one row per process, compute / communicate / wait / blocked,
//!   like the xor paper's figure 4;
//! * [`layout`]: the host drawn as in the papers' figures, every node
//!   labelled with its guest node(s), guest edges coloured by dilation;
//! * [`charts`]: dilation-spectrum bars and node-load profiles.

pub mod charts;
pub mod gantt;
pub mod layout;

use std::io;

use plotters::style::RGBColor;

use crate::Failure;

/// Colours shared by every figure (Tableau 10, readable in print and on screen).
pub mod palette {
    use plotters::style::RGBColor;
    pub const BLUE: RGBColor = RGBColor(0x4e, 0x79, 0xa7);
    pub const GREEN: RGBColor = RGBColor(0x59, 0xa1, 0x4f);
    pub const ORANGE: RGBColor = RGBColor(0xf2, 0x8e, 0x2b);
    pub const RED: RGBColor = RGBColor(0xe1, 0x57, 0x59);
    pub const GREY: RGBColor = RGBColor(0xba, 0xb0, 0xac);
    /// Empty host nodes.
    pub const LIGHT: RGBColor = RGBColor(0xee, 0xee, 0xee);
    pub const INK: RGBColor = RGBColor(0x33, 0x33, 0x33);
}

/// Colour of dilation `d` on a scale from 1 (green) to `max` (red).
pub fn dilation_colour(d: u64, max: u64) -> RGBColor {
    if max <= 1 || d <= 1 {
        return palette::GREEN;
    }
    let t = (d - 1) as f64 / (max - 1) as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    let (a, b) = (palette::GREEN, palette::RED);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// A plotters drawing error as the CLI's failure.
pub fn drawing_error<E: std::fmt::Display>(e: E) -> Failure {
    Failure::Io(io::Error::other(format!("cannot draw the figure: {e}")))
}

/// Writes `svg` to `path`.
pub fn save(path: &std::path::Path, svg: &str) -> Result<(), Failure> {
    std::fs::write(path, svg).map_err(|e| {
        Failure::Library(topoembed::Error::File(format!(
            "cannot write {}: {e}",
            path.display()
        )))
    })
}
