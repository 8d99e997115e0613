//! Search, generic over [`Game`]: limits, parameters, the stop flag, `info` reporting, and the
//! entry point that picks MCTS (ISMCTS for hidden information) or alpha-beta.

pub mod alphabeta;
pub mod brs;
pub mod mcts;
pub mod time;

use crate::game::{Game, Seat, MAX_SEATS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Alpha-beta where it applies (two seats, no hidden information), else MCTS: at equal time
    /// alpha-beta beat MCTS in every two-seat board game (0–20, 2–38 and 1–39 in half-points).
    /// With more than two seats and perfect information (threechess), Best-Reply Search: at
    /// 5,000 nodes a move it scored 0.875 alone against two MCTS players and 1.0 as a pair.
    Auto,
    Mcts,
    AlphaBeta,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Mcts => "mcts",
            Algorithm::AlphaBeta => "alphabeta",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Some(Algorithm::Auto),
            "mcts" => Some(Algorithm::Mcts),
            "alphabeta" | "ab" => Some(Algorithm::AlphaBeta),
            _ => None,
        }
    }
}

/// Engine settings that shape a search (the protocol's engine options).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub threads: usize,
    /// Memory for the tree / transposition table, in MiB.
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub multipv: usize,
    pub seed: u64,
    /// Milliseconds kept in hand for communication delays.
    pub move_overhead_ms: u64,
    /// MCTS: random plies played from a new leaf before the evaluation scores it (0 = score the
    /// leaf directly); None = the game's own measured choice ([`Game::ROLLOUT_PLIES`]).
    pub rollout_plies: Option<usize>,
    /// MCTS tree depth cap (0 = none); None = the game's own choice ([`Game::TREE_DEPTH`]).
    pub tree_depth: Option<usize>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: 1,
            hash_mb: 64,
            algorithm: Algorithm::Auto,
            multipv: 1,
            seed: 0,
            move_overhead_ms: 30,
            rollout_plies: None,
            tree_depth: None,
        }
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining time per seat in ms (`wtime`/`btime`, `p1time`..`p4time`).
    pub time: [Option<u64>; MAX_SEATS],
    /// Increment per seat in ms.
    pub inc: [Option<u64>; MAX_SEATS],
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl Limits {
    pub fn is_unlimited(&self) -> bool {
        self.infinite
            || (self.time.iter().all(|t| t.is_none())
                && self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none())
    }
}

/// One line of analysis (one `multipv` slot).
#[derive(Clone, Debug)]
pub struct Line {
    pub pv: Vec<String>,
    /// From the side to move's view: centipawns, or mate in plies (positive = the side to move mates).
    pub score: Score,
    /// Win/draw/loss per mille for the side to move, when the search knows them.
    pub wdl: Option<(u32, u32, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    Cp(i32),
    /// Moves (not plies) to mate: positive = the side to move mates.
    Mate(i32),
}

/// A snapshot of a search, printed as `info` lines.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Per mille of the tree / table in use.
    pub hashfull: u32,
    pub lines: Vec<Line>,
}

impl Report {
    /// The `info` lines of this report, one per multipv slot.
    pub fn info_lines(&self) -> Vec<String> {
        let ms = self.elapsed.as_millis() as u64;
        let nps = if ms > 0 {
            self.nodes * 1000 / ms
        } else {
            self.nodes * 1000
        };
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let score = match l.score {
                    Score::Cp(c) => format!("cp {}", c),
                    Score::Mate(m) => format!("mate {}", m),
                };
                let wdl = l.wdl.map(|(w, d, lo)| format!(" wdl {} {} {}", w, d, lo)).unwrap_or_default();
                format!(
                    "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} time {} hashfull {} pv {}",
                    self.depth.max(1),
                    self.seldepth.max(self.depth).max(1),
                    i + 1,
                    score,
                    wdl,
                    self.nodes,
                    nps,
                    ms,
                    self.hashfull,
                    l.pv.join(" ")
                )
            })
            .collect()
    }
}

/// Everything a search needs besides the position.
pub struct Context<'a> {
    pub params: &'a SearchParams,
    pub limits: &'a Limits,
    /// Set by `stop` (or `quit`); the search returns its best move soon after.
    pub stop: &'a AtomicBool,
    /// Receives every line the search prints (`info …`), not the `bestmove`.
    pub out: &'a (dyn Fn(&str) + Sync),
    pub start: Instant,
}

impl Context<'_> {
    /// When a search for `seat` must stop, from the limits and `MoveOverhead`.
    pub fn deadlines(&self, seat: Seat) -> time::Deadlines {
        time::deadlines(self.limits, seat, self.params.move_overhead_ms, self.start)
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub best: Option<M>,
    pub nodes: u64,
    pub report: Option<Report>,
}

/// Runs the search the parameters ask for on `root`. Alpha-beta needs a game of perfect
/// information (Best-Reply Search when it has more than two seats); for hidden information MCTS
/// (ISMCTS) runs instead, and a line `info string` says so.
pub fn search<G: Game>(root: &G, ctx: &Context) -> Outcome<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.is_empty() {
        return Outcome {
            best: None,
            nodes: 0,
            report: None,
        };
    }
    let ab_ok = root.players() == 2 && !G::hidden_information();
    // More than two seats with perfect information: Best-Reply Search plays the alpha-beta part.
    let brs_ok = root.players() > 2 && !G::hidden_information();
    match ctx.params.algorithm {
        Algorithm::AlphaBeta | Algorithm::Auto if ab_ok => alphabeta::search(root, ctx),
        // Auto too: on threechess BRS beat MCTS at equal nodes (tests/threechess_search.rs).
        Algorithm::AlphaBeta | Algorithm::Auto if brs_ok => brs::search(root, ctx),
        Algorithm::AlphaBeta => {
            (ctx.out)(
                "info string alphabeta needs perfect information; using mcts",
            );
            mcts::search(root, ctx)
        }
        Algorithm::Mcts | Algorithm::Auto => mcts::search(root, ctx),
    }
}

/// An empty vector with room for `want` items, or for as many as memory allows (halving down to
/// `min`): a `Hash` larger than the machine can give must not abort the engine.
pub fn reserve<T>(want: usize, min: usize) -> Vec<T> {
    let mut n = want.max(min);
    // Also stay within three quarters of the memory the system reports available, where it says.
    if let Some(avail) = available_memory() {
        let fit = (avail / 4 * 3) / std::mem::size_of::<T>().max(1);
        n = n.min(fit.max(min));
    }
    loop {
        let mut v = Vec::new();
        if v.try_reserve_exact(n).is_ok() || n <= min {
            return v;
        }
        n /= 2;
    }
}

/// Bytes of memory available (Linux `MemAvailable`), if known.
pub(crate) fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Probability of winning for a centipawn-like evaluation.
pub fn win_probability(cp: i32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-(cp as f32) / 400.0))
}

/// The inverse of [`win_probability`], clamped to ±(mate bound − 1).
pub fn centipawns(p: f32) -> i32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    ((-400.0 * (1.0 / p - 1.0).log10()).round() as i32).clamp(-29_999, 29_999)
}

/// Heuristic rewards per seat for a position that is not finished: a probability of winning per
/// seat from `evaluate`, normalised to sum to 1 (the same scale as [`crate::game::Outcome`]).
pub fn heuristic_rewards<G: Game>(g: &G) -> [f32; MAX_SEATS] {
    let n = g.players();
    let mut r = [0.0; MAX_SEATS];
    if n == 2 {
        let p = win_probability(g.evaluate(0));
        r[0] = p;
        r[1] = 1.0 - p;
        return r;
    }
    let mut sum = 0.0;
    for (s, v) in r.iter_mut().enumerate().take(n) {
        *v = win_probability(g.evaluate(s as Seat));
        sum += *v;
    }
    for v in r.iter_mut().take(n) {
        *v /= sum.max(1e-6);
    }
    r
}

#[cfg(test)]
mod tests;
