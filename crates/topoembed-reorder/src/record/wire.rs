//! The form in which each process's counters travel to rank 0 at
//! `MPI_Finalize` (one `MPI_Gatherv` of bytes): little-endian, a magic
//! number first, every count before its items, so that a truncated or
//! foreign buffer is an error, never a wrong number.

use super::traffic::{CommunicatorKey, Traffic, SIZE_CLASSES};

const MAGIC: &[u8; 4] = b"TEr1";

/// One process's counters, as gathered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Export {
    /// Point-to-point traffic by world destination, ascending.
    pub pairs: Vec<(u32, Traffic)>,
    /// Messages by size class ([`SIZE_CLASSES`] of them).
    pub sizes: Vec<u64>,
    /// The part of `pairs` neighbourhood collectives sent.
    pub neighbourhood: Traffic,
    /// Traffic no world rank could be named for.
    pub unattributed: Traffic,
    /// Collectives by communicator and operation.
    pub collectives: Vec<CollectiveRecord>,
}

/// Calls of one collective on one communicator by one process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectiveRecord {
    /// The communicator.
    pub communicator: CommunicatorKey,
    /// Index in [`super::traffic::COLLECTIVES`].
    pub operation: u32,
    /// Calls.
    pub calls: u64,
    /// Bytes this process contributed.
    pub bytes: u64,
}

impl Export {
    /// The bytes that travel.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 20 * self.pairs.len() + 8 * SIZE_CLASSES);
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, self.pairs.len() as u32);
        for &(dest, t) in &self.pairs {
            put_u32(&mut out, dest);
            put_traffic(&mut out, t);
        }
        put_u32(&mut out, self.sizes.len() as u32);
        for &s in &self.sizes {
            out.extend_from_slice(&s.to_le_bytes());
        }
        put_traffic(&mut out, self.neighbourhood);
        put_traffic(&mut out, self.unattributed);
        put_u32(&mut out, self.collectives.len() as u32);
        for c in &self.collectives {
            put_u32(&mut out, c.communicator.leader);
            put_u32(&mut out, c.communicator.size);
            let name = c.communicator.name.as_bytes();
            let name = &name[..name.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name);
            put_u32(&mut out, c.operation);
            put_traffic(
                &mut out,
                Traffic {
                    bytes: c.bytes,
                    messages: c.calls,
                },
            );
        }
        out
    }

    /// Reads what [`Export::to_bytes`] wrote; the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Export, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err("not a topoembed recording buffer (bad magic number)".into());
        }
        let n = r.count(20)?;
        let mut pairs = Vec::with_capacity(n);
        for _ in 0..n {
            pairs.push((r.u32()?, r.traffic()?));
        }
        let n = r.count(8)?;
        if n != SIZE_CLASSES {
            return Err(format!("{n} size classes, expected {SIZE_CLASSES}"));
        }
        let sizes = (0..n).map(|_| r.u64()).collect::<Result<_, _>>()?;
        let neighbourhood = r.traffic()?;
        let unattributed = r.traffic()?;
        let n = r.count(30)?;
        let mut collectives = Vec::with_capacity(n);
        for _ in 0..n {
            let leader = r.u32()?;
            let size = r.u32()?;
            let len = u16::from_le_bytes(r.take(2)?.try_into().unwrap()) as usize;
            let name = String::from_utf8_lossy(r.take(len)?).into_owned();
            let operation = r.u32()?;
            let t = r.traffic()?;
            collectives.push(CollectiveRecord {
                communicator: CommunicatorKey { leader, size, name },
                operation,
                calls: t.messages,
                bytes: t.bytes,
            });
        }
        if r.at != bytes.len() {
            return Err(format!("{} bytes left over", bytes.len() - r.at));
        }
        Ok(Export {
            pairs,
            sizes,
            neighbourhood,
            unattributed,
            collectives,
        })
    }
}

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_traffic(out: &mut Vec<u8>, t: Traffic) {
    out.extend_from_slice(&t.bytes.to_le_bytes());
    out.extend_from_slice(&t.messages.to_le_bytes());
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    /// A count of items at least `item` bytes each: never more than the
    /// bytes left allow (a corrupt count must not allocate gigabytes).
    fn count(&mut self, item: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n.saturating_mul(item) > self.bytes.len() - self.at {
            return Err(format!("a count of {n} items overruns the buffer"));
        }
        Ok(n)
    }
    fn traffic(&mut self) -> Result<Traffic, String> {
        Ok(Traffic {
            bytes: self.u64()?,
            messages: self.u64()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn round_trips_and_every_truncation_is_an_error(
            pairs in proptest::collection::vec((any::<u32>(), any::<u64>(), any::<u64>()), 0..20),
            names in proptest::collection::vec("[a-zA-Z_ ]{0,12}", 0..4),
            cut in any::<prop::sample::Index>(),
        ) {
            let e = Export {
                pairs: pairs.iter().map(|&(d, b, m)| (d, Traffic { bytes: b, messages: m })).collect(),
                sizes: (0..SIZE_CLASSES as u64).collect(),
                neighbourhood: Traffic { bytes: 3, messages: 1 },
                unattributed: Traffic { bytes: 9, messages: 2 },
                collectives: names.iter().enumerate().map(|(i, n)| CollectiveRecord {
                    communicator: CommunicatorKey { leader: i as u32, size: 7, name: n.clone() },
                    operation: i as u32,
                    calls: 5,
                    bytes: 40,
                }).collect(),
            };
            let bytes = e.to_bytes();
            prop_assert_eq!(Export::from_bytes(&bytes).unwrap(), e);
            let cut = cut.index(bytes.len());
            prop_assert!(Export::from_bytes(&bytes[..cut]).is_err());
        }
    }

    #[test]
    fn a_foreign_buffer_is_refused() {
        assert!(Export::from_bytes(b"").is_err());
        assert!(Export::from_bytes(b"XXXX\0\0\0\0")
            .unwrap_err()
            .contains("magic"));
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Export::from_bytes(&huge).unwrap_err().contains("overruns"));
    }
}
