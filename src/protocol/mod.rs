//! The protocol loop: reads lines, keeps the session (options, current position), runs searches
//! on their own thread so that `isready` and `stop` are answered at once, and prints every error
//! as one `info string error: …` line while keeping the last good state. A `go` (or `perft`)
//! sent during a search waits for it to end, and so does every command sent after it, so that
//! no command is lost or applied out of order (see [`Engine::handle_line`]).

pub mod command;
mod go;
pub mod info;
pub mod options;

use crate::game::{RuleOptions, Status};
use crate::games::{self, AnyGame, Entry};
use crate::search::{self, SearchParams};
use command::{Command, PositionSpec, Query};
use go::Running;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{self, Sender};
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
    /// One `info string error:` line: control characters (a line break among them) shown as
    /// `\u{…}` escapes or spaces, and the whole cut to [`ERROR_MAX_CHARS`] characters, so that
    /// whatever the client sent, the error it reads back is one short line of plain text.
    pub fn error(&self, s: &str) {
        self.line(&format!("info string error: {}", error_text(s)));
    }
}

/// The longest error text an `info string error:` line carries (the rest becomes `…`).
pub const ERROR_MAX_CHARS: usize = 400;

/// [`Output::error`]'s text: line breaks and tabs as spaces, other control characters escaped,
/// cut to [`ERROR_MAX_CHARS`] characters.
pub(crate) fn error_text(s: &str) -> String {
    let mut out = String::new();
    for c in crate::truncate_to(s, ERROR_MAX_CHARS).chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// Where a client's move list played on past a draw the rules declare by themselves.
#[derive(Clone, Debug)]
pub struct PlayedThrough {
    /// The draw's name ("threefold repetition", "fifty-move rule", "MaxPlies").
    pub reason: &'static str,
    /// How many moves of the list had been played when it arose.
    pub after: usize,
    /// The rules' result there (`draw`).
    pub result: String,
}

/// Plays a client's move list on `pos`, following the draws the rules declare by themselves
/// (a chess GUI plays on after a repetition or the 100-ply rule; every rule in force at a
/// move, once per draw). A refused move is an error naming its place in the list. Where the
/// list passed such draws: the first, and one line for them all (without `info string `),
/// however long a GUI's shuffle. `quatre analyse`, `perft` and `draw` play `--moves` the same
/// way. `lister` names the caller's way to list the legal moves, said after a refused move.
pub fn play_list(
    pos: &mut dyn AnyGame,
    moves: &[impl AsRef<str>],
    lister: &str,
) -> Result<Option<(PlayedThrough, String)>, String> {
    let mut through = None;
    // The draws passed after the first: how many, after which move the last, and by which
    // rules.
    let mut later = (0, 0);
    let mut later_rules: Vec<&str> = Vec::new();
    // Other rules that drew at the first draw's move.
    let mut same_move: Vec<&str> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        if let Status::Over(o) = pos.status() {
            // A draw the rules declare by themselves is a claim for a chess GUI, which
            // plays on: follow it (once per draw, every rule in force here: one move may
            // reach the 100-ply rule and a repetition).
            while let Some(reason) = pos.play_through_draw() {
                if through.is_none() {
                    through = Some(PlayedThrough {
                        reason,
                        after: i,
                        result: result_text(&o.rewards[..pos.players()]),
                    });
                } else if through.as_ref().is_some_and(|t| t.after == i) {
                    // Two rules at the first draw's move: both are named there.
                    same_move.push(reason);
                } else {
                    later = (later.0 + 1, i);
                    if !later_rules.contains(&reason) {
                        later_rules.push(reason);
                    }
                }
            }
        }
        if let Err(e) = pos.play_text(m.as_ref()) {
            // In a game still going on, where the legal moves are listed.
            let hint = match pos.status() {
                Status::Ongoing => format!("; {} lists the legal moves", lister),
                Status::Over(_) => String::new(),
            };
            return Err(format!("move {} of the list: {}{}", i + 1, e, hint));
        }
    }
    let Some(t) = through else { return Ok(None) };
    let rules = later_rules.join(", ");
    let more = match later {
        (0, _) => String::new(),
        (1, k) => format!(
            "; one more draw by the rules later in the list ({}), after move {}",
            rules, k
        ),
        (n, k) => format!(
            "; {} more draws by the rules later in the list ({}), the last after move {}",
            n, rules, k
        ),
    };
    let first: Vec<&str> = std::iter::once(t.reason).chain(same_move).collect();
    let note = format!(
        "the rules drew this game after move {} of the list ({}); playing on as sent{}",
        t.after,
        first.join(" and "),
        more
    );
    Ok(Some((t, note)))
}

/// What the session loop waits for: a line of input, its end, or the end of a search (which may
/// let commands that waited for it run).
enum Wake {
    /// A line, and when it was read: a `go`'s time counts from there.
    Line(String, Instant),
    End,
    ReadError(String),
    SearchEnded,
}

/// A command that arrived while it could not run yet (see [`Engine::handle_line`]).
struct Deferred {
    command: Command,
    line: String,
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
    /// Emptied by replacing it, so that a search still running keeps what it holds to itself.
    memory: Arc<search::Memory>,
    /// Commands waiting for the running search to end, in the order they came.
    waiting: VecDeque<Deferred>,
    /// Told when a search ends, so that the commands waiting for it run at once.
    wake: Option<Sender<Wake>>,
    /// The session began with `ugi`: `bestmove` is two words, never with a `ponder` move.
    ugi: bool,
    /// `debug on`: extra `info string debug: …` lines.
    debug: bool,
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
            waiting: VecDeque::new(),
            wake: None,
            ugi: false,
            debug: false,
        })
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Reads commands until `quit` or the end of input (which also waits for a running search to
    /// print its `bestmove`, and runs the commands that waited for it).
    pub fn run<R: BufRead + Send + 'static>(&mut self, input: R) {
        // The session and its input reader answer `stop`, `isready` and (as a search's
        // watchdog) the hard limit: on a busy machine they must not wait for a CPU.
        search::time::prompt_wakeups(true);
        let (tx, rx) = mpsc::channel();
        let reader = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("input".into())
            .spawn(move || read_lines(input, &reader));
        if let Err(e) = spawned {
            self.out
                .error(&format!("cannot start the input thread: {}", e));
            return;
        }
        self.wake = Some(tx);
        for w in rx.iter() {
            match w {
                Wake::Line(l, read) => {
                    if !self.handle_line_read_at(&l, read) {
                        return;
                    }
                }
                Wake::SearchEnded => self.resume(),
                Wake::ReadError(e) => {
                    self.out.error(&format!("cannot read input: {}", e));
                    break;
                }
                Wake::End => break,
            }
        }
        self.wake = None;
        // End of input: a search with a limit finishes and answers (so `echo "go movetime 500" |
        // quatre` works); one without a limit (or still pondering) would never end, so it is
        // stopped; then the commands that waited run, each search in turn.
        loop {
            if self.unlimited_search || self.pondering() {
                self.stop_search();
            }
            self.wait_search();
            if self.waiting.is_empty() {
                break;
            }
            self.run_waiting();
        }
    }

    /// Handles one line; returns false on `quit`.
    ///
    /// `isready`, `stop`, `ponderhit`, `uci`/`ugi`, `debug` and `help` are answered at once,
    /// also during a search. Any other command runs at once too (a `position`, `setoption` or
    /// `ucinewgame` during a search applies to the next one; the running search keeps its own
    /// position and options), except a `go` or `perft` during a search: it waits for the search
    /// to end (as in Stockfish), and every command after it waits behind it, so that each runs
    /// in the order sent. A `stop` also stops the searches waiting when it came.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.handle_line_read_at(line, Instant::now())
    }

    /// [`handle_line`](Self::handle_line) for a line read at `received`: a `go`'s time limits
    /// count from there, not from when the session loop got to it (a busy machine may keep the
    /// loop waiting for a CPU after the input thread has read the line).
    pub fn handle_line_read_at(&mut self, line: &str, received: Instant) -> bool {
        self.resume();
        // A UGI runner waits for the `response` of any query it sends: an unknown or malformed
        // one gets one too, as a query without a position does, and in its turn, after the
        // commands sent before it (a runner pairs responses with queries in order).
        let parsed = command::parse(line).or_else(|e| {
            let first = line.split_whitespace().next().unwrap_or("");
            if first.eq_ignore_ascii_case("query") {
                Ok(Command::BadQuery(e))
            } else {
                Err(e)
            }
        });
        match parsed {
            Err(e) => self.out.error(&e),
            Ok(Command::Quit) => {
                self.waiting.clear();
                self.stop_search();
                return false;
            }
            Ok(c) => {
                if self.must_wait(&c) {
                    if self.debug {
                        self.out.line(&format!(
                            "info string debug: '{}' waits for the running search",
                            line.trim()
                        ));
                    }
                    self.waiting.push_back(Deferred {
                        command: c,
                        line: line.to_string(),
                    });
                } else {
                    if matches!(c, Command::Stop) && !self.waiting.is_empty() {
                        // The searches waiting were sent before this `stop`: it ends them too.
                        self.waiting.push_back(Deferred {
                            command: Command::Stop,
                            line: line.to_string(),
                        });
                    }
                    self.run_command(c, received, line);
                }
            }
        }
        true
    }

    /// Whether `c` must wait for the running search (see [`handle_line`](Self::handle_line)).
    fn must_wait(&self, c: &Command) -> bool {
        match c {
            Command::IsReady
            | Command::Stop
            | Command::Quit
            | Command::Uci
            | Command::Ugi
            | Command::Debug(_)
            | Command::Help
            | Command::Nothing => false,
            // To the search pondering now, or else to the `go ponder` waiting.
            Command::PonderHit => !self.pondering() && !self.waiting.is_empty(),
            Command::Go { .. } | Command::Perft { .. } => {
                self.searching() || !self.waiting.is_empty()
            }
            _ => !self.waiting.is_empty(),
        }
    }

    /// Once the running search has ended: runs the commands that waited for it.
    fn resume(&mut self) {
        self.reap_search();
        self.run_waiting();
    }

    /// Runs the waiting commands in order, up to one that must wait for a search again.
    fn run_waiting(&mut self) {
        while let Some(d) = self.waiting.front() {
            let job = matches!(d.command, Command::Go { .. } | Command::Perft { .. });
            if job && self.searching() {
                return;
            }
            let Some(d) = self.waiting.pop_front() else {
                return;
            };
            // A waiting search's clock starts when it starts.
            self.run_command(d.command, Instant::now(), &d.line);
        }
    }

    /// Runs one command now; a bug in a ruleset must not take the engine down: it is reported
    /// and the session carries on.
    fn run_command(&mut self, c: Command, received: Instant, line: &str) {
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.execute(c, received)));
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
        self.forget();
    }

    /// Readies the table the next search will use, when it is alpha-beta or Best-Reply Search
    /// and none is running (during a search `isready` is answered at once and nothing is made).
    fn prepare_table(&self) {
        // Also while a search answered for (by `stop` or the watchdog) is still ending: its
        // thread may hold the kept table, which it puts back when it ends.
        if self.search_thread_alive() {
            return;
        }
        let Ok(pos) = self.pos() else { return };
        let chosen = search::Chosen::of(
            self.params.algorithm,
            pos.players(),
            pos.hidden_information(),
        );
        if matches!(chosen, search::Chosen::AlphaBeta | search::Chosen::Brs) {
            search::tt::prepare(&self.memory, self.params.hash_mb, self.params.threads);
        }
    }

    /// Empties what the searches keep from one to the next. A search still running keeps what
    /// it holds (and drops it when it ends): the next search starts afresh either way.
    fn forget(&mut self) {
        self.memory.clear();
        self.memory = Arc::default();
    }

    fn execute(&mut self, c: Command, received: Instant) -> Result<(), String> {
        match c {
            Command::Nothing => {}
            Command::PonderHit => self.ponderhit()?,
            Command::Uci => {
                self.ugi = false;
                self.identify("uciok");
            }
            Command::Ugi => {
                self.ugi = true;
                self.identify("ugiok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.prepare_table();
                self.out.line("readyok")
            }
            Command::NewGame => {
                self.restart();
                self.prepare_table();
            }
            Command::SetOption { name, value } => self.set_option(&name, &value)?,
            Command::Position { spec, moves } => self.position(spec, &moves)?,
            Command::Go {
                limits,
                mut warnings,
            } => {
                // Clocks the position has no use for: a seat the game lacks, or none for the
                // seat to move.
                if let Ok(p) = self.pos() {
                    warnings.extend(go::clock_warnings(&limits, p));
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
                let e = self.pos()?.static_eval(&self.params);
                let line = match &e.net {
                    Some(Ok((v, set))) => format!(
                        "info string eval {} cp for p{} (static evaluation, net {}; hand {} cp)",
                        v,
                        e.seat + 1,
                        set,
                        e.hand
                    ),
                    _ => format!(
                        "info string eval {} cp for p{} (static evaluation, hand)",
                        e.hand,
                        e.seat + 1
                    ),
                };
                if let Some(Err(why)) = &e.net {
                    self.out
                        .error(&format!("Eval net: {}; evaluating by hand", why));
                }
                if let Some(note) = &e.note {
                    self.out.line(&format!("info string {}", note));
                }
                self.out.line(&line);
            }
            Command::Query(q) => self.query(q),
            Command::BadQuery(e) => {
                self.out.error(&e);
                self.out.line("response none");
            }
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
        let position = self.pos()?.clone_box();
        self.spawn_job(false, None, received, None, move |stop, out, _| {
            // It computes, like a search: the default slices of CPU time.
            search::time::prompt_wakeups(false);
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
                self.forget();
            }
            return Ok(());
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            // Empties alpha-beta's kept table (MCTS starts every search afresh anyway).
            self.forget();
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
            // GAME_DEFAULT (-1) restores each game's own default, where the list offers it.
            opts.set_given(name, value).map_err(|err| {
                // A spin option that games share with different defaults is listed with
                // min -1 (each game's own default): the error says so, beside the bounds.
                if options::takes_game_default(name) {
                    format!(
                        "{} (game {}; {} restores each game's own default)",
                        err,
                        e.name,
                        options::GAME_DEFAULT
                    )
                } else {
                    format!("{} (game {})", err, e.name)
                }
            })?;
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
            PositionSpec::Refused(why) => return Err(why),
            PositionSpec::Start { seed } => self.game.start(&opts, seed)?,
            PositionSpec::Text(t) => self
                .game
                .from_text(&t, &opts)
                .map_err(|e| format!("bad position: {}", e))?,
        };
        let through = play_list(pos.as_mut(), moves, "'moves'")?;
        if let Some((_, note)) = &through {
            self.out.line(&format!("info string {}", note));
        }
        Ok((pos, through.map(|(t, _)| t)))
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

/// The input thread: each line (lossily decoded, without its line ending), then the end.
fn read_lines<R: BufRead>(mut input: R, to: &Sender<Wake>) {
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let w = match input.read_until(b'\n', &mut raw) {
            Ok(0) => Wake::End,
            Ok(_) => {
                let read = Instant::now();
                let line = String::from_utf8_lossy(&raw);
                Wake::Line(line.trim_end_matches(['\n', '\r']).to_string(), read)
            }
            Err(e) => Wake::ReadError(e.to_string()),
        };
        let last = !matches!(w, Wake::Line(..));
        if to.send(w).is_err() || last {
            return;
        }
    }
}

const HELP: &str =
    "commands: uci | ugi | isready | debug on|off | ucinewgame | setoption name <n> value <v> | \
position startpos [seed <n>] [moves …] | position fen <text> [moves …] | go [wtime btime winc binc \
movestogo p1time..p4time p1inc..p4inc movetime depth nodes mate searchmoves ponder infinite] | \
ponderhit | stop | quit | d | moves | \
perft <depth> | eval | query gameover|p1turn..p4turn|result | help; see protocol.md";

/// Runs the protocol on stdin/stdout.
pub fn run_stdio(game: Option<&str>) -> Result<(), String> {
    let mut engine = Engine::new(Output::stdout(), game)?;
    engine.run(std::io::BufReader::new(std::io::stdin()));
    Ok(())
}
