//! MCTS's tuning per game: the values of `RolloutPlies`, `TreeDepth`, `LeafSearch`,
//! `MinimaxWeight`, `Widening`, `Exploration`, `ValueScale` and `WidenRoot` that a game plays
//! best with, as measured. They belong to the search, not to the rules (as engines keep their
//! search tuning off the board type), so they live here in one table keyed by the game's name
//! ([`Game::NAME`]); the rules know nothing of them. An engine option set to a value (not −1)
//! overrides them.
//!
//! Alpha-beta's [`Pruning`] is a second table here, keyed by the rule set
//! ([`Game::tuning_name`]: hyperchess on one board is measured apart from nine boards).

use crate::game::Game;

/// How MCTS searches one game when the engine options leave the choice to the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// MCTS rollout length (random plies from a new leaf before the evaluation scores it) that
    /// plays best for this game, as measured; the `RolloutPlies` option overrides it.
    pub rollout_plies: usize,
    /// MCTS tree depth cap (nodes this deep are scored, never expanded; 0 = none) that plays
    /// best for this game, as measured; the `TreeDepth` option overrides it.
    pub tree_depth: usize,
    /// MCTS, two seats with perfect information: plies of captures-only search that score a new
    /// leaf instead of a rollout (0 = rollout), as measured; the `LeafSearch` option overrides it.
    pub leaf_search: usize,
    /// MCTS, two seats with perfect information: the implicit minimax value's weight in
    /// selection, in hundredths (0 = the mean reward alone), as measured; the `MinimaxWeight`
    /// option overrides it.
    pub minimax_weight: u32,
    /// MCTS exploration constant (UCB1's c) for this game's reward scale, as measured; the
    /// `Exploration` option overrides it. Measured against alpha-beta at 100 ms a move, one
    /// thread, 20 games: 0.4 scored 35% against 22.5% with 0.8 in tesseract, 27.5% against
    /// 17.5% in rithmomachia, 11/40 against 3/20 in hyperchess (0.2: 5.5/20, 0.6: 0/20). With
    /// the evaluation's win probabilities as rewards, the smaller constant spends the
    /// iterations on the lines that look best.
    pub exploration: f32,
    /// MCTS: the evaluation lead worth 10-to-1 odds when an evaluation becomes a reward
    /// (`1 / (1 + 10^(−eval/scale))`, as Elo's 400); the `ValueScale` option overrides it.
    pub value_scale: f32,
    /// MCTS, perfect information: whether progressive widening also applies at
    /// the root (true), or the root considers every move from the start, as measured; the
    /// `WidenRoot` option overrides it.
    pub widen_root: bool,
    /// MCTS with a learned move policy: the prior's weight in selection, in hundredths, as
    /// measured; the `PolicyWeight` option overrides it.
    pub policy_weight: u32,
    /// MCTS, perfect information: the progressive widening factor in tenths (a node visited n
    /// times considers its first `1 + widening/10 · √n` moves; 0 = all), as measured; the
    /// `Widening` option overrides it.
    pub widening: u32,
    /// MCTS with a learned move policy: whether captures and promotions still widen first in
    /// `move_priority` order (the policy then orders the quiet moves), as measured.
    pub policy_noisy_first: bool,
}

impl Tuning {
    /// The tuning of every game that has no line in [`TABLE`].
    pub const DEFAULT: Tuning = Tuning {
        rollout_plies: 4,
        tree_depth: 0,
        leaf_search: 0,
        minimax_weight: 40,
        exploration: 0.4,
        value_scale: super::DEFAULT_VALUE_SCALE,
        widen_root: true,
        policy_weight: 0,
        policy_noisy_first: false,
        widening: 10,
    };

    /// The tuning of the game named `name` (as [`Game::NAME`]).
    pub fn for_game(name: &str) -> Tuning {
        line(TABLE, name).unwrap_or(Tuning::DEFAULT)
    }

    /// The tuning of game `G`.
    pub fn of<G: Game>() -> Tuning {
        Tuning::for_game(G::NAME)
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::DEFAULT
    }
}

/// The values of the line of `table` named `name`, if it has one.
fn line<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}

/// The games whose measurements chose values other than [`Tuning::DEFAULT`], by name.
const TABLE: &[(&str, Tuning)] = &[
    (
        "hyperchess",
        Tuning {
            // Measured against alpha-beta at 100 ms a move, one thread, seeds 1–3, 20 games each:
            // every root move considered from the start scored 30/60, the widened root 14/60 (its
            // window, 1 + √n moves in `move_priority` order, never reached the quiet moves
            // generated last, often the best ones). In tesseract, with a thousand drops at the
            // root, the widened root does better (35% against 20%, seed 1).
            widen_root: false,
            // Measured against a random mover at 100 ms a move, 6 games each, 600-ply cap: 12
            // plies mated 6 of 6, 4 plies 17 of 20 (the rest hit the cap), 0 plies 3 of 6.
            rollout_plies: 12,
            // Measured at 100 ms a move, one thread, 10 games a pair: MCTS scoring its leaves by
            // a 4-ply captures-only search beat MCTS with the 12-ply rollout 9–1, 2 plies beat 4
            // plies 7–3, 8 plies lost to 4 4–6, 1 ply lost to 2 3.5–6.5; on a quiet machine, 2
            // plies beat the rollout 10–0. Random plies miss the exchanges that decide this game.
            leaf_search: 2,
            // The implicit minimax value of a node is the best of its scored children, and here
            // those are the few its widening has admitted: the reply that refutes a move is often
            // not among them yet, so the value flatters the move. MCTS with 0 against 40 (the
            // default elsewhere), 4,000 playouts a move each, one thread: 110 W 67 D 78 L over
            // 255 games, +43.8 ± 37 Elo (seed 41, 124.1 and 124.9 ms a move); on the tactical
            // screen (docs/positions/hyperchess-mcts-blunders.json, 40,000 playouts) 0 passed 75
            // of 115, 20 64, 40 59, 80 46, 100 41 (docs/results.md, 2026-12-07 (late morning)).
            minimax_weight: 0,
            // With a learned move policy (`Policy net`; `hyperchess-moves-3x3/2`, 16 hidden
            // units, 1,400 self-play games), MCTS against MCTS without one at 4,000 playouts a
            // move: captures first, then the policy's order, 29 W 40 D 13 L over 82 (seeds
            // 7–10, 12); the policy's order alone 2 W 3 D 7 L over 12 (seed 7; docs/results.md,
            // 2026-12-07 (small hours) and (early morning)). Version 3 of the features, 12 W 22
            // D 6 L over 40 (seeds 9, 12), 40 W 54 D 26 L over 120 in all. At equal time (node
            // odds 3,800 against 4,000 playouts, the same time a move in games) 56 W 46 D 71 L over
            // 173 (2026-12-07 (morning)): no policy ships.
            policy_noisy_first: true,
            ..Tuning::DEFAULT
        },
    ),
    (
        "tesseract",
        Tuning {
            // As in hyperchess (below the root a node scores only the children its widening has
            // admitted, so their best flatters it); and the backup keeps a new leaf's own
            // evaluation, a second one where the rollout scores the leaf (here with the net):
            // without it 0.81–0.86 times the CPU time at 60,000 and 300,000 playouts from the
            // start. Against alpha-beta at node limits (MCTS 4,000 playouts, alpha-beta 40,000
            // nodes), the same 80 games (seeds 11 and 12) for both weights: 0 26.9%, 40 18.8%,
            // paired +8.1 ± 8.1 points (26 games better with 0, 13 with 40; docs/results.md,
            // 2026-12-07 (midday)). Rithmomachia keeps 40: 7.1% with 0 against
            // 26.2% with 40 on the same 21 games (−19.0 ± 14.3 points).
            minimax_weight: 0,
            ..Tuning::DEFAULT
        },
    ),
    (
        "tesseris",
        Tuning {
            // ISMCTS searches the seat's own decision only (a tree of depth 1); other seats' turns
            // are played by the rollout policy. Deeper trees let the other seats' nodes choose
            // with the observer's true hand in view in every determinization (its hand is the one
            // thing all determinizations share), so they "know" whom to rob: against the
            // baseline, 100 games at 50 ms, depth 1 scored 72%, depth 2 66%, unlimited 60%.
            tree_depth: 1,
            // Rewards here move by a few hundredths between moves: 0.3 explored best (0.3 → 72%,
            // 0.6 → 64.5%, 0.8 → about 45% at full depth).
            exploration: 0.3,
            // Two turns of every seat (4 seats) before the evaluation, and in a round that can
            // end the game a rollout to its end (`Tesseris::rollout_plies`). 4 seats, ISMCTS at
            // 20,000 playouts against three baselines, 800 deals of seeds 1–4 paired with
            // 4-ply rollouts: 8 plies alone +1.3 ± 2.2 points of reward share, the rollout to
            // the end alone +1.6 ± 1.3, both +5.1 ± 2.3 and 52.0% outright
            // wins against 45.9% (docs/results.md, 2026-11-29 (evening)). With 2 seats, 4
            // plies (`Tesseris::default_rollout_plies`).
            rollout_plies: 8,
            ..Tuning::DEFAULT
        },
    ),
    (
        "threechess",
        Tuning {
            // One MCTS against two Best-Reply Searches, 100 ms a move, one thread each, 24 games
            // a seed (docs/results.md, 2026-12-05 (night)): 0.8 (the first measurements' constant)
            // took no point in 48 games (seeds 5 and 6), 0.3 a reward share of 0.070 (1 W 6 D
            // 41 L), 0.45 0.031 (0 W 3 D 45 L), 0.15 0.063 (seed 5). The rewards (each seat's
            // share of the evaluation's win probabilities) move little between moves, so a large
            // constant spreads the playouts over them; as in the two-seat games, a smaller one
            // plays better. With progressive widening (2026-12-05 (late night)) 0.3 took 0.174
            // over 96 games (seeds 5–8) and 0.2 0.172: it stays.
            exploration: 0.3,
            // With the shipped move policy (2026-12-06 (morning)), the same match: the policy
            // as the widening order alone (weight 0) took 0.222 over 48 games (seeds 5–6), with
            // weight 30 0.274 there and 0.257 over 96 (seeds 5–8; without a policy 0.184 and
            // 0.174); the policy with a hidden layer (2026-12-06 (afternoon)) 0.339 over 192 with
            // weight 30 (seeds 5–12), and on seeds 9–10 0.351 with 30, 0.313 with 50, 0.260 with
            // 15.
            policy_weight: 30,
            // With that policy ordering the moves, half the widening factor (`Widening` 5), the
            // same match on 5ac36c5 (seeds 22–25): 0.457 ± 0.077 over 96 games, and on seeds
            // 22–24 0.481 against 10's 0.303 on the same 72 games, +0.178 ± 0.113 paired
            // (docs/results.md, 2026-12-07 (night)).
            widening: 5,
            ..Tuning::DEFAULT
        },
    ),
];

/// How alpha-beta prunes in one rule set, as measured: the selectivity that chess engines use
/// and that paid in chess (hyperchess on one board), off in the games where it was measured
/// without a gain (docs/results.md, 2026-11-26 (night): reverse futility pruning cost
/// rithmomachia depth and was worth nothing measurable in 3x3 hyperchess). None applies in an
/// exact or `go mate` search; all but the iterative reduction apply only outside the principal
/// variation and not in check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pruning {
    /// Reverse futility pruning: a node within `reverse_futility_depth` plies of the leaves
    /// whose static evaluation stands this much a ply of depth above beta returns the
    /// evaluation unsearched; 0 = off.
    pub reverse_futility: i32,
    pub reverse_futility_depth: i32,
    /// Futility pruning: at a node within `futility_depth` plies of the leaves, quiet moves
    /// that do not check are skipped (after the first move) when the static evaluation plus
    /// 60 plus this much a ply of depth cannot reach alpha; 0 = off.
    pub futility: i32,
    pub futility_depth: i32,
    /// Null-move reduction 3 + depth/3 + (evaluation − beta)/200 (at most 3 more), as Stockfish,
    /// instead of 3 + depth/6.
    pub deep_null_move: bool,
    /// Razoring: a node within `razoring_depth` plies of the leaves whose static evaluation
    /// stands this much a ply of depth below alpha gets a quiescence search with a null window
    /// at alpha first, and returns its score when that fails low; 0 = off.
    pub razoring: i32,
    pub razoring_depth: i32,
    /// Internal iterative reduction: a node of depth 4 or more without a table move is searched
    /// a ply shallower.
    pub iir: bool,
    /// The late-move reductions' divisor: a quiet move late in the order is reduced by
    /// ln(depth)·ln(move number)/this + 0.75 plies (a smaller divisor reduces more). Unlike
    /// the rest, it applies in every search with selectivity, the principal variation too.
    pub reduction_divisor: f64,
    /// Plies more by which a late move is reduced at an expected cut node (a node searched
    /// with a null window whose parent expects it to fail high: the first move of an expected
    /// all node, the reduced searches of late moves, as Stockfish's `cutNode`); at depth 3 or
    /// more, from the second move searched on.
    pub cut_node_reduction: i32,
    /// Quiescence reads the table (any entry whose bound cuts its window) and writes its own
    /// results there at depth 0, where no entry of the same position from the main search
    /// stands (the main search never cuts on them, nor takes a move from them).
    pub quiescence_table: bool,
    /// A quiet move that cuts off gains this much a ply² of depth in the history (the quiet
    /// moves searched before it lose as much). The history saturates at ±16,384, so a larger
    /// bonus makes recent cutoffs count more than old ones.
    pub history_bonus: i32,
    /// Within `exchange_depth` plies of the leaves, quiet moves (after the first) that lose
    /// more than this much a ply² of depth by the static exchange (`Game::exchange`, in the
    /// piece values' units) are skipped, unless they check; 0 plies = off.
    pub exchange_quiet: i32,
    pub exchange_depth: i32,
}

impl Pruning {
    /// No pruning beyond the search's own (null move, late-move reductions and pruning).
    pub const NONE: Pruning = Pruning {
        reverse_futility: 0,
        reverse_futility_depth: 0,
        futility: 0,
        futility_depth: 0,
        deep_null_move: false,
        razoring: 0,
        razoring_depth: 0,
        iir: false,
        reduction_divisor: 2.25,
        cut_node_reduction: 0,
        quiescence_table: false,
        history_bonus: 1,
        exchange_quiet: 0,
        exchange_depth: 0,
    };

    /// The pruning of the rule set named `name` (as [`Game::tuning_name`]).
    pub fn for_rules(name: &str) -> Pruning {
        line(PRUNING, name).unwrap_or(Pruning::NONE)
    }

    /// Whether any of it needs the node's static evaluation.
    pub fn wants_eval(&self) -> bool {
        self.reverse_futility > 0 || self.futility > 0 || self.deep_null_move
    }
}

/// Chess's pruning on one board with hyperchess's evaluation (a pawn 100): 2,000 random 6-ply
/// openings, against the search without it: +177.5 ± 43.1 Elo at 20,000 nodes a move, SPRT
/// (0, 10) H1 after 238 games; at 5 s + 0.05 s +33 (95%: +12 … +54) over 750 games. Skipping
/// the captures flagged as losing as well cost 51.7 ± 35 (docs/results.md, 2026-11-30 (night)).
const ONE_BOARD: Pruning = Pruning {
    reverse_futility: 100,
    reverse_futility_depth: 6,
    futility: 100,
    futility_depth: 6,
    deep_null_move: true,
    iir: true,
    ..Pruning::NONE
};

/// The rule sets whose measurements chose pruning other than [`Pruning::NONE`], by
/// [`Game::tuning_name`].
const PRUNING: &[(&str, Pruning)] = &[
    // One board with its own promotions, which keeps hyperchess's evaluation.
    ("hyperchess-1x1", ONE_BOARD),
    (
        "hyperchess-1x1-chess",
        // Chess with its own evaluation (`chess_eval.rs`, on Stockfish's scale: a middlegame
        // pawn about 50): the margins scaled to it, 70 a ply instead of 100, +29.6 ± 16.4 Elo
        // at 20,000 nodes, SPRT (0, 10) H1 after 1,163 games (docs/results.md, 2026-11-30
        // (morning)).
        //
        // Late-move reductions deeper by the divisor 1.75 instead of 2.25: +16.3 ± 11.6 Elo at
        // 20,000 nodes, SPRT (0, 10) H1 after 2,286 games (seed 206); 2.0 scored +8.8 ± 10.1
        // over 3,000, not proven (docs/results.md, 2026-11-30 (late evening)).
        //
        // Measured alone against the search without all three (docs/results.md, 2026-11-30
        // (late night)), each at 20,000 nodes, SPRT (0, 10) H1: late moves at an expected cut
        // node a ply more, +22.2 ± 14.0 Elo after 1,489 games (seed 301); quiescence through
        // the table, +28.0 ± 15.7 after 1,207 (seed 305); the history's bonus 16 a ply² instead
        // of 1, +14.0 ± 10.6 after 2,676 (seed 303).
        //
        // Each at 20,000 nodes, SPRT (0, 10), on the build before it (docs/results.md,
        // 2026-12-01 (night)): razoring at 150 a ply within 3 plies, +19.8 ± 12.7 Elo, H1
        // after 1,879 games (seed 413); captures flagged as losing only when the static
        // exchange loses (`exchange.rs`), +32.5 ± 17.2, H1 after 1,017 (seed 421); then quiet
        // moves that lose more than 20·depth² by it within 6 plies, +23.8 ± 14.1, H1 after
        // 1,475 (seed 422). The three together against the build before at 80,000 nodes:
        // +78.5 ± 45 over 144 games.
        Pruning {
            reverse_futility: 70,
            futility: 70,
            reduction_divisor: 1.75,
            cut_node_reduction: 1,
            quiescence_table: true,
            history_bonus: 16,
            exchange_quiet: 20,
            exchange_depth: 6,
            razoring: 150,
            razoring_depth: 3,
            ..ONE_BOARD
        },
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of the table names a game of the registry, once, and changes something: a
    /// misspelt or renamed game would silently search with the defaults.
    #[test]
    fn every_line_names_a_registered_game() {
        let names: Vec<&str> = crate::games::all().iter().map(|e| e.name).collect();
        for (name, _) in TABLE {
            assert!(names.contains(name), "{} is not a registered game", name);
        }
        lines_are_distinct_and_found(TABLE, Tuning::DEFAULT, Tuning::for_game);
    }

    /// Each line of `table` has its own name, changes something from `none` and is what
    /// `lookup` finds by its name; an unknown name finds `none`.
    fn lines_are_distinct_and_found<T: Copy + PartialEq + std::fmt::Debug>(
        table: &[(&str, T)],
        none: T,
        lookup: fn(&str) -> T,
    ) {
        for (i, (name, values)) in table.iter().enumerate() {
            assert!(table[..i].iter().all(|(n, _)| n != name), "{} twice", name);
            assert_ne!(*values, none, "{}'s line changes nothing", name);
            assert_eq!(lookup(name), *values);
        }
        assert_eq!(lookup("no such rules"), none);
    }

    /// Every pruning line names a rule set some game calls its own, once, and changes something.
    #[test]
    fn every_pruning_line_names_a_rule_set() {
        use crate::game::{Game, RuleOptions};
        use crate::games::hyperchess::Hyperchess;
        let one =
            Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", "1x1")).unwrap();
        let nine = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
        let chess = Hyperchess::start(
            &RuleOptions::of::<Hyperchess>()
                .with("Boards", "1x1")
                .with("Promotions", "chess"),
        )
        .unwrap();
        assert_eq!(one.tuning_name(), "hyperchess-1x1");
        assert_eq!(chess.tuning_name(), "hyperchess-1x1-chess");
        assert_eq!(nine.tuning_name(), "hyperchess");
        lines_are_distinct_and_found(PRUNING, Pruning::NONE, Pruning::for_rules);
        assert_eq!(Pruning::for_rules("hyperchess"), Pruning::NONE);
    }

    /// A search finds its game's line through the game's type.
    #[test]
    fn of_reads_the_line_of_the_games_name() {
        use crate::games::{hyperchess::Hyperchess, rithmomachia::Rithmomachia};
        assert_eq!(Tuning::of::<Hyperchess>(), Tuning::for_game("hyperchess"));
        assert_eq!(Tuning::of::<Hyperchess>().leaf_search, 2);
        assert_eq!(Tuning::of::<Rithmomachia>(), Tuning::DEFAULT);
    }
}
