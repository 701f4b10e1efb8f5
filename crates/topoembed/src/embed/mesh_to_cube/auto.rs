//! `auto`: Ho & Johnsson's decision procedure (§6). The mesh is written
//! M = M1 x M2, M1 all powers of two, M2 all odd (M(100, 200) =
//! M1(4, 8) x M2(25, 25)), and with L = log2 |M1|:
//!
//! * objective **load**: if L ≥ n (cases 1 and 2) a per-axis split of the
//!   powers of two has the optimal load factor at dilation 1: `split`. If
//!   L < n (case 3) some odd length must be cut: `combine` (M1 split off,
//!   axes of M2 reshaped) is weighed against `split` (which may leave nodes
//!   unused, Theorem 2), least load factor first, then dilation.
//! * objective **dilation**: the least load factor under dilation 1, the
//!   per-axis cuts searched exhaustively (`split`; §6's recursive halving
//!   is the greedy version, `recursive`).
//! * objective **congestion**: dilation 1 with every node used and the
//!   least congestion, the cube shaped like the mesh (`split`).

use super::super::{DilationBound, Embedding, Method, NotApplicable, Objective, Params, PerAxis};
use super::combine::{Combine, CombinePlan};
use super::factoring::{Cut, Factoring, Rank};
use super::split::Split;
use super::{decompose, many_to_one, x_list};
use crate::topology::Topology;

pub(in crate::embed) const METHOD: Method = Method {
    name: "auto",
    guest: "mesh:L0xL1x.. (any lengths), line:N",
    host: "cube:n",
    preconditions: "many-to-one; --objective load|dilation|congestion",
    summary: "Ho & Johnsson's decision procedure (§6): split, combine or a Theorem 2 cut",
    options: &["objective"],
    build,
};

fn build(
    guest: &dyn Topology,
    host: &dyn Topology,
    params: &Params,
) -> Result<Box<dyn Embedding>, NotApplicable> {
    let (lengths, n) = many_to_one(guest, host)?;
    let (m1, m2) = decompose(&lengths);
    let twos: u32 = m1.iter().map(|l| l.trailing_zeros()).sum();
    let case = match twos.cmp(&n) {
        std::cmp::Ordering::Equal => "case 1",
        std::cmp::Ordering::Greater => "case 2",
        std::cmp::Ordering::Less => "case 3",
    };
    let mut notes = vec![format!(
        "M = M1 x M2 = ({}) x ({}), log2|M1| = {twos}, n = {n}: §6 {case}",
        x_list(&m1),
        x_list(&m2)
    )];
    let objective = params.objective.unwrap_or(Objective::Load);
    let split = |rank| Factoring::search(&lengths, n, Cut::default(), rank);
    let chosen: Box<dyn Embedding> = match objective {
        Objective::Load => {
            let best_split = split(Rank::Load)?;
            let plan = (twos < n)
                .then(|| CombinePlan::search(&lengths, n))
                .transpose()?;
            match plan {
                Some(plan)
                    if (plan.load_factor, plan.dilation)
                        < (best_split.load_factor, best_split.dilation) =>
                {
                    notes.push(format!(
                        "objective load: combine (load {}, dilation <= {}) over split (load {}, \
                         dilation {})",
                        plan.load_factor,
                        plan.dilation,
                        best_split.load_factor,
                        best_split.dilation_text()
                    ));
                    Box::new(Combine::new(&lengths, &plan))
                }
                _ => {
                    notes.push(format!(
                        "objective load: split (load {}, dilation {})",
                        best_split.load_factor,
                        best_split.dilation_text()
                    ));
                    Box::new(Split::new(&lengths, &best_split, "split")?)
                }
            }
        }
        Objective::Dilation => {
            let best = split(Rank::UnitDilation)?;
            let greedy = Factoring::recursive(&lengths, n, Cut::default());
            notes.push(format!(
                "objective dilation: split at dilation 1, load {} (recursive halving gets {})",
                best.load_factor, greedy.load_factor
            ));
            Box::new(Split::new(&lengths, &best, "split")?)
        }
        Objective::Congestion => {
            let best = split(Rank::Congestion)?;
            notes.push(format!(
                "objective congestion: split at dilation 1, congestion {}",
                best.congestion.unwrap_or_default()
            ));
            Box::new(Split::new(&lengths, &best, "split")?)
        }
    };
    Ok(Box::new(Auto { chosen, notes }))
}

/// The strategy `auto` chose, with why.
struct Auto {
    chosen: Box<dyn Embedding>,
    notes: Vec<String>,
}

impl Embedding for Auto {
    fn method(&self) -> &'static str {
        "auto"
    }
    fn map(&self, guest: u64) -> u64 {
        self.chosen.map(guest)
    }
    fn map_many(&self, guest: &[u64], out: &mut [u64]) {
        self.chosen.map_many(guest, out)
    }
    fn inverse(&self, host: u64) -> Option<u64> {
        self.chosen.inverse(host)
    }
    fn dilation_bound(&self) -> Option<DilationBound> {
        self.chosen.dilation_bound()
    }
    fn per_axis(&self) -> Option<&dyn PerAxis> {
        self.chosen.per_axis()
    }
    fn notes(&self) -> Vec<String> {
        let mut notes = self.notes.clone();
        notes.extend(self.chosen.notes());
        notes
    }
}
