//! `quatre label` (docs/learning.md, "Data from recorded games"): the games of `quatre match
//! --out` files searched position by position into the self-play data format. What it writes is
//! true of the recorded games (their moves, positions and results), the same seed gives the
//! same file whatever the concurrency, shards concatenate to the unsharded file, games ended by
//! a fault are left out, and bad input is refused with a message. Searches are limited by
//! nodes, so nothing here depends on the machine's speed.

mod common;
use common::with_field;
use quatre::arena::referee::{GameDef, GameRecord};
use quatre::arena::{parse_args as match_args, run_match};
use quatre::learn::format::{self, GameData};
use quatre::learn::label;
use quatre::learn::selfplay::partial_path;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("label-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Plays a match of `game` (with `options`) between `engines` at fixed nodes and writes its
/// records to `out`; returns the file's path.
fn record(game: &str, options: &[&str], engines: &[&str], games: &str, out: &str) -> PathBuf {
    let out = tmp(out);
    let _ = std::fs::remove_file(&out);
    let mut def = GameDef::from_entry(quatre::games::resolve(Some(game)).unwrap());
    for o in options {
        let (k, v) = o.split_once('=').unwrap();
        def.set_option(k, v).unwrap();
    }
    let mut a: Vec<String> = [
        "--quiet",
        "--games",
        games,
        "--max-plies",
        "40",
        "--seed",
        "4",
        "--nodes",
        "100",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for e in engines {
        a.extend(["--engine".to_string(), e.to_string()]);
    }
    a.extend(["--out".to_string(), out.display().to_string()]);
    run_match(def, &match_args(a).unwrap()).unwrap();
    out
}

/// Runs `label` in this process on `records` with `args` (plus `--quiet` and `--out`); returns
/// the file's bytes.
fn label(
    game: Option<&str>,
    records: &[&Path],
    args: &[&str],
    out: &str,
) -> Result<Vec<u8>, String> {
    let out = run_label(game, "--records", records, args, out)?;
    Ok(std::fs::read(&out).unwrap())
}

/// Runs `quatre label` on `files` given after `flag` (`--records` or `--data`), quietly, and
/// returns the path written (checking that the partial file was renamed).
fn run_label(
    game: Option<&str>,
    flag: &str,
    files: &[&Path],
    args: &[&str],
    out: &str,
) -> Result<PathBuf, String> {
    let out = tmp(out);
    let mut v: Vec<String> = vec![flag.into()];
    v.extend(files.iter().map(|p| p.display().to_string()));
    v.extend(args.iter().map(|s| s.to_string()));
    v.extend(["--quiet".into(), "--out".into(), out.display().to_string()]);
    let a = label::parse_args(&v)?;
    label::run(game, &a)?;
    assert!(!partial_path(&out).exists(), "the partial file is renamed");
    Ok(out)
}

fn records_of(path: &Path) -> Vec<GameRecord> {
    quatre::arena::records::read(path).unwrap()
}

/// Checks labelled games against their records: one data game per record, in order, with its
/// result and reason; each written position is the recorded game's position at that ply (the
/// game replayed through the rules), its seat the one to move, its move the one played.
fn check_against(data: &[GameData], recs: &[GameRecord], file: &str, all: bool) {
    assert_eq!(data.len(), recs.len());
    for (g, rec) in data.iter().zip(recs) {
        let mut def = GameDef::from_entry(quatre::games::resolve(Some(&rec.game_name)).unwrap());
        for (k, v) in &rec.options {
            def.set_option(k, v).unwrap();
        }
        assert_eq!(g.game, rec.game_name);
        assert_eq!(g.result, rec.result);
        assert_eq!(g.reason, rec.reason);
        assert_eq!(g.start, format!("record:{}:{}", file, rec.game + 1));
        let plies: Vec<&String> = rec.opening.iter().chain(&rec.moves).collect();
        assert_eq!(g.plies, plies.len());
        if all {
            assert_eq!(
                g.positions.len(),
                rec.moves.len(),
                "every move's position is written"
            );
        }
        let mut state = def.from_text(&rec.start).unwrap();
        let mut at = g.positions.iter().peekable();
        for (ply, mv) in plies.iter().enumerate() {
            if let Some(p) = at.next_if(|p| p.ply == ply) {
                assert!(ply >= rec.opening.len(), "no opening ply is written");
                assert_eq!(p.text, state.to_text(), "game {} ply {}", rec.game + 1, ply);
                assert_eq!(p.seat, state.to_move());
                let mut legal = state.clone_box();
                assert!(
                    legal.play_text(&p.mv).is_ok(),
                    "the search's move {} is legal at ply {}",
                    p.mv,
                    ply
                );
                assert!(
                    !matches!(p.score, format::Score::None),
                    "every position is scored"
                );
            }
            state.play_text(mv).unwrap();
        }
        assert!(
            at.next().is_none(),
            "positions in ply order, each at a ply of the game"
        );
    }
}

#[test]
fn labelled_games_are_the_recorded_games_and_the_same_seed_gives_the_same_file() {
    let recs = record(
        "hyperchess",
        &["Boards=1x1"],
        &[
            "builtin:alphabeta nodes=150 name=a",
            "builtin:mcts nodes=150 name=m",
        ],
        "4",
        "h1.jsonl",
    );
    let args = ["--nodes", "120", "--seed", "3"];
    let one = label(
        None,
        &[&recs],
        &[&args[..], &["--concurrency", "1"]].concat(),
        "h1-a.txt",
    )
    .unwrap();
    let two = label(
        Some("hyperchess"),
        &[&recs],
        &[&args[..], &["--concurrency", "2"]].concat(),
        "h1-b.txt",
    )
    .unwrap();
    assert_eq!(one, two, "one thread or two: the same bytes");
    let text = String::from_utf8(one.clone()).unwrap();
    let data = format::read_str(&text).unwrap();
    assert_eq!(data.iter().map(|g| g.to_text()).collect::<String>(), text);
    check_against(&data, &records_of(&recs), "h1.jsonl", true);

    let shards: Vec<Vec<u8>> = (1..=3)
        .map(|k| {
            let shard = format!("{}/3", k);
            let out = format!("h1-s{}.txt", k);
            label(
                None,
                &[&recs],
                &[&args[..], &["--shard", &shard]].concat(),
                &out,
            )
            .unwrap()
        })
        .collect();
    assert_eq!(
        shards.concat(),
        one,
        "the shards concatenate to the unsharded file"
    );

    let half = label(
        None,
        &[&recs],
        &[&args[..], &["--share", "0.5"]].concat(),
        "h1-h.txt",
    )
    .unwrap();
    let half = format::read_str(std::str::from_utf8(&half).unwrap()).unwrap();
    check_against(&half, &records_of(&recs), "h1.jsonl", false);
    let (n_half, n_all) = (
        half.iter().map(|g| g.positions.len()).sum::<usize>(),
        data.iter().map(|g| g.positions.len()).sum::<usize>(),
    );
    assert!(
        n_half > 0 && 3 * n_half < 2 * n_all && 3 * n_half > n_all,
        "{} of {}",
        n_half,
        n_all
    );

    // The seed draws which positions `--share` keeps (alpha-beta's searches ignore it).
    let plies = |seed: &str, out: &str| -> Vec<Vec<usize>> {
        let b = label(
            None,
            &[&recs],
            &["--nodes", "120", "--seed", seed, "--share", "0.5"],
            out,
        )
        .unwrap();
        format::read_str(std::str::from_utf8(&b).unwrap())
            .unwrap()
            .iter()
            .map(|g| g.positions.iter().map(|p| p.ply).collect())
            .collect()
    };
    assert_eq!(
        plies("3", "h1-d.txt"),
        half.iter()
            .map(|g| g.positions.iter().map(|p| p.ply).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
    assert_ne!(
        plies("4", "h1-c.txt"),
        plies("3", "h1-d.txt"),
        "another seed, other plies"
    );
}

#[test]
fn tesseris_records_are_labelled() {
    // Its searches see the mover's observation: `search_for_mover` loads it, as the arena's
    // players and selfplay do (and ISMCTS deals the hidden cards afresh from any state).
    let recs = record(
        "tesseris",
        &[],
        &["builtin:mcts nodes=100 name=m", "builtin:baseline"],
        "2",
        "t1.jsonl",
    );
    let bytes = label(Some("tesseris"), &[&recs], &["--nodes", "100"], "t1.txt").unwrap();
    let data = format::read_str(std::str::from_utf8(&bytes).unwrap()).unwrap();
    check_against(&data, &records_of(&recs), "t1.jsonl", true);
}

#[test]
fn games_ended_by_a_fault_are_left_out_and_bad_input_is_refused() {
    let recs = record(
        "rithmomachia",
        &[],
        &["builtin:alphabeta nodes=50 name=a", "builtin:random"],
        "3",
        "r1.jsonl",
    );
    // The second game, as if lost on time: its result says who erred, not who stood better.
    let text = std::fs::read_to_string(&recs).unwrap();
    let faulted = tmp("r1-fault.jsonl");
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            1 => {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["offender"] = serde_json::json!(0);
                v["termination"] = serde_json::json!("time forfeit");
                v.to_string()
            }
            _ => l.to_string(),
        })
        .collect();
    std::fs::write(&faulted, lines.join("\n") + "\n").unwrap();
    let bytes = label(None, &[&faulted], &["--nodes", "50"], "r1.txt").unwrap();
    let data = format::read_str(std::str::from_utf8(&bytes).unwrap()).unwrap();
    let kept: Vec<GameRecord> = records_of(&faulted)
        .into_iter()
        .filter(|r| r.offender.is_none())
        .collect();
    assert_eq!(kept.len(), 2);
    check_against(&data, &kept, "r1-fault.jsonl", true);

    let err = |game: Option<&str>, files: &[&Path], args: &[&str]| {
        label(game, files, args, "bad.txt").expect_err("refused")
    };
    let e = err(Some("tesseract"), &[&recs], &["--nodes", "50"]);
    assert!(
        e.contains("--game tesseract") && e.contains("rithmomachia"),
        "{}",
        e
    );
    let other = record(
        "rithmomachia",
        &["Captures=convert"],
        &["builtin:random", "builtin:random"],
        "1",
        "r2.jsonl",
    );
    let e = err(None, &[&recs, &other], &["--nodes", "50"]);
    assert!(
        e.contains("other rule options")
            && e.contains("r2.jsonl game 1")
            && e.contains("Captures=convert (not remove)"),
        "{}",
        e
    );
    let e = err(None, &[&recs, &recs], &["--nodes", "50"]);
    assert!(
        e.contains("again") && e.contains("r1.jsonl game 1"),
        "{}",
        e
    );
    // A record the rules contradict is refused before any search: one said to have been
    // ended by the rules while its game goes on, and one whose moves go past its end.
    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        f(&mut v);
        let path = tmp(name);
        std::fs::write(&path, v.to_string() + "\n").unwrap();
        path
    };
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_ne!(
        first["termination"], "rules",
        "the first game reached the move cap"
    );
    let ruled = edit("r1-ruled.jsonl", &|v| {
        v["termination"] = serde_json::json!("rules")
    });
    let e = err(None, &[&ruled], &["--nodes", "50"]);
    assert!(
        e.contains("r1-ruled.jsonl game 1") && e.contains("goes on"),
        "{}",
        e
    );
    let cut = edit("r1-cut.jsonl", &|v| {
        v["moves"].as_array_mut().unwrap().pop();
    });
    let e = err(None, &[&cut], &["--nodes", "50"]);
    assert!(
        e.contains("another position than the record's end"),
        "{}",
        e
    );
    // It shows both positions: the record's end, and the one a move short of it.
    let end = first["end"].as_str().unwrap();
    assert!(e.contains(&format!("recorded: '{}'", end)), "{}", e);
    assert!(
        e.contains("replayed: '") && !e.contains(&format!("replayed: '{}'", end)),
        "{}",
        e
    );
    let unstarted = edit("r1-unstarted.jsonl", &|v| {
        v["started"] = serde_json::json!(false)
    });
    let e = err(None, &[&unstarted], &["--nodes", "50"]);
    assert!(e.contains("no game to label: 1 left out"), "{}", e);
    let e = err(None, &[&recs], &["--nodes", "50", "--share", "0"]);
    assert!(e.contains("--share"), "{}", e);
    let missing = tmp("no-such-file.jsonl");
    let e = err(None, &[&missing], &["--nodes", "50"]);
    assert!(e.contains("no-such-file.jsonl"), "{}", e);
    let not_records = tmp("not-records.jsonl");
    std::fs::write(&not_records, "quatre-selfplay/1\thyperchess\n").unwrap();
    let e = err(None, &[&not_records], &["--nodes", "50"]);
    assert!(e.contains("not-records.jsonl:1"), "{}", e);
    assert!(!tmp("bad.txt").exists(), "no file for a refused run");
}

#[test]
fn labelled_data_trains_a_net_through_the_command_line() {
    let recs = record(
        "hyperchess",
        &["Boards=1x1"],
        &[
            "builtin:alphabeta nodes=100 name=a",
            "builtin:alphabeta nodes=60 name=b",
        ],
        "4",
        "h2.jsonl",
    );
    let (data, net) = (tmp("h2.txt"), tmp("h2.net"));
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = run(&[
        "label",
        "--records",
        &recs.display().to_string(),
        "--nodes",
        "100",
        "--out",
        &data.display().to_string(),
    ]);
    assert!(
        err.contains("label: 4 games") && err.contains("positions/hour"),
        "{}",
        err
    );
    run(&[
        "--game",
        "hyperchess",
        "train",
        "--data",
        &data.display().to_string(),
        "--epochs",
        "1",
        "--hidden",
        "8",
        "--out",
        &net.display().to_string(),
    ]);
    assert!(std::fs::metadata(&net).unwrap().len() > 0);
}

/// Self-play data (`quatre selfplay`) of `game` with `args`, written to `out`.
fn selfplay_data(game: &str, args: &[&str], out: &str) -> PathBuf {
    let out = tmp(out);
    let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    v.extend(["--quiet".into(), "--out".into(), out.display().to_string()]);
    let a = quatre::learn::selfplay::parse_args(&v).unwrap();
    quatre::learn::selfplay::run(Some(game), &a).unwrap();
    out
}

fn label_data(files: &[&Path], args: &[&str], out: &str) -> Result<Vec<GameData>, String> {
    format::read_file(&run_label(None, "--data", files, args, out)?)
}

#[test]
fn data_files_are_searched_again_keeping_their_games() {
    let base = [
        "--games",
        "3",
        "--nodes",
        "100",
        "--max-plies",
        "30",
        "--seed",
        "2",
    ];
    let sp = selfplay_data(
        "hyperchess",
        &[&base[..], &["--option", "Boards=1x1"]].concat(),
        "sp1.txt",
    );
    let before = format::read_file(&sp).unwrap();
    let again = label_data(
        &[&sp],
        &["--nodes", "400", "--concurrency", "1"],
        "sp1-a.txt",
    )
    .unwrap();
    let twice = label_data(
        &[&sp],
        &["--nodes", "400", "--concurrency", "2"],
        "sp1-b.txt",
    )
    .unwrap();
    assert_eq!(again, twice, "one thread or two: the same games");
    assert_eq!(again.len(), before.len());
    let mut changed = 0;
    for (i, (a, b)) in again.iter().zip(&before).enumerate() {
        assert_eq!((a.index, a.nodes, a.seed), (i, 400, 1));
        assert_eq!(
            (&a.game, &a.options, &a.start, &a.result, a.plies, &a.reason),
            (&b.game, &b.options, &b.start, &b.result, b.plies, &b.reason)
        );
        assert_eq!(
            a.positions.len(),
            b.positions.len(),
            "share 1: every position"
        );
        let entry = quatre::games::find(&a.game).unwrap();
        let mut opts = entry.default_options();
        for (k, v) in &a.options {
            opts.set(k, v).unwrap();
        }
        for (p, q) in a.positions.iter().zip(&b.positions) {
            assert_eq!((p.ply, p.seat, &p.text), (q.ply, q.seat, &q.text));
            let mut s = entry.from_text(&p.text, &opts).unwrap();
            assert!(s.play_text(&p.mv).is_ok(), "{} is legal", p.mv);
            changed += (p.score != q.score) as usize;
        }
    }
    assert!(
        changed > 0,
        "400 nodes score some position otherwise than 100"
    );
    let half = label_data(&[&sp], &["--nodes", "100", "--share", "0.5"], "sp1-h.txt").unwrap();
    let (n_half, n_all) = (
        half.iter().map(|g| g.positions.len()).sum::<usize>(),
        before.iter().map(|g| g.positions.len()).sum::<usize>(),
    );
    assert!(n_half > 0 && n_half < n_all, "{} of {}", n_half, n_all);

    let other = selfplay_data("hyperchess", &base, "sp2.txt");
    let e = label_data(&[&sp, &other], &["--nodes", "100"], "sp-bad.txt").unwrap_err();
    assert!(
        e.contains("sp2.txt") && e.contains("other rule options"),
        "{}",
        e
    );
    let e = label::parse_args([
        "--data",
        "a.txt",
        "--records",
        "b.jsonl",
        "--nodes",
        "10",
        "--out",
        "c.txt",
    ])
    .unwrap_err();
    assert!(e.contains("--records") && e.contains("--data"), "{}", e);
    let e = label::parse_args(["--nodes", "10", "--out", "c.txt"]).unwrap_err();
    assert!(e.contains("--records"), "{}", e);
}

/// `label --data` refuses a bad data file before searching, naming the file and the line: a
/// position that does not load, a seat column that is not the position's side to move, a
/// result that is not a share of the game's points (a NaN result was written back as NaN), a
/// game given twice.
#[test]
fn bad_data_files_are_refused_with_their_file_and_line() {
    let sp = selfplay_data(
        "hyperchess",
        &[
            "--games",
            "2",
            "--nodes",
            "50",
            "--max-plies",
            "12",
            "--seed",
            "3",
            "--option",
            "Boards=1x1",
        ],
        "sp-lines.txt",
    );
    let text = std::fs::read_to_string(&sp).unwrap();
    let bad = tmp("sp-lines-bad.txt");
    let b = bad.display().to_string();
    for (line, field, value, says) in [
        (3, 4, "xx", "line 3 (ply 5): the position does not load: "),
        (
            3,
            1,
            "1",
            "line 3 (ply 5): the position's seat to move is p2, the data says p1",
        ),
        (
            1,
            7,
            "result=nan,nan",
            "line 1: result nan,nan: each seat's result is a number from 0 to 1",
        ),
        (
            1,
            7,
            "result=2,0",
            "line 1: result 2,0: each seat's result is a number from 0 to 1",
        ),
        (
            1,
            7,
            "result=0.6,0.6",
            "line 1: result 0.6,0.6: the seats' results sum to 1.2, not 1",
        ),
    ] {
        std::fs::write(&bad, with_field(&text, line, field, value)).unwrap();
        let e = label_data(&[&bad], &["--nodes", "10"], "sp-lines-out.txt").unwrap_err();
        assert!(e.starts_with(&format!("{}: {}", b, says)), "{}", e);
    }
    // A file given twice: its games would be searched and written twice.
    let e = label_data(&[&sp, &sp], &["--nodes", "10"], "sp-lines-out.txt").unwrap_err();
    let s = sp.display().to_string();
    assert!(
        e.starts_with(&format!(
            "{}: line 1: game index=0 seed=3 is {} line 1 again: give each game once",
            s, s
        )),
        "{}",
        e
    );
}

/// A shell engine of tests/engines/.
fn engine_script(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "engines", name]
        .iter()
        .collect();
    p.to_string_lossy().into_owned()
}

/// `--teacher`: another engine scores the positions. Every written move is the teacher's and
/// legal, every position scored, and a run's file is the same whatever `--concurrency` (each
/// game starts its teacher with `ucinewgame`, so what one game left in its table cannot reach
/// another). A quatre process searching one thread is the engine's own search: its labels are
/// those quatre label gives without a teacher. Teachers that cannot teach are refused.
#[test]
fn a_teacher_engine_scores_the_positions_and_one_that_cannot_is_refused() {
    let recs = record(
        "hyperchess",
        &["Boards=1x1", "Promotions=chess"],
        &[
            "builtin:alphabeta nodes=150 name=a",
            "builtin:mcts nodes=150 name=m",
        ],
        "4",
        "tq.jsonl",
    );
    let args = ["--nodes", "120", "--seed", "3"];
    let own = label(None, &[&recs], &args, "tq-own.txt").unwrap();
    let quatre = format!("{} option.Threads=1", env!("CARGO_BIN_EXE_quatre"));
    let taught: Vec<Vec<u8>> = ["1", "2"]
        .iter()
        .map(|c| {
            let more = ["--teacher", quatre.as_str(), "--concurrency", c];
            label(None, &[&recs], &[&args[..], &more].concat(), "tq-q.txt").unwrap()
        })
        .collect();
    assert_eq!(
        taught[0], taught[1],
        "one game at a time or two: the same bytes"
    );
    let data = format::read_str(std::str::from_utf8(&taught[0]).unwrap()).unwrap();
    check_against(&data, &records_of(&recs), "tq.jsonl", true);
    assert_eq!(
        String::from_utf8(taught[0].clone()).unwrap(),
        String::from_utf8(own).unwrap(),
        "a quatre process as the teacher gives quatre's own labels"
    );

    let err = |files: &[&Path], teacher: &str| {
        label(
            None,
            files,
            &["--nodes", "50", "--teacher", teacher],
            "t-bad.txt",
        )
        .expect_err("refused")
    };
    // A chess engine (no Game option) cannot read a promotion to a guard.
    let guards = record(
        "hyperchess",
        &["Boards=1x1", "Promotions=hyperchess"],
        &["builtin:random name=a", "builtin:random name=b"],
        "1",
        "t2.jsonl",
    );
    let e = err(&[&guards], &engine_script("take1.sh"));
    assert!(
        e.contains("does not know hyperchess") && e.contains("Promotions=chess"),
        "{}",
        e
    );
    // A teacher whose move is not legal read another position.
    let e = err(&[&recs], &engine_script("illegal.sh"));
    assert!(
        e.contains("answered '9', not a legal move here") && e.contains("tq.jsonl game 1"),
        "{}",
        e
    );
    let e = err(&[&recs], "/nonexistent/teacher");
    assert!(e.contains("cannot start '/nonexistent/teacher'"), "{}", e);
    let e = err(&[&recs], &format!("{} nodes=10", quatre));
    assert!(e.contains("leave out its nodes="), "{}", e);
    let deals = record(
        "tesseris",
        &[],
        &["builtin:baseline name=a", "builtin:baseline name=b"],
        "1",
        "t3.jsonl",
    );
    let e = err(&[&deals], &quatre);
    assert!(e.contains("hides information"), "{}", e);
    // Data files too: each position is sent to the teacher as its text, as training reads it,
    // so a quatre process teaching gives `--data`'s own relabelling, whatever `--concurrency`.
    let own_data = tmp("tq-taught.txt");
    std::fs::write(&own_data, &taught[0]).unwrap();
    let again = ["--nodes", "90", "--seed", "4"];
    let relabelled = label_data(&[&own_data], &again, "tq-data-own.txt").unwrap();
    for c in ["1", "2"] {
        let more = ["--teacher", quatre.as_str(), "--concurrency", c];
        let t = label_data(&[&own_data], &[&again[..], &more].concat(), "tq-data.txt").unwrap();
        assert_eq!(t, relabelled, "--data with a quatre teacher, {} at once", c);
    }
    let n: usize = relabelled.iter().map(|g| g.positions.len()).sum();
    assert_eq!(n, data.iter().map(|g| g.positions.len()).sum::<usize>());
    assert_ne!(
        relabelled, data,
        "90 nodes searched again, not the file copied"
    );
    let e = label_data(
        &[&own_data],
        &["--nodes", "50", "--teacher", &engine_script("illegal.sh")],
        "t-bad.txt",
    )
    .expect_err("refused");
    assert!(e.contains("answered '9', not a legal move here"), "{}", e);
}

/// `--search-option Eval=net` with no net that fits the records' game and rule options is
/// refused before any search (quatre's own search would evaluate by hand without a word),
/// records and data files alike; with a net that fits, the records are labelled.
#[test]
fn a_net_that_does_not_fit_the_records_is_refused() {
    let recs = record(
        "tesseris",
        &[],
        &["builtin:random", "builtin:random"],
        "1",
        "net-t.jsonl",
    );
    let _ = std::fs::remove_file(tmp("net-t.txt"));
    let e = label(
        None,
        &[&recs],
        &["--nodes", "50", "--search-option", "Eval=net"],
        "net-t.txt",
    )
    .unwrap_err();
    assert!(
        e.starts_with("Eval net: no built-in net for tesseris"),
        "{}",
        e
    );
    assert!(!tmp("net-t.txt").exists() && !partial_path(&tmp("net-t.txt")).exists());
    let data = selfplay_data(
        "tesseris",
        &["--games", "1", "--nodes", "50", "--max-plies", "10"],
        "net-t-data.txt",
    );
    // ISMCTS reads no policy (hidden information): `Policy net` is ignored there, as by
    // alpha-beta, and refused where the search would read one (MCTS with perfect information).
    run_label(
        None,
        "--data",
        &[&data],
        &["--nodes", "50", "--search-option", "Policy=net"],
        "net-t2.txt",
    )
    .unwrap();
    let hc = selfplay_data(
        "hyperchess",
        &["--games", "1", "--nodes", "50", "--max-plies", "8"],
        "net-hc-data.txt",
    );
    for (opts, refused) in [
        (&["Policy=net"][..], false),
        (&["Policy=net", "Algorithm=mcts"][..], true),
    ] {
        let mut args = vec!["--nodes", "50"];
        for o in opts {
            args.extend(["--search-option", o]);
        }
        let r = run_label(None, "--data", &[&hc], &args, "net-hc.txt");
        match r {
            Err(e) => assert!(
                refused && e.starts_with("Policy net: no built-in policy for hyperchess"),
                "{:?}: {}",
                opts,
                e
            ),
            Ok(_) => assert!(!refused, "{:?} was not refused", opts),
        }
    }
    // Rithmomachia's default rules have a net: they are labelled with it; under other rules
    // it does not fit.
    let recs = record(
        "rithmomachia",
        &[],
        &["builtin:random", "builtin:random"],
        "1",
        "net-r.jsonl",
    );
    let args = ["--nodes", "50", "--search-option", "Eval=net"];
    assert!(!label(None, &[&recs], &args, "net-r.txt")
        .unwrap()
        .is_empty());
    let other = record(
        "rithmomachia",
        &["Captures=convert"],
        &["builtin:random", "builtin:random"],
        "1",
        "net-r2.jsonl",
    );
    let e = label(None, &[&other], &args, "net-r2.txt").unwrap_err();
    assert!(
        e.starts_with("Eval net: no built-in net for rithmomachia"),
        "{}",
        e
    );
    // A built-in teacher is held to the same.
    let teacher = [
        "--nodes",
        "50",
        "--teacher",
        "builtin:alphabeta option.Eval=net name=t",
    ];
    let e = label(None, &[&other], &teacher, "net-r3.txt").unwrap_err();
    assert!(
        e.starts_with("--teacher: t: Eval net: no built-in net for rithmomachia"),
        "{}",
        e
    );
    assert!(!label(None, &[&recs], &teacher, "net-r4.txt")
        .unwrap()
        .is_empty());
}
