//! Many-to-one embeddings of large meshes into small Boolean cubes
//! (Ho & Johnsson, *Embedding Meshes into Small Boolean Cubes*, 1990).
//! One file per strategy: `split` and `recursive` (Theorems 1, 2, 4, §6;
//! the cut search in `factoring`), `reshape` (Theorem 3), `combine` (§4),
//! `auto` (the decision procedure of §6).

mod auto;
mod combine;
mod factoring;
mod reshape;
mod split;

pub(in crate::embed) use auto::METHOD as AUTO;
pub(in crate::embed) use combine::METHOD as COMBINE;
pub use combine::{Combine, CombinePlan};
pub use factoring::{Cut, Factoring, Rank, MAX_CANDIDATES};
pub(in crate::embed) use reshape::METHOD as RESHAPE;
pub use reshape::{reshape_dilation_bound, theorem3_dilation_bound, Reshape};
pub use split::Split;
pub(in crate::embed) use split::{METHOD as SPLIT, RECURSIVE};

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

/// The axis lengths and cube dimension of a pair the many-to-one
/// strategies take: a mesh with at least as many elements as cube nodes.
pub(super) fn many_to_one(
    guest: &dyn crate::topology::Topology,
    host: &dyn crate::topology::Topology,
) -> Result<(Vec<u64>, u32), String> {
    let (lengths, n) = mesh_and_cube(guest.spec(), host.spec())?;
    check_many_to_one(&lengths, n)?;
    Ok((lengths, n))
}

/// The strategies that put several elements on a node want at least one
/// element per node: a cube with more nodes than the mesh has elements is
/// too large for them (`reshape` and the one-to-one methods take it).
fn check_many_to_one(lengths: &[u64], n: u32) -> Result<(), String> {
    let elements: u64 = lengths.iter().product();
    if elements < 1u64 << n {
        let fits = 63 - elements.leading_zeros();
        return Err(format!(
            "the mesh has {elements} elements, fewer than the {} nodes of the {n}-cube; \
             use cube:{fits} or smaller, or reshape",
            1u64 << n
        ));
    }
    Ok(())
}

/// §6: M = M1 x M2 with every axis of M1 a power of two and every axis of
/// M2 odd: M(100, 200) = M1(4, 8) x M2(25, 25).
pub fn decompose(lengths: &[u64]) -> (Vec<u64>, Vec<u64>) {
    lengths
        .iter()
        .map(|&l| {
            let two = 1u64 << l.trailing_zeros();
            (two, l / two)
        })
        .unzip()
}

/// "4x8": lengths as a spec writes them.
pub(super) fn x_list(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join("x")
}
