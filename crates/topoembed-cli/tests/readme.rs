//! The README's Quick start shows what the program prints today: every
//! `$ topoembed ...` line in its text blocks is run and its output compared
//! line by line with the block. And `compare` keeps its first screen short:
//! the methods that do not apply on one line, the mapper's notes only with
//! --verbose.

use crate::common;

use common::ok;

/// The README at the repository root.
fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    std::fs::read_to_string(path).expect("README.md at the repository root")
}

/// The text of the section headed `## {title}`, up to the next `## `.
fn section<'a>(readme: &'a str, title: &str) -> &'a str {
    let head = format!("\n## {title}\n");
    let start = readme.find(&head).expect("the section exists") + head.len();
    let end = readme[start..]
        .find("\n## ")
        .map_or(readme.len(), |e| start + e);
    &readme[start..end]
}

/// Every `$ topoembed ARGS` of the `text` blocks in `text`, with the lines
/// shown after it (up to the next `$` line or the block's end).
fn shown_runs(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut runs: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = line == "```text";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ topoembed ") {
            let args = command.split_whitespace().map(str::to_string).collect();
            runs.push((args, Vec::new()));
        } else if let Some((_, shown)) = runs.last_mut() {
            shown.push(line.to_string());
        }
    }
    runs
}

#[test]
fn the_quick_start_shows_what_the_program_prints() {
    let readme = readme();
    let runs = shown_runs(section(&readme, "Quick start"));
    assert!(!runs.is_empty(), "the Quick start shows no run");
    for (args, shown) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let printed = ok(&args);
        let printed: Vec<&str> = printed.lines().collect();
        assert_eq!(
            printed,
            shown,
            "`topoembed {}` prints (left) what the README does not show (right)",
            args.join(" ")
        );
    }
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
