//! Binary trees (a reduction's or a broadcast's communication) onto tori,
//! meshes and cubes: every split of a tree is bisected exactly, so the
//! parts are whole subtrees and few edges are cut. A tree cut into p
//! non-empty parts cuts at least p − 1 edges, each at least a hop long:
//! onto 16 and 32 nodes the mapper meets that bound, and onto 64 it stays
//! below what Scotch's `scotch_gmap -Cd -b0.03` gives on the same trees
//! (`topoembed export bintree:P --format grf`; 2026-12-06).

use topoembed::embed::mapped;
use topoembed::io::Mapping;
use topoembed::mapper::MapOptions;
use topoembed::metrics::{self, Options};
use topoembed::topology;

/// Hop-bytes of `topoembed map GUEST HOST` at the default settings.
fn mapped_hop_bytes(guest: &str, host: &str) -> u128 {
    let guest = topology::parse(guest).unwrap();
    let host = topology::parse(host).unwrap();
    let placement = mapped::map(guest.as_ref(), host.as_ref(), &MapOptions::default()).unwrap();
    let mapping = Mapping::new(placement.hosts().to_vec());
    let m = metrics::measure(guest.as_ref(), host.as_ref(), &mapping, &Options::default()).unwrap();
    m.hop_bytes
}

#[test]
fn binary_trees_are_cut_into_whole_subtrees() {
    // (guest, host, the most hop-bytes allowed, and whether that is the
    // bound p − 1 or Scotch's figure)
    for (guest, host, most) in [
        ("bintree:1024", "torus:4x4", 15),   // the bound (Scotch: 20)
        ("bintree:2048", "torus:4x4", 15),   // the bound (Scotch: 17)
        ("bintree:2048", "cube:5", 31),      // the bound (Scotch: 37)
        ("bintree:2048", "torus:4x4x4", 79), // Scotch's
        ("bintree:2048", "torus:8x8", 90),   // Scotch's
        ("bintree:1024", "mesh:8x8", 116),   // Scotch's
    ] {
        let hop_bytes = mapped_hop_bytes(guest, host);
        assert!(
            hop_bytes <= most,
            "{guest} onto {host}: {hop_bytes} hop-bytes, at most {most}"
        );
    }
}
