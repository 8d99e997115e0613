//! Move generation: pseudo-legal moves of every piece kind through the geometry tables, and the
//! legality test (a move is tested on the board as it would leave it, read through a closure, only
//! when it could expose the king).

use super::*;

/// The piece on `s`: squares are below `MAX_SQ`, and the mask says so to the compiler, which
/// then drops the bounds check (a small gain: most of the checks were in the table lookups).
#[inline(always)]
pub(super) fn at(b: &[u8; MAX_SQ], s: usize) -> u8 {
    b[s & (MAX_SQ - 1)]
}

/// Whether `sq` is attacked by a piece of colour `by` on board `b`.
#[inline]
pub(super) fn attacked(geo: &Geometry, b: &[u8; MAX_SQ], sq: usize, by: u8) -> bool {
    attacked_on(geo, |s| at(b, s), &[1; 8], sq, by)
}

/// [`attacked`] when `n` counts the attacker's pieces by type: the kinds it has none of are
/// not looked for.
#[inline]
pub(super) fn attacked_by(
    geo: &Geometry,
    b: &[u8; MAX_SQ],
    n: &[u16; 8],
    sq: usize,
    by: u8,
) -> bool {
    attacked_on(geo, |s| at(b, s), n, sq, by)
}

/// [`attacked`] on the board that `at` reads (square → piece code): the board after a move is
/// read through a closure rather than copied. Kinds of piece that `n` counts none of are skipped.
#[inline(always)]
fn attacked_on(geo: &Geometry, at: impl Fn(usize) -> u8, n: &[u16; 8], sq: usize, by: u8) -> bool {
    let c = by << 3;
    if n[KNIGHT as usize] != 0 {
        for &s in geo.knight.get(sq) {
            if at(s as usize) == KNIGHT | c {
                return true;
            }
        }
    }
    if n[PAWN as usize] != 0 {
        for &s in geo.pawn_cap[(by ^ 1) as usize].get(sq) {
            if at(s as usize) == PAWN | c {
                return true;
            }
        }
    }
    for &s in geo.king.get(sq) {
        let p = at(s as usize);
        if p == KING | c || p == GUARD | c {
            return true;
        }
    }
    if n[GUARD as usize] != 0 {
        for &s in geo.zw.get(sq) {
            if at(s as usize) == GUARD | c {
                return true;
            }
        }
    }
    // Along each line, the first piece met: one of the two kinds `a`, `b` of theirs attacks.
    let line = |rays: &[geometry::Ray], a: u8, b: u8| {
        rays.iter().any(|&r| {
            for &s in geo.ray(r) {
                let p = at(s as usize);
                if p != 0 {
                    return p == a | c || p == b | c;
                }
            }
            false
        })
    };
    if n[ROOK as usize] + n[QUEEN as usize] != 0 && line(geo.rook.get(sq), ROOK, QUEEN) {
        return true;
    }
    if n[BISHOP as usize] + n[QUEEN as usize] != 0 && line(geo.bishop.get(sq), BISHOP, QUEEN) {
        return true;
    }
    false
}

/// Square of the pawn taken by an en-passant capture landing on `to` by colour `us`.
#[inline(always)]
pub(super) fn ep_victim(to: usize, us: u8) -> usize {
    if us == 0 {
        to - 8
    } else {
        to + 8
    }
}

/// Whether the king of `us` may step to `to` when not in check: no enemy piece attacks `to`.
/// The board is read as it stands: a slider whose line through the king's square reached `to`
/// would be giving check now, so the king's leaving its square uncovers nothing. Kept out of
/// line: inlined into every piece's generator, the attack test slowed the whole generator.
#[inline(never)]
fn king_step_safe(geo: &Geometry, b: &[u8; MAX_SQ], n: &[u16; 8], to: usize, us: u8) -> bool {
    !attacked_by(geo, b, n, to, us ^ 1)
}

/// Whether `to` lies on the ray from `k` through `a` (same direction, any distance), where `a`
/// is known to lie on a rook or bishop line from `k`: a pinned piece keeps covering its king
/// exactly when it moves so.
#[inline(always)]
fn on_ray_through(geo: &Geometry, k: usize, a: usize, to: usize) -> bool {
    let (ck, ca, ct) = (geo.coord[k], geo.coord[a], geo.coord[to]);
    let mut dist = 0;
    for i in 0..4 {
        let (da, dt) = (ca[i] - ck[i], ct[i] - ck[i]);
        if da.signum() != dt.signum() {
            return false;
        }
        if dt != 0 {
            // Every moving axis advances by the same number of steps along a line.
            if dist != 0 && dt.abs() != dist {
                return false;
            }
            dist = dt.abs();
        }
    }
    true
}

impl Hyperchess {
    /// Whether the mover's king is safe after the move `from` → `to` (`kind`), read on the
    /// board as the move leaves it (without copying the board).
    #[inline]
    pub(super) fn safe_after(&self, from: usize, to: usize, kind: u8) -> bool {
        let us = self.side;
        let b = &self.board;
        let p = b[from];
        let vsq = if kind == EN_PASSANT {
            ep_victim(to, us)
        } else {
            usize::MAX
        };
        let ksq = self.king[us as usize] as usize;
        let k = if from == ksq { to } else { ksq };
        let after = |s: usize| {
            if s == to {
                p
            } else if s == from || s == vsq {
                0
            } else {
                at(b, s)
            }
        };
        !attacked_on(self.geo, after, &self.counts[(us ^ 1) as usize], k, us ^ 1)
    }

    /// Generates moves for the side to move. With `LEGAL`, only legal ones; with `NOISY`, only
    /// captures, en passant and promotions (`Game::is_noisy`), in the order of the full list.
    /// Calls `sink` for each; stops and returns true as soon as `sink` returns true.
    #[inline(always)]
    pub(super) fn gen<const LEGAL: bool, const NOISY: bool>(
        &self,
        sink: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let ksq = self.king[us as usize] as usize;
        let in_check = self.in_check;
        let theirs = &self.counts[(us ^ 1) as usize];
        // The pieces whose moves need a test (bit per square): every piece when in check, else
        // the king and the pieces pinned against it.
        let careful_set = if !LEGAL {
            [0u64; MAX_SQ / 64]
        } else if in_check {
            [!0u64; MAX_SQ / 64]
        } else {
            let mut c = self.pinned(ksq);
            c[ksq >> 6] |= 1 << (ksq & 63);
            c
        };
        // Most pieces need no legality test: when not in check, only the king, pinned pieces
        // and en passant can expose the king. Those go through `checked` below; the rest
        // straight to the sink (en passant tests itself in `gen_pawn`).
        let mut emit = |from: usize, to: usize, kind: u8| -> bool {
            if kind == PROMOTION {
                for p in [QUEEN, KNIGHT, BISHOP, GUARD] {
                    if sink(Move::new(from, to, p)) {
                        return true;
                    }
                }
                false
            } else {
                sink(Move::new(from, to, 0))
            }
        };
        let nsq = geo.nsq;
        let mut base = 0;
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const COLOUR: u64 = 0x0808_0808_0808_0808;
        while base < nsq {
            // Eight squares at once: bit 7 of each byte of `ours` is set where one of our pieces
            // stands (codes are `type | colour << 3`, 0 for empty).
            let chunk = u64::from_le_bytes(board[base..base + 8].try_into().unwrap());
            let black = (chunk & COLOUR) << 4;
            let ours = if us == 1 {
                black
            } else {
                let occupied = (((chunk & LOW7) + LOW7) | chunk) & HIGH;
                occupied & !black
            };
            let mut bits = ours;
            while bits != 0 {
                let s = base + (bits.trailing_zeros() / 8) as usize;
                bits &= bits - 1;
                let p = at(board, s);
                let careful = careful_set[s >> 6] & (1 << (s & 63)) != 0;
                let stop = if careful {
                    let mut checked = |from: usize, to: usize, kind: u8| -> bool {
                        let legal = if in_check || kind == EN_PASSANT {
                            self.safe_after(from, to, kind)
                        } else if from == ksq {
                            king_step_safe(geo, board, theirs, to, us)
                        } else {
                            // Not in check, pinned: it may only move along the pin line.
                            on_ray_through(geo, ksq, from, to)
                        };
                        legal && emit(from, to, kind)
                    };
                    self.gen_piece::<NOISY, false>(s, p, &mut checked)
                } else {
                    self.gen_piece::<NOISY, LEGAL>(s, p, &mut emit)
                };
                if stop {
                    return true;
                }
            }
            base += 8;
        }
        false
    }

    /// The moves of our piece `p` on `s`. With `EP_TEST`, an en-passant capture is emitted only
    /// if it leaves our king safe.
    #[inline(always)]
    fn gen_piece<const NOISY: bool, const EP_TEST: bool>(
        &self,
        s: usize,
        p: u8,
        emit: &mut impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let geo = self.geo;
        match p & 7 {
            PAWN => self.gen_pawn::<NOISY, EP_TEST>(s, emit),
            KNIGHT => self.gen_steps::<NOISY>(s, geo.knight.get(s), emit),
            t @ (BISHOP | ROOK | QUEEN) => self.gen_slider::<NOISY>(s, t, emit),
            GUARD => {
                self.gen_steps::<NOISY>(s, geo.king.get(s), emit)
                    || self.gen_steps::<NOISY>(s, geo.zw.get(s), emit)
            }
            _ => self.gen_steps::<NOISY>(s, geo.king.get(s), emit),
        }
    }

    /// Our pieces that stand alone between our king on `ksq` and an enemy rook, bishop or queen
    /// along one of its lines (bit per square).
    #[inline(always)]
    fn pinned(&self, ksq: usize) -> [u64; MAX_SQ / 64] {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        let mut pinned = [0u64; MAX_SQ / 64];
        let mut mark = |rays: &[geometry::Ray], a: u8, b2: u8| {
            for &r in rays {
                let mut own = usize::MAX;
                for &s in geo.ray(r) {
                    let p = at(board, s as usize);
                    if p == 0 {
                        continue;
                    }
                    if own == usize::MAX {
                        if p >> 3 == us {
                            own = s as usize;
                            continue;
                        }
                        break;
                    }
                    if p == a | them << 3 || p == b2 | them << 3 {
                        pinned[own >> 6] |= 1 << (own & 63);
                    }
                    break;
                }
            }
        };
        mark(geo.rook.get(ksq), ROOK, QUEEN);
        mark(geo.bishop.get(ksq), BISHOP, QUEEN);
        pinned
    }

    /// Pawn on `s`: the push (double from the start rank), captures, en passant, promotions
    /// (with `NOISY`, pushes only when they promote). With `EP_TEST`, en passant only when it
    /// leaves our king safe.
    #[inline(always)]
    fn gen_pawn<const NOISY: bool, const EP_TEST: bool>(
        &self,
        s: usize,
        emit: &mut impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        // The rank of a square is bits 3..5 of its index (`x + 8*y + 64*board`).
        let last_rank = if us == 0 { 7 } else { 0 };
        let push = geo.pawn_push[us as usize][s & (MAX_SQ - 1)];
        if push != NONE && at(board, push as usize) == 0 {
            let push = push as usize;
            let kind = if (push >> 3) & 7 == last_rank {
                PROMOTION
            } else {
                NORMAL
            };
            if (!NOISY || kind == PROMOTION) && emit(s, push, kind) {
                return true;
            }
            let d = geo.pawn_double[us as usize][s & (MAX_SQ - 1)];
            if !NOISY && d != NONE && at(board, d as usize) == 0 && emit(s, d as usize, NORMAL) {
                return true;
            }
        }
        for &t in geo.pawn_cap[us as usize].get(s) {
            let t = t as usize;
            let q = at(board, t);
            if q != 0 {
                if q >> 3 == them {
                    let kind = if (t >> 3) & 7 == last_rank {
                        PROMOTION
                    } else {
                        NORMAL
                    };
                    if emit(s, t, kind) {
                        return true;
                    }
                }
            } else if t == self.ep as usize
                && (!EP_TEST || self.safe_after(s, t, EN_PASSANT))
                && emit(s, t, EN_PASSANT)
            {
                return true;
            }
        }
        false
    }

    /// A piece on `s` that steps to any of `targets` not holding one of ours (knight, king,
    /// guard); with `NOISY`, only to those holding one of theirs.
    #[inline(always)]
    fn gen_steps<const NOISY: bool>(
        &self,
        s: usize,
        targets: &[u16],
        emit: &mut impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let them = self.side ^ 1;
        for &t in targets {
            let q = at(&self.board, t as usize);
            let ok = if NOISY {
                q != 0 && q >> 3 == them
            } else {
                q == 0 || q >> 3 == them
            };
            if ok && emit(s, t as usize, NORMAL) {
                return true;
            }
        }
        false
    }

    /// Bishop, rook or queen (`t`) on `s`: along its rays up to the first piece (with `NOISY`,
    /// only the captures).
    #[inline(always)]
    fn gen_slider<const NOISY: bool>(
        &self,
        s: usize,
        t: u8,
        emit: &mut impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let geo = self.geo;
        let them = self.side ^ 1;
        let sets: [&[geometry::Ray]; 2] = match t {
            BISHOP => [geo.bishop.get(s), &[]],
            ROOK => [geo.rook.get(s), &[]],
            _ => [geo.rook.get(s), geo.bishop.get(s)],
        };
        for rays in sets {
            for &r in rays {
                for &to in geo.ray(r) {
                    let q = at(&self.board, to as usize);
                    if q == 0 {
                        if !NOISY && emit(s, to as usize, NORMAL) {
                            return true;
                        }
                    } else {
                        if q >> 3 == them && emit(s, to as usize, NORMAL) {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        false
    }

    pub(super) fn has_legal_move(&self) -> bool {
        self.gen::<true, false>(&mut |_| true)
    }

    /// Whether the side to move can actually take en passant now.
    pub(super) fn compute_ep_legal(&self) -> bool {
        if self.ep == NONE {
            return false;
        }
        let us = self.side;
        let ep = self.ep as usize;
        let b = &self.board;
        for &s in self.geo.pawn_cap[(us ^ 1) as usize].get(ep) {
            if b[s as usize] == PAWN | us << 3 && self.safe_after(s as usize, ep, EN_PASSANT) {
                return true;
            }
        }
        false
    }

    /// A uniformly random legal move, testing legality only on the picks.
    pub(super) fn random_legal(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        use rand::Rng;
        if self.rule_status.is_over() {
            return None;
        }
        // Uniform over the pseudo-legal list, rejecting illegal picks: uniform over legal moves,
        // and far fewer legality tests than generating every legal move.
        buf.clear();
        self.gen::<false, false>(&mut |m| {
            buf.push(m);
            false
        });
        if buf.is_empty() {
            return None;
        }
        for _ in 0..32 {
            let m = buf[rng.random_range(0..buf.len())];
            let kind = if self.board[m.from()] & 7 == PAWN && m.to() == self.ep as usize {
                EN_PASSANT
            } else {
                NORMAL
            };
            if self.safe_after(m.from(), m.to(), kind) {
                return Some(m);
            }
        }
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }
}
