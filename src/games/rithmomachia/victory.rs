//! The victories (docs/rules/rithmomachia.md, "Victory"): the prisoner counts (`corps`, `bien`,
//! `proces`, `corps-bien`, `honore`), the formations in the enemy half (`grande`, `majeure`,
//! `excellente`), and the end-of-turn checks in their order (mover, other side, then MaxPlies).

use super::*;

/// Kinds formed by three values taken in any order.
fn unordered_kinds(a: u32, b: u32, c: u32) -> u8 {
    progression_kinds(a, b, c) | progression_kinds(b, a, c) | progression_kinds(a, c, b)
}

impl Rithmomachia {
    /// Whether side `s` meets the chosen victory condition.
    #[inline]
    fn victory(&self, s: u8) -> bool {
        let p = &self.pris[s as usize];
        let c = &self.cfg;
        match c.victory {
            Victory::Corps => p.count >= c.n,
            Victory::Bien => p.sum >= c.s,
            Victory::Proces => p.sum >= c.s && p.digits == c.c,
            Victory::CorpsBien => p.count >= c.n && p.sum >= c.s,
            Victory::Honore => p.count >= c.n && p.sum >= c.s && p.digits == c.c,
            Victory::Grande => self.formation_kinds(s, 3) != 0,
            Victory::Majeure => self.formation_kinds(s, 4) >= 2,
            Victory::Excellente => self.formation_kinds(s, 4) == 3,
        }
    }

    /// Best formation of side `s` in the enemy half: for `len` 3, the kinds mask of any triple
    /// (nonzero = a grande formation); for `len` 4, the largest number of kinds found among the
    /// 3-piece subsets of one 4-piece line.
    pub(super) fn formation_kinds(&self, s: u8, len: usize) -> u8 {
        let in_half = |r: i32| {
            if s == BLACK {
                (0..8).contains(&r)
            } else {
                (8..16).contains(&r)
            }
        };
        let own_at = |r: i32, f: i32| -> Option<u32> {
            if !in_half(r) || !(0..8).contains(&f) {
                return None;
            }
            let b = self.board[(r * 8 + f) as usize];
            if b == 0 {
                return None;
            }
            let p = &self.pieces[b as usize - 1];
            (p.side == s).then_some(p.val as u32)
        };
        let mut best = 0u8;
        let mut m = self.own[s as usize];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let sq = self.pieces[i].sq as i32;
            let (r, f) = (sq >> 3, sq & 7);
            if !in_half(r) {
                continue;
            }
            for (dr, df) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let mut v = [0u32; 4];
                v[0] = self.pieces[i].val as u32;
                let mut ok = true;
                for (k, slot) in v.iter_mut().enumerate().take(len).skip(1) {
                    match own_at(r + dr * k as i32, f + df * k as i32) {
                        Some(x) => *slot = x,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                if len == 3 {
                    let k = unordered_kinds(v[0], v[1], v[2]);
                    if k != 0 {
                        return k;
                    }
                } else {
                    let k = unordered_kinds(v[0], v[1], v[2])
                        | unordered_kinds(v[0], v[1], v[3])
                        | unordered_kinds(v[0], v[2], v[3])
                        | unordered_kinds(v[1], v[2], v[3]);
                    best = best.max(k.count_ones() as u8);
                }
            }
        }
        best
    }

    /// End-of-turn checks after `mover`'s turn: its victory, the other side's, then MaxPlies.
    /// Returns true when the game is over.
    #[inline]
    pub(super) fn end_checks(&mut self, mover: u8) -> bool {
        let vcode = self.cfg.victory as u8;
        if self.victory(mover) {
            self.result = if mover == BLACK { R_BLACK } else { R_WHITE };
            self.reason = vcode;
            return true;
        }
        let other = 1 - mover;
        if self.victory(other) {
            self.result = if other == BLACK { R_BLACK } else { R_WHITE };
            self.reason = vcode;
            return true;
        }
        if self.cfg.max_plies > 0 && self.ply >= self.cfg.max_plies {
            self.result = R_DRAW;
            self.reason = REASON_MAXPLIES;
            return true;
        }
        false
    }
}
