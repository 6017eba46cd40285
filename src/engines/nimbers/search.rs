//! The searches of [`Nimbers`]: a part's nimber by Beling and Rogalski's pruning, a sum's by
//! Lemoine and Viennot's rule, and a position's whole nimber by aspiration sets.
//!
//! A part with `n` moves has a nimber in `0..=n` (the mex of `n` nimbers), so its search starts
//! from those `n + 1` *candidates* and takes one away for each option: the option's nimber
//! where the option is asked about it and answers, else the largest candidate. Taking the
//! largest is safe: the least candidate never taken is the mex (were the mex taken as the
//! largest, every candidate left would lie below it, yet each of those is an option's nimber
//! or was taken itself). So each option is asked only about the candidates but the largest,
//! and only up to the largest nimber the caller asks about; once no asked nimber is left, the
//! search stops. A part searched to its end enters the table with its nimber.

use super::set::NimberSet;
use super::{Lookup, Nimbers, SEARCH_DEPTH, cancel_pairs, cycle, unasked};
use crate::error::SolveError;
use crate::game::{Impartial, Nimber};

/// An option of a part being searched: its parts whose nimbers are not known
/// (`parts[first..first + len]`, the heaviest first) and the XOR of the others'.
#[derive(Clone, Copy)]
struct Open {
    first: usize,
    len: usize,
    xor: Nimber,
    weight: u64,
}

/// What asking a part's open options about one candidate found: the options still open
/// (their lighter parts valued), and the nimbers of those that answered.
struct Asked {
    open: Vec<Open>,
    found: Vec<Nimber>,
}

/// A part's options, split and read against the table (kept by the engine between searches,
/// so that a search allocates nothing once the buffers have grown).
pub(super) struct Opened<M, S> {
    /// The part's moves.
    moves: Vec<M>,
    /// The options whose parts' nimbers are not all known, the lightest first.
    open: Vec<Open>,
    /// Their unknown parts.
    parts: Vec<S>,
}

impl<M, S> Default for Opened<M, S> {
    fn default() -> Self {
        Opened {
            moves: Vec::new(),
            open: Vec::new(),
            parts: Vec::new(),
        }
    }
}

impl<G> Nimbers<'_, G>
where
    G: Impartial,
    G::State: Eq + std::hash::Hash,
{
    /// The nimber of `state`: the XOR of its parts', the heaviest part by aspiration sets (is it
    /// 0? then 1? …), the others by the pruned search.
    pub fn nimber(&mut self, state: &G::State) -> Result<Nimber, SolveError> {
        self.nimber_by(state, Self::ask_in_turn)
    }

    /// [`nimber`](Nimbers::nimber) on the current rayon pool: for each candidate, the heaviest
    /// part's options are asked at once, each by a worker of its own, and every nimber found
    /// goes to a table the workers share, which comes back into this engine's table after. On
    /// a pool of one thread, [`nimber`](Nimbers::nimber).
    pub fn par_nimber(&mut self, state: &G::State) -> Result<Nimber, SolveError>
    where
        G: Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        if rayon::current_num_threads() < 2 {
            return self.nimber(state);
        }
        self.share();
        let nimber = self.nimber_by(state, Self::ask_all);
        // The questions asked after (the line, the moves) read one table, without locks.
        self.unshare();
        nimber
    }

    /// [`nimber`](Nimbers::nimber), the heaviest part's options asked by `ask`.
    fn nimber_by<F>(&mut self, state: &G::State, ask: F) -> Result<Nimber, SolveError>
    where
        F: FnMut(&mut Self, Vec<Open>, &[G::State], Nimber) -> Result<Asked, SolveError>,
    {
        let mut parts = self.parts(state);
        let heaviest = self.heaviest(&parts);
        let mut xor = 0;
        if let Some(at) = heaviest {
            let last = parts.swap_remove(at);
            for part in parts {
                xor ^= self.value(part, 0)?;
            }
            xor ^= self.root_nimber(last, ask)?;
        }
        Ok(xor)
    }

    /// Whether the player to move at `state` wins: whether its nimber is not 0.
    pub fn wins(&mut self, state: &G::State) -> Result<bool, SolveError> {
        self.equals(state, 0).map(|lost| !lost)
    }

    /// Whether `state`'s nimber is `nimber`, searched with cut-offs: Lemoine and Viennot over its
    /// parts (all but the heaviest valued, the heaviest searched for the one nimber that brings
    /// the sum to `nimber`), Beling and Rogalski within.
    pub fn equals(&mut self, state: &G::State, nimber: Nimber) -> Result<bool, SolveError> {
        let Some(asked) = NimberSet::single(nimber) else {
            return Ok(self.nimber(state)? == nimber);
        };
        let parts = self.parts(state);
        Ok(self.sum_in_set(parts, asked, 0)? == Some(nimber))
    }

    /// The index of the heaviest part of `parts` (the game's weight) whose nimber is not known
    /// (the first part where every part's is).
    fn heaviest(&self, parts: &[G::State]) -> Option<usize> {
        (0..parts.len())
            .filter(|&at| matches!(self.lookup(&parts[at]), Lookup::Missing))
            .max_by_key(|&at| self.weight(&parts[at]))
            .or((!parts.is_empty()).then_some(0))
    }

    /// How hard a part is to value, about: the game's [`weight`](Impartial::weight).
    fn weight(&self, part: &G::State) -> u64 {
        self.game.weight(part)
    }

    /// The nimber of the sum of `parts` where it lies in `asked` (or is found on the way);
    /// `None`: it does not lie in `asked`.
    fn sum_in_set(
        &mut self,
        mut parts: Vec<G::State>,
        asked: NimberSet,
        depth: usize,
    ) -> Result<Option<Nimber>, SolveError> {
        let Some(at) = self.heaviest(&parts) else {
            return Ok(Some(0));
        };
        let last = parts.swap_remove(at);
        let mut xor = 0;
        for part in parts {
            xor ^= self.value(part, depth)?;
        }
        match asked.xor(xor) {
            Some(shifted) => Ok(self
                .part_in_set(last, shifted, depth)?
                .map(|nimber| nimber ^ xor)),
            None => Ok(Some(xor ^ self.value(last, depth)?)),
        }
    }

    /// The nimber of one part, exactly.
    fn value(&mut self, part: G::State, depth: usize) -> Result<Nimber, SolveError> {
        self.part_in_set(part, NimberSet::ALL, depth)?
            .ok_or_else(unasked)
    }

    /// Splits each option of `part` (its moves `opened.moves`) and reads its parts against the
    /// table: an option whose parts' nimbers are all known takes its nimber from
    /// `candidates`, the others go to `opened`, lightest first. `false`: `candidates` no
    /// longer meets `asked` (the search can stop before it splits the rest).
    fn options(
        &mut self,
        part: &G::State,
        opened: &mut Opened<G::Move, G::State>,
        candidates: &mut NimberSet,
        asked: NimberSet,
    ) -> Result<bool, SolveError> {
        let Opened { moves, open, parts } = opened;
        open.clear();
        parts.clear();
        for mv in moves.iter() {
            let first = parts.len();
            let next = self.game.play(part, mv).next;
            self.game.split(&next, parts);
            cancel_pairs(parts, first);
            let mut xor = 0;
            let mut at = first;
            while at < parts.len() {
                match self.lookup(&parts[at]) {
                    Lookup::Known(nimber) => {
                        self.stats.hits += 1;
                        xor ^= nimber;
                        parts.swap_remove(at);
                    }
                    Lookup::InProgress => return Err(cycle(0)),
                    Lookup::Missing => at += 1,
                }
            }
            let len = parts.len() - first;
            if len == 0 {
                candidates.remove(xor);
                if candidates.and(asked).is_empty() {
                    return Ok(false);
                }
                continue;
            }
            let mut weight = 0;
            let mut heaviest = (0, first);
            for (at, part) in parts.iter().enumerate().skip(first) {
                let part_weight = self.weight(part);
                // Squared: an option cut in two small parts comes before one left whole.
                weight += part_weight.saturating_mul(part_weight);
                if part_weight > heaviest.0 {
                    heaviest = (part_weight, at);
                }
            }
            parts.swap(first, heaviest.1);
            open.push(Open {
                first,
                len,
                xor,
                weight,
            });
        }
        open.sort_by_key(|option| option.weight);
        Ok(true)
    }

    /// Values all but the heaviest part of `option` (folding their nimbers into its XOR), so
    /// that only the heaviest is left to search.
    fn narrow(
        &mut self,
        option: &mut Open,
        parts: &[G::State],
        depth: usize,
    ) -> Result<(), SolveError> {
        while option.len > 1 {
            option.len -= 1;
            option.xor ^= self.value(parts[option.first + option.len].clone(), depth)?;
        }
        Ok(())
    }

    /// The nimber of `part` where it lies in `asked` or the search finds it on the way (then it
    /// is stored); `None`: it does not lie in `asked`. Beling and Rogalski's search (the
    /// module's documentation).
    pub(super) fn part_in_set(
        &mut self,
        part: G::State,
        asked: NimberSet,
        depth: usize,
    ) -> Result<Option<Nimber>, SolveError> {
        match self.lookup(&part) {
            Lookup::Known(nimber) => {
                self.stats.hits += 1;
                return Ok(Some(nimber));
            }
            Lookup::InProgress => return Err(cycle(depth)),
            Lookup::Missing => {}
        }
        let Some(top) = asked.max() else {
            return Ok(None);
        };
        if depth >= SEARCH_DEPTH {
            // Too deep for the native stack.
            return self.part_nimber(part).map(Some);
        }
        let mut opened = self.spare.pop().unwrap_or_default();
        opened.moves.clear();
        self.game.moves_into(&part, &mut opened.moves);
        let Some(mut candidates) = NimberSet::up_to(opened.moves.len() as Nimber) else {
            // More moves than the sets hold.
            self.spare.push(opened);
            return self.part_nimber(part).map(Some);
        };
        self.check_now()?;
        self.stats.expanded += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth + 1);
        // A game that cycles, against its declaration, recurses past `SEARCH_DEPTH` and is
        // caught by `part_nimber`'s marks.
        let exact = self.search_part(&part, &mut opened, &mut candidates, asked, top, depth);
        self.spare.push(opened);
        let Some(exact) = exact? else {
            return Ok(None);
        };
        // The least candidate left is the nimber where every option answered, or where it is
        // at most the largest asked (see the module's documentation).
        let nimber = candidates.min().unwrap_or(0);
        if exact || nimber <= top {
            self.store(part, nimber)?;
            return Ok(Some(nimber));
        }
        Ok(None)
    }

    /// [`part_in_set`](Nimbers::part_in_set)'s loop over the options: takes candidates away,
    /// and says whether every option answered; `None` where it stopped early, no asked
    /// candidate left.
    fn search_part(
        &mut self,
        part: &G::State,
        opened: &mut Opened<G::Move, G::State>,
        candidates: &mut NimberSet,
        asked: NimberSet,
        top: Nimber,
        depth: usize,
    ) -> Result<Option<bool>, SolveError> {
        if !self.options(part, opened, candidates, asked)? {
            return Ok(None);
        }
        let relevant = NimberSet::ALL.up_to_and_with(top);
        let mut exact = true;
        for at in 0..opened.open.len() {
            if candidates.and(asked).is_empty() {
                return Ok(None);
            }
            let mut option = opened.open[at];
            let parts = &opened.parts;
            let largest = candidates.max().unwrap_or(0);
            let mut others = *candidates;
            others.remove(largest);
            let ask = others.and(relevant);
            self.narrow(&mut option, parts, depth + 1)?;
            let found = match ask.xor(option.xor) {
                _ if ask.is_empty() => None,
                Some(shifted) => self
                    .part_in_set(parts[option.first].clone(), shifted, depth + 1)?
                    .map(|nimber| nimber ^ option.xor),
                None => Some(option.xor ^ self.value(parts[option.first].clone(), depth + 1)?),
            };
            match found {
                Some(nimber) if others.contains(nimber) => candidates.remove(nimber),
                Some(_) => candidates.remove(largest),
                None => {
                    candidates.remove(largest);
                    exact = false;
                }
            }
        }
        Ok(Some(exact))
    }

    /// The nimber of one part by aspiration sets: is it 0? (each option asked by `ask` only
    /// whether its nimber is 0), then 1, and so on; an option that answers with its nimber is
    /// not asked again.
    fn root_nimber<F>(&mut self, part: G::State, mut ask: F) -> Result<Nimber, SolveError>
    where
        F: FnMut(&mut Self, Vec<Open>, &[G::State], Nimber) -> Result<Asked, SolveError>,
    {
        match self.lookup(&part) {
            Lookup::Known(nimber) => return Ok(nimber),
            Lookup::InProgress => return Err(cycle(0)),
            Lookup::Missing => {}
        }
        let mut opened = Opened::default();
        self.game.moves_into(&part, &mut opened.moves);
        let count = opened.moves.len() as Nimber;
        // The candidates no option's nimber was found to rule out.
        let Some(mut candidates) = NimberSet::up_to(count) else {
            // More moves than the candidate sets hold: the whole mex.
            return self.part_nimber(part);
        };
        self.stats.expanded += 1;
        if !self.options(&part, &mut opened, &mut candidates, NimberSet::ALL)? {
            return Err(unasked());
        }
        let Opened { open, parts, .. } = opened;
        let mut open = distinct(open, &parts);
        let mut nimber = count;
        for candidate in 0..count {
            if !candidates.contains(candidate) {
                continue;
            }
            let asked = ask(self, open, &parts, candidate)?;
            open = asked.open;
            for &found in &asked.found {
                candidates.remove(found);
            }
            if !asked.found.contains(&candidate) {
                nimber = candidate;
                break;
            }
        }
        self.store(part, nimber)?;
        Ok(nimber)
    }

    /// Asks the options of `open` in turn whether their nimber is `candidate`, up to the first
    /// that says yes.
    fn ask_in_turn(
        &mut self,
        mut open: Vec<Open>,
        parts: &[G::State],
        candidate: Nimber,
    ) -> Result<Asked, SolveError> {
        let mut found = Vec::new();
        let mut at = 0;
        while at < open.len() {
            self.narrow(&mut open[at], parts, 1)?;
            match self.ask(open[at], parts, candidate)? {
                Some(nimber) => {
                    open.remove(at);
                    found.push(nimber);
                    if nimber == candidate {
                        break;
                    }
                }
                None => at += 1,
            }
        }
        Ok(Asked { open, found })
    }

    /// Asks every option of `open` at once whether its nimber is `candidate`, each by a worker
    /// of its own on the current rayon pool; once one says yes, the options not yet started
    /// are not asked.
    fn ask_all(
        &mut self,
        open: Vec<Open>,
        parts: &[G::State],
        candidate: Nimber,
    ) -> Result<Asked, SolveError>
    where
        G: Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicBool, Ordering};

        let yes = AtomicBool::new(false);
        let workers: Vec<Self> = open.iter().map(|_| self.worker()).collect();
        let replies: Vec<_> = (open.into_par_iter())
            .zip(workers)
            .map(|(mut option, mut worker)| {
                if yes.load(Ordering::Relaxed) {
                    return Ok((option, None, worker.stats));
                }
                let found = worker
                    .narrow(&mut option, parts, 1)
                    .and_then(|()| worker.ask(option, parts, candidate));
                // What the worker found goes to the journal before the worker goes, whether
                // or not it finished.
                let saved = worker.save_now();
                let found = found?;
                saved?;
                if found == Some(candidate) {
                    yes.store(true, Ordering::Relaxed);
                }
                Ok((option, found, worker.stats))
            })
            .collect::<Result<_, SolveError>>()?;
        let mut asked = Asked {
            open: Vec::new(),
            found: Vec::new(),
        };
        for (option, found, stats) in replies {
            self.stats += stats;
            match found {
                Some(nimber) => asked.found.push(nimber),
                None => asked.open.push(option),
            }
        }
        Ok(asked)
    }

    /// Asks `option` (its lighter parts valued) whether its nimber is `candidate`: its nimber
    /// where the search found it, `None` where it is not `candidate`.
    fn ask(
        &mut self,
        option: Open,
        parts: &[G::State],
        candidate: Nimber,
    ) -> Result<Option<Nimber>, SolveError> {
        let first = parts[option.first].clone();
        let found = match NimberSet::single(candidate ^ option.xor) {
            Some(asked) => self.part_in_set(first, asked, 1)?,
            None => Some(self.value(first, 1)?),
        };
        Ok(found.map(|nimber| nimber ^ option.xor))
    }
}

/// `open` less the options that are the same sum of parts as one before them (mirror-image
/// moves): asked once, not searched twice.
fn distinct<S: PartialEq>(open: Vec<Open>, parts: &[S]) -> Vec<Open> {
    let mut distinct: Vec<Open> = Vec::with_capacity(open.len());
    for option in open {
        let same = |kept: &Open| {
            let theirs = &parts[kept.first..kept.first + kept.len];
            kept.xor == option.xor
                && kept.len == option.len
                && parts[option.first..option.first + option.len]
                    .iter()
                    .all(|part| theirs.contains(part))
        };
        if !distinct.iter().any(same) {
            distinct.push(option);
        }
    }
    distinct
}
