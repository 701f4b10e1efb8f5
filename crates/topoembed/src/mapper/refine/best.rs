//! The best placement an annealing chain has met ([`super::anneal`]),
//! brought up to date at each new best by the vertices moved since the
//! last one instead of copied whole. A chain that cools finds a new best
//! every few exchanges taken, and a copy of a large quotient's placement at
//! each was most of what the best cost: delaunay_n15 one vertex per node
//! onto torus:32x32x32 (32 768 vertices, one thread) spent 3.7 % of the
//! whole map copying it.

/// The best placement met (host node per vertex) and the vertices moved
/// since it was last brought up to date, each listed once.
#[derive(Clone)]
pub struct Best {
    place: Vec<u32>,
    moved: Vec<u32>,
    listed: Vec<bool>,
}

/// Where more than one vertex in this many moved since the last best, the
/// placement is copied whole: one sequential copy beats that many
/// scattered stores.
const COPY_ABOVE: usize = 8;

impl Best {
    /// The best met so far: `place` as it starts.
    pub fn new(place: &[u32]) -> Best {
        Best {
            place: place.to_vec(),
            moved: Vec::new(),
            listed: vec![false; place.len()],
        }
    }

    /// Vertex v has moved since the best was last brought up to date.
    #[inline]
    pub fn moved(&mut self, v: u32) {
        let listed = &mut self.listed[v as usize];
        if !*listed {
            *listed = true;
            self.moved.push(v);
        }
    }

    /// `place` is the new best: the vertices moved since the last one take
    /// their nodes from it (every other vertex already has its node).
    pub fn keep(&mut self, place: &[u32]) {
        let whole = self.moved.len() * COPY_ABOVE > self.place.len();
        if whole {
            self.place.copy_from_slice(place);
        }
        for &v in &self.moved {
            if !whole {
                self.place[v as usize] = place[v as usize];
            }
            self.listed[v as usize] = false;
        }
        self.moved.clear();
    }

    /// The best placement met.
    pub fn place(&self) -> &[u32] {
        &self.place
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::rng::Rng;

    proptest::proptest! {
        /// Kept up to date by the moved vertices, the best is the copy
        /// taken at each new best: random walks of swaps on random sizes,
        /// a new best at random steps, few or many moves between them (both
        /// the scattered stores and the whole copy).
        #[test]
        fn the_best_is_the_placement_copied_at_each_new_best(
            n in 1usize..300,
            steps in 0usize..2000,
            every in 1usize..400,
            seed in 0u64..1000,
        ) {
            let mut rng = Rng::new(seed, 0);
            let mut on: Vec<u32> = (0..n as u32).collect();
            let mut best = Best::new(&on);
            let mut copied = on.clone();
            for _ in 0..steps {
                let (a, b) = (rng.below(n), rng.below(n));
                on.swap(a, b);
                best.moved(a as u32);
                best.moved(b as u32);
                if rng.below(every) == 0 {
                    best.keep(&on);
                    copied.copy_from_slice(&on);
                }
                proptest::prop_assert_eq!(best.place(), &copied[..]);
            }
        }
    }
}
