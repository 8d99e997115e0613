//! The transposition table of the alpha-beta searches (alpha-beta, shared by its Lazy SMP
//! threads, and Best-Reply Search): the bound an entry's score is, how decisive scores (mate,
//! win) are stored, and the table kept from one search to the next.

use super::Context;
use std::sync::atomic::{AtomicU64, Ordering};

/// What an entry's score says about the position's value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value itself (a principal-variation node).
    Exact = 0,
    /// At least the score (a cutoff: a move this good was found).
    Lower = 1,
    /// At most the score (every move failed low).
    Upper = 2,
}

impl Bound {
    /// The bound of a node's best score against the window it was searched with
    /// (`alpha0` as it was on entry).
    pub fn of(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a score `s` of this bound settles the window (`alpha`, `beta`): exact, at or
    /// above beta as a lower bound, at or below alpha as an upper one.
    pub fn settles(self, s: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        }
    }

    /// The bound stored as two bits (as `Bound as u64` packs it).
    pub fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

/// A score to store at `ply`: decisive scores (beyond `decisive`, e.g. mate in N plies from the
/// root) become distances from this node, so the entry is right wherever it is probed.
pub fn to_tt(score: i32, ply: usize, decisive: i32) -> i32 {
    if score > decisive {
        score + ply as i32
    } else if score < -decisive {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`]: a stored score seen from `ply`.
pub fn from_tt(score: i32, ply: usize, decisive: i32) -> i32 {
    if score > decisive {
        score - ply as i32
    } else if score < -decisive {
        score + ply as i32
    } else {
        score
    }
}

/// The move index of an entry that names no move (quiescence's in alpha-beta, BRS's).
pub const NO_MOVE: u16 = u16::MAX;

/// What the table says of a position.
#[derive(Clone, Copy)]
pub struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Index of the best move in the position's `legal_moves` order ([`NO_MOVE`]: none).
    pub move_index: u16,
}

/// Lockless table: each slot holds (key ^ data, data) so that a torn write is detected.
pub struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
}

/// `n` zeroed slots from the allocator's zeroed memory: the OS maps pages as they are first
/// written, so a large `Hash` costs nothing until the search uses it. None if memory is short.
fn zeroed_slots(n: usize) -> Option<Box<[[AtomicU64; 2]]>> {
    let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(n).ok()?;
    // SAFETY: all-zero bytes are a valid AtomicU64 (0); the layout is exactly the one
    // Box<[T]> frees with.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut [AtomicU64; 2];
        if p.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)))
    }
}

impl Table {
    /// The table the engine's last search kept, if it had the `Hash` size asked for now.
    pub fn kept(ctx: &Context) -> Option<Self> {
        let kept = ctx.memory?.take()?.downcast::<Kept>().ok()?;
        (kept.hash_mb == ctx.params.hash_mb).then_some(kept.table)
    }

    pub fn new(mb: usize) -> Self {
        // The largest power of two of 16-byte slots that fits in `mb`; halved while memory is short.
        let mut bytes = mb.max(1) * 1024 * 1024;
        if let Some(avail) = super::available_memory() {
            bytes = bytes.min(avail / 4 * 3);
        }
        let mut n = ((bytes / 16 + 1).next_power_of_two() / 2).max(1024);
        loop {
            if let Some(slots) = zeroed_slots(n) {
                // Probes land anywhere in the table: with small pages nearly every probe of a
                // 64 MiB table also missed the processor's cache of page translations.
                super::advise_huge_pages(&slots);
                return Table { slots, mask: n - 1 };
            }
            if n <= 1024 {
                // Not even 16 KiB: nothing sensible is left to do.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[AtomicU64; 2]>());
            }
            n /= 2;
        }
    }
    fn pack(e: Entry) -> u64 {
        (e.score as u32 as u64)
            | (e.depth as u64) << 32
            | (e.bound as u64) << 40
            | (e.move_index as u64) << 42
            | 1 << 63
    }
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[key as usize & self.mask];
        let data = s[1].load(Ordering::Relaxed);
        if data == 0 || s[0].load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        let bound = Bound::from_bits(data >> 40);
        Some(Entry {
            score: data as u32 as i32,
            depth: (data >> 32) as u8,
            bound,
            move_index: (data >> 42) as u16,
        })
    }
    /// Asks the processor to bring `key`'s slot into the cache, so that a probe made a little
    /// later (once the child's status and checks are known) finds it there: the table is far
    /// larger than the caches, and its probes waited on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.slots[key as usize & self.mask].as_ptr() as *const i8;
            // SAFETY: a prefetch only hints; `p` points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
    pub fn store(&self, key: u64, e: Entry) {
        let s = &self.slots[key as usize & self.mask];
        // Depth-preferred with always-replace for a different position.
        let old = s[1].load(Ordering::Relaxed);
        if old != 0
            && s[0].load(Ordering::Relaxed) ^ old == key
            && ((old >> 32) as u8) > e.depth
            && e.bound != Bound::Exact
        {
            return;
        }
        let data = Self::pack(e);
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        (self.slots[..n]
            .iter()
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count()
            * 1000
            / n) as u32
    }

    /// Leaves the table for the engine's next search, as chess engines keep theirs from move to
    /// move (with no [`super::Memory`], frees it on another thread, after the answer: filling
    /// or freeing tens of megabytes is not quick, least of all on a busy machine).
    pub fn keep(self, ctx: &Context) {
        match ctx.memory {
            Some(memory) => memory.put(Box::new(Kept {
                table: self,
                hash_mb: ctx.params.hash_mb,
            })),
            None => {
                std::thread::spawn(move || drop(self));
            }
        }
    }
}

/// Makes ready the table the next alpha-beta or Best-Reply Search will find in `memory`, unless
/// it holds one of `hash_mb` MiB already: allocated and every page written, so that the search
/// does not pay for mapping the memory on its clock (64 MiB took 100 to 240 ms of a first
/// `go depth 3` that needed 7 ms once mapped). The protocol calls it on `isready` and
/// `ucinewgame` while no search runs, as Stockfish readies its table there.
pub fn prepare(memory: &super::Memory, hash_mb: usize, threads: usize) {
    if let Some(kept) = memory.take() {
        if kept
            .downcast_ref::<Kept>()
            .is_some_and(|k| k.hash_mb == hash_mb)
        {
            memory.put(kept);
            return;
        }
    }
    let table = Table::new(hash_mb);
    table.touch(threads);
    memory.put(Box::new(Kept { table, hash_mb }));
}

impl Table {
    /// Writes a zero on every 4 KiB page, so that the OS maps the whole table now, the table
    /// cut in `threads` parts written side by side (the search's threads are idle then).
    fn touch(&self, threads: usize) {
        const PER_PAGE: usize = 4096 / std::mem::size_of::<[AtomicU64; 2]>();
        let part = self.slots.len().div_ceil(threads.max(1)).max(PER_PAGE);
        std::thread::scope(|scope| {
            for chunk in self.slots.chunks(part) {
                scope.spawn(move || {
                    for slot in chunk.iter().step_by(PER_PAGE) {
                        slot[0].store(0, Ordering::Relaxed);
                    }
                });
            }
        });
    }
}

/// The entries of the table `memory` keeps, if any (for tests).
#[cfg(test)]
pub(crate) fn kept_entries(memory: &super::Memory) -> Vec<Entry> {
    let Some(kept) = memory.take().and_then(|k| k.downcast::<Kept>().ok()) else {
        return Vec::new();
    };
    let t = &kept.table;
    (0..t.slots.len())
        .filter_map(|i| {
            let s = &t.slots[i];
            let data = s[1].load(Ordering::Relaxed);
            (data != 0).then(|| t.probe(s[0].load(Ordering::Relaxed) ^ data))?
        })
        .collect()
}

/// The table a search leaves for the engine's next one ([`super::Memory`]): its entries stay
/// right for the positions they describe, and the next search, two plies on, finds the
/// principal variation's positions and their best moves there. Entries of older searches are
/// replaced as any other (a slot keeps the deeper result for the same position only).
struct Kept {
    table: Table,
    hash_mb: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::deepening::MATE;

    /// `prepare` leaves one table of the size asked for, keeps a fitting one (with its
    /// entries: it is the last search's) and replaces one of another size.
    #[test]
    fn prepare_makes_keeps_or_replaces_the_table() {
        let memory = crate::search::Memory::default();
        let slots_of = |m: &crate::search::Memory| -> (usize, usize) {
            let k = m.take().unwrap().downcast::<Kept>().ok().unwrap();
            let r = (k.table.slots.len(), k.table.slots.as_ptr() as usize);
            m.put(k);
            r
        };
        prepare(&memory, 1, 2);
        let (n, at) = slots_of(&memory);
        assert_eq!(n, 1 << 16, "1 MiB of 16-byte slots");
        prepare(&memory, 1, 2);
        assert_eq!(slots_of(&memory), (n, at), "a fitting table is kept");
        prepare(&memory, 2, 1);
        assert_eq!(slots_of(&memory).0, 1 << 17);
        assert!(kept_entries(&memory).is_empty(), "a new table is empty");
    }

    #[test]
    fn table_entries_round_trip_with_scores_beyond_sixteen_bits() {
        let t = Table::new(1);
        for (key, score) in [
            (0x1234_5678_9abc_def0u64, -987_654),
            (42, 45_000),
            (7, MATE - 3),
        ] {
            let e = Entry {
                score,
                depth: 200,
                bound: Bound::Lower,
                move_index: 65_000,
            };
            t.store(key, e);
            let p = t.probe(key).expect("stored entry");
            assert_eq!((p.score, p.depth, p.move_index), (score, 200, 65_000));
            assert!(p.bound == Bound::Lower);
        }
        assert!(t.probe(99).is_none());
    }

    /// Tables of every size read as empty and keep what is stored at both ends and in the
    /// middle, including those advised onto huge pages; many are made and given back in turn.
    #[test]
    fn tables_of_every_size_start_empty_and_keep_entries() {
        for round in 0..40 {
            let mb = [1, 2, 3, 64][round % 4];
            let t = Table::new(mb);
            assert_eq!(t.hashfull(), 0);
            let n = t.slots.len();
            // The largest power of two of 16-byte slots within `mb` MiB.
            assert_eq!(n * 16, (1 << mb.ilog2()) << 20);
            let e = Entry {
                score: round as i32,
                depth: 9,
                bound: Bound::Exact,
                move_index: 3,
            };
            for key in [0, 1, n as u64 - 1, n as u64 / 2 + 17] {
                assert!(t.probe(key).is_none());
                t.store(key, e);
                assert_eq!(t.probe(key).map(|p| p.score), Some(round as i32));
            }
        }
    }

    #[test]
    fn decisive_scores_round_trip_through_any_ply() {
        for s in [-999_990, -5, 0, 7, 998_999, 999_500] {
            for ply in [0, 3, 40] {
                assert_eq!(from_tt(to_tt(s, ply, 999_000), ply, 999_000), s);
            }
        }
        // A mate 3 plies from a node found 10 plies deep is stored as mate-from-node.
        assert_eq!(to_tt(1_000_000 - 13, 10, 999_000), 1_000_000 - 3);
    }

    #[test]
    fn bounds_pack_in_two_bits() {
        for b in [Bound::Exact, Bound::Lower, Bound::Upper] {
            assert_eq!(Bound::from_bits(b as u64), b);
        }
    }
}
