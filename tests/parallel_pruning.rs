//! The parallel pruning engine's shared search (split points: a searching worker hands the
//! other moves of a state to idle workers) against a plain negamax of the literal rules, on
//! random game *trees* large enough that the workers really split them: per-move gains, extra
//! turns, every driver, declared ranges or none, tables that forget, 2 to 8 threads. Each test
//! also checks that the helpers did search (a game that records the threads its moves were
//! asked on), so that a parallel engine that left the work to one thread would fail it.

use gamesolver::SolveError;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use gamesolver::engines::pruning;
use gamesolver::games::ConnectFour;
use gamesolver::memo::{AtomicBoundTable, ConcurrentBoundTable, ShardedBoundTable};
use gamesolver::{
    CompactKey, Game, Limits, Score, Step, Turn, ValueRange,
    engines::pruning::{Driver, Pruner},
};
use proptest::prelude::*;

/// Taken by every test here: they run one at a time, so that the helpers of one test's pool
/// do not wait for cores that another test's pool keeps busy.
static ALONE: Mutex<()> = Mutex::new(());

/// [`ALONE`], even if a test panicked while holding it.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    ALONE.lock().unwrap_or_else(|poison| poison.into_inner())
}

const DRIVERS: [Driver; 5] = [
    Driver::Auto,
    Driver::Bisection,
    Driver::Mtdf,
    Driver::OutsideIn,
    Driver::FullWindow,
];

/// A random game tree: a state is a node (its depth and its path from the root, two bits a
/// move); each node has 0 to `branching` (at most 4) moves below `depth` (at most 16), each
/// with a gain in `-gain..=gain` and an extra turn one time in four; a leaf pays a payoff in
/// `-gain..=gain`, all drawn from the seed and the node. Records on which rayon threads its
/// moves were listed.
#[derive(Debug)]
struct RandomTree {
    seed: u64,
    depth: u32,
    branching: u64,
    gain: i64,
    /// The fewest moves of a node above the last level (2 on the first two levels anyway).
    least: u64,
    /// Bit `i`: moves were listed on thread `i` of the current pool (`63` outside one).
    threads: AtomicU64,
}

/// A node: its depth and its path (the moves from the root, two bits each).
type Node = (u32, u64);

/// A mix of `value` and `salt` (splitmix64's finaliser).
fn mix(value: u64, salt: u64) -> u64 {
    let mut z = value ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RandomTree {
    fn new(seed: u64, depth: u32, branching: u64, gain: i64) -> Self {
        assert!(depth <= 16 && branching <= 4);
        RandomTree {
            seed,
            depth,
            branching,
            gain,
            least: 0,
            threads: AtomicU64::new(0),
        }
    }

    /// The same tree with at least `least` moves at every node above the last level.
    fn at_least(self, least: u64) -> Self {
        RandomTree { least, ..self }
    }

    fn count(&self, node: &Node) -> u64 {
        if node.0 >= self.depth {
            0
        } else {
            // The first levels always branch, so that the tree is never trivial.
            let least = if node.0 < 2 {
                self.least.max(2)
            } else {
                self.least
            };
            least.max(self.random(node, 1) % (self.branching + 1))
        }
    }

    /// A number drawn for `node` (`what` tells the draws of one node apart).
    fn random(&self, node: &Node, what: u64) -> u64 {
        mix(mix(node.1, u64::from(node.0)), self.seed ^ what)
    }

    fn draw(&self, value: u64) -> Score {
        (value % (2 * self.gain as u64 + 1)) as Score - self.gain
    }

    /// The value of `node` for its side to move, by negamax over the literal rules (no
    /// table, no pruning).
    fn oracle(&self, node: &Node) -> Score {
        let mut moves = Vec::new();
        self.moves_of(node, &mut moves);
        moves
            .iter()
            .map(|mv| {
                let step = self.play(node, mv);
                match step.turn {
                    Turn::Pass => step.gain - self.oracle(&step.next),
                    Turn::Keep => step.gain + self.oracle(&step.next),
                }
            })
            .max()
            .unwrap_or_else(|| self.payoff(node))
    }

    fn moves_of(&self, node: &Node, moves: &mut Vec<u64>) {
        moves.extend(0..self.count(node));
    }

    /// How many threads listed moves since the last call (and forgets them).
    fn threads_seen(&self) -> u32 {
        self.threads.swap(0, Ordering::Relaxed).count_ones()
    }
}

impl Game for RandomTree {
    type State = Node;
    type Move = u64;
    fn start(&self) -> Node {
        (0, 0)
    }
    fn moves(&self, node: &Node) -> impl Iterator<Item = u64> {
        let mut moves = Vec::new();
        self.moves_into(node, &mut moves);
        moves.into_iter()
    }
    fn moves_into(&self, node: &Node, moves: &mut Vec<u64>) {
        let thread = rayon::current_thread_index().unwrap_or(63).min(63);
        self.threads.fetch_or(1 << thread, Ordering::Relaxed);
        self.moves_of(node, moves);
    }
    fn play(&self, node: &Node, mv: &u64) -> Step<Node> {
        let next = (node.0 + 1, node.1 << 2 | mv);
        let drawn = self.random(&next, 2);
        Step {
            next,
            gain: self.draw(drawn >> 8),
            turn: if drawn.is_multiple_of(4) {
                Turn::Keep
            } else {
                Turn::Pass
            },
        }
    }
    fn payoff(&self, node: &Node) -> Score {
        self.draw(self.random(node, 3))
    }
}

/// A true range: every gain and the payoff are at most `gain` in size.
impl ValueRange for RandomTree {
    fn value_range(&self, node: &Node) -> (Score, Score) {
        let most = (i64::from(self.depth - node.0) + 1) * self.gain;
        (-most, most)
    }
}

impl CompactKey for RandomTree {
    fn key_bits(&self) -> u32 {
        37
    }
    /// Exact: the path has two bits a move and at most 16 moves; the depth takes 5 bits.
    fn key(&self, node: &Node) -> u128 {
        u128::from(node.1 << 5 | u64::from(node.0))
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// The value of `tree`'s start on `threads` threads with `table`, `driver`, ranges or not.
fn parallel_value<T: ConcurrentBoundTable<RandomTree>>(
    tree: &RandomTree,
    table: &T,
    threads: usize,
    driver: Driver,
    ranged: bool,
) -> Score {
    let options = pruning::Options::new().driver(driver);
    pool(threads)
        .install(|| {
            if ranged {
                pruning::par_solve(tree, table, options.ranged()).map(|solution| solution.value())
            } else {
                pruning::par_solve(tree, table, options).map(|solution| solution.value())
            }
        })
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_trees_on_many_threads_equal_the_literal_negamax(
        seed in any::<u64>(),
        depth in 3u32..=8,
        branching in 2u64..=4,
        gain in 0i64..=9,
        threads in 2usize..=8,
        way in 0usize..8,
    ) {
        let _alone = alone();
        let tree = RandomTree::new(seed, depth, branching, gain);
        let expected = tree.oracle(&tree.start());
        let (driver, ranged) = (DRIVERS[way % 4], way >= 4);
        prop_assert_eq!(parallel_value(&tree, &ShardedBoundTable::new(), threads, driver, ranged), expected);
        // A table of 16 slots forgets nearly everything: the workers meet again and again.
        for bytes in [128, 1 << 16] {
            let table = AtomicBoundTable::for_game(&tree, bytes).unwrap();
            prop_assert_eq!(parallel_value(&tree, &table, threads, driver, ranged), expected);
        }
    }
}

/// Trees of a few million states: on two and more threads, every driver, the value is the
/// literal negamax's, and the helpers searched (moves were listed on several threads) in a
/// good part of the solves (most, on a quiet machine: a helper that wakes late, or whose core
/// is busy with another test, may find a solve done).
#[test]
fn the_helpers_take_part_and_the_values_stay_exact() {
    let _alone = alone();
    let (mut solves, mut shared) = (0, 0);
    for (seed, threads) in [(1u64, 2usize), (2, 3), (3, 2), (4, 8)] {
        let tree = RandomTree::new(seed, 14, 4, 5).at_least(2);
        let expected = tree.oracle(&tree.start());
        for driver in DRIVERS {
            for ranged in [false, true] {
                let table = AtomicBoundTable::for_game(&tree, 1 << 20).unwrap();
                tree.threads_seen();
                let value = parallel_value(&tree, &table, threads, driver, ranged);
                assert_eq!(value, expected, "seed {seed}, {driver:?}, ranged {ranged}");
                solves += 1;
                shared += usize::from(tree.threads_seen() >= 2);
            }
        }
    }
    assert!(
        shared * 4 >= solves,
        "the helpers searched in {shared} of {solves} solves"
    );
}

/// Connect Four positions solved one after another on one table (as `--batch --one-at-a-time`
/// does) on 2 and 3 threads: the published scores of Pons' benchmark positions.
#[test]
fn connect_four_positions_one_after_another_on_shared_tables() {
    let _alone = alone();
    let game = ConnectFour::new(7, 6).unwrap();
    let lines = std::fs::read_to_string("tests/data/connect4/Test_L2_R1").unwrap();
    for threads in [2, 3] {
        let table = AtomicBoundTable::for_game(&game, 4 << 20).unwrap();
        let mut pruner = Pruner::new(&game, &table, pruning::Options::new().ranged()).unwrap();
        pool(threads).install(|| {
            for line in lines.lines().take(40) {
                let (moves, score) = line.split_once(' ').unwrap();
                let position = game.position(moves).unwrap();
                let found = pruner.par_value_of(&position).unwrap();
                assert_eq!(
                    found,
                    score.parse::<Score>().unwrap(),
                    "{moves}, {threads} threads"
                );
            }
        });
    }
}

/// An error in any worker ends the query with that error: a time limit, reached by whichever
/// worker checks first, on the empty 7×6 board (minutes of search).
#[test]
fn an_error_in_any_worker_ends_the_query() {
    let _alone = alone();
    let game = ConnectFour::new(7, 6).unwrap();
    let table = AtomicBoundTable::for_game(&game, 1 << 20).unwrap();
    let limit = std::time::Duration::from_millis(50);
    let options = pruning::Options::new()
        .ranged()
        .limits(Limits::unlimited().time_limit(limit));
    for threads in [2, 4] {
        let started = std::time::Instant::now();
        let result =
            pool(threads).install(|| pruning::par_solve(&game, &table, options).map(|s| s.value()));
        assert!(
            matches!(result, Err(SolveError::TimeLimit { .. })),
            "{result:?}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }
}
