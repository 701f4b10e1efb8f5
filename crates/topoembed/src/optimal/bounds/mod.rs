//! Lower bounds and lemmas that rule distance vectors out, or shrink the
//! formulas that decide them — each file one lemma, stated and proved in
//! its module docs:
//!
//! * [`lift`], [`cuts`]: the lift lemma and the axis lemmas (with the
//!   counting bounds, which vectors a search may skip);
//! * [`windings`], [`cocycle`]: the winding lemma, for one pair and for any
//!   number of pairs;
//! * [`halving`], [`pin`], [`band`]: the halving lemma, the slack window
//!   and the window lemma, which fold or confine a vector's formula;
//! * [`energy`]: the energy lemma, a sub-cube that lifts to the plane
//!   spread by its distances no wider than the Poincaré inequality on the
//!   cube allows, and no tighter than distinct lattice points allow;
//! * [`wirelength`]: what the published least wirelength implies — cited,
//!   never used to decide.
//!
//! Nothing here searches: the certificate checker
//! ([`super::certificate::verify`]) re-applies these bounds.

pub mod band;
pub mod cocycle;
pub mod cuts;
pub mod energy;
pub mod halving;
pub(in crate::optimal) mod lift;
pub mod pin;
pub mod windings;
pub mod wirelength;
