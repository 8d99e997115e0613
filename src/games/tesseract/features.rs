//! The learned evaluation's input features (`Game::features`, docs/learning.md), version 3:
//! - every occupied point: colour × what stands there × its zone of the 15 × 15 grid (5 × 5
//!   zones of 3 × 3 points). What stands there is one of the board's 11 cell kinds: the five men
//!   (Tesseract, Star, Pyramid, Rectangle, Cylinder), a small slider lying along a rank or a
//!   file, and a large slider's anchor or other point, each along a rank or a file (so a large
//!   slider is two features);
//! - the same, by its distance (the larger of the file and rank distances, 0 to 14) to the
//!   enemy Tesseract, and to its own (the Tesseract itself: to the enemy's only);
//! - every cross: its owner × its centre's zone, and × its centre's distance to the enemy
//!   Tesseract;
//! - the reserves, as thermometers: "colour c has at least k of type t in reserve", for each
//!   type (T S P R C L s X) and k from 1 to the side's full set of it (15 a colour);
//! - the men on the board, the same way (T 1, S 2, P 1, R 1, C 1: 6 a colour), since material
//!   decides the endgame rules (the Tesseract's range, must-drop);
//! - the setup phase not over, and Black to move;
//! - (version 3) around each Tesseract, its eight neighbours: off the board, a cross footprint,
//!   a slider, an own man, an enemy man or nothing (colour × direction × which);
//! - (version 3, once play has started, for a side not bound to drop) what each side could take now: one feature per enemy
//!   man it can capture, by colour × whether that side is to move × the victim's kind; and its
//!   moves as thermometers by colour × to move × class (Tesseract, other men, sliders).
//!   These are the hand evaluation's tactical and safety terms, which version 2 could only see
//!   through the residual base: given as inputs, the net weighs them by the position.
//!
//! Two pieces of a kind in one zone (or at one distance) give its feature twice: the lists are
//! multisets. Version 1 named the point itself (4,964 point features in all): on 3,100 self-play
//! games its nets learned those games by heart and gained nothing in the arena (+1.5 ± 34.4 Elo,
//! docs/learning.md); zones and distances say where a piece is in terms that recur from one game
//! to the next, as hyperchess's version 3 did for its boards.
//!
//! No rule option changes what they mean (`CrossesFirst` only orders the setup plies).

use super::*;

/// The set's name: a net trained on it fits every rule set of tesseract.
pub const FEATURE_SET: &str = "tesseract/3";

/// Cell kinds: `K_T` (1) to `K_LVB` (11).
const KINDS: usize = 11;
/// Zones of 3 × 3 points.
const ZONES: usize = 25;
/// Distances 0 to 14.
const DISTANCES: usize = W;
const ZONE: usize = 0;
const TO_ENEMY: usize = ZONE + 2 * KINDS * ZONES;
const TO_OWN: usize = TO_ENEMY + 2 * KINDS * DISTANCES;
const CROSS_ZONE: usize = TO_OWN + 2 * KINDS * DISTANCES;
const CROSS_TO_ENEMY: usize = CROSS_ZONE + 2 * ZONES;
const RESERVE: usize = CROSS_TO_ENEMY + 2 * DISTANCES;
/// A side's full set in reserve thermometers (the sum of `FULL`).
const RESERVE_PER_SIDE: usize = 15;
const MEN: usize = RESERVE + 2 * RESERVE_PER_SIDE;
/// Men on the board by kind (1..=5): a side's full set.
const FULL_MEN: [u8; 6] = [0, 1, 2, 1, 1, 1];
const MEN_PER_SIDE: usize = 6;
const SETUP: usize = MEN + 2 * MEN_PER_SIDE;
const BLACK_TO_MOVE: usize = SETUP + 1;
/// Version 3: what each side can take now, by colour × whether it is to move × the victim's
/// kind (T S P R C), once per man it can take.
const THREAT: usize = BLACK_TO_MOVE + 1;
/// Version 3: moves as thermometers, by colour × whether it is to move × class (the
/// Tesseract, the other men, the sliders) × threshold reached.
const MOBILITY: usize = THREAT + 2 * 2 * 5;
const MOB_THRESHOLDS: [[u16; 8]; 3] = [
    [1, 2, 3, 4, 6, 8, 12, 18],
    [2, 4, 6, 9, 13, 18, 25, 35],
    [2, 5, 9, 14, 20, 28, 38, 50],
];
/// Version 3: each Tesseract's eight neighbours, by colour × direction × what lies there
/// (off the board, a cross footprint, a slider, an own man, an enemy man, nothing).
const AROUND: usize = MOBILITY + 2 * 2 * 3 * 8;
const AROUND_KINDS: usize = 6;
/// How many features the set has.
pub const COUNT: usize = AROUND + 2 * 8 * AROUND_KINDS;

fn zone(sq: usize) -> usize {
    (sq % W / 3) * 5 + sq / W / 3
}

/// The larger of the file and rank distances from `sq` to `t`, None without a Tesseract.
fn distance(sq: usize, t: u8) -> Option<usize> {
    (t != NONE).then(|| {
        let s = sq as u8;
        (file_of(s) - file_of(t))
            .abs()
            .max((rank_of(s) - rank_of(t)).abs()) as usize
    })
}

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
            let piece = color(c) * KINDS + k - 1;
            out.push((ZONE + piece * ZONES + zone(sq)) as u32);
            if let Some(d) = distance(sq, g.tpos[1 - color(c)]) {
                out.push((TO_ENEMY + piece * DISTANCES + d) as u32);
            }
            if k != K_T as usize {
                if let Some(d) = distance(sq, g.tpos[color(c)]) {
                    out.push((TO_OWN + piece * DISTANCES + d) as u32);
                }
            }
        }
        if c & CEN != 0 {
            let owner = (c & CBLK != 0) as usize;
            out.push((CROSS_ZONE + owner * ZONES + zone(sq)) as u32);
            if let Some(d) = distance(sq, g.tpos[1 - owner]) {
                out.push((CROSS_TO_ENEMY + owner * DISTANCES + d) as u32);
            }
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
    for side in 0..2 {
        let t = g.tpos[side];
        if t == NONE {
            continue;
        }
        for d in 0..8 {
            let nx = NB[t as usize][d];
            let what = if nx == NONE {
                0
            } else {
                let c = g.board[nx as usize];
                let k = c & KM;
                if c & FP != 0 {
                    1
                } else if is_slider(k) {
                    2
                } else if k != 0 && color(c) == side {
                    3
                } else if k != 0 {
                    4
                } else {
                    5
                }
            };
            out.push((AROUND + (side * 8 + d) * AROUND_KINDS + what) as u32);
        }
    }
    // Captures and mobility mean nothing during setup (nothing moves; see eval.rs) or once the
    // game is over, nor for a side that must drop (its pieces cannot move until it has).
    if !g.in_play() || g.status.is_over() {
        return;
    }
    let stats = super::stats::move_stats(g);
    for (side, st) in stats.iter().enumerate() {
        if g.must_drop(side) {
            continue;
        }
        let rel = (side == g.side as usize) as usize;
        let base = THREAT + (side * 2 + rel) * 5;
        for &q in st.taken() {
            let k = (g.board[q as usize] & KM) as usize;
            out.push((base + k - 1) as u32);
        }
        for (class, &count) in st.moves.iter().enumerate() {
            let base = MOBILITY + ((side * 2 + rel) * 3 + class) * 8;
            for (i, &th) in MOB_THRESHOLDS[class].iter().enumerate() {
                if count >= th {
                    out.push((base + i) as u32);
                }
            }
        }
    }
}
