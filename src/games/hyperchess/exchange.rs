//! Static exchange evaluation on one board (chess, `Hyperchess::plays_chess`): what a move wins
//! or loses on its target square if both sides then capture there, least valuable piece first,
//! each free to stop when going on would cost it (the swap algorithm; pieces behind a capturer
//! join in as it leaves, pins are not read). In the evaluation's piece values (a pawn 100).

use super::{plane, Hyperchess, Move, BISHOP, GUARD, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// Captures in one exchange at most: every piece of both sides.
const MOST: usize = 34;

/// The piece types in the order they capture, cheapest first by one board's values (P 100,
/// N 300, G 300, B 330, R 500, Q 900), the king last. A guard (a non-royal king, which
/// hyperchess's own start on one board has) takes part as any piece.
const CHEAPEST_FIRST: [u8; 7] = [PAWN, KNIGHT, GUARD, BISHOP, ROOK, QUEEN, KING];

/// The pieces of either colour that attack `s` with the squares `occ` occupied (pieces off
/// `occ` left out).
#[inline(always)]
fn attackers_to(g: &Hyperchess, s: usize, occ: u64) -> u64 {
    let bb = &g.bb[0];
    let diagonal = bb[BISHOP as usize] | bb[QUEEN as usize];
    let straight = bb[ROOK as usize] | bb[QUEEN as usize];
    // A white pawn attacks `s` from the squares a black pawn on `s` would capture on.
    ((plane::PAWN_ATT[1][s] & bb[0] | plane::PAWN_ATT[0][s] & bb[8]) & bb[PAWN as usize]
        | plane::KNIGHT[s] & bb[KNIGHT as usize]
        | plane::bishop(s, occ) & diagonal
        | plane::rook(s, occ) & straight
        | plane::KING[s] & (bb[KING as usize] | bb[GUARD as usize]))
        & occ
}

/// What `m` (legal in `g`, which plays chess) wins for the side that plays it once the
/// exchange on its target square is over: at most the captured piece (and a promotion's gain),
/// at most 0 for a quiet move, negative where the piece is lost for less.
pub fn exchange(g: &Hyperchess, m: Move) -> i32 {
    debug_assert!(g.plays_chess());
    let vals = &g.geo.values;
    let bb = &g.bb[0];
    let (from, to) = (m.from(), m.to());
    let mut occ = (bb[0] | bb[8]) & !plane::bit(from);
    let mover = (g.board[from] & 7) as usize;
    let mut swap = [0i32; MOST];
    swap[0] = match g.board[to] {
        0 if mover == PAWN as usize && to == g.ep as usize => {
            occ &= !plane::bit(super::movegen::ep_victim(to, g.side));
            vals[PAWN as usize]
        }
        0 => 0,
        victim => vals[(victim & 7) as usize],
    };
    // The piece standing on the square, to be taken next.
    let mut standing = match m.promo() {
        0 => vals[mover],
        p => {
            swap[0] += vals[p as usize] - vals[PAWN as usize];
            vals[p as usize]
        }
    };
    let sides = [bb[0], bb[8]];
    let mut side = 1 - g.side as usize;
    let mut attackers = attackers_to(g, to, occ);
    let mut n = 1;
    while n < MOST {
        let mine = attackers & sides[side];
        if mine == 0 {
            break;
        }
        let Some((t, at)) = CHEAPEST_FIRST.into_iter().find_map(|t| {
            let set = mine & bb[t as usize];
            (set != 0).then(|| (t, set & set.wrapping_neg()))
        }) else {
            break;
        };
        // A king takes only where nothing would take it back.
        if t == KING && attackers & sides[1 - side] & !at != 0 {
            break;
        }
        swap[n] = standing - swap[n - 1];
        standing = vals[t as usize];
        occ &= !at;
        attackers = attackers_to(g, to, occ);
        side ^= 1;
        n += 1;
    }
    // Back from the last capture: each side takes only where that is better for it than
    // stopping (the first move is the one asked about, so it stands).
    for i in (1..n).rev() {
        swap[i - 1] = swap[i - 1].min(-swap[i]);
    }
    swap[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn chess(fen: &str) -> Hyperchess {
        Hyperchess::from_text(fen, &super::super::chess_options()).unwrap()
    }

    #[test]
    fn exchanges_count_defenders_attackers_behind_and_the_kings() {
        for (fen, mv, want) in [
            // An undefended knight: won whole.
            ("4k3/8/8/8/3Q1n2/8/8/4K3 w - - 0 1", "d4f4", 300),
            // A pawn defended by a pawn, taken by the queen: the queen for a pawn.
            ("4k3/8/3p4/4p3/3Q4/8/8/4K3 w - - 0 1", "d4e5", 100 - 900),
            // A rook defended by a rook, taken by the queen with a rook behind it on the
            // file: rook for rook after the queen is retaken... the queen is lost for a rook.
            (
                "3rk3/8/8/3r4/8/8/3Q4/3RK3 w - - 0 1",
                "d2d5",
                500 - 900 + 500,
            ),
            // The same rook defended only by the king, two attackers: the rook won.
            ("8/8/4k3/3r4/8/8/3Q4/3RK3 w - - 0 1", "d2d5", 500),
            // Defended by the king alone against one attacker: the king retakes.
            ("8/8/4k3/3r4/8/8/8/3QK3 w - - 0 1", "d1d5", 500 - 900),
            // A pawn takes a defended knight: pawn for knight.
            ("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300 - 100),
            // A quiet move onto a square a pawn attacks: the piece lost.
            ("4k3/8/4p3/8/8/8/8/3NK3 w - - 0 1", "d1c3", 0),
            ("4k3/2p5/8/8/8/8/8/3NK3 w - - 0 1", "d1e3", 0),
            ("4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1", "c3b5", -300),
            // En passant: a pawn, the capturer then retaken by a pawn.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
            ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
            // A promotion on an undefended square: the queen's gain.
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 800),
            // A guard defends as a king does (without being royal): the queen lost for a
            // knight; and it takes as any piece.
            ("4k3/8/4g3/3n4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 300 - 900),
            ("4k3/8/8/3n4/4G3/8/8/4K3 w - - 0 1", "e4d5", 300),
        ] {
            let g = chess(fen);
            let m = g.parse_move(mv).unwrap();
            assert_eq!(exchange(&g, m), want, "{} in {}", mv, fen);
        }
    }

    /// Over random games: never more than the move captures and promotes; a capture by a piece
    /// no dearer than its victim never loses; a quiet move never wins.
    #[test]
    fn exchanges_are_bounded_by_what_the_move_takes() {
        let mut rng = crate::game::rng_from_seed(9);
        let mut buf = Vec::new();
        let opts = super::super::chess_options();
        for _ in 0..60 {
            let mut g = Hyperchess::start(&opts).unwrap();
            for _ in 0..200 {
                if !matches!(g.status(), crate::game::Status::Ongoing) {
                    break;
                }
                g.legal_moves(&mut buf);
                for &m in &buf {
                    let (gain, _) = super::super::eval::noisy_estimate(&g, m);
                    let e = exchange(&g, m);
                    assert!(e <= gain, "{} in {}", g.format_move(m), g.to_text());
                    let mover = g.geo.values[(g.board[m.from()] & 7) as usize];
                    if gain > 0 && mover <= gain && m.promo() == 0 {
                        assert!(e >= 0, "{} in {}", g.format_move(m), g.to_text());
                    }
                }
                let m = g.random_move(&mut rng, &mut buf).unwrap();
                g.play(m);
            }
        }
    }
}
