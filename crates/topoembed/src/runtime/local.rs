//! The in-process transport: every rank is an async task on a small thread
//! pool (one thread per core), with an unbounded channel as its inbox. A
//! rank waiting for a message gives its thread to another rank, so 65 536
//! ranks run on two cores without 65 536 OS threads.

use std::future::Future;
use std::sync::{Arc, Mutex};

use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::executor::{block_on, ThreadPool};
use futures::future::join_all;
use futures::task::SpawnExt;
use futures::StreamExt;

use super::{Costs, Envelope, Process, Transport};
use crate::error::{Error, Result};
use crate::topology::Topology;

/// Most ranks an in-process run takes (memory: a few hundred bytes each,
/// plus the program's data).
pub const MAX_RANKS: u64 = 1 << 20;

/// Tag of the note a failing rank sends everyone, so that no one waits forever.
const ABORT_TAG: u32 = u32::MAX;

/// A rank's end of the in-process transport.
pub struct Mailbox {
    rank: u64,
    inbox: UnboundedReceiver<Envelope>,
    outboxes: Arc<Vec<UnboundedSender<Envelope>>>,
    /// Messages fetched from the inbox that did not match yet.
    stash: Vec<Envelope>,
}

impl Mailbox {
    fn abort_all(outboxes: &[UnboundedSender<Envelope>], rank: u64) {
        for out in outboxes {
            // A rank that already finished has dropped its inbox; nothing to tell it.
            let _ = out.unbounded_send(Envelope {
                from: rank,
                tag: ABORT_TAG,
                stamp: 0.0,
                data: Vec::new(),
            });
        }
    }
}

impl Transport for Mailbox {
    fn rank(&self) -> u64 {
        self.rank
    }

    fn size(&self) -> u64 {
        self.outboxes.len() as u64
    }

    async fn post(&mut self, to: u64, envelope: Envelope) -> Result<()> {
        self.outboxes[to as usize]
            .unbounded_send(envelope)
            .map_err(|_| {
                Error::Internal(format!(
                    "rank {} sent to rank {to}, which has already finished",
                    self.rank
                ))
            })
    }

    async fn fetch(&mut self, from: u64, tag: u32) -> Result<Envelope> {
        if let Some(k) = self
            .stash
            .iter()
            .position(|e| e.from == from && e.tag == tag)
        {
            return Ok(self.stash.remove(k));
        }
        loop {
            let Some(e) = self.inbox.next().await else {
                return Err(Error::Internal("an inbox closed during a run".into()));
            };
            if e.tag == ABORT_TAG {
                return Err(Error::Internal(format!(
                    "rank {} stopped: rank {} failed",
                    self.rank, e.from
                )));
            }
            if e.from == from && e.tag == tag {
                return Ok(e);
            }
            self.stash.push(e);
        }
    }
}

/// Runs `program` on `size` ranks in this process, each with a
/// [`Process`] whose ranks are the nodes of `host`; returns every rank's
/// result, in rank order. When a rank fails, the others are told and stop.
///
/// ```
/// use std::sync::Arc;
/// use topoembed::runtime::{local, Costs};
/// use topoembed::virtual_topology::{Direction, VirtualTopology};
/// let vt = Arc::new(VirtualTopology::from_specs("cube:4", "ring:16", "xor", &Default::default())?);
/// let shared = vt.clone();
/// let sums = local::run(vt.shared_host(), Costs::default(), move |mut p| {
///     let vt = shared.clone();
///     async move {
///         let mut x = vt.guest_of(p.rank()).unwrap() as f64; // play guest f^-1(rank)
///         for i in 0..4 {
///             let partner = vt.neighbor(p.rank(), Direction::Dimension(i)).unwrap();
///             x += p.exchange(partner, i, vec![x]).await?[0];
///         }
///         Ok((x, p.clock()))
///     }
/// })?;
/// // Every rank holds the sum; the xor embedding's CC time on ring:16 is 11 hops.
/// assert!(sums.iter().all(|&(x, clock)| x == 120.0 && clock == 11.0));
/// # Ok::<(), topoembed::Error>(())
/// ```
pub fn run<R, F, Fut>(host: Arc<dyn Topology>, costs: Costs, program: F) -> Result<Vec<R>>
where
    F: Fn(Process<Mailbox>) -> Fut,
    Fut: Future<Output = Result<R>> + Send + 'static,
    R: Send + 'static,
{
    let size = host.node_count();
    if size > MAX_RANKS {
        return Err(Error::Parameter(format!(
            "an in-process run takes at most {MAX_RANKS} ranks; {} has {size}",
            host.spec()
        )));
    }
    costs.check()?;
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(size as usize)
        .max(1);
    let pool = ThreadPool::builder()
        .pool_size(threads)
        .name_prefix("topoembed-rank-")
        .create()
        .map_err(|e| Error::Internal(format!("cannot start the rank threads: {e}")))?;
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| unbounded()).unzip();
    let outboxes = Arc::new(senders);
    // The first rank to fail records why before telling the others, so the
    // failures it causes (ranks told to stop) never hide the cause.
    let failure: Arc<Mutex<Option<Error>>> = Arc::default();
    let mut handles = Vec::with_capacity(size as usize);
    for (rank, inbox) in receivers.into_iter().enumerate() {
        let mailbox = Mailbox {
            rank: rank as u64,
            inbox,
            outboxes: Arc::clone(&outboxes),
            stash: Vec::new(),
        };
        let everyone = Arc::clone(&outboxes);
        let failure = Arc::clone(&failure);
        let work = program(Process::new(mailbox, Arc::clone(&host), costs));
        let task = async move {
            let result = work.await;
            if let Err(e) = &result {
                let mut first = failure.lock().unwrap_or_else(|p| p.into_inner());
                if first.is_none() {
                    *first = Some(e.clone());
                    drop(first);
                    Mailbox::abort_all(&everyone, rank as u64);
                }
            }
            result
        };
        handles.push(
            pool.spawn_with_handle(task)
                .map_err(|e| Error::Internal(format!("cannot start rank {rank}: {e}")))?,
        );
    }
    drop(outboxes);
    let results: Result<Vec<R>> = block_on(join_all(handles)).into_iter().collect();
    let cause = failure.lock().unwrap_or_else(|p| p.into_inner()).take();
    match cause {
        Some(e) => Err(e),
        None => results,
    }
}
