//! Arrows point down (DESIGN.md): no two source files of the library or
//! the CLI import each other, directly or round a longer circle. Every
//! `crate::…`, `super::…` and `self::…` path in a file (grouped imports
//! `a::{b, c::d}` expanded, comments and test modules left out) is
//! resolved to the
//! longest module prefix that is a file (`x.rs` or `x/mod.rs`), and the
//! file graph must have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path from the crate root.
fn modules(root: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().map_or(true, |e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap();
            let mut segs: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if matches!(
                segs.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                segs.pop();
            }
            found.insert(segs, path);
        }
    }
    found
}

/// The file's text without its test module(s).
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            // Skip the item that follows: a `mod tests {` block to its
            // closing brace at column 0, or a single line.
            match lines.next() {
                Some(next) if next.contains("mod ") && next.ends_with('{') => {
                    for inner in lines.by_ref() {
                        if inner == "}" {
                            break;
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        // Comments (doc links included) name modules without using them.
        let code = match line.find("//") {
            Some(k) => &line[..k],
            None => line,
        };
        // `pub(in crate::a)` says who may see an item, not what it uses.
        let mut code = code.to_string();
        while let Some(k) = code.find("pub(in ") {
            let end = code[k..].find(')').map_or(code.len(), |e| k + e + 1);
            code.replace_range(k..end, "pub");
        }
        out.push_str(&code);
        out.push('\n');
    }
    out
}

/// `prefix::{a, b::c, d::{e, f}}` expanded into full paths.
fn expand(prefix: &str, group: &str, into: &mut Vec<String>) {
    let mut depth = 0;
    let mut start = 0;
    let bytes = group.as_bytes();
    for i in 0..=bytes.len() {
        let at_end = i == bytes.len();
        let c = if at_end { b',' } else { bytes[i] };
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                let item = group[start..i].trim();
                start = i + 1;
                if item.is_empty() {
                    continue;
                }
                match item.find("::{") {
                    Some(k) if item.ends_with('}') => expand(
                        &format!("{prefix}::{}", &item[..k]),
                        &item[k + 3..item.len() - 1],
                        into,
                    ),
                    _ => into.push(format!(
                        "{prefix}::{}",
                        item.split(" as ").next().unwrap().trim()
                    )),
                }
            }
            _ => {}
        }
    }
}

/// Every module path a file names.
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let starts = [&b"crate::"[..], b"super::", b"self::"]
            .iter()
            .any(|p| rest.starts_with(p))
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b':'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b':')
        {
            j += 1;
        }
        let path = text[i..j].trim_end_matches(':').to_string();
        if text[j..].starts_with('{') && text[i..j].ends_with("::") {
            // A group: find its closing brace.
            let mut depth = 0;
            let mut k = j;
            while k < bytes.len() {
                match bytes[k] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            expand(&path, &text[j + 1..k.min(bytes.len())], &mut out);
            i = k;
        } else {
            out.push(path);
            i = j;
        }
    }
    out
}

/// The file a path in module `here` resolves to: the longest prefix that
/// is a module of the crate.
fn resolve(
    here: &[String],
    path: &str,
    known: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    // `self` is the file's own module (a `mod.rs` is its folder's), each
    // `super` one step up.
    let mut base: Vec<String> = match segs.first() {
        Some(&"crate") => Vec::new(),
        Some(&"self") | Some(&"super") => here.to_vec(),
        _ => return None,
    };
    if segs.first() == Some(&"crate") || segs.first() == Some(&"self") {
        segs.remove(0);
    }
    while segs.first() == Some(&"super") {
        segs.remove(0);
        base.pop()?;
    }
    let mut best = None;
    let mut cur = base.clone();
    if known.contains_key(&cur) {
        best = Some(cur.clone());
    }
    for s in segs {
        cur.push(s.to_string());
        if known.contains_key(&cur) {
            best = Some(cur.clone());
        } else {
            break;
        }
    }
    best
}

/// Cycles of the file graph (Tarjan's strongly connected components of
/// more than one file).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    let nodes: Vec<&Vec<String>> = edges.keys().collect();
    let index_of: BTreeMap<&Vec<String>, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut found) = (Vec::new(), 0, Vec::new());
    fn visit(
        v: usize,
        nodes: &[&Vec<String>],
        index_of: &BTreeMap<&Vec<String>, usize>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: (
            &mut Vec<usize>,
            &mut Vec<usize>,
            &mut Vec<bool>,
            &mut Vec<usize>,
            &mut usize,
        ),
        found: &mut Vec<Vec<Vec<String>>>,
    ) {
        let (index, low, on, stack, next) = state;
        index[v] = *next;
        low[v] = *next;
        *next += 1;
        stack.push(v);
        on[v] = true;
        for w in edges[nodes[v]].iter().filter_map(|t| index_of.get(t)) {
            if index[*w] == usize::MAX {
                visit(
                    *w,
                    nodes,
                    index_of,
                    edges,
                    (index, low, on, stack, next),
                    found,
                );
                low[v] = low[v].min(low[*w]);
            } else if on[*w] {
                low[v] = low[v].min(index[*w]);
            }
        }
        if low[v] == index[v] {
            let mut component = Vec::new();
            while let Some(w) = stack.pop() {
                on[w] = false;
                component.push(nodes[w].clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                found.push(component);
            }
        }
    }
    for v in 0..n {
        if index[v] == usize::MAX {
            visit(
                v,
                &nodes,
                &index_of,
                edges,
                (&mut index, &mut low, &mut on, &mut stack, &mut next),
                &mut found,
            );
        }
    }
    found
}

fn import_graph(root: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let known = modules(root);
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &known {
        let text = without_tests(&std::fs::read_to_string(file).unwrap());
        let targets = edges.entry(module.clone()).or_default();
        for path in paths(&text) {
            if let Some(target) = resolve(module, &path, &known) {
                if &target != module {
                    targets.insert(target);
                }
            }
        }
    }
    edges
}

fn assert_no_cycles(root: &Path) {
    let edges = import_graph(root);
    assert!(
        edges.len() > 10,
        "{}: {} modules read",
        root.display(),
        edges.len()
    );
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "{}: import circles (each a set of modules that reach each other): {:#?}",
        root.display(),
        found
            .iter()
            .map(|c| c.iter().map(|m| m.join("::")).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_library_has_no_import_circles() {
    assert_no_cycles(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
}

#[test]
fn the_cli_has_no_import_circles() {
    assert_no_cycles(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../topoembed-cli/src"));
}

#[test]
fn the_reader_sees_a_circle_when_there_is_one() {
    // a::x -> c (through `super::super` and a group), c -> a::x (a nested
    // group), b -> c (a path in an expression): a::x, b and c are a circle;
    // a only points into it.
    let dir = std::env::temp_dir().join(format!("topoembed-layout-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "mod x;\nuse crate::b::Thing;\n").unwrap();
    std::fs::write(dir.join("a/x.rs"), "use super::super::{c::Other, b};\n").unwrap();
    std::fs::write(
        dir.join("b.rs"),
        "pub struct Thing;\npub(in crate::a) fn f() { crate::c::g(); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c.rs"),
        "use crate::a::{x::{Y}};\n#[cfg(test)]\nmod tests {\nuse crate::b::Thing;\n}\n",
    )
    .unwrap();
    let edges = import_graph(&dir);
    let seg = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert!(edges[&seg("a::x")].contains(&seg("c")), "{edges:?}");
    assert!(edges[&seg("a::x")].contains(&seg("b")), "{edges:?}");
    assert!(
        !edges[&seg("c")].contains(&seg("b")),
        "the test module's import is left out: {edges:?}"
    );
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    let circle: BTreeSet<String> = found[0].iter().map(|m| m.join("::")).collect();
    assert_eq!(
        circle,
        ["a::x", "b", "c"].iter().map(|s| s.to_string()).collect()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The modules `from` reaches through imports, with the path to each.
fn reachable(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    from: &[String],
) -> BTreeMap<Vec<String>, Vec<Vec<String>>> {
    let mut seen: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([(from.to_vec(), vec![from.to_vec()])]);
    while let Some((module, path)) = queue.pop_front() {
        if seen.contains_key(&module) {
            continue;
        }
        seen.insert(module.clone(), path.clone());
        for next in edges.get(&module).into_iter().flatten() {
            let mut longer = path.clone();
            longer.push(next.clone());
            queue.push_back((next.clone(), longer));
        }
    }
    seen
}

/// A certificate is worth what its checker is: `verify-certificate` and
/// the DRAT checker must not reach, through any chain of imports, the
/// searches whose results they check (`optimal/search/`), nor the writer.
#[test]
fn the_certificate_verifier_trusts_nothing_of_the_search() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = import_graph(&root);
    let seg = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    for checker in ["optimal::certificate::verify", "optimal::proof::drat"] {
        assert!(edges.contains_key(&seg(checker)), "{checker} is not a file");
        let reached = reachable(&edges, &seg(checker));
        assert!(reached.contains_key(&seg("optimal::proof::sat")) || checker.ends_with("drat"));
        for (module, path) in &reached {
            let name = module.join("::");
            assert!(
                !name.starts_with("optimal::search")
                    && name != "optimal"
                    && name != "optimal::certificate::write",
                "{checker} reaches {name}: {}",
                path.iter()
                    .map(|m| m.join("::"))
                    .collect::<Vec<_>>()
                    .join(" -> ")
            );
        }
    }
}

/// The check above sees an import chain into the search when one is there.
#[test]
fn the_reachability_check_follows_chains() {
    let seg = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    edges.entry(seg("v")).or_default().insert(seg("b"));
    edges.entry(seg("b")).or_default().insert(seg("s::x"));
    edges.entry(seg("s::x")).or_default();
    let reached = reachable(&edges, &seg("v"));
    assert_eq!(reached[&seg("s::x")], vec![seg("v"), seg("b"), seg("s::x")]);
}

/// Folders over 15 files and files over 900 lines under `root`.
fn crowded(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if !root.exists() {
        return found;
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("data") {
                    stack.push(path);
                }
                continue;
            }
            files += 1;
            if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                if lines > 900 {
                    found.push(format!("{}: {lines} lines", path.display()));
                }
            }
        }
        if files > 15 {
            found.push(format!("{}: {files} files side by side", dir.display()));
        }
    }
    found
}

/// A room a newcomer can hold (issue 57): no source or test folder of any
/// crate with more than 15 files side by side, no source file over 900
/// lines (test fixtures under `data/` aside).
#[test]
fn rooms_stay_small() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for name in [
        "topoembed",
        "topoembed-cli",
        "topoembed-mpi",
        "topoembed-reorder",
        "topoembed-py",
    ] {
        found.extend(crowded(&crates.join(name).join("src")));
        found.extend(crowded(&crates.join(name).join("tests")));
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_crowded_room_is_seen() {
    let dir = std::env::temp_dir().join(format!("topoembed-rooms-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    for k in 0..16 {
        std::fs::write(dir.join(format!("f{k}.rs")), "").unwrap();
    }
    std::fs::write(dir.join("inner/long.rs"), "\n".repeat(901)).unwrap();
    let found = crowded(&dir);
    assert_eq!(found.len(), 2, "{found:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
