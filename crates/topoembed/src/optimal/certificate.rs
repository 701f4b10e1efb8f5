//! Certificates of `topoembed optimal --certificate DIR`, and their check
//! (`topoembed verify-certificate DIR`) without trusting the search.
//!
//! `DIR/certificate.json` holds the optimum (Σ D_i, distances and the host
//! node of every cube node) and the vectors refuted below it, each with a
//! binary DRAT proof under `DIR/proofs/`. The check:
//! 1. the embedding is a bijection onto the host whose every edge of
//!    dimension i has the same length, and those lengths add up to the
//!    claimed optimum (distances recomputed here from coordinates);
//! 2. every ascending vector with a smaller sum is either ruled out by the
//!    sub-cube bounds — recomputed here, from their definitions, with code
//!    of its own: a sub-cube of j dimensions has 2^j distinct images whose
//!    distances from one of them add up to at most 2^(j−1)·R and at least
//!    the 2^j smallest distances, and that lie in one ellipse of string R
//!    (R the sum of its distances) — or listed as refuted;
//! 3. every listed refutation's proof is checked by [`super::drat`] against
//!    the formula [`super::sat::encode`] writes for the vector (`--dimacs`
//!    writes those formulas out, for drat-trim or any other checker).
//!
//! What is trusted: the encoding (one short function, whose clauses say
//! "f(0) = 0, f(1) on one node per orbit of the symmetries fixing 0, a
//! bijection, every edge of dimension i D_i long"), and the DRUP checker.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::constant::torus_sides;
use super::vectors::{bipartite, Refuted, VectorSearch};
use crate::error::{Error, Result};
use crate::spec::Spec;

/// The format tag of `certificate.json`.
pub const FORMAT: &str = "topoembed-optimal-certificate/1";

/// `DIR/certificate.json`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Certificate {
    /// [`FORMAT`].
    pub format: String,
    /// `cube:D`.
    pub guest: String,
    /// The ring or torus.
    pub host: String,
    /// The least Σ D_i.
    pub min_sum: u32,
    /// D_0..D_{d−1} of the embedding below, ascending.
    pub distances: Vec<u32>,
    /// Host node of every cube node (first host axis fastest).
    pub map: Vec<u64>,
    /// Σ D_i of xor, for the record.
    pub xor_sum: u32,
    /// The vectors below `min_sum` that the bounds do not rule out, each
    /// with its proof.
    pub refuted: Vec<Refuted>,
    /// How the proofs were made.
    pub solver: String,
}

/// Writes `DIR/certificate.json` for a completed search by vectors.
pub fn write(dir: &Path, search: &VectorSearch) -> Result<()> {
    let o = &search.optimum;
    let c = Certificate {
        format: FORMAT.to_string(),
        guest: o.guest.clone(),
        host: o.host.clone(),
        min_sum: o.min_sum,
        distances: o.distances.clone(),
        map: o.map.clone(),
        xor_sum: o.xor_sum,
        refuted: search.refuted.clone(),
        solver: "varisat 0.2, binary DRAT".to_string(),
    };
    let path = dir.join("certificate.json");
    let text = serde_json::to_string_pretty(&c).map_err(|e| Error::File(e.to_string()))?;
    std::fs::write(&path, text)
        .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
}

/// What a check of a certificate found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Verified {
    /// `cube:D`.
    pub guest: String,
    /// The host.
    pub host: String,
    /// The optimum the certificate proves.
    pub min_sum: u32,
    /// Prefixes of ascending vectors below it cut by the bounds.
    pub by_bounds: u64,
    /// Vectors whose DRAT proof was checked.
    pub by_proofs: u64,
    /// Lemmas checked, over all proofs.
    pub lemmas: u64,
    /// Bytes of proof read.
    pub proof_bytes: u64,
    /// Wall time of the check.
    pub seconds: f64,
}

/// Checks the certificate in `dir` (module docs); with `dimacs`, also writes
/// each refuted vector's formula to `DIR/formulas/`.
pub fn verify(dir: &Path, dimacs: bool) -> Result<Verified> {
    let started = Instant::now();
    let path = dir.join("certificate.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
    let c: Certificate = serde_json::from_str(&text)
        .map_err(|e| Error::File(format!("{}: not a certificate ({e})", path.display())))?;
    let reject = |why: String| Error::Mismatch(format!("certificate rejected: {why}"));
    if c.format != FORMAT {
        return Err(reject(format!(
            "format {:?}, expected {FORMAT:?}",
            c.format
        )));
    }
    let d = match c.guest.parse::<Spec>()? {
        Spec::Cube(d) if (1..=super::MAX_DIMENSION).contains(&d) => d,
        other => return Err(reject(format!("guest {other} is not cube:1..cube:12"))),
    };
    let host: Spec = c.host.parse()?;
    let sides = torus_sides(d, &host)?;
    let torus = Torus::new(&sides);
    check_embedding(&torus, d, &c).map_err(reject)?;
    // Every ascending vector below the optimum: bounded out or refuted.
    let bounds = torus.prefix_bounds(d as usize);
    let listed: HashMap<&[u32], &Refuted> = c
        .refuted
        .iter()
        .map(|r| (r.distances.as_slice(), r))
        .collect();
    let mut below = Vec::new();
    let by_bounds = ascending(
        &bounds,
        c.min_sum,
        torus.diameter,
        &mut Vec::new(),
        &mut below,
    );
    let mut needed = Vec::new();
    for dims in below {
        match listed.get(dims.as_slice()) {
            Some(r) => needed.push(*r),
            None => {
                return Err(reject(format!(
                    "distances {dims:?} (Σ {}) are below the optimum, not ruled out by the \
                     bounds and not refuted",
                    dims.iter().sum::<u32>()
                )))
            }
        }
    }
    let h = &super::host::SearchHost::new(&sides);
    let even = bipartite(&host);
    if dimacs {
        std::fs::create_dir_all(dir.join("formulas"))
            .map_err(|e| Error::File(format!("{}: {e}", dir.display())))?;
    }
    let checked: Vec<std::result::Result<(u64, u64), String>> = needed
        .par_iter()
        .map(|r| {
            if r.by != "drat" {
                return Err(format!(
                    "{:?} is refuted by {:?}; a certificate takes DRAT proofs only",
                    r.distances, r.by
                ));
            }
            let file = dir.join(&r.proof);
            let proof = std::fs::read(&file)
                .map_err(|e| format!("{}: cannot read the proof: {e}", file.display()))?;
            let cnf = super::sat::encode(h, &r.distances, even);
            if dimacs {
                let name = r
                    .proof
                    .trim_start_matches("proofs/")
                    .replace(".drat", ".cnf");
                let out = dir.join("formulas").join(name);
                let f =
                    std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
                cnf.write_dimacs(&mut std::io::BufWriter::new(f))
                    .map_err(|e| format!("{}: {e}", out.display()))?;
            }
            let done = super::drat::check(&cnf, &proof)
                .map_err(|e| format!("the proof of {:?} fails: {e}", r.distances))?;
            Ok((done.lemmas, proof.len() as u64))
        })
        .collect();
    let (mut lemmas, mut proof_bytes) = (0u64, 0u64);
    for result in checked {
        let (l, b) = result.map_err(reject)?;
        lemmas += l;
        proof_bytes += b;
    }
    Ok(Verified {
        guest: c.guest,
        host: c.host,
        min_sum: c.min_sum,
        by_bounds,
        by_proofs: needed.len() as u64,
        lemmas,
        proof_bytes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Step 1: the certificate's map is a constant-distance bijection with the
/// claimed distances and sum.
fn check_embedding(t: &Torus, d: u32, c: &Certificate) -> std::result::Result<(), String> {
    let n = 1usize << d;
    if c.map.len() != n {
        return Err(format!(
            "the map has {} entries, cube:{d} has {n} nodes",
            c.map.len()
        ));
    }
    let mut seen = vec![false; n];
    for &v in &c.map {
        if v as usize >= n || std::mem::replace(&mut seen[v as usize], true) {
            return Err(format!("host node {v} is out of range or taken twice"));
        }
    }
    let mut lengths = Vec::with_capacity(d as usize);
    for i in 0..d as usize {
        let length = t.distance(c.map[0], c.map[1 << i]);
        if let Some(x) = (0..n).find(|&x| t.distance(c.map[x], c.map[x ^ (1 << i)]) != length) {
            return Err(format!(
                "dimension {i}: the edge at cube node {x} is not {length} long"
            ));
        }
        lengths.push(length);
    }
    lengths.sort_unstable();
    if lengths != c.distances || lengths.iter().sum::<u32>() != c.min_sum {
        return Err(format!(
            "the map's distances are {lengths:?}, the certificate claims {:?} with Σ {}",
            c.distances, c.min_sum
        ));
    }
    Ok(())
}

/// Every ascending vector of `bounds.len()` entries from 1 to `top` with
/// sum below `limit` whose every prefix of j entries adds up to at least
/// `bounds[j − 1]`; returns how many prefixes the bounds cut.
fn ascending(
    bounds: &[u32],
    limit: u32,
    top: u32,
    dims: &mut Vec<u32>,
    out: &mut Vec<Vec<u32>>,
) -> u64 {
    let sum: u32 = dims.iter().sum();
    if dims.len() == bounds.len() {
        out.push(dims.clone());
        return 0;
    }
    let from = dims.last().copied().unwrap_or(1);
    let left = (bounds.len() - dims.len()) as u32;
    let (mut x, mut cut) = (from, 0);
    while x <= top && sum + x * left < limit {
        if sum + x < bounds[dims.len()] {
            cut += 1;
        } else {
            dims.push(x);
            cut += ascending(bounds, limit, top, dims, out);
            dims.pop();
        }
        x += 1;
    }
    cut
}

/// The torus as the check sees it: coordinates, first axis fastest.
struct Torus {
    sides: Vec<u64>,
    n: u64,
    diameter: u32,
}

impl Torus {
    fn new(sides: &[u32]) -> Torus {
        let sides: Vec<u64> = sides.iter().map(|&k| u64::from(k)).collect();
        Torus {
            n: sides.iter().product(),
            diameter: sides.iter().map(|&k| (k / 2) as u32).sum(),
            sides,
        }
    }

    /// Lee distance: per axis the shorter way round.
    fn distance(&self, mut a: u64, mut b: u64) -> u32 {
        let mut total = 0;
        for &k in &self.sides {
            let gap = (a % k).abs_diff(b % k);
            total += gap.min(k - gap) as u32;
            a /= k;
            b /= k;
        }
        total
    }

    /// For j = 1..=d: the least sum of j distances any sub-cube of j
    /// dimensions can have (module docs, step 2).
    fn prefix_bounds(&self, d: usize) -> Vec<u32> {
        let mut from_origin: Vec<u32> = (0..self.n).map(|v| self.distance(0, v)).collect();
        from_origin.sort_unstable();
        // best[r]: the most nodes y with d(0, y) + d(y, x) ≤ r, over x ≠ 0.
        let mut best = vec![0u64; 2 * self.diameter as usize + 1];
        for x in 1..self.n {
            let mut within = vec![0u64; best.len()];
            for y in 0..self.n {
                within[(self.distance(0, y) + self.distance(y, x)) as usize] += 1;
            }
            let mut running = 0;
            for (r, w) in within.iter().enumerate() {
                running += w;
                best[r] = best[r].max(running);
            }
        }
        (1..=d)
            .map(|j| {
                let images = 1u64 << j;
                let nearest: u64 = from_origin[..images as usize]
                    .iter()
                    .map(|&r| u64::from(r))
                    .sum();
                let by_sum = nearest.div_ceil(images / 2) as u32;
                let by_ellipse =
                    best.iter().position(|&c| c >= images).unwrap_or(best.len()) as u32;
                by_sum.max(by_ellipse)
            })
            .collect()
    }
}
