//! Kayles, bundled as one file (games/kayles.rs) and one registration line: its values against
//! Sprague–Grundy theory computed here from the literal rules, through the library, the command
//! line and its analysis.

mod common;

use common::Rng;
use gamesolver::games::Kayles;
use gamesolver::{Game, Solved, Solver};

/// The Grundy value of a row of `n` pins, by the literal rules: a move knocks down one pin or
/// two side by side, leaving a row to each side; the mex of the XOR of the two sides.
fn grundy(most: usize) -> Vec<u32> {
    let mut value = vec![0u32; most + 1];
    for n in 1..=most {
        let mut seen = vec![false; n + 2];
        for take in 1..=2.min(n) {
            for left in 0..=n - take {
                let right = n - take - left;
                let after = (value[left] ^ value[right]) as usize;
                if after < seen.len() {
                    seen[after] = true;
                }
            }
        }
        value[n] = seen.iter().position(|&seen| !seen).unwrap() as u32;
    }
    value
}

#[cfg(feature = "cli")]
fn analyze(args: &[&str]) -> serde_json::Value {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamesolver"))
        .args(["analyze", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn every_row_is_won_as_sprague_grundy_theory_says() {
    let values = grundy(64);
    let mut rng = Rng(0x6b61_796c_6573);
    for _ in 0..40 {
        let rows: Vec<i64> = (0..1 + rng.below(3))
            .map(|_| 1 + rng.below(7) as i64)
            .collect();
        let game = Kayles::new(&rows).unwrap();
        let nim_sum = rows
            .iter()
            .fold(0, |sum, &pins| sum ^ values[pins as usize]);
        let value = Solver::new(&game).solve().unwrap().value();
        assert_eq!(value, if nim_sum != 0 { 1 } else { -1 }, "rows {rows:?}");
    }
}

#[cfg(feature = "cli")]
#[test]
fn the_analysis_values_every_move_as_theory_says() {
    let values = grundy(64);
    let mut rng = Rng(99);
    for _ in 0..12 {
        let rows: Vec<i64> = (0..1 + rng.below(2))
            .map(|_| 1 + rng.below(6) as i64)
            .collect();
        let text: Vec<String> = rows.iter().map(i64::to_string).collect();
        let found = analyze(&["kayles", "--", &text.join(" ")]);
        let game = Kayles::new(&rows).unwrap();
        let start = game.start();
        assert_eq!(found["view"]["kind"], "grid");
        assert_eq!(found["players"], serde_json::json!(["Alice", "Bob"]));
        let mut moves = Vec::new();
        game.moves_into(&start, &mut moves);
        assert_eq!(
            found["moves"].as_array().unwrap().len(),
            moves.len(),
            "{rows:?}"
        );
        for mv in found["moves"].as_array().unwrap() {
            // The row left by the move, as runs of pins: its nim-sum says who wins.
            let name = mv["name"].as_str().unwrap();
            let cells: Vec<usize> = name.split('-').map(|cell| cell.parse().unwrap()).collect();
            let mut pins = start;
            for cell in &cells {
                assert!(
                    pins >> (cell - 1) & 1 == 1,
                    "{rows:?}: {name} knocks a pin down"
                );
                pins &= !(1 << (cell - 1));
            }
            let (mut sum, mut run) = (0, 0);
            for cell in 0..=game.cells() {
                if cell < game.cells() && pins >> cell & 1 == 1 {
                    run += 1;
                } else {
                    sum ^= values[run];
                    run = 0;
                }
            }
            // After the move the opponent moves: a zero nim-sum is theirs to lose.
            let value = if sum == 0 { 1 } else { -1 };
            assert_eq!(mv["value"], value, "{rows:?} then {name}");
        }
    }
}

#[test]
fn bad_rows_are_refused_by_name() {
    for (rows, says) in [
        (vec![0], "at least 1 pin"),
        (vec![40, 30], "more than 64 cells"),
    ] {
        let error = Kayles::new(&rows).unwrap_err().to_string();
        assert!(error.contains(says), "{rows:?}: {error}");
    }
}

/// Kayles with nothing declared but that it is won or lost: no symmetry.
struct Undeclared(Kayles);

impl gamesolver::Game for Undeclared {
    type State = u64;
    type Move = gamesolver::games::Knock;
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, pins: &u64) -> impl Iterator<Item = gamesolver::games::Knock> {
        self.0.moves(pins)
    }
    fn play(&self, pins: &u64, knock: &gamesolver::games::Knock) -> gamesolver::Step<u64> {
        self.0.play(pins, knock)
    }
    fn payoff(&self, pins: &u64) -> gamesolver::Score {
        self.0.payoff(pins)
    }
    fn capabilities(&self) -> impl gamesolver::Declares<Self> {
        gamesolver::Capabilities::none().outcome_game()
    }
}

#[test]
fn the_declared_symmetry_stores_fewer_states_on_every_engine_and_the_plan_says_so() {
    use gamesolver::Engine;
    let game = Kayles::new(&[4, 6, 3]).unwrap();
    let plain = Undeclared(game.clone());
    for engine in [Engine::Exhaustive, Engine::Pruning] {
        for threads in [1, 2] {
            let solver = Solver::new(&game).engine(engine).threads(threads);
            let planned = solver.plan().unwrap();
            let mut declared = solver.solve().unwrap();
            let mut undeclared = Solver::new(&plain)
                .engine(engine)
                .threads(threads)
                .solve()
                .unwrap();
            assert!(planned.symmetry && declared.plan() == planned, "{engine:?}");
            assert!(!undeclared.plan().symmetry);
            assert_eq!(declared.value(), undeclared.value(), "{engine:?} {threads}");
            // Fewer states stored (the parallel pruning engine's count depends on how its
            // workers meet, so it is compared on one thread).
            let (stored, without) = (declared.stats().stored, undeclared.stats().stored);
            if engine == Engine::Exhaustive || threads == 1 {
                assert!(
                    stored < without,
                    "{engine:?} {threads}: {stored} stored, {without} without the symmetry"
                );
            }
            // The answers stay in the row's own terms: the same moves, valued alike.
            let start = game.start();
            let mut values: Vec<i64> = declared
                .move_values(&start)
                .unwrap()
                .iter()
                .map(|mv| mv.value)
                .collect();
            let mut plain_values: Vec<i64> = undeclared
                .move_values(&start)
                .unwrap()
                .iter()
                .map(|mv| mv.value)
                .collect();
            values.sort_unstable();
            plain_values.sort_unstable();
            assert_eq!(values, plain_values, "{engine:?} {threads}");
            let line = declared.line().unwrap();
            let mut pins = start;
            for ply in &line {
                pins = game.play(&pins, &ply.mv).next;
            }
            assert_eq!(pins, 0, "the line knocks every pin down");
        }
    }
}

#[test]
fn the_representative_keeps_the_runs_and_is_its_own() {
    use gamesolver::Symmetry;
    let game = Kayles::new(&[5, 9, 3, 12]).unwrap();
    let runs = |pins: u64| {
        let mut lengths = Vec::new();
        let mut run = 0;
        for cell in 0..=64 {
            if cell < 64 && pins >> cell & 1 == 1 {
                run += 1;
            } else if run > 0 {
                lengths.push(run);
                run = 0;
            }
        }
        lengths.sort_unstable();
        lengths
    };
    let mut rng = Rng(7);
    for _ in 0..500 {
        let pins = game.start() & (rng.below(u64::MAX) | rng.below(u64::MAX));
        let canonical = game.canonical(&pins);
        assert_eq!(runs(canonical), runs(pins), "{pins:b}");
        assert_eq!(game.canonical(&canonical), canonical, "{pins:b}");
        assert!(canonical >> game.cells() == 0, "{pins:b} fits the row");
    }
}
