//! The learned evaluation's input features (`Game::features`). Each piece is three features:
//! its colour and type on its square of its own board (shared by the boards of the grid), the
//! same on its board of the grid (where it stands, coarsely), and the same anywhere (material).
//! Last, one feature for Black to move.
//!
//! Version 3. Versions 1 and 2 had colour × type × square of the whole grid (8,064 inputs on
//! 3x3): a net learned the games by heart through them. On 2,400 self-play games (λ 0.3, a
//! residual net, hidden 32, lr 0.0001), version 2's held-out loss rose from 0.01176 after the
//! first epoch to 0.01319 after the fourth (the hand evaluation: 0.01117), while without those
//! inputs it stayed between 0.01111 and 0.01135 (docs/learning.md).

use super::movegen::{Sets, Sink, Squares};
use super::plane::{self, bit};
use super::*;

/// Colour × type: 2 × 7.
const KINDS: usize = 14;

/// The attack maps of chess's features: each colour's pawns, knights, bishops, rooks, queens
/// and king (`chess_eval::attack_maps`; chess has no guards, and a guard put on such a board
/// by hand attacks in no map).
const ATTACK_MAPS: usize = 12;

/// With chess's rules on one board (`Boards=1x1 Promotions=chess`) the version is 5: version
/// 3's inputs, then the squares each colour attacks with each piece type (12 × 64 inputs:
/// control, threats, the king's surroundings, which piece-square inputs cannot hold). A
/// residual net corrects chess's own hand evaluation there (`chess_eval.rs`), so a version-3
/// net of one board, the correction of hyperchess's evaluation, is refused there rather than
/// added to chess's. Version 4 was version 3's inputs on chess's evaluation (2026-11-30); on the
/// same positions a net with the attack maps predicted Stockfish's scores better (held-out
/// 0.00937 against 0.01106) and played better at equal nodes (docs/results.md, "2026-11-30
/// (evening)").
pub fn feature_set(g: &Hyperchess) -> String {
    let version = if g.plays_chess() { 5 } else { 3 };
    format!("hyperchess-{}x{}/{}", g.geo.cols, g.geo.rows, version)
}

/// Version 3's inputs: the pieces' kinds on their squares, on their boards, anywhere, and the
/// side to move.
fn piece_feature_count(g: &Hyperchess) -> usize {
    KINDS * (64 + g.geo.nb + 1) + 1
}

pub fn feature_count(g: &Hyperchess) -> usize {
    piece_feature_count(g) + if g.plays_chess() { ATTACK_MAPS * 64 } else { 0 }
}

/// The position as words of bits (`Game::feature_words`): a word per board, colour and type,
/// its pieces' squares on that board (board by board, then colour and type), then Black to move
/// (bit 0 of the next word); with chess's rules (one board), then the attack maps, a word each.
pub fn feature_words(g: &Hyperchess, out: &mut Vec<u64>) -> bool {
    for bb in &g.bb[..g.geo.nb] {
        for colour in 0..2 {
            for t in 1..8 {
                out.push(bb[t] & bb[colour << 3]);
            }
        }
    }
    out.push(g.side as u64);
    if g.plays_chess() {
        out.extend(super::chess_eval::attack_maps(g));
    }
    true
}

/// How many bits [`feature_words`] gives: a colour and type on each square of each board, the
/// side (and the rest of its word), and with chess's rules the attack maps.
pub fn feature_word_bits(g: &Hyperchess) -> usize {
    let pieces = g.geo.nb * KINDS * 64;
    if g.plays_chess() {
        pieces + (1 + ATTACK_MAPS) * 64
    } else {
        pieces + 1
    }
}

/// The features bit `bit` of [`feature_words`] stands for: a piece's three (its kind on its
/// square, on its board, anywhere), Black to move, or an attacked square. A piece's board and
/// material features add the same rows whatever its square, so a bit's rows fold into one.
pub fn word_features(g: &Hyperchess, bit: usize, out: &mut Vec<u32>) {
    let nb = g.geo.nb;
    let (grid_base, kind_base) = (KINDS * 64, KINDS * (64 + nb));
    let pieces = nb * KINDS * 64;
    if bit < pieces {
        let (board, kind, square) = (bit / (KINDS * 64), bit / 64 % KINDS, bit % 64);
        out.extend(
            [
                kind * 64 + square,
                grid_base + kind * nb + board,
                kind_base + kind,
            ]
            .map(|f| f as u32),
        );
    } else if bit == pieces {
        out.push((kind_base + KINDS) as u32);
    } else if bit >= pieces + 64 {
        out.push((piece_feature_count(g) + bit - pieces - 64) as u32);
    }
}

/// The features in increasing order (`Game::features_sorted`): a piece kind's squares (from
/// its bitboards, a square held on several boards once per board), then its pieces on each
/// board, then its material, then Black to move, then (chess) the attack maps' squares. The
/// order does not change what a net computes (a sum over the features), but the hidden sums
/// are updated from the last evaluated position's list by the two sorted lists' difference
/// (`learn::infer`), a few features, where the order by square before it left long stretches
/// between them to count.
pub fn features(g: &Hyperchess, out: &mut Vec<u32>) {
    let nb = g.geo.nb;
    let grid_base = KINDS * 64;
    let kind_base = grid_base + KINDS * nb;
    let boards = &g.bb[..nb];
    for colour in 0..2 {
        for t in 1..8 {
            let base = (colour * 7 + t - 1) * 64;
            let mut any = 0;
            for bb in boards {
                any |= bb[t] & bb[colour << 3];
            }
            while any != 0 {
                let bit = any & any.wrapping_neg();
                for bb in boards {
                    if bb[t] & bb[colour << 3] & bit != 0 {
                        out.push((base + bit.trailing_zeros() as usize) as u32);
                    }
                }
                any &= any - 1;
            }
        }
    }
    for colour in 0..2 {
        for t in 1..8 {
            let kind = colour * 7 + t - 1;
            for (b, bb) in boards.iter().enumerate() {
                let n = (bb[t] & bb[colour << 3]).count_ones();
                for _ in 0..n {
                    out.push((grid_base + kind * nb + b) as u32);
                }
            }
        }
    }
    for colour in 0..2 {
        for t in 1..8 {
            let kind = colour * 7 + t - 1;
            for _ in 0..g.counts[colour][t] {
                out.push((kind_base + kind) as u32);
            }
        }
    }
    if g.side == 1 {
        out.push((kind_base + KINDS) as u32);
    }
    if g.plays_chess() {
        let base = piece_feature_count(g);
        for (i, map) in super::chess_eval::attack_maps(g).into_iter().enumerate() {
            out.extend(plane::squares(map).map(|s| (base + i * 64 + s) as u32));
        }
    }
}

/// The learned policy's move features (`Game::move_features`), version 3. A move is described
/// by the mover's colour and type with its destination and its origin on their boards, the pair
/// of boards it goes between (the grid dimensions it crosses), what it captures, what it
/// promotes to, the game's own flag for a capture likely to lose material; then whether the
/// opponent attacks its destination, whether another of the mover's pieces defends it, whether
/// an enemy pawn attacks it (the cheapest attacker) and whether it is attacked with its
/// victim's type (a capture taken back); whether the piece on its destination gives check; and
/// whether the opponent attacks its origin and the mover's pieces defend it (a piece saved).
///
/// Version 3 reads the attacks from maps of the position before the move, made once for all
/// its moves ([`MoveMaps`]): a square's defenders are counted, so that a piece does not defend
/// its own destination; attacks that the move uncovers (through its origin) and discovered
/// checks are not seen. Version 2 tested each move's attacks on the board the move leaves,
/// exactly, at four attack tests a move: most of the time of a node's priors. Version 1 read
/// "attacked" and "defended" on the board before the move, where the mover defended its own
/// destination.
pub fn move_feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-moves-{}x{}/3", g.geo.cols, g.geo.rows)
}

/// The move feature blocks' sizes: kind × destination square, kind × origin square, kind ×
/// (origin board, destination board), mover type × victim type, promotion, mover type ×
/// (destination attacked, defended), mover type × origin (attacked, defended), mover type ×
/// likely-losing capture, moved type × check, mover type × victim type × destination attacked,
/// mover type × destination attacked by a pawn.
fn move_blocks(nb: usize) -> [usize; 12] {
    let sizes = [
        KINDS * 64,
        KINDS * 64,
        KINDS * nb * nb,
        8 * 8,
        8,
        8 * 4,
        8 * 4,
        8 * 2,
        8 * 2,
        8 * 8 * 2,
        8 * 2,
    ];
    let mut b = [0; 12];
    for (i, s) in sizes.iter().enumerate() {
        b[i + 1] = b[i] + s;
    }
    b
}

pub fn move_feature_count(g: &Hyperchess) -> usize {
    move_blocks(g.geo.nb)[11]
}

/// What the move features read of a position, made once for all its moves: the squares the
/// side to move attacks (at least once, at least twice: defends), those its opponent attacks,
/// those the opponent's pawns attack, and for each type of piece the squares from which one of
/// the side to move's would attack the opponent's king.
pub(super) struct MoveMaps {
    /// The position's hash, and whether the maps are of it (none yet otherwise).
    hash: Option<u64>,
    ours: Squares,
    ours_twice: Squares,
    theirs: Squares,
    their_pawns: Squares,
    checks: [Squares; 8],
}

impl MoveMaps {
    const fn new() -> Self {
        MoveMaps {
            hash: None,
            ours: [0; MAX_SQ / 64],
            ours_twice: [0; MAX_SQ / 64],
            theirs: [0; MAX_SQ / 64],
            their_pawns: [0; MAX_SQ / 64],
            checks: [[0; MAX_SQ / 64]; 8],
        }
    }

    /// The maps of `g`.
    pub(super) fn compute(&mut self, g: &Hyperchess) {
        let us = g.side as usize & 1;
        let mut scratch = [0; MAX_SQ / 64];
        *self = MoveMaps::new();
        // Lines stop at any piece; every square reached counts, the pieces' own included.
        let mut occ: Squares = [0; MAX_SQ / 64];
        for (o, pb) in occ
            .iter_mut()
            .zip(g.bb.iter())
            .take(g.geo.nb.min(MAX_SQ / 64))
        {
            *o = pb[0] | pb[8];
        }
        let sets = Sets {
            block: &occ,
            occ: &occ,
            tgt: &[!0; MAX_SQ / 64],
        };
        attack_map(g, &sets, us, &mut self.ours, &mut self.ours_twice, false);
        attack_map(g, &sets, us ^ 1, &mut self.theirs, &mut scratch, false);
        attack_map(g, &sets, us ^ 1, &mut self.their_pawns, &mut scratch, true);
        let king = g.king[us ^ 1] as usize;
        if king < g.geo.nsq {
            check_squares(g, &sets, king, &mut self.checks);
        }
        self.hash = Some(g.hash);
    }
}

#[inline(always)]
fn has(set: &Squares, s: usize) -> bool {
    set[(s >> 6) & (MAX_SQ / 64 - 1)] >> (s & 63) & 1 != 0
}

/// A sink that marks the squares moves go to: once, and twice when already marked (a square
/// two pieces reach; the sliders of one board along a line to other boards move together, so
/// two of them reaching a square that way count once).
struct Mark<'a> {
    once: &'a mut Squares,
    twice: &'a mut Squares,
}

impl Mark<'_> {
    #[inline(always)]
    fn bits(&mut self, board: usize, bits: u64) {
        let b = board & (MAX_SQ / 64 - 1);
        self.twice[b] |= self.once[b] & bits;
        self.once[b] |= bits;
    }
    #[inline(always)]
    fn square(&mut self, s: usize) {
        self.bits(s >> 6, bit(s & 63));
    }
}

impl Sink for Mark<'_> {
    #[inline(always)]
    fn one(&mut self, m: Move) -> bool {
        self.square(m.to());
        false
    }
    #[inline(always)]
    fn set(&mut self, _: usize, base: usize, bits: u64) -> bool {
        self.bits(base >> 6, bits);
        false
    }
    #[inline(always)]
    fn shifted(&mut self, base: usize, bits: u64, _: isize) -> bool {
        self.bits(base >> 6, bits);
        false
    }
}

/// The squares the pieces of colour `col` attack (its pawns alone with `pawns`), into `once`
/// and, those attacked by two or more, `twice`: as [`Hyperchess::attacked`] reads them. `sets`:
/// the occupancy, every square a target.
fn attack_map(
    g: &Hyperchess,
    sets: &Sets,
    col: usize,
    once: &mut Squares,
    twice: &mut Squares,
    pawns: bool,
) {
    let geo = g.geo;
    let nb = geo.nb.min(MAX_SQ / 64);
    let occ = sets.occ;
    let mut mark = Mark { once, twice };
    for b in 0..nb {
        let pb = &g.bb[b];
        let base = b * 64;
        let mine = pb[col << 3];
        for s in plane::squares(mine & pb[PAWN as usize]) {
            for &t in geo.pawn_cap[col].get(base + s) {
                mark.square(t as usize);
            }
        }
        if pawns {
            continue;
        }
        for s in plane::squares(mine & pb[KNIGHT as usize]) {
            mark.bits(b, plane::KNIGHT[s]);
            if geo.cross {
                g.jumps_x(base + s, geo.knight_xb.get(base + s), sets, &mut mark);
            }
        }
        for s in plane::squares(mine & pb[GUARD as usize]) {
            mark.bits(b, plane::KING[s]);
            if geo.cross {
                g.jumps_x(base + s, geo.zw_b.get(base + s), sets, &mut mark);
            }
        }
        for s in plane::squares(mine & pb[KING as usize]) {
            mark.bits(b, plane::KING[s]);
        }
        let rooks = mine & (pb[ROOK as usize] | pb[QUEEN as usize]);
        let bishops = mine & (pb[BISHOP as usize] | pb[QUEEN as usize]);
        for s in plane::squares(rooks) {
            mark.bits(b, plane::rook(s, occ[b]));
        }
        for s in plane::squares(bishops) {
            mark.bits(b, plane::bishop(s, occ[b]));
        }
        if geo.cross && rooks != 0 {
            g.lines_x(b, rooks, &geo.rook_lines, sets, &mut mark);
        }
        if geo.cross && bishops != 0 {
            g.lines_x(b, bishops, &geo.bishop_lines, sets, &mut mark);
        }
    }
}

/// For each piece type, the squares from which a piece of that type of the side to move would
/// attack the king on `king` (the board as it stands): the squares such a piece on `king`
/// reaches (every move but the pawn's goes both ways; a pawn's attackers are where an opponent's
/// pawn on `king` would capture). `sets`: as [`attack_map`]'s.
fn check_squares(g: &Hyperchess, sets: &Sets, king: usize, checks: &mut [Squares; 8]) {
    let geo = g.geo;
    let occ = sets.occ;
    let (kb, s) = ((king >> 6) & (MAX_SQ / 64 - 1), king & 63);
    let mut unused: Squares = [0; MAX_SQ / 64];
    let them = (g.side as usize & 1) ^ 1;
    for &t in geo.pawn_cap[them].get(king) {
        let t = t as usize;
        checks[PAWN as usize][(t >> 6) & (MAX_SQ / 64 - 1)] |= bit(t & 63);
    }
    for (ty, near, jumps) in [
        (KNIGHT, plane::KNIGHT[s], geo.knight_xb.get(king)),
        (GUARD, plane::KING[s], geo.zw_b.get(king)),
    ] {
        let mut mark = Mark {
            once: &mut checks[ty as usize],
            twice: &mut unused,
        };
        mark.bits(kb, near);
        if geo.cross {
            g.jumps_x(king, jumps, sets, &mut mark);
        }
    }
    for (ty, near, lines) in [
        (ROOK, plane::rook(s, occ[kb]), &geo.rook_lines),
        (BISHOP, plane::bishop(s, occ[kb]), &geo.bishop_lines),
    ] {
        let mut mark = Mark {
            once: &mut checks[ty as usize],
            twice: &mut unused,
        };
        mark.bits(kb, near);
        if geo.cross {
            g.lines_x(kb, bit(s), lines, sets, &mut mark);
        }
    }
    for b in 0..MAX_SQ / 64 {
        checks[QUEEN as usize][b] = checks[ROOK as usize][b] | checks[BISHOP as usize][b];
    }
}

thread_local! {
    /// The maps of the last position whose moves were described: a node's priors describe all
    /// its moves one after another, and so does training.
    static MAPS: std::cell::RefCell<MoveMaps> = const { std::cell::RefCell::new(MoveMaps::new()) };
}

pub fn move_features(g: &Hyperchess, m: Move, out: &mut Vec<u32>) {
    MAPS.with_borrow_mut(|maps| {
        if maps.hash != Some(g.hash) {
            maps.compute(g);
        }
        move_features_with(g, maps, m, out)
    })
}

fn move_features_with(g: &Hyperchess, maps: &MoveMaps, m: Move, out: &mut Vec<u32>) {
    let b = move_blocks(g.geo.nb);
    let (from, to) = (m.from(), m.to());
    let pc = g.board[from];
    let ty = (pc & 7) as usize;
    let kind = (pc >> 3) as usize * 7 + ty - 1;
    let victim = if g.board[to] != 0 {
        (g.board[to] & 7) as usize
    } else if ty == PAWN as usize && to == g.ep as usize {
        PAWN as usize
    } else {
        0
    };
    let attacked = has(&maps.theirs, to) as usize;
    // The mover attacks its destination unless it is a pawn going straight.
    let own = ty != PAWN as usize || victim != 0;
    let defended = has(if own { &maps.ours_twice } else { &maps.ours }, to) as usize;
    let by_pawn = (attacked == 1 && has(&maps.their_pawns, to)) as usize;
    let moved = match m.promo() {
        0 => ty,
        t => t as usize,
    };
    let check = has(&maps.checks[moved], to) as usize;
    let saved = has(&maps.theirs, from) as usize * 2 + has(&maps.ours, from) as usize;
    let (_, losing) = super::eval::noisy_estimate(g, m);
    for f in [
        b[0] + kind * 64 + to % 64,
        b[1] + kind * 64 + from % 64,
        b[2] + (kind * g.geo.nb + from / 64) * g.geo.nb + to / 64,
        b[3] + ty * 8 + victim,
        b[4] + m.promo() as usize,
        b[5] + ty * 4 + attacked * 2 + defended,
        b[6] + ty * 4 + saved,
        b[7] + ty * 2 + losing as usize,
        b[8] + moved * 2 + check,
        b[9] + (ty * 8 + victim) * 2 + attacked,
        b[10] + ty * 2 + by_pawn,
    ] {
        out.push(f as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleOptions};

    /// The move features' maps ([`MoveMaps`]) read the position as the attack test does: every
    /// square each colour attacks, and those the opponent's pawns attack (as the position
    /// reduced to its pawns); a square defended twice is defended; a move to a check square of
    /// its piece gives check (and most checks are seen: all but those the move uncovers, or
    /// whose line ran through the move's origin).
    /// Random games on several grids, captures, promotions and en passant among the moves.
    #[test]
    fn move_maps_read_the_attacks_of_the_position() {
        use rand::Rng;
        let mut buf = Vec::new();
        let (mut tests, mut hits, mut pawn_hits, mut twice) = (0u64, 0u64, 0u64, 0u64);
        let (mut checks, mut seen) = (0u64, 0u64);
        for (i, b) in ["3x3", "1x1", "2x3", "3x1"].iter().enumerate() {
            let opts = RuleOptions::of::<Hyperchess>().with("Boards", b);
            let mut rng = crate::game::rng_from_seed(90 + i as u64);
            for _ in 0..3 {
                let mut g = Hyperchess::start(&opts).unwrap();
                for ply in 0..300 {
                    g.legal_moves(&mut buf);
                    if buf.is_empty() {
                        break;
                    }
                    if ply % 5 == 0 {
                        let mut maps = MoveMaps::new();
                        maps.compute(&g);
                        let us = g.side;
                        let mut pawns = g.clone();
                        for s in 0..pawns.geo.nsq {
                            let t = pawns.board[s] & 7;
                            if t != 0 && t != PAWN {
                                pawns.board[s] = 0;
                                for q in pawns.bb[s >> 6].iter_mut() {
                                    *q &= !(1u64 << (s & 63));
                                }
                            }
                        }
                        for by in 0..2 {
                            pawns.counts[by] = [0; 8];
                            pawns.counts[by][PAWN as usize] = g.counts[by][PAWN as usize];
                        }
                        for sq in 0..g.geo.nsq {
                            let at = |s: &Squares| has(s, sq);
                            let where_ = || format!("{}: {}, square {}", b, g.to_text(), sq);
                            assert_eq!(at(&maps.ours), g.attacked(sq, us), "ours {}", where_());
                            assert_eq!(
                                at(&maps.theirs),
                                g.attacked(sq, us ^ 1),
                                "theirs {}",
                                where_()
                            );
                            let pawn = pawns.attacked(sq, us ^ 1);
                            assert_eq!(at(&maps.their_pawns), pawn, "pawns {}", where_());
                            assert!(
                                !at(&maps.ours_twice) || at(&maps.ours),
                                "twice {}",
                                where_()
                            );
                            tests += 1;
                            hits += at(&maps.theirs) as u64;
                            pawn_hits += pawn as u64;
                            twice += at(&maps.ours_twice) as u64;
                        }
                        let king = g.king[(us ^ 1) as usize] as usize;
                        for &m in buf.iter() {
                            let moved = match m.promo() {
                                0 => g.board[m.from()] & 7,
                                t => t,
                            };
                            let marked = has(&maps.checks[moved as usize], m.to());
                            let mut after = g.clone();
                            after.play(m);
                            // A check square's line to the king was clear before the move: the
                            // move only empties its origin, so the check is given.
                            let check = king < g.geo.nsq && after.attacked(king, us);
                            assert!(
                                !marked || check,
                                "check {}: {} {}",
                                b,
                                g.to_text(),
                                g.format_move(m)
                            );
                            checks += check as u64;
                            seen += marked as u64;
                        }
                    }
                    let m = buf[rng.random_range(0..buf.len())];
                    g.play(m);
                }
            }
        }
        assert!(
            tests > 100_000 && hits > tests / 10 && pawn_hits > tests / 50 && twice > tests / 20,
            "{} {} {} {}",
            tests,
            hits,
            pawn_hits,
            twice
        );
        assert!(
            checks > 1000 && seen * 10 > checks * 8,
            "{} of {} checks",
            seen,
            checks
        );
    }

    /// The features read square by square off the board array (the order before 2026-11-30).
    fn features_by_square(g: &Hyperchess) -> Vec<u32> {
        let mut out = Vec::new();
        let grid_base = KINDS * 64;
        let kind_base = grid_base + KINDS * g.geo.nb;
        for (sq, &pc) in g.board[..g.geo.nsq].iter().enumerate() {
            if pc != 0 {
                let kind = (pc >> 3) as usize * 7 + (pc & 7) as usize - 1;
                out.push((kind * 64 + sq % 64) as u32);
                out.push((grid_base + kind * g.geo.nb + sq / 64) as u32);
                out.push((kind_base + kind) as u32);
            }
        }
        if g.side == 1 {
            out.push((kind_base + KINDS) as u32);
        }
        if g.plays_chess() {
            out.extend(attacks_by_walking(g));
        }
        out
    }

    /// Chess's attack-map features found by walking each piece's steps and rays on the board
    /// array (file and row from 0 to 7): the maps' squares, each once.
    fn attacks_by_walking(g: &Hyperchess) -> Vec<u32> {
        let mut maps = [[false; 64]; ATTACK_MAPS];
        // A knight's steps are the offsets whose coordinates multiply to ±2; a king's and
        // queen's directions every unit offset, a bishop's the diagonal ones, a rook's the rest.
        let offsets = |keep: &dyn Fn(i32, i32) -> bool| -> Vec<(i32, i32)> {
            (-2..=2)
                .flat_map(|dx| (-2..=2).map(move |dy| (dx, dy)))
                .filter(|&(dx, dy)| keep(dx, dy))
                .collect()
        };
        let unit = |dx: i32, dy: i32| dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0);
        let steps = |t: u8| -> (Vec<(i32, i32)>, bool) {
            match t {
                KNIGHT => (offsets(&|dx, dy| (dx * dy).abs() == 2), false),
                BISHOP => (offsets(&|dx, dy| unit(dx, dy) && dx != 0 && dy != 0), true),
                ROOK => (
                    offsets(&|dx, dy| unit(dx, dy) && (dx == 0 || dy == 0)),
                    true,
                ),
                QUEEN => (offsets(&unit), true),
                _ => (offsets(&unit), false),
            }
        };
        for (sq, &pc) in g.board[..64].iter().enumerate() {
            // Chess has no guards (a position with one still has the six types' maps).
            if pc == 0 || pc & 7 == GUARD {
                continue;
            }
            let (col, t) = ((pc >> 3) as usize, pc & 7);
            let map = col * 6 + [0, 0, 1, 2, 3, 4, 0, 5][t as usize];
            let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
            let (dirs, slides): (Vec<(i32, i32)>, bool) = if t == PAWN {
                let dy = if col == 0 { 1 } else { -1 };
                (vec![(1, dy), (-1, dy)], false)
            } else {
                steps(t)
            };
            for (dx, dy) in dirs {
                let (mut cx, mut cy) = (x + dx, y + dy);
                while (0..8).contains(&cx) && (0..8).contains(&cy) {
                    let to = (cy * 8 + cx) as usize;
                    maps[map][to] = true;
                    if !slides || g.board[to] != 0 {
                        break;
                    }
                    cx += dx;
                    cy += dy;
                }
            }
        }
        let base = piece_feature_count(g);
        (0..ATTACK_MAPS * 64)
            .filter(|&i| maps[i / 64][i % 64])
            .map(|i| (base + i) as u32)
            .collect()
    }

    /// The features from the bitboards are the board array's, as a multiset, on every grid
    /// shape and with chess's promotions, over random games (captures, promotions, en passant),
    /// in increasing order; the features its words of bits stand for are the same.
    #[test]
    fn features_from_bitboards_equal_the_board_arrays() {
        let mut buf = Vec::new();
        let mut positions = 0;
        for (i, (b, promos)) in [
            ("3x3", None),
            ("1x1", None),
            ("1x1", Some("chess")),
            ("2x3", None),
            ("4x4", None),
        ]
        .iter()
        .enumerate()
        {
            let mut opts = RuleOptions::of::<Hyperchess>().with("Boards", b);
            if let Some(p) = promos {
                opts = opts.with("Promotions", p);
            }
            let mut rng = crate::game::rng_from_seed(70 + i as u64);
            for _ in 0..12 {
                let mut g = Hyperchess::start(&opts).unwrap();
                for _ in 0..300 {
                    let mut f = Vec::new();
                    features(&g, &mut f);
                    assert!(f.windows(2).all(|w| w[0] <= w[1]), "{}", g.to_text());
                    assert!(f.iter().all(|&x| (x as usize) < feature_count(&g)));
                    let mut words = Vec::new();
                    assert!(feature_words(&g, &mut words));
                    assert_eq!(words.len() * 64, feature_word_bits(&g).next_multiple_of(64));
                    // The features the words' bits stand for are the list.
                    let mut from_bits = Vec::new();
                    for (i, &w) in words.iter().enumerate() {
                        for bit in 0..64 {
                            if w >> bit & 1 == 1 {
                                assert!(i * 64 + bit < feature_word_bits(&g));
                                word_features(&g, i * 64 + bit, &mut from_bits);
                            }
                        }
                    }
                    from_bits.sort_unstable();
                    assert_eq!(from_bits, f, "{}", g.to_text());
                    let mut want = features_by_square(&g);
                    f.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(f, want, "{} {}", b, g.to_text());
                    positions += 1;
                    let Some(m) = g.random_move(&mut rng, &mut buf) else {
                        break;
                    };
                    g.play(m);
                }
            }
        }
        assert!(positions > 10_000, "{}", positions);
    }
}
