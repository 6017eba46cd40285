//! Tic-tac-toe from the empty board.

use gamesolver::games::TicTacToe;
use gamesolver::{AnyValue, Player, Ply, Score};

use super::super::present::{Answer, Entry, Fields, Line, Presented, winner};
use super::{Bundled, Engine, Reads, Solves};

/// Tic-tac-toe on the command line.
pub const GAME: Bundled = Bundled {
    name: "tic-tac-toe",
    about: "Tic-tac-toe from the empty board (no VALUES)",
    solves: Solves::Engine(Engine {
        reads: Reads::Nothing,
        with: |_, task| task.with(&TicTacToe),
        check: |_, options, summary| summary.add_dense(&TicTacToe, options),
        fast: None,
        at: None,
    }),
};

impl Presented for TicTacToe {
    type Range = AnyValue;
    fn answer(&self, value: Score) -> Answer {
        winner(value, "X", "O", "Draw")
    }
    fn headline(&self, value: Score) -> String {
        let result = match value.signum() {
            1 => "X wins",
            -1 => "O wins",
            _ => "a draw",
        };
        format!("Tic-tac-toe from the empty board: {result} with both playing optimally.")
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = if ply.player == Player::First {
                    "X"
                } else {
                    "O"
                };
                let (row, column) = (ply.mv / 3 + 1, ply.mv % 3 + 1);
                Entry {
                    player,
                    text: format!("{player} marks row {row}, column {column}"),
                    fields: Fields::Cell { row, column },
                }
            })
            .collect()
    }
}

