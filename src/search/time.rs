//! Time management: turns the clock fields of `go` into a soft budget (do not start more work
//! after it) and a hard one (stop at once), keeping `MoveOverhead` in hand on a clock (a
//! `movetime` is the time to think, whole, as in Stockfish); the clock of a running search,
//! which does not run while the engine ponders (`go ponder` until `ponderhit`); and the watchdog
//! that answers for a search a busy machine keeps from stopping at its hard limit (the
//! protocol's job thread and the arena's built-in players both wait through it).

use super::{Limits, SearchParams};
use crate::game::Seat;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long after the client's `stop` the protocol waits for the search's own answer (with its
/// ponder move) before it plays the best move so far: a search thread that is running stops
/// well within it; one a busy machine keeps waiting for a CPU is not waited for.
pub const STOP_GRACE: Duration = Duration::from_millis(2);

/// The hard limit is when the client has the answer. The watchdog answers this long before it
/// for a search that has not answered (the time to deliver a line to a client on a busy
/// machine: p95 about 3 ms with eight busy loops), and the search stops by itself twice this
/// long before it, so that its own answer, with its ponder move and last `info`, normally comes
/// first. (A watchdog 10 ms past the hard limit, then 2 ms past it, added that much to every
/// answer it gave on a busy machine: docs/results.md.)
pub const HARD_STOP_LEAD: Duration = STOP_GRACE;

/// When a search with hard limit `hard` stops by itself: 2 × [`HARD_STOP_LEAD`] before it (at
/// most half the limit).
pub fn own_stop(hard: Duration) -> Duration {
    hard - (HARD_STOP_LEAD * 2).min(hard / 2)
}

/// When the watchdog answers for a search with hard limit `hard`: [`HARD_STOP_LEAD`] before it
/// (at most a quarter of the limit).
pub fn watchdog_at(hard: Duration) -> Duration {
    hard - HARD_STOP_LEAD.min(hard / 4)
}

/// Asks the scheduler to run the calling thread as soon as it wakes (`prompt`), or in the
/// default slices of CPU time (threads it starts take its choice). The threads that must act on
/// time but run little — the session, its input reader, a search's watchdog — ask for it; the
/// search threads, which compute, take the default back. On Linux 6.12 or later (EEVDF) a
/// thread with the shortest slice (0.1 ms) that wakes takes the CPU from one with a longer slice,
/// where with the default it waited for the next tick or the next slice, 4 ms or more on a busy
/// machine; a shorter slice gives it no more CPU time in all. Older kernels ignore the request,
/// other systems have none, and the thread's policy and nice value are kept.
pub fn prompt_wakeups(prompt: bool) {
    #[cfg(target_os = "linux")]
    let _ = sched::set_slice(if prompt { sched::SHORTEST_SLICE_NS } else { 0 });
    #[cfg(not(target_os = "linux"))]
    let _ = prompt;
}

/// Runs `f` with the calling thread asking for prompt wakeups, then restores its slice. For a
/// computing thread's prints: a write to the client's pipe wakes the client's reader, which may
/// take the CPU from the writer while it still holds the output's lock; with the default slice
/// the writer then waits behind every busy process for the CPU (10–15 ms with eight on two
/// cores), and so does a watchdog that needs the same lock to answer at the hard limit. With
/// the shortest slice it gets the CPU back at once (docs/results.md, chess for three's clock).
pub fn prompt_while<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_os = "linux")]
    {
        // The engine's threads have either the shortest slice or the default one (which the
        // kernel reports by its length: 0 asks for it back).
        let old = sched::set_slice(sched::SHORTEST_SLICE_NS);
        let r = f();
        if old.is_some_and(|ns| ns != sched::SHORTEST_SLICE_NS) {
            let _ = sched::set_slice(0);
        }
        r
    }
    #[cfg(not(target_os = "linux"))]
    f()
}

#[cfg(target_os = "linux")]
mod sched {
    /// The shortest slice the kernel grants (it clamps requests to 0.1–100 ms).
    pub const SHORTEST_SLICE_NS: u64 = 100_000;
    const SCHED_OTHER: u32 = 0;
    const SCHED_BATCH: u32 = 3;

    /// `struct sched_attr`, its first version (48 bytes).
    #[repr(C)]
    #[derive(Default)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        /// For the fair policies, the slice in nanoseconds (0: the default).
        runtime: u64,
        deadline: u64,
        period: u64,
    }

    /// Sets the calling thread's slice (0: the default), keeping its policy, nice value and
    /// flags, and returns the slice it had before as the kernel reports it (the default's
    /// length when none was asked for); does nothing under another policy (real-time, idle) or
    /// where the call fails (None).
    pub fn set_slice(ns: u64) -> Option<u64> {
        let size = std::mem::size_of::<SchedAttr>() as u32;
        let mut attr = SchedAttr::default();
        // SAFETY: both calls read or write one `sched_attr` of `size` bytes, which `attr` is.
        unsafe {
            let got = libc::syscall(
                libc::SYS_sched_getattr,
                0,
                &mut attr as *mut SchedAttr,
                size,
                0,
            );
            if got != 0 || !matches!(attr.policy, SCHED_OTHER | SCHED_BATCH) {
                return None;
            }
            let old = attr.runtime;
            attr.size = size;
            attr.runtime = ns;
            let set = libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0);
            (set == 0).then_some(old)
        }
    }

    /// The calling thread's slice in nanoseconds, as the kernel reports it (the default one
    /// unless set; 0 where the kernel has no slices), and its nice value.
    #[cfg(test)]
    pub fn slice_and_nice() -> Option<(u64, i32)> {
        let size = std::mem::size_of::<SchedAttr>() as u32;
        let mut attr = SchedAttr::default();
        // SAFETY: as in `set_slice`.
        let got = unsafe {
            libc::syscall(
                libc::SYS_sched_getattr,
                0,
                &mut attr as *mut SchedAttr,
                size,
                0,
            )
        };
        (got == 0).then_some((attr.runtime, attr.nice))
    }
}

/// What a watchdog saw first.
#[derive(Debug, PartialEq)]
pub enum Watched<T> {
    /// The search's outcome.
    Done(T),
    /// The deadline passed first: the stop flag is set, and the caller answers with the best
    /// move so far without waiting for the search thread.
    Late,
    /// The search thread ended without an outcome (it panicked).
    Gone,
}

/// Waits for a search's outcome on `rx` until `deadline()` (asked again at every wake-up, as
/// `ponderhit` may set it; None: no deadline yet, looked at again every 5 ms while `may_come`,
/// else none at all). At the deadline it sets `stop` and returns [`Watched::Late`].
pub fn watch<T>(
    rx: &Receiver<T>,
    deadline: impl Fn() -> Option<Instant>,
    may_come: bool,
    stop: &AtomicBool,
) -> Watched<T> {
    loop {
        let wait = match deadline() {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None if may_come => Duration::from_millis(5),
            None => Duration::from_secs(3600),
        };
        match rx.recv_timeout(wait) {
            Ok(r) => return Watched::Done(r),
            Err(RecvTimeoutError::Timeout) => {
                if deadline().is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::Relaxed);
                    return Watched::Late;
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Watched::Gone,
        }
    }
}

/// How long a search may think, counted from when its clock starts (the `go`, or `ponderhit`).
/// `None` = no time limit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// A pondering search's clock: stopped until `ponderhit`, which starts it.
#[derive(Debug)]
pub struct Ponder {
    active: AtomicBool,
    /// Milliseconds after the search's start at which `ponderhit` came.
    hit_ms: AtomicU64,
}

impl Default for Ponder {
    fn default() -> Self {
        Ponder {
            active: AtomicBool::new(true),
            hit_ms: AtomicU64::new(0),
        }
    }
}

impl Ponder {
    /// `ponderhit`: the search's clock starts now.
    pub fn hit(&self, start: Instant) {
        self.hit_ms
            .store(start.elapsed().as_millis() as u64, Ordering::Relaxed);
        self.active.store(false, Ordering::Release);
    }
    /// Still pondering (no time limit applies yet).
    pub fn active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }
    /// When the clock started, if it has.
    pub fn origin(&self, start: Instant) -> Option<Instant> {
        if self.active() {
            None
        } else {
            Some(start + Duration::from_millis(self.hit_ms.load(Ordering::Relaxed)))
        }
    }
}

/// Moves assumed still to play when `movestogo` is absent: these games are long.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Thinking time when `go` gives clocks but not the mover's.
pub const NO_CLOCK_MS: u64 = 1000;

/// The budget of a search for `seat` under `limits` and the engine options: `MoveOverhead` and
/// `margin_ms` (the lag the protocol measured) are kept in hand on a clock; with `Ponder` on (the
/// GUI will ponder: its ponderhits save time), the soft limit grows by a quarter, as in
/// Stockfish, within the hard limit.
pub fn budget_of(params: &SearchParams, limits: &Limits, seat: Seat, margin_ms: u64) -> Budget {
    let overhead = params.move_overhead_ms.saturating_add(margin_ms);
    let b = budget_for(limits, seat, overhead);
    if !params.ponder {
        return b;
    }
    Budget {
        soft: b
            .soft
            .map(|s| (s + s / 4).min(b.hard.unwrap_or(Duration::MAX))),
        hard: b.hard,
    }
}

/// The budget for `seat` to move under `limits`, keeping `overhead_ms` in hand on a clock. A
/// `movetime` is the time to think: both limits are that time, whole (at least 1 ms), and the
/// overhead is not taken off it (the client asked for that long; its clock, if any, is not at
/// stake).
pub fn budget_for(limits: &Limits, seat: Seat, overhead_ms: u64) -> Budget {
    if limits.infinite {
        return Budget::default();
    }
    let ms = |soft: u64, hard: u64| Budget {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    };
    if let Some(mt) = limits.movetime {
        let b = mt.max(1);
        return ms(b, b);
    }
    match limits.time.get(seat).copied().flatten() {
        Some(remaining) => {
            let inc = limits.inc.get(seat).copied().flatten().unwrap_or(0);
            let (soft, hard) = budget(remaining, inc, limits.movestogo, overhead_ms);
            ms(soft, hard)
        }
        // Clocks were given, but none for the seat to move: think briefly rather than forever.
        None if limits.time.iter().any(|t| t.is_some()) => ms(NO_CLOCK_MS, NO_CLOCK_MS),
        None => Budget::default(),
    }
}

/// (soft, hard) milliseconds for a clock of `remaining` ms with `inc` ms increment.
pub fn budget(remaining: u64, inc: u64, movestogo: Option<u64>, overhead_ms: u64) -> (u64, u64) {
    let avail = remaining.saturating_sub(overhead_ms).max(1);
    let mtg = movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
    // With movestogo 1 the whole remaining time is this move's, less the safety margin.
    let soft = (avail / mtg + inc * 3 / 4).min(avail * 2 / 5).max(1);
    // The hard limit is sustainable: spending it on every move (with the overhead lost each time)
    // still leaves a positive clock, so a search that overruns its soft limit never flags.
    // When the client says how many moves remain before the clock is refilled (`movestogo`),
    // four fifths of the clock spread over them is sustainable too: movestogo 1 may take four
    // fifths of the clock, 2 two fifths; from 8 on the tenth is the larger.
    let cap = match movestogo {
        Some(_) => (avail / 10 + inc / 2).max(avail * 4 / 5 / mtg),
        None => avail / 10 + inc / 2,
    };
    let soft = soft.min(cap.max(1));
    // Never past four fifths of the clock, however large the increment.
    let hard = (soft * 3)
        .min(cap)
        .min(avail * 4 / 5)
        .max(soft.min(avail * 4 / 5))
        .max(1);
    let soft = soft.min(hard);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_the_time_to_think_whatever_the_overhead() {
        for (mt, overhead, want) in [(1000, 30, 1000), (50, 50, 50), (50, 250, 50), (0, 50, 1)] {
            let l = Limits {
                movetime: Some(mt),
                ..Default::default()
            };
            let b = budget_for(&l, 0, overhead);
            let want = Some(Duration::from_millis(want));
            assert_eq!((b.soft, b.hard), (want, want), "movetime {}", mt);
        }
    }

    #[test]
    fn a_sixty_move_game_never_runs_out_of_a_ten_second_clock() {
        // Spend the hard budget on every move (the worst case) and add the increment.
        let mut clock = 10_000u64;
        for _ in 0..60 {
            let (_, hard) = budget(clock, 100, None, 30);
            assert!(
                hard + 30 < clock,
                "hard budget {} leaves no room on a clock of {}",
                hard,
                clock
            );
            clock = clock - hard - 30 + 100;
        }
        assert!(clock > 100, "clock ran down to {}", clock);
    }

    #[test]
    fn movestogo_spreads_the_clock_over_the_moves_left_and_never_flags() {
        // 40 moves in 60 s, the hard budget spent on every move: the period ends with time left.
        let mut clock = 60_000u64;
        for left in (1..=40).rev() {
            let (soft, hard) = budget(clock, 0, Some(left), 30);
            assert!(
                soft <= hard && hard + 30 < clock,
                "{} to go: clock {}",
                left,
                clock
            );
            clock -= hard + 30;
        }
        assert!(clock > 0);
        // The last moves before the refill may take more than the tenth kept otherwise.
        assert_eq!(budget(10_000, 0, Some(1), 0).1, 8_000);
        assert_eq!(budget(10_000, 0, Some(2), 0).1, 4_000);
        assert_eq!(budget(10_000, 0, Some(20), 0).1, 1_000);
        assert!(budget(10_000, 0, None, 0).1 <= 1_000);
    }

    #[test]
    fn a_large_increment_never_takes_the_hard_limit_past_the_clock() {
        for (clock, inc) in [(1000, 5000), (200, 10_000), (50, 1000), (10_000, 100)] {
            let (soft, hard) = budget(clock, inc, None, 30);
            assert!(
                soft <= hard && hard < clock,
                "clock {} inc {}: soft {} hard {}",
                clock,
                inc,
                soft,
                hard
            );
        }
    }

    #[test]
    fn clocks_without_the_movers_own_give_a_short_think() {
        let l = Limits {
            time: [None, Some(300), None, None],
            ..Default::default()
        };
        let b = budget_for(&l, 0, 30);
        assert_eq!(b.hard, Some(Duration::from_millis(NO_CLOCK_MS)));
    }

    #[test]
    fn ponder_on_grows_the_soft_limit_by_a_quarter_within_the_hard_one() {
        let clock = Limits {
            time: [Some(60_000), Some(60_000), None, None],
            ..Default::default()
        };
        let mut p = SearchParams {
            move_overhead_ms: 50,
            ..Default::default()
        };
        let off = budget_of(&p, &clock, 0, 0);
        p.ponder = true;
        let on = budget_of(&p, &clock, 0, 0);
        let (s_off, s_on) = (off.soft.unwrap(), on.soft.unwrap());
        assert_eq!(s_on, s_off + s_off / 4);
        assert_eq!(on.hard, off.hard);
        // movetime: soft is already the hard limit, nothing grows.
        let mt = Limits {
            movetime: Some(300),
            ..Default::default()
        };
        assert_eq!(budget_of(&p, &mt, 0, 0), budget_for(&mt, 0, 50));
    }

    #[test]
    fn the_watchdog_stops_a_search_that_passes_its_deadline() {
        let (tx, rx) = std::sync::mpsc::channel::<u32>();
        let stop = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_millis(5);
        assert_eq!(watch(&rx, || Some(deadline), false, &stop), Watched::Late);
        assert!(stop.load(Ordering::Relaxed) && Instant::now() >= deadline);
        // An outcome in time is passed on, and the search is not stopped.
        let stop = AtomicBool::new(false);
        tx.send(7).unwrap();
        let later = Instant::now() + Duration::from_secs(60);
        assert_eq!(watch(&rx, || Some(later), false, &stop), Watched::Done(7));
        assert!(!stop.load(Ordering::Relaxed));
        drop(tx);
        assert_eq!(watch(&rx, || None, false, &stop), Watched::Gone);
    }

    /// A thread that asks to wake promptly gets the shortest slice, keeps its nice value, and
    /// gets the default slice back when it asks (Linux 6.12 or later: older kernels report no
    /// slice, and nothing is checked there but the nice value).
    #[cfg(target_os = "linux")]
    #[test]
    fn prompt_wakeups_shorten_the_slice_and_keep_the_nice_value() {
        std::thread::spawn(|| {
            // SAFETY: raises the nice value of this thread only (a Linux thread's own).
            let tid = unsafe { libc::syscall(libc::SYS_gettid) } as libc::id_t;
            assert_eq!(unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, 5) }, 0);
            let (default, nice) = sched::slice_and_nice().expect("sched_getattr");
            assert_eq!(nice, 5);
            prompt_wakeups(true);
            let (short, nice) = sched::slice_and_nice().unwrap();
            assert_eq!(nice, 5, "the nice value is kept");
            if default > 0 {
                assert_eq!(short, sched::SHORTEST_SLICE_NS);
                prompt_wakeups(false);
                assert_eq!(sched::slice_and_nice().unwrap(), (default, 5));
            }
        })
        .join()
        .unwrap();
    }

    /// `prompt_while` runs its closure with the shortest slice and gives the default one back,
    /// and leaves a prompt thread prompt.
    #[cfg(target_os = "linux")]
    #[test]
    fn prompt_while_restores_the_slice() {
        std::thread::spawn(|| {
            let (default, _) = sched::slice_and_nice().expect("sched_getattr");
            if default == 0 {
                return; // a kernel without slices: nothing to see
            }
            let inside = prompt_while(|| sched::slice_and_nice().unwrap().0);
            assert_eq!(inside, sched::SHORTEST_SLICE_NS);
            assert_eq!(sched::slice_and_nice().unwrap().0, default);
            prompt_wakeups(true);
            prompt_while(|| ());
            assert_eq!(sched::slice_and_nice().unwrap().0, sched::SHORTEST_SLICE_NS);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn no_clock_no_deadline() {
        assert_eq!(budget_for(&Limits::default(), 1, 30), Budget::default());
    }
}
