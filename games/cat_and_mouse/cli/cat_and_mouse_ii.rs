//! LeetCode 1728, Cat and Mouse II, from LeetCode's JSON object.

use crate::InputError;
use crate::games::{CatAndMouseII, Chase, MOUSE_TURNS};
use crate::{
    Player, Score,
    engines::{Ply, retrograde::Outcome},
};
use serde::Deserialize;

use super::super::cli as common;
use super::in_moves;
use crate::cli::args::Cli;
use crate::cli::model::{Answer, Entry, Failure, Fields, Line};
use crate::cli::present::{Presented, integers};
use crate::cli::registry::{Bundled, Own, Solves};
use crate::cli::serde_json;

/// The example in messages (LeetCode's first: the mouse wins).
const EXAMPLE: &str =
    "{\"grid\": [\"####F\", \"#C...\", \"M....\"], \"catJump\": 1, \"mouseJump\": 2}";

/// Cat and Mouse II on the command line.
pub const GAME: Bundled = Bundled::new(
    "cat-and-mouse-ii",
    "LeetCode 1728: the VALUE (or --input) is LeetCode's JSON, {\"grid\": [...], \
            \"catJump\": J, \"mouseJump\": J}; can the mouse win (true or false)",
    Solves::Own(Own {
        solve: |cli| {
            let game = game(cli)?;
            let (rows, columns) = game.size();
            common::report(cli, &game, rows * columns, |outcome, remoteness| {
                let wins = CatAndMouseII::mouse_wins(outcome, remoteness);
                let result = match outcome {
                    Outcome::Win if wins => {
                        format!("the mouse reaches the food {}", in_moves(remoteness))
                    }
                    Outcome::Win => format!(
                        "the mouse can reach the food, but only {} (past LeetCode's {MOUSE_TURNS})",
                        in_moves(remoteness)
                    ),
                    Outcome::Loss => format!("the cat wins {}", in_moves(remoteness)),
                    Outcome::Draw => {
                        "neither can force a win, and endless play goes to the cat".to_string()
                    }
                };
                (
                    Answer::Bool(wins),
                    format!(
                        "Cat and Mouse II on a {rows}x{columns} grid: {result} with both playing \
                         optimally (LeetCode's answer: {wins})."
                    ),
                )
            })
        },
        check: |cli, options, summary| {
            summary.reference = "value iteration";
            summary.add_report(&crate::check::check_outcome(&game(cli)?, options))
        },
        play: |args| common::play(args, &game(&args.game)?),
        analyze: |args| common::analyze(args, &game(&args.game)?),
        example: EXAMPLE,
        batch: None,
        solver: "retrograde analysis",
        board: false,
        tiers: false,
    }),
);

/// LeetCode's input.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    grid: Vec<String>,
    #[serde(rename = "catJump")]
    cat_jump: i64,
    #[serde(rename = "mouseJump")]
    mouse_jump: i64,
}

/// The game of the JSON given.
fn game(cli: &Cli) -> Result<CatAndMouseII, Failure> {
    let input: Input = common::json(cli, "game", EXAMPLE)?;
    Ok(CatAndMouseII::new(
        &input.grid,
        input.cat_jump,
        input.mouse_jump,
    )?)
}

/// A cell as `[row, column]` from 1, for JSON.
fn place(game: &CatAndMouseII, cell: u16) -> Vec<usize> {
    let columns = game.size().1;
    vec![cell as usize / columns + 1, cell as usize % columns + 1]
}

/// A cell as `(row,column)` from 1.
fn cell_text(game: &CatAndMouseII, cell: u16) -> String {
    let columns = game.size().1;
    format!(
        "({},{})",
        cell as usize / columns + 1,
        cell as usize % columns + 1
    )
}

impl Presented for CatAndMouseII {
    fn player_name(&self, player: Player) -> &'static str {
        if player.is_first() { "Mouse" } else { "Cat" }
    }
    fn mover(&self, state: &Chase) -> Player {
        if state.cat_moves {
            Player::Second
        } else {
            Player::First
        }
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Bool(value > 0)
    }
    fn headline(&self, value: Score) -> String {
        format!("Cat and Mouse II: {}.", self.final_result(value))
    }
    fn final_result(&self, margin: Score) -> String {
        if margin > 0 {
            "the mouse wins".into()
        } else {
            "the cat wins".into()
        }
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let cat = ply.state.cat_moves;
                let (animal, capital, from) = if cat {
                    ("cat", "Cat", ply.state.cat)
                } else {
                    ("mouse", "Mouse", ply.state.mouse)
                };
                let to = ply.mv;
                let what = if to == self.food() {
                    " (the food)"
                } else if (cat && to == ply.state.mouse) || (!cat && to == ply.state.cat) {
                    " (where the other is)"
                } else {
                    ""
                };
                let text = if to == from {
                    format!("{capital} stays at {}", cell_text(self, from))
                } else {
                    format!(
                        "{capital} jumps from {} to {}{what}",
                        cell_text(self, from),
                        cell_text(self, to)
                    )
                };
                Entry {
                    player: capital,
                    text,
                    fields: Fields::new()
                        .with("animal", animal)
                        .with("from", place(self, from))
                        .with("to", place(self, to)),
                }
            })
            .collect()
    }
    fn show(&self, state: &Chase) -> String {
        let (rows, columns) = self.size();
        let mut lines = Vec::with_capacity(rows);
        for row in 0..rows {
            let line: String = (0..columns)
                .map(|column| {
                    let cell = (row * columns + column) as u16;
                    if cell == state.mouse {
                        'M'
                    } else if cell == state.cat {
                        'C'
                    } else if cell == self.food() {
                        'F'
                    } else if self.is_wall(cell) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect();
            lines.push(format!("  {line}"));
        }
        lines.join("\n")
    }
    /// The grid: walls `#`, the food `F`, the mouse `M` and the cat `C`; each cell the mover
    /// can jump to (staying included) is a move.
    fn view(&self, state: &Chase) -> serde_json::Value {
        let (rows, columns) = self.size();
        let shown = self.show(state);
        let cells: Vec<String> = shown
            .lines()
            .flat_map(|line| line.trim_start().chars())
            .map(|mark| {
                if mark == '.' {
                    String::new()
                } else {
                    mark.to_string()
                }
            })
            .collect();
        let mut move_at = vec![None; rows * columns];
        for to in crate::Game::moves(self, state) {
            move_at[to as usize] = Some(self.move_name(state, &to));
        }
        serde_json::json!({
            "kind": "grid", "rows": rows, "columns": columns, "cells": cells, "move_at": move_at
        })
    }
    fn position(&self, position: &str) -> Result<Chase, InputError> {
        let (rows, columns) = self.size();
        let invalid = || {
            InputError::InvalidState(format!(
                "a Cat and Mouse II position is 'MOUSE_ROW,MOUSE_COLUMN,CAT_ROW,CAT_COLUMN' \
                 (from 1, on a {rows}x{columns} grid, not on a wall), and ',1' if the cat moves \
                 next"
            ))
        };
        let cell = |row: i64, column: i64| -> Option<u16> {
            ((1..=rows as i64).contains(&row) && (1..=columns as i64).contains(&column))
                .then(|| ((row - 1) as usize * columns + (column - 1) as usize) as u16)
                .filter(|&cell| !self.is_wall(cell))
        };
        let (mr, mc, cr, cc, cat_moves) = match *integers(position)? {
            [mr, mc, cr, cc] | [mr, mc, cr, cc, 0] => (mr, mc, cr, cc, false),
            [mr, mc, cr, cc, 1] => (mr, mc, cr, cc, true),
            _ => return Err(invalid()),
        };
        match (cell(mr, mc), cell(cr, cc)) {
            (Some(mouse), Some(cat)) => Ok(Chase {
                mouse,
                cat,
                cat_moves,
            }),
            _ => Err(invalid()),
        }
    }
    fn move_name(&self, _: &Chase, to: &u16) -> String {
        let columns = self.size().1;
        format!(
            "{},{}",
            *to as usize / columns + 1,
            *to as usize % columns + 1
        )
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("the cell to jump to, ROW,COLUMN from 1 (your own cell: stay)")
    }
}
