//! The players of a match: external engines spoken to through the protocol (UCI or UGI), and
//! the built-in players (`builtin:random`, `builtin:mcts`, `builtin:alphabeta`,
//! `builtin:baseline`). An external engine's stdout is read on its own thread into a channel,
//! and every wait has a timeout, so an engine that hangs, crashes or prints garbage can only lose
//! its game, never stall or crash the arena.

use crate::game::{rng_from_seed, GameRng};
use crate::games::AnyGame;
use crate::protocol::options;
use crate::search::{time, Algorithm, BestSoFar, Control, Limits, Memory, Score, SearchParams};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Memory (MiB) of a built-in search unless `option.Hash` says otherwise.
pub const BUILTIN_HASH_MB: usize = 8;

/// `MoveOverhead` (ms) of a built-in search unless `option.MoveOverhead` says otherwise.
pub const BUILTIN_MOVE_OVERHEAD_MS: u64 = 5;

/// Which handshake to use with an external engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Ugi,
}

impl Proto {
    pub fn word(self) -> &'static str {
        match self {
            Proto::Uci => "uci",
            Proto::Ugi => "ugi",
        }
    }
}

/// A built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    /// Uniformly random legal moves.
    Random,
    /// The engine's MCTS (ISMCTS for hidden information).
    Mcts,
    /// The engine's alpha-beta (MCTS where alpha-beta does not apply).
    AlphaBeta,
    /// The game's rule-based baseline player (games that have one).
    Baseline,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    External { program: String, args: Vec<String> },
    Builtin(BuiltinKind),
}

/// One `--engine` argument, parsed.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Shown in the table and recorded in the game file.
    pub name: String,
    /// Whether `name=` gave the name (kept as given; an engine named after its command is the
    /// one renamed when two names meet).
    pub named: bool,
    pub kind: EngineKind,
    /// `option.Name=Value` tokens: `setoption` lines (or search parameters for a built-in).
    pub options: Vec<(String, String)>,
    /// `proto=uci|ugi`; None = the match's default.
    pub proto: Option<Proto>,
    /// `tc=BASE+INC`: this engine's own clock (base, increment in ms); None = the match's.
    pub tc: Option<(u64, u64)>,
    /// `nodes=N`: this engine's own node limit per move, in place of `--nodes`.
    pub nodes: Option<u64>,
}

/// Splits a command line into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (outside single quotes).
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                cur.push(chars.next().ok_or("a trailing backslash")?);
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{}'", s));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

impl EngineSpec {
    /// Parses `builtin:mcts option.Threads=1`, `./quatre option.Threads=1 name=new proto=ugi`, ….
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let words = split_words(text).map_err(|e| format!("--engine '{}': {}", text, e))?;
        let mut options = Vec::new();
        let mut name = None;
        let mut proto = None;
        let mut tc = None;
        let mut nodes = None;
        let mut rest = Vec::new();
        for w in words {
            if let Some(o) = w.strip_prefix("option.") {
                let (k, v) = o.split_once('=').ok_or_else(|| {
                    format!("--engine '{}': '{}' should be option.Name=Value", text, w)
                })?;
                if k.trim().is_empty() {
                    return Err(format!("--engine '{}': empty option name in '{}'", text, w));
                }
                options.push((k.trim().to_string(), v.trim().to_string()));
            } else if let Some(n) = w.strip_prefix("name=") {
                name = Some(n.to_string());
            } else if let Some(n) = w.strip_prefix("nodes=") {
                nodes = Some(n.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!(
                        "--engine '{}': nodes= takes a number of nodes from 1, not '{}'",
                        text, n
                    )
                })?);
            } else if let Some(t) = w.strip_prefix("tc=") {
                tc =
                    Some(super::referee::TimeControl::parse_tc(t).map_err(|e| {
                        format!("--engine '{}': {}", text, e.replace("--tc", "tc="))
                    })?);
            } else if let Some(p) = w.strip_prefix("proto=") {
                proto = Some(match p.to_ascii_lowercase().as_str() {
                    "uci" => Proto::Uci,
                    "ugi" => Proto::Ugi,
                    _ => {
                        return Err(format!(
                            "--engine '{}': proto is uci or ugi, not '{}'",
                            text, p
                        ))
                    }
                });
            } else {
                rest.push(w);
            }
        }
        let Some(first) = rest.first().cloned() else {
            return Err(format!("--engine '{}': no command or builtin player", text));
        };
        let kind = if let Some(b) = first.strip_prefix("builtin:") {
            if rest.len() > 1 {
                return Err(format!(
                    "--engine '{}': a builtin player takes only option.X=Y, name=, tc=, nodes= and proto= tokens, not '{}'",
                    text,
                    rest[1..].join(" ")
                ));
            }
            EngineKind::Builtin(match b.to_ascii_lowercase().as_str() {
                "random" => BuiltinKind::Random,
                "mcts" => BuiltinKind::Mcts,
                "alphabeta" | "ab" => BuiltinKind::AlphaBeta,
                "baseline" => BuiltinKind::Baseline,
                _ => {
                    return Err(format!(
                        "unknown builtin player '{}' (builtin:random, builtin:mcts, builtin:alphabeta, builtin:baseline)",
                        first
                    ))
                }
            })
        } else {
            EngineKind::External {
                program: first.clone(),
                args: rest[1..].to_vec(),
            }
        };
        let named = name.is_some();
        let name = name.unwrap_or_else(|| match &kind {
            EngineKind::Builtin(_) => first.to_ascii_lowercase(),
            EngineKind::External { program, .. } => std::path::Path::new(program)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.clone()),
        });
        let spec = EngineSpec {
            name,
            named,
            kind,
            options,
            proto,
            tc,
            nodes,
        };
        if let EngineKind::Builtin(_) = spec.kind {
            spec.builtin_params()?;
        }
        Ok(spec)
    }

    /// The search parameters of a built-in player: the engine defaults with one thread, then
    /// the `option.` tokens. Also says whether a Seed was given.
    pub fn builtin_params(&self) -> Result<(SearchParams, bool), String> {
        let mut params = SearchParams::default();
        let specs = options::engine_specs();
        // One thread and a small tree by default: several games may run at once, and the
        // engine's tree is allocated (and its time counted) at every move.
        params.threads = 1;
        params.hash_mb = BUILTIN_HASH_MB;
        // No pipe between the referee and a built-in player.
        params.move_overhead_ms = BUILTIN_MOVE_OVERHEAD_MS;
        params.algorithm = match self.kind {
            EngineKind::Builtin(BuiltinKind::AlphaBeta) => Algorithm::AlphaBeta,
            _ => Algorithm::Mcts,
        };
        let mut seed_given = false;
        for (k, v) in &self.options {
            let spec = specs
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(k))
                .ok_or_else(|| {
                    format!(
                        "{}: unknown option '{}' for a builtin player (options: {})",
                        self.name,
                        k,
                        specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                    )
                })?;
            // As `setoption`: checked, and a file option (`EvalFile`) loaded.
            options::set(&mut params, spec.name, v).map_err(|e| format!("{}: {}", self.name, e))?;
            if spec.name.eq_ignore_ascii_case("Seed") {
                seed_given = true;
            }
        }
        Ok((params, seed_given))
    }

    /// For a built-in player that searches (`builtin:mcts`, `builtin:alphabeta`): refuses a
    /// game `g` (its game, rule set and seats) where its `option.Eval=net` or
    /// `option.Policy=net` has no net or policy that fits, which its searches would quietly
    /// replace by the hand evaluation (or order). Other players: nothing to check.
    pub fn check_game(&self, g: &dyn AnyGame) -> Result<(), String> {
        match self.kind {
            EngineKind::Builtin(BuiltinKind::Mcts | BuiltinKind::AlphaBeta) => {
                let (params, _) = self.builtin_params()?;
                g.check_learned(&params)
                    .map_err(|e| format!("{}: {}", self.name, e))
            }
            _ => Ok(()),
        }
    }
}

/// Why a player failed (the referee turns these into a lost game).
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The engine did not answer in time and not even after `stop` (it hangs).
    NoAnswer(String),
    /// The process exited or its input pipe broke.
    Crash(String),
    /// The program could not be run at all (not found, not executable): every game would fail
    /// the same way, so the match stops.
    CannotStart(String),
}

/// What the referee tells the player to move in.
pub struct Request<'a> {
    /// The `position …` line for an external engine.
    pub position: String,
    /// The `go …` line for an external engine.
    pub go: String,
    /// The same limits, for a built-in player.
    pub limits: Limits,
    /// The position as this seat may see it (its observation in hidden-information games).
    pub state: &'a dyn AnyGame,
    /// How long to wait for `bestmove` before sending `stop` (the clock plus the margin).
    pub wait: Duration,
    /// How long to wait after `stop` before the engine counts as hanging.
    pub grace: Duration,
}

/// A move and the time it took (from the end of the `go` line to the `bestmove` line).
#[derive(Clone, Debug)]
pub struct Answer {
    pub mv: String,
    pub elapsed: Duration,
    /// The engine's last score for its move (centipawns from its view; mates as
    /// ±`adjudicate::MATE_CP`), None when it gave none.
    pub score: Option<i32>,
}

/// What a player needs to know before the game starts.
pub struct Setup<'a> {
    pub game: &'a str,
    /// Rule options given with `--option`, sent to every engine.
    pub rule_options: &'a [(String, String)],
    /// The handshake used when the engine spec does not say.
    pub proto: Proto,
    /// Seed for built-in players' randomness (derived from the match seed, game and seat).
    pub seed: u64,
    /// Time allowed for each handshake step.
    pub handshake_timeout: Duration,
    /// Prefix of log lines (`--verbose`), e.g. `g12 p1 quatre`.
    pub label: String,
    pub verbose: bool,
}

pub trait Player: Send {
    /// Plays `req`'s position. Err only for a fault (no answer at all, crash).
    fn go(&mut self, req: &Request) -> Result<Answer, Fault>;
    /// Ends the player (quit, then kill an external engine). Idempotent.
    fn finish(&mut self);
    /// Whether the player knows the game: an external engine that declared no `Game` option
    /// in its handshake (a chess engine) does not, and is asked only for moves it can read.
    fn knows_game(&self) -> bool {
        true
    }
    /// Whether the player can play the game `state` is a position of as asked (see
    /// [`EngineSpec::check_game`]): a built-in player whose `Eval net` or `Policy net` has
    /// nothing that fits says why; an external engine answers for itself.
    fn check_game(&self, _state: &dyn AnyGame) -> Result<(), String> {
        Ok(())
    }
    /// Sets rule options after the handshake (the game's rules once every seat is known: see
    /// `GameDef::for_foreign_engines`). A built-in player plays the referee's state and needs
    /// nothing.
    fn set_rule_options(&mut self, _options: &[(String, String)]) -> Result<(), Fault> {
        Ok(())
    }
    /// Forgets what earlier searches left behind (an external engine gets `ucinewgame` or
    /// `uginewgame` and answers `isready` within `timeout`; a built-in player drops its tables),
    /// so that one player can search many games and give each the answers a fresh one would.
    fn new_game(&mut self, _timeout: Duration) -> Result<(), Fault> {
        Ok(())
    }
}

/// Starts the player described by `spec` and gets it ready for a game.
pub fn start(spec: &EngineSpec, setup: &Setup) -> Result<Box<dyn Player>, Fault> {
    match &spec.kind {
        EngineKind::Builtin(kind) => {
            let (mut params, seed_given) = spec
                .builtin_params()
                .map_err(|e| Fault::Crash(format!("bad options: {}", e)))?;
            if !seed_given {
                params.seed = setup.seed;
            }
            // Alpha-beta (or Best-Reply Search) where the game has no hidden cards.
            let hidden = crate::games::resolve(Some(setup.game))
                .ok()
                .and_then(|e| e.start(&e.default_options(), None).ok())
                .is_some_and(|g| g.hidden_information());
            let b = Builtin {
                kind: *kind,
                params,
                rng: rng_from_seed(setup.seed),
                memory: Arc::default(),
                ending: None,
                uses_table: *kind == BuiltinKind::AlphaBeta && !hidden,
            };
            b.prepare_table();
            Ok(Box::new(b))
        }
        EngineKind::External { program, args } => {
            let mut e = External::spawn(program, args, setup)?;
            e.handshake(spec, setup)?;
            Ok(Box::new(e))
        }
    }
}

// --- built-in players ------------------------------------------------------------------------

struct Builtin {
    kind: BuiltinKind,
    params: SearchParams,
    rng: GameRng,
    /// What its searches keep from one move to the next (one player per game).
    memory: Arc<Memory>,
    /// A search the watchdog answered for, still ending: the next move (or the end of the game)
    /// waits for it.
    ending: Option<JoinHandle<()>>,
    /// Whether its searches keep a table (alpha-beta, Best-Reply Search), made ready before
    /// each game rather than on its first move's clock.
    uses_table: bool,
}

/// What a built-in's search thread hands back: when it had its move, the move and its score.
type Found = (Instant, Option<String>, Option<i32>);

impl Builtin {
    fn prepare_table(&self) {
        if self.uses_table {
            crate::search::tt::prepare(&self.memory, self.params.hash_mb, self.params.threads);
        }
    }

    /// Waits for a search the watchdog answered for to end.
    fn join_ending(&mut self) {
        if let Some(h) = self.ending.take() {
            let _ = h.join();
        }
    }

    /// Searches on a thread of its own, watched as the protocol's engine watches its searches:
    /// 2 ms before the hard limit (or at the referee's wait, when no clock bounds the search)
    /// the best move so far is the answer, and the search, told to stop, ends on its own.
    /// Times count from `t0`, when the referee asked, as an external engine's do.
    fn search(&mut self, req: &Request, t0: Instant) -> Result<Found, Fault> {
        let stop = Arc::new(AtomicBool::new(false));
        let best = Arc::new(BestSoFar::default());
        let (tx, rx) = mpsc::channel();
        let state = req.state.clone_box();
        // The search's own hard limit (Context::new computes the same budget), less the lead
        // the watchdog keeps for delivering the answer.
        let hard = time::budget_of(&self.params, &req.limits, state.to_move(), 0)
            .hard
            .map(time::watchdog_at);
        let deadline = t0 + hard.map_or(req.wait, |h| h.min(req.wait));
        let (params, limits) = (self.params.clone(), req.limits.clone());
        let (memory, stop2, best2) = (self.memory.clone(), stop.clone(), best.clone());
        let handle = std::thread::Builder::new()
            .name("builtin search".into())
            .spawn(move || {
                let control = Control {
                    start: t0,
                    best: Some(&best2),
                    memory: Some(&memory),
                    ..Control::new(&stop2)
                };
                let r = state.search_controlled(&params, &limits, control, &|_| {});
                let score =
                    r.report
                        .as_ref()
                        .and_then(|r| r.lines.first())
                        .map(|l| match l.score {
                            Score::Cp(c) => c,
                            Score::Mate(m) if m > 0 => super::adjudicate::MATE_CP - m,
                            Score::Mate(m) => -super::adjudicate::MATE_CP - m,
                        });
                let _ = tx.send((Instant::now(), r.best, score));
            })
            .map_err(|e| Fault::Crash(format!("cannot start its search thread: {}", e)))?;
        match time::watch(&rx, || Some(deadline), false, &stop) {
            time::Watched::Done(found) => {
                self.ending = Some(handle);
                Ok(found)
            }
            time::Watched::Late => {
                self.ending = Some(handle);
                let mv = best
                    .get()
                    .or_else(|| req.state.legal_moves().into_iter().next());
                Ok((Instant::now(), mv, None))
            }
            // Its panic message is on stderr (the default panic hook).
            time::Watched::Gone => {
                let _ = handle.join();
                Err(Fault::Crash("internal error: its search panicked".into()))
            }
        }
    }
}

impl Player for Builtin {
    fn go(&mut self, req: &Request) -> Result<Answer, Fault> {
        let t0 = Instant::now();
        // The last search's end counts in this move's time, as the protocol's engine's would.
        self.join_ending();
        let (end, mv, score) = match self.kind {
            BuiltinKind::Random => (Instant::now(), req.state.random_move(&mut self.rng), None),
            BuiltinKind::Baseline => (Instant::now(), req.state.baseline_move(&mut self.rng), None),
            BuiltinKind::Mcts | BuiltinKind::AlphaBeta => self.search(req, t0)?,
        };
        Ok(Answer {
            // No move in an ongoing game: answer what an engine would, which the referee
            // rejects as illegal.
            mv: mv.unwrap_or_else(|| "0000".into()),
            // Until the move was found, as an external engine's until its `bestmove` line was
            // read: not the end of the search thread, which may still free its tables.
            elapsed: end.saturating_duration_since(t0),
            score,
        })
    }
    fn finish(&mut self) {
        self.join_ending();
    }
    fn check_game(&self, state: &dyn AnyGame) -> Result<(), String> {
        match self.kind {
            BuiltinKind::Mcts | BuiltinKind::AlphaBeta => state.check_learned(&self.params),
            BuiltinKind::Random | BuiltinKind::Baseline => Ok(()),
        }
    }
    fn new_game(&mut self, _timeout: Duration) -> Result<(), Fault> {
        self.join_ending();
        self.memory = Arc::default();
        self.prepare_table();
        Ok(())
    }
}

// --- external engines ------------------------------------------------------------------------

/// The name an `option name <name> type …` line declares (it may hold spaces: `Skill Level`).
fn option_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("option") || !words.next()?.eq_ignore_ascii_case("name")
    {
        return None;
    }
    let name: Vec<&str> = words
        .take_while(|w| !w.eq_ignore_ascii_case("type"))
        .collect();
    (!name.is_empty()).then(|| name.join(" "))
}

/// The values a `type combo` option line offers (its `var` words), None for another type.
fn combo_vars(line: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ty = words.iter().position(|w| w.eq_ignore_ascii_case("type"))?;
    if !words.get(ty + 1)?.eq_ignore_ascii_case("combo") {
        return None;
    }
    Some(
        words
            .windows(2)
            .filter(|w| w[0].eq_ignore_ascii_case("var"))
            .map(|w| w[1].to_string())
            .collect(),
    )
}

enum Msg {
    Line(Instant, String),
    Eof,
}

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 1 << 20;

struct External {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Msg>,
    label: String,
    verbose: bool,
    finished: bool,
    /// The engine's stdout is closed (it exited).
    eof: bool,
    /// It declared a `Game` option between `uci` and `uciok`.
    declares_game: bool,
    /// The games that option offers, when it is a combo (`var` words).
    game_vars: Option<Vec<String>>,
    /// The handshake it was started with.
    proto: Proto,
}

impl External {
    fn spawn(program: &str, args: &[String], setup: &Setup) -> Result<External, Fault> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if setup.verbose {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| Fault::CannotStart(format!("cannot start '{}': {}", program, e)))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        // Detached: it ends at the engine's EOF (when the process and any children it left
        // behind are gone); the arena never waits for it.
        std::thread::Builder::new()
            .name(format!("read {}", setup.label))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Msg::Eof);
                            return;
                        }
                        Ok(_) => {
                            let t = Instant::now();
                            if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                                // Skip the rest of an over-long line.
                                let mut sink = Vec::new();
                                let _ = r.read_until(b'\n', &mut sink);
                            }
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            if tx.send(Msg::Line(t, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| Fault::Crash(format!("cannot start a reader thread: {}", e)))?;
        Ok(External {
            child,
            stdin,
            rx,
            label: setup.label.clone(),
            verbose: setup.verbose,
            finished: false,
            eof: false,
            declares_game: false,
            game_vars: None,
            proto: setup.proto,
        })
    }

    fn log(&self, dir: &str, line: &str) {
        if self.verbose {
            // A closed stderr silences the log; it must not stop the game.
            let _ = writeln!(std::io::stderr(), "[{}] {} {}", self.label, dir, line);
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.log(">", line);
        let Some(w) = self.stdin.as_mut() else {
            return Err(Fault::Crash("its input is closed".into()));
        };
        w.write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush())
            .map_err(|e| Fault::Crash(format!("exited (writing '{}': {})", line, e)))
    }

    /// The next line, waiting until `deadline`. Ok(None) at the deadline.
    fn recv_until(&mut self, deadline: Instant) -> Result<Option<(Instant, String)>, Fault> {
        if self.eof {
            return Err(self.exited());
        }
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        match self.rx.recv_timeout(left) {
            Ok(Msg::Line(t, l)) => {
                self.log("<", &l);
                Ok(Some((t, l)))
            }
            Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Err(self.exited())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    fn exited(&mut self) -> Fault {
        // Give the process a moment to be reaped so the status can be reported.
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return Fault::Crash(format!("exited ({})", st));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Fault::Crash("closed its output".into())
    }

    /// Waits for a line whose first word is `word`, ignoring others, until `timeout`.
    fn expect(&mut self, words: &[&str], timeout: Duration, what: &str) -> Result<String, Fault> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv_until(deadline)? {
                Some((_, l)) => {
                    let first = l.split_whitespace().next().unwrap_or("");
                    if words.iter().any(|w| first.eq_ignore_ascii_case(w)) {
                        return Ok(first.to_ascii_lowercase());
                    }
                    if option_name(&l).is_some_and(|n| n.eq_ignore_ascii_case("Game")) {
                        self.declares_game = true;
                        self.game_vars = combo_vars(&l);
                    }
                }
                None => {
                    return Err(Fault::NoAnswer(format!(
                        "no {} within {} ms",
                        what,
                        timeout.as_millis()
                    )))
                }
            }
        }
    }

    fn handshake(&mut self, spec: &EngineSpec, setup: &Setup) -> Result<(), Fault> {
        let proto = spec.proto.unwrap_or(setup.proto);
        self.proto = proto;
        let t = setup.handshake_timeout;
        self.send(proto.word())?;
        self.expect(&["uciok", "ugiok"], t, &format!("{}ok", proto.word()))?;
        self.send(&format!("setoption name Game value {}", setup.game))?;
        for (k, v) in setup.rule_options.iter().chain(spec.options.iter()) {
            self.send(&format!("setoption name {} value {}", k, v))?;
        }
        self.send("isready")?;
        self.expect(&["readyok"], t, "readyok")?;
        self.new_game(t)
    }
}

impl Player for External {
    fn go(&mut self, req: &Request) -> Result<Answer, Fault> {
        // Drop what arrived between moves (late info lines and the like).
        while let Ok(m) = self.rx.try_recv() {
            match m {
                Msg::Line(_, l) => self.log("<", &l),
                Msg::Eof => {
                    self.eof = true;
                    return Err(self.exited());
                }
            }
        }
        self.send(&req.position)?;
        self.send(&req.go)?;
        let t0 = Instant::now();
        let mut deadline = t0 + req.wait;
        let mut stopped = false;
        let mut score = None;
        loop {
            match self.recv_until(deadline)? {
                Some((t, l)) => {
                    let mut words = l.split_whitespace();
                    match words.next() {
                        Some(w) if w.eq_ignore_ascii_case("bestmove") => {
                            return Ok(Answer {
                                mv: words.next().unwrap_or("").to_string(),
                                elapsed: t.saturating_duration_since(t0),
                                score,
                            })
                        }
                        Some("info") => {
                            // The first line of a MultiPV set is the best one.
                            let first_pv = !l.contains(" multipv ") || l.contains(" multipv 1 ");
                            if let (Some(s), true) = (super::adjudicate::info_score(&l), first_pv) {
                                score = Some(s);
                            }
                        }
                        None => {}
                        // Anything else is garbage: ignored (and logged with --verbose).
                        Some(_) => self.log("ignored:", &l),
                    }
                }
                None if !stopped => {
                    // Past the deadline: ask for the move; if it comes, the referee calls the
                    // time loss; if it never comes, the engine hangs.
                    stopped = true;
                    self.send("stop")?;
                    deadline = Instant::now() + req.grace;
                }
                None => {
                    return Err(Fault::NoAnswer(format!(
                        "no bestmove {} ms after go, nor {} ms after stop",
                        req.wait.as_millis(),
                        req.grace.as_millis()
                    )))
                }
            }
        }
    }

    fn knows_game(&self) -> bool {
        self.declares_game
    }
    /// An engine without a `Game` option is taken for a chess engine, which can play only a
    /// game that is chess ([`crate::game::Game::foreign_engines_play`]); one whose `Game`
    /// option is a list must list the game.
    fn check_game(&self, state: &dyn AnyGame) -> Result<(), String> {
        if !self.declares_game && !state.foreign_engines_play() {
            return Err(format!(
                "declares no Game option, so it is taken for a chess engine: it can play hyperchess with Boards=1x1, not {} with these rule options",
                state.name()
            ));
        }
        match &self.game_vars {
            Some(vars) if !vars.iter().any(|v| v.eq_ignore_ascii_case(state.name())) => {
                Err(format!(
                    "its Game option offers {}, not {}",
                    vars.join(", "),
                    state.name()
                ))
            }
            _ => Ok(()),
        }
    }
    fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(match self.proto {
            Proto::Uci => "ucinewgame",
            Proto::Ugi => "uginewgame",
        })?;
        self.send("isready")?;
        self.expect(&["readyok"], timeout, "readyok")?;
        Ok(())
    }
    fn set_rule_options(&mut self, options: &[(String, String)]) -> Result<(), Fault> {
        for (k, v) in options {
            self.send(&format!("setoption name {} value {}", k, v))?;
        }
        Ok(())
    }

    fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if !self.eof {
            let _ = self.send("quit");
        }
        self.stdin = None; // closes the pipe: EOF for engines that ignore quit
        let deadline = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_name_their_option() {
        assert_eq!(
            option_name("option name Game type combo default hyperchess var hyperchess").as_deref(),
            Some("Game")
        );
        assert_eq!(
            option_name("option name Skill Level type spin default 20 min 0 max 20").as_deref(),
            Some("Skill Level")
        );
        assert_eq!(option_name("info string option name Game"), None);
        assert_eq!(option_name("option name type spin"), None);
    }

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(
            split_words(r#"./quatre  "a b" 'c "d"' e\ f option.X=1"#).unwrap(),
            vec!["./quatre", "a b", "c \"d\"", "e f", "option.X=1"]
        );
        assert!(split_words("\"open").is_err());
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn engine_specs_parse() {
        let s = EngineSpec::parse("builtin:mcts option.Threads=1 option.Seed=3").unwrap();
        assert_eq!(s.kind, EngineKind::Builtin(BuiltinKind::Mcts));
        assert_eq!(s.name, "builtin:mcts");
        let (p, seeded) = s.builtin_params().unwrap();
        assert_eq!((p.threads, p.seed, seeded), (1, 3, true));
        let s = EngineSpec::parse("/usr/bin/quatre --game nim option.Threads=2 name=new proto=ugi")
            .unwrap();
        assert_eq!(s.name, "new");
        assert_eq!(s.proto, Some(Proto::Ugi));
        assert_eq!(s.options, vec![("Threads".to_string(), "2".to_string())]);
        assert_eq!(
            s.kind,
            EngineKind::External {
                program: "/usr/bin/quatre".into(),
                args: vec!["--game".into(), "nim".into()]
            }
        );
        assert_eq!(
            EngineSpec::parse("./x/engine.sh").unwrap().name,
            "engine.sh"
        );
        assert!(EngineSpec::parse("builtin:nothing").is_err());
        assert!(EngineSpec::parse("builtin:mcts option.Frob=1").is_err());
        // A net file is loaded as `setoption` loads it (before, a built-in player kept
        // `Eval=net` without its `EvalFile` and searched by hand), and a missing one refused.
        let dir = std::env::temp_dir().join(format!("quatre-builtin-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("n.net");
        let net = crate::learn::net::FloatNet::new(925, 4, 1, 30.0, 1).quantize(
            "hyperchess",
            "hyperchess-1x1/3",
            100.0,
            String::new(),
        );
        std::fs::write(&path, net.to_bytes()).unwrap();
        let s = EngineSpec::parse(&format!(
            "builtin:alphabeta option.Eval=net option.EvalFile={}",
            path.display()
        ))
        .unwrap();
        let (p, _) = s.builtin_params().unwrap();
        assert_eq!(p.eval, crate::search::params::EvalChoice::Net);
        assert_eq!(p.eval_file.as_deref(), Some(&net));
        let e =
            EngineSpec::parse("builtin:alphabeta option.EvalFile=/nonexistent/n.net").unwrap_err();
        assert!(e.contains("EvalFile") && e.contains("cannot read"), "{}", e);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(EngineSpec::parse("builtin:mcts option.Threads=0").is_err());
        assert!(EngineSpec::parse("option.Threads=1").is_err());
        assert!(EngineSpec::parse("x proto=xboard").is_err());
        assert_eq!(
            EngineSpec::parse("builtin:alphabeta")
                .unwrap()
                .builtin_params()
                .unwrap()
                .0
                .algorithm,
            Algorithm::AlphaBeta
        );
    }
}
