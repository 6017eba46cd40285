//! LeetCode 1140, "Stone Game II".
//!
//! Piles stand in a row. Alice and Bob alternate, Alice first, starting with `M = 1`. The
//! player to move takes all the stones of the first `X` remaining piles, `1 ≤ X ≤ 2M`, and then
//! `M = max(M, X)`. The game ends when no pile is left. The answer is the most stones Alice can
//! get when both play optimally.
//!
//! As a [`Game`]: the state is `(next pile, M)`, a move is `X`, its gain the stones taken. The
//! engine's value `v` is Alice's stones minus Bob's, so Alice gets `(total + v) / 2`. When
//! `2M` covers every pile left, the mover takes them all: the game says so through
//! [`Game::known_value`], which spares the engine most of the states.

use std::collections::VecDeque;
use std::mem::size_of;
use std::time::Instant;

/// How the command line and the page read Stone Game II.
#[cfg(feature = "cli")]
pub(super) mod cli;

use crate::Limits;
use crate::error::{InputError, SolveError};
use crate::game::{Capabilities, Declares, DenseIndex, Game, Player, Score, Step, Turn};
use crate::memo::prefetch;

const NAME: &str = "Stone Game II";

/// A validated Stone Game II instance: at least one pile, every pile positive, total in `i64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGameII {
    piles: Vec<i64>,
    /// `suffix[i]` = stones in piles `i..`; `suffix[n] = 0`.
    suffix: Vec<i64>,
}

/// A Stone Game II position: the index of the next pile to take (from 0) and `M`.
///
/// Built by [`StoneGameII::state`] (checked) or by playing moves, so `M ≥ 1` and the pile index
/// is at most the number of piles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StoneGameIIState {
    next: u32,
    m: u32,
}

impl StoneGameIIState {
    /// The index (from 0) of the first pile not yet taken.
    pub fn next(self) -> usize {
        self.next as usize
    }

    /// The current `M`: the mover may take 1 to `2M` piles.
    pub fn m(self) -> usize {
        self.m as usize
    }
}

/// One move of the optimal line, in the problem's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoneGameIITake {
    /// Who takes.
    pub player: Player,
    /// The first pile taken, counted from 1.
    pub first_pile: usize,
    /// How many piles are taken (`X`).
    pub piles: usize,
    /// The stones in them.
    pub stones: i64,
    /// `M` before the move.
    pub m_before: usize,
    /// The most piles the mover could take: `min(2M, piles left)`.
    pub max_piles: usize,
    /// `M` after the move: `max(M, X)`.
    pub m_after: usize,
}

impl StoneGameII {
    /// Checks the piles: at least one, each positive, their total within `i64`.
    ///
    /// ```
    /// use gamesolver::{games::StoneGameII, InputError};
    ///
    /// assert!(StoneGameII::new(vec![2, 7, 9, 4, 4]).is_ok());
    /// assert!(matches!(StoneGameII::new(vec![]), Err(InputError::TooFew { .. })));
    /// assert_eq!(
    ///     StoneGameII::new(vec![3, 0, 1]).unwrap_err().to_string(),
    ///     "pile 2 is 0, but piles must be positive integers"
    /// );
    /// assert!(matches!(StoneGameII::new(vec![i64::MAX, 1]), Err(InputError::TotalOverflow { .. })));
    /// ```
    pub fn new(piles: Vec<i64>) -> Result<Self, InputError> {
        super::check_count(NAME, "pile", "piles", piles.len(), 1)?;
        super::check_positive(&piles, "pile", "piles must be positive integers")?;
        // Find an overflow from the left, where a reader counts; then every suffix sum fits.
        let mut total = 0i64;
        for (index, &pile) in piles.iter().enumerate() {
            total = total.checked_add(pile).ok_or(InputError::TotalOverflow {
                what: "the total of the piles",
                unit: "pile",
                position: index + 1,
            })?;
        }
        let mut suffix = vec![0i64; piles.len() + 1];
        for index in (0..piles.len()).rev() {
            suffix[index] = suffix[index + 1] + piles[index];
        }
        Ok(StoneGameII { piles, suffix })
    }

    /// The piles.
    pub fn piles(&self) -> &[i64] {
        &self.piles
    }

    /// The stones in all piles.
    pub fn total(&self) -> i64 {
        self.suffix[0]
    }

    /// The stones in piles `next..` (0 for `next` past the end).
    pub fn stones_from(&self, next: usize) -> i64 {
        self.suffix.get(next).copied().unwrap_or(0)
    }

    /// The position with pile `next` (from 0) to take next and the given `M`.
    ///
    /// ```
    /// use gamesolver::games::StoneGameII;
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9]).unwrap();
    /// assert_eq!(game.state(1, 2).unwrap().m(), 2);
    /// assert!(game.state(4, 1).is_err());
    /// assert!(game.state(0, 0).is_err());
    /// ```
    pub fn state(&self, next: usize, m: usize) -> Result<StoneGameIIState, InputError> {
        if next > self.piles.len() {
            return Err(InputError::InvalidState(format!(
                "pile index {next} is past the {} piles",
                self.piles.len()
            )));
        }
        if m == 0 {
            return Err(InputError::InvalidState("M must be at least 1".into()));
        }
        Ok(StoneGameIIState {
            next: next as u32,
            // Any M of at least n lets the mover take everything: clamp it to fit u32.
            m: m.min(self.piles.len()).max(1) as u32,
        })
    }

    /// The start: pile 0, `M = 1`.
    pub fn start_state(&self) -> StoneGameIIState {
        StoneGameIIState { next: 0, m: 1 }
    }

    /// The most stones Alice gets, from the engine's value (Alice's stones − Bob's).
    ///
    /// ```
    /// use gamesolver::games::StoneGameII;
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// assert_eq!(game.alice_stones(-6), 10);
    /// ```
    pub fn alice_stones(&self, value: Score) -> i64 {
        // total + value = 2 × Alice's stones ≤ 2 × total: do it in i128 so it cannot overflow.
        ((i128::from(self.total()) + i128::from(value)) / 2) as i64
    }

    /// Rewrites the engine's line of play in the problem's terms.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable};
    ///
    /// let game = StoneGameII::new(vec![1, 2, 3, 4, 5, 100]).unwrap();
    /// let mut solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// let takes = game.describe(&solution.line().unwrap());
    /// let alice: i64 = takes.iter().filter(|t| t.player.is_first()).map(|t| t.stones).sum();
    /// assert_eq!(alice, 104);
    /// ```
    pub fn describe(&self, line: &[crate::engines::Ply<Self>]) -> Vec<StoneGameIITake> {
        line.iter()
            .map(|ply| StoneGameIITake {
                player: ply.player,
                first_pile: ply.state.next() + 1,
                piles: ply.mv as usize,
                stones: ply.gain,
                m_before: ply.state.m(),
                max_piles: (2 * ply.state.m()).min(self.piles.len() - ply.state.next()),
                m_after: ply.state.m().max(ply.mv as usize),
            })
            .collect()
    }
}

impl Game for StoneGameII {
    type State = StoneGameIIState;
    /// `X`, the number of piles taken.
    type Move = u32;

    fn start(&self) -> StoneGameIIState {
        self.start_state()
    }

    #[inline]
    fn moves(&self, state: &StoneGameIIState) -> impl Iterator<Item = u32> {
        let left = self.piles.len() as u32 - state.next;
        1..=left.min(state.m.saturating_mul(2))
    }

    #[inline]
    fn play(&self, state: &StoneGameIIState, take: &u32) -> Step<StoneGameIIState> {
        let next = state.next + take;
        Step {
            next: StoneGameIIState {
                next,
                m: state.m.max(*take),
            },
            gain: self.suffix[state.next as usize] - self.suffix[next as usize],
            turn: Turn::Pass,
        }
    }

    fn payoff(&self, _state: &StoneGameIIState) -> Score {
        0
    }

    #[inline]
    fn known_value(&self, state: &StoneGameIIState) -> Option<Score> {
        let left = self.piles.len() as u64 - u64::from(state.next);
        (2 * u64::from(state.m) >= left).then(|| self.suffix[state.next as usize])
    }

    /// States reachable from the start with `2M` short of the piles left: `M ≤ max(1, next)`
    /// (M is the largest single take so far) and `2M < n − next`.
    fn state_bound(&self) -> Option<u64> {
        let n = self.piles.len() as u64;
        Some((0..n).map(|next| next.max(1).min((n - next - 1) / 2)).sum())
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

/// Every position with `r = n − next` piles left and `1 ≤ M ≤ (r − 1) / 2` (the states
/// without a known value) gets its own slot, column by column: column `M` holds `r` from
/// `2M + 1` to `n` and starts at `Σ_{M' < M} (n − 2M') = (M − 1)·n − (M − 1)·M`.
///
/// Column-major order puts the children `(next + x, M)` for `x ≤ M` of a state in adjacent
/// slots, so most of a state's lookups share cache lines. The map covers all such positions,
/// reachable or not, so a query on any state stays exact.
impl DenseIndex for StoneGameII {
    fn index_len(&self) -> usize {
        column_start(self.piles.len(), (self.piles.len() - 1) / 2 + 1)
    }

    #[inline]
    fn index(&self, state: &StoneGameIIState) -> usize {
        let n = self.piles.len();
        let left = n - state.next as usize;
        let m = state.m as usize;
        column_start(n, m) + left - 2 * m - 1
    }
}

/// Where column `m` begins for `n` piles: `(m − 1)·n − (m − 1)·m`.
#[inline]
fn column_start(n: usize, m: usize) -> usize {
    (m - 1) * (n - m)
}

/// The specialised O(n²) solver's result: the answer, and a table from which the optimal line
/// is read.
///
/// Built by [`solve_stone_game_ii`].
#[derive(Debug, Clone)]
pub struct StoneGameIIFast<'a> {
    game: &'a StoneGameII,
    table: FastTable,
    /// `f(0, 1)`: the most stones Alice can get.
    alice: i64,
}

/// The values `f(next, M)` of every state with `M ≤ next` and `2M < piles left` (the states
/// without a known value that the start can reach), by diagonal `d = next − M`: since
/// `2M < n − next` is `3M < n − d`, diagonal `d` holds `M = 1 ..= ⌊(n − d − 1) / 3⌋`, from
/// `offsets[d]` on.
/// Values fit the narrowest width that holds the total of the piles.
#[derive(Debug, Clone)]
enum FastTable {
    Narrow(Vec<i32>, Vec<usize>),
    Wide(Vec<i64>, Vec<usize>),
}

/// Solves Stone Game II exactly in O(n²) time with the sliding-window recurrence, within
/// `limits.memory_budget`.
///
/// With `f(i, m)` the most stones the mover can get from pile `i` with `M = m`:
/// `f(i, m) = suffix[i]` when `2m ≥ n − i`, else
/// `f(i, m) = suffix[i] − min(min_{1≤x≤m} f(i+x, m), min_{m<x≤2m} f(i+x, x))`.
/// The first minimum is a window sliding down column `m` (one monotone deque per column); the
/// second reads diagonal `i` of the table in order (one monotone deque per row). Only states with
/// `m ≤ i` and `2m < n − i` are stored (≈ n²/6); the rest are either unreachable or known to
/// be `suffix[i]`, and a window's known part is its last suffix sum, since piles are positive.
/// See docs/stone-game-ii-fast.md for the derivation and a worked example.
///
/// ```
/// use gamesolver::{games::{solve_stone_game_ii, StoneGameII}, Limits};
///
/// let game = StoneGameII::new(vec![1, 2, 3, 4, 5, 100]).unwrap();
/// let solution = solve_stone_game_ii(&game, Limits::default()).unwrap();
/// assert_eq!(solution.alice_stones(), 104);
/// assert_eq!(solution.line().len(), 5);
/// ```
pub fn solve_stone_game_ii(
    game: &StoneGameII,
    limits: Limits,
) -> Result<StoneGameIIFast<'_>, SolveError> {
    let n = game.piles.len();
    let states = fast_states(n);
    let narrow = i32::try_from(game.total()).is_ok();
    let width = if narrow { 4 } else { 8 };
    // The table, the per-column deques (usually short; bounded by their window) and the
    // diagonal offsets.
    // The table, the diagonal offsets, the narrowed suffix sums, the row's window and the
    // columns' deque headers; the deques' own buffers are counted as they grow.
    let needed = (states as u64)
        .saturating_mul(width)
        .saturating_add((n as u64).saturating_mul(8 + width + 16 + 32 / 3 + 1));
    if needed > limits.memory_budget {
        return Err(SolveError::MemoryBudget {
            what: format!("the O(n²) table of {states} states for {n} piles"),
            needed,
            budget: limits.memory_budget,
        });
    }
    let (table, alice) = if narrow {
        let (values, offsets, alice) = fill::<i32>(&game.suffix, states, limits, needed)?;
        (FastTable::Narrow(values, offsets), alice)
    } else {
        let (values, offsets, alice) = fill::<i64>(&game.suffix, states, limits, needed)?;
        (FastTable::Wide(values, offsets), alice)
    };
    Ok(StoneGameIIFast { game, table, alice })
}

/// How many states the O(n²) solver stores for `n` piles: `Σ_d ⌊(n − d − 1) / 3⌋`.
fn fast_states(n: usize) -> usize {
    (0..n).map(|d| (n - d - 1) / 3).sum()
}

/// The integer widths the table may use.
trait Word: Copy + Ord + Default + std::fmt::Debug {
    /// Converts a value known to fit.
    fn narrow(value: i64) -> Self;
    fn widen(self) -> i64;
}

impl Word for i32 {
    #[inline]
    fn narrow(value: i64) -> Self {
        value as i32
    }
    #[inline]
    fn widen(self) -> i64 {
        i64::from(self)
    }
}

impl Word for i64 {
    #[inline]
    fn narrow(value: i64) -> Self {
        value
    }
    #[inline]
    fn widen(self) -> i64 {
        self
    }
}

/// Fills the table from the last pile to the first; returns it, the diagonal offsets, and
/// `f(0, 1)`. Everything but the columns' deques takes `fixed` bytes; the deques are counted
/// as they grow.
fn fill<W: Word>(
    suffix: &[i64],
    states: usize,
    limits: Limits,
    fixed: u64,
) -> Result<(Vec<W>, Vec<usize>, i64), SolveError> {
    let n = suffix.len() - 1;
    let deadline = limits
        .time_limit
        .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit)));
    // Every suffix sum is at most the total, which fits W.
    let suf: Vec<W> = suffix.iter().map(|&sum| W::narrow(sum)).collect();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut start = 0;
    for d in 0..n {
        offsets.push(start);
        start += (n - d - 1) / 3;
    }
    offsets.push(start);
    let mut table: Vec<W> = Vec::new();
    table
        .try_reserve_exact(states)
        .map_err(|_| SolveError::Allocation {
            what: format!("the O(n²) table of {states} states"),
            bytes: (states * size_of::<W>()) as u64,
        })?;
    table.resize(states, W::default());
    // Column m's window of f(row, m) candidates, oldest (highest row) first, values increasing.
    let columns = (n.saturating_sub(1)) / 3 + 1;
    let mut column: Vec<VecDeque<(u32, W)>> = (0..=columns).map(|_| VecDeque::new()).collect();
    // The bytes the deques' buffers hold: a deque is usually short, but one may grow to its
    // window (m entries), so they are counted against the budget as they grow.
    let mut held = fixed;
    // Row i's window of f(i + x, x) candidates, lowest x first (from `head` on), values increasing.
    let mut row: Vec<(usize, W)> = Vec::new();
    let mut alice = suffix[0]; // n ≤ 2: Alice takes every pile.
    for i in (0..n).rev() {
        let left = n - i;
        // A row is O(n) work: the time limit is checked (and progress published) every 64 rows.
        if left.is_multiple_of(64)
            && let Some(progress) = limits.progress
        {
            let table_bytes = (states * size_of::<W>()) as u64;
            progress.record_steps(left as u64 - 1, n as u64, held + table_bytes);
        }
        if let Some((deadline, limit)) = deadline
            && left.is_multiple_of(64)
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} of {n} rows of the O(n²) table", left - 1),
            });
        }
        if left < 3 {
            continue; // 2M ≥ piles left for every M ≥ 1: nothing to store.
        }
        let top = i.max(1).min((left - 1) / 2);
        let unknown_x = (left - 1) / 3; // f(i + x, x) is stored for x ≤ this
        // Writes go to diagonals i − m < i, which lie before diagonal i, which is read.
        let (written, read) = table.split_at_mut(offsets[i]);
        let diagonal = &read[..unknown_x];
        row.clear();
        let mut head = 0;
        let mut added = 1;
        for m in 1..=top {
            // Each column's window lives in its own buffer: ask for the one a few steps ahead
            // now, so that it is in cache when its turn comes.
            if let Some(ahead) = column.get(m + PREFETCH_AHEAD) {
                if let Some(front) = ahead.front() {
                    prefetch(front);
                }
                if let Some(back) = ahead.back() {
                    prefetch(back);
                }
            }
            // min over x ≤ m of f(i + x, m): the column's window. Its known tail (x ≥ left − 2m,
            // value suffix[i + x] ≥ suffix[i + m]) never matters: it exists only when
            // 3m ≥ left, and then the row's known tail below holds suffix[i + 2m], which is
            // smaller because piles are positive.
            let window = &mut column[m];
            while window.front().is_some_and(|&(at, _)| at as usize > i + m) {
                window.pop_front();
            }
            let mut worst = window.front().map(|&(_, value)| value);
            // min over m < x ≤ 2m of f(i + x, x): the row's window, then the known tail.
            let reach = (2 * m).min(unknown_x);
            while added < reach {
                added += 1;
                let value = diagonal[added - 1];
                while row.len() > head && row.last().is_some_and(|&(_, last)| last >= value) {
                    row.pop();
                }
                row.push((added, value));
            }
            while head < row.len() && row[head].0 <= m {
                head += 1;
            }
            if let Some(&(_, value)) = row.get(head) {
                worst = Some(min_of(worst, value));
            }
            if 2 * m > unknown_x {
                worst = Some(min_of(worst, suf[i + 2 * m]));
            }
            let worst = worst.expect("a state with moves has a window");
            let value = W::narrow(suffix[i] - worst.widen());
            if i == 0 {
                alice = value.widen();
            } else {
                written[offsets[i - m] + m - 1] = value;
            }
            let window = &mut column[m];
            while window.back().is_some_and(|&(_, last)| last >= value) {
                window.pop_back();
            }
            if window.len() == window.capacity() {
                grow(window, &mut held, limits.memory_budget, n)?;
            }
            window.push_back((i as u32, value));
        }
    }
    if let Some(progress) = limits.progress {
        progress.record_steps(n as u64, n as u64, held + (states * size_of::<W>()) as u64);
    }
    Ok((table, offsets, alice))
}

/// Doubles a full column deque, fallibly, keeping `held` (the solver's bytes, every deque's
/// buffer included) within `budget`.
#[cold]
fn grow<T>(
    window: &mut VecDeque<T>,
    held: &mut u64,
    budget: u64,
    n: usize,
) -> Result<(), SolveError> {
    let item = size_of::<T>() as u64;
    let more = window.capacity().max(4);
    let added = more as u64 * item;
    let what = || format!("the O(n²) solver's sliding windows for {n} piles");
    // `held` already counts the old buffer; the new one is live beside it while it grows.
    let new = window.capacity() as u64 * item + added;
    // The old buffer (in `held`) and the new one are live at once while it grows.
    let needed = held.saturating_add(new);
    if needed > budget {
        return Err(SolveError::MemoryBudget {
            what: what(),
            needed,
            budget,
        });
    }
    window
        .try_reserve_exact(more)
        .map_err(|_| SolveError::Allocation {
            what: what(),
            bytes: added,
        })?;
    *held += added;
    Ok(())
}

/// How many columns ahead [`fill`] prefetches.
const PREFETCH_AHEAD: usize = 8;

#[inline]
fn min_of<W: Word>(current: Option<W>, value: W) -> W {
    current.map_or(value, |current| current.min(value))
}

impl StoneGameIIFast<'_> {
    /// The most stones Alice can get.
    pub fn alice_stones(&self) -> i64 {
        self.alice
    }

    /// Alice's stones minus Bob's: the engine's value of the start.
    pub fn value(&self) -> Score {
        // In [−total, total]; 2 × alice alone could leave i64.
        (2 * i128::from(self.alice) - i128::from(self.game.total())) as i64
    }

    /// How many states the table holds.
    pub fn states(&self) -> usize {
        match &self.table {
            FastTable::Narrow(values, _) => values.len(),
            FastTable::Wide(values, _) => values.len(),
        }
    }

    /// `f(next, m)`: the most stones the mover can get from pile `next` with `M = m`, for the
    /// states the solver kept (and those with a known value).
    fn stones(&self, next: usize, m: usize) -> i64 {
        let n = self.game.piles.len();
        let left = n - next;
        if 2 * m >= left {
            return self.game.suffix[next];
        }
        if next == 0 {
            return self.alice;
        }
        let at = |offsets: &[usize]| offsets[next - m] + m - 1;
        match &self.table {
            FastTable::Narrow(values, offsets) => i64::from(values[at(offsets)]),
            FastTable::Wide(values, offsets) => values[at(offsets)],
        }
    }

    /// The optimal line of play, choosing the first best move (as the engine does).
    pub fn line(&self) -> Vec<StoneGameIITake> {
        let n = self.game.piles.len();
        let (mut next, mut m, mut player) = (0, 1, Player::First);
        let mut line = Vec::new();
        while next < n {
            let left = n - next;
            let take = if 2 * m >= left {
                left
            } else {
                // The mover gets suffix[next] − f(child): take the first x minimising f(child).
                (1..=2 * m)
                    .min_by_key(|&x| self.stones(next + x, m.max(x)))
                    .expect("a state with piles left has moves")
            };
            line.push(StoneGameIITake {
                player,
                first_pile: next + 1,
                piles: take,
                stones: self.game.suffix[next] - self.game.suffix[next + take],
                m_before: m,
                max_piles: (2 * m).min(left),
                m_after: m.max(take),
            });
            next += take;
            m = m.max(take);
            player = player.opponent();
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn dense_index_is_a_bijection_onto_the_unknown_states() {
        for n in 1..=40usize {
            let game = StoneGameII::new(vec![1; n]).unwrap();
            let mut seen = HashSet::new();
            for next in 0..=n {
                for m in 1..=n {
                    let state = game.state(next, m).unwrap();
                    if game.known_value(&state).is_none() {
                        let index = game.index(&state);
                        assert!(index < game.index_len(), "n={n} next={next} m={m}");
                        assert!(seen.insert(index), "n={n} next={next} m={m} shares {index}");
                    }
                }
            }
            assert_eq!(seen.len(), game.index_len(), "n={n}");
        }
    }

    #[test]
    fn state_bound_counts_the_reachable_unknown_states() {
        for n in 1..=30usize {
            let game = StoneGameII::new(vec![1; n]).unwrap();
            let mut reachable = HashSet::new();
            let mut todo = vec![game.start()];
            let mut moves = Vec::new();
            while let Some(state) = todo.pop() {
                if game.known_value(&state).is_some() || !reachable.insert(state) {
                    continue;
                }
                moves.clear();
                game.moves_into(&state, &mut moves);
                todo.extend(moves.iter().map(|take| game.play(&state, take).next));
            }
            let bound = game.state_bound().unwrap();
            assert!(reachable.len() as u64 <= bound, "n={n}");
        }
    }

    #[test]
    fn rejects_bad_piles_with_their_position() {
        assert_eq!(
            StoneGameII::new(vec![1, 2, -5]).unwrap_err(),
            InputError::OutOfRange {
                unit: "pile",
                position: 3,
                value: -5,
                rule: "piles must be positive integers"
            }
        );
        assert_eq!(
            StoneGameII::new(vec![1, i64::MAX - 1, 5]).unwrap_err(),
            InputError::TotalOverflow {
                what: "the total of the piles",
                unit: "pile",
                position: 3
            }
        );
    }
}
