//! A request to the page's `/api/analyze`, on any bytes: gamesolver::games::fuzz::Target::Request
//! checks what must hold.
#![no_main]

use gamesolver::games::fuzz::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    Target::Request.run(bytes);
});
