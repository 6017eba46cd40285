//! The library's errors, one type per layer: [`SolveError`] for the engines, [`InputError`] for
//! the games and the input parsers, and [`Error`], either of them, for code that does both.

use std::fmt;

/// Everything the library can reject: the input or the game's parameters ([`InputError`]), or
/// the solve ([`SolveError`]). Both convert into it with `?`, so one function can read its
/// input and solve it.
///
/// ```
/// use gamesolver::{games::StoneGameII, Error, InputError, Score, Solved, Solver};
/// // Alice's stones minus Bob's under perfect play.
/// fn margin(piles: Vec<i64>) -> Result<Score, Error> {
///     let game = StoneGameII::new(piles)?; // an InputError
///     Ok(Solver::new(&game).solve()?.value()) // a SolveError
/// }
/// assert_eq!(margin(vec![2, 7, 9, 4, 4]), Ok(-6)); // Alice 10, Bob 16
/// assert!(matches!(margin(vec![]), Err(Error::Input(InputError::TooFew { .. }))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input, or the game's parameters, were rejected.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The solve was rejected or stopped.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl Error {
    /// A short, stable name for the kind of error, for programs that read it (the CLI's
    /// `--json` errors carry it as `"kind"`): the kind of the input or solve error it holds.
    ///
    /// ```
    /// use gamesolver::{Error, InputError, SolveError};
    /// assert_eq!(Error::from(SolveError::ScoreOverflow).kind(), "score-overflow");
    /// assert_eq!(Error::from(InputError::InvalidState("no such pile".into())).kind(), "invalid-state");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Input(error) => error.kind(),
            Error::Solve(error) => error.kind(),
        }
    }

    /// A duration as a person says it: `40 s`, `12 minutes`, `6.2 hours`, `3.1 days`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamesolver::Error;
    /// assert_eq!(Error::duration_in_words(Duration::from_secs(22_400)), "6.2 hours");
    /// assert_eq!(Error::duration_in_words(Duration::from_secs(40)), "40 s");
    /// ```
    pub fn duration_in_words(duration: std::time::Duration) -> String {
        let seconds = duration.as_secs_f64();
        if seconds < 90.0 {
            format!("{seconds:.0} s")
        } else if seconds < 5400.0 {
            format!("{:.0} minutes", seconds / 60.0)
        } else if seconds < 172_800.0 {
            format!("{:.1} hours", seconds / 3600.0)
        } else {
            format!("{:.1} days", seconds / 86_400.0)
        }
    }
}

/// What the games and the input parsers reject, each variant carrying the rejected input: the
/// games' constructors and state parsers, and [`input`](crate::input)'s readers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// Too few values for the game (an empty list, or one stone for Stone Game VIII).
    #[error("{game} needs at least {needed} {unit}, got {got}")]
    TooFew {
        /// The game's name.
        game: &'static str,
        /// What the values are called ("piles", "stones").
        unit: &'static str,
        /// The least number of values the game accepts.
        needed: usize,
        /// How many were given.
        got: usize,
    },
    /// More values than the game's state representation can hold.
    #[error("{game} accepts at most {max} {unit}, got {got}")]
    TooMany {
        /// The game's name.
        game: &'static str,
        /// What the values are called.
        unit: &'static str,
        /// The most values the game accepts.
        max: usize,
        /// How many were given.
        got: usize,
    },
    /// A value breaks the game's rules (a pile that is not positive).
    #[error("{unit} {position} is {value}, but {rule}")]
    OutOfRange {
        /// What the values are called, in the singular ("pile", "stone").
        unit: &'static str,
        /// The value's position, counted from 1.
        position: usize,
        /// The rejected value.
        value: i64,
        /// The rule it breaks ("piles must be positive").
        rule: &'static str,
    },
    /// A total the solve needs does not fit a 64-bit signed integer.
    #[error("{what} overflows a 64-bit integer (reached at {unit} {position})")]
    TotalOverflow {
        /// Which total overflowed.
        what: &'static str,
        /// What the values are called, in the singular.
        unit: &'static str,
        /// The position, counted from 1, at which the running total left the range.
        position: usize,
    },
    /// A token that is not an integer, or input that is not well formed.
    #[error("cannot read {token:?} ({location}): {problem}")]
    Parse {
        /// The offending text (shortened if very long).
        token: String,
        /// Where it stands.
        location: Location,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// Game parameters that do not make a game (a board too large, say).
    #[error("{0}")]
    InvalidGame(String),
    /// A move that cannot be played where it stands in a given line of play (any game whose
    /// positions are written as the moves that reach them).
    #[error("move {number} ({written}): {problem}")]
    IllegalMove {
        /// The move's number in the line, counted from 1.
        number: usize,
        /// The move as the game names it ("column 4" for Connect Four).
        written: String,
        /// Why it cannot be played.
        problem: String,
    },
    /// A state that the game does not have, as written by a caller (a pile past the last, an
    /// M below 1).
    #[error("invalid state: {0}")]
    InvalidState(String),
}

impl InputError {
    /// A short, stable name for the kind of error, for programs that read it (the CLI's
    /// `--json` errors carry it as `"kind"`).
    ///
    /// ```
    /// use gamesolver::InputError;
    /// assert_eq!(InputError::InvalidState("no such pile".into()).kind(), "invalid-state");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::TooFew { .. } => "too-few",
            InputError::TooMany { .. } => "too-many",
            InputError::OutOfRange { .. } => "out-of-range",
            InputError::TotalOverflow { .. } => "total-overflow",
            InputError::Parse { .. } => "parse",
            InputError::InvalidGame(_) => "invalid-game",
            InputError::IllegalMove { .. } => "illegal-move",
            InputError::InvalidState(_) => "invalid-state",
        }
    }
}

/// What the engines reject or stop with: the memory budget, the time limit, a stop, a score
/// that overflows, a cycle, a declaration they cannot use, or a game that breaks its own
/// declarations. Every engine, [`Solver`](crate::Solver) and the memo tables return it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The solve would need more memory than its budget allows.
    #[error(
        "{what} needs about {}; use a smaller input or raise the budget",
        over_budget(*needed, *budget)
    )]
    MemoryBudget {
        /// What needs the memory ("the memo table for 12 345 678 states").
        what: String,
        /// Bytes needed (an estimate).
        needed: u64,
        /// Bytes allowed.
        budget: u64,
    },
    /// The system refused memory the solve asked for within its budget (a process or container
    /// memory cap below the budget, say).
    #[error(
        "could not allocate {} for {what}: the system refused the memory (is the process under a \
         memory cap? lower --memory-limit to fit it)",
        Bytes(*bytes)
    )]
    Allocation {
        /// What the memory was for.
        what: String,
        /// How many bytes were asked for.
        bytes: u64,
    },
    /// The worker threads could not be started (the system's limit on threads or memory).
    #[error("could not start {threads} threads: {message}; use fewer threads")]
    ThreadStart {
        /// How many threads were asked for.
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// The solve reached its time limit ([`Limits::time_limit`](crate::Limits)).
    #[error(
        "the solve reached its time limit of {} with {progress}; raise the limit or use a \
         smaller input",
        seconds(*limit)
    )]
    TimeLimit {
        /// The limit.
        limit: std::time::Duration,
        /// How far the search got.
        progress: String,
    },
    /// The search was stopped because another search had already found the value (a parallel
    /// helper); [`par_solve`](crate::engines::exhaustive::par_solve) never returns it.
    #[error("the search was cancelled")]
    Cancelled,
    /// The solve was asked to stop through its [`Progress`](crate::Progress)
    /// ([`Progress::stop`](crate::Progress::stop): Ctrl-C in Python).
    #[error("the solve was stopped")]
    Stopped,
    /// The distributed tier solver could not start or run its workers (timely dataflow's
    /// configuration or communication: a bad `-n`/`-p`/`-h`, a peer that cannot be reached).
    #[error("the distributed solve failed: {0}")]
    Distributed(String),
    /// A score left the range `-i64::MAX ..= i64::MAX` during the search.
    #[error(
        "a score overflowed a 64-bit integer during the search (the game's points are too large)"
    )]
    ScoreOverflow,
    /// A line of play returned to a state on it: the exhaustive and pruning engines need a
    /// game without cycles.
    #[error(
        "the game has a cycle of {length} moves: a line of play returns to a state {length} \
         moves later (first reached at depth {depth}{}); the exhaustive and pruning engines \
         need a game without cycles (an outcome game whose play may cycle declares so, \
         Capabilities::outcome_game().may_cycle(), and is solved by retrograde analysis)",
        state.as_ref().map_or_else(String::new, |states| format!("; the cycle: {states}"))
    )]
    Cycle {
        /// The depth (moves from the root of the search) at which the state was first reached.
        depth: usize,
        /// The cycle's own length: how many moves later the line returns to the state.
        length: usize,
        /// The cycle's states, from the state the line returns to round to it again (the first
        /// eight, then `…`), joined by ` → `, as [`Game::state_text`](crate::Game::state_text)
        /// shows them; `None` if the game does not describe its states.
        state: Option<String>,
    },
    /// A tier file (`--save`, `--resume`, `--load`), or a journal of parts' nimbers
    /// ([`Journal`](crate::engines::nimbers::Journal)), that cannot be written or read, or that
    /// is damaged or belongs to another game.
    #[error("{path}: {problem}")]
    TierFile {
        /// The file.
        path: String,
        /// What is wrong, in words.
        problem: String,
    },
    /// The engine asked of [`Solver`](crate::Solver) cannot solve this game as it is declared
    /// (the message names the missing declaration).
    #[error("{0}")]
    Unsupported(String),
    /// A question a solution cannot answer (the value of a state in a tier the tier solver did
    /// not keep, or of a state retrograde analysis did not reach); the message says why.
    #[error("{0}")]
    Unanswerable(String),
    /// The game breaks what it declares (a move that leaves an ordered index's order, a tier
    /// that does not hold its moves' states, a gain in a game declared an outcome game); the
    /// message says which declaration and where.
    #[error("{0}")]
    InvalidGame(String),
    /// A state that the game or the solution does not have (asked about by a caller: a state
    /// past the dense index, a position the solve did not reach).
    #[error("invalid state: {0}")]
    InvalidState(String),
}

impl SolveError {
    /// A short, stable name for the kind of error, for programs that read it (the CLI's
    /// `--json` errors carry it as `"kind"`).
    ///
    /// ```
    /// use gamesolver::SolveError;
    /// assert_eq!(SolveError::ScoreOverflow.kind(), "score-overflow");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            SolveError::MemoryBudget { .. } => "memory-budget",
            SolveError::Allocation { .. } => "allocation",
            SolveError::ThreadStart { .. } => "thread-start",
            SolveError::TimeLimit { .. } => "time-limit",
            SolveError::Cancelled => "cancelled",
            SolveError::Stopped => "stopped",
            SolveError::Distributed(_) => "distributed",
            SolveError::ScoreOverflow => "score-overflow",
            SolveError::Cycle { .. } => "cycle",
            SolveError::TierFile { .. } => "tier-file",
            SolveError::Unsupported(_) => "unsupported",
            SolveError::Unanswerable(_) => "unanswerable",
            SolveError::InvalidGame(_) => "invalid-game",
            SolveError::InvalidState(_) => "invalid-state",
        }
    }
}

/// Where a token stands in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The value's position in the whole input, counted from 1.
    pub value: usize,
    /// Where in the text: a command-line argument or a line of a file.
    pub place: Place,
    /// The column (in bytes) of the token's first character, counted from 1.
    pub column: usize,
}

/// The part of the input a token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A command-line argument, counted from 1 among the values' arguments.
    Argument(usize),
    /// A line of a command-line argument that spans several lines, both counted from 1.
    ArgumentLine {
        /// The argument.
        argument: usize,
        /// The line within it.
        line: usize,
    },
    /// A line of a file or of standard input, counted from 1.
    Line(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Place::Argument(argument) => write!(
                f,
                "value {}, argument {argument}, column {}",
                self.value, self.column
            ),
            Place::ArgumentLine { argument, line } => write!(
                f,
                "value {}, argument {argument}, line {line}, column {}",
                self.value, self.column
            ),
            Place::Line(line) => write!(
                f,
                "value {}, line {line}, column {}",
                self.value, self.column
            ),
        }
    }
}

/// A duration in seconds, as typed (`10 s`, `0.5 s`).
pub(crate) fn seconds(limit: std::time::Duration) -> String {
    format!("{} s", limit.as_secs_f64())
}

/// "2.0 GiB but the memory budget is 1.5 GiB", with exact byte counts where the rounded sizes
/// would read alike.
fn over_budget(needed: u64, budget: u64) -> String {
    let (shown_needed, shown_budget) = (Bytes(needed).to_string(), Bytes(budget).to_string());
    if shown_needed == shown_budget {
        format!(
            "{shown_needed} ({needed} bytes) but the memory budget is {shown_budget} ({budget} bytes)"
        )
    } else {
        format!("{shown_needed} but the memory budget is {shown_budget}")
    }
}

/// A byte count that prints in binary units (`1.5 GiB`).
///
/// ```
/// use gamesolver::{error::Bytes, SolveError};
/// assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
/// // A refusal shows exact counts where the rounded sizes would read alike.
/// let refusal = SolveError::MemoryBudget { what: "a table".into(), needed: (2 << 30) + 256, budget: 2 << 30 };
/// assert!(refusal.to_string().contains("2.0 GiB (2147483904 bytes) but the memory budget is 2.0 GiB (2147483648 bytes)"));
/// assert_eq!(Bytes(12).to_string(), "12 B");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut unit = 0;
        let mut size = self.0 as f64;
        while size >= 1024.0 && unit + 1 < UNITS.len() {
            size /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{size:.1} {}", UNITS[unit])
        }
    }
}
