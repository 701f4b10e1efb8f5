//! Files: Scotch source graphs (`.grf`), METIS graphs (`.graph`), Matrix
//! Market matrices (`.mtx`, as the graph of their pattern), communication
//! profiles of a run (Open MPI monitoring's `.prof` files, dense matrices
//! `.mat`), target
//! architectures (`.tgt`) and mappings (`.map`), read strictly (every malformed file is an error naming
//! the file and line; Scotch itself accepts some silently) and written in the
//! form Scotch reads. Also Open MPI hostfiles and rankfiles ([`write_rankfile`]).
//!
//! Numbering: Scotch numbers the terminals of `meshXD`/`torusXD` targets with
//! the first dimension fastest and the nodes of `hcub D` by their D-bit
//! labels, exactly as topoembed numbers grid and cube nodes (DESIGN.md), so
//! target numbers in `.map` files are host node ids without conversion.
//! (Checked against `gmtst`: the identity mapping of our `mesh:4x3` onto
//! `mesh2D 4 3` has dilation 1, onto `mesh2D 3 4` it does not.)

mod dense;
mod grf;
mod hwloc;
mod launch;
mod map;
mod metis;
mod monitoring;
mod mtx;
mod placement;
mod simgrid;
mod slurm;
mod tgt;
mod tokens;

pub use dense::{
    is_dense_matrix, looks_dense, parse_dense_matrix, read_dense_matrix, DenseMatrix,
    MAX_DENSE_RANKS,
};
pub use grf::{parse_graph, read_graph, read_labels, write_graph, ScotchGraph};
pub use hwloc::{parse_hwloc, read_hwloc, HwlocTree, MAX_HWLOC_LEAVES};
pub use launch::hostfile::{parse_hostfile, read_hostfile, Machine};
pub use launch::rankfile::write_rankfile;
pub use launch::{expand_hostlist, write_launch, LaunchFormat, Slots, MAX_HOSTLIST};
pub use map::{parse_mapping, read_mapping, write_mapping, Mapping};
pub use metis::{is_metis_graph, parse_metis, read_metis, write_metis, MetisGraph};
pub use monitoring::{
    combine as combine_profiles, is_monitoring_profile, parse_rank_profile, profile_files,
    read_monitoring, Monitoring, RankProfile, MAX_PROFILE_RANKS,
};
pub use mtx::{
    is_matrix_market, matrix_graph, parse_matrix_market, read_matrix_market, write_matrix_market,
    MatrixGraph,
};
pub use placement::parse_placement;
pub use simgrid::{write_simgrid_platform, write_smpi_hostfile, PlatformOptions};
pub use slurm::{parse_slurm, read_slurm, SlurmLayout, SlurmTopology, MAX_LEAF_SWITCHES};
pub use tgt::{parse_spec_or_target, parse_target, read_target, write_target};

/// True when `path` names a Scotch source graph (`.grf` or `.src`).
pub fn is_scotch_graph(path: &std::path::Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("grf" | "src")
    )
}
