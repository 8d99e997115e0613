//! `quatre selfplay` (docs/learning.md): the same seed gives the same file, shards concatenate
//! to the unsharded file, the format reads back exactly, and what it records is true of the
//! games (positions parse, moves are legal, results match the last position's status). Searches
//! are limited by nodes, so nothing here depends on the machine's speed.

use quatre::game::Status;
use quatre::games;
use quatre::learn::format::{self, GameData};
use quatre::learn::selfplay::{self, partial_path};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("selfplay-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `selfplay` in this process with `args` (plus `--out` and `--quiet`); returns the file.
fn selfplay(game: &str, args: &[&str], out: &str) -> Vec<u8> {
    let out = tmp(out);
    let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    v.extend(["--quiet".into(), "--out".into(), out.display().to_string()]);
    let a = selfplay::parse_args(&v).unwrap();
    selfplay::run(Some(game), &a).unwrap();
    assert!(!partial_path(&out).exists(), "the partial file is renamed");
    std::fs::read(&out).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_file_through_the_command_line() {
    let run = |seed: &str, concurrency: &str, out: &str| {
        let out = tmp(out);
        let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args([
                "--game",
                "threechess",
                "selfplay",
                "--games",
                "3",
                "--nodes",
                "150",
            ])
            .args([
                "--max-plies",
                "40",
                "--seed",
                seed,
                "--concurrency",
                concurrency,
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(err.contains("positions/hour"), "{}", err);
        std::fs::read(&out).unwrap()
    };
    let a = run("5", "1", "cli-a.txt");
    let b = run("5", "3", "cli-b.txt");
    assert!(!a.is_empty());
    assert_eq!(a, b, "one thread or three: the same bytes");
    let c = run("6", "2", "cli-c.txt");
    assert_ne!(a, c, "another seed, other games");
}

#[test]
fn shards_concatenate_to_the_unsharded_file() {
    for (game, opts) in [
        ("rithmomachia", vec!["--max-plies", "30"]),
        ("tesseris", vec!["--max-plies", "30"]),
    ] {
        let base = |extra: &[&str]| {
            let mut a = vec!["--games", "5", "--nodes", "120", "--seed", "9"];
            a.extend(&opts);
            a.extend(extra);
            a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        };
        let args = base(&[]);
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let whole = selfplay(game, &args, &format!("{}-whole.txt", game));
        for n in [2usize, 3] {
            let mut cat = Vec::new();
            for k in 1..=n {
                let shard = format!("{}/{}", k, n);
                let a = base(&["--shard", &shard, "--concurrency", "2"]);
                let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
                cat.extend(selfplay(game, &a, &format!("{}-{}-{}.txt", game, k, n)));
            }
            assert_eq!(cat, whole, "{}: shards of {} concatenated", game, n);
        }
        let games = format::read_str(std::str::from_utf8(&whole).unwrap()).unwrap();
        let idx: Vec<usize> = games.iter().map(|g| g.index).collect();
        assert_eq!(idx, vec![0, 1, 2, 3, 4]);
    }
}

/// Checks every recorded game against the rules: the text reads back byte for byte, each
/// position parses to the same text, its seat is the one to move, its move is legal and leads
/// to the next recorded position, and the result is what the last position's status says.
fn check_file(bytes: &[u8]) -> Vec<GameData> {
    let text = std::str::from_utf8(bytes).unwrap();
    let games = format::read_str(text).unwrap();
    let again: String = games.iter().map(|g| g.to_text()).collect();
    assert_eq!(again, text, "the reader's games write back the same bytes");
    for g in &games {
        let entry = games::find(&g.game).unwrap();
        let mut opts = entry.default_options();
        for (k, v) in &g.options {
            opts.set(k, v).unwrap();
        }
        assert!(!g.positions.is_empty());
        // The game replayed from its first recorded position: unlike a state read from one
        // position's text, it remembers the positions before, as a repetition draw needs.
        let mut replay = entry.from_text(&g.positions[0].text, &opts).unwrap();
        for (i, p) in g.positions.iter().enumerate() {
            let mut s = entry.from_text(&p.text, &opts).unwrap();
            assert_eq!(
                s.to_text(),
                p.text,
                "{} game {} ply {}",
                g.game,
                g.index,
                p.ply
            );
            assert_eq!(s.to_move(), p.seat);
            assert_eq!(s.players(), g.result.len());
            assert!(
                s.legal_moves().contains(&p.mv),
                "{} ply {}: {}",
                g.game,
                p.ply,
                p.mv
            );
            s.play_text(&p.mv).unwrap();
            replay.play_text(&p.mv).unwrap();
            if let Some(next) = g.positions.get(i + 1) {
                assert_eq!(next.ply, p.ply + 1);
                assert_eq!(
                    s.to_text(),
                    next.text,
                    "the move leads to the next position"
                );
            }
        }
        let end = replay;
        assert_eq!(g.plies, g.positions.last().unwrap().ply + 1);
        let sum: f32 = g.result.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{:?}", g.result);
        match end.status() {
            Status::Over(o) => {
                assert_eq!(&o.rewards[..g.result.len()], &g.result[..]);
                assert_eq!(o.reason, g.reason);
            }
            Status::Ongoing => {
                assert!(g.reason.starts_with("selfplay --max-plies"), "{}", g.reason);
                let n = g.result.len() as f32;
                assert!(g.result.iter().all(|&r| (r - 1.0 / n).abs() < 1e-6));
            }
        }
    }
    games
}

#[test]
fn every_game_round_trips_and_records_what_the_rules_say() {
    for (game, extra) in [
        (
            "hyperchess",
            vec!["--option", "Boards=1x1", "--max-plies", "60"],
        ),
        ("rithmomachia", vec!["--max-plies", "40"]),
        ("tesseract", vec!["--max-plies", "40"]),
        ("tesseris", vec![]),
        ("threechess", vec![]),
    ] {
        let mut args = vec!["--games", "2", "--nodes", "150", "--seed", "3"];
        args.extend(&extra);
        let bytes = selfplay(game, &args, &format!("{}-rt.txt", game));
        let games = check_file(&bytes);
        assert_eq!(games.len(), 2, "{}", game);
        for g in &games {
            assert_eq!(g.game, game);
            assert_eq!(g.nodes, 150);
            let expect = if game == "tesseris" {
                "random:0"
            } else {
                "random:4"
            };
            assert_eq!(g.start, expect);
            assert_eq!(g.positions[0].ply, if game == "tesseris" { 0 } else { 4 });
        }
        // Games that run to their end without a cap end by the rules.
        if extra.is_empty() {
            assert!(games.iter().all(|g| !g.reason.starts_with("selfplay")));
        }
    }
}

#[test]
fn openings_and_adjudication_are_recorded() {
    let book = tmp("book.txt");
    std::fs::write(
        &book,
        "# two lines\nstartpos moves e2e4\nstartpos moves d2d4 d7d5\n",
    )
    .unwrap();
    let book = book.display().to_string();
    let bytes = selfplay(
        "hyperchess",
        &[
            "--option",
            "Boards=1x1",
            "--games",
            "2",
            "--nodes",
            "100",
            "--openings",
            &book,
            "--adjudicate",
            "draw=10000/2",
            "--max-plies",
            "50",
        ],
        "book-out.txt",
    );
    let games = format::read_str(std::str::from_utf8(&bytes).unwrap()).unwrap();
    let starts: Vec<&str> = games.iter().map(|g| g.start.as_str()).collect();
    assert_eq!(starts, ["openings:1", "openings:2"]);
    assert_eq!(games[0].positions[0].ply, 1);
    assert_eq!(games[1].positions[0].ply, 2);
    // Every score is within ±10000 cp: each seat's second move ends the game as a draw.
    for g in &games {
        assert!(g.reason.starts_with("adjudication"), "{}", g.reason);
        assert_eq!(g.result, vec![0.5, 0.5]);
        assert_eq!(g.positions.len(), 4);
    }
}

/// More games than openings: alpha-beta (and Best-Reply Search) would play a repeated opening's
/// game again move for move, so the run is refused before any game unless `--random-plies K`
/// plays K random plies (drawn from the seed and the game) after each opening, which makes the
/// repeats differ; the shards still concatenate to the whole run. MCTS's searches differ by
/// the game's seed: not refused.
#[test]
fn more_games_than_openings_need_random_plies_after_them() {
    let book = tmp("few-openings.txt");
    std::fs::write(&book, "startpos moves e2e4\nstartpos moves d2d4 d7d5\n").unwrap();
    let book = book.display().to_string();
    let args = |games: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--option",
            "Boards=1x1",
            "--games",
            games,
            "--nodes",
            "60",
            "--max-plies",
            "16",
            "--seed",
            "7",
            "--openings",
            &book,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let out = tmp("few-openings-out.txt");
    let _ = std::fs::remove_file(&out);
    let mut refused = args("3", &[]);
    refused.extend(["--quiet".into(), "--out".into(), out.display().to_string()]);
    let a = selfplay::parse_args(&refused).unwrap();
    let e = selfplay::run(Some("hyperchess"), &a).unwrap_err();
    assert_eq!(
        e,
        format!(
            "--openings {} holds 2 openings for 3 games: alpha-beta would play each repeated opening's game again move for move; give as many openings as games, or --random-plies K to play K random plies after each opening",
            book
        )
    );
    assert!(!out.exists() && !partial_path(&out).exists());
    let run = |v: Vec<String>, name: &str| {
        let v: Vec<&str> = v.iter().map(String::as_str).collect();
        selfplay("hyperchess", &v, name)
    };
    // As many games as openings, or MCTS: played.
    assert_eq!(
        format::read_str(std::str::from_utf8(&run(args("2", &[]), "two.txt")).unwrap())
            .unwrap()
            .len(),
        2
    );
    run(
        args("3", &["--search-option", "Algorithm=mcts"]),
        "mcts.txt",
    );
    // With --fast-nodes the moves searched in full are drawn from each game's seed, so the
    // games part (as docs/tools/chess_selfplay_shards.sh runs them): played too.
    let fast = ["--fast-nodes", "20", "--full-share", "0.5"];
    let fast = run(args("3", &fast), "fast.txt");
    assert_eq!(
        format::read_str(std::str::from_utf8(&fast).unwrap())
            .unwrap()
            .len(),
        3
    );
    // With random plies after the openings: four games, each repeat its own.
    let whole = run(args("4", &["--random-plies", "2"]), "random-after.txt");
    let games = check_file(&whole);
    let starts: Vec<&str> = games.iter().map(|g| g.start.as_str()).collect();
    assert_eq!(
        starts,
        [
            "openings:1+random:2",
            "openings:2+random:2",
            "openings:1+random:2",
            "openings:2+random:2"
        ]
    );
    for (g, opening) in games.iter().zip([1, 2, 1, 2]) {
        assert_eq!(g.positions[0].ply, opening + 2);
    }
    assert_ne!(games[0].positions[0].text, games[2].positions[0].text);
    assert_ne!(games[1].positions[0].text, games[3].positions[0].text);
    // The same seed, the same file; the shards concatenate to it.
    assert_eq!(
        run(args("4", &["--random-plies", "2"]), "random-again.txt"),
        whole
    );
    let mut cat = Vec::new();
    for k in 1..=2 {
        let shard = format!("{}/2", k);
        cat.extend(run(
            args("4", &["--random-plies", "2", "--shard", &shard]),
            &format!("random-{}.txt", k),
        ));
    }
    assert_eq!(cat, whole);
}

#[test]
fn fast_moves_are_played_but_not_written() {
    let base = [
        "--games",
        "4",
        "--nodes",
        "400",
        "--seed",
        "5",
        "--max-plies",
        "60",
    ];
    let fast = |extra: &[&str], out: &str| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--fast-nodes", "100", "--full-share", "0.3"]);
        a.extend(extra);
        selfplay("hyperchess", &a, out)
    };
    let one = fast(&["--concurrency", "1"], "fast-1.txt");
    // The moves searched in full are drawn from (seed, game, ply): the same file at any
    // concurrency.
    assert_eq!(one, fast(&["--concurrency", "2"], "fast-2.txt"));
    let games = format::read_str(std::str::from_utf8(&one).unwrap()).unwrap();
    let (mut written, mut plies) = (0, 0);
    for g in &games {
        assert!(g.positions.windows(2).all(|w| w[0].ply < w[1].ply));
        written += g.positions.len();
        plies += g.plies - 4; // the random opening is never searched
    }
    // About 30% of the searched moves (120 of 224 plies would be far off).
    let share = written as f64 / plies as f64;
    assert!((0.15..0.45).contains(&share), "{} of {}", written, plies);
    // The written positions are the full searches': each is what `--nodes` alone gives
    // there (one thread and the same search seed).
    let full = selfplay("hyperchess", &base, "fast-full.txt");
    let full = format::read_str(std::str::from_utf8(&full).unwrap()).unwrap();
    assert_eq!(full[0].positions.len(), full[0].plies - 4);
    let first = &games[0].positions[0];
    let same = full[0]
        .positions
        .iter()
        .find(|p| p.ply == first.ply)
        .unwrap();
    if same.text == first.text {
        assert_eq!(
            (same.mv.as_str(), same.score),
            (first.mv.as_str(), first.score)
        );
    }
    // Bad values are refused.
    for bad in [
        vec!["--fast-nodes", "400"],
        vec!["--fast-nodes", "100", "--full-share", "0"],
        vec!["--fast-nodes", "100", "--full-share", "1.5"],
    ] {
        let mut a: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        a.extend(bad.iter().map(|s| s.to_string()));
        a.extend(["--out".into(), tmp("fast-bad.txt").display().to_string()]);
        let args = selfplay::parse_args(&a).unwrap();
        assert!(
            selfplay::run(Some("hyperchess"), &args).is_err(),
            "{:?}",
            bad
        );
    }
}

/// `--search-option Eval=net` (or `Policy=net`) with no net (or policy) that fits the game and
/// its rule options is refused before any game, with the reason, and no file; a net that fits
/// plays.
#[test]
fn a_net_that_does_not_fit_the_game_is_refused_before_any_game() {
    let hc = quatre::games::find("hyperchess").unwrap();
    let set = hc
        .start(&hc.default_options(), None)
        .unwrap()
        .feature_set()
        .unwrap();
    let net = tmp("hyperchess-3x3.net");
    std::fs::write(
        &net,
        quatre::learn::builtin::net("hyperchess", &set)
            .unwrap()
            .to_bytes(),
    )
    .unwrap();
    let eval_file = format!("EvalFile={}", net.display());
    // One game of `game` with the search options `extra`, into `out`.
    let play = |game: &str, extra: &[&str], out: &Path| {
        let _ = std::fs::remove_file(out);
        let mut v: Vec<String> = ["--games", "1", "--nodes", "50", "--max-plies", "10"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for o in extra {
            v.extend(["--search-option".to_string(), o.to_string()]);
        }
        v.extend(["--quiet".into(), "--out".into(), out.display().to_string()]);
        let a = selfplay::parse_args(&v).unwrap();
        selfplay::run(Some(game), &a)
    };
    let refused = |game: &str, extra: &[&str], expect: &str| {
        let out = tmp("refused-net.txt");
        let e = play(game, extra, &out).unwrap_err();
        assert!(e.starts_with(expect), "{}: {}", expect, e);
        assert!(!out.exists() && !partial_path(&out).exists());
    };
    refused(
        "tesseris",
        &["Eval=net"],
        "Eval net: no built-in net for tesseris",
    );
    refused(
        "tesseris",
        &["Eval=net", &eval_file],
        "Eval net: the net is for hyperchess (hyperchess-3x3/3), not for tesseris",
    );
    // A policy only MCTS reads: refused where self-play searches by MCTS, ignored where it
    // searches by alpha-beta (hyperchess's default), as alpha-beta ignores the option.
    refused(
        "hyperchess",
        &["Policy=net", "Algorithm=mcts"],
        "Policy net: no built-in policy for hyperchess",
    );
    let out = tmp("alphabeta-policy-net.txt");
    play("hyperchess", &["Policy=net"], &out).unwrap();
    assert!(out.exists());
    // Another board size of the same game: its rule option decides.
    let out = tmp("refused-1x1.txt");
    let a = selfplay::parse_args([
        "--option",
        "Boards=2x1",
        "--games",
        "1",
        "--nodes",
        "50",
        "--search-option",
        "Eval=net",
        "--search-option",
        &eval_file,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    let e = selfplay::run(Some("hyperchess"), &a).unwrap_err();
    assert!(
        e.starts_with("Eval net: the net reads hyperchess features (hyperchess-3x3/3), this position's are hyperchess-2x1/3"),
        "{}",
        e
    );
    // The net that fits plays, and so does the shipped one without a file.
    for extra in [
        vec!["--search-option", "Eval=net"],
        vec!["--search-option", "Eval=net", "--search-option", &eval_file],
    ] {
        let mut args = vec!["--games", "1", "--nodes", "50", "--max-plies", "6"];
        args.extend(extra);
        assert!(!selfplay("hyperchess", &args, "fits.txt").is_empty());
    }
}

/// `--out` naming a directory, or a file in a directory that does not exist, is refused before
/// any game with one line, and leaves no `.partial` file behind.
#[test]
fn an_out_path_that_cannot_be_written_is_refused_before_any_game() {
    let dir = tmp("out-dir");
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(partial_path(&dir));
    let missing = tmp("no-such-dir").join("x.txt");
    for (out, expect) in [
        (&dir, format!("--out {}: is a directory", dir.display())),
        (
            &missing,
            format!("cannot write {}", partial_path(&missing).display()),
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args([
                "selfplay",
                "--games",
                "2",
                "--nodes",
                "50",
                "--max-plies",
                "8",
            ])
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{}", err);
        assert_eq!(
            err.lines().count(),
            1,
            "only the error, no game played: {}",
            err
        );
        assert!(err.starts_with(&format!("error: {}", expect)), "{}", err);
        assert!(
            !partial_path(out).exists(),
            "{}",
            partial_path(out).display()
        );
    }
    assert!(dir.is_dir());
}

/// A `--max-plies` at or below the plies that open a game (the random ones, or the longest
/// opening of the file) would search nothing and write games of `positions=0` whose `plies`
/// exceed the cap: refused before any game; one ply more searches one.
#[test]
fn a_cap_within_the_opening_is_refused() {
    let run = |game: &str, extra: &[&str]| {
        let out = tmp("cap.txt");
        let _ = std::fs::remove_file(&out);
        let mut v: Vec<String> = ["--games", "2", "--nodes", "30", "--quiet"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.extend(["--out".into(), out.display().to_string()]);
        let a = selfplay::parse_args(&v).unwrap();
        let r = selfplay::run(Some(game), &a)
            .map(|_| format::read_str(&std::fs::read_to_string(&out).unwrap()).unwrap());
        if r.is_err() {
            assert!(!out.exists() && !partial_path(&out).exists());
        }
        r
    };
    for (game, cap, extra, plies, what) in [
        ("hyperchess", "2", vec![], 4, "--random-plies 4"),
        ("hyperchess", "4", vec![], 4, "--random-plies 4"),
        (
            "rithmomachia",
            "1",
            vec!["--random-plies", "1"],
            1,
            "--random-plies 1",
        ),
        ("tesseris", "0", vec![], 0, "--random-plies 0"),
    ] {
        let mut args = vec!["--max-plies", cap];
        args.extend(extra);
        let e = run(game, &args).unwrap_err();
        assert_eq!(
            e,
            format!(
                "--max-plies {} leaves no ply to search: a game opens with {} plies ({}); give a cap above {}",
                cap, plies, what, plies
            )
        );
    }
    let games = run("hyperchess", &["--max-plies", "5"]).unwrap();
    for g in &games {
        assert_eq!((g.plies, g.positions.len()), (5, 1), "{:?}", g.reason);
    }
    // With openings: the longest line the run plays counts (the third is not played).
    let book = tmp("cap-book.txt");
    std::fs::write(
        &book,
        "startpos moves AbI1AcI3\nstartpos moves AbI1AcI3 AbI8AcI6 AgI1AfI3\nstartpos moves AbI1AcI3 AbI8AcI6 AgI1AfI3 AgI8AfI6 BgI1AgI3\n",
    )
    .unwrap();
    let book = book.display().to_string();
    let e = run("hyperchess", &["--openings", &book, "--max-plies", "3"]).unwrap_err();
    assert!(
        e.starts_with("--max-plies 3 leaves no ply to search: a game opens with 3 plies (the longest opening of --openings)"),
        "{}",
        e
    );
    let games = run("hyperchess", &["--openings", &book, "--max-plies", "4"]).unwrap();
    assert_eq!(games.len(), 2);
    assert!(games
        .iter()
        .all(|g| g.plies == 4 && !g.positions.is_empty()));
}
