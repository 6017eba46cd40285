//! The command line, as clap parses it.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::model::GameName;

/// The most threads `--threads` accepts. Each worker has its own stack and search buffers;
/// thousands of them only cost memory and start-up on any machine this runs on (and starting
/// them can fail outright under a memory cap).
pub(crate) const MAX_THREADS: i64 = 256;

/// Solve a bundled game exactly and show the optimal line of play.
///
/// `gamesolver <GAME> [VALUES]...` solves; the subcommands check a game or print completions.
#[derive(Debug, Parser)]
#[command(
    name = "gamesolver",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    subcommand_value_name = "COMMAND",
    subcommand_help_heading = "Commands (instead of solving)"
)]
pub(crate) struct CommandLine {
    /// What to do instead of solving.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The solve: a game and its values (absent only when a command is given).
    #[command(flatten)]
    pub solve: Option<Cli>,
}

/// What the command line can do besides solving.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the conformance checker on a bundled game instead of solving it: its contract
    /// (moves, values, index, ranges) on every state it reaches, against a reference search.
    Check(Cli),
    /// The value of every legal move at a position (the start, or `--at`), best first.
    Analyze(AnalyzeArgs),
    /// Play against the solver in the terminal: it shows the position after every move,
    /// answers with a best move, and on '?' gives the value of every move.
    Play(PlayArgs),
    /// Serve the analysis page on localhost: every bundled game drawn, every move coloured by
    /// its value, play against the solver, the value history; and its JSON API
    /// (docs/serve.md).
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
    /// Print a completion script for SHELL on stdout (for example
    /// `gamesolver completions bash > /etc/bash_completion.d/gamesolver`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `analyze`: a game and its values, and the position to analyze.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The game and its values.
    #[command(flatten)]
    pub game: Cli,

    /// Moves played from the position (or the start) before it is analysed, by their names as
    /// `play` takes them and `--json` gives them (`name`), separated by ';' (Nim: '2,3;1,1').
    /// Connect Four: its columns, from 1 ('4;5'), after the position given as VALUE.
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
}

impl AnalyzeArgs {
    /// `--after`'s move names (none without it).
    pub fn after_names(&self) -> Vec<&str> {
        self.after
            .as_deref()
            .map(|text| {
                strip_protection(text)
                    .split(';')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// `serve`: where to listen, and the limits of each solve.
#[cfg(feature = "serve")]
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port, printed at the start).
    #[arg(long, value_name = "P", default_value_t = 8737)]
    pub port: u16,

    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,

    /// Threads for each solve, as the solve's own option.
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,

    /// The most memory a solve may use (solves run one at a time), in bytes or with a K, M, G
    /// or T suffix. Default: half of physical memory.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

    /// The longest a solve may search (seconds, or with ms, s, m or h). Default: no limit (a
    /// solve can be cancelled from the page).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<std::time::Duration>,

    /// A tier file (`--save FILE` of a loopy tiered game, as `quixo 4`) to answer its game's
    /// positions from, without solving; may be given more than once.
    #[arg(long = "load", value_name = "FILE")]
    pub load: Vec<PathBuf>,
}

/// `play`: a game and its values, the side the person takes, and where to start.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game and its values.
    #[command(flatten)]
    pub game: Cli,

    /// The side the person plays: the one to move first at the start, or second.
    #[arg(long = "as", value_enum, default_value_t = Side::First, value_name = "SIDE")]
    pub side: Side,

    /// The seed of the dice a game with chance rolls (the same seed, the same rolls); default:
    /// the clock.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// A side in `play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

/// A game and its values, and how to solve (or check) it.
#[derive(Debug, Clone, Args)]
pub struct Cli {
    /// The game to solve.
    #[arg(value_parser = clap::value_parser!(GameName))]
    pub game: GameName,

    /// The game's integers, separated by commas and/or whitespace, in one or several
    /// arguments (negative values such as -1,2,-3 are fine).
    pub values: Vec<String>,

    /// Read the integers from FILE ('-' for standard input): the same separators, or a JSON
    /// array.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub input: Option<PathBuf>,

    /// The position, in the game's terms: Hex and k in a row the moves played, in order
    /// ('a1,b3'); Stone Game II 'PILE,M' (the next pile, from 1, and M); Stone Game and Stone
    /// Game VII 'FIRST,LAST' (the piles or stones left, from 1); Stone Game III 'STONE' (the
    /// next stone, from 1); Stone Game VIII 'STONE' (the leftmost stone, from 1); Nim the
    /// heaps 'H1,H2,...'; tic-tac-toe the board row by row ('X.O/.X./...'); Dots and Boxes the
    /// lines drawn ('0,0-0,1 1,1-2,1'); Cat and Mouse 'MOUSE,CAT' (nodes) and Cat and Mouse II
    /// 'MOUSE_ROW,MOUSE_COLUMN,CAT_ROW,CAT_COLUMN', each with ',1' if the cat moves next. A
    /// solve starts there (Hex and k in a row), `analyze` values its moves, `play` starts
    /// there (the side to move counting as the first). Default: the start. (Connect Four: give
    /// the position as its VALUE.)
    #[arg(long, value_name = "POSITION")]
    pub at: Option<String>,

    /// The solver: the game's specialised exact solver, the generic negamax engine, the
    /// parallel engine, the pruning engine (alphabeta), the tier solver, proof-number search
    /// (proof: one position's value, proved; asked for by name only), or auto (the game's
    /// specialised solver where it has one, else what the library's Solver::plan chooses from
    /// what the game declares: the tier solver for Dots and Boxes, retrograde analysis for a
    /// small outcome game, the sweep for an ordered index; where that leaves the engine and
    /// alphabeta, the one a short sample of the game prefers; on --threads where the game is
    /// not known to be small). --explain says which and why.
    #[arg(long, value_enum, default_value_t = SolverName::Auto)]
    pub solver: SolverName,

    /// Threads for the parallel engines and the tier solver (at most 256). Default: every core
    /// for `parallel` and `tier`, one for `alphabeta`.
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,

    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,

    /// Say which solver `--solver` runs, on which table and threads, and why (the game's
    /// declarations, or the sample of the game that chose between the exhaustive and the
    /// pruning engine), without solving.
    #[arg(long, conflicts_with_all = ["save", "load", "batch"])]
    pub explain: bool,

    /// The most memory the solve may use, in bytes or with a K, M, G or T suffix (powers of
    /// 1024). Default: half of physical memory.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

    /// The longest the solve may search: seconds, or a number with ms, s, m or h (as 500ms,
    /// 90s, 10m, 2h). Past it, the solve stops with an error that says how far it got.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<std::time::Duration>,

    /// Write the solved game's table to FILE (atomically), for `--load` later. The game is
    /// then solved by the engine with a dense table. A game a tier solver solves (Quixo, Six
    /// Men's Morris, Dots and Boxes) writes each tier to FILE as it completes (a tier file:
    /// docs/tier-files.md); with `--solver distributed`, the process with worker 0 writes it.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,

    /// With `--save FILE` of a tier file: go on from the tiers FILE holds (a solve that was
    /// stopped resumes from its last complete tier) instead of refusing a FILE that exists.
    #[arg(long, requires = "save")]
    pub resume: bool,

    /// Answer from the table or tier file saved in FILE for this game and these values,
    /// without searching (a file for another game or other values, truncated or corrupt, is
    /// refused).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,

    /// Connect Four: the board's width (columns). Width × (height + 1) must be at most 128
    /// (boards past 64 bits, such as 8×7 or 10×6, run on 128-bit words).
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u8).range(1..=64))]
    pub width: Option<u8>,

    /// Connect Four: the board's height (rows).
    #[arg(long, value_name = "H", value_parser = clap::value_parser!(u8).range(1..=127))]
    pub height: Option<u8>,

    /// Connect Four: positions count columns from 0 (`0`-`9`, then `a`, `b`, ...), as c4's test
    /// sets write them, instead of from 1 (Pons' notation).
    #[arg(long)]
    pub columns_from_zero: bool,

    /// Connect Four: also show the score of every column (every move) at the position.
    #[arg(long)]
    pub analyze: bool,

    /// With `--solver distributed`: worker threads in each process (default 1).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub workers: Option<u16>,

    /// With `--solver distributed`: how many processes take part (each runs the same command
    /// with its own `--process`; default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub processes: Option<u16>,

    /// With `--solver distributed`: this process's index, from 0 to `--processes` − 1 (default
    /// 0). The process with index 0 prints the answer.
    #[arg(long, value_name = "I")]
    pub process: Option<u16>,

    /// With `--solver distributed`: a file of `host:port` lines, one per process in process
    /// order (default: process I listens on localhost:2101+I).
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<PathBuf>,

    /// Connect Four: solve one position per line of FILE ('-' for standard input), writing
    /// 'POSITION SCORE' per line (the benchmark files' format).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub batch: Option<PathBuf>,

    /// With `--batch` and `--threads`: solve the positions one after another, every thread
    /// searching each one together (by default each thread solves whole positions, side by
    /// side). The order of the output is the same either way.
    #[arg(long, requires = "batch")]
    pub one_at_a_time: bool,
}

impl Cli {
    /// `--save FILE` (with `--resume`) as the tier file of the game of `values`.
    pub(crate) fn tier_save(&self, values: &[i64]) -> Option<crate::engines::tiers::file::Save> {
        let path = self.save.as_ref()?;
        let save = crate::engines::tiers::file::Save::new(path, self.game.with_values(values));
        Some(match self.resume {
            true => save.resumed(),
            false => save,
        })
    }
}

/// The solvers a user can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolverName {
    /// The game's specialised solver, else the library's `Solver::plan`.
    Auto,
    /// The game's specialised exact solver (Stone Game II in O(n²), Stone Game VIII in O(n));
    /// a game without one uses the engine.
    Fast,
    /// The generic negamax engine.
    Engine,
    /// The parallel negamax engine, on `--threads` threads.
    Parallel,
    /// The pruning engine (alpha-beta with a bound table); on `--threads` threads if given.
    #[value(name = "alphabeta")]
    AlphaBeta,
    /// The tier solver, for games layered into tiers (Dots and Boxes; the loopy tier solver
    /// for Quixo and Six Men's Morris): every position, from the last tier back, on
    /// `--threads` threads.
    Tier,
    /// Depth-first proof-number search (df-pn): one position's value, proved, for wide games
    /// with narrow wins (k in a row, Domineering); on one thread.
    Proof,
    /// The tier solvers on timely dataflow, across threads, processes or machines
    /// (`--workers`, `--processes`, `--process`, `--hostfile`). Needs a build with
    /// `--features distributed`.
    Distributed,
}

/// Parses a thread count from 1 to [`MAX_THREADS`], saying what is wrong with any other.
pub(crate) fn parse_threads(text: &str) -> Result<u16, String> {
    let range = format!("give a count in 1..={MAX_THREADS}");
    match text.trim().parse::<i64>() {
        Ok(count) if (1..=MAX_THREADS).contains(&count) => {
            Ok(u16::try_from(count).expect("at most MAX_THREADS"))
        }
        Ok(0) => Err(format!("0 threads cannot solve anything: {range}")),
        Ok(count) if count < 0 => Err(format!("{count} is not a number of threads: {range}")),
        Ok(count) => Err(format!(
            "{count} threads is more than {MAX_THREADS} (each has its own stack and buffers): \
             {range}"
        )),
        Err(_) => Err(format!("{text:?} is not a whole number: {range}")),
    }
}

/// Parses `123`, `64K`, `1.5G`, `512M`, `4G`, `1T` (powers of 1024; a trailing `B` or `iB` is
/// fine; a fraction is allowed with a unit and rounded down to whole bytes).
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match number.chars().last() {
        Some('K') => (&number[..number.len() - 1], 10),
        Some('M') => (&number[..number.len() - 1], 20),
        Some('G') => (&number[..number.len() - 1], 30),
        Some('T') => (&number[..number.len() - 1], 40),
        _ => (number, 0),
    };
    let digits = digits.trim();
    let not_a_size =
        || format!("{text:?} is not a size (use bytes, or a number with K, M, G or T)");
    let out_of_range = || format!("{text:?} is not a size between 1 byte and 16 EiB");
    let bytes = match digits.parse::<u64>() {
        Ok(value) => value.checked_mul(1u64 << shift).ok_or_else(out_of_range)?,
        // A fraction of a unit (1.5G): exact enough in f64 below 2⁵³, checked above it.
        Err(_) if shift > 0 && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            let value: f64 = digits.parse().map_err(|_| not_a_size())?;
            let bytes = (value * (1u64 << shift) as f64).floor();
            if bytes >= u64::MAX as f64 {
                return Err(out_of_range());
            }
            bytes as u64
        }
        Err(_) => return Err(not_a_size()),
    };
    Some(bytes)
        .filter(|&bytes| bytes > 0)
        .ok_or_else(out_of_range)
}

/// Parses `30`, `1.5s`, `500ms`, `10m`, `2h` into a duration (a bare number is seconds).
pub(crate) fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let trimmed = text.trim().to_ascii_lowercase();
    let (number, scale) = [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)]
        .iter()
        .find_map(|&(unit, scale)| trimmed.strip_suffix(unit).map(|number| (number, scale)))
        .unwrap_or((trimmed.as_str(), 1.0));
    let problem = || format!("{text:?} is not a duration (use seconds, or 500ms, 90s, 10m, 2h)");
    let value: f64 = number.trim().parse().map_err(|_| problem())?;
    if !value.is_finite() || value <= 0.0 {
        return Err(problem());
    }
    std::time::Duration::try_from_secs_f64(value * scale).map_err(|_| problem())
}

/// Makes arguments such as `-1,2,-3` reach the values instead of being read as flags.
///
/// No option of ours is a dash followed by a digit, so such an argument (outside an option's
/// value and before any `--`) gets a leading space, which clap passes through as a value and
/// [`strip_protection`] removes again.
pub(crate) fn protect_negative_values(
    arguments: impl IntoIterator<Item = OsString>,
) -> Vec<OsString> {
    let mut protected = Vec::new();
    let mut option_value_next = false;
    let mut escaped = false;
    for argument in arguments {
        let text = argument.to_str().unwrap_or_default().to_owned();
        let negative =
            text.len() > 1 && text.starts_with('-') && text.as_bytes()[1].is_ascii_digit();
        if negative && !option_value_next && !escaped {
            let mut spaced = OsString::from(" ");
            spaced.push(&argument);
            protected.push(spaced);
        } else {
            protected.push(argument);
        }
        option_value_next = !escaped
            && matches!(
                text.as_str(),
                "--input"
                    | "--solver"
                    | "--memory-limit"
                    | "--threads"
                    | "--time-limit"
                    | "--width"
                    | "--height"
                    | "--batch"
                    | "--save"
                    | "--load"
                    | "--workers"
                    | "--processes"
                    | "--process"
                    | "--hostfile"
            );
        escaped |= text == "--";
    }
    protected
}

/// One value argument as typed: the command line reads an argument such as `-1,2,-3` as a
/// value rather than a flag by giving it a leading space before clap sees it, which this
/// removes. A game that reads its own arguments (a board's columns, a grid) reads each through
/// it.
///
/// ```
/// use gamesolver::cli::args::strip_protection;
/// assert_eq!(strip_protection(" -1,2"), "-1,2");
/// assert_eq!(strip_protection("4,5"), "4,5");
/// ```
pub fn strip_protection(value: &str) -> &str {
    match value.strip_prefix(' ') {
        Some(rest) if rest.starts_with('-') => rest,
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The parser accepts the bundled games' names: the list the registry holds.
    fn install() {
        crate::cli::registry::install(crate::games::BUNDLED);
    }

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        CommandLine::try_parse_from(protect_negative_values(line.split(' ').map(OsString::from)))
            .map(|line| line.solve.expect("a solve when no command is given"))
    }

    #[test]
    fn subcommands_and_the_solve_share_the_arguments() {
        install();
        let words = |line: &str| protect_negative_values(line.split(' ').map(OsString::from));
        let line = CommandLine::try_parse_from(words("gamesolver check nim 1,2 --json")).unwrap();
        let Some(Command::Check(cli)) = line.command else {
            panic!("check is a subcommand")
        };
        assert_eq!((cli.game.id(), cli.json), ("nim", true));
        let line = CommandLine::try_parse_from(words("gamesolver completions zsh")).unwrap();
        assert!(matches!(line.command, Some(Command::Completions { .. })));
        let line = CommandLine::try_parse_from(words("gamesolver nim -1")).unwrap();
        assert!(line.command.is_none());
        assert!(CommandLine::try_parse_from(words("gamesolver")).is_err());
        assert!(CommandLine::try_parse_from(words("gamesolver check")).is_err());
    }

    #[test]
    fn negative_values_and_flags_coexist() {
        install();
        let cli = parse("gamesolver stone-game-viii -1,2,-3 --json 4 -5").unwrap();
        let values: Vec<_> = cli.values.iter().map(|v| strip_protection(v)).collect();
        assert_eq!(values, vec!["-1,2,-3", "4", "-5"]);
        assert!(cli.json);
        let cli = parse("gamesolver stone-game-viii --input -5.txt").unwrap();
        assert_eq!(cli.input.unwrap().to_str(), Some("-5.txt"));
        assert!(parse("gamesolver stone-game-viii 1 --jsn").is_err());
    }

    #[test]
    fn durations() {
        install();
        use std::time::Duration;
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2H"), Ok(Duration::from_secs(7200)));
        for bad in ["0", "-3s", "soon", "1e400", "NaN", ""] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes() {
        install();
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("2kb"), Ok(2048));
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999T").is_err());
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("0.5k"), Ok(512));
        for bad in [
            "1.5",
            "1.2.3G",
            "-1G",
            ".G",
            "1e3M",
            "0.0001K",
            "99999999999T",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn thread_counts() {
        install();
        assert_eq!(parse_threads("2"), Ok(2));
        assert_eq!(parse_threads("256"), Ok(256));
        for (bad, says) in [
            ("0", "cannot solve anything"),
            ("-3", "not a number of threads"),
            ("5000", "more than 256"),
            ("many", "not a whole number"),
        ] {
            let message = parse_threads(bad).unwrap_err();
            assert!(
                message.contains(says) && message.contains("1..=256"),
                "{message}"
            );
        }
    }
}
