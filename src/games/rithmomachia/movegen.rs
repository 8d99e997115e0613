//! How pieces move (phase 2): circles one square, triangles two, squares three, orthogonally,
//! jumping over friendly pieces but never over an enemy, landing on an empty square; a pyramid
//! moves as any of its remaining layers. Also the uniform random move used by playouts.

use super::*;

/// Index of the `k`-th set bit of `m` (from the lowest).
#[inline]
pub(super) fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// Direction steps: 0 = up the file (+rank), 1 = down, 2 = right (+file), 3 = left.
#[inline]
pub(super) fn step(sq: usize, dir: usize, d: usize) -> Option<usize> {
    let r = sq >> 3;
    let f = sq & 7;
    match dir {
        0 => (r + d < 16).then(|| sq + 8 * d),
        1 => (r >= d).then(|| sq - 8 * d),
        2 => (f + d < 8).then(|| sq + d),
        _ => (f >= d).then(|| sq - d),
    }
}

#[inline]
pub(super) fn has_neighbour(sq: usize, dir: usize) -> bool {
    let r = sq >> 3;
    let f = sq & 7;
    match dir {
        0 => r < 15,
        1 => r > 0,
        2 => f < 7,
        _ => f > 0,
    }
}

impl Rithmomachia {
    #[inline]
    pub(super) fn move_ok(&self, sq: usize, side: u8, dir: usize, d: usize) -> Option<usize> {
        let mut s = sq;
        for k in 1..=d {
            s = step(sq, dir, k)?;
            let b = self.board[s];
            if b != 0 && (k == d || self.pieces[b as usize - 1].side != side) {
                return None;
            }
        }
        Some(s)
    }

    #[inline]
    pub(super) fn gen_piece(&self, i: usize, out: &mut Vec<Move>) {
        let p = &self.pieces[i];
        let sq = p.sq as usize;
        for dir in 0..4 {
            for d in 1..=3usize {
                let Some(s) = step(sq, dir, d) else { break };
                let b = self.board[s];
                if b == 0 {
                    if p.dm & (1 << (d - 1)) != 0 {
                        out.push(Move {
                            from: sq as u8,
                            to: s as u8,
                        });
                    }
                } else if self.pieces[b as usize - 1].side != p.side {
                    break;
                }
                if p.dm >> d == 0 {
                    break;
                }
            }
        }
    }

    #[inline]
    pub(super) fn has_move(&self, side: u8) -> bool {
        let mut m = self.own[side as usize];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let p = &self.pieces[i];
            for dir in 0..4 {
                for d in 1..=3usize {
                    if p.dm & (1 << (d - 1)) != 0
                        && self.move_ok(p.sq as usize, side, dir, d).is_some()
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Phase 2 only: moves the piece (no captures). Returns the piece index.
    #[inline]
    pub(super) fn do_move(&mut self, mv: Move) -> Option<usize> {
        let from = mv.from as usize;
        let to = mv.to as usize;
        if from >= 128 || to >= 128 || self.board[from] == 0 || self.board[to] != 0 {
            return None;
        }
        let i = self.board[from] as usize - 1;
        self.board_hash ^= self.piece_key(i);
        self.clear_sq(from);
        self.set_sq(to, i);
        self.pieces[i].sq = to as u8;
        self.board_hash ^= self.piece_key(i);
        Some(i)
    }

    /// Every legal move of the side to move (none once the game is over).
    #[inline]
    pub(super) fn gen_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result != R_ONGOING {
            return;
        }
        let mut m = self.own[self.stm as usize];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.gen_piece(i, out);
        }
    }

    /// A uniformly random legal move, without generating them all in the usual case.
    #[inline]
    pub(super) fn random_legal(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        use rand::Rng;
        if self.result != R_ONGOING {
            return None;
        }
        let side = self.stm;
        let m = self.own[side as usize];
        let n = m.count_ones();
        if n == 0 {
            return None;
        }
        // Rejection sampling over (piece, direction, distance): each legal move is exactly one
        // such triple, so the accepted ones are uniform over the legal moves. Every piece owns 4
        // slots (its 4 directions; a pyramid at distance 1), each pyramid 8 more (distances 2, 3).
        let pyrs = m & self.pyr_mask;
        let np = pyrs.count_ones();
        let slots = n * 4 + np * 8;
        for _ in 0..64 {
            let r = rng.random_range(0..slots);
            let (sel, k, dir, d) = if r < n * 4 {
                let p = &self.pieces[nth_bit(m, r >> 2)];
                (
                    m,
                    r >> 2,
                    (r & 3) as usize,
                    if p.shape == PYRAMID {
                        1
                    } else {
                        p.dm.trailing_zeros() as usize + 1
                    },
                )
            } else {
                let r = r - n * 4;
                (pyrs, r >> 3, (r & 3) as usize, ((r >> 2) & 1) as usize + 2)
            };
            let p = &self.pieces[nth_bit(sel, k)];
            if p.dm & (1 << (d - 1)) == 0 {
                continue;
            }
            if let Some(to) = self.move_ok(p.sq as usize, side, dir, d) {
                return Some(Move {
                    from: p.sq,
                    to: to as u8,
                });
            }
        }
        self.gen_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }
}
