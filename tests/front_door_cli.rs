//! `Solver` on every bundled game against the command line's `auto` (its `--json`): the same
//! value, and a line of the same length, on random instances. `auto` runs the games'
//! specialised solvers and Connect Four's own search, and otherwise `Solver::plan`'s choice
//! (tests/auto_is_plan.rs checks that choice game by game).

#![cfg(feature = "cli")]

mod common;

use gamesolver::games::{
    CatAndMouse, ConnectFour, DotsAndBoxes, Nim, StoneGame, StoneGameII, StoneGameIII,
    StoneGameVII, StoneGameVIII, TicTacToe,
};
use gamesolver::{Game, Solved, Solver};
use proptest::prelude::*;
use serde_json::Value;

/// The command line's JSON report of `game` on `values`.
fn auto(args: &[&str]) -> Value {
    // The options before the values (which may follow `--`).
    let mut all = vec![args[0], "--json", "--threads", "1"];
    all.extend(&args[1..]);
    common::gamesolver_json(&all)
}

/// `Solver`'s value and line length on `game` equal the report's.
fn agrees<G>(game: &G, report: &Value, context: &str)
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    let mut solved = Solver::new(game).solve().unwrap();
    assert_eq!(
        Some(solved.value()),
        report["value"].as_i64(),
        "{context}: {report}"
    );
    let line = report["line"].as_array().unwrap();
    assert_eq!(
        solved.line().unwrap().len(),
        line.len(),
        "{context}: {report}"
    );
}

fn text(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn the_stone_games_agree(values in prop::collection::vec(1i64..=30, 2..=14)) {
        let mut even = values.clone();
        even.truncate(values.len() / 2 * 2);
        let list = text(&even);
        agrees(&StoneGame::new(even).unwrap(), &auto(&["stone-game", &list]), "stone-game");
        let list = text(&values);
        let ii = StoneGameII::new(values.clone()).unwrap();
        agrees(&ii, &auto(&["stone-game-ii", &list]), "stone-game-ii");
        let vii = StoneGameVII::new(values.clone()).unwrap();
        agrees(&vii, &auto(&["stone-game-vii", &list]), "stone-game-vii");
    }

    #[test]
    fn the_signed_stone_games_agree(values in prop::collection::vec(-20i64..=20, 2..=14)) {
        let list = text(&values);
        let iii = StoneGameIII::new(values.clone()).unwrap();
        agrees(&iii, &auto(&["stone-game-iii", "--", &list]), "stone-game-iii");
        let viii = StoneGameVIII::new(values.clone()).unwrap();
        let report = auto(&["stone-game-viii", "--", &list]);
        // The literal model: a move takes stones, as the report's line does (the stepwise
        // model, which the engine solves faster, adds a stone a move).
        agrees(&viii.literal(), &report, "stone-game-viii");
    }

    #[test]
    fn nim_agrees(heaps in prop::collection::vec(0i64..=7, 1..=3)) {
        prop_assume!(heaps.iter().any(|&heap| heap > 0));
        let list = text(&heaps);
        agrees(&Nim::new(heaps).unwrap(), &auto(&["nim", &list]), "nim");
    }
}

#[test]
fn the_board_and_graph_games_agree() {
    agrees(&TicTacToe, &auto(&["tic-tac-toe"]), "tic-tac-toe");
    for (rows, columns) in [(1, 1), (1, 2), (2, 2)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let mut solved = Solver::new(&game).keep_every_tier().solve().unwrap();
        let report = auto(&["dots-and-boxes", &rows.to_string(), &columns.to_string()]);
        assert_eq!(Some(solved.value()), report["value"].as_i64(), "{report}");
        let line = report["line"].as_array().unwrap();
        assert_eq!(solved.line().unwrap().len(), line.len(), "{report}");
    }
    let graph = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";
    let chase = CatAndMouse::new(serde_json::from_str(graph).unwrap()).unwrap();
    agrees(&chase, &auto(&["cat-and-mouse", graph]), "cat-and-mouse");
    let four = ConnectFour::new(4, 4).unwrap();
    let report = auto(&["connect-four", "--width", "4", "--height", "4"]);
    let solved = Solver::new(&four).solve().unwrap();
    assert_eq!(Some(solved.value()), report["value"].as_i64(), "{report}");
}
