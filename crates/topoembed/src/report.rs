//! The documents the CLI prints as JSON and the Python package returns,
//! built in one place so that both say the same thing under the same keys
//! (DESIGN.md: JSON keys are snake_case and stable).

use serde_json::{json, Value};

use crate::device_mesh::DeviceMesh;
use crate::embed::METHODS;
use crate::error::Result;
use crate::io::Mapping;
use crate::metrics::{self, Metrics, Options};
use crate::topology::Topology;

/// Every method: `name`, `guest`, `host`, `preconditions`, `summary`.
pub fn methods() -> Vec<Value> {
    METHODS
        .iter()
        .map(|m| {
            json!({
                "name": m.name, "guest": m.guest, "host": m.host,
                "preconditions": m.preconditions, "summary": m.summary,
            })
        })
        .collect()
}

/// The metrics of the [`baselines`] of a guest on a host, each named.
pub fn measured_baselines(
    guest: &dyn Topology,
    host: &dyn Topology,
    options: &Options,
) -> Result<Vec<Metrics>> {
    baselines(guest.node_count(), host.node_count())
        .into_iter()
        .map(|(name, mapping)| {
            let mut m = metrics::measure(guest, host, &mapping, options)?;
            m.method = name;
            Ok(m)
        })
        .collect()
}

/// The methods `compare` measured, each with `best_cc_time` (whether its
/// CC time is the least, within rounding).
pub fn compare(results: &[Metrics]) -> Vec<Value> {
    let best = best_cc_time(results);
    results
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let mut v = serde_json::to_value(m).unwrap_or_default();
            v["best_cc_time"] = Value::Bool(best.contains(&k));
            v
        })
        .collect()
}

/// Indices of the results with the least CC time (ties all marked).
pub fn best_cc_time(results: &[Metrics]) -> Vec<usize> {
    let times: Vec<Option<f64>> = results
        .iter()
        .map(|m| m.cc_time.as_ref().map(|c| c.time))
        .collect();
    let Some(best) = times.iter().flatten().copied().reduce(f64::min) else {
        return Vec::new();
    };
    times
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_some_and(|t| (t - best).abs() <= 1e-9 * best.abs().max(1.0)))
        .map(|(k, _)| k)
        .collect()
}

/// A baseline placement: node i on host node i (guest no larger than the
/// host) or on ⌊i · P / n⌋ (consecutive blocks), and round-robin i mod P.
pub fn baselines(n: u64, p: u64) -> Vec<(String, Mapping)> {
    let first = if n <= p {
        ("identity".to_string(), (0..n).collect())
    } else {
        (
            "blocks".to_string(),
            (0..n)
                .map(|i| (u128::from(i) * u128::from(p) / u128::from(n)) as u64)
                .collect(),
        )
    };
    vec![
        (first.0, Mapping::new(first.1)),
        (
            "round-robin".into(),
            Mapping::new((0..n).map(|i| i % p).collect()),
        ),
    ]
}

/// `values` (row-major over `sizes`) as nested lists shaped like `sizes`.
fn nest(values: &[Value], sizes: &[u64]) -> Value {
    match sizes.split_first() {
        None => values.first().cloned().unwrap_or(Value::Null),
        Some((_, [])) => Value::Array(values.to_vec()),
        Some((&first, rest)) => {
            let chunk = values.len() / first as usize;
            Value::Array(values.chunks(chunk).map(|c| nest(c, rest)).collect())
        }
    }
}

/// A device mesh as `topoembed device-mesh --format json` prints it.
pub fn device_mesh(d: &DeviceMesh) -> Value {
    let sizes: Vec<u64> = d.logical.iter().map(|a| a.size).collect();
    let ids: Vec<Value> = d.mesh.iter().map(|&h| json!(h)).collect();
    let coords: Vec<Value> = d.mesh.iter().map(|&h| json!(d.host_coords(h))).collect();
    let axes: Vec<Value> = d
        .axes
        .iter()
        .map(|a| {
            json!({
                "name": a.name,
                "size": a.size,
                "kind": a.kind,
                "weight": a.weight,
                "max_hops": a.figures.max_hops,
                "average_hops": a.figures.average_hops,
                "congestion": a.figures.congestion,
                "messages": a.figures.messages,
                "lower_bound": a.lower_bound.value,
                "lower_bound_reason": a.lower_bound.reason,
                "row_major": {
                    "max_hops": a.row_major.max_hops,
                    "average_hops": a.row_major.average_hops,
                    "congestion": a.row_major.congestion,
                },
            })
        })
        .collect();
    json!({
        "host": d.host,
        "host_sides": d.host_sides,
        "congestion_counted": d.congestion_counted,
        "logical": d.logical,
        "mesh": nest(&ids, &sizes),
        "coords": nest(&coords, &sizes),
        "axes": axes,
        "plan": d.plan,
        "notes": d.notes,
        "plans_scored": d.plans_scored,
        "search_truncated": d.truncated,
        "objective": d.objective,
        "candidates": d.candidates,
    })
}

/// The method a command uses when none is named, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The method's name.
    pub method: &'static str,
    /// One line: what it won on and against which others.
    pub reason: String,
}

/// The method `compare` would recommend for a pair: of the constructing
/// methods that apply (measured without routing, T_a = 0, T_c = 1), the
/// least CC time where every one has one (cube guests), else the least
/// hop-bytes, then the smallest largest dilation; ties go to the method
/// listed first (`topoembed methods`).
pub fn choose_method(
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &crate::embed::Params,
) -> Result<Choice> {
    let candidates = crate::embed::applicable_with(guest, host, params);
    if candidates.is_empty() {
        if guest.node_count() != host.node_count() {
            return Err(crate::embed::node_count_mismatch(guest, host));
        }
        return Err(crate::Error::Parameter(format!(
            "no constructing method applies to {} on {}; name one with --method (map, the general mapper, takes any pair)",
            guest.spec(),
            host.spec()
        )));
    }
    if candidates.len() == 1 {
        return Ok(Choice {
            method: candidates[0].0.name,
            reason: "the only method that applies".into(),
        });
    }
    let options = Options {
        routing: metrics::Routing::Off,
        ..Options::default()
    };
    let measured: Vec<(&'static str, Metrics)> = candidates
        .iter()
        .map(|(m, e)| Ok((m.name, metrics::measure(guest, host, e.as_ref(), &options)?)))
        .collect::<Result<_>>()?;
    let by_time = measured.iter().all(|(_, m)| m.cc_time.is_some());
    let score = |m: &Metrics| -> (f64, u128, u64) {
        let time = match by_time {
            true => m.cc_time.as_ref().map_or(0.0, |c| c.time),
            false => 0.0,
        };
        (time, m.hop_bytes, m.dilation.max)
    };
    let best = measured
        .iter()
        .enumerate()
        .min_by(|(i, a), (j, b)| {
            score(&a.1)
                .partial_cmp(&score(&b.1))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(i.cmp(j))
        })
        .map(|(k, _)| k)
        .expect("two or more candidates");
    let figure = |m: &Metrics| match by_time {
        true => format!("{}", m.cc_time.as_ref().map_or(0.0, |c| c.time)),
        false => format!("{} (max dilation {})", m.hop_bytes, m.dilation.max),
    };
    let others: Vec<String> = measured
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != best)
        .map(|(_, (name, m))| format!("{name} {}", figure(m)))
        .collect();
    let what = match by_time {
        true => "the least CC time (T_a = 0, T_c = 1)",
        false => "the least hop-bytes",
    };
    Ok(Choice {
        method: measured[best].0,
        reason: format!(
            "{what}, {}, of the {} methods that apply (others: {})",
            figure(&measured[best].1),
            measured.len(),
            others.join(", ")
        ),
    })
}
