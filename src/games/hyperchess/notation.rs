//! Square and move names, and the FEN-like position text.
//!
//! A square is `<board column A..D><file a..h><board row I..IV><rank 1..8>` (`AbIII8`). With
//! `Boards=1x1` squares are written as in ordinary chess (`e4`), and both forms are read.

use super::geometry::Geometry;

const ROMAN: [&str; 4] = ["I", "II", "III", "IV"];

pub fn roman(z: usize) -> &'static str {
    ROMAN[z]
}

/// The name of square `sq`: plain (`e4`) for a 1x1 grid, four-dimensional (`AeII4`) otherwise.
pub fn square_name(geo: &Geometry, sq: usize) -> String {
    let [x, y, z, w] = geo.coord[sq];
    let file = (b'a' + x as u8) as char;
    let rank = (b'1' + y as u8) as char;
    if geo.cols == 1 && geo.rows == 1 {
        format!("{}{}", file, rank)
    } else {
        format!(
            "{}{}{}{}",
            (b'A' + w as u8) as char,
            file,
            ROMAN[z as usize],
            rank
        )
    }
}

/// The four-dimensional name of `sq` whatever the grid (`AeI4` on 1x1).
pub fn square_name_4d(geo: &Geometry, sq: usize) -> String {
    let [x, y, z, w] = geo.coord[sq];
    format!(
        "{}{}{}{}",
        (b'A' + w as u8) as char,
        (b'a' + x as u8) as char,
        ROMAN[z as usize],
        (b'1' + y as u8) as char
    )
}

/// Reads one square at the start of `s`; returns the square and the number of bytes used.
pub fn parse_square(geo: &Geometry, s: &str) -> Result<(usize, usize), String> {
    let b = s.as_bytes();
    let grid = format!("{}x{}", geo.cols, geo.rows);
    if b.is_empty() {
        return Err("a square is missing".into());
    }
    if b[0].is_ascii_lowercase() {
        // Plain chess square: only on a 1x1 grid.
        if geo.cols != 1 || geo.rows != 1 {
            return Err(format!(
                "square '{}' lacks its board: with Boards={} write e.g. AeII4 (board column A.., file a-h, board row I.., rank 1-8)",
                s, grid
            ));
        }
        let file = b[0];
        if !(b'a'..=b'h').contains(&file) {
            return Err(format!(
                "bad file '{}' in '{}': files are a to h",
                file as char, s
            ));
        }
        match b.get(1) {
            Some(r @ b'1'..=b'8') => {
                return Ok(((file - b'a') as usize + 8 * (r - b'1') as usize, 2))
            }
            _ => return Err(format!("'{}' needs a rank 1 to 8 after the file", s)),
        }
    }
    let col = b[0];
    if !col.is_ascii_uppercase() {
        return Err(format!("'{}' does not start with a square like AeII4", s));
    }
    let w = (col - b'A') as usize;
    if w >= geo.cols {
        return Err(format!(
            "board column '{}' in '{}' does not exist with Boards={} (columns A to {})",
            col as char,
            s,
            grid,
            (b'A' + geo.cols as u8 - 1) as char
        ));
    }
    let file = match b.get(1) {
        Some(f @ b'a'..=b'h') => f - b'a',
        _ => {
            return Err(format!(
                "'{}' needs a file a to h after the board column",
                s
            ))
        }
    };
    let mut i = 2;
    while i < b.len() && (b[i] == b'I' || b[i] == b'V') {
        i += 1;
    }
    let numeral = &s[2..i];
    let z = match ROMAN.iter().position(|r| *r == numeral) {
        Some(z) => z,
        None => {
            return Err(format!(
                "'{}' needs a board row I, II, III or IV after the file (got '{}')",
                s, numeral
            ))
        }
    };
    if z >= geo.rows {
        return Err(format!(
            "board row {} in '{}' does not exist with Boards={} (rows I to {})",
            numeral,
            s,
            grid,
            ROMAN[geo.rows - 1]
        ));
    }
    let rank = match b.get(i) {
        Some(r @ b'1'..=b'8') => r - b'1',
        _ => return Err(format!("'{}' needs a rank 1 to 8 after the board row", s)),
    };
    Ok((
        file as usize + 8 * rank as usize + 64 * (w + geo.cols * z),
        i + 1,
    ))
}

pub fn piece_char(pc: u8) -> char {
    let c = b" PNBRQGK"[(pc & 7) as usize] as char;
    if pc >> 3 == 1 {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

pub fn char_piece(c: char) -> Option<u8> {
    let t = match c.to_ascii_uppercase() {
        'P' => 1,
        'N' => 2,
        'B' => 3,
        'R' => 4,
        'Q' => 5,
        'G' => 6,
        'K' => 7,
        _ => return None,
    };
    Some(if c.is_ascii_lowercase() { t | 8 } else { t })
}
