//! Six Men's Morris, the mill game of two nested squares, with the rules Gasser solved Nine
//! Men's Morris by (the World Merrills Association's), on the sixteen-point board.
//!
//! The board is two squares, one inside the other, with a point at each corner and at each
//! side's middle; the middles of the two squares' sides are joined. A mill is three of one
//! player's men along a side of either square (the joining lines hold two points and make no
//! mill). Each player has `men` men (six in the game's name), White places first.
//!
//! - **Placing.** While a player has men in hand, their move puts one on an empty point.
//! - **Moving.** Once both hands are empty, a move slides one of the mover's men along a line
//!   to the adjacent empty point. A player down to three men on the board may instead *fly* one
//!   to any empty point (the rule Gasser and the World Merrills Association play, and the one
//!   the published solutions of 5-, 6- and 7-men boards use; [`SixMensMorris::without_flying`]
//!   plays without it).
//! - **Mills.** A move that closes a mill of the mover's also removes one of the opponent's men
//!   from the board: one that is in no mill, unless all of them are (then any). Closing two mills
//!   at once removes one man. A removal is part of the move that closes the mill.
//! - **The end.** A player left with fewer than three men (on the board and in hand together), or
//!   with no move, loses. Play that goes on for ever is a draw: positions recur, so the game may
//!   cycle (no rule of repetition or of fifty moves is played).
//!
//! Tiers are the men in either hand and on the board, `(white in hand, black in hand, white on
//! the board, black on the board)`, ordered by the men left in all (fewest last), then by the men
//! in hand: a placement leaves a hand one smaller, a removal leaves a player one man fewer, and
//! only a slide without a mill keeps the tier, so play cycles only within a tier. A tier's ranks
//! are the boards with those counts (for either side to move once both hands are empty; while
//! placing, the hands say whose turn it is). The sixteen symmetries of the board (the square's
//! eight, with or without the inner and outer squares swapped) are one class ([`Symmetry`]).
//!
//! Points are named on a 5×5 grid, columns `a`–`e` from the left and rows `1`–`5` from the
//! bottom: the outer square's corners are `a5`, `e5`, `e1` and `a1`, the inner square's `b4`,
//! `d4`, `d2` and `b2`. A move is written `c5` (a man placed), `a5-a3` (moved), with `xb4` after
//! it when it removes the man on `b4`.

use crate::InputError;
use crate::game::{Capabilities, Declares, Game, Score, Step, Symmetry, Tiered, Turn};

use super::ranks::{BINOMIAL, colex_rank, colex_unrank, pack, spread};

/// The board's points.
pub const MORRIS_POINTS: usize = 16;

/// The points' names, in the order of their bits: the outer square clockwise from its top-left
/// corner, then the inner square the same way.
pub const MORRIS_POINT_NAMES: [&str; MORRIS_POINTS] = [
    "a5", "c5", "e5", "e3", "e1", "c1", "a1", "a3", "b4", "c4", "d4", "d3", "d2", "c2", "b2", "b3",
];

/// The points row by row from the top, as positions are written.
const ROWS: [&[usize]; 5] = [
    &[0, 1, 2],
    &[8, 9, 10],
    &[7, 15, 11, 3],
    &[14, 13, 12],
    &[6, 5, 4],
];

/// Every point's bit.
const FULL: u16 = u16::MAX;

/// A Six Men's Morris position: the points White's and Black's men stand on (bit `i` the point
/// [`MORRIS_POINT_NAMES`]`[i]`), the men each still holds in hand, and whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct MorrisBoard {
    /// White's men on the board.
    pub white: u16,
    /// Black's men on the board.
    pub black: u16,
    /// White's men still to place.
    pub white_hand: u8,
    /// Black's men still to place.
    pub black_hand: u8,
    /// Whether Black is to move (White moves first).
    pub black_to_move: bool,
}

impl MorrisBoard {
    /// The side to move's men on the board and in hand, then the other side's.
    #[inline]
    fn sides(&self) -> ((u16, u8), (u16, u8)) {
        let white = (self.white, self.white_hand);
        let black = (self.black, self.black_hand);
        if self.black_to_move {
            (black, white)
        } else {
            (white, black)
        }
    }

    /// The board with the side to move's men and hand set to `mine`, the other side's to
    /// `theirs`, and the turn passed.
    #[inline]
    fn after(&self, mine: (u16, u8), theirs: (u16, u8)) -> MorrisBoard {
        let (white, black) = if self.black_to_move {
            (theirs, mine)
        } else {
            (mine, theirs)
        };
        MorrisBoard {
            white: white.0,
            black: black.0,
            white_hand: white.1,
            black_hand: black.1,
            black_to_move: !self.black_to_move,
        }
    }
}

/// A move: a man placed on `to` (`from` is `None`) or moved from `from` to `to`, and the
/// opponent's man it removes, if it closes a mill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MorrisMove {
    /// The point the man leaves, or `None` for a man placed from the hand.
    pub from: Option<u8>,
    /// The point the man goes to.
    pub to: u8,
    /// The opponent's man removed, when the move closes a mill.
    pub take: Option<u8>,
}

impl MorrisMove {
    /// The move as written: `c5`, `a5-a3`, `a5-a3xb4`.
    pub fn name(&self) -> String {
        let mut name = String::new();
        if let Some(from) = self.from {
            name.push_str(MORRIS_POINT_NAMES[usize::from(from)]);
            name.push('-');
        }
        name.push_str(MORRIS_POINT_NAMES[usize::from(self.to)]);
        if let Some(take) = self.take {
            name.push('x');
            name.push_str(MORRIS_POINT_NAMES[usize::from(take)]);
        }
        name
    }
}

/// The men in hand and on the board that make a tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    white_hand: u8,
    black_hand: u8,
    white: u8,
    black: u8,
}

impl Counts {
    fn of(board: &MorrisBoard) -> Counts {
        Counts {
            white_hand: board.white_hand,
            black_hand: board.black_hand,
            white: board.white.count_ones() as u8,
            black: board.black.count_ones() as u8,
        }
    }

    /// Where the counts sit in the table of tiers.
    fn slot(self) -> usize {
        ((usize::from(self.white_hand) * 8 + usize::from(self.black_hand)) * 8
            + usize::from(self.white))
            * 8
            + usize::from(self.black)
    }

    /// Whether both hands are empty (either side may be to move).
    fn moving(self) -> bool {
        self.white_hand == 0 && self.black_hand == 0
    }
}

/// Six Men's Morris with `men` men a side (3 to 7), from the empty board with White to place.
///
/// ```
/// use gamesolver::engines::tiers::{KeepTiers, loopy::{self, BySymmetry, Options}};
/// use gamesolver::engines::retrograde::Outcome;
/// use gamesolver::games::SixMensMorris;
///
/// // Three men a side on the sixteen points: a draw.
/// let game = SixMensMorris::new(3).unwrap();
/// let solution = loopy::solve(&game, BySymmetry, Options::new().keep(KeepTiers::All)).unwrap();
/// assert_eq!(solution.outcome(), Outcome::Draw);
/// ```
#[derive(Debug, Clone)]
pub struct SixMensMorris {
    men: u8,
    flying: bool,
    /// Each point's neighbours along the lines.
    neighbours: [u16; MORRIS_POINTS],
    /// The mills, and for each point the mills through it (a corner is in two, a middle in one;
    /// 0 where there is none).
    mills: [u16; 8],
    mills_at: [[u16; 2]; MORRIS_POINTS],
    /// The tiers in order, and each count's tier (`u16::MAX` where the counts make none).
    tiers: Vec<Counts>,
    tier_at: Vec<u16>,
    reach: usize,
    /// For each of the fifteen symmetries other than the identity, and each byte of a mask, the
    /// image of that byte's points.
    images: Vec<[[u16; 256]; 2]>,
}

/// Point `point` under symmetry `symmetry`: bit 0 reflects left to right, bits 1–2 rotate by
/// quarter turns clockwise, bit 3 swaps the inner and outer squares.
fn transform(symmetry: usize, point: usize) -> usize {
    let (square, mut at) = (point / 8, point % 8);
    if symmetry & 1 == 1 {
        at = (10 - at) % 8;
    }
    at = (at + 2 * ((symmetry >> 1) & 3)) % 8;
    (square ^ (symmetry >> 3)) * 8 + at
}

impl SixMensMorris {
    /// Six Men's Morris with `men` men a side, 3 to 7, flying at three men.
    pub fn new(men: usize) -> Result<Self, InputError> {
        if !(3..=7).contains(&men) {
            return Err(InputError::InvalidGame(format!(
                "six men's morris is played with 3 to 7 men a side, not {men}"
            )));
        }
        let men = men as u8;
        let bit = |square: usize, at: usize| 1u16 << (square * 8 + at % 8);
        let mut neighbours = [0u16; MORRIS_POINTS];
        let mut mills = [0u16; 8];
        let mut mills_at = [[0u16; 2]; MORRIS_POINTS];
        for square in 0..2 {
            for at in 0..8 {
                neighbours[square * 8 + at] = bit(square, at + 1) | bit(square, at + 7);
                if at % 2 == 1 {
                    neighbours[square * 8 + at] |= bit(1 - square, at);
                }
            }
            for side in 0..4 {
                let corner = 2 * side;
                let mill = bit(square, corner) | bit(square, corner + 1) | bit(square, corner + 2);
                mills[square * 4 + side] = mill;
                for at in [corner, corner + 1, corner + 2] {
                    let point = square * 8 + at % 8;
                    let slot = usize::from(mills_at[point][0] != 0);
                    mills_at[point][slot] = mill;
                }
            }
        }
        let mut tiers = Vec::new();
        for white_hand in 0..=men {
            for black_hand in [white_hand, white_hand + 1] {
                if black_hand > men {
                    continue;
                }
                for white in 0..=men - white_hand {
                    for black in 0..=men - black_hand {
                        if white_hand + white >= 2 && black_hand + black >= 2 {
                            tiers.push(Counts {
                                white_hand,
                                black_hand,
                                white,
                                black,
                            });
                        }
                    }
                }
            }
        }
        let left = |c: &Counts| c.white_hand + c.black_hand + c.white + c.black;
        tiers.sort_by_key(|c| {
            (
                std::cmp::Reverse(left(c)),
                std::cmp::Reverse(c.white_hand + c.black_hand),
                c.white_hand,
                c.white,
            )
        });
        let mut tier_at = vec![u16::MAX; 8 * 8 * 8 * 8];
        for (tier, counts) in tiers.iter().enumerate() {
            tier_at[counts.slot()] = tier as u16;
        }
        let images = (1..16)
            .map(|symmetry| {
                std::array::from_fn(|byte_at| {
                    std::array::from_fn(|byte| {
                        (0..8)
                            .filter(|b| byte >> b & 1 == 1)
                            .map(|b| 1u16 << transform(symmetry, byte_at * 8 + b))
                            .sum()
                    })
                })
            })
            .collect();
        let mut game = SixMensMorris {
            men,
            flying: true,
            neighbours,
            mills,
            mills_at,
            tiers,
            tier_at,
            reach: 0,
            images,
        };
        game.reach = game.widest_reach();
        Ok(game)
    }

    /// The same game without flying: a player down to three men still slides them.
    pub fn without_flying(mut self) -> Self {
        self.flying = false;
        self
    }

    /// The men a side starts with.
    pub fn men(&self) -> usize {
        usize::from(self.men)
    }

    /// Whether a player down to three men may fly.
    pub fn flying(&self) -> bool {
        self.flying
    }

    /// The tier of `counts`, if they make one.
    fn tier_of(&self, counts: Counts) -> Option<usize> {
        let tier = *self.tier_at.get(counts.slot())?;
        (tier != u16::MAX).then_some(usize::from(tier))
    }

    /// How far ahead of its own tier a move can lead at most: the farthest tier of the counts
    /// a move can make (a placement, a removal, or both).
    fn widest_reach(&self) -> usize {
        let mut reach = 0;
        for (tier, &c) in self.tiers.iter().enumerate() {
            let movers: &[bool] = match (c.moving(), c.black_hand > c.white_hand) {
                (true, _) => &[false, true],
                (false, black) => {
                    if black {
                        &[true]
                    } else {
                        &[false]
                    }
                }
            };
            for &black_to_move in movers {
                for take in [0, 1] {
                    let mut next = c;
                    let (hand, theirs) = if black_to_move {
                        (&mut next.black_hand, &mut next.white)
                    } else {
                        (&mut next.white_hand, &mut next.black)
                    };
                    if *hand > 0 {
                        *hand -= 1;
                    }
                    if take > *theirs {
                        continue;
                    }
                    *theirs -= take;
                    if let Some(child) = self.tier_of(next) {
                        reach = reach.max(child.saturating_sub(tier));
                    }
                }
            }
        }
        reach.max(1)
    }

    /// The points of `men` that stand in a mill of theirs.
    #[inline]
    fn in_mills(&self, men: u16) -> u16 {
        self.mills
            .iter()
            .filter(|&&mill| men & mill == mill)
            .fold(0, |all, mill| all | mill)
    }

    /// Whether `men` (with one at `point`) close a mill through `point`.
    #[inline]
    fn closes_mill(&self, men: u16, point: usize) -> bool {
        self.mills_at[point]
            .iter()
            .any(|&mill| mill != 0 && men & mill == mill)
    }

    /// Whether the side to move may fly (three men on the board, none in hand).
    #[inline]
    fn flies(&self, mine: (u16, u8)) -> bool {
        self.flying && mine.1 == 0 && mine.0.count_ones() == 3
    }

    /// The winner's side at a position that is over: `Some(false)` if the side to move has
    /// fewer than three men or no move, `Some(true)` if the other side has fewer than three (no
    /// game reaches that), `None` while play goes on.
    pub fn over(&self, board: &MorrisBoard) -> Option<bool> {
        let (mine, theirs) = board.sides();
        let count = |(men, hand): (u16, u8)| men.count_ones() + u32::from(hand);
        if count(mine) < 3 {
            return Some(false);
        }
        if count(theirs) < 3 {
            return Some(true);
        }
        if mine.1 > 0 || self.flies(mine) {
            return None;
        }
        let empty = !(board.white | board.black);
        let mut men = mine.0;
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            if self.neighbours[from] & empty != 0 {
                return None;
            }
            men &= men - 1;
        }
        Some(false)
    }

    /// Calls `each(move, next)` for every move of `board` in order (placements or moves by
    /// their points, each removal by its point), until it returns `false`.
    fn each_move(
        &self,
        board: &MorrisBoard,
        mut each: impl FnMut(MorrisMove, MorrisBoard) -> bool,
    ) {
        if self.over(board).is_some() {
            return;
        }
        let (mine, theirs) = board.sides();
        let empty = !(board.white | board.black);
        let removable = match theirs.0 & !self.in_mills(theirs.0) {
            0 => theirs.0,
            some => some,
        };
        // One move of a man to `to` (from `from`, or from the hand): with each removal if it
        // closes a mill. Returns whether to go on.
        let mut land = |from: Option<u8>, to: usize, men: u16, hand: u8| -> bool {
            if !self.closes_mill(men, to) || removable == 0 {
                return each(
                    MorrisMove {
                        from,
                        to: to as u8,
                        take: None,
                    },
                    board.after((men, hand), theirs),
                );
            }
            let mut left = removable;
            while left != 0 {
                let take = left.trailing_zeros() as u8;
                let next = board.after((men, hand), (theirs.0 & !(1 << take), theirs.1));
                let mv = MorrisMove {
                    from,
                    to: to as u8,
                    take: Some(take),
                };
                if !each(mv, next) {
                    return false;
                }
                left &= left - 1;
            }
            true
        };
        if mine.1 > 0 {
            let mut points = empty;
            while points != 0 {
                let to = points.trailing_zeros() as usize;
                if !land(None, to, mine.0 | 1 << to, mine.1 - 1) {
                    return;
                }
                points &= points - 1;
            }
            return;
        }
        let flies = self.flies(mine);
        let mut men = mine.0;
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            let mut points = if flies {
                empty
            } else {
                self.neighbours[from] & empty
            };
            while points != 0 {
                let to = points.trailing_zeros() as usize;
                let after = (mine.0 & !(1 << from)) | 1 << to;
                if !land(Some(from as u8), to, after, 0) {
                    return;
                }
                points &= points - 1;
            }
            men &= men - 1;
        }
    }

    /// Boards of a tier for one side to move.
    fn boards(c: Counts) -> u64 {
        let (white, black) = (usize::from(c.white), usize::from(c.black));
        BINOMIAL[MORRIS_POINTS][white] * BINOMIAL[MORRIS_POINTS - white][black]
    }

    /// The image of `points` under symmetry `symmetry` (1 to 15).
    #[inline]
    fn image(&self, symmetry: usize, points: u16) -> u16 {
        let [low, high] = &self.images[symmetry - 1];
        low[usize::from(points as u8)] | high[usize::from(points >> 8)]
    }
}

impl Game for SixMensMorris {
    type State = MorrisBoard;
    type Move = MorrisMove;

    fn start(&self) -> MorrisBoard {
        MorrisBoard {
            white_hand: self.men,
            black_hand: self.men,
            ..MorrisBoard::default()
        }
    }

    fn moves(&self, board: &MorrisBoard) -> impl Iterator<Item = MorrisMove> {
        let mut moves = Vec::new();
        self.each_move(board, |mv, _| {
            moves.push(mv);
            true
        });
        moves.into_iter()
    }

    fn play(&self, board: &MorrisBoard, mv: &MorrisMove) -> Step<MorrisBoard> {
        let (mine, theirs) = board.sides();
        let mut men = mine.0 | 1 << mv.to;
        let mut hand = mine.1;
        match mv.from {
            Some(from) => men &= !(1 << from),
            None => hand -= 1,
        }
        let theirs = (theirs.0 & !mv.take.map_or(0, |take| 1 << take), theirs.1);
        Step {
            next: board.after((men, hand), theirs),
            gain: 0,
            turn: Turn::Pass,
        }
    }

    fn for_each_step(&self, board: &MorrisBoard, mut each: impl FnMut(Step<MorrisBoard>) -> bool) {
        self.each_move(board, |_, next| {
            each(Step {
                next,
                gain: 0,
                turn: Turn::Pass,
            })
        });
    }

    fn payoff(&self, board: &MorrisBoard) -> Score {
        match self.over(board) {
            Some(true) => 1,
            Some(false) => -1,
            None => 0,
        }
    }

    fn state_bound(&self) -> Option<u64> {
        Some(2 * 3u64.pow(MORRIS_POINTS as u32) * (u64::from(self.men) + 1).pow(2))
    }

    fn state_text(&self, board: &MorrisBoard) -> Option<String> {
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

impl Tiered for SixMensMorris {
    fn tier_count(&self) -> usize {
        self.tiers.len()
    }

    fn tier(&self, board: &MorrisBoard) -> usize {
        self.tier_of(Counts::of(board))
            .expect("a position of this game has the counts of a tier")
    }

    fn tier_len(&self, tier: usize) -> u64 {
        self.tiers.get(tier).map_or(0, |&c| {
            SixMensMorris::boards(c) * if c.moving() { 2 } else { 1 }
        })
    }

    fn rank(&self, board: &MorrisBoard) -> u64 {
        let c = Counts::of(board);
        let per_white = BINOMIAL[MORRIS_POINTS - usize::from(c.white)][usize::from(c.black)];
        let within = colex_rank(u64::from(board.white)) * per_white
            + colex_rank(u64::from(pack(
                u32::from(board.black),
                u32::from(!board.white & FULL),
            )));
        if c.moving() && board.black_to_move {
            SixMensMorris::boards(c) + within
        } else {
            within
        }
    }

    fn unrank(&self, tier: usize, rank: u64) -> Option<MorrisBoard> {
        let c = *self.tiers.get(tier)?;
        let boards = SixMensMorris::boards(c);
        let (black_to_move, within) = if c.moving() {
            (rank >= boards, rank % boards)
        } else {
            (c.black_hand > c.white_hand, rank)
        };
        let (white, black) = (usize::from(c.white), usize::from(c.black));
        let per_white = BINOMIAL[MORRIS_POINTS - white][black];
        let whites = colex_unrank(white, within / per_white, MORRIS_POINTS)? as u16;
        let blacks = colex_unrank(black, within % per_white, MORRIS_POINTS - white)? as u32;
        Some(MorrisBoard {
            white: whites,
            black: spread(blacks, u32::from(!whites)) as u16,
            white_hand: c.white_hand,
            black_hand: c.black_hand,
            black_to_move,
        })
    }

    fn tier_reach(&self) -> usize {
        self.reach
    }

    fn value_bound(&self) -> Score {
        1
    }
}

impl Symmetry for SixMensMorris {
    fn canonical(&self, board: &MorrisBoard) -> MorrisBoard {
        let mut best = (board.white, board.black);
        for symmetry in 1..16 {
            let image = (
                self.image(symmetry, board.white),
                self.image(symmetry, board.black),
            );
            if image < best {
                best = image;
            }
        }
        MorrisBoard {
            white: best.0,
            black: best.1,
            ..*board
        }
    }
}

mod notation;

#[cfg(feature = "cli")]
pub(super) mod cli;

#[cfg(test)]
mod tests;
