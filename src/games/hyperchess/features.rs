//! The learned evaluation's input features (`Game::features`): one feature per piece — its
//! colour, type and square — and one for Black to move.

use super::*;

pub fn feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-{}x{}/1", g.geo.cols, g.geo.rows)
}

pub fn feature_count(g: &Hyperchess) -> usize {
    14 * g.geo.nsq + 1
}

pub fn features(g: &Hyperchess, out: &mut Vec<u32>) {
    let nsq = g.geo.nsq;
    for (sq, &pc) in g.board[..nsq].iter().enumerate() {
        if pc != 0 {
            let kind = (pc >> 3) as usize * 7 + (pc & 7) as usize - 1;
            out.push((kind * nsq + sq) as u32);
        }
    }
    if g.side == 1 {
        out.push((14 * nsq) as u32);
    }
}
