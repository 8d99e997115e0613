//! `quatre serve`: a board in the browser. A small HTTP server (tiny_http: synchronous, no async
//! runtime, one thread per request here is plenty for one person at a board) serves an embedded
//! page and a JSON API; every rule stays in Rust — the page shows the SVG the engine draws, lists
//! the legal moves the engine generates, and posts the move a click or the list chose.
//! The API is documented in docs/serve.md.

mod api;
mod fields;

use std::io::Read;
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
    let server = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {}:{}: {}", host, port, e))?;
    let addr = server
        .server_addr()
        .to_ip()
        .map(|a| a.to_string())
        .unwrap_or_else(|| format!("{}:{}", host, port));
    println!("quatre serve: listening on http://{}/", addr);
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let server = Arc::new(server);
    let state = Arc::new(api::Sessions::opening_on(default_game));
    // A few threads take requests in turn; searches run on their own threads.
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (server, state) = (server.clone(), state.clone());
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    handle(&state, request);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

fn handle(state: &api::Sessions, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    let (status, kind, body) = match (&method, path) {
        (tiny_http::Method::Get, "/") | (tiny_http::Method::Get, "/index.html") => {
            (200, "text/html; charset=utf-8", INDEX.to_string())
        }
        (tiny_http::Method::Get, "/app.js") => {
            (200, "text/javascript; charset=utf-8", APP.to_string())
        }
        (tiny_http::Method::Get, "/style.css") => {
            (200, "text/css; charset=utf-8", STYLE.to_string())
        }
        (_, p) if p.starts_with("/api/") => {
            let mut body = String::new();
            let read = request
                .as_reader()
                .take(16 * 1024 * 1024)
                .read_to_string(&mut body);
            let result = match read {
                Err(e) => Err(format!("cannot read the request: {}", e).into()),
                Ok(_) => api::route(state, method.as_str(), &p[5..], query, &body),
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
    };
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], kind.as_bytes())
        .expect("a valid header");
    let response = tiny_http::Response::from_string(body)
        .with_status_code(status)
        .with_header(header);
    let _ = request.respond(response);
}
