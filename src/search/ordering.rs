//! Move ordering shared by the alpha-beta searches (alpha-beta and Best-Reply Search): the table
//! move first, then noisy moves by the game's `move_priority`, then the two killer moves of the
//! ply (quiet moves that caused a cutoff at this ply elsewhere in the tree), then the captures
//! the game flags as likely to lose material (`Game::noisy_estimate`), then the rest by their
//! history score (alpha-beta) or in generation order (BRS).

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

/// The ordering key of the captures flagged as likely losing: below the killers (`1 << 20`),
/// above every history score (within ±`HISTORY_MAX`).
const LOSING: i32 = 1 << 18;

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

/// A move's ordering key and its index in one number whose order is the picking order: the
/// higher key first, and among equal keys the move generated first (what a stable sort keeps).
/// One integer compare per move instead of a tuple's: the picker scans hundreds of drops per
/// node in tesseract.
#[inline(always)]
fn pack(key: i32, index: usize) -> i64 {
    debug_assert!(index <= 0xFFFF, "move indices are u16");
    ((key as i64) << 16) + (0xFFFF - index as i64)
}

#[inline(always)]
fn unpack(packed: i64) -> u16 {
    (0xFFFF - (packed & 0xFFFF)) as u16
}

/// A move of [`quiescence_order`]'s list: its priority, the most it gains (where the game
/// says) and the move.
pub type QsMove<M> = (i32, Option<i32>, M);

/// Quiescence's list (alpha-beta's and MCTS's leaf search): the noisy moves of `moves` that the
/// game does not flag as likely losing, best `move_priority` first (ties in generated order),
/// each with the most it gains where the game says (`Game::noisy_estimate`, asked once a move).
/// `out` is reused: no allocation at each node.
pub fn quiescence_order<G: Game>(g: &G, moves: &[G::Move], out: &mut Vec<QsMove<G::Move>>) {
    out.clear();
    out.extend(moves.iter().filter_map(|&m| match g.noisy_estimate(m) {
        Some((_, true)) => None,
        est => Some((g.move_priority(m), est.map(|e| e.0), m)),
    }));
    out.sort_by_key(|&(p, _, _)| std::cmp::Reverse(p));
}

/// Indices into `moves`, best first, handed out one move at a time: the table move, then moves
/// with a positive `move_priority` (captures and the like) by priority, then the killers, then
/// the noisy moves the game flags as likely losing (by priority), then the rest by history
/// (when given: the table and the seat to move) and `move_priority`, ties in their generated
/// order (see [`pack`]). The first few come by picking the best remaining one, the rest by
/// sorting them only when the node gets that far: most nodes that cut off do so on their first
/// move or two, and then the sort of a long list (hundreds of drops in tesseract) is spared.
/// Its list is reused from node to node ([`Picker::with_buf`], [`Picker::into_buf`]): no
/// allocation per node.
pub struct Picker {
    keyed: Vec<i64>,
    next: usize,
}

/// Moves picked by selection before the rest is sorted.
const PICKED: usize = 3;

impl Picker {
    /// The picker of `moves`, keeping its list in `buf` (from [`Picker::into_buf`] at an
    /// earlier node, or a new one): no allocation per node.
    pub fn with_buf<G: Game>(
        mut buf: Vec<i64>,
        g: &G,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        killers: KillerPair<G::Move>,
        history: Option<(&History, usize)>,
    ) -> Self {
        fill_keys(g, moves, tt_move, killers, history, &mut buf);
        Picker {
            keyed: buf,
            next: 0,
        }
    }

    /// The list, for the next node.
    pub fn into_buf(self) -> Vec<i64> {
        self.keyed
    }
}

impl Iterator for Picker {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        let rest = self.keyed.get_mut(self.next..)?;
        if rest.is_empty() {
            return None;
        }
        if self.next < PICKED {
            let mut best = 0;
            for j in 1..rest.len() {
                if rest[j] > rest[best] {
                    best = j;
                }
            }
            rest.swap(0, best);
        } else if self.next == PICKED {
            rest.sort_unstable_by(|a, b| b.cmp(a));
        }
        self.next += 1;
        Some(unpack(self.keyed[self.next - 1]))
    }
}

/// Each move's packed ordering key ([`pack`]: higher first) in generated order, into `out`
/// (cleared first).
fn fill_keys<G: Game>(
    g: &G,
    moves: &[G::Move],
    tt_move: Option<G::Move>,
    killers: KillerPair<G::Move>,
    history: Option<(&History, usize)>,
    out: &mut Vec<i64>,
) {
    out.clear();
    out.extend(moves.iter().enumerate().map(|(i, &m)| {
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
        let key = if p > 0 && g.noisy_estimate(m).is_some_and(|(_, losing)| losing) {
            // A piece taking a cheaper defended one: after the killers, which cut off
            // more often (hyperchess: 43% fewer nodes to depth 5, docs/results.md).
            LOSING + p.min(LOSING / 2)
        } else {
            p.saturating_add(if p > 0 { 1 << 21 } else { h })
        };
        pack(k.max(key), i)
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{rng_from_seed, RuleOptions};
    use crate::games::{hyperchess::Hyperchess, tesseract::Tesseract};

    /// The definition the packed keys (`fill_keys`'s) must keep: each move's key, highest
    /// first by a stable sort, so that equal keys keep their generated order.
    fn stable_order(packed: &[i64]) -> Vec<u16> {
        let mut keyed: Vec<(i32, u16)> = packed
            .iter()
            .enumerate()
            .map(|(i, &p)| ((p >> 16) as i32, i as u16))
            .collect();
        assert!(keyed.iter().zip(packed).all(|(&(_, i), &p)| unpack(p) == i));
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    /// The picker hands out exactly the stable sort's sequence (ties included) on
    /// positions of random games, with killers and a history table filled by random updates.
    fn picker_matches_order<G: Game>(games: usize, plies: usize) {
        use rand::Rng;
        let mut rng = rng_from_seed(7);
        let mut history = History::default();
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..games {
            let mut g = G::start(&RuleOptions::of::<G>()).unwrap();
            for _ in 0..plies {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for _ in 0..8 {
                    let m = moves[rng.random_range(0..moves.len())];
                    history.update(0, &m, rng.random_range(-400..400));
                }
                let pick = |rng: &mut crate::game::GameRng| {
                    Some(moves[rng.random_range(0..moves.len())]).filter(|_| rng.random_bool(0.7))
                };
                let (tt, k0, k1) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
                let h = Some((&history, 0));
                let mut packed = Vec::new();
                fill_keys(&g, &moves, tt, [k0, k1], h, &mut packed);
                let want = stable_order(&packed);
                let got: Vec<u16> =
                    Picker::with_buf(Vec::new(), &g, &moves, tt, [k0, k1], h).collect();
                assert_eq!(got, want, "{}", g.to_text());
                checked += 1;
                let m = moves[rng.random_range(0..moves.len())];
                g.play(m);
            }
        }
        assert!(checked > games * plies / 2);
    }

    /// A queen taking an undefended pawn comes first; taking the knight or the pawn that a
    /// pawn defends comes after the killer (the knight first), and before the other quiet
    /// moves, even one with a history.
    #[test]
    fn a_capture_likely_to_lose_comes_after_the_killers() {
        let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
        let g = Hyperchess::from_text("4k3/8/3p4/4p3/3Q1n2/8/8/4K3 w - - 0 1", &opts).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mv = |t: &str| g.parse_move(t).unwrap();
        let mut history = History::default();
        history.update(0, &mv("e1f2"), 5000);
        let killers = [Some(mv("e1d1")), None];
        let order: Vec<u16> =
            Picker::with_buf(Vec::new(), &g, &moves, None, killers, Some((&history, 0))).collect();
        let text: Vec<String> = order[..5]
            .iter()
            .map(|&i| g.format_move(moves[i as usize]))
            .collect();
        assert_eq!(text, ["d4d6", "e1d1", "d4f4", "d4e5", "e1f2"]);
    }

    #[test]
    fn picker_gives_the_sorted_order_in_hyperchess() {
        picker_matches_order::<Hyperchess>(4, 60);
    }

    #[test]
    fn picker_gives_the_sorted_order_in_tesseract() {
        picker_matches_order::<Tesseract>(4, 60);
    }
}
