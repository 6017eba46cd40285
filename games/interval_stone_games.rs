//! LeetCode 877 "Stone Game" and LeetCode 1690 "Stone Game VII": piles in a row, and each turn
//! takes one from either end. They share the state, an interval `[left, right)` of the piles
//! still there, and differ in what a move scores.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, DenseIndex, Game, Score, Step, Turn};

/// Which end of the row a move takes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The first pile left.
    Left,
    /// The last pile left.
    Right,
}

/// The piles still in the row: `piles[left..right]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Interval {
    /// The first pile left (from 0).
    pub left: u32,
    /// One past the last pile left.
    pub right: u32,
}

/// Validated piles with their prefix sums, shared by both games.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    piles: Vec<i64>,
    /// `prefix[i]` = `piles[0] + … + piles[i − 1]`.
    prefix: Vec<i64>,
}

impl Row {
    /// At least one pile, each positive, and `factor × total` within `i64` (every score the
    /// game can reach is at most that).
    fn new<R: IntervalRule>(piles: Vec<i64>, factor: u64) -> Result<Self, InputError> {
        let (unit, units) = R::UNIT;
        super::check_count(R::NAME, unit, units, piles.len(), 1)?;
        super::check_positive(&piles, unit, R::POSITIVE)?;
        let mut prefix = Vec::with_capacity(piles.len() + 1);
        prefix.push(0i64);
        for (index, &pile) in piles.iter().enumerate() {
            let sum = prefix[index]
                .checked_add(pile)
                .filter(|sum| {
                    i64::try_from(factor)
                        .ok()
                        .and_then(|f| sum.checked_mul(f))
                        .is_some()
                })
                .ok_or(InputError::TotalOverflow {
                    what: "the bound on the scores",
                    unit,
                    position: index + 1,
                })?;
            prefix.push(sum);
        }
        Ok(Row { piles, prefix })
    }

    /// The ends a pile can be taken from: none of an empty row, the left of one pile.
    const ENDS: [&'static [End]; 3] = [&[], &[End::Left], &[End::Left, End::Right]];

    fn ends(interval: &Interval) -> &'static [End] {
        Row::ENDS[(interval.right - interval.left).min(2) as usize]
    }

    fn next(interval: &Interval, end: End) -> Interval {
        match end {
            End::Left => Interval {
                left: interval.left + 1,
                right: interval.right,
            },
            End::Right => Interval {
                left: interval.left,
                right: interval.right - 1,
            },
        }
    }

    fn start(&self) -> Interval {
        Interval {
            left: 0,
            right: self.piles.len() as u32,
        }
    }

    fn index_len(&self) -> usize {
        (self.piles.len() + 1) * (self.piles.len() + 1)
    }

    fn index(&self, interval: &Interval) -> usize {
        interval.left as usize * (self.piles.len() + 1) + interval.right as usize
    }
}

/// What a move scores in an interval game; the only difference between 877 and 1690.
pub trait IntervalRule {
    /// The game's name, for error messages.
    const NAME: &'static str;
    /// What its values are called, singular and plural ("pile", "piles").
    const UNIT: (&'static str, &'static str);
    /// The rule a value must follow, for error messages.
    const POSITIVE: &'static str;
    /// Every score is at most `factor(n) × total`: validation checks that it fits `i64`.
    fn factor(piles: usize) -> u64;
    /// The mover's gain for taking `taken` (an index) and leaving `next`.
    fn gain(row: &[i64], prefix: &[i64], taken: u32, next: &Interval) -> Score;
}

/// LeetCode 877's rule: the mover scores the pile taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakePile;

impl IntervalRule for TakePile {
    const NAME: &'static str = "Stone Game";
    const UNIT: (&'static str, &'static str) = ("pile", "piles");
    const POSITIVE: &'static str = "piles must be positive integers";
    fn factor(_piles: usize) -> u64 {
        1
    }
    fn gain(row: &[i64], _prefix: &[i64], taken: u32, _next: &Interval) -> Score {
        row[taken as usize]
    }
}

/// LeetCode 1690's rule: the mover scores the sum of the stones that remain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreRest;

impl IntervalRule for ScoreRest {
    const NAME: &'static str = "Stone Game VII";
    const UNIT: (&'static str, &'static str) = ("stone", "stones");
    const POSITIVE: &'static str = "stones must be positive integers";
    fn factor(piles: usize) -> u64 {
        piles.max(1) as u64
    }
    fn gain(_row: &[i64], prefix: &[i64], _taken: u32, next: &Interval) -> Score {
        prefix[next.right as usize] - prefix[next.left as usize]
    }
}

/// A row of positive piles; each turn takes one from either end and scores by rule `R`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntervalGame<R> {
    row: Row,
    rule: std::marker::PhantomData<R>,
}

/// LeetCode 877: take the first or last pile and score its stones. The answer is who wins
/// (LeetCode's piles are even in number with an odd total, where Alice always wins; any
/// positive piles are accepted here, so Bob can win and ties are possible).
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGame, memo::HashTable};
///
/// let game = StoneGame::new(vec![5, 3, 4, 5]).unwrap();
/// assert_eq!(exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap().value(), 1); // Alice 9, Bob 8
/// ```
pub type StoneGame = IntervalGame<TakePile>;

/// LeetCode 1690: remove the first or last stone and score the sum of the stones that remain.
/// The answer is Alice's score minus Bob's.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGameVII, memo::HashTable};
///
/// let game = StoneGameVII::new(vec![5, 3, 1, 4, 2]).unwrap();
/// assert_eq!(exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap().value(), 6);
/// ```
pub type StoneGameVII = IntervalGame<ScoreRest>;

impl<R: IntervalRule> IntervalGame<R> {
    /// Checks the piles: at least one, each positive, and every score within `i64`.
    pub fn new(piles: Vec<i64>) -> Result<Self, InputError> {
        let factor = R::factor(piles.len());
        Ok(IntervalGame {
            row: Row::new::<R>(piles, factor)?,
            rule: std::marker::PhantomData,
        })
    }

    /// The piles (the stones, for Stone Game VII).
    pub fn piles(&self) -> &[i64] {
        &self.row.piles
    }
}

impl<R: IntervalRule> Game for IntervalGame<R> {
    type State = Interval;
    type Move = End;
    fn start(&self) -> Interval {
        self.row.start()
    }
    fn moves(&self, interval: &Interval) -> impl Iterator<Item = End> {
        Row::ends(interval).iter().copied()
    }
    /// The ends written in place (an extend from the slice calls `memcpy` for two moves).
    #[inline]
    fn moves_into(&self, interval: &Interval, moves: &mut Vec<End>) {
        match interval.right - interval.left {
            0 => {}
            1 => moves.push(End::Left),
            _ => moves.extend([End::Left, End::Right]),
        }
    }
    fn play(&self, interval: &Interval, end: &End) -> Step<Interval> {
        let taken = match end {
            End::Left => interval.left,
            End::Right => interval.right - 1,
        };
        let next = Row::next(interval, *end);
        Step {
            next,
            gain: R::gain(&self.row.piles, &self.row.prefix, taken, &next),
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &Interval) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        let n = self.row.piles.len() as u64;
        Some(n * (n + 1) / 2)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

impl<R: IntervalRule> DenseIndex for IntervalGame<R> {
    fn index_len(&self) -> usize {
        self.row.index_len()
    }
    fn index(&self, interval: &Interval) -> usize {
        self.row.index(interval)
    }
}

/// What the command line and the page of both games share.
#[cfg(feature = "cli")]
mod shown {
    use super::{End, Interval};
    use crate::InputError;
    use crate::cli::present::integers;

    /// The interval `FIRST,LAST` (from 1, inclusive) of an interval game with `n` values.
    pub(super) fn interval_position(
        n: usize,
        position: &str,
        units: &str,
    ) -> Result<Interval, InputError> {
        match *integers(position)? {
            [first, last] if 1 <= first && first <= last + 1 && last <= n as i64 => Ok(Interval {
                left: first as u32 - 1,
                right: last as u32,
            }),
            _ => Err(InputError::InvalidState(format!(
                "a position is 'FIRST,LAST': the {units} left, from 1 to {n} (FIRST = LAST + 1 for \
             none)"
            ))),
        }
    }

    /// The end's name, as the line and JSON write it.
    pub(super) fn end_name(end: End) -> &'static str {
        match end {
            End::Left => "left",
            End::Right => "right",
        }
    }
}

#[cfg(feature = "cli")]
pub(super) mod stone_game {
    //! LeetCode 877, Stone Game: take the first or last pile; who wins.

    use crate::InputError;
    use crate::games::{End, Interval, StoneGame};
    use crate::{Score, engines::Ply};

    use super::shown::{end_name, interval_position};
    use crate::cli::model::{Answer, Entry, Fields, Line};
    use crate::cli::present::{Presented, alice_or_bob, piles_view, result, row, winner};
    use crate::cli::serde_json;
    use crate::cli::{Bundled, FromValues};

    /// Stone Game on the command line.
    pub const GAME: Bundled = Bundled::game::<StoneGame>(
        "stone-game",
        "LeetCode 877: take the first or last pile; who wins",
    );

    impl FromValues for StoneGame {
        const EXAMPLE: &'static str = "5,3,4,5";
        const POSITION: Option<&'static str> = Some("'FIRST,LAST': the piles left, from 1");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            StoneGame::new(values.to_vec())
        }
    }

    impl Presented for StoneGame {
        fn position(&self, position: &str) -> Result<Self::State, InputError> {
            interval_position(self.piles().len(), position, "piles")
        }
        fn show(&self, state: &Interval) -> String {
            let piles = &self.piles()[state.left as usize..state.right as usize];
            format!("Piles: {}", row(piles.iter().copied()))
        }
        fn view(&self, state: &Interval) -> serde_json::Value {
            piles_view(self.piles(), state.left as usize, state.right as usize)
        }
        fn move_name(&self, _: &Interval, end: &End) -> String {
            end_name(*end).to_string()
        }
        fn answer(&self, value: Score) -> Answer {
            winner(value, "Alice", "Bob", "Tie")
        }
        fn headline(&self, value: Score) -> String {
            format!(
                "Stone Game with {} piles: {} with both playing optimally.",
                self.piles().len(),
                result(value)
            )
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = alice_or_bob(ply.player);
                    let end = end_name(ply.mv);
                    Entry {
                        player,
                        text: format!("{player} takes the {end} pile ({} stones)", ply.gain),
                        fields: Fields::new().with("end", end).with("stones", ply.gain),
                    }
                })
                .collect()
        }
    }
}

#[cfg(feature = "cli")]
pub(super) mod stone_game_vii {
    //! LeetCode 1690, Stone Game VII: remove an end stone, score the rest; Alice's score minus
    //! Bob's.

    use crate::InputError;
    use crate::games::{End, Interval, StoneGameVII};
    use crate::{Score, engines::Ply};

    use super::shown::{end_name, interval_position};
    use crate::cli::model::{Answer, Entry, Fields, Line};
    use crate::cli::present::{Presented, Work, alice_or_bob, piles_view, row};
    use crate::cli::serde_json;
    use crate::cli::{Bundled, FromValues};

    /// Stone Game VII on the command line.
    pub const GAME: Bundled = Bundled::game::<StoneGameVII>(
        "stone-game-vii",
        "LeetCode 1690: remove an end stone, score the rest; Alice's score minus Bob's",
    );

    impl FromValues for StoneGameVII {
        const EXAMPLE: &'static str = "5,3,1,4,2";
        const POSITION: Option<&'static str> = Some("'FIRST,LAST': the stones left, from 1");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            StoneGameVII::new(values.to_vec())
        }
    }

    impl Presented for StoneGameVII {
        /// Every interval of two stones or more has two moves, a single stone one: `n + n(n − 1)`.
        fn engine_work(&self) -> Option<Work> {
            let n = self.piles().len() as u64;
            Some(Work {
                moves: n.saturating_add(n.saturating_mul(n.saturating_sub(1))),
                faster: None,
            })
        }
        fn position(&self, position: &str) -> Result<Self::State, InputError> {
            interval_position(self.piles().len(), position, "stones")
        }
        fn show(&self, state: &Interval) -> String {
            let stones = &self.piles()[state.left as usize..state.right as usize];
            format!("Stones: {}", row(stones.iter().copied()))
        }
        fn view(&self, state: &Interval) -> serde_json::Value {
            piles_view(self.piles(), state.left as usize, state.right as usize)
        }
        fn move_name(&self, _: &Interval, end: &End) -> String {
            end_name(*end).to_string()
        }
        fn answer(&self, value: Score) -> Answer {
            Answer::Number(value)
        }
        fn headline(&self, value: Score) -> String {
            format!(
                "Stone Game VII with {} stones: Alice's score minus Bob's is {value} with both \
             playing optimally.",
                self.piles().len()
            )
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = alice_or_bob(ply.player);
                    let end = end_name(ply.mv);
                    let stone = match ply.mv {
                        End::Left => self.piles()[ply.state.left as usize],
                        End::Right => self.piles()[ply.state.right as usize - 1],
                    };
                    Entry {
                        player,
                        text: format!(
                            "{player} removes the {end} stone ({stone}), scoring the {} left",
                            ply.gain
                        ),
                        fields: Fields::new()
                            .with("end", end)
                            .with("stone", stone)
                            .with("gain", ply.gain),
                    }
                })
                .collect()
        }
    }
}
