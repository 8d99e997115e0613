//! `quatre serve`: a board in the browser. A small HTTP server (std's TcpListener, a thread per
//! connection, every read bounded: http.rs) serves an embedded page and a JSON API; every rule
//! stays in Rust — the page shows the SVG the engine draws, lists the legal moves the engine
//! generates, and posts the move a click or the list chose.
//! The API is documented in docs/serve.md.

mod api;
mod fields;
mod http;

use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Serves until the process is stopped. Prints `quatre serve: listening on http://HOST:PORT/`
/// on stdout once the port is bound (`--port 0` picks a free one). `game`: the game the page
/// opens on (none: the first).
pub fn run(host: &str, port: u16, game: Option<&str>) -> Result<(), String> {
    let default_game = game
        .map(|g| crate::games::resolve(Some(g)).map(|e| e.name))
        .transpose()?;
    let listener = TcpListener::bind((host, port))
        .map_err(|e| format!("cannot listen on {}:{}: {}", host, port, e))?;
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| format!("{}:{}", host, port));
    println!("quatre serve: listening on http://{}/", addr);
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let state = Arc::new(api::Sessions::opening_on(default_game));
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // Out of file descriptors, or a connection reset before it was taken: wait a moment.
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(10));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= http::MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            http::busy(&stream);
            continue;
        }
        let (state, slot) = (state.clone(), Slot(open.clone()));
        // A thread that cannot start drops its closure, and with it the slot.
        let _ = std::thread::Builder::new().spawn(move || {
            let _slot = slot;
            connection(&state, stream);
        });
    }
    Ok(())
}

/// One connection counted among the open ones until it is dropped (even by a panic).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn refuse(stream: &TcpStream, status: u16, message: &str) {
    let body = serde_json::json!({ "error": message }).to_string();
    http::respond(stream, status, "application/json", body.as_bytes(), false);
}

/// One connection: one request read within bounds, answered, and the connection closed.
fn connection(state: &api::Sessions, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(http::READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(http::READ_TIMEOUT));
    let request = match http::read_request(&stream) {
        Ok(r) => r,
        Err(http::Unread::Gone) => return,
        Err(http::Unread::Refused(status, message)) => return refuse(&stream, status, &message),
    };
    let (status, kind, body) = handle(state, &request);
    http::respond(
        &stream,
        status,
        kind,
        body.as_bytes(),
        request.method == "HEAD",
    );
}

fn handle(state: &api::Sessions, request: &http::Request) -> (u16, &'static str, String) {
    let url = &request.target;
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let method = request.method.as_str();
    match (method, path) {
        ("GET", "/") | ("GET", "/index.html") => {
            (200, "text/html; charset=utf-8", INDEX.to_string())
        }
        ("GET", "/app.js") => (200, "text/javascript; charset=utf-8", APP.to_string()),
        ("GET", "/style.css") => (200, "text/css; charset=utf-8", STYLE.to_string()),
        (_, p) if p.starts_with("/api/") => {
            let result = match std::str::from_utf8(&request.body) {
                Err(_) => Err("the request's body is not UTF-8 text".into()),
                Ok(body) => api::route(state, method, &p[5..], query, body),
            };
            match result {
                Ok(v) => (200, "application/json", v.to_string()),
                Err(e) => (
                    e.status,
                    "application/json",
                    serde_json::json!({ "error": e.message }).to_string(),
                ),
            }
        }
        _ => (
            404,
            "text/plain; charset=utf-8",
            format!("no page {}", path),
        ),
    }
}
