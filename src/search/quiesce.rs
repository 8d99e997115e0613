//! The quiescence search of the two-seat searches: alpha-beta's below its nominal depth and MCTS's
//! leaf search (`LeafSearch`). Fail-soft negamax over the game's noisy moves: the evaluation
//! stands unless one of the [`Host::WIDTH`] best noisy moves (`quiescence_order`: captures that
//! likely lose material left out, where the game says) does better; delta pruning skips the
//! moves that cannot lift the score to alpha even with a margin. What each caller adds goes
//! through [`Host`]: alpha-beta counts nodes and can be stopped, collects the principal
//! variation and the selective depth, searches every evasion in check, and can turn pruning off
//! (`SearchParams::exact`); the leaf search does none of this and stops at its own depth.
//!
//! Best-Reply Search's quiescence (brs.rs) is not this one: three seats, scores from the root
//! player's view (a maximising node and a minimising layer of opponents, not negamax), ordered
//! like its main search with the table move and killers, and part of the same node functions.

use super::deepening::{bounded_eval, terminal_score, window_eval, States, INF};
use super::ordering::{quiescence_order, KillerPair, Picker, QsMove};
use super::DELTA_MARGIN;
use crate::game::{Game, Seat, Status};
use crate::learn::net::Net;

/// The reused lists and child state of each ply of a depth-first search (alpha-beta shares them
/// between its main search and its quiescence): the move list, the ordering's keys
/// ([`Picker::with_buf`]), quiescence's ordered noisy moves with their gains, and the child
/// state ([`States`]).
pub struct PlyBufs<G: Game> {
    pub moves: Vec<Vec<G::Move>>,
    pub keys: Vec<Vec<i64>>,
    pub noisy: Vec<Vec<QsMove<G::Move>>>,
    pub states: States<G>,
}

impl<G: Game> PlyBufs<G> {
    /// Lists for plies `0..plies` (allocated as they are first used).
    pub fn new(plies: usize) -> Self {
        PlyBufs {
            moves: vec![Vec::new(); plies],
            keys: vec![Vec::new(); plies],
            noisy: vec![Vec::new(); plies],
            states: States::default(),
        }
    }
}

/// What a caller of [`quiesce`] adds to it. The default methods are the leaf search's: no node
/// counting, no stopping, no principal variation.
pub trait Host<G: Game> {
    /// Noisy moves a node looks at, best first.
    const WIDTH: usize;
    /// Whether a node in check (games with check) searches every legal move instead of standing
    /// pat, as in chess engines: the side to move may not leave things as they are.
    const EVASIONS: bool;

    fn bufs(&mut self) -> &mut PlyBufs<G>;

    /// The learned evaluation, if any (`Eval net`).
    fn net(&self) -> Option<&Net>;

    /// Whether a node `qdepth` plies into quiescence, `ply` plies from the root of the search,
    /// stands pat without searching further.
    fn deepest(&self, ply: usize, qdepth: usize) -> bool;

    /// `SearchParams::exact`: no delta pruning, no lazy evaluation (the width stays).
    fn exact(&self) -> bool {
        false
    }

    /// Called on entering a node (as [`quiesce`]'s first step): true when the search must
    /// unwind now (the node's score does not count then).
    fn enter(&mut self, _ply: usize) -> bool {
        false
    }

    /// Whether the search was stopped (looked at after each child).
    fn stopped(&self) -> bool {
        false
    }

    /// Move `m` raised alpha at `ply`: the line there becomes `m` and the line below it.
    fn raised(&mut self, _ply: usize, _m: G::Move) {}

    /// The killer moves of `ply`, for the order of evasions.
    fn killers(&self, _ply: usize) -> KillerPair<G::Move> {
        [None, None]
    }

    /// The score the transposition table gives the node of `key` if it settles the window
    /// (`alpha`, `beta`) (hosts without a table for quiescence: never).
    fn table_cut(&self, _key: u64, _alpha: i32, _beta: i32, _ply: usize) -> Option<i32> {
        None
    }

    /// Keeps a node's result in the table (`alpha0` as on entry), where the host has one for
    /// quiescence.
    fn table_store(&self, _key: u64, _best: i32, _alpha0: i32, _beta: i32, _ply: usize) {}
}

/// The score of the child `c` of a node whose score is `seat`'s, seen by `seat`, searched with
/// `seat`'s window (`alpha`, `beta`) by `search` (given the child's own seat and window). The
/// seats need not alternate (the `Game` trait does not promise it): the child's score is negated
/// only when the other seat moves there. A finished child's `to_move` is any seat (the trait
/// leaves it open; rithmomachia leaves the winner there), which does no harm: a result scores
/// the same for one seat as negated for the other. (Asking `status` here instead would cost a
/// legal-move test at every node.)
pub fn child_score<G: Game, S: ?Sized>(
    searcher: &mut S,
    c: &G,
    seat: Seat,
    alpha: i32,
    beta: i32,
    search: impl FnOnce(&mut S, i32, i32, Seat) -> i32,
) -> i32 {
    let own = match c.to_move() {
        s @ (0 | 1) => s,
        _ => 1 - seat,
    };
    if own == seat {
        search(searcher, alpha, beta, own)
    } else {
        -search(searcher, -beta, -alpha, own)
    }
}

/// The value of `g` for `seat`, the seat to move there (or, for a finished `g`, the seat its
/// parent chose: see [`child_score`]), once its noisy moves are played out (or, in check with
/// [`Host::EVASIONS`], its evasions), `qdepth` plies into quiescence and `ply` from the root of
/// the search (which a won or lost score counts). Evaluations are kept below the won and lost
/// scores (`bounded_eval`), so that a win found here outranks any material lead.
pub fn quiesce<G: Game, H: Host<G>>(
    h: &mut H,
    g: &G,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    qdepth: usize,
    seat: Seat,
) -> i32 {
    if h.enter(ply) {
        return 0;
    }
    if let Status::Over(o) = g.status() {
        return terminal_score(o.rewards[seat], 2, ply);
    }
    let key = g.hash();
    if let Some(s) = h.table_cut(key, alpha, beta, ply) {
        return s;
    }
    let alpha0 = alpha;
    let stand = if h.exact() {
        bounded_eval(g, seat, h.net())
    } else {
        window_eval(g, seat, h.net(), alpha, beta)
    };
    if h.deepest(ply, qdepth) {
        return stand;
    }
    if H::EVASIONS && G::HAS_CHECK && g.in_check() {
        let best = evasions(h, g, alpha, beta, ply, qdepth, seat);
        if !h.stopped() {
            h.table_store(key, best, alpha0, beta, ply);
        }
        return best;
    }
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let bufs = h.bufs();
    let mut moves = std::mem::take(&mut bufs.moves[ply]);
    let mut noisy = std::mem::take(&mut bufs.noisy[ply]);
    g.noisy_moves(&mut moves);
    // Captures that likely lose material are left out, and those that cannot lift the score to
    // alpha even with a margin are skipped (where the game gives the hints: in hyperchess the
    // leaf search became 3.3 times faster in a crowded middlegame). Priorities are computed once
    // into a reused list: no allocation at each node.
    quiescence_order(g, &moves, &mut noisy);
    let prune = !h.exact();
    let mut best = stand;
    for &(_, gain, m) in noisy.iter().take(H::WIDTH) {
        if prune && gain.is_some_and(|gain| stand + gain + DELTA_MARGIN < alpha) {
            continue;
        }
        if search_move(h, g, m, (&mut best, &mut alpha), beta, (ply, qdepth), seat) {
            break;
        }
    }
    let bufs = h.bufs();
    bufs.moves[ply] = moves;
    bufs.noisy[ply] = noisy;
    if !h.stopped() {
        h.table_store(key, best, alpha0, beta, ply);
    }
    best
}

/// Searches move `m` of `g` in quiescence and folds its score into `best` and `alpha` (and the
/// line): true when the node is done (a cutoff, or the search was stopped).
fn search_move<G: Game, H: Host<G>>(
    h: &mut H,
    g: &G,
    m: G::Move,
    (best, alpha): (&mut i32, &mut i32),
    beta: i32,
    (ply, qdepth): (usize, usize),
    seat: Seat,
) -> bool {
    let c = h.bufs().states.child(ply + 1, g, m);
    let s = child_score(h, &*c, seat, *alpha, beta, |h, a, b, s| {
        quiesce(h, &*c, a, b, ply + 1, qdepth + 1, s)
    });
    h.bufs().states.put(ply + 1, c);
    if h.stopped() {
        return true;
    }
    if s > *best {
        *best = s;
        if s > *alpha {
            *alpha = s;
            h.raised(ply, m);
        }
    }
    *alpha >= beta
}

/// Quiescence in check: no standing pat; every legal move is searched, best ordered first
/// (killers of the ply included). (No legal move would have ended the game.)
fn evasions<G: Game, H: Host<G>>(
    h: &mut H,
    g: &G,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    qdepth: usize,
    seat: Seat,
) -> i32 {
    let killers = h.killers(ply);
    let bufs = h.bufs();
    let mut moves = std::mem::take(&mut bufs.moves[ply]);
    let keys = std::mem::take(&mut bufs.keys[ply]);
    g.legal_moves(&mut moves);
    let mut order = Picker::with_buf(keys, g, &moves, None, killers, None);
    let mut best = -INF;
    for i in order.by_ref() {
        let m = moves[i as usize];
        if search_move(h, g, m, (&mut best, &mut alpha), beta, (ply, qdepth), seat) {
            break;
        }
    }
    let bufs = h.bufs();
    bufs.moves[ply] = moves;
    bufs.keys[ply] = order.into_buf();
    best
}
