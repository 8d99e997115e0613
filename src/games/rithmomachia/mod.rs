//! Rithmomachia, the battle of numbers: the ruleset of `docs/rules/rithmomachia.md`.
//!
//! Design:
//! - The board is `[u8; 128]` of piece-table indices (+1, 0 = empty), square `rank * 8 + file`
//!   (a1 = 0, h16 = 127). Occupancy is also kept per file (`u16`) and per rank (`u8`), so the first
//!   piece along a line from any square is a shift and a bit scan.
//! - The piece table holds at most 48 pieces (value, side, shape, square); pyramids point into a
//!   small table of layers. A converted piece keeps its index and changes `side`.
//! - The stored state is always "the side to move has made its phase-1 captures": `play` makes the
//!   mover's move (phase 2), its phase-3 captures (with the convert-mode chaining), the end-of-turn
//!   victory checks, and then the next side's phase-1 captures and its no-legal-move check. So
//!   `legal_moves` is a plain move generation.
//! - Captures: phase 1 tests every enemy piece, looking along its four lines (first piece in each
//!   direction); phase 3 only tests the enemy pieces whose patterns can include the moved piece
//!   (the first piece, or the second behind a friendly first piece, in each direction from it).

use crate::game::{Game, GameRng, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status};
use crate::zobrist;

mod eval;
mod text;

/// The name the protocol loads this ruleset by.
pub const NAME: &str = "rithmomachia";

/// Sides (= seats): Black (the Odds) moves first.
pub const BLACK: u8 = 0;
pub const WHITE: u8 = 1;

/// Shapes.
pub const CIRCLE: u8 = 0;
pub const TRIANGLE: u8 = 1;
pub const SQUARE: u8 = 2;
pub const PYRAMID: u8 = 3;

const MAX_PIECES: usize = 48;
const MAX_PYRS: usize = 4;
const MAX_LAYERS: usize = 8;
const NONE: u8 = 0xFF;
/// Largest value a piece or layer may carry in a position text.
const MAX_VALUE: u32 = 9999;

const SALT_PIECE: u64 = 0x5249_5448_4d4f_0001;
const SALT_LAYER: u64 = 0x5249_5448_4d4f_0002;
const SALT_PRIS: u64 = 0x5249_5448_4d4f_0003;
const KEY_WHITE_TO_MOVE: u64 = zobrist::key(0x5249_5448_4d4f_0004, 0);

/// A move: the piece on `from` goes to `to` (captures follow automatically).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

#[derive(Clone, Copy, Debug, Default)]
struct Piece {
    /// Value; for a pyramid the sum of its remaining layers.
    val: u16,
    sq: u8,
    side: u8,
    shape: u8,
    /// Index in the pyramid table, or NONE.
    pyr: u8,
    alive: bool,
    /// Distances the piece may move: bit 0 = 1 square, bit 1 = 2, bit 2 = 3.
    dm: u8,
}

#[derive(Clone, Copy, Debug, Default)]
struct Pyr {
    /// Layers, base first.
    vals: [u16; MAX_LAYERS],
    shapes: [u8; MAX_LAYERS],
    n: u8,
    /// Remaining layers (bit i = layer i); the base (bit 0) never goes alone.
    mask: u8,
}

/// What one side has captured: number of pieces, sum of their values, digits written on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prisoners {
    pub count: u32,
    pub sum: u32,
    pub digits: u32,
}

impl Prisoners {
    fn add(&mut self, v: u32) {
        self.count = self.count.saturating_add(1);
        self.sum = self.sum.saturating_add(v);
        self.digits = self.digits.saturating_add(digits(v));
    }
}

fn digits(v: u32) -> u32 {
    let mut d = 1;
    let mut x = v;
    while x >= 10 {
        x /= 10;
        d += 1;
    }
    d
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    Corps,
    Bien,
    Proces,
    CorpsBien,
    Honore,
    Grande,
    Majeure,
    Excellente,
}

/// The parsed rule options, kept in the state for speed.
#[derive(Clone, Copy, Debug)]
struct Cfg {
    forward: bool,
    convert: bool,
    victory: Victory,
    n: u32,
    s: u32,
    c: u32,
    max_plies: u32,
}

impl Cfg {
    fn from_opts(o: &RuleOptions) -> Result<Cfg, String> {
        let victory = match o.text("Victory") {
            "corps" => Victory::Corps,
            "bien" => Victory::Bien,
            "proces" => Victory::Proces,
            "corps-bien" => Victory::CorpsBien,
            "honore" => Victory::Honore,
            "grande" => Victory::Grande,
            "majeure" => Victory::Majeure,
            "excellente" => Victory::Excellente,
            v => return Err(format!("unknown Victory '{}'", v)),
        };
        let forward = match o.text("Layout") {
            "boissiere" => false,
            "forward" => true,
            v => return Err(format!("unknown Layout '{}'", v)),
        };
        let convert = match o.text("Captures") {
            "remove" => false,
            "convert" => true,
            v => return Err(format!("unknown Captures '{}'", v)),
        };
        Ok(Cfg {
            forward,
            convert,
            victory,
            n: o.int("N").max(0) as u32,
            s: o.int("S").max(0) as u32,
            c: o.int("C").max(0) as u32,
            max_plies: o.int("MaxPlies").max(0) as u32,
        })
    }
}

static OPTIONS: [OptionSpec; 7] = [
    OptionSpec {
        name: "Layout",
        kind: OptionKind::Combo {
            default: "boissiere",
            vars: &["boissiere", "forward"],
        },
    },
    OptionSpec {
        name: "Captures",
        kind: OptionKind::Combo {
            default: "remove",
            vars: &["remove", "convert"],
        },
    },
    OptionSpec {
        name: "Victory",
        kind: OptionKind::Combo {
            default: "corps",
            vars: &[
                "corps",
                "bien",
                "proces",
                "corps-bien",
                "honore",
                "grande",
                "majeure",
                "excellente",
            ],
        },
    },
    OptionSpec {
        name: "N",
        kind: OptionKind::Spin {
            default: 12,
            min: 1,
            max: 10000,
        },
    },
    OptionSpec {
        name: "S",
        kind: OptionKind::Spin {
            default: 160,
            min: 1,
            max: 1_000_000,
        },
    },
    OptionSpec {
        name: "C",
        kind: OptionKind::Spin {
            default: 8,
            min: 1,
            max: 10000,
        },
    },
    OptionSpec {
        name: "MaxPlies",
        kind: OptionKind::Spin {
            default: 400,
            min: 0,
            max: 100000,
        },
    },
];

/// Result codes kept in the state.
const R_ONGOING: u8 = 0;
const R_BLACK: u8 = 1;
const R_WHITE: u8 = 2;
const R_DRAW: u8 = 3;
/// What was left of the turn change when `MaxPlies` ended the game: nothing; the side to move's
/// turn has not begun (its phase-1 captures); the turn has not been handed over.
const TURN_DONE: u8 = 0;
const TURN_BEGIN: u8 = 1;
const TURN_HAND_OVER: u8 = 2;

/// Reasons: index 0..8 the victory kinds (in `Victory` order), then these.
const REASON_NOMOVE: u8 = 8;
const REASON_MAXPLIES: u8 = 9;
const REASONS: [&str; 10] = [
    "corps victory",
    "bien victory",
    "proces victory",
    "corps-bien victory",
    "honore victory",
    "grande victory",
    "majeure victory",
    "excellente victory",
    "no legal move",
    "MaxPlies",
];
const REASON_CODES: [&str; 10] = [
    "corps",
    "bien",
    "proces",
    "corps-bien",
    "honore",
    "grande",
    "majeure",
    "excellente",
    "nomove",
    "maxplies",
];

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

/// Kinds formed by three values taken in any order.
fn unordered_kinds(a: u32, b: u32, c: u32) -> u8 {
    progression_kinds(a, b, c) | progression_kinds(b, a, c) | progression_kinds(a, c, b)
}

/// What one phase does to one enemy piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Hit {
    whole: bool,
    /// Pyramid layers hit (bit i = layer i), when not whole.
    layers: u8,
}

/// Small value set: a piece's value, or a pyramid's total and remaining layers.
struct Vals {
    v: [u16; MAX_LAYERS + 1],
    n: usize,
}

/// The target values of a piece: (value, code) with code NONE = whole, else the layer index.
struct TVals {
    v: [u16; MAX_LAYERS + 1],
    code: [u8; MAX_LAYERS + 1],
    n: usize,
}

struct Acc {
    hit: Hit,
    pyramid: bool,
}

impl Acc {
    /// Records a hit on target value `k`; true when nothing more can change.
    #[inline]
    fn mark(&mut self, tv: &TVals, k: usize) -> bool {
        let c = tv.code[k];
        if c == NONE {
            self.hit.whole = true;
            true
        } else {
            self.hit.layers |= 1 << c;
            !self.pyramid
        }
    }
}

/// Index of the `k`-th set bit of `m` (from the lowest).
#[inline]
fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// Direction steps: 0 = up the file (+rank), 1 = down, 2 = right (+file), 3 = left.
#[inline]
fn step(sq: usize, dir: usize, d: usize) -> Option<usize> {
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
fn has_neighbour(sq: usize, dir: usize) -> bool {
    let r = sq >> 3;
    let f = sq & 7;
    match dir {
        0 => r < 15,
        1 => r > 0,
        2 => f < 7,
        _ => f > 0,
    }
}

fn shape_dm(shape: u8) -> u8 {
    match shape {
        CIRCLE => 1,
        TRIANGLE => 2,
        _ => 4,
    }
}

/// Square name, `a1`..`h16`.
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq & 7) as u8) as char, (sq >> 3) + 1)
}

/// Parses `a1`..`h16`.
pub fn parse_square(s: &str) -> Result<usize, String> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 {
        return Err(format!("'{}' is not a square (a1..h16)", s));
    }
    let f = b[0].to_ascii_lowercase();
    if !(b'a'..=b'h').contains(&f) {
        return Err(format!("'{}' is not a square: the file must be a..h", s));
    }
    let r: usize = s[1..]
        .parse()
        .map_err(|_| format!("'{}' is not a square: the rank must be 1..16", s))?;
    if !(1..=16).contains(&r) || s[1..].starts_with('0') {
        return Err(format!("'{}' is not a square: the rank must be 1..16", s));
    }
    Ok((r - 1) * 8 + (f - b'a') as usize)
}

/// A rithmomachia position (after the phase-1 captures of the side to move).
#[derive(Clone, Debug)]
pub struct Rithmomachia {
    board: [u8; 128],
    file_occ: [u16; 8],
    rank_occ: [u8; 16],
    pieces: [Piece; MAX_PIECES],
    npieces: u8,
    pyrs: [Pyr; MAX_PYRS],
    npyrs: u8,
    /// Alive pieces of each side (bit = piece index).
    own: [u64; 2],
    /// `pris[s]`: what side `s` has captured.
    pris: [Prisoners; 2],
    stm: u8,
    ply: u32,
    result: u8,
    reason: u8,
    /// When `MaxPlies` ended the game: what was left of the turn change (TURN_*), done if a
    /// client plays on past it.
    turn_pending: u8,
    board_hash: u64,
    pris_hash: u64,
    /// Squares whose content changed since the start of each side's last phase 1: a capture
    /// pattern that is valid now must touch one of them (else it was valid then, and its target
    /// was taken), so phase 1 only tests the pieces whose lines reach a dirty square.
    dirty: [u128; 2],
    /// Pieces that are pyramids.
    pyr_mask: u64,
    cfg: Cfg,
    opts: &'static RuleOptions,
}

/// One piece as the layout tables and the position text describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    pub sq: usize,
    pub side: u8,
    pub shape: u8,
    pub val: u32,
    /// Pyramid layers (shape, value), base first; empty for other pieces.
    pub layers: Vec<(u8, u32)>,
}

/// Boissière's layout: (square, shape, value) for White, then Black; pyramids separately.
const WHITE_LAYOUT: [(&str, u8, u16); 23] = [
    ("a1", SQUARE, 289),
    ("b1", SQUARE, 169),
    ("g1", SQUARE, 81),
    ("h1", SQUARE, 25),
    ("a2", SQUARE, 153),
    ("c2", TRIANGLE, 49),
    ("d2", TRIANGLE, 42),
    ("e2", TRIANGLE, 20),
    ("f2", TRIANGLE, 25),
    ("g2", SQUARE, 45),
    ("h2", SQUARE, 15),
    ("a3", TRIANGLE, 81),
    ("b3", TRIANGLE, 72),
    ("c3", CIRCLE, 64),
    ("d3", CIRCLE, 36),
    ("e3", CIRCLE, 16),
    ("f3", CIRCLE, 4),
    ("g3", TRIANGLE, 6),
    ("h3", TRIANGLE, 9),
    ("c4", CIRCLE, 8),
    ("d4", CIRCLE, 6),
    ("e4", CIRCLE, 4),
    ("f4", CIRCLE, 2),
];
const BLACK_LAYOUT: [(&str, u8, u16); 23] = [
    ("c13", CIRCLE, 3),
    ("d13", CIRCLE, 5),
    ("e13", CIRCLE, 7),
    ("f13", CIRCLE, 9),
    ("a14", TRIANGLE, 16),
    ("b14", TRIANGLE, 12),
    ("c14", CIRCLE, 9),
    ("d14", CIRCLE, 25),
    ("e14", CIRCLE, 49),
    ("f14", CIRCLE, 81),
    ("g14", TRIANGLE, 90),
    ("h14", TRIANGLE, 100),
    ("a15", SQUARE, 28),
    ("b15", SQUARE, 66),
    ("c15", TRIANGLE, 36),
    ("d15", TRIANGLE, 30),
    ("e15", TRIANGLE, 56),
    ("f15", TRIANGLE, 64),
    ("g15", SQUARE, 120),
    ("a16", SQUARE, 49),
    ("b16", SQUARE, 121),
    ("g16", SQUARE, 225),
    ("h16", SQUARE, 361),
];
const WHITE_PYRAMID: [(u8, u32); 6] = [
    (SQUARE, 36),
    (SQUARE, 25),
    (TRIANGLE, 16),
    (TRIANGLE, 9),
    (CIRCLE, 4),
    (CIRCLE, 1),
];
const BLACK_PYRAMID: [(u8, u32); 5] = [
    (SQUARE, 64),
    (SQUARE, 49),
    (TRIANGLE, 36),
    (TRIANGLE, 25),
    (CIRCLE, 16),
];

/// The start layout as piece specs (`forward`: White two ranks up, Black two ranks down).
pub fn layout(forward: bool) -> Vec<PieceSpec> {
    let mut v = Vec::new();
    let shift = |sq: usize, side: u8| -> usize {
        if !forward {
            sq
        } else if side == WHITE {
            sq + 16
        } else {
            sq - 16
        }
    };
    for (side, table) in [(WHITE, &WHITE_LAYOUT), (BLACK, &BLACK_LAYOUT)] {
        for &(s, shape, val) in table.iter() {
            let sq = shift(parse_square(s).unwrap(), side);
            v.push(PieceSpec {
                sq,
                side,
                shape,
                val: val as u32,
                layers: Vec::new(),
            });
        }
    }
    let wp: Vec<(u8, u32)> = WHITE_PYRAMID.to_vec();
    let bp: Vec<(u8, u32)> = BLACK_PYRAMID.to_vec();
    v.push(PieceSpec {
        sq: shift(parse_square("b2").unwrap(), WHITE),
        side: WHITE,
        shape: PYRAMID,
        val: wp.iter().map(|l| l.1).sum(),
        layers: wp,
    });
    v.push(PieceSpec {
        sq: shift(parse_square("h15").unwrap(), BLACK),
        side: BLACK,
        shape: PYRAMID,
        val: bp.iter().map(|l| l.1).sum(),
        layers: bp,
    });
    v.sort_by_key(|p| p.sq);
    v
}

impl Rithmomachia {
    fn empty(opts: &RuleOptions) -> Result<Self, String> {
        let cfg = Cfg::from_opts(opts)?;
        let mut g = Rithmomachia {
            board: [0; 128],
            file_occ: [0; 8],
            rank_occ: [0; 16],
            pieces: [Piece::default(); MAX_PIECES],
            npieces: 0,
            pyrs: [Pyr::default(); MAX_PYRS],
            npyrs: 0,
            own: [0; 2],
            pris: [Prisoners::default(); 2],
            stm: BLACK,
            ply: 0,
            result: R_ONGOING,
            reason: 0,
            turn_pending: TURN_DONE,
            board_hash: 0,
            pris_hash: 0,
            dirty: [!0; 2],
            pyr_mask: 0,
            cfg,
            opts: opts.intern(),
        };
        g.pris_hash = g.compute_pris_hash();
        Ok(g)
    }

    /// Puts a piece on the board (checks everything a position text may get wrong).
    fn place(&mut self, p: &PieceSpec) -> Result<(), String> {
        if p.sq >= 128 {
            return Err("square out of the board".into());
        }
        if self.board[p.sq] != 0 {
            return Err(format!("two pieces on {}", square_name(p.sq)));
        }
        if self.npieces as usize >= MAX_PIECES {
            return Err(format!("too many pieces (at most {})", MAX_PIECES));
        }
        let mut piece = Piece {
            val: 0,
            sq: p.sq as u8,
            side: p.side,
            shape: p.shape,
            pyr: NONE,
            alive: true,
            dm: 0,
        };
        if p.shape == PYRAMID {
            if self.npyrs as usize >= MAX_PYRS {
                return Err(format!("too many pyramids (at most {})", MAX_PYRS));
            }
            if p.layers.is_empty() || p.layers.len() > MAX_LAYERS {
                return Err(format!("a pyramid has 1 to {} layers", MAX_LAYERS));
            }
            let mut py = Pyr::default();
            let mut total = 0u32;
            for (i, &(shape, v)) in p.layers.iter().enumerate() {
                if shape > SQUARE {
                    return Err("a pyramid layer is a circle, triangle or square".into());
                }
                if v == 0 || v > MAX_VALUE {
                    return Err(format!("value {} out of range 1..{}", v, MAX_VALUE));
                }
                py.vals[i] = v as u16;
                py.shapes[i] = shape;
                total += v;
            }
            py.n = p.layers.len() as u8;
            py.mask = ((1u16 << py.n) - 1) as u8;
            if total > 65535 {
                return Err("pyramid total too large".into());
            }
            piece.val = total as u16;
            piece.pyr = self.npyrs;
            self.pyrs[self.npyrs as usize] = py;
            self.npyrs += 1;
        } else {
            if p.val == 0 || p.val > MAX_VALUE {
                return Err(format!("value {} out of range 1..{}", p.val, MAX_VALUE));
            }
            piece.val = p.val as u16;
        }
        let i = self.npieces as usize;
        self.pieces[i] = piece;
        self.pieces[i].dm = self.compute_dm(i);
        self.npieces += 1;
        self.own[p.side as usize] |= 1 << i;
        if p.shape == PYRAMID {
            self.pyr_mask |= 1 << i;
        }
        self.set_sq(p.sq, i);
        self.board_hash ^= self.piece_key(i);
        Ok(())
    }

    fn compute_dm(&self, i: usize) -> u8 {
        let p = &self.pieces[i];
        if p.shape == PYRAMID {
            let py = &self.pyrs[p.pyr as usize];
            let mut dm = 0;
            for l in 0..py.n as usize {
                if py.mask & (1 << l) != 0 {
                    dm |= shape_dm(py.shapes[l]);
                }
            }
            dm
        } else {
            shape_dm(p.shape)
        }
    }

    #[inline]
    fn set_sq(&mut self, sq: usize, i: usize) {
        self.board[sq] = i as u8 + 1;
        self.touch(sq);
        self.file_occ[sq & 7] |= 1 << (sq >> 3);
        self.rank_occ[sq >> 3] |= 1 << (sq & 7);
    }

    #[inline]
    fn touch(&mut self, sq: usize) {
        self.dirty[0] |= 1u128 << sq;
        self.dirty[1] |= 1u128 << sq;
    }

    #[inline]
    fn clear_sq(&mut self, sq: usize) {
        self.board[sq] = 0;
        self.touch(sq);
        self.file_occ[sq & 7] &= !(1 << (sq >> 3));
        self.rank_occ[sq >> 3] &= !(1 << (sq & 7));
    }

    /// Zobrist key of piece `i` where it stands (content-based: side, shape, value, layers).
    fn piece_key(&self, i: usize) -> u64 {
        let p = &self.pieces[i];
        let sq = p.sq as u64;
        let mut k = zobrist::key(
            SALT_PIECE,
            (((p.val as u64) * 4 + p.shape as u64) * 2 + p.side as u64) * 128 + sq,
        );
        if p.shape == PYRAMID {
            let py = &self.pyrs[p.pyr as usize];
            for l in 0..py.n as usize {
                if py.mask & (1 << l) != 0 {
                    let id = (py.vals[l] as u64 * 4 + py.shapes[l] as u64) * 2 + (l == 0) as u64;
                    k ^= zobrist::key(SALT_LAYER, id * 128 + sq);
                }
            }
        }
        k
    }

    fn compute_pris_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..2u64 {
            let p = &self.pris[s as usize];
            h ^= zobrist::key(SALT_PRIS, (s * 4) << 32 | p.count as u64);
            h ^= zobrist::key(SALT_PRIS, (s * 4 + 1) << 32 | p.sum as u64);
            h ^= zobrist::key(SALT_PRIS, (s * 4 + 2) << 32 | p.digits as u64);
        }
        h
    }

    /// First occupied square from `s` in direction `dir`, and its distance (0 = none).
    #[inline(always)]
    fn first(&self, s: usize, dir: usize) -> (usize, u32) {
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

    #[inline]
    fn vals(&self, i: usize) -> Vals {
        let p = &self.pieces[i];
        let mut v = Vals {
            v: [0; MAX_LAYERS + 1],
            n: 1,
        };
        v.v[0] = p.val;
        if p.shape == PYRAMID {
            let py = &self.pyrs[p.pyr as usize];
            for l in 0..py.n as usize {
                if py.mask & (1 << l) != 0 {
                    v.v[v.n] = py.vals[l];
                    v.n += 1;
                }
            }
        }
        v
    }

    #[inline]
    fn tvals(&self, i: usize) -> TVals {
        let p = &self.pieces[i];
        let mut t = TVals {
            v: [0; MAX_LAYERS + 1],
            code: [NONE; MAX_LAYERS + 1],
            n: 1,
        };
        t.v[0] = p.val;
        if p.shape == PYRAMID {
            let py = &self.pyrs[p.pyr as usize];
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

    /// What side `att` can take of piece `ti` now; `req` (a mask of piece indices, 0 = any) must
    /// meet the attackers of a pattern for it to count.
    fn hits_on(&self, ti: usize, att: u8, req: u64) -> Hit {
        let ts = self.pieces[ti].sq as usize;
        let mut rp = [0usize; 4];
        let mut rd = [0u32; 4];
        let mut ratt = [false; 4];
        let mut any = false;
        for dir in 0..4 {
            let (s, d) = self.first(ts, dir);
            if d > 0 {
                let pi = self.board[s] as usize - 1;
                rp[dir] = pi;
                rd[dir] = d;
                let a = self.pieces[pi].side == att;
                ratt[dir] = a;
                any |= a;
            }
        }
        if !any {
            return Hit::default();
        }
        let okreq = |mask: u64| req == 0 || mask & req != 0;
        // Siege: every on-board neighbour is an attacker.
        {
            let mut all = true;
            let mut mask = 0u64;
            for dir in 0..4 {
                if has_neighbour(ts, dir) {
                    if rd[dir] == 1 && ratt[dir] {
                        mask |= 1 << rp[dir];
                    } else {
                        all = false;
                    }
                }
            }
            if all && okreq(mask) {
                return Hit {
                    whole: true,
                    layers: 0,
                };
            }
        }
        let mut near = 1u64 << ti;
        for dir in 0..4 {
            if rd[dir] > 0 {
                near |= 1 << rp[dir];
            }
        }
        if near & self.pyr_mask == 0 {
            if let Some(h) = self.hits_scalar(ti, att, req, &rp, &rd, &ratt) {
                return h;
            }
        }
        let tv = self.tvals(ti);
        let mut acc = Acc {
            hit: Hit::default(),
            pyramid: tv.n > 1,
        };
        // Adjacent attackers.
        let mut adj = [0usize; 4];
        let mut na = 0;
        for dir in 0..4 {
            if rd[dir] == 1 && ratt[dir] {
                adj[na] = rp[dir];
                na += 1;
            }
        }
        // Meeting.
        for &a in &adj[..na] {
            if !okreq(1 << a) {
                continue;
            }
            let av = self.vals(a);
            for &x in &av.v[..av.n] {
                for k in 0..tv.n {
                    if x == tv.v[k] && acc.mark(&tv, k) {
                        return acc.hit;
                    }
                }
            }
        }
        // Ambush: two or three adjacent attackers combined by + and -.
        if na >= 2 {
            for i in 0..na {
                for j in i + 1..na {
                    if okreq((1 << adj[i]) | (1 << adj[j])) {
                        let (va, vb) = (self.vals(adj[i]), self.vals(adj[j]));
                        for &a in &va.v[..va.n] {
                            for &b in &vb.v[..vb.n] {
                                let (a, b) = (a as i32, b as i32);
                                for r in [a + b, a - b, b - a] {
                                    if r > 0 {
                                        for k in 0..tv.n {
                                            if r == tv.v[k] as i32 && acc.mark(&tv, k) {
                                                return acc.hit;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    for l in j + 1..na {
                        if !okreq((1 << adj[i]) | (1 << adj[j]) | (1 << adj[l])) {
                            continue;
                        }
                        let (va, vb, vc) =
                            (self.vals(adj[i]), self.vals(adj[j]), self.vals(adj[l]));
                        for &a in &va.v[..va.n] {
                            for &b in &vb.v[..vb.n] {
                                for &c in &vc.v[..vc.n] {
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
                                        if r > 0 {
                                            for k in 0..tv.n {
                                                if r == tv.v[k] as i32 && acc.mark(&tv, k) {
                                                    return acc.hit;
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Assault: s >= 2 empty squares between, attacker x s or attacker / s.
        for dir in 0..4 {
            if ratt[dir] && rd[dir] >= 3 && okreq(1 << rp[dir]) {
                let s = rd[dir] - 1;
                let av = self.vals(rp[dir]);
                for &x in &av.v[..av.n] {
                    let x = x as u32;
                    for k in 0..tv.n {
                        let t = tv.v[k] as u32;
                        if (x * s == t || x == t * s) && acc.mark(&tv, k) {
                            return acc.hit;
                        }
                    }
                }
            }
        }
        // Progression, target in the middle.
        for (d0, d1) in [(0usize, 1usize), (2, 3)] {
            if ratt[d0] && ratt[d1] && rd[d0] == rd[d1] && okreq((1 << rp[d0]) | (1 << rp[d1])) {
                let (va, vc) = (self.vals(rp[d1]), self.vals(rp[d0]));
                for &a in &va.v[..va.n] {
                    for &c in &vc.v[..vc.n] {
                        for k in 0..tv.n {
                            if progression_kinds(a as u32, tv.v[k] as u32, c as u32) != 0
                                && acc.mark(&tv, k)
                            {
                                return acc.hit;
                            }
                        }
                    }
                }
            }
        }
        // Progression, target at an end: target, p1, p2 equally spaced along the line.
        for dir in 0..4 {
            if !ratt[dir] {
                continue;
            }
            let p1 = rp[dir];
            let (s2, d2) = self.first(self.pieces[p1].sq as usize, dir);
            if d2 != rd[dir] {
                continue;
            }
            let p2 = self.board[s2] as usize - 1;
            if self.pieces[p2].side != att || !okreq((1 << p1) | (1 << p2)) {
                continue;
            }
            let (vb, vc) = (self.vals(p1), self.vals(p2));
            for &b in &vb.v[..vb.n] {
                for &c in &vc.v[..vc.n] {
                    for k in 0..tv.n {
                        if progression_kinds(tv.v[k] as u32, b as u32, c as u32) != 0
                            && acc.mark(&tv, k)
                        {
                            return acc.hit;
                        }
                    }
                }
            }
        }
        acc.hit
    }

    /// `hits_on` when no pyramid is involved (every value is a single number): `None` when a
    /// pyramid turns up after all (the second piece of an end progression).
    #[inline]
    fn hits_scalar(
        &self,
        ti: usize,
        att: u8,
        req: u64,
        rp: &[usize; 4],
        rd: &[u32; 4],
        ratt: &[bool; 4],
    ) -> Option<Hit> {
        const WHOLE: Hit = Hit {
            whole: true,
            layers: 0,
        };
        let okreq = |mask: u64| req == 0 || mask & req != 0;
        let t = self.pieces[ti].val as i32;
        let val = |i: usize| self.pieces[i].val as i32;
        let mut adj = [0i32; 4];
        let mut adjm = [0u64; 4];
        let mut na = 0;
        for dir in 0..4 {
            if rd[dir] == 1 && ratt[dir] {
                adj[na] = val(rp[dir]);
                adjm[na] = 1 << rp[dir];
                na += 1;
            }
        }
        // Meeting.
        for i in 0..na {
            if adj[i] == t && okreq(adjm[i]) {
                return Some(WHOLE);
            }
        }
        // Ambush.
        if na >= 2 {
            for i in 0..na {
                for j in i + 1..na {
                    let (a, b) = (adj[i], adj[j]);
                    if (a + b == t || a - b == t || b - a == t) && okreq(adjm[i] | adjm[j]) {
                        return Some(WHOLE);
                    }
                    for l in j + 1..na {
                        let c = adj[l];
                        let hit = a + b + c == t
                            || a + b - c == t
                            || a - b + c == t
                            || b + c - a == t
                            || a - b - c == t
                            || b - a - c == t
                            || c - a - b == t;
                        if hit && okreq(adjm[i] | adjm[j] | adjm[l]) {
                            return Some(WHOLE);
                        }
                    }
                }
            }
        }
        // Assault.
        for dir in 0..4 {
            if ratt[dir] && rd[dir] >= 3 {
                let s = rd[dir] as i32 - 1;
                let a = val(rp[dir]);
                if (a * s == t || a == t * s) && okreq(1 << rp[dir]) {
                    return Some(WHOLE);
                }
            }
        }
        // Progression, target in the middle.
        for (d0, d1) in [(0usize, 1usize), (2, 3)] {
            if ratt[d0]
                && ratt[d1]
                && rd[d0] == rd[d1]
                && progression_kinds(val(rp[d1]) as u32, t as u32, val(rp[d0]) as u32) != 0
                && okreq((1 << rp[d0]) | (1 << rp[d1]))
            {
                return Some(WHOLE);
            }
        }
        // Progression, target at an end.
        for dir in 0..4 {
            if !ratt[dir] {
                continue;
            }
            let p1 = rp[dir];
            let (s2, d2) = self.first(self.pieces[p1].sq as usize, dir);
            if d2 != rd[dir] {
                continue;
            }
            let p2 = self.board[s2] as usize - 1;
            if self.pieces[p2].side != att {
                continue;
            }
            if self.pyr_mask & (1 << p2) != 0 {
                return None;
            }
            if progression_kinds(t as u32, val(p1) as u32, val(p2) as u32) != 0
                && okreq((1 << p1) | (1 << p2))
            {
                return Some(WHOLE);
            }
        }
        Some(Hit::default())
    }

    /// Enemy pieces (of `att`) whose patterns may include the piece on `sq`.
    #[inline]
    fn candidates_around(&self, sq: usize, att: u8) -> u64 {
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
    fn pieces_near(&self, mut squares: u128) -> u64 {
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
    fn find_captures(
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
    fn apply_captures(&mut self, att: u8, caps: &[(u8, Hit)]) -> u64 {
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
    fn phase1(&mut self) {
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
    fn phase3(&mut self, mi: usize) {
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

    /// Whether side `s` meets the chosen victory condition.
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
    fn formation_kinds(&self, s: u8, len: usize) -> u8 {
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
    fn end_checks(&mut self, mover: u8) -> bool {
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

    /// Start of the turn of the side to move: its phase-1 captures, then the no-move check.
    fn begin_turn(&mut self) {
        self.phase1();
        if !self.has_move(self.stm) {
            self.result = if self.stm == BLACK { R_WHITE } else { R_BLACK };
            self.reason = REASON_NOMOVE;
        }
    }

    #[inline]
    fn move_ok(&self, sq: usize, side: u8, dir: usize, d: usize) -> Option<usize> {
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

    fn gen_piece(&self, i: usize, out: &mut Vec<Move>) {
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

    fn has_move(&self, side: u8) -> bool {
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
    fn do_move(&mut self, mv: Move) -> Option<usize> {
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

    /// The piece on `sq` as position text (`S289`, `c3`, `P:S36/S25/T16/T9/C4/C1`), if any.
    pub fn piece_at(&self, sq: usize) -> Option<String> {
        self.piece_specs()
            .into_iter()
            .find(|p| p.sq == sq)
            .map(|p| text::piece_text(&p))
    }

    /// What side `s` has captured.
    pub fn prisoners(&self, s: Seat) -> Prisoners {
        self.pris[s & 1]
    }

    /// The pieces on the board as specs, in square order.
    pub fn piece_specs(&self) -> Vec<PieceSpec> {
        let mut v = Vec::new();
        for sq in 0..128 {
            let b = self.board[sq];
            if b == 0 {
                continue;
            }
            let p = &self.pieces[b as usize - 1];
            let mut layers = Vec::new();
            if p.shape == PYRAMID {
                let py = &self.pyrs[p.pyr as usize];
                for l in 0..py.n as usize {
                    if py.mask & (1 << l) != 0 {
                        layers.push((py.shapes[l], py.vals[l] as u32));
                    }
                }
            }
            v.push(PieceSpec {
                sq,
                side: p.side,
                shape: p.shape,
                val: p.val as u32,
                layers,
            });
        }
        v
    }

    /// Number of pieces of side `s` the other side could take if it had phase 1 now.
    fn threatened(&self, s: u8) -> (u32, u32) {
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

    /// Builds a position from its parts; `pending_phase1`: the side to move has not made its
    /// phase-1 captures yet (the end-of-turn checks of the previous mover run first).
    fn build(
        opts: &RuleOptions,
        pieces: &[PieceSpec],
        stm: u8,
        ply: u32,
        pris: [Prisoners; 2],
        pending_phase1: bool,
        over: Option<(u8, u8)>,
    ) -> Result<Self, String> {
        let mut g = Self::empty(opts)?;
        for p in pieces {
            g.place(p)?;
        }
        g.stm = stm;
        g.ply = ply;
        g.pris = pris;
        g.pris_hash = g.compute_pris_hash();
        if let Some((r, why)) = over {
            g.result = r;
            g.reason = why;
            return Ok(g);
        }
        if pending_phase1 {
            if g.end_checks(1 - stm) {
                if g.reason == REASON_MAXPLIES {
                    g.turn_pending = TURN_BEGIN;
                }
                return Ok(g);
            }
            g.begin_turn();
        } else if g.cfg.max_plies > 0 && g.ply >= g.cfg.max_plies {
            g.result = R_DRAW;
            g.reason = REASON_MAXPLIES;
        } else if !g.has_move(stm) {
            g.result = if stm == BLACK { R_WHITE } else { R_BLACK };
            g.reason = REASON_NOMOVE;
        }
        Ok(g)
    }
}

impl Game for Rithmomachia {
    type Move = Move;
    const NAME: &'static str = NAME;

    fn rule_options() -> &'static [OptionSpec] {
        &OPTIONS
    }

    fn start(opts: &RuleOptions) -> Result<Self, String> {
        let cfg = Cfg::from_opts(opts)?;
        let pieces = layout(cfg.forward);
        let mut g = Self::build(
            opts,
            &pieces,
            BLACK,
            0,
            [Prisoners::default(); 2],
            false,
            None,
        )?;
        g.begin_turn();
        Ok(g)
    }

    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String> {
        text::parse(text, opts)
    }

    fn to_text(&self) -> String {
        text::write(self)
    }

    fn display(&self) -> String {
        text::display(self)
    }

    fn options(&self) -> &RuleOptions {
        &self.opts
    }

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.stm as Seat
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
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

    fn play(&mut self, mv: Move) {
        if self.result != R_ONGOING {
            return;
        }
        let Some(i) = self.do_move(mv) else { return };
        self.phase3(i);
        self.ply = self.ply.saturating_add(1);
        let mover = self.stm;
        if self.end_checks(mover) {
            if self.reason == REASON_MAXPLIES {
                self.turn_pending = TURN_HAND_OVER;
            }
            return;
        }
        self.stm = 1 - mover;
        self.begin_turn();
    }

    fn status(&self) -> Status {
        match self.result {
            R_ONGOING => Status::Ongoing,
            R_DRAW => Status::Over(Outcome::draw(2, REASONS[self.reason as usize])),
            r => Status::Over(Outcome::win(
                if r == R_BLACK { 0 } else { 1 },
                REASONS[self.reason as usize],
            )),
        }
    }

    fn hash(&self) -> u64 {
        self.board_hash
            ^ self.pris_hash
            ^ if self.stm == WHITE {
                KEY_WHITE_TO_MOVE
            } else {
                0
            }
    }

    fn full_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..128 {
            let b = self.board[sq];
            if b != 0 {
                h ^= self.piece_key(b as usize - 1);
            }
        }
        h ^ self.compute_pris_hash()
            ^ if self.stm == WHITE {
                KEY_WHITE_TO_MOVE
            } else {
                0
            }
    }

    fn play_through_draw(&mut self) -> Option<&'static str> {
        if self.result != R_DRAW || self.reason != REASON_MAXPLIES {
            return None;
        }
        self.cfg.max_plies = 0;
        self.result = R_ONGOING;
        // `play` declares the draw before handing the turn over; a position text declares it
        // with the side to move already to move, before or after its phase 1.
        let pending = std::mem::replace(&mut self.turn_pending, TURN_DONE);
        if pending == TURN_HAND_OVER {
            self.stm = 1 - self.stm;
        }
        if pending != TURN_DONE {
            self.begin_turn();
        } else if !self.has_move(self.stm) {
            self.result = if self.stm == BLACK { R_WHITE } else { R_BLACK };
            self.reason = REASON_NOMOVE;
        }
        Some("MaxPlies")
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        text::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        format!(
            "{}{}",
            square_name(mv.from as usize & 127),
            square_name(mv.to as usize & 127)
        )
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        eval::evaluate(self, seat)
    }

    fn move_priority(&self, mv: Move) -> i32 {
        let (n, v) = self.capture_gain(mv);
        (n * 1000 + v) as i32
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.capture_gain(mv).0 > 0
    }

    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
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
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progression_formulas() {
        assert_eq!(progression_kinds(4, 6, 12), HARM);
        assert_eq!(progression_kinds(12, 6, 4), HARM);
        assert_eq!(progression_kinds(2, 4, 8), GEOM);
        assert_eq!(progression_kinds(2, 3, 4), ARITH);
        assert_eq!(progression_kinds(5, 5, 5), ARITH | GEOM);
        assert_eq!(progression_kinds(2, 5, 9), 0);
    }

    #[test]
    fn state_is_compact() {
        let n = std::mem::size_of::<Rithmomachia>();
        println!("state size {} bytes", n);
        assert!(n <= 1024, "{}", n);
    }

    #[test]
    fn start_has_48_pieces_and_moves() {
        let g = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
        assert_eq!(g.own[0].count_ones(), 24);
        assert_eq!(g.own[1].count_ones(), 24);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(!v.is_empty());
    }
}
