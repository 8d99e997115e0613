//! Scoring a new leaf: a cut-off rollout, or a short captures-only search (`LeafSearch`).

use crate::game::{Game, GameRng, Seat, Status};
use crate::learn::net::Net;
use crate::search::deepening::{terminal_score, window_eval};
use crate::search::Valuer;

/// Scores a new leaf: `plies` rollout moves (random unless the game has a policy), then the
/// real result or the evaluation.
pub(super) fn rollout<G: Game>(
    state: &mut G,
    plies: usize,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
    valuer: Valuer,
) -> [f32; crate::game::MAX_SEATS] {
    crate::game::playout(state, rng, plies, buf, G::rollout_move);
    match state.status() {
        Status::Over(o) => o.rewards,
        Status::Ongoing => valuer.rewards(state),
    }
}

/// Scores a new leaf by a captures-only search (`LeafSearch`): the rewards of the evaluation
/// once the exchanges that the leaf's position holds are played out, `plies` deep at most.
pub(super) fn quiescence_rewards<G: Game>(
    state: &G,
    plies: usize,
    bufs: &mut [QsBuf<G::Move>],
    valuer: Valuer,
) -> [f32; crate::game::MAX_SEATS] {
    let stm = state.to_move();
    let v = quiescence(state, -QS_INF, QS_INF, plies, 0, stm, bufs, valuer.net);
    let p = valuer.probability(v);
    let mut r = [0.0; crate::game::MAX_SEATS];
    r[stm] = p;
    r[1 - stm] = 1.0 - p;
    r
}

/// One ply's lists of [`quiescence`]: the noisy moves, and the same keyed by priority (with
/// the most each gains, where the game says).
pub(super) type QsBuf<M> = (Vec<M>, Vec<crate::search::ordering::QsMove<M>>);

/// Bound of [`quiescence`]'s window, beyond any evaluation and the won or lost score.
pub(super) const QS_INF: i32 = 2_000_000;
/// Noisy moves tried at each node of [`quiescence`], best `move_priority` first.
pub(super) const QS_WIDTH: usize = 8;

/// Fail-soft negamax over noisy moves for two seats, from the view of `seat` (the side to move),
/// `ply` plies below the leaf: the evaluation (`net`'s, or the hand one)
/// stands unless a capture (or the like) does better. Scores as alpha-beta's: evaluations kept
/// below the won and lost scores, so that a win found here outranks any material lead.
// (The window, the depths and the seat are the recursion's own; the buffers and the net are
// the leaf's: a struct for two of eight would only hide them.)
#[allow(clippy::too_many_arguments)]
pub(super) fn quiescence<G: Game>(
    g: &G,
    mut alpha: i32,
    beta: i32,
    plies: usize,
    ply: usize,
    seat: Seat,
    bufs: &mut [QsBuf<G::Move>],
    net: Option<&Net>,
) -> i32 {
    if let Status::Over(o) = g.status() {
        return terminal_score(o.rewards[seat], 2, ply);
    }
    let stand = window_eval(g, seat, net, alpha, beta);
    if stand >= beta || plies == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let Some(((moves, keyed), rest)) = bufs.split_first_mut() else {
        return stand;
    };
    g.noisy_moves(moves);
    // Priorities computed once into a reused list: no allocation at each leaf node. As in
    // alpha-beta's quiescence, captures that likely lose material are left out, and those that
    // cannot lift the score to alpha even with a margin are skipped (where the game gives the
    // hints: hyperchess, where it made this search 3.3 times faster in a crowded middlegame).
    crate::search::ordering::quiescence_order(g, moves, keyed);
    let mut best = stand;
    for &(_, gain, m) in keyed.iter().take(QS_WIDTH) {
        if gain.is_some_and(|gain| stand + gain + crate::search::DELTA_MARGIN < alpha) {
            continue;
        }
        let mut c = g.clone();
        c.play(m);
        // Seats need not alternate (a finished child's seat, which the trait leaves open, does
        // not matter: a result scores the same for one seat as negated for the other).
        let own = match c.to_move() {
            s @ (0 | 1) => s,
            _ => 1 - seat,
        };
        let s = if own == seat {
            quiescence(&c, alpha, beta, plies - 1, ply + 1, own, rest, net)
        } else {
            -quiescence(&c, -beta, -alpha, plies - 1, ply + 1, own, rest, net)
        };
        if s > best {
            best = s;
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}
