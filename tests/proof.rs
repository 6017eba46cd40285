//! The proof search (df-pn, `engines::proof`) against independent oracles: random game graphs
//! with points and extra turns against plain negamax, k in a row and Domineering against brute
//! force over their literal rules, Stone Game II against its brute force; every proof replayed
//! by the checker, tables from a few KiB to 1 GiB giving the same answers, and damaged proofs
//! refused.

mod common;

#[path = "../benches/newcomers/hex.rs"]
mod hex;
#[path = "common/k_in_a_row.rs"]
mod k_in_a_row;
#[path = "common/user_games.rs"]
mod user_games;

use std::collections::HashMap;

use common::{Rng, stone_game_ii_brute_force};
use gamesolver::check::check_proof;
use gamesolver::engines::proof::{self, Options, Proof, Prover};
use gamesolver::games::StoneGameII;
use gamesolver::{Game, Score, SolveError, Step, Turn};
use hex::Hex;
use k_in_a_row::{Cells, KInARow, Literal, brute_force};
use user_games::Domineering;

/// A random game without cycles: state `i` has moves to later states, each with points for
/// the mover and a turn that passes or is kept; a state with no move pays its payoff.
struct Graph {
    edges: Vec<Vec<(u32, Score, Turn)>>,
    payoffs: Vec<Score>,
}

impl Graph {
    fn random(rng: &mut Rng, states: u32) -> Graph {
        let edges = (0..states)
            .map(|state| {
                let later = states - 1 - state;
                let count = if later == 0 { 0 } else { rng.below(5) };
                (0..count)
                    .map(|_| {
                        let to = state + 1 + rng.below(u64::from(later)) as u32;
                        let gain = rng.below(7) as Score - 3;
                        let turn = if rng.below(4) == 0 {
                            Turn::Keep
                        } else {
                            Turn::Pass
                        };
                        (to, gain, turn)
                    })
                    .collect()
            })
            .collect();
        let payoffs = (0..states).map(|_| rng.below(11) as Score - 5).collect();
        Graph { edges, payoffs }
    }

    /// The value of `state` for its mover by plain negamax over the definition.
    fn negamax(&self, state: u32) -> Score {
        let edges = &self.edges[state as usize];
        if edges.is_empty() {
            return self.payoffs[state as usize];
        }
        edges
            .iter()
            .map(|&(to, gain, turn)| match turn {
                Turn::Keep => gain + self.negamax(to),
                Turn::Pass => gain - self.negamax(to),
            })
            .max()
            .unwrap()
    }
}

impl Game for Graph {
    type State = u32;
    type Move = usize;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, state: &u32) -> impl Iterator<Item = usize> {
        0..self.edges[*state as usize].len()
    }
    fn play(&self, state: &u32, mv: &usize) -> Step<u32> {
        let (next, gain, turn) = self.edges[*state as usize][*mv];
        Step { next, gain, turn }
    }
    fn payoff(&self, state: &u32) -> Score {
        self.payoffs[*state as usize]
    }
}

/// Checks both proofs of `state`'s value `value` (it secures `value`, not `value + 1`).
fn proofs_check<G>(prover: &mut Prover<'_, G>, game: &G, state: &G::State, value: Score)
where
    G: Game,
    G::State: Eq + std::hash::Hash + std::fmt::Debug,
{
    let secures = prover.proof(state, value).unwrap();
    assert!(secures.nodes[0].holds);
    check_proof(game, &secures).unwrap();
    let no_more = prover.proof(state, value + 1).unwrap();
    assert!(!no_more.nodes[0].holds);
    check_proof(game, &no_more).unwrap();
}

#[test]
fn random_graphs_with_points_and_extra_turns_equal_negamax() {
    let mut rng = Rng(0x5eed_0001);
    for round in 0..150 {
        let states = 2 + rng.below(40) as u32;
        let game = Graph::random(&mut rng, states);
        let mut prover = Prover::new(&game, Options::new());
        for state in (0..game.payoffs.len() as u32).step_by(3) {
            let value = prover.value_of(&state).unwrap();
            assert_eq!(value, game.negamax(state), "round {round}, state {state}");
            proofs_check(&mut prover, &game, &state, value);
        }
        let solved = proof::solve(&game, Options::new()).unwrap();
        assert_eq!(solved.value(), game.negamax(0), "round {round}");
    }
}

/// A position of `stones` random stones, played in turn, with no line complete; `None` if the
/// random order completed one first.
fn random_position(game: &KInARow, stones: usize, rng: &mut Rng) -> Option<Cells> {
    let mut cells: Vec<(u32, u32)> = game.all_cells().collect();
    let mut played = Vec::new();
    for _ in 0..stones {
        let at = rng.below(cells.len() as u64) as usize;
        played.push(cells.swap_remove(at));
        let position = game.position(&played);
        game.moves(&position).next()?;
    }
    Some(game.position(&played))
}

#[test]
fn k_in_a_row_boards_equal_brute_force_and_their_proofs_check() {
    // Whole small boards: (3,3,3) is a draw, (4,3,3) a first-player win. (The value, as
    // Connect Four's, counts the moves left at the win: brute force's. The (4,4,4) draw takes
    // 2.7 million expansions, too long for a debug build: docs/performance.md has it.)
    for (width, height, k, sign) in [(3, 3, 3, 0), (4, 3, 3, 1), (3, 4, 3, 1)] {
        let game = Literal(KInARow::new(width, height, k));
        let solved = proof::solve(&game, Options::new()).unwrap();
        let value = brute_force(&game.0, &game.start());
        assert_eq!(solved.value(), value, "({width},{height},{k})");
        assert_eq!(value.signum(), sign, "({width},{height},{k})");
        for proof in solved.proofs() {
            check_proof(&game, proof).unwrap();
        }
    }
    // Random positions of 4×4 boards, k = 3 and 4, with 5 to 9 stones.
    let mut rng = Rng(0x5eed_0002);
    for k in [3, 4] {
        let game = KInARow::new(4, 4, k);
        let literal = Literal(game.clone());
        let mut prover = Prover::new(&literal, Options::new());
        let mut ranged = Prover::new(&game, Options::new().ranged());
        for _ in 0..20 {
            let stones = 5 + rng.below(5) as usize;
            let Some(position) = random_position(&game, stones, &mut rng) else {
                continue;
            };
            let value = prover.value_of(&position).unwrap();
            assert_eq!(
                value,
                brute_force(&game, &position),
                "k {k}, {stones} stones"
            );
            proofs_check(&mut prover, &literal, &position, value);
            // The game's declared range brackets the thresholds: the same value.
            assert_eq!(ranged.value_of(&position).unwrap(), value);
        }
    }
}

/// The value of `state` for its mover by plain memoized negamax over the game's moves, steps
/// and payoffs: an oracle that shares nothing with the engines.
fn negamax<G>(game: &G, state: &G::State, memo: &mut HashMap<G::State, Score>) -> Score
where
    G: Game,
    G::State: Eq + std::hash::Hash,
{
    if let Some(&known) = memo.get(state) {
        return known;
    }
    let value = game
        .moves(state)
        .map(|mv| {
            let step = game.play(state, &mv);
            let next = negamax(game, &step.next, memo);
            match step.turn {
                Turn::Keep => step.gain + next,
                Turn::Pass => step.gain - next,
            }
        })
        .max()
        .unwrap_or_else(|| game.payoff(state));
    memo.insert(state.clone(), value);
    value
}

/// Hex (the newcomer's, benches/newcomers/hex.rs): the first player wins every empty board to
/// 3×3, as the literal rules' search says; after each first move on 3×3 and on random 4×4
/// positions, the value equals negamax's, and each proof checks.
#[test]
fn hex_equals_brute_force_and_its_proofs_check() {
    for size in 1..=3 {
        let game = Hex::new(size);
        let solved = proof::solve(&game, Options::new()).unwrap();
        assert_eq!(solved.value(), hex::by_hand(size as usize), "{size}×{size}");
        assert_eq!(solved.value(), 1, "{size}×{size}");
        for proof in solved.proofs() {
            check_proof(&game, proof).unwrap();
        }
    }
    // The position after `cells` are played in turn from the empty board (until it is over).
    let position = |game: &Hex, cells: &[u8]| {
        cells.iter().fold(game.start(), |stones, cell| {
            match game.moves(&stones).any(|mv| mv == *cell) {
                true => game.play(&stones, cell).next,
                false => stones,
            }
        })
    };
    let outcomes = Options::new().range(gamesolver::engines::OutcomeRange);
    let mut memo = HashMap::new();
    let game = Hex::new(3);
    let mut prover = Prover::new(&game, outcomes);
    for cell in 0..9 {
        let position = position(&game, &[cell]);
        let value = prover.value_of(&position).unwrap();
        assert_eq!(value, negamax(&game, &position, &mut memo), "{cell}");
        let proof = prover.proof(&position, value).unwrap();
        check_proof(&game, &proof).unwrap();
    }
    let game = Hex::new(4);
    let mut prover = Prover::new(&game, outcomes);
    let mut memo = HashMap::new();
    let mut rng = Rng(0x5eed_0005);
    for _ in 0..12 {
        let mut cells: Vec<u8> = (0..16).collect();
        let stones = 5 + rng.below(5) as usize;
        let played: Vec<u8> = (0..stones)
            .map(|_| cells.swap_remove(rng.below(cells.len() as u64) as usize))
            .collect();
        let position = position(&game, &played);
        let value = prover.value_of(&position).unwrap();
        assert_eq!(value, negamax(&game, &position, &mut memo), "{played:?}");
        let proof = prover.proof(&position, value).unwrap();
        check_proof(&game, &proof).unwrap();
    }
}

#[test]
fn domineering_boards_equal_brute_force() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..30 {
        let (rows, columns) = (2 + rng.below(3) as u32, 2 + rng.below(3) as u32);
        let mut game = Domineering::new(rows, columns);
        game.blocked = rng.below(1 << (rows * columns)) & rng.below(1 << (rows * columns));
        let solved = proof::solve(&game, Options::new()).unwrap();
        assert_eq!(
            solved.value(),
            game.by_hand(),
            "{rows}×{columns}, {:b}",
            game.blocked
        );
        for proof in solved.proofs() {
            check_proof(&game, proof).unwrap();
        }
    }
}

#[test]
fn stone_game_ii_margins_equal_brute_force() {
    for seed in 0..40 {
        let piles = common::random_values(1 + seed as usize % 9, seed, 1, 30);
        let game = StoneGameII::new(piles.clone()).unwrap();
        let solved = proof::solve(&game, Options::new()).unwrap();
        // The game's value is Alice's stones minus Bob's.
        let total: Score = piles.iter().sum();
        assert_eq!(
            (total + solved.value()) / 2,
            stone_game_ii_brute_force(&piles),
            "{piles:?}"
        );
        for proof in solved.proofs() {
            check_proof(&game, proof).unwrap();
        }
    }
}

#[test]
fn the_answers_do_not_depend_on_the_tables_size() {
    let game = Literal(KInARow::new(4, 4, 3));
    let mut rng = Rng(0x5eed_0004);
    let positions: Vec<Cells> = (0..12)
        .filter_map(|_| random_position(&game.0, 2 + rng.below(4) as usize, &mut rng))
        .collect();
    let mut values = Vec::new();
    let mut dropped = 0;
    for bytes in [4 << 10, 64 << 10, 1 << 20, 1 << 30] {
        let mut prover = Prover::new(&game, Options::new().table_bytes(bytes));
        let found: Vec<Score> = positions
            .iter()
            .map(|position| prover.value_of(position).unwrap())
            .collect();
        for (position, &value) in positions.iter().zip(&found) {
            proofs_check(&mut prover, &game, position, value);
        }
        if bytes == 4 << 10 {
            dropped = prover.dropped();
        }
        values.push(found);
    }
    assert!(dropped > 0, "the smallest table never filled");
    assert!(
        values.windows(2).all(|pair| pair[0] == pair[1]),
        "{values:?}"
    );
}

/// Every way a proof of a small board can be damaged: a reply removed from a question answered
/// no, the move of a question answered yes swapped for another, an answer flipped, a node
/// pointed at the wrong question.
#[test]
fn a_damaged_proof_is_refused() {
    let game = Literal(KInARow::new(3, 3, 3));
    let mut prover = Prover::new(&game, Options::new());
    let start = game.start();
    let no_win: Proof<_, _> = prover.proof(&start, 1).unwrap();
    check_proof(&game, &no_win).unwrap();
    let answered = |holds: bool| {
        no_win
            .nodes
            .iter()
            .position(|node| node.holds == holds && !node.replies.is_empty())
            .unwrap()
    };
    let (no, yes) = (answered(false), answered(true));
    let mut removed = no_win.clone();
    removed.nodes[no].replies.pop();
    assert!(check_proof(&game, &removed).is_err());
    let mut swapped = no_win.clone();
    let reply = &mut swapped.nodes[yes].replies[0];
    let moves = game.moves(&no_win.nodes[yes].state).count();
    reply.index = (reply.index + 1) % moves;
    reply.mv = game
        .moves(&no_win.nodes[yes].state)
        .nth(reply.index)
        .unwrap();
    assert!(check_proof(&game, &swapped).is_err());
    let mut flipped = no_win.clone();
    flipped.nodes[0].holds = true;
    assert!(check_proof(&game, &flipped).is_err());
    let mut elsewhere = no_win.clone();
    let wrong = (elsewhere.nodes[no].replies[0].node + 1) % elsewhere.nodes.len();
    elsewhere.nodes[no].replies[0].node = wrong;
    assert!(check_proof(&game, &elsewhere).is_err());
}

/// A game that goes round a cycle of three states: refused with a cycle, not searched for
/// ever.
#[test]
fn a_cycle_is_refused_by_name() {
    struct Round;
    impl Game for Round {
        type State = u8;
        type Move = ();
        fn start(&self) -> u8 {
            0
        }
        fn moves(&self, _: &u8) -> impl Iterator<Item = ()> {
            std::iter::once(())
        }
        fn play(&self, state: &u8, _: &()) -> Step<u8> {
            Step {
                next: (state + 1) % 3,
                gain: 0,
                turn: Turn::Pass,
            }
        }
        fn payoff(&self, _: &u8) -> Score {
            0
        }
    }
    let error = proof::solve(&Round, Options::new()).unwrap_err();
    assert!(
        matches!(error, SolveError::Cycle { length: 3, .. }),
        "{error}"
    );
}

/// Through the front door: `Solver` with the proof engine answers as the exhaustive engine
/// does on bundled games with points and extra turns (Dots and Boxes) and without (Cram), its
/// line keeps the value move by move, and its result says which engine ran.
#[test]
fn the_front_door_runs_it_and_its_answers_equal_the_exhaustive_engines() {
    use gamesolver::games::{Cram, DotsAndBoxes};
    use gamesolver::{Engine, Solved, Solver};

    fn agree<G>(game: &G)
    where
        G: Game + Sync,
        G::State: Eq + std::hash::Hash + Send + Sync,
        G::Move: Send,
    {
        let mut exhaustive = Solver::new(game)
            .engine(Engine::Exhaustive)
            .solve()
            .unwrap();
        let mut proved = Solver::new(game).engine(Engine::Proof).solve().unwrap();
        assert_eq!(proved.engine(), Engine::Proof);
        assert_eq!(proved.value(), exhaustive.value());
        let start = game.start();
        let values = |moves: Vec<gamesolver::engines::MoveValue<G>>| -> Vec<Score> {
            moves.into_iter().map(|mv| mv.value).collect()
        };
        assert_eq!(
            values(proved.move_values(&start).unwrap()),
            values(exhaustive.move_values(&start).unwrap())
        );
        // The line's points add up to the value, and each ply keeps the value it had.
        let line = proved.line().unwrap();
        let mut margin = 0;
        for ply in &line {
            assert_eq!(ply.value, exhaustive.value_of(&ply.state).unwrap());
            margin += if ply.player.is_first() {
                ply.gain
            } else {
                -ply.gain
            };
        }
        let last = line.last().map(|ply| game.play(&ply.state, &ply.mv).next);
        let end = last.unwrap_or(start);
        assert_eq!(game.moves(&end).count(), 0, "the line ends the game");
        let mover_at_end = line
            .last()
            .map_or(gamesolver::Player::First, |ply| ply.player.after(ply.turn));
        let payoff = game.payoff(&end);
        margin += if mover_at_end.is_first() {
            payoff
        } else {
            -payoff
        };
        assert_eq!(margin, proved.value());
    }
    agree(&DotsAndBoxes::new(2, 2).unwrap());
    agree(&DotsAndBoxes::new(1, 3).unwrap());
    agree(&Cram::new(3, 3).unwrap());
    agree(&StoneGameII::new(vec![2, 7, 9, 4, 4, 6, 1]).unwrap());
}

/// The command line's `--solver proof` gives the exhaustive engine's value.
#[cfg(feature = "cli")]
#[test]
fn the_command_line_solver_proof_equals_the_engine() {
    for args in [
        &["tic-tac-toe"][..],
        &["nim", "3", "4", "5"],
        &["stone-game-ii", "2", "7", "9", "4", "4"],
        &["stone-game-vii", "5", "3", "1", "4", "2"],
        &["dots-and-boxes", "2", "2"],
        &["kayles", "4", "3"],
        &["hex", "3"],
        &["mnk", "4", "3", "3"],
        &["mnk", "3", "3", "3"],
    ] {
        let with = |solver: &str| {
            let mut all = args.to_vec();
            all.extend(["--solver", solver, "--json"]);
            common::gamesolver_json(&all)
        };
        let (proved, engine) = (with("proof"), with("engine"));
        assert_eq!(proved["value"], engine["value"], "{args:?}");
        assert_eq!(proved["solver"], "proof", "{args:?}");
        // The proofs' size: at least the root's question, and one more per move of a loss.
        assert!(proved["proof_size"].as_u64().unwrap() >= 1, "{args:?}");
        assert!(engine.get("proof_size").is_none(), "{args:?}");
    }
}

/// The proofs read off the search count against the memory budget beside the table: where
/// they do not fit, the solve is refused by the budget, never past it.
#[test]
fn the_proofs_are_read_within_the_memory_budget() {
    let hex = gamesolver::games::Hex::new(4).unwrap();
    let limits = gamesolver::Limits {
        memory_budget: 512 << 10,
        ..gamesolver::Limits::default()
    };
    match proof::solve(&hex, Options::new().limits(limits)) {
        Err(SolveError::MemoryBudget { needed, budget, .. }) => assert!(needed > budget),
        other => panic!("a 512 KiB budget holds Hex 4x4's proof? {other:?}"),
    }
}

/// Every proof of a few games is written, read back equal, and checked again; a damaged file
/// (cut anywhere, bytes appended, a byte changed, counts at their maximum) is refused with the
/// byte where it went wrong, or read into a proof the checker then judges: never a panic.
#[test]
fn proofs_are_saved_read_back_and_damaged_files_refused() {
    let hex = gamesolver::games::Hex::new(3).unwrap();
    let mnk = gamesolver::games::Mnk::new(3, 3, 3).unwrap();
    let hex_proved = proof::solve(&hex, Options::new()).unwrap();
    let mnk_proved = proof::solve(&mnk, Options::new()).unwrap();
    let mut files = Vec::new();
    for written in hex_proved.proofs() {
        let mut file = Vec::new();
        written.write("hex 3", &mut file).unwrap();
        let (label, read) = proof::read_proof(&hex, hex.start(), &file).unwrap();
        assert_eq!((label.as_str(), &read), ("hex 3", written));
        check_proof(&hex, &read).unwrap();
        files.push(file);
    }
    for written in mnk_proved.proofs() {
        let mut file = Vec::new();
        written.write("mnk 3 3 3", &mut file).unwrap();
        let (_, read) = proof::read_proof(&mnk, mnk.start(), &file).unwrap();
        assert_eq!(&read, written);
        check_proof(&mnk, &read).unwrap();
    }
    let file = &files[0];
    let read = |bytes: &[u8]| proof::read_proof(&hex, hex.start(), bytes);
    for cut in 0..file.len() {
        let refused = read(&file[..cut]).unwrap_err();
        assert!(refused.offset <= cut, "cut at {cut}: {refused}");
    }
    let mut longer = file.clone();
    longer.extend_from_slice(&[0; 5]);
    assert!(
        read(&longer)
            .unwrap_err()
            .problem
            .contains("after the proof's end")
    );
    // The count of questions, then the first question's count of replies, at their maximum.
    let label = 8 + 4 + "hex 3".len();
    for (at, width) in [(label, 8), (label + 8 + 8 + 1, 4)] {
        let mut damaged = file.clone();
        damaged[at..at + width].fill(0xff);
        assert!(read(&damaged).is_err(), "maxed at {at}");
    }
    let mut rng = Rng(29);
    for _ in 0..300 {
        let mut damaged = file.clone();
        let at = rng.below(damaged.len() as u64) as usize;
        damaged[at] ^= 1 << rng.below(8);
        if let Ok((_, proof)) = read(&damaged) {
            // Read, but perhaps no proof: the checker says which.
            let _ = check_proof(&hex, &proof);
        }
    }
    // The start of another game is no root of this proof.
    let other = hex.after_cells("b2").unwrap();
    let replayed = proof::read_proof(&hex, other, file);
    assert!(replayed.is_err() || check_proof(&hex, &replayed.unwrap().1).is_err());
}
