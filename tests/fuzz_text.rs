//! Fuzz-style robustness of every game's text parsers: `from_text` and `parse_move` on mutated
//! valid inputs (position texts and moves taken from seeded random games, then characters and
//! tokens deleted, duplicated, swapped or replaced). A parser must never panic: it returns an
//! `Err` with a message a person can read, or an `Ok` that round-trips (the position's text loads
//! back to the same text; the move's notation parses back to the same move). A loaded position
//! must also survive being drawn, listed and played on.
//!
//! Deterministic (fixed seeds, counted cases) and quick: tens of thousands of cases per game in
//! well under a second each (release).

use quatre::game::{rng_from_seed, Game, GameRng, RuleOptions};
use quatre::games::{hyperchess, rithmomachia, tesseract, tesseris, threechess};
use rand::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Characters a mutation may insert: the texts' own alphabet, and some they never contain.
const NOISE: &[char] = &[
    ' ', '/', '=', ':', '+', '-', '.', ',', '0', '1', '2', '9', 'a', 'h', 'z', 'K', 'P', 'x', '@',
    '*', '[', ']', '(', ')', '\t', '\n', '\0', 'é', '€', '𝄞', '\u{7f}', 'w', 'b',
];

/// Texts of positions and moves seen along a few random games from the start.
fn samples<G: Game>(opts: &RuleOptions, seed: u64) -> (Vec<String>, Vec<String>) {
    let mut rng = rng_from_seed(seed);
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    for game in 0..6u64 {
        let mut g = G::start_with_seed(opts, seed ^ game).expect("start position");
        for ply in 0..120 {
            if ply % 7 == 0 {
                texts.push(g.to_text());
            }
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            moves.push(g.format_move(m));
            g.play(m);
        }
        texts.push(g.to_text());
    }
    (texts, moves)
}

/// One random edit of `s`: on characters or on space-separated tokens.
fn mutate_once(s: &str, pool: &[String], rng: &mut GameRng) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    match rng.random_range(0..9) {
        0 if n > 0 => {
            chars.remove(rng.random_range(0..n));
        }
        1 if n > 0 => {
            let i = rng.random_range(0..n);
            chars.insert(i, chars[i]);
        }
        2 if n > 1 => {
            let i = rng.random_range(0..n - 1);
            chars.swap(i, i + 1);
        }
        3 if n > 0 => {
            let i = rng.random_range(0..n);
            chars[i] = NOISE[rng.random_range(0..NOISE.len())];
        }
        4 => {
            let i = rng.random_range(0..=n);
            chars.insert(i, NOISE[rng.random_range(0..NOISE.len())]);
        }
        5 if n > 0 => {
            // A digit run replaced by a large or odd number.
            let i = rng.random_range(0..n);
            let big = [
                "0",
                "00",
                "65536",
                "4294967296",
                "99999999999999999999",
                "-1",
            ];
            let rep: Vec<char> = big[rng.random_range(0..big.len())].chars().collect();
            let mut j = i;
            while j < n && chars[j].is_ascii_digit() {
                j += 1;
            }
            chars.splice(i..j.max(i + 1).min(n), rep);
        }
        6..=8 => {
            let mut toks: Vec<String> = s.split(' ').map(str::to_string).collect();
            let k = toks.len();
            match rng.random_range(0..4) {
                0 if k > 0 => {
                    toks.remove(rng.random_range(0..k));
                }
                1 if k > 0 => {
                    let i = rng.random_range(0..k);
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
                2 if k > 1 => {
                    let (i, j) = (rng.random_range(0..k), rng.random_range(0..k));
                    toks.swap(i, j);
                }
                _ => {
                    // A token from another sample.
                    let other = &pool[rng.random_range(0..pool.len())];
                    let ot: Vec<&str> = other.split(' ').collect();
                    let t = ot[rng.random_range(0..ot.len())].to_string();
                    if k > 0 {
                        let i = rng.random_range(0..k);
                        toks[i] = t;
                    } else {
                        toks.push(t);
                    }
                }
            }
            return toks.join(" ");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

fn mutate(s: &str, pool: &[String], rng: &mut GameRng) -> String {
    let mut t = s.to_string();
    for _ in 0..rng.random_range(1..=3) {
        t = mutate_once(&t, pool, rng);
    }
    t
}

/// Checks one position text; returns whether it loaded.
fn check_position<G: Game>(text: &str, opts: &RuleOptions, rng: &mut GameRng) -> bool {
    let r = catch_unwind(AssertUnwindSafe(|| G::from_text(text, opts)));
    let loaded = match r {
        Err(_) => panic!("{}: from_text panicked on {:?}", G::NAME, text),
        Ok(Err(e)) => {
            assert!(
                !e.trim().is_empty(),
                "{}: empty error for {:?}",
                G::NAME,
                text
            );
            return false;
        }
        Ok(Ok(g)) => g,
    };
    let written = loaded.to_text();
    let again = G::from_text(&written, opts).unwrap_or_else(|e| {
        panic!(
            "{}: {:?} loaded, but its text {:?} does not: {}",
            G::NAME,
            text,
            written,
            e
        )
    });
    assert_eq!(
        again.to_text(),
        written,
        "{}: the text of {:?} does not round-trip",
        G::NAME,
        text
    );
    // What a user can do next with the loaded position must not panic either.
    let r = catch_unwind(AssertUnwindSafe(|| {
        let _ = loaded.display();
        let _ = loaded.status();
        let mut moves = Vec::new();
        loaded.legal_moves(&mut moves);
        for &m in moves.iter().take(3) {
            let s = loaded.format_move(m);
            assert_eq!(loaded.parse_move(&s), Ok(m), "notation {:?}", s);
        }
        if !moves.is_empty() {
            let mut g = loaded.clone();
            g.play(moves[rng.random_range(0..moves.len())]);
            let _ = g.to_text();
        }
    }));
    if r.is_err() {
        panic!(
            "{}: a position loaded from {:?} panics when used",
            G::NAME,
            text
        );
    }
    true
}

/// Checks one move text against position `g`; returns whether it parsed.
fn check_move<G: Game>(g: &G, text: &str) -> bool {
    let r = catch_unwind(AssertUnwindSafe(|| g.parse_move(text)));
    match r {
        Err(_) => panic!("{}: parse_move panicked on {:?}", G::NAME, text),
        Ok(Err(e)) => {
            assert!(
                !e.trim().is_empty(),
                "{}: empty error for move {:?}",
                G::NAME,
                text
            );
            false
        }
        Ok(Ok(m)) => {
            let s = catch_unwind(AssertUnwindSafe(|| g.format_move(m)))
                .unwrap_or_else(|_| panic!("{}: format_move panicked on {:?}", G::NAME, m));
            assert_eq!(
                g.parse_move(&s),
                Ok(m),
                "{}: move {:?} parsed, but its notation {:?} does not round-trip",
                G::NAME,
                text,
                s
            );
            true
        }
    }
}

/// `cases` mutated position texts and `cases` mutated moves for game `G` under `opts`.
fn fuzz<G: Game>(opts: &RuleOptions, seed: u64, cases: usize) {
    let (texts, moves) = samples::<G>(opts, seed);
    assert!(!texts.is_empty() && !moves.is_empty());
    let positions: Vec<G> = texts
        .iter()
        .map(|t| G::from_text(t, opts).expect("a written text loads"))
        .collect();
    let mut rng = rng_from_seed(seed.wrapping_mul(31) + 1);
    let (mut ok_pos, mut ok_mv) = (0, 0);
    for _ in 0..cases {
        let t = &texts[rng.random_range(0..texts.len())];
        let m = mutate(t, &texts, &mut rng);
        ok_pos += check_position::<G>(&m, opts, &mut rng) as usize;
    }
    for _ in 0..cases {
        let g = &positions[rng.random_range(0..positions.len())];
        let mv = &moves[rng.random_range(0..moves.len())];
        let m = mutate(mv, &moves, &mut rng);
        ok_mv += check_move(g, &m) as usize;
    }
    // Both kinds of outcome must have been exercised, or the mutations are too mild/too wild.
    assert!(
        ok_pos > 0 && ok_pos < cases,
        "{}: {} of {} mutated texts loaded",
        G::NAME,
        ok_pos,
        cases
    );
    assert!(
        ok_mv < cases,
        "{}: {} of {} mutated moves parsed",
        G::NAME,
        ok_mv,
        cases
    );
    println!(
        "{}: {} of {} mutated texts loaded, {} of {} mutated moves parsed",
        G::NAME,
        ok_pos,
        cases,
        ok_mv,
        cases
    );
}

const CASES: usize = 20_000;

#[test]
fn hyperchess_text_parsers_never_panic() {
    let opts = RuleOptions::of::<hyperchess::Hyperchess>();
    fuzz::<hyperchess::Hyperchess>(&opts, 1, CASES);
    let small = opts.clone().with("Boards", "1x1");
    fuzz::<hyperchess::Hyperchess>(&small, 2, CASES / 2);
}

#[test]
fn rithmomachia_text_parsers_never_panic() {
    let opts = RuleOptions::of::<rithmomachia::Rithmomachia>();
    fuzz::<rithmomachia::Rithmomachia>(&opts, 3, CASES);
    let convert = opts.clone().with("Captures", "convert");
    fuzz::<rithmomachia::Rithmomachia>(&convert, 4, CASES / 2);
}

#[test]
fn tesseract_text_parsers_never_panic() {
    let opts = RuleOptions::of::<tesseract::Tesseract>();
    fuzz::<tesseract::Tesseract>(&opts, 5, CASES);
}

#[test]
fn tesseris_text_parsers_never_panic() {
    let opts = RuleOptions::of::<tesseris::Tesseris>();
    fuzz::<tesseris::Tesseris>(&opts, 6, CASES);
    let four = opts.clone().with("Players", "4");
    fuzz::<tesseris::Tesseris>(&four, 7, CASES / 2);
}

#[test]
fn threechess_text_parsers_never_panic() {
    let opts = RuleOptions::of::<threechess::Threechess>();
    fuzz::<threechess::Threechess>(&opts, 8, CASES);
}
