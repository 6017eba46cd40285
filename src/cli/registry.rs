//! The registry: what a bundled game is to the command line ([`Bundled`]: its name, how it
//! reads its values, how each command reaches it) and what a command asks of a game
//! ([`Task`], [`Done`]). It stands on the model and the arguments only: the list of games
//! (`cli::games`) is installed into it once, at the start, by `main`, and the commands find a
//! game through it by name, so that no command imports a game.
//!
//! A [`Task`] is a command's request; its one generic step, `Task::with`, is written in
//! `cli::dispatch`, above the commands, which it calls (Rust lets an inherent impl live in any
//! module of the crate), so that the registry needs no command.

use std::sync::OnceLock;

use crate::Limits;
use crate::check::CheckOptions;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser, ValueParserFactory};

use super::args::{AnalyzeArgs, Cli, PlayArgs};
use super::model::{CheckSummary, Failure, GameName, Moves, Report};

/// The bundled games, in the order the help shows them (installed by [`install`]).
static GAMES: OnceLock<&'static [&'static Bundled]> = OnceLock::new();

/// Installs the list of bundled games; the first list installed stays (a later call, as from
/// tests that each install the same list, changes nothing).
pub(crate) fn install(games: &'static [&'static Bundled]) {
    let _ = GAMES.set(games);
}

/// The bundled games (none before [`install`]).
pub(crate) fn games() -> &'static [&'static Bundled] {
    GAMES.get().copied().unwrap_or(&[])
}

/// A game as the command line knows it: its name, one line about it, and how it is read and
/// solved. A user's game is made one by [`Bundled::game`].
pub struct Bundled {
    /// Its name on the command line (`stone-game-ii`).
    pub(crate) name: &'static str,
    /// One line for `--help`.
    pub(crate) about: &'static str,
    /// How it is solved.
    pub(crate) solves: Solves,
}

impl Bundled {
    /// The game called `name` on the command line, described by `about` (one line, as
    /// `--help` lists it), solved as `solves` says: the whole form, for a game that needs more
    /// than [`Bundled::game`] builds (a model for solving and another for showing, a tier
    /// solver of its own, or its own path). Most games use [`Bundled::game`].
    pub const fn new(name: &'static str, about: &'static str, solves: Solves) -> Bundled {
        Bundled {
            name,
            about,
            solves,
        }
    }

    /// Its name on the command line.
    ///
    /// ```
    /// let names: Vec<&str> = gamesolver::games::BUNDLED.iter().map(|game| game.name()).collect();
    /// assert!(names.contains(&"stone-game-ii") && names.contains(&"connect-four"));
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What it is and what its answer says, in one line (as `--help` lists it).
    pub fn about(&self) -> &'static str {
        self.about
    }
}

/// How a bundled game is solved.
pub enum Solves {
    /// By the engines, from integer VALUES (or none).
    Engine(Engine),
    /// By its own path, which reads its own arguments (Connect Four: the columns played, the
    /// board options `--width`/`--height`, `--analyze` and `--batch`).
    Own(Own),
}

/// A game the engines solve from its VALUES.
pub struct Engine {
    /// What its VALUES are.
    pub reads: Reads,
    /// Builds the game from its values and hands it to the task (solve, `--save`/`--load`,
    /// `analyze`, `play`).
    pub with: fn(Vec<i64>, Task<'_>) -> Result<Done, Failure>,
    /// Builds the game from its values and runs the conformance checker on it.
    pub check: fn(Vec<i64>, &CheckOptions, &mut CheckSummary) -> Result<(), Failure>,
    /// Its specialised solver, if it has one (`--solver fast`, and `auto`'s pick).
    pub fast: Option<FastSolver>,
    /// Its tier solver, if the game is layered into tiers (`--solver tier`, and `auto`'s pick).
    pub tiers: Option<FastSolver>,
    /// `analyze --at`'s position in the game's terms (as `'PILE,M'`), if it takes one.
    pub at: Option<&'static str>,
}

/// A game's own `analyze`: from its arguments, every move of the position.
pub type Analyzer = fn(&AnalyzeArgs) -> Result<Moves, Failure>;

/// A game's `--batch`: one position per line of the file, a line per position to the output;
/// `Ok(false)` if some line was refused (each refusal named on stderr).
pub type Batch = fn(&Cli, &mut dyn std::io::Write) -> Result<bool, Failure>;

/// A game's specialised solver: from the command line, the values and the limits left, the
/// report.
pub type FastSolver = fn(&Cli, Vec<i64>, crate::Limits) -> Result<Report, Failure>;

/// What a game's VALUES are.
pub enum Reads {
    /// Integers, given as arguments or with `--input`; `example` is typical values.
    Integers {
        /// Typical values, as typed (`3 4 5`).
        example: &'static str,
    },
    /// None: the game has one start (tic-tac-toe).
    Nothing,
}

/// A game that reads its own arguments and solves, checks and analyzes by its own path.
pub struct Own {
    /// Solves one position (`--analyze` included).
    pub solve: fn(&Cli) -> Result<Report, Failure>,
    /// Runs the conformance checker.
    pub check: fn(&Cli, &CheckOptions, &mut CheckSummary) -> Result<(), Failure>,
    /// Plays against a person (`play`).
    pub play: fn(&PlayArgs) -> Result<(), Failure>,
    /// Values every move at a position (`analyze`), in the shape every game's analysis has.
    pub analyze: Analyzer,
    /// A typical VALUE, quick to solve (the page's link to the game; read by `serve` alone).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub example: &'static str,
    /// Solves one position per line of `--batch`'s file, writing a line per position to the
    /// output; `Ok(false)` if some line was refused (each refusal named on stderr).
    pub batch: Option<Batch>,
    /// Its solver, in words (for messages).
    pub solver: &'static str,
    /// Whether it takes the board options (`--width`, `--height`, `--analyze`, `--batch`;
    /// Connect Four) instead of `--input`.
    pub board: bool,
    /// Whether it is layered into tiers (`--solver tier` and `distributed`; Connect Four, on
    /// small boards).
    pub tiers: bool,
}

/// What to do with a bundled game the engine solves.
pub enum Task<'a> {
    /// Solve it with the engine `--solver` names.
    Solve(Solve<'a>),
    /// Solve it on a dense table loaded or saved (`--load`, `--save`).
    Saved(Saved<'a>),
    /// Value every move at a position.
    Analyze(Analyze<'a>),
    /// Play against a person.
    Play(Play<'a>),
}

/// What a [`Task`] gives.
pub enum Done {
    /// A solve's report.
    Report(Box<Report>),
    /// An analysis.
    Moves(Moves),
    /// A game played to its end, or left.
    Played,
}

impl Task<'_> {
    /// Whether the task shows the moves of a position one by one (`analyze`, `play`): a game
    /// with a faster model whose moves are not the problem's own (Stone Game VIII) uses its
    /// literal model for these.
    pub fn shows_moves(&self) -> bool {
        matches!(self, Task::Analyze(_) | Task::Play(_))
    }

    /// Whether the task answers from a table loaded with `--load` (of the model it was saved
    /// for).
    pub fn loads(&self) -> bool {
        match self {
            Task::Saved(saved) => saved.loads(),
            Task::Analyze(analyze) => analyze.loads(),
            Task::Play(play) => play.loads(),
            Task::Solve(_) => false,
        }
    }
}

impl Done {
    /// The report of a solve.
    pub(crate) fn report(self) -> Report {
        match self {
            Done::Report(report) => *report,
            _ => unreachable!("a solve gives a report"),
        }
    }

    /// The moves of an analysis.
    pub(crate) fn moves(self) -> Moves {
        match self {
            Done::Moves(moves) => moves,
            _ => unreachable!("an analysis gives moves"),
        }
    }

    /// A game played.
    pub(crate) fn played(self) {
        debug_assert!(matches!(self, Done::Played), "play gives a game played");
    }
}

/// The names of the games whose way of being solved passes `test`, joined by `separator`, for
/// messages ("applies only to connect-four", "only stone-game-ii and stone-game-viii do").
pub(crate) fn names_where(test: impl Fn(&Solves) -> bool, separator: &str) -> String {
    let names: Vec<&str> = games()
        .iter()
        .filter(|game| test(&game.solves))
        .map(|game| game.name)
        .collect();
    names.join(separator)
}

/// The names of the games that take the board options (Connect Four).
pub(crate) fn board_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Own(own) if own.board),
        " and ",
    )
}

/// The names of the games that take `analyze --at`.
pub(crate) fn at_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Engine(engine) if engine.at.is_some()),
        ", ",
    )
}

/// The names of the games with a specialised solver.
pub(crate) fn specialised_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Engine(engine) if engine.fast.is_some()),
        " and ",
    )
}

/// The games the tier solver solves, for messages ("dots-and-boxes").
pub(crate) fn tier_names() -> String {
    names_where(
        |solves| match solves {
            Solves::Engine(engine) => engine.tiers.is_some(),
            Solves::Own(own) => own.tiers,
        },
        " and ",
    )
}

impl GameName {
    /// The bundled game of this name. Only the registry's parser makes a `GameName`, from a
    /// name it found in the list, so the game is there.
    pub(crate) fn bundled(self) -> &'static Bundled {
        games()
            .iter()
            .find(|game| game.name == self.0)
            .expect("a GameName is parsed from the installed list")
    }

    /// The game called `name`, if one is.
    pub(crate) fn named(name: &str) -> Option<GameName> {
        games()
            .iter()
            .find(|game| game.name == name)
            .map(|game| GameName(game.name))
    }

    /// How the engines solve it, unless it has its own path.
    pub(crate) fn engine(self) -> Option<&'static Engine> {
        match &self.bundled().solves {
            Solves::Engine(engine) => Some(engine),
            Solves::Own(_) => None,
        }
    }

    /// Its own path, if it reads and solves by one (Connect Four).
    pub(crate) fn own(self) -> Option<&'static Own> {
        match &self.bundled().solves {
            Solves::Own(own) => Some(own),
            Solves::Engine(_) => None,
        }
    }
}

/// clap's parser for a game's name: the possible values (with their help) are the bundled
/// games, so that a wrong name gets clap's list and its "a similar value exists".
impl ValueParserFactory for GameName {
    type Parser = clap::builder::MapValueParser<PossibleValuesParser, fn(String) -> GameName>;

    fn value_parser() -> Self::Parser {
        let names = games()
            .iter()
            .map(|game| PossibleValue::new(game.name).help(game.about));
        PossibleValuesParser::new(names).map(|name: String| {
            GameName::named(&name).expect("clap accepts only a bundled game's name")
        })
    }
}

/// Builds the game `name` from `values` and hands it to `task`: the one place a bundled game
/// is built for the engine (solve, `--save`/`--load`, `analyze`, `play`). A game with its own
/// path (Connect Four) is refused with a usage error naming what it takes instead.
pub(crate) fn with_engine_game(
    name: GameName,
    values: Vec<i64>,
    task: Task<'_>,
) -> Result<Done, Failure> {
    match name.engine() {
        Some(engine) => (engine.with)(values, task),
        None => Err(Failure::Usage(format!(
            "{} is solved by its own path: give its position as its VALUE",
            name.id()
        ))),
    }
}

/// The solve: the engine chosen by `--solver`.
pub struct Solve<'a> {
    pub(crate) cli: &'a Cli,
    pub(crate) n: usize,
    pub(crate) limits: Limits,
}
/// The solve with `--save` / `--load`.
pub struct Saved<'a> {
    pub(crate) cli: &'a Cli,
    pub(crate) params: &'a [i64],
    pub(crate) limits: Limits,
}
/// `analyze` as a task on whichever game the command line names.
pub struct Analyze<'a> {
    pub(crate) cli: &'a Cli,
    pub(crate) at: (Option<&'a str>, &'a [i64]),
    /// The moves played from the position (`--after`), by name.
    pub(crate) after: &'a [&'a str],
    pub(crate) limits: Limits,
}
/// `play` as a task on whichever game the command line names.
pub struct Play<'a> {
    pub(crate) args: &'a PlayArgs,
    pub(crate) params: &'a [i64],
    pub(crate) limits: Limits,
}

impl Saved<'_> {
    /// Whether the table comes from `--load`.
    pub fn loads(&self) -> bool {
        self.cli.load.is_some()
    }
}

impl Analyze<'_> {
    /// Whether the table comes from `--load`.
    pub fn loads(&self) -> bool {
        self.cli.load.is_some()
    }
}

impl Play<'_> {
    /// Whether the table comes from a file (then the game must be the model it was saved
    /// for).
    pub fn loads(&self) -> bool {
        self.args.game.load.is_some()
    }
}
