//! Code generic over the range source an engine cuts on, run with the one a game declares.

use crate::engines::kernel::{AnyValue, DeclaredRange, OutcomeRange, RangeSource};
use crate::game::{
    Declares, Game, ValueRange,
    declaration::{OnRange, RangeSlot},
};

/// Work generic over the range source an engine cuts on ([`RangeSource`]), run by
/// [`with_declared_range`] with the one the game declares: code that calls an engine's own
/// functions (`exhaustive::solve`, `pruning::solve`, … with a range source in their options) and should cut as [`Solver`](crate::Solver)
/// does, without naming the game's capabilities.
///
/// ```
/// use gamesolver::{
///     engines::{exhaustive, with_declared_range, AnyValue, RangeJob, RangeSource}, Limits,
/// };
///
/// use gamesolver::{games::Nim, memo::HashTable};
///
/// /// The value and the number of states expanded.
/// struct Expanded<'a>(&'a Nim);
///
/// impl RangeJob<Nim> for Expanded<'_> {
///     type Output = (i64, u64);
///     fn run<R: RangeSource<Nim> + 'static>(self, range: R) -> (i64, u64) {
///         let solved = exhaustive::solve(self.0, HashTable::new(), exhaustive::Options::new().range(range)).unwrap();
///         (solved.value(), solved.stats().expanded)
///     }
/// }
///
/// let game = Nim::new(vec![1, 300])?;
/// // Nim declares its range: a state's search stops at its first winning take.
/// let (value, cut) = with_declared_range(&game, Expanded(&game));
/// let (_, uncut) = Expanded(&game).run(AnyValue);
/// assert_eq!(value, 1);
/// assert!(cut * 10 < uncut, "{cut} states expanded, {uncut} without the cut");
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub trait RangeJob<G: Game> {
    /// What the job gives.
    type Output;

    /// Does the job, cutting on `range`.
    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output;
}

/// Runs `job` with the range source `game` declares: [`DeclaredRange`] for a declared
/// [`value_range`](crate::Capabilities::value_range), else [`OutcomeRange`] for an [outcome
/// game](crate::Capabilities::outcome_game), else [`AnyValue`]. The game's declaration is read
/// once; the job runs monomorphized for the range source, so it pays nothing per state.
pub fn with_declared_range<G: Game, J: RangeJob<G>>(game: &G, job: J) -> J::Output {
    with_range_of(&game.capabilities(), job)
}

/// [`with_declared_range`] on a declaration already read.
pub(super) fn with_range_of<G: Game, D: Declares<G>, J: RangeJob<G>>(
    declared: &D,
    job: J,
) -> J::Output {
    <D::Range as RangeSlot<G>>::visit(ByRange {
        job,
        outcome_game: declared.outcome_game(),
    })
}

/// The range slot's visit: the job with the declared source.
struct ByRange<J> {
    job: J,
    outcome_game: bool,
}

impl<G: Game, J: RangeJob<G>> OnRange<G> for ByRange<J> {
    type Output = J::Output;

    fn declared(self) -> J::Output
    where
        G: ValueRange,
    {
        self.job.run(DeclaredRange)
    }

    fn undeclared(self) -> J::Output {
        if self.outcome_game {
            self.job.run(OutcomeRange)
        } else {
            self.job.run(AnyValue)
        }
    }
}
