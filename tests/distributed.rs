//! The tier solver on timely dataflow (feature `distributed`): one process with several
//! workers, and two processes on localhost, against the single-process tier solver.

#![cfg(feature = "distributed")]

mod common;
#[path = "common/subset_games.rs"]
mod subset_games;

use gamesolver::SolveError;
use std::net::TcpListener;
#[cfg(feature = "cli")]
use std::process::{Command, Stdio};
use std::sync::Arc;

use gamesolver::Limits;
use gamesolver::engines::tiers::{self, distributed};
use gamesolver::games::DotsAndBoxes;
use subset_games::{ByTiers, Tokens};

#[test]
fn one_process_with_one_to_four_workers_equals_the_tier_solver() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 2), (1, 4), (2, 3)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let expected = tiers::solve(&game, tiers::Options::new()).unwrap();
        let (value, stats) = (expected.value(), expected.stats());
        let boards = 1u64 << game.edges();
        assert!(stats.dense);
        let game = Arc::new(game.clone());
        // Every value on every worker (the default budget holds a byte per board per
        // worker), and by requests (a budget just below a byte per board).
        for (limits, replicated) in [
            (Limits::default(), true),
            (Limits::with_memory_budget(boards - 1), false),
        ] {
            for workers in 1..=4 {
                let config = distributed::Config::process(workers);
                let solved = distributed::solve(Arc::clone(&game), config, limits).unwrap();
                let case = format!("{rows}x{columns}, {workers} workers, {replicated}");
                assert_eq!(solved.value, Some(value), "{case}");
                assert_eq!(solved.workers, workers);
                // Dots and Boxes' index is a subset index: every value on every worker goes by
                // blocks of the index.
                assert!(
                    solved
                        .local
                        .iter()
                        .all(|w| w.replicated == replicated && w.by_blocks == replicated),
                    "{case}"
                );
                let states: u64 = solved.local.iter().map(|w| w.states).sum();
                assert_eq!(states, stats.states, "{case}");
                let moves: u64 = solved.local.iter().map(|w| w.moves).sum();
                assert_eq!(moves, stats.moves, "{case}");
                let sent: u64 = solved.local.iter().map(|w| w.remote_bytes()).sum();
                if replicated {
                    // The workers of one process share one copy of the values: nothing is sent,
                    // and nothing is asked.
                    assert_eq!(sent, 0, "{case}");
                    let requests: u64 = solved.local.iter().map(|w| w.remote_requests).sum();
                    assert_eq!(requests, 0, "{case}");
                    // The process's values give the tier solver's line and values.
                    let solution = solved.into_solution(&*game).unwrap();
                    assert_eq!(solution.value(), value, "{case}");
                    assert_eq!(solution.line(), expected.line(), "{case}");
                    let slots: Vec<_> = solution.slot_values().unwrap().collect();
                    assert_eq!(slots, expected.slot_values().unwrap().collect::<Vec<_>>());
                } else {
                    // By requests, one worker sends nothing to others; several do. Each holds
                    // only its share: there is no solution to read.
                    assert_eq!(
                        sent == 0,
                        workers == 1 || game.edges() < 2,
                        "{case}: {sent}"
                    );
                    assert!(solved.into_solution(&*game).is_none(), "{case}");
                }
            }
        }
        let thread = distributed::solve(game, distributed::Config::thread(), Limits::default());
        assert_eq!(thread.unwrap().value, Some(value));
    }
}

#[test]
fn every_value_on_every_worker_by_blocks_and_by_tiers_equals_the_tier_solver() {
    // A subset index with holes and without (by blocks), and Dots and Boxes declared dense
    // only (by tiers).
    for seed in 0..3u64 {
        let game = Tokens {
            points: common::random_values(14, seed, -20, 20),
            holes: seed != 0,
            ..Tokens::default()
        };
        let (value, stats) = {
            let expected = tiers::solve(&game, tiers::Options::new()).unwrap();
            (expected.value(), expected.stats())
        };
        let game = Arc::new(game);
        for workers in 1..=4 {
            let config = distributed::Config::process(workers);
            let solved = distributed::solve(Arc::clone(&game), config, Limits::default());
            let solved = solved.unwrap();
            assert_eq!(solved.value, Some(value), "seed {seed}, {workers}");
            assert!(solved.local.iter().all(|w| w.by_blocks));
            let states: u64 = solved.local.iter().map(|w| w.states).sum();
            assert_eq!(states, stats.states, "seed {seed}, {workers}");
            let moves: u64 = solved.local.iter().map(|w| w.moves).sum();
            assert_eq!(moves, stats.moves, "seed {seed}, {workers}");
        }
    }
    // A move to an index no state has: refused on every worker count. With 16 tokens on four
    // workers, the last index of block 8 is worker 3's, and only workers 1 and 2 (blocks 9, 10
    // and 12) have moves there: they must learn of the hole from worker 3.
    for (tokens, forget, workers) in [
        (14, 1 << 12 | 0xfff, 1),
        (14, 1 << 12 | 0xfff, 2),
        (16, 8 << 12 | 0xfff, 4),
    ] {
        let faulty = Arc::new(Tokens {
            points: common::random_values(tokens, 5, -20, 20),
            forget: Some(forget),
            ..Tokens::default()
        });
        let config = distributed::Config::process(workers);
        match distributed::solve(Arc::clone(&faulty), config, Limits::default()) {
            Err(SolveError::InvalidGame(message)) => {
                assert!(message.contains("holds no value yet"), "{message}")
            }
            other => panic!("{workers} workers: {other:?}"),
        }
    }
    let dots = DotsAndBoxes::new(2, 3).unwrap();
    let value = tiers::solve(&dots, tiers::Options::new()).unwrap().value();
    let game = Arc::new(ByTiers(dots));
    for workers in [2, 3] {
        let config = distributed::Config::process(workers);
        let solved = distributed::solve(Arc::clone(&game), config, Limits::default());
        let solved = solved.unwrap();
        assert_eq!(solved.value, Some(value), "{workers} workers");
        assert!(solved.local.iter().all(|w| w.replicated && !w.by_blocks));
    }
}

#[test]
fn requests_are_one_per_next_state_and_round_and_answers_take_the_tiers_width() {
    use gamesolver::{Game, Tiered};
    use std::collections::HashSet;
    // 2×3 boxes, 17 edges: each worker's share of a tier is one round (under 2¹⁶ states).
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let workers = 2;
    let config = distributed::Config::process(workers);
    // A budget below a byte per board (one copy per process): requests, not every value
    // everywhere.
    let limits = Limits::with_memory_budget((1 << 17) - 1);
    let solved = distributed::solve(Arc::new(game.clone()), config, limits).unwrap();
    assert!(solved.local.iter().all(|w| !w.replicated));
    // Brute force over the rules: per worker, the next states its states reach that the other
    // worker owns (a request each, once per tier), and the moves that reach them.
    let owner = |tier: usize, rank: u64| (rank / game.tier_len(tier).div_ceil(2).max(1)) as usize;
    let (mut requests, mut remote_moves) = ([0u64; 2], [0u64; 2]);
    for tier in 0..game.tier_count() {
        let mut asked: [HashSet<u64>; 2] = Default::default();
        for rank in 0..game.tier_len(tier) {
            let Some(state) = game.unrank(tier, rank) else {
                continue;
            };
            let me = owner(tier, rank);
            let mut moves = Vec::new();
            game.moves_into(&state, &mut moves);
            for mv in &moves {
                let next = game.play(&state, mv).next;
                let child = game.rank(&next);
                if owner(tier + 1, child) != me {
                    remote_moves[me] += 1;
                    asked[me].insert(child);
                }
            }
        }
        for worker in 0..workers {
            requests[worker] += asked[worker].len() as u64;
        }
    }
    let mut local = solved.local.clone();
    local.sort_by_key(|stats| stats.worker);
    for stats in &local {
        assert_eq!(stats.remote_moves, remote_moves[stats.worker]);
        // At least one per next state; a repeat is asked again only when its place in the
        // worker's memory of the round was taken since.
        assert!(stats.remote_requests >= requests[stats.worker]);
        assert!(
            stats.remote_requests < stats.remote_moves,
            "moves share next states: {} requests for {} moves, {} next states",
            stats.remote_requests,
            stats.remote_moves,
            requests[stats.worker]
        );
    }
    // Every request is answered by the other worker, with a one-byte value.
    let asked: u64 = local.iter().map(|w| w.remote_requests).sum();
    let answered: u64 = local.iter().map(|w| w.remote_replies).sum();
    assert_eq!(asked, answered);
    let sent: u64 = local.iter().map(|w| w.remote_bytes()).sum();
    // A request: tier (4 bytes), rank (8), requester (4), id (4); an answer: requester (4),
    // id (4) and the value in one byte.
    assert_eq!(sent, asked * 20 + answered * 9);
}

#[test]
fn each_process_is_checked_against_the_budget_before_any_work() {
    let game = Arc::new(DotsAndBoxes::new(3, 4).unwrap());
    let refused = distributed::solve(
        game,
        distributed::Config::process(2),
        Limits::with_memory_budget(1 << 20),
    );
    match refused {
        // Two workers' halves of C(31, 15) + C(31, 16) bytes: the process's share.
        Err(SolveError::MemoryBudget { needed, .. }) => assert_eq!(needed, 2 * 300_540_195),
        other => panic!("{other:?}"),
    }
}

/// A saving solve by requests writes the tier file the tier solver writes on one machine, byte
/// for byte, from one to four workers (a game of one-byte values, and one of two-byte values);
/// cut at random bytes (a solve stopped there), it resumes to the same value and the same file,
/// whatever the workers; a damaged file is refused by name, an existing one without `resume`.
#[cfg(feature = "database")]
#[test]
fn a_saving_solve_resumes_to_the_file_one_machine_writes() {
    use gamesolver::Tiered;
    use gamesolver::engines::tiers::file::{Save, TierFile};
    fn check<G>(game: G, words: &str, rng: &mut common::Rng)
    where
        G: Tiered + Clone + Send + Sync + 'static,
    {
        let dir = std::env::temp_dir().join(format!("tiers-timely-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (one, path) = (dir.join("one.tiers"), dir.join("timely.tiers"));
        let expected =
            tiers::par_solve_saved(&game, tiers::Options::new(), &Save::new(&one, words))
                .unwrap()
                .value();
        let full = std::fs::read(&one).unwrap();
        let save = Save::new(&path, words);
        let solve = |workers: usize, save: &Save| {
            let config = distributed::Config::process(workers);
            distributed::solve_saving(Arc::new(game.clone()), config, Limits::default(), save)
        };
        for workers in 1..=4 {
            std::fs::remove_file(&path).ok();
            let solved = solve(workers, &save).unwrap();
            assert_eq!(solved.value, Some(expected), "{words}, {workers} workers");
            assert!(solved.local.iter().all(|worker| !worker.replicated));
            assert_eq!(
                std::fs::read(&path).unwrap(),
                full,
                "{words}, {workers} workers"
            );
        }
        let refused = solve(2, &save).unwrap_err();
        assert!(refused.to_string().contains("exists"), "{refused}");
        for round in 0..6 {
            let cut = 60 + rng.below(full.len() as u64 - 60) as usize;
            std::fs::write(&path, &full[..cut]).unwrap();
            let held = TierFile::open(&path).unwrap().tiers_held();
            let workers = 1 + round % 4;
            let resumed = solve(workers, &save.clone().resumed()).unwrap();
            let said = format!("{words}, {workers} workers, cut at byte {cut}");
            assert_eq!(resumed.value, Some(expected), "{said}");
            assert!(resumed.local.iter().all(|w| w.resumed == held), "{said}");
            assert_eq!(std::fs::read(&path).unwrap(), full, "{said}");
        }
        let mut damaged = full.clone();
        damaged[full.len() / 2] ^= 0x40;
        std::fs::write(&path, &damaged).unwrap();
        let refused = solve(3, &save.clone().resumed()).unwrap_err();
        assert!(refused.to_string().contains("damaged"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    let mut rng = common::Rng(0x2545_F491_4F6C_DD1D);
    check(
        DotsAndBoxes::new(2, 3).unwrap(),
        "dots-and-boxes 2 3",
        &mut rng,
    );
    // Two-byte values, holes in every tier, and moves two tiers on.
    let tokens = Tokens {
        points: (0..12).map(|token| (token * 37 % 101) - 50).collect(),
        holes: true,
        ..Tokens::default()
    };
    assert!(tokens.value_bound() > 127);
    check(tokens, "tokens", &mut rng);
}

/// A worker that fails in a saving solve (a move that stays in its tier, in worker 1's ranks)
/// sends worker 0 nothing of that tier: the tier is not written (the file holds only the tier
/// before it), and the error reported is the failing worker's own, not worker 0's report of
/// the missing share.
#[cfg(feature = "database")]
#[test]
fn a_failed_worker_leaves_its_tier_unwritten() {
    use gamesolver::engines::tiers::file::{Save, TierFile};
    let faulty = Tokens {
        points: common::random_values(10, 5, -20, 20),
        raise: true,
        ..Tokens::default()
    };
    let path = std::env::temp_dir().join(format!("tokens-failed-{}.tiers", std::process::id()));
    let config = distributed::Config::process(2);
    let save = Save::new(&path, "tokens raise");
    match distributed::solve_saving(Arc::new(faulty), config, Limits::default(), &save) {
        Err(SolveError::InvalidGame(message)) => {
            assert!(
                message.contains("which the tier solver does not hold"),
                "{message}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(TierFile::open(&path).unwrap().tiers_held(), 1);
    std::fs::remove_file(&path).unwrap();
}

/// Two free ports on localhost, for a hostfile.
#[cfg(feature = "cli")]
fn free_ports() -> [u16; 2] {
    let listeners = [
        TcpListener::bind("127.0.0.1:0").unwrap(),
        TcpListener::bind("127.0.0.1:0").unwrap(),
    ];
    listeners.map(|listener| listener.local_addr().unwrap().port())
}

/// Runs `dots-and-boxes 2 3 --solver distributed --json` as two processes on localhost of
/// `workers` workers each, with `extra` arguments for process 0: its report, and what process 1
/// said on stderr.
#[cfg(feature = "cli")]
fn two_processes(workers: &str, extra: &[&str]) -> (serde_json::Value, String) {
    two_processes_of(&["dots-and-boxes", "2", "3"], workers, extra)
}

/// `game` with `--solver distributed --json` started as the two processes of a cluster on
/// localhost (a hostfile of two free ports), `workers` workers each, with `extra` arguments for
/// process 0: process 1 and process 0, and the hostfile to remove once both have ended.
#[cfg(feature = "cli")]
fn start_two(
    game: &[&str],
    workers: &str,
    extra: &[&str],
) -> ([std::process::Child; 2], std::path::PathBuf) {
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let [first, second] = free_ports();
    let hostfile =
        std::env::temp_dir().join(format!("gamesolver-hosts-{}-{first}", std::process::id()));
    std::fs::write(
        &hostfile,
        format!("127.0.0.1:{first}\n127.0.0.1:{second}\n"),
    )
    .unwrap();
    let hosts = hostfile.to_str().unwrap();
    let process = |index: &str, extra: &[&str]| {
        Command::new(binary)
            .args(game)
            .args(["--solver", "distributed", "--json"])
            .args(["--workers", workers, "--processes", "2", "--process", index])
            .args(["--hostfile", hosts])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    ([process("1", &[]), process("0", extra)], hostfile)
}

/// As [`two_processes`], for the game `game` (its name and values).
#[cfg(feature = "cli")]
fn two_processes_of(game: &[&str], workers: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let ([helper, leader], hostfile) = start_two(game, workers, extra);
    let (leader, helper) = (
        leader.wait_with_output().unwrap(),
        helper.wait_with_output().unwrap(),
    );
    std::fs::remove_file(&hostfile).ok();
    assert!(leader.status.success(), "{leader:?}");
    assert!(helper.status.success(), "{helper:?}");
    // Exactly one line on stdout: whatever timely prints goes to stderr.
    let stdout = String::from_utf8(leader.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    // The other process prints nothing on stdout, and what it did on stderr.
    let noise = String::from_utf8(helper.stdout).unwrap();
    assert!(noise.is_empty(), "{noise}");
    let said = String::from_utf8(helper.stderr).unwrap();
    assert!(
        said.contains("the process with worker 0 prints the answer"),
        "{said}"
    );
    (serde_json::from_str(&stdout).unwrap(), said)
}

/// Runs `game` with `--solver distributed` as two processes on localhost of one worker each,
/// with `extra` arguments for process 0, where both must fail within a minute: what each said
/// on stderr.
#[cfg(feature = "cli")]
fn both_refuse(game: &[&str], extra: &[&str]) -> [String; 2] {
    let (mut children, hostfile) = start_two(game, "1", extra);
    let started = std::time::Instant::now();
    while children
        .iter_mut()
        .any(|child| child.try_wait().unwrap().is_none())
    {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            for child in &mut children {
                child.kill().ok();
            }
            panic!("{game:?}: a process still waits a minute after process 0 refused its file");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::fs::remove_file(&hostfile).ok();
    let [helper, leader] = children.map(|child| child.wait_with_output().unwrap());
    assert!(!leader.status.success() && !helper.status.success());
    [leader.stderr, helper.stderr].map(|said| String::from_utf8(said).unwrap())
}

/// What a process said it sent to the other processes, per level of blocks.
#[cfg(feature = "cli")]
fn sent(said: &str) -> &str {
    let from = said.find(", and sent ").expect(said) + ", and sent ".len();
    let to = said[from..].find(", in ").expect(said);
    &said[from..from + to]
}

#[cfg(feature = "cli")]
#[test]
fn two_processes_on_localhost_equal_one_process() {
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let single = Command::new(binary)
        .args(["dots-and-boxes", "2", "3", "--solver", "tier", "--json"])
        .output()
        .unwrap();
    assert!(single.status.success());
    let single: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
    assert!(!single["line"].as_array().unwrap().is_empty());
    // One process, two workers: the tier solver's value and line.
    let threads = Command::new(binary)
        .args(["dots-and-boxes", "2", "3", "--solver", "distributed"])
        .args(["--workers", "2", "--json"])
        .output()
        .unwrap();
    assert!(threads.status.success(), "{threads:?}");
    let threads: serde_json::Value = serde_json::from_slice(&threads.stdout).unwrap();
    assert_eq!(threads["value"], single["value"]);
    assert_eq!(threads["line"], single["line"]);
    assert_eq!(threads["threads"], 2);
    // Two processes of one worker, and of two: the same value and line, and each process
    // sends the same bytes whatever its workers (its share of the values, once), level by
    // level.
    let (one, said_one) = two_processes("1", &[]);
    let (two, said_two) = two_processes("2", &[]);
    for (report, workers) in [(&one, 2), (&two, 4)] {
        assert_eq!(report["value"], single["value"], "{report}");
        assert_eq!(report["line"], single["line"], "{report}");
        assert_eq!(report["solver"], "distributed");
        assert_eq!(report["threads"], workers);
    }
    assert_eq!(sent(&said_one), sent(&said_two), "{said_one}\n{said_two}");
    assert!(sent(&said_one).contains("(level "), "{said_one}");
    assert!(!sent(&said_one).starts_with("0 B"), "{said_one}");
}

/// `--save` from a distributed solve (on process 0 alone) writes the tier file the solve on one
/// machine writes, byte for byte, and reports its line from it; cut (a solve stopped),
/// `--resume` goes on from it to the same file; `--load` and `analyze --load` answer from it as
/// a fresh solve does. A process too small for every value saves too, by requests.
#[cfg(feature = "cli")]
#[test]
fn a_distributed_solve_saves_what_load_and_analyze_read() {
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let run = common::gamesolver_json;
    let dir = std::env::temp_dir().join(format!("gamesolver-distributed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (one, path) = (dir.join("one.tiers"), dir.join("timely.tiers"));
    let (one, saved) = (one.to_str().unwrap(), path.to_str().unwrap());
    let single = run(&["dots-and-boxes", "2", "3", "--save", one, "--json"]);
    let full = std::fs::read(one).unwrap();
    let (report, said) = two_processes("1", &["--save", saved]);
    assert_eq!(std::fs::read(saved).unwrap(), full);
    assert_eq!(report["value"], single["value"]);
    assert_eq!(report["line"], single["line"]);
    assert!(!said.contains("tiers read back"), "{said}");
    std::fs::write(saved, &full[..full.len() / 2]).unwrap();
    let (resumed, said) = two_processes("2", &["--save", saved, "--resume"]);
    assert!(
        said.contains("tiers read back from the tier file"),
        "{said}"
    );
    assert_eq!(std::fs::read(saved).unwrap(), full);
    assert_eq!(resumed["line"], single["line"]);
    // Process 0 refuses a file that exists (without --resume): both processes stop and say so.
    for game in [&["dots-and-boxes", "2", "3"][..], &["quixo", "3"][..]] {
        let said = both_refuse(game, &["--save", saved]);
        assert!(said[0].contains("exists"), "{}", said[0]);
        assert!(said[1].contains("refused the tier file"), "{}", said[1]);
    }
    assert_eq!(std::fs::read(saved).unwrap(), full);
    let loaded = run(&["dots-and-boxes", "2", "3", "--load", saved, "--json"]);
    assert_eq!(loaded["value"], report["value"]);
    assert_eq!(loaded["line"], report["line"]);
    assert_eq!(loaded["table"], "file");
    // Every position of the line, analysed from the file and solved afresh: the same moves and
    // values.
    let mut drawn: Vec<String> = Vec::new();
    for ply in report["line"].as_array().unwrap() {
        let name = |end: &str| {
            let at = &ply[end];
            format!("{},{}", at[0], at[1])
        };
        drawn.push(format!("{}-{}", name("from"), name("to")));
        let at = drawn.join(" ");
        let analyse = |file: &[&str]| {
            let question = ["analyze", "dots-and-boxes", "2", "3", "--at", &at, "--json"];
            run(&[&question[..], file].concat())
        };
        assert_eq!(
            analyse(&["--load", saved])["moves"],
            analyse(&[])["moves"],
            "at {at}"
        );
    }
    // One worker per process that cannot hold every value: it saves all the same, by requests.
    std::fs::remove_file(saved).unwrap();
    let small = Command::new(binary)
        .args(["dots-and-boxes", "2", "3", "--solver", "distributed"])
        .args([
            "--workers",
            "2",
            "--memory-limit",
            "100000",
            "--save",
            saved,
        ])
        .output()
        .unwrap();
    assert!(small.status.success(), "{small:?}");
    assert_eq!(std::fs::read(saved).unwrap(), full);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A distributed saving solve of Dots and Boxes 2×4 (23 tiers, 4 Mi states), killed at random
/// moments, resumes with `--resume` (on another number of workers) to the file and the answer
/// of the solve on one machine.
#[cfg(feature = "cli")]
#[test]
fn a_killed_distributed_solve_resumes_to_the_file_one_machine_writes() {
    use gamesolver::engines::tiers::file::TierFile;
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let run = common::gamesolver_json;
    let dir = std::env::temp_dir().join(format!("gamesolver-killed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("one.tiers");
    let single = run(&[
        "dots-and-boxes",
        "2",
        "4",
        "--save",
        one.to_str().unwrap(),
        "--json",
    ]);
    let full = std::fs::read(&one).unwrap();
    let tiers = 23;
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut landed_mid_solve = 0;
    for round in 0..3 {
        let file = dir.join(format!("run{round}.tiers"));
        let path = file.to_str().unwrap();
        let distributed = ["dots-and-boxes", "2", "4", "--solver", "distributed"];
        let mut child = Command::new(binary)
            .args(distributed)
            .args(["--workers", "2", "--save", path])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50 + rng.below(1500)));
        let _ = child.kill();
        child.wait().unwrap();
        let held = TierFile::open(&file).map_or(0, |saved| saved.tiers_held());
        if held > 0 && held < tiers {
            landed_mid_solve += 1;
        }
        let workers = ["1", "3", "4"][round];
        let resumed = run(&[
            &distributed[..],
            &["--workers", workers, "--save", path, "--resume", "--json"],
        ]
        .concat());
        assert_eq!(resumed["value"], single["value"], "round {round}");
        assert_eq!(resumed["line"], single["line"], "round {round}");
        assert_eq!(std::fs::read(&file).unwrap(), full, "round {round}");
    }
    assert!(
        landed_mid_solve > 0,
        "no kill landed while tiers were being written"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Quixo 3×3 by the loopy tier solver on timely: one process of three workers, and two
/// processes on localhost with two workers each, give the outcome, remoteness and line of the
/// solve on one machine; so do a saving solve, one resumed, and the file they write.
#[cfg(feature = "cli")]
#[test]
fn loopy_tiers_on_timely_equal_one_machine() {
    let run = common::gamesolver_json;
    let key = |report: &serde_json::Value| {
        format!(
            "{} {} {}",
            report["value"], report["remoteness"], report["line"]
        )
    };
    let single = run(&["quixo", "3", "--json"]);
    assert_eq!(single["solver"], "loopy-tier");
    let threads = run(&[
        "quixo",
        "3",
        "--solver",
        "distributed",
        "--workers",
        "3",
        "--json",
    ]);
    assert_eq!(threads["solver"], "distributed");
    assert_eq!(threads["threads"], 3);
    assert_eq!(key(&threads), key(&single));
    let (report, said) = two_processes_of(&["quixo", "3"], "2", &[]);
    assert_eq!(report["threads"], 4);
    assert_eq!(key(&report), key(&single));
    assert!(said.contains("states"), "{said}");
    // --save: process 0 writes the file the solve on one machine writes, byte for byte; cut
    // (a solve stopped), --resume on process 0 alone reads its tiers back, sends them to the
    // other process, and ends with the same file and answer; --load answers from it.
    let dir = std::env::temp_dir().join(format!("loopy-timely-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (one, path) = (dir.join("one.tiers"), dir.join("timely.tiers"));
    let file = path.to_str().unwrap();
    run(&[
        "quixo",
        "3",
        "--solver",
        "tier",
        "--save",
        one.to_str().unwrap(),
        "--json",
    ]);
    let full = std::fs::read(&one).unwrap();
    let (saved, _) = two_processes_of(&["quixo", "3"], "2", &["--save", file]);
    assert_eq!(key(&saved), key(&single));
    assert_eq!(std::fs::read(&path).unwrap(), full);
    std::fs::write(&path, &full[..full.len() * 2 / 3]).unwrap();
    let (resumed, said) = two_processes_of(&["quixo", "3"], "2", &["--save", file, "--resume"]);
    assert_eq!(key(&resumed), key(&single));
    assert!(
        said.contains("tiers read back from the tier file"),
        "{said}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), full);
    assert_eq!(
        key(&run(&["quixo", "3", "--load", file, "--json"])),
        key(&single)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
