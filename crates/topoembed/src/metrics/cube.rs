//! Cube guests: the dilation of each dimension (D_i(n), the xor paper's
//! figure 4a), constant distances, D_a and the CC time (journal §3).

use super::edges::ClassStat;
use super::{DimensionDilation, Metrics, Options};
use crate::embed::Embedding;
use crate::model::{self, CcTime};
use crate::topology::Topology;

/// D_0(n), .., D_{d-1}(n): the dilation of each dimension's edge at cube node n
/// (a row of the xor paper's figure 4a).
pub fn cube_dilations(
    dim: u32,
    embedding: &dyn Embedding,
    host: &dyn Topology,
    n: u64,
) -> Vec<u64> {
    let here = embedding.map(n);
    (0..dim)
        .map(|i| host.distance(here, embedding.map(n ^ (1 << i))))
        .collect()
}

/// Per-dimension distances, constant-distance flag, D_a and CC time of a cube guest.
pub(super) fn cube_guest_metrics(
    metrics: &mut Metrics,
    dim: u32,
    classes: &[ClassStat],
    embedding: &dyn Embedding,
    host: &dyn Topology,
    options: &Options,
) {
    metrics.per_dimension = Some(
        classes
            .iter()
            .enumerate()
            .map(|(i, s)| DimensionDilation {
                dimension: i as u32,
                min: s.min,
                max: s.max,
                average: s.sum as f64 / s.count as f64,
            })
            .collect(),
    );
    let constant = metrics.load_factor == 1 && classes.iter().all(|s| s.min == s.max);
    metrics.constant_distance = Some(constant);
    if constant {
        let distances: Vec<u64> = classes.iter().map(|s| s.max).collect();
        metrics.average_distance = Some(distances.iter().sum::<u64>() as f64 / f64::from(dim));
        metrics.cc_time = Some(CcTime::constant(options.ta, options.tc, &distances));
        metrics.distances = Some(distances);
        return;
    }
    match model::cc_recurrence(dim, embedding, host, options.progress) {
        Ok(r) => {
            metrics.cc_time = Some(CcTime::from_recurrence(
                options.ta, options.tc, dim, &r, None,
            ));
        }
        Err(e) => metrics.notes.push(format!("cc_time not computed: {e}")),
    }
}
