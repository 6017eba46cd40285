//! Connect Four on any board with `width · (height + 1) ≤ 128`: players drop stones into
//! columns; four in a row (across, up, or diagonal) wins.
//!
//! Written as a user would write a game, against the public API only: a bitboard, the four
//! optional capabilities the pruning engine uses ([`ValueRange`], [`CompactKey`], [`Symmetry`],
//! and a move order), and [`Game::known_value`] for what a position shows at a glance.
//!
//! # Scores
//!
//! The value follows the convention of Pascal Pons' solver and benchmark files: 0 for a draw;
//! if the side to move wins, `(W·H + 1 − n) / 2` (integer division), where `n` is the number
//! of stones on the board just before the winning stone (on 7×6: 22 minus the winner's stones,
//! the winning one included); the negative of the same for a loss. The sooner a win, the higher.
//!
//! # Bitboard
//!
//! Column `c` holds bits `c·(H+1) .. c·(H+1)+H−1`, bottom to top, and one spare bit above (always
//! empty), so that shifts never carry a line from one column into the next. A position is the
//! stones of the side to move and the mask of all stones, in a [`Bitboard`]: a `u64` where the
//! board fits one ([`ConnectFour::new`]), else a `u128` ([`ConnectFour::wide`]).

use std::fmt;

use super::ranks::BINOMIAL;
use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Score, Step, Turn};
use crate::{CompactKey, Symmetry};

mod bits;
mod bounds;
mod notation;
mod tiers;

/// How the command line and the page read Connect Four.
#[cfg(feature = "cli")]
pub(super) mod cli;

pub use bits::Bitboard;
use bits::lines;

/// Connect Four's rules on a `width × height` board, held in words of type `B`: `u64` for boards
/// of up to 64 bits ([`new`](ConnectFour::new)), `u128` for up to 128 ([`wide`](ConnectFour::wide)).
///
/// ```
/// use gamesolver::{engines::pruning, games::ConnectFour, memo::HashBoundTable};
///
/// // Tromp: on 5 columns of 4 rows, the first player cannot win (a draw).
/// let game = ConnectFour::new(5, 4).unwrap();
/// let solution = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new().ranged()).unwrap();
/// assert_eq!(solution.value(), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectFour<B: Bitboard = u64> {
    width: u32,
    height: u32,
    /// One bit at the bottom of every column.
    bottom: B,
    /// Every cell of the board (not the spare bits).
    board: B,
    /// Columns from the centre outwards: the order moves are tried in when nothing else tells.
    order: Vec<u8>,
    /// Whether every shift a line test makes stays inside the word (all boards up to 18 rows
    /// in a `u64`).
    short_shifts: bool,
    /// The cells of the even rows, counted from 1 at the bottom.
    even_rows: B,
    /// The position the game starts from (the empty board unless set).
    start: Position<B>,
    /// `compositions[c · (cells + 1) + m]`: the ways `c` columns can hold `m` stones (for the
    /// tiers' ranks), saturated at `u64::MAX`.
    compositions: Vec<u64>,
}

/// A Connect Four position: whose stones are whose, and how many have been played.
///
/// Besides the stones it carries, for speed, the empty cells where either side would complete
/// four (the other side's only where the move that made the position did not lose at once).
/// Those follow from the stones: positions compare, hash and order by their stones alone.
#[derive(Debug, Clone, Copy)]
pub struct Position<B: Bitboard = u64> {
    /// The stones of the side to move.
    current: B,
    /// Every stone on the board.
    mask: B,
    /// Empty cells where the side to move would complete four.
    mine: B,
    /// Empty cells where the other side would complete four; `B::MAX` (never a real set of
    /// cells: the spare bits above the columns are never cells) if not worked out.
    theirs: B,
    /// The mirror image's stones of the side to move, and all its stones (columns reversed):
    /// kept move by move, so that the key of the two images, the smaller of their keys, costs a
    /// comparison.
    mirrored_current: B,
    mirrored_mask: B,
    /// Stones played.
    stones: u8,
    /// Whether the last stone made four in a row (the game is over).
    won: bool,
}

impl<B: Bitboard> Position<B> {
    /// The empty board.
    const EMPTY: Self = Position {
        current: B::ZERO,
        mask: B::ZERO,
        mirrored_current: B::ZERO,
        mirrored_mask: B::ZERO,
        mine: B::ZERO,
        theirs: B::ZERO,
        stones: 0,
        won: false,
    };
}

/// The search-order rank after which safe moves come (a winning move is 0), less their promise.
const SAFE: u16 = 1024;
/// The rank of a move that lets the opponent win at once.
const UNSAFE: u16 = 2048;

impl<B: Bitboard> PartialEq for Position<B> {
    fn eq(&self, other: &Self) -> bool {
        (self.current, self.mask) == (other.current, other.mask)
    }
}

impl<B: Bitboard> Eq for Position<B> {}

impl<B: Bitboard> std::hash::Hash for Position<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.current, self.mask).hash(state);
    }
}

impl<B: Bitboard> PartialOrd for Position<B> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<B: Bitboard> Ord for Position<B> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.mask, self.current).cmp(&(other.mask, other.current))
    }
}

impl<B: Bitboard> Position<B> {
    /// How many stones are on the board.
    pub fn stones(&self) -> usize {
        usize::from(self.stones)
    }

    /// Whether the last stone played completed four in a row.
    pub fn is_won(&self) -> bool {
        self.won
    }
}

/// A move: drop a stone into a column. Two drops are equal when they drop into the same column
/// (what else a drop holds, the cell and what it makes, follows from the position, and its rank
/// in the search order is the order's alone).
#[derive(Debug, Clone, Copy)]
pub struct Drop<B: Bitboard = u64> {
    /// The column, counted from 0 at the left.
    pub column: u8,
    /// The cell the stone lands in.
    cell: B,
    /// The empty cells where the mover completes four once this stone is down.
    made: B,
    /// Where the move stands in the search order (lower first).
    rank: u16,
}

impl<B: Bitboard> PartialEq for Drop<B> {
    fn eq(&self, other: &Drop<B>) -> bool {
        self.column == other.column
    }
}

impl<B: Bitboard> Eq for Drop<B> {}

impl<B: Bitboard> std::hash::Hash for Drop<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.column.hash(state);
    }
}

/// Whether a board of `width × height` fits a word of `bits` bits (one spare bit per column).
fn fits(width: usize, height: usize, bits: u32) -> bool {
    width >= 1 && height >= 1 && width.saturating_mul(height + 1) <= bits as usize
}

impl ConnectFour {
    /// The rules on a board `width` columns wide and `height` rows high, in 64-bit words;
    /// refused unless both are at least 1 and `width · (height + 1) ≤ 64` (use
    /// [`wide`](ConnectFour::wide) for larger boards).
    ///
    /// ```
    /// use gamesolver::games::ConnectFour;
    /// assert!(ConnectFour::new(7, 6).is_ok());
    /// assert!(ConnectFour::new(8, 8).is_err()); // 8 · 9 = 72 bits
    /// assert!(ConnectFour::wide(8, 8).is_ok());
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Self, InputError> {
        ConnectFour::on_board(width, height)
    }
}

impl ConnectFour<u128> {
    /// The rules on a board `width` columns wide and `height` rows high, in 128-bit words:
    /// boards up to `width · (height + 1) ≤ 128`, such as 8×8, 9×7 and 10×6 (a board that
    /// fits 64 bits, 8×7 among them, is faster with [`new`](ConnectFour::new)). The fixed bound
    /// tables take keys of `k` bits with at least `2^(k − 60)` words: 10×6 (70 bits) from 8 KiB,
    /// 8×8 and 9×7 (72) from 32 KiB; a larger board (11×9, 110 bits) takes a hash table.
    ///
    /// ```
    /// use gamesolver::{engines::pruning, games::ConnectFour, memo::HashBoundTable};
    ///
    /// let game = ConnectFour::wide(10, 6).unwrap();
    /// // Columns 0, 1 and 2 of the bottom row are the first player's, and it is to move.
    /// let position = game.position_from_zero("091929").unwrap();
    /// let later = game.clone().starting_at(position);
    /// let solution = pruning::solve(&later, HashBoundTable::new(), pruning::Options::new().ranged()).unwrap();
    /// assert_eq!(solution.value(), 27);
    /// assert_eq!(game.meaning(6, 27), "the first player (to move) wins with its 4th stone");
    /// assert!(ConnectFour::wide(11, 11).is_err()); // 11 · 12 = 132 bits
    /// ```
    pub fn wide(width: usize, height: usize) -> Result<Self, InputError> {
        ConnectFour::on_board(width, height)
    }
}

impl<B: Bitboard> ConnectFour<B> {
    /// The rules on a board that fits `B`.
    fn on_board(width: usize, height: usize) -> Result<Self, InputError> {
        if !fits(width, height, B::BITS) {
            let how = if B::BITS > 64 {
                ""
            } else {
                " (ConnectFour::wide takes up to 128)"
            };
            return Err(InputError::InvalidGame(format!(
                "a Connect Four board of {width}×{height} does not fit: width and height must be \
                 at least 1, and width × (height + 1) at most {}{how}",
                B::BITS
            )));
        }
        let (w, h) = (width as u32, height as u32);
        let column = B::bit(h).less_one();
        let mut bottom = B::ZERO;
        let mut board = B::ZERO;
        for c in 0..w {
            bottom |= B::bit(c * (h + 1));
            board |= column << (c * (h + 1));
        }
        let centre = (w / 2) as i64;
        let order = (0..w as i64)
            .map(|i| (centre + (1 - 2 * (i % 2)) * ((i + 1) / 2)) as u8)
            .collect();
        let cells = width * height;
        let mut compositions = vec![0u64; (width + 1) * (cells + 1)];
        compositions[0] = 1;
        for columns in 1..=width {
            for stones in 0..=cells {
                compositions[columns * (cells + 1) + stones] = (0..=height.min(stones))
                    .map(|last| compositions[(columns - 1) * (cells + 1) + stones - last])
                    .fold(0, u64::saturating_add);
            }
        }
        Ok(ConnectFour {
            width: w,
            height: h,
            bottom,
            board,
            order,
            short_shifts: 3 * (h + 2) < B::BITS,
            even_rows: (1..h)
                .step_by(2)
                .fold(B::ZERO, |rows, row| rows | bottom << row),
            start: Position::EMPTY,
            compositions,
        })
    }

    /// The same rules, starting from `position` (a position of this board).
    ///
    /// ```
    /// use gamesolver::{games::ConnectFour, Game};
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let later = game.clone().starting_at(game.position("44").unwrap());
    /// assert_eq!(later.start().stones(), 2);
    /// ```
    pub fn starting_at(self, position: Position<B>) -> Self {
        ConnectFour {
            start: position,
            ..self
        }
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The number of cells, `W·H`.
    fn cells(&self) -> Score {
        Score::from(self.width * self.height)
    }

    /// The cells of one column.
    #[inline]
    fn column_cells(&self, column: u32) -> B {
        B::bit(self.height).less_one() << (column * (self.height + 1))
    }

    /// The lowest empty cell of every column that has one.
    #[inline]
    fn playable(&self, mask: B) -> B {
        mask.wrapping_add(self.bottom) & self.board
    }

    /// The empty cells where a stone of `stones` would complete four in a row.
    #[inline]
    fn winning_cells(&self, stones: B, mask: B) -> B {
        let cells = if self.short_shifts {
            at_height(self.height, |h| {
                lines(stones, h, |x, s| x << s, |x, s| x >> s)
            })
        } else {
            lines(stones, self.height, B::up, B::down)
        };
        cells & (self.board ^ mask)
    }

    /// Whether `stones` hold four in a row somewhere.
    fn has_four(&self, stones: B) -> bool {
        let cells = if self.short_shifts {
            at_height(self.height, |h| {
                lines(stones, h, |x, s| x << s, |x, s| x >> s)
            })
        } else {
            lines(stones, self.height, B::up, B::down)
        };
        cells & stones != B::ZERO
    }

    /// The ways `columns` columns can hold `stones` stones.
    fn compositions(&self, columns: u32, stones: usize) -> u64 {
        let cells = (self.width * self.height) as usize;
        self.compositions[columns as usize * (cells + 1) + stones]
    }

    /// The colourings of a tier of `stones` stones: which of them are the first player's.
    fn colourings(stones: usize) -> u64 {
        BINOMIAL[stones][stones.div_ceil(2)]
    }

    /// How promising a move is for the search order, from `made`, the cells where the mover
    /// then completes four, given `theirs`, where the opponent does, and the stones `mask` after
    /// the move: a threat right above the opponent's is worth nothing, one the opponent cannot
    /// play under without giving it up (on the cell above a playable one) most, the cell above
    /// that next, and any other a little.
    #[inline]
    fn promise(&self, made: B, theirs: B, mask: B) -> u16 {
        let useful = made & !theirs.up(1);
        if useful == B::ZERO {
            // The usual case, without three counts of bits (each a dozen instructions where
            // the target has no population-count instruction).
            return 0;
        }
        let above = self.playable(mask).up(1) & self.board;
        let next = useful & above;
        let after_next = useful & above.up(1);
        (12 * next.count_ones() + 5 * after_next.count_ones() + 3 * useful.count_ones()) as u16
    }

    /// The empty cells where the side that just moved would complete four.
    #[inline]
    fn threats(&self, position: &Position<B>) -> B {
        if position.theirs == B::MAX {
            self.winning_cells(position.current ^ position.mask, position.mask)
        } else {
            position.theirs
        }
    }

    /// The position after the side to move drops a stone into `cell` of `column`, where
    /// `made` are the empty cells at which the mover then completes four.
    #[inline]
    fn drop_stone(&self, position: &Position<B>, column: u32, cell: B, made: B) -> Position<B> {
        let stride = self.height + 1;
        let mirrored = (cell >> (column * stride)) << ((self.width - 1 - column) * stride);
        Position {
            current: position.current ^ position.mask,
            mask: position.mask | cell,
            mirrored_current: position.mirrored_current ^ position.mirrored_mask,
            mirrored_mask: position.mirrored_mask | mirrored,
            mine: self.threats(position) & !cell,
            theirs: made,
            stones: position.stones + 1,
            won: position.mine & cell != B::ZERO,
        }
    }

    /// `bits` with the columns reversed.
    fn flip(&self, bits: B) -> B {
        let stride = self.height + 1;
        (0..self.width).fold(B::ZERO, |out, column| {
            let cells = (bits >> (column * stride)) & B::bit(stride).less_one();
            out | cells << ((self.width - 1 - column) * stride)
        })
    }

    /// The mirror image of a position (columns reversed).
    fn mirror(&self, position: &Position<B>) -> Position<B> {
        Position {
            current: position.mirrored_current,
            mask: position.mirrored_mask,
            mirrored_current: position.current,
            mirrored_mask: position.mask,
            mine: self.flip(position.mine),
            theirs: if position.theirs == B::MAX {
                B::MAX
            } else {
                self.flip(position.theirs)
            },
            ..*position
        }
    }

    /// The key of a position's own image and of its mirror image.
    #[inline]
    fn image_keys(&self, position: &Position<B>) -> (B, B) {
        (
            position.current | position.mask.wrapping_add(self.bottom),
            position.mirrored_current | position.mirrored_mask.wrapping_add(self.bottom),
        )
    }
}

/// Whether `cells` holds two cells or more.
#[inline(always)]
fn several<B: Bitboard>(cells: B) -> bool {
    cells & cells.less_one() != B::ZERO
}

/// `f(h)`, where `h` is a board's height: for the usual heights (4 to 7 rows) as a constant, so
/// that once `f` is inlined into each arm the shifts by multiples of the height (three or four
/// instructions each when the amount is in a register) become shifts by immediates.
#[inline(always)]
fn at_height<R>(h: u32, f: impl Fn(u32) -> R) -> R {
    match h {
        4 => f(4),
        5 => f(5),
        6 => f(6),
        7 => f(7),
        _ => f(h),
    }
}

impl<B: Bitboard> fmt::Display for Drop<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}", self.column + 1)
    }
}

impl<B: Bitboard> Game for ConnectFour<B> {
    type State = Position<B>;
    type Move = Drop<B>;

    /// The empty board, unless the game was set to start elsewhere
    /// ([`starting_at`](ConnectFour::starting_at)).
    fn start(&self) -> Position<B> {
        self.start
    }

    /// [`moves_into`](Game::moves_into)'s list (which the engines ask for), collected.
    fn moves(&self, position: &Position<B>) -> impl Iterator<Item = Drop<B>> {
        let mut moves = Vec::new();
        self.moves_into(position, &mut moves);
        moves.into_iter()
    }

    /// Every move in one batch, as `moves_into` lists them (no list collected).
    fn moves_batch(&self, position: &Position<B>, batch: usize, moves: &mut Vec<Drop<B>>) -> bool {
        (batch == 0).then(|| self.moves_into(position, moves));
        false
    }

    /// Every legal move, in the order the search should try them: winning moves, then the
    /// moves that do not hand the opponent an immediate win, those making the most threats
    /// (cells where a stone would complete four) first, then the rest; ties from the centre out.
    fn moves_into(&self, position: &Position<B>, moves: &mut Vec<Drop<B>>) {
        if position.won {
            return;
        }
        let (current, mask) = (position.current, position.mask);
        let playable = self.playable(mask);
        let (wins, threats) = (position.mine & playable, self.threats(position));
        let forced = playable & threats;
        let safe = if forced == B::ZERO {
            playable
        } else if !several(forced) {
            forced
        } else {
            B::ZERO
        } & !(threats >> 1);
        let first = moves.len();
        // A position and its mirror image share their table entry, and with it the index of
        // the best move: the image with the larger key lists equal ranks from the other side,
        // so that each lists the other's moves mirrored, at the same indices.
        let (own, mirrored) = self.image_keys(position);
        let last = self.width as u8 - 1;
        for column in self.order.iter().map(|&column| {
            if own > mirrored {
                last - column
            } else {
                column
            }
        }) {
            let cell = playable & self.column_cells(u32::from(column));
            if cell == B::ZERO {
                continue;
            }
            // After a move that is not safe the opponent can win at once, and no search needs
            // the mover's threats there: they are worked out only if asked.
            let (rank, made) = if cell & safe != B::ZERO {
                let made = self.winning_cells(current | cell, mask | cell);
                (SAFE - self.promise(made, threats, mask | cell), made)
            } else {
                (if cell & wins != B::ZERO { 0 } else { UNSAFE }, B::MAX)
            };
            moves.push(Drop {
                column,
                cell,
                made,
                rank,
            });
            // A stable insertion: equal ranks keep their centre-first order.
            let mut at = moves.len() - 1;
            while at > first && moves[at - 1].rank > rank {
                moves.swap(at - 1, at);
                at -= 1;
            }
        }
    }

    #[inline]
    fn play(&self, position: &Position<B>, mv: &Drop<B>) -> Step<Position<B>> {
        Step {
            next: self.drop_stone(position, u32::from(mv.column), mv.cell, mv.made),
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// A won game is lost for the side to move; a full board is a draw.
    fn payoff(&self, position: &Position<B>) -> Score {
        if position.won {
            -(self.cells() + 2 - Score::from(position.stones)) / 2
        } else {
            0
        }
    }

    /// Known without search: a finished game; a win with the next stone; a loss when every
    /// move lets the opponent win at once; a draw when two stones or fewer remain and neither
    /// of those can win.
    #[inline]
    fn known_value(&self, position: &Position<B>) -> Option<Score> {
        let stones = Score::from(position.stones);
        if position.won {
            return Some(-(self.cells() + 2 - stones) / 2);
        }
        let playable = self.playable(position.mask);
        if playable == B::ZERO {
            return Some(0);
        }
        if position.mine & playable != B::ZERO {
            return Some((self.cells() + 1 - stones) / 2);
        }
        let threats = self.threats(position);
        let forced = playable & threats;
        let candidates = if forced == B::ZERO {
            playable
        } else if !several(forced) {
            forced
        } else {
            B::ZERO
        };
        if candidates & !(threats >> 1) == B::ZERO {
            return Some(-(self.cells() - stones) / 2);
        }
        (stones >= self.cells() - 2).then_some(0)
    }

    /// Forced: the only move that does not lose at once (blocking the opponent's one threat
    /// that can be played, or the only column not under one), when the side to move cannot win
    /// with it.
    #[inline]
    fn forced_move(&self, position: &Position<B>) -> Option<Drop<B>> {
        let playable = self.playable(position.mask);
        if position.won || position.mine & playable != B::ZERO {
            return None;
        }
        let threats = self.threats(position);
        let forced = playable & threats;
        let safe = if forced == B::ZERO { playable } else { forced } & !(threats >> 1);
        // No safe move (a loss), two or more, or two threats to block: nothing forced.
        if safe == B::ZERO || several(safe) || several(forced) {
            return None;
        }
        let column = safe.trailing_zeros() / (self.height + 1);
        Some(Drop {
            column: column as u8,
            cell: safe,
            made: self.winning_cells(position.current | safe, position.mask | safe),
            rank: 0,
        })
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range().compact_key()
    }
}

impl<B: Bitboard> CompactKey for ConnectFour<B> {
    /// A board of `W·(H+1)` bits.
    fn key_bits(&self) -> u32 {
        self.width * (self.height + 1)
    }

    /// The stones of the side to move, plus a marker above the top stone of every column
    /// (that tells how high each column is, so it tells the whole position), of the position
    /// or of its mirror image, whichever is smaller: a position and its mirror image have the
    /// same value, and a table keeps them as one. The mirror image is kept move by move, so
    /// the key costs a few instructions.
    #[inline]
    fn key(&self, position: &Position<B>) -> u128 {
        let (own, mirrored) = self.image_keys(position);
        own.min(mirrored).wide()
    }
}

impl<B: Bitboard> Symmetry for ConnectFour<B> {
    /// The position or its mirror image, whichever has the smaller key.
    fn canonical(&self, position: &Position<B>) -> Position<B> {
        let (own, mirrored) = self.image_keys(position);
        if mirrored < own {
            self.mirror(position)
        } else {
            *position
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vertical_four_wins_and_ends_the_game() {
        let game = ConnectFour::new(7, 6).unwrap();
        let position = game.position("1212121").unwrap();
        assert!(position.is_won());
        assert_eq!(game.payoff(&position), -(42 + 2 - 7) / 2);
        assert_eq!(game.moves(&position).count(), 0);
        assert!(game.position("12121212").is_err());
    }

    #[test]
    fn mirror_is_an_involution() {
        let game = ConnectFour::new(7, 6).unwrap();
        let position = game.position("1123457").unwrap();
        assert_eq!(game.mirror(&game.mirror(&position)), position);
        assert_eq!(game.mirror(&position), game.position("7765431").unwrap());
    }
}
