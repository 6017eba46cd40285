//! Sliding k in a row, a game whose play cycles: on an `n × n` board each side places `n` men
//! in turn, then moves one of its men to a neighbouring empty cell (any of the eight); the first
//! to have `n` men in a row (a row, a column or a long diagonal) wins, and a side that cannot
//! move loses. On 3×3 this is Three Men's Morris with diagonal moves. Written as a newcomer
//! writes it: both sides' men and whether the last move made a row in the state; declared an
//! outcome game that may cycle (endless play is a draw).

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn};

/// The sliding game on an `n × n` board.
#[derive(Debug, Clone)]
pub struct Slide {
    /// The board's side (3 to 5), and each side's men.
    pub n: u32,
    /// Every winning row, as a mask.
    rows: Vec<u32>,
}

/// A position: the men of the side to move and of the other side (bit `row * n + column`), and
/// whether the other side's last move made a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Men {
    /// The side to move's men.
    pub mine: u32,
    /// The other side's.
    pub theirs: u32,
    /// Whether the other side has a row.
    pub lost: bool,
}

/// A move: a man placed on a cell, or moved from one cell to a neighbouring one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slip {
    /// Where the man comes from; `None` while men are placed.
    pub from: Option<u8>,
    /// Where it goes.
    pub to: u8,
}

impl Slide {
    /// The game on an `n × n` board.
    pub fn new(n: u32) -> Self {
        assert!((3..=5).contains(&n));
        let cell = |r: u32, c: u32| 1u32 << (r * n + c);
        let mut rows = Vec::new();
        for i in 0..n {
            rows.push((0..n).fold(0, |row, j| row | cell(i, j)));
            rows.push((0..n).fold(0, |row, j| row | cell(j, i)));
        }
        rows.push((0..n).fold(0, |row, j| row | cell(j, j)));
        rows.push((0..n).fold(0, |row, j| row | cell(j, n - 1 - j)));
        Slide { n, rows }
    }

    fn neighbours(&self, cell: u32) -> impl Iterator<Item = u32> + use<> {
        let n = self.n as i32;
        let (row, column) = (cell as i32 / n, cell as i32 % n);
        (-1..=1)
            .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
            .filter(|&d| d != (0, 0))
            .map(move |(dr, dc)| (row + dr, column + dc))
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < n && c < n)
            .map(move |(r, c)| (r * n + c) as u32)
    }
}

impl Game for Slide {
    type State = Men;
    type Move = Slip;

    fn start(&self) -> Men {
        Men {
            mine: 0,
            theirs: 0,
            lost: false,
        }
    }

    fn moves(&self, men: &Men) -> impl Iterator<Item = Slip> {
        let men = *men;
        let cells = self.n * self.n;
        let empty = move |cell: u32| (men.mine | men.theirs) >> cell & 1 == 0;
        let placing = men.mine.count_ones() < self.n;
        // Every cell with every neighbour: a placement is the pair (cell, cell).
        (0..cells)
            .flat_map(move |from| {
                self.neighbours(from)
                    .chain(std::iter::once(from))
                    .map(move |to| (from, to))
            })
            .filter(move |&(from, to)| {
                !men.lost
                    && empty(to)
                    && if placing {
                        from == to
                    } else {
                        from != to && men.mine >> from & 1 != 0
                    }
            })
            .map(move |(from, to)| Slip {
                from: (!placing).then_some(from as u8),
                to: to as u8,
            })
    }

    fn play(&self, men: &Men, slip: &Slip) -> Step<Men> {
        let lifted = slip.from.map_or(0, |from| 1u32 << from);
        let mine = (men.mine & !lifted) | 1 << slip.to;
        Step {
            next: Men {
                mine: men.theirs,
                theirs: mine,
                lost: self.rows.iter().any(|&row| row & !mine == 0),
            },
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// Lost: the other side made a row, or the side to move is blocked.
    fn payoff(&self, _men: &Men) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game().may_cycle()
    }
}

/// The literal rules on a grid of `0`, `1` and `2` (whose men), every position reachable from
/// the empty board listed, then valued by repeated sweeps until nothing changes: a position is
/// won if a move makes a row or leads to a lost position, lost if it has no move or every move
/// leads to a won one; what never settles is a draw. Returns the start's value for the first
/// player (1, 0 or −1).
pub fn by_hand(n: usize) -> Score {
    type Grid = Vec<u8>;
    let row_of = |grid: &Grid, who: u8| {
        let at = |r: usize, c: usize| grid[r * n + c] == who;
        (0..n).any(|i| (0..n).all(|j| at(i, j)) || (0..n).all(|j| at(j, i)))
            || (0..n).all(|j| at(j, j))
            || (0..n).all(|j| at(j, n - 1 - j))
    };
    // The positions after each move, with whether the move made a row.
    let children = |grid: &Grid, me: u8| -> Vec<(Grid, bool)> {
        let mut out = Vec::new();
        let placed = grid.iter().filter(|&&c| c == me).count();
        for to in 0..n * n {
            if grid[to] != 0 {
                continue;
            }
            if placed < n {
                let mut next = grid.clone();
                next[to] = me;
                let won = row_of(&next, me);
                out.push((next, won));
                continue;
            }
            for from in 0..n * n {
                let (dr, dc) = (
                    (to / n) as i32 - (from / n) as i32,
                    (to % n) as i32 - (from % n) as i32,
                );
                if grid[from] == me && dr.abs() <= 1 && dc.abs() <= 1 {
                    let mut next = grid.clone();
                    next[from] = 0;
                    next[to] = me;
                    let won = row_of(&next, me);
                    out.push((next, won));
                }
            }
        }
        out
    };
    // Positions are (grid, side to move); a won position is never entered (the game ends).
    let mut index = std::collections::HashMap::new();
    let mut positions: Vec<(Grid, u8)> = vec![(vec![0; n * n], 1)];
    index.insert(positions[0].clone(), 0usize);
    let mut edges: Vec<Vec<Option<usize>>> = Vec::new();
    let mut i = 0;
    while i < positions.len() {
        let (grid, me) = positions[i].clone();
        let mut out = Vec::new();
        for (next, won) in children(&grid, me) {
            if won {
                out.push(None);
                continue;
            }
            let key = (next, 3 - me);
            let id = *index.entry(key.clone()).or_insert_with(|| {
                positions.push(key);
                positions.len() - 1
            });
            out.push(Some(id));
        }
        edges.push(out);
        i += 1;
    }
    let mut value = vec![0i8; positions.len()];
    loop {
        let mut changed = false;
        for p in 0..positions.len() {
            if value[p] != 0 {
                continue;
            }
            let outcomes: Vec<i8> = edges[p]
                .iter()
                .map(|child| child.map_or(1, |c| -value[c]))
                .collect();
            let settled = if outcomes.contains(&1) {
                1
            } else if outcomes.iter().all(|&o| o == -1) {
                -1
            } else {
                0
            };
            if settled != 0 {
                value[p] = settled;
                changed = true;
            }
        }
        if !changed {
            return Score::from(value[0]);
        }
    }
}
