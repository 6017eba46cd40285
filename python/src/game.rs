//! A Python object that follows the game protocol (`start`, `moves`, `play`, `payoff`, and
//! optionally `known_value`, `value_range`, `outcome_game`, `may_cycle`) as a [`Game`].
//!
//! States and moves are Python values; the engines see them as numbers. Each distinct state
//! (and move) is interned once, by Python's own hash and equality, in a dict from the value to
//! its number and a list from the number back to the value, so the engines' tables hold plain
//! integers and never call into Python to hash or compare. The engines call back into Python
//! for every move list and step, on the calling thread, with the interpreter attached.
//!
//! A callback that raises (or returns something of the wrong shape) is remembered, and from
//! then on every state has no move and every step leads to [`DEAD`], so the search winds down
//! at once; the caller then raises the remembered exception (Ctrl-C's `KeyboardInterrupt`
//! raised inside a callback included) instead of the search's result.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use gamesolver::game::{Chance, Impartial, Nimber, Probability};
use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn, ValueRange};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyTuple};

/// The first batch of moves of a game that can cut (see `moves_batch`).
const FIRST_BATCH: usize = 4;

/// The most iterators of unfinished move lists kept at once (see `moves_batch`).
const PENDING: usize = 1 << 16;

/// The state every step leads to once a callback has failed: no move, payoff 0.
pub const DEAD: Id = Id::Kept(0);

/// A state of a Python game: an `int` (exactly that type, within 64 bits) as itself, any
/// other value by its number in the game's interner. Shown (in the checker's messages) as
/// the value's `repr` while [`Shown`] is in force on the thread.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Id {
    /// An `int` state.
    Int(i64),
    /// The number of an interned state.
    Kept(u32),
}

thread_local! {
    /// The list of states that [`Id`]'s `Debug` reads values from.
    static SHOWN: std::cell::RefCell<Option<Py<PyList>>> =
        const { std::cell::RefCell::new(None) };
}

/// While alive, `Id`s on this thread are shown as the `repr` of the game's values.
pub struct Shown;

impl Shown {
    /// Shows `game`'s values until dropped.
    pub fn of(py: Python<'_>, game: &PyGame) -> Shown {
        let states = game.states.lock().1.clone_ref(py);
        SHOWN.with(|shown| *shown.borrow_mut() = Some(states));
        Shown
    }
}

impl Drop for Shown {
    fn drop(&mut self) {
        SHOWN.with(|shown| *shown.borrow_mut() = None);
    }
}

/// The `repr` of state `id` of the shown states, if [`Shown`] is in force.
fn shown_repr(id: u32) -> Option<String> {
    Python::attach(|py| {
        SHOWN.with(|shown| {
            let shown = shown.borrow();
            let states = shown.as_ref()?;
            let value = states.bind(py).get_item(id as usize).ok()?;
            value.repr().ok().map(|repr| repr.to_string())
        })
    })
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Id::Int(value) => write!(f, "{value}"),
            Id::Kept(id) => match shown_repr(id) {
                Some(text) => f.write_str(&text),
                None => write!(f, "state #{id}"),
            },
        }
    }
}

/// A move of a Python game: the Python value itself (moves are not numbered: the engines only
/// play them and hand them back, and a number would cost a lookup by hash per move). Cloned and
/// compared with the interpreter attached, as the engines do on the calling thread.
pub struct PyMove(pub Py<PyAny>);

impl Clone for PyMove {
    fn clone(&self) -> Self {
        Python::attach(|py| PyMove(self.0.clone_ref(py)))
    }
}

impl PartialEq for PyMove {
    fn eq(&self, other: &Self) -> bool {
        Python::attach(|py| self.0.bind(py).eq(other.0.bind(py)).unwrap_or(false))
    }
}

impl fmt::Debug for PyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Python::attach(|py| self.0.bind(py).repr().map(|repr| repr.to_string()));
        f.write_str(&text.unwrap_or_else(|_| "<a move whose repr failed>".into()))
    }
}

/// A Python value as its own key: an `int` (exactly) within 64 bits; `None` for a value to
/// intern.
fn small_int(value: &Bound<'_, PyAny>) -> Option<i64> {
    if value.is_exact_instance_of::<PyInt>() {
        value.extract::<i64>().ok()
    } else {
        None
    }
}

/// Python values numbered in the order first seen.
pub struct Interner {
    inner: Mutex<(Py<PyDict>, Py<PyList>)>,
}

impl Interner {
    /// An interner whose first number is taken by `placeholder`.
    fn new(py: Python<'_>, placeholder: &Bound<'_, PyAny>) -> PyResult<Interner> {
        let objects = PyList::empty(py);
        objects.append(placeholder)?;
        Ok(Interner {
            inner: Mutex::new((PyDict::new(py).unbind(), objects.unbind())),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Py<PyDict>, Py<PyList>)> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The number of `value`, given one if it is new; and whether it is.
    pub fn intern(&self, value: &Bound<'_, PyAny>) -> PyResult<(u32, bool)> {
        let py = value.py();
        let inner = self.lock();
        let (ids, objects) = (inner.0.bind(py), inner.1.bind(py));
        if let Some(id) = ids.get_item(value)? {
            return Ok((id.extract()?, false));
        }
        let id = u32::try_from(objects.len()).map_err(|_| {
            PyValueError::new_err("more than 2^32 distinct states or moves: too many to number")
        })?;
        ids.set_item(value, id)?;
        objects.append(value)?;
        Ok((id, true))
    }

    /// The value numbered `id`.
    pub fn get<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Bound<'py, PyAny>> {
        self.lock().1.bind(py).get_item(id as usize)
    }
}

/// How many new states a game makes between two looks at the process's resident memory (the
/// Python objects of its states are what grows).
const WATCH_NEW: u32 = 512;

/// How many steps pass between two looks at it when no new state comes (a game whose own
/// caches grow).
const WATCH_STEPS: u32 = 1 << 16;

/// The process's resident memory in bytes, where the system says (Linux: `VmRSS` in
/// `/proc/self/status`).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes as a person reads them: "2.0 GiB", "512.0 MiB".
fn size(bytes: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    let mib = bytes as f64 / MIB;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.1} MiB")
    }
}

/// The memory cap of a solve of a Python game. The engines count the bytes of their own
/// tables, but not the Python objects a game makes (its states, an OpenSpiel adapter's
/// states): so the process's own growth since the solve started is watched, every
/// [`WATCH_NEW`] new states, and a solve that grows it past the budget stops with the memory
/// budget's error (Python's `MemoryBudgetError`, a `MemoryError`) instead of running until the
/// system kills the process. Where the system does not report resident memory, only the
/// engines' own count holds.
pub struct Watch {
    budget: u64,
    base: u64,
    steps: std::sync::atomic::AtomicU32,
    new: std::sync::atomic::AtomicU32,
}

impl Watch {
    /// A watch of the process's growth from now on, within `budget` bytes.
    pub fn new(budget: u64) -> Option<Watch> {
        Some(Watch {
            budget,
            base: resident_bytes()?,
            steps: std::sync::atomic::AtomicU32::new(1),
            new: std::sync::atomic::AtomicU32::new(1),
        })
    }

    /// Looks at the process's memory every [`WATCH_NEW`] new states (`new`: this step made
    /// one) and every [`WATCH_STEPS`] steps: an error past the budget. (Reading it at every
    /// step would slow a cheap game: docs/performance.md, "Figures behind choices".)
    fn step(&self, new: bool) -> PyResult<()> {
        use std::sync::atomic::Ordering::Relaxed;
        let due = (new && self.new.fetch_add(1, Relaxed).is_multiple_of(WATCH_NEW))
            || self.steps.fetch_add(1, Relaxed).is_multiple_of(WATCH_STEPS);
        if !due {
            return Ok(());
        }
        let Some(now) = resident_bytes() else {
            return Ok(());
        };
        let grown = now.saturating_sub(self.base);
        if grown <= self.budget {
            return Ok(());
        }
        Err(crate::Refusal::new_err((
            format!(
                "the solve has grown this process by {} (the game's states as Python objects \
                 and the solver's tables), past its memory_limit of {}: give a larger \
                 memory_limit=, or solve from a later state",
                size(grown),
                size(self.budget)
            ),
            "memory-budget".to_string(),
        )))
    }
}

/// What a Python game declares.
#[derive(Clone, Copy, Debug, Default)]
pub struct Declared {
    /// `value_range(state)` is defined.
    pub range: bool,
    /// `outcome_game` is true.
    pub outcome_game: bool,
    /// `may_cycle` is true.
    pub may_cycle: bool,
    /// `is_chance(state)` and `probability(state, outcome)` are defined: chance states.
    pub chance: bool,
    /// `impartial` is true: both players have the same moves and who cannot move loses.
    pub impartial: bool,
}

/// A game's declared range: a method of the state, or one `(low, high)` for every state.
enum Range {
    Call(Py<PyAny>),
    Fixed(Score, Score),
}

/// `value_range`: a method, a fixed `(low, high)`, or undeclared (absent or `None`).
fn range(game: &Bound<'_, PyAny>) -> PyResult<Option<Range>> {
    let Ok(value) = game.getattr("value_range") else {
        return Ok(None);
    };
    if value.is_none() {
        return Ok(None);
    }
    if value.is_callable() {
        return Ok(Some(Range::Call(value.unbind())));
    }
    let (low, high) = bounds(&value)?;
    Ok(Some(Range::Fixed(low, high)))
}

/// `(low, high)` from Python, checked.
fn bounds(value: &Bound<'_, PyAny>) -> PyResult<(Score, Score)> {
    let shape = || {
        PyTypeError::new_err(format!(
            "value_range must be (low, high) or a method that returns it, not {}",
            value
                .repr()
                .map_or_else(|_| "that".into(), |r| r.to_string())
        ))
    };
    let parts = value.cast::<PyTuple>().map_err(|_| shape())?;
    if parts.len() != 2 {
        return Err(shape());
    }
    let low = PyGame::score(&parts.get_item(0)?, "value_range's low")?;
    let high = PyGame::score(&parts.get_item(1)?, "value_range's high")?;
    if low > high {
        return Err(PyValueError::new_err(format!(
            "value_range gave low {low} above high {high}"
        )));
    }
    Ok((low, high))
}

impl Declared {
    /// `declared` with the flags the game sets (outcome game, may cycle).
    fn flags<G: Game, R, I, T, S, K, C, P>(
        self,
        declared: Capabilities<G, R, I, T, S, K, C, P>,
    ) -> Capabilities<G, R, I, T, S, K, C, P> {
        let declared = if self.outcome_game {
            declared.outcome_game()
        } else {
            declared
        };
        if self.may_cycle {
            declared.may_cycle()
        } else {
            declared
        }
    }
}

/// A Python object as a [`Game`] of numbered states and moves.
pub struct PyGame {
    start: Py<PyAny>,
    moves_of: Py<PyAny>,
    play: Py<PyAny>,
    payoff: Py<PyAny>,
    known_value: Option<Py<PyAny>>,
    value_range: Option<Range>,
    /// `is_chance(state)` and `probability(state, outcome)`, where the game has chance states.
    chance: Option<(Py<PyAny>, Py<PyAny>)>,
    /// An impartial game's `split(state)` and `known_nimber(part)`, where it defines them.
    split: Option<Py<PyAny>>,
    known_nimber: Option<Py<PyAny>>,
    /// The state to solve from, if not the game's `start()`.
    from: Option<Py<PyAny>>,
    states: Interner,
    /// The moves still to hand out of states whose `moves` gave an iterator, by state
    /// (`moves_batch`).
    pending: Mutex<HashMap<Id, Py<PyAny>>>,
    failure: Mutex<Option<PyErr>>,
    failed: std::sync::atomic::AtomicBool,
    declared: Declared,
    /// The cap on the process's growth while it is solved, where the system reports memory.
    watch: Option<Watch>,
}

/// A required method of the game object.
fn method(game: &Bound<'_, PyAny>, name: &str) -> PyResult<Py<PyAny>> {
    match game.getattr(name) {
        Ok(method) if method.is_callable() => Ok(method.unbind()),
        _ => Err(PyTypeError::new_err(format!(
            "a game needs a method {name}(): start(), moves(state), play(state, move) and \
             payoff(state) (see help(gamesolver.Game))"
        ))),
    }
}

/// An optional method: absent or `None` is undeclared.
fn optional(game: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Py<PyAny>>> {
    match game.getattr(name) {
        Ok(value) if value.is_none() => Ok(None),
        Ok(value) if value.is_callable() => Ok(Some(value.unbind())),
        Ok(_) => Err(PyTypeError::new_err(format!(
            "the game's {name} is neither a method nor None"
        ))),
        Err(_) => Ok(None),
    }
}

/// An optional flag: absent is false; present, `True` or `False` (a flag given as another value,
/// `"yes"` or 1, is a mistake to say, not a truth to guess).
fn flag(game: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    match game.getattr(name) {
        Ok(value) => boolean(&value, &format!("the game's {name}")),
        Err(_) => Ok(false),
    }
}

/// A probability from Python: a `Fraction` (anything with whole `numerator` and
/// `denominator`), an `int`, or `(numerator, denominator)`; each part a whole number from 0 to
/// 2**64 - 1.
fn fraction(value: &Bound<'_, PyAny>) -> PyResult<Probability> {
    let shape = || {
        PyTypeError::new_err(format!(
            "probability() must give a fractions.Fraction (or numerator and denominator as a \
             tuple of ints), not {}: probabilities are exact",
            value
                .repr()
                .map_or_else(|_| "that".into(), |r| r.to_string())
        ))
    };
    let part = |part: Bound<'_, PyAny>| -> PyResult<u64> {
        if !part.is_instance_of::<PyInt>() {
            return Err(shape());
        }
        part.extract::<u64>().map_err(|_| shape())
    };
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return Ok(Probability::new(part(value.clone())?, 1));
    }
    if let Ok(parts) = value.cast::<PyTuple>() {
        if parts.len() != 2 {
            return Err(shape());
        }
        return Ok(Probability::new(
            part(parts.get_item(0)?)?,
            part(parts.get_item(1)?)?,
        ));
    }
    match (value.getattr("numerator"), value.getattr("denominator")) {
        (Ok(numerator), Ok(denominator)) if !value.is_instance_of::<pyo3::types::PyFloat>() => {
            Ok(Probability::new(part(numerator)?, part(denominator)?))
        }
        _ => Err(shape()),
    }
}

/// `value` as a bool, if it is one.
fn boolean(value: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    value
        .cast::<PyBool>()
        .map(|flag| flag.is_true())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be True or False, not {}",
                value
                    .repr()
                    .map_or_else(|_| "that".into(), |r| r.to_string())
            ))
        })
}

impl PyGame {
    /// Reads the game object's methods and declarations; solves from `from` if given, within
    /// `budget` bytes of growth of the process.
    pub fn new(
        game: &Bound<'_, PyAny>,
        from: Option<&Bound<'_, PyAny>>,
        budget: u64,
    ) -> PyResult<PyGame> {
        let py = game.py();
        let value_range = range(game)?;
        let chance = match (optional(game, "is_chance")?, optional(game, "probability")?) {
            (Some(is_chance), Some(probability)) => Some((is_chance, probability)),
            (None, None) => None,
            _ => {
                return Err(PyTypeError::new_err(
                    "a game with chance defines both is_chance(state) and \
                     probability(state, outcome)",
                ));
            }
        };
        let declared = Declared {
            range: value_range.is_some(),
            outcome_game: flag(game, "outcome_game")?,
            may_cycle: flag(game, "may_cycle")?,
            chance: chance.is_some(),
            impartial: flag(game, "impartial")?,
        };
        let (split, known_nimber) = (optional(game, "split")?, optional(game, "known_nimber")?);
        if declared.impartial && (declared.chance || declared.may_cycle || declared.range) {
            return Err(PyTypeError::new_err(
                "an impartial game (impartial = True) has no chance states, no value_range and \
                 no may_cycle: its value is its nimber, and its play ends",
            ));
        }
        if !declared.impartial && (split.is_some() || known_nimber.is_some()) {
            return Err(PyTypeError::new_err(
                "split() and known_nimber() are for an impartial game: set impartial = True",
            ));
        }
        let dead = PyTuple::new(py, ["<no state: a callback failed>"])?;
        Ok(PyGame {
            start: method(game, "start")?,
            moves_of: method(game, "moves")?,
            play: method(game, "play")?,
            payoff: method(game, "payoff")?,
            known_value: optional(game, "known_value")?,
            value_range,
            chance,
            split,
            known_nimber,
            from: from.map(|from| from.clone().unbind()),
            states: Interner::new(py, dead.as_any())?,
            pending: Mutex::new(HashMap::new()),
            failure: Mutex::new(None),
            failed: std::sync::atomic::AtomicBool::new(false),
            declared,
            watch: Watch::new(budget),
        })
    }

    /// What the game declares.
    pub fn declared(&self) -> Declared {
        self.declared
    }

    /// The exception a callback raised, if one did (taken: a second call gives `None`).
    pub fn failure(&self) -> Option<PyErr> {
        self.failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    fn pending_lock(&self) -> std::sync::MutexGuard<'_, HashMap<Id, Py<PyAny>>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether a callback has failed.
    fn has_failed(&self) -> bool {
        self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Remembers the first failure.
    fn fail(&self, error: PyErr) {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if failure.is_none() {
            *failure = Some(error);
        }
        self.failed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// `work`'s value, or `fallback` once it (or an earlier callback) failed.
    fn guarded<T>(&self, fallback: T, work: impl FnOnce(Python<'_>) -> PyResult<T>) -> T {
        if self.has_failed() {
            return fallback;
        }
        Python::attach(|py| match work(py) {
            Ok(value) => value,
            Err(error) => {
                self.fail(error);
                fallback
            }
        })
    }

    /// The state `id` as the Python value.
    pub fn state<'py>(&self, py: Python<'py>, id: Id) -> PyResult<Bound<'py, PyAny>> {
        match id {
            Id::Int(value) => Ok(value.into_pyobject(py)?.into_any()),
            Id::Kept(id) => self.states.get(py, id),
        }
    }

    /// The key of a Python state (and, every few states, a look at the memory it all takes).
    pub fn state_id(&self, state: &Bound<'_, PyAny>) -> PyResult<Id> {
        let (id, new) = match small_int(state) {
            Some(value) => (Id::Int(value), false),
            None => {
                let (id, new) = self.states.intern(state)?;
                (Id::Kept(id), new)
            }
        };
        if let Some(watch) = &self.watch {
            watch.step(new)?;
        }
        Ok(id)
    }

    /// Whether `state` is a chance state (`is_chance(state)`).
    fn chance_at(&self, state: &Id) -> bool {
        let Some((is_chance, _)) = &self.chance else {
            return false;
        };
        if *state == DEAD {
            return false;
        }
        self.guarded(false, |py| {
            let answer = is_chance.bind(py).call1((self.state(py, *state)?,))?;
            boolean(&answer, "is_chance()")
        })
    }

    /// The probability of `outcome` at the chance state `state` (`probability(state,
    /// outcome)`): a `Fraction`, an `int`, or `(numerator, denominator)`; a float is refused
    /// (probabilities are exact).
    fn probability_of(&self, state: &Id, outcome: &PyMove) -> Probability {
        let Some((_, probability)) = &self.chance else {
            return Probability::ONE;
        };
        if *state == DEAD {
            return Probability::ONE;
        }
        self.guarded(Probability::ONE, |py| {
            let given = probability
                .bind(py)
                .call1((self.state(py, *state)?, outcome.0.bind(py)))?;
            fraction(&given)
        })
    }

    /// A score from Python, with the callback's name in the message if it is not one.
    fn score(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Score> {
        let score: i64 = value.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "{what} must be an integer from -(2**63 - 1) to 2**63 - 1, not {}",
                value
                    .repr()
                    .map_or_else(|_| "that".into(), |r| r.to_string())
            ))
        })?;
        if score == i64::MIN {
            return Err(PyValueError::new_err(format!(
                "{what} must be an integer from -(2**63 - 1) to 2**63 - 1, not -2**63"
            )));
        }
        Ok(score)
    }
}

impl Game for PyGame {
    type State = Id;
    type Move = PyMove;

    fn start(&self) -> Id {
        self.guarded(DEAD, |py| {
            let start = match &self.from {
                Some(from) => from.bind(py).clone(),
                None => self.start.bind(py).call0()?,
            };
            self.state_id(&start)
        })
    }

    /// The moves Python's `moves(state)` gives, collected ([`moves_into`](Game::moves_into)).
    fn moves(&self, state: &Id) -> impl Iterator<Item = PyMove> {
        let mut moves = Vec::new();
        self.moves_into(state, &mut moves);
        moves.into_iter()
    }

    fn moves_into(&self, state: &Id, moves: &mut Vec<PyMove>) {
        if *state == DEAD {
            return;
        }
        self.guarded((), |py| {
            let listed = self.moves_of.bind(py).call1((self.state(py, *state)?,))?;
            for mv in listed.try_iter()? {
                moves.push(PyMove(mv?.unbind()));
            }
            Ok(())
        });
        if self.has_failed() {
            moves.clear();
        }
    }

    /// When the game can cut (a declared range, or an outcome game) and `moves` gives an
    /// iterator (a generator) rather than a list or tuple, the moves are drawn from it in
    /// batches of 4, 8, 16, …, the iterator kept between batches, so a state decided by an
    /// early move (the first winning move) never has the rest generated. An iterator kept
    /// for a state whose later batches are never asked for is dropped when more than
    /// [`PENDING`] are kept; a state whose iterator was dropped calls `moves` again and skips
    /// the moves of its earlier batches. Without cuts every move is needed: one batch.
    fn moves_batch(&self, state: &Id, batch: usize, moves: &mut Vec<PyMove>) -> bool {
        if !(self.declared.range || self.declared.outcome_game) {
            if batch == 0 {
                self.moves_into(state, moves);
            }
            return false;
        }
        if *state == DEAD {
            return false;
        }
        let before = moves.len();
        let take = FIRST_BATCH.checked_shl(batch as u32).unwrap_or(usize::MAX);
        let more = self.guarded(false, |py| {
            let kept = self.pending_lock().remove(state);
            let each = match kept {
                Some(each) if batch > 0 => each.into_bound(py),
                _ => {
                    let listed = self.moves_of.bind(py).call1((self.state(py, *state)?,))?;
                    if batch == 0
                        && (listed.is_exact_instance_of::<PyList>()
                            || listed.is_exact_instance_of::<PyTuple>())
                    {
                        for mv in listed.try_iter()? {
                            moves.push(PyMove(mv?.unbind()));
                        }
                        return Ok(false);
                    }
                    let mut fresh = listed.try_iter()?;
                    for _ in 0..take - FIRST_BATCH {
                        if fresh.next().transpose()?.is_none() {
                            return Ok(false);
                        }
                    }
                    fresh.into_any()
                }
            };
            let mut iterator = each.try_iter()?;
            for _ in 0..take {
                match iterator.next() {
                    Some(mv) => moves.push(PyMove(mv?.unbind())),
                    None => return Ok(false),
                }
            }
            let mut pending = self.pending_lock();
            if pending.len() >= PENDING {
                pending.clear();
            }
            pending.insert(*state, each.unbind());
            Ok(true)
        });
        if self.has_failed() {
            moves.truncate(before);
            return false;
        }
        more
    }

    fn play(&self, state: &Id, mv: &PyMove) -> Step<Id> {
        let dead = Step {
            next: DEAD,
            gain: 0,
            turn: Turn::Pass,
        };
        if *state == DEAD {
            return dead;
        }
        self.guarded(dead, |py| {
            let step = self
                .play
                .bind(py)
                .call1((self.state(py, *state)?, mv.0.bind(py)))?;
            let shape = || {
                PyTypeError::new_err(format!(
                    "play() must return (next_state, points, keeps_turn), not {}",
                    step.repr()
                        .map_or_else(|_| "that".into(), |r| r.to_string())
                ))
            };
            let parts = step.cast::<PyTuple>().map_err(|_| shape())?;
            if parts.len() != 3 {
                return Err(shape());
            }
            let next = self.state_id(&parts.get_item(0)?)?;
            let gain = Self::score(&parts.get_item(1)?, "play()'s points")?;
            let turn = if boolean(&parts.get_item(2)?, "play()'s keeps_turn")? {
                Turn::Keep
            } else {
                Turn::Pass
            };
            Ok(Step { next, gain, turn })
        })
    }

    fn payoff(&self, state: &Id) -> Score {
        if *state == DEAD {
            return 0;
        }
        self.guarded(0, |py| {
            let payoff = self.payoff.bind(py).call1((self.state(py, *state)?,))?;
            Self::score(&payoff, "payoff()")
        })
    }

    fn known_value(&self, state: &Id) -> Option<Score> {
        let known = self.known_value.as_ref()?;
        if *state == DEAD {
            return Some(0);
        }
        self.guarded(None, |py| {
            let value = known.bind(py).call1((self.state(py, *state)?,))?;
            if value.is_none() {
                Ok(None)
            } else {
                Self::score(&value, "known_value()").map(Some)
            }
        })
    }

    fn state_text(&self, state: &Id) -> Option<String> {
        Python::attach(|py| {
            let value = self.state(py, *state).ok()?;
            value.repr().ok().map(|repr| repr.to_string())
        })
    }

    fn capabilities(&self) -> impl Declares<Self> {
        self.declared.flags(Capabilities::none())
    }
}

/// A Python game that defines `value_range(state)`: the same game, with the range declared.
pub struct Ranged(pub PyGame);

impl Game for Ranged {
    type State = Id;
    type Move = PyMove;

    fn start(&self) -> Id {
        self.0.start()
    }
    fn moves(&self, state: &Id) -> impl Iterator<Item = PyMove> {
        self.0.moves(state)
    }
    fn moves_into(&self, state: &Id, moves: &mut Vec<PyMove>) {
        self.0.moves_into(state, moves);
    }
    fn moves_batch(&self, state: &Id, batch: usize, moves: &mut Vec<PyMove>) -> bool {
        self.0.moves_batch(state, batch, moves)
    }
    fn play(&self, state: &Id, mv: &PyMove) -> Step<Id> {
        self.0.play(state, mv)
    }
    fn payoff(&self, state: &Id) -> Score {
        self.0.payoff(state)
    }
    fn known_value(&self, state: &Id) -> Option<Score> {
        self.0.known_value(state)
    }
    fn state_text(&self, state: &Id) -> Option<String> {
        self.0.state_text(state)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        self.0.declared.flags(Capabilities::none().value_range())
    }
}

impl ValueRange for Ranged {
    fn value_range(&self, state: &Id) -> (Score, Score) {
        self.0.range_of(state)
    }
}

impl PyGame {
    /// The game's `value_range` at `state` (the widest range where it declares none).
    fn range_of(&self, state: &Id) -> (Score, Score) {
        let wide = (-Score::MAX, Score::MAX);
        let method = match &self.value_range {
            None => return wide,
            Some(Range::Fixed(low, high)) => return (*low, *high),
            Some(Range::Call(method)) => method,
        };
        if *state == DEAD {
            return (0, 0);
        }
        self.guarded(wide, |py| {
            let value = method.bind(py).call1((self.state(py, *state)?,))?;
            bounds(&value)
        })
    }
}

/// A Python game with chance states: the same game, with its chance declared.
pub struct Chancy(pub PyGame);

/// A Python game with chance states and a value range.
pub struct ChancyRanged(pub PyGame);

/// A Python game that says `impartial = True`: the same game, declared impartial, split by its
/// `split(state)` where it defines one.
pub struct Split(pub PyGame);

/// The [`Game`] of a wrapper of [`PyGame`], every method the game's, and `$declared` its
/// declaration.
macro_rules! delegated_game {
    ($wrapper:ty, $declared:expr) => {
        impl Game for $wrapper {
            type State = Id;
            type Move = PyMove;

            fn start(&self) -> Id {
                self.0.start()
            }
            fn moves(&self, state: &Id) -> impl Iterator<Item = PyMove> {
                self.0.moves(state)
            }
            fn moves_into(&self, state: &Id, moves: &mut Vec<PyMove>) {
                self.0.moves_into(state, moves);
            }
            fn moves_batch(&self, state: &Id, batch: usize, moves: &mut Vec<PyMove>) -> bool {
                self.0.moves_batch(state, batch, moves)
            }
            fn play(&self, state: &Id, mv: &PyMove) -> Step<Id> {
                self.0.play(state, mv)
            }
            fn payoff(&self, state: &Id) -> Score {
                self.0.payoff(state)
            }
            fn known_value(&self, state: &Id) -> Option<Score> {
                self.0.known_value(state)
            }
            fn state_text(&self, state: &Id) -> Option<String> {
                self.0.state_text(state)
            }
            fn capabilities(&self) -> impl Declares<Self> {
                self.0.declared.flags($declared)
            }
        }
    };
}

/// The [`Chance`] of a wrapper of [`PyGame`]: the game's `is_chance` and `probability`.
macro_rules! delegated_chance {
    ($wrapper:ty) => {
        impl Chance for $wrapper {
            fn is_chance(&self, state: &Id) -> bool {
                self.0.chance_at(state)
            }
            fn probability(&self, state: &Id, outcome: &PyMove) -> Probability {
                self.0.probability_of(state, outcome)
            }
        }
    };
}

delegated_game!(Chancy, Capabilities::none().chance());
delegated_game!(ChancyRanged, Capabilities::none().value_range().chance());
delegated_game!(Split, Capabilities::none().impartial());
delegated_chance!(Chancy);
delegated_chance!(ChancyRanged);

impl Impartial for Split {
    /// The game's `split(state)`: an iterable of parts (states of the game), each a game of its
    /// own; without it the whole state is one part.
    fn split(&self, state: &Id, parts: &mut Vec<Id>) {
        let Some(split) = &self.0.split else {
            parts.push(*state);
            return;
        };
        if *state == DEAD {
            return;
        }
        let before = parts.len();
        self.0.guarded((), |py| {
            let listed = split.bind(py).call1((self.0.state(py, *state)?,))?;
            for part in listed.try_iter()? {
                parts.push(self.0.state_id(&part?)?);
            }
            Ok(())
        });
        if self.0.has_failed() {
            parts.truncate(before);
        }
    }

    /// The game's `known_nimber(part)`: a whole number from 0 to 2**32 - 1, or `None` to search.
    fn known_nimber(&self, part: &Id) -> Option<Nimber> {
        let known = self.0.known_nimber.as_ref()?;
        if *part == DEAD {
            return Some(0);
        }
        self.0.guarded(None, |py| {
            let value = known.bind(py).call1((self.0.state(py, *part)?,))?;
            if value.is_none() {
                return Ok(None);
            }
            if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err(format!(
                    "known_nimber() must give a whole number or None, not {}",
                    value
                        .repr()
                        .map_or_else(|_| "that".into(), |r| r.to_string())
                )));
            }
            value.extract::<Nimber>().map(Some).map_err(|_| {
                PyValueError::new_err(format!(
                    "known_nimber() must give a nimber from 0 to 2**32 - 1, not {value}"
                ))
            })
        })
    }
}

impl ValueRange for ChancyRanged {
    fn value_range(&self, state: &Id) -> (Score, Score) {
        self.0.range_of(state)
    }
}
