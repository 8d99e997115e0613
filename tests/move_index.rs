//! The dense move index (`Game::move_index`, `Game::move_index_count`), checked the same way for
//! every game over random games under each rule-option set that changes the count: every legal
//! move's index is below the count, the legal moves of a position get distinct indices, and a
//! move text gets the same index wherever it is seen (and two texts never share one). Rare moves
//! random games seldom reach (promotions across boards, a ghost's king recoveries) are checked
//! from positions built for them. Limited by games and plies, never by time.

use std::collections::HashMap;

use quatre::game::*;
use quatre::games::hyperchess::Hyperchess;
use quatre::games::rithmomachia::Rithmomachia;
use quatre::games::tesseract::Tesseract;
use quatre::games::tesseris::Tesseris;
use quatre::games::threechess::Threechess;
use rand::Rng;

/// What the checks saw: positions, and the distinct move texts (each with its index).
struct Seen {
    positions: usize,
    texts: HashMap<String, usize>,
}

/// Checks one position's legal moves against the indices already seen (`texts`, `owners`:
/// text → index and index → text over every position of this option set).
fn check_position<G: Game>(
    g: &G,
    count: usize,
    moves: &mut Vec<G::Move>,
    seen: &mut Seen,
    owners: &mut HashMap<usize, String>,
) {
    assert_eq!(
        g.move_index_count(),
        count,
        "the count depends on the rule options only: {}",
        g.to_text()
    );
    g.legal_moves(moves);
    let mut used: HashMap<usize, String> = HashMap::new();
    for &m in moves.iter() {
        let text = g.format_move(m);
        let i = g.move_index(m);
        assert!(i < count, "{}: index {} >= count {}", text, i, count);
        if let Some(other) = used.insert(i, text.clone()) {
            panic!(
                "{} and {} share index {} in {}",
                other,
                text,
                i,
                g.to_text()
            );
        }
        let first = *seen.texts.entry(text.clone()).or_insert(i);
        assert_eq!(first, i, "{} had index {}, now {}", text, first, i);
        let owner = owners.entry(i).or_insert_with(|| text.clone());
        assert_eq!(*owner, text, "{} and {} both have index {}", owner, text, i);
    }
    seen.positions += 1;
}

/// Plays `games` random games of at most `plies` plies from `start` (dealt afresh from each
/// game's seed where the game has chance), checking every position and, with hidden
/// information, the next seat's observation of it (whose moves are any the mover might hold).
fn check<G: Game>(start: impl Fn(u64) -> G, games: usize, plies: usize, seed: u64) -> Seen {
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    let mut seen = Seen {
        positions: 0,
        texts: HashMap::new(),
    };
    let mut owners = HashMap::new();
    let count = start(seed).move_index_count();
    for game in 0..games {
        let mut g = start(seed + game as u64);
        for _ in 0..plies {
            if G::hidden_information() {
                let s = (g.to_move() + 1) % g.players();
                let o = G::from_text(&g.observation_text(s), g.options()).unwrap();
                check_position(&o, count, &mut moves, &mut seen, &mut owners);
            }
            check_position(&g, count, &mut moves, &mut seen, &mut owners);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    seen
}

fn opts<G: Game>(set: &[(&str, &str)]) -> RuleOptions {
    set.iter()
        .fold(RuleOptions::of::<G>(), |o, (k, v)| o.with(k, v))
}

fn started<G: Game>(set: &[(&str, &str)]) -> impl Fn(u64) -> G {
    let o = opts::<G>(set);
    move |seed| G::start_with_seed(&o, seed).unwrap()
}

fn loaded<G: Game>(text: &str, set: &[(&str, &str)]) -> impl Fn(u64) -> G {
    let o = opts::<G>(set);
    let g = G::from_text(text, &o).unwrap_or_else(|e| panic!("{}", e));
    move |_| g.clone()
}

/// How many of the texts seen satisfy `pred`.
fn texts_where(seen: &Seen, pred: impl Fn(&str) -> bool) -> usize {
    seen.texts.keys().filter(|t| pred(t)).count()
}

#[test]
fn hyperchess_one_board_and_nine() {
    for (boards, promotions, games, plies) in [
        ("1x1", "hyperchess", 300, 300),
        ("1x1", "chess", 100, 300),
        ("3x3", "hyperchess", 12, 60),
    ] {
        let set = [("Boards", boards), ("Promotions", promotions)];
        let seen = check(started::<Hyperchess>(&set), games, plies, 1);
        let nsq = if boards == "1x1" { 64 } else { 576 };
        let nb = nsq / 64;
        let g = started::<Hyperchess>(&set)(0);
        assert_eq!(g.move_index_count(), nsq * nsq + 448 * nb);
        if boards == "1x1" {
            let promos = texts_where(&seen, |t| t.len() == 5);
            assert!(promos > 20, "random chess games promote: {}", promos);
        }
    }
}

#[test]
fn hyperchess_promotions_across_boards() {
    // White pawns on every 7th rank of a 3x3 grid, Black knights to take on the 8th ranks of
    // the same and the neighbouring boards, and Black pawns about to promote on the 1st ranks.
    let other = "1n1n1n2/PPPPPPPP/8/8/8/8/pppppppp/1R1R1R2";
    let kings = "1n1n1n2/PPPPPPPP/8/8/K7/8/8/7k";
    let boards: Vec<&str> = (0..9).map(|b| if b == 4 { kings } else { other }).collect();
    let text = format!("{} w - - 0 1", boards.join("|"));
    for promotions in ["hyperchess", "chess"] {
        let set = [("Boards", "3x3"), ("Promotions", promotions)];
        let seen = check(loaded::<Hyperchess>(&text, &set), 40, 6, 2);
        let promos = texts_where(&seen, |t| t.ends_with(['n', 'b', 'r', 'q', 'g']));
        // 72 pawns a side, each with a straight step and captures within and across boards.
        assert!(promos > 1000, "{} promotions seen", promos);
    }
}

#[test]
fn rithmomachia() {
    let seen = check(started::<Rithmomachia>(&[]), 300, 200, 3);
    assert!(seen.positions > 10_000);
    assert_eq!(
        started::<Rithmomachia>(&[])(0).move_index_count(),
        128 * 128
    );
}

#[test]
fn tesseract_setup_and_play() {
    for crosses in ["false", "true"] {
        let seen = check(
            started::<Tesseract>(&[("CrossesFirst", crosses)]),
            100,
            100,
            4,
        );
        // A move through a corner names three points, e.g. `f3h5j3`.
        let bent = texts_where(&seen, |t| {
            !t.contains(['@', '^']) && t.chars().filter(|c| c.is_ascii_alphabetic()).count() == 3
        });
        let pivots = texts_where(&seen, |t| t.contains('^'));
        let drops = texts_where(&seen, |t| t.contains('@'));
        assert!(
            bent > 500 && pivots > 50 && drops > 1000,
            "{bent} {pivots} {drops}"
        );
    }
}

#[test]
fn threechess_random_games() {
    let seen = check(started::<Threechess>(&[]), 200, 300, 5);
    let promos = texts_where(&seen, |t| t.len() == 5);
    assert!(promos > 10, "{} promotions seen", promos);
}

/// A threechess position text from a list of men (`("e1", "wK")`).
fn threechess_text(men: &[(&str, &str)], side: &str, states: &str) -> String {
    let mut board = vec!["1"; 64];
    for &(s, m) in men {
        let b = s.as_bytes();
        board[(b[0] - b'a') as usize + 8 * (b[1] - b'1') as usize] = m;
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| board[8 * r..8 * r + 8].join(","))
        .collect();
    format!("{} {} {} 0 1", ranks.join("/"), side, states)
}

#[test]
fn threechess_king_recoveries() {
    // Black is a ghost with pawns about to arrive on file h by a step and by captures, and
    // several men no one attacks: each arrival has a recovery on each of them with each
    // promotion, and one by the pawn itself.
    let text = threechess_text(
        &[
            ("g5", "bP"),
            ("g3", "bP"),
            ("g7", "bP"),
            ("h4", "wN"),
            ("h6", "rN"),
            ("a3", "bR"),
            ("b1", "bN"),
            ("c6", "bB"),
            ("e1", "wK"),
            ("c8", "rK"),
        ],
        "b",
        "aga",
    );
    let seen = check(loaded::<Threechess>(&text, &[]), 20, 4, 6);
    let recoveries = texts_where(&seen, |t| t.contains('k'));
    let with_promotion = texts_where(&seen, |t| t.contains('k') && t.len() == 8);
    assert!(
        recoveries > 50 && with_promotion > 40,
        "{} recoveries, {} with a promotion",
        recoveries,
        with_promotion
    );
}

#[test]
fn tesseris_two_to_four_seats_and_the_full_deck() {
    for (players, full, shapes) in [
        ("2", "false", 12),
        ("2", "true", 18),
        ("3", "false", 18),
        ("4", "false", 18),
    ] {
        let set = [("Players", players), ("FullDeck", full)];
        let seen = check(started::<Tesseris>(&set), 60, 40, 7);
        let n: usize = players.parse().unwrap();
        assert_eq!(
            started::<Tesseris>(&set)(0).move_index_count(),
            shapes * 8 * (5 + n)
        );
        let steals = texts_where(&seen, |t| t.contains('h'));
        assert!(
            seen.texts.len() > 200 && steals > 50,
            "{}",
            seen.texts.len()
        );
    }
}
