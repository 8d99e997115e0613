//! Opening files: `quatre match --openings FILE` plays each group of games from one of its lines,
//! and `quatre openings` writes such a file (random openings, optionally kept only when a search
//! finds them balanced).
//!
//! A line is `startpos [moves M1 M2 …]` or `<position text> [moves M1 M2 …]`, the same words as
//! the protocol's `position` command without its first word (`fen` may be written or left out).
//! Blank lines and lines starting with `#` are skipped.

use super::mix;
use super::referee::GameDef;
use crate::game::rng_from_seed;
use crate::search::{Limits, Score, SearchParams};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// One opening: where it starts (None: the game's start position) and the moves played from
/// there before the engines take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub start: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    /// Parses one line of an opening file and checks it against the rules of `def`: the position
    /// loads, every move is legal, and the game is not over at the end.
    pub fn parse(line: &str, def: &GameDef) -> Result<Opening, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let cut = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let (pos, moves) = (&words[..cut], &words[(cut + 1).min(words.len())..]);
        let pos = match pos.first() {
            Some(&"fen") => &pos[1..],
            _ => pos,
        };
        let start = match pos {
            [] => return Err("no position (write startpos or a position text)".into()),
            ["startpos"] => None,
            text => Some(text.join(" ")),
        };
        let mut g = match &start {
            None => def.start(None)?,
            Some(t) => def
                .from_text(t)
                .map_err(|e| format!("the position: {}", e))?,
        };
        for m in moves {
            g.play_text(m).map_err(|e| format!("move {}: {}", m, e))?;
        }
        if g.status().is_over() {
            return Err("the game is already over at the end of this opening".into());
        }
        Ok(Opening {
            start,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        })
    }

    /// The line that [`parse`](Self::parse) reads back.
    pub fn line(&self) -> String {
        let mut s = self.start.clone().unwrap_or_else(|| "startpos".into());
        if !self.moves.is_empty() {
            s += " moves ";
            s += &self.moves.join(" ");
        }
        s
    }
}

/// The openings of a file; an unreadable line is an error naming its line number.
pub fn load(path: &Path, def: &GameDef) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(
            Opening::parse(t, def).map_err(|e| format!("{}:{}: {}", path.display(), i + 1, e))?,
        );
    }
    if out.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(out)
}

/// How the groups of a match take the file's openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Group g plays line g (modulo the number of lines).
    Sequential,
    /// Group g plays a line drawn from the match seed and g.
    Random,
}

impl Order {
    pub fn parse(s: &str) -> Result<Order, String> {
        match s.to_ascii_lowercase().as_str() {
            "sequential" => Ok(Order::Sequential),
            "random" => Ok(Order::Random),
            _ => Err(format!(
                "--openings-order is sequential or random, not '{}'",
                s
            )),
        }
    }

    /// As `--openings-order` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        }
    }

    /// The opening of rotation group `group`.
    pub fn pick(self, count: usize, group: usize, seed: u64) -> usize {
        match self {
            Order::Sequential => group % count,
            Order::Random => (mix(seed ^ 0x0BE7_1165, group as u64) % count as u64) as usize,
        }
    }
}

/// What `quatre openings` is asked for.
pub struct GenerateArgs {
    pub plies: usize,
    pub count: usize,
    pub seed: u64,
    /// Keep only openings a depth-`depth` alpha-beta (or MCTS for games it does not fit) scores
    /// within ± this many centipawns for the side to move.
    pub balanced: Option<i32>,
    /// The search depth of the balance check.
    pub depth: u32,
}

/// `count` distinct random openings of `plies` moves from the start position, each checked for
/// balance when asked. Fails when too few distinct balanced openings turn up.
pub fn generate(def: &GameDef, args: &GenerateArgs) -> Result<Vec<Opening>, String> {
    // With chance in the start (a deal), an opening is written as the full position text.
    let chance = def.start(Some(1))?.to_text() != def.start(Some(2))?.to_text();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let attempts = (args.count * 50).max(1000);
    let mut params = SearchParams {
        threads: 1,
        seed: args.seed,
        ..SearchParams::default()
    };
    params.multipv = 1;
    let limits = Limits {
        depth: Some(args.depth.max(1)),
        ..Limits::default()
    };
    for attempt in 0..attempts {
        if out.len() == args.count {
            break;
        }
        let mut rng = rng_from_seed(mix(args.seed, attempt as u64));
        let mut g = def.start(chance.then(|| mix(args.seed, !(attempt as u64)) >> 1))?;
        let mut moves = Vec::with_capacity(args.plies);
        while moves.len() < args.plies && !g.status().is_over() {
            let Some(m) = g.random_move(&mut rng) else {
                break;
            };
            g.play_text(&m)?;
            moves.push(m);
        }
        if moves.len() < args.plies || g.status().is_over() || !seen.insert(g.to_text()) {
            continue;
        }
        if let Some(cp) = args.balanced {
            let stop = AtomicBool::new(false);
            let r = g.search(&params, &limits, &stop, &|_| {});
            let score = r.report.and_then(|r| r.lines.first().map(|l| l.score));
            match score {
                Some(Score::Cp(s)) if s.abs() <= cp => {}
                _ => continue,
            }
        }
        out.push(match chance {
            true => Opening {
                start: Some(g.to_text()),
                moves: Vec::new(),
            },
            false => Opening { start: None, moves },
        });
    }
    if out.len() < args.count {
        return Err(format!(
            "found only {} distinct openings of {} plies{} in {} tries: ask for fewer, fewer plies{}",
            out.len(),
            args.plies,
            args.balanced.map(|c| format!(" within ±{} cp", c)).unwrap_or_default(),
            attempts,
            if args.balanced.is_some() { " or a wider --balanced" } else { "" }
        ));
    }
    Ok(out)
}
