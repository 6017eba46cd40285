//! An `--input` file (integers or JSON), or Connect Four's `--batch`, on any bytes:
//! gamesolver::games::fuzz::Target::InputFile checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::InputFile.run(bytes);
});
