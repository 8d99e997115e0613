//! The start position (docs/rules/rithmomachia.md, "Start position"): Boissière's layout of the
//! 48 pieces, and the `Layout=forward` variant (White two ranks up, Black two ranks down).

use super::*;

/// Boissière's layout: (square, shape, value) for White, then Black; pyramids separately.
pub(super) const WHITE_LAYOUT: [(&str, u8, u16); 23] = [
    ("a1", SQUARE, 289),
    ("b1", SQUARE, 169),
    ("g1", SQUARE, 81),
    ("h1", SQUARE, 25),
    ("a2", SQUARE, 153),
    ("c2", TRIANGLE, 49),
    ("d2", TRIANGLE, 42),
    ("e2", TRIANGLE, 20),
    ("f2", TRIANGLE, 25),
    ("g2", SQUARE, 45),
    ("h2", SQUARE, 15),
    ("a3", TRIANGLE, 81),
    ("b3", TRIANGLE, 72),
    ("c3", CIRCLE, 64),
    ("d3", CIRCLE, 36),
    ("e3", CIRCLE, 16),
    ("f3", CIRCLE, 4),
    ("g3", TRIANGLE, 6),
    ("h3", TRIANGLE, 9),
    ("c4", CIRCLE, 8),
    ("d4", CIRCLE, 6),
    ("e4", CIRCLE, 4),
    ("f4", CIRCLE, 2),
];
pub(super) const BLACK_LAYOUT: [(&str, u8, u16); 23] = [
    ("c13", CIRCLE, 3),
    ("d13", CIRCLE, 5),
    ("e13", CIRCLE, 7),
    ("f13", CIRCLE, 9),
    ("a14", TRIANGLE, 16),
    ("b14", TRIANGLE, 12),
    ("c14", CIRCLE, 9),
    ("d14", CIRCLE, 25),
    ("e14", CIRCLE, 49),
    ("f14", CIRCLE, 81),
    ("g14", TRIANGLE, 90),
    ("h14", TRIANGLE, 100),
    ("a15", SQUARE, 28),
    ("b15", SQUARE, 66),
    ("c15", TRIANGLE, 36),
    ("d15", TRIANGLE, 30),
    ("e15", TRIANGLE, 56),
    ("f15", TRIANGLE, 64),
    ("g15", SQUARE, 120),
    ("a16", SQUARE, 49),
    ("b16", SQUARE, 121),
    ("g16", SQUARE, 225),
    ("h16", SQUARE, 361),
];
pub(super) const WHITE_PYRAMID: [(u8, u32); 6] = [
    (SQUARE, 36),
    (SQUARE, 25),
    (TRIANGLE, 16),
    (TRIANGLE, 9),
    (CIRCLE, 4),
    (CIRCLE, 1),
];
pub(super) const BLACK_PYRAMID: [(u8, u32); 5] = [
    (SQUARE, 64),
    (SQUARE, 49),
    (TRIANGLE, 36),
    (TRIANGLE, 25),
    (CIRCLE, 16),
];

/// The start layout as piece specs (`forward`: White two ranks up, Black two ranks down).
pub fn layout(forward: bool) -> Vec<PieceSpec> {
    let mut v = Vec::new();
    let shift = |sq: usize, side: u8| -> usize {
        if !forward {
            sq
        } else if side == WHITE {
            sq + 16
        } else {
            sq - 16
        }
    };
    for (side, table) in [(WHITE, &WHITE_LAYOUT), (BLACK, &BLACK_LAYOUT)] {
        for &(s, shape, val) in table.iter() {
            let sq = shift(parse_square(s).unwrap(), side);
            v.push(PieceSpec {
                sq,
                side,
                shape,
                val: val as u32,
                layers: Vec::new(),
            });
        }
    }
    let wp: Vec<(u8, u32)> = WHITE_PYRAMID.to_vec();
    let bp: Vec<(u8, u32)> = BLACK_PYRAMID.to_vec();
    v.push(PieceSpec {
        sq: shift(parse_square("b2").unwrap(), WHITE),
        side: WHITE,
        shape: PYRAMID,
        val: wp.iter().map(|l| l.1).sum(),
        layers: wp,
    });
    v.push(PieceSpec {
        sq: shift(parse_square("h15").unwrap(), BLACK),
        side: BLACK,
        shape: PYRAMID,
        val: bp.iter().map(|l| l.1).sum(),
        layers: bp,
    });
    v.sort_by_key(|p| p.sq);
    v
}
