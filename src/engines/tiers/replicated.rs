//! The distributed tier solver when every worker can hold every value: a game that declares a
//! [`DenseIndex`] whose values fit each worker's budget. Each worker values its share of a tier
//! (the same contiguous ranks as with requests) with the dense kernel, then sends those values
//! to every other worker in blocks of ranks, as the slots hold them; a receiver walks the
//! block's ranks and writes each value at its state's index. One progress round per tier, a
//! few thousand records in all, where requests and answers are one record per remote move.
//! A [subset](crate::Capabilities::subset_index) index solved from its first tier goes by blocks
//! of the index level by level instead ([`by_blocks`]): each worker values its share of a
//! level's blocks, whose values lie contiguous in the array and are sent and stored as they lie.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use super::by_index::{block_bits, sweep_chunk, with_ones};
use super::dense::{Slot, fits, solve_chunk};
use super::workers::{Done, WorkerStats, block};
use super::{CHUNK, Counts, walk, width_of};
use crate::engines::kernel::Limits;
use crate::error::Error;
use crate::game::{DenseIndex, StateAt, Tiered, declaration::OnIndex};
use crate::memo::zeroed::Words;

use std::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64};

/// A block of values: `(to, tier, first rank, values as the slots hold them)`.
type Block<R> = (u32, u32, u64, Vec<R>);

/// The replicated solve on one worker, if the game declares a dense index that fits.
pub(super) struct Replicated<'a, G> {
    pub(super) worker: &'a mut timely::worker::Worker,
    pub(super) game: &'a Arc<G>,
    pub(super) limits: Limits,
}

impl<G: Tiered + Send + Sync + 'static> OnIndex<G> for Replicated<'_, G> {
    type Output = Option<Result<Done, Error>>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        let game = &**self.game;
        let from = game.tier(&game.start());
        let width = width_of(game.value_bound());
        // Every worker holds a copy: the budget is for the workers of a process together, and
        // how many share this one's is not known here, so each counts for all.
        let budget = self.limits.memory_budget / self.worker.peers() as u64;
        if from >= game.tier_count() || !fits(game, from, width, budget) {
            return None;
        }
        Some(match width {
            1 => solve::<G, AtomicI8>(self.worker, self.game),
            2 => solve::<G, AtomicI16>(self.worker, self.game),
            4 => solve::<G, AtomicI32>(self.worker, self.game),
            _ => solve::<G, AtomicI64>(self.worker, self.game),
        })
    }

    /// From the first tier, by blocks of the index level by level (the `by_index` module):
    /// a block's values are contiguous, sent and stored as they lie.
    fn subsets(self) -> Self::Output
    where
        G: StateAt,
    {
        let game = &**self.game;
        let width = width_of(game.value_bound());
        let budget = self.limits.memory_budget / self.worker.peers() as u64;
        if game.tier(&game.start()) != 0 || !fits(game, 0, width, budget) {
            return self.declared();
        }
        Some(match width {
            1 => by_blocks::<G, AtomicI8>(self.worker, self.game),
            2 => by_blocks::<G, AtomicI16>(self.worker, self.game),
            4 => by_blocks::<G, AtomicI32>(self.worker, self.game),
            _ => by_blocks::<G, AtomicI64>(self.worker, self.game),
        })
    }

    fn undeclared(self) -> Self::Output {
        None
    }
}

/// Values for other workers: `(to, first index, whether a hole was met, values as the slots
/// hold them)`.
type Span<R> = (u32, u64, bool, Vec<R>);

/// One worker's part by blocks: the blocks of each level shared out in contiguous runs, each
/// valued into the worker's copy of all values and sent whole to the others, who store the
/// values as they lie; one progress round per level.
fn by_blocks<G, A>(worker: &mut timely::worker::Worker, game: &Arc<G>) -> Result<Done, Error>
where
    G: Tiered + StateAt + Send + Sync + 'static,
    A: Slot,
    A::Raw: timely::ExchangeData,
{
    let (me, workers) = (worker.index(), worker.peers());
    let width = size_of::<A>() as u64;
    let len = game.index_len();
    let mut fault: Option<Error> = None;
    let values: Rc<Words<A>> = zeroed(len, &mut fault);
    // Whether a hole was met in a level before, here or on another worker (or a worker failed,
    // leaving its blocks unvalued).
    let holes: Rc<Cell<bool>> = Rc::default();
    let received: Rc<RefCell<Option<Error>>> = Rc::default();
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    worker.dataflow::<u64, _, _>(|scope| {
        let (values, holes, received) =
            (Rc::clone(&values), Rc::clone(&holes), Rc::clone(&received));
        scope
            .input_from(&mut input)
            .container::<Vec<Span<A::Raw>>>()
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|&(to, _, _, _): &Span<A::Raw>| u64::from(to)),
                "Store",
                move |_, _| {
                    move |input, _output| {
                        input.for_each_stamp(|_, batches| {
                            for batch in batches {
                                for (_, first, hole, raws) in batch.iter() {
                                    let first = *first as usize;
                                    let end = first.saturating_add(raws.len());
                                    match values.get(first..end) {
                                        Some(slots) => slots
                                            .iter()
                                            .zip(raws)
                                            .for_each(|(slot, raw)| slot.set_raw(*raw)),
                                        None => {
                                            received.borrow_mut().get_or_insert_with(|| {
                                                Error::InvalidGame(format!(
                                                    "a worker sent values for indices \
                                                     {first}..{end}, past index_len = {}",
                                                    values.len()
                                                ))
                                            });
                                        }
                                    }
                                    holes.set(holes.get() | hole);
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    let mut stats = WorkerStats {
        worker: me,
        peak_bytes: len as u64 * width,
        replicated: true,
        by_blocks: true,
        ..WorkerStats::default()
    };
    let (blocks, mut moves) = (len.div_ceil(CHUNK), Vec::new());
    for level in 0..=block_bits(blocks) {
        let these = with_ones(level, blocks);
        let size = block(these.len() as u64, workers) as usize;
        let mine = these.chunks(size).nth(me).unwrap_or_default();
        let gapless = !holes.get();
        let mut sent = 0u64;
        for &number in mine.iter().take_while(|_| fault.is_none()) {
            let first = number * CHUNK;
            let indices = first..len.min(first + CHUNK);
            let mut block_gapless = gapless;
            let swept = sweep_chunk::<G, A, true>(
                &**game,
                indices.clone(),
                &values,
                &mut moves,
                &mut block_gapless,
            );
            match swept {
                Ok(counts) => {
                    stats.states += counts.states;
                    stats.moves += counts.moves;
                }
                Err(error) => {
                    // The others read this worker's blocks checked from the next level on.
                    for to in (0..workers).filter(|&to| to != me) {
                        input.send((to as u32, first as u64, true, Vec::new()));
                    }
                    fault = Some(error);
                    break;
                }
            }
            let raws: Vec<A::Raw> = values[indices].iter().map(Slot::raw).collect();
            for to in (0..workers).filter(|&to| to != me) {
                let span = (to as u32, first as u64, !block_gapless, raws.clone());
                sent += 16 + raws.len() as u64 * width;
                input.send(span);
            }
            if !block_gapless {
                holes.set(true);
            }
        }
        stats.bytes_per_tier.push((level as usize, sent));
        input.advance_to(u64::from(level) + 1);
        while probe.less_than(input.time()) {
            worker.step_or_park(None);
        }
        if let Some(error) = received.borrow_mut().take() {
            fault.get_or_insert(error);
        }
    }
    finish(&**game, &values, fault, game.tier_count(), stats, workers)
}

/// One worker's part: every tier's share valued into its own copy of all values, and the
/// other workers' shares received into it.
fn solve<G, A>(worker: &mut timely::worker::Worker, game: &Arc<G>) -> Result<Done, Error>
where
    G: Tiered + DenseIndex + Send + Sync + 'static,
    A: Slot,
    A::Raw: timely::ExchangeData,
{
    let (me, workers) = (worker.index(), worker.peers());
    let start = game.start();
    let (from, count) = (game.tier(&start), game.tier_count());
    let width = size_of::<A>() as u64;
    let len = game.index_len();
    // A failure is recorded, not returned: the other workers still need this one's steps.
    let mut fault: Option<Error> = None;
    let values: Rc<Words<A>> = zeroed(len, &mut fault);
    let received: Rc<RefCell<Option<Error>>> = Rc::default();
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    worker.dataflow::<u64, _, _>(|scope| {
        let (values, game, received) = (Rc::clone(&values), Arc::clone(game), Rc::clone(&received));
        scope
            .input_from(&mut input)
            .container::<Vec<Block<A::Raw>>>()
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|&(to, _, _, _): &Block<A::Raw>| u64::from(to)),
                "Store",
                move |_, _| {
                    move |input, _output| {
                        input.for_each_stamp(|_, batches| {
                            for batch in batches {
                                for (_, tier, first, raws) in batch.iter() {
                                    let span = (*first, raws.len() as u64);
                                    let mut counts = Counts::default();
                                    let stored = walk(
                                        &*game,
                                        *tier as usize,
                                        span,
                                        &mut counts,
                                        |rank, state| {
                                            let slot = values.get(game.index(state)).ok_or_else(|| {
                                                Error::InvalidGame(format!(
                                                    "rank {rank} of tier {tier} has a dense index \
                                                     not below index_len"
                                                ))
                                            })?;
                                            slot.set_raw(raws[(rank - first) as usize]);
                                            Ok(0)
                                        },
                                    );
                                    if let Err(error) = stored {
                                        received.borrow_mut().get_or_insert(error);
                                    }
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    let mut stats = WorkerStats {
        worker: me,
        peak_bytes: len as u64 * width,
        replicated: true,
        ..WorkerStats::default()
    };
    let mut moves = Vec::new();
    let mut time = 0u64;
    for tier in (from..count).rev() {
        let tier_len = game.tier_len(tier);
        let size = block(tier_len, workers);
        let first = (size * me as u64).min(tier_len);
        let owned = (first + size).min(tier_len) - first;
        let mut sent = 0u64;
        let mut low = first;
        while low < first + owned && fault.is_none() {
            let span = (low, (CHUNK as u64).min(first + owned - low));
            match solve_chunk(&**game, tier, span, &values, &mut moves) {
                Ok(counts) => {
                    stats.states += counts.states;
                    stats.moves += counts.moves;
                }
                Err(error) => {
                    fault = Some(error);
                    break;
                }
            }
            // The chunk's values in rank order (a hole's slot reads 0, as no value does).
            let mut raws = vec![A::Raw::default(); span.1 as usize];
            let mut counts = Counts::default();
            let read = walk(&**game, tier, span, &mut counts, |rank, state| {
                let slot = values
                    .get(game.index(state))
                    .expect("written by solve_chunk");
                raws[(rank - low) as usize] = slot.raw();
                Ok(0)
            });
            if let Err(error) = read {
                fault = Some(error);
                break;
            }
            for to in (0..workers).filter(|&to| to != me) {
                input.send((to as u32, tier as u32, low, raws.clone()));
                sent += 16 + span.1 * width;
            }
            low += span.1;
        }
        stats.bytes_per_tier.push((tier, sent));
        time += 1;
        input.advance_to(time);
        while probe.less_than(input.time()) {
            worker.step_or_park(None);
        }
        if let Some(error) = received.borrow_mut().take() {
            fault.get_or_insert(error);
        }
    }
    finish(&**game, &values, fault, count - from, stats, workers)
}

/// What a worker returns: its fault, else the start's value (on worker 0) and its counts.
fn finish<G: DenseIndex, A: Slot>(
    game: &G,
    values: &[A],
    fault: Option<Error>,
    tiers: usize,
    stats: WorkerStats,
    workers: usize,
) -> Result<Done, Error> {
    if let Some(error) = fault {
        return Err(error);
    }
    let value = if stats.worker == 0 {
        let at = values.get(game.index(&game.start())).and_then(Slot::value);
        Some(at.ok_or_else(|| Error::InvalidGame("the start's dense index holds no value".into()))?)
    } else {
        None
    };
    Ok(Done {
        value,
        workers,
        tiers,
        stats,
    })
}

/// The values' array, zeroed, or an empty one with the failure recorded in `fault` (the other
/// workers still need this one's steps).
fn zeroed<A: Slot>(len: usize, fault: &mut Option<Error>) -> Rc<Words<A>> {
    Rc::new(
        Words::<A>::zeroed(len, "the tier solver's values by dense index").unwrap_or_else(
            |error| {
                fault.get_or_insert(error);
                Words::default()
            },
        ),
    )
}
