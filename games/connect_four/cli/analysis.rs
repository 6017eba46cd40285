//! `gamesolver analyze connect-four`: every column's score at the position (its VALUE, then
//! `--after`'s columns), in the shape every game's analysis has (`analyze --json`: the value,
//! each move by name with its value and remoteness, the players and the view), so the page
//! draws Connect Four as it draws any game whose moves drop into columns.

use crate::SolveError;
use crate::games::{Bitboard, ConnectFour, Position};
use crate::{Game, Score};

use super::board::{Board, game, narrow};
use super::{alphabeta, position_text, pruning_threads, read};
use crate::cli::args::AnalyzeArgs;
use crate::cli::budget::limits;
use crate::cli::model::{Failure, Fields, Moves, Valued};
use crate::cli::present::{Presented, after_moves, scene};
use crate::cli::serde_json;

/// Every column's score at the position, best first: the pruning engine, as the solve runs it.
pub fn analyze(args: &AnalyzeArgs) -> Result<Moves, Failure> {
    if narrow(&args.game) {
        analyze_on::<u64>(args)
    } else {
        analyze_on::<u128>(args)
    }
}

/// [`analyze`] on words of type `B`.
fn analyze_on<B: Bitboard>(args: &AnalyzeArgs) -> Result<Moves, Failure>
where
    ConnectFour<B>: Board,
{
    let cli = &args.game;
    if args.game.at.is_some() {
        return Err(Failure::Usage(
            "connect-four's position is its VALUE (the columns played, as 4453), not --at; \
             --after adds columns by name"
                .into(),
        ));
    }
    if cli.load.is_some() || cli.save.is_some() {
        return Err(Failure::Usage(
            "connect-four's analysis searches from its position: not --save or --load".into(),
        ));
    }
    let rules = game::<B>(cli)?;
    let text = position_text(cli)?;
    let position = read(cli, &rules, &text)?;
    let from = rules.clone().starting_at(position);
    let (here, tally) = after_moves(&from, from.start(), &args.after_names())?;
    let game = rules.starting_at(here);
    let run = alphabeta(&game, pruning_threads(cli), limits(cli), true)?;
    let moves = run.analysis.unwrap_or_default();
    let stones = here.stones();
    let mut valued: Vec<Valued> = moves
        .iter()
        .map(|mv| {
            let column = usize::from(mv.mv.column) + 1;
            Valued {
                value: mv.value,
                remoteness: Some(game.remoteness(stones, mv.value)),
                best: mv.value == run.value,
                words: format!("drops a stone in column {column}"),
                name: game.move_name(&here, &mv.mv),
                gain: 0,
                keeps_turn: false,
                fields: Fields::new().with("column", column),
            }
        })
        .collect();
    // Best first, then by column.
    valued.sort_by_key(|mv| std::cmp::Reverse(mv.value));
    // The players by their marks on the board, counted from the position given.
    let mut scene = scene(&from, tally, outcome(run.value), &[])?;
    scene.finals = valued
        .iter()
        .map(|mv| tally.final_margin(outcome(mv.value)))
        .collect::<Result<_, SolveError>>()?;
    Ok(Moves {
        game: cli.game,
        position: (!text.is_empty()).then_some(text),
        value: run.value,
        remoteness: Some(game.remoteness(stones, run.value)),
        outcomes: true,
        board: Some(game.render(&here).trim_end().to_string()),
        view: view(&game, &here),
        moves: valued,
        scene: Some(Box::new(scene)),
        chance: None,
        nimber: None,
    })
}

/// A score's outcome for the player to move: +1 a win, 0 a draw, -1 a loss.
fn outcome(score: Score) -> Score {
    score.signum()
}

/// The board as the page draws a game of columns: rows top first, each cell `"X"`, `"O"` or
/// `""`; a click on a column plays the move named by its number, from 1.
fn view<B: Bitboard>(game: &ConnectFour<B>, position: &Position<B>) -> serde_json::Value {
    let cells: Vec<String> = game
        .render(position)
        .lines()
        .flat_map(|row| {
            row.chars()
                .map(|cell| {
                    if cell == '.' {
                        String::new()
                    } else {
                        cell.to_string()
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    serde_json::json!({
        "kind": "columns",
        "rows": game.height(),
        "columns": game.width(),
        "cells": cells,
        "marks": ["X", "O"],
    })
}
