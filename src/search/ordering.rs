//! Move ordering shared by the alpha-beta searches (alpha-beta and Best-Reply Search): the table
//! move first, then noisy moves by the game's `move_priority`, then the two killer moves of the
//! ply (quiet moves that caused a cutoff at this ply elsewhere in the tree), then the rest in
//! generation order.

use crate::game::Game;

/// The two killer moves of one ply, most recent first.
pub type KillerPair<M> = [Option<M>; 2];

/// Remembers `m` as a killer of its ply if it is quiet (noisy moves are ordered by priority
/// anyway) and not already the first killer.
pub fn store_killer<G: Game>(g: &G, killers: &mut KillerPair<G::Move>, m: G::Move) {
    if !g.is_noisy(m) && killers[0] != Some(m) {
        killers[1] = killers[0];
        killers[0] = Some(m);
    }
}

/// Indices into `moves`, best first: the table move, then moves with a positive
/// `move_priority` (captures and the like) by priority, then the killers, then the rest in
/// their generated order (the sort is stable).
pub fn order<G: Game>(
    g: &G,
    moves: &[G::Move],
    tt_move: Option<G::Move>,
    killers: KillerPair<G::Move>,
) -> Vec<u16> {
    let mut keyed: Vec<(i32, u16)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let k = if Some(m) == tt_move {
                1 << 30
            } else if killers[0] == Some(m) {
                1 << 20
            } else if killers[1] == Some(m) {
                (1 << 20) - 1
            } else {
                0
            };
            let p = g.move_priority(m);
            (
                k.max(p.saturating_add(if p > 0 { 1 << 21 } else { 0 })),
                i as u16,
            )
        })
        .collect();
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    keyed.into_iter().map(|(_, i)| i).collect()
}
