//! Move generation: pseudo-legal moves of every piece kind through the geometry tables, and the
//! legality test (a move is tested on the board as it would leave it, read through a closure, only
//! when it could expose the king).

use super::*;

/// Whether `sq` is attacked by a piece of colour `by` on board `b`.
#[inline]
pub(super) fn attacked(geo: &Geometry, b: &[u8; MAX_SQ], sq: usize, by: u8) -> bool {
    attacked_on(geo, |s| b[s], sq, by)
}

/// [`attacked`] on the board that `at` reads (square → piece code): the board after a move is
/// read through a closure rather than copied.
#[inline(always)]
fn attacked_on(geo: &Geometry, at: impl Fn(usize) -> u8, sq: usize, by: u8) -> bool {
    let c = by << 3;
    for &s in geo.knight.get(sq) {
        if at(s as usize) == KNIGHT | c {
            return true;
        }
    }
    for &s in geo.pawn_cap[(by ^ 1) as usize].get(sq) {
        if at(s as usize) == PAWN | c {
            return true;
        }
    }
    for &s in geo.king.get(sq) {
        let p = at(s as usize);
        if p == KING | c || p == GUARD | c {
            return true;
        }
    }
    for &s in geo.zw.get(sq) {
        if at(s as usize) == GUARD | c {
            return true;
        }
    }
    for &r in geo.rook.get(sq) {
        for &s in geo.ray(r) {
            let p = at(s as usize);
            if p != 0 {
                if p == ROOK | c || p == QUEEN | c {
                    return true;
                }
                break;
            }
        }
    }
    for &r in geo.bishop.get(sq) {
        for &s in geo.ray(r) {
            let p = at(s as usize);
            if p != 0 {
                if p == BISHOP | c || p == QUEEN | c {
                    return true;
                }
                break;
            }
        }
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

/// Whether the king of `us` (on `ksq` unless it is the moving piece) is safe after the move,
/// read on the board as the move leaves it (without copying the board).
#[inline]
pub(super) fn safe_after(
    geo: &Geometry,
    b: &[u8; MAX_SQ],
    from: usize,
    to: usize,
    kind: u8,
    ksq: usize,
    us: u8,
) -> bool {
    let p = b[from];
    let vsq = if kind == EN_PASSANT {
        ep_victim(to, us)
    } else {
        usize::MAX
    };
    let k = if from == ksq { to } else { ksq };
    let at = |s: usize| {
        if s == to {
            p
        } else if s == from || s == vsq {
            0
        } else {
            b[s]
        }
    };
    !attacked_on(geo, at, k, us ^ 1)
}

impl Hyperchess {
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
        // Pieces that may be pinned against our king (only looked at when not in check).
        let pinned = if LEGAL && !in_check {
            self.pinned(ksq)
        } else {
            [0u64; MAX_SQ / 64]
        };
        let mut emit = |from: usize, to: usize, kind: u8| -> bool {
            if LEGAL
                && (in_check
                    || from == ksq
                    || kind == EN_PASSANT
                    || pinned[from >> 6] & (1 << (from & 63)) != 0)
                && !safe_after(geo, board, from, to, kind, ksq, us)
            {
                return false;
            }
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
                let p = board[s];
                let stop = match p & 7 {
                    PAWN => self.gen_pawn::<NOISY>(s, &mut emit),
                    KNIGHT => self.gen_steps::<NOISY>(s, geo.knight.get(s), &mut emit),
                    t @ (BISHOP | ROOK | QUEEN) => self.gen_slider::<NOISY>(s, t, &mut emit),
                    GUARD => {
                        self.gen_steps::<NOISY>(s, geo.king.get(s), &mut emit)
                            || self.gen_steps::<NOISY>(s, geo.zw.get(s), &mut emit)
                    }
                    _ => self.gen_steps::<NOISY>(s, geo.king.get(s), &mut emit),
                };
                if stop {
                    return true;
                }
            }
            base += 8;
        }
        false
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
                    let p = board[s as usize];
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
    /// (with `NOISY`, pushes only when they promote).
    #[inline(always)]
    fn gen_pawn<const NOISY: bool>(
        &self,
        s: usize,
        emit: &mut impl FnMut(usize, usize, u8) -> bool,
    ) -> bool {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        let last_rank = if us == 0 { 7 } else { 0 };
        let push = geo.pawn_push[us as usize][s];
        if push != NONE && board[push as usize] == 0 {
            let push = push as usize;
            let kind = if geo.coord[push][1] == last_rank {
                PROMOTION
            } else {
                NORMAL
            };
            if (!NOISY || kind == PROMOTION) && emit(s, push, kind) {
                return true;
            }
            let d = geo.pawn_double[us as usize][s];
            if !NOISY && d != NONE && board[d as usize] == 0 && emit(s, d as usize, NORMAL) {
                return true;
            }
        }
        for &t in geo.pawn_cap[us as usize].get(s) {
            let t = t as usize;
            let q = board[t];
            if q != 0 {
                if q >> 3 == them {
                    let kind = if geo.coord[t][1] == last_rank {
                        PROMOTION
                    } else {
                        NORMAL
                    };
                    if emit(s, t, kind) {
                        return true;
                    }
                }
            } else if t == self.ep as usize && emit(s, t, EN_PASSANT) {
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
            let q = self.board[t as usize];
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
                    let q = self.board[to as usize];
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
        let ksq = self.king[us as usize] as usize;
        let b = &self.board;
        for &s in self.geo.pawn_cap[(us ^ 1) as usize].get(ep) {
            if b[s as usize] == PAWN | us << 3
                && safe_after(self.geo, b, s as usize, ep, EN_PASSANT, ksq, us)
            {
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
        let us = self.side;
        let ksq = self.king[us as usize] as usize;
        let b = &self.board;
        for _ in 0..32 {
            let m = buf[rng.random_range(0..buf.len())];
            let kind = if self.board[m.from()] & 7 == PAWN && m.to() == self.ep as usize {
                EN_PASSANT
            } else {
                NORMAL
            };
            if safe_after(self.geo, b, m.from(), m.to(), kind, ksq, us) {
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
