//! The referee: holds the true state of one game, gives each seat's player its position and
//! clock, checks every move for legality and time, and records the game.

use super::player::{self, EngineSpec, Fault, Proto, Request, Setup};
use crate::game::{Game, RuleOptions, Status, MAX_SEATS};
use crate::games::{AnyGame, Entry};
use crate::search::Limits;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

type StartFn = dyn Fn(&RuleOptions, Option<u64>) -> Result<Box<dyn AnyGame>, String> + Send + Sync;
type FromTextFn = dyn Fn(&str, &RuleOptions) -> Result<Box<dyn AnyGame>, String> + Send + Sync;

/// Rule options set for a game one of whose seats is an engine that does not know the game (a
/// chess engine), where the game has them: hyperchess's `Promotions=chess`, so that no pawn
/// promotes to a guard (which a chess engine cannot read) and one may promote to a rook (which
/// it may play). docs/arena.md, "Engines that do not know the game".
pub const FOREIGN_ENGINE_RULES: &[(&str, &str)] = &[("Promotions", "chess")];

/// The ruleset a match is played under, with its rule options set.
#[derive(Clone)]
pub struct GameDef {
    pub name: String,
    pub options: RuleOptions,
    /// The rule options given on the command line (`--option`), sent to every engine.
    pub given_options: Vec<(String, String)>,
    start: Arc<StartFn>,
    from_text: Arc<FromTextFn>,
}

impl GameDef {
    /// A ruleset from the registry.
    pub fn from_entry(entry: Entry) -> GameDef {
        GameDef {
            name: entry.name.to_string(),
            options: entry.default_options(),
            given_options: Vec::new(),
            start: Arc::new(move |o, s| entry.start(o, s)),
            from_text: Arc::new(move |t, o| entry.from_text(t, o)),
        }
    }

    /// Any [`Game`] type, registered or not (tests use this with small games of their own).
    pub fn of<G: Game>() -> GameDef {
        GameDef {
            name: G::NAME.to_string(),
            options: RuleOptions::of::<G>(),
            given_options: Vec::new(),
            start: Arc::new(|o, s| {
                let g = match s {
                    Some(seed) => G::start_with_seed(o, seed)?,
                    None => G::start(o)?,
                };
                Ok(Box::new(g) as Box<dyn AnyGame>)
            }),
            from_text: Arc::new(|t, o| Ok(Box::new(G::from_text(t, o)?) as Box<dyn AnyGame>)),
        }
    }

    /// Sets a rule option (`Name=Value` from `--option`; −1 restores the game's default, as
    /// with `setoption`), remembering its value for the engines.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.options.set_given(name, value)?;
        let spec = self.options.spec(name).expect("just set");
        let v = self.options.text(spec.name).to_string();
        self.given_options
            .retain(|(k, _)| !k.eq_ignore_ascii_case(spec.name));
        self.given_options.push((spec.name.to_string(), v));
        Ok(())
    }

    /// The rules a game is played under when a seat's engine does not know the game (a chess
    /// engine): [`FOREIGN_ENGINE_RULES`] where the game has those options and the match's
    /// `--option` did not set them. None when that changes nothing; else the new definition
    /// and the options it changed (to tell the engines).
    pub fn for_foreign_engines(&self) -> Option<(GameDef, Vec<(String, String)>)> {
        let mut def = self.clone();
        let mut changed = Vec::new();
        for &(name, value) in FOREIGN_ENGINE_RULES {
            let given = self
                .given_options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(name));
            if self.options.spec(name).is_some() && !given && self.options.text(name) != value {
                def.options.set(name, value).ok()?;
                changed.push((name.to_string(), value.to_string()));
            }
        }
        (!changed.is_empty()).then_some((def, changed))
    }

    /// The rules of [`FOREIGN_ENGINE_RULES`] this definition sets otherwise than an engine
    /// that does not know the game reads them, as `(name, the value it reads)`: a game played
    /// under them may hold moves such an engine cannot read, whoever set them.
    pub fn unreadable_by_foreign_engines(&self) -> Vec<(String, String)> {
        FOREIGN_ENGINE_RULES
            .iter()
            .filter(|(name, value)| {
                self.options.spec(name).is_some() && self.options.text(name) != *value
            })
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    pub fn start(&self, seed: Option<u64>) -> Result<Box<dyn AnyGame>, String> {
        (self.start)(&self.options, seed)
    }

    pub fn from_text(&self, text: &str) -> Result<Box<dyn AnyGame>, String> {
        (self.from_text)(text, &self.options)
    }

    /// Every rule option in effect, for the game record.
    pub(super) fn options_map(&self) -> BTreeMap<String, String> {
        self.option_pairs().into_iter().collect()
    }

    /// Every rule option in effect as `(name, value)`, in the game's order (the training
    /// data's header).
    pub fn option_pairs(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }
}

/// The limits of every move.
#[derive(Clone, Debug, Default)]
pub struct TimeControl {
    /// Base time per seat (ms) for a clock; None = no clock.
    pub base_ms: Option<u64>,
    /// Increment per move (ms).
    pub inc_ms: u64,
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Slack allowed over the clock or the movetime before a time loss.
    pub margin_ms: u64,
    /// Longest wait for a move when neither a clock nor a movetime bounds it (node/depth-limited
    /// searches), before the engine counts as hanging.
    pub timeout_ms: u64,
}

impl TimeControl {
    /// Parses `--tc BASE[+INC]` in seconds (`10+0.1`, `60`, `0.5+0.005`).
    pub fn parse_tc(s: &str) -> Result<(u64, u64), String> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |x: &str| -> Result<u64, String> {
            let v: f64 = x
                .trim()
                .parse()
                .map_err(|_| format!("--tc takes BASE+INC in seconds (10+0.1), not '{}'", s))?;
            if !(v >= 0.0 && v.is_finite()) {
                return Err(format!("--tc: '{}' is not a valid time", s));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let (b, i) = (secs(b)?, secs(i)?);
        if b == 0 {
            return Err(format!("--tc: the base time of '{}' is zero", s));
        }
        Ok((b, i))
    }

    /// A short description, for the table and the game file.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(b) = self.base_ms {
            parts.push(format!(
                "tc {}+{}",
                b as f64 / 1000.0,
                self.inc_ms as f64 / 1000.0
            ));
        }
        if let Some(m) = self.movetime_ms {
            parts.push(format!("movetime {} ms", m));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {}", n));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {}", d));
        }
        parts.join(", ")
    }

    /// The limits of an engine: its own `tc=` clock in place of the match's, if it has one.
    pub fn for_engine(&self, spec: &EngineSpec) -> TimeControl {
        let mut tc = self.clone();
        if let Some((base, inc)) = spec.tc {
            tc.base_ms = Some(base);
            tc.inc_ms = inc;
        }
        if spec.nodes.is_some() {
            tc.nodes = spec.nodes;
        }
        tc
    }

    /// The search limits of one move for `players` seats with these clocks: what a built-in
    /// player searches with, and what [`go_line`] writes for an external engine.
    pub fn limits(&self, clocks: &[i64], players: usize) -> Limits {
        let mut l = Limits::default();
        if self.base_ms.is_some() {
            for (i, c) in clocks.iter().take(players).enumerate() {
                l.time[i] = Some((*c).max(0) as u64);
                l.inc[i] = Some(self.inc_ms);
            }
        }
        l.movetime = self.movetime_ms;
        l.nodes = self.nodes;
        l.depth = self.depth;
        l
    }

    /// Why a move that took `ms` loses on time with `clock` ms left, or None when it was in time.
    pub fn late(&self, clock: i64, ms: u64) -> Option<String> {
        if self.base_ms.is_some() && ms as i64 > clock + self.margin_ms as i64 {
            return Some(format!(
                "lost on time: {} ms with {} ms on its clock (margin {} ms)",
                ms,
                clock.max(0),
                self.margin_ms
            ));
        }
        match self.movetime_ms {
            Some(mt) if ms > mt + self.margin_ms => Some(format!(
                "lost on time: {} ms for a movetime of {} ms (margin {} ms)",
                ms, mt, self.margin_ms
            )),
            _ => None,
        }
    }

    /// How long the referee waits for a move of `seat` before it is late.
    pub fn allowed(&self, clock: i64) -> Duration {
        let mut ms: Option<u64> = None;
        if self.base_ms.is_some() {
            ms = Some(clock.max(0) as u64 + self.margin_ms);
        }
        if let Some(m) = self.movetime_ms {
            let w = m + self.margin_ms;
            ms = Some(ms.map_or(w, |x| x.min(w)));
        }
        Duration::from_millis(ms.unwrap_or(self.timeout_ms))
    }
}

/// One game of the match, as the scheduler hands it out.
#[derive(Clone, Debug)]
pub struct Job {
    /// 0-based game number.
    pub index: usize,
    /// The rotation group (game pair for two seats) it belongs to.
    pub group: usize,
    /// The engine (index into the match's engines) at each seat.
    pub seats: Vec<usize>,
    /// The deal seed for games with chance in their start (None otherwise, and with `start`).
    pub deal_seed: Option<u64>,
    /// The position text the game starts from (an opening file's line); None: the start position.
    pub start: Option<String>,
    /// Opening moves (random, or an opening file's) played before the engines take over.
    pub opening: Vec<String>,
    /// Seed for the built-in players' randomness in this game.
    pub seed: u64,
}

/// Settings the referee needs besides the game and the engines.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    pub tc: TimeControl,
    /// Draw the game after this many plies (engines' moves plus opening); None = the rules decide.
    pub max_plies: Option<usize>,
    pub proto: Proto,
    pub handshake_timeout_ms: u64,
    /// Wait after `stop` before an engine counts as hanging.
    pub grace_ms: u64,
    pub verbose: bool,
    /// The match's seed, written in each record.
    pub match_seed: Option<u64>,
    /// `--adjudicate`: end games early by the engines' agreeing scores.
    pub adjudicate: Option<super::adjudicate::Adjudication>,
}

/// How a game ended, by kind.
pub mod termination {
    /// The rules ended it (the game's own reason is in `reason`).
    pub const RULES: &str = "rules";
    pub const ILLEGAL: &str = "illegal move";
    pub const TIME: &str = "time forfeit";
    pub const NO_ANSWER: &str = "no answer";
    pub const CRASH: &str = "crash";
    /// The arena's `--max-plies` drew it.
    pub const ADJUDICATION: &str = "adjudication";
}

/// One game, as written to the `--out` file (one JSON object per line).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRecord {
    /// The version of this record's format ([`RECORD_FORMAT`]); files written before versions
    /// were recorded read back as 1.
    #[serde(default = "format_one")]
    pub format: u32,
    /// The match's `--seed` (absent in format 1).
    #[serde(default)]
    pub seed: Option<u64>,
    /// 0-based game number in the match.
    pub game: usize,
    /// The rotation group: games of a group share the opening (and deal) with seats rotated.
    pub group: usize,
    /// The ruleset.
    pub game_name: String,
    /// Every rule option in effect.
    pub options: BTreeMap<String, String>,
    /// The engine's name at each seat (p1 first).
    pub seats: Vec<String>,
    /// The engine's index (order of `--engine`) at each seat.
    pub engines: Vec<usize>,
    /// The deal seed (`position startpos seed N`) for games with chance in their start.
    pub deal_seed: Option<u64>,
    /// The start position text (full state, before the opening).
    pub start: String,
    /// Random opening moves, played before the engines' moves.
    pub opening: Vec<String>,
    /// The engines' moves, in order.
    pub moves: Vec<String>,
    /// Milliseconds each of `moves` took.
    pub times_ms: Vec<u64>,
    /// Reward of each seat (summing to 1).
    pub result: Vec<f32>,
    /// The kind of ending: rules, illegal move, time forfeit, no answer, crash, adjudication.
    pub termination: String,
    /// A sentence: the game's reason ("checkmate") or what the offender did.
    pub reason: String,
    /// The seat that lost by fault, if any.
    pub offender: Option<usize>,
    /// The time control.
    pub tc: String,
    /// The final position text (full state).
    #[serde(default)]
    pub end: String,
    /// The number of games of the whole match, every shard's (absent before format 3).
    #[serde(default)]
    pub planned: Option<usize>,
    /// The shard `[I, N]` of `--shard I/N` that played the game; None when unsharded.
    #[serde(default)]
    pub shard: Option<[usize; 2]>,
    /// False when the game never got under way: an engine failed to start (crashed or did not
    /// answer at the start), so no move was asked for. Such a game is not a result.
    #[serde(default = "yes")]
    pub started: bool,
}

/// Rewards when `offender` loses by fault: 0 for it, the others share the point.
pub fn forfeit_rewards(players: usize, offender: usize) -> Vec<f32> {
    (0..players)
        .map(|s| {
            if s == offender {
                0.0
            } else {
                1.0 / (players - 1).max(1) as f32
            }
        })
        .collect()
}

/// The `position` line for `seat` (the seat's observation in hidden-information games).
pub fn position_line(state: &dyn AnyGame, seat: usize, job: &Job, moves: &[String]) -> String {
    if state.hidden_information() {
        return format!("position fen {}", state.observation_text(seat));
    }
    let mut s = match &job.start {
        Some(text) => format!("position fen {}", text),
        None => String::from("position startpos"),
    };
    if let (Some(d), None) = (job.deal_seed, &job.start) {
        s += &format!(" seed {}", d);
    }
    with_moves(s, moves)
}

/// `position` followed by ` moves …` when there are moves.
pub fn with_moves(mut position: String, moves: &[String]) -> String {
    if !moves.is_empty() {
        position += " moves ";
        position += &moves.join(" ");
    }
    position
}

/// Plays one game to its end. Never panics on an engine's behaviour; an error is returned only
/// when the game itself cannot be set up (which would be the arena's or the ruleset's fault).
pub fn play_game(
    def: &GameDef,
    engines: &[EngineSpec],
    job: &Job,
    cfg: &RefereeConfig,
) -> Result<GameRecord, String> {
    play(def, engines, job, cfg).map(|p| p.record)
}

/// A game played, and whether the match can go on.
#[derive(Clone, Debug)]
pub struct Played {
    pub record: GameRecord,
    /// Why an engine's program could not be run at all (`cannot start './x': No such file or
    /// directory`), with the engine's index: the game is lost by that engine, and as every game
    /// would be, the match should stop.
    pub unstartable: Option<(usize, String)>,
}

/// [`play_game`], also saying whether an engine could not be started at all.
pub fn play(
    def: &GameDef,
    engines: &[EngineSpec],
    job: &Job,
    cfg: &RefereeConfig,
) -> Result<Played, String> {
    let (mut state, start_text) = initial_state(def, job)?;
    let players = state.players();
    let mut rec = GameRecord::new(def, engines, job, cfg, start_text);
    let mut seats = match start_players(def, engines, job, cfg, players) {
        Ok(seats) => seats,
        Err((seat, f)) => {
            let (kind, why) = fault_text(&f, "at the start");
            rec.forfeit(seat, kind, why);
            rec.end = state.to_text();
            rec.started = false;
            let unstartable = match f {
                Fault::CannotStart(s) => Some((job.seats[seat], s)),
                _ => None,
            };
            return Ok(Played {
                record: rec,
                unstartable,
            });
        }
    };

    // A seat that does not know the game (a chess engine) cannot read every move of it: the
    // game is played under the rules such an engine reads where the game has them, and the
    // other seats are asked only for moves it reads.
    let foreign = seats.iter().any(|p| !p.knows_game());
    let foreign_def = foreign.then(|| def.for_foreign_engines()).flatten();
    let def = match &foreign_def {
        Some((d, changed)) => {
            (state, rec.start) = initial_state(d, job)?;
            rec.options = d.options_map();
            for seat in 0..players {
                if let Err(f) = seats[seat].set_rule_options(changed) {
                    let (kind, why) = fault_text(&f, "at the start");
                    rec.forfeit(seat, kind, why);
                    for p in seats.iter_mut() {
                        p.finish();
                    }
                    rec.end = state.to_text();
                    return Ok(Played {
                        record: rec,
                        unstartable: None,
                    });
                }
            }
            d
        }
        None => def,
    };
    // Under the rules the game is played by (known once every seat has started): a built-in
    // player whose `Eval net` (or `Policy net`) has nothing that fits them would search by hand
    // without a word, so the match stops instead.
    for seat in 0..players {
        if let Err(why) = seats[seat].check_game(state.as_ref()) {
            for p in seats.iter_mut() {
                p.finish();
            }
            return Err(format!("{}: {}", engines[job.seats[seat]].name, why));
        }
    }
    let tcs: Vec<TimeControl> = (0..players)
        .map(|s| cfg.tc.for_engine(&engines[job.seats[s]]))
        .collect();
    let mut clocks = [0i64; MAX_SEATS];
    for (c, tc) in clocks.iter_mut().zip(&tcs) {
        *c = tc.base_ms.unwrap_or(0) as i64;
    }
    let mut history: Vec<String> = job.opening.clone();
    // Each seat's score of each of its moves, for --adjudicate.
    let mut scores: Vec<Vec<Option<i32>>> = vec![Vec::new(); players];
    while !rec.ended_by_rules_or_cap(state.as_ref(), history.len(), cfg.max_plies) {
        if let Some((result, reason)) = cfg
            .adjudicate
            .and_then(|a| a.verdict(&scores, history.len()))
        {
            rec.result = result;
            rec.termination = termination::ADJUDICATION.into();
            rec.reason = reason;
            break;
        }
        let seat = state.to_move();
        let tc = &tcs[seat];
        let mut limits = seat_limits(&tcs, &clocks[..players], seat);
        let own_view = seat_view(def, state.as_ref(), seat)?;
        let view: &dyn AnyGame = own_view.as_deref().unwrap_or(state.as_ref());
        if foreign && seats[seat].knows_game() {
            limits.searchmoves = view.foreign_readable_moves().unwrap_or_default();
        }
        let go = go_line(&limits, players);
        let req = Request {
            position: position_line(state.as_ref(), seat, job, &history),
            go,
            limits,
            state: view,
            wait: tc.allowed(clocks[seat]),
            grace: Duration::from_millis(cfg.grace_ms),
        };
        let answer = match seats[seat].go(&req) {
            Ok(a) => a,
            Err(f) => {
                let (kind, why) = fault_text(&f, "during its move");
                rec.forfeit(seat, kind, why);
                break;
            }
        };
        let ms = answer.elapsed.as_millis() as u64;
        if let Some(why) = tc.late(clocks[seat], ms) {
            rec.forfeit(seat, termination::TIME, why);
            rec.moves.push(answer.mv);
            rec.times_ms.push(ms);
            break;
        }
        if answer.mv.is_empty() {
            let why = "answered 'bestmove' with no move".into();
            rec.forfeit(seat, termination::ILLEGAL, why);
            break;
        }
        if let Err(e) = state.play_text(&answer.mv) {
            let why = format!("played an illegal move: {}", e);
            rec.forfeit(seat, termination::ILLEGAL, why);
            rec.moves.push(answer.mv);
            rec.times_ms.push(ms);
            break;
        }
        if tc.base_ms.is_some() {
            clocks[seat] += tc.inc_ms as i64 - ms as i64;
        }
        scores[seat].push(answer.score);
        history.push(answer.mv.clone());
        rec.moves.push(answer.mv);
        rec.times_ms.push(ms);
    }
    for p in seats.iter_mut() {
        p.finish();
    }
    rec.end = state.to_text();
    Ok(Played {
        record: rec,
        unstartable: None,
    })
}

/// The state a game starts from (its start or the opening line's position, then the opening's
/// moves), and the text of the position before the opening's moves.
pub(super) fn initial_state(
    def: &GameDef,
    job: &Job,
) -> Result<(Box<dyn AnyGame>, String), String> {
    let mut state = match &job.start {
        Some(text) => def.from_text(text)?,
        None => def.start(job.deal_seed)?,
    };
    let start_text = state.to_text();
    for m in &job.opening {
        state
            .play_text(m)
            .map_err(|e| format!("opening move {}: {}", m, e))?;
    }
    Ok((state, start_text))
}

/// What `seat` may see when the game hides information: its observation, loaded as a position
/// (None when the game hides nothing: the seat sees the state itself).
fn seat_view(
    def: &GameDef,
    state: &dyn AnyGame,
    seat: usize,
) -> Result<Option<Box<dyn AnyGame>>, String> {
    if !state.hidden_information() {
        return Ok(None);
    }
    def.from_text(&state.observation_text(seat))
        .map(Some)
        .map_err(|e| {
            format!(
                "the observation of p{} does not parse back: {}",
                seat + 1,
                e
            )
        })
}

/// Starts every seat's player; on a fault, finishes those already started and says which seat
/// failed and how.
fn start_players(
    def: &GameDef,
    engines: &[EngineSpec],
    job: &Job,
    cfg: &RefereeConfig,
    players: usize,
) -> Result<Vec<Box<dyn player::Player>>, (usize, Fault)> {
    let mut seats: Vec<Box<dyn player::Player>> = Vec::with_capacity(players);
    for seat in 0..players {
        let spec = &engines[job.seats[seat]];
        let setup = Setup {
            game: &def.name,
            rule_options: &def.given_options,
            proto: cfg.proto,
            seed: crate::arena::mix(job.seed, seat as u64),
            handshake_timeout: Duration::from_millis(cfg.handshake_timeout_ms),
            label: format!("g{} p{} {}", job.index + 1, seat + 1, spec.name),
            verbose: cfg.verbose,
        };
        match player::start(spec, &setup) {
            Ok(p) => seats.push(p),
            Err(f) => {
                for p in seats.iter_mut() {
                    p.finish();
                }
                return Err((seat, f));
            }
        }
    }
    Ok(seats)
}

/// The version of the game-file format written now (docs/arena.md, "The game file"): 2 added
/// `format` and `seed`, 3 `planned`, `shard` and `started`.
pub const RECORD_FORMAT: u32 = 3;

fn format_one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

impl GameRecord {
    /// The record of a game about to be played (no moves, no result yet).
    pub(super) fn new(
        def: &GameDef,
        engines: &[EngineSpec],
        job: &Job,
        cfg: &RefereeConfig,
        start: String,
    ) -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT,
            seed: cfg.match_seed,
            game: job.index,
            group: job.group,
            game_name: def.name.clone(),
            options: def.options_map(),
            seats: job.seats.iter().map(|&e| engines[e].name.clone()).collect(),
            engines: job.seats.clone(),
            deal_seed: job.deal_seed,
            start,
            opening: job.opening.clone(),
            moves: Vec::new(),
            times_ms: Vec::new(),
            result: Vec::new(),
            termination: String::new(),
            reason: String::new(),
            offender: None,
            tc: describe_seats(
                &(0..job.seats.len())
                    .map(|s| cfg.tc.for_engine(&engines[job.seats[s]]))
                    .collect::<Vec<_>>(),
            ),
            end: String::new(),
            planned: None,
            shard: None,
            started: true,
        }
    }

    /// The game ends by a fault of `seat`: it scores nothing, the others share the point.
    fn forfeit(&mut self, seat: usize, kind: &str, why: String) {
        self.result = forfeit_rewards(self.seats.len(), seat);
        self.termination = kind.to_string();
        self.offender = Some(seat);
        self.reason = format!("p{} ({}) {}", seat + 1, self.seats[seat], why);
    }

    /// Whether the game is over by the rules or by `--max-plies` after `plies` plies (the
    /// result and reason are then recorded).
    fn ended_by_rules_or_cap(
        &mut self,
        state: &dyn AnyGame,
        plies: usize,
        cap: Option<usize>,
    ) -> bool {
        let players = self.seats.len();
        if let Status::Over(o) = state.status() {
            self.result = o.rewards[..players].to_vec();
            self.termination = termination::RULES.into();
            self.reason = o.reason.to_string();
            return true;
        }
        match cap {
            Some(mp) if plies >= mp => {
                self.result = vec![1.0 / players as f32; players];
                self.termination = termination::ADJUDICATION.into();
                self.reason = format!("arena --max-plies {} reached", mp);
                true
            }
            _ => false,
        }
    }
}

fn fault_text(f: &Fault, when: &str) -> (&'static str, String) {
    match f {
        Fault::NoAnswer(s) => (
            termination::NO_ANSWER,
            format!("did not answer {}: {}", when, s),
        ),
        Fault::Crash(s) | Fault::CannotStart(s) => {
            (termination::CRASH, format!("crashed {}: {}", when, s))
        }
    }
}

/// The limits of `seat`'s move: every seat's clock and increment (each by its own time control),
/// and the mover's own movetime, nodes and depth.
fn seat_limits(tcs: &[TimeControl], clocks: &[i64], seat: usize) -> Limits {
    let mut l = tcs[seat].limits(clocks, tcs.len());
    for (i, tc) in tcs.iter().enumerate() {
        l.time[i] = tc.base_ms.map(|_| clocks[i].max(0) as u64);
        l.inc[i] = tc.base_ms.map(|_| tc.inc_ms);
    }
    l
}

/// The time controls of a game's seats: one description when they are alike, else one per seat.
fn describe_seats(tcs: &[TimeControl]) -> String {
    let all: Vec<String> = tcs.iter().map(|t| t.describe()).collect();
    if all.iter().all(|d| *d == all[0]) {
        return all[0].clone();
    }
    all.iter()
        .enumerate()
        .map(|(i, d)| format!("p{} {}", i + 1, d))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The `go` line that asks an external engine for `limits` (clocks in both spellings for two
/// seats: `wtime`/`btime` for UCI, `p1time`… for UGI).
pub fn go_line(limits: &Limits, players: usize) -> String {
    let mut s = String::from("go");
    let timed = limits.time[..players].iter().any(|t| t.is_some());
    if timed {
        let t = |i: usize| limits.time[i].unwrap_or(0);
        let inc = |i: usize| limits.inc[i].unwrap_or(0);
        if players == 2 {
            s += &format!(
                " wtime {} btime {} winc {} binc {}",
                t(0),
                t(1),
                inc(0),
                inc(1)
            );
        }
        for i in 0..players {
            s += &format!(" p{}time {}", i + 1, t(i));
        }
        for i in 0..players {
            s += &format!(" p{}inc {}", i + 1, inc(i));
        }
    }
    if let Some(m) = limits.movetime {
        s += &format!(" movetime {}", m);
    }
    if let Some(n) = limits.nodes {
        s += &format!(" nodes {}", n);
    }
    if let Some(d) = limits.depth {
        s += &format!(" depth {}", d);
    }
    if !limits.searchmoves.is_empty() {
        s += " searchmoves ";
        s += &limits.searchmoves.join(" ");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tc_parses_seconds() {
        assert_eq!(TimeControl::parse_tc("10+0.1").unwrap(), (10_000, 100));
        assert_eq!(TimeControl::parse_tc("60").unwrap(), (60_000, 0));
        assert_eq!(TimeControl::parse_tc("5+0.05").unwrap(), (5_000, 50));
        assert!(TimeControl::parse_tc("abc").is_err());
        assert!(TimeControl::parse_tc("0+1").is_err());
        assert!(TimeControl::parse_tc("-1+0").is_err());
    }

    #[test]
    fn go_lines_carry_both_clock_spellings() {
        let tc = TimeControl {
            base_ms: Some(5000),
            inc_ms: 50,
            margin_ms: 100,
            ..Default::default()
        };
        assert_eq!(
            go_line(&tc.limits(&[4000, 3000], 2), 2),
            "go wtime 4000 btime 3000 winc 50 binc 50 p1time 4000 p2time 3000 p1inc 50 p2inc 50"
        );
        assert_eq!(
            go_line(&tc.limits(&[1, 2, -5], 3), 3),
            "go p1time 1 p2time 2 p3time 0 p1inc 50 p2inc 50 p3inc 50"
        );
        assert_eq!(tc.allowed(4000), Duration::from_millis(4100));
        let tc = TimeControl {
            movetime_ms: Some(50),
            nodes: Some(1000),
            margin_ms: 100,
            timeout_ms: 9000,
            ..Default::default()
        };
        assert_eq!(
            go_line(&tc.limits(&[0, 0], 2), 2),
            "go movetime 50 nodes 1000"
        );
        // What an external engine reads is what a built-in player gets.
        use crate::protocol::command::{self, Command};
        for (tc, clocks) in [
            (
                TimeControl {
                    base_ms: Some(5000),
                    inc_ms: 50,
                    ..Default::default()
                },
                vec![4000, 3000],
            ),
            (
                TimeControl {
                    base_ms: Some(900),
                    inc_ms: 0,
                    ..Default::default()
                },
                vec![1, 2, -5],
            ),
            (
                TimeControl {
                    movetime_ms: Some(50),
                    nodes: Some(7),
                    depth: Some(3),
                    ..Default::default()
                },
                vec![0, 0],
            ),
        ] {
            let limits = tc.limits(&clocks, clocks.len());
            match command::parse(&go_line(&limits, clocks.len())) {
                Ok(Command::Go { limits: back, .. }) => {
                    assert_eq!(format!("{:?}", back), format!("{:?}", limits));
                }
                _ => panic!("go line does not parse"),
            }
        }
        assert_eq!(tc.allowed(0), Duration::from_millis(150));
        let tc = TimeControl {
            nodes: Some(1000),
            timeout_ms: 9000,
            ..Default::default()
        };
        assert_eq!(tc.allowed(0), Duration::from_millis(9000));
    }

    #[test]
    fn forfeits_share_the_point() {
        assert_eq!(forfeit_rewards(2, 0), vec![0.0, 1.0]);
        assert_eq!(
            forfeit_rewards(4, 2),
            vec![1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0]
        );
    }
}
