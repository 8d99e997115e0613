//! Alpha-beta's transposition table: lockless, shared by the Lazy SMP threads, each slot holding
//! (key ^ data, data) so that a torn write is detected; kept from one search to the next.

use super::Kept;
use crate::search::tt::Bound;
use crate::search::Context;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) score: i32,
    pub(super) depth: u8,
    pub(super) bound: Bound,
    /// Index of the best move in the position's `legal_moves` order (0xFFFF = none).
    pub(super) move_index: u16,
}

/// Lockless table: each slot holds (key ^ data, data) so that a torn write is detected.
pub(super) struct Table {
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
    pub(super) fn kept(ctx: &Context) -> Option<Self> {
        let kept = ctx.memory?.take()?.downcast::<Kept>().ok()?;
        (kept.hash_mb == ctx.params.hash_mb).then_some(kept.table)
    }

    pub(super) fn new(mb: usize) -> Self {
        // The largest power of two of 16-byte slots that fits in `mb`; halved while memory is short.
        let mut bytes = mb.max(1) * 1024 * 1024;
        if let Some(avail) = crate::search::available_memory() {
            bytes = bytes.min(avail / 4 * 3);
        }
        let mut n = ((bytes / 16 + 1).next_power_of_two() / 2).max(1024);
        loop {
            if let Some(slots) = zeroed_slots(n) {
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
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
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
    pub(super) fn store(&self, key: u64, e: Entry) {
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
    pub(super) fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        (self.slots[..n]
            .iter()
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count()
            * 1000
            / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::deepening::MATE;

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
}
