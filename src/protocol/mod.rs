//! The protocol loop: reads lines, keeps the session (options, current position), runs searches
//! on their own thread so that `isready` and `stop` are answered at once, and prints every error
//! as one `info string error: …` line while keeping the last good state.

pub mod command;
pub mod info;
pub mod options;

use crate::game::{RuleOptions, Status};
use crate::games::{self, AnyGame, Entry};
use crate::search::time::{self, Ponder};
use crate::search::{self, BestSoFar, Control, Limits, SearchParams};
use command::{Command, PositionSpec, Query};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

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
    /// Writes `s` (unless empty) if `check`, asked while holding the output, says so: a line
    /// and the decision to print it cannot be separated by another thread's line.
    fn write_if(&self, check: impl FnOnce() -> bool, s: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        if check() && !s.is_empty() {
            let _ = writeln!(w, "{}", s);
            let _ = w.flush();
        }
    }
    pub fn error(&self, s: &str) {
        self.line(&format!("info string error: {}", s.replace('\n', " ")));
    }
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`.
    done: Arc<AtomicBool>,
    /// The clock of a `go ponder` search, started by `ponderhit`.
    ponder: Option<Arc<Ponder>>,
    /// When the `go` arrived.
    start: Instant,
    handle: JoinHandle<()>,
}

/// Where a client's move list played on past a draw the rules declare by themselves.
#[derive(Clone, Debug)]
struct PlayedThrough {
    /// The draw's name ("threefold repetition", "fifty-move rule", "MaxPlies").
    reason: &'static str,
    /// How many moves of the list had been played when it arose.
    after: usize,
    /// The rules' result there (`draw`).
    result: String,
}

/// One protocol session.
pub struct Engine {
    out: Output,
    params: SearchParams,
    /// The game at start-up: the `Game` option's default.
    first_game: Entry,
    game: Entry,
    /// Rule options per game, set in any order and kept when switching games back and forth.
    rules: HashMap<&'static str, RuleOptions>,
    /// The position the client last sent, or why there is none (its last `position` was
    /// refused): then nothing is searched, so that no answer is for a position it did not send.
    position: Result<Box<dyn AnyGame>, String>,
    /// Set when the position's move list continued past an automatic draw.
    played_through: Option<PlayedThrough>,
    search: Option<Running>,
    /// Whether the running search waits for `stop` (go infinite, or go with no limit).
    unlimited_search: bool,
    /// Milliseconds by which recent answers came later than their hard limit: kept in hand on top
    /// of `MoveOverhead` (a busy machine delays the search threads and the answer).
    lag_ms: Arc<AtomicU64>,
}

impl Engine {
    /// A session playing `game` (the registry's first game when None or unknown).
    pub fn new(out: Output, game: Option<&str>) -> Result<Self, String> {
        let entry = match game {
            Some(g) => games::resolve(Some(g))?,
            None => games::resolve(None)?,
        };
        let params = SearchParams::default();
        let rules: HashMap<_, _> = games::all()
            .into_iter()
            .map(|e| (e.name, e.default_options()))
            .collect();
        let position = entry.start(&rules[entry.name], None);
        Ok(Engine {
            out,
            params,
            first_game: entry,
            game: entry,
            rules,
            position,
            played_through: None,
            search: None,
            unlimited_search: false,
            lag_ms: Arc::new(AtomicU64::new(0)),
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
        // quatre` works); one without a limit (or still pondering) would never end, so it is
        // stopped.
        let pondering = self
            .search
            .as_ref()
            .is_some_and(|s| s.ponder.as_ref().is_some_and(|p| p.active()));
        if self.unlimited_search || pondering {
            self.stop_search();
        }
        self.wait_search();
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let received = Instant::now();
        self.reap_search();
        match command::parse(line) {
            Err(e) => self.out.error(&e),
            Ok(Command::Quit) => {
                self.stop_search();
                return false;
            }
            Ok(c) => {
                // A bug in a ruleset must not take the engine down: report it and carry on.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.execute(c, received)
                }));
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

    /// The current position, or the reason there is none.
    fn pos(&self) -> Result<&dyn AnyGame, String> {
        self.position
            .as_deref()
            .map_err(|why| format!("no position: {}", why))
    }

    /// A fresh start position of the current game under its rule options.
    fn restart(&mut self) {
        self.position = self.game.start(self.rule_opts(), None);
        self.played_through = None;
    }

    fn searching(&self) -> bool {
        // True until the search has printed its `bestmove`.
        self.search
            .as_ref()
            .is_some_and(|s| !s.done.load(Ordering::Acquire))
    }

    fn execute(&mut self, c: Command, received: Instant) -> Result<(), String> {
        match c {
            Command::Nothing => {}
            Command::PonderHit => self.ponderhit()?,
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => {
                self.refuse_while_searching("ucinewgame")?;
                self.restart();
            }
            Command::SetOption { name, value } => {
                self.refuse_while_searching("setoption")?;
                self.set_option(&name, &value)?;
            }
            Command::Position { spec, moves } => {
                self.refuse_while_searching("position")?;
                self.played_through = None;
                match self.read_position(spec, &moves) {
                    Ok((pos, through)) => {
                        self.position = Ok(pos);
                        self.played_through = through;
                    }
                    Err(e) => {
                        // Refused: keep no position, so that no `go` answers for another one.
                        self.position = Err(format!("the last 'position' was refused ({})", e));
                        return Err(e);
                    }
                }
            }
            Command::Go { limits, warnings } => {
                if self.searching() {
                    return Err("a search is already running; send 'stop' first".into());
                }
                // One line for the whole command, however many tokens were off.
                if !warnings.is_empty() {
                    self.out.error(&format!("go: {}", warnings.join("; ")));
                }
                self.go(limits, received)?;
            }
            Command::Stop => self.stop_search(),
            Command::Quit => {}
            Command::Display => {
                let p = self.pos()?;
                for l in p.display().lines() {
                    self.out.line(l);
                }
                self.out.line(&format!("Position: {}", p.to_text()));
                self.out.line(&format!("Hash: {:016x}", p.hash()));
                let mut status = match p.status() {
                    Status::Ongoing => format!("p{} to move", p.to_move() + 1),
                    Status::Over(o) => format!(
                        "game over: {} ({})",
                        result_text(&o.rewards[..p.players()]),
                        o.reason
                    ),
                };
                if let Some(t) = &self.played_through {
                    status.push_str(&format!(
                        "; the rules drew the game after move {} of the list ({}), played on as the client sent",
                        t.after, t.reason
                    ));
                }
                self.out
                    .line(&format!("Game: {}; {}", self.game.name, status));
            }
            Command::Moves => {
                let m = self.pos()?.legal_moves();
                self.out.line(&if m.is_empty() {
                    "moves".to_string()
                } else {
                    format!("moves {}", m.join(" "))
                });
            }
            Command::Perft { depth } => {
                self.refuse_while_searching("perft")?;
                // On the search thread, like go: isready is answered and stop/quit end it.
                let position = self.pos()?.clone_box();
                self.spawn_job(false, None, received, move |stop, out, _| {
                    let t0 = Instant::now();
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
                let p = self.pos()?;
                let seat = p.to_move();
                self.out.line(&format!(
                    "info string eval {} cp for p{} (static evaluation)",
                    p.evaluate(seat),
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

    /// Every `option` line: `Game`, the engine options, then the rule options of every game,
    /// each name once. The list is the same whatever `Game` is (GUIs read it once).
    pub fn option_lines(&self) -> Vec<String> {
        let names = games::names();
        let mut lines = vec![format!(
            "option name Game type combo default {} {}",
            self.first_game.name,
            names
                .iter()
                .map(|n| format!("var {}", n))
                .collect::<Vec<_>>()
                .join(" ")
        )];
        // Listed with their defaults (UCI semantics), not the values set so far.
        for s in options::engine_specs() {
            lines.push(options::option_line(&s));
            if s.name == "Hash" {
                lines.push("option name Clear Hash type button".into());
            }
        }
        for s in options::rule_specs() {
            lines.push(options::option_line(&s));
        }
        lines
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("Game") {
            let entry = games::resolve(Some(value.trim()))?;
            self.game = entry;
            self.restart();
            return Ok(());
        }
        if options::engine_specs()
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case(name))
        {
            return options::set(&mut self.params, name, value);
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            return Ok(()); // Each search starts with a fresh tree and table.
        }
        // A rule option: set for every game that has it, whichever game is current, so that
        // options sent before `Game` (runners send them in any order) are not lost.
        let owners: Vec<Entry> = games::all()
            .into_iter()
            .filter(|e| e.default_options().spec(name).is_some())
            .collect();
        if owners.is_empty() {
            return Err(format!(
                "unknown option '{}' (send 'uci' for the list)",
                name
            ));
        }
        let mut updated = Vec::new();
        for e in &owners {
            let mut opts = self.rules[e.name].clone();
            if value.trim() == options::GAME_DEFAULT {
                let d = e.default_options();
                let spec = d.spec(name).expect("owner has the option");
                opts.set(name, &spec.default_text())?;
            } else {
                opts.set(name, value)
                    .map_err(|err| format!("{} (game {})", err, e.name))?;
            }
            updated.push((e.name, opts));
        }
        let current_changed = updated.iter().any(|(n, _)| *n == self.game.name);
        for (n, o) in updated {
            self.rules.insert(n, o);
        }
        // A rule change of the current game invalidates the position: start again under the
        // new rules.
        if current_changed {
            self.restart();
        }
        Ok(())
    }

    /// The position a `position` command describes, and where its move list played on past an
    /// automatic draw, if it did.
    fn read_position(
        &self,
        spec: PositionSpec,
        moves: &[String],
    ) -> Result<(Box<dyn AnyGame>, Option<PlayedThrough>), String> {
        let opts = self.rule_opts().clone();
        let mut pos = match spec {
            PositionSpec::Start { seed } => self.game.start(&opts, seed)?,
            PositionSpec::Text(t) => self
                .game
                .from_text(&t, &opts)
                .map_err(|e| format!("bad position: {}", e))?,
        };
        let mut through = None;
        for (i, m) in moves.iter().enumerate() {
            if let Status::Over(o) = pos.status() {
                // A draw the rules declare by themselves is a claim for a chess GUI, which
                // plays on: follow it (once per draw; the first one is reported).
                if let Some(reason) = pos.play_through_draw() {
                    self.out.line(&format!(
                        "info string the rules drew this game after move {} of the list ({}); playing on as sent",
                        i, reason
                    ));
                    if through.is_none() {
                        through = Some(PlayedThrough {
                            reason,
                            after: i,
                            result: result_text(&o.rewards[..pos.players()]),
                        });
                    }
                }
            }
            pos.play_text(m)
                .map_err(|e| format!("move {} of the list: {}", i + 1, e))?;
        }
        Ok((pos, through))
    }

    fn go(&mut self, mut limits: Limits, received: Instant) -> Result<(), String> {
        if self.searching() {
            return Err("a search is already running; send 'stop' first".into());
        }
        self.reap_search();
        let mut position = match self.pos() {
            Ok(p) => p.clone_box(),
            Err(e) => {
                self.out.error(&e);
                self.out.line("bestmove 0000");
                return Ok(());
            }
        };
        // A client that asks for a move where the rules drew by themselves (repetition, the
        // 100-ply rule, MaxPlies) plays on, as a chess GUI does: search on.
        if let Some(reason) = position.play_through_draw() {
            self.out.line(&format!(
                "info string the rules drew this game here ({}); searching on as asked",
                reason
            ));
        }
        if let Status::Over(o) = position.status() {
            self.out
                .line(&format!("info string game over ({})", o.reason));
            self.out.line("bestmove 0000");
            return Ok(());
        }
        if !limits.searchmoves.is_empty() {
            let legal = position.legal_moves();
            let mut kept = Vec::new();
            for m in std::mem::take(&mut limits.searchmoves) {
                let mut probe = position.clone_box();
                match probe.play_text(&m) {
                    // Kept in the position's own spelling.
                    Ok(()) => kept.push(m),
                    Err(e) => self.out.error(&format!("go searchmoves: {}; dropped", e)),
                }
            }
            if kept.is_empty() {
                self.out.error(&format!(
                    "go searchmoves: no legal move named; searching all {} moves",
                    legal.len()
                ));
            }
            limits.searchmoves = kept;
        }
        let params = self.params.clone();
        let ponder = limits.ponder.then(|| Arc::new(Ponder::default()));
        let unlimited = limits.is_unlimited();
        let lag = self.lag_ms.clone();
        let margin = lag.load(Ordering::Relaxed);
        let ponder2 = ponder.clone();
        self.spawn_job(unlimited, ponder, received, move |stop, out, answer| {
            let best_so_far = BestSoFar::default();
            let saw_info = AtomicBool::new(false);
            // Nothing the search reports may follow the watchdog's `bestmove`.
            let sink = |e: search::Event| {
                if matches!(e, search::Event::Report(_) | search::Event::Unscored { .. }) {
                    saw_info.store(true, Ordering::Relaxed);
                }
                for l in info::lines(&e) {
                    answer.line(&l);
                }
            };
            let control = Control {
                stop,
                ponder: ponder2.as_deref(),
                start: received,
                margin_ms: margin,
                best: Some(&best_so_far),
            };
            let hard = time::budget_for(
                &limits,
                position.to_move(),
                params.move_overhead_ms + margin,
            )
            .hard;
            // When the hard limit's clock started: None while pondering (or with no limit).
            let deadline = || {
                let origin = match &ponder2 {
                    Some(p) => p.origin(received),
                    None => Some(received),
                };
                Some(origin? + hard? + WATCHDOG_GRACE)
            };
            let (tx, rx) = std::sync::mpsc::channel();
            let finished = std::thread::scope(|scope| {
                let searcher = std::thread::Builder::new()
                    .name("search-main".into())
                    .spawn_scoped(scope, || {
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            position.search_controlled(&params, &limits, control, &sink)
                        }));
                        let _ = tx.send(r);
                    });
                if let Err(e) = searcher {
                    out.error(&format!("cannot start the search thread: {}", e));
                    return None;
                }
                // The watchdog: a search thread that a busy machine keeps from stopping at its
                // hard limit is not waited for; the best move so far is played.
                loop {
                    let wait = match deadline() {
                        Some(d) => d.saturating_duration_since(Instant::now()),
                        None if hard.is_some() => std::time::Duration::from_millis(5),
                        None => std::time::Duration::from_secs(3600),
                    };
                    match rx.recv_timeout(wait) {
                        Ok(r) => return Some(r),
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            if deadline().is_some_and(|d| Instant::now() >= d) {
                                stop.store(true, Ordering::Relaxed);
                                let mv = best_so_far
                                    .get()
                                    .or_else(|| position.legal_moves().into_iter().next())
                                    .unwrap_or_else(|| "0000".into());
                                if !saw_info.load(Ordering::Relaxed) {
                                    answer.line(&format!(
                                        "info depth 1 time {} pv {}",
                                        received.elapsed().as_millis(),
                                        mv
                                    ));
                                }
                                note_lag(&lag, received, hard);
                                answer.finish(&format!("bestmove {}", mv));
                                // The scope now waits for the search thread, which was told to stop.
                                return None;
                            }
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                    }
                }
            });
            let Some(r) = finished else {
                return String::new();
            };
            let (best, ponder_move) = match r {
                Ok(r) => {
                    let next = r
                        .report
                        .as_ref()
                        .and_then(|rep| rep.lines.first())
                        .filter(|l| l.pv.first() == r.best.as_ref())
                        .and_then(|l| l.pv.get(1).cloned());
                    (r.best, next)
                }
                Err(p) => {
                    // Still answer, with a legal move, so that a GUI is not left waiting.
                    out.error(&format!("internal error in the search: {}", panic_text(&p)));
                    (position.legal_moves().into_iter().next(), None)
                }
            };
            // `go infinite` (or `go` alone) must not print bestmove before `stop`, nor a pondering
            // search before `ponderhit` or `stop` (UCI).
            while (limits.is_unlimited() || ponder2.as_ref().is_some_and(|p| p.active()))
                && !stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            if ponder2.is_none() {
                note_lag(&lag, received, hard);
            }
            let best = best.unwrap_or_else(|| "0000".into());
            match ponder_move {
                Some(p) => format!("bestmove {} ponder {}", best, p),
                None => format!("bestmove {}", best),
            }
        })
    }

    fn ponderhit(&mut self) -> Result<(), String> {
        match &self.search {
            Some(s) if !s.done.load(Ordering::Acquire) => match &s.ponder {
                Some(p) if p.active() => {
                    p.hit(s.start);
                    Ok(())
                }
                Some(_) => Err("'ponderhit' came twice for this search".into()),
                None => Err("'ponderhit' but the search is not pondering (send 'go ponder …')".into()),
            },
            _ => Err("'ponderhit' but no search is running".into()),
        }
    }

    /// Runs `job` on the search thread. It gets the stop flag, the output and its [`Answer`],
    /// and returns its last line, which is printed (unless the job already gave its answer)
    /// after the job is marked done, so that a command sent on seeing that line is never refused
    /// as "during a search".
    fn spawn_job(
        &mut self,
        unlimited: bool,
        ponder: Option<Arc<Ponder>>,
        start: Instant,
        job: impl FnOnce(&AtomicBool, &Output, &Answer) -> String + Send + 'static,
    ) -> Result<(), String> {
        self.unlimited_search = unlimited;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let answer = Answer {
            out: self.out.clone(),
            done: done.clone(),
        };
        let out = self.out.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let last = job(&stop2, &out, &answer);
                answer.finish(&last);
            })
            .map_err(|e| format!("cannot start the search thread: {}", e))?;
        self.search = Some(Running {
            stop,
            done,
            ponder,
            start,
            handle,
        });
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
        let p = match self.pos() {
            Ok(p) => p,
            Err(e) => {
                self.out.error(&e);
                self.out.line("response none");
                return;
            }
        };
        // Where a move list played on past an automatic draw, the rules' verdict stands.
        let over = match (&self.played_through, p.status()) {
            (Some(t), _) => Some(t.result.clone()),
            (None, Status::Over(o)) => Some(result_text(&o.rewards[..p.players()])),
            (None, Status::Ongoing) => None,
        };
        let answer = match q {
            Query::GameOver => over.is_some().to_string(),
            Query::Turn(seat) => (over.is_none() && p.to_move() == seat).to_string(),
            Query::Result => over.unwrap_or_else(|| "none".into()),
        };
        self.out.line(&format!("response {}", answer));
    }
}

/// The most the engine keeps in hand for measured lag, on top of `MoveOverhead`.
const MAX_LAG_MS: u64 = 200;
/// How long past its hard limit a search may take to stop before the watchdog answers for it.
const WATCHDOG_GRACE: std::time::Duration = std::time::Duration::from_millis(10);

/// Keeps in hand how late an answer came past its hard limit (decaying by a quarter a move).
fn note_lag(lag: &AtomicU64, received: Instant, hard: Option<std::time::Duration>) {
    if let Some(hard) = hard {
        let late = received.elapsed().saturating_sub(hard).as_millis() as u64;
        let old = lag.load(Ordering::Relaxed);
        lag.store(late.max(old * 3 / 4).min(MAX_LAG_MS), Ordering::Relaxed);
    }
}

/// A job's last word: printed once, after the job is marked done; after it, nothing more of the
/// job's output is printed.
struct Answer {
    out: Output,
    done: Arc<AtomicBool>,
}

impl Answer {
    /// Prints a line of the job's, unless it has answered already.
    fn line(&self, s: &str) {
        self.out.write_if(|| !self.done.load(Ordering::Acquire), s);
    }
    /// Marks the job done and prints its last line, the first time only; an empty line is not
    /// printed.
    fn finish(&self, s: &str) {
        self.out.write_if(
            || {
                !self.done.swap(true, Ordering::AcqRel)
            },
            s,
        );
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
movestogo p1time..p4time p1inc..p4inc movetime depth nodes mate searchmoves ponder infinite] | \
ponderhit | stop | quit | d | moves | \
perft <depth> | eval | query gameover|p1turn..p4turn|result | help; see protocol.md";

/// Runs the protocol on stdin/stdout.
pub fn run_stdio(game: Option<&str>) -> Result<(), String> {
    let mut engine = Engine::new(Output::stdout(), game)?;
    let stdin = std::io::stdin();
    engine.run(stdin.lock());
    Ok(())
}
