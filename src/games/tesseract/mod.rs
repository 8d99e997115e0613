//! Tesseract (1983): a 15 x 15 board, six men per side (Tesseract, two Stars, Pyramid,
//! Rectangle, Cylinder), seven sliders (two large, five small), two crosses, reserves and drops.
//! Rules as the engine plays them: `docs/rules/tesseract.md`.
#![allow(clippy::needless_range_loop)]
//!
//! State: one byte per intersection (`board`), holding the piece (kind + colour) in the low five
//! bits and the cross footprint (arm end, centre, centre owner) in the high three; reserve counts,
//! on-board men counts and the Tesseract squares are kept beside it so that the state is a plain
//! ~260-byte copy (plus a pointer to the interned rule options).
//!
//! Where each rule lives: `setup.rs` the setup plies, camps and cross placement, `movegen.rs` the
//! moves of men and sliders and the drops from the reserve, `capture.rs` what a move captures,
//! `text.rs` the position text, move notation and board drawing, `eval.rs` the evaluation,
//! `features.rs` the learned evaluation's input features. This file: the state, the rule
//! options, playing a move, the end of the game and the `Game` impl.

use crate::game::{Game, GameRng, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status};
use crate::zobrist;

mod capture;
mod draw;
mod eval;
mod features;
mod movegen;
mod setup;
mod stats;
mod text;

pub(crate) use setup::{cross_centre_ok, in_camp, stage_of, Stage};

use text::{format_move_text, parse_move_text, parse_point};

/// Board width and height.
pub const W: usize = 15;
/// Number of intersections.
pub const SQ: usize = W * W;
/// "No square".
pub const NONE: u8 = 255;

// ---- cell layout ----
pub(crate) const KM: u8 = 0x0F;
pub(crate) const BLK: u8 = 0x10;
pub(crate) const ARM: u8 = 0x20;
pub(crate) const CEN: u8 = 0x40;
pub(crate) const CBLK: u8 = 0x80;
pub(crate) const FP: u8 = ARM | CEN;

// ---- piece kinds (low nibble) ----
pub(crate) const K_T: u8 = 1;
pub(crate) const K_S: u8 = 2;
pub(crate) const K_P: u8 = 3;
pub(crate) const K_R: u8 = 4;
pub(crate) const K_C: u8 = 5;
pub(crate) const K_SH: u8 = 6; // small slider, horizontal
pub(crate) const K_SV: u8 = 7; // small slider, vertical
pub(crate) const K_LHA: u8 = 8; // large horizontal slider, anchor (left point)
pub(crate) const K_LHB: u8 = 9; // large horizontal slider, right point
pub(crate) const K_LVA: u8 = 10; // large vertical slider, anchor (lower point)
pub(crate) const K_LVB: u8 = 11; // large vertical slider, upper point

#[inline]
pub(crate) fn is_man(k: u8) -> bool {
    (K_T..=K_C).contains(&k)
}
#[inline]
pub(crate) fn is_slider(k: u8) -> bool {
    k >= K_SH
}
#[inline]
pub(crate) fn color(c: u8) -> usize {
    ((c & BLK) >> 4) as usize
}

// ---- reserve indices ----
pub(crate) const R_T: usize = 0;
pub(crate) const R_S: usize = 1;
pub(crate) const R_P: usize = 2;
pub(crate) const R_R: usize = 3;
pub(crate) const R_C: usize = 4;
pub(crate) const R_L: usize = 5;
pub(crate) const R_SM: usize = 6;
pub(crate) const R_X: usize = 7;
/// A side's full set, by reserve index.
pub(crate) const FULL: [u8; 8] = [1, 2, 1, 1, 1, 2, 5, 2];
pub(crate) const RES_LETTERS: [char; 8] = ['T', 'S', 'P', 'R', 'C', 'L', 's', 'X'];
pub(crate) const MAN_LETTERS: [char; 6] = ['?', 'T', 'S', 'P', 'R', 'C'];

// ---- move kinds ----
pub(crate) const MK_MOVE: u8 = 0;
pub(crate) const MK_PIVOT: u8 = 1;
/// Drop/placement of man kind `k` (1..=5) is `1 + k` (2..=6).
pub(crate) const MK_SH: u8 = 7;
pub(crate) const MK_SV: u8 = 8;
pub(crate) const MK_LH: u8 = 9;
pub(crate) const MK_LV: u8 = 10;
pub(crate) const MK_X: u8 = 11;

/// Number of setup plies (both orders): 6 men, 4 small sliders, 4 crosses.
pub const SETUP_PLIES: u8 = 14;

/// A move: `kind` says what it is; `from`/`via`/`to` are squares (`NONE` when unused).
/// - `MK_MOVE`: a man move (`via` = the corner for Star/Pyramid/Rectangle, `NONE` for a
///   Tesseract/Cylinder move or a first-leg capture) or a slider slide (anchor to anchor).
/// - `MK_PIVOT`: pivot about `from`; `to` = the large slider's new other point (`NONE` for small).
/// - drops/placements: the piece in `kind`, on `to` (the anchor for sliders, the centre for crosses).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub kind: u8,
    pub from: u8,
    pub via: u8,
    pub to: u8,
}

impl Move {
    pub(crate) const fn new(kind: u8, from: u8, via: u8, to: u8) -> Self {
        Move {
            kind,
            from,
            via,
            to,
        }
    }
    /// True for drops and setup placements.
    pub fn is_drop(&self) -> bool {
        self.kind >= 2
    }
}

// ---- geometry ----
/// Direction offsets: N, E, S, W, NE, SE, SW, NW.
pub(crate) const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
pub(crate) const DY: [i32; 8] = [1, 0, -1, 0, 1, -1, -1, 1];

const fn build_nb() -> [[u8; 8]; SQ] {
    let mut t = [[NONE; 8]; SQ];
    let mut s = 0;
    while s < SQ {
        let f = (s % W) as i32;
        let r = (s / W) as i32;
        let mut d = 0;
        while d < 8 {
            let nf = f + DX[d];
            let nr = r + DY[d];
            if nf >= 0 && nf < W as i32 && nr >= 0 && nr < W as i32 {
                t[s][d] = (nr * W as i32 + nf) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
}
/// `NB[sq][dir]`: the neighbour of `sq` in direction `dir`, or `NONE` off the board.
pub(crate) static NB: [[u8; 8]; SQ] = build_nb();

/// The two directions perpendicular to `d` (same family: orthogonal or diagonal).
#[inline]
pub(crate) fn perps(d: usize) -> [usize; 2] {
    if d < 4 {
        [(d + 1) % 4, (d + 3) % 4]
    } else {
        [4 + (d - 4 + 1) % 4, 4 + (d - 4 + 3) % 4]
    }
}

#[inline]
pub(crate) fn file_of(s: u8) -> i32 {
    (s as usize % W) as i32
}
#[inline]
pub(crate) fn rank_of(s: u8) -> i32 {
    (s as usize / W) as i32
}
/// Square of file/rank (0-based), no bounds check.
#[inline]
fn sq_of(f: i32, r: i32) -> u8 {
    (r * W as i32 + f) as u8
}
/// The unit step from `a` towards `b` (each coordinate -1/0/1), as (dx, dy).
#[inline]
fn unit(a: u8, b: u8) -> (i32, i32) {
    (
        (file_of(b) - file_of(a)).signum(),
        (rank_of(b) - rank_of(a)).signum(),
    )
}
#[inline]
fn offset(s: u8, d: (i32, i32)) -> u8 {
    sq_of(file_of(s) + d.0, rank_of(s) + d.1)
}

// ---- zobrist ----
const fn build_keys<const N: usize>(salt: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = zobrist::key(salt, i as u64);
        i += 1;
    }
    t
}
static PIECE_KEYS: [u64; 2 * 12 * SQ] = build_keys(0x7465_7373_0001);
static CROSS_KEYS: [u64; 2 * SQ] = build_keys(0x7465_7373_0002);
static RES_KEYS: [u64; 2 * 8 * 8] = build_keys(0x7465_7373_0003);
static STEP_KEYS: [u64; 16] = build_keys(0x7465_7373_0004);
const SIDE_KEY: u64 = zobrist::key(0x7465_7373_0005, 0);

#[inline]
fn piece_key(side: usize, kind: u8, sq: u8) -> u64 {
    // Tails of large sliders are not hashed: the anchor (with the orientation) says it all.
    if kind == K_LHB || kind == K_LVB || kind == 0 {
        0
    } else {
        PIECE_KEYS[(side * 12 + kind as usize) * SQ + sq as usize]
    }
}
#[inline]
fn res_key(side: usize, idx: usize, count: u8) -> u64 {
    RES_KEYS[(side * 8 + idx) * 8 + (count as usize & 7)]
}

/// The Tesseract game state.
#[derive(Clone, Debug)]
pub struct Tesseract {
    pub(crate) board: [u8; SQ],
    /// Reserve counts by side and reserve index (T S P R C L s X).
    pub(crate) reserve: [[u8; 8]; 2],
    /// Men on the board by side and kind (index 1..=5).
    pub(crate) men: [[u8; 6]; 2],
    /// Square of each side's Tesseract, `NONE` if not on the board.
    pub(crate) tpos: [u8; 2],
    pub(crate) side: u8,
    /// Setup plies done (0..14); 14 = play.
    pub(crate) step: u8,
    pub(crate) crosses_first: bool,
    pub(crate) ply: u32,
    pub(crate) max_plies: u32,
    pub(crate) status: Status,
    pub(crate) hash: u64,
    opts: &'static RuleOptions,
}

static OPTIONS: [OptionSpec; 2] = [
    OptionSpec {
        name: "CrossesFirst",
        kind: OptionKind::Check { default: false },
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

/// The position text of the empty board at the start (both orders).
pub const START_TEXT: &str = "w setup:0 0 - - TSSPRCLLsssssXX TSSPRCLLsssssXX";

impl Tesseract {
    fn empty(opts: &RuleOptions) -> Result<Self, String> {
        let mut g = Tesseract {
            board: [0; SQ],
            reserve: [FULL; 2],
            men: [[0; 6]; 2],
            tpos: [NONE; 2],
            side: 0,
            step: 0,
            crosses_first: opts.flag("CrossesFirst"),
            ply: 0,
            max_plies: opts.int("MaxPlies").max(0) as u32,
            status: Status::Ongoing,
            hash: 0,
            opts: opts.intern()?,
        };
        g.hash = g.full_hash();
        Ok(g)
    }

    /// The current setup stage (or `Play`).
    pub(crate) fn stage(&self) -> Stage {
        stage_of(self.step, self.crosses_first)
    }

    /// Whether play (after setup) has started.
    pub fn in_play(&self) -> bool {
        self.step >= SETUP_PLIES
    }

    /// Ply counter (plies since the empty board).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Reserve count of `side` for reserve letter index (T S P R C L s X).
    pub fn reserve_count(&self, side: usize, letter: char) -> u8 {
        match RES_LETTERS.iter().position(|&c| c == letter) {
            Some(i) => self.reserve[side][i],
            None => 0,
        }
    }

    /// Men of `side` on the board by letter (T S P R C).
    pub fn men_on_board(&self, side: usize, letter: char) -> u8 {
        match MAN_LETTERS.iter().position(|&c| c == letter) {
            Some(k) if k > 0 => self.men[side][k],
            _ => 0,
        }
    }

    /// Parses a point name (`h8`) to its square index.
    pub fn square(name: &str) -> Result<u8, String> {
        let b = name.trim().as_bytes();
        let mut i = 0;
        let s = parse_point(b, &mut i, name)?;
        if i != b.len() {
            return Err(format!("'{}' is not a point", name));
        }
        Ok(s)
    }

    // ---- low-level board edits (keep hash, counts, tpos) ----
    #[inline]
    fn put(&mut self, sq: u8, kind: u8, side: usize) {
        let i = sq as usize;
        self.board[i] = (self.board[i] & FP) | (self.board[i] & CBLK) | kind | ((side as u8) << 4);
        self.hash ^= piece_key(side, kind, sq);
        if is_man(kind) {
            self.men[side][kind as usize] += 1;
            if kind == K_T {
                self.tpos[side] = sq;
            }
        }
    }
    #[inline]
    fn take(&mut self, sq: u8) {
        let i = sq as usize;
        let c = self.board[i];
        let kind = c & KM;
        if kind == 0 {
            return;
        }
        let side = color(c);
        self.board[i] = c & (FP | CBLK);
        self.hash ^= piece_key(side, kind, sq);
        if is_man(kind) {
            self.men[side][kind as usize] -= 1;
            if kind == K_T {
                self.tpos[side] = NONE;
            }
        }
    }
    #[inline]
    fn set_reserve(&mut self, side: usize, idx: usize, n: u8) {
        self.hash ^= res_key(side, idx, self.reserve[side][idx]) ^ res_key(side, idx, n);
        self.reserve[side][idx] = n;
    }
    fn put_cross(&mut self, centre: u8, side: usize) {
        let i = centre as usize;
        self.board[i] |= CEN | if side == 1 { CBLK } else { 0 };
        for d in 0..4 {
            let n = NB[i][d];
            if n != NONE {
                self.board[n as usize] |= ARM;
            }
        }
        self.hash ^= CROSS_KEYS[side * SQ + i];
    }
    /// Puts a slider with anchor `a` (kind = small h/v or large anchor kind).
    fn put_slider(&mut self, a: u8, kind: u8, side: usize) {
        self.put(a, kind, side);
        match kind {
            K_LHA => self.put(a + 1, K_LHB, side),
            K_LVA => self.put(a + W as u8, K_LVB, side),
            _ => {}
        }
    }

    /// Men of `side` on the board other than the Tesseract.
    #[inline]
    pub(crate) fn other_men_on_board(&self, side: usize) -> u32 {
        let m = &self.men[side];
        (m[2] + m[3] + m[4] + m[5]) as u32
    }
    /// Men of `side` in reserve (the Tesseract included, for setup).
    #[inline]
    pub(crate) fn men_in_reserve(&self, side: usize) -> u32 {
        let r = &self.reserve[side];
        (r[R_T] + r[R_S] + r[R_P] + r[R_R] + r[R_C]) as u32
    }
    /// Must-drop: only the Tesseract on the board and a man in reserve (play phase).
    #[inline]
    pub(crate) fn must_drop(&self, side: usize) -> bool {
        self.in_play() && self.other_men_on_board(side) == 0 && self.men_in_reserve(side) > 0
    }
    /// The Tesseract's range: 4 under the endgame limit, else unlimited.
    #[inline]
    pub(crate) fn t_range(&self, side: usize) -> u32 {
        let m = &self.men[side];
        let r = &self.reserve[side];
        let others = m[2] + m[3] + m[4] + r[R_S] + r[R_P] + r[R_R];
        if others == 0 {
            4
        } else {
            14
        }
    }

    fn compute_status(&self) -> Status {
        let s = self.side as usize;
        let o = 1 - s;
        if self.in_play() {
            for x in 0..2 {
                if self.tpos[x] == NONE {
                    return Status::Over(Outcome::win(1 - x, "tesseract captured"));
                }
            }
            if self.other_men_on_board(s) == 0 && self.men_in_reserve(s) == 0 && !self.t_can_move(s)
            {
                return Status::Over(Outcome::win(o, "tesseract immobile"));
            }
        }
        if !self.has_any_move() {
            return Status::Over(Outcome::win(o, "no legal move"));
        }
        if self.max_plies > 0 && self.ply >= self.max_plies {
            return Status::Over(Outcome::draw(2, "MaxPlies"));
        }
        Status::Ongoing
    }
}

impl Game for Tesseract {
    type Move = Move;
    const NAME: &'static str = "tesseract";

    fn rule_options() -> &'static [OptionSpec] {
        &OPTIONS
    }

    fn start(opts: &RuleOptions) -> Result<Self, String> {
        let mut g = Self::empty(opts)?;
        g.status = g.compute_status();
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
        draw::move_cells(self, mv)
    }

    fn options(&self) -> &RuleOptions {
        self.opts
    }

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.side as usize
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        self.gen_all(&mut |m, _| out.push(m));
    }

    /// Only piece moves capture (a drop or a placement takes nothing): the drops onto every free
    /// point are not generated.
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let side = self.side as usize;
        if self.status.is_over() || !matches!(self.stage(), Stage::Play) || self.must_drop(side) {
            return;
        }
        self.gen_pieces(side, &mut |m, _| {
            if self.captured_squares(m).1 > 0 {
                out.push(m);
            }
        });
    }

    fn play(&mut self, mv: Move) {
        let me = self.side as usize;
        match mv.kind {
            MK_MOVE => {
                let from = mv.from as usize;
                if from >= SQ || mv.to as usize >= SQ {
                    return;
                }
                let k = self.board[from] & KM;
                let (caps, n) = self.captured_squares(mv);
                for &q in &caps[..n] {
                    self.take(q);
                }
                if is_man(k) || k == K_SH || k == K_SV {
                    self.take(mv.from);
                    self.put(mv.to, k, me);
                } else if k == K_LHA || k == K_LVA {
                    let o = if k == K_LHA { 1 } else { W as u8 };
                    self.take(mv.from);
                    self.take(mv.from + o);
                    self.put_slider(mv.to, k, me);
                }
            }
            MK_PIVOT => {
                let p = mv.from;
                if p as usize >= SQ {
                    return;
                }
                let k = self.board[p as usize] & KM;
                match k {
                    K_SH => {
                        self.take(p);
                        self.put(p, K_SV, me);
                    }
                    K_SV => {
                        self.take(p);
                        self.put(p, K_SH, me);
                    }
                    K_LHA | K_LHB | K_LVA | K_LVB => {
                        if mv.to as usize >= SQ {
                            return;
                        }
                        let (anchor, o) = match k {
                            K_LHA => (p, 1),
                            K_LHB => (p - 1, 1),
                            K_LVA => (p, W as u8),
                            _ => (p - W as u8, W as u8),
                        };
                        self.take(anchor);
                        self.take(anchor + o);
                        let nk = if o == 1 { K_LVA } else { K_LHA };
                        self.put_slider(p.min(mv.to), nk, me);
                    }
                    _ => {}
                }
            }
            MK_X => {
                if mv.to as usize >= SQ {
                    return;
                }
                self.put_cross(mv.to, me);
                let n = self.reserve[me][R_X].saturating_sub(1);
                self.set_reserve(me, R_X, n);
            }
            _ => {
                if mv.to as usize >= SQ {
                    return;
                }
                let (kind, ri) = match mv.kind {
                    MK_SH => (K_SH, R_SM),
                    MK_SV => (K_SV, R_SM),
                    MK_LH => (K_LHA, R_L),
                    MK_LV => (K_LVA, R_L),
                    k => (k - 1, (k - 2) as usize),
                };
                self.put_slider(mv.to, kind, me);
                let n = self.reserve[me][ri].saturating_sub(1);
                self.set_reserve(me, ri, n);
            }
        }
        self.ply += 1;
        if self.step < SETUP_PLIES {
            self.hash ^= STEP_KEYS[self.step as usize] ^ STEP_KEYS[self.step as usize + 1];
            self.step += 1;
        }
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
        self.status = self.compute_status();
    }

    fn status(&self) -> Status {
        self.status
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn full_hash(&self) -> u64 {
        let mut h = 0u64;
        for sq in 0..SQ {
            let c = self.board[sq];
            if c & KM != 0 {
                h ^= piece_key(color(c), c & KM, sq as u8);
            }
            if c & CEN != 0 {
                h ^= CROSS_KEYS[((c & CBLK != 0) as usize) * SQ + sq];
            }
        }
        for side in 0..2 {
            for i in 0..8 {
                h ^= res_key(side, i, self.reserve[side][i]);
            }
        }
        h ^= STEP_KEYS[self.step as usize];
        if self.side == 1 {
            h ^= SIDE_KEY;
        }
        h
    }

    /// `MaxPlies` is the one draw rule.
    fn ignore_draw_rules(&mut self) {
        self.play_through_draw();
        self.max_plies = 0;
    }

    fn play_through_draw(&mut self) -> Option<&'static str> {
        let Status::Over(o) = self.status() else {
            return None;
        };
        if o.reason != "MaxPlies" {
            return None;
        }
        self.max_plies = 0;
        self.status = self.compute_status();
        Some(o.reason)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        parse_move_text(text)
    }

    fn format_move(&self, mv: Move) -> String {
        format_move_text(mv)
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        eval::evaluate(self, seat)
    }

    fn move_priority(&self, mv: Move) -> i32 {
        match eval::captured_value(self, mv) {
            0 if mv.is_drop() => -1,
            0 => 0,
            v => v * 10 - eval::PIECE_VALUE[(self.board[mv.from as usize] & KM) as usize] / 10,
        }
    }

    /// From × to for a move without a corner, from × first leg × second leg for one through a
    /// corner, then pivots and drops (`text::move_index`): 104,400 in all.
    fn move_index_count(&self) -> usize {
        text::MOVE_INDEX_COUNT
    }

    fn move_index(&self, mv: Move) -> usize {
        text::move_index(mv)
    }

    /// The men a move takes are worth at most their values (the Tesseract ends the game); no
    /// capture is flagged as losing: that would take the enemy's jumps onto the landing point.
    fn noisy_estimate(&self, mv: Move) -> Option<(i32, bool)> {
        Some((eval::captured_value(self, mv), false))
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.captured_squares(mv).1 > 0
    }

    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        self.random_move_fast(rng, buf)
    }

    /// A pass, in the play phase only (setup plies are forced placements).
    fn null_move(&self) -> Option<Self> {
        if self.step < SETUP_PLIES || self.status != Status::Ongoing {
            return None;
        }
        let mut g = self.clone();
        g.ply += 1;
        g.side ^= 1;
        g.hash ^= SIDE_KEY;
        g.status = g.compute_status();
        Some(g)
    }

    fn feature_set(&self) -> Option<String> {
        Some(features::FEATURE_SET.to_string())
    }

    fn feature_count(&self) -> usize {
        features::COUNT
    }

    fn features(&self, out: &mut Vec<u32>) {
        features::features(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::text::point_name;
    use super::*;

    #[test]
    fn geometry_tables() {
        let h8 = Tesseract::square("h8").unwrap();
        assert_eq!(point_name(NB[h8 as usize][0]), "h9");
        assert_eq!(point_name(NB[h8 as usize][5]), "i7");
        assert_eq!(NB[0][2], NONE);
        assert_eq!(perps(0), [1, 3]);
        assert_eq!(perps(4), [5, 7]);
        assert_eq!(perps(6), [7, 5]);
    }

    #[test]
    fn setup_stages_in_both_orders() {
        let d: Vec<Stage> = (0..15).map(|s| stage_of(s, false)).collect();
        assert_eq!(d.iter().filter(|&&s| s == Stage::Men).count(), 6);
        assert_eq!(d[6], Stage::Sliders);
        assert_eq!(d[10], Stage::Crosses);
        assert_eq!(d[14], Stage::Play);
        assert_eq!(stage_of(0, true), Stage::Crosses);
        assert_eq!(stage_of(4, true), Stage::Men);
        assert_eq!(stage_of(13, true), Stage::Sliders);
    }

    /// Quiescence's hints: the values of the men a move takes (a Rectangle's three at once, the
    /// Tesseract as a won game), nothing for a quiet move or a drop, and no capture flagged.
    #[test]
    fn noisy_estimate_is_the_value_of_the_men_taken() {
        let opts = RuleOptions::of::<Tesseract>();
        let est = |text: &str, mv: &str| {
            let g = Tesseract::from_text(text, &opts).unwrap();
            g.noisy_estimate(g.parse_move(mv).unwrap())
        };
        let three = "w play 20 Rh8,Ta15 Ta14,Sh9,Sh10,Pi10 - -";
        let (s, p) = (
            eval::PIECE_VALUE[K_S as usize],
            eval::PIECE_VALUE[K_P as usize],
        );
        assert_eq!(est(three, "h8h10j10"), Some((2 * s + p, false)));
        assert_eq!(est(three, "a15b15"), Some((0, false)));
        assert_eq!(
            est("w play 20 Rh8,Ta15 Th9,Sa1 - -", "h8h10j10"),
            Some((100_000, false))
        );
        assert_eq!(est("w play 20 Ta15 Ta1 S -", "S@h8"), Some((0, false)));
    }

    #[test]
    fn state_is_compact() {
        assert!(
            std::mem::size_of::<Tesseract>() <= 320,
            "{}",
            std::mem::size_of::<Tesseract>()
        );
        assert_eq!(std::mem::size_of::<Move>(), 4);
    }
}
