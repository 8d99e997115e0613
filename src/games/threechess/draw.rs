//! The picture of a position (SVG): the 8 × 8 board with White at the bottom (rank 1), Black's
//! men starting on the left files and Red's on the right (turned a quarter for Black's or Red's
//! view, so that the viewing seat's men start at the bottom), each colour's arrival row marked by a
//! bar of its colour along that edge (White rank 8, Black file h, Red file a), and under the
//! board each player's state (alive, ghost, dead) and whose turn it is.

use super::movegen::{colour, kind};
use super::text::square_name;
use super::*;
use crate::render::{chess_man, DrawOptions, Rect, Svg};

const CELL: f64 = 52.0;
const LEFT: f64 = 44.0;
const TOP: f64 = 30.0;
/// Each colour's men (fill) and the bar marking its arrival row.
const INK: [&str; 3] = ["#ffffff", "#111111", "#c62828"];
const BAR: [&str; 3] = ["#9e9e9e", "#111111", "#c62828"];

/// Quarter turns (clockwise) that bring a seat's home edge to the bottom: White's rank 1 is
/// there already, Black's left files after three, Red's right files after one.
const FACING: [usize; 3] = [0, 3, 1];

/// Where square `sq` is drawn, the board turned `turns` quarter turns clockwise.
fn square_rect(sq: usize, turns: usize) -> Rect {
    let (col, row) = screen(sq % 8, 7 - sq / 8, turns);
    (
        LEFT + col as f64 * CELL,
        TOP + row as f64 * CELL,
        CELL,
        CELL,
    )
}

/// A square's column and row on the screen (`col`, `row` as drawn with White at the bottom),
/// turned `turns` quarter turns clockwise.
fn screen(mut col: usize, mut row: usize, turns: usize) -> (usize, usize) {
    for _ in 0..turns % 4 {
        (col, row) = (7 - row, col);
    }
    (col, row)
}

pub(super) fn svg(g: &Threechess, opts: &DrawOptions) -> String {
    // The board faces the viewing seat (its home edge at the bottom); `flip` turns it round.
    let turns = opts.seat.map_or(0, |s| FACING[s.min(2)]) + if opts.flip { 2 } else { 0 };
    let size = 8.0 * CELL;
    let mut svg = Svg::new(LEFT + size + 40.0, TOP + size + 96.0, "#fbfaf5");
    for sq in 0..64 {
        let light = (sq % 8 + sq / 8) % 2 == 1;
        let fill = if light { "#eeeed2" } else { "#b58863" };
        svg.cell(&square_name(sq), square_rect(sq, turns), fill);
    }
    // Arrival rows: White's rank 8 (top), Black's file h (right), Red's file a (left), each edge
    // (top, right, bottom, left) turned with the board.
    let (top, bottom, left, right) = (TOP, TOP + size, LEFT, LEFT + size);
    let edges: [(f64, f64, f64, f64); 4] = [
        (left, top - 8.0, size, 6.0),
        (right + 2.0, top, 6.0, size),
        (left, bottom + 2.0, size, 6.0),
        (left - 8.0, top, 6.0, size),
    ];
    for (c, edge) in [0usize, 1, 3].into_iter().enumerate() {
        svg.rect(edges[(edge + turns) % 4], BAR[c], None);
    }
    // Labels: on the left the rank or file of each row, under the board that of each column.
    let at = |col: usize, row: usize| {
        (0..64)
            .find(|&sq| {
                let (x, y) = screen(sq % 8, 7 - sq / 8, turns);
                (x, y) == (col, row)
            })
            .unwrap_or(0)
    };
    let label = |sq: usize, rank: bool| {
        if rank {
            (sq / 8 + 1).to_string()
        } else {
            ((b'a' + (sq % 8) as u8) as char).to_string()
        }
    };
    let rows_are_ranks = turns.is_multiple_of(2);
    for i in 0..8 {
        svg.text(
            (left - 20.0, top + (i as f64 + 0.5) * CELL),
            13.0,
            "#555",
            &label(at(0, i), rows_are_ranks),
        );
        svg.text(
            (left + (i as f64 + 0.5) * CELL, bottom + 18.0),
            13.0,
            "#555",
            &label(at(i, 7), !rows_are_ranks),
        );
    }
    svg.decorate(opts, |c| {
        let b = c.as_bytes();
        match b {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(square_rect(
                (f - b'a') as usize + 8 * (r - b'1') as usize,
                turns,
            )),
            _ => None,
        }
    });
    for sq in 0..64 {
        let p = g.board[sq];
        if p == 0 {
            continue;
        }
        let c = colour(p);
        let (x, y, _, _) = square_rect(sq, turns);
        chess_man(
            &mut svg,
            (x + CELL / 2.0, y + CELL / 2.0),
            CELL,
            kind(p),
            INK[c],
            c == 0,
        );
    }
    // The players: state, and whose turn.
    let mut x = LEFT;
    let y = bottom + 48.0;
    for c in 0..3 {
        let state = match g.state[c] {
            ALIVE => "alive",
            GHOST => "ghost (no king)",
            _ => "dead",
        };
        let turn = g.side as usize == c && !g.status.is_over();
        svg.circle(x + 8.0, y - 5.0, 8.0, INK[c], Some(("#111", 1.2)));
        let label = format!(
            "{} {}{}",
            COLOUR_NAMES[c],
            state,
            if turn { " ◀" } else { "" }
        );
        svg.text_left(
            (x + 22.0, y),
            14.0,
            if turn { "#000" } else { "#666" },
            &label,
        );
        x += 22.0 + 8.2 * label.chars().count() as f64 + 18.0;
    }
    let line = match g.status {
        Status::Over(o) => format!("game over: {}", o.reason),
        _ if g.in_check => format!(
            "{} to move, in check — move {}",
            COLOUR_NAMES[g.side as usize], g.fullmove
        ),
        _ => format!(
            "{} to move — move {}, 150-ply count {}",
            COLOUR_NAMES[g.side as usize], g.fullmove, g.clock
        ),
    };
    svg.text_left((LEFT, y + 26.0), 13.0, "#333", &line);
    svg.finish()
}

/// The squares a move touches, from then to.
pub(super) fn move_cells(mv: Move) -> Vec<String> {
    vec![square_name(mv.from()), square_name(mv.to())]
}

#[cfg(test)]
mod tests {
    use super::{CELL, LEFT, TOP};
    use crate::game::{Game, RuleOptions};
    use crate::games::threechess::Threechess;
    use crate::render::{cell_corner, check_picture, check_random_games, DrawOptions};

    #[test]
    fn every_square_is_a_cell_and_every_move_names_two_of_them() {
        let opts = RuleOptions::of::<Threechess>();
        check_random_games(|_| Threechess::start(&opts).unwrap(), 8, 80, Some(64));
        let g = Threechess::start(&opts).unwrap();
        assert!(g.svg(&Default::default()).contains("White alive ◀"));
    }

    #[test]
    fn the_board_faces_the_viewing_seat() {
        let g = Threechess::start(&RuleOptions::of::<Threechess>()).unwrap();
        let drawn = |seat: Option<usize>, flip: bool| {
            g.svg(&DrawOptions {
                seat,
                flip,
                ..DrawOptions::default()
            })
        };
        let (bottom, right) = (TOP + 7.0 * CELL, LEFT + 7.0 * CELL);
        // White's rank 1 at the bottom, file a on the left.
        assert_eq!(cell_corner(&drawn(None, false), "a1"), Some((LEFT, bottom)));
        assert_eq!(drawn(None, false), drawn(Some(0), false));
        // Black's men start on the left files: for Black, file a is the bottom row, rank 1 on the
        // right; for Red, whose men start on the right files, file h is the bottom row.
        assert_eq!(
            cell_corner(&drawn(Some(1), false), "a1"),
            Some((right, bottom))
        );
        assert_eq!(
            cell_corner(&drawn(Some(1), false), "a8"),
            Some((LEFT, bottom))
        );
        assert_eq!(
            cell_corner(&drawn(Some(2), false), "h8"),
            Some((right, bottom))
        );
        assert_eq!(
            cell_corner(&drawn(Some(2), false), "h1"),
            Some((LEFT, bottom))
        );
        // `flip` turns White's view half round; every picture still passes the checks.
        assert_eq!(cell_corner(&drawn(None, true), "h8"), Some((LEFT, bottom)));
        for seat in 0..3 {
            for flip in [false, true] {
                check_picture(&drawn(Some(seat), flip), &[]);
            }
        }
    }
}
