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

/// The most positions [`distinct_openings`] holds in one ply of its enumeration.
const ENUMERATION_CAP: usize = 100_000;

/// The number of distinct positions (by their full text) that `plies` legal moves from the start
/// reach with the game not over — the openings [`generate`] can draw — when it is below `cap`;
/// None when there are at least `cap` (or a ply of the enumeration reaches `cap` positions: there
/// are then very likely as many, and the sampling decides). Enumerates ply by ply, merging
/// transpositions, so the work is bounded by `cap` positions per ply.
pub fn distinct_openings(def: &GameDef, plies: usize, cap: usize) -> Result<Option<usize>, String> {
    let start = def.start(None)?;
    let mut level: std::collections::HashSet<String> = [start.to_text()].into();
    for _ in 0..plies {
        let mut next = std::collections::HashSet::new();
        for text in &level {
            let g = def.from_text(text)?;
            if g.status().is_over() {
                continue;
            }
            for m in g.legal_moves() {
                let mut c = g.clone_box();
                c.play_text(&m)?;
                next.insert(c.to_text());
                if next.len() >= cap {
                    return Ok(None);
                }
            }
        }
        level = next;
    }
    let mut alive = 0;
    for text in &level {
        if !def.from_text(text)?.status().is_over() {
            alive += 1;
        }
    }
    Ok((alive < cap).then_some(alive))
}

/// `count` distinct random openings of `plies` moves from the start position, each checked for
/// balance when asked. Fails at once when fewer distinct openings exist than asked (saying how
/// many), and when too few distinct balanced openings turn up: after `50 × count` tries, or when
/// a long run of tries (ten times the distinct openings seen, and at least 2000) finds no new one.
pub fn generate(def: &GameDef, args: &GenerateArgs) -> Result<Vec<Opening>, String> {
    // With chance in the start (a deal), an opening is written as the full position text, and
    // every deal is another opening: the count of a single start does not bound them.
    let chance = def.start(Some(1))?.to_text() != def.start(Some(2))?.to_text();
    if !chance {
        if let Some(n) = distinct_openings(def, args.plies, args.count.min(ENUMERATION_CAP))? {
            if n < args.count {
                return Err(format!(
                    "{} has only {} distinct opening{} of {} pl{} with these options{}, and {} were asked for: ask for at most {}{}",
                    def.name,
                    n,
                    if n == 1 { "" } else { "s" },
                    args.plies,
                    if args.plies == 1 { "y" } else { "ies" },
                    if args.balanced.is_some() { " (before the balance check)" } else { "" },
                    args.count,
                    n,
                    if n == 0 { "" } else { ", or more plies" },
                ));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut last_new = 0;
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
    let mut tried = 0;
    for attempt in 0..attempts {
        if out.len() == args.count || attempt - last_new > (10 * seen.len()).max(2000) {
            break;
        }
        tried = attempt + 1;
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
        last_new = attempt;
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
            "found only {} distinct openings of {} plies{} in {} tries ({} distinct before any balance check): ask for fewer{}",
            out.len(),
            args.plies,
            args.balanced.map(|c| format!(" within ±{} cp", c)).unwrap_or_default(),
            tried,
            seen.len(),
            if args.balanced.is_some() {
                ", other plies or a wider --balanced"
            } else {
                " or more plies"
            }
        ));
    }
    Ok(out)
}
