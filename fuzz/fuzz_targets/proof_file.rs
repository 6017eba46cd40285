//! A proof file (GSPROOF1) as the library reads and checks it, on any bytes:
//! gamesolver::games::fuzz::Target::ProofFile checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::ProofFile.run(bytes);
});
