//! Game files read back: `quatre stats` recomputes a match's table from one or more `--out`
//! files (the shards of one match merge into the unsharded result), and `quatre replay` prints a
//! recorded game move by move with its diagrams.

use super::referee::{GameDef, GameRecord};
use super::stats::{self, Sprt, Verdict};
use super::table::{summary, Heading, Tally};
use crate::games;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every record of a game file, in file order. A line that is not a game record is an error
/// naming the file and line; blank lines are skipped.
pub fn read(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec: GameRecord = serde_json::from_str(line).map_err(|e| {
            format!(
                "{}:{}: not a game record of quatre match --out: {}",
                path.display(),
                i + 1,
                e
            )
        })?;
        out.push(rec);
    }
    Ok(out)
}

/// The records of several files of one match, in game order: they must be of one game with the
/// same options and engines, and no game may appear twice (shards are disjoint).
pub fn merge(paths: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    let mut by_game: BTreeMap<usize, (GameRecord, &Path)> = BTreeMap::new();
    for p in paths {
        for rec in read(p)? {
            if let Some((first, _)) = by_game.values().next() {
                if rec.game_name != first.game_name || rec.options != first.options {
                    return Err(format!(
                        "{}: game {} is {} with other options than the files before it: not one match",
                        p.display(),
                        rec.game + 1,
                        rec.game_name
                    ));
                }
                if rec.seed != first.seed {
                    return Err(format!(
                        "{}: game {} was played with seed {:?}, the files before it with {:?}: not one match",
                        p.display(),
                        rec.game + 1,
                        rec.seed,
                        first.seed
                    ));
                }
            }
            if let Some((_, other)) = by_game.get(&rec.game) {
                return Err(format!(
                    "game {} appears twice ({} and {}): give each shard's file once",
                    rec.game + 1,
                    other.display(),
                    p.display()
                ));
            }
            by_game.insert(rec.game, (rec, p));
        }
    }
    if by_game.is_empty() {
        return Err("no games in the given files".into());
    }
    Ok(by_game.into_values().map(|(r, _)| r).collect())
}

/// The engines' names by engine index, from the records (each record names the engine at each
/// seat); an index named differently in two records is an error.
fn engine_names(records: &[GameRecord]) -> Result<Vec<String>, String> {
    let mut names: Vec<Option<String>> = Vec::new();
    for r in records {
        for (&e, name) in r.engines.iter().zip(&r.seats) {
            if names.len() <= e {
                names.resize(e + 1, None);
            }
            match &names[e] {
                Some(n) if n != name => {
                    return Err(format!(
                        "engine {} is '{}' in one game and '{}' in game {}: not one match",
                        e + 1,
                        n,
                        name,
                        r.game + 1
                    ))
                }
                _ => names[e] = Some(name.clone()),
            }
        }
    }
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| n.ok_or_else(|| format!("engine {} plays in none of the games", i + 1)))
        .collect()
}

/// `quatre stats`: the table of the games in `paths` (one match, possibly in shards), with an
/// SPRT when `sprt` is given.
pub fn stats(paths: &[PathBuf], sprt: Option<&str>) -> Result<String, String> {
    let records = merge(paths)?;
    let engines = engine_names(&records)?;
    let first = &records[0];
    let players = first.seats.len();
    if records.iter().any(|r| r.seats.len() != players) {
        return Err("the games do not all have the same number of seats: not one match".into());
    }
    let sprt = sprt.map(Sprt::parse).transpose()?;
    let mut tally = Tally::new(players, engines.len());
    for r in &records {
        tally.add(r);
    }
    let llr = sprt.map(|sp| sp.llr(&tally.group_bins, players));
    let verdict: Option<Verdict> = match (sprt, llr) {
        (Some(sp), Some(l)) => sp.verdict(l),
        _ => None,
    };
    let ratings = (players > 2 || engines.len() > players).then(|| {
        stats::weng_lin(
            engines.len(),
            records.iter().map(|r| (&r.engines[..], &r.result[..])),
        )
    });
    let heading = Heading {
        title: "Games",
        game: first.game_name.clone(),
        options: first
            .options
            .iter()
            .map(|(k, v)| format!("{}={}", k, v))
            .collect(),
        engines,
        players,
        games: records.len(),
        shard: None,
        limits: first.tc.clone(),
        opening: {
            let lens = records.iter().map(|r| r.opening.len());
            let (lo, hi) = (lens.clone().min().unwrap_or(0), lens.max().unwrap_or(0));
            if lo == hi {
                format!("opening {} plies", lo)
            } else {
                format!("openings of {} to {} plies", lo, hi)
            }
        },
        seed: first.seed,
        sprt,
    };
    Ok(summary(
        &heading,
        &tally,
        llr,
        verdict,
        ratings.as_deref(),
        Duration::ZERO,
    ))
}

/// `quatre replay`: game `number` (1-based; the first when None) of a game file, move by move,
/// each position as the protocol's `d` diagram, replayed through the rules (a move the rules
/// refuse is reported where it occurs).
///
/// With `svg_dir`, also writes the picture of every position there: `ply-000.svg` (the start),
/// `ply-001.svg`… each with its move highlighted.
pub fn replay(
    path: &Path,
    number: Option<usize>,
    svg_dir: Option<&Path>,
) -> Result<String, String> {
    let records = read(path)?;
    let rec = match number {
        None => records.first(),
        Some(n) => records.iter().find(|r| r.game + 1 == n),
    }
    .ok_or_else(|| match number {
        Some(n) => format!(
            "{} has no game {} (its games: {})",
            path.display(),
            n,
            game_list(&records)
        ),
        None => format!("{} has no games", path.display()),
    })?;
    let mut def = GameDef::from_entry(games::resolve(Some(&rec.game_name))?);
    for (k, v) in &rec.options {
        def.set_option(k, v)
            .map_err(|e| format!("game {}: option {}={}: {}", rec.game + 1, k, v, e))?;
    }
    let mut state = def.from_text(&rec.start).map_err(|e| {
        format!(
            "game {}: the start position does not load: {}",
            rec.game + 1,
            e
        )
    })?;
    let mut out = format!(
        "Game {} of {}: {} — {}\n",
        rec.game + 1,
        path.display(),
        rec.game_name,
        rec.seats
            .iter()
            .enumerate()
            .map(|(i, s)| format!("p{} {}", i + 1, s))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out += &format!("Limits: {}\n\n{}\n", rec.tc, state.display());
    let picture =
        |state: &dyn crate::games::AnyGame, ply: usize, cells: Vec<String>| -> Result<(), String> {
            let Some(dir) = svg_dir else { return Ok(()) };
            let file = dir.join(format!("ply-{:03}.svg", ply));
            let svg = state.svg(&crate::render::DrawOptions {
                highlight: cells,
                ..Default::default()
            });
            std::fs::write(&file, svg)
                .map_err(|e| format!("cannot write {}: {}", file.display(), e))
        };
    if let Some(dir) = svg_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {}", dir.display(), e))?;
    }
    picture(state.as_ref(), 0, Vec::new())?;
    let moves = rec.opening.iter().map(|m| (m, "opening", None)).chain(
        rec.moves
            .iter()
            .enumerate()
            .map(|(i, m)| (m, "", rec.times_ms.get(i).copied())),
    );
    for (ply, (mv, kind, ms)) in moves.enumerate() {
        let seat = state.to_move();
        let who = if kind.is_empty() {
            rec.seats.get(seat).cloned().unwrap_or_default()
        } else {
            kind.to_string()
        };
        let time = ms.map(|t| format!(", {} ms", t)).unwrap_or_default();
        out += &format!("{}. p{} {} ({}{})\n", ply + 1, seat + 1, mv, who, time);
        let cells = state.move_cells(mv).unwrap_or_default();
        if let Err(e) = state.play_text(mv) {
            out += &format!("   refused by the rules: {}\n", e);
            break;
        }
        out += &format!("{}\n", state.display());
        picture(state.as_ref(), ply + 1, cells)?;
    }
    let result: Vec<String> = rec.result.iter().map(|r| format!("{}", r)).collect();
    out += &format!(
        "Result: {} ({}: {})\n",
        result.join(" / "),
        rec.termination,
        rec.reason
    );
    Ok(out)
}

fn game_list(records: &[GameRecord]) -> String {
    match (records.first(), records.last()) {
        (Some(a), Some(b)) if records.len() > 1 => {
            format!(
                "{} games, numbered {} to {}",
                records.len(),
                a.game + 1,
                b.game + 1
            )
        }
        (Some(a), _) => format!("game {}", a.game + 1),
        _ => "none".into(),
    }
}
