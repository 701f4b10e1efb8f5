//! `topoembed._topoembed`: the native half of the Python package (PyO3).
//!
//! Thin over the library (DESIGN.md): it converts types, releases the GIL
//! around every call that computes, and turns the library's errors into
//! `ValueError` with the CLI's messages. Documents (metrics, compare, device
//! meshes) cross as the JSON the CLI prints ([`topoembed::report`]), so
//! Python sees the same keys and numbers; arrays cross as numpy arrays. The
//! Pythonic layer (argument checking, scipy and JAX) is `python/topoembed`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use topoembed::embed::{self, Objective, Params, Partition, METHODS};
use topoembed::io;
use topoembed::mapper::MapOptions;
use topoembed::metrics::{self, Metrics, Options};
use topoembed::spec::Spec;
use topoembed::topology::{self, Graph, Topology as _};
use topoembed::{device_mesh, report, Error};

mod questions;

/// A library error as Python's `ValueError`, with the CLI's message.
pub(crate) fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `serde_json` output as a `ValueError` on the (impossible) failure.
pub(crate) fn json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A guest or host: any spec, a Scotch target or a stored graph.
#[pyclass(frozen, module = "topoembed._topoembed")]
pub struct Topology {
    pub(crate) inner: Arc<dyn topology::Topology>,
}

impl Topology {
    fn new(inner: Box<dyn topology::Topology>) -> Topology {
        Topology {
            inner: Arc::from(inner),
        }
    }
    fn get(&self) -> &dyn topology::Topology {
        self.inner.as_ref()
    }
    /// Checks node ids against the node count.
    fn check(&self, nodes: &[u64]) -> PyResult<()> {
        let n = self.inner.node_count();
        match nodes.iter().find(|&&v| v >= n) {
            Some(v) => Err(PyValueError::new_err(format!(
                "node {v} is not a node of {} (nodes 0..{n})",
                self.inner.spec()
            ))),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl Topology {
    /// The spec, as the CLI writes it (`torus:8x8`, `graph:mesh.graph`).
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec().to_string()
    }
    /// Number of nodes.
    #[getter]
    fn nodes(&self) -> u64 {
        self.inner.node_count()
    }
    /// Number of (undirected) edges.
    #[getter]
    fn edges(&self) -> u64 {
        self.inner.edge_count()
    }
    /// The longest shortest path, in hops (link costs on weighted hosts).
    #[getter]
    fn diameter(&self) -> u64 {
        self.inner.diameter()
    }
    /// Whether nodes carry loads or edges carry volumes.
    #[getter]
    fn is_weighted(&self) -> bool {
        self.inner.is_weighted()
    }
    /// Distances between `a[k]` and `b[k]` for every k.
    fn distances<'py>(
        &self,
        py: Python<'py>,
        a: PyReadonlyArray1<'py, u64>,
        b: PyReadonlyArray1<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let (a, b) = (a.as_slice()?, b.as_slice()?);
        if a.len() != b.len() {
            return Err(PyValueError::new_err(format!(
                "{} sources but {} destinations",
                a.len(),
                b.len()
            )));
        }
        self.check(a)?;
        self.check(b)?;
        let mut out = vec![0u64; a.len()];
        py.detach(|| self.inner.distances(a, b, &mut out));
        Ok(out.into_pyarray(py))
    }
    /// Coordinates of the given nodes, one row each.
    fn coords<'py>(
        &self,
        py: Python<'py>,
        nodes: PyReadonlyArray1<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let nodes = nodes.as_slice()?;
        self.check(nodes)?;
        let rows: Vec<Vec<u64>> =
            py.detach(|| nodes.iter().map(|&v| self.inner.coords(v)).collect());
        let width = rows.first().map_or(0, Vec::len);
        let flat: Vec<u64> = rows.concat();
        let array = flat.into_pyarray(py);
        array
            .reshape([nodes.len(), width])
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
    /// The neighbours of `node`, ascending.
    fn neighbors<'py>(&self, py: Python<'py>, node: u64) -> PyResult<Bound<'py, PyArray1<u64>>> {
        self.check(&[node])?;
        let mut list = self.inner.neighbors(node);
        list.sort_unstable();
        Ok(list.into_pyarray(py))
    }
    /// Node loads (1 each when the topology has none).
    fn loads<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let n = self.inner.node_count();
        let loads: Vec<u64> = py.detach(|| (0..n).map(|v| self.inner.load(v)).collect());
        loads.into_pyarray(py)
    }
    /// The graph in CSR form: (indptr, indices, volumes), volumes 1 on
    /// unweighted topologies; stored graphs and implicit ones alike.
    #[allow(clippy::type_complexity)]
    fn csr<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray1<u64>>,
        Bound<'py, PyArray1<u64>>,
        Bound<'py, PyArray1<u64>>,
    )> {
        let graph: Graph = match self.inner.as_graph() {
            Some(g) => g.clone(),
            None => py
                .detach(|| Graph::from_topology(self.get()))
                .map_err(value_error)?,
        };
        let n = graph.node_count();
        let mut indices = Vec::with_capacity(graph.offsets()[n as usize] as usize);
        let mut volumes = Vec::with_capacity(indices.capacity());
        for v in 0..n {
            indices.extend(graph.adjacency(v).iter().map(|&w| u64::from(w)));
            volumes.extend(graph.adjacency_volumes(v));
        }
        Ok((
            graph.offsets().to_vec().into_pyarray(py),
            indices.into_pyarray(py),
            volumes.into_pyarray(py),
        ))
    }
    fn __repr__(&self) -> String {
        format!("topoembed.topology('{}')", self.inner.spec())
    }
    fn __len__(&self) -> usize {
        self.inner.node_count() as usize
    }
}

/// The topology a spec names.
#[pyfunction(name = "topology")]
fn from_spec(py: Python<'_>, spec: &str) -> PyResult<Topology> {
    let spec = io::parse_spec_or_target(spec).map_err(value_error)?;
    let built = py.detach(|| topology::build(&spec)).map_err(value_error)?;
    Ok(Topology::new(built))
}

/// A stored graph from an edge array (m x 2, node ids from 0), with a volume
/// per edge and a load per node when given.
#[pyfunction]
#[pyo3(signature = (edges, nodes, volumes=None, loads=None, name="edges"))]
fn graph_from_edges(
    py: Python<'_>,
    edges: PyReadonlyArray2<'_, u64>,
    nodes: u64,
    volumes: Option<PyReadonlyArray1<'_, u64>>,
    loads: Option<PyReadonlyArray1<'_, u64>>,
    name: &str,
) -> PyResult<Topology> {
    let array = edges.as_array();
    if array.ncols() != 2 {
        return Err(PyValueError::new_err(format!(
            "edges has {} columns; give an m x 2 array of node ids",
            array.ncols()
        )));
    }
    let list: Vec<(u64, u64)> = array.rows().into_iter().map(|r| (r[0], r[1])).collect();
    let volumes: Option<Vec<u64>> = volumes.map(|v| v.as_array().to_vec());
    let spec = Spec::Graph(PathBuf::from(name));
    stored(py, loads, || {
        Graph::from_weighted_edges(spec, nodes, &list, volumes.as_deref())
    })
}

/// A stored graph built (without the GIL) by `build`, given `loads` when
/// they are there.
fn stored(
    py: Python<'_>,
    loads: Option<PyReadonlyArray1<'_, u64>>,
    build: impl FnOnce() -> Result<Graph, Error> + Send,
) -> PyResult<Topology> {
    let loads: Option<Vec<u64>> = loads.map(|l| l.as_array().to_vec());
    let graph = py
        .detach(|| match loads {
            Some(l) => build()?.with_loads(l),
            None => build(),
        })
        .map_err(value_error)?;
    Ok(Topology::new(Box::new(graph)))
}

/// The graph of a square sparse matrix's symmetrised pattern, from its
/// entries (rows, cols, values), as `graph:FILE.mtx` reads it.
#[pyfunction]
#[pyo3(signature = (size, rows, cols, values=None, loads=None, name="matrix"))]
fn graph_from_matrix(
    py: Python<'_>,
    size: u64,
    rows: PyReadonlyArray1<'_, u64>,
    cols: PyReadonlyArray1<'_, u64>,
    values: Option<PyReadonlyArray1<'_, f64>>,
    loads: Option<PyReadonlyArray1<'_, u64>>,
    name: &str,
) -> PyResult<Topology> {
    let (r, c) = (rows.as_slice()?, cols.as_slice()?);
    if r.len() != c.len() {
        return Err(PyValueError::new_err(format!(
            "{} rows but {} columns",
            r.len(),
            c.len()
        )));
    }
    let v: Option<Vec<f64>> = values.map(|v| v.as_array().to_vec());
    if v.as_ref().is_some_and(|v| v.len() != r.len()) {
        return Err(PyValueError::new_err("one value per entry"));
    }
    let spec = Spec::Graph(PathBuf::from(name));
    stored(py, loads, || {
        let entries = (0..r.len()).map(|k| (r[k], c[k], v.as_ref().map_or(1.0, |v| v[k])));
        io::matrix_graph(spec, size, entries, v.is_some())
    })
}

/// Every method, as `topoembed methods --format json` lists them.
#[pyfunction]
fn methods_json() -> PyResult<String> {
    json(&report::methods())
}

/// Method options by name (`partition`, `hamiltonian`, `objective`).
fn params(partition: &str, hamiltonian: bool, objective: Option<&str>) -> PyResult<Params> {
    Ok(Params {
        partition: match partition {
            "consecutive" => Partition::Consecutive,
            "cyclic" => Partition::Cyclic,
            other => {
                return Err(PyValueError::new_err(format!(
                    "partition '{other}': consecutive or cyclic"
                )))
            }
        },
        hamiltonian,
        objective: match objective {
            None => None,
            Some("load") => Some(Objective::Load),
            Some("dilation") => Some(Objective::Dilation),
            Some("congestion") => Some(Objective::Congestion),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "objective '{other}': load, dilation or congestion"
                )))
            }
        },
    })
}

/// Metrics options as the CLI sets them.
fn options(ta: f64, tc: f64, traffic: bool) -> PyResult<Options<'static>> {
    topoembed::model::check_costs(ta, tc).map_err(value_error)?;
    Ok(Options {
        ta,
        tc,
        routing: match traffic {
            true => Options::default().routing,
            false => metrics::Routing::Off,
        },
        ..Options::default()
    })
}

/// Builds an embedding: (map, inverse with -1 for empty host nodes, notes,
/// method).
#[pyfunction(name = "embed")]
#[pyo3(signature = (guest, host, method, partition="consecutive", hamiltonian=false, objective=None))]
#[allow(clippy::type_complexity)]
fn build_embedding<'py>(
    py: Python<'py>,
    guest: &Topology,
    host: &Topology,
    method: &str,
    partition: &str,
    hamiltonian: bool,
    objective: Option<&str>,
) -> PyResult<(
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
    String,
)> {
    let params = params(partition, hamiltonian, objective)?;
    let (g, h) = (guest.get(), host.get());
    let (map, inverse, notes, name) = py
        .detach(|| -> Result<_, Error> {
            let e = embed::build_with(method, g, h, &params)?;
            let nodes: Vec<u64> = (0..g.node_count()).collect();
            let mut map = vec![0u64; nodes.len()];
            e.map_many(&nodes, &mut map);
            let mut inverse = vec![-1i64; h.node_count() as usize];
            for (v, &at) in map.iter().enumerate() {
                if inverse[at as usize] < 0 {
                    inverse[at as usize] = v as i64;
                }
            }
            Ok((map, inverse, e.notes(), e.method().to_string()))
        })
        .map_err(value_error)?;
    Ok((map.into_pyarray(py), inverse.into_pyarray(py), notes, name))
}

/// Metrics of a method's embedding or of a mapping array, as the JSON of
/// `topoembed metrics --format json`.
#[pyfunction]
#[pyo3(signature = (guest, host, method=None, mapping=None, ta=0.0, tc=1.0, traffic=true, partition="consecutive", hamiltonian=false, objective=None))]
#[allow(clippy::too_many_arguments)]
fn metrics_json(
    py: Python<'_>,
    guest: &Topology,
    host: &Topology,
    method: Option<&str>,
    mapping: Option<PyReadonlyArray1<'_, u64>>,
    ta: f64,
    tc: f64,
    traffic: bool,
    partition: &str,
    hamiltonian: bool,
    objective: Option<&str>,
) -> PyResult<String> {
    let options = options(ta, tc, traffic)?;
    let params = params(partition, hamiltonian, objective)?;
    let (g, h) = (guest.get(), host.get());
    let m: Metrics = match (method, mapping) {
        (Some(method), None) => py.detach(|| {
            let e = embed::build_with(method, g, h, &params)?;
            metrics::measure(g, h, e.as_ref(), &options)
        }),
        (None, Some(mapping)) => {
            let hosts = mapping.as_slice()?.to_vec();
            py.detach(|| {
                let mapping = checked_mapping(g, h, hosts)?;
                let mut m = metrics::measure(g, h, &mapping, &options)?;
                m.method = "mapping".into();
                Ok(m)
            })
        }
        _ => {
            return Err(PyValueError::new_err(
                "give method=NAME or mapping=ARRAY (the host node of every guest node)",
            ))
        }
    }
    .map_err(value_error)?;
    json(&m)
}

/// A mapping array checked against guest and host sizes.
fn checked_mapping(
    g: &dyn topology::Topology,
    h: &dyn topology::Topology,
    hosts: Vec<u64>,
) -> Result<io::Mapping, Error> {
    if hosts.len() as u64 != g.node_count() {
        return Err(Error::Mismatch(format!(
            "the mapping has {} entries but {} has {} nodes; give the host node of every guest node",
            hosts.len(),
            g.spec(),
            g.node_count()
        )));
    }
    if let Some((v, &at)) = hosts
        .iter()
        .enumerate()
        .find(|(_, &at)| at >= h.node_count())
    {
        return Err(Error::Mismatch(format!(
            "guest node {v} is mapped to {at}, but {} has nodes 0..{}",
            h.spec(),
            h.node_count()
        )));
    }
    Ok(io::Mapping::new(hosts))
}

/// Every applicable method measured, as the JSON of `topoembed compare
/// --format json`.
#[pyfunction]
#[pyo3(signature = (guest, host, ta=0.0, tc=1.0, traffic=true))]
fn compare_json(
    py: Python<'_>,
    guest: &Topology,
    host: &Topology,
    ta: f64,
    tc: f64,
    traffic: bool,
) -> PyResult<String> {
    let options = options(ta, tc, traffic)?;
    let (g, h) = (guest.get(), host.get());
    let results = py
        .detach(|| -> Result<Vec<Metrics>, Error> {
            let mut results = Vec::new();
            let mut skipped = Vec::new();
            for m in METHODS {
                match (m.build)(g, h, &Params::default()) {
                    Ok(e) => results.push(metrics::measure(g, h, e.as_ref(), &options)?),
                    Err(reason) => skipped.push(format!("{}: {reason}", m.name)),
                }
            }
            if results.is_empty() {
                return Err(Error::Mismatch(format!(
                    "no method applies to {} -> {} ({})",
                    g.spec(),
                    h.spec(),
                    skipped.join("; ")
                )));
            }
            Ok(results)
        })
        .map_err(value_error)?;
    json(&report::compare(&results))
}

/// A device mesh, as the JSON of `topoembed device-mesh --format json`.
#[pyfunction]
#[pyo3(signature = (host, logical, weights=None, lines=None, objective=None))]
fn device_mesh_json(
    py: Python<'_>,
    host: &str,
    logical: &str,
    weights: Option<&str>,
    lines: Option<&str>,
    objective: Option<&str>,
) -> PyResult<String> {
    let spec = io::parse_spec_or_target(host).map_err(value_error)?;
    let result = py
        .detach(|| {
            let axes = device_mesh::parse_logical(logical)?;
            let weights = weights
                .map(|w| device_mesh::parse_weights(w, &axes))
                .transpose()?;
            let lines = lines
                .map(|l| device_mesh::parse_lines(l, &axes))
                .transpose()?
                .unwrap_or_default();
            let objective = objective
                .map(str::parse::<device_mesh::Objective>)
                .transpose()?
                .unwrap_or_default();
            device_mesh::device_mesh(&spec, &axes, (weights.as_deref(), objective), &lines)
        })
        .map_err(value_error)?;
    json(&report::device_mesh(&result))
}

/// The general mapper: (map, metrics JSON, baselines JSON, capacity,
/// seconds, summary JSON), the pieces of `topoembed map --format json`;
/// with a recording's summary (`map --summary`), the placement of least
/// predicted cost and its candidates.
#[pyfunction]
#[pyo3(signature = (guest, host, imbalance=0.03, seed=1, passes=0, restarts=0, objective="hop-bytes", traffic=true, summary=None, latency_bytes=topoembed::recorded::DEFAULT_LATENCY_BYTES, preset="default"))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn map_graph<'py>(
    py: Python<'py>,
    guest: &Topology,
    host: &Topology,
    imbalance: f64,
    seed: u64,
    passes: usize,
    restarts: usize,
    objective: &str,
    traffic: bool,
    summary: Option<PathBuf>,
    latency_bytes: u64,
    preset: &str,
) -> PyResult<(
    Bound<'py, PyArray1<u64>>,
    String,
    String,
    u64,
    f64,
    Option<String>,
)> {
    let objective = match objective {
        "hop-bytes" | "hop_bytes" => topoembed::mapper::Objective::HopBytes,
        "congestion" => topoembed::mapper::Objective::Congestion,
        other => {
            return Err(PyValueError::new_err(format!(
                "objective '{other}': hop-bytes or congestion"
            )))
        }
    };
    let preset = topoembed::mapper::Preset::named(preset).ok_or_else(|| {
        PyValueError::new_err(format!("preset '{preset}': default, fast or strong"))
    })?;
    let options = options(0.0, 1.0, traffic)?;
    let (g, h) = (guest.get(), host.get());
    let (hosts, measured, others, capacity, seconds, chosen) = py
        .detach(|| -> Result<_, Error> {
            let started = Instant::now();
            let map_options = MapOptions {
                imbalance,
                seed,
                passes,
                restarts,
                objective,
                preset,
                progress: None,
                phases: None,
            };
            let (placement, chosen) = match &summary {
                None => (topoembed::embed::mapped::map(g, h, &map_options)?, None),
                Some(path) => {
                    let pairs = g.as_graph().ok_or_else(|| {
                        Error::Parameter(format!(
                            "summary= weighs a recording's latencies and collectives on its graph; {} is not a graph",
                            g.spec()
                        ))
                    })?;
                    let read = topoembed::recorded::read_summary(path)?;
                    let chosen =
                        topoembed::recorded::map_recorded(pairs, &read, h, &map_options, latency_bytes)?;
                    (chosen.placement.clone(), Some(chosen))
                }
            };
            let seconds = started.elapsed().as_secs_f64();
            let measured = metrics::measure(g, h, &placement, &options)?;
            let others = report::measured_baselines(g, h, &options)?;
            Ok((
                placement.hosts().to_vec(),
                measured,
                others,
                placement.capacity(),
                seconds,
                chosen,
            ))
        })
        .map_err(value_error)?;
    let summary = chosen.map(|c| json(&c.report())).transpose()?;
    Ok((
        hosts.into_pyarray(py),
        json(&measured)?,
        json(&others)?,
        capacity,
        seconds,
        summary,
    ))
}

/// Reads a graph file as `graph:FILE` does (Scotch .grf, METIS, Matrix
/// Market, edge list).
#[pyfunction]
fn read_graph(py: Python<'_>, path: PathBuf) -> PyResult<Topology> {
    let built = py
        .detach(|| topology::build(&Spec::Graph(path)))
        .map_err(value_error)?;
    Ok(Topology::new(built))
}

/// Writes a topology as a Scotch `.grf` (base 0), METIS or Matrix Market
/// file, or a host as a Scotch target (`tgt`).
#[pyfunction]
fn write_graph(py: Python<'_>, topology: &Topology, path: PathBuf, format: &str) -> PyResult<()> {
    let t = topology.get();
    py.detach(|| -> Result<(), Error> {
        let file = std::fs::File::create(&path)
            .map_err(|e| Error::File(format!("{}: cannot create: {e}", path.display())))?;
        let mut out = std::io::BufWriter::new(file);
        match format {
            "grf" => io::write_graph(t, 0, &mut out)?,
            "metis" => io::write_metis(t, &mut out)?,
            "mtx" => io::write_matrix_market(t, &mut out)?,
            "tgt" => io::write_target(t.spec(), &mut out)?,
            other => {
                return Err(Error::Parameter(format!(
                    "format '{other}': grf, metis, mtx or tgt"
                )))
            }
        }
        std::io::Write::flush(&mut out)
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
    })
    .map_err(value_error)
}

/// Reads a Scotch mapping file of `guest` onto `host`: the host node of
/// every guest node.
#[pyfunction]
fn read_mapping<'py>(
    py: Python<'py>,
    path: PathBuf,
    guest: &Topology,
    host: &Topology,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let (g, h) = (guest.get(), host.get());
    let hosts = py
        .detach(|| -> Result<Vec<u64>, Error> {
            let scotch = match g.spec() {
                Spec::Graph(p) if io::is_scotch_graph(p) => io::read_graph(p)?,
                _ => io::ScotchGraph::numbered(Box::new(Graph::from_topology(g)?))?,
            };
            Ok(io::read_mapping(&path, &scotch, h.node_count())?
                .hosts()
                .to_vec())
        })
        .map_err(value_error)?;
    Ok(hosts.into_pyarray(py))
}

/// Writes a Scotch mapping file: `hosts[v]` for every guest node v, labels
/// 0..n.
#[pyfunction]
fn write_mapping(py: Python<'_>, path: PathBuf, hosts: PyReadonlyArray1<'_, u64>) -> PyResult<()> {
    let hosts = hosts.as_slice()?;
    py.detach(|| -> Result<(), Error> {
        let labels: Vec<u64> = (0..hosts.len() as u64).collect();
        let file = std::fs::File::create(&path)
            .map_err(|e| Error::File(format!("{}: cannot create: {e}", path.display())))?;
        let mut out = std::io::BufWriter::new(file);
        io::write_mapping(&labels, hosts, &mut out)?;
        std::io::Write::flush(&mut out)
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
    })
    .map_err(value_error)
}

/// Writes what a launcher reads for a placement (`hosts[r]` = host node of
/// rank r), as `topoembed map --format FORMAT` does: `rankfile`, `seq`,
/// `machinefile`, `cray-rank-order` (slots from an Open MPI hostfile or a
/// Slurm hostlist with `slots_per_node`), or `smpi-hostfile` (line r =
/// PREFIX<host node>, for the platform `write_simgrid` writes).
#[pyfunction]
#[pyo3(signature = (path, hosts, format, hostfile=None, nodes=None, slots_per_node=1, prefix="node-"))]
#[allow(clippy::too_many_arguments)]
fn write_launch(
    py: Python<'_>,
    path: PathBuf,
    hosts: PyReadonlyArray1<'_, u64>,
    format: &str,
    hostfile: Option<PathBuf>,
    nodes: Option<String>,
    slots_per_node: u64,
    prefix: &str,
) -> PyResult<()> {
    let hosts = hosts.as_slice()?;
    py.detach(|| -> Result<(), Error> {
        let launch = match format {
            "rankfile" => Some(io::LaunchFormat::Rankfile),
            "seq" => Some(io::LaunchFormat::Seq),
            "machinefile" => Some(io::LaunchFormat::Machinefile),
            "cray-rank-order" => Some(io::LaunchFormat::CrayRankOrder),
            "smpi-hostfile" => None,
            other => {
                return Err(Error::Parameter(format!(
                    "format '{other}': rankfile, seq, machinefile, cray-rank-order or smpi-hostfile"
                )))
            }
        };
        let mut text = Vec::new();
        match launch {
            None => io::write_smpi_hostfile(hosts, prefix, &mut text)?,
            Some(launch) => {
                let slots = match (hostfile, nodes) {
                    (Some(file), _) => io::Slots::from_machines(io::read_hostfile(&file)?),
                    (None, Some(list)) => io::Slots::from_hostlist(&list, slots_per_node)
                        .map_err(|e| Error::Parameter(format!("nodes: {e}")))?,
                    (None, None) => {
                        return Err(Error::Parameter(format!(
                            "format '{format}' needs the machine's slots: hostfile=PATH or \
                             nodes='node[01-16]' with slots_per_node"
                        )))
                    }
                };
                io::write_launch(launch, hosts, &slots, &mut text)?;
            }
        }
        std::fs::write(&path, text)
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
    })
    .map_err(value_error)
}

/// Writes the SimGrid platform of `host` (as `topoembed export HOST
/// --format simgrid`).
#[pyfunction]
#[pyo3(signature = (host, path, prefix="node-", bandwidth="10GBps", latency="1us", speed="1Gf", explicit_routes=false))]
#[allow(clippy::too_many_arguments)]
fn write_simgrid(
    py: Python<'_>,
    host: &Topology,
    path: PathBuf,
    prefix: &str,
    bandwidth: &str,
    latency: &str,
    speed: &str,
    explicit_routes: bool,
) -> PyResult<()> {
    let spec = host.get().spec().clone();
    let options = io::PlatformOptions {
        prefix: prefix.to_string(),
        bandwidth: bandwidth.to_string(),
        latency: latency.to_string(),
        speed: speed.to_string(),
        explicit_routes,
    };
    py.detach(|| -> Result<(), Error> {
        let mut text = Vec::new();
        io::write_simgrid_platform(&spec, &options, &mut text)?;
        std::fs::write(&path, text)
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
    })
    .map_err(value_error)
}

/// The native module.
#[pymodule]
fn _topoembed(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Topology>()?;
    m.add_function(wrap_pyfunction!(from_spec, m)?)?;
    m.add_function(wrap_pyfunction!(graph_from_edges, m)?)?;
    m.add_function(wrap_pyfunction!(graph_from_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(methods_json, m)?)?;
    m.add_function(wrap_pyfunction!(build_embedding, m)?)?;
    m.add_function(wrap_pyfunction!(metrics_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(device_mesh_json, m)?)?;
    m.add_function(wrap_pyfunction!(map_graph, m)?)?;
    m.add_function(wrap_pyfunction!(questions::optimal_json, m)?)?;
    m.add_function(wrap_pyfunction!(questions::simulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(questions::verify_certificate_json, m)?)?;
    m.add_function(wrap_pyfunction!(read_graph, m)?)?;
    m.add_function(wrap_pyfunction!(write_graph, m)?)?;
    m.add_function(wrap_pyfunction!(read_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(write_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(write_launch, m)?)?;
    m.add_function(wrap_pyfunction!(write_simgrid, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
