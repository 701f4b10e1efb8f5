//! Which of the placements scored message by message to return. A ring
//! all-reduce of B bytes costs about α·hops + β·B·congestion per step, so a
//! placement has two figures that matter, latency (the longest hop of each
//! ring) and bandwidth (the busiest link of each ring): summed over the
//! axes, Σ max hops and Σ congestion. A placement another one beats on one
//! of them and ties or beats on the other is never the answer (it is
//! *dominated*); among those left (the Pareto front) the objective picks,
//! with the axes' weights.

use super::figures::AxisFigures;

/// What to favour among the placements no other beats on both counts.
/// Device meshes default to [`Objective::Bandwidth`]: the collectives of
/// accelerator programs move megabytes, and for large messages the busiest
/// link, not the longest hop, sets a ring's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Least Σ w_i·(max hops_i + congestion_i), then the least weighted
    /// longest hop, then the least weighted mean hop: both terms of a ring
    /// step at once, as if α and β·B were equal (the `axes` method's).
    Balanced,
    /// Least weighted longest hop first (small messages: the α term), then
    /// the least weighted congestion.
    Latency,
    /// Least weighted congestion first (large messages: the β·B term), then
    /// the least weighted longest hop (the default).
    #[default]
    Bandwidth,
}

impl std::str::FromStr for Objective {
    type Err = crate::error::Error;

    fn from_str(text: &str) -> crate::error::Result<Objective> {
        match text.trim() {
            "balanced" => Ok(Objective::Balanced),
            "latency" => Ok(Objective::Latency),
            "bandwidth" => Ok(Objective::Bandwidth),
            other => Err(crate::error::Error::Parameter(format!(
                "objective '{other}': give bandwidth (large messages: least congestion \
                 first, the default), latency (small messages: fewest hops first) or \
                 balanced (hops plus congestion)"
            ))),
        }
    }
}

impl Objective {
    /// The name the CLI takes.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Balanced => "balanced",
            Objective::Latency => "latency",
            Objective::Bandwidth => "bandwidth",
        }
    }
}

/// Σ max hops and Σ congestion over the axes.
pub fn sums(figures: &[AxisFigures]) -> (u64, u64) {
    figures
        .iter()
        .fold((0, 0), |(h, c), a| (h + a.max_hops, c + a.congestion))
}

/// Whether `a` beats `b`: no worse in Σ max hops and Σ congestion, better in
/// one of them.
pub fn dominates(a: &[AxisFigures], b: &[AxisFigures]) -> bool {
    let (a, b) = (sums(a), sums(b));
    a.0 <= b.0 && a.1 <= b.1 && a != b
}

/// Σ w_i·x_i in millionths, so keys compare exactly.
pub(super) fn weighted(weights: &[f64], values: impl Iterator<Item = f64>) -> i64 {
    let sum: f64 = weights.iter().zip(values).map(|(w, x)| w * x).sum();
    (sum * 1e6).round() as i64
}

/// The objective's key of one placement (less is better).
fn key(figures: &[AxisFigures], weights: &[f64], objective: Objective) -> (i64, i64, i64) {
    let hops = weighted(weights, figures.iter().map(|a| a.max_hops as f64));
    let congestion = weighted(weights, figures.iter().map(|a| a.congestion as f64));
    let mean = weighted(weights, figures.iter().map(|a| a.average_hops));
    match objective {
        Objective::Balanced => (hops + congestion, hops, mean),
        Objective::Latency => (hops, congestion, mean),
        Objective::Bandwidth => (congestion, hops, mean),
    }
}

/// The (Σ max hops, Σ congestion) pairs no other of `sums` beats on both,
/// sorted and without repeats. Dominance is by the two sums alone: sorted
/// by hops, a pair is beaten exactly when one before it has no more
/// congestion and differs.
pub fn front(sums: impl IntoIterator<Item = (u64, u64)>) -> Vec<(u64, u64)> {
    let mut by_sums: Vec<(u64, u64)> = sums.into_iter().collect();
    by_sums.sort_unstable();
    by_sums.dedup();
    let mut front = Vec::new();
    let mut least_congestion = u64::MAX;
    for (hops, congestion) in by_sums {
        if congestion < least_congestion {
            front.push((hops, congestion));
            least_congestion = congestion;
        }
    }
    front
}

/// The index of the placement to return among `scored` (each one's figures
/// per axis): the objective's best among those no other dominates; the
/// first of equals. `None` when `scored` is empty.
pub fn choose(scored: &[Vec<AxisFigures>], weights: &[f64], objective: Objective) -> Option<usize> {
    let front = front(scored.iter().map(|f| sums(f)));
    (0..scored.len())
        .filter(|&k| front.binary_search(&sums(&scored[k])).is_ok())
        .min_by_key(|&k| (key(&scored[k], weights, objective), k))
}

/// Σ w_i·max hops_i and Σ w_i·congestion_i (in millionths): the two
/// figures when the weights are the axes' shares of the traffic.
pub fn weighted_sums(figures: &[AxisFigures], weights: &[f64]) -> (i64, i64) {
    (
        weighted(weights, figures.iter().map(|a| a.max_hops as f64)),
        weighted(weights, figures.iter().map(|a| a.congestion as f64)),
    )
}

/// [`choose`] with dominance on the weighted sums ([`weighted_sums`]): the
/// objective's best among the placements no other beats on both Σ w·max
/// hops and Σ w·congestion. For hosts whose axes the weights really share
/// (device meshes on clusters, where keeping one axis inside a node pushes
/// the others onto the network).
pub fn choose_weighted(
    scored: &[Vec<AxisFigures>],
    weights: &[f64],
    objective: Objective,
) -> Option<usize> {
    let sums: Vec<(i64, i64)> = scored.iter().map(|f| weighted_sums(f, weights)).collect();
    (0..scored.len())
        .filter(|&k| {
            !sums
                .iter()
                .any(|&o| o != sums[k] && o.0 <= sums[k].0 && o.1 <= sums[k].1)
        })
        .min_by_key(|&k| (key(&scored[k], weights, objective), k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(max_hops: u64, congestion: u64) -> AxisFigures {
        AxisFigures {
            max_hops,
            average_hops: max_hops as f64,
            congestion,
            messages: 1,
        }
    }

    #[test]
    fn the_answer_is_never_dominated() {
        // The mesh:4x4x4 16x4: (2/2, 1/1) has Σ 3 and 3; (1/1, 2/1)
        // has Σ 3 and 2 and beats it, although its weighted balanced key
        // ties (1·(2+2) + 2·(1+1) = 8 = 1·(1+1) + 2·(2+1)).
        let ours = vec![fig(2, 2), fig(1, 1)];
        let better = vec![fig(1, 1), fig(2, 1)];
        assert!(dominates(&better, &ours));
        assert!(!dominates(&ours, &better));
        let scored = vec![ours.clone(), better.clone()];
        for objective in [
            Objective::Balanced,
            Objective::Latency,
            Objective::Bandwidth,
        ] {
            assert_eq!(choose(&scored, &[1.0, 2.0], objective), Some(1));
        }
        // On the front, the objective decides: (1/4) against (4/1).
        let fast = vec![fig(1, 4)];
        let wide = vec![fig(4, 1)];
        let scored = vec![fast, wide];
        assert_eq!(choose(&scored, &[1.0], Objective::Latency), Some(0));
        assert_eq!(choose(&scored, &[1.0], Objective::Bandwidth), Some(1));
        assert_eq!(choose(&[], &[1.0], Objective::Balanced), None);
    }

    #[test]
    fn weighted_dominance_follows_the_weights() {
        // Per axis max hops/congestion: a = (1/8, 1/0), b = (1/0, 1/10).
        // Unweighted, a's sums 2/8 beat b's 2/10 whatever the weights; with
        // the first axis ten times heavier, b's weighted sums 11/10 beat
        // a's 11/80, and with the second ten times heavier a's 11/8 beat
        // b's 11/100.
        let a = vec![fig(1, 8), fig(1, 0)];
        let b = vec![fig(1, 0), fig(1, 10)];
        let scored = vec![a, b];
        assert_eq!(choose(&scored, &[10.0, 1.0], Objective::Bandwidth), Some(0));
        assert_eq!(
            choose_weighted(&scored, &[10.0, 1.0], Objective::Bandwidth),
            Some(1)
        );
        assert_eq!(
            choose_weighted(&scored, &[1.0, 10.0], Objective::Bandwidth),
            Some(0)
        );
        assert_eq!(choose_weighted(&[], &[1.0], Objective::Latency), None);
    }
}
