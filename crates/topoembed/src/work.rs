//! Work that warns before it runs for hours: a command estimates its work
//! up front (guest edges for `metrics`, link hops for `simulate`, search
//! nodes or distance vectors for `optimal`), converts it to time at this
//! kind of machine's measured rates, says the estimate when it is long, and
//! is refused beyond a limit unless forced. The CLI and the Python package
//! share this model; the library says, the caller prints.
//!
//! The limit is 10 minutes, or `TOPOEMBED_WORK_LIMIT` seconds (tests set a
//! small one).

use crate::error::{Error, Result};

/// Estimated work beyond this many seconds is refused without `--force`.
pub const DEFAULT_LIMIT_SECONDS: f64 = 600.0;
/// Estimates above this many seconds are printed before the work starts.
const SAY_ABOVE_SECONDS: f64 = 5.0;

/// Measured rates on 2 cores (AMD EPYC, `bench/large.sh`), seconds per unit.
pub mod rate {
    /// `metrics` without routing, per guest edge (cube:26 on torus:8192x8192,
    /// 8.7·10^8 edges: 2.2 s; cube:30 on torus:32768x32768: 41 s).
    pub const EDGE: f64 = 2.6e-9;
    /// `metrics` routing every edge, per guest edge (cube:26 on
    /// torus:8192x8192: 6.9 s; on ring:2^26: 8.0 s).
    pub const ROUTED_EDGE: f64 = 9.0e-9;
    /// `optimal`, per search node (one thread: cube:8 on ring:256, 2.0·10^8
    /// nodes in 3.7 s; on torus:16x16, 1.9·10^7 in 0.62 s).
    pub const SEARCH_NODE: f64 = 3.0e-8;
    /// `optimal`, per distance vector the bounds leave and no band takes:
    /// torus:32x32's, the most of any settled torus and the slowest to
    /// decide (2 954 vectors in 51 s on 2 cores AMD EPYC with the default
    /// `--decide-by auto`, 0.017 s each; 2 731 in 60 s, 0.022 s each,
    /// while the winding cocycle's searches went on to 2^18 placements;
    /// torus:64x16's 441 outside a band
    /// take about 1.3 s, torus:16x16's 7 0.2 s), rounded up; a vector
    /// refuted by a core found before costs next to nothing, a hard one
    /// half a minute.
    pub const VECTOR: f64 = 0.025;
    /// `optimal`, per distance vector the window lemma folds into a band,
    /// tried by unit propagation first (torus:128x8: 983 in 0.56 s;
    /// torus:64x16, 815 vectors of which 506 banded, 3.5 s), rounded up.
    pub const BAND_VECTOR: f64 = 0.002;
    /// `simulate`, per link hop of a message (fft cube:14 on ring:16384: 2.0·10^8 hops in 32 s).
    pub const HOP: f64 = 1.6e-7;
}

/// How much work a command is about to do.
#[derive(Debug, Clone, Copy)]
pub struct Estimate {
    /// Units of work.
    pub units: f64,
    /// What a unit is ("guest edges", "link hops").
    pub unit: &'static str,
    /// Seconds per unit on this kind of machine.
    pub rate: f64,
}

impl Estimate {
    /// Expected seconds.
    pub fn seconds(&self) -> f64 {
        self.units * self.rate
    }
}

/// The limit in seconds: `TOPOEMBED_WORK_LIMIT` or [`DEFAULT_LIMIT_SECONDS`].
pub fn limit() -> Result<f64> {
    match std::env::var("TOPOEMBED_WORK_LIMIT") {
        Err(_) => Ok(DEFAULT_LIMIT_SECONDS),
        Ok(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| *s >= 0.0)
            .ok_or_else(|| {
                Error::Parameter(format!(
                    "TOPOEMBED_WORK_LIMIT={text}: give the most seconds of estimated work to start without --force"
                ))
            }),
    }
}

/// Whether `estimate` passes the limit.
pub fn exceeds(estimate: Estimate) -> Result<bool> {
    Ok(estimate.seconds() > limit()?)
}

/// Refuses `estimate` beyond the limit unless `force`; the note to show
/// the user when the work is long (`None` when it is short).
pub fn admit(what: &str, estimate: Estimate, force: bool) -> Result<Option<String>> {
    let seconds = estimate.seconds();
    let limit = limit()?;
    let size = format!(
        "{what}: about {} {}, an estimated {} on 2 cores",
        count(estimate.units),
        estimate.unit,
        duration(seconds)
    );
    if seconds > limit && !force {
        return Err(Error::Parameter(format!(
            "{size}, beyond the limit of {} (TOPOEMBED_WORK_LIMIT seconds); add --force to run it anyway",
            duration(limit)
        )));
    }
    Ok((seconds > SAY_ABOVE_SECONDS).then_some(size))
}

/// 4.0·10^13, 1 234 567, 512.
pub fn count(x: f64) -> String {
    if x >= 1e7 {
        let e = x.log10().floor() as i32;
        format!("{:.1}·10^{e}", x / 10f64.powi(e))
    } else {
        format!("{}", x.round() as u64)
    }
}

/// 28 µs, 500 ms, 12 s, 3.5 min, 2.1 h, 4.0 days, 3.2 years, 6.1·10^31 years.
pub fn duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    match seconds {
        s if s >= 1e4 * YEAR => format!("{} years", count(s / YEAR)),
        s if s >= YEAR => format!("{:.1} years", s / YEAR),
        s if s < 1e-3 => format!("{:.0} µs", s * 1e6),
        s if s < 1.0 => format!("{:.0} ms", s * 1e3),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_durations_read_well() {
        assert_eq!(count(512.0), "512");
        assert_eq!(count(4.0e13), "4.0·10^13");
        assert_eq!(count(8.7e8), "8.7·10^8");
        assert_eq!(duration(0.5), "500 ms");
        assert_eq!(duration(2.8e-5), "28 µs");
        assert_eq!(duration(12.0), "12 s");
        assert_eq!(duration(600.0), "10.0 min");
        assert_eq!(duration(3.6e4), "10.0 h");
        assert_eq!(duration(3.0e5), "3.5 days");
        assert_eq!(duration(1.0e8), "3.2 years");
        assert_eq!(duration(1.9e39), "6.0·10^31 years");
    }
}
