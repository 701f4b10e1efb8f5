//! Unit propagation on the window lemma's band formula ([`crate::optimal::bounds::band`]),
//! run on sets of cells instead of clauses.
//!
//! The band formula has a variable per (kept cube node, cell it may take),
//! "exactly one" per node and per class, and for every kept edge the
//! support clause ¬x(c, p) ∨ ∨_{q near p} x(c ⊕ e_i, q). Unit propagation
//! on it is: a cell goes from a node's set when no cell of its neighbour's
//! set across some dimension is D_i away (arc consistency); a node left
//! with one cell takes its class from every other node; a class that one
//! (node, cell) alone can still take gets it; an empty set or an untaken
//! class is a conflict. On torus:128x8 unit propagation alone refutes every
//! one of the 983 band formulas the lift lemma leaves below xor's 100
//! (docs/src/optimal.md, *Certificates*); here the same reasoning runs on 64-bit words,
//! without building a clause, and a refutation is final: propagation only
//! removes what no solution has. What it does not refute goes on to the
//! branch and bound and the solver as before.

use crate::optimal::bounds::band::Band;
use crate::optimal::host::SearchHost;
use crate::optimal::search::core_search::ones;

/// Cells as bits, `words` 64-bit words a set.
struct CellSets {
    words: usize,
}

impl CellSets {
    fn set(&self, sets: &mut [u64], k: usize, cell: usize) {
        sets[k * self.words + cell / 64] |= 1 << (cell % 64);
    }
    fn get<'a>(&self, sets: &'a [u64], k: usize) -> &'a [u64] {
        &sets[k * self.words..(k + 1) * self.words]
    }
}

fn count(bits: &[u64]) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

fn first(bits: &[u64]) -> Option<usize> {
    bits.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
}

/// Whether unit propagation on `dims`' band formula on `h` (as
/// [`crate::optimal::bounds::band::formula`] writes it) ends in a conflict: then no
/// embedding has these distances.
pub(in crate::optimal) fn refutes(
    h: &SearchHost,
    dims: &[u32],
    bipartite: bool,
    band: &Band,
) -> bool {
    let n = h.nodes();
    let cells = band.cells();
    let sets = CellSets {
        words: cells.div_ceil(64),
    };
    let w = sets.words;
    // The kept cube nodes, numbered in a slot each.
    let kept: Vec<usize> = (0..n).filter(|&c| band.fold.kept(c)).collect();
    let mut slot = vec![usize::MAX; n];
    for (s, &c) in kept.iter().enumerate() {
        slot[c] = s;
    }
    let mut domain = vec![0u64; kept.len() * w];
    for (s, &c) in kept.iter().enumerate() {
        for cell in band.allowed(dims, bipartite, c) {
            sets.set(&mut domain, s, cell);
        }
    }
    // Per kept dimension, the cells D_i from each cell.
    let edges = band.edges(h, dims);
    let mut near = vec![0u64; edges.len() * cells * w];
    for (e, &(_, r, slack)) in edges.iter().enumerate() {
        for cell in 0..cells {
            for q in band.neighbours(cell, r, slack) {
                sets.set(&mut near, e * cells + cell, q);
            }
        }
    }
    let class_of: Vec<usize> = (0..cells).map(|cell| band.class(cell)).collect();
    let mut class_cells = vec![0u64; band.classes() * w];
    for (cell, &k) in class_of.iter().enumerate() {
        sets.set(&mut class_cells, k, cell);
    }

    let mut queue: std::collections::VecDeque<usize> = (0..kept.len()).collect();
    let mut queued = vec![true; kept.len()];
    let mut fixed = vec![false; kept.len()];
    let mut support = vec![0u64; w];
    loop {
        while let Some(s) = queue.pop_front() {
            queued[s] = false;
            let mine = sets.get(&domain, s).to_vec();
            match count(&mine) {
                0 => return true,
                1 if !fixed[s] => {
                    // At most one node per class: the others lose this one.
                    fixed[s] = true;
                    let class = sets
                        .get(&class_cells, class_of[first(&mine).unwrap_or(0)])
                        .to_vec();
                    for t in (0..kept.len()).filter(|&t| t != s) {
                        let theirs = &mut domain[t * w..(t + 1) * w];
                        if theirs.iter().zip(&class).any(|(a, b)| a & b != 0) {
                            theirs.iter_mut().zip(&class).for_each(|(a, b)| *a &= !b);
                            if theirs.iter().all(|&a| a == 0) {
                                return true;
                            }
                            if !queued[t] {
                                queued[t] = true;
                                queue.push_back(t);
                            }
                        }
                    }
                }
                _ => {}
            }
            // Every neighbour keeps only cells with a support in this set.
            for (e, &(i, _, _)) in edges.iter().enumerate() {
                support.fill(0);
                for q in ones(&mine) {
                    let row = sets.get(&near, e * cells + q);
                    support.iter_mut().zip(row).for_each(|(a, b)| *a |= b);
                }
                let t = slot[kept[s] ^ (1 << i)];
                let theirs = &mut domain[t * w..(t + 1) * w];
                let mut changed = false;
                for (a, b) in theirs.iter_mut().zip(&support) {
                    changed |= *a & !b != 0;
                    *a &= b;
                }
                if changed {
                    if theirs.iter().all(|&a| a == 0) {
                        return true;
                    }
                    if !queued[t] {
                        queued[t] = true;
                        queue.push_back(t);
                    }
                }
            }
        }
        // Every class taken: one untaken is a conflict, one that a single
        // (node, cell) can take gets it.
        let (mut once, mut twice) = (vec![0u64; w], vec![0u64; w]);
        for s in 0..kept.len() {
            for ((o, t), &d) in once
                .iter_mut()
                .zip(twice.iter_mut())
                .zip(sets.get(&domain, s))
            {
                *t |= *o & d;
                *o |= d;
            }
        }
        let mut progress = false;
        for k in 0..band.classes() {
            let class = sets.get(&class_cells, k);
            if class.iter().zip(&twice).any(|(a, b)| a & b != 0) {
                continue;
            }
            let only: Vec<u64> = class.iter().zip(&once).map(|(a, b)| a & b).collect();
            match count(&only) {
                0 => return true,
                1 => {
                    let cell = first(&only).unwrap_or(0);
                    let Some(s) = (0..kept.len())
                        .find(|&s| domain[s * w + cell / 64] >> (cell % 64) & 1 == 1)
                    else {
                        return true;
                    };
                    let theirs = &mut domain[s * w..(s + 1) * w];
                    if count(theirs) > 1 {
                        theirs.fill(0);
                        sets.set(&mut domain, s, cell);
                        progress = true;
                        if !queued[s] {
                            queued[s] = true;
                            queue.push_back(s);
                        }
                    }
                }
                _ => {}
            }
        }
        if !progress {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::bounds::band::tests::below_the_lift_bound;
    use crate::optimal::bounds::band::{formula, window_of, Window};
    use crate::optimal::bounds::cuts::Bounds;

    #[test]
    fn what_it_refutes_unit_propagation_refutes_and_no_embedding_is_lost() {
        // Every vector the counting bounds leave below the lift bound on
        // nine small tori whose formula has a band: where the propagation
        // here ends in a conflict, the empty clause alone is a DRAT proof
        // of the band formula (so unit propagation on its clauses refutes
        // it too, and the refutation is sound); no vector the solver embeds
        // is refuted.
        let mut seen = [0usize; 3]; // refuted here, left (refuted by the solver), embedded
        let mut proof = Vec::new();
        crate::optimal::proof::drat::write_step(&mut proof, b'a', &[]).unwrap();
        for (sides, vectors) in below_the_lift_bound() {
            let h = SearchHost::new(&sides);
            for dims in vectors {
                let Some(Window::Band(band)) = window_of(&h, &dims) else {
                    continue;
                };
                let refuted = refutes(&h, &dims, true, &band);
                let cnf = formula(&h, &dims, true, &band).cnf;
                let embeds = matches!(
                    crate::optimal::bounds::band::decide(&h, &dims, true, None),
                    Some(Ok(crate::optimal::proof::sat::Answer::Embedding(_)))
                );
                if refuted {
                    assert!(!embeds, "{sides:?} {dims:?}: an embedding refuted");
                    crate::optimal::proof::drat::check(&cnf, &proof)
                        .unwrap_or_else(|e| panic!("{sides:?} {dims:?}: {e}"));
                }
                seen[if refuted {
                    0
                } else if embeds {
                    2
                } else {
                    1
                }] += 1;
            }
        }
        // Of the band formulas' 179 refuted and 156 embedded
        // (`band::tests`), propagation alone refutes 144 (measured).
        assert_eq!(seen, [144, 35, 156]);
    }

    #[test]
    fn it_refutes_the_band_formulas_of_torus_128x8() {
        // The book's claim (docs/src/optimal.md) (every one of the 983 vectors the lift lemma
        // leaves below xor's 100 on torus:128x8 is refuted by unit
        // propagation on its band), on a sample of them, each also
        // checked as a one-step DRAT proof.
        let sides = [128u32, 8];
        let h = SearchHost::new(&sides);
        let vectors = crate::optimal::search::vectors::candidate_vectors(
            10,
            &"torus:128x8".parse().unwrap(),
            Bounds::Lift,
        )
        .unwrap();
        assert_eq!(vectors.len(), 983);
        let mut proof = Vec::new();
        crate::optimal::proof::drat::write_step(&mut proof, b'a', &[]).unwrap();
        for dims in vectors.iter().step_by(97) {
            let Some(Window::Band(band)) = window_of(&h, dims) else {
                panic!("{dims:?}: no band");
            };
            assert!(refutes(&h, dims, true, &band), "{dims:?}");
            let cnf = formula(&h, dims, true, &band).cnf;
            crate::optimal::proof::drat::check(&cnf, &proof)
                .unwrap_or_else(|e| panic!("{dims:?}: {e}"));
        }
    }
}
