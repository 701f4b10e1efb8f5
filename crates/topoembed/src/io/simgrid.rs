//! SimGrid platform files (`topoembed export HOST --format simgrid`), so
//! that SimGrid's SMPI (`smpirun -platform P.xml -hostfile H ./app`) can
//! time an unchanged MPI program on the host with link contention.
//!
//! Rings, tori and hypercubes are SimGrid `TORUS` clusters (`TorusZone`:
//! `topo_parameters` the sides, first dimension fastest — topoembed's own
//! numbering, so host node i is SimGrid host `PREFIXi`; a hypercube is the
//! torus of d sides of 2, whose two links between a pair carry one hop).
//! Every other host whose nodes are all machines — lines, meshes, partly
//! wrapped grids, binary trees, graphs — is a `Full` zone: one host per
//! node, one full-duplex link (`SPLITDUPLEX`) per edge, and for every
//! ordered pair of hosts the route topoembed's own routing takes (the
//! route `metrics` counts congestion on: dimension order, ties toward
//! increasing coordinates; the tree's path; a graph's lowest-numbered
//! closer neighbour), so SimGrid contends the links topoembed predicts.
//! A `Full` zone lists n(n − 1) routes, so above [`MAX_ROUTED_HOSTS`]
//! hosts the zone is `DijkstraCache` with a route per link only: SimGrid
//! then takes shortest paths of its own choosing, as long as topoembed's
//! but not always through the same links (up to [`MAX_LINKED_HOSTS`]). With [`PlatformOptions::explicit_routes`] rings, tori and cubes
//! are written so too (SimGrid's TORUS routing breaks one tie its own way:
//! from coordinate k/2 of an even ring to 0 it goes down, topoembed up).
//! Fat trees and dragonflies are SimGrid's `FAT_TREE` and `DRAGONFLY`
//! clusters with the spec's parameters: topoembed routes as they do.
//! `tleaf` hierarchies have no links of their own (their distances are
//! costs): refused.

use std::io::Write;

use crate::error::{Error, Result};
use crate::routing::TieRule;
use crate::spec::Spec;
use crate::topology::Topology;

/// Most hosts of a platform with topoembed's route for every pair (a
/// `Full` zone lists every ordered pair's route: 65 280 routes, some 20 MB,
/// at this size); above it, SimGrid finds shortest paths itself.
pub const MAX_ROUTED_HOSTS: u64 = 256;

/// Most hosts of a platform whose routes SimGrid finds (`DijkstraCache`).
pub const MAX_LINKED_HOSTS: u64 = 1 << 16;

/// What every host and link of the platform gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformOptions {
    /// Host names: PREFIX0, PREFIX1, ...
    pub prefix: String,
    /// Each host's speed (SimGrid units: `1Gf`).
    pub speed: String,
    /// Each link's bandwidth (`10GBps`).
    pub bandwidth: String,
    /// Each link's latency (`1us`).
    pub latency: String,
    /// Rings, tori and hypercubes too as explicit links and topoembed's
    /// routes, not as a SimGrid TORUS cluster.
    pub explicit_routes: bool,
}

impl Default for PlatformOptions {
    fn default() -> Self {
        PlatformOptions {
            prefix: "node-".to_string(),
            speed: "1Gf".to_string(),
            bandwidth: "10GBps".to_string(),
            latency: "1us".to_string(),
            explicit_routes: false,
        }
    }
}

/// The sides of the SimGrid torus that is `spec`, first axis first; `None`
/// when it is not a torus.
fn torus_sides(spec: &Spec) -> Result<Option<Vec<u64>>> {
    let sides = match spec {
        Spec::Ring(n) => vec![*n],
        Spec::Torus(sides) => sides.clone(),
        Spec::Cube(d) => vec![2; *d as usize],
        _ => return Ok(None),
    };
    if sides.contains(&0) || sides.is_empty() {
        return Err(Error::Parameter(format!("{spec}: no nodes to write")));
    }
    Ok(Some(sides))
}

/// Checks a SimGrid quantity: a number and a unit made of letters (`1us`,
/// `10GBps`, `1Gf`); SimGrid itself would stop at load time.
fn quantity(what: &str, value: &str) -> Result<()> {
    let digits = value
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(digits);
    let ok = number
        .parse::<f64>()
        .is_ok_and(|x| x.is_finite() && x > 0.0)
        && !unit.is_empty()
        && unit.chars().all(|c| c.is_ascii_alphabetic());
    if ok {
        Ok(())
    } else {
        Err(Error::Parameter(format!(
            "--{what} '{value}': a positive number and a SimGrid unit, such as 1us, 10GBps or 1Gf"
        )))
    }
}

/// A host name prefix SimGrid and a hostfile both take as it is.
fn check_prefix(prefix: &str) -> Result<()> {
    if prefix.is_empty()
        || !prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(Error::Parameter(format!(
            "--prefix '{prefix}': letters, digits, '-', '_' or '.' only"
        )));
    }
    Ok(())
}

/// Writes the SMPI hostfile of a placement: line r is `PREFIX<h>`, the
/// platform's host of rank r (`hosts[r]` = h, a host node of the platform
/// [`write_simgrid_platform`] writes with the same prefix); `smpirun
/// -hostfile FILE` puts rank r on line r's host.
pub fn write_smpi_hostfile(hosts: &[u64], prefix: &str, out: &mut dyn Write) -> Result<()> {
    check_prefix(prefix)?;
    let io = |e: std::io::Error| Error::File(format!("cannot write the hostfile: {e}"));
    for h in hosts {
        writeln!(out, "{prefix}{h}").map_err(io)?;
    }
    Ok(())
}

/// Writes the platform of `spec` (module docs).
pub fn write_simgrid_platform(
    spec: &Spec,
    options: &PlatformOptions,
    out: &mut dyn Write,
) -> Result<()> {
    quantity("speed", &options.speed)?;
    quantity("bandwidth", &options.bandwidth)?;
    quantity("latency", &options.latency)?;
    check_prefix(&options.prefix)?;
    if let Some((topology, parameters)) = switched_cluster(spec) {
        if options.explicit_routes {
            return Err(Error::Parameter(format!(
                "{spec} is written as SimGrid's own {topology} cluster, whose routes topoembed \
                 follows; explicit routes are for tori, rings and hypercubes"
            )));
        }
        let nodes = spec.node_count().unwrap_or(0);
        return write_cluster(spec, nodes, topology, &parameters, options, out);
    }
    let sides = torus_sides(spec)?.filter(|_| !options.explicit_routes);
    let Some(sides) = sides else {
        if matches!(spec, Spec::Tleaf(..)) {
            return Err(Error::Parameter(format!(
                "{spec}: a tleaf has levels with costs, not links, so it has no SimGrid platform; \
                 write its machine as a graph of links (graph:FILE), a torus or a fat tree"
            )));
        }
        if spec.has_no_links() {
            return Err(Error::Parameter(format!(
                "{spec} gives distances between its nodes, not links, so it has no SimGrid \
                 platform; write its machine as a graph of links (graph:FILE), a torus or a fat tree"
            )));
        }
        if let Spec::Nodes(network, _) = spec {
            return Err(Error::Parameter(format!(
                "{spec}: a node's inside has no links of its own; export {network} and run \
                 several ranks on each of its hosts"
            )));
        }
        if let Spec::Allocation(host, _) = spec {
            return Err(Error::Parameter(format!(
                "{spec}: an allocation runs on its whole machine; export {host} and place the \
                 ranks on the allocation's nodes with the hostfile `map --format smpi-hostfile` \
                 writes"
            )));
        }
        let host = crate::topology::build(spec)?;
        return write_routed_platform(host.as_ref(), options, out);
    };
    let nodes = sides
        .iter()
        .try_fold(1u64, |n, &k| n.checked_mul(k))
        .ok_or_else(|| Error::Parameter(format!("{spec}: too many nodes")))?;
    let parameters: Vec<String> = sides.iter().map(u64::to_string).collect();
    write_cluster(spec, nodes, "TORUS", &parameters.join(","), options, out)
}

/// Fat trees and dragonflies: SimGrid's cluster topology and its
/// `topo_parameters`, which are the spec's body.
fn switched_cluster(spec: &Spec) -> Option<(&'static str, String)> {
    let topology = match spec {
        Spec::FatTree(_) => "FAT_TREE",
        Spec::Dragonfly(_) => "DRAGONFLY",
        _ => return None,
    };
    let text = spec.to_string();
    let (_, parameters) = text.split_once(':')?;
    Some((topology, parameters.to_string()))
}

/// One SimGrid cluster of `nodes` hosts PREFIX0.. of `topology`.
fn write_cluster(
    spec: &Spec,
    nodes: u64,
    topology: &str,
    parameters: &str,
    options: &PlatformOptions,
    out: &mut dyn Write,
) -> Result<()> {
    let io = |e: std::io::Error| Error::File(format!("cannot write the platform: {e}"));
    let order = if topology == "TORUS" {
        " (first axis fastest)"
    } else {
        ""
    };
    write!(
        out,
        "<?xml version='1.0'?>\n\
         <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n\
         <!-- {spec}: host i is {prefix}i{order}; written by topoembed -->\n\
         <platform version=\"4.1\">\n  \
         <cluster id=\"host\" prefix=\"{prefix}\" radical=\"0-{last}\" suffix=\"\" \
         speed=\"{speed}\" bw=\"{bw}\" lat=\"{lat}\" topology=\"{topology}\" topo_parameters=\"{parameters}\"/>\n\
         </platform>\n",
        prefix = options.prefix,
        last = nodes - 1,
        speed = options.speed,
        bw = options.bandwidth,
        lat = options.latency,
    )
    .map_err(io)
}

/// A `Full` zone with one link per edge and topoembed's route for every
/// ordered pair of hosts (module docs).
fn write_routed_platform(
    host: &dyn Topology,
    options: &PlatformOptions,
    out: &mut dyn Write,
) -> Result<()> {
    let n = host.node_count();
    if n > MAX_LINKED_HOSTS {
        return Err(Error::Parameter(format!(
            "{}: {n} hosts; --format simgrid writes at most {MAX_LINKED_HOSTS} hosts with \
             explicit links (tori, rings and hypercubes of any size are TORUS clusters)",
            host.spec()
        )));
    }
    // Every pair's route up to MAX_ROUTED_HOSTS; SimGrid's shortest paths above.
    let full = n <= MAX_ROUTED_HOSTS;
    let io = |e: std::io::Error| Error::File(format!("cannot write the platform: {e}"));
    let mut out = std::io::BufWriter::new(out);
    let (prefix, bw, lat) = (&options.prefix, &options.bandwidth, &options.latency);
    writeln!(
        out,
        "<?xml version='1.0'?>\n\
         <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n\
         <!-- {spec}: host i is {prefix}i; one full-duplex link per edge (l-u-v, u < v: UP is \
         u to v); {routes}; written by topoembed -->\n\
         <platform version=\"4.1\">\n  <zone id=\"host\" routing=\"{routing}\">",
        spec = host.spec(),
        routes = if full {
            format!(
                "routes as topoembed routes: {}",
                crate::routing::describe_model(host, TieRule::Increasing)
            )
        } else {
            format!(
                "over {MAX_ROUTED_HOSTS} hosts: SimGrid's shortest paths over the links, as \
                 long as topoembed's routes but not always through the same links"
            )
        },
        routing = if full { "Full" } else { "DijkstraCache" },
    )
    .map_err(io)?;
    for v in 0..n {
        writeln!(
            out,
            "    <host id=\"{prefix}{v}\" speed=\"{}\"/>",
            options.speed
        )
        .map_err(io)?;
    }
    let mut edges = Vec::new();
    host.for_each_edge(0..n, &mut |u, v, _| edges.push((u.min(v), u.max(v))));
    for &(a, b) in &edges {
        writeln!(
            out,
            "    <link id=\"l-{a}-{b}\" bandwidth=\"{bw}\" latency=\"{lat}\" \
             sharing_policy=\"SPLITDUPLEX\"/>"
        )
        .map_err(io)?;
    }
    if !full {
        // One route per link and direction: SimGrid finds the rest.
        for &(a, b) in &edges {
            for (src, dst, direction) in [(a, b, "UP"), (b, a, "DOWN")] {
                writeln!(
                    out,
                    "    <route src=\"{prefix}{src}\" dst=\"{prefix}{dst}\" symmetrical=\"NO\">\
                     <link_ctn id=\"l-{a}-{b}\" direction=\"{direction}\"/></route>"
                )
                .map_err(io)?;
            }
        }
        writeln!(out, "  </zone>\n</platform>").map_err(io)?;
        return out.flush().map_err(io);
    }
    let mut path = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            path.clear();
            host.route(a, b, TieRule::Increasing, &mut path);
            write!(
                out,
                "    <route src=\"{prefix}{a}\" dst=\"{prefix}{b}\" symmetrical=\"NO\">"
            )
            .map_err(io)?;
            let mut at = a;
            for &next in &path {
                let (lo, hi) = (at.min(next), at.max(next));
                let direction = if at < next { "UP" } else { "DOWN" };
                write!(
                    out,
                    "<link_ctn id=\"l-{lo}-{hi}\" direction=\"{direction}\"/>"
                )
                .map_err(io)?;
                at = next;
            }
            writeln!(out, "</route>").map_err(io)?;
        }
    }
    writeln!(out, "  </zone>\n</platform>").map_err(io)?;
    out.flush().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform(spec: &str, options: &PlatformOptions) -> Result<String> {
        let mut out = Vec::new();
        write_simgrid_platform(&spec.parse()?, options, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn tori_rings_and_cubes_are_torus_clusters() {
        let defaults = PlatformOptions::default();
        let t = platform("torus:4x8", &defaults).unwrap();
        assert!(t.contains("radical=\"0-31\""), "{t}");
        assert!(
            t.contains("topology=\"TORUS\" topo_parameters=\"4,8\""),
            "{t}"
        );
        assert!(platform("ring:16", &defaults)
            .unwrap()
            .contains("topo_parameters=\"16\""));
        assert!(platform("cube:3", &defaults)
            .unwrap()
            .contains("topo_parameters=\"2,2,2\""));
    }

    /// Hosts without full wrap-around: every ordered pair has a route, and
    /// each route walks its links end to end from src to dst in as many
    /// hops as topoembed's distance (the links of topoembed's routing).
    #[test]
    fn other_hosts_get_topoembeds_routes_link_by_link() {
        let defaults = PlatformOptions::default();
        let explicit = PlatformOptions {
            explicit_routes: true,
            ..defaults.clone()
        };
        for spec in [
            "mesh:4x4",
            "line:8",
            "grid:4wx3",
            "mesh:2x3x2",
            "bintree:8",
            "torus:4x4",
            "cube:3",
        ] {
            let host = crate::topology::parse(spec).unwrap();
            let n = host.node_count();
            let xml = platform(spec, &explicit).unwrap();
            assert!(!xml.contains("TORUS"), "{spec}");
            let links = xml.matches("<link id=").count() as u64;
            assert_eq!(links, host.edge_count(), "{spec}");
            let mut routes = 0;
            for line in xml
                .lines()
                .filter(|l| l.trim_start().starts_with("<route "))
            {
                routes += 1;
                let attr = |name: &str| -> u64 {
                    let at = line.find(&format!("{name}=\"node-")).unwrap() + name.len() + 7;
                    line[at..].split('"').next().unwrap().parse().unwrap()
                };
                let (src, dst) = (attr("src"), attr("dst"));
                let mut at = src;
                let mut hops = 0;
                for hop in line.split("<link_ctn id=\"l-").skip(1) {
                    let (ends, rest) = hop.split_once('"').unwrap();
                    let (x, y) = ends.split_once('-').unwrap();
                    let (x, y): (u64, u64) = (x.parse().unwrap(), y.parse().unwrap());
                    assert!(x < y && host.distance(x, y) == 1, "{spec}: l-{x}-{y}");
                    at = match rest.contains("\"UP\"") {
                        true => {
                            assert_eq!(at, x, "{spec}: {line}");
                            y
                        }
                        false => {
                            assert_eq!(at, y, "{spec}: {line}");
                            x
                        }
                    };
                    hops += 1;
                }
                assert_eq!(at, dst, "{spec}: {line}");
                assert_eq!(hops, host.distance(src, dst), "{spec}: {line}");
            }
            assert_eq!(routes, n * (n - 1), "{spec}");
        }
    }

    #[test]
    fn what_has_no_platform_or_not_a_quantity_is_refused() {
        let defaults = PlatformOptions::default();
        for (spec, says) in [
            ("tleaf:2x4:10,1", "no SimGrid platform"),
            ("mesh:300x300", "at most 65536 hosts"),
        ] {
            let e = platform(spec, &defaults).unwrap_err().to_string();
            assert!(e.contains(says), "{spec}: {e}");
        }
        for (bad, says) in [
            (
                PlatformOptions {
                    latency: "fast".into(),
                    ..defaults.clone()
                },
                "--latency 'fast'",
            ),
            (
                PlatformOptions {
                    bandwidth: "10".into(),
                    ..defaults.clone()
                },
                "--bandwidth '10'",
            ),
            (
                PlatformOptions {
                    speed: "-1Gf".into(),
                    ..defaults.clone()
                },
                "--speed '-1Gf'",
            ),
            (
                PlatformOptions {
                    prefix: "a\"b".into(),
                    ..defaults.clone()
                },
                "--prefix",
            ),
        ] {
            let e = platform("ring:4", &bad).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }
}
