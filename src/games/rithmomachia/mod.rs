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
//!
//! Where each rule lives: `layout.rs` the start position, `movegen.rs` the moves (phase 2),
//! `capture.rs` the capture patterns (meeting, ambush, assault, siege, progression) and phases 1
//! and 3, `victory.rs` the victories and end-of-turn checks, `text.rs` the position text, move
//! notation and board drawing, `eval.rs` the evaluation, `features.rs` the learned evaluation's
//! input features. This file: the state, the rule options, the turn sequence and the `Game`
//! impl.

use crate::game::{Game, GameRng, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status};
use crate::zobrist;

mod capture;
mod draw;
mod eval;
mod features;
mod layout;
mod movegen;
mod text;
mod victory;

pub use capture::{progression_kinds, ARITH, GEOM, HARM};
pub use layout::layout;
pub use text::{parse_square, square_name};

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

fn shape_dm(shape: u8) -> u8 {
    match shape {
        CIRCLE => 1,
        TRIANGLE => 2,
        _ => 4,
    }
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
            opts: opts.intern()?,
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

    /// Start of the turn of the side to move: its phase-1 captures, then the no-move check.
    fn begin_turn(&mut self) {
        self.phase1();
        if !self.has_move(self.stm) {
            self.result = if self.stm == BLACK { R_WHITE } else { R_BLACK };
            self.reason = REASON_NOMOVE;
        }
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

    fn svg(&self, opts: &crate::render::DrawOptions) -> String {
        draw::svg(self, opts)
    }

    fn seat_name(&self, seat: Seat) -> String {
        draw::SEATS[seat].to_string()
    }

    fn move_cells(&self, mv: Move) -> Vec<String> {
        draw::move_cells(mv)
    }

    fn options(&self) -> &RuleOptions {
        self.opts
    }

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.stm as Seat
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.gen_moves(out);
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

    /// `MaxPlies` is the one draw rule.
    fn ignore_draw_rules(&mut self) {
        self.play_through_draw();
        self.cfg.max_plies = 0;
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

    /// From × to over the 128 squares (a move is its two squares): 16,384.
    fn move_index_count(&self) -> usize {
        128 * 128
    }

    fn move_index(&self, mv: Move) -> usize {
        (mv.from as usize & 127) * 128 + (mv.to as usize & 127)
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.capture_gain(mv).0 > 0
    }

    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        self.random_legal(rng, buf)
    }

    fn feature_set(&self) -> Option<String> {
        Some(features::feature_set(self))
    }

    fn feature_count(&self) -> usize {
        features::feature_count()
    }

    fn features(&self, out: &mut Vec<u32>) {
        features::features(self, out)
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
