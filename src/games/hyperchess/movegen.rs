//! Move generation: pseudo-legal moves of every piece kind, and the legality test (a move is
//! tested on the board as it would leave it, read through a closure, only when it could expose
//! the king).
//!
//! Within a board, moves and attacks are read from per-board bitboards (`plane.rs`), the same
//! on every grid. Moves to other boards also go a set at a time: jumps grouped by target board,
//! and the sliders and pawns of a board moved together along each direction that changes board
//! (`Geometry::*_lines`). Attack tests, pins and checks walk the cross-board tables
//! (`Geometry::*_x`). On a single board all of those are empty.

use super::plane::{self, bit};
use super::*;

/// The piece on `s`: squares are below `MAX_SQ`, and the mask says so to the compiler, which
/// then drops the bounds check (a small gain: most of the checks were in the table lookups).
#[inline(always)]
pub(super) fn at(b: &[u8; MAX_SQ], s: usize) -> u8 {
    b[s & (MAX_SQ - 1)]
}

/// Where generated moves go.
pub(super) trait Sink {
    /// One move; true stops the generation.
    fn one(&mut self, m: Move) -> bool;

    /// Moves (no promotion) from `from` to `base + i` for each bit `i` of `bits`.
    #[inline(always)]
    fn set(&mut self, from: usize, base: usize, mut bits: u64) -> bool {
        while bits != 0 {
            let to = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.one(Move::new(from, to, 0)) {
                return true;
            }
        }
        false
    }

    /// Pawn moves (no promotion) to `base + i` for each bit `i` of `bits`, from `delta` squares
    /// back.
    #[inline(always)]
    fn shifted(&mut self, base: usize, mut bits: u64, delta: isize) -> bool {
        while bits != 0 {
            let to = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.one(Move::new((to as isize - delta) as usize, to, 0)) {
                return true;
            }
        }
        false
    }
}

/// A sink that hands every move to a closure.
pub(super) struct Each<F>(pub F);

impl<F: FnMut(Move) -> bool> Sink for Each<F> {
    #[inline(always)]
    fn one(&mut self, m: Move) -> bool {
        (self.0)(m)
    }
}

/// A sink that counts the moves (a set of them at once: perft's last ply).
pub(super) struct Count(pub usize);

impl Sink for Count {
    #[inline(always)]
    fn one(&mut self, _: Move) -> bool {
        self.0 += 1;
        false
    }
    #[inline(always)]
    fn set(&mut self, _: usize, _: usize, bits: u64) -> bool {
        self.0 += bits.count_ones() as usize;
        false
    }
    #[inline(always)]
    fn shifted(&mut self, _: usize, bits: u64, _: isize) -> bool {
        self.0 += bits.count_ones() as usize;
        false
    }
}

/// The four promotions (`pieces`: the `Promotions` option's) of the pawn move `from` → `to`.
#[inline(always)]
fn promotions(sink: &mut impl Sink, pieces: &[u8; 4], from: usize, to: usize) -> bool {
    for &p in pieces {
        if sink.one(Move::new(from, to, p)) {
            return true;
        }
    }
    false
}

/// Whether `sq` is attacked by a piece of colour `by`. Within the board of `sq`, the attackers
/// are read from `pb`, that board's bitboards (`Hyperchess::bb`), where the type bitboards are
/// only read through a colour's: a move's effect is given by changing the colour bitboards
/// alone. Jumps and lines from other boards read the board that `at` reads (square → piece
/// code); kinds of piece that `n` counts none of are not looked for there.
#[inline(always)]
fn attacked_on(
    geo: &Geometry,
    pb: &[u64; 9],
    at: impl Fn(usize) -> u8,
    n: &[u16; 8],
    sq: usize,
    by: u8,
) -> bool {
    if attacked_within(pb, sq, by) {
        return true;
    }
    if !geo.cross {
        return false;
    }
    let c = by << 3;
    if n[KNIGHT as usize] != 0 {
        for &s in geo.knight_x.get(sq) {
            if at(s as usize) == KNIGHT | c {
                return true;
            }
        }
    }
    if n[PAWN as usize] != 0 {
        for &s in geo.pawn_cap_x[(by ^ 1) as usize].get(sq) {
            if at(s as usize) == PAWN | c {
                return true;
            }
        }
    }
    if n[GUARD as usize] != 0 {
        for &s in geo.zw.get(sq) {
            if at(s as usize) == GUARD | c {
                return true;
            }
        }
    }
    if n[ROOK as usize] + n[QUEEN as usize] != 0
        && first_on_line(geo, geo.rook_x.get(sq), &at, ROOK, QUEEN, c)
    {
        return true;
    }
    n[BISHOP as usize] + n[QUEEN as usize] != 0
        && first_on_line(geo, geo.bishop_x.get(sq), &at, BISHOP, QUEEN, c)
}

/// Whether a piece of colour `by` on the board of `sq` (its bitboards `pb`) attacks `sq`.
#[inline(always)]
fn attacked_within(pb: &[u64; 9], sq: usize, by: u8) -> bool {
    let s = sq & 63;
    let theirs = pb[((by & 1) << 3) as usize];
    let near = (plane::KNIGHT[s] & pb[KNIGHT as usize])
        | (plane::PAWN_ATT[((by ^ 1) & 1) as usize][s] & pb[PAWN as usize])
        | (plane::KING[s] & (pb[KING as usize] | pb[GUARD as usize]));
    if near & theirs != 0 {
        return true;
    }
    let occ = pb[0] | pb[8];
    let rq = theirs & (pb[ROOK as usize] | pb[QUEEN as usize]);
    if rq & plane::ROOK_EMPTY[s] != 0 && plane::rook(s, occ) & rq != 0 {
        return true;
    }
    let bq = theirs & (pb[BISHOP as usize] | pb[QUEEN as usize]);
    bq & plane::BISHOP_EMPTY[s] != 0 && plane::bishop(s, occ) & bq != 0
}

/// Whether along one of `rays` (read through `at`) the first piece met is of kind `a` or `b`
/// and of the colour whose code bits are `c`.
#[inline(always)]
fn first_on_line(
    geo: &Geometry,
    rays: &[geometry::Ray],
    at: &impl Fn(usize) -> u8,
    a: u8,
    b: u8,
    c: u8,
) -> bool {
    rays.iter().any(|&r| {
        for &s in geo.ray(r) {
            let p = at(s as usize);
            if p != 0 {
                return p == a | c || p == b | c;
            }
        }
        false
    })
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

/// A set of squares of the whole grid, a bitboard per board.
pub(super) type Squares = [u64; MAX_SQ / 64];

/// Per board, for one generation: where a piece other than the king may go to end a check
/// (everywhere when not in check), the squares taken, and the squares our pieces other than
/// the king may go to (`block`, not ours; with `NOISY`, theirs).
pub(super) struct Sets<'a> {
    pub(super) block: &'a Squares,
    pub(super) occ: &'a Squares,
    pub(super) tgt: &'a Squares,
}

impl Hyperchess {
    /// Whether `sq` is attacked by a piece of colour `by`.
    ///
    /// From other boards the attackers are read from the bitboards too (the pieces of a kind
    /// on the squares they would attack `sq` from): a slider on the first square of a line to
    /// another board attacks at once, and a line is walked only when an enemy slider of the
    /// kind stands further along one; [`attacked_on`]
    /// walks them all (it reads a board as a move would leave it). The same answer: test
    /// `attacked_agrees_with_the_walk_on_every_grid`.
    #[inline]
    pub(super) fn attacked(&self, sq: usize, by: u8) -> bool {
        let geo = self.geo;
        let bb = &self.bb;
        if attacked_within(&bb[(sq >> 6) & (MAX_SQ / 64 - 1)], sq, by) {
            return true;
        }
        let c = ((by & 1) << 3) as usize;
        if !geo.cross {
            return false;
        }
        // Theirs of each kind on the squares of every other board they would reach `sq` from,
        // in one pass over the boards.
        use geometry::*;
        let nb = geo.nb.min(MAX_SQ / 64);
        let row = &geo.attack_x[(sq * nb).min(geo.attack_x.len())..];
        let (mut near, mut rq_any, mut rq_next, mut bq_any, mut bq_next) = (0, 0, 0, 0, 0);
        for (ax, q) in row.iter().zip(bb.iter()).take(nb) {
            let t = q[c];
            let rq = t & (q[ROOK as usize] | q[QUEEN as usize]);
            let bq = t & (q[BISHOP as usize] | q[QUEEN as usize]);
            near |= t
                & ((ax[AX_KNIGHT] & q[KNIGHT as usize])
                    | (ax[AX_GUARD] & q[GUARD as usize])
                    | (ax[AX_PAWN + (by & 1) as usize] & q[PAWN as usize]));
            rq_any |= ax[AX_ROOK] & rq;
            rq_next |= ax[AX_ROOK_NEXT] & rq;
            bq_any |= ax[AX_BISHOP] & bq;
            bq_next |= ax[AX_BISHOP_NEXT] & bq;
        }
        if near | rq_next | bq_next != 0 {
            return true;
        }
        let b = &self.board;
        let at = |s| at(b, s);
        let cb = (by & 1) << 3;
        (rq_any != 0 && first_on_line(geo, geo.rook_x.get(sq), &at, ROOK, QUEEN, cb))
            || (bq_any != 0 && first_on_line(geo, geo.bishop_x.get(sq), &at, BISHOP, QUEEN, cb))
    }

    /// [`attacked_on`] on the board as it stands: the walk [`Hyperchess::attacked`] is
    /// checked against.
    #[cfg(test)]
    pub(super) fn attacked_by_walk(&self, sq: usize, by: u8) -> bool {
        let b = &self.board;
        attacked_on(
            self.geo,
            &self.bb[(sq >> 6) & (MAX_SQ / 64 - 1)],
            |s| at(b, s),
            &self.counts[(by & 1) as usize],
            sq,
            by,
        )
    }

    /// Whether the king of the side to move may step to `to` when not in check: no enemy piece
    /// attacks `to`. The board is read as it stands: a slider whose line through the king's
    /// square reached `to` would be giving check now, so the king's leaving its square uncovers
    /// nothing. Kept out of line: inlined into the generator, the attack test slowed it (on
    /// 3x3, 703 M instructions against 693 M for `quatre perft --game hyperchess 3`).
    #[inline(never)]
    fn king_step_safe(&self, to: usize) -> bool {
        !self.attacked(to, self.side ^ 1)
    }

    /// Whether the mover's king is safe after the move `from` → `to` (`kind`), read on the
    /// board as the move leaves it (without copying the board).
    #[inline]
    pub(super) fn safe_after(&self, from: usize, to: usize, kind: u8) -> bool {
        let us = self.side;
        let them = us ^ 1;
        let b = &self.board;
        let p = b[from];
        let vsq = if kind == EN_PASSANT {
            ep_victim(to, us)
        } else {
            usize::MAX
        };
        let ksq = self.king[us as usize] as usize;
        let k = if from == ksq { to } else { ksq };
        let kb = (k >> 6) & (MAX_SQ / 64 - 1);
        // The king's board as the move leaves it: only the colour bitboards need changing.
        let mut pb = self.bb[kb];
        let (ou, ot) = (((us & 1) << 3) as usize, ((them & 1) << 3) as usize);
        if from >> 6 == kb {
            pb[ou] &= !bit(from);
        }
        if to >> 6 == kb {
            pb[ou] |= bit(to);
            pb[ot] &= !bit(to);
        }
        if vsq >> 6 == kb {
            pb[ot] &= !bit(vsq);
        }
        let after = |s: usize| {
            if s == to {
                p
            } else if s == from || s == vsq {
                0
            } else {
                at(b, s)
            }
        };
        !attacked_on(
            self.geo,
            &pb,
            after,
            &self.counts[(them & 1) as usize],
            k,
            them,
        )
    }

    /// Generates moves for the side to move into `sink`. With `LEGAL`, only legal ones; with
    /// `NOISY`, only captures, en passant and promotions (`Game::is_noisy`), in the order of
    /// the full list. Stops and returns true as soon as `sink` returns true.
    ///
    /// Legality: the king's steps are tested for attacks; pieces pinned against the king go
    /// through the mailbox generator, kept to their line; when in check, the other pieces may
    /// only capture the checker or block its line (nothing, in double check); en passant is
    /// tested on the board it leaves. The rest go to the sink untested, a set at a time.
    #[inline(always)]
    pub(super) fn gen<const LEGAL: bool, const NOISY: bool>(&self, sink: &mut impl Sink) -> bool {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        let (ou, ot) = (((us & 1) << 3) as usize, ((them & 1) << 3) as usize);
        let ksq = self.king[us as usize] as usize;
        let in_check = LEGAL && self.in_check;
        // Where pieces other than the king may go (a check restricts it), and the pieces the
        // setwise generation below leaves out (the king and pinned pieces).
        let mut block = [!0u64; MAX_SQ / 64];
        let mut fixed = [0u64; MAX_SQ / 64];
        let mut others = true;
        if LEGAL {
            if in_check {
                others = self.check_block(ksq, &mut block);
            }
            fixed = self.pinned(ksq);
            let kb = (ksq >> 6) & (MAX_SQ / 64 - 1);
            let pb = &self.bb[kb];
            let mut steps = plane::KING[ksq & 63] & if NOISY { pb[ot] } else { !pb[ou] };
            while steps != 0 {
                let to = kb * 64 + steps.trailing_zeros() as usize;
                steps &= steps - 1;
                let ok = if in_check {
                    self.safe_after(ksq, to, NORMAL)
                } else {
                    self.king_step_safe(to)
                };
                if ok && sink.one(Move::new(ksq, to, 0)) {
                    return true;
                }
            }
            fixed[kb] |= bit(ksq);
        }
        if others {
            if geo.cross {
                // Per board: the squares taken, and those our pieces may go to (for the moves
                // to other boards; a single board reads its own bitboards).
                let mut occ = [0u64; MAX_SQ / 64];
                let mut tgt = [0u64; MAX_SQ / 64];
                for b in 0..geo.nb {
                    let b = b & (MAX_SQ / 64 - 1);
                    let pb = &self.bb[b];
                    occ[b] = pb[ou] | pb[ot];
                    tgt[b] = block[b] & if NOISY { pb[ot] } else { !pb[ou] };
                }
                let sets = Sets {
                    block: &block,
                    occ: &occ,
                    tgt: &tgt,
                };
                for b in 0..geo.nb {
                    let b = b & (MAX_SQ / 64 - 1);
                    let free = self.bb[b][ou] & !fixed[b];
                    if free != 0 && self.gen_board::<NOISY, true>(b, free, &sets, sink) {
                        return true;
                    }
                }
            } else {
                // `occ` and `tgt` are not read on a single board.
                let sets = Sets {
                    block: &block,
                    occ: &block,
                    tgt: &block,
                };
                let free = self.bb[0][ou] & !fixed[0];
                if free != 0 && self.gen_board::<NOISY, false>(0, free, &sets, sink) {
                    return true;
                }
            }
            if LEGAL && !in_check {
                // Pinned pieces, along their pin line only (none can help against a check:
                // the pin line meets the check line only at the king).
                for b in 0..geo.nb {
                    let b = b & (MAX_SQ / 64 - 1);
                    let mut pins = fixed[b] & !bit(ksq);
                    if b != ksq >> 6 {
                        pins = fixed[b];
                    }
                    while pins != 0 {
                        let s = b * 64 + pins.trailing_zeros() as usize;
                        pins &= pins - 1;
                        let mut along = |to: usize| on_ray_through(geo, ksq, s, to);
                        if self.gen_piece::<NOISY>(s, at(board, s), &mut along, sink) {
                            return true;
                        }
                    }
                }
            }
        }
        if self.ep != NONE {
            let ep = self.ep as usize;
            for &s in geo.pawn_cap[them as usize].get(ep) {
                let s = s as usize;
                if at(board, s) == PAWN | us << 3
                    && (!LEGAL || self.safe_after(s, ep, EN_PASSANT))
                    && sink.one(Move::new(s, ep, 0))
                {
                    return true;
                }
            }
        }
        false
    }

    /// The moves of our pieces `free` on board `b` (en passant aside); with `CROSS`, also those
    /// to other boards (`sets.occ` and `sets.tgt` are read only then).
    #[inline(always)]
    fn gen_board<const NOISY: bool, const CROSS: bool>(
        &self,
        b: usize,
        free: u64,
        sets: &Sets,
        sink: &mut impl Sink,
    ) -> bool {
        let geo = self.geo;
        let us = self.side;
        let them = us ^ 1;
        let (ou, ot) = (((us & 1) << 3) as usize, ((them & 1) << 3) as usize);
        let pb = &self.bb[b];
        let block = sets.block;
        let occ = pb[ou] | pb[ot];
        let base = b * 64;
        let tgt = block[b] & if NOISY { pb[ot] } else { !pb[ou] };

        // Pawns: setwise within the board, one at a time to other boards.
        let pawns = free & pb[PAWN as usize];
        if pawns != 0 {
            let (bl, theirs) = (block[b], pb[ot]);
            let (one, two, left, right, last, d) = if us == 0 {
                let one = (pawns << 8) & !occ;
                (
                    one & bl,
                    ((one & plane::RANK_3) << 8) & !occ & bl,
                    ((pawns & !plane::FILE_A) << 7) & theirs & bl,
                    ((pawns & !plane::FILE_H) << 9) & theirs & bl,
                    plane::RANK_8,
                    8isize,
                )
            } else {
                let one = (pawns >> 8) & !occ;
                (
                    one & bl,
                    ((one & plane::RANK_6) >> 8) & !occ & bl,
                    ((pawns & !plane::FILE_A) >> 9) & theirs & bl,
                    ((pawns & !plane::FILE_H) >> 7) & theirs & bl,
                    plane::RANK_1,
                    -8isize,
                )
            };
            if !NOISY && (sink.shifted(base, one & !last, d) || sink.shifted(base, two, 2 * d)) {
                return true;
            }
            // Captures: `left` towards file a (a step of d - 1), `right` towards file h.
            if sink.shifted(base, left & !last, d - 1) || sink.shifted(base, right & !last, d + 1) {
                return true;
            }
            for (mut set, d) in [(one & last, d), (left & last, d - 1), (right & last, d + 1)] {
                while set != 0 {
                    let to = base + set.trailing_zeros() as usize;
                    set &= set - 1;
                    if promotions(sink, self.promos, (to as isize - d) as usize, to) {
                        return true;
                    }
                }
            }
            if CROSS {
                // Captures on the neighbouring boards, all pawns at once.
                for l in &geo.pawn_lines[(us & 1) as usize] {
                    if l.steps[b] == 0 {
                        continue;
                    }
                    let tb = (b as isize + l.board as isize) as usize & (MAX_SQ / 64 - 1);
                    let delta = (l.shift + 64 * l.board) as isize;
                    let caps = l.step(pawns) & sets.tgt[tb] & sets.occ[tb];
                    if sink.shifted(tb * 64, caps & !last, delta) {
                        return true;
                    }
                    let mut promo = caps & last;
                    while promo != 0 {
                        let to = tb * 64 + promo.trailing_zeros() as usize;
                        promo &= promo - 1;
                        if promotions(sink, self.promos, (to as isize - delta) as usize, to) {
                            return true;
                        }
                    }
                }
            }
        }

        // Knights, sliders, guards (and the king, when it needs no test).
        for s in plane::squares(free & pb[KNIGHT as usize]) {
            if sink.set(base + s, base, plane::KNIGHT[s] & tgt)
                || (CROSS && self.jumps_x(base + s, geo.knight_xb.get(base + s), sets, sink))
            {
                return true;
            }
        }
        for s in plane::squares(free & (pb[BISHOP as usize] | pb[QUEEN as usize])) {
            if sink.set(base + s, base, plane::bishop(s, occ) & tgt) {
                return true;
            }
        }
        for s in plane::squares(free & (pb[ROOK as usize] | pb[QUEEN as usize])) {
            if sink.set(base + s, base, plane::rook(s, occ) & tgt) {
                return true;
            }
        }
        if CROSS {
            let rooks = free & (pb[ROOK as usize] | pb[QUEEN as usize]);
            let bishops = free & (pb[BISHOP as usize] | pb[QUEEN as usize]);
            if (rooks != 0 && self.lines_x(b, rooks, &geo.rook_lines, sets, sink))
                || (bishops != 0 && self.lines_x(b, bishops, &geo.bishop_lines, sets, sink))
            {
                return true;
            }
        }
        for s in plane::squares(free & (pb[GUARD as usize] | pb[KING as usize])) {
            if sink.set(base + s, base, plane::KING[s] & tgt)
                || (CROSS
                    && pb[GUARD as usize] & bit(s) != 0
                    && self.jumps_x(base + s, geo.zw_b.get(base + s), sets, sink))
            {
                return true;
            }
        }
        false
    }

    /// The jumps of our piece on `s` to the squares `targets` on other boards (the
    /// evaluation counts its mobility with these too).
    #[inline(always)]
    pub(super) fn jumps_x(
        &self,
        s: usize,
        targets: &[geometry::OnBoard],
        sets: &Sets,
        sink: &mut impl Sink,
    ) -> bool {
        for ob in targets {
            let tb = ob.board as usize & (MAX_SQ / 64 - 1);
            if sink.set(s, tb * 64, ob.bits & sets.tgt[tb]) {
                return true;
            }
        }
        false
    }

    /// The moves of our sliders `from` on board `b` along the lines `lines` to other boards,
    /// all of them at once: a step at a time, the pieces still moving land on the next board.
    #[inline(always)]
    pub(super) fn lines_x(
        &self,
        b: usize,
        from: u64,
        lines: &[geometry::CrossLine],
        sets: &Sets,
        sink: &mut impl Sink,
    ) -> bool {
        for l in lines {
            let mut front = from;
            let mut tb = b as isize;
            let mut delta = 0;
            for _ in 0..l.steps[b & (MAX_SQ / 64 - 1)] {
                front = l.step(front);
                if front == 0 {
                    break;
                }
                tb += l.board as isize;
                delta += (l.shift + 64 * l.board) as isize;
                let t = tb as usize & (MAX_SQ / 64 - 1);
                if sink.shifted(t * 64, front & sets.tgt[t], delta) {
                    return true;
                }
                front &= !sets.occ[t];
            }
        }
        false
    }

    /// When in check: sets `block` to the squares where a piece other than the king ends a
    /// single check (the checker's square, and those between it and a checking slider) and
    /// returns true; in double check returns false.
    fn check_block(&self, ksq: usize, block: &mut Squares) -> bool {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        let (ou, ot) = (((us & 1) << 3) as usize, ((them & 1) << 3) as usize);
        let kb = (ksq >> 6) & (MAX_SQ / 64 - 1);
        let k = ksq & 63;
        let pb = &self.bb[kb];
        let theirs = pb[ot];
        let occ = pb[ou] | theirs;
        *block = [0; MAX_SQ / 64];
        let mut checkers = theirs
            & ((plane::KNIGHT[k] & pb[KNIGHT as usize])
                | (plane::PAWN_ATT[(us & 1) as usize][k] & pb[PAWN as usize])
                | (plane::KING[k] & pb[GUARD as usize]));
        let mut n = checkers.count_ones();
        let mut sliders = theirs
            & ((plane::rook(k, occ) & (pb[ROOK as usize] | pb[QUEEN as usize]))
                | (plane::bishop(k, occ) & (pb[BISHOP as usize] | pb[QUEEN as usize])));
        while sliders != 0 {
            let c = sliders.trailing_zeros() as usize;
            sliders &= sliders - 1;
            checkers |= bit(c) | plane::BETWEEN[k][c];
            n += 1;
        }
        block[kb] = checkers;
        if geo.cross {
            let c = them << 3;
            let lists = [
                (geo.knight_x.get(ksq), KNIGHT),
                (geo.pawn_cap_x[(us & 1) as usize].get(ksq), PAWN),
                (geo.zw.get(ksq), GUARD),
            ];
            for (list, kind) in lists {
                for &s in list {
                    if at(board, s as usize) == kind | c {
                        block[(s as usize >> 6) & (MAX_SQ / 64 - 1)] |= bit(s as usize);
                        n += 1;
                    }
                }
            }
            for (rays, a) in [(geo.rook_x.get(ksq), ROOK), (geo.bishop_x.get(ksq), BISHOP)] {
                for &r in rays {
                    let line = geo.ray(r);
                    for (i, &s) in line.iter().enumerate() {
                        let p = at(board, s as usize);
                        if p == 0 {
                            continue;
                        }
                        if p == a | c || p == QUEEN | c {
                            for &q in &line[..=i] {
                                block[(q as usize >> 6) & (MAX_SQ / 64 - 1)] |= bit(q as usize);
                            }
                            n += 1;
                        }
                        break;
                    }
                }
            }
        }
        n < 2
    }

    /// Our pieces that stand alone between our king on `ksq` and an enemy rook, bishop or queen
    /// along one of its lines.
    #[inline(always)]
    fn pinned(&self, ksq: usize) -> Squares {
        let geo = self.geo;
        let board = &self.board;
        let us = self.side;
        let them = us ^ 1;
        let (ou, ot) = (((us & 1) << 3) as usize, ((them & 1) << 3) as usize);
        let kb = (ksq >> 6) & (MAX_SQ / 64 - 1);
        let k = ksq & 63;
        let pb = &self.bb[kb];
        let (own, theirs) = (pb[ou], pb[ot]);
        let mut pinned = [0u64; MAX_SQ / 64];
        let mut snipers = theirs
            & ((plane::ROOK_EMPTY[k] & (pb[ROOK as usize] | pb[QUEEN as usize]))
                | (plane::BISHOP_EMPTY[k] & (pb[BISHOP as usize] | pb[QUEEN as usize])));
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let between = plane::BETWEEN[k][s] & (own | theirs);
            if between & (between.wrapping_sub(1)) == 0 && between & own != 0 {
                pinned[kb] |= between;
            }
        }
        if !geo.cross {
            return pinned;
        }
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
                        pinned[(own >> 6) & (MAX_SQ / 64 - 1)] |= bit(own);
                    }
                    break;
                }
            }
        };
        mark(geo.rook_x.get(ksq), ROOK, QUEEN);
        mark(geo.bishop_x.get(ksq), BISHOP, QUEEN);
        pinned
    }

    /// The moves of our pinned piece `p` on `s` to the squares that `along` accepts, through the
    /// mailbox and the full geometry tables (pins are rare).
    #[inline(always)]
    fn gen_piece<const NOISY: bool>(
        &self,
        s: usize,
        p: u8,
        along: &mut impl FnMut(usize) -> bool,
        sink: &mut impl Sink,
    ) -> bool {
        let geo = self.geo;
        let mut emit = |from: usize, to: usize, kind: u8| -> bool {
            if !along(to) {
                false
            } else if kind == PROMOTION {
                promotions(sink, self.promos, from, to)
            } else {
                sink.one(Move::new(from, to, 0))
            }
        };
        match p & 7 {
            PAWN => self.gen_pawn::<NOISY>(s, &mut emit),
            KNIGHT => self.gen_steps::<NOISY>(s, geo.knight.get(s), &mut emit),
            t @ (BISHOP | ROOK | QUEEN) => self.gen_slider::<NOISY>(s, t, &mut emit),
            GUARD => {
                self.gen_steps::<NOISY>(s, geo.king.get(s), &mut emit)
                    || self.gen_steps::<NOISY>(s, geo.zw.get(s), &mut emit)
            }
            _ => self.gen_steps::<NOISY>(s, geo.king.get(s), &mut emit),
        }
    }

    /// Pawn on `s`: the push (double from the start rank), captures, promotions (with `NOISY`,
    /// pushes only when they promote); en passant is left to `gen`.
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
            if q != 0 && q >> 3 == them {
                let kind = if (t >> 3) & 7 == last_rank {
                    PROMOTION
                } else {
                    NORMAL
                };
                if emit(s, t, kind) {
                    return true;
                }
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
        self.gen::<true, false>(&mut Each(|_| true))
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
        self.gen::<false, false>(&mut Each(|m| {
            buf.push(m);
            false
        }));
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
