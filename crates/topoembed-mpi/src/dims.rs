//! A factorisation of a process count into the sides of a Cartesian grid
//! that fits the host (what MPI_Dims_create would return if it knew the
//! machine): a host grid with as many axes keeps its own sides; a cube host
//! gives powers of two as equal as possible; otherwise the host's prime
//! factors are dealt out, largest first, to the smallest side so far.

use topoembed::spec::Spec;
use topoembed::Error;

/// Sides of a `axes`-dimensional grid with as many nodes as `host`.
pub fn dims_for(host: &Spec, axes: usize) -> Result<Vec<u64>, Error> {
    if axes == 0 {
        return Err(Error::Parameter(
            "a Cartesian grid needs at least one axis".into(),
        ));
    }
    let nodes = host
        .node_count()
        .ok_or_else(|| Error::Parameter(format!("{host}: node count unknown")))?;
    if let Some((sides, _)) = host.grid() {
        if sides.len() == axes {
            return Ok(sides.to_vec());
        }
    }
    let mut factors = Vec::new();
    let mut rest = nodes;
    let mut p = 2;
    while p * p <= rest {
        while rest % p == 0 {
            factors.push(p);
            rest /= p;
        }
        p += 1;
    }
    if rest > 1 {
        factors.push(rest);
    }
    factors.sort_unstable_by(|a, b| b.cmp(a));
    let mut dims = vec![1u64; axes];
    for f in factors {
        let smallest = (0..axes).min_by_key(|&k| (dims[k], k)).unwrap_or(0);
        dims[smallest] *= f;
    }
    // Largest first, as MPI_Dims_create orders them.
    dims.sort_unstable_by(|a, b| b.cmp(a));
    Ok(dims)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(host: &str, axes: usize) -> Vec<u64> {
        dims_for(&host.parse().unwrap(), axes).unwrap()
    }

    #[test]
    fn fits_the_host() {
        assert_eq!(dims("torus:8x4", 2), [8, 4]);
        assert_eq!(dims("cube:6", 2), [8, 8]);
        assert_eq!(dims("cube:5", 2), [8, 4]);
        assert_eq!(dims("cube:6", 3), [4, 4, 4]);
        assert_eq!(dims("ring:12", 2), [4, 3]);
        assert_eq!(dims("mesh:6x6", 3), [4, 3, 3]);
        assert_eq!(dims("ring:7", 2), [7, 1]);
        for (host, axes) in [("cube:7", 3), ("torus:6x10", 4), ("ring:360", 3)] {
            let d = dims(host, axes);
            let spec: Spec = host.parse().unwrap();
            assert_eq!(d.iter().product::<u64>(), spec.node_count().unwrap());
        }
        assert!(dims_for(&"cube:3".parse().unwrap(), 0).is_err());
    }
}
