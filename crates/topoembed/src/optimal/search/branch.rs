//! The branch and bound's state and its descent ([`super::constant`]
//! drives it): cube nodes placed in label order, dimension k opening at
//! node 2^k with f(2^k) chosen up to the symmetries fixing what is placed,
//! every later node forced by its neighbours' distances; checkpoints of
//! where it stands.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};
use crate::optimal::host::SearchHost;
use crate::optimal::search::ahead::Ahead;
use crate::optimal::search::copies::{Domains, MAX_SPHERE};
use crate::optimal::search::faces::Faces;
use crate::optimal::search::shapes::Shapes;
use crate::progress::Progress;
use crate::spec::Spec;

/// How long the search may run, and where it saves itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchOptions<'a> {
    /// Stop after this many search nodes (`proved` is then false); 0: no limit.
    pub node_limit: u64,
    /// Set to stop the search early (`proved` is then false).
    pub stop: Option<&'a AtomicBool>,
    /// Counts search nodes, in thousands.
    pub progress: Option<&'a Progress>,
    /// A file the search writes its position to every
    /// [`CHECKPOINT_NODES`] nodes and when stopped, and resumes from when
    /// it exists (the same guest and host); the search by vectors records
    /// its refuted vectors there instead ([`crate::optimal::search::vectors`]).
    pub checkpoint: Option<&'a std::path::Path>,
}

/// Search nodes between two checkpoint writes.
pub const CHECKPOINT_NODES: u64 = 1 << 26;

/// Where a search stands: enough to go on from there.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(super) struct Checkpoint {
    pub(super) guest: String,
    pub(super) host: String,
    /// Sums at or above this are not searched for.
    pub(super) best: u32,
    /// The best embedding found so far: distances and placement.
    pub(super) found: Option<(Vec<u32>, Vec<u16>)>,
    pub(super) nodes: u64,
    /// The choice being explored at each depth of the search: (distance
    /// chosen where a dimension opens, else 0; index of the candidate).
    pub(super) path: Vec<(u32, u32)>,
}

/// The branch and bound's state.
pub(super) struct Search<'a> {
    pub(super) h: &'a SearchHost,
    pub(super) d: usize,
    /// `place[v]`: host node of cube node v (v below the current node).
    pub(super) place: Vec<u16>,
    pub(super) used: Vec<bool>,
    /// D_0..: the distances chosen so far.
    pub(super) dims: Vec<u32>,
    /// Least Σ_{i≤k} D_i for the sub-cube of dimensions 0..=k.
    pub(super) prefix_bound: Vec<u32>,
    /// `stabilizers[k]`: the symmetries f(2^k) is taken up to, fixing node
    /// 0 and the images of the nodes 2^j, j < k — of every node below 2^k
    /// with `shapes` (indices into the host's list; see [`Search::settle`]).
    pub(super) stabilizers: Vec<Vec<usize>>,
    /// Only sums below this are searched for.
    pub(super) best: u32,
    pub(super) found: Option<(Vec<u32>, Vec<u16>)>,
    pub(super) nodes: u64,
    pub(super) options: &'a SearchOptions<'a>,
    pub(super) aborted: bool,
    /// The choice being explored at each depth (see [`Checkpoint::path`]).
    pub(super) path: Vec<(u32, u32)>,
    /// A checkpoint's path still to be replayed, deepest last.
    pub(super) resume: Vec<(u32, u32)>,
    /// Guest and host, as a checkpoint names them.
    pub(super) names: (String, String),
    /// A checkpoint that could not be written.
    pub(super) failure: Option<Error>,
    /// Only this distance vector (ascending) is searched, when set.
    pub(super) fixed: Option<Vec<u32>>,
    /// The shapes of placements found not to extend (one vector only:
    /// with `fixed` set).
    pub(super) shapes: Option<Shapes>,
    /// Per level, the copy placed most constrained first under arc
    /// consistency (one vector only: with `fixed` set).
    pub(super) copies: Option<Vec<Domains>>,
    /// Per level k, dimension k + 1's copy over what dimension k's copy
    /// has placed so far (one vector only, with `copies`).
    pub(super) aheads: Option<Vec<Ahead>>,
    /// Whether a (k+1)-cube is kept only while no face of it has a shape
    /// below the k-cube it was built from ([`Faces`]; with `shapes`).
    pub(super) faces: bool,
    /// Whether a partial copy is dropped when its nodes, or the next
    /// copy's, cannot sit on distinct points ([`Domains::distinct`]; with
    /// `copies`).
    pub(super) distinct: bool,
    /// The highest dimension opened so far (node 2^k reached: the sub-cube
    /// of dimensions below k embeds).
    pub(super) opened: usize,
}

/// Reads a checkpoint of the same guest and host.
pub(super) fn read_checkpoint(path: &Path, guest: &str, host: &Spec) -> Result<Checkpoint> {
    let text = crate::optimal::run::record::checkpoint_text(path)?;
    let c: Checkpoint = serde_json::from_str(&text).map_err(|e| {
        Error::File(format!(
            "{}: not a checkpoint of `topoembed optimal` ({e}); remove it to start afresh",
            path.display()
        ))
    })?;
    crate::optimal::run::record::same_problem(
        path,
        (&c.guest, &c.host),
        (guest, &host.to_string()),
    )?;
    Ok(c)
}

impl<'a> Search<'a> {
    /// A search of `h` from cube node 1 (node 0 on host node 0) for sums
    /// below `best`; `names` = (guest, host) as a checkpoint names them.
    pub(super) fn new(
        h: &'a SearchHost,
        prefix_bound: Vec<u32>,
        best: u32,
        options: &'a SearchOptions<'a>,
        names: (String, String),
    ) -> Search<'a> {
        let (n, d) = (h.nodes(), prefix_bound.len());
        let mut used = vec![false; n];
        used[0] = true;
        Search {
            h,
            d,
            place: vec![0u16; 1 << d],
            used,
            dims: vec![0u32; d],
            prefix_bound,
            stabilizers: vec![(0..h.symmetries().len()).collect()],
            best,
            found: None,
            nodes: 0,
            options,
            aborted: false,
            path: Vec::new(),
            resume: Vec::new(),
            names,
            failure: None,
            fixed: None,
            opened: 0,
            faces: false,
            distinct: false,
            shapes: None,
            copies: None,
            aheads: None,
        }
    }

    /// Places cube node `v` and those after it; `partial` = Σ of the
    /// distances chosen (dimensions below v's highest bit, and it if open).
    pub(super) fn descend(&mut self, v: usize, partial: u32) {
        if self.aborted {
            return;
        }
        if v == self.place.len() {
            self.best = partial;
            self.found = Some((self.dims.clone(), self.place.clone()));
            return;
        }
        if !self.tick() {
            return;
        }
        if v.is_power_of_two() {
            self.open_dimension(v, partial);
            return;
        }
        // Candidates: the sphere of radius D_j around the lower neighbour
        // whose sphere is smallest, checked against the others.
        // The bits of v, iterated without allocating (this runs per search node).
        let d = self.d;
        let bits = move || (0..d).filter(move |&j| v >> j & 1 == 1);
        let pivot = bits()
            .min_by_key(|&j| self.h.sphere(self.dims[j] as u16).len())
            .expect("v has two bits or more");
        let centre = self.place[v ^ (1 << pivot)];
        let radius = self.dims[pivot] as u16;
        let (_, first) = self.resumed(v);
        for k in first as usize..self.h.sphere(radius).len() {
            self.path[v - 1] = (0, k as u32);
            let u = self.h.add(centre, self.h.sphere(radius)[k]);
            if self.used[u as usize] {
                continue;
            }
            let fits = bits().all(|j| {
                j == pivot || u32::from(self.h.d(u, self.place[v ^ (1 << j)])) == self.dims[j]
            });
            if fits {
                self.place[v] = u;
                self.used[u as usize] = true;
                self.descend(v + 1, partial);
                self.used[u as usize] = false;
                if self.aborted {
                    return;
                }
            }
        }
    }

    /// Counts one search node: writes the checkpoint, advances the progress
    /// and stops at the node limit or on `stop`. False once aborted.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % CHECKPOINT_NODES == 0 {
            if let Some(path) = self.options.checkpoint {
                if let Err(e) = self.save(path) {
                    self.failure = Some(e);
                    self.aborted = true;
                    return false;
                }
            }
        }
        // The limit exactly (a budget of one node is one node), the flag
        // now and then.
        let limit = self.options.node_limit;
        if limit > 0 && self.nodes >= limit {
            self.aborted = true;
            return false;
        }
        if self.nodes % 1024 == 0 {
            crate::progress::advance(self.options.progress, 1);
            if self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.aborted = true;
                return false;
            }
        }
        true
    }

    /// Level k's [`Domains`], taken out of `copies` for the time of the
    /// level (put back by the caller): None without copies or where the
    /// sphere of radius D_k is too large for a domain.
    fn copy_for(&mut self, k: usize) -> Option<Domains> {
        let large = self.h.sphere(self.dims[k] as u16).len() > MAX_SPHERE;
        match self.copies.as_mut() {
            Some(copies) if !large => Some(std::mem::take(&mut copies[k])),
            _ => None,
        }
    }

    /// Level k's [`Ahead`], taken out of `aheads` for the time of the
    /// level (put back by the caller): None without look-ahead, at the
    /// last dimension, where dimension k + 1's sphere is too large, and
    /// until dimension k + 1 has opened once. A refutation then names the
    /// same core as without it: what the look-ahead drops could not have
    /// opened dimension k + 1, let alone gone past it.
    fn ahead_for(&mut self, k: usize) -> Option<Ahead> {
        if self.opened <= k {
            return None;
        }
        let next = *self.fixed.as_ref()?.get(k + 1)?;
        let large = self.h.sphere(next as u16).len() > MAX_SPHERE;
        match self.aheads.as_mut() {
            Some(aheads) if !large => Some(std::mem::take(&mut aheads[k])),
            _ => None,
        }
    }

    /// f(x) = u (x in a copy, u marked used) for the look-ahead, if any;
    /// false when it finds that the next dimension cannot open.
    fn look_ahead(&self, ahead: &mut Option<Ahead>, x: usize, u: u16) -> bool {
        ahead
            .as_mut()
            .map_or(true, |ahead| ahead.place(self.h, x, u, &self.used))
    }

    /// Copy node x is placed: whether the faces it completes leave the
    /// nodes below 2^k the least ([`Faces`]). [`Faces::unplace`] it after.
    fn least_face(&mut self, faces: &mut Option<Faces>, x: usize) -> bool {
        match (faces.as_mut(), self.shapes.as_mut()) {
            (Some(faces), Some(shapes)) => faces.place(shapes, self.h, &self.place, x),
            _ => true,
        }
    }

    /// Places the copy's unplaced nodes (f(2^k) placed and started), the
    /// one with the fewest points left first, then goes on from node
    /// 2^(k+1).
    fn fill_from(
        &mut self,
        copy: &mut Domains,
        (ahead, faces): (&mut Option<Ahead>, &mut Option<Faces>),
        k: usize,
        partial: u32,
    ) {
        let half = 1usize << k;
        let Some(x) = copy.most_constrained() else {
            // The (k+1)-cube is placed: the path keeps one entry per node.
            self.path.resize(2 * half - 1, (0, 0));
            return self.descend(2 * half, partial);
        };
        // Distinct points left for this copy and the next: arc
        // consistency alone lets several nodes count on the same one.
        if self.distinct
            && !(copy.distinct(self.h) && ahead.as_mut().map_or(true, |a| a.distinct(self.h)))
        {
            return;
        }
        copy.set_placed(x, true);
        let mut points = copy.points(x);
        while points != 0 {
            let i = points.trailing_zeros() as usize;
            points &= points - 1;
            if !self.tick() {
                return;
            }
            let u = copy.host(self.h, x, i);
            let mark = copy.save();
            if copy.assign(self.h, k, x, i) {
                self.place[half + x] = u;
                self.used[u as usize] = true;
                let ahead_mark = ahead.as_mut().map(Ahead::mark);
                if self.least_face(faces, x) && self.look_ahead(ahead, half + x, u) {
                    self.fill_from(copy, (ahead, faces), k, partial);
                }
                if let Some(faces) = faces.as_mut() {
                    faces.unplace(x);
                }
                if let (Some(ahead), Some(mark)) = (ahead.as_mut(), ahead_mark) {
                    ahead.undo(mark);
                }
                self.used[u as usize] = false;
            }
            copy.restore(mark);
            // Stopped, or an embedding found below leaves nothing this
            // copy could still better (the first one found is kept).
            if self.aborted
                || self.least_total(k, partial - self.dims[k], self.dims[k]) >= self.best
            {
                return;
            }
        }
        copy.set_placed(x, false);
    }

    /// The choice to start from at depth v: the checkpoint's while the
    /// search is still on the checkpoint's path, else the first. Also sizes
    /// the current path.
    fn resumed(&mut self, v: usize) -> (u32, u32) {
        self.path.truncate(v - 1);
        self.path.push((0, 0));
        let on_path = self.resume.len() >= v && self.resume[..v - 1] == self.path[..v - 1];
        if !on_path {
            // Replayed (or moved past): from here on every loop starts at 0.
            self.resume.clear();
            return (0, 0);
        }
        self.resume[v - 1]
    }

    /// Writes where the search stands to `path` (through a temporary file,
    /// so a stop while writing leaves the last checkpoint whole).
    pub(super) fn save(&self, path: &Path) -> Result<()> {
        let c = Checkpoint {
            guest: self.names.0.clone(),
            host: self.names.1.clone(),
            best: self.best,
            found: self.found.clone(),
            nodes: self.nodes,
            path: self.path.clone(),
        };
        let text = serde_json::to_string(&c).map_err(|e| Error::File(e.to_string()))?;
        let temporary = crate::optimal::run::record::temporary_beside(path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| {
                Error::File(format!(
                    "{}: cannot write the checkpoint: {e}",
                    path.display()
                ))
            })
    }

    /// The least Σ D_i of a completion once D_k = `dk` (with `partial` the
    /// sum below k): for every j ≥ k, the sub-cube of dimensions 0..=j needs
    /// at least max(its bound, partial + (j − k + 1)·dk), and each of the
    /// d − 1 − j dimensions above it at least dk.
    fn least_total(&self, k: usize, partial: u32, dk: u32) -> u32 {
        (k..self.d)
            .map(|j| {
                let below = self.prefix_bound[j].max(partial + (j - k + 1) as u32 * dk);
                below + (self.d - 1 - j) as u32 * dk
            })
            .max()
            .unwrap_or(partial)
    }

    /// One random descent for [`estimate_nodes`]: returns 1 + b_1 + b_1·b_2
    /// + .., b_i the children at depth i, and leaves the state as found.
    pub(super) fn probe(&mut self, rng: &mut crate::mapper::rng::Rng) -> f64 {
        let (mut total, mut weight, mut partial) = (1.0, 1.0, 0u32);
        let mut children: Vec<(u32, u16)> = Vec::new();
        let mut placed = Vec::new();
        for v in 1..self.place.len() {
            if v.is_power_of_two() {
                self.settle(v.trailing_zeros() as usize);
            }
            self.children(v, partial, &mut children);
            if children.is_empty() {
                break;
            }
            weight *= children.len() as f64;
            // A child is a search node unless it completes the placement.
            if v + 1 < self.place.len() {
                total += weight;
            }
            let (dk, u) = children[rng.below(children.len())];
            if v.is_power_of_two() {
                let k = v.trailing_zeros() as usize;
                self.dims[k] = dk;
                partial += dk;
            }
            self.place[v] = u;
            self.used[u as usize] = true;
            placed.push(u);
        }
        for u in placed {
            self.used[u as usize] = false;
        }
        total
    }

    /// Records, as dimension k opens (every cube node below 2^k placed),
    /// the symmetries f(2^k) is taken up to: the least node of its orbit
    /// under those that fix node 0 and the images of the nodes 2^j, j < k.
    /// Any embedding can be turned into one that chooses so, level by
    /// level, each turn fixing what the levels before chose, so the search
    /// is complete. With [`Shapes`] the symmetries fix the image of every
    /// node below 2^k instead: fewer (the search of torus:16x16 takes 12 %
    /// more nodes), but then the search from one placement of the k-cube is
    /// complete for that placement's extensions, each turn fixing all of it.
    fn settle(&mut self, k: usize) {
        self.stabilizers.truncate(k.max(1));
        if k == 0 {
            return;
        }
        let symmetries = self.h.symmetries();
        let block = match self.shapes {
            Some(_) => &self.place[1 << (k - 1)..1 << k],
            None => &self.place[1 << (k - 1)..=1 << (k - 1)],
        };
        let fixing: Vec<usize> = self.stabilizers[k - 1]
            .iter()
            .copied()
            .filter(|&g| block.iter().all(|&u| symmetries[g][u as usize] == u))
            .collect();
        self.stabilizers.push(fixing);
    }

    /// The children the search visits at node v: (the distance D_k chosen
    /// when v = 2^k opens dimension k, else 0; the host node for v).
    fn children(&self, v: usize, partial: u32, out: &mut Vec<(u32, u16)>) {
        out.clear();
        if v.is_power_of_two() {
            let k = v.trailing_zeros() as usize;
            let lowest = if k == 0 { 1 } else { self.dims[k - 1] };
            let mut dk = self.prefix_bound[k].saturating_sub(partial).max(lowest);
            let symmetries = self.h.symmetries();
            while dk <= u32::from(self.h.diameter()) && self.least_total(k, partial, dk) < self.best
            {
                for &u in self.h.sphere(dk as u16) {
                    let least = !self.stabilizers[k]
                        .iter()
                        .any(|&g| symmetries[g][u as usize] < u);
                    if !self.used[u as usize] && least {
                        out.push((dk, u));
                    }
                }
                dk += 1;
            }
            return;
        }
        let bits = (0..self.d).filter(|&j| v >> j & 1 == 1);
        let pivot = bits
            .clone()
            .min_by_key(|&j| self.h.sphere(self.dims[j] as u16).len())
            .expect("v has two bits or more");
        let centre = self.place[v ^ (1 << pivot)];
        let radius = self.dims[pivot] as u16;
        for &offset in self.h.sphere(radius) {
            let u = self.h.add(centre, offset);
            let fits = bits.clone().all(|j| {
                j == pivot || u32::from(self.h.d(u, self.place[v ^ (1 << j)])) == self.dims[j]
            });
            if !self.used[u as usize] && fits {
                out.push((0, u));
            }
        }
    }

    /// Node v = 2^k opens dimension k: choose D_k, then f(v) at that distance.
    fn open_dimension(&mut self, v: usize, partial: u32) {
        let k = v.trailing_zeros() as usize;
        self.opened = self.opened.max(k);
        self.settle(k);
        // The placement's shape, once it is known to leave f(2^k) a point.
        let mut shape = None;
        let lowest = if k == 0 { 1 } else { self.dims[k - 1] };
        let need = self.prefix_bound[k].saturating_sub(partial).max(lowest);
        let (at_dk, at_c) = self.resumed(v);
        let mut dk = need.max(at_dk);
        let mut first = if at_dk >= need { at_c } else { 0 };
        // The remaining distances are each at least D_k, and every larger
        // sub-cube has its own bound: stop when even they cannot stay below
        // the best.
        while dk <= u32::from(self.h.diameter()) && self.least_total(k, partial, dk) < self.best {
            if let Some(wanted) = self.fixed.as_ref().map(|f| f[k]) {
                match dk.cmp(&wanted) {
                    std::cmp::Ordering::Less => {
                        dk = wanted;
                        continue;
                    }
                    std::cmp::Ordering::Greater => break,
                    std::cmp::Ordering::Equal => {}
                }
            }
            self.dims[k] = dk;
            let sphere = self.h.sphere(dk as u16);
            // With copies, what the nodes below 2^k leave each copy node.
            let mut copy = self.copy_for(k);
            let mut open = match copy.as_mut() {
                Some(copy) => copy.open(self.h, k, &self.dims, &self.place[..v], &self.used),
                None => true,
            };
            // And what they leave dimension k + 1's copy.
            let mut ahead = copy.as_ref().and_then(|_| self.ahead_for(k));
            if let (true, Some(ahead)) = (open, ahead.as_mut()) {
                let dims = self.fixed.as_deref().expect("look-ahead needs the vector");
                open = ahead.begin(self.h, k + 1, dims, &self.place[..v], &self.used);
            }
            // A placement of a shape found not to extend is not searched
            // again. The shape is computed only where the copy opens: it
            // costs 2^k translations × the torus's symmetries × 2^k labels
            // at least, and most placements leave f(2^k) no point, which the
            // copy finds for less (torus:32x32, 1,2,2,3,4,5,5,5,5,11: 1 675
            // shapes at level 6 instead of 636 081, 9.3 s instead of 22.6).
            let mut failed = false;
            if open && shape.is_none() {
                if let Some(shapes) = self.shapes.as_mut().filter(|s| s.kept(k)) {
                    let found = shapes.shape(self.h, k, &self.place[..v]);
                    failed = shapes.failed(k, &found);
                    shape = (!failed).then_some(found);
                }
            }
            // The faces of the (k+1)-cube, where D_k repeats D_{k−1}.
            let mut faces = match (&shape, &self.fixed) {
                (Some(shape), Some(dims)) if self.faces => Faces::new(dims, k, shape),
                _ => None,
            };
            // A failed shape skips the points but still hands the copy back.
            let open = open && !failed;
            let skip = std::mem::take(&mut first) as usize;
            for (c, &u) in sphere.iter().enumerate().skip(skip).filter(|_| open) {
                self.path[v - 1] = (dk, c as u32);
                if self.used[u as usize] || copy.as_ref().is_some_and(|copy| !copy.allows(c)) {
                    continue;
                }
                // The least node of its orbit under the symmetries that fix
                // what is open so far.
                let symmetries = self.h.symmetries();
                let stabilizer = &self.stabilizers[k];
                if stabilizer.iter().any(|&g| symmetries[g][u as usize] < u) {
                    continue;
                }
                self.place[v] = u;
                self.used[u as usize] = true;
                match copy.as_mut() {
                    // Node 0 is at host node 0: u is point c of its sphere.
                    Some(copy) => {
                        if let Some(ahead) = ahead.as_mut() {
                            ahead.reset();
                        }
                        if copy.start(self.h, k, c) {
                            if self.least_face(&mut faces, 0) && self.look_ahead(&mut ahead, v, u) {
                                self.fill_from(copy, (&mut ahead, &mut faces), k, partial + dk);
                            }
                            if let Some(faces) = faces.as_mut() {
                                faces.unplace(0);
                            }
                        }
                    }
                    None => self.descend(v + 1, partial + dk),
                }
                self.used[u as usize] = false;
                if self.aborted {
                    break;
                }
                // A better sum was found below: the bound tightened.
                if self.least_total(k, partial, dk) >= self.best {
                    break;
                }
            }
            if let (Some(copy), Some(copies)) = (copy, self.copies.as_mut()) {
                copies[k] = copy;
            }
            if let (Some(ahead), Some(aheads)) = (ahead, self.aheads.as_mut()) {
                aheads[k] = ahead;
            }
            if self.aborted || failed {
                return;
            }
            dk += 1;
        }
        if let (Some(shape), Some(shapes), None) = (shape, &mut self.shapes, &self.found) {
            shapes.fail(k, shape);
        }
    }
}
