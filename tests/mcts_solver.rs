//! MCTS-solver: a move after which the opponent wins on the spot is a proven loss, and MCTS does
//! not play it. Node limits and fixed seeds, one thread: independent of the machine's speed.

use quatre::game::Status;
use quatre::search::{Algorithm, Limits, SearchParams};
use std::sync::atomic::AtomicBool;

/// Tesseract, eighteen plies in, from an arena game (MCTS against alpha-beta, 100 ms a move)
/// where MCTS, White to move, played C@h15 and Black's star took its Tesseract (d15b13m2). Plain
/// UCT at 10,000 playouts hangs the Tesseract here with each of the seeds below (l2j2j13, C@f15,
/// C@h15): the many drops hide the one capture that ends the game.
const START: &str = "w setup:0 0 - - TSSPRCLLsssssXX TSSPRCLLsssssXX";
const MOVES: &str = "T@l3 T@g14 S@o3 P@n13 P@l2 S@g13 s@k3h s@h13v s@n2v s@o14v X@m4 X@n6 X@l12 \
                     X@g11 R@i13 g14g15 S@e11 S@d15";

#[test]
fn mcts_does_not_hang_its_tesseract() {
    let entry = quatre::games::find("tesseract").unwrap();
    let mut g = entry
        .from_text(START, &entry.default_options())
        .expect("the position reads");
    for m in MOVES.split_whitespace() {
        g.play_text(m).expect("a legal move");
    }
    let stop = AtomicBool::new(false);
    for seed in 1..=6 {
        let params = SearchParams {
            threads: 1,
            algorithm: Algorithm::Mcts,
            seed,
            ..SearchParams::default()
        };
        let limits = Limits {
            nodes: Some(10_000),
            ..Default::default()
        };
        let best = g
            .search(&params, &limits, &stop, &|_| {})
            .best
            .expect("a move");
        let mut after = g.clone_box();
        after.play_text(&best).expect("a legal move");
        // Every reply of Black: none may take the Tesseract.
        for reply in after.legal_moves() {
            let mut s = after.clone_box();
            s.play_text(&reply).unwrap();
            assert!(
                !matches!(s.status(), Status::Over(o) if o.winner() == Some(1)),
                "seed {}: MCTS played {} and {} takes its Tesseract",
                seed,
                best,
                reply
            );
        }
    }
}
