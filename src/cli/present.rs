//! How each bundled game presents itself: its natural answer, a headline, and its optimal line
//! as entries that read as sentences and serialise as JSON.

use std::borrow::Cow;

use serde::Serialize;

use gamesolver::games::{
    End, Interval, StoneGameII, StoneGameIITake, StoneGameVIII, StoneGameVIIITake,
};
use gamesolver::{Error, Game, Player, Ply, RangeSource, Score};

/// A game's natural answer: a number, or a winner ("Alice", "Bob", "X", "O", "Tie", "Draw");
/// in JSON, the number or the name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// A number (stones, a score difference).
    Number(i64),
    /// Who wins.
    Winner(&'static str),
    /// Yes or no (LeetCode 1728: can the mouse win?).
    Bool(bool),
}

/// One move of the optimal line: in words, and in JSON as `{"player": …, <its fields>}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Who moves.
    pub player: &'static str,
    /// The move in words, starting with the player.
    #[serde(skip)]
    pub text: String,
    /// The move in the game's own terms (JSON only).
    #[serde(flatten)]
    pub fields: Fields,
}

/// A move's JSON fields, in each game's terms (serialised flat, beside `"player"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Fields {
    /// Stone Game II: the piles taken and M before and after.
    Piles {
        /// The first pile taken, from 1.
        first_pile: usize,
        /// How many piles.
        piles: usize,
        /// Their stones.
        stones: i64,
        /// M before the move.
        m_before: usize,
        /// M after it.
        m_after: usize,
    },
    /// Stone Game VIII: the leftmost stones removed and their sum.
    Leftmost {
        /// How many stones.
        stones: usize,
        /// Their sum, scored.
        gain: i64,
    },
    /// Stone Game (877): the end taken.
    End {
        /// `"left"` or `"right"`.
        end: &'static str,
        /// The pile's stones.
        stones: i64,
    },
    /// Stone Game III: the stones taken from the front.
    Front {
        /// The first stone taken, from 1.
        first_stone: u32,
        /// How many (1 to 3).
        stones: u32,
        /// Their sum.
        gain: i64,
    },
    /// Stone Game VII: the end stone removed and what the rest scores.
    EndStone {
        /// `"left"` or `"right"`.
        end: &'static str,
        /// The stone's value.
        stone: i64,
        /// The sum of the stones left.
        gain: i64,
    },
    /// Nim: counters taken from a heap.
    Heap {
        /// The heap, from 1.
        heap: u32,
        /// How many counters.
        take: u32,
    },
    /// Tic-tac-toe: the cell marked.
    Cell {
        /// From 1.
        row: u8,
        /// From 1.
        column: u8,
    },
    /// Dots and Boxes: the line drawn and the boxes it completes.
    Edge {
        /// One dot, `[row, column]`.
        from: [u32; 2],
        /// The other dot.
        to: [u32; 2],
        /// Boxes completed.
        boxes: i64,
    },
    /// Connect Four: the column, from 1.
    Column {
        /// From 1.
        column: u8,
    },
    /// Cat and Mouse: who moves, and from where to where (a node, or a cell `[row, column]`
    /// from 1).
    Chase {
        /// `"mouse"` or `"cat"`.
        animal: &'static str,
        /// Where it was.
        from: Place,
        /// Where it goes.
        to: Place,
    },
}

/// A place in a Cat and Mouse game: a node of the graph, or a cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Place {
    /// A node (913).
    Node(u16),
    /// A cell, `[row, column]` from 1 (1728).
    Cell([usize; 2]),
}

impl Entry {
    /// The heap and inline bytes of an entry in words, about (for the memory budget).
    pub const BYTES: u64 = 256;
}

/// An optimal line, ready to print: entries in words, or, for the games whose line can be as
/// long as their input (10⁷ moves), compact takes put in words only as they are printed.
pub enum Line {
    /// Entries in words.
    Entries(Vec<Entry>),
    /// Stone Game II's takes.
    StoneGameII(Vec<StoneGameIITake>),
    /// Stone Game VIII's takes.
    StoneGameVIII(Vec<StoneGameVIIITake>),
}

impl FromIterator<Entry> for Line {
    /// Entries in words, collected.
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Self {
        Line::Entries(entries.into_iter().collect())
    }
}

impl Line {
    /// How many moves.
    pub fn len(&self) -> usize {
        match self {
            Line::Entries(entries) => entries.len(),
            Line::StoneGameII(takes) => takes.len(),
            Line::StoneGameVIII(takes) => takes.len(),
        }
    }

    /// The moves in order, each in words.
    pub fn entries(&self) -> impl Iterator<Item = Cow<'_, Entry>> {
        (0..self.len()).map(|index| match self {
            Line::Entries(entries) => Cow::Borrowed(&entries[index]),
            Line::StoneGameII(takes) => Cow::Owned(stone_game_ii_entry(&takes[index])),
            Line::StoneGameVIII(takes) => Cow::Owned(stone_game_viii_entry(&takes[index])),
        })
    }
}

/// What the command line needs from a game besides the rules.
pub trait Presented: Game {
    /// About how many bytes one move of [`entries`](Presented::entries) holds.
    const ENTRY_BYTES: u64 = Entry::BYTES;
    /// Where the exhaustive engine may cut: [`DeclaredRange`](gamesolver::DeclaredRange) for a
    /// game with a [`ValueRange`](gamesolver::ValueRange), else
    /// [`AnyValue`](gamesolver::AnyValue).
    type Range: RangeSource<Self> + Default;
    /// Whether it is an outcome game (final states won, lost or drawn, no points on the way):
    /// then `auto` solves it by retrograde analysis when it is small enough
    /// ([`RETROGRADE_STATES`](super::run::RETROGRADE_STATES)), for the remoteness and a line
    /// that wins as fast, and loses as slowly, as it can.
    const OUTCOMES: bool = false;
    /// The answer, from the engine's value of the start.
    fn answer(&self, value: Score) -> Answer;
    /// One sentence stating the result.
    fn headline(&self, value: Score) -> String;
    /// The optimal line in the game's own terms.
    fn entries(&self, line: &[Ply<Self>]) -> Line
    where
        Self: Sized;
    /// The state at `position`, written in the game's terms (`analyze --at`, `play --at`).
    fn position(&self, position: &str) -> Result<Self::State, Error> {
        let _ = position;
        Err(Error::InvalidState(format!(
            "--at takes positions for {}; start this game from its start",
            super::games::at_names()
        )))
    }
    /// Who `player` is, in the game's words.
    fn player_name(&self, player: Player) -> &'static str {
        alice_or_bob(player)
    }
    /// The position as `play` shows it before each move (the piles, the board), in lines.
    fn show(&self, state: &Self::State) -> String;
    /// A move at `state` as a person types it in `play` (and as `?` lists it): short, and
    /// distinct from the state's other moves.
    fn move_name(&self, state: &Self::State, mv: &Self::Move) -> String;
    /// How a person types a move in `play`, if the moves' names need saying.
    fn move_hint(&self) -> Option<&'static str> {
        None
    }
    /// The result of a finished game whose first player's points minus the second's are
    /// `margin`, as a sentence.
    fn final_result(&self, margin: Score) -> String {
        match self.answer(margin) {
            Answer::Winner(who) if margin == 0 => who.to_string(),
            Answer::Winner(who) => format!("{who} wins"),
            Answer::Number(_) | Answer::Bool(_) => {
                let (first, second) = (
                    self.player_name(Player::First),
                    self.player_name(Player::Second),
                );
                match margin.signum() {
                    1 => format!("{first} wins by {margin}"),
                    -1 => format!("{second} wins by {}", -margin),
                    _ => "a tie".to_string(),
                }
            }
        }
    }
    /// A sentence that says how to read the line's moves, where they need one.
    fn legend(&self) -> Option<&'static str> {
        None
    }
    /// How many moves the exhaustive engine values to solve the game, where that is known
    /// (for an estimate of its time before it starts), with the game's faster solver.
    fn engine_work(&self) -> Option<(u64, &'static str)> {
        None
    }
}

/// The interval `FIRST,LAST` (from 1, inclusive) of an interval game with `n` values.
pub fn interval_position(n: usize, position: &str, units: &str) -> Result<Interval, Error> {
    match *integers(position)? {
        [first, last] if 1 <= first && first <= last + 1 && last <= n as i64 => Ok(Interval {
            left: first as u32 - 1,
            right: last as u32,
        }),
        _ => Err(Error::InvalidState(format!(
            "a position is 'FIRST,LAST': the {units} left, from 1 to {n} (FIRST = LAST + 1 for \
             none)"
        ))),
    }
}

/// Alice moves first in the stone games and Nim.
pub fn alice_or_bob(player: Player) -> &'static str {
    match player {
        Player::First => "Alice",
        Player::Second => "Bob",
    }
}

/// The winner of a margin (first player's points minus second's).
pub fn winner(
    value: Score,
    first: &'static str,
    second: &'static str,
    tie: &'static str,
) -> Answer {
    Answer::Winner(match value.signum() {
        1 => first,
        -1 => second,
        _ => tie,
    })
}

pub fn result(value: Score) -> String {
    match value.signum() {
        1 => format!("Alice wins by {value}"),
        -1 => format!("Bob wins by {}", -value),
        _ => "it is a tie".to_string(),
    }
}

/// A Stone Game II take, as an entry (shared by the engine and the specialised solver).
pub fn stone_game_ii_entry(take: &StoneGameIITake) -> Entry {
    let player = alice_or_bob(take.player);
    let piles = if take.piles == 1 {
        format!("pile {}", take.first_pile)
    } else {
        format!(
            "piles {}-{}",
            take.first_pile,
            take.first_pile + take.piles - 1
        )
    };
    let m = if take.m_after == take.m_before {
        format!("M stays {}", take.m_after)
    } else {
        format!("M becomes {}", take.m_after)
    };
    Entry {
        player,
        text: format!(
            "{player} takes {piles} ({} stones; could take 1 to {}); {m}",
            take.stones, take.max_piles
        ),
        fields: Fields::Piles {
            first_pile: take.first_pile,
            piles: take.piles,
            stones: take.stones,
            m_before: take.m_before,
            m_after: take.m_after,
        },
    }
}

/// A Stone Game VIII take, as an entry (shared by the engine and the specialised solver).
pub fn stone_game_viii_entry(take: &StoneGameVIIITake) -> Entry {
    let player = alice_or_bob(take.player);
    Entry {
        player,
        text: format!(
            "{player} removes the leftmost {} stones, scoring their sum {}, and puts back a \
             stone of {}",
            take.stones, take.gain, take.gain
        ),
        fields: Fields::Leftmost {
            stones: take.stones,
            gain: take.gain,
        },
    }
}

/// Stone Game II's headline, given Alice's stones.
pub fn stone_game_ii_headline(game: &StoneGameII, alice: i64) -> String {
    format!(
        "Stone Game II with {} piles ({} stones): Alice can get {alice} stones (Bob {}) with \
         both playing optimally.",
        game.piles().len(),
        game.total(),
        i128::from(game.total()) - i128::from(alice)
    )
}

/// Stone Game VIII's headline.
pub fn stone_game_viii_headline(game: &StoneGameVIII, value: Score) -> String {
    format!(
        "Stone Game VIII with {} stones: Alice's score minus Bob's is {value} with both \
         playing optimally.",
        game.stones().len()
    )
}

/// The end's name, as the line and JSON write it.
pub fn end_name(end: End) -> &'static str {
    match end {
        End::Left => "left",
        End::Right => "right",
    }
}

/// The integers of a position typed as `3,1` or `3 1`.
pub fn integers(position: &str) -> Result<Vec<i64>, Error> {
    gamesolver::input::parse_arguments(&[position])
}

/// Values in a row, as `play` shows them: the first 24 and how many more.
pub fn row(values: impl ExactSizeIterator<Item = i64>) -> String {
    const SHOWN: usize = 24;
    let more = values.len().saturating_sub(SHOWN);
    let mut text: Vec<String> = values.take(SHOWN).map(|value| value.to_string()).collect();
    if more > 0 {
        text.push(format!("… ({more} more)"));
    }
    text.join(" ")
}
