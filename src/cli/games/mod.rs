//! The bundled games as the command line knows them. Each game describes itself in its own file
//! of this folder (its name, what its VALUES are, how it is built from them and checked, its
//! positions, how its answers and moves read: a [`Bundled`] constant named `GAME`, and the
//! game's [`Presented`](super::present::Presented) impl), and is registered by one line in the
//! list below. Nothing else in the command line names a game.

use std::hash::Hash;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use gamesolver::DenseIndex;
use gamesolver::check::CheckOptions;

use super::analyze::{Analyze, Moves};
use super::args::{AnalyzeArgs, Cli, PlayArgs};
use super::play::Play;
use super::present::Presented;
use super::run::{CheckSummary, Failure, Report, Saved, Solve};

/// Declares each game's file as a module and lists its [`Bundled`] constant, in the order the
/// help shows them: adding a game to the command line is its file and its name here.
macro_rules! bundled {
    ($($file:ident),* $(,)?) => {
        $(pub mod $file;)*
        /// Every bundled game.
        pub const GAMES: &[&Bundled] = &[$(&$file::GAME),*];
    };
}

bundled! {
    stone_game,
    stone_game_ii,
    stone_game_iii,
    stone_game_vii,
    stone_game_viii,
    nim,
    tic_tac_toe,
    dots_and_boxes,
    connect_four,
    cat_and_mouse,
    cat_and_mouse_ii,
}

mod chase;

/// A bundled game, as the command line knows it.
pub struct Bundled {
    /// Its name on the command line (`stone-game-ii`).
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    /// How it is solved.
    pub solves: Solves,
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

/// A game's specialised solver: from the command line, the values and the limits left, the
/// report.
pub type FastSolver = fn(&Cli, Vec<i64>, gamesolver::Limits) -> Result<Report, Failure>;

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
    /// Values every move at a position (`analyze`); `None`: its solve's own report does, with
    /// `--analyze` (Connect Four).
    pub analyze: Option<Analyzer>,
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
    /// Does the task with `game`.
    pub fn with<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        match self {
            Task::Solve(solve) => solve
                .with(game)
                .map(|report| Done::Report(Box::new(report))),
            Task::Saved(saved) => saved
                .with(game)
                .map(|report| Done::Report(Box::new(report))),
            Task::Analyze(analyze) => analyze.with(game).map(Done::Moves),
            Task::Play(play) => play.with(game).map(|()| Done::Played),
        }
    }

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
    pub fn report(self) -> Report {
        match self {
            Done::Report(report) => *report,
            _ => unreachable!("a solve gives a report"),
        }
    }

    /// The moves of an analysis.
    pub fn moves(self) -> Moves {
        match self {
            Done::Moves(moves) => moves,
            _ => unreachable!("an analysis gives moves"),
        }
    }

    /// A game played.
    pub fn played(self) {
        debug_assert!(matches!(self, Done::Played), "play gives a game played");
    }
}

/// A bundled game, named on the command line.
#[derive(Clone, Copy)]
pub struct GameName(&'static Bundled);

impl GameName {
    /// The game called `name`, if one is.
    pub fn named(name: &str) -> Option<GameName> {
        GAMES
            .iter()
            .find(|game| game.name == name)
            .map(|game| GameName(game))
    }

    /// The name as typed on the command line.
    pub fn id(self) -> &'static str {
        self.0.name
    }

    /// How the engines solve it, unless it has its own path.
    pub fn engine(self) -> Option<&'static Engine> {
        match &self.0.solves {
            Solves::Engine(engine) => Some(engine),
            Solves::Own(_) => None,
        }
    }

    /// Its own path, if it reads and solves by one (Connect Four).
    pub fn own(self) -> Option<&'static Own> {
        match &self.0.solves {
            Solves::Own(own) => Some(own),
            Solves::Engine(_) => None,
        }
    }
}

impl PartialEq for GameName {
    fn eq(&self, other: &GameName) -> bool {
        self.id() == other.id()
    }
}

impl Eq for GameName {}

impl std::fmt::Debug for GameName {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.id())
    }
}

/// clap's parser for a game's name: the possible values (with their help) are the bundled
/// games, so that a wrong name gets clap's list and its "a similar value exists".
pub fn parser() -> impl TypedValueParser<Value = GameName> {
    let names = GAMES
        .iter()
        .map(|game| PossibleValue::new(game.name).help(game.about));
    PossibleValuesParser::new(names)
        .map(|name| GameName::named(&name).expect("clap accepts only a bundled game's name"))
}

/// The names of the games whose way of being solved passes `test`, joined by `separator`, for
/// messages ("applies only to connect-four", "only stone-game-ii and stone-game-viii do").
pub fn names_where(test: impl Fn(&Solves) -> bool, separator: &str) -> String {
    let names: Vec<&str> = GAMES
        .iter()
        .filter(|game| test(&game.solves))
        .map(|game| game.name)
        .collect();
    names.join(separator)
}

/// The names of the games that take the board options (Connect Four).
pub fn board_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Own(own) if own.board),
        " and ",
    )
}

/// The names of the games that take `analyze --at`.
pub fn at_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Engine(engine) if engine.at.is_some()),
        ", ",
    )
}

/// The names of the games with a specialised solver.
pub fn specialised_names() -> String {
    names_where(
        |solves| matches!(solves, Solves::Engine(engine) if engine.fast.is_some()),
        " and ",
    )
}

/// The games the tier solver solves, for messages ("dots-and-boxes").
pub fn tier_names() -> String {
    names_where(
        |solves| match solves {
            Solves::Engine(engine) => engine.tiers.is_some(),
            Solves::Own(own) => own.tiers,
        },
        " and ",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for game in GAMES {
            assert_eq!(
                GameName::named(game.name).map(GameName::id),
                Some(game.name)
            );
            let same = GAMES.iter().filter(|other| other.name == game.name).count();
            assert_eq!(same, 1, "{} is listed once", game.name);
        }
        assert!(GameName::named("chess").is_none());
    }
}
