//! Scoring a new leaf: a cut-off rollout, or a short captures-only search (`LeafSearch`).

use crate::game::{Game, GameRng, Status};
use crate::learn::net::Net;
use crate::search::deepening::INF;
use crate::search::quiesce::{quiesce, Host, PlyBufs};
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
    let plies = state.rollout_plies(plies);
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
    bufs: &mut PlyBufs<G>,
    valuer: Valuer,
) -> [f32; crate::game::MAX_SEATS] {
    let stm = state.to_move();
    let p = valuer.probability(leaf_value(state, plies, bufs, valuer.net));
    let mut r = [0.0; crate::game::MAX_SEATS];
    r[stm] = p;
    r[1 - stm] = 1.0 - p;
    r
}

/// The leaf search's value of `state` for its side to move: the shared quiescence
/// ([`quiesce`]) with [`QS_WIDTH`] moves a node, `plies` deep at most, with the evaluation
/// (`net`'s, or the hand one). `bufs` needs `plies + 1` plies.
pub(super) fn leaf_value<G: Game>(
    state: &G,
    plies: usize,
    bufs: &mut PlyBufs<G>,
    net: Option<&Net>,
) -> i32 {
    let mut leaf = Leaf { bufs, net, plies };
    quiesce(&mut leaf, state, -INF, INF, 0, 0, state.to_move())
}

/// Noisy moves tried at each node of the leaf search, best `move_priority` first.
pub(super) const QS_WIDTH: usize = 8;

/// The leaf search's side of [`quiesce`]: its depth and net, and nothing else (no node count,
/// no stopping, no line; standing pat in check).
struct Leaf<'a, G: Game> {
    bufs: &'a mut PlyBufs<G>,
    net: Option<&'a Net>,
    plies: usize,
}

impl<G: Game> Host<G> for Leaf<'_, G> {
    const WIDTH: usize = QS_WIDTH;
    const EVASIONS: bool = false;

    fn bufs(&mut self) -> &mut PlyBufs<G> {
        self.bufs
    }

    fn net(&self) -> Option<&Net> {
        self.net
    }

    fn deepest(&self, _ply: usize, qdepth: usize) -> bool {
        qdepth >= self.plies
    }
}
