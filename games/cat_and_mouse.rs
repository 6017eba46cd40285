//! LeetCode's two loopy games, outcome games whose play can go on forever: Cat and Mouse (913),
//! on an undirected graph, and Cat and Mouse II (1728), on a grid with jumps. Both are solved
//! by [`retrograde`](crate::engines::retrograde) analysis; the exhaustive engines do not apply (a line
//! of play can return to a position).

use crate::error::InputError;
use crate::game::{Capabilities, Declares, DenseIndex, Game, Score, Step, Turn};
use crate::game::{Predecessors, StateAt};

/// How the command line and the page read the two Cat and Mouse games.
#[cfg(feature = "cli")]
pub(super) mod cli;

/// A position of either game: where the mouse and the cat are, and who moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chase {
    /// The mouse's node (913) or cell (1728, row-major).
    pub mouse: u16,
    /// The cat's node or cell.
    pub cat: u16,
    /// Whether the cat moves next (the mouse moves first).
    pub cat_moves: bool,
}

impl Chase {
    /// The step of the side to move going to `to` (a node or cell): the other side moves next.
    #[inline]
    fn moved_to(&self, to: u16) -> Step<Chase> {
        let next = if self.cat_moves {
            Chase {
                cat: to,
                cat_moves: false,
                ..*self
            }
        } else {
            Chase {
                mouse: to,
                cat_moves: true,
                ..*self
            }
        };
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }
}

/// The payoff of a final position for the side to move, given who has won.
fn payoff_for(state: &Chase, mouse_won: bool) -> Score {
    // The side to move has won if it is the winner.
    if mouse_won != state.cat_moves { 1 } else { -1 }
}

/// LeetCode 913: the mouse starts at node 1, the cat at node 2, the hole is node 0; they move
/// in turns (the mouse first) along an edge, the cat never into the hole. The cat wins on the
/// mouse's node, the mouse wins in the hole, and endless play is a draw.
///
/// ```
/// use gamesolver::{engines::retrograde::{self, Outcome}, games::CatAndMouse, Limits};
///
/// // LeetCode's first example: a draw.
/// let graph = vec![vec![2, 5], vec![3], vec![0, 4, 5], vec![1, 4, 5], vec![2, 3], vec![0, 2, 3]];
/// let game = CatAndMouse::new(graph).unwrap();
/// let solved = retrograde::solve(&game, retrograde::HashIds::new(), retrograde::Options::new()).unwrap();
/// assert_eq!(solved.outcome(), Outcome::Draw);
/// assert_eq!(CatAndMouse::leetcode_answer(solved.outcome()), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatAndMouse {
    graph: Vec<Vec<u16>>,
    /// Each node's neighbours other than the hole: the cat's moves from it.
    cat_moves: Vec<u32>,
}

/// The most nodes (913) or cells (1728) a game may have: positions hold them in 16 bits.
pub const MAX_CHASE_PLACES: usize = 1 << 16;

impl CatAndMouse {
    /// Checks the graph: at least 3 nodes (the hole, the mouse's and the cat's), at most
    /// [`MAX_CHASE_PLACES`]; every neighbour a node of the graph, listed once, never the node
    /// itself; every edge listed at both ends; the mouse with somewhere to go and the cat with
    /// somewhere besides the hole. (LeetCode's limits, 3 to 50 nodes, are not required.)
    pub fn new(graph: Vec<Vec<i64>>) -> Result<Self, InputError> {
        let n = graph.len();
        let invalid = |message: String| Err(InputError::InvalidGame(message));
        if n < 3 {
            return invalid(format!(
                "a Cat and Mouse graph needs at least 3 nodes (0 the hole, 1 the mouse's, 2 the \
                 cat's); this one has {n}"
            ));
        }
        if n > MAX_CHASE_PLACES {
            return invalid(format!(
                "a Cat and Mouse graph may have at most {MAX_CHASE_PLACES} nodes; this one has {n}"
            ));
        }
        let mut lists = Vec::with_capacity(n);
        for (node, list) in graph.iter().enumerate() {
            let mut seen = Vec::with_capacity(list.len());
            for &neighbour in list {
                if neighbour < 0 || neighbour >= n as i64 {
                    return invalid(format!(
                        "node {node}'s list names node {neighbour}, but the nodes are 0 to {}",
                        n - 1
                    ));
                }
                if neighbour == node as i64 {
                    return invalid(format!("node {node}'s list names node {node} itself"));
                }
                let neighbour = neighbour as u16;
                if seen.contains(&neighbour) {
                    return invalid(format!("node {node}'s list names node {neighbour} twice"));
                }
                seen.push(neighbour);
            }
            lists.push(seen);
        }
        for (node, list) in lists.iter().enumerate() {
            for &neighbour in list {
                if !lists[neighbour as usize].contains(&(node as u16)) {
                    return invalid(format!(
                        "the graph is not symmetric: node {node}'s list names node {neighbour}, \
                         but node {neighbour}'s does not name node {node}"
                    ));
                }
            }
        }
        if lists[1].is_empty() {
            return invalid("the mouse's node 1 has no neighbour: the mouse cannot move".into());
        }
        if lists[2].iter().all(|&neighbour| neighbour == 0) {
            return invalid(
                "the cat's node 2 has no neighbour but the hole: the cat cannot move".into(),
            );
        }
        let cat_moves = lists
            .iter()
            .map(|list| list.iter().filter(|&&node| node != 0).count() as u32)
            .collect();
        Ok(CatAndMouse {
            graph: lists,
            cat_moves,
        })
    }

    /// Where the cat (or the mouse) on `place` can have come from: its neighbours (the graph is
    /// undirected), never the hole for the cat.
    fn came_from(&self, cat: bool, place: usize) -> impl Iterator<Item = &u16> {
        self.graph[place]
            .iter()
            .filter(move |&&from| !cat || from != 0)
    }

    /// The graph's adjacency lists.
    pub fn graph(&self) -> &[Vec<u16>] {
        &self.graph
    }

    /// LeetCode's return value for the start's outcome (for the mouse, who moves first):
    /// 1 the mouse wins, 2 the cat wins, 0 a draw.
    pub fn leetcode_answer(outcome: crate::engines::retrograde::Outcome) -> i64 {
        match outcome {
            crate::engines::retrograde::Outcome::Win => 1,
            crate::engines::retrograde::Outcome::Loss => 2,
            crate::engines::retrograde::Outcome::Draw => 0,
        }
    }
}

impl Game for CatAndMouse {
    type State = Chase;
    /// The node moved to.
    type Move = u16;

    fn start(&self) -> Chase {
        Chase {
            mouse: 1,
            cat: 2,
            cat_moves: false,
        }
    }

    fn moves(&self, state: &Chase) -> impl Iterator<Item = u16> {
        let over = state.mouse == 0 || state.mouse == state.cat;
        let from = if state.cat_moves {
            state.cat
        } else {
            state.mouse
        };
        let neighbours: &[u16] = if over {
            &[]
        } else {
            &self.graph[from as usize]
        };
        // The cat may not enter the hole (node 0).
        let cat = state.cat_moves;
        neighbours
            .iter()
            .copied()
            .filter(move |&node| !cat || node != 0)
    }

    fn play(&self, state: &Chase, to: &u16) -> Step<Chase> {
        state.moved_to(*to)
    }

    fn payoff(&self, state: &Chase) -> Score {
        payoff_for(state, state.mouse == 0 && state.mouse != state.cat)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none()
            .dense_index()
            .outcome_game()
            .may_cycle()
    }
}

/// Positions as `(mouse · places + cat) · 2 + turn`.
fn chase_index(state: &Chase, places: usize) -> usize {
    (state.mouse as usize * places + state.cat as usize) * 2 + usize::from(state.cat_moves)
}

/// Every (mouse, cat, turn): `2 · nodes²` indices.
impl DenseIndex for CatAndMouse {
    fn index_len(&self) -> usize {
        self.graph.len() * self.graph.len() * 2
    }
    #[inline]
    fn index(&self, state: &Chase) -> usize {
        chase_index(state, self.graph.len())
    }
}

/// The mover before `state` stood on a neighbour of where it is now (the graph is undirected),
/// never the hole for the cat.
impl Predecessors for CatAndMouse {
    #[inline]
    fn predecessors(&self, state: &Chase, each: impl FnMut(Chase, Turn)) {
        // The final positions among these (the mouse in the hole or on the cat) are skipped by
        // the solver.
        chase_predecessors(state, |cat, place| self.came_from(cat, place), each);
    }
}

/// Every (mouse, cat, turn) is a position, except the cat in the hole.
impl StateAt for CatAndMouse {
    #[inline]
    fn state_at(&self, index: usize) -> Option<Chase> {
        chase_at(index, self.graph.len()).filter(|state| state.cat != 0)
    }
    #[inline]
    fn move_count(&self, state: &Chase) -> Option<usize> {
        Some(if state.mouse == 0 || state.mouse == state.cat {
            0
        } else if state.cat_moves {
            self.cat_moves[state.cat as usize] as usize
        } else {
            self.graph[state.mouse as usize].len()
        })
    }
    #[inline]
    fn predecessor_indices(&self, index: usize, each: impl FnMut(usize, Turn)) {
        let places = self.graph.len();
        let (mouse, cat, cat_moves) = chase_parts(index, places);
        if cat == 0 || mouse >= places {
            return;
        }
        let came_from = |cat, place| self.came_from(cat, place);
        chase_predecessor_indices((mouse, cat, cat_moves), places, came_from, each);
    }
}

/// `(mouse, cat, cat moves)` of an index of [`chase_index`] (a mouse of `places` or more for an
/// index past the positions).
#[inline]
fn chase_parts(index: usize, places: usize) -> (usize, usize, bool) {
    let pair = index / 2;
    (pair / places, pair % places, index % 2 == 1)
}

/// The positions before `state`: the animal that has just moved stood on one of
/// `came_from(is the cat, where it is now)`, and the other one had the move.
#[inline]
fn chase_predecessors<'a, Places: Iterator<Item = &'a u16>>(
    state: &Chase,
    came_from: impl Fn(bool, usize) -> Places,
    mut each: impl FnMut(Chase, Turn),
) {
    if state.cat_moves {
        for &mouse in came_from(false, state.mouse as usize) {
            let before = Chase {
                mouse,
                cat_moves: false,
                ..*state
            };
            each(before, Turn::Pass);
        }
    } else {
        for &cat in came_from(true, state.cat as usize) {
            let before = Chase {
                cat,
                cat_moves: true,
                ..*state
            };
            each(before, Turn::Pass);
        }
    }
}

/// The indices of the positions before `(mouse, cat, cat moves)` (one of `places` places each):
/// the animal that has just moved stood on one of `came_from(is the cat, where it is now)`, and
/// the other one had the move.
#[inline]
fn chase_predecessor_indices<'a, Places: Iterator<Item = &'a u16>>(
    (mouse, cat, cat_moves): (usize, usize, bool),
    places: usize,
    came_from: impl Fn(bool, usize) -> Places,
    mut each: impl FnMut(usize, Turn),
) {
    if cat_moves {
        for &from in came_from(false, mouse) {
            each((from as usize * places + cat) * 2, Turn::Pass);
        }
    } else {
        for &from in came_from(true, cat) {
            each((mouse * places + from as usize) * 2 + 1, Turn::Pass);
        }
    }
}

/// The position at `index` of [`chase_index`].
#[inline]
fn chase_at(index: usize, places: usize) -> Option<Chase> {
    let (pair, turn) = (index / 2, index % 2);
    (pair < places * places).then(|| Chase {
        mouse: (pair / places) as u16,
        cat: (pair % places) as u16,
        cat_moves: turn == 1,
    })
}

/// LeetCode 1728: a grid of floor `.`, walls `#`, the cat `C`, the mouse `M` and the food `F`.
/// In turns (the mouse first) each jumps up to its reach in one of the four directions (not
/// through walls or off the grid), or stays. The cat wins on the mouse's cell or by reaching
/// the food first; the mouse wins by reaching the food first; endless play is a draw here,
/// and LeetCode counts it for the cat (see [`CatAndMouseII::mouse_wins`]).
///
/// ```
/// use gamesolver::{engines::retrograde, games::CatAndMouseII, Limits};
///
/// // LeetCode's first example: the mouse wins.
/// let game = CatAndMouseII::new(&["####F", "#C...", "M...."], 1, 2).unwrap();
/// let solved = retrograde::solve(&game, retrograde::HashIds::new(), retrograde::Options::new()).unwrap();
/// assert!(CatAndMouseII::mouse_wins(solved.outcome(), solved.remoteness()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatAndMouseII {
    rows: usize,
    columns: usize,
    walls: Vec<bool>,
    start: Chase,
    food: u16,
    /// The cells each cell reaches in one jump (itself first), for the mouse and the cat:
    /// `reach[animal][first[animal][cell]..first[animal][cell + 1]]` (0 the mouse, 1 the cat).
    first: [Vec<u32>; 2],
    reach: [Vec<u16>; 2],
}

/// The most moves (of both players) LeetCode 1728 allows the mouse to reach the food in.
pub const MOUSE_TURNS: u32 = 1000;

impl CatAndMouseII {
    /// Checks the grid (rows of equal length of `.`, `#`, `C`, `M` and `F`, exactly one each
    /// of `C`, `M` and `F`, at most [`MAX_CHASE_PLACES`] cells) and the jumps (1 to 8 as in
    /// LeetCode; longer ones are accepted up to the grid's size).
    pub fn new<S: AsRef<str>>(
        grid: &[S],
        cat_jump: i64,
        mouse_jump: i64,
    ) -> Result<Self, InputError> {
        let invalid = |message: String| Err(InputError::InvalidGame(message));
        let rows = grid.len();
        if rows == 0 {
            return invalid("the grid has no rows".into());
        }
        let columns = grid[0].as_ref().chars().count();
        if columns == 0 {
            return invalid("the grid's rows are empty".into());
        }
        if rows.saturating_mul(columns) > MAX_CHASE_PLACES {
            return invalid(format!(
                "the grid has {rows} x {columns} cells, more than the {MAX_CHASE_PLACES} a \
                 position can hold"
            ));
        }
        let mut walls = Vec::with_capacity(rows * columns);
        let (mut cat, mut mouse, mut food) = (Vec::new(), Vec::new(), Vec::new());
        for (row, line) in grid.iter().enumerate() {
            let line = line.as_ref();
            if line.chars().count() != columns {
                return invalid(format!(
                    "row {} has {} cells, but row 1 has {columns}: the grid's rows must be of \
                     equal length",
                    row + 1,
                    line.chars().count()
                ));
            }
            for (column, cell) in line.chars().enumerate() {
                let place = (row * columns + column) as u16;
                match cell {
                    '.' => {}
                    '#' => {}
                    'C' => cat.push(place),
                    'M' => mouse.push(place),
                    'F' => food.push(place),
                    other => {
                        return invalid(format!(
                            "row {}, column {} is {other:?}: cells are '.', '#', 'C', 'M' or 'F'",
                            row + 1,
                            column + 1
                        ));
                    }
                }
                walls.push(cell == '#');
            }
        }
        for (what, letter, found) in [
            ("cat", 'C', &cat),
            ("mouse", 'M', &mouse),
            ("food", 'F', &food),
        ] {
            if found.len() != 1 {
                return invalid(format!(
                    "the grid must have exactly one {letter} (the {what}); it has {}",
                    found.len()
                ));
            }
        }
        let longest = rows.max(columns) as i64;
        let jump = |name: &str, value: i64| -> Result<usize, InputError> {
            if (1..=longest.max(8)).contains(&value) {
                Ok(value as usize)
            } else {
                Err(InputError::InvalidGame(format!(
                    "{name} is {value}: a jump is from 1 to {} (LeetCode: 1 to 8)",
                    longest.max(8)
                )))
            }
        };
        let jumps = [jump("mouseJump", mouse_jump)?, jump("catJump", cat_jump)?];
        let mut game = CatAndMouseII {
            rows,
            columns,
            walls,
            start: Chase {
                mouse: mouse[0],
                cat: cat[0],
                cat_moves: false,
            },
            food: food[0],
            first: [Vec::new(), Vec::new()],
            reach: [Vec::new(), Vec::new()],
        };
        for (animal, jump) in jumps.into_iter().enumerate() {
            let (mut first, mut reach) = (vec![0u32], Vec::new());
            for cell in 0..rows * columns {
                if !game.walls[cell] {
                    game.jumps(cell as u16, jump, &mut reach);
                }
                first.push(reach.len() as u32);
            }
            game.first[animal] = first;
            game.reach[animal] = reach;
        }
        Ok(game)
    }

    /// Rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.columns)
    }

    /// The food's cell (row-major).
    pub fn food(&self) -> u16 {
        self.food
    }

    /// Whether `cell` is a wall.
    pub fn is_wall(&self, cell: u16) -> bool {
        self.walls[cell as usize]
    }

    /// LeetCode's answer: the mouse wins, within [`MOUSE_TURNS`] moves. (Endless play and a
    /// win that takes longer go to the cat.)
    pub fn mouse_wins(
        outcome: crate::engines::retrograde::Outcome,
        remoteness: Option<u32>,
    ) -> bool {
        outcome == crate::engines::retrograde::Outcome::Win
            && remoteness.is_some_and(|moves| moves <= MOUSE_TURNS)
    }

    /// The cells `animal` (0 the mouse, 1 the cat) reaches from `from` in one jump, `from`
    /// itself first.
    #[inline]
    fn reach(&self, animal: usize, from: u16) -> &[u16] {
        let first = &self.first[animal];
        &self.reach[animal][first[from as usize] as usize..first[from as usize + 1] as usize]
    }

    /// The cells reachable from `from` by one jump of at most `reach` (and `from` itself).
    fn jumps(&self, from: u16, reach: usize, moves: &mut Vec<u16>) {
        moves.push(from);
        let (row, column) = (from as usize / self.columns, from as usize % self.columns);
        let directions: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        for (dr, dc) in directions {
            for step in 1..=reach as isize {
                let (r, c) = (row as isize + dr * step, column as isize + dc * step);
                if r < 0 || c < 0 || r >= self.rows as isize || c >= self.columns as isize {
                    break;
                }
                let cell = r as usize * self.columns + c as usize;
                if self.walls[cell] {
                    break;
                }
                moves.push(cell as u16);
            }
        }
    }

    /// Whether the game is over at `state`.
    fn is_final(&self, state: &Chase) -> bool {
        state.mouse == state.cat || state.mouse == self.food || state.cat == self.food
    }

    /// Whether the mouse has won at a final position.
    fn mouse_won(&self, state: &Chase) -> bool {
        state.mouse == self.food && state.cat != state.mouse
    }
}

impl Game for CatAndMouseII {
    type State = Chase;
    /// The cell jumped to (the mover's own cell: staying).
    type Move = u16;

    fn start(&self) -> Chase {
        self.start
    }

    fn moves(&self, state: &Chase) -> impl Iterator<Item = u16> {
        let reach: &[u16] = if self.is_final(state) {
            &[]
        } else if state.cat_moves {
            self.reach(1, state.cat)
        } else {
            self.reach(0, state.mouse)
        };
        reach.iter().copied()
    }

    fn play(&self, state: &Chase, to: &u16) -> Step<Chase> {
        state.moved_to(*to)
    }

    fn payoff(&self, state: &Chase) -> Score {
        payoff_for(state, self.mouse_won(state))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none()
            .dense_index()
            .outcome_game()
            .may_cycle()
    }
}

/// Every (mouse, cat, turn): `2 · cells²` indices.
impl DenseIndex for CatAndMouseII {
    fn index_len(&self) -> usize {
        self.walls.len() * self.walls.len() * 2
    }
    #[inline]
    fn index(&self, state: &Chase) -> usize {
        chase_index(state, self.walls.len())
    }
}

/// A jump can be made backwards (the same straight line, no wall on it): the mover before
/// `state` stood on a cell it reaches in one jump, or on its own cell (it stayed).
impl Predecessors for CatAndMouseII {
    #[inline]
    fn predecessors(&self, state: &Chase, each: impl FnMut(Chase, Turn)) {
        // The final positions among these are skipped by the solver.
        let came_from = |cat: bool, place: usize| self.reach(usize::from(cat), place as u16).iter();
        chase_predecessors(state, came_from, each);
    }
}

/// Every (mouse, cat, turn) with neither on a wall is a position.
impl StateAt for CatAndMouseII {
    #[inline]
    fn state_at(&self, index: usize) -> Option<Chase> {
        chase_at(index, self.walls.len())
            .filter(|state| !self.walls[state.mouse as usize] && !self.walls[state.cat as usize])
    }
    #[inline]
    fn move_count(&self, state: &Chase) -> Option<usize> {
        Some(if self.is_final(state) {
            0
        } else if state.cat_moves {
            self.reach(1, state.cat).len()
        } else {
            self.reach(0, state.mouse).len()
        })
    }
    #[inline]
    fn predecessor_indices(&self, index: usize, each: impl FnMut(usize, Turn)) {
        let places = self.walls.len();
        let (mouse, cat, cat_moves) = chase_parts(index, places);
        if mouse >= places || self.walls[mouse] || self.walls[cat] {
            return;
        }
        let came_from = |cat: bool, place: usize| self.reach(usize::from(cat), place as u16).iter();
        chase_predecessor_indices((mouse, cat, cat_moves), places, came_from, each);
    }
}
