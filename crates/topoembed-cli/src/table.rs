//! Plain aligned text tables.

use std::io::{self, Write};

/// Rows of cells printed with every column padded to its widest cell.
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose first row is `header`.
    pub fn new<S: ToString>(header: &[S]) -> Table {
        Table {
            rows: vec![header.iter().map(S::to_string).collect()],
        }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Writes the table, two spaces between columns, no trailing blanks.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        self.write_from(0, out)
    }

    /// Writes the rows without the header (key-value tables).
    pub fn write_body(&self, out: &mut dyn Write) -> io::Result<()> {
        self.write_from(1, out)
    }

    fn write_from(&self, first: usize, out: &mut dyn Write) -> io::Result<()> {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for row in &self.rows[first.min(self.rows.len())..] {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c + 1 == row.len() {
                    line.push_str(cell);
                } else {
                    line.push_str(&format!("{cell:<w$}  ", w = widths[c]));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// A number as people read it: integers without ".0", others to 4 decimals.
pub fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
