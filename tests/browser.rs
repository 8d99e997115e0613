//! The board in a real browser: `quatre serve`, Debian's headless Chromium driven through
//! chromedriver's WebDriver HTTP API (no client crate: JSON over a TcpStream). For each game the
//! test starts a game from the page, plays moves by clicking the cells of the picture, waits for
//! the engine's answer (nodes-limited, so no timing assumption), and saves a screenshot. It also
//! checks the seat list, the board facing the person's seat, take back, a game over in words,
//! `serve --game`, and replays a match file through the page's file input.
//!
//! Screenshots go to target/tmp/screenshots/ (the tests never touch tracked files); to
//! regenerate the documentation's five pictures (one per game) deliberately, name their folder:
//! `QUATRE_SCREENSHOTS=docs/screenshots cargo test --release --test browser` (docs/serve.md).
//!
//! Without /usr/bin/chromium and /usr/bin/chromedriver the test says so and passes, except under
//! CI (env CI set), where `.ci/run` installs them and their absence is a failure.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Proc(Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Value {
    try_http(addr, method, path, body)
        .unwrap_or_else(|e| panic!("WebDriver {} {} on {}: {}", method, path, addr, e))
}

/// One HTTP exchange with chromedriver; an error when the connection cannot be made or is
/// reset while the request is written (chromedriver, just started, may accept and drop one).
fn try_http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<Value> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    let b = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        method,
        path,
        addr,
        b.len(),
        b
    )?;
    // chromedriver keeps the connection open: read the head, then Content-Length bytes.
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_end, length) = loop {
        let n = match s.read(&mut buf) {
            Ok(0) | Err(_) => return Ok(Value::Null),
            Ok(n) => n,
        };
        out.extend_from_slice(&buf[..n]);
        if let Some(i) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&out[..i]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            break (i + 4, length);
        }
    };
    match length {
        Some(len) => {
            while out.len() < head_end + len {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                }
            }
        }
        None => {
            let _ = s.read_to_end(&mut out);
        }
    }
    Ok(serde_json::from_slice(&out[head_end..]).unwrap_or(Value::Null))
}

struct Browser {
    driver: String,
    session: String,
    _chromedriver: Proc,
}

impl Browser {
    fn start() -> Option<Browser> {
        let missing: Vec<&str> = ["/usr/bin/chromium", "/usr/bin/chromedriver"]
            .into_iter()
            .filter(|p| !std::path::Path::new(p).exists())
            .collect();
        if !missing.is_empty() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run the browser test: {:?} missing (.ci/run installs chromium and chromium-driver)",
                missing
            );
            eprintln!("browser test skipped: {:?} not installed (apt-get install chromium chromium-driver)", missing);
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={}", port))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let driver = format!("127.0.0.1:{}", port);
        let t0 = Instant::now();
        while try_http(&driver, "GET", "/status", None)
            .map_or(true, |r| r["value"]["ready"] != json!(true))
        {
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile =
            std::env::temp_dir().join(format!("quatre-chromium-{}-{}", std::process::id(), port));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--window-size=1200,1000",
                         format!("--user-data-dir={}", profile.display())],
            }
        }}});
        let r = http(&driver, "POST", "/session", Some(&caps));
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {}", r))
            .to_string();
        Some(Browser {
            driver,
            session,
            _chromedriver: Proc(child),
        })
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call_allowing(method, path, body, "")
    }

    /// As `call`, but an error whose name is `allowed` is not a failure.
    fn call_allowing(&self, method: &str, path: &str, body: Option<Value>, allowed: &str) -> Value {
        let r = http(
            &self.driver,
            method,
            &format!("/session/{}{}", self.session, path),
            body.as_ref(),
        );
        if let Some(e) = r["value"].get("error").filter(|e| *e != allowed) {
            panic!(
                "WebDriver {} {}: {} {}",
                method, path, e, r["value"]["message"]
            );
        }
        r["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn click(&self, css: &str) {
        let el = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = el
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(|v| v.as_str())
            .expect("an element id")
            .to_string();
        // A click that completes a move redraws the board at once: chromedriver may then find
        // the element it clicked gone, which is what the click was for.
        self.call_allowing(
            "POST",
            &format!("/element/{}/click", id),
            Some(json!({})),
            "stale element reference",
        );
    }

    /// Waits until `script` (a JS expression) is true.
    fn wait(&self, script: &str, what: &str) {
        let t0 = Instant::now();
        while self.js(&format!("return !!({})", script)) != json!(true) {
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "timed out waiting for {}",
                what
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, path: &std::path::Path) {
        let b64 = self.call("GET", "/screenshot", None);
        std::fs::write(path, base64_decode(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = try_http(
            &self.driver,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            _ => 63,
        }
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

fn serve() -> (Proc, String) {
    serve_with(&[])
}

/// `quatre serve --port 0` with more arguments; its address.
fn serve_with(args: &[&str]) -> (Proc, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .trim_start_matches("quatre serve: listening on ")
        .to_string();
    (Proc(child), url)
}

/// Where screenshots go: a folder under target/; for the documentation's pictures (`docs`),
/// `QUATRE_SCREENSHOTS` (a folder, relative to the crate) when set, to regenerate them.
fn screenshots(docs: bool) -> std::path::PathBuf {
    let dir = match std::env::var_os("QUATRE_SCREENSHOTS").filter(|_| docs) {
        Some(d) => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(d),
        None => std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn games_are_played_by_clicking_in_chromium() {
    let Some(b) = Browser::start() else { return };
    let (_server, url) = serve();
    let shots = screenshots(true);
    for game in [
        "hyperchess",
        "rithmomachia",
        "tesseract",
        "tesseris",
        "threechess",
    ] {
        b.open(&format!("{}?game={}&nodes=400", url, game));
        b.wait(
            "typeof game === 'object' && game && game.yourTurn",
            "the person's first turn",
        );
        assert_eq!(b.js("return game.game"), json!(game));
        for turn in 0..2 {
            let before = b.js("return game.moves.length").as_u64().unwrap();
            // A move by its cells: click each, in order, on the picture.
            let cells = b.js(&format!(
                "return game.legal[{} % game.legal.length].cells",
                turn * 7
            ));
            let cells: Vec<String> = cells
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            assert!(!cells.is_empty(), "{}: a move without cells", game);
            for c in &cells {
                b.click(&format!("#board [data-cell=\"{}\"]", c));
            }
            b.wait(
                &format!("game.moves.length > {}", before),
                "the clicked move",
            );
            // The engine answers; the board is the person's again (or the game is over).
            b.wait("game.over || game.yourTurn", "the engine's answer");
            let after = b.js("return game.moves.length").as_u64().unwrap();
            assert!(
                after >= before + 2 || b.js("return !!game.over") == json!(true),
                "{}",
                game
            );
            assert_eq!(
                b.js("return document.getElementById('message').textContent"),
                json!("")
            );
        }
        let analysis = b.js("return document.getElementById('analysis').textContent");
        assert!(
            analysis.as_str().unwrap().contains("depth"),
            "{}: {}",
            game,
            analysis
        );
        // Chess for three, three seats: each one's learned share below the score.
        assert_eq!(
            analysis
                .as_str()
                .unwrap()
                .contains("expected shares: White "),
            game == "threechess",
            "{}: {}",
            game,
            analysis
        );
        b.screenshot(&shots.join(format!("{}.png", game)));
    }
    // An illegal click gets a message on the page.
    b.open(&format!("{}?game=hyperchess&nodes=200", url));
    b.wait(
        "typeof game === 'object' && game && game.yourTurn",
        "a new game",
    );
    b.click("#board [data-cell=\"AeII5\"]");
    b.wait(
        "document.getElementById('message').textContent.includes('No legal move')",
        "the message",
    );
}

#[test]
fn a_match_file_is_replayed_in_chromium() {
    let Some(b) = Browser::start() else { return };
    let (_server, url) = serve();
    let file = std::env::temp_dir().join(format!(
        "quatre-browser-replay-{}.jsonl",
        std::process::id()
    ));
    let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args([
            "match",
            "--game",
            "rithmomachia",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--nodes",
            "10",
            "--games",
            "2",
            "--seed",
            "8",
            "--max-plies",
            "20",
            "--quiet",
            "--out",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    b.open(&format!("{}?game=rithmomachia&nodes=100", url));
    b.wait(
        "typeof game === 'object' && game && game.yourTurn",
        "the page",
    );
    // The file input takes a path from WebDriver.
    let el = b.call(
        "POST",
        "/element",
        Some(json!({"using": "css selector", "value": "#replay-file"})),
    );
    let id = el
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    b.call(
        "POST",
        &format!("/element/{}/value", id),
        Some(json!({"text": file.to_str().unwrap()})),
    );
    b.wait(
        "document.getElementById('replay-ply').textContent.startsWith('0 / 20')",
        "the replay",
    );
    for k in 1..=3 {
        b.click("#replay-next");
        b.wait(
            &format!(
                "document.getElementById('replay-ply').textContent.startsWith('{} / 20')",
                k
            ),
            "a step",
        );
    }
    // The game's moves, the current one marked, and its rule options.
    assert_eq!(
        b.js("return document.querySelectorAll('#history li').length"),
        json!(20)
    );
    assert_eq!(
        b.js("return document.querySelector('#history li.current').textContent"),
        b.js("return document.querySelectorAll('#history li')[2].textContent")
    );
    let info = b.js("return document.getElementById('replay-info').textContent");
    assert!(
        info.as_str().unwrap().contains("Options: ")
            && info.as_str().unwrap().contains("MaxPlies="),
        "{}",
        info
    );
    b.click("#replay-end");
    b.wait(
        "document.getElementById('replay-ply').textContent.startsWith('20 / 20')",
        "the end",
    );
    // The result in words: 20 plies reach the match's limit.
    let status = b.js("return document.getElementById('status').textContent");
    assert!(
        status.as_str().unwrap().contains("Result: Draw"),
        "{}",
        status
    );
    // Past the end is the end.
    b.click("#replay-next");
    b.wait(
        "document.getElementById('replay-ply').textContent.startsWith('20 / 20')",
        "still the end",
    );
    assert_eq!(
        b.js("return document.getElementById('message').textContent"),
        json!("")
    );
    b.screenshot(&screenshots(false).join("replay.png"));
    let _ = std::fs::remove_file(&file);
}

/// The page's seat list follows the chosen options, the board faces the person's seat, take
/// back clears the analysis, a game over is said in words, and `serve --game` opens on it.
#[test]
fn seats_facing_take_back_and_game_over_in_chromium() {
    let Some(b) = Browser::start() else { return };
    let (_server, url) = serve_with(&["--game", "rithmomachia"]);
    let shots = screenshots(false);
    // `serve --game rithmomachia`: the page opens on it, without ?game=.
    b.open(&format!("{}?nodes=100", url));
    b.wait(
        "typeof game === 'object' && game && game.game === 'rithmomachia'",
        "the first game",
    );
    // Seat p1 is Black: the board is drawn from Black's side (rank 16 at the bottom).
    assert_eq!(
        b.js("return [...document.querySelectorAll('#seat option')].map(o => o.textContent)"),
        json!(["Black (p1)", "White (p2)"])
    );
    assert_eq!(b.js("return game.seat"), json!(1));
    let y = |cell: &str| {
        b.js(&format!(
            "return Number(document.querySelector('#board [data-cell=\"{}\"]').getAttribute('y'))",
            cell
        ))
        .as_f64()
        .unwrap()
    };
    assert!(y("a16") > y("a1"), "Black's rank 16 is not at the bottom");
    b.wait("game.over || game.yourTurn", "Black's turn");
    b.screenshot(&shots.join("rithmomachia-black.png"));
    // As White (p2) the board is the other way round.
    b.js("document.getElementById('seat').value = '2'; document.getElementById('new').click(); return 0");
    b.wait(
        "game && game.seat === 2 && (game.yourTurn || game.over)",
        "White's game",
    );
    assert!(y("a1") > y("a16"), "White's rank 1 is not at the bottom");

    // An unknown ?game= is said on the page, and the default game is played.
    b.open(&format!("{}?game=bogus&nodes=100", url));
    b.wait(
        "typeof game === 'object' && game && game.game === 'rithmomachia'",
        "the default game",
    );
    let said = b.js("return document.getElementById('message').textContent");
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("no game named 'bogus' (the games: "),
        "{}",
        said
    );

    // Tesseris with three players: the seat list has three seats, and seat 3 can be played.
    b.open(&format!("{}?game=tesseris&nodes=100", url));
    b.wait(
        "typeof game === 'object' && game && game.game === 'tesseris' && game.yourTurn",
        "tesseris",
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#seat option').length"),
        json!(2)
    );
    b.js("const p = document.querySelector('[data-option=\"Players\"]'); p.value = '3'; p.dispatchEvent(new Event('change')); return 0");
    b.wait(
        "document.querySelectorAll('#seat option').length === 3",
        "three seats",
    );
    b.js("document.getElementById('seat').value = '3'; document.getElementById('new').click(); return 0");
    b.wait(
        "game && game.players === 3 && game.seat === 3 && (game.yourTurn || game.over)",
        "seat 3's turn",
    );
    assert!(b
        .js("return document.getElementById('status').textContent")
        .as_str()
        .unwrap()
        .starts_with("Your move, seat 3:"));
    b.screenshot(&shots.join("tesseris-3-players.png"));

    // Take back: the engine's analysis of the position taken back goes with it.
    b.open(&format!("{}?game=hyperchess&nodes=200", url));
    b.wait(
        "typeof game === 'object' && game && game.game === 'hyperchess' && game.yourTurn",
        "hyperchess",
    );
    let cells = b.js("return game.legal[0].cells");
    for c in cells.as_array().unwrap() {
        b.click(&format!("#board [data-cell=\"{}\"]", c.as_str().unwrap()));
    }
    b.wait(
        "game.moves.length >= 2 && game.yourTurn",
        "the engine's answer",
    );
    b.wait(
        "document.getElementById('analysis').textContent.includes('depth')",
        "the analysis",
    );
    b.click("#undo");
    b.wait("game.moves.length === 0", "the take back");
    assert_eq!(
        b.js("return document.getElementById('analysis').textContent"),
        json!("—")
    );

    // A game over, said in words.
    b.open(&format!("{}?game=hyperchess&nodes=100", url));
    b.wait(
        "typeof game === 'object' && game && game.game === 'hyperchess' && game.yourTurn",
        "hyperchess",
    );
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w - - 1 3";
    // One board (Boards=1x1) for the pasted chess position.
    b.js("const o = document.querySelector('[data-option=\"Boards\"]'); o.value = '1x1'; o.dispatchEvent(new Event('change')); document.getElementById('new').click(); return 0");
    b.wait(
        "game && game.position.split(' ')[0].split('/').length === 8 && game.yourTurn",
        "one board",
    );
    b.js(&format!(
        "document.getElementById('position').value = '{}'; document.getElementById('load-position').click(); return 0",
        mate
    ));
    b.wait("game && game.over", "the game over");
    assert_eq!(
        b.js("return document.getElementById('status').textContent"),
        json!("Game over: Black wins by checkmate.")
    );
    b.screenshot(&shots.join("game-over.png"));
}
