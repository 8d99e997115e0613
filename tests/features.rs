//! The learned evaluation's input features of rithmomachia, tesseract and threechess
//! (hyperchess's are in `tests/learn.rs`): checked over the positions of random games, then
//! through the binary from self-play to a net the engine searches with.

use quatre::game::{playout, rng_from_seed, Game, RuleOptions};
use quatre::games::rithmomachia::{Rithmomachia, PYRAMID};
use quatre::games::tesseract::Tesseract;
use quatre::games::threechess::Threechess;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod common;

/// Checks the features of every position of `games` random games from `start` (each at most
/// `plies` plies): every index below `feature_count`, as many as `expected` says (computed from
/// the position's text), the same after the text's round trip, and, for an encoding that names
/// every piece's exact place (`exact`), none twice and two positions of one feature list with the
/// same `placement` (the pieces and the side to move, from the text). Returns how many positions
/// and distinct feature lists were seen.
fn check_random_positions<G: Game>(
    start: &G,
    games: usize,
    plies: usize,
    seed: u64,
    exact: bool,
    expected: impl Fn(&G, &str) -> usize,
    placement: impl Fn(&str) -> String,
) -> (usize, usize) {
    let seen: RefCell<HashMap<Vec<u32>, String>> = RefCell::new(HashMap::new());
    let positions = RefCell::new(0);
    let check = |g: &G| {
        let text = g.to_text();
        let mut f = Vec::new();
        g.features(&mut f);
        let count = g.feature_count();
        assert!(f.iter().all(|&x| (x as usize) < count), "{}", text);
        let mut sorted = f.clone();
        sorted.sort_unstable();
        if exact {
            let mut once = sorted.clone();
            once.dedup();
            assert_eq!(once.len(), f.len(), "a feature twice: {}", text);
        }
        assert_eq!(f.len(), expected(g, &text), "{}", text);
        let back = G::from_text(&text, g.options()).unwrap();
        let mut fb = Vec::new();
        back.features(&mut fb);
        fb.sort_unstable();
        assert_eq!(
            fb, sorted,
            "the text's round trip changed the features: {}",
            text
        );
        let here = placement(&text);
        let mut seen = seen.borrow_mut();
        let other = seen.entry(sorted).or_insert_with(|| here.clone());
        if exact {
            assert_eq!(*other, here, "two positions, one feature list");
        }
        *positions.borrow_mut() += 1;
    };
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    for _ in 0..games {
        let mut g = start.clone();
        playout(&mut g, &mut rng, plies, &mut buf, |g, rng, buf| {
            check(g);
            g.random_move(rng, buf)
        });
        check(&g);
    }
    let distinct = seen.borrow().len();
    (positions.into_inner(), distinct)
}

fn rithmo_opts() -> RuleOptions {
    RuleOptions::of::<Rithmomachia>()
}

/// What the rithmomachia encoding gives, counted from the text's pieces and prisoners: a piece
/// is a square feature and, for the first two of an identity (colour, shape, value; a pyramid
/// by its base), a material feature; a pyramid's layers one each (by colour, shape and value);
/// each side's prisoners min(count, 24) + min(sum / 10, 40) + min(digits, 32); White to move 1.
fn rithmo_expected(g: &Rithmomachia, _text: &str) -> usize {
    let specs = g.piece_specs();
    let mut copies: BTreeMap<(u8, u8, u32), usize> = BTreeMap::new();
    let mut layers = BTreeSet::new();
    for p in &specs {
        let value = if p.shape == PYRAMID {
            p.layers[0].1
        } else {
            p.val
        };
        *copies.entry((p.side, p.shape, value)).or_default() += 1;
        for &(shape, v) in &p.layers {
            layers.insert((p.side, shape, v));
        }
    }
    let prisoners: usize = (0..2)
        .map(|s| {
            let p = g.prisoners(s);
            (p.count.min(24) + (p.sum / 10).min(40) + p.digits.min(32)) as usize
        })
        .sum();
    specs.len()
        + copies.values().map(|&c| c.min(2)).sum::<usize>()
        + layers.len()
        + prisoners
        + g.to_move()
}

/// The pieces and the side to move: every token but the ply, the prisoners and the result.
fn rithmo_placement(text: &str) -> String {
    text.split_whitespace()
        .filter(|t| {
            !["ply=", "pb=", "pw=", "over="]
                .iter()
                .any(|k| t.starts_with(k))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn rithmomachia_features_over_random_games() {
    let g = Rithmomachia::start(&rithmo_opts()).unwrap();
    let (n, distinct) =
        check_random_positions(&g, 8, 400, 1, true, rithmo_expected, rithmo_placement);
    assert!(n >= 3000, "{} positions", n);
    assert!(
        distinct > n / 2,
        "{} feature lists for {} positions",
        distinct,
        n
    );
    // Converted pieces change colour, and the forward layout moves the armies.
    let o = rithmo_opts()
        .with("Captures", "convert")
        .with("Layout", "forward");
    let g = Rithmomachia::start(&o).unwrap();
    let (n, _) = check_random_positions(&g, 4, 400, 2, true, rithmo_expected, rithmo_placement);
    assert!(n >= 1000, "{} positions", n);
}

#[test]
fn rithmomachia_feature_set_names_the_victory_and_the_captures() {
    let name = |o: RuleOptions| Rithmomachia::start(&o).unwrap().feature_set().unwrap();
    assert_eq!(name(rithmo_opts()), "rithmomachia-remove-corps-N12/1");
    assert_eq!(
        name(rithmo_opts().with("N", "10").with("Layout", "forward")),
        "rithmomachia-remove-corps-N10/1"
    );
    assert_eq!(
        name(
            rithmo_opts()
                .with("Victory", "honore")
                .with("Captures", "convert")
        ),
        "rithmomachia-convert-honore-N12-S160-C8/1"
    );
    assert_eq!(
        name(rithmo_opts().with("Victory", "grande").with("S", "99")),
        "rithmomachia-remove-grande/1"
    );
}

/// The encoding on hand-made positions: a piece's square and identity, the duplicated identity
/// (White's two C4), a pyramid's lost layer, a value no army holds, the prisoners.
#[test]
fn rithmomachia_features_tell_pieces_apart() {
    let feats = |text: &str| {
        let g = Rithmomachia::from_text(text, &rithmo_opts()).unwrap();
        let mut f = Vec::new();
        g.features(&mut f);
        f.sort_unstable();
        f
    };
    let head = "turn=b ply=9 pb=0/0/0 pw=0/0/0";
    let base = feats(&format!("{} a1=C4 c3=C4 h16=c3", head));
    // Each C4: its square and a material feature (first, second); c3: two; nothing else.
    assert_eq!(base.len(), 6);
    // Another identity on the same square, a piece moved, the other colour: other features.
    for other in [
        "a1=C2 c3=C4 h16=c3",
        "a2=C4 c3=C4 h16=c3",
        "a1=c4 c3=C4 h16=c3",
        "a1=T4 c3=C4 h16=c3",
    ] {
        assert_ne!(feats(&format!("{} {}", head, other)), base, "{}", other);
    }
    // A value no army holds is "another circle": a feature list, not an error.
    let odd = feats(&format!("{} a1=C4 c3=C4 h16=c1000", head));
    assert_eq!(odd.len(), 6);
    assert_ne!(odd, base);
    // A pyramid: square, material, one feature per layer; a lost layer loses its feature.
    let full = feats(&format!("{} b2=P:S36/S25/T16/T9/C4/C1 h16=c3", head));
    let lost = feats(&format!("{} b2=P:S36/S25/T16/T9/C1 h16=c3", head));
    assert_eq!(full.len(), 2 + 6 + 2);
    assert_eq!(lost.len(), 2 + 5 + 2);
    assert!(lost.iter().all(|x| full.contains(x)));
    // Prisoners: 2 pieces, sum 45 (4 thresholds), 3 digits; White to move one more.
    let pris = feats("turn=w ply=9 pb=2/45/3 pw=0/0/0 a1=C4 c3=C4 h16=c3");
    assert_eq!(pris.len(), base.len() + 2 + 4 + 3 + 1);
}

fn tess_opts() -> RuleOptions {
    RuleOptions::of::<Tesseract>()
}

/// What the tesseract encoding gives, counted from the text: a point a man or small slider
/// stands on, two a large slider covers, each with its zone, its distance to the enemy
/// Tesseract where there is one and to its own (not the Tesseract itself) where there is one; a
/// cross's centre its zone and its distance to the enemy Tesseract; a man on the board and a
/// piece in reserve one thermometer feature each (a text holds at most the full set); the setup
/// phase and Black to move one each.
fn tess_expected(g: &Tesseract, text: &str) -> usize {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let tokens = |side: usize| fields[3 + side].split(',').filter(|&t| t != "-");
    let has_t = |side: usize| tokens(side).any(|t| t.starts_with('T')) as usize;
    let mut n = 0;
    for side in 0..2 {
        let (enemy, own) = (has_t(1 - side), has_t(side));
        for token in tokens(side) {
            n += match token.as_bytes()[0] {
                b'L' => 2 * (1 + enemy + own),
                b's' => 1 + enemy + own,
                b'X' => 1 + enemy,
                // A man: its point and its count; the Tesseract has no distance to itself.
                b'T' => 1 + enemy + 1,
                _ => 1 + enemy + own + 1,
            };
        }
    }
    for field in &fields[5..7] {
        n += field.chars().filter(|&c| c != '-').count();
    }
    n + fields[1].starts_with("setup") as usize
        + (fields[0] == "b") as usize
        + tess_v3_expected(g, text).len()
}

/// Where version 3's features begin (version 2's 1,334), and its blocks: threats (20), moves
/// (96), a Tesseract's neighbours (96).
const TESS_THREAT: u32 = 1334;
const TESS_MOBILITY: u32 = TESS_THREAT + 20;
const TESS_AROUND: u32 = TESS_MOBILITY + 96;
const TESS_MOB_THRESHOLDS: [[usize; 8]; 3] = [
    [1, 2, 3, 4, 6, 8, 12, 18],
    [2, 4, 6, 9, 13, 18, 25, 35],
    [2, 5, 9, 14, 20, 28, 38, 50],
];

/// A point of a tesseract text (`h12`) as (file, rank) from 0.
fn tess_point(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    ((b[0] - b'a') as i32, s[1..].parse::<i32>().unwrap() - 1)
}

/// The point a move string starts from (`c2e4f3` → c2), None for a drop or a placement.
fn tess_from(mv: &str) -> Option<(i32, i32)> {
    if mv.contains('@') {
        return None;
    }
    let digits = mv[1..].chars().take_while(|c| c.is_ascii_digit()).count();
    Some(tess_point(&mv[..1 + digits]))
}

/// What covers each point of a tesseract board: colour and letter.
type TessCells = HashMap<(i32, i32), (usize, char)>;

/// A tesseract text's board: what covers each point (a large slider's two points both), and
/// the cross footprints (centre and arm ends).
fn tess_board(text: &str) -> (TessCells, BTreeSet<(i32, i32)>) {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut cells = HashMap::new();
    let mut footprint = BTreeSet::new();
    for side in 0..2 {
        for t in fields[3 + side].split(',').filter(|&t| t != "-") {
            let letter = t.chars().next().unwrap();
            match letter {
                'X' => {
                    let (f, r) = tess_point(&t[1..]);
                    for (df, dr) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                        footprint.insert((f + df, r + dr));
                    }
                }
                's' | 'L' => {
                    let p = tess_point(&t[1..t.len() - 1]);
                    cells.insert(p, (side, letter));
                    if letter == 'L' {
                        let q = if t.ends_with('h') {
                            (p.0 + 1, p.1)
                        } else {
                            (p.0, p.1 + 1)
                        };
                        cells.insert(q, (side, letter));
                    }
                }
                _ => {
                    cells.insert(tess_point(&t[1..]), (side, letter));
                }
            }
        }
    }
    (cells, footprint)
}

/// Version 3's features of a tesseract position, worked out from its text and its legal moves
/// (not from the engine's own move generator): each Tesseract's eight neighbours by what lies
/// there (the direction taken from the feature itself, checked once per direction); then, once
/// play has started and the game is not over, for each side with the move given to it (the
/// text's side letter changed) and not bound to drop, one threat per enemy man some legal
/// move of it takes (playing the move and seeing the man gone) and its moves' thermometers by
/// class. Sorted.
fn tess_v3_expected(g: &Tesseract, text: &str) -> Vec<u32> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (cells, footprint) = tess_board(text);
    let mut out = Vec::new();
    // The neighbours: what the engine gives, checked for the multiset of (colour, what) and
    // one feature per direction.
    let mut f = Vec::new();
    g.features(&mut f);
    let around: Vec<u32> = f.iter().copied().filter(|&x| x >= TESS_AROUND).collect();
    let mut want: Vec<(usize, usize)> = Vec::new();
    for (&(tf, tr), &(side, letter)) in &cells {
        if letter != 'T' {
            continue;
        }
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) == (0, 0) {
                    continue;
                }
                let q = (tf + df, tr + dr);
                let what = if !(0..15).contains(&q.0) || !(0..15).contains(&q.1) {
                    0
                } else if footprint.contains(&q) {
                    1
                } else {
                    match cells.get(&q) {
                        Some((_, 's' | 'L')) => 2,
                        Some(&(c, _)) if c == side => 3,
                        Some(_) => 4,
                        None => 5,
                    }
                };
                want.push((side, what));
            }
        }
    }
    let mut got: Vec<(usize, usize)> = around
        .iter()
        .map(|&x| {
            let i = (x - TESS_AROUND) as usize;
            (i / 48, i % 6)
        })
        .collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, want, "a Tesseract's neighbours: {}", text);
    let dirs: BTreeSet<usize> = around
        .iter()
        .map(|&x| (x - TESS_AROUND) as usize / 6)
        .collect();
    assert_eq!(dirs.len(), around.len(), "one per direction: {}", text);
    out.extend(around);
    if fields[1] != "play" || g.status().is_over() {
        return out;
    }
    let to_move = (fields[0] == "b") as usize;
    for side in 0..2 {
        let mut as_mover: Vec<&str> = fields.clone();
        as_mover[0] = if side == 0 { "w" } else { "b" };
        let p = Tesseract::from_text(&as_mover.join(" "), g.options()).unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let rel = (side == to_move) as usize;
        let mut count = [0usize; 3];
        let mut taken = BTreeSet::new();
        for &m in &moves {
            let s = p.format_move(m);
            let Some(from) = tess_from(&s) else { continue };
            let class = match cells[&from].1 {
                'T' => 0,
                's' | 'L' => 2,
                _ => 1,
            };
            count[class] += 1;
            let mut c = p.clone();
            c.play(m);
            let after = tess_board(&c.to_text()).0;
            for (&q, &(owner, letter)) in &cells {
                if owner != side
                    && "TSPRC".contains(letter)
                    && after.get(&q) != Some(&(owner, letter))
                {
                    taken.insert((q, letter));
                }
            }
        }
        let base = TESS_THREAT + (side as u32 * 2 + rel as u32) * 5;
        for (_, letter) in taken {
            out.push(base + "TSPRC".find(letter).unwrap() as u32);
        }
        for (class, &n) in count.iter().enumerate() {
            let base = TESS_MOBILITY + ((side as u32 * 2 + rel as u32) * 3 + class as u32) * 8;
            for (i, &th) in TESS_MOB_THRESHOLDS[class].iter().enumerate() {
                if n >= th {
                    out.push(base + i as u32);
                }
            }
        }
    }
    out.sort_unstable();
    let mut engine: Vec<u32> = f.into_iter().filter(|&x| x >= TESS_THREAT).collect();
    engine.sort_unstable();
    assert_eq!(engine, out, "version 3's threats and moves: {}", text);
    out
}

/// Everything but the ply counter and the number of setup plies.
fn tess_placement(text: &str) -> String {
    text.split_whitespace()
        .enumerate()
        .filter(|&(i, _)| i != 2)
        .map(|(i, t)| if i == 1 { &t[..t.len().min(5)] } else { t })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn tesseract_features_over_random_games() {
    for (crosses_first, seed) in [("false", 1), ("true", 2)] {
        let g = Tesseract::start(&tess_opts().with("CrossesFirst", crosses_first)).unwrap();
        let (n, distinct) =
            check_random_positions(&g, 10, 400, seed, false, tess_expected, tess_placement);
        assert!(n >= 1500, "{} positions", n);
        assert!(
            distinct > n / 2,
            "{} feature lists for {} positions",
            distinct,
            n
        );
        assert_eq!(g.feature_set().as_deref(), Some("tesseract/3"));
        assert_eq!(g.feature_count(), 1546, "docs/learning.md's count");
    }
}

/// The encoding on hand-made positions: a man's kind and place (zone, distances), a slider's
/// orientation and points, a cross's owner, the reserve counts.
#[test]
fn tesseract_features_tell_pieces_apart() {
    let feats = |text: &str| {
        let g = Tesseract::from_text(text, &tess_opts()).unwrap();
        let mut f = Vec::new();
        g.features(&mut f);
        f.sort_unstable();
        f
    };
    // Version 2's part (version 3's has its own test below).
    let v2 = |text: &str| -> Vec<u32> {
        feats(text)
            .into_iter()
            .filter(|&x| x < TESS_THREAT)
            .collect()
    };
    let base = v2("w play 30 Ta1,Sc3,Le5h,Xh8 To15 SP L");
    // Ta1 (zone, distance to To15, count), Sc3 (zone, two distances, count), Le5h (two
    // points, each a zone and two distances), Xh8 (zone, distance to To15), To15 (zone,
    // distance to Ta1, count), S and P and L in reserve.
    assert_eq!(base.len(), 3 + 4 + 6 + 2 + 3 + 3);
    for other in [
        "w play 30 Ta1,Rc3,Le5h,Xh8 To15 SP L",
        "w play 30 Ta1,Sc4,Le5h,Xh8 To15 SP L",
        "w play 30 Ta1,Sc3,Le5v,Xh8 To15 SP L",
        "w play 30 Ta1,Sc3,Le5h To15,Xh8 SP L",
        "w play 30 Ta1,Sc3,Le5h,Xh8 To15 S L",
        "w play 30 Ta1,Sc3,Le5h,Xh8 To15 SP -",
        "b play 30 Ta1,Sc3,Le5h,Xh8 To15 SP L",
    ] {
        assert_ne!(v2(other), base, "{}", other);
    }
}

/// Version 3 on hand-made positions: a threat by the side to move and by the other, gone
/// when the man cannot be taken; a Tesseract's neighbours.
#[test]
fn tesseract_features_see_threats_and_neighbours() {
    let feats = |text: &str, from: u32, to: u32| -> Vec<u32> {
        let g = Tesseract::from_text(text, &tess_opts()).unwrap();
        let mut f = Vec::new();
        g.features(&mut f);
        f.retain(|&x| (from..to).contains(&x));
        f.sort_unstable();
        f
    };
    let threats = |text: &str| feats(text, TESS_THREAT, TESS_MOBILITY);
    // White's Cylinder on c3 can jump Black's Star on c4 (landing on c5, within its reach of
    // two): a threat of White's on a Star (kind 2 of T S P R C), White to move or not. (Black's
    // Tesseract stands on n15, off the diagonal o15–c3 where it could take the Cylinder.)
    assert_eq!(
        threats("w play 30 Ta1,Cc3 Tn15,Sc4 - -"),
        vec![TESS_THREAT + 5 + 1]
    );
    assert_eq!(
        threats("b play 30 Ta1,Cc3 Tn15,Sc4 - -"),
        vec![TESS_THREAT + 1]
    );
    // The landing point taken by Black's Pyramid: no threat on the Star. (The Pyramid on c5 is
    // not reachable either: the Cylinder may not jump two men.)
    assert_eq!(
        threats("w play 30 Ta1,Cc3 Tn15,Sc4,Pc5 - -"),
        Vec::<u32>::new()
    );
    // No threats during setup, where nothing moves (the two Tesseracts face each other down
    // the h file: after setup, the side to move could take the other).
    let setup = "w setup:2 2 Th2 Th14 SSPRCLLsssssXX SSPRCLLsssssXX";
    assert_eq!(threats(setup), Vec::<u32>::new());
    assert_eq!(feats(setup, TESS_MOBILITY, TESS_AROUND), Vec::<u32>::new());
    // White's Tesseract in the corner a1: five of its neighbours are off the board (0), b2
    // holds its own Cylinder (3), a2 and b1 are empty (5).
    let around = feats(
        "w play 30 Ta1,Cb2 To15,Sc4 - -",
        TESS_AROUND,
        TESS_AROUND + 48,
    );
    let mut what: Vec<u32> = around.iter().map(|&x| (x - TESS_AROUND) % 6).collect();
    what.sort_unstable();
    assert_eq!(what, vec![0, 0, 0, 0, 0, 3, 5, 5]);
}

fn three_opts() -> RuleOptions {
    RuleOptions::of::<Threechess>()
}

/// Where `threechess/1`'s features of a colour's king attacked begin (its doc comment's order:
/// men 3·6·64, material 3·5·8, states 3·2).
const THREE_ATTACKED: u32 = 3 * 6 * 64 + 3 * 5 * 8 + 3 * 2;

/// What the threechess encoding gives, counted from the text: a feature per man, a material
/// thermometer min(count, 8) per colour and type but the king, one per seat that is a ghost or
/// dead, the seat to move; plus one per king attacked (not in the text: checked against
/// `in_check` for the side to move, and counted from the features).
fn three_expected(g: &Threechess, text: &str) -> usize {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut men = 0;
    for tok in fields[0].split(['/', ',']) {
        if tok.starts_with(['w', 'b', 'r']) {
            men += 1;
            *counts.entry(tok).or_default() += 1;
        }
    }
    let material: usize = counts
        .iter()
        .filter(|(m, _)| !m.ends_with('K'))
        .map(|(_, &n)| n.min(8))
        .sum();
    let states = fields[2].chars().filter(|&c| c != 'a').count();
    let mut f = Vec::new();
    g.features(&mut f);
    let attacked: Vec<u32> = f
        .iter()
        .filter(|&&x| (THREE_ATTACKED..THREE_ATTACKED + 3).contains(&x))
        .map(|&x| x - THREE_ATTACKED)
        .collect();
    if !g.status().is_over() {
        assert_eq!(
            attacked.contains(&(g.to_move() as u32)),
            g.in_check(),
            "{}",
            text
        );
    }
    men + material + states + 1 + attacked.len()
}

/// The men, the seat to move and the states: all but the 150-ply counter and the move number.
fn three_placement(text: &str) -> String {
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn threechess_features_over_random_games() {
    let g = Threechess::start(&three_opts()).unwrap();
    let (n, distinct) =
        check_random_positions(&g, 30, 300, 1, true, three_expected, three_placement);
    assert!(n >= 3000, "{} positions", n);
    assert!(
        distinct > n / 2,
        "{} feature lists for {} positions",
        distinct,
        n
    );
    assert_eq!(g.feature_set().as_deref(), Some("threechess/1"));
    assert_eq!(g.feature_count(), 1284);
}

/// The encoding on hand-made positions: a man's colour, type and square, the material, each
/// seat's state, a king attacked, the seat to move.
#[test]
fn threechess_features_tell_men_apart() {
    let feats = |text: &str| {
        let g = Threechess::from_text(text, &three_opts()).unwrap();
        let mut f = Vec::new();
        g.features(&mut f);
        f.sort_unstable();
        f
    };
    // White Ke1 Qd1 Pa2, Black Ka8 Pb5, Red Kh8 Pg5; White to move, nobody attacked.
    let base = feats("bK,6,rK/8/8/1,bP,4,rP,1/8/8/wP,7/3,wQ,wK,3 w aaa 0 1");
    // 7 men; material: White pawn and queen, Black and Red pawn; White to move.
    assert_eq!(base.len(), 7 + 4 + 1);
    for other in [
        // Another square, another type, another colour.
        "bK,6,rK/8/8/1,bP,4,rP,1/8/8/1,wP,6/3,wQ,wK,3 w aaa 0 1",
        "bK,6,rK/8/8/1,bP,4,rP,1/8/8/wP,7/3,wR,wK,3 w aaa 0 1",
        "bK,6,rK/8/8/1,bP,4,rP,1/8/8/wP,7/3,bQ,wK,3 w aaa 0 1",
        // Another seat to move.
        "bK,6,rK/8/8/1,bP,4,rP,1/8/8/wP,7/3,wQ,wK,3 b aaa 0 1",
        // Red a ghost (its king gone).
        "bK,7/8/8/1,bP,4,rP,1/8/8/wP,7/3,wQ,wK,3 w aag 0 1",
    ] {
        assert_ne!(feats(other), base, "{}", other);
    }
    // Two white pawns: one more man and one more step of the thermometer.
    let two = feats("bK,6,rK/8/8/1,bP,4,rP,1/8/8/wP,wP,6/3,wQ,wK,3 w aaa 0 1");
    assert_eq!(two.len(), base.len() + 2);
    // Black's queen on the e-file attacks White's king (Black not to move): one more feature,
    // the king attacked, beside the man and its material.
    let check = feats("bK,6,rK/4,bQ,3/8/1,bP,4,rP,1/8/8/wP,7/3,wQ,wK,3 b aaa 0 1");
    assert!(check.contains(&THREE_ATTACKED), "{:?}", check);
    assert!(!base.contains(&THREE_ATTACKED));
}

/// `quatre selfplay` then `quatre train` on its file, then the engine with that net
/// (`EvalFile`, `Eval net`) searching a recorded position: a legal `bestmove`, no error line,
/// and scores other than the hand evaluation's.
#[test]
fn selfplay_train_and_search_with_a_net() {
    let dir = std::env::temp_dir().join(format!("quatre-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{:?}: {}",
            args,
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for game in ["rithmomachia", "tesseract", "tesseris", "threechess"] {
        let data = dir.join(format!("{}.txt", game));
        let net = dir.join(format!("{}.net", game));
        let data_s = data.to_str().unwrap();
        let net_s = net.to_str().unwrap();
        run(&[
            "selfplay",
            "--game",
            game,
            "--games",
            "2",
            "--nodes",
            "200",
            "--seed",
            "1",
            "--max-plies",
            "40",
            "--concurrency",
            "1",
            "--quiet",
            "--out",
            data_s,
        ]);
        run(&[
            "train", "--data", data_s, "--out", net_s, "--epochs", "2", "--hidden", "8",
        ]);
        let n = quatre::learn::net::Net::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
        assert_eq!(n.header.game, game);
        // One output per seat for three seats, one for two.
        let outputs = if game == "threechess" { 3 } else { 1 };
        assert_eq!(n.header.outputs, outputs);
        // A recorded position from the middle of the first game.
        let games = quatre::learn::format::read_file(&data).unwrap();
        let positions = &games[0].positions;
        let text = positions[positions.len() / 2].text.clone();
        let session = |eval: &str| {
            use std::io::Write;
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
                .args(["--game", game])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let script = format!(
                "setoption name Threads value 1\nsetoption name EvalFile value {}\n\
                 setoption name Eval value {}\nposition fen {}\ngo nodes 500\n",
                net_s, eval, text
            );
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(script.as_bytes()).unwrap();
            drop(stdin);
            let out = child.wait_with_output().unwrap();
            String::from_utf8(out.stdout).unwrap()
        };
        let with_net = session("net");
        assert!(!with_net.contains("error"), "{}", with_net);
        let best = with_net
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove: {}", with_net));
        let mv = best.split_whitespace().next().unwrap();
        let legal = match game {
            "rithmomachia" => is_legal::<Rithmomachia>(&text, &rithmo_opts(), mv),
            "tesseract" => is_legal::<Tesseract>(&text, &tess_opts(), mv),
            "tesseris" => is_legal::<quatre::games::tesseris::Tesseris>(
                &text,
                &RuleOptions::of::<quatre::games::tesseris::Tesseris>(),
                mv,
            ),
            _ => is_legal::<Threechess>(&text, &three_opts(), mv),
        };
        assert!(legal, "{} {} in {}", game, mv, text);
        let scores = |s: &str| -> Vec<String> {
            s.lines()
                .filter_map(|l| l.split(" score ").nth(1))
                .map(|r| r.split(" nodes").next().unwrap().to_string())
                .collect()
        };
        let hand = session("hand");
        assert!(!scores(&with_net).is_empty(), "{}", with_net);
        assert_ne!(scores(&with_net), scores(&hand), "{}\n{}", with_net, hand);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn is_legal<G: Game>(text: &str, opts: &RuleOptions, mv: &str) -> bool {
    let g = G::from_text(text, opts).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    g.parse_move(mv).is_ok_and(|m| moves.contains(&m))
}

/// Tesseris's features list the cards the state holds: a full state every hand, a seat's
/// observation the cards that seat knows; each survives the text's round trip; every index is
/// below the count and none comes twice; positions differ in their lists.
#[test]
fn tesseris_features_list_the_cards_the_state_holds() {
    use quatre::games::tesseris::Tesseris;
    for players in ["2", "3", "4"] {
        let opts = RuleOptions::of::<Tesseris>().with("Players", players);
        let mut rng = rng_from_seed(5);
        let mut buf = Vec::new();
        let (mut positions, mut lists) = (0, std::collections::HashSet::new());
        for deal in 0..6 {
            let mut g = Tesseris::start_with_seed(&opts, deal).unwrap();
            for _ in 0..300 {
                if g.status().is_over() {
                    break;
                }
                let feats = |g: &Tesseris| {
                    let mut f = Vec::new();
                    g.features(&mut f);
                    f.sort_unstable();
                    f
                };
                let f = feats(&g);
                assert!(f.iter().all(|&x| (x as usize) < g.feature_count()));
                let mut once = f.clone();
                once.dedup();
                assert_eq!(once, f, "a feature twice");
                let mover = g.to_move();
                let back = Tesseris::from_text(&g.to_text(), &opts).unwrap();
                assert_eq!(feats(&back), f);
                let seen = Tesseris::from_text(&g.observation_text(mover), &opts).unwrap();
                let seen_back = Tesseris::from_text(&seen.to_text(), &opts).unwrap();
                assert_eq!(feats(&seen_back), feats(&seen));
                // The observation lists the same as the state exactly when the mover knows
                // every card of every hand.
                let all_known =
                    (0..g.players()).all(|t| t == mover || g.known_cards(mover, t).len() == 4);
                assert_eq!(
                    feats(&seen) == f,
                    all_known,
                    "{}",
                    g.observation_text(mover)
                );
                lists.insert(f);
                positions += 1;
                let m = g.random_move(&mut rng, &mut buf).unwrap();
                g.play(m);
            }
        }
        assert!(
            lists.len() > positions / 2,
            "{} lists for {} positions",
            lists.len(),
            positions
        );
        let g = Tesseris::start_with_seed(&opts, 1).unwrap();
        // Two players leave the squares out (48 cards), more play all 72.
        let cards = if players == "2" { 48 } else { 72 };
        assert_eq!(g.feature_count(), 682, "docs/learning.md's count");
        assert_eq!(
            g.feature_set().unwrap(),
            format!("tesseris-{}p-{}cards-T16-R0/2", players, cards)
        );
    }
}
