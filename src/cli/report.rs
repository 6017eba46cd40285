//! Printing a report: words for a learner, or exactly one JSON object.

use std::io::{self, Write};

use crate::Score;
use serde::{Serialize, Serializer};

use super::model::{Answer, CheckSummary, Fields, Line, Report};

/// Writes the report in words.
pub fn text(report: &Report, out: &mut impl Write) -> io::Result<()> {
    if report.explained {
        let threads = match report.threads {
            1 => "1 thread".to_string(),
            threads => format!("{threads} threads"),
        };
        writeln!(
            out,
            "{} would be solved by {} ({} table, {threads}).",
            report.game.id(),
            solver_words(report.solver),
            report.table
        )?;
        return match &report.why {
            Some(why) => writeln!(out, "Why: {why}."),
            None => Ok(()),
        };
    }
    writeln!(out, "{}", report.headline)?;
    for note in &report.notes {
        writeln!(out, "{note}")?;
    }
    match (report.withheld, report.line.len()) {
        (true, _) => {}
        (false, 0) => writeln!(out, "No move can be played: the game is over at the start.")?,
        (false, _) => writeln!(out, "Optimal line of play:")?,
    }
    for (number, entry) in report.line.entries().enumerate() {
        writeln!(out, "  {:>3}. {}", number + 1, entry.text)?;
    }
    let stats = &report.stats;
    let threads = if report.threads == 1 {
        "thread"
    } else {
        "threads"
    };
    let how = match report.solver {
        "fast" if report.table == "diagonal" => {
            format!(
                "the specialised O(n²) solver: {} states stored",
                stats.stored
            )
        }
        "fast" => "the specialised O(n) solver".to_string(),
        "retrograde" => format!(
            "retrograde analysis ({} {threads}): {} states, {} moves, {} remoteness levels",
            report.threads, stats.stored, stats.expanded, stats.max_depth
        ),
        "tier" | "loopy-tier" if report.table == "file" => {
            "the tier file (answered from it, nothing solved)".to_string()
        }
        "tier" => format!(
            "the tier solver ({}, {} {threads}): {} states in {} tiers, {} moves",
            report.table, report.threads, stats.stored, stats.max_depth, stats.expanded
        ),
        "loopy-tier" => format!(
            "the loopy tier solver ({} {threads}): {} states in {} tiers, {} moves",
            report.threads, stats.stored, stats.max_depth, stats.expanded
        ),
        "distributed" => format!(
            "the tier solver on timely dataflow ({} workers): {} states in {} tiers, {} moves \
             in this process",
            report.threads, stats.stored, stats.max_depth, stats.expanded
        ),
        "nimbers" => format!(
            "the nimber engine ({} {threads}): {} parts' nimbers stored, {} parts searched, {} \
             table hits",
            report.threads, stats.stored, stats.expanded, stats.hits
        ),
        "sweep" => format!(
            "the sweep in index order ({} table, 1 thread): {} states valued, {} children read",
            report.table, stats.stored, stats.hits
        ),
        "expectimax" => format!(
            "expectimax in exact fractions ({} table, {} {threads}): {} states stored, {} table \
             hits",
            report.table, report.threads, stats.stored, stats.hits
        ),
        "value-iteration" => format!(
            "value iteration with proved bounds (by {}, 1 thread): {} states, {} updates",
            report.table, stats.stored, stats.expanded
        ),
        "alphabeta" => format!(
            "the pruning engine ({} bound table, {} {threads}): {} states searched, {} table \
             entries, {} answered by the table",
            report.table, report.threads, stats.expanded, stats.stored, stats.hits
        ),
        "proof" => format!(
            "proof-number search (df-pn, 1 thread): {} questions expanded, {} table entries, {} \
             answered by the table",
            stats.expanded, stats.stored, stats.hits
        ),
        solver => format!(
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
    )?;
    match &report.why {
        Some(why) => writeln!(out, "Why this engine: {why}."),
        None => Ok(()),
    }
}

/// A solver as `--solver` names it, in words.
fn solver_words(solver: &str) -> &'static str {
    match solver {
        "fast" => "the game's specialised solver",
        "engine" => "the exhaustive engine",
        "parallel" => "the parallel exhaustive engine",
        "alphabeta" => "the pruning engine (alpha-beta)",
        "retrograde" => "retrograde analysis",
        "tier" => "the tier solver",
        "loopy-tier" => "the loopy tier solver",
        "sweep" => "the sweep in index order",
        "nimbers" => "the nimber engine",
        "proof" => "proof-number search",
        _ => "its solver",
    }
}

/// `--explain` as JSON: what would run and why.
#[derive(Serialize)]
struct JsonExplained<'a> {
    game: &'static str,
    n: usize,
    solver: &'static str,
    table: &'static str,
    threads: usize,
    why: Option<&'a str>,
    explained: bool,
}

/// The report as JSON: one object, its keys in this order, the game's extra fields (Connect
/// Four's position and analysis) before the line.
#[derive(Serialize)]
struct JsonReport<'a> {
    game: &'static str,
    n: usize,
    answer: &'a Answer,
    value: Number,
    /// A game with chance: the value as an exact fraction (`"4/7"`), where it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<&'a str>,
    /// A game with chance: the proved bound on the value's error, where it is iterated.
    #[serde(skip_serializing_if = "Option::is_none")]
    error_bound: Option<f64>,
    solver: &'static str,
    table: &'static str,
    threads: usize,
    states: usize,
    hits: u64,
    seconds: f64,
    /// Why the solver ran, where the library's plan chose it.
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
    #[serde(flatten)]
    extra: &'a Option<Fields>,
    /// Games with outcomes: `"win"`, `"loss"` or `"draw"` for the first player.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    /// Games with outcomes: how many moves the game lasts with best play (`null`: a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<Option<u32>>,
    line: Entries<'a>,
}

/// A value in JSON: a whole number (a score), or a real one (a game with chance).
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum Number {
    /// A score.
    Whole(Score),
    /// A winning chance or an expectation.
    Real(f64),
}

impl Number {
    /// The score, or for a game with chance its number.
    pub(super) fn of(score: Score, chance: Option<&super::model::ChanceNumber>) -> Number {
        match chance {
            Some(chance) => Number::Real(chance.value),
            None => Number::Whole(score),
        }
    }
}

/// A line's moves, put in words one at a time as they are written (a line can be 10⁷ moves).
struct Entries<'a>(&'a Line);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.entries())
    }
}

/// Writes the report as one JSON object and a newline.
pub fn json(report: &Report, out: &mut impl Write) -> io::Result<()> {
    if report.explained {
        let object = JsonExplained {
            game: report.game.id(),
            n: report.n,
            solver: report.solver,
            table: report.table,
            threads: report.threads,
            why: report.why.as_deref(),
            explained: true,
        };
        serde_json::to_writer(&mut *out, &object)?;
        return writeln!(out);
    }
    let stats = &report.stats;
    let object = JsonReport {
        game: report.game.id(),
        n: report.n,
        answer: &report.answer,
        value: Number::of(report.value, report.chance.as_ref()),
        exact: report
            .chance
            .as_ref()
            .and_then(|chance| chance.exact.as_deref()),
        error_bound: report.chance.as_ref().and_then(|chance| chance.error_bound),
        solver: report.solver,
        table: report.table,
        threads: report.threads,
        states: stats.stored,
        hits: stats.hits,
        seconds: stats.elapsed.as_secs_f64(),
        why: report.why.as_deref(),
        extra: &report.json,
        outcome: report.outcome.map(|(outcome, _)| match outcome {
            crate::engines::retrograde::Outcome::Win => "win",
            crate::engines::retrograde::Outcome::Loss => "loss",
            crate::engines::retrograde::Outcome::Draw => "draw",
        }),
        remoteness: report.outcome.map(|(_, remoteness)| remoteness),
        line: Entries(&report.line),
    };
    serde_json::to_writer(&mut *out, &object)?;
    writeln!(out)
}

/// Writes a conformance check in words.
pub fn check_text(summary: &CheckSummary, out: &mut impl Write) -> io::Result<()> {
    write!(
        out,
        "Conformance of {}: {} states, {} playouts, {} values compared with {}: ",
        summary.game.id(),
        summary.states,
        summary.playouts,
        summary.values_compared,
        summary.reference
    )?;
    if summary.violations.is_empty() {
        return writeln!(out, "no violation.");
    }
    writeln!(out, "{} violation(s):", summary.violations.len())?;
    for violation in &summary.violations {
        writeln!(out, "- {violation}")?;
    }
    Ok(())
}

/// A conformance check as JSON.
#[derive(Serialize)]
struct JsonCheck<'a> {
    game: &'static str,
    ok: bool,
    states: usize,
    playouts: usize,
    values_compared: usize,
    violations: &'a [String],
}

/// Writes a conformance check as one JSON object.
pub fn check_json(summary: &CheckSummary, out: &mut impl Write) -> io::Result<()> {
    let object = JsonCheck {
        game: summary.game.id(),
        ok: summary.violations.is_empty(),
        states: summary.states,
        playouts: summary.playouts,
        values_compared: summary.values_compared,
        violations: &summary.violations,
    };
    serde_json::to_writer(&mut *out, &object)?;
    writeln!(out)
}

/// A warning on stderr: `warning: …`, or with `--json` one JSON object `{"warning": …}`. The
/// run goes on.
pub fn warn(json: bool, message: &str) {
    if json {
        eprintln!("{}", serde_json::json!({ "warning": message }));
    } else {
        eprintln!("warning: {message}");
    }
}

/// An error as one JSON object, `{"error": message, "kind": kind}`.
pub fn error_json(message: &str, kind: &str) -> String {
    serde_json::json!({ "error": message, "kind": kind }).to_string()
}
