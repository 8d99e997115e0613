//! The root's ranking, the best move and the report of lines.

use super::tree::{Node, Tree, LOSS, WIN};
use super::Shared;
use crate::game::{Game, Status};
use crate::search::{Line, Report, Score};
use std::sync::atomic::Ordering;

/// The most visited root child (the same tie-break as the reported lines).
pub(super) fn best_child<M: Copy>(tree: &Tree<M>) -> Option<u32> {
    ranked(tree).first().copied()
}

/// Root children sorted by visits, most first.
pub(super) fn ranked<M: Copy>(tree: &Tree<M>) -> Vec<u32> {
    // Proven wins first and proven losses last, then by visits, then by mean reward. The keys
    // are read once: other threads go on updating the counts, and a sort whose comparisons
    // change under it is not a total order (the standard sort may panic on one).
    let class = |n: &Node<M>| match n.proven() {
        WIN => 2u8,
        LOSS => 0,
        _ => 1,
    };
    let mut keyed: Vec<(u8, u32, f64, u32)> = tree
        .children(0)
        .map(|c| {
            let n = tree.node(c);
            (class(n), n.visits.load(Ordering::Relaxed), n.mean(), c)
        })
        .collect();
    keyed.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then(b.2.total_cmp(&a.2)));
    keyed.into_iter().map(|k| k.3).collect()
}

/// The report; `first`, when given, is listed as the best line (an immediate win).
pub(super) fn report<G: Game>(sh: &Shared<G>, first: Option<G::Move>) -> Report {
    let tree = &sh.tree;
    let iterations = sh.iterations.load(Ordering::Relaxed);
    let mut lines = Vec::new();
    let mut order = ranked(tree);
    if let Some(pos) = first.and_then(|m| order.iter().position(|&c| tree.node(c).mv() == Some(m)))
    {
        let c = order.remove(pos);
        order.insert(0, c);
    }
    for &ch in order.iter().take(sh.ctx.params.multipv.max(1)) {
        let cn = &tree.node(ch);
        if cn.visits.load(Ordering::Relaxed) == 0 && !lines.is_empty() {
            break;
        }
        // Principal variation: follow the most-visited child while the state can format moves.
        let mut pv = Vec::new();
        let mut state = sh.root.clone();
        let mut n = ch;
        loop {
            let nd = &tree.node(n);
            let Some(m) = nd.mv() else { break };
            pv.push(state.format_move(m));
            if G::hidden_information() || pv.len() >= 64 {
                break;
            }
            state.play(m);
            let next = tree
                .children(n)
                .max_by_key(|&c| tree.node(c).visits.load(Ordering::Relaxed))
                .filter(|&c| tree.node(c).visits.load(Ordering::Relaxed) > 0);
            match next {
                Some(c) => n = c,
                None => break,
            }
        }
        let p = cn.mean() as f32;
        let score = match terminal_score(sh.root, cn) {
            Some(s) => s,
            None => Score::Cp(sh.valuer.centipawns(p)),
        };
        lines.push(Line {
            pv,
            score,
            wdl: None,
            visits: Some(cn.visits.load(Ordering::Relaxed) as u64),
            reward: Some(cn.mean()),
        });
    }
    let depth = sh
        .depth_sum
        .load(Ordering::Relaxed)
        .checked_div(iterations)
        .unwrap_or(0) as u32;
    Report {
        depth,
        seldepth: sh.seldepth.load(Ordering::Relaxed),
        nodes: iterations,
        elapsed: sh.ctx.start.elapsed(),
        hashfull: tree.hashfull(),
        lines,
    }
}

/// A root move that ends the game at once is reported as mate 1 (win) / mate -1 (loss).
pub(super) fn terminal_score<G: Game>(root: &G, node: &Node<G::Move>) -> Option<Score> {
    let m = node.mv()?;
    let mut s = root.clone();
    if G::hidden_information() {
        return None;
    }
    s.play(m);
    match s.status() {
        Status::Over(o) if o.winner() == Some(root.to_move()) => Some(Score::Mate(1)),
        _ => None,
    }
}
