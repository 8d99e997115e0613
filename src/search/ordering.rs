//! Move ordering shared by the alpha-beta searches (alpha-beta and Best-Reply Search): the table
//! move first, then noisy moves by the game's `move_priority`, then the two killer moves of the
//! ply (quiet moves that caused a cutoff at this ply elsewhere in the tree), then the rest by
//! their history score (alpha-beta) or in generation order (BRS).

use crate::game::Game;
use std::hash::{Hash, Hasher};

/// Slots of the history table per seat (moves are hashed into them: the trait's moves have no
/// dense index, and a collision only blurs an ordering hint).
const HISTORY_BITS: u32 = 14;
const HISTORY_SLOTS: usize = 1 << HISTORY_BITS;
/// History scores stay within ±this (the "gravity" update saturates there).
const HISTORY_MAX: i32 = 1 << 14;

/// The history heuristic: for each seat, how often a quiet move caused a cutoff (deeper
/// searches count more), less how often it was tried before another move's cutoff.
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * HISTORY_SLOTS],
        }
    }
}

impl History {
    fn slot<M: Hash>(seat: usize, m: &M) -> usize {
        let mut h = fxhash::FxHasher64::default();
        m.hash(&mut h);
        // The top bits: the multiplicative hash mixes every input bit into them.
        (seat & 1) * HISTORY_SLOTS + (h.finish() >> (64 - HISTORY_BITS)) as usize
    }

    pub fn get<M: Hash>(&self, seat: usize, m: &M) -> i32 {
        self.table[Self::slot(seat, m)]
    }

    /// Moves the score of `m` by `bonus` (negative: a malus), saturating at ±HISTORY_MAX.
    pub fn update<M: Hash>(&mut self, seat: usize, m: &M, bonus: i32) {
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let e = &mut self.table[Self::slot(seat, m)];
        *e += b - *e * b.abs() / HISTORY_MAX;
    }
}

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
/// `move_priority` (captures and the like) by priority, then the killers, then the rest by
/// history (when given: the table and the seat to move) and `move_priority`, ties in their
/// generated order (the sort is stable).
pub fn order<G: Game>(
    g: &G,
    moves: &[G::Move],
    tt_move: Option<G::Move>,
    killers: KillerPair<G::Move>,
    history: Option<(&History, usize)>,
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
            let h = history.map_or(0, |(h, seat)| h.get(seat, &m));
            (
                k.max(p.saturating_add(if p > 0 { 1 << 21 } else { h })),
                i as u16,
            )
        })
        .collect();
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    keyed.into_iter().map(|(_, i)| i).collect()
}
