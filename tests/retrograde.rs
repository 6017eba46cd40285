//! The retrograde solver against an independent oracle (value iteration over a horizon long
//! enough to be exact) on random graphs with cycles, sequential against parallel for threads
//! 1..=8, and against the exhaustive engine on outcome games without cycles.

use gamesolver::engines::{exhaustive, retrograde};
use gamesolver::games::{Nim, TicTacToe};
use gamesolver::memo::HashTable;
use gamesolver::{Game, Limits, Score, Step, Turn, engines::retrograde::Outcome};

/// A game on an explicit graph: node `s`'s moves are its edges `(to, keeps the turn)`; a node
/// without edges is final and pays `payoff[s]` to the side to move.
struct Graph {
    edges: Vec<Vec<(u32, bool)>>,
    payoff: Vec<Score>,
}

impl Game for Graph {
    type State = u32;
    type Move = usize;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, node: &u32) -> impl Iterator<Item = usize> {
        0..self.edges[*node as usize].len()
    }
    fn play(&self, node: &u32, edge: &usize) -> Step<u32> {
        let (to, keep) = self.edges[*node as usize][*edge];
        Step {
            next: to,
            gain: 0,
            turn: if keep { Turn::Keep } else { Turn::Pass },
        }
    }
    fn payoff(&self, node: &u32) -> Score {
        self.payoff[*node as usize]
    }
}

/// A random graph of `n` nodes: about a fifth final (paying −1, 0 or +1), the rest with one to
/// four edges anywhere (cycles and self-loops included), some keeping the turn.
fn random_graph(n: usize, seed: u64) -> Graph {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut edges = Vec::new();
    let mut payoff = Vec::new();
    for _ in 0..n {
        if next(5) == 0 {
            edges.push(Vec::new());
            payoff.push(next(3) as Score - 1);
        } else {
            let degree = 1 + next(4) as usize;
            edges.push(
                (0..degree)
                    .map(|_| (next(n as u64) as u32, next(6) == 0))
                    .collect(),
            );
            payoff.push(0);
        }
    }
    Graph { edges, payoff }
}

/// Value iteration: after `k` rounds, a node is won (lost) if its side to move can force a win
/// (cannot avoid a loss) within `k` moves; the first such `k` is its remoteness. Past as many
/// rounds as there are nodes, nothing changes: the undecided nodes are draws.
fn oracle(graph: &Graph) -> Vec<(Outcome, Option<u32>)> {
    let n = graph.edges.len();
    let mut result: Vec<Option<(Outcome, u32)>> = (0..n)
        .map(
            |node| match (graph.edges[node].is_empty(), graph.payoff[node]) {
                (true, 1) => Some((Outcome::Win, 0)),
                (true, -1) => Some((Outcome::Loss, 0)),
                _ => None,
            },
        )
        .collect();
    for k in 1..=(2 * n as u32 + 2) {
        let before = result.clone();
        for node in 0..n {
            if before[node].is_some() || graph.edges[node].is_empty() {
                continue;
            }
            let seen: Vec<Option<Outcome>> = graph.edges[node]
                .iter()
                .map(|&(to, keep)| {
                    before[to as usize]
                        .map(|(outcome, _)| if keep { outcome } else { outcome.flipped() })
                })
                .collect();
            if seen.contains(&Some(Outcome::Win)) {
                result[node] = Some((Outcome::Win, k));
            } else if seen.iter().all(|outcome| *outcome == Some(Outcome::Loss)) {
                result[node] = Some((Outcome::Loss, k));
            }
        }
    }
    result
        .into_iter()
        .map(|decided| match decided {
            Some((outcome, remoteness)) => (outcome, Some(remoteness)),
            None => (Outcome::Draw, None),
        })
        .collect()
}

/// The nodes reachable from node 0.
fn reachable(graph: &Graph) -> Vec<u32> {
    let mut seen = vec![false; graph.edges.len()];
    let mut stack = vec![0u32];
    seen[0] = true;
    let mut out = Vec::new();
    while let Some(node) = stack.pop() {
        out.push(node);
        for &(to, _) in &graph.edges[node as usize] {
            if !seen[to as usize] {
                seen[to as usize] = true;
                stack.push(to);
            }
        }
    }
    out
}

#[test]
fn random_graphs_match_value_iteration() {
    for seed in 0..300 {
        let graph = random_graph(2 + seed as usize % 40, seed);
        let expected = oracle(&graph);
        let solved = retrograde::solve(
            &graph,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        let nodes = reachable(&graph);
        assert_eq!(solved.states(), nodes.len(), "seed {seed}");
        for &node in &nodes {
            assert_eq!(
                solved.outcome_of(&node),
                Some(expected[node as usize]),
                "seed {seed}, node {node}"
            );
            // The best move keeps the outcome, one move nearer the end.
            let (outcome, remoteness) = expected[node as usize];
            if let Some(edge) = solved.best_move(&node) {
                let (to, keep) = graph.edges[node as usize][edge];
                let (after, left) = expected[to as usize];
                let seen = if keep { after } else { after.flipped() };
                assert_eq!(seen, outcome, "seed {seed}, node {node}");
                assert_eq!(left.map(|r| r + 1), remoteness, "seed {seed}, node {node}");
            } else {
                assert!(
                    graph.edges[node as usize].is_empty(),
                    "seed {seed}, node {node}"
                );
            }
        }
        // The line follows best moves: to the end, or (a draw) until a node repeats.
        let line = solved.line();
        match solved.remoteness() {
            Some(remoteness) => assert_eq!(line.len(), remoteness as usize, "seed {seed}"),
            None => assert!(line.len() <= nodes.len(), "seed {seed}"),
        }
    }
}

#[test]
fn parallel_equals_sequential_for_every_thread_count() {
    for seed in 0..12 {
        let graph = random_graph(3000, seed);
        let sequential = retrograde::solve(
            &graph,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        let nodes = reachable(&graph);
        for threads in 1..=8 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let parallel = pool.install(|| {
                retrograde::par_solve(
                    &graph,
                    retrograde::HashIds::new(),
                    retrograde::Options::new(),
                )
                .unwrap()
            });
            for node in &nodes {
                assert_eq!(
                    parallel.outcome_of(node),
                    sequential.outcome_of(node),
                    "seed {seed}, {threads} threads, node {node}"
                );
            }
            assert_eq!(parallel.stats().levels, sequential.stats().levels);
        }
    }
}

#[test]
fn outcome_games_without_cycles_agree_with_the_exhaustive_engine() {
    let sign = |value: Score| match value.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Draw,
    };
    for heaps in [
        vec![1, 2, 3],
        vec![3, 4, 5],
        vec![2, 2],
        vec![7],
        vec![1, 5, 6, 2],
    ] {
        let nim = Nim::new(heaps.clone()).unwrap();
        let engine = exhaustive::solve(&nim, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        let solved =
            retrograde::solve(&nim, retrograde::HashIds::new(), retrograde::Options::new())
                .unwrap();
        assert_eq!(solved.outcome(), sign(engine), "{heaps:?}");
        // The winner's line is as short as it can be: a win in Nim takes at least one move
        // per heap that is not empty, and the line is a legal game to its end.
        let line = solved.line();
        assert_eq!(Some(line.len() as u32), solved.remoteness(), "{heaps:?}");
        // The engine's remoteness and swift line agree with retrograde analysis at every
        // state (won and lost ones: a draw has no remoteness in retrograde analysis).
        let mut solution =
            exhaustive::solve(&nim, HashTable::new(), exhaustive::Options::new()).unwrap();
        for state in reachable_states(&nim) {
            let (outcome, remote) = solved.outcome_of(&state).unwrap();
            if outcome != Outcome::Draw {
                assert_eq!(
                    Some(solution.remoteness(&state).unwrap()),
                    remote,
                    "{state:?}"
                );
            }
        }
        let swift = solution.swift_line().unwrap();
        assert_eq!(Some(swift.len() as u32), solved.remoteness(), "{heaps:?}");
    }
    let mut solution =
        exhaustive::solve(&TicTacToe, HashTable::new(), exhaustive::Options::new()).unwrap();
    let engine = solution.value();
    let solved = retrograde::solve(
        &TicTacToe,
        retrograde::HashIds::new(),
        retrograde::Options::new(),
    )
    .unwrap();
    assert_eq!(solved.outcome(), sign(engine));
    // Every won or lost position: the engine's remoteness is retrograde analysis's.
    let mut compared = 0;
    for board in reachable_states(&TicTacToe) {
        let (outcome, remote) = solved.outcome_of(&board).unwrap();
        if outcome != Outcome::Draw {
            assert_eq!(
                Some(solution.remoteness(&board).unwrap()),
                remote,
                "{board:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
    assert_eq!(solved.remoteness(), None);
    assert_eq!(solved.states(), 5478, "tic-tac-toe's reachable positions");
}

#[test]
fn not_an_outcome_game_and_over_budget_are_refused() {
    let graph = Graph {
        edges: vec![vec![(1, false)], vec![]],
        payoff: vec![0, 5],
    };
    let error = retrograde::solve(
        &graph,
        retrograde::HashIds::new(),
        retrograde::Options::new(),
    )
    .err()
    .unwrap();
    assert!(error.to_string().contains("pays 5"), "{error}");
    // A ring of 5000 nodes: every one reachable, endless play.
    let graph = Graph {
        edges: (0..5000)
            .map(|node| vec![((node + 1) % 5000, false)])
            .collect(),
        payoff: vec![0; 5000],
    };
    let solved = retrograde::solve(
        &graph,
        retrograde::HashIds::new(),
        retrograde::Options::new(),
    )
    .unwrap();
    assert_eq!((solved.outcome(), solved.states()), (Outcome::Draw, 5000));
    assert_eq!(solved.line().len(), 5000, "the line goes round once");
    let error = retrograde::solve(
        &graph,
        retrograde::HashIds::new(),
        retrograde::Options::new().limits(Limits::with_memory_budget(10_000)),
    )
    .err()
    .unwrap();
    assert_eq!(error.kind(), "memory-budget", "{error}");
}

/// Value iteration over any game's reachable states (found by this test's own walk), as in
/// [`oracle`].
fn game_oracle<G>(game: &G) -> std::collections::HashMap<G::State, (Outcome, Option<u32>)>
where
    G: Game,
    G::State: Eq + std::hash::Hash,
{
    use std::collections::HashMap;
    let mut index = HashMap::new();
    let mut states = vec![game.start()];
    index.insert(game.start(), 0usize);
    let mut edges: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut at = 0;
    while at < states.len() {
        let mut moves = Vec::new();
        game.moves_into(&states[at], &mut moves);
        let mut out = Vec::new();
        for mv in &moves {
            let step = game.play(&states[at], mv);
            let next = *index.entry(step.next.clone()).or_insert_with(|| {
                states.push(step.next.clone());
                states.len() - 1
            });
            out.push((next, step.turn == Turn::Keep));
        }
        edges.push(out);
        at += 1;
    }
    let graph = Graph {
        edges: edges
            .into_iter()
            .map(|out| {
                out.into_iter()
                    .map(|(to, keep)| (to as u32, keep))
                    .collect()
            })
            .collect(),
        payoff: states.iter().map(|state| game.payoff(state)).collect(),
    };
    let values = oracle(&graph);
    states.into_iter().zip(values).collect()
}

#[test]
fn leetcode_examples() {
    use gamesolver::games::{CatAndMouse, CatAndMouseII};
    for (graph, answer) in [
        (
            vec![
                vec![2, 5],
                vec![3],
                vec![0, 4, 5],
                vec![1, 4, 5],
                vec![2, 3],
                vec![0, 2, 3],
            ],
            0,
        ),
        (vec![vec![1, 3], vec![0], vec![3], vec![0, 2]], 1),
    ] {
        let game = CatAndMouse::new(graph.clone()).unwrap();
        let solved = retrograde::solve(
            &game,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        assert_eq!(
            CatAndMouse::leetcode_answer(solved.outcome()),
            answer,
            "{graph:?}"
        );
    }
    for (grid, cat_jump, mouse_jump, answer) in [
        (vec!["####F", "#C...", "M...."], 1, 2, true),
        (vec!["M.C...F"], 1, 4, true),
        (vec!["M.C...F"], 1, 3, false),
        (vec!["C...#", "...#F", "....#", "M...."], 2, 5, false),
        (
            vec![".M...", "..#..", "#..#.", "C#.#.", "...#F"],
            3,
            1,
            true,
        ),
    ] {
        let game = CatAndMouseII::new(&grid, cat_jump, mouse_jump).unwrap();
        let solved = retrograde::solve(
            &game,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        let wins = CatAndMouseII::mouse_wins(solved.outcome(), solved.remoteness());
        assert_eq!(wins, answer, "{grid:?}");
    }
}

/// A small xorshift generator for the random Cat and Mouse games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }

    /// A random Cat and Mouse graph of 3 to 2 + `most` nodes (a third of the pairs linked), if
    /// it is a valid game (the mouse and the cat can move).
    fn cat_graph(&mut self, most: u64) -> Option<gamesolver::games::CatAndMouse> {
        let n = 3 + self.below(most) as usize;
        let mut lists = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                if self.below(3) == 0 {
                    lists[a].push(b as i64);
                    lists[b].push(a as i64);
                }
            }
        }
        gamesolver::games::CatAndMouse::new(lists).ok()
    }

    /// A random Cat and Mouse II grid of 1–4 rows and 3–4 columns, a quarter walls, jumps 1–3,
    /// and the game on it.
    fn cat_grid(&mut self) -> (Vec<String>, gamesolver::games::CatAndMouseII) {
        let (rows, columns) = (1 + self.below(4) as usize, 3 + self.below(2) as usize);
        let mut cells: Vec<char> = (0..rows * columns)
            .map(|_| if self.below(4) == 0 { '#' } else { '.' })
            .collect();
        // Three distinct cells for the cat, the mouse and the food.
        let mut places = Vec::new();
        while places.len() < 3 {
            let cell = self.below((rows * columns) as u64) as usize;
            if !places.contains(&cell) {
                places.push(cell);
            }
        }
        for (place, letter) in places.iter().zip(['C', 'M', 'F']) {
            cells[*place] = letter;
        }
        let grid: Vec<String> = cells
            .chunks(columns)
            .map(|row| row.iter().collect())
            .collect();
        let (cat, mouse) = (1 + self.below(3) as i64, 1 + self.below(3) as i64);
        let game = gamesolver::games::CatAndMouseII::new(&grid, cat, mouse).unwrap();
        (grid, game)
    }
}

#[test]
fn cat_and_mouse_games_match_value_iteration() {
    let mut rng = Rng(12345);
    let mut graphs = 0;
    while graphs < 40 {
        // A graph where the mouse or the cat cannot move is refused, as it should be.
        let Some(game) = rng.cat_graph(8) else {
            continue;
        };
        graphs += 1;
        let expected = game_oracle(&game);
        let solved = retrograde::solve(
            &game,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        assert_eq!(solved.states(), expected.len());
        for (state, value) in &expected {
            assert_eq!(
                solved.outcome_of(state),
                Some(*value),
                "{game:?} at {state:?}"
            );
        }
    }
    for _ in 0..40 {
        let (grid, game) = rng.cat_grid();
        let expected = game_oracle(&game);
        let solved = retrograde::solve(
            &game,
            retrograde::HashIds::new(),
            retrograde::Options::new(),
        )
        .unwrap();
        for (state, value) in &expected {
            assert_eq!(
                solved.outcome_of(state),
                Some(*value),
                "{grid:?} at {state:?}"
            );
        }
    }
}

#[test]
fn bad_graphs_and_grids_are_refused_with_what_is_wrong() {
    use gamesolver::games::{CatAndMouse, CatAndMouseII};
    for (graph, says) in [
        (vec![vec![1], vec![0]], "at least 3 nodes"),
        (vec![vec![1], vec![0, 7], vec![1]], "names node 7"),
        (vec![vec![1], vec![0, 2], vec![]], "not symmetric"),
        (vec![vec![0], vec![2], vec![1]], "names node 0 itself"),
        (vec![vec![2, 2], vec![2], vec![0, 1]], "twice"),
        (vec![vec![2], vec![], vec![0]], "the mouse cannot move"),
        (vec![vec![1, 2], vec![0], vec![0]], "the cat cannot move"),
    ] {
        let error = CatAndMouse::new(graph.clone()).unwrap_err().to_string();
        assert!(error.contains(says), "{graph:?}: {error}");
    }
    for (grid, jumps, says) in [
        (vec!["M.C", "F."], (1, 1), "row 2 has 2 cells"),
        (vec!["M.C.."], (1, 1), "exactly one F"),
        (vec!["MCCF"], (1, 1), "exactly one C"),
        (vec!["M.C.F"], (0, 1), "catJump is 0"),
        (vec!["M.X.F"], (1, 1), "'X'"),
    ] {
        let error = CatAndMouseII::new(&grid, jumps.0, jumps.1)
            .unwrap_err()
            .to_string();
        assert!(error.contains(says), "{grid:?}: {error}");
    }
}

#[test]
fn every_mode_agrees_on_the_cat_and_mouse_games() {
    use gamesolver::engines::retrograde::DenseIds;

    let mut rng = Rng(777);
    // The same outcome and remoteness at every reachable state, whatever the mode.
    fn agree<G>(game: &G, what: &str)
    where
        G: gamesolver::game::Predecessors + gamesolver::game::StateAt + Sync + std::fmt::Debug,
        G::State: Eq + std::hash::Hash + Send + Sync + std::fmt::Debug + Copy,
    {
        let reference =
            retrograde::solve(game, retrograde::HashIds::new(), retrograde::Options::new())
                .unwrap();
        let dense =
            retrograde::solve(game, DenseIds::for_game(game), retrograde::Options::new()).unwrap();
        let unmoves = retrograde::solve_with_predecessors(
            game,
            DenseIds::for_game(game),
            retrograde::Options::new(),
        )
        .unwrap();
        let indexed = retrograde::solve_indexed(game, retrograde::Options::new()).unwrap();
        let expected = game_oracle(game);
        for (state, value) in &expected {
            let value = Some(*value);
            assert_eq!(
                reference.outcome_of(state),
                value,
                "{what} {game:?} at {state:?}"
            );
            assert_eq!(dense.outcome_of(state), value, "{what}: dense at {state:?}");
            assert_eq!(
                unmoves.outcome_of(state),
                value,
                "{what}: predecessors at {state:?}"
            );
            assert_eq!(
                indexed.outcome_of(state),
                value,
                "{what}: indexed at {state:?}"
            );
        }
        assert_eq!(indexed.line().len(), reference.line().len(), "{what}");
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (parallel, unmoving) = pool.install(|| {
                (
                    retrograde::par_solve_indexed(game, retrograde::Options::new()).unwrap(),
                    retrograde::par_solve_with_predecessors(
                        game,
                        DenseIds::for_game(game),
                        retrograde::Options::new(),
                    )
                    .unwrap(),
                )
            });
            for (state, value) in &expected {
                assert_eq!(
                    parallel.outcome_of(state),
                    Some(*value),
                    "{what}, {threads} threads"
                );
                assert_eq!(
                    unmoving.outcome_of(state),
                    Some(*value),
                    "{what}, {threads} threads"
                );
            }
        }
    }
    let mut graphs = 0;
    while graphs < 25 {
        if let Some(game) = rng.cat_graph(9) {
            graphs += 1;
            agree(&game, "graph");
        }
    }
    for _ in 0..25 {
        agree(&rng.cat_grid().1, "grid");
    }
}

#[test]
fn the_checker_takes_outcome_games_that_cycle() {
    use gamesolver::check::{CheckOptions, check_outcome};
    // Random graphs with cycles: the contract holds, and every state's value agrees with the
    // checker's own value iteration.
    for seed in 0..40 {
        let graph = random_graph(2 + seed as usize % 30, seed);
        let report = check_outcome(&graph, &CheckOptions::default());
        assert!(report.is_ok(), "seed {seed}: {:?}", report.violations);
        assert_eq!(
            report.values_compared,
            reachable(&graph).len(),
            "seed {seed}"
        );
    }
    // A payoff outside -1..=1, and a move that gains points, are what retrograde cannot use.
    let paying = Graph {
        edges: vec![vec![(1, false), (0, false)], vec![]],
        payoff: vec![0, 3],
    };
    let report = check_outcome(&paying, &CheckOptions::default());
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.to_string().contains("payoff(1) is 3")),
        "{:?}",
        report.violations
    );
    struct Gaining;
    impl Game for Gaining {
        type State = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        fn moves(&self, at: &u8) -> impl Iterator<Item = u8> {
            (*at < 2).then_some(1).into_iter()
        }
        fn play(&self, at: &u8, by: &u8) -> Step<u8> {
            Step {
                next: at + by,
                gain: 1,
                turn: Turn::Pass,
            }
        }
        fn payoff(&self, _: &u8) -> Score {
            -1
        }
    }
    let report = check_outcome(&Gaining, &CheckOptions::default());
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.to_string().contains("gains 1")),
        "{:?}",
        report.violations
    );
}

/// Every state reachable from the start of `game` (a game without cycles).
fn reachable_states<G: Game>(game: &G) -> Vec<G::State>
where
    G::State: Eq + std::hash::Hash,
{
    let mut open = vec![game.start()];
    let mut seen = std::collections::HashSet::new();
    let mut order = Vec::new();
    let mut moves = Vec::new();
    while let Some(state) = open.pop() {
        if !seen.insert(state.clone()) {
            continue;
        }
        moves.clear();
        game.moves_into(&state, &mut moves);
        open.extend(moves.iter().map(|mv| game.play(&state, mv).next));
        order.push(state);
    }
    order
}
