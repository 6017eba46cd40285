//! What the checker reports: one broken promise of the [`Game`] contract, with its evidence.

use std::fmt::{self, Debug};

use crate::game::{Game, Score, Step, Turn};

/// One broken promise, with the evidence. Its `Debug` form is its `Display` sentence.
#[non_exhaustive]
pub enum Violation<G: Game + ?Sized> {
    /// `moves` gave different moves for the same state on two calls.
    MovesNotDeterministic {
        /// The state.
        state: G::State,
        /// The first answer.
        first: Vec<G::Move>,
        /// The second answer.
        second: Vec<G::Move>,
    },
    /// `play` gave different steps for the same state and move on two calls.
    PlayNotDeterministic {
        /// The state.
        state: G::State,
        /// The move.
        mv: G::Move,
        /// The first step.
        first: Step<G::State>,
        /// The second step.
        second: Step<G::State>,
    },
    /// Equal states (or one state hashed twice) hashed differently.
    HashInconsistent {
        /// The state.
        state: G::State,
    },
    /// Two equal states, reached by different lines, differ in their moves, known value or
    /// payoff: equality misses something that matters, so a memo table would mix them up.
    IncompleteState {
        /// The state as first reached.
        first: G::State,
        /// The equal state that behaves differently.
        second: G::State,
        /// What differs.
        difference: &'static str,
    },
    /// [`moves_into`](Game::moves_into), handed a buffer that holds moves, did not append
    /// exactly the moves of `moves` after them: it removed or changed what the buffer held, or
    /// listed other moves.
    MovesIntoDisagree {
        /// The state.
        state: G::State,
        /// What `moves` gave.
        moves: Vec<G::Move>,
        /// The buffer after `moves_into`, which held `moves` before.
        listed: Vec<G::Move>,
    },
    /// [`moves_batch`](Game::moves_batch)'s batches, concatenated, are not `moves` (or it
    /// promised batches past any sensible count).
    BatchesDisagree {
        /// The state.
        state: G::State,
        /// What `moves` gave.
        moves: Vec<G::Move>,
        /// What the batches gave, in order.
        batched: Vec<G::Move>,
    },
    /// [`for_each_step`](Game::for_each_step) does not give the steps of `moves` played in
    /// order, or does not stop when told to.
    StepsDisagree {
        /// The state.
        state: G::State,
        /// What differs.
        what: &'static str,
    },
    /// Two states that are equal were stored apart by a hash map: `Hash` hashes something
    /// `Eq` ignores (a path counter, say), so a memo table stores one state many times.
    EqualStatesApart {
        /// One state.
        first: G::State,
        /// An equal state with a different hash.
        second: G::State,
    },
    /// A line of moves returned to a state already on it (and the game is not declared cyclic).
    Cycle {
        /// The states of the cycle, from the repeated state back to it.
        line: Vec<G::State>,
    },
    /// A move's gain lies outside the declared range.
    PointsOutOfRange {
        /// The state.
        state: G::State,
        /// The move.
        mv: G::Move,
        /// The gain.
        gain: Score,
    },
    /// A payoff lies outside the declared range.
    PayoffOutOfRange {
        /// The final state.
        state: G::State,
        /// Its payoff.
        payoff: Score,
    },
    /// The retrograde solver's outcome or remoteness of a state differs from value iteration's
    /// ([`check_outcome`](super::check_outcome)).
    OutcomeDisagrees {
        /// The state.
        state: G::State,
        /// What the retrograde solver found.
        retrograde: (crate::engines::retrograde::Outcome, Option<u32>),
        /// What value iteration found.
        iteration: (crate::engines::retrograde::Outcome, Option<u32>),
    },
    /// A gain, payoff or known value is `Score::MIN`, which is never a value.
    InvalidScore {
        /// The state.
        state: G::State,
        /// Which score.
        what: &'static str,
    },
    /// `known_value` disagrees with a full search of the state's subgame.
    KnownValueWrong {
        /// The state.
        state: G::State,
        /// What `known_value` said.
        claimed: Score,
        /// What an unmemoized negamax found.
        actual: i128,
    },
    /// `decided` gives a value a full search does not find, or a witness `verify_decided`
    /// refuses.
    DecidedWrong {
        /// The state.
        state: G::State,
        /// The value `decided` gave.
        claimed: Score,
        /// What an unmemoized negamax found.
        actual: i128,
        /// What `verify_decided` said of the witness, where it refused it.
        refused: Option<String>,
    },
    /// `forced_move` names a move that is not among the state's moves.
    ForcedMoveIllegal {
        /// The state.
        state: G::State,
        /// The move `forced_move` named.
        mv: G::Move,
    },
    /// The value of playing the move `forced_move` names is not the state's value (a full
    /// search of the state's subgame finds a better move).
    ForcedMoveWrong {
        /// The state.
        state: G::State,
        /// The move `forced_move` named.
        mv: G::Move,
        /// What playing it is worth.
        forced: i128,
        /// What an unmemoized negamax found for the state.
        actual: i128,
    },
    /// The engine failed on a state (a score overflow, say): the game's values leave the range
    /// engines work in, or the game broke its contract in a way the engine caught.
    EngineFailed {
        /// The state.
        state: G::State,
        /// The engine's error.
        error: crate::SolveError,
        /// What an unmemoized negamax found, where it could.
        reference: Option<i128>,
    },
    /// A chance state's outcomes' probabilities break the [`Chance`](crate::game::Chance)
    /// contract (one not more than 0 or past 1, a sum other than 1, answers that change).
    ChanceWrong {
        /// The state.
        state: G::State,
        /// What is wrong.
        problem: String,
    },
    /// A game declared impartial breaks the contract of [`Impartial`](crate::game::Impartial)
    /// at a state (a move that keeps the turn).
    NotImpartial {
        /// The state.
        state: G::State,
        /// What is wrong.
        problem: String,
    },
    /// A nimber (the XOR of a state's declared parts', the nimber engine's, or a known
    /// nimber the engine read) disagrees with the mex over the state's literal moves, never
    /// split.
    NimberWrong {
        /// The state.
        state: G::State,
        /// Whose nimber.
        what: &'static str,
        /// Its nimber.
        claimed: crate::game::Nimber,
        /// The plain mex's.
        reference: crate::game::Nimber,
    },
    /// An expectation (the exact expectimax engine's value, or a known value) disagrees with
    /// a plain expectimax over the literal moves and outcomes.
    ExpectationWrong {
        /// The state.
        state: G::State,
        /// Whose value: `"the expectimax engine"` or `"known_value"`.
        what: &'static str,
        /// Its value.
        claimed: crate::engines::chance::Rational,
        /// The plain expectimax's.
        reference: crate::engines::chance::Rational,
    },
    /// The memoized engine disagrees with an unmemoized negamax.
    EngineDisagrees {
        /// The state.
        state: G::State,
        /// The engine's value.
        engine: Score,
        /// The unmemoized negamax's value.
        reference: i128,
    },
    /// A state's value lies outside the range `ValueRange::value_range` declares for it (the
    /// pruning engine and the exhaustive engine cutting on the range then give wrong answers).
    OutsideRange {
        /// The state.
        state: G::State,
        /// Its exact value.
        value: Score,
        /// The declared range.
        range: (Score, Score),
    },
    /// `CompactKey::key` returned a key of more than `key_bits()` bits.
    KeyTooWide {
        /// The state.
        state: G::State,
        /// Its key.
        key: u128,
        /// The bits the game declared.
        bits: u32,
    },
    /// Two states of different values share a `CompactKey::key`: a table keeps them as one.
    KeyJoinsUnequal {
        /// One state.
        first: G::State,
        /// Another with the same key.
        second: G::State,
        /// Their values, by an unmemoized negamax.
        values: (i128, i128),
    },
    /// `DenseIndex::index` returned an index outside `0..index_len()`.
    IndexOutOfRange {
        /// The state.
        state: G::State,
        /// The index.
        index: usize,
        /// `index_len()`.
        len: usize,
    },
    /// Two different states got the same `DenseIndex::index`.
    IndexCollision {
        /// One state.
        first: G::State,
        /// Another.
        second: G::State,
        /// Their shared index.
        index: usize,
    },
    /// A game that declares an ordered index (`Capabilities::ordered_index`) has a move that
    /// does not lead to a smaller index.
    IndexNotOrdered {
        /// The state.
        state: G::State,
        /// The move.
        mv: G::Move,
        /// The state's index.
        index: usize,
        /// The next state's index.
        next: usize,
    },
    /// A game that declares a subset index (`Capabilities::subset_index`) has a move that
    /// leads to an index with a bit the state's index does not have.
    IndexNotSubset {
        /// The state.
        state: G::State,
        /// The move.
        mv: G::Move,
        /// The state's index.
        index: usize,
        /// The next state's index.
        next: usize,
    },
    /// `StateAt::state_at` does not give a state back at its index.
    StateAtNotInverse {
        /// The state.
        state: G::State,
        /// Its index.
        index: usize,
        /// What `state_at(index)` gave.
        given: Option<G::State>,
    },
    /// A move leads to a tier that is not later than its state's, or further ahead than
    /// `Tiered::tier_reach` (the tier solver then cannot find the next state's value).
    TierNotLater {
        /// The state.
        state: G::State,
        /// The move.
        mv: G::Move,
        /// The state's tier.
        tier: usize,
        /// The next state's tier.
        next: usize,
        /// `tier_reach()`.
        reach: usize,
    },
    /// A state's tier or rank is out of range, or `unrank(tier, rank(state))` is not the
    /// state (rank and unrank are not inverse).
    RankNotInverse {
        /// The state.
        state: G::State,
        /// Its tier.
        tier: usize,
        /// Its rank.
        rank: u64,
        /// What `unrank(tier, rank)` gave (not asked when the tier or rank is out of range).
        unranked: Option<G::State>,
    },
    /// `Tiered::unrank_next` from the state of the rank before gives something else than the
    /// state `unrank` gives.
    UnrankNextDisagrees {
        /// The state of rank `rank`.
        state: G::State,
        /// Its tier.
        tier: usize,
        /// Its rank.
        rank: u64,
        /// The state of rank `rank − 1`.
        previous: G::State,
        /// What `unrank_next(tier, rank, previous)` gave.
        next: Option<G::State>,
    },
    /// `Tiered::ranked_children` reports something else than the game's moves, played and
    /// ranked, as `(gain, turn, tier, rank)` in the order of `moves`.
    RankedChildrenDisagree {
        /// The state.
        state: G::State,
        /// What `moves`, `play`, `tier` and `rank` give.
        expected: Vec<(Score, Turn, usize, u64)>,
        /// What `ranked_children` gave.
        reported: Vec<(Score, Turn, usize, u64)>,
    },
}

impl<G> fmt::Display for Violation<G>
where
    G: Game + ?Sized,
    G::State: Debug,
    G::Move: Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::MovesNotDeterministic {
                state,
                first,
                second,
            } => write!(f, "moves({state:?}) answered {first:?}, then {second:?}"),
            Violation::PlayNotDeterministic {
                state,
                mv,
                first,
                second,
            } => write!(
                f,
                "play({state:?}, {mv:?}) answered {first:?}, then {second:?}"
            ),
            Violation::HashInconsistent { state } => {
                write!(f, "{state:?} hashes differently from an equal state")
            }
            Violation::IncompleteState {
                first,
                second,
                difference,
            } => write!(
                f,
                "{first:?} and {second:?} are equal but their {difference} differ: the state \
                 does not determine the game (a memo table would confuse them)"
            ),
            Violation::MovesIntoDisagree {
                state,
                moves,
                listed,
            } => write!(
                f,
                "moves_into({state:?}, …) left {listed:?} in a buffer that held {moves:?}, but \
                 moves({state:?}) is {moves:?}: it must append exactly the moves of moves, in \
                 order, and leave what the buffer held as it was"
            ),
            Violation::BatchesDisagree {
                state,
                moves,
                batched,
            } => write!(
                f,
                "the batches of moves_batch({state:?}, …) are {batched:?} in order, but \
                 moves({state:?}) is {moves:?}: concatenated, the batches must be exactly the \
                 moves, in their order"
            ),
            Violation::EqualStatesApart { first, second } => write!(
                f,
                "{first:?} and {second:?} are equal but hash differently: Hash covers \
                 something Eq ignores, so a memo table stores equal states again and again"
            ),
            Violation::Cycle { line } => write!(f, "a line returns to {:?}: {line:?}", line[0]),
            Violation::PointsOutOfRange { state, mv, gain } => {
                write!(
                    f,
                    "play({state:?}, {mv:?}) gains {gain}, outside the declared range"
                )
            }
            Violation::PayoffOutOfRange { state, payoff } => {
                write!(
                    f,
                    "payoff({state:?}) is {payoff}, outside the declared range"
                )
            }
            Violation::OutcomeDisagrees {
                state,
                retrograde,
                iteration,
            } => write!(
                f,
                "retrograde analysis finds {retrograde:?} (outcome, remoteness) at {state:?}, \
                 value iteration {iteration:?}"
            ),
            Violation::InvalidScore { state, what } => {
                write!(
                    f,
                    "the {what} at {state:?} is Score::MIN, which is never a value"
                )
            }
            Violation::KnownValueWrong {
                state,
                claimed,
                actual,
            } => write!(
                f,
                "known_value({state:?}) is {claimed}, but a full search finds {actual}"
            ),
            Violation::DecidedWrong {
                state,
                claimed,
                actual,
                refused,
            } => {
                write!(
                    f,
                    "decided({state:?}) gives {claimed}, and a full search finds {actual}"
                )?;
                match refused {
                    Some(why) => write!(f, "; verify_decided refuses its witness: {why}"),
                    None => Ok(()),
                }
            }
            Violation::ForcedMoveIllegal { state, mv } => write!(
                f,
                "forced_move({state:?}) is {mv:?}, which is not among the state's moves"
            ),
            Violation::ForcedMoveWrong {
                state,
                mv,
                forced,
                actual,
            } => write!(
                f,
                "forced_move({state:?}) is {mv:?}, worth {forced}, but a full search finds \
                 {actual} for the state"
            ),
            Violation::EngineFailed {
                state,
                error,
                reference,
            } => {
                write!(f, "the engine fails at {state:?}: {error}")?;
                match reference {
                    Some(value) if value.unsigned_abs() > Score::MAX as u128 => write!(
                        f,
                        " (a full search finds {value}, outside the engines' range ±i64::MAX: \
                         the game's points are too large)"
                    ),
                    Some(value) => write!(f, " (a full search finds {value}, in range)"),
                    None => Ok(()),
                }
            }
            Violation::NotImpartial { state, problem } => {
                write!(
                    f,
                    "the game declares itself impartial, but at {state:?}: {problem}"
                )
            }
            Violation::NimberWrong {
                state,
                what,
                claimed,
                reference,
            } => write!(
                f,
                "{what} gives {state:?} the nimber {claimed}; the mex over its literal moves, \
                 never split, gives {reference}"
            ),
            Violation::ChanceWrong { state, problem } => {
                write!(f, "at the chance state {state:?}: {problem}")
            }
            Violation::ExpectationWrong {
                state,
                what,
                claimed,
                reference,
            } => write!(
                f,
                "{what} values {state:?} at {claimed}, a plain expectimax over its moves and \
                 outcomes at {reference}"
            ),
            Violation::EngineDisagrees {
                state,
                engine,
                reference,
            } => write!(
                f,
                "the engine values {state:?} at {engine}, an unmemoized negamax at {reference}"
            ),
            Violation::OutsideRange {
                state,
                value,
                range: (low, high),
            } => write!(
                f,
                "value_range({state:?}) is {low}..={high}, but the state's value is {value}: \
                 a range must hold the value, or range-cutting searches answer wrongly"
            ),
            Violation::KeyTooWide { state, key, bits } => write!(
                f,
                "key({state:?}) is {key:#x}, wider than the {bits} bits key_bits() declares"
            ),
            Violation::KeyJoinsUnequal {
                first,
                second,
                values: (one, other),
            } => write!(
                f,
                "{first:?} (value {one}) and {second:?} (value {other}) share a key: a table \
                 would keep them as one state"
            ),
            Violation::IndexOutOfRange { state, index, len } => {
                write!(f, "index({state:?}) is {index}, outside 0..{len}")
            }
            Violation::IndexCollision {
                first,
                second,
                index,
            } => {
                write!(f, "{first:?} and {second:?} share index {index}")
            }
            Violation::StepsDisagree { state, what } => write!(
                f,
                "for_each_step at {state:?} {what} (it must give the steps of moves, played in \
                 order, until told to stop)"
            ),
            Violation::IndexNotOrdered {
                state,
                mv,
                index,
                next,
            } => write!(
                f,
                "the index is declared to order the game, but move {mv:?} at {state:?} (index \
                 {index}) leads to index {next}, not below it"
            ),
            Violation::IndexNotSubset {
                state,
                mv,
                index,
                next,
            } => write!(
                f,
                "the index is declared a subset index, but move {mv:?} at {state:?} (index \
                 {index:#b}) leads to index {next:#b}, with bits {:#b} the state's does not have",
                next & !index
            ),
            Violation::StateAtNotInverse {
                state,
                index,
                given,
            } => write!(
                f,
                "state_at({index}) gives {given:?}, not {state:?}, whose index it is"
            ),
            Violation::TierNotLater {
                state,
                mv,
                tier,
                next,
                reach,
            } => write!(
                f,
                "play({state:?}, {mv:?}) leads from tier {tier} to tier {next}: every move must \
                 lead to a later tier (or stay in its own, in a game that may cycle), at most \
                 tier_reach() = {reach} ahead"
            ),
            Violation::RankNotInverse {
                state,
                tier,
                rank,
                unranked,
            } => match unranked {
                Some(unranked) => write!(
                    f,
                    "{state:?} has rank {rank} in tier {tier}, but unrank({tier}, {rank}) is \
                     {unranked:?}: rank and unrank must be inverse"
                ),
                None => write!(
                    f,
                    "{state:?} has rank {rank} in tier {tier}, but the tier or the rank is out of \
                     range, or unrank({tier}, {rank}) is None"
                ),
            },
            Violation::UnrankNextDisagrees {
                state,
                tier,
                rank,
                previous,
                next,
            } => write!(
                f,
                "unrank_next({tier}, {rank}, {previous:?}) is {next:?}, but unrank({tier}, \
                 {rank}) is {state:?}"
            ),
            Violation::RankedChildrenDisagree {
                state,
                expected,
                reported,
            } => write!(
                f,
                "ranked_children({state:?}) reports {reported:?}, but its moves played and ranked \
                 are {expected:?} (gain, turn, tier, rank)"
            ),
        }
    }
}

impl<G> Debug for Violation<G>
where
    G: Game + ?Sized,
    G::State: Debug,
    G::Move: Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
