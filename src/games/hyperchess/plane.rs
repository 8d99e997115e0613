//! Bitboards of one 8x8 board (the x–y plane): bit `x + 8*y` is a square, as in the low six
//! bits of a square index. Every board of every grid uses them for the moves and attacks that
//! stay within a board; steps and lines that cross to other boards go through the geometry
//! tables.
//!
//! The tables are computed at compile time.

/// Squares a piece on each square reaches by one step of `d` (x, y).
const fn steps(d: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (x, y) = ((s % 8) as i32, (s / 8) as i32);
        let mut i = 0;
        while i < d.len() {
            let (nx, ny) = (x + d[i].0, y + d[i].1);
            if nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                t[s] |= 1 << (nx + 8 * ny);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The eight line directions: the first four raise the square index, the last four lower it.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

/// `RAYS[d][s]`: the squares from `s` (excluded) along direction `d` to the edge.
const fn rays() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut x, mut y) = ((s % 8) as i32 + DIRS[d].0, (s / 8) as i32 + DIRS[d].1);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                t[d][s] |= 1 << (x + 8 * y);
                x += DIRS[d].0;
                y += DIRS[d].1;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rook or bishop
/// line, else none.
const fn between() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut x, mut y) = ((a % 8) as i32 + DIRS[d].0, (a / 8) as i32 + DIRS[d].1);
            let mut acc = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                let b = (x + 8 * y) as usize;
                t[a][b] = acc;
                acc |= 1 << b;
                x += DIRS[d].0;
                y += DIRS[d].1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn or2(a: &[u64; 64], b: &[u64; 64], c: &[u64; 64], d: &[u64; 64]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = a[s] | b[s] | c[s] | d[s];
        s += 1;
    }
    t
}

pub static KNIGHT: [u64; 64] = steps(&[
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
]);
pub static KING: [u64; 64] = steps(&[
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
]);
/// `PAWN_ATT[colour][s]`: the squares of this board a pawn of `colour` on `s` captures on
/// (forward and one file aside); also the squares from which a pawn of the other colour
/// attacks `s`.
pub static PAWN_ATT: [[u64; 64]; 2] = [steps(&[(-1, 1), (1, 1)]), steps(&[(-1, -1), (1, -1)])];
static RAYS: [[u64; 64]; 8] = rays();
pub static BETWEEN: [[u64; 64]; 64] = between();
/// Rook and bishop reach on an empty board.
pub static ROOK_EMPTY: [u64; 64] = or2(&RAYS[0], &RAYS[1], &RAYS[4], &RAYS[5]);
pub static BISHOP_EMPTY: [u64; 64] = or2(&RAYS[2], &RAYS[3], &RAYS[6], &RAYS[7]);

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xff;
pub const RANK_3: u64 = RANK_1 << 16;
pub const RANK_6: u64 = RANK_1 << 40;
pub const RANK_8: u64 = RANK_1 << 56;

#[inline(always)]
pub fn bit(s: usize) -> u64 {
    1 << (s & 63)
}

/// Along a direction that raises the index: the ray up to and including the first blocker
/// (the sentinel bit 63 ends rays that meet none; no such ray goes on from square 63).
#[inline(always)]
fn up(d: usize, s: usize, occ: u64) -> u64 {
    let r = RAYS[d][s & 63];
    let first = ((r & occ) | 1 << 63).trailing_zeros() as usize;
    r ^ RAYS[d][first & 63]
}

/// Along a direction that lowers the index (sentinel: square 0).
#[inline(always)]
fn down(d: usize, s: usize, occ: u64) -> u64 {
    let r = RAYS[d][s & 63];
    let first = 63 - ((r & occ) | 1).leading_zeros() as usize;
    r ^ RAYS[d][first & 63]
}

/// Squares a rook on `s` reaches in its plane with the squares `occ` occupied (the first
/// piece on each line included).
#[inline(always)]
pub fn rook(s: usize, occ: u64) -> u64 {
    up(0, s, occ) | up(1, s, occ) | down(4, s, occ) | down(5, s, occ)
}

/// [`rook`] for a bishop.
#[inline(always)]
pub fn bishop(s: usize, occ: u64) -> u64 {
    up(2, s, occ) | up(3, s, occ) | down(6, s, occ) | down(7, s, occ)
}

/// The squares of `set`, lowest first.
#[inline(always)]
pub fn squares(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as usize;
            set &= set - 1;
            s
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    type Attacks = fn(usize, u64) -> u64;

    /// The slider attacks against a square-by-square walk, on pseudo-random occupancies.
    #[test]
    fn slider_attacks_match_a_walk() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            for s in 0..64 {
                let lines: [(Attacks, [usize; 4]); 2] =
                    [(rook, [0, 1, 4, 5]), (bishop, [2, 3, 6, 7])];
                for (f, dirs) in lines {
                    let mut want = 0u64;
                    for d in dirs {
                        let (dx, dy) = DIRS[d];
                        let (mut cx, mut cy) = ((s % 8) as i32 + dx, (s / 8) as i32 + dy);
                        while (0..8).contains(&cx) && (0..8).contains(&cy) {
                            let b = 1u64 << (cx + 8 * cy);
                            want |= b;
                            if occ & b != 0 {
                                break;
                            }
                            cx += dx;
                            cy += dy;
                        }
                    }
                    assert_eq!(f(s, occ), want, "square {} occ {:x}", s, occ);
                }
            }
        }
    }
}
