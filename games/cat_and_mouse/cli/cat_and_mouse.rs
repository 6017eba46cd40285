//! LeetCode 913, Cat and Mouse, on the graph given as LeetCode's adjacency-list JSON.

use crate::InputError;
use crate::games::{CatAndMouse, Chase};
use crate::{
    Player, Score,
    engines::{Ply, retrograde::Outcome},
};

use super::super::cli as common;
use super::in_moves;
use crate::cli::model::{Answer, Entry, Failure, Fields, Line};
use crate::cli::present::{Presented, integers};
use crate::cli::registry::{Bundled, Own, Solves};
use crate::cli::serde_json;

/// The example graph in messages (LeetCode's second example: the mouse wins).
const EXAMPLE: &str = "[[1,3],[0],[3],[0,2]]";

/// Cat and Mouse on the command line.
pub const GAME: Bundled = Bundled::new(
    "cat-and-mouse",
    "LeetCode 913: the VALUE is the graph as adjacency-list JSON (as [[1,3],[0],[3],[0,2]]); \
            the mouse starts at 1, the cat at 2, the hole is 0: 1 mouse wins, 2 cat wins, 0 draw",
    Solves::Own(Own {
        solve: |cli| {
            let game = game(cli)?;
            let n = game.graph().len();
            common::report(cli, &game, n, |outcome, remoteness| {
                let answer = CatAndMouse::leetcode_answer(outcome);
                let result = match outcome {
                    Outcome::Win => format!("the mouse reaches the hole {}", in_moves(remoteness)),
                    Outcome::Loss => format!("the cat catches the mouse {}", in_moves(remoteness)),
                    Outcome::Draw => "a draw: neither can force a win".to_string(),
                };
                (
                    Answer::Number(answer),
                    format!(
                        "Cat and Mouse on {n} nodes: {result} with both playing optimally \
                         (LeetCode's answer: {answer})."
                    ),
                )
            })
        },
        check: |cli, options, summary| {
            summary.reference = "value iteration";
            summary.add_report(&crate::check::check_outcome(&game(cli)?, options))
        },
        play: |args| common::play(args, &game(&args.game)?),
        analyze: |args| common::analyze(args, &game(&args.game)?),
        example: EXAMPLE,
        batch: None,
        solver: "retrograde analysis",
        board: false,
        tiers: false,
    }),
);

/// The game of the graph given.
fn game(cli: &crate::cli::args::Cli) -> Result<CatAndMouse, Failure> {
    let graph: Vec<Vec<i64>> = common::json(cli, "graph", EXAMPLE)?;
    Ok(CatAndMouse::new(graph)?)
}

impl Presented for CatAndMouse {
    fn player_name(&self, player: Player) -> &'static str {
        if player.is_first() { "Mouse" } else { "Cat" }
    }
    fn mover(&self, state: &Chase) -> Player {
        if state.cat_moves {
            Player::Second
        } else {
            Player::First
        }
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(CatAndMouse::leetcode_answer(match value.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        }))
    }
    fn headline(&self, value: Score) -> String {
        format!("Cat and Mouse: {}.", self.final_result(value))
    }
    fn final_result(&self, margin: Score) -> String {
        match margin.signum() {
            1 => "the mouse wins".into(),
            -1 => "the cat wins".into(),
            _ => "a draw".into(),
        }
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let (cat, to) = (ply.state.cat_moves, ply.mv);
                let (animal, capital, from, other) = if cat {
                    ("cat", "Cat", ply.state.cat, ply.state.mouse)
                } else {
                    ("mouse", "Mouse", ply.state.mouse, ply.state.cat)
                };
                let what = if !cat && to == 0 {
                    " (the hole)"
                } else if to == other {
                    " (where the other is)"
                } else {
                    ""
                };
                Entry {
                    player: capital,
                    text: format!("{capital} moves from node {from} to node {to}{what}"),
                    fields: Fields::new()
                        .with("animal", animal)
                        .with("from", from)
                        .with("to", to),
                }
            })
            .collect()
    }
    fn show(&self, state: &Chase) -> String {
        let near = |node: u16| {
            let list: Vec<String> = self.graph()[node as usize]
                .iter()
                .map(u16::to_string)
                .collect();
            list.join(", ")
        };
        format!(
            "Mouse at node {} (next to {}), cat at node {} (next to {}); the hole is node 0.",
            state.mouse,
            near(state.mouse),
            state.cat,
            near(state.cat)
        )
    }
    fn position(&self, position: &str) -> Result<Chase, InputError> {
        let n = self.graph().len() as i64;
        let invalid = || {
            InputError::InvalidState(format!(
                "a Cat and Mouse position is 'MOUSE,CAT' (the nodes, 0 to {}; the cat never in \
                 the hole 0), and ',1' if the cat moves next",
                n - 1
            ))
        };
        match *integers(position)? {
            [mouse, cat] | [mouse, cat, 0] if (0..n).contains(&mouse) && (1..n).contains(&cat) => {
                Ok(Chase {
                    mouse: mouse as u16,
                    cat: cat as u16,
                    cat_moves: false,
                })
            }
            [mouse, cat, 1] if (0..n).contains(&mouse) && (1..n).contains(&cat) => Ok(Chase {
                mouse: mouse as u16,
                cat: cat as u16,
                cat_moves: true,
            }),
            _ => Err(invalid()),
        }
    }
    fn view(&self, state: &Chase) -> serde_json::Value {
        serde_json::json!({
            "kind": "graph", "graph": self.graph(), "mouse": state.mouse, "cat": state.cat,
            "hole": 0, "mover": if state.cat_moves { "cat" } else { "mouse" }
        })
    }
    fn move_name(&self, _: &Chase, to: &u16) -> String {
        to.to_string()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("the node to move to")
    }
}
