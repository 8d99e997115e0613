//! The picture of a position (SVG): the grid of boards as `d` lays it out — board columns A.. left
//! to right, board rows I.. bottom to top, each board with its files a–h and ranks 1–8 — every
//! square a `data-cell` named as the move notation writes it (`AeII4`, or `e4` on one board).

use super::text::{roman, square_name};
use super::*;
use crate::render::{chess_man, DrawOptions, Rect, Svg};

/// What each seat is called (p1 first).
pub(super) const SEATS: [&str; 2] = ["White", "Black"];

const CELL: f64 = 34.0;
/// Space between boards, and the margins for labels.
const GAP: f64 = 30.0;
const LEFT: f64 = 58.0;
const TOP: f64 = 34.0;
const LIGHT: &str = "#eeeed2";
const DARK: &str = "#b58863";

/// Where square `sq` is drawn (seen from White, or from Black when flipped).
fn square_rect(geo: &Geometry, sq: usize, flip: bool) -> Rect {
    let [x, y, z, w] = geo.coord[sq];
    let (mut x, mut y, mut z, mut w) = (x as usize, y as usize, z as usize, w as usize);
    if flip {
        x = 7 - x;
        y = 7 - y;
        z = geo.rows - 1 - z;
        w = geo.cols - 1 - w;
    }
    let board = 8.0 * CELL + GAP;
    let left = LEFT + w as f64 * board + x as f64 * CELL;
    let top = TOP + (geo.rows - 1 - z) as f64 * board + (7 - y) as f64 * CELL;
    (left, top, CELL, CELL)
}

pub(super) fn svg(g: &Hyperchess, opts: &DrawOptions) -> String {
    let geo = g.geo;
    // The board faces the viewing seat: Black's side is drawn at the top.
    let flip = opts.turned(1);
    let board = 8.0 * CELL + GAP;
    let width = LEFT + geo.cols as f64 * board - GAP + 20.0;
    let height = TOP + geo.rows as f64 * board - GAP + 58.0;
    let mut svg = Svg::new(width, height, "#fbfaf5");
    let plain = geo.cols == 1 && geo.rows == 1;
    // Board names: columns above, rows on the left (as `d` prints them).
    for w in 0..geo.cols {
        let shown = if flip { geo.cols - 1 - w } else { w };
        if !plain {
            let cx = LEFT + shown as f64 * board + 4.0 * CELL;
            svg.text(
                (cx, TOP - 22.0),
                16.0,
                "#333",
                &((b'A' + w as u8) as char).to_string(),
            );
        }
    }
    for z in 0..geo.rows {
        let shown = if flip { geo.rows - 1 - z } else { z };
        let top = TOP + (geo.rows - 1 - shown) as f64 * board;
        if !plain {
            svg.text((14.0, top + 4.0 * CELL), 15.0, "#333", roman(z));
        }
        for w in 0..geo.cols {
            let sw = if flip { geo.cols - 1 - w } else { w };
            let left = LEFT + sw as f64 * board;
            // Ranks left of each board, files below it.
            for i in 0..8 {
                let rank = if flip { i + 1 } else { 8 - i };
                let file = if flip { 7 - i } else { i };
                svg.text(
                    (left - 9.0, top + (i as f64 + 0.5) * CELL),
                    10.0,
                    "#666",
                    &rank.to_string(),
                );
                svg.text(
                    (left + (i as f64 + 0.5) * CELL, top + 8.0 * CELL + 10.0),
                    10.0,
                    "#666",
                    &((b'a' + file as u8) as char).to_string(),
                );
            }
        }
    }
    for sq in 0..geo.nsq {
        let [x, y, _, _] = geo.coord[sq];
        let light = (x + y) % 2 == 1;
        svg.cell(
            &square_name(geo, sq),
            square_rect(geo, sq, flip),
            if light { LIGHT } else { DARK },
        );
    }
    svg.decorate(opts, |c| {
        let (sq, used) = text::parse_square(geo, c).ok()?;
        (used == c.len()).then(|| square_rect(geo, sq, flip))
    });
    for sq in 0..geo.nsq {
        let p = g.board[sq];
        if p == 0 {
            continue;
        }
        let (x, y, _, _) = square_rect(geo, sq, flip);
        let black = p >> 3 == 1;
        let kind = p & 7;
        let centre = (x + CELL / 2.0, y + CELL / 2.0);
        if kind == GUARD {
            let (fill, ink) = if black {
                ("#111", "#fff")
            } else {
                ("#fff", "#111")
            };
            svg.circle(centre.0, centre.1, CELL * 0.36, fill, Some(("#111", 1.5)));
            svg.text(centre, 17.0, ink, "G");
        } else {
            // The render's chess symbols number pawn 1 … queen 5, king 6.
            let k = if kind == KING { 6 } else { kind };
            if black {
                chess_man(&mut svg, centre, CELL, k, "#000", false);
            } else {
                chess_man(&mut svg, centre, CELL, k, "#fff", true);
            }
        }
    }
    let mover = SEATS[g.side as usize];
    let state = match g.status() {
        Status::Over(o) => format!("game over: {}", o.reason),
        Status::Ongoing if g.in_check => format!("{} to move, in check", mover),
        Status::Ongoing => format!("{} to move", mover),
    };
    svg.text_left(
        (LEFT, height - 16.0),
        15.0,
        "#222",
        &format!("{} — move {}", state, g.fullmove),
    );
    svg.finish()
}

/// The squares a move touches, from then to (a promotion's squares too).
pub(super) fn move_cells(g: &Hyperchess, mv: Move) -> Vec<String> {
    vec![square_name(g.geo, mv.from()), square_name(g.geo, mv.to())]
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, RuleOptions};
    use crate::games::hyperchess::Hyperchess;
    use crate::render::{check_faces_seat_1, check_random_games};

    #[test]
    fn every_square_is_a_cell_and_every_move_names_two_of_them() {
        for (boards, squares) in [("3x3", 576), ("1x1", 64), ("2x4", 512)] {
            let mut opts = RuleOptions::of::<Hyperchess>();
            opts.set("Boards", boards).unwrap();
            check_random_games(|_| Hyperchess::start(&opts).unwrap(), 2, 60, Some(squares));
        }
    }

    #[test]
    fn the_board_faces_the_viewing_seat() {
        // White (p1) at the bottom; drawn for Black (p2), the board is turned round.
        let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
        check_faces_seat_1(&g, "AaI1");
    }
}
