//! Placing and exporting: `map`, `device-mesh`, `rankfile`, `export`.

use clap::Args;

use super::values::*;

/// The arguments of `DeviceMesh`.
#[derive(Debug, Args)]
pub struct DeviceMeshArgs {
    /// The physical host: torus:4x4x4, mesh:16x16, grid:16wx16 (axis 1
    /// wraps, axis 2 does not), ring:N, line:N, cube:D (a mesh of 2s); or a
    /// cluster, e.g. 'fattree:2;4,4;1,2;1,1*tleaf:8:1' (16 nodes of 8
    /// NVSwitch-joined GPUs, GPU g of node n = host node 8n + g), a
    /// dragonfly of nodes, an allocation (HOST@IDS), a tleaf or hwloc node.
    pub host: String,
    /// The logical mesh, first axis outermost as in JAX: sizes like 16x4,
    /// or named axes like data=16,model=4. Sizes multiply to the host's node count.
    pub logical: String,
    /// Relative traffic of each logical axis, one number per axis, e.g.
    /// 1,4. Default 1,2,3,..: heavier toward the last axis, as JAX orders
    /// mesh axes.
    #[arg(long)]
    pub weights: Option<String>,
    /// Logical axes that are lines (pipeline axes: no link from the last
    /// device back to the first), by name or number, comma-separated.
    #[arg(long)]
    pub lines: Option<String>,
    /// What matters among the placements no other beats in both Σ max
    /// hops and Σ congestion (a ring all-reduce of B bytes costs about
    /// α·hops + β·B·congestion a step): `bandwidth` (least weighted
    /// congestion first, then hops: large messages, as gradients and
    /// activations are), `latency` (fewest weighted hops first, then
    /// congestion: small messages), `balanced` (least Σ w·(max hops +
    /// congestion): α = β·B). Never a placement that another one scored,
    /// row-major included, beats on both counts.
    #[arg(long, value_enum, default_value_t = MeshObjective::Bandwidth)]
    pub objective: MeshObjective,
    /// Score this assignment instead of searching: a file of host node
    /// ids, one per logical device in row-major order (last axis
    /// fastest); any separators, so a JSON nested list works (e.g. the
    /// ids of JAX's create_device_mesh result, converted to host nodes).
    #[arg(long, value_name = "FILE")]
    pub assignment: Option<std::path::PathBuf>,
    /// table: per-axis figures, the plan and the host drawn with each
    /// node's logical coordinates (up to 1024 devices); json: `mesh`
    /// (nested lists of host node ids shaped like LOGICAL: mesh[i][j] is
    /// the host node of logical (i, j)), `coords` (the same with host
    /// coordinates), `axes` (figures per axis, with `row_major`), `plan`,
    /// `notes`; csv: one row per device (logical coordinates, host node,
    /// host coordinates).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The arguments of `Map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// The communication graph: graph:FILE (.grf, .graph, .mtx, a run's
    /// Open MPI monitoring profiles P.<rank>.prof, a dense matrix .mat,
    /// or an edge list 'u v [volume]'), or any spec such as torus:64x64.
    pub guest: String,
    /// The machine: any spec (torus:16x16x16, tleaf:8x8x4:100,10,1, a .tgt file, graph:FILE).
    pub host: String,
    /// How far above the average load a host node may go.
    #[arg(long, default_value_t = 0.03)]
    pub imbalance: f64,
    /// Seed of the mapper's random choices: the same seed gives the same placement.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most passes of the final k-way FM and move/swap local search (each
    /// also stops when a pass gains under 0.1 %, so most graphs stop
    /// before the 5th). 0 (default): 8 for guests up to 500 000 vertices,
    /// 4 above, where a pass costs seconds (2 at --preset fast); fewer are
    /// faster (copter2 -> torus:16x16: 4 passes 6 % faster than 8, 1.2 %
    /// more hop-bytes).
    #[arg(long, default_value_t = 0)]
    pub passes: usize,
    /// Independent searches from different random streams, run in
    /// parallel; the least hop-bytes is kept (more: better and slower).
    /// Any N >= 1 runs N searches. 0 (default): as many as pay for the
    /// guest and host — 8 up to 2 048 guest vertices; 2 up to 4 096 (one
    /// partitioning first, one bipartitioning guest and host together);
    /// onto a ring or line 2 up to 500 000; up to 100 000 onto a host
    /// graph, a grid host of at most 9 nodes, or when a grid is found in
    /// the guest, 2; else 1 (partitioning first, multilevel above 100 000;
    /// onto a hierarchy the bipartitioning). One guest node per host node
    /// onto a machine that is no hierarchy (MPI ranks onto their slots): one
    /// search. A grid the closed forms place well is refined from its closed
    /// form instead; with at most one guest node per host node, a closed
    /// form that puts every edge one hop long runs no search, and the
    /// first search to do so ends the rest. Every case and the benchmark
    /// behind it: the manual's "How many searches" (docs/src/mapper.md).
    #[arg(long, default_value_t = 0)]
    pub restarts: usize,
    /// The machine's slots for a launch format (rankfile, seq,
    /// machinefile, cray-rank-order): an Open MPI hostfile, `name
    /// slots=N` per line; host node h is the h-th slot through it.
    #[arg(long, conflicts_with = "nodes")]
    pub hosts: Option<std::path::PathBuf>,
    /// The machine's slots for a launch format, as a Slurm hostlist
    /// (`node[01-16]`, `$SLURM_JOB_NODELIST`) with --slots-per-node on
    /// each: host node h is slot h, node 0's slots first.
    #[arg(long)]
    pub nodes: Option<String>,
    /// Slots (ranks) on each node of --nodes; with more than 1, give a
    /// host of nodes x slots nodes (a tleaf:NODESxSLOTS:.. or a .tgt).
    #[arg(long, default_value_t = 1, requires = "nodes")]
    pub slots_per_node: u64,
    /// Skip routing (congestion) in the metrics.
    #[arg(long)]
    pub no_traffic: bool,
    /// Print where the time went, to standard error: every phase of every
    /// search (partitioning, laying out the parts, V-cycle, k-way FM,
    /// pairs, move/swap, ..), its wall seconds and the hop-bytes it took
    /// off; with --format json also as `phases`.
    #[arg(long)]
    pub phases: bool,
    /// What to minimise: hop-bytes (Σ volume x host distance), or
    /// congestion (the most volume routed over one host link, under the
    /// host's own routing with ties toward increasing coordinates, as
    /// `metrics` counts it): the hop-bytes placement is then refined by
    /// moves and swaps that never raise the most loaded link.
    #[arg(long, value_enum, default_value_t = MapObjective::HopBytes)]
    pub objective: MapObjective,
    /// How much each search spends, as KaHIP's and Mt-KaHyPar's presets.
    /// Over bench/mapper.sh's 38 pairs on one thread: the default 0.794x
    /// Scotch's hop-bytes (geometric mean), fast 0.82x in about 0.6x the
    /// default's time, strong 0.788x in 2-4x it. What each changes and the
    /// benchmarks: the manual's "Fast" and "Strong" (docs/src/mapper.md).
    #[arg(long, value_enum, default_value_t = MapPreset::Default)]
    pub preset: MapPreset,
    /// table: metrics beside the baselines; json: `map` (host node of
    /// every guest node), `metrics`, `baselines`, `capacity`, `seconds`;
    /// scotch-map: a Scotch .map (labels = guest node ids, or a .grf's own
    /// labels); launch files (need --hosts or --nodes): rankfile
    /// (Open MPI 4.x `mpirun -rf FILE`, 5.x `--map-by
    /// rankfile:file=FILE`), seq (line r = host of rank r: Open MPI
    /// `--map-by seq --hostfile FILE`, `SLURM_HOSTFILE=FILE srun
    /// --distribution=arbitrary`, `smpirun -hostfile FILE`), machinefile
    /// (`host:n` runs: MPICH/Hydra `mpiexec -f FILE`, Intel
    /// `-machinefile FILE`), cray-rank-order (`MPICH_RANK_ORDER` for
    /// `MPICH_RANK_REORDER_METHOD=3`); smpi-hostfile: line r =
    /// PREFIX<host node of rank r>, for `smpirun -platform P.xml
    /// -hostfile FILE` on the platform `topoembed export HOST --format
    /// simgrid` writes (no --hosts needed).
    #[arg(long, value_enum, default_value_t = MapFormat::Table)]
    pub format: MapFormat,
    /// Host name prefix of --format smpi-hostfile (as `export --prefix`).
    #[arg(long, default_value = "node-")]
    pub prefix: String,
    /// A recording's summary (the FILE.json `TOPOEMBED_RECORD=FILE`
    /// writes beside the graph), for an objective that sees latency:
    /// each pair's volume gains its messages x --latency-bytes, and the
    /// MPI_COMM_WORLD collectives are added as the messages SimGrid
    /// SMPI's default algorithms send (binomial broadcast, linear reduce
    /// to rank 0; rooted operations at root 0), each weighed as (bytes +
    /// --latency-bytes) x the ranks waiting for it; the launch order
    /// (rank r on host node r) is weighed against the search.
    #[arg(long, value_name = "FILE.json")]
    pub summary: Option<std::path::PathBuf>,
    /// With --summary: what one hop's latency is worth in bytes (α/β:
    /// latency x bandwidth; 1 µs at 10 GB/s is 10000).
    #[arg(long, default_value_t = topoembed::recorded::DEFAULT_LATENCY_BYTES, requires = "summary")]
    pub latency_bytes: u64,
}

/// The arguments of `Rankfile`.
#[derive(Debug, Args)]
pub struct RankfileArgs {
    #[command(flatten)]
    pub pair: Pair,
    /// Embedding method; must be one-to-one.
    #[arg(long, short)]
    pub method: String,
    /// Open MPI hostfile: 'name slots=N' per line, as many slots in all as host nodes.
    #[arg(long)]
    pub hosts: std::path::PathBuf,
}

/// The arguments of `Export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The topology, e.g. cube:10 or torus:32x32.
    pub spec: String,
    /// grf: Scotch source graph (node i is vertex i + base); tgt: Scotch target
    /// (hcub, torus2D/3D/XD, mesh2D/3D/XD; rings and lines as 1-D torusXD/meshXD;
    /// tleaf for tleaf hierarchies, fat trees and regular hwloc nodes; sub for
    /// allocations; deco, a distance matrix, for partly wrapped grids,
    /// dragonflies and other hwloc nodes); simgrid: a SimGrid platform for
    /// `smpirun -platform`, host node i named PREFIXi: rings, tori and
    /// hypercubes as TORUS clusters, fat trees and dragonflies as FAT_TREE and
    /// DRAGONFLY clusters; lines, meshes, partly wrapped grids, binary trees
    /// and graphs as one full-duplex link per edge and, up to 256 nodes, for
    /// every pair the route topoembed's routing takes (the links `metrics`
    /// counts congestion on; above, SimGrid's own shortest paths).
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Numbering base of the graph's vertices (0 or 1).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1))]
    pub base: u64,
    /// simgrid: the host names, PREFIX0, PREFIX1, ... (host node i is
    /// PREFIXi: `map --format smpi-hostfile --prefix PREFIX` writes the
    /// matching hostfile).
    #[arg(long, default_value = "node-")]
    pub prefix: String,
    /// simgrid: each link's bandwidth, in SimGrid's units.
    #[arg(long, default_value = "10GBps")]
    pub bandwidth: String,
    /// simgrid: each link's latency, in SimGrid's units.
    #[arg(long, default_value = "1us")]
    pub latency: String,
    /// simgrid: each host's speed, in SimGrid's units.
    #[arg(long, default_value = "1Gf")]
    pub speed: String,
    /// simgrid: write a ring, torus or hypercube as the other hosts are
    /// written — one link per edge and topoembed's route for every pair
    /// (up to 256 nodes; SimGrid's shortest paths above) — instead of a
    /// TORUS cluster routed by SimGrid,
    /// whose routes differ from topoembed's in one tie (from k/2 to 0 on
    /// an even ring SimGrid goes down).
    #[arg(long)]
    pub explicit_routes: bool,
}
