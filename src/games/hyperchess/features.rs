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

/// The learned policy's move features (`Game::move_features`), version 1. A move is described
/// by the mover's colour and type with its destination and its origin on their boards, the pair
/// of boards it goes between (the grid dimensions it crosses), what it captures, what it
/// promotes to, and whether the opponent attacks its destination and its origin (a piece put
/// en prise, a piece saved) and the game's own flag for a capture likely to lose material.
pub fn move_feature_set(g: &Hyperchess) -> String {
    format!("hyperchess-moves-{}x{}/1", g.geo.cols, g.geo.rows)
}

/// The move feature blocks' offsets: kind × destination square, kind × origin square, kind ×
/// (origin board, destination board), mover type × victim type, promotion, mover type ×
/// (destination attacked, destination defended), mover type × origin attacked, mover type ×
/// likely-losing capture; then the count.
fn move_blocks(nb: usize) -> [usize; 9] {
    let sizes = [
        KINDS * 64,
        KINDS * 64,
        KINDS * nb * nb,
        8 * 8,
        8,
        8 * 4,
        8 * 2,
        8 * 2,
    ];
    let mut b = [0; 9];
    for (i, s) in sizes.iter().enumerate() {
        b[i + 1] = b[i] + s;
    }
    b
}

pub fn move_feature_count(g: &Hyperchess) -> usize {
    move_blocks(g.geo.nb)[8]
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
    let them = 1 - g.side;
    let attacked = g.attacked(to, them) as usize;
    let defended = g.attacked(to, g.side) as usize;
    let (_, losing) = super::eval::noisy_estimate(g, m);
    for f in [
        b[0] + kind * 64 + to % 64,
        b[1] + kind * 64 + from % 64,
        b[2] + (kind * g.geo.nb + from / 64) * g.geo.nb + to / 64,
        b[3] + ty * 8 + victim,
        b[4] + m.promo() as usize,
        b[5] + ty * 4 + attacked * 2 + defended,
        b[6] + ty * 2 + g.attacked(from, them) as usize,
        b[7] + ty * 2 + losing as usize,
    ] {
        out.push(f as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleOptions};

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
