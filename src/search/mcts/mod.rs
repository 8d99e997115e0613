//! Parallel Monte-Carlo tree search over one shared tree.
//!
//! - The tree lives in a node arena allocated up front and bounded by `Hash`; when it is full the
//!   search goes on without growing the tree (leaves are still scored).
//! - Statistics are atomics (visits, fixed-point reward sum), so worker threads
//!   (a rayon pool, one per `Threads`) descend the same tree without locks; a node's child list is
//!   a linked list that is only appended to, under a per-node flag that a busy thread never waits
//!   for in perfect-information games. A descent counts its visit on the way down and adds its
//!   reward on the way up: a visit under way is a loss until then, the virtual loss that steers
//!   the other threads elsewhere, at two atomic writes a node instead of four. The lines every
//!   descent shares are written in batches: each thread adds its root visits (and, with hidden
//!   information, its visits and rewards at the top of the tree) every 16 iterations
//!   ([`OwnCounts`]).
//! - A new leaf is scored by a cut-off rollout: `rollout_plies` random moves, then the game's
//!   evaluation turned into per-seat win probabilities (or the real result if the game ended).
//! - MCTS-solver (Winands, Björnsson & Saito 2008), for two seats with perfect information: when
//!   a node is expanded its noisy moves (captures and the like) are tried for an immediate win;
//!   one proves the node lost for the side that moved into it. Proofs climb the path after each
//!   descent (a winning reply proves the move lost; replies all lost prove it won); selection
//!   takes proven wins and avoids proven losses, and the root ranks them first and last.
//!   Without it, plain UCT hung its Tesseract among a thousand drops in most tesseract games.
//! - Implicit minimax backups (Lanctot, Winands, Pepels & Sturtevant 2014), same games: a new
//!   leaf keeps the evaluation's win probability, each node on the path the best of its scored
//!   children's, and selection mixes that value into the mean reward (`MinimaxWeight`).
//! - Progressive widening (`Widening`), perfect information with any number of seats: a node
//!   considers its moves in `move_priority` order, more of them as its visits grow, and a move
//!   gets its node only when the window admits it (below the root; the root is widened too
//!   unless the game says otherwise, `WidenRoot`). Against alpha-beta at 100 ms in
//!   rithmomachia: 5% → 28%; chess for three against two Best-Reply Searches: a reward share
//!   of 0.070 → 0.184, and with its move policy's order half as wide (the game's factor, 5)
//!   0.481 against 0.303 on the same 72 games.
//! - Leaf search (`LeafSearch`), two seats with perfect information: a new leaf is scored by a
//!   short captures-only search (quiescence) instead of a rollout, so that an exchange in
//!   progress is played out before the evaluation speaks. Hyperchess at 100 ms: it beat the
//!   rollout 10–0.
//! - Rewards are per seat; each node keeps the reward of the seat that made the move into it, so
//!   2–4 seats each maximise their own.
//! - Hidden information (tesseris): single-observer ISMCTS (Cowling, Powley & Whitehouse 2012).
//!   Every iteration plays on a fresh determinization of the root for the seat to move; a node's
//!   children are the moves seen so far, selection only considers those legal in the current
//!   determinization, and UCB uses their availability counts instead of the parent's visits.
//!
//! Layout: this file holds the entry (`search`), the worker loop and one iteration (`iterate`:
//! descent, expansion, leaf, backup); `tree.rs` the nodes, the arena and progressive widening;
//! `select.rs` UCB selection; `leaf.rs` the rollout and the leaf search; `backup.rs` the solver's
//! proofs and the implicit minimax backup; `report.rs` the root's ranking and the reported lines;
//! `ismcts.rs` what only hidden information needs; `tests.rs` the unit tests.

mod backup;
mod ismcts;
mod leaf;
mod report;
mod select;
#[cfg(test)]
mod tests;
mod tree;

use self::backup::{back_up_value, mark_decisive, root_decided, solve_path};
use self::ismcts::{add_missing_children, candidates};
use self::leaf::{quiescence_rewards, rollout};
use self::report::{best_child, report};
use self::select::{select, Knobs, OwnCounts};
use self::tree::{
    widen, Padded, Tree, WidenScratch, COMPLETE, FIRST_CHILDREN, LOSS, SCALE, UNPROVEN, WIN,
};
use super::{Context, Event, Outcome, Tuning, Valuer};
use crate::game::{rng_from_seed, Game, GameRng, Seat, Status};
use crate::search::quiesce::PlyBufs;
use fxhash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

/// Shared state of one search.
struct Shared<'a, G: Game> {
    root: &'a G,
    tree: Tree<G::Move>,
    ctx: &'a Context<'a>,
    /// The evaluation and the scale that make a position's rewards.
    valuer: Valuer<'a>,
    /// Written by every thread (in batches): on lines of their own.
    iterations: Padded<AtomicU64>,
    depth_sum: Padded<AtomicU64>,
    seldepth: Padded<AtomicU32>,
    done: AtomicBool,
    /// The root moves to search (`searchmoves`), when not every legal move.
    root_only: Option<Vec<G::Move>>,
    /// A root move that wins on the spot, played whatever the visit counts say.
    win: Option<G::Move>,
    rollout_plies: usize,
    /// MCTS-solver on (two seats, perfect information).
    solver: bool,
    /// Nodes this deep are scored as leaves, never expanded.
    tree_depth: usize,
    exploration: f64,
    /// Weight of the implicit minimax value in selection (0 = off).
    minimax: f64,
    /// Progressive widening factor (0 = every child is considered).
    widening: f64,
    /// Whether the widening applies at the root too.
    widen_root: bool,
    /// Plies of captures-only search that score a new leaf instead of a rollout (0 = off).
    leaf_search: usize,
    /// The learned move policy (`Policy net`, perfect information, any number of seats): the order
    /// of widening and the priors.
    policy: Option<&'a crate::learn::policy::Policy>,
    /// Weight of the prior in selection (0 = the policy orders the moves only).
    puct: f64,
    /// With the policy, captures and promotions still widen first, in `move_priority` order.
    noisy_first: bool,
}

impl<G: Game> Shared<'_, G> {
    /// The order nodes widen in.
    fn order(&self) -> tree::Order<'_> {
        tree::Order {
            policy: self.policy,
            noisy_first: self.noisy_first,
        }
    }
}

/// Runs MCTS (ISMCTS for hidden-information games) on `root` within the context's limits,
/// considering the root moves `moves` (legal, not empty).
pub fn search<G: Game>(root: &G, ctx: &Context, moves: &[G::Move]) -> Outcome<G::Move> {
    if let Some(o) = convert_decided(root, ctx, moves) {
        return o;
    }
    let mut all = Vec::new();
    root.legal_moves(&mut all);
    let informed = !G::hidden_information() && root.players() == 2;
    let tuning = Tuning::of::<G>();
    let widening = ctx.params.widening.unwrap_or(tuning.widening);
    let shared = Shared {
        root,
        // The store of priors serves later widenings: none without widening.
        tree: Tree::new(
            ctx.params.hash_mb,
            ctx.policy.is_some() && !G::hidden_information() && widening > 0,
        ),
        ctx,
        valuer: Valuer::of::<G>(ctx),
        iterations: Padded(AtomicU64::new(0)),
        depth_sum: Padded(AtomicU64::new(0)),
        seldepth: Padded(AtomicU32::new(0)),
        done: AtomicBool::new(false),
        // (With hidden information the legal moves differ between deals: keep the filter.)
        root_only: (moves.len() < all.len() || !ctx.limits.searchmoves.is_empty())
            .then(|| moves.to_vec()),
        win: immediate_win(root, moves),
        rollout_plies: ctx
            .params
            .rollout_plies
            .unwrap_or_else(|| root.default_rollout_plies(tuning.rollout_plies)),
        solver: informed,
        tree_depth: match ctx.params.tree_depth.unwrap_or(tuning.tree_depth) {
            0 => usize::MAX,
            d => d,
        },
        exploration: match ctx.params.exploration {
            Some(c) => c as f64 / 100.0,
            None => tuning.exploration as f64,
        },
        minimax: if informed {
            ctx.params.minimax_weight.unwrap_or(tuning.minimax_weight) as f64 / 100.0
        } else {
            0.0
        },
        // Any number of seats: chess for three's MCTS took a reward share of 0.184 against two
        // Best-Reply Searches with it, 0.070 without (48 games, docs/results.md 2026-12-05
        // (late night)).
        widening: if !G::hidden_information() {
            widening as f64 / 10.0
        } else {
            0.0
        },
        widen_root: ctx.params.widen_root.unwrap_or(tuning.widen_root),
        leaf_search: if informed {
            ctx.params.leaf_search.unwrap_or(tuning.leaf_search)
        } else {
            0
        },
        policy: ctx.policy.filter(|_| !G::hidden_information()),
        puct: ctx.params.policy_weight.unwrap_or(tuning.policy_weight) as f64 / 100.0,
        noisy_first: tuning.policy_noisy_first,
    };
    let threads = ctx.params.threads.max(1);
    if threads == 1 {
        worker(&shared, 0);
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => {
                pool.broadcast(|b| worker(&shared, b.index()));
            }
            Err(e) => {
                (ctx.events)(Event::Problem(&format!(
                    "cannot start {} threads ({}); searching with one",
                    threads, e
                )));
                worker(&shared, 0);
            }
        }
    }
    let win = shared.win;
    let report = report(&shared, win);
    ctx.report(&report);
    if G::hidden_information() {
        candidates(&shared);
    }
    // A move that wins on the spot is played, whatever the visit counts say (a slower win can
    // gather as many visits).
    // Never answer without a move while there is one (a stop before the first iteration).
    let best = win
        .or_else(|| best_child(&shared.tree).and_then(|c| shared.tree.node(c).mv()))
        .or_else(|| moves.first().copied());
    let nodes = shared.iterations.load(Ordering::Relaxed);
    // The tree can be large: free it on another thread, after the answer.
    let tree = shared.tree;
    std::thread::spawn(move || drop(tree));
    Outcome {
        best,
        nodes,
        report: Some(report),
    }
}

/// The note MCTS gives when it hands a decided position to alpha-beta ([`convert_decided`]):
/// what follows is alpha-beta's search (its depths and nodes), which a reader labels so.
pub const HANDED_TO_ALPHABETA: &str = "decided position: alpha-beta plays it out";

/// Sampling rarely finds the one mating line among hundreds of moves, so a decided position can
/// be won for ever without being finished: 3 of 20 hyperchess games against a random mover
/// reached the ply limit a full army up (evaluation +40,000), and a 50 ms proof search found no
/// forced mate there either. Alpha-beta, steered by the evaluation's king-zone term, mated in 20
/// of 20. So in two-player games of perfect information, under a time limit, once the evaluation
/// gives the mover at least 99.9% the move is handed to alpha-beta (an `info string` says so).
fn convert_decided<G: Game>(
    root: &G,
    ctx: &Context,
    moves: &[G::Move],
) -> Option<Outcome<G::Move>> {
    if G::hidden_information() || root.players() != 2 || !ctx.timed() {
        return None;
    }
    let mover = root.to_move();
    if Valuer::of::<G>(ctx).rewards(root)[mover] < 0.999 {
        return None;
    }
    ctx.note(HANDED_TO_ALPHABETA);
    Some(super::alphabeta::search(root, ctx, moves))
}

/// One of `moves` after which the mover has won, for perfect-information games.
fn immediate_win<G: Game>(root: &G, moves: &[G::Move]) -> Option<G::Move> {
    if G::hidden_information() {
        return None;
    }
    moves.iter().copied().find(|&m| {
        let mut s = root.clone();
        s.play(m);
        matches!(s.status(), Status::Over(o) if o.winner() == Some(root.to_move()))
    })
}

/// ISMCTS's per-thread record of the moves legal in a deal: the set of the node being selected
/// in, and the root's list of the last iteration with its count of children when every child
/// was legal and every legal move a child (`usize::MAX` when not).
struct Available<M> {
    set: FxHashSet<M>,
    root: Vec<M>,
    root_children: usize,
}

impl<M> Default for Available<M> {
    fn default() -> Self {
        Available {
            set: FxHashSet::default(),
            root: Vec::new(),
            root_children: usize::MAX,
        }
    }
}

fn worker<G: Game>(sh: &Shared<G>, index: usize) {
    let params = sh.ctx.params;
    let mut rng = rng_from_seed(params.seed.wrapping_add(0x9E37_79B9 * index as u64));
    let mut moves: Vec<G::Move> = Vec::new();
    let mut buf: Vec<G::Move> = Vec::new();
    let mut path: Vec<u32> = Vec::with_capacity(256);
    let mut legal: Available<G::Move> = Available::default();
    let mut qbufs: PlyBufs<G> = PlyBufs::new(sh.leaf_search + 1);
    let mut scratch: WidenScratch<G::Move> = WidenScratch::default();
    let mut last_report = Instant::now();
    let mut last_publish = Instant::now();
    let mut reported = false;
    let observer = sh.root.to_move();
    // Counters are kept per thread and added to the shared ones in batches (every iteration with
    // one thread, so that node limits stay exact and reproducible): the shared cache lines would
    // otherwise bounce between cores at every iteration.
    let batch = if sh.ctx.params.threads > 1 { 16 } else { 1 };
    let (mut local_iterations, mut local_depth, mut local_seldepth, mut done_here) =
        (0u64, 0u64, 0u32, 0u64);
    let mut own = OwnCounts::new(G::hidden_information());
    let flush = |n: &mut u64, d: &mut u64, sd: &mut u32, oc: &mut OwnCounts| {
        // The tree's counts, then the iteration count (reports read both; with relaxed order a
        // report may see them a batch apart, as it sees descents under way).
        oc.flush(&sh.tree);
        sh.iterations.fetch_add(*n, Ordering::Relaxed);
        sh.depth_sum.fetch_add(*d, Ordering::Relaxed);
        sh.seldepth.fetch_max(*sd, Ordering::Relaxed);
        *n = 0;
        *d = 0;
    };
    loop {
        // The first iteration always runs, so that the root has a scored child to play.
        let started = done_here > 0;
        if started && (sh.done.load(Ordering::Relaxed) || sh.ctx.stopped()) {
            break;
        }
        if let Some(n) = sh.ctx.limits.nodes {
            if sh.iterations.load(Ordering::Relaxed) + local_iterations >= n {
                sh.done.store(true, Ordering::Relaxed);
                break;
            }
        }
        if started && done_here % 16 == 0 {
            let now = Instant::now();
            // The hard limit too: under `movetime` the soft limit is the hard one, and the
            // search stops a little before it (`time::own_stop`) so that its own answer, with
            // its last `info`, comes before the watchdog's (as alpha-beta and BRS do).
            if sh.ctx.past_soft() || sh.ctx.past_hard() {
                sh.done.store(true, Ordering::Relaxed);
                break;
            }
            if index == 0
                && sh.ctx.wants_best()
                && now.duration_since(last_publish).as_millis() >= 2
            {
                last_publish = now;
                if let Some(m) = sh
                    .win
                    .or_else(|| best_child(&sh.tree).and_then(|c| sh.tree.node(c).mv()))
                {
                    sh.ctx.publish(sh.root.format_move(m));
                }
            }
            // A first line after 100 ms, then one a second.
            let every = if reported { 1000 } else { 100 };
            if index == 0 && now.duration_since(last_report).as_millis() >= every {
                reported = true;
                last_report = now;
                sh.ctx.report(&report(sh, None));
            }
        }
        if let Some(d) = sh.ctx.limits.max_depth() {
            let n = sh.iterations.load(Ordering::Relaxed);
            // A full tree stops deepening, and a capped one never passes its cap: then the
            // depth asked for may never come, and depth N means N × 1000 iterations instead.
            let reached = if d as usize > sh.tree_depth {
                n >= d as u64 * 1000
            } else {
                n >= 64
                    && (sh.depth_sum.load(Ordering::Relaxed) / n >= d as u64 || sh.tree.is_full())
            };
            if reached {
                sh.done.store(true, Ordering::Relaxed);
                break;
            }
        }
        let depth = iterate(
            sh,
            observer,
            &mut rng,
            &mut moves,
            &mut buf,
            &mut path,
            &mut legal,
            &mut qbufs,
            &mut scratch,
            &mut own,
        );
        done_here += 1;
        local_iterations += 1;
        local_depth += depth as u64;
        local_seldepth = local_seldepth.max(depth);
        if local_iterations >= batch {
            flush(
                &mut local_iterations,
                &mut local_depth,
                &mut local_seldepth,
                &mut own,
            );
        }
    }
    flush(
        &mut local_iterations,
        &mut local_depth,
        &mut local_seldepth,
        &mut own,
    );
}

/// One descent, leaf evaluation and backup.
#[allow(clippy::too_many_arguments)]
fn iterate<G: Game>(
    sh: &Shared<G>,
    observer: Seat,
    rng: &mut GameRng,
    moves: &mut Vec<G::Move>,
    buf: &mut Vec<G::Move>,
    path: &mut Vec<u32>,
    legal: &mut Available<G::Move>,
    qbufs: &mut PlyBufs<G>,
    scratch: &mut WidenScratch<G::Move>,
    own: &mut OwnCounts,
) -> u32 {
    let tree = &sh.tree;
    let hidden = G::hidden_information();
    let c = sh.exploration;
    let mut state = if hidden {
        sh.root.determinize(observer, rng)
    } else {
        sh.root.clone()
    };
    path.clear();
    path.push(0);
    let mut node = 0u32;
    // Whether `node` had no visit before this descent (a new leaf).
    let mut fresh = false;
    let minimax = sh.minimax > 0.0;
    // The leaf's own score, for the implicit minimax backup.
    let mut leaf_value: Option<[f32; crate::game::MAX_SEATS]> = None;
    let rewards = loop {
        if let Status::Over(o) = state.status() {
            leaf_value = Some(o.rewards);
            if sh.solver && node != 0 {
                let nd = tree.node(node);
                match o.winner() {
                    Some(w) if w == nd.mover() => nd.proven.store(WIN, Ordering::Relaxed),
                    Some(_) => nd.proven.store(LOSS, Ordering::Relaxed),
                    None => {}
                }
            }
            break o.rewards;
        }
        let nd = &tree.node(node);
        // A new leaf, or the depth cap reached: score it.
        if node != 0 && (fresh || path.len() > sh.tree_depth) {
            // The leaf is expanded on its next visit, not now. Expanding every new leaf at once
            // (children, priors and the solver's look for a win, then the evaluation) grew the
            // same trees, move for move, at 50,000 and 100,000 playouts, but at 72–86% of the
            // playouts a second in the two-seat games and 80% in chess for three, whose leaves
            // (then without widening) would each take all their children: 5× the nodes
            // (results.md, 2026-11-28, late night). Most leaves are never visited again; with a
            // learned policy the priors are computed at expansion either way.
            if sh.leaf_search > 0 {
                let here = quiescence_rewards(&state, sh.leaf_search, qbufs, sh.valuer);
                leaf_value = Some(here);
                break here;
            }
            if minimax {
                let here = sh.valuer.rewards(&state);
                leaf_value = Some(here);
                if sh.rollout_plies == 0 {
                    break here;
                }
            }
            break rollout(&mut state, sh.rollout_plies, rng, buf, sh.valuer);
        }
        // Make sure the node's children cover this state's legal moves.
        let mut all_available = false;
        if hidden {
            state.legal_moves(moves);
            if node == 0 {
                if let Some(only) = &sh.root_only {
                    moves.retain(|m| only.contains(m));
                }
            }
            let total = tree.children(node).count();
            if node == 0 && legal.root_children == total && legal.root == *moves {
                // The list and the children of the last time, when every child was legal: so
                // they are now (the seat to move at the root knows its moves, so they are the
                // same in every deal, and this skips a set of them per iteration).
                all_available = true;
            } else {
                legal.set.clear();
                legal.set.extend(moves.iter().copied());
                let present = tree
                    .children(node)
                    .filter(|&c| tree.node(c).mv().is_some_and(|m| legal.set.contains(&m)))
                    .count();
                if present < moves.len() {
                    let own_all = if node == 0 { own.all_available } else { 0 };
                    add_missing_children(tree, node, &state, moves, own_all);
                }
                // The children just added are legal here too.
                all_available = present == total;
                if node == 0 {
                    legal.root.clone_from(moves);
                    legal.root_children = if present == total && total == moves.len() {
                        total
                    } else {
                        usize::MAX
                    };
                }
            }
        } else if !expand(sh, node, &state, moves, buf, scratch) {
            if node != 0 {
                // Another thread is expanding this node: score it as a leaf rather than wait.
                break score_here(sh, &mut state, rng, buf, qbufs);
            }
            // The root, which every search expands first: its score goes nowhere, so a playout
            // that scored it would be lost (one a turn for as long as the expansion lasts, many
            // if its thread is descheduled meanwhile). Wait for its children instead.
            while !expand(sh, node, &state, moves, buf, scratch) {
                std::thread::yield_now();
            }
        }
        let knobs = Knobs {
            c,
            minimax: sh.minimax,
            widening: if node == 0 && !sh.widen_root {
                0.0
            } else {
                sh.widening
            },
            puct: if sh.policy.is_some() { sh.puct } else { 0.0 },
        };
        let (mut pick, short) = select(
            tree,
            node,
            hidden.then_some(&legal.set),
            all_available,
            knobs,
            Some(&mut *own),
        );
        // The widening window admits more moves than have children: create the next ones.
        if short && !hidden && !nd.complete() && nd.try_lock() {
            let have = nd.widened.load(Ordering::Relaxed) & !COMPLETE;
            node_moves(sh, node, &state, moves);
            let more = (have as usize / 2).max(2);
            let grew = widen(tree, node, &state, moves, more, sh.order(), scratch);
            nd.unlock();
            if grew {
                pick = select(tree, node, None, false, knobs, Some(&mut *own)).0;
            }
        }
        let Some(child) = pick else {
            // No child (tree full): score the position from here.
            break score_here(sh, &mut state, rng, buf, qbufs);
        };
        let ch = &tree.node(child);
        // The visit counts from now on, as a loss until its reward is added: the virtual loss
        // that steers the other threads elsewhere. The first to arrive scores the new leaf.
        fresh = own.visit(tree, child) == 0;
        if let Some(m) = ch.mv() {
            state.play(m);
        }
        path.push(child);
        node = child;
        // A proven node needs no more search: its result is the reward.
        if let Some(r) = proven_rewards(ch) {
            leaf_value = Some(r);
            break r;
        }
    };
    if sh.solver {
        solve_path(tree, path);
        // Once the root is decided (a move proven to win, or every move proven to lose),
        // descents stop at the proven child and the tree no longer deepens: the search ends,
        // unless it runs until `stop` (a depth or mate bound would otherwise never be met).
        if path.len() > 1
            && tree.node(path[1]).proven() != UNPROVEN
            && root_decided(tree)
            && !sh.ctx.limits.is_unlimited()
        {
            sh.done.store(true, Ordering::Relaxed);
        }
    }
    if let (true, Some(v), Some(&leaf)) = (minimax, leaf_value, path.last()) {
        if leaf != 0 {
            back_up_value(tree, path, v[tree.node(leaf).mover()]);
        }
    }
    // Backup: each node below the root was counted as visited on the way down (its virtual
    // loss), so only its reward is added; the root counts its visit now. (At the top of the
    // tree, in the thread's own counts until the batch ends: `OwnCounts`.)
    for &n in &path[1..] {
        let nd = &tree.node(n);
        let r = (rewards[nd.mover()].clamp(0.0, 1.0) as f64 * SCALE).round() as u64;
        if r != 0 {
            own.reward(tree, n, r);
        }
    }
    own.visit(tree, 0);
    path.len() as u32 - 1
}

/// The rewards of a position where a descent stops on a node that is not a new leaf (another
/// thread is expanding it, or the tree is full): scored as a new leaf is, by the leaf search
/// where it is on. (Hyperchess's 2 threads once gave such nodes its 12-ply random rollout, which
/// lost 1–9 to the leaf search: 3% of their time, and a worse score.) No minimax value: the node
/// has its own, or its children's.
fn score_here<G: Game>(
    sh: &Shared<G>,
    state: &mut G,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
    qbufs: &mut PlyBufs<G>,
) -> [f32; crate::game::MAX_SEATS] {
    if sh.leaf_search > 0 {
        quiescence_rewards(state, sh.leaf_search, qbufs, sh.valuer)
    } else {
        rollout(state, sh.rollout_plies, rng, buf, sh.valuer)
    }
}

/// Perfect information: gives `node`, unless it has them, its first children, in the policy's or
/// `move_priority` order, and with the solver looks for the side to move's immediate win. Under
/// progressive widening a node below the root gets [`FIRST_CHILDREN`] children, the root and
/// every node without widening all of them. Returns false, without waiting, when another thread
/// is expanding the node; true once it is expanded (by now or before).
fn expand<G: Game>(
    sh: &Shared<G>,
    node: u32,
    state: &G,
    moves: &mut Vec<G::Move>,
    buf: &mut Vec<G::Move>,
    scratch: &mut WidenScratch<G::Move>,
) -> bool {
    let tree = &sh.tree;
    let nd = tree.node(node);
    if nd.expanded.load(Ordering::Acquire) {
        return true;
    }
    if !nd.try_lock() {
        return false;
    }
    if !nd.expanded.load(Ordering::Acquire) {
        node_moves(sh, node, state, moves);
        let first = if sh.widening > 0.0 && node != 0 {
            FIRST_CHILDREN
        } else {
            usize::MAX
        };
        widen(tree, node, state, moves, first, sh.order(), scratch);
        if sh.solver {
            mark_decisive(tree, node, state, buf);
        }
        nd.expanded.store(true, Ordering::Release);
    }
    nd.unlock();
    true
}

/// Perfect information: the moves `node` (whose position is `state`) searches, in the state's
/// generation order: its legal moves, at the root only those searched (`searchmoves`). The
/// same list at each of the node's widenings, which its children and priors follow.
fn node_moves<G: Game>(sh: &Shared<G>, node: u32, state: &G, moves: &mut Vec<G::Move>) {
    state.legal_moves(moves);
    if node == 0 {
        if let Some(only) = &sh.root_only {
            moves.retain(|m| only.contains(m));
        }
    }
}

/// A node proven won or lost for its mover: the rewards that proof gives every seat.
fn proven_rewards<M: Copy>(nd: &tree::Node<M>) -> Option<[f32; crate::game::MAX_SEATS]> {
    let p = nd.proven();
    if p == UNPROVEN {
        return None;
    }
    let mut r = [0.0f32; crate::game::MAX_SEATS];
    let winner = if p == WIN { nd.mover() } else { 1 - nd.mover() };
    r[winner] = 1.0;
    Some(r)
}
