//! A chance solution (GSOLVCHN) as `--load` reads it, on any bytes:
//! gamesolver::games::fuzz::Target::ChanceSolution checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::ChanceSolution.run(bytes);
});
