//! Running programs through an embedding.
//!
//! A program is written once for its guest (a cube, a torus, ..) against a
//! [`Process`]: rank, size, send / receive / exchange with a rank, barrier,
//! compute. Ranks are host nodes; the program finds its guest node and its
//! guest neighbours' ranks through a
//! [`VirtualTopology`](crate::virtual_topology::VirtualTopology) ("processor i
//! runs the algorithm as if its id is f^-1(i)", lecture notes).
//!
//! A [`Process`] sits on a [`Transport`] that only moves messages: the
//! in-process one ([`local`]: one async task per rank, channels between them,
//! so a run needs no OS thread per rank) or an MPI one. The process keeps a
//! *modelled clock* on top, the same on every transport:
//!
//! * a compute phase costs T_a;
//! * a message of b bytes between ranks `hops` host links apart costs
//!   `hops · (T_c + b · T_b)`: store and forward, every hop carries the whole
//!   message (T_b = 0 by default, as in the xor paper's model);
//! * [`Process::send`] stamps the message with the sender's clock and keeps
//!   the sender busy for the message's cost (buffered, like a small MPI_Send:
//!   it does not wait for the receiver);
//! * [`Process::receive`] starts when both the receiver and the message's
//!   stamp are reached and ends `cost` later; the gap is *waiting*;
//! * [`Process::sendrecv`] / [`Process::exchange`] send and receive at once
//!   (full duplex): for a pair exchanging with clocks x and y both end at
//!   max(x, y) + cost — exactly the xor paper's recurrence (§2.1), whose
//!   waiting periods are |x - y|.
//!
//! So for a CC d-cube algorithm the modelled time of a run equals
//! [`crate::model::cc_recurrence_stages`] (tested for every algorithm here).

pub mod algorithms;
pub mod local;

use std::future::Future;
use std::sync::Arc;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::simulate::Op;
use crate::topology::Topology;

/// Largest tag a program may use (MPI guarantees tags up to 32767; the
/// last one is the barrier's).
pub const MAX_TAG: u32 = 32_766;
const BARRIER_TAG: u32 = 32_767;

/// A message as a transport carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Sender's rank.
    pub from: u64,
    /// Tag; receives match on (sender, tag).
    pub tag: u32,
    /// Sender's modelled clock when it sent.
    pub stamp: f64,
    /// Payload.
    pub data: Vec<f64>,
}

/// Moves messages between ranks; knows nothing about clocks.
///
/// Semantics follow MPI: `post` does not wait for the receiver (small
/// messages are buffered); `fetch` blocks until a message from `from` with
/// `tag` is there, and messages from one sender with one tag arrive in the
/// order they were sent (MPI's non-overtaking rule).
pub trait Transport {
    /// This rank.
    fn rank(&self) -> u64;
    /// Number of ranks.
    fn size(&self) -> u64;
    /// Sends `envelope` to rank `to` without waiting for it to be received.
    fn post(&mut self, to: u64, envelope: Envelope) -> impl Future<Output = Result<()>>;
    /// The first message from `from` with tag `tag`.
    fn fetch(&mut self, from: u64, tag: u32) -> impl Future<Output = Result<Envelope>>;
    /// Sends to `to` and receives from `from` at once (MPI_Sendrecv); the
    /// default posts, then fetches.
    fn post_and_fetch(
        &mut self,
        to: u64,
        envelope: Envelope,
        from: u64,
        tag: u32,
    ) -> impl Future<Output = Result<Envelope>> {
        async move {
            self.post(to, envelope).await?;
            self.fetch(from, tag).await
        }
    }
}

/// Constants of the modelled clock (they belong to the CC-time model,
/// which the simulator shares: [`crate::model::Costs`]).
pub use crate::model::Costs;

/// What one rank did, in modelled time. `clock = compute + communication + waiting`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RankStats {
    /// Messages sent (barriers not counted).
    pub messages: u64,
    /// Sum of the hops of the messages sent.
    pub hops: u64,
    /// Payload bytes sent.
    pub bytes: u64,
    /// Time in compute phases.
    pub compute: f64,
    /// Time moving messages.
    pub communication: f64,
    /// Time waiting for a partner or a message.
    pub waiting: f64,
    /// The modelled clock at the end.
    pub clock: f64,
}

/// A rank of a running program: a transport plus the modelled clock.
pub struct Process<T> {
    transport: T,
    host: Arc<dyn Topology>,
    costs: Costs,
    stats: RankStats,
    /// The operations so far, when recording (for the simulator).
    trace: Option<Vec<Op>>,
}

impl<T: Transport> Process<T> {
    /// A process on `transport`, whose ranks are the nodes of `host`.
    pub fn new(transport: T, host: Arc<dyn Topology>, costs: Costs) -> Process<T> {
        Process {
            transport,
            host,
            costs,
            stats: RankStats::default(),
            trace: None,
        }
    }

    /// Starts recording this rank's operations (a trace for [`crate::simulate`]).
    pub fn record(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// The operations recorded since [`Process::record`] (empty if not recording).
    pub fn take_trace(&mut self) -> Vec<Op> {
        self.trace.take().unwrap_or_default()
    }

    fn log(&mut self, op: Op) {
        if let Some(trace) = &mut self.trace {
            trace.push(op);
        }
    }

    /// This rank.
    pub fn rank(&self) -> u64 {
        self.transport.rank()
    }

    /// Number of ranks.
    pub fn size(&self) -> u64 {
        self.transport.size()
    }

    /// The modelled clock.
    pub fn clock(&self) -> f64 {
        self.stats.clock
    }

    /// The transport under this process.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// What this rank did so far.
    pub fn stats(&self) -> RankStats {
        self.stats
    }

    /// `phases` compute phases of T_a each.
    pub fn compute(&mut self, phases: u64) {
        self.log(Op::Compute { phases });
        let t = phases as f64 * self.costs.ta;
        self.stats.compute += t;
        self.stats.clock += t;
    }

    fn check(&self, rank: u64, tag: u32) -> Result<()> {
        if rank >= self.size() {
            return Err(Error::Parameter(format!(
                "rank {} addressed rank {rank}, but there are only {} ranks",
                self.rank(),
                self.size()
            )));
        }
        if tag > MAX_TAG {
            return Err(Error::Parameter(format!(
                "tag {tag} is reserved; programs use tags 0..={MAX_TAG}"
            )));
        }
        Ok(())
    }

    /// Hops and cost of a message of `values` f64s between this rank and `other`.
    fn cost(&self, other: u64, values: usize) -> (u64, f64) {
        let hops = self.host.distance(self.rank(), other);
        (hops, self.costs.message(hops, values))
    }

    /// Counts an outgoing message; returns its cost.
    fn count_send(&mut self, to: u64, values: usize) -> f64 {
        let (hops, cost) = self.cost(to, values);
        self.stats.messages += 1;
        self.stats.hops += hops;
        self.stats.bytes += 8 * values as u64;
        cost
    }

    fn envelope(&self, tag: u32, data: Vec<f64>) -> Envelope {
        Envelope {
            from: self.rank(),
            tag,
            stamp: self.stats.clock,
            data,
        }
    }

    /// Moves the clock to `end`, of which `waited` was waiting.
    fn advance(&mut self, end: f64, waited: f64) {
        self.stats.communication += end - self.stats.clock - waited;
        self.stats.waiting += waited;
        self.stats.clock = end;
    }

    /// Sends `data` to rank `to` with `tag`; busy for the message's cost,
    /// not waiting for the receiver.
    pub async fn send(&mut self, to: u64, tag: u32, data: Vec<f64>) -> Result<()> {
        self.check(to, tag)?;
        self.log(Op::Send {
            to,
            tag,
            values: data.len() as u64,
        });
        let cost = self.count_send(to, data.len());
        let envelope = self.envelope(tag, data);
        self.transport.post(to, envelope).await?;
        let end = self.stats.clock + cost;
        self.advance(end, 0.0);
        Ok(())
    }

    /// Receives the next message from rank `from` with `tag`.
    pub async fn receive(&mut self, from: u64, tag: u32) -> Result<Vec<f64>> {
        self.check(from, tag)?;
        self.log(Op::Receive { from, tag });
        let got = self.transport.fetch(from, tag).await?;
        let (_, cost) = self.cost(from, got.data.len());
        let start = self.stats.clock.max(got.stamp);
        self.advance(start + cost, start - self.stats.clock);
        Ok(got.data)
    }

    /// Sends `data` to `to` and receives from `from`, both with `tag`, at
    /// once (a shift along a ring or torus axis, as MPI_Sendrecv).
    pub async fn sendrecv(
        &mut self,
        to: u64,
        data: Vec<f64>,
        from: u64,
        tag: u32,
    ) -> Result<Vec<f64>> {
        self.check(to, tag)?;
        self.check(from, tag)?;
        self.log(Op::SendRecv {
            to,
            values: data.len() as u64,
            from,
            tag,
        });
        let out_cost = self.count_send(to, data.len());
        let envelope = self.envelope(tag, data);
        let got = self
            .transport
            .post_and_fetch(to, envelope, from, tag)
            .await?;
        let (_, in_cost) = self.cost(from, got.data.len());
        let now = self.stats.clock;
        let start = now.max(got.stamp);
        self.advance((now + out_cost).max(start + in_cost), start - now);
        Ok(got.data)
    }

    /// Swaps `data` with rank `with` (both call it): both end at
    /// max(own clock, partner's clock) + cost, the xor paper's exchange.
    pub async fn exchange(&mut self, with: u64, tag: u32, data: Vec<f64>) -> Result<Vec<f64>> {
        self.sendrecv(with, data, with, tag).await
    }

    /// Waits for every rank: every clock moves to the latest one. Its own
    /// messages are synchronisation, not modelled traffic: not counted, no cost.
    pub async fn barrier(&mut self) -> Result<()> {
        self.log(Op::Barrier);
        let (rank, size) = (self.rank(), self.size());
        let latest = if rank == 0 {
            let mut latest = self.stats.clock;
            for from in 1..size {
                latest = latest.max(self.transport.fetch(from, BARRIER_TAG).await?.stamp);
            }
            for to in 1..size {
                let note = Envelope {
                    from: 0,
                    tag: BARRIER_TAG,
                    stamp: latest,
                    data: Vec::new(),
                };
                self.transport.post(to, note).await?;
            }
            latest
        } else {
            let note = self.envelope(BARRIER_TAG, Vec::new());
            self.transport.post(0, note).await?;
            self.transport.fetch(0, BARRIER_TAG).await?.stamp
        };
        self.advance(latest, latest - self.stats.clock);
        Ok(())
    }
}
