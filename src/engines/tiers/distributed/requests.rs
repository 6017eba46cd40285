//! The solve by requests: each worker values its own range of each tier's ranks, asking the
//! owners of the next states it does not hold for their values, a round at a time (the
//! module above says how).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use super::super::saving::Files;
use super::super::workers::{Done, WorkerStats, block};
use super::super::{Cell, KeepTiers, Kept, beyond_bound, peak, unheld};
use super::{BATCH, REPLY_HEADER_BYTES, REQUEST_BYTES, Reply, Request, saving};
use crate::engines::kernel::{Limits, combine};
use crate::error::SolveError;
use crate::game::{Score, Tiered, Turn};

/// What a worker solves with: the game, the budget, the workers per process, whether the solve
/// saves and how many tiers its file holds (as worker 0 told every worker), and (worker 0's
/// alone) the tier files.
pub(super) struct On<'a, G> {
    pub(super) game: &'a G,
    pub(super) limits: Limits,
    pub(super) threads: usize,
    pub(super) told: Option<usize>,
    pub(super) files: Option<Files>,
}

/// One worker's part of the solve by requests, its values in the narrowest type that holds
/// the game's bound.
pub(super) fn solve_by_bound<G: Tiered>(
    worker: &mut timely::worker::Worker,
    on: On<'_, G>,
    bound: Score,
) -> Result<Done, SolveError> {
    if bound <= Score::from(i8::MAX) {
        solve_on::<G, i8>(worker, on)
    } else if bound <= Score::from(i16::MAX) {
        solve_on::<G, i16>(worker, on)
    } else if bound <= Score::from(i32::MAX) {
        solve_on::<G, i32>(worker, on)
    } else {
        solve_on::<G, i64>(worker, on)
    }
}

/// The requests a worker sent this round, by a hash of the next state (2¹⁶ of them): a move
/// to a next state asked for already takes that request's answer. Direct-mapped, so a repeat
/// whose place another next state took since is asked again: that costs only traffic, and
/// keeps the check per move a load and a compare (a hash map's entry cost more than the bytes
/// saved in one process).
struct Recent {
    /// `(rank, tier, round, id)` per place (round 0: empty; a round is stamped with its first
    /// timestamp, from 1).
    places: Vec<(u64, u32, u64, u32)>,
}

impl Recent {
    const BITS: u32 = 16;

    fn new() -> Recent {
        Recent {
            places: vec![(0, 0, 0, 0); 1 << Self::BITS],
        }
    }

    fn place(tier: u32, rank: u64) -> usize {
        let mixed = (rank ^ (u64::from(tier) << 56)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - Self::BITS)) as usize
    }

    /// The id of this round's request for `(tier, rank)`, if it is remembered.
    fn id(&self, tier: u32, rank: u64, round: u64) -> Option<u32> {
        let (r, t, n, id) = self.places[Self::place(tier, rank)];
        (r == rank && t == tier && n == round).then_some(id)
    }

    fn remember(&mut self, tier: u32, rank: u64, round: u64, id: u32) {
        self.places[Self::place(tier, rank)] = (rank, tier, round, id);
    }
}

/// One worker's part of the solve, values stored as `V`.
fn solve_on<G: Tiered, V: Cell + timely::ExchangeData>(
    worker: &mut timely::worker::Worker,
    on: On<'_, G>,
) -> Result<Done, SolveError> {
    let On {
        game,
        limits,
        threads,
        told,
        mut files,
    } = on;
    let (index, workers) = (worker.index(), worker.peers());
    let start = game.start();
    let (from, count) = (game.tier(&start), game.tier_count());
    if from >= count {
        return Err(SolveError::InvalidGame(format!(
            "the start is in tier {from}, but the game has {count} tiers"
        )));
    }
    let width = size_of::<V>() as u64;
    let (needed, low, high) = peak(game, from, KeepTiers::Needed, width);
    // The budget is a process's: its workers' shares together, and in the process of worker 0
    // of a saving solve, a tier whole and its pieces received (to write it, or resumed, read).
    let whole = match told.is_some() && index < threads {
        true => (from..count)
            .map(|tier| game.tier_len(tier))
            .max()
            .unwrap_or(0)
            .saturating_mul(2 * width),
        false => 0,
    };
    let share = needed
        .div_ceil(workers as u64)
        .saturating_mul(threads as u64)
        .saturating_add(whole);
    if share > limits.memory_budget {
        return Err(SolveError::MemoryBudget {
            what: format!(
                "this process's share ({threads} of {workers} workers) of the tier solver's \
                 values (tiers {low} to {high} held at once){}",
                match whole {
                    0 => "",
                    _ => ", and a tier whole for the tier file",
                }
            ),
            needed: share,
            budget: limits.memory_budget,
        });
    }
    let lengths: Arc<Vec<u64>> = Arc::new((0..count).map(|tier| game.tier_len(tier)).collect());
    let store: Rc<RefCell<Kept<V>>> = Rc::new(RefCell::new((0..count).map(|_| None).collect()));
    let replies: Rc<RefCell<Vec<Score>>> = Rc::new(RefCell::new(Vec::new()));
    let faults: Rc<RefCell<Option<SolveError>>> = Rc::new(RefCell::new(None));
    let remote_replies = Rc::new(RefCell::new(0u64));
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    worker.dataflow::<u64, _, _>(|scope| {
        let (store, replies, faults, sent) = (
            Rc::clone(&store),
            Rc::clone(&replies),
            Rc::clone(&faults),
            Rc::clone(&remote_replies),
        );
        let (owners, lengths) = (Arc::clone(&lengths), Arc::clone(&lengths));
        scope
            .input_from(&mut input)
            .container::<Vec<Request>>()
            .unary::<CapacityContainerBuilder<Vec<Reply<V>>>, _, _, _>(
                Exchange::new(move |&(tier, rank, _, _): &Request| {
                    rank / block(owners[tier as usize], workers)
                }),
                "Answer",
                move |_, _| {
                    move |input, output| {
                        input.for_each_stamp(|capability, batches| {
                            let store = store.borrow();
                            let mut session = output.session(&capability);
                            for batch in batches {
                                for &(tier, rank, requester, id) in batch.iter() {
                                    let tier = tier as usize;
                                    let base = block(lengths[tier], workers) * index as u64;
                                    let held = store
                                        .get(tier)
                                        .and_then(Option::as_ref)
                                        .and_then(|values| values.get((rank - base) as usize));
                                    let value = match held {
                                        Some(&value) => value,
                                        None => {
                                            faults.borrow_mut().get_or_insert_with(|| {
                                                SolveError::InvalidGame(format!(
                                                    "worker {index} was asked for rank {rank} of \
                                                     tier {tier}, which it does not hold"
                                                ))
                                            });
                                            V::default()
                                        }
                                    };
                                    if requester as usize != index {
                                        *sent.borrow_mut() += 1;
                                    }
                                    session.give((requester, id, value));
                                }
                            }
                        });
                    }
                },
            )
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|&(requester, _, _): &Reply<V>| u64::from(requester)),
                "Collect",
                move |_, _| {
                    move |input, _output| {
                        input.for_each_stamp(|_, batches| {
                            let mut replies = replies.borrow_mut();
                            for batch in batches {
                                for &(_, id, value) in batch.iter() {
                                    replies[id as usize] = value.widen();
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });

    let mut stats = WorkerStats {
        worker: index,
        ..WorkerStats::default()
    };
    let mut fault: Option<SolveError> = None;
    let mut time = 0u64;
    // Per state of the round: its first move's slot, or `None` for a hole; and per move: the
    // state's place in the round, its gain and turn.
    let mut firsts: Vec<Option<usize>> = Vec::new();
    let mut pending: Vec<(Score, Turn)> = Vec::new();
    // Each move's value, by slot: read at once when this worker owns the next state, else
    // copied from the answer to the round's request for it (`remote`: slot and request id).
    let mut answers: Vec<Score> = Vec::new();
    let mut remote: Vec<(usize, u32)> = Vec::new();
    // The round's requests so far, by next state: a repeat is sent once.
    let mut asked = Recent::new();
    let reach = game.tier_reach().max(1);
    let mut held = 0u64;
    // Advances every worker's input to `time`, stepping until every message before it is in;
    // a worker with nothing to do parks until a message wakes it, so that workers past the
    // cores do not spin on the cores the others are valuing on.
    let settle = |input: &mut InputHandle<u64, CapacityContainerBuilder<Vec<Request>>>,
                  worker: &mut timely::worker::Worker,
                  time: u64| {
        input.advance_to(time);
        while probe.less_than(input.time()) {
            worker.step_or_park(None);
        }
    };
    // Drops the values of the tier `reach` past `tier` once no move can reach them: the bytes.
    let release = |tier: usize| match tier > from && tier + reach < count {
        true => store.borrow_mut()[tier + reach]
            .take()
            .map_or(0, |values| values.len() as u64 * width),
        false => 0,
    };
    // Whether worker 0 saves, and how many tiers its file holds: the same for every worker.
    let mut shares = saving::Shares::<V>::new(worker);
    let (saving, on_file) = (told.is_some(), told.unwrap_or(0));
    for tier in (from..count).rev() {
        let len = lengths[tier];
        let size = block(len, workers);
        let first = (size * index as u64).min(len);
        let owned = (first + size).min(len) - first;
        if tier >= count - on_file {
            // Read back by worker 0 and scattered: each worker holds its share, as if solved.
            let values = shares
                .read_back(worker, files.as_ref(), tier, len)
                .unwrap_or_else(|error| {
                    fault.get_or_insert(error);
                    Vec::new()
                });
            store.borrow_mut()[tier] = Some(values);
            // No worker asks for this share before its owner holds it.
            shares.barrier(worker);
            held += owned * width;
            stats.peak_bytes = stats.peak_bytes.max(held);
            stats.resumed += 1;
            held -= release(tier);
            continue;
        }
        // A failure is recorded, not returned: the other workers still need this one's steps.
        let values = super::super::allocate::<V>(owned, tier).unwrap_or_else(|error| {
            fault.get_or_insert(error);
            Vec::new()
        });
        store.borrow_mut()[tier] = Some(values);
        held += owned * width;
        stats.peak_bytes = stats.peak_bytes.max(held);
        let before = (stats.remote_requests, *remote_replies.borrow());
        for round in 0..size.div_ceil(BATCH) {
            let (low, high) = ((round * BATCH).min(owned), ((round + 1) * BATCH).min(owned));
            firsts.clear();
            pending.clear();
            answers.clear();
            remote.clear();
            let mut requests: u32 = 0;
            // The round's stamp in `asked`: its first timestamp, never 0 (an empty place's).
            let round_stamp = time + 1;
            if fault.is_none() {
                let held = store.borrow();
                let mut previous = None;
                for local in low..high {
                    let rank = first + local;
                    let state = match &previous {
                        Some(previous) => game.unrank_next(tier, rank, previous),
                        None => game.unrank(tier, rank),
                    };
                    firsts.push(state.as_ref().map(|_| pending.len()));
                    let Some(state) = state else {
                        previous = None;
                        continue;
                    };
                    game.ranked_children(&state, |gain, turn, to, child| {
                        let slot = pending.len() as u64;
                        pending.push((gain, turn));
                        if to <= tier || to >= count || child >= lengths[to] {
                            fault.get_or_insert_with(|| unheld(game, tier, rank, to, child));
                            answers.push(0);
                            return;
                        }
                        let size = block(lengths[to], workers);
                        if (child / size) as usize == index {
                            let values = held[to].as_deref().unwrap_or_default();
                            let local = (child - size * index as u64) as usize;
                            match values.get(local) {
                                Some(value) => answers.push(value.widen()),
                                None => {
                                    fault
                                        .get_or_insert_with(|| unheld(game, tier, rank, to, child));
                                    answers.push(0);
                                }
                            }
                        } else {
                            stats.remote_moves += 1;
                            let id = asked.id(to as u32, child, round_stamp).unwrap_or_else(|| {
                                let id = requests;
                                requests += 1;
                                stats.remote_requests += 1;
                                input.send((to as u32, child, index as u32, id));
                                asked.remember(to as u32, child, round_stamp, id);
                                id
                            });
                            remote.push((slot as usize, id));
                            answers.push(0);
                        }
                    });
                    previous = Some(state);
                }
            }
            {
                let mut replies = replies.borrow_mut();
                replies.clear();
                replies.resize(requests as usize, 0);
            }
            settle(&mut input, worker, time + 1);
            // Every answer of this round is in: value the round's states.
            if fault.is_none() {
                let replies = replies.borrow();
                for &(slot, id) in &remote {
                    answers[slot] = replies[id as usize];
                }
                let mut store = store.borrow_mut();
                let values = store[tier].as_mut().expect("allocated above");
                for (offset, first_move) in firsts.iter().enumerate() {
                    let Some(first_move) = *first_move else {
                        continue;
                    };
                    let last = firsts[offset + 1..]
                        .iter()
                        .find_map(|next| *next)
                        .unwrap_or(pending.len());
                    let rank = first + low + offset as u64;
                    let mut best: Option<Score> = None;
                    for slot in first_move..last {
                        let (gain, turn) = pending[slot];
                        match combine(gain, turn, answers[slot]) {
                            Ok(value) => best = Some(best.map_or(value, |best| best.max(value))),
                            Err(error) => {
                                fault.get_or_insert(error);
                            }
                        }
                    }
                    let value = match best {
                        Some(value) => value,
                        None => match game.unrank(tier, rank) {
                            Some(state) => game.payoff(&state),
                            None => 0,
                        },
                    };
                    match V::narrow(value) {
                        Some(cell) => values[(low + offset as u64) as usize] = cell,
                        None => {
                            fault.get_or_insert_with(|| beyond_bound(game, tier, rank, value));
                        }
                    }
                    stats.states += 1;
                    stats.moves += (last - first_move) as u64;
                }
            }
            // The barrier: past it, every worker has valued this round.
            settle(&mut input, worker, time + 2);
            time += 2;
        }
        let after = (stats.remote_requests, *remote_replies.borrow());
        let bytes = (after.0 - before.0) * REQUEST_BYTES
            + (after.1 - before.1) * (REPLY_HEADER_BYTES + width);
        stats.bytes_per_tier.push((tier, bytes));
        if let Some(error) = faults.borrow_mut().take() {
            fault.get_or_insert(error);
        }
        if saving {
            // Gathered to worker 0 and written; a worker with a fault sends nothing, and a tier
            // with a share missing is not written.
            let stored = store.borrow();
            let own = stored[tier].as_deref().filter(|_| fault.is_none());
            if let Err(error) = shares.write(worker, files.as_mut(), tier, len, own) {
                fault.get_or_insert(error);
            }
        }
        held -= release(tier);
    }
    // Worker 0 asks the start's owner for its value.
    let asked = index == 0 && fault.is_none();
    if asked {
        replies.borrow_mut().resize(1, 0);
        input.send((from as u32, game.rank(&start), 0, 0));
    }
    settle(&mut input, worker, time + 1);
    stats.remote_replies = *remote_replies.borrow();
    if let Some(error) = fault.or_else(|| faults.borrow_mut().take()) {
        return Err(error);
    }
    Ok(Done {
        value: asked.then(|| replies.borrow()[0]),
        workers,
        tiers: count - from,
        stats,
    })
}
