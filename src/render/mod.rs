//! Pictures of positions (SVG), drawn by the engine for the CLI (`quatre draw`, `quatre analyse
//! --svg`) and the web board (`quatre serve`). One renderer: each game describes its picture
//! through [`Game::svg`](crate::game::Game::svg); what is common to every picture (the frame,
//! highlighted cells, arrows, text) lives here.
//!
//! The contract the web page relies on: every cell a move can start or end on is an SVG element
//! with a `data-cell="NAME"` attribute, where NAME is one of the strings
//! [`Game::move_cells`](crate::game::Game::move_cells) returns for the moves that touch it. A page
//! can therefore turn clicks into moves without knowing any rule: the first click picks the
//! moves whose first cell was clicked, the last click the moves whose last cell was clicked.

use crate::game::Seat;

/// What to draw besides the position itself.
#[derive(Clone, Debug, Default)]
pub struct DrawOptions {
    /// The seat whose view is drawn: the board faces it (drawn from its side, its men at the
    /// bottom), and in games with hidden information its hand is face up, the others' face
    /// down. None: the board as the notation writes it, and the hand of the seat to move.
    pub seat: Option<Seat>,
    /// Cells to highlight (the last move's cells, as `move_cells` gave them before it was played).
    pub highlight: Vec<String>,
    /// An arrow from the first to the last of these cells (a suggested move's `move_cells`).
    pub arrow: Vec<String>,
    /// Turn the board round (once more, after facing `seat`).
    pub flip: bool,
}

impl DrawOptions {
    /// Whether a two-sided board is drawn turned round, given `top`, the seat the picture draws
    /// at the top: turned to face the viewing seat when that is `top`, and once more for `flip`.
    pub fn turned(&self, top: Seat) -> bool {
        self.flip != (self.seat == Some(top))
    }
}

/// Escapes text for SVG/XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c => s.push(c),
        }
    }
    s
}

/// A rectangle on the picture: x, y, width, height (user units).
pub type Rect = (f64, f64, f64, f64);

/// An SVG document under construction. Every game draws with these few shapes, so all pictures
/// share one look (colours, fonts, highlight, arrow) and one escaping rule. Only cells take
/// clicks: every other shape is drawn with `pointer-events="none"`, so a click on a piece
/// reaches the cell under it.
pub struct Svg {
    buf: String,
}

/// The font of every label.
pub const FONT: &str = "DejaVu Sans, Arial, sans-serif";

impl Svg {
    /// A `w` × `h` picture on a plain background.
    pub fn new(w: f64, h: f64, background: &str) -> Self {
        let mut buf = String::with_capacity(16 * 1024);
        buf.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"{FONT}\">\
             <rect width=\"100%\" height=\"100%\" fill=\"{background}\"/>"
        ));
        Svg { buf }
    }

    /// A filled rectangle, with an optional outline (colour, width).
    pub fn rect(&mut self, (x, y, w, h): Rect, fill: &str, stroke: Option<(&str, f64)>) {
        self.buf.push_str(&format!(
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{fill}\"{} pointer-events=\"none\"/>",
            stroke_attr(stroke)
        ));
    }

    /// A clickable cell: a rectangle carrying `data-cell="name"` (the web page's contract, see the
    /// module documentation).
    pub fn cell(&mut self, name: &str, (x, y, w, h): Rect, fill: &str) {
        self.buf.push_str(&format!(
            "<rect class=\"cell\" data-cell=\"{}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{fill}\"/>",
            escape(name)
        ));
    }

    /// A circle, with an optional outline.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<(&str, f64)>) {
        self.buf.push_str(&format!(
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{fill}\"{} pointer-events=\"none\"/>",
            stroke_attr(stroke)
        ));
    }

    /// A closed polygon through `points`, with an optional outline.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: Option<(&str, f64)>) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        self.buf.push_str(&format!(
            "<polygon points=\"{}\" fill=\"{fill}\"{} pointer-events=\"none\"/>",
            pts.join(" "),
            stroke_attr(stroke)
        ));
    }

    /// A straight line.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        self.buf.push_str(&format!(
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{stroke}\" stroke-width=\"{width:.1}\" stroke-linecap=\"round\" pointer-events=\"none\"/>"
        ));
    }

    /// A label centred on (x, y) (baseline adjusted so the text sits on the point's middle).
    pub fn text(&mut self, (x, y): (f64, f64), size: f64, fill: &str, content: &str) {
        self.buf.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{size:.1}\" fill=\"{fill}\" text-anchor=\"middle\" pointer-events=\"none\">{}</text>",
            y + size * 0.35,
            escape(content)
        ));
    }

    /// A label starting at (x, y) on its baseline.
    pub fn text_left(&mut self, (x, y): (f64, f64), size: f64, fill: &str, content: &str) {
        self.buf.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.1}\" fill=\"{fill}\" pointer-events=\"none\">{}</text>",
            escape(content)
        ));
    }

    /// The last move's cells: a translucent yellow wash that lets the piece show through.
    pub fn highlight(&mut self, (x, y, w, h): Rect) {
        self.buf.push_str(&format!(
            "<rect class=\"highlight\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"#f5d90a\" fill-opacity=\"0.45\" pointer-events=\"none\"/>"
        ));
    }

    /// A suggested move: a thick translucent arrow from one point to another.
    pub fn arrow(&mut self, from: (f64, f64), to: (f64, f64), width: f64) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-6 {
            self.buf.push_str(&format!(
                "<circle class=\"arrow\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#1b7f3b\" stroke-opacity=\"0.8\" stroke-width=\"{:.1}\" pointer-events=\"none\"/>",
                to.0, to.1, width * 1.6, width * 0.6
            ));
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let head = (width * 2.6).min(len * 0.6);
        let base = (to.0 - ux * head, to.1 - uy * head);
        let (px, py) = (-uy, ux);
        let hw = width * 1.4;
        self.buf.push_str(&format!(
            "<g class=\"arrow\" opacity=\"0.75\" pointer-events=\"none\"><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#1b7f3b\" stroke-width=\"{width:.1}\" stroke-linecap=\"round\"/>\
             <polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"#1b7f3b\"/></g>",
            from.0, from.1, base.0, base.1,
            to.0, to.1, base.0 + px * hw, base.1 + py * hw, base.0 - px * hw, base.1 - py * hw
        ));
    }

    /// Raw SVG markup (already escaped), for a game's own shapes.
    pub fn raw(&mut self, markup: &str) {
        self.buf.push_str(markup);
    }

    /// Draws what `opts` asks for on top of the position: the highlighted cells, then the arrow
    /// from the centre of the first arrow cell to the centre of the last. `locate` gives a cell's
    /// rectangle (None: not on this picture, skipped).
    pub fn decorate(&mut self, opts: &DrawOptions, locate: impl Fn(&str) -> Option<Rect>) {
        for c in &opts.highlight {
            if let Some(r) = locate(c) {
                self.highlight(r);
            }
        }
        let ends = (
            opts.arrow.first().and_then(|c| locate(c)),
            opts.arrow.last().and_then(|c| locate(c)),
        );
        if let (Some(a), Some(b)) = ends {
            let width = (a.2.min(a.3) * 0.18).max(3.0);
            self.arrow(centre(a), centre(b), width);
        }
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.buf.push_str("</svg>\n");
        self.buf
    }
}

/// A chess man drawn with the chess symbols (kind: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen,
/// 6 king) centred at `centre` in a square of side `size`: the solid symbol filled with `fill`,
/// and, for a light `fill`, the outline symbol in black over it so it reads on light squares.
pub fn chess_man(svg: &mut Svg, centre: (f64, f64), size: f64, kind: u8, fill: &str, light: bool) {
    let (solid, outline) = match kind {
        1 => ("\u{265F}", "\u{2659}"),
        2 => ("\u{265E}", "\u{2658}"),
        3 => ("\u{265D}", "\u{2657}"),
        4 => ("\u{265C}", "\u{2656}"),
        5 => ("\u{265B}", "\u{2655}"),
        _ => ("\u{265A}", "\u{2654}"),
    };
    let glyph = |svg: &mut Svg, fill: &str, g: &str| {
        svg.raw(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"{fill}\" font-family=\"DejaVu Sans, sans-serif\" pointer-events=\"none\">{g}</text>",
            centre.0,
            centre.1 + size * 0.3,
            size * 0.82,
        ))
    };
    glyph(svg, fill, solid);
    if light {
        glyph(svg, "#000", outline);
    }
}

/// Checks a picture for the tests of every game's drawing and returns its `data-cell` names:
/// the document is one `<svg>` element with balanced tags, no name is used twice, and every
/// cell of `moves` (each move's `move_cells`) is one of them. Panics with the reason otherwise.
pub fn check_picture(svg: &str, moves: &[Vec<String>]) -> std::collections::HashSet<String> {
    assert!(
        svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"),
        "not an SVG document"
    );
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let end = rest[i..].find('>').expect("an unclosed tag") + i;
        let tag = &rest[i + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "unbalanced </{}>", name);
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or(""));
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements: {:?}", stack);
    let mut names = std::collections::HashSet::new();
    for part in svg.split("data-cell=\"").skip(1) {
        let name = part.split('"').next().unwrap_or("").to_string();
        assert!(
            names.insert(name.clone()),
            "data-cell '{}' appears twice",
            name
        );
    }
    for cells in moves {
        assert!(!cells.is_empty(), "a move with no cells");
        for c in cells {
            assert!(
                names.contains(&escape(c)),
                "move cell '{}' is not in the picture",
                c
            );
        }
    }
    names
}

/// For the drawing tests of every game: plays `games` seeded random games of up to `plies`
/// plies from `start(seed)` and checks the picture of every position with [`check_picture`]
/// (every legal move's cells drawn, balanced tags), drawn with the first move's cells
/// highlighted, the last move's as an arrow and every third position flipped; when `cells` is
/// given, the picture has exactly that many cells.
#[cfg(test)]
pub fn check_random_games<G: crate::game::Game>(
    start: impl Fn(u64) -> G,
    games: u64,
    plies: usize,
    cells: Option<usize>,
) {
    use rand::Rng;
    for seed in 0..games {
        let mut g = start(seed);
        let mut rng = crate::game::rng_from_seed(seed);
        for ply in 0..plies {
            if g.status().is_over() {
                break;
            }
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let all: Vec<Vec<String>> = moves.iter().map(|&m| g.move_cells(m)).collect();
            let pic = g.svg(&DrawOptions {
                highlight: all[0].clone(),
                arrow: all[all.len() - 1].clone(),
                flip: ply % 3 == 1,
                ..DrawOptions::default()
            });
            let names = check_picture(&pic, &all);
            if let Some(n) = cells {
                assert_eq!(names.len(), n, "cells in the picture");
            }
            assert!(pic.contains("class=\"highlight\"") && pic.contains("class=\"arrow\""));
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}

/// For the drawing tests: the top-left corner (x, y) of the cell `name` in a picture.
#[cfg(test)]
pub fn cell_corner(svg: &str, name: &str) -> Option<(f64, f64)> {
    let rest = &svg[svg.find(&format!("data-cell=\"{}\"", escape(name)))?..];
    let attr = |a: &str| -> Option<f64> {
        let v = &rest[rest.find(&format!(" {}=\"", a))? + a.len() + 3..];
        v[..v.find('"')?].parse().ok()
    };
    Some((attr("x")?, attr("y")?))
}

/// For the drawing tests of a two-seat board drawn with seat 0 at the bottom: drawn for seat 1,
/// it is turned round (as `flip` turns it), `flip` turns seat 1's view back, and the cell
/// `corner` (seat 0's bottom-left) is then nearer the top.
#[cfg(test)]
pub fn check_faces_seat_1<G: crate::game::Game>(g: &G, corner: &str) {
    let drawn = |seat: Option<usize>, flip: bool| {
        g.svg(&DrawOptions {
            seat,
            flip,
            ..DrawOptions::default()
        })
    };
    assert_eq!(drawn(Some(0), false), drawn(None, false));
    assert_eq!(drawn(Some(1), false), drawn(None, true));
    assert_eq!(drawn(Some(1), true), drawn(None, false));
    let (a, b) = (
        cell_corner(&drawn(None, false), corner).unwrap(),
        cell_corner(&drawn(Some(1), false), corner).unwrap(),
    );
    assert!(
        b.1 < a.1,
        "seat 0's corner {} is at the top for seat 1",
        corner
    );
}

/// The centre of a rectangle.
pub fn centre((x, y, w, h): Rect) -> (f64, f64) {
    (x + w / 2.0, y + h / 2.0)
}

fn stroke_attr(stroke: Option<(&str, f64)>) -> String {
    match stroke {
        Some((c, w)) => format!(" stroke=\"{c}\" stroke-width=\"{w:.1}\""),
        None => String::new(),
    }
}

/// A picture of a text diagram: each line in a monospace font. The picture of a game that has no
/// drawing of its own yet; it has no clickable cells.
pub fn text_picture(diagram: &str) -> String {
    let lines: Vec<&str> = diagram.lines().collect();
    let cols = lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(1);
    let (cw, lh, pad) = (8.4, 16.0, 12.0);
    let w = cols as f64 * cw + 2.0 * pad;
    let h = lines.len().max(1) as f64 * lh + 2.0 * pad;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fbfaf5\"/>\
         <text font-family=\"DejaVu Sans Mono, monospace\" font-size=\"14\" fill=\"#222\" xml:space=\"preserve\">"
    );
    for (i, l) in lines.iter().enumerate() {
        s.push_str(&format!(
            "<tspan x=\"{pad}\" y=\"{:.1}\">{}</tspan>",
            pad + (i as f64 + 0.8) * lh,
            escape(l)
        ));
    }
    s.push_str("</text></svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_builder_draws_cells_highlight_and_arrow() {
        let mut svg = Svg::new(100.0, 50.0, "#fff");
        svg.cell("a<1", (0.0, 0.0, 50.0, 50.0), "#eee");
        svg.cell("b1", (50.0, 0.0, 50.0, 50.0), "#ccc");
        let opts = DrawOptions {
            highlight: vec!["b1".into(), "nowhere".into()],
            arrow: vec!["a<1".into(), "b1".into()],
            ..DrawOptions::default()
        };
        svg.decorate(&opts, |c| match c {
            "a<1" => Some((0.0, 0.0, 50.0, 50.0)),
            "b1" => Some((50.0, 0.0, 50.0, 50.0)),
            _ => None,
        });
        let s = svg.finish();
        assert!(s.contains("data-cell=\"a&lt;1\""));
        assert_eq!(s.matches("class=\"highlight\"").count(), 1);
        assert_eq!(s.matches("class=\"arrow\"").count(), 1);
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn text_picture_escapes_and_sizes() {
        let s = text_picture("a<b\n&c");
        assert!(s.starts_with("<svg"));
        assert!(s.contains("a&lt;b") && s.contains("&amp;c"));
        assert!(s.trim_end().ends_with("</svg>"));
    }
}
