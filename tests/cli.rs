//! The `quatre` command line's manners: a closed stdout ends a command quietly, bad numbers are
//! refused before any work, and an engine that cannot be started stops a match with the reason
//! on the console. Each test runs the built binary.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

mod common;

fn quatre() -> Command {
    Command::new(env!("CARGO_BIN_EXE_quatre"))
}

fn run(args: &[&str]) -> Output {
    quatre()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run quatre")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs quatre with `args`, reads `lines` lines of its stdout and closes the pipe (what
/// `| head -n <lines>` does), then waits for it. Returns the lines read, its exit status and its
/// stderr.
fn read_then_close(args: &[&str], lines: usize) -> (Vec<String>, std::process::ExitStatus, String) {
    let mut child = quatre()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn quatre");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut got = Vec::new();
    for _ in 0..lines {
        let mut l = String::new();
        if out.read_line(&mut l).unwrap_or(0) == 0 {
            break;
        }
        got.push(l.trim_end().to_string());
    }
    drop(out); // closes the read end: the next write gets EPIPE
    let o = child.wait_with_output().expect("wait for quatre");
    (got, o.status, text(&o.stderr))
}

fn assert_quiet_end(what: &str, got: &[String], status: std::process::ExitStatus, err: &str) {
    assert!(!got.is_empty(), "{}: no output", what);
    assert!(
        status.success(),
        "{}: {:?} after the reader left\nstderr: {}",
        what,
        status,
        err
    );
    assert!(!err.contains("panicked"), "{}: {}", what, err);
    assert!(!err.contains("Broken pipe"), "{}: {}", what, err);
}

#[test]
fn a_closed_stdout_ends_perft_divide_quietly() {
    // 4 plies of hyperchess take seconds: the reader leaves after one root move's line.
    let (got, status, err) =
        read_then_close(&["perft", "--game", "hyperchess", "4", "--divide"], 1);
    assert_quiet_end("perft --divide", &got, status, &err);
    assert!(got[0].contains(": "), "{:?}", got);
}

/// `quatre bench --threads 2` labels each item with the threads it ran on: Best-Reply Search
/// runs one (the protocol says so on every `go`), so its items say 1, with the same node counts
/// as with `--threads 1`; MCTS runs the threads asked.
#[test]
fn bench_labels_brs_with_the_one_thread_it_runs() {
    let out = run(&[
        "bench",
        "--game",
        "threechess",
        "--threads",
        "2",
        "--playouts",
        "10",
    ]);
    assert!(out.status.success(), "{:?}", out);
    let text = String::from_utf8_lossy(&out.stdout);
    let brs: Vec<&str> = text.lines().filter(|l| l.contains(" brs ")).collect();
    assert!(brs.len() >= 2, "{}", text);
    for l in &brs {
        assert!(l.contains(", 1 thread(s)"), "{}", l);
    }
    let mcts: Vec<&str> = text.lines().filter(|l| l.contains(" mcts ")).collect();
    assert!(
        !mcts.is_empty() && mcts.iter().all(|l| l.contains(", 2 thread(s)")),
        "{}",
        text
    );
}

#[test]
fn a_closed_stdout_ends_bench_quietly() {
    // The first line is a perft item; the rest (searches on every game) would take long.
    let (got, status, err) = read_then_close(&["bench", "--playouts", "200"], 1);
    assert_quiet_end("bench", &got, status, &err);
}

#[test]
fn a_closed_stdout_ends_analyse_quietly() {
    // An MCTS search prints info lines as it goes; the reader leaves after the first.
    let (got, status, err) = read_then_close(
        &[
            "analyse",
            "--game",
            "rithmomachia",
            "--algorithm",
            "mcts",
            "--threads",
            "1",
            "--nodes",
            "3000000",
        ],
        1,
    );
    assert_quiet_end("analyse", &got, status, &err);
}

#[test]
fn a_closed_stdout_ends_match_quietly() {
    // The table is written at the end, in one piece: close stdout before it comes, so that the
    // write certainly fails. Progress lines go to stderr.
    let (got, status, err) = read_then_close(
        &[
            "match",
            "--game",
            "tesseract",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--nodes",
            "1",
            "--max-plies",
            "20",
            "--seed",
            "1",
        ],
        0,
    );
    assert!(got.is_empty());
    assert!(status.success(), "{:?}\nstderr: {}", status, err);
    assert!(!err.contains("panicked"), "{}", err);
    assert!(err.contains("[2/2]"), "the match was played: {}", err);
}

/// The same through a real shell pipeline, the way a user meets it.
#[test]
fn a_shell_pipe_into_head_sees_no_panic() {
    if Command::new("sh").arg("-c").arg("exit 0").status().is_err() {
        return; // no shell: the tests above cover the behaviour
    }
    let cmd = format!(
        "'{}' perft --game hyperchess 4 --divide | head -1",
        env!("CARGO_BIN_EXE_quatre")
    );
    let o = Command::new("sh")
        .args(["-c", &cmd])
        .output()
        .expect("run sh");
    assert!(o.status.success());
    assert_eq!(text(&o.stdout).lines().count(), 1, "{}", text(&o.stdout));
    assert!(text(&o.stderr).is_empty(), "{}", text(&o.stderr));
}

#[test]
fn perft_refuses_the_depths_the_protocol_refuses() {
    for bad in ["21", "100", "-1", "x"] {
        let o = run(&["perft", "--game", "hyperchess", bad]);
        assert_eq!(o.status.code(), Some(2), "perft {}", bad);
        assert!(o.stdout.is_empty(), "perft {}: {}", bad, text(&o.stdout));
        let err = text(&o.stderr);
        assert!(err.contains("error"), "perft {}: {}", bad, err);
    }
    let o = run(&["perft", "--game", "hyperchess", "21"]);
    assert!(text(&o.stderr).contains("0..=20"), "{}", text(&o.stderr));
    // The bounds themselves are accepted (depth 0 is the position itself).
    let o = run(&["perft", "--game", "hyperchess", "0"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "nodes 1\n");
    let o = run(&["perft", "--game", "hyperchess", "0", "--divide"]);
    assert_eq!(text(&o.stdout), "nodes 1\n");
    let o = run(&[
        "perft",
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "2",
        "--divide",
    ]);
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 21, "{}", out);
    assert_eq!(out.lines().last(), Some("nodes 400"));
}

#[test]
fn zero_threads_and_zero_hash_are_refused() {
    for args in [
        &["analyse", "--threads", "0", "--nodes", "10"][..],
        &["analyse", "--hash", "0", "--nodes", "10"],
        &["analyse", "--threads", "257", "--nodes", "10"],
        &["analyse", "--multipv", "0", "--nodes", "10"],
        &["bench", "--threads", "0"],
        &["bench", "--playouts", "0"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{:?}", args);
        assert!(o.stdout.is_empty(), "{:?}: {}", args, text(&o.stdout));
        let err = text(&o.stderr);
        assert!(
            err.contains("error: invalid value '"),
            "{:?}: {}",
            args,
            err
        );
    }
    // In range, they are taken.
    let o = run(&[
        "analyse",
        "--game",
        "tesseract",
        "--threads",
        "1",
        "--hash",
        "1",
        "--nodes",
        "50",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("bestmove "), "{}", text(&o.stdout));
}

#[test]
fn a_match_with_an_engine_that_cannot_start_fails_with_the_reason() {
    let mut out = std::env::temp_dir();
    out.push(format!(
        "quatre-cli-{}-nonexistent.jsonl",
        std::process::id()
    ));
    let o = run(&[
        "match",
        "--game",
        "tesseract",
        "--engine",
        "./nonexistent-engine",
        "--engine",
        "builtin:random",
        "--nodes",
        "10",
        "--games",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let games = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    assert!(!o.status.success(), "exited {:?}", o.status);
    let err = text(&o.stderr);
    assert!(
        err.contains("error: engine 1 (nonexistent-engine): cannot start './nonexistent-engine'"),
        "{}",
        err
    );
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    // The lost game is still in the game file, and no more were played.
    assert_eq!(games.lines().count(), 1, "{}", games);
    assert!(games.contains("cannot start"), "{}", games);
}

#[test]
fn option_minus_one_restores_the_games_default_as_setoption_does() {
    // The protocol lists MaxPlies with default -1, each game's own default (protocol.md):
    // `--option MaxPlies=-1` means the same on the command line.
    let max_plies = |game: &str, option: &[&str]| -> String {
        let mut args = vec![
            "analyse",
            "--game",
            game,
            "--depth",
            "1",
            "--threads",
            "1",
            "--json",
        ];
        args.extend_from_slice(option);
        let o = run(&args);
        assert!(o.status.success(), "{:?}: {}", args, text(&o.stderr));
        let out = text(&o.stdout);
        let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        last["options"]["MaxPlies"].as_str().unwrap().to_string()
    };
    for (game, default) in [("rithmomachia", "400"), ("hyperchess", "0")] {
        assert_eq!(max_plies(game, &[]), default, "{}", game);
        assert_eq!(
            max_plies(game, &["--option", "MaxPlies=-1"]),
            default,
            "{}",
            game
        );
        assert_eq!(
            max_plies(game, &["--option", "MaxPlies=7"]),
            "7",
            "{}",
            game
        );
    }
    // A match takes it too, and names the value in force.
    let o = run(&common::random_match(
        &["--game", "rithmomachia", "--option", "MaxPlies=-1"],
        &[
            "--nodes",
            "1",
            "--games",
            "1",
            "--max-plies",
            "6",
            "--seed",
            "1",
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("Match: rithmomachia (MaxPlies=400)"),
        "{}",
        text(&o.stdout)
    );
    // Other values below the game's bounds are still refused.
    let o = run(&["analyse", "--option", "MaxPlies=-2", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: option MaxPlies must be between 0 and 100000, not -2\n"
    );
}

/// `stats` and `replay` read the game from the records: a `--game` there (the option is global)
/// is refused rather than silently ignored.
#[test]
fn records_commands_refuse_a_game_they_would_ignore() {
    for cmd in ["stats", "replay"] {
        let o = run(&[cmd, "no-such-file.jsonl", "--game", "hyperchess"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert_eq!(
            text(&o.stderr).trim(),
            "error: --game does not apply here: the records name their game (each record's \"game_name\")",
            "{cmd}"
        );
    }
}

/// A refused command line is one `error: …` line and exit status 2, as every other error; a
/// negative number reaches the option's own check instead of being read as a flag.
#[test]
fn a_refused_command_line_is_one_error_line() {
    for (args, want) in [
        (
            &["analyse", "--multipv", "0"][..],
            "error: invalid value '0' for '--multipv <MULTIPV>': 0 is not in 1..=256",
        ),
        (
            &["analyse", "--movetime", "-5"],
            "error: invalid value '-5' for '--movetime <MOVETIME>': -5 is not in 0..9223372036854775807",
        ),
        (
            &["selfplay", "--nodes", "10"],
            "error: the following required arguments were not provided: --games <GAMES> --out <FILE>",
        ),
        (
            &["analyse", "--seed", "18446744073709551615"],
            "error: invalid value '18446744073709551615' for '--seed <SEED>': 18446744073709551615 is not in 0..=2147483647",
        ),
        (
            &["perft", "21"],
            "error: invalid value '21' for '<DEPTH>': 21 is not in 0..=20",
        ),
        (&["analyse", "--bogus"], "error: unexpected argument '--bogus' found"),
        (
            &["bench", "--scaling", "0"],
            "error: invalid value '0' for '--scaling <SCALING>': 0 is not in 1..=600000",
        ),
        (&["train", "--lr", "-1", "--data", "d", "--out", "o"], "error: --lr must be above 0 and below 1, not -1"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&o.stderr).trim_end(), want, "{args:?}");
    }
    // Help is still help.
    let o = run(&["perft", "--help"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("Usage: quatre perft"));
}

/// A negative number for a numeric flag of `train`, `train-policy`, `selfplay` or `label` is
/// taken as the flag's value and refused with the command's own range message (as `--lr=-1`
/// always was), not as clap's "unexpected argument '-1' found".
#[test]
fn negative_numbers_get_the_commands_range_message() {
    let nosuch = std::env::temp_dir().join("quatre-cli-no-such-data.txt");
    let nosuch = nosuch.to_str().unwrap();
    let out = std::env::temp_dir().join(format!("quatre-cli-neg-{}.txt", std::process::id()));
    let out = out.to_str().unwrap();
    for (args, expect) in [
        (
            &["train", "--data", nosuch, "--out", out, "--lr", "-1"][..],
            "error: --lr must be above 0 and below 1, not -1",
        ),
        (
            &["train", "--data", nosuch, "--out", out, "--lambda", "-0.5"],
            "error: --lambda must be between 0 and 1, not -0.5",
        ),
        (
            &[
                "train",
                "--data",
                nosuch,
                "--out",
                out,
                "--weight-decay",
                "-5",
            ],
            "error: --weight-decay must be at least 0 and below 1000, not -5",
        ),
        (
            &["train", "--data", nosuch, "--out", out, "--epochs", "-2"],
            "error: invalid value '-2' for '--epochs <EPOCHS>': -2 is not in 1..=10000",
        ),
        (
            &[
                "train-policy",
                "--data",
                nosuch,
                "--out",
                out,
                "--decay",
                "-1",
            ],
            "error: --decay must be at least 0 and below 1, not -1",
        ),
        (
            &["train-policy", "--data", nosuch, "--out", out, "--lr", "-1"],
            "error: --lr must be above 0 and below 10, not -1",
        ),
        (
            &[
                "selfplay", "--games", "1", "--nodes", "10", "--shard", "-1/4", "--out", out,
            ],
            "error: --shard takes I/N with 1 ≤ I ≤ N (e.g. 2/8), not '-1/4'",
        ),
        (
            &[
                "selfplay",
                "--games",
                "1",
                "--nodes",
                "10",
                "--fast-nodes",
                "5",
                "--full-share",
                "-1",
                "--out",
                out,
            ],
            "error: --full-share must be above 0 and at most 1, not -1",
        ),
        (
            &["selfplay", "--games", "-1", "--nodes", "10", "--out", out],
            "error: invalid value '-1' for '--games <GAMES>': -1 is not in 1..=100000000",
        ),
        (
            &[
                "selfplay",
                "--games",
                "1",
                "--nodes",
                "10",
                "--max-plies",
                "-3",
                "--out",
                out,
            ],
            "error: invalid value '-3' for '--max-plies <N>': -3 is not in 0..",
        ),
        (
            &[
                "label",
                "--records",
                nosuch,
                "--nodes",
                "10",
                "--share",
                "-0.5",
                "--out",
                out,
            ],
            "error: --share must be above 0 and at most 1, not -0.5",
        ),
        (
            &["label", "--records", nosuch, "--nodes", "-1", "--out", out],
            "error: invalid value '-1' for '--nodes <NODES>': -1 is not in 1..",
        ),
    ] {
        let o = run(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{:?}: {}", args, err);
        assert!(err.starts_with(expect), "{:?}: {}", args, err);
        assert!(!err.contains("unexpected argument"), "{:?}: {}", args, err);
    }
    assert!(!std::path::Path::new(out).exists());
}
