//! A discrete-event simulation of a program's messages on the host network.
//!
//! The runtime's modelled clock ([`crate::runtime`]) charges every message
//! `hops · (T_c + bytes · T_b)` as if it had the links to itself. Here each
//! message travels its host route ([`crate::topology::Topology::route`]) link by link, and a
//! link carries one message per direction at a time (full duplex) or one
//! message at a time (half duplex); a message that finds its link busy
//! queues for it, first come first served. Processes that share a host node
//! (many-to-one embeddings) also share its processor: one compute phase at a
//! time.
//!
//! Two switching modes, with B = T_c + bytes · T_b the time a link needs for
//! one message:
//!
//! * **store-and-forward** (the xor paper's model): a message enters hop k+1
//!   only when it has wholly arrived over hop k; alone on its route it takes
//!   `hops · B`;
//! * **cut-through**: the header moves on after T_h (the router delay) and
//!   the body follows in a pipeline, so alone it takes `B + (hops - 1) · T_h`;
//!   a blocked message waits where its header is (virtual cut-through), so
//!   blocked messages never hold links and the network cannot deadlock.
//!
//! Processes follow the runtime's rules: a message leaves when both its send
//! and its matching receive are posted (the exchange "starts when both
//! processes are ready", xor paper §2.1), a send keeps its sender busy for
//! the message's contention-free time, a receive ends when the message
//! arrives. So with contention switched off the simulation reproduces the
//! runtime's clocks rank by rank, and for a CC d-cube algorithm the CC
//! recurrence ([`crate::model::cc_recurrence_stages`]) exactly (tested).
//!
//! ```
//! use topoembed::simulate::{simulate, Network, Options, Trace};
//! use topoembed::{embed, topology};
//! let guest = topology::parse("cube:6")?;
//! let host = topology::parse("line:64")?;
//! let byweight = embed::build("byweight", guest.as_ref(), host.as_ref())?;
//! // A CC 6-cube algorithm: compute, then exchange along dimension i, i = 0..5.
//! let trace = Trace::cc(6, 0, &[0, 1, 2, 3, 4, 5], 1, byweight.as_ref())?;
//! let busy = simulate(&trace, host.as_ref(), &Network::default(), &Options::default(), None)?;
//! let free = Network { contention: false, ..Network::default() };
//! let alone = simulate(&trace, host.as_ref(), &free, &Options::default(), None)?;
//! assert_eq!((alone.makespan, busy.makespan), (111.0, 118.0)); // the recurrence says 111
//! assert_eq!(busy.delayed_messages, 98);
//! # Ok::<(), topoembed::Error>(())
//! ```

mod engine;
mod trace;

use serde::Serialize;

pub use engine::simulate;
pub use trace::{Op, Trace, MAX_PROCESSES};

use crate::error::{Error, Result};
use crate::model::Costs;
use crate::routing::TieRule;

/// How a message crosses a multi-hop route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Switching {
    /// Whole message over each hop before the next (`hops · B`).
    #[default]
    StoreAndForward,
    /// Pipelined: `B + (hops - 1) · T_h`.
    CutThrough,
}

/// Whether a link carries one message per direction or one in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Duplex {
    /// One message per direction at a time.
    #[default]
    Full,
    /// One message at a time, either direction.
    Half,
}

/// The network model of a simulation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Network {
    /// Switching mode.
    pub switching: Switching,
    /// Link duplex.
    pub duplex: Duplex,
    /// `false`: links and processors are never busy (the runtime's clock).
    pub contention: bool,
    /// T_a, T_c, T_b.
    pub costs: Costs,
    /// T_h: header delay per hop in cut-through mode.
    pub th: f64,
    /// Which way ring routes go when both are equally short.
    pub ties: TieRule,
}

impl Default for Network {
    /// Store-and-forward, full duplex, contention on, T_c = 1, T_h = 0.
    fn default() -> Self {
        Network {
            switching: Switching::default(),
            duplex: Duplex::default(),
            contention: true,
            costs: Costs::default(),
            th: 0.0,
            ties: TieRule::default(),
        }
    }
}

impl Network {
    /// An error unless every constant is finite and not negative.
    pub fn check(&self) -> Result<()> {
        self.costs.check()?;
        if !self.th.is_finite() || self.th < 0.0 {
            return Err(Error::Parameter(format!(
                "--th must be a finite number >= 0, got {}",
                self.th
            )));
        }
        Ok(())
    }

    /// Time one link needs for a message of `values` f64s (B).
    pub fn link_time(&self, values: u64) -> f64 {
        self.costs.tc + self.costs.tb * (8 * values) as f64
    }

    /// Contention-free time of a message of `values` f64s over `hops` links.
    pub fn message_time(&self, hops: u64, values: u64) -> f64 {
        match (self.switching, hops) {
            (_, 0) => 0.0,
            (Switching::StoreAndForward, _) => hops as f64 * self.link_time(values),
            (Switching::CutThrough, _) => self.link_time(values) + (hops - 1) as f64 * self.th,
        }
    }
}

/// What a process is doing during an [`Interval`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Activity {
    /// A compute phase.
    Compute,
    /// Moving a message (its contention-free time).
    Communicate,
    /// Waiting for a partner to be ready, or at a barrier.
    Wait,
    /// Held up by contention: a busy link on a message's route, or a
    /// processor busy with another process's phase.
    Blocked,
}

/// A stretch of one process's time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Start time.
    pub start: f64,
    /// End time.
    pub end: f64,
    /// What the process did.
    pub activity: Activity,
}

/// One process's time, by activity. `end = compute + communication + waiting + blocked`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ProcessTime {
    /// In compute phases.
    pub compute: f64,
    /// Moving messages.
    pub communication: f64,
    /// Waiting for partners and barriers.
    pub waiting: f64,
    /// Held up by contention.
    pub blocked: f64,
    /// When the process finished.
    pub end: f64,
}

/// Use of one link (one direction of it with full duplex).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LinkUse {
    /// One end (the sending end with full duplex).
    pub from: u64,
    /// The other end.
    pub to: u64,
    /// Time the link was busy.
    pub busy: f64,
    /// Messages it carried.
    pub messages: u64,
}

/// What to keep besides the totals.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Keep the intervals of processes `0..record` (for Gantt charts).
    pub record: u64,
    /// Without contention: do not walk routes to count link use (`links`
    /// stays empty), so a message costs O(1) instead of O(hops).
    pub skip_links: bool,
}

/// The outcome of a simulation.
#[derive(Debug, Clone, Serialize)]
pub struct Simulation {
    /// The network model.
    pub network: Network,
    /// When the last process finished.
    pub makespan: f64,
    /// Messages sent.
    pub messages: u64,
    /// Link traversals (sum of route lengths).
    pub hops: u64,
    /// Messages that found a link on their route busy at least once.
    pub delayed_messages: u64,
    /// Time messages spent queued for busy links, summed over messages.
    pub link_delay: f64,
    /// Time processes spent waiting for a shared processor, summed.
    pub processor_delay: f64,
    /// Events the simulation processed.
    pub events: u64,
    /// Every process's time, by process.
    pub processes: Vec<ProcessTime>,
    /// The intervals of processes `0..Options::record`.
    pub intervals: Vec<Vec<Interval>>,
    /// Links that carried a message, busiest first.
    pub links: Vec<LinkUse>,
}

impl Simulation {
    /// Sum over processes of each activity.
    pub fn totals(&self) -> ProcessTime {
        self.processes
            .iter()
            .fold(ProcessTime::default(), |a, p| ProcessTime {
                compute: a.compute + p.compute,
                communication: a.communication + p.communication,
                waiting: a.waiting + p.waiting,
                blocked: a.blocked + p.blocked,
                end: a.end.max(p.end),
            })
    }
}
