//! Captures (docs/rules/tesseract.md, "Men" and "Sliders"): which enemy men a move takes — men
//! capture by jumping (the Rectangle's bent path can take up to three), sliders by pushing their
//! leading point onto an enemy man. Drops, crosses and sliders are never captured.

use super::*;

impl Tesseract {
    /// Squares of enemy men captured by `mv` (played by the side owning the piece on `from`).
    pub(crate) fn captured_squares(&self, mv: Move) -> ([u8; 3], usize) {
        let mut out = [NONE; 3];
        let mut n = 0;
        if mv.kind != MK_MOVE {
            return (out, 0);
        }
        let c = self.board[mv.from as usize];
        let k = c & KM;
        let me = color(c);
        let enemy_man = |s: u8| {
            let x = self.board[s as usize];
            is_man(x & KM) && color(x) != me
        };
        let mut check = |s: u8| {
            if enemy_man(s) {
                out[n] = s;
                n += 1;
            }
        };
        match k {
            K_T | K_C => {
                let u = unit(mv.from, mv.to);
                let q = offset(mv.to, (-u.0, -u.1));
                if q != mv.from {
                    check(q);
                }
            }
            K_S | K_P => {
                if mv.via == NONE {
                    let u = unit(mv.from, mv.to);
                    check(offset(mv.from, u));
                } else {
                    let u = unit(mv.via, mv.to);
                    let q = offset(mv.to, (-u.0, -u.1));
                    if q != mv.via {
                        check(q);
                    }
                }
            }
            K_R => {
                let a = unit(mv.from, mv.via);
                let b = unit(mv.via, mv.to);
                check(offset(mv.from, a));
                check(mv.via);
                check(offset(mv.via, b));
            }
            K_SH | K_SV => {
                let u = unit(mv.from, mv.to);
                let q = offset(mv.to, (-u.0, -u.1));
                if q != mv.from {
                    check(q);
                }
            }
            K_LHA => {
                check(mv.to);
                check(mv.to + 1);
            }
            K_LVA => {
                check(mv.to);
                check(mv.to + W as u8);
            }
            _ => {}
        }
        (out, n)
    }

    /// Whether `mv` captures anything.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.captured_squares(mv).1 > 0
    }
}
