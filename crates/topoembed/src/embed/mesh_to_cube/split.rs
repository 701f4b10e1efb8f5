//! `split` and `recursive`: Ho & Johnsson's Theorems 1, 2 and 4 and §6's
//! recursive halving. Each axis of an ℓ_0 x ℓ_1 x .. mesh is cut into
//! segments, and the segment grid goes into the n-cube: per axis by the
//! binary-reflected Gray code of the segment index in n_i dimensions (axis 1
//! in the low bits, as `gray` does), or round edge-disjoint Hamiltonian
//! cycles (`--hamiltonian`), or, for Theorem 2 cuts, one segment per node by
//! `reshape`. How the cut is chosen, and what it costs, is in
//! [`super::factoring`].
//!
//! Segments are **consecutive** (runs as equal as possible: the first
//! ℓ mod p of the p segments one longer) or **cyclic** (x in segment
//! x mod 2^(n_i); with e-cube routing the wrap from the last segment to the
//! first is one link too, as G(2^k − 1) and G(0) differ in one bit).

use super::super::{Embedding, Method, NotApplicable, Params, Partition, PerAxis};
use super::factoring::{Cut, Factoring, Rank};
use super::reshape::Reshape;
use super::{many_to_one, x_list};
use crate::bits::{btog, gtob};
use crate::hamiltonian;
use crate::topology::Topology;

pub(in crate::embed) const METHOD: Method = Method {
    name: "split",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one; --partition consecutive|cyclic, --hamiltonian",
    summary: "axes cut into segments placed by BRGC, dilation 1 (Ho & Johnsson Thm 1, 2, 4)",
    options: &["partition", "hamiltonian"],
    build,
};

pub(in crate::embed) const RECURSIVE: Method = Method {
    name: "recursive",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one",
    summary: "halve the longest axis again and again: least load at dilation 1 (Ho & Johnsson §6)",
    options: &[],
    build: build_recursive,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = many_to_one(guest, host)?;
    let cut = Cut {
        partition: params.partition,
        hamiltonian: params.hamiltonian,
    };
    let factoring = Factoring::search(&lengths, n, cut, Rank::Load)?;
    if cut.hamiltonian && factoring.cycles.iter().all(|&h| h < 2) {
        return Err(format!(
            "--hamiltonian needs an axis in a subcube of 4 or more dimensions (two or more \
             edge-disjoint cycles); the best cut gives the axes {:?} dimensions",
            factoring.bits
        ));
    }
    Ok(Box::new(Split::new(&lengths, &factoring, "split")?))
}

fn build_recursive(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = many_to_one(guest, host)?;
    let factoring = Factoring::recursive(&lengths, n, Cut::default());
    Ok(Box::new(Split::new(&lengths, &factoring, "recursive")?))
}

/// One axis of a split.
#[derive(Debug, Clone)]
struct AxisCut {
    length: u64,
    /// Cube dimensions of the axis, and where they start in a node label.
    bits: u32,
    offset: u32,
    /// Consecutive segments.
    parts: u64,
    /// Hamiltonian cycles it goes round (1: the Gray code).
    cycles: u64,
    /// With cycles ≥ 2: node `table[c << bits | k]` is position k of cycle c.
    table: Vec<u64>,
}

/// A cut of the axes (a [`Factoring`]) as an embedding.
#[derive(Debug, Clone)]
pub struct Split {
    method: &'static str,
    axes: Vec<AxisCut>,
    /// Theorem 2: the segment grid placed by `reshape`.
    grid: Option<Reshape>,
    factoring: Factoring,
}

impl Split {
    /// The embedding `factoring` describes, named `method`; an error when
    /// its Hamiltonian cycles would be too large to list.
    pub fn new(
        lengths: &[u64],
        factoring: &Factoring,
        method: &'static str,
    ) -> Result<Split, String> {
        let mut offset = 0;
        let mut axes = Vec::with_capacity(lengths.len());
        for (i, &length) in lengths.iter().enumerate() {
            let (bits, cycles) = (factoring.bits[i], factoring.cycles[i]);
            let table = if cycles >= 2 {
                let found = hamiltonian::cycles(bits).map_err(|e| e.to_string())?;
                found.into_iter().take(cycles as usize).flatten().collect()
            } else {
                Vec::new()
            };
            axes.push(AxisCut {
                length,
                bits,
                offset,
                parts: factoring.parts[i],
                cycles: u64::from(cycles),
                table,
            });
            offset += bits;
        }
        let grid = factoring
            .grid_bits
            .map(|bits| Reshape::new(&factoring.parts, bits));
        Ok(Split {
            method,
            axes,
            grid,
            factoring: factoring.clone(),
        })
    }

    /// The cut it was built from.
    pub fn factoring(&self) -> &Factoring {
        &self.factoring
    }

    /// Cube label bits of unit `unit` of `axis` (per-axis placement).
    #[inline]
    fn place(axis: &AxisCut, unit: u64) -> u64 {
        let position = unit & ((1 << axis.bits) - 1);
        if axis.cycles < 2 {
            btog(position)
        } else {
            let cycle = (unit >> axis.bits) % axis.cycles;
            axis.table[((cycle << axis.bits) | position) as usize]
        }
    }
}

impl Embedding for Split {
    fn method(&self) -> &'static str {
        self.method
    }
    fn map(&self, guest: u64) -> u64 {
        let mut rest = guest;
        if let Some(grid) = &self.grid {
            // Segment coordinates as a node number of the segment grid.
            let (mut index, mut weight) = (0, 1);
            for axis in &self.axes {
                let x = rest % axis.length;
                rest /= axis.length;
                index += segment(x, axis.length, axis.parts) * weight;
                weight *= axis.parts;
            }
            return grid.map(index);
        }
        let mut node = 0;
        for (i, axis) in self.axes.iter().enumerate() {
            let x = rest % axis.length;
            rest /= axis.length;
            node |= self.image(i, x) << axis.offset;
        }
        node
    }
    /// One-to-one only when every segment is one element and the cut is
    /// per axis by Gray codes (then it is `gray`).
    fn inverse(&self, host: u64) -> Option<u64> {
        let one_each = self
            .axes
            .iter()
            .all(|a| a.parts == a.length && a.cycles < 2);
        if !one_each || self.grid.is_some() {
            return None;
        }
        let mut guest = 0;
        for axis in self.axes.iter().rev() {
            let x = gtob((host >> axis.offset) & ((1 << axis.bits) - 1));
            if x >= axis.length {
                return None;
            }
            guest = guest * axis.length + x;
        }
        let used: u32 = self.axes.iter().map(|a| a.bits).sum();
        (host >> used == 0).then_some(guest)
    }
    fn per_axis(&self) -> Option<&dyn PerAxis> {
        self.grid.is_none().then_some(self as &dyn PerAxis)
    }
    fn notes(&self) -> Vec<String> {
        let f = &self.factoring;
        let lengths: Vec<u64> = self.axes.iter().map(|a| a.length).collect();
        let mut notes = vec![describe(&lengths, f)];
        if let Some(grid) = &self.grid {
            notes.push(format!(
                "Theorem 2 cut: the {} segment grid goes one segment per node by reshape \
                 (dilation <= {}, Theorem 3); {} nodes unused",
                x_list(&f.parts),
                grid.bound().holds,
                f.unused
            ));
        }
        notes
    }
}

impl PerAxis for Split {
    fn field(&self, axis: usize) -> (u32, u32) {
        (self.axes[axis].offset, self.axes[axis].bits)
    }
    fn image(&self, axis: usize, x: u64) -> u64 {
        let a = &self.axes[axis];
        let unit = match self.factoring.cut.partition {
            Partition::Cyclic => x,
            Partition::Consecutive => segment(x, a.length, a.parts),
        };
        Self::place(a, unit)
    }
}

/// "cube configured 2x8 (dimensions [1, 3]), partitions 50x40, load 2000,
/// predicted congestion 50".
pub(super) fn describe(lengths: &[u64], f: &Factoring) -> String {
    let pieces: Vec<u64> = lengths
        .iter()
        .zip(&f.parts)
        .map(|(&l, &p)| l.div_ceil(p))
        .collect();
    let mut text = if f.grid_bits.is_some() {
        format!("segments {}", x_list(&f.parts))
    } else {
        let shape: Vec<u64> = f.bits.iter().map(|&b| 1 << b).collect();
        format!(
            "cube configured {} (dimensions {:?})",
            x_list(&shape),
            f.bits
        )
    };
    text.push_str(&format!(
        ", partitions up to {}, load {}",
        x_list(&pieces),
        f.load_factor
    ));
    if let Some(c) = f.congestion {
        text.push_str(&format!(", predicted congestion {c}"));
    }
    if f.cycles.iter().any(|&h| h >= 2) {
        text.push_str(&format!(", Hamiltonian cycles per axis {:?}", f.cycles));
    }
    text
}

/// Segment of element `x` of an axis of `length` cut into `parts`
/// consecutive runs, the first `length mod parts` one longer.
#[inline]
fn segment(x: u64, length: u64, parts: u64) -> u64 {
    let (q, r) = (length / parts, length % parts);
    if x < r * (q + 1) {
        x / (q + 1)
    } else {
        r + (x - r * (q + 1)) / q
    }
}
