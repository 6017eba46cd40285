//! A position of a bundled game as `analyze --at` and `--after` read it, on any bytes:
//! gamesolver::games::fuzz::Target::Position checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::Position.run(bytes);
});
