//! Dots and Boxes on a grid of `rows × columns` boxes. A move draws one edge between adjacent
//! dots; a player who completes a box (its fourth edge) scores a point and moves again. The
//! value is the first player's boxes minus the second's.

use super::ranks::{BINOMIAL, colex_rank, colex_unrank};
use crate::error::InputError;
use crate::game::{Capabilities, Declares, DenseIndex, Game, Score, StateAt, Step, Tiered, Turn};

/// The most edges a board may have: the state is a 64-bit mask of drawn edges. (What a solve
/// can hold is set by the memory budget: the exhaustive engine's dense index space is
/// `2^edges`, the tier solver's largest tiers `C(edges, edges/2)` bytes each.)
pub const MAX_EDGES: u32 = 60;

/// A board of `rows × columns` boxes. Edges are numbered: first the horizontal ones, row by
/// row (`(rows + 1) × columns`), then the vertical ones, row by row (`rows × (columns + 1)`).
///
/// ```
/// use gamesolver::{engines::exhaustive, games::DotsAndBoxes, memo::DenseTable};
///
/// let game = DotsAndBoxes::new(1, 1).unwrap();
/// // One box: whoever draws the fourth edge takes it, and the second player draws it.
/// assert_eq!(exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap().value(), -1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotsAndBoxes {
    rows: u32,
    columns: u32,
    edges: u32,
    /// For each edge, the boxes it borders, as masks of their four edges (a second box of
    /// `u64::MAX`, never complete, for an edge on the border, and both for a bit past the
    /// last edge): one entry for each bit of a state, so that a look-up needs no bounds check
    /// (the tier solver's kernel makes one per move).
    borders: Box<[[u64; 2]; 64]>,
}

impl DotsAndBoxes {
    /// A board of `rows × columns` boxes: both at least 1, at most [`MAX_EDGES`] edges.
    ///
    /// ```
    /// use gamesolver::games::DotsAndBoxes;
    /// assert_eq!(DotsAndBoxes::new(3, 4).unwrap().edges(), 31);
    /// assert!(DotsAndBoxes::new(5, 6).is_err()); // 71 edges
    /// ```
    pub fn new(rows: i64, columns: i64) -> Result<Self, InputError> {
        for (position, value) in [(1, rows), (2, columns)] {
            if !(1..=12).contains(&value) {
                return Err(InputError::OutOfRange {
                    unit: "dimension",
                    position,
                    value,
                    rule: "the board needs 1 to 12 boxes per side",
                });
            }
        }
        let (rows, columns) = (rows as u32, columns as u32);
        let horizontal = (rows + 1) * columns;
        let edges = horizontal + rows * (columns + 1);
        if edges > MAX_EDGES {
            return Err(InputError::InvalidGame(format!(
                "a board of {rows} x {columns} boxes has {edges} edges, but boards may have at \
                 most {MAX_EDGES} edges (3 x 3 boxes have 24, 3 x 4 have 31, 5 x 5 have 60)"
            )));
        }
        let mut borders = Box::new([[u64::MAX; 2]; 64]);
        for row in 0..rows {
            for column in 0..columns {
                let top = row * columns + column;
                let bottom = (row + 1) * columns + column;
                let left = horizontal + row * (columns + 1) + column;
                let right = left + 1;
                let mask: u64 = (1 << top) | (1 << bottom) | (1 << left) | (1 << right);
                for edge in [top, bottom, left, right] {
                    let sides = &mut borders[edge as usize];
                    sides[usize::from(sides[0] != u64::MAX)] = mask;
                }
            }
        }
        Ok(DotsAndBoxes {
            rows,
            columns,
            edges,
            borders,
        })
    }

    /// Boxes per column and per row: `(rows, columns)`.
    pub fn size(&self) -> (u32, u32) {
        (self.rows, self.columns)
    }

    /// How many edges the board has.
    pub fn edges(&self) -> u32 {
        self.edges
    }

    /// Every edge drawn: the bitmask of the full board.
    #[inline]
    fn all(&self) -> u64 {
        u64::MAX >> (64 - self.edges)
    }

    /// The boxes that drawing `edge` completes when `next` is drawn (`edge` included).
    #[inline]
    fn completed(&self, next: u64, edge: u32) -> Score {
        let [first, second] = self.borders[edge as usize % 64];
        Score::from(next & first == first) + Score::from(next & second == second)
    }
}

impl Game for DotsAndBoxes {
    /// The drawn edges, one bit each.
    type State = u64;
    /// The edge to draw.
    type Move = u8;
    fn start(&self) -> u64 {
        0
    }
    fn moves(&self, drawn: &u64) -> impl Iterator<Item = u8> {
        (0..self.edges as u8).filter(move |edge| drawn & (1 << edge) == 0)
    }
    fn play(&self, drawn: &u64, edge: &u8) -> Step<u64> {
        let next = drawn | (1 << edge);
        let completed = self.completed(next, u32::from(*edge));
        Step {
            next,
            gain: completed,
            turn: if completed > 0 {
                Turn::Keep
            } else {
                Turn::Pass
            },
        }
    }
    /// Only the free edges, lowest first (as [`moves`](Game::moves) lists them), each found
    /// by clearing the lowest bit of the free set: no list, and no test of drawn edges.
    fn for_each_step(&self, drawn: &u64, mut each: impl FnMut(Step<u64>) -> bool) {
        let mut free = !drawn & self.all();
        while free != 0 {
            let edge = free.trailing_zeros();
            free &= free - 1;
            let next = drawn | (1 << edge);
            let completed = self.completed(next, edge);
            let turn = if completed > 0 {
                Turn::Keep
            } else {
                Turn::Pass
            };
            if !each(Step {
                next,
                gain: completed,
                turn,
            }) {
                return;
            }
        }
    }
    fn payoff(&self, _: &u64) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        Some(1 << self.edges)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().subset_index().tiers()
    }
}

/// A board's index is the set of edges *not* drawn, as a bitmask: every move draws one, so it
/// leads to a proper subset of the index ([`subset_index`](Capabilities::subset_index)), a
/// smaller one. The tier solver on one thread then values the boards from index 0 (every edge
/// drawn) up, as a hand-written sweep over bitmasks does; on more, blocks of boards whose high
/// edges not drawn are as many side by side.
impl DenseIndex for DotsAndBoxes {
    fn index_len(&self) -> usize {
        1 << self.edges
    }
    #[inline]
    fn index(&self, drawn: &u64) -> usize {
        // The edges not drawn (a board with a bit past the last edge gets an index past the
        // last, not another board's).
        (drawn ^ self.all()) as usize
    }
}

impl StateAt for DotsAndBoxes {
    #[inline]
    fn state_at(&self, index: usize) -> Option<u64> {
        let free = index as u64;
        (free <= self.all()).then_some(free ^ self.all())
    }
}

/// Tier `t`: the boards with `t` lines drawn, `C(edges, t)` of them, ranked in colex order
/// (the drawn edges `c₀ < c₁ < …` have rank `Σ C(cᵢ, i + 1)`). The rank of a board with one
/// more line follows from its own in a single pass over the edges, so
/// [`ranked_children`](Tiered::ranked_children) costs one table lookup per move.
impl Tiered for DotsAndBoxes {
    fn tier_count(&self) -> usize {
        self.edges as usize + 1
    }
    fn tier(&self, drawn: &u64) -> usize {
        drawn.count_ones() as usize
    }
    fn tier_len(&self, tier: usize) -> u64 {
        BINOMIAL[self.edges as usize][tier]
    }
    fn rank(&self, drawn: &u64) -> u64 {
        colex_rank(*drawn)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<u64> {
        colex_unrank(tier, rank, self.edges as usize)
    }
    #[inline]
    fn unrank_next(&self, tier: usize, rank: u64, previous: &u64) -> Option<u64> {
        if *previous == 0 {
            // Tier 0 holds the empty board alone.
            return self.unrank(tier, rank);
        }
        // Colex order is numeric order: the next larger mask with as many bits.
        let lowest = previous & previous.wrapping_neg();
        let carried = previous + lowest;
        // The bits that moved, shifted down to the bottom (`>> 2` and `/ lowest` as one shift:
        // a division per state cost as much as its moves' loads).
        let shift = lowest.trailing_zeros() + 2;
        let next = carried | (carried ^ previous).checked_shr(shift).unwrap_or(0);
        // Past the tier's last rank the next mask has a bit beyond the board's edges: tested
        // here rather than the rank against the tier's length (a table look-up per state).
        (next >> self.edges == 0).then_some(next)
    }
    fn tier_reach(&self) -> usize {
        1
    }
    fn value_bound(&self) -> Score {
        Score::from(self.rows * self.columns)
    }
    fn ranked_children(&self, drawn: &u64, mut each: impl FnMut(Score, Turn, usize, u64)) {
        let (drawn, tier) = (*drawn, drawn.count_ones() as usize + 1);
        // A new edge e with j drawn edges c_1 < … < c_j below it: those keep their terms
        // C(c_i, i) (`kept[j]`), e adds C(e, j + 1), the ones above move up a place and add
        // C(c_i, i + 1) instead (`moved[k] − moved[j]`, k drawn in all). Sums over the drawn
        // edges first, then only the free edges are visited, with no branch on whether an edge
        // is drawn (it mispredicted half the time).
        let (mut kept, mut moved) = (
            [0u64; MAX_EDGES as usize + 1],
            [0u64; MAX_EDGES as usize + 1],
        );
        let (mut bits, mut count) = (drawn, 0);
        while bits != 0 {
            let edge = bits.trailing_zeros() as usize;
            count += 1;
            kept[count] = kept[count - 1] + BINOMIAL[edge][count];
            moved[count] = moved[count - 1] + BINOMIAL[edge][count + 1];
            bits &= bits - 1;
        }
        let all_moved = moved[count];
        let mut free = !drawn & self.all();
        while free != 0 {
            let edge = free.trailing_zeros();
            free &= free - 1;
            let below = (drawn & ((1 << edge) - 1)).count_ones() as usize;
            let completed = self.completed(drawn | (1 << edge), edge);
            let turn = if completed > 0 {
                Turn::Keep
            } else {
                Turn::Pass
            };
            let rank = kept[below] + BINOMIAL[edge as usize][below + 1] + all_moved - moved[below];
            each(completed, turn, tier, rank);
        }
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli {
    //! Dots and Boxes: the VALUES are the rows and columns of boxes.

    use crate::InputError;
    use crate::games::DotsAndBoxes;
    use crate::{Score, Turn, engines::Ply};

    use crate::cli::args::SolverName;
    use crate::cli::model::{Answer, Entry, Failure, Fields, Line};
    use crate::cli::present::{Presented, Work, alice_or_bob};
    use crate::cli::registry::{Bundled, Engine, Reads, Solves};
    use crate::cli::serde_json;
    use crate::cli::solve::{distributed_report, tier_report};

    /// Dots and Boxes on the command line.
    pub const GAME: Bundled = Bundled::new(
        "dots-and-boxes",
        "Dots and Boxes: the VALUES are the rows and columns of boxes (3x3 has 24 edges; the tier solver solves 3x4, 31 edges)",
        Solves::Engine(Engine {
            reads: Reads::Integers { example: "2 3" },
            with: |values, task| task.with_tiers(&game(&values)?),
            check: |values, options, summary| summary.add_dense(&game(&values)?, options),
            fast: None,
            tiers: Some(|cli, values, limits| {
                let n = values.len();
                if cli.solver == SolverName::Distributed {
                    return distributed_report(cli, game(&values)?, (n, &values), limits);
                }
                tier_report(cli, &game(&values)?, (n, &values), limits)
            }),
            at: Some(
                "the lines drawn, each as ROW,COLUMN-ROW,COLUMN of its dots from 0,0 at the top left, separated by spaces (as '0,0-0,1 1,1-2,1')",
            ),
        }),
    );

    /// The board of `values`: rows and columns of boxes.
    fn game(values: &[i64]) -> Result<DotsAndBoxes, Failure> {
        match *values {
            [rows, columns] => Ok(DotsAndBoxes::new(rows, columns)?),
            _ => Err(Failure::Usage(format!(
                "dots-and-boxes takes two values, the rows and columns of boxes (as in \
             'gamesolver dots-and-boxes 2 3'); got {}",
                values.len()
            ))),
        }
    }

    /// The dots an edge joins, as (row, column) of the dot grid, counted from 0.
    fn edge_dots(game: &DotsAndBoxes, edge: u8) -> ((u32, u32), (u32, u32)) {
        let (rows, columns) = game.size();
        let edge = u32::from(edge);
        let horizontal = (rows + 1) * columns;
        if edge < horizontal {
            let (row, column) = (edge / columns, edge % columns);
            ((row, column), (row, column + 1))
        } else {
            let edge = edge - horizontal;
            let (row, column) = (edge / (columns + 1), edge % (columns + 1));
            ((row, column), (row + 1, column))
        }
    }

    impl Presented for DotsAndBoxes {
        /// Every set of the `E` edges is a rank, with a move per edge not drawn: `E · 2^(E − 1)`.
        fn tier_work(&self) -> Option<Work> {
            let edges = self.edges();
            Some(Work {
                moves: u64::from(edges).checked_shl(edges - 1)?,
                faster: None,
            })
        }
        /// 2×3 boxes: 17 edges, 1.1 million moves.
        fn tier_sample(&self) -> Option<Self> {
            DotsAndBoxes::new(2, 3).ok()
        }
        fn position(&self, position: &str) -> Result<u64, InputError> {
            let mut drawn = 0u64;
            for line in position
                .split(|c: char| c.is_whitespace() || c == ';')
                .filter(|line| !line.is_empty())
            {
                let edge = (0..self.edges() as u8)
                    .find(|edge| same_line(&self.move_name(&0, edge), line))
                    .ok_or_else(|| {
                        InputError::InvalidState(format!(
                            "{line:?} is not a line of this board: a line joins two neighbouring \
                         dots, written ROW,COLUMN-ROW,COLUMN from 0,0 at the top left (as \
                         0,0-0,1)"
                        ))
                    })?;
                drawn |= 1 << edge;
            }
            Ok(drawn)
        }
        fn show(&self, drawn: &u64) -> String {
            let (rows, columns) = self.size();
            let horizontal = (rows + 1) * columns;
            let is_drawn = |edge: u32| drawn & (1 << edge) != 0;
            let mut lines = Vec::new();
            for row in 0..=rows {
                let mut dots = String::from("+");
                for column in 0..columns {
                    dots.push_str(if is_drawn(row * columns + column) {
                        "---+"
                    } else {
                        "   +"
                    });
                }
                lines.push(dots);
                if row < rows {
                    let side = |column: u32| is_drawn(horizontal + row * (columns + 1) + column);
                    let mut sides = String::new();
                    for column in 0..=columns {
                        sides.push(if side(column) { '|' } else { ' ' });
                        if column < columns {
                            // A box with its four sides drawn is claimed (by whoever drew the last).
                            let claimed = side(column)
                                && side(column + 1)
                                && is_drawn(row * columns + column)
                                && is_drawn((row + 1) * columns + column);
                            sides.push_str(if claimed { " # " } else { "   " });
                        }
                    }
                    lines.push(sides);
                }
            }
            lines.push(
                "(dots are ROW,COLUMN from 0,0 at the top left; # is a claimed box)".to_string(),
            );
            lines.join("\n")
        }
        fn board(&self, drawn: &u64) -> Option<String> {
            Some(self.show(drawn))
        }
        fn view(&self, drawn: &u64) -> serde_json::Value {
            let (rows, columns) = self.size();
            let lines: Vec<_> = (0..self.edges() as u8)
                .filter(|edge| drawn >> edge & 1 == 1)
                .map(|edge| {
                    let ((r1, c1), (r2, c2)) = edge_dots(self, edge);
                    [[r1, c1], [r2, c2]]
                })
                .collect();
            serde_json::json!({
                "kind": "dots", "rows": rows, "columns": columns, "drawn": lines
            })
        }
        fn move_name(&self, _: &u64, edge: &u8) -> String {
            let ((r1, c1), (r2, c2)) = edge_dots(self, *edge);
            format!("{r1},{c1}-{r2},{c2}")
        }
        fn move_hint(&self) -> Option<&'static str> {
            Some("the line's two dots, ROW,COLUMN-ROW,COLUMN from 0,0 at the top left: 0,0-0,1")
        }
        fn legend(&self) -> Option<&'static str> {
            Some(
                "A line joins two neighbouring dots, each written (row,column) and counted from \
             (0,0), the top-left dot.",
            )
        }
        fn answer(&self, value: Score) -> Answer {
            Answer::Number(value)
        }
        fn headline(&self, value: Score) -> String {
            let (rows, columns) = self.size();
            format!(
                "Dots and Boxes on {rows}x{columns} boxes: the first player's boxes minus the \
             second's is {value} with both playing optimally."
            )
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = alice_or_bob(ply.player);
                    let ((r1, c1), (r2, c2)) = edge_dots(self, ply.mv);
                    let boxes = ply.gain;
                    let outcome = match (boxes, ply.turn) {
                        (0, _) => String::new(),
                        (1, Turn::Keep) => ", completing a box, and moves again".to_string(),
                        (_, _) => format!(", completing {boxes} boxes, and moves again"),
                    };
                    Entry {
                        player,
                        text: format!("{player} draws ({r1},{c1})-({r2},{c2}){outcome}"),
                        fields: Fields::new()
                            .with("from", vec![r1, c1])
                            .with("to", vec![r2, c2])
                            .with("boxes", boxes),
                    }
                })
                .collect()
        }
    }

    /// Whether `typed` names the line `name` (`R,C-R,C`), either way round, parentheses and spaces
    /// aside.
    fn same_line(name: &str, typed: &str) -> bool {
        let plain = |text: &str| -> String {
            text.chars()
                .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                .collect()
        };
        let typed = plain(typed);
        let reversed = name.split_once('-').map(|(a, b)| format!("{b}-{a}"));
        typed == name || reversed.is_some_and(|reversed| typed == reversed)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The forecast's unit: the moves the tier solver counts.
        #[test]
        fn the_declared_tier_work_is_what_the_tier_solver_counts() {
            for (rows, columns) in [(1, 1), (1, 2), (2, 2), (2, 3)] {
                let game = DotsAndBoxes::new(rows, columns).unwrap();
                let solved =
                    crate::engines::tiers::solve(&game, crate::engines::tiers::Options::new())
                        .unwrap();
                assert_eq!(game.tier_work().unwrap().moves, solved.stats().moves);
            }
        }
    }
}
