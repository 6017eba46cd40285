//! The command line's `--solver auto` is [`Solver::plan`]: on every bundled game, the engine,
//! table and threads its report names are what the library's plan says for the same game and
//! threads, and what the library's solve then ran. The exceptions are named: the two games
//! with a specialised solver (which `auto` runs before any engine), and the three games solved
//! their own way (docs/architecture.md says why). On the games with chance, `auto` is
//! [`Solver::solve_chance`].

#![cfg(feature = "cli")]

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use gamesolver::games::{
    BearOff, Cram, DawsonsKayles, DotsAndBoxes, GrundysGame, Hex, Kayles, Mnk, Nim, Pig, Quixo,
    SixMensMorris, StoneGame, StoneGameIII, StoneGameVII, TicTacToe,
};
use gamesolver::{Engine, Game, Plan, Solved, Solver};
use serde_json::Value;

/// Threads offered to both: `--threads 2` and `Solver::threads(2)`.
const THREADS: usize = 2;

fn report(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--threads", "2", "--json"]);
    common::gamesolver_json(&all)
}

/// The report's names for what a plan runs (the command line's words for engines and tables).
fn names(plan: &Plan) -> (&'static str, Option<&'static str>) {
    match (plan.engine, plan.threads, plan.dense) {
        (Engine::Sweep, _, _) => ("sweep", Some("dense")),
        (Engine::Retrograde, _, true) => ("retrograde", Some("arrays")),
        (Engine::Retrograde, _, false) => ("retrograde", Some("hash")),
        (Engine::Exhaustive, 1, true) => ("engine", Some("dense")),
        (Engine::Exhaustive, 1, false) => ("engine", Some("hash")),
        (Engine::Exhaustive, _, true) => ("parallel", Some("atomic-dense")),
        (Engine::Exhaustive, _, false) => ("parallel", Some("sharded")),
        (Engine::Pruning, 1, _) => ("alphabeta", Some("hash")),
        (Engine::Pruning, _, _) => ("alphabeta", Some("sharded")),
        // The tier solver's table is named by its values' width.
        (Engine::Tiers, _, _) => ("tier", None),
        (Engine::LoopyTiers, _, _) => ("loopy-tier", Some("arrays")),
        (Engine::Nimbers, _, _) => ("nimbers", Some("parts")),
        (Engine::Proof, _, _) => ("proof", Some("proof-numbers")),
        (engine, ..) => panic!("an engine this test does not know: {engine:?}"),
    }
}

/// Checks that `gamesolver ARGS` under `auto` runs what `Solver::plan` says for `game`, that
/// the library's solve ran that plan, and that both give the same value. Returns the plan.
fn agrees<G>(args: &[&str], game: &G) -> Plan
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    let solver = Solver::new(game).threads(THREADS);
    let plan = solver.plan().unwrap();
    let solved = solver.solve().unwrap();
    assert_eq!(solved.plan(), plan, "{args:?}: the plan is what ran");
    let report = report(args);
    let (engine, table) = names(&plan);
    assert_eq!(report["solver"], engine, "{args:?}: {plan:?}");
    if let Some(table) = table {
        assert_eq!(report["table"], table, "{args:?}: {plan:?}");
    }
    assert_eq!(report["threads"], plan.threads, "{args:?}: {plan:?}");
    assert_eq!(report["value"], solved.value(), "{args:?}");
    plan
}

/// Checks that `gamesolver ARGS` under `auto` runs what `Solver::solve_chance` runs for `game`
/// (`engine` on `threads` threads), with the same winning chance.
fn chance_agrees<G>(args: &[&str], game: &G, engine: Engine, threads: usize)
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    let solved = Solver::new(game).threads(THREADS).solve_chance().unwrap();
    assert_eq!(
        (solved.engine(), solved.threads()),
        (engine, threads),
        "{args:?}"
    );
    let report = report(args);
    let name = match engine {
        Engine::ValueIteration => "value-iteration",
        _ => "expectimax",
    };
    assert_eq!(report["solver"], name, "{args:?}");
    assert_eq!(report["threads"], threads, "{args:?}");
    assert_eq!(report["table"], solved.table(), "{args:?}");
    let chance = solved.value().win_chance();
    assert_eq!(report["value"].as_f64(), Some(chance.to_f64()), "{args:?}");
    assert_eq!(
        report["exact"].as_str().map(str::to_string),
        chance.exact().map(ToString::to_string),
        "{args:?}"
    );
}

#[test]
fn auto_runs_the_library_plan_on_every_bundled_game() {
    let mut covered = BTreeSet::new();
    let mut engines = BTreeSet::new();
    let mut check = |name: &'static str, plan: Plan| {
        covered.insert(name);
        engines.insert(format!("{:?}/{}", plan.engine, plan.threads));
    };

    check(
        "stone-game",
        agrees(
            &["stone-game", "5,3,4,5"],
            &StoneGame::new(vec![5, 3, 4, 5]).unwrap(),
        ),
    );
    let plan = agrees(
        &["stone-game-iii", "1,2,3,7"],
        &StoneGameIII::new(vec![1, 2, 3, 7]).unwrap(),
    );
    assert_eq!(
        (plan.engine, plan.threads),
        (Engine::Exhaustive, 1),
        "small: one thread"
    );
    check("stone-game-iii", plan);
    // Past the serial cut-off, the threads offered.
    let piles: Vec<i64> = (0..30_000).map(|i| (i * 7919 % 2001) - 1000).collect();
    let text = piles
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let file = std::env::temp_dir().join(format!("auto-is-plan-{}.txt", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let plan = agrees(
        &["stone-game-iii", "--input", file.to_str().unwrap()],
        &StoneGameIII::new(piles).unwrap(),
    );
    let _ = std::fs::remove_file(&file);
    assert_eq!((plan.engine, plan.threads), (Engine::Exhaustive, THREADS));
    check("stone-game-iii", plan);
    check(
        "stone-game-vii",
        agrees(
            &["stone-game-vii", "5,3,1,4,2"],
            &StoneGameVII::new(vec![5, 3, 1, 4, 2]).unwrap(),
        ),
    );
    // Impartial games: their nimbers, on one thread, whatever else they declare (Nim a
    // dense index, Kayles a symmetry).
    for (args, plan) in [
        (
            &["nim", "3,4,5"][..],
            agrees(&["nim", "3,4,5"], &Nim::new(vec![3, 4, 5]).unwrap()),
        ),
        (
            &["nim", "1,65535"],
            agrees(&["nim", "1,65535"], &Nim::new(vec![1, 65_535]).unwrap()),
        ),
        (
            &["kayles", "3", "4"],
            agrees(&["kayles", "3", "4"], &Kayles::new(&[3, 4]).unwrap()),
        ),
        (
            &["cram", "3", "4"],
            agrees(&["cram", "3", "4"], &Cram::new(3, 4).unwrap()),
        ),
        (
            &["dawsons-kayles", "5", "7"],
            agrees(
                &["dawsons-kayles", "5", "7"],
                &DawsonsKayles::new(&[5, 7]).unwrap(),
            ),
        ),
        (
            &["grundys-game", "10"],
            agrees(&["grundys-game", "10"], &GrundysGame::new(&[10]).unwrap()),
        ),
    ] {
        // On the threads offered: the root's options searched at once.
        assert_eq!(
            (plan.engine, plan.threads),
            (Engine::Nimbers, THREADS),
            "{args:?}"
        );
        check(args[0], plan);
    }
    // An outcome game that is not impartial: retrograde analysis where small.
    let plan = agrees(&["tic-tac-toe"], &TicTacToe);
    assert_eq!(plan.engine, Engine::Retrograde);
    check("tic-tac-toe", plan);
    let plan = agrees(
        &["dots-and-boxes", "1", "2"],
        &DotsAndBoxes::new(1, 2).unwrap(),
    );
    assert_eq!(plan.engine, Engine::Tiers);
    check("dots-and-boxes", plan);
    // A tiered outcome game whose play cycles within its tiers: the loopy tier solver.
    let plan = agrees(&["quixo", "3"], &Quixo::new(3).unwrap());
    assert_eq!(plan.engine, Engine::LoopyTiers);
    check("quixo", plan);
    let plan = agrees(&["six-mens-morris", "3"], &SixMensMorris::new(3).unwrap());
    assert_eq!(plan.engine, Engine::LoopyTiers);
    check("six-mens-morris", plan);
    // Games whose states no index counts: Hex, which decides states by its pairing
    // strategies, goes to proof search, the one engine that reads them; k in a row to the
    // plan's race, which the pruning engine wins.
    let plan = agrees(&["hex", "3"], &Hex::new(3).unwrap());
    assert_eq!(plan.engine, Engine::Proof);
    check("hex", plan);
    let plan = agrees(&["mnk", "4", "3", "3"], &Mnk::new(4, 3, 3).unwrap());
    assert_eq!(plan.engine, Engine::Pruning);
    check("mnk", plan);
    assert!(
        engines.len() >= 4,
        "the test covers the choices: {engines:?}"
    );

    // The specialised solvers run before any engine: they are exact and faster than the
    // engine at every size (docs/performance.md), and the library offers them as functions of
    // their own (`solve_stone_game_ii`, `solve_stone_game_viii`).
    for (name, values) in [
        ("stone-game-ii", "2,7,9,4,4"),
        ("stone-game-viii", "-1,2,-3,4,-5"),
    ] {
        assert_eq!(report(&[name, values])["solver"], "fast", "{name}");
        covered.insert(name);
    }
    // Solved their own way (docs/architecture.md): Connect Four by its own pruning search,
    // Cat and Mouse I and II by retrograde analysis of their graphs.
    assert_eq!(report(&["connect-four", "4453"])["solver"], "alphabeta");
    assert_eq!(
        report(&["cat-and-mouse", "[[1,3],[0],[3],[0,2]]"])["solver"],
        "retrograde"
    );
    let grid = r#"{"grid":["M.C...F"],"catJump":1,"mouseJump":4}"#;
    assert_eq!(report(&["cat-and-mouse-ii", grid])["solver"], "retrograde");
    covered.extend(["connect-four", "cat-and-mouse", "cat-and-mouse-ii"]);

    // Games with chance: `auto` is `Solver::solve_chance` on the threads offered: value
    // iteration where play may cycle (one thread), expectimax otherwise.
    let pig = Pig::new(12, 6).unwrap();
    chance_agrees(&["pig", "12"], &pig, Engine::ValueIteration, 1);
    let piglet = Pig::piglet(3).unwrap();
    chance_agrees(&["piglet", "3"], &piglet, Engine::ValueIteration, 1);
    let race = BearOff::new(3, 2).unwrap();
    chance_agrees(&["bear-off", "3", "2"], &race, Engine::Expectimax, THREADS);
    covered.extend(["pig", "piglet", "bear-off"]);

    // Every bundled game is covered: the names `--help` lists.
    let help = Command::new(env!("CARGO_BIN_EXE_gamesolver"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let listed: BTreeSet<&str> = help
        .split("Possible values:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .map_while(|line| line.trim().strip_prefix("- "))
        .map(|entry| entry.split(':').next().unwrap())
        .collect();
    assert_eq!(covered.into_iter().collect::<BTreeSet<_>>(), listed);
}
