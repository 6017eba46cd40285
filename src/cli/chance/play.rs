//! `gamesolver play` for a game with chance: the tool rolls the dice (seeded: `--seed`) and
//! says what came up; the person moves at their turns, the solver at its own, with the best
//! move by expectation; `?` lists every move with its winning chance (or expectation).

use std::io::{self, BufRead, Read, Write};

use crate::engines::chance::{ChanceSolution, Value};
use crate::game::Chance;
use crate::{Limits, Player, Score, Solved};

use super::super::args::{PlayArgs, strip_protection};
use super::super::model::{ChanceNumber, CliError, Failure};
use super::super::play::{LINE_BYTES, chosen};
use super::super::present::Presented;
use super::{chance_solver, for_player, shown};

/// Solves `game` (or loads it) and plays it on standard input and output.
pub(super) fn play<G>(
    args: &PlayArgs,
    game: &G,
    params: &[i64],
    limits: Limits,
) -> Result<(), Failure>
where
    G: Presented + Chance + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send + PartialEq,
{
    let cli = &args.game;
    let mut solved = if cli.load.is_some() {
        super::saved::loaded_solution(cli, game, params, limits)?
    } else {
        chance_solver(cli, game)?.limits(limits).solve_chance()?
    };
    let start = match &args.game.at {
        Some(text) => game.position(strip_protection(text))?,
        None => game.start(),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |since| since.as_nanos() as u64)
    });
    let you = match args.side {
        super::super::args::Side::First => Player::First,
        super::super::args::Side::Second => Player::Second,
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let conversation = Conversation {
        name: cli.game.id(),
        you,
        seed,
    };
    match conversation.play(game, &mut solved, start, &mut stdin.lock(), &mut output) {
        Ok(_) => Ok(()),
        Err(Stop::Io(error)) => Err(CliError::write("standard output", error).into()),
        Err(Stop::Solve(error)) => Err(error.into()),
    }
}

/// Why a game stopped before its end.
pub(super) enum Stop {
    /// Reading or writing failed.
    Io(io::Error),
    /// The solution could not answer.
    Solve(crate::SolveError),
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Io(error)
    }
}

impl From<crate::SolveError> for Stop {
    fn from(error: crate::SolveError) -> Self {
        Stop::Solve(error)
    }
}

/// One game with chance: its name, the person's side, the dice's seed.
pub(super) struct Conversation {
    pub(super) name: &'static str,
    pub(super) you: Player,
    pub(super) seed: u64,
}

impl Conversation {
    /// Plays from `start` to the end (or until the person quits or the input ends). Returns
    /// the first player's points minus the second's at the end (`None`: the person left).
    pub(super) fn play<G>(
        self,
        game: &G,
        solved: &mut ChanceSolution<'_, G>,
        start: G::State,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> Result<Option<Score>, Stop>
    where
        G: Presented + Chance,
        G::Move: PartialEq,
    {
        let (you, them) = (
            game.player_name(self.you),
            game.player_name(self.you.opponent()),
        );
        let order = if self.you.is_first() {
            "first"
        } else {
            "second"
        };
        writeln!(
            out,
            "{}: you are {you} and move {order}; the solver plays {them}, and the dice are \
             rolled for both (seed {}).",
            self.name, self.seed
        )?;
        writeln!(
            out,
            "Type a move, '?' for every move's {}, 'q' to quit.",
            words(game)
        )?;
        let mut dice = self.seed;
        let (mut state, mut mover, mut points) = (start, Player::First, [0 as Score; 2]);
        loop {
            writeln!(out)?;
            writeln!(out, "{}", game.show_for(&state, mover))?;
            let moves: Vec<G::Move> = game.moves(&state).collect();
            if moves.is_empty() {
                break;
            }
            let name = game.player_name(mover);
            let mv = if game.is_chance(&state) {
                let weights: Vec<f64> = moves
                    .iter()
                    .map(|outcome| game.probability(&state, outcome).to_f64())
                    .collect();
                let mut draw = unit(&mut dice) * weights.iter().sum::<f64>();
                let mut chosen = moves.len() - 1;
                for (at, weight) in weights.iter().enumerate() {
                    if draw < *weight {
                        chosen = at;
                        break;
                    }
                    draw -= weight;
                }
                let outcome = moves[chosen].clone();
                writeln!(out, "{name} rolls: {}.", game.move_name(&state, &outcome))?;
                outcome
            } else if mover == self.you {
                match ask(game, solved, &state, &moves, input, out)? {
                    Some(mv) => mv,
                    None => {
                        writeln!(out, "Game left unfinished.")?;
                        return Ok(None);
                    }
                }
            } else {
                let best = solved.best_moves(&state)?;
                let mv = best.into_iter().next().ok_or_else(|| {
                    crate::SolveError::InvalidState(
                        "the solver has no move at a state with moves".into(),
                    )
                })?;
                writeln!(out, "{name} plays {}.", game.move_name(&state, &mv))?;
                mv
            };
            let step = game.play(&state, &mv);
            let side = usize::from(!mover.is_first());
            points[side] = points[side].saturating_add(step.gain);
            mover = mover.after(step.turn);
            state = step.next;
            if !game.is_chance(&state) && game.moves(&state).next().is_some() {
                let value = solved.value_of(&state)?;
                let yours = for_player(game, &value, mover, self.you);
                writeln!(
                    out,
                    "Your {} now: {}.",
                    words(game),
                    ChanceNumber::of(&yours).words()
                )?;
            }
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

/// What a value means for the person: a winning chance, or expected points.
fn words<G: Presented>(game: &G) -> &'static str {
    if super::outcome_game(game) {
        "winning chance"
    } else {
        "expected points minus the opponent's"
    }
}

/// A number in `0..1` from the dice's state (SplitMix64).
fn unit(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Prompts until the person types a legal move (`None`: quit or the end of the input),
/// answering `?` on the way, and says whether the move was a best one.
fn ask<G>(
    game: &G,
    solved: &mut ChanceSolution<'_, G>,
    state: &G::State,
    moves: &[G::Move],
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<G::Move>, Stop>
where
    G: Presented + Chance,
    G::Move: PartialEq,
{
    let names: Vec<String> = moves.iter().map(|mv| game.move_name(state, mv)).collect();
    loop {
        write!(out, "Your move ({}): ", names.join(" | "))?;
        out.flush()?;
        let mut line = String::new();
        let read = input.by_ref().take(LINE_BYTES).read_line(&mut line)?;
        if read == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let typed = line.trim();
        match typed {
            "" => continue,
            "q" | "quit" | "exit" => return Ok(None),
            "?" => {
                let values = solved.move_values(state)?;
                writeln!(out, "Every move with its {} for you:", words(game))?;
                for mv in &values {
                    let value = ChanceNumber::of(&shown(game, &mv.value));
                    writeln!(
                        out,
                        "  {:>24}  {}",
                        value.words(),
                        game.move_name(state, &mv.mv)
                    )?;
                }
            }
            _ => match chosen(&names, typed) {
                Ok(index) => {
                    let best = solved.best_moves(state)?;
                    if !best.contains(&moves[index]) {
                        let values = solved.move_values(state)?;
                        let value_of = |mv: &G::Move| -> Option<Value> {
                            values
                                .iter()
                                .find(|valued| valued.mv == *mv)
                                .map(|valued| valued.value.clone())
                        };
                        if let (Some(better), Some(chosen)) =
                            (best.first(), value_of(&moves[index]))
                        {
                            let top = value_of(better)
                                .map(|top| ChanceNumber::of(&shown(game, &top)).words());
                            writeln!(
                                out,
                                "(Not the best: {} gives {}, this move {}.)",
                                game.move_name(state, better),
                                top.unwrap_or_default(),
                                ChanceNumber::of(&shown(game, &chosen)).words()
                            )?;
                        }
                    }
                    return Ok(Some(moves[index].clone()));
                }
                Err(problem) => writeln!(out, "{problem}")?,
            },
        }
    }
}
