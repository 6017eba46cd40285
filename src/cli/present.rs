//! How each bundled game presents itself: its natural answer, a headline, and its optimal line
//! as entries that read as sentences and serialise as JSON.

use std::borrow::Cow;

use serde::Serialize;

use gamesolver::games::{
    ConnectFour, DotsAndBoxes, End, Interval, Nim, Stepwise, StoneGame, StoneGameII, StoneGameIII,
    StoneGameIITake, StoneGameVII, StoneGameVIII, StoneGameVIIITake, TicTacToe,
};
use gamesolver::{AnyValue, DeclaredRange, Error, Game, Player, Ply, RangeSource, Score, Turn};

/// A game's natural answer: a number, or a winner ("Alice", "Bob", "X", "O", "Tie", "Draw");
/// in JSON, the number or the name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// A number (stones, a score difference).
    Number(i64),
    /// Who wins.
    Winner(&'static str),
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
    /// The answer, from the engine's value of the start.
    fn answer(&self, value: Score) -> Answer;
    /// One sentence stating the result.
    fn headline(&self, value: Score) -> String;
    /// The optimal line in the game's own terms.
    fn entries(&self, line: &[Ply<Self>]) -> Line
    where
        Self: Sized;
    /// The state at `position`, written in the game's terms (`analyze --at`).
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        let _ = position;
        Err(Error::InvalidState(
            "analyze --at takes positions for stone-game, stone-game-ii, stone-game-iii, \
             stone-game-vii and nim; analyze this game from its start"
                .into(),
        ))
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
fn interval_position(n: usize, position: &[i64], units: &str) -> Result<Interval, Error> {
    match *position {
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
fn winner(value: Score, first: &'static str, second: &'static str, tie: &'static str) -> Answer {
    Answer::Winner(match value.signum() {
        1 => first,
        -1 => second,
        _ => tie,
    })
}

fn result(value: Score) -> String {
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

impl Presented for StoneGameII {
    type Range = AnyValue;
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        let n = self.piles().len() as i64;
        match *position {
            [pile, _] if pile > n + 1 => Err(Error::InvalidState(format!(
                "pile {pile} is past the {n} piles (PILE is from 1 to {}, the end)",
                n + 1
            ))),
            [pile, m] if pile >= 1 && m >= 1 => self.state(pile as usize - 1, m as usize),
            _ => Err(Error::InvalidState(
                "a Stone Game II position is 'PILE,M': the next pile (from 1) and M (at least 1)"
                    .into(),
            )),
        }
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(self.alice_stones(value))
    }
    fn headline(&self, value: Score) -> String {
        stone_game_ii_headline(self, self.alice_stones(value))
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        Line::StoneGameII(self.describe(line))
    }
    /// Each state `(next, M)` without a known value has `2M` moves: about `n³ / 27` in all.
    fn engine_work(&self) -> Option<(u64, &'static str)> {
        let n = self.piles().len() as u64;
        let work = (0..n)
            .map(|next| {
                let top = next.max(1).min((n - next).saturating_sub(1) / 2);
                top.saturating_mul(top + 1)
            })
            .fold(0u64, u64::saturating_add);
        Some((work, "--solver fast (O(n²))"))
    }
}

/// Stone Game VIII through its stepwise model, which the engine solves.
impl Presented for Stepwise<'_> {
    type Range = AnyValue;
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        stone_game_viii_headline(self.game(), value)
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        Line::StoneGameVIII(self.game().describe_stepwise(line))
    }
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Left => "left",
        End::Right => "right",
    }
}

impl Presented for StoneGame {
    type Range = AnyValue;
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        interval_position(self.piles().len(), position, "piles")
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
                    fields: Fields::End {
                        end,
                        stones: ply.gain,
                    },
                }
            })
            .collect()
    }
}

impl Presented for StoneGameIII {
    type Range = AnyValue;
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        let n = self.values().len() as i64;
        match *position {
            [next] if (1..=n + 1).contains(&next) => Ok(next as u32 - 1),
            _ => Err(Error::InvalidState(format!(
                "a Stone Game III position is 'STONE': the next stone, from 1 to {} ({} is \
                 the end)",
                n + 1,
                n + 1
            ))),
        }
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "Alice", "Bob", "Tie")
    }
    fn headline(&self, value: Score) -> String {
        format!(
            "Stone Game III with {} stones: {} with both playing optimally.",
            self.values().len(),
            result(value)
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let first = ply.state + 1;
                Entry {
                    player,
                    text: format!(
                        "{player} takes {} stone{} from stone {first} (worth {})",
                        ply.mv,
                        if ply.mv == 1 { "" } else { "s" },
                        ply.gain
                    ),
                    fields: Fields::Front {
                        first_stone: first,
                        stones: ply.mv,
                        gain: ply.gain,
                    },
                }
            })
            .collect()
    }
}

impl Presented for StoneGameVII {
    type Range = AnyValue;
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        interval_position(self.piles().len(), position, "stones")
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
                    fields: Fields::EndStone {
                        end,
                        stone,
                        gain: ply.gain,
                    },
                }
            })
            .collect()
    }
}

impl Presented for Nim {
    type Range = DeclaredRange;
    fn position(&self, position: &[i64]) -> Result<Self::State, Error> {
        Nim::position(self, position)
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "Alice", "Bob", "Tie")
    }
    fn headline(&self, value: Score) -> String {
        let who = if value > 0 {
            "Alice (moving first)"
        } else {
            "Bob (moving second)"
        };
        format!(
            "Nim with heaps {:?}: {who} wins with perfect play.",
            self.heaps()
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let (heap, take) = (ply.mv.0 + 1, ply.mv.1);
                let from = self.heap(ply.state, ply.mv.0 as usize);
                Entry {
                    player,
                    text: format!(
                        "{player} takes {take} from heap {heap} ({from} → {})",
                        from - take
                    ),
                    fields: Fields::Heap { heap, take },
                }
            })
            .collect()
    }
}

impl Presented for TicTacToe {
    type Range = AnyValue;
    fn answer(&self, value: Score) -> Answer {
        winner(value, "X", "O", "Draw")
    }
    fn headline(&self, value: Score) -> String {
        let result = match value.signum() {
            1 => "X wins",
            -1 => "O wins",
            _ => "a draw",
        };
        format!("Tic-tac-toe from the empty board: {result} with both playing optimally.")
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = if ply.player == Player::First {
                    "X"
                } else {
                    "O"
                };
                let (row, column) = (ply.mv / 3 + 1, ply.mv % 3 + 1);
                Entry {
                    player,
                    text: format!("{player} marks row {row}, column {column}"),
                    fields: Fields::Cell { row, column },
                }
            })
            .collect()
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
    type Range = AnyValue;
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
                    fields: Fields::Edge {
                        from: [r1, c1],
                        to: [r2, c2],
                        boxes,
                    },
                }
            })
            .collect()
    }
}

impl Presented for ConnectFour {
    type Range = DeclaredRange;
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        let stones = self.start().stones();
        format!(
            "Connect Four {}x{} from a position of {stones} stones: score {value}: {}.",
            self.width(),
            self.height(),
            self.meaning(stones, value)
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        // `Player::First` is whoever moves at the start position.
        let first_moves = self.start().stones().is_multiple_of(2);
        line.iter()
            .map(|ply| {
                let player = if ply.player.is_first() == first_moves {
                    "first"
                } else {
                    "second"
                };
                let column = ply.mv.column + 1;
                let wins = if self.play(&ply.state, &ply.mv).next.is_won() {
                    ", making four in a row"
                } else {
                    ""
                };
                Entry {
                    player,
                    text: format!("{player} player drops a stone in column {column}{wins}"),
                    fields: Fields::Column { column },
                }
            })
            .collect()
    }
}
