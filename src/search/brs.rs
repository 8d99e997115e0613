//! Best-Reply Search for games of perfect information with more than two seats (Schadd & Winands
//! 2011), in the BRS+ form of Esser et al. (2013).
//!
//! The seat to move at the root is the maximising player; between two of its turns, the other
//! seats form one minimising layer in which exactly **one** opponent plays a searched move — the
//! reply that hurts the root player most among all opponents' moves — while every other opponent
//! plays its first move in the static move ordering (BRS+: no illegal "pass", so every position
//! searched can arise in play). A layer counts as one ply of depth, so the root player's own moves
//! are seen deeper than in max^n or paranoid search, and alpha-beta prunes as in a two-player game.
//! On top: iterative deepening, a transposition table (one thread; keyed by the zobrist hash, which
//! includes the seat to move), move ordering (table move, `move_priority`, killers) and a
//! quiescence search on noisy moves. Scores are from the root player's view.
//!
//! That quiescence is not the two-seat searches' (quiesce.rs, negamax for the seat to move): it
//! is the same maximising node and minimising layer as the main search below depth 0 (scores
//! from the root player's view, opponents who may stand pat too and of whom one branches), its
//! moves ordered as the main search's (table move, priorities, killers; no delta pruning), and
//! the root player stands pat even in check.

use super::deepening::{
    bounded_eval, last_word, mate_ends_search, pv_texts, score_of, terminal_score, window_eval,
    States, INF, MATE_BOUND,
};
use super::ordering::{store_killer, Picker};
use super::tt::{from_tt, to_tt, Bound, Entry, Table, NO_MOVE};
use super::{Context, Line, Outcome, Report, CLOCK_EVERY};
use crate::game::{Game, Seat, Status};
use std::time::Instant;

/// Decisive scores beyond this (the deepening module's, shared with alpha-beta).
const WIN_BOUND: i32 = MATE_BOUND;
pub const MAX_PLY: usize = 96;
/// Quiescence layers below the nominal depth, and noisy moves looked at in each.
pub const QS_MAX: i32 = 4;
const QS_WIDTH: usize = 8;

/// Mixed into every key of a search for `root`: scores take the root player's view, and a
/// table kept from a search for another seat ([`Table::keep`]) must not be read for this one.
fn root_salt(root: Seat) -> u64 {
    crate::zobrist::key(0x4252_535F_524F_4F54, root as u64)
}

struct Searcher<'a, G: Game> {
    ctx: &'a Context<'a>,
    /// The root moves to search (`searchmoves`), when not every legal move.
    root_only: Option<Vec<G::Move>>,
    /// Set during the first iteration: only `stop` interrupts it, or the clock once a root move
    /// has been searched (as in alpha-beta), so that every answer comes from a searched move.
    first_iteration: bool,
    table: Table,
    root: Seat,
    /// [`root_salt`] of `root`, mixed into every key of the table.
    salt: u64,
    nodes: u64,
    aborted: bool,
    seldepth: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Principal variation per layer: the moves actually played (defaults included).
    pv: Vec<Vec<G::Move>>,
    /// Moves played so far inside the current minimising layer, per layer.
    path: Vec<Vec<G::Move>>,
    root_best: Option<G::Move>,
    last_print: Instant,
    progress: Option<Report>,
    /// `SearchParams::exact`: no table cutoffs, no quiescence width, default moves by the static
    /// ordering alone (no killers): the result is plain Best-Reply Search's.
    exact: bool,
    /// The child state, the move list and the ordering's keys ([`Picker::with_buf`]) of each
    /// place in the tree ([`slot`]), reused.
    states: States<G>,
    move_bufs: Vec<Vec<G::Move>>,
    key_bufs: Vec<Vec<i64>>,
    /// The move list of `default_move`.
    default_buf: Vec<G::Move>,
}

/// The places a child state or a move list is in use at once: per ply, one per opponent's turn
/// of a minimising layer (they share the layer's ply) and one for a maximising node.
const SLOTS: usize = crate::game::MAX_SEATS + 2;

/// The reused state or move list of turn `turn` of ply `ply`'s layer; `SLOTS - 1` is a
/// maximising node's.
fn slot(ply: usize, turn: usize) -> usize {
    ply * SLOTS + turn.min(SLOTS - 1)
}

/// Runs Best-Reply Search on `root` (one thread, one line), considering the root moves
/// `root_moves` (legal, not empty).
pub fn search<G: Game>(root: &G, ctx: &Context, root_moves: &[G::Move]) -> Outcome<G::Move> {
    let mut all = Vec::new();
    root.legal_moves(&mut all);
    let mut s: Searcher<G> = Searcher {
        ctx,
        root_only: (root_moves.len() < all.len()).then(|| root_moves.to_vec()),
        first_iteration: true,
        // Kept from the last search: filling (and freeing) 64 MB at every move took 20 ms of a
        // 1 s clock's 93 ms move, and delayed `bestmove` after `stop` as long.
        table: Table::kept(ctx).unwrap_or_else(|| Table::new(ctx.params.hash_mb)),
        root: root.to_move(),
        salt: root_salt(root.to_move()),
        nodes: 0,
        aborted: false,
        seldepth: 0,
        killers: vec![[None, None]; MAX_PLY + 2],
        pv: vec![Vec::new(); MAX_PLY + 2],
        path: vec![Vec::new(); MAX_PLY + 2],
        root_best: None,
        last_print: Instant::now(),
        progress: None,
        exact: ctx.params.exact,
        states: States::default(),
        move_bufs: vec![Vec::new(); (MAX_PLY + 2) * SLOTS],
        key_bufs: vec![Vec::new(); (MAX_PLY + 2) * SLOTS],
        default_buf: Vec::new(),
    };
    if ctx.params.threads > 1 {
        ctx.note("brs searches with one thread");
    }
    let mut best = root_moves.first().copied();
    let max_depth = ctx
        .limits
        .max_depth()
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let mut last: Option<Report> = None;
    for depth in 1..=max_depth {
        s.seldepth = 0;
        s.root_best = None;
        let score = s.max_node(root, depth as i32, -INF, INF, 0);
        s.first_iteration = false;
        if s.aborted {
            // The first root move is searched fully before any other: a partial iteration's best
            // so far is at least as good as the previous iteration's choice.
            if let Some(m) = s.root_best.filter(|_| last.is_none()) {
                best = Some(m);
            }
            break;
        }
        let pv = s.pv[0].clone();
        if let Some(&m) = pv.first() {
            best = Some(m);
            if ctx.wants_best() {
                ctx.publish(root.format_move(m));
            }
        }
        let texts = pv_texts(root, &pv);
        let report = Report {
            depth,
            seldepth: s.seldepth as u32,
            nodes: s.nodes,
            elapsed: ctx.start.elapsed(),
            hashfull: s.table.hashfull(),
            lines: vec![Line {
                pv: texts,
                score: score_of(score),
                wdl: None,
                visits: None,
                reward: None,
            }],
        };
        ctx.report(&report);
        s.progress = Some(report.clone());
        last = Some(report);
        if mate_ends_search(ctx, last.as_ref()) {
            break;
        }
        if ctx.past_soft() || ctx.next_iteration_too_long() {
            break;
        }
    }
    let best_text = best.map(|m| root.format_move(m));
    last_word(
        ctx,
        last.as_mut(),
        s.nodes,
        s.table.hashfull(),
        s.seldepth as u32,
        best_text,
    );
    s.table.keep(ctx);
    Outcome {
        best,
        nodes: s.nodes,
        report: last,
    }
}

impl<G: Game> Searcher<'_, G> {
    /// Counts a node: `stop` is looked at every node, the clock every [`CLOCK_EVERY`] nodes (a
    /// threechess node costs microseconds, and a busy machine stretches each of them).
    fn tick(&mut self) {
        self.nodes += 1;
        if !self.first_iteration && self.ctx.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        }
        if self.ctx.stopped() {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            let clocked = !self.first_iteration || self.root_best.is_some();
            if clocked && self.ctx.past_hard() {
                self.aborted = true;
            }
            if self.last_print.elapsed().as_millis() >= 1000 {
                self.last_print = Instant::now();
                if let Some(r) = &mut self.progress {
                    r.nodes = self.nodes;
                    r.elapsed = self.ctx.start.elapsed();
                    self.ctx.report(r);
                }
            }
        }
    }

    fn terminal(&self, g: &G, ply: usize) -> Option<i32> {
        match g.status() {
            Status::Ongoing => None,
            Status::Over(o) => Some(terminal_score(o.rewards[self.root], g.players(), ply)),
        }
    }

    fn eval(&self, g: &G) -> i32 {
        bounded_eval(g, self.root, self.ctx.net)
    }

    /// [`Self::eval`] where only its place against (`alpha`, `beta`) matters (`window_eval`).
    fn eval_within(&self, g: &G, alpha: i32, beta: i32) -> i32 {
        if self.exact {
            self.eval(g)
        } else {
            window_eval(g, self.root, self.ctx.net, alpha, beta)
        }
    }

    /// BRS+'s move for an opponent that does not branch: the first in the static ordering
    /// (highest `move_priority`, then a killer of this layer, then the first generated).
    fn default_move(&mut self, g: &G, ply: usize) -> Option<G::Move> {
        let mut moves = std::mem::take(&mut self.default_buf);
        g.legal_moves(&mut moves);
        let k = self.killers[ply.min(MAX_PLY)];
        let mut best: Option<(i32, G::Move)> = None;
        for &m in &moves {
            let mut p = g.move_priority(m).saturating_mul(4);
            if !self.exact && (k[0] == Some(m) || k[1] == Some(m)) {
                p += 1;
            }
            if best.is_none_or(|(bp, _)| p > bp) {
                best = Some((p, m));
            }
        }
        self.default_buf = moves;
        best.map(|(_, m)| m)
    }

    /// The value of `g` for the root player, whoever is to move.
    fn value(&mut self, g: &G, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(s) = self.terminal(g, ply) {
            self.pv[ply].clear();
            return s;
        }
        if g.to_move() == self.root {
            self.max_node(g, depth, alpha, beta, ply)
        } else {
            self.min_node(g, depth, alpha, beta, ply)
        }
    }

    fn max_node(&mut self, g: &G, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.tick();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.terminal(g, ply) {
            return s;
        }
        let qs = depth <= 0;
        // The root player stands pat in quiescence even in check (unlike alpha-beta): searching
        // every evasion there multiplied BRS's nodes by 4.4 at depth 6 and scored a reward
        // share of 16.7% against two builds without it, at 100 ms a move (44.4% without;
        // 12 games each, docs/results.md).
        let mut stand = -INF;
        if qs || ply >= MAX_PLY {
            stand = self.eval_within(g, alpha, beta);
            if stand >= beta || depth <= -QS_MAX || ply >= MAX_PLY {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let key = g.hash() ^ self.salt;
        let here = slot(ply, SLOTS - 1);
        let mut moves = std::mem::take(&mut self.move_bufs[here]);
        g.legal_moves(&mut moves);
        let mut tt_move = None;
        if let Some(e) = self.table.probe(key) {
            if (e.move_index as usize) < moves.len() {
                tt_move = Some(moves[e.move_index as usize]);
            }
            if ply > 0 && !qs && !self.exact && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply, WIN_BOUND);
                if Self::cuts(e.bound, s, alpha, beta) {
                    self.move_bufs[here] = moves;
                    return s;
                }
            }
        }
        if qs {
            moves.retain(|&m| g.is_noisy(m));
        }
        let keys = std::mem::take(&mut self.key_bufs[here]);
        let killers = self.killers[ply.min(MAX_PLY)];
        let mut order = Picker::with_buf(keys, g, &moves, tt_move, killers, None);
        let alpha0 = alpha;
        let mut best = stand;
        let mut best_index = None;
        let width = if qs && !self.exact {
            QS_WIDTH
        } else {
            usize::MAX
        };
        for i in order.by_ref().take(width) {
            let m = moves[i as usize];
            if ply == 0 && self.root_only.as_ref().is_some_and(|r| !r.contains(&m)) {
                continue;
            }
            let c = self.states.child(here, g, m);
            let v = self.value(&c, depth - 1, alpha, beta, ply + 1);
            self.states.put(here, c);
            if self.aborted {
                self.move_bufs[here] = moves;
                self.key_bufs[here] = order.into_buf();
                return best.max(alpha0);
            }
            if v > best {
                best = v;
                best_index = Some(i);
                if ply == 0 {
                    self.root_best = Some(m);
                    if self.first_iteration && self.ctx.wants_best() {
                        self.ctx.publish(g.format_move(m));
                    }
                }
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                store_killer(g, &mut self.killers[ply.min(MAX_PLY)], m);
                break;
            }
        }
        if !qs && (ply > 0 || self.root_only.is_none()) {
            let bound = Bound::of(best, alpha0, beta);
            self.table.store(
                key,
                Entry {
                    score: to_tt(best, ply, WIN_BOUND),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                    move_index: best_index.unwrap_or(NO_MOVE),
                },
            );
        }
        self.move_bufs[here] = moves;
        self.key_bufs[here] = order.into_buf();
        best
    }

    /// Whether a table entry ends the search of a node: when it settles the node's value, but
    /// not with an exact score inside the window. Such a value becomes part of the principal
    /// variation, which must go on past the node (as alpha-beta skips table cuts at PV nodes,
    /// and Stockfish does): the table is kept from one search to the next, and the same `go`
    /// twice answered with a one-move PV and no move to ponder on.
    fn cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
        bound.settles(s, alpha, beta) && !(bound == Bound::Exact && alpha < s && s < beta)
    }

    /// A minimising layer: the opponents of the root player move until its turn comes back, one
    /// of them searching all its moves (only noisy ones in quiescence), the others playing their
    /// default move.
    fn min_node(&mut self, g: &G, depth: i32, alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.tick();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let qs = depth <= 0;
        let mut stand = INF;
        if qs || ply >= MAX_PLY {
            // The opponents may also leave things as they are.
            stand = self.eval_within(g, alpha, beta);
            if stand <= alpha || depth <= -QS_MAX || ply >= MAX_PLY {
                return stand;
            }
            beta = beta.min(stand);
        }
        let key = g.hash() ^ self.salt;
        let mut tt_index = None;
        if !qs {
            if let Some(e) = self.table.probe(key) {
                if e.move_index != NO_MOVE {
                    tt_index = Some(e.move_index as usize);
                }
                if !self.exact && e.depth as i32 >= depth {
                    let s = from_tt(e.score, ply, WIN_BOUND);
                    if Self::cuts(e.bound, s, alpha, beta) {
                        return s;
                    }
                }
            }
        }
        self.path[ply].clear();
        let (v, first_index) = self.layer(g, depth, alpha, beta, ply, false, tt_index, 0);
        let best = v.min(stand);
        if self.aborted {
            return best;
        }
        if !qs {
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.store(
                key,
                Entry {
                    score: to_tt(best, ply, WIN_BOUND),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                    move_index: first_index.map_or(NO_MOVE, |i| i as u16),
                },
            );
        }
        best
    }

    /// One opponent's turn inside a minimising layer. `branched`: an earlier opponent of this
    /// layer already searched its moves (so this one plays its default). Returns the layer's value
    /// from here and, at the layer's first turn, the index of the best move if this turn branched.
    #[allow(clippy::too_many_arguments)]
    fn layer(
        &mut self,
        g: &G,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
        branched: bool,
        tt_index: Option<usize>,
        turn: usize,
    ) -> (i32, Option<usize>) {
        let qs = depth <= 0;
        // A seat that never gets the turn back (its player dead): judge the position statically.
        if turn > g.players() {
            return (self.eval(g), None);
        }
        if branched {
            let Some(d) = self.default_move(g, ply) else {
                return (self.eval(g), None);
            };
            let here = slot(ply, turn);
            let c = self.states.child(here, g, d);
            self.path[ply].push(d);
            let v = self.after(&c, depth, alpha, beta, ply, turn);
            self.path[ply].pop();
            self.states.put(here, c);
            return (v, None);
        }
        let here = slot(ply, turn);
        let mut moves = std::mem::take(&mut self.move_bufs[here]);
        g.legal_moves(&mut moves);
        let tt = tt_index.filter(|&i| i < moves.len()).map(|i| moves[i]);
        let keys = std::mem::take(&mut self.key_bufs[here]);
        let killers = self.killers[ply.min(MAX_PLY)];
        let mut order = Picker::with_buf(keys, g, &moves, tt, killers, None);
        let width = if qs && !self.exact {
            QS_WIDTH
        } else {
            usize::MAX
        };
        let mut best = INF;
        let mut best_index = None;
        // In quiescence, only the noisy moves (the first `width` of them).
        let noisy = |&i: &u16| !qs || g.is_noisy(moves[i as usize]);
        for i in order.by_ref().filter(noisy).take(width) {
            let m = moves[i as usize];
            let c = self.states.child(here, g, m);
            self.path[ply].push(m);
            let v = self.after(&c, depth, alpha, beta, ply, turn);
            self.path[ply].pop();
            self.states.put(here, c);
            if self.aborted {
                self.move_bufs[here] = moves;
                self.key_bufs[here] = order.into_buf();
                return (best, best_index);
            }
            if v < best {
                best = v;
                best_index = Some(i as usize);
                beta = beta.min(v);
            }
            if best <= alpha {
                store_killer(g, &mut self.killers[ply.min(MAX_PLY)], m);
                self.move_bufs[here] = moves;
                self.key_bufs[here] = order.into_buf();
                return (best, best_index);
            }
        }
        self.move_bufs[here] = moves;
        self.key_bufs[here] = order.into_buf();
        // Or this opponent plays its default move and a later one of the layer branches.
        if let Some(d) = self.default_move(g, ply) {
            let c = self.states.child(here, g, d);
            if !c.status().is_over() && c.to_move() != self.root {
                self.path[ply].push(d);
                let (v, _) = self.layer(&c, depth, alpha, beta, ply, false, None, turn + 1);
                self.path[ply].pop();
                if v < best {
                    best = v;
                    best_index = None;
                    // The line was recorded by the deeper turn.
                }
            }
            self.states.put(here, c);
        }
        (best, best_index)
    }

    /// After a move inside a minimising layer: the next opponent's turn, or the root player's.
    fn after(&mut self, c: &G, depth: i32, alpha: i32, beta: i32, ply: usize, turn: usize) -> i32 {
        let v = if c.status().is_over() || c.to_move() == self.root {
            self.value(c, depth - 1, alpha, beta, ply + 1)
        } else {
            return self
                .layer(c, depth, alpha, beta, ply, true, None, turn + 1)
                .0;
        };
        // Record this layer's line when it is the best so far (the caller decides by value; a
        // line is kept for the layer whenever it lowers the bound, as a PV is for a max node).
        if v < beta && v > alpha {
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clear();
            head[ply].extend_from_slice(&self.path[ply]);
            head[ply].extend_from_slice(&tail[0]);
        }
        v
    }
}
