//! The searches and the clock, through the library (no protocol watchdog in between): how soon
//! alpha-beta and Best-Reply Search give way to the clock and to `stop`, what Best-Reply Search
//! keeps between searches, and the built-in players' own watchdog in the arena.

use quatre::arena::player::{self, EngineSpec, Proto, Request, Setup};
use quatre::game::{Game, OptionSpec, Outcome, RuleOptions, Seat, Status};
use quatre::games::AnyGame;
use quatre::search::{Algorithm, Control, Limits, Memory, SearchParams};
use std::sync::atomic::AtomicBool;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A 3x3 hyperchess position full of captures on offer (120 random plies from the start, seed 1):
/// its depth-1 iteration alone takes 63,567 nodes of quiescence. (The middlegame of an arena
/// game used here before, where the built-in alpha-beta overran a 100 ms movetime twofold, took
/// 32,785 until quiescence learnt to skip captures that likely lose material; it now takes
/// 1,900.)
const BUSY: &str = "r1bggbnr/pppppppp/3N4/7N/8/8/PPPPPPPP/BRB1GB1R|rn1ggb1r/pp1bpp1p/2np1n1b/2p3p1/2PP4/6N1/P3PPPP/1RBGnB1R|rnbgg1nr/p3p1p1/1p6/2pp1p1p/8/8/PPP1PPPP/1R1GGB1R|r1bggr2/p1bppbpp/1p3p2/2p5/4N3/1N5P/PPPPPGP1/R1BG1B1R|rnbgkb1r/ppp1pp1p/8/3p2pP/3P4/4PN1R/PPP2PP1/RNBGKn2|r1bgg1nr/p1p2pp1/n2p4/1p5p/P1PPp3/3N2PP/1P2PP2/RNBGGBNR|r1ngg2r/pppppb1p/6pn/5p2/8/N2N4/PPPPPPPP/R1BGGB1R|rnbgg1nr/pppppppp/8/5N2/4P3/5P1P/PPPPG1P1/RNB2BNR|r1bggbnr/pppppppp/4b3/8/2PN4/4P1P1/PP1P2PP/RNBGGB1R w - - 0 61";

/// A threechess middlegame (a self-play game, ply 20) whose depth-1 iteration takes 1,445 nodes.
const THREECHESS_BUSY: &str = "bR,bB,bP,1,rP,2,rR/1,bQ,1,bP,rP,rB,rK,1/bK,bN,bP,2,rP,rN,rQ/bR,bB,bP,2,rP,rB,rR/1,bP,1,bP,rP,1,rP,1/bP,wP,1,wP,wP,2,rP/wP,1,wP,wQ,1,wP,1,wP/wR,wN,wB,1,wK,1,wR,wB r aaa 20 7";

fn position(game: &str, text: &str) -> Box<dyn AnyGame> {
    let entry = quatre::games::find(game).unwrap();
    entry
        .from_text(text, &entry.default_options())
        .expect("the position reads")
}

fn one_thread() -> SearchParams {
    SearchParams {
        threads: 1,
        algorithm: Algorithm::AlphaBeta,
        move_overhead_ms: 0,
        ..SearchParams::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

/// With the clock already out, the first iteration ends once a root move is searched, instead
/// of running to its end past the clock; the move is legal. Node counts, not times: independent
/// of the machine's speed (the clock started a minute ago).
#[test]
fn an_expired_clock_ends_a_long_first_iteration_after_one_root_move() {
    for (game, text, long) in [
        ("hyperchess", BUSY, 20_000),
        ("threechess", THREECHESS_BUSY, 1_000),
    ] {
        let g = position(game, text);
        let params = one_thread();
        let stop = AtomicBool::new(false);
        let full = g.search(&params, &depth(1), &stop, &|_| {});
        let expired = Control {
            start: Instant::now() - Duration::from_secs(60),
            ..Control::new(&stop)
        };
        let movetime = Limits {
            movetime: Some(1000),
            ..Default::default()
        };
        let cut = g.search_controlled(&params, &movetime, expired, &|_| {});
        assert!(
            full.nodes > long,
            "{}: the position no longer makes a long first iteration ({} nodes)",
            game,
            full.nodes
        );
        assert!(
            cut.nodes * 2 < full.nodes,
            "{}: an expired clock searched {} nodes, the whole first iteration {}",
            game,
            cut.nodes,
            full.nodes
        );
        let mv = cut.best.expect("a move");
        assert!(
            g.legal_moves().contains(&mv),
            "{}: {} is not legal",
            game,
            mv
        );
    }
}

/// `stop` is looked at every node, not every thousand: a search stopped before it starts ends
/// at its first node, with a legal move, in alpha-beta and in Best-Reply Search.
#[test]
fn a_stopped_search_ends_at_its_first_node() {
    for (game, text) in [("hyperchess", BUSY), ("threechess", THREECHESS_BUSY)] {
        let g = position(game, text);
        let stop = AtomicBool::new(true);
        let infinite = Limits {
            infinite: true,
            ..Default::default()
        };
        let r = g.search(&one_thread(), &infinite, &stop, &|_| {});
        assert_eq!(r.nodes, 1, "{}", game);
        let mv = r.best.expect("a move");
        assert!(
            g.legal_moves().contains(&mv),
            "{}: {} is not legal",
            game,
            mv
        );
    }
}

/// Best-Reply Search keeps its table for the next search, as alpha-beta does: the same search
/// again needs fewer nodes. Its scores take the root player's view, so a table kept from a
/// search for another seat is not read: the search then goes exactly as on an empty table.
#[test]
fn best_reply_search_keeps_its_table_for_its_own_seat_only() {
    let g = position("threechess", THREECHESS_BUSY);
    let params = one_thread();
    let stop = AtomicBool::new(false);
    let searched = |g: &dyn AnyGame, memory: &Memory| {
        let control = Control {
            memory: Some(memory),
            ..Control::new(&stop)
        };
        let r = g.search_controlled(&params, &depth(3), control, &|_| {});
        let line = &r.report.expect("a report").lines[0];
        (r.nodes, r.best, format!("{:?} {:?}", line.score, line.pv))
    };
    let fresh = searched(g.as_ref(), &Memory::default());
    let kept = Memory::default();
    assert_eq!(searched(g.as_ref(), &kept), fresh);
    let again = searched(g.as_ref(), &kept);
    assert!(
        again.0 < fresh.0,
        "a kept table saved nothing: {} nodes, {} fresh",
        again.0,
        fresh.0
    );
    assert_eq!(again.1, fresh.1);
    // The next seat's search (its positions include the first one's), then the first again.
    let mut next = g.clone_box();
    next.play_text(fresh.1.as_deref().unwrap()).unwrap();
    let other = Memory::default();
    searched(next.as_ref(), &other);
    assert_eq!(searched(g.as_ref(), &other), fresh);
}

// --- the built-in players' watchdog ---------------------------------------------------------

/// Closed while a test holds a search inside `evaluate`.
static GATE: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());
/// How long `evaluate` waits at a closed gate at most.
const GATE_MS: u64 = 20_000;

/// A counting game whose evaluation waits at [`GATE`]: a search that cannot look at its clock,
/// as on a machine too busy to run it.
#[derive(Clone, Debug)]
struct Stuck {
    count: u32,
    opts: RuleOptions,
}

impl Game for Stuck {
    type Move = u32;
    const NAME: &'static str = "stuck";
    fn rule_options() -> &'static [OptionSpec] {
        &[]
    }
    fn start(opts: &RuleOptions) -> Result<Self, String> {
        Ok(Stuck {
            count: 0,
            opts: opts.clone(),
        })
    }
    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String> {
        Ok(Stuck {
            count: text.parse().map_err(|_| "a number")?,
            opts: opts.clone(),
        })
    }
    fn to_text(&self) -> String {
        self.count.to_string()
    }
    fn display(&self) -> String {
        Game::to_text(self)
    }
    fn options(&self) -> &RuleOptions {
        &self.opts
    }
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        self.count as usize % 2
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        if !Game::status(self).is_over() {
            out.extend([1, 2]);
        }
    }
    fn play(&mut self, mv: u32) {
        self.count += mv;
    }
    fn status(&self) -> Status {
        if self.count >= 100 {
            return Status::Over(Outcome::draw(2, "a hundred"));
        }
        Status::Ongoing
    }
    fn hash(&self) -> u64 {
        self.full_hash()
    }
    fn full_hash(&self) -> u64 {
        quatre::zobrist::key(7, self.count as u64)
    }
    fn parse_move(&self, text: &str) -> Result<u32, String> {
        match text {
            "1" => Ok(1),
            "2" => Ok(2),
            _ => Err(format!("1 or 2, not '{}'", text)),
        }
    }
    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn move_index_count(&self) -> usize {
        2
    }
    fn move_index(&self, mv: u32) -> usize {
        mv.clamp(1, 2) as usize - 1
    }
    fn evaluate(&self, _seat: Seat) -> i32 {
        let (lock, cv) = &GATE;
        let closed = lock.lock().unwrap();
        let _ = cv
            .wait_timeout_while(closed, Duration::from_millis(GATE_MS), |c| *c)
            .unwrap();
        0
    }
}

fn set_gate(closed: bool) {
    *GATE.0.lock().unwrap() = closed;
    GATE.1.notify_all();
}

/// A built-in player whose search cannot stop (held in `evaluate`) still answers at its hard
/// limit with a legal move, as the protocol's engine does, instead of waiting for the search;
/// the search, told to stop, ends on its own, and the end of the game waits for it.
#[test]
fn a_builtin_player_answers_for_a_search_that_cannot_stop() {
    let spec = EngineSpec::parse("builtin:alphabeta").unwrap();
    let setup = Setup {
        game: "stuck",
        rule_options: &[],
        proto: Proto::Uci,
        seed: 1,
        handshake_timeout: Duration::from_secs(5),
        label: "stuck".into(),
        verbose: false,
    };
    let mut p = player::start(&spec, &setup).unwrap();
    let state = Stuck::start(&RuleOptions::of::<Stuck>()).unwrap();
    let limits = Limits {
        movetime: Some(50),
        ..Default::default()
    };
    let req = Request {
        position: String::new(),
        go: String::new(),
        limits,
        state: &state,
        wait: Duration::from_millis(150),
        grace: Duration::from_millis(100),
    };
    set_gate(true);
    let answer = p.go(&req);
    set_gate(false);
    let answer = answer.expect("an answer");
    assert!(
        answer.elapsed < Duration::from_millis(GATE_MS),
        "the player waited for its search ({} ms)",
        answer.elapsed.as_millis()
    );
    assert!(["1", "2"].contains(&answer.mv.as_str()), "{}", answer.mv);
    p.finish();
}
