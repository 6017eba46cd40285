//! Reading a game's integers from text: command-line arguments, a file, or standard input.
//!
//! Two forms are accepted:
//!
//! - integers separated by commas and/or whitespace (`2,7,9 4, 4`); a comma must follow a
//!   value (no `,,`), and one trailing comma is allowed;
//! - a JSON array of integers (`[2, 7, 9, 4, 4]`), recognised by its leading `[`.
//!
//! The parser works on bytes with no per-token allocation. Every rejection names the token,
//! the value's position, and its line (or argument) and column.

use crate::error::{Error, InputError, Location, Place, SolveError};

/// The longest token an error message quotes in full.
const QUOTE_LIMIT: usize = 40;

/// Parses integers from command-line arguments: each argument may hold several values.
///
/// ```
/// use gamesolver::input::parse_arguments;
///
/// assert_eq!(parse_arguments(&["2,7,9", "4", "4"]).unwrap(), vec![2, 7, 9, 4, 4]);
/// assert_eq!(parse_arguments(&["-1, 2,-3"]).unwrap(), vec![-1, 2, -3]);
/// let error = parse_arguments(&["1", "2 x3"]).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "cannot read \"x3\" (value 3, argument 2, column 3): not an integer"
/// );
/// ```
pub fn parse_arguments<S: AsRef<str>>(arguments: &[S]) -> Result<Vec<i64>, InputError> {
    let mut values = Vec::new();
    for (index, argument) in arguments.iter().enumerate() {
        let mut parser = Parser::new(argument.as_ref().as_bytes(), Origin::Argument(index + 1));
        parser.values = std::mem::take(&mut values);
        parser.separated()?;
        values = parser.values;
    }
    Ok(values)
}

/// Parses integers from the text of a file or of standard input, in either form.
///
/// ```
/// use gamesolver::input::parse_text;
///
/// assert_eq!(parse_text(b"2 7\n9,4,4\n").unwrap(), vec![2, 7, 9, 4, 4]);
/// assert_eq!(parse_text(b"[-10, -12]").unwrap(), vec![-10, -12]);
/// assert_eq!(
///     parse_text(b"1\n2\n99999999999999999999").unwrap_err().to_string(),
///     "cannot read \"99999999999999999999\" (value 3, line 3, column 1): \
///      out of the 64-bit integer range"
/// );
/// ```
pub fn parse_text(text: &[u8]) -> Result<Vec<i64>, Error> {
    parse_text_within(text, u64::MAX)
}

/// [`parse_text`], refused with [`SolveError::MemoryBudget`] if the text and the values read from
/// it would hold more than `budget` bytes together. The values' vector is sized once, from a
/// count of the text's tokens, so reading never holds more than that.
///
/// ```
/// use gamesolver::{input::parse_text_within, Error, SolveError};
///
/// assert_eq!(parse_text_within(b"1 2 3", 29).unwrap(), vec![1, 2, 3]);
/// assert!(matches!(parse_text_within(b"1 2 3", 28), Err(Error::Solve(SolveError::MemoryBudget { .. }))));
/// ```
pub fn parse_text_within(text: &[u8], budget: u64) -> Result<Vec<i64>, Error> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut parser = Parser::new(text, Origin::File);
    // Every value is a run of bytes without separators, so there are at most that many runs.
    let mut tokens = 0usize;
    let mut inside = false;
    for &byte in text {
        let separator = is_space(byte) || matches!(byte, b',' | b'[' | b']');
        tokens += usize::from(inside && separator);
        inside = !separator;
    }
    tokens += usize::from(inside);
    let needed = (text.len() as u64).saturating_add((tokens as u64).saturating_mul(8));
    if needed > budget {
        return Err(SolveError::MemoryBudget {
            what: format!("reading {tokens} values from {} bytes of input", text.len()),
            needed,
            budget,
        }
        .into());
    }
    parser
        .values
        .try_reserve_exact(tokens)
        .map_err(|_| SolveError::Allocation {
            what: format!("{tokens} values read from the input"),
            bytes: tokens as u64 * 8,
        })?;
    parser.skip_whitespace();
    if parser.peek() == Some(b'[') {
        parser.json_array()?;
    } else {
        parser.separated()?;
    }
    Ok(parser.values)
}

#[derive(Clone, Copy)]
enum Origin {
    Argument(usize),
    File,
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    origin: Origin,
    values: Vec<i64>,
}

#[inline]
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

impl<'a> Parser<'a> {
    fn new(text: &'a [u8], origin: Origin) -> Self {
        Parser {
            text,
            at: 0,
            origin,
            values: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.at += 1;
        }
    }

    /// Values separated by commas and/or whitespace.
    fn separated(&mut self) -> Result<(), InputError> {
        let mut comma_allowed = false;
        loop {
            self.skip_whitespace();
            match self.peek() {
                None => return Ok(()),
                Some(b',') if comma_allowed => {
                    comma_allowed = false;
                    self.at += 1;
                }
                Some(b',') => {
                    return Err(self.error(
                        self.at,
                        self.at + 1,
                        "a comma with no value before it",
                    ));
                }
                Some(_) => {
                    let end = self.token_end(|byte| byte == b',');
                    let value = self.integer(end, false)?;
                    self.values.push(value);
                    comma_allowed = true;
                }
            }
        }
    }

    /// `[` integer (`,` integer)* `]`, or `[]`, then nothing but whitespace.
    fn json_array(&mut self) -> Result<(), InputError> {
        self.at += 1; // the '['
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
        } else {
            loop {
                self.skip_whitespace();
                if self.peek().is_none() {
                    return Err(self.error(self.at, self.at, "the JSON array is not closed"));
                }
                let end = self.token_end(|byte| byte == b',' || byte == b']');
                if end == self.at {
                    // `[1,]`, `[1,,2]`, `[,1]`: show the ',' or ']' where a value should be.
                    return Err(self.error(
                        self.at,
                        self.at + 1,
                        "a value is missing here in the JSON array",
                    ));
                }
                let value = self.integer(end, true)?;
                self.values.push(value);
                self.skip_whitespace();
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b']') => {
                        self.at += 1;
                        break;
                    }
                    None => {
                        return Err(self.error(self.at, self.at, "the JSON array is not closed"));
                    }
                    Some(_) => {
                        let end = self.token_end(|byte| byte == b',' || byte == b']');
                        return Err(self.error(
                            self.at,
                            end,
                            "expected ',' or ']' in the JSON array",
                        ));
                    }
                }
            }
        }
        self.skip_whitespace();
        if self.peek().is_some() {
            let end = self.token_end(|_| false);
            return Err(self.error(self.at, end, "text after the JSON array's closing ']'"));
        }
        Ok(())
    }

    /// Where the token starting at `self.at` ends: at whitespace, a `stop` byte, or the end.
    fn token_end(&self, stop: impl Fn(u8) -> bool) -> usize {
        let rest = &self.text[self.at..];
        self.at
            + rest
                .iter()
                .position(|&byte| is_space(byte) || stop(byte))
                .unwrap_or(rest.len())
    }

    /// Parses `text[self.at..end]` as an integer and moves past it. JSON forbids a leading
    /// `+` and leading zeros.
    #[inline]
    fn integer(&mut self, end: usize, json: bool) -> Result<i64, InputError> {
        let start = self.at;
        let token = &self.text[start..end];
        let (negative, digits) = match token {
            [b'-', rest @ ..] => (true, rest),
            [b'+', rest @ ..] if !json => (false, rest),
            _ => (false, token),
        };
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            let problem = if token
                .iter()
                .any(|&byte| byte == b'.' || byte == b'e' || byte == b'E')
                && token.iter().any(u8::is_ascii_digit)
            {
                "not an integer (no fractions or exponents)"
            } else {
                "not an integer"
            };
            return Err(self.error(start, end, problem));
        }
        if json && digits.len() > 1 && digits[0] == b'0' {
            return Err(self.error(start, end, "JSON numbers have no leading zeros"));
        }
        // Accumulate negatively so that i64::MIN parses too.
        let mut value: i64 = 0;
        for &digit in digits {
            value = value
                .checked_mul(10)
                .and_then(|value| value.checked_sub(i64::from(digit - b'0')))
                .ok_or_else(|| self.error(start, end, "out of the 64-bit integer range"))?;
        }
        if !negative {
            value = value
                .checked_neg()
                .ok_or_else(|| self.error(start, end, "out of the 64-bit integer range"))?;
        }
        self.at = end;
        Ok(value)
    }

    /// An error for the token `text[start..end]`; line and column are found only now.
    #[cold]
    fn error(&self, start: usize, end: usize, problem: &'static str) -> InputError {
        let before = &self.text[..start];
        let line_start = before
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1);
        let place = match self.origin {
            Origin::Argument(argument) if self.text.contains(&b'\n') => Place::ArgumentLine {
                argument,
                line: 1 + before.iter().filter(|&&byte| byte == b'\n').count(),
            },
            Origin::Argument(argument) => Place::Argument(argument),
            Origin::File => Place::Line(1 + before.iter().filter(|&&byte| byte == b'\n').count()),
        };
        let token = if start == end && start >= self.text.len() {
            "end of input".to_string()
        } else {
            let token = String::from_utf8_lossy(&self.text[start..end]);
            match token.char_indices().nth(QUOTE_LIMIT) {
                Some((cut, _)) => format!("{}…", &token[..cut]),
                None => token.into_owned(),
            }
        };
        InputError::Parse {
            token,
            location: Location {
                value: self.values.len() + 1,
                place,
                column: start - line_start + 1,
            },
            problem,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (String, String, &'static str) {
        match parse_text(text.as_bytes()).unwrap_err() {
            Error::Input(InputError::Parse {
                token,
                location,
                problem,
            }) => (token, location.to_string(), problem),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn separators_mix_freely() {
        assert_eq!(
            parse_text(b" 1,2 ,3\t4\r\n5,\n").unwrap(),
            vec![1, 2, 3, 4, 5]
        );
        assert_eq!(parse_text(b"").unwrap(), Vec::<i64>::new());
        assert_eq!(parse_text(b"\xEF\xBB\xBF7 8").unwrap(), vec![7, 8]);
        assert_eq!(parse_text(b"+5 -0").unwrap(), vec![5, 0]);
    }

    #[test]
    fn extremes_parse_exactly() {
        let text = format!("{} {}", i64::MIN, i64::MAX);
        assert_eq!(
            parse_text(text.as_bytes()).unwrap(),
            vec![i64::MIN, i64::MAX]
        );
        assert_eq!(
            problem("9223372036854775808").2,
            "out of the 64-bit integer range"
        );
        assert_eq!(
            problem("-9223372036854775809").2,
            "out of the 64-bit integer range"
        );
    }

    #[test]
    fn bad_tokens_are_located() {
        assert_eq!(
            problem("1 2\n3 4x 5"),
            (
                "4x".into(),
                "value 4, line 2, column 3".into(),
                "not an integer"
            )
        );
        assert_eq!(
            problem("1,,2"),
            (
                ",".into(),
                "value 2, line 1, column 3".into(),
                "a comma with no value before it"
            )
        );
        assert_eq!(problem(",1").2, "a comma with no value before it");
        assert_eq!(
            problem("1.5").2,
            "not an integer (no fractions or exponents)"
        );
        assert_eq!(
            problem("1e3").2,
            "not an integer (no fractions or exponents)"
        );
        assert_eq!(problem("-").2, "not an integer");
        assert_eq!(problem("abc").0, "abc");
        let long = "x".repeat(100);
        assert_eq!(problem(&long).0.chars().count(), QUOTE_LIMIT + 1);
    }

    #[test]
    fn a_multi_line_argument_names_the_line() {
        let message = parse_arguments(&["1,2\n3,x"]).unwrap_err().to_string();
        assert_eq!(
            message,
            "cannot read \"x\" (value 4, argument 1, line 2, column 3): not an integer"
        );
    }

    #[test]
    fn json_arrays_name_a_missing_value() {
        for (text, column, token) in [("[1,]", 4, "]"), ("[1,,2]", 4, ","), ("[,1]", 2, ",")] {
            let message = parse_text(text.as_bytes()).unwrap_err().to_string();
            assert_eq!(
                message,
                format!(
                    "cannot read {token:?} (value {}, line 1, column {column}): a value is \
                     missing here in the JSON array",
                    if text.starts_with("[,") { 1 } else { 2 }
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn json_arrays() {
        assert_eq!(parse_text(b" [ 1 ,-2,3 ] \n").unwrap(), vec![1, -2, 3]);
        assert_eq!(parse_text(b"[]").unwrap(), Vec::<i64>::new());
        assert_eq!(problem("[1, 2").2, "the JSON array is not closed");
        assert_eq!(problem("[1, 2,").2, "the JSON array is not closed");
        assert_eq!(problem("[1 2]").2, "expected ',' or ']' in the JSON array");
        assert_eq!(
            problem("[1,,2]").2,
            "a value is missing here in the JSON array"
        );
        assert_eq!(problem("[01]").2, "JSON numbers have no leading zeros");
        assert_eq!(problem("[+1]").2, "not an integer");
        assert_eq!(
            problem("[1] 2").2,
            "text after the JSON array's closing ']'"
        );
        assert_eq!(
            problem("[1.0]").2,
            "not an integer (no fractions or exponents)"
        );
    }

    #[test]
    fn arguments_count_values_across_arguments() {
        assert_eq!(
            parse_arguments(&["1,", "2", ",3"]).unwrap_err().to_string(),
            "cannot read \",\" (value 3, argument 3, column 1): a comma with no value before it"
        );
        assert_eq!(parse_arguments::<&str>(&[]).unwrap(), Vec::<i64>::new());
    }
}
