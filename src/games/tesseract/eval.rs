//! Evaluation: material (board and reserve), Tesseract safety (attacks on it, shelter, open
//! lines), light mobility and the best capture on offer. Also drives setup placements: the
//! Tesseract is kept off open lines and next to its own pieces and sliders.

use super::*;

/// Value of a piece on the board by cell kind (the Tesseract is the king: its loss ends the game).
pub(crate) const PIECE_VALUE: [i32; 12] = [0, 0, 300, 320, 350, 220, 130, 130, 190, 0, 190, 0];
/// Value of a reserve piece by reserve index (T S P R C L s X): a bit less than on the board.
const RES_VALUE: [i32; 8] = [0, 255, 270, 300, 190, 160, 110, 0];

const WIN: i32 = 20_000;
const TROPISM: i32 = 2;

/// Per-side features (what its moves do: `stats::MoveStats`).
#[derive(Default, Clone, Copy)]
struct Side {
    material: i32,
    /// Closeness of this side's pieces to a hunted enemy Tesseract (see `hunted`).
    closeness: i32,
}

/// Whether `side`'s Tesseract is hunted: `side` has at most two men besides it (board and
/// reserve) and the enemy has more. A Tesseract alone with no man in reserve loses when it
/// cannot move, and one with few helpers is taken by a jump sooner or later; without a plan the
/// side ahead shuffled until `MaxPlies` (all 60 doubling games of 2026-11-25 were drawn so,
/// often a man or more ahead). The side ahead is then paid for every move the Tesseract loses
/// and for its pieces' closeness; otherwise a small pull toward the enemy Tesseract
/// (`TROPISM`) keeps the men in contact.
fn hunted(g: &Tesseract, side: usize) -> bool {
    let men = |s: usize| g.other_men_on_board(s) + g.men_in_reserve(s);
    g.in_play() && g.tpos[side] != NONE && men(side) <= 2 && men(1 - side) > men(side)
}

fn chebyshev(a: u8, b: u8) -> i32 {
    (file_of(a) - file_of(b))
        .abs()
        .max((rank_of(a) - rank_of(b)).abs())
}

pub(crate) fn evaluate(g: &Tesseract, seat: Seat) -> i32 {
    if let Status::Over(o) = g.status {
        return match o.winner() {
            Some(w) if w == seat => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    let mut f = [Side::default(); 2];
    // Mop-up: a side far ahead hunts the enemy Tesseract (see `hunted`).
    let hunted = [hunted(g, 0), hunted(g, 1)];
    for sq in 0..SQ {
        let c = g.board[sq];
        let k = c & KM;
        if k != 0 {
            let side = color(c);
            f[side].material += PIECE_VALUE[k as usize];
            let et = g.tpos[1 - side];
            if et != NONE && k != K_T && k != K_LHB && k != K_LVB {
                // Men close in to jump it, sliders to wall it in.
                let d = chebyshev(sq as u8, et);
                f[side].closeness += if is_man(k) { 14 - d } else { (14 - d) / 2 };
            }
        }
    }
    for (side, fs) in f.iter_mut().enumerate() {
        for i in 0..8 {
            fs.material += RES_VALUE[i] * g.reserve[side][i] as i32;
        }
    }
    // Setup plies move nothing, and the Tesseract's reach changes when play starts (unlimited
    // on a near-empty board, 4 under the endgame limit): during setup, captures are phantoms
    // (two Tesseracts on one file read as "capturable by the side to move", −4000 for a
    // position that is even) and only mobility counts: `stats::count` takes captures only once
    // play has started.
    let stats = super::stats::move_stats(g);
    let stm = g.side as usize;
    let mut score = [0i32; 2];
    for side in 0..2 {
        let opp = 1 - side;
        let fs = &f[side];
        let st = &stats[side];
        let mut s = fs.material + 2 * st.moves[1] as i32 + st.moves[2] as i32;
        let t_moves = st.moves[0] as i32;
        // Tesseract safety.
        let t = g.tpos[side];
        if t != NONE {
            let (shelter, exposure) = shelter_exposure(g, side, t);
            s += 8 * shelter - (3 * exposure) / 2;
            let att = stats[opp].t_attacks;
            if att > 0 {
                if opp == stm && !g.must_drop(opp) {
                    // The side to move takes the Tesseract next: all but lost.
                    s -= 4000;
                } else if g.must_drop(side) {
                    s -= 400 * att;
                } else {
                    s -= 60 * att;
                }
            }
            // A hunted Tesseract: every move it loses brings the end closer (walled in, or a
            // man lands beside it with a free point behind), and the hunters close in.
            if hunted[side] {
                s -= 12 * (32 - t_moves).max(0) + 6 * f[opp].closeness;
            } else if g.in_play() {
                s -= TROPISM * f[opp].closeness;
            }
            // The lone Tesseract must keep moving (immobile = loss).
            if g.in_play() && g.other_men_on_board(side) == 0 && g.men_in_reserve(side) == 0 {
                s -= 30 * (6 - t_moves).max(0) + if t_moves <= 2 { 200 } else { 0 };
            }
        }
        s += if side == stm {
            st.best_capture / 2
        } else {
            st.best_capture / 8
        };
        score[side] = s;
    }
    (score[seat] - score[1 - seat]).clamp(-WIN + 1, WIN - 1)
}

/// Value of the enemy men `mv` takes ([`PIECE_VALUE`]; the Tesseract, whose loss ends the game,
/// as 100,000); 0 for a move that takes nothing.
pub(crate) fn captured_value(g: &Tesseract, mv: Move) -> i32 {
    let (caps, n) = g.captured_squares(mv);
    caps[..n]
        .iter()
        .map(|&q| match g.board[q as usize] & KM {
            K_T => 100_000,
            k => PIECE_VALUE[k as usize],
        })
        .sum()
}

/// Shelter: neighbours of the Tesseract that stop men coming in (edge, slider, own man, cross).
/// Exposure: empty points on its eight open lines (lines enemy men could come down).
fn shelter_exposure(g: &Tesseract, side: usize, t: u8) -> (i32, i32) {
    let mut shelter = 0;
    let mut exposure = 0;
    for d in 0..8 {
        let mut sq = t;
        let mut first = true;
        loop {
            let nx = NB[sq as usize][d];
            if nx == NONE {
                if first {
                    shelter += 1;
                }
                break;
            }
            let c = g.board[nx as usize];
            let k = c & KM;
            if c & FP != 0 || is_slider(k) || (k != 0 && color(c) == side) {
                if first {
                    shelter += 1;
                }
                break;
            }
            if k != 0 {
                break;
            }
            exposure += 1;
            first = false;
            sq = nx;
        }
    }
    (shelter, exposure)
}
