//! Cram's board arithmetic on one machine word of cells: `u64` where the board has at most 64
//! cells (every board of the published tables), `u128` past that. The same code serves both
//! ([`Word`]); a board's geometry ([`Board`]) holds its masks in the word it is played on.
//!
//! A set of cells is a word, bit `row · columns + column` per cell. The game's positions stay
//! `u128` ([`Cram`](super::Cram)'s state); a board of at most 64 cells does its splitting and its
//! canonical forms on `u64`, where a shift by the count of columns is one instruction.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr, Sub};

/// A word of cells: the operations the board's arithmetic uses, on `u64` and `u128`.
pub(super) trait Word:
    Copy
    + Eq
    + Ord
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Sub<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    fn count_ones(self) -> u32;
    fn reverse_bits(self) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    /// `self << by`, 0 where `by` is the word's width or more.
    fn up(self, by: u32) -> Self;
    /// `self >> by`, 0 where `by` is the word's width or more.
    fn down(self, by: u32) -> Self;
    fn widen(self) -> u128;
    /// The word as an index (its value fits: a row of a board no wider than the table).
    fn index(self) -> usize;
}

macro_rules! word {
    ($word:ty) => {
        impl Word for $word {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$word>::BITS;
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$word>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$word>::leading_zeros(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$word>::count_ones(self)
            }
            #[inline(always)]
            fn reverse_bits(self) -> Self {
                <$word>::reverse_bits(self)
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$word>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$word>::wrapping_neg(self)
            }
            #[inline(always)]
            fn up(self, by: u32) -> Self {
                self.checked_shl(by).unwrap_or(0)
            }
            #[inline(always)]
            fn down(self, by: u32) -> Self {
                self.checked_shr(by).unwrap_or(0)
            }
            #[inline(always)]
            fn widen(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn index(self) -> usize {
                self as usize
            }
        }
    };
}

word!(u64);
word!(u128);

/// A board's geometry in the word `W`: its masks, and the table that turns a row into a column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Board<W> {
    rows: u32,
    columns: u32,
    /// The cells not in the last column (a domino across starts there).
    across: W,
    /// The cells of the first column.
    first: W,
    /// The cells of the first row.
    row_mask: W,
    /// A row's cells (bits `0..columns`, up to the count of rows) set down the first column
    /// instead: `transposed[row]` has bit `column · columns` for each bit `column` of `row`.
    transposed: Box<[W]>,
}

impl<W: Word> Board<W> {
    /// The geometry of a `rows × columns` board, which fits `W`.
    pub(super) fn new(rows: usize, columns: usize) -> Self {
        let (rows, columns) = (rows as u32, columns as u32);
        let board = W::ONE.up(rows * columns).wrapping_add(!W::ZERO);
        let row_mask = W::ONE.up(columns).wrapping_add(!W::ZERO);
        let mut first = W::ZERO;
        for row in 0..rows {
            first |= W::ONE << (row * columns);
        }
        let last = first << (columns - 1);
        let mut transposed = vec![W::ZERO; 1 << rows.min(columns)];
        for row in 1..transposed.len() {
            let column = row.trailing_zeros();
            transposed[row] = transposed[row & (row - 1)] | W::ONE << (column * columns);
        }
        Board {
            rows,
            columns,
            across: board & !last,
            first,
            row_mask,
            transposed: transposed.into_boxed_slice(),
        }
    }

    /// The cells of `cells` with an empty cell to their right.
    #[inline(always)]
    fn right(&self, cells: W) -> W {
        cells & (cells >> 1) & self.across
    }

    /// The cells of `cells` with an empty cell below them.
    #[inline(always)]
    fn below(&self, cells: W) -> W {
        cells & cells.down(self.columns)
    }

    /// The cells that a domino could still cover: the empty cells with an empty cell beside
    /// them (across or down).
    #[inline(always)]
    pub(super) fn live(&self, empty: W) -> W {
        let right = self.right(empty);
        let below = self.below(empty);
        (right | (right << 1) | below | below.up(self.columns)) & empty
    }

    /// The cells of `cells` with a neighbour in `cells` to their left.
    #[inline(always)]
    fn left(&self, cells: W) -> W {
        cells & ((cells & self.across) << 1)
    }

    /// The cells of `cells` with a neighbour in `cells` above them.
    #[inline(always)]
    fn above(&self, cells: W) -> W {
        cells & cells.up(self.columns)
    }

    /// `cells` with cells taken away that change no nimber (each rule below holds on any graph
    /// of cells, where a move takes two joined cells; a *tuft* is a cell with one neighbour,
    /// its *centre*):
    ///
    /// - **extra tufts**: of the tufts of one centre, all but one. A domino on a tuft covers
    ///   its centre and leaves the centre's other tufts alone (cells without a neighbour), so
    ///   covering one tuft or another leaves the same game, and a move that covers neither
    ///   leaves them tufts of the same centre.
    /// - **bridges**: a cell `b`, not a tuft, whose every neighbour is a centre. The board with
    ///   `b` (`G`) and without it (`G'`) sum to 0: the second player copies every move in the
    ///   other game, and answers a domino `b`–`c` in `G` with `c`–`t` in `G'` (`t` a tuft of
    ///   `c`, still empty: only a domino with `c` covers it). Both games are then `G` less `b`
    ///   and `c`, `t` left alone in one of them (without a neighbour, it changes nothing).
    ///
    /// Taken together: an extra tuft is no neighbour of a bridge, and taking either away
    /// leaves every centre a centre.
    pub(super) fn reduced(&self, cells: W) -> W {
        let (extra, bridges) = self.taken(cells);
        cells & !extra & !bridges
    }

    /// The extra tufts and the bridges of `cells` (`reduced`).
    fn taken(&self, cells: W) -> (W, W) {
        let columns = self.columns;
        let (right, left) = (self.right(cells), self.left(cells));
        let (below, above) = (self.below(cells), self.above(cells));
        let two = (right & (left | below | above)) | (left & (below | above)) | (below & above);
        let tufts = (right | left | below | above) & !two;
        if tufts == W::ZERO {
            return (W::ZERO, W::ZERO);
        }
        // The centres met so far; a tuft whose centre was met is dropped.
        let mut met = (tufts & below).up(columns);
        let mut dropped = W::ZERO;
        let centres = (tufts & right) << 1;
        dropped |= (centres & met) >> 1;
        met |= centres;
        let centres = (tufts & above).down(columns);
        dropped |= (centres & met).up(columns);
        met |= centres;
        let centres = (tufts & left) >> 1;
        dropped |= (centres & met) << 1;
        met |= centres;
        // Neither tuft nor centre, and no neighbour of that kind: a bridge (a cell next to a
        // tuft is its centre, so a bridge's neighbours are centres).
        let others = cells & !(tufts | met);
        let bridges = others
            & !(self.right(others) | self.left(others) | self.below(others) | self.above(others));
        (dropped, bridges)
    }

    /// The cells of `cells` whose link to the cell on their right can be cut without changing
    /// the nimber: the links across of a square of four cells, one corner of which has no
    /// neighbour outside the square on its two outer sides, and the opposite corner none on
    /// its two. Say the square is `x y / z w` with `x` and `w` closed outside. A domino `x`–`y`
    /// and a domino `y`–`w` leave the same game up to the name of a tuft of `z` (`w` in one,
    /// `x` in the other); `z`–`w` and `x`–`z` likewise (a tuft of `y`). So the options across
    /// are worth what the options down are, and by induction the board with the links across
    /// cut is worth the board with them (a move outside keeps the square's shape; one that
    /// takes `y` or `z` with an outside cell leaves two tufts of one centre where the cut
    /// board has one, the same nimber). The closed corners may be `y` and `z` instead (the
    /// mirror image). The squares' cuts never share a link, so all are cut at once.
    fn cuts(&self, cells: W) -> W {
        let columns = self.columns;
        let (right, left) = (self.right(cells), self.left(cells));
        let (below, above) = (self.below(cells), self.above(cells));
        // The squares' top left corners.
        let square = right & below & (below >> 1);
        let closed_top_left = cells & !left & !above;
        let closed_bottom_right = cells & !right & !below;
        let closed_top_right = cells & !above & !right;
        let closed_bottom_left = cells & !left & !below;
        let corners = square
            & ((closed_top_left & closed_bottom_right.down(columns + 1))
                | ((closed_top_right >> 1) & closed_bottom_left.down(columns)));
        corners | corners.up(columns)
    }

    /// The region of `cells` that holds `seed`'s cells, through the links of `runs` (cells
    /// joined to the cell on their right) and every link down: grown until it holds every
    /// cell joined to them.
    #[inline]
    fn region(&self, cells: W, seed: W, runs: W) -> W {
        let mut region = seed;
        loop {
            // Rightwards along whole runs at once: adding a run's cells in the region to the
            // run carries up from the lowest of them to the run's end, clearing what it passes
            // and setting the cell past the end (the run's last cell, where it is one).
            let carried = runs.wrapping_add(region & runs);
            let grown = (region
                | (runs & !carried)
                | (carried & !runs)
                | ((region >> 1) & runs)
                | region.up(self.columns)
                | region.down(self.columns))
                & cells;
            // Every cell reached (the common case: a domino seldom cuts a region), or no more.
            if grown == cells || grown == region {
                return grown;
            }
            region = grown;
        }
    }

    /// Row `at` of a shape placed at the board's top left.
    #[inline(always)]
    fn row(&self, shape: W, at: u32) -> W {
        shape.down(at * self.columns) & self.row_mask
    }

    /// `shape` (placed at the board's top left, `height` rows of `width` cells) turned half
    /// round: reversing the word's bits turns it about the word's middle, and the shift brings
    /// it back to the top left.
    #[inline(always)]
    fn half_turn(&self, shape: W, height: u32, width: u32) -> W {
        shape.reverse_bits() >> (W::BITS - ((height - 1) * self.columns + width))
    }

    /// The columns that `shape` (its top row at the board's top) holds a cell in, as the bits
    /// of one row, and its count of rows.
    #[inline]
    pub(super) fn spread(&self, shape: W) -> (W, u32) {
        let (mut spread, mut height) = (W::ZERO, 0);
        let mut rest = shape;
        while rest != W::ZERO {
            spread |= rest & self.row_mask;
            height += 1;
            rest = rest.down(self.columns);
        }
        (spread, height)
    }

    /// The representative of a region among its mirror images (and, where they fit the
    /// board, its transposes), moved to the top left corner: the smallest as a number.
    pub(super) fn canonical(&self, region: W) -> W {
        if region == W::ZERO {
            return region;
        }
        let columns = self.columns;
        let top = region.trailing_zeros() / columns;
        let shape = region >> (top * columns);
        // One pass over the rows: the columns they use, how many, and the rows bottom up.
        let (mut spread, mut height, mut down) = (W::ZERO, 0, W::ZERO);
        let mut rest = shape;
        while rest != W::ZERO {
            let row = rest & self.row_mask;
            spread |= row;
            down = down.up(columns) | row;
            height += 1;
            rest = rest.down(columns);
        }
        let left = spread.trailing_zeros();
        let width = W::BITS - spread.leading_zeros() - left;
        // Its rows from the board's top left: a region moved left and up whole (no cell of one
        // row crosses into another: each lies at or right of the region's left edge).
        let (shape, down) = (shape >> left, down >> left);
        let across = self.half_turn(down, height, width);
        let mut best = shape
            .min(down)
            .min(across)
            .min(self.half_turn(shape, height, width));
        if width <= self.rows && height <= columns {
            // Transposed, and transposed after the flip across (the transpose flipped down).
            let (mut turned, mut turned_down) = (W::ZERO, W::ZERO);
            for at in 0..height {
                turned |= self.transposed[self.row(shape, at).index()] << at;
                turned_down |= self.transposed[self.row(across, at).index()] << at;
            }
            best = best
                .min(turned)
                .min(turned_down)
                .min(self.half_turn(turned, width, height))
                .min(self.half_turn(turned_down, width, height));
        }
        best
    }

    /// Appends the regions of `empty` to `parts`, each `reduced` and in its canonical form,
    /// the links of `cuts` cut (a region they cut in two is reduced and split again).
    pub(super) fn split(&self, empty: W, parts: &mut Vec<u128>) {
        let cells = self.reduced(self.live(empty));
        let cut = self.cuts(cells);
        let runs = cells & self.across & !cut;
        let mut rest = cells;
        while rest != W::ZERO {
            let region = self.region(rest, rest & rest.wrapping_neg(), runs);
            rest &= !region;
            if cut == W::ZERO || region == cells {
                parts.push(self.canonical(region).widen());
            } else {
                self.split(region, parts);
            }
        }
    }

    /// Whether `region` (at the board's top left, as `split` gives its parts) is its own half
    /// turn, with no cell and no domino its own image.
    pub(super) fn mirrors_itself(&self, region: W) -> bool {
        // Its cells pair off with their images: an odd count cannot.
        if region == W::ZERO || region.count_ones() % 2 == 1 {
            return false;
        }
        let (spread, height) = self.spread(region);
        let width = W::BITS - spread.leading_zeros();
        if self.half_turn(region, height, width) != region {
            return false;
        }
        // The middle: a cell that is its own image (both sides odd), or two cells side by side
        // that are each other's (one side odd, the other even).
        let cell =
            |row: u32, column: u32| region.down(row * self.columns + column) & W::ONE == W::ONE;
        match (height % 2, width % 2) {
            (1, 1) => !cell(height / 2, width / 2),
            (1, 0) => !(cell(height / 2, width / 2 - 1) && cell(height / 2, width / 2)),
            (0, 1) => !(cell(height / 2 - 1, width / 2) && cell(height / 2, width / 2)),
            _ => true,
        }
    }

    /// The first column's cells.
    pub(super) fn first_column(&self) -> W {
        self.first
    }

    /// The first row's cells.
    pub(super) fn first_row(&self) -> W {
        self.row_mask
    }
}

#[cfg(test)]
mod tests {
    use super::Board;
    use std::collections::HashMap;

    /// The nimber of `empty` over Cram's literal rules on a `rows × columns` board, never split.
    fn mex_of(rows: u32, columns: u32, empty: u128, memo: &mut HashMap<u128, u32>) -> u32 {
        if let Some(&nimber) = memo.get(&empty) {
            return nimber;
        }
        let mut seen = 0u128;
        for cell in 0..rows * columns {
            let here = 1u128 << cell;
            if empty & here == 0 {
                continue;
            }
            if cell % columns + 1 < columns && empty & here << 1 != 0 {
                seen |= 1 << mex_of(rows, columns, empty & !(here | here << 1), memo);
            }
            if cell / columns + 1 < rows && empty & here << columns != 0 {
                seen |= 1 << mex_of(rows, columns, empty & !(here | here << columns), memo);
            }
        }
        let nimber = seen.trailing_ones();
        memo.insert(empty, nimber);
        nimber
    }

    /// Random positions of boards up to 25 cells: the XOR of the parts' nimbers is the
    /// position's, on 64 and 128 bits alike, and the rules that take cells away (bridges) and
    /// cut links (closed squares) are met many times on the way.
    #[test]
    fn the_parts_are_worth_the_whole_board() {
        let mut state = 0x5EED_u64;
        let mut random = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let (mut cut, mut bridged) = (0, 0);
        for (rows, columns) in [(3, 7), (4, 5), (5, 5), (4, 6), (6, 4), (2, 9)] {
            let narrow = Board::<u64>::new(rows, columns);
            let wide = Board::<u128>::new(rows, columns);
            let (rows, columns) = (rows as u32, columns as u32);
            let board = (1u128 << (rows * columns)) - 1;
            let mut memo = HashMap::new();
            for _ in 0..400 {
                // Fill about three cells in eight.
                let filled = random() & (random() | random());
                let empty = board & !u128::from(filled);
                let (mut parts, mut wide_parts) = (Vec::new(), Vec::new());
                narrow.split(empty as u64, &mut parts);
                wide.split(empty, &mut wide_parts);
                assert_eq!(parts, wide_parts);
                let xor = parts
                    .iter()
                    .fold(0, |xor, &part| xor ^ mex_of(rows, columns, part, &mut memo));
                assert_eq!(xor, mex_of(rows, columns, empty, &mut memo), "{empty:#b}");
                let live = wide.live(empty);
                let reduced = wide.reduced(live);
                if wide.cuts(reduced) != 0 {
                    cut += 1;
                }
                if wide.taken(live).1 != 0 {
                    bridged += 1;
                }
            }
        }
        assert!(cut > 400 && bridged > 300, "{cut} cut, {bridged} bridged");
    }
}
