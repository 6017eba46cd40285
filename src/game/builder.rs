//! The declarations a game makes, one builder method each: [`Capabilities`]' methods.

use std::marker::PhantomData;

use super::declaration::{Declared, Ordered, Subsets};
use super::{
    Capabilities, Chance, CompactKey, DenseIndex, Game, Impartial, StateAt, Symmetry, Tiered,
    ValueRange,
};

impl<G: Game, R, I, T, S, K, C, N> Capabilities<G, R, I, T, S, K, C, N> {
    fn with<R2, I2, T2, S2, K2, C2, N2>(self) -> Capabilities<G, R2, I2, T2, S2, K2, C2, N2> {
        Capabilities {
            outcome_game: self.outcome_game,
            may_cycle: self.may_cycle,
            kinds: PhantomData,
        }
    }

    /// Declares the game's [`ValueRange`]: the exhaustive engine stops scanning a state's
    /// moves once one reaches the top of the state's range (a win/lose game stops at its first
    /// winning move), and the pruning engine narrows its windows to it.
    pub fn value_range(self) -> Capabilities<G, Declared, I, T, S, K, C, N>
    where
        G: ValueRange,
    {
        self.with()
    }

    /// Declares the game's [`DenseIndex`]: values are kept in flat arrays
    /// ([`DenseTable`](crate::memo::DenseTable), [`AtomicDenseTable`](crate::memo::AtomicDenseTable))
    /// instead of hash tables, and retrograde analysis numbers states by their index.
    pub fn dense_index(self) -> Capabilities<G, R, Declared, T, S, K, C, N>
    where
        G: DenseIndex,
    {
        self.with()
    }

    /// Declares the game's [`DenseIndex`] as [`dense_index`](Self::dense_index) does, and that
    /// it orders the game: every move leads to a state of a smaller index, and [`StateAt`]
    /// gives the state at each index. The solver then values the states in index order, each
    /// from its children's stored values (the array DP a user writes by hand), with no search;
    /// it values every index `state_at` gives, reachable or not. A game that also declares
    /// [`tiers`](Self::tiers) is solved by the tier solver, which on one thread values its
    /// dense layout in this order too.
    pub fn ordered_index(self) -> Capabilities<G, R, Ordered, T, S, K, C, N>
    where
        G: StateAt,
    {
        self.with()
    }

    /// Declares an [ordered index](Self::ordered_index) that is also a set of bits from which
    /// every move takes some and adds none: the next state's index is a proper subset of the
    /// state's (`next & !index == 0`, `next != index`), as when an index is the bitmask of the
    /// edges not yet drawn, the items not yet taken. Every subset of an index is smaller, so
    /// the index orders the game, and states are solved as for `ordered_index`; besides, the
    /// indices whose high bits hold as many ones are independent of each other, so that a
    /// tiered game's dense layout is swept on every thread (blocks of indices with their high
    /// bits' count rising), not only on one. There a move that breaks the declaration is an
    /// error that names it; one thread, sweeping from 0 up, needs only the order (the checker,
    /// [`check_dense`](crate::check::check_dense), reports such a move either way).
    pub fn subset_index(self) -> Capabilities<G, R, Subsets, T, S, K, C, N>
    where
        G: StateAt,
    {
        self.with()
    }

    /// Declares the game's [`Tiered`] layering: the solver solves it tier by tier.
    pub fn tiers(self) -> Capabilities<G, R, I, Declared, S, K, C, N>
    where
        G: Tiered,
    {
        self.with()
    }

    /// Declares the game's [`Symmetry`]: the exhaustive and pruning engines store each class
    /// of symmetric states once (their tables are asked and told about
    /// [`canonical`](Symmetry::canonical) states, as [`Canonical`](crate::memo::Canonical)
    /// does), while lines and move values stay in the position's own terms. The sweep, the
    /// tier solver and retrograde analysis value every index or state and ignore it.
    ///
    /// ```
    /// use gamesolver::{games::Kayles, Engine, Solved, Solver};
    ///
    /// // Kayles declares that only its runs of pins count: 5, 6 and 6, 5 are stored once by
    /// // the exhaustive engine (its own plan is its nimbers, each run a part).
    /// let game = Kayles::new(&[5, 6]).unwrap();
    /// let solved = Solver::new(&game).engine(Engine::Exhaustive).solve().unwrap();
    /// assert!(solved.plan().symmetry);
    /// assert_eq!(solved.value(), 1);
    /// ```
    pub fn symmetry(self) -> Capabilities<G, R, I, T, Declared, K, C, N>
    where
        G: Symmetry,
    {
        self.with()
    }

    /// Declares a [`CompactKey`]: the pruning engine then searches one position on a fixed
    /// bound table keyed by it, starting at half the processor's last-level cache and growing
    /// eightfold each time a stage runs out of its time, up to half the memory budget
    /// ([`pruning::growing`](crate::engines::pruning::growing)), where it would otherwise grow
    /// a hash table of whole states. [`Plan::compact_key`](crate::Plan::compact_key) says so.
    ///
    /// ```
    /// use gamesolver::{Engine, Solved, Solver, games::ConnectFour};
    ///
    /// // Connect Four declares its key: a board of W·(H+1) bits.
    /// let game = ConnectFour::new(5, 4).unwrap();
    /// let solved = Solver::new(&game).solve().unwrap();
    /// assert_eq!((solved.plan().engine, solved.plan().compact_key), (Engine::Pruning, true));
    /// assert_eq!(solved.value(), 0); // 5×4 is a draw
    /// ```
    pub fn compact_key(self) -> Capabilities<G, R, I, T, S, Declared, C, N>
    where
        G: CompactKey,
    {
        self.with()
    }

    /// Declares that some states are [`Chance`] states, whose outcomes a roll decides: the
    /// solver's [`solve_chance`](crate::Solver::solve_chance) values them by expectation
    /// (exact fractions where play cannot cycle; where it can, with [`may_cycle`](Self::may_cycle),
    /// by value iteration with a proved error bound, tier by tier where the game declares
    /// [`tiers`](Self::tiers)), and the engines for games without chance refuse the game.
    pub fn chance(self) -> Capabilities<G, R, I, T, S, K, Declared, N>
    where
        G: Chance,
    {
        self.with()
    }

    /// Declares the game [`Impartial`] under the normal play convention (both players have the
    /// same moves, and who cannot move loses), and with it an [outcome
    /// game](Self::outcome_game): the [`Solver`](crate::Solver) computes nimbers
    /// ([`engines::nimbers`](crate::engines::nimbers)), each independent part of a position
    /// ([`Impartial::split`]) stored once, and its answer gives the start's
    /// [`nimber`](crate::Solved::nimber).
    ///
    /// ```
    /// use gamesolver::{games::Kayles, Engine, Solved, Solver};
    ///
    /// // Kayles declares itself impartial, each run of pins a part: 3 ^ 4 ^ 5 (nimbers 3, 1, 4).
    /// let game = Kayles::new(&[3, 4, 5]).unwrap();
    /// let solved = Solver::new(&game).solve().unwrap();
    /// assert_eq!((solved.engine(), solved.nimber()), (Engine::Nimbers, Some(3 ^ 1 ^ 4)));
    /// ```
    pub fn impartial(self) -> Capabilities<G, R, I, T, S, K, C, Declared>
    where
        G: Impartial,
    {
        Capabilities {
            outcome_game: true,
            ..self
        }
        .with()
    }

    /// Declares an *outcome game*: every final state's payoff is +1 (won for the side to
    /// move), −1 (lost) or 0 (drawn), and no move gains points. Values are then −1, 0 or +1,
    /// which the exhaustive engine cuts on when no range is declared, results report an
    /// [`Outcome`](crate::engines::retrograde::Outcome) and remoteness, and a game that [may
    /// cycle](Capabilities::may_cycle) is solved by retrograde analysis.
    pub fn outcome_game(self) -> Self {
        Capabilities {
            outcome_game: true,
            ..self
        }
    }

    /// Declares that a line of play may return to an earlier state (an outcome game where
    /// endless play is a draw): the solver then uses retrograde analysis, which needs an
    /// [outcome game](Capabilities::outcome_game).
    pub fn may_cycle(self) -> Self {
        Capabilities {
            may_cycle: true,
            ..self
        }
    }
}
