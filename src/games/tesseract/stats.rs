//! What each side's moves can do in a position — how many moves of each class, what they can
//! take — counted in one pass over its moves for both the hand evaluation (mobility, attacks on
//! the Tesseract, the best capture on offer) and the learned features (version 3's captures and
//! move counts). A residual net's evaluation asks for both at every node, the features first or
//! the hand evaluation first (lazy evaluation), so each thread keeps the last position's counts
//! and the second ask is free: generating both sides' moves is most of either's cost.

use super::*;
use std::cell::Cell;

/// One side's moves in a position.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub(crate) struct MoveStats {
    /// Moves by the mover's class: the Tesseract, the other men, the sliders.
    pub moves: [u16; 3],
    /// Once play has started: moves that would take the enemy Tesseract.
    pub t_attacks: i32,
    /// Once play has started: the most one move takes in enemy men other than the Tesseract
    /// ([`super::eval::PIECE_VALUE`]).
    pub best_capture: i32,
    /// Once play has started: the squares of the enemy men (the Tesseract included) some move
    /// takes, each once, the first eight found.
    pub taken: [u8; 8],
    pub n_taken: u8,
}

impl MoveStats {
    pub fn taken(&self) -> &[u8] {
        &self.taken[..self.n_taken as usize]
    }
}

thread_local! {
    /// This thread's last position (its zobrist key, which covers the board, the crosses, the
    /// reserves, the setup step and the side to move) and its counts.
    static LAST: Cell<Option<(u64, [MoveStats; 2])>> = const { Cell::new(None) };
}

/// Both sides' [`MoveStats`] in `g` (White's first), from this thread's last position when it
/// is `g`'s.
pub(crate) fn move_stats(g: &Tesseract) -> [MoveStats; 2] {
    LAST.with(|last| match last.get() {
        Some((key, stats)) if key == g.hash => stats,
        _ => {
            let stats = [count(g, 0), count(g, 1)];
            last.set(Some((g.hash, stats)));
            stats
        }
    })
}

/// [`MoveStats`] of `side` in `g`, counted afresh.
pub(crate) fn count(g: &Tesseract, side: usize) -> MoveStats {
    let mut s = MoveStats::default();
    let play = g.in_play();
    let et = g.tpos[1 - side];
    g.gen_pieces(side, &mut |m: Move, cap: bool| {
        let k = g.board[m.from as usize] & KM;
        s.moves[if k == K_T {
            0
        } else if is_man(k) {
            1
        } else {
            2
        }] += 1;
        if cap && play {
            let (caps, n) = g.captured_squares(m);
            let mut v = 0;
            for &q in &caps[..n] {
                if q == et {
                    s.t_attacks += 1;
                } else {
                    v += super::eval::PIECE_VALUE[(g.board[q as usize] & KM) as usize];
                }
                let n_taken = s.n_taken as usize;
                if n_taken < s.taken.len() && !s.taken[..n_taken].contains(&q) {
                    s.taken[n_taken] = q;
                    s.n_taken += 1;
                }
            }
            s.best_capture = s.best_capture.max(v);
        }
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleOptions};
    use rand::{Rng, SeedableRng};

    /// The kept counts are those of the position asked about: along random games, asking for
    /// each position, its parent again and each position a second time gives the counts made
    /// afresh.
    #[test]
    fn kept_counts_are_the_positions_own() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let opts = RuleOptions::of::<Tesseract>();
        let mut moves = Vec::new();
        let mut asked = 0;
        for _ in 0..40 {
            let mut g = Tesseract::start(&opts).unwrap();
            let mut parent = g.clone();
            while !g.status().is_over() {
                for p in [&g, &parent, &g, &g] {
                    assert_eq!(move_stats(p), [count(p, 0), count(p, 1)]);
                    asked += 1;
                }
                moves.clear();
                g.legal_moves(&mut moves);
                parent = g.clone();
                g.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(asked > 10_000, "{asked}");
    }
}
