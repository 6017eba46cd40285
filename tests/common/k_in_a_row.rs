//! k in a row (an m,n,k-game: tic-tac-toe is 3,3,3; 4×4 tic-tac-toe 4,4,4), written as a user
//! writes a hard game against the public API only, with every declaration the pruning engine
//! reads: the value known without search, the forced reply, the bounds of a position
//! ([`ValueRange`]), and a key that keeps a position and its mirror images as one
//! ([`CompactKey`]). It has no Connect Four code: stones go on any empty cell, and lines are
//! listed, not shifted. [`Literal`] is the same game with nothing declared, the oracle's rules.
//!
//! Value for the side to move: a win scores one more than the cells still empty after the
//! winning stone (a quicker win scores more), a loss the opposite, a full board 0.

#![allow(dead_code)]

use hashbrown::HashMap;

use gamesolver::{Capabilities, CompactKey, Declares, Game, Score, Step, Turn, ValueRange};

/// The stones of the side to move and of the side that just moved, one bit per cell (row by
/// row); `won` when the side that just moved completed a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cells {
    pub mine: u32,
    pub theirs: u32,
    pub won: bool,
}

/// A symmetry of the board, as a map of (x, y).
type CellMap = Box<dyn Fn(i32, i32) -> (i32, i32)>;

/// The rules: a `width × height` board (at most 32 cells), `k` in a row wins.
#[derive(Debug, Clone)]
pub struct KInARow {
    pub width: u32,
    pub height: u32,
    pub k: u32,
    /// Every line of `k` cells, as a mask.
    lines: Vec<u32>,
    /// The lines through each cell.
    through: Vec<Vec<u32>>,
    /// The cells, centre first: the order moves are listed in.
    order: Vec<u32>,
    /// Each symmetry of the board (mirror images, and rotations on a square board) as a map
    /// from a byte of a bit board, at each byte's place, to the bits it maps to.
    images: Vec<[[u32; 256]; 4]>,
}

impl KInARow {
    pub fn new(width: u32, height: u32, k: u32) -> Self {
        assert!(width * height <= 32 && k >= 2 && k <= width.max(height));
        let cell = |x: i32, y: i32| y as u32 * width + x as u32;
        let inside = |x: i32, y: i32| x >= 0 && y >= 0 && x < width as i32 && y < height as i32;
        let mut lines = Vec::new();
        for y in 0..height as i32 {
            for x in 0..width as i32 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let end = (x + dx * (k as i32 - 1), y + dy * (k as i32 - 1));
                    if inside(end.0, end.1) {
                        lines.push(
                            (0..k as i32)
                                .fold(0, |line, i| line | 1 << cell(x + dx * i, y + dy * i)),
                        );
                    }
                }
            }
        }
        let cells = width * height;
        let through = (0..cells)
            .map(|c| {
                lines
                    .iter()
                    .copied()
                    .filter(|line| line >> c & 1 == 1)
                    .collect()
            })
            .collect();
        let mut order: Vec<u32> = (0..cells).collect();
        let distance = |c: u32| {
            let (x, y) = ((c % width) as i32 * 2, (c / width) as i32 * 2);
            (x - width as i32 + 1).abs() + (y - height as i32 + 1).abs()
        };
        order.sort_by_key(|&c| distance(c));
        let (w, h) = (width as i32, height as i32);
        let mut maps: Vec<CellMap> = vec![
            Box::new(|x, y| (x, y)),
            Box::new(move |x, y| (w - 1 - x, y)),
            Box::new(move |x, y| (x, h - 1 - y)),
            Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
        ];
        if width == height {
            maps.push(Box::new(|x, y| (y, x)));
            maps.push(Box::new(move |x, y| (w - 1 - y, x)));
            maps.push(Box::new(move |x, y| (y, w - 1 - x)));
            maps.push(Box::new(move |x, y| (w - 1 - y, w - 1 - x)));
        }
        let images = maps
            .iter()
            .map(|map| {
                let mut image = [[0u32; 256]; 4];
                for (place, bytes) in image.iter_mut().enumerate() {
                    for (byte, out) in bytes.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let c = place as u32 * 8 + bit;
                            if byte >> bit & 1 == 1 && c < cells {
                                let (x, y) = map((c % width) as i32, (c / width) as i32);
                                *out |= 1 << cell(x, y);
                            }
                        }
                    }
                }
                image
            })
            .collect();
        KInARow {
            width,
            height,
            k,
            lines,
            through,
            order,
            images,
        }
    }

    fn cells(&self) -> u32 {
        self.width * self.height
    }

    fn full(&self) -> u32 {
        if self.cells() == 32 {
            u32::MAX
        } else {
            (1 << self.cells()) - 1
        }
    }

    fn empty_cells(&self, position: &Cells) -> u32 {
        self.full() & !(position.mine | position.theirs)
    }

    /// The empty cells where `stones` would complete a line.
    fn threats(&self, stones: u32, empty: u32) -> u32 {
        self.lines.iter().fold(0, |cells, &line| {
            let missing = line & !stones;
            if missing.count_ones() == 1 && missing & empty != 0 {
                cells | missing
            } else {
                cells
            }
        })
    }

    /// Whether `stones` could still complete a line if they got every empty cell.
    fn can_make_line(&self, stones: u32, empty: u32) -> bool {
        self.lines.iter().any(|&line| line & !(stones | empty) == 0)
    }

    /// A position from stones given as (x, y) cells, the first player's first, played in turn.
    pub fn position(&self, cells: &[(u32, u32)]) -> Cells {
        cells.iter().fold(self.start(), |position, &(x, y)| {
            self.play(&position, &(y * self.width + x)).next
        })
    }

    /// Every (x, y) of the board.
    pub fn all_cells(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| (x, y)))
    }

    /// The bit board's image under symmetry `which`.
    fn image(&self, which: usize, bits: u32) -> u32 {
        let image = &self.images[which];
        (0..4).fold(0, |out, place| {
            out | image[place][(bits >> (8 * place) & 0xff) as usize]
        })
    }
}

impl Game for KInARow {
    type State = Cells;
    type Move = u32;

    fn start(&self) -> Cells {
        Cells {
            mine: 0,
            theirs: 0,
            won: false,
        }
    }

    /// Every empty cell, centre first.
    fn moves(&self, position: &Cells) -> impl Iterator<Item = u32> {
        let empty = if position.won {
            0
        } else {
            self.empty_cells(position)
        };
        self.order
            .iter()
            .copied()
            .filter(move |&c| empty >> c & 1 == 1)
    }

    fn play(&self, position: &Cells, cell: &u32) -> Step<Cells> {
        let mover = position.mine | 1 << cell;
        Step {
            next: Cells {
                mine: position.theirs,
                theirs: mover,
                won: self.through[*cell as usize]
                    .iter()
                    .any(|&line| line & !mover == 0),
            },
            gain: 0,
            turn: Turn::Pass,
        }
    }

    fn payoff(&self, position: &Cells) -> Score {
        let empty = Score::from(self.empty_cells(position).count_ones() as u8);
        if position.won { -(empty + 1) } else { 0 }
    }

    /// A finished game; a win with the next stone; a loss when the opponent has two cells to
    /// win at and the side to move none.
    fn known_value(&self, position: &Cells) -> Option<Score> {
        let empty = self.empty_cells(position);
        let left = Score::from(empty.count_ones() as u8);
        if position.won || empty == 0 {
            return Some(self.payoff(position));
        }
        if self.threats(position.mine, empty) != 0 {
            return Some(left);
        }
        let theirs = self.threats(position.theirs, empty);
        (theirs.count_ones() >= 2).then_some(-(left - 1))
    }

    /// The one cell where the opponent would complete a line, when the side to move cannot
    /// win at once: any other stone loses.
    fn forced_move(&self, position: &Cells) -> Option<u32> {
        let empty = self.empty_cells(position);
        if position.won || self.threats(position.mine, empty) != 0 {
            return None;
        }
        let theirs = self.threats(position.theirs, empty);
        (theirs.count_ones() == 1).then(|| theirs.trailing_zeros())
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range().compact_key()
    }
}

impl ValueRange for KInARow {
    /// Without a known value, the side to move wins at its second stone at the soonest and
    /// loses at the opponent's next at the soonest; a side that can no longer complete a line
    /// cannot win.
    fn value_range(&self, position: &Cells) -> (Score, Score) {
        if let Some(known) = self.known_value(position) {
            return (known, known);
        }
        let empty = self.empty_cells(position);
        let left = Score::from(empty.count_ones() as u8);
        let mut high = (left - 2).max(0);
        let mut low = -(left - 1);
        if !self.can_make_line(position.mine, empty) {
            high = high.min(0);
        }
        if !self.can_make_line(position.theirs, empty) {
            low = low.max(0);
        }
        (low, high)
    }
}

impl CompactKey for KInARow {
    fn key_bits(&self) -> u32 {
        2 * self.cells()
    }

    /// The smallest key of the position's images under the board's symmetries: the mirror
    /// images (and rotations) of a position have its value, and a table keeps them as one.
    /// `won` needs no bit: a won position is known and never stored.
    fn key(&self, position: &Cells) -> u128 {
        (0..self.images.len())
            .map(|which| {
                u128::from(self.image(which, position.mine))
                    | u128::from(self.image(which, position.theirs)) << self.cells()
            })
            .min()
            .expect("the identity")
    }
}

/// The same rules with nothing declared: the literal game the oracle solves.
#[derive(Debug, Clone)]
pub struct Literal(pub KInARow);

impl Game for Literal {
    type State = Cells;
    type Move = u32;
    fn start(&self) -> Cells {
        self.0.start()
    }
    fn moves(&self, position: &Cells) -> impl Iterator<Item = u32> {
        self.0.moves(position)
    }
    fn play(&self, position: &Cells, cell: &u32) -> Step<Cells> {
        self.0.play(position, cell)
    }
    fn payoff(&self, position: &Cells) -> Score {
        self.0.payoff(position)
    }
}

/// The value of `position` by plain memoized negamax over the literal rules.
pub fn brute_force(game: &KInARow, position: &Cells) -> Score {
    fn value(game: &KInARow, position: &Cells, memo: &mut HashMap<(u32, u32), Score>) -> Score {
        let mut moves = Vec::new();
        game.moves_into(position, &mut moves);
        if moves.is_empty() {
            return game.payoff(position);
        }
        if let Some(&known) = memo.get(&(position.mine, position.theirs)) {
            return known;
        }
        let best = moves
            .iter()
            .map(|cell| -value(game, &game.play(position, cell).next, memo))
            .max()
            .expect("a move");
        memo.insert((position.mine, position.theirs), best);
        best
    }
    value(game, position, &mut HashMap::new())
}
