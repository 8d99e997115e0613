//! Alpha-beta for two-player games of perfect information: iterative-deepening principal-variation
//! search (negamax) with a zobrist transposition table, quiescence on the game's noisy moves
//! (quiesce.rs, shared with MCTS's leaf search), move ordering (table move, `move_priority`,
//! killers, history), aspiration windows at the root, null-move pruning (games that offer a
//! pass), check extensions (games with check), late-move reductions and late-move pruning of
//! quiet moves, the rule set's measured pruning (`Pruning`: reverse futility, futility, a deeper
//! null move, internal iterative reduction; chess only so far), and MultiPV. More than one thread
//! runs Lazy SMP: every thread searches the same tree, sharing the table, and the first thread's
//! result is used.

use super::deepening::{
    last_word, mate_ends_search, pv_texts, score_of, terminal_score, window_eval, LazyEval, INF,
    MATE_BOUND,
};
use super::ordering::{store_killer, History, KillerPair, Picker};
use super::quiesce::{child_score, quiesce, Host, PlyBufs};
use super::tt::{from_tt, to_tt, Bound, Entry, Table, NO_MOVE};
use super::tuning::Pruning;
use super::{Context, Line, Outcome, Report, CLOCK_EVERY};
use crate::game::{Game, Seat, Status};
use crate::learn::net::Net;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

pub const MAX_PLY: usize = 128;
/// Plies of quiescence below the nominal depth.
pub const QS_MAX: usize = 6;
/// Noisy moves a quiescence node looks at, best first: with a hundred pieces on the board (3x3
/// hyperchess) an unbounded capture search swamps the main search.
pub const QS_WIDTH: usize = 12;
/// Aspiration window at the root: half-width of the first try around the last iteration's
/// score, from this depth on; each failure widens it fourfold.
const ASPIRATION: i32 = 35;
const ASPIRATION_DEPTH: u32 = 5;

/// Plies by which a late quiet move is reduced: ln(depth)·ln(move number)/`divisor` + 0.75, as
/// in most engines (the divisor is the rule set's, `Pruning::reduction_divisor`: 2.25 unless
/// measured otherwise); the move number counts the moves searched before it at this node.
fn reduction(depth: i32, searched: usize, divisor: f64) -> i32 {
    if depth < 3 || searched < 3 {
        return 0;
    }
    let r = 0.75 + (depth as f64).ln() * (searched as f64).ln() / divisor;
    r as i32
}

/// Quiet moves tried at a node of depth `depth` (1 to 3) outside the principal variation before
/// the rest are skipped (late-move pruning).
fn late_move_limit(depth: i32) -> usize {
    (4 + 3 * depth * depth) as usize
}

struct Shared<'a> {
    table: Table,
    nodes: AtomicU64,
    abort: AtomicBool,
    /// The clock's hard limit has passed (set with `abort`).
    time_up: AtomicBool,
    ctx: &'a Context<'a>,
}

struct Worker<'a, 'b, G: Game> {
    sh: &'b Shared<'a>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    history: History,
    /// Quiet moves searched at each ply, for the history malus when another move cuts off.
    quiets: Vec<Vec<G::Move>>,
    /// The last completed iteration's score (first line), the centre of the aspiration window.
    prev_score: Option<i32>,
    /// Whether reductions and pruning are on: off for `go mate N`, whose depth bound (2N − 1
    /// plies) must see every move to prove that no mate in N exists, and in an exact search.
    selective: bool,
    /// `SearchParams::exact`: no pruning that can change the value (selectivity, delta pruning,
    /// the table's score cutoffs): the result is plain minimax's.
    exact: bool,
    /// The rule set's measured pruning (used only when `selective`).
    pruning: Pruning,
    pv: Vec<Vec<G::Move>>,
    /// The move lists and child states of each ply, reused (main search and quiescence).
    bufs: PlyBufs<G>,
    root_excluded: Vec<G::Move>,
    /// The root moves to search (`searchmoves`), when not every legal move.
    root_only: Option<Vec<G::Move>>,
    /// Set during the main thread's first iteration: only `stop` interrupts it, so that every
    /// answer comes from a completed search of depth 1, whatever the node or time limit.
    first_iteration: bool,
    /// The best fully searched root move of the current iteration: played when time runs out
    /// before the first iteration completes.
    root_best: Option<G::Move>,
    /// The seat to move at the root.
    root_seat: usize,
    /// The depth of the iteration in progress: checks are extended up to twice this ply.
    iter_depth: i32,
    /// The first thread prints a progress line at least once a second during long iterations.
    main: bool,
    /// The last completed iteration's report, re-sent with fresh counts as progress.
    progress: Option<Report>,
    last_print: Instant,
}

/// Runs alpha-beta on `root`, considering the root moves `moves` (all legal, not empty).
pub fn search<G: Game>(root: &G, ctx: &Context, moves: &[G::Move]) -> Outcome<G::Move> {
    let sh = Shared {
        table: Table::kept(ctx).unwrap_or_else(|| Table::new(ctx.params.hash_mb)),
        nodes: AtomicU64::new(0),
        abort: AtomicBool::new(false),
        time_up: AtomicBool::new(false),
        ctx,
    };
    let threads = ctx.params.threads.max(1);
    let result = if threads == 1 {
        iterative_deepening(root, &sh, true, 0, moves)
    } else {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        match pool {
            Ok(pool) => {
                let mut results = pool.broadcast(|b| {
                    let r = iterative_deepening(root, &sh, b.index() == 0, b.index(), moves);
                    if b.index() == 0 {
                        sh.abort.store(true, Ordering::Relaxed);
                    }
                    r
                });
                results.swap_remove(0)
            }
            Err(_) => iterative_deepening(root, &sh, true, 0, moves),
        }
    };
    sh.table.keep(ctx);
    result
}

fn iterative_deepening<G: Game>(
    root: &G,
    sh: &Shared,
    main: bool,
    index: usize,
    root_moves: &[G::Move],
) -> Outcome<G::Move> {
    let ctx = sh.ctx;
    let mut w: Worker<G> = Worker::new(sh, main, root);
    let mut all = Vec::new();
    root.legal_moves(&mut all);
    if root_moves.len() < all.len() {
        w.root_only = Some(root_moves.to_vec());
    }
    let max_depth = ctx
        .limits
        .max_depth()
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let multipv = ctx.params.multipv.clamp(1, root_moves.len().max(1));
    let mut best: Option<G::Move> = root_moves.first().copied();
    let mut last_report: Option<Report> = None;
    let mut depth = 1 + (index as u32 % 2).min(max_depth - 1);
    while depth <= max_depth {
        let (mut lines, complete) = w.root_lines(root, depth, multipv, root_moves.len());
        w.first_iteration = false;
        if !complete && lines.is_empty() {
            // Out of time in the first iteration: the best root move searched so far beats
            // an arbitrary one (root moves are tried best-ordered).
            if last_report.is_none() && w.root_excluded.is_empty() {
                best = w.root_best.or(best);
            }
            break;
        }
        if let Some(&m) = w.root_excluded.first() {
            best = Some(m);
            if main && ctx.wants_best() {
                ctx.publish(root.format_move(m));
            }
        }
        // An iteration cut short by time may have fewer lines than asked: keep the previous
        // iteration's other lines after the new ones.
        if !complete {
            keep_previous_lines(&mut lines, last_report.as_ref(), multipv);
        }
        w.flush();
        if main {
            let report = Report {
                depth,
                seldepth: w.seldepth as u32,
                nodes: sh.nodes.load(Ordering::Relaxed),
                elapsed: ctx.start.elapsed(),
                hashfull: sh.table.hashfull(),
                lines,
            };
            ctx.report(&report);
            w.progress = Some(report.clone());
            w.last_print = Instant::now();
            last_report = Some(report);
        }
        if !complete || w.aborted() {
            break;
        }
        if mate_ends_search(ctx, last_report.as_ref()) {
            break;
        }
        // Under a clock, do not start an iteration that will not finish: the next one costs
        // several times this one. `movetime` asks for exactly that long (UCI), and an
        // interrupted iteration still gives its best root move so far.
        if ctx.past_soft() || ctx.next_iteration_too_long() {
            break;
        }
        depth += 1;
    }
    w.flush();
    if main {
        let nodes = sh.nodes.load(Ordering::Relaxed);
        let best_text = best.map(|m| root.format_move(m));
        last_word(
            ctx,
            last_report.as_mut(),
            nodes,
            sh.table.hashfull(),
            w.seldepth as u32,
            best_text,
        );
    }
    Outcome {
        best,
        nodes: sh.nodes.load(Ordering::Relaxed),
        report: last_report,
    }
}

/// Adds the previous iteration's lines (those for other root moves) after the lines of an
/// iteration cut short, up to `multipv`.
fn keep_previous_lines(lines: &mut Vec<Line>, prev: Option<&Report>, multipv: usize) {
    let Some(prev) = prev else { return };
    for l in &prev.lines {
        if lines.len() >= multipv {
            break;
        }
        if !lines.iter().any(|n| n.pv.first() == l.pv.first()) {
            lines.push(l.clone());
        }
    }
}

/// Win/draw/loss per mille for the side to move, from a score: a mate is 1000/0/0 or 0/0/1000;
/// otherwise w = 1000 / (1 + e^((200 − cp) / 100)), l likewise with −cp, d = 1000 − w − l (at
/// 0 cp: 119/762/119; at +100: 269/684/47; at +500: 953/46/1). A fixed model, not fitted to games.
pub fn wdl_of(s: i32) -> (u32, u32, u32) {
    if s > MATE_BOUND {
        return (1000, 0, 0);
    }
    if s < -MATE_BOUND {
        return (0, 0, 1000);
    }
    let f = |cp: f64| 1000.0 / (1.0 + ((200.0 - cp) / 100.0).exp());
    let w = f(s as f64).round() as u32;
    let l = f(-(s as f64)).round() as u32;
    (w, 1000u32.saturating_sub(w + l), l)
}

impl<'a, 'b, G: Game> Worker<'a, 'b, G> {
    fn new(sh: &'b Shared<'a>, main: bool, root: &G) -> Self {
        Worker {
            sh,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            killers: vec![[None, None]; MAX_PLY + QS_MAX + 2],
            history: History::default(),
            quiets: vec![Vec::new(); MAX_PLY + 2],
            prev_score: None,
            selective: sh.ctx.limits.mate.is_none() && !sh.ctx.params.exact,
            exact: sh.ctx.params.exact,
            pruning: Pruning::for_rules(root.tuning_name()),
            pv: vec![Vec::new(); MAX_PLY + QS_MAX + 2],
            bufs: PlyBufs::new(MAX_PLY + QS_MAX + 2),
            root_excluded: Vec::new(),
            root_only: None,
            first_iteration: main,
            root_best: None,
            root_seat: root.to_move(),
            iter_depth: 0,
            main,
            progress: None,
            last_print: Instant::now(),
        }
    }

    /// One iteration at `depth`: up to `multipv` lines, each excluding the root moves of the
    /// lines before it. False with the lines: the search was stopped during the iteration.
    fn root_lines(
        &mut self,
        root: &G,
        depth: u32,
        multipv: usize,
        root_count: usize,
    ) -> (Vec<Line>, bool) {
        let mut lines: Vec<Line> = Vec::new();
        let mut scores: Vec<i32> = Vec::new();
        self.root_excluded.clear();
        self.iter_depth = depth as i32;
        for n in 0..multipv {
            self.seldepth = 0;
            let score = if n == 0 {
                self.aspiration(root, depth)
            } else {
                self.negamax(
                    root,
                    depth as i32,
                    -INF,
                    INF,
                    0,
                    true,
                    self.root_seat,
                    false,
                )
            };
            if self.aborted() {
                // A partial first line still gives a move better than the previous depth's when
                // its first root move was fully searched.
                self.sort_lines(&mut lines, &scores);
                return (lines, false);
            }
            if n == 0 {
                self.prev_score = Some(score);
            }
            let pv = self.pv[0].clone();
            let Some(&first) = pv.first() else { break };
            self.root_excluded.push(first);
            scores.push(score);
            lines.push(Line {
                pv: pv_texts(root, &pv),
                score: score_of(score),
                wdl: self.sh.ctx.params.show_wdl.then(|| wdl_of(score)),
                visits: None,
                reward: None,
            });
            if self.root_excluded.len() >= root_count {
                break;
            }
        }
        self.sort_lines(&mut lines, &scores);
        (lines, true)
    }

    /// Orders an iteration's lines best first, as analysts read them (and as Stockfish sorts
    /// its root moves): a later line, searched with the earlier ones' moves left out and a full
    /// window, can score a little above an earlier one. The best move is then the first line's.
    fn sort_lines(&mut self, lines: &mut Vec<Line>, scores: &[i32]) {
        let mut order: Vec<usize> = (0..lines.len()).collect();
        // Stable: equal scores keep the order they were found in.
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        if order.iter().enumerate().all(|(k, &i)| k == i) {
            return;
        }
        let old = std::mem::take(lines);
        let moves: Vec<G::Move> = order.iter().map(|&i| self.root_excluded[i]).collect();
        let mut old: Vec<Option<Line>> = old.into_iter().map(Some).collect();
        lines.extend(order.iter().filter_map(|&i| old[i].take()));
        self.root_excluded.splice(..moves.len(), moves);
    }

    /// The root search of the first line: a window around the last iteration's score, widened
    /// on the side that fails until the score falls inside it (or the search is stopped).
    fn aspiration(&mut self, root: &G, depth: u32) -> i32 {
        let seat = self.root_seat;
        let full = |w: &mut Self| w.negamax(root, depth as i32, -INF, INF, 0, true, seat, false);
        let Some(centre) = self.prev_score else {
            return full(self);
        };
        if depth < ASPIRATION_DEPTH || centre.abs() >= MATE_BOUND {
            return full(self);
        }
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (centre - delta, centre + delta);
        loop {
            let s = self.negamax(root, depth as i32, alpha, beta, 0, true, seat, false);
            if self.aborted() {
                return s;
            }
            if s <= alpha {
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta = delta.saturating_mul(4);
            if delta > 4000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }
}

impl<G: Game> Worker<'_, '_, G> {
    fn flush(&mut self) {
        self.sh
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The line at `ply` becomes `m` followed by the line found below it.
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Whether the search must unwind now. The first iteration gives way only to `stop`, or to
    /// the clock once a root move has been searched (a depth-1 iteration can take long where
    /// captures abound, as in 3x3 hyperchess, and a clock must not be overrun for it).
    fn aborted(&self) -> bool {
        self.sh.abort.load(Ordering::Relaxed)
            && (!self.first_iteration
                || self.sh.ctx.stopped()
                || (self.root_best.is_some() && self.sh.time_up.load(Ordering::Relaxed)))
    }

    /// Counts a node and checks the limits: `stop` (and a node limit) at every node, the clock
    /// every [`CLOCK_EVERY`] nodes, the other threads' node counts every 1024.
    fn tick(&mut self) {
        self.nodes += 1;
        let ctx = self.sh.ctx;
        // With a node limit, check it at every node, so that `go nodes N` stops at N exactly.
        if let Some(n) = ctx.limits.nodes {
            if self.sh.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed) >= n {
                self.sh.abort.store(true, Ordering::Relaxed);
            }
        }
        if ctx.stopped() {
            self.sh.abort.store(true, Ordering::Relaxed);
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) && ctx.past_hard() {
            self.sh.time_up.store(true, Ordering::Relaxed);
            self.sh.abort.store(true, Ordering::Relaxed);
        }
        if self.nodes & 1023 == 0 {
            self.flush();
            if ctx
                .limits
                .nodes
                .is_some_and(|n| self.sh.nodes.load(Ordering::Relaxed) >= n)
            {
                self.sh.abort.store(true, Ordering::Relaxed);
            }
            if self.main && self.last_print.elapsed().as_millis() >= 1000 {
                self.last_print = Instant::now();
                if let Some(r) = &mut self.progress {
                    r.nodes = self.sh.nodes.load(Ordering::Relaxed);
                    r.elapsed = ctx.start.elapsed();
                    r.hashfull = self.sh.table.hashfull();
                    ctx.report(r);
                }
            }
        }
    }

    /// The score of a finished `g` for `seat`, `ply` plies from the root (None: not finished).
    fn terminal_score(&self, g: &G, ply: usize, seat: Seat) -> Option<i32> {
        match g.status() {
            Status::Ongoing => None,
            Status::Over(o) => Some(terminal_score(o.rewards[seat], 2, ply)),
        }
    }

    /// The table's entry for this position: its move (as an index in `legal_moves` order, so
    /// that a cut needs no move generation), and its score when it is deep enough and its bound
    /// cuts this window (never at the root, which must name a move).
    #[inline]
    fn probe(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> (Option<u16>, Option<i32>) {
        let Some(e) = self.sh.table.probe(key) else {
            return (None, None);
        };
        // Quiescence's entries name no move.
        let index = (e.move_index != NO_MOVE).then_some(e.move_index);
        if ply > 0 && e.depth as i32 >= depth {
            let s = from_tt(e.score, ply, MATE_BOUND);
            if e.bound.settles(s, alpha, beta) {
                return (index, Some(s));
            }
        }
        (index, None)
    }

    /// Stores a node's result. The table keeps the move as its index in `legal_moves` order,
    /// which any visitor of the same position regenerates. MultiPV's later root searches (some
    /// moves excluded) are not stored: their best is not the position's.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(&self, key: u64, best: i32, idx: u16, depth: i32, alpha0: i32, beta: i32, ply: usize) {
        let bound = Bound::of(best, alpha0, beta);
        if ply > 0 || (self.root_excluded.is_empty() && self.root_only.is_none()) {
            self.sh.table.store(
                key,
                Entry {
                    score: to_tt(best, ply, MATE_BOUND),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                    move_index: idx,
                },
            );
        }
    }

    /// The value of `g` for `seat`, the seat to move there (or, for a finished `g`, the seat
    /// its parent chose: see [`child`](Self::child)).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        g: &G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
        seat: Seat,
        cut_node: bool,
    ) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        if let Some(s) = self.terminal_score(g, ply, seat) {
            return s;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return quiesce(self, g, alpha, beta, ply, 0, seat);
        }
        let key = g.hash();
        let pv_node = beta - alpha > 1;
        let (tt_index, cut) = self.probe(key, depth, alpha, beta, ply);
        // Not at a PV node (as Stockfish): the line must go on past it. The table is kept from
        // one search to the next, and a cut there left the next search's PV one move long,
        // with no move to ponder on.
        if let Some(s) = cut.filter(|_| !pv_node && !self.exact) {
            return s;
        }
        let in_check = g.in_check();
        let pruning = self.pruning;
        // The static evaluation, where the rule set's pruning reads it (outside the principal
        // variation; not in check: there it says nothing of the position's worth), asked
        // lazily: a residual net runs only when the hand evaluation and the bounds of its
        // correction cannot answer.
        let mut eval = (self.selective && !pv_node && !in_check && ply > 0 && pruning.wants_eval())
            .then(|| LazyEval::new(g, seat, self.sh.ctx.net));
        // Reverse futility pruning: near the leaves, a position this far above beta is not
        // searched to find that it is.
        if let Some(e) = eval.as_mut() {
            if !pv_node && depth <= pruning.reverse_futility_depth && beta.abs() < MATE_BOUND {
                let t = beta + pruning.reverse_futility * depth;
                let v = e.within(g, t - 1, t);
                if v >= t {
                    return v;
                }
            }
        }
        // Razoring: near the leaves, a position this far below alpha is asked first whether
        // its captures can lift it to alpha; if not, it is not searched further.
        if let Some(e) = eval.as_mut() {
            if depth <= pruning.razoring_depth && alpha.abs() < MATE_BOUND {
                let t = alpha - pruning.razoring * depth;
                if e.within(g, t - 1, t) < t {
                    let v = quiesce(self, g, alpha, alpha + 1, ply, 0, seat);
                    if v <= alpha {
                        return v;
                    }
                }
            }
        }
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower (its ordering is poor; a later visit finds the move the table keeps).
        let depth = if self.selective && pruning.iir && depth >= 4 && tt_index.is_none() {
            depth - 1
        } else {
            depth
        };
        if self.selective
            && !pv_node
            && allow_null
            && ply > 0
            && depth >= 3
            && !in_check
            && beta.abs() < MATE_BOUND
        {
            if let Some(s) = self.null_move_cut(g, depth, beta, ply, seat, eval.as_mut(), cut_node)
            {
                return s;
            }
        }
        let mut moves = std::mem::take(&mut self.bufs.moves[ply]);
        g.legal_moves(&mut moves);
        let tt_move = tt_index.and_then(|i| moves.get(i as usize).copied());
        let mut order = Picker::with_buf(
            std::mem::take(&mut self.bufs.keys[ply]),
            g,
            &moves,
            tt_move,
            self.killers[ply],
            Some((&self.history, seat)),
        );
        let killers = self.killers[ply];
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_index = None;
        let mut searched = 0;
        for i in order.by_ref() {
            let m = moves[i as usize];
            if ply == 0
                && (self.root_excluded.contains(&m)
                    || self.root_only.as_ref().is_some_and(|r| !r.contains(&m)))
            {
                continue;
            }
            let quiet = !g.is_noisy(m)
                && Some(m) != tt_move
                && killers[0] != Some(m)
                && killers[1] != Some(m);
            // Late-move pruning: near the leaves, outside the principal variation, the quiet
            // moves ordered last are not searched once enough moves were (unless they check).
            let prunable = self.selective
                && quiet
                && !pv_node
                && !in_check
                && depth <= 3
                && searched >= late_move_limit(depth)
                && best > -MATE_BOUND;
            // Futility pruning: near the leaves, a quiet move cannot lift a position this far
            // below alpha (unless it checks).
            let futile = quiet
                && !pv_node
                && searched > 0
                && depth <= pruning.futility_depth
                && best > -MATE_BOUND
                && eval.as_mut().is_some_and(|e| {
                    let t = alpha - 60 - pruning.futility * depth;
                    e.within(g, t, t + 1) <= t
                });
            // Near the leaves, a quiet move that loses material on its square by the static
            // exchange (more the deeper the node) is not searched either.
            let exchange_loses = quiet
                && pruning.exchange_quiet > 0
                && self.selective
                && !pv_node
                && !in_check
                && searched > 0
                && depth <= pruning.exchange_depth
                && best > -MATE_BOUND
                && g.exchange(m)
                    .is_some_and(|v| v < -pruning.exchange_quiet * depth * depth);
            let prunable = prunable || futile || exchange_loses;
            if prunable && !G::HAS_CHECK {
                continue;
            }
            let c = self.bufs.states.child(ply + 1, g, m);
            if depth > 1 {
                // The child probes the table once its status is known.
                self.sh.table.prefetch(c.hash());
            }
            let gives_check = G::HAS_CHECK && c.in_check();
            if prunable && !gives_check {
                self.bufs.states.put(ply + 1, c);
                continue;
            }
            // Check extension: a move that checks is searched a ply deeper (never reduced; its
            // history bonus counted from that depth), up to twice the iteration's depth in
            // plies from the root; not in a `go mate` search, which runs without selectivity.
            let extend = gives_check && self.selective && (ply as i32) < 2 * self.iter_depth;
            let depth = depth + extend as i32;
            // The child searched at `d` plies with the window (`a`, `b`), seen from here, and
            // whether it is expected to fail high (`cut`).
            let at = |w: &mut Self, d: i32, a: i32, b: i32, cut: bool| {
                child_score(w, &*c, seat, a, b, |w, a, b, s| {
                    w.negamax(&c, d, a, b, ply + 1, true, s, cut)
                })
            };
            let score = if searched == 0 {
                // The first move of an expected cut node is expected to fail low, and the
                // other way round; in the principal variation, neither.
                at(self, depth - 1, alpha, beta, !pv_node && !cut_node)
            } else {
                // Late-move reductions: a quiet move late in the order is searched shallower
                // with a null window first, and again at full depth only if it beats alpha.
                // At an expected cut node the late moves are expected to fail low: reduced more.
                let r = if self.selective && quiet && !in_check && !gives_check {
                    let cut = if cut_node && depth >= 3 {
                        pruning.cut_node_reduction
                    } else {
                        0
                    };
                    (reduction(depth, searched, pruning.reduction_divisor) - pv_node as i32 + cut)
                        .clamp(0, (depth - 2).max(0))
                } else {
                    0
                };
                // A reduced search expects the move to fail low, so its child to fail high; a
                // search at full depth expects of the child the opposite of this node.
                let mut s = at(self, depth - 1 - r, alpha, alpha + 1, r > 0 || !cut_node);
                if s > alpha && r > 0 {
                    s = at(self, depth - 1, alpha, alpha + 1, !cut_node);
                }
                if s > alpha && s < beta {
                    at(self, depth - 1, alpha, beta, false)
                } else {
                    s
                }
            };
            self.bufs.states.put(ply + 1, c);
            searched += 1;
            if self.aborted() {
                self.bufs.moves[ply] = moves;
                self.quiets[ply] = quiets;
                self.bufs.keys[ply] = order.into_buf();
                return best.max(alpha0);
            }
            if score > best {
                best = score;
                best_index = Some(i);
                if ply == 0 {
                    self.root_best = Some(m);
                    if self.first_iteration && self.sh.ctx.wants_best() {
                        self.sh.ctx.publish(g.format_move(m));
                    }
                }
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                }
            }
            if alpha >= beta {
                store_killer(g, &mut self.killers[ply], m);
                if !g.is_noisy(m) {
                    let bonus = depth * depth * pruning.history_bonus;
                    self.history.update(seat, &m, bonus);
                    for q in &quiets {
                        self.history.update(seat, q, -bonus);
                    }
                }
                break;
            }
            if quiet {
                quiets.push(m);
            }
        }
        if let Some(idx) = best_index {
            self.store(key, best, idx, depth, alpha0, beta, ply);
        }
        self.bufs.moves[ply] = moves;
        self.quiets[ply] = quiets;
        self.bufs.keys[ply] = order.into_buf();
        best
    }

    /// Null-move pruning: when the side to move stands at or above beta, it passes (where the
    /// game allows it) and the opponent gets a reduced search; if even that fails to bring the
    /// score below beta, the node is cut. Returns the score to cut with. The pass's search
    /// expects of its child the opposite of this node (`cut_node`), as Stockfish's does.
    #[allow(clippy::too_many_arguments)]
    fn null_move_cut(
        &mut self,
        g: &G,
        depth: i32,
        beta: i32,
        ply: usize,
        seat: Seat,
        static_eval: Option<&mut LazyEval>,
        cut_node: bool,
    ) -> Option<i32> {
        let eval = match static_eval {
            Some(e) => e.within(g, beta - 1, beta),
            None => window_eval(g, seat, self.sh.ctx.net, beta - 1, beta),
        };
        if eval < beta {
            return None;
        }
        let passed = g.null_move()?;
        let r = if self.pruning.deep_null_move {
            3 + depth / 3 + ((eval - beta) / 200).min(3)
        } else {
            3 + depth / 6
        };
        let s = child_score(self, &passed, seat, beta - 1, beta, |w, a, b, s| {
            w.negamax(&passed, depth - 1 - r, a, b, ply + 1, false, s, !cut_node)
        });
        if self.aborted() || s < beta {
            return None;
        }
        // A mate found after a pass is not proven for the real position.
        Some(if s >= MATE_BOUND { beta } else { s })
    }
}

/// Alpha-beta's quiescence: node counting and stopping, the principal variation and the
/// selective depth, evasions in check, [`QS_MAX`] plies at most and `exact`.
impl<G: Game> Host<G> for Worker<'_, '_, G> {
    const WIDTH: usize = QS_WIDTH;
    const EVASIONS: bool = true;

    fn bufs(&mut self) -> &mut PlyBufs<G> {
        &mut self.bufs
    }

    fn net(&self) -> Option<&Net> {
        self.sh.ctx.net
    }

    fn deepest(&self, ply: usize, qdepth: usize) -> bool {
        qdepth >= QS_MAX || ply >= MAX_PLY + QS_MAX
    }

    fn exact(&self) -> bool {
        self.exact
    }

    /// Clears the node's line, counts it and checks the limits; notes the selective depth.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv[ply].clear();
        self.tick();
        if self.aborted() {
            return true;
        }
        self.seldepth = self.seldepth.max(ply);
        false
    }

    fn stopped(&self) -> bool {
        self.aborted()
    }

    fn raised(&mut self, ply: usize, m: G::Move) {
        self.update_pv(ply, m);
    }

    fn killers(&self, ply: usize) -> KillerPair<G::Move> {
        self.killers[ply]
    }

    /// Where the rule set's pruning says so (`Pruning::quiescence_table`), outside `exact`:
    /// any entry of the position whose bound settles the window, the main search's included.
    fn table_cut(&self, key: u64, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        if !self.pruning.quiescence_table || self.exact {
            return None;
        }
        let e = self.sh.table.probe(key)?;
        let s = from_tt(e.score, ply, MATE_BOUND);
        e.bound.settles(s, alpha, beta).then_some(s)
    }

    /// Stored at depth 0 with no move, unless the main search's entry of the same position is
    /// there (any depth of the main search is worth more).
    fn table_store(&self, key: u64, best: i32, alpha0: i32, beta: i32, ply: usize) {
        if !self.pruning.quiescence_table || self.exact {
            return;
        }
        if self.sh.table.probe(key).is_some_and(|e| e.depth > 0) {
            return;
        }
        self.sh.table.store(
            key,
            Entry {
                score: to_tt(best, ply, MATE_BOUND),
                depth: 0,
                bound: Bound::of(best, alpha0, beta),
                move_index: NO_MOVE,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::deepening::MATE;
    use crate::search::Score;

    #[test]
    fn a_large_evaluation_is_not_a_mate_score() {
        assert_eq!(score_of(45_000), Score::Cp(45_000));
        assert_eq!(score_of(MATE - 1), Score::Mate(1));
        assert_eq!(score_of(-(MATE - 2)), Score::Mate(-1));
    }
}
