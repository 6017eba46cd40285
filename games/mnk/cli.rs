//! The m,n,k-game on the command line: `gamesolver mnk M N K`, positions as the moves played
//! (`analyze mnk 4 4 4 --at b2,c3`).

use crate::InputError;
use crate::cli::present::Presented;
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};
use crate::games::hex::cli::{CELL_HINT, Stones, colour_from, from_words, mover_of};
use crate::games::{Mnk, MnkBoard};
use crate::{Game, Player, Score};

/// The m,n,k-game on the command line.
pub const GAME: Bundled = Bundled::game::<Mnk>(
    "mnk",
    "k in a row on an M x N board (M columns, N rows, K in a row wins; Go-Moku is 15 15 5); \
     --at takes the moves played (b2,c3)",
);

impl FromValues for Mnk {
    const EXAMPLE: &'static str = "4 3 3";
    const POSITION: Option<&'static str> = Some(
        "the moves played from the empty board, in order: a column letter and a row number \
         from the top ('b2,c3')",
    );
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let size = |value: i64| u32::try_from(value).unwrap_or(0);
        match values {
            [columns, rows, k] => Mnk::new(size(*columns), size(*rows), size(*k)),
            _ => Err(InputError::InvalidGame(format!(
                "mnk takes three VALUES, M columns, N rows and K in a row, not {}",
                values.len()
            ))),
        }
    }
    /// A solve's `--at`: the moves played, in order, and the game started there.
    fn at_position(self, position: &str) -> Result<Self, InputError> {
        let board = self.after_cells(position)?;
        Ok(self.starting_at(board))
    }
}

/// The stone on `cell`: `B`, `W`, or `.` for none.
fn mark(board: &MnkBoard, cell: u32) -> &'static str {
    if board.black_at(cell) {
        "B"
    } else if board.white_at(cell) {
        "W"
    } else {
        "."
    }
}

impl Mnk {
    /// The board as [`Stones`] describe it.
    fn stones<'a>(
        &'a self,
        board: &'a MnkBoard,
    ) -> Stones<impl Fn(u32) -> &'static str + 'a, impl Fn(u32) -> String + 'a> {
        let (columns, rows, _) = self.size();
        Stones {
            columns,
            rows,
            hex: false,
            black_to_move: board.black_to_move(),
            mark: move |cell| mark(board, cell),
            name: move |cell| self.cell_name(cell as u16),
        }
    }
}

impl Presented for Mnk {
    fn player_name(&self, player: Player) -> &'static str {
        colour_from(player, self.start().black_to_move())
    }
    fn mover(&self, board: &MnkBoard) -> Player {
        mover_of(board.black_to_move(), self.start().black_to_move())
    }
    fn position(&self, position: &str) -> Result<MnkBoard, InputError> {
        self.after_cells(position)
    }
    fn show(&self, board: &MnkBoard) -> String {
        self.stones(board).text()
    }
    fn board(&self, board: &MnkBoard) -> Option<String> {
        Some(self.show(board))
    }
    fn view(&self, board: &MnkBoard) -> serde_json::Value {
        self.stones(board).view()
    }
    fn move_name(&self, _: &MnkBoard, cell: &u16) -> String {
        self.cell_name(*cell)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some(CELL_HINT)
    }
    fn headline(&self, value: Score) -> String {
        let (columns, rows, k) = self.size();
        let start = self.start();
        let result = match value.signum() {
            1 => format!("{} wins", self.player_name(Player::First)),
            -1 => format!("{} wins", self.player_name(Player::Second)),
            _ => "a draw".to_string(),
        };
        let from = from_words(start == MnkBoard::default(), start.black_to_move());
        format!("{k} in a row on {columns}x{rows} {from}: {result} with both playing optimally.")
    }
}
