//! The picture of a position (SVG): the 8 × 8 board with White at the bottom (rank 1), Black's
//! men starting on the left files and Red's on the right, each colour's arrival row marked by a
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

fn square_rect(sq: usize, flip: bool) -> Rect {
    let (mut x, mut y) = (sq % 8, sq / 8);
    if flip {
        x = 7 - x;
        y = 7 - y;
    }
    (
        LEFT + x as f64 * CELL,
        TOP + (7 - y) as f64 * CELL,
        CELL,
        CELL,
    )
}

pub(super) fn svg(g: &Threechess, opts: &DrawOptions) -> String {
    let flip = opts.flip;
    let size = 8.0 * CELL;
    let mut svg = Svg::new(LEFT + size + 40.0, TOP + size + 96.0, "#fbfaf5");
    for sq in 0..64 {
        let light = (sq % 8 + sq / 8) % 2 == 1;
        let fill = if light { "#eeeed2" } else { "#b58863" };
        svg.cell(&square_name(sq), square_rect(sq, flip), fill);
    }
    // Arrival rows: White's rank 8 (top), Black's file h (right), Red's file a (left).
    let (top, bottom, left, right) = (TOP, TOP + size, LEFT, LEFT + size);
    let bars: [(f64, f64, f64, f64); 3] = if flip {
        [
            (left, bottom + 2.0, size, 6.0),
            (left - 8.0, top, 6.0, size),
            (right + 2.0, top, 6.0, size),
        ]
    } else {
        [
            (left, top - 8.0, size, 6.0),
            (right + 2.0, top, 6.0, size),
            (left - 8.0, top, 6.0, size),
        ]
    };
    for (c, r) in bars.iter().enumerate() {
        svg.rect(*r, BAR[c], None);
    }
    for i in 0..8 {
        let (file, rank) = if flip { (7 - i, i + 1) } else { (i, 8 - i) };
        svg.text(
            (left - 20.0, top + (i as f64 + 0.5) * CELL),
            13.0,
            "#555",
            &rank.to_string(),
        );
        svg.text(
            (left + (i as f64 + 0.5) * CELL, bottom + 18.0),
            13.0,
            "#555",
            &((b'a' + file as u8) as char).to_string(),
        );
    }
    svg.decorate(opts, |c| {
        let b = c.as_bytes();
        match b {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(square_rect(
                (f - b'a') as usize + 8 * (r - b'1') as usize,
                flip,
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
        let (x, y, _, _) = square_rect(sq, flip);
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
    use crate::game::{Game, RuleOptions};
    use crate::games::threechess::Threechess;
    use crate::render::check_random_games;

    #[test]
    fn every_square_is_a_cell_and_every_move_names_two_of_them() {
        let opts = RuleOptions::of::<Threechess>();
        check_random_games(|_| Threechess::start(&opts).unwrap(), 8, 80, Some(64));
        let g = Threechess::start(&opts).unwrap();
        assert!(g.svg(&Default::default()).contains("White alive ◀"));
    }
}
