//! The harness of the protocol tests: spawns the built `quatre` binary and talks to it as a GUI
//! or a tournament runner would. Each test file uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Ordinary chess (`Boards=1x1`), White to move.
pub const CHESS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// A test that fails mid-search must not leave its engine running (a `go mate` that never
/// ended once kept two cores busy long after the test run).
impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    pub fn start() -> Self {
        Self::start_with(&[])
    }
    pub fn start_with(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn quatre");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                match l {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }
    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{}", s).expect("engine stdin");
        self.stdin.flush().unwrap();
    }
    /// Lines until one matches `pred` (returned last), failing after `timeout`.
    pub fn until(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no matching line within {:?}; got {:?}", timeout, got)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; got {:?}", got)
                }
            }
        }
    }
    pub fn ask(&mut self, cmd: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.send(cmd);
        self.until(Duration::from_secs(20), pred)
    }
    /// Sends `cmd` then `isready`, returning every line before `readyok`.
    pub fn exchange(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        let mut v = self.ask("isready", |l| l == "readyok");
        v.pop();
        v
    }
    pub fn quit(mut self) {
        self.send("quit");
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "engine exited with {:?}", status);
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

/// Lines from `go` to `bestmove`, failing if it takes longer than `secs`.
pub fn go(e: &mut Engine, cmd: &str, secs: u64) -> Vec<String> {
    e.send(cmd);
    e.until(Duration::from_secs(secs), |l| l.starts_with("bestmove"))
}

/// The engine's standard output for `script` on its standard input, started with `args` (it
/// answers every `go` before it exits at the end of input).
pub fn script_output(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn quatre");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

/// Runs `quatre ARGS…` (a subcommand) to its end.
pub fn run_cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(args)
        .output()
        .expect("run quatre")
}

/// Ordinary chess on the command line: hyperchess on one board.
pub const ONE_BOARD: [&str; 4] = ["--game", "hyperchess", "--option", "Boards=1x1"];

/// Two random players (`builtin:random`) on the command line.
pub const TWO_RANDOMS: [&str; 4] = ["--engine", "builtin:random", "--engine", "builtin:random"];

/// The arguments of `quatre match` between two random players: `match`, then `game` (the game
/// and its options), the two engines, then `extra`.
pub fn random_match<'a>(game: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&'a str> = vec!["match"];
    a.extend_from_slice(game);
    a.extend_from_slice(&TWO_RANDOMS);
    a.extend_from_slice(extra);
    a
}

/// The arguments of the tiny match: two random players at chess on one board, then `extra`
/// (the node limit, game count, and so on).
pub fn tiny_match<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    random_match(&ONE_BOARD, extra)
}

/// `text` with field `field` (0-based) of its line `line` (1-based) replaced by `value`.
pub fn with_field(text: &str, line: usize, field: usize, value: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                let mut f: Vec<&str> = l.split('\t').collect();
                f[field] = value;
                f.join("\t") + "\n"
            } else {
                format!("{}\n", l)
            }
        })
        .collect()
}

/// The scores of the first search's `info` lines.
pub fn first_scores(s: &str) -> Vec<String> {
    s.lines()
        .take_while(|l| !l.starts_with("bestmove"))
        .filter_map(|l| l.split(" score ").nth(1))
        .map(|r| r.split(" nodes").next().unwrap().to_string())
        .collect()
}
