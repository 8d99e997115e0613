//! The protocol loop: reads lines, keeps the session (options, current position), runs searches
//! on their own thread so that `isready` and `stop` are answered at once, and prints every error
//! as one `info string error: …` line while keeping the last good state.

pub mod command;
mod go;
pub mod info;
pub mod options;

use crate::game::{RuleOptions, Status};
use crate::games::{self, AnyGame, Entry};
use crate::search::{self, SearchParams};
use command::{Command, PositionSpec, Query};
use go::Running;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
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
    /// What the last search kept for the next (alpha-beta's table); see [`search::Memory`].
    memory: Arc<search::Memory>,
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
            memory: Arc::default(),
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
        if self.unlimited_search || self.pondering() {
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
        self.memory.clear();
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
            Command::Position { spec, moves } => self.position(spec, &moves)?,
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
            Command::Display => self.display()?,
            Command::Moves => {
                let m = self.pos()?.legal_moves();
                self.out.line(&if m.is_empty() {
                    "moves".to_string()
                } else {
                    format!("moves {}", m.join(" "))
                });
            }
            Command::Perft { depth } => self.perft(depth, received)?,
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

    /// `position`: a refused one leaves no position, so that no `go` answers for another one.
    fn position(&mut self, spec: PositionSpec, moves: &[String]) -> Result<(), String> {
        self.refuse_while_searching("position")?;
        self.played_through = None;
        match self.read_position(spec, moves) {
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
        Ok(())
    }

    /// `d`: the diagram, the position text, the hash and the state of the game.
    fn display(&self) -> Result<(), String> {
        let p = self.pos()?;
        let mut lines = display_lines(p);
        if let (Some(t), Some(last)) = (&self.played_through, lines.last_mut()) {
            last.push_str(&format!(
                "; the rules drew the game after move {} of the list ({}), played on as the client sent",
                t.after, t.reason
            ));
        }
        for l in &lines {
            self.out.line(l);
        }
        Ok(())
    }

    /// `perft`: on the search thread, like go: isready is answered and stop/quit end it.
    fn perft(&mut self, depth: u32, received: Instant) -> Result<(), String> {
        self.refuse_while_searching("perft")?;
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
        })
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
            let hash_mb = self.params.hash_mb;
            options::set(&mut self.params, name, value)?;
            if self.params.hash_mb != hash_mb {
                // A table of the old size is of no use to the next search: free it now, not
                // on that search's clock.
                self.memory.clear();
            }
            return Ok(());
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            // Empties alpha-beta's kept table (MCTS starts every search afresh anyway).
            self.memory.clear();
            return Ok(());
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
                // plays on: follow it (once per draw, every rule in force here: one move may
                // reach the 100-ply rule and a repetition; the first one is reported).
                while let Some(reason) = pos.play_through_draw() {
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

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// What `d` shows (also the head of `quatre analyse`): the game's diagram, then `Position: <text>`,
/// `Hash: <hex>` and `Game: <name>; p<N> to move` (or `game over: <result> (<reason>)`).
pub fn display_lines(p: &dyn AnyGame) -> Vec<String> {
    let mut lines: Vec<String> = p.display().lines().map(String::from).collect();
    lines.push(format!("Position: {}", p.to_text()));
    lines.push(format!("Hash: {:016x}", p.hash()));
    let status = match p.status() {
        Status::Ongoing => format!("p{} to move", p.to_move() + 1),
        Status::Over(o) => format!(
            "game over: {} ({})",
            result_text(&o.rewards[..p.players()]),
            o.reason
        ),
    };
    lines.push(format!("Game: {}; {}", p.name(), status));
    lines
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
