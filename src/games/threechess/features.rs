//! The learned evaluation's input features (`Game::features`, docs/learning.md), absolute: the
//! same whoever asks. In order (board order first, so that a move changes a few entries between
//! a common beginning and end: `learn/infer.rs`):
//!
//! - each man: colour (3) × type (6, the king included: its square) × square (64);
//! - material, as thermometers: colour × type but the king (5) × "at least k" for k = 1 … 8
//!   (a count above 8 counts as 8: promotions make it possible, games hardly reach it);
//! - each colour's state: ghost, dead (alive is neither);
//! - each colour's king attacked by another colour's man (the hand evaluation's king danger,
//!   coarsely; for the side to move, check);
//! - the seat to move (one feature per seat).
//!
//! Version 1: 3·6·64 + 3·5·8 + 3·2 + 3 + 3 = 1,284 inputs. No rule option changes them
//! (`MaxPlies` ends games, it does not change what a position is worth before then).

use super::movegen::{attacked_by_any, least_attackers, targets};
use super::*;

/// Men by colour and type: 3 × 6.
const MEN: usize = 3 * 6;
/// Where the material thermometers start, and their steps per colour and type.
const MATERIAL: usize = MEN * 64;
const STEPS: usize = 8;
/// Colour × state (ghost, dead), then colour × king attacked, then the seat to move.
const STATE: usize = MATERIAL + 3 * 5 * STEPS;
const ATTACKED: usize = STATE + 3 * 2;
const TO_MOVE: usize = ATTACKED + 3;
const COUNT: usize = TO_MOVE + 3;

pub fn feature_set() -> String {
    "threechess/1".to_string()
}

pub fn feature_count() -> usize {
    COUNT
}

pub fn features(g: &Threechess, out: &mut Vec<u32>) {
    for (sq, &p) in g.board.iter().enumerate() {
        if p != 0 {
            let man = colour(p) * 6 + kind(p) as usize - 1;
            out.push((man * 64 + sq) as u32);
        }
    }
    for c in 0..3 {
        for k in PAWN..KING {
            let n = (g.counts[c][k as usize] as usize).min(STEPS);
            let base = MATERIAL + (c * 5 + k as usize - 1) * STEPS;
            out.extend((base..base + n).map(|f| f as u32));
        }
    }
    for c in 0..3 {
        match g.state[c] {
            GHOST => out.push((STATE + 2 * c) as u32),
            DEAD => out.push((STATE + 2 * c + 1) as u32),
            _ => {}
        }
    }
    for c in 0..3 {
        let k = g.king[c] as usize;
        if k < 64 && attacked_by_others(geo(), &g.board, k, c) {
            out.push((ATTACKED + c) as u32);
        }
    }
    out.push((TO_MOVE + g.side as usize) as u32);
}

/// The learned policy's move features (`Game::move_features`), version 2, absolute as the
/// position's; eleven a move. A move is described by:
///
/// - the mover's colour and type with its destination, and with its origin;
/// - the mover's type with what it takes (type, and whose: the next seat's or the one after);
/// - the promotion; a ghost's king recovery;
/// - on the board after the move: the mover's type with the cheapest man of the next seat
///   attacking its destination and whether one of its own defends it; the same for the seat
///   after; the mover's type with what it takes and whether any other man attacks it there (a
///   capture that may be taken back);
/// - on the board before the move: the mover's type with the cheapest man of another colour
///   attacking its origin and whether one of its own defends it (a man saved);
/// - after the move: the mover's type with each opponent's king it attacks (checks, discovered
///   ones included), and with the most valuable other man it attacks from its destination and
///   whether it attacks two men or more (threats, forks).
///
/// Version 1 read "attacked" and "defended" on the board before the move, where the mover
/// defends its own destination and an attack through its origin is missed.
pub fn move_feature_set() -> String {
    "threechess-moves/2".to_string()
}

/// The move feature blocks' sizes, in order: colour × type × destination, colour × type ×
/// origin, type × victim type × whose, promotion, recovery, type × next seat's cheapest attacker
/// × defended, type × the seat after's × defended, type × victim type × attacked after, type ×
/// origin's cheapest attacker × defended, type × checks (next seat, the one after), type × most
/// valuable man threatened × two or more.
const MOVE_SIZES: [usize; 11] = [
    MEN * 64,
    MEN * 64,
    6 * 7 * 3,
    8,
    2,
    6 * 7 * 2,
    6 * 7 * 2,
    6 * 7 * 2,
    6 * 7 * 2,
    6 * 4,
    6 * 6 * 2,
];

/// The blocks' offsets, then the count.
const MOVE_BLOCKS: [usize; 12] = {
    let mut b = [0; 12];
    let mut i = 0;
    while i < MOVE_SIZES.len() {
        b[i + 1] = b[i] + MOVE_SIZES[i];
        i += 1;
    }
    b
};

pub fn move_feature_count() -> usize {
    MOVE_BLOCKS[11]
}

pub fn move_features(g: &Threechess, mv: Move, out: &mut Vec<u32>) {
    let b = MOVE_BLOCKS;
    let geo = geo();
    let (from, to) = (mv.from(), mv.to());
    let pc = g.board[from];
    let c = colour(pc);
    let ty = kind(pc) as usize - 1;
    let man = c * 6 + ty;
    let victim = g.board[to];
    let (vt, whose) = if victim == 0 {
        (0, 0)
    } else {
        (kind(victim) as usize, (colour(victim) + 3 - c) % 3)
    };
    let (next, later) = ((c + 1) % 3, (c + 2) % 3);
    // The origin, before the move.
    let o = least_attackers(geo, &g.board, from);
    let o_least = match (o[next], o[later]) {
        (0, x) | (x, 0) => x,
        (x, y) => x.min(y),
    } as usize;
    let o_defended = (o[c] != 0) as usize;
    // The board after the move (a recovery's king is left out).
    let mut after = g.board;
    after[from] = 0;
    let moved = if mv.promo() != 0 {
        (c as u8) << 3 | mv.promo()
    } else {
        pc
    };
    after[to] = moved;
    let d = least_attackers(geo, &after, to);
    let defended = (d[c] != 0) as usize;
    let retaken = (d[next] != 0 || d[later] != 0) as usize;
    let mut checks = 0;
    for rel in 1..3 {
        let o = (c + rel) % 3;
        let k = g.king[o] as usize;
        if k < 64 && k != to && attacked_by_any(geo, &after, k, |x| x == c) {
            checks |= rel;
        }
    }
    let (threat, count) = targets(geo, &after, to, kind(moved), |x| x != c);
    for f in [
        b[0] + man * 64 + to,
        b[1] + man * 64 + from,
        b[2] + (ty * 7 + vt) * 3 + whose,
        b[3] + mv.promo() as usize,
        b[4] + (mv.recover() != NO_SQ) as usize,
        b[5] + (ty * 7 + d[next] as usize) * 2 + defended,
        b[6] + (ty * 7 + d[later] as usize) * 2 + defended,
        b[7] + (ty * 7 + vt) * 2 + retaken,
        b[8] + (ty * 7 + o_least) * 2 + o_defended,
        b[9] + ty * 4 + checks,
        b[10] + (ty * 6 + threat as usize) * 2 + (count >= 2) as usize,
    ] {
        out.push(f as u32);
    }
}
