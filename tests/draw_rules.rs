//! The draw rules in every game, across the protocol's views of them:
//! - perft counts what the move rules give, as chess's perft does: repetition, the ply-count
//!   rules, bare kings and `MaxPlies` do not end its tree; mate, stalemate and victories do
//!   (protocol.md, `perft`);
//! - a `position` move list that goes on past a draw the rules declare by themselves is
//!   followed in hyperchess, rithmomachia and tesseract and refused in threechess and tesseris
//!   (protocol.md, "Moves past an automatic draw").

use quatre::game::{perft, perft_divide, rng_from_seed, Game, RuleOptions, Status};
use quatre::games::hyperchess::Hyperchess;
use quatre::games::rithmomachia::Rithmomachia;
use quatre::games::tesseract::Tesseract;
use quatre::games::tesseris::Tesseris;
use quatre::games::threechess::Threechess;
use std::sync::atomic::AtomicBool;

const THREECHESS_START: &str = "bR,bB,bP,2,rP,rB,rR/bK,1,bP,2,rP,1,rK/bQ,bN,bP,2,rP,rN,rQ/bR,bB,bP,2,rP,rB,rR/bP,bP,bP,2,rP,rP,rP/8/wP,wP,wP,wP,wP,wP,wP,1/wR,wN,wB,wQ,wK,wB,wR,1 w aaa";

fn reason<G: Game>(g: &G) -> Option<&'static str> {
    match g.status() {
        Status::Over(o) => Some(o.reason),
        Status::Ongoing => None,
    }
}

/// Perft through the registry, as the protocol's `perft` and `quatre perft` count.
fn registry_perft(game: &str, text: &str, opts: &[(&str, &str)], depth: u32) -> u64 {
    let e = quatre::games::find(game).unwrap();
    let mut o = e.default_options();
    for (k, v) in opts {
        o.set(k, v).unwrap();
    }
    let g = e.from_text(text, &o).unwrap();
    let mut total = 0;
    assert!(g.perft_divide_until(depth, &AtomicBool::new(false), &mut |_, n| total += n));
    assert_eq!(g.perft(depth), total);
    total
}

// ---------------------------------------------------------------------------------------------
// Perft.

/// docs/rules/threechess.md: the start with the count at 149 gives perft 2 = 145, although its
/// first ply reaches the 150-ply rule (which counted 0 before).
#[test]
fn threechess_perft_counts_on_past_the_150_ply_rule_and_max_plies() {
    let o = RuleOptions::of::<Threechess>();
    let at_149 = Threechess::from_text(&format!("{} 149 1", THREECHESS_START), &o).unwrap();
    let mut after = at_149.clone();
    let mut ms = Vec::new();
    after.legal_moves(&mut ms);
    after.play(ms[0]);
    assert_eq!(reason(&after), Some("150-ply rule"));
    assert_eq!(perft(&at_149, 1), 11);
    assert_eq!(perft(&at_149, 2), 145);
    assert_eq!(perft(&at_149, 3), 1_911);
    // The position the rule drew counts on as the same placement with the count at 0.
    let fresh = Threechess::from_text(&after.to_text().replace(" 150 ", " 0 "), &o).unwrap();
    assert!(perft(&fresh, 1) > 0);
    assert_eq!(perft(&after, 1), perft(&fresh, 1));
    let sum: u64 = perft_divide(&at_149, 2).iter().map(|(_, n)| n).sum();
    assert_eq!(sum, 145);
    let text = format!("{} 149 1", THREECHESS_START);
    assert_eq!(registry_perft("threechess", &text, &[], 2), 145);
    // MaxPlies, and a position text that the 150-ply rule already drew.
    let capped = Threechess::start(&o.clone().with("MaxPlies", "1")).unwrap();
    assert_eq!(perft(&capped, 2), 145);
    let text150 = format!("{} 150 1", THREECHESS_START);
    let drawn = Threechess::from_text(&text150, &o).unwrap();
    assert_eq!(reason(&drawn), Some("150-ply rule"));
    assert_eq!(perft(&drawn, 2), 145);
    assert_eq!(registry_perft("threechess", &text150, &[], 2), 145);
    assert_eq!(
        registry_perft(
            "threechess",
            &format!("{} 0 1", THREECHESS_START),
            &[("MaxPlies", "1")],
            3
        ),
        1_911
    );
}

/// Threechess's repetition: White, Black and Red each move a knight out and back, twice; the
/// last move back repeats the start for the third time.
#[test]
fn threechess_perft_counts_on_past_a_repetition() {
    let o = RuleOptions::of::<Threechess>();
    let mut g = Threechess::start(&o).unwrap();
    let play = |g: &mut Threechess, m: &str| {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    };
    let cycle = ["b1c3", "b6d7", "g6e7", "c3b1", "d7b6", "e7g6"];
    for m in cycle.iter().chain(&cycle[..5]) {
        play(&mut g, m);
    }
    let mut next = g.clone();
    play(&mut next, "e7g6");
    assert_eq!(reason(&next), Some("threefold repetition"));
    let fresh = Threechess::from_text(&g.to_text(), &o).unwrap();
    assert!(perft(&fresh, 2) > 0);
    assert_eq!(perft(&g, 2), perft(&fresh, 2));
    assert_eq!(perft(&g, 3), perft(&fresh, 3));
}

#[test]
fn hyperchess_perft_counts_on_past_the_100_ply_rule_bare_kings_repetition_and_max_plies() {
    let o = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let load = |t: &str| Hyperchess::from_text(t, &o).unwrap();
    // The 100-ply rule: the first ply reaches it.
    let at_99 = load("4k3/8/8/8/8/8/8/R3K3 w - - 99 1");
    let at_0 = load("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut after = at_99.clone();
    after.play(after.parse_move("a1a2").unwrap());
    assert_eq!(reason(&after), Some("fifty-move rule"));
    assert!(perft(&at_0, 2) > 0);
    assert_eq!(perft(&at_99, 2), perft(&at_0, 2));
    assert_eq!(perft(&at_99, 3), perft(&at_0, 3));
    let at_100 = load("4k3/8/8/8/8/8/8/R3K3 w - - 100 1");
    assert_eq!(reason(&at_100), Some("fifty-move rule"));
    assert_eq!(perft(&at_100, 2), perft(&at_0, 2));
    assert_eq!(
        registry_perft(
            "hyperchess",
            "4k3/8/8/8/8/8/8/R3K3 w - - 100 1",
            &[("Boards", "1x1")],
            2
        ),
        perft(&at_0, 2)
    );
    // Bare kings: each king has five steps.
    let bare = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(reason(&bare), Some("bare kings"));
    assert_eq!(perft(&bare, 1), 5);
    assert_eq!(perft(&bare, 2), 25);
    // Repetition: the knights out and back; Black's next move back repeats the start a third
    // time.
    let mut g = Hyperchess::start(&o).unwrap();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        g.play(g.parse_move(m).unwrap());
    }
    let mut next = g.clone();
    next.play(next.parse_move("f6g8").unwrap());
    assert_eq!(reason(&next), Some("threefold repetition"));
    let fresh = load(&g.to_text());
    assert_eq!(perft(&g, 2), perft(&fresh, 2));
    assert_eq!(perft(&g, 3), perft(&fresh, 3));
    // MaxPlies.
    let capped = Hyperchess::start(&o.clone().with("MaxPlies", "1")).unwrap();
    let free = Hyperchess::start(&o).unwrap();
    assert_eq!(perft(&capped, 2), 400);
    assert_eq!(perft(&capped, 3), perft(&free, 3));
    // Mate and stalemate still end the tree.
    assert_eq!(perft(&load("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), 1), 0);
    assert_eq!(perft(&load("7k/8/6QK/8/8/8/8/8 b - - 0 1"), 1), 0);
}

/// Rithmomachia and tesseract: `MaxPlies` is their one draw rule.
#[test]
fn rithmomachia_and_tesseract_perft_counts_on_past_max_plies() {
    let o = RuleOptions::of::<Rithmomachia>();
    let free = Rithmomachia::start(&o.clone().with("MaxPlies", "0")).unwrap();
    let capped = Rithmomachia::start(&o.clone().with("MaxPlies", "1")).unwrap();
    let mut after = capped.clone();
    let mut ms = Vec::new();
    after.legal_moves(&mut ms);
    after.play(ms[0]);
    assert_eq!(reason(&after), Some("MaxPlies"));
    assert_eq!(perft(&capped, 2), perft(&free, 2));
    assert_eq!(perft(&capped, 3), perft(&free, 3));

    let o = RuleOptions::of::<Tesseract>();
    let free = Tesseract::start(&o.clone().with("MaxPlies", "0")).unwrap();
    let capped = Tesseract::start(&o.clone().with("MaxPlies", "1")).unwrap();
    let mut after = capped.clone();
    let mut ms = Vec::new();
    after.legal_moves(&mut ms);
    after.play(ms[0]);
    assert_eq!(reason(&after), Some("MaxPlies"));
    assert!(perft(&free, 2) > 0);
    assert_eq!(perft(&capped, 2), perft(&free, 2));
}

/// Tesseris: `MaxPlies` is lifted mid-round, and at a round's end the next round is dealt as
/// without the limit.
#[test]
fn tesseris_perft_counts_on_past_max_plies_even_at_a_round_end() {
    let o = RuleOptions::of::<Tesseris>().with("Players", "2");
    let free = Tesseris::start_with_seed(&o.clone().with("MaxPlies", "0"), 3).unwrap();
    let capped = Tesseris::start_with_seed(&o.clone().with("MaxPlies", "1"), 3).unwrap();
    assert!(perft(&free, 2) > 0);
    assert_eq!(perft(&capped, 2), perft(&free, 2));
    // Play the first round to its end without a limit, then the same moves with the limit
    // there.
    let mut g = free.clone();
    let mut rng = rng_from_seed(5);
    let mut played = Vec::new();
    while g.rounds_done() == 0 {
        let m = g.baseline_move(&mut rng).unwrap();
        played.push(m);
        g.play(m);
    }
    assert!(!g.status().is_over());
    let limit = played.len().to_string();
    let mut c = Tesseris::start_with_seed(&o.clone().with("MaxPlies", &limit), 3).unwrap();
    for &m in &played {
        c.play(m);
    }
    assert_eq!(reason(&c), Some("MaxPlies"));
    assert_eq!(c.rounds_done(), 1);
    assert_eq!(perft(&c, 1), perft(&g, 1));
    assert_eq!(perft(&c, 2), perft(&g, 2));
    let mut lifted = c.clone();
    lifted.ignore_draw_rules();
    assert_eq!(lifted.hash(), g.hash());
    assert_eq!(lifted.first_seat(), g.first_seat());
    assert_eq!(lifted.to_move(), g.to_move());
}

// ---------------------------------------------------------------------------------------------
// Move lists past an automatic draw, through the protocol.

fn session(game: &str, script: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["--game", game])
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

/// The first `n` moves of a game from `text` (or the start), the first legal move each time.
fn first_moves(game: &str, opts: &[(&str, &str)], text: Option<&str>, n: usize) -> Vec<String> {
    let e = quatre::games::find(game).unwrap();
    let mut o = e.default_options();
    for (k, v) in opts {
        o.set(k, v).unwrap();
    }
    let mut g = match text {
        Some(t) => e.from_text(t, &o).unwrap(),
        None => e.start(&o, None).unwrap(),
    };
    let mut out = Vec::new();
    for _ in 0..n {
        while g.play_through_draw().is_some() {}
        let m = g.legal_moves()[0].clone();
        g.play_text(&m).unwrap();
        out.push(m);
    }
    out
}

fn bestmove(out: &[String]) -> &str {
    out.iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {:?}", out))
}

/// Threechess refuses a move after a draw rule ended the game (its rules page), and `go` there
/// answers `bestmove 0000`.
#[test]
fn threechess_refuses_moves_past_an_automatic_draw() {
    let text = format!("{} 149 1", THREECHESS_START);
    // Two moves that are legal from the start (the second after the first).
    let ms = first_moves("threechess", &[], None, 2);
    let out = session(
        "threechess",
        &format!(
            "position fen {} moves {}\nquery result\ngo depth 1\nposition fen {} moves {} {}\nquery gameover\n",
            text, ms[0], text, ms[0], ms[1]
        ),
    );
    assert!(out.contains(&"response draw".to_string()), "{:?}", out);
    assert!(
        out.contains(&"info string game over (150-ply rule)".to_string()),
        "{:?}",
        out
    );
    assert_eq!(bestmove(&out), "0000");
    assert!(
        out.iter().any(
            |l| l.starts_with("info string error: move 2 of the list: move ")
                && l.ends_with("after the end of the game (150-ply rule)")
        ),
        "{:?}",
        out
    );
    assert!(!out.iter().any(|l| l.contains("playing on")), "{:?}", out);
    // A move past the end: no list of legal moves to point to.
    assert!(
        !out.iter().any(|l| l.contains("lists the legal moves")),
        "{:?}",
        out
    );
}

/// An illegal move in a list is named by its place, with the protocol's command that lists
/// the legal moves.
#[test]
fn an_illegal_move_in_a_list_points_to_the_moves_command() {
    let out = session(
        "hyperchess",
        "setoption name Boards value 1x1\nposition startpos moves e2e4 e7e5 e2e4\ngo nodes 50\n",
    );
    assert!(
        out.contains(&"info string error: move 3 of the list: illegal move 'e2e4' in this position (26 legal moves); 'moves' lists the legal moves".to_string()),
        "{:?}",
        out
    );
    assert_eq!(bestmove(&out), "0000");
}

/// Tesseris refuses a move after `MaxPlies` ended the game.
#[test]
fn tesseris_refuses_moves_past_max_plies() {
    let ms = first_moves("tesseris", &[("MaxPlies", "0")], None, 2);
    let (first, second) = (&ms[0], &ms[1]);
    let out = session(
        "tesseris",
        &format!(
            "setoption name MaxPlies value 1\nposition startpos moves {}\ngo nodes 50\n\
             position startpos moves {} {}\n",
            first, first, second
        ),
    );
    assert!(
        out.contains(&"info string game over (MaxPlies)".to_string()),
        "{:?}",
        out
    );
    assert_eq!(bestmove(&out), "0000");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: move 2 of the list: ")
                && l.ends_with("after the end of the game (MaxPlies)")),
        "{:?}",
        out
    );
}

/// Rithmomachia and tesseract follow a move list past `MaxPlies`, as hyperchess does past its
/// draws (tests/protocol.rs), and `go` there searches on.
#[test]
fn rithmomachia_and_tesseract_follow_move_lists_past_max_plies() {
    for game in ["rithmomachia", "tesseract"] {
        let ms = first_moves(game, &[("MaxPlies", "1")], None, 2);
        let out = session(
            game,
            &format!(
                "setoption name MaxPlies value 1\nposition startpos moves {} {}\nquery result\ngo depth 1\n",
                ms[0], ms[1]
            ),
        );
        assert!(
            out.iter().any(|l| l
                == "info string the rules drew this game after move 1 of the list (MaxPlies); playing on as sent"),
            "{}: {:?}",
            game,
            out
        );
        assert!(
            !out.iter().any(|l| l.contains("error")),
            "{}: {:?}",
            game,
            out
        );
        assert!(
            out.contains(&"response draw".to_string()),
            "{}: {:?}",
            game,
            out
        );
        assert_ne!(bestmove(&out), "0000", "{}: {:?}", game, out);
    }
}
