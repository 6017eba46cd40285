//! Quixo on a 3×3, 4×4 or 5×5 board, with the rules as GamesmanOne plays them (its
//! `src/games/quixo`), so that the two can be compared position by position.
//!
//! Every cell starts blank. A player takes a cube from the border that is blank or shows their own
//! mark, and pushes it back into the same row or column from one of its ends (not the end it was
//! taken from): the cubes between slide one cell toward the gap, and the pushed cube shows the
//! mover's mark. A position where the side to move has a line of `side` marks is won for them;
//! otherwise a line of the opponent's is lost (so a push that makes lines for both players loses,
//! as in Gigamic's rules). Play that never makes a line is a draw: positions recur, so the game
//! may cycle. X moves first. Gigamic's 5×5 rules add nothing else; GamesmanOne's boards of 3×3
//! and 4×4 keep those rules with lines of 3 and 4.
//!
//! Tiers are the counts of X and O cubes (`(x, o)`, ordered by `x + o`, then `x`): a push of a
//! blank cube adds one of the mover's, any other push keeps the tier, so play cycles only
//! within a tier. A tier's ranks are every board with those counts, for either side to move;
//! the boards GamesmanOne calls illegal (the side that just moved has no cube on the border,
//! except on the empty board with X to move) are holes. The eight rotations and reflections
//! of a board are one class ([`Symmetry`]).

use crate::InputError;
use crate::game::{Capabilities, Declares, Game, Score, Step, Symmetry, Tiered, Turn};

use super::ranks::{BINOMIAL, colex_rank, colex_unrank, pack, spread};

/// The largest side of a board.
pub const MAX_QUIXO_SIDE: usize = 5;

/// A Quixo position: the cells marked X and O (bit `row · side + column`), and whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct QuixoBoard {
    /// Cells showing X.
    pub x: u32,
    /// Cells showing O.
    pub o: u32,
    /// Whether O is to move (X moves first).
    pub o_to_move: bool,
}

/// The end of its row or column where a pushed cube goes back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    /// The row's left end.
    Left,
    /// The row's right end.
    Right,
    /// The column's top end.
    Top,
    /// The column's bottom end.
    Bottom,
}

impl Edge {
    /// The four ends, in the order moves are listed.
    pub const ALL: [Edge; 4] = [Edge::Left, Edge::Right, Edge::Top, Edge::Bottom];

    /// GamesmanOne's letter for the end: `L`, `R`, `U` or `D`.
    pub fn letter(self) -> char {
        match self {
            Edge::Left => 'L',
            Edge::Right => 'R',
            Edge::Top => 'U',
            Edge::Bottom => 'D',
        }
    }
}

/// A move: the cube at `cell` (row · side + column) pushed back in at `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Push {
    /// The border cell the cube is taken from.
    pub cell: u8,
    /// Where it goes back in.
    pub to: Edge,
}

/// A push as masks: what it does to either player's cells.
#[derive(Debug, Clone, Copy)]
struct Slide {
    push: Push,
    /// The cell taken.
    from: u32,
    /// The cells from the one taken to the end, inclusive (all of them change).
    span: u32,
    /// The cells that take their neighbour's cube (the span less the end).
    receive: u32,
    /// The end cell, where the cube goes in.
    end: u32,
    /// Shift of the neighbours: toward higher bits (`true`) or lower, by `step` bits.
    up: bool,
    step: u32,
}

impl Slide {
    #[inline]
    fn apply(&self, cells: u32) -> u32 {
        let moved = if self.up {
            cells << self.step
        } else {
            cells >> self.step
        };
        (cells & !self.span) | (moved & self.receive)
    }
}

/// Quixo on a `side × side` board, from the empty board with X to move.
///
/// ```
/// use gamesolver::games::Quixo;
/// use gamesolver::engines::retrograde::{self, HashIds, Outcome};
///
/// let game = Quixo::new(3).unwrap();
/// let solution = retrograde::solve(&game, HashIds::default(), retrograde::Options::new()).unwrap();
/// assert_eq!(solution.outcome(), Outcome::Win); // X wins on 3×3 …
/// assert_eq!(solution.remoteness(), Some(7)); // … in 7
/// ```
#[derive(Debug, Clone)]
pub struct Quixo {
    side: usize,
    cells: usize,
    full: u32,
    border: u32,
    lines: Vec<u32>,
    slides: Vec<Slide>,
    /// For each of the seven symmetries other than the identity, and each byte of a mask, the
    /// image of that byte's cells.
    images: Vec<[Vec<u32>; 4]>,
}

impl Quixo {
    /// Quixo on a `side × side` board, `side` 3, 4 or 5.
    pub fn new(side: usize) -> Result<Self, InputError> {
        if !(3..=MAX_QUIXO_SIDE).contains(&side) {
            return Err(InputError::InvalidGame(format!(
                "a Quixo board's side is 3, 4 or 5, not {side}"
            )));
        }
        let cells = side * side;
        let bit = |row: usize, column: usize| 1u32 << (row * side + column);
        let mut lines = Vec::new();
        for at in 0..side {
            lines.push((0..side).map(|column| bit(at, column)).sum());
            lines.push((0..side).map(|row| bit(row, at)).sum());
        }
        lines.push((0..side).map(|at| bit(at, at)).sum());
        lines.push((0..side).map(|at| bit(at, side - 1 - at)).sum());
        let last = side - 1;
        let mut border = 0;
        let mut slides = Vec::new();
        for cell in 0..cells {
            let (row, column) = (cell / side, cell % side);
            if row != 0 && row != last && column != 0 && column != last {
                continue;
            }
            border |= bit(row, column);
            for to in Edge::ALL {
                let (span, receive, end, up, step): (Vec<_>, Vec<_>, _, _, _) = match to {
                    Edge::Left if column != 0 => (
                        (0..=column).map(|c| bit(row, c)).collect(),
                        (1..=column).map(|c| bit(row, c)).collect(),
                        bit(row, 0),
                        true,
                        1,
                    ),
                    Edge::Right if column != last => (
                        (column..=last).map(|c| bit(row, c)).collect(),
                        (column..last).map(|c| bit(row, c)).collect(),
                        bit(row, last),
                        false,
                        1,
                    ),
                    Edge::Top if row != 0 => (
                        (0..=row).map(|r| bit(r, column)).collect(),
                        (1..=row).map(|r| bit(r, column)).collect(),
                        bit(0, column),
                        true,
                        side as u32,
                    ),
                    Edge::Bottom if row != last => (
                        (row..=last).map(|r| bit(r, column)).collect(),
                        (row..last).map(|r| bit(r, column)).collect(),
                        bit(last, column),
                        false,
                        side as u32,
                    ),
                    _ => continue,
                };
                slides.push(Slide {
                    push: Push {
                        cell: cell as u8,
                        to,
                    },
                    from: bit(row, column),
                    span: span.into_iter().sum(),
                    receive: receive.into_iter().sum(),
                    end,
                    up,
                    step,
                });
            }
        }
        let images = (1..8)
            .map(|symmetry| {
                std::array::from_fn(|byte_at| {
                    (0..256u32)
                        .map(|byte| {
                            (0..8)
                                .filter(|b| byte >> b & 1 == 1)
                                .map(|b| byte_at * 8 + b)
                                .filter(|&cell| cell < cells)
                                .map(|cell| {
                                    let (r, c) =
                                        transform(symmetry, cell / side, cell % side, side);
                                    bit(r, c)
                                })
                                .sum()
                        })
                        .collect()
                })
            })
            .collect();
        Ok(Quixo {
            side,
            cells,
            full: (1u32 << cells) - 1,
            border,
            lines,
            slides,
            images,
        })
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Whether `cells` hold a whole line (a row, a column or a diagonal).
    pub fn has_line(&self, cells: u32) -> bool {
        self.lines
            .iter()
            .any(|&line| cells & line == line && line != 0)
    }

    /// The winner's side at a position that is over: `Some(true)` if the side to move wins,
    /// `Some(false)` if it loses, `None` while play goes on.
    fn over(&self, board: &QuixoBoard) -> Option<bool> {
        let (mine, theirs) = board.sides();
        if self.has_line(mine) {
            Some(true)
        } else if self.has_line(theirs) {
            Some(false)
        } else {
            None
        }
    }

    /// Whether GamesmanOne counts `board` a position of play: the empty board with X to move,
    /// or one where the side that just moved has a cube on the border.
    pub fn is_legal(&self, board: &QuixoBoard) -> bool {
        let (_, theirs) = board.sides();
        (board.x | board.o) & !self.full == 0
            && board.x & board.o == 0
            && (theirs & self.border != 0 || (board.x | board.o == 0 && !board.o_to_move))
    }

    /// The position GamesmanOne writes as `1_` (X to move) or `2_` (O to move) followed by the
    /// cells row by row, `X`, `O` or `-`.
    pub fn formal(&self, board: &QuixoBoard) -> String {
        let mut text = String::from(if board.o_to_move { "2_" } else { "1_" });
        for cell in 0..self.cells {
            text.push(match (board.x >> cell & 1, board.o >> cell & 1) {
                (1, _) => 'X',
                (_, 1) => 'O',
                _ => '-',
            });
        }
        text
    }

    /// Reads a position as [`formal`](Quixo::formal) writes it (spaces and `/` between cells
    /// are allowed). A board GamesmanOne calls illegal ([`is_legal`](Quixo::is_legal)) is refused.
    pub fn parse(&self, text: &str) -> Result<QuixoBoard, InputError> {
        let problem = |what: String| {
            InputError::InvalidState(format!(
                "{what}: a Quixo position is 1_ (X to move) or 2_ (O to move), then the {} cells \
                 row by row as X, O or -, as GamesmanOne writes it ('1_{}')",
                self.cells,
                "-".repeat(self.cells)
            ))
        };
        let text = text.trim();
        let (turn, cells) = text
            .split_once('_')
            .ok_or_else(|| problem(format!("{text:?} has no '_' after the turn")))?;
        let o_to_move = match turn {
            "1" => false,
            "2" => true,
            other => return Err(problem(format!("the turn is {other:?}, not 1 or 2"))),
        };
        let cells: Vec<char> = cells
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if cells.len() != self.cells {
            return Err(problem(format!("{} cells given", cells.len())));
        }
        let mut board = QuixoBoard {
            o_to_move,
            ..QuixoBoard::default()
        };
        for (cell, mark) in cells.into_iter().enumerate() {
            match mark.to_ascii_uppercase() {
                'X' => board.x |= 1 << cell,
                'O' => board.o |= 1 << cell,
                '-' | '.' => {}
                other => return Err(problem(format!("{other:?} is not X, O or -"))),
            }
        }
        if !self.is_legal(&board) {
            let mover = if board.o_to_move { "X" } else { "O" };
            return Err(problem(format!(
                "no game reaches it: {mover} just moved and has no cube on the border"
            )));
        }
        Ok(board)
    }

    /// The tier of `x` X cubes and `o` O cubes.
    fn tier_of(x: usize, o: usize) -> usize {
        let placed = x + o;
        placed * (placed + 1) / 2 + x
    }

    /// The cube counts of tier `tier`: `(x, o)`.
    fn counts(&self, tier: usize) -> Option<(usize, usize)> {
        let placed = (0..=self.cells).rfind(|placed| placed * (placed + 1) / 2 <= tier)?;
        let x = tier - placed * (placed + 1) / 2;
        (x <= placed).then_some((x, placed - x))
    }

    /// Boards of a tier for one side to move.
    fn boards(&self, x: usize, o: usize) -> u64 {
        BINOMIAL[self.cells][x] * BINOMIAL[self.cells - x][o]
    }

    /// The image of `cells` under symmetry `symmetry` (1 to 7).
    #[inline]
    fn image(&self, symmetry: usize, cells: u32) -> u32 {
        let tables = &self.images[symmetry - 1];
        let mut image = 0;
        for (at, table) in tables.iter().enumerate() {
            let byte = (cells >> (8 * at)) & 0xFF;
            if byte != 0 {
                image |= table[byte as usize];
            }
        }
        image
    }
}

/// Cell `(row, column)` under symmetry `symmetry` of the square of side `side`: bit 0 transposes,
/// bit 1 mirrors the columns, bit 2 mirrors the rows.
fn transform(symmetry: usize, row: usize, column: usize, side: usize) -> (usize, usize) {
    let (mut r, mut c) = if symmetry & 1 == 1 {
        (column, row)
    } else {
        (row, column)
    };
    if symmetry & 2 == 2 {
        c = side - 1 - c;
    }
    if symmetry & 4 == 4 {
        r = side - 1 - r;
    }
    (r, c)
}

impl QuixoBoard {
    /// The side to move's cells and the other side's.
    #[inline]
    fn sides(&self) -> (u32, u32) {
        if self.o_to_move {
            (self.o, self.x)
        } else {
            (self.x, self.o)
        }
    }
}

impl Game for Quixo {
    type State = QuixoBoard;
    type Move = Push;

    fn start(&self) -> QuixoBoard {
        QuixoBoard::default()
    }

    fn moves(&self, board: &QuixoBoard) -> impl Iterator<Item = Push> {
        let over = self.over(board).is_some();
        let (_, theirs) = board.sides();
        self.slides
            .iter()
            .filter(move |slide| !over && slide.from & theirs == 0)
            .map(|slide| slide.push)
    }

    fn play(&self, board: &QuixoBoard, push: &Push) -> Step<QuixoBoard> {
        let slide = self
            .slides
            .iter()
            .find(|slide| slide.push == *push)
            .expect("a move of this board");
        let (mut x, mut o) = (slide.apply(board.x), slide.apply(board.o));
        if board.o_to_move {
            o |= slide.end;
        } else {
            x |= slide.end;
        }
        Step {
            next: QuixoBoard {
                x,
                o,
                o_to_move: !board.o_to_move,
            },
            gain: 0,
            turn: Turn::Pass,
        }
    }

    fn for_each_step(&self, board: &QuixoBoard, mut each: impl FnMut(Step<QuixoBoard>) -> bool) {
        if self.over(board).is_some() {
            return;
        }
        let (_, theirs) = board.sides();
        for slide in &self.slides {
            if slide.from & theirs != 0 {
                continue;
            }
            let (mut x, mut o) = (slide.apply(board.x), slide.apply(board.o));
            if board.o_to_move {
                o |= slide.end;
            } else {
                x |= slide.end;
            }
            let next = QuixoBoard {
                x,
                o,
                o_to_move: !board.o_to_move,
            };
            if !each(Step {
                next,
                gain: 0,
                turn: Turn::Pass,
            }) {
                return;
            }
        }
    }

    fn payoff(&self, board: &QuixoBoard) -> Score {
        match self.over(board) {
            Some(true) => 1,
            Some(false) => -1,
            None => 0,
        }
    }

    fn state_bound(&self) -> Option<u64> {
        Some(2 * 3u64.pow(self.cells as u32))
    }

    fn state_text(&self, board: &QuixoBoard) -> Option<String> {
        Some(self.formal(board))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none()
            .tiers()
            .symmetry()
            .outcome_game()
            .may_cycle()
    }
}

impl Tiered for Quixo {
    fn tier_count(&self) -> usize {
        (self.cells + 1) * (self.cells + 2) / 2
    }

    fn tier(&self, board: &QuixoBoard) -> usize {
        Quixo::tier_of(board.x.count_ones() as usize, board.o.count_ones() as usize)
    }

    fn tier_len(&self, tier: usize) -> u64 {
        self.counts(tier).map_or(0, |(x, o)| 2 * self.boards(x, o))
    }

    fn rank(&self, board: &QuixoBoard) -> u64 {
        let (x, o) = (board.x.count_ones() as usize, board.o.count_ones() as usize);
        let per_x = BINOMIAL[self.cells - x][o];
        let within = colex_rank(u64::from(board.x)) * per_x
            + colex_rank(u64::from(pack(board.o, !board.x & self.full)));
        if board.o_to_move {
            self.boards(x, o) + within
        } else {
            within
        }
    }

    fn unrank(&self, tier: usize, rank: u64) -> Option<QuixoBoard> {
        let (x, o) = self.counts(tier)?;
        let boards = self.boards(x, o);
        let (o_to_move, within) = (rank >= boards, rank % boards);
        let per_x = BINOMIAL[self.cells - x][o];
        let xs = colex_unrank(x, within / per_x, self.cells)? as u32;
        let os = colex_unrank(o, within % per_x, self.cells - x)? as u32;
        let board = QuixoBoard {
            x: xs,
            o: spread(os, !xs & self.full),
            o_to_move,
        };
        self.is_legal(&board).then_some(board)
    }

    fn tier_reach(&self) -> usize {
        self.cells + 1
    }

    fn value_bound(&self) -> Score {
        1
    }
}

impl Symmetry for Quixo {
    fn canonical(&self, board: &QuixoBoard) -> QuixoBoard {
        let mut best = (board.x, board.o);
        for symmetry in 1..8 {
            let image = (self.image(symmetry, board.x), self.image(symmetry, board.o));
            if image < best {
                best = image;
            }
        }
        QuixoBoard {
            x: best.0,
            o: best.1,
            o_to_move: board.o_to_move,
        }
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli;

#[cfg(test)]
mod tests;
