//! The picture of a position (SVG): the 8 × 16 board with files a–h and ranks 1–16 as the
//! notation writes them (White, the Evens, on ranks 1–8 at the bottom; turned round when drawn
//! for Black, p1, so that the viewing seat's men are at the bottom), every piece drawn as its
//! shape — circle, triangle, square — with its number, a pyramid as a stepped triangle with one
//! band per remaining layer and its value, and beside the board each pyramid's layers and what
//! each side has captured. Every square is a `data-cell` named as in the notation (`e4`).

use super::text::{display, square_name};
use super::*;
use crate::render::{DrawOptions, Rect, Svg};

/// What each seat is called (p1 first).
pub(super) const SEATS: [&str; 2] = ["Black", "White"];

const CELL: f64 = 40.0;
const LEFT: f64 = 36.0;
const TOP: f64 = 20.0;
const PANEL: f64 = LEFT + 8.0 * CELL + 28.0;

fn square_rect(sq: usize, flip: bool) -> Rect {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if flip {
        f = 7 - f;
        r = 15 - r;
    }
    (
        LEFT + f as f64 * CELL,
        TOP + (15 - r) as f64 * CELL,
        CELL,
        CELL,
    )
}

pub(super) fn svg(g: &Rithmomachia, opts: &DrawOptions) -> String {
    // The board faces the viewing seat: Black's side is drawn at the top.
    let flip = opts.turned(0);
    let mut svg = Svg::new(PANEL + 330.0, TOP + 16.0 * CELL + 40.0, "#fbfaf5");
    for sq in 0..128 {
        let light = (sq % 8 + sq / 8) % 2 == 1;
        svg.cell(
            &square_name(sq),
            square_rect(sq, flip),
            if light { "#f2e6c9" } else { "#d9c39a" },
        );
    }
    // The line between the two halves, and the labels.
    let mid = TOP + 8.0 * CELL;
    svg.line((LEFT, mid), (LEFT + 8.0 * CELL, mid), "#7a5c2e", 2.0);
    for i in 0..16 {
        let rank = if flip { i + 1 } else { 16 - i };
        svg.text(
            (LEFT - 16.0, TOP + (i as f64 + 0.5) * CELL),
            12.0,
            "#555",
            &rank.to_string(),
        );
    }
    for i in 0..8 {
        let file = if flip { 7 - i } else { i };
        let label = ((b'a' + file as u8) as char).to_string();
        svg.text(
            (LEFT + (i as f64 + 0.5) * CELL, TOP + 16.0 * CELL + 14.0),
            12.0,
            "#555",
            &label,
        );
    }
    svg.decorate(opts, |c| {
        let b = c.as_bytes();
        let f = b.first().filter(|x| (b'a'..=b'h').contains(*x))?;
        let r: usize = c.get(1..)?.parse().ok().filter(|r| (1..=16).contains(r))?;
        Some(square_rect((f - b'a') as usize + 8 * (r - 1), flip))
    });
    for spec in g.piece_specs() {
        draw_piece(&mut svg, &spec, square_rect(spec.sq, flip));
    }
    // Beside the board: whose turn, the pyramids' layers, the prisoners (from the diagram's text).
    let text = display(g);
    let mut y = TOP + 16.0;
    for line in text.lines().filter(|l| {
        l.starts_with("pyramid on")
            || l.contains(" has captured ")
            || l.contains(" to move")
            || l.starts_with("Game over")
            || l.contains("wins")
    }) {
        svg.text_left((PANEL, y), 13.0, "#222", line);
        y += 22.0;
    }
    svg.text_left(
        (PANEL, y + 10.0),
        12.0,
        "#666",
        "light pieces: White (Evens), dark: Black (Odds)",
    );
    svg.finish()
}

fn draw_piece(svg: &mut Svg, p: &PieceSpec, (x, y, w, h): Rect) {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let (fill, ink) = if p.side == WHITE {
        ("#fffdf7", "#222")
    } else {
        ("#2b2b2b", "#fff")
    };
    let stroke = Some(("#111", 1.5));
    let r = w * 0.42;
    match p.shape {
        CIRCLE => svg.circle(cx, cy, r, fill, stroke),
        TRIANGLE => svg.polygon(
            &[(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)],
            fill,
            stroke,
        ),
        SQUARE => svg.rect(
            (cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7),
            fill,
            stroke,
        ),
        _ => {
            // A pyramid: a stepped triangle, one band per layer still on it.
            let n = p.layers.len().max(1);
            let (top, base) = (cy - r, cy + r * 0.85);
            svg.polygon(&[(cx, top), (cx + r, base), (cx - r, base)], fill, stroke);
            for i in 1..n {
                let yy = base - (base - top) * i as f64 / n as f64;
                let half = r * (yy - top) / (base - top);
                svg.line((cx - half, yy), (cx + half, yy), "#888", 1.0);
            }
        }
    }
    let label = p.val.to_string();
    let size = if label.len() >= 3 { 10.5 } else { 12.5 };
    let ty = if matches!(p.shape, TRIANGLE | PYRAMID) {
        cy + 5.0
    } else {
        cy
    };
    svg.text((cx, ty), size, ink, &label);
}

/// The squares a move touches: from, then to.
pub(super) fn move_cells(mv: Move) -> Vec<String> {
    vec![square_name(mv.from as usize), square_name(mv.to as usize)]
}

#[cfg(test)]
mod tests {
    use super::{CELL, TOP};
    use crate::game::{Game, RuleOptions};
    use crate::games::rithmomachia::Rithmomachia;
    use crate::render::{cell_corner, check_random_games, DrawOptions};

    #[test]
    fn every_square_is_a_cell_and_every_move_names_two_of_them() {
        let opts = RuleOptions::of::<Rithmomachia>();
        check_random_games(|_| Rithmomachia::start(&opts).unwrap(), 4, 120, Some(128));
        let g = Rithmomachia::start(&opts).unwrap();
        assert!(g.svg(&Default::default()).contains("has captured"));
    }

    #[test]
    fn the_board_faces_the_viewing_seat() {
        let g = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
        let drawn = |seat: Option<usize>, flip: bool| {
            g.svg(&DrawOptions {
                seat,
                flip,
                ..DrawOptions::default()
            })
        };
        // White (p2) at the bottom as the notation writes it; Black (p1) at the bottom for p1.
        let bottom = TOP + 15.0 * CELL;
        assert_eq!(cell_corner(&drawn(None, false), "a1").unwrap().1, bottom);
        assert_eq!(cell_corner(&drawn(Some(1), false), "a1").unwrap().1, bottom);
        assert_eq!(
            cell_corner(&drawn(Some(0), false), "h16").unwrap().1,
            bottom
        );
        assert_eq!(cell_corner(&drawn(Some(0), false), "a1").unwrap().1, TOP);
        assert_eq!(drawn(Some(0), false), drawn(None, true));
        // `flip` turns p1's view round once more.
        assert_eq!(drawn(Some(0), true), drawn(None, false));
    }
}
