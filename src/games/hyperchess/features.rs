//! The learned evaluation's input features (`Game::features`). Each piece is three features:
//! its colour and type on its square of the grid, the same on that square of its own board
//! (shared by the boards of the grid), and the same anywhere (material). A net learns the
//! shared ones from every board at once: with the whole grid alone, 8,064 piece-square inputs
//! over-fitted 50,000 positions. Last, one feature for Black to move.

use super::*;

/// Colour × type: 2 × 7.
const KINDS: usize = 14;

pub fn feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-{}x{}/2", g.geo.cols, g.geo.rows)
}

pub fn feature_count(g: &Hyperchess) -> usize {
    KINDS * (g.geo.nsq + 64 + 1) + 1
}

pub fn features(g: &Hyperchess, out: &mut Vec<u32>) {
    let nsq = g.geo.nsq;
    let board_base = KINDS * nsq;
    let kind_base = board_base + KINDS * 64;
    for (sq, &pc) in g.board[..nsq].iter().enumerate() {
        if pc != 0 {
            let kind = (pc >> 3) as usize * 7 + (pc & 7) as usize - 1;
            out.push((kind * nsq + sq) as u32);
            out.push((board_base + kind * 64 + sq % 64) as u32);
            out.push((kind_base + kind) as u32);
        }
    }
    if g.side == 1 {
        out.push((kind_base + KINDS) as u32);
    }
}
