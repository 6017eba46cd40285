//! Nimbers of [impartial](crate::game::Impartial) games: each position's [`Nimber`] (the mex of
//! its options'), a position that splits into independent parts valued as the XOR of its
//! parts', and each part stored once, by its canonical form.
//!
//! Two searches share one table of parts' nimbers:
//!
//! - [`Nimbers::nimber`]: the whole nimber, every option's nimber computed (the mex of the
//!   options', each option the XOR of its parts'), on an explicit stack, so that a deep game
//!   does not overflow the thread's stack;
//! - [`Nimbers::wins`] and [`Nimbers::equals`]: whether a position is won, or has a given
//!   nimber, by Lemoine and Viennot's rule ("Nimbers are inevitable", 2012): of a position's
//!   parts, those whose nimber is not yet known are computed all but the one with the most
//!   moves, and that one is *searched* for the nimbers that would bring the sum to the one
//!   asked, by Beling and Rogalski's pruning ("On pruning search trees of impartial games",
//!   2020): a part's nimber is the least of its candidates `0..=moves` that no option's nimber
//!   rules out, each option is asked only about the candidates still in play, and the search
//!   stops once none that was asked is left. A part searched to its end enters the table with
//!   its nimber, a part cut off keeps the nimbers it was found not to have.
//!
//! On Cram the whole computation is the faster way to a board's nimber (docs/performance.md:
//! searching 0, then 1, then 2 … re-expands the same parts for each candidate), so [`solve`]
//! computes it; the searches answer win-or-loss questions.
//!
//! ```
//! use gamesolver::engines::nimbers::{Nimbers, Options};
//! use gamesolver::games::DawsonsKayles;
//!
//! // Dawson's Kayles (remove two adjacent pins): rows of 5 and 7 pins, nimbers 0 and 1.
//! let game = DawsonsKayles::new(&[5, 7])?;
//! let mut nimbers = Nimbers::new(&game, Options::new());
//! assert_eq!(nimbers.nimber(&game.start_state())?, 1);
//! assert!(nimbers.wins(&game.start_state())?);
//! # Ok::<(), gamesolver::Error>(())
//! ```

use std::time::Instant;

use hashbrown::HashMap;

use crate::engines::kernel::{CHECK_EVERY, Limits, Stats};
use crate::error::SolveError;
use crate::game::{Game, Impartial, Nimber};
use crate::memo::FastHashBuilder;

mod set;
mod solution;

use set::NimberSet;

pub use solution::{NimberSolution, solve, solve_at};

/// A table entry that marks a part whose nimber is being computed: met again below itself, it
/// is a cycle.
const IN_PROGRESS: Nimber = Nimber::MAX;

/// How deep [`Nimbers::equals`] recurses before it computes a part's whole nimber on the
/// explicit stack instead (a bound on the thread's stack, whatever the game).
const SEARCH_DEPTH: usize = 200;

/// The options of the nimber engine: the memory budget and the time limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    limits: Limits,
}

impl Options {
    /// The default limits ([`Limits::default`]).
    pub fn new() -> Self {
        Options::default()
    }

    /// Solve within `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits }
    }
}

/// One part on the explicit stack: its moves, the option being read, its parts, and the
/// nimbers of the options read so far.
struct Frame<G: Game> {
    part: G::State,
    moves: Vec<G::Move>,
    /// The next move to play.
    at: usize,
    /// The parts of the option being read (of the move before `at`).
    parts: Vec<G::State>,
    /// The next of `parts` to read.
    part_at: usize,
    /// The XOR of `parts[..part_at]`'s nimbers.
    xor: Nimber,
    /// Whether `parts` is an option still being read.
    reading: bool,
    /// The options' nimbers seen, as bits.
    seen: Vec<u64>,
}

impl<G: Game> Frame<G> {
    fn new(part: G::State) -> Self {
        Frame {
            part,
            moves: Vec::new(),
            at: 0,
            parts: Vec::new(),
            part_at: 0,
            xor: 0,
            reading: false,
            seen: Vec::new(),
        }
    }
}

/// The least number not in `seen`.
fn mex(seen: &[u64]) -> Nimber {
    let mut base = 0;
    for &word in seen {
        if word != u64::MAX {
            return base + word.trailing_ones();
        }
        base += 64;
    }
    base
}

/// Marks `nimber` in `seen`.
fn mark(seen: &mut Vec<u64>, nimber: Nimber) {
    let word = nimber as usize / 64;
    if seen.len() <= word {
        seen.resize(word + 1, 0);
    }
    seen[word] |= 1 << (nimber % 64);
}

/// What the engine knows of a part's nimber.
enum Lookup {
    /// The nimber (the game's known nimber, or the table's).
    Known(Nimber),
    /// Being computed below: met again, a cycle.
    InProgress,
    /// Not known.
    Missing,
}

/// The nimber engine: a table of parts' nimbers, and the searches that fill it.
pub struct Nimbers<'g, G: Impartial> {
    game: &'g G,
    table: HashMap<G::State, Nimber, FastHashBuilder>,
    /// The nimbers each part searched without an answer is known not to have.
    excluded: HashMap<G::State, NimberSet, FastHashBuilder>,
    frames: Vec<Frame<G>>,
    /// How many frames of `frames` are open (their parts marked in progress in `table`).
    open: usize,
    limits: Limits,
    deadline: Option<Instant>,
    stats: Stats,
    started: Instant,
}

impl<'g, G> Nimbers<'g, G>
where
    G: Impartial,
    G::State: Eq + std::hash::Hash,
{
    /// An engine for `game`, its table empty.
    pub fn new(game: &'g G, options: Options) -> Self {
        let started = Instant::now();
        Nimbers {
            game,
            table: HashMap::default(),
            excluded: HashMap::default(),
            frames: Vec::new(),
            open: 0,
            limits: options.limits,
            deadline: options
                .limits
                .time_limit
                .and_then(|limit| started.checked_add(limit)),
            stats: Stats::default(),
            started,
        }
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// What the searches did so far (`stored`: parts' nimbers in the table).
    pub fn stats(&self) -> Stats {
        Stats {
            stored: self.table.len(),
            elapsed: self.started.elapsed(),
            ..self.stats
        }
    }

    /// What is known of `part`'s nimber, without searching.
    #[inline]
    fn lookup(&self, part: &G::State) -> Lookup {
        if let Some(nimber) = self.game.known_nimber(part) {
            return Lookup::Known(nimber);
        }
        match self.table.get(part) {
            Some(&IN_PROGRESS) => Lookup::InProgress,
            Some(&nimber) => Lookup::Known(nimber),
            None => Lookup::Missing,
        }
    }

    /// The parts of `state`.
    pub fn parts(&self, state: &G::State) -> Vec<G::State> {
        let mut parts = Vec::new();
        self.game.split(state, &mut parts);
        parts
    }

    /// The nimber of `state`: the XOR of its parts' nimbers.
    pub fn nimber(&mut self, state: &G::State) -> Result<Nimber, SolveError> {
        let mut xor = 0;
        for part in self.parts(state) {
            xor ^= self.part_nimber(part)?;
        }
        Ok(xor)
    }

    /// The nimber of `state` if the table already holds every part's, without searching.
    pub fn known(&self, state: &G::State) -> Option<Nimber> {
        self.parts(state)
            .iter()
            .try_fold(0, |xor, part| match self.lookup(part) {
                Lookup::Known(nimber) => Some(xor ^ nimber),
                _ => None,
            })
    }

    /// Whether the player to move at `state` wins: whether its nimber is not 0, found by
    /// [`in_set`](Nimbers::in_set) asked only about 0.
    pub fn wins(&mut self, state: &G::State) -> Result<bool, SolveError> {
        self.equals(state, 0).map(|lost| !lost)
    }

    /// Whether `state`'s nimber is `nimber`, searched with cut-offs (Lemoine–Viennot over its
    /// parts, Beling–Rogalski within the last).
    pub fn equals(&mut self, state: &G::State, nimber: Nimber) -> Result<bool, SolveError> {
        let Some(asked) = NimberSet::single(nimber) else {
            return Ok(self.nimber(state)? == nimber);
        };
        Ok(self.sum_in_set(self.parts(state), asked, 0)? == Some(nimber))
    }

    /// The nimber of the sum of `parts` if it lies in `asked`: the parts whose nimbers are known
    /// are read, the others computed all but the one with the most moves, and that one
    /// searched for the nimbers that would bring the sum into `asked`.
    fn sum_in_set(
        &mut self,
        parts: Vec<G::State>,
        asked: NimberSet,
        depth: usize,
    ) -> Result<Option<Nimber>, SolveError> {
        let mut xor = 0;
        let mut unknown = Vec::new();
        for part in parts {
            match self.lookup(&part) {
                Lookup::InProgress => return Err(cycle(depth)),
                Lookup::Known(nimber) => {
                    self.stats.hits += 1;
                    xor ^= nimber;
                }
                Lookup::Missing => unknown.push(part),
            }
        }
        if unknown.is_empty() {
            return Ok(asked.contains(xor).then_some(xor));
        }
        let largest = if unknown.len() == 1 {
            0
        } else {
            (0..unknown.len())
                .max_by_key(|&at| self.game.moves(&unknown[at]).count())
                .unwrap_or(0)
        };
        let last = unknown.swap_remove(largest);
        for part in unknown {
            xor ^= self
                .part_in_set(part, NimberSet::ALL, depth)?
                .ok_or_else(unasked)?;
        }
        let Some(shifted) = asked.xor(xor) else {
            // A nimber past the sets' room: compute the last part whole.
            let nimber = xor ^ self.part_nimber(last)?;
            return Ok(asked.contains(nimber).then_some(nimber));
        };
        Ok(self
            .part_in_set(last, shifted, depth)?
            .map(|nimber| nimber ^ xor))
    }

    /// The nimber of `part` if it lies in `asked` (`None`: it does not), by Beling and
    /// Rogalski's search: its nimber is the least of the candidates `0..=moves` that no
    /// option's nimber rules out, so each option is asked only about the candidates still in
    /// play up to the largest asked one, and the search stops once no asked candidate is left.
    /// Options whose parts' nimbers are all known are read first. A part searched to its end
    /// has its exact nimber stored.
    fn part_in_set(
        &mut self,
        part: G::State,
        asked: NimberSet,
        depth: usize,
    ) -> Result<Option<Nimber>, SolveError> {
        match self.lookup(&part) {
            Lookup::Known(nimber) => {
                self.stats.hits += 1;
                return Ok(asked.contains(nimber).then_some(nimber));
            }
            Lookup::InProgress => return Err(cycle(depth)),
            Lookup::Missing => {}
        }
        let excluded = self.excluded.get(&part).copied();
        let asked = match excluded {
            Some(excluded) => asked.without(excluded),
            None => asked,
        };
        if asked.is_empty() {
            self.stats.hits += 1;
            return Ok(None);
        }
        let moves: Vec<G::Move> = self.game.moves(&part).collect();
        let candidates = NimberSet::up_to(moves.len() as Nimber);
        let (Some(mut candidates), false) = (candidates, depth >= SEARCH_DEPTH) else {
            // Too deep for the native stack, or more moves than the sets hold.
            let nimber = self.part_nimber(part)?;
            return Ok(asked.contains(nimber).then_some(nimber));
        };
        self.check_now()?;
        self.stats.expanded += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth + 1);
        // First the options whose nimbers the table holds; the rest kept for the search.
        let mut open = Vec::new();
        for mv in &moves {
            let mut parts = Vec::new();
            self.game.split(&self.game.play(&part, mv).next, &mut parts);
            match self.known_sum(&parts) {
                Some(nimber) => candidates.remove(nimber),
                None => open.push(parts),
            }
        }
        for parts in open {
            let wanted = candidates.and(asked);
            let Some(top) = wanted.max() else {
                self.exclude(part, asked, excluded.is_some())?;
                return Ok(None);
            };
            // Only a candidate up to the largest one asked matters: a smaller one left in
            // play would be the nimber.
            let relevant = candidates.up_to_and_with(top);
            if let Some(nimber) = self.sum_in_set(parts, relevant, depth + 1)? {
                candidates.remove(nimber);
            }
        }
        // Every candidate below the least left is an option's nimber, and that one is none (an
        // option of it was asked about it): if it is asked, it is the nimber. If it is not,
        // neither is the nimber (had an asked one been the nimber, the least left would have
        // been asked about too, and removed).
        let nimber = candidates.min().unwrap_or(0);
        if !asked.contains(nimber) {
            self.exclude(part, asked, excluded.is_some())?;
            return Ok(None);
        }
        if excluded.is_some() {
            self.excluded.remove(&part);
        }
        self.store(part, nimber)?;
        Ok(Some(nimber))
    }

    /// Notes that `part`'s nimber is none of `asked` (`held`: the part has an entry already).
    fn exclude(&mut self, part: G::State, asked: NimberSet, held: bool) -> Result<(), SolveError> {
        if !held && self.excluded.len() == self.excluded.capacity() {
            self.check()?;
        }
        let entry = self.excluded.entry(part).or_insert(NimberSet([0; 4]));
        *entry = entry.or(asked);
        Ok(())
    }

    /// The nimber of a sum of parts if every part's is known.
    fn known_sum(&self, parts: &[G::State]) -> Option<Nimber> {
        parts
            .iter()
            .try_fold(0, |xor, part| match self.lookup(part) {
                Lookup::Known(nimber) => Some(xor ^ nimber),
                _ => None,
            })
    }

    /// The time limit and the memory budget, every [`CHECK_EVERY`] parts searched.
    fn check_now(&mut self) -> Result<(), SolveError> {
        if self.stats.expanded.is_multiple_of(CHECK_EVERY as u64) {
            self.check()?;
        }
        Ok(())
    }

    /// Stores `part`'s nimber.
    fn store(&mut self, part: G::State, nimber: Nimber) -> Result<(), SolveError> {
        if self.table.len() == self.table.capacity() {
            self.grow()?;
        }
        self.table.insert(part, nimber);
        if self.table.len().is_multiple_of(CHECK_EVERY) {
            self.check()?;
        }
        Ok(())
    }

    /// The bytes the tables hold, about.
    fn bytes(&self) -> u64 {
        let entry = size_of::<(G::State, Nimber)>() as u64 + 1;
        let excluded = size_of::<(G::State, NimberSet)>() as u64 + 1;
        (self.table.capacity() as u64)
            .saturating_mul(entry)
            .saturating_add((self.excluded.capacity() as u64).saturating_mul(excluded))
            .saturating_add((self.frames.len() as u64).saturating_mul(size_of::<Frame<G>>() as u64))
    }

    /// Makes room for the table to double, within the memory budget.
    fn grow(&mut self) -> Result<(), SolveError> {
        let entry = size_of::<(G::State, Nimber)>() as u64 + 1;
        let grown = (self.table.capacity().max(16) as u64).saturating_mul(2);
        let needed = self.bytes().saturating_add(grown.saturating_mul(entry));
        if needed > self.limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: format!(
                    "the table of parts' nimbers past {} parts",
                    self.table.len()
                ),
                needed,
                budget: self.limits.memory_budget,
            });
        }
        self.table
            .try_reserve(self.table.len().max(16))
            .map_err(|_| SolveError::Allocation {
                what: "the table of parts' nimbers".into(),
                bytes: needed,
            })
    }

    /// The time limit and the memory budget (the set of refuted nimbers grows too).
    fn check(&mut self) -> Result<(), SolveError> {
        if let (Some(deadline), Some(limit)) = (self.deadline, self.limits.time_limit)
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} parts' nimbers stored", self.table.len()),
            });
        }
        let bytes = self.bytes();
        if bytes > self.limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: format!("the table of {} parts' nimbers", self.table.len()),
                needed: bytes,
                budget: self.limits.memory_budget,
            });
        }
        if let Some(progress) = self.limits.progress {
            progress.record(self.table.len() as u64, bytes);
        }
        Ok(())
    }

    /// The nimber of one part: the mex of its options' nimbers, every option computed, on an
    /// explicit stack.
    pub fn part_nimber(&mut self, part: G::State) -> Result<Nimber, SolveError> {
        match self.lookup(&part) {
            Lookup::InProgress => return Err(cycle(0)),
            Lookup::Known(nimber) => {
                self.stats.hits += 1;
                return Ok(nimber);
            }
            Lookup::Missing => {}
        }
        let bottom = self.open;
        let result = self.search(part, bottom);
        if result.is_err() {
            // Unmark the parts left open, so that a later search does not take them for a
            // cycle.
            for frame in &self.frames[bottom..self.open] {
                if self.table.get(&frame.part) == Some(&IN_PROGRESS) {
                    self.table.remove(&frame.part);
                }
            }
            self.open = bottom;
        }
        result
    }

    /// [`part_nimber`](Nimbers::part_nimber)'s search, its frames from `bottom` up.
    fn search(&mut self, part: G::State, bottom: usize) -> Result<Nimber, SolveError> {
        self.push(part)?;
        loop {
            let depth = self.open;
            let Nimbers {
                game,
                table,
                frames,
                stats,
                ..
            } = self;
            let frame = &mut frames[depth - 1];
            if frame.reading {
                // Read the option's parts; open the first whose nimber is not known.
                while frame.part_at < frame.parts.len() {
                    let part = &frame.parts[frame.part_at];
                    let known = match game.known_nimber(part) {
                        Some(nimber) => Some(nimber),
                        None => table.get(part).copied(),
                    };
                    match known {
                        Some(IN_PROGRESS) => return Err(cycle(depth)),
                        Some(nimber) => {
                            stats.hits += 1;
                            frame.xor ^= nimber;
                            frame.part_at += 1;
                        }
                        None => break,
                    }
                }
                if frame.part_at < frame.parts.len() {
                    let next = frame.parts[frame.part_at].clone();
                    self.push(next)?;
                    continue;
                }
                // Only a nimber up to the count of moves can be the mex.
                if frame.xor as usize <= frame.moves.len() {
                    mark(&mut frame.seen, frame.xor);
                }
                frame.reading = false;
            }
            if frame.at < frame.moves.len() {
                let next = game.play(&frame.part, &frame.moves[frame.at]).next;
                frame.at += 1;
                frame.parts.clear();
                game.split(&next, &mut frame.parts);
                frame.part_at = 0;
                frame.xor = 0;
                frame.reading = true;
                continue;
            }
            let nimber = mex(&frame.seen);
            let part = frame.part.clone();
            self.open -= 1;
            self.store(part, nimber)?;
            if self.open == bottom {
                return Ok(nimber);
            }
        }
    }

    /// Opens a frame for `part` (its nimber not known) on top of the stack, and marks it in
    /// progress.
    fn push(&mut self, part: G::State) -> Result<(), SolveError> {
        self.stats.expanded += 1;
        if self.stats.expanded.is_multiple_of(CHECK_EVERY as u64) {
            self.check()?;
        }
        if self.table.len() == self.table.capacity() {
            self.grow()?;
        }
        self.table.insert(part.clone(), IN_PROGRESS);
        let depth = self.open;
        if depth == self.frames.len() {
            self.frames.push(Frame::new(part));
        } else {
            self.frames[depth].part = part;
        }
        self.open += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.open);
        let frame = &mut self.frames[depth];
        frame.moves.clear();
        self.game.moves_into(&frame.part, &mut frame.moves);
        frame.at = 0;
        frame.parts.clear();
        frame.part_at = 0;
        frame.xor = 0;
        frame.reading = false;
        frame.seen.clear();
        Ok(())
    }
}

/// A nimber asked of every candidate that was not found: cannot happen (every part's nimber
/// is one of its candidates).
fn unasked() -> SolveError {
    SolveError::InvalidGame("a part's nimber lies outside its candidates".into())
}

/// A part met again below itself.
fn cycle(depth: usize) -> SolveError {
    SolveError::InvalidGame(format!(
        "the game declares itself impartial, but a line of play {depth} parts deep returns to a \
         part still being valued: an impartial game's play must end"
    ))
}
