//! After a descent: MCTS-solver proofs (and the decisive moves marked at expansion) and the
//! implicit minimax backup of the evaluation, for two seats with perfect information.

use super::tree::{Tree, LOSS, UNPROVEN, WIN};
use crate::game::{Game, Status};
use std::sync::atomic::Ordering;

/// MCTS-solver, at a node's expansion: a noisy move that wins on the spot (the game's captures
/// and the like, which is where immediate wins are: taking the Tesseract, the capture that
/// completes a victory) proves the node lost for the side that moved into it.
pub(super) fn mark_decisive<G: Game>(
    tree: &Tree<G::Move>,
    node: u32,
    state: &G,
    buf: &mut Vec<G::Move>,
) {
    let me = state.to_move();
    state.noisy_moves(buf);
    let Some(&win) = buf.iter().find(|&&m| {
        let mut s = state.clone();
        s.play(m);
        matches!(s.status(), Status::Over(o) if o.winner() == Some(me))
    }) else {
        return;
    };
    if let Some(c) = tree
        .children(node)
        .find(|&c| tree.node(c).mv() == Some(win))
    {
        tree.node(c).proven.store(WIN, Ordering::Relaxed);
    }
    if node != 0 {
        tree.node(node).proven.store(LOSS, Ordering::Relaxed);
    }
}

/// MCTS-solver, after a descent: from the leaf up, a node is lost for its mover when the side
/// to move there has a proven win, and won when every move there is a proven loss.
pub(super) fn solve_path<M: Copy>(tree: &Tree<M>, path: &[u32]) {
    for &n in path.iter().skip(1).rev() {
        let nd = tree.node(n);
        if nd.proven() != UNPROVEN {
            continue;
        }
        if !nd.expanded.load(Ordering::Acquire) {
            break;
        }
        let (mut any, mut all_lost, mut won) = (false, true, false);
        for c in tree.children(n) {
            any = true;
            match tree.node(c).proven() {
                WIN => won = true,
                LOSS => {}
                _ => all_lost = false,
            }
        }
        if won {
            nd.proven.store(LOSS, Ordering::Relaxed);
        } else if any && all_lost && nd.complete() && !tree.is_full() {
            nd.proven.store(WIN, Ordering::Relaxed);
        } else {
            break;
        }
    }
}

/// Implicit minimax backup: the leaf takes its own score, then each node up the path takes the
/// best value among its scored children (seen from its own mover), until one does not change.
pub(super) fn back_up_value<M: Copy>(tree: &Tree<M>, path: &[u32], leaf: f32) {
    let (&last, above) = path.split_last().expect("a path holds the root");
    tree.node(last)
        .value
        .store(leaf.to_bits(), Ordering::Relaxed);
    for &n in above.iter().skip(1).rev() {
        let nd = tree.node(n);
        let mut best: Option<(f32, usize)> = None;
        for c in tree.children(n) {
            let cn = tree.node(c);
            if let Some(v) = cn.value() {
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, cn.mover()));
                }
            }
        }
        let Some((b, child_mover)) = best else { break };
        let v = if child_mover == nd.mover() {
            b
        } else {
            1.0 - b
        };
        if nd.value.swap(v.to_bits(), Ordering::Relaxed) == v.to_bits() {
            break;
        }
    }
}

/// Whether a root move is proven to win, or every root move proven to lose.
pub(super) fn root_decided<M: Copy>(tree: &Tree<M>) -> bool {
    let mut all_lost = true;
    for c in tree.children(0) {
        match tree.node(c).proven() {
            WIN => return true,
            LOSS => {}
            _ => all_lost = false,
        }
    }
    all_lost && tree.node(0).complete() && !tree.is_full()
}
