//! The distributed tier solver when every process can hold every value: a game that declares a
//! [`DenseIndex`] whose values fit the budget. The workers of a process share one copy of the
//! values ([`Process`]) and value it as the tier solver's threads do, with the same kernel:
//! each round (a tier, or a level of blocks) is cut into units of [`CHUNK`] states, each
//! process takes a contiguous share of the units, and its workers take the units of that share
//! one at a time from a counter, as rayon's threads steal them. A unit's values go to the other
//! processes once each, in the slots' own width, to one worker there (the one at the sender's
//! place), which writes them into its process's copy; a process alone sends nothing. A worker
//! sends a unit as soon as it is valued and steps its dataflow between units, so sending and
//! receiving overlap valuing; at the end of a round every worker waits, parked, for timely's
//! progress tracking to say that every value of the round is in everywhere.
//!
//! A [subset](crate::Capabilities::subset_index) index solved from its first tier goes by
//! blocks of the index level by level ([`by_blocks`]): a block's values lie contiguous in the
//! array and are sent and stored as they lie. Any other dense index goes tier by tier
//! ([`by_tiers`]): a unit is a chunk of a tier's ranks, sent in rank order, and the receiver
//! walks the ranks to find each value's index.

use std::any::Any;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicI16, AtomicI32, AtomicI64, AtomicUsize};
use std::sync::{Arc, Mutex, PoisonError};

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use super::by_index::{block_bits, sweep_chunk, with_ones};
use super::dense::{IndexOf, Slot, Values, fits, solve_chunk};
use super::workers::{Done, WorkerStats};
use super::{CHUNK, Counts, walk, width_of};
use crate::engines::kernel::Limits;
use crate::error::SolveError;
use crate::game::{DenseIndex, StateAt, Tiered, declaration::OnIndex};
use crate::memo::zeroed::Words;

/// What the workers of one process share: one copy of every value, a counter per round from
/// which they take its units, and whether a hole was met.
pub(super) struct Process {
    /// Workers per process: timely numbers the workers process by process.
    threads: usize,
    /// The values, allocated by the first worker to ask.
    values: Mutex<Option<Arc<Values>>>,
    /// The index they are laid out by, an [`IndexOf`] of the game (for the solution after).
    index: Mutex<Option<Box<dyn Any + Send>>>,
    /// Per round, the next unit of this process's share for a worker to take.
    next: Vec<AtomicUsize>,
    /// Whether an index with no state was met (by a worker here, or sent from another
    /// process), or a worker failed and left its unit unvalued: reads then check each slot.
    holes: AtomicBool,
}

impl Process {
    /// The shared part of a process of `threads` workers, for at most `rounds` rounds.
    pub(super) fn new(threads: usize, rounds: usize) -> Process {
        Process {
            threads: threads.max(1),
            values: Mutex::new(None),
            index: Mutex::new(None),
            next: (0..rounds).map(|_| AtomicUsize::new(0)).collect(),
            holes: AtomicBool::new(false),
        }
    }

    /// The process's values, `len` slots of `A`, allocated by the first worker to ask (a
    /// failure is each asking worker's).
    fn values<A: Slot>(&self, len: usize) -> Result<Arc<Values>, SolveError> {
        let mut held = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(values) = &*held {
            return Ok(Arc::clone(values));
        }
        let words = Words::<A>::zeroed(len, "the tier solver's values by dense index")?;
        let values = Arc::new(A::values(words));
        *held = Some(Arc::clone(&values));
        Ok(values)
    }

    /// After the solve (every worker gone): the values and the index they are laid out by,
    /// if the process solved with every value.
    pub(super) fn kept(&self) -> Option<(Values, Box<dyn Any + Send>)> {
        let values = self
            .values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        let index = self
            .index
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        Some((Arc::into_inner(values)?, index))
    }
}

/// The replicated solve on one worker, if the game declares a dense index that fits.
pub(super) struct Replicated<'a, G> {
    pub(super) worker: &'a mut timely::worker::Worker,
    pub(super) game: &'a Arc<G>,
    pub(super) process: &'a Arc<Process>,
    pub(super) limits: Limits,
}

impl<G: Tiered + Send + Sync + 'static> Replicated<'_, G> {
    /// Whether the values from tier `from` fit the budget, one copy per process.
    fn fits(&self, from: usize) -> bool
    where
        G: DenseIndex,
    {
        let game = &**self.game;
        let width = width_of(game.value_bound());
        from < game.tier_count() && fits(game, from, width, self.limits.memory_budget)
    }

    /// Remembers the index the values are laid out by, for the solution after the solve.
    fn laid_out(&self)
    where
        G: DenseIndex,
    {
        let index: IndexOf<G> = <G as DenseIndex>::index;
        *self
            .process
            .index
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Box::new(index));
    }
}

impl<G: Tiered + Send + Sync + 'static> OnIndex<G> for Replicated<'_, G> {
    type Output = Option<Result<Done, SolveError>>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        if !self.fits(self.game.tier(&self.game.start())) {
            return None;
        }
        self.laid_out();
        let (worker, game, process) = (self.worker, self.game, self.process);
        Some(match width_of(game.value_bound()) {
            1 => by_tiers::<G, AtomicI8>(worker, game, process),
            2 => by_tiers::<G, AtomicI16>(worker, game, process),
            4 => by_tiers::<G, AtomicI32>(worker, game, process),
            _ => by_tiers::<G, AtomicI64>(worker, game, process),
        })
    }

    /// From the first tier, by blocks of the index level by level (the `by_index` module):
    /// a block's values are contiguous, sent and stored as they lie.
    fn subsets(self) -> Self::Output
    where
        G: StateAt,
    {
        if self.game.tier(&self.game.start()) != 0 || !self.fits(0) {
            return self.declared();
        }
        self.laid_out();
        let (worker, game, process) = (self.worker, self.game, self.process);
        Some(match width_of(game.value_bound()) {
            1 => by_blocks::<G, AtomicI8>(worker, game, process),
            2 => by_blocks::<G, AtomicI16>(worker, game, process),
            4 => by_blocks::<G, AtomicI32>(worker, game, process),
            _ => by_blocks::<G, AtomicI64>(worker, game, process),
        })
    }

    fn undeclared(self) -> Self::Output {
        None
    }
}

/// Where a worker stands among the workers and processes.
struct Place<'a> {
    me: usize,
    workers: usize,
    process: &'a Process,
}

impl<'a> Place<'a> {
    fn of(worker: &timely::worker::Worker, process: &'a Process) -> Place<'a> {
        Place {
            me: worker.index(),
            workers: worker.peers(),
            process,
        }
    }

    fn processes(&self) -> usize {
        (self.workers / self.process.threads).max(1)
    }

    /// This process's units of a round of `units`: a contiguous share, the processes in order.
    fn ours(&self, units: usize) -> Range<usize> {
        let share = units.div_ceil(self.processes()).max(1);
        let mine = self.me / self.process.threads;
        (mine * share).min(units)..((mine + 1) * share).min(units)
    }

    /// The unit of `ours` this worker values next, if any is left.
    fn take(&self, round: usize, ours: &Range<usize>) -> Option<usize> {
        let taken = self.process.next.get(round)?.fetch_add(1, Relaxed);
        let unit = ours.start.checked_add(taken)?;
        (unit < ours.end).then_some(unit)
    }

    /// The workers that get this worker's values: one in each other process, at this one's
    /// place there.
    fn others(&self) -> impl Iterator<Item = usize> + use<> {
        let (threads, mine) = (self.process.threads, self.me / self.process.threads);
        let place = self.me % threads;
        (0..self.processes())
            .filter(move |&process| process != mine)
            .map(move |process| process * threads + place)
    }
}

/// A worker's dataflow input and probe: what it sends, and how it waits for the others.
struct Rounds<D: timely::ExchangeData + Clone> {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<D>>>,
    probe: ProbeHandle<u64>,
    time: u64,
    /// The first failure to store what another process sent.
    received: Rc<RefCell<Option<SolveError>>>,
}

impl<D: timely::ExchangeData + Clone> Rounds<D> {
    /// Sends what is buffered, and steps the dataflow once (storing what others sent).
    fn flush(&mut self, worker: &mut timely::worker::Worker) {
        self.input.flush();
        worker.step();
    }

    /// Ends a round: waits, parked, until every worker's sends of it are stored; records in
    /// `fault` a failure to store them, if there was none before.
    fn settle(&mut self, worker: &mut timely::worker::Worker, fault: &mut Option<SolveError>) {
        self.time += 1;
        self.input.advance_to(self.time);
        while self.probe.less_than(self.input.time()) {
            worker.step_or_park(None);
        }
        if let Some(error) = self.received.borrow_mut().take() {
            fault.get_or_insert(error);
        }
    }
}

/// Builds a worker's dataflow: what it receives is given to `store`, whose first failure the
/// round's [`settle`](Rounds::settle) reports.
fn dataflow<D: timely::ExchangeData + Clone>(
    worker: &mut timely::worker::Worker,
    to: fn(&D) -> u32,
    mut store: impl FnMut(&D) -> Result<(), SolveError> + 'static,
) -> Rounds<D> {
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    let received: Rc<RefCell<Option<SolveError>>> = Rc::default();
    let failed = Rc::clone(&received);
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .container::<Vec<D>>()
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(move |record: &D| u64::from(to(record))),
                "Store",
                move |_, _| {
                    move |input, _output| {
                        input.for_each_stamp(|_, batches| {
                            for record in batches.flat_map(|batch| batch.iter()) {
                                if let Err(error) = store(record) {
                                    failed.borrow_mut().get_or_insert(error);
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    Rounds {
        input,
        probe,
        time: 0,
        received,
    }
}

/// The process's values as slots of `A` (none if they could not be allocated).
fn slots<A: Slot>(values: &Option<Arc<Values>>) -> &[A] {
    values
        .as_deref()
        .and_then(A::words)
        .map_or(&[], |words| &words[..])
}

/// Values for another process: `(to, first index, whether a hole was met, values as the
/// slots hold them)`.
type Span<R> = (u32, u64, bool, Vec<R>);

/// One worker's part by blocks: each level's blocks shared out among the processes, and
/// within a process taken one at a time by its workers; a block's values are sent to the
/// other processes as they lie. One progress round per level.
fn by_blocks<G, A>(
    worker: &mut timely::worker::Worker,
    game: &Arc<G>,
    process: &Arc<Process>,
) -> Result<Done, SolveError>
where
    G: Tiered + StateAt + Send + Sync + 'static,
    A: Slot,
    A::Raw: timely::ExchangeData,
{
    let place = Place::of(worker, process);
    let width = size_of::<A>() as u64;
    let len = game.index_len();
    let mut fault: Option<SolveError> = None;
    let values = process.values::<A>(len).map_err(|e| fault = Some(e)).ok();
    let mut rounds = {
        let (values, process) = (values.clone(), Arc::clone(process));
        dataflow(
            worker,
            |&(to, ..): &Span<A::Raw>| to,
            move |(_, first, hole, raws)| {
                let (first, slots) = (*first as usize, slots::<A>(&values));
                let end = first.saturating_add(raws.len());
                if *hole {
                    process.holes.store(true, Release);
                }
                let Some(stored) = slots.get(first..end) else {
                    return Err(SolveError::InvalidGame(format!(
                        "a worker sent values for indices {first}..{end}, past index_len = {}",
                        slots.len()
                    )));
                };
                stored
                    .iter()
                    .zip(raws)
                    .for_each(|(slot, raw)| slot.set_raw(*raw));
                Ok(())
            },
        )
    };
    let slots = slots::<A>(&values);
    let mut stats = WorkerStats {
        worker: place.me,
        peak_bytes: len as u64 * width,
        replicated: true,
        by_blocks: true,
        ..WorkerStats::default()
    };
    let blocks = len.div_ceil(CHUNK);
    let alone = place.processes() == 1;
    for level in 0..=block_bits(blocks) {
        let these = with_ones(level, blocks);
        let ours = place.ours(these.len());
        let gapless = !process.holes.load(Acquire);
        let mut sent = 0u64;
        while fault.is_none()
            && let Some(unit) = place.take(level as usize, &ours)
        {
            let first = these[unit] * CHUNK;
            let indices = first..len.min(first + CHUNK);
            let mut block_gapless = gapless;
            let swept =
                sweep_chunk::<G, A, true>(&**game, indices.clone(), slots, &mut block_gapless);
            match swept {
                Ok(counts) => {
                    stats.states += counts.states;
                    stats.moves += counts.moves;
                }
                Err(error) => {
                    // The block is left unvalued: every process reads with checks from the
                    // next level on.
                    process.holes.store(true, Release);
                    for to in place.others() {
                        rounds
                            .input
                            .send((to as u32, first as u64, true, Vec::new()));
                    }
                    fault = Some(error);
                    break;
                }
            }
            if !block_gapless {
                process.holes.store(true, Release);
            }
            if !alone {
                let raws: Vec<A::Raw> = slots[indices].iter().map(Slot::raw).collect();
                for to in place.others() {
                    sent += 16 + raws.len() as u64 * width;
                    rounds
                        .input
                        .send((to as u32, first as u64, !block_gapless, raws.clone()));
                }
                rounds.flush(worker);
            }
        }
        stats.bytes_per_tier.push((level as usize, sent));
        rounds.settle(worker, &mut fault);
    }
    finish(
        &**game,
        slots,
        fault,
        game.tier_count(),
        stats,
        place.workers,
    )
}

/// Values for another process: `(to, tier, first rank, values as the slots hold them, in
/// rank order)`.
type Block<R> = (u32, u32, u64, Vec<R>);

/// One worker's part tier by tier: each tier's chunks of ranks shared out among the processes,
/// and within a process taken one at a time by its workers; a chunk's values are sent to the
/// other processes in rank order. One progress round per tier.
fn by_tiers<G, A>(
    worker: &mut timely::worker::Worker,
    game: &Arc<G>,
    process: &Arc<Process>,
) -> Result<Done, SolveError>
where
    G: Tiered + DenseIndex + Send + Sync + 'static,
    A: Slot,
    A::Raw: timely::ExchangeData,
{
    let place = Place::of(worker, process);
    let start = game.start();
    let (from, count) = (game.tier(&start), game.tier_count());
    let width = size_of::<A>() as u64;
    let len = game.index_len();
    let mut fault: Option<SolveError> = None;
    let values = process.values::<A>(len).map_err(|e| fault = Some(e)).ok();
    let mut rounds = {
        let (values, game) = (values.clone(), Arc::clone(game));
        dataflow(
            worker,
            |&(to, ..): &Block<A::Raw>| to,
            move |(_, tier, first, raws)| {
                let slots = slots::<A>(&values);
                let span = (*first, raws.len() as u64);
                walk(
                    &*game,
                    *tier as usize,
                    span,
                    &mut Counts::default(),
                    |rank, state| {
                        let slot = slots.get(game.index(state)).ok_or_else(|| {
                            SolveError::InvalidGame(format!(
                                "rank {rank} of tier {tier} has a dense index not below index_len"
                            ))
                        })?;
                        slot.set_raw(raws[(rank - first) as usize]);
                        Ok(0)
                    },
                )
            },
        )
    };
    let slots = slots::<A>(&values);
    let mut stats = WorkerStats {
        worker: place.me,
        peak_bytes: len as u64 * width,
        replicated: true,
        ..WorkerStats::default()
    };
    let alone = place.processes() == 1;
    for tier in (from..count).rev() {
        let tier_len = game.tier_len(tier);
        let ours = place.ours(tier_len.div_ceil(CHUNK as u64) as usize);
        let mut sent = 0u64;
        while fault.is_none()
            && let Some(unit) = place.take(tier, &ours)
        {
            let low = unit as u64 * CHUNK as u64;
            let span = (low, (CHUNK as u64).min(tier_len - low));
            match solve_chunk(&**game, tier, span, slots) {
                Ok(counts) => {
                    stats.states += counts.states;
                    stats.moves += counts.moves;
                }
                Err(error) => {
                    fault = Some(error);
                    break;
                }
            }
            if alone {
                continue;
            }
            // The chunk's values in rank order (a hole's slot reads 0, as no value does).
            let mut raws = vec![A::Raw::default(); span.1 as usize];
            let read = walk(
                &**game,
                tier,
                span,
                &mut Counts::default(),
                |rank, state| {
                    raws[(rank - low) as usize] = slots[game.index(state)].raw();
                    Ok(0)
                },
            );
            if let Err(error) = read {
                fault = Some(error);
                break;
            }
            for to in place.others() {
                sent += 16 + span.1 * width;
                rounds
                    .input
                    .send((to as u32, tier as u32, low, raws.clone()));
            }
            rounds.flush(worker);
        }
        stats.bytes_per_tier.push((tier, sent));
        rounds.settle(worker, &mut fault);
    }
    finish(&**game, slots, fault, count - from, stats, place.workers)
}

/// What a worker returns: its fault, else the start's value (on worker 0, if its slot holds
/// one: an empty slot is another worker's fault, or the game's, which `solve` names) and its
/// counts.
fn finish<G: DenseIndex, A: Slot>(
    game: &G,
    values: &[A],
    fault: Option<SolveError>,
    tiers: usize,
    stats: WorkerStats,
    workers: usize,
) -> Result<Done, SolveError> {
    if let Some(error) = fault {
        return Err(error);
    }
    let value = (stats.worker == 0)
        .then(|| values.get(game.index(&game.start())).and_then(Slot::value))
        .flatten();
    Ok(Done {
        value,
        workers,
        tiers,
        stats,
    })
}
