//! The learned evaluation's input features (`Game::features`, docs/learning.md).
//!
//! A piece's number decides what it captures and what takes it, so a piece is known by its
//! identity in the starting armies: its shape and value (the 46 pieces other than pyramids are
//! 44 identities: White's two C4 and Black's two C9 share theirs), a pyramid by its army (its
//! base layer, S36 White's, S64 Black's). A piece of a value no army holds (a position text may
//! set any) is "another circle / triangle / square / pyramid". With its colour (a converted
//! piece changes colour, not identity), that is 2 × 50 kinds, and each piece on the board gives:
//! - its kind × its square of the 8 × 16 board;
//! - its kind anywhere (material): the first and the second piece of a kind, one feature each;
//! - a pyramid also each of its remaining layers, by colour × the layer of the two pyramids
//!   (11 layers: White's six, Black's five), so that its value and its moves are known.
//!
//! Then what each side has captured, as thermometers (each threshold reached is one feature):
//! pieces ≥ 1..24, sum of values ≥ 10, 20, … 400, digits ≥ 1..32. Last, one feature for White to
//! move (Black moves first). The victory and the capture rule decide what a position is worth,
//! so the set's name carries them (a net of `corps` with N = 12 is refused for N = 10).

use super::layout::{BLACK_LAYOUT, BLACK_PYRAMID, WHITE_LAYOUT, WHITE_PYRAMID};
use super::*;

/// Identities of the pieces other than pyramids: the distinct (shape, value) of both armies.
const STANDARD: usize = 44;
/// Largest value among them.
const MAX_STANDARD_VALUE: usize = 361;
/// Kinds (per colour): the standard identities, another circle, triangle, square, then
/// White's pyramid, Black's pyramid and another pyramid.
const OTHER: usize = STANDARD;
const WHITE_PYR: usize = STANDARD + 3;
const BLACK_PYR: usize = STANDARD + 4;
const OTHER_PYR: usize = STANDARD + 5;
const KINDS: usize = STANDARD + 6;
/// Layers of the two pyramids: White's six, then Black's five.
const LAYERS: usize = WHITE_PYRAMID.len() + BLACK_PYRAMID.len();

const PIECE_SQUARE: usize = 0;
const MATERIAL: usize = PIECE_SQUARE + 2 * KINDS * 128;
const LAYER: usize = MATERIAL + 2 * KINDS * 2;
const PRISONERS: usize = LAYER + 2 * LAYERS;
/// Prisoner thermometers: pieces ≥ 1..=24, sum ≥ 10·k for k in 1..=40, digits ≥ 1..=32.
const PRIS_COUNT: u32 = 24;
const PRIS_SUM_STEP: u32 = 10;
const PRIS_SUM: u32 = 40;
const PRIS_DIGITS: u32 = 32;
const PRIS_PER_SIDE: usize = (PRIS_COUNT + PRIS_SUM + PRIS_DIGITS) as usize;
const WHITE_TO_MOVE: usize = PRISONERS + 2 * PRIS_PER_SIDE;
const COUNT: usize = WHITE_TO_MOVE + 1;

/// `IDS[shape][value]`: the standard identity of a circle, triangle or square of that value,
/// or NONE; numbered in the order of the layout tables, White's first.
static IDS: [[u8; MAX_STANDARD_VALUE + 1]; 3] = build_ids();

const fn build_ids() -> [[u8; MAX_STANDARD_VALUE + 1]; 3] {
    let mut t = [[NONE; MAX_STANDARD_VALUE + 1]; 3];
    let mut next = 0;
    let mut army = 0;
    while army < 2 {
        let table = if army == 0 {
            &WHITE_LAYOUT
        } else {
            &BLACK_LAYOUT
        };
        let mut i = 0;
        while i < table.len() {
            let (_, shape, val) = table[i];
            if t[shape as usize][val as usize] == NONE {
                t[shape as usize][val as usize] = next;
                next += 1;
            }
            i += 1;
        }
        army += 1;
    }
    assert!(next as usize == STANDARD);
    t
}

pub fn feature_set(g: &Rithmomachia) -> String {
    let c = &g.cfg;
    let victory = match c.victory {
        Victory::Corps => format!("corps-N{}", c.n),
        Victory::Bien => format!("bien-S{}", c.s),
        Victory::Proces => format!("proces-S{}-C{}", c.s, c.c),
        Victory::CorpsBien => format!("corps-bien-N{}-S{}", c.n, c.s),
        Victory::Honore => format!("honore-N{}-S{}-C{}", c.n, c.s, c.c),
        Victory::Grande => "grande".into(),
        Victory::Majeure => "majeure".into(),
        Victory::Excellente => "excellente".into(),
    };
    let captures = if c.convert { "convert" } else { "remove" };
    format!("rithmomachia-{}-{}/1", captures, victory)
}

pub fn feature_count() -> usize {
    COUNT
}

/// A pyramid's army by its base (its first remaining layer): White's, Black's or another.
fn pyramid_kind(py: &Pyr) -> usize {
    let base = (py.mask.trailing_zeros() as usize).min(MAX_LAYERS - 1);
    match (py.shapes[base], py.vals[base]) {
        (SQUARE, 36) => WHITE_PYR,
        (SQUARE, 64) => BLACK_PYR,
        _ => OTHER_PYR,
    }
}

/// The layers of the two pyramids that `py` still has (bit = layer index in `LAYERS`); a
/// layer its army's pyramid does not hold has none.
fn layer_bits(py: &Pyr, kind: usize) -> u32 {
    let (table, first): (&[(u8, u32)], usize) = match kind {
        WHITE_PYR => (&WHITE_PYRAMID, 0),
        BLACK_PYR => (&BLACK_PYRAMID, WHITE_PYRAMID.len()),
        _ => return 0,
    };
    let mut bits = 0;
    for l in 0..py.n as usize {
        if py.mask & (1 << l) != 0 {
            let layer = (py.shapes[l], py.vals[l] as u32);
            if let Some(j) = table.iter().position(|&t| t == layer) {
                bits |= 1 << (first + j);
            }
        }
    }
    bits
}

fn kind_of(g: &Rithmomachia, p: &Piece) -> usize {
    if p.shape == PYRAMID {
        return pyramid_kind(&g.pyrs[p.pyr as usize]);
    }
    let shape = (p.shape as usize).min(2);
    match IDS[shape].get(p.val as usize) {
        Some(&id) if id != NONE => id as usize,
        _ => OTHER + shape,
    }
}

/// Appends one feature per threshold of `0..n` that `value` reaches (`value ≥ (k + 1)·step`).
fn thermometer(out: &mut Vec<u32>, base: usize, value: u32, step: u32, n: u32) {
    for k in 0..(value / step).min(n) {
        out.push((base + k as usize) as u32);
    }
}

pub fn features(g: &Rithmomachia, out: &mut Vec<u32>) {
    let mut copies = [0u8; 2 * KINDS];
    let mut layers = [0u32; 2];
    for (sq, &b) in g.board.iter().enumerate() {
        if b == 0 {
            continue;
        }
        let p = &g.pieces[b as usize - 1];
        let kind = kind_of(g, p);
        let ck = (p.side as usize & 1) * KINDS + kind;
        out.push((PIECE_SQUARE + ck * 128 + sq) as u32);
        if copies[ck] < 2 {
            out.push((MATERIAL + ck * 2 + copies[ck] as usize) as u32);
            copies[ck] += 1;
        }
        if p.shape == PYRAMID {
            layers[p.side as usize & 1] |= layer_bits(&g.pyrs[p.pyr as usize], kind);
        }
    }
    for (side, &bits) in layers.iter().enumerate() {
        for l in 0..LAYERS {
            if bits & (1 << l) != 0 {
                out.push((LAYER + side * LAYERS + l) as u32);
            }
        }
    }
    for (side, p) in g.pris.iter().enumerate() {
        let base = PRISONERS + side * PRIS_PER_SIDE;
        thermometer(out, base, p.count, 1, PRIS_COUNT);
        let base = base + PRIS_COUNT as usize;
        thermometer(out, base, p.sum, PRIS_SUM_STEP, PRIS_SUM);
        let base = base + PRIS_SUM as usize;
        thermometer(out, base, p.digits, 1, PRIS_DIGITS);
    }
    if g.stm == WHITE {
        out.push(WHITE_TO_MOVE as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_armies_have_44_identities_and_every_start_piece_one() {
        let g = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for sq in 0..128 {
            let b = g.board[sq];
            if b != 0 {
                let k = kind_of(&g, &g.pieces[b as usize - 1]);
                assert!(k < OTHER || k == WHITE_PYR || k == BLACK_PYR, "{}", sq);
                seen.insert(k);
            }
        }
        assert_eq!(seen.len(), STANDARD + 2);
        // Both pyramids with all of their layers.
        let mut f = Vec::new();
        features(&g, &mut f);
        let layers = f
            .iter()
            .filter(|&&x| (LAYER..PRISONERS).contains(&(x as usize)))
            .count();
        assert_eq!(layers, LAYERS);
    }
}
