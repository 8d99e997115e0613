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

/// What the table says of a position.
#[derive(Clone, Copy)]
pub struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Index of the best move in the position's `legal_moves` order (0xFFFF = none).
    pub move_index: u16,
}

/// Lockless table: each slot holds (key ^ data, data) so that a torn write is detected.
pub struct Table {
    slots: Slots,
    mask: usize,
}

/// A huge page (2 MiB on x86-64 Linux): a table this large or larger is mapped on its own,
/// aligned to one, and advised to be backed by huge pages.
const HUGE_PAGE: usize = 2 << 20;

/// The table's slots: zeroed memory, mapped by the OS as it is first written.
struct Slots {
    ptr: std::ptr::NonNull<[AtomicU64; 2]>,
    n: usize,
    /// How the memory was had, to give it back the same way.
    owner: Owner,
}

enum Owner {
    /// From the allocator, with this layout.
    Alloc(std::alloc::Layout),
    /// An anonymous mapping of its own (Linux): its start and length.
    #[cfg(target_os = "linux")]
    Mapped(*mut libc::c_void, usize),
}

// SAFETY: `Slots` owns its memory as a `Box<[[AtomicU64; 2]]>` would, and atomics may be
// shared and sent between threads.
unsafe impl Send for Slots {}
unsafe impl Sync for Slots {}

impl std::ops::Deref for Slots {
    type Target = [[AtomicU64; 2]];
    fn deref(&self) -> &Self::Target {
        // SAFETY: `ptr` points to `n` zeroed (valid) slots that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.n) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        match self.owner {
            // SAFETY: allocated in `Slots::zeroed` with this very layout.
            Owner::Alloc(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout)
            },
            // SAFETY: the mapping `Slots::mapped` made, unmapped once.
            #[cfg(target_os = "linux")]
            Owner::Mapped(p, len) => unsafe {
                libc::munmap(p, len);
            },
        }
    }
}

impl Slots {
    /// `n` zeroed slots (n >= 1) that the OS maps as they are first written, so a large
    /// `Hash` costs nothing until the search uses it. None if memory is short.
    fn zeroed(n: usize) -> Option<Slots> {
        let bytes = n.checked_mul(std::mem::size_of::<[AtomicU64; 2]>())?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            if let Some(s) = Slots::mapped(n, bytes) {
                return Some(s);
            }
        }
        let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(n).ok()?;
        // SAFETY: the layout's size is nonzero; all-zero bytes are a valid AtomicU64 (0).
        let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut [AtomicU64; 2];
        Some(Slots {
            ptr: std::ptr::NonNull::new(p)?,
            n,
            owner: Owner::Alloc(layout),
        })
    }

    /// `n` slots (`bytes` bytes) in an anonymous mapping of their own, aligned to a huge page
    /// and advised to be backed by huge pages, as Stockfish's table is: probes land anywhere
    /// in the table, and with 4 KiB pages nearly every probe of a 64 MiB table also missed
    /// the processor's cache of page translations. An anonymous mapping reads as zeros and
    /// takes memory only where written (the allocator, asked for such an alignment, would
    /// write zeros over all of it first).
    #[cfg(target_os = "linux")]
    fn mapped(n: usize, bytes: usize) -> Option<Slots> {
        let len = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let skip = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `skip < HUGE_PAGE`, so `p .. p + bytes` lies within the mapping. The advice
        // only changes how pages are backed; a kernel without huge pages refuses it and the
        // table keeps small pages.
        let p = unsafe {
            let p = (base as *mut u8).add(skip);
            libc::madvise(p as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            p
        };
        Some(Slots {
            ptr: std::ptr::NonNull::new(p as *mut [AtomicU64; 2])?,
            n,
            owner: Owner::Mapped(base, len),
        })
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
            if let Some(slots) = Slots::zeroed(n) {
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

    /// Tables of a huge page or more have memory of their own (a mapping on Linux): it reads
    /// as empty, keeps what is stored anywhere in it, is aligned to a huge page there, and is
    /// given back (many made and dropped in turn).
    #[test]
    fn large_tables_are_empty_aligned_and_given_back() {
        for round in 0..40 {
            let mb = [1, 2, 3, 64][round % 4];
            let t = Table::new(mb);
            assert_eq!(t.hashfull(), 0);
            let n = t.slots.len();
            // The largest power of two of 16-byte slots within `mb` MiB.
            assert_eq!(n * 16, (1 << mb.ilog2()) << 20);
            #[cfg(target_os = "linux")]
            if n * 16 >= HUGE_PAGE {
                assert_eq!(t.slots.as_ptr() as usize % HUGE_PAGE, 0);
            }
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
