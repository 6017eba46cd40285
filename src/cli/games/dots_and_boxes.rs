//! Dots and Boxes: the VALUES are the rows and columns of boxes.

use gamesolver::games::DotsAndBoxes;
use gamesolver::{AnyValue, Ply, Score, Turn};

use super::super::present::{Answer, Entry, Fields, Line, Presented, alice_or_bob};
use super::super::run::Failure;
use super::{Bundled, Engine, Reads, Solves};

/// Dots and Boxes on the command line.
pub const GAME: Bundled = Bundled {
    name: "dots-and-boxes",
    about: "Dots and Boxes: the VALUES are the rows and columns of boxes (up to 24 edges)",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers { example: "2 3" },
        with: |values, task| task.with(&game(&values)?),
        check: |values, options, summary| summary.add_dense(&game(&values)?, options),
        fast: None,
        at: None,
    }),
};

/// The board of `values`: rows and columns of boxes.
fn game(values: &[i64]) -> Result<DotsAndBoxes, Failure> {
    match *values {
        [rows, columns] => Ok(DotsAndBoxes::new(rows, columns)?),
        _ => Err(Failure::Usage(format!(
            "dots-and-boxes takes two values, the rows and columns of boxes (as in \
             'gamesolver dots-and-boxes 2 3'); got {}",
            values.len()
        ))),
    }
}

/// The dots an edge joins, as (row, column) of the dot grid, counted from 0.
fn edge_dots(game: &DotsAndBoxes, edge: u8) -> ((u32, u32), (u32, u32)) {
    let (rows, columns) = game.size();
    let edge = u32::from(edge);
    let horizontal = (rows + 1) * columns;
    if edge < horizontal {
        let (row, column) = (edge / columns, edge % columns);
        ((row, column), (row, column + 1))
    } else {
        let edge = edge - horizontal;
        let (row, column) = (edge / (columns + 1), edge % (columns + 1));
        ((row, column), (row + 1, column))
    }
}

impl Presented for DotsAndBoxes {
    type Range = AnyValue;
    fn legend(&self) -> Option<&'static str> {
        Some(
            "A line joins two neighbouring dots, each written (row,column) and counted from \
             (0,0), the top-left dot.",
        )
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        let (rows, columns) = self.size();
        format!(
            "Dots and Boxes on {rows}x{columns} boxes: the first player's boxes minus the \
             second's is {value} with both playing optimally."
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let ((r1, c1), (r2, c2)) = edge_dots(self, ply.mv);
                let boxes = ply.gain;
                let outcome = match (boxes, ply.turn) {
                    (0, _) => String::new(),
                    (1, Turn::Keep) => ", completing a box, and moves again".to_string(),
                    (_, _) => format!(", completing {boxes} boxes, and moves again"),
                };
                Entry {
                    player,
                    text: format!("{player} draws ({r1},{c1})-({r2},{c2}){outcome}"),
                    fields: Fields::Edge {
                        from: [r1, c1],
                        to: [r2, c2],
                        boxes,
                    },
                }
            })
            .collect()
    }
}

