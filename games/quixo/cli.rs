//! Quixo on the command line: `gamesolver quixo SIDE`, positions as GamesmanOne writes them.

use crate::InputError;
use crate::cli::model::{Answer, Entry, Fields, Line};
use crate::cli::present::{Presented, winner};
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::{Push, Quixo, QuixoBoard};
use crate::{Player, Score, engines::Ply};

/// Quixo on the command line.
pub const GAME: Bundled = Bundled::game::<Quixo>(
    "quixo",
    "Quixo on a SIDE x SIDE board (3, 4 or 5), GamesmanOne's rules; may cycle (loopy tiers)",
)
.with_loopy_tiers::<Quixo>();

impl FromValues for Quixo {
    const EXAMPLE: &'static str = "3";
    const POSITION: Option<&'static str> = Some(
        "1_ (X to move) or 2_ (O to move), then the cells row by row as X, O or -, as \
         GamesmanOne writes it ('2_X--------' on 3x3)",
    );
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        match values {
            [side] => Quixo::new(usize::try_from(*side).unwrap_or(0)),
            _ => Err(InputError::InvalidGame(format!(
                "quixo takes one VALUE, the board's side (3, 4 or 5), not {}",
                values.len()
            ))),
        }
    }
}

/// The mark a player pushes.
fn mark(player: Player) -> &'static str {
    if player == Player::First { "X" } else { "O" }
}

/// A push as GamesmanOne names it: the cell from 1, row by row, and the end it goes in at.
fn push_name(push: &Push) -> String {
    format!("{}{}", push.cell + 1, push.to.letter())
}

impl Presented for Quixo {
    fn player_name(&self, player: Player) -> &'static str {
        mark(player)
    }
    fn mover(&self, board: &QuixoBoard) -> Player {
        if board.o_to_move {
            Player::Second
        } else {
            Player::First
        }
    }
    fn position(&self, position: &str) -> Result<QuixoBoard, InputError> {
        self.parse(position)
    }
    fn show(&self, board: &QuixoBoard) -> String {
        let formal = self.formal(board);
        let cells: Vec<char> = formal[2..].chars().collect();
        let mut lines: Vec<String> = cells
            .chunks(self.side())
            .map(|row| {
                row.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        lines.push(format!(
            "{} to move",
            if board.o_to_move { "O" } else { "X" }
        ));
        lines.join("\n")
    }
    fn board(&self, board: &QuixoBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &QuixoBoard) -> serde_json::Value {
        let formal = self.formal(board);
        let cells: Vec<String> = formal[2..]
            .chars()
            .map(|mark| {
                if mark == '-' {
                    String::new()
                } else {
                    mark.to_string()
                }
            })
            .collect();
        serde_json::json!({
            "kind": "grid",
            "rows": self.side(),
            "columns": self.side(),
            "cells": cells,
            "position": formal,
        })
    }
    fn move_name(&self, _: &QuixoBoard, push: &Push) -> String {
        push_name(push)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some(
            "CELL then END: the border cell from 1, row by row, and where the cube goes back in (L, R, U or D): 1R",
        )
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
        format!(
            "Quixo on {0}x{0} from the empty board: {result} with both playing optimally.",
            self.side()
        )
    }
    fn legend(&self) -> Option<&'static str> {
        Some(
            "a move is the border cell taken (from 1, row by row) and the end of its row or column where it goes back in: L, R, U (top) or D (bottom)",
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = mark(ply.player);
                Entry {
                    player,
                    text: format!(
                        "{player} takes cell {} and pushes it in at the {} end",
                        ply.mv.cell + 1,
                        match ply.mv.to {
                            crate::games::Edge::Left => "left",
                            crate::games::Edge::Right => "right",
                            crate::games::Edge::Top => "top",
                            crate::games::Edge::Bottom => "bottom",
                        }
                    ),
                    fields: Fields::new()
                        .with("cell", u64::from(ply.mv.cell) + 1)
                        .with("end", ply.mv.to.letter().to_string())
                        .with("move", push_name(&ply.mv)),
                }
            })
            .collect()
    }
}
