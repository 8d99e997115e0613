//! The rule-based baseline player (docs/rules/tesseris.md, "Evaluation and baseline").

use rand::Rng;

use super::eval::open_mask;
use super::{TMove, Tesseris, NO_SEAT, UNKNOWN};
use crate::game::{Game, GameRng};

fn pick<T: Copy>(v: &[T], rng: &mut GameRng) -> Option<T> {
    if v.is_empty() {
        None
    } else {
        Some(v[rng.random_range(0..v.len())])
    }
}

/// Up to four values on the stack: the baseline runs inside every ISMCTS rollout, and heap
/// allocation there (several `Vec`s a move) made two threads contend for the allocator.
struct Four {
    v: [u8; 4],
    len: usize,
}

impl Four {
    fn of(it: impl Iterator<Item = u8>) -> Four {
        let mut f = Four { v: [0; 4], len: 0 };
        for x in it.take(4) {
            f.v[f.len] = x;
            f.len += 1;
        }
        f
    }
    fn get(&self) -> &[u8] {
        &self.v[..self.len]
    }
}

/// The rule-based baseline: complete an objective when possible; otherwise discard a card that
/// matches none of my open objectives, preferably one no opponent needs, onto a pile whose top
/// I do not need (preferably burying a top an opponent needs); then take a pile top that matches
/// one of my open objectives not yet covered by my hand, else steal from a seat known to hold such
/// a card, else the deck. Reads only the mover's hand and what it knows.
pub fn baseline_move(g: &Tesseris, rng: &mut GameRng) -> Option<TMove> {
    baseline_move_in(g, rng, &mut Vec::new())
}

/// [`baseline_move`] with `legal` as scratch space for the legal moves.
pub fn baseline_move_in(g: &Tesseris, rng: &mut GameRng, legal: &mut Vec<TMove>) -> Option<TMove> {
    let n = g.n as usize;
    let s = g.to_move as usize;
    if g.status.is_over() || (g.observer != NO_SEAT && g.observer as usize != s) {
        return None;
    }
    let mine = open_mask(g, s);
    let mut theirs = 0u32;
    for t in (0..n).filter(|&t| t != s) {
        theirs |= open_mask(g, t);
    }
    let (card, discard) = choose_discard(g, s, mine, theirs, rng);
    let draw = choose_draw(g, s, card, discard, mine, rng);
    let mv = TMove {
        card,
        discard,
        draw,
    };
    // The choice is checked without listing every move where the hand is known (rollouts);
    // the list is made only for the fallbacks.
    if g.is_legal_known(mv) == Some(true) {
        return Some(mv);
    }
    g.legal_moves(legal);
    if legal.contains(&mv) {
        return Some(mv);
    }
    // Fallbacks (e.g. an empty deck): same discard with any draw, then anything.
    let same = legal
        .iter()
        .filter(|m| m.card == card && m.discard == discard)
        .count();
    if same > 0 {
        let k = rng.random_range(0..same);
        legal
            .iter()
            .copied()
            .filter(|m| m.card == card && m.discard == discard)
            .nth(k)
    } else {
        pick(legal, rng)
    }
}

/// The baseline's discard for seat `s` (`mine`/`theirs`: its and the others' open objectives):
/// first complete an objective; else discard a card no opponent needs, onto a pile burying a
/// top an opponent wants, else onto a neutral pile.
fn choose_discard(g: &Tesseris, s: usize, mine: u32, theirs: u32, rng: &mut GameRng) -> (u8, u8) {
    let hand = g.hand[s];
    let top = |p: usize| -> Option<u8> { g.pile(p).last().copied() };
    // 1. Complete an objective.
    let completing = Four::of(
        hand.iter()
            .copied()
            .filter(|&c| c != UNKNOWN && mine >> c & 1 == 1),
    );
    if let Some(c) = pick(completing.get(), rng) {
        let k = (0..4).find(|&k| g.obj[s][k] == c).unwrap_or(0);
        (c, 4 + k as u8)
    } else {
        // 2. Discard a useless card, preferably one no opponent needs.
        let safe = Four::of(
            hand.iter()
                .copied()
                .filter(|&c| c != UNKNOWN && theirs >> c & 1 == 0),
        );
        // Denial is only a preference (1 time in 5 any card goes), or two seats hoarding each
        // other's cards would stall the round forever.
        let c = if rng.random_range(0..5) == 0 {
            None
        } else {
            pick(safe.get(), rng)
        };
        let c = c.or_else(|| pick(&hand, rng)).unwrap_or(hand[0]);
        let bury = Four::of((0..4u8).filter(|&p| {
            top(p as usize).is_some_and(|t| theirs >> t & 1 == 1 && mine >> t & 1 == 0)
        }));
        let neutral =
            Four::of((0..4u8).filter(|&p| top(p as usize).is_none_or(|t| mine >> t & 1 == 0)));
        let p = pick(bury.get(), rng)
            .or_else(|| pick(neutral.get(), rng))
            .unwrap_or(rng.random_range(0..4u8));
        (c, p)
    }
}

/// The baseline's draw after discarding `card` (onto `discard`): a pile top it still needs, else
/// a steal from the seat known to hold most such cards, else the deck.
fn choose_draw(g: &Tesseris, s: usize, card: u8, discard: u8, mine: u32, rng: &mut GameRng) -> u8 {
    let n = g.n as usize;
    let hand = g.hand[s];
    let top = |p: usize| -> Option<u8> { g.pile(p).last().copied() };
    // What the hand will cover after the discard.
    let mut covered = 0u32;
    let mut removed = false;
    for &c in &hand {
        if c == card && !removed {
            removed = true;
            continue;
        }
        if c != UNKNOWN {
            covered |= 1 << c;
        }
    }
    let still_open = if discard >= 4 {
        mine & !(1 << card)
    } else {
        mine
    };
    let wanted = Four::of((0..4u8).filter(|&q| discard != q).filter(|&q| {
        top(q as usize).is_some_and(|t| still_open >> t & 1 == 1 && covered >> t & 1 == 0)
    }));
    // Else steal from a seat known to hold a card I still need (most such cards first).
    let mut best_v = None;
    let mut best_k = 0;
    for v in (0..n).filter(|&v| v != s) {
        let k = (0..4)
            .filter(|&i| g.mask[v][i] >> s & 1 == 1)
            .map(|i| g.hand[v][i])
            .filter(|&x| x != UNKNOWN && still_open >> x & 1 == 1 && covered >> x & 1 == 0)
            .count();
        if k > best_k {
            best_k = k;
            best_v = Some(v);
        }
    }
    pick(wanted.get(), rng)
        .map(|q| q + 1)
        .or(best_v.map(|v| 5 + v as u8))
        .unwrap_or(0)
}
