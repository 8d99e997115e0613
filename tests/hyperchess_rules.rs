//! Rules tests for hyperchess: one test per rule, the figures of the rules page and the issue,
//! comparisons against a naive reference move generator written here (a different method: every
//! (from, to) pair is checked against a per-piece predicate, and check is found by asking every
//! enemy piece whether it reaches the king), and random-game invariants.

use std::collections::BTreeMap;

use quatre::game::*;
use quatre::games::hyperchess::*;

fn opts(boards: &str) -> RuleOptions {
    RuleOptions::of::<Hyperchess>().with("Boards", boards)
}

fn grid(boards: &str) -> (usize, usize) {
    let (c, r) = boards.split_once('x').unwrap();
    (c.parse().unwrap(), r.parse().unwrap())
}

const START_1X1: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

// ---------------------------------------------------------------------------------------------
// Naive reference: coordinates, names, position text.

type Coord = [i32; 4]; // x, y, z, w

const ROMAN: [&str; 4] = ["I", "II", "III", "IV"];

fn ref_parse_square(s: &str) -> (Coord, usize) {
    let b = s.as_bytes();
    if b[0].is_ascii_lowercase() {
        return ([(b[0] - b'a') as i32, (b[1] - b'1') as i32, 0, 0], 2);
    }
    let w = (b[0] - b'A') as i32;
    let x = (b[1] - b'a') as i32;
    let mut i = 2;
    while b[i] == b'I' || b[i] == b'V' {
        i += 1;
    }
    let z = ROMAN.iter().position(|r| *r == &s[2..i]).unwrap() as i32;
    let y = (b[i] - b'1') as i32;
    ([x, y, z, w], i + 1)
}

fn ref_name(c: Coord, plain: bool) -> String {
    let f = (b'a' + c[0] as u8) as char;
    let r = (b'1' + c[1] as u8) as char;
    if plain {
        format!("{}{}", f, r)
    } else {
        format!(
            "{}{}{}{}",
            (b'A' + c[3] as u8) as char,
            f,
            ROMAN[c[2] as usize],
            r
        )
    }
}

/// A naive position: a map from coordinates to piece letters (uppercase White).
#[derive(Clone)]
struct RefPos {
    cols: i32,
    rows: i32,
    pieces: BTreeMap<Coord, char>,
    white: bool,
    ep: Option<Coord>,
}

impl RefPos {
    fn from_text(text: &str, boards: &str) -> RefPos {
        let (c, r) = grid(boards);
        let f: Vec<&str> = text.split_whitespace().collect();
        let mut pieces = BTreeMap::new();
        for (bi, part) in f[0].split('|').enumerate() {
            let (w, z) = ((bi % c) as i32, (bi / c) as i32);
            for (ri, rank) in part.split('/').enumerate() {
                let y = 7 - ri as i32;
                let mut x = 0;
                for ch in rank.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        x += d as i32;
                    } else {
                        pieces.insert([x, y, z, w], ch);
                        x += 1;
                    }
                }
            }
        }
        let ep = f
            .get(3)
            .filter(|s| **s != "-")
            .map(|s| ref_parse_square(s).0);
        RefPos {
            cols: c as i32,
            rows: r as i32,
            pieces,
            white: f[1] == "w",
            ep,
        }
    }

    fn inside(&self, c: Coord) -> bool {
        (0..8).contains(&c[0])
            && (0..8).contains(&c[1])
            && (0..self.rows).contains(&c[2])
            && (0..self.cols).contains(&c[3])
    }

    fn all_squares(&self) -> Vec<Coord> {
        let mut v = Vec::new();
        for z in 0..self.rows {
            for w in 0..self.cols {
                for y in 0..8 {
                    for x in 0..8 {
                        v.push([x, y, z, w]);
                    }
                }
            }
        }
        v
    }

    fn is_white(p: char) -> bool {
        p.is_ascii_uppercase()
    }

    /// Whether the piece on `from` could move to (or capture on) `to` by its move pattern and a
    /// clear path, ignoring what stands on `to`. Pawns: only their capture pattern.
    fn reaches(&self, from: Coord, to: Coord) -> bool {
        let p = self.pieces[&from];
        let d: Vec<i32> = (0..4).map(|i| to[i] - from[i]).collect();
        let nz: Vec<usize> = (0..4).filter(|&i| d[i] != 0).collect();
        let abs: Vec<i32> = nz.iter().map(|&i| d[i].abs()).collect();
        let clear = || {
            let n = abs.iter().copied().max().unwrap();
            let step: Vec<i32> = d.iter().map(|v| v.signum()).collect();
            (1..n).all(|k| {
                let c = [
                    from[0] + k * step[0],
                    from[1] + k * step[1],
                    from[2] + k * step[2],
                    from[3] + k * step[3],
                ];
                !self.pieces.contains_key(&c)
            })
        };
        if nz.is_empty() {
            return false;
        }
        let rook = nz.len() == 1;
        let bishop = nz.len() == 2 && abs[0] == abs[1];
        let xy_step = d[2] == 0 && d[3] == 0 && d[0].abs() <= 1 && d[1].abs() <= 1;
        let zw_step = d[0] == 0 && d[1] == 0 && d[2].abs() <= 1 && d[3].abs() <= 1;
        match p.to_ascii_uppercase() {
            'R' => rook && clear(),
            'B' => bishop && clear(),
            'Q' => (rook || bishop) && clear(),
            'N' => nz.len() == 2 && abs.iter().min() == Some(&1) && abs.iter().max() == Some(&2),
            'K' => xy_step,
            'G' => xy_step || zw_step,
            'P' => {
                let fwd = if Self::is_white(p) { 1 } else { -1 };
                d[1] == fwd && nz.len() == 2 && [0usize, 2, 3].iter().any(|&i| d[i].abs() == 1)
            }
            _ => panic!("bad piece {}", p),
        }
    }

    fn attacked_by(&self, sq: Coord, white: bool) -> bool {
        self.pieces
            .iter()
            .any(|(&c, &p)| Self::is_white(p) == white && self.reaches(c, sq))
    }

    fn king(&self, white: bool) -> Coord {
        *self
            .pieces
            .iter()
            .find(|(_, &p)| p == if white { 'K' } else { 'k' })
            .unwrap()
            .0
    }

    fn play(&mut self, from: Coord, to: Coord, promo: Option<char>) {
        let p = self.pieces.remove(&from).unwrap();
        let is_pawn = p.eq_ignore_ascii_case(&'P');
        if is_pawn && Some(to) == self.ep && !self.pieces.contains_key(&to) {
            let fwd = if Self::is_white(p) { 1 } else { -1 };
            self.pieces.remove(&[to[0], to[1] - fwd, to[2], to[3]]);
        }
        let np = match promo {
            Some(c) => {
                if Self::is_white(p) {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            }
            None => p,
        };
        self.pieces.insert(to, np);
        self.ep = None;
        if is_pawn && (to[1] - from[1]).abs() == 2 {
            self.ep = Some([from[0], (from[1] + to[1]) / 2, from[2], from[3]]);
        }
        self.white = !self.white;
    }

    /// Every legal move as (from, to, promotion).
    fn moves(&self) -> Vec<(Coord, Coord, Option<char>)> {
        self.candidates()
            .into_iter()
            .filter(|&(f, t, pr)| {
                let mut n = self.clone();
                n.play(f, t, pr);
                !n.attacked_by(n.king(self.white), !self.white)
            })
            .collect()
    }

    /// Every move by the rules of movement, whether or not it leaves the king attacked.
    fn candidates(&self) -> Vec<(Coord, Coord, Option<char>)> {
        let mut cands = Vec::new();
        let all = self.all_squares();
        for (&from, &p) in &self.pieces {
            if Self::is_white(p) != self.white {
                continue;
            }
            if p.eq_ignore_ascii_case(&'P') {
                let fwd = if self.white { 1 } else { -1 };
                let last = if self.white { 7 } else { 0 };
                let mut targets = Vec::new();
                let one = [from[0], from[1] + fwd, from[2], from[3]];
                if self.inside(one) && !self.pieces.contains_key(&one) {
                    targets.push(one);
                    let two = [from[0], from[1] + 2 * fwd, from[2], from[3]];
                    let start = if self.white { 1 } else { 6 };
                    if from[1] == start && !self.pieces.contains_key(&two) {
                        targets.push(two);
                    }
                }
                for &to in &all {
                    if self.reaches(from, to) {
                        let enemy = self
                            .pieces
                            .get(&to)
                            .map(|&q| Self::is_white(q) != self.white)
                            .unwrap_or(false);
                        if enemy || Some(to) == self.ep {
                            targets.push(to);
                        }
                    }
                }
                for to in targets {
                    if to[1] == last {
                        for c in ['q', 'n', 'b', 'g'] {
                            cands.push((from, to, Some(c)));
                        }
                    } else {
                        cands.push((from, to, None));
                    }
                }
            } else {
                for &to in &all {
                    let ok_target = match self.pieces.get(&to) {
                        None => true,
                        Some(&q) => {
                            Self::is_white(q) != self.white && !q.eq_ignore_ascii_case(&'K')
                        }
                    };
                    if ok_target && self.reaches(from, to) {
                        cands.push((from, to, None));
                    }
                }
            }
        }
        cands
    }

    fn move_names(&self) -> Vec<String> {
        let plain = self.cols == 1 && self.rows == 1;
        let mut v: Vec<String> = self
            .moves()
            .iter()
            .map(|&(f, t, p)| {
                let mut s = ref_name(f, plain) + &ref_name(t, plain);
                if let Some(c) = p {
                    s.push(c);
                }
                s
            })
            .collect();
        v.sort();
        v
    }

    fn perft(&self, depth: u32) -> u64 {
        let ms = self.moves();
        if depth == 1 {
            return ms.len() as u64;
        }
        ms.iter()
            .map(|&(f, t, p)| {
                let mut n = self.clone();
                n.play(f, t, p);
                n.perft(depth - 1)
            })
            .sum()
    }
}

fn engine_move_names(g: &Hyperchess) -> Vec<String> {
    let mut ms = Vec::new();
    g.legal_moves(&mut ms);
    let mut v: Vec<String> = ms.iter().map(|&m| g.format_move(m)).collect();
    v.sort();
    v
}

/// A position text built from a list of (square, piece) on an otherwise empty grid.
fn build(boards: &str, pieces: &[(&str, char)], side: char, ep: &str) -> String {
    let (c, r) = grid(boards);
    let mut cells = vec![vec!['.'; 64]; c * r];
    for &(sq, p) in pieces {
        let (co, _) = ref_parse_square(sq);
        cells[(co[3] + c as i32 * co[2]) as usize][(co[0] + 8 * co[1]) as usize] = p;
    }
    let boards_txt: Vec<String> = cells
        .iter()
        .map(|b| {
            let mut s = String::new();
            for y in (0..8).rev() {
                let mut e = 0;
                for x in 0..8 {
                    let p = b[x + 8 * y];
                    if p == '.' {
                        e += 1;
                    } else {
                        if e > 0 {
                            s.push_str(&e.to_string());
                            e = 0;
                        }
                        s.push(p);
                    }
                }
                if e > 0 {
                    s.push_str(&e.to_string());
                }
                if y > 0 {
                    s.push('/');
                }
            }
            s
        })
        .collect();
    format!("{} {} - {} 0 1", boards_txt.join("|"), side, ep)
}

fn pos(boards: &str, pieces: &[(&str, char)], side: char) -> Hyperchess {
    let t = build(boards, pieces, side, "-");
    Hyperchess::from_text(&t, &opts(boards)).unwrap_or_else(|e| panic!("{}: {}", t, e))
}

fn moves_from(g: &Hyperchess, from: &str) -> Vec<String> {
    engine_move_names(g)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn play_text(g: &mut Hyperchess, m: &str) {
    let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{}", e));
    let mut ms = Vec::new();
    g.legal_moves(&mut ms);
    assert!(ms.contains(&mv), "{} is not legal in {}", m, g.to_text());
    g.play(mv);
}

fn name(c: Coord) -> String {
    ref_name(c, false)
}

fn all_coords_3x3() -> Vec<Coord> {
    let mut v = Vec::new();
    for z in 0..3 {
        for w in 0..3 {
            for y in 0..8 {
                for x in 0..8 {
                    v.push([x, y, z, w]);
                }
            }
        }
    }
    v
}

/// Number of moves of a lone `piece` on `c` on an otherwise empty 3x3 grid (the two kings are
/// put where they neither block nor are attacked).
fn reach_on_empty_3x3(piece: char, c: Coord) -> usize {
    let wk = [
        (c[0] + 3) % 8,
        (c[1] + 3) % 8,
        (c[2] + 1) % 3,
        (c[3] + 1) % 3,
    ];
    let bk = [
        (c[0] + 5) % 8,
        (c[1] + 5) % 8,
        (c[2] + 1) % 3,
        (c[3] + 1) % 3,
    ];
    let g = pos(
        "3x3",
        &[(&name(c), piece), (&name(wk), 'K'), (&name(bk), 'k')],
        'w',
    );
    moves_from(&g, &name(c)).len()
}

// ---------------------------------------------------------------------------------------------
// Options, start position, notation, position text.

#[test]
fn rule_options_have_the_documented_names_and_defaults() {
    let specs = Hyperchess::rule_options();
    assert_eq!(specs.len(), 3);
    assert_eq!(specs[0].name, "Boards");
    assert_eq!(specs[0].default_text(), "3x3");
    match specs[0].kind {
        OptionKind::Combo { vars, .. } => {
            assert_eq!(vars.len(), 16);
            assert!(vars.contains(&"1x1") && vars.contains(&"4x4") && vars.contains(&"2x3"));
        }
        _ => panic!("Boards must be a combo"),
    }
    assert_eq!(specs[1].name, "MaxPlies");
    assert!(matches!(
        specs[1].kind,
        OptionKind::Spin {
            default: 0,
            min: 0,
            max: 100000
        }
    ));
    assert_eq!(specs[2].name, "Promotions");
    assert!(matches!(
        specs[2].kind,
        OptionKind::Combo {
            default: "hyperchess",
            vars: ["hyperchess", "chess"]
        }
    ));
    assert_eq!(Hyperchess::NAME, "hyperchess");
    let g = Hyperchess::start(&opts("2x3")).unwrap();
    assert_eq!(g.options().text("Boards"), "2x3");
}

#[test]
fn start_position_has_the_documented_army() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let t = g.to_text();
    let placement = t.split(' ').next().unwrap();
    let count = |ch: char| placement.chars().filter(|&c| c == ch).count();
    assert_eq!(
        (
            count('P'),
            count('R'),
            count('N'),
            count('B'),
            count('G'),
            count('K'),
            count('Q')
        ),
        (72, 18, 18, 18, 17, 1, 0)
    );
    assert_eq!(
        (
            count('p'),
            count('r'),
            count('n'),
            count('b'),
            count('g'),
            count('k'),
            count('q')
        ),
        (72, 18, 18, 18, 17, 1, 0)
    );
    let boards: Vec<&str> = placement.split('|').collect();
    assert_eq!(boards.len(), 9);
    assert_eq!(boards[4], "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR");
    assert!(t.ends_with(" w - - 0 1"));
    assert_eq!(g.to_move(), 0);
    // The kings' board for other grids: column C div 2, row R div 2.
    for (b, king_board) in [("1x1", 0), ("2x2", 3), ("4x4", 10), ("3x1", 1), ("1x4", 2)] {
        let t = Hyperchess::start(&opts(b)).unwrap().to_text();
        let boards: Vec<&str> = t.split(' ').next().unwrap().split('|').collect();
        for (i, bd) in boards.iter().enumerate() {
            assert_eq!(bd.contains('K'), i == king_board, "{} board {}", b, i);
        }
    }
    assert_eq!(
        Hyperchess::start(&opts("1x1")).unwrap().to_text(),
        "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w - - 0 1"
    );
}

#[test]
fn start_position_perft_3x3() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    assert_eq!(perft(&g, 1), 228);
    assert_eq!(perft(&g, 2), 51984);
    let r = RefPos::from_text(&g.to_text(), "3x3");
    assert_eq!(r.move_names(), engine_move_names(&g));
}

#[test]
fn move_notation_is_4d_and_plain_on_1x1() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let m = g.parse_move("AeII2AeII4").unwrap();
    assert_eq!(g.format_move(m), "AeII2AeII4");
    assert_eq!(
        g.parse_move("  BbI1BbI3 ").unwrap(),
        g.parse_move("BbI1BbI3").unwrap()
    );
    let g1 = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    let plain = g1.parse_move("e2e4").unwrap();
    assert_eq!(g1.parse_move("AeI2AeI4").unwrap(), plain);
    assert_eq!(g1.format_move(plain), "e2e4");
    // Promotion letter, lowercase on output, both cases on input.
    let p = pos("3x3", &[("CbI7", 'P'), ("BeII1", 'K'), ("BeII8", 'k')], 'w');
    let q = p.parse_move("CbI7CbI8q").unwrap();
    assert_eq!(p.parse_move("CbI7CbI8Q").unwrap(), q);
    assert_eq!(p.format_move(q), "CbI7CbI8q");
}

#[test]
fn malformed_moves_are_rejected_with_a_reason() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    for bad in [
        "",
        "e2e4",
        "AeII2",
        "AeII2AeII9",
        "AeV2AeII4",
        "DeII2DeII4",
        "AeII2AeII4x",
        "AiII2AiII4",
        "AeII2AeII2",
        "ÅeII2AeII4",
        "AeIIII2AeII4",
    ] {
        let e = g.parse_move(bad).expect_err(bad);
        assert!(!e.is_empty());
    }
    let p = pos("3x3", &[("CbI7", 'P'), ("BeII1", 'K'), ("BeII8", 'k')], 'w');
    assert!(p.parse_move("CbI7CbI8r").unwrap_err().contains("rook"));
    assert!(p.parse_move("CbI7CbI8").unwrap_err().contains("promotion"));
    let g1 = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    assert!(g1.parse_move("e2e9").is_err());
    assert!(g1.parse_move("AeII2AeII4").is_err());
}

#[test]
fn position_text_round_trips_and_plain_fen_works_on_1x1() {
    let g = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    assert_eq!(g.to_text(), START_1X1);
    let mut g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    play_text(&mut g, "AeII2AeII4");
    let t = g.to_text();
    assert!(t.ends_with(" b - AeII3 0 1"), "{}", t);
    let back = Hyperchess::from_text(&t, g.options()).unwrap();
    assert_eq!(back.to_text(), t);
    assert_eq!(back.hash(), g.hash());
    // A plain FEN en-passant square on 1x1, written back plain.
    let t = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3";
    let g = Hyperchess::from_text(t, &opts("1x1")).unwrap();
    assert_eq!(g.to_text(), t);
    // Half-move clock and move number may be left out.
    let g = Hyperchess::from_text("4k3/8/8/8/8/8/8/4K3 w -", &opts("1x1")).unwrap();
    assert_eq!(g.to_text(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn bad_position_texts_are_rejected_with_a_reason() {
    let o3 = RuleOptions::of::<Hyperchess>();
    let o1 = opts("1x1");
    let cases: Vec<(&str, &RuleOptions, &str)> = vec![
        (START_1X1, &o3, "9 board"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &o1,
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1",
            &o1,
            "king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1",
            &o1,
            "side",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", &o1, "ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            &o1,
            "empty",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            &o1,
            "piece",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            &o1,
            "squares",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            &o1,
            "squares",
        ),
        (
            "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            &o1,
            "rank 1 or 8",
        ),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", &o1, "in check"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", &o1, "rank 6"),
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", &o1, "double"),
        ("4k3/8/8/8/8/8/8/4K3 b - AeII3 0 1", &o1, "row"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", &o1, "clock"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 x", &o1, "move number"),
        ("", &o1, "fields"),
    ];
    for (t, o, want) in cases {
        match Hyperchess::from_text(t, o) {
            Ok(_) => panic!("accepted bad position {:?}", t),
            Err(e) => assert!(
                e.contains(want),
                "{:?}: error {:?} does not mention {:?}",
                t,
                e,
                want
            ),
        }
    }
}

#[test]
fn display_draws_the_boards_side_by_side() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let d = g.display();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 1 + 3 * 9);
    assert!(lines[0].contains('A') && lines[0].contains('B') && lines[0].contains('C'));
    assert!(lines[1].starts_with("III 8"), "{}", lines[1]);
    assert!(lines[10].starts_with("II  8"));
    assert!(lines[19].starts_with("I   8"));
    assert!(lines[10].contains("rnbggbnr   rnbgkbnr   rnbggbnr"));
    assert!(lines[27].contains("abcdefgh   abcdefgh   abcdefgh"));
    assert!(!d.ends_with('\n'));
}

// ---------------------------------------------------------------------------------------------
// Piece moves.

#[test]
fn rook_sees_18_squares_from_anywhere_on_an_empty_3x3_grid() {
    for c in all_coords_3x3() {
        assert_eq!(reach_on_empty_3x3('R', c), 18, "rook on {}", name(c));
    }
}

#[test]
fn bishop_sees_17_squares_at_worst_and_33_at_best() {
    let counts: Vec<usize> = all_coords_3x3()
        .into_iter()
        .map(|c| reach_on_empty_3x3('B', c))
        .collect();
    assert_eq!(*counts.iter().min().unwrap(), 17);
    assert_eq!(*counts.iter().max().unwrap(), 33);
    // 33 on the central board's central squares, e.g. BdII4.
    assert_eq!(reach_on_empty_3x3('B', [3, 3, 1, 1]), 33);
    assert_eq!(reach_on_empty_3x3('B', [0, 0, 0, 0]), 17);
}

#[test]
fn queen_moves_as_rook_or_bishop() {
    for c in [[0, 0, 0, 0], [3, 4, 1, 1], [7, 2, 2, 0]] {
        assert_eq!(
            reach_on_empty_3x3('Q', c),
            reach_on_empty_3x3('R', c) + reach_on_empty_3x3('B', c)
        );
    }
}

#[test]
fn knight_always_changes_colour() {
    let parity = |c: Coord| (c[0] + c[1] + c[2] + c[3]) % 2;
    let mut total = 0;
    for c in all_coords_3x3() {
        let wk = [
            (c[0] + 3) % 8,
            (c[1] + 3) % 8,
            (c[2] + 1) % 3,
            (c[3] + 1) % 3,
        ];
        let bk = [
            (c[0] + 5) % 8,
            (c[1] + 5) % 8,
            (c[2] + 1) % 3,
            (c[3] + 1) % 3,
        ];
        let g = pos(
            "3x3",
            &[(&name(c), 'N'), (&name(wk), 'K'), (&name(bk), 'k')],
            'w',
        );
        for m in moves_from(&g, &name(c)) {
            let (_, n) = ref_parse_square(&m);
            let (to, _) = ref_parse_square(&m[n..]);
            assert_ne!(parity(to), parity(c), "knight {}", m);
            total += 1;
        }
    }
    assert!(total > 9000);
    // 2 along one axis and 1 along another, from the central square of the central board:
    // x/y pairs reach 8, pairs with z or w (which span only 3 boards) fewer.
    let g = pos(
        "3x3",
        &[("BdII4", 'N'), ("AaI1", 'K'), ("ChIII8", 'k')],
        'w',
    );
    assert_eq!(moves_from(&g, "BdII4").len(), 24); // 8 in the xy plane, 16 with 2 along x/y and 1 along z/w
}

#[test]
fn king_moves_one_step_in_x_and_y_and_never_leaves_its_board() {
    let g = pos(
        "3x3",
        &[("BdII4", 'K'), ("AaI8", 'k'), ("ChIII2", 'P')],
        'w',
    );
    let ms = moves_from(&g, "BdII4");
    assert_eq!(ms.len(), 8);
    assert!(ms.iter().all(|m| m[5..].starts_with("BcII")
        || m[5..].starts_with("BdII")
        || m[5..].starts_with("BeII")));
}

#[test]
fn guard_moves_in_xy_or_in_zw_never_mixed() {
    let g = pos(
        "3x3",
        &[("BdII4", 'G'), ("AaI1", 'K'), ("ChIII8", 'k')],
        'w',
    );
    let ms = moves_from(&g, "BdII4");
    assert_eq!(ms.len(), 16);
    assert!(ms.contains(&"BdII4BeII5".to_string()));
    assert!(ms.contains(&"BdII4CdIII4".to_string()));
    assert!(ms.contains(&"BdII4AdII4".to_string()));
    assert!(!ms.contains(&"BdII4BeIII4".to_string()));
    assert!(!ms.contains(&"BdII4CdII5".to_string()));
}

#[test]
fn pawn_pushes_one_or_two_from_its_start_rank_on_its_own_board() {
    let g = pos(
        "3x3",
        &[
            ("BdII2", 'P'),
            ("AdI3", 'P'),
            ("CcIII2", 'P'),
            ("CcIII4", 'p'),
            ("AaI1", 'K'),
            ("ChIII8", 'k'),
        ],
        'w',
    );
    assert_eq!(moves_from(&g, "BdII2"), vec!["BdII2BdII3", "BdII2BdII4"]);
    assert_eq!(moves_from(&g, "AdI3"), vec!["AdI3AdI4"]);
    assert_eq!(moves_from(&g, "CcIII2"), vec!["CcIII2CcIII3"]); // double step blocked
    let g = pos(
        "3x3",
        &[
            ("BdII2", 'P'),
            ("BdII3", 'n'),
            ("AaI1", 'K'),
            ("ChIII8", 'k'),
        ],
        'w',
    );
    assert!(moves_from(&g, "BdII2").is_empty()); // blocked: no jump over
    let g = pos(
        "3x3",
        &[("BdII7", 'p'), ("AaI1", 'K'), ("ChIII8", 'k')],
        'b',
    );
    assert_eq!(moves_from(&g, "BdII7"), vec!["BdII7BdII5", "BdII7BdII6"]);
}

#[test]
fn pawn_captures_on_six_squares() {
    let enemies = ["BcII5", "BeII5", "BdI5", "BdIII5", "AdII5", "CdII5"];
    let mut pieces: Vec<(&str, char)> = enemies.iter().map(|&s| (s, 'n')).collect();
    // Not capture squares: straight ahead, diagonal z+w, backwards, sideways.
    pieces.extend([
        ("BdII5", 'n'),
        ("AdI5", 'n'),
        ("BcII3", 'n'),
        ("BeIII4", 'n'),
        ("BdII4", 'P'),
        ("AaI1", 'K'),
        ("ChIII8", 'k'),
    ]);
    let g = pos("3x3", &pieces, 'w');
    let mut want: Vec<String> = enemies.iter().map(|s| format!("BdII4{}", s)).collect();
    want.sort();
    assert_eq!(moves_from(&g, "BdII4"), want);
}

#[test]
fn en_passant_from_a_neighbouring_board() {
    let mut g = pos(
        "3x3",
        &[
            ("BeII2", 'P'),
            ("BeI4", 'p'),
            ("BdII4", 'p'),
            ("AeII4", 'p'),
            ("BeIII5", 'p'),
            ("AaI1", 'K'),
            ("ChIII8", 'k'),
        ],
        'w',
    );
    play_text(&mut g, "BeII2BeII4");
    let ms = engine_move_names(&g);
    assert!(ms.contains(&"BeI4BeII3".to_string()));
    assert!(ms.contains(&"BdII4BeII3".to_string()));
    assert!(ms.contains(&"AeII4BeII3".to_string()));
    assert!(!ms
        .iter()
        .any(|m| m.starts_with("BeIII5") && m.ends_with("BeII3")));
    assert!(g.is_noisy(g.parse_move("BeI4BeII3").unwrap()));
    play_text(&mut g, "BeI4BeII3");
    let r = RefPos::from_text(&g.to_text(), "3x3");
    assert!(
        !r.pieces.contains_key(&[4, 3, 1, 1]),
        "the double-stepped pawn is taken"
    );
    assert_eq!(r.pieces.get(&[4, 2, 1, 1]), Some(&'p'));
    assert!(!r.pieces.contains_key(&[4, 3, 0, 1]));
    assert_eq!(r.pieces.len(), 6);
    assert_eq!(g.hash(), g.full_hash());
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    let mut g = pos(
        "3x3",
        &[
            ("BeII2", 'P'),
            ("BeI4", 'p'),
            ("AaI1", 'K'),
            ("ChIII8", 'k'),
        ],
        'w',
    );
    play_text(&mut g, "BeII2BeII4");
    play_text(&mut g, "ChIII8CgIII8");
    play_text(&mut g, "AaI1AbI1");
    assert!(!engine_move_names(&g).contains(&"BeI4BeII3".to_string()));
}

/// On one board the game is chess without castling and without rook promotion, but the guard
/// stays a promotion piece (docs/rules/hyperchess.md, "Board"): it then moves as a king does,
/// and it can be taken.
#[test]
fn on_1x1_a_pawn_also_promotes_to_a_guard_that_moves_as_a_king() {
    let g = Hyperchess::from_text("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &opts("1x1")).unwrap();
    assert_eq!(moves_from(&g, "b7"), ["b7b8b", "b7b8g", "b7b8n", "b7b8q"]);
    let g = Hyperchess::from_text("4k3/8/4n3/8/3G4/8/8/4K3 w - - 0 1", &opts("1x1")).unwrap();
    assert_eq!(
        moves_from(&g, "d4"),
        ["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"]
    );
    let g = Hyperchess::from_text("4k3/8/4n3/8/3G4/8/8/4K3 b - - 0 1", &opts("1x1")).unwrap();
    assert!(moves_from(&g, "e6").contains(&"e6d4".to_string()));
}

#[test]
fn promotion_to_knight_guard_bishop_or_queen_only() {
    let g = pos(
        "3x3",
        &[("CbI7", 'P'), ("CaI8", 'r'), ("BeII1", 'K'), ("BeII8", 'k')],
        'w',
    );
    let ms = moves_from(&g, "CbI7");
    let mut want = vec![];
    for t in ["CaI8", "CbI8", "BbI8", "CbII8"] {
        for p in ['b', 'g', 'n', 'q'] {
            if t != "BbI8" && t != "CbII8" {
                want.push(format!("CbI7{}{}", t, p));
            }
        }
    }
    want.sort();
    assert_eq!(ms, want);
    // Black promotes on rank 1 of any board.
    let g = pos(
        "3x3",
        &[("AaII2", 'p'), ("BeII1", 'K'), ("BeII8", 'k')],
        'b',
    );
    assert_eq!(moves_from(&g, "AaII2").len(), 4);
}

#[test]
fn sliders_are_blocked_and_capture_the_first_enemy() {
    let g = pos(
        "3x3",
        &[
            ("AaI1", 'R'),
            ("AaII1", 'n'),
            ("AaI3", 'P'),
            ("ChIII8", 'k'),
            ("BeII1", 'K'),
        ],
        'w',
    );
    let ms = moves_from(&g, "AaI1");
    assert!(ms.contains(&"AaI1AaII1".to_string()));
    assert!(!ms.contains(&"AaI1AaIII1".to_string()));
    assert!(ms.contains(&"AaI1AaI2".to_string()));
    assert!(!ms.contains(&"AaI1AaI3".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Check and the end of the game.

#[test]
fn own_king_may_not_be_left_attacked_from_another_board() {
    // Check along z from the board above: the rook cannot be blocked or taken.
    let g = pos(
        "3x3",
        &[
            ("BeII1", 'K'),
            ("BeIII1", 'r'),
            ("AaI8", 'k'),
            ("BdII2", 'P'),
        ],
        'w',
    );
    assert!(g.in_check());
    let ms = engine_move_names(&g);
    // Only king moves (the rook on another board cannot be blocked or taken).
    assert!(ms.iter().all(|m| m.starts_with("BeII1")), "{:?}", ms);
    // A pinned piece: guard between king and rook along the w axis.
    let g = pos(
        "3x3",
        &[
            ("AeII1", 'K'),
            ("BeII1", 'G'),
            ("CeII1", 'r'),
            ("AaI8", 'k'),
        ],
        'w',
    );
    let ms = moves_from(&g, "BeII1");
    assert_eq!(ms, vec!["BeII1CeII1"]); // the pinned guard may only take the pinner
                                        // The king may not step onto a square a bishop attacks from another board.
    let g = pos(
        "3x3",
        &[("BeII1", 'K'), ("CdIII1", 'b'), ("AaI8", 'k')],
        'w',
    );
    let ms = moves_from(&g, "BeII1");
    assert!(!ms.contains(&"BeII1BdII1".to_string()));
    assert!(ms.contains(&"BeII1BdII2".to_string()));
    assert!(ms.contains(&"BeII1BfII1".to_string()));
}

#[test]
fn checkmate_loses() {
    // Back-rank mate on one board in 1x1.
    let mut g = Hyperchess::from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &opts("1x1")).unwrap();
    play_text(&mut g, "a1a8");
    let s = g.status();
    match s {
        Status::Over(o) => {
            assert_eq!(o.reason, "checkmate");
            assert_eq!(o.winner(), Some(0));
        }
        _ => panic!("not over"),
    }
    let mut ms = Vec::new();
    g.legal_moves(&mut ms);
    assert!(ms.is_empty());
    // A mate given from other boards: rook check along z, the flight squares covered by a rook
    // and a queen standing on other boards.
    let g = pos(
        "3x3",
        &[
            ("BaII1", 'k'),
            ("BaIII1", 'R'),
            ("BbIII2", 'R'),
            ("BbI2", 'Q'),
            ("ChIII8", 'K'),
        ],
        'b',
    );
    assert!(g.in_check());
    assert!(g.status().is_over(), "{}", g.to_text());
    if let Status::Over(o) = g.status() {
        assert_eq!(o.reason, "checkmate");
        assert_eq!(o.winner(), Some(0));
    }
}

#[test]
fn stalemate_is_a_draw() {
    let g = Hyperchess::from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &opts("1x1")).unwrap();
    match g.status() {
        Status::Over(o) => {
            assert_eq!(o.reason, "stalemate");
            assert_eq!(o.rewards[0], 0.5);
            assert_eq!(o.rewards[1], 0.5);
        }
        _ => panic!("not over"),
    }
}

#[test]
fn bare_kings_is_a_draw() {
    let mut g = pos("3x3", &[("BeII1", 'K'), ("BeII2", 'q'), ("AaI8", 'k')], 'w');
    assert!(!g.status().is_over());
    play_text(&mut g, "BeII1BeII2");
    match g.status() {
        Status::Over(o) => assert_eq!(o.reason, "bare kings"),
        _ => panic!("not over"),
    }
    // A king and a guard against a king is not bare kings.
    let g = pos("3x3", &[("BeII1", 'K'), ("AeII2", 'G'), ("AaI8", 'k')], 'w');
    assert!(!g.status().is_over());
}

#[test]
fn fifty_move_rule_after_100_plies_without_pawn_move_or_capture() {
    let t = "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80";
    let mut g = Hyperchess::from_text(t, &opts("1x1")).unwrap();
    let mut h = g.clone();
    play_text(&mut g, "a1a2");
    match g.status() {
        Status::Over(o) => assert_eq!(o.reason, "fifty-move rule"),
        _ => panic!("not over"),
    }
    // A pawn move resets the clock.
    play_text(&mut h, "e2e3");
    assert!(!h.status().is_over());
    assert_eq!(h.halfmove_clock(), 0);
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &opts("1x1")).unwrap();
    let cycle = ["a1a2", "e8d8", "a2a1", "d8e8"];
    for m in cycle {
        play_text(&mut g, m);
        assert!(!g.status().is_over());
    }
    for (i, m) in cycle.iter().enumerate() {
        play_text(&mut g, m);
        assert_eq!(g.status().is_over(), i == 3, "after {}", m);
    }
    match g.status() {
        Status::Over(o) => assert_eq!(o.reason, "threefold repetition"),
        _ => panic!("not over"),
    }
}

#[test]
fn repetition_counts_the_en_passant_right_only_when_the_capture_is_legal() {
    // After e2-e4 with a black pawn on d4 whose capture would expose its king (pinned along the
    // 4th rank by a rook), the en-passant right does not count: the position equals the same
    // placement without an en-passant square.
    let o = opts("1x1");
    let with_ep = Hyperchess::from_text("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", &o).unwrap();
    let without = Hyperchess::from_text("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1", &o).unwrap();
    assert_eq!(with_ep.hash(), without.hash());
    assert!(!engine_move_names(&with_ep).contains(&"d4e3".to_string()));
    // Legal capture: the right counts.
    let with_ep = Hyperchess::from_text("8/8/8/8/3pP3/8/k7/4K3 b - e3 0 1", &o).unwrap();
    let without = Hyperchess::from_text("8/8/8/8/3pP3/8/k7/4K3 b - - 0 1", &o).unwrap();
    assert_ne!(with_ep.hash(), without.hash());
    assert!(engine_move_names(&with_ep).contains(&"d4e3".to_string()));
    // The text still shows the square after every double step.
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &o).unwrap();
    play_text(&mut g, "e2e4");
    assert_eq!(g.to_text(), "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    assert_eq!(
        g.hash(),
        Hyperchess::from_text("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", &o)
            .unwrap()
            .hash()
    );
}

#[test]
fn max_plies_ends_the_game_counted_from_the_position_given() {
    let o = opts("1x1").with("MaxPlies", "3");
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 40", &o).unwrap();
    for m in ["a1a2", "e8d8", "a2a3"] {
        assert!(!g.status().is_over());
        play_text(&mut g, m);
    }
    match g.status() {
        Status::Over(o) => assert_eq!(o.reason, "MaxPlies"),
        _ => panic!("not over"),
    }
    let mut ms = Vec::new();
    g.legal_moves(&mut ms);
    assert!(ms.is_empty());
}

#[test]
fn verdict_order_mate_then_bare_kings_then_fifty_moves_then_repetition_then_max_plies() {
    // Mate given on the 100th ply is a mate.
    let mut g = Hyperchess::from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 1", &opts("1x1")).unwrap();
    play_text(&mut g, "a1a8");
    assert!(matches!(g.status(), Status::Over(o) if o.reason == "checkmate"));
    // Stalemate on the last MaxPlies ply is a stalemate.
    let o = opts("1x1").with("MaxPlies", "1");
    let mut g = Hyperchess::from_text("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1", &o).unwrap();
    play_text(&mut g, "g5g6");
    assert!(matches!(g.status(), Status::Over(o) if o.reason == "stalemate"));
    // Bare kings by a capture that also completes 100 plies? A capture resets the clock, so:
    // bare kings before MaxPlies.
    let o = opts("1x1").with("MaxPlies", "1");
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", &o).unwrap();
    play_text(&mut g, "e1e2");
    assert!(matches!(g.status(), Status::Over(o) if o.reason == "bare kings"));
    // 100-ply rule before repetition and MaxPlies: repeat with the clock reaching 100.
    let o = opts("1x1").with("MaxPlies", "8");
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 92 1", &o).unwrap();
    for m in [
        "a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1", "d8e8",
    ] {
        play_text(&mut g, m);
    }
    assert!(
        matches!(g.status(), Status::Over(o) if o.reason == "fifty-move rule"),
        "{:?}",
        g.status()
    );
    // Repetition before MaxPlies.
    let o = opts("1x1").with("MaxPlies", "8");
    let mut g = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &o).unwrap();
    for m in [
        "a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1", "d8e8",
    ] {
        play_text(&mut g, m);
    }
    assert!(matches!(g.status(), Status::Over(o) if o.reason == "threefold repetition"));
}

#[test]
fn noisy_moves_and_priorities() {
    let g = pos(
        "3x3",
        &[
            ("BeII1", 'K'),
            ("AaI8", 'k'),
            ("BdII4", 'P'),
            ("BcII5", 'q'),
            ("BeII5", 'n'),
            ("CaII7", 'P'),
            ("CcIII3", 'N'),
        ],
        'w',
    );
    let q = g.parse_move("BdII4BcII5").unwrap();
    let n = g.parse_move("BdII4BeII5").unwrap();
    let quiet = g.parse_move("BdII4BdII5").unwrap();
    let promo = g.parse_move("CaII7CaII8q").unwrap();
    assert!(g.is_noisy(q) && g.is_noisy(n) && g.is_noisy(promo) && !g.is_noisy(quiet));
    assert!(g.move_priority(q) > g.move_priority(n));
    assert!(g.move_priority(n) > g.move_priority(quiet));
    assert!(g.move_priority(promo) > g.move_priority(quiet));
}

#[test]
fn evaluation_counts_material_for_the_side_asked() {
    let g = pos(
        "3x3",
        &[("BeII1", 'K'), ("AaI8", 'k'), ("CcIII3", 'Q')],
        'w',
    );
    assert!(g.evaluate(0) > 900);
    assert_eq!(g.evaluate(1), -g.evaluate(0));
    let g1 = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &opts("1x1")).unwrap();
    assert!(g1.evaluate(0) > 400 && g1.evaluate(0) < 700);
    let s = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    assert_eq!(s.evaluate(0), 0);
}

// ---------------------------------------------------------------------------------------------
// Move generator against known perft figures and the naive reference.

#[test]
fn perft_1x1_start_position() {
    let g = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    assert_eq!(perft(&g, 1), 20);
    assert_eq!(perft(&g, 2), 400);
    assert_eq!(perft(&g, 3), 8902);
    assert_eq!(perft(&g, 4), 197281);
}

#[test]
fn perft_1x1_start_position_depth_5() {
    let g = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    assert_eq!(perft(&g, 5), 4865609);
}

/// 3x3 perft 3 from the start: the engine's total, with the move lists of a sample of the
/// 51984 depth-2 positions (every 400th) checked against the naive reference.
#[test]
fn perft_3x3_start_depth_3_with_sampled_reference_checks() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let mut ms1 = Vec::new();
    let mut ms2 = Vec::new();
    let mut total = 0;
    let mut index = 0;
    let mut sampled = 0;
    g.legal_moves(&mut ms1);
    for &m1 in &ms1 {
        let mut g1 = g.clone();
        g1.play(m1);
        g1.legal_moves(&mut ms2);
        for &m2 in &ms2 {
            let mut g2 = g1.clone();
            g2.play(m2);
            total += perft(&g2, 1);
            if index % 400 == 0 {
                let r = RefPos::from_text(&g2.to_text(), "3x3");
                assert_eq!(engine_move_names(&g2), r.move_names(), "{}", g2.to_text());
                sampled += 1;
            }
            index += 1;
        }
    }
    assert_eq!(index, 51984);
    assert!(sampled > 100);
    assert_eq!(total, 12194106);
}

#[test]
fn perft_1x1_cpw_position_3() {
    // chessprogramming.org "Position 3" (no castling rights); promotions are impossible within
    // 4 plies, so the counts are those of ordinary chess.
    let g =
        Hyperchess::from_text("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &opts("1x1")).unwrap();
    assert_eq!(perft(&g, 1), 14);
    assert_eq!(perft(&g, 2), 191);
    assert_eq!(perft(&g, 3), 2812);
    assert_eq!(perft(&g, 4), 43238);
}

const REF_FENS_1X1: &[&str] = &[
    // Kiwipete without castling rights.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    // CPW position 4 without castling rights (promotions, checks).
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w - - 0 1",
    // CPW position 5 without castling rights.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8",
    // En passant available, and en passant into a discovered check along the rank.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3",
    "8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2",
    // Guards on the board, promotions to every piece.
    "4k3/1P3g2/8/3G4/8/8/5p2/4K3 w - - 0 1",
    "r3k3/1G6/8/8/8/8/1g6/4K2R b - - 0 1",
];

#[test]
fn perft_divide_1x1_matches_the_naive_reference() {
    for fen in REF_FENS_1X1 {
        let g =
            Hyperchess::from_text(fen, &opts("1x1")).unwrap_or_else(|e| panic!("{}: {}", fen, e));
        let r = RefPos::from_text(fen, "1x1");
        assert_eq!(engine_move_names(&g), r.move_names(), "{}", fen);
        let depth = 3;
        let mut div = perft_divide(&g, depth);
        div.sort();
        for (m, n) in div {
            let mut rr = r.clone();
            let (f, a) = ref_parse_square(&m);
            let (t, b) = ref_parse_square(&m[a..]);
            rr.play(f, t, m[a + b..].chars().next());
            assert_eq!(n, rr.perft(depth - 1), "{} after {}", fen, m);
        }
    }
}

/// Plays random games, comparing the engine's legal moves with the naive reference's at every
/// ply; also checks mate/stalemate verdicts against the reference.
fn compare_random_games(
    boards: &str,
    start: &Hyperchess,
    games: usize,
    plies: usize,
    seed: u64,
) -> usize {
    use rand::Rng;
    let mut rng = rng_from_seed(seed);
    let mut ms = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut g = start.clone();
        for _ in 0..plies {
            let r = RefPos::from_text(&g.to_text(), boards);
            g.legal_moves(&mut ms);
            match g.status() {
                Status::Over(o) if o.reason == "checkmate" || o.reason == "stalemate" => {
                    assert!(r.moves().is_empty(), "{}", g.to_text());
                    assert_eq!(
                        o.reason == "checkmate",
                        r.attacked_by(r.king(r.white), !r.white)
                    );
                    break;
                }
                Status::Over(_) => break,
                Status::Ongoing => {}
            }
            assert_eq!(
                engine_move_names(&g),
                r.move_names(),
                "position {}",
                g.to_text()
            );
            checked += 1;
            // Prefer captures so the games get tactical.
            let caps: Vec<Move> = ms.iter().copied().filter(|&m| g.is_noisy(m)).collect();
            let m = if !caps.is_empty() && rng.random_range(0..3) > 0 {
                caps[rng.random_range(0..caps.len())]
            } else {
                ms[rng.random_range(0..ms.len())]
            };
            g.play(m);
        }
    }
    checked
}

#[test]
fn random_games_on_3x3_match_the_naive_reference() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let n = compare_random_games("3x3", &g, 2, 120, 7);
    assert!(n > 100);
}

#[test]
fn random_games_on_small_grids_match_the_naive_reference() {
    for (b, seed) in [("1x1", 1), ("2x1", 2), ("1x3", 3), ("2x2", 4)] {
        let g = Hyperchess::start(&opts(b)).unwrap();
        compare_random_games(b, &g, 6, 200, seed);
    }
    // A sparse 3x3 middlegame where kings get checked across boards.
    let g = pos(
        "3x3",
        &[
            ("BeII1", 'K'),
            ("BeII8", 'k'),
            ("AaI1", 'Q'),
            ("CcIII8", 'q'),
            ("BdI2", 'P'),
            ("BdIII7", 'p'),
            ("CbII2", 'P'),
            ("AbII7", 'p'),
            ("AhIII1", 'R'),
            ("ChI8", 'r'),
            ("BcII3", 'N'),
            ("BfII6", 'n'),
            ("AdII4", 'G'),
            ("CdII5", 'g'),
            ("CfI1", 'B'),
            ("AfIII8", 'b'),
        ],
        'w',
    );
    compare_random_games("3x3", &g, 8, 150, 5);
}

/// Random sparse positions full of sliders, so that pins along every kind of 4D line, checks,
/// double checks and king steps along a checking line come up often: the engine's legal moves
/// (and its noisy moves, a subset of them) equal the naive reference's.
#[test]
fn random_slider_positions_match_the_naive_reference() {
    use rand::Rng;
    let mut rng = rng_from_seed(11);
    let mut checked = 0;
    let mut pinned_seen = 0;
    for (boards, tries) in [("3x3", 1500), ("2x2", 1000), ("1x1", 1000)] {
        let (c, r) = grid(boards);
        let name = |rng: &mut GameRng| {
            ref_name(
                [
                    rng.random_range(0..8),
                    rng.random_range(0..8),
                    rng.random_range(0..r as i32),
                    rng.random_range(0..c as i32),
                ],
                boards == "1x1",
            )
        };
        for _ in 0..tries {
            let mut pieces: Vec<(String, char)> =
                vec![(name(&mut rng), 'K'), (name(&mut rng), 'k')];
            // Mostly, a line from one king through one of its pieces to an enemy slider.
            let white = rng.random_range(0..2) == 0;
            if rng.random_range(0..4) > 0 {
                let king = ref_parse_square(&pieces[if white { 0 } else { 1 }].0).0;
                let mut dir = [0i32; 4];
                let axes = rng.random_range(1..3);
                while dir.iter().filter(|&&d| d != 0).count() < axes {
                    let a = rng.random_range(0..4);
                    dir[a] = if rng.random_range(0..2) == 0 { -1 } else { 1 };
                }
                let d1 = rng.random_range(1..4);
                let d2 = d1 + rng.random_range(1..4);
                let at = |d: i32| {
                    let q = [0, 1, 2, 3].map(|i| king[i] + d * dir[i]);
                    let ok = (0..8).contains(&q[0])
                        && (0..8).contains(&q[1])
                        && (0..r as i32).contains(&q[2])
                        && (0..c as i32).contains(&q[3]);
                    ok.then(|| ref_name(q, boards == "1x1"))
                };
                if let (Some(s1), Some(s2)) = (at(d1), at(d2)) {
                    let own = b"QRBNGP"[rng.random_range(0..6)] as char;
                    let slider = if axes == 1 { 'r' } else { 'b' };
                    let slider = if rng.random_range(0..3) == 0 {
                        'q'
                    } else {
                        slider
                    };
                    let case = |ch: char, w: bool| {
                        if w {
                            ch.to_ascii_uppercase()
                        } else {
                            ch.to_ascii_lowercase()
                        }
                    };
                    pieces.push((s1, case(own, white)));
                    pieces.push((s2, case(slider, !white)));
                }
            }
            for _ in 0..rng.random_range(1..8) {
                let p = b"QRBNGPqrbngp"[rng.random_range(0..12)] as char;
                pieces.push((name(&mut rng), p));
            }
            // A pawn on its last rank, or two pieces on one square, is not a position.
            let mut seen = std::collections::HashSet::new();
            if pieces.iter().any(|(sq, p)| {
                !seen.insert(sq.clone())
                    || (p.eq_ignore_ascii_case(&'p') && (sq.ends_with('1') || sq.ends_with('8')))
            }) {
                continue;
            }
            let side = if white { 'w' } else { 'b' };
            let list: Vec<(&str, char)> = pieces.iter().map(|(s, p)| (s.as_str(), *p)).collect();
            let text = build(boards, &list, side, "-");
            let Ok(g) = Hyperchess::from_text(&text, &opts(boards)) else {
                continue; // the side not to move is in check
            };
            let r = RefPos::from_text(&text, boards);
            let names = engine_move_names(&g);
            assert_eq!(names, r.move_names(), "position {}", text);
            let mut noisy = Vec::new();
            g.noisy_moves(&mut noisy);
            assert!(
                noisy.iter().all(|&m| names.contains(&g.format_move(m))),
                "noisy moves are legal in {}",
                text
            );
            // Not in check, and a piece other than the king may not make a move it could
            // otherwise make: a pin is in play.
            let king = r.king(r.white);
            let legal = r.moves();
            if !g.in_check()
                && r.candidates()
                    .iter()
                    .any(|m| m.0 != king && !legal.contains(m))
            {
                pinned_seen += 1;
            }
            checked += 1;
        }
    }
    assert!(
        checked > 2000 && pinned_seen > 200,
        "{} positions checked, {} with pins",
        checked,
        pinned_seen
    );
}

// ---------------------------------------------------------------------------------------------
// Invariants over random games.

#[test]
fn random_game_invariants_3x3() {
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    check_invariants(&g, 3, 400, 11).unwrap();
}

#[test]
fn random_game_invariants_other_grids() {
    for (b, seed) in [
        ("1x1", 21),
        ("2x2", 22),
        ("4x4", 23),
        ("1x4", 24),
        ("3x2", 25),
    ] {
        let g = Hyperchess::start(&opts(b)).unwrap();
        let games = if b == "1x1" { 60 } else { 3 };
        check_invariants(&g, games, 400, seed).unwrap_or_else(|e| panic!("{}: {}", b, e));
    }
    // Short games that end by repetition or the 100-ply rule often.
    let g = Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K2r w - - 90 1", &opts("1x1")).unwrap();
    check_invariants(&g, 200, 200, 26).unwrap();
}

/// An en-passant capture can check through the square of the pawn it takes alone: here the
/// bishop's diagonal b3–f7 runs through d5, not through e5 or d6.
#[test]
fn en_passant_that_opens_a_line_through_the_taken_pawn_gives_check() {
    let g = Hyperchess::from_text("8/5k2/8/3pP3/8/1B6/8/4K3 w - d6 0 1", &opts("1x1")).unwrap();
    assert!(!g.in_check());
    let mut n = g.clone();
    n.play(g.parse_move("e5d6").unwrap());
    assert!(n.in_check(), "{}", n.to_text());
    let r = RefPos::from_text(&n.to_text(), "1x1");
    assert!(r.attacked_by(r.king(r.white), !r.white));
    assert_eq!(engine_move_names(&n), r.move_names());
}

/// `clone_from` copies only the live squares and history: a state reused for positions of other
/// grids and other games must still become an exact equal of its source, in everything it
/// says and in how it goes on (repetitions and the 100-ply rule included). Each reused copy is
/// played on alongside its source, and compared after every ply.
#[test]
fn clone_from_a_reused_state_behaves_as_a_fresh_copy() {
    use rand::Rng;
    let mut rng = rng_from_seed(31);
    let mut buf = Vec::new();
    let mut reused = Hyperchess::start(&opts("4x4")).unwrap();
    random_playout(&mut reused, &mut rng, 60, &mut buf);
    let starts = [
        Hyperchess::start(&opts("1x1")).unwrap(),
        Hyperchess::start(&opts("3x3")).unwrap(),
        // Rooks and kings only, 70 reversible plies played: the 100-ply rule comes up.
        Hyperchess::from_text("4k3/8/8/8/8/8/8/R3K2r w - - 70 1", &opts("1x1")).unwrap(),
        Hyperchess::start(&opts("2x2")).unwrap(),
    ];
    let mut endings = std::collections::BTreeSet::new();
    for round in 0..40 {
        let mut g = starts[round % starts.len()].clone();
        for _ in 0..rng.random_range(0..150) {
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            g.play(m);
        }
        reused.clone_from(&g);
        let mut fresh = g.clone();
        for _ in 0..300 {
            assert!(reused.bitboards_match_board(), "{}", fresh.to_text());
            assert_eq!(reused.to_text(), fresh.to_text());
            assert_eq!(reused.hash(), fresh.hash());
            assert_eq!(reused.full_hash(), fresh.hash());
            assert_eq!(reused.status(), fresh.status(), "{}", fresh.to_text());
            assert_eq!(engine_move_names(&reused), engine_move_names(&fresh));
            let Some(m) = fresh.random_move(&mut rng, &mut buf) else {
                break;
            };
            fresh.play(m);
            reused.play(m);
        }
        if let Status::Over(o) = fresh.status() {
            endings.insert(o.reason);
        }
        // Next round starts from this reused state, whatever grid it now has.
    }
    assert!(endings.contains("fifty-move rule"), "{:?}", endings);
    // A repetition whose first occurrences come before the copy.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut g = starts[0].clone();
    for m in shuffle.iter().chain(&shuffle[..1]) {
        g.play(g.parse_move(m).unwrap());
    }
    reused.clone_from(&g);
    for m in &shuffle[1..] {
        assert_eq!(reused.status(), Status::Ongoing);
        reused.play(reused.parse_move(m).unwrap());
    }
    // The start position for the third time (plies 0, 4 and 8).
    assert!(matches!(reused.status(), Status::Over(o) if o.reason == "threefold repetition"));
}

/// `lineage` names a position's ply and its parent's hash, however a search made the child: a
/// reused state `clone_from` the parent and played on (the parent's history since its last
/// irreversible move is all it copies, so captures and pawn moves come up), or a null move.
/// The learned evaluation's per-ply stack finds the parent's sums by it.
#[test]
fn lineage_names_the_parent_of_every_child() {
    use rand::Rng;
    let mut rng = rng_from_seed(32);
    let mut buf = Vec::new();
    let mut child = Hyperchess::start(&opts("3x3")).unwrap();
    let (mut irreversible, mut nulls) = (0, 0);
    for boards in ["1x1", "3x3", "1x1"] {
        let mut g = Hyperchess::start(&opts(boards)).unwrap();
        assert_eq!(g.lineage(), None, "the position given has no parent");
        for ply in 0..200 {
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            let hash = g.hash();
            child.clone_from(&g);
            child.play(m);
            assert_eq!(child.lineage(), Some((ply + 1, hash)), "{}", g.to_text());
            irreversible += child.to_text().contains(" 0 ") as usize;
            if rng.random_range(0..4) == 0 {
                if let Some(n) = child.null_move() {
                    assert_eq!(n.lineage(), Some((ply + 2, child.hash())));
                    nulls += 1;
                }
            }
            g.play(m);
        }
    }
    assert!(
        irreversible > 20 && nulls > 20,
        "{} {}",
        irreversible,
        nulls
    );
}

/// The per-board bitboards that move generation reads are kept by `play` alongside the board:
/// after every ply of random games on several grids (captures, promotions and en passant
/// preferred, so that every kind of change comes up) they equal the ones recomputed from the
/// board. The moves counted a set at a time (perft's last ply) equal the moves listed.
#[test]
fn bitboards_follow_the_board_through_random_games() {
    use rand::Rng;
    let mut rng = rng_from_seed(41);
    let mut ms = Vec::new();
    let mut noisy = Vec::new();
    let mut kinds = [0usize; 3];
    for (boards, games) in [("1x1", 400), ("2x1", 150), ("1x3", 100), ("3x3", 60)] {
        let start = Hyperchess::start(&opts(boards)).unwrap();
        for _ in 0..games {
            let mut g = start.clone();
            for _ in 0..300 {
                assert!(g.bitboards_match_board(), "{}", g.to_text());
                g.legal_moves(&mut ms);
                assert_eq!(g.count_legal_moves(&mut noisy), ms.len(), "{}", g.to_text());
                g.noisy_moves(&mut noisy);
                assert!(noisy.iter().all(|m| ms.contains(m)), "{}", g.to_text());
                if ms.is_empty() {
                    break;
                }
                let pick: Vec<Move> = ms.iter().copied().filter(|&m| g.is_noisy(m)).collect();
                let m = if !pick.is_empty() && rng.random_range(0..4) > 0 {
                    pick[rng.random_range(0..pick.len())]
                } else {
                    ms[rng.random_range(0..ms.len())]
                };
                if m.promo() != 0 {
                    kinds[0] += 1;
                } else if g.piece_at(m.to()) == 0 && g.is_noisy(m) {
                    kinds[1] += 1;
                } else if g.piece_at(m.to()) != 0 {
                    kinds[2] += 1;
                }
                g.play(m);
            }
        }
    }
    // Promotions, en-passant captures and other captures all came up.
    assert!(kinds.iter().all(|&n| n > 20), "{:?}", kinds);
}

#[test]
fn random_games_end_with_a_reason_and_finished_games_have_no_moves() {
    let mut seen = std::collections::BTreeSet::new();
    let mut rng = rng_from_seed(99);
    let mut buf = Vec::new();
    let o = opts("1x1");
    for _ in 0..300 {
        let mut g = Hyperchess::from_text(START_1X1, &o).unwrap();
        random_playout(&mut g, &mut rng, 2000, &mut buf);
        if let Status::Over(o) = g.status() {
            seen.insert(o.reason);
            g.legal_moves(&mut buf);
            assert!(buf.is_empty());
        } else {
            panic!("a 1x1 random game lasted 2000 plies");
        }
    }
    for r in ["checkmate", "bare kings", "fifty-move rule"] {
        assert!(seen.contains(r), "{:?}", seen);
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
#[ignore]
fn speed_report() {
    use std::time::Instant;
    let report = |label: &str, g: &Hyperchess, depth: u32| {
        let t = Instant::now();
        let n = perft(g, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {} depth {}: {} nodes in {:.2}s = {:.1} M nodes/s",
            label,
            depth,
            n,
            s,
            n as f64 / s / 1e6
        );
    };
    let g1 = Hyperchess::from_text(START_1X1, &opts("1x1")).unwrap();
    report("1x1 start", &g1, 5);
    let kiwi = Hyperchess::from_text(REF_FENS_1X1[0], &opts("1x1")).unwrap();
    report("1x1 kiwipete (no castling)", &kiwi, 4);
    let g3 = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    report("3x3 start", &g3, 3);
    for (label, start) in [("1x1", g1.clone()), ("3x3", g3.clone())] {
        let mut rng = rng_from_seed(1);
        let mut buf = Vec::new();
        let t = Instant::now();
        let mut moves = 0;
        let mut games = 0;
        while t.elapsed().as_secs_f64() < 3.0 {
            let mut g = start.clone();
            moves += random_playout(&mut g, &mut rng, 1000, &mut buf);
            games += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "random playouts {}: {} games, {} moves in {:.2}s = {:.0} moves/s",
            label,
            games,
            moves,
            s,
            moves as f64 / s
        );
    }
    println!("state size: {} bytes", std::mem::size_of::<Hyperchess>());
    let t = Instant::now();
    let mut x = 0i64;
    for _ in 0..2000 {
        x += g3.evaluate(0) as i64;
    }
    println!(
        "evaluate 3x3 start: {:.1} us (sum {})",
        t.elapsed().as_secs_f64() * 1e6 / 2000.0,
        x
    );
}

#[test]
fn null_move_passes_the_turn_and_nothing_else() {
    let o = opts("1x1");
    let g = Hyperchess::from_text(START_1X1, &o).unwrap();
    let n = g.null_move().expect("a pass is allowed at the start");
    assert_eq!(n.to_move(), 1);
    assert_eq!(n.hash(), n.full_hash());
    assert_eq!(
        n.to_text().split_whitespace().take(2).collect::<Vec<_>>(),
        vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "b"]
    );
    // In check: no pass (it would leave the king en prise).
    let checked = Hyperchess::from_text("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", &o).unwrap();
    assert!(checked.in_check() && checked.null_move().is_none());
    // King and pawns only: zugzwang is common, no pass.
    let pawns = Hyperchess::from_text("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", &o).unwrap();
    assert!(pawns.null_move().is_none());
    // An en-passant square disappears with the pass.
    let ep = Hyperchess::from_text(START_1X1, &o).unwrap();
    let mut ep = ep;
    for m in ["e2e4", "a7a6", "e4e5", "d7d5"] {
        let mv = ep.parse_move(m).unwrap();
        ep.play(mv);
    }
    let n = ep.null_move().unwrap();
    assert_eq!(n.hash(), n.full_hash());
    assert!(!n.to_text().contains(" d6 "), "{}", n.to_text());
}
