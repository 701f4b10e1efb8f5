//! One distance vector decided (`topoembed optimal --distances D0,..`):
//! is there a constant-distance embedding of the d-cube with dimension i
//! at distance D_i (xor paper §2.2)? The bounds of the search by vectors
//! ([`crate::optimal::search::vectors`]) answer first; a vector they leave goes to the
//! branch and bound and the SAT solver in turns, as there, after the
//! probes of [`crate::optimal::search::cores`] (where the branch and bound takes turns).
//!
//! Only the multiset of distances matters (permuting the cube's
//! dimensions permutes the D_i), so the vector is decided ascending and
//! the embedding found is given back in the order asked.

use std::time::Instant;

use crate::error::{Error, Result};
use crate::optimal::bounds::cuts::{Bounds, Cuts};
use crate::optimal::host::bipartite;
use crate::optimal::search::constant::{prepare, Prepared, SearchOptions};
use crate::optimal::search::cores::Cores;
use crate::optimal::search::turns::{Decider, Decision};
use crate::optimal::search::vectors::{winding_form, Refuted, Turns};
use crate::spec::Spec;

/// What became of the vector.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum VectorAnswer {
    /// An embedding: the host node of every cube node (dimension i at the
    /// i-th distance asked).
    Embedding { map: Vec<u64> },
    /// No embedding: the bounds rule the vector out (see [`Bounds`]).
    RuledOut { bounds: &'static str },
    /// No embedding: decided, by the branch and bound or the solver.
    Refuted { refuted: Refuted },
    /// Stopped (Ctrl-C) before an answer.
    Stopped,
}

/// The vector asked, and what became of it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct VectorDecision {
    pub guest: String,
    pub host: String,
    /// D_0..D_{d−1} as asked.
    pub distances: Vec<u32>,
    pub sum: u32,
    #[serde(flatten)]
    pub answer: VectorAnswer,
    pub seconds: f64,
}

/// Decides whether cube:`d` embeds in `host` with dimension i at distance
/// `distances[i]`; `options.stop` ends it early ([`VectorAnswer::Stopped`]).
///
/// The cube may be smaller than the host (a *sub-cube*, one-to-one into
/// it): then only the sub-cube bounds of its prefixes apply (the other
/// bounds and the solver's formula are about cubes filling the host) and
/// the branch and bound decides alone — how a core
/// ([`Refuted::core`]) is checked on its own.
pub fn decide_vector(
    d: u32,
    host: &Spec,
    distances: &[u32],
    options: &SearchOptions,
    turns: Turns,
    bounds: Bounds,
) -> Result<VectorDecision> {
    let started = Instant::now();
    let filled = host_dimension(host).unwrap_or(d);
    let sub_cube = d < filled;
    if sub_cube && turns.search_nodes == 0 {
        return Err(Error::Parameter(format!(
            "--distances: cube:{d} is smaller than {host}, and the solver only places cubes that \
             fill the host; decide it by the branch and bound (--decide-by search or turns)"
        )));
    }
    let Prepared {
        h, prefix_bound, ..
    } = prepare(if sub_cube { filled } else { d }, host)?;
    if distances.len() != d as usize {
        return Err(Error::Parameter(format!(
            "--distances: cube:{d} has {d} dimensions, and {} distances were given",
            distances.len()
        )));
    }
    let diameter = u32::from(h.diameter());
    if let Some(&bad) = distances.iter().find(|&&x| x == 0 || x > diameter) {
        return Err(Error::Parameter(format!(
            "--distances: {bad} is not a distance between two nodes of {host} (1 to {diameter})"
        )));
    }
    // Ascending, with the dimension each entry was asked for.
    let mut order: Vec<usize> = (0..distances.len()).collect();
    order.sort_by_key(|&i| distances[i]);
    let dims: Vec<u32> = order.iter().map(|&i| distances[i]).collect();
    let sides = crate::optimal::host::torus_sides(filled.max(d), host)?;
    let mut cuts = Cuts::new(&h, bounds, &sides);
    let prefix_bound = &prefix_bound[..dims.len()];
    let ruled_out = if sub_cube {
        !meets_prefix_bounds(prefix_bound, &dims)
    } else {
        !admitted(prefix_bound, &mut cuts, &dims)
    };
    let answer = if ruled_out {
        VectorAnswer::RuledOut {
            bounds: if sub_cube { "counting" } else { bounds.name() },
        }
    } else {
        let cores = Cores::new(turns.search_nodes > 0, &[]);
        let decider = Decider {
            h: &h,
            prefix_bound,
            form: (bipartite(host), winding_form(bounds)),
            certificate: None,
            core_proofs: &Default::default(),
            cores: &cores,
            stop: options.stop,
            learned: Default::default(),
        };
        // The solver's formula fills the host: no turns of its own here.
        let proof_bytes = if sub_cube { 0 } else { turns.proof_bytes };
        let turns = Turns {
            proof_bytes,
            ..turns
        };
        let decision = decider.decide(&dims, turns)?;
        crate::progress::advance(options.progress, 1);
        match decision {
            Decision::Embedding(place) => VectorAnswer::Embedding {
                map: in_asked_order(&place, &order),
            },
            Decision::Refuted(refuted) => VectorAnswer::Refuted { refuted },
            Decision::Stopped | Decision::Undecided => VectorAnswer::Stopped,
        }
    };
    Ok(VectorDecision {
        guest: Spec::Cube(d).to_string(),
        host: host.to_string(),
        distances: distances.to_vec(),
        sum: distances.iter().sum(),
        answer,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The log2 of the nodes of a ring or torus whose node count is a power of
/// two (none for other hosts: [`prepare`] says what is wrong with them).
fn host_dimension(host: &Spec) -> Option<u32> {
    let nodes: u128 = match host {
        Spec::Ring(k) => u128::from(*k),
        Spec::Torus(s) => s.iter().map(|&k| u128::from(k)).product(),
        _ => return None,
    };
    nodes.is_power_of_two().then(|| nodes.trailing_zeros())
}

/// Whether every prefix of the ascending `dims` meets its sub-cube bound
/// (`prefix_bound[k]` for D_0..D_k): the counting bounds, which hold for
/// any cube placed one-to-one, filling the host or not.
fn meets_prefix_bounds(prefix_bound: &[u32], dims: &[u32]) -> bool {
    let mut partial = 0;
    dims.iter().zip(prefix_bound).all(|(&dk, &bound)| {
        partial += dk;
        partial >= bound
    })
}

/// Whether the search by vectors would list the ascending `dims`: the
/// conditions of [`crate::optimal::search::vectors::vectors_with_sum`] along its one path
/// (every prefix meets its sub-cube bound, the axis lemmas' cap on the
/// first d − 2 entries, and the cuts).
pub(in crate::optimal) fn admitted(prefix_bound: &[u32], cuts: &mut Cuts, dims: &[u32]) -> bool {
    let d = dims.len();
    let s: u32 = dims.iter().sum();
    let mut partial = 0;
    for (k, &dk) in dims.iter().enumerate() {
        if partial + dk < prefix_bound[k] || !cuts.admits(&dims[..k], dk) {
            return false;
        }
        partial += dk;
    }
    let capped = match cuts.axis_cap(d, s) {
        None => true,
        Some(None) => false,
        Some(Some(cap)) => {
            d < 3 || dims[..d - 2].iter().sum::<u32>().max(prefix_bound[d - 3]) <= cap
        }
    };
    capped && cuts.admits_vector(dims)
}

/// The map of the ascending vector's embedding (`place`) with the cube's
/// dimensions put back in the order asked: dimension `order[j]` asked is
/// dimension j decided.
fn in_asked_order(place: &[u16], order: &[usize]) -> Vec<u64> {
    (0..place.len())
        .map(|asked| {
            let decided = order
                .iter()
                .enumerate()
                .filter(|&(_, &i)| asked >> i & 1 == 1)
                .fold(0usize, |c, (j, _)| c | 1 << j);
            u64::from(place[decided])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::search::vectors::tests::SMALL_TORI;
    use crate::optimal::search::vectors::vectors_with_sum;

    /// Every ascending vector of `d` entries from 1 to `top` with sum `s`.
    fn ascending(d: usize, top: u32, s: u32) -> Vec<Vec<u32>> {
        fn go(d: usize, low: u32, top: u32, s: u32, v: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if v.len() == d {
                if s == 0 {
                    out.push(v.clone());
                }
                return;
            }
            for x in low..=top.min(s) {
                v.push(x);
                go(d, x, top, s - x, v, out);
                v.pop();
            }
        }
        let mut out = Vec::new();
        go(d, 1, top, s, &mut Vec::new(), &mut out);
        out
    }

    /// Every ascending vector, sum by sum, is admitted exactly when the
    /// search by vectors lists it, under every bounds.
    #[test]
    fn admitted_vectors_are_the_listed_ones() {
        let mut listed_any = [0usize; 4];
        for sides in SMALL_TORI
            .iter()
            .copied()
            .chain([&[16u32][..], &[32], &[4, 4, 4]])
        {
            let d = sides.iter().product::<u32>().trailing_zeros();
            let host = Spec::Torus(sides.iter().map(|&k| u64::from(k)).collect());
            let Prepared {
                h, prefix_bound, ..
            } = prepare(d, &host).unwrap();
            let top = u32::from(h.diameter());
            let bounds = [
                Bounds::Counting,
                Bounds::SmallCubes,
                Bounds::All,
                Bounds::Lift,
            ];
            for (b, bounds) in bounds.into_iter().enumerate() {
                let mut cuts = Cuts::new(&h, bounds, sides);
                for s in d..=(top * d).min(40) {
                    let listed = vectors_with_sum(&prefix_bound, top, s, &mut cuts);
                    listed_any[b] += listed.len();
                    for v in ascending(d as usize, top, s) {
                        assert_eq!(
                            admitted(&prefix_bound, &mut cuts, &v),
                            listed.contains(&v),
                            "{sides:?} {bounds:?} {v:?}"
                        );
                    }
                }
            }
        }
        // Each bounds lists some vectors and cuts more than the last.
        assert!(listed_any.windows(2).all(|w| w[0] > w[1]), "{listed_any:?}");
        assert!(listed_any[3] > 0);
    }

    #[test]
    fn the_map_is_given_back_in_the_order_asked() {
        // Asked (4, 1): decided (1, 4), so asked dimension 0 is decided 1.
        let place: Vec<u16> = vec![10, 11, 12, 13];
        assert_eq!(in_asked_order(&place, &[1, 0]), [10, 12, 11, 13]);
        assert_eq!(in_asked_order(&place, &[0, 1]), [10, 11, 12, 13]);
    }
}
