//! The architecture invariants of `docs/design.md`, checked on the source:
//!
//! - every source file of every crate is in the code map of
//!   `docs/design.md` (a newcomer finds every room from it), and each type
//!   a row of the map names (a backticked CamelCase name) is defined in
//!   that row's file;
//! - no two source files of a crate import each other, directly or round a
//!   circle, the root crate's layers are used downwards only, and each
//!   stage of the grading crate imports only from the floors below it, the
//!   stages its table of floors names;
//! - `unsafe` is in the sandbox crate alone: every other crate root and
//!   binary forbids it.
//!
//! The imports are read from the text: `crate::`, `super::` and `self::`
//! paths (in `use` trees and in code) and paths that start with a child
//! module's name, each resolved to the deepest module file it names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source folders of the workspace's crates: (crate root file, folder).
fn crates() -> Vec<(PathBuf, PathBuf)> {
    let mut crates = vec![(repo().join("src/lib.rs"), repo().join("src"))];
    for entry in fs::read_dir(repo().join("crates")).unwrap() {
        let dir = entry.unwrap().path().join("src");
        if dir.join("lib.rs").is_file() {
            crates.push((dir.join("lib.rs"), dir));
        }
    }
    crates
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(repo()).unwrap().display().to_string()
}

#[test]
fn every_source_file_is_in_the_code_map() {
    let design = fs::read_to_string(repo().join("docs/design.md")).unwrap();
    let mut missing = Vec::new();
    for (_, src) in crates() {
        for file in rust_files(&src) {
            let path = relative(&file);
            if !design.contains(&format!("`{path}`")) {
                missing.push(path);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/design.md's code map does not name (as `path`): {missing:#?}"
    );
}

/// The rows of the code map's tables: (the paths of the first column, the
/// rest of the row). A row is a line that starts with "| `".
fn code_map_rows(design: &str) -> Vec<(Vec<String>, String)> {
    design
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| {
            let (first, what) = row.split_once(" | ")?;
            let paths = backticked(&format!("`{first}"))
                .into_iter()
                .map(String::from)
                .collect();
            Some((paths, what.trim_end_matches('|').trim().to_string()))
        })
        .collect()
}

/// The texts between backticks in `text`, in order.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The types a row names: each backticked CamelCase name in its "what"
/// (the type of `Type::item` too), such as `Tables` or `Method::choose`. A
/// name of one word in capitals (`BOM`) or with `_` (`MAX_CELLS`) is none,
/// nor a path that starts in lower case (`std::ffi::OsString`: a mention of
/// a type defined elsewhere).
fn type_names(what: &str) -> Vec<&str> {
    let mut names: Vec<&str> = backticked(what)
        .into_iter()
        .map(|text| text.split("::").next().unwrap_or(""))
        .filter(|name| {
            name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().all(|c| c.is_ascii_alphanumeric())
                && name.chars().any(|c| c.is_ascii_lowercase())
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether `code` (comments and strings taken out) defines a type `name`:
/// `struct`, `enum`, `union`, `trait` or `type` followed by the name.
fn defines(code: &str, name: &str) -> bool {
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|pair| {
        ["struct", "enum", "union", "trait", "type"].contains(&pair[0]) && pair[1] == name
    })
}

/// The names the code map's rows give that their files do not define, as
/// "path: Name" (a row of several files: any of its Rust files), each row's
/// Rust files read by `read` (`None`: no such file).
fn undefined_names(design: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut undefined = Vec::new();
    for (paths, what) in code_map_rows(design) {
        let files: Vec<(&String, Option<String>)> = paths
            .iter()
            .filter(|p| p.ends_with(".rs"))
            .map(|p| (p, read(p).map(|text| code_only(&text))))
            .collect();
        if files.is_empty() {
            continue;
        }
        for (path, code) in &files {
            if code.is_none() {
                undefined.push(format!("{path}: no such file"));
            }
        }
        for name in type_names(&what) {
            let defined = files
                .iter()
                .any(|(_, code)| code.as_deref().is_some_and(|c| defines(c, name)));
            if !defined {
                let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
                undefined.push(format!("{}: {name}", paths.join(", ")));
            }
        }
    }
    undefined
}

#[test]
fn every_type_a_row_names_is_defined_in_its_file() {
    let design = fs::read_to_string(repo().join("docs/design.md")).unwrap();
    let read = |path: &str| fs::read_to_string(repo().join(path)).ok();
    let undefined = undefined_names(&design, &read);
    assert!(
        undefined.is_empty(),
        "docs/design.md's code map names types that its rows' files do not define \
         (a type of another file is written as a path, `job::Runner`, or without backticks): \
         {undefined:#?}"
    );
    // The check can fail: on a made-up map, each way.
    let toy = "| `a.rs` | `Here`, `Gone`, `There::new`, `std::ffi::OsString`, `MAX`, `BOM` |\n\
               | `b.rs`, `c.rs` | `Two` |\n\
               | `missing.rs` | plain |\n\
               | `Tests/` | `Whatever` |\n";
    let files = |path: &str| match path {
        "a.rs" => Some("pub struct Here; // struct Gone\nenum There {}\nconst MAX: u8 = 1;".into()),
        "b.rs" => Some("fn f() {}".into()),
        "c.rs" => Some("pub(crate) trait Two {}".into()),
        _ => None,
    };
    assert_eq!(
        undefined_names(toy, &files),
        ["a.rs: Gone", "missing.rs: no such file"]
    );
}

/// A file's module path in its crate: `src/solve/pattern/ida/mod.rs` is
/// `solve::pattern::ida`, `src/bin/puzzle/args.rs` is `bin::puzzle::args`
/// (a binary is a crate of its own, rooted at its `main.rs`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// `code` without its re-exports (`pub use`, `pub(crate) use`): a module
/// that hands on a child's items is its face, and does not depend on it.
fn without_reexports(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive(';') {
        let mut trimmed = line.trim_start();
        // Past its attributes (`#[cfg(...)]`).
        while let Some(rest) = trimmed.strip_prefix("#[") {
            let mut depth = 1;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(rest.len(), |(i, _)| i + 1);
            trimmed = rest[end..].trim_start();
        }
        let reexport = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .any(|p| trimmed.starts_with(p));
        if !reexport {
            out.push_str(line);
        }
    }
    out
}

/// `code` without the items under `#[cfg(test)]` (a test may use anything).
fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        // The item: up to its `;`, or its `{ ... }` balanced.
        let b = rest.as_bytes();
        let mut depth = 0;
        let mut end = b.len();
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The source without comments and string literals (so that a path in a
/// doc comment or a message is no import).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A character literal such as '"' or '{'.
            i += 3;
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The paths of a `use` tree or a path in code starting at `at` in `code`
/// (after its first segment), each as segments.
fn paths_at(code: &[u8], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        while *at < code.len() && code[*at].is_ascii_whitespace() {
            *at += 1;
        }
        if *at < code.len() && code[*at] == b'{' {
            *at += 1;
            loop {
                paths_at(code, at, path.clone(), out);
                while *at < code.len() && code[*at].is_ascii_whitespace() {
                    *at += 1;
                }
                match code.get(*at) {
                    Some(b',') => *at += 1,
                    Some(b'}') => {
                        *at += 1;
                        return;
                    }
                    _ => return,
                }
                while *at < code.len() && code[*at].is_ascii_whitespace() {
                    *at += 1;
                }
                if code.get(*at) == Some(&b'}') {
                    *at += 1;
                    return;
                }
            }
        }
        let start = *at;
        while *at < code.len() && (code[*at].is_ascii_alphanumeric() || code[*at] == b'_') {
            *at += 1;
        }
        if *at == start {
            out.push(path);
            return;
        }
        path.push(String::from_utf8_lossy(&code[start..*at]).into_owned());
        if code[*at..].starts_with(b"::") {
            *at += 2;
        } else {
            out.push(path);
            return;
        }
    }
}

/// The import edges between the module files of one crate (or binary):
/// file -> the files it names.
fn import_graph(src: &Path, files: &[PathBuf]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_path(src, f), relative(f)))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let me = module_path(src, file);
        let here = relative(file);
        let code = without_reexports(&without_tests(&code_only(
            &fs::read_to_string(file).unwrap(),
        )));
        let bytes = code.as_bytes();
        // The modules this file declares (its children).
        let children: Vec<String> = modules
            .keys()
            .filter(|m| m.len() == me.len() + 1 && m.starts_with(&me))
            .map(|m| m.last().unwrap().clone())
            .collect();
        let mut paths = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let boundary = i == 0 || {
                let p = bytes[i - 1];
                !(p.is_ascii_alphanumeric() || p == b'_' || p == b':')
            };
            let word_end = (i..bytes.len())
                .find(|&j| !(bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_'))
                .unwrap_or(bytes.len());
            if boundary && word_end > i && bytes[word_end..].starts_with(b"::") {
                let word = &code[i..word_end];
                let base: Option<Vec<String>> = match word {
                    "crate" => Some(Vec::new()),
                    "self" => Some(me.clone()),
                    "super" => {
                        // `super::super::...` climbs once a `super`.
                        let mut base = me.clone();
                        base.pop();
                        let mut j = word_end + 2;
                        while code[j..].starts_with("super::") {
                            base.pop();
                            j += 7;
                        }
                        let mut at = j;
                        paths_at(bytes, &mut at, base, &mut paths);
                        i = at.max(i + 1);
                        continue;
                    }
                    w if children.iter().any(|c| c == w) => {
                        let mut base = me.clone();
                        base.push(w.to_string());
                        Some(base)
                    }
                    _ => None,
                };
                if let Some(base) = base {
                    let mut at = word_end + 2;
                    paths_at(bytes, &mut at, base, &mut paths);
                    i = at.max(i + 1);
                    continue;
                }
            }
            i = word_end.max(i + 1);
        }
        // The crate's root file only declares the modules and re-exports
        // their items: it is no room of the graph, either way.
        if me.is_empty() {
            continue;
        }
        for path in paths {
            // The deepest module the path names (not the root).
            let target = (1..=path.len())
                .rev()
                .find_map(|n| modules.get(&path[..n]))
                .cloned();
            if let Some(target) = target.filter(|t| *t != here) {
                graph.entry(here.clone()).or_default().insert(target);
            }
        }
        graph.entry(here).or_default();
    }
    graph
}

/// The circles of `graph`: its strongly connected parts of two or more.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Two files are on one circle when each reaches the other.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for next in graph.get(&n).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|n| (n, reach(n))).collect();
    let mut found: Vec<Vec<String>> = Vec::new();
    for n in graph.keys() {
        let circle: Vec<String> = graph
            .keys()
            .filter(|m| *m == n || (reaches[n].contains(*m) && reaches[*m].contains(n)))
            .cloned()
            .collect();
        if circle.len() > 1 && !found.contains(&circle) {
            found.push(circle);
        }
    }
    found
}

/// Each crate's library and each binary, as (source folder, files).
fn units() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut units = Vec::new();
    for (_, src) in crates() {
        let bin = src.join("bin");
        let lib: Vec<PathBuf> = rust_files(&src)
            .into_iter()
            .filter(|f| !f.starts_with(&bin))
            .collect();
        units.push((src.clone(), lib));
        if bin.is_dir() {
            for entry in fs::read_dir(&bin).unwrap() {
                let dir = entry.unwrap().path();
                if dir.is_dir() {
                    units.push((dir.clone(), rust_files(&dir)));
                }
            }
        }
    }
    units
}

#[test]
fn no_source_file_imports_another_that_imports_it_back() {
    let mut all = Vec::new();
    for (src, files) in units() {
        let graph = import_graph(&src, &files);
        all.extend(circles(&graph));
    }
    assert!(all.is_empty(), "import circles: {all:#?}");
}

#[test]
fn the_root_crates_layers_are_used_downwards() {
    // docs/design.md: board_adt, then input and generate, then solve, then
    // report, then batch.
    let layer = |file: &str| -> Option<u32> {
        let rest = file.strip_prefix("src/")?;
        let top = rest.split(['/', '.']).next()?;
        Some(match top {
            "board_adt" => 0,
            "input" | "generate" => 1,
            "solve" => 2,
            "report" => 3,
            "batch" => 4,
            _ => return None,
        })
    };
    let src = repo().join("src");
    let files: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| !f.starts_with(src.join("bin")))
        .collect();
    let graph = import_graph(&src, &files);
    let mut upwards = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    upwards.push(format!("{from} -> {to}"));
                }
            }
        }
    }
    assert!(upwards.is_empty(), "imports up the layers: {upwards:#?}");
    // The reader can fail: a circle it must see.
    let mut toy = BTreeMap::new();
    toy.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    toy.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(circles(&toy), [["a", "b"]]);
}

/// The grading crate's floors as `docs/design.md` states them: the rows
/// of its table of floors (`| N | `stage/`, ... | what | `stage`, ... |`),
/// each stage (a folder or a file of `crates/grade/src/`, as written) with
/// its floor and the stages it says it imports from.
fn grading_floors(design: &str) -> BTreeMap<String, (u32, BTreeSet<String>)> {
    let mut floors = BTreeMap::new();
    for line in design.lines() {
        let Some(row) = line.strip_prefix("| ") else {
            continue;
        };
        let cells: Vec<&str> = row.trim_end_matches('|').split(" | ").collect();
        let (Some(floor), [_, stages, _, imports]) =
            (cells[0].trim().parse::<u32>().ok(), &cells[..])
        else {
            continue;
        };
        let imports: BTreeSet<String> = backticked(imports).into_iter().map(String::from).collect();
        for stage in backticked(stages) {
            floors.insert(stage.to_string(), (floor, imports.clone()));
        }
    }
    floors
}

/// The stage of a file of the grading crate's library (`shared/` for
/// `crates/grade/src/shared/name.rs`, `engine.rs` for itself); none for
/// its root, `lib.rs`.
fn grading_stage(file: &str) -> Option<String> {
    let rest = file.strip_prefix("crates/grade/src/")?;
    match rest.split_once('/') {
        Some((folder, _)) => Some(format!("{folder}/")),
        None if rest == "lib.rs" => None,
        None => Some(rest.to_string()),
    }
}

/// The imports of `graph` against `floors`: each from a stage to a stage
/// on its own floor or above it, as "from -> to".
fn against_the_floors(
    graph: &BTreeMap<String, BTreeSet<String>>,
    floors: &BTreeMap<String, (u32, BTreeSet<String>)>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, tos) in graph {
        for to in tos {
            let (Some(a), Some(b)) = (grading_stage(from), grading_stage(to)) else {
                continue;
            };
            if let (Some((fa, _)), Some((fb, _))) = (floors.get(&a), floors.get(&b)) {
                if a != b && fb >= fa {
                    wrong.push(format!("{from} -> {to}"));
                }
            }
        }
    }
    wrong
}

#[test]
fn the_grading_crates_stages_stand_on_the_floors_below() {
    let design = fs::read_to_string(repo().join("docs/design.md")).unwrap();
    let floors = grading_floors(&design);
    let src = repo().join("crates/grade/src");
    // Tests only (`testing/`) may use any stage; the binary is a crate of
    // its own, which uses the library's face alone.
    let files: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| !f.starts_with(src.join("bin")) && !f.starts_with(src.join("testing")))
        .collect();
    let graph = import_graph(&src, &files);
    // Every stage is on a floor, and the table names no stage that is not.
    let stages: BTreeSet<String> = files
        .iter()
        .filter_map(|f| grading_stage(&relative(f)))
        .collect();
    let listed: BTreeSet<String> = floors.keys().cloned().collect();
    assert_eq!(
        stages, listed,
        "the stages of crates/grade/src and those of docs/design.md's table of floors differ"
    );
    let wrong = against_the_floors(&graph, &floors);
    assert!(
        wrong.is_empty(),
        "imports of a stage on the same floor or above (docs/design.md's table of floors): {wrong:#?}"
    );
    // What each stage imports is what the table says, no more, no less.
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in &graph {
        let Some(a) = grading_stage(from) else {
            continue;
        };
        let entry = imports.entry(a.clone()).or_default();
        entry.extend(
            tos.iter()
                .filter_map(|t| grading_stage(t))
                .filter(|b| *b != a),
        );
    }
    for (stage, (_, said)) in &floors {
        let found = imports.get(stage).cloned().unwrap_or_default();
        assert_eq!(
            &found, said,
            "{stage} imports from these stages, not those docs/design.md's table of floors names"
        );
    }
    // The check can fail: on a made-up house, an import up a floor and one
    // across a floor.
    let toy_floors = grading_floors(
        "| 0 | `shared/` | ground | nothing |\n| 1 | `intake/`, `judging/` | x | `shared/` |\n| 2 | `modes/` | y | `intake/` |\n",
    );
    assert_eq!(toy_floors.len(), 4);
    let edge = |a: &str, b: &str| {
        (
            format!("crates/grade/src/{a}"),
            format!("crates/grade/src/{b}"),
        )
    };
    let mut toy: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [
        edge("modes/m.rs", "intake/i.rs"),
        edge("intake/i.rs", "shared/s.rs"),
        edge("intake/i.rs", "judging/j.rs"),
        edge("shared/s.rs", "modes/m.rs"),
        edge("intake/i.rs", "intake/other.rs"),
    ] {
        toy.entry(a).or_default().insert(b);
    }
    assert_eq!(
        against_the_floors(&toy, &toy_floors),
        [
            "crates/grade/src/intake/i.rs -> crates/grade/src/judging/j.rs",
            "crates/grade/src/shared/s.rs -> crates/grade/src/modes/m.rs"
        ]
    );
}

#[test]
fn the_import_reader_sees_use_trees_and_paths_in_code() {
    let code = without_tests(&code_only(
        "use super::{a::X, b::{Y, c::Z}};\n// crate::nope::X\nfn f() { crate::d::e(\"super::s::t\"); kid::g(); }\n#[cfg(test)]\nmod tests { use crate::gone::X; }",
    ));
    let bytes = code.as_bytes();
    let mut paths = Vec::new();
    let start = code.find("super::").unwrap() + 7;
    let mut at = start;
    paths_at(bytes, &mut at, vec!["p".into()], &mut paths);
    assert_eq!(
        paths,
        [
            vec!["p", "a", "X"],
            vec!["p", "b", "Y"],
            vec!["p", "b", "c", "Z"]
        ]
    );
    assert!(!code.contains("nope") && !code.contains("super::s") && !code.contains("gone"));
}

#[test]
fn unsafe_code_is_in_the_sandbox_crate_alone() {
    let mut roots = vec![repo().join("src/lib.rs")];
    let mut offending = Vec::new();
    for (root, src) in crates() {
        let sandbox = src.starts_with(repo().join("crates/sandbox"));
        roots.push(root);
        let bin = src.join("bin");
        if bin.is_dir() {
            for entry in fs::read_dir(&bin).unwrap() {
                roots.push(entry.unwrap().path().join("main.rs"));
            }
        }
        for file in rust_files(&src) {
            let code = code_only(&fs::read_to_string(&file).unwrap());
            let has_unsafe = code
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == "unsafe");
            if has_unsafe && !sandbox {
                offending.push(relative(&file));
            }
        }
        if sandbox {
            roots.pop();
        }
    }
    assert!(
        offending.is_empty(),
        "unsafe outside crates/sandbox: {offending:?}"
    );
    for root in roots {
        if root.starts_with(repo().join("crates/sandbox")) {
            continue;
        }
        let text = fs::read_to_string(&root).unwrap();
        assert!(
            text.contains("#![forbid(unsafe_code)]"),
            "{} does not forbid unsafe code",
            relative(&root)
        );
    }
}
