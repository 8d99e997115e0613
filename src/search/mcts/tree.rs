//! The shared tree: nodes with atomic statistics in an arena bounded by `Hash`, child lists that
//! are only appended to, and progressive widening (children created in `move_priority` order as
//! a node's window admits them).

use crate::game::Game;
use crate::learn::policy::Policy;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};

const NONE: u32 = u32::MAX;
/// Fixed-point scale of reward sums.
pub(super) const SCALE: f64 = 65536.0;

/// A value on lines of its own (128 bytes: two lines, which some cores fetch in pairs): a counter
/// that threads write, kept off the lines they only read (the arena's address, the search's
/// settings), which every write would otherwise take from the other cores' caches.
#[repr(align(128))]
pub(super) struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Aligned to a cache line: siblings are allocated side by side, and the hottest ones (under the
/// root) would otherwise share lines that every thread writes.
#[repr(align(64))]
pub(super) struct Node<M> {
    /// The move into this node and the seat that made it (None / 0 for the root).
    mv: Option<M>,
    mover: u8,
    /// Descents into this node, counted on the way down: those still under way are its
    /// virtual loss (visits whose reward is not yet added).
    pub(super) visits: AtomicU32,
    /// ISMCTS: the times this node was available without every sibling being so (see below).
    pub(super) availability: AtomicU32,
    /// ISMCTS: the times every child of this node was available at once. Counting those here,
    /// once, instead of in each child spares a write to every child's cache line per visit (the
    /// root's children are legal in every determinization, and all threads share those lines).
    pub(super) all_available: AtomicU32,
    /// ISMCTS: the parent's `all_available` when this node was created; a child's availability
    /// is `availability + parent.all_available - avail_base`.
    pub(super) avail_base: u32,
    pub(super) reward_sum: AtomicU64,
    first_child: AtomicU32,
    next_sibling: AtomicU32,
    /// How many siblings, from this one on, sit in consecutive slots, linked in that order (set
    /// on the first of a run appended at once; 1 otherwise). Walking the children then computes
    /// the next one's index instead of waiting for this node's line to read its link: with two
    /// threads, lines the other one wrote miss in the cache, and the misses of a run overlap
    /// instead of following one another.
    run: AtomicU32,
    pub(super) expanded: AtomicBool,
    lock: AtomicBool,
    /// MCTS-solver (two seats, perfect information): UNPROVEN, or the move into this node is
    /// known to WIN or to LOSE for its mover whatever follows.
    pub(super) proven: AtomicU8,
    /// Implicit minimax (two seats, perfect information): the evaluation's win probability for
    /// this node's mover, backed up by minimax over the children scored so far (f32 bits;
    /// NO_VALUE until the node is first scored).
    pub(super) value: AtomicU32,
    /// Progressive widening (perfect information): how many of the node's moves
    /// have a child so far, in `move_priority` order, with [`COMPLETE`] once all of them do.
    /// Children are created as the widening window admits them, not all at expansion.
    pub(super) widened: AtomicU32,
    /// The learned policy's probability of the move into this node among its siblings (0
    /// without a policy).
    pub(super) prior: f32,
    /// With a policy: where the priors of all this node's moves start in the tree's shared
    /// store (NONE until the node's first widening stores them), so that any thread widening
    /// the node again reads them instead of computing them afresh.
    priors_at: AtomicU32,
}

/// The flag of [`Node::widened`] that says every legal move has its child.
pub(super) const COMPLETE: u32 = 1 << 31;

const NO_VALUE: u32 = u32::MAX;

pub(super) const UNPROVEN: u8 = 0;
pub(super) const WIN: u8 = 1;
pub(super) const LOSS: u8 = 2;

impl<M: Copy> Node<M> {
    fn new(mv: Option<M>, mover: u8, avail_base: u32, prior: f32) -> Self {
        Node {
            mv,
            mover,
            visits: AtomicU32::new(0),
            availability: AtomicU32::new(0),
            all_available: AtomicU32::new(0),
            avail_base,
            reward_sum: AtomicU64::new(0),
            first_child: AtomicU32::new(NONE),
            next_sibling: AtomicU32::new(NONE),
            run: AtomicU32::new(1),
            expanded: AtomicBool::new(false),
            lock: AtomicBool::new(false),
            proven: AtomicU8::new(UNPROVEN),
            value: AtomicU32::new(NO_VALUE),
            widened: AtomicU32::new(0),
            prior,
            priors_at: AtomicU32::new(NONE),
        }
    }
    pub(super) fn mv(&self) -> Option<M> {
        self.mv
    }
    pub(super) fn mover(&self) -> usize {
        self.mover as usize
    }
    /// ISMCTS: how many times this node's move was available when its parent was visited.
    pub(super) fn availability(&self, parent: &Node<M>) -> u32 {
        (self.availability.load(Ordering::Relaxed) + parent.all_available.load(Ordering::Relaxed))
            .saturating_sub(self.avail_base)
    }
    pub(super) fn mean(&self) -> f64 {
        let n = self.visits.load(Ordering::Relaxed);
        if n == 0 {
            0.5
        } else {
            self.reward_sum.load(Ordering::Relaxed) as f64 / SCALE / n as f64
        }
    }
    pub(super) fn try_lock(&self) -> bool {
        self.lock
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }
    pub(super) fn unlock(&self) {
        self.lock.store(false, Ordering::Release);
    }
    pub(super) fn proven(&self) -> u8 {
        self.proven.load(Ordering::Relaxed)
    }
    /// Whether every legal move of the node has its child.
    pub(super) fn complete(&self) -> bool {
        self.widened.load(Ordering::Acquire) & COMPLETE != 0
    }
    pub(super) fn value(&self) -> Option<f32> {
        match self.value.load(Ordering::Relaxed) {
            NO_VALUE => None,
            b => Some(f32::from_bits(b)),
        }
    }
}

// SAFETY: slots (nodes and priors) are written once, by the one thread that owns them, before
// they are published through an atomic link (Release/Acquire); after that only atomics are
// mutated.
unsafe impl<M: Send + Sync> Sync for Tree<M> {}

/// The shared tree: an arena of nodes, node 0 the root, and with a policy a store of the
/// priors of the nodes' moves.
pub(super) struct Tree<M> {
    nodes: Box<[UnsafeCell<MaybeUninit<Node<M>>>]>,
    /// The priors of widened nodes' moves (f32 bits), each node's in one run after its length
    /// ([`Node::priors_at`]).
    priors: Box<[UnsafeCell<MaybeUninit<u32>>]>,
    used: Padded<AtomicUsize>,
    priors_used: Padded<AtomicUsize>,
}

/// A slice of `cap` reserved, uninitialised slots (the OS maps pages as slots are written, so
/// a short search does not pay for the whole `Hash` up front).
fn arena<T>(cap: usize, min: usize) -> Box<[UnsafeCell<MaybeUninit<T>>]> {
    let mut v: Vec<UnsafeCell<MaybeUninit<T>>> = crate::search::reserve(cap, min);
    let cap = v.capacity();
    // SAFETY: MaybeUninit needs no initialisation; a slot is only read after it was written.
    unsafe { v.set_len(cap) };
    v.into_boxed_slice()
}

impl<M: Copy> Tree<M> {
    /// A tree within `hash_mb` MiB; `with_priors` (a search with a policy) gives a third of
    /// them to the store of priors: chess for three's priors took 0.4 times its nodes' bytes
    /// (a 10 s search from the start on 2 threads: 13.0 M priors for 2.0 M nodes).
    pub(super) fn new(hash_mb: usize, with_priors: bool) -> Self {
        let bytes = hash_mb.max(1) * 1024 * 1024;
        let prior_bytes = if with_priors { bytes / 3 } else { 0 };
        let cap = ((bytes - prior_bytes) / std::mem::size_of::<Node<M>>())
            .clamp(1024, (NONE - 1) as usize);
        let prior_cap = (prior_bytes / 4).min((NONE - 1) as usize);
        let tree = Tree {
            nodes: arena(cap, 1024),
            priors: arena(prior_cap, 0),
            used: Padded(AtomicUsize::new(1)),
            priors_used: Padded(AtomicUsize::new(0)),
        };
        tree.init(0, None, 0, 0);
        tree
    }

    /// Writes node `i`. Only for a slot nobody else can see yet (the root before the search
    /// starts, or an index just handed out by `alloc`).
    pub(super) fn init(&self, i: usize, mv: Option<M>, mover: u8, avail_base: u32) {
        self.init_with_prior(i, mv, mover, avail_base, 0.0)
    }

    /// [`Tree::init`] with the policy's prior of the move.
    pub(super) fn init_with_prior(
        &self,
        i: usize,
        mv: Option<M>,
        mover: u8,
        avail_base: u32,
        prior: f32,
    ) {
        // SAFETY: the slot is exclusively this thread's until it is linked (Release) into a parent.
        unsafe { (*self.nodes[i].get()).write(Node::new(mv, mover, avail_base, prior)) };
    }

    /// Node `i`, which must have been initialised (the root, or reached through a link).
    pub(super) fn node(&self, i: u32) -> &Node<M> {
        // SAFETY: every index reachable from the root was written by `init` before it was linked.
        unsafe { (*self.nodes[i as usize].get()).assume_init_ref() }
    }

    /// Hands out up to `n` consecutive fresh slots (fewer, or none, when the arena is full).
    pub(super) fn alloc_many(&self, n: usize) -> std::ops::Range<usize> {
        let cap = self.nodes.len();
        if n == 0 || self.used.load(Ordering::Relaxed) >= cap {
            return 0..0;
        }
        let i = self.used.fetch_add(n, Ordering::Relaxed);
        i.min(cap)..(i + n).min(cap)
    }

    pub(super) fn is_full(&self) -> bool {
        self.used.load(Ordering::Relaxed) >= self.nodes.len()
    }

    /// Links a fresh node as the first child of `parent` (caller holds parent's lock).
    pub(super) fn link(&self, parent: u32, child: u32) {
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
        self.node(first as u32)
            .run
            .store(slots.len() as u32, Ordering::Relaxed);
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

    pub(super) fn children(&self, parent: u32) -> Children<'_, M> {
        Children {
            tree: self,
            next: self.node(parent).first_child.load(Ordering::Acquire),
            left: 0,
        }
    }

    /// The priors stored for `node`'s `n` moves, if a widening stored that many.
    pub(super) fn stored_priors(&self, node: u32, n: usize) -> Option<&[f32]> {
        let at = self.node(node).priors_at.load(Ordering::Acquire) as usize;
        if at == NONE as usize {
            return None;
        }
        // SAFETY: a run (its length, then the priors) was written whole by `store_priors`
        // before `priors_at` was published (Release, read above with Acquire), and is never
        // written again.
        let len = unsafe { (*self.priors[at].get()).assume_init() };
        if len as usize != n {
            return None;
        }
        let run = &self.priors[at + 1..at + 1 + n];
        // SAFETY: as above; the length matched, so the whole run was written; MaybeUninit<u32>
        // and UnsafeCell<_> have u32's layout, and f32 has u32's size and alignment.
        Some(unsafe { std::slice::from_raw_parts(run.as_ptr() as *const f32, n) })
    }

    /// Stores `priors` as `node`'s (caller holds the node's lock) and gives them back from the
    /// store; None when it is full. A node has one run: its moves are the same list at each
    /// widening (a run of another count would replace it, the old one left unread).
    pub(super) fn store_priors(&self, node: u32, priors: &[f32]) -> Option<&[f32]> {
        let n = priors.len();
        // The run's length first: a reader asking for another count gets none.
        let len = 1 + n;
        let cap = self.priors.len();
        if n == 0 || self.priors_used.load(Ordering::Relaxed) + len > cap {
            return None;
        }
        let at = self.priors_used.fetch_add(len, Ordering::Relaxed);
        if at + len > cap {
            return None;
        }
        let run = std::iter::once(n as u32).chain(priors.iter().map(|p| p.to_bits()));
        for (slot, p) in self.priors[at..at + len].iter().zip(run) {
            // SAFETY: `at..at + len` was handed to this thread alone by the fetch_add above.
            unsafe { (*slot.get()).write(p) };
        }
        self.node(node)
            .priors_at
            .store(at as u32, Ordering::Release);
        self.stored_priors(node, n)
    }

    pub(super) fn hashfull(&self) -> u32 {
        (self.used.load(Ordering::Relaxed).min(self.nodes.len()) * 1000 / self.nodes.len()) as u32
    }
}

pub(super) struct Children<'a, M> {
    tree: &'a Tree<M>,
    next: u32,
    /// The siblings after `next` in its run, reached by index, without reading a link.
    left: u32,
}

impl<M: Copy> Iterator for Children<'_, M> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let i = self.next;
        if self.left > 0 {
            self.left -= 1;
            self.next = i + 1;
            return Some(i);
        }
        if i == NONE {
            return None;
        }
        let nd = self.tree.node(i);
        // A run's nodes were all written before the run was linked (Release, read with
        // Acquire on the way here), so its length and slots are there to be read.
        let run = nd.run.load(Ordering::Relaxed);
        if run > 1 {
            self.left = run - 2;
            self.next = i + 1;
        } else {
            // The run's last node: its link may have been set since (Release, by `append`).
            self.next = nd.next_sibling.load(Ordering::Acquire);
        }
        Some(i)
    }
}

/// Children a node gets at its expansion under progressive widening (more as it is visited).
pub(super) const FIRST_CHILDREN: usize = 2;

/// The order a node widens in: the learned policy's, with
/// `noisy_first` the moves `move_priority` ranks above 0 (captures, promotions) before the
/// others; without a policy, `move_priority`'s.
#[derive(Clone, Copy)]
pub(super) struct Order<'a> {
    pub policy: Option<&'a Policy>,
    pub noisy_first: bool,
}

impl<'a> Order<'a> {
    /// `move_priority`'s order.
    #[cfg(test)]
    pub fn hand() -> Self {
        Order {
            policy: None,
            noisy_first: false,
        }
    }

    /// The policy's order.
    #[cfg(test)]
    pub fn of(policy: &'a Policy) -> Self {
        Order {
            policy: Some(policy),
            noisy_first: false,
        }
    }
}

/// Perfect information (caller holds the node's lock): gives children to the next `more` of
/// the node's moves `moves` (the state's legal moves, or the root's searched ones) in the
/// policy's order when there is one (each child keeps its prior; with `noisy_first` the moves
/// `move_priority` ranks above 0, captures and promotions, come first in its order), else in
/// `move_priority` order — stable, so the moves that have children are always the first ones —
/// after the existing children. Marks the node complete once every move has its child. Returns
/// whether any was added (none when the arena is full). `scratch` holds lists reused from one
/// call to the next.
pub(super) fn widen<G: Game>(
    tree: &Tree<G::Move>,
    node: u32,
    state: &G,
    moves: &[G::Move],
    more: usize,
    order: Order,
    scratch: &mut WidenScratch<G::Move>,
) -> bool {
    let Order {
        mut policy,
        noisy_first,
    } = order;
    let nd = tree.node(node);
    let have = nd.widened.load(Ordering::Relaxed);
    if have & COMPLETE != 0 {
        return false;
    }
    let have = have as usize;
    // (key, place in `moves`, move): `move_priority`, or the policy's prior where it orders.
    let keyed = &mut scratch.keyed;
    keyed.clear();
    let by_hand = policy.is_none() || noisy_first;
    keyed.extend(moves.iter().enumerate().map(|(i, &m)| {
        let key = if by_hand {
            state.move_priority(m) as f32
        } else {
            0.0
        };
        (key, i as u32, m)
    }));
    // Noisy moves first: while the moves to add are all noisy, their order (and ranks) are
    // `move_priority`'s with or without the policy, whose priors are not needed yet (in a
    // hyperchess middlegame most nodes have two captures or more: their priors, hundreds of
    // moves' features, are computed only if they widen past them).
    if noisy_first && keyed.iter().filter(|k| k.0 > 0.0).count() >= have.saturating_add(more) {
        policy = None;
    }
    // The policy's priors of `moves`, in their order (none without a policy).
    let mut priors: &[f32] = &[];
    if let Some(p) = policy {
        // A node's priors are the same at each of its widenings (its moves come in the
        // state's generation order each time): computed at its first widening and stored
        // in the tree for every thread; when the store is full, kept by this thread.
        priors = match tree.stored_priors(node, moves.len()) {
            Some(stored) => stored,
            None if scratch
                .priors
                .get(&node)
                .is_some_and(|kept| kept.len() == moves.len()) =>
            {
                &scratch.priors[&node]
            }
            None => {
                let fresh = &mut scratch.fresh;
                p.priors(state, moves, &mut scratch.feats, fresh);
                match tree.store_priors(node, fresh) {
                    Some(stored) => stored,
                    None => {
                        if scratch.priors_kept >= PRIORS_KEPT {
                            scratch.priors.clear();
                            scratch.priors_kept = 0;
                        }
                        scratch.priors_kept += fresh.len();
                        // Moved, not copied: the next node's priors need a list anew.
                        scratch.priors.insert(node, std::mem::take(fresh));
                        &scratch.priors[&node]
                    }
                }
            }
        };
        for (k, &prior) in keyed.iter_mut().zip(priors) {
            // Noisy moves first: above every prior (at most 1), in their order.
            k.0 = if noisy_first && k.0 > 0.0 {
                1.0 + k.0
            } else {
                prior
            };
        }
    }
    let (lo, hi) = (
        have.min(keyed.len()),
        have.saturating_add(more).min(keyed.len()),
    );
    rank_range(keyed, lo, hi);
    let next = &keyed[lo..hi];
    let slots = tree.alloc_many(next.len());
    let mover = state.to_move() as u8;
    for (ch, &(_, i, m)) in slots.clone().zip(next) {
        let prior = priors.get(i as usize).copied().unwrap_or(0.0);
        tree.init_with_prior(ch, Some(m), mover, 0, prior);
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

/// The lists [`widen`] reuses from one call to the next (one set per search thread): the moves
/// with their keys, a move's features and a node's priors for the policy, and the priors this
/// thread computed while the tree's store was full.
pub(super) struct WidenScratch<M> {
    keyed: Vec<(f32, u32, M)>,
    feats: Vec<u32>,
    /// The priors of the node being widened, before the store takes them.
    fresh: Vec<f32>,
    /// The policy's priors of the nodes this thread widened while the tree's store was full, by
    /// node (at most [`PRIORS_KEPT`] priors in all; cleared when full).
    priors: fxhash::FxHashMap<u32, Vec<f32>>,
    priors_kept: usize,
}

/// Priors a search thread keeps (4 MiB of them): a chess-for-three node has about 25 moves, a
/// hyperchess 3x3 node hundreds; most nodes are never widened after their expansion.
const PRIORS_KEPT: usize = 1 << 20;

impl<M> Default for WidenScratch<M> {
    fn default() -> Self {
        WidenScratch {
            keyed: Vec::new(),
            feats: Vec::new(),
            fresh: Vec::new(),
            priors: Default::default(),
            priors_kept: 0,
        }
    }
}

/// Puts the entries of ranks `lo..hi` of `keyed` (in the order of `moves`) at `lo..hi`, in rank
/// order, the others anywhere else: ranked by key, highest first, ties by place (the order of a
/// stable sort by key; the places are distinct, so the ranking is total). A new node takes its
/// first [`FIRST_CHILDREN`] moves of hundreds: those are picked in one pass instead of sorting
/// every move; a later widening (a few at a time, geometrically) sorts as before, where the
/// stable sort's runs of equal keys (the quiet moves) make it cheap.
pub(super) fn rank_range<M: Copy>(keyed: &mut [(f32, u32, M)], lo: usize, hi: usize) {
    let hi = hi.min(keyed.len());
    if lo >= hi {
        return;
    }
    if lo > 0 || hi > FIRST_CHILDREN {
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        return;
    }
    let better = |a: &(f32, u32, M), b: &(f32, u32, M)| {
        a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)) == std::cmp::Ordering::Greater
    };
    for i in 1..keyed.len() {
        // keyed[..hi.min(i)] holds the best of keyed[..i], best first.
        let mut j = if i < hi {
            i
        } else if better(&keyed[i], &keyed[hi - 1]) {
            keyed.swap(i, hi - 1);
            hi - 1
        } else {
            continue;
        };
        while j > 0 && better(&keyed[j], &keyed[j - 1]) {
            keyed.swap(j, j - 1);
            j -= 1;
        }
    }
}
