//! Virtual topologies: how a program written for the guest runs on the host.
//!
//! Lecture notes (hypercubic permutations, introduction): "processor i runs
//! the algorithm as if its id is f^-1(i) ... to find a particular neighbour,
//! processor i finds the relevant neighbour of f^-1(i) and the processor to
//! which this neighbour is mapped". A [`VirtualTopology`] answers both
//! questions for a host node (physical rank): which guest node(s) it plays,
//! and the rank of each guest neighbour, by name (ring left/right, grid
//! west/east/north/south, cube dimension i, tree parent/children per level).
//!
//! Three ways to answer, chosen by method:
//! * the notes' formulas ([`formulas`]) for `gray` grids into cubes and the
//!   tree embeddings `levels` and `inorder`, in O(1) from the rank;
//! * the method's own map and inverse for the other one-to-one methods whose
//!   maps are closed forms (`standard` and `identity`: f(n) = n; `xor`:
//!   f(n) = n ^ ((n & M) >> 1), its own inverse; `byweight`; `gray` cubes
//!   onto grids), O(1) or O(d) per call;
//! * tables built from the map for everything else (many-to-one methods,
//!   stored graphs).
//!
//! [`VirtualTopology::with_tables`] forces the tables; the tests hold every
//! formula to them, rank by rank.

mod directions;
mod formulas;

use std::sync::Arc;

use serde::Serialize;

pub use directions::{directions, guest_neighbor, Direction};
use formulas::Formula;

use crate::bits::pow2_widths;
use crate::embed::{self, Embedding, Params};
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::topology::{self, level_and_position, Topology};

/// Largest guest for which tables are built (8 bytes per guest node).
pub const MAX_TABLE_NODES: u64 = 1 << 28;

/// A guest placed on a host by an embedding, seen from the host's ranks.
#[derive(Clone)]
pub struct VirtualTopology {
    guest: Arc<dyn Topology>,
    host: Arc<dyn Topology>,
    embedding: Arc<dyn Embedding>,
    lookup: Lookup,
}

#[derive(Clone)]
enum Lookup {
    Formula(Formula),
    MapAndInverse,
    Table(Arc<Tables>),
}

/// Guest -> host, and the guests of each host node in CSR form.
struct Tables {
    host_of: Vec<u64>,
    first: Vec<u64>,
    guests: Vec<u64>,
}

/// One guest neighbour of a guest node a rank plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Neighbor {
    /// The guest node (played by the rank) whose neighbour this is.
    pub node: u64,
    /// Trees: that node's level (root 0).
    pub level: Option<u32>,
    /// The direction, named for the guest ([`Direction::name`]).
    pub direction: String,
    /// The neighbouring guest node.
    pub guest: u64,
    /// The rank (host node) that plays it.
    pub rank: u64,
    /// Host distance between the two ranks: the hops of a message.
    pub hops: u64,
}

impl VirtualTopology {
    /// The virtual topology of `embedding` (of `guest` into `host`), with
    /// the fastest lookup the method allows.
    pub fn new(
        guest: Arc<dyn Topology>,
        host: Arc<dyn Topology>,
        embedding: Arc<dyn Embedding>,
    ) -> Result<VirtualTopology> {
        let lookup = match formula(guest.spec(), host.spec(), embedding.method()) {
            Some(f) => Lookup::Formula(f),
            None if one_to_one(guest.as_ref(), host.as_ref(), embedding.as_ref()) => {
                Lookup::MapAndInverse
            }
            None => Lookup::Table(Arc::new(tables(
                guest.as_ref(),
                host.as_ref(),
                embedding.as_ref(),
            )?)),
        };
        Ok(VirtualTopology {
            guest,
            host,
            embedding,
            lookup,
        })
    }

    /// The same, always answering from tables built from the map (the
    /// oracle the formulas are tested against).
    pub fn with_tables(
        guest: Arc<dyn Topology>,
        host: Arc<dyn Topology>,
        embedding: Arc<dyn Embedding>,
    ) -> Result<VirtualTopology> {
        let t = tables(guest.as_ref(), host.as_ref(), embedding.as_ref())?;
        Ok(VirtualTopology {
            guest,
            host,
            embedding,
            lookup: Lookup::Table(Arc::new(t)),
        })
    }

    /// Parses the specs, builds the method and its virtual topology.
    pub fn from_specs(
        guest: &str,
        host: &str,
        method: &str,
        params: &Params,
    ) -> Result<VirtualTopology> {
        let guest: Arc<dyn Topology> = Arc::from(topology::parse(guest)?);
        let host: Arc<dyn Topology> = Arc::from(topology::parse(host)?);
        let embedding: Arc<dyn Embedding> = Arc::from(embed::build_with(
            method,
            guest.as_ref(),
            host.as_ref(),
            params,
        )?);
        VirtualTopology::new(guest, host, embedding)
    }

    /// The guest.
    pub fn guest(&self) -> &dyn Topology {
        self.guest.as_ref()
    }

    /// The host.
    pub fn host(&self) -> &dyn Topology {
        self.host.as_ref()
    }

    /// The host, shared.
    pub fn shared_host(&self) -> Arc<dyn Topology> {
        Arc::clone(&self.host)
    }

    /// The embedding.
    pub fn embedding(&self) -> &dyn Embedding {
        self.embedding.as_ref()
    }

    /// Number of ranks: host nodes.
    pub fn size(&self) -> u64 {
        self.host.node_count()
    }

    /// How neighbours are found: `"closed forms on the rank"`,
    /// `"the method's map and inverse"` or `"tables"`.
    pub fn lookup(&self) -> &'static str {
        match self.lookup {
            Lookup::Formula(_) => "closed forms on the rank",
            Lookup::MapAndInverse => "the method's map and inverse",
            Lookup::Table(_) => "tables",
        }
    }

    /// True when every rank plays exactly one guest node.
    pub fn is_one_to_one(&self) -> bool {
        self.guest.node_count() == self.host.node_count()
            && match &self.lookup {
                Lookup::MapAndInverse => true,
                Lookup::Formula(f) => matches!(f, Formula::GrayGridToCube { .. }),
                Lookup::Table(t) => t.first.windows(2).all(|w| w[1] - w[0] == 1),
            }
    }

    /// An error unless `rank` is a host node.
    pub fn check_rank(&self, rank: u64) -> Result<()> {
        if rank < self.size() {
            Ok(())
        } else {
            Err(Error::Parameter(format!(
                "rank {rank} is out of range: {} has ranks 0..{}",
                self.host.spec(),
                self.size() - 1
            )))
        }
    }

    /// The guest nodes `rank` plays, in increasing order (none, one, or one
    /// per tree level for `levels`).
    pub fn guests(&self, rank: u64) -> Vec<u64> {
        match &self.lookup {
            Lookup::Formula(f) => f.guests(rank),
            Lookup::MapAndInverse => self.embedding.inverse(rank).into_iter().collect(),
            Lookup::Table(t) => {
                let (a, b) = (t.first[rank as usize], t.first[rank as usize + 1]);
                t.guests[a as usize..b as usize].to_vec()
            }
        }
    }

    /// The one guest node `rank` plays, for one-to-one embeddings.
    pub fn guest_of(&self, rank: u64) -> Option<u64> {
        match self.guests(rank).as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The rank that plays guest node `node`.
    pub fn rank_of(&self, node: u64) -> u64 {
        match &self.lookup {
            Lookup::Table(t) => t.host_of[node as usize],
            _ => self.embedding.map(node),
        }
    }

    /// The rank playing the neighbour of guest node `node` (played by `rank`)
    /// in direction `dir`; `None` where there is no neighbour (mesh borders,
    /// tree leaves and root).
    pub fn neighbor_of(&self, rank: u64, node: u64, dir: Direction) -> Option<u64> {
        match &self.lookup {
            Lookup::Formula(f) => f.neighbor(rank, node, dir),
            _ => guest_neighbor(self.guest.as_ref(), node, dir).map(|g| self.rank_of(g)),
        }
    }

    /// [`VirtualTopology::neighbor_of`] the one guest node `rank` plays.
    pub fn neighbor(&self, rank: u64, dir: Direction) -> Option<u64> {
        self.guest_of(rank)
            .and_then(|node| self.neighbor_of(rank, node, dir))
    }

    /// Every guest neighbour of every guest node `rank` plays, with its
    /// rank and hop count.
    pub fn neighbors(&self, rank: u64) -> Result<Vec<Neighbor>> {
        self.check_rank(rank)?;
        let tree = matches!(self.guest.spec(), Spec::BinTree(_));
        let mut out = Vec::new();
        for node in self.guests(rank) {
            for dir in directions(self.guest.as_ref(), node) {
                let Some(guest) = guest_neighbor(self.guest.as_ref(), node, dir) else {
                    continue;
                };
                let other = match &self.lookup {
                    Lookup::Formula(f) => f.neighbor(rank, node, dir).ok_or_else(|| {
                        Error::Internal(format!(
                            "rank {rank}: guest node {node} has a neighbour towards {dir:?} \
                             but the formula found none"
                        ))
                    })?,
                    _ => self.rank_of(guest),
                };
                out.push(Neighbor {
                    node,
                    level: tree.then(|| level_and_position(node).0),
                    direction: dir.name(self.guest.spec()),
                    guest,
                    rank: other,
                    hops: self.host.distance(rank, other),
                });
            }
        }
        Ok(out)
    }
}

/// The notes' formula for a method, where the notes give one.
fn formula(guest: &Spec, host: &Spec, method: &str) -> Option<Formula> {
    match (method, guest, host) {
        ("gray", g, Spec::Cube(_)) => Some(Formula::GrayGridToCube {
            widths: pow2_widths(g.sides()?)?,
            wrap: g.uniform_wrap()?,
        }),
        ("levels", Spec::BinTree(p), _) => Some(Formula::TreeLevels {
            height: p.trailing_zeros(),
        }),
        ("inorder", Spec::BinTree(p), _) => Some(Formula::TreeInOrder {
            height: p.trailing_zeros(),
        }),
        _ => None,
    }
}

/// One-to-one with an inverse on every host node (equal node counts and an
/// inverse the method defines).
fn one_to_one(guest: &dyn Topology, host: &dyn Topology, embedding: &dyn Embedding) -> bool {
    guest.node_count() == host.node_count() && embedding.inverse(embedding.map(0)) == Some(0)
}

fn tables(guest: &dyn Topology, host: &dyn Topology, embedding: &dyn Embedding) -> Result<Tables> {
    let nodes = guest.node_count();
    if nodes > MAX_TABLE_NODES || host.node_count() > MAX_TABLE_NODES {
        return Err(Error::Parameter(format!(
            "{} on {} with '{}' needs lookup tables of {} entries; tables are built up to \
             2^28 nodes (the methods with closed forms have no such limit)",
            guest.spec(),
            host.spec(),
            embedding.method(),
            nodes.max(host.node_count())
        )));
    }
    let guests_in: Vec<u64> = (0..nodes).collect();
    let mut host_of = vec![0; nodes as usize];
    embedding.map_many(&guests_in, &mut host_of);
    let mut first = vec![0u64; host.node_count() as usize + 1];
    for &h in &host_of {
        if h >= host.node_count() {
            return Err(Error::Internal(format!(
                "{} placed a guest node on host node {h}, outside {}",
                embedding.method(),
                host.spec()
            )));
        }
        first[h as usize + 1] += 1;
    }
    for k in 1..first.len() {
        first[k] += first[k - 1];
    }
    let mut next = first.clone();
    let mut guests = vec![0; nodes as usize];
    for (g, &h) in host_of.iter().enumerate() {
        guests[next[h as usize] as usize] = g as u64;
        next[h as usize] += 1;
    }
    Ok(Tables {
        host_of,
        first,
        guests,
    })
}
