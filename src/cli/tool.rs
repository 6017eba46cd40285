//! A user's game in the command line: [`FromValues`] (how the game is built from the integers
//! typed after its name) and [`Bundled::game`], which makes the game an entry of the list that
//! [`main_with`](super::main_with) runs, with every command the engines' bundled games have.

use crate::InputError;
use std::fmt::Debug;
use std::hash::Hash;

use crate::game::declaration::{OnChance, OnTiers, visit_chance, visit_index, visit_tiers};
use crate::{DenseIndex, Game, game::declaration::OnIndex};

use super::args::{Cli, SolverName};
use super::model::{CheckSummary, Failure, Report};
use super::present::Presented;
use super::registry::{Bundled, Done, Engine, FastSolver, Reads, Solve, Solves, Task};
use crate::{Limits, Tiered};

/// A game the command line builds from the integers typed after its name (its VALUES, as
/// arguments or with `--input`). A game that declares its dense index is solved, analysed and
/// played by it, and saved and loaded (`--save`, `--load`); one that does not, on hash tables
/// (through [`Solver`](crate::Solver) for a solve), and `--save`/`--load` are refused.
pub trait FromValues: Presented + Sized {
    /// Typical values, as typed (`"20"`, `"3 4 5"`): the example the messages give.
    const EXAMPLE: &'static str;
    /// How a position reads for `analyze --at` and `play --at` (`"N: the counters left"`),
    /// for a game that implements [`Presented::position`]; `None`: the game is analysed and
    /// played from its start only.
    const POSITION: Option<&'static str> = None;
    /// The game of these values, or [`InputError::InvalidGame`] naming what is wrong with them
    /// (the command line prints it and exits with 1).
    fn from_values(values: &[i64]) -> Result<Self, InputError>;
    /// The game started at `position` (a solve's `--at`, in the terms of
    /// [`POSITION`](FromValues::POSITION)), for a game that can start elsewhere than its start.
    /// The default refuses: such a game is solved from its start, and `analyze --at` values a
    /// position's moves.
    fn at_position(self, position: &str) -> Result<Self, InputError> {
        let _ = position;
        Err(InputError::InvalidState(
            "this game is solved from its start: `analyze --at POSITION` values the moves of a \
             position"
                .to_string(),
        ))
    }
}

impl Bundled {
    /// A user's game `G` on the command line as `name` (lower case with dashes, as typed),
    /// described by `about` in `--help`: solved by the engines (`--solver auto`, `engine`,
    /// `parallel`, `alphabeta`), saved and loaded, analysed, played and checked as the
    /// bundled games are.
    pub const fn game<G>(name: &'static str, about: &'static str) -> Bundled
    where
        G: FromValues + Sync,
        G::State: Eq + Hash + Send + Sync + Debug,
        G::Move: Send + PartialEq + Debug,
    {
        Bundled {
            name,
            about,
            solves: Solves::Engine(Engine {
                reads: Reads::Integers {
                    example: G::EXAMPLE,
                },
                with: with::<G>,
                check: check::<G>,
                fast: None,
                tiers: None,
                at: G::POSITION,
            }),
        }
    }

    /// This game (`G`, as [`game`](Bundled::game) made it), declared loopy tiered (its
    /// [`Capabilities`](crate::Capabilities) say `tiers`, `outcome_game` and `may_cycle`):
    /// `--solver tier` runs the loopy tier solver, as `auto` does, and `--solver distributed`
    /// runs it on timely dataflow with `--workers`, `--processes`, `--process` and
    /// `--hostfile` (in a build with the `distributed` feature).
    ///
    /// A tool whose `my-quixo 3 --solver tier` runs the loopy tier solver (the bundled
    /// `quixo` is made so; tests/distributed.rs runs it on timely):
    ///
    /// ```no_run
    /// use gamesolver::cli::Bundled;
    /// use gamesolver::games::Quixo;
    ///
    /// const QUIXO: Bundled =
    ///     Bundled::game::<Quixo>("my-quixo", "Quixo, my way").with_loopy_tiers::<Quixo>();
    ///
    /// fn main() -> std::process::ExitCode {
    ///     gamesolver::cli::main_with(&[&QUIXO])
    /// }
    /// ```
    pub const fn with_loopy_tiers<G>(mut self) -> Bundled
    where
        G: FromValues + Tiered + Send + Sync + 'static,
        G::State: Eq + Hash + Send + Sync + Debug,
        G::Move: Send + PartialEq + Debug,
    {
        if let Solves::Engine(engine) = &mut self.solves {
            engine.tiers = Some(loopy_tiers::<G>);
        }
        self
    }

    /// This game with its specialised solver (`--solver fast`, and `auto`'s pick), which
    /// receives the command line as parsed, the VALUES and the limits left, and gives the
    /// report ([`Report::new`](super::model::Report::new)); Stone Game II and VIII are bundled
    /// with one. A user's game takes the same door: here Countdown (take 1 to 3 counters; who
    /// takes the last wins) by its closed form, the first player wins unless the counters are
    /// a multiple of 4, checked against the engine.
    ///
    /// ```
    /// # use gamesolver::{Capabilities, Declares, DenseIndex, Game, InputError, Score, Step, Turn};
    /// use gamesolver::cli::args::Cli;
    /// use gamesolver::cli::model::{Answer, Failure, Report};
    /// use gamesolver::cli::{Bundled, FromValues, Presented, run_json};
    /// # #[derive(Debug)] struct Countdown { counters: u32 }
    /// # impl Game for Countdown {
    /// #     type State = u32; type Move = u32;
    /// #     fn start(&self) -> u32 { self.counters }
    /// #     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> { (1..=3).filter(move |t| t <= left) }
    /// #     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
    /// #         Step { next: left - take, gain: 0, turn: Turn::Pass } }
    /// #     fn payoff(&self, _: &u32) -> Score { -1 }
    /// #     fn capabilities(&self) -> impl Declares<Self> {
    /// #         Capabilities::none().dense_index().outcome_game() }
    /// # }
    /// # impl DenseIndex for Countdown {
    /// #     fn index_len(&self) -> usize { self.counters as usize + 1 }
    /// #     fn index(&self, left: &u32) -> usize { *left as usize }
    /// # }
    /// # impl Presented for Countdown {
    /// #     fn show(&self, left: &u32) -> String { format!("{left} counters left") }
    /// #     fn move_name(&self, _: &u32, take: &u32) -> String { take.to_string() }
    /// # }
    /// # impl FromValues for Countdown {
    /// #     const EXAMPLE: &'static str = "20";
    /// #     fn from_values(values: &[i64]) -> Result<Self, InputError> {
    /// #         match *values {
    /// #             [counters @ 0..=1_000_000] => Ok(Countdown { counters: counters as u32 }),
    /// #             _ => Err(InputError::InvalidGame("give one number of counters".into())),
    /// #         }
    /// #     }
    /// # }
    /// /// Countdown by its closed form: no line, and the report says why.
    /// fn closed_form(cli: &Cli, values: Vec<i64>, _: gamesolver::Limits) -> Result<Report, Failure> {
    ///     let game = Countdown::from_values(&values)?;
    ///     let value = if game.counters % 4 == 0 { -1 } else { 1 };
    ///     Ok(Report {
    ///         n: values.len(),
    ///         notes: vec!["the closed form gives no line: --solver engine plays it".into()],
    ///         withheld: true,
    ///         ..Report::new(cli.game, game.answer(value), value, game.headline(value), "fast")
    ///     })
    /// }
    ///
    /// const COUNTDOWN: Bundled =
    ///     Bundled::game::<Countdown>("countdown", "Take 1 to 3 counters").with_fast(closed_form);
    ///
    /// for counters in ["0", "5", "8", "11", "40"] {
    ///     let fast = run_json(&[&COUNTDOWN], ["countdown", counters]).unwrap();
    ///     let engine = run_json(&[&COUNTDOWN], ["countdown", counters, "--solver", "engine"]).unwrap();
    ///     let field = |json: &str, key: &str| {
    ///         let json: gamesolver::cli::serde_json::Value = json.parse().unwrap();
    ///         json[key].clone()
    ///     };
    ///     assert_eq!(field(&fast, "solver"), "fast");
    ///     assert_eq!(field(&engine, "solver"), "engine");
    ///     assert_eq!(field(&fast, "answer"), field(&engine, "answer"), "{counters} counters");
    ///     assert_eq!(field(&fast, "value"), field(&engine, "value"));
    /// }
    /// ```
    pub const fn with_fast(mut self, fast: FastSolver) -> Bundled {
        if let Solves::Engine(engine) = &mut self.solves {
            engine.fast = Some(fast);
        }
        self
    }

    /// This game, which reads no VALUES (it has one start: tic-tac-toe).
    pub const fn without_values(mut self) -> Bundled {
        if let Solves::Engine(engine) = &mut self.solves {
            engine.reads = Reads::Nothing;
        }
        self
    }
}

/// Builds `G` from `values` and solves it by the loopy tier solver: on timely with
/// `--solver distributed`, else through [`Solver`](crate::Solver) as `auto` does.
fn loopy_tiers<G>(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure>
where
    G: FromValues + Tiered + Send + Sync + 'static,
    G::State: Eq + Hash + Send + Sync + Debug,
    G::Move: Send + PartialEq + Debug,
{
    let game = G::from_values(&values)?;
    let n = values.len();
    if cli.solver == SolverName::Distributed {
        #[cfg(feature = "distributed")]
        return super::loopy_cluster::loopy_report(cli, game, &values, limits);
        #[cfg(not(feature = "distributed"))]
        return super::solve::distributed_report(cli, game, (n, &values), limits);
    }
    Task::Solve(Solve { cli, n, limits })
        .with(&game)
        .map(Done::report)
}

/// Builds `G` from `values` and does `task` with it.
fn with<G>(values: Vec<i64>, task: Task<'_>) -> Result<Done, Failure>
where
    G: FromValues + Sync,
    G::State: Eq + Hash + Send + Sync + Debug,
    G::Move: Send + PartialEq + Debug,
{
    let game = G::from_values(&values)?;
    let position = match &task {
        Task::Solve(solve) => solve.cli.at.as_deref(),
        _ => None,
    };
    match position {
        Some(position) => {
            task.with(&game.at_position(super::args::strip_protection(position).trim())?)
        }
        None => task.with(&game),
    }
}

/// Builds `G` from `values` and runs the conformance checker on it (with its dense index's
/// checks where it declares one).
fn check<G>(
    values: Vec<i64>,
    options: &crate::check::CheckOptions,
    summary: &mut CheckSummary,
) -> Result<(), Failure>
where
    G: FromValues,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let game = G::from_values(&values)?;
    let declared = game.capabilities();
    // A game that declares its play may cycle is checked as such (no line may return to a
    // state, else).
    let options = &crate::check::CheckOptions {
        cyclic: options.cyclic || crate::Declares::may_cycle(&declared),
        ..options.clone()
    };
    let checking = Checking {
        game: &game,
        options,
        summary,
    };
    if crate::game::declaration::declares_chance(&declared) {
        return visit_chance(&declared, checking);
    }
    if crate::game::declaration::declares_impartial(&declared) {
        return crate::game::declaration::visit_impartial(&declared, checking);
    }
    visit_index(&declared, checking)
}

/// An impartial game: the game's checks (and its dense index's), then the impartial ones
/// ([`check_impartial`](crate::check::check_impartial)).
impl<G> crate::game::declaration::OnImpartial<G> for Checking<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    type Output = Result<(), Failure>;

    fn declared(self) -> Self::Output
    where
        G: crate::game::Impartial,
    {
        let Checking {
            game,
            options,
            summary,
        } = self;
        let plain = Checking {
            game,
            options,
            summary: &mut *summary,
        };
        visit_index(&game.capabilities(), plain)?;
        summary.reference = "a mex over the literal moves, never split";
        summary.add_report(&crate::check::check_impartial(game, options))
    }

    fn undeclared(self) -> Self::Output {
        self.summary
            .add_report(&crate::check::check(self.game, self.options))
    }
}

/// A game with chance: the chance checks ([`check_chance`](crate::check::check_chance)).
impl<G> OnChance<G> for Checking<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    type Output = Result<(), Failure>;

    fn declared(self) -> Self::Output
    where
        G: crate::game::Chance,
    {
        let options = crate::check::CheckOptions {
            cyclic: crate::Declares::may_cycle(&self.game.capabilities()),
            ..self.options.clone()
        };
        self.summary.reference = "a plain expectimax in fractions";
        self.summary
            .add_report(&crate::check::check_chance(self.game, &options))
    }

    fn undeclared(self) -> Self::Output {
        self.summary
            .add_report(&crate::check::check(self.game, self.options))
    }
}

/// A check under way: the checks of a dense index where the game declares one.
struct Checking<'a, G> {
    game: &'a G,
    options: &'a crate::check::CheckOptions,
    summary: &'a mut CheckSummary,
}

impl<G> OnIndex<G> for Checking<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    type Output = Result<(), Failure>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        self.summary.add_dense(self.game, self.options)
    }

    fn undeclared(self) -> Self::Output {
        visit_tiers(&self.game.capabilities(), self)
    }
}

/// The most reachable states whose outcomes `check` compares with value iteration.
const OUTCOMES_COMPARED: usize = 1 << 20;

/// A game with no dense index: the tier contract where it declares tiers
/// ([`check_tiers`](crate::check::check_tiers)), and, for an outcome game whose play may cycle,
/// every reachable state's outcome and remoteness against value iteration over the literal
/// moves ([`check_outcome`](crate::check::check_outcome)).
impl<G> OnTiers<G> for Checking<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    type Output = Result<(), Failure>;

    fn declared(self) -> Self::Output
    where
        G: crate::Tiered,
    {
        let options = self.walk_options();
        let report = crate::check::check_tiers(self.game, &options);
        self.compared(&options, report)
    }

    fn undeclared(self) -> Self::Output {
        let options = self.walk_options();
        let report = crate::check::check(self.game, &options);
        self.compared(&options, report)
    }
}

impl<G> Checking<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    /// Whether the game is an outcome game whose play may cycle.
    fn outcome_cycles(&self) -> bool {
        let declared = self.game.capabilities();
        crate::Declares::outcome_game(&declared) && crate::Declares::may_cycle(&declared)
    }

    /// The options of the walk: an outcome game's rules (no gain, payoffs −1 to 1) where the
    /// game is one whose play may cycle.
    fn walk_options(&self) -> crate::check::CheckOptions {
        if self.outcome_cycles() {
            crate::check::outcome_options(self.options)
        } else {
            self.options.clone()
        }
    }

    /// The walk's `report`, and for an outcome game whose play may cycle, every reachable
    /// state's outcome and remoteness against value iteration (up to [`OUTCOMES_COMPARED`]
    /// states; the walk's own limit, `max_states`, is for the rules' checks).
    fn compared(
        self,
        options: &crate::check::CheckOptions,
        mut report: crate::check::CheckReport<G>,
    ) -> Result<(), Failure> {
        if self.outcome_cycles() {
            let options = crate::check::CheckOptions {
                max_states: options.max_states.max(OUTCOMES_COMPARED),
                ..options.clone()
            };
            crate::check::compare_outcomes(self.game, &options, &mut report);
            self.summary.reference = "value iteration over the literal moves";
        }
        self.summary.add_report(&report)
    }
}
