//! Range sources: where an engine gets the range of values a state can still have (cut-offs in
//! the exhaustive engine, windows in the pruning engine).

use crate::game::{Game, Score, ValueRange};

/// Where the engine gets the range of values a state can still have.
///
/// [`AnyValue`] knows nothing (every game); [`DeclaredRange`] asks the game's [`ValueRange`].
pub trait RangeSource<G: Game + ?Sized>: Copy + Send + Sync {
    /// Whether the ranges can say anything (picks [`Driver::Auto`](crate::engines::pruning::Driver::Auto)'s driver).
    const DECLARES: bool;

    /// `(low, high)` with `low ≤ value(state) ≤ high`.
    fn range(&self, game: &G, state: &G::State) -> (Score, Score);
}

/// No range: every value from `-Score::MAX` to `Score::MAX` is possible.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnyValue;

impl<G: Game + ?Sized> RangeSource<G> for AnyValue {
    const DECLARES: bool = false;

    #[inline]
    fn range(&self, _game: &G, _state: &G::State) -> (Score, Score) {
        (-Score::MAX, Score::MAX)
    }
}

/// The range the game declares through [`ValueRange`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeclaredRange;

impl<G: ValueRange + ?Sized> RangeSource<G> for DeclaredRange {
    const DECLARES: bool = true;

    #[inline]
    fn range(&self, game: &G, state: &G::State) -> (Score, Score) {
        game.value_range(state)
    }
}

/// The range of an outcome game ([`Capabilities::outcome_game`](crate::Capabilities::outcome_game)):
/// every state's value is −1, 0 or +1, so the first winning move decides a state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutcomeRange;

impl<G: Game + ?Sized> RangeSource<G> for OutcomeRange {
    const DECLARES: bool = true;

    #[inline]
    fn range(&self, _game: &G, _state: &G::State) -> (Score, Score) {
        (-1, 1)
    }
}
