//! `quatre match` end to end. Most tests use a small Nim written here (not in the registry) through
//! the library API, with shell-script engines from tests/engines/ for the misbehaving cases; the
//! tests that drive the `quatre` binary run on every two-seat game the registry has (none yet
//! means they only check the CLI's errors). The big matches are `#[ignore]`d: run them with
//! `cargo test --release --test arena -- --ignored --nocapture`.
//!
//! No test here may depend on how fast the machine is: the tests must pass on a loaded 2-core
//! CI box. Tests about strength or correctness limit moves by nodes (`--nodes`: a built-in
//! player then searches exactly that much, however slowly, and no move can be late); tests
//! about clocks and timeouts give every well-behaved player a wide margin, and make the
//! misbehaving one miss its limit by far more than any scheduling delay.

use quatre::arena::referee::{GameDef, GameRecord};
use quatre::arena::stats::Verdict;
use quatre::arena::{parse_args, run_match, MatchReport};
use quatre::game::{Game, OptionKind, OptionSpec, Outcome, RuleOptions, Seat, Status};
use std::path::PathBuf;
use std::process::Command;

mod common;

// --- the test game ---------------------------------------------------------------------------

/// Nim for 2–4 players: take 1 to 3 from the heap; whoever takes the last one wins alone.
/// `Deal=true` makes the start heap depend on the deal seed (chance in the start);
/// `MaxPlies` > 0 draws the game after that many plies.
#[derive(Clone, Debug)]
struct Nim {
    heap: u32,
    plies: u32,
    players: usize,
    opts: RuleOptions,
}

static NIM_OPTIONS: [OptionSpec; 4] = [
    OptionSpec {
        name: "Heap",
        kind: OptionKind::Spin {
            default: 21,
            min: 1,
            max: 1000,
        },
    },
    OptionSpec {
        name: "Players",
        kind: OptionKind::Spin {
            default: 2,
            min: 2,
            max: 4,
        },
    },
    OptionSpec {
        name: "Deal",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: "MaxPlies",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 1000,
        },
    },
];

impl Game for Nim {
    type Move = u32;
    const NAME: &'static str = "nim";
    fn rule_options() -> &'static [OptionSpec] {
        &NIM_OPTIONS
    }
    fn start(opts: &RuleOptions) -> Result<Self, String> {
        Ok(Nim {
            heap: opts.int("Heap") as u32,
            plies: 0,
            players: opts.int("Players") as usize,
            opts: opts.clone(),
        })
    }
    fn start_with_seed(opts: &RuleOptions, seed: u64) -> Result<Self, String> {
        let mut g = Self::start(opts)?;
        if opts.flag("Deal") {
            g.heap += (seed % 10) as u32;
        }
        Ok(g)
    }
    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String> {
        let v: Vec<u32> = text
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| format!("bad number '{}'", t)))
            .collect::<Result<_, _>>()?;
        match v[..] {
            [heap, plies] => Ok(Nim {
                heap,
                plies,
                players: opts.int("Players") as usize,
                opts: opts.clone(),
            }),
            _ => Err("expected '<heap> <plies>'".into()),
        }
    }
    fn to_text(&self) -> String {
        format!("{} {}", self.heap, self.plies)
    }
    fn display(&self) -> String {
        self.to_text()
    }
    fn options(&self) -> &RuleOptions {
        &self.opts
    }
    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> Seat {
        self.plies as usize % self.players
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.status().is_over() {
            return;
        }
        out.extend((1..=3).filter(|&k| k <= self.heap));
    }
    fn play(&mut self, mv: u32) {
        self.heap -= mv.min(self.heap);
        self.plies += 1;
    }
    fn status(&self) -> Status {
        if self.heap == 0 {
            let last = (self.plies as usize + self.players - 1) % self.players;
            return Status::Over(Outcome::win(last, "took the last one"));
        }
        let mp = self.opts.int("MaxPlies");
        if mp > 0 && self.plies as i64 >= mp {
            return Status::Over(Outcome::draw(self.players, "MaxPlies"));
        }
        Status::Ongoing
    }
    fn hash(&self) -> u64 {
        self.full_hash()
    }
    fn full_hash(&self) -> u64 {
        (self.heap as u64) << 32 | self.plies as u64
    }
    fn parse_move(&self, text: &str) -> Result<u32, String> {
        match text.parse::<u32>() {
            Ok(k) if (1..=3).contains(&k) => Ok(k),
            _ => Err(format!("a move is 1, 2 or 3, not '{}'", text)),
        }
    }
    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn move_index_count(&self) -> usize {
        3
    }
    fn move_index(&self, mv: u32) -> usize {
        mv.clamp(1, 3) as usize - 1
    }
    fn evaluate(&self, _seat: Seat) -> i32 {
        0
    }
    /// The shell-script engines of tests/engines/ play Nim without declaring a `Game` option.
    fn foreign_engines_play(&self) -> bool {
        true
    }
}

// --- helpers ---------------------------------------------------------------------------------

fn engine(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "engines", name]
        .iter()
        .collect();
    p.to_string_lossy().into_owned()
}

fn nim_match(args: &[&str]) -> MatchReport {
    let mut a: Vec<&str> = vec!["--quiet"];
    a.extend_from_slice(args);
    let args = parse_args(a).expect("arguments");
    run_match(GameDef::of::<Nim>(), &args).expect("match runs")
}

fn faults(r: &MatchReport) -> Vec<(String, Option<usize>)> {
    r.records
        .iter()
        .filter(|g| g.termination != "rules")
        .map(|g| (g.termination.clone(), g.offender))
        .collect()
}

fn engine1_score(r: &MatchReport) -> f64 {
    let mut s = 0.0;
    for g in &r.records {
        let seat = g.engines.iter().position(|&e| e == 0).unwrap();
        s += g.result[seat] as f64;
    }
    s / r.records.len() as f64
}

/// The game numbers of a game file, in file order (read as JSON: Nim, the tests' game, is not
/// one `records::read` knows).
fn game_numbers(path: &std::path::Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

fn temp(name: &str) -> PathBuf {
    let mut p = std::env::temp_dir();
    p.push(format!("quatre-arena-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_file(&p);
    p
}

// --- built-in players ------------------------------------------------------------------------

#[test]
fn mcts_beats_random_at_nim() {
    let r = nim_match(&[
        "--engine",
        "builtin:mcts option.Threads=1",
        "--engine",
        "builtin:random",
        "--nodes",
        "2000",
        "--games",
        "10",
        "--concurrency",
        "2",
        "--seed",
        "1",
    ]);
    assert_eq!(r.records.len(), 10);
    assert!(faults(&r).is_empty(), "{:?}", faults(&r));
    let s = engine1_score(&r);
    assert!(s >= 0.8, "mcts scored only {}\n{}", s, r.summary);
    let e = r.elo.unwrap();
    assert!(e.elo > 200.0, "{:?}", e);
    assert!(
        r.summary.contains("Elo (builtin:mcts vs builtin:random)"),
        "{}",
        r.summary
    );
    assert!(r.summary.contains("Pentanomial"), "{}", r.summary);
}

#[test]
fn seats_rotate_and_openings_are_paired() {
    let r = nim_match(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--games",
        "6",
        "--seed",
        "9",
    ]);
    for pair in r.records.chunks(2) {
        assert_eq!(pair[0].group, pair[1].group);
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].opening.len(), 4);
        assert_eq!(pair[0].engines, vec![0, 1]);
        assert_eq!(pair[1].engines, vec![1, 0]);
        assert_eq!(pair[0].seats, vec!["builtin:random", "builtin:random#2"]);
    }
    // Different groups get different openings (with these seeds).
    let openings: std::collections::HashSet<_> =
        r.records.iter().map(|g| g.opening.clone()).collect();
    assert!(openings.len() >= 2);
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let args = [
        "--engine",
        "builtin:mcts option.Threads=1",
        "--engine",
        "builtin:random",
        "--nodes",
        "300",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--option",
        "Heap=30",
    ];
    let with_seed = |s: &str| {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--seed", s]);
        nim_match(&a)
    };
    let moves = |r: &MatchReport| -> Vec<(Vec<String>, Vec<String>, Vec<f32>)> {
        r.records
            .iter()
            .map(|g| (g.opening.clone(), g.moves.clone(), g.result.clone()))
            .collect()
    };
    let a = with_seed("42");
    let b = with_seed("42");
    assert_eq!(moves(&a), moves(&b));
    let c = with_seed("43");
    assert_ne!(moves(&a), moves(&c));
}

#[test]
fn three_players_rotate_through_every_seat() {
    let r = nim_match(&[
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--option",
        "Players=3",
        "--nodes",
        "500",
        "--games",
        "6",
        "--seed",
        "2",
    ]);
    assert_eq!(r.records.len(), 6);
    assert!(faults(&r).is_empty(), "{:?}", faults(&r));
    for g in &r.records {
        assert_eq!(g.result.len(), 3);
        assert!((g.result.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
    // Engine 0 sits at seats 0, 1, 2 in each group of three.
    let seats: Vec<usize> = r.records[..3]
        .iter()
        .map(|g| g.engines.iter().position(|&e| e == 0).unwrap())
        .collect();
    assert_eq!(seats, vec![0, 1, 2]);
    assert!(r.summary.contains("vs the field"), "{}", r.summary);
    assert!(r.summary.contains("p3 W/D/L"), "{}", r.summary);
}

#[test]
fn an_offender_among_three_gets_zero_and_the_others_share() {
    let r = nim_match(&[
        "--engine",
        &engine("illegal.sh"),
        "--engine",
        &engine("take1.sh"),
        "--engine",
        "builtin:random",
        "--option",
        "Players=3",
        "--nodes",
        "100",
        "--games",
        "3",
    ]);
    for g in &r.records {
        let seat = g.engines.iter().position(|&e| e == 0).unwrap();
        assert_eq!(g.offender, Some(seat));
        assert_eq!(g.termination, "illegal move");
        for (s, &x) in g.result.iter().enumerate() {
            assert_eq!(x, if s == seat { 0.0 } else { 0.5 });
        }
    }
}

#[test]
fn maxplies_and_arena_adjudication_end_games() {
    let r = nim_match(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--option",
        "MaxPlies=3",
        "--opening-plies",
        "0",
        "--option",
        "Heap=100",
        "--nodes",
        "1",
    ]);
    for g in &r.records {
        assert_eq!(g.reason, "MaxPlies");
        assert_eq!(g.result, vec![0.5, 0.5]);
        assert_eq!(g.moves.len(), 3);
    }
    let r = nim_match(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--max-plies",
        "5",
        "--option",
        "Heap=100",
        "--nodes",
        "1",
    ]);
    for g in &r.records {
        assert_eq!(g.termination, "adjudication");
        assert_eq!(g.opening.len() + g.moves.len(), 5);
    }
}

/// MCTS at `nodes` against random at Nim, up to `games` games under `sprt`.
fn lopsided_sprt(
    nodes: &str,
    games: &str,
    sprt: &str,
    concurrency: &str,
    seed: &str,
    extra: &[&str],
) -> MatchReport {
    let mut a = vec![
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:random",
        "--nodes",
        nodes,
        "--games",
        games,
        "--sprt",
        sprt,
        "--concurrency",
        concurrency,
        "--seed",
        seed,
    ];
    a.extend_from_slice(extra);
    nim_match(&a)
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let r = lopsided_sprt(
        "2000",
        "200",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "2",
        "1",
        &[],
    );
    assert_eq!(r.verdict, Some(Verdict::H1), "{}", r.summary);
    assert!(r.records.len() < 200, "{} games", r.records.len());
    assert!(r.llr.unwrap() >= 2.94);
    assert!(r.summary.contains("H1 accepted"), "{}", r.summary);
}

/// With one thread an SPRT's match stops at the game that decides it: a worker waits for its
/// game to be counted before it takes the next one, so the same seed gives the same file
/// (before, the next game had often started when the verdict came, and was recorded).
#[test]
fn an_sprt_on_one_thread_stops_at_the_same_game_every_time() {
    let mut lengths = Vec::new();
    let mut first: Option<Vec<Vec<String>>> = None;
    for _ in 0..12 {
        let r = lopsided_sprt("300", "400", "elo0=0,elo1=50", "1", "5", &[]);
        assert_eq!(r.verdict, Some(Verdict::H1), "{}", r.summary);
        let games: Vec<Vec<String>> = r.records.iter().map(|g| g.moves.clone()).collect();
        lengths.push(games.len());
        match &first {
            None => first = Some(games),
            Some(f) => assert_eq!(f, &games, "game counts {:?}", lengths),
        }
    }
}

/// A match stopped part-way and run again with `--resume` plays only the games its file lacks:
/// an SPRT on one thread resumed after 6 games (the last of them cut short, as a killed match
/// leaves it) stops at the same game, with the same games, as the run never stopped; resumed
/// once more, with its verdict in, it plays nothing and says the same.
#[test]
fn a_resumed_sprt_stops_where_the_run_never_stopped_does() {
    let sprt = "elo0=0,elo1=50";
    let whole = lopsided_sprt("300", "400", sprt, "1", "5", &[]);
    assert_eq!(whole.verdict, Some(Verdict::H1), "{}", whole.summary);
    let f = temp("resumed-sprt.jsonl");
    let path = f.to_str().unwrap();
    let part = lopsided_sprt("300", "6", sprt, "1", "5", &["--out", path]);
    assert_eq!(part.records.len(), 6);
    // The 6-game run planned 6 games: its records say so, and a 400-game match is another
    // match. Rewritten as the 400-game match's first games, the last one cut short.
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace(r#""planned":6"#, r#""planned":400"#);
    let cut = text.len() - 40;
    std::fs::write(&f, &text[..cut]).unwrap();
    let moves = |r: &MatchReport| -> Vec<Vec<String>> {
        r.records.iter().map(|g| g.moves.clone()).collect()
    };
    let resumed = lopsided_sprt("300", "400", sprt, "1", "5", &["--out", path, "--resume"]);
    assert_eq!(resumed.verdict, Some(Verdict::H1), "{}", resumed.summary);
    assert_eq!(moves(&resumed), moves(&whole));
    assert_eq!(resumed.llr, whole.llr);
    assert!(
        resumed
            .summary
            .contains("(5 of them kept from the file resumed)"),
        "{}",
        resumed.summary
    );
    let games = || game_numbers(&f);
    assert_eq!(games(), (0..whole.records.len() as u64).collect::<Vec<_>>());
    let again = lopsided_sprt("300", "400", sprt, "1", "5", &["--out", path, "--resume"]);
    assert_eq!(again.verdict, Some(Verdict::H1));
    assert_eq!(moves(&again), moves(&whole));
    assert_eq!(games().len(), whole.records.len());
    let _ = std::fs::remove_file(&f);
}

/// The draw ratio beside engine 1's Elo is of engine 1's games, not of the tournament's: in a
/// round-robin of three where every game is drawn it is 100% (it said 66.7%), and a run of
/// draws gets an interval, not "± 0.0".
#[test]
fn a_round_robin_gives_engine_1_its_own_draw_ratio_and_a_real_interval() {
    let r = nim_match(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random name=r2",
        "--engine",
        "builtin:random name=r3",
        "--nodes",
        "1",
        "--option",
        "MaxPlies=2",
        "--opening-plies",
        "0",
        "--seed",
        "1",
    ]);
    assert!(
        r.records.iter().all(|g| g.result == [0.5, 0.5]),
        "{}",
        r.summary
    );
    assert!(r.summary.contains("draw ratio 100.0%"), "{}", r.summary);
    assert!(!r.summary.contains("± 0.0"), "{}", r.summary);
}

/// A name given with name= is kept as given; an engine named after its command is the one that
/// takes a `#k` (it was `builtin:random#2#2` for the third engine below); two engines given
/// the same name are refused.
#[test]
fn given_names_are_kept_and_command_names_made_distinct() {
    let r = nim_match(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random name=builtin:random#2",
        "--nodes",
        "1",
        "--games",
        "2",
    ]);
    assert_eq!(
        r.engines,
        ["builtin:random", "builtin:random#3", "builtin:random#2"]
    );
    let args = parse_args([
        "--engine",
        "builtin:random name=a",
        "--engine",
        "builtin:random name=a",
        "--nodes",
        "1",
    ])
    .unwrap();
    let e = run_match(GameDef::of::<Nim>(), &args).unwrap_err();
    assert!(e.contains("two engines are named 'a'"), "{}", e);
}

// --- external engines ------------------------------------------------------------------------

#[test]
fn an_external_engine_plays_under_a_clock() {
    let r = nim_match(&[
        "--engine",
        &engine("take1.sh"),
        "--engine",
        "builtin:random",
        // A clock that only an engine which stops answering could run out of: the script
        // answers at once, and even a badly loaded machine answers within seconds.
        "--tc",
        "60+0.05",
        "--games",
        "4",
        "--concurrency",
        "2",
    ]);
    assert!(faults(&r).is_empty(), "{:?}\n{}", faults(&r), r.summary);
    for g in &r.records {
        assert_eq!(g.times_ms.len(), g.moves.len());
        assert_eq!(g.seats.len(), 2);
    }
}

#[test]
fn the_engine_gets_setoptions_positions_and_clocks() {
    let log = temp("positions.log");
    let spec = format!(
        "{} {} option.Threads=1 name=echo",
        engine("echo_position.sh"),
        log.display()
    );
    let r = nim_match(&[
        "--engine",
        &spec,
        "--engine",
        "builtin:random",
        "--tc",
        "60+0.1",
        "--option",
        "Deal=true",
        "--games",
        "1",
        "--seed",
        "5",
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "setoption name Game value nim", "{}", text);
    assert_eq!(lines[1], "setoption name Deal value true", "{}", text);
    assert_eq!(lines[2], "setoption name Threads value 1", "{}", text);
    let g = &r.records[0];
    let deal = g.deal_seed.expect("Deal=true has chance in the start");
    let first_pos = lines.iter().find(|l| l.starts_with("position")).unwrap();
    let expect = format!(
        "position startpos seed {} moves {}",
        deal,
        g.opening.join(" ")
    );
    assert_eq!(*first_pos, expect);
    let go = lines.iter().find(|l| l.starts_with("go")).unwrap();
    assert!(go.starts_with("go wtime 60000 btime 60000 winc 100 binc 100 p1time 60000 p2time 60000 p1inc 100 p2inc 100"), "{}", go);
    assert_eq!(r.engines[0], "echo");
}

#[test]
fn garbage_lines_are_ignored() {
    let r = nim_match(&[
        "--engine",
        &engine("garbage.sh"),
        "--engine",
        &engine("take1.sh"),
        "--nodes",
        "100",
        "--games",
        "2",
    ]);
    assert!(faults(&r).is_empty(), "{:?}", faults(&r));
}

/// Two games of the broken `script` (engine 1) against `opponent`. Unless `limit` gives one,
/// `--timeout` is 10 s: a well-behaved script's handshake takes milliseconds, but a loaded
/// machine may take far longer than that to start a shell.
fn broken_against(script: &str, opponent: &str, limit: &[&str]) -> MatchReport {
    let mut a = vec![
        "--engine".to_string(),
        engine(script),
        "--engine".to_string(),
        opponent.to_string(),
        "--games".to_string(),
        "2".to_string(),
    ];
    if !limit.contains(&"--timeout") {
        a.extend(["--timeout".to_string(), "10000".to_string()]);
    }
    a.extend(limit.iter().map(|s| s.to_string()));
    let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
    let r = nim_match(&a);
    assert_eq!(r.records.len(), 2, "the match goes on after a fault");
    r
}

/// Two games of the broken `script` (engine 1) against the well-behaved `take1.sh`.
fn broken(script: &str, limit: &[&str]) -> MatchReport {
    broken_against(script, &engine("take1.sh"), limit)
}

/// Every game lost by engine 1 (the broken one) with `kind`.
fn assert_lost_by_engine1(r: &MatchReport, kind: &str) {
    for g in &r.records {
        let seat = g.engines.iter().position(|&e| e == 0).unwrap();
        assert_eq!(g.termination, kind, "{:?}", g);
        assert_eq!(g.offender, Some(seat), "{:?}", g);
        assert_eq!(g.result[seat], 0.0);
        assert_eq!(g.result[1 - seat], 1.0);
        assert!(g.reason.contains(&format!("p{}", seat + 1)), "{}", g.reason);
    }
    assert!(r.summary.contains(kind), "{}", r.summary);
}

// Faults that have nothing to do with time are provoked under a node limit: no move can then be
// late, so the only fault possible is the one under test.

#[test]
fn an_illegal_move_loses() {
    let r = broken("illegal.sh", &["--nodes", "100"]);
    assert_lost_by_engine1(&r, "illegal move");
    assert!(
        r.records[0].reason.contains("illegal move: bad move '9'"),
        "{}",
        r.records[0].reason
    );
    let r = broken("empty.sh", &["--nodes", "100"]);
    assert_lost_by_engine1(&r, "illegal move");
}

/// The hanging engine is waited for as long as the limit says (then `stop`, then 1 s of grace);
/// the margin of 1 s is for its opponent, which must never be late on a loaded machine.
#[test]
fn an_engine_that_never_answers_loses() {
    let r = broken("hang.sh", &["--movetime", "50", "--margin", "1000"]);
    assert_lost_by_engine1(&r, "no answer");
    let r = broken("hang.sh", &["--tc", "0.2+0", "--margin", "1000"]);
    assert_lost_by_engine1(&r, "no answer");
    // Without a clock the --timeout bounds the wait: 1 s (and 1 s of grace after stop) a game,
    // where the default (30 s) would take a minute for the two games.
    let t0 = std::time::Instant::now();
    let r = broken("hang.sh", &["--nodes", "100", "--timeout", "1000"]);
    assert_lost_by_engine1(&r, "no answer");
    assert!(t0.elapsed().as_secs() < 30, "{:?}", t0.elapsed());
}

#[test]
fn an_engine_that_exits_loses() {
    let r = broken("exits.sh", &["--nodes", "100"]);
    assert_lost_by_engine1(&r, "crash");
    assert!(
        r.records[0].reason.contains("exit"),
        "{}",
        r.records[0].reason
    );
}

/// slow.sh answers 500 ms after `go` (sleep guarantees at least that), past the 50 ms movetime
/// and the 300 ms margin whatever the load; its opponent is the built-in random player, which
/// answers in microseconds, so it cannot be the one that is late.
#[test]
fn a_slow_engine_loses_on_time() {
    let r = broken_against(
        "slow.sh",
        "builtin:random",
        &["--movetime", "50", "--margin", "300"],
    );
    assert_lost_by_engine1(&r, "time forfeit");
}

/// An engine that never completes its handshake has not started: the game is no result, and
/// as no game was played yet, the match stops and says why (tests/arena_records.rs has more).
#[test]
fn a_failed_handshake_stops_a_match_that_has_not_started() {
    // 2 s for each handshake step: silent.sh never completes one; take1.sh does in far less.
    let args = parse_args([
        "--quiet",
        "--engine",
        &engine("silent.sh"),
        "--engine",
        &engine("take1.sh"),
        "--nodes",
        "100",
        "--timeout",
        "2000",
        "--games",
        "2",
    ])
    .unwrap();
    let err = run_match(GameDef::of::<Nim>(), &args).unwrap_err();
    assert!(
        err.contains("engine 1 (silent.sh) did not start in game 1")
            && err.contains("did not answer at the start"),
        "{}",
        err
    );
}

/// A program that cannot be run at all would lose every game the same way: the match stops with
/// an error that says why, and the game it lost is still in the game file.
#[test]
fn an_engine_that_cannot_be_started_stops_the_match() {
    let out = temp("unstartable.jsonl");
    let args = parse_args([
        "--quiet",
        "--engine",
        "builtin:random",
        "--engine",
        &engine("no-such-engine"),
        "--nodes",
        "100",
        "--games",
        "10",
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    let err = run_match(GameDef::of::<Nim>(), &args).unwrap_err();
    assert!(
        err.contains("engine 2 (no-such-engine): cannot start"),
        "{}",
        err
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let games: Vec<GameRecord> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 1, "the match stopped at the first game");
    assert_eq!(games[0].termination, "crash");
    assert_eq!(games[0].offender, Some(1));
    assert!(
        games[0].reason.contains("cannot start"),
        "{}",
        games[0].reason
    );
}

#[test]
fn games_are_written_as_json_lines() {
    let out = temp("games.jsonl");
    let r = nim_match(&[
        "--engine",
        "builtin:mcts",
        "--engine",
        &engine("illegal.sh"),
        // Under a node limit: a late move would be recorded but not played, and the replay below
        // would (rightly) not reach the recorded end.
        "--nodes",
        "300",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let games: Vec<GameRecord> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(games, r.records);
    assert_eq!(
        games.iter().map(|g| g.game).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for key in [
        "game",
        "group",
        "game_name",
        "options",
        "seats",
        "engines",
        "deal_seed",
        "start",
        "opening",
        "moves",
        "times_ms",
        "result",
        "termination",
        "reason",
        "offender",
        "tc",
    ] {
        assert!(v.get(key).is_some(), "no '{}' in {}", key, v);
    }
    assert_eq!(v["options"]["Heap"], "21");
    // Replaying the record reaches the recorded end.
    for g in &games {
        let def = GameDef::of::<Nim>();
        let mut s = def.from_text(&g.start).unwrap();
        for m in g.opening.iter().chain(g.moves.iter()) {
            if s.play_text(m).is_err() {
                assert_eq!(g.termination, "illegal move");
            }
        }
        assert_eq!(s.to_text(), g.end);
    }
}

#[test]
fn bad_arguments_are_refused() {
    let run = |a: &[&str]| run_match(GameDef::of::<Nim>(), &parse_args(a).unwrap());
    assert!(run(&["--engine", "builtin:random", "--movetime", "10"])
        .unwrap_err()
        .contains("2 seats"));
    assert!(
        run(&["--engine", "builtin:random", "--engine", "builtin:random"])
            .unwrap_err()
            .contains("limit")
    );
    assert!(run(&[
        "--engine",
        "builtin:frob",
        "--engine",
        "builtin:random",
        "--nodes",
        "1"
    ])
    .is_err());
    assert!(run(&[
        "--engine",
        "builtin:baseline",
        "--engine",
        "builtin:random",
        "--nodes",
        "1"
    ])
    .unwrap_err()
    .contains("baseline"));
    assert!(run(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "1",
        "--option",
        "Frob=1"
    ])
    .is_err());
    assert!(run(&[
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--tc",
        "x"
    ])
    .is_err());
    // Limits that would play no game worth recording, counts the game file cannot hold, flags
    // that do nothing alone, a rule given twice: refused before any game.
    let randoms = ["--engine", "builtin:random", "--engine", "builtin:random"];
    for (extra, want) in [
        (&["--nodes", "0"][..], "--nodes must be at least 1"),
        (&["--movetime", "0"], "--movetime must be at least 1"),
        (&["--depth", "0"], "--depth must be at least 1"),
        (
            &["--nodes", "1", "--max-plies", "0"],
            "--max-plies must be at least 1",
        ),
        (
            &["--nodes", "1", "--max-plies", "4"],
            "--max-plies 4 ends games within their opening of 4 plies",
        ),
        (
            &["--nodes", "1", "--opening-plies", "2", "--max-plies", "2"],
            "opening of 2 plies",
        ),
        (
            &["--nodes", "1", "--games", "10000001"],
            "--games: 10000001 games, more than the 10000000",
        ),
        (
            &["--nodes", "1", "--openings-order", "random"],
            "--openings-order orders the lines of --openings FILE",
        ),
        (
            &["--nodes", "1", "--adjudicate", "win=100/2,win=200/3"],
            "'win' is given twice",
        ),
    ] {
        let mut a = randoms.to_vec();
        a.extend_from_slice(extra);
        let e = run(&a).unwrap_err();
        assert!(e.contains(want), "{:?}: {}", extra, e);
    }
    // With more engines than seats the count is the pairings'.
    let mut a = randoms.to_vec();
    a.extend([
        "--engine",
        "builtin:random",
        "--nodes",
        "1",
        "--games",
        "4000000",
    ]);
    let e = run(&a).unwrap_err();
    assert!(
        e.contains("12000000 games (3 pairings of 4000000)"),
        "{}",
        e
    );
    // The limit in the opening is measured on the file's longest line.
    let book = temp("max-plies-book.txt");
    std::fs::write(&book, "startpos moves 1 1\nstartpos moves 1 1 1\n").unwrap();
    let mut a = randoms.to_vec();
    a.extend([
        "--nodes",
        "1",
        "--max-plies",
        "3",
        "--openings",
        book.to_str().unwrap(),
    ]);
    let e = run(&a).unwrap_err();
    assert!(e.contains("opening of 3 plies"), "{}", e);
    a[7] = "4";
    assert!(run(&a).is_ok());
}

#[test]
fn an_opening_too_long_for_the_game_is_refused_before_any_game() {
    // Two random players on a heap of 5, with an opening of `plies` plies.
    let heap_of_5 = |plies: &'static str| {
        [
            &common::TWO_RANDOMS[..],
            &[
                "--nodes",
                "1",
                "--option",
                "Heap=5",
                "--opening-plies",
                plies,
            ],
        ]
        .concat()
    };
    // A heap of 5 cannot last 6 plies: every draw of the opening ends the game inside it.
    let args = parse_args([&["--quiet"][..], &heap_of_5("6")].concat()).unwrap();
    let err = run_match(GameDef::of::<Nim>(), &args).unwrap_err();
    assert!(
        err.starts_with("--opening-plies 6: nim ended within 6"),
        "{}",
        err
    );
    // Two plies fit: the opening is played in full.
    let r = nim_match(&[&heap_of_5("2")[..], &["--seed", "1"]].concat());
    assert!(r.records.iter().all(|g| g.opening.len() == 2));
    // The command line: an error on one line, and no game file (no game was started).
    let out = temp("too-long-opening.jsonl");
    let stderr = refused(
        &common::tiny_match(&[
            "--nodes",
            "5",
            "--games",
            "2",
            "--opening-plies",
            "1000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]),
        "error: --opening-plies 1000: hyperchess ended within 1000",
    );
    assert_eq!(stderr.lines().count(), 1, "{}", stderr);
    assert!(!out.exists(), "a game file was written");
}

#[test]
fn a_bad_tournament_concurrency_or_repeated_sprt_key_is_refused() {
    let base = common::tiny_match(&[
        "--nodes",
        "1",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--quiet",
    ]);
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    // As many engines as seats: one pairing, but the word is still checked.
    for (extra, expect) in [
        (
            &["--tournament", "foo"][..],
            "error: --tournament is round-robin or gauntlet, not 'foo'",
        ),
        (
            &["--concurrency", "0"],
            "error: invalid value '0' for '--concurrency",
        ),
        (
            &["--concurrency", "257"],
            "error: invalid value '257' for '--concurrency",
        ),
        (
            &["--sprt", "elo0=0,elo1=10,alpha=0.05,alpha=0.1"],
            "error: --sprt: alpha is given twice",
        ),
    ] {
        refused(&with(extra), expect);
    }
    // The valid words and bounds are taken.
    for extra in [
        &["--tournament", "gauntlet"][..],
        &["--tournament", "round-robin", "--concurrency", "256"],
        &["--sprt", "elo0=0,elo1=10,alpha=0.1"],
    ] {
        let (ok, _, err) = cli(&with(extra));
        assert!(ok, "{:?}: {}", extra, err);
    }
}

// --- the quatre binary, on the registry's games ---------------------------------------------

fn quatre() -> &'static str {
    env!("CARGO_BIN_EXE_quatre")
}

/// Two-seat games of the registry.
fn two_seat_games() -> Vec<&'static str> {
    quatre::games::all()
        .into_iter()
        .filter(|e| {
            e.start(&e.default_options(), None)
                .map(|g| g.players() == 2)
                .unwrap_or(false)
        })
        .map(|e| e.name)
        .collect()
}

fn cli(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(quatre())
        .args(args)
        .output()
        .expect("run quatre");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `quatre ARGS`, which must fail with nothing on stdout and an error whose first line
/// starts with `expect`; returns its stderr.
fn refused(args: &[&str], expect: &str) -> String {
    let (ok, out, err) = cli(args);
    assert!(!ok, "{:?} was accepted: {}", args, out);
    assert!(out.is_empty(), "{:?}: {}", args, out);
    assert!(
        err.lines().next().unwrap_or("").starts_with(expect),
        "{:?}: {}",
        args,
        err
    );
    err
}

#[test]
fn cli_reports_errors() {
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "nosuchgame",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("unknown game"), "{}", err);
    let (ok, out, _) = cli(&["match", "--help"]);
    assert!(ok);
    for flag in [
        "--engine",
        "--tc",
        "--movetime",
        "--nodes",
        "--margin",
        "--games",
        "--concurrency",
        "--opening-plies",
        "--seed",
        "--sprt",
        "--out",
        "--option",
        "--verbose",
    ] {
        assert!(out.contains(flag), "--help lacks {}", flag);
    }
}

fn check_clean(out: &str, games: &[GameRecord], what: &str) {
    for g in games {
        assert_eq!(
            g.termination, "rules",
            "{}: game {} ended by {}: {}\n{}",
            what, g.game, g.termination, g.reason, out
        );
    }
}

fn cli_match(game: &str, extra: &[&str], file: &str) -> (String, Vec<GameRecord>) {
    let out = temp(file);
    let mut a = vec![
        "match",
        "--game",
        game,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend_from_slice(extra);
    let (ok, stdout, stderr) = cli(&a);
    assert!(ok, "quatre match failed: {}\n{}", stderr, stdout);
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let games = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (stdout, games)
}

#[test]
fn cli_mcts_against_random_on_each_game() {
    for game in two_seat_games() {
        let (out, games) = cli_match(
            game,
            &[
                "--engine",
                "builtin:mcts option.Threads=1",
                "--engine",
                "builtin:random",
                // Nodes, not time: a strength check that a loaded machine cannot turn into
                // time forfeits (and the same games on every machine).
                "--nodes",
                "300",
                "--games",
                "4",
                "--concurrency",
                "2",
                "--seed",
                "3",
            ],
            &format!("{}-mcts.jsonl", game),
        );
        assert_eq!(games.len(), 4);
        check_clean(&out, &games, game);
        assert!(
            out.contains("Elo (builtin:mcts vs builtin:random)"),
            "{}",
            out
        );
        eprintln!("{}", out);
    }
}

#[test]
fn cli_quatre_against_itself_as_an_external_engine() {
    // A small Hash: the engine allocates its whole tree at every `go`, and 64 MiB can eat a
    // short move's budget on a loaded machine (see the big test for the defaults).
    let cmd = format!("{} option.Threads=1 option.Hash=16", quatre());
    for game in two_seat_games() {
        let (out, games) = cli_match(
            game,
            &[
                "--engine",
                &cmd,
                "--engine",
                &cmd,
                // A real clock (the engine's time management is part of what runs here), with
                // a margin of a second for a loaded machine's scheduling delays, and games short
                // enough that such delays cannot add up to the whole clock.
                "--tc",
                "5+0.05",
                "--margin",
                "1000",
                "--games",
                "2",
                "--max-plies",
                "30",
            ],
            &format!("{}-self.jsonl", game),
        );
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(
                g.termination == "rules" || g.termination == "adjudication",
                "{}: {} {}\n{}",
                game,
                g.termination,
                g.reason,
                out
            );
        }
        eprintln!("{}", out);
    }
}

#[test]
fn cli_node_limited_matches_reproduce() {
    let cmd = format!("{} option.Threads=1", quatre());
    for game in two_seat_games() {
        let args = [
            "--engine",
            &cmd,
            "--engine",
            "builtin:mcts option.Threads=1",
            "--nodes",
            "200",
            "--games",
            "2",
            "--seed",
            "11",
            "--max-plies",
            "40",
        ];
        let (_, a) = cli_match(game, &args, &format!("{}-r1.jsonl", game));
        let (_, b) = cli_match(game, &args, &format!("{}-r2.jsonl", game));
        let strip = |v: &[GameRecord]| -> Vec<(Vec<String>, Vec<String>, Vec<f32>)> {
            v.iter()
                .map(|g| (g.opening.clone(), g.moves.clone(), g.result.clone()))
                .collect()
        };
        assert_eq!(strip(&a), strip(&b), "{}", game);
    }
}

/// Hidden-information games send each seat only its observation (`position fen <obs>`).
#[test]
fn cli_hidden_information_games_send_observations() {
    for e in quatre::games::all() {
        let Ok(g) = e.start(&e.default_options(), None) else {
            continue;
        };
        if !g.hidden_information() {
            continue;
        }
        let log = temp(&format!("{}-obs.log", e.name));
        let spec = format!("{} {} declares", engine("echo_position.sh"), log.display());
        let mut engines = vec![spec];
        while engines.len() < g.players() {
            engines.push("builtin:random".into());
        }
        let mut a = vec!["--games", "1", "--nodes", "100", "--seed", "3"];
        for x in &engines {
            a.extend_from_slice(&["--engine", x]);
        }
        let (_, games) = cli_match(e.name, &a, &format!("{}-obs.jsonl", e.name));
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        let pos = text
            .lines()
            .find(|l| l.starts_with("position"))
            .unwrap_or_else(|| panic!("{}: no position line in {:?}", e.name, text));
        let obs = pos.strip_prefix("position fen ").expect("position fen");
        // The observation is what the referee's state shows that seat, and parses back.
        let seat = games[0].engines.iter().position(|&x| x == 0).unwrap();
        let start = e.from_text(&games[0].start, &e.default_options()).unwrap();
        assert_eq!(obs, start.observation_text(seat), "{}", e.name);
        assert_ne!(obs, games[0].start, "{}: the whole state was sent", e.name);
    }
}

/// The acceptance match: 200 games, MCTS against random at 50 ms a move, on every two-seat game.
#[test]
#[ignore]
fn big_mcts_against_random_200_games() {
    for game in two_seat_games() {
        let (out, games) = cli_match(
            game,
            &[
                "--engine",
                "builtin:mcts option.Threads=1",
                "--engine",
                "builtin:random",
                "--movetime",
                "50",
                "--games",
                "200",
                "--concurrency",
                "2",
                "--seed",
                "1",
            ],
            &format!("{}-big.jsonl", game),
        );
        println!("{}", out);
        assert_eq!(games.len(), 200);
        check_clean(&out, &games, game);
        let score: f64 = games
            .iter()
            .map(|g| g.result[g.engines.iter().position(|&e| e == 0).unwrap()] as f64)
            .sum::<f64>()
            / 200.0;
        assert!(score > 0.9, "{}: mcts scored {}", game, score);
    }
}

/// The acceptance self-play: quatre against itself as an external engine at 5+0.05.
#[test]
#[ignore]
fn big_quatre_self_play_at_5_plus_005() {
    let cmd = format!("{} option.Threads=1", quatre());
    for game in two_seat_games() {
        let (out, games) = cli_match(
            game,
            &[
                "--engine",
                &cmd,
                "--engine",
                &cmd,
                "--tc",
                "5+0.05",
                "--games",
                "20",
                "--concurrency",
                "2",
            ],
            &format!("{}-bigself.jsonl", game),
        );
        println!("{}", out);
        check_clean(&out, &games, game);
    }
}

// --- shards, stats and replay ----------------------------------------------------------------

/// A record without what varies between runs of the same games (move times).
fn comparable(r: &GameRecord) -> String {
    let mut r = r.clone();
    r.times_ms.clear();
    r.shard = None; // the one field in which a shard's game differs from the unsharded one
    serde_json::to_string(&r).unwrap()
}

fn records_of(path: &std::path::Path) -> Vec<GameRecord> {
    quatre::arena::records::read(path).expect("a game file")
}

#[test]
fn shards_together_play_the_unsharded_match_and_stats_merges_them() {
    // Three seats (rotation groups of 3) and 14 games: the last group is incomplete.
    let base = [
        "match",
        "--game",
        "threechess",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:random",
        "--nodes",
        "60",
        "--games",
        "14",
        "--seed",
        "11",
        "--max-plies",
        "40",
        "--quiet",
    ];
    let all = temp("shard-all.jsonl");
    let mut args: Vec<&str> = base.to_vec();
    let all_s = all.to_str().unwrap().to_string();
    args.extend(["--out", &all_s, "--sprt", "elo0=0,elo1=10"]);
    let (ok, table, err) = cli(&args);
    assert!(ok, "{}", err);
    let mut shard_files = Vec::new();
    for k in 1..=4 {
        let f = temp(&format!("shard-{}.jsonl", k));
        let (spec, fs) = (format!("{}/4", k), f.to_str().unwrap().to_string());
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--shard", &spec, "--out", &fs]);
        let (ok, out, err) = cli(&a);
        assert!(ok, "{}", err);
        assert!(out.contains(&format!("(shard {}/4)", k)), "{}", out);
        shard_files.push(f);
    }
    // Game for game: the union of the shards is the unsharded match, and they are disjoint.
    let whole: Vec<String> = records_of(&all).iter().map(comparable).collect();
    let mut union: Vec<(usize, String)> = shard_files
        .iter()
        .flat_map(|f| records_of(f))
        .map(|r| (r.game, comparable(&r)))
        .collect();
    union.sort();
    assert_eq!(whole.len(), 14);
    assert_eq!(
        union.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(),
        whole
    );
    // A shard holds whole rotation groups.
    for f in &shard_files {
        for r in records_of(f) {
            let k: usize = f.to_str().unwrap().rsplit('-').next().unwrap()[..1]
                .parse()
                .unwrap();
            assert_eq!(r.group % 4, k - 1);
        }
    }
    // stats on the shards gives the unsharded table (below its first line) and verdict.
    let mut a = vec!["stats", "--sprt", "elo0=0,elo1=10"];
    let names: Vec<String> = shard_files
        .iter()
        .map(|f| f.to_str().unwrap().to_string())
        .collect();
    a.extend(names.iter().map(|s| s.as_str()));
    let (ok, merged, err) = cli(&a);
    assert!(ok, "{}", err);
    let below_first = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(below_first(&merged), below_first(&table));
    assert!(merged.contains("Weng-Lin rating"), "{}", merged);
    // The same file twice, or files of different matches, are refused.
    let (ok, _, err) = cli(&["stats", &names[0], &names[0]]);
    assert!(!ok && err.contains("appears twice"), "{}", err);
    std::fs::write(&shard_files[3], "{\"not\": \"a record\"}\n").unwrap();
    let (ok, _, err) = cli(&["stats", &names[3]]);
    assert!(!ok && err.contains(":1: not a game record"), "{}", err);
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "threechess",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--shard",
        "5/4",
    ]);
    assert!(!ok && err.contains("--shard takes I/N"), "{}", err);
    for f in shard_files.iter().chain([&all]) {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn replay_prints_every_move_with_its_diagram() {
    let games = two_seat_games();
    assert!(games.len() >= 3, "{:?}", games);
    for game in games {
        let f = temp(&format!("replay-{}.jsonl", game));
        let fs = f.to_str().unwrap().to_string();
        let (ok, _, err) = cli(&[
            "match",
            "--game",
            game,
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--nodes",
            "10",
            "--games",
            "2",
            "--seed",
            "5",
            "--max-plies",
            "12",
            "--quiet",
            "--out",
            &fs,
        ]);
        assert!(ok, "{}: {}", game, err);
        let rec = records_of(&f).pop().unwrap();
        let (ok, out, err) = cli(&["replay", &fs, "--number", "2"]);
        assert!(ok, "{}: {}", game, err);
        assert!(out.starts_with("Game 2 of "), "{}", out);
        let plies = rec.opening.len() + rec.moves.len();
        // Each ply is numbered, and the last one's diagram is the recorded end position's.
        assert!(
            out.contains(&format!("\n{}. p", plies)),
            "{}: {}",
            game,
            out
        );
        assert!(!out.contains("refused by the rules"), "{}", out);
        let mut def = GameDef::from_entry(quatre::games::resolve(Some(game)).unwrap());
        for (k, v) in &rec.options {
            def.set_option(k, v).unwrap();
        }
        let end = def.from_text(&rec.end).unwrap().display();
        let last = out.rsplit(&format!("\n{}. p", plies)).next().unwrap();
        assert!(
            last.contains(&end),
            "{}: the last diagram is not the end position\n{}",
            game,
            out
        );
        assert!(out.contains("Result: "), "{}", out);
        // --svg: a picture per position, the start and after each move.
        let dir = temp(&format!("replay-svg-{}", game));
        let _ = std::fs::remove_dir_all(&dir);
        let (ok, _, err) = cli(&[
            "replay",
            &fs,
            "--number",
            "2",
            "--svg",
            dir.to_str().unwrap(),
        ]);
        assert!(ok, "{}", err);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), plies + 1);
        let last = std::fs::read_to_string(dir.join(format!("ply-{:03}.svg", plies))).unwrap();
        assert!(last.starts_with("<svg ") && last.contains("class=\"highlight\""));
        let _ = std::fs::remove_dir_all(&dir);
        let (ok, _, err) = cli(&["replay", &fs, "--number", "9"]);
        assert!(!ok && err.contains("has no game 9"), "{}", err);
        let _ = std::fs::remove_file(&f);
    }
}

// --- openings --------------------------------------------------------------------------------

#[test]
fn an_opening_files_header_writes_the_same_file_again() {
    let (ok, book, err) = cli(&[
        &["openings"][..],
        &common::ONE_BOARD,
        &[
            "--option",
            "Promotions=chess",
            "--plies",
            "2",
            "--count",
            "3",
            "--seed",
            "5",
            "--balanced",
            "400",
            "--depth",
            "1",
        ],
    ]
    .concat());
    assert!(ok, "{}", err);
    let header = book.lines().next().unwrap();
    assert!(
        header.contains(" --option Boards=1x1 --option Promotions=chess "),
        "{}",
        header
    );
    let args: Vec<&str> = header
        .strip_prefix("# quatre ")
        .unwrap_or_else(|| panic!("{}", header))
        .split_whitespace()
        .collect();
    let (ok, again, err) = cli(&args);
    assert!(ok, "{}", err);
    assert_eq!(book, again, "the header's command writes another file");
}

#[test]
fn opening_files_are_generated_reproducibly_and_played_by_whole_groups() {
    let (ok, book, err) = cli(&[
        "openings",
        "--game",
        "tesseract",
        "--plies",
        "16",
        "--count",
        "4",
        "--seed",
        "9",
        "--balanced",
        "300",
        "--depth",
        "1",
    ]);
    assert!(ok, "{}", err);
    let (_, again, _) = cli(&[
        "openings",
        "--game",
        "tesseract",
        "--plies",
        "16",
        "--count",
        "4",
        "--seed",
        "9",
        "--balanced",
        "300",
        "--depth",
        "1",
    ]);
    assert_eq!(book, again, "the same seed gives the same file");
    let lines: Vec<&str> = book.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4, "{}", book);
    let f = temp("openings.txt");
    std::fs::write(&f, &book).unwrap();
    let out = temp("openings-games.jsonl");
    let (fs, os) = (
        f.to_str().unwrap().to_string(),
        out.to_str().unwrap().to_string(),
    );
    let (ok, table, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--games",
        "8",
        "--seed",
        "2",
        "--openings",
        &fs,
        "--quiet",
        "--out",
        &os,
    ]);
    assert!(ok, "{}", err);
    assert!(
        table.contains("openings ") && table.contains("(4 lines, sequential)"),
        "{}",
        table
    );
    // Sequential: group g plays line g, both games of the pair from the same moves.
    for r in records_of(&out) {
        let want: Vec<String> = lines[r.group]
            .split_whitespace()
            .skip(2)
            .map(String::from)
            .collect();
        assert_eq!(r.opening, want, "game {}", r.game);
    }
    let _ = std::fs::remove_file(&out);
    // A line the rules refuse is refused with its line number.
    std::fs::write(
        &f,
        "# header\nstartpos moves P@f3\nstartpos moves nonsense\n",
    )
    .unwrap();
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--openings",
        &fs,
    ]);
    assert!(!ok && err.contains(":3: move nonsense"), "{}", err);
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--openings",
        &fs,
        "--openings-order",
        "shuffled",
    ]);
    assert!(
        !ok && err.contains("--openings-order is sequential or random"),
        "{}",
        err
    );
    let _ = std::fs::remove_file(&f);
}

#[test]
fn an_opening_line_can_be_a_whole_position() {
    // Chess on one board: a position text (FEN), then moves; the engines get `position fen`.
    let f = temp("fen-openings.txt");
    std::fs::write(
        &f,
        "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1 moves e7e5\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap().to_string();
    let out = temp("fen-openings.jsonl");
    let os = out.to_str().unwrap().to_string();
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--games",
        "2",
        "--openings",
        &fs,
        "--quiet",
        "--out",
        &os,
        "--max-plies",
        "10",
    ]);
    assert!(ok, "{}", err);
    for r in records_of(&out) {
        assert!(
            r.start
                .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"),
            "{}",
            r.start
        );
        assert_eq!(r.opening, vec!["e7e5".to_string()]);
    }
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&f);
}

// --- round-robin and gauntlet ----------------------------------------------------------------

#[test]
fn more_engines_than_seats_play_a_round_robin_or_a_gauntlet() {
    let rr = temp("rr.jsonl");
    let rs = rr.to_str().unwrap().to_string();
    let (ok, table, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:alphabeta",
        "--nodes",
        "50",
        "--games",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &rs,
        "--max-plies",
        "60",
    ]);
    assert!(ok, "{}", err);
    assert!(table.contains("Weng-Lin rating"), "{}", table);
    assert!(table.contains("builtin:random vs the field"), "{}", table);
    let recs = records_of(&rr);
    // Three pairings of two games, seats swapped within each, the same openings in each.
    assert_eq!(recs.len(), 6);
    let mut pairs: Vec<Vec<usize>> = recs
        .iter()
        .map(|r| {
            let mut e = r.engines.clone();
            e.sort();
            e
        })
        .collect();
    pairs.dedup();
    assert_eq!(pairs, vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
    for pair in recs.chunks(2) {
        assert_eq!(
            pair[0].engines,
            vec![pair[1].engines[1], pair[1].engines[0]]
        );
        assert_eq!(pair[0].opening, recs[0].opening);
    }
    // Gauntlet on three seats: engine 1 in every game, with each pair of the three others.
    let g = temp("gauntlet.jsonl");
    let gs = g.to_str().unwrap().to_string();
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "threechess",
        "--engine",
        "builtin:alphabeta",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:random",
        "--nodes",
        "30",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &gs,
        "--tournament",
        "gauntlet",
        "--max-plies",
        "30",
    ]);
    assert!(ok, "{}", err);
    let recs = records_of(&g);
    assert_eq!(recs.len(), 9, "three pairings of one rotation group");
    assert!(recs.iter().all(|r| r.engines.contains(&0)));
    // Refusals: an unknown format, an SPRT over several pairings.
    let base = [
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:mcts",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
    ];
    let mut a = base.to_vec();
    a.extend(["--tournament", "swiss"]);
    let (ok, _, err) = cli(&a);
    assert!(
        !ok && err.contains("--tournament is round-robin or gauntlet"),
        "{}",
        err
    );
    let mut a = base.to_vec();
    a.extend(["--sprt", "elo0=0,elo1=10"]);
    let (ok, _, err) = cli(&a);
    assert!(
        !ok && err.contains("--sprt needs as many engines as seats"),
        "{}",
        err
    );
    let _ = std::fs::remove_file(&rr);
    let _ = std::fs::remove_file(&g);
}

#[test]
fn an_engine_can_have_its_own_clock() {
    let f = temp("own-tc.jsonl");
    let fs = f.to_str().unwrap().to_string();
    // Nodes bound every move, so no move can be late however busy the machine is.
    let (ok, table, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:alphabeta tc=60+1",
        "--engine",
        "builtin:mcts tc=30+0.5",
        "--nodes",
        "50",
        "--games",
        "2",
        "--seed",
        "4",
        "--quiet",
        "--out",
        &fs,
        "--max-plies",
        "40",
    ]);
    assert!(ok, "{}", err);
    assert!(
        table.contains("own limits: builtin:alphabeta tc 60+1"),
        "{}",
        table
    );
    let recs = records_of(&f);
    assert_eq!(recs[0].tc, "p1 tc 60+1, nodes 50; p2 tc 30+0.5, nodes 50");
    assert_eq!(recs[1].tc, "p1 tc 30+0.5, nodes 50; p2 tc 60+1, nodes 50");
    assert!(recs.iter().all(|r| r.offender.is_none()), "{:?}", recs);
    // Without a match-wide limit every engine needs its own; a bad tc= is refused at once.
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:alphabeta tc=60+1",
        "--engine",
        "builtin:mcts",
    ]);
    assert!(!ok && err.contains("give a limit per move"), "{}", err);
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:alphabeta tc=fast",
        "--engine",
        "builtin:mcts",
        "--nodes",
        "10",
    ]);
    assert!(!ok && err.contains("tc= takes BASE+INC"), "{}", err);
    let _ = std::fs::remove_file(&f);
}

#[test]
fn adjudication_ends_games_the_engines_agree_on() {
    // External engines (quatre itself, scores read from its info lines) that see an even game.
    let f = temp("adjudicate.jsonl");
    let fs = f.to_str().unwrap().to_string();
    let me = format!("{} option.Threads=1", quatre());
    let (ok, table, err) = cli(&[
        "match",
        "--game",
        "rithmomachia",
        "--engine",
        &me,
        "--engine",
        &me,
        "--nodes",
        "2000",
        "--games",
        "2",
        "--seed",
        "2",
        "--adjudicate",
        "draw=30/6/20",
        "--quiet",
        "--out",
        &fs,
    ]);
    assert!(ok, "{}", err);
    assert!(table.contains("adjudication"), "{}", table);
    for r in records_of(&f) {
        assert_eq!(r.termination, "adjudication", "{:?}", r);
        assert!(
            r.reason.contains("within ±30 cp for 6 moves"),
            "{}",
            r.reason
        );
        assert!(r.opening.len() + r.moves.len() >= 20);
        assert_eq!(r.result, vec![0.5, 0.5]);
    }
    // A player that gives no score (random) never agrees: no adjudication.
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:alphabeta",
        "--engine",
        "builtin:random",
        "--nodes",
        "300",
        "--games",
        "2",
        "--seed",
        "2",
        "--adjudicate",
        "win=100/1,draw=100000/1",
        "--quiet",
        "--out",
        &fs,
    ]);
    assert!(ok, "{}", err);
    assert!(records_of(&f)
        .iter()
        .all(|r| r.termination != "adjudication"));
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "builtin:alphabeta",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--adjudicate",
        "draw=ten/8",
    ]);
    assert!(!ok && err.contains("--adjudicate takes"), "{}", err);
    let _ = std::fs::remove_file(&f);
}

/// An engine that declares no `Game` option is taken for a chess engine: it plays hyperchess
/// on one board, and is refused (one line, exit 2, no game file) for any game that is not
/// chess; one whose `Game` option lists the games it plays is refused for a game not listed.
/// Before, each lost every game by `bestmove 0000` and the match printed its table, exit 0.
#[test]
fn cli_an_engine_that_cannot_play_the_game_is_refused_before_any_game() {
    let out = temp("cannot-play.jsonl");
    let run = |game: &str, opts: &[&str], script: &str| {
        let e = engine(script);
        let mut a = vec!["match", "--game", game];
        a.extend_from_slice(opts);
        a.extend([
            "--engine",
            e.as_str(),
            "--engine",
            "builtin:random",
            "--nodes",
            "5",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        cli(&a)
    };
    for (game, opts, script, want) in [
        ("rithmomachia", &[][..], "take1.sh", "declares no Game option, so it is taken for a chess engine: it can play hyperchess with Boards=1x1, not rithmomachia"),
        ("hyperchess", &[], "take1.sh", "not hyperchess with these rule options"),
        ("tesseract", &[], "lists_hyperchess.sh", "its Game option offers hyperchess, not tesseract"),
    ] {
        let (ok, stdout, stderr) = run(game, opts, script);
        assert!(!ok && stdout.is_empty(), "{} {}: {}", game, script, stdout);
        assert_eq!(stderr.lines().count(), 1, "{}", stderr);
        assert!(stderr.contains(want), "{} {}: {}", game, script, stderr);
        let games = std::fs::read_to_string(&out).unwrap_or_default();
        assert!(games.trim().is_empty(), "{}", games);
    }
    // On one board it plays (and loses by its null move).
    let (ok, stdout, stderr) = run("hyperchess", &["--option", "Boards=1x1"], "take1.sh");
    assert!(ok, "{}", stderr);
    assert!(stdout.contains("illegal move"), "{}", stdout);
    let _ = std::fs::remove_file(&out);
}

/// A chess engine (one that declares no `Game` option) cannot read a promotion to a guard, so
/// against one, where the match keeps the guard promotion (`--option Promotions=hyperchess`),
/// the arena asks the other seat for moves it can read only (`go … searchmoves`); between two
/// engines that know the game every move stays open.
#[test]
fn cli_engines_that_know_the_game_are_kept_to_moves_a_chess_engine_reads() {
    let openings = temp("promotion.txt");
    std::fs::write(&openings, "fen 7k/P7/8/8/8/8/8/K7 w - - 0 1\n").unwrap();
    let go_lines = |guest: &str, tag: &str| {
        let log = temp(&format!("{}.log", tag));
        let host = format!("{} {} a7a8q", engine("knows_game.sh"), log.display());
        let guest_log = temp(&format!("{}-guest.log", tag));
        let guest = guest.replace("LOG", &guest_log.to_string_lossy());
        cli_match(
            "hyperchess",
            &[
                "--option",
                "Boards=1x1",
                "--option",
                "Promotions=hyperchess",
                "--engine",
                &host,
                "--engine",
                &guest,
                "--openings",
                openings.to_str().unwrap(),
                "--games",
                "2",
                "--nodes",
                "100",
            ],
            &format!("{}.jsonl", tag),
        );
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&guest_log);
        text.lines().map(str::to_string).collect::<Vec<_>>()
    };

    let against_chess = go_lines(&format!("{} LOG", engine("echo_position.sh")), "vs-chess");
    let first = against_chess
        .first()
        .expect("the host was asked for a move");
    let (_, listed) = first
        .split_once(" searchmoves ")
        .unwrap_or_else(|| panic!("no searchmoves in {:?}", first));
    let mut listed: Vec<&str> = listed.split_whitespace().collect();
    listed.sort();
    assert_eq!(
        listed,
        ["a1a2", "a1b1", "a1b2", "a7a8b", "a7a8n", "a7a8q"],
        "every legal move but the guard promotion a7a8g"
    );

    let against_itself = go_lines(&format!("{} LOG h8g8", engine("knows_game.sh")), "vs-knows");
    assert!(!against_itself.is_empty());
    assert!(
        against_itself.iter().all(|l| !l.contains("searchmoves")),
        "{:?}",
        against_itself
    );
    let _ = std::fs::remove_file(&openings);
}

/// Against a chess engine the arena plays hyperchess under `Promotions=chess` (docs/arena.md,
/// "Engines that do not know the game"): the referee's rules (a rook promotion is legal, and no
/// move is left out with `searchmoves`), the game record's options and a `setoption` to the
/// engines say so. Between two engines that know the game the rules' default stays.
#[test]
fn cli_against_a_chess_engine_hyperchess_is_played_with_chess_promotions() {
    let openings = temp("chess-promotion.txt");
    std::fs::write(&openings, "fen 7k/P7/8/8/8/8/8/K7 w - - 0 1\n").unwrap();
    let play = |guest: &str, tag: &str| {
        let log = temp(&format!("{}.log", tag));
        let guest_log = temp(&format!("{}-guest.log", tag));
        let host = format!("{} {} a7a8r", engine("knows_game.sh"), log.display());
        let guest = guest.replace("LOG", &guest_log.to_string_lossy());
        let (_, records) = cli_match(
            "hyperchess",
            &[
                "--option",
                "Boards=1x1",
                "--engine",
                &host,
                "--engine",
                &guest,
                "--openings",
                openings.to_str().unwrap(),
                "--games",
                "2",
                "--nodes",
                "100",
            ],
            &format!("{}.jsonl", tag),
        );
        let host_go = std::fs::read_to_string(&log).unwrap_or_default();
        let guest_lines = std::fs::read_to_string(&guest_log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&guest_log);
        (records, host_go, guest_lines)
    };

    let (records, host_go, guest_lines) = play(
        &format!("{} LOG", engine("echo_position.sh")),
        "chess-rules",
    );
    // The game where the host is White: its rook promotion is legal under chess promotions.
    let white = records
        .iter()
        .find(|r| r.engines[0] == 0)
        .expect("a game with the host as White");
    assert_eq!(white.options["Promotions"], "chess", "{:?}", white);
    assert_eq!(white.moves.first().map(String::as_str), Some("a7a8r"));
    assert_ne!(white.offender, Some(0), "{:?}", white);
    assert!(
        !host_go.is_empty() && !host_go.contains("searchmoves"),
        "{}",
        host_go
    );
    assert!(
        guest_lines.contains("setoption name Promotions value chess"),
        "{}",
        guest_lines
    );

    // Two engines that know the game: the rules' default, under which a rook promotion is
    // illegal.
    let (records, _, _) = play(
        &format!("{} LOG h8g8", engine("knows_game.sh")),
        "game-rules",
    );
    let white = records.iter().find(|r| r.engines[0] == 0).unwrap();
    assert_eq!(white.options["Promotions"], "hyperchess");
    assert_eq!(
        (white.termination.as_str(), white.offender),
        ("illegal move", Some(0)),
        "{:?}",
        white
    );
    let _ = std::fs::remove_file(&openings);
}

/// A shipped net of `game` under `rules`, written to a file of its own (`tag`).
fn shipped_net_file(game: &str, rules: &[(&str, &str)], tag: &str) -> PathBuf {
    let entry = quatre::games::find(game).unwrap();
    let mut opts = entry.default_options();
    for (k, v) in rules {
        opts.set(k, v).unwrap();
    }
    let set = entry.start(&opts, None).unwrap().feature_set().unwrap();
    let net = quatre::learn::builtin::net(game, &set).unwrap();
    let path = temp(tag);
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// A built-in player's `option.Eval=net` (or `option.Policy=net`) with no net that fits the
/// game played is refused with one error line, before any game (no table, no file), rather
/// than searching by hand without a word; where an engine that does not know the game decides
/// the rules (`Promotions=chess` against a chess engine), the net must fit the rules the game
/// is played under, checked when its engines have started.
#[test]
fn cli_a_builtin_players_net_must_fit_the_game_played() {
    let rith = shipped_net_file("rithmomachia", &[], "rith.net");
    let own = shipped_net_file("hyperchess", &[("Boards", "1x1")], "own-1x1.net");
    let chess = shipped_net_file(
        "hyperchess",
        &[("Boards", "1x1"), ("Promotions", "chess")],
        "chess-1x1.net",
    );
    let with_net = |file: &PathBuf| {
        format!(
            "builtin:alphabeta option.Eval=net option.EvalFile={} name=net",
            file.display()
        )
    };
    let out = temp("refused-net.jsonl");
    let out_s = out.to_str().unwrap().to_string();
    let on = |game: &[&'static str], first: &str, second: &str| -> Vec<String> {
        let mut a: Vec<String> = ["match"].iter().map(|s| s.to_string()).collect();
        a.extend(game.iter().map(|s| s.to_string()));
        a.extend(
            [
                "--engine",
                first,
                "--engine",
                second,
                "--nodes",
                "50",
                "--games",
                "2",
                "--max-plies",
                "6",
                "--quiet",
                "--out",
                &out_s,
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        a
    };
    let hand = "builtin:alphabeta option.Eval=hand name=hand";
    let args = on(&["--game", "hyperchess"], &with_net(&rith), hand);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = refused(
        &args,
        "error: net: Eval net: the net is for rithmomachia (rithmomachia-remove-corps-N12/1), not for hyperchess (hyperchess-3x3/3)",
    );
    assert_eq!(err.lines().count(), 1, "{}", err);
    assert!(!out.exists(), "no game file");
    // The same net seated second, and a policy asked for without a file.
    let args = on(&["--game", "hyperchess"], hand, &with_net(&rith));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, "error: net: Eval net: the net is for rithmomachia");
    let args = on(
        &["--game", "hyperchess"],
        "builtin:mcts option.Policy=net name=p",
        hand,
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(
        &args,
        "error: p: Policy net: no built-in policy for hyperchess",
    );
    // Alpha-beta reads no policy: the same option does not stop it (below, with the players
    // that play).
    // Chess's net on one board with the guard promotion: another rule set.
    let args = on(&common::ONE_BOARD, &with_net(&chess), hand);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(
        &args,
        "error: net: Eval net: the net reads hyperchess features (hyperchess-1x1/5), this position's are hyperchess-1x1/3",
    );
    // Nets that fit play: the shipped one without a file, and the file of the same rule set;
    // and alpha-beta with `Policy net`, which it does not read.
    for net in [
        "builtin:alphabeta option.Eval=net name=net".to_string(),
        with_net(&own),
        "builtin:alphabeta option.Policy=net name=ab".to_string(),
    ] {
        let args = on(&common::ONE_BOARD, &net, hand);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, _, err) = cli(&args);
        assert!(ok, "{}", err);
        let _ = std::fs::remove_file(&out);
    }
    // Against a chess engine the game is chess: its net plays, the other one is refused at
    // the game's start; against an engine that knows the game, the other way round.
    let log = temp("fits-chess.log");
    let chess_engine = format!("{} {}", engine("echo_position.sh"), log.display());
    let knows = format!("{} {} h8g8", engine("knows_game.sh"), log.display());
    let args = on(&common::ONE_BOARD, &with_net(&chess), &chess_engine);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, err) = cli(&args);
    assert!(ok, "{}", err);
    let _ = std::fs::remove_file(&out);
    for (net, guest, features) in [
        (
            &own,
            &chess_engine,
            "hyperchess-1x1/3), this position's are hyperchess-1x1/5",
        ),
        (
            &chess,
            &knows,
            "hyperchess-1x1/5), this position's are hyperchess-1x1/3",
        ),
    ] {
        let args = on(&common::ONE_BOARD, &with_net(net), guest);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, _, err) = cli(&args);
        assert!(!ok, "{:?} was accepted", args);
        let want = format!(
            "error: net: Eval net: the net reads hyperchess features ({}",
            features
        );
        assert!(
            err.lines().any(|l| l.starts_with(&want)),
            "{}\n{}",
            want,
            err
        );
        let _ = std::fs::remove_file(&out);
    }
    for f in [rith, own, chess, log] {
        let _ = std::fs::remove_file(f);
    }
}

/// A match against a chess engine is played and recorded under the rules it reads
/// (`Promotions=chess`, not the match's default): resumed, its file is this match's games (it
/// was refused on its options, so that no such match could be resumed).
#[test]
fn cli_a_match_against_a_chess_engine_resumes() {
    let out = temp("chess-resume.jsonl");
    let log = temp("chess-resume.log");
    let guest = format!("{} {}", engine("echo_position.sh"), log.display());
    let run = |extra: &[&str]| {
        let mut a = vec!["match"];
        a.extend_from_slice(&common::ONE_BOARD);
        a.extend_from_slice(&[
            "--engine",
            "builtin:random",
            "--engine",
            &guest,
            "--games",
            "4",
            "--nodes",
            "50",
            "--seed",
            "3",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        a.extend_from_slice(extra);
        cli(&a)
    };
    let (ok, _, err) = run(&[]);
    assert!(ok, "{}", err);
    let whole = std::fs::read_to_string(&out).unwrap();
    assert!(whole.contains(r#""Promotions":"chess""#), "{}", whole);
    let first: String = whole.lines().take(2).map(|l| format!("{}\n", l)).collect();
    std::fs::write(&out, &first).unwrap();
    let (ok, _, err) = run(&["--resume"]);
    assert!(ok, "{}", err);
    assert_eq!(game_numbers(&out), [0, 1, 2, 3]);
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&log);
}
