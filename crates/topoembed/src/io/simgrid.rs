//! SimGrid platform files (`topoembed export HOST --format simgrid`), so
//! that SimGrid's SMPI (`smpirun -platform P.xml -hostfile H ./app`) can
//! time an unchanged MPI program on the host with link contention.
//!
//! Rings, tori and hypercubes are SimGrid `TORUS` clusters (`TorusZone`:
//! `topo_parameters` the sides, first dimension fastest — topoembed's own
//! numbering, so host node i is SimGrid host `PREFIXi`; a hypercube is the
//! torus of d sides of 2, whose two links between a pair carry one hop).
//! Hosts without wrap-around on every axis (lines, meshes, partly wrapped
//! grids) and graphs need explicit links and routes, which are not written
//! yet: an error says so.

use std::io::Write;

use crate::error::{Error, Result};
use crate::spec::Spec;

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
}

impl Default for PlatformOptions {
    fn default() -> Self {
        PlatformOptions {
            prefix: "node-".to_string(),
            speed: "1Gf".to_string(),
            bandwidth: "10GBps".to_string(),
            latency: "1us".to_string(),
        }
    }
}

/// The sides of the SimGrid torus that is `spec`, first axis first.
fn torus_sides(spec: &Spec) -> Result<Vec<u64>> {
    let sides = match spec {
        Spec::Ring(n) => vec![*n],
        Spec::Torus(sides) => sides.clone(),
        Spec::Cube(d) => vec![2; *d as usize],
        other => {
            return Err(Error::Parameter(format!(
            "--format simgrid writes rings, tori and hypercubes (SimGrid TORUS clusters); {other} \
                 needs explicit links and routes, not written yet"
        )))
        }
    };
    if sides.contains(&0) || sides.is_empty() {
        return Err(Error::Parameter(format!("{spec}: no nodes to write")));
    }
    Ok(sides)
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
    let sides = torus_sides(spec)?;
    quantity("speed", &options.speed)?;
    quantity("bandwidth", &options.bandwidth)?;
    quantity("latency", &options.latency)?;
    check_prefix(&options.prefix)?;
    let nodes = sides
        .iter()
        .try_fold(1u64, |n, &k| n.checked_mul(k))
        .ok_or_else(|| Error::Parameter(format!("{spec}: too many nodes")))?;
    let parameters: Vec<String> = sides.iter().map(u64::to_string).collect();
    let io = |e: std::io::Error| Error::File(format!("cannot write the platform: {e}"));
    write!(
        out,
        "<?xml version='1.0'?>\n\
         <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n\
         <!-- {spec}: host i is {prefix}i (first axis fastest); written by topoembed -->\n\
         <platform version=\"4.1\">\n  \
         <cluster id=\"host\" prefix=\"{prefix}\" radical=\"0-{last}\" suffix=\"\" \
         speed=\"{speed}\" bw=\"{bw}\" lat=\"{lat}\" topology=\"TORUS\" topo_parameters=\"{params}\"/>\n\
         </platform>\n",
        prefix = options.prefix,
        last = nodes - 1,
        speed = options.speed,
        bw = options.bandwidth,
        lat = options.latency,
        params = parameters.join(","),
    )
    .map_err(io)
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

    #[test]
    fn what_is_not_a_torus_or_not_a_quantity_is_refused() {
        let defaults = PlatformOptions::default();
        for spec in ["mesh:4x4", "line:8", "grid:4wx4"] {
            let e = platform(spec, &defaults).unwrap_err().to_string();
            assert!(e.contains("not written yet"), "{spec}: {e}");
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
