//! The README's command-line examples (its `console` blocks), run as written: each `$ gamesolver
//! …` line is run and its output compared with the lines under it. Timings are compared as
//! `<t>`; in `play`, what is typed after a prompt is sent as input. A pipeline runs in `sh`
//! with this build's binary first on the PATH.

#![cfg(feature = "cli")]

use std::process::Command;

mod common;

/// Timings change from run to run: `in 0.000002 s` and `"seconds":0.000001` become `<t>`.
fn without_timings(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let number_end = rest[at..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(rest.len(), |end| at + end);
        let before = &rest[..at];
        let timing_key = before.ends_with("\"seconds\":");
        // JSON writes small timings with an exponent (2e-6).
        let number_end = if timing_key {
            rest[at..]
                .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
                .map_or(rest.len(), |end| at + end)
        } else {
            number_end
        };
        let after = &rest[number_end..];
        let timing = (before.ends_with("in ") && after.starts_with(" s")) || timing_key;
        out.push_str(before);
        out.push_str(if timing { "<t>" } else { &rest[at..number_end] });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The prompt of `play`, after which the README shows what the person typed.
const PROMPT: &str = "Your move (";

#[test]
fn the_readme_console_examples_print_what_it_shows() {
    let readme = include_str!("../README.md");
    let mut examples = 0;
    for block in readme.split("```console\n").skip(1) {
        let block = &block[..block.find("```").expect("a console block ends")];
        for example in block.split("$ ").filter(|text| !text.trim().is_empty()) {
            let (command, shown) = example.split_once('\n').unwrap_or((example, ""));
            // Words as a shell would pass them (no word of the examples has a space inside its
            // quotes).
            let words: Vec<&str> = command
                .split_whitespace()
                .map(|word| word.trim_matches('\''))
                .collect();
            assert_eq!(words[0], "gamesolver", "{command}");
            // What the person types after each prompt is the input; the prompt stays.
            let mut typed = String::new();
            let mut expected = Vec::new();
            for line in shown.lines().filter(|line| !line.is_empty()) {
                match line
                    .find(PROMPT)
                    .and_then(|at| line[at..].find("): ").map(|end| at + end + 3))
                {
                    Some(end) => {
                        typed.push_str(&line[end..]);
                        typed.push('\n');
                        expected.push(line[..end].trim_end().to_string());
                    }
                    None => expected.push(without_timings(line)),
                }
            }
            let binary = std::path::Path::new(env!("CARGO_BIN_EXE_gamesolver"));
            let run = if command.contains(['|', '&', ';', '>']) {
                // A pipeline: run by the shell, with this build's binary first on the PATH.
                let path = std::env::var_os("PATH").unwrap_or_default();
                let mut dirs = vec![binary.parent().unwrap().to_path_buf()];
                dirs.extend(std::env::split_paths(&path));
                let mut run = Command::new("sh");
                run.args(["-c", command])
                    .env("PATH", std::env::join_paths(dirs).unwrap());
                run
            } else {
                let mut run = Command::new(binary);
                run.args(&words[1..]);
                run
            };
            let output = common::output_of(run, Some(typed.as_bytes()));
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            // A prompt is not followed by a new line when the input is not echoed.
            let printed = printed.replace("): ", "):\n");
            let actual: Vec<String> = printed
                .lines()
                .filter(|line| !line.is_empty())
                .map(|line| without_timings(line.trim_end()))
                .collect();
            let expected: Vec<String> = expected
                .iter()
                .flat_map(|line| {
                    let split = line.replace("): ", "):\n");
                    split.lines().map(str::to_string).collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(actual, expected, "$ {command}");
            examples += 1;
        }
    }
    assert!(examples >= 6, "{examples} examples found");
}
