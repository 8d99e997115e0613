//! Alpha-beta and the clock, through the library (no protocol watchdog in between, as for the
//! arena's built-in players).

use quatre::search::{Algorithm, Limits, SearchParams};
use std::sync::atomic::AtomicBool;

/// A 3x3 hyperchess middlegame full of captures, from an arena game where the built-in
/// alpha-beta overran a 100 ms movetime twofold: its depth-1 iteration alone takes 32,785 nodes
/// (quiescence).
const BUSY: &str = "rn1ggb1r/ppp1pppp/5n2/3p1b2/5n2/P7/1PPPPPPP/R1BGGBNR|r1bggbnr/pppppppp/8/8/3np3/8/PPPP1PPP/RNBGGBNR|r1bggb1r/pppppppp/2n2n2/8/8/6P1/PPPPPP1P/RNBGGBNR|rnbggbnr/pppppppp/8/8/P7/1NP3P1/1PBPPP1P/R1BGGBNR|r1b1k2r/ppppgppp/8/2n5/3n4/2N5/PPPPPPPP/RB1GKB1R|r1bggbnr/pppppppp/2n5/8/8/3PP3/PPP2PPP/R2GGBNR|rn1ggb1r/ppp1pppp/3p4/1N6/6P1/5P2/PPPPP2P/RNBGGBNR|rnbggbnr/pppppppp/8/8/8/1P3P2/PBPPP1PP/RN1GGBNR|rnbggb1r/pppppppp/8/8/6n1/4P3/PPPP1P1P/R1BGGBNR b - - 0 28";

/// With the clock already out (`movetime 0`), the first iteration ends once a root move is
/// searched, instead of running to its end past the clock; the move is legal. Node counts, not
/// times: independent of the machine's speed.
#[test]
fn an_expired_clock_ends_a_long_first_iteration_after_one_root_move() {
    let entry = quatre::games::find("hyperchess").unwrap();
    let g = entry
        .from_text(BUSY, &entry.default_options())
        .expect("the position reads");
    let params = SearchParams {
        threads: 1,
        algorithm: Algorithm::AlphaBeta,
        move_overhead_ms: 0,
        ..SearchParams::default()
    };
    let stop = AtomicBool::new(false);
    let full = g.search(
        &params,
        &Limits {
            depth: Some(1),
            ..Default::default()
        },
        &stop,
        &|_| {},
    );
    let cut = g.search(
        &params,
        &Limits {
            movetime: Some(0),
            ..Default::default()
        },
        &stop,
        &|_| {},
    );
    assert!(
        cut.nodes * 2 < full.nodes,
        "movetime 0 searched {} nodes, the whole first iteration {}",
        cut.nodes,
        full.nodes
    );
    let mv = cut.best.expect("a move");
    assert!(g.legal_moves().contains(&mv), "{} is not legal", mv);
}
