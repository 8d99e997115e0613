//! The board in a real browser: `quatre serve`, Debian's headless Chromium driven through
//! chromedriver's WebDriver HTTP API (no client crate: JSON over a TcpStream). For each game the
//! test starts a game from the page, plays moves by clicking the cells of the picture, waits for
//! the engine's answer (nodes-limited, so no timing assumption), and saves a screenshot under
//! docs/screenshots/. It also replays a match file through the page's file input.
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
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let b = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        method,
        path,
        addr,
        b.len(),
        b
    )
    .unwrap();
    // chromedriver keeps the connection open: read the head, then Content-Length bytes.
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_end, length) = loop {
        let n = match s.read(&mut buf) {
            Ok(0) | Err(_) => return Value::Null,
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
    serde_json::from_slice(&out[head_end..]).unwrap_or(Value::Null)
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
        while TcpStream::connect(&driver).is_err()
            || http(&driver, "GET", "/status", None)["value"]["ready"] != json!(true)
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
        let _ = http(
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["serve", "--port", "0"])
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

#[test]
fn games_are_played_by_clicking_in_chromium() {
    let Some(b) = Browser::start() else { return };
    let (_server, url) = serve();
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    std::fs::create_dir_all(&shots).unwrap();
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
    b.click("#replay-end");
    b.wait(
        "document.getElementById('replay-ply').textContent.startsWith('20 / 20')",
        "the end",
    );
    let _ = std::fs::remove_file(&file);
}
