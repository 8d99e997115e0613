//! What `quatre match` records and how its records are read back: every record carries the
//! match's planned game count and its shard, `quatre stats` names the games and shards missing
//! from its files, games whose engines never started are no results (and make `match` and
//! `stats` fail), `quatre openings` fails at once when fewer openings exist than asked, and the
//! tables of games of three or more seats give each engine's reward share.
//!
//! Registry games with node-limited built-in players (and the shell engines of tests/engines/):
//! nothing here depends on the machine's speed; the one time bound is generous by far.

use quatre::arena::openings;
use quatre::arena::records;
use quatre::arena::referee::GameDef;
use quatre::arena::{parse_args, run_match, MatchReport};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

fn engine(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "engines", name]
        .iter()
        .collect();
    p.to_string_lossy().into_owned()
}

fn quatre() -> &'static str {
    env!("CARGO_BIN_EXE_quatre")
}

fn temp(name: &str) -> PathBuf {
    let mut p = std::env::temp_dir();
    p.push(format!("quatre-records-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_file(&p);
    p
}

fn cli(args: &[&str]) -> (bool, String, String) {
    outcome(
        Command::new(quatre())
            .args(args)
            .output()
            .expect("run quatre"),
    )
}

/// A finished run's (success, stdout, stderr).
fn outcome(o: std::process::Output) -> (bool, String, String) {
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn def(game: &str) -> GameDef {
    GameDef::from_entry(quatre::games::resolve(Some(game)).unwrap())
}

/// A threechess match of `engines` (three random players unless given) at 10 nodes a move,
/// games drawn after 30 plies, seed 3, with `extra` arguments.
fn threechess(engines: &[&str], extra: &[&str]) -> Result<MatchReport, String> {
    let mut a: Vec<&str> = vec![
        "--quiet",
        "--nodes",
        "10",
        "--max-plies",
        "30",
        "--seed",
        "3",
    ];
    for e in engines {
        a.extend(["--engine", e]);
    }
    a.extend_from_slice(extra);
    run_match(def("threechess"), &parse_args(a).unwrap())
}

const RANDOMS: [&str; 3] = ["builtin:random", "builtin:random", "builtin:random"];

/// Three games of three random players (`threechess` with `RANDOMS`), written to the
/// temporary file `name`.
fn three_random_games(name: &str) -> PathBuf {
    let f = temp(name);
    threechess(&RANDOMS, &["--games", "3", "--out", f.to_str().unwrap()]).unwrap();
    f
}

/// `from`'s records, each passed to `edit` with its index (from 0), written to `to`: those for
/// which `edit` returns false are left out.
fn rewrite_records(from: &Path, to: &Path, edit: impl Fn(usize, &mut serde_json::Value) -> bool) {
    let mut out = String::new();
    for (i, line) in std::fs::read_to_string(from).unwrap().lines().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if edit(i, &mut v) {
            out += &serde_json::to_string(&v).unwrap();
            out.push('\n');
        }
    }
    std::fs::write(to, out).unwrap();
}

/// The file's records written back as a file of format 2 (no `planned`, `shard`, `started`).
fn as_format_2(from: &Path, to: &Path, keep: impl Fn(usize) -> bool) {
    rewrite_records(from, to, |i, v| {
        if !keep(i) {
            return false;
        }
        let line = v.to_string();
        let o = v.as_object_mut().unwrap();
        for k in ["planned", "shard", "started"] {
            assert!(o.remove(k).is_some(), "no '{}' in {}", k, line);
        }
        o.insert("format".into(), 2.into());
        true
    });
}

#[test]
fn records_carry_the_planned_count_and_their_shard_and_stats_names_what_is_missing() {
    // Six games of three seats: group 0 (games 1–3) is shard 1/2's, group 1 (games 4–6) 2/2's.
    let files: Vec<PathBuf> = (1..=2)
        .map(|k| temp(&format!("shard-{}.jsonl", k)))
        .collect();
    for (k, f) in files.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let r = threechess(
            &RANDOMS,
            &[
                "--games",
                "6",
                "--shard",
                &shard,
                "--out",
                f.to_str().unwrap(),
            ],
        )
        .unwrap();
        assert_eq!(r.records.len(), 3);
        for rec in records::read(f).unwrap() {
            assert_eq!(rec.format, 3);
            assert_eq!(rec.planned, Some(6), "{:?}", rec);
            assert_eq!(rec.shard, Some([k + 1, 2]), "{:?}", rec);
            assert!(rec.started);
        }
    }
    let unsharded = threechess(&RANDOMS, &["--games", "3"]).unwrap();
    assert!(unsharded
        .records
        .iter()
        .all(|r| r.shard.is_none() && r.planned == Some(3)));

    // Both shards: the whole match, nothing missing.
    let both = records::stats(&files, None).unwrap();
    assert!(both.missing.is_empty() && both.not_started == 0);
    assert!(
        both.table.contains("— 6 games of 6 played"),
        "{}",
        both.table
    );
    assert!(!both.table.contains("Missing"), "{}", both.table);

    // One shard's file: its games are counted, the other shard's are named as missing.
    let one = records::stats(&files[..1], None).unwrap();
    assert_eq!(one.missing, vec![(3, 5)]);
    assert!(one.table.contains("— 3 games of 6 played"), "{}", one.table);
    assert!(
        one.table.contains(
            "Missing: 3 of the match's 6 games are in none of the files: games 4–6; no game of shard 2/2"
        ),
        "{}",
        one.table
    );
    let (ok, out, err) = cli(&["stats", files[0].to_str().unwrap()]);
    assert!(ok, "missing games are no error: {}", err);
    assert!(out.contains("no game of shard 2/2"), "{}", out);

    // Records of format 2 (before these fields) still read: nothing planned, so only the gaps
    // below the last game are missing.
    let old = temp("old.jsonl");
    as_format_2(&files[1], &old, |i| i != 1);
    let r = records::read(&old).unwrap();
    assert!(r
        .iter()
        .all(|r| r.started && r.planned.is_none() && r.shard.is_none()));
    let s = records::stats(std::slice::from_ref(&old), None).unwrap();
    assert_eq!(s.missing, vec![(0, 2), (4, 4)]);
    // The count is of the games in the files, not of a match of that many games.
    assert!(
        s.table
            .contains("— 2 games played of the 2 in the files, nodes 10,"),
        "{}",
        s.table
    );
    assert!(
        s.table
            .contains("games 1–3, game 5 (these records do not say how many games"),
        "{}",
        s.table
    );
    for f in files.iter().chain([&old]) {
        let _ = std::fs::remove_file(f);
    }
}

/// A Slurm array whose engines never launched used to read back as a finished match ("8 games
/// of 8 played, crash 8") with success: such games are no results, and both `match` and
/// `stats` say so and fail.
#[test]
fn a_match_whose_engines_never_start_is_reported_as_such_and_fails() {
    let out = temp("dies.jsonl");
    let dies = engine("dies.sh");
    let err = threechess(
        &["builtin:random", "builtin:random", &dies],
        &["--games", "6", "--out", out.to_str().unwrap()],
    )
    .unwrap_err();
    assert!(
        err.contains("engine 3 (dies.sh) did not start in game 1")
            && err.contains("crashed at the start")
            && err.contains("no game was played"),
        "{}",
        err
    );
    let recs = records::read(&out).unwrap();
    assert_eq!(recs.len(), 1, "the match stopped at its first game");
    assert!(!recs[0].started);
    assert_eq!(recs[0].planned, Some(6));

    let s = records::stats(std::slice::from_ref(&out), None).unwrap();
    assert_eq!(s.not_started, 1);
    assert!(s.table.contains("— 0 games of 6 played"), "{}", s.table);
    assert!(
        s.table
            .contains("Not started: 1 game, left out of the results: dies.sh failed to start in 1 game (first in game 1: p3 (dies.sh) crashed at the start"),
        "{}",
        s.table
    );
    let (ok, table, err) = cli(&["stats", out.to_str().unwrap()]);
    assert!(!ok, "{}", table);
    assert!(table.contains("Not started: 1 game"), "{}", table);
    assert!(err.contains("1 of the 1 games did not start"), "{}", err);

    // The same file as an older quatre wrote it (no `started`): read the same way.
    let old = temp("dies-old.jsonl");
    as_format_2(&out, &old, |_| true);
    assert!(!records::read(&old).unwrap()[0].started);
    let (ok, table, err) = cli(&["stats", old.to_str().unwrap()]);
    assert!(!ok && err.contains("did not start"), "{}\n{}", table, err);

    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "threechess",
        "--engine",
        "builtin:random",
        "--engine",
        &dies,
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--quiet",
    ]);
    assert!(!ok);
    assert!(
        err.contains("error: engine 2 (dies.sh) did not start"),
        "{}",
        err
    );
    for f in [out, old] {
        let _ = std::fs::remove_file(f);
    }
}

/// An engine that starts in some games and not in others: the games it did not start are left
/// out of every figure, the table says so, and the match fails after printing it.
#[test]
fn games_that_do_not_start_after_others_did_are_left_out_of_the_results() {
    let marker = temp("flaky-marker");
    let flaky = format!(
        "{} {} {} name=flaky",
        engine("flaky.sh"),
        marker.display(),
        quatre()
    );
    let (ok, table, err) = cli(&[
        "match",
        "--game",
        "threechess",
        "--engine",
        &flaky,
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--max-plies",
        "30",
        "--games",
        "3",
        "--seed",
        "3",
        "--quiet",
    ]);
    let _ = std::fs::remove_file(&marker);
    assert!(!ok, "{}", table);
    assert!(err.contains("2 of the 3 games did not start"), "{}", err);
    assert!(table.contains("— 1 games of 3 played"), "{}", table);
    assert!(
        table.contains("Not started: 2 games, left out of the results: flaky failed to start in 2 games (first in game 2:"),
        "{}",
        table
    );
    // Every engine's row counts the one game played.
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() > 2 && ["1", "2", "3"].contains(&w[0]))
        .collect();
    assert_eq!(rows.len(), 3, "{}", table);
    for w in rows {
        assert_eq!(w[2], "1", "{}", table);
    }
}

#[test]
fn openings_fail_at_once_when_fewer_exist_than_asked() {
    let (ok, perft, err) = cli(&["perft", "--game", "hyperchess", "1"]);
    assert!(ok, "{}", err);
    let n: usize = perft
        .trim()
        .strip_prefix("nodes ")
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{}", perft));
    // One ply from the start: as many openings as legal moves.
    let hc = def("hyperchess");
    assert_eq!(openings::distinct_openings(&hc, 1, 1_000).unwrap(), Some(n));
    assert_eq!(openings::distinct_openings(&hc, 1, n).unwrap(), None);
    match openings::distinct_openings(&hc, 2, 100_000).unwrap() {
        Some(k) => assert!(k > n && k <= n * n, "{} after 2 plies", k),
        None => panic!("hyperchess has fewer than 100000 positions after 2 plies"),
    }

    // Far more than exist: refused at once with the number that exist. (It took over 20 s
    // before; the bound here is generous by far, the answer comes in milliseconds.)
    let t = Instant::now();
    let (ok, out, err) = cli(&[
        "openings",
        "--game",
        "hyperchess",
        "--plies",
        "1",
        "--count",
        "100000",
    ]);
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert!(!ok, "{}", out);
    assert!(
        err.contains(&format!(
            "hyperchess has only {} distinct openings of 1 ply with these options, and 100000 were asked for: ask for at most {}, or more plies",
            n, n
        )),
        "{}",
        err
    );
    // As many as exist: written.
    let count = n.to_string();
    let (ok, out, err) = cli(&[
        "openings",
        "--game",
        "hyperchess",
        "--plies",
        "1",
        "--count",
        &count,
    ]);
    assert!(ok, "{}", err);
    assert_eq!(out.lines().filter(|l| !l.starts_with('#')).count(), n);
}

#[test]
fn tables_of_three_or_more_seats_show_the_reward_share() {
    let r = threechess(&RANDOMS, &["--games", "6"]).unwrap();
    let t = &r.summary;
    assert!(
        t.contains("Reward share") && t.contains("Score vs field"),
        "{}",
        t
    );
    assert!(t.contains("33.3% for equal players"), "{}", t);
    // Each engine's share is its points over the games' points: its mean reward.
    let share = |e: usize| {
        let (mut sum, mut games) = (0.0, 0);
        for g in &r.records {
            let seat = g.engines.iter().position(|&x| x == e).unwrap();
            sum += g.result[seat] as f64;
            games += 1;
        }
        100.0 * sum / games as f64
    };
    let mut total = 0.0;
    for (e, name) in r.engines.iter().enumerate() {
        let row = t
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name.as_str()))
            .unwrap_or_else(|| panic!("no row for {} in\n{}", name, t));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[6], format!("{:.1}%", share(e)), "{}", t);
        total += share(e);
    }
    assert!(
        (total - 100.0).abs() < 1e-3,
        "the shares add up to 100%: {}",
        total
    );

    // Two seats keep the usual score and mean reward.
    let two = run_match(
        def("tesseract"),
        &parse_args([
            "--quiet",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--nodes",
            "10",
            "--max-plies",
            "20",
        ])
        .unwrap(),
    )
    .unwrap();
    assert!(two.summary.contains("  Score  Reward"), "{}", two.summary);
    assert!(!two.summary.contains("Reward share"), "{}", two.summary);
}

/// `quatre ARGS`, killed after `secs` seconds: (success, stdout, stderr), or None when it had to
/// be killed.
fn cli_within(args: &[&str], secs: u64) -> Option<(bool, String, String)> {
    use std::process::Stdio;
    let mut child = Command::new(quatre())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quatre");
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(outcome(child.wait_with_output().unwrap()))
}

/// `from`'s records with `change` made to its second (line 2), written to `to`.
fn with_second_changed(from: &Path, to: &Path, change: impl Fn(&mut serde_json::Value)) {
    rewrite_records(from, to, |i, v| {
        if i == 1 {
            change(v);
        }
        true
    });
}

#[test]
fn a_record_that_does_not_hold_together_is_refused_with_its_file_and_line() {
    use serde_json::json;
    let three = three_random_games("whole-3.jsonl");
    let two = temp("whole-2.jsonl");
    let (ok, _, err) = cli(&common::tiny_match(&[
        "--nodes",
        "5",
        "--max-plies",
        "20",
        "--games",
        "2",
        "--quiet",
        "--out",
        two.to_str().unwrap(),
    ]));
    assert!(ok, "{}", err);
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let set = |k: &'static str, v: serde_json::Value| -> Change {
        Box::new(move |r: &mut serde_json::Value| r[k] = v.clone())
    };
    let cases: Vec<(&Path, Change, &str)> = vec![
        (
            &three,
            set("result", json!([1.0])),
            "its seats, engines and result have 3, 3 and 1 entries, but threechess with its options has 3 seats",
        ),
        (
            &three,
            Box::new(|r: &mut serde_json::Value| {
                for k in ["seats", "engines", "result"] {
                    r[k] = json!([]);
                }
            }),
            "have 0, 0 and 0 entries",
        ),
        (&three, set("planned", json!(100_000_000u64)), "'planned' is 100000000"),
        (
            &three,
            set("planned", json!(1_000_000_000_000_000u64)),
            "'planned' is 1000000000000000",
        ),
        (&three, set("planned", json!(1)), "game 2 of a match of 1 games"),
        (&three, set("game", json!(1u64 << 60)), "past the 10000000 games"),
        (&three, set("shard", json!([1, 1u64 << 60])), "'shard' is [1, "),
        (&three, set("shard", json!([3, 2])), "'shard' is [3, 2]"),
        (&three, set("engines", json!([0, 1, 1])), "engine 2 plays two seats"),
        (&three, set("result", json!([1.5, 0.0, -0.5])), "not a reward from 0 to 1"),
        (&three, set("offender", json!(3)), "the offender is seat 4 of its 3 seats"),
        (&three, set("game_name", json!("chess960")), "unknown game 'chess960'"),
        // What the format section promises: rewards that share out one point, a known format
        // and ending, a group no later than its game and one of its shard's.
        (
            &two,
            set("result", json!([0.7, 0.7])),
            "'result' is [0.7, 0.7], summing to 1.4, not 1",
        ),
        (
            &two,
            set("result", json!([0.3, 0.3])),
            "'result' is [0.3, 0.3], summing to 0.6, not 1",
        ),
        (&two, set("format", json!(9)), "'format' is 9, not a format from 1 to 3"),
        (&two, set("format", json!(0)), "'format' is 0, not a format from 1 to 3"),
        (
            &three,
            set("termination", json!("resigned")),
            "'termination' is 'resigned', not one of rules, illegal move, time forfeit, no answer, crash, adjudication",
        ),
        (&three, set("group", json!(99)), "'group' is 99, past game 2's"),
        (&three, set("shard", json!([2, 2])), "'group' is 0, not one of shard 2/2"),
        (
            &two,
            set("result", json!([0.5, 0.5, 0.0])),
            "have 2, 2 and 3 entries, but hyperchess",
        ),
    ];
    let bad = temp("bad.jsonl");
    let b = bad.to_str().unwrap();
    for (from, change, want) in &cases {
        with_second_changed(from, &bad, change);
        let place = format!("{}:2: not a valid game record: ", b);
        for args in [vec!["stats", b], vec!["replay", b]] {
            let (ok, _, err) = cli_within(&args, 60)
                .unwrap_or_else(|| panic!("{:?} on {:?} ran for a minute", args, want));
            assert!(!ok, "{:?} took a record with {:?}", args, want);
            assert!(
                err.starts_with(&format!("error: {}", place)) && err.contains(want),
                "{:?}, {:?}: {}",
                args,
                want,
                err
            );
            assert_eq!(err.trim_end().lines().count(), 1, "{}", err);
        }
        let e = records::read(&bad).unwrap_err();
        assert!(e.starts_with(&place) && e.contains(want), "{}", e);
    }
    // Engines must be numbered without a gap: an index far past the others is no allocation.
    let one = temp("one.jsonl");
    let first = std::fs::read_to_string(&three).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    v["engines"] = json!([0, 1, 1u64 << 60]);
    std::fs::write(&one, format!("{}\n", v)).unwrap();
    let (ok, _, err) =
        cli_within(&["stats", one.to_str().unwrap()], 60).expect("stats ran for a minute");
    assert!(
        !ok && err.contains("engine 3 plays in none of the games"),
        "{}",
        err
    );
    // A record without a result is no training data either.
    with_second_changed(&two, &bad, set("result", json!([])));
    let data = temp("labelled.txt");
    let (ok, _, err) = cli(&[
        "label",
        "--game",
        "hyperchess",
        "--records",
        b,
        "--nodes",
        "10",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(!ok, "label took a record without a result");
    assert!(
        err.contains(&format!(
            "{}:2: not a valid game record: its seats, engines and result have 2, 2 and 0 entries",
            b
        )),
        "{}",
        err
    );
    for f in [&three, &two, &bad, &one, &data] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_match_of_millions_of_planned_games_is_read_without_a_list_of_them() {
    // Nine million planned games in as many shards, three of them in the file: the missing
    // ones are named as ranges, at once. Three million rotation groups of three games: the
    // shards past 3000000 have no game to play and are not named.
    let three = three_random_games("planned-3.jsonl");
    let many = temp("planned-many.jsonl");
    rewrite_records(&three, &many, |_, v| {
        v["planned"] = 9_000_000.into();
        v["shard"] = serde_json::json!([1, 9_000_000]);
        true
    });
    let t0 = Instant::now();
    let s = records::stats(std::slice::from_ref(&many), None).unwrap();
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert_eq!(s.missing, vec![(3, 8_999_999)]);
    assert!(
        s.table.contains(
            "Missing: 8999997 of the match's 9000000 games are in none of the files: games 4–9000000; no game of shards 2/9000000, 3/9000000,"
        ) && s.table.contains("… (2999999 shards in all)\n"),
        "{}",
        s.table
    );
    for f in [&three, &many] {
        let _ = std::fs::remove_file(f);
    }
}

/// The tiny match (chess on one board, two random players, 4 games, seed 1, 20 plies) at
/// `nodes` a move with `extra` arguments, written to `out`: (success, stdout, stderr).
fn tiny_to(out: &str, nodes: &str, extra: &[&str]) -> (bool, String, String) {
    let mut a = vec![
        "--nodes",
        nodes,
        "--max-plies",
        "20",
        "--games",
        "4",
        "--seed",
        "1",
        "--out",
        out,
    ];
    a.extend_from_slice(extra);
    cli(&common::tiny_match(&a))
}

/// [`tiny_to`] the temporary file `name`, quietly: it must succeed.
fn tiny(name: &str, nodes: &str, extra: &[&str]) -> PathBuf {
    let f = temp(name);
    let mut a = vec!["--quiet"];
    a.extend_from_slice(extra);
    let (ok, _, err) = tiny_to(f.to_str().unwrap(), nodes, &a);
    assert!(ok, "{}", err);
    f
}

/// `quatre stats ARGS`: its one-line error (it must fail).
fn stats_error(args: &[&str]) -> String {
    let mut a = vec!["stats"];
    a.extend_from_slice(args);
    let (ok, out, err) = cli(&a);
    assert!(!ok, "stats {:?} took the files:\n{}", args, out);
    assert_eq!(err.trim_end().lines().count(), 1, "{}", err);
    err
}

/// Shards of one command at other limits merged "without a word", the header saying the first
/// file's limits; and a merge error printed seeds as `Some(2)`.
#[test]
fn stats_refuses_shards_played_under_other_limits_and_names_seeds_plainly() {
    let a = tiny("limits-1.jsonl", "200", &["--shard", "1/2"]);
    let b = tiny("limits-2.jsonl", "300", &["--shard", "2/2"]);
    let (fa, fb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let err = stats_error(&[fa, fb]);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: game 3 was played with limits 'nodes 300', the files before it with 'nodes 200': not one match",
            fb
        )
    );
    // The same limits merge into the whole match.
    let b2 = tiny("limits-2b.jsonl", "200", &["--shard", "2/2"]);
    let fb2 = b2.to_str().unwrap();
    let (ok, table, err) = cli(&["stats", fa, fb2]);
    assert!(ok, "{}", err);
    assert!(
        table.contains("— 4 games of 4 played, nodes 200,"),
        "{}",
        table
    );

    // An engine's own limits differ from seat to seat as the seats rotate: one match still.
    let own = temp("own-limits.jsonl");
    let (ok, _, err) = cli(&[
        "match",
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--engine",
        "builtin:random nodes=100",
        "--engine",
        "builtin:random",
        "--nodes",
        "200",
        "--max-plies",
        "20",
        "--games",
        "4",
        "--quiet",
        "--out",
        own.to_str().unwrap(),
    ]);
    assert!(ok, "{}", err);
    let recs = records::read(&own).unwrap();
    assert_ne!(recs[0].tc, recs[1].tc);
    let (ok, _, err) = cli(&["stats", own.to_str().unwrap()]);
    assert!(ok, "{}", err);
    // ... but not other own limits in another file.
    let other = temp("own-limits-other.jsonl");
    rewrite_records(&own, &other, |i, v| {
        v["game"] = (i + 4).into();
        v["planned"] = 8.into();
        v["group"] = (i / 2 + 2).into();
        v["tc"] = v["tc"].as_str().unwrap().replace("100", "150").into();
        true
    });
    rewrite_records(&own, &own, |_, v| {
        v["planned"] = 8.into();
        true
    });
    let err = stats_error(&[own.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(
        err.contains(&format!(
            "{}: game 5 gives engine 1 the limits 'nodes 150', the files before it 'nodes 100': not one match",
            other.display()
        )),
        "{}",
        err
    );

    // Seeds are numbers, or none.
    let seeded = temp("limits-seed.jsonl");
    for (seed, said) in [
        (serde_json::json!(2), "2"),
        (serde_json::Value::Null, "none"),
    ] {
        rewrite_records(&b2, &seeded, |_, v| {
            v["seed"] = seed.clone();
            true
        });
        let err = stats_error(&[fa, seeded.to_str().unwrap()]);
        assert!(
            err.contains(&format!(
                "game 3 was played with seed {}, the files before it with 1: not one match",
                said
            )),
            "{}",
            err
        );
    }
    for f in [&a, &b, &b2, &own, &other, &seeded] {
        let _ = std::fs::remove_file(f);
    }
}

/// A record whose engines or group no match gives its game: `engines` [1, 2] in a two-engine
/// match made the table a round-robin ("vs the field", a third engine, ratings).
#[test]
fn stats_refuses_engines_and_groups_that_no_match_gives_the_game() {
    let two = tiny("layout-two.jsonl", "200", &[]);
    let f = two.to_str().unwrap();
    let bad = temp("layout-bad.jsonl");
    let b = bad.to_str().unwrap();
    let recs = records::read(&two).unwrap();
    assert_eq!(recs[1].engines, vec![1, 0]);
    assert_eq!(recs[2].group, 1);
    with_second_changed(&two, &bad, |v| v["engines"] = serde_json::json!([1, 2]));
    let err = stats_error(&[b]);
    assert!(
        err.starts_with(&format!(
            "error: {}:2: 'engines' is [1, 2] in game 2, which no match of 4 games of these engines gives it",
            b
        )),
        "{}",
        err
    );
    // Seats swapped in one game of a pair.
    with_second_changed(&two, &bad, |v| v["engines"] = serde_json::json!([0, 1]));
    rewrite_records(&bad, &bad, |i, v| {
        if i == 1 {
            v["seats"] = serde_json::json!(["builtin:random", "builtin:random#2"]);
        }
        true
    });
    let err = stats_error(&[b]);
    assert!(
        err.starts_with(&format!("error: {}:2: 'engines' is [0, 1] in game 2,", b)),
        "{}",
        err
    );
    // Game 3 in game 1's group: a pair of three games and a lone one.
    rewrite_records(&two, &bad, |i, v| {
        if i == 2 {
            v["group"] = 0.into();
        }
        true
    });
    let err = stats_error(&[b]);
    assert!(
        err.starts_with(&format!("error: {}:3: 'group' is 0 in game 3,", b)),
        "{}",
        err
    );
    let (ok, table, err) = cli(&["stats", f, "--sprt", "elo0=0,elo1=5"]);
    assert!(ok, "{}", err);
    assert!(table.contains("SPRT elo0=0 elo1=5"), "{}", table);

    // Round-robins and gauntlets read as such, whole or in shards; `--sprt` is refused on
    // them as `quatre match` refuses it.
    let three = ["--engine", "builtin:random"];
    for (name, format) in [("rr", "round-robin"), ("gauntlet", "gauntlet")] {
        let whole = tiny(
            &format!("layout-{}.jsonl", name),
            "200",
            &[&three[..], &["--tournament", format]].concat(),
        );
        let part = tiny(
            &format!("layout-{}-1of3.jsonl", name),
            "200",
            &[&three[..], &["--tournament", format, "--shard", "1/3"]].concat(),
        );
        for file in [&whole, &part] {
            let (ok, table, err) = cli(&["stats", file.to_str().unwrap()]);
            assert!(ok, "{}: {}", name, err);
            assert!(table.contains("vs the field"), "{}", table);
            let err = stats_error(&[file.to_str().unwrap(), "--sprt", "elo0=0,elo1=5"]);
            assert!(
                err.contains(
                    "error: --sprt needs as many engines as seats (one pairing): these games have 3 engines on 2 seats\n"
                ),
                "{}",
                err
            );
        }
        let (ok, _, err) = cli(&[
            &["match"][..],
            &common::ONE_BOARD,
            &common::TWO_RANDOMS,
            &three,
            &[
                "--nodes",
                "200",
                "--tournament",
                format,
                "--sprt",
                "elo0=0,elo1=5",
            ],
        ]
        .concat());
        assert!(
            !ok && err.contains("--sprt needs as many engines as seats (one pairing)"),
            "{}",
            err
        );
        for file in [whole, part] {
            let _ = std::fs::remove_file(file);
        }
    }
    for f in [&two, &bad] {
        let _ = std::fs::remove_file(f);
    }
}

/// A 4-game match (two rotation groups) in 8 shards: shards 3/8 to 8/8 have no game to play,
/// and were named as missing.
#[test]
fn stats_names_only_the_missing_shards_that_have_games() {
    let one = tiny("eight-1.jsonl", "200", &["--shard", "1/8"]);
    let s = records::stats(std::slice::from_ref(&one), None).unwrap();
    assert!(
        s.table.ends_with(
            "Missing: 2 of the match's 4 games are in none of the files: games 3–4; no game of shard 2/8\n"
        ),
        "{}",
        s.table
    );
    let mut files = vec![one];
    for k in 2..=8 {
        let f = tiny(
            &format!("eight-{}.jsonl", k),
            "200",
            &["--shard", &format!("{}/8", k)],
        );
        assert_eq!(records::read(&f).unwrap().len(), if k == 2 { 2 } else { 0 });
        files.push(f);
    }
    let s = records::stats(&files[..2], None).unwrap();
    assert!(s.missing.is_empty(), "{:?}", s.missing);
    assert!(!s.table.contains("Missing"), "{}", s.table);
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

/// A shard of a round-robin may seat only some engines (shard 6 of 6 of four engines on two
/// seats plays c against d): `stats` reads it, naming the engines with no game there, where it
/// said "engine 1 plays in none of the games"; with its other shards it makes the whole table.
/// Without the match's planned count such a gap is still a record's mistake.
#[test]
fn a_round_robin_shard_without_engine_1_is_read() {
    let shard = |i: usize| {
        let out = temp(&format!("rr-shard-{}.jsonl", i));
        let spec = format!("{}/6", i);
        let (ok, _, err) = cli(&common::tiny_match(&[
            "--engine",
            "builtin:random name=c",
            "--engine",
            "builtin:random name=d",
            "--nodes",
            "5",
            "--games",
            "2",
            "--seed",
            "3",
            "--shard",
            &spec,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]));
        assert!(ok, "{}", err);
        out
    };
    let (s1, s6) = (shard(1), shard(6));
    let (ok, table, err) = cli(&["stats", s6.to_str().unwrap()]);
    assert!(ok, "{}", err);
    assert!(table.contains("engine 1 (no game here)"), "{}", table);
    assert!(table.contains("Elo: no games"), "{}", table);
    let (ok, both, err) = cli(&["stats", s1.to_str().unwrap(), s6.to_str().unwrap()]);
    assert!(ok && !both.contains("no game here"), "{}{}", both, err);
    // The same shard without its planned count: nothing explains the gap.
    let bare = temp("rr-shard-6-format-2.jsonl");
    as_format_2(&s6, &bare, |_| true);
    let (ok, _, err) = cli(&["stats", bare.to_str().unwrap()]);
    assert!(
        !ok && err.contains("engine 1 plays in none of the games"),
        "{}",
        err
    );
    for f in [s1, s6, bare] {
        let _ = std::fs::remove_file(f);
    }
}

/// A record with the times of its moves left out (they differ between runs).
fn timeless(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("times_ms");
            v.to_string()
        })
        .collect()
}

/// `quatre match --resume` finishes a file a stopped match left: the games recorded are kept,
/// one recorded as not started and one whose line was cut short are played again, and the file
/// and table end as the match's run at once; the file of another match (seed, limits, engines,
/// games) is refused on one line and left as it was; `--resume` needs `--out`.
#[test]
fn a_resumed_match_ends_as_the_match_run_at_once() {
    let whole = tiny("resume-whole.jsonl", "200", &[]);
    let (_, table, _) = cli(&["stats", whole.to_str().unwrap()]);
    let f = temp("resume-part.jsonl");
    rewrite_records(&whole, &f, |i, v| {
        if i == 1 {
            v["started"] = serde_json::Value::Bool(false);
        }
        i < 4
    });
    // Games 1 and 3 are played again (game 1 not started, game 3's line cut) after the kept
    // games 0 and 2: the file ends in game order all the same.
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, &text[..text.len() - 30]).unwrap();
    let path = f.to_str().unwrap();
    let resume = |extra: &[&str]| {
        let mut a = vec!["--resume"];
        a.extend_from_slice(extra);
        tiny_to(path, "200", &a)
    };
    let (ok, out, err) = resume(&[]);
    assert!(ok, "{}", err);
    assert!(
        err.starts_with(&format!(
            "resuming {}: 2 games kept, 2 to play (1 recorded as not started is played again); its last line was cut short",
            path
        )),
        "{}",
        err
    );
    assert!(
        out.contains("4 games of 4 played (2 of them kept from the file resumed)"),
        "{}",
        out
    );
    assert_eq!(timeless(&f), timeless(&whole));
    let rows = |t: &str| -> Vec<String> { t.lines().skip(1).map(String::from).collect() };
    assert_eq!(rows(&out), rows(&table), "{}\n{}", out, table);

    // Through a symbolic link: the file it names is finished, the link stays a link.
    #[cfg(unix)]
    {
        let target = temp("resume-target.jsonl");
        std::fs::write(&target, &text).unwrap();
        let link = temp("resume-link.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let (ok, _, err) = tiny_to(link.to_str().unwrap(), "200", &["--resume", "--quiet"]);
        assert!(ok, "{}", err);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(timeless(&target), timeless(&whole));
        let _ = std::fs::remove_file(&link);
        let _ = std::fs::remove_file(&target);
    }

    // Another match's file: refused, untouched.
    std::fs::write(&f, &text).unwrap();
    for (seed, nodes, games, field) in [
        ("2", "200", "4", "'seed' is 1, this match's 2"),
        (
            "1",
            "300",
            "4",
            r#"'tc' is "nodes 200", this match's "nodes 300""#,
        ),
        ("1", "200", "6", "'planned' is 4, this match's 6"),
    ] {
        let a = [
            "--nodes",
            nodes,
            "--max-plies",
            "20",
            "--games",
            games,
            "--seed",
            seed,
            "--out",
            path,
            "--resume",
        ];
        let (ok, _, err) = cli(&common::tiny_match(&a));
        assert!(!ok);
        assert_eq!(err.trim_end().lines().count(), 1, "{}", err);
        assert!(
            err.contains(&format!(
                "{}:1: game 1 is not this match's: its {}",
                path, field
            )),
            "{}",
            err
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
    }
    // No file yet: the match starts, as without --resume.
    let fresh = temp("resume-fresh.jsonl");
    let (ok, _, err) = tiny_to(fresh.to_str().unwrap(), "200", &["--resume"]);
    assert!(ok, "{}", err);
    assert!(
        err.starts_with(&format!(
            "resuming {}: no such file yet, so the match starts (4 games to play)",
            fresh.display()
        )),
        "{}",
        err
    );
    assert_eq!(timeless(&fresh), timeless(&whole));
    let _ = std::fs::remove_file(&fresh);
    let (ok, _, err) = cli(&common::tiny_match(&["--nodes", "200", "--resume"]));
    assert!(!ok);
    assert!(err.contains("--resume needs --out"), "{}", err);
    let _ = std::fs::remove_file(&f);
    let _ = std::fs::remove_file(&whole);
}

/// A resumed file keeps the games of the positions this match starts from: with `--openings`
/// of positions alone (no moves), another file's positions are another match, refused on the
/// game's `start` (they were taken as this match's, and the table mixed two matches).
#[test]
fn a_resumed_file_of_other_opening_positions_is_refused() {
    let book = |name: &str, fen: &str| {
        let f = temp(name);
        std::fs::write(&f, format!("{}\n", fen)).unwrap();
        f
    };
    let a = book(
        "resume-e4.txt",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
    );
    let b = book(
        "resume-d4.txt",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b - - 0 1",
    );
    let f = tiny(
        "resume-openings.jsonl",
        "200",
        &["--openings", a.to_str().unwrap()],
    );
    let text = std::fs::read_to_string(&f).unwrap();
    let first: String = text.lines().take(2).map(|l| format!("{}\n", l)).collect();
    std::fs::write(&f, &first).unwrap();
    let path = f.to_str().unwrap();
    let (ok, _, err) = tiny_to(
        path,
        "200",
        &["--openings", b.to_str().unwrap(), "--resume"],
    );
    assert!(!ok, "{}", err);
    assert!(
        err.contains(&format!(
            "{}:1: game 1 is not this match's: its 'start' is",
            path
        )),
        "{}",
        err
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), first);
    // The same book resumes.
    let (ok, _, err) = tiny_to(
        path,
        "200",
        &["--openings", a.to_str().unwrap(), "--resume"],
    );
    assert!(ok, "{}", err);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
    for p in [&a, &b, &f] {
        let _ = std::fs::remove_file(p);
    }
}

/// A last line cut short inside a character (an engine's name, an adjudication's `±`) is a cut
/// line like any other: dropped, its game played again (the file was refused as not UTF-8).
#[test]
fn a_resumed_file_cut_inside_a_character_is_finished() {
    let whole = tiny("resume-utf8-whole.jsonl", "200", &[]);
    let text = std::fs::read_to_string(&whole).unwrap();
    let f = temp("resume-utf8.jsonl");
    let mut bytes: Vec<u8> = text
        .lines()
        .take(2)
        .flat_map(|l| format!("{}\n", l).into_bytes())
        .collect();
    // The first byte of `±`, and no more.
    bytes.extend_from_slice(b"{\"format\":3,\"reason\":\"every engine within \xc2");
    std::fs::write(&f, &bytes).unwrap();
    let path = f.to_str().unwrap();
    let (ok, _, err) = tiny_to(path, "200", &["--resume"]);
    assert!(ok, "{}", err);
    assert!(
        err.starts_with(&format!(
            "resuming {}: 2 games kept, 2 to play; its last line was cut short",
            path
        )),
        "{}",
        err
    );
    assert_eq!(timeless(&f), timeless(&whole));
    let _ = std::fs::remove_file(&f);
    let _ = std::fs::remove_file(&whole);
}
