//! Dots and Boxes on a `rows × columns` board of boxes (at most 32 edges), written as a
//! newcomer writes it: the lines drawn in the state, the boxes a line completes as its gain,
//! and the turn kept when it completes one; a value range of the boxes still open. (The
//! bundled, tuned game is games/dots_and_boxes.rs.)
//!
//! The rules: the players draw one line between two neighbouring dots in turn; a line that
//! completes the fourth side of a box (or of two) scores it for the player who drew it, who then
//! draws again. The value is the first player's boxes minus the second's.

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn, ValueRange};

/// Dots and Boxes on one board.
#[derive(Debug, Clone)]
pub struct Dots {
    /// Rows of boxes.
    pub rows: u32,
    /// Columns of boxes.
    pub columns: u32,
    /// Each box's four lines, as a mask of edges.
    boxes: Vec<u32>,
}

impl Dots {
    /// The board of `rows × columns` boxes. Edges: the horizontal ones row by row
    /// (`(rows + 1) · columns`), then the vertical ones (`rows · (columns + 1)`).
    pub fn new(rows: u32, columns: u32) -> Self {
        let horizontal = (rows + 1) * columns;
        assert!(horizontal + rows * (columns + 1) <= 32);
        let mut boxes = Vec::new();
        for row in 0..rows {
            for column in 0..columns {
                let top = row * columns + column;
                let bottom = (row + 1) * columns + column;
                let left = horizontal + row * (columns + 1) + column;
                boxes.push(1 << top | 1 << bottom | 1 << left | 1 << (left + 1));
            }
        }
        Dots {
            rows,
            columns,
            boxes,
        }
    }

    fn edges(&self) -> u32 {
        (self.rows + 1) * self.columns + self.rows * (self.columns + 1)
    }
}

impl Game for Dots {
    /// The lines drawn, one bit per edge.
    type State = u32;
    /// The edge drawn.
    type Move = u8;

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, drawn: &u32) -> impl Iterator<Item = u8> {
        let drawn = *drawn;
        (0..self.edges() as u8).filter(move |&edge| drawn >> edge & 1 == 0)
    }

    fn play(&self, drawn: &u32, edge: &u8) -> Step<u32> {
        let next = drawn | 1 << edge;
        let completed = self
            .boxes
            .iter()
            .filter(|&&sides| sides >> edge & 1 != 0 && next & sides == sides)
            .count() as Score;
        Step {
            next,
            gain: completed,
            turn: if completed > 0 {
                Turn::Keep
            } else {
                Turn::Pass
            },
        }
    }

    fn payoff(&self, _drawn: &u32) -> Score {
        0
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

/// The boxes still open are all the points left.
impl ValueRange for Dots {
    fn value_range(&self, drawn: &u32) -> (Score, Score) {
        let open = self
            .boxes
            .iter()
            .filter(|&&sides| drawn & sides != sides)
            .count() as Score;
        (-open, open)
    }
}

/// The literal rules on the dots' grid, lines as pairs of dots, boxes counted by their four
/// sides after each line, by plain minimax with a memo of the lines drawn: the first player's
/// boxes minus the second's.
pub fn by_hand(rows: usize, columns: usize) -> Score {
    type Line = ((usize, usize), (usize, usize));
    let mut lines: Vec<Line> = Vec::new();
    for r in 0..=rows {
        for c in 0..=columns {
            if c < columns {
                lines.push(((r, c), (r, c + 1)));
            }
            if r < rows {
                lines.push(((r, c), (r + 1, c)));
            }
        }
    }
    fn boxes_done(lines: &[Line], drawn: &[bool], rows: usize, columns: usize) -> usize {
        let has = |a: (usize, usize), b: (usize, usize)| {
            lines
                .iter()
                .zip(drawn)
                .any(|(&line, &d)| d && line == (a, b))
        };
        let mut done = 0;
        for r in 0..rows {
            for c in 0..columns {
                if has((r, c), (r, c + 1))
                    && has((r + 1, c), (r + 1, c + 1))
                    && has((r, c), (r + 1, c))
                    && has((r, c + 1), (r + 1, c + 1))
                {
                    done += 1;
                }
            }
        }
        done
    }
    fn value(
        lines: &[Line],
        drawn: &mut Vec<bool>,
        rows: usize,
        columns: usize,
        memo: &mut std::collections::HashMap<Vec<bool>, Score>,
    ) -> Score {
        if let Some(&known) = memo.get(drawn) {
            return known;
        }
        let before = boxes_done(lines, drawn, rows, columns);
        let mut best: Option<Score> = None;
        for i in 0..lines.len() {
            if drawn[i] {
                continue;
            }
            drawn[i] = true;
            let scored = (boxes_done(lines, drawn, rows, columns) - before) as Score;
            let rest = value(lines, drawn, rows, columns, memo);
            let outcome = if scored > 0 { scored + rest } else { -rest };
            drawn[i] = false;
            best = Some(best.map_or(outcome, |b: Score| b.max(outcome)));
        }
        let result = best.unwrap_or(0);
        memo.insert(drawn.clone(), result);
        result
    }
    let mut drawn = vec![false; lines.len()];
    value(&lines, &mut drawn, rows, columns, &mut Default::default())
}
