//! The lift lemma's bound (stated in [`crate::optimal::bounds::cuts`]' module docs): an
//! embedding whose coordinate on one axis lifts to the integers has a
//! Σ D_i of at least that axis's side − 1 plus the diameter of the torus
//! of the other sides. Its own module because both the cuts and the
//! winding cocycle ([`crate::optimal::bounds::cocycle`]) start from it.

/// The least Σ D_i of an embedding whose coordinate on `axis` lifts to
/// the integers, by the lift lemma ([`crate::optimal::bounds::cuts`]): k − 1 for the axis's side
/// k, plus the diameter of the torus of the other sides, Σ ⌊k_b/2⌋.
pub fn lift_bound(sides: &[u32], axis: usize) -> u32 {
    let others: u32 = sides
        .iter()
        .enumerate()
        .filter(|&(b, _)| b != axis)
        .map(|(_, &k)| k / 2)
        .sum();
    sides[axis].saturating_sub(1) + others
}
