//! Dots and Boxes: the VALUES are the rows and columns of boxes.

use crate::InputError;
use crate::games::DotsAndBoxes;
use crate::{Score, Turn, engines::Ply};

use super::super::args::SolverName;
use super::super::model::{Answer, Entry, Failure, Fields, Line};
use super::super::present::{Presented, Work, alice_or_bob};
use super::super::registry::{Bundled, Engine, Reads, Solves};
use super::super::solve::{distributed_report, tier_report};

/// Dots and Boxes on the command line.
pub const GAME: Bundled = Bundled {
    name: "dots-and-boxes",
    about: "Dots and Boxes: the VALUES are the rows and columns of boxes (3x3 has 24 edges; the tier solver solves 3x4, 31 edges)",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers { example: "2 3" },
        with: |values, task| task.with_tiers(&game(&values)?),
        check: |values, options, summary| summary.add_dense(&game(&values)?, options),
        fast: None,
        tiers: Some(|cli, values, limits| {
            let n = values.len();
            if cli.solver == SolverName::Distributed {
                return distributed_report(cli, game(&values)?, (n, &values), limits);
            }
            tier_report(cli, &game(&values)?, (n, &values), limits)
        }),
        at: Some(
            "the lines drawn, each as ROW,COLUMN-ROW,COLUMN of its dots from 0,0 at the top left, separated by spaces (as '0,0-0,1 1,1-2,1')",
        ),
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
    /// Every set of the `E` edges is a rank, with a move per edge not drawn: `E · 2^(E − 1)`.
    fn tier_work(&self) -> Option<Work> {
        let edges = self.edges();
        Some(Work {
            moves: u64::from(edges).checked_shl(edges - 1)?,
            faster: None,
        })
    }
    /// 2×3 boxes: 17 edges, 1.1 million moves.
    fn tier_sample(&self) -> Option<Self> {
        DotsAndBoxes::new(2, 3).ok()
    }
    fn position(&self, position: &str) -> Result<u64, InputError> {
        let mut drawn = 0u64;
        for line in position
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|line| !line.is_empty())
        {
            let edge = (0..self.edges() as u8)
                .find(|edge| same_line(&self.move_name(&0, edge), line))
                .ok_or_else(|| {
                    InputError::InvalidState(format!(
                        "{line:?} is not a line of this board: a line joins two neighbouring \
                         dots, written ROW,COLUMN-ROW,COLUMN from 0,0 at the top left (as \
                         0,0-0,1)"
                    ))
                })?;
            drawn |= 1 << edge;
        }
        Ok(drawn)
    }
    fn show(&self, drawn: &u64) -> String {
        let (rows, columns) = self.size();
        let horizontal = (rows + 1) * columns;
        let is_drawn = |edge: u32| drawn & (1 << edge) != 0;
        let mut lines = Vec::new();
        for row in 0..=rows {
            let mut dots = String::from("+");
            for column in 0..columns {
                dots.push_str(if is_drawn(row * columns + column) {
                    "---+"
                } else {
                    "   +"
                });
            }
            lines.push(dots);
            if row < rows {
                let side = |column: u32| is_drawn(horizontal + row * (columns + 1) + column);
                let mut sides = String::new();
                for column in 0..=columns {
                    sides.push(if side(column) { '|' } else { ' ' });
                    if column < columns {
                        // A box with its four sides drawn is claimed (by whoever drew the last).
                        let claimed = side(column)
                            && side(column + 1)
                            && is_drawn(row * columns + column)
                            && is_drawn((row + 1) * columns + column);
                        sides.push_str(if claimed { " # " } else { "   " });
                    }
                }
                lines.push(sides);
            }
        }
        lines
            .push("(dots are ROW,COLUMN from 0,0 at the top left; # is a claimed box)".to_string());
        lines.join("\n")
    }
    fn board(&self, drawn: &u64) -> Option<String> {
        Some(self.show(drawn))
    }
    fn view(&self, drawn: &u64) -> serde_json::Value {
        let (rows, columns) = self.size();
        let lines: Vec<_> = (0..self.edges() as u8)
            .filter(|edge| drawn >> edge & 1 == 1)
            .map(|edge| {
                let ((r1, c1), (r2, c2)) = edge_dots(self, edge);
                [[r1, c1], [r2, c2]]
            })
            .collect();
        serde_json::json!({
            "kind": "dots", "rows": rows, "columns": columns, "drawn": lines
        })
    }
    fn move_name(&self, _: &u64, edge: &u8) -> String {
        let ((r1, c1), (r2, c2)) = edge_dots(self, *edge);
        format!("{r1},{c1}-{r2},{c2}")
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("the line's two dots, ROW,COLUMN-ROW,COLUMN from 0,0 at the top left: 0,0-0,1")
    }
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
                    fields: Fields::new()
                        .with("from", vec![r1, c1])
                        .with("to", vec![r2, c2])
                        .with("boxes", boxes),
                }
            })
            .collect()
    }
}

/// Whether `typed` names the line `name` (`R,C-R,C`), either way round, parentheses and spaces
/// aside.
fn same_line(name: &str, typed: &str) -> bool {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
            .collect()
    };
    let typed = plain(typed);
    let reversed = name.split_once('-').map(|(a, b)| format!("{b}-{a}"));
    typed == name || reversed.is_some_and(|reversed| typed == reversed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The forecast's unit: the moves the tier solver counts.
    #[test]
    fn the_declared_tier_work_is_what_the_tier_solver_counts() {
        for (rows, columns) in [(1, 1), (1, 2), (2, 2), (2, 3)] {
            let game = DotsAndBoxes::new(rows, columns).unwrap();
            let solved =
                crate::engines::tiers::solve(&game, crate::engines::tiers::Options::new()).unwrap();
            assert_eq!(game.tier_work().unwrap().moves, solved.stats().moves);
        }
    }
}
