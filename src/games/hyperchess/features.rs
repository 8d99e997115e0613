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

pub fn feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-{}x{}/3", g.geo.cols, g.geo.rows)
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
