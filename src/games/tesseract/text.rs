//! Text: position text (`from_text` / `to_text`), move notation and the board drawing.
//! The formats are in docs/rules/tesseract.md ("Notation", "Position text").

use super::*;

pub(crate) fn point_name(s: u8) -> String {
    format!(
        "{}{}",
        (b'a' + (s as usize % W) as u8) as char,
        s as usize / W + 1
    )
}

/// Parses a point at `b[*i..]`: a file letter a..o then a rank 1..15.
pub(super) fn parse_point(b: &[u8], i: &mut usize, whole: &str) -> Result<u8, String> {
    let start = *i;
    let f = match b.get(*i) {
        Some(&c @ b'a'..=b'o') => (c - b'a') as i32,
        Some(&c) => {
            return Err(format!(
                "'{}': expected a file letter a..o at position {}, found '{}'",
                whole,
                start + 1,
                c as char
            ))
        }
        None => {
            return Err(format!(
                "'{}': a point (file a..o, rank 1..15) is missing at the end",
                whole
            ))
        }
    };
    *i += 1;
    let mut r: i32 = 0;
    let mut digits = 0;
    while let Some(&c @ b'0'..=b'9') = b.get(*i) {
        r = r * 10 + (c - b'0') as i32;
        digits += 1;
        *i += 1;
        if digits > 2 {
            break;
        }
    }
    if digits == 0 || !(1..=15).contains(&r) || digits > 2 {
        return Err(format!(
            "'{}': the point starting at position {} needs a rank 1..15 after its file letter",
            whole,
            start + 1
        ));
    }
    Ok(sq_of(f, r - 1))
}

pub(super) fn parse_orientation(b: &[u8], i: &mut usize, whole: &str) -> Result<bool, String> {
    let r = match b.get(*i) {
        Some(b'h') => false,
        Some(b'v') => true,
        _ => {
            return Err(format!(
                "'{}': a slider needs its orientation after the anchor point, h or v",
                whole
            ))
        }
    };
    *i += 1;
    Ok(r)
}

pub(super) fn man_kind_of_letter(c: u8) -> Option<u8> {
    match c {
        b'T' => Some(K_T),
        b'S' => Some(K_S),
        b'P' => Some(K_P),
        b'R' => Some(K_R),
        b'C' => Some(K_C),
        _ => None,
    }
}

pub(super) fn parse_move_text(text: &str) -> Result<Move, String> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.is_empty() {
        return Err("empty move text".into());
    }
    let mut i = 0;
    let mv;
    if b.len() >= 2 && b[1] == b'@' {
        i = 2;
        let to = parse_point(b, &mut i, t)?;
        let kind = match b[0] {
            b's' | b'L' => {
                let v = parse_orientation(b, &mut i, t)?;
                match (b[0], v) {
                    (b's', false) => MK_SH,
                    (b's', true) => MK_SV,
                    (_, false) => MK_LH,
                    (_, true) => MK_LV,
                }
            }
            b'X' => MK_X,
            c => match man_kind_of_letter(c) {
                Some(k) => 1 + k,
                None => {
                    return Err(format!(
                        "'{}': unknown piece letter '{}' before '@' (men T S P R C, small slider s, large slider L, cross X)",
                        t, c as char
                    ))
                }
            },
        };
        mv = Move::new(kind, NONE, NONE, to);
    } else {
        let from = parse_point(b, &mut i, t)?;
        if b.get(i) == Some(&b'^') {
            i += 1;
            let to = if i < b.len() {
                parse_point(b, &mut i, t)?
            } else {
                NONE
            };
            mv = Move::new(MK_PIVOT, from, NONE, to);
        } else {
            let p2 = parse_point(b, &mut i, t)?;
            if i < b.len() {
                let p3 = parse_point(b, &mut i, t)?;
                mv = Move::new(MK_MOVE, from, p2, p3);
            } else {
                mv = Move::new(MK_MOVE, from, NONE, p2);
            }
        }
    }
    if i != b.len() {
        return Err(format!(
            "'{}': unexpected text '{}' at the end of the move",
            t,
            &t[i..]
        ));
    }
    Ok(mv)
}

pub(super) fn format_move_text(mv: Move) -> String {
    match mv.kind {
        MK_MOVE => {
            if mv.via == NONE {
                format!("{}{}", point_name(mv.from), point_name(mv.to))
            } else {
                format!(
                    "{}{}{}",
                    point_name(mv.from),
                    point_name(mv.via),
                    point_name(mv.to)
                )
            }
        }
        MK_PIVOT => {
            if mv.to == NONE {
                format!("{}^", point_name(mv.from))
            } else {
                format!("{}^{}", point_name(mv.from), point_name(mv.to))
            }
        }
        MK_SH => format!("s@{}h", point_name(mv.to)),
        MK_SV => format!("s@{}v", point_name(mv.to)),
        MK_LH => format!("L@{}h", point_name(mv.to)),
        MK_LV => format!("L@{}v", point_name(mv.to)),
        MK_X => format!("X@{}", point_name(mv.to)),
        k if (2..=6).contains(&k) => {
            format!("{}@{}", MAN_LETTERS[(k - 1) as usize], point_name(mv.to))
        }
        _ => format!("?{:?}", mv),
    }
}

/// The dense move index's regions (`Game::move_index`): a move without a corner is `from × to`;
/// a move through a corner (Star, Pyramid, Rectangle) is `from ×` the first leg's direction (8)
/// `×` the side the second leg turns to (2) `×` its length (1..=14): the corner is then two
/// points along the first leg and the destination along the second, so that the index needs
/// neither point whole (a from × corner × to product would be 11 million); a pivot is the point
/// pivoted about × where the other point goes (none for a small slider, or one of 4
/// directions); a drop or setup placement is the piece and orientation (10) × the point.
const PLAIN: usize = SQ * SQ;
const BENT: usize = SQ * 8 * 2 * (W - 1);
const PIVOTS: usize = SQ * 5;
const DROPS: usize = 10 * SQ;
/// The size of the move index's space: 104,400.
pub(super) const MOVE_INDEX_COUNT: usize = PLAIN + BENT + PIVOTS + DROPS;

/// The direction (index into `DX`/`DY`) of the unit step from `a` towards `b`.
fn direction(a: u8, b: u8) -> usize {
    let (dx, dy) = unit(a, b);
    (0..8).find(|&d| DX[d] == dx && DY[d] == dy).unwrap_or(0)
}

/// See [`PLAIN`] and the regions after it.
pub(super) fn move_index(mv: Move) -> usize {
    let (from, to) = (mv.from as usize % SQ, mv.to as usize % SQ);
    match mv.kind {
        MK_MOVE if mv.via == NONE => from * SQ + to,
        MK_MOVE => {
            let first = direction(mv.from, mv.via);
            let side = (direction(mv.via, mv.to) == perps(first)[1]) as usize;
            let len = (file_of(mv.to) - file_of(mv.via))
                .abs()
                .max((rank_of(mv.to) - rank_of(mv.via)).abs())
                .clamp(1, W as i32 - 1) as usize;
            PLAIN + ((from * 8 + first) * 2 + side) * (W - 1) + len - 1
        }
        MK_PIVOT if mv.to == NONE => PLAIN + BENT + from * 5,
        MK_PIVOT => PLAIN + BENT + from * 5 + 1 + direction(mv.from, mv.to) % 4,
        kind => PLAIN + BENT + PIVOTS + (kind.clamp(2, 11) - 2) as usize * SQ + to,
    }
}

/// Loads a position text (see the module comment).
pub(super) fn parse(text: &str, opts: &RuleOptions) -> Result<Tesseract, String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() != 7 {
        return Err(format!(
            "a tesseract position has 7 fields (side, phase, ply, White pieces, Black pieces, White reserve, Black reserve), found {}; the start is '{}'",
            f.len(),
            START_TEXT
        ));
    }
    let mut g = Tesseract::empty(opts)?;
    g.board = [0; SQ];
    g.reserve = [[0; 8]; 2];
    parse_header(&mut g, &f)?;
    // Crosses first (footprints), then pieces.
    let mut counts = [[0u8; 8]; 2];
    let mut pieces: Vec<(usize, u8, u8)> = Vec::new(); // (side, kind, anchor)
    for side in 0..2 {
        parse_placements(&mut g, side, f[3 + side], &mut counts[side], &mut pieces)?;
    }
    for &(side, kind, p) in &pieces {
        place_piece(&mut g, side, kind, p)?;
    }
    for side in 0..2 {
        parse_reserve(&mut g, side, f[5 + side], &counts[side])?;
    }
    if g.step < SETUP_PLIES {
        g.check_setup_counts()?;
    } else if g.tpos[0] == NONE && g.tpos[1] == NONE {
        return Err("both Tesseracts are missing; at most one can have been captured".into());
    }
    g.hash = g.full_hash();
    g.status = g.compute_status();
    Ok(g)
}

/// The side to move, the phase (`play` or `setup:N`) and the ply counter.
fn parse_header(g: &mut Tesseract, f: &[&str]) -> Result<(), String> {
    g.side = match f[0] {
        "w" => 0,
        "b" => 1,
        x => return Err(format!("side to move must be w or b, not '{}'", x)),
    };
    g.step = if f[1] == "play" {
        SETUP_PLIES
    } else if let Some(n) = f[1].strip_prefix("setup:") {
        match n.parse::<u8>() {
            Ok(v) if v < SETUP_PLIES => v,
            _ => {
                return Err(format!(
                    "phase 'setup:N' needs N = setup plies done, 0..13, not '{}'",
                    n
                ))
            }
        }
    } else {
        return Err(format!(
            "phase must be 'play' or 'setup:N' (N = 0..13 setup plies done), not '{}'",
            f[1]
        ));
    };
    g.ply = f[2]
        .parse::<u32>()
        .map_err(|_| format!("ply counter must be a whole number, not '{}'", f[2]))?;
    if g.step < SETUP_PLIES {
        if g.ply != g.step as u32 {
            return Err(format!(
                "during setup the ply counter must equal the setup plies done ({}), not {}",
                g.step, g.ply
            ));
        }
        if g.side != g.step % 2 {
            return Err(format!(
                "at setup ply {} it is {} to place",
                g.step,
                ["White (w)", "Black (b)"][g.step as usize % 2]
            ));
        }
    }
    Ok(())
}

/// One side's pieces on the board (`-` or comma-separated tokens): crosses are put on the board
/// at once (their footprints constrain the rest), the other pieces are collected in `pieces`.
fn parse_placements(
    g: &mut Tesseract,
    side: usize,
    field: &str,
    counts: &mut [u8; 8],
    pieces: &mut Vec<(usize, u8, u8)>,
) -> Result<(), String> {
    let name = ["White", "Black"][side];
    if field == "-" {
        return Ok(());
    }
    for tok in field.split(',') {
        let b = tok.as_bytes();
        if b.len() < 3 {
            return Err(format!(
                "{} piece '{}' is too short (e.g. Th2, sf3h, Le5v, Xh8)",
                name, tok
            ));
        }
        let mut i = 1;
        let p = parse_point(b, &mut i, tok)?;
        let (kind, ri) = match b[0] {
            b's' => (if parse_orientation(b, &mut i, tok)? { K_SV } else { K_SH }, R_SM),
            b'L' => (if parse_orientation(b, &mut i, tok)? { K_LVA } else { K_LHA }, R_L),
            b'X' => (0, R_X),
            c => match man_kind_of_letter(c) {
                Some(k) => (k, (k - 1) as usize),
                None => {
                    return Err(format!(
                        "{} piece '{}': unknown letter '{}' (T S P R C men, s small slider, L large slider, X cross)",
                        name, tok, c as char
                    ))
                }
            },
        };
        if i != b.len() {
            return Err(format!(
                "{} piece '{}': unexpected text at the end",
                name, tok
            ));
        }
        counts[ri] = counts[ri].saturating_add(1);
        if ri == R_X {
            if !cross_centre_ok(p) {
                return Err(format!(
                    "{} cross at {}: a cross centre must be on files b..n and ranks 4..12",
                    name,
                    point_name(p)
                ));
            }
            let fp = [
                p,
                NB[p as usize][0],
                NB[p as usize][1],
                NB[p as usize][2],
                NB[p as usize][3],
            ];
            if fp.iter().any(|&q| g.board[q as usize] & FP != 0) {
                return Err(format!(
                    "{} cross at {} overlaps another cross's footprint",
                    name,
                    point_name(p)
                ));
            }
            g.put_cross(p, side);
        } else {
            pieces.push((side, kind, p));
        }
    }
    Ok(())
}

/// Puts a man or slider on the board, checking its cells against the crosses and the setup camps.
fn place_piece(g: &mut Tesseract, side: usize, kind: u8, p: u8) -> Result<(), String> {
    let name = ["White", "Black"][side];
    let mut cells = vec![p];
    if kind == K_LHA {
        if file_of(p) == 14 {
            return Err(format!(
                "{} large slider {}h would stick out of the board",
                name,
                point_name(p)
            ));
        }
        cells.push(p + 1);
    }
    if kind == K_LVA {
        if rank_of(p) == 14 {
            return Err(format!(
                "{} large slider {}v would stick out of the board",
                name,
                point_name(p)
            ));
        }
        cells.push(p + W as u8);
    }
    for &q in &cells {
        let c = g.board[q as usize];
        if c & KM != 0 {
            return Err(format!("two pieces on {}", point_name(q)));
        }
        if c & CEN != 0 {
            return Err(format!(
                "{} piece on the cross centre {}",
                name,
                point_name(q)
            ));
        }
        if c & ARM != 0 && (is_man(kind) || g.step < SETUP_PLIES) {
            return Err(format!(
                "{} man on the cross arm end {} (men never stand on a cross)",
                name,
                point_name(q)
            ));
        }
        if g.step < SETUP_PLIES && !in_camp(side, q) {
            return Err(format!(
                "{} piece on {} outside its camp during setup",
                name,
                point_name(q)
            ));
        }
    }
    g.put_slider(p, kind, side);
    Ok(())
}

/// One side's reserve (`-` or letters), checked against what it has on the board.
fn parse_reserve(g: &mut Tesseract, side: usize, rs: &str, counts: &[u8; 8]) -> Result<(), String> {
    let name = ["White", "Black"][side];
    if rs != "-" {
        for ch in rs.chars() {
            match RES_LETTERS.iter().position(|&c| c == ch) {
                Some(i) => g.reserve[side][i] = g.reserve[side][i].saturating_add(1),
                None => {
                    return Err(format!(
                        "{} reserve '{}': unknown letter '{}' (T S P R C L s X, or - for none)",
                        name, rs, ch
                    ))
                }
            }
        }
    }
    for i in 0..8 {
        // Counted wide: a text may repeat a letter far past what a u8 holds.
        let total = counts[i] as u32 + g.reserve[side][i] as u32;
        if total > FULL[i] as u32 {
            return Err(format!(
                "{} has {} '{}' on the board and in reserve, more than its {}",
                name, total, RES_LETTERS[i], FULL[i]
            ));
        }
        if g.step < SETUP_PLIES && total != FULL[i] as u32 {
            return Err(format!(
                "nothing is captured during setup: {}'s '{}' on the board plus in reserve must be {}",
                name, RES_LETTERS[i], FULL[i]
            ));
        }
    }
    if g.step >= SETUP_PLIES && (g.reserve[side][R_T] > 0 || g.reserve[side][R_X] > 0) {
        return Err(format!(
            "{}: once play has started no Tesseract or cross can be in reserve",
            name
        ));
    }
    Ok(())
}

/// Writes the position text.
pub(super) fn write(g: &Tesseract) -> String {
    let mut s = String::with_capacity(160);
    s.push_str(if g.side == 0 { "w " } else { "b " });
    if g.in_play() {
        s.push_str("play ");
    } else {
        s.push_str(&format!("setup:{} ", g.step));
    }
    s.push_str(&g.ply.to_string());
    for side in 0..2 {
        let mut toks: Vec<String> = Vec::new();
        for sq in 0..SQ as u8 {
            let c = g.board[sq as usize];
            if c & CEN != 0 && ((c & CBLK != 0) as usize) == side {
                toks.push(format!("X{}", point_name(sq)));
            }
            let k = c & KM;
            if k == 0 || color(c) != side {
                continue;
            }
            match k {
                K_T..=K_C => toks.push(format!("{}{}", MAN_LETTERS[k as usize], point_name(sq))),
                K_SH => toks.push(format!("s{}h", point_name(sq))),
                K_SV => toks.push(format!("s{}v", point_name(sq))),
                K_LHA => toks.push(format!("L{}h", point_name(sq))),
                K_LVA => toks.push(format!("L{}v", point_name(sq))),
                _ => {}
            }
        }
        s.push(' ');
        if toks.is_empty() {
            s.push('-');
        } else {
            s.push_str(&toks.join(","));
        }
    }
    for side in 0..2 {
        s.push(' ');
        let mut any = false;
        for i in 0..8 {
            for _ in 0..g.reserve[side][i] {
                s.push(RES_LETTERS[i]);
                any = true;
            }
        }
        if !any {
            s.push('-');
        }
    }
    s
}

/// Draws the board, the reserves and the state of the game.
pub(super) fn display(g: &Tesseract) -> String {
    let mut out = String::new();
    out.push_str("    ");
    for f in 0..W {
        out.push_str(&format!(" {} ", (b'a' + f as u8) as char));
    }
    for r in (0..W).rev() {
        out.push('\n');
        let camp = if r == 1 || r == 2 {
            'w'
        } else if r == 12 || r == 13 {
            'b'
        } else {
            ' '
        };
        out.push_str(&format!("{:>2}{} ", r + 1, camp));
        for f in 0..W {
            let c = g.board[r * W + f];
            out.push_str(&cell_text(c));
        }
    }
    out.push_str("\n    ");
    for f in 0..W {
        out.push_str(&format!(" {} ", (b'a' + f as u8) as char));
    }
    out.push_str(
        "\nMen: T S P R C (White upper case, Black lower case). Sliders: w-/w| White small h/v, W=/W# White large h/v (b, B for Black).\nCross centre X (White's) / x (Black's), free arm end +; a slider on an arm end shows a trailing +.",
    );
    state_lines(g, &mut out);
    out
}

/// One intersection of the drawing (three characters).
fn cell_text(c: u8) -> String {
    let k = c & KM;
    let blk = c & BLK != 0;
    if c & CEN != 0 {
        if c & CBLK != 0 { " x " } else { " X " }.to_string()
    } else {
        let arm = if c & ARM != 0 { '+' } else { ' ' };
        match k {
            0 => {
                if c & ARM != 0 {
                    " + ".to_string()
                } else {
                    " . ".to_string()
                }
            }
            K_T..=K_C => {
                let l = MAN_LETTERS[k as usize];
                format!(" {} ", if blk { l.to_ascii_lowercase() } else { l })
            }
            _ => {
                let o = if blk { 'b' } else { 'w' };
                let (o, glyph) = match k {
                    K_SH => (o, '-'),
                    K_SV => (o, '|'),
                    K_LHA | K_LHB => (o.to_ascii_uppercase(), '='),
                    _ => (o.to_ascii_uppercase(), '#'),
                };
                format!("{}{}{}", o, glyph, arm)
            }
        }
    }
}

/// The reserves, the phase, the ply and the result under the drawing.
pub(super) fn state_lines(g: &Tesseract, out: &mut String) {
    for side in 0..2 {
        let mut r = String::new();
        for i in 0..8 {
            for _ in 0..g.reserve[side][i] {
                r.push(RES_LETTERS[i]);
            }
        }
        if r.is_empty() {
            r.push('-');
        }
        out.push_str(&format!("\n{} reserve: {}", ["White", "Black"][side], r));
    }
    let phase = match g.stage() {
        Stage::Play => "play".to_string(),
        Stage::Men => format!(
            "setup ply {}: place Tesseract, Star or Pyramid in own camp",
            g.step + 1
        ),
        Stage::Sliders => format!("setup ply {}: place a small slider in own camp", g.step + 1),
        Stage::Crosses => format!(
            "setup ply {}: place a cross in the neutral zone",
            g.step + 1
        ),
    };
    out.push_str(&format!(
        "\nPhase: {}  |  ply {}{}  |  {} to move",
        phase,
        g.ply,
        if g.max_plies > 0 {
            format!("/{}", g.max_plies)
        } else {
            String::new()
        },
        ["White", "Black"][g.side as usize]
    ));
    if let Status::Over(o) = g.status {
        let res = match o.winner() {
            Some(0) => "White wins".to_string(),
            Some(_) => "Black wins".to_string(),
            None => "draw".to_string(),
        };
        out.push_str(&format!("\nGame over: {} ({})", res, o.reason));
    }
}
