//! What a solve did: [`Stats`], and how the figures of searches run side by side add up.

use std::ops::AddAssign;
use std::time::Duration;

/// What a solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// States stored in the memo table (read from the table when [`Solution::stats`](crate::engines::exhaustive::Solution::stats) is asked).
    pub stored: usize,
    /// States whose moves were enumerated and searched.
    pub expanded: u64,
    /// Lookups answered by the memo table.
    pub hits: u64,
    /// States valued by [`Game::known_value`](crate::Game::known_value) without search.
    pub known: u64,
    /// States with no move reached (valued by [`Game::payoff`](crate::Game::payoff)).
    pub terminal: u64,
    /// States passed through by their [forced move](crate::Game::forced_move) (the pruning
    /// engine neither expands nor stores them).
    pub forced: u64,
    /// The deepest the search stack went, in states.
    pub max_depth: usize,
    /// Wall-clock time spent searching (including later queries on the [`Solution`](crate::engines::exhaustive::Solution)).
    pub elapsed: Duration,
}

/// Adds the work of another search of the same solve (a parallel worker's, a helper's): the
/// counts of states expanded, table hits, known and terminal states add up; the depth, the
/// states stored and the time are the larger of the two, because searches that run side by
/// side share one table and one clock.
///
/// ```
/// use gamesolver::engines::Stats;
///
/// let mut total = Stats { expanded: 5, hits: 2, max_depth: 3, ..Stats::default() };
/// total += Stats { expanded: 4, known: 1, max_depth: 7, ..Stats::default() };
/// assert_eq!((total.expanded, total.hits, total.known, total.max_depth), (9, 2, 1, 7));
/// ```
impl AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.expanded += other.expanded;
        self.hits += other.hits;
        self.known += other.known;
        self.terminal += other.terminal;
        self.forced += other.forced;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.stored = self.stored.max(other.stored);
        self.elapsed = self.elapsed.max(other.elapsed);
    }
}
