//! The input parser on any bytes: it never panics, every value it returns is in range, and
//! what it accepts reads back the same when written out again (as text and as JSON).
#![no_main]

use gamesolver::input::{parse_arguments, parse_text, parse_text_within};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let parsed = parse_text(bytes);
    if let Ok(values) = &parsed {
        let text: Vec<String> = values.iter().map(i64::to_string).collect();
        assert_eq!(parse_text(text.join(",").as_bytes()).as_ref(), Ok(values));
        assert_eq!(
            parse_text(format!("[{}]", text.join(", ")).as_bytes()).as_ref(),
            Ok(values)
        );
        assert_eq!(parse_arguments(&text).as_ref(), Ok(values));
    }
    // A budget changes only whether it is refused, never the values.
    let budget = bytes.first().map_or(0, |&b| u64::from(b) * 16);
    match parse_text_within(bytes, budget) {
        Ok(values) => assert_eq!(Ok(values), parsed),
        Err(gamesolver::Error::Solve(gamesolver::SolveError::MemoryBudget { .. })) => {}
        Err(error) => assert_eq!(Err(error), parsed),
    }
    // The same bytes as command-line arguments, split at NUL (arguments cannot hold one).
    if let Ok(text) = std::str::from_utf8(bytes) {
        let arguments: Vec<&str> = text.split('\0').collect();
        let _ = parse_arguments(&arguments);
    }
});
