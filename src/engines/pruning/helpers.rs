//! The helpers of a parallel pruner: one job on every other worker of the pool, for as long as
//! a session of queries lasts ([`Pruner::par_session`](super::Pruner::par_session)).
//!
//! A helper takes the moves its query's searching worker shares ([`Team`]) until the query is
//! over, then waits for the next query *spinning*: a batch's positions come microseconds
//! apart, and a worker that rayon had put to sleep took up to milliseconds to wake (the system
//! may queue the woken thread behind the one that woke it), longer than most positions take.
//! A helper that has waited [`SPIN_FOR`] parks until the next query or the session's end.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::search::Search;
use super::split_points::{Team, pause};
use crate::engines::kernel::{RangeSource, RunGuard, Stats};
use crate::game::Game;
use crate::memo::ConcurrentBoundTable;

/// How long a helper spins for the next query before it parks.
const SPIN_FOR: Duration = Duration::from_millis(2);

/// One query for the helpers: its team, its table (a handle the helper holds while it helps)
/// and range source, and its guard's limits and clock.
pub(crate) struct Query<G: Game, H, R> {
    pub(crate) team: Arc<Team<G>>,
    pub(crate) table: H,
    pub(crate) range: R,
    /// The query's guard (budget, deadline, progress) without its shared parts, which each
    /// helper adds: the team's stop flag and stack account.
    pub(crate) guard: RunGuard<'static>,
}

/// The helpers of a session, and the query they are to join.
pub(crate) struct Crew<G: Game, H, R> {
    /// The query under way (none between queries).
    query: Mutex<Option<Arc<Query<G, H, R>>>>,
    /// Bumped at each query posted: spinning helpers watch it.
    posted: AtomicU64,
    /// Raised when the session ends: every helper returns.
    dismissed: AtomicBool,
    /// Helpers parked on `bell`.
    parked: AtomicUsize,
    bell: Condvar,
    /// What the helpers' searches did, added as each returns.
    stats: Mutex<Stats>,
}

impl<G: Game, H, R> Default for Crew<G, H, R> {
    fn default() -> Self {
        Crew {
            query: Mutex::new(None),
            posted: AtomicU64::new(0),
            dismissed: AtomicBool::new(false),
            parked: AtomicUsize::new(0),
            bell: Condvar::new(),
            stats: Mutex::new(Stats::default()),
        }
    }
}

/// `mutex`'s data, even if a thread panicked while holding it (every update is a whole
/// assignment: the data is consistent; the panic itself is re-raised by rayon).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<G: Game, H, R> Crew<G, H, R> {
    /// Hands `query` to the helpers (it replaces the last one, which is over).
    pub(crate) fn post(&self, query: Query<G, H, R>) {
        *lock(&self.query) = Some(Arc::new(query));
        // Sequentially consistent with the parking helper's two steps, so that either it sees
        // this query or this sees it parked.
        self.posted.fetch_add(1, Ordering::SeqCst);
        if self.parked.load(Ordering::SeqCst) > 0 {
            let _held = lock(&self.query);
            self.bell.notify_all();
        }
    }

    /// Forgets the query (it is over): a helper that comes late does not hold its table.
    pub(crate) fn clear(&self) {
        *lock(&self.query) = None;
    }

    /// Ends the session: every helper returns once its query is over.
    pub(crate) fn dismiss(&self) {
        self.dismissed.store(true, Ordering::SeqCst);
        let _held = lock(&self.query);
        self.bell.notify_all();
    }

    /// What the helpers' searches did.
    pub(crate) fn stats(&self) -> Stats {
        *lock(&self.stats)
    }

    /// The next query after the one numbered `seen`, or `None` once dismissed.
    fn next(&self, seen: &mut u64) -> Option<Arc<Query<G, H, R>>> {
        let mut spins = 0u32;
        let since = Instant::now();
        loop {
            if self.dismissed.load(Ordering::Acquire) {
                return None;
            }
            let posted = self.posted.load(Ordering::Acquire);
            if posted != *seen {
                *seen = posted;
                // `None`: the query was over before this helper looked; wait for the next.
                if let Some(query) = lock(&self.query).clone() {
                    return Some(query);
                }
            }
            pause(&mut spins);
            if spins.is_multiple_of(64) && since.elapsed() >= SPIN_FOR {
                let mut held = lock(&self.query);
                self.parked.fetch_add(1, Ordering::SeqCst);
                while !self.dismissed.load(Ordering::SeqCst)
                    && self.posted.load(Ordering::SeqCst) == *seen
                {
                    held = self
                        .bell
                        .wait(held)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
                self.parked.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
}

/// A helper of a session: helps each query posted to `crew` until it is dismissed.
pub(crate) fn serve<G, H, T, R>(crew: &Crew<G, H, R>, game: &G)
where
    G: Game,
    H: std::ops::Deref<Target = T>,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    let mut stats = Stats::default();
    let mut seen = 0;
    while let Some(query) = crew.next(&mut seen) {
        let team = &query.team;
        let guard = RunGuard {
            cancel: Some(&team.over),
            ..query.guard
        }
        .sharing(&team.stacks);
        stats += help_until_over(team, game, &*query.table, &query.range, guard);
    }
    *lock(&crew.stats) += stats;
}

/// Takes moves that the query's searching worker shares until the query is over; what the
/// searches did. An error ends the query (the driver returns it).
fn help_until_over<G, T, R>(
    team: &Arc<Team<G>>,
    game: &G,
    table: &T,
    range: &R,
    guard: RunGuard<'_>,
) -> Stats
where
    G: Game,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    let mut search = Search::on_team(Arc::clone(team));
    let mut stats = Stats::default();
    let going = || Ok(!team.is_over());
    let helped = search.help_while(
        team,
        None,
        going,
        game,
        &mut &*table,
        range,
        &mut stats,
        guard,
    );
    if let Err(error) = helped {
        team.fail(error);
    }
    stats
}
