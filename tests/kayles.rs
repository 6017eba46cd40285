//! Kayles, bundled as one file (games/kayles.rs) and one registration line: its values against
//! Sprague–Grundy theory computed here from the literal rules, through the library, the command
//! line and its analysis.

use gamesolver::games::Kayles;
use gamesolver::{Solved, Solver};

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

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
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
    use gamesolver::Game;
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
        game.moves(&start, &mut moves);
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
