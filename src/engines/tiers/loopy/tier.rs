//! One tier solved from the solved tiers it leads to: its moves out of the tier first, then
//! backward induction over its moves within, level by level of remoteness.

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};

use rayon::prelude::*;

use super::{CHUNK, Classes, Code, LoopyStats, Tiers};
use crate::engines::retrograde::Outcome;
use crate::engines::tiers::Clock;
use crate::error::SolveError;
use crate::game::{Tiered, Turn};

/// What the moves out of its tier say of a state, and how many moves it has within the tier.
#[derive(Clone, Copy, Default)]
struct Seen {
    /// The fastest win by a move out of the tier, if any.
    win: Option<u32>,
    /// The slowest loss over moves out of the tier (0 if none).
    loss: u32,
    /// Whether a move out of the tier draws.
    draw: bool,
}

/// A bound kept for an undecided state: a win found by a move out of the tier (flag, then its
/// remoteness), or the slowest loss out of the tier and whether a move out of it draws.
pub(super) const WIN_FOUND: u16 = 1 << 15;
pub(super) const DRAW_FOUND: u16 = 1 << 14;
/// The high bit of a rank in the working lists: in a level's list, a win found by a move out of
/// the tier (not yet claimed); in a parent list, a move that keeps the turn.
const FLAG: u32 = 1 << 31;

/// Solves tier `tier` from the kept tiers after it.
pub(super) fn solve_tier<G, C>(
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
    let slots = usize::try_from(len)
        .ok()
        .filter(|&len| len <= FLAG as usize)
        .ok_or_else(|| {
            SolveError::Unsupported(format!(
                "tier {tier} has {len} ranks; the loopy tier solver numbers a tier's ranks in 32 bits"
            ))
        })?;
    let codes: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
    let pending: Vec<AtomicU8> = (0..slots).map(|_| AtomicU8::new(0)).collect();
    let bounds: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
    // 1. Each chunk's states valued from their moves out of the tier; moves within kept as
    // (child, parent) pairs, and the states decided at once with their remoteness.
    let chunks = first_look(
        game,
        classes,
        tier,
        kept,
        clock,
        (true, 0..len),
        |rank, code, bound, within| {
            let slot = rank as usize;
            codes[slot].store(code, Relaxed);
            pending[slot].store(within as u8, Relaxed);
            bounds[slot].store(bound, Relaxed);
        },
    )?;

    // 2. The reverse of the moves within the tier, as offsets and parents by child rank.
    let mut offsets = vec![0u32; slots + 1];
    let mut levels: Vec<Vec<u32>> = Vec::new();
    for chunk in &chunks {
        stats.states += chunk.states;
        stats.moves += chunk.moves;
        stats.moves_within += chunk.within_moves;
        for &(child, _) in &chunk.within {
            offsets[child as usize + 1] += 1;
        }
        for &(level, rank) in &chunk.decided {
            let level = level as usize;
            if levels.len() <= level {
                levels.resize_with(level + 1, Vec::new);
            }
            levels[level].push(rank);
        }
    }
    for slot in 0..slots {
        offsets[slot + 1] = offsets[slot + 1]
            .checked_add(offsets[slot])
            .ok_or_else(|| {
                SolveError::Unsupported(format!(
                    "tier {tier} has more than 2^32 moves within it; the loopy tier solver \
                     numbers them in 32 bits"
                ))
            })?;
    }
    let mut fill = offsets.clone();
    let mut parents = vec![0u32; offsets[slots] as usize];
    for chunk in chunks {
        for (child, parent) in chunk.within {
            parents[fill[child as usize] as usize] = parent;
            fill[child as usize] += 1;
        }
    }
    drop(fill);

    // 3. Levels of remoteness: a state decided at level `level` tells its parents.
    let mut level = 0;
    while level < levels.len() {
        clock.check(tier)?;
        if level as u32 > Code::MAX_REMOTENESS {
            return Err(SolveError::Unsupported(format!(
                "tier {tier} has remoteness past {}",
                Code::MAX_REMOTENESS
            )));
        }
        let at = std::mem::take(&mut levels[level]);
        let next: Vec<(u32, u32)> = at
            .par_iter()
            .flat_map_iter(|&entry| {
                let slot = (entry & !FLAG) as usize;
                let mut told = Vec::new();
                let mut code = codes[slot].load(Relaxed);
                if entry & FLAG != 0 {
                    // A win found by a move out of the tier, not beaten by one within it.
                    let won = Code::win(level as u32).0;
                    if codes[slot]
                        .compare_exchange(Code::UNDECIDED, won, Relaxed, Relaxed)
                        .is_err()
                    {
                        return told.into_iter();
                    }
                    code = won;
                }
                let lost = code % 2 == 1;
                for &parent in &parents[offsets[slot] as usize..offsets[slot + 1] as usize] {
                    let keeps = parent & FLAG != 0;
                    let parent = parent & !FLAG;
                    let p = parent as usize;
                    if codes[p].load(Relaxed) != Code::UNDECIDED {
                        continue;
                    }
                    // A move to a lost state that passes the turn wins, as does one to a won
                    // state that keeps it.
                    if lost != keeps {
                        let won = Code::win(level as u32 + 1).0;
                        if codes[p]
                            .compare_exchange(Code::UNDECIDED, won, Relaxed, Relaxed)
                            .is_ok()
                        {
                            told.push((level as u32 + 1, parent));
                        }
                    } else if pending[p].fetch_sub(1, Relaxed) == 1 {
                        let bound = bounds[p].load(Relaxed);
                        if bound & WIN_FOUND != 0 {
                            continue;
                        }
                        let code = if bound & DRAW_FOUND != 0 {
                            continue;
                        } else {
                            let slowest = u32::from(bound & !(WIN_FOUND | DRAW_FOUND));
                            (level as u32 + 1).max(slowest)
                        };
                        if codes[p]
                            .compare_exchange(Code::UNDECIDED, Code::loss(code).0, Relaxed, Relaxed)
                            .is_ok()
                        {
                            told.push((code, parent));
                        }
                    }
                }
                told.into_iter()
            })
            .collect();
        for (at_level, rank) in next {
            let at_level = at_level as usize;
            if levels.len() <= at_level {
                levels.resize_with(at_level + 1, Vec::new);
            }
            levels[at_level].push(rank);
        }
        level += 1;
    }

    // 4. What is left is drawn.
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

/// Counts a solved tier's wins, losses and draws into `stats`.
pub(super) fn tally(codes: &[u16], stats: &mut LoopyStats) {
    for &code in codes {
        match Code(code).decode() {
            Some((Outcome::Win, _)) => stats.wins += 1,
            Some((Outcome::Loss, _)) => stats.losses += 1,
            Some((Outcome::Draw, _)) => stats.draws += 1,
            None => {}
        }
    }
}

/// What the first look at a chunk of a tier's ranks found.
#[derive(Default)]
pub(super) struct Chunk {
    /// The moves within the tier, as (child, parent) ranks (the parent's high bit: the move
    /// keeps the turn), where asked for.
    within: Vec<(u32, u32)>,
    /// States decided with their remoteness, and wins found by moves out of the tier (the
    /// rank's high bit), as (level, rank), where asked for.
    decided: Vec<(u32, u32)>,
    /// States valued.
    pub(super) states: u64,
    /// Moves looked at.
    pub(super) moves: u64,
    /// Moves within the tier.
    pub(super) within_moves: u64,
}

/// Looks at every state of `ranks` of tier `tier` once, in parallel chunks: each is decided as far as its
/// moves out of the tier decide it (`store(rank, code, 0, 0)`), or kept undecided with the bound
/// those moves set and its count of moves within the tier (`store(rank, UNDECIDED, bound,
/// count)`). With `reverse`, the chunks keep the moves within the tier and the decided states
/// that backward induction starts from.
#[allow(clippy::too_many_arguments)]
pub(super) fn first_look<G, C>(
    game: &G,
    classes: &C,
    tier: usize,
    kept: &Tiers,
    clock: &Clock,
    (reverse, ranks): (bool, std::ops::Range<u64>),
    store: impl Fn(u64, u16, u16, u32) + Sync,
) -> Result<Vec<Chunk>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    let after: Vec<&[u16]> = kept[tier + 1..]
        .iter()
        .map(|codes| codes.as_deref().unwrap_or_default())
        .collect();

    (ranks.start / CHUNK..ranks.end.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| -> Result<Chunk, SolveError> {
            clock.check(tier)?;
            let mut out = Chunk::default();
            let first = (chunk * CHUNK).max(ranks.start);
            let mut state: Option<G::State> = None;
            for rank in first..ranks.end.min(chunk * CHUNK + CHUNK) {
                state = match state {
                    Some(previous) if rank > first => game.unrank_next(tier, rank, &previous),
                    _ => game.unrank(tier, rank),
                };
                let Some(here) = state.clone() else {
                    continue;
                };
                let canonical = classes.stand_in(game, here.clone());
                if canonical != here {
                    continue;
                }
                out.states += 1;
                let mut seen = Seen::default();
                let mut within = 0u32;
                let mut fault = None;
                let mut moves = 0;
                game.for_each_step(&here, |step| {
                    moves += 1;
                    if step.gain != 0 {
                        fault = Some(SolveError::InvalidGame(format!(
                            "a move of rank {rank} of tier {tier} gains {}: the loopy tier solver \
                             solves outcome games, whose moves gain nothing",
                            step.gain
                        )));
                        return false;
                    }
                    let child = classes.stand_in(game, step.next);
                    let to = game.tier(&child);
                    let at = game.rank(&child);
                    if to == tier {
                        if reverse {
                            let keeps = if step.turn == Turn::Keep { FLAG } else { 0 };
                            out.within.push((at as u32, rank as u32 | keeps));
                        }
                        within += 1;
                        return true;
                    }
                    let code = after
                        .get(to.wrapping_sub(tier + 1))
                        .and_then(|codes| codes.get(usize::try_from(at).ok()?))
                        .and_then(|&code| Code(code).decode());
                    let Some((outcome, remoteness)) = code else {
                        fault = Some(unheld(game, tier, rank, to, at));
                        return false;
                    };
                    let mine = if step.turn == Turn::Pass {
                        outcome.flipped()
                    } else {
                        outcome
                    };
                    let then = remoteness.unwrap_or(0) + 1;
                    match mine {
                        Outcome::Win => seen.win = Some(seen.win.map_or(then, |w| w.min(then))),
                        Outcome::Loss => seen.loss = seen.loss.max(then),
                        Outcome::Draw => seen.draw = true,
                    }
                    true
                });
                if let Some(fault) = fault {
                    return Err(fault);
                }
                out.moves += moves;
                out.within_moves += u64::from(within);
                if reverse && within > u32::from(u8::MAX) {
                    return Err(SolveError::Unsupported(format!(
                        "rank {rank} of tier {tier} has {within} moves within its tier; the loopy \
                         tier solver counts at most 255"
                    )));
                }
                let decided = if moves == 0 {
                    Some(match game.payoff(&here) {
                        1 => Code::win(0),
                        -1 => Code::loss(0),
                        0 => Code::DRAW,
                        other => {
                            return Err(SolveError::InvalidGame(format!(
                                "rank {rank} of tier {tier} has no move and payoff {other}: an \
                                 outcome game's final payoff is -1, 0 or 1"
                            )));
                        }
                    })
                } else if let Some(win) = seen.win.filter(|_| within == 0) {
                    Some(Code::win(win))
                } else if within == 0 {
                    Some(if seen.draw {
                        Code::DRAW
                    } else {
                        Code::loss(seen.loss)
                    })
                } else {
                    None
                };
                match decided {
                    Some(code) => {
                        store(rank, code.0, 0, 0);
                        if let (true, Some((_, Some(remoteness)))) = (reverse, code.decode()) {
                            out.decided.push((remoteness, rank as u32));
                        }
                    }
                    None => {
                        let bound = match seen.win {
                            Some(win) => {
                                if reverse {
                                    out.decided.push((win, rank as u32 | FLAG));
                                }
                                WIN_FOUND | win as u16
                            }
                            None => seen.loss as u16 | if seen.draw { DRAW_FOUND } else { 0 },
                        };
                        store(rank, Code::UNDECIDED, bound, within);
                    }
                }
            }
            Ok(out)
        })
        .collect()
}

/// The error for a move to a state the solver does not hold.
#[cold]
fn unheld<G: Tiered>(game: &G, tier: usize, rank: u64, to: usize, child: u64) -> SolveError {
    SolveError::InvalidGame(format!(
        "a move from tier {tier} (rank {rank}) leads to rank {child} of tier {to}, which the loopy \
         tier solver does not hold: moves must stay in their tier or lead to a later one, at most \
         tier_reach() = {} ahead, and ranks must be below tier_len",
        game.tier_reach()
    ))
}
