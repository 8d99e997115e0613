//! Search tests on a tiny known game (tic-tac-toe), so that search is checked independently of
//! the real rulesets.

use super::*;
use crate::game::{Game, OptionSpec, Outcome as GameOutcome, RuleOptions, Status};
use std::sync::atomic::AtomicBool;
use tree_game::Builder;

pub(super) mod tree_game;

#[derive(Clone, Debug)]
struct Ttt {
    cells: [u8; 9],
    to_move: usize,
    opts: RuleOptions,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Game for Ttt {
    type Move = u8;
    const NAME: &'static str = "ttt";
    fn rule_options() -> &'static [OptionSpec] {
        &[]
    }
    fn start(opts: &RuleOptions) -> Result<Self, String> {
        Ok(Ttt {
            cells: [0; 9],
            to_move: 0,
            opts: opts.clone(),
        })
    }
    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String> {
        let b = text.as_bytes();
        if b.len() != 9 {
            return Err("nine cells".into());
        }
        let mut cells = [0; 9];
        for i in 0..9 {
            cells[i] = match b[i] {
                b'x' => 1,
                b'o' => 2,
                b'.' => 0,
                _ => return Err("x, o or .".into()),
            };
        }
        let n = cells.iter().filter(|&&c| c != 0).count();
        Ok(Ttt {
            cells,
            to_move: n % 2,
            opts: opts.clone(),
        })
    }
    fn to_text(&self) -> String {
        self.cells
            .iter()
            .map(|c| ['.', 'x', 'o'][*c as usize])
            .collect()
    }
    fn display(&self) -> String {
        self.to_text()
    }
    fn options(&self) -> &RuleOptions {
        &self.opts
    }
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        self.to_move
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.status().is_over() {
            return;
        }
        out.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
    }
    fn play(&mut self, mv: u8) {
        self.cells[mv as usize] = self.to_move as u8 + 1;
        // Like rithmomachia, the winner stays "to move" once the game is over: the trait does
        // not say whose turn it is then, and searches must not depend on it.
        if !self.status().is_over() {
            self.to_move ^= 1;
        }
    }
    fn status(&self) -> Status {
        for l in LINES {
            let c = self.cells[l[0]];
            if c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]] {
                return Status::Over(GameOutcome::win(c as usize - 1, "three in a row"));
            }
        }
        if self.cells.iter().all(|&c| c != 0) {
            return Status::Over(GameOutcome::draw(2, "full board"));
        }
        Status::Ongoing
    }
    fn hash(&self) -> u64 {
        self.full_hash()
    }
    fn full_hash(&self) -> u64 {
        self.cells
            .iter()
            .enumerate()
            .fold(self.to_move as u64, |h, (i, &c)| {
                h ^ crate::zobrist::key(1, i as u64 * 3 + c as u64)
            })
    }
    fn parse_move(&self, text: &str) -> Result<u8, String> {
        text.parse().map_err(|_| "a cell 0-8".to_string())
    }
    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn move_index_count(&self) -> usize {
        9
    }
    fn move_index(&self, mv: u8) -> usize {
        (mv as usize).min(8)
    }
    fn evaluate(&self, _seat: Seat) -> i32 {
        0
    }
}

/// A search limited to `n` nodes (playouts for MCTS).
fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Default::default()
    }
}

fn run(pos: &str, params: SearchParams, limits: Limits) -> super::Outcome<u8> {
    let g = Ttt::from_text(pos, &RuleOptions::of::<Ttt>()).unwrap();
    run_on(&g, params, limits)
}

/// Searches `g` with nothing listening.
fn run_on<G: Game>(g: &G, params: SearchParams, limits: Limits) -> super::Outcome<G::Move> {
    let stop = AtomicBool::new(false);
    let sink = |_: Event| {};
    let ctx = Context::new(&params, &limits, Control::new(&stop), &sink, g.to_move());
    search(g, &ctx)
}

fn ab() -> SearchParams {
    SearchParams {
        algorithm: Algorithm::AlphaBeta,
        threads: 1,
        hash_mb: 4,
        ..Default::default()
    }
}
fn mcts() -> SearchParams {
    SearchParams {
        algorithm: Algorithm::Mcts,
        threads: 1,
        hash_mb: 4,
        ..Default::default()
    }
}

#[test]
fn alphabeta_takes_a_win_in_one() {
    // x to move (4 pieces placed): x x . / o o . / . . .
    let o = run(
        "xx.oo....",
        ab(),
        Limits {
            depth: Some(4),
            ..Default::default()
        },
    );
    assert_eq!(o.best, Some(2));
    assert!(matches!(o.report.unwrap().lines[0].score, Score::Mate(1)));
}

#[test]
fn alphabeta_sees_the_empty_board_is_a_draw() {
    let o = run(
        ".........",
        ab(),
        Limits {
            depth: Some(9),
            ..Default::default()
        },
    );
    assert_eq!(o.report.unwrap().lines[0].score, Score::Cp(0));
}

#[test]
fn alphabeta_blocks_the_only_threat() {
    // o to move: x x . / . o . / . . . → must play 2.
    let o = run(
        "xx..o....",
        ab(),
        Limits {
            depth: Some(6),
            ..Default::default()
        },
    );
    assert_eq!(o.best, Some(2));
}

/// Check extension: a depth-2 search sees the smothered mate Qg8+ Rxg8 Nf7# (chess on one
/// board), whose mating move is quiet: without the extension the mate lies a ply past the
/// horizon, where quiescence only tries captures.
#[test]
fn alphabeta_extends_checks_to_see_a_smothered_mate() {
    use crate::games::hyperchess::Hyperchess;
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let g = Hyperchess::from_text("5r1k/6pp/7N/8/8/1Q6/8/6K1 w - - 0 1", &opts).unwrap();
    let limits = Limits {
        depth: Some(2),
        ..Default::default()
    };
    let o = run_on(&g, ab(), limits);
    assert_eq!(o.best.map(|m| g.format_move(m)).as_deref(), Some("b3g8"));
    assert_eq!(o.report.unwrap().lines[0].score, Score::Mate(2));
}

#[test]
fn alphabeta_multipv_gives_distinct_lines() {
    let mut p = ab();
    p.multipv = 3;
    let o = run(
        ".........",
        p,
        Limits {
            depth: Some(4),
            ..Default::default()
        },
    );
    let lines = o.report.unwrap().lines;
    assert_eq!(lines.len(), 3);
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);
    assert_ne!(lines[1].pv[0], lines[2].pv[0]);
}

/// MultiPV lines come best first, and the best move is the first line's: a later line,
/// searched with the earlier lines' moves left out, can score above an earlier one (at depth 8
/// here the second line came out 1 cp above the first before the lines were sorted).
#[test]
fn alphabeta_multipv_lines_come_best_first() {
    use crate::games::hyperchess::Hyperchess;
    let opts = RuleOptions::of::<Hyperchess>()
        .with("Boards", "1x1")
        .with("Promotions", "chess");
    let key = |s: &Score| match *s {
        Score::Cp(c) => c as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    };
    let mut start = Hyperchess::start(&opts).unwrap();
    for m in ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "c7c5"] {
        let mv = start.parse_move(m).unwrap();
        start.play(mv);
    }
    let italian = Hyperchess::from_text(
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
        &opts,
    )
    .unwrap();
    for g in [&start, &italian] {
        for depth in 3..=8 {
            let mut p = ab();
            p.multipv = 3;
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let o = run_on(g, p, limits);
            let lines = o.report.unwrap().lines;
            assert_eq!(lines.len(), 3);
            for w in lines.windows(2) {
                assert!(
                    key(&w[0].score) >= key(&w[1].score),
                    "depth {depth}: {lines:?}"
                );
            }
            assert_eq!(
                o.best.map(|m| g.format_move(m)).as_deref(),
                Some(lines[0].pv[0].as_str())
            );
        }
    }
}

#[test]
fn mcts_takes_a_win_in_one_and_blocks() {
    let o = run("xx.oo....", mcts(), nodes(3000));
    assert_eq!(o.best, Some(2));
    let o = run("xx..o....", mcts(), nodes(5000));
    assert_eq!(o.best, Some(2));
}

#[test]
fn mcts_with_a_seed_and_one_thread_is_deterministic() {
    let mut p = mcts();
    p.seed = 42;
    p.rollout_plies = Some(9);
    let a = run("x........", p.clone(), nodes(2000));
    let b = run("x........", p, nodes(2000));
    assert_eq!(a.best, b.best);
    assert_eq!(a.nodes, b.nodes);
    let (ra, rb) = (a.report.unwrap(), b.report.unwrap());
    assert_eq!(
        (ra.depth, ra.seldepth, ra.nodes, ra.hashfull),
        (rb.depth, rb.seldepth, rb.nodes, rb.hashfull)
    );
    let view = |r: &Report| {
        r.lines
            .iter()
            .map(|l| (l.pv.clone(), l.score))
            .collect::<Vec<_>>()
    };
    assert_eq!(view(&ra), view(&rb));
}

#[test]
fn mcts_prefers_the_immediate_win_over_a_slower_one() {
    // x to move: 2 wins at once, 6 wins a move later by a fork; take the win now.
    for threads in [1, 2] {
        let o = run(
            "xx..o...x",
            SearchParams { threads, ..mcts() },
            nodes(20000),
        );
        assert_eq!(o.best, Some(2));
    }
}

#[test]
fn mcts_with_two_threads_agrees_on_a_forced_move() {
    let mut p = mcts();
    p.threads = 2;
    let o = run("xx..o....", p, nodes(20000));
    assert_eq!(o.best, Some(2));
    assert!(o.nodes >= 20000);
}

#[test]
fn a_full_tree_does_not_stop_the_search() {
    // 1 MiB holds few nodes: the search must go on scoring leaves without growing the tree.
    let mut p = mcts();
    p.hash_mb = 1;
    let o = run(".........", p, nodes(200_000));
    assert!(o.nodes >= 200_000);
    assert!(o.report.unwrap().hashfull >= 990);
}

/// A 200 ms movetime (10 ms overhead) search took `ms` milliseconds.
fn movetime_200_takes() -> u128 {
    let t0 = std::time::Instant::now();
    let p = SearchParams {
        move_overhead_ms: 10,
        ..mcts()
    };
    run(
        ".........",
        p,
        Limits {
            movetime: Some(200),
            ..Default::default()
        },
    );
    t0.elapsed().as_millis()
}

/// The search uses its time (a machine cannot be too fast for that) and stops: the upper bound
/// is generous, as the machine running the tests may be loaded.
#[test]
fn movetime_is_honoured() {
    let ms = movetime_200_takes();
    assert!((150..2000).contains(&ms), "took {} ms", ms);
}

/// The same within 60 ms of the deadline: for an idle machine (`cargo test -- --ignored`).
#[test]
#[ignore]
fn strict_timing_movetime_is_honoured_within_60_ms() {
    let ms = movetime_200_takes();
    assert!((150..260).contains(&ms), "took {} ms", ms);
}

#[test]
fn mcts_widen_root_off_tries_every_root_move_first() {
    let visited = |widen_root: bool| {
        let p = SearchParams {
            algorithm: Algorithm::Mcts,
            threads: 1,
            hash_mb: 4,
            multipv: 9,
            widen_root: Some(widen_root),
            ..Default::default()
        };
        let o = run(".........", p, nodes(10));
        o.report
            .unwrap()
            .lines
            .iter()
            .filter(|l| l.visits.unwrap_or(0) > 0)
            .count()
    };
    // Every one of the 9 moves gets its first visit before any gets a second.
    assert_eq!(visited(false), 9);
    // Widened, the root's window after 10 visits is 1 + √10 moves.
    assert!(visited(true) <= 4, "{}", visited(true));
}

/// An MCTS tree as its report shows it: the 4 best root lines at 3,000 playouts, each line's
/// moves, visits and reward (exact bits), with `p` (one thread: the same tree every run).
type RootLines = Vec<(Vec<String>, Option<u64>, u64)>;

fn mcts_tree<G: Game>(g: &G, p: SearchParams) -> RootLines {
    let p = SearchParams { multipv: 4, ..p };
    let o = run_on(g, p, nodes(3000));
    let reward = |r: Option<f64>| r.unwrap_or(-1.0).to_bits();
    let lines = o.report.unwrap().lines.into_iter();
    lines.map(|l| (l.pv, l.visits, reward(l.reward))).collect()
}

/// An option whose −1 (the default, `None`, read by `get`) is the game's own value: `value`
/// sets it, each of `refused` is refused and the last good value kept, −1 brings it back.
fn minus_one_is_the_games_own(
    name: &str,
    value: u32,
    refused: &[&str],
    get: fn(&SearchParams) -> Option<u32>,
) {
    let mut p = mcts();
    assert_eq!(get(&p), None, "{}", name);
    params::set(&mut p, name, &value.to_string()).unwrap();
    assert_eq!(get(&p), Some(value), "{}", name);
    for bad in refused {
        assert!(params::set(&mut p, name, bad).is_err(), "{} {}", name, bad);
    }
    assert_eq!(get(&p), Some(value), "{}", name);
    params::set(&mut p, name, "-1").unwrap();
    assert_eq!(get(&p), None, "{}", name);
}

/// The tree searched with the option left to the game (`with(None)`) is the one with the game's
/// own value set by hand, and not the one with `other`.
fn default_tree_is<G: Game>(g: &G, with: fn(Option<u32>) -> SearchParams, own: u32, other: u32) {
    let default = mcts_tree(g, with(None));
    assert_eq!(default, mcts_tree(g, with(Some(own))));
    assert_ne!(default, mcts_tree(g, with(Some(other))));
}

/// `MinimaxWeight` −1 (the default) is the game's measured weight: 0 in hyperchess and
/// tesseract, whose widened trees' implicit minimax flatters a move, 40 elsewhere (rithmomachia);
/// a value sets it.
#[test]
fn mcts_minimax_weight_defaults_to_the_games_own() {
    minus_one_is_the_games_own("MinimaxWeight", 70, &["101", "-2"], |p| p.minimax_weight);
    assert_eq!(super::Tuning::for_game("hyperchess").minimax_weight, 0);
    assert_eq!(super::Tuning::for_game("tesseract").minimax_weight, 0);
    assert_eq!(super::Tuning::for_game("rithmomachia").minimax_weight, 40);
    let with = |minimax_weight| SearchParams {
        minimax_weight,
        ..mcts()
    };
    use crate::games::hyperchess::Hyperchess;
    use crate::games::rithmomachia::Rithmomachia;
    // The bench's middlegame (from the start every root move gets the same visits).
    let mut h = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    for m in crate::bench::hyperchess_middlegame() {
        h.play(h.parse_move(m).unwrap());
    }
    default_tree_is(&h, with, 0, 40);
    let r = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
    default_tree_is(&r, with, 40, 0);
}

/// `Widening` −1 (the default) is the game's measured factor: 5 in chess for three, 10
/// elsewhere; a value set by hand replaces it, and −1 brings it back.
#[test]
fn mcts_widening_defaults_to_the_games_own() {
    minus_one_is_the_games_own("Widening", 20, &["-2"], |p| p.widening);
    assert_eq!(super::Tuning::for_game("threechess").widening, 5);
    assert_eq!(super::Tuning::for_game("hyperchess").widening, 10);
    assert_eq!(super::Tuning::for_game("rithmomachia").widening, 10);
    let with = |widening| SearchParams { widening, ..mcts() };
    use crate::games::rithmomachia::Rithmomachia;
    use crate::games::threechess::Threechess;
    let t = Threechess::start(&RuleOptions::of::<Threechess>()).unwrap();
    default_tree_is(&t, with, 5, 10);
    let r = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
    default_tree_is(&r, with, 10, 5);
}

/// A descent counts its visit on the way down (that count is its virtual loss) and adds only
/// its reward on the way up: once the search has ended, the root moves' visits add up to the
/// iterations, whatever the threads (no descent counted twice, and none lost on the root while
/// another thread expands it: a thread descheduled then, on a loaded machine, once made the
/// other score the root over and over).
#[test]
fn mcts_counts_each_descent_once_whatever_the_threads() {
    for threads in [1, 2] {
        let p = SearchParams {
            algorithm: Algorithm::Mcts,
            threads,
            hash_mb: 4,
            multipv: 9,
            ..Default::default()
        };
        let report = run(".........", p, nodes(4000)).report.unwrap();
        let through: u64 = report.lines.iter().map(|l| l.visits.unwrap()).sum();
        assert_eq!(
            through, report.nodes,
            "{threads} threads: descents through the root moves, iterations"
        );
        for l in &report.lines {
            let r = l.reward.unwrap();
            assert!(
                (0.0..=1.0).contains(&r),
                "{threads} threads: mean reward {r}"
            );
        }
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

/// Seat 0 moves twice in a row after its first move (0); the `Game` trait never promised that
/// seats alternate. Alpha-beta must then neither negate the extra turn's score nor evaluate it
/// for the other seat: the extra turn is worth 300 (it picks its best reply), more than the
/// other move (100).
#[test]
fn alphabeta_does_not_assume_that_the_seats_alternate() {
    let mut b = Builder::default();
    let root = b.node(0, 0);
    let extra = b.node(0, 0);
    let other = b.node(1, 100);
    let (good, bad) = (b.leaf(1, 300), b.leaf(1, -300));
    let after_other = b.leaf(0, 100);
    b.quiet(root, extra)
        .quiet(root, other)
        .quiet(extra, good)
        .quiet(extra, bad)
        .quiet(other, after_other);
    let g = b.start();
    for p in [
        ab(),
        SearchParams {
            exact: true,
            ..ab()
        },
    ] {
        let o = run_on(&g, p, depth(2));
        assert_eq!(o.best, Some(0));
        assert_eq!(o.report.unwrap().lines[0].score, Score::Cp(300));
    }
}

/// Alpha-beta's quiescence does not stand pat in check: a capture leaves seat 0 in check (its
/// evaluation +500 as it stands), and its only evasion loses 900. Standing pat there, the
/// capture looked harmless to seat 1 (0); searching the evasion, it wins 900 for seat 1.
/// (Best-Reply Search stands pat: searching the evasions cost it more than it found, see
/// `brs.rs`.)
#[test]
fn alphabeta_quiescence_searches_the_evasions_in_check() {
    let mut b = Builder::default();
    let root = b.node(0, 0);
    let quiet = b.node(1, 0);
    let checked = b.node(0, 500);
    let evasion = b.leaf(1, -900);
    b.quiet(root, quiet)
        .noisy(quiet, checked)
        .check(checked)
        .quiet(checked, evasion);
    let g = b.start();
    let o = run_on(&g, ab(), depth(1));
    assert_eq!(o.report.unwrap().lines[0].score, Score::Cp(-900));
}

#[test]
fn value_scale_turns_evaluations_into_rewards_and_back() {
    // A lead of the scale is 10-to-1 odds; the default scale is Elo's 400.
    let v = Valuer::HAND;
    assert!((v.probability(400) - 10.0 / 11.0).abs() < 1e-6);
    assert!((v.probability(0) - 0.5).abs() < 1e-6);
    let wide = Valuer {
        net: None,
        scale: 2000.0,
    };
    assert!((wide.probability(2000) - 10.0 / 11.0).abs() < 1e-6);
    assert!(wide.probability(400) < v.probability(400));
    for cp in [-3000, -250, 0, 17, 900, 5000] {
        assert!(
            (wide.centipawns(wide.probability(cp)) - cp).abs() <= 1,
            "{}",
            cp
        );
    }
    // The option: −1 and 0 leave the choice to the game, a positive value sets it.
    let mut p = SearchParams::default();
    assert_eq!(p.value_scale, None);
    params::set(&mut p, "ValueScale", "2673").unwrap();
    assert_eq!(p.value_scale, Some(2673));
    assert!(params::set(&mut p, "ValueScale", "-5").is_err());
    assert_eq!(p.value_scale, Some(2673));
    params::set(&mut p, "ValueScale", "0").unwrap();
    assert_eq!(p.value_scale, None);
    // MCTS's scale: the game's whichever evaluation (a net's scores are in the hand
    // evaluation's units), `ValueScale` when set.
    use crate::games::hyperchess::Hyperchess;
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let set = g.feature_set().unwrap();
    let net = crate::learn::builtin::net("hyperchess", &set).unwrap();
    let limits = Limits::default();
    let stop = AtomicBool::new(false);
    let sink = |_: Event| {};
    let scale = |p: &SearchParams| {
        let ctx = Context {
            net: Some(net),
            ..Context::new(p, &limits, Control::new(&stop), &sink, 0)
        };
        Valuer::of::<Hyperchess>(&ctx).scale
    };
    assert_eq!(scale(&p), super::Tuning::of::<Hyperchess>().value_scale);
    params::set(&mut p, "ValueScale", "1000").unwrap();
    assert_eq!(scale(&p), 1000.0);
}

/// Under a clock, another iteration starts until `ITERATION_START_SHARE` (0.7) of the soft
/// limit is spent, not after; under `movetime` the rule does not apply. (A soft limit of
/// 100 s, so that no stall of the machine moves a case across the line.)
#[test]
fn iterations_start_until_seven_tenths_of_the_soft_limit() {
    use std::time::{Duration, Instant};
    let params = SearchParams::default();
    let stop = AtomicBool::new(false);
    let sink = |_: Event| {};
    let case = |limits: &Limits, spent: u64| {
        let ctx = Context {
            start: Instant::now()
                .checked_sub(Duration::from_secs(spent))
                .expect("the machine has been up for 80 s"),
            budget: super::time::Budget {
                soft: Some(Duration::from_secs(100)),
                hard: Some(Duration::from_secs(300)),
            },
            ..Context::new(&params, limits, Control::new(&stop), &sink, 0)
        };
        ctx.next_iteration_too_long()
    };
    let clock = Limits {
        time: [Some(3_000_000), Some(3_000_000), None, None],
        ..Default::default()
    };
    assert!(
        !case(&clock, 60),
        "60% of the soft limit: one more iteration"
    );
    assert!(case(&clock, 80), "80%: no more");
    let movetime = Limits {
        movetime: Some(100_000),
        ..Default::default()
    };
    assert!(!case(&movetime, 80), "movetime is thought for whole");
}

/// Quiescence keeps its results in the table where the rule set's pruning says so (chess on one
/// board): entries of depth 0 that name no move, beside the main search's. Elsewhere (3x3
/// hyperchess) quiescence leaves the table alone.
#[test]
fn quiescence_writes_the_table_where_the_rules_say() {
    use crate::games::hyperchess::Hyperchess;
    let count = |g: &Hyperchess| {
        let memory = Memory::default();
        let stop = AtomicBool::new(false);
        let sink = |_: Event| {};
        let params = ab();
        let limits = depth(5);
        let mut control = Control::new(&stop);
        control.memory = Some(&memory);
        let ctx = Context::new(&params, &limits, control, &sink, g.to_move());
        assert!(search(g, &ctx).best.is_some());
        let entries = tt::kept_entries(&memory);
        let quiet = entries.iter().filter(|e| e.depth == 0).count();
        assert!(entries.iter().any(|e| e.depth > 0));
        for e in entries.iter().filter(|e| e.depth == 0) {
            assert_eq!(e.move_index, tt::NO_MOVE);
        }
        quiet
    };
    let chess = Hyperchess::from_text(
        "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PP3PPP/R2QKB1R w - - 0 9",
        &RuleOptions::of::<Hyperchess>()
            .with("Boards", "1x1")
            .with("Promotions", "chess"),
    )
    .unwrap();
    assert!(count(&chess) > 100);
    let nine = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    assert_eq!(count(&nine), 0);
}

/// Chess's pruning (`Pruning` for hyperchess on one board: reverse futility, futility, a deeper
/// null move, internal iterative reduction) keeps the tactics a plain depth-8 search finds:
/// six tactical positions, most from Reinfeld's Win At Chess suite (3, 5, 8 and 9 among them),
/// each a rook lift, a sacrifice or a mate that a pruning with the wrong sign or margin would
/// cut (reverse futility pruning with its sign flipped fails this test). Where a second move
/// keeps the same win, it is named too. The search evaluates by hand: the pruning is under
/// test, not a net, whose scores move the depth at which a sacrifice shows (with the chess net
/// of 2026-12-04, ...Ne3 in the fourth position shows at depth 9; the arena measures a net).
#[test]
fn chess_pruning_keeps_the_tactics_of_a_plain_search() {
    use crate::games::hyperchess::Hyperchess;
    let opts = RuleOptions::of::<Hyperchess>()
        .with("Boards", "1x1")
        .with("Promotions", "chess");
    for (fen, best, mate) in [
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            &["e3g3"][..],
            None,
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            &["h6h7"],
            Some(2),
        ),
        (
            "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
            &["c6c4"],
            Some(2),
        ),
        (
            "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b - - 0 1",
            &["g4e3"],
            None,
        ),
        (
            "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
            // Nf7+ Kg8 Nh6+ Kh8 comes back to this position, Rxf7 still to play: Stockfish
            // 15.1 mates in 10 after it, in 8 after Rxf7 (depth 20).
            &["e7f7", "h6f7"],
            None,
        ),
        (
            "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
            &["d6h2"],
            Some(5),
        ),
    ] {
        let g = Hyperchess::from_text(fen, &opts).unwrap();
        assert_eq!(g.tuning_name(), "hyperchess-1x1-chess");
        let hand = SearchParams {
            eval: params::EvalChoice::Hand,
            ..ab()
        };
        let o = run_on(&g, hand, depth(8));
        let found = o.best.map(|m| g.format_move(m)).unwrap_or_default();
        assert!(best.contains(&found.as_str()), "{}: {}", fen, found);
        if let Some(n) = mate {
            assert_eq!(o.report.unwrap().lines[0].score, Score::Mate(n), "{}", fen);
        }
    }
}
