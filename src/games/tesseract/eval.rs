//! Evaluation: material (board and reserve), Tesseract safety (attacks on it, shelter, open
//! lines), light mobility and the best capture on offer. Also drives setup placements: the
//! Tesseract is kept off open lines and next to its own pieces and sliders.

use super::*;

/// Value of a piece on the board by cell kind (the Tesseract is the king: its loss ends the game).
pub(crate) const PIECE_VALUE: [i32; 12] = [0, 0, 300, 320, 350, 220, 130, 130, 190, 0, 190, 0];
/// Value of a reserve piece by reserve index (T S P R C L s X): a bit less than on the board.
const RES_VALUE: [i32; 8] = [0, 255, 270, 300, 190, 160, 110, 0];

const WIN: i32 = 20_000;

/// Per-side features.
#[derive(Default, Clone, Copy)]
struct Side {
    material: i32,
    mobility: i32,
    /// Moves of this side that would capture the enemy Tesseract.
    t_attacks: i32,
    /// Best value of an enemy man this side can capture now (not the Tesseract).
    best_capture: i32,
    t_moves: i32,
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
    for sq in 0..SQ {
        let c = g.board[sq];
        let k = c & KM;
        if k != 0 {
            f[color(c)].material += PIECE_VALUE[k as usize];
        }
    }
    for (side, fs) in f.iter_mut().enumerate() {
        for i in 0..8 {
            fs.material += RES_VALUE[i] * g.reserve[side][i] as i32;
        }
    }
    for side in 0..2 {
        let opp = 1 - side;
        let et = g.tpos[opp];
        let fs = &mut f[side];
        g.gen_pieces(side, &mut |m: Move, cap: bool| {
            let k = g.board[m.from as usize] & KM;
            if k == K_T {
                fs.t_moves += 1;
            } else if is_man(k) {
                fs.mobility += 2;
            } else {
                fs.mobility += 1;
            }
            if cap {
                let (caps, n) = g.captured_squares(m);
                let mut v = 0;
                for &q in &caps[..n] {
                    if q == et {
                        fs.t_attacks += 1;
                    } else {
                        v += PIECE_VALUE[(g.board[q as usize] & KM) as usize];
                    }
                }
                fs.best_capture = fs.best_capture.max(v);
            }
        });
    }
    let stm = g.side as usize;
    let mut score = [0i32; 2];
    for side in 0..2 {
        let opp = 1 - side;
        let fs = &f[side];
        let mut s = fs.material + fs.mobility;
        // Tesseract safety.
        let t = g.tpos[side];
        if t != NONE {
            let (shelter, exposure) = shelter_exposure(g, side, t);
            s += 8 * shelter - (3 * exposure) / 2;
            let att = f[opp].t_attacks;
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
            // The lone Tesseract must keep moving (immobile = loss).
            if g.in_play() && g.other_men_on_board(side) == 0 && g.men_in_reserve(side) == 0 {
                s -= 30 * (6 - fs.t_moves).max(0) + if fs.t_moves <= 2 { 200 } else { 0 };
            }
        }
        s += if side == stm {
            fs.best_capture / 2
        } else {
            fs.best_capture / 8
        };
        score[side] = s;
    }
    (score[seat] - score[1 - seat]).clamp(-WIN + 1, WIN - 1)
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
