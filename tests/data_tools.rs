//! The data tools of docs/tools (Python, run as docs/learning.md runs them): mirror.py's copies of
//! chess data are legal positions of the same value, and mirroring twice gives the data back.
//! Needs python3 with python-chess (`.ci/run` installs it).

use quatre::game::{Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::learn::format::{self, GameData};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("quatre-data-tools-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Runs `python3 docs/tools/mirror.py MODE OUT DATA` and reads OUT.
fn mirror(mode: &str, data: &Path, out: &str) -> (PathBuf, Vec<GameData>) {
    let out = tmp(out);
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tools/mirror.py");
    let st = Command::new("python3")
        .arg(&tool)
        .args([mode, out.to_str().unwrap(), data.to_str().unwrap()])
        .status()
        .expect("python3 runs");
    assert!(st.success(), "mirror.py {} failed", mode);
    let games = format::read_file(&out).unwrap();
    (out, games)
}

/// A square's name mirrored as `mode` says.
fn square(s: &str, mode: &str) -> String {
    let b = s.as_bytes();
    let (mut f, mut r) = (b[0], b[1]);
    if mode != "files" {
        r = b'1' + b'8' - r;
    }
    if mode != "colours" {
        f = b'a' + b'h' - f;
    }
    format!("{}{}", f as char, r as char)
}

#[test]
fn mirrored_chess_data_is_legal_keeps_values_and_mirrors_back() {
    let data = tmp("chess.txt");
    let args: Vec<String> = [
        "--option",
        "Boards=1x1",
        "--option",
        "Promotions=chess",
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--quiet",
        "--out",
        data.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let a = quatre::learn::selfplay::parse_args(&args).unwrap();
    quatre::learn::selfplay::run(Some("hyperchess"), &a).unwrap();
    let orig = format::read_file(&data).unwrap();
    let n: usize = orig.iter().map(|g| g.positions.len()).sum();
    assert!(n > 100, "{} positions", n);
    let opts = RuleOptions::of::<Hyperchess>()
        .with("Boards", "1x1")
        .with("Promotions", "chess")
        .with("MaxPlies", "0");
    let mut checked_ep = 0;
    for mode in ["colours", "files", "both"] {
        let (file, mirrored) = mirror(mode, &data, &format!("{}.txt", mode));
        assert_eq!(mirrored.len(), orig.len());
        for (g, m) in orig.iter().zip(&mirrored) {
            assert_eq!(m.reason, format!("{} (mirror={})", g.reason, mode));
            let mut result = g.result.clone();
            if mode != "files" {
                result.reverse();
            }
            assert_eq!(m.result, result);
            assert_eq!(m.positions.len(), g.positions.len());
            for (p, q) in g.positions.iter().zip(&m.positions) {
                let seat = if mode == "files" { p.seat } else { 1 - p.seat };
                assert_eq!((q.seat, q.score, q.ply), (seat, p.score, p.ply));
                let a = Hyperchess::from_text(&p.text, &opts).unwrap();
                let b = Hyperchess::from_text(&q.text, &opts).unwrap();
                assert_eq!(b.to_move(), seat, "{}", q.text);
                let (mut la, mut lb) = (Vec::new(), Vec::new());
                a.legal_moves(&mut la);
                b.legal_moves(&mut lb);
                let mut ta: Vec<String> = la
                    .iter()
                    .map(|&x| {
                        let t = a.format_move(x);
                        square(&t[0..2], mode) + &square(&t[2..4], mode) + &t[4..]
                    })
                    .collect();
                let mut tb: Vec<String> = lb.iter().map(|&x| b.format_move(x)).collect();
                ta.sort();
                tb.sort();
                assert_eq!(
                    ta, tb,
                    "the mirrored moves of {} are not those of {}",
                    p.text, q.text
                );
                assert!(tb.contains(&q.mv), "{} not legal in {}", q.mv, q.text);
                if mode == "colours" {
                    // The hand evaluation is colour-blind: the mover's value is the same.
                    assert_eq!(
                        a.evaluate(p.seat),
                        b.evaluate(q.seat),
                        "{} and {}",
                        p.text,
                        q.text
                    );
                }
                if p.text.split(' ').nth(3) != Some("-") {
                    checked_ep += 1;
                }
            }
        }
        // Twice is the identity, byte for byte but for the reasons.
        let (_, back) = mirror(mode, &file, &format!("{}-back.txt", mode));
        for (g, b) in orig.iter().zip(&back) {
            let reason = format!("{} (mirror={}) (mirror={})", g.reason, mode, mode);
            assert_eq!(b.reason, reason);
            let mut b = b.clone();
            b.reason = g.reason.clone();
            assert_eq!(&b, g);
        }
    }
    assert!(checked_ep > 0, "no position with an en-passant square");
}
