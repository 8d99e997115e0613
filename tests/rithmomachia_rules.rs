//! Rules of rithmomachia (docs/rules/rithmomachia.md), one test per rule.
//!
//! Positions are written in the engine's position text. Most tests use two far-away "dummy"
//! pieces (White S991 on a1, Black s997 on h16: primes no pattern can reach) so that both sides
//! always have a move, and put the pieces under test in the middle of the board.

use quatre::game::*;
use quatre::games::rithmomachia::*;

type G = Rithmomachia;

const DUMMIES: &str = "a1=S991 h16=s997";

fn opts() -> RuleOptions {
    RuleOptions::of::<G>()
}

fn pos_with(o: &RuleOptions, t: &str) -> G {
    G::from_text(t, o).unwrap_or_else(|e| panic!("bad test position {}: {}", t, e))
}

/// White to move (phase 1 already made), the dummies plus `pieces`.
fn white(pieces: &str) -> G {
    pos_with(&opts(), &format!("turn=w ply=0 {} {}", DUMMIES, pieces))
}

fn sq(s: &str) -> usize {
    parse_square(s).unwrap()
}

fn at(g: &G, s: &str) -> Option<String> {
    g.piece_at(sq(s))
}

fn moves(g: &G) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut s: Vec<String> = v.iter().map(|&m| g.format_move(m)).collect();
    s.sort();
    s
}

fn play(g: &mut G, m: &str) {
    let mv = g.parse_move(m).unwrap();
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.contains(&mv), "{} is not legal in {}", m, g.to_text());
    g.play(mv);
    assert_eq!(g.hash(), g.full_hash());
}

fn winner(g: &G) -> Option<(Seat, &'static str)> {
    match g.status() {
        Status::Over(o) => Some((o.winner().unwrap_or(9), o.reason)),
        Status::Ongoing => None,
    }
}

// ---------------------------------------------------------------- board, layout, notation

const START_TEXT: &str = "turn=b ply=0 pb=0/0/0 pw=0/0/0 a1=S289 b1=S169 g1=S81 h1=S25 a2=S153 \
b2=P:S36/S25/T16/T9/C4/C1 c2=T49 d2=T42 e2=T20 f2=T25 g2=S45 h2=S15 a3=T81 b3=T72 c3=C64 d3=C36 \
e3=C16 f3=C4 g3=T6 h3=T9 c4=C8 d4=C6 e4=C4 f4=C2 c13=c3 d13=c5 e13=c7 f13=c9 a14=t16 b14=t12 \
c14=c9 d14=c25 e14=c49 f14=c81 g14=t90 h14=t100 a15=s28 b15=s66 c15=t36 d15=t30 e15=t56 f15=t64 \
g15=s120 h15=p:s64/s49/t36/t25/c16 a16=s49 b16=s121 g16=s225 h16=s361";

#[test]
fn start_position_is_boissiere_layout() {
    let g = G::start(&opts()).unwrap();
    assert_eq!(g.to_text(), START_TEXT);
    assert_eq!(g.to_move(), 0, "Black (seat 0) moves first");
    assert_eq!(g.status(), Status::Ongoing);
    // Piece values of each side: 24 pieces, pyramids 91 and 190.
    let specs = g.piece_specs();
    assert_eq!(specs.len(), 48);
    let total = |side: u8| -> u32 { specs.iter().filter(|p| p.side == side).map(|p| p.val).sum() };
    assert_eq!(
        specs
            .iter()
            .find(|p| p.shape == PYRAMID && p.side == WHITE)
            .unwrap()
            .val,
        91
    );
    assert_eq!(
        specs
            .iter()
            .find(|p| p.shape == PYRAMID && p.side == BLACK)
            .unwrap()
            .val,
        190
    );
    assert_eq!(
        total(WHITE),
        2 + 4
            + 6
            + 8
            + 4
            + 16
            + 36
            + 64
            + 6
            + 20
            + 42
            + 72
            + 9
            + 25
            + 49
            + 81
            + 15
            + 45
            + 153
            + 25
            + 81
            + 169
            + 289
            + 91
    );
    assert_eq!(
        total(BLACK),
        3 + 5
            + 7
            + 9
            + 9
            + 25
            + 49
            + 81
            + 12
            + 30
            + 56
            + 90
            + 16
            + 36
            + 64
            + 100
            + 28
            + 66
            + 120
            + 49
            + 121
            + 225
            + 361
            + 190
    );
    let d = g.display();
    assert!(
        d.contains("s361") && d.contains("S289") && d.contains("P91") && d.contains("p190"),
        "{}",
        d
    );
    assert!(
        d.lines().next().unwrap().trim_start().starts_with("16"),
        "rank 16 on top:\n{}",
        d
    );
}

#[test]
fn forward_layout_shifts_both_armies_two_ranks() {
    let g = G::start(&opts().with("Layout", "forward")).unwrap();
    assert_eq!(at(&g, "a3").as_deref(), Some("S289"));
    assert_eq!(at(&g, "b4").as_deref(), Some("P:S36/S25/T16/T9/C4/C1"));
    assert_eq!(at(&g, "f6").as_deref(), Some("C2"));
    assert_eq!(at(&g, "c11").as_deref(), Some("c3"));
    assert_eq!(at(&g, "h14").as_deref(), Some("s361"));
    assert_eq!(at(&g, "a1"), None);
    // Black's first phase 1 already takes White's T72 on b5: the t12 on b12 has 6 empty squares
    // between them, 12 x 6 = 72 (assault).
    assert_eq!(at(&g, "b5"), None);
    assert_eq!(g.piece_specs().len(), 47);
    assert_eq!(
        g.prisoners(0),
        Prisoners {
            count: 1,
            sum: 72,
            digits: 2
        }
    );
}

/// 23 x 23: the two armies do not meet in two plies.
const P2: u64 = 529;
const P3: u64 = 13361;
const P4: u64 = 336893;

#[test]
fn start_perft_figures() {
    let g = G::start(&opts()).unwrap();
    // Counted by hand: 6 (rank 13) + 4 (rank 14) + 5 (rank 15, pyramid 2) + 8 (rank 16).
    assert_eq!(perft(&g, 1), 23);
    // Regression figures of this engine (depth 4 also in speed_report).
    assert_eq!(perft(&g, 2), P2);
    assert_eq!(perft(&g, 3), P3);
    assert_eq!(perft(&g, 4), P4);
    // Mirror check: forward layout has more room to move.
    let f = G::start(&opts().with("Layout", "forward")).unwrap();
    assert!(perft(&f, 1) > 23);
}

#[test]
fn move_notation_round_trips_and_rejects_garbage() {
    let g = G::start(&opts()).unwrap();
    let m = g.parse_move("c13c12").unwrap();
    assert_eq!(g.format_move(m), "c13c12");
    assert_eq!(g.format_move(g.parse_move("h16h13").unwrap()), "h16h13");
    for bad in [
        "", "c13", "c13c", "i1a1", "a0a1", "a17a16", "a1a1", "13c12c", "c13-c12", "a01a2",
    ] {
        assert!(g.parse_move(bad).is_err(), "{} should not parse", bad);
    }
}

#[test]
fn position_text_rejects_bad_input() {
    let o = opts();
    for bad in [
        "",
        "ply=0 a1=S3",
        "turn=x",
        "turn=b a1=S3 a1=C4",
        "turn=b i9=S3",
        "turn=b a1=Q3",
        "turn=b a1=S0",
        "turn=b a1=Sx",
        "turn=b a1=P36",
        "turn=b a1=P:S36/s25",
        "turn=b pb=1/2",
        "turn=b over=z:corps",
        "turn=b over=b:nothing",
        "turn=b nonsense",
    ] {
        assert!(
            G::from_text(bad, &o).is_err(),
            "'{}' should be rejected",
            bad
        );
    }
    let g = G::start(&o).unwrap();
    let back = G::from_text(&g.to_text(), &o).unwrap();
    assert_eq!(back.to_text(), g.to_text());
    assert_eq!(back.hash(), g.hash());
}

#[test]
fn garbage_input_never_panics() {
    let o = opts();
    let g = G::start(&o).unwrap();
    let mut rng = rng_from_seed(11);
    use rand::Rng;
    let alphabet: Vec<char> = "abh1690=/:+ -SsPpCcTtwx\u{e9}".chars().collect();
    for i in 0..3000 {
        let text: String = if i % 2 == 0 {
            // Mutations of the start text.
            let mut c: Vec<char> = START_TEXT.chars().collect();
            for _ in 0..rng.random_range(1..6) {
                let k = rng.random_range(0..c.len());
                c[k] = alphabet[rng.random_range(0..alphabet.len())];
            }
            c.into_iter().collect()
        } else {
            (0..rng.random_range(0..12))
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect()
        };
        let _ = g.parse_move(&text);
        if let Ok(p) = G::from_text(&text, &o) {
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            let _ = (p.to_text(), p.display(), p.evaluate(0));
        }
    }
    let big = "turn=w ply=4294967295 pb=4294967295/4294967295/4294967295 pw=0/0/0 d4=C8 d6=c8 h1=S9999 a16=s9999";
    let mut p = G::from_text(big, &o.clone().with("MaxPlies", "0")).unwrap();
    let m = p.parse_move("d4d5").unwrap();
    p.play(m);
    assert!(G::from_text(
        "turn=b a1=P:S9999/S9999/S9999/S9999/S9999/S9999/S9999/S9999",
        &o
    )
    .is_err());
}

// ---------------------------------------------------------------- moves

#[test]
fn circles_move_one_triangles_two_squares_three() {
    let g = white("d5=C7 d8=T11 d12=S13");
    let m = moves(&g);
    for mv in [
        "d5c5", "d5e5", "d5d4", "d5d6", "d8d10", "d8d6", "d8b8", "d8f8", "d12d15", "d12d9",
        "d12a12", "d12g12",
    ] {
        assert!(m.contains(&mv.to_string()), "{} missing from {:?}", mv, m);
    }
    assert!(
        !m.contains(&"d5d7".to_string())
            && !m.contains(&"d8d9".to_string())
            && !m.contains(&"d12d14".to_string())
    );
}

#[test]
fn moves_pass_own_pieces_but_never_enemy_pieces() {
    // Square on d4: passes the own circle on d5 to d7; the enemy on e4 blocks g4.
    let g = white("d4=S13 d5=C7 e4=c11 c4=C17");
    let m = moves(&g);
    assert!(m.contains(&"d4d7".to_string()));
    assert!(
        !m.contains(&"d4g4".to_string()),
        "an enemy piece cannot be passed over"
    );
    assert!(
        m.contains(&"d4a4".to_string()),
        "own piece on c4 can be passed"
    );
    // Destination must be empty.
    let g = white("d4=S13 d7=C7");
    assert!(!moves(&g).contains(&"d4d7".to_string()));
}

#[test]
fn pyramid_moves_as_any_remaining_layer() {
    let g = white("d6=P:S36/S25/T16/T9/C4/C1");
    let from_d6: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("d6"))
        .collect();
    assert_eq!(from_d6.len(), 12, "{:?}", from_d6);
    // Without its circles it no longer moves one square.
    let g = white("d6=P:S36/S25/T16/T9");
    let from_d6: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("d6"))
        .collect();
    assert_eq!(from_d6.len(), 8, "{:?}", from_d6);
    assert!(!from_d6.contains(&"d6d7".to_string()));
}

// ---------------------------------------------------------------- capture patterns

#[test]
fn meeting_takes_an_adjacent_equal_value() {
    let mut g = white("d4=C8 d6=c8");
    play(&mut g, "d4d5");
    assert_eq!(at(&g, "d6"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 8,
            digits: 1
        }
    );
    // Not equal: nothing.
    let mut g = white("d4=C8 d6=c9");
    play(&mut g, "d4d5");
    assert_eq!(at(&g, "d6").as_deref(), Some("c9"));
}

#[test]
fn assault_by_multiplication() {
    // 3 x 5 empty squares (a7..a11) = 15.
    let mut g = white("b6=C3 a12=t15");
    play(&mut g, "b6a6");
    assert_eq!(at(&g, "a12"), None);
    assert_eq!(g.prisoners(1).sum, 15);
}

#[test]
fn assault_by_division() {
    // 60 / 5 empty squares (b6..b10) = 12.
    let mut g = white("c5=C60 b11=t12");
    play(&mut g, "c5b5");
    assert_eq!(at(&g, "b11"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 12,
            digits: 2
        }
    );
}

#[test]
fn assault_needs_two_empty_squares_and_a_clear_line() {
    // One square between: 7 x 1 = 7 does not count.
    let mut g = white("b5=C7 a7=c7");
    play(&mut g, "b5a5");
    assert_eq!(at(&g, "a7").as_deref(), Some("c7"));
    // A piece in between blocks the assault.
    let mut g = white("b6=C3 a12=t15 a9=C97");
    play(&mut g, "b6a6");
    assert_eq!(at(&g, "a12").as_deref(), Some("t15"));
}

#[test]
fn ambush_of_two_by_addition() {
    let mut g = white("c8=C4 e7=C8 d8=t12");
    play(&mut g, "e7e8");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(g.prisoners(1).sum, 12);
}

#[test]
fn ambush_of_two_by_subtraction() {
    let mut g = white("c8=C20 e7=C8 d8=t12");
    play(&mut g, "e7e8");
    assert_eq!(at(&g, "d8"), None);
}

#[test]
fn ambush_of_three_with_subtraction_9_16_minus_5() {
    // 9 (c8) + 16 (d9) - 5 (e8) = 20; no pair makes 20.
    let mut g = white("c8=C9 d9=C16 e7=C5 d8=t20");
    play(&mut g, "e7e8");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(g.prisoners(1).sum, 20);
    // With only two of them beside it nothing happens.
    let mut g = white("c8=C9 e7=C5 d8=t20");
    play(&mut g, "e7e8");
    assert_eq!(at(&g, "d8").as_deref(), Some("t20"));
}

#[test]
fn siege_in_a_corner_uses_edges_as_walls() {
    let g0 = pos_with(
        &opts(),
        "turn=w ply=0 h1=S991 h15=s997 a16=c50 a15=S11 c16=C13",
    );
    let mut g = g0.clone();
    play(&mut g, "c16b16");
    assert_eq!(at(&g, "a16"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 50,
            digits: 2
        }
    );
}

#[test]
fn siege_in_the_middle_needs_four_attackers() {
    let mut g = white("d8=c50 c8=S11 e8=S17 d9=S19 d6=C23");
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    // Three of four: nothing (11, 17, 19, no sum or difference is 50).
    let mut g = white("d8=c50 c8=S11 e8=S17 d9=S19 d5=C23");
    play(&mut g, "d5d6");
    assert_eq!(at(&g, "d8").as_deref(), Some("c50"));
}

#[test]
fn progression_arithmetic_with_spacing_two_target_at_the_end() {
    // a10 (10), c10 (20), e10 (30), b10 and d10 empty.
    let mut g = white("a10=c10 c10=C20 e9=C30");
    play(&mut g, "e9e10");
    assert_eq!(at(&g, "a10"), None);
}

#[test]
fn progression_geometric_target_in_the_middle() {
    // 2 (a6), 4 (c6), 8 (e6).
    let mut g = white("a6=C2 c6=c4 e5=C8");
    play(&mut g, "e5e6");
    assert_eq!(at(&g, "c6"), None);
}

#[test]
fn progression_harmonic_4_6_12() {
    // 4 (a5), 6 (c5), 12 (e5): 12/4 = (12-6)/(6-4).
    let mut g = white("a5=C4 c5=c6 e4=C12");
    play(&mut g, "e4e5");
    assert_eq!(at(&g, "c5"), None);
    // The same values with the target at an end: 12 (a9), 6 (b9), 4 (c9).
    let mut g = white("a9=c12 b9=C6 c10=C4");
    play(&mut g, "c10c9");
    assert_eq!(at(&g, "a9"), None);
}

#[test]
fn progression_needs_equal_spacing_and_empty_squares() {
    // 2 (a6), 4 (c6), 8 (g6): unequal spacing.
    let mut g = white("a6=C2 c6=c4 g5=C8");
    play(&mut g, "g5g6");
    assert_eq!(at(&g, "c6").as_deref(), Some("c4"));
    // 10, 20, 30 at a10, c10, e10 with a piece on b10 between: the target's first neighbour is not
    // at the same spacing.
    let mut g = white("a10=c10 b10=c97 c10=C20 e9=C30");
    play(&mut g, "e9e10");
    assert_eq!(at(&g, "a10").as_deref(), Some("c10"));
}

// ---------------------------------------------------------------- pyramids

const BLACK_PYR: &str = "p:s64/s49/t36/t25/c16";

#[test]
fn pyramid_layer_hit_takes_only_that_layer() {
    let mut g = white(&format!("d8={} d6=C25", BLACK_PYR));
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8").as_deref(), Some("p:s64/s49/t36/c16"));
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 25,
            digits: 2
        }
    );
}

#[test]
fn pyramid_base_hit_takes_it_whole() {
    let mut g = white(&format!("d8={} d6=C64", BLACK_PYR));
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 190,
            digits: 3
        }
    );
}

#[test]
fn pyramid_total_hit_takes_it_whole() {
    let mut g = white(&format!("d8={} d6=C190", BLACK_PYR));
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(g.prisoners(1).sum, 190);
}

#[test]
fn pyramid_under_siege_is_taken_whole() {
    let mut g = white(&format!("d8={} c8=S11 e8=S13 d9=S17 d6=C19", BLACK_PYR));
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 190,
            digits: 3
        }
    );
}

#[test]
fn pyramid_several_layer_hits_in_one_phase() {
    // The moved 36 meets the 36 layer, and with the 20 on c8 ambushes the 16 layer (36 - 20).
    let mut g = white(&format!("d8={} c8=C20 e6=T36", BLACK_PYR));
    play(&mut g, "e6e8");
    assert_eq!(at(&g, "d8").as_deref(), Some("p:s64/s49/t25"));
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 2,
            sum: 52,
            digits: 4
        }
    );
    // A whole hit in the same phase wins: 36 + 28 = 64, the base.
    let mut g = white(&format!("d8={} c8=C28 e6=T36", BLACK_PYR));
    play(&mut g, "e6e8");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 1,
            sum: 190,
            digits: 3
        }
    );
}

#[test]
fn pyramid_attacks_with_a_layer_or_its_total() {
    // The white pyramid's 9 layer meets a black 9.
    let mut g = white("d6=P:S36/S25/T16/T9/C4/C1 d8=c9");
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    // Its total 91 meets a black 91.
    let mut g = white("d6=P:S36/S25/T16/T9/C4/C1 d8=c91");
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8"), None);
    // One value per pattern: 36 + 25 from the same pyramid is no ambush of 61.
    let mut g = white("d6=P:S36/S25/T16/T9/C4/C1 d8=c61");
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8").as_deref(), Some("c61"));
}

// ---------------------------------------------------------------- the turn

#[test]
fn phase1_captures_at_the_start_of_the_movers_turn() {
    // Black moves its blocker off the a-file: at the start of White's turn the 3 on a2 takes the
    // 15 on a8 by assault (5 empty squares), before White moves.
    let mut g = pos_with(&opts(), "turn=b ply=0 h1=S991 h16=s997 a2=C3 a8=t15 a5=c97");
    play(&mut g, "a5b5");
    assert_eq!(g.to_move(), 1);
    assert_eq!(at(&g, "a8"), None, "taken in White's phase 1");
    assert_eq!(g.prisoners(1).count, 1);
    // A pending turn (`turn=w+`) runs the phase 1 when loaded.
    let g = pos_with(&opts(), "turn=w+ ply=0 h1=S991 h16=s997 a2=C3 a8=t15");
    assert_eq!(at(&g, "a8"), None);
    assert!(g.to_text().starts_with("turn=w ply=0 pb=0/0/0 pw=1/15/2"));
}

#[test]
fn phase3_needs_the_moved_piece() {
    // White moves its blocker away: the progression 10, 20, 30 it opens (a2, a4, a6) does not
    // include the moved piece, so it waits for White's next phase 1.
    let mut g = pos_with(
        &opts(),
        "turn=w ply=0 h1=S991 h16=s997 a2=C10 a4=c20 a5=C97 a6=C30",
    );
    play(&mut g, "a5b5");
    assert_eq!(at(&g, "a4").as_deref(), Some("c20"));
    play(&mut g, "h16h13");
    assert_eq!(at(&g, "a4"), None);
}

#[test]
fn captures_of_a_phase_are_simultaneous() {
    // White's phase 1: the 7 meets c7 on a5; removing it would open the 3's assault on a8, but
    // the phase's captures are found on the board as it stood.
    let g = pos_with(
        &opts(),
        "turn=w+ ply=0 h1=S991 h16=s997 a2=C3 a5=c7 b5=C7 a8=t15",
    );
    assert_eq!(at(&g, "a5"), None);
    assert_eq!(at(&g, "a8").as_deref(), Some("t15"));
    assert_eq!(g.prisoners(1).count, 1);
}

// ---------------------------------------------------------------- captured pieces: convert

fn convert() -> RuleOptions {
    opts().with("Captures", "convert")
}

#[test]
fn convert_turns_a_captured_piece_over() {
    let mut g = pos_with(&convert(), &format!("turn=w {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(at(&g, "d6").as_deref(), Some("C8"));
    assert_eq!(g.prisoners(1).count, 1);
}

#[test]
fn convert_mode_chains_in_phase3() {
    // The moved 8 takes d8; the converted d8 takes e8; that one takes f8.
    let mut g = pos_with(
        &convert(),
        &format!("turn=w {} b8=C8 d8=c8 e8=c8 f8=c8", DUMMIES),
    );
    play(&mut g, "b8c8");
    for s in ["c8", "d8", "e8", "f8"] {
        assert_eq!(at(&g, s).as_deref(), Some("C8"), "{}", s);
    }
    assert_eq!(
        g.prisoners(1),
        Prisoners {
            count: 3,
            sum: 24,
            digits: 3
        }
    );
    // In remove mode only the first goes.
    let mut g = pos_with(
        &opts(),
        &format!("turn=w {} b8=C8 d8=c8 e8=c8 f8=c8", DUMMIES),
    );
    play(&mut g, "b8c8");
    assert_eq!(at(&g, "d8"), None);
    assert_eq!(at(&g, "e8").as_deref(), Some("c8"));
}

#[test]
fn convert_mode_phase1_is_a_single_pass() {
    let g = pos_with(
        &convert(),
        "turn=w+ ply=0 h1=S991 h16=s997 c8=C8 d8=c8 e8=c8",
    );
    assert_eq!(at(&g, "d8").as_deref(), Some("C8"));
    assert_eq!(
        at(&g, "e8").as_deref(),
        Some("c8"),
        "no chaining in phase 1"
    );
}

#[test]
fn convert_mode_pyramid_keeps_its_layers() {
    let mut g = pos_with(
        &convert(),
        &format!("turn=w {} d8={} d6=C64", DUMMIES, BLACK_PYR),
    );
    play(&mut g, "d6d7");
    assert_eq!(at(&g, "d8").as_deref(), Some("P:S64/S49/T36/T25/C16"));
    assert_eq!(g.prisoners(1).sum, 190);
}

// ---------------------------------------------------------------- victories

fn vopts(v: &str) -> RuleOptions {
    opts().with("Victory", v)
}

#[test]
fn victory_corps_counts_pieces() {
    let o = vopts("corps").with("N", "2");
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "corps victory")));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.is_empty());
    // One short: goes on.
    let mut g = pos_with(&o, &format!("turn=w {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_bien_sums_values() {
    let o = vopts("bien").with("S", "20");
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C15 d6=c15", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "bien victory")));
    let mut g = pos_with(&o, &format!("turn=w pw=1/4/1 {} d4=C15 d6=c15", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_proces_needs_the_exact_digit_count() {
    let o = vopts("proces").with("S", "20").with("C", "3");
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C15 d6=c15", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "proces victory")));
    // 5 + 150 = 155 >= 20 but 4 digits.
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C150 d6=c150", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_corps_bien_needs_both() {
    let o = vopts("corps-bien").with("N", "2").with("S", "30");
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C25 d6=c25", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "corps-bien victory")));
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C15 d6=c15", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), None, "2 pieces but only 20");
}

#[test]
fn victory_honore_needs_count_sum_and_digits() {
    let o = vopts("honore")
        .with("N", "2")
        .with("S", "30")
        .with("C", "3");
    let mut g = pos_with(&o, &format!("turn=w pw=1/5/1 {} d4=C25 d6=c25", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "honore victory")));
    let mut g = pos_with(&o, &format!("turn=w pw=1/10/2 {} d4=C25 d6=c25", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), None, "4 digits");
}

#[test]
fn victory_grande_three_in_a_row_in_the_enemy_half() {
    let o = vopts("grande");
    let mut g = pos_with(&o, &format!("turn=w {} a10=C2 b10=C4 c9=C6", DUMMIES));
    play(&mut g, "c9c10");
    assert_eq!(winner(&g), Some((1, "grande victory")));
    // Diagonal counts too: a10, b11, c12 = 2, 4, 8 geometric.
    let mut g = pos_with(&o, &format!("turn=w {} a10=C2 b11=C4 c13=C8", DUMMIES));
    play(&mut g, "c13c12");
    assert_eq!(winner(&g), Some((1, "grande victory")));
    // In one's own half it is nothing.
    let mut g = pos_with(&o, &format!("turn=w {} a5=C2 b5=C4 c4=C6", DUMMIES));
    play(&mut g, "c4c5");
    assert_eq!(winner(&g), None);
    // Not a progression: nothing.
    let mut g = pos_with(&o, &format!("turn=w {} a10=C2 b10=C5 c9=C6", DUMMIES));
    play(&mut g, "c9c10");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_majeure_two_kinds_among_four() {
    let o = vopts("majeure");
    // 2 3 4 8: (2,3,4) arithmetic, (2,4,8) geometric.
    let mut g = pos_with(
        &o,
        &format!("turn=w {} a12=C2 b12=C3 c12=C4 d11=C8", DUMMIES),
    );
    play(&mut g, "d11d12");
    assert_eq!(winner(&g), Some((1, "majeure victory")));
    // 2 4 6 7: only arithmetic.
    let mut g = pos_with(
        &o,
        &format!("turn=w {} a12=C2 b12=C4 c12=C6 d11=C7", DUMMIES),
    );
    play(&mut g, "d11d12");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_excellente_all_three_kinds() {
    let o = vopts("excellente");
    // 4 6 9 12: (4,6,9) geometric, (6,9,12) arithmetic, (4,6,12) harmonic; any order on the line.
    let mut g = pos_with(
        &o,
        &format!("turn=w {} a12=C9 b12=C4 c12=C12 d11=C6", DUMMIES),
    );
    play(&mut g, "d11d12");
    assert_eq!(winner(&g), Some((1, "excellente victory")));
    // 2 3 4 8 is only majeure.
    let mut g = pos_with(
        &o,
        &format!("turn=w {} a12=C2 b12=C3 c12=C4 d11=C8", DUMMIES),
    );
    play(&mut g, "d11d12");
    assert_eq!(winner(&g), None);
}

#[test]
fn victory_of_the_other_side_is_checked_after_the_movers() {
    // White takes the 16 layer of Black's pyramid on b3; its total drops from 80 to 64 and
    // 32, 64, 96 completes Black's grande formation in White's half.
    let o = vopts("grande");
    let mut g = pos_with(
        &o,
        &format!("turn=w {} a3=c32 b3=p:s64/c16 c3=c96 b5=C16", DUMMIES),
    );
    play(&mut g, "b5b4");
    assert_eq!(at(&g, "b3").as_deref(), Some("p:s64"));
    assert_eq!(winner(&g), Some((0, "grande victory")));
}

#[test]
fn mover_victory_comes_first_when_both_qualify() {
    let o = vopts("corps").with("N", "1");
    let mut g = pos_with(&o, &format!("turn=w pb=1/3/1 {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "corps victory")));
}

#[test]
fn no_legal_move_loses() {
    // Black's two circles in the a16 corner, boxed in by White (no siege: each has a friend).
    let t = "h1=S200 a15=S100 b15=S101 c16=S102 a16=c5 b16=c7";
    let mut g = pos_with(&opts(), &format!("turn=w ply=0 {}", t));
    play(&mut g, "h1h4");
    assert_eq!(winner(&g), Some((1, "no legal move")));
    let g = pos_with(&opts(), &format!("turn=b+ ply=0 {}", t));
    assert_eq!(winner(&g), Some((1, "no legal move")));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.is_empty());
}

#[test]
fn max_plies_draw_and_a_win_on_the_last_ply_beats_it() {
    let o = opts().with("MaxPlies", "1");
    let mut g = G::start(&o).unwrap();
    play(&mut g, "c13c12");
    assert_eq!(winner(&g), Some((9, "MaxPlies")));
    let o = opts().with("MaxPlies", "5").with("N", "1");
    let mut g = pos_with(&o, &format!("turn=w ply=4 {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((1, "corps victory")));
    let mut g = pos_with(&o, &format!("turn=w ply=4 {} d4=C8 d6=c9", DUMMIES));
    play(&mut g, "d4d5");
    assert_eq!(winner(&g), Some((9, "MaxPlies")));
    // MaxPlies=0 never stops.
    let o = opts().with("MaxPlies", "0");
    let mut g = G::start(&o).unwrap();
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    let n = random_playout(&mut g, &mut rng, 600, &mut buf);
    assert!(n == 600 || g.status().is_over() && winner(&g).unwrap().1 != "MaxPlies");
}

#[test]
fn finished_position_text_round_trips() {
    let o = vopts("corps").with("N", "1");
    let mut g = pos_with(&o, &format!("turn=w {} d4=C8 d6=c8", DUMMIES));
    play(&mut g, "d4d5");
    let t = g.to_text();
    assert!(t.contains("over=w:corps"), "{}", t);
    let back = G::from_text(&t, &o).unwrap();
    assert_eq!(back.to_text(), t);
    assert_eq!(back.status(), g.status());
}

// ---------------------------------------------------------------- search hooks

#[test]
fn evaluation_prefers_prisoners_and_flags_capturing_moves() {
    let g = white("d4=C8 d6=c8");
    let mv = g.parse_move("d4d5").unwrap();
    let quiet = g.parse_move("d4c4").unwrap();
    assert!(g.is_noisy(mv));
    assert!(!g.is_noisy(quiet));
    assert!(g.move_priority(mv) > g.move_priority(quiet));
    let mut a = g.clone();
    a.play(mv);
    assert!(a.evaluate(1) > g.evaluate(1));
    assert_eq!(a.evaluate(0), -a.evaluate(1));
    let s = G::start(&opts()).unwrap();
    assert!(s.evaluate(0).abs() < 100);
}

// ---------------------------------------------------------------- invariants

#[test]
fn random_move_is_uniform_over_legal_moves() {
    // A pyramid without its circles (8 moves), a circle, a triangle and a square.
    let g = white("d6=P:S36/S25/T16/T9 d3=C7 f10=T11 b12=S13");
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    let mut rng = rng_from_seed(5);
    let mut buf = Vec::new();
    let draws = 40 * legal.len() * 100;
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        let m = g.random_move(&mut rng, &mut buf).unwrap();
        *counts.entry(m).or_insert(0usize) += 1;
    }
    assert_eq!(counts.len(), legal.len());
    let expect = (draws / legal.len()) as f64;
    for (m, c) in counts {
        assert!(
            (c as f64 - expect).abs() < 0.1 * expect,
            "{} drawn {} times, expected {}",
            g.format_move(m),
            c,
            expect
        );
    }
}

#[test]
fn hash_covers_side_to_move_and_prisoners() {
    let a = pos_with(&opts(), &format!("turn=w {} d4=C8", DUMMIES));
    let b = pos_with(&opts(), &format!("turn=b {} d4=C8", DUMMIES));
    let c = pos_with(&opts(), &format!("turn=w pw=1/5/1 {} d4=C8", DUMMIES));
    let d = pos_with(&opts(), &format!("turn=w {} d4=c8", DUMMIES));
    let hs = [a.hash(), b.hash(), c.hash(), d.hash()];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(hs[i], hs[j]);
        }
    }
}

#[test]
fn random_games_keep_invariants_default_options() {
    let g = G::start(&opts()).unwrap();
    check_invariants(&g, 40, 400, 1).unwrap();
}

#[test]
fn random_games_keep_invariants_other_options() {
    for (i, o) in [
        opts().with("Captures", "convert").with("Layout", "forward"),
        opts()
            .with("Victory", "bien")
            .with("S", "300")
            .with("Layout", "forward"),
        opts()
            .with("Victory", "grande")
            .with("Captures", "convert")
            .with("MaxPlies", "600"),
        opts()
            .with("Victory", "honore")
            .with("N", "4")
            .with("S", "100")
            .with("C", "6"),
        opts()
            .with("Victory", "corps")
            .with("N", "3")
            .with("Layout", "forward"),
    ]
    .iter()
    .enumerate()
    {
        let g = G::start(o).unwrap();
        check_invariants(&g, 12, 600, 10 + i as u64).unwrap();
    }
}

#[test]
fn random_games_end_properly() {
    // Short corps games end by victory; every finished game has a reason and no moves.
    let o = opts().with("N", "3").with("Layout", "forward");
    let mut rng = rng_from_seed(7);
    let mut buf = Vec::new();
    let mut wins = 0;
    for _ in 0..40 {
        let mut g = G::start(&o).unwrap();
        random_playout(&mut g, &mut rng, 10_000, &mut buf);
        assert!(g.status().is_over());
        if winner(&g).map(|w| w.0 < 2) == Some(true) {
            wins += 1;
        }
    }
    assert!(wins > 20, "{} of 40", wins);
}

/// CPU time of this thread in seconds (the machine may be shared: wall time would lie).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // Fields 14 and 15 (utime, stime) are at 11 and 12 after the command name; clock ticks of 1/100 s.
    if f.len() > 12 {
        (f[11] + f[12]) / 100.0
    } else {
        0.0
    }
}

#[test]
#[ignore]
fn speed_report() {
    use std::time::Instant;
    let g = G::start(&opts()).unwrap();
    let t = Instant::now();
    let n = perft(&g, 4);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "perft(4) = {} leaves in {:.3}s: {:.0} leaves/s (bulk-counted)",
        n,
        dt,
        n as f64 / dt
    );
    for (name, o, max) in [
        ("default, 400 plies", opts(), 400),
        ("MaxPlies=0, 2000 plies", opts().with("MaxPlies", "0"), 2000),
        ("convert", opts().with("Captures", "convert"), 400),
        ("grande", opts().with("Victory", "grande"), 400),
    ] {
        let start = G::start(&o).unwrap();
        let mut rng = rng_from_seed(1);
        let mut buf = Vec::new();
        let t = Instant::now();
        let cpu0 = cpu_seconds();
        let mut moves = 0usize;
        let mut games = 0;
        while t.elapsed().as_secs_f64() < 2.0 {
            let mut g = start.clone();
            moves += random_playout(&mut g, &mut rng, max, &mut buf);
            games += 1;
        }
        let dt = t.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu0;
        println!(
            "random playouts ({}): {} games, {} moves in {:.2}s wall / {:.2}s cpu: {:.0} moves/s wall, {:.0} moves/cpu-s",
            name,
            games,
            moves,
            dt,
            cpu,
            moves as f64 / dt,
            moves as f64 / cpu
        );
    }
}

#[test]
#[ignore]
fn long_random_invariants_and_outcomes() {
    for o in [
        opts(),
        opts().with("Captures", "convert"),
        opts().with("Victory", "bien").with("Layout", "forward"),
        opts().with("Victory", "majeure").with("MaxPlies", "2000"),
    ] {
        let g = G::start(&o).unwrap();
        check_invariants(&g, 200, 2000, 99).unwrap();
        let mut rng = rng_from_seed(4);
        let mut buf = Vec::new();
        let mut reasons = std::collections::BTreeMap::new();
        for _ in 0..2000 {
            let mut p = g.clone();
            random_playout(&mut p, &mut rng, 100_000, &mut buf);
            *reasons
                .entry(winner(&p).map(|w| w.1).unwrap_or("unfinished"))
                .or_insert(0) += 1;
        }
        println!("{:?}: {:?}", o.iter().collect::<Vec<_>>(), reasons);
    }
}
