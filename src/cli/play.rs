//! `gamesolver play`: a game against the solver, in words, one line of input per move.
//!
//! The game is solved once (the engine with a dense table when it fits, else a hash table, or
//! a table loaded with `--load`); every answer of the solver and every `?` is then a look-up
//! in that solution (or a short search below a cut-off). The person's moves are typed as the
//! game names them (`Presented::move_name`): exactly, or any unambiguous start of the name.

use crate::SolveError;
use std::hash::Hash;
use std::io::{self, BufRead, Read, Write};

use crate::engines::exhaustive;
use crate::memo::{BoundTable, DenseTable, HashTable, MemoTable};
use crate::{
    DenseIndex, Error, Game, Limits, Player, Score, Tiered,
    engines::{
        MoveValue, Ply, RangeJob, RangeSource, exhaustive::Solution, pruning::Pruner,
        tiers::TierSolution, with_declared_range,
    },
};

use super::args::{PlayArgs, Side, strip_protection};
use super::budget;
use super::model::{CliError, Failure};
use super::present::{Presented, outcome_game};
use super::registry::{self, Done, Play, Task};
use super::saved;
use super::solve;
use super::tier_file;

/// The longest line a move is read from; the rest of a longer line is read as further lines.
pub(super) const LINE_BYTES: u64 = 4096;

/// Reads the game, solves it, and plays it with the person on standard input and output.
pub(crate) fn run(args: &PlayArgs) -> Result<(), Failure> {
    let cli = &args.game;
    let refused = if cli.json {
        Some("--json (play is a conversation in words; analyze --json values every move)")
    } else if cli.save.is_some() {
        Some("--save (solve with --save first, then play with --load)")
    } else {
        None
    };
    if let Some(option) = refused {
        return Err(Failure::Usage(format!("play does not take {option}")));
    }
    if let Some(own) = cli.game.own() {
        return (own.play)(args);
    }
    let (values, limits) = budget::values_and_limits(cli)?;
    // Kept to compare with a saved table's values.
    let params = if cli.load.is_some() {
        values.clone()
    } else {
        Vec::new()
    };
    let task = Task::Play(Play {
        args,
        params: &params,
        limits,
    });
    registry::with_engine_game(cli.game, values, task).map(Done::played)
}

impl Play<'_> {
    /// Solves `game` and plays it on standard input and output.
    pub(crate) fn with<G>(self, game: &G) -> Result<(), Failure>
    where
        G: Presented + DenseIndex,
        G::State: Eq + Hash,
    {
        let cli = &self.args.game;
        let start = self.start(game)?;
        let budget = self.limits.memory_budget;
        let (name, side) = (cli.game.id(), self.args.side);
        if let Some(path) = &cli.load {
            let table = saved::load(path, cli.game, self.params, game, budget)?;
            solved_and_played(game, table, self.limits, (start, name, side))
        } else if DenseTable::bytes_for_len(game.index_len()) <= budget {
            let table = DenseTable::try_for_game(game, budget)?;
            solved_and_played(game, table, self.limits, (start, name, side))
        } else {
            solved_and_played(game, HashTable::new(), self.limits, (start, name, side))
        }
    }

    /// Plays `game`, which declares no dense index, against the engine on a hash table.
    pub(crate) fn hashed<G>(self, game: &G) -> Result<(), Failure>
    where
        G: Presented + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        let cli = &self.args.game;
        if tier_file::loopy_tiered(game) {
            let start = self.start(game)?;
            let mut answer = tier_file::loopy_answer(cli, game, self.params, self.limits)?;
            return converse_from(game, &mut answer, start, cli.game.id(), self.args.side);
        }
        if cli.load.is_some() {
            return Err(saved::needs_dense_index(cli.game));
        }
        let start = self.start(game)?;
        let (name, side) = (cli.game.id(), self.args.side);
        solved_and_played(game, HashTable::new(), self.limits, (start, name, side))
    }

    /// Where the game starts: `--at`'s position, or the start.
    fn start<G: Presented>(&self, game: &G) -> Result<G::State, Error> {
        match &self.args.game.at {
            Some(text) => Ok(game.position(strip_protection(text))?),
            None => Ok(game.start()),
        }
    }

    /// Plays a game layered into tiers: as [`with`](Play::with) where the engine's dense
    /// table fits the budget (or with `--load`), else against the tier solver keeping every
    /// tier.
    pub(crate) fn with_tiers<G>(self, game: &G) -> Result<(), Failure>
    where
        G: Presented + DenseIndex + Tiered + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        let cli = &self.args.game;
        if cli.load.is_some() && tier_file::by_tier_file(cli) {
            let start = self.start(game)?;
            let mut answer = tier_file::tier_file_answer(cli, game, self.params, self.limits)?;
            return converse_from(game, &mut answer, start, cli.game.id(), self.args.side);
        }
        let budget = self.limits.memory_budget;
        if cli.load.is_some() || DenseTable::bytes_for_len(game.index_len()) <= budget {
            return self.with(game);
        }
        let start = self.start(game)?;
        let mut oracle = solve::every_tier(cli, game, self.limits)?;
        converse_from(game, &mut oracle, start, cli.game.id(), self.args.side)
    }
}

/// Plays `game` from its start with the person on standard input and output, `oracle`
/// answering.
pub fn converse<G: Presented>(
    game: &G,
    oracle: &mut impl Oracle<G>,
    name: &'static str,
    side: Side,
) -> Result<(), Failure> {
    converse_from(game, oracle, game.start(), name, side)
}

/// Plays `game` from `start` with the person on standard input and output.
fn converse_from<G: Presented>(
    game: &G,
    oracle: &mut impl Oracle<G>,
    start: G::State,
    name: &'static str,
    side: Side,
) -> Result<(), Failure> {
    let you = match side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let session = Session { name, start, you };
    let played = session.play(
        game,
        oracle,
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
    );
    played.map(|_| ()).or_else(|failure| match failure {
        // The person closed the terminal or the pipe: the game simply ends.
        Stop::Io(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Stop::Io(error) => Err(Failure::Cli(CliError::read("the terminal", error))),
        Stop::Solve(error) => Err(Failure::Rejected(error.into())),
    })
}

/// The game solved on `table`, cutting where the game declares it may, then played from
/// `start` with `name` and `side`.
fn solved_and_played<G: Presented, T: MemoTable<G>>(
    game: &G,
    table: T,
    limits: Limits,
    (start, name, side): (G::State, &'static str, Side),
) -> Result<(), Failure> {
    with_declared_range(
        game,
        Conversation {
            game,
            table,
            limits,
            start,
            name,
            side,
        },
    )
}

/// [`solved_and_played`]'s work, with the range source the game declares.
struct Conversation<'a, G: Game, T> {
    game: &'a G,
    table: T,
    limits: Limits,
    start: G::State,
    name: &'static str,
    side: Side,
}

impl<G: Presented, T: MemoTable<G>> RangeJob<G> for Conversation<'_, G, T> {
    type Output = Result<(), Failure>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let mut oracle = exhaustive::solve(
            self.game,
            self.table,
            exhaustive::Options::new().limits(self.limits).range(range),
        )?;
        converse_from(self.game, &mut oracle, self.start, self.name, self.side)
    }
}

/// What values the moves of a state for `play`: a solved game.
pub trait Oracle<G: Game> {
    /// Every move of `state` with its value for the mover, in the game's move order.
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError>;
}

/// The pruning engine values each move with its own search (on the bound table it keeps).
impl<G: Game, T: BoundTable<G>, R: RangeSource<G>> Oracle<G> for Pruner<'_, G, T, R> {
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        self.analyze(state)
    }
}

/// A tier solution that kept every tier values any position's moves from its tiers.
impl<G: Tiered> Oracle<G> for TierSolution<'_, G> {
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        TierSolution::move_values(self, state).ok_or_else(solve::tiers_not_kept)
    }
}

/// The library's answer (the loopy tier solver's, in memory or from a tier file).
impl<G: Game> Oracle<G> for crate::Answer<'_, G> {
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        crate::Solved::move_values(self, state)
    }
}

impl<G: Game, T: MemoTable<G>, R: RangeSource<G>> Oracle<G> for Solution<'_, G, T, R> {
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        Solution::move_values(self, state)
    }
}

/// Why a game stopped before its end.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The terminal could not be read or written.
    Io(io::Error),
    /// The solution could not value a move (its limits).
    Solve(SolveError),
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Io(error)
    }
}

impl From<SolveError> for Stop {
    fn from(error: SolveError) -> Self {
        Stop::Solve(error)
    }
}

/// One game: its name, where it starts, and the person's side.
pub(crate) struct Session<S> {
    /// The game's name, for the greeting.
    pub name: &'static str,
    /// The state it starts in.
    pub start: S,
    /// The side the person plays.
    pub you: Player,
}

/// What the person typed.
enum Typed<M> {
    /// A legal move.
    Move(M),
    /// The end of the input, or `q`.
    Quit,
}

impl<S: Clone> Session<S> {
    /// Plays the game to its end (or until the person quits or the input ends), reading the
    /// person's moves from `input` and writing the conversation to `out`. Returns the first
    /// player's points minus the second's at the end (`None`: the person left).
    pub(crate) fn play<G, O>(
        self,
        game: &G,
        oracle: &mut O,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> Result<Option<Score>, Stop>
    where
        G: Presented<State = S>,
        O: Oracle<G>,
    {
        let (you, them) = (
            game.player_name(self.you),
            game.player_name(self.you.opponent()),
        );
        // Who moves first from here: the start's first player, or the side to move at `--at`'s
        // position where the game's positions say it.
        let mut mover = game.mover(&self.start);
        let order = if self.you == mover { "first" } else { "second" };
        writeln!(
            out,
            "{}: you are {you} and move {order}; the solver plays {them}.",
            self.name
        )?;
        instructions(game, out)?;
        let mut state = self.start;
        let mut points = [0 as Score; 2];
        let mut moves = Vec::new();
        loop {
            writeln!(out)?;
            writeln!(out, "{}", game.show_for(&state, mover))?;
            if points != [0, 0] {
                writeln!(
                    out,
                    "Points so far: {} {}, {} {}.",
                    game.player_name(Player::First),
                    points[0],
                    game.player_name(Player::Second),
                    points[1]
                )?;
            }
            moves.clear();
            game.moves_into(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = if mover == self.you {
                match ask(game, oracle, &state, &moves, input, out)? {
                    Typed::Move(mv) => mv,
                    Typed::Quit => {
                        writeln!(out, "Game left unfinished.")?;
                        return Ok(None);
                    }
                }
            } else {
                best(oracle, &state)?
            };
            let step = game.play(&state, &mv);
            let ply = Ply {
                player: mover,
                state: state.clone(),
                mv,
                gain: step.gain,
                turn: step.turn,
                value: 0,
            };
            if let Some(entry) = game.entries(std::slice::from_ref(&ply)).entries().next() {
                writeln!(out, "{}.", entry.text)?;
            }
            let side = usize::from(!mover.is_first());
            points[side] = points[side].saturating_add(step.gain);
            mover = mover.after(step.turn);
            state = step.next;
        }
        let payoff = game.payoff(&state);
        let margin = points[0]
            .saturating_sub(points[1])
            .saturating_add(if mover.is_first() { payoff } else { -payoff });
        let yours = if self.you.is_first() { margin } else { -margin };
        let verdict = match yours.signum() {
            1 => "You win.",
            -1 => "You lose.",
            _ => "Nobody wins.",
        };
        writeln!(out, "Game over: {}. {verdict}", game.final_result(margin))?;
        Ok(Some(margin))
    }
}

/// The rules of the conversation.
fn instructions<G: Presented>(game: &G, out: &mut impl Write) -> io::Result<()> {
    let how = game
        .move_hint()
        .map_or_else(String::new, |hint| format!(" ({hint})"));
    writeln!(
        out,
        "Type a move{how}, '?' for the value of every move, 'q' to quit."
    )
}

/// The first move of `state` with the best value for its mover (the solver's answer: the
/// same move the optimal line takes).
fn best<G: Game>(oracle: &mut impl Oracle<G>, state: &G::State) -> Result<G::Move, SolveError> {
    let moves = oracle.move_values(state)?;
    let top = moves.iter().map(|mv| mv.value).max();
    moves
        .into_iter()
        .find(|mv| Some(mv.value) == top)
        .map(|mv| mv.mv)
        .ok_or_else(|| {
            SolveError::InvalidState("the solver has no move at a state that has moves".into())
        })
}

/// Prompts until the person types a legal move (or quits), answering `?` and help on the
/// way; after the move, says whether it was a best one.
fn ask<G: Presented>(
    game: &G,
    oracle: &mut impl Oracle<G>,
    state: &G::State,
    moves: &[G::Move],
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Typed<G::Move>, Stop> {
    let names: Vec<String> = moves.iter().map(|mv| game.move_name(state, mv)).collect();
    // Names may hold commas (Nim's 2,3): the list is set apart by bars.
    let listed = if names.len() <= 10 {
        names.join(" | ")
    } else {
        format!("{} | … ({} in all)", names[..6].join(" | "), names.len())
    };
    loop {
        write!(out, "Your move ({listed}): ")?;
        out.flush()?;
        let mut line = String::new();
        let read = input.by_ref().take(LINE_BYTES).read_line(&mut line)?;
        if read == 0 {
            writeln!(out)?;
            return Ok(Typed::Quit);
        }
        let typed = line.trim();
        match typed {
            "" => continue,
            "q" | "quit" | "exit" => return Ok(Typed::Quit),
            "h" | "help" => instructions(game, out)?,
            "?" => values(game, oracle, state, out)?,
            _ => match chosen(&names, typed) {
                Ok(index) => {
                    judge(game, oracle, state, index, out)?;
                    return Ok(Typed::Move(moves[index].clone()));
                }
                Err(problem) => writeln!(out, "{problem}")?,
            },
        }
    }
}

/// Which of `names` the person means by `typed`: the one it equals, or the only one it
/// starts, case, spaces and parentheses aside.
pub(super) fn chosen(names: &[String], typed: &str) -> Result<usize, String> {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = plain(typed);
    if let Some(index) = names.iter().position(|name| plain(name) == key) {
        return Ok(index);
    }
    let starting: Vec<usize> = (0..names.len())
        .filter(|&index| plain(&names[index]).starts_with(&key))
        .collect();
    match starting.as_slice() {
        [index] => Ok(*index),
        [] => Err(format!(
            "{typed:?} is not a legal move here. Type one of the moves listed ('?' shows them \
             all with their values, 'h' how to type them)."
        )),
        _ => Err(format!(
            "{typed:?} could be any of {}: type more of it.",
            starting
                .iter()
                .take(6)
                .map(|&index| names[index].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Every move of `state` with its value for the mover, best first.
fn values<G: Presented>(
    game: &G,
    oracle: &mut impl Oracle<G>,
    state: &G::State,
    out: &mut impl Write,
) -> Result<(), Stop> {
    let mut moves = oracle.move_values(state)?;
    moves.sort_by_key(|mv| std::cmp::Reverse(mv.value));
    let top = moves.first().map(|mv| mv.value);
    let outcomes = if outcome_game(game) {
        "; +1/-1 for a win/loss"
    } else {
        ""
    };
    writeln!(
        out,
        "Every move, best first, with its value for you (your points minus the opponent's \
         from here on with best play{outcomes}):"
    )?;
    for mv in &moves {
        let best = if Some(mv.value) == top {
            "  (best)"
        } else {
            ""
        };
        writeln!(
            out,
            "  {:>6}  {}{best}",
            mv.value,
            game.move_name(state, &mv.mv)
        )?;
    }
    Ok(())
}

/// Says whether the person's move (the `index`th of `state`) was a best one, and if not, which
/// was and what it cost.
fn judge<G: Presented>(
    game: &G,
    oracle: &mut impl Oracle<G>,
    state: &G::State,
    index: usize,
    out: &mut impl Write,
) -> Result<(), Stop> {
    let moves = oracle.move_values(state)?;
    let Some(top) = moves.iter().map(|mv| mv.value).max() else {
        return Ok(());
    };
    let value = moves[index].value;
    if value < top {
        let better = moves
            .iter()
            .find(|mv| mv.value == top)
            .map(|mv| game.move_name(state, &mv.mv))
            .unwrap_or_default();
        writeln!(
            out,
            "(Not the best: {better} secures {top} from here, this move {value}.)"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::{DotsAndBoxes, Nim, StoneGameII, TicTacToe};

    /// A person who, at each prompt, types the names of `candidates` in turn until one is
    /// legal: the candidates are shuffled by `seed`, so each seed is another way of playing.
    fn person(candidates: &[String], seed: u64) -> io::Cursor<Vec<u8>> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut lines = Vec::new();
        for _ in 0..40 {
            let mut round = candidates.to_vec();
            for index in (1..round.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                round.swap(index, (state % (index as u64 + 1)) as usize);
            }
            lines.extend(round);
        }
        io::Cursor::new(lines.join("\n").into_bytes())
    }

    /// Plays `game` many times, the person on `you`, typing moves from `candidates`: the solver
    /// always secures at least its side's value of the start (from an independent solve on a
    /// hash table), and a game played out reports a margin.
    fn never_beaten<G>(game: &G, candidates: &[String])
    where
        G: Presented + DenseIndex,
        G::State: Eq + Hash,
    {
        let value = exhaustive::solve(game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        for you in [Player::First, Player::Second] {
            for seed in 0..20 {
                let table = DenseTable::for_game(game);
                let mut oracle = exhaustive::solve(
                    game,
                    table,
                    exhaustive::Options::new().range(crate::engines::AnyValue),
                )
                .unwrap();
                let session = Session {
                    name: "test",
                    start: game.start(),
                    you,
                };
                let mut out = Vec::new();
                let margin = session
                    .play(game, &mut oracle, &mut person(candidates, seed), &mut out)
                    .unwrap();
                let text = String::from_utf8(out).unwrap();
                let margin = margin.unwrap_or_else(|| panic!("the game ends:\n{text}"));
                if you == Player::First {
                    assert!(margin <= value, "{margin} > {value}:\n{text}");
                } else {
                    assert!(margin >= value, "{margin} < {value}:\n{text}");
                }
                assert!(text.contains("Game over: "), "{text}");
            }
        }
    }

    fn names(range: impl Iterator<Item = String>) -> Vec<String> {
        range.collect()
    }

    #[test]
    fn the_solver_is_never_beaten() {
        never_beaten(
            &Nim::new(vec![3, 4, 5]).unwrap(),
            &names((1..=3).flat_map(|heap| (1..=5).map(move |take| format!("{heap},{take}")))),
        );
        never_beaten(
            &Nim::new(vec![1, 2, 3]).unwrap(),
            &names((1..=3).flat_map(|heap| (1..=3).map(move |take| format!("{heap},{take}")))),
        );
        never_beaten(
            &TicTacToe,
            &names((1..=3).flat_map(|row| (1..=3).map(move |column| format!("{row},{column}")))),
        );
        never_beaten(
            &StoneGameII::new(vec![2, 7, 9, 4, 4, 1, 8]).unwrap(),
            &names((1..=14).map(|piles| piles.to_string())),
        );
        let board = DotsAndBoxes::new(1, 2).unwrap();
        let edges: Vec<String> = (0..board.edges() as u8)
            .map(|edge| board.move_name(&0, &edge))
            .collect();
        never_beaten(&board, &edges);
    }

    #[test]
    fn typed_moves_are_found_exactly_or_by_an_unambiguous_start() {
        let names: Vec<String> = ["left", "right", "1,2", "1,20"].map(String::from).to_vec();
        assert_eq!(chosen(&names, "left"), Ok(0));
        assert_eq!(chosen(&names, " R "), Ok(1));
        assert_eq!(chosen(&names, "1,2"), Ok(2));
        assert_eq!(chosen(&names, "1,20"), Ok(3));
        assert!(
            chosen(&names, "1,")
                .unwrap_err()
                .contains("could be any of 1,2, 1,20")
        );
        assert!(
            chosen(&names, "up")
                .unwrap_err()
                .contains("not a legal move")
        );
    }
}
