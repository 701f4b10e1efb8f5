//! Link and node loads under any routing model, by walking every route hop
//! by hop: O(Σ dilation). Used for hypercube, tree and graph hosts and for
//! user-supplied routes; on grids it is the reference the tests hold the
//! prefix-sum shortcut of [`super::lines`] to.

use rayon::prelude::*;

use super::counters::Replicas;
use super::{for_mapped_edges, off_host, volume_at, Summary, Traffic};
use crate::embed::Embedding;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::routing::Route;
use crate::topology::Topology;

/// What went wrong on one route.
enum Fault {
    OffHost(u64),
    BadRoute(String),
}

pub(super) fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    embedding: &dyn Embedding,
    route: &dyn Route,
    progress: Option<&Progress>,
) -> Result<Traffic> {
    let n = host.node_count();
    let slots = host.link_slots();
    // Layout: link loads by slot, then routes through each node, then route ends.
    let replicas = Replicas::new(slots + 2 * n, "link and node loads")?;
    let fault = crate::stream::chunks(guest.node_count())
        .into_par_iter()
        .map(|range| {
            replicas.with(|counters| {
                let (links, rest) = counters.split_at_mut(slots as usize);
                let (inner, ends) = rest.split_at_mut(n as usize);
                let mut path = Vec::new();
                let mut fault = None;
                for_mapped_edges(guest, embedding, range, progress, |from, to, volumes| {
                    for (k, (&a, &b)) in from.iter().zip(to).enumerate() {
                        if fault.is_some() || a == b {
                            continue;
                        }
                        if a.max(b) >= n {
                            fault = Some(Fault::OffHost(a.max(b)));
                            continue;
                        }
                        path.clear();
                        route.path(a, b, &mut path);
                        let w = volume_at(volumes, k);
                        if let Err(f) = count_path(host, a, b, &path, w, links, inner) {
                            fault = Some(f);
                            continue;
                        }
                        ends[a as usize] += w;
                        ends[b as usize] += w;
                    }
                });
                fault
            })
        })
        .find_any(Option::is_some)
        .flatten();
    match fault {
        Some(Fault::OffHost(node)) => return Err(off_host(host, node)),
        Some(Fault::BadRoute(why)) => {
            return Err(Error::Internal(format!("{}: {why}", route.describe())))
        }
        None => {}
    }
    let counters = replicas.sum();
    let (links, rest) = counters.split_at(slots as usize);
    let (inner, ends) = rest.split_at(n as usize);
    Ok(summarise(host, links, inner, ends).finish(host.spec().grid().is_some()))
}

/// Adds one route's links and inner nodes, checking that it is a path of
/// host links from `a` to `b`.
fn count_path(
    host: &dyn Topology,
    a: u64,
    b: u64,
    path: &[u64],
    w: u32,
    links: &mut [u32],
    inner: &mut [u32],
) -> Result<(), Fault> {
    if path.last() != Some(&b) {
        return Err(Fault::BadRoute(format!(
            "the route from host node {a} to {b} does not end at {b}"
        )));
    }
    let mut here = a;
    for (k, &next) in path.iter().enumerate() {
        let Some(slot) = host.link_slot(here, next) else {
            return Err(Fault::BadRoute(format!(
                "the route from host node {a} to {b} steps from {here} to {next}, \
                 which are not neighbours in {}",
                host.spec()
            )));
        };
        links[slot as usize] += w;
        if k + 1 < path.len() {
            inner[next as usize] += w;
        }
        here = next;
    }
    Ok(())
}

fn summarise(host: &dyn Topology, links: &[u32], inner: &[u32], ends: &[u32]) -> Summary {
    let n = host.node_count();
    let classes = host.edge_classes() as usize;
    crate::stream::chunks(n)
        .into_par_iter()
        .map(|range| {
            let mut s = Summary::with_axes(classes);
            host.for_each_edge(range.clone(), &mut |u, v, class| {
                // Every enumerated edge is a link, so it has a slot.
                if let Some(slot) = host.link_slot(u, v) {
                    let load = u64::from(links[slot as usize]);
                    s.links.add(load);
                    s.axes[class as usize].add(load);
                    s.histogram.add(load);
                }
            });
            for x in range {
                let through = u64::from(inner[x as usize]);
                s.load.add(through);
                s.traffic.add(through + u64::from(ends[x as usize]));
            }
            s
        })
        .reduce(|| Summary::with_axes(classes), Summary::merge)
}
