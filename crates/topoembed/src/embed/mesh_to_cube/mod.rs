//! Many-to-one embeddings of large meshes into small Boolean cubes
//! (Ho & Johnsson, *Embedding Meshes into Small Boolean Cubes*, 1990).
//! One file per strategy; so far `split` (Theorem 1, Lemma 2) and
//! `reshape` (Theorem 3).

mod reshape;
mod split;

pub(in crate::embed) use reshape::METHOD as RESHAPE;
pub use reshape::{reshape_dilation_bound, theorem3_dilation_bound, Reshape};
pub(in crate::embed) use split::METHOD as SPLIT;
pub use split::{Factoring, Split};

use crate::spec::Spec;

/// The axis lengths of a mesh or line guest, and the dimension of a cube
/// host; the reason otherwise.
pub(super) fn mesh_and_cube(guest: &Spec, host: &Spec) -> Result<(Vec<u64>, u32), String> {
    let lengths = match guest {
        Spec::Mesh(sides) => sides.clone(),
        Spec::Line(n) => vec![*n],
        _ => return Err("the guest must be a mesh (mesh:L0xL1x..) or a line".into()),
    };
    let Spec::Cube(n) = *host else {
        return Err("the host must be a hypercube (cube:n)".into());
    };
    Ok((lengths, n))
}
