//! [`Either`]: one of two iterators as one type, for a `moves` whose branches build different
//! iterators.

/// One of two iterators of the same items, itself an iterator: what a [`Game::moves`]
/// returns when its branches build different iterators (moves that differ by side, a reversed
/// order on one side), since every branch of a function must return the same type. It costs a
/// branch per move, and allocates nothing. (A finished game's early end needs no second type:
/// `(!over).then(|| moves).into_iter().flatten()` is empty when `over`.)
///
/// [`Game::moves`]: crate::Game::moves
///
/// ```
/// use gamesolver::game::Either;
///
/// // Vertical places a domino down a column, Horizontal along a row: two iterators.
/// fn moves(vertical: bool) -> impl Iterator<Item = (u32, u32)> {
///     if vertical {
///         Either::Left((0..2).map(|row| (row, 0)))
///     } else {
///         Either::Right((0..3).rev().map(|column| (0, column)))
///     }
/// }
/// assert_eq!(moves(true).collect::<Vec<_>>(), [(0, 0), (1, 0)]);
/// assert_eq!(moves(false).count(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Either<L, R> {
    /// The first kind of iterator.
    Left(L),
    /// The second kind.
    Right(R),
}

impl<L, R> Iterator for Either<L, R>
where
    L: Iterator,
    R: Iterator<Item = L::Item>,
{
    type Item = L::Item;

    #[inline]
    fn next(&mut self) -> Option<L::Item> {
        match self {
            Either::Left(left) => left.next(),
            Either::Right(right) => right.next(),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Either::Left(left) => left.size_hint(),
            Either::Right(right) => right.size_hint(),
        }
    }

    #[inline]
    fn fold<B, F: FnMut(B, L::Item) -> B>(self, init: B, f: F) -> B {
        match self {
            Either::Left(left) => left.fold(init, f),
            Either::Right(right) => right.fold(init, f),
        }
    }
}

impl<L, R> DoubleEndedIterator for Either<L, R>
where
    L: DoubleEndedIterator,
    R: DoubleEndedIterator<Item = L::Item>,
{
    #[inline]
    fn next_back(&mut self) -> Option<L::Item> {
        match self {
            Either::Left(left) => left.next_back(),
            Either::Right(right) => right.next_back(),
        }
    }
}

impl<L, R> ExactSizeIterator for Either<L, R>
where
    L: ExactSizeIterator,
    R: ExactSizeIterator<Item = L::Item>,
{
}

impl<L, R> std::iter::FusedIterator for Either<L, R>
where
    L: std::iter::FusedIterator,
    R: std::iter::FusedIterator<Item = L::Item>,
{
}
