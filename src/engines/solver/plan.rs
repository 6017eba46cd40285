//! What [`Solver`] runs for a game: the engine, threads, tables and cuts its declarations
//! and the builder's options choose ([`Plan`]), the one policy of the library and the command
//! line.

use super::sample::{DEEP_PLIES, Sample, Sampled, Trials, sample};
use super::{Engine, Solver};
use crate::engines::kernel::RangeSource;
use crate::error::SolveError;
use crate::game::{
    Declares, Game,
    declaration::{
        IndexSlot, KeySlot, OnIndex, OnKey, OnRange, OnTiers, RangeSlot, SymmetrySlot, TierSlot,
    },
};
use crate::{CompactKey, DenseIndex, Tiered, ValueRange};

/// How a solve cuts on the values a state can still have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cuts {
    /// No cut: every move of every state is searched.
    None,
    /// The game's declared [`ValueRange`].
    Declared,
    /// −1..1, the values of an outcome game.
    Outcome,
}

/// What [`Solver`] will run: its reading of the game's declarations and the builder's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Plan {
    /// The engine.
    pub engine: Engine,
    /// Threads (1: the sequential engine).
    pub threads: usize,
    /// Whether values are kept in flat arrays by the game's [`DenseIndex`] (else hash tables):
    /// where the array fits the memory budget and pays, that is, the index is small (at most
    /// 2²⁰ slots) or at most 8 indices per state the game may store
    /// ([`state_bound`](Game::state_bound)): an index mostly of non-states is a large array to
    /// zero and miss in, where a hash table holds only the states met.
    pub dense: bool,
    /// Where the search cuts.
    pub cuts: Cuts,
    /// Whether the tables store each class of symmetric states once (the game declares its
    /// [`Symmetry`](crate::Symmetry), and the exhaustive, pruning or loopy tier engine runs).
    pub symmetry: bool,
    /// Whether the pruning engine searches on a fixed bound table keyed by the game's declared
    /// [`CompactKey`] that grows with the search
    /// ([`pruning::growing`](crate::engines::pruning::growing)), rather than on a hash table of
    /// whole states: the game declares its key, no symmetry, and its keys fit the first table.
    pub compact_key: bool,
    /// Why this engine: asked for, decided by the declarations, or chosen from a sample of the
    /// game.
    pub why: Why,
    /// The engine planned first, where it passed its share of the memory budget and this plan
    /// ran instead (retrograde analysis chosen by default past [`RETROGRADE_BYTES`]; the
    /// exhaustive engine chosen by the sample past the budget).
    pub instead_of: Option<Engine>,
}

/// Why a [`Plan`] runs its engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Why {
    /// The builder named it ([`Solver::engine`]).
    Asked,
    /// What the game declares decides (its tiers, chance, cycles, impartiality, an ordered
    /// index, a compact key, a small outcome game's dense index).
    Declared,
    /// The declarations leave the exhaustive and the pruning engine, and a sample of the game
    /// chose between them ([`Sample::prefers_pruning`]).
    Sampled(Sample),
    /// The declarations leave the exhaustive and the pruning engine, and the remoteness is
    /// asked for ([`Solver::remoteness`]), which only the exhaustive engine measures.
    Remoteness,
}

impl Why {
    /// The reason in words.
    pub fn describe(&self) -> String {
        match self {
            Why::Asked => "asked for".into(),
            Why::Declared => "what the game declares decides".into(),
            Why::Sampled(sample) => sample.describe(),
            Why::Remoteness => "the remoteness is asked for, which the pruning engine does not \
                                measure: the exhaustive engine values every state"
                .into(),
        }
    }
}

impl Plan {
    /// Why this plan runs its engine, in words: asked for, the declaration that decides, or the
    /// sample's figures; and the engine planned first, where it passed its share of the budget.
    ///
    /// ```
    /// use gamesolver::{games::TicTacToe, Solver};
    ///
    /// let plan = Solver::new(&TicTacToe).plan()?;
    /// assert!(plan.reason().contains("small outcome game"));
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn reason(&self) -> String {
        let mut words = match (self.why, self.engine) {
            (Why::Declared, engine) => match engine {
                Engine::LoopyTiers => "the game declares tiers, and that its play may cycle",
                Engine::Tiers => "the game declares tiers",
                Engine::Retrograde if self.threads == 1 && self.dense => {
                    "a small outcome game (a dense index of at most 2^20 slots): retrograde \
                     analysis gives the remoteness and the swift line"
                }
                Engine::Retrograde => "the game declares that its play may cycle",
                Engine::Sweep => "the game declares an ordered index",
                Engine::Nimbers => "the game declares itself impartial",
                Engine::Expectimax | Engine::ValueIteration => "the game declares chance",
                Engine::Pruning => "the game declares a compact key, for the fixed bound tables",
                Engine::Proof => "proof-number search",
                _ => {
                    "the game declares a dense index whose slots are mostly states: few enough \
                     to value each, in a flat array"
                }
            }
            .to_string(),
            (Why::Sampled(sample), Engine::Retrograde) => format!(
                "a random playout ran {} plies or more: a deep outcome game, whose states and \
                 moves (by its dense index and the start's moves) fit retrograde analysis's \
                 {} MiB: it values each state once, with no search as deep as the game, and \
                 gives the remoteness and the swift line",
                sample.depth,
                RETROGRADE_BYTES >> 20
            ),
            (why, _) => why.describe(),
        };
        if let Some(first) = self.instead_of {
            words.push_str(&format!(
                "; {first:?} was planned first and passed its share of the memory budget"
            ));
        }
        words
    }
}

/// The fewest slots from which a dense index must be backed by the states it holds to be
/// worth a flat array: smaller arrays (8 MiB of values) are always worth it.
const SMALL_INDEX: usize = 1 << 20;

/// How many indices per state a flat array may have beyond [`SMALL_INDEX`]: a hash table's
/// entry takes a few times a slot's 8 bytes, and an array whose slots are mostly not states
/// is mostly memory to zero and pages to miss.
const INDICES_PER_STATE: u64 = 8;

/// Whether a flat array of `index_len` values is worth it for a game that may store up to
/// `state_bound` states (if it knows), within `budget` bytes: it fits, and it is small or its
/// indices are mostly states. A game with a large index and no [`state_bound`](Game::state_bound)
/// is solved on a hash table (declare the bound to get the array).
pub(crate) fn dense_pays(index_len: usize, state_bound: Option<u64>, budget: u64) -> bool {
    let fits = crate::memo::DenseTable::bytes_for_len(index_len) <= budget;
    fits && (index_len <= SMALL_INDEX
        || state_bound
            .is_some_and(|states| index_len as u64 <= states.saturating_mul(INDICES_PER_STATE)))
}

/// A visitor that gives the length of the declared index.
struct IndexLen<'g, G>(&'g G);

impl<G: Game> OnIndex<G> for IndexLen<'_, G> {
    type Output = Option<usize>;
    fn declared(self) -> Option<usize>
    where
        G: DenseIndex,
    {
        Some(self.0.index_len())
    }
    fn undeclared(self) -> Option<usize> {
        None
    }
}

/// What a game declares, as plain facts.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Facts {
    range: bool,
    dense: bool,
    /// The declared index's length, and the game's bound on its states.
    index_len: Option<usize>,
    state_bound: Option<u64>,
    ordered: bool,
    tiers: bool,
    symmetry: bool,
    /// The bits of the declared compact key.
    key_bits: Option<u32>,
    pub(super) outcome_game: bool,
    pub(super) may_cycle: bool,
    /// Whether the game declares chance states.
    pub(super) chance: bool,
    /// Whether the game declares itself impartial.
    pub(super) impartial: bool,
    /// For an acyclic outcome game with a dense index (of any size): the bytes retrograde analysis's moves would take if every state had as many as the
    /// start, at four bytes each (a guess that chooses the engine, never a value).
    retrograde_guess: Option<u64>,
}

/// A visitor that gives the bits of the declared compact key.
struct KeyBits<'g, G>(&'g G);

impl<G: Game> OnKey<G> for KeyBits<'_, G> {
    type Output = Option<u32>;
    fn declared(self) -> Option<u32>
    where
        G: CompactKey,
    {
        Some(self.0.key_bits())
    }
    fn undeclared(self) -> Option<u32> {
        None
    }
}

/// A visitor that only tells whether a slot is declared.
struct IsDeclared;

impl<G: Game> OnRange<G> for IsDeclared {
    type Output = bool;
    fn declared(self) -> bool
    where
        G: ValueRange,
    {
        true
    }
    fn undeclared(self) -> bool {
        false
    }
}

impl<G: Game> OnIndex<G> for IsDeclared {
    type Output = bool;
    fn declared(self) -> bool
    where
        G: DenseIndex,
    {
        true
    }
    fn undeclared(self) -> bool {
        false
    }
}

/// A visitor that tells whether the index is declared [ordered](crate::Capabilities::ordered_index).
struct IsOrdered;

impl<G: Game> OnIndex<G> for IsOrdered {
    type Output = bool;
    fn declared(self) -> bool
    where
        G: DenseIndex,
    {
        false
    }
    fn undeclared(self) -> bool {
        false
    }
    fn ordered(self) -> bool
    where
        G: crate::game::StateAt,
    {
        true
    }
}

impl<G: Game> OnTiers<G> for IsDeclared {
    type Output = bool;
    fn declared(self) -> bool
    where
        G: Tiered,
    {
        true
    }
    fn undeclared(self) -> bool {
        false
    }
}

impl Facts {
    pub(super) fn of<G: Game, D: Declares<G>>(game: &G, declared: &D) -> Facts {
        let mut facts = Facts {
            range: <D::Range as RangeSlot<G>>::visit(IsDeclared),
            dense: <D::Index as IndexSlot<G>>::visit(IsDeclared),
            index_len: <D::Index as IndexSlot<G>>::visit(IndexLen(game)),
            state_bound: game.state_bound(),
            ordered: <D::Index as IndexSlot<G>>::visit(IsOrdered),
            tiers: <D::Tiers as TierSlot<G>>::visit(IsDeclared),
            symmetry: <D::Symmetry as SymmetrySlot<G>>::DECLARED,
            key_bits: <D::Key as KeySlot<G>>::visit(KeyBits(game)),
            outcome_game: declared.outcome_game(),
            may_cycle: declared.may_cycle(),
            chance: crate::game::declaration::declares_chance(declared),
            impartial: crate::game::declaration::declares_impartial(declared),
            retrograde_guess: None,
        };
        // The start's moves are listed only where they can choose the engine.
        if let Some(len) = facts.index_len.map(|len| len as u64)
            && facts.outcome_game
            && !facts.may_cycle
        {
            let mut moves = Vec::new();
            game.moves_into(&game.start(), &mut moves);
            facts.retrograde_guess =
                Some((moves.len() as u64).saturating_mul(len).saturating_mul(4));
        }
        facts
    }

    /// Whether the declarations leave the choice between the exhaustive and the pruning
    /// engine open: no tiers, chance, cycles, impartiality, ordered index or compact key; not a
    /// small outcome game for retrograde analysis (where `retrograde`); and no dense index that
    /// pays within `budget` ([`dense_pays`]: its slots are mostly states, so the states are few
    /// enough to hold each once, in an array that makes each cheap: the exhaustive engine's).
    fn open(&self, retrograde: bool, budget: u64) -> bool {
        !(self.chance
            || self.impartial
            || self.tiers
            || self.may_cycle
            || self.ordered
            || (retrograde && self.small_outcome_game())
            || self.key_bits.is_some()
            || self
                .index_len
                .is_some_and(|len| dense_pays(len, self.state_bound, budget)))
    }

    /// Whether retrograde analysis is the default for this acyclic outcome game: it declares a
    /// dense index of at most [`RETROGRADE_STATES`] slots, and its moves, guessed from the
    /// start's, stay within [`RETROGRADE_BYTES`]. A game like Nim 1,65535, with as many moves
    /// at a state as its index has slots, is left to the exhaustive engine, whose cut-offs suit
    /// it.
    fn small_outcome_game(&self) -> bool {
        self.index_len
            .is_some_and(|len| len as u64 <= RETROGRADE_STATES)
            && self.retrograde_fits()
    }

    /// Whether retrograde analysis of this acyclic outcome game, with its dense index, stays
    /// within [`RETROGRADE_BYTES`] by the guess from the start's moves, whatever the slots.
    fn retrograde_fits(&self) -> bool {
        self.retrograde_guess
            .is_some_and(|bytes| bytes <= RETROGRADE_BYTES)
    }
}

/// The most slots of its dense index for which an acyclic outcome game is solved by
/// retrograde analysis by default: it stores every state with its moves, and gives the
/// remoteness and the line in which the winner wins as fast, and the loser loses as slowly,
/// as it can. Past it the sample chooses: retrograde analysis still for a deep game (its
/// playouts run [`DEEP_PLIES`] or more) whose moves fit [`RETROGRADE_BYTES`], else the
/// exhaustive or the pruning engine and their cut-offs.
pub const RETROGRADE_STATES: u64 = 1 << 20;

/// The most memory retrograde analysis chosen by default may take (of the budget): past it the
/// solve starts again on the exhaustive engine, and the result's [`Plan`] says so.
pub const RETROGRADE_BYTES: u64 = 256 << 20;

impl<G: Game> Solver<'_, G> {
    /// The plan of a chance engine: expectimax on a flat array where the game's dense index
    /// fits the budget and pays, on the threads asked for; value iteration on one thread.
    fn chance_plan(&self, facts: Facts, engine: Engine) -> Plan {
        let budget = self.limits.memory_budget;
        let expectimax = engine == Engine::Expectimax;
        Plan {
            engine,
            threads: if expectimax { self.threads } else { 1 },
            dense: expectimax
                && facts.dense
                && facts
                    .index_len
                    .is_some_and(|len| dense_pays(len, facts.state_bound, budget)),
            cuts: Cuts::None,
            symmetry: false,
            compact_key: false,
            why: self.why_declared(),
            instead_of: None,
        }
    }

    /// Why a plan the declarations decide runs its engine: asked for, or declared.
    fn why_declared(&self) -> Why {
        if self.engine.is_some() {
            Why::Asked
        } else {
            Why::Declared
        }
    }

    /// The plan the declarations decide, where they do ([`Facts::open`] is false), for the
    /// engines that take no sample (tier files, chance).
    pub(super) fn plan_for(&self, facts: Facts) -> Result<Plan, SolveError> {
        self.choose(facts, true, None)
    }

    /// Whether `engine` is retrograde analysis chosen by default for a small outcome game (not
    /// asked for, and not the only way, as for a game that may cycle): it runs within
    /// [`RETROGRADE_BYTES`], and past it the exhaustive engine runs instead.
    pub(super) fn retrograde_by_default(&self, facts: Facts, engine: Engine) -> bool {
        self.engine.is_none() && !facts.may_cycle && engine == Engine::Retrograde
    }

    /// The plan of what the declarations decide; where they leave the exhaustive and the
    /// pruning engine, `sampled` is the engine a sample chose, and its sample (without one:
    /// the exhaustive engine).
    fn choose(
        &self,
        facts: Facts,
        retrograde: bool,
        sampled: Option<Sample>,
    ) -> Result<Plan, SolveError> {
        let engine = match self.engine {
            // The tier solver asked of a game whose play cycles within its tiers: the loopy
            // tier solver, the tier solver for such games.
            Some(Engine::Tiers) if facts.tiers && facts.may_cycle && facts.outcome_game => {
                Engine::LoopyTiers
            }
            Some(engine) => engine,
            None if facts.chance && facts.may_cycle => Engine::ValueIteration,
            None if facts.chance => Engine::Expectimax,
            None if facts.impartial => Engine::Nimbers,
            None if facts.tiers && facts.may_cycle && facts.outcome_game => Engine::LoopyTiers,
            None if facts.tiers => Engine::Tiers,
            None if facts.may_cycle => Engine::Retrograde,
            None if facts.ordered => Engine::Sweep,
            None if retrograde && facts.small_outcome_game() => Engine::Retrograde,
            // A compact key is for the pruning engine's fixed tables: a game too large to
            // value every state.
            None if facts.key_bits.is_some() => Engine::Pruning,
            // A deep outcome game (a line thousands of plies long) whose states and moves fit
            // retrograde analysis's share: it values each state once without a search as deep
            // as the game, where the exhaustive engine's cut-offs save little.
            // An outcome game the race did not solve, whose states the game often decides
            // itself: knowledge only proof search reads.
            None if sampled.is_some_and(|sample| sample.prefers_proof()) => Engine::Proof,
            None if retrograde
                && facts.retrograde_fits()
                && sampled.is_some_and(|sample| sample.depth >= DEEP_PLIES) =>
            {
                Engine::Retrograde
            }
            None if sampled.is_some_and(|sample| sample.prefers_pruning()) => Engine::Pruning,
            None => Engine::Exhaustive,
        };
        let chance_engine = matches!(engine, Engine::Expectimax | Engine::ValueIteration);
        if facts.chance && !chance_engine {
            return Err(SolveError::Unsupported(format!(
                "the game declares chance states, which {engine:?} cannot value (a roll is no \
                 player's choice): solve it with Solver::solve_chance"
            )));
        }
        if chance_engine {
            return Ok(self.chance_plan(facts, engine));
        }
        if engine == Engine::Nimbers {
            if !facts.impartial {
                return Err(SolveError::Unsupported(
                    "the nimber engine needs a game that declares itself impartial \
                     (Capabilities::impartial, with an implementation of Impartial)"
                        .into(),
                ));
            }
            return Ok(Plan {
                engine,
                threads: self.threads,
                dense: false,
                cuts: Cuts::None,
                symmetry: false,
                compact_key: false,
                why: self.why_declared(),
                instead_of: None,
            });
        }
        match engine {
            Engine::LoopyTiers if !(facts.tiers && facts.outcome_game) => {
                return Err(SolveError::Unsupported(
                    "the loopy tier solver needs an outcome game that declares its tiers \
                     (Capabilities::tiers().outcome_game(), with an implementation of Tiered)"
                        .into(),
                ));
            }
            Engine::Tiers if facts.may_cycle => {
                return Err(SolveError::Unsupported(
                    "the tier solver needs every move to lead to a later tier, and this game's \
                     play may cycle: the loopy tier solver solves an outcome game whose play \
                     cycles within its tiers (declare Capabilities::outcome_game)"
                        .into(),
                ));
            }
            Engine::Tiers if !facts.tiers => {
                return Err(SolveError::Unsupported(
                    "the tier solver needs a game that declares its tiers \
                     (Capabilities::tiers, with an implementation of Tiered)"
                        .into(),
                ));
            }
            Engine::Retrograde if !facts.outcome_game => {
                return Err(SolveError::Unsupported(format!(
                    "retrograde analysis needs an outcome game (payoffs of +1, 0 or -1 and moves \
                     that gain nothing), declared with Capabilities::outcome_game{}",
                    if facts.may_cycle {
                        "; a game that may cycle is solved only this way"
                    } else {
                        ""
                    }
                )));
            }
            Engine::Sweep if !facts.ordered => {
                return Err(SolveError::Unsupported(
                    "the sweep needs a game whose dense index orders it \
                     (Capabilities::ordered_index, with an implementation of StateAt)"
                        .into(),
                ));
            }
            _ => {}
        }
        let exhaustive = matches!(engine, Engine::Exhaustive | Engine::Sweep);
        let cuts = match engine {
            Engine::Pruning if facts.range => Cuts::Declared,
            Engine::Pruning if facts.outcome_game => Cuts::Outcome,
            _ if exhaustive && facts.range => Cuts::Declared,
            _ if exhaustive && facts.outcome_game => Cuts::Outcome,
            _ => Cuts::None,
        };
        // A game the sample's race solved: its winner's answer, found on one thread without
        // the tables a symmetry, a dense index or a compact key would have chosen.
        let raced = sampled.is_some_and(|sample| sample.solved_by.is_some());
        let budget = self.limits.memory_budget;
        let dense = !raced
            && facts.dense
            && match engine {
                // The sweep values every index: the array wherever it fits.
                Engine::Sweep => facts
                    .index_len
                    .is_some_and(|len| crate::memo::DenseTable::bytes_for_len(len) <= budget),
                Engine::Exhaustive => facts
                    .index_len
                    .is_some_and(|len| dense_pays(len, facts.state_bound, budget)),
                Engine::Retrograde => true,
                _ => false,
            };
        // The sweep runs on one thread; so do the engines the solver chose itself for a game
        // it knows to be small (a pool's start costs more than it saves): retrograde analysis
        // of a small outcome game, and the exhaustive engine below `SERIAL_CUTOFF` states.
        let small = facts
            .state_bound
            .is_some_and(|bound| bound < crate::engines::exhaustive::SERIAL_CUTOFF);
        let threads = match engine {
            Engine::Sweep | Engine::Proof => 1,
            _ if raced => 1,
            Engine::Retrograde if self.retrograde_by_default(facts, engine) => 1,
            Engine::Exhaustive if self.engine.is_none() && small => 1,
            _ => self.threads,
        };
        let symmetry = !raced
            && facts.symmetry
            && matches!(
                engine,
                Engine::Exhaustive | Engine::Pruning | Engine::LoopyTiers
            );
        let compact_key = engine == Engine::Pruning
            && !raced
            && !symmetry
            && facts.key_bits.is_some_and(|bits| {
                crate::engines::pruning::growing::Stages::new(self.limits).holds_keys(bits)
            });
        Ok(Plan {
            engine,
            threads,
            dense,
            cuts,
            symmetry,
            compact_key,
            why: sampled.map_or(self.why_declared(), Why::Sampled),
            instead_of: None,
        })
    }
}

impl<G: Game + Sync> Solver<'_, G>
where
    G::State: Eq + std::hash::Hash + Send + Sync,
{
    /// The plan for `declared`: what the declarations decide, and where they leave the
    /// exhaustive and the pruning engine, the one a [`Sample`] of the game prefers. Without
    /// `retrograde`, retrograde analysis is not the default (it has passed its share).
    pub(super) fn settle<D: Declares<G>>(
        &self,
        declared: &D,
        facts: Facts,
        retrograde: bool,
    ) -> Result<Plan, SolveError> {
        self.settle_with(declared, facts, retrograde)
            .map(|(plan, _)| plan)
    }

    /// [`settle`](Solver::settle), with what the sample's race leaves for the solve.
    pub(super) fn settle_with<D: Declares<G>>(
        &self,
        declared: &D,
        facts: Facts,
        retrograde: bool,
    ) -> Result<Settled<G::State>, SolveError> {
        if self.engine.is_some() || !facts.open(retrograde, self.limits.memory_budget) {
            return Ok((self.choose(facts, retrograde, None)?, None));
        }
        if self.remoteness {
            let mut plan = self.choose(facts, retrograde, None)?;
            plan.why = Why::Remoteness;
            return Ok((plan, None));
        }
        let (sampled, trials) = super::declared::with_range_of(
            declared,
            Sampling {
                game: self.game,
                outcome_game: facts.outcome_game,
                limits: self.limits,
                threads: self.threads,
            },
        )?;
        Ok((self.choose(facts, retrograde, Some(sampled))?, trials))
    }
}

/// A plan, and what the sample's race left for the solve (none without a sample).
pub(super) type Settled<S> = (Plan, Option<Trials<S>>);

/// The sample, with the range source the game declares.
struct Sampling<'g, G> {
    game: &'g G,
    outcome_game: bool,
    limits: crate::Limits,
    threads: usize,
}

impl<G: Game + Sync> super::declared::RangeJob<G> for Sampling<'_, G>
where
    G::State: Eq + std::hash::Hash + Send + Sync,
{
    type Output = Result<Sampled<G::State>, SolveError>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        sample(
            self.game,
            range,
            self.outcome_game,
            self.limits,
            self.threads,
        )
    }
}
