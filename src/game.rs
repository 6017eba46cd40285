//! The user contract: a game is a rules value that implements [`Game`].
//!
//! Values are always *from the side to move*: the best achievable
//! `my points − opponent's points` from a state on. A move produces a [`Step`]: the next state,
//! the points the mover gains with this move, and whether the [`Turn`] passes or the same player
//! moves again. The value recursion every engine computes is
//!
//! ```text
//! v(s) = known_value(s)                                   if the game knows it
//! v(s) = payoff(s)                                        if s has no move
//! v(s) = max over moves of  gain + (−v(next) if the turn passes, else v(next))
//! ```

use std::marker::PhantomData;

// The builder's methods (`value_range()`, `dense_index()`, …), in a file of their own.
mod builder;
mod chance;
pub mod declaration;
mod either;
mod impartial;
mod keys;
mod step;

pub use chance::{Chance, Probability};
pub use either::Either;
pub use impartial::{Impartial, Nimber};
pub use keys::{CompactKey, Symmetry};
pub use step::{Decided, Player, Score, Step, Turn};

use declaration::{
    ChanceSlot, ImpartialSlot, IndexSlot, KeySlot, RangeSlot, SymmetrySlot, TierSlot, Undeclared,
};

/// A two-player, perfect-information, zero-sum game, given by its rules.
///
/// The value implementing `Game` holds the rules and the fixed data of one instance (the piles
/// of a stone game); a [`State`](Game::State) is the small, changing part of a position. Engines
/// ask only for what they use: memoizing engines need `State: Eq + Hash + Clone`, the dense
/// tables need [`DenseIndex`].
///
/// # Contract
///
/// - `moves` gives the legal moves of a state, in the order the engines should try them, as an
///   iterator: an engine takes only the moves it needs (a win/lose game stops at its first
///   winning move), so a game that produces its moves one by one never lists the rest.
///   [`moves_into`](Game::moves_into) (the whole list at once) and
///   [`moves_batch`](Game::moves_batch) (the moves in batches) are ways to produce the same
///   moves faster where a game has one; by default both come from `moves`.
/// - `play` is deterministic, and the state alone determines moves, steps and payoff.
/// - A state with no move is final; its value is `payoff(state)`.
/// - The game is finite and acyclic: no sequence of moves returns to an earlier state.
/// - If `known_value` returns `Some(v)`, `v` is the state's exact value; the engine then neither
///   enumerates its moves nor stores it.
///
/// # Example
///
/// A subtraction game: take 1 or 2 counters, the player who takes the last counter scores 1.
/// What the game knows beyond the rules it declares ([`capabilities`](Game::capabilities)):
/// here, that one point is at stake, which lets the solver stop at a winning move.
///
/// ```
/// use gamesolver::{Capabilities, Declares, Game, Score, Solved, Solver, Step, Turn, ValueRange};
///
/// struct TakeAway { counters: u32 }
///
/// impl Game for TakeAway {
///     type State = u32;          // counters left
///     type Move = u32;           // counters taken
///     fn start(&self) -> u32 { self.counters }
///     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
///         (1..=2).filter(move |take| take <= left)
///     }
///     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
///         let next = left - take;
///         Step { next, gain: Score::from(next == 0), turn: Turn::Pass }
///     }
///     fn payoff(&self, _left: &u32) -> Score { 0 }
///     fn capabilities(&self) -> impl Declares<Self> {
///         Capabilities::none().value_range()
///     }
/// }
///
/// impl ValueRange for TakeAway {
///     fn value_range(&self, _left: &u32) -> (Score, Score) { (-1, 1) }
/// }
///
/// // Multiples of 3 are lost for the side to move.
/// assert_eq!(Solver::new(&TakeAway { counters: 9 }).solve()?.value(), -1);
/// assert_eq!(Solver::new(&TakeAway { counters: 10 }).solve()?.value(), 1);
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub trait Game {
    /// The changing part of a position (for Stone Game II: the next pile and M).
    type State: Clone;
    /// A move (for Stone Game II: how many piles to take).
    type Move: Clone;

    /// The state the game starts in; the first player moves first.
    fn start(&self) -> Self::State;

    /// The legal moves of `state`, in the order the engines should try them (none for a final
    /// state).
    ///
    /// An iterator, so that the engines take only the moves they need: once a move reaches
    /// the top of a state's range (a declared [`ValueRange`], or −1..1 in an outcome game), the
    /// exhaustive engine asks for no more, and the sweep steps through the children without a
    /// list. Write it as the moves come (`(1..=3).filter(…)`, a bit loop in
    /// [`std::iter::from_fn`]); return `list.into_iter()` where the moves must be collected
    /// first.
    fn moves(&self, state: &Self::State) -> impl Iterator<Item = Self::Move>;

    /// The step that playing `mv` in `state` produces. `mv` is one of `state`'s moves.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Step<Self::State>;

    /// The value, for the side to move, of a state with no move.
    fn payoff(&self, state: &Self::State) -> Score;

    /// Appends every move of `state` to `moves`, in the order of [`moves`](Game::moves): what
    /// the engines call when they want them all (the pruning engine, which orders them;
    /// retrograde analysis; a state whose range decides nothing). The default extends the
    /// buffer from `moves`. A game that builds its list more cheaply in place (Connect Four
    /// sorts its moves into the buffer) overrides it; it must only append, leaving what the
    /// buffer held before as it was. The checker verifies an override against `moves`.
    #[inline(always)]
    fn moves_into(&self, state: &Self::State, moves: &mut Vec<Self::Move>) {
        moves.extend(self.moves(state));
    }

    /// Lazy moves in batches: appends the `batch`-th batch of `state`'s moves to `moves` and
    /// returns whether another batch may follow. Concatenated in order, batches 0, 1, … up to
    /// the first that returns `false` are exactly [`moves`](Game::moves), in its order (a batch
    /// may be empty). A batch past the first is appended to a buffer that holds other moves:
    /// it must leave them as they are.
    ///
    /// The exhaustive engine keeps the moves of every open state in one buffer, and asks for
    /// the next batch only when the moves so far have not decided the state. The default takes
    /// batch 0 from `moves`' first [`FIRST_BATCH`] moves, and each batch after it from `moves`
    /// started again, past the moves of the batches before, twice as many as the batch before
    /// (8, 16, 32, …): a state decided early lists few moves, and one that needs all its moves
    /// generates at most twice as many as it has. A game for which starting `moves` again
    /// costs more (it asks another process, as Python's games do) or that knows better batches
    /// overrides it; the checker verifies an override against `moves`.
    ///
    /// ```
    /// use gamesolver::{Game, Score, Step, Turn};
    ///
    /// /// Take a positive square number of stones; who cannot move loses.
    /// struct Squares { stones: u32 }
    ///
    /// impl Game for Squares {
    ///     type State = u32;
    ///     type Move = u32; // the square root of the stones taken
    ///     fn start(&self) -> u32 { self.stones }
    ///     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
    ///         (1..).take_while(move |root| root * root <= *left)
    ///     }
    ///     fn play(&self, left: &u32, root: &u32) -> Step<u32> {
    ///         Step { next: left - root * root, gain: 0, turn: Turn::Pass }
    ///     }
    ///     fn payoff(&self, _left: &u32) -> Score { -1 }
    /// }
    ///
    /// let game = Squares { stones: 200 };
    /// let mut batched = Vec::new();
    /// assert!(game.moves_batch(&200, 0, &mut batched)); // 1..=8, and more follow
    /// assert_eq!(batched, (1..=8).collect::<Vec<u32>>());
    /// assert!(!game.moves_batch(&200, 1, &mut batched)); // 9..=14 (of 9..=24): the last
    /// assert!(batched.iter().copied().eq(game.moves(&200)));
    /// ```
    #[inline]
    fn moves_batch(&self, state: &Self::State, batch: usize, moves: &mut Vec<Self::Move>) -> bool {
        // Batch b: FIRST_BATCH · 2^b moves, after the FIRST_BATCH · (2^b − 1) of the batches
        // before it (skipped: at most as many as the batch lists).
        let Some(first) = FIRST_BATCH.checked_shl(batch as u32) else {
            return false;
        };
        let mut all = self.moves(state);
        if first > FIRST_BATCH && all.nth(first - FIRST_BATCH - 1).is_none() {
            return false;
        }
        moves.extend(all.by_ref().take(first));
        all.next().is_some()
    }

    /// Calls `each` with the step of each of `state`'s moves, in the order of
    /// [`moves`](Game::moves), until `each` returns `false`. The sweep (an
    /// [ordered index](Capabilities::ordered_index)) and the tier solver, which need the
    /// children and not the moves, step through them with it. The default plays each move of
    /// `moves` as it comes, with no list; a game whose children follow more cheaply without
    /// its moves (a bit cleared) may override it. The checker verifies an override against
    /// `moves` and `play`.
    #[inline]
    fn for_each_step(&self, state: &Self::State, mut each: impl FnMut(Step<Self::State>) -> bool)
    where
        Self: Sized,
    {
        for mv in self.moves(state) {
            if !each(self.play(state, &mv)) {
                return;
            }
        }
    }

    /// The state's exact value when the game knows it without search, else `None`.
    ///
    /// In Stone Game II, when `2M` covers every pile left, the mover takes everything. Saying so
    /// spares the engine enumerating moves and storing the state; hand-written DPs get much of
    /// their speed from exactly this shortcut. The default knows nothing.
    fn known_value(&self, state: &Self::State) -> Option<Score> {
        let _ = state;
        None
    }

    /// The state's forced move, when the game knows without search that one of its moves is
    /// as good as any: the value of playing it is the state's value. `None` (the default) says
    /// nothing.
    ///
    /// In Connect Four, a side whose opponent threatens to win at one playable cell, and that
    /// cannot win at once, must block it: every other move loses at once. The pruning engine
    /// plays a forced move without opening the state (its moves are not listed, its table
    /// entry neither read nor written) and goes on from the state it leads to, following
    /// forced moves as far as they go; the exhaustive engine expands the state as any other.
    /// A forced move that is not optimal gives wrong answers, which the checker
    /// ([`check`](crate::check::check)) finds on the states whose value it can compute.
    ///
    /// ```
    /// use gamesolver::{Game, Score, Step, Turn};
    ///
    /// /// Take 1 or 2 counters; whoever takes the last one scores a point. With one or two
    /// /// counters left, taking them all is forced.
    /// struct TakeAway { counters: u32 }
    ///
    /// impl Game for TakeAway {
    ///     type State = u32;
    ///     type Move = u32;
    ///     fn start(&self) -> u32 { self.counters }
    ///     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
    ///         (1..=2).filter(move |take| take <= left)
    ///     }
    ///     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
    ///         Step { next: left - take, gain: Score::from(*left == *take), turn: Turn::Pass }
    ///     }
    ///     fn payoff(&self, _left: &u32) -> Score { 0 }
    ///     fn forced_move(&self, left: &u32) -> Option<u32> {
    ///         (1..=2).contains(left).then_some(*left)
    ///     }
    /// }
    /// assert_eq!(TakeAway { counters: 2 }.forced_move(&2), Some(2));
    /// ```
    #[inline(always)]
    fn forced_move(&self, state: &Self::State) -> Option<Self::Move> {
        let _ = state;
        None
    }

    /// For proof search ([`engines::proof`](crate::engines::proof)): how hard the question
    /// "does the side to move at `state` secure at least `at_least`?" is to prove and to
    /// disprove, as the search's first proof and disproof numbers for it (each taken between 1
    /// and the search's largest finite number): in a connection game, say, how many stones
    /// each side still needs to join its edges. The search expands first what looks cheapest
    /// to settle; only its order depends on the estimate, never its answer, so any estimate is
    /// sound. The default, `None`, starts at 1 to prove and the state's number of moves to
    /// disprove (one good move may prove it; every move must be refuted). Asked only of states
    /// that have moves.
    fn proof_numbers(&self, state: &Self::State, at_least: Score) -> Option<(u64, u64)> {
        let _ = (state, at_least);
        None
    }

    /// For proof search ([`engines::proof`](crate::engines::proof)): the state's value when
    /// the game knows it without search, with a witness (moves of the state) that
    /// [`verify_decided`](Game::verify_decided) checks. The search stops at a decided state
    /// and its proof ends there; a game that declares this must verify it, as the proof
    /// checker ([`check_proof`](crate::check::check_proof)) accepts a decided state only when
    /// `verify_decided` does. Asked only of states that have moves; the default decides
    /// nothing.
    ///
    /// Hex decides a position where one side's stones are joined to both its edges by a
    /// pairing strategy ([`Decided`]): the search no longer plays out what is already won.
    fn decided(&self, state: &Self::State) -> Option<Decided> {
        let _ = state;
        None
    }

    /// Checks what [`decided`](Game::decided) gave for `state`, by the rules and not by the
    /// code that found it: `Ok` if the witness bears out the value, else what is wrong. The
    /// default verifies nothing (a game that decides nothing is never asked).
    fn verify_decided(&self, state: &Self::State, decided: &Decided) -> Result<(), String> {
        let _ = (state, decided);
        Err("the game decides no state without search, so it verifies none".to_string())
    }

    /// An upper bound on how many states an engine may store when solving from the start
    /// (states reachable from the start that have moves and no known value), if the game knows
    /// one. Engines use it to refuse, before they begin, a solve that would not fit the memory
    /// budget. The default knows no bound; engines still enforce the budget while they search.
    fn state_bound(&self) -> Option<u64> {
        None
    }

    /// A state as error messages show it (the witness of a cycle), if the game says: for a
    /// state that derives `Debug`, `Some(format!("{state:?}"))`. The default says nothing.
    fn state_text(&self, state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }

    /// What the game declares beyond these methods, for [`Solver`](crate::Solver): the
    /// capability traits it implements and wants used ([`ValueRange`], [`DenseIndex`],
    /// [`Tiered`]), whether it is an outcome game, whether its play may cycle. The default
    /// declares nothing, and every engine still solves the game exactly.
    ///
    /// The declaration is read once per solve, and the solver then runs the engine built for
    /// exactly what is declared (the same code as the engine's own functions), so a
    /// declaration costs nothing per state. Declaring a trait the game does not implement
    /// does not compile.
    ///
    /// The trait's example declares a [`ValueRange`].
    fn capabilities(&self) -> impl Declares<Self>
    where
        Self: Sized,
    {
        Capabilities::none()
    }
}

/// How many moves the default [`Game::moves_batch`] gives in its first batch (each batch after
/// it gives twice as many as the one before).
pub const FIRST_BATCH: usize = 8;

/// An optional capability for retrograde analysis: the states with a move to a given state
/// (its "un-moves").
///
/// With it, [`retrograde::solve_with_predecessors`](crate::engines::retrograde::solve_with_predecessors) stores neither the moves nor their reverse (8
/// bytes per move): it counts each state's moves while it discovers the states, and asks for
/// predecessors as it propagates, looking up their numbers. Memory then follows the states,
/// not the moves, at the cost of generating each predecessor list once.
pub trait Predecessors: Game {
    /// Calls `each` with every state that has a move to `state`, and that move's turn rule,
    /// as many times as it has such moves. Every reachable predecessor must be among them;
    /// states that cannot be reached from the start, and final states (decided before anything
    /// is propagated), may be too: both are skipped, so a game need not test for them.
    fn predecessors(&self, state: &Self::State, each: impl FnMut(Self::State, Turn));
}

/// An optional capability: the state at each index of a [`DenseIndex`] (its inverse), for
/// [`retrograde::solve_indexed`](crate::engines::retrograde::solve_indexed).
pub trait StateAt: DenseIndex {
    /// The state whose index is `index`, or `None` if no state has it.
    fn state_at(&self, index: usize) -> Option<Self::State>;

    /// How many moves `state` has (0 for a final state), if the game can count them without
    /// listing them; `None` (the default) lets the solver list them with
    /// [`moves`](Game::moves). [`retrograde::solve_indexed`](crate::engines::retrograde::solve_indexed) asks it of every index.
    fn move_count(&self, state: &Self::State) -> Option<usize> {
        let _ = state;
        None
    }

    /// Calls `each` with the index of every predecessor of the state at `index` (none if no
    /// state has it), and its move's turn rule, as
    /// [`predecessors`](Predecessors::predecessors) gives them. The default goes through the
    /// states ([`state_at`](StateAt::state_at), `predecessors`,
    /// [`index`](DenseIndex::index)); a game whose index arithmetic is simpler overrides it.
    /// [`retrograde::solve_indexed`](crate::engines::retrograde::solve_indexed) propagates through it.
    fn predecessor_indices(&self, index: usize, mut each: impl FnMut(usize, Turn))
    where
        Self: Predecessors,
    {
        if let Some(state) = self.state_at(index) {
            self.predecessors(&state, |parent, turn| each(self.index(&parent), turn));
        }
    }
}

/// What a game declares ([`Game::capabilities`]), built from [`Capabilities::none`] by naming
/// each capability: `Capabilities::none().value_range().dense_index()`.
///
/// The capability traits are recorded in the type (`R`: [`ValueRange`], `I`: [`DenseIndex`],
/// `T`: [`Tiered`], `S`: [`Symmetry`], `K`: [`CompactKey`], `C`: [`Chance`], `N`: [`Impartial`], each
/// [`Declared`](declaration::Declared) or [`Undeclared`]), so that the
/// solver runs the engine monomorphized for them; the facts that choose an engine but change no per-state code
/// (outcome game, may cycle) are plain flags.
pub struct Capabilities<
    G: ?Sized,
    R = Undeclared,
    I = Undeclared,
    T = Undeclared,
    S = Undeclared,
    K = Undeclared,
    C = Undeclared,
    N = Undeclared,
> {
    outcome_game: bool,
    may_cycle: bool,
    kinds: Kinds<G, R, I, T, S, K, C, N>,
}

/// The declared kinds, in the type only (a function type: `Send`, `Sync` and `Copy` whatever
/// the game).
type Kinds<G, R, I, T, S, K, C, N> = PhantomData<fn(&G) -> (R, I, T, S, K, C, N)>;

impl<G: Game> Capabilities<G> {
    /// Nothing declared.
    pub fn none() -> Self {
        Capabilities {
            outcome_game: false,
            may_cycle: false,
            kinds: PhantomData,
        }
    }
}

/// What the solver reads of a game's declaration: implemented by [`Capabilities`] alone.
pub trait Declares<G: Game>: sealed::Sealed {
    /// [`Declared`](declaration::Declared) if the game declares its [`ValueRange`].
    type Range: RangeSlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares its [`DenseIndex`].
    type Index: IndexSlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares its [`Tiered`] layering.
    type Tiers: TierSlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares its [`Symmetry`].
    type Symmetry: SymmetrySlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares its [`CompactKey`].
    type Key: KeySlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares [`Chance`] states.
    type Chance: ChanceSlot<G>;
    /// [`Declared`](declaration::Declared) if the game declares itself [`Impartial`].
    type Impartial: ImpartialSlot<G>;

    /// Whether the game is an outcome game ([`Capabilities::outcome_game`]).
    fn outcome_game(&self) -> bool;

    /// Whether the game's play may cycle ([`Capabilities::may_cycle`]).
    fn may_cycle(&self) -> bool;
}

impl<G, R, I, T, S, K, C, N> Declares<G> for Capabilities<G, R, I, T, S, K, C, N>
where
    G: Game,
    R: RangeSlot<G>,
    I: IndexSlot<G>,
    T: TierSlot<G>,
    S: SymmetrySlot<G>,
    K: KeySlot<G>,
    C: ChanceSlot<G>,
    N: ImpartialSlot<G>,
{
    type Range = R;
    type Index = I;
    type Tiers = T;
    type Symmetry = S;
    type Key = K;
    type Chance = C;
    type Impartial = N;

    fn outcome_game(&self) -> bool {
        self.outcome_game
    }

    fn may_cycle(&self) -> bool {
        self.may_cycle
    }
}

impl<G: ?Sized, R, I, T, S, K, C, N> sealed::Sealed for Capabilities<G, R, I, T, S, K, C, N> {}

mod sealed {
    /// Only the crate's declarations are declarations.
    pub trait Sealed {}
}

/// An optional capability: the game's stored states map one-to-one onto `0..index_len()`.
///
/// This lets [`DenseTable`](crate::memo::DenseTable) keep values in a flat array, one memory
/// access per lookup instead of a hash probe. `index` is asked of every state an engine looks up:
/// states reachable from the start (or from a state a caller asks about) that have no
/// [`known_value`](Game::known_value), final states included.
/// Two different such states must never share an index: a shared index would make one state
/// read the other's value. An index outside `0..index_len()` is a bug in the implementation and
/// makes the dense table panic with a message that says so.
pub trait DenseIndex: Game {
    /// The size of the index space.
    fn index_len(&self) -> usize;

    /// The index of `state`, in `0..index_len()`.
    fn index(&self, state: &Self::State) -> usize;
}

/// An optional capability: bounds on the value a state can still have.
///
/// The pruning engine ([`prune`](crate::engines::pruning::solve)) narrows its search window to this range before
/// it looks at a state's moves, and a state whose range already decides the question it is asked
/// is not searched at all. In Connect Four, a side that cannot win with its next stone scores at
/// most `(W·H − 1 − n)/2` with `n` stones on the board: that bound alone prunes most of the tree.
///
/// # Contract
///
/// For every state that has no [`known_value`](Game::known_value) (final states included),
/// `value_range(state)` returns `(low, high)` with `low ≤ value(state) ≤ high`. A range that is
/// too wide is always correct (`(-Score::MAX, Score::MAX)` says nothing); a range that excludes
/// the true value gives wrong answers, which
/// [`check_ranged`](crate::check::check_ranged) finds on the states whose value it can compute.
///
/// ```
/// use gamesolver::{Game, Score, Step, Turn, ValueRange};
///
/// /// Take 1 or 2 counters; whoever takes the last one scores a point.
/// struct TakeAway { counters: u32 }
/// # impl Game for TakeAway {
/// #     type State = u32;
/// #     type Move = u32;
/// #     fn start(&self) -> u32 { self.counters }
/// #     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> { (1..=2).filter(move |t| t <= left) }
/// #     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
/// #         Step { next: left - take, gain: Score::from(*left == *take), turn: Turn::Pass }
/// #     }
/// #     fn payoff(&self, _left: &u32) -> Score { 0 }
/// # }
/// impl ValueRange for TakeAway {
///     fn value_range(&self, left: &u32) -> (Score, Score) {
///         if *left == 0 { (0, 0) } else { (-1, 1) } // one point is at stake
///     }
/// }
/// assert_eq!(TakeAway { counters: 5 }.value_range(&5), (-1, 1));
/// ```
pub trait ValueRange: Game {
    /// `(low, high)`: the state's value lies in `low..=high`.
    fn value_range(&self, state: &Self::State) -> (Score, Score);
}

/// An optional capability: the game is layered into *tiers*, and every move leads to a later
/// tier (Dots and Boxes: the number of lines drawn).
///
/// The tier solver ([`tiers::solve`](crate::engines::tiers::solve)) values every state of the last tier,
/// then of the one before, back to the start's tier, keeping only the tiers a move can still
/// reach, one flat array per tier, values in the narrowest integer type that holds
/// [`value_bound`](Tiered::value_bound). A state is found in its tier's array by its *rank*,
/// its index within the tier, and the solver walks a tier's ranks with
/// [`unrank`](Tiered::unrank).
///
/// # Contract
///
/// - Tiers are `0..tier_count()`; tier `t` holds ranks `0..tier_len(t)`.
/// - A move from a state in tier `t` leads to a state in a tier `u` with
///   `t < u ≤ t + tier_reach()`; in a game that declares
///   [`may_cycle`](crate::Capabilities::may_cycle) (and
///   [`outcome_game`](crate::Capabilities::outcome_game)), `t ≤ u`: play may cycle within a
///   tier, and the loopy tier solver ([`tiers::loopy`](crate::engines::tiers::loopy)) solves it.
/// - `unrank(t, rank(s)) == Some(s)` for every state `s` of tier `t`, and `rank(s) <
///   tier_len(tier(s))`. `unrank` may return `None` for a rank no state has (a hole: it costs
///   its cell and is never read). [`unrank_next`](Tiered::unrank_next), if overridden, gives
///   what `unrank` gives.
/// - Every state's value lies in `-value_bound()..=value_bound()`.
/// - [`ranked_children`](Tiered::ranked_children), if overridden, reports exactly what `moves`,
///   `play`, `tier` and `rank` give.
///
/// [`check_tiers`](crate::check::check_tiers) verifies all of this on the states it walks.
///
/// ```
/// use gamesolver::{engines::tiers, Game, Score, Step, Tiered, Turn};
///
/// /// Take 1 or 2 counters; whoever takes the last one scores a point.
/// struct TakeAway { counters: u32 }
/// # impl Game for TakeAway {
/// #     type State = u32;
/// #     type Move = u32;
/// #     fn start(&self) -> u32 { self.counters }
/// #     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> { (1..=2).filter(move |t| t <= left) }
/// #     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
/// #         Step { next: left - take, gain: Score::from(*left == *take), turn: Turn::Pass }
/// #     }
/// #     fn payoff(&self, _left: &u32) -> Score { 0 }
/// # }
/// // Tier t: t counters taken; one state per tier.
/// impl Tiered for TakeAway {
///     fn tier_count(&self) -> usize { self.counters as usize + 1 }
///     fn tier(&self, left: &u32) -> usize { (self.counters - left) as usize }
///     fn tier_len(&self, _tier: usize) -> u64 { 1 }
///     fn rank(&self, _left: &u32) -> u64 { 0 }
///     fn unrank(&self, tier: usize, _rank: u64) -> Option<u32> { Some(self.counters - tier as u32) }
///     fn tier_reach(&self) -> usize { 2 }
///     fn value_bound(&self) -> Score { 1 }
/// }
/// assert_eq!(tiers::solve(&TakeAway { counters: 9 }, tiers::Options::new()).unwrap().value(), -1);
/// ```
pub trait Tiered: Game {
    /// How many tiers there are.
    fn tier_count(&self) -> usize;

    /// The tier of `state`, in `0..tier_count()`.
    fn tier(&self, state: &Self::State) -> usize;

    /// How many ranks tier `tier` has.
    fn tier_len(&self, tier: usize) -> u64;

    /// The index of `state` within its tier, in `0..tier_len(tier(state))`.
    fn rank(&self, state: &Self::State) -> u64;

    /// The state of tier `tier` whose rank is `rank`, or `None` if no state has it.
    fn unrank(&self, tier: usize, rank: u64) -> Option<Self::State>;

    /// The state of rank `rank` in tier `tier`, given `previous`, the state of rank `rank − 1`
    /// (`None` if no state has `rank`). The solver walks a tier's ranks in order with it; the
    /// default unranks afresh, and a game whose next state follows cheaply from the one before
    /// (the next bitmask with as many bits) overrides it.
    fn unrank_next(&self, tier: usize, rank: u64, previous: &Self::State) -> Option<Self::State> {
        let _ = previous;
        self.unrank(tier, rank)
    }

    /// How many tiers ahead a move can lead at most (the solver keeps that many tiers after the
    /// one it solves). The default, `tier_count()`, keeps every tier.
    fn tier_reach(&self) -> usize {
        self.tier_count()
    }

    /// The largest absolute value a state can have: it sets the width of the stored values
    /// (one byte up to 127). The default says nothing (eight bytes).
    fn value_bound(&self) -> Score {
        Score::MAX
    }

    /// Calls `each(gain, turn, tier, rank)` for every move of `state`, in the order of
    /// [`moves`](Game::moves), with the move's gain and turn and its next state's tier and rank.
    /// The default plays every move and ranks its next state; a
    /// game whose rank of a next state follows cheaply from its own (an incremental rank)
    /// overrides it.
    fn ranked_children(&self, state: &Self::State, mut each: impl FnMut(Score, Turn, usize, u64)) {
        for mv in self.moves(state) {
            let step = self.play(state, &mv);
            each(
                step.gain,
                step.turn,
                self.tier(&step.next),
                self.rank(&step.next),
            );
        }
    }
}
