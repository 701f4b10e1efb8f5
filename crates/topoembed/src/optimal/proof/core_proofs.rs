//! The DRAT proofs of cores, for certificates written by the branch and
//! bound (`optimal --certificate DIR --decide-by search` or `turns`).
//!
//! The branch and bound refutes most vectors by a *core*
//! ([`Refuted::core`]): a sub-cube that embeds nowhere in the host. Its
//! word is not a proof, so for a certificate each core is refuted again, on
//! the core's own formula ([`crate::optimal::proof::sat::core_formula`]: the sub-cube placed
//! one to one), by a search that writes the DRAT proof as it goes
//! ([`crate::optimal::search::core_search`]; a SAT solver took hours on cores that search
//! refutes in minutes), and every vector the core refutes points at that
//! one proof, `proofs/core-D0-D1-...drat` (with `core-D0-D1-...shapes`
//! beside it, the lex-leader clauses it cites: [`crate::optimal::proof::shape_clauses`]).
//! On torus:32x32 the 2 731
//! vectors below xor's sum come down to 93 cores; the solver decides none
//! of the whole vectors there.
//!
//! Each core is proved once, whichever thread meets it first; the others
//! wait for that proof rather than write it again. A vector whose own core
//! has no proof yet cites a proved core it also holds, when there is one
//! ([`CoreProofs::cite`]): a hard core is then proved only for the vectors
//! that hold no other.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::optimal::certificate::refuted::{holds_multiset, Refuted};
use crate::optimal::host::SearchHost;
use crate::optimal::proof::sat::core_formula;
use crate::optimal::proof::shape_clauses::shapes_file;
use crate::optimal::search::core_search::{search_core, CoreAnswer, ProofOut};

/// One core's proof, as the refutations that use it cite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::optimal) struct CoreProof {
    /// The proof file, relative to the certificate directory.
    pub name: String,
    /// Variables of the core's formula.
    pub variables: u32,
    /// Clauses of the core's formula.
    pub clauses: usize,
    /// Size of the proof file.
    pub bytes: u64,
}

impl CoreProof {
    /// `refuted`, a vector refuted by the branch and bound with a core,
    /// now refuted by this proof of that core instead.
    pub(in crate::optimal) fn refutes(&self, refuted: Refuted) -> Refuted {
        Refuted {
            by: "drat".to_string(),
            proof: self.name.clone(),
            variables: self.variables,
            clauses: self.clauses,
            proof_bytes: self.bytes,
            ..refuted
        }
    }
}

/// The proof file of `core`, relative to the certificate directory.
pub(in crate::optimal) fn core_proof_name(core: &[u32]) -> String {
    let parts: Vec<String> = core.iter().map(u32::to_string).collect();
    format!("proofs/core-{}.drat", parts.join("-"))
}

/// One core's proof, once the first thread to need it has made it.
type Slot = Arc<Mutex<Option<CoreProof>>>;

/// The cores proved so far in one certificate (a slot per core, filled by
/// the first thread to need it).
#[derive(Default)]
pub(in crate::optimal) struct CoreProofs {
    slots: Mutex<HashMap<Vec<u32>, Slot>>,
}

impl CoreProofs {
    /// The core proofs a resumed certificate's refutations cite already.
    pub(in crate::optimal) fn new(refuted: &[Refuted]) -> CoreProofs {
        let proofs = CoreProofs::default();
        {
            let mut slots = proofs.slots.lock().unwrap_or_else(|e| e.into_inner());
            for r in refuted
                .iter()
                .filter(|r| r.by == "drat" && !r.core.is_empty())
            {
                let proof = CoreProof {
                    name: r.proof.clone(),
                    variables: r.variables,
                    clauses: r.clauses,
                    bytes: r.proof_bytes,
                };
                slots.insert(r.core.clone(), Arc::new(Mutex::new(Some(proof))));
            }
        }
        proofs
    }

    /// `refuted` (a vector the branch and bound refuted with a core) as a
    /// certificate cites it: by its core's proof when that is made (or
    /// being made by no one), else by the proof of another core the vector
    /// holds, the smallest, when one is made — any sub-cube that embeds
    /// nowhere refutes every vector holding its distances — else by its
    /// core's proof, made now ([`CoreProofs::prove`]). `None`: stopped
    /// first.
    pub(in crate::optimal) fn cite(
        &self,
        dir: &Path,
        h: &SearchHost,
        (refuted, bipartite): (Refuted, bool),
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Refuted>> {
        let made = |slot: &Slot| slot.try_lock().ok().and_then(|s| s.clone());
        let (own, other) = {
            let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            let own = slots.get(&refuted.core).and_then(made);
            let other = slots
                .iter()
                .filter(|(core, _)| holds_multiset(&refuted.distances, core))
                .filter_map(|(core, slot)| made(slot).map(|proof| (core.clone(), proof)))
                .min_by(|(a, p), (b, q)| (p.bytes, a).cmp(&(q.bytes, b)));
            (own, other)
        };
        if let Some(proof) = own {
            return Ok(Some(proof.refutes(refuted)));
        }
        if let Some((core, proof)) = other {
            return Ok(Some(proof.refutes(Refuted { core, ..refuted })));
        }
        let proof = self.prove(dir, h, (&refuted.core, bipartite), stop)?;
        Ok(proof.map(|proof| proof.refutes(refuted)))
    }

    /// The proof of `core` (ascending) in certificate `dir`: the one made
    /// before, or a new one by the core search. `None`: stopped first. A
    /// core that search places is an error (the branch and bound said it
    /// embeds nowhere).
    pub(in crate::optimal) fn prove(
        &self,
        dir: &Path,
        h: &SearchHost,
        (core, bipartite): (&[u32], bool),
        stop: Option<&AtomicBool>,
    ) -> Result<Option<CoreProof>> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.entry(core.to_vec()).or_default().clone()
        };
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(proof) = slot.as_ref() {
            return Ok(Some(proof.clone()));
        }
        let name = core_proof_name(core);
        let path = dir.join(&name);
        let shapes_path = dir.join(shapes_file(&name));
        let (cnf, dom) = core_formula(h, core, bipartite);
        let failed = |e: std::io::Error| Error::File(format!("{}: {e}", path.display()));
        let create = |path: &Path| {
            std::fs::File::create(path)
                .map(std::io::BufWriter::new)
                .map_err(|e| {
                    Error::File(format!("{}: cannot write the proof: {e}", path.display()))
                })
        };
        let (mut writer, mut shapes) = (create(&path)?, create(&shapes_path)?);
        let out = ProofOut {
            proof: &mut writer,
            shapes: &mut shapes,
        };
        let answer = search_core(h, core, &dom, out, stop).map_err(failed)?;
        std::io::Write::flush(&mut writer).map_err(failed)?;
        std::io::Write::flush(&mut shapes).map_err(failed)?;
        drop((writer, shapes));
        let remove = || {
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(&shapes_path);
        };
        match answer {
            CoreAnswer::Refuted { .. } => {
                let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
                if size(&shapes_path) == 0 {
                    // It cites no lex-leader clause: no file says so.
                    let _ = std::fs::remove_file(&shapes_path);
                }
                let bytes = size(&path) + size(&shapes_path);
                let proof = CoreProof {
                    name,
                    variables: cnf.vars,
                    clauses: cnf.clauses.len(),
                    bytes,
                };
                *slot = Some(proof.clone());
                Ok(Some(proof))
            }
            CoreAnswer::Stopped => {
                remove();
                Ok(None)
            }
            CoreAnswer::Placed(_) => {
                remove();
                Err(Error::File(format!(
                    "the core search placed the sub-cube of distances {core:?} that the branch \
                     and bound refuted as a core: one of them is wrong, please report it"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::proof::shape_clauses::core_formula_citing;

    #[test]
    fn a_core_is_proved_once_and_its_proof_checks() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        std::fs::create_dir_all(dir.join("proofs")).unwrap();
        let h = SearchHost::new(&[32, 32]);
        let proofs = CoreProofs::new(&[]);
        // A 4-cube of distances 2 embeds nowhere in torus:32x32 (a core of
        // the search there).
        let core = [2, 2, 2, 2];
        let first = proofs
            .prove(&dir, &h, (&core, true), None)
            .unwrap()
            .unwrap();
        assert_eq!(first.name, "proofs/core-2-2-2-2.drat");
        let proof = std::fs::read(dir.join(&first.name)).unwrap();
        let (cnf, shapes, cited) =
            core_formula_citing(&dir, &first.name, &h, (&core, true)).unwrap();
        assert!(shapes > 0 && cited > 0);
        assert_eq!(proof.len() as u64 + shapes, first.bytes);
        assert!(crate::optimal::proof::drat::check(&cnf, &proof).is_ok());
        // Asked again, it answers from its slot: the file is not rewritten.
        std::fs::remove_file(dir.join(&first.name)).unwrap();
        let again = proofs
            .prove(&dir, &h, (&core, true), None)
            .unwrap()
            .unwrap();
        assert_eq!(again, first);
        assert!(!dir.join(&first.name).exists());
        // A sub-cube that does embed is an error, and leaves no file.
        let placed = proofs.prove(&dir, &h, (&[1, 1, 2], true), None);
        assert!(placed.is_err());
        assert!(!dir.join(core_proof_name(&[1, 1, 2])).exists());
        // A set stop flag ends the search with no answer and no file.
        let stop = AtomicBool::new(true);
        let stopped = proofs.prove(&dir, &h, (&[4, 4, 4, 4, 4, 4], true), Some(&stop));
        assert!(matches!(stopped, Ok(None)));
        assert!(!dir.join(core_proof_name(&[4, 4, 4, 4, 4, 4])).exists());
        // A resumed certificate's cores are known without a solve.
        let cited = first.refutes(Refuted::by_core(&[1, 2, 2, 2, 2, 3], &core));
        let resumed = CoreProofs::new(&[cited]);
        let known = resumed
            .prove(&dir, &h, (&core, true), None)
            .unwrap()
            .unwrap();
        assert_eq!(known, first);

        // A vector holding a proved core cites it rather than have its own
        // (six distances 4, a core too) proved: no file is written for it.
        let cite = |refuted: Refuted| {
            resumed
                .cite(&dir, &h, (refuted, true), None)
                .unwrap()
                .unwrap()
        };
        let refuted = Refuted::by_core(&[2, 2, 2, 2, 4, 4, 4, 4, 4, 4], &[4, 4, 4, 4, 4, 4]);
        let cited = cite(refuted.clone());
        assert_eq!(cited.core, core);
        assert_eq!(cited.proof, first.name);
        assert_eq!(cited.distances, refuted.distances);
        assert!(!dir.join(core_proof_name(&[4, 4, 4, 4, 4, 4])).exists());
        // One holding none has its own proved, and cites it.
        let cited = cite(Refuted::by_core(&[1, 1, 2, 2, 2, 3], &[1, 1, 2, 2, 2]));
        assert_eq!(cited.core, [1, 1, 2, 2, 2]);
        assert_eq!(cited.proof, core_proof_name(&[1, 1, 2, 2, 2]));
        let (cnf, ..) = core_formula_citing(&dir, &cited.proof, &h, (&cited.core, true)).unwrap();
        let proof = std::fs::read(dir.join(&cited.proof)).unwrap();
        assert!(crate::optimal::proof::drat::check(&cnf, &proof).is_ok());
        // Once made, a vector holding both cites its own core.
        let cited = cite(Refuted::by_core(&[1, 1, 2, 2, 2, 2], &[1, 1, 2, 2, 2]));
        assert_eq!(cited.core, [1, 1, 2, 2, 2]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
