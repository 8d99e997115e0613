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
    /// The seat whose view is drawn (games with hidden information: that seat's hand face up,
    /// the others' face down). None: the seat to move.
    pub seat: Option<Seat>,
    /// Cells to highlight (the last move's cells, as `move_cells` gave them before it was played).
    pub highlight: Vec<String>,
    /// An arrow from the first to the last of these cells (a suggested move's `move_cells`).
    pub arrow: Vec<String>,
    /// Draw the board from the other side (the second seat's view).
    pub flip: bool,
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

/// A picture of a text diagram: each line in a monospace font. The picture of a game that has no
/// drawing of its own yet; it has no clickable cells.
pub fn text_picture(diagram: &str) -> String {
    let lines: Vec<&str> = diagram.lines().collect();
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0).max(1);
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
    fn text_picture_escapes_and_sizes() {
        let s = text_picture("a<b\n&c");
        assert!(s.starts_with("<svg"));
        assert!(s.contains("a&lt;b") && s.contains("&amp;c"));
        assert!(s.trim_end().ends_with("</svg>"));
    }
}
