//! `gray`: binary-reflected Gray code embeddings between power-of-two grids and
//! hypercubes (lecture notes on hypercubic permutations, §1-2).
//!
//! Grid -> cube: each axis's coordinate is replaced by its BRGC and the codes are
//! concatenated, axis 1 in the low bits (DESIGN.md numbering; the notes write
//! axis 1 first, i.e. in the high bits — reverse the axes to get their ranks).
//! Neighbours on every axis, wrap-around included, land on cube neighbours.
//!
//! Cube -> grid ("Gray order"): the inverse map, host node p holds guest btog(p)
//! per axis. It is the baseline a user tries first; its distances are not constant.

use super::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::bits::{field_top_bits, gtob, pow2_widths};
use crate::spec::Spec;
use crate::topology::Topology;

pub(super) const METHOD: Method = Method {
    name: "gray",
    guest: "ring, line, torus, mesh | cube:D",
    host: "cube:D | ring, line, torus, mesh",
    preconditions: "power-of-two sides, equal node counts",
    summary: "BRGC per axis, concatenated (lecture notes); grid->cube has dilation 1",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (grid, to_cube) = match (guest.spec(), host.spec()) {
        (g, Spec::Cube(_)) if g.grid().is_some() => (g, true),
        (Spec::Cube(_), h) if h.grid().is_some() => (h, false),
        _ => {
            return Err(
                "one side must be a hypercube (cube:D) and the other a ring, line, \
                        torus or mesh"
                    .into(),
            )
        }
    };
    same_node_count(guest, host)?;
    let (sides, _) = grid.grid().ok_or("not a grid")?;
    let widths = pow2_widths(sides).ok_or("every side must be a power of two")?;
    Ok(Box::new(FieldGray::new(&widths, to_cube)))
}

/// BRGC applied to every bit field of a node id (one field per grid axis).
#[derive(Debug, Clone)]
pub struct FieldGray {
    widths: Vec<u32>,
    /// All bits except the top bit of each field: where `x >> 1` may be xor-ed in.
    inner: u64,
    to_cube: bool,
}

impl FieldGray {
    /// `to_cube`: grid node -> cube node (btog per field); otherwise cube -> grid (gtob).
    pub fn new(widths: &[u32], to_cube: bool) -> FieldGray {
        let total: u32 = widths.iter().sum();
        let all = if total == 64 {
            u64::MAX
        } else {
            (1u64 << total) - 1
        };
        FieldGray {
            widths: widths.to_vec(),
            inner: all & !field_top_bits(widths),
            to_cube,
        }
    }

    /// btog on every field at once: a field's top bit never receives a bit from
    /// the field above it.
    #[inline]
    fn encode(&self, x: u64) -> u64 {
        x ^ ((x >> 1) & self.inner)
    }

    fn decode(&self, x: u64) -> u64 {
        let mut out = 0;
        let mut offset = 0;
        for &w in &self.widths {
            let mask = (1u64 << w) - 1;
            out |= gtob((x >> offset) & mask) << offset;
            offset += w;
        }
        out
    }
}

impl Embedding for FieldGray {
    fn method(&self) -> &'static str {
        "gray"
    }
    #[inline]
    fn map(&self, guest: u64) -> u64 {
        if self.to_cube {
            self.encode(guest)
        } else {
            self.decode(guest)
        }
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        Some(if self.to_cube {
            self.decode(host)
        } else {
            self.encode(host)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::btog;

    #[test]
    fn encode_is_btog_per_field() {
        let g = FieldGray::new(&[3, 2, 4, 1, 3], true);
        for x in 0..1u64 << 13 {
            let mut want = 0;
            let mut offset = 0;
            for w in [3, 2, 4, 1, 3] {
                want |= btog((x >> offset) & ((1 << w) - 1)) << offset;
                offset += w;
            }
            assert_eq!(g.map(x), want);
            assert_eq!(g.inverse(g.map(x)), Some(x));
        }
    }
}
