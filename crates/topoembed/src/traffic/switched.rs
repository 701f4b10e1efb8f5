//! Link and node loads on a host whose links are a network's (fat tree,
//! dragonfly, allocation): every guest edge is routed over the network's
//! links by the network's own model ([`Network::route_links`]: SimGrid's
//! routes; an allocation's host's), O(Σ route length). A node's load
//! "through" counts the routes over it ([`Network::route_through`]: none on
//! fat trees and dragonflies, whose switches forward; an allocation's
//! nodes on its host's routes), its traffic also those that start or end
//! there; the congestion, histogram and per-class loads are over the
//! network's links, idle ones included.

use rayon::prelude::*;

use super::counters::Replicas;
use super::Traffic;
use super::{for_mapped_edges, off_host, volume_at, AxisLoad, Congestion, Histogram, Tally};
use crate::embed::Embedding;
use crate::error::Result;
use crate::progress::Progress;
use crate::topology::{Network, Topology};

pub(super) fn measure(
    guest: &dyn Topology,
    host: &dyn Topology,
    network: &dyn Network,
    embedding: &dyn Embedding,
    progress: Option<&Progress>,
) -> Result<Traffic> {
    let n = host.node_count();
    let links = network.link_count();
    // Layout: link loads by link id, then routes through each host node,
    // then the route ends there.
    let replicas: Replicas<u32> = Replicas::new(links + 2 * n, "link loads")?;
    let off = crate::stream::chunks(guest.node_count())
        .into_par_iter()
        .map(|range| {
            replicas.with(|counters| {
                let (loads, rest) = counters.split_at_mut(links as usize);
                let (inner, ends) = rest.split_at_mut(n as usize);
                let (mut route, mut through) = (Vec::new(), Vec::new());
                let mut off = None;
                for_mapped_edges(guest, embedding, range, progress, |from, to, volumes| {
                    for (k, (&a, &b)) in from.iter().zip(to).enumerate() {
                        if a == b || off.is_some() {
                            continue;
                        }
                        if a.max(b) >= n {
                            off = Some(a.max(b));
                            continue;
                        }
                        let w = volume_at(volumes, k);
                        route.clear();
                        through.clear();
                        network.route_through(a, b, &mut route, &mut through);
                        for &link in &route {
                            loads[link as usize] += w;
                        }
                        for &x in &through {
                            inner[x as usize] += w;
                        }
                        ends[a as usize] += w;
                        ends[b as usize] += w;
                    }
                });
                off
            })
        })
        .find_any(Option::is_some)
        .flatten();
    if let Some(node) = off {
        return Err(off_host(host, node));
    }
    let counters = replicas.sum();
    let (loads, rest) = counters.split_at(links as usize);
    let (inner, ends) = rest.split_at(n as usize);
    let classes = network.link_classes() as usize;
    let (mut all, mut by_class, mut histogram) = (
        Tally::default(),
        vec![Tally::default(); classes],
        Histogram::default(),
    );
    for (link, &load) in loads.iter().enumerate() {
        let load = u64::from(load);
        all.add(load);
        by_class[network.link_class(link as u64) as usize].add(load);
        histogram.add(load);
    }
    let (mut load, mut traffic) = (Tally::default(), Tally::default());
    for (&through, &e) in inner.iter().zip(ends) {
        load.add(u64::from(through));
        traffic.add(u64::from(through) + u64::from(e));
    }
    Ok(Traffic {
        routing: network.describe_routing(),
        congestion: Congestion {
            max: all.stats().max,
            average: all.average(),
            histogram: histogram.into_map(),
        },
        link_load: Some(
            by_class
                .iter()
                .enumerate()
                .filter(|(_, t)| t.count() > 0)
                .map(|(k, t)| AxisLoad {
                    axis: k as u32 + 1,
                    name: Some(network.class_name(k as u32)),
                    max: t.stats().max,
                    min: t.stats().min,
                    average: t.average(),
                })
                .collect(),
        ),
        node_load: load.stats(),
        node_traffic: traffic.stats(),
    })
}
