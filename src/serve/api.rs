//! The JSON API of `quatre serve` (docs/serve.md). Every answer is a JSON object; a refusal is
//! `{"error": "…"}` with status 400, and the server goes on.

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

fn field<'a>(body: &'a Value, name: &str) -> Result<&'a Value, String> {
    body.get(name)
        .ok_or_else(|| format!("the request needs '{}'", name))
}

fn text_field<'a>(body: &'a Value, name: &str) -> Result<&'a str, String> {
    field(body, name)?
        .as_str()
        .ok_or_else(|| format!("'{}' must be a string", name))
}

fn query_num(query: &str, name: &str) -> Result<u64, String> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
        .ok_or_else(|| format!("the address needs ?{}=N", name))?
        .parse()
        .map_err(|_| format!("'{}' in the address must be a number", name))
}

/// Answers one API call: `name` is the path after `/api/`.
pub fn route(
    s: &Sessions,
    method: &str,
    name: &str,
    query: &str,
    body: &str,
) -> Result<Value, String> {
    let body: Value = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).map_err(|e| format!("the request is not JSON: {}", e))?
    };
    match (method, name) {
        ("GET", "games") => Ok(games_list()),
        ("POST", "new") => new_game(s, &body),
        ("GET", "state") => with(s, query_num(query, "id")?, |id, g| Ok(state(id, g))),
        ("POST", "move") => with(s, id_of(&body)?, |id, g| {
            let mv = text_field(&body, "move")?;
            if g.thinking.is_some() {
                return Err("the engine is thinking; wait for its move".into());
            }
            let seat = g.current().to_move();
            if seat != g.human {
                return Err(format!(
                    "it is seat {}'s turn (the engine's), not yours",
                    seat + 1
                ));
            }
            g.play(mv)?;
            Ok(state(id, g))
        }),
        ("POST", "engine") => engine_move(s, id_of(&body)?),
        ("POST", "undo") => with(s, id_of(&body)?, |id, g| {
            g.stop();
            // Back to the person's previous turn: at least one move, then to their turn.
            if g.moves.is_empty() {
                return Err("no move to take back".into());
            }
            g.pop();
            while !g.moves.is_empty() && g.current().to_move() != g.human {
                g.pop();
            }
            Ok(state(id, g))
        }),
        ("POST", "position") => with(s, id_of(&body)?, |id, g| {
            let text = text_field(&body, "text")?;
            let opts = g.current().options().clone();
            let pos = g
                .entry
                .from_text(text.trim(), &opts)
                .map_err(|e| format!("bad position: {}", e))?;
            g.stop();
            g.states = vec![pos];
            g.moves.clear();
            g.cells.clear();
            Ok(state(id, g))
        }),
        ("POST", "replay") => replay_load(s, text_field(&body, "text")?),
        ("GET", "replay") => replay_step(s, query),
        _ => Err(format!("no API call {} /api/{}", method, name)),
    }
}

fn id_of(body: &Value) -> Result<u64, String> {
    field(body, "id")?
        .as_u64()
        .ok_or_else(|| "'id' must be a number".into())
}

fn session(s: &Sessions, id: u64) -> Result<Arc<Mutex<Session>>, String> {
    s.games
        .lock()
        .unwrap()
        .get(&id)
        .cloned()
        .ok_or_else(|| format!("no game {} (start a new one)", id))
}

fn with(
    s: &Sessions,
    id: u64,
    f: impl FnOnce(u64, &mut Session) -> Result<Value, String>,
) -> Result<Value, String> {
    let g = session(s, id)?;
    let mut g = g.lock().unwrap();
    f(id, &mut g)
}

/// Every game with its seats and rule options (name, type, default, range or choices).
fn games_list() -> Value {
    let games: Vec<Value> = games::all()
        .iter()
        .map(|e| {
            let opts = e.default_options();
            let players = e.start(&opts, Some(1)).map(|g| g.players()).unwrap_or(2);
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
            json!({"name": e.name, "players": players, "options": options})
        })
        .collect();
    json!({ "games": games })
}

fn new_game(s: &Sessions, body: &Value) -> Result<Value, String> {
    let entry = games::resolve(Some(text_field(body, "game")?))?;
    let mut opts: RuleOptions = entry.default_options();
    if let Some(o) = body.get("options").and_then(|o| o.as_object()) {
        for (k, v) in o {
            let v = match v {
                Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            opts.set(k, &v)?;
        }
    }
    let deal = body.get("deal").and_then(|d| d.as_u64()).or_else(|| {
        // A fresh deal each game where the start is dealt.
        Some(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1),
        )
    });
    let start = entry.start(&opts, deal)?;
    let players = start.players();
    let human = body.get("seat").and_then(|v| v.as_u64()).unwrap_or(1) as usize;
    if human == 0 || human > players {
        return Err(format!("'seat' is 1 to {} in this game", players));
    }
    let mut p = SearchParams::default();
    let algorithm = body
        .get("algorithm")
        .and_then(|a| a.as_str())
        .unwrap_or("auto");
    params::set(&mut p, "Algorithm", algorithm).map_err(|e| format!("algorithm: {}", e))?;
    params::set(&mut p, "Threads", "1").map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    match (
        body.get("nodes").and_then(|n| n.as_u64()),
        body.get("movetime").and_then(|n| n.as_u64()),
    ) {
        (Some(n), _) if n > 0 => limits.nodes = Some(n),
        (_, Some(ms)) if (10..=600_000).contains(&ms) => limits.movetime = Some(ms),
        (_, Some(ms)) => return Err(format!("'movetime' is 10 to 600000 ms, not {}", ms)),
        _ => limits.movetime = Some(1000),
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
    s.games
        .lock()
        .unwrap()
        .insert(id, Arc::new(Mutex::new(session)));
    Ok(st)
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
    let svg = cur.svg(&DrawOptions {
        seat: Some(g.human),
        highlight,
        ..DrawOptions::default()
    });
    let over = match cur.status() {
        Status::Over(o) => json!({"reason": o.reason, "rewards": &o.rewards[..cur.players()]}),
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
fn engine_move(s: &Sessions, id: u64) -> Result<Value, String> {
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
        let events = move |e: Event| {
            if let Event::Report(r) = e {
                if let Some(l) = r.lines.first() {
                    *t.analysis.lock().unwrap() = json!({
                        "seat": seat + 1,
                        "depth": r.depth,
                        "nodes": r.nodes,
                        "score": score_text(l.score),
                        "pv": l.pv,
                    });
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

fn replay_load(s: &Sessions, text: &str) -> Result<Value, String> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(line)
            .map_err(|e| format!("line {}: not a game of quatre match --out: {}", i + 1, e))?;
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
    s.replays.lock().unwrap().insert(id, Arc::new(records));
    Ok(json!({"replay": id, "games": list}))
}

/// One position of a replayed game: `?replay=ID&game=N&ply=K` (K moves played).
fn replay_step(s: &Sessions, query: &str) -> Result<Value, String> {
    let id = query_num(query, "replay")?;
    let number = query_num(query, "game")? as usize;
    let ply = query_num(query, "ply")? as usize;
    let records = s
        .replays
        .lock()
        .unwrap()
        .get(&id)
        .cloned()
        .ok_or_else(|| format!("no replay {} (load the file again)", id))?;
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
    let ply = ply.min(all.len());
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
    Ok(json!({
        "game": number,
        "ply": ply,
        "plies": all.len(),
        "moves": all,
        "svg": svg,
        "seats": r.seats,
        "result": r.result,
        "reason": r.reason,
    }))
}
