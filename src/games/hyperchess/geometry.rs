//! Precomputed step and ray tables for one grid of boards (`Boards = CxR`), built once per grid
//! and shared by every state (`&'static Geometry`).
//!
//! Square index: `x + 8*y + 64*(w + C*z)` where x is the file (a..h), y the rank (1..8), z the
//! board row (I..) and w the board column (A..). Board `b = w + C*z`, so boards come in the
//! order of the position text (`AI BI CI AII …`).

use std::sync::OnceLock;

/// No square (an absent pawn push, no en-passant square).
pub const NONE: u16 = u16::MAX;
/// The largest grid is 4 x 4 boards of 64 squares.
pub const MAX_SQ: usize = 1024;

/// Lists of items per square, stored flat (compressed rows). `start` has an entry for every
/// possible square (those beyond the grid hold empty lists), so that a masked index needs no
/// bounds check.
pub struct Lists<T> {
    start: Box<[u32; MAX_SQ + 1]>,
    items: Vec<T>,
}

impl<T: Copy> Lists<T> {
    fn empty() -> Self {
        Lists {
            start: Box::new([0; MAX_SQ + 1]),
            items: vec![],
        }
    }

    fn build(n: usize, mut f: impl FnMut(usize, &mut Vec<T>)) -> Self {
        let mut start = Box::new([0; MAX_SQ + 1]);
        let mut items = Vec::new();
        for (i, st) in start.iter_mut().enumerate() {
            *st = items.len() as u32;
            if i < n {
                f(i, &mut items);
            }
        }
        Lists { start, items }
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> &[T] {
        let i = i & (MAX_SQ - 1);
        let a = self.start[i] as usize;
        let b = self.start[i + 1] as usize;
        debug_assert!(a <= b && b <= self.items.len());
        // SAFETY: `build` made `start` non-decreasing and ending at `items.len()`.
        unsafe { self.items.get_unchecked(a..b) }
    }
}

/// The kinds of [`Geometry::attack_x`]: knights, guards (steps along z and w), pawns of
/// White and of Black, every square of the rook's and of the bishop's lines to other boards,
/// and the first square of each such line (a slider there attacks whatever stands beyond).
pub const AX_KNIGHT: usize = 0;
pub const AX_GUARD: usize = 1;
pub const AX_PAWN: usize = 2;
pub const AX_ROOK: usize = 4;
pub const AX_ROOK_NEXT: usize = 5;
pub const AX_BISHOP: usize = 6;
pub const AX_BISHOP_NEXT: usize = 7;

/// A ray: `len` squares from `start` in `Geometry::ray_sqs`, nearest first. Its fields are
/// private: only `Geometry::rays` makes one, so `Geometry::ray` may read its range unchecked.
#[derive(Clone, Copy)]
pub struct Ray {
    start: u32,
    len: u32,
}

/// Squares of one board: `bits` (bit `x + 8*y`) on board `board`.
#[derive(Clone, Copy)]
pub struct OnBoard {
    pub board: u32,
    pub bits: u64,
}

/// A line direction that changes board, for sliding a set of pieces of one board at once:
/// each step keeps the bits `keep` (those not at the edge the step crosses), shifts them by
/// `shift` within the board (x + 8*y, either sign) and moves to the board `board` further on;
/// `steps[b]` is how many steps stay on the grid from board `b`.
#[derive(Clone, Copy)]
pub struct CrossLine {
    pub keep: u64,
    pub shift: i32,
    pub board: i32,
    pub steps: [u8; MAX_SQ / 64],
}

impl CrossLine {
    /// The squares one step on from `bits`, within the board.
    #[inline(always)]
    pub fn step(&self, bits: u64) -> u64 {
        let b = bits & self.keep;
        if self.shift >= 0 {
            b << (self.shift & 63)
        } else {
            b >> (-self.shift & 63)
        }
    }
}

pub struct Geometry {
    /// Board columns (w axis, letters A..).
    pub cols: usize,
    /// Board rows (z axis, numerals I..).
    pub rows: usize,
    /// Number of squares, 64 per board.
    pub nsq: usize,
    /// Number of boards.
    pub nb: usize,
    /// Whether there is more than one board: only then do the `*_x` lists hold anything.
    pub cross: bool,
    /// `[x, y, z, w]` of each square.
    pub coord: Vec<[i8; 4]>,
    pub ray_sqs: Vec<u16>,
    /// Non-empty rook rays (one axis) of each square.
    pub rook: Lists<Ray>,
    /// Non-empty bishop rays (two axes, equal steps) of each square.
    pub bishop: Lists<Ray>,
    /// The rays of `rook` and `bishop` that leave the board (those that stay on it are read
    /// from bitboards, see `plane.rs`).
    pub rook_x: Lists<Ray>,
    pub bishop_x: Lists<Ray>,
    /// Knight jumps (2 along one axis, 1 along another).
    pub knight: Lists<u16>,
    /// The jumps of `knight` to another board.
    pub knight_x: Lists<u16>,
    /// One step along x and/or y (king moves; half of the guard's).
    pub king: Lists<u16>,
    /// One step along z and/or w (the other half of the guard's moves).
    pub zw: Lists<u16>,
    /// `pawn_push[colour][sq]`: one step forward, or NONE (a table for every possible square,
    /// read with a masked index).
    pub pawn_push: [Box<[u16; MAX_SQ]>; 2],
    /// `pawn_double[colour][sq]`: two steps forward from the starting rank, or NONE.
    pub pawn_double: [Box<[u16; MAX_SQ]>; 2],
    /// `pawn_cap[colour][sq]`: the (up to 6) squares a pawn of `colour` on `sq` captures on.
    /// Also: the squares from which a pawn of the *other* colour attacks `sq`.
    pub pawn_cap: [Lists<u16>; 2],
    /// The captures of `pawn_cap` on another board (sideways along z or w).
    pub pawn_cap_x: [Lists<u16>; 2],
    /// The directions of `rook_x` and `bishop_x` rays, for sliding all the rooks (bishops) of
    /// a board at once.
    pub rook_lines: Vec<CrossLine>,
    pub bishop_lines: Vec<CrossLine>,
    /// `knight_x` and `zw` grouped by board, for moves generated a set at a time.
    pub knight_xb: Lists<OnBoard>,
    pub zw_b: Lists<OnBoard>,
    /// The attack test's view of other boards: `attack_x[sq * nb + b]` holds the squares of
    /// board `b` (bitboards, indexed by the `AX_*` constants) from which a piece of each kind
    /// reaches `sq`, so that the attackers from every board are found by one pass over the
    /// boards, without a list per kind (every kind's relation is symmetric but the pawn's).
    pub attack_x: Vec<[u64; 8]>,
    /// `pawn_lines[colour]`: the directions of `pawn_cap_x`, for capturing with all the pawns
    /// of a board at once (one step).
    pub pawn_lines: [Vec<CrossLine>; 2],
    /// Empty-board mobility of each piece type averaged over all squares (index = piece type).
    pub avg_mobility: [f32; 8],
    /// Piece values in centipawns on this grid (see `eval.rs`).
    pub values: [i32; 8],
}

impl Geometry {
    #[inline(always)]
    pub fn sq(&self, x: i32, y: i32, z: i32, w: i32) -> Option<usize> {
        if (0..8).contains(&x)
            && (0..8).contains(&y)
            && z >= 0
            && (z as usize) < self.rows
            && w >= 0
            && (w as usize) < self.cols
        {
            Some(x as usize + 8 * y as usize + 64 * (w as usize + self.cols * z as usize))
        } else {
            None
        }
    }

    #[inline(always)]
    pub fn ray(&self, r: Ray) -> &[u16] {
        debug_assert!((r.start + r.len) as usize <= self.ray_sqs.len());
        // SAFETY: every `Ray` is made by `rays` for a range it appended to `ray_sqs`.
        unsafe {
            self.ray_sqs
                .get_unchecked(r.start as usize..(r.start + r.len) as usize)
        }
    }

    fn new(cols: usize, rows: usize) -> Geometry {
        let nsq = 64 * cols * rows;
        let mut coord = vec![[0i8; 4]; nsq];
        for z in 0..rows {
            for w in 0..cols {
                for y in 0..8 {
                    for x in 0..8 {
                        coord[x + 8 * y + 64 * (w + cols * z)] =
                            [x as i8, y as i8, z as i8, w as i8];
                    }
                }
            }
        }
        let mut g = Geometry {
            cols,
            rows,
            nsq,
            nb: cols * rows,
            cross: cols * rows > 1,
            coord,
            ray_sqs: Vec::new(),
            rook: Lists::empty(),
            bishop: Lists::empty(),
            rook_x: Lists::empty(),
            bishop_x: Lists::empty(),
            knight: Lists::empty(),
            knight_x: Lists::empty(),
            king: Lists::empty(),
            zw: Lists::empty(),
            pawn_push: [Box::new([NONE; MAX_SQ]), Box::new([NONE; MAX_SQ])],
            pawn_double: [Box::new([NONE; MAX_SQ]), Box::new([NONE; MAX_SQ])],
            pawn_cap: [Lists::empty(), Lists::empty()],
            pawn_cap_x: [Lists::empty(), Lists::empty()],
            rook_lines: Vec::new(),
            bishop_lines: Vec::new(),
            knight_xb: Lists::empty(),
            zw_b: Lists::empty(),
            attack_x: Vec::new(),
            pawn_lines: [Vec::new(), Vec::new()],
            avg_mobility: [0.0; 8],
            values: [0; 8],
        };
        let d = Directions::new();
        // Rays.
        let mut ray_sqs = Vec::new();
        g.rook = g.rays(&d.rook, &mut ray_sqs);
        g.bishop = g.rays(&d.bishop, &mut ray_sqs);
        g.rook_x = g.rays(&cross(&d.rook), &mut ray_sqs);
        g.bishop_x = g.rays(&cross(&d.bishop), &mut ray_sqs);
        g.ray_sqs = ray_sqs;
        g.knight = g.steps(&d.knight);
        g.knight_x = g.steps(&cross(&d.knight));
        g.king = g.steps(&d.king);
        g.zw = g.steps(&d.zw);
        for colour in 0..2 {
            g.pawn_tables(colour);
        }
        g.rook_lines = g.cross_lines(&cross(&d.rook));
        g.bishop_lines = g.cross_lines(&cross(&d.bishop));
        g.knight_xb = by_board(nsq, &g.knight_x);
        g.zw_b = by_board(nsq, &g.zw);
        g.attack_x = g.attack_x();
        // Average empty-board mobility (used to scale piece values).
        let mob = g.mobility();
        g.avg_mobility = mob;
        g.values = super::eval::piece_values(&mob);
        g
    }

    /// The square one step `d` away from `s`, if on the grid.
    fn step(&self, s: usize, d: [i32; 4]) -> Option<usize> {
        let c = self.coord[s];
        self.sq(
            c[0] as i32 + d[0],
            c[1] as i32 + d[1],
            c[2] as i32 + d[2],
            c[3] as i32 + d[3],
        )
    }

    /// [`Geometry::attack_x`]: for each square and board, the squares of the board from which
    /// each kind of piece reaches the square.
    fn attack_x(&self) -> Vec<[u64; 8]> {
        let nb = self.nb;
        let mut t = vec![[0u64; 8]; self.nsq * nb];
        let mut put = |sq: usize, kind: usize, from: u16| {
            let f = from as usize;
            t[sq * nb + (f >> 6)][kind] |= 1 << (f & 63);
        };
        for sq in 0..self.nsq {
            for &f in self.knight_x.get(sq) {
                put(sq, AX_KNIGHT, f);
            }
            for &f in self.zw.get(sq) {
                put(sq, AX_GUARD, f);
            }
            for c in 0..2 {
                // `pawn_cap_x[1 - c][sq]`: where a pawn of colour `c` takes on `sq` from.
                for &f in self.pawn_cap_x[1 - c].get(sq) {
                    put(sq, AX_PAWN + c, f);
                }
            }
            for (rays, all, first) in [
                (&self.rook_x, AX_ROOK, AX_ROOK_NEXT),
                (&self.bishop_x, AX_BISHOP, AX_BISHOP_NEXT),
            ] {
                for &r in rays.get(sq) {
                    let line = self.ray(r);
                    put(sq, first, line[0]);
                    for &f in line {
                        put(sq, all, f);
                    }
                }
            }
        }
        t
    }

    /// The rays along `dirs` from every square, their squares appended to `ray_sqs`.
    fn rays(&self, dirs: &[[i32; 4]], ray_sqs: &mut Vec<u16>) -> Lists<Ray> {
        Lists::build(self.nsq, |s, out: &mut Vec<Ray>| {
            for &d in dirs {
                let start = ray_sqs.len() as u32;
                let mut cur = s;
                while let Some(n) = self.step(cur, d) {
                    ray_sqs.push(n as u16);
                    cur = n;
                }
                let len = ray_sqs.len() as u32 - start;
                if len > 0 {
                    out.push(Ray { start, len });
                }
            }
        })
    }

    /// The directions `dirs` (each along z or w, and at most one of x and y) as [`CrossLine`]s.
    fn cross_lines(&self, dirs: &[[i32; 4]]) -> Vec<CrossLine> {
        let room = |c: usize, d: i32, n: usize| match d {
            0 => 8,
            1 => n - 1 - c,
            _ => c,
        };
        dirs.iter()
            .map(|d| {
                let mut steps = [0u8; MAX_SQ / 64];
                for (b, st) in steps.iter_mut().enumerate().take(self.cols * self.rows) {
                    let (z, w) = (b / self.cols, b % self.cols);
                    *st = room(z, d[2], self.rows).min(room(w, d[3], self.cols)) as u8;
                }
                let keep = match d[0] {
                    1 => !super::plane::FILE_H,
                    -1 => !super::plane::FILE_A,
                    _ => !0,
                };
                CrossLine {
                    keep,
                    shift: d[0] + 8 * d[1],
                    board: d[3] + self.cols as i32 * d[2],
                    steps,
                }
            })
            .collect()
    }

    /// The squares one step along each of `dirs` from every square.
    fn steps(&self, dirs: &[[i32; 4]]) -> Lists<u16> {
        Lists::build(self.nsq, |s, out: &mut Vec<u16>| {
            for &d in dirs {
                if let Some(n) = self.step(s, d) {
                    out.push(n as u16);
                }
            }
        })
    }

    /// Pawns of `colour`: the push, the double step from the start rank, and the captures
    /// (one forward along y and one sideways along x, z or w).
    fn pawn_tables(&mut self, colour: usize) {
        let nsq = self.nsq;
        let fwd = if colour == 0 { 1 } else { -1 };
        let start_rank = if colour == 0 { 1 } else { 6 };
        for s in 0..nsq {
            self.pawn_push[colour][s] = self.step(s, [0, fwd, 0, 0]).map_or(NONE, |n| n as u16);
            if self.coord[s][1] == start_rank {
                self.pawn_double[colour][s] =
                    self.step(s, [0, 2 * fwd, 0, 0]).map_or(NONE, |n| n as u16);
            }
        }
        let caps: Vec<[i32; 4]> = (0..3)
            .flat_map(|a| {
                let a = [0, 2, 3][a];
                [-1, 1].into_iter().map(move |s| {
                    let mut d = [0, fwd, 0, 0];
                    d[a] = s;
                    d
                })
            })
            .collect();
        self.pawn_cap[colour] = self.steps(&caps);
        self.pawn_cap_x[colour] = self.steps(&cross(&caps));
        self.pawn_lines[colour] = self.cross_lines(&cross(&caps));
    }

    /// Average number of squares each piece kind reaches on the empty grid.
    fn mobility(&self) -> [f32; 8] {
        let mut mob = [0f32; 8];
        for s in 0..self.nsq {
            let r: usize = self.rook.get(s).iter().map(|r| r.len as usize).sum();
            let b: usize = self.bishop.get(s).iter().map(|r| r.len as usize).sum();
            mob[super::KNIGHT as usize] += self.knight.get(s).len() as f32;
            mob[super::BISHOP as usize] += b as f32;
            mob[super::ROOK as usize] += r as f32;
            mob[super::QUEEN as usize] += (r + b) as f32;
            mob[super::GUARD as usize] += (self.king.get(s).len() + self.zw.get(s).len()) as f32;
            mob[super::KING as usize] += self.king.get(s).len() as f32;
        }
        for m in mob.iter_mut() {
            *m /= self.nsq as f32;
        }
        mob
    }
}

/// The squares of `lists` grouped by board, boards in increasing order.
fn by_board(nsq: usize, lists: &Lists<u16>) -> Lists<OnBoard> {
    Lists::build(nsq, |s, out: &mut Vec<OnBoard>| {
        let mut sets = [0u64; MAX_SQ / 64];
        for &t in lists.get(s) {
            sets[t as usize >> 6] |= 1 << (t & 63);
        }
        for (board, &bits) in sets.iter().enumerate() {
            if bits != 0 {
                out.push(OnBoard {
                    board: board as u32,
                    bits,
                });
            }
        }
    })
}

/// The directions of `dirs` that change board (move along z or w).
fn cross(dirs: &[[i32; 4]]) -> Vec<[i32; 4]> {
    dirs.iter()
        .copied()
        .filter(|d| d[2] != 0 || d[3] != 0)
        .collect()
}

/// The move directions of each piece kind in four dimensions.
struct Directions {
    /// One axis, either sign.
    rook: Vec<[i32; 4]>,
    /// Two axes, one step each.
    bishop: Vec<[i32; 4]>,
    /// Two steps along one axis and one along another.
    knight: Vec<[i32; 4]>,
    /// The eight neighbours within one board (x, y).
    king: Vec<[i32; 4]>,
    /// The eight neighbouring boards (z, w): the guard's extra moves.
    zw: Vec<[i32; 4]>,
}

impl Directions {
    fn new() -> Directions {
        let unit = |a: usize, s: i32| {
            let mut d = [0i32; 4];
            d[a] = s;
            d
        };
        let mut rook = Vec::new();
        for a in 0..4 {
            for s in [-1, 1] {
                rook.push(unit(a, s));
            }
        }
        let mut bishop = Vec::new();
        let mut knight = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                if a == b {
                    continue;
                }
                for sa in [-1, 1] {
                    for sb in [-1, 1] {
                        if a < b {
                            let mut d = [0; 4];
                            d[a] = sa;
                            d[b] = sb;
                            bishop.push(d);
                        }
                        let mut d = [0; 4];
                        d[a] = 2 * sa;
                        d[b] = sb;
                        knight.push(d);
                    }
                }
            }
        }
        let mut king = Vec::new();
        let mut zw = Vec::new();
        for p in -1..=1 {
            for q in -1..=1 {
                if p != 0 || q != 0 {
                    king.push([p, q, 0, 0]);
                    zw.push([0, 0, p, q]);
                }
            }
        }
        Directions {
            rook,
            bishop,
            knight,
            king,
            zw,
        }
    }
}

static GEOMETRIES: [OnceLock<Geometry>; 16] = [const { OnceLock::new() }; 16];

/// The shared tables of the grid `cols` x `rows` (1..=4 each).
pub fn geometry(cols: usize, rows: usize) -> &'static Geometry {
    assert!((1..=4).contains(&cols) && (1..=4).contains(&rows));
    GEOMETRIES[(cols - 1) * 4 + (rows - 1)].get_or_init(|| Geometry::new(cols, rows))
}
