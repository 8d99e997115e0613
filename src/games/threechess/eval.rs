//! Evaluation for three: each colour gets a strength (material, light mobility, king danger,
//! pawn progress, and for a ghost its poor prospects and how near its pawns are to recovering the
//! king), and a seat's value is its strength minus the mean strength of the players still in the
//! game (a dead player is absent; the dead seat itself has lost).

use super::*;

/// Value of a man by type (the king is never captured: 0).
pub(crate) const VALUE: [i32; 8] = [0, 100, 300, 320, 500, 900, 0, 0];

/// A won game (a lost one is −WIN / 2: rewards map to (3r − 1) / 2 · WIN, a third share is 0).
pub(crate) const WIN: i32 = 20_000;

/// A ghost loses every ending unless it recovers its king.
const GHOST_PENALTY: i32 = 900;

/// Distance of a man of colour `c` on `sq` to that colour's arrival row.
#[inline(always)]
pub(crate) fn arrival_distance(c: usize, sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    match c {
        0 => 7 - r,
        1 => 7 - f,
        _ => f,
    }
}

/// The strength of colour `c` (not dead).
fn strength(g: &Threechess, c: usize) -> i32 {
    let gm = geo();
    let b = &g.board;
    let ghost = g.state[c] == GHOST;
    let mut s = 0;
    let mut mobility = 0;
    for sq in 0..64 {
        let p = b[sq];
        if p == 0 || colour(p) != c {
            continue;
        }
        let k = kind(p);
        s += VALUE[k as usize];
        match k {
            PAWN => {
                let d = arrival_distance(c, sq);
                s += if ghost {
                    (7 - d) * (7 - d) * 12
                } else {
                    (7 - d) * (7 - d) * 2
                };
            }
            KNIGHT => {
                for &t in gm.knight(sq) {
                    let q = b[t as usize];
                    if q == 0 || colour(q) != c {
                        mobility += 1;
                    }
                }
            }
            BISHOP | ROOK | QUEEN => {
                let (lo, hi) = match k {
                    BISHOP => (4, 8),
                    ROOK => (0, 4),
                    _ => (0, 8),
                };
                for d in lo..hi {
                    for &t in gm.ray(sq, d) {
                        let q = b[t as usize];
                        if q == 0 {
                            mobility += 1;
                        } else {
                            if colour(q) != c {
                                mobility += 1;
                            }
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    s += 3 * mobility;
    if ghost {
        s -= GHOST_PENALTY;
    } else if (g.king[c] as usize) < 64 {
        let ksq = g.king[c] as usize;
        // King danger: attacked squares around the king, and check itself.
        let mut danger = 0;
        if attacked_by_others(gm, b, ksq, c) {
            danger += 3;
        }
        for d in 0..8 {
            if let Some(t) = gm.step(ksq, d) {
                let q = b[t];
                if (q == 0 || colour(q) != c) && attacked_by_others(gm, b, t, c) {
                    danger += 1;
                }
            }
        }
        s -= danger * danger * 6;
    }
    s
}

/// A seat's value: its strength minus the mean strength of the others still in the game (all
/// three colours' strengths are needed for any seat: [`evaluate_all`] gives every seat's).
pub(crate) fn evaluate(g: &Threechess, seat: Seat) -> i32 {
    let mut all = [0; MAX_SEATS];
    evaluate_all(g, &mut all);
    all[seat]
}

/// [`evaluate`] for every seat, each colour's strength computed once.
pub(crate) fn evaluate_all(g: &Threechess, out: &mut [i32; MAX_SEATS]) {
    if let Status::Over(o) = g.status {
        for (v, r) in out.iter_mut().zip(o.rewards).take(3) {
            *v = ((3.0 * r - 1.0) / 2.0 * WIN as f32).round() as i32;
        }
        return;
    }
    let mut strength_of = [0; 3];
    for (c, st) in strength_of.iter_mut().enumerate() {
        if g.state[c] != DEAD {
            *st = strength(g, c);
        }
    }
    for seat in 0..3 {
        out[seat] = if g.state[seat] == DEAD {
            -WIN / 2
        } else {
            let (mut sum, mut n) = (0, 0);
            for (c, &st) in strength_of.iter().enumerate() {
                if c != seat && g.state[c] != DEAD {
                    sum += st;
                    n += 1;
                }
            }
            (strength_of[seat] - sum / n.max(1)).clamp(-WIN / 4, WIN / 4)
        };
    }
}

pub(crate) fn move_priority(g: &Threechess, mv: Move) -> i32 {
    let mut p = 0;
    let cap = g.board[mv.to()];
    if cap != 0 {
        p += 10 * VALUE[kind(cap) as usize] - VALUE[kind(g.board[mv.from()]) as usize] / 10 + 1000;
    }
    if mv.recover() != NO_SQ {
        p += 20_000;
    }
    p += VALUE[mv.promo() as usize];
    p
}
