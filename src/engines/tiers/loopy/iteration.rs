//! One tier solved by value iteration: no reverse of the tier's moves is kept, only a code and
//! a bound a rank; each pass over the undecided states decides those whose remoteness is the
//! pass's level, from their moves as the codes stand.
//!
//! Pass `r` decides a state won in `r` (its fastest winning move, within the tier or out of it,
//! takes `r` moves) and a state lost in `r` (every move decided as a win for the opponent, the
//! slowest taking `r`). By induction every state of remoteness below `r` is decided when pass `r`
//! runs, and what a pass writes has remoteness `r`, which cannot decide anything at level `r`:
//! the passes' results do not depend on the order the states are visited in, on any number of
//! threads. When a pass decides nothing, the next level anything can be decided at is the next
//! bound a move out of the tier set; past the last, what is left is drawn.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::tier::{DRAW_FOUND, WIN_FOUND, first_look, tally};
use super::{CHUNK, Classes, Code, LoopyStats, Tiers};
use crate::engines::retrograde::Outcome;
use crate::engines::tiers::Clock;
use crate::error::SolveError;
use crate::game::{Tiered, Turn};

/// Solves tier `tier` from the kept tiers after it, by value iteration.
pub(super) fn iterate_tier<G, C>(
    game: &G,
    classes: &C,
    tier: usize,
    kept: &Tiers,
    clock: &Clock,
    stats: &mut LoopyStats,
) -> Result<Vec<u16>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    let len = game.tier_len(tier);
    let slots = usize::try_from(len).map_err(|_| {
        SolveError::Unsupported(format!(
            "tier {tier} has {len} ranks, past this machine's address space"
        ))
    })?;
    let codes: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
    let bounds: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();

    // 1. Every state valued as far as its moves out of the tier decide it; the others keep a
    // bound (as backward induction keeps it).
    let looked = first_look(
        game,
        classes,
        tier,
        kept,
        clock,
        (false, 0..len),
        |rank, code, bound, _| {
            codes[rank as usize].store(code, Relaxed);
            bounds[rank as usize].store(bound, Relaxed);
        },
    )?;
    for chunk in looked {
        stats.states += chunk.states;
        stats.moves += chunk.moves;
        stats.moves_within += chunk.within_moves;
    }

    // 2. Passes, level by level of remoteness.
    let chunks = len.div_ceil(CHUNK);
    let mut level: u32 = 1;
    loop {
        clock.check(tier)?;
        super::within_codes(tier, level)?;
        let moves = AtomicU64::new(0);
        let decided: u64 = (0..chunks)
            .into_par_iter()
            .map(|chunk| -> Result<u64, SolveError> {
                clock.check(tier)?;
                let mut decided = 0;
                let mut looked = 0;
                let first = chunk * CHUNK;
                for rank in first..len.min(first + CHUNK) {
                    let slot = rank as usize;
                    if codes[slot].load(Relaxed) != Code::UNDECIDED {
                        continue;
                    }
                    let bound = bounds[slot].load(Relaxed);
                    let code = decision(
                        game,
                        classes,
                        (tier, rank),
                        bound,
                        level,
                        &mut looked,
                        |at| codes[at].load(Relaxed),
                    );
                    if let Some(code) = code {
                        codes[slot].store(code.0, Relaxed);
                        decided += 1;
                    }
                }
                moves.fetch_add(looked, Relaxed);
                Ok(decided)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        stats.moves += moves.into_inner();
        if decided > 0 {
            level += 1;
            continue;
        }
        // Nothing decided at this level: none can be at the next from within the tier, so
        // the next level is the next bound a move out of the tier set.
        let next = next_level(
            level,
            (0..slots).into_par_iter().filter_map(|slot| {
                (codes[slot].load(Relaxed) == Code::UNDECIDED).then(|| bounds[slot].load(Relaxed))
            }),
        );
        match next {
            Some(next) => level = next,
            None => break,
        }
    }

    // 3. What is left is drawn.
    let codes: Vec<u16> = codes
        .into_par_iter()
        .map(|code| match code.into_inner() {
            Code::UNDECIDED => Code::DRAW.0,
            code => code,
        })
        .collect();
    tally(&codes, stats);
    Ok(codes)
}

/// The code pass `level` gives the undecided rank `rank` of `tier` (of bound `bound`), reading
/// the tier's codes with `code_at`: a win or a loss at `level`, or `None` (still undecided).
/// Counts the moves it looks at into `looked`.
pub(super) fn decision<G, C>(
    game: &G,
    classes: &C,
    (tier, rank): (usize, u64),
    bound: u16,
    level: u32,
    looked: &mut u64,
    code_at: impl Fn(usize) -> u16,
) -> Option<Code>
where
    G: Tiered,
    C: Classes<G>,
{
    let state = game.unrank(tier, rank)?;
    let mut fastest_win = (bound & WIN_FOUND != 0).then_some(u32::from(bound & !WIN_FOUND));
    let mut slowest_loss = u32::from(bound & !(WIN_FOUND | DRAW_FOUND));
    // Whether every move is decided as a win for the opponent (so far).
    let mut all_lost = bound & (WIN_FOUND | DRAW_FOUND) == 0;
    game.for_each_step(&state, |step| {
        *looked += 1;
        let child = classes.stand_in(game, step.next);
        if game.tier(&child) != tier {
            return true; // in the bound already
        }
        let Some((outcome, remoteness)) = Code(code_at(game.rank(&child) as usize)).decode() else {
            all_lost = false; // undecided
            return true;
        };
        let mine = if step.turn == Turn::Pass {
            outcome.flipped()
        } else {
            outcome
        };
        let then = remoteness.unwrap_or(0) + 1;
        match mine {
            Outcome::Win => {
                fastest_win = Some(fastest_win.map_or(then, |w| w.min(then)));
                all_lost = false;
            }
            Outcome::Loss => slowest_loss = slowest_loss.max(then),
            Outcome::Draw => all_lost = false,
        }
        true
    });
    match fastest_win {
        Some(win) if win == level => Some(Code::win(level)),
        _ if all_lost && slowest_loss == level => Some(Code::loss(level)),
        _ => None,
    }
}

/// After a pass at `level` that decided nothing: the next level anything can be decided at,
/// the least bound past `level` among the undecided states' `bounds` that may still decide one
/// (a win found out of the tier, or a loss with no draw); `None` when there is none.
pub(super) fn next_level(level: u32, bounds: impl ParallelIterator<Item = u16>) -> Option<u32> {
    bounds
        .filter_map(|bound| {
            let at = u32::from(bound & !(WIN_FOUND | DRAW_FOUND));
            (at > level && (bound & WIN_FOUND != 0 || bound & DRAW_FOUND == 0)).then_some(at)
        })
        .min()
}
