//! The JSON API of `quatre serve` (docs/serve.md). Every answer is a JSON object; a refusal is
//! `{"error": "…"}` with status 400 (a bad request, naming the field), 404 (no such call) or 405
//! (the wrong method), and the server goes on.

use super::fields::{parse_json, Answer, Body, Query, Refusal};
use crate::arena::referee::GameRecord;
use crate::game::{OptionKind, RuleOptions, Status};
use crate::games::{self, AnyGame, Entry};
use crate::render::DrawOptions;
use crate::search::{params, Control, Event, Limits, Memory, Score, SearchParams};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The games being played and the game files being replayed.
#[derive(Default)]
pub struct Sessions {
    next: AtomicU64,
    games: Mutex<HashMap<u64, Arc<Mutex<Session>>>>,
    replays: Mutex<HashMap<u64, Arc<Vec<GameRecord>>>>,
    /// The game the page opens on (`quatre serve --game G`).
    default_game: Option<&'static str>,
}

impl Sessions {
    /// No game yet; the page opens on `game` (None: the first game).
    pub fn opening_on(game: Option<&'static str>) -> Self {
        Sessions {
            default_game: game,
            ..Sessions::default()
        }
    }
}

/// One game at the board: the person holds `human`, the engine every other seat.
struct Session {
    entry: Entry,
    /// The position after each move (`states[0]` the first).
    states: Vec<Box<dyn AnyGame>>,
    moves: Vec<String>,
    /// The cells of each move, taken before it was played (for the highlight).
    cells: Vec<Vec<String>>,
    human: usize,
    params: SearchParams,
    limits: Limits,
    /// The engine's search in progress, if any.
    thinking: Option<Arc<Thinking>>,
    /// What the last search said.
    analysis: Value,
    /// What the engine's searches keep from one move to the next (alpha-beta's table).
    memory: Arc<Memory>,
}

struct Thinking {
    stop: AtomicBool,
    analysis: Mutex<Value>,
    /// The number of moves when the search started: its move is played only on that position.
    at: usize,
}

/// Every call: its method and name (the path after `/api/`).
const CALLS: [(&str, &str); 10] = [
    ("GET", "games"),
    ("POST", "seats"),
    ("POST", "new"),
    ("GET", "state"),
    ("POST", "move"),
    ("POST", "engine"),
    ("POST", "undo"),
    ("POST", "position"),
    ("POST", "replay"),
    ("GET", "replay"),
];

/// The largest id the server hands out is far below this; a bigger one is no id.
const MAX_ID: u64 = 1 << 53;

/// Answers one API call: `name` is the path after `/api/`, `query` the address's parameters.
pub fn route(s: &Sessions, method: &str, name: &str, query: &str, body: &str) -> Answer {
    if !CALLS.contains(&(method, name)) {
        let mut names: Vec<&str> = CALLS.iter().map(|c| c.1).collect();
        names.dedup();
        let methods: Vec<&str> = CALLS.iter().filter(|c| c.1 == name).map(|c| c.0).collect();
        return Err(if methods.is_empty() {
            Refusal {
                status: 404,
                message: format!(
                    "no API call /api/{} (the calls: {})",
                    name,
                    names.join(", ")
                ),
            }
        } else {
            Refusal {
                status: 405,
                message: format!(
                    "/api/{} takes {}, not {}",
                    name,
                    methods.join(" or "),
                    method
                ),
            }
        });
    }
    let call = format!("{} /api/{}", method, name);
    let body: Value = if body.trim().is_empty() {
        Value::Null
    } else if method == "GET" {
        return Err(format!("{} takes no body (its parameters go in the address)", call).into());
    } else {
        parse_json(&call, body)?
    };
    if method == "POST" && !query.is_empty() {
        return Err(format!(
            "{} takes its fields in the JSON body, not in the address",
            call
        )
        .into());
    }
    match (method, name) {
        ("GET", "games") => {
            Query::new(&call, query, &[])?;
            Ok(games_list(s))
        }
        ("POST", "seats") => {
            let b = Body::new(&call, &body, &["game", "options"])?;
            let start = starting(&b, Some(1))?;
            Ok(
                json!({"game": start.name(), "players": start.players(), "seats": seats(start.as_ref())}),
            )
        }
        ("POST", "new") => new_game(s, Body::new(&call, &body, NEW_FIELDS)?),
        ("GET", "state") => {
            let q = Query::new(&call, query, &["id"])?;
            with(s, q.int("id", 1, MAX_ID)?, |id, g| Ok(state(id, g)))
        }
        ("POST", "move") => {
            let b = Body::new(&call, &body, &["id", "move"])?;
            let mv = b.text("move")?;
            with(s, b.needed_int("id", 1, MAX_ID)?, |id, g| {
                if g.thinking.is_some() {
                    return Err("the engine is thinking; wait for its move".into());
                }
                if g.current().status().is_over() {
                    return Err("the game is over".into());
                }
                let seat = g.current().to_move();
                if seat != g.human {
                    return Err(format!(
                        "it is {}'s turn (the engine's), not yours",
                        g.current().seat_name(seat)
                    )
                    .into());
                }
                g.play(mv)?;
                Ok(state(id, g))
            })
        }
        ("POST", "engine") => {
            let b = Body::new(&call, &body, &["id"])?;
            engine_move(s, b.needed_int("id", 1, MAX_ID)?)
        }
        ("POST", "undo") => {
            let b = Body::new(&call, &body, &["id"])?;
            with(s, b.needed_int("id", 1, MAX_ID)?, |id, g| {
                g.stop();
                // Back to the person's previous turn: at least one move, then to their turn.
                if g.moves.is_empty() {
                    return Err("no move to take back".into());
                }
                g.pop();
                while !g.moves.is_empty() && g.current().to_move() != g.human {
                    g.pop();
                }
                // The analysis was of a position no longer on the board.
                g.analysis = Value::Null;
                Ok(state(id, g))
            })
        }
        ("POST", "position") => {
            let b = Body::new(&call, &body, &["id", "text"])?;
            let text = b.text("text")?;
            with(s, b.needed_int("id", 1, MAX_ID)?, |id, g| {
                let opts = g.current().options().clone();
                let pos = g
                    .entry
                    .from_text(text.trim(), &opts)
                    .map_err(|e| format!("bad position: {}", e))?;
                g.stop();
                g.states = vec![pos];
                g.moves.clear();
                g.cells.clear();
                g.analysis = Value::Null;
                Ok(state(id, g))
            })
        }
        ("POST", "replay") => {
            let b = Body::new(&call, &body, &["text"])?;
            replay_load(s, b.text("text")?)
        }
        _ => replay_step(s, &Query::new(&call, query, &["replay", "game", "ply"])?),
    }
}

fn session(s: &Sessions, id: u64) -> Result<Arc<Mutex<Session>>, String> {
    s.games.lock().unwrap().get(&id).cloned().ok_or_else(|| {
        format!(
            "no game {} (start a new one; the server keeps the last {})",
            id, MAX_GAMES_KEPT
        )
    })
}

fn with(s: &Sessions, id: u64, f: impl FnOnce(u64, &mut Session) -> Answer) -> Answer {
    let g = session(s, id)?;
    let mut g = g.lock().unwrap();
    f(id, &mut g)
}

/// Every game with its seats and rule options (name, type, default, range or choices), and the
/// game the page opens on.
fn games_list(s: &Sessions) -> Value {
    let games: Vec<Value> = games::all()
        .iter()
        .map(|e| {
            let opts = e.default_options();
            let start = e.start(&opts, Some(1));
            let players = start.as_ref().map(|g| g.players()).unwrap_or(2);
            let seat_list = start.map(|g| seats(g.as_ref())).unwrap_or_default();
            let options: Vec<Value> = opts
                .specs()
                .iter()
                .map(|o| match o.kind {
                    OptionKind::Check { default } => json!({"name": o.name, "type": "check", "default": default}),
                    OptionKind::Spin { default, min, max } => {
                        json!({"name": o.name, "type": "spin", "default": default, "min": min, "max": max})
                    }
                    OptionKind::Combo { default, vars } => {
                        json!({"name": o.name, "type": "combo", "default": default, "choices": vars})
                    }
                    OptionKind::String { default } => json!({"name": o.name, "type": "string", "default": default}),
                })
                .collect();
            json!({"name": e.name, "players": players, "seats": seat_list, "options": options})
        })
        .collect();
    json!({ "games": games, "default": s.default_game })
}

/// The seats of a game as the page lists them: `[{"seat": 1, "name": "Black"}, …]`.
fn seats(g: &dyn AnyGame) -> Vec<Value> {
    (0..g.players())
        .map(|t| json!({"seat": t + 1, "name": g.seat_name(t)}))
        .collect()
}

/// The fields of `POST /api/new`.
const NEW_FIELDS: &[&str] = &[
    "game",
    "options",
    "seat",
    "algorithm",
    "movetime",
    "nodes",
    "deal",
];

/// The start of the game a request names (`game`, `options`), dealt with `deal`.
fn starting(b: &Body, deal: Option<u64>) -> Result<Box<dyn AnyGame>, Refusal> {
    let name = b.text("game")?;
    let entry = games::resolve(Some(name)).map_err(|e| format!("'game': {}", e))?;
    let mut opts: RuleOptions = entry.default_options();
    for (k, v) in b.object("options")?.into_iter().flatten() {
        let v = match v {
            Value::String(t) => t.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(f) => f.to_string(),
            other => {
                return Err(format!(
                    "'options': {} must be a string, a number or true/false, not {}",
                    k, other
                )
                .into())
            }
        };
        opts.set_given(k, &v)
            .map_err(|e| format!("'options': {}", e))?;
    }
    Ok(entry
        .start(&opts, deal)
        .map_err(|e| format!("'options': {}", e))?)
}

fn new_game(s: &Sessions, b: Body) -> Answer {
    // A fresh deal each game where the start is dealt, unless the request names one.
    let deal = b.int("deal", 0, u64::MAX)?.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let start = starting(&b, Some(deal))?;
    let entry = games::resolve(Some(start.name()))?;
    let players = start.players() as u64;
    let human = b.int("seat", 1, players)?.unwrap_or(1) as usize;
    let mut p = SearchParams::default();
    params::set(&mut p, "Algorithm", b.text_or("algorithm", "auto")?)
        .map_err(|e| format!("'algorithm': {}", e))?;
    params::set(&mut p, "Threads", "1")?;
    let mut limits = Limits::default();
    match (
        b.int("nodes", 1, 1_000_000_000)?,
        b.int("movetime", 10, 600_000)?,
    ) {
        (Some(_), Some(_)) => {
            return Err("give 'nodes' or 'movetime', not both".into());
        }
        (Some(n), None) => limits.nodes = Some(n),
        (None, Some(ms)) => limits.movetime = Some(ms),
        (None, None) => limits.movetime = Some(1000),
    }
    let session = Session {
        entry,
        states: vec![start],
        moves: Vec::new(),
        cells: Vec::new(),
        human: human - 1,
        params: p,
        limits,
        thinking: None,
        analysis: Value::Null,
        memory: Arc::default(),
    };
    let id = s.next.fetch_add(1, Ordering::Relaxed) + 1;
    let st = state(id, &session);
    keep_newest(
        &mut s.games.lock().unwrap(),
        id,
        Arc::new(Mutex::new(session)),
        MAX_GAMES_KEPT,
    );
    Ok(st)
}

/// The most games the server keeps: a new one past it forgets the oldest (a page that still
/// shows it gets "no game N (start a new one)").
pub const MAX_GAMES_KEPT: usize = 64;
/// The most loaded match files the server keeps (each up to the 8 MiB a body may have).
pub const MAX_REPLAYS_KEPT: usize = 8;

/// Inserts `value` under `id` (ids grow: the smallest is the oldest) and forgets the oldest
/// entries past `max`, so that a server left running does not grow with every game or file.
fn keep_newest<T>(map: &mut HashMap<u64, T>, id: u64, value: T, max: usize) {
    map.insert(id, value);
    while map.len() > max {
        let oldest = *map.keys().min().expect("not empty");
        map.remove(&oldest);
    }
}

impl Session {
    fn current(&self) -> &dyn AnyGame {
        self.states.last().expect("a position").as_ref()
    }

    fn play(&mut self, mv: &str) -> Result<(), String> {
        let cur = self.current();
        let cells = cur.move_cells(mv).unwrap_or_default();
        let mut next = cur.clone_box();
        next.play_text(mv)?;
        self.states.push(next);
        self.moves.push(mv.to_string());
        self.cells.push(cells);
        Ok(())
    }

    fn pop(&mut self) {
        if self.states.len() > 1 {
            self.states.pop();
            self.moves.pop();
            self.cells.pop();
        }
    }

    fn stop(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// What the page shows: the picture for the person's seat, whose turn, the legal moves with
/// their cells (on the person's turn), the moves so far, the verdict, the engine's analysis.
fn state(id: u64, g: &Session) -> Value {
    let cur = g.current();
    let highlight = g.cells.last().cloned().unwrap_or_default();
    // Drawn for the person's seat: the board faces them, their hand face up.
    let svg = cur.svg(&DrawOptions {
        seat: Some(g.human),
        highlight,
        ..DrawOptions::default()
    });
    let over = match cur.status() {
        Status::Over(o) => {
            let rewards = &o.rewards[..cur.players()];
            json!({
                "reason": o.reason,
                "rewards": rewards,
                "text": verdict(rewards, o.reason, |t| cur.seat_name(t)),
            })
        }
        Status::Ongoing => Value::Null,
    };
    let your_turn = over.is_null() && cur.to_move() == g.human && g.thinking.is_none();
    let legal: Vec<Value> = if your_turn {
        cur.legal_moves()
            .into_iter()
            .map(|m| {
                let cells = cur.move_cells(&m).unwrap_or_default();
                json!({"move": m, "cells": cells})
            })
            .collect()
    } else {
        Vec::new()
    };
    // Hidden information: the person's observation only, never the full state.
    let position = if cur.hidden_information() {
        cur.observation_text(g.human)
    } else {
        cur.to_text()
    };
    let analysis = match &g.thinking {
        Some(t) => t.analysis.lock().unwrap().clone(),
        None => g.analysis.clone(),
    };
    json!({
        "id": id,
        "game": g.entry.name,
        "players": cur.players(),
        "seat": g.human + 1,
        "seats": seats(cur),
        "toMove": cur.to_move() + 1,
        "yourTurn": your_turn,
        "thinking": g.thinking.is_some(),
        "over": over,
        "svg": svg,
        "legal": legal,
        "moves": g.moves,
        "position": position,
        "analysis": analysis,
    })
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("mate in {}", m),
        Score::Mate(m) => format!("mated in {}", -m),
    }
}

/// Starts the engine's search for the seat to move (not the person's); its move is played when
/// it ends, and `state` shows its analysis meanwhile.
fn engine_move(s: &Sessions, id: u64) -> Answer {
    let arc = session(s, id)?;
    let mut g = arc.lock().unwrap();
    if g.thinking.is_some() {
        return Ok(state(id, &g));
    }
    let cur = g.current();
    if cur.status().is_over() {
        return Err("the game is over".into());
    }
    let seat = cur.to_move();
    if seat == g.human {
        return Err("it is your turn".into());
    }
    // Each engine seat searches from what it may see.
    let view: Box<dyn AnyGame> = if cur.hidden_information() {
        g.entry
            .from_text(&cur.observation_text(seat), cur.options())
            .map_err(|e| format!("the observation of seat {} does not load: {}", seat + 1, e))?
    } else {
        cur.clone_box()
    };
    let thinking = Arc::new(Thinking {
        stop: AtomicBool::new(false),
        analysis: Mutex::new(json!({"seat": seat + 1})),
        at: g.moves.len(),
    });
    g.thinking = Some(thinking.clone());
    let (params, limits, memory) = (g.params.clone(), g.limits.clone(), g.memory.clone());
    let session = arc.clone();
    std::thread::spawn(move || {
        let t = thinking.clone();
        let at = view.clone_box();
        let events = move |e: Event| {
            if let Event::Report(r) = e {
                if let Some(l) = r.lines.first() {
                    let mut a = json!({
                        "seat": seat + 1,
                        "depth": r.depth,
                        "nodes": r.nodes,
                        "score": score_text(l.score),
                        "pv": l.pv,
                    });
                    // More than two seats: each one's learned share at the end of the line.
                    if let Some(shares) = at.shares(&l.pv) {
                        a["shares"] = json!(shares);
                    }
                    *t.analysis.lock().unwrap() = a;
                }
            }
        };
        let control = Control {
            memory: Some(&memory),
            ..Control::new(&thinking.stop)
        };
        let result = view.search_controlled(&params, &limits, control, &events);
        let mut g = session.lock().unwrap();
        let current = g
            .thinking
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, &thinking));
        if !current || thinking.stop.load(Ordering::Relaxed) || g.moves.len() != thinking.at {
            return; // taken back or replaced meanwhile
        }
        g.analysis = thinking.analysis.lock().unwrap().clone();
        g.thinking = None;
        if let Some(mv) = result.best {
            if let Err(e) = g.play(&mv) {
                g.analysis =
                    json!({"error": format!("the engine's move {} was refused: {}", mv, e)});
            }
        }
    });
    Ok(state(id, &g))
}

fn replay_load(s: &Sessions, text: &str) -> Answer {
    let mut records = Vec::new();
    let mut parser = crate::arena::records::Records::default();
    // A game is stepped to by its number: two runs joined into one file (each numbering its
    // games from 1) would hide every repeated number's second game, so they are refused, as
    // `quatre stats` refuses them.
    let mut first_line = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r = parser
            .parse(line)
            .map_err(|e| format!("line {}: {}", i + 1, e))?;
        if let Some(first) = first_line.insert(r.game, i + 1) {
            return Err(format!(
                "line {}: game {} appears twice (first on line {}): give one match's games (its shards may be joined)",
                i + 1,
                r.game + 1,
                first
            )
            .into());
        }
        records.push(r);
    }
    if records.is_empty() {
        return Err("the file has no games".into());
    }
    let list: Vec<Value> = records
        .iter()
        .map(|r| {
            json!({
                "number": r.game + 1,
                "game": r.game_name,
                "seats": r.seats,
                "result": r.result,
                "reason": r.reason,
                "plies": r.opening.len() + r.moves.len(),
            })
        })
        .collect();
    let id = s.next.fetch_add(1, Ordering::Relaxed) + 1;
    keep_newest(
        &mut s.replays.lock().unwrap(),
        id,
        Arc::new(records),
        MAX_REPLAYS_KEPT,
    );
    Ok(json!({"replay": id, "games": list}))
}

/// One position of a replayed game: `?replay=ID&game=N&ply=K` (K moves played), with the
/// game's moves, rule options, seats and result.
fn replay_step(s: &Sessions, q: &Query) -> Answer {
    let id = q.int("replay", 1, MAX_ID)?;
    let number = q.int("game", 1, MAX_ID)? as usize;
    q.int("ply", 0, MAX_ID)?; // its type now, its range once the game's length is known
    let records = s.replays.lock().unwrap().get(&id).cloned().ok_or_else(|| {
        format!(
            "no replay {} (load the file again; the server keeps the last {})",
            id, MAX_REPLAYS_KEPT
        )
    })?;
    let r = records
        .iter()
        .find(|r| r.game + 1 == number)
        .ok_or_else(|| format!("the file has no game {}", number))?;
    let entry = games::resolve(Some(&r.game_name))?;
    let mut opts = entry.default_options();
    for (k, v) in &r.options {
        opts.set(k, v)?;
    }
    let mut g = entry.from_text(&r.start, &opts)?;
    let all: Vec<&String> = r.opening.iter().chain(r.moves.iter()).collect();
    let ply = q.int("ply", 0, all.len() as u64)? as usize;
    let mut last = Vec::new();
    for m in &all[..ply] {
        last = g.move_cells(m).unwrap_or_default();
        g.play_text(m)
            .map_err(|e| format!("move {} of the file is refused: {}", m, e))?;
    }
    let svg = g.svg(&DrawOptions {
        highlight: last,
        ..DrawOptions::default()
    });
    let names: Vec<String> = (0..r.seats.len()).map(|t| g.seat_name(t)).collect();
    Ok(json!({
        "game": number,
        "name": r.game_name,
        "ply": ply,
        "plies": all.len(),
        "moves": all,
        "opening": r.opening.len(),
        "options": r.options,
        "svg": svg,
        "seats": r.seats,
        "seatNames": names,
        "result": r.result,
        "reason": r.reason,
        "verdict": verdict(&r.result, &r.reason, |t| names[t].clone()),
    }))
}

/// A result in words: "White wins by checkmate", "Draw (threefold repetition)", "Seat 1 and
/// seat 3 share the win (target reached)". `rewards` has one entry per seat; `name` names one.
pub fn verdict(rewards: &[f32], reason: &str, name: impl Fn(usize) -> String) -> String {
    let best = rewards.iter().cloned().fold(0.0f32, f32::max);
    let winners: Vec<usize> = (0..rewards.len())
        .filter(|&t| best > 0.0 && (rewards[t] - best).abs() < 1e-4)
        .collect();
    let why = match reason {
        "MaxPlies" => "the ply limit, MaxPlies, reached".to_string(),
        r => r.to_string(),
    };
    let capital = |t: usize| {
        let n = name(t);
        let mut c = n.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or(n)
    };
    match winners.len() {
        0 => format!("Game over ({})", why),
        n if n == rewards.len() => format!("Draw ({})", why),
        1 if reason == "checkmate" || reason.ends_with("victory") => {
            format!("{} wins by {}", capital(winners[0]), why)
        }
        1 => format!("{} wins ({})", capital(winners[0]), why),
        n => {
            let names: Vec<String> = winners
                .iter()
                .enumerate()
                .map(|(i, &t)| if i == 0 { capital(t) } else { name(t) })
                .collect();
            format!(
                "{} and {} share the win ({})",
                names[..n - 1].join(", "),
                names[n - 1],
                why
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::verdict;

    #[test]
    fn a_result_is_said_in_words() {
        let chess = |t: usize| ["White", "Black"][t].to_string();
        let seat = |t: usize| format!("seat {}", t + 1);
        assert_eq!(
            verdict(&[1.0, 0.0], "checkmate", chess),
            "White wins by checkmate"
        );
        assert_eq!(
            verdict(&[0.0, 1.0], "corps victory", chess),
            "Black wins by corps victory"
        );
        assert_eq!(
            verdict(&[0.0, 1.0], "tesseract captured", chess),
            "Black wins (tesseract captured)"
        );
        assert_eq!(
            verdict(&[0.5, 0.5], "threefold repetition", chess),
            "Draw (threefold repetition)"
        );
        assert_eq!(
            verdict(&[0.5, 0.5], "MaxPlies", chess),
            "Draw (the ply limit, MaxPlies, reached)"
        );
        assert_eq!(
            verdict(&[0.0, 0.0, 1.0], "target reached", seat),
            "Seat 3 wins (target reached)"
        );
        assert_eq!(
            verdict(&[0.5, 0.0, 0.5], "stalemate", seat),
            "Seat 1 and seat 3 share the win (stalemate)"
        );
        assert_eq!(
            verdict(
                &[1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0],
                "rounds played",
                seat
            ),
            "Seat 1, seat 2 and seat 4 share the win (rounds played)"
        );
        assert_eq!(
            verdict(&[0.25; 4], "MaxPlies", seat),
            "Draw (the ply limit, MaxPlies, reached)"
        );
    }
}
