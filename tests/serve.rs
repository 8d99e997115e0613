//! `quatre serve` end to end over HTTP: the page and its files, a game of each ruleset against
//! the engine (engine moves limited by nodes, so no test depends on the machine's speed), take
//! back, a pasted position, a replayed match file, the seats and the verdict in words, and bad
//! input answered with 400 (404, 405) and a message naming the field while the server goes on.

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
    start_with(&[])
}

/// `quatre serve --port 0` with more arguments.
pub fn start_with(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["serve", "--port", "0"])
        .args(args)
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
    // A field given twice is refused, not taken with its last value (at any depth).
    for body in [
        format!("{{\"id\": 999, \"move\": \"e2e4\", \"id\": {}}}", id),
        format!("{{\"id\": {}, \"move\": \"e2e4\", \"move\": \"e2e4\"}}", id),
    ] {
        let (code, text) = http(&srv.addr, "POST", "/api/move", Some(&body));
        assert_eq!(code, 400, "{}: {}", body, text);
        assert!(
            text.contains("gives 'id' twice") || text.contains("gives 'move' twice"),
            "{}",
            text
        );
        assert!(text.contains("POST /api/move"), "{}", text);
    }
    let nested = r#"{"game": "hyperchess", "options": {"Boards": "1x1", "Boards": "3x3"}}"#;
    let (code, text) = http(&srv.addr, "POST", "/api/seats", Some(nested));
    assert_eq!(code, 400, "{}", text);
    assert!(text.contains("gives 'Boards' twice"), "{}", text);
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
    // The game's moves, its rule options, its seats by name and its result in words.
    assert_eq!(start["moves"].as_array().unwrap().len(), 30);
    assert_eq!(start["name"], json!("tesseract"));
    assert!(
        start["options"]["MaxPlies"].is_string(),
        "{}",
        start["options"]
    );
    assert_eq!(start["seatNames"], json!(["White", "Black"]));
    let v = start["verdict"].as_str().unwrap();
    assert!(v.starts_with("Draw") || v.contains(" wins"), "{}", v);
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
    // Two runs joined into one file number their games from 1 each: the second game 1 could
    // never be shown, so the file is refused.
    let twice = format!("{}{}", text, text.lines().next().unwrap());
    let (code, v) = api(&srv.addr, "POST", "replay", json!({ "text": twice }));
    assert_eq!(code, 400);
    assert_eq!(
        v["error"],
        json!("line 3: game 1 appears twice (first on line 1): give one match's games (its shards may be joined)")
    );
    let (code, v) = api(
        &srv.addr,
        "GET",
        &format!("replay?replay={}&game=2&ply=31", rid),
        Value::Null,
    );
    assert_eq!(code, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("'ply' must be a whole number from 0 to 30"),
        "{}",
        v
    );
    // A record that does not hold together (three rewards for two seats) is refused when the
    // file is loaded, naming its line.
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[1]["result"] = json!([0.5, 0.5, 0.0]);
    let bad: String = lines.iter().map(|l| format!("{}\n", l)).collect();
    let (code, v) = api(&srv.addr, "POST", "replay", json!({ "text": bad }));
    assert_eq!(code, 400, "{}", v);
    let e = v["error"].as_str().unwrap();
    assert!(
        e.starts_with("line 2: not a valid game record: its seats, engines and result have 2, 2 and 3 entries"),
        "{}",
        e
    );
    let _ = std::fs::remove_file(&file);
}

/// Every call checks every field: its type and range, unknown fields and parameters, and
/// answers 400 with a message naming the field.
#[test]
fn every_field_of_every_call_is_checked() {
    let srv = start();
    let s = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "hyperchess", "options": {"Boards": "1x1"}, "nodes": 100}),
    );
    let id = s["id"].as_u64().unwrap();
    // −1 is MaxPlies's "the game's own default", as with setoption and --option.
    let own = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "rithmomachia", "options": {"MaxPlies": -1}, "nodes": 100}),
    );
    assert!(own["id"].as_u64().is_some(), "{}", own);
    let new = |extra: Value| {
        let mut b = json!({"game": "rithmomachia"});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        ("new", b)
    };
    let cases: Vec<((&str, Value), &str)> = vec![
        (
            new(json!({"movetime": "fast"})),
            "'movetime' must be a whole number from 10 to 600000, not \"fast\"",
        ),
        (
            new(json!({"movetime": -5})),
            "'movetime' must be a whole number from 10 to 600000, not -5",
        ),
        (new(json!({"movetime": 5})), "'movetime'"),
        (new(json!({"movetime": 1.5})), "'movetime'"),
        (
            new(json!({"seat": "one"})),
            "'seat' must be a whole number from 1 to 2, not \"one\"",
        ),
        (new(json!({"seat": 0})), "'seat'"),
        (new(json!({"seat": 3})), "'seat'"),
        (new(json!({"nodes": -1})), "'nodes' must be a whole number"),
        (new(json!({"nodes": 0})), "'nodes'"),
        (new(json!({"nodes": "many"})), "'nodes'"),
        (
            new(json!({"nodes": 100, "movetime": 100})),
            "'nodes' or 'movetime', not both",
        ),
        (
            new(json!({"options": "x"})),
            "'options' must be a JSON object",
        ),
        (
            new(json!({"options": {"MaxPlies": [1]}})),
            "'options': MaxPlies",
        ),
        (
            new(json!({"options": {"MaxPlies": -3}})),
            "'options': option MaxPlies",
        ),
        (
            new(json!({"options": {"Colour": "red"}})),
            "'options': no rule option named 'Colour'",
        ),
        (new(json!({"deal": "x"})), "'deal'"),
        (new(json!({"algorithm": 3})), "'algorithm' must be a string"),
        (
            new(json!({"algorithm": "best"})),
            "'algorithm': option Algorithm",
        ),
        (new(json!({"game": 5})), "'game' must be a string"),
        (new(json!({"game": "chess960"})), "'game': unknown game"),
        (
            new(json!({"movetme": 100})),
            "'movetme' is not a field of POST /api/new",
        ),
        (("new", json!([1, 2])), "must be a JSON object"),
        (("new", json!({})), "the request needs 'game'"),
        (
            (
                "seats",
                json!({"game": "tesseris", "options": {"Players": 9}}),
            ),
            "'options': option Players",
        ),
        (
            ("seats", json!({"game": "tesseris", "seat": 1})),
            "'seat' is not a field of POST /api/seats",
        ),
        (("move", json!({"id": id})), "the request needs 'move'"),
        (
            ("move", json!({"id": id, "move": 5})),
            "'move' must be a string",
        ),
        (
            ("move", json!({"id": "1", "move": "e2e4"})),
            "'id' must be a whole number",
        ),
        (("move", json!({"move": "e2e4"})), "the request needs 'id'"),
        (
            ("move", json!({"id": id, "move": "e2e4", "promote": "q"})),
            "'promote' is not a field",
        ),
        (("engine", json!({"id": -1})), "'id' must be a whole number"),
        (("undo", json!({"id": null})), "'id' must be a whole number"),
        (
            ("position", json!({"id": id, "text": ["x"]})),
            "'text' must be a string",
        ),
        (("position", json!({"id": id})), "the request needs 'text'"),
        (("replay", json!({"text": 7})), "'text' must be a string"),
        (
            ("replay", json!({"file": "x"})),
            "'file' is not a field of POST /api/replay",
        ),
    ];
    for ((path, body), want) in cases {
        let (code, v) = api(&srv.addr, "POST", path, body.clone());
        assert_eq!(code, 400, "{} {}: {}", path, body, v);
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains(want),
            "{} {}: '{}' lacks '{}'",
            path,
            body,
            e,
            want
        );
    }
    // The address's parameters.
    for (path, want) in [
        ("state?id=abc", "'id' must be a whole number from 1"),
        ("state?id=-2", "'id' must be a whole number"),
        ("state", "the address needs ?id=N"),
        (
            "state?id=1&colour=2",
            "'colour' is not a parameter of GET /api/state",
        ),
        ("state?id=1&id=2", "'id' is given twice"),
        ("games?x=1", "'x' is not a parameter of GET /api/games"),
        ("replay?replay=1&game=1", "the address needs ?ply=N"),
        (
            "replay?replay=x&game=1&ply=0",
            "'replay' must be a whole number",
        ),
    ] {
        let (code, v) = api(&srv.addr, "GET", path, Value::Null);
        assert_eq!(code, 400, "{}: {}", path, v);
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(want), "{}: '{}' lacks '{}'", path, e, want);
    }
    // A POST's fields go in its body, a GET has none.
    let (code, text) = http(&srv.addr, "POST", "/api/undo?id=1", Some("{}"));
    assert_eq!(code, 400);
    assert!(text.contains("in the JSON body"), "{}", text);
    let (code, text) = http(&srv.addr, "GET", "/api/games", Some("{\"a\": 1}"));
    assert_eq!(code, 400);
    assert!(text.contains("takes no body"), "{}", text);
    // The game is where it was.
    let s = ok(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
    assert!(s["moves"].as_array().unwrap().is_empty());
}

#[test]
fn unknown_paths_get_404_and_wrong_methods_405() {
    let srv = start();
    for (method, path) in [
        ("GET", "/api/nothing"),
        ("POST", "/api/news"),
        ("GET", "/api/"),
    ] {
        let (code, text) = http(&srv.addr, method, path, Some(""));
        assert_eq!(code, 404, "{} {}: {}", method, path, text);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(
            v["error"].as_str().unwrap().starts_with("no API call"),
            "{}",
            text
        );
    }
    assert_eq!(http(&srv.addr, "GET", "/nothing.html", None).0, 404);
    for (method, path, want) in [
        ("GET", "/api/new", "/api/new takes POST, not GET"),
        ("POST", "/api/games", "/api/games takes GET, not POST"),
        (
            "DELETE",
            "/api/replay",
            "/api/replay takes POST or GET, not DELETE",
        ),
    ] {
        let (code, text) = http(&srv.addr, method, path, Some(""));
        assert_eq!(code, 405, "{} {}: {}", method, path, text);
        assert!(text.contains(want), "{}", text);
    }
}

#[test]
fn the_seat_list_follows_the_players_option() {
    let srv = start();
    let names = |v: &Value| -> Vec<String> {
        v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{} {}", s["seat"], s["name"].as_str().unwrap()))
            .collect()
    };
    for (players, want) in [
        ("2", vec!["1 seat 1", "2 seat 2"]),
        ("3", vec!["1 seat 1", "2 seat 2", "3 seat 3"]),
        ("4", vec!["1 seat 1", "2 seat 2", "3 seat 3", "4 seat 4"]),
    ] {
        let r = ok(
            &srv.addr,
            "POST",
            "seats",
            json!({"game": "tesseris", "options": {"Players": players}}),
        );
        assert_eq!(names(&r), want, "Players={}", players);
    }
    let r = ok(&srv.addr, "POST", "seats", json!({"game": "rithmomachia"}));
    assert_eq!(names(&r), ["1 Black", "2 White"]);
    let r = ok(&srv.addr, "POST", "seats", json!({"game": "threechess"}));
    assert_eq!(names(&r), ["1 White", "2 Black", "3 Red"]);
    // Seat 3 exists with three players, not with two; the state names every seat.
    let s = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "tesseris", "options": {"Players": 3}, "seat": 3, "nodes": 50, "deal": 2}),
    );
    assert_eq!(s["seat"], json!(3));
    assert_eq!(s["players"], json!(3));
    assert_eq!(names(&s), ["1 seat 1", "2 seat 2", "3 seat 3"]);
    let (code, v) = api(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "tesseris", "seat": 3, "deal": 2}),
    );
    assert_eq!(code, 400);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("'seat' must be a whole number from 1 to 2"));
    // The games list names the seats of each game at its default options.
    let games = ok(&srv.addr, "GET", "games", Value::Null);
    let rith = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "rithmomachia")
        .unwrap();
    assert_eq!(names(rith), ["1 Black", "2 White"]);
}

/// The y of a cell of a picture (its rectangle's top).
fn cell_y(svg: &str, cell: &str) -> f64 {
    let rest = &svg[svg.find(&format!("data-cell=\"{}\"", cell)).unwrap()..];
    let v = &rest[rest.find(" y=\"").unwrap() + 4..];
    v[..v.find('"').unwrap()].parse().unwrap()
}

#[test]
fn the_board_faces_the_persons_seat() {
    let srv = start();
    for (game, top_seat, cell) in [("rithmomachia", 1, "a1"), ("hyperchess", 2, "AaI1")] {
        let y = |seat: u64| {
            let s = ok(
                &srv.addr,
                "POST",
                "new",
                json!({"game": game, "seat": seat, "nodes": 50}),
            );
            cell_y(s["svg"].as_str().unwrap(), cell)
        };
        // The other seat's corner square: at the bottom, except for the seat drawn at the top.
        let (mine, theirs) = (y(top_seat), y(3 - top_seat));
        assert!(
            mine < theirs,
            "{}: {} at {} for seat {}, {} for the other",
            game,
            cell,
            mine,
            top_seat,
            theirs
        );
    }
}

#[test]
fn game_over_is_said_in_words() {
    let srv = start();
    let s = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "hyperchess", "options": {"Boards": "1x1"}, "nodes": 100}),
    );
    let id = s["id"].as_u64().unwrap();
    for (text, want) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w - - 1 3",
            "Black wins by checkmate",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Draw (bare kings)"),
    ] {
        let s = ok(
            &srv.addr,
            "POST",
            "position",
            json!({"id": id, "text": text}),
        );
        assert_eq!(s["over"]["text"], json!(want), "{}", s["over"]);
        // A move on a finished game is refused.
        let (code, _) = api(&srv.addr, "POST", "move", json!({"id": id, "move": "e1e2"}));
        assert_eq!(code, 400);
    }
}

#[test]
fn take_back_clears_the_analysis() {
    let srv = start();
    let s = ok(
        &srv.addr,
        "POST",
        "new",
        json!({"game": "hyperchess", "options": {"Boards": "1x1"}, "nodes": 200}),
    );
    let id = s["id"].as_u64().unwrap();
    ok(&srv.addr, "POST", "move", json!({"id": id, "move": "e2e4"}));
    ok(&srv.addr, "POST", "engine", json!({"id": id}));
    let s = wait_engine(&srv.addr, id);
    assert!(s["analysis"]["depth"].is_u64(), "{}", s["analysis"]);
    let back = ok(&srv.addr, "POST", "undo", json!({"id": id}));
    assert!(back["moves"].as_array().unwrap().is_empty());
    assert!(back["analysis"].is_null(), "{}", back["analysis"]);
    let again = ok(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
    assert!(again["analysis"].is_null());
}

#[test]
fn serve_game_opens_on_that_game() {
    let srv = start_with(&["--game", "rithmomachia"]);
    let games = ok(&srv.addr, "GET", "games", Value::Null);
    assert_eq!(games["default"], json!("rithmomachia"));
    let plain = start();
    let games = ok(&plain.addr, "GET", "games", Value::Null);
    assert!(games["default"].is_null());
    let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["serve", "--port", "0", "--game", "chess960"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("chess960"));
}

/// Sends `request` as it is, closes the sending side, and returns the answer's status (0 when
/// there is no answer) and body.
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let _ = s.write_all(request);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out).to_string();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, body.to_string())
}

#[test]
fn an_oversized_or_endless_request_is_refused_and_the_server_goes_on() {
    let srv = start();
    let long = "a".repeat(20_000);
    let many: String = (0..101).map(|i| format!("X-{}: 1\r\n", i)).collect();
    for (request, status, want) in [
        // Its length is refused before a byte of it is read (this one used to abort the server).
        (
            "POST /api/seats HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n{}"
                .to_string(),
            413,
            "99999999999 bytes",
        ),
        (
            "POST /api/replay HTTP/1.1\r\nContent-Length: 8388609\r\n\r\n{}".to_string(),
            413,
            "8 MiB",
        ),
        (
            format!(
                "POST /api/seats HTTP/1.1\r\nContent-Length: 9{}\r\n\r\n{{}}",
                "9".repeat(40)
            ),
            413,
            "bytes",
        ),
        (
            "POST /api/seats HTTP/1.1\r\nContent-Length: -1\r\n\r\n{}".to_string(),
            400,
            "Content-Length must be a whole number",
        ),
        (
            "POST /api/seats HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
                .to_string(),
            400,
            "two different Content-Lengths",
        ),
        // A header line, or a request line, without end; too many headers.
        (
            format!("GET /api/games HTTP/1.1\r\nX-Long: {}", long),
            431,
            "a header line is longer than 8192 bytes",
        ),
        (
            format!("GET /{}", long),
            414,
            "the request line is longer than 8192 bytes",
        ),
        (
            format!("GET /api/games HTTP/1.1\r\n{}\r\n", many),
            431,
            "more than 100 headers",
        ),
        (
            "POST /api/seats HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
                .to_string(),
            501,
            "Content-Length",
        ),
        ("hello\r\n\r\n".to_string(), 400, "not an HTTP request line"),
    ] {
        let (code, text) = raw(&srv.addr, request.as_bytes());
        let shown = &request[..request.len().min(80)];
        assert_eq!(code, status, "{:?}: {}", shown, text);
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {}", text));
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(want), "{:?}: {}", shown, e);
        // Still serving.
        let seats = ok(&srv.addr, "POST", "seats", json!({"game": "hyperchess"}));
        assert_eq!(seats["players"], json!(2), "after {:?}", shown);
    }
    // A client that waits for 100 Continue gets it, then its answer.
    let body = json!({"game": "tesseris"}).to_string();
    let (code, text) = raw(
        &srv.addr,
        format!(
            "POST /api/seats HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n{}",
            body.len(),
            body
        )
        .as_bytes(),
    );
    assert_eq!(code, 100, "{}", text);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{}", text);
}

/// A server left running keeps the last 64 games, not every game ever started: the oldest is
/// forgotten, with a message saying so; the newest plays on.
#[test]
fn the_server_keeps_the_newest_games_only() {
    let srv = start();
    let ids: Vec<u64> = (0..65)
        .map(|_| {
            let s = ok(
                &srv.addr,
                "POST",
                "new",
                json!({"game": "hyperchess", "options": {"Boards": "1x1"}, "nodes": 10}),
            );
            s["id"].as_u64().unwrap()
        })
        .collect();
    let (code, v) = api(
        &srv.addr,
        "GET",
        &format!("state?id={}", ids[0]),
        Value::Null,
    );
    assert_eq!(code, 400, "{}", v);
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("the server keeps the last 64"), "{}", e);
    for &id in &ids[1..] {
        let (code, v) = api(&srv.addr, "GET", &format!("state?id={}", id), Value::Null);
        assert_eq!(code, 200, "game {}: {}", id, v);
    }
}
