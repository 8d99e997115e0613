//! A net's hidden sums kept up to date from one evaluation to the next (docs/learning.md, "The
//! net"). Each thread keeps, per net, the last position's features, how many times each occurs
//! and its hidden sums. A search evaluates positions a few moves apart one after the other, so
//! most features stay: the sums change by the rows of the features that came and went, which
//! costs a few rows where building them afresh costs one row per active feature (about 860 on a
//! hyperchess 3x3 position). The sums are integers, so either way gives exactly the same ones.

use super::net::Net;
use crate::game::Game;
use std::cell::{Cell, RefCell};

/// Nets whose sums a thread keeps at once (a thread that alternates between two nets keeps
/// both; a fifth replaces the one used longest ago).
const KEPT: usize = 4;

/// One thread's last evaluated position for one net.
#[derive(Default)]
struct Sums {
    /// The net's id (`Net::id`); 0 while none, or while an update is under way (so that an
    /// update cut short by a panic is never reused).
    net: u64,
    /// The last position's features, as `Game::features` gave them.
    feats: Vec<u32>,
    /// How many times each feature occurs in `feats` (a multiset: hyperchess gives a piece
    /// kind's material feature once per piece).
    counts: Vec<i32>,
    /// The hidden sums of `feats`: the biases plus their rows.
    acc: Vec<i32>,
    /// Scratch: the new position's features, then the changes (feature, copies gained).
    next: Vec<u32>,
    changes: Vec<(u32, i32)>,
}

thread_local! {
    static SUMS: RefCell<Vec<Sums>> = const { RefCell::new(Vec::new()) };
    static STATS: Cell<Stats> = const { Cell::new(Stats { updates: 0, rebuilds: 0 }) };
}

/// How this thread's hidden sums were made so far: by updating the last position's (`updates`)
/// or afresh (`rebuilds`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub updates: u64,
    pub rebuilds: u64,
}

/// This thread's counts of updated and rebuilt hidden sums.
pub fn stats() -> Stats {
    STATS.with(|s| s.get())
}

/// Adds `k` copies of `row` to `acc`.
#[inline]
pub(crate) fn add_row(acc: &mut [i32], row: &[i16], k: i32) {
    match k {
        1 => acc.iter_mut().zip(row).for_each(|(a, &w)| *a += w as i32),
        -1 => acc.iter_mut().zip(row).for_each(|(a, &w)| *a -= w as i32),
        _ => acc
            .iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a += k * w as i32),
    }
}

impl Sums {
    fn reset(&mut self, net: &Net) {
        self.feats.clear();
        self.counts.clear();
        self.counts.resize(net.inputs(), 0);
        // The sums of no feature: the biases.
        self.acc.resize(net.hidden(), 0);
        net.accumulate(&[], &mut self.acc);
        self.net = net.id();
    }

    /// Makes these the sums of `g`'s features (each below the net's inputs) for `net`.
    fn update<G: Game>(&mut self, net: &Net, g: &G) {
        if self.net != net.id() {
            self.reset(net);
        }
        self.net = 0;
        let (next, counts, changes) = (&mut self.next, &mut self.counts, &mut self.changes);
        next.clear();
        g.features(next);
        // counts[f] becomes (copies in the last position) − (copies in this one) ...
        for &f in next.iter() {
            counts[f as usize] -= 1;
        }
        // ... which is nonzero exactly where the sums change; taken once (then zero) ...
        changes.clear();
        let mut changed = 0usize;
        for &f in self.feats.iter().chain(next.iter()) {
            let c = &mut counts[f as usize];
            if *c != 0 {
                changes.push((f, -*c));
                changed += c.unsigned_abs() as usize;
                *c = 0;
            }
        }
        // ... and, every touched count now zero, the counts of this position.
        for &f in next.iter() {
            counts[f as usize] += 1;
        }
        // A row costs the same added or taken away: update while that is the fewer rows.
        let rebuild = changed > next.len() / 2;
        if rebuild {
            net.accumulate(next, &mut self.acc);
        } else {
            for &(f, k) in changes.iter() {
                add_row(&mut self.acc, net.row(f), k);
            }
        }
        STATS.with(|s| {
            let mut t = s.get();
            if rebuild {
                t.rebuilds += 1;
            } else {
                t.updates += 1;
            }
            s.set(t)
        });
        std::mem::swap(&mut self.feats, &mut self.next);
        self.net = net.id();
    }
}

/// Calls `f` with the hidden sums of `g`'s features for `net` (`net.fits(g)` must hold), made
/// from this thread's last position for `net` where that is cheaper than afresh.
pub fn with_sums<G: Game, R>(net: &Net, g: &G, f: impl FnOnce(&[i32]) -> R) -> R {
    SUMS.with(|kept| {
        let mut kept = kept.borrow_mut();
        let i = match kept.iter().position(|s| s.net == net.id()) {
            Some(i) => i,
            None if kept.len() < KEPT => {
                kept.push(Sums::default());
                kept.len() - 1
            }
            // The last one is the one used longest ago (see below).
            None => KEPT - 1,
        };
        // The most recently used first.
        kept[..=i].rotate_right(1);
        let s = &mut kept[0];
        s.update(net, g);
        f(&s.acc)
    })
}
