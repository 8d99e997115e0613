//! The learned evaluation's input features (`Game::features`, docs/learning.md): the state as
//! it stands — every hand card the state holds, as the hand evaluation reads it. A search scores
//! determinizations (every hand dealt, consistent with what the searching seat knows) and the
//! training data are full states, so both see whole hands; a seat's observation lists only the
//! cards it knows (the others are "unknown" cards). Seats are absolute (seat `t` is `p<t+1>`),
//! shapes are the card shapes (`O1` … `C6`: 12 or 18). For each seat `t`:
//! - each of its objectives: open or completed × its shape;
//! - its hand's cards, as thermometers: "t holds at least k cards of shape c" (k 1 to 4), and
//!   "t holds at least k cards this state does not know" (k 1 to 4; none in a full state);
//! - how many of its hand's cards complete an open objective of its, and how many pile tops
//!   would (thermometers, 1 to 4 each);
//! - its completed objectives this round (1 to 4) and its points (1 to 24; the score matters
//!   against the target, which the feature set names), thermometers;
//! - whether it is to move, and whether it holds the marker (the first seat of the round).
//!
//! Then each pile's top card (pile × shape), the deck's size in eighths (thermometer, 1 to 9),
//! and whether the round's end is triggered. Every list holds each feature at most once.
//!
//! A first version listed only the cards the seat to move knows (so that a state and its
//! observation agreed): at the leaves of ISMCTS, where the other seat is to move, the searching
//! seat's own hand then went unseen, and the net searched far worse than the hand evaluation
//! (−113 ± 48 Elo, docs/learning.md).

use super::{Tesseris, UNKNOWN};

/// The most seats and shapes: the layout is the same for every rule set (the feature set's
/// name says which rule set a net was trained for).
const SEATS: usize = 4;
const SHAPES: usize = 18;
/// Point thermometer length.
const POINTS: usize = 24;

const OPEN: usize = 0;
const DONE: usize = OPEN + SEATS * SHAPES;
const HAND: usize = DONE + SEATS * SHAPES;
const UNKNOWN_CARDS: usize = HAND + SEATS * SHAPES * 4;
const HELD_NEEDED: usize = UNKNOWN_CARDS + SEATS * 4;
const TOPS_NEEDED: usize = HELD_NEEDED + SEATS * 4;
const COMPLETED: usize = TOPS_NEEDED + SEATS * 4;
const SCORE: usize = COMPLETED + SEATS * 4;
const TO_MOVE: usize = SCORE + SEATS * POINTS;
const MARKER: usize = TO_MOVE + SEATS;
const TOP: usize = MARKER + SEATS;
const DECK: usize = TOP + 4 * SHAPES;
const TRIGGERED: usize = DECK + 9;
/// How many features the set has.
pub const COUNT: usize = TRIGGERED + 1;

/// The feature set's name for `g`'s rule set: seats, deck, target and rounds.
pub fn feature_set(g: &Tesseris) -> String {
    format!(
        "tesseris-{}p-{}cards-T{}-R{}/2",
        g.n,
        g.shapes as usize * 4,
        g.target,
        g.rounds_opt
    )
}

/// Pushes `base + 0 .. base + min(count, len)`: "at least k" for k = 1 ..= count.
fn thermometer(out: &mut Vec<u32>, base: usize, count: usize, len: usize) {
    out.extend((base..base + count.min(len)).map(|f| f as u32));
}

pub fn features(g: &Tesseris, out: &mut Vec<u32>) {
    let mover = g.to_move as usize;
    for t in 0..g.n as usize {
        let mut open = 0u32;
        for k in 0..4 {
            let shape = g.obj[t][k] as usize;
            if g.done[t] >> k & 1 == 1 {
                out.push((DONE + t * SHAPES + shape) as u32);
            } else {
                out.push((OPEN + t * SHAPES + shape) as u32);
                open |= 1 << shape;
            }
        }
        let mut copies = [0usize; SHAPES];
        let (mut unknown, mut held) = (0, 0);
        for i in 0..4 {
            let c = g.hand[t][i];
            if c != UNKNOWN {
                copies[c as usize] += 1;
                held += (open >> c & 1) as usize;
            } else {
                unknown += 1;
            }
        }
        for (shape, &n) in copies.iter().enumerate() {
            thermometer(out, HAND + (t * SHAPES + shape) * 4, n, 4);
        }
        thermometer(out, UNKNOWN_CARDS + t * 4, unknown, 4);
        thermometer(out, HELD_NEEDED + t * 4, held, 4);
        let needed_tops = (0..4)
            .filter(|&p| g.pile(p).last().is_some_and(|&c| open >> c & 1 == 1))
            .count();
        thermometer(out, TOPS_NEEDED + t * 4, needed_tops, 4);
        thermometer(out, COMPLETED + t * 4, g.done[t].count_ones() as usize, 4);
        thermometer(out, SCORE + t * POINTS, g.scores[t] as usize, POINTS);
        if t == mover {
            out.push((TO_MOVE + t) as u32);
        }
        if t == g.first as usize {
            out.push((MARKER + t) as u32);
        }
    }
    for p in 0..4 {
        if let Some(&c) = g.pile(p).last() {
            out.push((TOP + p * SHAPES + c as usize) as u32);
        }
    }
    thermometer(out, DECK, (g.deck_len as usize).div_ceil(8), 9);
    if g.triggered {
        out.push(TRIGGERED as u32);
    }
}
