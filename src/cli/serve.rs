//! `gamesolver serve`: the analysis page and its JSON API on localhost (docs/serve.md).
//!
//! The page's files are compiled into the binary (no build step, nothing fetched). Every
//! analysis is the command line's own `analyze --json`, run in-process by
//! [`run_json`](super::embed::run_json) on a blocking thread, one solve at a time (so the
//! memory limit caps the server's solves as it caps one run), with the server's limits; the
//! answers of recent positions are kept, so a page that comes back to a position (undo, redo,
//! a shared address) is answered at once.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;

use super::args::ServeArgs;
use super::embed::{Refusal, run_json, run_progress};
use super::model::Failure;
use super::registry::{self, Reads, Solves};

/// The page: its HTML, script and style, compiled in.
const PAGE: &str = include_str!("serve/page.html");
const SCRIPT: &str = include_str!("serve/page.js");
const STYLE: &str = include_str!("serve/page.css");

/// The largest request body read (a position is a few hundred bytes; Cat and Mouse's graph
/// a few kilobytes).
const BODY_BYTES: usize = 64 << 10;

/// The most requests waiting for the solver at once; past it, 503.
const WAITING: usize = 4096;

/// The most answers kept.
const KEPT: usize = 1024;

/// What the handlers share.
struct Served {
    /// The solve's options from the server's own (`--threads`, `--memory-limit`,
    /// `--time-limit`), as arguments.
    limits: Vec<String>,
    /// One solve at a time: its permit is held by the blocking thread that solves, so a
    /// request whose client went away does not let a second solve start beside it.
    solver: Arc<tokio::sync::Semaphore>,
    /// Requests waiting for the solver, or solving.
    waiting: AtomicUsize,
    /// When the solve in progress started.
    solving: Mutex<Option<Instant>>,
    /// Recent answers by their arguments: (status, JSON).
    kept: Mutex<HashMap<Vec<String>, (StatusCode, String)>>,
    /// Tier files to answer from: the game in words each holds (`quixo 4`), and its path.
    loads: Vec<(String, String)>,
}

impl Served {
    /// A server's shared state: its solves' `limits` as arguments, the tier files it `loads`,
    /// no solve running and no answer kept.
    fn new(limits: Vec<String>, loads: Vec<(String, String)>) -> Arc<Served> {
        Arc::new(Served {
            limits,
            solver: Arc::new(tokio::sync::Semaphore::new(1)),
            waiting: AtomicUsize::new(0),
            solving: Mutex::new(None),
            kept: Mutex::new(HashMap::new()),
            loads,
        })
    }
}

/// Runs the server until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let mut limits = Vec::new();
    if let Some(threads) = args.threads {
        limits.extend(["--threads".to_string(), threads.to_string()]);
    }
    if let Some(bytes) = args.memory_limit {
        limits.extend(["--memory-limit".to_string(), bytes.to_string()]);
    }
    if let Some(limit) = args.time_limit {
        limits.extend([
            "--time-limit".to_string(),
            format!("{}ms", limit.as_millis()),
        ]);
    }
    let mut loads = Vec::new();
    for path in &args.load {
        let file = crate::engines::tiers::file::TierFile::open(path)
            .map_err(|error| Failure::Rejected(error.into()))?;
        loads.push((file.identity().game.clone(), path.display().to_string()));
    }
    let served = Served::new(limits, loads);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Failure::Usage(format!("cannot start the server: {error}")))?;
    runtime.block_on(async move {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| Failure::Usage(format!("cannot listen on {address}: {error}")))?;
        let bound = listener
            .local_addr()
            .map_err(|error| Failure::Usage(format!("cannot listen on {address}: {error}")))?;
        let url = format!("http://{bound}/");
        println!("Serving the analysis page on {url} (Ctrl-C to stop)");
        if args.open {
            open(&url);
        }
        axum::serve(listener, router(served))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|error| Failure::Usage(format!("the server stopped: {error}")))
    })
}

/// Asks the system to open `url` in a browser; says so if it cannot.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {error}): open {url} yourself");
    }
}

/// The routes.
fn router(served: Arc<Served>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/play/{game}", get(page))
        .route("/page.js", get(script))
        .route("/page.css", get(style))
        .route("/api/games", get(games))
        .route("/api/analyze", get(analyze_query).post(analyze_body))
        .route("/api/progress", get(progress))
        .route("/api/cancel", axum::routing::post(cancel))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_BYTES))
        .with_state(served)
}

async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

async fn not_found() -> Response {
    problem(StatusCode::NOT_FOUND, "no such page or API", "not-found")
}

/// A JSON answer.
fn answer(status: StatusCode, json: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// A JSON error, in the command line's `--json` shape: `{"error", "kind"}`.
fn problem(status: StatusCode, message: &str, kind: &str) -> Response {
    answer(status, json!({"error": message, "kind": kind}).to_string())
}

/// `GET /api/games`: each game's name, what it is, typical values and its position's form.
async fn games() -> Response {
    let listed: Vec<_> = registry::games()
        .iter()
        .map(|game| {
            let (example, at, board) = match &game.solves {
                Solves::Engine(engine) => (
                    match engine.reads {
                        Reads::Integers { example } => Some(example),
                        Reads::Nothing => None,
                    },
                    engine.at,
                    false,
                ),
                Solves::Own(own) => (Some(own.example), None, own.board),
            };
            json!({
                "name": game.name(), "about": game.about(), "example": example,
                "position": at, "board": board
            })
        })
        .collect();
    answer(StatusCode::OK, json!({ "games": listed }).to_string())
}

/// What an analysis asks for: the game, its values, the position (`at`), the moves played
/// from it (`after`, by name, separated by ';'), and Connect Four's board size.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Asked {
    game: String,
    #[serde(default)]
    values: Option<String>,
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    after: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
}

/// `GET /api/analyze?game=…&values=…&at=…&after=…`.
async fn analyze_query(
    State(served): State<Arc<Served>>,
    asked: Result<Query<Asked>, axum::extract::rejection::QueryRejection>,
) -> Response {
    match asked {
        Ok(Query(asked)) => analyze(served, asked).await,
        Err(rejection) => problem(StatusCode::BAD_REQUEST, &rejection.body_text(), "usage"),
    }
}

/// `POST /api/analyze` with the same fields as a JSON object.
async fn analyze_body(State(served): State<Arc<Served>>, body: Bytes) -> Response {
    match serde_json::from_slice::<Asked>(&body) {
        Ok(asked) => analyze(served, asked).await,
        Err(error) => problem(
            StatusCode::BAD_REQUEST,
            &format!("the body is not an analysis request: {error}"),
            "usage",
        ),
    }
}

/// The command line's arguments for `asked`; `Err` with the message if it names no game.
fn arguments(served: &Served, asked: Asked) -> Result<Vec<String>, String> {
    if !registry::games()
        .iter()
        .any(|game| game.name() == asked.game)
    {
        let names: Vec<&str> = registry::games().iter().map(|game| game.name()).collect();
        return Err(format!(
            "no game is named {:?}: the games are {}",
            asked.game,
            names.join(", ")
        ));
    }
    let mut arguments = vec![
        "analyze".to_string(),
        asked.game.clone(),
        "--json".to_string(),
    ];
    let mut option = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            arguments.extend([name.to_string(), value]);
        }
    };
    // A tier file that holds this game and these values answers it.
    let values: Vec<&str> = asked
        .values
        .as_deref()
        .unwrap_or("")
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|value| !value.is_empty())
        .collect();
    let words = [asked.game.as_str()]
        .into_iter()
        .chain(values)
        .collect::<Vec<_>>()
        .join(" ");
    let load = served
        .loads
        .iter()
        .find(|(game, _)| *game == words)
        .map(|(_, path)| path.clone());
    option("--load", load);
    option("--at", asked.at);
    option("--after", asked.after);
    option("--width", asked.width.map(|width| width.to_string()));
    option("--height", asked.height.map(|height| height.to_string()));
    arguments.extend(served.limits.iter().cloned());
    arguments.push("--".to_string());
    arguments.extend(asked.values.filter(|values| !values.trim().is_empty()));
    Ok(arguments)
}

/// The status of a refusal, by its kind: the request's fault (400), or the solve's limits
/// (422: the position is fine, but not within the server's limits), or stopped (409).
fn status_of(kind: &str) -> StatusCode {
    match kind {
        "memory-budget" | "time-limit" | "score-overflow" => StatusCode::UNPROCESSABLE_ENTITY,
        "stopped" => StatusCode::CONFLICT,
        "internal" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// Answers an analysis: from the answers kept, or by a solve when the solver is free.
async fn analyze(served: Arc<Served>, asked: Asked) -> Response {
    let arguments = match arguments(&served, asked) {
        Ok(arguments) => arguments,
        Err(message) => return problem(StatusCode::NOT_FOUND, &message, "unknown-game"),
    };
    if let Some((status, json)) = lock(&served.kept).get(&arguments).cloned() {
        return answer(status, json);
    }
    // Counted until this request is answered or its client goes away (the future dropped).
    let _waiting = Waiting::count(&served.waiting);
    if served.waiting.load(Ordering::SeqCst) > WAITING {
        return problem(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many requests are waiting for the solver: try again",
            "busy",
        );
    }
    let permit = Arc::clone(&served.solver).acquire_owned().await;
    // A request for the same position may have been answered while this one waited.
    let kept = lock(&served.kept).get(&arguments).cloned();
    let (status, json) = match (kept, permit) {
        (Some(kept), _) => kept,
        (None, Ok(permit)) => {
            let worker = Arc::clone(&served);
            let key = arguments.clone();
            let solved = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                solve(&worker, key)
            })
            .await;
            match solved {
                Ok(done) => done,
                Err(_) => (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    json!({"error": "the solve failed", "kind": "internal"}).to_string(),
                ),
            }
        }
        (None, Err(_)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"error": "the server is stopping", "kind": "busy"}).to_string(),
        ),
    };
    answer(status, json)
}

/// A request counted as waiting for the solver while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn count(waiting: &'a AtomicUsize) -> Waiting<'a> {
        waiting.fetch_add(1, Ordering::SeqCst);
        Waiting(waiting)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One solve, on a blocking thread, with the solver's permit held: its answer, kept if it
/// does not depend on the moment (a stop or a limit may not recur).
fn solve(served: &Served, arguments: Vec<String>) -> (StatusCode, String) {
    let progress = run_progress();
    progress.resume();
    *lock(&served.solving) = Some(Instant::now());
    let result = std::panic::catch_unwind(|| run_json(registry::games(), arguments.iter()));
    *lock(&served.solving) = None;
    let (status, json) = match result {
        Ok(Ok(json)) => (StatusCode::OK, json.trim_end().to_string()),
        Ok(Err(Refusal { message, kind })) => (
            status_of(&kind),
            json!({"error": message, "kind": kind}).to_string(),
        ),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"error": "the solve failed (a bug: please report it)", "kind": "internal"})
                .to_string(),
        ),
    };
    if status == StatusCode::OK || status == StatusCode::BAD_REQUEST {
        let mut kept = lock(&served.kept);
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(arguments, (status, json.clone()));
    }
    (status, json)
}

/// `GET /api/progress`: whether a solve runs, for how long, and how far it got.
async fn progress(State(served): State<Arc<Served>>) -> Response {
    let progress = run_progress();
    let seconds = lock(&served.solving).map(|started| started.elapsed().as_secs_f64());
    let steps = progress.steps().map(|(done, of)| json!([done, of]));
    answer(
        StatusCode::OK,
        json!({
            "solving": seconds.is_some(),
            "seconds": seconds,
            "waiting": served.waiting.load(Ordering::SeqCst),
            "stored": progress.stored(),
            "searched": progress.searched(),
            "bytes": progress.bytes(),
            "steps": steps,
        })
        .to_string(),
    )
}

/// `POST /api/cancel`: stops the solve in progress (its request is answered 409, `"stopped"`).
async fn cancel(State(served): State<Arc<Served>>) -> Response {
    let solving = lock(&served.solving).is_some();
    if solving {
        run_progress().stop();
    }
    answer(StatusCode::OK, json!({ "cancelled": solving }).to_string())
}

/// A lock that a panicking holder did not spoil (what it guards stays consistent).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The page's `/api/analyze` on one request made of `bytes`, as the fuzz target `request`
/// (`gamesolver::games::fuzz`) drives it: the first byte picks a query string (`GET
/// /api/analyze?` the rest) or a JSON body (`POST`, the rest cut at the body's limit), answered
/// by a server of its own with `games` installed (as [`run_json`] installs them), whose solves
/// take `limits` (`--memory-limit 256M`, …); the status and the JSON answered.
///
/// ```
/// use gamesolver::cli::answer_request;
/// use gamesolver::games::BUNDLED;
///
/// let (status, json) = answer_request(BUNDLED, b"\x00game=nim&values=3,4,5", &[]);
/// assert_eq!(status, 200);
/// assert!(json.contains(r#""value":1"#), "{json}");
/// ```
pub fn answer_request(
    games: &'static [&'static registry::Bundled],
    bytes: &[u8],
    limits: &[String],
) -> (u16, String) {
    registry::install(games);
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime on this thread");
    }
    let served = Served::new(limits.to_vec(), Vec::new());
    let rest = bytes.get(1..).unwrap_or_default();
    let query = bytes.first().is_some_and(|first| first % 2 == 0);
    RUNTIME.with(|runtime| {
        runtime.block_on(async {
            let response = if query {
                let uri = format!("/api/analyze?{}", String::from_utf8_lossy(rest));
                match uri.parse::<axum::http::Uri>() {
                    // What a client cannot send: no request reaches the handler.
                    Err(_) => {
                        return (400, json!({"error": "no URI", "kind": "usage"}).to_string());
                    }
                    Ok(uri) => analyze_query(State(served), Query::try_from_uri(&uri)).await,
                }
            } else {
                let body = Bytes::copy_from_slice(&rest[..rest.len().min(BODY_BYTES)]);
                analyze_body(State(served), body).await
            };
            let status = response.status().as_u16();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("an answer's body");
            (status, String::from_utf8_lossy(&body).into_owned())
        })
    })
}
