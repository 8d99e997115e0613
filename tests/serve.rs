//! `quatre serve` end to end over HTTP: the page and its files, a game of each ruleset against
//! the engine (engine moves limited by nodes, so no test depends on the machine's speed), take
//! back, a pasted position, a replayed match file, and bad input answered with 400 and a
//! message while the server goes on.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `quatre serve --port 0`, stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start quatre serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("quatre serve: listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {}", line))
        .to_string();
    Server { child, addr }
}

/// One HTTP/1.0 request; returns the status and the body.
pub fn http(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    write!(
        s,
        "{} {} HTTP/1.0\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        method,
        path,
        addr,
        body.len(),
        body
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn api(addr: &str, method: &str, path: &str, body: Value) -> (u16, Value) {
    let b = body.to_string();
    let (code, text) = http(
        addr,
        method,
        &format!("/api/{}", path),
        (method == "POST").then_some(b.as_str()),
    );
    (
        code,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {}", text)),
    )
}

fn ok(addr: &str, method: &str, path: &str, body: Value) -> Value {
    let (code, v) = api(addr, method, path, body);
    assert_eq!(code, 200, "{} {}: {}", method, path, v);
    v
}

/// Waits until the engine has moved (the person's turn again, or the game over).
fn wait_engine(addr: &str, id: u64) -> Value {
    let t0 = Instant::now();
    loop {
        let s = ok(addr, "GET", &format!("state?id={}", id), Value::Null);
        if !s["thinking"].as_bool().unwrap() {
            return s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the engine never moved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_page_and_its_files_are_served() {
    let srv = start();
    let (code, html) = http(&srv.addr, "GET", "/", None);
    assert_eq!(code, 200);
    assert!(html.contains("<script src=\"/app.js\">"));
    for f in ["/app.js", "/style.css"] {
        assert_eq!(http(&srv.addr, "GET", f, None).0, 200, "{}", f);
    }
    assert_eq!(http(&srv.addr, "GET", "/nothing", None).0, 404);
    let games = ok(&srv.addr, "GET", "games", Value::Null);
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "hyperchess",
            "rithmomachia",
            "tesseract",
            "tesseris",
            "threechess"
        ]
    );
}

#[test]
fn a_game_of_each_ruleset_against_the_engine() {
    let srv = start();
    for game in [
        "hyperchess",
        "rithmomachia",
        "tesseract",
        "tesseris",
        "threechess",
    ] {
        let s = ok(
            &srv.addr,
            "POST",
            "new",
            json!({"game": game, "seat": 1, "nodes": 300, "deal": 7}),
        );
        let id = s["id"].as_u64().unwrap();
        for turn in 0..3 {
            let s = ok(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
            if !s["over"].is_null() {
                break;
            }
            assert!(s["yourTurn"].as_bool().unwrap(), "{}: {}", game, s);
            let legal = s["legal"].as_array().unwrap();
            assert!(!legal.is_empty());
            // Every legal move names cells of the picture.
            for m in legal {
                for c in m["cells"].as_array().unwrap() {
                    let want = format!("data-cell=\"{}\"", c.as_str().unwrap());
                    assert!(
                        s["svg"].as_str().unwrap().contains(&want),
                        "{}: {} not drawn",
                        game,
                        want
                    );
                }
            }
            let mv = legal[turn % legal.len()]["move"]
                .as_str()
                .unwrap()
                .to_string();
            let after = ok(&srv.addr, "POST", "move", json!({"id": id, "move": mv}));
            assert_eq!(
                after["moves"].as_array().unwrap().last().unwrap(),
                &json!(mv)
            );
            // The engine plays every other seat, one move per call.
            let mut st = after;
            while st["over"].is_null() && !st["yourTurn"].as_bool().unwrap() {
                ok(&srv.addr, "POST", "engine", json!({"id": id}));
                st = wait_engine(&srv.addr, id);
                assert!(
                    st["analysis"]["depth"].as_u64().is_some() || st["over"].is_object(),
                    "{}: {}",
                    game,
                    st["analysis"]
                );
            }
        }
        let s = ok(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
        if game == "tesseris" {
            // Only the person's observation leaves the server.
            assert!(
                s["position"].as_str().unwrap().starts_with("obs seat=1"),
                "{}",
                s["position"]
            );
        }
        // Take back: the person's last move and the engine's answers.
        let n = s["moves"].as_array().unwrap().len();
        let back = ok(&srv.addr, "POST", "undo", json!({"id": id}));
        assert!(back["moves"].as_array().unwrap().len() < n);
        assert!(back["yourTurn"].as_bool().unwrap());
    }
}

#[test]
fn bad_input_gets_a_message_and_the_server_goes_on() {
    let srv = start();
    let s = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "hyperchess", "options": {"Boards": "1x1"}, "nodes": 100}),
    );
    let id = s["id"].as_u64().unwrap();
    for (path, body, want) in [
        ("move", json!({"id": id, "move": "e2e5"}), "illegal"),
        ("move", json!({"id": id, "move": "zz"}), "bad move"),
        ("new", json!({"game": "chess960"}), "unknown game"),
        (
            "new",
            json!({"game": "hyperchess", "options": {"Boards": "9x9"}}),
            "Boards",
        ),
        ("new", json!({"game": "hyperchess", "seat": 3}), "seat"),
        (
            "position",
            json!({"id": id, "text": "not a position"}),
            "bad position",
        ),
        ("move", json!({"id": 999, "move": "e2e4"}), "no game 999"),
        ("replay", json!({"text": "{\"x\": 1}"}), "line 1"),
    ] {
        let (code, v) = api(&srv.addr, "POST", path, body.clone());
        assert_eq!(code, 400, "{} {}: {}", path, body, v);
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(want), "{} {}: {}", path, body, e);
    }
    let (code, text) = http(&srv.addr, "POST", "/api/move", Some("{not json"));
    assert_eq!(code, 400);
    assert!(text.contains("not JSON"));
    // Still serving, and the game is where it was.
    let s = ok(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
    assert!(s["moves"].as_array().unwrap().is_empty());
    let pasted = ok(
        &srv.addr,
        "POST",
        "position",
        json!({"id": id, "text": "4k3/8/8/8/8/8/8/4K2R w - - 0 1"}),
    );
    assert!(pasted["position"]
        .as_str()
        .unwrap()
        .starts_with("4k3/8/8/8/8/8/8/4K2R w"));
}

#[test]
fn a_match_file_is_replayed_move_by_move() {
    let srv = start();
    let file =
        std::env::temp_dir().join(format!("quatre-serve-replay-{}.jsonl", std::process::id()));
    let f = file.to_str().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args([
            "match",
            "--game",
            "tesseract",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--nodes",
            "10",
            "--games",
            "2",
            "--seed",
            "3",
            "--max-plies",
            "30",
            "--quiet",
            "--out",
            f,
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    let r = ok(&srv.addr, "POST", "replay", json!({"text": text}));
    let rid = r["replay"].as_u64().unwrap();
    assert_eq!(r["games"].as_array().unwrap().len(), 2);
    let start = ok(
        &srv.addr,
        "GET",
        &format!("replay?replay={}&game=2&ply=0", rid),
        Value::Null,
    );
    let plies = start["plies"].as_u64().unwrap();
    assert_eq!(plies, 30);
    let mut last = start["svg"].as_str().unwrap().to_string();
    for ply in 1..=plies {
        let s = ok(
            &srv.addr,
            "GET",
            &format!("replay?replay={}&game=2&ply={}", rid, ply),
            Value::Null,
        );
        assert_eq!(s["ply"].as_u64().unwrap(), ply);
        let svg = s["svg"].as_str().unwrap().to_string();
        assert_ne!(svg, last, "ply {} changed nothing", ply);
        last = svg;
    }
    let (code, v) = api(
        &srv.addr,
        "GET",
        &format!("replay?replay={}&game=9&ply=0", rid),
        Value::Null,
    );
    assert_eq!(code, 400);
    assert!(v["error"].as_str().unwrap().contains("no game 9"));
    let _ = std::fs::remove_file(&file);
}
