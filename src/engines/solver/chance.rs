//! [`Solver::solve_chance`]: a game with chance, read from its declaration (chance states,
//! play that may cycle, tiers, a dense index) and solved by the chance engine that suits it.

use std::hash::Hash;
use std::marker::PhantomData;

use super::plan::Facts;
use super::{Engine, Plan, Solver};
use crate::engines::chance::{
    ChanceSolution, NoRolls, Options, Roll, Rolls, expectimax, iteration,
};
use crate::error::SolveError;
use crate::game::declaration::{ChanceSlot, IndexSlot, OnChance, OnIndex, OnTiers, TierSlot};
use crate::game::{Chance, Declares, DenseIndex, Game, Tiered};

impl<'g, G> Solver<'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
{
    /// Solves a game with [chance](crate::game::Chance) (declared with
    /// [`Capabilities::chance`](crate::Capabilities::chance)), or any game, by expectation:
    ///
    /// | the game declares | engine | values |
    /// |---|---|---|
    /// | [`may_cycle`](crate::Capabilities::may_cycle) | value iteration ([`chance::iterate`](crate::engines::chance::iterate)), tier by tier where it declares [`tiers`](crate::Capabilities::tiers) ([`chance::iterate_tiers`](crate::engines::chance::iterate_tiers)); one thread | estimates with proved error bounds, exact fractions where a tier has at most [`EXACT_STATES`](crate::engines::chance::EXACT_STATES) states |
    /// | anything else | expectimax ([`chance::solve`](crate::engines::chance::solve), [`chance::par_solve`](crate::engines::chance::par_solve) on more than one thread), on a flat array by the [`dense_index`](crate::Capabilities::dense_index) where it fits the budget and pays, else a hash table | exact fractions |
    ///
    /// A game without chance is solved the same way, every state the mover's (its values are
    /// then whole numbers, as [`solve`](Solver::solve) gives them).
    ///
    /// ```
    /// use gamesolver::{games::Pig, Engine, Solved, Solver};
    ///
    /// let game = Pig::piglet(3)?;
    /// let solved = Solver::new(&game).solve_chance()?;
    /// assert_eq!(solved.engine(), Engine::ValueIteration);
    /// assert_eq!(solved.value().win_chance().to_string(), "6/11");
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn solve_chance(self) -> Result<ChanceSolution<'g, G>, SolveError> {
        let declared = self.game.capabilities();
        let plan = self.chance_plan_of(&declared)?;
        let options = Options::new().limits(self.limits);
        let pool = if plan.threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(plan.threads)
                    .build()
                    .map_err(|error| SolveError::ThreadStart {
                        threads: plan.threads,
                        message: error.to_string(),
                    })?,
            )
        } else {
            None
        };
        let run = ChanceRun {
            game: self.game,
            plan,
            options,
            pool: pool.as_ref(),
            declared: PhantomData,
        };
        visit_chance(&declared, run)
    }

    /// The plan of [`solve_chance`](Solver::solve_chance).
    fn chance_plan_of<D: Declares<G>>(&self, declared: &D) -> Result<Plan, SolveError> {
        let facts = Facts::of(self.game, declared);
        let solver = match self.engine {
            Some(Engine::Expectimax | Engine::ValueIteration) | None => *self,
            Some(engine) => {
                return Err(SolveError::Unsupported(format!(
                    "solve_chance runs the chance engines (Expectimax, ValueIteration), not \
                     {engine:?}"
                )));
            }
        };
        let solver = if solver.engine.is_none() {
            solver.engine(if facts.may_cycle {
                Engine::ValueIteration
            } else {
                Engine::Expectimax
            })
        } else {
            solver
        };
        solver.plan_for(facts)
    }
}

/// Visits the declaration's chance slot with `run`.
fn visit_chance<'g, G, D: Declares<G>>(
    _: &D,
    run: ChanceRun<'g, '_, G, D>,
) -> Result<ChanceSolution<'g, G>, SolveError>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    <D::Chance as ChanceSlot<G>>::visit(run)
}

/// A chance solve under way: the game, the plan, the options, the declaration's type.
struct ChanceRun<'g, 'p, G, D> {
    game: &'g G,
    plan: Plan,
    options: Options,
    pool: Option<&'p rayon::ThreadPool>,
    declared: PhantomData<fn() -> D>,
}

impl<'g, G, D> OnChance<G> for ChanceRun<'g, '_, G, D>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
    D: Declares<G>,
{
    type Output = Result<ChanceSolution<'g, G>, SolveError>;

    fn declared(self) -> Self::Output
    where
        G: Chance,
    {
        self.with(Rolls)
    }

    fn undeclared(self) -> Self::Output {
        self.with(NoRolls)
    }
}

impl<'g, G, D> ChanceRun<'g, '_, G, D>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
    D: Declares<G>,
{
    fn with<X: Roll<G>>(self, roll: X) -> Result<ChanceSolution<'g, G>, SolveError> {
        let (game, plan, options, pool) = (self.game, self.plan, self.options, self.pool);
        match plan.engine {
            Engine::ValueIteration => <D::Tiers as TierSlot<G>>::visit(Iterate {
                game,
                options,
                roll,
            }),
            _ => <D::Index as IndexSlot<G>>::visit(Expect {
                game,
                plan,
                options,
                pool,
                roll,
            }),
        }
    }
}

/// Value iteration, by tiers where the game declares them.
struct Iterate<'g, G, X> {
    game: &'g G,
    options: Options,
    roll: X,
}

impl<'g, G, X> OnTiers<G> for Iterate<'g, G, X>
where
    G: Game,
    G::State: Eq + Hash,
    X: Roll<G>,
{
    type Output = Result<ChanceSolution<'g, G>, SolveError>;

    fn declared(self) -> Self::Output
    where
        G: Tiered,
    {
        iteration::iterate_tiers(self.game, self.roll, self.options)
    }

    fn undeclared(self) -> Self::Output {
        iteration::iterate(self.game, self.roll, self.options)
    }
}

/// Expectimax, on the dense index where the plan says so.
struct Expect<'g, 'p, G, X> {
    game: &'g G,
    plan: Plan,
    options: Options,
    pool: Option<&'p rayon::ThreadPool>,
    roll: X,
}

impl<'g, G, X> OnIndex<G> for Expect<'g, '_, G, X>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
    X: Roll<G>,
{
    type Output = Result<ChanceSolution<'g, G>, SolveError>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        match (self.plan.dense, self.plan.threads > 1) {
            (true, true) => {
                expectimax::par_solve_dense(self.game, self.roll, self.options, self.pool)
            }
            (true, false) => expectimax::solve_dense(self.game, self.roll, self.options),
            (false, _) => self.undeclared(),
        }
    }

    fn undeclared(self) -> Self::Output {
        if self.plan.threads > 1 {
            expectimax::par_solve_hashed(self.game, self.roll, self.options, self.pool)
        } else {
            expectimax::solve_hashed(self.game, self.roll, self.options)
        }
    }
}
