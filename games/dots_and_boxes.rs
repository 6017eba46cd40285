//! Dots and Boxes on a grid of `rows × columns` boxes. A move draws one edge between adjacent
//! dots; a player who completes a box (its fourth edge) scores a point and moves again. The
//! value is the first player's boxes minus the second's.

use crate::error::Error;
use crate::game::{DenseIndex, Game, Score, Step, Turn};

/// The most edges a board may have: the state is a bitmask of drawn edges, and the dense
/// index space is `2^edges`.
pub const MAX_EDGES: u32 = 24;

/// A board of `rows × columns` boxes. Edges are numbered: first the horizontal ones, row by
/// row (`(rows + 1) × columns`), then the vertical ones, row by row (`rows × (columns + 1)`).
///
/// ```
/// use gamesolver::{solve, memo::DenseTable, games::DotsAndBoxes};
///
/// let game = DotsAndBoxes::new(1, 1).unwrap();
/// // One box: whoever draws the fourth edge takes it, and the second player draws it.
/// assert_eq!(solve(&game, DenseTable::for_game(&game)).unwrap().value(), -1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotsAndBoxes {
    rows: u32,
    columns: u32,
    edges: u32,
    /// For each edge, the boxes it borders, as masks of their four edges (one or two).
    borders: Vec<Vec<u32>>,
}

impl DotsAndBoxes {
    /// A board of `rows × columns` boxes: both at least 1, at most [`MAX_EDGES`] edges.
    pub fn new(rows: i64, columns: i64) -> Result<Self, Error> {
        for (position, value) in [(1, rows), (2, columns)] {
            if !(1..=12).contains(&value) {
                return Err(Error::OutOfRange {
                    unit: "dimension",
                    position,
                    value,
                    rule: "the board needs 1 to 12 boxes per side",
                });
            }
        }
        let (rows, columns) = (rows as u32, columns as u32);
        let horizontal = (rows + 1) * columns;
        let edges = horizontal + rows * (columns + 1);
        if edges > MAX_EDGES {
            return Err(Error::InvalidGame(format!(
                "a board of {rows} x {columns} boxes has {edges} edges, but boards may have at \
                 most 24 edges (2 x 3 boxes have 17, 3 x 3 have 24)"
            )));
        }
        let mut borders = vec![Vec::new(); edges as usize];
        for row in 0..rows {
            for column in 0..columns {
                let top = row * columns + column;
                let bottom = (row + 1) * columns + column;
                let left = horizontal + row * (columns + 1) + column;
                let right = left + 1;
                let mask = (1 << top) | (1 << bottom) | (1 << left) | (1 << right);
                for edge in [top, bottom, left, right] {
                    borders[edge as usize].push(mask);
                }
            }
        }
        Ok(DotsAndBoxes {
            rows,
            columns,
            edges,
            borders,
        })
    }

    /// Boxes per column and per row: `(rows, columns)`.
    pub fn size(&self) -> (u32, u32) {
        (self.rows, self.columns)
    }

    /// How many edges the board has.
    pub fn edges(&self) -> u32 {
        self.edges
    }
}

impl Game for DotsAndBoxes {
    /// The drawn edges, one bit each.
    type State = u32;
    /// The edge to draw.
    type Move = u8;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, drawn: &u32, moves: &mut Vec<u8>) {
        moves.extend((0..self.edges as u8).filter(|edge| drawn & (1 << edge) == 0));
    }
    fn play(&self, drawn: &u32, edge: &u8) -> Step<u32> {
        let next = drawn | (1 << edge);
        let completed = self.borders[*edge as usize]
            .iter()
            .filter(|&&square| next & square == square)
            .count();
        Step {
            next,
            gain: completed as Score,
            turn: if completed > 0 {
                Turn::Keep
            } else {
                Turn::Pass
            },
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        Some(1 << self.edges)
    }
}

impl DenseIndex for DotsAndBoxes {
    fn index_len(&self) -> usize {
        1 << self.edges
    }
    fn index(&self, drawn: &u32) -> usize {
        *drawn as usize
    }
}
