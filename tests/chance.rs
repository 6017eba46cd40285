//! Games with chance: Pig, Piglet and the bear-off race against oracles over their literal
//! rules and the published values; random games with chance against a plain expectimax in
//! fractions; the engines, the front door and the checker on what a chance game declares.

#[path = "common/chance_oracles.rs"]
mod chance_oracles;

use std::collections::HashMap;

use chance_oracles::{all_sides, bear_off_win, pig_by_value_iteration};
use gamesolver::check::{CheckOptions, Violation, check_chance};
use gamesolver::engines::chance::{self, Rational, Value};
use gamesolver::game::{Chance, Probability};
use gamesolver::games::{BearOff, Nim, Pig, PigMove};
use gamesolver::{
    Capabilities, Declares, Engine, Game, Score, SolveError, Solved, Solver, Step, Turn,
};

fn win_chance(value: &Value) -> String {
    value.win_chance().to_string()
}

#[test]
fn piglet_to_2_and_3_are_neller_and_pressers_fractions() {
    let game = Pig::piglet(2).unwrap();
    let mut solved = Solver::new(&game).solve_chance().unwrap();
    assert_eq!(solved.engine(), Engine::ValueIteration);
    assert_eq!(win_chance(&solved.value()), "4/7");
    // (own score, opponent's, turn total) as the paper gives them.
    for ((mine, theirs, turn), expected) in [
        ((0, 0, 1), "5/7"),
        ((0, 1, 0), "2/5"),
        ((0, 1, 1), "3/5"),
        ((1, 0, 0), "4/5"),
        ((1, 1, 0), "2/3"),
    ] {
        let state = game.state(mine, theirs, turn).unwrap();
        let value = solved.value_of(&state).unwrap();
        assert_eq!(win_chance(&value), expected, "{mine}, {theirs}, {turn}");
    }
    let game = Pig::piglet(3).unwrap();
    let solved = Solver::new(&game).solve_chance().unwrap();
    assert_eq!(win_chance(&solved.value()), "6/11");
}

#[test]
fn piglet_to_6_and_9_are_exact_fractions_near_the_floats() {
    for (goal, float) in [(6, 0.529312466165330), (9, 0.523951308249593)] {
        let game = Pig::piglet(goal).unwrap();
        let solved = Solver::new(&game).solve_chance().unwrap();
        let chance = solved.value().win_chance();
        assert!(chance.is_exact(), "goal {goal}: {chance}");
        assert!(
            (chance.to_f64() - float).abs() < 1e-12,
            "goal {goal}: {chance}"
        );
    }
}

#[test]
fn pig_agrees_with_a_plain_value_iteration_of_the_rules() {
    for (goal, faces) in [(12, 6), (20, 6), (16, 4), (10, 9)] {
        let oracle = pig_by_value_iteration(goal, faces);
        let game = Pig::new(goal as i64, faces as i64).unwrap();
        let mut solved = Solver::new(&game).solve_chance().unwrap();
        for (mine, theirs, turn) in [(0, 0, 0), (3, 5, 0), (goal - 1, 0, 0), (1, goal - 2, 2)] {
            let state = game.state(mine as i64, theirs as i64, turn as i64).unwrap();
            let value = solved.value_of(&state).unwrap().win_chance();
            let expected = oracle[mine][theirs][turn];
            assert!(
                (value.to_f64() - expected).abs() <= value.error_bound() + 1e-12,
                "Pig to {goal}, {faces} faces, {state:?}: {value} against {expected}"
            );
        }
    }
}

/// Pig to 100 with a six-sided die, against the oracle and Neller & Presser's 0.5306: the
/// engine's proved bound below 1e-9. (Some seconds in a debug build.)
#[test]
fn pig_to_100_is_the_published_value_within_its_proved_bound() {
    let game = Pig::new(100, 6).unwrap();
    let solved = Solver::new(&game).solve_chance().unwrap();
    let chance = solved.value().win_chance();
    assert!(chance.error_bound() < 1e-9, "{chance}");
    let oracle = pig_by_value_iteration(100, 6)[0][0][0];
    assert!((chance.to_f64() - oracle).abs() <= chance.error_bound() + 1e-12);
    assert!((chance.to_f64() - 0.5306).abs() < 5e-5);
}

#[test]
fn bear_off_races_agree_with_a_brute_force_of_the_rules() {
    for (points, checkers) in [(1, 1), (2, 2), (3, 2), (3, 3), (4, 2), (6, 1), (2, 4)] {
        let game = BearOff::new(points, checkers).unwrap();
        let mut solved = chance::solve(&game, chance::Options::new()).unwrap();
        let mut memo = HashMap::new();
        let sides = all_sides(points as u8, checkers as usize);
        let as_checkers = |side: &Vec<u8>| {
            let mut counts = vec![0u8; points as usize];
            for &point in side {
                counts[point as usize - 1] += 1;
            }
            game.side(&counts).unwrap()
        };
        for mover in sides.iter().filter(|side| !side.is_empty()) {
            for other in sides.iter().filter(|side| !side.is_empty()) {
                let race = game.race(as_checkers(mover), as_checkers(other));
                let value = solved.value_of(&race).unwrap().win_chance();
                assert!(value.is_exact());
                let expected = bear_off_win(mover, other, &mut memo);
                assert!(
                    (value.to_f64() - expected).abs() < 1e-12,
                    "{points}×{checkers}: {mover:?} against {other:?}: {value} against {expected}"
                );
            }
        }
    }
}

#[test]
fn every_expectimax_table_and_thread_count_gives_the_same_exact_value() {
    let game = BearOff::new(3, 3).unwrap();
    let one = chance::solve(&game, chance::Options::new())
        .unwrap()
        .value();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        // The solution stays on the caller's thread: its value comes out of the pool.
        let parallel = pool.install(|| {
            chance::par_solve(&game, chance::Options::new()).map(|solved| solved.value())
        });
        assert_eq!(parallel.unwrap(), one, "{threads} threads");
        let solved = Solver::new(&game).threads(threads).solve_chance().unwrap();
        assert_eq!(solved.value(), one);
        assert_eq!(solved.threads(), threads);
    }
}

/// A random game with chance that cannot cycle: from node `n` (of `size`), moves or outcomes
/// lead to higher nodes; chance nodes' outcomes have random weights over a random denominator.
struct RandomChance {
    size: u32,
    seed: u64,
    /// A node whose `known_value` lies (99, beyond any value of the game), for the checker.
    lie: Option<u32>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RandomChance {
    fn draw(&self, node: u32, salt: u64) -> u64 {
        mix(self.seed ^ mix(u64::from(node) * 31 + salt))
    }
    /// The outcomes' or moves' targets of `node`.
    fn targets(&self, node: u32) -> Vec<u32> {
        if node + 1 >= self.size {
            return Vec::new();
        }
        let count = 1 + self.draw(node, 1) % 3;
        (0..count)
            .map(|k| {
                node + 1
                    + (self.draw(node, 10 + k) % u64::from((self.size - node - 1).min(5))) as u32
            })
            .collect()
    }
    /// The weights of a chance node's outcomes, summing to their denominator.
    fn weights(&self, node: u32) -> (Vec<u64>, u64) {
        let count = self.targets(node).len() as u64;
        let weights: Vec<u64> = (0..count)
            .map(|k| 1 + self.draw(node, 20 + k) % 4)
            .collect();
        let total = weights.iter().sum();
        (weights, total)
    }
}

impl Game for RandomChance {
    type State = u32;
    type Move = usize;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, node: &u32) -> impl Iterator<Item = usize> {
        0..self.targets(*node).len()
    }
    fn play(&self, node: &u32, at: &usize) -> Step<u32> {
        let target = self.targets(*node)[*at];
        let gain = (self.draw(*node, 40 + *at as u64) % 5) as Score - 2;
        let turn = if self.draw(*node, 60 + *at as u64).is_multiple_of(3) {
            Turn::Keep
        } else {
            Turn::Pass
        };
        Step {
            next: target,
            gain,
            turn,
        }
    }
    fn payoff(&self, node: &u32) -> Score {
        (self.draw(*node, 80) % 7) as Score - 3
    }
    fn known_value(&self, node: &u32) -> Option<Score> {
        (self.lie == Some(*node)).then_some(99)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().chance()
    }
}

impl Chance for RandomChance {
    fn is_chance(&self, node: &u32) -> bool {
        self.draw(*node, 2).is_multiple_of(2)
    }
    fn probability(&self, node: &u32, at: &usize) -> Probability {
        let (weights, total) = self.weights(*node);
        Probability::new(weights[*at], total)
    }
}

/// A plain expectimax of the random game, in its own fractions of `i128` (small games only).
fn plain_value(game: &RandomChance, node: u32) -> (i128, i128) {
    fn gcd(a: i128, b: i128) -> i128 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    fn reduce((n, d): (i128, i128)) -> (i128, i128) {
        let g = gcd(n, d).max(1);
        (n / g, d / g)
    }
    let targets = game.targets(node);
    if targets.is_empty() {
        return (i128::from(game.payoff(&node)), 1);
    }
    let values: Vec<(i128, i128)> = (0..targets.len())
        .map(|at| {
            let step = game.play(&node, &at);
            let (n, d) = plain_value(game, step.next);
            let n = if step.turn == Turn::Keep { n } else { -n };
            reduce((n + i128::from(step.gain) * d, d))
        })
        .collect();
    if game.is_chance(&node) {
        let (weights, total) = game.weights(node);
        values
            .iter()
            .zip(weights)
            .fold((0, 1), |(sn, sd), ((n, d), w)| {
                reduce((
                    sn * d * i128::from(total) + i128::from(w) * n * sd,
                    sd * d * i128::from(total),
                ))
            })
    } else {
        *values
            .iter()
            .max_by(|(a, b), (c, d)| (a * d).cmp(&(c * b)))
            .unwrap()
    }
}

#[test]
fn random_games_with_chance_agree_with_a_plain_expectimax() {
    for seed in 0..40 {
        let game = RandomChance {
            size: 14,
            seed,
            lie: None,
        };
        let (numerator, denominator) = plain_value(&game, 0);
        let expected = Rational::new(
            i64::try_from(numerator).unwrap(),
            i64::try_from(denominator).unwrap(),
        )
        .unwrap();
        let solved = Solver::new(&game).solve_chance().unwrap();
        assert_eq!(solved.value().exact(), Some(&expected), "seed {seed}");
        let parallel = Solver::new(&game).threads(2).solve_chance().unwrap();
        assert_eq!(parallel.value(), solved.value(), "seed {seed}");
        let report = check_chance(&game, &CheckOptions::default());
        assert!(report.is_ok(), "seed {seed}: {report}");
    }
}

#[test]
fn the_checker_finds_a_known_value_that_lies_and_the_engine_it_misled() {
    let mut tried = 0;
    for seed in 0..10 {
        // A node the start reaches that has moves or outcomes of its own.
        let honest = RandomChance {
            size: 14,
            seed,
            lie: None,
        };
        let Some(node) = honest
            .targets(0)
            .into_iter()
            .find(|&n| !honest.targets(n).is_empty())
        else {
            continue;
        };
        let game = RandomChance {
            lie: Some(node),
            ..honest
        };
        let report = check_chance(&game, &CheckOptions::default());
        let wrong: Vec<&str> = report
            .violations
            .iter()
            .filter_map(|violation| match violation {
                Violation::ExpectationWrong { state, what, .. } if *state == node => Some(*what),
                _ => None,
            })
            .collect();
        assert!(wrong.contains(&"known_value"), "seed {seed}: {report}");
        assert!(
            wrong.contains(&"the expectimax engine"),
            "seed {seed}: {report}"
        );
        tried += 1;
    }
    assert!(tried >= 5, "{tried} games with a node to lie about");
}

#[test]
fn the_engines_for_games_without_chance_refuse_a_chance_game() {
    let game = Pig::piglet(2).unwrap();
    let error = Solver::new(&game).solve().unwrap_err();
    assert!(matches!(error, SolveError::Unsupported(_)), "{error}");
    assert!(error.to_string().contains("solve_chance"), "{error}");
    let game = BearOff::new(2, 2).unwrap();
    let error = gamesolver::engines::exhaustive::solve(
        &game,
        gamesolver::memo::HashTable::new(),
        gamesolver::engines::exhaustive::Options::new(),
    )
    .err()
    .expect("refused");
    assert!(error.to_string().contains("chance"), "{error}");
}

#[test]
fn solve_chance_values_a_game_without_chance_as_solve_does() {
    let game = Nim::new(vec![3, 4, 5]).unwrap();
    let solved = Solver::new(&game).solve_chance().unwrap();
    let plain = Solver::new(&game).solve().unwrap();
    assert_eq!(solved.value(), Value::score(plain.value()));
    assert_eq!(solved.engine(), Engine::Expectimax);
}

#[test]
fn piglet_answers_moves_best_moves_and_a_reproducible_line() {
    let game = Pig::piglet(2).unwrap();
    let mut solved = Solver::new(&game).solve_chance().unwrap();
    let start = *solved.start();
    assert_eq!(solved.best_moves(&start).unwrap(), vec![PigMove::Roll]);
    let values = solved.move_values(&start).unwrap();
    // Rolling keeps the turn: its value is the rolling state's, 1/7 (4/7 to win); holding at
    // 0 hands the opponent the start: −1/7.
    assert_eq!(values[0].value.exact().unwrap().to_string(), "1/7");
    assert_eq!(values[1].value.exact().unwrap().to_string(), "-1/7");
    let rolling = values[0].step.next;
    assert!(solved.is_chance(&rolling));
    assert!(solved.best_moves(&rolling).unwrap().is_empty());
    let outcomes = solved.move_values(&rolling).unwrap();
    assert_eq!(outcomes.len(), 2);
    let line = solved.line().unwrap();
    assert_eq!(line, solved.line_with_seed(0).unwrap());
    // The line ends with a win: its last state is won at once or the opponent is at the goal.
    let last = line.last().unwrap();
    let after = game.play(&last.state, &last.mv).next;
    assert!(game.known_value(&after).is_some() || game.moves(&after).count() == 0);
}

/// A coin whose two faces' probabilities are 1/2 and 1/3: no roll.
struct BentCoin;

impl Game for BentCoin {
    type State = bool;
    type Move = bool;
    fn start(&self) -> bool {
        true
    }
    fn moves(&self, flipping: &bool) -> impl Iterator<Item = bool> {
        [true, false].into_iter().filter(move |_| *flipping)
    }
    fn play(&self, _: &bool, heads: &bool) -> Step<bool> {
        Step {
            next: false,
            gain: Score::from(*heads),
            turn: Turn::Keep,
        }
    }
    fn payoff(&self, _: &bool) -> Score {
        0
    }
    fn state_text(&self, flipping: &bool) -> Option<String> {
        Some(format!("flipping: {flipping}"))
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().chance()
    }
}

impl Chance for BentCoin {
    fn is_chance(&self, flipping: &bool) -> bool {
        *flipping
    }
    fn probability(&self, _: &bool, heads: &bool) -> Probability {
        if *heads {
            Probability::new(1, 2)
        } else {
            Probability::new(1, 3)
        }
    }
}

#[test]
fn probabilities_that_are_no_roll_are_refused_and_reported() {
    let error = Solver::new(&BentCoin).solve_chance().unwrap_err();
    assert!(matches!(error, SolveError::InvalidGame(_)), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("5/6") && message.contains("flipping: true"),
        "{message}"
    );
    let report = check_chance(&BentCoin, &CheckOptions::default());
    assert!(
        report
            .violations
            .iter()
            .any(|violation| matches!(violation, Violation::ChanceWrong { .. })),
        "{report}"
    );
}
