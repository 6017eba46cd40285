//! Nimbers of [impartial](crate::game::Impartial) games: each position's [`Nimber`] (the mex of
//! its options'), a position that splits into independent parts valued as the XOR of its
//! parts', and each part stored once, by its canonical form.
//!
//! The searches share one table of parts' nimbers:
//!
//! - [`Nimbers::wins`] and [`Nimbers::equals`]: whether a position is won, or has a given
//!   nimber, by Lemoine and Viennot's rule ("Nimbers are inevitable", 2012): of a position's
//!   parts whose nimbers are not known, all but the heaviest (the game's
//!   [`weight`](crate::game::Impartial::weight)) are valued, and the heaviest is *searched*
//!   for the one nimber that brings the sum to the one asked;
//! - a part is searched by Beling and Rogalski's pruning ("On pruning search trees of impartial
//!   games", 2020): its nimber is one of `0..=moves`, each option takes one candidate away (its
//!   nimber where it is asked about it and answers, else the largest), each option is asked
//!   only about the candidates but the largest, up to the largest asked, and the search stops
//!   once no asked candidate is left. Options are searched lightest first, and those the table
//!   already values first of all. A part searched to its end enters the table with its
//!   nimber; a part cut off is searched again where it is met again;
//! - [`Nimbers::nimber`]: the whole nimber, its heaviest part by aspiration sets (is it 0? each
//!   option asked only that; then 1, …), the others by the pruned search;
//! - [`Nimbers::part_nimber`]: every option's nimber computed, on an explicit stack: where the
//!   pruned search would recurse too deep for the thread's stack, or a part has more moves
//!   than the candidate sets hold (256);
//! - [`Nimbers::par_nimber`]: the whole nimber on the current rayon pool: the aspiration sets'
//!   question for each candidate (has an option this nimber?) is asked of the heaviest part's
//!   options at once, each option searched by a worker of its own, and every part's nimber any
//!   worker finds goes to one table they share ([`par_solve`]).
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

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use hashbrown::HashMap;

use crate::engines::kernel::{CHECK_EVERY, Limits, Stats};
use crate::error::SolveError;
use crate::game::{Game, Impartial, Nimber};
use crate::memo::FastHashBuilder;

mod journal;
mod search;
mod set;
mod solution;

pub use journal::Journal;
pub use solution::{
    NimberSolution, par_solve, par_solve_at, par_solve_saving, solve, solve_at, solve_saving,
};

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

/// The parts' nimbers that the workers of a parallel search share (exact nimbers only: a
/// worker's marks of the parts it is computing stay in its own table).
type Shared<S> = Arc<DashMap<S, Nimber, FastHashBuilder>>;

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

/// What `table` (and `shared`, in a parallel search) and the game know of `part`'s nimber. The
/// table first: most parts met are stored ones, and a part the game knows is never stored (nor
/// marked in progress), so the order changes no answer.
#[inline]
fn look_up<G: Impartial>(
    game: &G,
    table: &HashMap<G::State, Nimber, FastHashBuilder>,
    shared: Option<&Shared<G::State>>,
    resumed: Option<&Arc<journal::Resumed>>,
    part: &G::State,
) -> Lookup
where
    G::State: Eq + std::hash::Hash,
{
    match table.get(part) {
        Some(&IN_PROGRESS) => return Lookup::InProgress,
        Some(&nimber) => return Lookup::Known(nimber),
        None => {}
    }
    if let Some(nimber) = game.known_nimber(part) {
        return Lookup::Known(nimber);
    }
    if let Some(nimber) = shared.and_then(|shared| shared.get(part)) {
        return Lookup::Known(*nimber);
    }
    // The nimbers a resumed journal holds, by the part's key.
    match resumed.and_then(|resumed| resumed.get(&game.part_key(part)?)) {
        Some(&nimber) => Lookup::Known(nimber),
        None => Lookup::Missing,
    }
}

/// A search's share of a [`Journal`]: the file (shared by the workers of a parallel search)
/// and the nimbers found since this search last wrote.
struct Saving {
    writer: Arc<Mutex<journal::Writer>>,
    every: Duration,
    fresh: Vec<(u128, Nimber)>,
    written: Instant,
}

impl Saving {
    /// Appends the nimbers found since the last write.
    fn write(&mut self) -> Result<(), SolveError> {
        let mut writer = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        writer.append(&self.fresh)?;
        self.fresh.clear();
        self.written = Instant::now();
        Ok(())
    }
}

/// The nimber engine: a table of parts' nimbers, and the searches that fill it.
pub struct Nimbers<'g, G: Impartial> {
    game: &'g G,
    /// The parts' nimbers; with `shared`, only the marks of the parts being computed.
    table: HashMap<G::State, Nimber, FastHashBuilder>,
    /// In a parallel search, the nimbers every worker has found (and this engine stores).
    shared: Option<Shared<G::State>>,
    /// The nimbers read back from a resumed journal, by the parts' keys.
    resumed: Option<Arc<journal::Resumed>>,
    /// The journal this search appends to.
    saving: Option<Saving>,
    frames: Vec<Frame<G>>,
    /// The buffers of the pruned searches' options, kept for the next search.
    spare: Vec<search::Opened<G::Move, G::State>>,
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
            shared: None,
            resumed: None,
            saving: None,
            frames: Vec::new(),
            spare: Vec::new(),
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

    /// The table shared with the workers of a parallel search (made the first time).
    fn shared(&mut self) -> &Shared<G::State> {
        self.shared
            .get_or_insert_with(|| Arc::new(DashMap::with_hasher(FastHashBuilder::default())))
    }

    /// A worker of a parallel search: the same game, limits and clock, its own table of marks,
    /// and the shared table of nimbers.
    fn worker(&mut self) -> Self {
        Nimbers {
            game: self.game,
            table: HashMap::default(),
            shared: Some(self.shared().clone()),
            resumed: self.resumed.clone(),
            saving: self.saving.as_ref().map(|saving| Saving {
                writer: saving.writer.clone(),
                every: saving.every,
                fresh: Vec::new(),
                written: Instant::now(),
            }),
            frames: Vec::new(),
            spare: Vec::new(),
            open: 0,
            limits: self.limits,
            deadline: self.deadline,
            stats: Stats::default(),
            started: self.started,
        }
    }

    /// Moves this engine's nimbers into the shared table, for workers to read (the marks of
    /// parts being computed stay).
    fn share(&mut self) {
        let shared = self.shared().clone();
        for (part, nimber) in self
            .table
            .extract_if(|_, &mut nimber| nimber != IN_PROGRESS)
        {
            shared.insert(part, nimber);
        }
    }

    /// After a parallel search: the shared table's nimbers back in this engine's own table (a
    /// hash map read without locks), where the memory allows it; else the shared table stays.
    fn unshare(&mut self) {
        let Some(shared) = self.shared.take() else {
            return;
        };
        let shared = match Arc::try_unwrap(shared) {
            Ok(shared) => shared,
            Err(still) => {
                self.shared = Some(still);
                return;
            }
        };
        let entry = size_of::<(G::State, Nimber)>() as u64 + 1;
        let needed = (shared.len() as u64)
            .saturating_mul(entry)
            .saturating_mul(2);
        if needed > self.limits.memory_budget || self.table.try_reserve(shared.len()).is_err() {
            self.shared = Some(Arc::new(shared));
            return;
        }
        self.table.extend(shared);
    }

    /// What the searches did so far (`stored`: parts' nimbers in the table).
    pub fn stats(&self) -> Stats {
        let shared = self.shared.as_ref().map_or(0, |shared| shared.len());
        Stats {
            stored: self.table.len() + shared,
            elapsed: self.started.elapsed(),
            ..self.stats
        }
    }

    /// What is known of `part`'s nimber, without searching.
    #[inline]
    fn lookup(&self, part: &G::State) -> Lookup {
        look_up(
            self.game,
            &self.table,
            self.shared.as_ref(),
            self.resumed.as_ref(),
            part,
        )
    }

    /// The parts of `state`, less any two equal ones (their nimbers cancel).
    pub fn parts(&self, state: &G::State) -> Vec<G::State> {
        let mut parts = Vec::new();
        self.game.split(state, &mut parts);
        cancel_pairs(&mut parts, 0);
        parts
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

    /// The time limit and the memory budget, every [`CHECK_EVERY`] parts searched.
    fn check_now(&mut self) -> Result<(), SolveError> {
        if self.stats.expanded.is_multiple_of(CHECK_EVERY as u64) {
            self.check()?;
        }
        Ok(())
    }

    /// Stores `part`'s nimber (in the shared table, in a parallel search).
    fn store(&mut self, part: G::State, nimber: Nimber) -> Result<(), SolveError> {
        if let Some(saving) = &mut self.saving
            && let Some(key) = self.game.part_key(&part)
        {
            saving.fresh.push((key, nimber));
        }
        if let Some(shared) = &self.shared {
            // The limits are checked by parts searched (`check_now`): the shared table's
            // length takes a lock on each of its shards.
            self.table.remove(&part);
            shared.insert(part, nimber);
            return Ok(());
        }
        if self.table.len() == self.table.capacity() {
            self.grow()?;
        }
        self.table.insert(part, nimber);
        if self.table.len().is_multiple_of(CHECK_EVERY) {
            self.check()?;
        }
        Ok(())
    }

    /// The bytes the tables hold, about: the shared table's (counted by every worker) as twice
    /// its length, the room a table that doubles as it grows may hold.
    fn bytes(&self) -> u64 {
        let entry = size_of::<(G::State, Nimber)>() as u64 + 1;
        let shared = self.shared.as_ref().map_or(0, |shared| shared.len()) as u64;
        let resumed = self
            .resumed
            .as_ref()
            .map_or(0, |resumed| resumed.capacity()) as u64;
        let fresh = self
            .saving
            .as_ref()
            .map_or(0, |saving| saving.fresh.capacity()) as u64;
        (self.table.capacity() as u64)
            .saturating_add(shared.saturating_mul(2))
            .saturating_mul(entry)
            .saturating_add(resumed.saturating_mul(size_of::<(u128, Nimber)>() as u64 + 1))
            .saturating_add(fresh.saturating_mul(size_of::<(u128, Nimber)>() as u64))
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

    /// The time limit and the memory budget.
    fn check(&mut self) -> Result<(), SolveError> {
        if let (Some(deadline), Some(limit)) = (self.deadline, self.limits.time_limit)
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} parts' nimbers stored", self.stats().stored),
            });
        }
        let bytes = self.bytes();
        if bytes > self.limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: format!("the table of {} parts' nimbers", self.stats().stored),
                needed: bytes,
                budget: self.limits.memory_budget,
            });
        }
        if let Some(progress) = self.limits.progress {
            progress.record(self.stats().stored as u64, bytes);
        }
        if let Some(saving) = &mut self.saving
            && saving.written.elapsed() >= saving.every
        {
            saving.write()?;
        }
        Ok(())
    }

    /// Saves the nimbers this engine finds to `journal` (appended every
    /// [`every`](Journal::every), and by [`save_now`](Nimbers::save_now)); where `journal`
    /// resumes, the nimbers its file holds are read back first and answer for their parts.
    /// Returns how many were read back. The game gives its parts keys
    /// ([`Impartial::part_key`]), else the journal is refused.
    pub fn save_to(&mut self, journal: &Journal) -> Result<usize, SolveError> {
        if self.game.part_key(&self.game.start()).is_none() {
            return Err(SolveError::Unsupported(
                "a journal of parts' nimbers keeps each part by its key, and this game gives \
                 none (Impartial::part_key)"
                    .into(),
            ));
        }
        let (writer, resumed) = journal.open(self.limits.memory_budget)?;
        let read = resumed.len();
        if read > 0 {
            self.resumed = Some(Arc::new(resumed));
        }
        self.saving = Some(Saving {
            writer: Arc::new(Mutex::new(writer)),
            every: journal.every,
            fresh: Vec::new(),
            written: Instant::now(),
        });
        self.check()?;
        Ok(read)
    }

    /// Appends to the journal every nimber found since its last write (nothing without a
    /// journal).
    pub fn save_now(&mut self) -> Result<(), SolveError> {
        match &mut self.saving {
            Some(saving) => saving.write(),
            None => Ok(()),
        }
    }

    /// Appends what is left and stops saving: the journal's file is closed.
    pub fn stop_saving(&mut self) -> Result<(), SolveError> {
        let result = self.save_now();
        self.saving = None;
        result
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
                shared,
                resumed,
                frames,
                stats,
                ..
            } = self;
            let frame = &mut frames[depth - 1];
            if frame.reading {
                // Read the option's parts; open the first whose nimber is not known.
                while frame.part_at < frame.parts.len() {
                    let part = &frame.parts[frame.part_at];
                    match look_up(*game, table, shared.as_ref(), resumed.as_ref(), part) {
                        Lookup::InProgress => return Err(cycle(depth)),
                        Lookup::Known(nimber) => {
                            stats.hits += 1;
                            frame.xor ^= nimber;
                            frame.part_at += 1;
                        }
                        Lookup::Missing => break,
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

/// Removes from `parts[from..]` every two equal parts: a part added to itself is worth 0.
fn cancel_pairs<S: PartialEq>(parts: &mut Vec<S>, from: usize) {
    let mut at = from;
    while at < parts.len() {
        match (at + 1..parts.len()).find(|&other| parts[other] == parts[at]) {
            Some(other) => {
                parts.swap_remove(other);
                parts.swap_remove(at);
            }
            None => at += 1,
        }
    }
}

/// A part met again below itself.
fn cycle(depth: usize) -> SolveError {
    SolveError::InvalidGame(format!(
        "the game declares itself impartial, but a line of play {depth} parts deep returns to a \
         part still being valued: an impartial game's play must end"
    ))
}
