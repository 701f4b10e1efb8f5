//! Symmetry-breaking clauses that a core proof cites, each written with the
//! symmetry that justifies it, so that a checker need not trust the search
//! that found them.
//!
//! The core search ([`crate::optimal::search::core_search`]) refutes a sub-cube placed one
//! to one; without more, it searches every placement of a smaller
//! sub-cube once per symmetric copy (the branch and bound's shape memo,
//! [`crate::optimal::search::shapes`], searches each class once: torus:32x32's
//! (1, 2, 2, 3, 4, 5, 5) takes it 185 608 nodes with shapes and 6 909 401
//! without). A DRAT proof cannot say "as before, by symmetry", so the
//! formula takes one more kind of clause, a *lex-leader* clause (Crawford,
//! Ginsberg, Luks & Roy, KR 1996):
//!
//! Order placements f with f(0) = 0 label by label — f(1) first, as host
//! node numbers, then f(2), f(3), .. — and let g = (t, π, σ) act by
//! (g·f)(x) = σ(f(t ⊕ π(x)) − f(t)), for t a cube node, π a permutation of
//! the dimensions that keeps every distance (D_π(i) = D_i; on a label, π
//! moves its bits) and σ a symmetry of the torus fixing node 0: g·f is
//! again a placement with the same distances and f(0) = 0. Every placement
//! has a least transform f*. Take a *level* l and a g with t < 2^l and π
//! moving only dimensions below l: g maps the labels below 2^l onto
//! themselves, so if (g·f*) were smaller than f* on those labels it would
//! be smaller on the whole — f* is least on every such prefix. The clause
//! ¬(x(y, f(y)) for the labels y up to the first where g·f < f, and the
//! labels t ⊕ π(y) they are read from) therefore holds in f*, whenever g·f
//! is smaller there for the f it names. The formula's own symmetry
//! breaking ([`crate::optimal::proof::sat::core_formula`]: f(1) least of its orbit, f(2)
//! least under the symmetries fixing f(1), equal distances' unit images
//! ascending) holds in f* too, so formula and clauses together have a
//! model whenever the sub-cube embeds.
//!
//! A clause is written as one line, `t σ π(0),..,π(l−1) lit .. lit 0`
//! (σ an index into [`SearchHost::symmetries`], the literals DIMACS), in
//! `proofs/core-D0-...shapes` beside the proof; [`check`] recomputes the
//! transform from the clause's own literals and accepts only a clause
//! whose transform is smaller, at a label all of whose inputs the clause
//! fixes.

use std::io::{self, Write};

use std::path::Path;

use crate::optimal::host::{equal_permutations, SearchHost};
use crate::optimal::proof::sat::{core_formula, Cnf, Domains};

/// A lex-leader clause and the transform that justifies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::optimal) struct ShapeClause {
    /// The translation t (a cube node below 2^level).
    pub t: usize,
    /// σ: an index into the host's symmetries fixing node 0.
    pub symmetry: usize,
    /// π on the dimensions below the level (its length is the level).
    pub perm: Vec<usize>,
    /// The clause: negated placements, DIMACS literals.
    pub clause: Vec<i32>,
}

/// The transforms of the prefixes of a core's placements, level by level,
/// for the search to find a smaller one.
pub(in crate::optimal) struct Transforms {
    /// `levels[l]`: each permutation π of the dimensions below l keeping
    /// the distances, with its map of the labels below 2^l.
    levels: Vec<Vec<(Vec<usize>, Vec<usize>)>>,
}

impl Transforms {
    /// The transforms of the sub-cube of distances `core` (ascending).
    pub(in crate::optimal) fn new(core: &[u32]) -> Transforms {
        let levels = (0..=core.len())
            .map(|l| {
                equal_permutations(&core[..l])
                    .into_iter()
                    .map(|perm| {
                        let labels = (0..1usize << l).map(|y| move_bits(&perm, y)).collect();
                        (perm, labels)
                    })
                    .collect()
            })
            .collect();
        Transforms { levels }
    }

    /// A transform of `place`'s prefix of 2^`level` labels (all placed;
    /// `place[0]` = 0) that is smaller label by label, as its lex-leader
    /// clause over `dom`'s variables; None when the prefix is the least of
    /// its transforms.
    pub(in crate::optimal) fn smaller(
        &self,
        h: &SearchHost,
        dom: &Domains,
        level: usize,
        place: &[u16],
    ) -> Option<ShapeClause> {
        let labels = 1usize << level;
        for t in 0..labels {
            for (perm, map) in &self.levels[level] {
                for (symmetry, sigma) in h.symmetries().iter().enumerate() {
                    let moved = |y: usize| sigma[h.sub(place[t ^ map[y]], place[t]) as usize];
                    let Some(first) = (1..labels).find(|&y| moved(y) != place[y]) else {
                        continue;
                    };
                    if moved(first) > place[first] {
                        continue;
                    }
                    let mut nodes: Vec<usize> = (0..=first).flat_map(|y| [y, t ^ map[y]]).collect();
                    nodes.sort_unstable();
                    nodes.dedup();
                    let clause = nodes
                        .into_iter()
                        .filter(|&c| c != 0)
                        .map(|c| {
                            -dom.var(c, place[c])
                                .expect("a placed node's host has a variable")
                        })
                        .collect();
                    return Some(ShapeClause {
                        t,
                        symmetry,
                        perm: perm.clone(),
                        clause,
                    });
                }
            }
        }
        None
    }
}

/// Label y with each bit i moved to bit π(i).
fn move_bits(perm: &[usize], y: usize) -> usize {
    perm.iter()
        .enumerate()
        .filter(|&(i, _)| y >> i & 1 == 1)
        .map(|(_, &to)| 1usize << to)
        .sum()
}

/// The lex-leader clauses' file beside the proof file `proof` (a path
/// ending in `.drat`).
pub(in crate::optimal) fn shapes_file(proof: &str) -> String {
    format!("{}.shapes", proof.strip_suffix(".drat").unwrap_or(proof))
}

/// The formula of the sub-cube of distances `core` on `h` with the
/// lex-leader clauses its proof `proof` (relative to the certificate
/// directory `dir`) cites, each checked, the bytes of their file and their
/// number (none when there is no file: a proof that cites none).
pub(in crate::optimal) fn core_formula_citing(
    dir: &Path,
    proof: &str,
    h: &SearchHost,
    (core, bipartite): (&[u32], bool),
) -> Result<(Cnf, u64, u64), String> {
    let (mut cnf, dom) = core_formula(h, core, bipartite);
    let path = dir.join(shapes_file(proof));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((cnf, 0, 0)),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let cited = read_checked(&text, h, core, &dom)
        .map_err(|e| format!("{}: a lex-leader clause fails: {e}", path.display()))?;
    let count = cited.len() as u64;
    cnf.clauses.extend(cited);
    Ok((cnf, text.len() as u64, count))
}

/// Writes `clause` as one line of a `.shapes` file.
pub(in crate::optimal) fn write(out: &mut dyn Write, clause: &ShapeClause) -> io::Result<()> {
    let perm: Vec<String> = clause.perm.iter().map(usize::to_string).collect();
    write!(out, "{} {} {}", clause.t, clause.symmetry, perm.join(","))?;
    for lit in &clause.clause {
        write!(out, " {lit}")?;
    }
    writeln!(out, " 0")
}

/// The clauses of a `.shapes` file, each checked ([`check`]) against the
/// formula of the sub-cube of distances `core` on `h` whose variables
/// `dom` gives.
pub(in crate::optimal) fn read_checked(
    text: &str,
    h: &SearchHost,
    core: &[u32],
    dom: &Domains,
) -> Result<Vec<Vec<i32>>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, line)| {
            let clause = parse(line).map_err(|e| format!("line {}: {e}", at + 1))?;
            check(h, core, dom, &clause).map_err(|e| format!("line {}: {e}", at + 1))?;
            Ok(clause.clause)
        })
        .collect()
}

fn parse(line: &str) -> Result<ShapeClause, String> {
    let mut fields = line.split_whitespace();
    let mut number =
        |what: &str| -> Result<&str, String> { fields.next().ok_or_else(|| format!("no {what}")) };
    let t = number("translation")?
        .parse()
        .map_err(|e| format!("translation: {e}"))?;
    let symmetry = number("symmetry")?
        .parse()
        .map_err(|e| format!("symmetry: {e}"))?;
    let perm = number("permutation")?
        .split(',')
        .map(|p| p.parse().map_err(|e| format!("permutation: {e}")))
        .collect::<Result<Vec<usize>, String>>()?;
    let mut clause = Vec::new();
    for field in fields.by_ref() {
        match field.parse::<i32>().map_err(|e| format!("literal: {e}"))? {
            0 => {
                return match fields.next() {
                    None => Ok(ShapeClause {
                        t,
                        symmetry,
                        perm,
                        clause,
                    }),
                    Some(extra) => Err(format!("`{extra}` after the closing 0")),
                }
            }
            lit => clause.push(lit),
        }
    }
    Err("no closing 0".to_string())
}

/// Whether `clause` is a lex-leader clause of the sub-cube of distances
/// `core` (module docs): its literals all negated placements, one host per
/// cube node; its π a permutation of the dimensions below its level that
/// keeps every distance; its t below 2^level; and, reading the placement
/// off the literals (with node 0 on node 0), the transform smaller at the
/// first label where it differs, every host read on the way fixed.
pub(in crate::optimal) fn check(
    h: &SearchHost,
    core: &[u32],
    dom: &Domains,
    clause: &ShapeClause,
) -> Result<(), String> {
    let level = clause.perm.len();
    if level == 0 || level > core.len() {
        return Err(format!(
            "a permutation of {level} dimensions; the sub-cube has {}",
            core.len()
        ));
    }
    let mut seen = vec![false; level];
    for (i, &p) in clause.perm.iter().enumerate() {
        if p >= level || std::mem::replace(&mut seen[p], true) || core[p] != core[i] {
            return Err(format!(
                "{:?} is not a permutation of the dimensions below {level} keeping their \
                 distances {:?}",
                clause.perm,
                &core[..level]
            ));
        }
    }
    let labels = 1usize << level;
    if clause.t >= labels {
        return Err(format!(
            "translation {} is not a cube node below 2^{level}",
            clause.t
        ));
    }
    let sigma = h
        .symmetries()
        .get(clause.symmetry)
        .ok_or_else(|| format!("symmetry {} of {}", clause.symmetry, h.symmetries().len()))?;
    let mut place: Vec<Option<u16>> = vec![None; 1 << core.len()];
    place[0] = Some(0);
    for &lit in &clause.clause {
        let (c, v) = (lit < 0)
            .then(|| dom.placement(-lit))
            .flatten()
            .ok_or_else(|| format!("literal {lit} is not a negated placement"))?;
        if place[c].is_some_and(|u| u != v) || c == 0 && v != 0 {
            return Err(format!("cube node {c} placed twice"));
        }
        place[c] = Some(v);
    }
    let fixed = |c: usize| place[c].ok_or_else(|| format!("cube node {c} is read but not fixed"));
    let origin = fixed(clause.t)?;
    for y in 1..labels {
        let from = fixed(clause.t ^ move_bits(&clause.perm, y))?;
        let (moved, own) = (sigma[h.sub(from, origin) as usize], fixed(y)?);
        if moved < own {
            return Ok(());
        }
        if moved > own {
            return Err(format!(
                "the transform is larger at cube node {y} ({moved} > {own}): the placement \
                 may be the least"
            ));
        }
    }
    Err("the transform equals the placement".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::proof::sat::core_formula;

    /// Every transform of a placement of the sub-cube (1, 2, 2) on
    /// torus:8x8, by the definition: the least has no smaller transform at
    /// any level, every other has one at the top level, and its clause
    /// checks — but not with its witness or literals altered.
    #[test]
    fn a_clause_checks_with_its_witness_only() {
        let h = SearchHost::new(&[8, 8]);
        let core = [1, 2, 2];
        let (_, dom) = core_formula(&h, &core, true);
        let transforms = Transforms::new(&core);
        let at = |x: u16, y: u16| x % 8 + 8 * (y % 8);
        // Bits 0, 1, 2 along (1, 0), (0, 2), (2, 0).
        let f: Vec<u16> = (0..8u16)
            .map(|c| at((c & 1) + 2 * (c >> 2 & 1), 2 * (c >> 1 & 1)))
            .collect();
        let mut all: Vec<Vec<u16>> = Vec::new();
        for t in 0..8 {
            for perm in equal_permutations(&core) {
                for sigma in h.symmetries() {
                    all.push(
                        (0..8)
                            .map(|y| sigma[h.sub(f[t ^ move_bits(&perm, y)], f[t]) as usize])
                            .collect(),
                    );
                }
            }
        }
        let least = all.iter().min().unwrap().clone();
        for level in 2..=3 {
            assert_eq!(transforms.smaller(&h, &dom, level, &least), None);
        }
        let mut others = 0;
        // Those with a variable for every host: the formula's domains keep
        // node 1 to one host per orbit and a transform may take another.
        let in_domains = |g: &&Vec<u16>| (0..8).all(|c| dom.var(c, g[c]).is_some());
        for g in all.iter().filter(|g| **g != least).filter(in_domains) {
            let Some(found) = transforms.smaller(&h, &dom, 3, g) else {
                panic!("{g:?} is not the least, yet no transform is smaller");
            };
            assert_eq!(check(&h, &core, &dom, &found), Ok(()), "{g:?}");
            let mut line = Vec::new();
            write(&mut line, &found).unwrap();
            let text = String::from_utf8(line).unwrap();
            assert_eq!(
                read_checked(&text, &h, &core, &dom),
                Ok(vec![found.clause.clone()])
            );
            others += 1;
        }
        assert!(others > 10, "{others}");

        let g = all.iter().find(|g| **g != least && g[1] == 1).unwrap();
        let found = transforms.smaller(&h, &dom, 3, g).unwrap();
        let identity = h
            .symmetries()
            .iter()
            .position(|s| s.iter().enumerate().all(|(v, &u)| v == u as usize))
            .unwrap();
        let broken = [
            // The identity: equal, not smaller.
            ShapeClause {
                t: 0,
                symmetry: identity,
                perm: vec![0, 1, 2],
                ..found.clone()
            },
            // A permutation that changes a distance.
            ShapeClause {
                perm: vec![1, 0, 2],
                ..found.clone()
            },
            // A translation outside the level.
            ShapeClause {
                t: 8,
                ..found.clone()
            },
            // A literal left out: a host it reads is not fixed.
            ShapeClause {
                clause: found.clause[1..].to_vec(),
                ..found.clone()
            },
            // A literal not negated.
            ShapeClause {
                clause: found.clause.iter().map(|l| -l).collect(),
                ..found.clone()
            },
        ];
        for clause in &broken {
            assert!(check(&h, &core, &dom, clause).is_err(), "{clause:?}");
        }
        for text in ["", "0 0 0,1,2 -3", "0 0 0,1,2 -3 0 4", "x 0 0 1 0"] {
            let parsed = read_checked(text, &h, &core, &dom);
            assert_eq!(parsed.is_err(), !text.is_empty(), "{text:?}: {parsed:?}");
        }
    }
}
