//! The learned evaluation's input features (`Game::features`). Each piece is three features:
//! its colour and type on its square of its own board (shared by the boards of the grid), the
//! same on its board of the grid (where it stands, coarsely), and the same anywhere (material).
//! Last, one feature for Black to move.
//!
//! Version 3. Versions 1 and 2 had colour × type × square of the whole grid (8,064 inputs on
//! 3x3): a net learned the games by heart through them. On 2,400 self-play games (λ 0.3, a
//! residual net, hidden 32, lr 0.0001), version 2's held-out loss rose from 0.01176 after the
//! first epoch to 0.01319 after the fourth (the hand evaluation: 0.01117), while without those
//! inputs it stayed between 0.01111 and 0.01135 (docs/learning.md).

use super::*;

/// Colour × type: 2 × 7.
const KINDS: usize = 14;

/// With chess's rules on one board (`Boards=1x1 Promotions=chess`) the version is 4: the same
/// inputs as version 3, but a residual net corrects another hand evaluation there
/// (`chess_eval.rs`, since 2026-11-30), so a version-3 net of one board, the correction of
/// hyperchess's evaluation, is refused there rather than added to chess's.
pub fn feature_set(g: &Hyperchess) -> String {
    let version = if g.plays_chess() { 4 } else { 3 };
    format!("hyperchess-{}x{}/{}", g.geo.cols, g.geo.rows, version)
}

pub fn feature_count(g: &Hyperchess) -> usize {
    KINDS * (64 + g.geo.nb + 1) + 1
}

pub fn features(g: &Hyperchess, out: &mut Vec<u32>) {
    let nsq = g.geo.nsq;
    let grid_base = KINDS * 64;
    let kind_base = grid_base + KINDS * g.geo.nb;
    for (sq, &pc) in g.board[..nsq].iter().enumerate() {
        if pc != 0 {
            let kind = (pc >> 3) as usize * 7 + (pc & 7) as usize - 1;
            out.push((kind * 64 + sq % 64) as u32);
            out.push((grid_base + kind * g.geo.nb + sq / 64) as u32);
            out.push((kind_base + kind) as u32);
        }
    }
    if g.side == 1 {
        out.push((kind_base + KINDS) as u32);
    }
}

/// The learned policy's move features (`Game::move_features`), version 1. A move is described
/// by the mover's colour and type with its destination and its origin on their boards, the pair
/// of boards it goes between (the grid dimensions it crosses), what it captures, what it
/// promotes to, and whether the opponent attacks its destination and its origin (a piece put
/// en prise, a piece saved) and the game's own flag for a capture likely to lose material.
pub fn move_feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-moves-{}x{}/1", g.geo.cols, g.geo.rows)
}

/// The move feature blocks' offsets: kind × destination square, kind × origin square, kind ×
/// (origin board, destination board), mover type × victim type, promotion, mover type ×
/// (destination attacked, destination defended), mover type × origin attacked, mover type ×
/// likely-losing capture; then the count.
fn move_blocks(nb: usize) -> [usize; 9] {
    let sizes = [
        KINDS * 64,
        KINDS * 64,
        KINDS * nb * nb,
        8 * 8,
        8,
        8 * 4,
        8 * 2,
        8 * 2,
    ];
    let mut b = [0; 9];
    for (i, s) in sizes.iter().enumerate() {
        b[i + 1] = b[i] + s;
    }
    b
}

pub fn move_feature_count(g: &Hyperchess) -> usize {
    move_blocks(g.geo.nb)[8]
}

pub fn move_features(g: &Hyperchess, m: Move, out: &mut Vec<u32>) {
    let b = move_blocks(g.geo.nb);
    let (from, to) = (m.from(), m.to());
    let pc = g.board[from];
    let ty = (pc & 7) as usize;
    let kind = (pc >> 3) as usize * 7 + ty - 1;
    let victim = if g.board[to] != 0 {
        (g.board[to] & 7) as usize
    } else if ty == PAWN as usize && to == g.ep as usize {
        PAWN as usize
    } else {
        0
    };
    let them = 1 - g.side;
    let attacked = g.attacked(to, them) as usize;
    let defended = g.attacked(to, g.side) as usize;
    let (_, losing) = super::eval::noisy_estimate(g, m);
    for f in [
        b[0] + kind * 64 + to % 64,
        b[1] + kind * 64 + from % 64,
        b[2] + (kind * g.geo.nb + from / 64) * g.geo.nb + to / 64,
        b[3] + ty * 8 + victim,
        b[4] + m.promo() as usize,
        b[5] + ty * 4 + attacked * 2 + defended,
        b[6] + ty * 2 + g.attacked(from, them) as usize,
        b[7] + ty * 2 + losing as usize,
    ] {
        out.push(f as u32);
    }
}
