//! Move generation. Generators call a sink `f(move, is_capture)` so that the same code fills the
//! legal-move list, counts moves (status, evaluation) and finds captures without allocating.

use super::*;
use rand::Rng;

/// Whether a man of `side` may not enter a cell (cross footprint, slider, own man).
#[inline]
fn man_blocked(c: u8, side: usize) -> bool {
    let k = c & KM;
    c & FP != 0 || is_slider(k) || (k != 0 && color(c) == side)
}
/// An empty point outside every cross footprint.
#[inline]
pub(crate) fn free(c: u8) -> bool {
    c & (KM | FP) == 0
}

impl Tesseract {
    /// Every legal move of the side to move (the game must not be over).
    pub(crate) fn gen_all<F: FnMut(Move, bool)>(&self, f: &mut F) {
        let side = self.side as usize;
        match self.stage() {
            Stage::Play => {
                if self.must_drop(side) {
                    self.gen_drops(side, true, f);
                } else {
                    self.gen_pieces(side, f);
                    self.gen_drops(side, false, f);
                }
            }
            Stage::Men => {
                let r = &self.reserve[side];
                let kinds = [
                    (K_T, r[R_T] > 0),
                    (K_S, r[R_S] == FULL[R_S]),
                    (K_P, r[R_P] > 0),
                ];
                for sq in 0..SQ as u8 {
                    if in_camp(side, sq) && free(self.board[sq as usize]) {
                        for &(k, ok) in &kinds {
                            if ok {
                                f(Move::new(1 + k, NONE, NONE, sq), false);
                            }
                        }
                    }
                }
            }
            Stage::Sliders => {
                if self.reserve[side][R_SM] > 0 {
                    for sq in 0..SQ as u8 {
                        if in_camp(side, sq) && free(self.board[sq as usize]) {
                            f(Move::new(MK_SH, NONE, NONE, sq), false);
                            f(Move::new(MK_SV, NONE, NONE, sq), false);
                        }
                    }
                }
            }
            Stage::Crosses => {
                if self.reserve[side][R_X] > 0 {
                    for sq in 0..SQ as u8 {
                        if self.cross_fits(sq) {
                            f(Move::new(MK_X, NONE, NONE, sq), false);
                        }
                    }
                }
            }
        }
    }

    /// Whether a cross centred on `sq` may be placed now.
    pub(crate) fn cross_fits(&self, sq: u8) -> bool {
        if !cross_centre_ok(sq) {
            return false;
        }
        let nb = &NB[sq as usize];
        free(self.board[sq as usize])
            && free(self.board[nb[0] as usize])
            && free(self.board[nb[1] as usize])
            && free(self.board[nb[2] as usize])
            && free(self.board[nb[3] as usize])
    }

    /// Moves of `side`'s men and sliders on the board (no drops).
    pub(crate) fn gen_pieces<F: FnMut(Move, bool)>(&self, side: usize, f: &mut F) {
        for sq in 0..SQ as u8 {
            let c = self.board[sq as usize];
            let k = c & KM;
            if k == 0 || color(c) != side {
                continue;
            }
            match k {
                K_T => {
                    let range = self.t_range(side);
                    for d in 0..8 {
                        self.gen_line(sq, side, d, range, f);
                    }
                }
                K_C => {
                    for d in 0..8 {
                        self.gen_line(sq, side, d, 2, f);
                    }
                }
                K_S => self.gen_bent(sq, side, 4, f),
                K_P => self.gen_bent(sq, side, 0, f),
                K_R => self.gen_rect(sq, side, f),
                K_SH | K_SV | K_LHA | K_LVA => self.gen_slider(sq, k, side, f),
                _ => {}
            }
        }
    }

    /// A straight move of up to `range` points (Tesseract, Cylinder), with capture by jumping.
    #[inline]
    pub(crate) fn gen_line<F: FnMut(Move, bool)>(
        &self,
        from: u8,
        side: usize,
        d: usize,
        range: u32,
        f: &mut F,
    ) {
        let mut sq = from;
        let mut dist = 0;
        loop {
            let nx = NB[sq as usize][d];
            dist += 1;
            if nx == NONE || dist > range {
                return;
            }
            let c = self.board[nx as usize];
            if c & (KM | FP) == 0 {
                f(Move::new(MK_MOVE, from, NONE, nx), false);
                sq = nx;
                continue;
            }
            if !man_blocked(c, side) && dist < range {
                // enemy man: jump if the point after is free
                let l = NB[nx as usize][d];
                if l != NONE && free(self.board[l as usize]) {
                    f(Move::new(MK_MOVE, from, NONE, l), true);
                }
            }
            return;
        }
    }

    /// Star (first direction family `base` = 4, diagonals) or Pyramid (`base` = 0, orthogonal).
    fn gen_bent<F: FnMut(Move, bool)>(&self, from: u8, side: usize, base: usize, f: &mut F) {
        for d in base..base + 4 {
            let p1 = NB[from as usize][d];
            if p1 == NONE {
                continue;
            }
            let p2 = NB[p1 as usize][d];
            if p2 == NONE {
                continue;
            }
            let c1 = self.board[p1 as usize];
            if c1 & (KM | FP) != 0 {
                if !man_blocked(c1, side) && free(self.board[p2 as usize]) {
                    f(Move::new(MK_MOVE, from, NONE, p2), true);
                }
                continue;
            }
            if !free(self.board[p2 as usize]) {
                continue;
            }
            for e in perps(d) {
                let mut sq = p2;
                loop {
                    let nx = NB[sq as usize][e];
                    if nx == NONE {
                        break;
                    }
                    let c = self.board[nx as usize];
                    if c & (KM | FP) == 0 {
                        f(Move::new(MK_MOVE, from, p2, nx), false);
                        sq = nx;
                        continue;
                    }
                    if !man_blocked(c, side) {
                        let l = NB[nx as usize][e];
                        if l != NONE && free(self.board[l as usize]) {
                            f(Move::new(MK_MOVE, from, p2, l), true);
                        }
                    }
                    break;
                }
            }
        }
    }

    fn gen_rect<F: FnMut(Move, bool)>(&self, from: u8, side: usize, f: &mut F) {
        for a in 0..4 {
            let p1 = NB[from as usize][a];
            if p1 == NONE {
                continue;
            }
            let p2 = NB[p1 as usize][a];
            if p2 == NONE || self.board[p1 as usize] & FP != 0 || self.board[p2 as usize] & FP != 0
            {
                continue;
            }
            for b in perps(a) {
                let p3 = NB[p2 as usize][b];
                if p3 == NONE || self.board[p3 as usize] & FP != 0 {
                    continue;
                }
                let dst = NB[p3 as usize][b];
                if dst == NONE || !free(self.board[dst as usize]) {
                    continue;
                }
                let enemy = |s: u8| {
                    let c = self.board[s as usize];
                    is_man(c & KM) && color(c) != side
                };
                let cap = enemy(p1) || enemy(p2) || enemy(p3);
                f(Move::new(MK_MOVE, from, p2, dst), cap);
            }
        }
    }

    /// Slides (both ways, with slide-captures) and pivots of the slider anchored on `a`.
    fn gen_slider<F: FnMut(Move, bool)>(&self, a: u8, k: u8, side: usize, f: &mut F) {
        let horiz = k == K_SH || k == K_LHA;
        let large = k == K_LHA || k == K_LVA;
        let (fwd, back) = if horiz {
            (1usize, 3usize)
        } else {
            (0usize, 2usize)
        };
        let len: u8 = if large { 2 } else { 1 };
        let step: u8 = if horiz { 1 } else { W as u8 };
        // forward: the leading point is the far end
        let tail_off = (len - 1) * step;
        for (dir, lead0) in [(fwd, a + tail_off), (back, a)] {
            let mut lead = lead0;
            loop {
                let nx = NB[lead as usize][dir];
                if nx == NONE {
                    break;
                }
                let c = self.board[nx as usize];
                let kk = c & KM;
                if c & CEN != 0 {
                    break;
                }
                let anchor_for = |l: u8| if dir == fwd { l - tail_off } else { l };
                if kk == 0 {
                    f(Move::new(MK_MOVE, a, NONE, anchor_for(nx)), false);
                    lead = nx;
                    continue;
                }
                if is_man(kk) && color(c) != side && kk != K_T {
                    let l = NB[nx as usize][dir];
                    if l != NONE {
                        let lc = self.board[l as usize];
                        if lc & (KM | CEN) == 0 {
                            f(Move::new(MK_MOVE, a, NONE, anchor_for(l)), true);
                        }
                    }
                }
                break;
            }
        }
        // pivots
        if !large {
            if self.board[a as usize] & ARM == 0 {
                f(Move::new(MK_PIVOT, a, NONE, NONE), false);
            }
        } else {
            let perp = if horiz {
                [0usize, 2usize]
            } else {
                [1usize, 3usize]
            };
            for p in [a, a + step] {
                if self.board[p as usize] & ARM != 0 {
                    continue;
                }
                for e in perp {
                    let o = NB[p as usize][e];
                    if o != NONE && free(self.board[o as usize]) {
                        f(Move::new(MK_PIVOT, p, NONE, o), false);
                    }
                }
            }
        }
    }

    /// Drops of `side`'s reserve (men only when `men_only`).
    pub(crate) fn gen_drops<F: FnMut(Move, bool)>(&self, side: usize, men_only: bool, f: &mut F) {
        let r = &self.reserve[side];
        let mut kinds = [0u8; 5];
        let mut nk = 0;
        for k in K_T..=K_C {
            if r[(k - 1) as usize] > 0 {
                kinds[nk] = 1 + k;
                nk += 1;
            }
        }
        let small = !men_only && r[R_SM] > 0;
        let large = !men_only && r[R_L] > 0;
        if nk == 0 && !small && !large {
            return;
        }
        for sq in 0..SQ as u8 {
            if !free(self.board[sq as usize]) {
                continue;
            }
            for &k in &kinds[..nk] {
                f(Move::new(k, NONE, NONE, sq), false);
            }
            if small {
                f(Move::new(MK_SH, NONE, NONE, sq), false);
                f(Move::new(MK_SV, NONE, NONE, sq), false);
            }
            if large {
                let e = NB[sq as usize][1];
                if e != NONE && free(self.board[e as usize]) {
                    f(Move::new(MK_LH, NONE, NONE, sq), false);
                }
                let n = NB[sq as usize][0];
                if n != NONE && free(self.board[n as usize]) {
                    f(Move::new(MK_LV, NONE, NONE, sq), false);
                }
            }
        }
    }

    /// Whether `side`'s Tesseract has a move.
    pub(crate) fn t_can_move(&self, side: usize) -> bool {
        let t = self.tpos[side];
        if t == NONE {
            return false;
        }
        let mut any = false;
        let range = self.t_range(side);
        for d in 0..8 {
            self.gen_line(t, side, d, range, &mut |_, _| any = true);
            if any {
                return true;
            }
        }
        false
    }

    /// Whether the side to move has any legal move (ignores the game being over).
    pub(crate) fn has_any_move(&self) -> bool {
        let side = self.side as usize;
        if self.in_play() {
            let r = &self.reserve[side];
            let men_res = self.men_in_reserve(side) > 0;
            let must = self.must_drop(side);
            if men_res || (!must && r[R_SM] > 0) {
                if self.board.iter().any(|&c| free(c)) {
                    return true;
                }
                if must {
                    return false;
                }
            }
        }
        if self.in_play() {
            // A small slider off the arm ends can always pivot.
            let me = (side as u8) << 4;
            if self.board.iter().any(|&c| {
                let k = c & KM;
                (k == K_SH || k == K_SV) && c & (BLK | ARM) == me
            }) {
                return true;
            }
        }
        let mut any = false;
        self.gen_all(&mut |_, _| any = true);
        any
    }

    /// One uniformly random legal move, counting drops instead of listing them.
    pub(crate) fn random_move_fast(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        buf.clear();
        if self.status.is_over() {
            return None;
        }
        let side = self.side as usize;
        if !self.in_play() {
            self.gen_all(&mut |m, _| buf.push(m));
            if buf.is_empty() {
                return None;
            }
            return Some(buf[rng.random_range(0..buf.len())]);
        }
        let must = self.must_drop(side);
        if !must {
            self.gen_pieces(side, &mut |m, _| buf.push(m));
        }
        let r = &self.reserve[side];
        let mut kinds = [0u8; 5];
        let mut nk = 0;
        for k in K_T..=K_C {
            if r[(k - 1) as usize] > 0 {
                kinds[nk] = 1 + k;
                nk += 1;
            }
        }
        let small = !must && r[R_SM] > 0;
        let large = !must && r[R_L] > 0;
        let per_point = nk + if small { 2 } else { 0 };
        let mut free_pts = 0usize;
        let mut pairs = 0usize;
        if per_point > 0 || large {
            for sq in 0..SQ {
                if !free(self.board[sq]) {
                    continue;
                }
                free_pts += 1;
                if large {
                    let e = NB[sq][1];
                    if e != NONE && free(self.board[e as usize]) {
                        pairs += 1;
                    }
                    let n = NB[sq][0];
                    if n != NONE && free(self.board[n as usize]) {
                        pairs += 1;
                    }
                }
            }
        }
        let total = buf.len() + per_point * free_pts + pairs;
        if total == 0 {
            return None;
        }
        let mut x = rng.random_range(0..total);
        if x < buf.len() {
            return Some(buf[x]);
        }
        x -= buf.len();
        if x < per_point * free_pts {
            let mut idx = x / per_point;
            let which = x % per_point;
            let kind = if which < nk {
                kinds[which]
            } else if which == nk {
                MK_SH
            } else {
                MK_SV
            };
            for sq in 0..SQ as u8 {
                if free(self.board[sq as usize]) {
                    if idx == 0 {
                        return Some(Move::new(kind, NONE, NONE, sq));
                    }
                    idx -= 1;
                }
            }
            return None;
        }
        x -= per_point * free_pts;
        for sq in 0..SQ as u8 {
            if !free(self.board[sq as usize]) {
                continue;
            }
            let e = NB[sq as usize][1];
            if e != NONE && free(self.board[e as usize]) {
                if x == 0 {
                    return Some(Move::new(MK_LH, NONE, NONE, sq));
                }
                x -= 1;
            }
            let n = NB[sq as usize][0];
            if n != NONE && free(self.board[n as usize]) {
                if x == 0 {
                    return Some(Move::new(MK_LV, NONE, NONE, sq));
                }
                x -= 1;
            }
        }
        None
    }
}
