//! Rules tests for threechess: perft from the start, one test per rule of docs/rules/threechess.md
//! (each ghost, recovery and death case built by hand from position texts), random-game
//! invariants and malformed input.

use quatre::game::{check_invariants, perft, rng_from_seed, Game, RuleOptions, Status};
use quatre::games::threechess::{Threechess, ALIVE, DEAD, GHOST, KING, PAWN};
use rand::Rng;

const START: &str = "bR,bB,bP,2,rP,rB,rR/bK,1,bP,2,rP,1,rK/bQ,bN,bP,2,rP,rN,rQ/bR,bB,bP,2,rP,rB,rR/bP,bP,bP,2,rP,rP,rP/8/wP,wP,wP,wP,wP,wP,wP,1/wR,wN,wB,wQ,wK,wB,wR,1 w aaa 0 1";

fn opts() -> RuleOptions {
    RuleOptions::of::<Threechess>()
}

fn sq(n: &str) -> usize {
    let b = n.as_bytes();
    (b[0] - b'a') as usize + 8 * (b[1] - b'1') as usize
}

/// A position text from a list of men (`("e1", "wK")`), unmerged empties ("1,1,…": the reader
/// accepts them).
fn text(men: &[(&str, &str)], side: &str, states: &str, clock: u32) -> String {
    let mut board = vec![None; 64];
    for &(s, m) in men {
        board[sq(s)] = Some(m);
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            (0..8)
                .map(|f| board[f + 8 * r].unwrap_or("1").to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{} {} {} {} 1", ranks.join("/"), side, states, clock)
}

fn load(t: &str) -> Threechess {
    load_with(t, &opts())
}

fn load_with(t: &str, o: &RuleOptions) -> Threechess {
    Threechess::from_text(t, o).unwrap_or_else(|e| panic!("{}: {}", t, e))
}

fn pos(men: &[(&str, &str)], side: &str, states: &str) -> Threechess {
    load(&text(men, side, states, 0))
}

fn moves(g: &Threechess) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut s: Vec<String> = v.into_iter().map(|m| g.format_move(m)).collect();
    s.sort();
    s
}

fn moves_from(g: &Threechess, from: &str) -> Vec<String> {
    moves(g)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn is_legal(g: &Threechess, m: &str) -> bool {
    moves(g).iter().any(|x| x == m)
}

fn play(g: &mut Threechess, m: &str) {
    let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{}", e));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(
        v.contains(&mv),
        "{} should be legal in {}\n{}",
        m,
        g.to_text(),
        g.display()
    );
    g.play(mv);
    assert_eq!(g.hash(), g.full_hash());
}

fn states(g: &Threechess) -> String {
    (0..3)
        .map(|s| match g.seat_state(s) {
            ALIVE => 'a',
            GHOST => 'g',
            _ => 'd',
        })
        .collect()
}

fn outcome(g: &Threechess) -> Option<([f32; 3], &'static str)> {
    match g.status() {
        Status::Over(o) => Some(([o.rewards[0], o.rewards[1], o.rewards[2]], o.reason)),
        Status::Ongoing => None,
    }
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    s.sort();
    s
}

// ---------------------------------------------------------------------------------------------
// Start, options, text, perft.

#[test]
fn rule_options_are_max_plies_only() {
    let specs = Threechess::rule_options();
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].name, "MaxPlies");
    assert_eq!(specs[0].default_text(), "0");
}

#[test]
fn start_position_is_the_documented_layout() {
    let g = Threechess::start(&opts()).unwrap();
    assert_eq!(g.to_text(), START);
    assert_eq!(g.players(), 3);
    assert_eq!(g.to_move(), 0);
    // 15 men each: K, Q, 2 R, 2 B, 1 N, 7 P.
    for c in 0..3u8 {
        let mut count = [0; 8];
        for s in 0..64 {
            let p = g.man_at(s);
            if p != 0 && p >> 3 == c {
                count[(p & 7) as usize] += 1;
            }
        }
        assert_eq!(count, [0, 7, 1, 2, 2, 1, 1, 0], "colour {}", c);
    }
    // No man stands attacked: nobody can take anything in one move at the start (for any seat to move).
    for side in ["w", "b", "r"] {
        let t = START.replace(" w aaa", &format!(" {} aaa", side));
        let g = load(&t);
        for m in moves(&g) {
            let to = sq(&m[2..4]);
            assert_eq!(
                g.man_at(to),
                0,
                "{} takes at the start ({} to move)",
                m,
                side
            );
        }
    }
    let d = g.display();
    assert!(d.contains("bK") && d.contains("to move: White"), "{}", d);
}

#[test]
fn perft_from_the_start() {
    let g = Threechess::start(&opts()).unwrap();
    assert_eq!(perft(&g, 1), 11);
    assert_eq!(perft(&g, 2), 145);
    assert_eq!(perft(&g, 3), 1_911);
    assert_eq!(perft(&g, 4), 33_643);
}

#[test]
fn perft_from_the_start_depth_5() {
    let g = Threechess::start(&opts()).unwrap();
    assert_eq!(perft(&g, 5), 611_588);
}

#[test]
fn white_first_moves_are_the_eleven_of_the_page() {
    let g = Threechess::start(&opts()).unwrap();
    assert_eq!(
        moves(&g),
        sorted(&[
            "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "g2h2", "g1h1", "b1a3", "b1c3"
        ])
    );
}

#[test]
fn position_text_round_trips_and_merges_empty_squares() {
    let t = text(
        &[("e1", "wK"), ("a8", "bK"), ("h8", "rK"), ("c3", "bP")],
        "b",
        "aaa",
        7,
    );
    let g = load(&t);
    let out = g.to_text();
    assert_eq!(out, "bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aaa 7 1");
    let back = load(&out);
    assert_eq!(back.to_text(), out);
    assert_eq!(back.hash(), g.hash());
    // The last two fields may be left out together.
    let short = load("bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aaa");
    assert_eq!(short.to_text(), "bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aaa 0 1");
}

#[test]
fn hash_depends_on_placement_side_and_states() {
    let a = load("bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aaa");
    let b = load("bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 r aaa");
    let c = load("bK,6,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aaa 12 40");
    assert_ne!(a.hash(), b.hash());
    assert_eq!(a.hash(), c.hash(), "counters are not part of the position");
    let ghost = load("7,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aga");
    assert_eq!(ghost.hash(), ghost.full_hash());
}

// ---------------------------------------------------------------------------------------------
// Moves.

#[test]
fn pawn_steps_orthogonally_and_takes_diagonally_in_every_direction() {
    // A white pawn on d4: steps to d5, d3, c4, e4; takes on c5 (black), e3 (red); not on e5
    // (own man) nor on c3 (a king is never taken).
    let g = pos(
        &[
            ("d4", "wP"),
            ("c5", "bN"),
            ("e3", "rB"),
            ("e5", "wN"),
            ("c3", "bK"),
            ("h1", "wK"),
            ("h8", "rK"),
        ],
        "w",
        "aaa",
    );
    assert_eq!(
        moves_from(&g, "d4"),
        sorted(&["d4d5", "d4d3", "d4c4", "d4e4", "d4c5", "d4e3"])
    );
    // Steps need an empty square: no orthogonal capture.
    let g = pos(
        &[
            ("d4", "wP"),
            ("d5", "bN"),
            ("h1", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
        ],
        "w",
        "aaa",
    );
    assert!(!is_legal(&g, "d4d5"));
    assert!(is_legal(&g, "d4d3"));
}

#[test]
fn a_pawn_may_step_back_onto_its_start_row() {
    let g = pos(
        &[
            ("d2", "wP"),
            ("h3", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
            ("b4", "bP"),
        ],
        "w",
        "aaa",
    );
    assert!(is_legal(&g, "d2d1"));
    let mut g2 = g.clone();
    play(&mut g2, "d2d1");
    assert_eq!(
        g2.man_at(sq("d1")),
        PAWN,
        "nothing happens on the start row"
    );
    // A black pawn steps back to file a.
    let mut g3 = pos(
        &[("b4", "bP"), ("h3", "wK"), ("a8", "bK"), ("h8", "rK")],
        "b",
        "aaa",
    );
    play(&mut g3, "b4a4");
}

#[test]
fn promotion_rows_by_colour_and_compulsory() {
    // White promotes on rank 8, Black on file h, Red on file a; four choices each.
    let men = [
        ("d7", "wP"),
        ("g5", "bP"),
        ("b3", "rP"),
        ("e1", "wK"),
        ("a8", "bK"),
        ("h7", "rK"),
    ];
    let promos = |g: &Threechess, m: &str| {
        moves(g)
            .into_iter()
            .filter(|x| x.starts_with(m))
            .collect::<Vec<_>>()
    };
    let w = pos(&men, "w", "aaa");
    assert_eq!(
        promos(&w, "d7d8"),
        sorted(&["d7d8q", "d7d8r", "d7d8b", "d7d8n"])
    );
    assert!(w.parse_move("d7d8").is_err(), "promotion is compulsory");
    let b = pos(&men, "b", "aaa");
    assert_eq!(
        promos(&b, "g5h5"),
        sorted(&["g5h5q", "g5h5r", "g5h5b", "g5h5n"])
    );
    assert!(
        promos(&b, "g5g6").iter().all(|m| m == "g5g6"),
        "rank 8 is not Black's row"
    );
    let r = pos(&men, "r", "aaa");
    assert_eq!(
        promos(&r, "b3a3"),
        sorted(&["b3a3q", "b3a3r", "b3a3b", "b3a3n"])
    );
    let mut r2 = r.clone();
    play(&mut r2, "b3a3r");
    assert_eq!(r2.man_at(sq("a3")), 4 | 2 << 3, "a red rook");
    // Promotion by a capture.
    let g = pos(
        &[
            ("d7", "wP"),
            ("e8", "rN"),
            ("e1", "wK"),
            ("a8", "bK"),
            ("h6", "rK"),
        ],
        "w",
        "aaa",
    );
    assert!(is_legal(&g, "d7e8n"));
}

#[test]
fn pieces_move_as_in_chess_and_never_take_a_king() {
    // A white rook on d4 with a black king on d7 and a red knight on f4: it reaches d5, d6, not d7.
    let g = pos(
        &[
            ("d4", "wR"),
            ("d7", "bK"),
            ("f4", "rN"),
            ("h1", "wK"),
            ("h8", "rK"),
        ],
        "w",
        "aaa",
    );
    let m = moves_from(&g, "d4");
    assert!(m.contains(&"d4d6".to_string()));
    assert!(!m.contains(&"d4d7".to_string()), "a king is never captured");
    assert!(m.contains(&"d4f4".to_string()));
    assert!(!m.contains(&"d4g4".to_string()));
    assert_eq!(m.len(), 2 + 3 + 3 + 2);
    // A knight's eight jumps, a bishop's diagonals, a king's eight steps.
    let g = pos(
        &[
            ("d5", "wN"),
            ("a1", "wB"),
            ("h1", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
        ],
        "w",
        "aaa",
    );
    assert_eq!(moves_from(&g, "d5").len(), 8);
    assert_eq!(
        moves_from(&g, "a1").len(),
        6,
        "a1 bishop stops before h8's king"
    );
    assert_eq!(moves_from(&g, "h1").len(), 3);
}

#[test]
fn no_move_may_leave_the_own_king_attacked_by_either_player() {
    // White king e1; a red rook on e8 pins the white bishop on e4 (the bishop cannot leave the
    // file); a black bishop on a4 attacks d1, which the king may then not step to.
    let g = pos(
        &[
            ("e1", "wK"),
            ("e4", "wB"),
            ("e8", "rR"),
            ("a4", "bB"),
            ("a8", "bK"),
            ("h6", "rK"),
        ],
        "w",
        "aaa",
    );
    assert!(moves_from(&g, "e4").is_empty(), "pinned by red");
    assert!(!is_legal(&g, "e1d1"), "d1 is attacked by the black bishop");
    assert!(is_legal(&g, "e1d2"));
    assert!(is_legal(&g, "e1f1"));
    // Kings never stand side by side: a king attacks its neighbours.
    let g = pos(&[("e1", "wK"), ("e3", "bK"), ("h8", "rK")], "w", "aaa");
    assert_eq!(moves_from(&g, "e1"), sorted(&["e1d1", "e1f1"]));
}

#[test]
fn a_king_may_be_left_in_check_by_another_players_move_and_only_its_owner_answers() {
    // White's rook move attacks the black king and Black, next to move, must answer it.
    let mut g = pos(
        &[
            ("a1", "wR"),
            ("h1", "wK"),
            ("a8", "bK"),
            ("b5", "bP"),
            ("h8", "rK"),
            ("c6", "rR"),
        ],
        "w",
        "aaa",
    );
    play(&mut g, "a1a7");
    assert_eq!(g.to_move(), 1);
    assert!(g.in_check());
    // Black answers by taking.
    assert!(is_legal(&g, "a8a7"));
    // A loaded position where the black king stands in check while Red is to move: Red cannot take it.
    let g = pos(
        &[
            ("a7", "wR"),
            ("h1", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
            ("c8", "rR"),
        ],
        "r",
        "aaa",
    );
    assert!(!is_legal(&g, "c8a8"));
    assert!(is_legal(&g, "c8b8"));
}

// ---------------------------------------------------------------------------------------------
// Mate and stalemate while all three are alive: ghosts and deaths.

/// Black (to move) mated on a8 by the queen on b7 (backed by the bishop on e4); a black pawn c3.
fn black_mated_men() -> Vec<(&'static str, &'static str)> {
    vec![
        ("a8", "bK"),
        ("c3", "bP"),
        ("b7", "wQ"),
        ("e4", "wB"),
        ("g1", "wK"),
        ("h5", "rK"),
    ]
}

#[test]
fn mate_while_all_alive_makes_a_ghost_that_moves_at_once() {
    let g = pos(&black_mated_men(), "b", "aaa");
    assert_eq!(states(&g), "aga");
    assert_eq!(g.to_move(), 1, "the ghost plays this same turn");
    assert_eq!(g.man_at(sq("a8")), 0, "the king is removed");
    assert_eq!(moves(&g), sorted(&["c3c2", "c3c4", "c3b3", "c3d3"]));
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.ply_clock(), 0);
    // The same by a move: White mates, Black is a ghost and to move.
    let mut men = black_mated_men();
    men[2] = ("b1", "wQ");
    let mut g = load(&text(&men, "w", "aaa", 20));
    assert_eq!(states(&g), "aaa");
    play(&mut g, "b1b7");
    assert_eq!(states(&g), "aga");
    assert_eq!(g.to_move(), 1);
    assert_eq!(
        g.ply_clock(),
        0,
        "a change of state resets the 150-ply count"
    );
    assert!(g.to_text().contains(" b aga 0 1"), "{}", g.to_text());
}

#[test]
fn stalemate_while_all_alive_also_makes_a_ghost() {
    // Black king a8 not in check but with no move; its pawn c6 pinned by the bishop on e4.
    let g = pos(
        &[
            ("a8", "bK"),
            ("c6", "bP"),
            ("e4", "wB"),
            ("b1", "wR"),
            ("h7", "wQ"),
            ("g1", "wK"),
            ("f4", "rK"),
        ],
        "b",
        "aaa",
    );
    assert_eq!(states(&g), "aga");
    assert_eq!(g.to_move(), 1);
    assert_eq!(moves(&g), sorted(&["c6c5", "c6c7", "c6b6", "c6d6"]));
}

#[test]
fn mated_without_a_pawn_dies_at_once_and_the_turn_passes() {
    let men: Vec<_> = black_mated_men()
        .into_iter()
        .filter(|&(s, _)| s != "c3")
        .collect();
    let g = pos(&men, "b", "aaa");
    assert_eq!(states(&g), "ada");
    assert_eq!(g.to_move(), 2, "Red plays next");
    assert_eq!(g.status(), Status::Ongoing);
    assert!((0..64).all(|s| g.man_at(s) == 0 || g.man_at(s) >> 3 != 1));
}

#[test]
fn a_ghost_with_no_move_dies() {
    // Black's pawn on a1 is boxed in (a2 white pawn, b1 white knight, b2 empty).
    let men = [
        ("a1", "bP"),
        ("c5", "bR"),
        ("a2", "wP"),
        ("b1", "wN"),
        ("g1", "wK"),
        ("h5", "rK"),
    ];
    // Loaded as a ghost with the rook: it has moves.
    let g = pos(&men, "b", "aga");
    assert_eq!(states(&g), "aga");
    // Without the rook: no move, so dead; the turn passes to Red.
    let men: Vec<_> = men.into_iter().filter(|&(s, _)| s != "c5").collect();
    let g = pos(&men, "b", "aga");
    assert_eq!(states(&g), "ada");
    assert_eq!(g.to_move(), 2);
    assert_eq!(g.man_at(sq("a1")), 0);
    // Stalemated while all alive, then no move as a ghost either: dead at once.
    let mut men2 = men.clone();
    men2.push(("a8", "bK"));
    men2.push(("b6", "wR"));
    men2.push(("h7", "wR"));
    let g = pos(&men2, "b", "aaa");
    assert_eq!(states(&g), "ada");
    assert_eq!(g.to_move(), 2);
}

#[test]
fn a_ghost_dies_when_its_last_pawn_is_taken_and_its_turn_is_skipped() {
    let mut g = pos(
        &[
            ("c3", "bP"),
            ("a8", "bR"),
            ("c1", "wR"),
            ("g1", "wK"),
            ("h5", "rK"),
        ],
        "w",
        "aga",
    );
    play(&mut g, "c1c3");
    assert_eq!(states(&g), "ada");
    assert_eq!(g.man_at(sq("a8")), 0, "all the ghost's men are removed");
    assert_eq!(g.to_move(), 2, "the dead player's turn is skipped");
    assert_eq!(g.ply_clock(), 0);
}

#[test]
fn taking_a_ghosts_last_pawn_can_lift_a_check() {
    // The ghost's rook on e8 checks the white king; taking the ghost's last pawn removes it.
    let g = pos(
        &[
            ("c3", "bP"),
            ("e8", "bR"),
            ("c1", "wR"),
            ("e1", "wK"),
            ("h5", "rK"),
        ],
        "w",
        "aga",
    );
    assert!(g.in_check());
    assert!(is_legal(&g, "c1c3"));
    assert!(!is_legal(&g, "c1c2"));
}

#[test]
fn taking_a_ghosts_last_pawn_can_open_a_check() {
    // The ghost's knight on e4 shields the white king from the red rook on e8.
    let g = pos(
        &[
            ("c3", "bP"),
            ("e4", "bN"),
            ("e8", "rR"),
            ("c1", "wR"),
            ("e1", "wK"),
            ("h5", "rK"),
        ],
        "w",
        "aga",
    );
    assert!(!is_legal(&g, "c1c3"));
    assert!(is_legal(&g, "c1c2"));
    // With a second ghost pawn, taking one leaves the shield in place.
    let g = pos(
        &[
            ("c3", "bP"),
            ("b6", "bP"),
            ("e4", "bN"),
            ("e8", "rR"),
            ("c1", "wR"),
            ("e1", "wK"),
            ("h5", "rK"),
        ],
        "w",
        "aga",
    );
    assert!(is_legal(&g, "c1c3"));
}

#[test]
fn a_ghost_may_make_any_move_of_its_men() {
    // A ghost has no king: nothing it does is forbidden by check, and it still never takes a king.
    let g = pos(
        &[
            ("c3", "bP"),
            ("d4", "bR"),
            ("d1", "wK"),
            ("h4", "rK"),
            ("a4", "wQ"),
        ],
        "b",
        "aga",
    );
    let m = moves_from(&g, "d4");
    assert!(!m.contains(&"d4d1".to_string()));
    assert!(!m.contains(&"d4h4".to_string()));
    assert!(m.contains(&"d4a4".to_string()));
    assert_eq!(m.len(), 4 + 2 + 3 + 3);
}

// ---------------------------------------------------------------------------------------------
// Recovering the king.

#[test]
fn a_ghost_pawn_arriving_must_recover_the_king_on_an_unattacked_man() {
    // Black ghost: pawn g5 reaches h5 (file h); rook a3 unattacked.
    let g = pos(
        &[("g5", "bP"), ("a3", "bR"), ("e1", "wK"), ("c8", "rK")],
        "b",
        "aga",
    );
    let arr: Vec<String> = moves_from(&g, "g5h5");
    assert_eq!(
        arr,
        sorted(&["g5h5kh5", "g5h5qka3", "g5h5rka3", "g5h5bka3", "g5h5nka3"]),
        "a promotion without the king is not a move while it can come back"
    );
    let mut a = g.clone();
    play(&mut a, "g5h5kh5");
    assert_eq!(states(&a), "aaa");
    assert_eq!(a.man_at(sq("h5")), KING | 1 << 3);
    assert_eq!(a.ply_clock(), 0);
    let mut b = g.clone();
    play(&mut b, "g5h5qka3");
    assert_eq!(states(&b), "aaa");
    assert_eq!(b.man_at(sq("a3")), KING | 1 << 3);
    assert_eq!(
        b.man_at(sq("h5")),
        5 | 1 << 3,
        "the arriving pawn is promoted"
    );
    assert_eq!(b.to_move(), 2);
}

#[test]
fn recovery_only_on_men_no_other_player_attacks() {
    // h5 is attacked by the white rook on h1; a3 is not: the king may only replace a3.
    let g = pos(
        &[
            ("g5", "bP"),
            ("a3", "bR"),
            ("h1", "wR"),
            ("e1", "wK"),
            ("c8", "rK"),
        ],
        "b",
        "aga",
    );
    assert_eq!(
        moves_from(&g, "g5h5"),
        sorted(&["g5h5qka3", "g5h5rka3", "g5h5bka3", "g5h5nka3"])
    );
}

#[test]
fn recovery_is_judged_after_the_pawns_move() {
    // The white rook on h5 attacks the ghost's rook on a5; the pawn g4 takes it on h5 and arrives:
    // now both a5 and h5 are free of attack.
    let g = pos(
        &[
            ("g4", "bP"),
            ("a5", "bR"),
            ("h5", "wR"),
            ("e1", "wK"),
            ("c8", "rK"),
        ],
        "b",
        "aga",
    );
    let m = moves_from(&g, "g4h5");
    assert!(m.contains(&"g4h5qka5".to_string()), "{:?}", m);
    assert!(m.contains(&"g4h5kh5".to_string()), "{:?}", m);
}

#[test]
fn when_every_man_is_attacked_the_pawn_is_promoted_and_the_player_stays_a_ghost() {
    // Both black men attacked (h5 by the rook on h1, c7 by the red bishop on a5): four promotions.
    let g = pos(
        &[
            ("g5", "bP"),
            ("c7", "bP"),
            ("h1", "wR"),
            ("a5", "rB"),
            ("e1", "wK"),
            ("c8", "rK"),
        ],
        "b",
        "aga",
    );
    assert_eq!(
        moves_from(&g, "g5h5"),
        sorted(&["g5h5q", "g5h5r", "g5h5b", "g5h5n"])
    );
    let mut a = g.clone();
    play(&mut a, "g5h5q");
    assert_eq!(states(&a), "aga", "still a ghost: it keeps its pawn c7");
    assert_eq!(a.man_at(sq("h5")), 5 | 1 << 3);
}

#[test]
fn a_ghost_promoting_its_last_pawn_without_the_king_dies() {
    let g = pos(
        &[
            ("g5", "bP"),
            ("d4", "bN"),
            ("h1", "wR"),
            ("d1", "wR"),
            ("e1", "wK"),
            ("c8", "rK"),
        ],
        "b",
        "aga",
    );
    assert_eq!(
        moves_from(&g, "g5h5"),
        sorted(&["g5h5q", "g5h5r", "g5h5b", "g5h5n"])
    );
    let mut a = g.clone();
    play(&mut a, "g5h5n");
    assert_eq!(states(&a), "ada");
    assert!((0..64).all(|s| a.man_at(s) == 0 || a.man_at(s) >> 3 != 1));
    assert_eq!(a.to_move(), 2);
}

#[test]
fn after_a_recovery_the_next_mate_with_all_alive_makes_a_ghost_again() {
    // Black's ghost pawn g8 steps to h8 and the king comes back there; Red waits; White's rook
    // b1b8 mates the king on h8 (g7 and h7 are held by the rook on a7). All three being alive
    // again, Black becomes a ghost again instead of the game ending.
    let mut g = pos(
        &[
            ("g8", "bP"),
            ("d3", "bP"),
            ("a7", "wR"),
            ("b1", "wR"),
            ("e1", "wK"),
            ("c5", "rK"),
        ],
        "b",
        "aga",
    );
    assert_eq!(
        moves_from(&g, "g8h8"),
        sorted(&["g8h8kh8", "g8h8qkd3", "g8h8rkd3", "g8h8bkd3", "g8h8nkd3"])
    );
    play(&mut g, "g8h8kh8");
    assert_eq!(states(&g), "aaa");
    play(&mut g, "c5c6");
    play(&mut g, "b1b8");
    assert_eq!(states(&g), "aga");
    assert_eq!(g.to_move(), 1);
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(moves(&g), sorted(&["d3d2", "d3d4", "d3c3", "d3e3"]));
}

// ---------------------------------------------------------------------------------------------
// End of the game and results.

#[test]
fn mate_with_a_ghost_in_play_ends_the_game_the_other_alive_player_wins() {
    // White mated on a1 by the red queen b2 (backed by the red bishop e5); Black a ghost.
    let men = [
        ("a1", "wK"),
        ("b2", "rQ"),
        ("e5", "rB"),
        ("h8", "rK"),
        ("d7", "bP"),
    ];
    let g = pos(&men, "w", "aga");
    assert_eq!(outcome(&g), Some(([0.0, 0.0, 1.0], "checkmate")));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.is_empty());
    // The ghost's men give the mate: Red still wins.
    let men = [
        ("a1", "wK"),
        ("b2", "bQ"),
        ("e5", "bB"),
        ("h8", "rK"),
        ("d7", "bP"),
    ];
    let g = pos(&men, "w", "aga");
    assert_eq!(outcome(&g), Some(([0.0, 0.0, 1.0], "checkmate")));
    // With a dead player instead: the same.
    let men = [("a1", "wK"), ("b2", "rQ"), ("e5", "rB"), ("h8", "rK")];
    let g = pos(&men, "w", "ada");
    assert_eq!(outcome(&g), Some(([0.0, 0.0, 1.0], "checkmate")));
}

#[test]
fn stalemate_with_a_ghost_in_play_shares_between_the_alive_players() {
    let men = [("a1", "wK"), ("c2", "rQ"), ("h8", "rK"), ("d7", "bP")];
    let g = pos(&men, "w", "aga");
    assert_eq!(outcome(&g), Some(([0.5, 0.0, 0.5], "stalemate")));
    let men = [("a1", "wK"), ("c2", "rQ"), ("h8", "rK")];
    let g = pos(&men, "w", "ada");
    assert_eq!(outcome(&g), Some(([0.5, 0.0, 0.5], "stalemate")));
}

#[test]
fn mate_by_a_move_ends_the_game_when_a_player_is_already_a_ghost() {
    let mut g = pos(
        &[
            ("a1", "wK"),
            ("b8", "rQ"),
            ("e5", "rB"),
            ("h8", "rK"),
            ("d7", "bP"),
        ],
        "r",
        "aga",
    );
    play(&mut g, "b8b2");
    assert_eq!(outcome(&g), Some(([0.0, 0.0, 1.0], "checkmate")));
    assert_eq!(g.to_move(), 0, "noticed on the victim's turn");
}

#[test]
fn the_150_ply_rule_shares_between_alive_players() {
    let men = [("e1", "wK"), ("a8", "bK"), ("h6", "rK"), ("c3", "bP")];
    let mut g = load(&text(&men, "w", "aaa", 149));
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, "e1e2");
    let third = 1.0 / 3.0;
    assert_eq!(outcome(&g), Some(([third, third, third], "150-ply rule")));
    // With a ghost: the two alive players share, the ghost loses.
    let men = [("e1", "wK"), ("h6", "rK"), ("c3", "bP")];
    let mut g = load(&text(&men, "w", "aga", 149));
    play(&mut g, "e1e2");
    assert_eq!(outcome(&g), Some(([0.5, 0.0, 0.5], "150-ply rule")));
    // A loaded count of 150 is over already.
    let g = load(&text(&men, "w", "aga", 150));
    assert!(g.status().is_over());
}

#[test]
fn the_150_ply_count_resets_on_capture_promotion_and_state_change_not_on_pawn_steps() {
    let men = [
        ("e1", "wK"),
        ("a8", "bK"),
        ("h6", "rK"),
        ("c3", "bP"),
        ("d2", "wP"),
        ("b7", "wP"),
        ("c8", "rN"),
    ];
    let mut g = load(&text(&men, "w", "aaa", 100));
    let mut s = g.clone();
    play(&mut s, "d2d3");
    assert_eq!(s.ply_clock(), 101, "a pawn step does not reset the count");
    let mut c = g.clone();
    play(&mut c, "d2c3");
    assert_eq!(c.ply_clock(), 0);
    play(&mut g, "b7b8q");
    assert_eq!(g.ply_clock(), 0);
}

#[test]
fn a_mate_on_the_150th_ply_that_makes_a_ghost_resets_the_count() {
    let mut men = black_mated_men();
    men[2] = ("b1", "wQ");
    let mut g = load(&text(&men, "w", "aaa", 149));
    play(&mut g, "b1b7");
    assert_eq!(states(&g), "aga");
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.ply_clock(), 0);
}

#[test]
fn a_game_ending_mate_on_the_150th_ply_is_a_mate() {
    let mut g = load(&text(
        &[
            ("a1", "wK"),
            ("b8", "rQ"),
            ("e5", "rB"),
            ("h8", "rK"),
            ("d7", "bP"),
        ],
        "r",
        "aga",
        149,
    ));
    play(&mut g, "b8b2");
    assert_eq!(outcome(&g), Some(([0.0, 0.0, 1.0], "checkmate")));
}

#[test]
fn threefold_repetition_counts_placement_turn_and_states() {
    let men = [("g1", "wK"), ("a8", "bK"), ("f4", "rK"), ("c3", "bP")];
    let mut g = pos(&men, "w", "aaa");
    let cycle = ["g1h1", "a8a7", "f4f5", "h1g1", "a7a8", "f5f4"];
    for m in cycle {
        play(&mut g, m);
        assert_eq!(g.status(), Status::Ongoing);
    }
    for (i, m) in cycle.iter().enumerate() {
        play(&mut g, m);
        if i < 5 {
            assert_eq!(g.status(), Status::Ongoing, "after {}", m);
        }
    }
    let third = 1.0 / 3.0;
    assert_eq!(
        outcome(&g),
        Some(([third, third, third], "threefold repetition"))
    );
}

#[test]
fn max_plies_ends_the_game_counted_from_the_position_given() {
    let o = opts().with("MaxPlies", "4");
    let mut g = load_with(
        &text(&[("g1", "wK"), ("f4", "rK"), ("c3", "bP")], "w", "aga", 60),
        &o,
    );
    for m in ["g1h1", "c3c4", "f4f5"] {
        play(&mut g, m);
        assert_eq!(g.status(), Status::Ongoing);
    }
    play(&mut g, "h1g1");
    assert_eq!(outcome(&g), Some(([0.5, 0.0, 0.5], "MaxPlies")));
    assert!(Threechess::start(&opts().with("MaxPlies", "0")).is_ok());
    assert!(opts().set("MaxPlies", "-1").is_err());
}

#[test]
fn the_move_number_goes_up_when_the_turn_goes_back_to_an_earlier_seat() {
    let mut g = Threechess::start(&opts()).unwrap();
    play(&mut g, "e2e3");
    play(&mut g, "c5d5");
    assert!(g.to_text().ends_with(" r aaa 2 1"), "{}", g.to_text());
    play(&mut g, "f5e5");
    assert!(g.to_text().ends_with(" w aaa 3 2"), "{}", g.to_text());
    // With Black dead: White → Red keeps the number, Red → White raises it.
    let mut g = pos(&[("g1", "wK"), ("f4", "rK"), ("a3", "wP")], "w", "ada");
    play(&mut g, "g1h1");
    assert!(g.to_text().ends_with(" r ada 1 1"), "{}", g.to_text());
    play(&mut g, "f4f5");
    assert!(g.to_text().ends_with(" w ada 2 2"), "{}", g.to_text());
    // Red dead: Black → White raises it.
    let mut g = pos(&[("g1", "wK"), ("a8", "bK")], "b", "aad");
    play(&mut g, "a8a7");
    assert!(g.to_text().ends_with(" w aad 1 2"), "{}", g.to_text());
}

// ---------------------------------------------------------------------------------------------
// Refusals and malformed input.

#[test]
fn bad_position_texts_are_refused_with_a_reason() {
    let ok = [("e1", "wK"), ("a8", "bK"), ("h8", "rK"), ("c3", "bP")];
    let bad = |men: &[(&str, &str)], side: &str, st: &str, want: &str| {
        let t = text(men, side, st, 0);
        match Threechess::from_text(&t, &opts()) {
            Ok(_) => panic!("accepted {}", t),
            Err(e) => {
                assert!(
                    e.contains(want),
                    "'{}' does not say '{}' for {}",
                    e,
                    want,
                    t
                );
                assert!(!e.contains('\n'));
            }
        }
    };
    // An alive player with no king or two.
    bad(&ok[1..], "b", "aaa", "White is alive with 0 kings");
    let mut two = ok.to_vec();
    two.push(("d4", "bK"));
    bad(&two, "w", "aaa", "Black is alive with 2 kings");
    // A ghost or dead player with a king; a dead player with men; a ghost with no pawn.
    bad(&ok, "w", "aga", "Black is a ghost but has a king");
    bad(
        &ok,
        "w",
        "ada",
        "Black is dead but still has men on the board (2)",
    );
    bad(
        &[("e1", "wK"), ("h8", "rK"), ("c3", "bP")],
        "w",
        "ada",
        "Black is dead but still has men on the board (1)",
    );
    bad(
        &[("e1", "wK"), ("h8", "rK"), ("c3", "bN")],
        "w",
        "aga",
        "ghost with no pawn",
    );
    // Two players not alive.
    bad(
        &[("e1", "wK"), ("c3", "bP")],
        "w",
        "agd",
        "two players are not alive",
    );
    // A pawn on its own arrival row, for each colour.
    let mut p = ok.to_vec();
    p.push(("d8", "wP"));
    bad(&p, "w", "aaa", "white pawn stands on d8");
    let mut p = ok.to_vec();
    p.push(("h3", "bP"));
    bad(&p, "w", "aaa", "black pawn stands on h3");
    let mut p = ok.to_vec();
    p.push(("a3", "rP"));
    bad(&p, "w", "aaa", "red pawn stands on a3");
    // The player to move is dead.
    bad(
        &[("e1", "wK"), ("h8", "rK")],
        "b",
        "ada",
        "Black is to move but is dead",
    );
    // Pawns on other colours' arrival rows are fine.
    let mut p = ok.to_vec();
    p.push(("d8", "bP"));
    p.push(("h4", "wP"));
    assert!(Threechess::from_text(&text(&p, "w", "aaa", 0), &opts()).is_ok());
}

#[test]
fn malformed_position_texts_are_refused_with_a_reason() {
    let cases = [
        ("", "fields"),
        ("8/8/8/8/8/8/8/8", "fields"),
        ("8/8/8/8/8/8/8 w aaa", "7 ranks"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK x aaa", "'w', 'b' or 'r'"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK w aa", "three letters"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK w aax", "three letters"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK w aaa 0", "fields"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK w aaa -1 1", "150-ply count"),
        ("bK,7/8/8/8/8/8/8/wK,6,rK w aaa 0 x", "move number"),
        ("bK,8/8/8/8/8/8/8/wK,6,rK w aaa", "more than 8 squares"),
        ("bK,6/8/8/8/8/8/8/wK,6,rK w aaa", "7 squares"),
        ("bK,0,7/8/8/8/8/8/8/wK,6,rK w aaa", "1 to 8"),
        ("bK,9/8/8/8/8/8/8/wK,6,rK w aaa", "1 to 8"),
        ("bK,,7/8/8/8/8/8/8/wK,6,rK w aaa", "empty square entry"),
        ("xK,7/8/8/8/8/8/8/wK,6,rK w aaa", "neither a man"),
        ("bk,7/8/8/8/8/8/8/wK,6,rK w aaa", "neither a man"),
        ("bKQ,7/8/8/8/8/8/8/wK,6,rK w aaa", "neither a man"),
    ];
    for (t, want) in cases {
        match Threechess::from_text(t, &opts()) {
            Ok(_) => panic!("accepted '{}'", t),
            Err(e) => assert!(e.contains(want), "'{}': '{}' does not say '{}'", t, e, want),
        }
    }
}

#[test]
fn malformed_moves_are_refused_with_a_reason() {
    let g = pos(
        &[("g5", "bP"), ("a3", "bR"), ("e1", "wK"), ("c8", "rK")],
        "b",
        "aga",
    );
    let cases = [
        ("", "empty"),
        ("e2", "no target square"),
        ("z2e4", "does not start with a square"),
        ("a3a3", "same square"),
        ("a3a4q", "only a pawn reaching its arrival row"),
        ("a3a4ka4", "brings the king back"),
        ("g5h5", "add the promotion letter"),
        ("g5h5qkh5", "no promotion"),
        ("g5h5k", "'k' must be followed"),
        ("g5h5kz9", "'k' must be followed"),
        ("g5h5qka3x", "'k' must be followed"),
        ("a3a4x", "unexpected 'x'"),
        ("é3a4", "not ASCII"),
    ];
    for (m, want) in cases {
        match g.parse_move(m) {
            Ok(mv) => panic!("'{}' parsed as {:?}", m, mv),
            Err(e) => assert!(e.contains(want), "'{}': '{}' does not say '{}'", m, e, want),
        }
    }
    assert!(g.parse_move("g5h5").unwrap_err().contains("g5h5kh5"));
}

#[test]
fn mutated_texts_and_random_move_strings_never_panic() {
    let mut rng = rng_from_seed(11);
    let base = [
        START.to_string(),
        "7,rK/8/8/8/8/2,bP,5/8/4,wK,3 b aga 3 9".to_string(),
    ];
    let alphabet: Vec<char> = "wbrKQRBNPagd012345789/, -xk".chars().collect();
    let g = Threechess::start(&opts()).unwrap();
    for i in 0..20_000 {
        let mut t: Vec<char> = base[i % 2].chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let k = rng.random_range(0..t.len());
            match rng.random_range(0..3) {
                0 => t[k] = alphabet[rng.random_range(0..alphabet.len())],
                1 => {
                    t.remove(k);
                }
                _ => t.insert(k, alphabet[rng.random_range(0..alphabet.len())]),
            }
        }
        let s: String = t.into_iter().collect();
        match Threechess::from_text(&s, &opts()) {
            Ok(p) => {
                // Whatever loads must be consistent and playable.
                assert_eq!(p.hash(), p.full_hash());
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                assert_eq!(v.is_empty(), p.status().is_over(), "{}", s);
            }
            Err(e) => assert!(!e.is_empty() && !e.contains('\n'), "{}", e),
        }
        let n = rng.random_range(0..9);
        let m: String = (0..n)
            .map(|_| {
                "abcdefghk12345678qrbnz9 "[rng.random_range(0..24)..]
                    .chars()
                    .next()
                    .unwrap()
            })
            .collect();
        if let Err(e) = g.parse_move(&m) {
            assert!(!e.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random games.

#[test]
fn random_games_keep_the_invariants() {
    let g = Threechess::start(&opts()).unwrap();
    check_invariants(&g, 1_000, 600, 1).unwrap();
}

/// Plays random games from the start and checks the rules' own invariants after every move;
/// returns how often each event was seen.
fn random_rule_games(games: usize, seed: u64) -> std::collections::BTreeMap<&'static str, u32> {
    let mut seen = std::collections::BTreeMap::new();
    let mut rng = rng_from_seed(seed);
    let mut v = Vec::new();
    for _ in 0..games {
        let mut g = Threechess::start(&opts()).unwrap();
        let (mut ghosted, mut died) = (false, false);
        loop {
            if let Status::Over(o) = g.status() {
                let sum: f32 = o.rewards.iter().sum();
                assert!((sum - 1.0).abs() < 1e-4);
                *seen.entry(o.reason).or_insert(0) += 1;
                break;
            }
            g.legal_moves(&mut v);
            assert!(!v.is_empty());
            let m = v[rng.random_range(0..v.len())];
            let mover = g.to_move();
            let was_ghost = g.seat_state(mover) == GHOST;
            g.play(m);
            // States: at most one player not alive; kings match states; a ghost has a pawn; the
            // dead have no men; the player to move is not dead.
            let st: Vec<u8> = (0..3).map(|s| g.seat_state(s)).collect();
            assert!(
                st.iter().filter(|&&s| s != ALIVE).count() <= 1,
                "{}",
                g.to_text()
            );
            for (c, &s) in st.iter().enumerate() {
                let men: Vec<u8> = (0..64)
                    .map(|q| g.man_at(q))
                    .filter(|&p| p != 0 && (p >> 3) as usize == c)
                    .collect();
                let kings = men.iter().filter(|&&p| p & 7 == KING).count();
                let pawns = men.iter().filter(|&&p| p & 7 == PAWN).count();
                match s {
                    ALIVE => assert_eq!(kings, 1, "{}", g.to_text()),
                    GHOST => assert!(kings == 0 && pawns > 0, "{}", g.to_text()),
                    _ => assert!(men.is_empty(), "{}", g.to_text()),
                }
            }
            assert_ne!(g.seat_state(g.to_move()), DEAD);
            if was_ghost && g.seat_state(mover) == ALIVE {
                *seen.entry("recovery").or_insert(0) += 1;
            }
            if !ghosted && st.contains(&GHOST) {
                ghosted = true;
                *seen.entry("ghost").or_insert(0) += 1;
            }
            if !died && st.contains(&DEAD) {
                died = true;
                *seen.entry("death").or_insert(0) += 1;
            }
        }
    }
    seen
}

#[test]
fn random_games_reach_ghosts_deaths_and_every_ending_keeping_the_states_consistent() {
    let seen = random_rule_games(2_000, 5);
    eprintln!("{:?}", seen);
    for k in [
        "ghost",
        "death",
        "recovery",
        "checkmate",
        "stalemate",
        "150-ply rule",
        "threefold repetition",
    ] {
        assert!(
            seen.get(k).copied().unwrap_or(0) > 0,
            "{} never seen: {:?}",
            k,
            seen
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A naive reference move generator, written differently: a position is a map from (file, rank)
// to (colour, letter) read from the position text; every (from, to) pair is checked against a
// per-man predicate, and "attacked" asks every man of the other colours whether it reaches the
// square. The engine's legal moves are compared with it along random games.

type Men = std::collections::BTreeMap<(i32, i32), (usize, char)>;

fn ref_read(t: &str) -> (Men, usize, Vec<char>) {
    let f: Vec<&str> = t.split_whitespace().collect();
    let mut men = Men::new();
    for (ri, rank) in f[0].split('/').enumerate() {
        let r = 7 - ri as i32;
        let mut x = 0;
        for tok in rank.split(',') {
            if let Ok(n) = tok.parse::<i32>() {
                x += n;
            } else {
                let c = "wbr".find(&tok[..1]).unwrap();
                men.insert((x, r), (c, tok.chars().nth(1).unwrap()));
                x += 1;
            }
        }
    }
    let side = "wbr".find(f[1]).unwrap();
    (men, side, f[2].chars().collect())
}

/// Whether the man `(c, k)` on `a` reaches `b` (as a move onto an enemy there, i.e. an attack).
fn ref_attacks(men: &Men, a: (i32, i32), k: char, b: (i32, i32)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if (dx, dy) == (0, 0) {
        return false;
    }
    let clear = |sx: i32, sy: i32| {
        let n = dx.abs().max(dy.abs());
        (1..n).all(|i| !men.contains_key(&(a.0 + sx * i, a.1 + sy * i)))
    };
    match k {
        'P' => dx.abs() == 1 && dy.abs() == 1,
        'K' => dx.abs() <= 1 && dy.abs() <= 1,
        'N' => (dx.abs(), dy.abs()) == (1, 2) || (dx.abs(), dy.abs()) == (2, 1),
        'R' => (dx == 0 || dy == 0) && clear(dx.signum(), dy.signum()),
        'B' => dx.abs() == dy.abs() && clear(dx.signum(), dy.signum()),
        'Q' => (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && clear(dx.signum(), dy.signum()),
        _ => unreachable!(),
    }
}

fn ref_attacked(men: &Men, sq: (i32, i32), us: usize) -> bool {
    men.iter()
        .any(|(&a, &(c, k))| c != us && ref_attacks(men, a, k, sq))
}

fn ref_arrival(c: usize, sq: (i32, i32)) -> bool {
    match c {
        0 => sq.1 == 7,
        1 => sq.0 == 7,
        _ => sq.0 == 0,
    }
}

fn ref_name(s: (i32, i32)) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

fn ref_moves(t: &str) -> Vec<String> {
    let (men, us, st) = ref_read(t);
    let ghost = st[us] == 'g';
    let mut out = Vec::new();
    for (&a, &(c, k)) in &men {
        if c != us {
            continue;
        }
        for x in 0..8 {
            for y in 0..8 {
                let b = (x, y);
                let target = men.get(&b).copied();
                if matches!(target, Some((tc, tk)) if tc == us || tk == 'K') {
                    continue;
                }
                let ok = if k == 'P' {
                    let (dx, dy) = ((x - a.0).abs(), (y - a.1).abs());
                    (dx + dy == 1 && target.is_none()) || (dx == 1 && dy == 1 && target.is_some())
                } else {
                    ref_attacks(&men, a, k, b)
                };
                if !ok {
                    continue;
                }
                let mut after = men.clone();
                after.remove(&a);
                after.insert(b, (c, k));
                if let Some((tc, 'P')) = target {
                    let ghost_victim = st[tc] == 'g';
                    let pawns_left = after
                        .values()
                        .filter(|&&(cc, kk)| cc == tc && kk == 'P')
                        .count();
                    if ghost_victim && pawns_left == 0 {
                        after.retain(|_, v| v.0 != tc);
                    }
                }
                let mv = format!("{}{}", ref_name(a), ref_name(b));
                let arrives = k == 'P' && ref_arrival(us, b);
                if !ghost {
                    let king = *after
                        .iter()
                        .find(|(_, &(cc, kk))| cc == us && kk == 'K')
                        .unwrap()
                        .0;
                    if ref_attacked(&after, king, us) {
                        continue;
                    }
                    if arrives {
                        for p in ["q", "r", "b", "n"] {
                            out.push(format!("{}{}", mv, p));
                        }
                    } else {
                        out.push(mv);
                    }
                } else if arrives {
                    let free: Vec<(i32, i32)> = after
                        .iter()
                        .filter(|(&s, &(cc, _))| cc == us && !ref_attacked(&after, s, us))
                        .map(|(&s, _)| s)
                        .collect();
                    if free.is_empty() {
                        for p in ["q", "r", "b", "n"] {
                            out.push(format!("{}{}", mv, p));
                        }
                    }
                    for s in free {
                        if s == b {
                            out.push(format!("{}k{}", mv, ref_name(s)));
                        } else {
                            for p in ["q", "r", "b", "n"] {
                                out.push(format!("{}{}k{}", mv, p, ref_name(s)));
                            }
                        }
                    }
                } else {
                    out.push(mv);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_naive_reference_agrees_on_the_start_and_the_hand_built_positions() {
    let g = Threechess::start(&opts()).unwrap();
    assert_eq!(ref_moves(&g.to_text()), moves(&g));
    for (men, side, st) in [
        (black_mated_men(), "b", "aaa"),
        (
            vec![
                ("g5", "bP"),
                ("a3", "bR"),
                ("h1", "wR"),
                ("e1", "wK"),
                ("c8", "rK"),
            ],
            "b",
            "aga",
        ),
        (
            vec![
                ("c3", "bP"),
                ("e4", "bN"),
                ("e8", "rR"),
                ("c1", "wR"),
                ("e1", "wK"),
                ("h5", "rK"),
            ],
            "w",
            "aga",
        ),
    ] {
        let g = pos(&men, side, st);
        assert_eq!(ref_moves(&g.to_text()), moves(&g), "{}", g.to_text());
    }
}

#[test]
fn the_naive_reference_agrees_along_random_games() {
    let mut rng = rng_from_seed(21);
    let mut v = Vec::new();
    let (mut positions, mut ghost_positions, mut arrivals) = (0, 0, 0);
    for _ in 0..150 {
        let mut g = Threechess::start(&opts()).unwrap();
        while !g.status().is_over() {
            let t = g.to_text();
            let mine = moves(&g);
            assert_eq!(ref_moves(&t), mine, "in {}", t);
            positions += 1;
            if g.seat_state(g.to_move()) == GHOST {
                ghost_positions += 1;
                arrivals += mine.iter().filter(|m| m.len() > 4).count();
            }
            g.legal_moves(&mut v);
            g.play(v[rng.random_range(0..v.len())]);
        }
    }
    assert!(
        ghost_positions > 100 && arrivals > 10,
        "{} {} {}",
        positions,
        ghost_positions,
        arrivals
    );
}

// ---------------------------------------------------------------------------------------------
// Evaluation and move ordering hints.

#[test]
fn evaluation_sees_material_ghosts_progress_and_the_dead() {
    let start = Threechess::start(&opts()).unwrap();
    let sum: i32 = (0..3).map(|s| start.evaluate(s)).sum();
    assert!(sum.abs() <= 3, "values are relative to the others: {}", sum);
    // Black without its queen.
    let noq = load(&START.replace("bQ,bN", "1,bN"));
    assert!(noq.evaluate(1) < start.evaluate(1) - 500);
    assert!(noq.evaluate(0) > start.evaluate(0) + 200);
    assert!(noq.evaluate(2) > start.evaluate(2) + 200);
    // The same men, Black a ghost rather than alive (its king on a8 gone): worse for Black.
    let alive = pos(
        &[
            ("e1", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
            ("c3", "bP"),
            ("c6", "bR"),
        ],
        "w",
        "aaa",
    );
    let ghost = pos(
        &[("e1", "wK"), ("h8", "rK"), ("c3", "bP"), ("c6", "bR")],
        "w",
        "aga",
    );
    assert!(ghost.evaluate(1) < alive.evaluate(1) - 500);
    // A ghost's pawn near file h (its arrival row) is worth more than one far from it.
    let near = pos(&[("e1", "wK"), ("h8", "rK"), ("f3", "bP")], "w", "aga");
    let far = pos(&[("e1", "wK"), ("h8", "rK"), ("b3", "bP")], "w", "aga");
    assert!(near.evaluate(1) > far.evaluate(1) + 100);
    // A dead seat has lost; the two left are judged against each other only.
    let dead = pos(&[("e1", "wK"), ("h8", "rK"), ("d4", "rQ")], "w", "ada");
    assert!(dead.evaluate(1) <= -10_000);
    assert!(dead.evaluate(2) > dead.evaluate(0) + 800);
    // A finished game: the winner's value is the win, the losers' far below.
    let won = pos(
        &[
            ("a1", "wK"),
            ("b2", "rQ"),
            ("e5", "rB"),
            ("h8", "rK"),
            ("d7", "bP"),
        ],
        "w",
        "aga",
    );
    assert!(won.evaluate(2) > 15_000 && won.evaluate(0) < -5_000);
    // Every seat's value at once (MCTS's rewards) is each seat's value, whatever the states.
    for g in [&start, &noq, &alive, &ghost, &near, &far, &dead, &won] {
        let mut all = [0; quatre::game::MAX_SEATS];
        g.evaluate_all(&mut all);
        assert_eq!(all[..3], [g.evaluate(0), g.evaluate(1), g.evaluate(2)]);
    }
}

#[test]
fn noisy_moves_and_priorities() {
    let g = pos(
        &[
            ("d4", "wP"),
            ("c5", "bQ"),
            ("e5", "rP"),
            ("d7", "wP"),
            ("h1", "wK"),
            ("a8", "bK"),
            ("h8", "rK"),
        ],
        "w",
        "aaa",
    );
    let m = |t: &str| g.parse_move(t).unwrap();
    assert!(g.is_noisy(m("d4c5")) && g.is_noisy(m("d7d8q")));
    assert!(!g.is_noisy(m("d4d5")));
    assert!(g.move_priority(m("d4c5")) > g.move_priority(m("d4e5")));
    assert!(g.move_priority(m("d4e5")) > g.move_priority(m("d4d5")));
    assert!(g.move_priority(m("d7d8q")) > g.move_priority(m("d7d8n")));
}

#[test]
fn random_moves_are_legal_and_uniform_even_in_check() {
    // White in check from the ghost's rook: most pseudo-legal moves are illegal.
    let g = pos(
        &[
            ("c3", "bP"),
            ("e8", "bR"),
            ("c1", "wR"),
            ("e1", "wK"),
            ("a2", "wP"),
            ("b7", "wP"),
            ("g4", "wN"),
            ("h5", "rK"),
        ],
        "w",
        "aga",
    );
    let legal = moves(&g);
    assert!(legal.len() >= 3, "{:?}", legal);
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    let mut count = std::collections::BTreeMap::new();
    let n = 30_000;
    for _ in 0..n {
        let m = g.random_move(&mut rng, &mut buf).unwrap();
        *count.entry(g.format_move(m)).or_insert(0) += 1;
    }
    let keys: Vec<String> = count.keys().cloned().collect();
    assert_eq!(keys, legal);
    let mean = n as f64 / legal.len() as f64;
    for (m, &c) in &count {
        assert!(
            (c as f64 - mean).abs() < 0.1 * mean,
            "{} drawn {} times, mean {}",
            m,
            c,
            mean
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Through the registry and the protocol.

#[test]
fn the_registry_knows_threechess() {
    let e = quatre::games::find("ThreeChess").expect("registered");
    let g = e.start(&e.default_options(), None).unwrap();
    assert_eq!(g.players(), 3);
    assert_eq!(g.to_text(), START);
    assert_eq!(g.perft(3), 1_911);
}

fn session(script: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
        .args(["--game", "threechess"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn quatre");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    // End of input (no `quit`): the engine lets a search with a limit finish, then exits.
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn protocol_results_and_refusals() {
    // Stalemate with Black a ghost: White and Red share.
    let out = session(
        "position fen 7,rK/8/8/8/8/8/2,rQ,1,bP,3/wK,7 w aga\nquery gameover\nquery result\n",
    );
    assert!(
        out.contains("response true") && out.contains("response shared p1 p3"),
        "{}",
        out
    );
    // Red mates White by a move of the list; a move past the end is refused.
    let mate = "7,rK/8/8/1,rQ,6/4,rB,3/8/8/wK,7 r aga";
    let mate = mate.replace("4,rB,3/8/8/wK", "8/2,rB,5/3,bP,4/wK");
    let out = session(&format!("position fen {} moves b5b2\nquery result\n", mate));
    assert!(out.contains("response p3win"), "{}", out);
    let out = session(&format!(
        "position fen {} moves b5b2 a1a2\nquery result\n",
        mate
    ));
    assert!(out.contains("after the end of the game"), "{}", out);
    // A bad position text is refused with its reason on one line.
    let out = session("position fen 7,rK/8/8/8/8/8/8/wK,7 w aga\n");
    assert!(out.contains("Black is a ghost with no pawn"), "{}", out);
    // Three seats' clocks and a search at fixed nodes.
    let out =
        session("position startpos\ngo nodes 3000 p1time 100000 p2time 100000 p3time 100000\n");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{}", out);
}
