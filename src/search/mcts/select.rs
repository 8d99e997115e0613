//! Selection: UCB1 with virtual loss, ISMCTS availability, proven moves, the implicit minimax
//! value and the progressive widening window.

use super::tree::{Tree, LOSS, SCALE, WIN};
use fxhash::FxHashSet;
use std::sync::atomic::Ordering;

/// Selection's constants: UCB's exploration `c`, the implicit minimax weight, the progressive
/// widening factor (0 = every child) and the prior's weight (0 = none).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Knobs {
    pub c: f64,
    pub minimax: f64,
    pub widening: f64,
    pub puct: f64,
}

/// With hidden information, nodes below this index (the first made: the root, its children and
/// the top of the tree, whose lines every descent of every thread reads) have their visits and
/// rewards counted by each thread in [`OwnCounts`] and added in batches.
pub(super) const TOP: usize = 4096;

/// A thread's own counts at the top of the tree not yet added to the shared ones: they are
/// added in batches with the iteration count (after every iteration with one thread, so one
/// thread's trees are as before). A descent writes each node on its path twice (its visit on the
/// way down, its reward on the way up), the root's line and the root's children's, which every
/// other descent reads, at every playout; and with hidden information the root's count of
/// iterations where all its children were available. With tesseris's one-level tree and its
/// short playouts, those lines were most of what two threads lost. The other threads see a
/// node's newest visits (the virtual loss of a descent under way) only after the batch; the
/// thread itself always does.
pub(super) struct OwnCounts {
    /// Visits and reward sums (fixed point) of the nodes below [`TOP`].
    top: Vec<(u32, u32)>,
    /// The nodes of `top` with counts, each once.
    touched: Vec<u32>,
    /// The root's iterations where all its children were available.
    pub all_available: u32,
}

impl OwnCounts {
    /// Counts for the nodes below [`TOP`] with `hidden` information (ISMCTS), for the root
    /// alone otherwise. (Searches of perfect information, 2 threads, against the same counts for
    /// the whole top: hyperchess 1.010 of the wall time, tesseract 1.037, chess for three 0.983,
    /// and hyperchess on one thread 1.02 for looking each child's counts up; tesseris 0.937.)
    pub(super) fn new(hidden: bool) -> Self {
        OwnCounts {
            top: vec![(0, 0); if hidden { TOP } else { 1 }],
            touched: Vec::new(),
            all_available: 0,
        }
    }

    /// The thread's visits and reward sum of node `i` not yet added.
    #[inline]
    fn get(&self, i: u32) -> (u32, u32) {
        self.top.get(i as usize).copied().unwrap_or((0, 0))
    }

    /// Counts a descent's visit to node `i`; returns the visits it had before (the other
    /// threads' batches not yet added excepted).
    pub(super) fn visit<M: Copy>(&mut self, tree: &Tree<M>, i: u32) -> u32 {
        let nd = tree.node(i);
        match self.top.get_mut(i as usize) {
            Some(c) => {
                if *c == (0, 0) {
                    self.touched.push(i);
                }
                c.0 += 1;
                nd.visits.load(Ordering::Relaxed) + c.0 - 1
            }
            None => nd.visits.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Adds `r` (fixed point, at most one playout's [`SCALE`]) to node `i`'s reward sum.
    pub(super) fn reward<M: Copy>(&mut self, tree: &Tree<M>, i: u32, r: u64) {
        match self.top.get_mut(i as usize) {
            Some(c) => {
                if *c == (0, 0) {
                    self.touched.push(i);
                }
                // (A batch is at most 16 playouts of at most SCALE each: far below u32's range.)
                c.1 += r as u32;
            }
            None => {
                tree.node(i).reward_sum.fetch_add(r, Ordering::Relaxed);
            }
        }
    }

    /// Adds the counts to the tree's and clears them.
    pub(super) fn flush<M: Copy>(&mut self, tree: &Tree<M>) {
        for &i in &self.touched {
            let nd = tree.node(i);
            let (v, r) = std::mem::take(&mut self.top[i as usize]);
            if v > 0 {
                nd.visits.fetch_add(v, Ordering::Relaxed);
            }
            if r > 0 {
                nd.reward_sum.fetch_add(r as u64, Ordering::Relaxed);
            }
        }
        self.touched.clear();
        if self.all_available > 0 {
            tree.node(0)
                .all_available
                .fetch_add(self.all_available, Ordering::Relaxed);
            self.all_available = 0;
        }
    }
}

/// UCB1 with virtual loss; with `available` (ISMCTS), only children whose move is in it, with
/// availability counts in place of the parent's visits (`all_available`: every child is).
/// `minimax` mixes each child's implicit minimax value into its mean; `widening` > 0 considers
/// only the first `1 + widening · √visits` children not proven lost (they are in priority order).
/// Also says whether that window is wider than the children there are (`widen` can add more).
/// With `knobs.puct` > 0, a child's prior (the learned policy's) adds `puct · prior · √N / (1 +
/// n)`, as in PUCT. `own`: the thread's counts not yet added to the tree's.
pub(super) fn select<M: Copy + Eq + std::hash::Hash>(
    tree: &Tree<M>,
    node: u32,
    available: Option<&FxHashSet<M>>,
    all_available: bool,
    knobs: Knobs,
    mut own: Option<&mut OwnCounts>,
) -> (Option<u32>, bool) {
    let Knobs {
        c,
        minimax,
        widening,
        puct,
    } = knobs;
    let parent = &tree.node(node);
    // (Visits include the descents under way, each a loss until its reward is added: the
    // virtual loss.)
    let parent_all = match own.as_deref_mut() {
        // (The thread's own count of the root's all-available iterations.)
        Some(o) if node == 0 => {
            o.all_available += all_available as u32;
            parent.all_available.load(Ordering::Relaxed) + o.all_available
        }
        _ if all_available => parent.all_available.fetch_add(1, Ordering::Relaxed) + 1,
        _ => parent.all_available.load(Ordering::Relaxed),
    };
    let own = own.as_deref();
    let counts = |i: u32| own.map_or((0, 0), |o| o.get(i));
    let parent_n = (parent.visits.load(Ordering::Relaxed) + counts(node).0).max(1) as f64;
    let mut best = None;
    let mut best_v = f64::NEG_INFINITY;
    let mut window = if widening > 0.0 {
        1 + (widening * parent_n.sqrt()) as usize
    } else {
        usize::MAX
    };
    // UCB's ln N, the same for every child unless ISMCTS counts availability per child.
    let parent_ln = parent_n.ln();
    // ISMCTS: the last availability count and its logarithm. Children present since the node's
    // first visit share one count, so one logarithm serves them (tesseris's 86 root moves each
    // took one: 6% of its search).
    let mut last_ln = (0.0f64, 0.0f64);
    for ch in tree.children(node) {
        if window == 0 {
            break;
        }
        let cn = &tree.node(ch);
        let (n_total, ln_total) = match available {
            Some(moves) => {
                let Some(m) = cn.mv() else { continue };
                // (`all_available`: every child's move is in the set.)
                if !all_available && !moves.contains(&m) {
                    continue;
                }
                let own = if all_available {
                    cn.availability.load(Ordering::Relaxed)
                } else {
                    cn.availability.fetch_add(1, Ordering::Relaxed) + 1
                };
                let n = (own + parent_all).saturating_sub(cn.avail_base).max(1) as f64;
                if n != last_ln.0 {
                    last_ln = (n, n.ln());
                }
                last_ln
            }
            None => (parent_n, parent_ln),
        };
        let (own_visits, own_reward) = counts(ch);
        let n = (cn.visits.load(Ordering::Relaxed) + own_visits) as f64;
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
            let sum = cn.reward_sum.load(Ordering::Relaxed) + own_reward as u64;
            let mean = sum as f64 / SCALE / n;
            let q = match cn.value() {
                Some(v) if minimax > 0.0 => (1.0 - minimax) * mean + minimax * v as f64,
                _ => mean,
            };
            let bias = if puct > 0.0 {
                puct * cn.prior as f64 * n_total.sqrt() / (1.0 + n)
            } else {
                0.0
            };
            q + c * (ln_total / n).sqrt() + bias
        };
        if v > best_v {
            best_v = v;
            best = Some(ch);
        }
    }
    (best, widening > 0.0 && window > 0)
}
