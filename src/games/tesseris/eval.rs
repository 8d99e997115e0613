//! Static evaluation (docs/rules/tesseris.md, "Evaluation and baseline"): points and completed
//! objectives, objective cards already in hand, and the tempo of a needed pile top.

use super::{Tesseris, UNKNOWN};
use crate::game::{Seat, Status};

/// Open objectives of `t` as a shape bitmask.
pub(super) fn open_mask(g: &Tesseris, t: usize) -> u32 {
    (0..4)
        .filter(|&k| g.done[t] >> k & 1 == 0)
        .fold(0u32, |m, k| m | 1 << g.obj[t][k])
}

/// A held card that completes an open objective next turn, in points*100. Below 100, so that
/// completing (100) always beats holding. Measured with ISMCTS (tree depth 1) against the baseline,
/// 50 ms a move, 100 games each, as HELD/TEMPO: 45/0 → 51%, 80/40 → 72%, 80/70 → 74.5%,
/// 100/40 → 63%, 120/70 → 49%.
const HELD: i32 = 80;
/// The seat to move can take a pile top it needs this very turn, in points*100 (same measure).
const TEMPO: i32 = 60;

/// An objective completed `age` plies ago counts `100 - FRESH_STEP * (FRESH_PLIES - age)`, 100
/// from `FRESH_PLIES` plies on: a discount on late completions. Without it ISMCTS (whose tree
/// is the seat's own decision, the later moves the baseline's, which completes whatever it can)
/// scores completing now and completing a turn later alike, and prefers covering the other
/// seat's needed pile top every turn: two ISMCTS seats at 3,000 playouts looped to the 300-ply
/// cap in 14 of 20 games (seed 5) and 20 of 40 (seed 6). STEP/PLIES measured (loops at seeds 5
/// and 6; ISMCTS at 20,000 playouts against the baseline, 200 games, seed 2, the same deals):
/// 0/0 14/20, 20/40, 76.2%; 10/6 4/20, 9/40, 75.5%; 15/6 1/20, 1/40, 71.0%; 20/6 0/20, 66.5%
/// (stopped at 136 games). A state read from text counts its completions as old.
const FRESH_STEP: i32 = 10;
const FRESH_PLIES: u32 = 6;

/// Round progress of seat `t` in points*100: completed objectives (discounted while fresh),
/// plus most of a point for each open objective whose card is already in hand (only cards this
/// state knows), plus a tempo bonus for the seat to move when a pile top it needs is there for
/// the taking.
fn progress(g: &Tesseris, t: usize) -> i32 {
    let open = open_mask(g, t);
    let mut held = 0u32;
    for &c in &g.hand[t] {
        if c != UNKNOWN {
            held |= open & (1 << c);
        }
    }
    let done: i32 = (0..4)
        .filter(|&k| g.done[t] >> k & 1 == 1)
        .map(|k| {
            let age = match g.done_at[t][k] {
                0 => FRESH_PLIES,
                at => (g.ply + 1).saturating_sub(at).min(FRESH_PLIES),
            };
            100 - FRESH_STEP * (FRESH_PLIES - age) as i32
        })
        .sum();
    let mut p = 100 * g.scores[t] as i32 + done + HELD * held.count_ones() as i32;
    if t == g.to_move as usize {
        let want = open & !held;
        if (0..4).any(|q| g.pile(q).last().is_some_and(|&c| want >> c & 1 == 1)) {
            p += TEMPO;
        }
    }
    p
}

pub fn evaluate(g: &Tesseris, seat: Seat) -> i32 {
    let n = g.n as usize;
    if let Status::Over(o) = g.status {
        return ((o.rewards[seat] * n as f32 - 1.0) * 3000.0) as i32;
    }
    let mine = progress(g, seat);
    let best = (0..n)
        .filter(|&t| t != seat)
        .map(|t| progress(g, t))
        .max()
        .unwrap_or(0);
    (mine - best).clamp(-2900, 2900)
}
