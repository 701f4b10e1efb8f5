//! The exact searches: `optimal` and `verify-certificate`.

use clap::Args;

use super::values::*;

/// The arguments of `Optimal`.
#[derive(Debug, Args)]
pub struct OptimalArgs {
    /// The guest: cube:D (D up to 12; with --distances, a cube smaller
    /// than the host too).
    pub guest: String,
    /// The host: ring:N or torus:AxB.. with power-of-two sides and 2^D nodes.
    pub host: String,
    /// Stop after this many distance vectors decided, the turns under way
    /// finishing (with --whole-tree: search nodes); the answer is then
    /// not proved; 0: no limit.
    #[arg(long, default_value_t = 0)]
    pub node_limit: u64,
    /// Save the vectors refuted so far to FILE, after each sum, every
    /// minute and when stopped (Ctrl-C, --node-limit); a run with the
    /// same FILE does not decide them again, and a search that completes
    /// removes it. With --whole-tree: the search's position, every 2^26
    /// nodes and when it stops.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Search all bijections instead (d up to 5): the least CC time with
    /// waiting (the recurrence of the xor paper §2.1), beside the best
    /// constant-distance embedding's — does giving up constant distances pay?
    /// It looks at one bijection per class of symmetric ones, shows its
    /// branches on cube nodes 1 and 2 as progress, and Ctrl-C (or
    /// --node-limit) stops it unproved; with --checkpoint FILE it
    /// writes where it got to after every such branch and goes on from
    /// FILE when run again.
    #[arg(long)]
    pub all_bijections: bool,
    /// Decide distance vector by distance vector (the default, so this
    /// flag changes nothing; scripts that name it still run): vectors in
    /// increasing Σ D_i; each one the sub-cube bounds leave whose
    /// formula the window lemma folds into a band of the torus goes
    /// first to unit propagation on that band (a millisecond; it
    /// refutes all 983 of torus:128x8), and each one left to the
    /// branch and bound and a SAT solver (varisat) in turns, 2^18 nodes
    /// and 4 MiB of proof first, four times as much each turn, until one
    /// decides it (the solver only where the lemmas fold or pin the
    /// formula: --decide-by); the first with an embedding is optimal. Where the
    /// branch and bound refutes a vector it names the sub-cube that
    /// embeds nowhere (its first dimensions), and every later vector
    /// holding those distances is refuted with it. Ctrl-C stops it
    /// within seconds, inside a solve too.
    #[arg(long, conflicts_with = "all_bijections")]
    pub sat: bool,
    /// One branch and bound over every distance vector and placement at
    /// once, without the vectors' bounds (what `optimal` did before the
    /// search by vectors became the default): its size is estimated by
    /// random probes (Knuth's estimator) before it starts.
    #[arg(
        long,
        conflicts_with_all = ["sat", "certificate", "decide_by", "distances", "all_bijections"]
    )]
    pub whole_tree: bool,
    /// Write a certificate to DIR (implies --sat, every vector by the
    /// solver): the optimal embedding and every vector below it that the
    /// bounds leave, each with a binary DRAT proof of its formula's
    /// unsatisfiability. With --decide-by search or turns, a vector the
    /// branch and bound refutes by a core cites the DRAT proof of that
    /// core (its sub-cube placed one to one), one proof per core,
    /// written by a search that keeps the placement arc consistent and
    /// writes a clause at every dead end (the SAT solver takes hours
    /// on cores it refutes in minutes), cutting placements that have a
    /// smaller symmetric copy by lex-leader clauses it lists, each with
    /// its witness, in a `.shapes` file beside the proof. Check it with
    /// `topoembed verify-certificate DIR`.
    /// A stopped run writes a certificate of the lower bound it proved
    /// and goes on from DIR when run again (no --checkpoint: DIR is its
    /// own).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "all_bijections"])]
    pub certificate: Option<std::path::PathBuf>,
    /// How each vector is decided: `auto` (the default: in turns, as
    /// above, but under the lift bounds the solver only at vectors whose
    /// formula a winding pair folds or pins — torus:32x32, where the
    /// solver decided none of 2 731 vectors, 356 s instead of 630 s),
    /// `turns` (the branch and bound and the solver in turns at every
    /// vector), `search` (the
    /// branch and bound alone, in turns of 2^18 nodes, four times as many
    /// each turn: on torus:32x32 the solver decides no vector, and its
    /// turns cost many times the branch and bound's: 450 s for 256 MiB
    /// of proof against 25 s for 2^28 nodes), `solver` (the solver
    /// alone, as --certificate does by default). The vectors of one sum
    /// take their turns together, so a hard vector waits for the cores
    /// the easy ones find [default: auto].
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        conflicts_with = "all_bijections"
    )]
    pub decide_by: Option<DecideBy>,
    /// Decide this one distance vector only (D_0,..,D_{d−1}, any order):
    /// does the cube embed with dimension i at distance D_i? The bounds
    /// answer first, then the branch and bound and the solver in turns
    /// as with --sat; an embedding found is printed (its map with
    /// --format json), dimension i at the i-th distance given. GUEST may
    /// be a cube smaller than the host (a sub-cube, placed one-to-one,
    /// decided by the branch and bound alone): how a core a refutation
    /// names is checked on its own, e.g. `optimal cube:6 torus:32x32
    /// --distances 4,4,4,4,4,4`.
    #[arg(
        long,
        value_name = "D0,D1,..",
        value_delimiter = ',',
        num_args = 1..,
        conflicts_with_all = ["checkpoint", "all_bijections", "certificate"]
    )]
    pub distances: Option<Vec<u32>>,
    /// Which vectors the search skips without deciding them:
    /// `counting` (sub-cube images are distinct, near each other and in
    /// one ellipse), `small-cubes` (also: every pair and triple of
    /// distances embeds as a 2- or 3-cube, found by exhaustive search),
    /// `all` (also the axis lemmas as first published: for a side k, if
    /// the two largest distances add up to less than k/2, then
    /// Σ D_i ≥ k − 1 — on rings the xor paper's Corollary 9; for two
    /// sides, 4·Σ D_i ≥ 3(k_a + k_b − 2) below min(k_a, k_b)/2; and,
    /// inside the SAT formulas, the winding lemma: if Σ D_i < k − 1 and
    /// exactly one pair reaches k/2, exactly, that pair moves along that
    /// side only), `lift` (also: the lift lemma sharpens the axis
    /// lemma to Σ D_i ≥ k − 1 + the diameter of the other sides, and
    /// the winding lemma then holds below that, a pair reaching
    /// k/2 + s/2 moving at most s off its side; and the winding
    /// cocycle: with several pairs reaching half a side, some face of
    /// the sub-cube of their dimensions winds round every such side —
    /// a small search rules out the vectors where no placement of that
    /// sub-cube can), `energy` (the default: also the energy lemma — a
    /// sub-cube whose two largest distances add up to less than half of
    /// every side lifts to the lattice, and the Poincaré inequality on
    /// the cube then needs Σ D_i² ≥ 4·M/2^j, M the least moment of
    /// inertia of 2^j distinct lattice points: on torus:32x32 it leaves
    /// no vector to search). A certificate names its bounds and the checker
    /// recomputes them. Not with --whole-tree or --all-bijections (they
    /// prune by their own bounds).
    #[arg(
        long,
        default_value = "energy",
        value_name = "BOUNDS",
        conflicts_with_all = ["whole_tree", "all_bijections"]
    )]
    pub bounds: topoembed::optimal::Bounds,
    /// Run even when the estimated search passes the limit: 10 minutes,
    /// or TOPOEMBED_WORK_LIMIT seconds. The estimate is of the vectors
    /// the bounds leave (capped by --node-limit); with --whole-tree, of
    /// its tree's size by random probes. --sat, --decide-by and
    /// --certificate ask for the search by name and are never refused.
    #[arg(long)]
    pub force: bool,
    /// table: the optimum beside xor and standard; json: `min_sum`,
    /// `distances`, `map` (host node of every cube node), `xor_sum`,
    /// `standard_sum`, `xor_optimal`, `proved`, `lower_bound` (the least
    /// Σ D_i still possible: `min_sum` when proved; a stopped --sat run's
    /// first sum with a vector undecided), `nodes_searched`, `seconds`.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The arguments of `VerifyCertificate`.
#[derive(Debug, Args)]
pub struct VerifyCertificateArgs {
    /// The certificate's directory.
    pub dir: std::path::PathBuf,
    /// Also write each refuted vector's formula (DIMACS) to DIR/formulas/,
    /// for drat-trim or any other DRAT checker.
    #[arg(long)]
    pub dimacs: bool,
    /// Check the proofs with this external DRAT checker instead of the
    /// built-in one: the command (with its options) to which each
    /// formula's and proof's paths are appended; a proof passes when it
    /// exits 0 and prints `s VERIFIED`. `rate` (`cargo install rate`)
    /// checks backwards, only the lemmas a refutation uses: torus:32x16's
    /// 21 GB of proofs in under an hour on 2 cores, where the built-in
    /// forward checker (about 1 MB/s per core) would take hours. Also
    /// `drat-trim`. (The built-in checker replays a core search's
    /// proof as the search tree it is, in about the search's time, and
    /// checks a solver's forward.)
    #[arg(long, value_name = "COMMAND")]
    pub checker: Option<String>,
    /// table or json (`min_sum`, `lower_bound`, `complete` — false for
    /// a stopped search's certificate, which proves `lower_bound` only —,
    /// `by_bounds`, `by_proofs`, `by_cores`, `cores`,
    /// `lex_leader_clauses`, `by_windings`, `by_halving`, `by_band`,
    /// `by_pin`, `lemmas`, `proof_bytes`, `checker`, `seconds`).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}
