//! What a tier solve found ([`TierSolution`]), and the values it kept in either layout.

use super::dense::{self, IndexOf};
use super::{Cell, Kept, TierStats};
use crate::engines::kernel::{MoveValue, Ply, combine};
use crate::error::SolveError;
use crate::game::{Player, Score, Tiered};

/// The values of the tiers a solve kept, in the width it chose.
#[derive(Debug)]
pub(super) enum Store {
    I8(Kept<i8>),
    I16(Kept<i16>),
    I32(Kept<i32>),
    I64(Kept<i64>),
    /// Every tier in one array by the game's dense index.
    Dense(dense::Values),
}

impl Store {
    /// The value of rank `rank` of `tier` (`None` in the dense layout, which is not by rank).
    pub(super) fn get(&self, tier: usize, rank: u64) -> Option<Score> {
        fn at<V: Cell>(tiers: &[Option<Vec<V>>], tier: usize, rank: u64) -> Option<Score> {
            let values = tiers.get(tier)?.as_ref()?;
            Some(values.get(usize::try_from(rank).ok()?)?.widen())
        }
        match self {
            Store::I8(tiers) => at(tiers, tier, rank),
            Store::I16(tiers) => at(tiers, tier, rank),
            Store::I32(tiers) => at(tiers, tier, rank),
            Store::I64(tiers) => at(tiers, tier, rank),
            Store::Dense(_) => None,
        }
    }
}

/// The value of `state` in `store`: at its dense index if the store is laid out by one, else
/// at its rank in its tier.
pub(super) fn store_at<G: Tiered>(
    store: &Store,
    index: Option<IndexOf<G>>,
    game: &G,
    state: &G::State,
) -> Option<Score> {
    match (store, index) {
        (Store::Dense(values), Some(index)) => values.at(index(game, state)),
        _ => store.get(game.tier(state), game.rank(state)),
    }
}

/// The values a tier solve found: the start's, and every state's in the tiers it kept.
#[derive(Debug)]
pub struct TierSolution<'g, G: Tiered> {
    pub(super) game: &'g G,
    pub(super) start: G::State,
    pub(super) value: Score,
    pub(super) store: Store,
    /// The game's dense index, if the values are laid out by it.
    pub(super) index: Option<IndexOf<G>>,
    pub(super) stats: TierStats,
}

impl<G: Tiered> TierSolution<'_, G> {
    /// The value of the start for the first player.
    pub fn value(&self) -> Score {
        self.value
    }

    /// What the solve did.
    pub fn stats(&self) -> TierStats {
        self.stats
    }

    /// The value of `state` for its mover, if its tier was kept (every tier is, in the dense
    /// layout: [`TierStats::dense`]).
    ///
    /// ```
    /// use gamesolver::{engines::tiers::{self, KeepTiers}, games::DotsAndBoxes, Game, Limits};
    ///
    /// let game = DotsAndBoxes::new(1, 1).unwrap();
    /// let all = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
    /// assert_eq!(all.value_of(&game.start()), Some(-1));
    /// assert_eq!(all.value_of(&0b0111), Some(1)); // three edges drawn: take the box
    /// // A byte per board (16 of them) fits the default budget: laid out by the drawn edges,
    /// // every tier is kept.
    /// assert!(tiers::solve(&game, tiers::Options::new()).unwrap().stats().dense);
    /// assert_eq!(tiers::solve(&game, tiers::Options::new()).unwrap().value_of(&0b0111), Some(1));
    /// // Within 12 bytes, only the start's tier and the next are kept, by rank.
    /// let needed = tiers::solve(&game, tiers::Options::new().limits(Limits::with_memory_budget(12)));
    /// assert_eq!(needed.unwrap().value_of(&0b0111), None);
    /// ```
    pub fn value_of(&self, state: &G::State) -> Option<Score> {
        store_at(&self.store, self.index, self.game, state)
    }

    /// Every move of `state` with its value for the mover, if the tiers of its next states
    /// were kept.
    ///
    /// ```
    /// use gamesolver::{engines::tiers::{self, KeepTiers}, games::DotsAndBoxes, Game, Limits};
    ///
    /// let game = DotsAndBoxes::new(1, 1).unwrap();
    /// let solution = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
    /// let moves = solution.move_values(&game.start()).unwrap();
    /// assert_eq!(moves.len(), 4);
    /// assert!(moves.iter().all(|mv| mv.value == -1));
    /// ```
    pub fn move_values(&self, state: &G::State) -> Option<Vec<MoveValue<G>>> {
        move_values_by(self.game, state, |next| Ok(self.value_of(next))).unwrap_or(None)
    }

    /// The optimal line of play from the start (at each state, the first move in the game's
    /// order that keeps the value), if every tier was kept
    /// ([`KeepTiers::All`](super::KeepTiers::All), or the dense layout).
    pub fn line(&self) -> Option<Vec<Ply<G>>> {
        line_by(self.game, &self.start, self.value, |state| {
            Ok(self.value_of(state))
        })
        .unwrap_or(None)
    }

    /// Every index's value, in index order, where the values are laid out by the game's
    /// [`DenseIndex`](crate::DenseIndex) ([`TierStats::dense`]): `None` at an index no state
    /// was valued at. `None` for values kept by rank. A saved table (`--save`) is written from
    /// it.
    ///
    /// ```
    /// use gamesolver::{engines::tiers, games::DotsAndBoxes, DenseIndex, Game};
    ///
    /// let game = DotsAndBoxes::new(1, 1).unwrap();
    /// let solution = tiers::solve(&game, tiers::Options::new()).unwrap();
    /// let slots: Vec<_> = solution.slot_values().unwrap().collect();
    /// assert_eq!(slots.len(), game.index_len());
    /// assert_eq!(slots[game.index(&game.start())], Some(solution.value()));
    /// ```
    pub fn slot_values(&self) -> Option<impl ExactSizeIterator<Item = Option<Score>> + '_> {
        match &self.store {
            Store::Dense(values) => Some((0..values.len()).map(|index| values.at(index))),
            _ => None,
        }
    }

    /// The state the solve started from.
    pub fn start(&self) -> &G::State {
        &self.start
    }

    /// The game solved.
    pub fn game(&self) -> &G {
        self.game
    }
}

/// Every move of `state` with its value for the mover, from `value_of` the states they lead to;
/// `None` where `value_of` holds no value for one of them.
pub(super) fn move_values_by<G: Tiered>(
    game: &G,
    state: &G::State,
    mut value_of: impl FnMut(&G::State) -> Result<Option<Score>, SolveError>,
) -> Result<Option<Vec<MoveValue<G>>>, SolveError> {
    let mut moves = Vec::new();
    game.moves_into(state, &mut moves);
    let mut values = Vec::with_capacity(moves.len());
    for mv in moves {
        let step = game.play(state, &mv);
        let Some(next) = value_of(&step.next)? else {
            return Ok(None);
        };
        let Ok(value) = combine(step.gain, step.turn, next) else {
            return Ok(None);
        };
        values.push(MoveValue { mv, step, value });
    }
    Ok(Some(values))
}

/// The optimal line of play from `start` (of value `value`): at each state, the first move in
/// the game's order that keeps the value, by `value_of`; `None` where `value_of` holds no value
/// for a state it needs.
pub(super) fn line_by<G: Tiered>(
    game: &G,
    start: &G::State,
    value: Score,
    mut value_of: impl FnMut(&G::State) -> Result<Option<Score>, SolveError>,
) -> Result<Option<Vec<Ply<G>>>, SolveError> {
    let mut line = Vec::new();
    let (mut state, mut value) = (start.clone(), value);
    let mut player = Player::First;
    loop {
        let Some(moves) = move_values_by(game, &state, &mut value_of)? else {
            return Ok(None);
        };
        let Some(best) = moves.into_iter().find(|mv| mv.value == value) else {
            return Ok(Some(line));
        };
        let Some(next) = value_of(&best.step.next)? else {
            return Ok(None);
        };
        line.push(Ply {
            player,
            state,
            mv: best.mv,
            gain: best.step.gain,
            turn: best.step.turn,
            value,
        });
        player = player.after(best.step.turn);
        (state, value) = (best.step.next, next);
    }
}
