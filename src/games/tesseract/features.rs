//! The learned evaluation's input features (`Game::features`, docs/learning.md):
//! - every occupied point: colour × what stands there × the point of the 15 × 15 grid. What
//!   stands there is one of the board's 11 cell kinds: the five men (Tesseract, Star, Pyramid,
//!   Rectangle, Cylinder), a small slider lying along a rank or a file, and a large slider's
//!   anchor or other point, each along a rank or a file (so a large slider is two features, the
//!   points it covers);
//! - every cross: its owner × its centre (its arm ends follow from the centre);
//! - the reserves, as thermometers: "colour c has at least k of type t in reserve", for each
//!   type (T S P R C L s X) and k from 1 to the side's full set of it (15 a colour);
//! - the men on the board, the same way (T 1, S 2, P 1, R 1, C 1: 6 a colour), since material
//!   decides the endgame rules (the Tesseract's range, must-drop);
//! - the setup phase not over, and Black to move.
//!
//! No rule option changes what they mean (`CrossesFirst` only orders the setup plies).

use super::*;

/// The set's name: a net trained on it fits every rule set of tesseract.
pub const FEATURE_SET: &str = "tesseract/1";

/// Cell kinds: `K_T` (1) to `K_LVB` (11).
const KINDS: usize = 11;
const POINTS: usize = 0;
const CROSSES: usize = POINTS + 2 * KINDS * SQ;
const RESERVE: usize = CROSSES + 2 * SQ;
/// A side's full set in reserve thermometers (the sum of `FULL`).
const RESERVE_PER_SIDE: usize = 15;
const MEN: usize = RESERVE + 2 * RESERVE_PER_SIDE;
/// Men on the board by kind (1..=5): a side's full set.
const FULL_MEN: [u8; 6] = [0, 1, 2, 1, 1, 1];
const MEN_PER_SIDE: usize = 6;
const SETUP: usize = MEN + 2 * MEN_PER_SIDE;
const BLACK_TO_MOVE: usize = SETUP + 1;
/// How many features the set has.
pub const COUNT: usize = BLACK_TO_MOVE + 1;

const _: () = {
    let mut n = 0;
    let mut i = 0;
    while i < FULL.len() {
        n += FULL[i] as usize;
        i += 1;
    }
    assert!(n == RESERVE_PER_SIDE);
};

pub fn features(g: &Tesseract, out: &mut Vec<u32>) {
    for (sq, &c) in g.board.iter().enumerate() {
        let k = (c & KM) as usize;
        if (1..=KINDS).contains(&k) {
            out.push((POINTS + (color(c) * KINDS + k - 1) * SQ + sq) as u32);
        }
        if c & CEN != 0 {
            let owner = (c & CBLK != 0) as usize;
            out.push((CROSSES + owner * SQ + sq) as u32);
        }
    }
    for side in 0..2 {
        let mut base = RESERVE + side * RESERVE_PER_SIDE;
        for (i, &full) in FULL.iter().enumerate() {
            for k in 0..g.reserve[side][i].min(full) as usize {
                out.push((base + k) as u32);
            }
            base += full as usize;
        }
        let mut base = MEN + side * MEN_PER_SIDE;
        for (kind, &full) in FULL_MEN.iter().enumerate().skip(1) {
            for k in 0..g.men[side][kind].min(full) as usize {
                out.push((base + k) as u32);
            }
            base += full as usize;
        }
    }
    if !g.in_play() {
        out.push(SETUP as u32);
    }
    if g.side == 1 {
        out.push(BLACK_TO_MOVE as u32);
    }
}
