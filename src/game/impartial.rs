//! Impartial games under the normal play convention: [`Impartial`], and their values,
//! [`Nimber`]s.

use super::Game;

/// The nimber (Sprague–Grundy value) of a position of an [`Impartial`] game: the least number
/// that no move's position has (the *mex* of its options' nimbers). A position is lost for the
/// player to move exactly when its nimber is 0, and a sum of independent positions is worth
/// the XOR of their nimbers (the Sprague–Grundy theorem).
pub type Nimber = u32;

/// An optional capability: the game is *impartial* under the *normal play convention*. Both
/// players have the same moves from every position (the state does not say whose turn it is),
/// the player who cannot move loses, and play cannot cycle. Every position then has a
/// [`Nimber`], and a position made of independent parts (two rows of pins, two separate
/// regions of a board) is worth the XOR of its parts' nimbers.
///
/// Declare it with [`Capabilities::impartial`](super::Capabilities::impartial): the
/// [`Solver`](crate::Solver) then computes nimbers ([`engines::nimbers`](crate::engines::nimbers)),
/// storing each part once by its canonical form, and its answer gives the
/// [`nimber`](crate::Solved::nimber) besides the win or loss.
///
/// # Contract
///
/// - Every move passes the turn and gains nothing, and a state with no move has payoff −1 (the
///   player to move has lost): the game is a win/loss [outcome
///   game](super::Capabilities::outcome_game), which `impartial` declares too.
/// - [`split`](Impartial::split) appends states of this game (the *parts*) whose sum is `state`:
///   the moves of `state` are the moves of its parts, each changing one part and leaving the
///   others as they were. A part with no move may be left out (its nimber is 0); a state with
///   no move may have no part. A part may also be a smaller game of the same nimber (Cram drops
///   all but one of the cells that hang off the same cell): the engine only reads parts'
///   nimbers, and plays whole states. Equal parts share one stored nimber, so a part should be
///   in a canonical form: two parts that are the same game (a region of a board and its mirror
///   image, a run of pins wherever it stands) should be equal states. The default: the state
///   itself, one part.
///
/// [`check_impartial`](crate::check::check_impartial) verifies both on the states it walks:
/// the steps and payoffs, and that a state's nimber, computed without splitting, is the XOR
/// of its parts'.
///
/// ```
/// use gamesolver::{Capabilities, Declares, Game, Score, Solved, Solver, Step, Turn};
/// use gamesolver::game::Impartial;
///
/// /// Heaps of counters; a move takes 1, 2 or 3 counters from one heap.
/// struct Subtraction { heaps: Vec<u32> }
///
/// impl Game for Subtraction {
///     type State = Vec<u32>;
///     type Move = (usize, u32);
///     fn start(&self) -> Vec<u32> { self.heaps.clone() }
///     fn moves(&self, heaps: &Vec<u32>) -> impl Iterator<Item = (usize, u32)> {
///         let heaps = heaps.clone();
///         (0..heaps.len()).flat_map(move |heap| (1..=3.min(heaps[heap])).map(move |take| (heap, take)))
///     }
///     fn play(&self, heaps: &Vec<u32>, &(heap, take): &(usize, u32)) -> Step<Vec<u32>> {
///         let mut next = heaps.clone();
///         next[heap] -= take;
///         Step { next, gain: 0, turn: Turn::Pass }
///     }
///     fn payoff(&self, _: &Vec<u32>) -> Score { -1 }
///     fn capabilities(&self) -> impl Declares<Self> { Capabilities::none().impartial() }
/// }
///
/// impl Impartial for Subtraction {
///     /// Each heap is a game of its own: a part is one heap.
///     fn split(&self, heaps: &Vec<u32>, parts: &mut Vec<Vec<u32>>) {
///         parts.extend(heaps.iter().filter(|&&heap| heap > 0).map(|&heap| vec![heap]));
///     }
/// }
///
/// // A heap of n is worth n mod 4: 5 ^ 6 ^ 7 → 1 ^ 2 ^ 3 = 0, a loss for the player to move.
/// let game = Subtraction { heaps: vec![5, 6, 7] };
/// let solved = Solver::new(&game).solve()?;
/// assert_eq!((solved.value(), solved.nimber()), (-1, Some(0)));
/// let game = Subtraction { heaps: vec![5, 6, 8] };
/// assert_eq!(Solver::new(&game).solve()?.nimber(), Some(1 ^ 2));
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub trait Impartial: Game {
    /// Appends the independent parts of `state` to `parts`, each in its canonical form (see
    /// the contract). The default appends `state` itself.
    fn split(&self, state: &Self::State, parts: &mut Vec<Self::State>) {
        parts.push(state.clone());
    }

    /// The nimber of the part `part` where the game knows it without search (a heap of Nim is
    /// worth its size): the engine then neither lists its moves nor stores it. `None` (the
    /// default): search. [`check_impartial`](crate::check::check_impartial) compares what it
    /// says with the nimber over the literal moves.
    fn known_nimber(&self, part: &Self::State) -> Option<Nimber> {
        let _ = part;
        None
    }

    /// The part `part` as a number, unique among the game's parts, for a
    /// [`Journal`](crate::engines::nimbers::Journal) of parts' nimbers that a long solve saves
    /// and resumes from. `None` (the default): the game's nimbers are not saved.
    fn part_key(&self, part: &Self::State) -> Option<u128> {
        let _ = part;
        None
    }

    /// How much work valuing the part `part` takes, roughly, for the search's order: of a
    /// position's options, those whose parts weigh less are searched first, and of an option's
    /// parts, the heaviest is the one searched against the nimbers asked (the others are
    /// valued whole). Any number is correct; a good one is faster. The default: the count of
    /// its moves (a game with a cheaper measure, such as a region's count of cells, says so).
    fn weight(&self, part: &Self::State) -> u64 {
        self.moves(part).count() as u64
    }
}
