//! Static evaluation and move ordering.
//!
//! Piece values: in four dimensions the pieces reach far more squares than in chess (on an empty
//! 3x3 grid a knight averages 19.7 targets against 5.25 on one board, a bishop 24.3 against 8.75,
//! a rook 18 against 14, a guard 11.0 against 6.6), while a pawn still advances one square at a
//! time. Each piece's value is its classical value (N 300, B 330, R 500, Q 900, G 300 — a guard
//! on one board is a non-royal king) scaled by the square root of how much its average
//! empty-board mobility grew on this grid (square root: more reach has diminishing returns,
//! and the 4D board is also far more crowded). On 3x3 that gives N 581, B 550, R 567, Q 1227,
//! G 389, with the pawn fixed at 100; on 1x1 exactly the classical values.
//!
//! The evaluation (from White's view, negated for Black): material, pawn advancement, a light
//! king-safety term (own pieces next to the king, being in check) and a light mobility term
//! (pseudo-legal target squares of knights, bishops, rooks, queens and guards). On one board
//! with chess's promotions (`Boards=1x1 Promotions=chess`, which is chess without castling) the
//! game has its own evaluation: `chess_eval.rs`.

use super::movegen::{Count, Sets, Squares};
use super::*;

/// Classical values of P N B R Q G (index = piece type).
const CLASSICAL: [f32; 8] = [0.0, 100.0, 300.0, 330.0, 500.0, 900.0, 300.0, 0.0];
/// Average empty-board mobility of each piece type on one 8x8 board.
const MOB_2D: [f32; 8] = [0.0, 0.0, 5.25, 8.75, 14.0, 22.75, 6.5625, 6.5625];

pub fn piece_values(avg_mobility: &[f32; 8]) -> [i32; 8] {
    let mut v = [0i32; 8];
    v[PAWN as usize] = 100;
    for t in [KNIGHT, BISHOP, ROOK, QUEEN, GUARD] {
        let t = t as usize;
        v[t] = (CLASSICAL[t] * (avg_mobility[t] / MOB_2D[t]).sqrt()).round() as i32;
    }
    // The king is never captured; a large value makes MVV-LVA try it last as an attacker.
    v[KING as usize] = 2000;
    v
}

/// Bonus for a pawn by ranks advanced from its own first rank (index 1 = starting rank).
const PAWN_ADVANCE: [i32; 8] = [0, 0, 4, 9, 16, 28, 48, 0];

/// Slots of a thread's table of recent evaluations ([`evaluate_white_kept`]): 16 bytes each,
/// 1 MiB a thread.
const KEPT_SLOTS: usize = 1 << 16;

thread_local! {
    /// (key, evaluation) of recent positions, by key: allocated at a thread's first evaluation.
    static KEPT: std::cell::RefCell<Vec<(u64, i32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`evaluate_white`], kept by position in a table of the thread's: alpha-beta evaluates the
/// same position again and again (each iteration of the deepening, re-searches, transpositions,
/// quiescence), and off one board the evaluation (mobility across boards, the king zone's
/// attack tests) is about half a search's time. The key is the position's hash, which holds
/// everything the evaluation reads (the pieces, the side to move, hence check), mixed with the
/// grid's geometry; an evaluation is a function of the position, so the same answers and the
/// same trees (test `kept_evaluations_are_the_evaluations`). Chess on one board has its own,
/// cheaper evaluation and is not kept.
pub fn evaluate_white_kept(g: &Hyperchess) -> i32 {
    if g.plays_chess() {
        return evaluate_white(g);
    }
    let geo = g.geo as *const Geometry as usize as u64;
    let key = g.hash ^ geo.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    if key == 0 {
        return evaluate_white(g);
    }
    KEPT.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_empty() {
            t.resize(KEPT_SLOTS, (0, 0));
        }
        let slot = &mut t[key as usize & (KEPT_SLOTS - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let v = evaluate_white(g);
        *slot = (key, v);
        v
    })
}

pub fn evaluate_white(g: &Hyperchess) -> i32 {
    // The mobility counts sets of squares: one instruction each where the CPU has it (as
    // `count_legal_moves` does), a dozen otherwise.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction.
        return unsafe { evaluate_white_popcnt(g) };
    }
    evaluate_white_any(g)
}

/// [`evaluate_white`] compiled with the popcnt instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_white_popcnt(g: &Hyperchess) -> i32 {
    evaluate_white_any(g)
}

#[inline(always)]
fn evaluate_white_any(g: &Hyperchess) -> i32 {
    // One board with chess's promotions is chess: its own evaluation, fitted to Stockfish's
    // scores.
    if g.plays_chess() {
        return super::chess_eval::evaluate_white(g);
    }
    let geo = g.geo;
    let vals = &geo.values;
    let mut score = 0i32;
    for t in 1..7 {
        score += vals[t] * (g.counts[0][t] as i32 - g.counts[1][t] as i32);
    }
    let mob_weight = if geo.cols * geo.rows == 1 { 2 } else { 1 };
    let (advance, mob) = advance_and_mobility(g);
    score += advance;
    score += mob_weight * (mob[0] - mob[1]);
    for col in 0..2 {
        let safety = king_safety(g, col);
        score += if col == 0 { safety } else { -safety };
    }
    score
}

/// Pawn advancement (White's minus Black's) and each colour's mobility: the squares its
/// knights, guards, bishops, rooks and queens reach (empty or enemy-held), across boards.
/// A board's pieces of a kind are taken a bitboard at a time, with the move generator's own
/// steps to other boards and its counting sink (the walk along the geometry's rays, square by
/// square, was most of an evaluation).
#[inline(always)]
fn advance_and_mobility(g: &Hyperchess) -> (i32, [i32; 2]) {
    let geo = g.geo;
    let nb = geo.nb.min(MAX_SQ / 64);
    let mut occ: Squares = [0; MAX_SQ / 64];
    let mut tgt: [Squares; 2] = [[0; MAX_SQ / 64]; 2];
    for b in 0..nb {
        occ[b] = g.bb[b][0] | g.bb[b][8];
        tgt[0][b] = !g.bb[b][0];
        tgt[1][b] = !g.bb[b][8];
    }
    let mut advance = 0;
    let mut mob = [0i32; 2];
    for col in 0..2 {
        // (`block` is not read by the steps to other boards.)
        let sets = Sets {
            block: &occ,
            occ: &occ,
            tgt: &tgt[col],
        };
        let mut n = Count(0);
        for b in 0..nb {
            let pb = &g.bb[b];
            let base = b * 64;
            let ours = !tgt[col][b];
            if ours == 0 {
                continue;
            }
            let free = tgt[col][b];
            for s in plane::squares(ours & pb[PAWN as usize]) {
                let y = geo.coord[base + s][1] as usize;
                advance += if col == 0 {
                    PAWN_ADVANCE[y]
                } else {
                    -PAWN_ADVANCE[7 - y]
                };
            }
            for s in plane::squares(ours & pb[KNIGHT as usize]) {
                n.0 += (plane::KNIGHT[s] & free).count_ones() as usize;
                if geo.cross {
                    g.jumps_x(base + s, geo.knight_xb.get(base + s), &sets, &mut n);
                }
            }
            for s in plane::squares(ours & pb[GUARD as usize]) {
                n.0 += (plane::KING[s] & free).count_ones() as usize;
                if geo.cross {
                    g.jumps_x(base + s, geo.zw_b.get(base + s), &sets, &mut n);
                }
            }
            let rooks = ours & (pb[ROOK as usize] | pb[QUEEN as usize]);
            let bishops = ours & (pb[BISHOP as usize] | pb[QUEEN as usize]);
            for s in plane::squares(rooks) {
                n.0 += (plane::rook(s, occ[b]) & free).count_ones() as usize;
            }
            for s in plane::squares(bishops) {
                n.0 += (plane::bishop(s, occ[b]) & free).count_ones() as usize;
            }
            if geo.cross && rooks != 0 {
                g.lines_x(b, rooks, &geo.rook_lines, &sets, &mut n);
            }
            if geo.cross && bishops != 0 {
                g.lines_x(b, bishops, &geo.bishop_lines, &sets, &mut n);
            }
        }
        mob[col] = n.0 as i32;
    }
    (advance, mob)
}

/// The square-by-square walk [`advance_and_mobility`] replaced, kept to check it.
#[cfg(test)]
fn advance_and_mobility_by_rays(g: &Hyperchess) -> (i32, [i32; 2]) {
    let geo = g.geo;
    let mut score = 0i32;
    let b = &g.board;
    let mut mob = [0i32; 2];
    let mut base = 0;
    while base < geo.nsq {
        if u64::from_ne_bytes(b[base..base + 8].try_into().unwrap()) == 0 {
            base += 8;
            continue;
        }
        for s in base..base + 8 {
            let p = b[s];
            if p == 0 {
                continue;
            }
            let col = (p >> 3) as usize;
            let t = p & 7;
            let free = |q: u8| q == 0 || (q >> 3) as usize != col;
            match t {
                PAWN => {
                    let y = geo.coord[s][1] as usize;
                    let adv = if col == 0 { y } else { 7 - y };
                    score += if col == 0 {
                        PAWN_ADVANCE[adv]
                    } else {
                        -PAWN_ADVANCE[adv]
                    };
                }
                KNIGHT => {
                    mob[col] += geo
                        .knight
                        .get(s)
                        .iter()
                        .filter(|&&q| free(b[q as usize]))
                        .count() as i32
                }
                GUARD => {
                    mob[col] += geo
                        .king
                        .get(s)
                        .iter()
                        .filter(|&&q| free(b[q as usize]))
                        .count() as i32;
                    mob[col] += geo
                        .zw
                        .get(s)
                        .iter()
                        .filter(|&&q| free(b[q as usize]))
                        .count() as i32;
                }
                BISHOP | ROOK | QUEEN => {
                    let mut n = 0;
                    let mut count = |rays: &[geometry::Ray]| {
                        for &r in rays {
                            for &q in geo.ray(r) {
                                let qp = b[q as usize];
                                if qp == 0 {
                                    n += 1;
                                } else {
                                    if free(qp) {
                                        n += 1;
                                    }
                                    break;
                                }
                            }
                        }
                    };
                    if t != BISHOP {
                        count(geo.rook.get(s));
                    }
                    if t != ROOK {
                        count(geo.bishop.get(s));
                    }
                    mob[col] += n;
                }
                _ => {}
            }
        }
        base += 8;
    }
    (score, mob)
}

/// King safety of colour `col`: own pieces on the (up to 8) squares around the king, check, and
/// the attacked squares of the king zone.
#[inline]
fn king_safety(g: &Hyperchess, col: usize) -> i32 {
    let geo = g.geo;
    let b = &g.board;
    let k = g.king[col] as usize;
    let shelter = geo
        .king
        .get(k)
        .iter()
        .filter(|&&q| b[q as usize] != 0 && (b[q as usize] >> 3) as usize == col)
        .count() as i32;
    let mut safety = 6 * shelter.min(5);
    if g.in_check && g.side as usize == col {
        safety -= 30;
    }
    // King zone: the king's square and its flight squares that the enemy attacks. Without
    // this the side ahead has no reason to go after the king and games drift to the ply
    // limit; with it, the weaker king's shrinking room shows in the score. Weighted more
    // as the attacker's material lead grows (mop-up).
    let enemy = (1 - col) as u8;
    let zone_attacked = std::iter::once(k)
        .chain(geo.king.get(k).iter().map(|&q| q as usize))
        .filter(|&q| g.attacked(q, enemy))
        .count() as i32;
    let lead = if col == 0 { -material(g) } else { material(g) };
    let weight = 12 + (lead.clamp(0, 3000) / 100);
    safety -= weight * zone_attacked;
    safety
}

/// White's material minus Black's, by this grid's piece values.
fn material(g: &Hyperchess) -> i32 {
    (1..7)
        .map(|t| g.geo.values[t] * (g.counts[0][t] as i32 - g.counts[1][t] as i32))
        .sum()
}

/// MVV-LVA for captures (most valuable victim first, cheapest attacker first among equals),
/// plus the promotion piece's value; 0 for quiet moves.
pub fn move_priority(g: &Hyperchess, m: Move) -> i32 {
    let vals = &g.geo.values;
    let taken = captured_value(g, m);
    let mut prio = 0;
    if taken != 0 {
        prio += 16 * taken - vals[(g.board[m.from()] & 7) as usize] / 8;
    }
    prio + 16 * promotion_gain(g, m)
}

/// The value of the piece `m` captures (en passant included), 0 for none.
fn captured_value(g: &Hyperchess, m: Move) -> i32 {
    let vals = &g.geo.values;
    let victim = g.board[m.to()];
    if victim != 0 {
        vals[(victim & 7) as usize]
    } else if g.board[m.from()] & 7 == PAWN && m.to() == g.ep as usize {
        vals[PAWN as usize]
    } else {
        0
    }
}

/// What a promotion adds: the new piece's value less the pawn's (0 for other moves).
fn promotion_gain(g: &Hyperchess, m: Move) -> i32 {
    match m.promo() {
        0 => 0,
        p => g.geo.values[p as usize] - g.geo.values[PAWN as usize],
    }
}

/// The most a noisy move gains (the victim's value, a promotion's gain) and whether it is a
/// capture by a more valuable piece of a defended one (likely to lose material).
pub fn noisy_estimate(g: &Hyperchess, m: Move) -> (i32, bool) {
    let taken = captured_value(g, m);
    let losing = taken != 0
        && m.promo() == 0
        && g.geo.values[(g.board[m.from()] & 7) as usize] > taken
        && g.attacked(m.to(), 1 - g.side)
        // In chess, unless the exchange that follows wins it back (more attackers, a
        // defender that cannot retake).
        && (!g.plays_chess() || super::exchange::exchange(g, m) < 0);
    (taken + promotion_gain(g, m), losing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RuleOptions;

    #[test]
    fn values_are_classical_on_one_board_and_larger_on_3x3() {
        let v1 = geometry(1, 1).values;
        assert_eq!(&v1[1..7], &[100, 300, 330, 500, 900, 300]);
        let v3 = geometry(3, 3).values;
        assert_eq!(&v3[1..7], &[100, 581, 550, 567, 1227, 389]);
    }

    /// The bitboard mobility and pawn advancement equal the square-by-square walk along the
    /// geometry's rays, on every grid shape, over random games (captures, promotions, kings
    /// walking across boards).
    #[test]
    fn bitboard_mobility_equals_the_walk_along_rays() {
        let mut buf = Vec::new();
        let mut positions = 0;
        for (i, b) in ["3x3", "1x1", "2x3", "3x1", "2x2"].iter().enumerate() {
            let opts = RuleOptions::of::<Hyperchess>().with("Boards", b);
            let mut rng = crate::game::rng_from_seed(40 + i as u64);
            for _ in 0..12 {
                let mut g = Hyperchess::start(&opts).unwrap();
                for _ in 0..300 {
                    assert_eq!(
                        advance_and_mobility(&g),
                        advance_and_mobility_by_rays(&g),
                        "{} {}",
                        b,
                        g.to_text()
                    );
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

    /// How many (square, colour) pairs of `g` are attacked, checking on each that the attack
    /// test and the walk along every line agree.
    fn attacks_agree(g: &Hyperchess, grid: &str) -> u64 {
        let mut hits = 0;
        for sq in 0..g.geo.nsq {
            for by in 0..2 {
                let a = g.attacked(sq, by);
                let walk = g.attacked_by_walk(sq, by);
                assert_eq!(a, walk, "{} {} {:?}", grid, sq, &g.board[..g.geo.nsq]);
                hits += a as u64;
            }
        }
        hits
    }

    /// An evaluation kept by position is the evaluation, whatever grid was evaluated before on
    /// the thread (the key mixes the geometry with the hash).
    #[test]
    fn kept_evaluations_are_the_evaluations() {
        // Random games on grids of different geometry, played in turn on one thread (so one
        // table holds them all), each position evaluated twice: kept and afresh. The second
        // game of each grid replays the first's moves, so positions come back (kept hits).
        let mut buf = Vec::new();
        let grids = ["3x3", "2x2", "1x1", "2x3", "3x1"];
        let mut games: Vec<(Hyperchess, crate::game::GameRng)> = grids
            .iter()
            .flat_map(|b| {
                let opts = RuleOptions::of::<Hyperchess>()
                    .with("Boards", b)
                    .with("Promotions", "hyperchess");
                let g = Hyperchess::start(&opts).unwrap();
                (0..2).map(move |_| (g.clone(), crate::game::rng_from_seed(b.len() as u64)))
            })
            .collect();
        let mut evaluated = 0;
        for _ in 0..300 {
            for (g, rng) in games.iter_mut() {
                assert_eq!(evaluate_white_kept(g), evaluate_white(g), "{}", g.to_text());
                evaluated += 1;
                if let Some(m) = g.random_move(rng, &mut buf) {
                    g.play(m);
                    assert_eq!(g.hash, g.compute_hash());
                }
            }
        }
        assert!(evaluated >= 3000);
    }

    /// The attack test that reads other boards from bitboards (and walks a line only when an
    /// enemy slider stands on it) answers as the walk along every line does, for every square
    /// and both colours, on every grid shape over random games.
    #[test]
    fn attacked_agrees_with_the_walk_on_every_grid() {
        let mut buf = Vec::new();
        let (mut tests, mut hits) = (0u64, 0u64);
        for (i, b) in ["3x3", "1x1", "2x3", "3x1", "2x2", "4x4"]
            .iter()
            .enumerate()
        {
            let opts = RuleOptions::of::<Hyperchess>().with("Boards", b);
            let mut rng = crate::game::rng_from_seed(70 + i as u64);
            for _ in 0..4 {
                let mut g = Hyperchess::start(&opts).unwrap();
                for ply in 0..400 {
                    if ply % 7 == 0 {
                        tests += 2 * g.geo.nsq as u64;
                        hits += attacks_agree(&g, b);
                    }
                    let Some(m) = g.random_move(&mut rng, &mut buf) else {
                        break;
                    };
                    g.play(m);
                }
            }
        }
        assert!(tests > 100_000 && hits > tests / 10, "{} {}", tests, hits);
        // Sparse boards, where a lone slider's line across boards decides: a few pieces of
        // any kind and colour on random squares (kings are not needed to ask).
        use rand::Rng;
        let mut rng = crate::game::rng_from_seed(77);
        let mut lone = 0u64;
        for b in ["3x3", "2x3", "4x4"] {
            let opts = RuleOptions::of::<Hyperchess>().with("Boards", b);
            let mut g = Hyperchess::start(&opts).unwrap();
            let nsq = g.geo.nsq;
            for _ in 0..300 {
                g.board = [0; MAX_SQ];
                g.counts = [[0; 8]; 2];
                for _ in 0..rng.random_range(1..6) {
                    let (s, col, t) = (
                        rng.random_range(0..nsq),
                        rng.random_range(0..2u8),
                        rng.random_range(PAWN..=KING),
                    );
                    g.board[s] = t | col << 3;
                }
                for s in 0..nsq {
                    let p = g.board[s];
                    if p != 0 {
                        g.counts[(p >> 3) as usize][(p & 7) as usize] += 1;
                    }
                }
                g.bb = super::super::bitboards(g.geo, &g.board);
                lone += attacks_agree(&g, b);
            }
        }
        assert!(lone > 10_000, "{}", lone);
    }

    /// Quiescence's hints: a queen taking a pawn that a pawn defends likely loses material, a
    /// queen taking an undefended knight does not, a pawn taking the queen gains her value,
    /// and a promotion gains the new piece's value less the pawn's.
    #[test]
    fn noisy_estimate_flags_a_defended_cheaper_victim_and_gives_the_gain() {
        let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
        for (fen, mv, want) in [
            ("4k3/8/8/8/3Q1n2/8/8/4K3 w - - 0 1", "d4f4", (300, false)),
            ("4k3/8/3p4/4p3/3Q4/8/8/4K3 w - - 0 1", "d4e5", (100, true)),
            ("4k3/8/8/8/3q4/4P3/8/4K3 w - - 0 1", "e3d4", (900, false)),
            ("7k/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7d8q", (800, false)),
        ] {
            let g = Hyperchess::from_text(fen, &opts).unwrap();
            let m = g.parse_move(mv).unwrap();
            assert_eq!(noisy_estimate(&g, m), want, "{} in {}", mv, fen);
        }
    }

    #[test]
    fn start_position_is_balanced() {
        for b in ["1x1", "3x3", "2x3"] {
            let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", b)).unwrap();
            assert_eq!(g.evaluate(0), 0, "{}", b);
            assert_eq!(g.evaluate(1), 0, "{}", b);
        }
    }
}
