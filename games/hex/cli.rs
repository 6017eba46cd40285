//! Hex on the command line: `gamesolver hex N`, positions as the moves played in benzene's
//! names (`analyze hex 6 --at a1,b3`).

use crate::InputError;
use crate::cli::present::Presented;
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::{Hex, HexBoard};
use crate::{Game, Player, Score};

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
    /// A solve's `--at`: the moves played, in order, and the game started there.
    fn at_position(self, position: &str) -> Result<Self, InputError> {
        let board = self.after_cells(position)?;
        Ok(self.starting_at(board))
    }
}

/// The name of a side: Black moves first (Hex's and k in a row's).
pub(in crate::games) fn colour(player: Player) -> &'static str {
    if player == Player::First {
        "Black"
    } else {
        "White"
    }
}

/// A board of stones as Hex and k in a row show it: `columns × rows` cells, each `B`, `W` or
/// `.` by `mark` and named by `name`; Hex's rows each half a cell right of the one above.
pub(in crate::games) struct Stones<Mark, Name> {
    pub columns: u32,
    pub rows: u32,
    pub hex: bool,
    pub black_to_move: bool,
    pub mark: Mark,
    pub name: Name,
}

/// Who moves: the first player (the one to move at the game's start, Black where
/// `black_first`) when `black_to_move` says the same.
pub(in crate::games) fn mover_of(black_to_move: bool, black_first: bool) -> Player {
    if black_to_move == black_first {
        Player::First
    } else {
        Player::Second
    }
}

/// The colour of `player` in a game whose start has Black to move where `black_first`.
pub(in crate::games) fn colour_from(player: Player, black_first: bool) -> &'static str {
    colour(if black_first {
        player
    } else {
        player.opponent()
    })
}

/// Where a game of stones starts, in words: the empty board, or the position `--at` gave.
pub(in crate::games) fn from_words(empty: bool, black_first: bool) -> String {
    if empty {
        "from the empty board".to_string()
    } else {
        format!(
            "from the position given ({} to move)",
            colour_from(Player::First, black_first)
        )
    }
}

impl<Mark: Fn(u32) -> &'static str, Name: Fn(u32) -> String> Stones<Mark, Name> {
    /// The board in lines: column letters above, row numbers on the left, the side to move
    /// below.
    pub fn text(&self) -> String {
        let letters: String = (0..self.columns)
            .map(|column| format!(" {}", char::from(b'a' + column as u8)))
            .collect();
        let mut lines = vec![format!("   {letters}")];
        for row in 0..self.rows {
            let cells: Vec<&str> = (0..self.columns)
                .map(|column| (self.mark)(row * self.columns + column))
                .collect();
            let indent = if self.hex { row as usize } else { 0 };
            lines.push(format!(
                "{}{:>2}  {}",
                " ".repeat(indent),
                row + 1,
                cells.join(" ")
            ));
        }
        let mover = colour(mover_of(self.black_to_move, true));
        lines.push(format!("{mover} to move"));
        lines.join("\n")
    }

    /// The board for the page: a grid (of hexagons for Hex), each cell a move by its name.
    pub fn view(&self) -> serde_json::Value {
        let cells = self.columns * self.rows;
        let marks: Vec<&str> = (0..cells)
            .map(|cell| match (self.mark)(cell) {
                "." => "",
                stone => stone,
            })
            .collect();
        let move_at: Vec<String> = (0..cells).map(&self.name).collect();
        let mut view = serde_json::json!({
            "kind": "grid",
            "rows": self.rows,
            "columns": self.columns,
            "cells": marks,
            "move_at": move_at,
        });
        if self.hex {
            view["shape"] = "hex".into();
        }
        view
    }
}

/// How a person types a move of Hex or k in a row.
pub(in crate::games) const CELL_HINT: &str =
    "a cell: its column's letter and its row from the top, as b2";

impl Hex {
    /// The board as [`Stones`] describe it.
    fn stones<'a>(
        &'a self,
        board: &'a HexBoard,
    ) -> Stones<impl Fn(u32) -> &'static str + 'a, impl Fn(u32) -> String + 'a> {
        Stones {
            columns: self.side(),
            rows: self.side(),
            hex: true,
            black_to_move: board.black_to_move(),
            mark: move |cell| mark(board, cell),
            name: move |cell| self.cell_name(cell as u8),
        }
    }
}

impl Presented for Hex {
    fn player_name(&self, player: Player) -> &'static str {
        colour_from(player, self.start().black_to_move())
    }
    fn mover(&self, board: &HexBoard) -> Player {
        mover_of(board.black_to_move(), self.start().black_to_move())
    }
    fn position(&self, position: &str) -> Result<HexBoard, InputError> {
        self.after_cells(position)
    }
    /// The board as a rhombus, each row half a cell further right: `B` Black, `W` White.
    fn show(&self, board: &HexBoard) -> String {
        self.stones(board).text()
    }
    fn board(&self, board: &HexBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &HexBoard) -> serde_json::Value {
        self.stones(board).view()
    }
    fn move_name(&self, _: &HexBoard, cell: &u8) -> String {
        self.cell_name(*cell)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some(CELL_HINT)
    }
    fn headline(&self, value: Score) -> String {
        let (side, start) = (self.side(), self.start());
        let winner = self.player_name(if value > 0 {
            Player::First
        } else {
            Player::Second
        });
        let from = from_words(start == HexBoard::default(), start.black_to_move());
        format!("Hex on {side}x{side} {from}: {winner} wins with both playing optimally.")
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
