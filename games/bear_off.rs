//! A backgammon bear-off race: each side's checkers stand on its last `points` points (its home
//! board, point 1 nearest the edge), and the first to bear every checker off wins. A turn is a
//! roll of two dice, then the mover plays each die (a double four times): a checker moves that
//! many points towards the edge, or is borne off from exactly that point, or (when no checker
//! stands further back) from the furthest point occupied. The value is the chance of winning
//! the race: the classic exact solve of a dice game (GNU Backgammon's two-sided bear-off
//! database, `makebearoff -t POINTSxCHECKERS`).
//!
//! A position between rolls is a chance state; the roll leads to the mover's decision (which
//! checkers to move), and that to the opponent's position between rolls. The race cannot go
//! round, so expectimax values it in exact fractions, storing only the positions between rolls.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::error::InputError;
use crate::game::{Capabilities, Chance, Declares, Game, Probability, Score, Step, Turn};
use crate::memo::FastHashBuilder;

/// The most points a side's checkers may stand on: the home board.
pub const MAX_BEAR_OFF_POINTS: u8 = 6;

/// The most checkers a side may have: backgammon's fifteen.
pub const MAX_BEAR_OFF_CHECKERS: u8 = 15;

/// The 21 rolls of two dice (the smaller die first), in order: 1-1, 1-2, …, 6-6.
const ROLLS: [(u8, u8); 21] = {
    let mut rolls = [(0, 0); 21];
    let (mut low, mut at) = (1, 0);
    while low <= 6 {
        let mut high = low;
        while high <= 6 {
            rolls[at] = (low, high);
            at += 1;
            high += 1;
        }
        low += 1;
    }
    rolls
};

/// A bear-off race of `checkers` checkers a side on `points` points.
///
/// ```
/// use gamesolver::{games::BearOff, Solved, Solver};
///
/// // One checker each on the last point (the 1 point): the first to roll bears off and wins.
/// let game = BearOff::new(1, 1)?;
/// let solved = Solver::new(&game).solve_chance()?;
/// assert_eq!(solved.value().win_chance().to_string(), "1");
/// // Two checkers each on the 6 point.
/// let game = BearOff::new(6, 2)?;
/// let solved = Solver::new(&game).solve_chance()?;
/// assert!(solved.value().is_exact() && solved.value().win_chance().to_f64() > 0.5);
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Clone)]
pub struct BearOff {
    points: u8,
    checkers: u8,
    /// Every position's plays for every roll, listed once, when first asked for (a race of at
    /// most [`PLAY_TABLE_POSITIONS`] positions a side).
    table: Arc<OnceLock<Option<PlayTable>>>,
}

/// The most positions a side may have for a race to list every position's plays once (6×6 has
/// 924: 19,404 lists, a fraction of a second, where a solve lists them millions of times).
const PLAY_TABLE_POSITIONS: u64 = 4096;

/// Each position's number, and the plays of every position and roll, by position and roll.
struct PlayTable {
    numbers: HashMap<u32, u32, FastHashBuilder>,
    plays: Vec<Box<[BearOffMove]>>,
}

impl PartialEq for BearOff {
    fn eq(&self, other: &BearOff) -> bool {
        (self.points, self.checkers) == (other.points, other.checkers)
    }
}

impl Eq for BearOff {}

impl fmt::Debug for BearOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearOff")
            .field("points", &self.points)
            .field("checkers", &self.checkers)
            .finish()
    }
}

/// A side's checkers: how many stand on each point, 4 bits a point from point 1 up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Checkers(u32);

impl Checkers {
    /// The checkers on `point` (1 to 6).
    pub fn on(self, point: u8) -> u8 {
        ((self.0 >> (4 * (point - 1))) & 15) as u8
    }

    /// Every checker borne off.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many checkers are left.
    pub fn count(self) -> u32 {
        (1..=MAX_BEAR_OFF_POINTS)
            .map(|point| u32::from(self.on(point)))
            .sum()
    }

    /// The pips left: each checker's point, summed.
    pub fn pips(self) -> u32 {
        (1..=MAX_BEAR_OFF_POINTS)
            .map(|point| u32::from(point) * u32::from(self.on(point)))
            .sum()
    }

    /// The furthest point occupied (0 when every checker is off).
    fn furthest(self) -> u8 {
        (1..=MAX_BEAR_OFF_POINTS)
            .rev()
            .find(|&point| self.on(point) > 0)
            .unwrap_or(0)
    }

    fn remove(self, point: u8) -> Checkers {
        Checkers(self.0 - (1 << (4 * (point - 1))))
    }

    fn add(self, point: u8) -> Checkers {
        Checkers(self.0 + (1 << (4 * (point - 1))))
    }
}

impl fmt::Display for Checkers {
    /// The checkers on points 1, 2, … 6, with commas (`0,2,0,0,0,1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for point in 1..=MAX_BEAR_OFF_POINTS {
            if point > 1 {
                write!(f, ",")?;
            }
            write!(f, "{}", self.on(point))?;
        }
        Ok(())
    }
}

/// A state of the race: the side to move's checkers, the other side's, and the roll, if the
/// dice have been rolled (an index into the 21 rolls plus one; 0 before the roll, a chance
/// state).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Race {
    /// The checkers of the side to move.
    pub mover: Checkers,
    /// The other side's.
    pub other: Checkers,
    roll: u8,
}

impl Race {
    /// The dice rolled (smaller first), once rolled.
    pub fn dice(&self) -> Option<(u8, u8)> {
        self.roll.checked_sub(1).map(|at| ROLLS[at as usize])
    }
}

/// A move of the race: the dice that came up (at a chance state), or the checkers' plays and
/// the position they leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BearOffMove {
    /// The roll: the two dice, smaller first.
    Roll(u8, u8),
    /// The mover's checkers after the plays, and the plays as (from, to) points, to 0 for off
    /// (up to four; unused ones are (0, 0)).
    Play(Checkers, [(u8, u8); 4]),
}

impl BearOff {
    /// A race of `checkers` (1 to 15) a side on `points` (1 to 6) points, each side starting
    /// with every checker on its furthest point (from there the race passes through every
    /// position of at most that many checkers on those points).
    pub fn new(points: i64, checkers: i64) -> Result<BearOff, InputError> {
        let points = u8::try_from(points)
            .ok()
            .filter(|points| (1..=MAX_BEAR_OFF_POINTS).contains(points))
            .ok_or(InputError::OutOfRange {
                unit: "points",
                position: 1,
                value: points,
                rule: "a race is on 1 to 6 points (the home board)",
            })?;
        let checkers = u8::try_from(checkers)
            .ok()
            .filter(|checkers| (1..=MAX_BEAR_OFF_CHECKERS).contains(checkers))
            .ok_or(InputError::OutOfRange {
                unit: "checkers",
                position: 2,
                value: checkers,
                rule: "a side has 1 to 15 checkers",
            })?;
        Ok(BearOff {
            points,
            checkers,
            table: Arc::new(OnceLock::new()),
        })
    }

    /// Every position of at most this race's checkers on its points.
    pub fn all_sides(&self) -> Vec<Checkers> {
        let mut sides = vec![Checkers::default()];
        for _ in 0..self.checkers {
            let mut more: Vec<Checkers> = sides
                .iter()
                .flat_map(|side| (1..=self.points).map(move |point| side.add(point)))
                .collect();
            sides.append(&mut more);
            sides.sort_unstable();
            sides.dedup();
        }
        sides
    }

    /// The table of plays, built at the first call, for a race small enough.
    fn table(&self) -> Option<&PlayTable> {
        self.table
            .get_or_init(|| {
                (self.positions() <= PLAY_TABLE_POSITIONS).then(|| {
                    let sides = self.all_sides();
                    let numbers = sides
                        .iter()
                        .enumerate()
                        .map(|(number, side)| (side.0, number as u32))
                        .collect();
                    let mut plays = Vec::with_capacity(sides.len() * ROLLS.len());
                    let mut list = Vec::new();
                    for side in &sides {
                        for &roll in &ROLLS {
                            list.clear();
                            self.plays_into(*side, roll, &mut list);
                            plays.push(list.clone().into_boxed_slice());
                        }
                    }
                    PlayTable { numbers, plays }
                })
            })
            .as_ref()
    }

    /// The points.
    pub fn points(&self) -> u8 {
        self.points
    }

    /// The checkers a side starts with.
    pub fn checkers(&self) -> u8 {
        self.checkers
    }

    /// The checkers `counts` (on points 1, 2, …, at most this race's points, in all at most its
    /// checkers).
    pub fn side(&self, counts: &[u8]) -> Result<Checkers, InputError> {
        if counts.len() > usize::from(self.points) {
            return Err(InputError::InvalidState(format!(
                "{} points given, but the race is on {}",
                counts.len(),
                self.points
            )));
        }
        let total: u32 = counts.iter().map(|&count| u32::from(count)).sum();
        if total > u32::from(self.checkers) {
            return Err(InputError::InvalidState(format!(
                "{total} checkers given, but a side has at most {}",
                self.checkers
            )));
        }
        Ok(Checkers(
            counts
                .iter()
                .enumerate()
                .map(|(at, &count)| u32::from(count) << (4 * at))
                .sum(),
        ))
    }

    /// The position between rolls where `mover` is to roll against `other`.
    pub fn race(&self, mover: Checkers, other: Checkers) -> Race {
        Race {
            mover,
            other,
            roll: 0,
        }
    }

    /// How many positions a side can have: at most this many checkers on these points.
    pub fn positions(&self) -> u64 {
        // C(points + checkers, checkers).
        (1..=u64::from(self.checkers)).fold(1, |ways, k| ways * (u64::from(self.points) + k) / k)
    }

    /// Every distinct position the mover can leave with `dice` (a double played four times),
    /// each with the first plays found that leave it, ordered by the position (the one with
    /// the most checkers on the furthest points first), appended to `moves`.
    pub fn plays_into(&self, mover: Checkers, dice: (u8, u8), moves: &mut Vec<BearOffMove>) {
        let start = moves.len();
        if dice.0 == dice.1 {
            play_dice(mover, &[dice.0; 4], [(0, 0); 4], 0, moves);
        } else {
            play_dice(mover, &[dice.0, dice.1], [(0, 0); 4], 0, moves);
            play_dice(mover, &[dice.1, dice.0], [(0, 0); 4], 0, moves);
        }
        let after = |mv: &BearOffMove| match mv {
            BearOffMove::Play(after, _) => after.0,
            BearOffMove::Roll(..) => 0,
        };
        moves[start..].sort_by_key(|mv| std::cmp::Reverse(after(mv)));
        let mut kept = start;
        for at in start..moves.len() {
            if at == start || after(&moves[at]) != after(&moves[kept - 1]) {
                moves.swap(kept, at);
                kept += 1;
            }
        }
        moves.truncate(kept);
    }
}

/// Plays `dice` in order from `checkers` (with `plays` made so far, `made` of them), pushing
/// each position reached when the dice are used up or no checker is left.
fn play_dice(
    checkers: Checkers,
    dice: &[u8],
    plays: [(u8, u8); 4],
    made: usize,
    found: &mut Vec<BearOffMove>,
) {
    let Some((&die, rest)) = dice.split_first() else {
        found.push(BearOffMove::Play(checkers, plays));
        return;
    };
    if checkers.is_empty() {
        found.push(BearOffMove::Play(checkers, plays));
        return;
    }
    let furthest = checkers.furthest();
    for point in 1..=MAX_BEAR_OFF_POINTS {
        if checkers.on(point) == 0 {
            continue;
        }
        let to = if point > die {
            point - die
        } else if point == die || point == furthest {
            0
        } else {
            continue;
        };
        let mut after = checkers.remove(point);
        if to > 0 {
            after = after.add(to);
        }
        let mut plays = plays;
        plays[made] = (point, to);
        play_dice(after, rest, plays, made + 1, found);
    }
}

impl Game for BearOff {
    type State = Race;
    type Move = BearOffMove;

    /// Both sides with every checker on the furthest point, the first player to roll.
    fn start(&self) -> Race {
        let all = Checkers(u32::from(self.checkers) << (4 * (self.points - 1)));
        self.race(all, all)
    }

    /// [`moves_into`](Game::moves_into)'s list, collected.
    fn moves(&self, race: &Race) -> impl Iterator<Item = BearOffMove> {
        let mut moves = Vec::new();
        self.moves_into(race, &mut moves);
        moves.into_iter()
    }

    /// Before the roll, the 21 rolls; after it, the positions the mover can leave (none once
    /// the other side has borne every checker off).
    fn moves_into(&self, race: &Race, moves: &mut Vec<BearOffMove>) {
        if race.other.is_empty() {
            return;
        }
        let rolls = ROLLS
            .iter()
            .map(|&(low, high)| BearOffMove::Roll(low, high));
        match (race.dice(), self.table()) {
            (None, _) => moves.extend(rolls),
            (Some(_), Some(table)) => {
                let number = table.numbers[&race.mover.0] as usize;
                let roll = number * ROLLS.len() + usize::from(race.roll) - 1;
                moves.extend_from_slice(&table.plays[roll]);
            }
            (Some(dice), None) => self.plays_into(race.mover, dice, moves),
        }
    }

    fn play(&self, race: &Race, mv: &BearOffMove) -> Step<Race> {
        match *mv {
            BearOffMove::Roll(low, high) => {
                let at = ROLLS
                    .iter()
                    .position(|&roll| roll == (low, high))
                    .expect("a roll of two dice, the smaller first");
                Step {
                    next: Race {
                        roll: at as u8 + 1,
                        ..*race
                    },
                    gain: 0,
                    turn: Turn::Keep,
                }
            }
            BearOffMove::Play(after, _) => Step {
                next: self.race(race.other, after),
                gain: 0,
                turn: Turn::Pass,
            },
        }
    }

    /// The other side has borne every checker off: the side to move has lost.
    fn payoff(&self, _: &Race) -> Score {
        -1
    }

    fn state_text(&self, race: &Race) -> Option<String> {
        Some(format!("{}/{} {:?}", race.mover, race.other, race.dice()))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().chance().dense_index().outcome_game()
    }
}

impl Chance for BearOff {
    fn is_chance(&self, race: &Race) -> bool {
        race.roll == 0
    }

    /// A double 1 in 36, any other roll 2 in 36 (either die may show either face).
    fn probability(&self, _: &Race, roll: &BearOffMove) -> Probability {
        match roll {
            BearOffMove::Roll(low, high) if low == high => Probability::new(1, 36),
            _ => Probability::new(2, 36),
        }
    }
}

/// Every state a place: the two sides' checkers as they are packed (24 bits each) and the
/// roll. A sparse index (most places are no position): `--save` keeps the values by it, and
/// a solve keeps them in a hash table.
impl crate::game::DenseIndex for BearOff {
    fn index_len(&self) -> usize {
        1 << 53
    }

    fn index(&self, race: &Race) -> usize {
        ((race.mover.0 as usize) << 29) | ((race.other.0 as usize) << 5) | usize::from(race.roll)
    }
}

/// How the command line and the page read a bear-off race.
#[cfg(feature = "cli")]
mod cli {
    use super::{BearOff, BearOffMove, Checkers, MAX_BEAR_OFF_POINTS, ROLLS, Race};
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, FromValues, Presented};
    use crate::{InputError, Player};

    /// The race on the command line: `gamesolver bear-off 6 3` (6 points, 3 checkers a side).
    pub const GAME: Bundled = Bundled::game::<BearOff>(
        "bear-off",
        "A backgammon bear-off race: the VALUES are POINTS (1 to 6) and CHECKERS (1 to 15) a \
         side, starting on the furthest point; the first player's winning chance",
    );

    impl BearOff {
        /// A side's checkers in words: `6:2 4:1` (points with checkers, furthest first).
        fn side_words(&self, side: Checkers) -> String {
            let words: Vec<String> = (1..=self.points)
                .rev()
                .filter(|&point| side.on(point) > 0)
                .map(|point| format!("{point}:{}", side.on(point)))
                .collect();
            if words.is_empty() {
                "all off".into()
            } else {
                words.join(" ")
            }
        }
    }

    impl Presented for BearOff {
        fn show(&self, race: &Race) -> String {
            self.show_for(race, Player::First)
        }

        fn show_for(&self, race: &Race, to_move: Player) -> String {
            let (mover, other) = (
                self.player_name(to_move),
                self.player_name(to_move.opponent()),
            );
            let rolled = race
                .dice()
                .map_or_else(String::new, |(low, high)| format!(", rolled {low}-{high}"));
            format!(
                "{mover} to play{rolled}: {} ({} pips); {other}: {} ({} pips).",
                self.side_words(race.mover),
                race.mover.pips(),
                self.side_words(race.other),
                race.other.pips()
            )
        }

        /// A roll as `3-5`; a play as its checkers' moves, `6/3 5/off`.
        fn move_name(&self, _: &Race, mv: &BearOffMove) -> String {
            match mv {
                BearOffMove::Roll(low, high) => format!("{low}-{high}"),
                BearOffMove::Play(_, plays) => {
                    let moves: Vec<String> = plays
                        .iter()
                        .filter(|(from, _)| *from > 0)
                        .map(|&(from, to)| match to {
                            0 => format!("{from}/off"),
                            to => format!("{from}/{to}"),
                        })
                        .collect();
                    moves.join(" ")
                }
            }
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some("each checker's move as FROM/TO or FROM/off, as listed: '6/3 5/off'")
        }

        /// `MOVER/OTHER`: each side's checkers on points 1, 2, … (the side to roll first),
        /// as `0,2,1/1,0,3`; `:3-5` after it once the dice show 3 and 5.
        fn position(&self, text: &str) -> Result<Race, InputError> {
            let refuse = |problem: &str| {
                InputError::InvalidState(format!(
                    "{text:?} is no position ({problem}): give MOVER/OTHER, each side's checkers \
                     on points 1, 2, … ({}), as 0,2,1/1,0,3, with :3-5 after it once the dice \
                     show 3 and 5",
                    self.points
                ))
            };
            let (sides, roll) = match text.trim().split_once(':') {
                Some((sides, roll)) => (sides, Some(roll)),
                None => (text.trim(), None),
            };
            let (mover, other) = sides.split_once('/').ok_or_else(|| refuse("no '/'"))?;
            let counts = |side: &str| -> Result<Vec<u8>, InputError> {
                side.split(',')
                    .map(|count| {
                        count
                            .trim()
                            .parse::<u8>()
                            .map_err(|_| refuse("a count is no number"))
                    })
                    .collect()
            };
            let mut race = self.race(self.side(&counts(mover)?)?, self.side(&counts(other)?)?);
            if let Some(roll) = roll {
                let dice = roll
                    .split_once('-')
                    .and_then(|(a, b)| {
                        Some((a.trim().parse::<u8>().ok()?, b.trim().parse::<u8>().ok()?))
                    })
                    .map(|(a, b)| (a.min(b), a.max(b)))
                    .ok_or_else(|| refuse("the roll is no two dice"))?;
                let at = ROLLS
                    .iter()
                    .position(|&roll| roll == dice)
                    .ok_or_else(|| refuse("a die shows 1 to 6"))?;
                race.roll = at as u8 + 1;
            }
            Ok(race)
        }

        fn view(&self, race: &Race) -> Value {
            self.view_for(race, Player::First)
        }

        /// The dice view: the dice rolled, and each side's checkers by point.
        fn view_for(&self, race: &Race, to_move: Player) -> Value {
            let (mover, other) = (
                self.player_name(to_move),
                self.player_name(to_move.opponent()),
            );
            let dice: Vec<u8> = race.dice().map_or_else(Vec::new, |(low, high)| {
                if low == high {
                    vec![low; 4]
                } else {
                    vec![low, high]
                }
            });
            let points = |side: Checkers| -> Vec<u8> {
                (1..=MAX_BEAR_OFF_POINTS.min(self.points))
                    .map(|point| side.on(point))
                    .collect()
            };
            json!({
                "kind": "dice",
                "dice": dice,
                "rolling": race.roll == 0 && !race.other.is_empty(),
                "faces": 6,
                "lines": [
                    format!("{mover}: {} ({} pips)", self.side_words(race.mover), race.mover.pips()),
                    format!("{other}: {} ({} pips)", self.side_words(race.other), race.other.pips()),
                ],
                "points": [points(race.mover), points(race.other)],
            })
        }
    }

    impl FromValues for BearOff {
        const EXAMPLE: &'static str = "4 3";
        const POSITION: Option<&'static str> = Some(
            "MOVER/OTHER: each side's checkers on points 1, 2, … (the side to roll first), as \
             0,2,1/1,0,3; :3-5 after it once the dice show 3 and 5",
        );
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            match *values {
                [points, checkers] => BearOff::new(points, checkers),
                _ => Err(InputError::InvalidGame(format!(
                    "bear-off takes POINTS CHECKERS: {} values given",
                    values.len()
                ))),
            }
        }
    }
}

#[cfg(feature = "cli")]
pub(super) use cli::GAME;
