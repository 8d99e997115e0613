//! Clients this project did not write drive the built binary: python-chess's UCI client
//! (`pip install chess`) plays and analyses chess positions on `Boards=1x1`
//! (tests/clients/python_chess_client.py). On a machine without python-chess the test says so
//! and passes; in CI (`CI` set) python-chess is required (`.ci/run` installs it).

use std::process::Command;

#[test]
fn python_chess_plays_and_analyses_through_the_uci_client() {
    let has = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has {
        assert!(
            std::env::var_os("CI").is_none(),
            "python-chess is missing in CI (pip install chess)"
        );
        eprintln!("python-chess is not installed: skipped (pip install chess)");
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/clients/python_chess_client.py"
    );
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_quatre")])
        .output()
        .expect("run python3");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python-chess session failed:\n{}\n{}",
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" passed, 0 failed"), "{}", text);
}
