//! Rules tests for tesseract: one test per rule of docs/rules/tesseract.md.

use quatre::game::{
    check_invariants, perft, random_playout, rng_from_seed, Game, RuleOptions, Status,
};
use quatre::games::tesseract::{Move, Tesseract, START_TEXT};

fn opts() -> RuleOptions {
    RuleOptions::of::<Tesseract>()
}
fn pos(t: &str) -> Tesseract {
    Tesseract::from_text(t, &opts()).unwrap_or_else(|e| panic!("{}: {}", t, e))
}
fn pos_with(t: &str, o: &RuleOptions) -> Tesseract {
    Tesseract::from_text(t, o).unwrap_or_else(|e| panic!("{}: {}", t, e))
}
fn sq(n: &str) -> u8 {
    Tesseract::square(n).unwrap()
}
fn legal(g: &Tesseract) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}
fn texts(g: &Tesseract) -> Vec<String> {
    legal(g).into_iter().map(|m| g.format_move(m)).collect()
}
/// Non-drop, non-pivot moves of the piece on `from`.
fn moves_from(g: &Tesseract, from: &str) -> Vec<String> {
    let f = sq(from);
    legal(g)
        .into_iter()
        .filter(|m| m.kind == 0 && m.from == f)
        .map(|m| g.format_move(m))
        .collect()
}
fn is_legal(g: &Tesseract, m: &str) -> bool {
    match g.parse_move(m) {
        Ok(mv) => legal(g).contains(&mv),
        Err(_) => false,
    }
}
fn play(g: &mut Tesseract, m: &str) {
    let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{}", e));
    assert!(
        legal(g).contains(&mv),
        "{} should be legal in {}\n{}",
        m,
        g.to_text(),
        g.display()
    );
    g.play(mv);
    assert_eq!(g.hash(), g.full_hash());
}
fn winner(g: &Tesseract) -> Option<(usize, &'static str)> {
    match g.status() {
        Status::Over(o) => Some((o.winner().unwrap_or(9), o.reason)),
        Status::Ongoing => None,
    }
}

// ---------------------------------------------------------------- start and setup

#[test]
fn start_position_text_and_first_placements() {
    let g = Tesseract::start(&opts()).unwrap();
    assert_eq!(g.to_text(), START_TEXT);
    // White places T, S or P on any of its 30 camp points.
    assert_eq!(legal(&g).len(), 90);
    assert!(is_legal(&g, "T@h2") && is_legal(&g, "S@a3") && is_legal(&g, "P@o2"));
    let cf = Tesseract::start(&opts().with("CrossesFirst", "true")).unwrap();
    assert_eq!(cf.to_text(), START_TEXT);
    // Crosses first: centres on files b..n, ranks 4..12.
    assert_eq!(legal(&cf).len(), 13 * 9);
}

#[test]
fn setup_order_default_rejects_out_of_order_placements() {
    let mut g = Tesseract::start(&opts()).unwrap();
    for bad in [
        "X@h8", "s@h2h", "R@h2", "C@h2", "L@h2h", "T@h8", "T@h1", "T@h13",
    ] {
        assert!(
            !is_legal(&g, bad),
            "{} must be rejected at setup ply 1",
            bad
        );
    }
    play(&mut g, "T@h2");
    assert!(!is_legal(&g, "T@h3"), "Black places in its own camp");
    assert!(is_legal(&g, "T@h14") && is_legal(&g, "T@h13") && !is_legal(&g, "T@h15"));
    play(&mut g, "T@h14");
    assert!(!is_legal(&g, "T@g2"), "only one Tesseract");
    assert!(!is_legal(&g, "S@h2"), "occupied");
    play(&mut g, "S@g2");
    play(&mut g, "S@g14");
    assert!(!is_legal(&g, "S@f2"), "only one Star during setup");
    play(&mut g, "P@i2");
    play(&mut g, "P@i14");
    // Men done: now two small sliders each, either orientation, own camp.
    assert!(!is_legal(&g, "X@h8") && !is_legal(&g, "S@f2") && !is_legal(&g, "s@h8h"));
    let t = texts(&g);
    assert!(t.iter().all(|m| m.starts_with("s@")));
    assert_eq!(t.len(), 2 * 27);
    play(&mut g, "s@f2h");
    play(&mut g, "s@f14v");
    play(&mut g, "s@j2v");
    play(&mut g, "s@j14h");
    // Crosses in the neutral zone.
    assert!(texts(&g).iter().all(|m| m.starts_with("X@")));
    assert!(
        !is_legal(&g, "X@h3")
            && !is_legal(&g, "X@a8")
            && !is_legal(&g, "X@h13")
            && !is_legal(&g, "X@h15")
    );
    assert!(is_legal(&g, "X@h4"), "arm end may reach into the camp");
    play(&mut g, "X@h8");
    assert!(!is_legal(&g, "X@i9"), "footprints may not overlap");
    assert!(!is_legal(&g, "X@j8"), "footprints may not overlap");
    assert!(is_legal(&g, "X@k8"), "footprints may lie side by side");
    assert!(
        is_legal(&g, "X@j9"),
        "diagonal neighbour footprints do not overlap"
    );
    play(&mut g, "X@k8");
    play(&mut g, "X@c10");
    play(&mut g, "X@m12");
    assert!(g.in_play());
    assert_eq!(g.to_move(), 0);
    assert_eq!(g.ply(), 14);
    // Reserve after setup: S R C L L s s s.
    let t = g.to_text();
    assert!(t.ends_with(" SRCLLsss SRCLLsss"), "{}", t);
}

#[test]
fn setup_order_crosses_first_rejects_out_of_order_placements() {
    let o = opts().with("CrossesFirst", "true");
    let mut g = Tesseract::start(&o).unwrap();
    for bad in ["T@h2", "S@h2", "s@h2h", "X@h3", "X@a8"] {
        assert!(!is_legal(&g, bad), "{} rejected first", bad);
    }
    play(&mut g, "X@h4");
    play(&mut g, "X@h12");
    play(&mut g, "X@c8");
    play(&mut g, "X@m8");
    assert!(texts(&g)
        .iter()
        .all(|m| m.starts_with('T') || m.starts_with('S') || m.starts_with('P')));
    // h3 is an arm end of the cross at h4: no piece may be placed there.
    assert!(!is_legal(&g, "T@h3"));
    assert!(is_legal(&g, "T@h2"));
    for m in ["T@h2", "T@h14", "S@c3", "S@c13", "P@m3", "P@m13"] {
        play(&mut g, m);
    }
    assert!(!is_legal(&g, "S@d3") && !is_legal(&g, "X@h8"));
    for m in ["s@g3v", "s@g13h", "s@i3h", "s@i13v"] {
        play(&mut g, m);
    }
    assert!(g.in_play() && g.to_move() == 0 && g.ply() == 14);
}

#[test]
fn setup_positions_must_match_the_setup_step() {
    assert!(
        Tesseract::from_text("w setup:2 2 Th2 - TSSPRCLLsssssXX TSPRCLLsssssXX", &opts()).is_err()
    );
    assert!(Tesseract::from_text(
        "w setup:2 2 Th2 Th14 SSPRCLLsssssXX SSPRCLLsssssXX",
        &opts()
    )
    .is_ok());
    // No piece under a cross footprint during setup (e3 is an arm end of a cross centred e4).
    let ok = "b setup:13 13 Th2,Sb2,Pc2,sd2h,se3v,Xe5,Xk8 Th14,Sb14,Pc14,sd14h,se13v,Xe11 SRCLLsss SRCLLsssX";
    if let Err(e) = Tesseract::from_text(ok, &opts()) {
        panic!("{}", e);
    }
    assert!(Tesseract::from_text(&ok.replace("Xe5", "Xe4"), &opts()).is_err());
    // Crosses first: at ply 2 both sides have placed crosses, not men.
    let o = opts().with("CrossesFirst", "true");
    assert!(
        Tesseract::from_text("w setup:2 2 Th2 Th14 SSPRCLLsssssXX SSPRCLLsssssXX", &o).is_err()
    );
    assert!(Tesseract::from_text("w setup:2 2 Xh8 Xc8 TSSPRCLLsssssX TSSPRCLLsssssX", &o).is_ok());
}

// ---------------------------------------------------------------- men shapes (empty board, h8)

/// White man on h8, White Rectangle on b1 (so no endgame limit), Black Tesseract on a14.
fn lone(letter: char) -> Tesseract {
    pos(&format!("w play 20 Rb1,{}h8 Ta14 - -", letter))
}

#[test]
fn tesseract_moves_any_distance_in_eight_directions() {
    assert_eq!(moves_from(&lone('T'), "h8").len(), 56);
}

#[test]
fn cylinder_moves_at_most_two_points() {
    let g = pos("w play 20 Rb1,Ch8,Ta15 Ta14 - -");
    assert_eq!(moves_from(&g, "h8").len(), 16);
}

#[test]
fn star_moves_two_diagonal_then_perpendicular_diagonal() {
    let g = pos("w play 20 Rb1,Sh8,Ta15 Ta14 - -");
    let m = moves_from(&g, "h8");
    assert_eq!(m.len(), 40);
    assert!(m.contains(&"h8j10k9".to_string()) && m.contains(&"h8j10e15".to_string()));
    assert!(!m.iter().any(|x| x == "h8j10" || x == "h8i9"));
}

#[test]
fn star_two_corners_to_one_point_are_two_moves() {
    let g = pos("w play 20 Rb1,Sh8,Ta15 Ta14 - -");
    assert!(is_legal(&g, "h8j10l8") && is_legal(&g, "h8j6l8"));
    assert_ne!(
        g.parse_move("h8j10l8").unwrap(),
        g.parse_move("h8j6l8").unwrap()
    );
}

#[test]
fn pyramid_moves_two_straight_then_sideways() {
    let g = pos("w play 20 Rb1,Ph8,Ta15 Ta14 - -");
    let m = moves_from(&g, "h8");
    assert_eq!(m.len(), 56);
    assert!(m.contains(&"h8h10o10".to_string()) && m.contains(&"h8j8j1".to_string()));
    assert!(is_legal(&g, "h8h10i10") && !is_legal(&g, "h8h10"));
}

#[test]
fn rectangle_jumps_two_then_two_at_right_angle() {
    let g = pos("w play 20 Sb1,Rh8,Ta15 Ta14 - -");
    let m = moves_from(&g, "h8");
    assert_eq!(m.len(), 8, "{:?}", m);
    assert!(is_legal(&g, "h8h10j10") && is_legal(&g, "h8j8j10"));
}

#[test]
fn rectangle_jumps_over_men_and_sliders_but_not_crosses() {
    // Own man and sliders on the path do not stop it.
    let g = pos("w play 20 Sb1,Rh8,Sh9,Ta15,sh10h,Li10v Ta14 - -");
    assert!(is_legal(&g, "h8h10j10"));
    assert!(g.to_text().contains("Li10v"));
    // A cross footprint on the path stops it.
    let g = pos("w play 20 Sb1,Rh8,Ta15,Xi11 Ta14 - -");
    assert!(!is_legal(&g, "h8h10j10"), "i10 is an arm end");
    assert!(is_legal(&g, "h8j8j10"), "other path is clear");
}

// ---------------------------------------------------------------- captures by men

#[test]
fn tesseract_captures_by_jumping() {
    let mut g = pos("w play 20 Rb1,Th8 Ta14,Sh10 - -");
    let m = moves_from(&g, "h8");
    assert!(m.contains(&"h8h9".to_string()) && m.contains(&"h8h11".to_string()));
    assert!(
        !m.contains(&"h8h12".to_string()),
        "the capture ends the move"
    );
    assert!(g.is_capture(g.parse_move("h8h11").unwrap()));
    assert!(
        g.is_noisy(g.parse_move("h8h11").unwrap()) && !g.is_noisy(g.parse_move("h8h9").unwrap())
    );
    play(&mut g, "h8h11");
    assert_eq!(g.men_on_board(1, 'S'), 0);
    assert!(g.to_text().contains("Th11"));
}

#[test]
fn capture_needs_an_empty_landing_point_outside_crosses() {
    // landing occupied
    let g = pos("w play 20 Rb1,Th8 Ta14,Sh10,Ph11 - -");
    assert!(!is_legal(&g, "h8h11") && !is_legal(&g, "h8h12"));
    // landing on an arm end
    let g = pos("w play 20 Rb1,Th8,Xh12 Ta14,Sh10 - -");
    assert!(!is_legal(&g, "h8h11"));
    // landing on a slider
    let g = pos("w play 20 Rb1,Th8 Ta14,Sh10,sh11h - -");
    assert!(!is_legal(&g, "h8h11"));
}

#[test]
fn cylinder_captures_within_its_range() {
    let g = pos("w play 20 Rb1,Ch8,Ta15 Ta14,Sh9,Sj10 - -");
    assert!(is_legal(&g, "h8h10"), "jump over h9, landing at distance 2");
    assert!(
        is_legal(&g, "h8i9") && !is_legal(&g, "h8j10") && !is_legal(&g, "h8k11"),
        "landing beyond its 2 points"
    );
    let mut g = g;
    play(&mut g, "h8h10");
    assert_eq!(g.men_on_board(1, 'S'), 1);
}

#[test]
fn star_captures_on_first_leg_landing_on_corner() {
    let mut g = pos("w play 20 Rb1,Sh8,Ta15 Ta14,Pi9 - -");
    assert!(is_legal(&g, "h8j10"));
    assert!(!moves_from(&g, "h8")
        .iter()
        .any(|m| m.starts_with("h8j10") && m.len() > 5));
    play(&mut g, "h8j10");
    assert_eq!(g.men_on_board(1, 'P'), 0);
}

#[test]
fn star_captures_on_second_leg() {
    let mut g = pos("w play 20 Rb1,Sh8,Ta15 Ta14,Pk9 - -");
    assert!(is_legal(&g, "h8j10l8"));
    assert!(!is_legal(&g, "h8j10m7"));
    assert!(is_legal(&g, "h8j6l8"), "the other corner reaches l8 too");
    play(&mut g, "h8j10l8");
    assert_eq!(g.men_on_board(1, 'P'), 0);
}

#[test]
fn star_enemy_on_corner_blocks() {
    let g = pos("w play 20 Rb1,Sh8,Ta15 Ta14,Pj10 - -");
    assert!(!moves_from(&g, "h8").iter().any(|m| m.starts_with("h8j10")));
    assert_eq!(moves_from(&g, "h8").len(), 30);
}

#[test]
fn pyramid_captures_on_both_legs() {
    let mut g = pos("w play 20 Rb1,Ph8,Ta15 Ta14,Sh9,Sj10 - -");
    assert!(is_legal(&g, "h8h10"), "first-leg capture onto the corner");
    assert!(!moves_from(&g, "h8")
        .iter()
        .any(|m| m.starts_with("h8h10") && m.len() > 5));
    assert!(is_legal(&g, "h8j8j11") && !is_legal(&g, "h8j8j10") && !is_legal(&g, "h8j8j12"));
    play(&mut g, "h8h10");
    assert_eq!(g.men_on_board(1, 'S'), 1);
    let mut g = pos("w play 20 Rb1,Ph8,Ta15 Ta14,Sk10 - -");
    assert!(is_legal(&g, "h8h10l10") && !is_legal(&g, "h8h10m10"));
    play(&mut g, "h8h10l10");
    assert_eq!(g.men_on_board(1, 'S'), 0);
}

#[test]
fn rectangle_takes_two_men_in_one_jump() {
    let mut g = pos("w play 20 Rh8,Ta15 Ta14,Sh9,Pi10,Cj8 - -");
    // The two paths to j10 capture different men.
    let a = g.parse_move("h8h10j10").unwrap();
    let b = g.parse_move("h8j8j10").unwrap();
    assert!(legal(&g).contains(&a) && legal(&g).contains(&b) && a != b);
    assert!(g.move_priority(a) > g.move_priority(b), "two men beat one");
    play(&mut g, "h8h10j10");
    assert_eq!(g.men_on_board(1, 'S') + g.men_on_board(1, 'P'), 0);
    assert_eq!(g.men_on_board(1, 'C'), 1);
}

#[test]
fn rectangle_captures_every_enemy_man_on_three_points() {
    let mut g = pos("w play 20 Rh8,Ta15 Ta14,Sh9,Sh10,Pi10 - -");
    play(&mut g, "h8h10j10");
    assert_eq!(g.men_on_board(1, 'S') + g.men_on_board(1, 'P'), 0);
}

#[test]
fn rectangle_captures_the_tesseract_and_wins() {
    let mut g = pos("w play 20 Rh8,Ta15 Th9,Sa1 - -");
    play(&mut g, "h8h10j10");
    assert_eq!(winner(&g), Some((0, "tesseract captured")));
    assert!(legal(&g).is_empty());
}

#[test]
fn men_blocked_by_own_men_sliders_and_crosses() {
    // own man at h10, slider at j8, cross arm end at f8 (centre e8), all stop the Tesseract
    let g = pos("w play 20 Th8,Sh10,sj8v,Xe8 Ta14 - -");
    let m = moves_from(&g, "h8");
    assert!(
        m.contains(&"h8h9".to_string())
            && !m.contains(&"h8h10".to_string())
            && !m.contains(&"h8h11".to_string())
    );
    assert!(
        m.contains(&"h8i8".to_string())
            && !m.contains(&"h8j8".to_string())
            && !m.contains(&"h8k8".to_string())
    );
    assert!(
        m.contains(&"h8g8".to_string())
            && !m.contains(&"h8f8".to_string())
            && !m.contains(&"h8e8".to_string())
    );
    // a cross centre blocks a diagonal path (g7 -> h8 is the centre of the cross at h8)
    let g = pos("w play 20 Tg7,Sa3,Xh8 Ta14 - -");
    assert!(!is_legal(&g, "g7h8") && !is_legal(&g, "g7i9") && is_legal(&g, "g7f6"));
    // a Star's diagonal leg stops at a centre too (h8 -> i9 -> j10: i9 is a centre)
    let g = pos("w play 20 Ta1,Sh8,Xi9 Ta14 - -");
    assert!(!moves_from(&g, "h8").iter().any(|m| m.starts_with("h8j10")));
    assert!(is_legal(&g, "h8f10g11"));
    // sliders are never jumped by men (no capture of sliders)
    let g = pos("w play 20 Rb1,Th8 Ta14,sh9v - -");
    assert!(!is_legal(&g, "h8h9") && !is_legal(&g, "h8h10") && is_legal(&g, "h8h7"));
}

// ---------------------------------------------------------------- endgame limit

#[test]
fn tesseract_endgame_limit_four_points() {
    // Only the Tesseract (and the Cylinder) left: at most 4 points.
    let g = pos("w play 20 Th8,Ca1 Ta14 - -");
    assert_eq!(moves_from(&g, "h8").len(), 32);
    assert!(is_legal(&g, "h8h12") && !is_legal(&g, "h8h13"));
    // a Star in reserve lifts the limit
    // (must-drop does not apply: the Cylinder is on the board)
    let g2 = pos("w play 20 Th8,Ca1 Ta14 S -");
    assert!(is_legal(&g2, "h8h15"));
    // the limit counts captures too: a capture landing at distance 5 is out
    let g = pos("w play 20 Th8 Ta14,Sh12 - -");
    assert!(!is_legal(&g, "h8h13"));
    let g = pos("w play 20 Th8 Ta14,Sh11 - -");
    assert!(is_legal(&g, "h8h12"));
}

// ---------------------------------------------------------------- sliders

#[test]
fn small_slider_slides_along_its_orientation() {
    let g = pos("w play 20 Ta1,Sa3,sh8v Ta15 - -");
    let m = moves_from(&g, "h8");
    assert_eq!(m.len(), 14);
    assert!(m.contains(&"h8h1".to_string()) && m.contains(&"h8h15".to_string()));
    let g = pos("w play 20 Ta1,Sa3,sh8h Ta15 - -");
    assert_eq!(moves_from(&g, "h8").len(), 14);
    assert!(is_legal(&g, "h8a8") && !is_legal(&g, "h8h9"));
}

#[test]
fn slider_slide_blocked_by_centre_slider_own_man_enemy_tesseract_passes_arm_ends() {
    // cross centred h12: h11 is an arm end (may stop there), h12 the centre (blocks)
    let g = pos("w play 20 Ta1,Sa3,sh8v,Xh12 Ta15 - -");
    let m = moves_from(&g, "h8");
    assert!(
        m.contains(&"h8h11".to_string())
            && !m.contains(&"h8h12".to_string())
            && !m.contains(&"h8h13".to_string())
    );
    // a cross arm end across the path (centre g5, arm h5) is passed over
    let g = pos("w play 20 Ta1,Sa3,sh8v,Xg5 Ta15 - -");
    assert!(is_legal(&g, "h8h5") && is_legal(&g, "h8h4") && is_legal(&g, "h8h1"));
    // other slider (either colour), own man, enemy Tesseract
    let g = pos("w play 20 Ta1,Sh4,sh8v Lh11h,Th2 - -");
    let mut m = moves_from(&g, "h8");
    m.sort();
    assert_eq!(m, vec!["h8h10", "h8h5", "h8h6", "h8h7", "h8h9"]);
    assert!(!is_legal(&g, "h8h11") && !is_legal(&g, "h8h4") && !is_legal(&g, "h8h3"));
    assert_eq!(m.len(), 5);
    // enemy Tesseract blocks and is never captured by a slider
    let g = pos("w play 20 Ta1,Sa3,sh8v Th10 - -");
    assert!(is_legal(&g, "h8h9") && !is_legal(&g, "h8h11") && !is_legal(&g, "h8h10"));
}

#[test]
fn small_slider_captures_by_sliding_over() {
    let mut g = pos("w play 20 Ta1,Sa3,sh5v Ta15,Sh8 - -");
    assert!(is_legal(&g, "h5h9"));
    assert!(!is_legal(&g, "h5h10") && !is_legal(&g, "h5h8"));
    assert!(g.is_noisy(g.parse_move("h5h9").unwrap()));
    play(&mut g, "h5h9");
    assert_eq!(g.men_on_board(1, 'S'), 0);
    // landing on an arm end is allowed; on a centre or a piece it is not
    let g = pos("w play 20 Ta1,Sa3,sh5v,Xg9 Ta15,Sh8 - -");
    assert!(is_legal(&g, "h5h9"));
    let g = pos("w play 20 Ta1,Sa3,sh5v Ta15,Sh8,Ph9 - -");
    assert!(!is_legal(&g, "h5h9") && !is_legal(&g, "h5h10"));
}

#[test]
fn large_slider_captures_and_covers_the_captured_point() {
    // vertical large slider h4-h5 sliding up over a Star on h8: ends on h8-h9.
    let mut g = pos("w play 20 Ta1,Sa3,Lh4v Ta15,Sh8 - -");
    assert!(is_legal(&g, "h4h8") && !is_legal(&g, "h4h9"));
    play(&mut g, "h4h8");
    assert_eq!(g.men_on_board(1, 'S'), 0);
    assert!(g.to_text().contains("Lh8v"));
    // horizontal large slider e8-f8 sliding left over c8: ends on b8-c8.
    let mut g = pos("w play 20 Ta1,Sa3,Le8h Ta15,Pc8 - -");
    assert!(is_legal(&g, "e8b8") && is_legal(&g, "e8d8") && !is_legal(&g, "e8c8"));
    play(&mut g, "e8b8");
    assert_eq!(g.men_on_board(1, 'P'), 0);
    assert!(g.to_text().contains("Lb8h"));
    // and sliding right its leading point is the right one
    let g = pos("w play 20 Ta1,Sa3,Le8h Ta15,Pk8 - -");
    assert!(
        is_legal(&g, "e8i8")
            && is_legal(&g, "e8k8")
            && !is_legal(&g, "e8j8")
            && !is_legal(&g, "e8l8")
    );
}

#[test]
fn sliders_are_never_captured_and_never_capture_each_other() {
    let g = pos("w play 20 Ta1,Sa3,sh5v Ta15,sh8v - -");
    assert!(is_legal(&g, "h5h7") && !is_legal(&g, "h5h9"));
    let g = pos("w play 20 Ta1,Sa3,Ch8 Ta15,sh9v - -");
    assert!(!is_legal(&g, "h8h10"));
}

#[test]
fn small_slider_pivot_changes_orientation_not_on_arm_end() {
    let mut g = pos("w play 20 Ta1,Sa3,sh8v Ta15 - -");
    assert!(is_legal(&g, "h8^"));
    play(&mut g, "h8^");
    assert!(g.to_text().contains("sh8h"));
    let g = pos("w play 20 Ta1,Sa3,sh8v,Xh9 Ta15 - -");
    assert!(!is_legal(&g, "h8^"), "h8 is an arm end");
}

#[test]
fn large_slider_pivot_and_its_limits() {
    let g = pos("w play 20 Ta1,Sa3,Lh8h Ta15 - -");
    let pivots: Vec<String> = texts(&g).into_iter().filter(|m| m.contains('^')).collect();
    assert_eq!(pivots.len(), 4, "{:?}", pivots);
    for p in ["h8^h9", "h8^h7", "i8^i9", "i8^i7"] {
        assert!(is_legal(&g, p), "{}", p);
    }
    let mut g2 = g.clone();
    play(&mut g2, "i8^i7");
    assert!(g2.to_text().contains("Li7v"), "{}", g2.to_text());
    // target must be empty and outside footprints; pivot point not an arm end; target on board
    let g = pos("w play 20 Ta1,Sa3,Lh8h,Xi10,Ph7 Ta15 - -");
    assert!(!is_legal(&g, "h8^h7"), "occupied");
    assert!(!is_legal(&g, "i8^i9"), "arm end of the cross at i10");
    assert!(is_legal(&g, "h8^h9") && is_legal(&g, "i8^i7"));
    let g = pos("w play 20 Ta1,Sa3,Lh8h,Xj8 Ta15 - -");
    assert!(
        !is_legal(&g, "i8^i9") && !is_legal(&g, "i8^i7"),
        "pivot i8 is an arm end"
    );
    assert!(is_legal(&g, "h8^h9") && is_legal(&g, "h8^h7"));
    let g = pos("w play 20 Ta1,Sa3,Lh15h Ta14 - -");
    assert!(!is_legal(&g, "h15^h16") && is_legal(&g, "h15^h14"));
    assert_eq!(texts(&g).iter().filter(|m| m.contains('^')).count(), 2);
}

// ---------------------------------------------------------------- reserves and drops

#[test]
fn drops_on_any_free_point_outside_crosses() {
    let g = pos("w play 20 Ta1,Sa3 Ta15 RL -");
    let t = texts(&g);
    let free = 225 - 3;
    assert_eq!(t.iter().filter(|m| m.starts_with("R@")).count(), free);
    assert!(!is_legal(&g, "R@a1") && is_legal(&g, "R@h8"));
    // large slider: both points free; h at o-file impossible
    assert!(
        is_legal(&g, "L@n8h")
            && !is_legal(&g, "L@o8h")
            && !is_legal(&g, "L@a2v")
            && is_legal(&g, "L@b2v")
    );
    let g = pos("w play 20 Ta1,Sa3,Xh8 Ta15 sS -");
    assert!(!is_legal(&g, "S@h9") && !is_legal(&g, "S@h8") && is_legal(&g, "S@h10"));
    assert!(is_legal(&g, "s@g7h") && is_legal(&g, "s@g7v") && !is_legal(&g, "s@g8v"));
    // a dropped piece captures nothing
    let mut g = pos("w play 20 Ta1,Sa3 Ta15,Sh8 R -");
    play(&mut g, "R@h9");
    assert_eq!(g.men_on_board(1, 'S'), 1);
    assert_eq!(g.reserve_count(0, 'R'), 0);
}

#[test]
fn must_drop_a_man_when_only_the_tesseract_is_left() {
    let g = pos("w play 30 Ta1,sh8v Ta15,Sh14 CLs -");
    let t = texts(&g);
    assert!(!t.is_empty());
    assert!(t.iter().all(|m| m.starts_with("C@")), "{:?}", &t[..5]);
    // still applies later (not only right after the loss): same shape of position, later ply
    let g = pos("w play 90 Ta1,sh8v Ta15,Sh14 SRL -");
    assert!(texts(&g)
        .iter()
        .all(|m| m.starts_with("S@") || m.starts_with("R@")));
    // no man in reserve: no must-drop
    let g = pos("w play 30 Ta1,sh8v Ta15 Ls -");
    assert!(is_legal(&g, "a1b2") && is_legal(&g, "h8^") && is_legal(&g, "s@h2h"));
}

// ---------------------------------------------------------------- end of game

#[test]
fn capturing_the_tesseract_wins_at_once() {
    let mut g = pos("w play 20 Rb1,Th8 Th10,Sa15 - -");
    play(&mut g, "h8h11");
    assert_eq!(winner(&g), Some((0, "tesseract captured")));
    assert!(legal(&g).is_empty());
    assert!(g.evaluate(0) > 10000 && g.evaluate(1) < -10000);
    // the text of the finished position round-trips and says the same
    let back = pos(&g.to_text());
    assert_eq!(winner(&back), Some((0, "tesseract captured")));
}

#[test]
fn lone_immobile_tesseract_loses_even_if_sliders_could_move() {
    // White: only its Tesseract on a1 (and a slider), no man in reserve; boxed in.
    let g = pos("b play 40 Ta1,sh8v,sa2h,sb2h,sb1h Ta15,Ro15 - -");
    assert_eq!(
        winner(&g),
        None,
        "Black to move: White's trouble comes on White's turn"
    );
    let g = pos("w play 40 Ta1,sh8v,sa2h,sb2h,sb1h Ta15,Ro15 - -");
    assert_eq!(winner(&g), Some((1, "tesseract immobile")));
    assert!(legal(&g).is_empty());
    // reached by play
    let mut g = pos("b play 40 Ta1,sh8v,sa2h,sb2h Ta15,Ro15 - s");
    play(&mut g, "s@b1h");
    assert_eq!(winner(&g), Some((1, "tesseract immobile")));
}

#[test]
fn side_with_no_legal_move_loses() {
    // White T a1 boxed by Black sliders; White Rectangle a15 with both destinations blocked.
    let g = pos("w play 40 Ta1,Ra15 To8,sa2h,sb2h,sb1h,sc13h - -");
    assert_eq!(winner(&g), Some((1, "no legal move")));
    // with a reserve piece White could drop: not over
    let g = pos("w play 40 Ta1,Ra15 To8,sa2h,sb2h,sb1h,sc13h s -");
    assert_eq!(winner(&g), None);
    // reached by play
    let mut g = pos("b play 40 Ta1,Ra15 To8,sa2h,sb2h,sc13h - s");
    play(&mut g, "s@b1v");
    assert_eq!(winner(&g), Some((1, "no legal move")));
}

#[test]
fn max_plies_adjudicates_a_draw() {
    let mut g = pos("w play 399 Rb1,Th8 Ta14 - -");
    assert_eq!(winner(&g), None);
    play(&mut g, "h8h9");
    match g.status() {
        Status::Over(o) => {
            assert_eq!(o.reason, "MaxPlies");
            assert_eq!(o.rewards[0], 0.5);
        }
        _ => panic!("should be over"),
    }
    assert!(legal(&g).is_empty());
    // a win on the last ply is a win
    let mut g = pos("w play 399 Rb1,Th8 Th10 - -");
    play(&mut g, "h8h11");
    assert_eq!(winner(&g), Some((0, "tesseract captured")));
    // MaxPlies = 0: no limit
    let o = opts().with("MaxPlies", "0");
    let mut g = pos_with("w play 5000 Rb1,Th8 Ta14 - -", &o);
    play(&mut g, "h8h9");
    assert_eq!(winner(&g), None);
    // counted from the empty board, setup included
    let o = opts().with("MaxPlies", "10");
    let mut g = Tesseract::start(&o).unwrap();
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    let n = random_playout(&mut g, &mut rng, 1000, &mut buf);
    assert_eq!(n, 10);
    assert!(matches!(g.status(), Status::Over(o) if o.reason == "MaxPlies"));
}

// ---------------------------------------------------------------- notation and text

#[test]
fn notation_round_trips_and_rejects_malformed_text() {
    let g = Tesseract::start(&opts()).unwrap();
    for m in [
        "h2h9", "c2e4f3", "h8j10", "h8^", "h8^h9", "T@h2", "s@h8v", "L@h8h", "X@h8", "a15o1",
        "S@o15",
    ] {
        let mv = g.parse_move(m).unwrap();
        assert_eq!(g.format_move(mv), m);
    }
    for bad in [
        "", "h", "h0h2", "h16h2", "p2h2", "Q@h2", "s@h2", "L@h2x", "t@h2", "h2h3h4h5", "h2-h3",
        "h2^h3x", "X@", "@h2",
    ] {
        assert!(g.parse_move(bad).is_err(), "'{}' must be rejected", bad);
    }
}

#[test]
fn position_text_round_trips_and_rejects_bad_text() {
    let t = "b play 57 Ta1,Sa3,sc4v,Xe6,Lh8h Xk9,Ta15,Ro15 SRs CLL";
    let g = pos(t);
    assert_eq!(g.to_text(), t);
    assert_eq!(pos(&g.to_text()).hash(), g.hash());
    for bad in [
        "",
        "w play 20 Ta1 Ta15 -",
        "x play 20 Ta1 Ta15 - -",
        "w game 20 Ta1 Ta15 - -",
        "w play -3 Ta1 Ta15 - -",
        "w play 20 Ta1,Ta2 Ta15 - -",
        "w play 20 Ta1,Sa1 Ta15 - -",
        "w play 20 Ta1,Lo8h Ta15 - -",
        "w play 20 Ta1,Xa8 Ta15 - -",
        "w play 20 Ta1,Xh8,Sh9 Ta15 - -",
        "w play 20 Ta1,Xh8 Ta15,Xi9 - -",
        "w play 20 Ta1 Ta15 SSS -",
        "w play 20 Ta1 Ta15 Q -",
        "w play 20 - - - -",
        "w play 20 Ta1 Ta15 T -",
        "w setup:3 3 - - TSSPRCLLsssssXX TSSPRCLLsssssXX",
        "w setup:0 0 Th8 - SSPRCLLsssssXX TSSPRCLLsssssXX",
        "w play 20 Zz99 Ta15 - -",
    ] {
        assert!(
            Tesseract::from_text(bad, &opts()).is_err(),
            "'{}' must be rejected",
            bad
        );
    }
}

#[test]
fn display_shows_grid_pieces_crosses_reserves_and_phase() {
    let g = pos("w play 57 Ta1,Sa3,Lh8h,sc4v,Xe6 Ta15,Ro15,Xk9 SRs CLL");
    let d = g.display();
    let lines: Vec<&str> = d.lines().collect();
    assert!(lines[1].starts_with("15"), "rank 15 on top: {}", lines[1]);
    assert!(lines[1].contains(" t ") && lines[1].contains(" r "));
    assert!(
        d.contains(" X ")
            && d.contains(" x ")
            && d.contains(" + ")
            && d.contains("W=")
            && d.contains("w|")
    );
    assert!(
        d.contains("White reserve: SRs")
            && d.contains("Black reserve: CLL")
            && d.contains("Phase: play")
    );
}

// ---------------------------------------------------------------- evaluation

#[test]
fn evaluation_counts_material_and_reserve_a_bit_less() {
    let a = pos("w play 20 Ta1,Sh8 Ta15 - -");
    let b = pos("w play 20 Ta1 Ta15 S -");
    let c = pos("w play 20 Ta1 Ta15 - -");
    assert!(a.evaluate(0) > c.evaluate(0) + 150);
    assert!(b.evaluate(0) > c.evaluate(0) + 150);
    assert_eq!(a.evaluate(0), -a.evaluate(1));
}

#[test]
fn evaluation_tesseract_attacked_is_very_bad_for_the_side_not_to_move() {
    // Black to move can jump White's Tesseract on h8 with its Tesseract from h10.
    let g = pos("b play 20 Rb1,Th8 Sa14,Th10,sh11v - -");
    assert!(is_legal(&g, "h10h7"));
    assert!(g.evaluate(0) < -2000, "{}", g.evaluate(0));
    assert!(g.evaluate(1) > 2000);
}

#[test]
fn evaluation_setup_keeps_the_tesseract_out_of_danger() {
    // White has placed T in a sheltered corner spot vs on an open central point.
    let sheltered = pos("b setup:7 7 Ta2,Sb3,Pb2,sa3h Th14,Sg14,Pi14 SRCLLssssXX SRCLLsssssXX");
    let open = pos("b setup:7 7 Th3,Sb3,Pb2,sa3h Th14,Sg14,Pi14 SRCLLssssXX SRCLLsssssXX");
    assert!(
        sheltered.evaluate(0) > open.evaluate(0) + 30,
        "{} vs {}",
        sheltered.evaluate(0),
        open.evaluate(0)
    );
}

#[test]
fn evaluation_setup_sees_no_phantom_captures() {
    // Setup plies move nothing, and on a near-empty board the Tesseract's reach is unlimited
    // only until play starts (then the endgame limit makes it 4): two Tesseracts facing each
    // other down file h in setup are no capture for anyone. It read as "White takes Black's
    // Tesseract next" (+3940) before.
    let mut g = Tesseract::start(&opts()).unwrap();
    play(&mut g, "T@h2");
    play(&mut g, "T@h14");
    assert!(!g.in_play());
    assert!(g.evaluate(0).abs() < 200, "{}", g.evaluate(0));
    assert_eq!(g.evaluate(0), -g.evaluate(1));
    // The same two Tesseracts in play, nothing else on the board (endgame limit: 4 points),
    // are no threat either; three points apart with White to move, Black's is taken.
    let far = pos("w play 20 Th2 Th14 - -");
    assert!(far.evaluate(0).abs() < 500, "{}", far.evaluate(0));
    let near = pos("w play 20 Th2 Th5 - -");
    assert!(near.evaluate(0) > 2000, "{}", near.evaluate(0));
}

// ---------------------------------------------------------------- invariants and perft

#[test]
fn random_games_keep_invariants_default_order() {
    let g = Tesseract::start(&opts()).unwrap();
    check_invariants(&g, 40, 400, 1).unwrap();
}

#[test]
fn random_games_keep_invariants_crosses_first() {
    let g = Tesseract::start(&opts().with("CrossesFirst", "true")).unwrap();
    check_invariants(&g, 40, 400, 2).unwrap();
}

#[test]
fn random_games_end_by_tesseract_capture_or_max_plies() {
    let mut reasons = std::collections::BTreeMap::new();
    let mut rng = rng_from_seed(7);
    let mut buf = Vec::new();
    for i in 0..60 {
        let o = if i % 2 == 0 {
            opts()
        } else {
            opts().with("CrossesFirst", "true")
        };
        let o = if i % 3 == 0 {
            o.with("MaxPlies", "0")
        } else {
            o
        };
        let mut g = Tesseract::start(&o).unwrap();
        random_playout(&mut g, &mut rng, 100_000, &mut buf);
        match g.status() {
            Status::Over(o) => *reasons.entry(o.reason).or_insert(0) += 1,
            Status::Ongoing => panic!("random game did not end: {}", g.to_text()),
        }
    }
    assert!(
        reasons.contains_key("tesseract captured") && reasons.contains_key("MaxPlies"),
        "{:?}",
        reasons
    );
}

#[test]
fn random_long_games_keep_invariants_without_ply_limit() {
    let g = Tesseract::start(&opts().with("MaxPlies", "0")).unwrap();
    check_invariants(&g, 6, 3000, 5).unwrap();
    let g = Tesseract::start(&opts().with("MaxPlies", "0").with("CrossesFirst", "true")).unwrap();
    check_invariants(&g, 6, 3000, 6).unwrap();
}

#[test]
fn perft_from_the_empty_board() {
    let g = Tesseract::start(&opts()).unwrap();
    assert_eq!(perft(&g, 1), 90);
    assert_eq!(perft(&g, 2), 90 * 90);
    // White's second placement: 29 free camp points x 2 remaining men.
    assert_eq!(perft(&g, 3), 90 * 90 * 58);
    let g = Tesseract::start(&opts().with("CrossesFirst", "true")).unwrap();
    assert_eq!(perft(&g, 1), 117);
}

#[test]
#[ignore]
fn speed_report() {
    use std::time::Instant;
    let g = Tesseract::start(&opts()).unwrap();
    let t = Instant::now();
    let n = perft(&g, 4);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "perft(4) from the empty board: {} nodes in {:.2}s = {:.0} nodes/s",
        n,
        dt,
        n as f64 / dt
    );
    // mid-game positions reached by random play from the start: one early (reserves still full,
    // ~1500 moves a position, mostly drops), one late (reserves used up).
    let mut rng = rng_from_seed(11);
    let mut buf = Vec::new();
    for (plies, depth) in [(24usize, 3u32), (60, 3)] {
        let mut mid = Tesseract::start(&opts().with("MaxPlies", "0")).unwrap();
        random_playout(&mut mid, &mut rng, plies, &mut buf);
        let t = Instant::now();
        let n = perft(&mid, depth);
        let dt = t.elapsed().as_secs_f64();
        println!(
            "perft({}) at ply {} ({}): {} nodes in {:.2}s = {:.0} nodes/s",
            depth,
            plies,
            mid.to_text(),
            n,
            dt,
            n as f64 / dt
        );
    }
    let mut mid = Tesseract::start(&opts().with("MaxPlies", "0")).unwrap();
    random_playout(&mut mid, &mut rng, 24, &mut buf);
    let t = Instant::now();
    let mut moves = 0usize;
    let mut games = 0;
    while t.elapsed().as_secs_f64() < 3.0 {
        let mut g = Tesseract::start(&opts()).unwrap();
        moves += random_playout(&mut g, &mut rng, 100_000, &mut buf);
        games += 1;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "random playouts: {} games, {} moves in {:.2}s = {:.0} moves/s",
        games,
        moves,
        dt,
        moves as f64 / dt
    );
    let t = Instant::now();
    let mut s = 0i64;
    for _ in 0..100_000 {
        s += mid.evaluate(0) as i64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!("evaluate: {:.0} evals/s ({})", 100_000.0 / dt, s);
}

#[test]
fn null_move_only_in_play_and_passes_the_turn() {
    assert!(
        pos(START_TEXT).null_move().is_none(),
        "no pass during setup"
    );
    let g = pos("w play 14 Tb2,si2h,sb3v,Pc3,Si3,Xi11,Xe12 Xe4,Xi6,sa13v,Tb13,Pc13,si13v,Sb14 SRCLLsss SRCLLsss");
    let n = g.null_move().expect("a pass in play");
    assert_eq!(n.to_move(), 1);
    assert_eq!(n.hash(), n.full_hash());
    assert_eq!(
        n.to_text(),
        "b play 15 Tb2,si2h,sb3v,Pc3,Si3,Xi11,Xe12 Xe4,Xi6,sa13v,Tb13,Pc13,si13v,Sb14 SRCLLsss SRCLLsss"
    );
}
