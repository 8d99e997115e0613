//! Board geometry, attack detection and move generation for threechess.
//!
//! Squares are `file + 8 * rank` (a1 = 0, h8 = 63). A man is `type | colour << 3` with colour
//! 0 (White), 1 (Black) or 2 (Red); 0 is an empty square. Moves of an alive player are generated
//! pseudo-legally and tried on a scratch board when they could leave its king attacked (king
//! moves, pinned men, when in check, or when they take a ghost's last pawn, which removes the
//! ghost's men); a ghost's moves are all allowed, but its pawn reaching the arrival row must
//! recover the king when one of its men is unattacked.

use std::sync::OnceLock;

use super::*;

/// The 8 directions as (file step, rank step): 0..4 orthogonal, 4..8 diagonal.
pub(crate) const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Precomputed rays and jumps.
pub(crate) struct Geo {
    /// `ray[sq][dir]`: the squares from `sq` (excluded) to the edge in direction `dir`.
    pub ray: [[[u8; 7]; 8]; 64],
    pub ray_len: [[u8; 8]; 64],
    pub knight: [[u8; 8]; 64],
    pub knight_len: [u8; 64],
}

impl Geo {
    #[inline(always)]
    pub fn ray(&self, sq: usize, dir: usize) -> &[u8] {
        &self.ray[sq][dir][..self.ray_len[sq][dir] as usize]
    }
    #[inline(always)]
    pub fn knight(&self, sq: usize) -> &[u8] {
        &self.knight[sq][..self.knight_len[sq] as usize]
    }
    /// The neighbour of `sq` in direction `dir`, if on the board.
    #[inline(always)]
    pub fn step(&self, sq: usize, dir: usize) -> Option<usize> {
        if self.ray_len[sq][dir] > 0 {
            Some(self.ray[sq][dir][0] as usize)
        } else {
            None
        }
    }
}

pub(crate) fn geo() -> &'static Geo {
    static G: OnceLock<Geo> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = Geo {
            ray: [[[0; 7]; 8]; 64],
            ray_len: [[0; 8]; 64],
            knight: [[0; 8]; 64],
            knight_len: [0; 64],
        };
        for sq in 0..64 {
            let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
            for (d, &(df, dr)) in DIRS.iter().enumerate() {
                let (mut x, mut y) = (f + df, r + dr);
                while (0..8).contains(&x) && (0..8).contains(&y) {
                    let n = g.ray_len[sq][d] as usize;
                    g.ray[sq][d][n] = (x + 8 * y) as u8;
                    g.ray_len[sq][d] += 1;
                    x += df;
                    y += dr;
                }
            }
            for &(df, dr) in &KNIGHT_STEPS {
                let (x, y) = (f + df, r + dr);
                if (0..8).contains(&x) && (0..8).contains(&y) {
                    let n = g.knight_len[sq] as usize;
                    g.knight[sq][n] = (x + 8 * y) as u8;
                    g.knight_len[sq] += 1;
                }
            }
        }
        g
    })
}

/// Colour of a man (0, 1, 2); meaningless for an empty square.
#[inline(always)]
pub(crate) fn colour(p: u8) -> usize {
    (p >> 3) as usize
}

/// Type of a man (`PAWN` … `KING`), 0 for an empty square.
#[inline(always)]
pub(crate) fn kind(p: u8) -> u8 {
    p & 7
}

/// Whether `sq` is attacked on `b` by a man of a colour other than `us`.
#[inline]
pub(crate) fn attacked_by_others(g: &Geo, b: &[u8; 64], sq: usize, us: usize) -> bool {
    attacked_by_any(g, b, sq, |c| c != us)
}

/// Whether `sq` is attacked on `b` by a man whose colour `of` accepts.
#[inline(always)]
pub(crate) fn attacked_by_any(
    g: &Geo,
    b: &[u8; 64],
    sq: usize,
    of: impl Fn(usize) -> bool,
) -> bool {
    for d in 0..8 {
        let diag = d >= 4;
        let ray = g.ray(sq, d);
        for (i, &s) in ray.iter().enumerate() {
            let q = b[s as usize];
            if q == 0 {
                continue;
            }
            if of(colour(q)) {
                let k = kind(q);
                if k == QUEEN || (k == ROOK && !diag) || (k == BISHOP && diag) {
                    return true;
                }
                if i == 0 && (k == KING || (k == PAWN && diag)) {
                    return true;
                }
            }
            break;
        }
    }
    for &s in g.knight(sq) {
        let q = b[s as usize];
        if kind(q) == KNIGHT && of(colour(q)) {
            return true;
        }
    }
    false
}

/// The cheapest man of each colour attacking `sq` on `b` (its type, `PAWN` … `KING`; 0 where a
/// colour has none). Types rise with value, so the smallest type is the cheapest attacker.
pub(crate) fn least_attackers(g: &Geo, b: &[u8; 64], sq: usize) -> [u8; 3] {
    let mut least = [u8::MAX; 3];
    for d in 0..8 {
        let diag = d >= 4;
        for (i, &s) in g.ray(sq, d).iter().enumerate() {
            let q = b[s as usize];
            if q == 0 {
                continue;
            }
            let k = kind(q);
            if k == QUEEN
                || (k == ROOK && !diag)
                || (k == BISHOP && diag)
                || (i == 0 && (k == KING || (k == PAWN && diag)))
            {
                let c = colour(q);
                least[c] = least[c].min(k);
            }
            break;
        }
    }
    for &s in g.knight(sq) {
        let q = b[s as usize];
        if kind(q) == KNIGHT {
            let c = colour(q);
            least[c] = least[c].min(KNIGHT);
        }
    }
    least.map(|k| if k == u8::MAX { 0 } else { k })
}

/// The men of colours `of` accepts that a man of type `k` standing on `sq` attacks on `b`: the
/// most valuable one's type (kings left out) and how many (kings included).
pub(crate) fn targets(
    g: &Geo,
    b: &[u8; 64],
    sq: usize,
    k: u8,
    of: impl Fn(usize) -> bool,
) -> (u8, u32) {
    let (mut best, mut count) = (0, 0);
    let mut hit = |q: u8| {
        if q != 0 && of(colour(q)) {
            count += 1;
            if kind(q) != KING {
                best = best.max(kind(q));
            }
        }
    };
    if k == KNIGHT {
        for &s in g.knight(sq) {
            hit(b[s as usize]);
        }
        return (best, count);
    }
    for d in 0..8 {
        let diag = d >= 4;
        let slides = k == QUEEN || (k == ROOK && !diag) || (k == BISHOP && diag);
        let steps = k == KING || (k == PAWN && diag);
        if !slides && !steps {
            continue;
        }
        for &s in g.ray(sq, d) {
            let q = b[s as usize];
            if q != 0 {
                hit(q);
                break;
            }
            if !slides {
                break;
            }
        }
    }
    (best, count)
}

/// Whether a pawn of colour `c` standing on `sq` is on that colour's arrival row.
#[inline(always)]
pub(crate) fn on_arrival_row(c: usize, sq: usize) -> bool {
    match c {
        0 => sq / 8 == 7,
        1 => sq % 8 == 7,
        _ => sq.is_multiple_of(8),
    }
}

const PROMOS: [u8; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

impl Threechess {
    /// Whether the move `from`→`to` by the side to move takes the last pawn of a ghost.
    #[inline(always)]
    fn takes_ghost_last_pawn(&self, to: usize) -> bool {
        let q = self.board[to];
        q != 0
            && kind(q) == PAWN
            && self.state[colour(q)] == GHOST
            && self.counts[colour(q)][PAWN as usize] == 1
    }

    /// Whether the alive side to move keeps its king unattacked after `from`→`to`, judged after
    /// everything the move does.
    fn safe_after(&self, from: usize, to: usize) -> bool {
        let us = self.side as usize;
        let mut b = self.board;
        let cap = b[to];
        b[to] = b[from];
        b[from] = 0;
        if cap != 0 && self.takes_ghost_last_pawn(to) {
            let gc = colour(cap);
            for q in b.iter_mut() {
                if *q != 0 && colour(*q) == gc {
                    *q = 0;
                }
            }
        }
        let ksq = self.king[us] as usize;
        let k = if from == ksq { to } else { ksq };
        !attacked_by_others(geo(), &b, k, us)
    }

    /// Squares of the side to move's men that a man of the same colour as the king would pin:
    /// each own man that alone stands between the king and another player's slider.
    fn pinned(&self) -> u64 {
        let g = geo();
        let us = self.side as usize;
        let ksq = self.king[us] as usize;
        let mut pins = 0u64;
        for d in 0..8 {
            let diag = d >= 4;
            let mut own = usize::MAX;
            for &s in g.ray(ksq, d) {
                let q = self.board[s as usize];
                if q == 0 {
                    continue;
                }
                if own == usize::MAX {
                    if colour(q) == us {
                        own = s as usize;
                        continue;
                    }
                    break;
                }
                let k = kind(q);
                if colour(q) != us && (k == QUEEN || (k == ROOK && !diag) || (k == BISHOP && diag))
                {
                    pins |= 1 << own;
                }
                break;
            }
        }
        pins
    }

    /// Generates the legal moves of the side to move, calling `sink` for each; stops and returns
    /// true as soon as `sink` returns true. Does not look at whether the game is over.
    pub(crate) fn gen(&self, sink: &mut impl FnMut(Move) -> bool) -> bool {
        let us = self.side as usize;
        if self.state[us] == ALIVE {
            self.gen_alive(sink)
        } else if self.state[us] == GHOST {
            self.gen_ghost(sink)
        } else {
            false
        }
    }

    /// Calls `each(from, to, arrives)` for every pseudo-legal move of colour `us` (no move onto a
    /// king or an own man); stops once it returns true.
    #[inline(always)]
    fn pseudo(&self, us: usize, each: &mut impl FnMut(usize, usize, bool) -> bool) -> bool {
        let g = geo();
        let b = &self.board;
        let target_ok = |q: u8| q == 0 || (colour(q) != us && kind(q) != KING);
        for s in 0..64 {
            let p = b[s];
            if p == 0 || colour(p) != us {
                continue;
            }
            match kind(p) {
                PAWN => {
                    for d in 0..8 {
                        if let Some(t) = g.step(s, d) {
                            let q = b[t];
                            let ok = if d < 4 {
                                q == 0
                            } else {
                                q != 0 && colour(q) != us && kind(q) != KING
                            };
                            if ok && each(s, t, on_arrival_row(us, t)) {
                                return true;
                            }
                        }
                    }
                }
                KNIGHT => {
                    for &t in g.knight(s) {
                        if target_ok(b[t as usize]) && each(s, t as usize, false) {
                            return true;
                        }
                    }
                }
                KING => {
                    for d in 0..8 {
                        if let Some(t) = g.step(s, d) {
                            if target_ok(b[t]) && each(s, t, false) {
                                return true;
                            }
                        }
                    }
                }
                k => {
                    let (lo, hi) = match k {
                        BISHOP => (4, 8),
                        ROOK => (0, 4),
                        _ => (0, 8),
                    };
                    for d in lo..hi {
                        for &t in g.ray(s, d) {
                            let q = b[t as usize];
                            if q == 0 {
                                if each(s, t as usize, false) {
                                    return true;
                                }
                            } else {
                                if target_ok(q) && each(s, t as usize, false) {
                                    return true;
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    fn gen_alive(&self, sink: &mut impl FnMut(Move) -> bool) -> bool {
        let us = self.side as usize;
        let ksq = self.king[us] as usize;
        let in_check = self.in_check;
        let pins = if in_check { 0 } else { self.pinned() };
        self.pseudo(us, &mut |from, to, arrives| {
            let risky = in_check
                || from == ksq
                || pins & (1 << from) != 0
                || self.takes_ghost_last_pawn(to);
            if risky && !self.safe_after(from, to) {
                return false;
            }
            if arrives {
                PROMOS.iter().any(|&p| sink(Move::new(from, to, p, NO_SQ)))
            } else {
                sink(Move::new(from, to, 0, NO_SQ))
            }
        })
    }

    fn gen_ghost(&self, sink: &mut impl FnMut(Move) -> bool) -> bool {
        let us = self.side as usize;
        self.pseudo(us, &mut |from, to, arrives| {
            if !arrives {
                return sink(Move::new(from, to, 0, NO_SQ));
            }
            let cands = self.recovery_squares(from, to);
            if cands == 0 {
                return PROMOS.iter().any(|&p| sink(Move::new(from, to, p, NO_SQ)));
            }
            let mut c = cands;
            while c != 0 {
                let r = c.trailing_zeros() as usize;
                c &= c - 1;
                let stop = if r == to {
                    sink(Move::new(from, to, 0, r))
                } else {
                    PROMOS.iter().any(|&p| sink(Move::new(from, to, p, r)))
                };
                if stop {
                    return true;
                }
            }
            false
        })
    }

    /// The squares of the ghost to move's men that no man of another player attacks once its
    /// pawn has gone `from`→`to` (the squares its king may come back on), as a bit set.
    pub(crate) fn recovery_squares(&self, from: usize, to: usize) -> u64 {
        let us = self.side as usize;
        let mut b = self.board;
        b[to] = b[from];
        b[from] = 0;
        let g = geo();
        let mut set = 0u64;
        for (s, &q) in b.iter().enumerate() {
            if q != 0 && colour(q) == us && !attacked_by_others(g, &b, s, us) {
                set |= 1 << s;
            }
        }
        set
    }

    /// One uniformly random legal move of the side to move (the game must not be over): a pick
    /// from the alive player's pseudo-legal list (promotions expanded) is kept when it leaves the
    /// king safe — uniform over the legal moves, with far fewer legality tests than generating
    /// them all; a ghost's moves are all legal as generated.
    pub(crate) fn random_legal(
        &self,
        rng: &mut crate::game::GameRng,
        buf: &mut Vec<Move>,
    ) -> Option<Move> {
        use rand::Rng;
        buf.clear();
        let us = self.side as usize;
        if self.state[us] != ALIVE {
            self.gen(&mut |m| {
                buf.push(m);
                false
            });
            return (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())]);
        }
        self.pseudo(us, &mut |from, to, arrives| {
            if arrives {
                for p in PROMOS {
                    buf.push(Move::new(from, to, p, NO_SQ));
                }
            } else {
                buf.push(Move::new(from, to, 0, NO_SQ));
            }
            false
        });
        if buf.is_empty() {
            return None;
        }
        for _ in 0..32 {
            let m = buf[rng.random_range(0..buf.len())];
            if self.safe_after(m.from(), m.to()) {
                return Some(m);
            }
        }
        buf.clear();
        self.gen(&mut |m| {
            buf.push(m);
            false
        });
        (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
    }

    pub(crate) fn has_legal_move(&self) -> bool {
        self.gen(&mut |_| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{rng_from_seed, Game, RuleOptions};

    /// Whether the man on `s` attacks `sq` on `b`, walking from the attacker (the functions
    /// under test walk from the square attacked, or are checked against this).
    fn man_attacks(g: &Geo, b: &[u8; 64], s: usize, sq: usize) -> bool {
        let k = kind(b[s]);
        if k == KNIGHT {
            return g.knight(s).contains(&(sq as u8));
        }
        (0..8).any(|d| {
            let diag = d >= 4;
            for (i, &t) in g.ray(s, d).iter().enumerate() {
                if t as usize == sq {
                    return k == QUEEN
                        || (k == ROOK && !diag)
                        || (k == BISHOP && diag)
                        || (i == 0 && (k == KING || (k == PAWN && diag)));
                }
                if b[t as usize] != 0 {
                    return false;
                }
            }
            false
        })
    }

    /// Over random games: `least_attackers` names the cheapest man of each colour that attacks
    /// a square, and `targets` the men of other colours a man attacks, as the attackers see it.
    #[test]
    fn least_attackers_and_targets_agree_with_each_mans_attacks() {
        let geo = geo();
        let opts = RuleOptions::of::<Threechess>();
        let mut rng = rng_from_seed(9);
        let mut buf = Vec::new();
        let mut checked = 0;
        for _ in 0..20 {
            let mut g = Threechess::start(&opts).unwrap();
            for _ in 0..120 {
                let b = &g.board;
                for sq in 0..64 {
                    let least = least_attackers(geo, b, sq);
                    for (c, &k) in least.iter().enumerate() {
                        let want = (0..64)
                            .filter(|&s| {
                                b[s] != 0 && colour(b[s]) == c && man_attacks(geo, b, s, sq)
                            })
                            .map(|s| kind(b[s]))
                            .min()
                            .unwrap_or(0);
                        assert_eq!(k, want, "square {sq} colour {c}: {}", g.to_text());
                        assert_eq!(k != 0, attacked_by_any(geo, b, sq, |x| x == c));
                    }
                    if b[sq] != 0 {
                        let c = colour(b[sq]);
                        let hit: Vec<usize> = (0..64)
                            .filter(|&t| {
                                b[t] != 0 && colour(b[t]) != c && man_attacks(geo, b, sq, t)
                            })
                            .collect();
                        let best = hit.iter().map(|&t| kind(b[t])).filter(|&k| k != KING).max();
                        assert_eq!(
                            targets(geo, b, sq, kind(b[sq]), |x| x != c),
                            (best.unwrap_or(0), hit.len() as u32),
                            "square {sq}: {}",
                            g.to_text()
                        );
                    }
                    checked += 1;
                }
                match g.random_move(&mut rng, &mut buf) {
                    Some(m) => g.play(m),
                    None => break,
                }
            }
        }
        assert!(checked > 50_000, "{checked} squares");
    }
}
