//! Threechess: Gérard Courtial's chess for three on one 8 × 8 board, with ghosts (a mated player
//! plays on without its king and may recover it). See `docs/rules/threechess.md`.
//!
//! State: a 64-byte mailbox, men counted per colour and type, each seat's state (alive, ghost,
//! dead), an incremental zobrist hash over placement, player to move and the three states, and a
//! ring of past hashes for the repetition rule. `play` applies a move with everything it does
//! (captures, a ghost's death when its last pawn goes, promotion, king recovery), then runs the
//! turn procedure of the rules page for the next player (mate and stalemate noticed on the
//! victim's turn, ghosts, deaths) and settles the game's status.

mod draw;
mod eval;
mod features;
mod movegen;
mod text;

use std::fmt;
use std::sync::OnceLock;

use crate::game::{Game, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status, MAX_SEATS};
use movegen::{attacked_by_others, colour, geo, kind};

pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;

/// A seat's state.
pub const ALIVE: u8 = 0;
pub const GHOST: u8 = 1;
pub const DEAD: u8 = 2;

/// "No square" in a move's recovery field and for a missing king.
pub const NO_SQ: usize = 64;

/// Plies after which the 150-ply rule ends the game.
pub const PLY_RULE: u32 = 150;

/// Past hashes kept for the repetition rule (the 150-ply rule ends the game before more matter).
const HIST: usize = 160;

/// A move: from (6 bits), to (6 bits), promotion type (3 bits, 0 = none), and for a ghost's king
/// recovery the square of the man the king replaces (7 bits, 64 = none).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(u32);

impl Move {
    #[inline(always)]
    pub(crate) fn new(from: usize, to: usize, promo: u8, recover: usize) -> Move {
        Move(from as u32 | (to as u32) << 6 | (promo as u32) << 12 | (recover as u32) << 15)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }
    /// Promotion type (`QUEEN`, `ROOK`, `BISHOP`, `KNIGHT`) or 0.
    #[inline(always)]
    pub fn promo(self) -> u8 {
        ((self.0 >> 12) & 7) as u8
    }
    /// The square of the man a ghost's king replaces, or `NO_SQ`.
    #[inline(always)]
    pub fn recover(self) -> usize {
        ((self.0 >> 15) & 127) as usize
    }
}

static OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "MaxPlies",
    kind: OptionKind::Spin {
        default: 0,
        min: 0,
        max: 100000,
    },
}];

fn intern_options(opts: &RuleOptions) -> Result<(&'static RuleOptions, u32), String> {
    let mp = opts.int("MaxPlies");
    if !(0..=100000).contains(&mp) {
        return Err(format!(
            "option MaxPlies must be between 0 and 100000, not {}",
            mp
        ));
    }
    let o = RuleOptions::defaults(OPTIONS)
        .with("MaxPlies", &mp.to_string())
        .intern()?;
    Ok((o, mp as u32))
}

struct Zobrist {
    man: Vec<u64>,
    side: [u64; 3],
    state: [[u64; 3]; 3],
}

fn zob() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        let k = |salt: u64, i: u64| crate::zobrist::key(salt, i);
        Zobrist {
            man: crate::zobrist::table(0x5448_5245_4543_0001, 24 * 64),
            side: [0, k(0x5448_5245_4543_0002, 1), k(0x5448_5245_4543_0002, 2)],
            state: [0, 1, 2].map(|s| {
                [0, 1, 2].map(|st| {
                    if st == ALIVE as u64 {
                        0
                    } else {
                        k(0x5448_5245_4543_0003, s * 3 + st)
                    }
                })
            }),
        }
    })
}

#[inline(always)]
fn zm(z: &Zobrist, p: u8, sq: usize) -> u64 {
    z.man[(p as usize) << 6 | sq]
}

pub const COLOUR_NAMES: [&str; 3] = ["White", "Black", "Red"];

/// A threechess position.
#[derive(Clone)]
pub struct Threechess {
    board: [u8; 64],
    hist: [u64; HIST],
    opts: &'static RuleOptions,
    hash: u64,
    status: Status,
    /// Men of each colour by type.
    counts: [[u8; 8]; 3],
    /// Each colour's king square, `NO_SQ` when it has none.
    king: [u8; 3],
    state: [u8; 3],
    /// Plies counted by the 150-ply rule.
    clock: u32,
    fullmove: u32,
    /// Plies played since the position given.
    plies: u32,
    max_plies: u32,
    /// False once `Game::ignore_draw_rules` turned the draw rules off (perft).
    draws_on: bool,
    side: u8,
    /// Whether the side to move (when alive) is in check.
    in_check: bool,
}

impl fmt::Debug for Threechess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Threechess({})", self.to_text())
    }
}

impl Threechess {
    /// The man on `sq` (`type | colour << 3`, 0 for empty).
    pub fn man_at(&self, sq: usize) -> u8 {
        self.board[sq]
    }

    /// A seat's state: `ALIVE`, `GHOST` or `DEAD`.
    pub fn seat_state(&self, seat: Seat) -> u8 {
        self.state[seat]
    }

    /// Plies counted by the 150-ply rule.
    pub fn ply_clock(&self) -> u32 {
        self.clock
    }

    fn put(&mut self, sq: usize, p: u8) {
        self.board[sq] = p;
        self.hash ^= zm(zob(), p, sq);
        self.counts[colour(p)][kind(p) as usize] += 1;
        if kind(p) == KING {
            self.king[colour(p)] = sq as u8;
        }
    }

    fn take(&mut self, sq: usize) -> u8 {
        let p = self.board[sq];
        if p != 0 {
            self.board[sq] = 0;
            self.hash ^= zm(zob(), p, sq);
            let c = &mut self.counts[colour(p)][kind(p) as usize];
            *c = c.saturating_sub(1);
            if kind(p) == KING && self.king[colour(p)] as usize == sq {
                self.king[colour(p)] = NO_SQ as u8;
            }
        }
        p
    }

    fn set_state(&mut self, seat: usize, st: u8) {
        let z = zob();
        self.hash ^= z.state[seat][self.state[seat] as usize] ^ z.state[seat][st as usize];
        self.state[seat] = st;
    }

    /// Death: every man of `seat` leaves the board.
    fn kill(&mut self, seat: usize) {
        for sq in 0..64 {
            let p = self.board[sq];
            if p != 0 && colour(p) == seat {
                self.take(sq);
            }
        }
        self.set_state(seat, DEAD);
    }

    /// Passes the turn to the next seat that is not dead (the move number goes up when the turn
    /// goes back to an earlier seat).
    fn pass_turn(&mut self) {
        let z = zob();
        let old = self.side as usize;
        let mut n = (old + 1) % 3;
        if self.state[n] == DEAD {
            n = (n + 1) % 3;
        }
        if n <= old {
            self.fullmove += 1;
        }
        self.hash ^= z.side[old] ^ z.side[n];
        self.side = n as u8;
    }

    fn update_check(&mut self) {
        let s = self.side as usize;
        self.in_check = self.state[s] == ALIVE
            && (self.king[s] as usize) < 64
            && attacked_by_others(geo(), &self.board, self.king[s] as usize, s);
    }

    /// The turn procedure for the player to move: mate or stalemate makes a ghost while all three
    /// are alive and ends the game otherwise; a ghost with no move, or with no pawn, dies and the
    /// turn passes on. Returns whether a player's state changed, and the game's end if it ends.
    fn turn_procedure(&mut self) -> (bool, Option<Outcome>) {
        let mut changed = false;
        loop {
            let p = self.side as usize;
            self.update_check();
            if self.has_legal_move() {
                return (changed, None);
            }
            match self.state[p] {
                ALIVE if self.state.iter().all(|&s| s == ALIVE) => {
                    changed = true;
                    let k = self.king[p] as usize;
                    self.take(k);
                    self.set_state(p, GHOST);
                    self.in_check = false;
                    if self.counts[p][PAWN as usize] == 0 {
                        self.kill(p);
                        self.pass_turn();
                    }
                }
                ALIVE => {
                    let other = (0..3).find(|&s| s != p && self.state[s] == ALIVE);
                    let out = match other {
                        Some(o) if self.in_check => Outcome::win(o, "checkmate"),
                        Some(o) => {
                            let mut w = [p, o];
                            w.sort();
                            Outcome::shared(&w, "stalemate")
                        }
                        // Unreachable for a state this module builds (two seats stay alive while
                        // one is not); a safe answer all the same.
                        None => Outcome::shared(&[p], "stalemate"),
                    };
                    return (changed, Some(out));
                }
                _ => {
                    changed = true;
                    self.kill(p);
                    self.pass_turn();
                }
            }
        }
    }

    /// Every alive player shares: the result of the draw rules.
    fn alive_share(&self, reason: &'static str) -> Outcome {
        let alive: Vec<Seat> = (0..3).filter(|&s| self.state[s] == ALIVE).collect();
        Outcome::shared(&alive, reason)
    }

    /// Runs the turn procedure and settles the status, after a move (`irreversible`: it took,
    /// promoted or changed a state) or on loading a position.
    fn settle(&mut self, irreversible: bool) {
        let (changed, end) = self.turn_procedure();
        if irreversible || changed {
            self.clock = 0;
        }
        self.hist[self.plies as usize % HIST] = self.hash;
        self.status = match end {
            Some(o) => Status::Over(o),
            None => self.draw_rules(),
        };
    }

    fn draw_rules(&self) -> Status {
        if !self.draws_on {
            return Status::Ongoing;
        }
        if self.clock >= PLY_RULE {
            return Status::Over(self.alive_share("150-ply rule"));
        }
        let back = self.clock.min(self.plies).min(HIST as u32 - 1);
        let mut seen = 0;
        for d in 1..=back {
            if self.hist[((self.plies - d) as usize) % HIST] == self.hash {
                seen += 1;
                if seen >= 2 {
                    return Status::Over(self.alive_share("threefold repetition"));
                }
            }
        }
        if self.max_plies > 0 && self.plies >= self.max_plies {
            return Status::Over(self.alive_share("MaxPlies"));
        }
        Status::Ongoing
    }

    fn compute_hash(&self) -> u64 {
        let z = zob();
        let mut h = z.side[self.side as usize];
        for (s, &p) in self.board.iter().enumerate() {
            if p != 0 {
                h ^= zm(z, p, s);
            }
        }
        for s in 0..3 {
            h ^= z.state[s][self.state[s] as usize];
        }
        h
    }

    /// Builds a state from its parts, checking that the position makes sense, and runs the turn
    /// procedure for the player to move.
    pub(crate) fn setup(
        opts: &RuleOptions,
        board: [u8; 64],
        side: u8,
        state: [u8; 3],
        clock: u32,
        fullmove: u32,
    ) -> Result<Threechess, String> {
        let (opts, max_plies) = intern_options(opts)?;
        let mut counts = [[0u8; 8]; 3];
        let mut king = [NO_SQ as u8; 3];
        for (s, &p) in board.iter().enumerate() {
            if p == 0 {
                continue;
            }
            let (c, k) = (colour(p), kind(p));
            if c > 2 || k == 0 || k > KING {
                return Err(format!(
                    "square {} holds an unknown man",
                    text::square_name(s)
                ));
            }
            counts[c][k as usize] += 1;
            if k == KING {
                king[c] = s as u8;
            }
            if k == PAWN && movegen::on_arrival_row(c, s) {
                return Err(format!(
                    "a {} pawn stands on {}, its own arrival row ({})",
                    COLOUR_NAMES[c].to_lowercase(),
                    text::square_name(s),
                    text::ARRIVAL_ROWS[c]
                ));
            }
        }
        for c in 0..3 {
            let name = COLOUR_NAMES[c];
            let kings = counts[c][KING as usize];
            let men: u32 = counts[c].iter().map(|&n| n as u32).sum();
            match state[c] {
                ALIVE if kings != 1 => {
                    return Err(format!(
                        "{} is alive with {} kings: an alive player has exactly one king",
                        name, kings
                    ))
                }
                GHOST if kings > 0 => return Err(format!("{} is a ghost but has a king", name)),
                GHOST if counts[c][PAWN as usize] == 0 => {
                    return Err(format!(
                        "{} is a ghost with no pawn: a ghost dies with its last pawn",
                        name
                    ))
                }
                DEAD if men > 0 => {
                    return Err(format!(
                        "{} is dead but still has men on the board ({})",
                        name, men
                    ))
                }
                _ => {}
            }
        }
        if state.iter().filter(|&&s| s != ALIVE).count() > 1 {
            return Err("two players are not alive: the game ends before that can happen".into());
        }
        if state[side as usize] == DEAD {
            return Err(format!(
                "{} is to move but is dead",
                COLOUR_NAMES[side as usize]
            ));
        }
        let mut g = Threechess {
            board,
            hist: [0; HIST],
            opts,
            hash: 0,
            status: Status::Ongoing,
            counts,
            king,
            state,
            clock,
            fullmove,
            plies: 0,
            max_plies,
            draws_on: true,
            side,
            in_check: false,
        };
        g.hash = g.compute_hash();
        g.settle(false);
        Ok(g)
    }

    /// The start position's board.
    fn start_board() -> [u8; 64] {
        let mut b = [0u8; 64];
        let sq = |f: usize, r: usize| f + 8 * r;
        let w = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, ROOK];
        for (f, &k) in w.iter().enumerate() {
            b[sq(f, 0)] = k;
            b[sq(f, 1)] = PAWN;
        }
        // Black on files a-b (ranks 5-8 from the top: R, K, Q, R on file a; B, -, N, B on b).
        let a_file = [(7, ROOK), (6, KING), (5, QUEEN), (4, ROOK)];
        let b_file = [(7, BISHOP), (5, KNIGHT), (4, BISHOP)];
        for (c, (edge, inner, pawn_file, inner_pawn)) in [
            (1usize, (0usize, 1usize, 2usize, 1usize)),
            (2, (7, 6, 5, 6)),
        ] {
            let col = (c as u8) << 3;
            for &(r, k) in &a_file {
                b[sq(edge, r)] = k | col;
            }
            for &(r, k) in &b_file {
                b[sq(inner, r)] = k | col;
            }
            for r in 4..8 {
                b[sq(pawn_file, r)] = PAWN | col;
            }
            b[sq(edge, 3)] = PAWN | col;
            b[sq(inner_pawn, 3)] = PAWN | col;
            b[sq(pawn_file, 3)] = PAWN | col;
        }
        b
    }
}

impl Game for Threechess {
    type Move = Move;
    const NAME: &'static str = "threechess";

    fn rule_options() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start(opts: &RuleOptions) -> Result<Self, String> {
        Self::setup(opts, Self::start_board(), 0, [ALIVE; 3], 0, 1)
    }

    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String> {
        text::parse_position(text, opts)
    }

    fn to_text(&self) -> String {
        text::position_text(self)
    }

    fn display(&self) -> String {
        text::display(self)
    }

    fn svg(&self, opts: &crate::render::DrawOptions) -> String {
        draw::svg(self, opts)
    }

    fn seat_name(&self, seat: Seat) -> String {
        COLOUR_NAMES[seat].to_string()
    }

    fn move_cells(&self, mv: Move) -> Vec<String> {
        draw::move_cells(mv)
    }

    fn options(&self) -> &RuleOptions {
        self.opts
    }

    /// Check is reported through the trait, as in hyperchess: searches then neither stand pat
    /// in quiescence nor prune while the side to move is in check.
    const HAS_CHECK: bool = true;

    /// Whether the side to move is alive and in check.
    fn in_check(&self) -> bool {
        self.in_check
    }

    fn players(&self) -> usize {
        3
    }

    fn to_move(&self) -> Seat {
        self.side as Seat
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        self.gen(&mut |m| {
            out.push(m);
            false
        });
    }

    fn play(&mut self, mv: Move) {
        let (from, to, promo, rec) = (mv.from(), mv.to(), mv.promo(), mv.recover());
        let us = self.side as usize;
        let p = self.board[from];
        if p == 0 || colour(p) != us {
            // Not a move of the side to move: refuse quietly rather than corrupt the counts.
            return;
        }
        let mut irreversible = promo != 0 || rec != NO_SQ;
        let cap = self.board[to];
        if cap != 0 {
            irreversible = true;
            self.take(to);
        }
        self.take(from);
        let newp = if promo != 0 {
            promo | (us as u8) << 3
        } else {
            p
        };
        self.put(to, newp);
        if rec < 64 && self.state[us] == GHOST {
            self.take(rec);
            self.put(rec, KING | (us as u8) << 3);
            self.set_state(us, ALIVE);
        }
        if cap != 0 && kind(cap) == PAWN {
            let c = colour(cap);
            if self.state[c] == GHOST && self.counts[c][PAWN as usize] == 0 {
                self.kill(c);
            }
        }
        if self.state[us] == GHOST && self.counts[us][PAWN as usize] == 0 {
            self.kill(us);
        }
        self.plies += 1;
        self.clock += 1;
        self.pass_turn();
        self.settle(irreversible);
    }

    fn status(&self) -> Status {
        self.status
    }

    fn ignore_draw_rules(&mut self) {
        self.draws_on = false;
        // The draw rules are looked at only when the turn procedure ended nothing: a draw
        // lifted leaves the game going on.
        if matches!(self.status, Status::Over(o)
            if ["150-ply rule", "threefold repetition", "MaxPlies"].contains(&o.reason))
        {
            self.status = Status::Ongoing;
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn full_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        text::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::format_move(mv)
    }

    fn evaluate(&self, seat: Seat) -> i32 {
        eval::evaluate(self, seat)
    }

    fn evaluate_all(&self, out: &mut [i32; MAX_SEATS]) {
        eval::evaluate_all(self, out)
    }

    fn move_priority(&self, mv: Move) -> i32 {
        eval::move_priority(self, mv)
    }

    /// From × to, then promotions and king recoveries numbered by the pawn's arrival
    /// (`text::move_index`): 137,728 in all.
    fn move_index_count(&self) -> usize {
        text::MOVE_INDEX_COUNT
    }

    fn move_index(&self, mv: Move) -> usize {
        text::move_index(mv)
    }

    fn feature_set(&self) -> Option<String> {
        Some(features::feature_set())
    }

    fn feature_count(&self) -> usize {
        features::feature_count()
    }

    fn features(&self, out: &mut Vec<u32>) {
        features::features(self, out)
    }

    fn move_feature_set(&self) -> Option<String> {
        Some(features::move_feature_set())
    }

    fn move_feature_count(&self) -> usize {
        features::move_feature_count()
    }

    fn move_features(&self, mv: Move, out: &mut Vec<u32>) {
        features::move_features(self, mv, out)
    }

    fn random_move(&self, rng: &mut crate::game::GameRng, buf: &mut Vec<Move>) -> Option<Move> {
        if self.status.is_over() {
            return None;
        }
        self.random_legal(rng, buf)
    }

    fn is_noisy(&self, mv: Move) -> bool {
        mv.promo() != 0 || mv.recover() != NO_SQ || self.board[mv.to()] != 0
    }
}
