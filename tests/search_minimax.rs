//! Alpha-beta and Best-Reply Search against plain references written here: with
//! `SearchParams::exact` (no pruning that can change a value) a search of depth d must give
//! exactly the value of plain minimax (for three seats, plain best-reply search) on the same
//! leaves: the same quiescence, evaluation and won/lost scores. Small positions of every game of
//! perfect information, depths 1 to 3. Also: every game's evaluation stays below the won score.

use quatre::game::{perft, rng_from_seed, Game, RuleOptions, Seat, Status};
use quatre::games::hyperchess::Hyperchess;
use quatre::games::rithmomachia::Rithmomachia;
use quatre::games::tesseract::Tesseract;
use quatre::games::tesseris::Tesseris;
use quatre::games::threechess::Threechess;
use quatre::search::alphabeta::{MAX_PLY, QS_MAX, QS_WIDTH};
use quatre::search::brs::{MAX_PLY as BRS_MAX_PLY, QS_MAX as QS_LAYERS};
use quatre::search::deepening::{bounded_eval, score_of, terminal_score, EVAL_LIMIT, MATE_BOUND};
use quatre::search::ordering::quiescence_order;
use quatre::search::{self, Algorithm, Context, Control, Limits, SearchParams};
use rand::Rng;
use std::sync::atomic::AtomicBool;

/// The exact search's root score at `depth`.
fn searched<G: Game>(g: &G, depth: u32) -> search::Score {
    let params = SearchParams {
        algorithm: Algorithm::AlphaBeta,
        threads: 1,
        hash_mb: 4,
        exact: true,
        // The reference is the hand evaluation's minimax (`Eval auto` would use hyperchess
        // 3x3's net).
        eval: quatre::search::params::EvalChoice::Hand,
        ..SearchParams::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let ctx = Context::new(&params, &limits, Control::new(&stop), &|_| {}, g.to_move());
    let o = search::search(g, &ctx);
    o.report.expect("a completed search").lines[0].score
}

/// The child `c` of a node valued for `seat`, valued for `seat` by `value` (which values a
/// position for its own seat): negated when the other seat moves there (a finished child is
/// valued for the other seat).
fn child<G: Game>(c: &G, seat: Seat, value: impl FnOnce(&G, Seat) -> i32) -> i32 {
    let own = if c.status().is_over() {
        1 - seat
    } else {
        c.to_move()
    };
    let v = value(c, own);
    if own == seat {
        v
    } else {
        -v
    }
}

/// Plain quiescence, two seats: the evaluation or the best of the noisy moves quiescence looks
/// at (all the evasions in check), no window.
fn quiescence<G: Game>(g: &G, ply: usize, qdepth: usize, seat: Seat) -> i32 {
    if let Status::Over(o) = g.status() {
        return terminal_score(o.rewards[seat], 2, ply);
    }
    let stand = bounded_eval(g, seat, None);
    if qdepth >= QS_MAX || ply >= MAX_PLY + QS_MAX {
        return stand;
    }
    let mut moves = Vec::new();
    let (mut best, tried) = if G::HAS_CHECK && g.in_check() {
        g.legal_moves(&mut moves);
        (i32::MIN, moves.clone())
    } else {
        g.noisy_moves(&mut moves);
        let mut keyed = Vec::new();
        quiescence_order(g, &moves, &mut keyed);
        let tried = keyed.iter().take(QS_WIDTH).map(|k| k.2).collect();
        (stand, tried)
    };
    for m in tried {
        let mut c = g.clone();
        c.play(m);
        best = best.max(child(&c, seat, |c, s| {
            quiescence(c, ply + 1, qdepth + 1, s)
        }));
    }
    best
}

/// Plain minimax, two seats, valued for `seat` (the side to move).
fn minimax<G: Game>(g: &G, depth: u32, ply: usize, seat: Seat) -> i32 {
    if let Status::Over(o) = g.status() {
        return terminal_score(o.rewards[seat], 2, ply);
    }
    if depth == 0 || ply >= MAX_PLY {
        return quiescence(g, ply, 0, seat);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = g.clone();
            c.play(m);
            child(&c, seat, |c, s| minimax(c, depth - 1, ply + 1, s))
        })
        .max()
        .expect("an ongoing position has a move")
}

/// Plain Best-Reply Search (BRS+) for `root` on positions with more seats, as brs.rs defines
/// it: the root player's nodes maximise; between two of its turns one opponent plays each of its
/// moves and the others their default move (highest `move_priority`, first generated).
struct Brs {
    root: Seat,
}

impl Brs {
    fn value<G: Game>(&self, g: &G, depth: i32, ply: usize) -> i32 {
        if let Status::Over(o) = g.status() {
            return terminal_score(o.rewards[self.root], g.players(), ply);
        }
        if g.to_move() == self.root {
            self.max_node(g, depth, ply)
        } else {
            self.min_node(g, depth, ply)
        }
    }

    fn max_node<G: Game>(&self, g: &G, depth: i32, ply: usize) -> i32 {
        let qs = depth <= 0;
        let mut best = i32::MIN;
        if qs || ply >= BRS_MAX_PLY {
            best = bounded_eval(g, self.root, None);
            if depth <= -QS_LAYERS || ply >= BRS_MAX_PLY {
                return best;
            }
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if qs {
            moves.retain(|&m| g.is_noisy(m));
        }
        for m in moves {
            let mut c = g.clone();
            c.play(m);
            best = best.max(self.value(&c, depth - 1, ply + 1));
        }
        best
    }

    fn min_node<G: Game>(&self, g: &G, depth: i32, ply: usize) -> i32 {
        let mut stand = i32::MAX;
        if depth <= 0 || ply >= BRS_MAX_PLY {
            stand = bounded_eval(g, self.root, None);
            if depth <= -QS_LAYERS || ply >= BRS_MAX_PLY {
                return stand;
            }
        }
        self.layer(g, depth, ply, false, 0).min(stand)
    }

    fn default_move<G: Game>(g: &G) -> Option<G::Move> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut best: Option<(i32, G::Move)> = None;
        for m in moves {
            let p = g.move_priority(m);
            if best.is_none_or(|(bp, _)| p > bp) {
                best = Some((p, m));
            }
        }
        best.map(|b| b.1)
    }

    fn layer<G: Game>(&self, g: &G, depth: i32, ply: usize, branched: bool, turn: usize) -> i32 {
        if turn > g.players() {
            return bounded_eval(g, self.root, None);
        }
        if branched {
            let Some(d) = Self::default_move(g) else {
                return bounded_eval(g, self.root, None);
            };
            let mut c = g.clone();
            c.play(d);
            return self.after(&c, depth, ply, turn);
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if depth <= 0 {
            moves.retain(|&m| g.is_noisy(m));
        }
        let mut best = i32::MAX;
        for m in moves {
            let mut c = g.clone();
            c.play(m);
            best = best.min(self.after(&c, depth, ply, turn));
        }
        // Or this opponent plays its default move and a later one branches.
        if let Some(d) = Self::default_move(g) {
            let mut c = g.clone();
            c.play(d);
            if !c.status().is_over() && c.to_move() != self.root {
                best = best.min(self.layer(&c, depth, ply, false, turn + 1));
            }
        }
        best
    }

    fn after<G: Game>(&self, c: &G, depth: i32, ply: usize, turn: usize) -> i32 {
        if c.status().is_over() || c.to_move() == self.root {
            self.value(c, depth - 1, ply + 1)
        } else {
            self.layer(c, depth, ply, true, turn + 1)
        }
    }
}

/// The deepest depth up to `max` whose move tree stays under `leaves` (the references search
/// every move).
fn affordable<G: Game>(g: &G, max: u32, leaves: u64) -> u32 {
    (1..=max)
        .take_while(|&d| d == 1 || perft(g, d) <= leaves)
        .last()
        .unwrap_or(1)
}

/// The start and a few positions after random plies (a fixed seed), still going.
fn positions<G: Game>(start: G, plies: &[usize]) -> Vec<G> {
    let mut v = vec![start.clone()];
    let mut rng = rng_from_seed(11);
    for &n in plies {
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..n {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
        if !g.status().is_over() {
            v.push(g);
        }
    }
    v
}

/// Every position at every affordable depth: the exact search's score is the reference's.
fn agrees_with_minimax<G: Game>(start: G, plies: &[usize], max_depth: u32, leaves: u64) {
    for g in positions(start, plies) {
        for d in 1..=affordable(&g, max_depth, leaves) {
            let want = if g.players() == 2 {
                minimax(&g, d, 0, g.to_move())
            } else {
                Brs { root: g.to_move() }.value(&g, d as i32, 0)
            };
            assert_eq!(
                searched(&g, d),
                score_of(want),
                "{} depth {}: {}",
                G::NAME,
                d,
                g.to_text()
            );
        }
    }
}

#[test]
fn alphabeta_is_minimax_on_hyperchess() {
    let one = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    // Endgames with checks and captures (1x1), and the 3x3 start and a middlegame at depth 1-2.
    for fen in [
        "4k3/8/8/3q4/8/8/n2R4/4K3 w - - 0 1",
        "5r1k/6pp/7N/8/8/1Q6/8/6K1 w - - 0 1",
        "r3k2r/ppp2ppp/2n5/3qp3/3P4/2N2N2/PPP2PPP/R2QK2R w - - 0 1",
    ] {
        let g = Hyperchess::from_text(fen, &one).unwrap();
        agrees_with_minimax(g, &[3, 9], 3, 40_000);
    }
    let start = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    agrees_with_minimax(start, &[30], 2, 40_000);
}

#[test]
fn alphabeta_is_minimax_on_rithmomachia() {
    let start = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
    agrees_with_minimax(start, &[40, 120], 3, 40_000);
}

#[test]
fn alphabeta_is_minimax_on_tesseract() {
    let start = Tesseract::start(&RuleOptions::of::<Tesseract>()).unwrap();
    agrees_with_minimax(start, &[14, 30, 60], 3, 40_000);
}

#[test]
fn brs_is_plain_best_reply_search_on_threechess() {
    let start = Threechess::start(&RuleOptions::of::<Threechess>()).unwrap();
    // (Plain best-reply search of a middle game at depth 2 takes half a minute: depth 1 there.)
    agrees_with_minimax(start.clone(), &[], 2, 2_000);
    agrees_with_minimax(start, &[12, 60], 1, 2_000);
}

/// Evaluations stay below the won score (by far), so that a won position outranks any lead.
fn evaluations_are_bounded<G: Game>(start: G, games: u64) {
    let mut most = 0;
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..300 {
            for seat in 0..g.players() {
                let e = g.evaluate(seat);
                most = most.max(e.unsigned_abs());
                assert!(
                    e.abs() <= EVAL_LIMIT && e.abs() < MATE_BOUND,
                    "{} evaluates {} for seat {}: {}",
                    G::NAME,
                    e,
                    seat,
                    g.to_text()
                );
            }
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(
        most > 0,
        "{} never evaluated a position as anything",
        G::NAME
    );
}

#[test]
fn every_games_evaluation_stays_below_the_won_score() {
    evaluations_are_bounded(
        Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap(),
        4,
    );
    evaluations_are_bounded(
        Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap(),
        4,
    );
    evaluations_are_bounded(
        Tesseract::start(&RuleOptions::of::<Tesseract>()).unwrap(),
        4,
    );
    evaluations_are_bounded(
        Threechess::start(&RuleOptions::of::<Threechess>()).unwrap(),
        4,
    );
    let four = RuleOptions::of::<Tesseris>().with("Players", "4");
    for opts in [RuleOptions::of::<Tesseris>(), four] {
        evaluations_are_bounded(Tesseris::start_with_seed(&opts, 3).unwrap(), 4);
    }
}
