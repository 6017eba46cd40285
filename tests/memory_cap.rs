//! The memory promise through the binary: a run over its budget is refused with one `error:`
//! line, never killed, and it never holds more than the budget plus a small constant.
//!
//! Each run is under a process address-space cap (`ulimit -v`) of its `--memory-limit` plus
//! [`CONSTANT`], the documented allowance for the binary, its stacks and the allocator. Address
//! space bounds resident memory from above, so a run that ends with its own message (not
//! "memory allocation failed" and exit 134) stayed within budget plus constant.

#![cfg(all(target_os = "linux", feature = "cli"))]

mod common;

use std::process::{Command, Output};

use common::output_of;

/// The documented allowance beyond the budget (README, docs/architecture.md): the program, its
/// main stack, the allocator's arenas and what the output holds.
const CONSTANT: u64 = 64 << 20;

/// How much of [`CONSTANT`] is the program itself: the release binary maps about 13 MiB. The
/// debug binary these tests run maps far more (63 MiB), so its excess over this is added to the
/// budget-plus-constant caps: what they hold a run to beyond the program stays the same.
const PROGRAM: u64 = 16 << 20;

/// The bytes the binary maps from its file: the sum of its ELF loadable segments, each rounded
/// up to whole pages.
fn program_bytes() -> u64 {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_gamesolver")).expect("the binary reads");
    let word = |at: usize, bytes: usize| {
        elf[at..at + bytes]
            .iter()
            .rev()
            .fold(0u64, |value, &byte| value << 8 | u64::from(byte))
    };
    assert_eq!(&elf[..5], b"\x7fELF\x02", "a 64-bit ELF binary");
    let (table, entry, entries) = (word(0x20, 8), word(0x36, 2), word(0x38, 2));
    (0..entries)
        .map(|at| (table + at * entry) as usize)
        .filter(|&header| word(header, 4) == 1)
        .map(|header| word(header + 0x28, 8).div_ceil(4096) * 4096)
        .sum()
}

/// Runs the binary under an address-space cap of `cap` bytes.
fn capped(cap: u64, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", cap / 1024))
        .arg(env!("CARGO_BIN_EXE_gamesolver"))
        .args(args);
    output_of(command, stdin)
}

/// Runs `args` with `--memory-limit budget` under a cap of the budget plus [`CONSTANT`], and
/// asserts one `error:` line naming the memory budget, exit 1, and nothing on stdout.
fn refused(budget: u64, args: &[&str], stdin: Option<&[u8]>, needle: &str) {
    let limit = budget.to_string();
    let mut all = args.to_vec();
    all.extend(["--memory-limit", &limit]);
    let output = capped(
        budget + CONSTANT + program_bytes().saturating_sub(PROGRAM),
        &all,
        stdin,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

/// Runs `args` with `--memory-limit budget` under the cap, and asserts that it succeeds.
fn fits(budget: u64, args: &[&str]) -> String {
    let limit = budget.to_string();
    let mut all = args.to_vec();
    all.extend(["--memory-limit", &limit]);
    let output = capped(
        budget + CONSTANT + program_bytes().saturating_sub(PROGRAM),
        &all,
        None,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesolver-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn zeros(n: usize) -> Vec<u8> {
    "0,".repeat(n).into_bytes()
}

/// Row 1: the specialised Stone Game VIII solver and its line count against the budget.
#[test]
fn stone_game_viii_specialised_is_within_the_budget() {
    let million = temp_file("viii-zeros.txt", &zeros(1_000_000));
    let path = million.to_str().unwrap();
    refused(
        10 << 20,
        &["stone-game-viii", "--input", path],
        None,
        "memory budget",
    );
    // A budget that fits runs to the end under the same kind of cap, line and all.
    let stdout = fits(64 << 20, &["stone-game-viii", "--input", path, "--json"]);
    assert!(stdout.starts_with("{\"game\":\"stone-game-viii\",\"n\":1000000,\"answer\":0"));
}

/// Row 2: reading the input is bounded (`/dev/zero` never ends).
#[test]
fn an_endless_input_is_refused_at_the_budget() {
    refused(
        16 << 20,
        &["stone-game-ii", "--input", "/dev/zero"],
        None,
        "the input (/dev/zero: more than",
    );
    let endless = vec![b'7'; 40 << 20];
    refused(
        16 << 20,
        &["stone-game-ii", "--input", "-"],
        Some(&endless),
        "the input (standard input",
    );
}

/// Row 3: the specialised Stone Game II solver counts its sliding windows (7 MiB: the table
/// fits, the windows do not).
#[test]
fn stone_game_ii_specialised_counts_its_windows() {
    let piles: Vec<String> = (0..3000)
        .map(|i| ((i * 7919) % 1000 + 1).to_string())
        .collect();
    let file = temp_file("ii-3000.txt", piles.join(",").as_bytes());
    let path = file.to_str().unwrap();
    refused(
        7 << 20,
        &["stone-game-ii", "--input", path],
        None,
        "sliding windows",
    );
    let stdout = fits(10 << 20, &["stone-game-ii", "--input", path, "--json"]);
    assert!(stdout.contains("\"answer\":750432"), "{stdout}");
}

/// Row 4: the parallel engine's workers share one account for their stacks.
#[test]
fn parallel_workers_share_the_budget() {
    let file = temp_file("viii-200k.txt", &zeros(200_000));
    let path = file.to_str().unwrap();
    refused(
        48 << 20,
        &[
            "stone-game-viii",
            "--input",
            path,
            "--solver",
            "parallel",
            "--threads",
            "16",
        ],
        None,
        "memory budget",
    );
}

/// Row 5 and the capped checks: the checker's walk is within the budget and its work bounded.
#[test]
fn the_checker_is_within_the_budget() {
    refused(10 << 20, &["check", "nim", "12000"], None, "the check (");
    // Under a cap and the default budget (half the cap), these used to abort.
    for args in [
        &["check", "nim", "30000"][..],
        &["check", "stone-game-viii"],
    ] {
        let values: Vec<String> = (0..10_000)
            .map(|i| ((i * 7919) % 2001 - 1000).to_string())
            .collect();
        let file = temp_file("viii-check.txt", values.join(" ").as_bytes());
        let mut all = args.to_vec();
        if args[1] == "stone-game-viii" {
            all.extend(["--input", file.to_str().unwrap()]);
        }
        let output = capped(512 << 20, &all, None);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{all:?}: {stderr}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("no violation"), "{stdout}");
    }
}

/// Threads: their stacks count against the budget; a failure to start them is one line.
#[test]
fn threads_count_and_fail_cleanly() {
    let piles = vec!["3"; 100].join(",");
    let args = [
        "stone-game-ii",
        &piles,
        "--solver",
        "parallel",
        "--threads",
        "256",
    ];
    refused(100 << 20, &args, None, "the stacks of 256 threads");
    // A budget above the process's cap is lowered to the cap (less the constant), so the
    // threads are refused rather than started into a crash.
    let mut over = args.to_vec();
    over.extend(["--memory-limit", "1G"]);
    let output = capped(150 << 20, &over, None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.contains("the stacks of 256 threads"), "{stderr}");
    assert!(stderr.contains("the memory budget is 86.0 MiB"), "{stderr}");
    // Thread counts past the documented maximum are a usage error.
    let output = capped(
        512 << 20,
        &["stone-game-ii", &piles, "--threads", "65535"],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
}

/// Time: a solve whose work is known to exceed the time limit is refused before it starts.
#[test]
fn a_solve_known_to_exceed_the_time_limit_is_refused_at_once() {
    let piles: Vec<String> = (0..50_000).map(|i| (i % 97 + 1).to_string()).collect();
    let file = temp_file("ii-50k.txt", piles.join(",").as_bytes());
    let clock = std::time::Instant::now();
    let output = capped(
        4 << 30,
        &[
            "stone-game-ii",
            "--input",
            file.to_str().unwrap(),
            "--solver",
            "engine",
            "--time-limit",
            "10s",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // In hours or days: the rate is this build's on this machine.
    assert!(
        stderr.contains("hours, past the time limit of 10 s")
            || stderr.contains("days, past the time limit of 10 s"),
        "{stderr}"
    );
    assert!(stderr.contains("use --solver fast"), "{stderr}");
    assert!(
        clock.elapsed().as_secs() < 10,
        "refused at once, not at the limit"
    );
}
