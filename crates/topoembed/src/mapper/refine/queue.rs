//! An addressable max-heap of vertices: each vertex at most once, its key
//! changed in place (a heap with a position per vertex, as the gain queues
//! of FM implementations keep; Fiduccia & Mattheyses 1982 used buckets,
//! which need small integer gains — ours are volume × distance).
//!
//! FM and k-way FM change a vertex's gain every time a neighbour moves. A
//! `BinaryHeap` with a fresh entry per change and the stale ones skipped
//! on the way out grows to every change of a pass, and its sift-downs were
//! most of FM's time; here the heap holds one entry per vertex queued.
//! (Crates with changeable keys hash the items; vertices are dense
//! indices, so a position array serves.)

/// No position: the vertex is not queued.
const ABSENT: u32 = u32::MAX;

/// The sign bit of a gain as [`gain_bits`] writes it.
const SIGN: u64 = 1 << 63;

/// A 64-bit gain as bits whose unsigned order is the gain's signed order
/// (its sign bit flipped): the high word of a key packed into one `u128`,
/// compared in one step of the heap where a tuple takes several.
#[inline]
pub fn gain_bits(gain: i64) -> u64 {
    gain as u64 ^ SIGN
}

/// The gain [`gain_bits`] wrote.
#[inline]
pub fn gain_of_bits(bits: u64) -> i64 {
    (bits ^ SIGN) as i64
}

/// Children per node: four halve the levels a key climbs or sinks
/// through, each a cache line further on, for three more comparisons of
/// neighbouring entries. Keys are distinct, so every arity pops the same
/// order (the same placements on the 38 pairs of `bench/mapper.sh`); one
/// thread, each pair by both builds in turn, twice: 25.97 → 25.76 s and
/// 25.47 → 25.26 s against two children.
const ARITY: usize = 4;

/// Vertices `0..n` queued by keys `K`, largest first. Keys must be distinct
/// for a fixed order (callers put the vertex in the key to break ties).
pub struct VertexHeap<K> {
    /// (key, vertex) in heap order: a parent's key at least its children's.
    heap: Vec<(K, u32)>,
    /// Index in `heap` of every vertex, [`ABSENT`] when not queued.
    pos: Vec<u32>,
}

impl<K: Ord + Copy> VertexHeap<K> {
    /// An empty queue for vertices `0..n`.
    pub fn new(n: usize) -> Self {
        VertexHeap {
            heap: Vec::new(),
            pos: vec![ABSENT; n],
        }
    }

    /// Empties the queue (O(queued)).
    pub fn clear(&mut self) {
        for &(_, v) in &self.heap {
            self.pos[v as usize] = ABSENT;
        }
        self.heap.clear();
    }

    /// Whether `v` is queued.
    #[cfg(test)]
    fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != ABSENT
    }

    /// Asks for `v`'s position ([`crate::prefetch::prefetch`]), which
    /// [`Self::set`] or [`Self::remove`] will read.
    #[inline(always)]
    pub fn prefetch(&self, v: u32) {
        crate::prefetch::prefetch(self.pos.as_ptr().wrapping_add(v as usize));
    }

    /// Queues `v` with `key`, or changes its key if queued.
    pub fn set(&mut self, v: u32, key: K) {
        match self.pos[v as usize] {
            ABSENT => {
                self.heap.push((key, v));
                let i = self.heap.len() - 1;
                self.pos[v as usize] = i as u32;
                self.up(i);
            }
            i => {
                let i = i as usize;
                let old = self.heap[i].0;
                self.heap[i].0 = key;
                if key > old {
                    self.up(i);
                } else {
                    self.down(i);
                }
            }
        }
    }

    /// Takes `v` out of the queue if it is there.
    pub fn remove(&mut self, v: u32) {
        let i = self.pos[v as usize];
        if i == ABSENT {
            return;
        }
        let i = i as usize;
        self.pos[v as usize] = ABSENT;
        let last = self.heap.pop().expect("a queued vertex is in the heap");
        if i < self.heap.len() {
            let old = self.heap[i].0;
            self.put(i, last);
            if last.0 > old {
                self.up(i);
            } else {
                self.down(i);
            }
        }
    }

    /// The largest key, the vertex's that [`Self::pop`] would take out.
    pub fn peek_key(&self) -> Option<K> {
        self.heap.first().map(|&(key, _)| key)
    }

    /// Takes out the vertex of the largest key.
    pub fn pop(&mut self) -> Option<(K, u32)> {
        let top = *self.heap.first()?;
        self.remove(top.1);
        Some(top)
    }

    fn up(&mut self, mut i: usize) {
        let item = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / ARITY;
            if self.heap[parent].0 >= item.0 {
                break;
            }
            self.put(i, self.heap[parent]);
            i = parent;
        }
        self.put(i, item);
    }

    fn down(&mut self, mut i: usize) {
        let item = self.heap[i];
        let n = self.heap.len();
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let mut child = first;
            for c in first + 1..(first + ARITY).min(n) {
                if self.heap[c].0 > self.heap[child].0 {
                    child = c;
                }
            }
            if self.heap[child].0 <= item.0 {
                break;
            }
            self.put(i, self.heap[child]);
            i = child;
        }
        self.put(i, item);
    }

    /// Stores `item` at index i of the heap, and i as its vertex's position.
    #[inline]
    fn put(&mut self, i: usize, item: (K, u32)) {
        self.heap[i] = item;
        self.pos[item.1 as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// One step on the queue: set a key, remove, or pop.
    #[derive(Debug, Clone)]
    enum Step {
        Set(u32, i64),
        Remove(u32),
        Pop,
        Clear,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            4 => (0u32..40, -50i64..50).prop_map(|(v, k)| Step::Set(v, k)),
            1 => (0u32..40).prop_map(Step::Remove),
            3 => Just(Step::Pop),
            1 => Just(Step::Clear),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Against an ordered set of (key, vertex): every pop gives the
        /// largest, membership agrees after every step.
        #[test]
        fn pops_what_an_ordered_set_would(steps in prop::collection::vec(step(), 0..300)) {
            let mut heap: VertexHeap<(i64, u32)> = VertexHeap::new(40);
            let mut model: BTreeSet<(i64, u32)> = BTreeSet::new();
            let mut key = [None::<i64>; 40];
            for s in steps {
                match s {
                    Step::Set(v, k) => {
                        if let Some(old) = key[v as usize] {
                            model.remove(&(old, v));
                        }
                        model.insert((k, v));
                        key[v as usize] = Some(k);
                        heap.set(v, (k, v));
                    }
                    Step::Remove(v) => {
                        if let Some(old) = key[v as usize].take() {
                            model.remove(&(old, v));
                        }
                        heap.remove(v);
                    }
                    Step::Pop => {
                        let want = model.pop_last();
                        if let Some((_, v)) = want {
                            key[v as usize] = None;
                        }
                        prop_assert_eq!(heap.pop().map(|(k, _)| k), want);
                    }
                    Step::Clear => {
                        model.clear();
                        key = [None; 40];
                        heap.clear();
                    }
                }
                for v in 0..40u32 {
                    prop_assert_eq!(heap.contains(v), key[v as usize].is_some());
                }
            }
        }
    }
}
