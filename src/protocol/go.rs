//! `go` and the search job: the position and the search moves are checked, then the search runs
//! on its own thread, watched by a clock of its own that answers for it when a busy machine
//! keeps it from stopping at its hard limit; `ponderhit`, `stop` and the end of a job.

use super::{info, panic_text, Engine, Output, Wake};
use crate::game::Status;
use crate::games::{AnyGame, SearchSummary};
use crate::search::time::{self, Ponder};
use crate::search::{self, BestSoFar, Control, Limits, SearchParams};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The search job running on its own thread.
pub(super) struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`.
    done: Arc<AtomicBool>,
    /// The clock of a `go ponder` search, started by `ponderhit`.
    ponder: Option<Arc<Ponder>>,
    /// When the `go` arrived.
    start: Instant,
    /// What `stop` plays when the search is slow to stop (None for `perft`, which ends by
    /// itself).
    fallback: Option<Arc<Fallback>>,
    handle: JoinHandle<()>,
}

/// The best move a `go` has so far, played without its search thread: by `stop` when that
/// thread has not stopped within [`time::STOP_GRACE`], and by the watchdog at the hard limit.
pub(super) struct Fallback {
    best: BestSoFar,
    /// Whether the search has printed an `info` line.
    saw_info: AtomicBool,
    /// The first legal move: the answer when the search has found none yet.
    first_legal: Option<String>,
    /// When the `go` arrived.
    received: Instant,
}

impl Fallback {
    fn new(position: &dyn AnyGame, received: Instant) -> Self {
        Fallback {
            best: BestSoFar::default(),
            saw_info: AtomicBool::new(false),
            first_legal: position.legal_moves().into_iter().next(),
            received,
        }
    }

    /// Plays the best move so far (else the first legal move, else `0000`), with an `info`
    /// line first if the search has reported nothing. Returns whether it answered (the job had
    /// not).
    fn answer(&self, answer: &Answer) -> bool {
        let mv = self
            .best
            .get()
            .or_else(|| self.first_legal.clone())
            .unwrap_or_else(|| "0000".into());
        if !self.saw_info.load(Ordering::Relaxed) {
            answer.line(&format!(
                "info depth 1 time {} pv {}",
                self.received.elapsed().as_millis(),
                mv
            ));
        }
        answer.finish(&format!("bestmove {}", mv))
    }
}

impl Engine {
    /// Whether a search runs: true until it has printed its `bestmove`.
    pub(super) fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.done.load(Ordering::Acquire))
    }

    /// Whether a search thread is still running, also one already answered for (by `stop` or
    /// the watchdog) that is still ending.
    pub(super) fn search_thread_alive(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.handle.is_finished())
    }

    /// Whether the running search is pondering (waiting for `ponderhit`).
    pub(super) fn pondering(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| s.ponder.as_ref().is_some_and(|p| p.active()))
    }

    pub(super) fn go(&mut self, mut limits: Limits, received: Instant) -> Result<(), String> {
        // The session makes a `go` wait for the running search (handle_line); never two at once.
        if self.searching() {
            return Err("internal: a search is already running".into());
        }
        let Some(position) = self.position_to_search() else {
            self.out.line("bestmove 0000");
            return Ok(());
        };
        self.keep_legal_searchmoves(position.as_ref(), &mut limits);
        let ponder = limits.ponder.then(|| Arc::new(Ponder::default()));
        let fallback = Arc::new(Fallback::new(position.as_ref(), received));
        let job = GoJob {
            position,
            params: self.params.clone(),
            unlimited: limits.is_unlimited(),
            limits,
            ponder: ponder.clone(),
            received,
            margin: self.lag_ms.load(Ordering::Relaxed),
            lag: self.lag_ms.clone(),
            memory: self.memory.clone(),
            ugi: self.ugi,
            fallback: fallback.clone(),
        };
        if self.debug {
            let ms = |d: Option<std::time::Duration>| {
                d.map_or("none".to_string(), |d| format!("{} ms", d.as_millis()))
            };
            let b = job.budget();
            self.out.line(&format!(
                "info string debug: time budget soft {}, hard {} (MoveOverhead {} ms, lag kept {} ms)",
                ms(b.soft),
                ms(b.hard),
                job.params.move_overhead_ms,
                job.margin
            ));
        }
        let unlimited = job.unlimited;
        self.spawn_job(
            unlimited,
            ponder,
            received,
            Some(fallback),
            move |stop, out, answer| job.run(stop, out, answer),
        )
    }

    /// The position `go` searches, or None (said why) when there is nothing to search: no
    /// position, or a finished game. Where the rules drew by themselves (repetition, the 100-ply
    /// rule, MaxPlies) and the client still asks for a move, it plays on, as a chess GUI does.
    fn position_to_search(&self) -> Option<Box<dyn AnyGame>> {
        let mut position = match self.pos() {
            Ok(p) => p.clone_box(),
            Err(e) => {
                self.out.error(&e);
                return None;
            }
        };
        // Each draw rule in force here, one after the other: a position may reach the 100-ply
        // rule and a threefold repetition with the same move.
        while let Some(reason) = position.play_through_draw() {
            self.out.line(&format!(
                "info string the rules drew this game here ({}); searching on as asked",
                reason
            ));
        }
        if let Status::Over(o) = position.status() {
            self.out
                .line(&format!("info string game over ({})", o.reason));
            return None;
        }
        // A seat's observation hides the other hands: searched for another seat, the move
        // would come from cards drawn at random for the mover.
        if let Some(o) = position.observer() {
            let m = position.to_move();
            if o != m {
                self.out.error(&format!(
                    "go: the position is p{}'s observation and p{} is to move, whose cards it hides: send p{}'s observation or the full state",
                    o + 1,
                    m + 1,
                    m + 1
                ));
                return None;
            }
        }
        Some(position)
    }

    /// `go searchmoves`: keeps the legal ones (in the client's spelling), says which were
    /// dropped, and searches every move when none is left.
    fn keep_legal_searchmoves(&self, position: &dyn AnyGame, limits: &mut Limits) {
        if limits.searchmoves.is_empty() {
            return;
        }
        let mut kept = Vec::new();
        for m in std::mem::take(&mut limits.searchmoves) {
            match position.clone_box().play_text(&m) {
                Ok(()) => kept.push(m),
                Err(e) => self.out.error(&format!("go searchmoves: {}; dropped", e)),
            }
        }
        if kept.is_empty() {
            self.out.error(&format!(
                "go searchmoves: no legal move named; searching all {} moves",
                position.legal_moves().len()
            ));
        }
        limits.searchmoves = kept;
    }

    pub(super) fn ponderhit(&mut self) -> Result<(), String> {
        match &self.search {
            Some(s) if !s.done.load(Ordering::Acquire) => match &s.ponder {
                Some(p) if p.active() => {
                    p.hit(s.start);
                    Ok(())
                }
                Some(_) => Err("'ponderhit' came twice for this search".into()),
                None => {
                    Err("'ponderhit' but the search is not pondering (send 'go ponder …')".into())
                }
            },
            _ => Err("'ponderhit' but no search is running".into()),
        }
    }

    /// Runs `job` on the search thread. It gets the stop flag, the output and its [`Answer`],
    /// and returns its last line, which is printed (unless the job already gave its answer)
    /// after the job is marked done, so that a command sent on seeing that line never waits for
    /// this job. Then the session loop is woken to run the commands that waited for it.
    /// `fallback` is what `stop` plays if the job is slow to answer. The job before, which has
    /// answered, may still be ending (its search told to stop): the new job's thread waits for
    /// it first, as it shares the session's tables and the machine; the session does not (on a
    /// busy machine that wait took up to 36 ms, in which `isready` and `stop` went unanswered).
    pub(super) fn spawn_job(
        &mut self,
        unlimited: bool,
        ponder: Option<Arc<Ponder>>,
        start: Instant,
        fallback: Option<Arc<Fallback>>,
        job: impl FnOnce(&AtomicBool, &Output, &Answer) -> String + Send + 'static,
    ) -> Result<(), String> {
        let previous = self.search.take().map(|s| s.handle);
        self.unlimited_search = unlimited;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let answer = Answer {
            out: self.out.clone(),
            done: done.clone(),
        };
        let out = self.out.clone();
        let wake = self.wake.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                if let Some(p) = previous {
                    let _ = p.join();
                }
                let last = job(&stop2, &out, &answer);
                answer.finish(&last);
                // The commands that waited for this search may run now.
                if let Some(w) = wake {
                    let _ = w.send(Wake::SearchEnded);
                }
            })
            .map_err(|e| format!("cannot start the search thread: {}", e))?;
        self.search = Some(Running {
            stop,
            done,
            ponder,
            start,
            fallback,
            handle,
        });
        Ok(())
    }

    /// `stop` (and `quit`): the search is told to stop, and answers; if it has not within
    /// [`time::STOP_GRACE`] (its threads wait for a CPU on a busy machine), the best move so far
    /// is played here, without waiting for them. Returns once the answer is out, so that
    /// whatever is sent next is answered after it; the search threads may still be ending: the
    /// next job waits for them ([`spawn_job`](Self::spawn_job)).
    pub(super) fn stop_search(&mut self) {
        let Some(s) = &self.search else {
            return;
        };
        s.stop.store(true, Ordering::Relaxed);
        let grace_end = Instant::now() + time::STOP_GRACE;
        while !s.done.load(Ordering::Acquire) && !s.handle.is_finished() {
            if let Some(f) = s.fallback.as_ref().filter(|_| Instant::now() >= grace_end) {
                f.answer(&Answer {
                    out: self.out.clone(),
                    done: s.done.clone(),
                });
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    pub(super) fn wait_search(&mut self) {
        if let Some(s) = self.search.take() {
            let _ = s.handle.join();
        }
    }

    /// Forgets a job that has ended (without waiting for one that has answered but whose search
    /// thread is still ending).
    pub(super) fn reap_search(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.done.load(Ordering::Acquire) && s.handle.is_finished())
        {
            self.wait_search();
        }
    }
}

/// What `go`'s clocks leave unused in `position`: a clock or increment of a seat the game does
/// not have (`p3time` in a two-seat game) is ignored, and clocks given without the seat to move's
/// give it [`time::NO_CLOCK_MS`] to think (see [`time::budget_for`]). One warning each, for the
/// `go: …` error line; none when the clocks fit.
pub(super) fn clock_warnings(limits: &Limits, position: &dyn AnyGame) -> Vec<String> {
    let seats = position.players();
    let mut out = Vec::new();
    for (seat, (t, i)) in limits.time.iter().zip(&limits.inc).enumerate().skip(seats) {
        for (field, v) in [("time", t), ("inc", i)] {
            if let Some(v) = v {
                out.push(format!(
                    "'p{}{} {}': {} has {} seats; ignored",
                    seat + 1,
                    field,
                    v,
                    position.name(),
                    seats
                ));
            }
        }
    }
    let mover = position.to_move();
    // (A finished game is answered `bestmove 0000` whatever the clocks.)
    let timed = limits.movetime.is_none() && !limits.infinite && !position.legal_moves().is_empty();
    let clocks: Vec<String> = (0..limits.time.len())
        .filter(|&s| limits.time[s].is_some())
        .map(|s| format!("p{}", s + 1))
        .collect();
    if timed && !clocks.is_empty() && limits.time.get(mover).copied().flatten().is_none() {
        out.push(format!(
            "no clock for p{}, the seat to move (clocks given: {}); thinking {} ms",
            mover + 1,
            clocks.join(", "),
            time::NO_CLOCK_MS
        ));
    }
    out
}

/// The most the engine keeps in hand for measured lag, on top of `MoveOverhead`.
const MAX_LAG_MS: u64 = 200;

/// Keeps in hand how late an answer came past its hard limit (decaying by a quarter a move).
fn note_lag(lag: &AtomicU64, received: Instant, hard: Option<std::time::Duration>) {
    if let Some(hard) = hard {
        let late = received.elapsed().saturating_sub(hard).as_millis() as u64;
        let old = lag.load(Ordering::Relaxed);
        lag.store(late.max(old * 3 / 4).min(MAX_LAG_MS), Ordering::Relaxed);
    }
}

/// A job's last word: printed once, after the job is marked done; after it, nothing more of the
/// job's output is printed.
pub(super) struct Answer {
    out: Output,
    done: Arc<AtomicBool>,
}

impl Answer {
    /// Prints a line of the job's, unless it has answered already.
    fn line(&self, s: &str) {
        self.out.write_if(|| !self.done.load(Ordering::Acquire), s);
    }
    /// Marks the job done and prints its last line, the first time only (returns whether this
    /// was it); an empty line is not printed.
    fn finish(&self, s: &str) -> bool {
        let mut first = false;
        self.out.write_if(
            || {
                first = !self.done.swap(true, Ordering::AcqRel);
                first
            },
            s,
        );
        first
    }
}

/// One `go` as the search thread runs it.
struct GoJob {
    position: Box<dyn AnyGame>,
    params: SearchParams,
    limits: Limits,
    unlimited: bool,
    /// The clock of a `go ponder`, started by `ponderhit`.
    ponder: Option<Arc<Ponder>>,
    /// When the `go` arrived.
    received: Instant,
    /// Milliseconds kept in hand for measured lag, on top of `MoveOverhead`.
    margin: u64,
    /// The session's lag measure, updated after this answer.
    lag: Arc<AtomicU64>,
    /// What the session's searches keep from one to the next.
    memory: Arc<search::Memory>,
    /// UGI session: `bestmove <move>`, two words (UGI runners read nothing more).
    ugi: bool,
    /// The best move so far, shared with the session's `stop`.
    fallback: Arc<Fallback>,
}

/// What the search hands back: its summary, or the panic that ended it.
type Outcome = std::thread::Result<SearchSummary>;

impl GoJob {
    /// Searches and answers on the search thread, watched: if the search has not answered
    /// by its hard limit ([`time::HARD_STOP_LEAD`]), the watchdog (this thread) plays the best
    /// move so far. Returns an empty line: the answer is out.
    fn run(self, stop: &AtomicBool, out: &Output, answer: &Answer) -> String {
        let saw_info = &self.fallback.saw_info;
        // Nothing the search reports may follow the watchdog's `bestmove`.
        let sink = |e: search::Event| {
            if matches!(e, search::Event::Report(_) | search::Event::Unscored { .. }) {
                saw_info.store(true, Ordering::Relaxed);
            }
            let mut lines = info::lines(&e);
            // More than two seats: each one's learned share at the end of the best line.
            if let search::Event::Report(r) = e {
                let shares = r.lines.first().and_then(|l| self.position.shares(&l.pv));
                lines.extend(shares.map(|s| info::shares_line(&s)));
            }
            // The search thread computes with the default slice, but prints as the watchdog
            // does: promptly (see `prompt_while`).
            time::prompt_while(|| {
                for l in &lines {
                    answer.line(l);
                }
            });
        };
        let control = Control {
            stop,
            ponder: self.ponder.as_deref(),
            start: self.received,
            margin_ms: self.margin,
            best: Some(&self.fallback.best),
            memory: Some(&self.memory),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            let searcher = std::thread::Builder::new()
                .name("search-main".into())
                .spawn_scoped(scope, || {
                    // It computes: the default slices of CPU time (this job's thread asked to
                    // wake promptly).
                    time::prompt_wakeups(false);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let p = &self.position;
                        p.search_controlled(&self.params, &self.limits, control, &sink)
                    }));
                    // From here it only answers (at once, or on `stop` or `ponderhit`), and
                    // prints its answer itself: handing it to the watchdog to print cost
                    // another wait for a CPU on a busy machine (up to 20 ms with eight busy
                    // processes).
                    time::prompt_wakeups(true);
                    let line = self.bestmove_line(r, stop, out);
                    if answer.finish(&line) && self.ponder.is_none() {
                        note_lag(&self.lag, self.received, self.hard());
                    }
                    let _ = tx.send(());
                });
            match searcher {
                // When the watchdog answered, the scope now waits for the search thread, which
                // was told to stop.
                Ok(_) => self.watch(&rx, stop, answer),
                Err(e) => {
                    out.error(&format!("cannot start the search thread: {}", e));
                    self.fallback.answer(answer);
                }
            }
        });
        String::new()
    }

    /// The time budget, as the search computes it (`search::Context::new`).
    fn budget(&self) -> time::Budget {
        time::budget_of(
            &self.params,
            &self.limits,
            self.position.to_move(),
            self.margin,
        )
    }

    /// The hard limit, counted from [`deadline`](Self::deadline)'s origin.
    fn hard(&self) -> Option<std::time::Duration> {
        self.budget().hard
    }

    /// When the watchdog answers: just before the hard limit past the clock's start
    /// ([`time::watchdog_at`]); None while pondering or with no limit.
    fn deadline(&self) -> Option<Instant> {
        let origin = match &self.ponder {
            Some(p) => p.origin(self.received),
            None => Some(self.received),
        };
        Some(origin? + time::watchdog_at(self.hard()?))
    }

    /// The watchdog: waits for the search thread to answer; a search that a busy machine keeps
    /// from answering by its hard limit is not waited for: the best move so far is played.
    fn watch(&self, rx: &std::sync::mpsc::Receiver<()>, stop: &AtomicBool, answer: &Answer) {
        let hard = self.hard();
        match time::watch(rx, || self.deadline(), hard.is_some(), stop) {
            time::Watched::Done(()) => {}
            time::Watched::Late => {
                if self.fallback.answer(answer) {
                    note_lag(&self.lag, self.received, hard);
                }
            }
            // The search thread ended without answering (it panicked outside the search).
            time::Watched::Gone => {
                self.fallback.answer(answer);
            }
        }
    }

    /// `bestmove X [ponder Y]` (UGI: `bestmove X`) for the search's outcome, once the client may
    /// have it: `go
    /// infinite` (or `go` alone) must not print bestmove before `stop`, nor a pondering search
    /// before `ponderhit` or `stop` (UCI).
    fn bestmove_line(&self, r: Outcome, stop: &AtomicBool, out: &Output) -> String {
        let (best, ponder_move) = match r {
            Ok(r) => {
                let next = r
                    .report
                    .as_ref()
                    .and_then(|rep| rep.lines.first())
                    .filter(|l| l.pv.first() == r.best.as_ref())
                    .and_then(|l| l.pv.get(1).cloned());
                (r.best, next)
            }
            Err(p) => {
                // Still answer, with a legal move, so that a GUI is not left waiting.
                out.error(&format!("internal error in the search: {}", panic_text(&p)));
                (self.position.legal_moves().into_iter().next(), None)
            }
        };
        while (self.unlimited || self.ponder.as_ref().is_some_and(|p| p.active()))
            && !stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let best = best.unwrap_or_else(|| "0000".into());
        match ponder_move {
            Some(p) if !self.ugi => format!("bestmove {} ponder {}", best, p),
            _ => format!("bestmove {}", best),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Output the test reads back.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buf {
        fn lines(&self) -> Vec<String> {
            let b = self.0.lock().unwrap();
            String::from_utf8_lossy(&b)
                .lines()
                .map(String::from)
                .collect()
        }
    }

    /// A `go`'s time counts from when its line was read, not from when the session got to it:
    /// a `go movetime 2000` read two seconds ago is answered at once.
    #[test]
    fn a_go_counts_its_time_from_when_it_was_read() {
        let buf = Buf::default();
        let mut e = Engine::new(Output::new(Box::new(buf.clone())), Some("threechess")).unwrap();
        let Some(read) = Instant::now().checked_sub(Duration::from_secs(2)) else {
            return;
        };
        let t0 = Instant::now();
        assert!(e.handle_line_read_at("go movetime 2000", read));
        e.wait_search();
        let lines = buf.lines();
        assert!(
            lines.last().is_some_and(|l| l.starts_with("bestmove ")),
            "{:?}",
            lines
        );
        assert!(
            t0.elapsed() < Duration::from_millis(1000),
            "answered after {:?}",
            t0.elapsed()
        );
    }

    /// `stop` with a search that does not stop (one whose threads a busy machine keeps from
    /// running): the best move so far is played at once, once; nothing the search prints after
    /// it is printed; and a job started next waits for the search to end, on its own thread:
    /// the session answers meanwhile.
    #[test]
    fn stop_is_answered_without_the_search_thread() {
        let buf = Buf::default();
        let mut e = Engine::new(Output::new(Box::new(buf.clone())), Some("hyperchess")).unwrap();
        let position = e.pos().unwrap().clone_box();
        let best = position.legal_moves()[3].clone();
        let fallback = Arc::new(Fallback::new(position.as_ref(), Instant::now()));
        fallback.best.set(best.clone());
        let (release, released) = std::sync::mpsc::channel::<()>();
        let ended = Arc::new(AtomicBool::new(false));
        let ended2 = ended.clone();
        e.spawn_job(
            true,
            None,
            Instant::now(),
            Some(fallback),
            move |_, _, answer| {
                // Deaf to the stop flag until released.
                let _ = released.recv_timeout(Duration::from_secs(60));
                answer.line("info depth 9 pv late");
                ended2.store(true, Ordering::Release);
                "bestmove late".into()
            },
        )
        .unwrap();
        e.stop_search();
        let lines = buf.lines();
        assert_eq!(lines.len(), 2, "{:?}", lines);
        assert!(lines[0].starts_with("info depth 1 time "), "{:?}", lines);
        assert_eq!(lines[1], format!("bestmove {}", best));
        assert!(!e.searching());
        // The next job starts once the last one has ended; the session answers meanwhile.
        let seen = Arc::new(AtomicBool::new(false));
        let seen2 = seen.clone();
        let ended3 = ended.clone();
        e.spawn_job(false, None, Instant::now(), None, move |_, _, _| {
            seen2.store(ended3.load(Ordering::Acquire), Ordering::Release);
            "next".into()
        })
        .unwrap();
        assert!(!ended.load(Ordering::Acquire), "the session waited");
        assert!(e.handle_line("isready"));
        assert_eq!(buf.lines()[2..], ["readyok".to_string()]);
        let _ = release.send(());
        e.wait_search();
        assert!(
            seen.load(Ordering::Acquire),
            "the next job ran beside the last"
        );
        assert_eq!(buf.lines()[3..], ["next".to_string()]);
    }
}
