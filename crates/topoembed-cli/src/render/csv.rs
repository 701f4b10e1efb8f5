//! The metrics as CSV rows (RFC 4180 quoting).

use topoembed::metrics::Metrics;

use super::metrics::{list_text, spectrum_text};

pub const CSV_HEADER: &str =
    "guest,host,method,guest_nodes,host_nodes,guest_edges,load_factor,expansion,\
dilation_max,dilation_average,dilation_total,hop_bytes,total_volume,spectrum,constant_distance,distances,average_distance,\
cc_ta,cc_tc,cc_time,cc_waiting,congestion,link_load_average,node_load_max,node_load_min,\
node_load_average,node_traffic_max,node_traffic_min,node_traffic_average,fat_congestion";

/// One CSV row of the metrics (spectrum as `dil:count` pairs separated by spaces).
pub fn csv_row(m: &Metrics) -> String {
    let opt = |x: Option<String>| x.unwrap_or_default();
    let cc = m.cc_time.as_ref();
    [
        m.guest.clone(),
        m.host.clone(),
        m.method.clone(),
        m.guest_nodes.to_string(),
        m.host_nodes.to_string(),
        m.guest_edges.to_string(),
        m.load_factor.to_string(),
        m.expansion.to_string(),
        m.dilation.max.to_string(),
        m.dilation.average.to_string(),
        m.dilation.total.to_string(),
        m.hop_bytes.to_string(),
        m.total_volume.to_string(),
        spectrum_text(m),
        opt(m.constant_distance.map(|c| c.to_string())),
        opt(m.distances.as_deref().map(list_text)),
        opt(m.average_distance.map(|x| x.to_string())),
        opt(cc.map(|c| c.ta.to_string())),
        opt(cc.map(|c| c.tc.to_string())),
        opt(cc.map(|c| c.time.to_string())),
        opt(cc.map(|c| c.waiting.to_string())),
        opt(m.congestion.as_ref().map(|c| c.max.to_string())),
        opt(m.congestion.as_ref().map(|c| c.average.to_string())),
        opt(m.node_load.map(|l| l.max.to_string())),
        opt(m.node_load.map(|l| l.min.to_string())),
        opt(m.node_load.map(|l| l.average.to_string())),
        opt(m.node_traffic.map(|l| l.max.to_string())),
        opt(m.node_traffic.map(|l| l.min.to_string())),
        opt(m.node_traffic.map(|l| l.average.to_string())),
        opt(m.fat_congestion.as_ref().map(|f| f.max.to_string())),
    ]
    .map(|f| csv_field(&f))
    .join(",")
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
