//! What a game declares, as types: the markers [`Capabilities`](super::Capabilities) records
//! for each capability trait ([`Declared`], [`Undeclared`], [`Ordered`], [`Subsets`]), the slots
//! that hold them ([`RangeSlot`], [`IndexSlot`], [`TierSlot`], [`SymmetrySlot`], [`KeySlot`],
//! [`ChanceSlot`], [`ImpartialSlot`]), and the visitors through which code generic over games
//! runs differently for each ([`OnRange`], [`OnIndex`], [`OnTiers`], [`OnSymmetry`], [`OnKey`],
//! [`OnChance`], [`OnImpartial`]).
//!
//! A game never names these: it declares with [`Capabilities`](super::Capabilities)' builder
//! methods. They are for code that, like [`Solver`](crate::Solver), dispatches on what a game
//! declared without naming the game.

use super::{
    Chance, CompactKey, Declares, DenseIndex, Game, Impartial, StateAt, Symmetry, Tiered,
    ValueRange,
};

/// Marks a capability as declared in [`Capabilities`](super::Capabilities).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Declared;

/// Marks a dense index declared as ordering the game ([`Capabilities::ordered_index`](super::Capabilities::ordered_index)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ordered;

/// Marks a dense index declared as a set of bits that every move takes some from
/// ([`Capabilities::subset_index`](super::Capabilities::subset_index)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Subsets;

/// Marks a capability as not declared in [`Capabilities`](super::Capabilities).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Undeclared;

/// Whether a game declares its [`ValueRange`], as a type ([`Declared`] or [`Undeclared`]):
/// code generic over games dispatches on it with an [`OnRange`] visitor.
pub trait RangeSlot<G: Game> {
    /// Calls the visitor's method for this slot.
    fn visit<V: OnRange<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without a declared [`ValueRange`] (the
/// solver's side of a [`RangeSlot`]).
pub trait OnRange<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares its range.
    fn declared(self) -> Self::Output
    where
        G: ValueRange;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: ValueRange> RangeSlot<G> for Declared {
    fn visit<V: OnRange<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> RangeSlot<G> for Undeclared {
    fn visit<V: OnRange<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Whether a game declares its [`DenseIndex`], as a type; see [`RangeSlot`].
pub trait IndexSlot<G: Game> {
    /// Calls the visitor's method for this slot.
    fn visit<V: OnIndex<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without a declared [`DenseIndex`].
pub trait OnIndex<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares its dense index.
    fn declared(self) -> Self::Output
    where
        G: DenseIndex;
    /// It does not.
    fn undeclared(self) -> Self::Output;
    /// The game declares an [ordered](super::Capabilities::ordered_index) dense index; by default
    /// as [`declared`](OnIndex::declared).
    fn ordered(self) -> Self::Output
    where
        G: StateAt,
        Self: Sized,
    {
        self.declared()
    }
    /// The game declares a [subset](super::Capabilities::subset_index) index (which is ordered too);
    /// by default as [`ordered`](OnIndex::ordered).
    fn subsets(self) -> Self::Output
    where
        G: StateAt,
        Self: Sized,
    {
        self.ordered()
    }
}

/// Runs `visitor` on the index slot of `declared` (a game's [`Game::capabilities`]).
pub(crate) fn visit_index<G: Game, D: Declares<G>, V: OnIndex<G>>(_: &D, visitor: V) -> V::Output {
    <D::Index as IndexSlot<G>>::visit(visitor)
}

/// Runs `visitor` on the chance slot of `declared`.
#[cfg(feature = "cli")]
pub(crate) fn visit_chance<G: Game, D: Declares<G>, V: OnChance<G>>(
    _: &D,
    visitor: V,
) -> V::Output {
    <D::Chance as ChanceSlot<G>>::visit(visitor)
}

/// Runs `visitor` on the tier slot of `declared`.
#[cfg(feature = "cli")]
pub(crate) fn visit_tiers<G: Game, D: Declares<G>, V: OnTiers<G>>(_: &D, visitor: V) -> V::Output {
    <D::Tiers as TierSlot<G>>::visit(visitor)
}

/// Runs `visitor` on the symmetry slot of `declared` (the loopy tier solver on timely
/// chooses its classes by it).
#[cfg(feature = "distributed")]
pub(crate) fn visit_symmetry<G: Game, D: Declares<G>, V: OnSymmetry<G>>(
    _: &D,
    visitor: V,
) -> V::Output {
    <D::Symmetry as SymmetrySlot<G>>::visit(visitor)
}

impl<G: StateAt> IndexSlot<G> for Ordered {
    fn visit<V: OnIndex<G>>(visitor: V) -> V::Output {
        visitor.ordered()
    }
}

impl<G: StateAt> IndexSlot<G> for Subsets {
    fn visit<V: OnIndex<G>>(visitor: V) -> V::Output {
        visitor.subsets()
    }
}

impl<G: DenseIndex> IndexSlot<G> for Declared {
    fn visit<V: OnIndex<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> IndexSlot<G> for Undeclared {
    fn visit<V: OnIndex<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Whether a game declares its [`Tiered`] layering, as a type; see [`RangeSlot`].
pub trait TierSlot<G: Game> {
    /// Calls the visitor's method for this slot.
    fn visit<V: OnTiers<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without declared [`Tiered`] layering.
pub trait OnTiers<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares its tiers.
    fn declared(self) -> Self::Output
    where
        G: Tiered;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: Tiered> TierSlot<G> for Declared {
    fn visit<V: OnTiers<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> TierSlot<G> for Undeclared {
    fn visit<V: OnTiers<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Whether a game declares its [`Symmetry`], as a type; see [`RangeSlot`].
pub trait SymmetrySlot<G: Game> {
    /// Whether it is declared (for plans and reports).
    const DECLARED: bool;
    /// Calls the visitor's method for this slot.
    fn visit<V: OnSymmetry<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without a declared [`Symmetry`] (the
/// solver's tables then store each class of symmetric states once).
pub trait OnSymmetry<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares its symmetry.
    fn declared(self) -> Self::Output
    where
        G: Symmetry;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: Symmetry> SymmetrySlot<G> for Declared {
    const DECLARED: bool = true;
    fn visit<V: OnSymmetry<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> SymmetrySlot<G> for Undeclared {
    const DECLARED: bool = false;
    fn visit<V: OnSymmetry<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Where a [`Declares`] records whether the game declares its [`CompactKey`]: [`Declared`] or
/// [`Undeclared`].
pub trait KeySlot<G: Game> {
    /// Whether the game declares it.
    const DECLARED: bool;
    /// Calls the visitor's method for this slot.
    fn visit<V: OnKey<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without a declared [`CompactKey`] (the
/// pruning engine then searches on a fixed bound table keyed by it, which grows with the
/// search: [`pruning::growing`](crate::engines::pruning::growing)).
pub trait OnKey<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares its compact key.
    fn declared(self) -> Self::Output
    where
        G: CompactKey;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: CompactKey> KeySlot<G> for Declared {
    const DECLARED: bool = true;
    fn visit<V: OnKey<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> KeySlot<G> for Undeclared {
    const DECLARED: bool = false;
    fn visit<V: OnKey<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Where a [`Declares`] records whether the game declares [`Chance`] states: [`Declared`] or
/// [`Undeclared`].
pub trait ChanceSlot<G: Game> {
    /// Whether the game declares it.
    const DECLARED: bool;
    /// Calls the visitor's method for this slot.
    fn visit<V: OnChance<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game with and without declared [`Chance`] states (the
/// expectation at a chance state, or the mover's choice everywhere).
pub trait OnChance<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares chance states.
    fn declared(self) -> Self::Output
    where
        G: Chance;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: Chance> ChanceSlot<G> for Declared {
    const DECLARED: bool = true;
    fn visit<V: OnChance<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> ChanceSlot<G> for Undeclared {
    const DECLARED: bool = false;
    fn visit<V: OnChance<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Whether `declared` (a game's [`Game::capabilities`]) declares [`Chance`] states.
pub fn declares_chance<G: Game, D: Declares<G>>(_: &D) -> bool {
    <D::Chance as ChanceSlot<G>>::DECLARED
}

/// Where a [`Declares`] records whether the game declares itself [`Impartial`]: [`Declared`]
/// or [`Undeclared`].
pub trait ImpartialSlot<G: Game> {
    /// Whether the game declares it.
    const DECLARED: bool;
    /// Calls the visitor's method for this slot.
    fn visit<V: OnImpartial<G>>(visitor: V) -> V::Output;
}

/// Code that runs differently for a game that declares itself [`Impartial`] (its nimbers are
/// computed, part by part) and for one that does not.
pub trait OnImpartial<G: Game> {
    /// What the visit gives.
    type Output;
    /// The game declares itself impartial.
    fn declared(self) -> Self::Output
    where
        G: Impartial;
    /// It does not.
    fn undeclared(self) -> Self::Output;
}

impl<G: Impartial> ImpartialSlot<G> for Declared {
    const DECLARED: bool = true;
    fn visit<V: OnImpartial<G>>(visitor: V) -> V::Output {
        visitor.declared()
    }
}

impl<G: Game> ImpartialSlot<G> for Undeclared {
    const DECLARED: bool = false;
    fn visit<V: OnImpartial<G>>(visitor: V) -> V::Output {
        visitor.undeclared()
    }
}

/// Whether `declared` (a game's [`Game::capabilities`]) declares the game [`Impartial`].
pub fn declares_impartial<G: Game, D: Declares<G>>(_: &D) -> bool {
    <D::Impartial as ImpartialSlot<G>>::DECLARED
}

/// Runs `visitor` on the impartial slot of `declared` (a game's [`Game::capabilities`]).
pub fn visit_impartial<G: Game, D: Declares<G>, V: OnImpartial<G>>(_: &D, visitor: V) -> V::Output {
    <D::Impartial as ImpartialSlot<G>>::visit(visitor)
}
