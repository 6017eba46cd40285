//! A journal of parts' nimbers as `--save --resume` reads it, on any bytes:
//! gamesolver::games::fuzz::Target::NimberJournal checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::NimberJournal.run(bytes);
});
