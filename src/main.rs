//! `gamesolver`: the command line with the bundled games. Everything it does is in the
//! library's `cli` module ([`gamesolver::cli::main_with`]), which a user's own binary calls
//! with its own games.

fn main() -> std::process::ExitCode {
    gamesolver::cli::main_with(gamesolver::games::BUNDLED)
}
