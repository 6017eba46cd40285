//! Hex on an N×N board (1 to 11): Black, who moves first, and White place a stone of theirs on
//! any empty cell in turn; Black wins by joining the top and bottom rows with a chain of black
//! stones, White by joining the left and right columns. A full board always has a winner, so
//! the value is +1 or −1 for the side to move, and the first player wins on every empty board
//! (Nash's strategy-stealing argument). No swap rule.
//!
//! Cells are named as benzene names them: a letter for the column (`a` on the left) and a
//! number for the row (`1` at the top). Each cell touches the cells left and right of it, the
//! two above it (its column and the next) and the two below it (its column and the one before).

use crate::InputError;
use crate::game::{Capabilities, Decided, Declares, Game, Score, Step, Symmetry, Turn};

/// The largest board side Hex takes (11×11, the size of the classic board: 121 cells).
pub const MAX_HEX_SIDE: u32 = 11;

/// Hex on one board, Black (first) joining top and bottom.
///
/// ```
/// use gamesolver::{games::Hex, Solved, Solver};
///
/// let hex = Hex::new(3)?;
/// let mut solved = Solver::new(&hex).solve()?;
/// assert_eq!(solved.value(), 1); // the first player wins
/// // After Black's a1 (a corner), White, to move, wins; after b2 (the centre), Black does.
/// assert_eq!(solved.value_of(&hex.after_cells("a1")?)?, 1);
/// assert_eq!(solved.value_of(&hex.after_cells("b2")?)?, -1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hex {
    side: u32,
    /// Every cell of the board.
    all: u128,
    /// The first and last rows, and the first and last columns.
    top: u128,
    bottom: u128,
    left: u128,
    right: u128,
    /// The cells in the order moves are listed: nearest the centre first.
    order: Vec<u8>,
    /// For each cell, the cells listed before it: a move's place among a position's moves is
    /// how many of them are empty.
    earlier: Vec<u128>,
    /// Where the game starts: the empty board, or the position of [`Hex::starting_at`].
    opening: HexBoard,
}

/// A Hex position: each side's stones (bit `row * side + column`), and whether the side that
/// just moved joined its edges (then the game is over).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HexBoard {
    black: u128,
    white: u128,
    won: bool,
}

impl HexBoard {
    /// Black's stones, one bit per cell (`row * side + column`).
    pub fn black(&self) -> u128 {
        self.black
    }
    /// White's stones.
    pub fn white(&self) -> u128 {
        self.white
    }
    /// Whether Black is to move (both have as many stones).
    pub fn black_to_move(&self) -> bool {
        self.black.count_ones() == self.white.count_ones()
    }
    /// Whether the side that just moved has joined its edges: the game is over.
    pub fn is_won(&self) -> bool {
        self.won
    }
}

impl Hex {
    /// Hex on a `side × side` board, `1..=`[`MAX_HEX_SIDE`].
    pub fn new(side: u32) -> Result<Hex, InputError> {
        if !(1..=MAX_HEX_SIDE).contains(&side) {
            return Err(InputError::InvalidGame(format!(
                "hex takes a board side from 1 to {MAX_HEX_SIDE}, not {side}"
            )));
        }
        let cells = side * side;
        let all = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let row = (1u128 << side) - 1;
        let column = (0..side).fold(0u128, |mask, r| mask | 1 << (r * side));
        // Twice the distance from the centre in the hex metric (cube coordinates), so that
        // even boards' four middle cells tie.
        let distance = |cell: u32| {
            let (r, c) = ((cell / side) as i32 * 2, (cell % side) as i32 * 2);
            let centre = side as i32 - 1;
            let (dr, dc) = (r - centre, c - centre);
            (dr.abs() + dc.abs() + (dr + dc).abs()) / 2
        };
        let mut order: Vec<u8> = (0..cells as u8).collect();
        order.sort_by_key(|&cell| (distance(u32::from(cell)), cell));
        let mut earlier = vec![0u128; cells as usize];
        let mut before = 0u128;
        for &cell in &order {
            earlier[usize::from(cell)] = before;
            before |= 1 << cell;
        }
        Ok(Hex {
            side,
            all,
            top: row,
            bottom: row << (side * (side - 1)),
            left: column,
            right: column << (side - 1),
            order,
            earlier,
            opening: HexBoard::default(),
        })
    }

    /// The board's side.
    pub fn side(&self) -> u32 {
        self.side
    }

    /// The cells next to any of `cells`.
    fn spread(&self, cells: u128) -> u128 {
        let n = self.side;
        let not_left = self.all & !self.left;
        let not_right = self.all & !self.right;
        (((cells << 1) & not_left)
            | ((cells >> 1) & not_right)
            | (cells << n)
            | (cells >> n)
            | ((cells >> (n - 1)) & not_left)
            | ((cells << (n - 1)) & not_right))
            & self.all
    }

    /// Whether `stones` join the top and bottom rows (`black`) or the left and right columns.
    pub fn joins(&self, stones: u128, black: bool) -> bool {
        let (start, end) = if black {
            (self.top, self.bottom)
        } else {
            (self.left, self.right)
        };
        stones & end != 0 && self.flood(stones & start, stones) & end != 0
    }

    /// `seed` grown through `stones` to every stone joined to it.
    fn flood(&self, mut seed: u128, stones: u128) -> u128 {
        loop {
            let grown = seed | (self.spread(seed) & stones);
            if grown == seed {
                return seed;
            }
            seed = grown;
        }
    }

    /// How many stones `stones` still need on the `empty` cells to join the top and bottom
    /// rows (`black`) or the left and right columns: the cheapest path from edge to edge, a
    /// stone costing 0 and an empty cell 1 (`None`: no path, the other side has joined its
    /// edges). Hex's estimate for proof search ([`Game::proof_numbers`]).
    pub fn distance(&self, stones: u128, empty: u128, black: bool) -> Option<u32> {
        let (start, end) = if black {
            (self.top, self.bottom)
        } else {
            (self.left, self.right)
        };
        // The cells reached at a cost of at most `cost`, as cost grows by one.
        let mut reached = self.flood(start & stones, stones);
        for cost in 0.. {
            if reached & end != 0 {
                return Some(cost);
            }
            let next = self.flood(reached | ((self.spread(reached) | start) & empty), stones);
            if next == reached {
                return None;
            }
            reached = next;
        }
        None
    }

    /// A pairing strategy that joins `stones` to both their edges (top and bottom for
    /// `black`, else left and right) whatever the other side plays on the `empty` cells: pairs
    /// of empty cells, each touching both stones or edge rows it links (a bridge, or a stone on
    /// the second row and two cells of the first), no cell in two pairs; and where `with_key`,
    /// perhaps one empty cell more, the key, that the side to move takes first. Holding the
    /// key and one cell of each pair then holds a chain. Found by a depth-first search over
    /// the chains of `stones`, bounded in steps: `None` says only that none was found.
    pub fn pairing(
        &self,
        stones: u128,
        empty: u128,
        black: bool,
        with_key: bool,
    ) -> Option<Pairing> {
        let (start, end) = if black {
            (self.top, self.bottom)
        } else {
            (self.left, self.right)
        };
        // The chains of `stones`, nearest the start edge first (the search tries them so).
        let mut chains = Vec::new();
        let mut left = stones;
        while left != 0 {
            let chain = self.flood(left & left.wrapping_neg(), stones);
            chains.push(chain);
            left &= !chain;
        }
        let line = if black { self.top } else { self.left };
        let step = if black { self.side } else { 1 };
        chains.sort_by_key(|&chain| (0..self.side).find(|&at| chain & (line << (at * step)) != 0));
        let mut found = Pairing {
            key: None,
            pairs: Vec::new(),
        };
        let touching: Vec<u128> = chains
            .iter()
            .map(|&chain| self.spread(chain) & empty)
            .collect();
        let links = Links {
            chains: &chains,
            touching: &touching,
            end,
            steps: std::cell::Cell::new(PAIRING_STEPS),
        };
        let from = Link {
            touching: start & empty,
            cells: start,
            chain: false,
        };
        links
            .reach(from, 0, 0, with_key, &mut found)
            .then_some(found)
    }

    /// The place of `cell` among the moves of a position whose empty cells are `empty`.
    fn move_index(&self, cell: u8, empty: u128) -> usize {
        (self.earlier[usize::from(cell)] & empty).count_ones() as usize
    }

    /// The cell named `name` (benzene's: column letter, row number, as `c2`).
    pub fn cell(&self, name: &str) -> Result<u8, InputError> {
        cell_of(name, self.side, self.side, "hex")
    }

    /// The name of `cell` (`row * side + column`): its column's letter and its row from 1.
    pub fn cell_name(&self, cell: u8) -> String {
        name_of(u32::from(cell), self.side)
    }

    /// The same game started at `board` (the position of [`after_cells`](Hex::after_cells),
    /// say): its [`start`](Game::start), which every engine solves from, is `board`.
    ///
    /// ```
    /// use gamesolver::{games::Hex, Game, Solved, Solver};
    ///
    /// let hex = Hex::new(3)?;
    /// let after_a1 = hex.clone().starting_at(hex.after_cells("a1")?);
    /// assert_eq!(after_a1.start(), hex.after_cells("a1")?);
    /// assert_eq!(Solver::new(&after_a1).solve()?.value(), 1); // White, to move, wins
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn starting_at(self, board: HexBoard) -> Hex {
        Hex {
            opening: board,
            ..self
        }
    }

    /// The position after the cells named in `moves` (benzene's names, in the order played,
    /// separated by commas or spaces: `"a1,b3"`) are played from the start; a cell off
    /// the board, taken, or played after the game was won is refused by name.
    pub fn after_cells(&self, moves: &str) -> Result<HexBoard, InputError> {
        after_named(self, moves, |name| self.cell(name), HexBoard::is_won)
    }
}

/// How many steps [`Hex::pairing`]'s search may take before it gives up.
const PAIRING_STEPS: u32 = 256;

/// A pairing strategy ([`Hex::pairing`]): a key cell to take first, if any, and pairs of
/// cells to answer in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The cell the side to move takes first, where the strategy needs one.
    pub key: Option<u8>,
    /// The pairs: the opponent's stone on one cell of a pair is answered on the other.
    pub pairs: Vec<(u8, u8)>,
}

impl Pairing {
    /// The cells the strategy needs: its key and its pairs.
    pub fn cells(&self) -> u128 {
        self.pairs
            .iter()
            .fold(self.key.map_or(0, |key| 1 << key), |cells, &(a, b)| {
                cells | 1 << a | 1 << b
            })
    }
}

/// Where [`Hex::pairing`]'s search has got to: a chain, or the start edge before any.
#[derive(Clone, Copy)]
struct Link {
    /// The empty cells that touch it (of the start edge: its row's).
    touching: u128,
    /// Its stones (of the start edge: its row, which a chain touches by a stone there).
    cells: u128,
    /// Whether it is a chain (not the start edge).
    chain: bool,
}

/// [`Hex::pairing`]'s search: the chains of stones and the empty cells touching each, the
/// end edge, and the steps left.
struct Links<'a> {
    chains: &'a [u128],
    touching: &'a [u128],
    end: u128,
    steps: std::cell::Cell<u32>,
}

impl Links<'_> {
    /// Whether `at` (a chain, or the start edge) reaches the end edge through chains not in
    /// `visited` (a bit per chain), by direct contact, by pairs of empty cells not in `used`,
    /// or (once, where `may_key`) by one empty cell, the key, which the side to move takes at
    /// once; what it takes is put in `found` (and taken out again where a line fails).
    fn reach(
        &self,
        at: Link,
        visited: u64,
        used: u128,
        may_key: bool,
        found: &mut Pairing,
    ) -> bool {
        if self.steps.get() == 0 {
            return false;
        }
        self.steps.set(self.steps.get() - 1);
        // The end edge: a stone on its row, or free cells of its row touching `at`.
        if at.chain && at.cells & self.end != 0 {
            return true;
        }
        let to_end = at.touching & self.end & !used;
        if to_end.count_ones() >= 2 {
            found.pairs.push(lowest_two(to_end));
            return true;
        }
        if may_key && to_end != 0 {
            found.key = Some(to_end.trailing_zeros() as u8);
            return true;
        }
        for (index, &chain) in self.chains.iter().enumerate() {
            if visited >> index & 1 != 0 || index >= 64 {
                continue;
            }
            let next = Link {
                touching: self.touching[index],
                cells: chain,
                chain: true,
            };
            let visited = visited | 1 << index;
            // A chain on the start edge's row is joined to it directly.
            if at.cells & chain != 0 {
                if self.reach(next, visited, used, may_key, found) {
                    return true;
                }
                continue;
            }
            let common = at.touching & next.touching & !used;
            if common.count_ones() >= 2 {
                // The two lowest cells, and where there are more, the two highest too.
                let lowest = lowest_two(common);
                let highest = highest_two(common);
                let choices = if common.count_ones() > 2 {
                    [Some(lowest), Some(highest)]
                } else {
                    [Some(lowest), None]
                };
                for (first, second) in choices.into_iter().flatten() {
                    found.pairs.push((first, second));
                    let taken = used | 1 << first | 1 << second;
                    if self.reach(next, visited, taken, may_key, found) {
                        return true;
                    }
                    found.pairs.pop();
                }
            } else if may_key && common != 0 {
                let key = common.trailing_zeros() as u8;
                found.key = Some(key);
                if self.reach(next, visited, used | 1 << key, false, found) {
                    return true;
                }
                found.key = None;
            }
        }
        false
    }
}

/// The two highest cells of `cells` (which holds at least two).
fn highest_two(cells: u128) -> (u8, u8) {
    let first = 127 - cells.leading_zeros() as u8;
    let second = 127 - (cells & !(1 << first)).leading_zeros() as u8;
    (first, second)
}

/// The two lowest cells of `cells` (which holds at least two).
fn lowest_two(cells: u128) -> (u8, u8) {
    let first = cells.trailing_zeros() as u8;
    let second = (cells & (cells - 1)).trailing_zeros() as u8;
    (first, second)
}

/// The position after the moves named in `moves` (separated by commas or white space, in the
/// order played) from `game`'s start, each read by `cell`: a move that is not among the
/// position's moves is refused by name, as coming after the game was won (`won`) or as a cell
/// already taken (Hex's and k in a row's `--at`).
pub(super) fn after_named<G: Game<Move = M>, M: PartialEq>(
    game: &G,
    moves: &str,
    cell: impl Fn(&str) -> Result<M, InputError>,
    won: impl Fn(&G::State) -> bool,
) -> Result<G::State, InputError> {
    let mut board = game.start();
    let names = moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|name| !name.is_empty());
    for (count, name) in names.enumerate() {
        let cell = cell(name)?;
        if !game.moves(&board).any(|legal| legal == cell) {
            let why = if won(&board) {
                "comes after the game was won"
            } else {
                "is a cell already taken"
            };
            return Err(InputError::InvalidState(format!(
                "move {} of the moves, {name}, {why}",
                count + 1
            )));
        }
        board = game.play(&board, &cell).next;
    }
    Ok(board)
}

/// The cell `name` names on a board of `columns × rows`: a column letter from `a`, then a row
/// number from 1.
pub(super) fn cell_of(name: &str, columns: u32, rows: u32, game: &str) -> Result<u8, InputError> {
    let problem = || {
        InputError::InvalidState(format!(
            "'{name}' is not a cell of this {game} board: a cell is a column letter from a to {} \
             and a row number from 1 to {rows}, as 'b3'",
            char::from(b'a' + (columns - 1) as u8)
        ))
    };
    let mut chars = name.chars();
    let letter = chars.next().ok_or_else(problem)?.to_ascii_lowercase();
    let column = u32::from(letter).wrapping_sub(u32::from('a'));
    let row: u32 = chars.as_str().parse().map_err(|_| problem())?;
    if column >= columns || !(1..=rows).contains(&row) {
        return Err(problem());
    }
    u8::try_from((row - 1) * columns + column).map_err(|_| problem())
}

/// The name of `cell` on a board `columns` wide.
pub(super) fn name_of(cell: u32, columns: u32) -> String {
    let (row, column) = (cell / columns, cell % columns);
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

impl Game for Hex {
    type State = HexBoard;
    /// The cell to take, `row * side + column`.
    type Move = u8;

    fn start(&self) -> HexBoard {
        self.opening
    }

    fn moves(&self, board: &HexBoard) -> impl Iterator<Item = u8> {
        let empty = if board.won {
            0
        } else {
            self.all & !(board.black | board.white)
        };
        self.order
            .iter()
            .copied()
            .filter(move |&cell| empty >> cell & 1 != 0)
    }

    fn play(&self, board: &HexBoard, cell: &u8) -> Step<HexBoard> {
        let stone = 1u128 << cell;
        let next = if board.black_to_move() {
            let black = board.black | stone;
            HexBoard {
                black,
                white: board.white,
                won: self.joins(black, true),
            }
        } else {
            let white = board.white | stone;
            HexBoard {
                black: board.black,
                white,
                won: self.joins(white, false),
            }
        };
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// The game is over only when the side that just moved has joined its edges (a full
    /// board always holds a chain): the side to move has lost.
    fn payoff(&self, _board: &HexBoard) -> Score {
        -1
    }

    /// How many stones each side still needs ([`Hex::distance`]): the fewer the side to move
    /// needs, the cheaper its win looks to prove; the fewer the other side needs, the cheaper
    /// to disprove. (A draw never happens, so every question asks for a win.)
    fn proof_numbers(&self, board: &HexBoard, _at_least: Score) -> Option<(u64, u64)> {
        let (empty, black, mine, theirs) = self.sides(board);
        let need = |stones, black| {
            self.distance(stones, empty, black)
                .map_or(1 << 20, u64::from)
        };
        Some((need(mine, black), need(theirs, !black)))
    }

    /// Decided by pairing strategies ([`Hex::pairing`]): the side to move has won where it
    /// has one, with a key cell or without; the other side has won where it has one without
    /// a key, or several with keys and no cell (key or pair) in all of them, so that whatever
    /// the side to move plays, one of them is left whole. The witness has a group per strategy:
    /// its key, if any, then its pairs' cells, each pair's two in turn.
    fn decided(&self, board: &HexBoard) -> Option<Decided> {
        if board.won {
            return None;
        }
        let (empty, black, mine, theirs) = self.sides(board);
        let group = |pairing: &Pairing| -> Vec<usize> {
            pairing
                .key
                .into_iter()
                .chain(pairing.pairs.iter().flat_map(|&(a, b)| [a, b]))
                .map(|cell| self.move_index(cell, empty))
                .collect()
        };
        if let Some(pairing) = self.pairing(mine, empty, black, true) {
            return Some(Decided {
                value: 1,
                witness: vec![group(&pairing)],
            });
        }
        if let Some(pairing) = self.pairing(theirs, empty, !black, false) {
            return Some(Decided {
                value: -1,
                witness: vec![group(&pairing)],
            });
        }
        // Keyed pairings of the other side until no cell is in all of them: each new one
        // found without the first cell still in all (the side to move must play in every
        // one's cells, and cannot).
        let first = self.pairing(theirs, empty, !black, true)?;
        let mut common = first.cells();
        let mut witness = vec![group(&first)];
        while common != 0 {
            let cell = common & common.wrapping_neg();
            let next = self.pairing(theirs, empty & !cell, !black, true)?;
            common &= next.cells();
            witness.push(group(&next));
        }
        Some(Decided { value: -1, witness })
    }

    /// Verifies pairing strategies by the rules alone. Each group of the witness names
    /// distinct empty cells, a key (where the group is odd) and then pairs; with the key
    /// taken, the other side on every other empty cell and on one cell of each pair,
    /// whichever it is, the winner's stones join its edges (more stones never hurt a chain,
    /// so no play against the pairing does better). One group proves a win for the side to
    /// move, or a loss where it has no key (a key is taken by the side to move); several prove
    /// a loss where no cell is in all of them: whatever the side to move plays misses one,
    /// whose key the other side then takes.
    fn verify_decided(&self, board: &HexBoard, decided: &Decided) -> Result<(), String> {
        let moves: Vec<u8> = self.moves(board).collect();
        if decided.value.abs() != 1 {
            return Err(format!("a Hex value is 1 or -1, not {}", decided.value));
        }
        let mover_wins = decided.value == 1;
        let black = board.black_to_move() == mover_wins;
        let winner = if black { board.black } else { board.white };
        let cell = |index: usize| {
            moves
                .get(index)
                .map(|&cell| 1u128 << cell)
                .ok_or_else(|| format!("the witness names move {index} of {}", moves.len()))
        };
        match (decided.witness.len(), mover_wins) {
            (0, _) => return Err("the witness has no strategy".to_string()),
            (1, _) => {}
            (_, true) => return Err("a win of the side to move is one strategy".to_string()),
            (_, false) => {}
        }
        let mut common = self.all;
        for group in &decided.witness {
            // An odd group starts with a key.
            let (key, rest) = match group.split_first() {
                Some((&key, rest)) if group.len() % 2 == 1 => (cell(key)?, rest),
                _ => (0, &group[..]),
            };
            if key != 0 && decided.witness.len() == 1 && !mover_wins {
                return Err("a key of the side that does not move comes second".to_string());
            }
            let mut cells = key;
            let mut pairs = Vec::new();
            for two in rest.chunks(2) {
                let (a, b) = (cell(two[0])?, cell(two[1])?);
                if (a | b) & cells != 0 || a == b {
                    return Err("a strategy names a cell twice".to_string());
                }
                cells |= a | b;
                pairs.push((a, b));
            }
            if !self.holds_against(winner | key, &pairs, black) {
                return Err("the other side can break a pairing".to_string());
            }
            common &= cells;
        }
        if decided.witness.len() > 1 && common != 0 {
            return Err("a cell is in every strategy: a move there breaks them all".to_string());
        }
        Ok(())
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game().symmetry()
    }
}

impl Symmetry for Hex {
    /// The board turned half a turn (cell `i` to cell `side² − 1 − i`) keeps each side's
    /// edges: of a position and its turned image, the smaller.
    fn canonical(&self, board: &HexBoard) -> HexBoard {
        let turn = |stones: u128| stones.reverse_bits() >> (128 - self.side * self.side);
        let turned = HexBoard {
            black: turn(board.black),
            white: turn(board.white),
            won: board.won,
        };
        turned.min(*board)
    }
}

impl Hex {
    /// Of `board`: its empty cells, whether Black is to move, the stones of the side to move
    /// and the other side's.
    fn sides(&self, board: &HexBoard) -> (u128, bool, u128, u128) {
        let empty = self.all & !(board.black | board.white);
        let black = board.black_to_move();
        if black {
            (empty, black, board.black, board.white)
        } else {
            (empty, black, board.white, board.black)
        }
    }

    /// Whether `stones` join their edges (`black`: top and bottom) whichever cell of each of
    /// `pairs` they get, the other side taking every other cell: cut short where the stones
    /// join without the pairs left, or fail to even with all of them.
    fn holds_against(&self, stones: u128, pairs: &[(u128, u128)], black: bool) -> bool {
        let Some(((a, b), rest)) = pairs.split_first() else {
            return self.joins(stones, black);
        };
        if self.joins(stones, black) {
            return true;
        }
        let all_rest = rest.iter().fold(a | b, |cells, &(x, y)| cells | x | y);
        if !self.joins(stones | all_rest, black) {
            return false;
        }
        self.holds_against(stones | a, rest, black) && self.holds_against(stones | b, rest, black)
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli;

#[cfg(test)]
mod tests;
