//! A user's games in the whole command line: four games gamesolver does not bundle, run with
//! everything the bundled games have (solve, `analyze`, `play`, `check`, `--json`, progress,
//! the memory budget and time limit) by implementing [`Presented`] and [`FromValues`] and
//! calling [`main_with`](gamesolver::cli::main_with).
//!
//! **The Divisor Game** (LeetCode 1025). A number N is on the board. On a turn a player
//! chooses a divisor x of N with 0 < x < N and replaces N with N − x; a player who cannot
//! move (N = 1) loses. Alice moves first. It declares a dense index (the number on the
//! board) that orders it (every move lowers it), so it is solved by the sweep, an array DP,
//! and can be saved and loaded (`--save`, `--load`).
//!
//! **Flip Game II** (LeetCode 294). A row of `+` and `-` (given as 1 and 0); on a turn a player
//! flips two neighbouring `+` into `--`; a player who cannot move loses. Its states are the
//! 2⁶⁴ rows, so it declares no index: it is solved on hash tables, through `Solver`.
//!
//! **Hog** (the dice game of Berkeley's CS 61A, its core). On a turn a player chooses how many
//! dice to roll, 1 to MOST (3 if not given); if any shows a 1 the turn scores 1, else their
//! sum; the first to GOAL wins. A game with chance (docs/adding-a-game.md, section 10): the
//! first player's winning chance, an exact fraction (every turn scores, so play cannot cycle).
//!
//! **Node Kayles** (docs/adding-a-game.md, section 11). A graph of N vertices; a move takes a
//! vertex and its neighbours off it; a player who cannot move loses. Impartial, and what is left
//! falls apart into connected pieces: it declares both, and the answer is the nimber, each
//! piece's found once (values: N, then each edge as two vertices from 0).
//!
//! ```text
//! cargo run --example user_tool -- divisor-game 12
//! cargo run --example user_tool -- analyze divisor-game 12 --at 9
//! cargo run --example user_tool -- play divisor-game 12
//! cargo run --example user_tool -- flip-game 1 1 1 1 0 1 1 1
//! cargo run --example user_tool -- check flip-game 1 1 1 1 1 1 1 1 1 1
//! cargo run --example user_tool -- hog 20
//! cargo run --example user_tool -- play hog 20 --seed 7
//! cargo run --example user_tool -- node-kayles 9 0 1 1 2 2 3 3 0 4 5 5 6 6 7 7 8
//! cargo run --example user_tool -- analyze node-kayles 9 0 1 1 2 2 3 3 0 4 5 5 6 6 7 7 8
//! ```
//!
//! tests/user_tool.rs runs this binary and this file's tests.

use gamesolver::InputError;
use std::process::ExitCode;

use gamesolver::cli::serde_json::{Value, json};
use gamesolver::cli::{Bundled, FromValues, Presented};
use gamesolver::game::{Chance, Impartial, Nimber, Probability, StateAt};
use gamesolver::{Capabilities, Declares, DenseIndex, Game, Player, Score, Step, Turn};

/// The Divisor Game from N.
#[derive(Debug)]
pub struct DivisorGame {
    /// The number at the start.
    pub start: u32,
}

/// The largest N the command line takes: the states are 1..=N, and listing a state's
/// divisors takes √N steps, so N = 10⁶ is about a second.
const MOST: i64 = 1_000_000;

impl Game for DivisorGame {
    /// The number on the board.
    type State = u32;
    /// The divisor chosen.
    type Move = u32;

    fn start(&self) -> u32 {
        self.start
    }

    fn moves(&self, n: &u32) -> impl Iterator<Item = u32> {
        // The divisors below N, smallest first: d ≤ √N rising, then their partners N / d
        // (d falling from √N to 2: N itself, 1's partner, is no move; nor d itself when N = 1).
        let (n, root) = (*n, n.isqrt());
        let small = (1..=root).filter(move |&d| n.is_multiple_of(d) && d < n);
        let large = (2..=root)
            .rev()
            .filter(move |&d| n.is_multiple_of(d) && n / d != d)
            .map(move |d| n / d);
        small.chain(large)
    }

    fn play(&self, n: &u32, x: &u32) -> Step<u32> {
        Step {
            next: n - x,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// A player who cannot move loses.
    fn payoff(&self, _n: &u32) -> Score {
        -1
    }

    /// Won or lost with no points on the way; every state is a number from 1 to N, and every
    /// move makes it smaller: the index orders the game (the solver sweeps it as an array DP).
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index().outcome_game()
    }
}

impl DenseIndex for DivisorGame {
    fn index_len(&self) -> usize {
        self.start as usize + 1
    }

    fn index(&self, n: &u32) -> usize {
        *n as usize
    }
}

/// The state at each index: the number itself (none at 0, which no game reaches).
impl StateAt for DivisorGame {
    fn state_at(&self, index: usize) -> Option<u32> {
        u32::try_from(index)
            .ok()
            .filter(|n| (1..=self.start).contains(n))
    }
}

/// How the command line shows it: a number, and a move is the divisor chosen.
impl Presented for DivisorGame {
    fn show(&self, n: &u32) -> String {
        format!("N = {n}")
    }

    // The state is N alone: whose turn it is comes from play, for a drawing that says so.
    fn show_for(&self, n: &u32, to_move: Player) -> String {
        format!("N = {n}, {} to choose", self.player_name(to_move))
    }

    fn move_name(&self, _n: &u32, x: &u32) -> String {
        x.to_string()
    }

    fn position(&self, position: &str) -> Result<u32, InputError> {
        match position.trim().parse::<u32>() {
            Ok(n) if (1..=self.start).contains(&n) => Ok(n),
            _ => Err(InputError::InvalidState(format!(
                "a position is the number on the board, from 1 to {}",
                self.start
            ))),
        }
    }

    fn legend(&self) -> Option<&'static str> {
        Some("each move is the divisor subtracted")
    }
}

/// Built from one integer, N.
impl FromValues for DivisorGame {
    const EXAMPLE: &'static str = "12";
    const POSITION: Option<&'static str> = Some("'N': the number on the board");

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        match *values {
            [n @ 1..=MOST] => Ok(DivisorGame { start: n as u32 }),
            _ => Err(InputError::InvalidGame(format!(
                "the divisor game takes one number N, from 1 to {MOST}"
            ))),
        }
    }
}

/// Flip Game II on a row of at most 64 cells.
#[derive(Debug)]
pub struct FlipGame {
    /// The row's length.
    pub cells: u32,
    /// The row at the start: bit i set if cell i holds `+`.
    pub start: u64,
}

impl Game for FlipGame {
    /// The row: bit i set if cell i holds `+`.
    type State = u64;
    /// The left cell of the two flipped (from 0).
    type Move = u32;

    fn start(&self) -> u64 {
        self.start
    }

    fn moves(&self, row: &u64) -> impl Iterator<Item = u32> {
        // Cells i and i + 1 both `+`: bit i of `row & row >> 1`, lowest first.
        bits(row & (row >> 1))
    }

    fn play(&self, row: &u64, cell: &u32) -> Step<u64> {
        Step {
            next: row & !(0b11 << cell),
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// A player who cannot move loses.
    fn payoff(&self, _row: &u64) -> Score {
        -1
    }

    /// Won or lost: the solver cuts at the first winning move.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

impl FlipGame {
    /// The row in `+` and `-`.
    fn text(&self, row: u64) -> String {
        (0..self.cells)
            .map(|cell| if row >> cell & 1 == 1 { '+' } else { '-' })
            .collect()
    }
}

/// How the command line shows it: the row, and a move is the position of its left cell.
impl Presented for FlipGame {
    fn show(&self, row: &u64) -> String {
        format!("{}\n{}", self.text(*row), ruler(self.cells))
    }

    fn move_name(&self, _row: &u64, cell: &u32) -> String {
        (cell + 1).to_string()
    }

    /// The row as cells for the analysis page (`serve`): a click on a cell flips it and the
    /// next, where both hold `+`.
    fn view(&self, row: &u64) -> Value {
        let cells: Vec<String> = self.text(*row).chars().map(String::from).collect();
        let pairs = row & (row >> 1);
        let move_at: Vec<Option<String>> = (0..self.cells)
            .map(|cell| (pairs >> cell & 1 == 1).then(|| (cell + 1).to_string()))
            .collect();
        json!({
            "kind": "grid", "rows": 1, "columns": self.cells, "cells": cells, "move_at": move_at
        })
    }

    fn position(&self, position: &str) -> Result<u64, InputError> {
        let cells: Vec<char> = position.trim().chars().collect();
        if cells.len() != self.cells as usize || cells.iter().any(|c| !matches!(c, '+' | '-')) {
            return Err(InputError::InvalidState(format!(
                "a position is the row as {} characters, each '+' or '-'",
                self.cells
            )));
        }
        Ok(cells
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == '+')
            .fold(0, |row, (cell, _)| row | 1 << cell))
    }

    fn legend(&self) -> Option<&'static str> {
        Some("each move is the position of the left one of the two cells flipped, from 1")
    }
}

/// The positions under a row, every fifth marked.
fn ruler(cells: u32) -> String {
    (1..=cells)
        .map(|cell| if cell % 5 == 0 { '|' } else { '.' })
        .collect()
}

/// Built from the row, 1 for `+` and 0 for `-`.
impl FromValues for FlipGame {
    const EXAMPLE: &'static str = "1 1 1 1 0 1 1 1";
    const POSITION: Option<&'static str> = Some("'++-+': the row");

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        if values.is_empty() || values.len() > 64 || values.iter().any(|v| !matches!(v, 0 | 1)) {
            return Err(InputError::InvalidGame(
                "flip game takes the row as 1 (+) and 0 (-), from 1 to 64 cells".into(),
            ));
        }
        let start = values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 1)
            .fold(0, |row, (cell, _)| row | 1 << cell);
        Ok(FlipGame {
            cells: values.len() as u32,
            start,
        })
    }
}

/// Hog, the dice game of Berkeley's CS 61A, at its core: on a turn a player chooses how many
/// dice to roll, 1 to `most`; if any die shows a 1 the turn scores 1 ("Pig Out"), else the
/// sum of the dice. The first to reach `goal` wins.
#[derive(Debug)]
pub struct Hog {
    /// The score that wins.
    pub goal: u32,
    /// The most dice a player may roll.
    pub most: u32,
    /// `ways[k][s]`: how many of the 6ᵏ rolls of k dice show no 1 and sum to s.
    ways: Vec<Vec<u64>>,
}

/// The scores, the player to move's first, and the dice in the air (0 while choosing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HogState {
    /// The player to move's score.
    pub mine: u32,
    /// The opponent's.
    pub theirs: u32,
    /// How many dice are rolling; 0 when the player to move chooses.
    pub rolling: u32,
}

/// A choice or an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HogMove {
    /// Roll this many dice.
    Roll(u32),
    /// The dice came up: the turn scores this (1 for a Pig Out).
    Scored(u32),
}

/// The most dice the command line lets a player roll (6¹⁰ rolls: the probabilities' common
/// denominator fits in 64 bits).
const MOST_DICE: i64 = 10;

impl Hog {
    /// Hog to `goal` with at most `most` dice a turn.
    pub fn new(goal: u32, most: u32) -> Hog {
        // Dice that show 2 to 6: k + 1 dice from k, a face at a time.
        let mut ways = vec![vec![1u64]];
        for k in 1..=most as usize {
            let mut next = vec![0; 6 * k + 1];
            for (sum, &count) in ways[k - 1].iter().enumerate() {
                for face in 2..=6 {
                    next[sum + face] += count;
                }
            }
            ways.push(next);
        }
        Hog { goal, most, ways }
    }
}

impl Game for Hog {
    type State = HogState;
    type Move = HogMove;

    fn start(&self) -> HogState {
        HogState {
            mine: 0,
            theirs: 0,
            rolling: 0,
        }
    }

    /// Choosing: roll 1 to `most` dice (none once the opponent has reached the goal). Rolling:
    /// every score the dice can give, a Pig Out's 1 first.
    fn moves(&self, state: &HogState) -> impl Iterator<Item = HogMove> {
        let over = state.theirs >= self.goal;
        let choosing = (state.rolling == 0 && !over).then_some(1..=self.most);
        let k = state.rolling as usize;
        let scores = (k > 0).then(|| {
            let sums = (2 * k..=6 * k).map(|sum| HogMove::Scored(sum as u32));
            std::iter::once(HogMove::Scored(1)).chain(sums)
        });
        choosing
            .into_iter()
            .flatten()
            .map(HogMove::Roll)
            .chain(scores.into_iter().flatten())
    }

    fn play(&self, state: &HogState, mv: &HogMove) -> Step<HogState> {
        match *mv {
            // The dice are in the air: still this player's turn.
            HogMove::Roll(dice) => Step {
                next: HogState {
                    rolling: dice,
                    ..*state
                },
                gain: 0,
                turn: Turn::Keep,
            },
            // The turn's score is banked and the other player moves.
            HogMove::Scored(points) => Step {
                next: HogState {
                    mine: state.theirs,
                    theirs: state.mine + points,
                    rolling: 0,
                },
                gain: 0,
                turn: Turn::Pass,
            },
        }
    }

    /// The game is over when the player who just moved reached the goal: the player to move
    /// has lost.
    fn payoff(&self, state: &HogState) -> Score {
        if state.theirs >= self.goal { -1 } else { 0 }
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().chance().outcome_game()
    }
}

/// The dice: the states where they roll, and each score's chance.
impl Chance for Hog {
    fn is_chance(&self, state: &HogState) -> bool {
        state.rolling > 0
    }

    fn probability(&self, state: &HogState, mv: &HogMove) -> Probability {
        let k = state.rolling;
        let rolls = 6u64.pow(k);
        match *mv {
            // Some die shows a 1: every roll but the 5ᵏ without one.
            HogMove::Scored(1) => Probability::new(rolls - 5u64.pow(k), rolls),
            HogMove::Scored(sum) => Probability::new(self.ways[k as usize][sum as usize], rolls),
            HogMove::Roll(_) => unreachable!("asked only of a roll's outcomes"),
        }
    }
}

/// How the command line shows it: the scores; a choice is `roll K`, an outcome the points it
/// scores (the page draws each as a die).
impl Presented for Hog {
    fn show(&self, state: &HogState) -> String {
        self.show_for(state, Player::First)
    }

    fn show_for(&self, state: &HogState, to_move: Player) -> String {
        let (mover, other) = (
            self.player_name(to_move),
            self.player_name(to_move.opponent()),
        );
        let dice = match state.rolling {
            0 => String::new(),
            1 => ", 1 die rolling".into(),
            k => format!(", {k} dice rolling"),
        };
        format!(
            "{mover} {} to {other} {} (goal {}){dice}",
            state.mine, state.theirs, self.goal
        )
    }

    fn move_name(&self, _: &HogState, mv: &HogMove) -> String {
        match mv {
            HogMove::Roll(dice) => format!("roll {dice}"),
            HogMove::Scored(points) => points.to_string(),
        }
    }

    fn move_hint(&self) -> Option<&'static str> {
        Some("roll K: roll K dice")
    }

    /// `MINE,THEIRS`, and `,K` while K dice roll.
    fn position(&self, text: &str) -> Result<HogState, InputError> {
        let numbers: Result<Vec<u32>, _> = text.split(',').map(|n| n.trim().parse()).collect();
        let (mine, theirs, rolling) = match numbers.as_deref() {
            Ok(&[mine, theirs]) => (mine, theirs, 0),
            Ok(&[mine, theirs, rolling]) => (mine, theirs, rolling),
            _ => (u32::MAX, 0, 0),
        };
        if mine >= self.goal || theirs > self.goal + 6 * self.most || rolling > self.most {
            return Err(InputError::InvalidState(format!(
                "{text:?} is no position: give MINE,THEIRS (the scores of the player to move \
                 and of the other, MINE below the goal {}), and ,K while K dice (1 to {}) roll",
                self.goal, self.most
            )));
        }
        Ok(HogState {
            mine,
            theirs,
            rolling,
        })
    }

    /// The page's dice view: the scores, and while the dice roll, every score to click.
    fn view_for(&self, state: &HogState, to_move: Player) -> Value {
        let (mover, other) = (
            self.player_name(to_move),
            self.player_name(to_move.opponent()),
        );
        json!({
            "kind": "dice",
            "dice": [],
            "rolling": state.rolling > 0,
            "faces": 6,
            "lines": [
                format!("{mover}: {}", state.mine),
                format!("{other}: {}", state.theirs),
                format!("goal: {}", self.goal),
            ],
        })
    }

    fn view(&self, state: &HogState) -> Value {
        self.view_for(state, Player::First)
    }
}

/// Built from GOAL and, optionally, the most dice a turn (default 3).
impl FromValues for Hog {
    const EXAMPLE: &'static str = "20";
    const POSITION: Option<&'static str> = Some(
        "MINE,THEIRS: the scores of the player to move and of the other (,K while K dice roll)",
    );

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let (goal, most) = match *values {
            [goal] => (goal, 3),
            [goal, most] => (goal, most),
            _ => (0, 0),
        };
        if !(1..=200).contains(&goal) || !(1..=MOST_DICE).contains(&most) {
            return Err(InputError::InvalidGame(format!(
                "hog takes GOAL (1 to 200) and, if you like, the most dice a turn (1 to \
                 {MOST_DICE}; 3 if not given)"
            )));
        }
        Ok(Hog::new(goal as u32, most as u32))
    }
}

/// Node Kayles on a graph of up to 64 vertices, the guide's impartial game
/// (docs/adding-a-game.md, section 11): a move takes a vertex and its neighbours off the graph;
/// a player who cannot move loses.
#[derive(Debug)]
pub struct NodeKayles {
    /// `neighbours[v]`: bit `w` set where an edge joins `v` and `w`.
    pub neighbours: Vec<u64>,
}

/// The set bits of `set` (cells of a row, vertices of a graph), lowest first.
fn bits(mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let vertex = (set != 0).then(|| set.trailing_zeros())?;
        set &= set - 1;
        Some(vertex)
    })
}

impl Game for NodeKayles {
    /// The vertices left: bit `v` set while `v` is on the graph.
    type State = u64;
    /// The vertex taken (with its neighbours).
    type Move = u32;

    fn start(&self) -> u64 {
        u64::MAX >> (64 - self.neighbours.len())
    }

    fn moves(&self, left: &u64) -> impl Iterator<Item = u32> {
        bits(*left)
    }

    fn play(&self, left: &u64, &vertex: &u32) -> Step<u64> {
        let taken = 1 << vertex | self.neighbours[vertex as usize];
        Step {
            next: left & !taken,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// No vertex left: the player to move has lost.
    fn payoff(&self, _left: &u64) -> Score {
        -1
    }

    /// Impartial under the normal play convention, and split into its connected pieces.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial()
    }
}

impl NodeKayles {
    /// The connected piece of `left` that holds `vertex`.
    fn piece(&self, left: u64, vertex: u32) -> u64 {
        let mut piece = 1 << vertex;
        let mut frontier = piece;
        while frontier != 0 {
            let reached =
                bits(frontier).fold(0, |reached, v| reached | self.neighbours[v as usize]);
            frontier = reached & left & !piece;
            piece |= frontier;
        }
        piece
    }
}

/// What is left falls apart into connected pieces, each a game of its own; a lone vertex is
/// worth *1 and needs no search.
impl Impartial for NodeKayles {
    fn split(&self, left: &u64, parts: &mut Vec<u64>) {
        let mut rest = *left;
        while rest != 0 {
            let piece = self.piece(rest, rest.trailing_zeros());
            rest &= !piece;
            parts.push(piece);
        }
    }

    fn known_nimber(&self, part: &u64) -> Option<Nimber> {
        (part.count_ones() == 1).then_some(1)
    }
}

/// How the command line shows it: the vertices left and the edges between them; a move is the
/// vertex taken.
impl Presented for NodeKayles {
    fn show(&self, left: &u64) -> String {
        let listed: Vec<String> = bits(*left).map(|v| v.to_string()).collect();
        let edges: Vec<String> = bits(*left)
            .flat_map(|v| {
                bits(self.neighbours[v as usize] & left)
                    .filter(move |&w| w > v)
                    .map(move |w| format!("{v}-{w}"))
            })
            .collect();
        format!(
            "vertices left: {}\nedges: {}",
            if listed.is_empty() {
                "none".into()
            } else {
                listed.join(" ")
            },
            if edges.is_empty() {
                "none".into()
            } else {
                edges.join(" ")
            }
        )
    }

    fn move_name(&self, _left: &u64, vertex: &u32) -> String {
        vertex.to_string()
    }

    /// The graph for the analysis page (`serve`): every vertex on a circle, the edges between
    /// the vertices left; a click on a vertex left takes it.
    fn view(&self, left: &u64) -> Value {
        let graph: Vec<Vec<u32>> = (0..self.neighbours.len())
            .map(|v| match left >> v & 1 {
                1 => bits(self.neighbours[v] & left).collect(),
                _ => Vec::new(),
            })
            .collect();
        json!({"kind": "graph", "graph": graph})
    }

    fn position(&self, position: &str) -> Result<u64, InputError> {
        let count = self.neighbours.len();
        position
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|word| !word.is_empty())
            .try_fold(0u64, |left, word| match word.parse::<usize>() {
                Ok(v) if v < count => Ok(left | 1 << v),
                _ => Err(InputError::InvalidState(format!(
                    "a position is the vertices left, each from 0 to {}: not {word:?}",
                    count - 1
                ))),
            })
    }

    fn legend(&self) -> Option<&'static str> {
        Some("each move is the vertex taken off the graph with its neighbours, from 0")
    }
}

/// Built from the number of vertices N and the edges as pairs of vertices (from 0).
impl FromValues for NodeKayles {
    const EXAMPLE: &'static str = "9 0 1 1 2 2 3 3 0 4 5 5 6 6 7 7 8";
    const POSITION: Option<&'static str> = Some("'0 1 3': the vertices left");

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let refuse = || {
            InputError::InvalidGame(
                "node kayles takes the number of vertices N (1 to 64), then each edge as two \
                 vertices from 0 to N - 1"
                    .into(),
            )
        };
        let (&count, edges) = values.split_first().ok_or_else(refuse)?;
        if !(1..=64).contains(&count) || edges.len() % 2 == 1 {
            return Err(refuse());
        }
        let mut neighbours = vec![0u64; count as usize];
        for edge in edges.chunks(2) {
            let [v, w] = [edge[0], edge[1]];
            if !(0..count).contains(&v) || !(0..count).contains(&w) || v == w {
                return Err(refuse());
            }
            neighbours[v as usize] |= 1 << w;
            neighbours[w as usize] |= 1 << v;
        }
        Ok(NodeKayles { neighbours })
    }
}

/// The command line's entries for the games.
const DIVISOR_GAME: Bundled = Bundled::game::<DivisorGame>(
    "divisor-game",
    "LeetCode 1025: subtract a proper divisor; who cannot move loses",
);
const FLIP_GAME: Bundled = Bundled::game::<FlipGame>(
    "flip-game",
    "LeetCode 294: flip two neighbouring + into --; who cannot move loses",
);

const NODE_KAYLES: Bundled = Bundled::game::<NodeKayles>(
    "node-kayles",
    "Node Kayles on a graph: take a vertex and its neighbours; who cannot move loses; the nimber",
);

const HOG: Bundled = Bundled::game::<Hog>(
    "hog",
    "Hog: roll 1 to MOST dice a turn (a 1 scores 1, else their sum); first to GOAL wins; the \
     first player's winning chance",
);

fn main() -> ExitCode {
    gamesolver::cli::main_with(&[&DIVISOR_GAME, &FLIP_GAME, &HOG, &NODE_KAYLES])
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use gamesolver::check::{CheckOptions, check_dense};
    use gamesolver::{Solved, Solver};

    /// The literal rules by brute force: whether the player to move at `n` wins.
    fn wins(n: u32, memo: &mut Vec<Option<bool>>) -> bool {
        if let Some(known) = memo[n as usize] {
            return known;
        }
        let won = (1..n)
            .filter(|&x| n.is_multiple_of(x))
            .any(|x| !wins(n - x, memo));
        memo[n as usize] = Some(won);
        won
    }

    #[test]
    fn solves_as_the_rules_and_the_closed_form_say() {
        let mut memo = vec![None; 401];
        for n in 1..=400 {
            let game = DivisorGame { start: n };
            let value = Solver::new(&game).solve().unwrap().value();
            let won = wins(n, &mut memo);
            assert_eq!(value, if won { 1 } else { -1 }, "N = {n}");
            // LeetCode's closed form: the first player wins exactly when N is even.
            assert_eq!(won, n % 2 == 0, "N = {n}");
        }
    }

    #[test]
    fn lists_the_proper_divisors_once() {
        let game = DivisorGame { start: 36 };
        assert!(game.moves(&36).eq([1, 2, 3, 4, 6, 9, 12, 18]));
        assert!(game.moves(&49).eq([1, 7]));
        assert!(game.moves(&2).eq([1]));
        assert_eq!(game.moves(&1).count(), 0);
        for n in 1..500 {
            let plain = (1..n).filter(|d| n % d == 0);
            assert!(game.moves(&n).eq(plain), "N = {n}");
        }
    }

    #[test]
    fn passes_the_conformance_checker() {
        let report = check_dense(&DivisorGame { start: 200 }, &CheckOptions::default());
        assert!(report.is_ok(), "{report}");
    }

    /// Flip Game II by Sprague–Grundy theory, independent of the engine: a run of k `+` is a
    /// heap whose Grundy number is the mex of g(a) ^ g(b) over a + b = k − 2; the first
    /// player wins exactly when the runs' numbers XOR to non-zero.
    pub fn flip_first_wins(row: &[i64]) -> bool {
        let mut grundy = vec![0u32; 65];
        for k in 2..=64 {
            let seen: Vec<u32> = (0..=k - 2).map(|a| grundy[a] ^ grundy[k - 2 - a]).collect();
            grundy[k] = (0..).find(|g| !seen.contains(g)).unwrap();
        }
        let runs = row.split(|cell| *cell == 0).map(<[i64]>::len);
        runs.fold(0, |x, run| x ^ grundy[run]) != 0
    }

    #[test]
    fn flip_game_agrees_with_sprague_grundy() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 24) as usize;
            let row: Vec<i64> = (0..len)
                .map(|i| ((seed >> (i + 20)) & 1) as i64 | i64::from(i % 3 != 2))
                .collect();
            let game = FlipGame::from_values(&row).unwrap();
            let value = Solver::new(&game).solve().unwrap().value();
            assert_eq!(value == 1, flip_first_wins(&row), "{row:?}");
        }
        let report = gamesolver::check::check(
            &FlipGame::from_values(&[1; 10]).unwrap(),
            &CheckOptions::default(),
        );
        assert!(report.is_ok(), "{report}");
    }

    /// Hog by its literal rules, independent of the engine: the winning chance of the player
    /// to choose at `mine` to `theirs`, each choice's rolls dealt out die by die (all 6ᵏ).
    pub fn hog_chance(
        goal: u32,
        most: u32,
        (mine, theirs): (u32, u32),
        memo: &mut std::collections::HashMap<(u32, u32), f64>,
    ) -> f64 {
        if theirs >= goal {
            return 0.0;
        }
        if let Some(&known) = memo.get(&(mine, theirs)) {
            return known;
        }
        let mut best = 0.0f64;
        for dice in 1..=most {
            let rolls = 6u32.pow(dice);
            let mut chance = 0.0;
            for roll in 0..rolls {
                let faces: Vec<u32> = (0..dice).map(|d| roll / 6u32.pow(d) % 6 + 1).collect();
                let points = if faces.contains(&1) {
                    1
                } else {
                    faces.iter().sum()
                };
                chance += 1.0 - hog_chance(goal, most, (theirs, mine + points), memo);
            }
            best = best.max(chance / f64::from(rolls));
        }
        memo.insert((mine, theirs), best);
        best
    }

    #[test]
    fn hog_agrees_with_its_rules_dealt_out_die_by_die() {
        use gamesolver::Solved;
        for (goal, most) in [(1, 1), (5, 1), (8, 2), (12, 3), (16, 2), (11, 4)] {
            let game = Hog::new(goal, most);
            let mut solved = Solver::new(&game).solve_chance().unwrap();
            let mut memo = std::collections::HashMap::new();
            for mine in 0..goal {
                for theirs in 0..goal {
                    let state = HogState {
                        mine,
                        theirs,
                        rolling: 0,
                    };
                    let value = solved.value_of(&state).unwrap().win_chance();
                    assert!(value.is_exact(), "play cannot cycle: exact");
                    let expected = hog_chance(goal, most, (mine, theirs), &mut memo);
                    assert!(
                        (value.to_f64() - expected).abs() < 1e-12,
                        "goal {goal}, {most} dice: {mine} to {theirs}: {value} against {expected}"
                    );
                }
            }
        }
        let report = gamesolver::check::check_chance(&Hog::new(14, 3), &CheckOptions::default());
        assert!(report.is_ok(), "{report}");
    }

    /// Node Kayles by its literal rules, independent of the engine: the mex of the whole
    /// graph's options, never split into pieces.
    pub fn node_kayles_nimber(
        neighbours: &[u64],
        left: u64,
        memo: &mut std::collections::HashMap<u64, u32>,
    ) -> u32 {
        if let Some(&known) = memo.get(&left) {
            return known;
        }
        let options: Vec<u32> = (0..neighbours.len())
            .filter(|&v| left >> v & 1 == 1)
            .map(|v| node_kayles_nimber(neighbours, left & !(1 << v | neighbours[v]), memo))
            .collect();
        let nimber = (0..).find(|g| !options.contains(g)).unwrap();
        memo.insert(left, nimber);
        nimber
    }

    #[test]
    fn node_kayles_agrees_with_the_whole_graphs_mex() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..80 {
            let count = 1 + next() % 16;
            let mut values = vec![count as i64];
            // From a few edges (many pieces) to many (one piece).
            let edges = next() % (1 + count * (1 + round % 3));
            for _ in 0..edges {
                let (v, w) = (next() % count, next() % count);
                if v != w {
                    values.extend([v as i64, w as i64]);
                }
            }
            let game = NodeKayles::from_values(&values).unwrap();
            let mut memo = std::collections::HashMap::new();
            let expected = node_kayles_nimber(&game.neighbours, game.start(), &mut memo);
            let solved = Solver::new(&game).solve().unwrap();
            assert_eq!(solved.nimber(), Some(expected), "{values:?}");
            assert_eq!(
                solved.value(),
                if expected == 0 { -1 } else { 1 },
                "{values:?}"
            );
        }
        // Node Kayles on a path of n vertices is Dawson's chess (OEIS A002187).
        let dawson = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0,
        ];
        for (n, &expected) in dawson.iter().enumerate().skip(1) {
            let mut values = vec![n as i64];
            values.extend((1..n as i64).flat_map(|v| [v - 1, v]));
            let game = NodeKayles::from_values(&values).unwrap();
            assert_eq!(
                Solver::new(&game).solve().unwrap().nimber(),
                Some(expected),
                "path {n}"
            );
        }
        let example: Vec<i64> = NodeKayles::EXAMPLE
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        let report = gamesolver::check::check_impartial(
            &NodeKayles::from_values(&example).unwrap(),
            &CheckOptions::default(),
        );
        assert!(report.is_ok(), "{report}");
    }

    #[test]
    fn refuses_values_that_make_no_game() {
        for values in [&[][..], &[0], &[MOST + 1], &[3, 4], &[-5]] {
            assert!(
                matches!(
                    DivisorGame::from_values(values),
                    Err(InputError::InvalidGame(_))
                ),
                "{values:?}"
            );
        }
        assert_eq!(DivisorGame::from_values(&[12]).unwrap().start, 12);
        for values in [&[][..], &[2], &[1, -1], &[1; 65]] {
            assert!(FlipGame::from_values(values).is_err(), "{values:?}");
        }
        for values in [&[][..], &[0], &[201], &[20, 0], &[20, 11], &[20, 3, 1]] {
            assert!(Hog::from_values(values).is_err(), "{values:?}");
        }
        for values in [
            &[][..],
            &[0],
            &[65],
            &[3, 0],
            &[3, 0, 3],
            &[3, 1, 1],
            &[3, -1, 2],
        ] {
            assert!(NodeKayles::from_values(values).is_err(), "{values:?}");
        }
        assert_eq!(NodeKayles::from_values(&[64]).unwrap().start(), u64::MAX);
    }
}
