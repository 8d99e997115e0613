//! Unit tests of the tree, selection, the solver, the minimax backup, widening and the leaf search.

use super::backup::{back_up_value, root_decided, solve_path};
use super::leaf::{leaf_value, quiescence_rewards};
use super::report::ranked;
use super::select::{select, Knobs, OwnCounts};
use super::tree::{
    rank_range, widen, Order, Tree, WidenScratch, COMPLETE, FIRST_CHILDREN, LOSS, SCALE, UNPROVEN,
    WIN,
};
use crate::game::Game;
use crate::search::quiesce::PlyBufs;
use fxhash::FxHashSet;
use std::sync::atomic::Ordering;

/// Selection at the root of `t` with perfect information and no counts of the thread's own.
fn pick<M: Copy + Eq + std::hash::Hash>(t: &Tree<M>, k: Knobs) -> Option<u32> {
    select(t, 0, None, false, k, None).0
}

/// A tree by hand: root 0 → 1, 2 (mover 0); 1 → 3, 4 and 2 → 5, 6 (mover 1).
fn tree() -> Tree<u8> {
    let t = Tree::new(1, false);
    let slots = t.alloc_many(6);
    assert_eq!(slots, 1..7);
    for (i, parent, mover) in [
        (1, 0, 0),
        (2, 0, 0),
        (3, 1, 1),
        (4, 1, 1),
        (5, 2, 1),
        (6, 2, 1),
    ] {
        t.init(i, Some(i as u8), mover, 0);
        t.link(parent, i as u32);
    }
    for n in [0, 1, 2] {
        t.node(n).expanded.store(true, Ordering::Relaxed);
        t.node(n).widened.store(2 | COMPLETE, Ordering::Relaxed);
    }
    t
}

/// `tree()` after 100 root visits: 50 into node 1 (mean reward 0.8), 50 into node 2 (0.2).
fn visited_tree() -> Tree<u8> {
    let t = tree();
    t.node(0).visits.store(100, Ordering::Relaxed);
    for (n, v, r) in [(1, 50, 40.0), (2, 50, 10.0)] {
        t.node(n).visits.store(v, Ordering::Relaxed);
        t.node(n)
            .reward_sum
            .store((r * SCALE) as u64, Ordering::Relaxed);
    }
    t
}

#[test]
fn a_winning_reply_proves_the_move_lost_and_all_lost_replies_prove_it_won() {
    let t = tree();
    // Node 1: the opponent has a winning reply (3): moving into 1 loses.
    t.node(3).proven.store(WIN, Ordering::Relaxed);
    solve_path(&t, &[0, 1, 3]);
    assert_eq!(t.node(1).proven(), LOSS);
    // Node 2: one reply lost for the opponent, the other unknown: nothing proven yet.
    t.node(5).proven.store(LOSS, Ordering::Relaxed);
    solve_path(&t, &[0, 2, 5]);
    assert_eq!(t.node(2).proven(), UNPROVEN);
    // Both replies lost: moving into 2 wins.
    t.node(6).proven.store(LOSS, Ordering::Relaxed);
    solve_path(&t, &[0, 2, 6]);
    assert_eq!(t.node(2).proven(), WIN);
    assert_eq!(t.node(0).proven(), UNPROVEN, "the root is never marked");
}

#[test]
fn the_root_is_decided_by_a_proven_win_or_by_every_move_proven_lost() {
    let t = tree();
    assert!(!root_decided(&t));
    t.node(1).proven.store(LOSS, Ordering::Relaxed);
    assert!(!root_decided(&t));
    t.node(2).proven.store(LOSS, Ordering::Relaxed);
    assert!(root_decided(&t));
    t.node(2).proven.store(WIN, Ordering::Relaxed);
    assert!(root_decided(&t));
}

#[test]
fn the_root_ranks_proven_wins_first_and_proven_losses_last_whatever_the_visits() {
    let t = tree();
    t.node(1).visits.store(900, Ordering::Relaxed);
    t.node(2).visits.store(10, Ordering::Relaxed);
    assert_eq!(ranked(&t), vec![1, 2]);
    t.node(1).proven.store(LOSS, Ordering::Relaxed);
    assert_eq!(ranked(&t), vec![2, 1]);
    t.node(1).proven.store(UNPROVEN, Ordering::Relaxed);
    t.node(2).proven.store(WIN, Ordering::Relaxed);
    assert_eq!(ranked(&t), vec![2, 1]);
}

#[test]
fn selection_takes_a_proven_win_and_avoids_a_proven_loss() {
    let t = visited_tree();
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.0)), Some(1));
    t.node(1).proven.store(LOSS, Ordering::Relaxed);
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.0)), Some(2));
    t.node(1).proven.store(UNPROVEN, Ordering::Relaxed);
    t.node(2).proven.store(WIN, Ordering::Relaxed);
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.0)), Some(2));
}

#[test]
fn a_leaf_value_climbs_by_minimax_and_stops_where_nothing_changes() {
    let t = tree();
    // Node 3's mover (1) gets 0.8 there: moving into 1 is worth 0.2 to its mover (0).
    back_up_value(&t, &[0, 1, 3], 0.8);
    assert_eq!(t.node(1).value(), Some(1.0 - 0.8f32));
    // A worse reply for seat 1 does not change seat 1's best: node 1 keeps 0.2.
    back_up_value(&t, &[0, 1, 4], 0.3);
    assert_eq!(t.node(4).value(), Some(0.3f32));
    assert_eq!(t.node(1).value(), Some(1.0 - 0.8f32));
    // A better one does: 0.9 for seat 1 leaves 1 − 0.9 for seat 0.
    back_up_value(&t, &[0, 1, 4], 0.9);
    assert_eq!(t.node(1).value(), Some(1.0 - 0.9f32));
    back_up_value(&t, &[0, 2, 5], 0.1);
    assert_eq!(t.node(2).value(), Some(1.0 - 0.1f32));
    assert_eq!(t.node(0).value(), None, "the root keeps no value");
}

#[test]
fn selection_mixes_in_the_minimax_value_and_widens_in_priority_order() {
    let t = visited_tree();
    back_up_value(&t, &[0, 1, 3], 1.0);
    back_up_value(&t, &[0, 2, 5], 0.0);
    // Means 0.8 and 0.2; minimax values 0 and 1.
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.0)), Some(1));
    assert_eq!(pick(&t, knobs(0.5, 0.2, 0.0)), Some(1));
    assert_eq!(pick(&t, knobs(0.5, 0.9, 0.0)), Some(2));
    // A window of one child: the first in the list (2), unless it is proven lost.
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.01)), Some(2));
    t.node(2).proven.store(LOSS, Ordering::Relaxed);
    assert_eq!(pick(&t, knobs(0.5, 0.0, 0.01)), Some(1));
}

/// Chess on one board, White to move with two captures (the queen, then the knight) among
/// many quiet moves, and its legal moves.
fn two_captures() -> (
    crate::games::hyperchess::Hyperchess,
    Vec<crate::games::hyperchess::Move>,
) {
    use crate::game::RuleOptions;
    use crate::games::hyperchess::Hyperchess;
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let g = Hyperchess::from_text("4k3/8/8/3q4/8/8/n2R4/4K3 w - - 0 1", &opts).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    (g, moves)
}

#[test]
fn widening_creates_children_in_priority_order_as_the_window_admits_them() {
    let (g, moves) = two_captures();
    let t: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    assert!(widen(
        &t,
        0,
        &g,
        &moves,
        FIRST_CHILDREN,
        Order::hand(),
        &mut WidenScratch::default()
    ));
    let kids = |t: &Tree<_>| -> Vec<_> { t.children(0).map(|c| t.node(c).mv().unwrap()).collect() };
    let first = kids(&t);
    assert_eq!(first.len(), 2);
    let victims: Vec<_> = first.iter().map(|&m| g.move_priority(m)).collect();
    assert!(victims[0] > victims[1] && victims[1] > 0, "{victims:?}");
    assert!(!t.node(0).complete());
    // Growing appends the next moves after the existing ones, never a move twice, until
    // every legal move has its child.
    while widen(
        &t,
        0,
        &g,
        &moves,
        3,
        Order::hand(),
        &mut WidenScratch::default(),
    ) {}
    let all = kids(&t);
    assert_eq!(&all[..2], &first[..]);
    assert_eq!(all.len(), moves.len());
    let distinct: FxHashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), all.len());
    assert!(t.node(0).complete());
    assert!(
        !widen(
            &t,
            0,
            &g,
            &moves,
            3,
            Order::hand(),
            &mut WidenScratch::default()
        ),
        "a complete node does not grow"
    );
}

/// Children are walked by index within each run appended at once and by link between runs:
/// two nodes widened in turn (their runs interleaved in the arena) list the same children, in
/// the same order, as each widened alone.
#[test]
fn children_interleaved_in_the_arena_keep_their_order() {
    let (g, moves) = two_captures();
    let kids = |t: &Tree<_>, n: u32| -> Vec<_> {
        t.children(n).map(|c| t.node(c).mv().unwrap()).collect()
    };
    let s = &mut WidenScratch::default();
    // Alone: the root, then (in a tree of its own) the position after the first move.
    let alone: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    while widen(&alone, 0, &g, &moves, 3, Order::hand(), s) {}
    let mut after = g.clone();
    after.play(kids(&alone, 0)[0]);
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    let alone_after: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    while widen(&alone_after, 0, &after, &replies, 3, Order::hand(), s) {}
    // In turn: the root's first child (the same first move) widened between the root's runs.
    let t: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    assert!(widen(&t, 0, &g, &moves, 3, Order::hand(), s));
    let first = t.children(0).next().unwrap();
    loop {
        let a = widen(&t, first, &after, &replies, 2, Order::hand(), s);
        let b = widen(&t, 0, &g, &moves, 3, Order::hand(), s);
        if !a && !b {
            break;
        }
    }
    assert_eq!(kids(&t, 0), kids(&alone, 0));
    assert_eq!(kids(&t, first), kids(&alone_after, 0));
    assert_eq!(kids(&t, 0).len(), moves.len());
    assert_eq!(kids(&t, first).len(), replies.len());
}

#[test]
fn a_node_whose_children_are_not_all_created_is_not_proven_won() {
    let t = tree();
    t.node(2).widened.store(2, Ordering::Relaxed);
    t.node(5).proven.store(LOSS, Ordering::Relaxed);
    t.node(6).proven.store(LOSS, Ordering::Relaxed);
    solve_path(&t, &[0, 2, 6]);
    assert_eq!(
        t.node(2).proven(),
        UNPROVEN,
        "moves without a child may not lose"
    );
}

#[test]
fn the_leaf_search_plays_out_a_hanging_capture_and_a_recapture() {
    use crate::game::RuleOptions;
    use crate::games::hyperchess::Hyperchess;
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let mut bufs = PlyBufs::new(5);
    // White to move takes the black queen on d5 for nothing.
    let free = Hyperchess::from_text("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", &opts).unwrap();
    let stand = free.evaluate(0);
    let q = leaf_value(&free, 4, &mut bufs, None);
    assert!(q > stand + 500, "stand {stand}, after the capture {q}");
    // The queen on d5 is guarded by a pawn: taking it with the rook wins queen for rook.
    let guarded = Hyperchess::from_text("4k3/8/4p3/3q4/8/8/3R4/4K3 w - - 0 1", &opts).unwrap();
    let g = leaf_value(&guarded, 4, &mut bufs, None);
    assert!(
        g > guarded.evaluate(0) + 200 && g < q,
        "guarded {g}, free {q}"
    );
    // With no plies to search, the leaf search is the evaluation.
    assert_eq!(leaf_value(&free, 0, &mut bufs, None), stand);
    // The rewards are the win probabilities of the side to move's value.
    let r = quiescence_rewards(&free, 4, &mut bufs, crate::search::Valuer::HAND);
    assert!(r[0] > 0.9 && (r[0] + r[1] - 1.0).abs() < 1e-6, "{r:?}");
}

/// A win found by the leaf search outranks any material lead: here the side to move stands at
/// +45,000 (what a 3x3 hyperchess army can be worth) and also has a capture that wins the game;
/// the leaf's value must be the win's, beyond every evaluation.
#[test]
fn the_leaf_search_ranks_a_win_above_any_material_lead() {
    use crate::search::deepening::{EVAL_LIMIT, MATE};
    use crate::search::tests::tree_game::Builder;
    let mut b = Builder::default();
    let leaf = b.node(0, 45_000);
    let win = b.won(0);
    let more = b.leaf(1, 45_000);
    b.noisy(leaf, more).noisy(leaf, win);
    let g = b.start();
    let mut bufs = PlyBufs::new(5);
    let q = leaf_value(&g, 4, &mut bufs, None);
    assert!(q > EVAL_LIMIT, "{q}");
    assert_eq!(q, MATE - 1);
}

fn knobs(c: f64, minimax: f64, widening: f64) -> Knobs {
    Knobs {
        c,
        minimax,
        widening,
        puct: 0.0,
    }
}

/// A hyperchess 1x1 position and a policy that likes king moves best (the king is on e1), then
/// rook moves (d2).
fn king_policy() -> (
    crate::games::hyperchess::Hyperchess,
    Vec<crate::games::hyperchess::Move>,
    crate::learn::policy::Policy,
) {
    use crate::games::hyperchess::Hyperchess;
    use crate::learn::policy::{Policy, PolicyHeader};
    let opts = crate::game::RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let g = Hyperchess::from_text("4k3/8/8/3q4/8/8/n2R4/4K3 w - - 0 1", &opts).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mover = |m| match &g.format_move(m)[..2] {
        "e1" => 'K',
        "d2" => 'R',
        _ => '?',
    };
    let n = g.move_feature_count();
    let mut weights = vec![0.0; n];
    let mut feats = Vec::new();
    for &m in &moves {
        feats.clear();
        g.move_features(m, &mut feats);
        let w = match mover(m) {
            'K' => 3.0,
            'R' => 1.0,
            _ => 0.0,
        };
        // The first feature is the mover's kind on its destination: specific to the mover.
        weights[feats[0] as usize] = w;
    }
    let policy = Policy {
        header: PolicyHeader {
            game: "hyperchess".into(),
            features: g.move_feature_set().unwrap(),
            inputs: n as u32,
            hidden: 0,
            note: String::new(),
        },
        weights,
    };
    assert!(policy.fits(&g).is_ok());
    (g, moves, policy)
}

/// With a policy, a node widens in the order of its priors (each child keeps its prior), and
/// selection's prior term prefers, among children of equal statistics, the likelier move.
#[test]
fn a_policy_orders_the_widening_and_biases_selection() {
    let (g, moves, policy) = king_policy();
    let mover = |m| match &g.format_move(m)[..2] {
        "e1" => 'K',
        "d2" => 'R',
        _ => '?',
    };
    let t: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    let mut scratch = WidenScratch::default();
    assert!(widen(
        &t,
        0,
        &g,
        &moves,
        3,
        Order::of(&policy),
        &mut scratch
    ));
    let kids: Vec<u32> = t.children(0).collect();
    let priors: Vec<f32> = kids.iter().map(|&c| t.node(c).prior).collect();
    assert!(priors.windows(2).all(|w| w[0] >= w[1]), "{priors:?}");
    assert!(kids.iter().all(|&c| mover(t.node(c).mv().unwrap()) == 'K'));
    while widen(&t, 0, &g, &moves, 3, Order::of(&policy), &mut scratch) {}
    let sum: f32 = t.children(0).map(|c| t.node(c).prior).sum();
    assert!((sum - 1.0).abs() < 1e-4, "priors sum to {sum}");
    // Every child visited once with the same reward: UCB alone takes the first; with the prior
    // term, still the first (the likeliest); make the last child the likeliest and it wins.
    let all: Vec<u32> = t.children(0).collect();
    for &c in &all {
        t.node(c).visits.store(1, Ordering::Relaxed);
        t.node(c)
            .reward_sum
            .store((0.5 * SCALE) as u64, Ordering::Relaxed);
    }
    t.node(0).visits.store(all.len() as u32, Ordering::Relaxed);
    let mut k = knobs(0.5, 0.0, 0.0);
    assert_eq!(pick(&t, k), Some(all[0]));
    // The last child (a rook move) has a lesser prior than the first (a king move): a slightly
    // better reward makes UCB alone take it, but not with the prior term.
    k.puct = 2.0;
    assert_eq!(pick(&t, k), Some(all[0]));
    let last = *all.last().unwrap();
    t.node(last)
        .reward_sum
        .store((0.51 * SCALE) as u64, Ordering::Relaxed);
    assert_eq!(pick(&t, k), Some(all[0]));
    k.puct = 0.0;
    assert_eq!(pick(&t, k), Some(last));
}

/// With `noisy_first` (hyperchess), captures widen first in `move_priority` order (the queen,
/// then the knight), then the quiet moves in the policy's order; every child keeps its prior,
/// except the noisy ones made before the priors were needed.
#[test]
fn noisy_moves_widen_first_then_the_policy_orders_the_rest() {
    let (g, moves, policy) = king_policy();
    let mut priors = Vec::new();
    policy.priors(&g, &moves, &mut Vec::new(), &mut priors);
    let prior_of = |m| priors[moves.iter().position(|&x| x == m).unwrap()];
    let t: Tree<crate::games::hyperchess::Move> = Tree::new(1, false);
    let mut scratch = WidenScratch::default();
    while widen(
        &t,
        0,
        &g,
        &moves,
        3,
        Order {
            policy: Some(&policy),
            noisy_first: true,
        },
        &mut scratch,
    ) {}
    let kids: Vec<_> = t.children(0).map(|c| t.node(c)).collect();
    let names: Vec<String> = kids
        .iter()
        .map(|n| g.format_move(n.mv().unwrap()))
        .collect();
    assert_eq!(&names[..2], ["d2d5", "d2a2"], "{names:?}");
    assert!(
        names[2..].iter().take(4).all(|m| m.starts_with("e1")),
        "{names:?}"
    );
    assert_eq!(kids.len(), moves.len());
    for n in &kids {
        assert_eq!(n.prior, prior_of(n.mv().unwrap()));
    }
    let quiet: Vec<f32> = kids[2..].iter().map(|n| n.prior).collect();
    assert!(quiet.windows(2).all(|w| w[0] >= w[1]), "{quiet:?}");
    // While the moves to add are all noisy, the priors are not computed: the two captures
    // first (no prior yet, none stored), then the same order as above.
    let t: Tree<crate::games::hyperchess::Move> = Tree::new(1, true);
    let mut scratch = WidenScratch::default();
    let order = Order {
        policy: Some(&policy),
        noisy_first: true,
    };
    assert!(widen(
        &t,
        0,
        &g,
        &moves,
        FIRST_CHILDREN,
        order,
        &mut scratch
    ));
    assert!(t.stored_priors(0, moves.len()).is_none());
    assert!(t.children(0).all(|c| t.node(c).prior == 0.0));
    assert!(widen(&t, 0, &g, &moves, 3, order, &mut scratch));
    assert!(t.stored_priors(0, moves.len()).is_some());
    while widen(&t, 0, &g, &moves, 3, order, &mut scratch) {}
    let again: Vec<String> = t
        .children(0)
        .map(|c| g.format_move(t.node(c).mv().unwrap()))
        .collect();
    assert_eq!(again, names);
}

/// A node's priors are computed at its first widening and stored in the tree, so that another
/// thread widening it later (a scratch of its own) reads them: it goes on in the first
/// widening's order, with its priors, even when its own policy would say otherwise, and the
/// node ends with the children, order and priors of one thread widening it alone with no store
/// (its own cache).
#[test]
fn later_widenings_read_the_priors_stored_in_the_tree() {
    let (g, moves, policy) = king_policy();
    let children = |t: &Tree<_>| -> Vec<_> {
        t.children(0)
            .map(|c| (t.node(c).mv().unwrap(), t.node(c).prior))
            .collect()
    };
    let alone = Tree::new(1, false);
    let mut scratch = WidenScratch::default();
    while widen(&alone, 0, &g, &moves, 3, Order::of(&policy), &mut scratch) {}
    assert!(alone.stored_priors(0, moves.len()).is_none());
    let shared = Tree::new(1, true);
    let mut first = WidenScratch::default();
    assert!(widen(
        &shared,
        0,
        &g,
        &moves,
        3,
        Order::of(&policy),
        &mut first
    ));
    let stored = shared
        .stored_priors(0, moves.len())
        .expect("stored")
        .to_vec();
    let priors = |p: &crate::learn::policy::Policy| {
        let mut out = Vec::new();
        p.priors(&g, &moves, &mut Vec::new(), &mut out);
        out
    };
    assert_eq!(stored, priors(&policy));
    assert!(
        shared.stored_priors(0, moves.len() - 1).is_none(),
        "another count"
    );
    // A policy that prefers the other moves: not asked again.
    let mut other = policy.clone();
    other.weights.iter_mut().for_each(|w| *w = -*w);
    assert_ne!(priors(&other), stored);
    while widen(
        &shared,
        0,
        &g,
        &moves,
        3,
        Order::of(&other),
        &mut WidenScratch::default(),
    ) {}
    assert_eq!(children(&shared), children(&alone));
    assert_eq!(children(&shared).len(), moves.len());
}

#[test]
fn rank_range_is_the_stable_sort_by_key() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for n in [1usize, 2, 3, 7, 40, 300] {
        for _ in 0..20 {
            // Few distinct keys, so that ties abound.
            let keys: Vec<(f32, u32, u16)> = (0..n)
                .map(|i| (rng.random_range(0..6) as f32, i as u32, i as u16))
                .collect();
            let mut sorted = keys.clone();
            sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
            // A new node's first children (picked in one pass), then any later range.
            let lo = rng.random_range(0..=n);
            let ranges = [(0, 1), (0, 2), (lo, lo + rng.random_range(0..=n))];
            for (lo, hi) in ranges {
                let mut got = keys.clone();
                rank_range(&mut got, lo, hi);
                let hi = hi.min(n);
                if lo < hi {
                    assert_eq!(got[lo..hi], sorted[lo..hi], "n {n} lo {lo} hi {hi}");
                }
                let mut all = got.clone();
                all.sort_by_key(|e| e.1);
                assert_eq!(all, keys, "a permutation");
            }
        }
    }
}

/// A node takes one cache line in the games with move policies: their moves are 4 bytes with no
/// spare value, so `Option<Move>` takes 8, and the node fills its 64 bytes exactly (the store's
/// place in each node, 4 bytes, was the last room).
#[test]
fn a_node_is_one_cache_line() {
    use super::tree::Node;
    assert_eq!(
        std::mem::align_of::<Node<crate::games::threechess::Move>>(),
        64
    );
    assert_eq!(
        std::mem::size_of::<Node<crate::games::threechess::Move>>(),
        64
    );
    assert_eq!(
        std::mem::size_of::<Node<crate::games::hyperchess::Move>>(),
        64
    );
}

/// A thread's own counts: with hidden information its visits and rewards at the top of the tree
/// steer its own selection at once and reach the tree's (the other threads') when the batch is
/// flushed; otherwise only the root's visits wait, every other count goes to the tree at once.
#[test]
fn a_threads_own_counts_steer_it_at_once_and_the_tree_after_the_batch() {
    let t = visited_tree();
    let k = knobs(0.0, 0.0, 0.0);
    let mut own = OwnCounts::new(true);
    // 200 lost playouts through node 1 (mean 0.8 over 50): 40 / 250 = 0.16, below node 2's 0.2.
    for i in 0..200 {
        assert_eq!(own.visit(&t, 1), 50 + i);
        own.reward(&t, 1, 0);
        own.visit(&t, 0);
    }
    own.reward(&t, 2, SCALE as u64);
    assert_eq!(select(&t, 0, None, false, k, Some(&mut own)).0, Some(2));
    assert_eq!(pick(&t, k), Some(1));
    assert_eq!(t.node(1).visits.load(Ordering::Relaxed), 50);
    own.flush(&t);
    assert_eq!(t.node(0).visits.load(Ordering::Relaxed), 300);
    assert_eq!(t.node(1).visits.load(Ordering::Relaxed), 250);
    assert_eq!(
        t.node(2).reward_sum.load(Ordering::Relaxed),
        (11.0 * SCALE) as u64
    );
    assert_eq!(pick(&t, k), Some(2));
    // Flushed counts are not added twice.
    own.flush(&t);
    assert_eq!(t.node(1).visits.load(Ordering::Relaxed), 250);
    assert_eq!(select(&t, 0, None, false, k, Some(&mut own)).0, Some(2));

    // Perfect information: node 1's visits go to the tree at once, the root's wait.
    let t = visited_tree();
    let mut own = OwnCounts::new(false);
    assert_eq!(own.visit(&t, 1), 50);
    own.reward(&t, 1, SCALE as u64);
    own.visit(&t, 0);
    assert_eq!(t.node(1).visits.load(Ordering::Relaxed), 51);
    assert_eq!(
        t.node(1).reward_sum.load(Ordering::Relaxed),
        (41.0 * SCALE) as u64
    );
    assert_eq!(t.node(0).visits.load(Ordering::Relaxed), 100);
    own.flush(&t);
    assert_eq!(t.node(0).visits.load(Ordering::Relaxed), 101);
}
