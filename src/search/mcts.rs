//! Parallel Monte-Carlo tree search over one shared tree.
//!
//! - The tree lives in a node arena allocated up front and bounded by `Hash`; when it is full the
//!   search goes on without growing the tree (leaves are still scored).
//! - Statistics are atomics (visits, fixed-point reward sum, virtual loss), so worker threads
//!   (a rayon pool, one per `Threads`) descend the same tree without locks; a node's child list is
//!   a linked list that is only appended to, under a per-node flag that a busy thread never waits
//!   for in perfect-information games.
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
//!   Progressive widening (`Widening`): a node considers its moves in `move_priority` order, more
//!   of them as its visits grow, and a move gets its node only when the window admits it (below
//!   the root; the root is widened too unless the game says otherwise, `WidenRoot`). Against
//!   alpha-beta at 100 ms in rithmomachia: 5% → 28%.
//! - Leaf search (`LeafSearch`), same games: a new leaf is scored by a short captures-only
//!   search (quiescence) instead of a rollout, so that an exchange in progress is played out
//!   before the evaluation speaks. Hyperchess at 100 ms: it beat the rollout 10–0.
//! - Rewards are per seat; each node keeps the reward of the seat that made the move into it, so
//!   2–4 seats each maximise their own.
//! - Hidden information (tesseris): single-observer ISMCTS (Cowling, Powley & Whitehouse 2012).
//!   Every iteration plays on a fresh determinization of the root for the seat to move; a node's
//!   children are the moves seen so far, selection only considers those legal in the current
//!   determinization, and UCB uses their availability counts instead of the parent's visits.

use super::{centipawns, heuristic_rewards, Context, Event, Line, Outcome, Report, Score};
use crate::game::{rng_from_seed, Game, GameRng, Seat, Status};
use fxhash::FxHashSet;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::time::Instant;

const NONE: u32 = u32::MAX;
/// Fixed-point scale of reward sums.
const SCALE: f64 = 65536.0;

/// Aligned to a cache line: siblings are allocated side by side, and the hottest ones (under the
/// root) would otherwise share lines that every thread writes.
#[repr(align(64))]
struct Node<M> {
    /// The move into this node and the seat that made it (None / 0 for the root).
    mv: Option<M>,
    mover: u8,
    visits: AtomicU32,
    virtual_loss: AtomicU32,
    /// ISMCTS: the times this node was available without every sibling being so (see below).
    availability: AtomicU32,
    /// ISMCTS: the times every child of this node was available at once. Counting those here,
    /// once, instead of in each child spares a write to every child's cache line per visit (the
    /// root's children are legal in every determinization, and all threads share those lines).
    all_available: AtomicU32,
    /// ISMCTS: the parent's `all_available` when this node was created; a child's availability
    /// is `availability + parent.all_available - avail_base`.
    avail_base: u32,
    reward_sum: AtomicU64,
    first_child: AtomicU32,
    next_sibling: AtomicU32,
    expanded: AtomicBool,
    lock: AtomicBool,
    /// MCTS-solver (two seats, perfect information): UNPROVEN, or the move into this node is
    /// known to WIN or to LOSE for its mover whatever follows.
    proven: AtomicU8,
    /// Implicit minimax (two seats, perfect information): the evaluation's win probability for
    /// this node's mover, backed up by minimax over the children scored so far (f32 bits;
    /// NO_VALUE until the node is first scored).
    value: AtomicU32,
    /// Progressive widening (two seats, perfect information): how many of the node's moves
    /// have a child so far, in `move_priority` order, with [`COMPLETE`] once all of them do.
    /// Children are created as the widening window admits them, not all at expansion.
    widened: AtomicU32,
}

/// The flag of [`Node::widened`] that says every legal move has its child.
const COMPLETE: u32 = 1 << 31;

const NO_VALUE: u32 = u32::MAX;

const UNPROVEN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

impl<M: Copy> Node<M> {
    fn new(mv: Option<M>, mover: u8, avail_base: u32) -> Self {
        Node {
            mv,
            mover,
            visits: AtomicU32::new(0),
            virtual_loss: AtomicU32::new(0),
            availability: AtomicU32::new(0),
            all_available: AtomicU32::new(0),
            avail_base,
            reward_sum: AtomicU64::new(0),
            first_child: AtomicU32::new(NONE),
            next_sibling: AtomicU32::new(NONE),
            expanded: AtomicBool::new(false),
            lock: AtomicBool::new(false),
            proven: AtomicU8::new(UNPROVEN),
            value: AtomicU32::new(NO_VALUE),
            widened: AtomicU32::new(0),
        }
    }
    fn mv(&self) -> Option<M> {
        self.mv
    }
    fn mover(&self) -> usize {
        self.mover as usize
    }
    /// ISMCTS: how many times this node's move was available when its parent was visited.
    fn availability(&self, parent: &Node<M>) -> u32 {
        (self.availability.load(Ordering::Relaxed) + parent.all_available.load(Ordering::Relaxed))
            .saturating_sub(self.avail_base)
    }
    fn mean(&self) -> f64 {
        let n = self.visits.load(Ordering::Relaxed);
        if n == 0 {
            0.5
        } else {
            self.reward_sum.load(Ordering::Relaxed) as f64 / SCALE / n as f64
        }
    }
    fn try_lock(&self) -> bool {
        self.lock
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }
    fn unlock(&self) {
        self.lock.store(false, Ordering::Release);
    }
    fn proven(&self) -> u8 {
        self.proven.load(Ordering::Relaxed)
    }
    /// Whether every legal move of the node has its child.
    fn complete(&self) -> bool {
        self.widened.load(Ordering::Acquire) & COMPLETE != 0
    }
    fn value(&self) -> Option<f32> {
        match self.value.load(Ordering::Relaxed) {
            NO_VALUE => None,
            b => Some(f32::from_bits(b)),
        }
    }
}

// SAFETY: slots are written once, by the one thread that owns them, before they are published
// through an atomic link (Release/Acquire); after that only atomics are mutated.
unsafe impl<M: Send + Sync> Sync for Tree<M> {}

/// The shared tree: an arena of nodes, node 0 the root.
struct Tree<M> {
    nodes: Box<[UnsafeCell<MaybeUninit<Node<M>>>]>,
    used: AtomicUsize,
}

impl<M: Copy> Tree<M> {
    fn new(hash_mb: usize) -> Self {
        let bytes = hash_mb.max(1) * 1024 * 1024;
        let cap = (bytes / std::mem::size_of::<Node<M>>()).clamp(1024, (NONE - 1) as usize);
        // Reserved, not initialised: the OS maps pages as nodes are written, so a short search
        // does not pay for the whole `Hash` up front.
        let mut nodes: Vec<UnsafeCell<MaybeUninit<Node<M>>>> = super::reserve(cap, 1024);
        let cap = nodes.capacity();
        // SAFETY: MaybeUninit needs no initialisation; a slot is only read after `init` wrote it.
        unsafe { nodes.set_len(cap) };
        let tree = Tree {
            nodes: nodes.into_boxed_slice(),
            used: AtomicUsize::new(1),
        };
        tree.init(0, None, 0, 0);
        tree
    }

    /// Writes node `i`. Only for a slot nobody else can see yet (the root before the search
    /// starts, or an index just handed out by `alloc`).
    fn init(&self, i: usize, mv: Option<M>, mover: u8, avail_base: u32) {
        // SAFETY: the slot is exclusively this thread's until it is linked (Release) into a parent.
        unsafe { (*self.nodes[i].get()).write(Node::new(mv, mover, avail_base)) };
    }

    /// Node `i`, which must have been initialised (the root, or reached through a link).
    fn node(&self, i: u32) -> &Node<M> {
        // SAFETY: every index reachable from the root was written by `init` before it was linked.
        unsafe { (*self.nodes[i as usize].get()).assume_init_ref() }
    }

    /// Hands out up to `n` consecutive fresh slots (fewer, or none, when the arena is full).
    fn alloc_many(&self, n: usize) -> std::ops::Range<usize> {
        let cap = self.nodes.len();
        if n == 0 || self.used.load(Ordering::Relaxed) >= cap {
            return 0..0;
        }
        let i = self.used.fetch_add(n, Ordering::Relaxed);
        i.min(cap)..(i + n).min(cap)
    }

    fn is_full(&self) -> bool {
        self.used.load(Ordering::Relaxed) >= self.nodes.len()
    }

    /// Links a fresh node as the first child of `parent` (caller holds parent's lock).
    fn link(&self, parent: u32, child: u32) {
        let p = &self.node(parent);
        self.node(child)
            .next_sibling
            .store(p.first_child.load(Ordering::Relaxed), Ordering::Relaxed);
        p.first_child.store(child, Ordering::Release);
    }

    /// Links the fresh nodes `slots` after the last child of `parent`, in their order (caller
    /// holds parent's lock): children stay in priority order as the node widens.
    fn append(&self, parent: u32, slots: std::ops::Range<usize>) {
        let Some(first) = slots.clone().next() else {
            return;
        };
        for i in slots.clone() {
            let next = if i + 1 < slots.end {
                i as u32 + 1
            } else {
                NONE
            };
            self.node(i as u32)
                .next_sibling
                .store(next, Ordering::Relaxed);
        }
        match self.children(parent).last() {
            Some(tail) => self
                .node(tail)
                .next_sibling
                .store(first as u32, Ordering::Release),
            None => self
                .node(parent)
                .first_child
                .store(first as u32, Ordering::Release),
        }
    }

    fn children(&self, parent: u32) -> Children<'_, M> {
        Children {
            tree: self,
            next: self.node(parent).first_child.load(Ordering::Acquire),
        }
    }

    fn hashfull(&self) -> u32 {
        (self.used.load(Ordering::Relaxed).min(self.nodes.len()) * 1000 / self.nodes.len()) as u32
    }
}

struct Children<'a, M> {
    tree: &'a Tree<M>,
    next: u32,
}

impl<M: Copy> Iterator for Children<'_, M> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let i = self.next;
        self.next = self.tree.node(i).next_sibling.load(Ordering::Acquire);
        Some(i)
    }
}

/// Shared state of one search.
struct Shared<'a, G: Game> {
    root: &'a G,
    tree: Tree<G::Move>,
    ctx: &'a Context<'a>,
    iterations: AtomicU64,
    depth_sum: AtomicU64,
    seldepth: AtomicU32,
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
    let shared = Shared {
        root,
        tree: Tree::new(ctx.params.hash_mb),
        ctx,
        iterations: AtomicU64::new(0),
        depth_sum: AtomicU64::new(0),
        seldepth: AtomicU32::new(0),
        done: AtomicBool::new(false),
        // (With hidden information the legal moves differ between deals: keep the filter.)
        root_only: (moves.len() < all.len() || !ctx.limits.searchmoves.is_empty())
            .then(|| moves.to_vec()),
        win: immediate_win(root, moves),
        rollout_plies: ctx.params.rollout_plies.unwrap_or(G::ROLLOUT_PLIES),
        solver: informed,
        tree_depth: match ctx.params.tree_depth.unwrap_or(G::TREE_DEPTH) {
            0 => usize::MAX,
            d => d,
        },
        exploration: match ctx.params.exploration {
            Some(c) => c as f64 / 100.0,
            None => G::EXPLORATION as f64,
        },
        minimax: if informed {
            ctx.params.minimax_weight as f64 / 100.0
        } else {
            0.0
        },
        widening: if informed {
            ctx.params.widening as f64 / 10.0
        } else {
            0.0
        },
        widen_root: ctx.params.widen_root.unwrap_or(G::WIDEN_ROOT),
        leaf_search: if informed {
            ctx.params.leaf_search.unwrap_or(G::LEAF_SEARCH)
        } else {
            0
        },
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
    if heuristic_rewards(root)[mover] < 0.999 {
        return None;
    }
    ctx.note("decided position: alpha-beta plays it out");
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

fn worker<G: Game>(sh: &Shared<G>, index: usize) {
    let params = sh.ctx.params;
    let mut rng = rng_from_seed(params.seed.wrapping_add(0x9E37_79B9 * index as u64));
    let mut moves: Vec<G::Move> = Vec::new();
    let mut buf: Vec<G::Move> = Vec::new();
    let mut path: Vec<u32> = Vec::with_capacity(256);
    let mut legal: FxHashSet<G::Move> = FxHashSet::default();
    let mut qbufs: Vec<QsBuf<G::Move>> = vec![(Vec::new(), Vec::new()); sh.leaf_search + 1];
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
    let flush = |n: &mut u64, d: &mut u64, sd: &mut u32| {
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
        let it = sh.iterations.load(Ordering::Relaxed) + local_iterations;
        if let Some(n) = sh.ctx.limits.nodes {
            if it >= n {
                sh.done.store(true, Ordering::Relaxed);
                break;
            }
        }
        if started && done_here % 16 == 0 {
            let now = Instant::now();
            if sh.ctx.past_soft() {
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
            sh, observer, &mut rng, &mut moves, &mut buf, &mut path, &mut legal, &mut qbufs,
        );
        done_here += 1;
        local_iterations += 1;
        local_depth += depth as u64;
        local_seldepth = local_seldepth.max(depth);
        if local_iterations >= batch {
            flush(&mut local_iterations, &mut local_depth, &mut local_seldepth);
        }
    }
    flush(&mut local_iterations, &mut local_depth, &mut local_seldepth);
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
    legal: &mut FxHashSet<G::Move>,
    qbufs: &mut [QsBuf<G::Move>],
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
        if node != 0 && (nd.visits.load(Ordering::Relaxed) == 0 || path.len() > sh.tree_depth) {
            if sh.leaf_search > 0 {
                let here = quiescence_rewards(&state, sh.leaf_search, qbufs);
                leaf_value = Some(here);
                break here;
            }
            if minimax {
                let here = heuristic_rewards(&state);
                leaf_value = Some(here);
                if sh.rollout_plies == 0 {
                    break here;
                }
            }
            break rollout(&mut state, sh.rollout_plies, rng, buf);
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
            legal.clear();
            legal.extend(moves.iter().copied());
            let (mut present, mut total) = (0, 0);
            for c in tree.children(node) {
                total += 1;
                if tree.node(c).mv().is_some_and(|m| legal.contains(&m)) {
                    present += 1;
                }
            }
            if present < moves.len() {
                add_missing_children(tree, node, &state, moves);
            }
            // The children just added are legal here too.
            all_available = present == total;
        } else if !nd.expanded.load(Ordering::Acquire) {
            if nd.try_lock() {
                if !nd.expanded.load(Ordering::Acquire) {
                    state.legal_moves(moves);
                    if node == 0 {
                        if let Some(only) = &sh.root_only {
                            moves.retain(|m| only.contains(m));
                        }
                    }
                    // Below the root, under progressive widening, the first moves only; the
                    // root (and every node without widening) gets all its children at once.
                    let first = if sh.widening > 0.0 && node != 0 {
                        FIRST_CHILDREN
                    } else {
                        usize::MAX
                    };
                    widen(tree, node, &state, moves, first);
                    if sh.solver {
                        mark_decisive(tree, node, &state, buf);
                    }
                    nd.expanded.store(true, Ordering::Release);
                }
                nd.unlock();
            } else {
                // Another thread is expanding this node: score it as a leaf rather than wait.
                break rollout(&mut state, sh.rollout_plies, rng, buf);
            }
        }
        let (mut pick, short) = select(
            tree,
            node,
            hidden.then_some(&*legal),
            all_available,
            c,
            sh.minimax,
            if node == 0 && !sh.widen_root {
                0.0
            } else {
                sh.widening
            },
        );
        // The widening window admits more moves than have children: create the next ones.
        if short && !hidden && !nd.complete() && nd.try_lock() {
            let have = nd.widened.load(Ordering::Relaxed) & !COMPLETE;
            state.legal_moves(moves);
            let grew = widen(tree, node, &state, moves, (have as usize / 2).max(2));
            nd.unlock();
            if grew {
                pick = select(tree, node, None, false, c, sh.minimax, sh.widening).0;
            }
        }
        let Some(child) = pick else {
            // No child (tree full): score the position from here.
            break rollout(&mut state, sh.rollout_plies, rng, buf);
        };
        let ch = &tree.node(child);
        ch.virtual_loss.fetch_add(1, Ordering::Relaxed);
        if let Some(m) = ch.mv() {
            state.play(m);
        }
        path.push(child);
        node = child;
        // A proven node needs no more search: its result is the reward.
        let p = ch.proven();
        if p != UNPROVEN {
            let mut r = [0.0f32; crate::game::MAX_SEATS];
            let winner = if p == WIN { ch.mover() } else { 1 - ch.mover() };
            r[winner] = 1.0;
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
    // Backup.
    for (i, &n) in path.iter().enumerate() {
        let nd = &tree.node(n);
        if i > 0 {
            nd.virtual_loss.fetch_sub(1, Ordering::Relaxed);
            let r = rewards[nd.mover()].clamp(0.0, 1.0) as f64;
            nd.reward_sum
                .fetch_add((r * SCALE).round() as u64, Ordering::Relaxed);
        }
        nd.visits.fetch_add(1, Ordering::Relaxed);
    }
    path.len() as u32 - 1
}

/// MCTS-solver, at a node's expansion: a noisy move that wins on the spot (the game's captures
/// and the like, which is where immediate wins are: taking the Tesseract, the capture that
/// completes a victory) proves the node lost for the side that moved into it.
fn mark_decisive<G: Game>(tree: &Tree<G::Move>, node: u32, state: &G, buf: &mut Vec<G::Move>) {
    let me = state.to_move();
    state.noisy_moves(buf);
    let Some(&win) = buf.iter().find(|&&m| {
        let mut s = state.clone();
        s.play(m);
        matches!(s.status(), Status::Over(o) if o.winner() == Some(me))
    }) else {
        return;
    };
    if let Some(c) = tree
        .children(node)
        .find(|&c| tree.node(c).mv() == Some(win))
    {
        tree.node(c).proven.store(WIN, Ordering::Relaxed);
    }
    if node != 0 {
        tree.node(node).proven.store(LOSS, Ordering::Relaxed);
    }
}

/// MCTS-solver, after a descent: from the leaf up, a node is lost for its mover when the side
/// to move there has a proven win, and won when every move there is a proven loss.
fn solve_path<M: Copy>(tree: &Tree<M>, path: &[u32]) {
    for &n in path.iter().skip(1).rev() {
        let nd = tree.node(n);
        if nd.proven() != UNPROVEN {
            continue;
        }
        if !nd.expanded.load(Ordering::Acquire) {
            break;
        }
        let (mut any, mut all_lost, mut won) = (false, true, false);
        for c in tree.children(n) {
            any = true;
            match tree.node(c).proven() {
                WIN => won = true,
                LOSS => {}
                _ => all_lost = false,
            }
        }
        if won {
            nd.proven.store(LOSS, Ordering::Relaxed);
        } else if any && all_lost && nd.complete() && !tree.is_full() {
            nd.proven.store(WIN, Ordering::Relaxed);
        } else {
            break;
        }
    }
}

/// Implicit minimax backup: the leaf takes its own score, then each node up the path takes the
/// best value among its scored children (seen from its own mover), until one does not change.
fn back_up_value<M: Copy>(tree: &Tree<M>, path: &[u32], leaf: f32) {
    let (&last, above) = path.split_last().expect("a path holds the root");
    tree.node(last)
        .value
        .store(leaf.to_bits(), Ordering::Relaxed);
    for &n in above.iter().skip(1).rev() {
        let nd = tree.node(n);
        let mut best: Option<(f32, usize)> = None;
        for c in tree.children(n) {
            let cn = tree.node(c);
            if let Some(v) = cn.value() {
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, cn.mover()));
                }
            }
        }
        let Some((b, child_mover)) = best else { break };
        let v = if child_mover == nd.mover() {
            b
        } else {
            1.0 - b
        };
        if nd.value.swap(v.to_bits(), Ordering::Relaxed) == v.to_bits() {
            break;
        }
    }
}

/// Whether a root move is proven to win, or every root move proven to lose.
fn root_decided<M: Copy>(tree: &Tree<M>) -> bool {
    let mut all_lost = true;
    for c in tree.children(0) {
        match tree.node(c).proven() {
            WIN => return true,
            LOSS => {}
            _ => all_lost = false,
        }
    }
    all_lost && tree.node(0).complete() && !tree.is_full()
}

/// Children a node gets at its expansion under progressive widening (more as it is visited).
const FIRST_CHILDREN: usize = 2;

/// Perfect information (caller holds the node's lock): gives children to the next `more` of
/// the node's moves `moves` (the state's legal moves, or the root's searched ones) in
/// `move_priority` order — stable, so the moves that have children are always the first ones —
/// after the existing children. Marks the node complete once every move has its child.
/// Returns whether any was added (none when the arena is full).
fn widen<G: Game>(
    tree: &Tree<G::Move>,
    node: u32,
    state: &G,
    moves: &[G::Move],
    more: usize,
) -> bool {
    let nd = tree.node(node);
    let have = nd.widened.load(Ordering::Relaxed);
    if have & COMPLETE != 0 {
        return false;
    }
    let have = have as usize;
    let mut keyed: Vec<(i32, G::Move)> =
        moves.iter().map(|&m| (state.move_priority(m), m)).collect();
    keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    let next = &keyed[have.min(keyed.len())..have.saturating_add(more).min(keyed.len())];
    let slots = tree.alloc_many(next.len());
    let mover = state.to_move() as u8;
    for (ch, &(_, m)) in slots.clone().zip(next) {
        tree.init(ch, Some(m), mover, 0);
    }
    let added = slots.len();
    tree.append(node, slots);
    let now = (have + added) as u32;
    let flag = if have + added >= keyed.len() {
        COMPLETE
    } else {
        0
    };
    nd.widened.store(now | flag, Ordering::Release);
    added > 0
}

/// ISMCTS: adds a child for every move of `moves` (legal in this determinization) that `node`
/// lacks, highest `move_priority` first in the list. Waits for the node's flag.
fn add_missing_children<G: Game>(tree: &Tree<G::Move>, node: u32, state: &G, moves: &[G::Move]) {
    let nd = &tree.node(node);
    while !nd.try_lock() {
        std::hint::spin_loop();
    }
    let existing: FxHashSet<G::Move> = tree
        .children(node)
        .filter_map(|c| tree.node(c).mv())
        .collect();
    let mut missing: Vec<(i32, G::Move)> = moves
        .iter()
        .filter(|m| !existing.contains(m))
        .map(|&m| (state.move_priority(m), m))
        .collect();
    // Reserve every slot at once; when the arena runs short, the highest-priority moves get
    // the slots there are. Linking prepends, so link the lowest priority first.
    missing.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
    let slots = tree.alloc_many(missing.len());
    let mover = state.to_move() as u8;
    let base = nd.all_available.load(Ordering::Relaxed);
    for (k, &(_, m)) in missing[..slots.len()].iter().enumerate().rev() {
        let ch = slots.start + k;
        tree.init(ch, Some(m), mover, base);
        tree.link(node, ch as u32);
    }
    nd.unlock();
}

/// UCB1 with virtual loss; with `available` (ISMCTS), only children whose move is in it, with
/// availability counts in place of the parent's visits (`all_available`: every child is).
/// `minimax` mixes each child's implicit minimax value into its mean; `widening` > 0 considers
/// only the first `1 + widening · √visits` children not proven lost (they are in priority order).
/// Also says whether that window is wider than the children there are (`widen` can add more).
fn select<M: Copy + Eq + std::hash::Hash>(
    tree: &Tree<M>,
    node: u32,
    available: Option<&FxHashSet<M>>,
    all_available: bool,
    c: f64,
    minimax: f64,
    widening: f64,
) -> (Option<u32>, bool) {
    let parent = &tree.node(node);
    let parent_n = (parent.visits.load(Ordering::Relaxed)
        + parent.virtual_loss.load(Ordering::Relaxed))
    .max(1) as f64;
    let parent_all = if all_available {
        parent.all_available.fetch_add(1, Ordering::Relaxed) + 1
    } else {
        parent.all_available.load(Ordering::Relaxed)
    };
    let mut best = None;
    let mut best_v = f64::NEG_INFINITY;
    let mut window = if widening > 0.0 {
        1 + (widening * parent_n.sqrt()) as usize
    } else {
        usize::MAX
    };
    for ch in tree.children(node) {
        if window == 0 {
            break;
        }
        let cn = &tree.node(ch);
        let n_total = match available {
            Some(moves) => {
                let Some(m) = cn.mv() else { continue };
                if !moves.contains(&m) {
                    continue;
                }
                let own = if all_available {
                    cn.availability.load(Ordering::Relaxed)
                } else {
                    cn.availability.fetch_add(1, Ordering::Relaxed) + 1
                };
                (own + parent_all).saturating_sub(cn.avail_base).max(1) as f64
            }
            None => parent_n,
        };
        let vl = cn.virtual_loss.load(Ordering::Relaxed) as f64;
        let n = cn.visits.load(Ordering::Relaxed) as f64 + vl;
        let proven = cn.proven();
        if proven == WIN {
            return (Some(ch), false);
        }
        if proven != LOSS {
            window -= 1;
        }
        let v = if proven == LOSS {
            // Chosen only when every move loses (then the node itself is proven).
            -1e9
        } else if n == 0.0 {
            1e9
        } else {
            let mean = cn.reward_sum.load(Ordering::Relaxed) as f64 / SCALE / n;
            let q = match cn.value() {
                Some(v) if minimax > 0.0 => (1.0 - minimax) * mean + minimax * v as f64,
                _ => mean,
            };
            q + c * (n_total.ln() / n).sqrt()
        };
        if v > best_v {
            best_v = v;
            best = Some(ch);
        }
    }
    (best, widening > 0.0 && window > 0)
}

/// Scores a new leaf: `plies` rollout moves (random unless the game has a policy), then the
/// real result or the evaluation.
fn rollout<G: Game>(
    state: &mut G,
    plies: usize,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
) -> [f32; crate::game::MAX_SEATS] {
    crate::game::playout(state, rng, plies, buf, G::rollout_move);
    match state.status() {
        Status::Over(o) => o.rewards,
        Status::Ongoing => heuristic_rewards(state),
    }
}

/// Scores a new leaf by a captures-only search (`LeafSearch`): the rewards of the evaluation
/// once the exchanges that the leaf's position holds are played out, `plies` deep at most.
fn quiescence_rewards<G: Game>(
    state: &G,
    plies: usize,
    bufs: &mut [QsBuf<G::Move>],
) -> [f32; crate::game::MAX_SEATS] {
    let stm = state.to_move();
    let v = quiescence(state, -QS_INF, QS_INF, plies, bufs);
    let p = super::win_probability(v);
    let mut r = [0.0; crate::game::MAX_SEATS];
    r[stm] = p;
    r[1 - stm] = 1.0 - p;
    r
}

/// One ply's lists of [`quiescence`]: the noisy moves, and the same keyed by priority (with
/// the most each gains, where the game says).
type QsBuf<M> = (Vec<M>, Vec<super::ordering::QsMove<M>>);

/// Bound of [`quiescence`]'s window, beyond any evaluation and the won or lost score.
const QS_INF: i32 = 1_000_000;
/// Noisy moves tried at each node of [`quiescence`], best `move_priority` first.
const QS_WIDTH: usize = 8;

/// Fail-soft negamax over noisy moves for two seats, from the side to move's view: the
/// evaluation stands unless a capture (or the like) does better.
fn quiescence<G: Game>(
    g: &G,
    mut alpha: i32,
    beta: i32,
    plies: usize,
    bufs: &mut [QsBuf<G::Move>],
) -> i32 {
    let stm = g.to_move();
    if let Status::Over(o) = g.status() {
        return ((o.rewards[stm] as f64 - 0.5) * 60_000.0) as i32;
    }
    let stand = g.evaluate(stm);
    if stand >= beta || plies == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let Some(((moves, keyed), rest)) = bufs.split_first_mut() else {
        return stand;
    };
    g.noisy_moves(moves);
    // Priorities computed once into a reused list: no allocation at each leaf node. As in
    // alpha-beta's quiescence, captures that likely lose material are left out, and those that
    // cannot lift the score to alpha even with a margin are skipped (where the game gives the
    // hints: hyperchess, where it made this search 3.3 times faster in a crowded middlegame).
    super::ordering::quiescence_order(g, moves, keyed);
    let mut best = stand;
    for &(_, gain, m) in keyed.iter().take(QS_WIDTH) {
        if gain.is_some_and(|gain| stand + gain + super::DELTA_MARGIN < alpha) {
            continue;
        }
        let mut c = g.clone();
        c.play(m);
        let s = -quiescence(&c, -beta, -alpha, plies - 1, rest);
        if s > best {
            best = s;
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The most visited root child (the same tie-break as the reported lines).
fn best_child<M: Copy>(tree: &Tree<M>) -> Option<u32> {
    ranked(tree).first().copied()
}

/// Root children sorted by visits, most first.
fn ranked<M: Copy>(tree: &Tree<M>) -> Vec<u32> {
    // Proven wins first and proven losses last, then by visits, then by mean reward. The keys
    // are read once: other threads go on updating the counts, and a sort whose comparisons
    // change under it is not a total order (the standard sort may panic on one).
    let class = |n: &Node<M>| match n.proven() {
        WIN => 2u8,
        LOSS => 0,
        _ => 1,
    };
    let mut keyed: Vec<(u8, u32, f64, u32)> = tree
        .children(0)
        .map(|c| {
            let n = tree.node(c);
            (class(n), n.visits.load(Ordering::Relaxed), n.mean(), c)
        })
        .collect();
    keyed.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then(b.2.total_cmp(&a.2)));
    keyed.into_iter().map(|k| k.3).collect()
}

/// The report; `first`, when given, is listed as the best line (an immediate win).
fn report<G: Game>(sh: &Shared<G>, first: Option<G::Move>) -> Report {
    let tree = &sh.tree;
    let iterations = sh.iterations.load(Ordering::Relaxed);
    let mut lines = Vec::new();
    let mut order = ranked(tree);
    if let Some(pos) = first.and_then(|m| order.iter().position(|&c| tree.node(c).mv() == Some(m)))
    {
        let c = order.remove(pos);
        order.insert(0, c);
    }
    for &ch in order.iter().take(sh.ctx.params.multipv.max(1)) {
        let cn = &tree.node(ch);
        if cn.visits.load(Ordering::Relaxed) == 0 && !lines.is_empty() {
            break;
        }
        // Principal variation: follow the most-visited child while the state can format moves.
        let mut pv = Vec::new();
        let mut state = sh.root.clone();
        let mut n = ch;
        loop {
            let nd = &tree.node(n);
            let Some(m) = nd.mv() else { break };
            pv.push(state.format_move(m));
            if G::hidden_information() || pv.len() >= 64 {
                break;
            }
            state.play(m);
            let next = tree
                .children(n)
                .max_by_key(|&c| tree.node(c).visits.load(Ordering::Relaxed))
                .filter(|&c| tree.node(c).visits.load(Ordering::Relaxed) > 0);
            match next {
                Some(c) => n = c,
                None => break,
            }
        }
        let p = cn.mean() as f32;
        let score = match terminal_score(sh.root, cn) {
            Some(s) => s,
            None => Score::Cp(centipawns(p)),
        };
        lines.push(Line {
            pv,
            score,
            wdl: None,
            visits: Some(cn.visits.load(Ordering::Relaxed) as u64),
            reward: Some(cn.mean()),
        });
    }
    let depth = sh
        .depth_sum
        .load(Ordering::Relaxed)
        .checked_div(iterations)
        .unwrap_or(0) as u32;
    Report {
        depth,
        seldepth: sh.seldepth.load(Ordering::Relaxed),
        nodes: iterations,
        elapsed: sh.ctx.start.elapsed(),
        hashfull: tree.hashfull(),
        lines,
    }
}

/// A root move that ends the game at once is reported as mate 1 (win) / mate -1 (loss).
fn terminal_score<G: Game>(root: &G, node: &Node<G::Move>) -> Option<Score> {
    let m = node.mv()?;
    let mut s = root.clone();
    if G::hidden_information() {
        return None;
    }
    s.play(m);
    match s.status() {
        Status::Over(o) if o.winner() == Some(root.to_move()) => Some(Score::Mate(1)),
        _ => None,
    }
}

/// ISMCTS: one `info string` line per root candidate with visits, availability and mean reward.
fn candidates<G: Game>(sh: &Shared<G>) {
    let tree = &sh.tree;
    for ch in ranked(tree) {
        let n = &tree.node(ch);
        if let Some(m) = n.mv() {
            (sh.ctx.events)(Event::Candidate {
                mv: &sh.root.format_move(m),
                visits: n.visits.load(Ordering::Relaxed) as u64,
                availability: n.availability(tree.node(0)),
                reward: n.mean(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree by hand: root 0 → 1, 2 (mover 0); 1 → 3, 4 and 2 → 5, 6 (mover 1).
    fn tree() -> Tree<u8> {
        let t = Tree::new(1);
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
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.0).0, Some(1));
        t.node(1).proven.store(LOSS, Ordering::Relaxed);
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.0).0, Some(2));
        t.node(1).proven.store(UNPROVEN, Ordering::Relaxed);
        t.node(2).proven.store(WIN, Ordering::Relaxed);
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.0).0, Some(2));
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
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.0).0, Some(1));
        assert_eq!(select(&t, 0, None, false, 0.5, 0.2, 0.0).0, Some(1));
        assert_eq!(select(&t, 0, None, false, 0.5, 0.9, 0.0).0, Some(2));
        // A window of one child: the first in the list (2), unless it is proven lost.
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.01).0, Some(2));
        t.node(2).proven.store(LOSS, Ordering::Relaxed);
        assert_eq!(select(&t, 0, None, false, 0.5, 0.0, 0.01).0, Some(1));
    }

    #[test]
    fn widening_creates_children_in_priority_order_as_the_window_admits_them() {
        use crate::game::RuleOptions;
        use crate::games::hyperchess::Hyperchess;
        let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
        // White to move has two captures (the queen, then the knight) among many quiet moves.
        let g = Hyperchess::from_text("4k3/8/8/3q4/8/8/n2R4/4K3 w - - 0 1", &opts).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let t: Tree<crate::games::hyperchess::Move> = Tree::new(1);
        assert!(widen(&t, 0, &g, &moves, FIRST_CHILDREN));
        let kids =
            |t: &Tree<_>| -> Vec<_> { t.children(0).map(|c| t.node(c).mv().unwrap()).collect() };
        let first = kids(&t);
        assert_eq!(first.len(), 2);
        let victims: Vec<_> = first.iter().map(|&m| g.move_priority(m)).collect();
        assert!(victims[0] > victims[1] && victims[1] > 0, "{victims:?}");
        assert!(!t.node(0).complete());
        // Growing appends the next moves after the existing ones, never a move twice, until
        // every legal move has its child.
        while widen(&t, 0, &g, &moves, 3) {}
        let all = kids(&t);
        assert_eq!(&all[..2], &first[..]);
        assert_eq!(all.len(), moves.len());
        let distinct: FxHashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
        assert!(t.node(0).complete());
        assert!(
            !widen(&t, 0, &g, &moves, 3),
            "a complete node does not grow"
        );
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
        let mut bufs = vec![(Vec::new(), Vec::new()); 5];
        // White to move takes the black queen on d5 for nothing.
        let free = Hyperchess::from_text("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", &opts).unwrap();
        let stand = free.evaluate(0);
        let q = quiescence(&free, -QS_INF, QS_INF, 4, &mut bufs);
        assert!(q > stand + 500, "stand {stand}, after the capture {q}");
        // The queen on d5 is guarded by a pawn: taking it with the rook wins queen for rook.
        let guarded = Hyperchess::from_text("4k3/8/4p3/3q4/8/8/3R4/4K3 w - - 0 1", &opts).unwrap();
        let g = quiescence(&guarded, -QS_INF, QS_INF, 4, &mut bufs);
        assert!(
            g > guarded.evaluate(0) + 200 && g < q,
            "guarded {g}, free {q}"
        );
        // With no plies to search, the leaf search is the evaluation.
        assert_eq!(quiescence(&free, -QS_INF, QS_INF, 0, &mut bufs), stand);
        // The rewards are the win probabilities of the side to move's value.
        let r = quiescence_rewards(&free, 4, &mut bufs);
        assert!(r[0] > 0.9 && (r[0] + r[1] - 1.0).abs() < 1e-6, "{r:?}");
    }
}
