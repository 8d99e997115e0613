//! The picture of a position (SVG) as one seat sees it: that seat's hand face up and every other
//! hand face down (the picture is drawn from the seat's observation, so no hidden card can
//! appear in it), every seat's objectives with the completed ones marked, the four piles (top
//! card, size), the deck's size, the scores and whose turn.
//!
//! Cells, in the order a turn is clicked: the card (`hand-S-K`: seat S's card K, in the order of
//! the seat's observation), where it goes (`pile-1`..`pile-4`, or `obj-S-K` under the seat's
//! objective K), what is drawn (`deck`, `pile-1`..`pile-4`, or `hand-T-1` for a random card of
//! seat T's hand, whose face-down cards are one target). Names carry the seat, so the last move
//! of another seat is highlighted where that seat's cards are.

use super::text::card_name;
use super::*;
use crate::render::{DrawOptions, Rect, Svg};

const CARD_W: f64 = 46.0;
const CARD_H: f64 = 66.0;
const LEFT: f64 = 20.0;
const ROW: f64 = 118.0;

/// The card's colour by family: rounds, triangles, squares.
fn card_fill(c: u8) -> &'static str {
    match c / 6 {
        0 => "#dbe9f6",
        1 => "#f7e2c8",
        2 => "#dcefd9",
        _ => "#9aa7b5",
    }
}

/// The view drawn for `seat`: its observation (a full state is observed; an observation is
/// drawn as it is, whoever asks, since it holds no more than its own seat knows).
fn view(g: &Tesseris, seat: usize) -> Tesseris {
    if g.observer == NO_SEAT {
        g.observe(seat)
    } else {
        g.clone()
    }
}

fn seat_row(v: &Tesseris, seat: usize, me: usize) -> f64 {
    // The viewing seat at the bottom, the others above it in seat order.
    let n = v.n as usize;
    let others: Vec<usize> = (0..n).filter(|&t| t != me).collect();
    let k = others.iter().position(|&t| t == seat).unwrap_or(n - 1);
    30.0 + ROW
        * if seat == me {
            (n - 1) as f64 + 1.3
        } else {
            k as f64
        }
}

fn hand_rect(slot: usize, y: f64) -> Rect {
    (
        LEFT + 150.0 + slot as f64 * (CARD_W + 8.0),
        y,
        CARD_W,
        CARD_H,
    )
}

fn obj_rect(i: usize, y: f64) -> Rect {
    (LEFT + 390.0 + i as f64 * (CARD_W + 8.0), y, CARD_W, CARD_H)
}

fn pile_rect(p: usize, y: f64) -> Rect {
    (LEFT + 150.0 + p as f64 * (CARD_W + 30.0), y, CARD_W, CARD_H)
}

fn card(svg: &mut Svg, name: Option<&str>, r: Rect, c: u8, faded: bool) {
    let fill = if c == UNKNOWN {
        "#5b6b7c"
    } else {
        card_fill(c)
    };
    match name {
        Some(n) => svg.cell(n, r, fill),
        None => svg.rect(r, fill, None),
    }
    svg.rect(r, "none", Some(("#333", 1.2)));
    let label = if c == UNKNOWN {
        String::new()
    } else {
        card_name(c)
    };
    svg.text(
        (r.0 + r.2 / 2.0, r.1 + r.3 / 2.0),
        17.0,
        if faded { "#999" } else { "#111" },
        &label,
    );
}

pub(super) fn svg(g: &Tesseris, opts: &DrawOptions) -> String {
    let n = g.n as usize;
    // By default the seat whose view an observation is (its own hand face up), else the mover.
    let own = if g.observer == NO_SEAT {
        g.to_move
    } else {
        g.observer
    };
    let me = opts.seat.unwrap_or(own as usize).min(n - 1);
    let v = view(g, me);
    let table_y = 30.0 + ROW * (n - 1) as f64;
    let height = seat_row(&v, me, me) + CARD_H + 60.0;
    let mut svg = Svg::new(LEFT + 640.0, height, "#f6f3ea");
    for t in 0..n {
        let y = seat_row(&v, t, me);
        let turn = t == v.to_move as usize && !v.status.is_over();
        let who = format!(
            "Seat {}{}{}",
            t + 1,
            if t == me { " (you)" } else { "" },
            if turn { " ◀" } else { "" }
        );
        svg.text_left((LEFT, y + 18.0), 15.0, "#111", &who);
        svg.text_left(
            (LEFT, y + 40.0),
            13.0,
            "#333",
            &format!("score {}", v.scores[t]),
        );
        // The hand: face up for the viewing seat, face down (a cell to steal from) for others.
        for slot in 0..4 {
            let r = hand_rect(slot, y);
            if t == me {
                card(
                    &mut svg,
                    Some(&format!("hand-{}-{}", t + 1, slot + 1)),
                    r,
                    v.hand[t][slot],
                    false,
                );
            } else {
                let name = (slot == 0).then(|| format!("hand-{}-1", t + 1));
                card(&mut svg, name.as_deref(), r, UNKNOWN, false);
            }
        }
        svg.text_left((LEFT + 390.0, y - 4.0), 11.0, "#555", "objectives");
        for i in 0..4 {
            let done = v.done[t] >> i & 1 == 1;
            let name = (t == me).then(|| format!("obj-{}-{}", t + 1, i + 1));
            let r = obj_rect(i, y);
            card(&mut svg, name.as_deref(), r, v.obj[t][i], done);
            if done {
                svg.line(
                    (r.0 + 6.0, r.1 + r.3 - 10.0),
                    (r.0 + r.2 - 6.0, r.1 + 10.0),
                    "#2e7d32",
                    3.0,
                );
            }
        }
    }
    // The table: deck and piles.
    let y = table_y + 14.0;
    svg.text_left((LEFT, y + 18.0), 14.0, "#111", "Table");
    let deck = (LEFT + 60.0, y, CARD_W, CARD_H);
    svg.cell("deck", deck, "#5b6b7c");
    svg.text(
        (deck.0 + CARD_W / 2.0, deck.1 + CARD_H / 2.0),
        14.0,
        "#fff",
        &v.deck_len.to_string(),
    );
    svg.text(
        (deck.0 + CARD_W / 2.0, deck.1 + CARD_H + 12.0),
        11.0,
        "#555",
        "deck",
    );
    for p in 0..4 {
        let r = pile_rect(p, y);
        let len = v.pile_len[p] as usize;
        let top = if len > 0 { v.pile[p][len - 1] } else { UNKNOWN };
        if len == 0 {
            svg.cell(&format!("pile-{}", p + 1), r, "#ece8dc");
            svg.rect(r, "none", Some(("#bbb", 1.0)));
        } else {
            card(&mut svg, Some(&format!("pile-{}", p + 1)), r, top, false);
        }
        let label = format!("p{} ({})", p + 1, len);
        svg.text(
            (r.0 + CARD_W / 2.0, r.1 + CARD_H + 12.0),
            11.0,
            "#555",
            &label,
        );
    }
    // A turn's arrow goes from the card to where the card goes; its last cell is what is drawn
    // after, not where the card goes.
    let opts = DrawOptions {
        arrow: opts.arrow.iter().take(2).cloned().collect(),
        ..opts.clone()
    };
    svg.decorate(&opts, |c| locate(&v, me, c));
    let line = match v.status {
        Status::Over(o) => format!("game over: {}", o.reason),
        _ => format!("seat {} to move — ply {}", v.to_move + 1, v.ply),
    };
    svg.text_left((LEFT, height - 14.0), 13.0, "#222", &line);
    svg.finish()
}

/// Where a cell is on the picture drawn for `me`.
fn locate(v: &Tesseris, me: usize, c: &str) -> Option<Rect> {
    let parts: Vec<&str> = c.split('-').collect();
    let num = |i: usize| parts.get(i)?.parse::<usize>().ok()?.checked_sub(1);
    let table_y = 30.0 + ROW * (v.n as usize - 1) as f64 + 14.0;
    let n = v.n as usize;
    match parts[0] {
        "hand" => {
            let (t, k) = (num(1).filter(|&t| t < n)?, num(2).filter(|&k| k < 4)?);
            Some(hand_rect(k, seat_row(v, t, me)))
        }
        "obj" => {
            let (t, k) = (num(1).filter(|&t| t < n)?, num(2).filter(|&k| k < 4)?);
            Some(obj_rect(k, seat_row(v, t, me)))
        }
        "pile" => Some(pile_rect(num(1).filter(|&p| p < 4)?, table_y)),
        "deck" => Some((LEFT + 60.0, table_y, CARD_W, CARD_H)),
        _ => None,
    }
}

/// A turn's cells in click order: the card in the mover's hand, where it goes, what is drawn.
pub(super) fn move_cells(g: &Tesseris, mv: TMove) -> Vec<String> {
    let me = g.to_move as usize;
    let v = view(g, me);
    // The card's own slot; where the mover's hand is hidden from this view, the first face-down
    // card (the arrow still shows where it goes and what is drawn).
    let Some(slot) = v.hand[me]
        .iter()
        .position(|&c| c == mv.card)
        .or_else(|| v.hand[me].iter().position(|&c| c == UNKNOWN))
    else {
        return Vec::new();
    };
    let to = if mv.discard < 4 {
        format!("pile-{}", mv.discard + 1)
    } else {
        format!("obj-{}-{}", me + 1, mv.discard - 3)
    };
    let from = match mv.draw {
        0 => "deck".to_string(),
        d @ 1..=4 => format!("pile-{}", d),
        d => format!("hand-{}-1", d - 4),
    };
    vec![format!("hand-{}-{}", me + 1, slot + 1), to, from]
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, RuleOptions};
    use crate::games::tesseris::Tesseris;
    use crate::render::{check_random_games, DrawOptions};

    #[test]
    fn every_turn_names_cells_of_the_movers_picture() {
        for players in ["2", "3", "4"] {
            let mut opts = RuleOptions::of::<Tesseris>();
            opts.set("Players", players).unwrap();
            check_random_games(
                |seed| Tesseris::start_with_seed(&opts, seed).unwrap(),
                4,
                60,
                None,
            );
        }
    }

    #[test]
    fn the_arrow_points_where_the_card_goes() {
        let g = Tesseris::start_with_seed(&RuleOptions::of::<Tesseris>(), 5).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        // A turn that draws from the deck: its cells are card, where it goes, deck.
        let cells = moves
            .iter()
            .map(|&m| g.move_cells(m))
            .find(|c| c[2] == "deck")
            .unwrap();
        let with_arrow = |arrow: &[String]| {
            g.svg(&DrawOptions {
                arrow: arrow.to_vec(),
                ..DrawOptions::default()
            })
        };
        assert!(with_arrow(&cells).contains("class=\"arrow\""));
        assert_eq!(with_arrow(&cells), with_arrow(&cells[..2]));
        assert_ne!(
            with_arrow(&cells),
            with_arrow(&[cells[0].clone(), cells[2].clone()])
        );
    }

    #[test]
    fn no_hidden_card_of_another_seat_is_drawn() {
        // Two deals that look the same to seat 1 but differ in seat 2's hand: the same picture.
        let opts = RuleOptions::of::<Tesseris>();
        let g = Tesseris::start_with_seed(&opts, 3).unwrap();
        let seat1 = DrawOptions {
            seat: Some(0),
            ..DrawOptions::default()
        };
        let mut other = g.clone();
        other.hand[1] = g.hand[1];
        other.hand[1].rotate_left(1);
        other.hand[1][0] = (g.hand[1][0] + 1) % 12;
        assert_ne!(other.hand[1], g.hand[1]);
        assert_eq!(g.svg(&seat1), other.svg(&seat1));
        // From seat 2's side the hand is its own: drawn face up, so the pictures differ.
        let seat2 = DrawOptions {
            seat: Some(1),
            ..DrawOptions::default()
        };
        assert_ne!(g.svg(&seat2), other.svg(&seat2));
    }

    /// An observation is drawn from its own seat by default (its hand face up), and a turn of
    /// another seat, whose cards it cannot see, still gets its arrow, from a face-down card.
    #[test]
    fn an_observation_is_drawn_from_its_seat_with_the_others_arrows() {
        let opts = RuleOptions::of::<Tesseris>();
        let mut full = Tesseris::start_with_seed(&opts, 3).unwrap();
        let mut moves = Vec::new();
        full.legal_moves(&mut moves);
        full.play(moves[0]);
        // Seat 2 to move, seen by seat 1.
        let obs = full.observe(0);
        assert_eq!(obs.to_move, 1);
        let own = obs.svg(&DrawOptions::default());
        assert_eq!(
            own,
            obs.svg(&DrawOptions {
                seat: Some(0),
                ..DrawOptions::default()
            })
        );
        assert!(own.contains("Seat 1 (you)"), "{own}");
        full.legal_moves(&mut moves);
        let cells = obs.move_cells(moves[0]);
        assert_eq!(cells.len(), 3, "{cells:?}");
        assert!(cells[0].starts_with("hand-2-"), "{cells:?}");
    }
}
