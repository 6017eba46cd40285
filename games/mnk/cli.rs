//! The m,n,k-game on the command line: `gamesolver mnk M N K`, positions as the moves played
//! (`analyze mnk 4 4 4 --at b2,c3`).

use crate::InputError;
use crate::cli::present::Presented;
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::{Mnk, MnkBoard};
use crate::{Player, Score};

/// The m,n,k-game on the command line.
pub const GAME: Bundled = Bundled::game::<Mnk>(
    "mnk",
    "k in a row on an M x N board (M columns, N rows, K in a row wins; Go-Moku is 15 15 5); \
     --at takes the moves played (b2,c3)",
);

impl FromValues for Mnk {
    const EXAMPLE: &'static str = "4 3 3";
    const POSITION: Option<&'static str> = Some(
        "the moves played from the empty board, in order: a column letter and a row number \
         from the top ('b2,c3')",
    );
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let size = |value: i64| u32::try_from(value).unwrap_or(0);
        match values {
            [columns, rows, k] => Mnk::new(size(*columns), size(*rows), size(*k)),
            _ => Err(InputError::InvalidGame(format!(
                "mnk takes three VALUES, M columns, N rows and K in a row, not {}",
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

/// The stone on `cell`: `B`, `W`, or `.` for none.
fn mark(board: &MnkBoard, cell: u32) -> &'static str {
    if board.black_at(cell) {
        "B"
    } else if board.white_at(cell) {
        "W"
    } else {
        "."
    }
}

impl Presented for Mnk {
    fn player_name(&self, player: Player) -> &'static str {
        colour(player)
    }
    fn mover(&self, board: &MnkBoard) -> Player {
        if board.black_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }
    fn position(&self, position: &str) -> Result<MnkBoard, InputError> {
        self.after_cells(position)
    }
    fn show(&self, board: &MnkBoard) -> String {
        let (columns, rows, _) = self.size();
        let letters: String = (0..columns)
            .map(|column| format!(" {}", char::from(b'a' + column as u8)))
            .collect();
        let mut lines = vec![format!("   {letters}")];
        for row in 0..rows {
            let cells: Vec<&str> = (0..columns)
                .map(|column| mark(board, row * columns + column))
                .collect();
            lines.push(format!("{:>2}  {}", row + 1, cells.join(" ")));
        }
        lines.push(format!(
            "{} to move",
            colour(<Mnk as Presented>::mover(self, board))
        ));
        lines.join("\n")
    }
    fn board(&self, board: &MnkBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &MnkBoard) -> serde_json::Value {
        let (columns, rows, _) = self.size();
        let cells: Vec<&str> = (0..columns * rows)
            .map(|cell| match mark(board, cell) {
                "." => "",
                stone => stone,
            })
            .collect();
        let move_at: Vec<String> = (0..columns * rows)
            .map(|cell| self.cell_name(cell as u16))
            .collect();
        serde_json::json!({
            "kind": "grid",
            "rows": rows,
            "columns": columns,
            "cells": cells,
            "move_at": move_at,
        })
    }
    fn move_name(&self, _: &MnkBoard, cell: &u16) -> String {
        self.cell_name(*cell)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("a cell: its column's letter and its row from the top, as b2")
    }
    fn headline(&self, value: Score) -> String {
        let (columns, rows, k) = self.size();
        let result = match value.signum() {
            1 => "Black wins",
            -1 => "White wins",
            _ => "a draw",
        };
        format!(
            "{k} in a row on {columns}x{rows} from the empty board: {result} with both playing \
             optimally."
        )
    }
}
