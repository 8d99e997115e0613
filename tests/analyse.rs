//! `quatre analyse` as people and programs read it: the diagram, the live `info` lines, the
//! summary and the final `bestmove` line; `--json` objects that parse and end with a final one
//! holding a legal move; `--svg` pictures. Each test runs the built binary, with searches limited
//! by nodes or depth on one thread (by time only where what is checked holds at any speed).

use quatre::games;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run quatre")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `analyse` with `args` and returns its stdout, failing the test on any other outcome.
fn analyse(args: &[&str]) -> String {
    let mut all = vec!["analyse", "--threads", "1"];
    all.extend_from_slice(args);
    let o = run(&all);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{:?}: {:?}\n{}", all, o.status, err);
    assert!(!err.contains("panicked"), "{:?}: {}", all, err);
    text(&o.stdout)
}

/// The legal moves of the position `text` of `game` under the rule options `opts` (`Name=Value`).
fn legal_in(game: &str, opts: &[&str], position: &str) -> Vec<String> {
    let entry = games::find(game).expect("a game");
    let mut o = entry.default_options();
    for kv in opts {
        let (n, v) = kv.split_once('=').unwrap();
        o.set(n, v).unwrap();
    }
    entry
        .from_text(position, &o)
        .unwrap_or_else(|e| panic!("{}: the final position does not load: {}", game, e))
        .legal_moves()
}

/// Hyperchess on one board, and with chess's rules too (the command line's `--game` and options).
const ONE_BOARD: [&str; 4] = ["--game", "hyperchess", "--option", "Boards=1x1"];
const CHESS: [&str; 6] = [
    "--game",
    "hyperchess",
    "--option",
    "Boards=1x1",
    "--option",
    "Promotions=chess",
];

/// Fails the test, showing `out`, unless it contains `needle`.
fn has(out: &str, needle: &str) {
    assert!(out.contains(needle), "no {:?} in:\n{}", needle, out);
}

/// Parses every line of `--json` output; returns the objects.
fn objects(out: &str) -> Vec<Value> {
    assert!(!out.trim().is_empty(), "no output");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({}): {}", e, l)))
        .collect()
}

#[test]
fn human_output_has_the_diagram_the_info_lines_a_summary_and_bestmove_last() {
    let out = analyse(&["--game", "rithmomachia", "--depth", "3", "--multipv", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    // The diagram and what `d` prints after it come first.
    let pos = lines
        .iter()
        .position(|l| l.starts_with("Position: "))
        .expect("Position line");
    assert!(
        pos > 5,
        "the diagram comes before the position text:\n{}",
        out
    );
    assert!(lines[pos + 1].starts_with("Hash: "), "{}", out);
    assert_eq!(lines[pos + 2], "Game: rithmomachia; p1 to move", "{}", out);
    let first_info = lines
        .iter()
        .position(|l| l.starts_with("info depth"))
        .expect("info");
    assert!(first_info > pos, "{}", out);
    assert!(out.contains("info depth 3 seldepth"), "{}", out);
    assert!(out.contains(" multipv 2 "), "{}", out);
    // The summary, after the last info line and before bestmove.
    let head = lines.iter().position(|l| {
        l.starts_with("Analysis of rithmomachia with p1 to move: alphabeta on 1 thread")
    });
    let head = head.unwrap_or_else(|| panic!("no summary:\n{}", out));
    assert!(lines[..head]
        .iter()
        .rev()
        .find(|l| !l.is_empty())
        .unwrap()
        .starts_with("info "));
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .expect("bestmove last");
    let row = |k: &str| {
        lines[head..]
            .iter()
            .find_map(|l| l.trim_start().strip_prefix(k).map(str::trim))
            .unwrap_or_else(|| panic!("no '{}' row:\n{}", k, out))
    };
    assert_eq!(row("best move"), best);
    assert!(row("score").contains(" for p1 (cp "), "{}", out);
    assert!(row("depth").starts_with("3, seldepth "), "{}", out);
    assert!(row("searched").contains(" nodes in "), "{}", out);
    assert!(row("pv").starts_with(best), "{}", out);
    assert!(row("line 1").starts_with(best), "{}", out);
    assert!(
        lines[head..]
            .iter()
            .any(|l| l.trim_start().starts_with("line 2 ")),
        "{}",
        out
    );
    // The move is legal in the analysed position.
    let text = lines[pos].strip_prefix("Position: ").unwrap();
    assert!(
        legal_in("rithmomachia", &[], text).contains(&best.to_string()),
        "{}",
        out
    );
}

#[test]
fn human_scores_are_in_the_games_terms() {
    // Mate in one (ordinary chess on one board): a forced win, not centipawns.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w - - 2 4";
    let out = analyse(&[
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--fen",
        fen,
        "--depth",
        "3",
    ]);
    assert!(
        out.contains("  score      p1 wins in 1 move (mate 1)\n"),
        "{}",
        out
    );
    assert!(out.ends_with("bestmove h5f7\n"), "{}", out);
    // MCTS with two seats: a win probability; with three, a share of the reward.
    let out = analyse(&["--game", "tesseris", "--deal", "7", "--nodes", "2000"]);
    assert!(out.contains(": ismcts on 1 thread"), "{}", out);
    assert!(out.contains("  score      win probability "), "{}", out);
    assert!(out.contains(" playouts in "), "{}", out);
    let out = analyse(&[
        "--game",
        "threechess",
        "--algorithm",
        "mcts",
        "--nodes",
        "2000",
    ]);
    assert!(out.contains("  score      reward share 0."), "{}", out);
    assert!(out.contains("(an even share is 0.333)"), "{}", out);
    // Alpha-beta: pawns, with win/draw/loss when asked.
    let out = analyse(&["--game", "tesseract", "--depth", "2", "--wdl"]);
    let score = out
        .lines()
        .find(|l| l.starts_with("  score "))
        .expect("score row");
    assert!(
        score.contains(" for p1 (cp ") && score.contains("win/draw/loss "),
        "{}",
        out
    );
}

#[test]
fn a_finished_game_is_said_so_and_answers_0000() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w - - 2 4";
    let args = [
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--fen",
        fen,
        "--moves",
        "h5f7",
        "--depth",
        "2",
    ];
    let out = analyse(&args);
    assert!(
        out.contains("Game: hyperchess; game over: p1win (checkmate)"),
        "{}",
        out
    );
    assert!(
        out.contains("  best move  none: the game is over (checkmate)"),
        "{}",
        out
    );
    assert!(out.ends_with("bestmove 0000\n"), "{}", out);
    let mut json = args.to_vec();
    json.push("--json");
    let objs = objects(&analyse(&json));
    let last = objs.last().unwrap();
    assert_eq!(last["isFinal"], true);
    assert_eq!(last["bestmove"], Value::Null);
    assert_eq!(last["gameOver"], "checkmate");
    assert_eq!(last["rootInfo"]["currentPlayer"], "p2");
    assert_eq!(objs[0]["note"], "game over (checkmate)");
}

/// A move list past a draw the rules declare by themselves (a repetition, the 100-ply rule) is
/// played on, as the protocol's `position … moves` plays it for a chess GUI, and said once on
/// stderr; `perft` and `draw` read `--moves` the same way; a drawn position is searched on; a
/// refused move is named by its place in the list.
#[test]
fn move_lists_and_positions_past_automatic_draws_are_played_on() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let past = format!("{} e2e4", shuffle);
    let with = |cmd: &str, rest: &[&str]| run(&[&[cmd][..], &ONE_BOARD, rest].concat());
    let o = with(
        "analyse",
        &["--threads", "1", "--depth", "2", "--moves", &past],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{}", err);
    assert_eq!(
        err.trim(),
        "note: the rules drew this game after move 8 of the list (threefold repetition); playing on as sent"
    );
    assert!(!out.contains("bestmove 0000"), "{}", out);
    let perft = with("perft", &["--moves", &past, "1"]);
    assert!(perft.status.success(), "{}", text(&perft.stderr));
    assert!(
        text(&perft.stdout).contains("nodes 20"),
        "{}",
        text(&perft.stdout)
    );
    let svg = std::env::temp_dir().join(format!("quatre-past-draw-{}.svg", std::process::id()));
    let draw = with("draw", &["--moves", &past, "--out", svg.to_str().unwrap()]);
    assert!(draw.status.success(), "{}", text(&draw.stderr));
    let _ = std::fs::remove_file(&svg);
    // A position the 100-ply rule drew: searched on, and said so.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80";
    let out = analyse(&[&ONE_BOARD[..], &["--fen", fen, "--depth", "2"]].concat());
    assert!(
        out.contains("the rules drew this game here (fifty-move rule); searching on as asked"),
        "{}",
        out
    );
    assert!(!out.contains("bestmove 0000"), "{}", out);
    // A refused move: its place in the list, and a command this program has to list moves.
    let o = with("analyse", &["--moves", "e2e4 e7e5 e2e4", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr).trim(),
        "error: move 3 of the list: illegal move 'e2e4' in this position (26 legal moves); 'quatre perft 1' lists the legal moves"
    );
}

/// `--json` on every game: each line an object, updates during the search, and a last object
/// with a legal best move that heads its candidate lines.
#[test]
fn json_lines_parse_and_end_with_a_final_object_with_a_legal_move() {
    let cases: &[(&str, &[&str], &[&str], &str)] = &[
        (
            "hyperchess",
            &[],
            &["--depth", "2", "--multipv", "2"],
            "alphabeta",
        ),
        (
            "rithmomachia",
            &[],
            &["--depth", "3", "--multipv", "2"],
            "alphabeta",
        ),
        (
            "rithmomachia",
            &[],
            &["--algorithm", "mcts", "--nodes", "2000", "--multipv", "2"],
            "mcts",
        ),
        (
            "tesseract",
            &[],
            &["--nodes", "5000", "--multipv", "3"],
            "alphabeta",
        ),
        (
            "tesseris",
            &[],
            &["--deal", "3", "--nodes", "2000", "--multipv", "2"],
            "ismcts",
        ),
        (
            "tesseris",
            &["Players=3"],
            &["--deal", "3", "--nodes", "2000"],
            "ismcts",
        ),
        ("threechess", &[], &["--depth", "3"], "brs"),
        (
            "threechess",
            &[],
            &["--algorithm", "mcts", "--nodes", "2000"],
            "mcts",
        ),
    ];
    for &(game, opts, limits, algorithm) in cases {
        let mut args = vec!["--game", game, "--json"];
        for o in opts {
            args.extend(["--option", o]);
        }
        args.extend_from_slice(limits);
        let out = analyse(&args);
        let objs = objects(&out);
        let what = format!("{} {:?}", game, args);
        let (last, updates) = objs.split_last().unwrap();
        assert!(
            !updates.is_empty(),
            "{}: no update before the final object",
            what
        );
        for u in updates {
            assert_eq!(u["isDuringSearch"], true, "{}: {}", what, u);
            assert!(
                u["rootInfo"]["nodes"].as_u64().unwrap() > 0,
                "{}: {}",
                what,
                u
            );
            assert!(u.get("isFinal").is_none(), "{}: {}", what, u);
        }
        assert_eq!(last["isFinal"], true, "{}", what);
        assert_eq!(last["isDuringSearch"], false, "{}", what);
        assert_eq!(last["game"], game, "{}", what);
        let best = last["bestmove"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: no bestmove", what));
        let position = last["position"].as_str().unwrap();
        // The final object's options and position reload the analysed position.
        let given: Vec<String> = last["options"]
            .as_object()
            .unwrap_or_else(|| panic!("{}: no options", what))
            .iter()
            .map(|(n, v)| format!("{}={}", n, v.as_str().unwrap()))
            .collect();
        for o in opts {
            assert!(given.iter().any(|g| g == o), "{}: {:?}", what, given);
        }
        let given: Vec<&str> = given.iter().map(String::as_str).collect();
        assert!(
            legal_in(game, &given, position).contains(&best.to_string()),
            "{}: {}",
            what,
            best
        );
        let root = &last["rootInfo"];
        assert_eq!(root["algorithm"], algorithm, "{}", what);
        assert_eq!(root["currentPlayer"], "p1", "{}", what);
        assert_eq!(root["seat"], 1, "{}", what);
        for k in [
            "nodes", "depth", "seldepth", "nps", "time_ms", "hashfull", "players",
        ] {
            assert!(root[k].is_u64(), "{}: rootInfo.{} in {}", what, k, root);
        }
        let infos = last["moveInfos"].as_array().unwrap();
        assert!(!infos.is_empty(), "{}", what);
        assert_eq!(infos[0]["move"], best, "{}", what);
        assert_eq!(root["score"], infos[0]["score"], "{}", what);
        for (i, m) in infos.iter().enumerate() {
            assert_eq!(m["order"], i, "{}", what);
            let pv = m["pv"].as_array().unwrap();
            assert_eq!(pv[0], m["move"], "{}", what);
            let score = m["score"].as_object().unwrap();
            assert!(
                score.len() == 1 && (score["cp"].is_i64() || score["mate"].is_i64()),
                "{}",
                what
            );
            let players = root["players"].as_u64().unwrap();
            match algorithm {
                "mcts" | "ismcts" => {
                    assert!(m["visits"].as_u64().unwrap() > 0, "{}: {}", what, m);
                    let rate = if players == 2 {
                        &m["winrate"]
                    } else {
                        &m["rewardShare"]
                    };
                    let r = rate.as_f64().unwrap_or_else(|| panic!("{}: {}", what, m));
                    assert!((0.0..=1.0).contains(&r), "{}: {}", what, m);
                }
                _ => assert!(
                    m.get("visits").is_none() && m.get("winrate").is_none(),
                    "{}",
                    what
                ),
            }
        }
        if limits.contains(&"--multipv") {
            let n: usize = limits[limits.iter().position(|&a| a == "--multipv").unwrap() + 1]
                .parse()
                .unwrap();
            assert_eq!(infos.len(), n, "{}", what);
        }
        if algorithm == "ismcts" {
            let c = last["candidates"].as_array().expect("ISMCTS candidates");
            assert!(c.iter().any(|c| c["move"] == best), "{}", what);
        }
        // Readers other than serde take it too.
        for (reader, args) in [
            (
                "python3",
                &["-c", "import json,sys;[json.loads(l) for l in sys.stdin]"][..],
            ),
            ("jq", &["-e", "."][..]),
        ] {
            let Ok(mut child) = Command::new(reader)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
            else {
                continue; // not installed: serde has read it above
            };
            child
                .stdin
                .take()
                .unwrap()
                .write_all(out.as_bytes())
                .unwrap();
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "{} refused {}: {}",
                reader,
                what,
                text(&o.stderr)
            );
        }
    }
}

#[test]
fn json_says_the_search_notes_as_objects() {
    // Alpha-beta cannot search hidden hands: the search says so, and the JSON carries it.
    let objs = objects(&analyse(&[
        "--game",
        "tesseris",
        "--algorithm",
        "alphabeta",
        "--nodes",
        "500",
        "--json",
    ]));
    assert_eq!(
        objs[0]["note"],
        "alphabeta needs perfect information; using mcts"
    );
    assert_eq!(objs.last().unwrap()["rootInfo"]["algorithm"], "ismcts");
}

#[test]
fn svg_writes_a_picture_of_the_analysed_position() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("quatre-analyse-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let out = analyse(&[
        "--game",
        "tesseract",
        "--moves",
        "P@c3",
        "--depth",
        "2",
        "--svg",
        p,
    ]);
    let svg = std::fs::read_to_string(&path).expect("the picture was written");
    let _ = std::fs::remove_file(&path);
    assert!(out.contains(&format!("  picture    {}\n", p)), "{}", out);
    assert!(
        svg.starts_with("<svg") && svg.contains("xmlns=\"http://www.w3.org/2000/svg\""),
        "{}",
        svg
    );
    assert!(svg.trim_end().ends_with("</svg>"), "{}", svg);
    // Well formed: every element opened is closed, in order.
    let mut open: Vec<String> = Vec::new();
    for tag in svg.split('<').skip(1) {
        let tag = &tag[..tag.find('>').expect("a closed tag")];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        if tag.starts_with('/') {
            assert_eq!(open.pop().as_deref(), Some(name.as_str()), "{}", svg);
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "unclosed {:?}", open);
    // A path that cannot be written stops before the search, with the reason.
    let o = run(&[
        "analyse",
        "--game",
        "tesseract",
        "--depth",
        "2",
        "--svg",
        "/nonexistent-dir/x.svg",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).starts_with("error: --svg: cannot create '/nonexistent-dir/x.svg': "),
        "{}",
        text(&o.stderr)
    );
}

/// The picture is the renderer's for the analysed position, with the best move's cells as the
/// arrow and the last move's cells highlighted: the same call `quatre draw` and the web board
/// make, so each game's drawing shows up here as soon as it exists.
#[test]
fn svg_is_the_renderers_picture_with_the_best_move_and_the_last_move() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("hyperchess", "AbI1AcI3", &["--depth", "1"]),
        ("rithmomachia", "h15h12", &["--depth", "1"]),
        ("tesseract", "P@c3", &["--depth", "1"]),
        ("tesseris", "", &["--deal", "5", "--nodes", "300"]),
        ("threechess", "e2e3", &["--depth", "1"]),
    ];
    for &(game, last, limits) in cases {
        let path = std::env::temp_dir().join(format!(
            "quatre-analyse-{}-{}.svg",
            std::process::id(),
            game
        ));
        let p = path.to_str().unwrap();
        let mut args = vec!["--game", game, "--json", "--svg", p, "--moves", last];
        args.extend_from_slice(limits);
        let objs = objects(&analyse(&args));
        let svg = std::fs::read_to_string(&path).expect("the picture was written");
        let _ = std::fs::remove_file(&path);
        let fin = objs.last().unwrap();
        assert_eq!(fin["svg"], p);
        let best = fin["bestmove"].as_str().unwrap();
        // The same position through the library, and its picture.
        let entry = games::find(game).unwrap();
        let seed = (game == "tesseris").then_some(5);
        let mut g = entry.start(&entry.default_options(), seed).unwrap();
        let mut highlight = Vec::new();
        if !last.is_empty() {
            highlight = g.move_cells(last).unwrap();
            g.play_text(last).unwrap();
        }
        assert_eq!(g.to_text(), fin["position"], "{}", game);
        let want = g.svg(&quatre::render::DrawOptions {
            arrow: g.move_cells(best).unwrap(),
            highlight,
            ..Default::default()
        });
        assert_eq!(svg, want, "{}", game);
    }
}

/// `--eval` is the protocol's `Eval` option: on chess, `auto` searches with the shipped net
/// (the same line as `net`, not that of `hand`); a value outside the list is refused before
/// any search, with one error line.
#[test]
fn eval_chooses_the_evaluation_as_the_protocol_option_does() {
    let fen = "r3k2r/1pqb2b1/p1np2p1/2p1pp2/2P1B2N/PP1PP1P1/1B3P1P/R2QK2R w - - 0 16";
    let summary = |eval: &str| {
        let out = analyse(&[&CHESS[..], &["--fen", fen, "--depth", "6", "--eval", eval]].concat());
        let line = |k: &str| {
            out.lines()
                .find(|l| l.trim_start().starts_with(k))
                .unwrap_or_else(|| panic!("no {} line: {}", k, out))
                .to_string()
        };
        (line("score"), line("pv"))
    };
    let (auto, net, hand) = (summary("auto"), summary("net"), summary("hand"));
    assert_eq!(auto, net);
    assert_ne!(auto.0, hand.0, "the net scores as the hand evaluation");
    let o = run(&["analyse", "--depth", "1", "--eval", "bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{}", err);
    assert!(err.starts_with("error: --eval:"), "{}", err);
}

/// MCTS hands a decided position to alpha-beta (under a time limit): the summary and the JSON
/// then name alpha-beta, whose depths and nodes they are, not MCTS's playouts. (The limit is a
/// time, but only the labels are checked: the handover happens at any speed.) A finished game's
/// summary still names its picture.
#[test]
fn the_summary_names_the_search_that_answered_and_the_picture_of_a_finished_game() {
    let fen = "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1";
    let args = [
        &CHESS[..],
        &["--fen", fen, "--algorithm", "mcts", "--movetime", "200"],
    ]
    .concat();
    let out = analyse(&args);
    has(&out, "decided position: alpha-beta plays it out");
    has(
        &out,
        "Analysis of hyperchess with p1 to move: alphabeta on 1 thread",
    );
    assert!(!out.contains("playouts"), "{}", out);
    let json = objects(&analyse(&[&args[..], &["--json"]].concat()));
    assert_eq!(json.last().unwrap()["rootInfo"]["algorithm"], "alphabeta");
    let path = std::env::temp_dir().join(format!("quatre-over-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let mate = ["--moves", "f2f3 e7e5 g2g4 d8h4", "--depth", "2", "--svg", p];
    let out = analyse(&[&CHESS[..], &mate].concat());
    let _ = std::fs::remove_file(&path);
    has(&out, &format!("  picture    {}\n", p));
}
