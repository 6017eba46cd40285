//! Printing a report: words for a learner, or exactly one JSON object.

use std::io::{self, Write};

use super::present::Answer;
use super::run::{CheckSummary, Report};

/// Writes the report in words.
pub fn text(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{}", report.headline)?;
    for note in &report.notes {
        writeln!(out, "{note}")?;
    }
    writeln!(out, "Optimal line of play:")?;
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
        "alphabeta" => format!(
            "the pruning engine ({} bound table, {} {threads}): {} states searched, {} table \
             entries, {} answered by the table",
            report.table, report.threads, stats.expanded, stats.stored, stats.hits
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
    )
}

fn answer_json(answer: &Answer) -> String {
    match answer {
        Answer::Number(number) => number.to_string(),
        Answer::Winner(name) => json_string(name),
    }
}

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            control if (control as u32) < 0x20 => {
                quoted.push_str(&format!("\\u{:04x}", control as u32));
            }
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    quoted
}

/// Writes the report as one JSON object and a newline.
pub fn json(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let stats = &report.stats;
    write!(
        out,
        "{{\"game\":\"{}\",\"n\":{},\"answer\":{},\"value\":{},\"solver\":\"{}\",\"table\":\"{}\",\
         \"threads\":{},\"states\":{},\"hits\":{},\"seconds\":{},{}{}\"line\":[",
        report.game.id(),
        report.n,
        answer_json(&report.answer),
        report.value,
        report.solver,
        report.table,
        report.threads,
        stats.stored,
        stats.hits,
        stats.elapsed.as_secs_f64(),
        report.json,
        if report.json.is_empty() { "" } else { "," }
    )?;
    for (number, entry) in report.line.entries().enumerate() {
        let comma = if number == 0 { "" } else { "," };
        write!(
            out,
            "{comma}{{\"player\":\"{}\",{}}}",
            entry.player, entry.json
        )?;
    }
    writeln!(out, "]}}")
}

/// Writes a conformance check in words.
pub fn check_text(summary: &CheckSummary, out: &mut impl Write) -> io::Result<()> {
    write!(
        out,
        "Conformance of {}: {} states, {} playouts, {} values compared with an unmemoized \
         negamax: ",
        summary.game.id(),
        summary.states,
        summary.playouts,
        summary.values_compared
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

/// Writes a conformance check as one JSON object.
pub fn check_json(summary: &CheckSummary, out: &mut impl Write) -> io::Result<()> {
    let violations: Vec<String> = summary.violations.iter().map(|v| json_string(v)).collect();
    writeln!(
        out,
        "{{\"game\":\"{}\",\"ok\":{},\"states\":{},\"playouts\":{},\"values_compared\":{},\
         \"violations\":[{}]}}",
        summary.game.id(),
        summary.violations.is_empty(),
        summary.states,
        summary.playouts,
        summary.values_compared,
        violations.join(",")
    )
}
