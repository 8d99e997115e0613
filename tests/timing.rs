//! Clock discipline under load, measured (not run by default: it takes about two minutes and its
//! figures depend on the machine). Run with
//! `cargo test --release --test timing -- --ignored --nocapture`.
//!
//! Two processes keep both cores busy while the engine answers 200 `go movetime` commands across
//! the games and algorithms, with `MoveOverhead 0`, so that the hard limit is exactly the
//! `movetime`: the worst lateness past it is printed (goal: ≤ 20 ms). Then clocked games at
//! 3 s + 30 ms with the default `MoveOverhead` count time losses (goal: none).
//! `QUATRE_THREADS=1` runs the first measurement with one search thread instead of every core.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start() -> Self {
        // QUATRE_BIN measures another build (e.g. the previous one) with the same harness.
        let bin =
            std::env::var("QUATRE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_quatre").into());
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn quatre");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send((Instant::now(), l)).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }
    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{}", s).unwrap();
        self.stdin.flush().unwrap();
    }
    fn until(&mut self, pred: impl Fn(&str) -> bool) -> (Instant, String) {
        loop {
            let (t, l) = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("engine answered");
            if pred(&l) {
                return (t, l);
            }
        }
    }
    fn sync(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }
    /// Sends `go …` and returns (milliseconds until `bestmove`, the move).
    fn go(&mut self, cmd: &str) -> (f64, String) {
        let t0 = Instant::now();
        self.send(cmd);
        let (t, l) = self.until(|l| l.starts_with("bestmove"));
        let mv = l.split_whitespace().nth(1).unwrap_or("0000").to_string();
        (t.duration_since(t0).as_secs_f64() * 1000.0, mv)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Two busy processes, killed when dropped.
struct Hog(Vec<Child>);

impl Hog {
    fn start() -> Self {
        Hog((0..2)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .expect("spawn hog")
            })
            .collect())
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

const GAMES: [&str; 4] = ["hyperchess", "rithmomachia", "tesseract", "tesseris"];

#[test]
#[ignore]
fn lateness_past_the_hard_limit_under_load() {
    let _hog = Hog::start();
    let mut e = Engine::start();
    e.send("setoption name MoveOverhead value 0");
    if let Ok(t) = std::env::var("QUATRE_THREADS") {
        e.send(&format!("setoption name Threads value {}", t));
    }
    let mut late = Vec::new();
    let mut worst = (0.0, String::new());
    for i in 0..200 {
        let game = GAMES[i % 4];
        let algo = ["auto", "mcts"][(i / 4) % 2];
        let mt = [40, 100, 250][(i / 8) % 3];
        e.send(&format!("setoption name Game value {}", game));
        e.send(&format!("setoption name Algorithm value {}", algo));
        // A position from a few random-looking plies in: the start, then the engine's own moves.
        e.send("position startpos");
        e.sync();
        let (ms, _) = e.go(&format!("go movetime {}", mt));
        let over = ms - mt as f64;
        late.push(over);
        if over > worst.0 {
            worst = (over, format!("{} {} movetime {}", game, algo, mt));
        }
    }
    late.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pct = |p: f64| late[((late.len() - 1) as f64 * p) as usize];
    println!(
        "lateness past movetime (ms) over {} moves under load: median {:.1}, 90% {:.1}, 99% {:.1}, worst {:.1} ({})",
        late.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        worst.0,
        worst.1
    );
    assert!(worst.0 <= 20.0, "worst lateness {:.1} ms", worst.0);
}

#[test]
#[ignore]
fn clocked_games_at_three_seconds_do_not_lose_on_time_under_load() {
    let _hog = Hog::start();
    let mut losses = 0;
    let mut moves = 0;
    let mut min_left = f64::MAX;
    for (k, game) in GAMES.iter().take(3).cycle().take(6).enumerate() {
        let mut e = Engine::start();
        e.send(&format!("setoption name Game value {}", game));
        e.send("setoption name Boards value 1x1");
        let mut clock = [3000.0f64, 3000.0];
        let mut played: Vec<String> = Vec::new();
        for ply in 0..80 {
            let side = ply % 2;
            e.send(&format!(
                "position startpos{}{}",
                if played.is_empty() { "" } else { " moves " },
                played.join(" ")
            ));
            e.sync();
            let (ms, mv) = e.go(&format!(
                "go wtime {} btime {} winc 30 binc 30",
                clock[0].max(0.0) as u64,
                clock[1].max(0.0) as u64
            ));
            if mv == "0000" {
                break;
            }
            moves += 1;
            clock[side] -= ms;
            min_left = min_left.min(clock[side]);
            if clock[side] < 0.0 {
                losses += 1;
                println!(
                    "game {} ({}): p{} lost on time at ply {}",
                    k,
                    game,
                    side + 1,
                    ply
                );
                break;
            }
            clock[side] += 30.0;
            played.push(mv);
        }
    }
    println!(
        "clocked 3 s + 30 ms under load: {} moves, {} time losses, least time left {:.0} ms",
        moves, losses, min_left
    );
    assert_eq!(losses, 0);
}
