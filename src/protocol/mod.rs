//! The protocol loop: reads lines, keeps the session (options, current position), runs searches
//! on their own thread so that `isready` and `stop` are answered at once, and prints every error
//! as one `info string error: …` line while keeping the last good state.

pub mod command;
pub mod options;

use crate::game::{RuleOptions, Status};
use crate::games::{self, AnyGame, Entry};
use crate::search::{Limits, SearchParams};
use command::{Command, PositionSpec, Query};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub const ENGINE_NAME: &str = concat!("quatre ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the quatre developers";

/// Where the engine writes: one line at a time, flushed, shared with the search thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Output(Arc::new(Mutex::new(w)))
    }
    pub fn stdout() -> Self {
        Self::new(Box::new(std::io::stdout()))
    }
    pub fn line(&self, s: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(w, "{}", s);
        let _ = w.flush();
    }
    pub fn error(&self, s: &str) {
        self.line(&format!("info string error: {}", s.replace('\n', " ")));
    }
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`.
    done: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// One protocol session.
pub struct Engine {
    out: Output,
    params: SearchParams,
    game: Entry,
    /// Rule options per game, kept when switching games back and forth.
    rules: HashMap<&'static str, RuleOptions>,
    position: Box<dyn AnyGame>,
    search: Option<Running>,
    /// Whether the running search waits for `stop` (go infinite, or go with no limit).
    unlimited_search: bool,
}

impl Engine {
    /// A session playing `game` (the registry's first game when None or unknown).
    pub fn new(out: Output, game: Option<&str>) -> Result<Self, String> {
        let entry = match game {
            Some(g) => games::find(g).ok_or_else(|| {
                format!("unknown game '{}'; games: {}", g, games::names().join(", "))
            })?,
            None => *games::all().first().ok_or("no game is compiled in")?,
        };
        let mut params = SearchParams::default();
        for s in options::engine_specs() {
            options::apply(&mut params, s.name, &s.default_text());
        }
        let opts = entry.default_options();
        let position = entry.start(&opts, None)?;
        let mut rules = HashMap::new();
        rules.insert(entry.name, opts);
        Ok(Engine {
            out,
            params,
            game: entry,
            rules,
            position,
            search: None,
            unlimited_search: false,
        })
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Reads commands until `quit` or the end of input (which also waits for a running search to
    /// print its `bestmove`).
    pub fn run<R: BufRead>(&mut self, mut input: R) {
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match input.read_until(b'\n', &mut raw) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    self.out.error(&format!("cannot read input: {}", e));
                    break;
                }
            }
            let line = String::from_utf8_lossy(&raw);
            if !self.handle_line(line.trim_end_matches(['\n', '\r'])) {
                return;
            }
        }
        // End of input: a search with a limit finishes and answers (so `echo "go movetime 500" |
        // quatre` works); one without a limit would never end, so it is stopped.
        if self.unlimited_search {
            self.stop_search();
        }
        self.wait_search();
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.reap_search();
        match command::parse(line) {
            Err(e) => self.out.error(&e),
            Ok(Command::Quit) => {
                self.stop_search();
                return false;
            }
            Ok(c) => {
                // A bug in a ruleset must not take the engine down: report it and carry on.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.execute(c)));
                match r {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => self.out.error(&e),
                    Err(p) => self.out.error(&format!(
                        "internal error while handling '{}': {}",
                        line.trim(),
                        panic_text(&p)
                    )),
                }
            }
        }
        true
    }

    fn rule_opts(&self) -> &RuleOptions {
        &self.rules[self.game.name]
    }

    fn searching(&self) -> bool {
        // True until the search has printed its `bestmove`.
        self.search
            .as_ref()
            .is_some_and(|s| !s.done.load(Ordering::Acquire))
    }

    fn execute(&mut self, c: Command) -> Result<(), String> {
        match c {
            Command::Nothing | Command::PonderHit => {}
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => {
                self.refuse_while_searching("ucinewgame")?;
                self.position = self.game.start(self.rule_opts(), None)?;
            }
            Command::SetOption { name, value } => {
                self.refuse_while_searching("setoption")?;
                self.set_option(&name, &value)?;
            }
            Command::Position { spec, moves } => {
                self.refuse_while_searching("position")?;
                self.set_position(spec, &moves)?;
            }
            Command::Go { limits, warnings } => {
                if self.searching() {
                    return Err("a search is already running; send 'stop' first".into());
                }
                // One line for the whole command, however many tokens were off.
                if !warnings.is_empty() {
                    self.out.error(&format!("go: {}", warnings.join("; ")));
                }
                self.go(limits)?;
            }
            Command::Stop => self.stop_search(),
            Command::Quit => {}
            Command::Display => {
                for l in self.position.display().lines() {
                    self.out.line(l);
                }
                self.out
                    .line(&format!("Position: {}", self.position.to_text()));
                self.out
                    .line(&format!("Hash: {:016x}", self.position.hash()));
                let status = match self.position.status() {
                    Status::Ongoing => format!("p{} to move", self.position.to_move() + 1),
                    Status::Over(o) => format!(
                        "game over: {} ({})",
                        result_text(&o.rewards[..self.position.players()]),
                        o.reason
                    ),
                };
                self.out
                    .line(&format!("Game: {}; {}", self.game.name, status));
            }
            Command::Moves => {
                let m = self.position.legal_moves();
                self.out.line(&if m.is_empty() {
                    "moves".to_string()
                } else {
                    format!("moves {}", m.join(" "))
                });
            }
            Command::Perft { depth } => {
                self.refuse_while_searching("perft")?;
                // On the search thread, like go: isready is answered and stop/quit end it.
                let position = self.position.clone();
                self.spawn_job(false, move |stop, out| {
                    let t0 = std::time::Instant::now();
                    let mut total = 0;
                    let finished = if depth == 0 {
                        total = 1;
                        true
                    } else {
                        position.perft_divide_until(depth, stop, &mut |m, n| {
                            out.line(&format!("{}: {}", m, n));
                            total += n;
                        })
                    };
                    if finished {
                        out.line(&format!("nodes {}", total));
                        let ms = t0.elapsed().as_millis().max(1) as u64;
                        format!(
                            "info string perft time {} ms, {} nodes/s",
                            ms,
                            total * 1000 / ms
                        )
                    } else {
                        "info string perft stopped".to_string()
                    }
                })?;
            }
            Command::Eval => {
                let seat = self.position.to_move();
                self.out.line(&format!(
                    "info string eval {} cp for p{} (static evaluation)",
                    self.position.evaluate(seat),
                    seat + 1
                ));
            }
            Command::Query(q) => self.query(q),
            Command::Help => {
                for l in HELP.lines() {
                    self.out.line(&format!("info string {}", l));
                }
            }
        }
        Ok(())
    }

    fn refuse_while_searching(&self, what: &str) -> Result<(), String> {
        if self.searching() {
            Err(format!(
                "'{}' during a search is ignored; send 'stop' first",
                what
            ))
        } else {
            Ok(())
        }
    }

    fn identify(&self, ok: &str) {
        self.out.line(&format!("id name {}", ENGINE_NAME));
        self.out.line(&format!("id author {}", ENGINE_AUTHOR));
        for l in self.option_lines() {
            self.out.line(&l);
        }
        self.out.line(ok);
    }

    /// Every `option` line: `Game`, the engine options, then the current game's rule options.
    pub fn option_lines(&self) -> Vec<String> {
        let names = games::names();
        let mut lines = vec![format!(
            "option name Game type combo default {} {}",
            self.game.name,
            names
                .iter()
                .map(|n| format!("var {}", n))
                .collect::<Vec<_>>()
                .join(" ")
        )];
        // Listed with their defaults (UCI semantics), not the values set so far.
        for s in options::engine_specs()
            .iter()
            .chain((self.game.rule_options)())
        {
            lines.push(options::option_line(s));
            if s.name == "Hash" {
                lines.push("option name Clear Hash type button".into());
            }
        }
        lines
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("Game") {
            let entry = games::find(value.trim()).ok_or_else(|| {
                format!(
                    "unknown game '{}'; games: {}",
                    value.trim(),
                    games::names().join(", ")
                )
            })?;
            let opts = self
                .rules
                .get(entry.name)
                .cloned()
                .unwrap_or_else(|| entry.default_options());
            let position = entry.start(&opts, None)?;
            self.rules.insert(entry.name, opts);
            self.game = entry;
            self.position = position;
            return Ok(());
        }
        if let Some(spec) = options::engine_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        {
            let v = spec.validate(value)?;
            options::apply(&mut self.params, spec.name, &v);
            return Ok(());
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            return Ok(()); // Each search starts with a fresh tree and table.
        }
        let mut opts = self.rule_opts().clone();
        if opts.spec(name).is_none() {
            let other = games::all().into_iter().find(|e| {
                (e.rule_options)()
                    .iter()
                    .any(|s| s.name.eq_ignore_ascii_case(name))
            });
            return Err(match other {
                Some(e) => format!(
                    "option '{}' belongs to game {}, not {}; set Game first",
                    name, e.name, self.game.name
                ),
                None => format!("unknown option '{}' (send 'uci' for the list)", name),
            });
        }
        opts.set(name, value)?;
        // A rule change invalidates the position: start again under the new rules.
        let position = self.game.start(&opts, None)?;
        self.rules.insert(self.game.name, opts);
        self.position = position;
        Ok(())
    }

    fn set_position(&mut self, spec: PositionSpec, moves: &[String]) -> Result<(), String> {
        let opts = self.rule_opts().clone();
        let mut pos = match spec {
            PositionSpec::Start { seed } => self.game.start(&opts, seed)?,
            PositionSpec::Text(t) => self
                .game
                .from_text(&t, &opts)
                .map_err(|e| format!("bad position: {}", e))?,
        };
        for (i, m) in moves.iter().enumerate() {
            pos.play_text(m)
                .map_err(|e| format!("move {} of the list: {}; position unchanged", i + 1, e))?;
        }
        self.position = pos;
        Ok(())
    }

    fn go(&mut self, limits: Limits) -> Result<(), String> {
        if self.searching() {
            return Err("a search is already running; send 'stop' first".into());
        }
        self.reap_search();
        if let Status::Over(o) = self.position.status() {
            self.out
                .line(&format!("info string game over ({})", o.reason));
            self.out.line("bestmove 0000");
            return Ok(());
        }
        let position = self.position.clone();
        let params = self.params.clone();
        self.spawn_job(limits.is_unlimited(), move |stop, out| {
            let sink = |s: &str| out.line(s);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                position.search(&params, &limits, stop, &sink)
            }));
            let best = match r {
                Ok(r) => r.best,
                Err(p) => {
                    // Still answer, with a legal move, so that a GUI is not left waiting.
                    out.error(&format!("internal error in the search: {}", panic_text(&p)));
                    position.legal_moves().into_iter().next()
                }
            };
            // `go infinite` (or `go` alone) must not print bestmove before `stop` (UCI).
            while limits.is_unlimited() && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            format!("bestmove {}", best.unwrap_or_else(|| "0000".into()))
        })
    }

    /// Runs `job` on the search thread. It gets the stop flag and the output, and returns its
    /// last line, which is printed after the job is marked done, so that a command sent on
    /// seeing that line is never refused as "during a search".
    fn spawn_job(
        &mut self,
        unlimited: bool,
        job: impl FnOnce(&AtomicBool, &Output) -> String + Send + 'static,
    ) -> Result<(), String> {
        self.unlimited_search = unlimited;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (stop2, done2) = (stop.clone(), done.clone());
        let out = self.out.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let last = job(&stop2, &out);
                done2.store(true, Ordering::Release);
                out.line(&last);
            })
            .map_err(|e| format!("cannot start the search thread: {}", e))?;
        self.search = Some(Running { stop, done, handle });
        Ok(())
    }

    fn stop_search(&mut self) {
        if let Some(s) = &self.search {
            s.stop.store(true, Ordering::Relaxed);
        }
        self.wait_search();
    }

    fn wait_search(&mut self) {
        if let Some(s) = self.search.take() {
            let _ = s.handle.join();
        }
    }

    fn reap_search(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.done.load(Ordering::Acquire))
        {
            self.wait_search();
        }
    }

    fn query(&self, q: Query) {
        let p = &self.position;
        let over = p.status();
        let answer = match q {
            Query::GameOver => over.is_over().to_string(),
            Query::Turn(seat) => (!over.is_over() && p.to_move() == seat).to_string(),
            Query::Result => match over {
                Status::Ongoing => "none".into(),
                Status::Over(o) => result_text(&o.rewards[..p.players()]),
            },
        };
        self.out.line(&format!("response {}", answer));
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// `p1win`, `p2win`, `draw` (every seat shares), or for a partial tie among N seats
/// `shared p1 p3` (the seats who share the win).
pub fn result_text(rewards: &[f32]) -> String {
    let max = rewards.iter().cloned().fold(0.0, f32::max);
    let winners: Vec<usize> = (0..rewards.len())
        .filter(|&i| (rewards[i] - max).abs() < 1e-4 && max > 0.0)
        .collect();
    if winners.len() == 1 {
        format!("p{}win", winners[0] + 1)
    } else if winners.len() == rewards.len() {
        "draw".into()
    } else {
        format!(
            "shared {}",
            winners
                .iter()
                .map(|w| format!("p{}", w + 1))
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
}

const HELP: &str = "commands: uci | ugi | isready | ucinewgame | setoption name <n> value <v> | \
position startpos [seed <n>] [moves …] | position fen <text> [moves …] | go [wtime btime winc binc \
movestogo p1time..p4time p1inc..p4inc movetime depth nodes infinite] | stop | quit | d | moves | \
perft <depth> | eval | query gameover|p1turn..p4turn|result | help; see protocol.md";

/// Runs the protocol on stdin/stdout.
pub fn run_stdio(game: Option<&str>) -> Result<(), String> {
    let mut engine = Engine::new(Output::stdout(), game)?;
    let stdin = std::io::stdin();
    engine.run(stdin.lock());
    Ok(())
}
