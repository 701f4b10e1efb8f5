//! The README and the book under `docs/` show what the program prints
//! today. Every `$ topoembed ...` line of a ```` ```text ```` block (after
//! any `NAME=value` settings of the environment, as `RAYON_NUM_THREADS=1`) is run
//! through `sh` (pipes and redirections as written; stderr and stdout in
//! the order written) in a scratch folder where `crates/`, `docs/` and
//! `bench/` lead to the repository's, with this build's `topoembed` first
//! on `PATH`, and its output compared line by line with the lines the block
//! shows after it: durations (`0.14 s`, `12 ms`) compare as any duration,
//! and a line `...` stands for any number of printed lines. Blocks fenced
//! ```` ```console ```` are records of longer runs (minutes to hours) or of
//! runs that need files made elsewhere, and are not run. The book itself
//! must hold together: `SUMMARY.md` lists every chapter once, and every
//! link between the README and the chapters finds its file and heading.
//! And `compare` keeps its first screen short.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

use common::ok;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README, then every chapter of the book, with their texts.
fn documents() -> Vec<(PathBuf, String)> {
    let mut paths = vec![root().join("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .expect("the book's chapters under docs/src")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    paths.extend(chapters);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// An example: the line it is on, the command after `$ `, the lines shown.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// Every `$ topoembed` line of the ```` ```text ```` blocks of `text`.
fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut open = false;
    for (k, line) in text.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            fence = match fence {
                None => Some(info),
                Some(_) => None,
            };
            open = false;
            continue;
        }
        if fence != Some("text") {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            open = runs_topoembed(command);
            if open {
                found.push(Example {
                    line: k + 1,
                    command: command.to_string(),
                    shown: Vec::new(),
                });
            }
        } else if open {
            found
                .last_mut()
                .expect("an example is open")
                .shown
                .push(line.to_string());
        }
    }
    found
}

/// Whether `command` runs topoembed: `topoembed ` first, after any
/// `NAME=value` settings of its environment.
fn runs_topoembed(command: &str) -> bool {
    let is_setting = |word: &str| {
        word.split_once('=').is_some_and(|(name, _)| {
            name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    let mut rest = command;
    while let Some((word, after)) = rest.split_once(' ') {
        if !is_setting(word) {
            break;
        }
        rest = after;
    }
    rest.starts_with("topoembed ")
}

/// `text` with every duration (a number, an optional space, then `s`,
/// `ms` or `µs` and no letter after) written `<t>`.
fn without_durations(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '.'));
        if !starts {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
            j += 1;
        }
        let k = if chars.get(j) == Some(&' ') { j + 1 } else { j };
        let unit = ["ms", "µs", "s"].iter().find_map(|unit| {
            let u: Vec<char> = unit.chars().collect();
            let end = k + u.len();
            (end <= chars.len()
                && chars[k..end] == u[..]
                && !chars.get(end).is_some_and(|c| c.is_alphanumeric()))
            .then_some(end)
        });
        match unit {
            Some(end) => {
                out.push_str("<t>");
                i = end;
            }
            None => {
                out.extend(&chars[i..j]);
                i = j;
            }
        }
    }
    out
}

#[test]
fn durations_compare_as_any_duration() {
    assert_eq!(
        without_durations("seed 1; 0.01 s) in 12 ms, 3 µs; 4 sides, 2s, v2 s"),
        "seed 1; <t>) in <t>, <t>; 4 sides, <t>, v2 s"
    );
}

/// Whether the lines `shown` show `printed`: equal line by line, where a
/// line `...` stands for any number of printed lines.
fn shows(shown: &[String], printed: &[String]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=printed.len()).any(|k| shows(rest, &printed[k..]))
        }
        Some((first, rest)) => printed
            .split_first()
            .is_some_and(|(line, after)| line == first && shows(rest, after)),
    }
}

#[test]
fn settings_of_the_environment_may_come_first() {
    assert!(runs_topoembed("topoembed map a b"));
    assert!(runs_topoembed(
        "RAYON_NUM_THREADS=1 topoembed optimal cube:9 x"
    ));
    assert!(runs_topoembed("A=1 B_2=x topoembed compare a b | tail -1"));
    assert!(!runs_topoembed("cat topoembed"));
    assert!(!runs_topoembed("python3 -m topoembed"));
    assert!(!runs_topoembed("a=1 topoembed map a b"));
    assert!(!runs_topoembed("RAYON_NUM_THREADS=1 mpirun topoembed"));
    assert!(!runs_topoembed("topoembed"));
}

#[test]
fn an_ellipsis_stands_for_any_lines() {
    let lines = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    let printed = lines("a\nb\nc\nd");
    assert!(shows(&lines("a\n...\nd"), &printed));
    assert!(shows(&lines("a\nb\n..."), &printed));
    assert!(shows(&lines("...\n  ...\nd"), &printed));
    assert!(!shows(&lines("a\nc\n..."), &printed));
    assert!(!shows(&lines("a\nb\nc"), &printed));
    assert!(!shows(&lines("a\n...\nc"), &printed));
}

/// A scratch folder where the repository's `crates/`, `docs/` and `bench/`
/// are at hand, as they are at the root.
fn scratch() -> common::TempDir {
    let dir = common::temp_dir("docs-examples");
    for name in ["crates", "docs", "bench"] {
        let link = dir.join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(root().join(name), &link).unwrap();
        }
    }
    dir
}

/// What `command` prints, run by `sh` in `dir` with this build first on
/// `PATH`.
fn printed(command: &str, dir: &Path) -> Vec<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_topoembed")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(without_durations)
        .collect()
}

#[test]
fn every_example_shows_what_the_program_prints() {
    let dir = scratch();
    let mut wrong = Vec::new();
    let mut count = 0;
    for (path, text) in documents() {
        for example in examples(&text) {
            count += 1;
            let mut shown: Vec<String> =
                example.shown.iter().map(|l| without_durations(l)).collect();
            while shown.last().is_some_and(|l| l.is_empty()) {
                shown.pop();
            }
            let printed = printed(&example.command, &dir);
            let matches = shows(&shown, &printed);
            if !matches {
                wrong.push(format!(
                    "{}:{}: `{}` prints\n{}\n-- where the text shows --\n{}",
                    path.strip_prefix(root()).unwrap_or(&path).display(),
                    example.line,
                    example.command,
                    printed.join("\n"),
                    shown.join("\n")
                ));
            }
        }
    }
    assert!(count >= 40, "only {count} examples found");
    assert!(
        wrong.is_empty(),
        "{} of {count} examples are stale:\n\n{}",
        wrong.len(),
        wrong.join("\n\n")
    );
}

/// GitHub's and mdBook's anchor of a heading.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of the headings of `text` (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// Every `](TARGET)` of `text` that is not a web address.
fn links(text: &str) -> Vec<String> {
    text.match_indices("](")
        .filter_map(|(k, _)| {
            let rest = &text[k + 2..];
            let end = rest.find(')')?;
            let target = &rest[..end];
            (!target.starts_with("http")).then(|| target.to_string())
        })
        .collect()
}

#[test]
fn the_book_holds_together() {
    let book = root().join("docs");
    assert!(book.join("book.toml").exists(), "docs/book.toml");
    let summary = std::fs::read_to_string(book.join("src/SUMMARY.md")).unwrap();
    let listed: Vec<String> = links(&summary);
    for (path, _) in documents().iter().skip(1) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "SUMMARY.md" {
            continue;
        }
        let times = listed.iter().filter(|l| **l == name).count();
        assert_eq!(times, 1, "SUMMARY.md lists {name} {times} times");
    }
    for (path, text) in documents() {
        let dir = path.parent().unwrap();
        for target in links(&text) {
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                path.clone()
            } else {
                dir.join(file)
            };
            assert!(
                linked.exists(),
                "{}: link to {target}: no such file",
                path.display()
            );
            if let Some(fragment) = fragment {
                let text = std::fs::read_to_string(&linked).unwrap();
                assert!(
                    anchors(&text).iter().any(|a| a == fragment),
                    "{}: link to {target}: no such heading",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_readme_is_a_front_door() {
    let (_, readme) = &documents()[0];
    let lines = readme.lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines; the manual goes in docs/"
    );
    assert!(readme.contains("cargo test --workspace"));
}

#[test]
fn compare_keeps_its_first_screen_short() {
    let out = ok(&["compare", "cube:10", "torus:32x32"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() <= 22, "{} lines:\n{out}", lines.len());
    let skipped: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("not applicable"))
        .collect();
    assert_eq!(skipped.len(), 1, "{out}");
    assert!(
        skipped[0].contains("11 methods") && skipped[0].contains("--all"),
        "{out}"
    );
    assert!(!out.contains("note (map)"), "{out}");
    // --all: one line a method, with the reason; --verbose: how map chose.
    let all = ok(&["compare", "cube:10", "torus:32x32", "--all"]);
    let reasons = all
        .lines()
        .filter(|l| l.starts_with("not applicable: "))
        .count();
    assert_eq!(reasons, 11, "{all}");
    assert!(all.contains("not applicable: byweight (the host must be a line or ring)"));
    let verbose = ok(&["compare", "cube:10", "torus:32x32", "--verbose"]);
    assert!(verbose.contains("note (map): "), "{verbose}");
    // The JSON keeps the method's notes whatever the flags.
    let json = common::json(&["compare", "cube:10", "torus:32x32", "--format", "json"]);
    let text = json.to_string();
    assert!(text.contains("method_notes"), "{text}");
    // A pair with one method left out names it with its reason.
    let ring = ok(&["compare", "ring:16", "ring:16"]);
    assert!(
        ring.lines()
            .filter(|l| l.starts_with("not applicable"))
            .count()
            <= 1,
        "{ring}"
    );
}
