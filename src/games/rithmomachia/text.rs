//! Move notation, position text and the board drawing.
//!
//! Position text (one line, tokens separated by spaces, in this order):
//! `turn=<b|w>[+] ply=<n> pb=<count>/<sum>/<digits> pw=<count>/<sum>/<digits> [over=<b|w|draw>:<why>]
//! <square>=<piece> ...`
//! - `turn=b`: Black to move, its phase-1 captures already made (what `to_text` writes);
//!   `turn=b+`: the start of Black's turn — loading runs the end-of-turn checks of White's turn
//!   and then Black's phase-1 captures (handy to set up positions by hand).
//! - `pb`/`pw`: what Black/White has captured: number of pieces, sum of values, digits.
//! - a piece: shape letter `C` circle, `T` triangle, `S` square, `P` pyramid, upper case for White,
//!   lower case for Black, then the value (`S289`, `c3`); a pyramid lists its remaining layers,
//!   base first: `P:S36/S25/T16/T9/C4/C1`.

use super::*;

/// Square name, `a1`..`h16`.
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq & 7) as u8) as char, (sq >> 3) + 1)
}

/// Parses `a1`..`h16`.
pub fn parse_square(s: &str) -> Result<usize, String> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 {
        return Err(format!("'{}' is not a square (a1..h16)", s));
    }
    let f = b[0].to_ascii_lowercase();
    if !(b'a'..=b'h').contains(&f) {
        return Err(format!("'{}' is not a square: the file must be a..h", s));
    }
    let r: usize = s[1..]
        .parse()
        .map_err(|_| format!("'{}' is not a square: the rank must be 1..16", s))?;
    if !(1..=16).contains(&r) || s[1..].starts_with('0') {
        return Err(format!("'{}' is not a square: the rank must be 1..16", s));
    }
    Ok((r - 1) * 8 + (f - b'a') as usize)
}

fn shape_letter(shape: u8, side: u8) -> char {
    let c = ['C', 'T', 'S', 'P'][shape as usize & 3];
    if side == BLACK {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

fn parse_shape(c: char) -> Option<(u8, u8)> {
    let shape = match c.to_ascii_uppercase() {
        'C' => CIRCLE,
        'T' => TRIANGLE,
        'S' => SQUARE,
        'P' => PYRAMID,
        _ => return None,
    };
    Some((shape, if c.is_ascii_uppercase() { WHITE } else { BLACK }))
}

/// A piece as text: `S289`, `c3`, `P:S36/S25/T16/T9/C4/C1`.
pub fn piece_text(p: &PieceSpec) -> String {
    if p.shape == PYRAMID {
        let layers: Vec<String> = p
            .layers
            .iter()
            .map(|&(s, v)| format!("{}{}", shape_letter(s, p.side), v))
            .collect();
        format!("{}:{}", shape_letter(PYRAMID, p.side), layers.join("/"))
    } else {
        format!("{}{}", shape_letter(p.shape, p.side), p.val)
    }
}

fn parse_value(s: &str, what: &str) -> Result<u32, String> {
    let v: u32 = s
        .parse()
        .map_err(|_| format!("{}: '{}' is not a number", what, s))?;
    if v == 0 || v > MAX_VALUE {
        return Err(format!(
            "{}: value {} out of range 1..{}",
            what, v, MAX_VALUE
        ));
    }
    Ok(v)
}

fn parse_piece(sq: usize, s: &str) -> Result<PieceSpec, String> {
    let what = format!("piece on {}", square_name(sq));
    let mut chars = s.chars();
    let c = chars
        .next()
        .ok_or_else(|| format!("{}: missing piece", what))?;
    let (shape, side) = parse_shape(c).ok_or_else(|| {
        format!(
            "{}: '{}' is not a shape (C, T, S, P; lower case = Black)",
            what, c
        )
    })?;
    let rest = chars.as_str();
    if shape != PYRAMID {
        let val = parse_value(rest, &what)?;
        return Ok(PieceSpec {
            sq,
            side,
            shape,
            val,
            layers: Vec::new(),
        });
    }
    let rest = rest.strip_prefix(':').ok_or_else(|| {
        format!(
            "{}: a pyramid is written P:<layers>, e.g. P:S36/S25/T16/T9/C4/C1",
            what
        )
    })?;
    let mut layers = Vec::new();
    for l in rest.split('/') {
        let mut lc = l.chars();
        let c = lc
            .next()
            .ok_or_else(|| format!("{}: empty pyramid layer", what))?;
        let (lshape, lside) =
            parse_shape(c).ok_or_else(|| format!("{}: bad layer shape '{}'", what, c))?;
        if lshape == PYRAMID {
            return Err(format!("{}: a pyramid layer is C, T or S", what));
        }
        if lside != side {
            return Err(format!(
                "{}: layer letters take the pyramid's case (upper = White)",
                what
            ));
        }
        layers.push((lshape, parse_value(lc.as_str(), &what)?));
    }
    if layers.len() > MAX_LAYERS {
        return Err(format!("{}: at most {} layers", what, MAX_LAYERS));
    }
    let val = layers.iter().map(|l| l.1).sum();
    Ok(PieceSpec {
        sq,
        side,
        shape,
        val,
        layers,
    })
}

fn parse_prisoners(s: &str, key: &str) -> Result<Prisoners, String> {
    let parts: Vec<&str> = s.split('/').collect();
    let bad = || {
        format!(
            "{}= takes count/sum/digits (e.g. {}=2/45/3), not '{}'",
            key, key, s
        )
    };
    if parts.len() != 3 {
        return Err(bad());
    }
    let n: Vec<u32> = parts
        .iter()
        .map(|p| p.parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    Ok(Prisoners {
        count: n[0],
        sum: n[1],
        digits: n[2],
    })
}

pub fn parse(text: &str, opts: &RuleOptions) -> Result<Rithmomachia, String> {
    let mut turn: Option<(u8, bool)> = None;
    let mut ply: Option<u32> = None;
    let mut pris = [None, None];
    let mut over = None;
    let mut pieces = Vec::new();
    for tok in text.split_whitespace() {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| format!("'{}' is not key=value (e.g. turn=b, a1=S289)", tok))?;
        match k {
            "turn" => {
                turn = Some(match v {
                    "b" => (BLACK, false),
                    "w" => (WHITE, false),
                    "b+" => (BLACK, true),
                    "w+" => (WHITE, true),
                    _ => return Err(format!("turn= takes b, w, b+ or w+, not '{}'", v)),
                })
            }
            "ply" => {
                ply = Some(
                    v.parse::<u32>()
                        .map_err(|_| format!("ply= takes a number, not '{}'", v))?,
                )
            }
            "pb" => pris[0] = Some(parse_prisoners(v, "pb")?),
            "pw" => pris[1] = Some(parse_prisoners(v, "pw")?),
            "over" => {
                let (w, why) = v
                    .split_once(':')
                    .ok_or_else(|| format!("over= takes <b|w|draw>:<reason>, not '{}'", v))?;
                let r = match w {
                    "b" => R_BLACK,
                    "w" => R_WHITE,
                    "draw" => R_DRAW,
                    _ => return Err(format!("over= winner must be b, w or draw, not '{}'", w)),
                };
                let reason = REASON_CODES.iter().position(|c| *c == why).ok_or_else(|| {
                    format!(
                        "over= reason must be one of {}, not '{}'",
                        REASON_CODES.join(" "),
                        why
                    )
                })?;
                over = Some((r, reason as u8));
            }
            _ => {
                let sq = parse_square(k).map_err(|e| format!("unknown key '{}' ({})", k, e))?;
                pieces.push(parse_piece(sq, v)?);
            }
        }
    }
    let (stm, pending) = turn.ok_or("missing turn= (b or w)")?;
    if pending && over.is_some() {
        return Err("over= goes with turn=b or turn=w, not a pending turn".into());
    }
    let ply = ply.unwrap_or(0);
    let pris = [pris[0].unwrap_or_default(), pris[1].unwrap_or_default()];
    Rithmomachia::build(opts, &pieces, stm, ply, pris, pending, over)
}

pub fn write(g: &Rithmomachia) -> String {
    let mut s = format!(
        "turn={} ply={} pb={}/{}/{} pw={}/{}/{}",
        if g.stm == BLACK { "b" } else { "w" },
        g.ply,
        g.pris[0].count,
        g.pris[0].sum,
        g.pris[0].digits,
        g.pris[1].count,
        g.pris[1].sum,
        g.pris[1].digits
    );
    if g.result != R_ONGOING {
        let w = match g.result {
            R_BLACK => "b",
            R_WHITE => "w",
            _ => "draw",
        };
        s.push_str(&format!(" over={}:{}", w, REASON_CODES[g.reason as usize]));
    }
    for p in g.piece_specs() {
        s.push(' ');
        s.push_str(&square_name(p.sq));
        s.push('=');
        s.push_str(&piece_text(&p));
    }
    s
}

pub fn parse_move(text: &str) -> Result<Move, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "'{}' is not a move: write <from><to> with squares a1..h16, e.g. c4c5",
            text
        )
    };
    let b = t.as_bytes();
    if b.len() < 4 || !b[0].is_ascii_alphabetic() {
        return Err(bad());
    }
    let split = (1..b.len())
        .find(|&i| b[i].is_ascii_alphabetic())
        .ok_or_else(bad)?;
    let from = parse_square(&t[..split]).map_err(|e| format!("{}: {}", bad(), e))?;
    let to = parse_square(&t[split..]).map_err(|e| format!("{}: {}", bad(), e))?;
    if from == to {
        return Err(format!(
            "'{}' is not a move: from and to are the same square",
            text
        ));
    }
    Ok(Move {
        from: from as u8,
        to: to as u8,
    })
}

pub fn display(g: &Rithmomachia) -> String {
    let mut lines = Vec::new();
    let mut pyr_lines = Vec::new();
    for r in (0..16).rev() {
        let mut line = format!("{:>3} ", r + 1);
        for f in 0..8 {
            let sq = r * 8 + f;
            let b = g.board[sq];
            if b == 0 {
                line.push_str("     .");
            } else {
                let p = &g.pieces[b as usize - 1];
                line.push_str(&format!(
                    "{:>6}",
                    format!("{}{}", shape_letter(p.shape, p.side), p.val)
                ));
                if p.shape == PYRAMID {
                    let spec = g.piece_specs().into_iter().find(|s| s.sq == sq).unwrap();
                    pyr_lines.push(format!(
                        "pyramid on {}: {}",
                        square_name(sq),
                        piece_text(&spec)
                    ));
                }
            }
        }
        lines.push(line);
        if r == 8 {
            lines.push(format!("    {}", "-".repeat(48)));
        }
    }
    lines.push(format!(
        "    {}",
        (0..8)
            .map(|f| format!("{:>6}", (b'a' + f) as char))
            .collect::<String>()
    ));
    lines.push(
        "upper case = White (Evens, ranks 1-8), lower case = Black (Odds, ranks 9-16)".into(),
    );
    lines.extend(pyr_lines);
    for (s, name) in [(0usize, "Black"), (1, "White")] {
        let p = &g.pris[s];
        lines.push(format!(
            "{} has captured {} piece(s), sum {}, {} digit(s)",
            name, p.count, p.sum, p.digits
        ));
    }
    let st = match g.status() {
        Status::Ongoing => format!(
            "{} to move, ply {}",
            if g.stm == BLACK { "Black" } else { "White" },
            g.ply
        ),
        Status::Over(o) => format!(
            "game over at ply {}: {} ({})",
            g.ply,
            match o.winner() {
                Some(0) => "Black wins",
                Some(_) => "White wins",
                None => "draw",
            },
            o.reason
        ),
    };
    lines.push(st);
    lines.join("\n")
}
