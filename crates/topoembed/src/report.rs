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
        "logical": d.logical,
        "mesh": nest(&ids, &sizes),
        "coords": nest(&coords, &sizes),
        "axes": axes,
        "plan": d.plan,
        "notes": d.notes,
        "plans_scored": d.plans_scored,
        "search_truncated": d.truncated,
    })
}
