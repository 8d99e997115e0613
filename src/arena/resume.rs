//! `quatre match --resume`: the games an `--out` file already holds are kept, so that a match
//! stopped or killed part-way is finished by running its command again (docs/arena.md,
//! "Resuming a match").

use super::records::Records;
use super::referee::{initial_state, GameRecord};
use super::Plan;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;

/// What a game file gives the match it resumes.
#[derive(Default)]
pub(super) struct Kept {
    /// The games kept (every game of the file that got under way), in game order.
    pub records: Vec<GameRecord>,
    /// Games recorded as not started (an engine failed to start): played again.
    pub replayed: usize,
    /// Whether the file's last line was cut short (the match was killed as it wrote it) and
    /// dropped: its game is played again.
    pub cut: bool,
    /// Whether the file existed (else the match starts).
    pub found: bool,
}

/// A game file's lines, each with its number from 1, and whether its last line was cut short.
type Lines = (Vec<(usize, String)>, bool);

/// The lines of a game file with their numbers (from 1), blank lines left out, and whether the
/// last one is cut short (no line break after it and not a whole record). None when the file
/// does not exist: a match to start.
fn lines(path: &Path) -> Result<Option<Lines>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {}", path.display(), e)),
    };
    // Read as bytes: a line cut short may end inside a character of a name or a reason (`±`),
    // and is dropped, not a reason to refuse the whole file.
    let whole = bytes.ends_with(b"\n");
    let mut parts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if whole {
        // The empty piece after the last line break.
        parts.pop();
    }
    let last = parts.len();
    let mut out = Vec::new();
    let mut cut = false;
    for (i, part) in parts.into_iter().enumerate() {
        let part = part.strip_suffix(b"\r").unwrap_or(part);
        // A record is written with its line break in one write and flushed: a last line
        // without one is a write the match did not finish, unless it reads as a whole record.
        let unfinished = !whole && i + 1 == last;
        let text = match std::str::from_utf8(part) {
            Ok(t) => t,
            Err(_) if unfinished => {
                cut = true;
                continue;
            }
            Err(e) => {
                return Err(format!(
                    "--resume: {}:{}: not text (UTF-8): {}",
                    path.display(),
                    i + 1,
                    e
                ))
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        if unfinished && serde_json::from_str::<serde_json::Value>(text).is_err() {
            cut = true;
            continue;
        }
        out.push((i + 1, text.to_string()));
    }
    Ok(Some((out, cut)))
}

/// The seed the file's first record names: the seed of a match resumed without `--seed`.
pub(super) fn file_seed(path: &Path) -> Result<Option<u64>, String> {
    let Some((lines, _)) = lines(path)? else {
        return Ok(None);
    };
    let Some((n, first)) = lines.first() else {
        return Ok(None);
    };
    // Only the seed is read here: the records are checked with the match they resume.
    let rec: GameRecord = serde_json::from_str(first).map_err(|e| {
        format!(
            "--resume: {}:{}: not a game record of quatre match --out: {}",
            path.display(),
            n,
            e
        )
    })?;
    Ok(rec.seed)
}

/// A value as the game file writes it (JSON), for error messages.
fn shown<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The first field in which a recorded game differs from the one this match would play as
/// that game: its name, the file's value and the match's.
fn differs(rec: &GameRecord, want: &GameRecord) -> Option<(&'static str, String, String)> {
    let fields = [
        ("seed", shown(&rec.seed), shown(&want.seed)),
        ("game_name", shown(&rec.game_name), shown(&want.game_name)),
        ("options", shown(&rec.options), shown(&want.options)),
        ("planned", shown(&rec.planned), shown(&want.planned)),
        ("shard", shown(&rec.shard), shown(&want.shard)),
        ("engines", shown(&rec.engines), shown(&want.engines)),
        ("seats", shown(&rec.seats), shown(&want.seats)),
        ("group", shown(&rec.group), shown(&want.group)),
        ("tc", shown(&rec.tc), shown(&want.tc)),
        ("deal_seed", shown(&rec.deal_seed), shown(&want.deal_seed)),
        ("opening", shown(&rec.opening), shown(&want.opening)),
        ("start", shown(&rec.start), shown(&want.start)),
    ];
    fields.into_iter().find(|(_, a, b)| a != b)
}

/// The games of `path` that this match keeps: each must be the game this match plays under its
/// number (same seed, game and options, games planned and shard, engines and their names at
/// each seat, limits, deal, opening and start position); a game recorded twice is an error. A
/// file that does not exist keeps nothing. A game with a seat whose engine does not know the
/// game (a chess engine) is played and recorded under the rules such an engine reads
/// ([`GameDef::for_foreign_engines`](super::referee::GameDef::for_foreign_engines)): those options are this match's too.
pub(super) fn kept(plan: &Plan, path: &Path) -> Result<Kept, String> {
    let Some((lines, cut)) = lines(path)? else {
        return Ok(Kept::default());
    };
    let place = |n: usize| format!("--resume: {}:{}", path.display(), n);
    let ours: BTreeSet<usize> = plan.indices.iter().copied().collect();
    let mut seen = BTreeSet::new();
    let foreign = plan.def.for_foreign_engines().map(|(d, _)| d);
    let mut parser = Records::knowing(&plan.def.name, plan.def.options_map(), plan.players);
    let mut kept = Kept {
        cut,
        found: true,
        ..Kept::default()
    };
    for (n, line) in lines {
        let rec = parser
            .parse(&line)
            .map_err(|e| format!("{}: {}", place(n), e))?;
        let number = rec.game + 1;
        if !ours.contains(&rec.game) {
            return Err(format!(
                "{}: game {} is not one this match plays (it plays {} games{})",
                place(n),
                number,
                plan.planned,
                match plan.heading.shard {
                    Some((i, k)) => format!(", of which shard {}/{} plays {}", i, k, ours.len()),
                    None => String::new(),
                }
            ));
        }
        if !seen.insert(rec.game) {
            return Err(format!("{}: game {} is recorded twice", place(n), number));
        }
        let job = plan.job(rec.game)?;
        let def = match &foreign {
            Some(d) if rec.options == d.options_map() => d,
            _ => &plan.def,
        };
        let (_, start) = initial_state(def, &job)?;
        let mut want = GameRecord::new(def, &plan.engines, &job, &plan.cfg, start);
        want.planned = Some(plan.planned);
        want.shard = plan.heading.shard.map(|(i, k)| [i, k]);
        if let Some((field, file, here)) = differs(&rec, &want) {
            return Err(format!(
                "{}: game {} is not this match's: its '{}' is {}, this match's {} (resume with the command that started the file)",
                place(n),
                number,
                field,
                file,
                here
            ));
        }
        if rec.started {
            kept.records.push(rec);
        } else {
            kept.replayed += 1;
        }
    }
    kept.records.sort_by_key(|r| r.game);
    Ok(kept)
}

/// The line saying what a resumed file gave: `resuming FILE: 177 games kept, 423 to play`.
pub(super) fn notice(path: &Path, kept: &Kept, to_play: usize) -> String {
    if !kept.found {
        return format!(
            "resuming {}: no such file yet, so the match starts ({} games to play)",
            path.display(),
            to_play
        );
    }
    let games = |n: usize| format!("{} game{}", n, if n == 1 { "" } else { "s" });
    let mut s = format!(
        "resuming {}: {} kept, {} to play",
        path.display(),
        games(kept.records.len()),
        to_play
    );
    if kept.replayed > 0 {
        s += &format!(
            " ({} recorded as not started {} played again)",
            kept.replayed,
            if kept.replayed == 1 { "is" } else { "are" }
        );
    }
    if kept.cut {
        s += "; its last line was cut short (the match was stopped as it wrote it): dropped, that game is played again";
    }
    s
}
