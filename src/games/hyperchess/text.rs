//! Everything textual: square and move names (`parse_move`, `format_move`), the FEN-like
//! position text (`from_text`, `to_text`) and the drawing of the boards (`display`).
//!
//! A square is `<board column A..D><file a..h><board row I..IV><rank 1..8>` (`AbIII8`). With
//! `Boards=1x1` squares are written as in ordinary chess (`e4`), and both forms are read.

use super::geometry::Geometry;
use super::*;

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

/// Loads a position text.
pub(super) fn parse(text: &str, opts: &RuleOptions) -> Result<Hyperchess, String> {
    let Rules {
        cols: c, rows: r, ..
    } = intern_options(opts)?;
    let geo = geometry(c, r);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 6 {
        return Err(format!(
            "a position is '<boards> <side> - <en passant> <half-move clock> <move number>', got {} fields",
            fields.len()
        ));
    }
    let parts: Vec<&str> = fields[0].split('|').collect();
    if parts.len() != c * r {
        return Err(format!(
            "Boards={}x{} needs {} board placements separated by '|', got {}",
            c,
            r,
            c * r,
            parts.len()
        ));
    }
    let mut board = [0u8; MAX_SQ];
    for (bi, part) in parts.iter().enumerate() {
        parse_board(part, bi, c, &mut board)?;
    }
    let side = match fields[1] {
        "w" | "W" => 0,
        "b" | "B" => 1,
        s => return Err(format!("side to move must be 'w' or 'b', not '{}'", s)),
    };
    if let Some(&cf) = fields.get(2) {
        if cf != "-" {
            return Err(format!(
                "castling field must be '-' (there is no castling in hyperchess), not '{}'",
                cf
            ));
        }
    }
    let ep = match fields.get(3) {
        None | Some(&"-") => NONE,
        Some(s) => {
            let (sq, used) =
                parse_square(geo, s).map_err(|e| format!("en-passant square: {}", e))?;
            if used != s.len() {
                return Err(format!("en-passant square '{}' has extra characters", s));
            }
            sq as u16
        }
    };
    let halfmove = match fields.get(4) {
        None => 0,
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 1_000_000)
            .ok_or_else(|| format!("half-move clock must be a number from 0, not '{}'", s))?,
    };
    let fullmove = match fields.get(5) {
        None => 1,
        Some(s) => s
            .parse::<u32>()
            .ok()
            // 0 is read as 1, as Stockfish does (some tools write it).
            .filter(|&n| n <= 10_000_000)
            .map(|n| n.max(1))
            .ok_or_else(|| format!("move number must be a number from 0, not '{}'", s))?,
    };
    Hyperchess::setup(opts, board, side, ep, halfmove, fullmove)
}

/// Writes the position text.
pub(super) fn write(g: &Hyperchess) -> String {
    let geo = g.geo;
    let mut s = String::new();
    for b in 0..geo.cols * geo.rows {
        if b > 0 {
            s.push('|');
        }
        for y in (0..8).rev() {
            let mut empty = 0;
            for x in 0..8 {
                let p = g.board[64 * b + 8 * y + x];
                if p == 0 {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(piece_char(p));
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if y > 0 {
                s.push('/');
            }
        }
    }
    let ep = if g.ep == NONE {
        "-".to_string()
    } else {
        square_name(geo, g.ep as usize)
    };
    format!(
        "{} {} - {} {} {}",
        s,
        if g.side == 0 { 'w' } else { 'b' },
        ep,
        g.halfmove,
        g.fullmove
    )
}

/// Draws the boards.
pub(super) fn display(g: &Hyperchess) -> String {
    let geo = g.geo;
    let mut lines = Vec::new();
    let mut head = String::from("       ");
    for w in 0..geo.cols {
        head.push_str(&format!("{:<11}", (b'A' + w as u8) as char));
    }
    lines.push(head.trim_end().to_string());
    for z in (0..geo.rows).rev() {
        for y in (0..8).rev() {
            let mut l = if y == 7 {
                format!("{:<4}", roman(z))
            } else {
                "    ".to_string()
            };
            l.push_str(&format!("{}  ", y + 1));
            for w in 0..geo.cols {
                if w > 0 {
                    l.push_str("   ");
                }
                for x in 0..8 {
                    let p = g.board[x + 8 * y + 64 * (w + geo.cols * z)];
                    l.push(if p == 0 { '.' } else { piece_char(p) });
                }
            }
            lines.push(l);
        }
        let mut files = String::from("       ");
        for w in 0..geo.cols {
            if w > 0 {
                files.push_str("   ");
            }
            files.push_str("abcdefgh");
        }
        lines.push(files);
    }
    lines.join("\n")
}

/// Reads a move in the protocol's notation.
pub(super) fn parse_move(g: &Hyperchess, text: &str) -> Result<Move, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty move".into());
    }
    if !t.is_ascii() {
        return Err(format!("move '{}' has characters that are not ASCII", t));
    }
    let geo = g.geo;
    let example = if geo.cols == 1 && geo.rows == 1 {
        "e2e4 or e7e8q"
    } else {
        "AeII2AeII4 or CbI7CbI8q"
    };
    let (from, n1) = parse_square(geo, t)
        .map_err(|e| format!("move '{}': {} (moves look like {})", t, e, example))?;
    let (to, n2) = parse_square(geo, &t[n1..])
        .map_err(|e| format!("move '{}': {} (moves look like {})", t, e, example))?;
    let rest = &t[n1 + n2..];
    // The promotion letters this game's `Promotions` option allows: "n, g, b or q".
    let letters = {
        let l: Vec<String> = [KNIGHT, GUARD, BISHOP, ROOK, QUEEN]
            .iter()
            .filter(|p| g.promos.contains(p))
            .map(|&p| piece_char(p).to_ascii_lowercase().to_string())
            .collect();
        format!("{} or {}", l[..l.len() - 1].join(", "), l[l.len() - 1])
    };
    let mut letter = rest.chars();
    let promo = match (letter.next(), letter.next()) {
        (None, _) => 0,
        (Some(c), None) if char_piece(c).is_some() => {
            let p = char_piece(c).unwrap_or(0) & 7;
            if !g.promos.contains(&p) {
                let names = [
                    "", "pawn", "knight", "bishop", "rook", "queen", "guard", "king",
                ];
                return Err(format!(
                    "move '{}': pawns cannot promote to a {} (Promotions={}); choose {}",
                    t,
                    names[p as usize],
                    g.opts.text("Promotions"),
                    letters
                ));
            }
            p
        }
        _ => {
            return Err(format!(
                "move '{}': unexpected '{}' after the squares (only a promotion letter {} \
                 may follow)",
                t, rest, letters
            ))
        }
    };
    if from == to {
        return Err(format!("move '{}' does not move (same square twice)", t));
    }
    let p = g.board[from];
    if p & 7 == PAWN {
        let last = if p >> 3 == 0 { 7 } else { 0 };
        if geo.coord[to][1] == last && promo == 0 {
            return Err(format!(
                "move '{}' takes a pawn to its last rank: add the promotion piece ({}), e.g. '{}q'",
                t, letters, t
            ));
        }
    }
    if promo != 0 && p & 7 != PAWN {
        return Err(format!(
            "move '{}': only a pawn reaching its last rank can promote",
            t
        ));
    }
    Ok(Move::new(from, to, promo))
}

/// Writes a move in the protocol's notation.
pub(super) fn format_move(g: &Hyperchess, mv: Move) -> String {
    let mut s = square_name(g.geo, mv.from());
    s.push_str(&square_name(g.geo, mv.to()));
    match mv.promo() {
        KNIGHT => s.push('n'),
        BISHOP => s.push('b'),
        ROOK => s.push('r'),
        QUEEN => s.push('q'),
        GUARD => s.push('g'),
        _ => {}
    }
    s
}

/// The dense move index (`Game::move_index`): a move without promotion is `from × to` over the
/// grid's squares (`nsq²`). A promotion follows them: the promotion piece (its place in the
/// `Promotions` option's list, 4), the pawn's square on its 7th rank (16 a board: 8 files × the
/// two colours' 7th ranks) and the step to the last rank (7: straight, ±x, ±z or ±w), so that
/// the count stays `nsq² + 448 × boards` instead of five times `nsq²`.
pub(super) fn move_index(g: &Hyperchess, mv: Move) -> usize {
    let nsq = g.geo.nsq;
    let (from, to) = (mv.from().min(nsq - 1), mv.to().min(nsq - 1));
    if mv.promo() == 0 {
        return from * nsq + to;
    }
    let piece = g.promos.iter().position(|&p| p == mv.promo()).unwrap_or(0);
    let [fx, fy, fz, fw] = g.geo.coord[from];
    let [tx, _, tz, tw] = g.geo.coord[to];
    let rank7 = (from / 64) * 16 + (fy >= 4) as usize * 8 + fx as usize;
    let step = match (tx - fx, tz - fz, tw - fw) {
        (-1, 0, 0) => 1,
        (1, 0, 0) => 2,
        (0, -1, 0) => 3,
        (0, 1, 0) => 4,
        (0, 0, -1) => 5,
        (0, 0, 1) => 6,
        _ => 0,
    };
    nsq * nsq + (piece * 16 * g.geo.nb + rank7) * 7 + step
}

/// The size of [`move_index`]'s space.
pub(super) fn move_index_count(g: &Hyperchess) -> usize {
    g.geo.nsq * g.geo.nsq + 4 * 16 * g.geo.nb * 7
}

/// The placement of board `bi` (of a grid `c` boards wide), FEN-style ranks 8 to 1.
fn parse_board(part: &str, bi: usize, c: usize, board: &mut [u8; MAX_SQ]) -> Result<(), String> {
    let (w, z) = (bi % c, bi / c);
    let bname = format!("board {}{}", (b'A' + w as u8) as char, roman(z));
    let ranks: Vec<&str> = part.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "{} ('{}') has {} ranks, not 8",
            bname,
            part,
            ranks.len()
        ));
    }
    for (ri, rank) in ranks.iter().enumerate() {
        let y = 7 - ri;
        let mut x = 0usize;
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(format!(
                        "{} rank {}: bad empty count '{}'",
                        bname,
                        y + 1,
                        ch
                    ));
                }
                x += d as usize;
            } else if let Some(p) = char_piece(ch) {
                if x >= 8 {
                    return Err(format!(
                        "{} rank {} ('{}') has more than 8 squares",
                        bname,
                        y + 1,
                        rank
                    ));
                }
                board[x + 8 * y + 64 * bi] = p;
                x += 1;
            } else {
                return Err(format!(
                    "{} rank {}: '{}' is not a piece (P N B R Q G K, lowercase for Black) or a digit",
                    bname,
                    y + 1,
                    ch
                ));
            }
            if x > 8 {
                return Err(format!(
                    "{} rank {} ('{}') has more than 8 squares",
                    bname,
                    y + 1,
                    rank
                ));
            }
        }
        if x != 8 {
            return Err(format!(
                "{} rank {} ('{}') has {} squares, not 8",
                bname,
                y + 1,
                rank,
                x
            ));
        }
    }
    Ok(())
}
