//! The picture of a position (SVG): the 15 × 15 points with files a–o and ranks 1–15 as the
//! notation writes them (White's camp, ranks 2–3, and Black's, ranks 13–14, tinted), crosses
//! (centre and arms in the owner's colour, a free arm end marked), men as labelled discs,
//! sliders as bars (one point or two, horizontal or vertical), and both reserves beside the
//! board. Every point is a `data-cell` named as in the notation (`f3`); each reserve kind is a
//! `data-cell` named `reserve-w-T`, `reserve-b-s`… so a drop is clicked reserve, then point.

use super::text::{point_name, state_lines};
use super::*;
use crate::render::{DrawOptions, Rect, Svg};

const CELL: f64 = 36.0;
const LEFT: f64 = 36.0;
const TOP: f64 = 28.0;
/// The reserve panel, right of the board.
const PANEL: f64 = LEFT + 15.0 * CELL + 30.0;
/// What each seat is called (p1 first).
pub(super) const SEATS: [&str; 2] = ["White", "Black"];
const RESERVE_NAMES: [&str; 8] = [
    "Tesseract",
    "Star",
    "Pyramid",
    "Rectangle",
    "Cylinder",
    "large slider",
    "small slider",
    "cross",
];

fn point_rect(p: usize, flip: bool) -> Rect {
    let (mut f, mut r) = (p % W, p / W);
    if flip {
        f = W - 1 - f;
        r = W - 1 - r;
    }
    (
        LEFT + f as f64 * CELL,
        TOP + (W - 1 - r) as f64 * CELL,
        CELL,
        CELL,
    )
}

fn reserve_rect(side: usize, i: usize) -> Rect {
    (
        PANEL + side as f64 * 120.0,
        TOP + 40.0 + i as f64 * 34.0,
        110.0,
        28.0,
    )
}

/// The `data-cell` name of a reserve kind.
fn reserve_cell(side: usize, i: usize) -> String {
    format!("reserve-{}-{}", ["w", "b"][side], RES_LETTERS[i])
}

fn ink(black: bool) -> (&'static str, &'static str) {
    if black {
        ("#222", "#fff")
    } else {
        ("#fff", "#111")
    }
}

pub(super) fn svg(g: &Tesseract, opts: &DrawOptions) -> String {
    // The board faces the viewing seat: Black's side is drawn at the top.
    let flip = opts.turned(1);
    let size = 15.0 * CELL;
    let mut svg = Svg::new(PANEL + 250.0, TOP + size + 74.0, "#fbfaf5");
    for p in 0..SQ {
        let r = p / W;
        let fill = match r {
            1 | 2 => "#e3ecf7",
            12 | 13 => "#f3e3e3",
            _ => "#f4f1e6",
        };
        svg.cell(&point_name(p as u8), point_rect(p, flip), fill);
    }
    // Grid lines through the points, labels around.
    for i in 0..W {
        let c = LEFT + (i as f64 + 0.5) * CELL;
        let t = TOP + (i as f64 + 0.5) * CELL;
        svg.line(
            (c, TOP + CELL / 2.0),
            (c, TOP + size - CELL / 2.0),
            "#c9c2ad",
            1.0,
        );
        svg.line(
            (LEFT + CELL / 2.0, t),
            (LEFT + size - CELL / 2.0, t),
            "#c9c2ad",
            1.0,
        );
        let (file, rank) = if flip { (W - 1 - i, i + 1) } else { (i, W - i) };
        svg.text(
            (c, TOP + size + 14.0),
            12.0,
            "#555",
            &((b'a' + file as u8) as char).to_string(),
        );
        svg.text((LEFT - 16.0, t), 12.0, "#555", &rank.to_string());
    }
    for side in 0..2 {
        svg.text_left(
            (PANEL + side as f64 * 120.0, TOP + 24.0),
            15.0,
            "#222",
            &format!("{} reserve", SEATS[side]),
        );
        for i in 0..8 {
            let r = reserve_rect(side, i);
            let n = g.reserve[side][i];
            svg.cell(
                &reserve_cell(side, i),
                r,
                if n > 0 { "#ece6d3" } else { "#f7f5ef" },
            );
            let label = format!("{} {} ×{}", RES_LETTERS[i], RESERVE_NAMES[i], n);
            svg.text_left(
                (r.0 + 6.0, r.1 + 19.0),
                12.0,
                if n > 0 { "#222" } else { "#aaa" },
                &label,
            );
        }
    }
    svg.decorate(opts, |c| {
        if let Some(rest) = c.strip_prefix("reserve-") {
            let side = usize::from(rest.starts_with('b'));
            let i = RES_LETTERS.iter().position(|l| rest.ends_with(*l))?;
            return Some(reserve_rect(side, i));
        }
        let b = c.as_bytes();
        let mut i = 0;
        let p = text::parse_point(b, &mut i, c).ok()?;
        (i == b.len()).then(|| point_rect(p as usize, flip))
    });
    for p in 0..SQ {
        draw_point(&mut svg, g.board[p], p, flip);
    }
    let mut state = String::new();
    state_lines(g, &mut state);
    let phase = state
        .lines()
        .find(|l| l.starts_with("Phase:"))
        .unwrap_or("");
    let over = match g.status {
        Status::Over(o) => format!("game over: {} — ", o.reason),
        _ => String::new(),
    };
    svg.text_left(
        (LEFT, TOP + size + 44.0),
        13.0,
        "#222",
        &format!("{}{}", over, phase.trim_start_matches("Phase: ")),
    );
    svg.finish()
}

/// What stands on point `p`: a cross's centre or arm, a man, a slider.
fn draw_point(svg: &mut Svg, c: u8, p: usize, flip: bool) {
    let (x, y, w, h) = point_rect(p, flip);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    if c & CEN != 0 {
        let (fill, line) = ink(c & CBLK != 0);
        svg.rect((cx - 14.0, cy - 5.0, 28.0, 10.0), fill, Some((line, 1.5)));
        svg.rect((cx - 5.0, cy - 14.0, 10.0, 28.0), fill, Some((line, 1.5)));
        return;
    }
    if c & ARM != 0 {
        let (fill, line) = ink(c & CBLK != 0);
        svg.rect((cx - 9.0, cy - 3.0, 18.0, 6.0), fill, Some((line, 1.0)));
        svg.rect((cx - 3.0, cy - 9.0, 6.0, 18.0), fill, Some((line, 1.0)));
    }
    let k = c & KM;
    let (fill, line) = ink(c & BLK != 0);
    match k {
        0 => {}
        K_T..=K_C => {
            svg.circle(cx, cy, 13.0, fill, Some((line, 1.6)));
            if k == K_T {
                svg.circle(cx, cy, 9.5, "none", Some((line, 1.0)));
            }
            svg.text((cx, cy), 13.0, line, &MAN_LETTERS[k as usize].to_string());
        }
        _ => {
            // A slider: a bar across its point(s); a large one's anchor draws the whole bar.
            let horizontal = matches!(k, K_SH | K_LHA | K_LHB);
            let (along, across) = match k {
                K_LHA | K_LVA => (2.0 * CELL - 10.0, 9.0),
                K_LHB | K_LVB => return,
                _ => (CELL - 8.0, 7.0),
            };
            let large = along > CELL;
            // Anchors are the left (horizontal) or lower (vertical) point: the bar runs right or up.
            let (dx, dy) = match (horizontal, flip) {
                (true, false) => (1.0, 0.0),
                (true, true) => (-1.0, 0.0),
                (false, false) => (0.0, -1.0),
                (false, true) => (0.0, 1.0),
            };
            let shift = if large { CELL / 2.0 } else { 0.0 };
            let (mx, my) = (cx + dx * shift, cy + dy * shift);
            let r = if horizontal {
                (mx - along / 2.0, my - across / 2.0, along, across)
            } else {
                (mx - across / 2.0, my - along / 2.0, across, along)
            };
            svg.rect(r, fill, Some((line, 1.6)));
        }
    }
}

/// The cells of a move in click order: a drop's reserve kind then its point; a man's or slider's
/// move from, (corner,) to; a pivot its point (and the large slider's new other point).
pub(super) fn move_cells(g: &Tesseract, mv: Move) -> Vec<String> {
    let side = g.side as usize;
    let point = |p: u8| point_name(p);
    match mv.kind {
        MK_MOVE => {
            let mut v = vec![point(mv.from)];
            if mv.via != NONE {
                v.push(point(mv.via));
            }
            v.push(point(mv.to));
            v
        }
        MK_PIVOT => {
            let mut v = vec![point(mv.from)];
            if mv.to != NONE {
                v.push(point(mv.to));
            }
            v
        }
        k => {
            let ri = match k {
                MK_SH | MK_SV => R_SM,
                MK_LH | MK_LV => R_L,
                MK_X => R_X,
                k => (k - 2) as usize,
            };
            vec![reserve_cell(side, ri), point(mv.to)]
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, RuleOptions};
    use crate::games::tesseract::Tesseract;
    use crate::render::{check_faces_seat_1, check_random_games};

    #[test]
    fn every_point_and_reserve_is_a_cell_and_every_move_names_them() {
        let opts = RuleOptions::of::<Tesseract>();
        check_random_games(
            |_| Tesseract::start(&opts).unwrap(),
            6,
            90,
            Some(15 * 15 + 16),
        );
    }

    #[test]
    fn the_board_faces_the_viewing_seat() {
        // White (p1) at the bottom; drawn for Black (p2), the board is turned round.
        let g = Tesseract::start(&RuleOptions::of::<Tesseract>()).unwrap();
        check_faces_seat_1(&g, "a1");
    }
}
