//! Captures (docs/rules/rithmomachia.md, "Capture patterns", "Pyramids", "Captured pieces"):
//! one function per pattern — [`meeting`], [`ambush`], [`assault`], [`siege`], [`progression`] —
//! and the one matcher that runs them on an enemy piece ([`Rithmomachia::hits_on`]); then the
//! phases that find and apply captures: phase 1 (everything the side to move can take) and phase 3
//! (patterns that include the moved piece, with the convert-mode chaining).
//!
//! The matcher reads values through [`Numbers`] and records hits through [`Target`], both
//! monomorphised twice: [`Plain`] when no pyramid is within reach (one number per piece, the
//! common and fast case) and [`Layered`] otherwise (a pyramid offers its total and each remaining
//! layer; a layer hit takes that layer alone). The patterns themselves are written once.

use super::movegen::has_neighbour;
use super::*;

/// Progression kinds (bit mask).
pub const ARITH: u8 = 1;
pub const GEOM: u8 = 2;
pub const HARM: u8 = 4;

/// The kinds of progression the three values read in this order form (b in the middle).
#[inline]
pub fn progression_kinds(a: u32, b: u32, c: u32) -> u8 {
    let (a, b, c) = (a as i64, b as i64, c as i64);
    let mut k = 0;
    if b - a == c - b {
        k |= ARITH;
    }
    if b * b == a * c {
        k |= GEOM;
    }
    if b != a && c * (b - a) == a * (c - b) {
        k |= HARM;
    }
    k
}

/// What one phase does to one enemy piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Hit {
    pub(super) whole: bool,
    /// Pyramid layers hit (bit i = layer i), when not whole.
    pub(super) layers: u8,
}

const WHOLE: Hit = Hit {
    whole: true,
    layers: 0,
};

/// How the patterns read an attacker's numbers.
trait Numbers {
    type Set: AsRef<[u16]>;
    fn of(g: &Rithmomachia, i: u8) -> Self::Set;
}

/// How the patterns record what they hit on the target.
trait Target {
    /// Marks every value of the target that `hit` accepts; true once nothing more can change
    /// (the whole piece is taken).
    fn take(&mut self, hit: impl Fn(u32) -> bool) -> bool;
    fn hit(&self) -> Hit;
}

/// No pyramid within reach: every piece is one number.
struct Plain;

impl Numbers for Plain {
    type Set = [u16; 1];
    #[inline(always)]
    fn of(g: &Rithmomachia, i: u8) -> [u16; 1] {
        [g.pieces[i as usize].val]
    }
}

/// A target that is one number: any hit takes it whole.
struct PlainTarget(u32, bool);

impl Target for PlainTarget {
    #[inline(always)]
    fn take(&mut self, hit: impl Fn(u32) -> bool) -> bool {
        self.1 = hit(self.0);
        self.1
    }
    fn hit(&self) -> Hit {
        if self.1 {
            WHOLE
        } else {
            Hit::default()
        }
    }
}

/// A pyramid within reach: a pyramid offers its total and each remaining layer.
struct Layered;

/// Small value set: a piece's value, or a pyramid's total and remaining layers.
struct Vals {
    v: [u16; MAX_LAYERS + 1],
    n: usize,
}

impl AsRef<[u16]> for Vals {
    #[inline]
    fn as_ref(&self) -> &[u16] {
        &self.v[..self.n]
    }
}

impl Numbers for Layered {
    type Set = Vals;
    #[inline]
    fn of(g: &Rithmomachia, i: u8) -> Vals {
        let p = &g.pieces[i as usize];
        let mut v = Vals {
            v: [0; MAX_LAYERS + 1],
            n: 1,
        };
        v.v[0] = p.val;
        if p.shape == PYRAMID {
            let py = &g.pyrs[p.pyr as usize];
            for l in 0..py.n as usize {
                if py.mask & (1 << l) != 0 {
                    v.v[v.n] = py.vals[l];
                    v.n += 1;
                }
            }
        }
        v
    }
}

/// The target values of a piece that may be a pyramid: (value, code) with code NONE = the whole
/// piece (its total or a pyramid's base), else the index of the layer a hit takes alone.
struct LayeredTarget {
    v: [u16; MAX_LAYERS + 1],
    code: [u8; MAX_LAYERS + 1],
    n: usize,
    hit: Hit,
}

impl LayeredTarget {
    #[inline]
    fn new(g: &Rithmomachia, i: usize) -> Self {
        let p = &g.pieces[i];
        let mut t = LayeredTarget {
            v: [0; MAX_LAYERS + 1],
            code: [NONE; MAX_LAYERS + 1],
            n: 1,
            hit: Hit::default(),
        };
        t.v[0] = p.val;
        if p.shape == PYRAMID {
            let py = &g.pyrs[p.pyr as usize];
            for l in 0..py.n as usize {
                if py.mask & (1 << l) != 0 {
                    t.v[t.n] = py.vals[l];
                    t.code[t.n] = if l == 0 || py.vals[l] == p.val || py.vals[l] == py.vals[0] {
                        NONE
                    } else {
                        l as u8
                    };
                    t.n += 1;
                }
            }
        }
        t
    }
}

impl Target for LayeredTarget {
    #[inline]
    fn take(&mut self, hit: impl Fn(u32) -> bool) -> bool {
        for k in 0..self.n {
            if hit(self.v[k] as u32) {
                let c = self.code[k];
                if c == NONE {
                    self.hit.whole = true;
                    return true;
                }
                self.hit.layers |= 1 << c;
            }
        }
        false
    }
    fn hit(&self) -> Hit {
        self.hit
    }
}

#[inline(always)]
fn bit(i: u8) -> u64 {
    1 << i
}

/// The four lines from a target: the first piece in each direction (0 = up the file, 1 = down,
/// 2 = right, 3 = left), its distance (0 = none) and whether it is an attacker; the adjacent
/// attackers; and, for a progression with the target at an end, the second attacker behind a
/// first one at the same spacing.
struct Lines {
    target: usize,
    piece: [u8; 4],
    dist: [u8; 4],
    att: [bool; 4],
    adj: [u8; 4],
    nadj: u8,
    /// NONE when there is none.
    second: [u8; 4],
    /// A pattern counts only if its attackers meet this mask of pieces (0 = any).
    req: u64,
}

impl Lines {
    /// The lines around piece `ti` for attacking side `att`; None when no attacker is on them.
    #[inline(always)]
    fn around(g: &Rithmomachia, ti: usize, att: u8, req: u64) -> Option<Lines> {
        let ts = g.pieces[ti].sq as usize;
        let mut l = Lines {
            target: ti,
            piece: [0; 4],
            dist: [0; 4],
            att: [false; 4],
            adj: [0; 4],
            nadj: 0,
            second: [NONE; 4],
            req,
        };
        let mut any = false;
        for dir in 0..4 {
            let (s, d) = g.first(ts, dir);
            if d > 0 {
                let pi = g.board[s] - 1;
                l.piece[dir] = pi;
                l.dist[dir] = d as u8;
                let a = g.pieces[pi as usize].side == att;
                l.att[dir] = a;
                any |= a;
                if a && d == 1 {
                    l.adj[l.nadj as usize] = pi;
                    l.nadj += 1;
                }
            }
        }
        any.then_some(l)
    }

    /// Finds the second attackers for the end progressions.
    #[inline(always)]
    fn find_seconds(&mut self, g: &Rithmomachia, att: u8) {
        for dir in 0..4 {
            if !self.att[dir] {
                continue;
            }
            let (s2, d2) = g.first(g.pieces[self.piece[dir] as usize].sq as usize, dir);
            if d2 == self.dist[dir] as u32 {
                let p2 = g.board[s2] - 1;
                if g.pieces[p2 as usize].side == att {
                    self.second[dir] = p2;
                }
            }
        }
    }

    /// The target and every attacker a pattern may use.
    #[inline(always)]
    fn reach(&self) -> u64 {
        let mut m = 1u64 << self.target;
        for dir in 0..4 {
            if self.att[dir] {
                m |= bit(self.piece[dir]);
            }
            if self.second[dir] != NONE {
                m |= bit(self.second[dir]);
            }
        }
        m
    }

    /// Whether a pattern with these attackers counts.
    #[inline(always)]
    fn ok(&self, attackers: u64) -> bool {
        self.req == 0 || attackers & self.req != 0
    }
}

/// Siege: every orthogonal neighbour of the target that is on the board holds an attacker
/// (board edges act as walls). Takes the whole piece, a pyramid included.
#[inline(always)]
fn siege(g: &Rithmomachia, l: &Lines) -> bool {
    let ts = g.pieces[l.target].sq as usize;
    let mut mask = 0u64;
    for dir in 0..4 {
        if has_neighbour(ts, dir) {
            if l.dist[dir] == 1 && l.att[dir] {
                mask |= bit(l.piece[dir]);
            } else {
                return false;
            }
        }
    }
    l.ok(mask)
}

/// Meeting: an adjacent attacker of equal value.
#[inline(always)]
fn meeting<N: Numbers>(g: &Rithmomachia, l: &Lines, t: &mut impl Target) -> bool {
    for &a in &l.adj[..l.nadj as usize] {
        if !l.ok(bit(a)) {
            continue;
        }
        for &x in N::of(g, a).as_ref() {
            if t.take(|v| v == x as u32) {
                return true;
            }
        }
    }
    false
}

/// Ambush: two or three adjacent attackers whose values, each used once with a + or − sign, sum
/// to the target's value (the result positive).
#[inline(always)]
fn ambush<N: Numbers>(g: &Rithmomachia, l: &Lines, t: &mut impl Target) -> bool {
    let (adj, na) = (&l.adj, l.nadj as usize);
    for i in 0..na {
        for j in i + 1..na {
            if l.ok(bit(adj[i]) | bit(adj[j])) {
                let (va, vb) = (N::of(g, adj[i]), N::of(g, adj[j]));
                for &a in va.as_ref() {
                    for &b in vb.as_ref() {
                        let (a, b) = (a as i32, b as i32);
                        for r in [a + b, a - b, b - a] {
                            if r > 0 && t.take(|v| v == r as u32) {
                                return true;
                            }
                        }
                    }
                }
            }
            for k in j + 1..na {
                if !l.ok(bit(adj[i]) | bit(adj[j]) | bit(adj[k])) {
                    continue;
                }
                let (va, vb, vc) = (N::of(g, adj[i]), N::of(g, adj[j]), N::of(g, adj[k]));
                for &a in va.as_ref() {
                    for &b in vb.as_ref() {
                        for &c in vc.as_ref() {
                            let (a, b, c) = (a as i32, b as i32, c as i32);
                            for r in [
                                a + b + c,
                                a + b - c,
                                a - b + c,
                                b + c - a,
                                a - b - c,
                                b - a - c,
                                c - a - b,
                            ] {
                                if r > 0 && t.take(|v| v == r as u32) {
                                    return true;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    false
}

/// Assault: an attacker on the target's line with s >= 2 empty squares between them, and
/// attacker × s = target or attacker ÷ s = target.
#[inline(always)]
fn assault<N: Numbers>(g: &Rithmomachia, l: &Lines, t: &mut impl Target) -> bool {
    for dir in 0..4 {
        if l.att[dir] && l.dist[dir] >= 3 && l.ok(bit(l.piece[dir])) {
            let s = l.dist[dir] as u32 - 1;
            for &x in N::of(g, l.piece[dir]).as_ref() {
                let x = x as u32;
                if t.take(|v| x * s == v || x == v * s) {
                    return true;
                }
            }
        }
    }
    false
}

/// Progression: the target and two attackers equally spaced on one line, the target in the
/// middle or at either end, their values read along the line an arithmetic, geometric or
/// harmonic progression.
#[inline(always)]
fn progression<N: Numbers>(g: &Rithmomachia, l: &Lines, t: &mut impl Target) -> bool {
    // The target in the middle: a file (up, down) or a rank (right, left).
    for (d0, d1) in [(0usize, 1usize), (2, 3)] {
        if l.att[d0]
            && l.att[d1]
            && l.dist[d0] == l.dist[d1]
            && l.ok(bit(l.piece[d0]) | bit(l.piece[d1]))
        {
            let (va, vc) = (N::of(g, l.piece[d1]), N::of(g, l.piece[d0]));
            for &a in va.as_ref() {
                for &c in vc.as_ref() {
                    if t.take(|b| progression_kinds(a as u32, b, c as u32) != 0) {
                        return true;
                    }
                }
            }
        }
    }
    // The target at an end: target, first and second attacker equally spaced.
    for dir in 0..4 {
        let (p1, p2) = (l.piece[dir], l.second[dir]);
        if p2 == NONE {
            continue;
        }
        if !l.ok(bit(p1) | bit(p2)) {
            continue;
        }
        let (vb, vc) = (N::of(g, p1), N::of(g, p2));
        for &b in vb.as_ref() {
            for &c in vc.as_ref() {
                if t.take(|a| progression_kinds(a, b as u32, c as u32) != 0) {
                    return true;
                }
            }
        }
    }
    false
}

/// Every pattern but the siege, in a fixed order, until the target is taken whole.
#[inline(always)]
fn patterns<N: Numbers, T: Target>(g: &Rithmomachia, l: &Lines, mut t: T) -> Hit {
    let _ = meeting::<N>(g, l, &mut t)
        || ambush::<N>(g, l, &mut t)
        || assault::<N>(g, l, &mut t)
        || progression::<N>(g, l, &mut t);
    t.hit()
}

impl Rithmomachia {
    /// First occupied square from `s` in direction `dir`, and its distance (0 = none).
    #[inline(always)]
    pub(super) fn first(&self, s: usize, dir: usize) -> (usize, u32) {
        let r = (s >> 3) as u32;
        let f = (s & 7) as u32;
        match dir {
            0 => {
                let m = (self.file_occ[f as usize] as u32) >> (r + 1);
                if m == 0 {
                    (0, 0)
                } else {
                    let d = m.trailing_zeros() + 1;
                    (s + 8 * d as usize, d)
                }
            }
            1 => {
                let m = (self.file_occ[f as usize] as u32) & ((1u32 << r) - 1);
                if m == 0 {
                    (0, 0)
                } else {
                    let d = r - (31 - m.leading_zeros());
                    (s - 8 * d as usize, d)
                }
            }
            2 => {
                let m = (self.rank_occ[r as usize] as u32) >> (f + 1);
                if m == 0 {
                    (0, 0)
                } else {
                    let d = m.trailing_zeros() + 1;
                    (s + d as usize, d)
                }
            }
            _ => {
                let m = (self.rank_occ[r as usize] as u32) & ((1u32 << f) - 1);
                if m == 0 {
                    (0, 0)
                } else {
                    let d = f - (31 - m.leading_zeros());
                    (s - d as usize, d)
                }
            }
        }
    }

    /// What side `att` can take of piece `ti` now; `req` (a mask of piece indices, 0 = any) must
    /// meet the attackers of a pattern for it to count. The one capture matcher: phase 1,
    /// phase 3 and the evaluation's threat count all use it.
    #[inline]
    pub(super) fn hits_on(&self, ti: usize, att: u8, req: u64) -> Hit {
        let Some(mut lines) = Lines::around(self, ti, att, req) else {
            return Hit::default();
        };
        if siege(self, &lines) {
            return WHOLE;
        }
        lines.find_seconds(self, att);
        if lines.reach() & self.pyr_mask == 0 {
            patterns::<Plain, _>(self, &lines, PlainTarget(self.pieces[ti].val as u32, false))
        } else {
            self.hits_layered(ti, &lines)
        }
    }

    /// The matcher when a pyramid is within reach (rare: kept out of line so that the common
    /// case stays small).
    #[inline(never)]
    fn hits_layered(&self, ti: usize, lines: &Lines) -> Hit {
        patterns::<Layered, _>(self, lines, LayeredTarget::new(self, ti))
    }

    /// Enemy pieces (of `att`) whose patterns may include the piece on `sq`.
    #[inline]
    pub(super) fn candidates_around(&self, sq: usize, att: u8) -> u64 {
        let mut c = 0u64;
        for dir in 0..4 {
            let (s1, d1) = self.first(sq, dir);
            if d1 == 0 {
                continue;
            }
            let p1 = self.board[s1] as usize - 1;
            if self.pieces[p1].side != att {
                c |= 1 << p1;
            } else {
                let (s2, d2) = self.first(s1, dir);
                if d2 == d1 {
                    let p2 = self.board[s2] as usize - 1;
                    if self.pieces[p2].side != att {
                        c |= 1 << p2;
                    }
                }
            }
        }
        c
    }

    /// Pieces whose capture patterns can reach one of the squares in `squares`: the piece on it,
    /// and the first and second pieces along each line from it.
    #[inline]
    pub(super) fn pieces_near(&self, mut squares: u128) -> u64 {
        let mut c = 0u64;
        while squares != 0 {
            let sq = squares.trailing_zeros() as usize;
            squares &= squares - 1;
            let b = self.board[sq];
            if b != 0 {
                c |= 1 << (b - 1);
            }
            for dir in 0..4 {
                let (s1, d1) = self.first(sq, dir);
                if d1 == 0 {
                    continue;
                }
                c |= 1 << (self.board[s1] - 1);
                let (s2, d2) = self.first(s1, dir);
                if d2 != 0 {
                    c |= 1 << (self.board[s2] - 1);
                }
            }
        }
        c
    }

    /// Finds the captures of side `att` among `cands` (patterns meeting `req`).
    #[inline]
    pub(super) fn find_captures(
        &self,
        att: u8,
        req: u64,
        mut cands: u64,
        out: &mut [(u8, Hit); MAX_PIECES],
    ) -> usize {
        let mut n = 0;
        while cands != 0 {
            let ti = cands.trailing_zeros() as usize;
            cands &= cands - 1;
            let h = self.hits_on(ti, att, req);
            if h.whole || h.layers != 0 {
                out[n] = (ti as u8, h);
                n += 1;
            }
        }
        n
    }

    /// Applies captures by side `att`; returns the mask of converted pieces (convert mode).
    #[inline]
    pub(super) fn apply_captures(&mut self, att: u8, caps: &[(u8, Hit)]) -> u64 {
        let mut converted = 0u64;
        for &(ti, h) in caps {
            let ti = ti as usize;
            let key_before = self.piece_key(ti);
            self.board_hash ^= key_before;
            if h.whole {
                let v = self.pieces[ti].val as u32;
                self.pris[att as usize].add(v);
                let victim = self.pieces[ti].side as usize;
                self.own[victim] &= !(1 << ti);
                if self.cfg.convert {
                    self.pieces[ti].side = att;
                    self.own[att as usize] |= 1 << ti;
                    converted |= 1 << ti;
                    self.board_hash ^= self.piece_key(ti);
                    self.touch(self.pieces[ti].sq as usize);
                } else {
                    self.pieces[ti].alive = false;
                    let sq = self.pieces[ti].sq as usize;
                    self.clear_sq(sq);
                }
            } else {
                let pyi = self.pieces[ti].pyr as usize;
                for l in 0..MAX_LAYERS {
                    if h.layers & (1 << l) != 0 && self.pyrs[pyi].mask & (1 << l) != 0 {
                        let v = self.pyrs[pyi].vals[l];
                        self.pyrs[pyi].mask &= !(1 << l);
                        self.pieces[ti].val -= v;
                        self.pris[att as usize].add(v as u32);
                    }
                }
                self.pieces[ti].dm = self.compute_dm(ti);
                self.board_hash ^= self.piece_key(ti);
                self.touch(self.pieces[ti].sq as usize);
            }
        }
        if !caps.is_empty() {
            self.pris_hash = self.compute_pris_hash();
        }
        converted
    }

    /// Phase 1 of the side to move: every enemy piece it can take, all at once.
    #[inline]
    pub(super) fn phase1(&mut self) {
        let att = self.stm;
        let mut buf = [(0u8, Hit::default()); MAX_PIECES];
        let dirty = std::mem::take(&mut self.dirty[att as usize]);
        let enemies = self.own[1 - att as usize];
        let cands = if dirty.count_ones() > 16 {
            enemies
        } else {
            self.pieces_near(dirty) & enemies
        };
        let n = self.find_captures(att, 0, cands, &mut buf);
        #[cfg(debug_assertions)]
        {
            let mut full = [(0u8, Hit::default()); MAX_PIECES];
            let m = self.find_captures(att, 0, enemies, &mut full);
            assert!(
                m == n && full[..m] == buf[..n],
                "incremental phase 1 differs from the full scan in {}",
                self.to_text()
            );
        }
        if n > 0 {
            self.apply_captures(att, &buf[..n]);
        }
    }

    /// Phase 3 after the piece `mi` moved (with the convert-mode chaining).
    #[inline]
    pub(super) fn phase3(&mut self, mi: usize) {
        let att = self.stm;
        let mut buf = [(0u8, Hit::default()); MAX_PIECES];
        let mut req = 1u64 << mi;
        let mut cands = self.candidates_around(self.pieces[mi].sq as usize, att);
        let mut conv_all = 0u64;
        loop {
            let n = self.find_captures(att, req, cands & self.own[1 - att as usize], &mut buf);
            if n == 0 {
                break;
            }
            let conv = self.apply_captures(att, &buf[..n]);
            if !self.cfg.convert {
                break;
            }
            conv_all |= conv;
            if conv_all == 0 {
                break;
            }
            req = conv_all;
            cands = 0;
            let mut m = conv_all;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                cands |= self.candidates_around(self.pieces[i].sq as usize, att);
            }
        }
    }

    /// Number of pieces (and layers) the move would take in phase 3, and their summed value.
    pub fn capture_gain(&self, mv: Move) -> (u32, u32) {
        let mut c = self.clone();
        let before = c.pris[c.stm as usize];
        if let Some(i) = c.do_move(mv) {
            c.phase3(i);
        }
        let after = c.pris[c.stm as usize];
        (
            after.count.saturating_sub(before.count),
            after.sum.saturating_sub(before.sum),
        )
    }

    /// Number of pieces of side `s` the other side could take if it had phase 1 now.
    pub(super) fn threatened(&self, s: u8) -> (u32, u32) {
        let mut buf = [(0u8, Hit::default()); MAX_PIECES];
        let n = self.find_captures(1 - s, 0, self.own[s as usize], &mut buf);
        let mut val = 0;
        for &(ti, h) in &buf[..n] {
            if h.whole {
                val += self.pieces[ti as usize].val as u32;
            } else {
                let py = &self.pyrs[self.pieces[ti as usize].pyr as usize];
                for l in 0..py.n as usize {
                    if h.layers & (1 << l) != 0 {
                        val += py.vals[l] as u32;
                    }
                }
            }
        }
        (n as u32, val)
    }
}
