//! Alpha-beta and the clock, through the library (no protocol watchdog in between, as for the
//! arena's built-in players).

use quatre::search::{Algorithm, Limits, SearchParams};
use std::sync::atomic::AtomicBool;

/// A 3x3 hyperchess position full of captures on offer (120 random plies from the start, seed 1):
/// its depth-1 iteration alone takes 63,567 nodes of quiescence. (The middlegame of an arena
/// game used here before, where the built-in alpha-beta overran a 100 ms movetime twofold, took
/// 32,785 until quiescence learnt to skip captures that likely lose material; it now takes
/// 1,900.)
const BUSY: &str = "r1bggbnr/pppppppp/3N4/7N/8/8/PPPPPPPP/BRB1GB1R|rn1ggb1r/pp1bpp1p/2np1n1b/2p3p1/2PP4/6N1/P3PPPP/1RBGnB1R|rnbgg1nr/p3p1p1/1p6/2pp1p1p/8/8/PPP1PPPP/1R1GGB1R|r1bggr2/p1bppbpp/1p3p2/2p5/4N3/1N5P/PPPPPGP1/R1BG1B1R|rnbgkb1r/ppp1pp1p/8/3p2pP/3P4/4PN1R/PPP2PP1/RNBGKn2|r1bgg1nr/p1p2pp1/n2p4/1p5p/P1PPp3/3N2PP/1P2PP2/RNBGGBNR|r1ngg2r/pppppb1p/6pn/5p2/8/N2N4/PPPPPPPP/R1BGGB1R|rnbgg1nr/pppppppp/8/5N2/4P3/5P1P/PPPPG1P1/RNB2BNR|r1bggbnr/pppppppp/4b3/8/2PN4/4P1P1/PP1P2PP/RNBGGB1R w - - 0 61";

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
        full.nodes > 20_000,
        "the position no longer makes a long first iteration ({} nodes)",
        full.nodes
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
