//! Connect Four's board on the command line: its size from `--width` and `--height`, and what
//! differs between boards of 64 bits and of 128 (how the rules are made, and the tier solvers,
//! which take 64-bit boards only).

use crate::InputError;
use crate::Limits;
use crate::check::{CheckOptions, check_ranged};
use crate::games::{Bitboard, ConnectFour};

use crate::cli::args::Cli;
use crate::cli::model::{CheckSummary, Failure, Report};
use crate::cli::solve::{distributed_report, tier_report};

/// The board that `--width` and `--height` give (7×6 by default).
fn size(cli: &Cli) -> (usize, usize) {
    (
        cli.width.map_or(7, usize::from),
        cli.height.map_or(6, usize::from),
    )
}

/// Whether the board fits 64-bit words (else it takes 128-bit ones, [`ConnectFour::wide`]).
pub(super) fn narrow(cli: &Cli) -> bool {
    let (width, height) = size(cli);
    width.saturating_mul(height + 1) <= 64
}

/// The rules on the board that `--width` and `--height` give, in words of type `B`.
pub(super) fn game<B: Bitboard>(cli: &Cli) -> Result<ConnectFour<B>, Failure>
where
    ConnectFour<B>: Board,
{
    let (width, height) = size(cli);
    Ok(<ConnectFour<B> as Board>::make(width, height)?)
}

/// What differs between boards of 64 and of 128 bits: how the rules are made, and the solvers
/// that rank positions into tiers (on 64 bits only: a tier of a larger board is beyond any
/// memory).
pub(super) trait Board: Sized {
    /// The rules on a `width × height` board.
    fn make(width: usize, height: usize) -> Result<Self, InputError>;
    /// The tier solver's report, with its positions of `stones` stones.
    fn tiers(cli: &Cli, game: &Self, stones: usize, limits: Limits) -> Result<Report, Failure>;
    /// The distributed tier solver's report.
    fn distributed(cli: &Cli, game: Self, stones: usize, limits: Limits)
    -> Result<Report, Failure>;
}

impl Board for ConnectFour<u64> {
    fn make(width: usize, height: usize) -> Result<Self, InputError> {
        ConnectFour::new(width, height)
    }
    fn tiers(cli: &Cli, game: &Self, stones: usize, limits: Limits) -> Result<Report, Failure> {
        tier_report(cli, game, (stones, &[]), limits)
    }
    fn distributed(
        cli: &Cli,
        game: Self,
        stones: usize,
        limits: Limits,
    ) -> Result<Report, Failure> {
        // Connect Four refuses --save before this: its tables hold bounds, not values.
        distributed_report(cli, game, (stones, &[]), limits)
    }
}

impl Board for ConnectFour<u128> {
    fn make(width: usize, height: usize) -> Result<Self, InputError> {
        ConnectFour::wide(width, height)
    }
    fn tiers(_: &Cli, game: &Self, _: usize, _: Limits) -> Result<Report, Failure> {
        Err(no_tiers(game))
    }
    fn distributed(_: &Cli, game: Self, _: usize, _: Limits) -> Result<Report, Failure> {
        Err(no_tiers(&game))
    }
}

/// Why a board past 64 bits has no tier solver.
fn no_tiers(game: &ConnectFour<u128>) -> Failure {
    Failure::Usage(format!(
        "the tier solvers take Connect Four boards of up to 64 bits (width × (height + 1)); \
         {}x{} takes {}: use --solver alphabeta (or auto)",
        game.width(),
        game.height(),
        game.width() * (game.height() + 1)
    ))
}

/// `check`: the checker on the rules, in the words the board needs.
pub(super) fn check(
    cli: &Cli,
    options: &CheckOptions,
    summary: &mut CheckSummary,
) -> Result<(), Failure> {
    if narrow(cli) {
        summary.add_report(&check_ranged(&game::<u64>(cli)?, options))
    } else {
        summary.add_report(&check_ranged(&game::<u128>(cli)?, options))
    }
}
