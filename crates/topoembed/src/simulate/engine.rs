//! The event loop. Events (a message asking for its next link, a message
//! arriving, a process asking for a shared processor) are handled in time
//! order, ties in the order they were scheduled; a process runs ahead
//! through operations that cannot be delayed by anyone else (compute on a
//! processor of its own, sends) and stops at the first that can.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use rustc_hash::{FxHashMap, FxHashSet};

use super::{
    Activity, Duplex, Interval, LinkUse, Network, Op, Options, ProcessTime, Simulation, Switching,
    Trace,
};
use crate::error::{Error, Result};
use crate::progress::{self, Progress};
use crate::topology::Topology;

/// Simulates `trace` on `host` under `network`.
pub fn simulate(
    trace: &Trace,
    host: &dyn Topology,
    network: &Network,
    options: &Options,
    progress: Option<&Progress>,
) -> Result<Simulation> {
    network.check()?;
    trace.check(host)?;
    if let Some(p) = progress {
        p.add_total(trace.op_count());
    }
    let mut engine = Engine::new(trace, host, network, options, progress);
    for p in 0..trace.ops.len() {
        engine.run(p);
    }
    engine.drain()?;
    engine.finish()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A message asks for the next link of its route.
    Hop(usize),
    /// A message has arrived.
    Deliver(usize),
    /// A process asks for its (shared) processor.
    Processor(usize),
}

#[derive(Debug, PartialEq)]
struct Event {
    time: f64,
    seq: u64,
    kind: Kind,
}

impl Eq for Event {}

impl Ord for Event {
    /// Reversed, so that the max-heap pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then(other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A message from its send to its arrival.
#[derive(Debug, Default)]
struct Message {
    from: usize,
    to: usize,
    values: u64,
    /// When the send was posted.
    sent: f64,
    /// When it left (send and receive both posted).
    depart: f64,
    /// Contention-free time.
    cost: f64,
    /// Host nodes from the sender's to the receiver's (contention only).
    route: Vec<u64>,
    /// Links crossed so far.
    hop: usize,
    /// When the previous hop's link was released.
    prev_end: f64,
    delayed: bool,
}

/// Where a process is stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Running,
    /// In a receive (or the receive half of a send-receive) posted at `posted`.
    Receiving {
        from: usize,
        tag: u32,
        posted: f64,
        /// When the send half is done (`posted` for a plain receive).
        out_done: f64,
        matched: Option<usize>,
    },
    Barrier,
    Done,
}

/// Per-link state by link number: a table when the host's numbering is
/// small enough (the usual case, no hashing per hop), else a map of the
/// links used.
enum Links {
    Table(Vec<Link>),
    Map(FxHashMap<u64, Link>),
}

/// Largest link table allocated up front.
const LINK_TABLE_LIMIT: u64 = 1 << 24;

impl Links {
    fn new(slots: u64, duplex: Duplex) -> Links {
        let keys = match duplex {
            Duplex::Half => slots,
            Duplex::Full => slots.saturating_mul(2),
        };
        if keys <= LINK_TABLE_LIMIT {
            Links::Table(vec![Link::default(); keys as usize])
        } else {
            Links::Map(FxHashMap::default())
        }
    }

    fn get(&mut self, key: u64) -> &mut Link {
        match self {
            Links::Table(t) => &mut t[key as usize],
            Links::Map(m) => m.entry(key).or_default(),
        }
    }

    /// Links that carried a message.
    fn used(&self) -> Box<dyn Iterator<Item = &Link> + '_> {
        match self {
            Links::Table(t) => Box::new(t.iter().filter(|l| l.messages > 0)),
            Links::Map(m) => Box::new(m.values()),
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Link {
    from: u64,
    to: u64,
    free: f64,
    busy: f64,
    messages: u64,
}

struct Engine<'a> {
    trace: &'a Trace,
    host: &'a dyn Topology,
    net: Network,
    record: usize,
    skip_links: bool,
    progress: Option<&'a Progress>,
    pc: Vec<usize>,
    clock: Vec<f64>,
    state: Vec<State>,
    times: Vec<ProcessTime>,
    intervals: Vec<Vec<Interval>>,
    messages: Vec<Message>,
    free_messages: Vec<usize>,
    /// Sends not yet matched, by (receiver, sender, tag), oldest first.
    unmatched: FxHashMap<(usize, usize, u32), VecDeque<usize>>,
    links: Links,
    /// Host nodes with more than one process, and when each processor is free.
    shared: FxHashMap<u64, f64>,
    at_barrier: Vec<usize>,
    heap: BinaryHeap<Event>,
    seq: u64,
    events: u64,
    sent: u64,
    hops: u64,
    delayed: u64,
    link_delay: f64,
    processor_delay: f64,
    done_ops: u64,
}

impl<'a> Engine<'a> {
    fn new(
        trace: &'a Trace,
        host: &'a dyn Topology,
        net: &Network,
        options: &Options,
        progress: Option<&'a Progress>,
    ) -> Engine<'a> {
        let n = trace.ops.len();
        let mut seen = FxHashSet::default();
        let shared = trace
            .placement
            .iter()
            .filter(|&&h| !seen.insert(h))
            .map(|&h| (h, 0.0))
            .collect();
        let record = (options.record as usize).min(n);
        Engine {
            trace,
            host,
            net: *net,
            record,
            skip_links: options.skip_links && !net.contention,
            progress,
            pc: vec![0; n],
            clock: vec![0.0; n],
            state: vec![State::Running; n],
            times: vec![ProcessTime::default(); n],
            intervals: vec![Vec::new(); record],
            messages: Vec::new(),
            free_messages: Vec::new(),
            unmatched: FxHashMap::default(),
            links: Links::new(host.link_slots(), net.duplex),
            shared,
            at_barrier: Vec::new(),
            heap: BinaryHeap::new(),
            seq: 0,
            events: 0,
            sent: 0,
            hops: 0,
            delayed: 0,
            link_delay: 0.0,
            processor_delay: 0.0,
            done_ops: 0,
        }
    }

    fn schedule(&mut self, time: f64, kind: Kind) {
        self.seq += 1;
        self.heap.push(Event {
            time,
            seq: self.seq,
            kind,
        });
    }

    fn mark(&mut self, p: usize, start: f64, end: f64, activity: Activity) {
        if p < self.record && end > start {
            self.intervals[p].push(Interval {
                start,
                end,
                activity,
            });
        }
    }

    /// One operation of `p` is done.
    fn step(&mut self, p: usize) {
        self.pc[p] += 1;
        self.done_ops += 1;
        if self.done_ops % 4096 == 0 {
            progress::advance(self.progress, 4096);
        }
    }

    /// Runs `p` from its clock until it must wait for someone else.
    fn run(&mut self, p: usize) {
        self.state[p] = State::Running;
        loop {
            let Some(&op) = self.trace.ops[p].get(self.pc[p]) else {
                self.state[p] = State::Done;
                self.times[p].end = self.clock[p];
                return;
            };
            let now = self.clock[p];
            match op {
                Op::Compute { phases } => {
                    if self.net.contention && self.shared.contains_key(&self.trace.placement[p]) {
                        self.schedule(now, Kind::Processor(p));
                        return;
                    }
                    let t = phases as f64 * self.net.costs.ta;
                    self.compute(p, now, t);
                }
                Op::Send { to, tag, values } => {
                    let cost = self.post(p, to as usize, tag, values);
                    self.mark(p, now, now + cost, Activity::Communicate);
                    self.times[p].communication += cost;
                    self.clock[p] = now + cost;
                    self.step(p);
                }
                Op::Receive { from, tag } => {
                    self.receive(p, from as usize, tag, now);
                    return;
                }
                Op::SendRecv {
                    to,
                    values,
                    from,
                    tag,
                } => {
                    let cost = self.post(p, to as usize, tag, values);
                    self.receive(p, from as usize, tag, now + cost);
                    return;
                }
                Op::Barrier => {
                    self.state[p] = State::Barrier;
                    self.at_barrier.push(p);
                    if self.at_barrier.len() == self.trace.ops.len() {
                        self.release_barrier();
                    }
                    return;
                }
            }
        }
    }

    fn compute(&mut self, p: usize, start: f64, t: f64) {
        self.mark(p, start, start + t, Activity::Compute);
        self.times[p].compute += t;
        self.clock[p] = start + t;
        self.step(p);
    }

    fn release_barrier(&mut self) {
        let all = std::mem::take(&mut self.at_barrier);
        let latest = all.iter().map(|&p| self.clock[p]).fold(0.0, f64::max);
        for &p in &all {
            let waited = latest - self.clock[p];
            self.mark(p, self.clock[p], latest, Activity::Wait);
            self.times[p].waiting += waited;
            self.clock[p] = latest;
            self.step(p);
        }
        for p in all {
            self.run(p);
        }
    }

    /// Posts a message from `p` (at its clock) to `to`; returns its
    /// contention-free time, which the sender is busy for.
    fn post(&mut self, p: usize, to: usize, tag: u32, values: u64) -> f64 {
        let (a, b) = (self.trace.placement[p], self.trace.placement[to]);
        let hops = self.host.distance(a, b);
        let cost = self.net.message_time(hops, values);
        self.sent += 1;
        self.hops += hops;
        let id = self.free_messages.pop().unwrap_or_else(|| {
            self.messages.push(Message::default());
            self.messages.len() - 1
        });
        let m = &mut self.messages[id];
        m.from = p;
        m.to = to;
        m.values = values;
        m.sent = self.clock[p];
        m.cost = cost;
        m.hop = 0;
        m.prev_end = f64::NEG_INFINITY;
        m.delayed = false;
        match self.state[to] {
            State::Receiving {
                from,
                tag: want,
                posted,
                out_done,
                matched: None,
            } if from == p && want == tag => {
                self.state[to] = State::Receiving {
                    from,
                    tag,
                    posted,
                    out_done,
                    matched: Some(id),
                };
                let depart = posted.max(self.clock[p]);
                self.depart(id, depart);
            }
            _ => self
                .unmatched
                .entry((to, p, tag))
                .or_default()
                .push_back(id),
        }
        cost
    }

    /// `p` posts a receive from `from` with `tag` at its clock; the send half
    /// (if any) is done at `out_done`.
    fn receive(&mut self, p: usize, from: usize, tag: u32, out_done: f64) {
        let posted = self.clock[p];
        let key = (p, from, tag);
        let matched = match self.unmatched.get_mut(&key) {
            Some(queue) => {
                let id = queue.pop_front();
                if queue.is_empty() {
                    self.unmatched.remove(&key);
                }
                id
            }
            None => None,
        };
        self.state[p] = State::Receiving {
            from,
            tag,
            posted,
            out_done,
            matched,
        };
        if let Some(id) = matched {
            let depart = posted.max(self.messages[id].sent);
            self.depart(id, depart);
        }
    }

    /// Message `id` leaves at `depart`.
    fn depart(&mut self, id: usize, depart: f64) {
        self.messages[id].depart = depart;
        let (a, b) = (
            self.trace.placement[self.messages[id].from],
            self.trace.placement[self.messages[id].to],
        );
        if self.skip_links {
            let arrival = depart + self.messages[id].cost;
            self.schedule(arrival, Kind::Deliver(id));
            return;
        }
        let mut route = std::mem::take(&mut self.messages[id].route);
        route.clear();
        route.push(a);
        self.host.route(a, b, self.net.ties, &mut route);
        if route.len() == 1 {
            self.messages[id].route = route;
            self.schedule(depart, Kind::Deliver(id));
        } else if self.net.contention {
            self.messages[id].route = route;
            self.schedule(depart, Kind::Hop(id));
        } else {
            // Links are never busy: account for their use, deliver on time.
            let occupied = self.net.link_time(self.messages[id].values);
            for w in route.windows(2) {
                let link = self.link(w[0], w[1]);
                link.busy += occupied;
                link.messages += 1;
            }
            self.messages[id].route = route;
            let arrival = depart + self.messages[id].cost;
            self.schedule(arrival, Kind::Deliver(id));
        }
    }

    fn link(&mut self, u: u64, v: u64) -> &mut Link {
        let slot = self
            .host
            .link_slot(u, v)
            .expect("routes only cross host links");
        let key = match self.net.duplex {
            Duplex::Half => slot,
            Duplex::Full => 2 * slot + u64::from(u > v),
        };
        let link = self.links.get(key);
        if link.messages == 0 {
            (link.from, link.to) = (u, v);
        }
        link
    }

    /// Message `id` asks at `t` for the next link of its route.
    fn hop(&mut self, id: usize, t: f64) {
        let (u, v, values, prev_end) = {
            let m = &self.messages[id];
            (m.route[m.hop], m.route[m.hop + 1], m.values, m.prev_end)
        };
        let occupied = self.net.link_time(values);
        let (switching, th) = (self.net.switching, self.net.th);
        let link = self.link(u, v);
        let start = t.max(link.free);
        let end = match switching {
            Switching::StoreAndForward => start + occupied,
            Switching::CutThrough => (start + occupied).max(prev_end + th),
        };
        link.free = end;
        link.busy += end - start;
        link.messages += 1;
        let m = &mut self.messages[id];
        m.delayed |= start > t;
        m.prev_end = end;
        m.hop += 1;
        if m.hop + 1 == m.route.len() {
            self.schedule(end, Kind::Deliver(id));
        } else {
            let next = match switching {
                Switching::StoreAndForward => end,
                Switching::CutThrough => start + th,
            };
            self.schedule(next, Kind::Hop(id));
        }
    }

    /// Message `id` arrives at `arrival`: its receiver goes on.
    fn deliver(&mut self, id: usize, arrival: f64) -> Result<()> {
        let m = &self.messages[id];
        let (q, depart, cost, delayed) = (m.to, m.depart, m.cost, m.delayed);
        let State::Receiving {
            posted, out_done, ..
        } = self.state[q]
        else {
            return Err(Error::Internal(format!(
                "a message arrived at process {q}, which is not receiving"
            )));
        };
        let blocked = (arrival - depart - cost).max(0.0);
        self.delayed += u64::from(delayed);
        self.link_delay += blocked;
        let end = out_done.max(arrival);
        self.mark(q, posted, depart, Activity::Wait);
        self.mark(q, depart, depart + cost, Activity::Communicate);
        self.mark(q, depart + cost, arrival, Activity::Blocked);
        self.mark(q, arrival, end, Activity::Communicate);
        let t = &mut self.times[q];
        t.waiting += depart - posted;
        t.blocked += blocked;
        t.communication += end - depart - blocked;
        self.clock[q] = end;
        self.free_messages.push(id);
        self.step(q);
        self.run(q);
        Ok(())
    }

    /// Process `p` asks at `t` for its shared processor.
    fn processor(&mut self, p: usize, t: f64) {
        let Op::Compute { phases } = self.trace.ops[p][self.pc[p]] else {
            unreachable!("a processor request is only scheduled for a compute phase")
        };
        let length = phases as f64 * self.net.costs.ta;
        let free = self
            .shared
            .get_mut(&self.trace.placement[p])
            .expect("only shared processors are requested");
        let start = t.max(*free);
        *free = start + length;
        self.mark(p, t, start, Activity::Blocked);
        self.times[p].blocked += start - t;
        self.processor_delay += start - t;
        self.compute(p, start, length);
        self.run(p);
    }

    fn drain(&mut self) -> Result<()> {
        while let Some(event) = self.heap.pop() {
            self.events += 1;
            match event.kind {
                Kind::Hop(id) => self.hop(id, event.time),
                Kind::Deliver(id) => self.deliver(id, event.time)?,
                Kind::Processor(p) => self.processor(p, event.time),
            }
        }
        progress::advance(self.progress, self.done_ops % 4096);
        match self.state.iter().position(|s| *s != State::Done) {
            None => Ok(()),
            Some(p) => Err(self.stuck(p)),
        }
    }

    /// Why the trace cannot finish: process `p` waits for something that never comes.
    fn stuck(&self, p: usize) -> Error {
        let why = match self.state[p] {
            State::Receiving { from, tag, .. } => {
                format!("waits for a message from process {from} with tag {tag} that is never sent")
            }
            State::Barrier => format!(
                "waits at a barrier that {} of {} processes never reach",
                self.trace.ops.len() - self.at_barrier.len(),
                self.trace.ops.len()
            ),
            State::Running | State::Done => "stopped".to_string(),
        };
        Error::Parameter(format!(
            "the trace deadlocks: process {p} (operation {}) {why}",
            self.pc[p] + 1
        ))
    }

    fn finish(self) -> Result<Simulation> {
        let mut links: Vec<LinkUse> = self
            .links
            .used()
            .map(|l| LinkUse {
                from: l.from,
                to: l.to,
                busy: l.busy,
                messages: l.messages,
            })
            .collect();
        links.sort_by(|a, b| {
            b.busy
                .total_cmp(&a.busy)
                .then(a.from.cmp(&b.from))
                .then(a.to.cmp(&b.to))
        });
        Ok(Simulation {
            network: self.net,
            makespan: self.times.iter().map(|t| t.end).fold(0.0, f64::max),
            messages: self.sent,
            hops: self.hops,
            delayed_messages: self.delayed,
            link_delay: self.link_delay,
            processor_delay: self.processor_delay,
            events: self.events,
            processes: self.times,
            intervals: self.intervals,
            links,
        })
    }
}
