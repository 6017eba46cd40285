//! Printing a report: words for a learner, or exactly one JSON object.

use std::io::{self, Write};

use gamesolver::Player;
use gamesolver::games::{StoneGameIITake, StoneGameVIIITake};

use super::args::GameName;
use super::run::{Line, Report};

fn name(player: Player) -> &'static str {
    match player {
        Player::First => "Alice",
        Player::Second => "Bob",
    }
}

/// Writes the report in words.
pub fn text(report: &Report, out: &mut impl Write) -> io::Result<()> {
    match report.game {
        GameName::StoneGameII => {
            let total = report.total.unwrap_or_default();
            writeln!(
                out,
                "Stone Game II with {} piles ({total} stones): Alice can get {} stones \
                 (Bob {}) with both playing optimally.",
                report.n,
                report.answer,
                i128::from(total) - i128::from(report.answer)
            )?;
        }
        GameName::StoneGameVIII => writeln!(
            out,
            "Stone Game VIII with {} stones: Alice's score minus Bob's is {} with both playing \
             optimally.",
            report.n, report.answer
        )?,
    }
    writeln!(out, "Optimal line of play:")?;
    match &report.line {
        Line::StoneGameII(takes) => {
            for (number, take) in takes.iter().enumerate() {
                writeln!(out, "  {:>3}. {}", number + 1, describe_ii(take))?;
            }
        }
        Line::StoneGameVIII(takes) => {
            for (number, take) in takes.iter().enumerate() {
                writeln!(out, "  {:>3}. {}", number + 1, describe_viii(take))?;
            }
        }
    }
    let stats = &report.stats;
    let threads = if report.threads == 1 {
        "thread"
    } else {
        "threads"
    };
    let how = match (report.solver, report.game) {
        ("fast", GameName::StoneGameII) => format!(
            "the specialised O(n²) solver: {} states stored",
            stats.stored
        ),
        ("fast", GameName::StoneGameVIII) => "the specialised O(n) solver".to_string(),
        (solver, _) => format!(
            "the {} ({} table, {} {threads}): {} states stored, {} table hits",
            if solver == "parallel" {
                "parallel engine"
            } else {
                "engine"
            },
            report.table,
            report.threads,
            stats.stored,
            stats.hits
        ),
    };
    writeln!(
        out,
        "Solved by {how}, in {:.6} s.",
        stats.elapsed.as_secs_f64()
    )
}

fn describe_ii(take: &StoneGameIITake) -> String {
    let piles = if take.piles == 1 {
        format!("pile {}", take.first_pile)
    } else {
        format!(
            "piles {}-{}",
            take.first_pile,
            take.first_pile + take.piles - 1
        )
    };
    let m = if take.m_after == take.m_before {
        format!("M stays {}", take.m_after)
    } else {
        format!("M becomes {}", take.m_after)
    };
    format!(
        "{} takes {piles} ({} stones; could take 1 to {}); {m}",
        name(take.player),
        take.stones,
        take.max_piles
    )
}

fn describe_viii(take: &StoneGameVIIITake) -> String {
    format!(
        "{} removes the leftmost {} stones, scoring their sum {}, and puts back a stone of {}",
        name(take.player),
        take.stones,
        take.gain,
        take.gain
    )
}

/// Writes the report as one JSON object and a newline.
pub fn json(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let stats = &report.stats;
    write!(
        out,
        "{{\"game\":\"{}\",\"n\":{},\"answer\":{},\"value\":{},\"solver\":\"{}\",\"table\":\"{}\",\
         \"threads\":{},\"states\":{},\"hits\":{},\"seconds\":{},\"line\":[",
        report.game.id(),
        report.n,
        report.answer,
        report.value,
        report.solver,
        report.table,
        report.threads,
        stats.stored,
        stats.hits,
        stats.elapsed.as_secs_f64()
    )?;
    match &report.line {
        Line::StoneGameII(takes) => {
            for (number, take) in takes.iter().enumerate() {
                let comma = if number == 0 { "" } else { "," };
                write!(
                    out,
                    "{comma}{{\"player\":\"{}\",\"first_pile\":{},\"piles\":{},\"stones\":{},\
                     \"m_before\":{},\"m_after\":{}}}",
                    name(take.player),
                    take.first_pile,
                    take.piles,
                    take.stones,
                    take.m_before,
                    take.m_after
                )?;
            }
        }
        Line::StoneGameVIII(takes) => {
            for (number, take) in takes.iter().enumerate() {
                let comma = if number == 0 { "" } else { "," };
                write!(
                    out,
                    "{comma}{{\"player\":\"{}\",\"stones\":{},\"gain\":{}}}",
                    name(take.player),
                    take.stones,
                    take.gain
                )?;
            }
        }
    }
    writeln!(out, "]}}")
}
