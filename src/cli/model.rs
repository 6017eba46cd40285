//! The command line's model, the leaf every other module of `cli` stands on: a game's name, its
//! answer, the moves of a line as entries (words, and JSON fields as an ordered map in the
//! game's own terms), the report of a solve, an analysis, a check's summary, and why a run
//! failed. It names no game and imports no other module of `cli`.

use std::borrow::Cow;
use std::hash::Hash;

use crate::check::{CheckOptions, CheckReport, check_dense};
use crate::{DenseIndex, Error, Game, InputError, Player, Score, SolveError, Turn, engines::Stats};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A bundled game's name, as typed on the command line (`stone-game-ii`). The registry
/// (`cli::registry`) knows what the name stands for, and gives the parser that accepts the
/// bundled games' names only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameName(pub &'static str);

impl GameName {
    /// The name as typed on the command line.
    pub fn id(self) -> &'static str {
        self.0
    }

    /// The game in words with its values, as a tier file names it (`quixo 4`).
    pub(crate) fn with_values(self, values: &[i64]) -> String {
        let values: Vec<String> = values.iter().map(i64::to_string).collect();
        [self.id().to_string(), values.join(" ")]
            .join(" ")
            .trim()
            .to_string()
    }
}

/// The command line's own errors, beside the library's [`Error`]: the files and streams it
/// reads and writes (keeping the operating system's error as their source), a saved solution
/// that is not one, and a solve it refuses before it starts as too slow for `--time-limit`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// A file or stream could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path as given, or what was read ("standard input", "the terminal").
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A file could be read, but is not what it should be (a saved solution that is
    /// truncated, of another game, or corrupt): the problem says which.
    #[error("cannot read {path}: {problem}")]
    Corrupt {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A file or stream could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The path as given, or what was written ("standard output").
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A solve whose known amount of work would take longer than `--time-limit`, refused
    /// before it starts.
    #[error(
        "this solve would take about {}, past the time limit of {}; {advice}",
        Error::duration_in_words(*estimate),
        crate::error::seconds(*limit)
    )]
    TooSlow {
        /// The estimated time.
        estimate: std::time::Duration,
        /// The limit.
        limit: std::time::Duration,
        /// What to do instead.
        advice: String,
    },
}

impl CliError {
    /// Its short, stable name (`--json`'s `"kind"`), as [`Error::kind`] names the library's.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            CliError::Read { .. } | CliError::Corrupt { .. } => "io",
            CliError::Write { .. } => "write",
            CliError::TooSlow { .. } => "too-slow",
        }
    }

    /// A file or stream that could not be read.
    pub fn read(path: impl Into<String>, source: std::io::Error) -> Self {
        CliError::Read {
            path: path.into(),
            source,
        }
    }

    /// A file or stream that could not be written.
    pub fn write(path: impl Into<String>, source: std::io::Error) -> Self {
        CliError::Write {
            path: path.into(),
            source,
        }
    }
}

/// Why the program stops without an answer.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong (exit code 2).
    Usage(String),
    /// The input or the solve was rejected (exit code 1).
    Rejected(Error),
    /// A file, a stream or the time limit stopped the command line (exit code 1).
    Cli(CliError),
    /// A line of a batch input stopped the batch (exit code 1).
    AtLine(usize, Error),
    /// The solve was rejected, and another solver would do (exit code 1): the error, and what
    /// to use instead.
    Advised(Error, &'static str),
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure::Rejected(error)
    }
}

impl From<SolveError> for Failure {
    fn from(error: SolveError) -> Self {
        Failure::Rejected(error.into())
    }
}

impl From<InputError> for Failure {
    fn from(error: InputError) -> Self {
        Failure::Rejected(error.into())
    }
}

impl From<CliError> for Failure {
    fn from(error: CliError) -> Self {
        Failure::Cli(error)
    }
}

/// A game's natural answer: a number, or a winner ("Alice", "Bob", "X", "O", "Tie", "Draw");
/// in JSON, the number or the name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// A number (stones, a score difference).
    Number(i64),
    /// Who wins.
    Winner(&'static str),
    /// Yes or no (LeetCode 1728: can the mouse win?).
    Bool(bool),
    /// A probability or an expectation (a game with chance: the first player's winning chance,
    /// or expected margin).
    Real(Real),
}

/// A real number in an [`Answer`] (equal when its bits are).
#[derive(Debug, Clone, Copy, serde::Serialize)]
#[serde(transparent)]
pub struct Real(pub f64);

impl PartialEq for Real {
    fn eq(&self, other: &Real) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Real {}

/// A value of a game with chance as the output shows it: a number (a winning chance, or an
/// expectation), the exact fraction where the engine gives one, else the error bound it proved.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceNumber {
    /// The value as a number.
    pub value: f64,
    /// The exact fraction (`"4/7"`), where there is one.
    pub exact: Option<String>,
    /// The proved bound on the number's error, where it is not exact.
    pub error_bound: Option<f64>,
}

/// The longest exact fraction the text output writes out (a fraction of 15 digits over 15).
pub(crate) const FRACTION_WRITTEN: usize = 31;

impl ChanceNumber {
    /// `value` as the output shows it.
    pub(crate) fn of(value: &crate::engines::chance::Value) -> ChanceNumber {
        ChanceNumber {
            value: value.to_f64(),
            exact: value.exact().map(ToString::to_string),
            error_bound: (!value.is_exact()).then(|| value.error_bound()),
        }
    }

    /// In words: `4/7 (0.571429)`, or `0.5305927253 (± 1.1e-12)`; an exact fraction longer
    /// than [`FRACTION_WRITTEN`] as its decimal, `0.6512002123 (exact: 32-digit fraction)`
    /// (`--json` has it whole).
    pub(crate) fn words(&self) -> String {
        match &self.exact {
            Some(exact) if exact.contains('/') && exact.len() <= FRACTION_WRITTEN => {
                format!("{exact} ({:.6})", self.value)
            }
            Some(exact) if exact.contains('/') => {
                let digits = exact.len() - exact.find('/').map_or(0, |slash| slash + 1);
                format!("{:.10} (exact: {digits}-digit fraction)", self.value)
            }
            Some(exact) => exact.clone(),
            None => format!(
                "{:.10} (± {:.1e})",
                self.value,
                self.error_bound.unwrap_or(0.0)
            ),
        }
    }
}

/// The analysis of a position of a game with chance: the values as numbers (winning chances,
/// or expectations), and whether a roll decides it.
pub struct ChanceMoves {
    /// The position's value for the player whose turn it is.
    pub value: ChanceNumber,
    /// Whether a roll decides the position: its moves are the outcomes.
    pub rolling: bool,
    /// Each move's value (for the mover; at a roll, for the player whose roll it is) and, at
    /// a roll, its probability, in the order of [`Moves::moves`].
    pub moves: Vec<(ChanceNumber, Option<String>)>,
    /// The first player's value at the position (for the page's history).
    pub first: ChanceNumber,
    /// The first player's name, then the second's.
    pub players: [&'static str; 2],
    /// Who moves (or rolls) at the position, counted from the position analysed.
    pub to_move: Player,
}

/// JSON fields in the game's own terms, in the order they were added; serialised as an object
/// (flat beside `"player"` in an entry, after the common keys in a report).
///
/// ```ignore
/// let fields = Fields::new().with("heap", 2).with("take", 1);
/// // {"heap":2,"take":1}
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(Vec<(&'static str, Value)>);

impl Fields {
    /// No fields.
    pub fn new() -> Fields {
        Fields(Vec::new())
    }

    /// These fields and `key`: `value` after them.
    pub fn with(mut self, key: &'static str, value: impl Into<Value>) -> Fields {
        self.0.push((key, value.into()));
        self
    }

    /// These fields less `key` (where a move's JSON writes it itself).
    pub fn without(&self, key: &str) -> Fields {
        Fields(self.0.iter().filter(|(k, _)| *k != key).cloned().collect())
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// One move of the optimal line: in words, and in JSON as `{"player": …, <its fields>}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
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

impl Entry {
    /// The heap and inline bytes of an entry in words, about (for the memory budget).
    pub const BYTES: u64 = 256;
}

/// An optimal line, ready to print: entries in words, or, for the games whose line can be as
/// long as their input (10⁷ moves), compact moves put in words only as they are printed.
pub enum Line {
    /// Entries in words.
    Entries(Vec<Entry>),
    /// `len` moves, the one at an index put in words when it is printed.
    Lazy {
        /// How many moves.
        len: usize,
        /// The entry of the move at an index.
        entry: Box<dyn Fn(usize) -> Entry>,
    },
}

impl FromIterator<Entry> for Line {
    /// Entries in words, collected.
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Self {
        Line::Entries(entries.into_iter().collect())
    }
}

impl Line {
    /// A line of compact moves, each put in words by `entry` as it is printed.
    pub fn lazy<M: 'static>(moves: Vec<M>, entry: fn(&M) -> Entry) -> Line {
        Line::Lazy {
            len: moves.len(),
            entry: Box::new(move |index| entry(&moves[index])),
        }
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        match self {
            Line::Entries(entries) => entries.len(),
            Line::Lazy { len, .. } => *len,
        }
    }

    /// Whether the line has no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The moves in order, each in words.
    pub fn entries(&self) -> impl Iterator<Item = Cow<'_, Entry>> {
        (0..self.len()).map(move |index| match self {
            Line::Entries(entries) => Cow::Borrowed(&entries[index]),
            Line::Lazy { entry, .. } => Cow::Owned(entry(index)),
        })
    }
}

/// Everything the output shows.
pub struct Report {
    /// The game solved.
    pub game: GameName,
    /// The size of its input (the number of VALUES, or of stones on a board), for the words.
    pub n: usize,
    /// The answer in the game's terms ([`Presented::answer`](super::present::Presented::answer)).
    pub answer: Answer,
    /// First player's points minus second's.
    pub value: Score,
    /// One sentence stating the result ([`Presented::headline`](super::present::Presented::headline)).
    pub headline: String,
    /// The solver that ran, as `--solver` names it (`"engine"`, `"fast"`, `"tier"`…).
    pub solver: &'static str,
    /// The table it kept its values in, in a word (`"hash"`, `"dense"`, `"none"`…).
    pub table: &'static str,
    /// The threads it ran on.
    pub threads: usize,
    /// What it did: states stored, moves looked at, time.
    pub stats: Stats,
    /// The optimal line, as entries.
    pub line: Line,
    /// Lines printed after the headline (a board, move scores), in words.
    pub notes: Vec<String>,
    /// The game's own fields in JSON (a position and its board, say), after the common ones.
    pub json: Option<Fields>,
    /// For games with outcomes (win, loss, draw): the start's outcome for the first player and
    /// its remoteness (`None` for a draw).
    pub outcome: Option<(crate::engines::retrograde::Outcome, Option<u32>)>,
    /// For a process of a distributed solve that does not host worker 0: what it did (for
    /// stderr). Such a process prints nothing on stdout: the first process prints the answer.
    pub helper: Option<String>,
    /// The solver did not keep what the line needs (a note says why): the empty line does not
    /// mean that the game is over.
    pub withheld: bool,
    /// For a game with chance: the first player's value as a number (a winning chance or an
    /// expectation), exact or with its error bound; `value` is then 0.
    pub chance: Option<ChanceNumber>,
    /// Why the solver ran, where the library's plan chose it ([`Plan::why`](crate::Plan::why),
    /// in words).
    pub why: Option<String>,
    /// `--explain`: the report says what would run and why, and nothing was solved.
    pub explained: bool,
}

impl Report {
    /// The report of a solve of `game` whose answer is `answer` (the first player's value
    /// `value`), stated by `headline`, by the solver `--solver` calls `solver`: no line, one
    /// thread, no table, no figures. A game's own solver ([`Bundled::with_fast`]) fills in
    /// what else it knows with struct update syntax.
    ///
    /// [`Bundled::with_fast`]: super::Bundled::with_fast
    ///
    /// ```
    /// use gamesolver::cli::model::{Answer, GameName, Report};
    /// let report = Report {
    ///     n: 5,
    ///     ..Report::new(GameName("countdown"), Answer::Winner("Alice"), 1, "Alice wins.".into(), "fast")
    /// };
    /// assert_eq!((report.n, report.threads, report.line.len()), (5, 1, 0));
    /// ```
    pub fn new(
        game: GameName,
        answer: Answer,
        value: Score,
        headline: String,
        solver: &'static str,
    ) -> Report {
        Report {
            game,
            n: 0,
            answer,
            value,
            headline,
            solver,
            table: "none",
            threads: 1,
            stats: Stats::default(),
            line: Line::Entries(Vec::new()),
            notes: Vec::new(),
            json: None,
            outcome: None,
            helper: None,
            withheld: false,
            chance: None,
            why: None,
            explained: false,
        }
    }
}

/// The moves of one position with their values.
pub struct Moves {
    /// The game analysed.
    pub game: GameName,
    /// The position as given (`None`: the start).
    pub position: Option<String>,
    /// Its value for the player to move.
    pub value: Score,
    /// For games with outcomes: its remoteness (`None` for a draw).
    pub remoteness: Option<Option<u32>>,
    /// Whether the game is won, lost or drawn (values +1, -1, 0), not scored in points.
    pub outcomes: bool,
    /// The position drawn, for a game whose positions are boards, in lines.
    pub board: Option<String>,
    /// The position as data for a picture ([`Presented::view`](super::present::Presented::view)).
    pub view: serde_json::Value,
    /// Every legal move, best first (ties in the game's move order).
    pub moves: Vec<Valued>,
    /// The players, whose turn it is and the points so far, where the game has them.
    pub scene: Option<Box<Scene>>,
    /// For a game with chance: the values as numbers (`value` and the moves' values are then
    /// 0).
    pub chance: Option<Box<ChanceMoves>>,
    /// For an impartial game: the position's nimber (each move's is among its fields).
    pub nimber: Option<crate::game::Nimber>,
}

/// Who is to move and the points each player has gained, counted over the moves played from
/// the position analysed (`analyze --after`; the position itself counts as the start: its mover
/// is the first player, with no points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Who moves at the position reached.
    pub to_move: Player,
    /// The first player's points, then the second's.
    pub points: [Score; 2],
    /// How many moves were played.
    pub played: usize,
}

impl Tally {
    /// `to_move` to move, with no points and no move played.
    pub(crate) const fn starting(to_move: Player) -> Tally {
        Tally {
            to_move,
            points: [0, 0],
            played: 0,
        }
    }

    /// The first player's points minus the second's.
    pub(crate) fn margin(&self) -> Result<Score, SolveError> {
        self.points[0]
            .checked_sub(self.points[1])
            .ok_or(SolveError::ScoreOverflow)
    }

    /// The first player's points minus the second's at the end of the game, if the player to
    /// move secures `value` from here on (`value` is theirs: the second player's is negated).
    pub fn final_margin(&self, value: Score) -> Result<Score, SolveError> {
        let value = if self.to_move.is_first() {
            value
        } else {
            value.checked_neg().ok_or(SolveError::ScoreOverflow)?
        };
        self.margin()?
            .checked_add(value)
            .ok_or(SolveError::ScoreOverflow)
    }

    /// The tally after the player to move plays a move that gains `gain` and passes or keeps
    /// the turn.
    pub(crate) fn after(self, gain: Score, turn: Turn) -> Result<Tally, SolveError> {
        let mut points = self.points;
        let mover = usize::from(!self.to_move.is_first());
        points[mover] = points[mover]
            .checked_add(gain)
            .ok_or(SolveError::ScoreOverflow)?;
        Ok(Tally {
            to_move: self.to_move.after(turn),
            points,
            played: self.played + 1,
        })
    }
}

/// Where the moves played have brought the game (`analyze --after`): the players, whose turn
/// it is, the points each has gained, and the final result with perfect play from here and
/// after each move.
pub struct Scene {
    /// The first player's name, then the second's (`Presented::player_name`).
    pub players: [&'static str; 2],
    /// Who moves, and the points so far.
    pub tally: Tally,
    /// The first player's points minus the second's at the end, with perfect play from here.
    pub final_margin: Score,
    /// That result in the game's words (`Presented::final_result`).
    pub result: String,
    /// For each of the position's moves, in their order: the final margin if it is played and
    /// both play perfectly after it.
    pub finals: Vec<Score>,
}

/// A move at the position: its value for the mover, its remoteness where the game has
/// outcomes, whether it is a best move, its words (without the player) and its JSON fields.
pub struct Valued {
    /// Its value for the mover.
    pub value: Score,
    /// Games with outcomes: how many moves the game lasts after it, this move included.
    pub remoteness: Option<Option<u32>>,
    /// Whether it keeps the position's value (and, with outcomes, its remoteness).
    pub best: bool,
    /// The move in words, without the player.
    pub words: String,
    /// The move's name, as `play` and `analyze --after` take it.
    pub name: String,
    /// The points the mover gains with it.
    pub gain: Score,
    /// Whether the mover moves again after it.
    pub keeps_turn: bool,
    /// The move's JSON fields.
    pub fields: Fields,
}

impl Moves {
    /// The moves of a position of a game with outcomes (won, lost, drawn), best first.
    pub fn outcomes(
        game: GameName,
        position: Option<String>,
        (value, remoteness): (Score, Option<u32>),
        view: serde_json::Value,
        moves: Vec<Valued>,
    ) -> Moves {
        Moves {
            game,
            position,
            value,
            remoteness: Some(remoteness),
            outcomes: true,
            board: None,
            view,
            moves,
            scene: None,
            chance: None,
            nimber: None,
        }
    }
}

/// A conformance check's outcome, in the terms the output needs.
pub struct CheckSummary {
    /// The game checked.
    pub game: GameName,
    /// The states the checker reached.
    pub states: usize,
    /// The random games it played out.
    pub playouts: usize,
    /// The values it compared with an independent reference.
    pub values_compared: usize,
    /// What the values were compared with.
    pub reference: &'static str,
    /// Each rule of the contract found broken, in words (none: the game passed).
    pub violations: Vec<String>,
}

impl CheckSummary {
    /// Checks `game` (with its dense index) and adds the findings.
    pub fn add_dense<G>(&mut self, game: &G, options: &CheckOptions) -> Result<(), Failure>
    where
        G: DenseIndex,
        G::State: Eq + Hash + std::fmt::Debug,
        G::Move: PartialEq + std::fmt::Debug,
    {
        self.add_report(&check_dense(game, options))
    }

    /// Adds a report's findings; a check stopped by its limits is an error (one `error:`
    /// line).
    pub fn add_report<G: Game>(&mut self, report: &CheckReport<G>) -> Result<(), Failure>
    where
        G::State: std::fmt::Debug,
        G::Move: std::fmt::Debug,
    {
        if let Some(error) = &report.stopped {
            return Err(error.clone().into());
        }
        self.states += report.states;
        self.playouts += report.playouts;
        self.values_compared += report.values_compared;
        self.violations
            .extend(report.violations.iter().map(ToString::to_string));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{CliError, Failure};
    use std::error::Error as _;

    #[test]
    fn the_command_lines_errors_keep_the_io_error_as_their_source() {
        let missing = std::fs::File::open("/no/such/dir/file").unwrap_err();
        let kind = missing.kind();
        let error = CliError::read("/no/such/dir/file", missing);
        assert_eq!(error.kind(), "io");
        let source = error.source().expect("the io::Error is the source");
        let io = source.downcast_ref::<std::io::Error>().unwrap();
        assert_eq!(io.kind(), kind);
        assert!(
            error
                .to_string()
                .starts_with("cannot read /no/such/dir/file: ")
        );
        let written = CliError::write("out", std::io::Error::other("disk full"));
        assert_eq!(
            (written.kind(), written.to_string().as_str()),
            ("write", "cannot write out: disk full")
        );
        assert!(matches!(
            Failure::from(written),
            Failure::Cli(CliError::Write { .. })
        ));
    }
}
