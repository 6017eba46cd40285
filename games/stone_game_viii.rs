//! LeetCode 1872, "Stone Game VIII".
//!
//! `n ≥ 2` stones with integer values (possibly negative) stand in a row. Alice and Bob
//! alternate, Alice first. The player to move chooses `x > 1`, removes the leftmost `x` stones,
//! gains the sum of their values, and puts back on the left one stone of that sum. The game
//! ends when one stone is left. The answer is Alice's score minus Bob's under optimal play.
//!
//! After the first move the leftmost stone always holds a prefix sum, so a move that ends at
//! stone `j` (0-based) gains `prefix[j] = a[0] + … + a[j]` whoever makes it. Two models of the
//! same rules, both solved by the engine and tested to agree:
//!
//! - [`Literal`]: a move picks how many stones to take, as the problem states it. State: the
//!   index of the leftmost stone. Up to `n` moves per state, so O(n²) for the engine.
//! - [`Stepwise`]: a move is either "stop here" (take the stones up to the current end `j`,
//!   gain `prefix[j]`, pass the turn) or "take one more" (move the end to `j + 1` and keep the
//!   turn). Two moves per state, so O(n) for the engine — but `n` deep, which the explicit
//!   stack handles.

use crate::error::{InputError, SolveError};
use crate::game::{Capabilities, Declares, DenseIndex, Game, Player, Score, Step, Turn};
use crate::{Limits, engines::Ply};
use std::time::Instant;

const NAME: &str = "Stone Game VIII";

/// A validated Stone Game VIII instance: at least two stones, and every score the game can
/// produce fits `i64` (`Σ_{j≥1} |prefix[j]|` does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGameVIII {
    stones: Vec<i64>,
    /// `prefix[j]` = `stones[0] + … + stones[j]`.
    prefix: Vec<i64>,
}

/// One move of the optimal line, in the problem's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoneGameVIIITake {
    /// Who moves.
    pub player: Player,
    /// How many stones are removed (`x > 1`, the merged stone on the left included).
    pub stones: usize,
    /// The value gained (the sum of the removed stones, which is put back).
    pub gain: i64,
}

impl StoneGameVIII {
    /// Checks the stones: at least two, and all scores within `i64`.
    ///
    /// Every score is bounded by `Σ_{j≥1} |prefix[j]|` (a move ending at stone `j` gains
    /// `prefix[j]`, and each `j` ends at most one move), so that sum must fit.
    ///
    /// ```
    /// use gamesolver::{games::StoneGameVIII, InputError};
    ///
    /// assert!(StoneGameVIII::new(vec![-10, -12]).is_ok());
    /// assert_eq!(
    ///     StoneGameVIII::new(vec![7]).unwrap_err().to_string(),
    ///     "Stone Game VIII needs at least 2 stones, got 1"
    /// );
    /// assert!(matches!(StoneGameVIII::new(vec![i64::MAX, 1]), Err(InputError::TotalOverflow { .. })));
    /// ```
    pub fn new(stones: Vec<i64>) -> Result<Self, InputError> {
        super::check_count(NAME, "stone", "stones", stones.len(), 2)?;
        let mut prefix = Vec::with_capacity(stones.len());
        let mut sum = 0i64;
        let mut bound = 0i64;
        for (index, &stone) in stones.iter().enumerate() {
            let overflow = |what| InputError::TotalOverflow {
                what,
                unit: "stone",
                position: index + 1,
            };
            sum = sum
                .checked_add(stone)
                .filter(|&sum| sum != i64::MIN)
                .ok_or(overflow("the running sum of the stones"))?;
            if index > 0 {
                bound = bound
                    .checked_add(sum.abs())
                    .ok_or(overflow("the bound on the scores (Σ |prefix sums|)"))?;
            }
            prefix.push(sum);
        }
        Ok(StoneGameVIII { stones, prefix })
    }

    /// The stones.
    pub fn stones(&self) -> &[i64] {
        &self.stones
    }

    /// `prefix[j] = stones[0] + … + stones[j]`.
    pub fn prefix_sums(&self) -> &[i64] {
        &self.prefix
    }

    /// The literal model: a move takes `x ≥ 2` stones.
    pub fn literal(&self) -> Literal<'_> {
        Literal { game: self }
    }

    /// The stepwise model: "stop here" or "take one more" (which keeps the turn).
    pub fn stepwise(&self) -> Stepwise<'_> {
        Stepwise { game: self }
    }

    fn len(&self) -> u32 {
        self.stones.len() as u32
    }

    /// Rewrites the literal model's line in the problem's terms.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameVIII, memo::HashTable};
    ///
    /// let game = StoneGameVIII::new(vec![7, -6, 5, 10, 5, -2, -6]).unwrap();
    /// let literal = game.literal();
    /// let mut solution = exhaustive::solve(&literal, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// let takes = game.describe_literal(&solution.line().unwrap());
    /// assert_eq!(takes.len(), 1);
    /// assert_eq!((takes[0].stones, takes[0].gain), (7, 13));
    /// ```
    pub fn describe_literal(&self, line: &[Ply<Literal<'_>>]) -> Vec<StoneGameVIIITake> {
        line.iter()
            .map(|ply| StoneGameVIIITake {
                player: ply.player,
                stones: ply.mv as usize,
                gain: ply.gain,
            })
            .collect()
    }

    /// Rewrites the stepwise model's line in the problem's terms: each run of "take one more"
    /// ended by "stop here" is one move.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameVIII, memo::DenseTable};
    ///
    /// let game = StoneGameVIII::new(vec![-1, 2, -3, 4, -5]).unwrap();
    /// let stepwise = game.stepwise();
    /// let mut solution = exhaustive::solve(&stepwise, DenseTable::for_game(&stepwise), exhaustive::Options::new()).unwrap();
    /// let takes = game.describe_stepwise(&solution.line().unwrap());
    /// // Alice takes 4 stones (sum 2), Bob the last 2 (2 − 5 = −3): 2 − (−3) = 5.
    /// let moves: Vec<_> = takes.iter().map(|t| (t.player.is_first(), t.stones, t.gain)).collect();
    /// assert_eq!(moves, vec![(true, 4, 2), (false, 2, -3)]);
    /// ```
    pub fn describe_stepwise(&self, line: &[Ply<Stepwise<'_>>]) -> Vec<StoneGameVIIITake> {
        let mut leftmost = 0;
        line.iter()
            .filter(|ply| ply.mv == StepMove::Stop)
            .map(|ply| {
                let end = ply.state.end as usize;
                let take = StoneGameVIIITake {
                    player: ply.player,
                    stones: end - leftmost + 1,
                    gain: ply.gain,
                };
                leftmost = end;
                take
            })
            .collect()
    }
}

/// The specialised O(n) solver's result: the answer, and one bit per stone that says whether
/// stopping there is optimal, from which the optimal line is read.
///
/// Built by [`solve_stone_game_viii`].
#[derive(Debug, Clone)]
pub struct StoneGameVIIIFast<'a> {
    game: &'a StoneGameVIII,
    value: Score,
    /// Bit `j`: a mover whose take may end at `j` or later does best to stop at `j`.
    stop: Vec<u64>,
}

/// Solves Stone Game VIII exactly in O(n) time and n/8 bytes: from the right,
/// `f = max(f, prefix[j] − f)`, where `f` is the best score difference for a mover whose take
/// may end at `j` or any later stone.
///
/// This is the stepwise model's recurrence, `v(j) = max(prefix[j] − v(j + 1), v(j + 1))`,
/// computed bottom-up; ties go to stopping, as the engine's move order does, so the line is
/// the engine's.
///
/// ```
/// use gamesolver::games::{solve_stone_game_viii, StoneGameVIII};
///
/// let game = StoneGameVIII::new(vec![7, -6, 5, 10, 5, -2, -6]).unwrap();
/// let solution = solve_stone_game_viii(&game);
/// assert_eq!(solution.value(), 13);
/// assert_eq!(solution.line().len(), 1);
/// ```
pub fn solve_stone_game_viii(game: &StoneGameVIII) -> StoneGameVIIIFast<'_> {
    solve_stone_game_viii_with(game, Limits::unlimited())
        .expect("n/8 bytes: the input itself is 64 times larger")
}

/// [`solve_stone_game_viii`] within `limits`: its n/8 bytes are refused with
/// [`SolveError::MemoryBudget`] over the budget (or [`SolveError::Allocation`] if the system refuses
/// them), and it stops with [`SolveError::TimeLimit`] past the time limit.
///
/// ```
/// use gamesolver::{games::{solve_stone_game_viii_with, StoneGameVIII}, SolveError, Limits};
///
/// let game = StoneGameVIII::new(vec![1; 100_000]).unwrap();
/// let solution = solve_stone_game_viii_with(&game, Limits::with_memory_budget(1 << 20)).unwrap();
/// assert_eq!(solution.value(), 100_000);
/// let refused = solve_stone_game_viii_with(&game, Limits::with_memory_budget(1 << 10));
/// assert!(matches!(refused, Err(SolveError::MemoryBudget { .. })));
/// ```
pub fn solve_stone_game_viii_with(
    game: &StoneGameVIII,
    limits: Limits,
) -> Result<StoneGameVIIIFast<'_>, SolveError> {
    let prefix = &game.prefix;
    let last = prefix.len() - 1;
    let words = prefix.len().div_ceil(64);
    let bytes = words as u64 * 8;
    if bytes > limits.memory_budget {
        return Err(SolveError::MemoryBudget {
            what: format!(
                "the O(n) solver's {words} words for {} stones",
                prefix.len()
            ),
            needed: bytes,
            budget: limits.memory_budget,
        });
    }
    let mut stop: Vec<u64> = Vec::new();
    stop.try_reserve_exact(words)
        .map_err(|_| SolveError::Allocation {
            what: format!("the O(n) solver's {words} words"),
            bytes,
        })?;
    stop.resize(words, 0);
    let deadline = limits
        .time_limit
        .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit)));
    // At the last stone the mover must stop.
    let mut best = prefix[last];
    stop[last / 64] |= 1 << (last % 64);
    for end in (1..last).rev() {
        if let Some((deadline, limit)) = deadline
            && end.is_multiple_of(1 << 20)
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} of {} stones", last - end, prefix.len()),
            });
        }
        // Validation bounds every |score| by Σ|prefix|, which fits i64: no overflow here.
        let stopping = prefix[end] - best;
        if stopping >= best {
            best = stopping;
            stop[end / 64] |= 1 << (end % 64);
        }
    }
    Ok(StoneGameVIIIFast {
        game,
        value: best,
        stop,
    })
}

impl StoneGameVIIIFast<'_> {
    /// Alice's score minus Bob's.
    pub fn value(&self) -> Score {
        self.value
    }

    /// The first stone at or after `end` where stopping is optimal (the last stone always is).
    fn next_stop(&self, end: usize) -> usize {
        let mut word = end / 64;
        let mut bits = self.stop[word] & (u64::MAX << (end % 64));
        while bits == 0 {
            word += 1;
            bits = self.stop[word];
        }
        word * 64 + bits.trailing_zeros() as usize
    }

    /// The optimal line of play, in the problem's terms.
    pub fn line(&self) -> Vec<StoneGameVIIITake> {
        let last = self.game.stones.len() - 1;
        let (mut leftmost, mut player) = (0, Player::First);
        let mut line = Vec::new();
        while leftmost < last {
            let end = self.next_stop(leftmost + 1);
            line.push(StoneGameVIIITake {
                player,
                stones: end - leftmost + 1,
                gain: self.game.prefix[end],
            });
            leftmost = end;
            player = player.opponent();
        }
        line
    }
}

/// [`StoneGameVIII`] as the problem states it: a move takes `x ≥ 2` stones.
///
/// State: the index of the leftmost stone (it holds `prefix[state]`); move: `x`.
#[derive(Debug, Clone, Copy)]
pub struct Literal<'a> {
    game: &'a StoneGameVIII,
}

impl<'a> Literal<'a> {
    /// The instance this model plays.
    pub fn game(&self) -> &'a StoneGameVIII {
        self.game
    }
}

impl Game for Literal<'_> {
    /// The index of the leftmost stone.
    type State = u32;
    /// How many stones to remove.
    type Move = u32;

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, leftmost: &u32) -> impl Iterator<Item = u32> {
        2..=self.game.len() - leftmost
    }

    fn play(&self, leftmost: &u32, take: &u32) -> Step<u32> {
        let end = leftmost + take - 1;
        Step {
            next: end,
            gain: self.game.prefix[end as usize],
            turn: Turn::Pass,
        }
    }

    fn payoff(&self, _leftmost: &u32) -> Score {
        0
    }

    fn state_bound(&self) -> Option<u64> {
        Some(u64::from(self.game.len()))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

impl DenseIndex for Literal<'_> {
    fn index_len(&self) -> usize {
        self.game.stones.len()
    }

    fn index(&self, leftmost: &u32) -> usize {
        *leftmost as usize
    }
}

/// A position of the [`Stepwise`] model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepState {
    /// The stone the mover's take would end at if they stopped now (from 0); the game is over
    /// when it is past the last stone.
    pub end: u32,
}

/// A move of the [`Stepwise`] model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepMove {
    /// Take the stones up to `end`, gain `prefix[end]`, and pass the turn.
    Stop,
    /// Extend the take by one stone and keep the turn.
    More,
}

/// [`StoneGameVIII`] with binary moves: "stop here" or "take one more".
///
/// The first move must take two stones, so the start is `end = 1`; after a stop at `j` the next
/// player's take must include the merged stone `j` and at least stone `j + 1`.
#[derive(Debug, Clone, Copy)]
pub struct Stepwise<'a> {
    game: &'a StoneGameVIII,
}

impl<'a> Stepwise<'a> {
    /// The instance this model plays.
    pub fn game(&self) -> &'a StoneGameVIII {
        self.game
    }
}

impl Game for Stepwise<'_> {
    type State = StepState;
    type Move = StepMove;

    fn start(&self) -> StepState {
        StepState { end: 1 }
    }

    #[inline]
    fn moves(&self, state: &StepState) -> impl Iterator<Item = StepMove> {
        let last = self.game.len() - 1;
        let stop = (state.end <= last).then_some(StepMove::Stop);
        let more = (state.end < last).then_some(StepMove::More);
        stop.into_iter().chain(more)
    }

    #[inline]
    fn play(&self, state: &StepState, mv: &StepMove) -> Step<StepState> {
        let next = StepState { end: state.end + 1 };
        match mv {
            StepMove::Stop => Step {
                next,
                gain: self.game.prefix[state.end as usize],
                turn: Turn::Pass,
            },
            StepMove::More => Step {
                next,
                gain: 0,
                turn: Turn::Keep,
            },
        }
    }

    fn payoff(&self, _state: &StepState) -> Score {
        0
    }

    fn state_bound(&self) -> Option<u64> {
        Some(u64::from(self.game.len()))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

impl DenseIndex for Stepwise<'_> {
    fn index_len(&self) -> usize {
        self.game.stones.len() + 1
    }

    #[inline]
    fn index(&self, state: &StepState) -> usize {
        state.end as usize
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli {
    //! LeetCode 1872, Stone Game VIII: Alice's score minus Bob's. The engine solves its stepwise
    //! model (O(n) states, but a chain: each waits on the next, which no number of threads
    //! shortens); the specialised solver is O(n).

    use crate::InputError;
    use std::time::Instant;

    use crate::games::{
        Literal, StepMove, StepState, Stepwise, StoneGameVIII, StoneGameVIIITake,
        solve_stone_game_viii_with,
    };
    use crate::{
        Limits, Score,
        engines::{Ply, Stats},
    };

    use crate::cli::args::Cli;
    use crate::cli::budget::held;
    use crate::cli::model::{Answer, Entry, Failure, Fields, Line, Report};
    use crate::cli::present::{Presented, alice_or_bob, integers, row};
    use crate::cli::registry::{Bundled, Engine, Reads, Solves};

    /// Stone Game VIII on the command line.
    pub const GAME: Bundled = Bundled::new(
        "stone-game-viii",
        "LeetCode 1872: Alice's score minus Bob's",
        Solves::Engine(Engine {
            reads: Reads::Integers {
                example: "-1,2,-3,4,-5",
            },
            // Analysis and play show the problem's own moves (remove x stones): its literal model,
            // O(n²) moves. Solves (and saved tables) use the stepwise model, O(n).
            with: |values, task| {
                let game = StoneGameVIII::new(values)?;
                match (task.shows_moves(), task.loads()) {
            (false, _) => task.with(&game.stepwise()),
            (true, false) => task.with(&game.literal()),
            (true, true) => Err(Failure::Usage(
                "stone-game-viii's saved tables are of its stepwise model (a move is \"stop\" or \
                 \"one stone more\"), while analyze and play show the problem's own moves: \
                 run them without --load"
                    .into(),
            )),
        }
            },
            // Both models: the literal rules and the stepwise one the engine solves.
            check: |values, options, summary| {
                let game = StoneGameVIII::new(values)?;
                summary.add_dense(&game.literal(), options)?;
                summary.add_dense(&game.stepwise(), options)
            },
            fast: Some(fast),
            tiers: None,
            at: Some("'STONE': the leftmost stone (the one put back last), from 1"),
        }),
    );

    /// The specialised O(n) solver.
    fn fast(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure> {
        let n = values.len();
        let game = StoneGameVIII::new(values)?;
        let limits = held(
            limits,
            n as u64 * size_of::<StoneGameVIIITake>() as u64,
            || format!("the optimal line of up to {n} moves"),
        )?;
        let clock = Instant::now();
        let solution = solve_stone_game_viii_with(&game, limits)?;
        let stats = Stats {
            elapsed: clock.elapsed(),
            ..Stats::default()
        };
        Ok(Report {
            n,
            stats,
            line: Line::lazy(solution.line(), entry),
            ..Report::new(
                cli.game,
                Answer::Number(solution.value()),
                solution.value(),
                headline(&game, solution.value()),
                "fast",
            )
        })
    }

    /// Stone Game VIII through its stepwise model, which the engine solves.
    impl Presented for Stepwise<'_> {
        fn answer(&self, value: Score) -> Answer {
            Answer::Number(value)
        }
        fn headline(&self, value: Score) -> String {
            headline(self.game(), value)
        }
        const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            Line::lazy(self.game().describe_stepwise(line), entry)
        }
        fn position(&self, position: &str) -> Result<StepState, InputError> {
            leftmost(self.game(), position).map(|leftmost| StepState { end: leftmost + 1 })
        }
        fn show(&self, state: &StepState) -> String {
            stones_from(self.game(), state.end - 1)
        }
        fn move_name(&self, _: &StepState, mv: &StepMove) -> String {
            match mv {
                StepMove::Stop => "stop".to_string(),
                StepMove::More => "more".to_string(),
            }
        }
    }

    /// Stone Game VIII as the problem states it (a move takes x ≥ 2 stones): the model `play`
    /// offers.
    impl Presented for Literal<'_> {
        fn answer(&self, value: Score) -> Answer {
            Answer::Number(value)
        }
        fn headline(&self, value: Score) -> String {
            headline(self.game(), value)
        }
        const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            let takes = line.iter().map(|ply| StoneGameVIIITake {
                player: ply.player,
                stones: ply.mv as usize,
                gain: ply.gain,
            });
            Line::lazy(takes.collect(), entry)
        }
        fn position(&self, position: &str) -> Result<u32, InputError> {
            leftmost(self.game(), position)
        }
        fn show(&self, leftmost: &u32) -> String {
            stones_from(self.game(), *leftmost)
        }
        fn move_name(&self, _: &u32, stones: &u32) -> String {
            stones.to_string()
        }
        fn move_hint(&self) -> Option<&'static str> {
            Some("how many of the leftmost stones to remove (at least 2)")
        }
    }

    /// The leftmost stone of a position typed as `STONE` (from 1), from 0.
    fn leftmost(game: &StoneGameVIII, position: &str) -> Result<u32, InputError> {
        let n = game.stones().len() as i64;
        match *integers(position)? {
            [stone] if (1..=n).contains(&stone) => Ok(stone as u32 - 1),
            _ => Err(InputError::InvalidState(format!(
                "a Stone Game VIII position is 'STONE': the leftmost stone (the one put back last), \
             from 1 to {n} ({n}: the game is over)"
            ))),
        }
    }

    /// The row of stones when the leftmost is `leftmost`: it holds the sum of every stone up to
    /// it (the stones removed and put back as one).
    fn stones_from(game: &StoneGameVIII, leftmost: u32) -> String {
        let stones = game.stones();
        let leftmost = leftmost as usize;
        let merged: i64 = stones[..=leftmost].iter().sum();
        let rest = stones[leftmost + 1..].iter().copied();
        format!(
            "Stones: {}",
            row(std::iter::once(merged)
                .chain(rest)
                .collect::<Vec<_>>()
                .into_iter())
        )
    }

    /// A Stone Game VIII take, as an entry (shared by the engine and the specialised solver).
    fn entry(take: &StoneGameVIIITake) -> Entry {
        let player = alice_or_bob(take.player);
        Entry {
            player,
            text: format!(
                "{player} removes the leftmost {} stones, scoring their sum {}, and puts back a \
             stone of {}",
                take.stones, take.gain, take.gain
            ),
            fields: Fields::new()
                .with("stones", take.stones)
                .with("gain", take.gain),
        }
    }

    /// Stone Game VIII's headline.
    fn headline(game: &StoneGameVIII, value: Score) -> String {
        format!(
            "Stone Game VIII with {} stones: Alice's score minus Bob's is {value} with both \
         playing optimally.",
            game.stones().len()
        )
    }
}
