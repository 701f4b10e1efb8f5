//! The HTML report in headless Chromium (Debian's `chromium`; `.ci/run`
//! installs it): it loads with no console errors and fetches nothing, every
//! figure renders (non-empty boxes, one node disc per host node), and a
//! screenshot is not blank. Set TOPOEMBED_CHROMIUM to use another binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

use common::temp_dir;

fn chromium() -> String {
    std::env::var("TOPOEMBED_CHROMIUM").unwrap_or_else(|_| "chromium".to_string())
}

/// Runs headless Chromium on `page` with `extra` flags; (stdout, stderr).
fn browse(page: &Path, profile: &Path, extra: &[&str]) -> (String, String) {
    let out = Command::new("timeout")
        .arg("120")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {} ({e}); install it (apt-get install chromium) or set TOPOEMBED_CHROMIUM",
                chromium()
            )
        });
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Measures, in the browser, what rendered: per figure its box, its node
/// discs with a non-empty box, and every drawn element with one; plus errors
/// and the resources the page fetched.
const CHECK: &str = r#"<script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message)));
const consoleError = console.error;
console.error = (...a) => { window.__errors.push(a.join(' ')); consoleError(...a); };
window.addEventListener('load', () => {
  const figures = [...document.querySelectorAll('figure')].map(f => {
    const svg = f.querySelector('svg');
    const box = svg.getBoundingClientRect();
    const drawn = [...svg.querySelectorAll('rect, circle, polyline, path, line, text')]
      .filter(e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; });
    return {
      kind: f.className,
      method: f.dataset.method,
      width: box.width,
      height: box.height,
      circles: drawn.filter(e => e.tagName === 'circle').length,
      rects: drawn.filter(e => e.tagName === 'rect').length,
      drawn: drawn.length,
    };
  });
  const pre = document.createElement('pre');
  pre.id = 'render-check';
  pre.textContent = JSON.stringify({
    figures,
    errors: window.__errors,
    resources: performance.getEntriesByType('resource').map(r => r.name),
  });
  document.body.appendChild(pre);
});
</script>"#;

fn write_report(dir: &Path, guest: &str, host: &str) -> (PathBuf, String) {
    let page = dir.join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args(["report", guest, host, "-o", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    (page, html)
}

/// Nothing in the page can reach the network: no scripts, styles, images or
/// fonts from elsewhere (SVG's xmlns names a namespace, it is not fetched).
fn assert_offline(html: &str) {
    let without_xmlns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for needle in [
        "http://", "https://", "src=", "<link", "<script", "@import", "url(", "<img",
    ] {
        assert!(
            !without_xmlns.contains(needle),
            "the report contains {needle}"
        );
    }
}

#[test]
fn report_renders_offline_in_chromium() {
    let dir = temp_dir("report-cube6");
    let (page, html) = write_report(&dir, "cube:6", "torus:8x8");
    assert_offline(&html);
    for method in ["standard", "xor", "gray", "identity"] {
        assert!(
            html.contains(&format!("id=\"method-{method}\"")),
            "{method}"
        );
    }
    for term in [
        "load factor",
        "dilation",
        "congestion",
        "node load",
        "CC time",
        "simulated",
    ] {
        assert!(html.contains(&format!("<dt>{term}</dt>")), "{term}");
    }

    // The page as written: loads without console messages of any kind.
    let profile = dir.join("profile");
    let (dom, log) = browse(&page, &profile, &["--dump-dom"]);
    assert!(
        dom.contains("topoembed report: cube:6 -&gt; torus:8x8"),
        "{}",
        &dom[..dom.len().min(300)]
    );
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");

    // With the checker: what rendered.
    let checked = dir.join("checked.html");
    std::fs::write(
        &checked,
        html.replacen("<head>", &format!("<head>\n{CHECK}"), 1),
    )
    .unwrap();
    let (dom, _) = browse(&checked, &profile, &["--dump-dom"]);
    let start = dom
        .find("<pre id=\"render-check\">")
        .expect("the check ran")
        + 23;
    let end = start + dom[start..].find("</pre>").unwrap();
    let report: Value = serde_json::from_str(
        &dom[start..end]
            .replace("&quot;", "\"")
            .replace("&gt;", ">")
            .replace("&lt;", "<")
            .replace("&amp;", "&"),
    )
    .unwrap();
    assert_eq!(report["errors"], Value::Array(vec![]), "{report}");
    assert_eq!(
        report["resources"],
        Value::Array(vec![]),
        "fetched: {}",
        report["resources"]
    );
    let figures = report["figures"].as_array().unwrap();
    assert_eq!(
        figures.len(),
        4 * 4,
        "layout, spectrum, load and Gantt for 4 methods"
    );
    for f in figures {
        assert!(
            f["width"].as_f64().unwrap() > 100.0 && f["height"].as_f64().unwrap() > 100.0,
            "{f}"
        );
        assert!(f["drawn"].as_u64().unwrap() > 20, "{f}");
        match f["kind"].as_str().unwrap() {
            // A filled disc and an outline for each of the 64 host nodes.
            "layout" => assert_eq!(f["circles"], 2 * 64, "{f}"),
            // A bar per dilation (xor: 1 and 2; the others up to 4), and the background.
            "spectrum" => assert!((3..=6).contains(&f["rects"].as_u64().unwrap()), "{f}"),
            // 16 processes, 6 stages of compute and exchange each.
            "gantt" => assert!(f["rects"].as_u64().unwrap() >= 16 * 12, "{f}"),
            "load" => {}
            other => panic!("unexpected figure {other}"),
        }
    }

    // A screenshot is not blank: many pixels are neither white nor one colour.
    let shot = dir.join("shot.png");
    browse(
        &page,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,2400",
        ],
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.color_type.samples();
    let mut colours = std::collections::HashSet::new();
    let mut inked = 0usize;
    for px in pixels[..info.buffer_size()].chunks(channels) {
        if px[..3] != [255, 255, 255] {
            inked += 1;
        }
        colours.insert([px[0], px[1], px[2]]);
    }
    let total = (info.width * info.height) as usize;
    assert!(inked * 50 > total, "only {inked} of {total} pixels drawn");
    assert!(colours.len() > 20, "{} colours", colours.len());
}

/// Any pair with methods gets a report; big hosts skip the drawings but
/// keep the table; pairs with no method are exit code 2.
#[test]
fn report_sizes_and_errors() {
    let dir = temp_dir("report-sizes");
    let (_, html) = write_report(&dir, "mesh:6x5", "cube:3");
    assert_offline(&html);
    for method in ["split", "reshape", "combine", "recursive", "auto"] {
        assert!(
            html.contains(&format!("id=\"method-{method}\"")),
            "{method}"
        );
    }
    let (_, big) = write_report(&dir, "cube:14", "torus:128x128");
    assert!(
        !big.contains("class=\"layout\""),
        "16384 host nodes are not drawn"
    );
    assert!(big.contains("class=\"spectrum\""));
    let out = Command::new(env!("CARGO_BIN_EXE_topoembed"))
        .args([
            "report",
            "cube:4",
            "ring:8",
            "-o",
            dir.join("x.html").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
}
