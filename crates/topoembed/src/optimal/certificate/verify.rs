//! The check of a certificate (`topoembed verify-certificate DIR`), as the
//! module docs of [`super`] list it, with code of its own: it rebuilds the
//! formulas ([`crate::optimal::proof::sat`], [`crate::optimal::bounds::band`]),
//! checks the proofs ([`crate::optimal::proof::drat`]) and recomputes the
//! bounds, and imports nothing from the searches that wrote the
//! certificate ([`crate::optimal::search`]; `tests/layout.rs` fails if it
//! does).

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::format::{Certificate, FORMAT};
use super::refuted::{holds_multiset, Refuted};
use crate::error::{Error, Result};
use crate::optimal::bounds::cuts::Bounds;
use crate::optimal::bounds::windings::Winding;
use crate::optimal::host::{bipartite, torus_sides};
use crate::optimal::proof::shape_clauses::core_formula_citing;
use crate::progress::Progress;
use crate::spec::Spec;

/// What a check of a certificate found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Verified {
    /// `cube:D`.
    pub guest: String,
    /// The host.
    pub host: String,
    /// The optimum the certificate proves (complete), or the sum of the
    /// best embedding it holds (a stopped search's).
    pub min_sum: u32,
    /// No constant-distance embedding has a smaller Σ D_i: `min_sum` when
    /// the certificate is complete.
    pub lower_bound: u32,
    /// Whether the certificate is of a completed search (it proves the
    /// optimum, not only a lower bound).
    pub complete: bool,
    /// The bounds it relies on (`counting`, `small-cubes` or `all`).
    pub bounds: String,
    /// Prefixes of ascending vectors below it cut by the bounds.
    pub by_bounds: u64,
    /// Vectors whose DRAT proof was checked.
    pub by_proofs: u64,
    /// Of them, those refuted by a core's proof (the formula of a
    /// sub-cube their distances hold, placed one to one).
    #[serde(default)]
    pub by_cores: u64,
    /// The distinct core proofs checked for them.
    #[serde(default)]
    pub cores: u64,
    /// The lex-leader clauses those core proofs cite, each checked
    /// ([`crate::optimal::proof::shape_clauses`]).
    #[serde(default)]
    pub lex_leader_clauses: u64,
    /// Of them, those checked against the winding lemma's formula.
    pub by_windings: u64,
    /// Of them, those checked against a formula halved (or quartered) by
    /// the halving lemma.
    pub by_halving: u64,
    /// Of them, those checked against the window lemma's band formula.
    pub by_band: u64,
    /// Of them, those checked against the slack window's formula.
    pub by_pin: u64,
    /// Lemmas checked, over all proofs (0 with an external checker).
    pub lemmas: u64,
    /// Bytes of proof read.
    pub proof_bytes: u64,
    /// Which checker checked the proofs: [`BUILT_IN`], or the external
    /// command.
    pub checker: String,
    /// With an external checker: formulas that unit propagation refutes by
    /// themselves, checked by the built-in checker instead (they need no
    /// proof, and rate 0.3.0 panics on them).
    pub by_propagation: u64,
    /// Wall time of the check.
    pub seconds: f64,
}

/// How [`verify_with`] checks a certificate.
#[derive(Default)]
pub struct CheckOptions<'a> {
    /// Also write each refuted vector's formula to `DIR/formulas/`.
    pub dimacs: bool,
    /// Check the proofs with this external DRAT checker instead of the
    /// built-in one: the command and its arguments, to which the formula's
    /// and the proof's paths are appended (`rate`, `drat-trim`). A proof
    /// passes when the checker exits 0 and prints the line `s VERIFIED`.
    pub checker: Option<Vec<String>>,
    /// Counts the bytes of proof checked (total: all of them).
    pub progress: Option<&'a Progress>,
}

/// Checks the certificate in `dir` (module docs) with the built-in checker;
/// with `dimacs`, also writes each refuted vector's formula to
/// `DIR/formulas/`.
pub fn verify(dir: &Path, dimacs: bool) -> Result<Verified> {
    verify_with(
        dir,
        &CheckOptions {
            dimacs,
            ..CheckOptions::default()
        },
    )
}

/// Checks the certificate in `dir` (module docs) as `options` say.
pub fn verify_with(dir: &Path, options: &CheckOptions) -> Result<Verified> {
    let dimacs = options.dimacs;
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
        Spec::Cube(d) if (1..=crate::optimal::host::MAX_DIMENSION).contains(&d) => d,
        other => return Err(reject(format!("guest {other} is not cube:1..cube:12"))),
    };
    let host: Spec = c.host.parse()?;
    let sides = torus_sides(d, &host)?;
    let torus = Torus::new(&sides);
    check_embedding(&torus, d, &c).map_err(reject)?;
    // A stopped search's certificate proves its lower bound only.
    let limit = c.lower_bound.unwrap_or(c.min_sum);
    if limit > c.min_sum {
        return Err(reject(format!(
            "lower bound {limit} above the sum of its own embedding, {}",
            c.min_sum
        )));
    }
    // Every ascending vector below the optimum (or the lower bound):
    // bounded out or refuted.
    let bounds = torus.prefix_bounds(d as usize);
    let listed: HashMap<&[u32], &Refuted> = c
        .refuted
        .iter()
        .map(|r| (r.distances.as_slice(), r))
        .collect();
    let mut below = Below {
        torus: &torus,
        bounds,
        limit,
        small_cubes: c.bounds >= Bounds::SmallCubes,
        sides: if c.bounds >= Bounds::All {
            sides.clone()
        } else {
            Vec::new()
        },
        lift: c.bounds >= Bounds::Lift,
        energy: if c.bounds >= Bounds::Energy {
            sides.clone()
        } else {
            Vec::new()
        },
        cubes: HashMap::new(),
        cocycles: crate::optimal::bounds::cocycle::Verdicts::checking(),
        cut: 0,
        out: Vec::new(),
        listed: &listed,
        missing: None,
    };
    below.walk(&mut Vec::new());
    if let Some(dims) = below.missing {
        let claim = match c.lower_bound {
            Some(_) => "the lower bound",
            None => "the optimum",
        };
        return Err(reject(format!(
            "distances {dims:?} (Σ {}) are below {claim}, not ruled out by the \
             bounds and not refuted",
            dims.iter().sum::<u32>()
        )));
    }
    let by_bounds = below.cut;
    let needed: Vec<&Refuted> = below
        .out
        .iter()
        .filter_map(|dims| listed.get(dims.as_slice()).copied())
        .collect();
    // Each proof file once: a core's is cited by every vector it refutes.
    let mut proofs = distinct_citations(&needed).map_err(reject)?;
    // The largest proofs first, so that the threads finish together.
    proofs.sort_by_key(|r| std::cmp::Reverse(r.proof_bytes));
    let h = &crate::optimal::host::SearchHost::new(&sides);
    let even = bipartite(&host);
    // The form of the winding lemma a refutation marked `windings` used:
    // the one that came with its bounds.
    let lifted = if c.bounds >= Bounds::Lift {
        Winding::Lifted
    } else {
        Winding::Tight
    };
    let external = options.checker.as_deref().filter(|c| !c.is_empty());
    if let Some(command) = external {
        // A checker that cannot start is the machine's fault, not the
        // certificate's: say so before any proof.
        let mut probe = std::process::Command::new(&command[0])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| {
                Error::File(format!(
                    "cannot run the DRAT checker {:?}: {e} (install it, e.g. `cargo install rate`, \
                     or name another with --checker)",
                    command[0]
                ))
            })?;
        let _ = probe.kill();
        let _ = probe.wait();
    }
    if dimacs || external.is_some() {
        std::fs::create_dir_all(dir.join("formulas"))
            .map_err(|e| Error::File(format!("{}: {e}", dir.display())))?;
    }
    if let Some(p) = options.progress {
        p.add_total(proofs.iter().map(|r| r.proof_bytes).sum());
    }
    // Per proof: lemmas checked, bytes, and whether the formula fell to
    // unit propagation by itself (then the external checker is not asked).
    let checked: Vec<std::result::Result<ProofCheck, String>> = proofs
        .par_iter()
        .with_max_len(1)
        .map(|r| {
            if r.by != "drat" {
                return Err(format!(
                    "{:?} is refuted by {:?}; a certificate takes DRAT proofs only",
                    r.distances, r.by
                ));
            }
            let file = dir.join(&r.proof);
            let winding = if r.windings { lifted } else { Winding::Off };
            if r.banded && !(r.halved && r.windings) {
                return Err(format!(
                    "the refutation of {:?} fails: it is marked `banded` but not `halved` and \
                     `windings`, and the window lemma's formula is folded by both",
                    r.distances
                ));
            }
            if r.pinned && (r.halved || !r.windings) {
                return Err(format!(
                    "the refutation of {:?} fails: it is marked `pinned` and `halved`, or \
                     `pinned` without `windings`; the slack window is for an unfolded formula \
                     with the winding lemma",
                    r.distances
                ));
            }
            let (mut cited_bytes, mut cited) = (0, 0);
            let cnf = if !r.core.is_empty() {
                // A core's formula: the sub-cube placed one to one
                // (`distinct_citations` checked the vector holds it), with
                // the lex-leader clauses its proof cites, each checked.
                if r.windings || r.halved || r.banded || r.pinned {
                    return Err(format!(
                        "the refutation of {:?} by core {:?} is marked with a lemma; a core's \
                         formula takes none",
                        r.distances, r.core
                    ));
                }
                let (cnf, bytes, clauses) = core_formula_citing(dir, &r.proof, h, (&r.core, even))
                    .map_err(|e| format!("the proof of {:?} fails: {e}", r.distances))?;
                (cited_bytes, cited) = (bytes, clauses);
                cnf
            } else if r.pinned {
                crate::optimal::proof::sat::encode_pinned(h, &r.distances, even).ok_or_else(
                    || {
                        format!(
                            "{:?} is marked `pinned` but the slack window does not apply to it",
                            r.distances
                        )
                    },
                )?
            } else if r.banded {
                crate::optimal::bounds::band::encode(h, &r.distances, even).ok_or_else(|| {
                    format!(
                        "{:?} is marked `banded` but the window lemma does not apply to it",
                        r.distances
                    )
                })?
            } else {
                crate::optimal::proof::sat::encode(h, &r.distances, even, winding, r.halved)
            };
            let formula = dir.join("formulas").join(
                r.proof
                    .trim_start_matches("proofs/")
                    .replace(".drat", ".cnf"),
            );
            // A formula that unit propagation refutes by itself needs no
            // proof (rate 0.3.0 panics on one): with an external checker,
            // the built-in one sees it with none, and it is not written
            // out for the external one.
            let alone = external.is_some() && crate::optimal::proof::drat::check(&cnf, &[]).is_ok();
            if dimacs || (external.is_some() && !alone) {
                let f = std::fs::File::create(&formula)
                    .map_err(|e| format!("{}: {e}", formula.display()))?;
                let mut out = std::io::BufWriter::new(f);
                cnf.write_dimacs(&mut out)
                    .and_then(|()| std::io::Write::flush(&mut out))
                    .map_err(|e| format!("{}: {e}", formula.display()))?;
            }
            let checked = match external {
                Some(command) => {
                    let bytes = std::fs::metadata(&file)
                        .map_err(|e| format!("{}: cannot read the proof: {e}", file.display()))?
                        .len()
                        + cited_bytes;
                    let verdict = if alone {
                        Ok((0, bytes, true))
                    } else {
                        run_checker(command, &formula, &file)
                            .map(|()| (0, bytes, false))
                            .map_err(|e| format!("the proof of {:?} fails: {e}", r.distances))
                    };
                    if !dimacs && !alone {
                        let _ = std::fs::remove_file(&formula);
                    }
                    verdict?
                }
                None => {
                    let proof = std::fs::read(&file)
                        .map_err(|e| format!("{}: cannot read the proof: {e}", file.display()))?;
                    let done = crate::optimal::proof::drat::check(&cnf, &proof)
                        .map_err(|e| format!("the proof of {:?} fails: {e}", r.distances))?;
                    (done.lemmas, proof.len() as u64 + cited_bytes, false)
                }
            };
            if let Some(p) = options.progress {
                p.advance(r.proof_bytes);
            }
            Ok((checked, cited))
        })
        .collect();
    if external.is_some() && !dimacs {
        // Only the formulas written for the checker were there.
        let _ = std::fs::remove_dir(dir.join("formulas"));
    }
    // Every failure counted, not only the first: a long check tells all.
    let failures: Vec<&String> = checked.iter().filter_map(|r| r.as_ref().err()).collect();
    if let Some(first) = failures.first() {
        let more = match failures.len() {
            1 => String::new(),
            n => format!(" (and {} more of the {} proofs fail)", n - 1, proofs.len()),
        };
        return Err(reject(format!("{first}{more}")));
    }
    let (mut lemmas, mut proof_bytes, mut by_propagation) = (0u64, 0u64, 0u64);
    let mut lex_leader_clauses = 0;
    for ((l, b, alone), cited) in checked.into_iter().flatten() {
        lemmas += l;
        proof_bytes += b;
        by_propagation += u64::from(alone);
        lex_leader_clauses += cited;
    }
    Ok(Verified {
        guest: c.guest,
        host: c.host,
        min_sum: c.min_sum,
        lower_bound: limit,
        complete: c.lower_bound.is_none(),
        bounds: c.bounds.name().to_string(),
        by_bounds,
        by_proofs: needed.len() as u64,
        by_cores: needed.iter().filter(|r| !r.core.is_empty()).count() as u64,
        cores: proofs.iter().filter(|r| !r.core.is_empty()).count() as u64,
        lex_leader_clauses,
        by_windings: needed.iter().filter(|r| r.windings).count() as u64,
        by_halving: needed.iter().filter(|r| r.halved).count() as u64,
        by_band: needed.iter().filter(|r| r.banded).count() as u64,
        by_pin: needed.iter().filter(|r| r.pinned).count() as u64,
        lemmas,
        proof_bytes,
        checker: external.map_or_else(|| BUILT_IN.to_string(), |c| c.join(" ")),
        by_propagation,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The refutations to check, one per proof file: every citation of a
/// file must be of the same formula (a whole vector's, cited once, or a
/// core's, cited by every vector holding the core), and every vector
/// refuted by a core must hold it.
fn distinct_citations<'r>(needed: &[&'r Refuted]) -> std::result::Result<Vec<&'r Refuted>, String> {
    let formula = |r: &Refuted| {
        if r.core.is_empty() {
            (
                r.distances.clone(),
                r.windings,
                r.halved,
                r.banded,
                r.pinned,
            )
        } else {
            (r.core.clone(), r.windings, r.halved, r.banded, r.pinned)
        }
    };
    let mut first: HashMap<&str, &Refuted> = HashMap::new();
    let mut distinct = Vec::new();
    for &r in needed {
        if r.by != "drat" {
            return Err(format!(
                "{:?} is refuted by {:?}; a certificate takes DRAT proofs only",
                r.distances, r.by
            ));
        }
        if !r.core.is_empty() && !holds_multiset(&r.distances, &r.core) {
            return Err(format!(
                "{:?} is refuted by core {:?}, which it does not hold",
                r.distances, r.core
            ));
        }
        match first.get(r.proof.as_str()) {
            Some(f) if formula(f) != formula(r) => {
                return Err(format!(
                    "{:?} and {:?} cite the same proof {} for different formulas",
                    f.distances, r.distances, r.proof
                ))
            }
            Some(_) => {}
            None => {
                first.insert(&r.proof, r);
                distinct.push(r);
            }
        }
    }
    Ok(distinct)
}

/// One proof checked: its lemmas, its bytes (with the lex-leader clauses'
/// file), whether its formula fell to propagation alone; and the
/// lex-leader clauses its formula cites.
type ProofCheck = ((u64, u64, bool), u64);

/// The name [`Verified::checker`] gives the built-in checker.
pub const BUILT_IN: &str = "built-in DRUP checker";

/// Runs an external DRAT checker on `formula` and `proof`: Ok when it exits
/// 0 having printed `s VERIFIED` (what drat-trim and rate print on
/// success), else what it said.
fn run_checker(
    command: &[String],
    formula: &Path,
    proof: &Path,
) -> std::result::Result<(), String> {
    let output = std::process::Command::new(&command[0])
        .args(&command[1..])
        .arg(formula)
        .arg(proof)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the checker {:?}: {e}", command[0]))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verified = stdout.lines().any(|l| l.trim() == "s VERIFIED");
    if output.status.success() && verified {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| !l.starts_with("c ") && !l.trim().is_empty())
        .take(3)
        .collect();
    Err(format!(
        "{} answered {} ({})",
        command.join(" "),
        output.status,
        if said.is_empty() {
            "no verdict".to_string()
        } else {
            said.join("; ")
        }
    ))
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

/// The enumeration of step 2: the counting bounds, and the cuts the
/// certificate relies on.
struct Below<'a> {
    torus: &'a Torus,
    /// For j = 1..=d: the least sum of j distances of a sub-cube.
    bounds: Vec<u32>,
    /// Only vectors with a sum below this.
    limit: u32,
    /// Pairs and triples of distances must embed as 2- and 3-cubes.
    small_cubes: bool,
    /// The sides, when the axis lemmas apply (`all`, `lift`); else empty.
    sides: Vec<u32>,
    /// The axis lemmas sharpened by the lift lemma (`lift`).
    lift: bool,
    /// The sides, when the energy lemma applies (`energy`); else empty.
    energy: Vec<u32>,
    /// Small cubes decided so far.
    cubes: HashMap<Vec<u32>, bool>,
    /// The winding cocycle's verdicts so far (`lift`).
    cocycles: crate::optimal::bounds::cocycle::Verdicts,
    /// Prefixes cut.
    cut: u64,
    /// The vectors left, each listed in the certificate.
    out: Vec<Vec<u32>>,
    /// The refutations listed.
    listed: &'a HashMap<&'a [u32], &'a Refuted>,
    /// The first vector left that is not listed: the walk stops there.
    missing: Option<Vec<u32>>,
}

impl Below<'_> {
    /// Every ascending vector of `bounds.len()` entries from 1 to the
    /// diameter with sum below `limit` that no bound or cut rules out.
    fn walk(&mut self, dims: &mut Vec<u32>) {
        let d = self.bounds.len();
        let sum: u32 = dims.iter().sum();
        if self.missing.is_some() {
            return;
        }
        if dims.len() == d {
            if self.axis_rules_out(dims) || self.cocycle_rules_out(dims) {
                self.cut += 1;
            } else if self.listed.contains_key(dims.as_slice()) {
                self.out.push(dims.clone());
            } else {
                self.missing = Some(dims.clone());
            }
            return;
        }
        let from = dims.last().copied().unwrap_or(1);
        let left = (d - dims.len()) as u32;
        let mut x = from;
        while x <= self.torus.diameter && sum + x * left < self.limit && self.missing.is_none() {
            if sum + x < self.bounds[dims.len()]
                || !self.small_cubes_admit(dims, x)
                || self.energy_rules_out(dims, x)
            {
                self.cut += 1;
            } else if self.axis_cuts_prefix(dims.len(), sum + x, x) {
                // Every longer x cuts too.
                self.cut += 1;
                break;
            } else {
                dims.push(x);
                self.walk(dims);
                dims.pop();
            }
            x += 1;
        }
    }

    /// The axis lemmas as (the sums they rule on: below this, the least
    /// the two largest entries must add up to).
    fn axis_rules(&self) -> Vec<(u32, u32)> {
        let mut rules = Vec::new();
        if self.lift {
            // Lift: a coordinate that lifts spans k − 1 and, over the other
            // axes, every image is within Σ − (k − 1) of one of them, so
            // Σ ≥ k − 1 + the other axes' diameter; it lifts when the two
            // largest add up to less than k/2.
            let half_sides: u32 = self.sides.iter().map(|&k| k / 2).sum();
            for &k in &self.sides {
                rules.push((k.saturating_sub(1) + half_sides - k / 2, k.div_ceil(2)));
            }
            return rules;
        }
        for (a, &ka) in self.sides.iter().enumerate() {
            // One side: 2·(two largest) < k and Σ < k − 1 is impossible.
            rules.push((ka.saturating_sub(1), ka.div_ceil(2)));
            for &kb in &self.sides[a + 1..] {
                // Two sides: 2·(two largest) < min and 4Σ < 3(k_a + k_b − 2).
                let below = (3 * (ka + kb).saturating_sub(2)).div_ceil(4);
                rules.push((below, ka.min(kb).div_ceil(2)));
            }
        }
        rules
    }

    /// The winding cocycle on a whole vector (`lift`): the lemma's own
    /// search ([`crate::optimal::bounds::cocycle`]), trusted as the lemma is.
    fn cocycle_rules_out(&mut self, dims: &[u32]) -> bool {
        self.lift && self.cocycles.rules_out(&self.sides, dims)
    }

    /// The axis lemmas on a whole vector.
    fn axis_rules_out(&self, dims: &[u32]) -> bool {
        let [.., a, b] = dims else { return false };
        let sum: u32 = dims.iter().sum();
        self.axis_rules()
            .iter()
            .any(|&(below, need)| sum < below && a + b < need)
    }

    /// The axis lemmas on a prefix ending in x at index i, with `sum` its
    /// sum, by the rules that hold for every sum below the limit: the first
    /// d − 2 entries add up to at least max(sum + x·(entries still to come
    /// among them), their bound), and the last two get the rest.
    fn axis_cuts_prefix(&self, i: usize, sum: u32, x: u32) -> bool {
        let d = self.bounds.len();
        if i + 2 >= d {
            return false;
        }
        let first = (sum + x * (d - 3 - i) as u32).max(self.bounds[d - 3]);
        let rest = (self.limit - 1).saturating_sub(first);
        self.axis_rules()
            .iter()
            .any(|&(below, need)| below >= self.limit && rest < need)
    }

    /// The energy lemma on the prefix dims + [x] (`energy`): the lemma's
    /// own computation of the least moment ([`crate::optimal::bounds::energy`]),
    /// trusted as the lemma is.
    fn energy_rules_out(&self, dims: &[u32], x: u32) -> bool {
        !self.energy.is_empty()
            && crate::optimal::bounds::energy::rules_out_with(&self.energy, dims, x)
    }

    /// Whether every pair and triple of entries of dims + [x] embeds.
    fn small_cubes_admit(&mut self, dims: &[u32], x: u32) -> bool {
        if !self.small_cubes {
            return true;
        }
        for (i, &a) in dims.iter().enumerate() {
            if !self.embeds(vec![a, x]) {
                return false;
            }
            for &b in &dims[i + 1..] {
                if !self.embeds(vec![a, b, x]) {
                    return false;
                }
            }
        }
        true
    }

    fn embeds(&mut self, dims: Vec<u32>) -> bool {
        if let Some(&known) = self.cubes.get(&dims) {
            return known;
        }
        let known = self.torus.cube_embeds(&dims);
        self.cubes.insert(dims, known);
        known
    }
}

/// The torus as the check sees it: coordinates, first axis fastest.
struct Torus {
    sides: Vec<u64>,
    n: u64,
    diameter: u32,
    /// `spheres[r]`: the nodes at distance r from node 0.
    spheres: Vec<Vec<u64>>,
}

impl Torus {
    fn new(sides: &[u32]) -> Torus {
        let sides: Vec<u64> = sides.iter().map(|&k| u64::from(k)).collect();
        let diameter = sides.iter().map(|&k| (k / 2) as u32).sum();
        let mut t = Torus {
            n: sides.iter().product(),
            diameter,
            sides,
            spheres: vec![Vec::new(); diameter as usize + 1],
        };
        for v in 0..t.n {
            let r = t.distance(0, v) as usize;
            t.spheres[r].push(v);
        }
        t
    }

    /// The node at a + b, coordinates added per axis.
    fn add(&self, mut a: u64, mut b: u64) -> u64 {
        let (mut node, mut place) = (0, 1);
        for &k in &self.sides {
            node += ((a % k + b % k) % k) * place;
            place *= k;
            a /= k;
            b /= k;
        }
        node
    }

    /// Whether the k-cube (k = `dims.len()`) embeds with dimension i at
    /// distance `dims[i]`, by trying every placement with cube node 0 on
    /// host node 0 (the torus is vertex-transitive); cube node v goes on a
    /// free node at distance `dims[i]` from each placed v ⊕ 2^i.
    fn cube_embeds(&self, dims: &[u32]) -> bool {
        fn place(t: &Torus, dims: &[u32], at: &mut Vec<u64>) -> bool {
            let v = at.len();
            if v == 1 << dims.len() {
                return true;
            }
            let i = v.trailing_zeros() as usize;
            let base = at[v ^ (1 << i)];
            for &step in &t.spheres[dims[i] as usize] {
                let x = t.add(base, step);
                let fits = !at.contains(&x)
                    && (0..dims.len())
                        .filter(|&j| v & (1 << j) != 0)
                        .all(|j| t.distance(at[v ^ (1 << j)], x) == dims[j]);
                if fits {
                    at.push(x);
                    if place(t, dims, at) {
                        return true;
                    }
                    at.pop();
                }
            }
            false
        }
        place(self, dims, &mut vec![0])
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
