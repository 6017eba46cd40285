//! The run guard: what every search must respect besides its table (the memory budget, the
//! time limit, cancellation, the stacks of the workers that share an account), checked every
//! [`CHECK_EVERY`] stores.

use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Limits, Progress};
use crate::error::{Bytes, SolveError};

/// How many stores pass between two checks of the memory budget (every engine's search).
pub(crate) const CHECK_EVERY: usize = 1024;

/// How many frames (and moves) a search keeps room for between two searches.
pub(crate) const KEPT_FRAMES: usize = 4096;

/// The heap bytes a vector's buffer holds. (Each buffer is counted on its own: a vector of a
/// zero-sized type has a capacity of `usize::MAX` and no bytes.)
#[inline]
pub(crate) fn buffer_bytes<T>(buffer: &Vec<T>) -> u64 {
    (buffer.capacity() * size_of::<T>()) as u64
}

/// What a search must respect besides its table: the memory budget, the time limit (as a
/// deadline, with the limit for the message), (for parallel helpers) a flag that says
/// another search has already found the value, and (for parallel workers) the account of every
/// worker's stack bytes, so that the budget caps their total, not each one alone.
#[derive(Clone, Copy)]
pub(crate) struct RunGuard<'a> {
    pub(crate) budget: u64,
    pub(crate) deadline: Option<(Instant, Duration)>,
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) stacks: Option<&'a AtomicU64>,
    /// How many searches share `stacks` (at most: the current rayon pool's threads).
    pub(crate) workers: u64,
    /// Stop with `SolveError::Cancelled` after about this many stores (a trial run).
    pub(crate) stores: Option<usize>,
    /// This search's lane in the plan's race: it stops with `SolveError::Cancelled` once its
    /// work reaches the lane's line, and keeps pace with the other engine.
    pub(crate) race: Option<Lane<'a>>,
    /// Where each check publishes the table's size and the bytes held.
    pub(crate) progress: Option<&'static Progress>,
}

/// How far (in work, as weighed: a few thousand states) an engine of the plan's race may run
/// ahead of the other before it waits for it.
const PACE_SLACK: u64 = 1 << 14;

/// One engine's lane in the plan's race (src/engines/solver/sample.rs): where it must stop,
/// and, where the two engines run side by side, its count and the other's, so that neither
/// runs further ahead of the other than [`PACE_SLACK`].
///
/// The race ends when each engine has either finished or reached the line the other's finish
/// drew (its work, weighed), so whatever one does ahead of the other the other must match
/// before the race ends: an engine that waits there loses no time on cores of its own, and
/// leaves a shared core (two threads on one physical core, a busy machine) to the engine that
/// is behind. The outcome depends on counts alone, never on the wait.
#[derive(Clone, Copy)]
pub(crate) struct Lane<'a> {
    /// Stop once the work (states expanded and table hits) reaches this (the other engine
    /// lowers it when it finishes).
    pub(crate) line: &'a AtomicU64,
    /// Where this engine publishes its work, weighed: `u64::MAX` once it has stopped.
    pub(crate) mine: &'a AtomicU64,
    /// The other engine's work, weighed, where the two run side by side; `None` where they
    /// run one after the other.
    pub(crate) other: Option<&'a AtomicU64>,
    /// This engine's work is weighed as `work * weight.0 / weight.1`.
    pub(crate) weight: (u64, u64),
}

impl Lane<'_> {
    /// Whether a search that has done `done` work has reached its line; first, where it has
    /// run more than [`PACE_SLACK`] ahead of the other engine, it waits for the other to catch
    /// up, finish or stop.
    fn over(self, done: u64) -> bool {
        let line = || done >= self.line.load(Ordering::Relaxed);
        let Some(other) = self.other else {
            return line();
        };
        let weighed = done.saturating_mul(self.weight.0) / self.weight.1.max(1);
        self.mine.store(weighed, Ordering::Relaxed);
        while !line() && weighed > other.load(Ordering::Relaxed).saturating_add(PACE_SLACK) {
            std::thread::sleep(Duration::from_micros(20));
        }
        line()
    }
}

impl<'a> RunGuard<'a> {
    /// The guard of a search starting now under `limits`.
    pub(crate) fn new(limits: Limits, cancel: Option<&'a AtomicBool>) -> Self {
        RunGuard {
            budget: limits.memory_budget,
            deadline: limits
                .time_limit
                .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit))),
            cancel,
            stacks: None,
            workers: 1,
            stores: None,
            race: None,
            progress: limits.progress,
        }
    }

    /// The same guard, with the stacks of every search that shares `stacks` (one on each
    /// thread of the current rayon pool) counted together.
    pub(crate) fn sharing(self, stacks: &'a AtomicU64) -> Self {
        RunGuard {
            stacks: Some(stacks),
            workers: rayon::current_num_threads() as u64,
            ..self
        }
    }

    /// Reports that this search's stack now holds `now` bytes (it last reported `*reported`);
    /// returns the stack bytes of every search sharing the account (just `now` without one).
    ///
    /// Searches that share an account search one game and reach similar depths, so the total
    /// is at least this one's stack times their number: a search that dives ahead (natively,
    /// with no check until its stack grows) is refused before the others catch up with it,
    /// not after. (Counting only what the others last reported let one worker of 16 reach a
    /// 10 MiB stack while the account held 8 MiB in all.)
    pub(crate) fn stack_total(self, reported: &mut u64, now: u64) -> u64 {
        let Some(stacks) = self.stacks else {
            return now;
        };
        let before = std::mem::replace(reported, now);
        let total = if now >= before {
            stacks.fetch_add(now - before, Ordering::Relaxed) + (now - before)
        } else {
            stacks.fetch_sub(before - now, Ordering::Relaxed) - (before - now)
        };
        total.max(now.saturating_mul(self.workers))
    }

    /// Takes this search's stack out of the shared account (its search has returned).
    pub(crate) fn release(self, reported: &mut u64) {
        self.stack_total(reported, 0);
    }

    /// Whether a trial run that has expanded `states` states (or stored them: the count may
    /// not pass the states expanded) and done `work` (those and its table hits) is over: past
    /// its cap of stores, or past the line its race has drawn (in work).
    #[inline]
    pub(crate) fn trial_over(self, states: u64, work: u64) -> bool {
        self.stores.is_some_and(|most| states >= most as u64)
            || self.race.is_some_and(|lane| lane.over(work))
    }

    /// `Err(SolveError::Cancelled)` once the search's cancel flag is raised.
    #[inline]
    pub(crate) fn cancelled(self) -> Result<(), SolveError> {
        if self
            .cancel
            .is_some_and(|cancel| cancel.load(Ordering::Relaxed))
        {
            Err(SolveError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Errors if the search was cancelled, or if a table whose coming peak is `table_bytes`
    /// plus the stacks (this search's `stack_bytes`, reported to the shared account through
    /// `reported`, and the others') would exceed the budget. A stack may double at its next
    /// push: the old and the new buffers are both counted, and a third for slack.
    pub(crate) fn check(
        self,
        table_bytes: u64,
        reported: &mut u64,
        stack_bytes: u64,
        kind: &str,
        entries: usize,
        depth: usize,
    ) -> Result<(), SolveError> {
        let stack_bytes = self.stack_total(reported, stack_bytes);
        if let Some(progress) = self.progress {
            progress.record(entries as u64, table_bytes.saturating_add(stack_bytes));
        }
        self.cancelled()?;
        if let Some(progress) = self.progress {
            progress.go_on()?;
        }
        if let Some((deadline, limit)) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{entries} states in the {kind} table, {depth} deep"),
            });
        }
        let needed = table_bytes.saturating_add(stack_bytes.saturating_mul(3));
        if needed > self.budget {
            return Err(SolveError::MemoryBudget {
                what: format!(
                    "the search ({kind} table of {entries} states, {}; stack {depth} states deep)",
                    Bytes(table_bytes)
                ),
                needed,
                budget: self.budget,
            });
        }
        Ok(())
    }
}
