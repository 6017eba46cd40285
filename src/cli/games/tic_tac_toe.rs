//! Tic-tac-toe from the empty board.

use crate::InputError;
use crate::games::{Board, TicTacToe};
use crate::{Player, Score, engines::Ply};

use super::super::model::{Answer, Entry, Fields, Line};
use super::super::present::{Presented, winner};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Tic-tac-toe on the command line.
pub const GAME: Bundled = Bundled {
    name: "tic-tac-toe",
    about: "Tic-tac-toe from the empty board (no VALUES)",
    solves: Solves::Engine(Engine {
        reads: Reads::Nothing,
        with: |_, task| task.with(&TicTacToe),
        check: |_, options, summary| summary.add_dense(&TicTacToe, options),
        fast: None,
        tiers: None,
        at: Some("the board, row by row: X, O or . for each of the 9 cells (as 'X.O/.X./...')"),
    }),
};

/// The mark a player makes.
fn mark(player: Player) -> &'static str {
    if player == Player::First { "X" } else { "O" }
}

impl Presented for TicTacToe {
    fn player_name(&self, player: Player) -> &'static str {
        mark(player)
    }
    fn position(&self, position: &str) -> Result<Board, InputError> {
        let problem = |what: String| {
            InputError::InvalidState(format!(
                "{what}: a tic-tac-toe position is the board row by row, X, O or . (or -) for \
                 each of the 9 cells, as 'X.O/.X./...'"
            ))
        };
        let cells: Vec<char> = position
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/' && *c != '|')
            .collect();
        if cells.len() != 9 {
            return Err(problem(format!("{} cells given", cells.len())));
        }
        let mut board = Board::default();
        for (cell, mark) in cells.into_iter().enumerate() {
            match mark.to_ascii_uppercase() {
                'X' => board.x |= 1 << cell,
                'O' => board.o |= 1 << cell,
                '.' | '-' | '_' => {}
                other => return Err(problem(format!("{other:?} is not X, O or ."))),
            }
        }
        let (x, o) = (board.x.count_ones(), board.o.count_ones());
        if x != o && x != o + 1 {
            return Err(problem(format!(
                "{x} X and {o} O cannot happen (X moves first, so X has as many marks as O or \
                 one more)"
            )));
        }
        if Board::has_line(board.x) && Board::has_line(board.o) {
            return Err(problem("both X and O have three in a row".into()));
        }
        Ok(board)
    }
    fn show(&self, board: &Board) -> String {
        let mut lines = vec!["    1 2 3".to_string()];
        for row in 0..3 {
            let cells: Vec<&str> = (0..3)
                .map(|column| {
                    let cell = 1 << (row * 3 + column);
                    if board.x & cell != 0 {
                        "X"
                    } else if board.o & cell != 0 {
                        "O"
                    } else {
                        "."
                    }
                })
                .collect();
            lines.push(format!("{}   {}", row + 1, cells.join(" ")));
        }
        lines.join("\n")
    }
    fn view(&self, board: &Board) -> serde_json::Value {
        let cells: Vec<&str> = (0..9)
            .map(|cell| match (board.x >> cell & 1, board.o >> cell & 1) {
                (1, _) => "X",
                (_, 1) => "O",
                _ => "",
            })
            .collect();
        serde_json::json!({"kind": "grid", "rows": 3, "columns": 3, "cells": cells})
    }
    fn move_name(&self, _: &Board, cell: &u8) -> String {
        format!("{},{}", cell / 3 + 1, cell % 3 + 1)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("ROW,COLUMN, from 1: 2,2 is the centre")
    }
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
                let player = mark(ply.player);
                let (row, column) = (ply.mv / 3 + 1, ply.mv % 3 + 1);
                Entry {
                    player,
                    text: format!("{player} marks row {row}, column {column}"),
                    fields: Fields::new().with("row", row).with("column", column),
                }
            })
            .collect()
    }
}
