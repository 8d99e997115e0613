//! Card names, move notation, position text (full state and observation) and display.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{TMove, Tesseris, DECK_CAP, NO_SEAT, PILE_CAP, UNKNOWN};
use crate::game::RuleOptions;

const FAMILIES: [char; 3] = ['O', 'T', 'C'];

/// `O1`..`O6`, `T1`..`T6`, `C1`..`C6`, or `?`.
pub fn card_name(c: u8) -> String {
    if c >= 18 {
        return "?".into();
    }
    format!("{}{}", FAMILIES[c as usize / 6], c % 6 + 1)
}

/// Parses `O1`..`C6` (case-insensitive).
pub fn parse_card(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let fam = match b[0].to_ascii_uppercase() {
        b'O' => 0,
        b'T' => 1,
        b'C' => 2,
        _ => return None,
    };
    match b[1] {
        b'1'..=b'6' => Some(fam * 6 + (b[1] - b'1')),
        _ => None,
    }
}

const MOVE_HELP: &str = "a tesseris move is <card><discard><draw>, e.g. T4p2d, C1o3p1, O6p4h2: card O1..O6, T1..T6 or \
C1..C6; discard p1..p4 (onto a pile) or o1..o4 (under that objective of yours); draw d (deck), p1..p4 (a pile top) or \
h<seat> (a random card from that seat's hand)";

pub fn parse_move(text: &str, players: usize, shapes: u8) -> Result<TMove, String> {
    let t = text.trim();
    if !t.is_ascii() || t.len() < 5 || t.len() > 6 {
        return Err(format!("'{}' is not a move: {}", t, MOVE_HELP));
    }
    let card = parse_card(&t[0..2]).ok_or_else(|| {
        format!(
            "'{}' is not a card in move '{}': {}",
            &t[0..2],
            t,
            MOVE_HELP
        )
    })?;
    if card >= shapes {
        return Err(format!(
            "'{}': the squares (C1..C6) are not in play in a 2-player game without FullDeck",
            t
        ));
    }
    let dis = t[2..4].to_ascii_lowercase();
    let digit = |ch: u8| -> Option<u8> { (b'1'..=b'4').contains(&ch).then(|| ch - b'1') };
    let discard = match (dis.as_bytes()[0], digit(dis.as_bytes()[1])) {
        (b'p', Some(k)) => k,
        (b'o', Some(k)) => 4 + k,
        _ => {
            return Err(format!(
                "'{}' is not a discard in move '{}' (p1..p4 or o1..o4): {}",
                &t[2..4],
                t,
                MOVE_HELP
            ))
        }
    };
    let dr = t[4..].to_ascii_lowercase();
    let db = dr.as_bytes();
    let draw = if dr == "d" {
        0
    } else if db.len() == 2 && db[0] == b'p' && digit(db[1]).is_some() {
        1 + digit(db[1]).unwrap()
    } else if db.len() == 2 && db[0] == b'h' && digit(db[1]).is_some() {
        let v = digit(db[1]).unwrap();
        if v as usize >= players {
            return Err(format!(
                "'{}': there is no seat {} in a {}-player game",
                t,
                v + 1,
                players
            ));
        }
        5 + v
    } else {
        return Err(format!(
            "'{}' is not a draw in move '{}' (d, p1..p4 or h<seat>): {}",
            dr, t, MOVE_HELP
        ));
    };
    Ok(TMove {
        card,
        discard,
        draw,
    })
}

pub fn format_move(m: TMove) -> String {
    let mut s = card_name(m.card);
    if m.discard < 4 {
        let _ = write!(s, "p{}", m.discard + 1);
    } else {
        let _ = write!(s, "o{}", m.discard - 3);
    }
    match m.draw {
        0 => s.push('d'),
        1..=4 => {
            let _ = write!(s, "p{}", m.draw);
        }
        _ => {
            let _ = write!(s, "h{}", m.draw - 4);
        }
    }
    s
}

fn seat_digits(mask: u8, owner: usize, n: usize) -> String {
    (0..n)
        .filter(|&x| x != owner && mask >> x & 1 == 1)
        .map(|x| char::from(b'1' + x as u8))
        .collect()
}

/// The position text: `obs seat=<k> …` for an observation, `full …` for a whole state.
pub fn position_text(g: &Tesseris) -> String {
    let n = g.n as usize;
    let obs = g.observer != NO_SEAT;
    let mut s = String::with_capacity(256);
    if obs {
        let _ = write!(s, "obs seat={} ", g.observer + 1);
    } else {
        s.push_str("full ");
    }
    let _ = write!(
        s,
        "players={} rounds={} first={} turn={} ply={} end={} score=",
        n,
        g.rounds_done,
        g.first + 1,
        g.to_move + 1,
        g.ply,
        g.triggered as u8
    );
    let scores: Vec<String> = g.scores[..n].iter().map(|x| x.to_string()).collect();
    s.push_str(&scores.join(","));
    s.push_str(" obj=");
    for t in 0..n {
        if t > 0 {
            s.push('/');
        }
        for k in 0..4 {
            if k > 0 {
                s.push(',');
            }
            s.push_str(&card_name(g.obj[t][k]));
            if g.done[t] >> k & 1 == 1 {
                s.push('+');
            }
        }
    }
    s.push_str(" hands=");
    for t in 0..n {
        if t > 0 {
            s.push('/');
        }
        let with_masks = !obs || g.observer as usize == t;
        for i in 0..4 {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&card_name(g.hand[t][i]));
            if with_masks && g.hand[t][i] != UNKNOWN {
                let d = seat_digits(g.mask[t][i], t, n);
                if !d.is_empty() {
                    s.push('@');
                    s.push_str(&d);
                }
            }
            match g.kept[t][i] {
                0 => {}
                1 => s.push('!'),
                k => {
                    s.push('!');
                    s.push((b'0' + k) as char);
                }
            }
        }
    }
    s.push_str(" piles=");
    for p in 0..4 {
        if p > 0 {
            s.push('/');
        }
        if g.pile_len[p] == 0 {
            s.push('-');
        }
        for (i, &c) in g.pile(p).iter().enumerate() {
            if i > 0 {
                s.push('.');
            }
            s.push_str(&card_name(c));
        }
    }
    s.push_str(" deck=");
    if obs {
        let _ = write!(s, "{}", g.deck_len);
    } else {
        if g.deck_len == 0 {
            s.push('-');
        }
        for (i, &c) in g.deck().iter().enumerate() {
            if i > 0 {
                s.push('.');
            }
            s.push_str(&card_name(c));
        }
        let _ = write!(s, " rng={:016x}", g.rng);
    }
    s
}

fn parse_num(key: &str, v: &str, lo: i64, hi: i64) -> Result<i64, String> {
    match v.parse::<i64>() {
        Ok(x) if x >= lo && x <= hi => Ok(x),
        _ => Err(format!(
            "'{}={}': {} must be a whole number from {} to {}",
            key, v, key, lo, hi
        )),
    }
}

fn parse_cards(key: &str, v: &str, sep: char) -> Result<Vec<u8>, String> {
    if v == "-" {
        return Ok(Vec::new());
    }
    v.split(sep)
        .map(|c| {
            parse_card(c).ok_or_else(|| {
                format!("'{}' in {}= is not a card (O1..O6, T1..T6, C1..C6)", c, key)
            })
        })
        .collect()
}

/// Parses a position text (see `docs/rules/tesseris.md`). The number of players comes from the
/// text (overriding the `Players` option); the other options come from `opts`.
pub fn parse_position(text: &str, opts: &RuleOptions) -> Result<Tesseris, String> {
    let mut tokens = text.split_whitespace();
    let kind = tokens
        .next()
        .ok_or("empty position text: expected 'obs seat=… …' or 'full …'")?;
    let obs = match kind {
        "obs" => true,
        "full" => false,
        _ => {
            return Err(format!(
                "a tesseris position starts with 'obs' (one seat's observation) or 'full' (a whole dealt state), not '{}'",
                kind
            ))
        }
    };
    let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
    for tok in tokens {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| format!("'{}' is not a key=value field", tok))?;
        const KEYS: [&str; 13] = [
            "seat", "players", "rounds", "first", "turn", "ply", "end", "score", "obj", "hands",
            "piles", "deck", "rng",
        ];
        if !KEYS.contains(&k) {
            return Err(format!(
                "unknown field '{}' (fields: {})",
                k,
                KEYS.join(", ")
            ));
        }
        if fields.insert(k, v).is_some() {
            return Err(format!("field '{}' given twice", k));
        }
    }
    let get = |k: &str| {
        fields
            .get(k)
            .copied()
            .ok_or_else(|| format!("missing field '{}='", k))
    };
    let n = parse_num("players", get("players")?, 2, 4)? as usize;
    let mut o2 = opts.clone();
    o2.set("Players", &n.to_string())?;
    let mut g = Tesseris::blank(&o2)?;
    let observer = if obs {
        parse_num("seat", get("seat")?, 1, n as i64)? as usize - 1
    } else {
        if fields.contains_key("seat") {
            return Err("a 'full' position has no seat= field (that is for 'obs')".into());
        }
        usize::MAX
    };
    g.rounds_done = parse_num("rounds", get("rounds")?, 0, 60_000)? as u16;
    g.first = parse_num("first", get("first")?, 1, n as i64)? as u8 - 1;
    g.to_move = parse_num("turn", get("turn")?, 1, n as i64)? as u8 - 1;
    g.ply = parse_num("ply", get("ply")?, 0, 1_000_000_000)? as u32;
    g.triggered = parse_num("end", get("end")?, 0, 1)? == 1;
    let scores: Vec<&str> = get("score")?.split(',').collect();
    if scores.len() != n {
        return Err(format!(
            "score= needs {} comma-separated numbers, one per seat",
            n
        ));
    }
    for (t, v) in scores.iter().enumerate() {
        g.scores[t] = parse_num("score", v, 0, 60_000)? as u16;
    }
    parse_objectives(&mut g, n, get("obj")?)?;
    parse_hands(&mut g, n, obs.then_some(observer), get("hands")?)?;
    parse_piles(&mut g, get("piles")?)?;
    parse_deck(&mut g, obs, get("deck")?, fields.get("rng").copied())?;
    check_card_counts(&g, n, obs)?;
    if obs {
        g.observer = observer as u8;
        g = g.observe(observer); // canonical order
    }
    g.status = g.game_end_status();
    g.hash = g.compute_hash();
    Ok(g)
}

/// `obj=`: each seat's four objectives (`+` when completed), all of different shapes.
fn parse_objectives(g: &mut Tesseris, n: usize, field: &str) -> Result<(), String> {
    let objs: Vec<&str> = field.split('/').collect();
    if objs.len() != n {
        return Err(format!(
            "obj= needs {} groups separated by '/', one per seat",
            n
        ));
    }
    let mut seen = 0u32;
    for (t, grp) in objs.iter().enumerate() {
        let items: Vec<&str> = grp.split(',').collect();
        if items.len() != 4 {
            return Err(format!(
                "seat {} must have 4 objectives in obj=, not {}",
                t + 1,
                items.len()
            ));
        }
        for (k, it) in items.iter().enumerate() {
            let (name, done) = match it.strip_suffix('+') {
                Some(x) => (x, true),
                None => (*it, false),
            };
            let c = parse_card(name).ok_or_else(|| format!("'{}' in obj= is not a card", name))?;
            if seen >> c & 1 == 1 {
                return Err(format!(
                    "objective {} appears twice: objectives are all different shapes",
                    name
                ));
            }
            seen |= 1 << c;
            g.obj[t][k] = c;
            if done {
                g.done[t] |= 1 << k;
            }
        }
        if g.done[t] == 15 {
            g.triggered = true;
        }
    }
    Ok(())
}

/// `hands=`: each seat's four cards, `@` and the other seats that know a card, `?` for a card
/// the observer (`Some(seat)` for an observation) does not know.
fn parse_hands(
    g: &mut Tesseris,
    n: usize,
    observer: Option<usize>,
    field: &str,
) -> Result<(), String> {
    let obs = observer.is_some();
    let observer = observer.unwrap_or(usize::MAX);
    let hands: Vec<&str> = field.split('/').collect();
    if hands.len() != n {
        return Err(format!(
            "hands= needs {} groups separated by '/', one per seat",
            n
        ));
    }
    for (t, grp) in hands.iter().enumerate() {
        let items: Vec<&str> = grp.split(',').collect();
        if items.len() != 4 {
            return Err(format!(
                "seat {} must hold 4 cards in hands=, not {}",
                t + 1,
                items.len()
            ));
        }
        for (i, it) in items.iter().enumerate() {
            let (it, kept) = match it.rsplit_once('!') {
                Some((x, "")) => (x, 1),
                Some((x, k)) => match k.parse::<u8>() {
                    Ok(v) if (1..=super::KEPT_MAX).contains(&v) && k.len() == 1 => (x, v),
                    _ => {
                        return Err(format!(
                            "'{}': after '!' (kept through its owner's last turns) comes nothing or the number of turns, 1 to {}",
                            it,
                            super::KEPT_MAX
                        ))
                    }
                },
                None => (*it, 0),
            };
            let held = kept > 0;
            g.kept[t][i] = kept;
            let (name, who) = match it.split_once('@') {
                Some((a, b)) => (a, Some(b)),
                None => (it, None),
            };
            if held && obs && name != "?" {
                return Err(format!(
                    "'{}!': in an observation, '!' (held since its owner's last turn) is only written on unknown cards '?'",
                    it
                ));
            }
            if name == "?" {
                if !obs || t == observer {
                    return Err(format!(
                        "'?' in hands= for seat {}: only other seats' cards may be unknown, in an observation",
                        t + 1
                    ));
                }
                if who.is_some() {
                    return Err("an unknown card '?' cannot carry '@'".into());
                }
                g.hand[t][i] = UNKNOWN;
                g.mask[t][i] = 1 << t;
                continue;
            }
            let c = parse_card(name)
                .ok_or_else(|| format!("'{}' in hands= is not a card or '?'", name))?;
            let mut m = 1u8 << t;
            if obs && t != observer {
                if who.is_some() {
                    return Err(format!(
                        "'{}': in an observation, '@' is only written on the observer's own cards",
                        it
                    ));
                }
                m |= 1 << observer;
            } else if let Some(w) = who {
                for ch in w.bytes() {
                    let x = (ch as i64) - (b'1' as i64);
                    if !(0..n as i64).contains(&x) || x as usize == t {
                        return Err(format!(
                            "'{}': after '@' come the other seats (1..{}) that know the card",
                            it, n
                        ));
                    }
                    m |= 1 << x;
                }
            }
            g.hand[t][i] = c;
            g.mask[t][i] = m;
        }
    }
    Ok(())
}

/// `piles=`: the four discard piles, bottom to top.
fn parse_piles(g: &mut Tesseris, field: &str) -> Result<(), String> {
    let piles: Vec<&str> = field.split('/').collect();
    if piles.len() != 4 {
        return Err("piles= needs 4 piles separated by '/' (each bottom to top, cards joined by '.', '-' if empty)".into());
    }
    for (p, grp) in piles.iter().enumerate() {
        let cards = parse_cards("piles", grp, '.')?;
        if cards.len() > PILE_CAP {
            return Err(format!("pile p{} has too many cards", p + 1));
        }
        for (pos, &c) in cards.iter().enumerate() {
            g.pile[p][pos] = c;
        }
        g.pile_len[p] = cards.len() as u8;
    }
    Ok(())
}

/// `deck=`: the deck order and `rng=` the state's random stream in a full state; only the deck's
/// size in an observation.
fn parse_deck(g: &mut Tesseris, obs: bool, deck: &str, rng: Option<&str>) -> Result<(), String> {
    if obs {
        g.deck_len = parse_num("deck", deck, 0, DECK_CAP as i64)? as u8;
        for pos in 0..g.deck_len as usize {
            g.deck[pos] = UNKNOWN;
        }
        if rng.is_some() {
            return Err("an observation has no rng= field (the random stream is hidden)".into());
        }
    } else {
        let cards = parse_cards("deck", deck, '.')?;
        if cards.len() > DECK_CAP {
            return Err("deck= has too many cards".into());
        }
        for (pos, &c) in cards.iter().enumerate() {
            g.deck[pos] = c;
        }
        g.deck_len = cards.len() as u8;
        let r = rng.ok_or("missing field 'rng='")?;
        g.rng = u64::from_str_radix(r, 16)
            .map_err(|_| format!("rng= takes a hexadecimal number, not '{}'", r))?;
    }
    Ok(())
}

/// Every card accounted for: exactly four of each shape in play (at most four, the rest unknown,
/// in an observation).
fn check_card_counts(g: &Tesseris, n: usize, obs: bool) -> Result<(), String> {
    let mut count = [0i32; 19];
    let all: Vec<u8> = (0..n)
        .flat_map(|t| {
            let mut v = Vec::new();
            for k in 0..4 {
                v.push(g.obj[t][k]);
                if g.done[t] >> k & 1 == 1 {
                    v.push(g.obj[t][k]);
                }
                v.push(g.hand[t][k]);
            }
            v
        })
        .chain((0..4).flat_map(|p| g.pile(p).to_vec()))
        .chain(g.deck().to_vec())
        .collect();
    for &c in &all {
        if c != UNKNOWN && c >= g.shapes {
            return Err(format!(
                "{} is not in play: the squares (C1..C6) are only used with 3-4 players or FullDeck",
                card_name(c)
            ));
        }
        count[c as usize] += 1;
    }
    for c in 0..g.shapes as usize {
        if count[c] > 4 || (!obs && count[c] != 4) {
            return Err(format!(
                "there are exactly 4 cards of each shape: {} appears {} times",
                card_name(c as u8),
                count[c]
            ));
        }
    }
    if obs {
        let pool: i32 = (0..g.shapes as usize).map(|c| 4 - count[c]).sum();
        if pool != count[UNKNOWN as usize] {
            return Err(format!(
                "the unknown cards do not add up: {} cards are not visible but there are {} unknown places (other hands' '?' plus deck={})",
                pool, count[UNKNOWN as usize], g.deck_len
            ));
        }
    }
    Ok(())
}

pub fn display(g: &Tesseris) -> String {
    let n = g.n as usize;
    let mut s = String::new();
    let view = match g.observer() {
        Some(o) => format!("seat {}'s observation", o + 1),
        None => "full state".into(),
    };
    let _ =
        writeln!(
        s,
        "Tesseris ({}), {} players, {} cards, round {} (seat {} first), seat {} to move, ply {}{}",
        view,
        n,
        g.shapes as usize * 4,
        g.rounds_done + 1,
        g.first + 1,
        g.to_move + 1,
        g.ply,
        if g.triggered { ", round end triggered" } else { "" }
    );
    for t in 0..n {
        let objs: Vec<String> = (0..4)
            .map(|k| {
                format!(
                    "{}{}",
                    card_name(g.obj[t][k]),
                    if g.done[t] >> k & 1 == 1 { "+" } else { "" }
                )
            })
            .collect();
        let hand: Vec<String> = (0..4)
            .map(|i| {
                let c = g.hand[t][i];
                let d = seat_digits(g.mask[t][i], t, n);
                let mut v = if c == UNKNOWN || d.is_empty() {
                    card_name(c)
                } else {
                    format!("{}(seen by {})", card_name(c), d)
                };
                // Kept through its owner's last turns, which completed nothing (`!`, `!k`).
                match g.kept[t][i] {
                    0 => {}
                    1 => v.push_str("(kept)"),
                    k => v.push_str(&format!("(kept {} turns)", k)),
                }
                v
            })
            .collect();
        let _ = writeln!(
            s,
            "seat {}: score {:3}  objectives {}  hand {}",
            t + 1,
            g.scores[t],
            objs.join(" "),
            hand.join(" ")
        );
    }
    for p in 0..4 {
        let cards: Vec<String> = g.pile(p).iter().map(|&c| card_name(c)).collect();
        let _ = writeln!(
            s,
            "p{}: {}",
            p + 1,
            if cards.is_empty() {
                "(empty)".into()
            } else {
                format!("{}  <- top", cards.join(" "))
            }
        );
    }
    if g.observer().is_some() {
        let pool = g.unknown_pool();
        let unseen: Vec<String> = (0..18u8)
            .filter(|&c| pool[c as usize] > 0)
            .map(|c| format!("{}x{}", card_name(c), pool[c as usize]))
            .collect();
        let _ = write!(
            s,
            "deck: {} cards; unseen cards: {}",
            g.deck_len,
            unseen.join(" ")
        );
    } else {
        let cards: Vec<String> = g.deck().iter().rev().map(|&c| card_name(c)).collect();
        let _ = write!(
            s,
            "deck ({} cards, top first): {}",
            g.deck_len,
            cards.join(" ")
        );
    }
    if let crate::game::Status::Over(o) = g.status {
        let r: Vec<String> = o.rewards[..n].iter().map(|x| format!("{:.2}", x)).collect();
        let _ = write!(s, "\ngame over ({}): rewards {}", o.reason, r.join(" "));
    }
    s
}
