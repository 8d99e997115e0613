//! `cargo bench --bench perft_vs_shakmaty [-- DEPTH [ROUNDS]]`: hyperchess on one board (chess
//! without castling) against shakmaty, the reference Rust move generator, on the same positions
//! in the same run. Each round times quatre's perft and then shakmaty's on every position (one
//! thread each, alternating, so that a load on the machine falls on both); the counts must agree
//! (a cross-check of the move generator) and the ratio of the median times is printed.
//!
//! Positions: the start, an Italian-game middlegame, an endgame with checks, pins and en passant,
//! and a symmetric middlegame with pins on both sides, all without castling rights and with no
//! promotion within the depth searched (on one board hyperchess promotes to a guard where chess
//! has a rook: the trees differ from there).
//!
//! The default depth (6: the symmetric middlegame at 5) makes the runs last 0.1 to 10 seconds: at depth 5 they last milliseconds and their ratios spread from 1.3 to
//! 3.0 on a shared machine. (The endgame stops at 6: at 7 a pawn promotes inside the tree.)

use quatre::game::{perft, Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::time::Instant;

/// Each position with its depth relative to the one asked for.
const POSITIONS: [(&str, i32); 4] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 0),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 0 1",
        0,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        -1,
    ),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(6);
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let mut total_q = 0.0;
    let mut total_s = 0.0;
    let mut log_ratio = 0.0;
    println!("perft, one thread, {} rounds (median time)", rounds);
    for (fen, dd) in POSITIONS {
        // Shallower on the wide positions and deeper on the narrow endgame, so each takes a
        // comparable time.
        let d = (depth as i32 + dd).max(1) as u32;
        let q = Hyperchess::from_text(fen, &opts).expect("quatre reads the position");
        let s: Chess = fen
            .parse::<Fen>()
            .expect("shakmaty reads the position")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let (mut tq, mut ts) = (Vec::new(), Vec::new());
        let mut counts = (0, 0);
        for _ in 0..rounds {
            let t = Instant::now();
            counts.0 = perft(&q, d);
            tq.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            counts.1 = shakmaty::perft(&s, d);
            ts.push(t.elapsed().as_secs_f64());
        }
        if counts.0 != counts.1 {
            first_difference(&q, &s, d, String::new());
        }
        assert_eq!(
            counts.0, counts.1,
            "perft {} of {}: quatre and shakmaty disagree",
            d, fen
        );
        let (mq, ms) = (median(tq), median(ts));
        total_q += mq;
        total_s += ms;
        log_ratio += (ms / mq).ln();
        println!(
            "{:<72} depth {} leaves {:>10}  quatre {:>6.1} M/s  shakmaty {:>6.1} M/s  ratio {:.3}",
            fen,
            d,
            counts.0,
            counts.0 as f64 / mq / 1e6,
            counts.1 as f64 / ms / 1e6,
            ms / mq
        );
    }
    println!(
        "all positions: quatre/shakmaty speed ratio {:.3} (time shakmaty / time quatre)",
        total_s / total_q
    );
    println!(
        "geometric mean of the ratios over {} positions: {:.3}",
        POSITIONS.len(),
        (log_ratio / POSITIONS.len() as f64).exp()
    );
}

/// Descends into the first root move whose counts differ and prints the line to a position
/// where the two move lists differ.
fn first_difference(q: &Hyperchess, s: &Chess, d: u32, line: String) {
    let mut qm = Vec::new();
    q.legal_moves(&mut qm);
    let mut qs: Vec<(String, Hyperchess)> = qm
        .iter()
        .map(|&m| {
            let mut c = q.clone();
            c.play(m);
            (q.format_move(m), c)
        })
        .collect();
    qs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut ss: Vec<(String, Chess)> = s
        .legal_moves()
        .iter()
        .map(|m| {
            let mut c = s.clone();
            c.play_unchecked(m);
            (m.to_uci(CastlingMode::Standard).to_string(), c)
        })
        .collect();
    ss.sort_by(|a, b| a.0.cmp(&b.0));
    let names = |v: &[String]| v.join(" ");
    let qn: Vec<String> = qs.iter().map(|x| x.0.clone()).collect();
    let sn: Vec<String> = ss.iter().map(|x| x.0.clone()).collect();
    if qn != sn || d <= 1 {
        println!(
            "after [{}]: quatre {}\n  shakmaty {}",
            line,
            names(&qn),
            names(&sn)
        );
        return;
    }
    for ((m, qc), (_, sc)) in qs.iter().zip(&ss) {
        if perft(qc, d - 1) != shakmaty::perft(sc, d - 1) {
            return first_difference(qc, sc, d - 1, format!("{} {}", line, m));
        }
    }
}
