//! `gamesolver play` end to end, through a pseudo-terminal: the person's lines go in as typed
//! at a terminal, and the conversation is read back as the terminal shows it.
#![cfg(all(unix, feature = "cli"))]

use std::process::Command;

use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

type Outcome = Result<(), rexpect::error::Error>;

/// `gamesolver play ARGS…` in a pseudo-terminal; every expectation times out after 30 s.
/// (The reader takes each byte for a character: expectations stay in ASCII.)
fn play(args: &[&str]) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamesolver"));
    command.arg("play").args(args).env("NO_COLOR", "1");
    spawn_command(command, Some(30_000)).expect("the binary starts in a pseudo-terminal")
}

/// Waits for the program to end and returns its exit code.
fn exit_code(session: &PtySession) -> i32 {
    match session.process().wait().expect("the program ends") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("the program did not exit normally: {other:?}"),
    }
}

#[test]
fn nim_is_played_to_the_end_with_bad_moves_and_questions_on_the_way() -> Outcome {
    // Heaps 1, 2, 3 (XOR 0) are lost for the side to move: whatever the person plays, the
    // solver wins.
    let mut p = play(&["nim", "1,2,3"]);
    p.exp_string("you are Alice and move first; the solver plays Bob")?;
    p.exp_string("Heaps: heap 1: 1, heap 2: 2, heap 3: 3")?;
    p.exp_string("Your move (")?;
    p.send_line("?")?;
    p.exp_string("Every move, best first")?;
    p.exp_string("-1  1,1")?;
    p.exp_string("Your move (")?;
    p.send_line("9,9")?;
    p.exp_string("\"9,9\" is not a legal move here")?;
    p.exp_string("Your move (")?;
    p.send_line("3,3")?;
    // Every move loses here, so none is judged worse than another.
    p.exp_string("Alice takes 3 from heap 3 (3 ")?;
    // The solver answers with the first winning move: 1 from heap 2, leaving 1, 1, 0.
    p.exp_string("Bob takes 1 from heap 2 (2 ")?;
    p.exp_string("Heaps: heap 1: 1, heap 2: 1, heap 3: 0")?;
    p.exp_string("Your move (1,1 | 2,1): ")?;
    p.send_line("1,1")?;
    p.exp_string("Bob takes 1 from heap 2 (1 ")?;
    p.exp_string("Game over: Bob wins. You lose.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

#[test]
fn a_weak_move_is_pointed_out_and_the_person_may_leave() -> Outcome {
    // Heaps 3, 4, 5 are won for the first player, with one winning move (2 from heap 1).
    let mut p = play(&["nim", "3", "4", "5"]);
    p.exp_string("Your move (")?;
    p.send_line("3,1")?;
    p.exp_string("(Not the best: 1,2 secures 1 from here, this move -1.)")?;
    p.exp_string("Bob takes")?;
    p.exp_string("Your move (")?;
    p.send_line("q")?;
    p.exp_string("Game left unfinished.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

#[test]
fn tic_tac_toe_as_the_second_player_never_beats_the_solver() -> Outcome {
    let mut p = play(&["tic-tac-toe", "--as", "second"]);
    p.exp_string("you are O and move second; the solver plays X")?;
    // X's first answer, then the board, then the prompt.
    p.exp_string("X marks row 1, column 1.")?;
    p.exp_string("Your move (")?;
    // A corner reply loses against perfect play; the centre draws.
    p.send_line("2,2")?;
    let mut answered = 0;
    // From here the person plays the first legal cell of the list, turn after turn.
    loop {
        let (_, found) = p.exp_regex(r"Your move \(([0-9],[0-9])|Game over: [^\n]*")?;
        if let Some(cell) = found.strip_prefix("Your move (") {
            p.send_line(cell)?;
            answered += 1;
            assert!(answered < 5, "a board has nine cells");
        } else {
            assert!(!found.contains("You win"), "{found}");
            break;
        }
    }
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

#[test]
fn a_position_with_o_to_move_starts_with_o() -> Outcome {
    // X has marked the corner: O moves first from here. The person is X, so the solver, O,
    // answers first (the centre, its only move that does not lose).
    let mut p = play(&["tic-tac-toe", "--at", "X........"]);
    p.exp_string("you are X and move second; the solver plays O")?;
    p.exp_string("O marks row 2, column 2.")?;
    p.exp_string("Your move (")?;
    p.send_line("q")?;
    p.exp_string("Game left unfinished.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

#[test]
fn end_of_input_leaves_the_game_and_errors_before_it_exit_with_a_message() -> Outcome {
    let mut p = play(&["stone-game-ii", "2,7,9,4,4", "--at", "9,1"]);
    p.exp_string("error: invalid state: pile 9 is past the 5 piles")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 1);

    let mut p = play(&["stone-game-ii", "2,7,9,4,4"]);
    p.exp_string("Piles left (from pile 1): 2 7 9 4 4")?;
    p.exp_string("M = 1: take the next 1 to 2 piles")?;
    p.exp_string("Your move (1 | 2): ")?;
    p.send_control('d')?;
    p.exp_string("Game left unfinished.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

/// (Through pipes, not a terminal: the game ends at the first prompt.)
#[test]
fn connect_four_past_the_fixed_tables_keys_is_offered_to_play() {
    // 12×7: 96 bits of cells and markers, more than a fixed bound table's words hold; the
    // game starts on a table keyed by the whole position (it was refused before it began).
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamesolver"));
    command
        .args(["play", "connect-four", "010101", "--columns-from-zero"])
        .args(["--width", "12", "--height", "7"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"q\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("XO.........."), "{stdout}");
    assert!(stdout.contains("Game left unfinished."), "{stdout}");
}
