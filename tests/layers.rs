//! The source's own shape: no import circle between the files of `src/` (the library, with the
//! command line under `src/cli/`), no file of the command line that names a bundled game, and
//! no file under `src/` or `games/` past 700 lines.
//!
//! Each file's references to other modules (`use` lines and paths in code that start with
//! `crate::` or `super::`) become edges to the file that defines what they name. A reference
//! to an item that a module re-exports from one of its children (`pub use child::Item`)
//! goes to the child's file, so a folder's `mod.rs` that only declares and re-exports its
//! children is no knot. Unit tests (`#[cfg(test)]` modules and `tests.rs` files) may reach
//! up and are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a file under `src/` may have.
const MOST_LINES: usize = 700;

/// A module path (`["solve", "kernel", "guard"]`) and the file that holds it.
struct Module {
    path: Vec<String>,
    file: PathBuf,
    /// The code, without comments, string contents and unit tests.
    code: String,
}

/// Every module under `dir`, for a crate rooted at `root` (`lib.rs` or `main.rs`).
fn modules(src: &Path, root: &str) -> Vec<Module> {
    let mut found = Vec::new();
    let root_file = src.join(root);
    found.push(Module {
        path: Vec::new(),
        code: code_of(&root_file),
        file: root_file,
    });
    let mut index = 0;
    while index < found.len() {
        let children: Vec<(String, PathBuf)> = declared(&found[index], src);
        let path = found[index].path.clone();
        for (name, file) in children {
            let mut child = path.clone();
            child.push(name);
            found.push(Module {
                path: child,
                code: code_of(&file),
                file,
            });
        }
        index += 1;
    }
    found
}

/// The modules `module` declares (`mod name;`, with `#[path]` honoured), with their files.
fn declared(module: &Module, src: &Path) -> Vec<(String, PathBuf)> {
    let dir = match module.file.file_name().and_then(|name| name.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs") => module.file.parent().unwrap().to_path_buf(),
        _ => module.file.with_extension(""),
    };
    let mut children = Vec::new();
    let mut path_attribute: Option<String> = None;
    for line in module.code.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.split('"').next().map(str::to_string);
            continue;
        }
        let declaration = line
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ");
        if let Some(rest) = declaration.strip_prefix("mod ")
            && let Some(name) = rest.strip_suffix(';')
        {
            let file = match path_attribute.take() {
                Some(path) => dir.join(path),
                None if dir.join(format!("{name}.rs")).exists() => dir.join(format!("{name}.rs")),
                None => dir.join(name).join("mod.rs"),
            };
            if name != "tests" && file.exists() && file.starts_with(src.parent().unwrap()) {
                children.push((name.to_string(), file));
            }
        } else if !line.starts_with("#[") {
            path_attribute = None;
        }
    }
    children
}

/// A file's code without comments, the contents of strings, and its unit tests (each module
/// under `#[cfg(test)]` or `#[cfg(all(test, …))]`, at any depth).
fn code_of(file: &Path) -> String {
    let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    without_tests(&without_comments_and_strings(&text))
}

/// `code` without its unit-test modules: from a `#[cfg(test)]` (or `#[cfg(all(test`) line
/// followed by a `mod`, to the brace that closes the module.
fn without_tests(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let mut kept = String::new();
    let mut index = 0;
    while index < lines.len() {
        let trimmed = lines[index].trim_start();
        let is_test = trimmed.starts_with("#[cfg(test)]") || trimmed.starts_with("#[cfg(all(test");
        let module_follows = lines
            .get(index + 1)
            .is_some_and(|next| next.trim_start().starts_with("mod "));
        if !(is_test && module_follows) {
            kept.push_str(lines[index]);
            kept.push('\n');
            index += 1;
            continue;
        }
        let mut depth = 0i64;
        let mut opened = false;
        index += 1;
        while index < lines.len() {
            for character in lines[index].chars() {
                match character {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            index += 1;
            if opened && depth <= 0 {
                break;
            }
        }
    }
    kept
}

/// `text` without comment lines and with the contents of its strings dropped (a path in a
/// message is no import).
fn without_comments_and_strings(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[path") {
            code.push_str(trimmed);
            code.push('\n');
            continue;
        }
        // Strings: keep the quotes, drop what is inside (a path in a message is no import).
        let mut inside = false;
        let mut previous = ' ';
        for character in line.chars() {
            if character == '"' && previous != '\\' {
                inside = !inside;
                code.push('"');
            } else if !inside {
                code.push(character);
            }
            previous = if previous == '\\' && character == '\\' {
                ' '
            } else {
                character
            };
        }
        code.push('\n');
    }
    code
}

/// The paths a module's code names that start with `crate::` or `super::`, resolved to module
/// paths from the crate root (with the item's name last). `use` groups are expanded.
fn references(module: &Module) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let code = &module.code;
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let starts = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (at == 0
                || !(bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':'));
        if !starts {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let length = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let path = rest[..length].trim_end_matches(':');
        let after = &rest[length..];
        let mut base: Vec<String> = Vec::new();
        let mut segments = path.split("::").peekable();
        match segments.peek() {
            Some(&"crate") => {
                segments.next();
            }
            _ => {
                base = module.path.clone();
                while segments.peek() == Some(&"super") {
                    segments.next();
                    base.pop();
                }
            }
        }
        base.extend(segments.filter(|s| !s.is_empty()).map(str::to_string));
        if rest[..length].ends_with("::") && after.starts_with('{') {
            let end = after.find('}').unwrap_or(after.len());
            for item in after[1..end].split(',') {
                let item = item.trim().split(" as ").next().unwrap().trim();
                if item.is_empty() || item == "self" || item == "*" {
                    paths.push(base.clone());
                    continue;
                }
                let mut full = base.clone();
                full.extend(item.split("::").map(str::to_string));
                paths.push(full);
            }
        } else {
            paths.push(base);
        }
        at += length.max(1);
    }
    paths
}

/// The file that defines what `path` names: the deepest module on the path, or, where that
/// module re-exports the name from a child (`pub use child::…Name…`), that child's file.
fn target<'a>(modules: &'a [Module], path: &[String]) -> Option<&'a Module> {
    let by_path: BTreeMap<&[String], &Module> =
        modules.iter().map(|m| (m.path.as_slice(), m)).collect();
    let mut length = path.len();
    while length > 0 && !by_path.contains_key(&path[..length]) {
        length -= 1;
    }
    let mut module = *by_path.get(&path[..length])?;
    // Follow re-exports from children, one level at a time.
    let mut name = path.get(length).cloned();
    while let Some(item) = name.take() {
        let Some(child) = reexporting_child(module, &item) else {
            break;
        };
        let mut child_path = module.path.clone();
        child_path.push(child);
        match by_path.get(child_path.as_slice()) {
            Some(next) => {
                module = next;
                name = Some(item);
            }
            None => break,
        }
    }
    Some(module)
}

/// The child module from which `module` re-exports `item`, if it does.
fn reexporting_child(module: &Module, item: &str) -> Option<String> {
    for statement in module.code.split(';') {
        let statement = statement.trim();
        let Some(at) = statement.find("use ") else {
            continue;
        };
        if !statement[..at].contains("pub") {
            continue;
        }
        let used = &statement[at + 4..];
        if used.starts_with("crate::") || used.starts_with("super::") || used.starts_with("std::") {
            continue;
        }
        let Some((child, rest)) = used.split_once("::") else {
            continue;
        };
        let names = rest.replace(['{', '}'], ",");
        if names.split(',').map(str::trim).any(|name| {
            name == item
                || name.ends_with(&format!(" as {item}"))
                || name.rsplit("::").next() == Some(item)
        }) {
            return Some(child.trim().to_string());
        }
    }
    None
}

/// Every import circle among the files of a crate, each as its files in order.
fn circles(src: &Path, root: &str) -> Vec<Vec<String>> {
    let modules = modules(src, root);
    let name = |m: &Module| {
        m.file
            .strip_prefix(src.parent().unwrap())
            .unwrap()
            .display()
            .to_string()
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for module in &modules {
        let from = name(module);
        if from.ends_with("tests.rs") {
            continue;
        }
        for path in references(module) {
            if let Some(to) = target(&modules, &path) {
                let to = name(to);
                if to != from {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    // A depth-first search that reports each back edge's circle.
    let mut found = Vec::new();
    let mut state: BTreeMap<String, u8> = BTreeMap::new();
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|n| n == next).unwrap();
                    let mut circle = stack[at..].to_vec();
                    circle.push(next.clone());
                    found.push(circle);
                }
                Some(_) => {}
                None => visit(next, edges, state, stack, found),
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
    }
    let nodes: Vec<String> = edges.keys().cloned().collect();
    for node in nodes {
        if !state.contains_key(&node) {
            visit(&node, &edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_library_has_no_import_circle() {
    let found = circles(&src(), "lib.rs");
    assert!(found.is_empty(), "import circles: {found:#?}");
}

#[test]
fn the_command_line_is_in_the_library() {
    // The `gamesolver` binary is one call into `cli`, so the library's check above covers the
    // command line's files: they are modules of the library (behind the `cli` feature).
    let found = modules(&src(), "lib.rs");
    assert!(found.iter().any(|m| m.file.ends_with("cli/entry.rs")));
    assert!(
        modules(&src(), "main.rs").len() == 1,
        "main.rs declares no module"
    );
}

#[test]
fn the_command_line_names_no_game() {
    // The bundled games import `cli` (their presentation and their entry in the list) and the
    // binary hands their list to `main_with`: a file of `cli` that named a game would make the
    // command line a user's tool runs depend on our games.
    let found = modules(&src(), "lib.rs");
    let naming: Vec<String> = found
        .iter()
        .filter(|module| module.path.first().is_some_and(|name| name == "cli"))
        .filter(|module| {
            references(module)
                .iter()
                .any(|path| path.first().is_some_and(|name| name == "games"))
        })
        .map(|module| module.file.display().to_string())
        .collect();
    assert!(found.iter().any(|m| m.path == ["cli", "entry"]));
    assert!(
        naming.is_empty(),
        "files of cli that name a game: {naming:?}"
    );
}

#[test]
fn unit_tests_are_left_out_at_any_depth() {
    let code = "use crate::a::A;\nmod cli {\n    use crate::b::B;\n    #[cfg(test)]\n    mod tests {\n        \
                use crate::c::C;\n        fn f() { if x { y } }\n    }\n    use crate::d::D;\n}\n\
                #[cfg(all(test, feature = \"cli\"))]\nmod tests {\n    use crate::e::E;\n}\nuse crate::f::F;\n";
    let kept = without_tests(&without_comments_and_strings(code));
    for (name, left) in [
        ("a", true),
        ("b", true),
        ("c", false),
        ("d", true),
        ("e", false),
        ("f", true),
    ] {
        assert_eq!(
            kept.contains(&format!("crate::{name}::")),
            left,
            "{name} in {kept}"
        );
    }
}

#[test]
fn the_checker_finds_a_circle() {
    // Two files that import each other, and a facade that re-exports a child: the circle is
    // found, the facade is not one.
    let dir = std::env::temp_dir().join(format!("gamesolver-layers-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("core")).unwrap();
    fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod core;\n").unwrap();
    fs::write(
        src.join("a.rs"),
        "use crate::b::Thing;\npub struct Other;\n",
    )
    .unwrap();
    fs::write(
        src.join("b.rs"),
        "use super::a::Other;\npub struct Thing;\nuse crate::core::Inner;\n",
    )
    .unwrap();
    fs::write(
        src.join("core/mod.rs"),
        "mod inner;\npub use inner::Inner;\n",
    )
    .unwrap();
    fs::write(
        src.join("core/inner.rs"),
        "pub struct Inner;\nuse super::Inner as Again;\n",
    )
    .unwrap();
    let found = circles(&src, "lib.rs");
    fs::remove_dir_all(&dir).ok();
    assert_eq!(found, vec![vec!["src/a.rs", "src/b.rs", "src/a.rs"]]);
}

#[test]
fn no_file_under_src_or_games_is_past_700_lines() {
    let mut long = Vec::new();
    let mut folders = vec![src(), src().with_file_name("games")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = fs::read_to_string(&path).unwrap().lines().count();
                if lines > MOST_LINES {
                    long.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    assert!(long.is_empty(), "past {MOST_LINES} lines: {long:?}");
}

/// The public entries of a crate root's text: its public modules, items and re-exported names
/// (`pub use a::{B, C}` is two), leaving out what only doctests compile (`#[cfg(doctest)]`).
fn root_entries(code: &str) -> Vec<String> {
    let mut entries = Vec::new();
    let mut doctest_only = false;
    let mut lines = code.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line.starts_with("#[cfg(doctest)]") {
            doctest_only = true;
        } else if let Some(used) = line.strip_prefix("pub use ") {
            // A use statement runs to its `;`, over several lines where rustfmt breaks it.
            let mut statement = used.to_string();
            while !statement.ends_with(';') {
                let Some(next) = lines.next() else { break };
                statement.push_str(next);
            }
            let names = statement.trim_end_matches(';').trim_end_matches('}');
            let names = names.split_once('{').map_or(names, |(_, inside)| inside);
            entries.extend(
                names
                    .split(',')
                    .filter_map(|name| name.trim().rsplit("::").next())
                    .filter(|name| !name.is_empty())
                    .map(str::to_string),
            );
        } else if let Some(item) = line.strip_prefix("pub ") {
            if !std::mem::take(&mut doctest_only) {
                let name = item.split_whitespace().nth(1).unwrap_or(item);
                let name = name.split(['(', '<', ';', '{']).next().unwrap_or(name);
                entries.push(name.to_string());
            }
        } else if !line.starts_with('#') && !line.starts_with("//") && !line.is_empty() {
            doctest_only = false;
        }
    }
    entries
}

#[test]
fn the_crate_root_has_at_most_30_entries() {
    // The front door: the rustdoc page of the crate root lists its modules, its items and its
    // re-exports; at most 30 together, each listed once.
    let entries = root_entries(&code_of(&src().join("lib.rs")));
    assert!(
        entries.len() <= 30,
        "{} entries: {entries:?}",
        entries.len()
    );
    let mut unique = entries.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), entries.len(), "{entries:?}");
    for expected in [
        "engines",
        "Game",
        "Solver",
        "Error",
        "SolveError",
        "InputError",
    ] {
        assert!(
            entries.iter().any(|entry| entry == expected),
            "{expected}: {entries:?}"
        );
    }
}

#[test]
fn the_root_count_reads_modules_items_and_each_name_of_a_use() {
    let code = "//! Docs.\n#![deny(missing_docs)]\npub mod a;\nmod hidden;\n#[path = \"x\"]\npub mod b;\n\
                pub use a::{One, Two,\n    Three};\npub use b::Four;\n#[cfg(doctest)]\npub struct Doc;\n\
                pub fn five() {}\n";
    assert_eq!(
        root_entries(code),
        ["a", "b", "One", "Two", "Three", "Four", "five"]
    );
}
