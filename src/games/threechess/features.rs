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
