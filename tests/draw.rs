//! `quatre draw` end to end: a picture of every game on stdout or in a file, the last move
//! highlighted and an arrow when asked, and one clear error line (exit code 2) for bad input.

use std::process::Command;

fn quatre(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(args)
        .output()
        .expect("run quatre");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_game_draws_its_start_position() {
    for game in [
        "hyperchess",
        "rithmomachia",
        "tesseract",
        "tesseris",
        "threechess",
    ] {
        let (code, out, err) = quatre(&["draw", "--game", game]);
        assert_eq!(code, 0, "{}: {}", game, err);
        assert!(
            out.starts_with("<svg ") && out.trim_end().ends_with("</svg>"),
            "{}",
            game
        );
    }
}

#[test]
fn the_last_move_is_highlighted_and_the_arrow_drawn() {
    let file = std::env::temp_dir().join(format!("quatre-draw-{}.svg", std::process::id()));
    let f = file.to_str().unwrap();
    let (code, out, err) = quatre(&[
        "draw",
        "--game",
        "hyperchess",
        "--option",
        "Boards=1x1",
        "--moves",
        "e2e4",
        "--arrow",
        "e7e5",
        "--out",
        f,
    ]);
    assert_eq!(code, 0, "{}", err);
    assert!(out.is_empty());
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"highlight\"").count(), 2, "e2 and e4");
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
    assert!(svg.contains("data-cell=\"e4\"") && svg.contains("Black to move"));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    for (args, want) in [
        (vec!["draw", "--game", "nosuchgame"], "unknown game"),
        (
            vec!["draw", "--game", "hyperchess", "--fen", "nonsense"],
            "bad position",
        ),
        (
            vec!["draw", "--game", "tesseract", "--moves", "Q@z99"],
            "Q@z99",
        ),
        (
            vec!["draw", "--game", "hyperchess", "--arrow", "AaI1AaI5"],
            "--arrow AaI1AaI5",
        ),
        (
            vec!["draw", "--game", "hyperchess", "--seat", "3"],
            "this game has 2 seats",
        ),
    ] {
        let (code, out, err) = quatre(&args);
        assert_eq!(code, 2, "{:?}", args);
        assert!(out.is_empty(), "{:?}", args);
        assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{:?}: {}",
            args,
            err
        );
    }
}
