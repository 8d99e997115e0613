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

/// The learned policy's move features (`Game::move_features`), version 2. A move is described
/// by the mover's colour and type with its destination and its origin on their boards, the pair
/// of boards it goes between (the grid dimensions it crosses), what it captures, what it
/// promotes to, the game's own flag for a capture likely to lose material; then, on the board
/// as the move leaves it, whether the opponent attacks its destination, whether one of the
/// mover's other pieces defends it, whether an enemy pawn attacks it (the cheapest attacker)
/// and whether it is attacked with its victim's type (a capture taken back); whether it gives
/// check (discovered checks included); and, on the board before it, whether the opponent
/// attacks its origin and the mover's pieces defend it (a piece saved).
///
/// Version 1 read "attacked" and "defended" on the board before the move, where the mover
/// defends its own destination and an attack through its origin is missed.
pub fn move_feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-moves-{}x{}/2", g.geo.cols, g.geo.rows)
}

/// The move feature blocks' sizes: kind × destination square, kind × origin square, kind ×
/// (origin board, destination board), mover type × victim type, promotion, mover type ×
/// (destination attacked, defended) after, mover type × origin (attacked, defended) before,
/// mover type × likely-losing capture, moved type × check, mover type × victim type ×
/// destination attacked after, mover type × destination attacked by a pawn after.
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

pub fn move_features(g: &Hyperchess, m: Move, out: &mut Vec<u32>) {
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
    let us = g.side;
    let them = 1 - us;
    let attacked = g.attacked_after(m, to, them) as usize;
    let defended = g.attacked_after(m, to, us) as usize;
    let by_pawn = (attacked == 1 && g.pawn_attacked_after(m, to, them)) as usize;
    let king = g.king[them as usize] as usize;
    let moved = match m.promo() {
        0 => ty,
        t => t as usize,
    };
    let check = (king < g.geo.nsq && g.attacked_after(m, king, us)) as usize;
    let saved = g.attacked(from, them) as usize * 2 + g.attacked(from, us) as usize;
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

    /// The attack tests on the board a move leaves (the policy's features read them without
    /// playing the move) answer as the attack test on the position after the move does, for
    /// every square and both colours; by pawns alone, as the pieces of the played position
    /// reduced to its pawns does. Random games on several grids, captures, promotions
    /// and en passant among the moves tried.
    #[test]
    fn attacks_after_a_move_equal_those_of_the_played_position() {
        use rand::Rng;
        let mut buf = Vec::new();
        let (mut tests, mut hits, mut pawn_hits) = (0u64, 0u64, 0u64);
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
                        // A capture or promotion when there is one, else any move.
                        let noisy: Vec<_> =
                            buf.iter().copied().filter(|&m| g.is_noisy(m)).collect();
                        let pick = if noisy.is_empty() { &buf } else { &noisy };
                        let m = pick[rng.random_range(0..pick.len())];
                        let mut after = g.clone();
                        after.play(m);
                        let mut pawns = after.clone();
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
                            pawns.counts[by][PAWN as usize] = after.counts[by][PAWN as usize];
                        }
                        for sq in 0..g.geo.nsq {
                            for by in 0..2u8 {
                                let want = after.attacked(sq, by);
                                let pawn = pawns.attacked(sq, by);
                                for (what, got, want) in [
                                    ("any piece", g.attacked_after(m, sq, by), want),
                                    ("pawns", g.pawn_attacked_after(m, sq, by), pawn),
                                ] {
                                    assert_eq!(
                                        got,
                                        want,
                                        "{}: {} after {} in {}, square {} by {}",
                                        what,
                                        b,
                                        g.format_move(m),
                                        g.to_text(),
                                        sq,
                                        by
                                    );
                                }
                                tests += 1;
                                hits += want as u64;
                                pawn_hits += pawn as u64;
                            }
                        }
                    }
                    let m = buf[rng.random_range(0..buf.len())];
                    g.play(m);
                }
            }
        }
        assert!(
            tests > 200_000 && hits > tests / 10 && pawn_hits > tests / 50,
            "{} {} {}",
            tests,
            hits,
            pawn_hits
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
