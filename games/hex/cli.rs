//! Hex on the command line: `gamesolver hex N`, positions as the moves played in benzene's
//! names (`analyze hex 6 --at a1,b3`).

use crate::InputError;
use crate::cli::present::Presented;
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::{Hex, HexBoard};
use crate::{Player, Score};

/// Hex on the command line.
pub const GAME: Bundled = Bundled::game::<Hex>(
    "hex",
    "Hex on an N x N board (1 to 11), Black first joining top and bottom, no swap; --at takes \
     the moves played, as benzene names cells (a1,b3)",
);

impl FromValues for Hex {
    const EXAMPLE: &'static str = "3";
    const POSITION: Option<&'static str> = Some(
        "the moves played from the empty board, in order, as benzene names cells: a column \
         letter and a row number from the top ('a1,b3')",
    );
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        match values {
            [side] => Hex::new(u32::try_from(*side).unwrap_or(0)),
            _ => Err(InputError::InvalidGame(format!(
                "hex takes one VALUE, the board's side (1 to 11), not {}",
                values.len()
            ))),
        }
    }
}

/// The name of a side: Black moves first.
fn colour(player: Player) -> &'static str {
    if player == Player::First {
        "Black"
    } else {
        "White"
    }
}

impl Presented for Hex {
    fn player_name(&self, player: Player) -> &'static str {
        colour(player)
    }
    fn mover(&self, board: &HexBoard) -> Player {
        if board.black_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }
    fn position(&self, position: &str) -> Result<HexBoard, InputError> {
        self.after_cells(position)
    }
    /// The board as a rhombus, each row half a cell further right: `B` Black, `W` White.
    fn show(&self, board: &HexBoard) -> String {
        let side = self.side();
        let letters: String = (0..side)
            .map(|column| format!(" {}", char::from(b'a' + column as u8)))
            .collect();
        let mut lines = vec![format!("   {letters}")];
        for row in 0..side {
            let cells: Vec<&str> = (0..side)
                .map(|column| mark(board, row * side + column))
                .collect();
            lines.push(format!(
                "{}{:>2}  {}",
                " ".repeat(row as usize),
                row + 1,
                cells.join(" ")
            ));
        }
        lines.push(format!(
            "{} to move",
            colour(<Hex as Presented>::mover(self, board))
        ));
        lines.join("\n")
    }
    fn board(&self, board: &HexBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &HexBoard) -> serde_json::Value {
        let side = self.side();
        let cells: Vec<&str> = (0..side * side)
            .map(|cell| match mark(board, cell) {
                "." => "",
                stone => stone,
            })
            .collect();
        let move_at: Vec<String> = (0..side * side)
            .map(|cell| self.cell_name(cell as u8))
            .collect();
        serde_json::json!({
            "kind": "grid",
            "shape": "hex",
            "rows": side,
            "columns": side,
            "cells": cells,
            "move_at": move_at,
        })
    }
    fn move_name(&self, _: &HexBoard, cell: &u8) -> String {
        self.cell_name(*cell)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("a cell: its column's letter and its row from the top, as b2")
    }
    fn headline(&self, value: Score) -> String {
        let side = self.side();
        let winner = if value > 0 { "Black" } else { "White" };
        format!(
            "Hex on {side}x{side} from the empty board: {winner} wins with both playing optimally."
        )
    }
}

/// The stone on `cell`: `B`, `W`, or `.` for none.
fn mark(board: &HexBoard, cell: u32) -> &'static str {
    if board.black() >> cell & 1 != 0 {
        "B"
    } else if board.white() >> cell & 1 != 0 {
        "W"
    } else {
        "."
    }
}
