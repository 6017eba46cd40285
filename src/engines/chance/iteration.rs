//! Value iteration with proved bounds, for a game with chance whose play may cycle: the states
//! of a tier (or every reachable state) compiled into arrays, a lower and an upper bound per
//! state tightened by Gauss–Seidel sweeps, and where a tier is small its policy solved exactly.
//!
//! Why the bounds hold: the bounds start at the values' range, so every solution `v*` of the
//! game's equations (`v(s)` the best move's value, or the outcomes' expectation) lies between
//! them. A sweep computes each state's new bounds from its children's (a move that passes the
//! turn negates, so its child's upper bound gives the move's lower one), which maps bounds
//! around `v*` to bounds around `v*`; the result is widened by more than its rounding error
//! could be, and kept only where it is tighter than before. So at every sweep, every solution
//! lies within the bounds, and their half-width is a proved error bound for the midpoint.

use std::collections::VecDeque;
use std::hash::Hash;
use std::time::Instant;

use hashbrown::HashMap;

use super::linear::integer;
use super::solution::{ChanceSolution, Query};
use super::{Options, Rational, Roll, Value, check_probabilities};
use crate::engines::kernel::{CHECK_EVERY, RunGuard, Stats};
use crate::engines::solver::Engine;
use crate::error::SolveError;
use crate::game::declaration::{OnRange, RangeSlot};
use crate::game::{Declares, Game, Probability, Score, Tiered, Turn, ValueRange};

/// What a node of a compiled tier is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The mover chooses.
    Decision,
    /// A roll decides.
    Chance,
    /// Its value is known (a payoff, a known value, or a hole in a tier's ranks).
    Fixed,
}

/// Where a move leads, for the compiler: a state of the tier being solved (its index), or a
/// state solved before (its bounds, and its exact value where it has one).
pub(crate) enum Place {
    Inside(u32),
    Outside(f64, f64, Option<Rational>),
}

/// A move of a small tier, kept for the exact step.
pub(super) struct Detail {
    pub(super) gain: Score,
    pub(super) keep: bool,
    pub(super) probability: Probability,
    pub(super) place: Place,
}

/// A tier (or a game without tiers) compiled: per node its kind, initial bounds and the part
/// of its value that comes from states solved before; per move inside the tier, its target,
/// sign, gain and weight.
pub(super) struct Compiled {
    pub(super) kind: Vec<Kind>,
    /// The bounds each node starts from (a fixed node's value, twice).
    pub(super) start: Vec<(f64, f64)>,
    /// The value's part from moves that leave the tier: for a decision node the best of them
    /// (−∞ with none), for a chance node their weighted sum.
    pub(super) outside: Vec<(f64, f64)>,
    /// Each node's moves inside the tier are `first[node]..first[node + 1]`.
    pub(super) first: Vec<u32>,
    pub(super) target: Vec<u32>,
    pub(super) keep: Vec<bool>,
    pub(super) gain: Vec<f64>,
    pub(super) weight: Vec<f64>,
    /// Every move of every node, where the tier is small enough to be solved exactly.
    pub(super) details: Option<Vec<Vec<Detail>>>,
    /// A node's exact value where it is fixed.
    pub(super) fixed: Vec<Option<Score>>,
    /// The most moves a node has, the largest gain and bound: for the rounding margin.
    pub(super) widest: usize,
    pub(super) largest: f64,
}

/// A compiled tier laid out for sweeping ([`Compiled::pack`]).
struct Packed {
    nodes: Vec<Sweep>,
    edges: Vec<Edge>,
}

/// A node as a sweep sees it: its index, whether a roll decides it, the part of its value from
/// outside the tier, and its moves inside (`first..split` keep the turn, `split..end` pass it).
struct Sweep {
    at: u32,
    chance: bool,
    outside: (f64, f64),
    first: u32,
    split: u32,
    end: u32,
}

/// A move inside a tier: its target, gain, and probability (1 at a decision node).
struct Edge {
    target: u32,
    gain: f64,
    weight: f64,
}

/// A tier's values: bounds per node, and exact values where the exact step succeeded.
pub(crate) struct Solved {
    low: Vec<f64>,
    high: Vec<f64>,
    exact: Option<Vec<Rational>>,
}

impl Solved {
    fn value(&self, at: usize) -> Value {
        match &self.exact {
            Some(exact) => Value::from_exact(exact[at].clone()),
            None => Value::bounded(self.low[at], self.high[at]),
        }
    }

    fn place(&self, at: usize) -> Place {
        Place::Outside(
            self.low[at],
            self.high[at],
            self.exact.as_ref().map(|exact| exact[at].clone()),
        )
    }
}

/// The bounds a state's value starts from: a declared range, or −1..1 in an outcome game.
type Ranges<'g, G> = Box<dyn Fn(&<G as Game>::State) -> (Score, Score) + 'g>;

/// The game's bounds on its values, from its declaration; [`SolveError::Unsupported`] if it
/// declares none.
fn ranges<G: Game>(game: &G) -> Result<Ranges<'_, G>, SolveError> {
    let declared = game.capabilities();
    if declared.outcome_game() {
        return Ok(Box::new(|_| (-1, 1)));
    }
    struct Reader<'g, G>(&'g G);
    impl<'g, G: Game> OnRange<G> for Reader<'g, G> {
        type Output = Option<Ranges<'g, G>>;
        fn declared(self) -> Self::Output
        where
            G: ValueRange,
        {
            let game = self.0;
            Some(Box::new(move |state| game.value_range(state)))
        }
        fn undeclared(self) -> Self::Output {
            None
        }
    }
    fn visit<'g, G: Game, D: Declares<G>>(game: &'g G, _: &D) -> Option<Ranges<'g, G>> {
        <D::Range as RangeSlot<G>>::visit(Reader(game))
    }
    visit(game, &declared).ok_or_else(|| {
        SolveError::Unsupported(
            "value iteration starts from bounds on the values: declare the game an outcome game \
             (values −1..1) or its value range"
                .into(),
        )
    })
}

/// Compiles the states `states` (their places inside given by `locate`, `None` for a hole).
fn compile<G, X>(
    game: &G,
    roll: X,
    states: &[Option<G::State>],
    ranges: &Ranges<'_, G>,
    exact_states: usize,
    mut locate: impl FnMut(&G::State) -> Result<Place, SolveError>,
) -> Result<Compiled, SolveError>
where
    G: Game,
    X: Roll<G>,
{
    let n = states.len();
    let keep_details = n <= exact_states;
    let mut compiled = Compiled {
        kind: Vec::with_capacity(n),
        start: Vec::with_capacity(n),
        outside: Vec::with_capacity(n),
        first: Vec::with_capacity(n + 1),
        target: Vec::new(),
        keep: Vec::new(),
        gain: Vec::new(),
        weight: Vec::new(),
        details: keep_details.then(Vec::new),
        fixed: Vec::with_capacity(n),
        widest: 0,
        largest: 0.0,
    };
    let mut moves = Vec::new();
    for state in states {
        compiled.first.push(compiled.target.len() as u32);
        let mut details = Vec::new();
        let fixed = match state {
            None => Some(0),
            Some(state) => match game.known_value(state) {
                Some(known) => Some(known),
                None => {
                    moves.clear();
                    game.moves_into(state, &mut moves);
                    moves.is_empty().then(|| game.payoff(state))
                }
            },
        };
        if let Some(value) = fixed {
            if value == Score::MIN {
                return Err(SolveError::ScoreOverflow);
            }
            compiled.kind.push(Kind::Fixed);
            compiled.start.push((value as f64, value as f64));
            compiled.outside.push((0.0, 0.0));
            compiled.fixed.push(Some(value));
            compiled.largest = compiled.largest.max((value as f64).abs());
            if let Some(all) = &mut compiled.details {
                all.push(details);
            }
            continue;
        }
        let state = state.as_ref().expect("a hole is fixed");
        let chance = roll.is_chance(game, state);
        if chance {
            check_probabilities(
                game,
                state,
                moves
                    .iter()
                    .map(|outcome| roll.probability(game, state, outcome)),
            )?;
        }
        let (low, high) = ranges(state);
        compiled.largest = compiled
            .largest
            .max((low as f64).abs())
            .max((high as f64).abs());
        let mut outside = if chance {
            (0.0, 0.0)
        } else {
            (f64::NEG_INFINITY, f64::NEG_INFINITY)
        };
        compiled.widest = compiled.widest.max(moves.len());
        for mv in &moves {
            let step = game.play(state, mv);
            let keep = step.turn == Turn::Keep;
            let probability = if chance {
                roll.probability(game, state, mv)
            } else {
                Probability::ONE
            };
            let weight = probability.to_f64();
            let gain = step.gain as f64;
            compiled.largest = compiled.largest.max(gain.abs());
            // A child whose value the game knows needs no place in any tier.
            let place = match game.known_value(&step.next) {
                Some(known) => Place::Outside(known as f64, known as f64, Some(integer(known))),
                None => locate(&step.next)?,
            };
            match &place {
                Place::Inside(target) => {
                    compiled.target.push(*target);
                    compiled.keep.push(keep);
                    compiled.gain.push(gain);
                    compiled.weight.push(weight);
                }
                Place::Outside(child_low, child_high, _) => {
                    let (move_low, move_high) = if keep {
                        (gain + child_low, gain + child_high)
                    } else {
                        (gain - child_high, gain - child_low)
                    };
                    if chance {
                        outside.0 += weight * move_low;
                        outside.1 += weight * move_high;
                    } else {
                        outside.0 = outside.0.max(move_low);
                        outside.1 = outside.1.max(move_high);
                    }
                }
            }
            if keep_details {
                details.push(Detail {
                    gain: step.gain,
                    keep,
                    probability,
                    place,
                });
            }
        }
        compiled
            .kind
            .push(if chance { Kind::Chance } else { Kind::Decision });
        compiled.start.push((low as f64, high as f64));
        compiled.outside.push(outside);
        compiled.fixed.push(None);
        if let Some(all) = &mut compiled.details {
            all.push(details);
        }
    }
    compiled.first.push(compiled.target.len() as u32);
    Ok(compiled)
}

impl Compiled {
    /// The nodes in an order that values a node's children before it where no cycle says
    /// otherwise (a depth-first search's finishing order over the moves inside the tier):
    /// Gauss–Seidel then settles acyclic stretches (a turn's rolls) in one sweep.
    fn order(&self) -> Vec<u32> {
        let n = self.kind.len();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for root in 0..n as u32 {
            if seen[root as usize] {
                continue;
            }
            seen[root as usize] = true;
            stack.push((root, self.first[root as usize]));
            while let Some((node, edge)) = stack.last_mut() {
                let node = *node;
                if *edge < self.first[node as usize + 1] {
                    let target = self.target[*edge as usize];
                    *edge += 1;
                    if !seen[target as usize] {
                        seen[target as usize] = true;
                        stack.push((target, self.first[target as usize]));
                    }
                } else {
                    stack.pop();
                    if self.kind[node as usize] != Kind::Fixed {
                        order.push(node);
                    }
                }
            }
        }
        order
    }

    /// The tier laid out for sweeping: the nodes that are not fixed, in [`order`](Self::order),
    /// each with its moves that keep the turn first and those that pass it after (no branch
    /// per move on its sign).
    fn pack(&self) -> Packed {
        let order = self.order();
        let mut packed = Packed {
            nodes: Vec::with_capacity(order.len()),
            edges: Vec::with_capacity(self.target.len()),
        };
        for node in order {
            let node = node as usize;
            let moves = self.first[node] as usize..self.first[node + 1] as usize;
            let first = packed.edges.len() as u32;
            for keep in [true, false] {
                for edge in moves.clone().filter(|&edge| self.keep[edge] == keep) {
                    packed.edges.push(Edge {
                        target: self.target[edge],
                        gain: self.gain[edge],
                        weight: self.weight[edge],
                    });
                }
                if keep {
                    packed.nodes.push(Sweep {
                        at: node as u32,
                        chance: self.kind[node] == Kind::Chance,
                        outside: self.outside[node],
                        first,
                        split: packed.edges.len() as u32,
                        end: 0,
                    });
                }
            }
            packed.nodes.last_mut().expect("just pushed").end = packed.edges.len() as u32;
        }
        packed
    }

    /// Sweeps until the bounds are `target` apart or stop closing; returns the sweeps made.
    fn iterate(
        &self,
        bounds: &mut [[f64; 2]],
        target: f64,
        guard: RunGuard<'_>,
    ) -> Result<u64, SolveError> {
        let packed = self.pack();
        // Each update's rounding error is below (3k + 2) half-ulps of the largest magnitude
        // involved (k moves: a sum, a product and an addition each): widened by more.
        let margin = (3.0 * self.widest as f64 + 3.0) * f64::EPSILON * (2.0 * self.largest + 1.0);
        let mut sweeps = 0u64;
        let mut gap = f64::INFINITY;
        let mut reported = 0;
        loop {
            let mut widest = 0.0f64;
            for node in &packed.nodes {
                let (mut lo, mut hi) = node.outside;
                let keeps = &packed.edges[node.first as usize..node.split as usize];
                let passes = &packed.edges[node.split as usize..node.end as usize];
                if node.chance {
                    for edge in keeps {
                        let [a, b] = bounds[edge.target as usize];
                        lo += edge.weight * (edge.gain + a);
                        hi += edge.weight * (edge.gain + b);
                    }
                    for edge in passes {
                        let [a, b] = bounds[edge.target as usize];
                        lo += edge.weight * (edge.gain - b);
                        hi += edge.weight * (edge.gain - a);
                    }
                } else {
                    for edge in keeps {
                        let [a, b] = bounds[edge.target as usize];
                        lo = lo.max(edge.gain + a);
                        hi = hi.max(edge.gain + b);
                    }
                    for edge in passes {
                        let [a, b] = bounds[edge.target as usize];
                        lo = lo.max(edge.gain - b);
                        hi = hi.max(edge.gain - a);
                    }
                }
                let own = &mut bounds[node.at as usize];
                own[0] = own[0].max(lo - margin);
                own[1] = own[1].min(hi + margin);
                widest = widest.max(own[1] - own[0]);
            }
            sweeps += 1;
            if widest <= target || widest >= gap - f64::EPSILON * gap.max(1e-300) {
                return Ok(sweeps);
            }
            gap = widest;
            if sweeps.is_multiple_of(16) || sweeps * packed.nodes.len() as u64 >= CHECK_EVERY as u64
            {
                let bytes = (bounds.len() * 16 + packed.edges.len() * size_of::<Edge>()) as u64;
                guard.check(bytes, &mut reported, 0, "value iteration", bounds.len(), 0)?;
            }
        }
    }
}

/// Solves one compiled tier: its bounds (and exact values where it is small).
fn solve_compiled(
    compiled: &Compiled,
    options: &Options,
    guard: RunGuard<'_>,
    stats: &mut Stats,
) -> Result<Solved, SolveError> {
    let mut bounds: Vec<[f64; 2]> = compiled
        .start
        .iter()
        .map(|&(low, high)| [low, high])
        .collect();
    let sweeps = compiled.iterate(&mut bounds, options.error_bound, guard)?;
    let (low, high): (Vec<f64>, Vec<f64>) =
        bounds.into_iter().map(|[low, high]| (low, high)).unzip();
    stats.expanded += sweeps * compiled.kind.len() as u64;
    stats.stored += compiled.kind.len();
    let exact = if compiled.kind.len() <= options.exact_states {
        compiled.exact(&low, &high)
    } else {
        None
    };
    Ok(Solved { low, high, exact })
}

/// Where the solution finds a state: its tier and index there, or `None`.
type Finder<'g, S> = Box<dyn Fn(&S) -> Option<(usize, usize)> + 'g>;

/// The state at a tier and index, where the solution can say (`None`: a hole).
#[cfg(feature = "cli")]
type Lister<'g, S> = Box<dyn Fn(usize, usize) -> Option<S> + 'g>;

/// The result's queries.
struct Iterated<'g, G: Game, X> {
    game: &'g G,
    roll: X,
    tiers: Vec<Option<Solved>>,
    find: Finder<'g, G::State>,
    #[cfg(feature = "cli")]
    list: Lister<'g, G::State>,
    stats: Stats,
    table: &'static str,
}

impl<G: Game, X: Roll<G>> Query<G> for Iterated<'_, G, X> {
    fn value_of(&mut self, state: &G::State) -> Result<Value, SolveError> {
        if let Some(known) = self.game.known_value(state) {
            return Ok(Value::score(known));
        }
        let found = (self.find)(state).and_then(|(tier, at)| {
            let solved = self.tiers.get(tier)?.as_ref()?;
            (at < solved.low.len()).then(|| solved.value(at))
        });
        found.ok_or_else(|| {
            SolveError::Unanswerable(
                "value iteration valued the states reachable from the start (by tiers: the \
                 start's tier and the later ones), and this state is not among them"
                    .into(),
            )
        })
    }
    fn is_chance(&self, state: &G::State) -> bool {
        self.roll.is_chance(self.game, state)
    }
    fn probability(&self, state: &G::State, outcome: &G::Move) -> Probability {
        self.roll.probability(self.game, state, outcome)
    }
    fn stats(&self) -> Stats {
        self.stats
    }
    fn engine(&self) -> Engine {
        Engine::ValueIteration
    }
    fn table(&self) -> &'static str {
        self.table
    }
    fn threads(&self) -> usize {
        1
    }
    #[cfg(feature = "cli")]
    fn held(&self, each: &mut dyn FnMut(super::solution::Held<'_, G::State>, Value)) {
        for (tier, solved) in self.tiers.iter().enumerate() {
            let Some(solved) = solved else { continue };
            for at in 0..solved.low.len() {
                if let Some(state) = (self.list)(tier, at)
                    && self.game.known_value(&state).is_none()
                {
                    each(super::solution::Held::State(&state), solved.value(at));
                }
            }
        }
    }
}

/// Value iteration over every state reachable from the start, as one tier.
pub(crate) fn iterate<G, X>(
    game: &G,
    roll: X,
    options: Options,
) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Game,
    G::State: Eq + Hash,
    X: Roll<G>,
{
    let clock = Instant::now();
    let ranges = ranges(game)?;
    let guard = RunGuard::new(options.limits, None);
    let start = game.start();
    // Every reachable state, numbered in the order found.
    let mut ids: HashMap<G::State, u32> = HashMap::new();
    let mut states: Vec<Option<G::State>> = Vec::new();
    let mut queue = VecDeque::new();
    ids.insert(start.clone(), 0);
    states.push(Some(start.clone()));
    queue.push_back(start.clone());
    let mut reported = 0;
    while let Some(state) = queue.pop_front() {
        if game.known_value(&state).is_some() {
            continue;
        }
        for mv in game.moves(&state) {
            let next = game.play(&state, &mv).next;
            if !ids.contains_key(&next) {
                ids.insert(next.clone(), states.len() as u32);
                states.push(Some(next.clone()));
                queue.push_back(next);
            }
        }
        if states.len().is_multiple_of(CHECK_EVERY) {
            let bytes = (ids.capacity() * (size_of::<(G::State, u32)>() + 1)
                + states.capacity() * size_of::<Option<G::State>>()) as u64;
            guard.check(bytes, &mut reported, 0, "value iteration", states.len(), 0)?;
        }
    }
    let compiled = compile(game, roll, &states, &ranges, options.exact_states, |next| {
        ids.get(next).map(|&id| Place::Inside(id)).ok_or_else(|| {
            SolveError::InvalidGame(
                "a move leads to a state the search did not reach: the \
                 game's moves or steps changed between two calls"
                    .into(),
            )
        })
    })?;
    drop(states);
    let mut stats = Stats::default();
    let solved = solve_compiled(&compiled, &options, guard, &mut stats)?;
    drop(compiled);
    let value = solved.value(0);
    stats.elapsed = clock.elapsed();
    // The states by id, for `--save` to write (the command line only).
    #[cfg(feature = "cli")]
    let states = {
        let mut states: Vec<Option<G::State>> = vec![None; ids.len()];
        for (state, &id) in ids.iter() {
            states[id as usize] = Some(state.clone());
        }
        states
    };
    let query = Iterated {
        game,
        roll,
        tiers: vec![Some(solved)],
        find: Box::new(move |state| ids.get(state).map(|&id| (0, id as usize))),
        #[cfg(feature = "cli")]
        list: Box::new(move |_, at| states.get(at).cloned().flatten()),
        stats,
        table: "states",
    };
    Ok(ChanceSolution::new(
        game,
        start,
        value,
        Box::new(query),
        options.seed,
    ))
}

/// Value iteration tier by tier, from the last down to the start's.
pub(crate) fn iterate_tiers<G, X>(
    game: &G,
    roll: X,
    options: Options,
) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Tiered,
    X: Roll<G>,
{
    let clock = Instant::now();
    let ranges = ranges(game)?;
    let guard = RunGuard::new(options.limits, None);
    let start = game.start();
    let (first, count) = (game.tier(&start), game.tier_count());
    let mut tiers: Vec<Option<Solved>> = (0..count).map(|_| None).collect();
    let mut stats = Stats::default();
    for tier in (first..count).rev() {
        let len = usize::try_from(game.tier_len(tier)).map_err(|_| {
            SolveError::Unsupported(format!(
                "tier {tier} has more ranks than this machine counts"
            ))
        })?;
        let mut states: Vec<Option<G::State>> = Vec::with_capacity(len);
        for rank in 0..len as u64 {
            let state = match states.last() {
                Some(Some(previous)) => game.unrank_next(tier, rank, previous),
                _ => game.unrank(tier, rank),
            };
            states.push(state);
        }
        let solved_after = &tiers;
        let compiled = compile(game, roll, &states, &ranges, options.exact_states, |next| {
            let (to, rank) = (game.tier(next), game.rank(next) as usize);
            if to == tier {
                return if rank < len {
                    Ok(Place::Inside(rank as u32))
                } else {
                    Err(outside_tier(tier, to, rank))
                };
            }
            match solved_after.get(to).and_then(Option::as_ref) {
                Some(solved) if to > tier && rank < solved.low.len() => Ok(solved.place(rank)),
                _ => Err(outside_tier(tier, to, rank)),
            }
        })?;
        drop(states);
        tiers[tier] = Some(solve_compiled(&compiled, &options, guard, &mut stats)?);
    }
    let at = game.rank(&start) as usize;
    let value = tiers[first]
        .as_ref()
        .map(|solved| solved.value(at))
        .expect("the start's tier is solved");
    stats.elapsed = clock.elapsed();
    let query = Iterated {
        game,
        roll,
        tiers,
        find: Box::new(move |state| Some((game.tier(state), game.rank(state) as usize))),
        #[cfg(feature = "cli")]
        list: Box::new(move |tier, at| game.unrank(tier, at as u64)),
        stats,
        table: "tiers",
    };
    Ok(ChanceSolution::new(
        game,
        start,
        value,
        Box::new(query),
        options.seed,
    ))
}

/// A move from `tier` that leads where value iteration by tiers cannot read it.
fn outside_tier(tier: usize, to: usize, rank: usize) -> SolveError {
    SolveError::InvalidGame(format!(
        "a move from tier {tier} leads to rank {rank} of tier {to}: value iteration by tiers \
         needs every move to lead to the same tier or a later one, to a rank below the tier's \
         length"
    ))
}
