//! One process's traffic, counted as the interposer (src/record.c) sees it:
//! point-to-point bytes and messages by world destination (a sparse map: a
//! rank that talks to six peers holds six entries), the message-size
//! histogram, collectives by communicator and operation, and what could not
//! be attributed to a world rank. [`Counters::export`] writes them in the
//! wire form rank 0 gathers at `MPI_Finalize` ([`super::wire`]).

use rustc_hash::FxHashMap;

use super::traffic::{size_class, CommunicatorKey, Traffic, COLLECTIVES, SIZE_CLASSES};
use super::wire::{CollectiveRecord, Export};

/// A communicator in use: its collective slot and the world ranks of the
/// ranks sent to so far (translated once each, on first use).
#[derive(Debug, Default)]
struct Live {
    slot: u32,
    world: FxHashMap<i32, i32>,
}

/// One process's counters.
#[derive(Debug, Default)]
pub struct Counters {
    /// Point-to-point traffic by world destination (neighbourhood
    /// collectives included).
    pairs: FxHashMap<u32, Traffic>,
    /// Messages by size class.
    sizes: Vec<u64>,
    /// The part of `pairs` that neighbourhood collectives sent.
    neighbourhood: Traffic,
    /// Traffic to ranks that could not be translated to world ranks.
    unattributed: Traffic,
    /// Communicators by key, each with its slot in `collectives`.
    slots: FxHashMap<CommunicatorKey, u32>,
    keys: Vec<CommunicatorKey>,
    /// Calls and bytes by (slot, index in [`COLLECTIVES`]).
    collectives: FxHashMap<(u32, u32), Traffic>,
    /// Communicators in use, by the interposer's id for them.
    live: FxHashMap<u64, Live>,
    /// Persistent send requests: (world destination or −1, bytes, whether a
    /// neighbourhood collective's) by request handle.
    persistent: FxHashMap<usize, (i32, u64)>,
}

impl Counters {
    /// Counts a message of `bytes` bytes to world rank `dest`, or, when
    /// `dest` is negative (not translatable), as unattributed.
    pub fn send(&mut self, dest: i32, bytes: u64) {
        self.count_size(bytes);
        match u32::try_from(dest) {
            Ok(d) => self.pairs.entry(d).or_default().add(bytes),
            Err(_) => self.unattributed.add(bytes),
        }
    }

    /// Counts what a neighbourhood collective sends world rank `dest`: a
    /// point-to-point message of the pair, also totalled apart.
    pub fn neighbour(&mut self, dest: i32, bytes: u64) {
        self.send(dest, bytes);
        if dest >= 0 {
            self.neighbourhood.add(bytes);
        }
    }

    fn count_size(&mut self, bytes: u64) {
        if self.sizes.is_empty() {
            self.sizes = vec![0; SIZE_CLASSES];
        }
        self.sizes[size_class(bytes)] += 1;
    }

    /// Registers communicator `id` (the interposer's, unique while it
    /// lives) under `key`.
    pub fn open(&mut self, id: u64, key: CommunicatorKey) {
        let next = self.keys.len() as u32;
        let slot = *self.slots.entry(key.clone()).or_insert_with(|| {
            self.keys.push(key);
            next
        });
        self.live.insert(
            id,
            Live {
                slot,
                world: FxHashMap::default(),
            },
        );
    }

    /// Forgets communicator `id`'s translations (it was freed); its
    /// collectives stay counted.
    pub fn close(&mut self, id: u64) {
        self.live.remove(&id);
    }

    /// The world rank of rank `rank` of communicator `id`, when known.
    pub fn world_rank(&self, id: u64, rank: i32) -> Option<i32> {
        self.live.get(&id)?.world.get(&rank).copied()
    }

    /// Remembers that rank `rank` of communicator `id` is world rank
    /// `world` (−1: not a world rank).
    pub fn remember(&mut self, id: u64, rank: i32, world: i32) {
        if let Some(live) = self.live.get_mut(&id) {
            live.world.insert(rank, world);
        }
    }

    /// Counts one call of collective `name` on communicator `id` that
    /// contributed `bytes` bytes from this process.
    pub fn collective(&mut self, id: u64, name: &[u8], bytes: u64) {
        let Some(op) = COLLECTIVES.iter().position(|c| c.as_bytes() == name) else {
            return;
        };
        let Some(live) = self.live.get(&id) else {
            return;
        };
        self.collectives
            .entry((live.slot, op as u32))
            .or_default()
            .add(bytes);
    }

    /// Remembers a persistent send request (`MPI_Send_init` and kin).
    pub fn persistent(&mut self, request: usize, dest: i32, bytes: u64) {
        self.persistent.insert(request, (dest, bytes));
    }

    /// Counts a start of `request` when it is a persistent send.
    pub fn start(&mut self, request: usize) {
        if let Some(&(dest, bytes)) = self.persistent.get(&request) {
            self.send(dest, bytes);
        }
    }

    /// Forgets `request` (`MPI_Request_free`).
    pub fn free_request(&mut self, request: usize) {
        self.persistent.remove(&request);
    }

    /// Adds `other`'s counts to these (translations and requests are not
    /// carried: only what [`Counters::export`] writes).
    pub fn absorb(&mut self, other: Counters) {
        for (dest, t) in other.pairs {
            self.pairs.entry(dest).or_default().merge(t);
        }
        if self.sizes.is_empty() {
            self.sizes = vec![0; SIZE_CLASSES];
        }
        for (total, s) in self.sizes.iter_mut().zip(other.sizes) {
            *total = total.saturating_add(s);
        }
        self.neighbourhood.merge(other.neighbourhood);
        self.unattributed.merge(other.unattributed);
        for ((slot, op), t) in other.collectives {
            let key = other.keys[slot as usize].clone();
            let next = self.keys.len() as u32;
            let mine = *self.slots.entry(key.clone()).or_insert_with(|| {
                self.keys.push(key);
                next
            });
            self.collectives.entry((mine, op)).or_default().merge(t);
        }
    }

    /// The point-to-point traffic to each world destination.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, Traffic)> + '_ {
        self.pairs.iter().map(|(&d, &t)| (d, t))
    }

    /// The counters in the form rank 0 gathers.
    pub fn export(&self) -> Export {
        let mut pairs: Vec<(u32, Traffic)> = self.pairs().collect();
        pairs.sort_unstable_by_key(|&(d, _)| d);
        let mut collectives: Vec<CollectiveRecord> = self
            .collectives
            .iter()
            .map(|(&(slot, op), &t)| CollectiveRecord {
                communicator: self.keys[slot as usize].clone(),
                operation: op,
                calls: t.messages,
                bytes: t.bytes,
            })
            .collect();
        collectives
            .sort_by(|a, b| (&a.communicator, a.operation).cmp(&(&b.communicator, b.operation)));
        let mut sizes = self.sizes.clone();
        sizes.resize(SIZE_CLASSES, 0);
        Export {
            pairs,
            sizes,
            neighbourhood: self.neighbourhood,
            unattributed: self.unattributed,
            collectives,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::traffic::class_range;

    #[test]
    fn size_classes_cover_every_size_once() {
        assert_eq!(size_class(0), 0);
        assert_eq!(size_class(1), 1);
        assert_eq!(size_class(2), 2);
        assert_eq!(size_class(3), 2);
        assert_eq!(size_class(4), 3);
        assert_eq!(size_class(u64::MAX), 64);
        for k in 0..SIZE_CLASSES {
            let (lo, hi) = class_range(k);
            assert_eq!(size_class(lo), k);
            assert_eq!(size_class(hi), k);
            if k + 1 < SIZE_CLASSES {
                assert_eq!(class_range(k + 1).0, hi + 1);
            }
        }
    }

    /// Every collective the interposer defines (`COLLECTIVE(MPI_X,
    /// MPI_IX, ...)` in src/record.c) is one the counters know, and back.
    #[test]
    fn the_interposers_collectives_are_the_counted_ones() {
        let c = include_str!("../record.c");
        let mut named: Vec<&str> = c
            .lines()
            .filter_map(|l| l.strip_prefix("COLLECTIVE("))
            .flat_map(|l| l.split(',').take(2).map(str::trim))
            .collect();
        named.sort_unstable();
        let mut known = COLLECTIVES.to_vec();
        known.sort_unstable();
        assert_eq!(named, known);
    }

    #[test]
    fn persistent_sends_count_at_each_start_and_translation_is_per_communicator() {
        let mut c = Counters::default();
        let key = |leader| CommunicatorKey {
            leader,
            size: 4,
            name: String::new(),
        };
        c.open(1, key(3));
        c.open(2, key(3)); // a duplicate: same slot, own translations
        c.remember(1, 0, 3);
        assert_eq!(c.world_rank(1, 0), Some(3));
        assert_eq!(c.world_rank(2, 0), None);
        c.persistent(77, 3, 100);
        c.start(77);
        c.start(77);
        c.start(78); // a receive or unknown request: nothing
        c.free_request(77);
        c.start(77);
        c.send(-1, 5);
        c.neighbour(2, 8);
        c.collective(1, b"MPI_Allreduce", 16);
        c.collective(2, b"MPI_Allreduce", 16);
        c.collective(2, b"MPI_Not_a_collective", 16);
        c.close(1);
        c.collective(1, b"MPI_Allreduce", 16); // closed: not counted
                                               // Another thread's counters merge in.
        let mut other = Counters::default();
        other.open(9, key(5));
        other.open(10, key(3));
        other.collective(10, b"MPI_Allreduce", 16);
        other.collective(9, b"MPI_Barrier", 0);
        other.send(3, 1);
        c.absorb(other);
        c.absorb(Counters::default());
        let e = c.export();
        assert_eq!(
            e.pairs,
            vec![
                (
                    2,
                    Traffic {
                        bytes: 8,
                        messages: 1
                    }
                ),
                (
                    3,
                    Traffic {
                        bytes: 201,
                        messages: 3
                    }
                )
            ]
        );
        assert_eq!(
            e.unattributed,
            Traffic {
                bytes: 5,
                messages: 1
            }
        );
        assert_eq!(
            e.neighbourhood,
            Traffic {
                bytes: 8,
                messages: 1
            }
        );
        assert_eq!(e.sizes.iter().sum::<u64>(), 5);
        assert_eq!(e.collectives.len(), 2);
        assert_eq!(e.collectives[0].communicator, key(3));
        assert_eq!(e.collectives[0].calls, 3);
        assert_eq!(e.collectives[0].bytes, 48);
        assert_eq!(
            COLLECTIVES[e.collectives[0].operation as usize],
            "MPI_Allreduce"
        );
        assert_eq!(e.collectives[1].communicator, key(5));
    }
}
