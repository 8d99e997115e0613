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

/// A thread's own counts at the root not yet added to the root's: they are added in batches
/// with the iteration count (after every iteration with one thread, so one thread's trees are
/// as before). Every descent of every thread ends by counting the root's visit and, with
/// hidden information, begins by counting that all its children were available: two writes to
/// one line per playout that the other threads keep reading, the one line every descent
/// shares. With tesseris's one-level tree and its short playouts, that line was most of what
/// two threads lost.
#[derive(Default)]
pub(super) struct RootCounts {
    pub visits: u32,
    pub all_available: u32,
}

impl RootCounts {
    /// Adds the counts to the root's (node 0 of `tree`) and clears them.
    pub(super) fn flush<M: Copy>(&mut self, tree: &Tree<M>) {
        let root = tree.node(0);
        if self.visits > 0 {
            root.visits.fetch_add(self.visits, Ordering::Relaxed);
        }
        if self.all_available > 0 {
            root.all_available
                .fetch_add(self.all_available, Ordering::Relaxed);
        }
        *self = RootCounts::default();
    }
}

/// UCB1 with virtual loss; with `available` (ISMCTS), only children whose move is in it, with
/// availability counts in place of the parent's visits (`all_available`: every child is).
/// `minimax` mixes each child's implicit minimax value into its mean; `widening` > 0 considers
/// only the first `1 + widening · √visits` children not proven lost (they are in priority order).
/// Also says whether that window is wider than the children there are (`widen` can add more).
/// With `knobs.puct` > 0, a child's prior (the learned policy's) adds `puct · prior · √N / (1 +
/// n)`, as in PUCT. `own`: at the root, the thread's counts not yet added to it.
pub(super) fn select<M: Copy + Eq + std::hash::Hash>(
    tree: &Tree<M>,
    node: u32,
    available: Option<&FxHashSet<M>>,
    all_available: bool,
    knobs: Knobs,
    own: Option<&mut RootCounts>,
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
    let (own_visits, parent_all) = match own {
        Some(o) => {
            o.all_available += all_available as u32;
            (
                o.visits,
                parent.all_available.load(Ordering::Relaxed) + o.all_available,
            )
        }
        None if all_available => (0, parent.all_available.fetch_add(1, Ordering::Relaxed) + 1),
        None => (0, parent.all_available.load(Ordering::Relaxed)),
    };
    let parent_n = (parent.visits.load(Ordering::Relaxed) + own_visits).max(1) as f64;
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
        let n = cn.visits.load(Ordering::Relaxed) as f64;
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
