//! Pig and Piglet (Neller & Presser, "Optimal Play of the Dice Game Pig", 2004): two players
//! race to a goal. On a turn a player rolls a die again and again, adding each face to a turn
//! total, until they *hold* (the turn total is banked) or roll a 1 (it is lost); either way the
//! turn passes. The first whose banked points and turn total reach the goal wins, at once (as
//! in Neller and Presser's equations, where such a state is won). Piglet flips a coin instead:
//! heads adds 1, tails loses the turn total.
//!
//! A win/lose game with chance whose play can cycle (both players can keep rolling a 1): its
//! value is found by value iteration, tier by tier, the tiers being the points banked in all
//! (a turn never lowers them). A state with its banked points and turn total at the goal is
//! won: final, and known.

use std::marker::PhantomData;

use crate::error::InputError;
use crate::game::{Capabilities, Chance, Declares, Game, Probability, Score, Step, Tiered, Turn};

/// The largest goal accepted: the states grow as the goal's cube (Pig to 100 has about a
/// million).
pub const MAX_PIG_GOAL: u16 = 1000;

/// A game of Pig (a die of `faces` faces) or Piglet (a coin), to `goal` points.
///
/// ```
/// use gamesolver::{games::Pig, Solved, Solver};
///
/// let game = Pig::piglet(2)?;
/// let solved = Solver::new(&game).solve_chance()?;
/// // Neller & Presser: the first player of Piglet to 2 wins with probability 4/7.
/// assert_eq!(solved.value().win_chance().to_string(), "4/7");
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pig<K = Die> {
    goal: u16,
    /// The die's faces (2 for Piglet's coin).
    faces: u8,
    /// Piglet: the outcomes are tails (0) and heads (1), and heads scores 1.
    coin: bool,
    /// Which game it is in the type ([`Die`] or [`Coin`]: how the command line reads it).
    kind: PhantomData<fn() -> K>,
}

/// Pig's die, in the type of [`Pig`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Die;

/// Piglet's coin, in the type of [`Piglet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coin;

/// Piglet: Pig with a coin ([`Pig::piglet`]).
pub type Piglet = Pig<Coin>;

/// A state of Pig: the mover's banked points, the opponent's, the turn total, and whether the
/// die is in the air (a chance state, its outcomes the faces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PigState {
    /// The banked points of the player to move.
    pub mine: u16,
    /// The opponent's banked points.
    pub theirs: u16,
    /// The points rolled this turn, not yet banked.
    pub turn: u16,
    /// The die (or coin) is rolling: its faces are the outcomes.
    pub rolling: bool,
}

/// A move of Pig: roll, hold, or (at a chance state) the face that came up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PigMove {
    /// Roll the die (or flip the coin) again.
    Roll,
    /// Bank the turn total; the turn passes.
    Hold,
    /// The face that came up (for Piglet: 0 tails, 1 heads).
    Rolled(u8),
}

impl Pig {
    /// Pig to `goal` with a die of `faces` faces (2 to 100): a 1 loses the turn total, any
    /// other face adds itself to it.
    pub fn new(goal: i64, faces: i64) -> Result<Pig, InputError> {
        let goal = check_goal(goal)?;
        let faces = u8::try_from(faces)
            .ok()
            .filter(|faces| (2..=100).contains(faces))
            .ok_or(InputError::OutOfRange {
                unit: "faces",
                position: 2,
                value: faces,
                rule: "a die has 2 to 100 faces",
            })?;
        Ok(Pig {
            goal,
            faces,
            coin: false,
            kind: PhantomData,
        })
    }

    /// Piglet to `goal`: a coin, heads adds 1 to the turn total, tails loses it.
    pub fn piglet(goal: i64) -> Result<Piglet, InputError> {
        Ok(Pig {
            goal: check_goal(goal)?,
            faces: 2,
            coin: true,
            kind: PhantomData,
        })
    }
}

impl<K> Pig<K> {
    /// The goal.
    pub fn goal(&self) -> u16 {
        self.goal
    }

    /// The die's faces (2 for Piglet's coin).
    pub fn faces(&self) -> u8 {
        self.faces
    }

    /// Whether this is Piglet (a coin).
    pub fn is_piglet(&self) -> bool {
        self.coin
    }

    /// The state where the player to move has banked `mine`, the opponent `theirs`, with
    /// `turn` rolled this turn (the die at rest): [`InputError::InvalidState`] past the goal.
    pub fn state(&self, mine: i64, theirs: i64, turn: i64) -> Result<PigState, InputError> {
        let goal = i64::from(self.goal);
        if !(0..goal).contains(&mine) || !(0..goal).contains(&theirs) || !(0..=goal).contains(&turn)
        {
            return Err(InputError::InvalidState(format!(
                "banked points must be 0 to {} (the goal less 1), and the turn total 0 to {goal}: \
                 got {mine}, {theirs} and {turn}",
                goal - 1
            )));
        }
        Ok(PigState {
            mine: mine as u16,
            theirs: theirs as u16,
            turn: turn as u16,
            rolling: false,
        })
    }

    /// What a face adds to the turn total, or `None` if it loses it.
    fn points(&self, face: u8) -> Option<u16> {
        match (self.coin, face) {
            (true, 0) | (false, 1) => None,
            (true, _) => Some(1),
            (false, face) => Some(u16::from(face)),
        }
    }

    /// The states of a tier whose mover has banked `mine`: the turn totals below the goal
    /// less `mine` (a larger one is won at once), each at rest and rolling.
    fn ranks_of(&self, mine: u16) -> u64 {
        2 * u64::from(self.goal - mine)
    }

    /// The movers' banked points in `tier` (banked in all), lowest first.
    fn mines(&self, tier: usize) -> std::ops::RangeInclusive<u16> {
        let (tier, last) = (tier as u16, self.goal - 1);
        tier.saturating_sub(last)..=tier.min(last)
    }
}

/// The goal, checked.
fn check_goal(goal: i64) -> Result<u16, InputError> {
    u16::try_from(goal)
        .ok()
        .filter(|goal| (1..=MAX_PIG_GOAL).contains(goal))
        .ok_or(InputError::OutOfRange {
            unit: "goal",
            position: 1,
            value: goal,
            rule: "the goal is 1 to 1000 points",
        })
}

impl<K> Game for Pig<K> {
    type State = PigState;
    type Move = PigMove;

    fn start(&self) -> PigState {
        PigState {
            mine: 0,
            theirs: 0,
            turn: 0,
            rolling: false,
        }
    }

    /// At rest: roll, then hold (none once the banked points and the turn total reach the
    /// goal: the game is won). Rolling: the faces, lowest first.
    fn moves(&self, state: &PigState) -> impl Iterator<Item = PigMove> {
        let (rolling, first) = (state.rolling, u8::from(!self.coin));
        let won = state.mine + state.turn >= self.goal;
        let choices = [PigMove::Roll, PigMove::Hold]
            .into_iter()
            .filter(move |_| !rolling && !won);
        let faces = (first..first + self.faces)
            .filter(move |_| rolling)
            .map(PigMove::Rolled);
        choices.chain(faces)
    }

    fn play(&self, state: &PigState, mv: &PigMove) -> Step<PigState> {
        let pass = |mine: u16, theirs: u16| Step {
            next: PigState {
                mine,
                theirs,
                turn: 0,
                rolling: false,
            },
            gain: 0,
            turn: Turn::Pass,
        };
        match *mv {
            PigMove::Roll => Step {
                next: PigState {
                    rolling: true,
                    ..*state
                },
                gain: 0,
                turn: Turn::Keep,
            },
            PigMove::Hold => pass(state.theirs, state.mine + state.turn),
            PigMove::Rolled(face) => match self.points(face) {
                None => pass(state.theirs, state.mine),
                Some(points) => Step {
                    next: PigState {
                        turn: state.turn + points,
                        rolling: false,
                        ..*state
                    },
                    gain: 0,
                    turn: Turn::Keep,
                },
            },
        }
    }

    /// The player to move has won: the banked points and the turn total reach the goal.
    fn payoff(&self, state: &PigState) -> Score {
        if state.mine + state.turn >= self.goal {
            1
        } else {
            -1
        }
    }

    /// Won: the banked points and the turn total reach the goal (the game ends there).
    fn known_value(&self, state: &PigState) -> Option<Score> {
        (!state.rolling && state.mine + state.turn >= self.goal).then_some(1)
    }

    fn state_text(&self, state: &PigState) -> Option<String> {
        Some(format!("{state:?}"))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none()
            .chance()
            .tiers()
            .dense_index()
            .outcome_game()
            .may_cycle()
    }
}

impl<K> Chance for Pig<K> {
    fn is_chance(&self, state: &PigState) -> bool {
        state.rolling
    }

    fn probability(&self, _: &PigState, _: &PigMove) -> Probability {
        Probability::new(1, u64::from(self.faces))
    }
}

/// The tiers are the points banked in all (0 to twice the goal less 2); within a tier, the
/// mover's banked points rising, then the turn total, then at rest before rolling.
impl<K> Tiered for Pig<K> {
    fn tier_count(&self) -> usize {
        2 * usize::from(self.goal) - 1
    }

    fn tier(&self, state: &PigState) -> usize {
        usize::from(state.mine + state.theirs)
    }

    fn tier_len(&self, tier: usize) -> u64 {
        self.mines(tier).map(|mine| self.ranks_of(mine)).sum()
    }

    fn rank(&self, state: &PigState) -> u64 {
        let below: u64 = (*self.mines(self.tier(state)).start()..state.mine)
            .map(|mine| self.ranks_of(mine))
            .sum();
        below + 2 * u64::from(state.turn) + u64::from(state.rolling)
    }

    fn unrank(&self, tier: usize, mut rank: u64) -> Option<PigState> {
        for mine in self.mines(tier) {
            let len = self.ranks_of(mine);
            if rank < len {
                return Some(PigState {
                    mine,
                    theirs: tier as u16 - mine,
                    turn: (rank / 2) as u16,
                    rolling: rank % 2 == 1,
                });
            }
            rank -= len;
        }
        None
    }

    /// A turn banks at most the goal's worth.
    fn tier_reach(&self) -> usize {
        usize::from(self.goal)
    }

    fn value_bound(&self) -> Score {
        1
    }
}

/// Every state a place: the mover's banked points, the opponent's, the turn total (a larger
/// one than the goal counts as the goal: such a state is won, and known) and whether the die
/// is rolling. What `--save` keeps the values by.
impl<K> crate::game::DenseIndex for Pig<K> {
    fn index_len(&self) -> usize {
        let goal = usize::from(self.goal);
        goal * goal * (goal + 1) * 2
    }

    fn index(&self, state: &PigState) -> usize {
        let goal = usize::from(self.goal);
        let turn = usize::from(state.turn).min(goal);
        ((usize::from(state.mine) * goal + usize::from(state.theirs)) * (goal + 1) + turn) * 2
            + usize::from(state.rolling)
    }
}

/// How the command line and the page read Pig and Piglet.
#[cfg(feature = "cli")]
mod cli {
    use super::{Coin, Die, Pig, PigMove, PigState, Piglet};
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, FromValues, Presented};
    use crate::{InputError, Player};

    /// Pig on the command line: `gamesolver pig 100` (a six-sided die), `gamesolver pig 100 4`.
    pub const PIG: Bundled = Bundled::game::<Pig>(
        "pig",
        "Pig: race to GOAL [FACES, default 6]: roll a die again and again, holding to bank the \
         turn's points or losing them on a 1; the first player's winning chance",
    );

    /// Piglet: Pig with a coin.
    pub const PIGLET: Bundled = Bundled::game::<Piglet>(
        "piglet",
        "Piglet: race to GOAL flipping a coin: heads adds 1, tails loses the turn's points; \
         the first player's winning chance",
    );

    impl<K> Presented for Pig<K> {
        fn show(&self, state: &PigState) -> String {
            self.show_for(state, Player::First)
        }

        /// The scores with the players' names, the mover first.
        fn show_for(&self, state: &PigState, to_move: Player) -> String {
            let (mover, other) = (
                self.player_name(to_move),
                self.player_name(to_move.opponent()),
            );
            let doing = if state.rolling {
                if self.coin {
                    ", the coin in the air"
                } else {
                    ", the die rolling"
                }
            } else {
                ""
            };
            format!(
                "{mover} to play: {} banked and {} this turn{doing}; {other}: {} banked (goal {}).",
                state.mine, state.turn, state.theirs, self.goal
            )
        }

        /// `roll`, `hold`, or the face that came up (`1` to the faces; Piglet `heads`,
        /// `tails`).
        fn move_name(&self, _: &PigState, mv: &PigMove) -> String {
            match mv {
                PigMove::Roll if self.coin => "flip".into(),
                PigMove::Roll => "roll".into(),
                PigMove::Hold => "hold".into(),
                PigMove::Rolled(0) if self.coin => "tails".into(),
                PigMove::Rolled(_) if self.coin => "heads".into(),
                PigMove::Rolled(face) => face.to_string(),
            }
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some("roll (flip, for Piglet) or hold")
        }

        /// `MINE,THEIRS,TURN`: the banked points of the player to move and the opponent's,
        /// and the turn total; `,r` after it while the die rolls.
        fn position(&self, text: &str) -> Result<PigState, InputError> {
            let refuse = || {
                InputError::InvalidState(format!(
                    "{text:?} is no position: give MINE,THEIRS,TURN (banked points of the player \
                     to move and of the opponent, and the turn total), with ,r while the die \
                     rolls"
                ))
            };
            let parts: Vec<&str> = text.split(',').map(str::trim).collect();
            let (numbers, rolling) = match parts.as_slice() {
                [a, b, c] => ([*a, *b, *c], false),
                [a, b, c, "r"] => ([*a, *b, *c], true),
                _ => return Err(refuse()),
            };
            let number = |text: &str| text.parse::<i64>().map_err(|_| refuse());
            let mut state = self.state(
                number(numbers[0])?,
                number(numbers[1])?,
                number(numbers[2])?,
            )?;
            state.rolling = rolling;
            Ok(state)
        }

        fn view(&self, state: &PigState) -> Value {
            self.view_for(state, Player::First)
        }

        /// The dice view: the scores, and the die (or coin) in the air while it rolls.
        fn view_for(&self, state: &PigState, to_move: Player) -> Value {
            let (mover, other) = (
                self.player_name(to_move),
                self.player_name(to_move.opponent()),
            );
            json!({
                "kind": "dice",
                "dice": [],
                "rolling": state.rolling,
                "faces": if self.coin { 2 } else { self.faces },
                "lines": [
                    format!("{mover}: {} banked + {} this turn", state.mine, state.turn),
                    format!("{other}: {} banked", state.theirs),
                    format!("goal: {}", self.goal),
                ],
            })
        }
    }

    impl FromValues for Pig<Die> {
        const EXAMPLE: &'static str = "20";
        const POSITION: Option<&'static str> = Some(
            "MINE,THEIRS,TURN: the points banked by the player to move and by the opponent, and \
             the turn total (,r after it while the die rolls)",
        );
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            match *values {
                [goal] => Pig::new(goal, 6),
                [goal, faces] => Pig::new(goal, faces),
                _ => Err(InputError::InvalidGame(format!(
                    "pig takes GOAL [FACES]: {} values given",
                    values.len()
                ))),
            }
        }
    }

    impl FromValues for Pig<Coin> {
        const EXAMPLE: &'static str = "3";
        const POSITION: Option<&'static str> = <Pig<Die> as FromValues>::POSITION;
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            match *values {
                [goal] => Pig::piglet(goal),
                _ => Err(InputError::InvalidGame(format!(
                    "piglet takes GOAL: {} values given",
                    values.len()
                ))),
            }
        }
    }
}

#[cfg(feature = "cli")]
pub(super) use cli::{PIG, PIGLET};
