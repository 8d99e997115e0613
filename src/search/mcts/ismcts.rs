//! Hidden information (single-observer ISMCTS): children added as determinizations reveal
//! moves, and the root candidates reported with their availability.

use super::report::ranked;
use super::tree::Tree;
use super::Shared;
use crate::game::Game;
use crate::search::Event;
use fxhash::FxHashSet;
use std::sync::atomic::Ordering;

/// ISMCTS: adds a child for every move of `moves` (legal in this determinization) that `node`
/// lacks, highest `move_priority` first in the list. Waits for the node's flag. `own_all`:
/// the thread's count of all-available visits not yet added to the node's (the root's).
pub(super) fn add_missing_children<G: Game>(
    tree: &Tree<G::Move>,
    node: u32,
    state: &G,
    moves: &[G::Move],
    own_all: u32,
) {
    let nd = &tree.node(node);
    while !nd.try_lock() {
        std::hint::spin_loop();
    }
    let existing: FxHashSet<G::Move> = tree
        .children(node)
        .filter_map(|c| tree.node(c).mv())
        .collect();
    let mut missing: Vec<(i32, G::Move)> = moves
        .iter()
        .filter(|m| !existing.contains(m))
        .map(|&m| (state.move_priority(m), m))
        .collect();
    // Reserve every slot at once; when the arena runs short, the highest-priority moves get
    // the slots there are. Linking prepends, so link the lowest priority first.
    missing.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
    let slots = tree.alloc_many(missing.len());
    let mover = state.to_move() as u8;
    let base = nd.all_available.load(Ordering::Relaxed) + own_all;
    for (k, &(_, m)) in missing[..slots.len()].iter().enumerate().rev() {
        let ch = slots.start + k;
        tree.init(ch, Some(m), mover, base);
        tree.link(node, ch as u32);
    }
    nd.unlock();
}

/// ISMCTS: one `info string` line per root candidate with visits, availability and mean reward.
pub(super) fn candidates<G: Game>(sh: &Shared<G>) {
    let tree = &sh.tree;
    for ch in ranked(tree) {
        let n = &tree.node(ch);
        if let Some(m) = n.mv() {
            (sh.ctx.events)(Event::Candidate {
                mv: &sh.root.format_move(m),
                visits: n.visits.load(Ordering::Relaxed) as u64,
                availability: n.availability(tree.node(0)),
                reward: n.mean(),
            });
        }
    }
}
