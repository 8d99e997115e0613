//! Search, generic over [`Game`]: limits, parameters, the stop flag, `info` reporting, and the
//! entry point that picks MCTS (ISMCTS for hidden information) or alpha-beta.

pub mod alphabeta;
pub mod brs;
pub mod deepening;
pub mod mcts;
pub mod ordering;
pub mod params;
pub mod quiesce;
pub mod time;
pub mod tt;
pub mod tuning;

pub use params::{Algorithm, SearchParams};
pub use tuning::{Pruning, Tuning};

use crate::game::{Game, Seat, MAX_SEATS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// `go mate N`: stop once a mate in N moves or fewer is proven; searches no deeper than such
    /// a mate needs (2N − 1 plies).
    pub mate: Option<u32>,
    /// `go searchmoves …`: only these root moves are considered (empty = every legal move).
    pub searchmoves: Vec<String>,
    /// `go ponder`: the search runs without a time limit until `ponderhit` starts its clock.
    pub ponder: bool,
    pub infinite: bool,
}

impl Limits {
    /// Whether nothing in these limits ends the search: it waits for `stop`.
    pub fn is_unlimited(&self) -> bool {
        self.infinite
            || (self.time.iter().all(|t| t.is_none())
                && self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none()
                && self.mate.is_none())
    }

    /// The depth bound in plies: `depth`, and for `mate N` the 2N − 1 plies such a mate needs.
    pub fn max_depth(&self) -> Option<u32> {
        let mate = self.mate.map(|n| (2 * n.max(1) - 1).min(127));
        match (self.depth, mate) {
            (Some(d), Some(m)) => Some(d.min(m)),
            (d, m) => d.or(m),
        }
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
    /// MCTS: the visits of the line's first move.
    pub visits: Option<u64>,
    /// MCTS: the mean reward (0 to 1) of the line's first move for the side to move — its
    /// expected score with two seats (a draw counts half), its share of the reward with more.
    pub reward: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    Cp(i32),
    /// Moves (not plies) to mate: positive = the side to move mates.
    Mate(i32),
}

/// A snapshot of a search (the protocol prints it as `info` lines).
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

/// What a search tells its caller while it runs. The search never prints: the protocol turns
/// events into `info` lines (src/protocol/info.rs), the CLI into its own output, and the arena
/// into nothing at all.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A snapshot of the search: after each alpha-beta iteration, once a second, and last of all.
    Report(&'a Report),
    /// The search was stopped before it scored any move: the move it plays, with the counts.
    Unscored { report: &'a Report, mv: &'a str },
    /// A remark for the person reading (the protocol prints it as `info string …`).
    Note(&'a str),
    /// A problem the search worked around (`info string error: …`).
    Problem(&'a str),
    /// ISMCTS: a root candidate, with its visits, how often it was available across
    /// determinizations, and its mean reward (0–1) for the seat to move.
    Candidate {
        mv: &'a str,
        visits: u64,
        availability: u32,
        reward: f64,
    },
}

/// The move a running search would play now, kept up to date by the search, so that its caller
/// can answer at the hard limit even when the search threads are slow to stop (a busy machine).
#[derive(Debug, Default)]
pub struct BestSoFar(std::sync::Mutex<Option<String>>);

impl BestSoFar {
    pub fn set(&self, mv: String) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(mv);
    }
    pub fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What one engine's searches keep from one move to the next: alpha-beta keeps its
/// transposition table, as chess engines do, so that the next search (two plies on, or the
/// same position again) finds the last one's lines there. Emptied by `ucinewgame`, `Clear
/// Hash` and a change of game or rule options; each game of the arena and of the web board
/// has its own. (MCTS keeps nothing: the subtree two plies on held well under 1% of its
/// playouts, docs/results.md.)
#[derive(Default)]
pub struct Memory(std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>);

impl Memory {
    /// Forgets what the last search kept.
    pub fn clear(&self) {
        drop(self.take());
    }
    pub(crate) fn take(&self) -> Option<Box<dyn std::any::Any + Send>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
    pub(crate) fn put(&self, kept: Box<dyn std::any::Any + Send>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
    }
}

/// What the caller of a search controls while it runs.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Set by `stop` (or `quit`); the search returns its best move soon after.
    pub stop: &'a AtomicBool,
    /// For `go ponder`: the clock does not run until `ponderhit`.
    pub ponder: Option<&'a time::Ponder>,
    /// When the `go` arrived: time limits count from here.
    pub start: Instant,
    /// Milliseconds kept in hand on top of `MoveOverhead` (the protocol's measured lag).
    pub margin_ms: u64,
    /// Where the search keeps the move it would play now, if the caller wants it.
    pub best: Option<&'a BestSoFar>,
    /// What the search may keep for the next one (None: nothing is kept).
    pub memory: Option<&'a Memory>,
}

impl<'a> Control<'a> {
    /// A search that starts now, does not ponder and keeps only `MoveOverhead` in hand.
    pub fn new(stop: &'a AtomicBool) -> Self {
        Control {
            stop,
            ponder: None,
            start: Instant::now(),
            margin_ms: 0,
            best: None,
            memory: None,
        }
    }
}

/// Everything a search needs besides the position.
pub struct Context<'a> {
    pub params: &'a SearchParams,
    pub limits: &'a Limits,
    /// Set by `stop` (or `quit`); the search returns its best move soon after.
    pub stop: &'a AtomicBool,
    /// Receives what the search reports as it runs.
    pub events: &'a (dyn Fn(Event) + Sync),
    pub start: Instant,
    /// Set while the search ponders: its clock has not started.
    pub ponder: Option<&'a time::Ponder>,
    /// The thinking time of the seat to move.
    pub budget: time::Budget,
    best: Option<&'a BestSoFar>,
    /// What the search may keep for the next one.
    pub memory: Option<&'a Memory>,
    /// The learned evaluation the searches use (`Eval net`), set by [`search`] once it fits
    /// the position; None: the game's hand evaluation.
    pub net: Option<&'a crate::learn::net::Net>,
    /// The move policy MCTS uses (`Policy net`), set by [`search`] once it fits the position.
    pub policy: Option<&'a crate::learn::policy::Policy>,
}

impl<'a> Context<'a> {
    /// The context of a search for `seat` to move.
    pub fn new(
        params: &'a SearchParams,
        limits: &'a Limits,
        control: Control<'a>,
        events: &'a (dyn Fn(Event) + Sync),
        seat: Seat,
    ) -> Self {
        Context {
            params,
            limits,
            stop: control.stop,
            events,
            start: control.start,
            ponder: control.ponder,
            budget: time::budget_of(params, limits, seat, control.margin_ms),
            best: control.best,
            memory: control.memory,
            net: None,
            policy: None,
        }
    }

    /// Reports a problem the search works around (`info string error: …`).
    pub fn problem(&self, s: &str) {
        (self.events)(Event::Problem(s));
    }

    /// Whether the caller follows the best move so far ([`publish`](Self::publish) is not free).
    pub fn wants_best(&self) -> bool {
        self.best.is_some()
    }

    /// Tells the caller which move the search would play now.
    pub fn publish(&self, mv: String) {
        if let Some(b) = self.best {
            b.set(mv);
        }
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Reports a snapshot of the search.
    pub fn report(&self, r: &Report) {
        (self.events)(Event::Report(r));
    }

    /// Reports a remark.
    pub fn note(&self, s: &str) {
        (self.events)(Event::Note(s));
    }

    /// When the clock started: None while pondering.
    pub fn origin(&self) -> Option<Instant> {
        match self.ponder {
            Some(p) => p.origin(self.start),
            None => Some(self.start),
        }
    }

    /// Whether the search runs under a time limit (possibly not yet started: pondering).
    pub fn timed(&self) -> bool {
        self.budget.hard.is_some()
    }

    fn past(&self, limit: Option<Duration>) -> bool {
        match (limit, self.origin()) {
            (Some(l), Some(o)) => o.elapsed() >= l,
            _ => false,
        }
    }

    /// The hard limit, less the little the search keeps for answering
    /// ([`time::own_stop`]), has passed: stop at once.
    pub fn past_hard(&self) -> bool {
        self.past(self.budget.hard.map(time::own_stop))
    }

    /// The soft limit has passed: start no more work.
    pub fn past_soft(&self) -> bool {
        self.past(self.budget.soft)
    }

    /// Under a clock (not `movetime`, which asks for exactly that long), whether to start no
    /// further iteration: [`ITERATION_START_SHARE`] of the soft limit is spent. An iteration
    /// costs about twice the one before, so one started later would end well past the soft
    /// limit, or be cut by the hard one.
    pub fn next_iteration_too_long(&self) -> bool {
        if self.limits.movetime.is_some() {
            return false;
        }
        match (self.budget.soft, self.origin()) {
            (Some(s), Some(o)) => {
                o.elapsed().as_secs_f64() > s.as_secs_f64() * ITERATION_START_SHARE
            }
            _ => false,
        }
    }
}

/// Under a clock, alpha-beta and Best-Reply Search start another iteration only while less
/// than this share of the soft limit is spent. It was a half (an iteration costs about twice
/// the one before). At 0.7, in hyperchess 1x1 at 5 s + 0.05 s, a move takes 111 ms on
/// average against 103 (more early, less late; the median clock left at a game's end 0.72 s
/// against 1.30, none lost on time), and 0.7 took +43.7 ± 39.9 Elo over 0.5 in 200 games
/// (docs/results.md, 2026-11-29 (night)). quatre had spent 95–101 ms a move there, where
/// Stockfish spent 95–200 ms and won with quatre's clock 2–3 s from empty.
pub const ITERATION_START_SHARE: f64 = 0.7;

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
    let moves = root_moves(root, &ctx.limits.searchmoves);
    if moves.is_empty() {
        return Outcome {
            best: None,
            nodes: 0,
            report: None,
        };
    }
    let chosen = Chosen::of(
        ctx.params.algorithm,
        root.players(),
        G::hidden_information(),
    );
    // `Eval net`: the net, once it fits this game and rule set; else the hand evaluation, said.
    // `Eval auto` says when it passes over an `EvalFile` that does not fit.
    if let Some(why) = ctx.params.eval_file_note(root) {
        ctx.note(&why);
    }
    let with_net;
    let ctx = match ctx.params.net_for(root) {
        Some(Ok(net)) => {
            with_net = Context {
                net: Some(net),
                ..*ctx
            };
            &with_net
        }
        Some(Err(e)) => {
            ctx.problem(&format!("Eval net: {}; evaluating by hand", e));
            ctx
        }
        None => ctx,
    };
    // `Policy auto` says when it passes over a `PolicyFile` that does not fit (MCTS alone
    // orders its moves by a policy).
    if chosen.uses_policy() {
        if let Some(why) = ctx.params.policy_file_note(root) {
            ctx.note(&why);
        }
    }
    // The policy: MCTS with perfect information alone reads one; the other searches say
    // nothing of it, whatever `Policy` is set to.
    let with_policy;
    let policy = chosen
        .uses_policy()
        .then(|| ctx.params.policy_for(root))
        .flatten();
    let ctx = match policy {
        Some(Ok(policy)) => {
            with_policy = Context {
                policy: Some(policy),
                ..*ctx
            };
            &with_policy
        }
        Some(Err(e)) => {
            ctx.problem(&format!("Policy net: {}; ordering moves by hand", e));
            ctx
        }
        None => ctx,
    };
    match chosen {
        Chosen::AlphaBeta => alphabeta::search(root, ctx, &moves),
        Chosen::Brs => brs::search(root, ctx, &moves),
        Chosen::Mcts | Chosen::Ismcts => {
            if ctx.params.algorithm == Algorithm::AlphaBeta {
                ctx.note("alphabeta needs perfect information; using mcts");
            }
            mcts::search(root, ctx, &moves)
        }
    }
}

/// The search that runs for an `Algorithm` setting on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    AlphaBeta,
    /// Best-Reply Search: the alpha-beta of more than two seats.
    Brs,
    Mcts,
    /// MCTS over determinizations, for hidden information.
    Ismcts,
}

impl Chosen {
    /// Alpha-beta needs perfect information; with more than two seats Best-Reply Search plays its
    /// part (Auto too: on threechess BRS beat MCTS at equal nodes, tests/threechess_search.rs).
    /// MCTS otherwise, or when asked; ISMCTS with hidden information.
    pub fn of(algorithm: Algorithm, players: usize, hidden: bool) -> Chosen {
        match algorithm {
            _ if hidden => Chosen::Ismcts,
            Algorithm::Mcts => Chosen::Mcts,
            Algorithm::AlphaBeta | Algorithm::Auto if players == 2 => Chosen::AlphaBeta,
            Algorithm::AlphaBeta | Algorithm::Auto => Chosen::Brs,
        }
    }

    /// Whether this search orders its moves by a learned policy (`Policy`): MCTS with perfect
    /// information alone; the others ignore the option.
    pub fn uses_policy(self) -> bool {
        matches!(self, Chosen::Mcts)
    }

    /// The search threads this search runs on when `asked` are set: Best-Reply Search runs one
    /// (and says so), the others as many as asked.
    pub fn threads(self, asked: usize) -> usize {
        match self {
            Chosen::Brs => 1,
            _ => asked,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Chosen::AlphaBeta => "alphabeta",
            Chosen::Brs => "brs",
            Chosen::Mcts => "mcts",
            Chosen::Ismcts => "ismcts",
        }
    }
}

/// The root moves to search: the legal moves, or those of them that `searchmoves` names (moves
/// it names that are not legal are left out; the protocol has said so). Every legal move when
/// none of the named ones is legal.
pub fn root_moves<G: Game>(root: &G, searchmoves: &[String]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if !searchmoves.is_empty() {
        let wanted: Vec<G::Move> = searchmoves
            .iter()
            .filter_map(|t| root.parse_move(t).ok())
            .filter(|m| moves.contains(m))
            .collect();
        if !wanted.is_empty() {
            moves.retain(|m| wanted.contains(m));
        }
    }
    moves
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

/// A huge page (2 MiB on x86-64 Linux).
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel (Linux) to back the whole huge pages within `memory` with huge pages,
/// as Stockfish does for its table: alpha-beta's table is probed all over, and with 4 KiB
/// pages most probes of a 64 MiB one also missed the processor's cache of page translations
/// (MCTS's tree, advised the same way, gained nothing measurable and is not). Large
/// allocations are fresh mappings that the kernel fills as they are first written, so the
/// advice applies to every page before it exists; the contents do not change. Elsewhere, or
/// where the kernel declines, the pages stay small.
pub(crate) fn advise_huge_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let start = memory.as_ptr() as usize;
        let end = start + std::mem::size_of_val(memory);
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if first < last {
            // SAFETY: advice on whole pages of memory `memory` owns; it changes how they are
            // backed, never what they hold.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

/// Bytes of memory available (Linux `MemAvailable`), if known.
pub(crate) fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Nodes between two looks at the clock in the alpha-beta searches (`stop` is looked at every
/// node). A node costs a few microseconds (threechess, 3x3 hyperchess), and a busy machine
/// stretches each of them: 1024 nodes made `bestmove` come up to tens of milliseconds after its
/// time.
pub(crate) const CLOCK_EVERY: u64 = 64;

/// Delta pruning's margin in the captures-only searches (alpha-beta's quiescence, MCTS's leaf
/// search): a capture is skipped when the standing evaluation plus the most it gains
/// ([`Game::noisy_estimate`]) plus this margin stays below alpha.
pub(crate) const DELTA_MARGIN: i32 = 200;

/// The evaluation lead worth 10-to-1 odds by default (as Elo's 400): `ValueScale`'s default.
pub const DEFAULT_VALUE_SCALE: f32 = 400.0;

/// Probability of winning for an evaluation `cp` when a lead of `scale` is worth 10-to-1 odds.
pub fn win_probability_at(cp: i32, scale: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-(cp as f32) / scale))
}

/// How MCTS turns a position into rewards: the evaluation (the hand one, or a learned net)
/// and the scale at which it becomes a probability of winning (`ValueScale`).
#[derive(Clone, Copy)]
pub struct Valuer<'a> {
    pub net: Option<&'a crate::learn::net::Net>,
    /// The evaluation lead worth 10-to-1 odds.
    pub scale: f32,
}

impl Valuer<'_> {
    /// The hand evaluation at the default scale.
    pub const HAND: Valuer<'static> = Valuer {
        net: None,
        scale: DEFAULT_VALUE_SCALE,
    };

    /// The MCTS valuer of a search: `ValueScale` when set, else the game's
    /// ([`Tuning::value_scale`]), whichever evaluation (a net's evaluation is in the hand one's
    /// units; its own calibrated scale, `eval_scale · ln 10`, measured weaker: docs/results.md).
    pub fn of<'a, G: Game>(ctx: &Context<'a>) -> Valuer<'a> {
        Valuer {
            net: ctx.net,
            scale: ctx
                .params
                .value_scale
                .map_or(Tuning::of::<G>().value_scale, |s| s as f32),
        }
    }

    /// `g`'s evaluation for `seat`, below the decisive scores.
    pub fn eval<G: Game>(&self, g: &G, seat: Seat) -> i32 {
        deepening::bounded_eval(g, seat, self.net)
    }

    pub fn probability(&self, cp: i32) -> f32 {
        win_probability_at(cp, self.scale)
    }

    /// The evaluation a probability of winning stands for (the inverse of `probability`),
    /// within ±29,999.
    pub fn centipawns(&self, p: f32) -> i32 {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        ((-self.scale * (1.0 / p - 1.0).log10()).round() as i32).clamp(-29_999, 29_999)
    }

    /// Rewards per seat for a position that is not finished: a probability of winning per
    /// seat from the evaluation, normalised to sum to 1 (the same scale as
    /// [`crate::game::Outcome`]).
    pub fn rewards<G: Game>(&self, g: &G) -> [f32; MAX_SEATS] {
        let n = g.players();
        let mut r = [0.0; MAX_SEATS];
        if n == 2 {
            let p = self.probability(self.eval(g, 0));
            r[0] = p;
            r[1] = 1.0 - p;
            return r;
        }
        // Every seat's hand evaluation at once (`Game::evaluate_all`): the values
        // themselves, or a residual net's bases.
        let mut hand = [0; MAX_SEATS];
        let net = self.net.filter(|n| !n.is_residual());
        if net.is_none() {
            g.evaluate_all(&mut hand);
        }
        let mut sum = 0.0;
        for (s, v) in r.iter_mut().enumerate().take(n) {
            let cp = match (self.net, net) {
                (_, Some(whole)) => whole.evaluate(g, s as Seat),
                (Some(residual), None) => residual.evaluate_on(g, s as Seat, hand[s]),
                (None, None) => hand[s],
            };
            *v = self.probability(cp.clamp(-deepening::EVAL_LIMIT, deepening::EVAL_LIMIT));
            sum += *v;
        }
        for v in r.iter_mut().take(n) {
            *v /= sum.max(1e-6);
        }
        r
    }
}

#[cfg(test)]
mod tests;
