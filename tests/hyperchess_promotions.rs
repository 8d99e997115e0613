//! Hyperchess's `Promotions` rule option (docs/rules/hyperchess.md): `hyperchess`, the rules'
//! promotions (knight, guard, bishop, queen), and `chess`, chess's (knight, bishop, rook,
//! queen), so that a chess GUI can play `Boards=1x1` to the end.

use quatre::game::*;
use quatre::games::hyperchess::*;

fn opts(boards: &str, promotions: &str) -> RuleOptions {
    RuleOptions::of::<Hyperchess>()
        .with("Boards", boards)
        .with("Promotions", promotions)
}

fn load(text: &str, boards: &str, promotions: &str) -> Hyperchess {
    Hyperchess::from_text(text, &opts(boards, promotions)).unwrap_or_else(|e| panic!("{}", e))
}

fn moves(g: &Hyperchess) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut s: Vec<String> = v.into_iter().map(|m| g.format_move(m)).collect();
    s.sort();
    s
}

fn promotions_from(g: &Hyperchess, from: &str) -> Vec<String> {
    moves(g)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

/// One White pawn about to promote on one board; Black's king on h8.
const PROMOTING: &str = "7k/P7/8/8/8/8/8/K7 w - - 0 1";

#[test]
fn the_option_is_a_checked_combo_kept_in_the_state() {
    let spec = Hyperchess::rule_options()
        .iter()
        .find(|s| s.name == "Promotions")
        .expect("listed");
    assert_eq!(spec.default_text(), "hyperchess");
    assert_eq!(spec.validate("CHESS").unwrap(), "chess");
    let e = spec.validate("queen").unwrap_err();
    assert!(
        e.contains("Promotions") && e.contains("hyperchess | chess"),
        "{}",
        e
    );
    let mut o = RuleOptions::of::<Hyperchess>();
    assert!(o.set("Promotions", "rook").is_err());
    assert_eq!(
        o.text("Promotions"),
        "hyperchess",
        "the last good value is kept"
    );
    let g = load(PROMOTING, "1x1", "chess");
    assert_eq!(g.options().text("Promotions"), "chess");
    assert_eq!(
        Hyperchess::start(&RuleOptions::of::<Hyperchess>())
            .unwrap()
            .options()
            .text("Promotions"),
        "hyperchess"
    );
}

#[test]
fn by_default_a_pawn_promotes_to_a_guard_and_never_to_a_rook() {
    let g = load(PROMOTING, "1x1", "hyperchess");
    assert_eq!(
        promotions_from(&g, "a7"),
        ["a7a8b", "a7a8g", "a7a8n", "a7a8q"]
    );
    assert!(g.parse_move("a7a8r").unwrap_err().contains("rook"));
}

#[test]
fn with_chess_promotions_no_legal_move_promotes_to_a_guard() {
    let g = load(PROMOTING, "1x1", "chess");
    assert_eq!(
        promotions_from(&g, "a7"),
        ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    );
    let e = g.parse_move("a7a8g").unwrap_err();
    assert!(
        e.contains("guard") && e.contains("Promotions=chess") && e.contains("n, b, r or q"),
        "{}",
        e
    );
    // Black too, and on a grid of boards (a capture onto a neighbouring board's last rank).
    let g = load("k7/8/8/8/8/8/p7/7K b - - 0 1", "1x1", "chess");
    assert_eq!(
        promotions_from(&g, "a2"),
        ["a2a1b", "a2a1n", "a2a1q", "a2a1r"]
    );
    let text = "8/P7/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|n7/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1";
    let g = load(text, "3x3", "chess");
    let from = promotions_from(&g, "AaI7");
    assert_eq!(from.len(), 8, "{:?}", from);
    assert!(from.iter().all(|m| !m.ends_with('g')), "{:?}", from);
    assert!(from.contains(&"AaI7AaII8r".to_string()), "{:?}", from);
    // Random games: every move parses back (rook promotions too), hashes and texts hold.
    let start = Hyperchess::start(&opts("1x1", "chess")).unwrap();
    check_invariants(&start, 20, 300, 7).unwrap();
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    for _ in 0..40 {
        let mut g = start.clone();
        for _ in 0..300 {
            g.legal_moves(&mut buf);
            assert!(buf.iter().all(|&m| m.promo() != GUARD), "{}", g.to_text());
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            g.play(m);
        }
    }
}

/// Counted by hand: after a king move Black's king has 3 replies (g8, g7, h7); after a queen or
/// rook promotion it is in check along rank 8 and has 2 (g7, h7); after a knight, bishop or
/// guard promotion 3. So perft 2 = 3·3 + 2 + 3 + 3 + 3 = 20 with the guard, and
/// 3·3 + 2 + 3 + 3 + 2 = 19 with the rook, which is chess's figure (python-chess gives 19, and
/// 213 at depth 3).
#[test]
fn perft_of_a_promotion_position_follows_the_option() {
    let g = load(PROMOTING, "1x1", "hyperchess");
    assert_eq!(perft(&g, 1), 7);
    assert_eq!(perft(&g, 2), 20);
    let g = load(PROMOTING, "1x1", "chess");
    assert_eq!(perft(&g, 1), 7);
    assert_eq!(perft(&g, 2), 19);
    assert_eq!(perft(&g, 3), 213);
}

/// With chess's promotions, one board is chess without castling: a position full of
/// promotions for both sides counts what python-chess counts (24, 496, 9483, 182838).
#[test]
fn with_chess_promotions_one_board_counts_chess_perft() {
    let g = load("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "1x1", "chess");
    assert_eq!(perft(&g, 1), 24);
    assert_eq!(perft(&g, 2), 496);
    assert_eq!(perft(&g, 3), 9_483);
    assert_eq!(perft(&g, 4), 182_838);
}

fn session(script: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn quatre");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// What a python-chess GUI does on one board: it sets the option, and every move the engine
/// lists or plays is one it can read; a bad value is one error line and keeps the last good one.
#[test]
fn a_chess_gui_gets_chess_promotions_through_the_protocol() {
    let out = session(
        "uci\nsetoption name Boards value 1x1\nsetoption name Promotions value chess\n\
         setoption name Promotions value guard\n\
         position fen 8/5P1k/8/8/8/8/8/K7 w - - 0 1\nmoves\n\
         go depth 4\n",
    );
    assert!(
        out.iter().any(|l| l
            == "option name Promotions type combo default hyperchess var hyperchess var chess"),
        "{:?}",
        out
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{:?}", out);
    assert!(errors[0].contains("option Promotions takes one of hyperchess | chess"));
    let listed = out.iter().find(|l| l.starts_with("moves ")).unwrap();
    assert!(
        listed.contains(" f7f8r") && !listed.contains("f7f8g"),
        "{}",
        listed
    );
    let best = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        listed.split_whitespace().any(|m| m == mv) && !mv.ends_with('g'),
        "{}",
        best
    );
}
