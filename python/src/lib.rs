//! `gamesolver._native`: what the Python package `gamesolver` calls. The package's own Python
//! code (python/gamesolver/) is the interface people use; this module runs the command line's
//! commands in-process, solves and checks games written in Python, and turns Ctrl-C into a
//! stop.

mod game;

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use gamesolver::check::{
    CheckOptions, CheckReport, check, check_chance, check_impartial, check_outcome, check_ranged,
};
use gamesolver::engines::chance::Value;
use gamesolver::game::Probability;
use gamesolver::{Engine, Game, Limits, Player, Solved, Solver, Turn};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use game::{Chancy, ChancyRanged, Id, PyGame, PyMove, Ranged, Shown, Split};

create_exception!(
    _native,
    Refusal,
    PyException,
    "A solve that did not reach its answer: args are (message, kind), kind as in the command \
     line's --json errors. The package raises a fitting exception instead."
);

/// The native stack of the thread a bundled game's command runs on: the command line's main
/// thread has 8 MiB, and the engines keep their deep stacks on the heap.
const STACK: usize = 8 << 20;

/// How often the waiting thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own with the interpreter released, looking for signals
/// every [`POLL`]; on `KeyboardInterrupt` (or any exception a signal handler raises), stops
/// every in-process command through [`gamesolver::cli::run_progress`], waits for `work` to
/// return, and raises the exception.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let finished = &finished;
        let worker = std::thread::Builder::new()
            .name("gamesolver".into())
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let result = work();
                let (done, wake) = finished;
                *done.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
                wake.notify_all();
                result
            })
            .map_err(|error| PyRuntimeError::new_err(format!("cannot start a thread: {error}")))?;
        loop {
            let done = py.detach(|| {
                let (done, wake) = finished;
                let guard = done.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let (guard, _) = wake
                    .wait_timeout_while(guard, POLL, |done| !*done)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                *guard
            });
            if done || worker.is_finished() {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                let progress = gamesolver::cli::run_progress();
                progress.stop();
                let _ = py.detach(|| worker.join());
                progress.resume();
                return Err(interrupt);
            }
        }
        py.detach(|| worker.join())
            .map_err(|_| PyRuntimeError::new_err("the solve panicked (please report it)"))
    })
}

/// Runs one command of the `gamesolver` command line (the arguments after the program's name)
/// with the bundled games, as with `--json`. Returns `(True, json_text, "")`, or
/// `(False, message, kind)` when the command line would have printed an error.
#[pyfunction]
fn run_json(py: Python<'_>, arguments: Vec<String>) -> PyResult<(bool, String, String)> {
    let outcome = interruptible(py, move || {
        gamesolver::cli::run_json(gamesolver::games::BUNDLED, arguments)
    })?;
    Ok(match outcome {
        Ok(json) => (true, json, String::new()),
        Err(refusal) => (false, refusal.message, refusal.kind),
    })
}

/// The bundled games: `(name, about)` in the order `gamesolver --help` lists them.
#[pyfunction]
fn bundled_games() -> Vec<(&'static str, &'static str)> {
    gamesolver::games::BUNDLED
        .iter()
        .map(|game| (game.name(), game.about()))
        .collect()
}

/// A library error (of the input, of the solve, or either) as a [`Refusal`].
fn refusal(error: impl Into<gamesolver::Error>) -> PyErr {
    let error = error.into();
    Refusal::new_err((error.to_string(), error.kind().to_string()))
}

/// The engine named in Python.
fn engine(name: Option<&str>) -> PyResult<Option<Engine>> {
    Ok(Some(match name {
        None | Some("auto") => return Ok(None),
        Some("exhaustive") => Engine::Exhaustive,
        Some("pruning") => Engine::Pruning,
        Some("retrograde") => Engine::Retrograde,
        Some("proof") => Engine::Proof,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unknown engine {other:?}: give \"auto\", \"exhaustive\", \"pruning\", \
                 \"retrograde\" or \"proof\""
            )));
        }
    }))
}

fn engine_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Exhaustive => "exhaustive",
        Engine::Pruning => "pruning",
        Engine::Retrograde => "retrograde",
        Engine::Tiers => "tiers",
        Engine::LoopyTiers => "loopy-tiers",
        Engine::Sweep => "sweep",
        Engine::Nimbers => "nimbers",
        Engine::Proof => "proof",
        _ => "other",
    }
}

/// The limits from Python's options.
fn limits(memory_limit: Option<u64>, time_limit: Option<f64>) -> PyResult<Limits> {
    let mut limits = match memory_limit {
        Some(bytes) => Limits::with_memory_budget(bytes),
        None => Limits::default(),
    };
    if let Some(seconds) = time_limit {
        let limit = Duration::try_from_secs_f64(seconds).map_err(|_| {
            PyValueError::new_err(format!(
                "time_limit must be a number of seconds at least 0, not {seconds}"
            ))
        })?;
        limits = limits.time_limit(limit);
    }
    Ok(limits)
}

/// What `solve_game` was asked for.
struct Asked {
    engine: Option<Engine>,
    limits: Limits,
    line: bool,
    moves: bool,
    remoteness: bool,
}

/// Solves `game` (the game itself, or its ranged form) and describes the result as a dict.
fn solved<'py, G>(
    py: Python<'py>,
    game: &G,
    inner: &PyGame,
    asked: &Asked,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Game<State = Id, Move = PyMove> + Sync,
{
    let mut solver = Solver::new(game).threads(1).limits(asked.limits);
    if let Some(engine) = asked.engine {
        solver = solver.engine(engine);
    }
    if asked.remoteness {
        solver = solver.remoteness();
    }
    let answer = solver.solve();
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    let mut answer = answer.map_err(refusal)?;
    let start = *answer.start();
    let best_move = first_best_move(game, &mut answer, &start);
    let moves = asked.moves.then(|| answer.move_values(&start));
    // An impartial game's nimber, and each move's (the nimber of the position it leaves).
    let nimber = answer.nimber();
    let move_nimbers = match (&moves, nimber) {
        (Some(Ok(moves)), Some(_)) => Some(
            moves
                .iter()
                .map(|mv| answer.nimber_of(&game.play(&start, &mv.mv).next))
                .collect::<Result<Vec<_>, _>>()
                .map_err(refusal)?,
        ),
        _ => None,
    };
    // Remoteness only when asked, from every engine alike: the pruning engine does not
    // measure it, and elsewhere it can cost far more than the solve (it values every move of
    // the states on the winner's fastest lines).
    if asked.remoteness && answer.engine() == Engine::Pruning {
        return Err(Refusal::new_err((
            "the pruning engine does not measure remoteness: leave engine= out, or give \
             engine=\"exhaustive\" or engine=\"retrograde\", for remoteness=True"
                .to_string(),
            "unsupported".to_string(),
        )));
    }
    let remoteness = if asked.remoteness {
        answer.remoteness(&start)
    } else {
        Ok(None)
    };
    // The line: with remoteness, the swift one (its length is the remoteness); else the first
    // optimal move at each state, which values only the moves it follows.
    let line = match (asked.line, asked.remoteness) {
        (false, _) => None,
        (true, true) => Some(match answer.swift_line_within(usize::MAX) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => answer.direct_line(),
            Err(error) => Err(error),
        }),
        (true, false) => Some(answer.direct_line()),
    };
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    let moves = moves.transpose().map_err(refusal)?;
    let best_move = best_move.map_err(refusal)?;
    let result = PyDict::new(py);
    result.set_item("value", answer.value())?;
    result.set_item("nimber", nimber)?;
    result.set_item("best_move", best_move.map(|mv| mv.0))?;
    result.set_item("engine", engine_name(answer.engine()))?;
    // Why that engine (`Plan::reason`): asked for, declared, or the sample's figures.
    result.set_item("why", answer.plan().reason())?;
    result.set_item("start", inner.state(py, start)?)?;
    // Not asked for: `moves` and `best_moves` are None.
    let (listed, best_moves) = match moves {
        Some(moves) => {
            let (listed, best_moves) = (PyList::empty(py), PyList::empty(py));
            let best = moves.iter().map(|mv| mv.value).max();
            for (index, mv) in moves.iter().enumerate() {
                let entry = PyDict::new(py);
                let value = mv.mv.0.bind(py);
                entry.set_item("move", value)?;
                entry.set_item("value", mv.value)?;
                entry.set_item("best", Some(mv.value) == best)?;
                if let Some(nimbers) = &move_nimbers {
                    entry.set_item("nimber", nimbers[index])?;
                }
                if Some(mv.value) == best {
                    best_moves.append(value)?;
                }
                listed.append(entry)?;
            }
            (Some(listed), Some(best_moves))
        }
        None => (None, None),
    };
    result.set_item("moves", listed)?;
    result.set_item("best_moves", best_moves)?;
    if let Some(line) = line {
        let line = line.map_err(refusal)?;
        let plies = PyList::empty(py);
        for ply in &line {
            let entry = PyDict::new(py);
            entry.set_item(
                "player",
                match ply.player {
                    Player::First => "first",
                    Player::Second => "second",
                },
            )?;
            entry.set_item("state", inner.state(py, ply.state)?)?;
            entry.set_item("move", ply.mv.0.bind(py))?;
            entry.set_item("points", ply.gain)?;
            entry.set_item("keeps_turn", ply.turn == Turn::Keep)?;
            entry.set_item("value", ply.value)?;
            plies.append(entry)?;
        }
        result.set_item("line", plies)?;
    } else {
        result.set_item("line", py.None())?;
    }
    result.set_item(
        "outcome",
        answer.outcome().map(|outcome| match outcome {
            gamesolver::engines::retrograde::Outcome::Win => "win",
            gamesolver::engines::retrograde::Outcome::Loss => "loss",
            gamesolver::engines::retrograde::Outcome::Draw => "draw",
        }),
    )?;
    result.set_item("remoteness", remoteness.map_err(refusal)?)?;
    let stats = answer.stats();
    let figures = PyDict::new(py);
    figures.set_item("stored", stats.stored)?;
    figures.set_item("expanded", stats.expanded)?;
    figures.set_item("hits", stats.hits)?;
    figures.set_item("known", stats.known)?;
    figures.set_item("terminal", stats.terminal)?;
    figures.set_item("max_depth", stats.max_depth)?;
    figures.set_item("seconds", stats.elapsed.as_secs_f64())?;
    result.set_item("stats", figures)?;
    Ok(result)
}

/// A value of a game with chance in Python: a `fractions.Fraction` where it is exact, else a
/// float (the midpoint of its proved bounds).
fn python_value<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value.exact() {
        Some(exact) => py
            .import("fractions")?
            .getattr("Fraction")?
            .call1((exact.to_string(),)),
        None => Ok(value.to_f64().into_pyobject(py)?.into_any()),
    }
}

/// Solves a game with chance written in Python by expectation ([`Solver::solve_chance`]) and
/// describes the result as a dict: value (a Fraction where exact, else a float), error_bound,
/// win_chance (an outcome game), best_move, engine, start, moves, best_moves, line (each roll
/// with its probability), outcome and remoteness (None: a roll decides them), stats.
fn chance_solved<'py, G>(
    py: Python<'py>,
    game: &G,
    inner: &PyGame,
    asked: &Asked,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Game<State = Id, Move = PyMove> + Sync,
{
    let solved = Solver::new(game)
        .threads(1)
        .limits(asked.limits)
        .solve_chance();
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    let mut solved = solved.map_err(refusal)?;
    let start = *solved.start();
    let best = solved.best_moves(&start);
    let moves = asked.moves.then(|| solved.move_values(&start));
    let line = asked.line.then(|| solved.line());
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    let best = best.map_err(refusal)?;
    let value = solved.value();
    let result = PyDict::new(py);
    result.set_item("value", python_value(py, &value)?)?;
    result.set_item("error_bound", value.error_bound())?;
    let outcome_game = gamesolver::Declares::outcome_game(&game.capabilities());
    result.set_item(
        "win_chance",
        if outcome_game {
            Some(python_value(py, &value.win_chance())?)
        } else {
            None
        },
    )?;
    result.set_item("best_move", best.first().map(|mv| mv.0.clone_ref(py)))?;
    result.set_item(
        "engine",
        match solved.engine() {
            Engine::ValueIteration => "value-iteration",
            _ => "expectimax",
        },
    )?;
    result.set_item("start", inner.state(py, start)?)?;
    match moves {
        Some(moves) => {
            let moves = moves.map_err(refusal)?;
            let (listed, best_moves) = (PyList::empty(py), PyList::empty(py));
            let rolling = solved.is_chance(&start);
            for mv in &moves {
                let entry = PyDict::new(py);
                let value = mv.mv.0.bind(py);
                entry.set_item("move", value)?;
                entry.set_item("value", python_value(py, &mv.value)?)?;
                let is_best = best.contains(&mv.mv);
                entry.set_item("best", is_best)?;
                if rolling {
                    entry.set_item(
                        "probability",
                        python_probability(py, solved.probability(&start, &mv.mv))?,
                    )?;
                }
                if is_best {
                    best_moves.append(value)?;
                }
                listed.append(entry)?;
            }
            result.set_item("moves", listed)?;
            result.set_item("best_moves", best_moves)?;
        }
        None => {
            result.set_item("moves", py.None())?;
            result.set_item("best_moves", py.None())?;
        }
    }
    match line {
        Some(line) => {
            let line = line.map_err(refusal)?;
            let plies = PyList::empty(py);
            for ply in &line {
                let entry = PyDict::new(py);
                entry.set_item(
                    "player",
                    match ply.player {
                        Player::First => "first",
                        Player::Second => "second",
                    },
                )?;
                entry.set_item("state", inner.state(py, ply.state)?)?;
                entry.set_item("move", ply.mv.0.bind(py))?;
                entry.set_item("points", ply.gain)?;
                entry.set_item("keeps_turn", ply.turn == Turn::Keep)?;
                entry.set_item("value", python_value(py, &ply.value)?)?;
                if solved.is_chance(&ply.state) {
                    entry.set_item("roll", true)?;
                    entry.set_item(
                        "probability",
                        python_probability(py, solved.probability(&ply.state, &ply.mv))?,
                    )?;
                }
                plies.append(entry)?;
            }
            result.set_item("line", plies)?;
        }
        None => result.set_item("line", py.None())?,
    }
    result.set_item("outcome", py.None())?;
    result.set_item("remoteness", py.None())?;
    let stats = solved.stats();
    let figures = PyDict::new(py);
    figures.set_item("stored", stats.stored)?;
    figures.set_item("expanded", stats.expanded)?;
    figures.set_item("hits", stats.hits)?;
    figures.set_item("known", stats.known)?;
    figures.set_item("terminal", stats.terminal)?;
    figures.set_item("max_depth", stats.max_depth)?;
    figures.set_item("seconds", stats.elapsed.as_secs_f64())?;
    result.set_item("stats", figures)?;
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    Ok(result)
}

/// A probability as a `fractions.Fraction`.
fn python_probability(py: Python<'_>, probability: Probability) -> PyResult<Bound<'_, PyAny>> {
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((probability.numerator(), probability.denominator()))
}

/// The first of `start`'s moves (in the game's order) that keeps its value, from the values
/// the solve stored (a won game's search stops at that move: it is known); `None` where the
/// game is over.
fn first_best_move<G: Game>(
    game: &G,
    answer: &mut gamesolver::Answer<'_, G>,
    start: &G::State,
) -> Result<Option<G::Move>, gamesolver::SolveError> {
    let value = answer.value_of(start)?;
    let mut moves = Vec::new();
    game.moves_into(start, &mut moves);
    for mv in moves {
        let step = game.play(start, &mv);
        let next = answer.value_of(&step.next)?;
        let after = match step.turn {
            Turn::Keep => Some(next),
            Turn::Pass => next.checked_neg(),
        };
        let worth = after
            .and_then(|after| step.gain.checked_add(after))
            .ok_or(gamesolver::SolveError::ScoreOverflow)?;
        if worth == value {
            return Ok(Some(mv));
        }
    }
    Ok(None)
}

/// Solves a game written in Python (from `at`, or its start) with the engine its declarations
/// choose (or `engine`), on the calling thread with the interpreter attached (the engines call
/// its methods). Returns a dict: value, best_move, engine, start, moves (every move's value, if
/// `moves`), best_moves (if `moves`), line (if `line`), outcome, remoteness (if `remoteness`),
/// stats. Raises `Refusal` for a limit or an unsupported engine, and whatever the game's
/// methods raised.
#[pyfunction]
#[pyo3(signature = (game, at=None, engine=None, memory_limit=None, time_limit=None, line=false, moves=false, remoteness=false))]
#[allow(clippy::too_many_arguments)]
fn solve_game<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    at: Option<&Bound<'py, PyAny>>,
    engine: Option<&str>,
    memory_limit: Option<u64>,
    time_limit: Option<f64>,
    line: bool,
    moves: bool,
    remoteness: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let engine = self::engine(engine)?;
    let limits = limits(memory_limit, time_limit)?;
    let asked = Asked {
        engine,
        limits,
        line,
        moves,
        remoteness,
    };
    let plain = PyGame::new(game, at, limits.memory_budget)?;
    if plain.declared().chance {
        if engine.is_some() {
            return Err(PyValueError::new_err(
                "a game with chance is solved by expectation: leave engine= out",
            ));
        }
        return if plain.declared().range {
            let ranged = ChancyRanged(plain);
            chance_solved(py, &ranged, &ranged.0, &asked)
        } else {
            let chancy = Chancy(plain);
            chance_solved(py, &chancy, &chancy.0, &asked)
        };
    }
    if plain.declared().impartial {
        let split = Split(plain);
        solved(py, &split, &split.0, &asked)
    } else if plain.declared().range {
        let ranged = Ranged(plain);
        solved(py, &ranged, &ranged.0, &asked)
    } else {
        solved(py, &plain, &plain, &asked)
    }
}

/// A check's report as a dict.
/// `inner`'s callback failure, if one failed during the check (the report would be of a game
/// that stopped answering), else the report.
fn report<'py, G>(
    py: Python<'py>,
    inner: &PyGame,
    report: CheckReport<G>,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Game<State = Id, Move = PyMove>,
{
    if let Some(failure) = inner.failure() {
        return Err(failure);
    }
    let result = PyDict::new(py);
    result.set_item("ok", report.is_ok())?;
    result.set_item("states", report.states)?;
    result.set_item("playouts", report.playouts)?;
    result.set_item("values_compared", report.values_compared)?;
    let violations: Vec<String> = report.violations.iter().map(ToString::to_string).collect();
    result.set_item("violations", violations)?;
    result.set_item("stopped", report.stopped.map(|error| error.to_string()))?;
    Ok(result)
}

/// Runs the conformance checker on a game written in Python: its moves, steps, payoffs and
/// declarations on every state it reaches (up to `max_states`) and on random playouts,
/// against an unmemoized reference search. Returns a dict: ok, states, playouts,
/// values_compared, violations (each a sentence that shows states and moves by their
/// `repr`), stopped.
#[pyfunction]
#[pyo3(signature = (game, seed=1, max_states=20_000, playouts=200, memory_limit=None, time_limit=None))]
fn check_game<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    seed: u64,
    max_states: usize,
    playouts: usize,
    memory_limit: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = CheckOptions {
        seed,
        max_states,
        playouts,
        limits: limits(memory_limit, time_limit)?,
        ..CheckOptions::default()
    };
    let plain = PyGame::new(game, None, options.limits.memory_budget)?;
    let declared = plain.declared();
    let _shown = Shown::of(py, &plain);
    let cyclic = CheckOptions {
        cyclic: declared.may_cycle,
        ..options.clone()
    };
    let result = if declared.impartial {
        let game = Split(plain);
        report(py, &game.0, check_impartial(&game, &options))?
    } else if declared.chance && declared.range {
        let game = ChancyRanged(plain);
        report(py, &game.0, check_chance(&game, &cyclic))?
    } else if declared.chance {
        let game = Chancy(plain);
        report(py, &game.0, check_chance(&game, &cyclic))?
    } else if declared.range {
        let ranged = Ranged(plain);
        report(py, &ranged.0, check_ranged(&ranged, &options))?
    } else if declared.outcome_game || declared.may_cycle {
        report(py, &plain, check_outcome(&plain, &cyclic))?
    } else {
        report(py, &plain, check(&plain, &options))?
    };
    Ok(result)
}

/// The native part of the `gamesolver` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(bundled_games, m)?)?;
    m.add_function(wrap_pyfunction!(solve_game, m)?)?;
    m.add_function(wrap_pyfunction!(check_game, m)?)?;
    m.add("Refusal", m.py().get_type::<Refusal>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
