//! `quatre bench`: a fixed set of positions and limits per game, printing what each costs.
//! With one thread every node count is deterministic (a signature to compare builds with).

use crate::games::{self, AnyGame, Entry};
use crate::learn::net::{FloatNet, Net, BASE_HAND};
use crate::search::{Algorithm, Limits, SearchParams};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// One measured item.
pub struct Item {
    pub game: &'static str,
    pub what: String,
    pub nodes: u64,
    pub micros: u64,
}

impl Item {
    pub fn per_second(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.micros.max(1) as u128) as u64
    }
    /// The item's line: the figures in columns, then what was measured (whose length varies:
    /// written first, the longest labels pushed the figures out of line).
    pub fn line(&self) -> String {
        format!(
            "{:<13} {:>12} nodes {:>8} ms {:>12} /s  {}",
            self.game,
            self.nodes,
            self.micros / 1000,
            self.per_second(),
            self.what
        )
    }
}

/// Runs `f` on a thread of its own and times it. A search on one thread runs on the caller's,
/// and the evaluation tables kept per thread (hyperchess's recent evaluations, chess's) would
/// carry one item's positions into the next: an item that searches the tree of the one before
/// (the policy's, the nets') found every evaluation already made, and looked cheaper than it is.
fn timed(game: &'static str, what: String, f: impl FnOnce() -> u64 + Send) -> Item {
    let t0 = Instant::now();
    let nodes = std::thread::scope(|s| {
        std::thread::Builder::new()
            // (As a process's main thread: deep searches recurse.)
            .stack_size(8 << 20)
            .spawn_scoped(s, f)
            .expect("a thread for the item")
            .join()
            .expect("the item's thread")
    });
    Item {
        game,
        what,
        nodes,
        micros: t0.elapsed().as_micros() as u64,
    }
}

/// The moves from hyperchess's start to the bench's middlegame
/// (docs/positions/hyperchess-middlegame.txt, whose `#` lines are comments).
pub(crate) fn hyperchess_middlegame() -> impl Iterator<Item = &'static str> {
    include_str!("../docs/positions/hyperchess-middlegame.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
}

/// Positions benched for a game: its start, plus any extra texts the game lists here.
fn positions(e: &Entry) -> Vec<(String, Box<dyn AnyGame>)> {
    let mut v = Vec::new();
    let opts = e.default_options();
    if let Ok(g) = e.start(&opts, Some(1)) {
        v.push(("start".to_string(), g));
    }
    if e.name == "hyperchess" {
        // The crowded middlegame where MCTS spent most of its time in the evaluation (ply 100
        // of a match game); searched as the start is.
        let moves = hyperchess_middlegame();
        if let Ok(mut g) = e.start(&opts, Some(1)) {
            if moves.map(|m| g.play_text(m)).all(|r| r.is_ok()) {
                v.push(("middlegame".to_string(), g));
            }
        }
        let o1 = opts.clone().with("Boards", "1x1");
        if let Ok(g) = e.from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", &o1) {
            v.push(("1x1 start".to_string(), g));
        }
        // Chess (one board, chess's promotions), which has its own evaluation: a quiet
        // middlegame of the Italian game.
        let chess = o1.with("Promotions", "chess");
        let italian = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7";
        if let Ok(g) = e.from_text(italian, &chess) {
            v.push((CHESS.to_string(), g));
        }
    }
    if e.name == "threechess" {
        // A middle game with Black a ghost (its pawns racing to file h to recover the king).
        let t = "bR,2,rP,1,rB,1,rR/2,bP,2,rP,1,rK/1,bN,bP,2,rP,rN,rQ/bR,bB,2,bP,rP,rB,rR/bP,2,wP,1,rP,rP,rP/2,wN,5/wP,wP,1,wP,1,wP,wP,1/wR,1,wB,wQ,wK,wB,wR,1 w aga";
        if let Ok(g) = e.from_text(t, &opts) {
            v.push(("ghost middle game".to_string(), g));
        }
    }
    v
}

/// The label of the bench's chess position (hyperchess `Boards=1x1 Promotions=chess`).
const CHESS: &str = "chess 1x1";

/// Perft depth for a bench: the deepest whose estimated count stays under `budget` leaves.
fn perft_depth(g: &dyn AnyGame, budget: u64) -> u32 {
    let mut d = 1;
    let mut prev = 1u64;
    loop {
        let n = g.perft(d);
        let branching = (n / prev.max(1)).max(1);
        if n == 0 || n.saturating_mul(branching) > budget || d >= 8 {
            return d;
        }
        prev = n;
        d += 1;
    }
}

/// The hidden units of the policy whose cost the bench measures (as the policies trained).
const COST_POLICY_HIDDEN: usize = 16;

/// What a learned move policy costs MCTS, where the game's MCTS orders its moves by hand by
/// default and captures and the like still widen first with a policy (hyperchess): `params`
/// with `Policy net` and a policy of [`COST_POLICY_HIDDEN`] hidden units and zero weights. Its
/// priors are all alike, so the quiet moves (whose `move_priority` is 0) widen in the order they
/// are generated, as by hand, and with `PolicyWeight 0` the search walks the hand order's very
/// tree, computing every feature, hidden sum and prior as for a trained policy: the time it takes
/// more is what the priors cost. None for other games.
fn cost_policy_params(g: &dyn AnyGame, params: &SearchParams) -> Option<SearchParams> {
    use crate::learn::policy::{weights_len, Policy, PolicyHeader};
    use crate::search::params::EvalChoice;
    let set = g.move_feature_set()?;
    let tuning = crate::search::Tuning::for_game(g.name());
    if g.hidden_information() || !tuning.policy_noisy_first {
        return None;
    }
    let inputs = g.move_feature_count();
    let policy = Policy {
        header: PolicyHeader {
            game: g.name().to_string(),
            features: set,
            inputs: inputs as u32,
            hidden: COST_POLICY_HIDDEN as u32,
            note: "zero weights: quatre bench's measure of a policy's cost".into(),
        },
        weights: vec![0.0; weights_len(inputs, COST_POLICY_HIDDEN)],
    };
    Some(SearchParams {
        policy: EvalChoice::Net,
        policy_file: Some(Arc::new(policy)),
        policy_weight: Some(0),
        ..params.clone()
    })
}

/// Alpha-beta nodes the evaluation items search: the same tree size with either evaluation.
const EVAL_NODES: u64 = 300_000;

/// What a learned evaluation costs a search, on a game with input features and perfect
/// information: alpha-beta's
/// nodes/s for `limits` ([`EVAL_NODES`] nodes in `run`) with the hand evaluation, then with residual nets of 32 and
/// 256 hidden units (the hand evaluation plus the net's output), then with the shipped net
/// where the game and rule set have one. The first nets are made here with random input
/// weights and output weights that add exactly nothing, so the search walks the hand
/// evaluation's very tree (the same node counts) and the time it takes more is what inference
/// costs, every feature, hidden sum and output computed as for a trained net: two hidden units
/// that never fire carry large output weights, so that the output's proven range is wide and
/// the searches' lazy evaluation (`deepening::window_eval`) never leaves the net out. They
/// measure cost, not strength. The shipped net searches its own tree, lazily where its range
/// allows: its nodes/s is what `Eval auto` costs.
fn eval_items(
    game: &'static str,
    label: &str,
    g: &dyn AnyGame,
    threads: usize,
    limits: &Limits,
) -> Vec<Item> {
    // Alpha-beta needs perfect information: tesseris (ISMCTS) has none of these items.
    let Some(set) = g.feature_set().filter(|_| !g.hidden_information()) else {
        return Vec::new();
    };
    let stop = AtomicBool::new(false);
    let sink = |_: crate::search::Event| {};
    let size = match (limits.nodes, limits.depth) {
        (Some(n), _) => format!("{} nodes", n),
        (None, Some(d)) => format!("depth {}", d),
        _ => "to its limit".to_string(),
    };
    let mut params = SearchParams {
        threads,
        seed: 1,
        hash_mb: 64,
        algorithm: Algorithm::AlphaBeta,
        eval: crate::search::params::EvalChoice::Hand,
        ..Default::default()
    };
    // With three seats the same setting is Best-Reply Search, on one thread whatever is asked.
    let chosen = crate::search::Chosen::of(Algorithm::AlphaBeta, g.players(), false);
    let name = chosen.name();
    let ran_on = chosen.threads(threads);
    let what = |eval: &str| {
        format!(
            "{} {} {}, Eval={}, {} thread(s)",
            name, label, size, eval, ran_on
        )
    };
    let mut items = vec![timed(game, what("hand"), || {
        g.search(&params, limits, &stop, &sink).nodes
    })];
    let active = g.features().len() as f32;
    for hidden in [32, 256] {
        let outputs = Net::outputs_for(g.players());
        let mut float = FloatNet::new(g.feature_count(), hidden, outputs, active, 1);
        float.w2.fill(0.0);
        // Units 0 and 1 never fire (no input weight, a bias far below zero): their output
        // weights widen the proven range, not the output.
        for f in 0..float.inputs {
            float.w1[f * hidden] = 0.0;
            float.w1[f * hidden + 1] = 0.0;
        }
        float.b1[0] = -1000.0;
        float.b1[1] = -1000.0;
        for o in 0..outputs {
            float.w2[o * hidden] = 1.0;
            float.w2[o * hidden + 1] = -1.0;
        }
        // Each output logit is exactly 0: any scale adds nothing, and this one puts the
        // range (± 1 logit) beyond any evaluation.
        let net = float
            .quantize(game, &set, 1e6, "random, adds 0: for quatre bench".into())
            .with_base(BASE_HAND);
        params.eval = crate::search::params::EvalChoice::Net;
        params.eval_file = Some(Arc::new(net));
        let eval = format!("hand+net h{} adding 0 (cost only)", hidden);
        items.push(timed(game, what(&eval), || {
            g.search(&params, limits, &stop, &sink).nodes
        }));
    }
    if crate::learn::builtin::net(game, &set).is_some() {
        params.eval_file = None;
        items.push(timed(game, what("net (shipped)"), || {
            g.search(&params, limits, &stop, &sink).nodes
        }));
    }
    items
}

/// Runs the bench for `game` (every game when None) with `threads` search threads.
pub fn run(
    game: Option<&str>,
    threads: usize,
    playouts: u64,
    print: &dyn Fn(&str),
) -> Result<Vec<Item>, String> {
    let entries: Vec<Entry> = match game {
        Some(g) => vec![games::resolve(Some(g))?],
        None => games::all(),
    };
    let mut items = Vec::new();
    for e in entries {
        for (label, g) in positions(&e) {
            // (The middlegame has about 400 moves a side: depth 3, not 2.)
            let budget = if label == "middlegame" {
                100_000_000
            } else {
                30_000_000
            };
            let depth = perft_depth(g.as_ref(), budget);
            let it = timed(e.name, format!("perft {} depth {}", label, depth), || {
                g.perft(depth)
            });
            print(&it.line());
            items.push(it);
            if label != "start" && label != "middlegame" && label != CHESS {
                continue;
            }
            if label == "start" {
                let it = timed(
                    e.name,
                    format!("random playouts {} (200 games)", label),
                    || g.random_playouts(200, 1000, 7),
                );
                print(&it.line());
                items.push(it);
            }
            let stop = AtomicBool::new(false);
            let sink = |_: crate::search::Event| {};
            let mut params = SearchParams {
                threads,
                seed: 1,
                hash_mb: 64,
                algorithm: Algorithm::Mcts,
                ..Default::default()
            };
            let limits = Limits {
                nodes: Some(playouts),
                ..Default::default()
            };
            let it = timed(
                e.name,
                format!(
                    "mcts {} {} playouts, {} thread(s)",
                    label, playouts, threads
                ),
                || g.search(&params, &limits, &stop, &sink).nodes,
            );
            print(&it.line());
            items.push(it);
            if let Some(with_policy) = cost_policy_params(g.as_ref(), &params) {
                let it = timed(
                    e.name,
                    format!(
                        "mcts {} {} playouts, {} thread(s), policy h{} (zero weights: the \
                         hand order's tree)",
                        label, playouts, threads, COST_POLICY_HIDDEN
                    ),
                    || g.search(&with_policy, &limits, &stop, &sink).nodes,
                );
                print(&it.line());
                items.push(it);
            }
            if !g.hidden_information() {
                // Alpha-beta for two seats; Best-Reply Search (one thread) for more.
                params.algorithm = Algorithm::AlphaBeta;
                // Depths that take a fraction of a second to a second on one thread (with the
                // pruning of 2026-11-25 the old depths 3 and 4 took a few milliseconds).
                let (name, depth) = match e.name {
                    "hyperchess" if label == "middlegame" => ("alphabeta", 5),
                    "hyperchess" if label == CHESS => ("alphabeta", 10),
                    "hyperchess" => ("alphabeta", 6),
                    "rithmomachia" => ("alphabeta", 9),
                    "threechess" => ("brs", 6),
                    _ => ("alphabeta", 7),
                };
                let limits = Limits {
                    depth: Some(depth),
                    ..Default::default()
                };
                // The threads it runs on: Best-Reply Search runs one, whatever is asked.
                let ran_on = crate::search::Chosen::of(Algorithm::AlphaBeta, g.players(), false)
                    .threads(threads);
                let it = timed(
                    e.name,
                    format!(
                        "{} {} depth {}, {} thread(s)",
                        name,
                        label,
                        limits.depth.unwrap_or(0),
                        ran_on
                    ),
                    || g.search(&params, &limits, &stop, &sink).nodes,
                );
                print(&it.line());
                items.push(it);
                if label == "start" || label == CHESS {
                    let limits = Limits {
                        nodes: Some(EVAL_NODES),
                        ..Default::default()
                    };
                    for it in eval_items(e.name, &label, g.as_ref(), threads, &limits) {
                        print(&it.line());
                        items.push(it);
                    }
                }
            }
        }
    }
    let nodes: u64 = items.iter().map(|i| i.nodes).sum();
    let micros: u64 = items.iter().map(|i| i.micros).sum();
    let rate = (nodes as u128 * 1_000_000 / micros.max(1) as u128) as u64;
    print(&format!(
        "total nodes {} time {} ms nodes/s {}",
        nodes,
        micros / 1000,
        rate
    ));
    Ok(items)
}

/// Rounds of runs of [`scaling`]: one pair swung between 1.4x and 2.4x on a shared 2-core
/// machine (docs/results.md), and the same search's rate by 1.3 times from one minute to the
/// next, so five are run and the medians of the ratios are the figures.
const SCALING_PAIRS: usize = 5;

/// MCTS's speedup with `threads` threads on each game's start, in [`SCALING_PAIRS`] rounds, as
/// medians of the rounds' ratios. A round searches `movetime` ms with 1 and with `threads`
/// threads (which first alternates), then 1 thread for as many playouts as the many threads made:
/// - at equal playouts, the speedup (1 thread's time over the many threads' for the same search):
///   a larger tree makes each playout slower (tesseract on 1 thread: 131,000 playouts/s to
///   260,000 playouts, 118,000 to 460,000), and the many threads grow the larger tree in the
///   same time, so the throughput at equal time undercounts what they gain;
/// - at equal time, the playouts/s ratio (the figure before 2026-12-06);
/// - the machine's own figure for the same work: `threads` separate 1-thread searches at once,
///   each with its own tree and nothing shared, for `movetime` ms, their playouts/s together over
///   the 1-thread search's. What the many threads lose below it is the search's (shared tree,
///   virtual loss); what this loses below `threads` is the machine's (cores that share a cache,
///   memory bandwidth, a clock that drops when both are busy, a neighbour on the host).
pub fn scaling(
    game: Option<&str>,
    threads: usize,
    movetime: u64,
    print: &dyn Fn(&str),
) -> Result<(), String> {
    let entries: Vec<Entry> = match game {
        Some(g) => vec![games::resolve(Some(g))?],
        None => games::all(),
    };
    let threads = threads.max(2);
    for e in entries {
        let g = e.start(&e.default_options(), Some(1))?;
        let stop = AtomicBool::new(false);
        let sink = |_: crate::search::Event| {};
        // (playouts, microseconds) of a search on `t` threads within `limits`.
        let run = |t: usize, limits: Limits| {
            let params = SearchParams {
                threads: t,
                seed: 1,
                hash_mb: 256,
                algorithm: Algorithm::Mcts,
                ..Default::default()
            };
            let t0 = Instant::now();
            let n = g.search(&params, &limits, &stop, &sink).nodes;
            (n, (t0.elapsed().as_micros() as u64).max(1))
        };
        let timed = Limits {
            movetime: Some(movetime),
            ..Default::default()
        };
        let rate = |(n, us): (u64, u64)| (n as u128 * 1_000_000 / us as u128) as u64;
        let (mut same, mut time, mut apart_all) = (Vec::new(), Vec::new(), Vec::new());
        // The many threads' playouts/s over the separate searches' of the same round: the
        // search's own loss, apart from what the machine takes from both.
        let mut share = Vec::new();
        for pair in 1..=SCALING_PAIRS {
            // Each takes the first place in turn, so that a drift favours neither.
            let (one, many) = if pair % 2 == 1 {
                let one = run(1, timed.clone());
                (one, run(threads, timed.clone()))
            } else {
                let many = run(threads, timed.clone());
                (run(1, timed.clone()), many)
            };
            let alone = run(
                1,
                Limits {
                    nodes: Some(many.0.max(1)),
                    ..Default::default()
                },
            );
            // (Each on its own thread; the searches' own worker is the calling thread when
            // `threads` is 1, so nothing else runs.)
            let apart: u64 = std::thread::scope(|s| {
                let runs: Vec<_> = (0..threads)
                    .map(|_| s.spawn(|| rate(run(1, timed.clone()))))
                    .collect();
                // (A search that panicked says so here, not as a round of 0 playouts.)
                runs.into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .sum()
            });
            let at_time = rate(many) as f64 / rate(one).max(1) as f64;
            let at_playouts =
                alone.1 as f64 / many.1 as f64 * many.0 as f64 / alone.0.max(1) as f64;
            let machine = apart as f64 / rate(one).max(1) as f64;
            print(&format!(
                "{:<13} mcts round {}: {} threads {} playouts/s ({} playouts); 1 thread {} \
                 playouts/s for as many: {:.2}x at equal playouts; 1 thread {} playouts/s in \
                 the same time: {:.2}x at equal time; {} separate 1-thread searches at once \
                 {} playouts/s: {:.2}x",
                e.name,
                pair,
                threads,
                rate(many),
                many.0,
                rate(alone),
                at_playouts,
                rate(one),
                at_time,
                threads,
                apart,
                machine
            ));
            same.push(at_playouts);
            time.push(at_time);
            apart_all.push(machine);
            share.push(rate(many) as f64 / apart.max(1) as f64);
        }
        // Sorts `v` and gives its middle value.
        let middle = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let median = |v: &mut Vec<f64>| {
            let mid = middle(v);
            format!(
                "{:.2}x (median of {} rounds, {:.2}x to {:.2}x)",
                mid,
                v.len(),
                v[0],
                v[v.len() - 1]
            )
        };
        print(&format!(
            "{:<13} scaling 1 -> {} threads: {} at equal playouts; {} at equal time; \
             {} separate searches at once: {}; the threads make {:.0}% of their playouts/s \
             (median)",
            e.name,
            threads,
            median(&mut same),
            median(&mut time),
            threads,
            median(&mut apart_all),
            middle(&mut share) * 100.0
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The net items search the hand evaluation's very tree (their nets add nothing): at a
    /// fixed depth, the same node count; a game without features has none.
    #[test]
    fn net_items_search_the_hand_evaluations_tree() {
        let limits = Limits {
            depth: Some(3),
            ..Default::default()
        };
        for name in ["hyperchess", "rithmomachia", "tesseract", "threechess"] {
            let e = games::resolve(Some(name)).unwrap();
            let opts = match name {
                "hyperchess" => e.default_options().with("Boards", "1x1"),
                _ => e.default_options(),
            };
            let g = e.start(&opts, Some(1)).unwrap();
            let items = eval_items(e.name, "start", g.as_ref(), 1, &limits);
            // Every game here has a shipped net (hyperchess 1x1 too).
            let shipped = true;
            assert_eq!(items.len(), 3 + shipped as usize, "{}", name);
            assert!(items[0].what.contains("Eval=hand"), "{}", items[0].what);
            assert!(items[2].what.contains("h256"), "{}", items[2].what);
            for it in &items[..3] {
                assert_eq!(it.nodes, items[0].nodes, "{}: {}", name, it.what);
            }
            if shipped {
                assert!(items[3].what.contains("net (shipped)"), "{}", items[3].what);
            }
        }
        // Chess on one board has its own evaluation and its own shipped net (for `Eval net`):
        // the cost items on the hand evaluation's tree, then that net.
        let e = games::resolve(Some("hyperchess")).unwrap();
        let chess = e
            .default_options()
            .with("Boards", "1x1")
            .with("Promotions", "chess");
        let g = e.start(&chess, Some(1)).unwrap();
        let items = eval_items(e.name, CHESS, g.as_ref(), 1, &limits);
        assert_eq!(items.len(), 4);
        for it in &items[..3] {
            assert_eq!(it.nodes, items[0].nodes, "{}", it.what);
        }
        assert!(items[3].what.contains("net (shipped)"), "{}", items[3].what);
        // Tesseris has features, but alpha-beta does not play it.
        let e = games::resolve(Some("tesseris")).unwrap();
        let g = e.start(&e.default_options(), Some(1)).unwrap();
        assert!(g.feature_set().is_some());
        assert!(eval_items(e.name, "start", g.as_ref(), 1, &limits).is_empty());
    }

    /// The bench's policy item (hyperchess: a policy of zero weights) walks the hand order's
    /// very tree, from the start (no capture: every widening computes priors), in the
    /// middlegame (captures widen first) and in chess on one board; other games have none.
    #[test]
    fn the_policy_item_searches_the_hand_orders_tree() {
        let e = games::resolve(Some("hyperchess")).unwrap();
        let stop = AtomicBool::new(false);
        let sink = |_: crate::search::Event| {};
        let params = SearchParams {
            threads: 1,
            seed: 1,
            hash_mb: 16,
            algorithm: Algorithm::Mcts,
            multipv: 3,
            ..Default::default()
        };
        let limits = Limits {
            nodes: Some(3000),
            ..Default::default()
        };
        let lines = |s: &crate::games::SearchSummary| {
            let r = s.report.as_ref().expect("a report");
            let l: Vec<_> = r
                .lines
                .iter()
                .map(|l| (l.pv.clone(), l.score, l.visits, l.reward))
                .collect();
            (s.best.clone(), s.nodes, r.depth, r.seldepth, l)
        };
        let positions = positions(&e);
        let mut seen = 0;
        for (label, g) in positions
            .iter()
            .filter(|(l, _)| l == "start" || l == "middlegame" || l == CHESS)
        {
            let with = cost_policy_params(g.as_ref(), &params).expect("hyperchess");
            assert_eq!(with.policy_file.as_ref().unwrap().header.hidden, 16);
            let hand = g.search(&params, &limits, &stop, &sink);
            let policy = g.search(&with, &limits, &stop, &sink);
            assert_eq!(lines(&hand), lines(&policy), "{label}");
            seen += 1;
        }
        assert_eq!(seen, 3);
        for name in ["threechess", "tesseract", "tesseris"] {
            let e = games::resolve(Some(name)).unwrap();
            let g = e.start(&e.default_options(), Some(1)).unwrap();
            assert!(cost_policy_params(g.as_ref(), &params).is_none(), "{name}");
        }
    }

    /// Each round's line gives both ratios, the 1 thread run for as many playouts as the
    /// threads made, and the last line both medians (the lines' shape, not the machine's speed).
    #[test]
    fn scaling_reports_equal_playouts_and_equal_time() {
        let lines = std::sync::Mutex::new(Vec::new());
        scaling(Some("tesseract"), 2, 20, &|l: &str| {
            lines.lock().unwrap().push(l.to_string())
        })
        .unwrap();
        let lines = lines.into_inner().unwrap();
        assert_eq!(lines.len(), SCALING_PAIRS + 1, "{:?}", lines);
        for l in &lines[..SCALING_PAIRS] {
            // "… 2 threads R playouts/s (N playouts); 1 thread R' playouts/s for as many: …"
            let n: u64 = l
                .split(" playouts); ")
                .next()
                .and_then(|a| a.rsplit('(').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{}", l));
            assert!(n > 0, "{}", l);
            assert!(
                l.contains("x at equal playouts") && l.contains("x at equal time"),
                "{}",
                l
            );
            // "… 2 separate 1-thread searches at once R'' playouts/s: X.XXx"
            let apart: u64 = l
                .split("searches at once ")
                .nth(1)
                .and_then(|a| a.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{}", l));
            assert!(apart > 0 && l.ends_with('x'), "{}", l);
        }
        let last = &lines[SCALING_PAIRS];
        assert!(
            last.starts_with("tesseract     scaling 1 -> 2 threads: ")
                && last.contains("rounds")
                && last.contains("at equal time; 2 separate searches at once: ")
                && last.ends_with("% of their playouts/s (median)"),
            "{}",
            last
        );
    }
}
