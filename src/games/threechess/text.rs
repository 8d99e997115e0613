//! Position text, move notation and the board drawn for a person.
//!
//! Position text: ranks 8 down to 1 separated by `/`, the squares of a rank from a to h separated
//! by `,`, each a man (`w`, `b` or `r` then `K Q R B N P`) or a number (1–8) of empty squares;
//! then the player to move (`w`, `b`, `r`), the three states in seat order (`a`, `g`, `d`), the
//! plies counted by the 150-ply rule and the move number (the last two may be left out together).
//! Move: `<from><to>`, a promotion letter (`q r b n`), and for a ghost's king recovery `k<square>`.

use super::*;

const COLOUR_LETTERS: [char; 3] = ['w', 'b', 'r'];
const TYPE_LETTERS: [char; 7] = ['?', 'P', 'N', 'B', 'R', 'Q', 'K'];
pub(crate) const ARRIVAL_ROWS: [&str; 3] = ["rank 8", "file h", "file a"];

pub fn square_name(sq: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (sq % 8) as u8) as char,
        (b'1' + (sq / 8) as u8) as char
    )
}

/// Parses a square at the start of `s` (`a1`–`h8`).
fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => {
            Some((f - b'a') as usize + 8 * (r - b'1') as usize)
        }
        _ => None,
    }
}

fn man_text(p: u8) -> String {
    format!(
        "{}{}",
        COLOUR_LETTERS[colour(p)],
        TYPE_LETTERS[kind(p) as usize]
    )
}

fn parse_man(tok: &str) -> Option<u8> {
    let b = tok.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = COLOUR_LETTERS.iter().position(|&l| l as u8 == b[0])?;
    let k = TYPE_LETTERS[1..].iter().position(|&l| l as u8 == b[1])? as u8 + 1;
    Some(k | (c as u8) << 3)
}

pub(crate) fn position_text(g: &Threechess) -> String {
    let mut ranks = Vec::with_capacity(8);
    for r in (0..8).rev() {
        let mut toks: Vec<String> = Vec::new();
        let mut empty = 0;
        for f in 0..8 {
            let p = g.board[f + 8 * r];
            if p == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    toks.push(empty.to_string());
                    empty = 0;
                }
                toks.push(man_text(p));
            }
        }
        if empty > 0 {
            toks.push(empty.to_string());
        }
        ranks.push(toks.join(","));
    }
    let states: String = g
        .state
        .iter()
        .map(|&s| ['a', 'g', 'd'][s as usize])
        .collect();
    format!(
        "{} {} {} {} {}",
        ranks.join("/"),
        COLOUR_LETTERS[g.side as usize],
        states,
        g.clock,
        g.fullmove
    )
}

pub(crate) fn parse_position(text: &str, opts: &RuleOptions) -> Result<Threechess, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 && fields.len() != 5 {
        return Err(format!(
            "a threechess position is '<board> <to move> <states> [<plies> <move number>]', got {} fields",
            fields.len()
        ));
    }
    let board = parse_board(fields[0])?;
    let side = parse_side(fields[1])?;
    let state = parse_states(fields[2])?;
    let (clock, fullmove) = if fields.len() == 5 {
        parse_counters(fields[3], fields[4])?
    } else {
        (0, 1)
    };
    Threechess::setup(opts, board, side, state, clock, fullmove)
}

/// The board field: 8 ranks from the 8th down, separated by '/', each a ','-separated list of
/// men (`wK`, `bP`, `rN`…) and counts of empty squares.
fn parse_board(field: &str) -> Result<[u8; 64], String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the board has {} ranks separated by '/', not 8",
            ranks.len()
        ));
    }
    let mut board = [0u8; 64];
    for (ri, rank) in ranks.iter().enumerate() {
        let r = 7 - ri;
        let mut f = 0usize;
        for tok in rank.split(',') {
            if tok.is_empty() {
                return Err(format!(
                    "rank {} ('{}') has an empty square entry (squares are separated by one ',')",
                    r + 1,
                    rank
                ));
            }
            if let Ok(n) = tok.parse::<usize>() {
                if !(1..=8).contains(&n) || tok.starts_with(['+', '0']) {
                    return Err(format!(
                        "rank {}: '{}' is not a number of empty squares from 1 to 8",
                        r + 1,
                        tok
                    ));
                }
                f += n;
            } else {
                let p = parse_man(tok).ok_or_else(|| {
                    format!(
                        "rank {}: '{}' is neither a man (w, b or r then K Q R B N P, e.g. wK) nor a number of empty squares",
                        r + 1,
                        tok
                    )
                })?;
                if f < 8 {
                    board[f + 8 * r] = p;
                }
                f += 1;
            }
            if f > 8 {
                return Err(format!(
                    "rank {} ('{}') has more than 8 squares",
                    r + 1,
                    rank
                ));
            }
        }
        if f != 8 {
            return Err(format!(
                "rank {} ('{}') has {} squares, not 8",
                r + 1,
                rank,
                f
            ));
        }
    }
    Ok(board)
}

/// The player to move: `w`, `b` or `r`.
fn parse_side(field: &str) -> Result<u8, String> {
    Ok(match field {
        "w" => 0,
        "b" => 1,
        "r" => 2,
        s => {
            return Err(format!(
                "the player to move must be 'w', 'b' or 'r', not '{}'",
                s
            ))
        }
    })
}

/// The states field: one letter per seat, a (alive), g (ghost) or d (dead).
fn parse_states(field: &str) -> Result<[u8; 3], String> {
    let sb = field.as_bytes();
    if sb.len() != 3 {
        return Err(format!(
            "the states field must be three letters a (alive), g (ghost) or d (dead) in seat order, not '{}'",
            field
        ));
    }
    let mut state = [ALIVE; 3];
    for (i, &c) in sb.iter().enumerate() {
        state[i] = match c {
            b'a' => ALIVE,
            b'g' => GHOST,
            b'd' => DEAD,
            _ => {
                return Err(format!(
                "the states field must be three letters a (alive), g (ghost) or d (dead), not '{}'",
                field
            ))
            }
        };
    }
    Ok(state)
}

/// The 150-ply count and the move number.
fn parse_counters(plies: &str, number: &str) -> Result<(u32, u32), String> {
    let clock = plies
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000)
        .ok_or_else(|| format!("the 150-ply count must be a number from 0, not '{}'", plies))?;
    let mv = number
        .parse::<u32>()
        .ok()
        // 0 is read as 1, as Stockfish does for chess (some tools write it).
        .filter(|&n| n <= 10_000_000)
        .map(|n| n.max(1))
        .ok_or_else(|| format!("the move number must be a number from 0, not '{}'", number))?;
    Ok((clock, mv))
}

pub(crate) fn format_move(mv: Move) -> String {
    let mut s = square_name(mv.from());
    s.push_str(&square_name(mv.to()));
    match mv.promo() {
        QUEEN => s.push('q'),
        ROOK => s.push('r'),
        BISHOP => s.push('b'),
        KNIGHT => s.push('n'),
        _ => {}
    }
    if mv.recover() < 64 {
        s.push('k');
        s.push_str(&square_name(mv.recover()));
    }
    s
}

/// The dense move index (`Game::move_index`): a move without promotion or recovery is `from ×
/// to` (4,096). A pawn arriving on its row moves one step, so the promotions and recoveries
/// that follow are numbered by the arrival (destination × the step's direction, 512): a
/// promotion without recovery by the arrival × the piece (4), a recovery by the pawn itself
/// by the arrival, one by another man by the arrival × the piece × the king's square (64).
pub(crate) const MOVE_INDEX_COUNT: usize = 64 * 64 + 512 * 4 + 512 + 512 * 4 * 64;

/// See [`MOVE_INDEX_COUNT`].
pub(crate) fn move_index(mv: Move) -> usize {
    let (from, to) = (mv.from(), mv.to());
    if mv.promo() == 0 && mv.recover() >= 64 {
        return from * 64 + to;
    }
    let dx = (to % 8) as i32 - (from % 8) as i32;
    let dy = (to / 8) as i32 - (from / 8) as i32;
    let step = ((dy.signum() + 1) * 3 + dx.signum() + 1) as usize;
    let arrival = to * 8 + step - (step > 4) as usize;
    let piece = (mv.promo().clamp(KNIGHT, QUEEN) - KNIGHT) as usize;
    match (mv.promo(), mv.recover()) {
        (_, r) if r >= 64 => 4096 + arrival * 4 + piece,
        (0, _) => 4096 + 2048 + arrival,
        (_, r) => 4096 + 2048 + 512 + (arrival * 4 + piece) * 64 + r,
    }
}

pub(crate) fn parse_move(g: &Threechess, text: &str) -> Result<Move, String> {
    let t = text.trim();
    const EXAMPLE: &str = "moves look like c7d7, d7d8q or d7d8qkb5";
    if t.is_empty() {
        return Err("empty move".into());
    }
    if !t.is_ascii() {
        return Err(format!("move '{}' has characters that are not ASCII", t));
    }
    let b = t.as_bytes();
    let from = parse_square(b).ok_or_else(|| {
        format!(
            "move '{}' does not start with a square a1-h8 ({})",
            t, EXAMPLE
        )
    })?;
    let to = parse_square(&b[2..]).ok_or_else(|| {
        format!(
            "move '{}' has no target square a1-h8 after {} ({})",
            t,
            &t[..2],
            EXAMPLE
        )
    })?;
    if from == to {
        return Err(format!("move '{}' does not move (same square twice)", t));
    }
    let mut rest = &b[4..];
    let promo = match rest.first() {
        Some(b'q') => QUEEN,
        Some(b'r') => ROOK,
        Some(b'b') => BISHOP,
        Some(b'n') => KNIGHT,
        _ => 0,
    };
    if promo != 0 {
        rest = &rest[1..];
    }
    let recover = match rest {
        [] => NO_SQ,
        [b'k', sq @ ..] => match parse_square(sq) {
            Some(s) if sq.len() == 2 => s,
            _ => {
                return Err(format!(
                    "move '{}': 'k' must be followed by the square of the man the king replaces, e.g. d7d8kd8",
                    t
                ))
            }
        },
        _ => {
            return Err(format!(
                "move '{}': unexpected '{}' after the squares (a promotion letter q, r, b or n, then k<square> for a king recovery, may follow)",
                t,
                String::from_utf8_lossy(rest)
            ))
        }
    };
    let p = g.board[from];
    let arrives = p != 0 && kind(p) == PAWN && movegen::on_arrival_row(colour(p), to);
    if promo != 0 && !arrives {
        return Err(format!(
            "move '{}': only a pawn reaching its arrival row is promoted",
            t
        ));
    }
    if recover != NO_SQ && !arrives {
        return Err(format!(
            "move '{}': only a ghost's pawn reaching its arrival row brings the king back",
            t
        ));
    }
    if arrives && promo == 0 && recover != to {
        return Err(format!(
            "move '{}' takes a pawn to its arrival row: add the promotion letter (q, r, b or n), e.g. '{}q'{}",
            t,
            &t[..4],
            if g.state[colour(p)] == GHOST {
                format!(", or bring the king back on it with '{}k{}'", &t[..4], &t[2..4])
            } else {
                String::new()
            }
        ));
    }
    if promo != 0 && recover == to {
        return Err(format!(
            "move '{}': the king replaces the arriving pawn itself, so there is no promotion; write '{}k{}'",
            t,
            &t[..4],
            &t[2..4]
        ));
    }
    Ok(Move::new(from, to, promo, recover))
}

pub(crate) fn display(g: &Threechess) -> String {
    let mut lines = vec!["    a  b  c  d  e  f  g  h".to_string()];
    for r in (0..8).rev() {
        let mut l = format!("{}  ", r + 1);
        for f in 0..8 {
            let p = g.board[f + 8 * r];
            if p == 0 {
                l.push_str(" . ");
            } else {
                l.push(' ');
                l.push_str(&man_text(p));
            }
        }
        lines.push(l.trim_end().to_string());
    }
    let states: Vec<String> = (0..3)
        .map(|s| {
            format!(
                "{} {}",
                COLOUR_NAMES[s],
                ["alive", "ghost", "dead"][g.state[s] as usize]
            )
        })
        .collect();
    lines.push(format!(
        "to move: {}{}; {}; 150-ply count {}, move {}",
        COLOUR_NAMES[g.side as usize],
        if g.in_check { " (in check)" } else { "" },
        states.join(", "),
        g.clock,
        g.fullmove
    ));
    lines.join("\n")
}
