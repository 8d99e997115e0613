//! Hyperchess: chess on a grid of C x R ordinary boards (four dimensions x, y, z, w), after
//! Gérard Courtial's "échecs dans l'hyperespace". See `docs/rules/hyperchess.md`.
//!
//! State: a 1024-byte mailbox (every grid up to 4x4 fits) and, kept alongside it, bitboards of
//! each board (by colour and by piece type), precomputed step/ray tables shared per grid
//! (`geometry`), an incremental zobrist hash and a 100-entry ring of past hashes for the
//! repetition rule. Moves within a board come from the bitboards, moves to other boards from the
//! tables; only the king's steps, en passant and pinned pieces are tested for legality (and, in
//! check, only moves that capture the checker or block its line are made).
//!
//! Where each rule lives: `geometry.rs` how every piece moves on the 4-D grid (step and ray
//! tables), `plane.rs` the same within one board as bitboards, `movegen.rs` move generation,
//! attacks and legality, `text.rs` the position text, move
//! notation and display, `eval.rs` the evaluation. This file: the state, the rule options,
//! playing a move, the end of the game (mate, stalemate, draws) and the `Game` impl.
// Board and hand code indexes several parallel arrays with one index.
#![allow(clippy::needless_range_loop)]

pub mod chess_eval;
pub mod chess_fit;
mod chess_weights;
mod draw;
mod eval;
mod exchange;
mod features;
mod geometry;
mod movegen;
mod plane;
mod text;

use std::fmt;
use std::sync::OnceLock;

use crate::game::{Game, GameRng, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status};
use geometry::{geometry, Geometry, MAX_SQ, NONE};
use movegen::{ep_victim, Count, Each};
use text::square_name;
pub use text::square_name_4d;

pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const GUARD: u8 = 6;
pub const KING: u8 = 7;
/// Colour bit of a piece code (`type | colour << 3`).
const BLACK: u8 = 8;

/// Past positions kept for the repetition rule (the 100-ply rule ends the game before more
/// would matter).
const HIST: usize = 100;

/// A move: from (10 bits), to (10 bits), promotion piece type (3 bits, 0 = none).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(u32);

impl Move {
    #[inline(always)]
    fn new(from: usize, to: usize, promo: u8) -> Move {
        Move(from as u32 | (to as u32) << 10 | (promo as u32) << 20)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 1023) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 10) & 1023) as usize
    }
    /// Promotion piece type (`KNIGHT`, `BISHOP`, `QUEEN`, `GUARD`) or 0.
    #[inline(always)]
    pub fn promo(self) -> u8 {
        ((self.0 >> 20) & 7) as u8
    }
}

const BOARDS_VARS: &[&str] = &[
    "1x1", "1x2", "1x3", "1x4", "2x1", "2x2", "2x3", "2x4", "3x1", "3x2", "3x3", "3x4", "4x1",
    "4x2", "4x3", "4x4",
];

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Boards",
        kind: OptionKind::Combo {
            default: "3x3",
            vars: BOARDS_VARS,
        },
    },
    OptionSpec {
        name: "MaxPlies",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 100000,
        },
    },
    OptionSpec {
        name: "Promotions",
        kind: OptionKind::Combo {
            default: "hyperchess",
            vars: &["hyperchess", "chess"],
        },
    },
];

/// What a pawn may promote to, in the order the generator lists them: `Promotions=hyperchess`
/// (the rules: never a rook) and `Promotions=chess` (as in chess: never a guard, so that a chess
/// GUI or engine can read every move on one board).
const HYPERCHESS_PROMOTIONS: [u8; 4] = [QUEEN, KNIGHT, BISHOP, GUARD];
const CHESS_PROMOTIONS: [u8; 4] = [QUEEN, KNIGHT, BISHOP, ROOK];

/// Whether rules of `boards` boards promoting to `promos` are chess's (without castling):
/// one board and chess's promotions (`Boards=1x1 Promotions=chess`).
fn rules_are_chess(boards: usize, promos: &[u8; 4]) -> bool {
    boards == 1 && *promos == CHESS_PROMOTIONS
}

/// The rule options, read and checked.
struct Rules {
    /// Interned (leaked once per distinct value set) so that cloning a state never allocates.
    opts: &'static RuleOptions,
    cols: usize,
    rows: usize,
    max_plies: u32,
    promos: &'static [u8; 4],
}

fn intern_options(opts: &RuleOptions) -> Result<Rules, String> {
    let boards = opts.text("Boards");
    let (c, r) = boards
        .split_once(['x', 'X'])
        .and_then(|(a, b)| {
            Some((
                a.trim().parse::<usize>().ok()?,
                b.trim().parse::<usize>().ok()?,
            ))
        })
        .filter(|&(c, r)| (1..=4).contains(&c) && (1..=4).contains(&r))
        .ok_or_else(|| {
            format!(
                "option Boards must be CxR with C and R from 1 to 4, not '{}'",
                boards
            )
        })?;
    let mp = opts.int("MaxPlies");
    if !(0..=100000).contains(&mp) {
        return Err(format!(
            "option MaxPlies must be between 0 and 100000, not {}",
            mp
        ));
    }
    let promotions = opts.text("Promotions");
    let promos = match promotions {
        "hyperchess" => &HYPERCHESS_PROMOTIONS,
        "chess" => &CHESS_PROMOTIONS,
        _ => {
            return Err(format!(
                "option Promotions takes hyperchess or chess, not '{}'",
                promotions
            ))
        }
    };
    let o = RuleOptions::defaults(OPTIONS)
        .with("Boards", &format!("{}x{}", c, r))
        .with("MaxPlies", &mp.to_string())
        .with("Promotions", promotions)
        .intern()?;
    Ok(Rules {
        opts: o,
        cols: c,
        rows: r,
        max_plies: mp as u32,
        promos,
    })
}

struct Zobrist {
    piece: Vec<u64>,
    ep: Vec<u64>,
    side: u64,
}

fn zob() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| Zobrist {
        piece: crate::zobrist::table(0x4859_5045_5243_0001, 16 * MAX_SQ),
        ep: crate::zobrist::table(0x4859_5045_5243_0002, MAX_SQ),
        side: crate::zobrist::key(0x4859_5045_5243_0003, 0),
    })
}

#[inline(always)]
fn zp(z: &Zobrist, pc: u8, sq: usize) -> u64 {
    z.piece[(pc as usize) << 10 | sq]
}

/// What kind of candidate move the generator found.
const NORMAL: u8 = 0;
const PROMOTION: u8 = 1;
const EN_PASSANT: u8 = 2;

/// A hyperchess position.
pub struct Hyperchess {
    board: [u8; MAX_SQ],
    /// Bitboards of each board (bit `x + 8*y`), kept equal to `board` by `play`: `bb[b][t]` the
    /// pieces of type `t` (1..=7, both colours) on board `b`, `bb[b][0]` the white pieces and
    /// `bb[b][8]` the black ones (index `colour << 3`).
    bb: [[u64; 9]; MAX_SQ / 64],
    hist: [u64; HIST],
    geo: &'static Geometry,
    opts: &'static RuleOptions,
    hash: u64,
    /// The draw rules' verdict (bare kings, fifty moves, repetition, MaxPlies), kept up to date
    /// by `play`. Checkmate and stalemate are found when `status` is asked: perft and the move
    /// generator never need them, and a search asks once per node.
    rule_status: Status,
    /// Pieces of each colour by type.
    counts: [[u16; 8]; 2],
    king: [u16; 2],
    /// En-passant square after a double step, else NONE.
    ep: u16,
    halfmove: u32,
    fullmove: u32,
    /// Plies played since the position given.
    plies: u32,
    max_plies: u32,
    /// `plies + 1` when a client played on past a repetition, resp. the 100-ply rule (0: never):
    /// that rule counts again from there (see `Game::play_through_draw`).
    through_rep: u32,
    through_fifty: u32,
    /// False once `Game::ignore_draw_rules` turned the draw rules off (perft).
    draw_rules: bool,
    /// What a pawn may promote to (the `Promotions` option).
    promos: &'static [u8; 4],
    side: u8,
    /// Whether an en-passant capture is actually legal (only then is `ep` part of the hash).
    ep_legal: bool,
    in_check: bool,
}

impl Clone for Hyperchess {
    fn clone(&self) -> Self {
        Hyperchess {
            board: self.board,
            bb: self.bb,
            hist: self.hist,
            ..*self
        }
    }

    /// Copies only what a state reads: the squares of its grid (and clears any beyond them
    /// that `self` had) and the hashes since the last irreversible move, which are all the
    /// repetition rule looks back at. Perft reuses one state per ply this way; a whole copy is
    /// mostly empty board and stale history (1.9 kB, a seventh of perft's time on one board).
    fn clone_from(&mut self, src: &Self) {
        // A board at a time: fixed-size copies, done in line (a grid is 1 to 16 boards).
        let n = src.geo.nb.max(self.geo.nb);
        for b in 0..n.min(MAX_SQ / 64) {
            let r = b * 64..b * 64 + 64;
            self.board[r.clone()].copy_from_slice(&src.board[r]);
            self.bb[b] = src.bb[b];
        }
        let live = (src.halfmove.min(src.plies) as usize).min(HIST - 2) + 1;
        for d in 0..live {
            let i = (src.plies as usize + HIST - d) % HIST;
            self.hist[i] = src.hist[i];
        }
        // Every other field, by name: a field added to the struct must be added here too.
        let Hyperchess {
            board: _,
            bb: _,
            hist: _,
            geo,
            opts,
            hash,
            rule_status,
            counts,
            king,
            ep,
            halfmove,
            fullmove,
            plies,
            max_plies,
            through_rep,
            through_fifty,
            draw_rules,
            promos,
            side,
            ep_legal,
            in_check,
        } = *src;
        self.geo = geo;
        self.opts = opts;
        self.hash = hash;
        self.rule_status = rule_status;
        self.counts = counts;
        self.king = king;
        self.ep = ep;
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self.plies = plies;
        self.max_plies = max_plies;
        self.through_rep = through_rep;
        self.through_fifty = through_fifty;
        self.draw_rules = draw_rules;
        self.promos = promos;
        self.side = side;
        self.ep_legal = ep_legal;
        self.in_check = in_check;
    }
}

impl fmt::Debug for Hyperchess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hyperchess({})", self.to_text())
    }
}

/// Chess's rule options (`Boards=1x1 Promotions=chess`), for the tests of its evaluation and
/// exchanges.
#[cfg(test)]
pub(crate) fn chess_options() -> RuleOptions {
    RuleOptions::of::<Hyperchess>()
        .with("Boards", "1x1")
        .with("Promotions", "chess")
}

impl Hyperchess {
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Whether the rules are chess's (without castling): one board and chess's promotions
    /// (`Boards=1x1 Promotions=chess`). The evaluation is then chess's (`chess_eval.rs`).
    pub fn plays_chess(&self) -> bool {
        rules_are_chess(self.geo.nb, self.promos)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Piece code on `sq` (`type | colour << 3`, 0 for empty).
    pub fn piece_at(&self, sq: usize) -> u8 {
        self.board[sq]
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The number of legal moves (the rule status aside).
    #[inline(always)]
    fn count_moves(&self) -> usize {
        let mut n = Count(0);
        self.gen::<true, false>(&mut n);
        n.0
    }

    /// [`Self::count_moves`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn count_with_popcnt(&self) -> usize {
        self.count_moves()
    }

    /// Puts the piece `p` on `s` in the bitboards, or takes it off.
    #[inline(always)]
    fn flip(&mut self, p: u8, s: usize) {
        let b = &mut self.bb[(s >> 6) & (MAX_SQ / 64 - 1)];
        let m = plane::bit(s);
        b[(p & 7) as usize] ^= m;
        b[((p >> 3) & 1) as usize * 8] ^= m;
    }

    /// Whether the bitboards hold exactly the pieces of the board (an invariant of every
    /// state; for tests).
    #[doc(hidden)]
    pub fn bitboards_match_board(&self) -> bool {
        self.bb == bitboards(self.geo, &self.board)
    }

    /// Checkmate or stalemate (they come before the draw rules), else the draw rules' verdict.
    fn compute_status(&self) -> Status {
        if !self.has_legal_move() {
            return Status::Over(if self.in_check {
                Outcome::win((self.side ^ 1) as usize, "checkmate")
            } else {
                Outcome::draw(2, "stalemate")
            });
        }
        self.rule_status
    }

    /// The draw rules' verdict on this position.
    fn compute_rule_status(&self) -> Status {
        if !self.draw_rules {
            return Status::Ongoing;
        }
        // Stops at the first kind present (pawns, mostly): this runs after every move.
        let bare = |c: usize| self.counts[c][1..7].iter().all(|&n| n == 0);
        if bare(0) && bare(1) {
            return Status::Over(Outcome::draw(2, "bare kings"));
        }
        // Reversible plies that count: since the last capture or pawn move, and since the client
        // played on past this draw, if it did.
        let since = |through: u32| match through {
            0 => self.halfmove,
            t => self.halfmove.min(self.plies + 1 - t),
        };
        if since(self.through_fifty) >= 100 {
            return Status::Over(Outcome::draw(2, "fifty-move rule"));
        }
        let back = since(self.through_rep).min(self.plies).min(HIST as u32 - 2);
        let mut seen = 0;
        let mut d = 4;
        while d <= back {
            if self.hist[((self.plies - d) as usize) % HIST] == self.hash {
                seen += 1;
                if seen >= 2 {
                    return Status::Over(Outcome::draw(2, "threefold repetition"));
                }
            }
            d += 2;
        }
        if self.max_plies > 0 && self.plies >= self.max_plies {
            return Status::Over(Outcome::draw(2, "MaxPlies"));
        }
        Status::Ongoing
    }

    fn compute_hash(&self) -> u64 {
        let z = zob();
        let mut h = 0;
        for s in 0..self.geo.nsq {
            if self.board[s] != 0 {
                h ^= zp(z, self.board[s], s);
            }
        }
        if self.side == 1 {
            h ^= z.side;
        }
        if self.compute_ep_legal() {
            h ^= z.ep[self.ep as usize];
        }
        h
    }

    /// Builds a state from a board; checks the position makes sense.
    fn setup(
        opts: &RuleOptions,
        board: [u8; MAX_SQ],
        side: u8,
        ep: u16,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Hyperchess, String> {
        let Rules {
            opts,
            cols: c,
            rows: r,
            max_plies,
            promos,
        } = intern_options(opts)?;
        let geo = geometry(c, r);
        let mut counts = [[0u16; 8]; 2];
        let mut king = [NONE; 2];
        for (s, &p) in board.iter().enumerate().take(geo.nsq) {
            if p != 0 {
                let col = (p >> 3) as usize;
                counts[col][(p & 7) as usize] += 1;
                if p & 7 == KING {
                    king[col] = s as u16;
                }
                if p & 7 == PAWN && (geo.coord[s][1] == 0 || geo.coord[s][1] == 7) {
                    return Err(format!(
                        "a pawn stands on {}: pawns cannot be on rank 1 or 8",
                        square_name(geo, s)
                    ));
                }
            }
        }
        for (col, name) in [(0, "White"), (1, "Black")] {
            if counts[col][KING as usize] != 1 {
                return Err(format!(
                    "{} has {} kings: each side needs exactly one king",
                    name, counts[col][KING as usize]
                ));
            }
        }
        let mut g = Hyperchess {
            board,
            bb: bitboards(geo, &board),
            hist: [0; HIST],
            geo,
            opts,
            hash: 0,
            rule_status: Status::Ongoing,
            counts,
            king,
            ep,
            halfmove,
            fullmove,
            plies: 0,
            max_plies,
            through_rep: 0,
            through_fifty: 0,
            draw_rules: true,
            promos,
            side,
            ep_legal: false,
            in_check: false,
        };
        let them = side ^ 1;
        if g.attacked(g.king[them as usize] as usize, side) {
            return Err(format!(
                "the side not to move ({}) is in check: impossible position",
                if them == 0 { "White" } else { "Black" }
            ));
        }
        if ep != NONE {
            let e = ep as usize;
            let need_rank = if side == 0 { 5 } else { 2 };
            let name = square_name(geo, e);
            if geo.coord[e][1] != need_rank {
                return Err(format!(
                    "en-passant square {} must be on rank {} when {} is to move",
                    name,
                    need_rank + 1,
                    if side == 0 { "White" } else { "Black" }
                ));
            }
            let (pawn_sq, start_sq) = if side == 0 {
                (e - 8, e + 8)
            } else {
                (e + 8, e - 8)
            };
            if board[e] != 0 || board[start_sq] != 0 || board[pawn_sq] != PAWN | them << 3 {
                return Err(format!(
                    "en-passant square {} does not follow a double pawn step (it and the square behind must be empty, with a {} pawn in front)",
                    name,
                    if them == 0 { "white" } else { "black" }
                ));
            }
        }
        g.in_check = g.attacked(g.king[side as usize] as usize, them);
        g.ep_legal = g.compute_ep_legal();
        g.hash = g.compute_hash();
        g.hist[0] = g.hash;
        g.rule_status = g.compute_rule_status();
        Ok(g)
    }
}

/// The bitboards (`Hyperchess::bb`) of `board` on the grid `geo`.
fn bitboards(geo: &Geometry, board: &[u8; MAX_SQ]) -> [[u64; 9]; MAX_SQ / 64] {
    let mut bb = [[0u64; 9]; MAX_SQ / 64];
    for (s, &p) in board.iter().enumerate().take(geo.nsq) {
        if p != 0 {
            bb[s >> 6][(p & 7) as usize] |= plane::bit(s);
            bb[s >> 6][((p >> 3) & 1) as usize * 8] |= plane::bit(s);
        }
    }
    bb
}

impl Game for Hyperchess {
    type Move = Move;
    const NAME: &'static str = "hyperchess";
    const HAS_CHECK: bool = true;

    fn rule_options() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start(opts: &RuleOptions) -> Result<Self, String> {
        let Rules {
            cols: c,
            rows: r,
            promos,
            ..
        } = intern_options(opts)?;
        let mut board = [0u8; MAX_SQ];
        let kb = c / 2 + c * (r / 2);
        // Chess's own start where the rules are chess's (`Boards=1x1 Promotions=chess`): a chess
        // GUI sends `position startpos` for it and shows a queen on d1 (docs/rules/hyperchess.md).
        let chess = rules_are_chess(c * r, promos);
        for b in 0..c * r {
            let back: [u8; 8] = if chess {
                [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK]
            } else if b == kb {
                [ROOK, KNIGHT, BISHOP, GUARD, KING, BISHOP, KNIGHT, ROOK]
            } else {
                [ROOK, KNIGHT, BISHOP, GUARD, GUARD, BISHOP, KNIGHT, ROOK]
            };
            for x in 0..8 {
                board[64 * b + x] = back[x];
                board[64 * b + 8 + x] = PAWN;
                board[64 * b + 48 + x] = PAWN | BLACK;
                board[64 * b + 56 + x] = back[x] | BLACK;
            }
        }
        Self::setup(opts, board, 0, NONE, 0, 1)
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
        self.side as Seat
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        // Over by a draw rule: no moves; mated or stalemated: none are generated anyway.
        if self.rule_status.is_over() {
            return;
        }
        self.gen::<true, false>(&mut Each(|m| {
            out.push(m);
            false
        }));
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.rule_status.is_over() {
            return;
        }
        self.gen::<true, true>(&mut Each(|m| {
            out.push(m);
            false
        }));
    }

    fn count_legal_moves(&self, _: &mut Vec<Move>) -> usize {
        if self.rule_status.is_over() {
            return 0;
        }
        // Counted as generated, a set at a time, without building a list (perft's last ply).
        // The count of a set is one instruction where the CPU has it (x86-64 has had it since
        // 2008, but not in the baseline the build targets), else a dozen.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the instruction.
            return unsafe { self.count_with_popcnt() };
        }
        self.count_moves()
    }

    fn play(&mut self, mv: Move) {
        let z = zob();
        let (from, to, promo) = (mv.from(), mv.to(), mv.promo());
        let us = self.side;
        let them = us ^ 1;
        let p = self.board[from];
        let t = p & 7;
        let cap = self.board[to];
        let mut irreversible = t == PAWN;
        self.hash ^= zp(z, p, from);
        self.flip(p, from);
        if cap != 0 {
            self.hash ^= zp(z, cap, to);
            self.flip(cap, to);
            let c = &mut self.counts[them as usize][(cap & 7) as usize];
            *c = c.wrapping_sub(1);
            irreversible = true;
        } else if t == PAWN && to == self.ep as usize {
            let v = ep_victim(to, us);
            let vp = self.board[v];
            if vp != 0 {
                self.hash ^= zp(z, vp, v);
                self.flip(vp, v);
                let c = &mut self.counts[them as usize][(vp & 7) as usize];
                *c = c.wrapping_sub(1);
                self.board[v] = 0;
            }
        }
        let newp = if promo != 0 {
            let c = &mut self.counts[us as usize][PAWN as usize];
            *c = c.wrapping_sub(1);
            let c = &mut self.counts[us as usize][promo as usize];
            *c = c.wrapping_add(1);
            promo | us << 3
        } else {
            p
        };
        self.board[from] = 0;
        self.board[to] = newp;
        self.hash ^= zp(z, newp, to);
        self.flip(newp, to);
        if t == KING {
            self.king[us as usize] = to as u16;
        }
        if self.ep_legal {
            self.hash ^= z.ep[self.ep as usize];
        }
        self.ep = NONE;
        self.ep_legal = false;
        if t == PAWN && (from as isize - to as isize).abs() == 16 {
            self.ep = ((from + to) / 2) as u16;
        }
        self.halfmove = if irreversible { 0 } else { self.halfmove + 1 };
        if us == 1 {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= z.side;
        self.plies += 1;
        self.in_check = self.attacked(self.king[them as usize] as usize, us);
        if self.ep != NONE {
            self.ep_legal = self.compute_ep_legal();
            if self.ep_legal {
                self.hash ^= z.ep[self.ep as usize];
            }
        }
        self.hist[self.plies as usize % HIST] = self.hash;
        self.rule_status = self.compute_rule_status();
    }

    fn status(&self) -> Status {
        self.compute_status()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn full_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn play_through_draw(&mut self) -> Option<&'static str> {
        let Status::Over(o) = self.status() else {
            return None;
        };
        match o.reason {
            "fifty-move rule" => self.through_fifty = self.plies + 1,
            "threefold repetition" => self.through_rep = self.plies + 1,
            "MaxPlies" => self.max_plies = 0,
            _ => return None,
        }
        self.rule_status = self.compute_rule_status();
        Some(o.reason)
    }

    fn ignore_draw_rules(&mut self) {
        self.draw_rules = false;
        self.rule_status = Status::Ongoing;
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        text::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::format_move(self, mv)
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        let v = eval::evaluate_white_kept(self);
        if seat == 0 {
            v
        } else {
            -v
        }
    }

    fn move_priority(&self, mv: Move) -> i32 {
        eval::move_priority(self, mv)
    }

    /// From × to over the grid's squares, then the promotions (piece × the pawn's 7th-rank
    /// square × its step): `nsq² + 448 × boards` (4,544 on 1x1, 335,808 on 3x3).
    fn move_index_count(&self) -> usize {
        text::move_index_count(self)
    }

    fn move_index(&self, mv: Move) -> usize {
        text::move_index(self, mv)
    }

    fn noisy_estimate(&self, mv: Move) -> Option<(i32, bool)> {
        Some(eval::noisy_estimate(self, mv))
    }

    /// On one board with chess's rules (`exchange.rs`).
    fn exchange(&self, mv: Move) -> Option<i32> {
        self.plays_chess().then(|| exchange::exchange(self, mv))
    }

    /// A chess engine knows every move of one board except a promotion to a guard (which
    /// `Promotions=chess` leaves out).
    fn foreign_engine_reads(&self, mv: Move) -> bool {
        mv.promo() != GUARD
    }

    /// One board is chess without castling (a guard promotion aside, which the arena keeps
    /// from such an engine); more boards are not chess.
    fn foreign_engines_play(&self) -> bool {
        self.geo.nb == 1
    }

    fn is_noisy(&self, mv: Move) -> bool {
        mv.promo() != 0
            || self.board[mv.to()] != 0
            || (self.board[mv.from()] & 7 == PAWN && mv.to() == self.ep as usize)
    }

    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        self.random_legal(rng, buf)
    }

    fn in_check(&self) -> bool {
        self.in_check
    }

    fn tuning_name(&self) -> &'static str {
        if self.plays_chess() {
            "hyperchess-1x1-chess"
        } else if self.geo.nb == 1 {
            "hyperchess-1x1"
        } else {
            Self::NAME
        }
    }

    fn feature_set(&self) -> Option<String> {
        Some(features::feature_set(self))
    }

    fn feature_count(&self) -> usize {
        features::feature_count(self)
    }

    fn features(&self, out: &mut Vec<u32>) {
        features::features(self, out)
    }

    fn features_sorted(&self) -> bool {
        true
    }

    fn feature_words(&self, out: &mut Vec<u64>) -> bool {
        features::feature_words(self, out)
    }

    fn feature_word_bits(&self) -> usize {
        features::feature_word_bits(self)
    }

    fn lineage(&self) -> Option<(u32, u64)> {
        // `clone_from` copies at least the source's own entry, so a child's entry before its
        // own is its parent's hash.
        (self.plies > 0).then(|| (self.plies, self.hist[(self.plies as usize - 1) % HIST]))
    }

    fn word_features(&self, bit: usize, out: &mut Vec<u32>) {
        features::word_features(self, bit, out)
    }

    fn move_feature_set(&self) -> Option<String> {
        Some(features::move_feature_set(self))
    }

    fn move_feature_count(&self) -> usize {
        features::move_feature_count(self)
    }

    fn move_features(&self, mv: Move, out: &mut Vec<u32>) {
        features::move_features(self, mv, out)
    }

    /// A pass, when not in check and the side to move has a piece other than king and pawns
    /// (with only those, zugzwang is common).
    fn null_move(&self) -> Option<Self> {
        let us = self.side as usize;
        let pieces: u32 = [KNIGHT, BISHOP, ROOK, QUEEN, GUARD]
            .iter()
            .map(|&k| self.counts[us][k as usize] as u32)
            .sum();
        if self.in_check || pieces == 0 || self.status() != Status::Ongoing {
            return None;
        }
        let z = zob();
        let mut g = self.clone();
        if g.ep_legal {
            g.hash ^= z.ep[g.ep as usize];
        }
        g.ep = NONE;
        g.ep_legal = false;
        g.halfmove += 1;
        if g.side == 1 {
            g.fullmove += 1;
        }
        g.side ^= 1;
        g.hash ^= z.side;
        g.plies += 1;
        g.in_check = false;
        g.hist[g.plies as usize % HIST] = g.hash;
        g.rule_status = g.compute_rule_status();
        Some(g)
    }
}
