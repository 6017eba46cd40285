//! Six Men's Morris on the command line: `gamesolver six-mens-morris MEN [FLYING]`.

use crate::InputError;
use crate::cli::model::{Answer, Entry, Fields, Line};
use crate::cli::present::{Presented, winner};
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::{MORRIS_POINT_NAMES, MorrisBoard, MorrisMove, SixMensMorris};
use crate::{Player, Score, engines::Ply};

/// Six Men's Morris on the command line.
pub const GAME: Bundled = Bundled::game::<SixMensMorris>(
    "six-mens-morris",
    "Six Men's Morris with MEN men a side (3 to 7; six in the game's name), flying at three men unless FLYING \
     is 0; may cycle (loopy tiers)",
)
.with_loopy_tiers::<SixMensMorris>();

impl FromValues for SixMensMorris {
    const EXAMPLE: &'static str = "6";
    const POSITION: Option<&'static str> = Some(
        "W or B (the side to move), the men White and Black hold in hand, ':', then the 16 points \
         row by row from the top (a5 c5 e5 / b4 c4 d4 / a3 b3 d3 e3 / b2 c2 d2 / a1 c1 e1) as W, \
         B or - ('W66:---/---/----/---/---' is the start)",
    );
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let men = |men: i64| SixMensMorris::new(usize::try_from(men).unwrap_or(0));
        match values {
            [count] => men(*count),
            [count, 1] => men(*count),
            [count, 0] => Ok(men(*count)?.without_flying()),
            [_, other] => Err(InputError::InvalidGame(format!(
                "six-mens-morris's FLYING is 1 (a side down to three men may fly) or 0, not {other}"
            ))),
            _ => Err(InputError::InvalidGame(format!(
                "six-mens-morris takes one or two VALUES, MEN and FLYING, not {}",
                values.len()
            ))),
        }
    }
}

/// A player's name, and the letter of their men.
fn name(player: Player) -> &'static str {
    if player == Player::First {
        "White"
    } else {
        "Black"
    }
}

/// The board drawn on its lines, `W` and `B` for the men and `o` for an empty point.
fn drawing(board: &MorrisBoard) -> Vec<String> {
    let mark = |point: usize| match (board.white >> point & 1, board.black >> point & 1) {
        (1, _) => 'W',
        (_, 1) => 'B',
        _ => 'o',
    };
    let m: Vec<char> = (0..16).map(mark).collect();
    vec![
        format!("5 {}-----{}-----{}", m[0], m[1], m[2]),
        "  |     |     |".to_string(),
        format!("4 |  {}--{}--{}  |", m[8], m[9], m[10]),
        "  |  |     |  |".to_string(),
        format!("3 {}--{}     {}--{}", m[7], m[15], m[11], m[3]),
        "  |  |     |  |".to_string(),
        format!("2 |  {}--{}--{}  |", m[14], m[13], m[12]),
        "  |     |     |".to_string(),
        format!("1 {}-----{}-----{}", m[6], m[5], m[4]),
        "  a  b  c  d  e".to_string(),
    ]
}

impl Presented for SixMensMorris {
    fn player_name(&self, player: Player) -> &'static str {
        name(player)
    }
    fn mover(&self, board: &MorrisBoard) -> Player {
        if board.black_to_move {
            Player::Second
        } else {
            Player::First
        }
    }
    fn position(&self, position: &str) -> Result<MorrisBoard, InputError> {
        self.parse(position)
    }
    fn show(&self, board: &MorrisBoard) -> String {
        let mut lines = drawing(board);
        lines.push(format!(
            "in hand: White {}, Black {}; {} to move",
            board.white_hand,
            board.black_hand,
            if board.black_to_move {
                "Black"
            } else {
                "White"
            }
        ));
        lines.join("\n")
    }
    fn board(&self, board: &MorrisBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &MorrisBoard) -> serde_json::Value {
        // The points on a 5×5 grid (`+` an empty point, blank where the grid has none); a click
        // on a point places a man there (`move_at`: the point's name).
        let mut cells = vec![String::new(); 25];
        let mut move_at = vec![serde_json::Value::Null; 25];
        for (point, name) in MORRIS_POINT_NAMES.iter().enumerate() {
            let bytes = name.as_bytes();
            let column = usize::from(bytes[0] - b'a');
            let row = 5 - usize::from(bytes[1] - b'0');
            move_at[row * 5 + column] = serde_json::json!(name);
            cells[row * 5 + column] = match (board.white >> point & 1, board.black >> point & 1) {
                (1, _) => "W",
                (_, 1) => "B",
                _ => "+",
            }
            .to_string();
        }
        serde_json::json!({
            "kind": "grid",
            "rows": 5,
            "columns": 5,
            "cells": cells,
            "move_at": move_at,
            "position": self.formal(board),
            "in_hand": {"white": board.white_hand, "black": board.black_hand},
        })
    }
    fn move_name(&self, _: &MorrisBoard, mv: &MorrisMove) -> String {
        mv.name()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some(
            "a point to place on (c5), FROM-TO to move (a5-a3), then xPOINT for the man a mill removes (a5-a3xb4)",
        )
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "White", "Black", "Draw")
    }
    fn headline(&self, value: Score) -> String {
        let result = match value.signum() {
            1 => "White wins",
            -1 => "Black wins",
            _ => "a draw",
        };
        format!(
            "Six men's morris with {} men a side{}: {result} with both playing optimally.",
            self.men(),
            if self.flying() { "" } else { ", no flying" }
        )
    }
    fn legend(&self) -> Option<&'static str> {
        Some(
            "points are named on a 5x5 grid (columns a-e, rows 1-5 from the bottom); c5 places a man, a5-a3 moves one, xb4 removes the opponent's man on b4 after a mill",
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = name(ply.player);
                let to = MORRIS_POINT_NAMES[usize::from(ply.mv.to)];
                let mut text = match ply.mv.from {
                    Some(from) => format!(
                        "{player} moves from {} to {to}",
                        MORRIS_POINT_NAMES[usize::from(from)]
                    ),
                    None => format!("{player} places a man on {to}"),
                };
                let mut fields = Fields::new().with("to", to.to_string());
                if let Some(from) = ply.mv.from {
                    fields = fields.with("from", MORRIS_POINT_NAMES[usize::from(from)].to_string());
                }
                if let Some(take) = ply.mv.take {
                    let taken = MORRIS_POINT_NAMES[usize::from(take)];
                    text.push_str(&format!(", closes a mill and removes the man on {taken}"));
                    fields = fields.with("take", taken.to_string());
                }
                Entry {
                    player,
                    text,
                    fields: fields.with("move", ply.mv.name()),
                }
            })
            .collect()
    }
}
