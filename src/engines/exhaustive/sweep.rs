//! The sweep: a game whose dense index orders it (every move leads to a state of a smaller
//! index: [`Capabilities::ordered_index`](crate::Capabilities::ordered_index)) valued index by
//! index from 0 up, each state from its children's stored values. It is the array DP a user
//! writes by hand: no search, no stack, and every child already valued when its parent is.

use std::time::Instant;

use super::Solution;
use super::search::Scan;
use crate::engines::kernel::{CHECK_EVERY, Limits, RangeSource, RunGuard, Stats, valid};
use crate::error::SolveError;
use crate::game::{Score, StateAt};
use crate::memo::dense::{Cell, Cells};
use crate::memo::{DenseTable, MemoTable};

/// Values every state [`StateAt::state_at`] gives, in index order, into `table` (empty, one
/// slot per index), cutting on `range`; the solution of the start. Errors if a move leads to a
/// state not yet valued (the index does not order the game, or `state_at` misses a state a
/// move reaches), on overflow, and at the limits (checked every [`CHECK_EVERY`] indices).
pub(crate) fn sweep<G, R>(
    game: &G,
    mut table: DenseTable,
    limits: Limits,
    range: R,
) -> Result<Solution<'_, G, DenseTable, R>, SolveError>
where
    G: StateAt,
    R: RangeSource<G>,
{
    let clock = Instant::now();
    let guard = RunGuard::new(limits, None);
    let mut stats = Stats::default();
    let mut reported = 0;
    // Whether every slot below `index` holds a value: while `state_at` has given a state at
    // each index so far, and each state's own index was the index it was given at, so that
    // its value went to that slot (`valid` and the overflow checks keep `Score::MIN`, the
    // empty slot, out of the table). A child's slot then needs one check, that it is below
    // `index`, where a table with gaps needs two (in the table, not empty).
    let mut gapless = true;
    for index in 0..game.index_len() {
        if index.is_multiple_of(CHECK_EVERY) {
            let table_bytes = MemoTable::<G>::peak_bytes(&table, CHECK_EVERY);
            guard.check(table_bytes, &mut reported, 0, "dense", index, 0)?;
        }
        let Some(state) = game.state_at(index) else {
            gapless = false;
            continue;
        };
        let value = match game.known_value(&state) {
            Some(value) => {
                stats.known += 1;
                valid(value)?
            }
            None => {
                // Two calls, not one on a `Valued` chosen here: each inlined loop then knows
                // its variant, and the gapless one has no check of the other's.
                let children = if gapless {
                    match table.cells() {
                        Cells::Bytes(cells) => {
                            let below = Valued::Below(&cells[..index]);
                            value_from_children(game, below, &range, &state, &mut stats)
                        }
                        Cells::Scores(cells) => {
                            let below = Valued::Below(&cells[..index]);
                            value_from_children(game, below, &range, &state, &mut stats)
                        }
                    }
                } else {
                    let table = Valued::<Score>::Table(&table);
                    value_from_children(game, table, &range, &state, &mut stats)
                };
                match children? {
                    Some(value) => {
                        stats.expanded += 1;
                        value
                    }
                    None => {
                        stats.terminal += 1;
                        valid(game.payoff(&state)).map_err(|_| SolveError::ScoreOverflow)?
                    }
                }
            }
        };
        // One call of `index`: the slot checked is the slot written.
        let slot = game.index(&state);
        gapless &= slot == index;
        table.insert_at(slot, value);
        stats.stored += 1;
    }
    let start = game.start();
    let Some(value) = table.get(game, &start) else {
        return Err(SolveError::InvalidGame(format!(
            "the game declares an ordered index (Capabilities::ordered_index), but state_at \
             gives no state at the start's index, {}",
            game.index(&start)
        )));
    };
    Ok(Solution::solved(
        game,
        (table, range),
        limits,
        (start, value),
        (stats, clock),
    ))
}

/// The value of `state` from its children's values in `valued`, stepping through its moves with
/// [`Game::for_each_step`](crate::Game::for_each_step) until one reaches the top of its range;
/// `None` if it has no move.
#[inline(always)]
fn value_from_children<G, R, C>(
    game: &G,
    valued: Valued<'_, C>,
    range: &R,
    state: &G::State,
    stats: &mut Stats,
) -> Result<Option<Score>, SolveError>
where
    G: StateAt,
    R: RangeSource<G>,
    C: Cell,
{
    let high = if R::DECLARES {
        range.range(game, state).1
    } else {
        Score::MAX
    };
    let mut scan = Scan::new::<G, R>(0, Score::MIN, high, 0);
    let mut steps: u64 = 0;
    let mut unvalued = None;
    game.for_each_step(state, |step| {
        let child = if let Some(value) = game.known_value(&step.next) {
            scan.known += 1;
            scan.overflow |= value == Score::MIN;
            value
        } else if let Some(value) = valued.value(game.index(&step.next)) {
            value
        } else {
            unvalued = Some(step.next);
            return false;
        };
        // Every child valued is counted here, and a hit is a child not known: one increment
        // per child, after the branches that leave (counting in the table's branch took two).
        steps += 1;
        // `Scan::take`, but the top of the range is compared only when the best rises, behind
        // a branch rarely taken (most children of a won state are won, none better for the
        // mover than the first), where `take` compares and moves the best at every child.
        let value = scan.combine(step.gain, step.turn, child);
        if value > scan.best {
            scan.best = value;
            return !(R::DECLARES && value >= scan.high);
        }
        true
    });
    if let Some(next) = unvalued {
        return Err(SolveError::InvalidGame(format!(
            "the game declares an ordered index (Capabilities::ordered_index), but a move \
             from index {} leads to index {}, which is not valued before it (a move must \
             lead to a smaller index, and state_at must give every state a move reaches)",
            game.index(state),
            game.index(&next)
        )));
    }
    if steps == 0 {
        return Ok(None);
    }
    (stats.known, stats.hits) = (stats.known + scan.known, stats.hits + steps - scan.known);
    if scan.overflow || scan.best == Score::MIN {
        return Err(SolveError::ScoreOverflow);
    }
    Ok(Some(scan.best))
}

/// Where the sweep reads its children's values.
#[derive(Clone, Copy)]
enum Valued<'a, C> {
    /// Slots that all hold a value (the sweep's `gapless`: every slot below the state's index),
    /// in the table's present width.
    Below(&'a [C]),
    /// The whole table, whose slots may be empty.
    Table(&'a DenseTable),
}

impl<C: Cell> Valued<'_, C> {
    /// The value in slot `index`; `None` if it has none (or is not below the state's index).
    #[inline(always)]
    fn value(self, index: usize) -> Option<Score> {
        match self {
            Valued::Below(slots) => {
                let cell = *slots.get(index)?;
                // SAFETY: `Below` is made only from the slots below the index being swept
                // while `gapless` holds, and each of those slots was written by `insert_at`
                // with a value that passed `valid` or the overflow checks, which refuse
                // `Score::MIN`; nothing else writes the table during the sweep, and the slot
                // written is the index the state was given at (checked with one call of
                // `index`, so a game whose `index` answers differently on two calls cannot
                // break it). A byte slot holds a value that fits a byte and is not its empty
                // marker (`DenseTable::insert_at`), whose score is never `Score::MIN`; a wide
                // slot holds the value itself. So `value` is never `Score::MIN`. Telling the compiler so lets it
                // drop the empty-slot check and the wrap check of negating the child. Exercised
                // by every sweep test (tests/solver.rs; a game with gaps and one whose
                // `state_at` is not `index`'s inverse take the `Table` path instead).
                let value = cell.score();
                unsafe { std::hint::assert_unchecked(value != Score::MIN) };
                Some(value)
            }
            Valued::Table(table) => table.value_at(index),
        }
    }
}
