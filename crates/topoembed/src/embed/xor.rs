//! `xor`: the xor embedding of a d-cube onto a ring (xor paper §3) and onto a
//! (2^d1 x .. x 2^dc) torus (§4).
//!
//! On axis j, holding cube bits K_j .. K_j + d_j - 1, the torus coordinate m_j
//! copies those bits except bit d_j - 2, which becomes
//! XOR(n(K_j + d_j - 1), n(K_j + d_j - 2)). Over all axes at once that is
//! `f(n) = n ^ ((n & M) >> 1)` with M the top bit of every axis with d_j >= 2
//! (an axis with d_j = 1 is left as it is). f keeps the top bits, so f is its
//! own inverse. Distances (ring): D_i = 2^i for i <= d-2, D_{d-1} = 2^(d-2).

use super::{same_node_count, Embedding, Method, NotApplicable, Params};
use crate::bits::pow2_widths;
use crate::spec::Spec;
use crate::topology::Topology;

pub(super) const METHOD: Method = Method {
    name: "xor",
    guest: "cube:D",
    host: "ring, torus",
    preconditions: "host has 2^D nodes, power-of-two sides; D >= 2 on a ring",
    summary: "bit d_j-2 of each axis xor-ed with bit d_j-1 (xor paper §3-4); optimal on rings",
    options: &[],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    _params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    if !matches!(guest.spec(), Spec::Cube(_)) {
        return Err("the guest must be a hypercube (cube:D)".into());
    }
    let (Some(sides), Some(true)) = (host.spec().sides(), host.spec().uniform_wrap()) else {
        return Err(
            "the host must be a ring or torus (on lines and meshes the standard \
                    embedding is already optimal, xor paper §2.2)"
                .into(),
        );
    };
    same_node_count(guest, host)?;
    let widths = pow2_widths(sides).ok_or("every host side must be a power of two")?;
    if widths.len() == 1 && widths[0] < 2 {
        return Err("the xor embedding onto a ring needs D >= 2 (ring:2 is cube:1 itself)".into());
    }
    Ok(Box::new(Xor::new(&widths)))
}

/// The xor embedding for axes of `widths` bits each (axis 1 in the low bits).
#[derive(Debug, Clone, Copy)]
pub struct Xor {
    top_bits: u64,
}

impl Xor {
    /// Xor embedding onto a torus whose axis j has 2^`widths[j]` nodes.
    pub fn new(widths: &[u32]) -> Xor {
        let mut top_bits = 0;
        let mut offset = 0;
        for &w in widths {
            // An axis of one bit has no bit d_j - 2 to change.
            if w >= 2 {
                top_bits |= 1 << (offset + w - 1);
            }
            offset += w;
        }
        Xor { top_bits }
    }
}

impl Embedding for Xor {
    fn method(&self) -> &'static str {
        "xor"
    }
    fn axis_product(&self) -> bool {
        true
    }
    fn journal(&self) -> Option<crate::closed_form::Journal> {
        Some(crate::closed_form::Journal::Xor)
    }
    #[inline]
    fn map(&self, guest: u64) -> u64 {
        guest ^ ((guest & self.top_bits) >> 1)
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        Some(self.map(host))
    }
}
