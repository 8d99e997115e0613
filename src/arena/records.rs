//! Game files read back: `quatre stats` recomputes a match's table from one or more `--out`
//! files (the shards of one match merge into the unsharded result), and `quatre replay` prints a
//! recorded game move by move with its diagrams.

use super::referee::{termination, GameDef, GameRecord, RECORD_FORMAT};
use super::stats::{self, Sprt, Verdict};
use super::table::{summary_counting, Heading, Tally};
use crate::games;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most engines a game file's match may have beyond those it seats (a shard of a
/// round-robin may seat a few of many): far above any tournament played.
const MAX_ENGINES: usize = 1000;

/// The most games a record may say its match has (its game number, `planned`, a shard count):
/// far above any match played, and a bound on anything sized by them.
pub const MAX_GAMES: usize = 10_000_000;

/// How far a record's rewards may sum from 1: three-way shares written as `0.33333334` sum to
/// 1.0000001.
const RESULT_SUM_TOLERANCE: f32 = 1e-3;

/// The kinds of ending the referee records in `termination`.
const TERMINATIONS: [&str; 6] = [
    termination::RULES,
    termination::ILLEGAL,
    termination::TIME,
    termination::NO_ANSWER,
    termination::CRASH,
    termination::ADJUDICATION,
];

/// Every record of a game file, in file order, each checked ([`Records::parse`]). A line that
/// is not a game record is an error naming the file and line; blank lines are skipped.
pub fn read(path: &Path) -> Result<Vec<GameRecord>, String> {
    Ok(read_lines(path)?.into_iter().map(|(_, r)| r).collect())
}

/// Every record of a game file with its line number (from 1), as [`read`].
fn read_lines(path: &Path) -> Result<Vec<(usize, GameRecord)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let mut out = Vec::new();
    let mut parser = Records::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec = parser
            .parse(line)
            .map_err(|e| format!("{}:{}: {}", path.display(), i + 1, e))?;
        out.push((i + 1, rec));
    }
    Ok(out)
}

/// Reads the lines of game files as records, checking each: a record is refused (one line
/// saying why, without the place, which the caller adds) unless its format is one this build
/// reads, its game is known and takes its rule options, its seats, engines and result have one
/// entry per seat of that game, its engines are distinct, each reward is from 0 to 1 and they sum
/// to 1, its termination is one of the referee's kinds, its offender is one of its seats, its
/// game number, planned games and shard are within [`MAX_GAMES`] and agree, and its group is at
/// most its game number and one of its shard's.
#[derive(Default)]
pub struct Records {
    /// The seat count of each game and options met so far (a file holds one or two).
    seats: Vec<(String, BTreeMap<String, String>, usize)>,
}

impl Records {
    /// A reader that knows the seat count of `game` with `options` already: a match's own game,
    /// which need not be one of the registry's (a game embedded in a test or a program).
    pub fn knowing(game: &str, options: BTreeMap<String, String>, players: usize) -> Records {
        Records {
            seats: vec![(game.to_string(), options, players)],
        }
    }

    /// One line of a game file as a checked record.
    pub fn parse(&mut self, line: &str) -> Result<GameRecord, String> {
        let mut rec: GameRecord = serde_json::from_str(line)
            .map_err(|e| format!("not a game record of quatre match --out: {}", e))?;
        if rec.format < 3 {
            rec.started = !ended_at_the_start(&rec);
        }
        self.check(&rec)
            .map_err(|e| format!("not a valid game record: {}", one_line(&e)))?;
        Ok(rec)
    }

    fn check(&mut self, r: &GameRecord) -> Result<(), String> {
        let number = r.game.saturating_add(1);
        if r.format == 0 || r.format > RECORD_FORMAT {
            return Err(format!(
                "'format' is {}, not a format from 1 to {} (this build's): written by another quatre",
                r.format, RECORD_FORMAT
            ));
        }
        if r.game >= MAX_GAMES {
            return Err(format!(
                "game {} is past the {} games a match may have",
                number, MAX_GAMES
            ));
        }
        // A group holds consecutive games, numbered from 0: none starts after its games.
        if r.group > r.game {
            return Err(format!(
                "'group' is {}, past game {}'s (a game's group is at most its number from 0)",
                r.group, number
            ));
        }
        if let Some(p) = r.planned {
            if p == 0 || p > MAX_GAMES {
                return Err(format!(
                    "'planned' is {}, not a number of games from 1 to {}",
                    p, MAX_GAMES
                ));
            }
            if r.game >= p {
                return Err(format!("game {} of a match of {} games", number, p));
            }
        }
        if let Some([i, n]) = r.shard {
            if n == 0 || n > MAX_GAMES || i == 0 || i > n {
                return Err(format!(
                    "'shard' is [{}, {}], not a shard I/N with 1 <= I <= N <= {}",
                    i, n, MAX_GAMES
                ));
            }
            if r.group % n != i - 1 {
                return Err(format!(
                    "'group' is {}, not one of shard {}/{} (whose groups g have g mod {} = {})",
                    r.group,
                    i,
                    n,
                    n,
                    i - 1
                ));
            }
        }
        let players = self.players(r)?;
        let (s, e, res) = (r.seats.len(), r.engines.len(), r.result.len());
        if s != players || e != players || res != players {
            return Err(format!(
                "its seats, engines and result have {}, {} and {} entries, but {} with its options has {} seats",
                s, e, res, r.game_name, players
            ));
        }
        for (k, &a) in r.engines.iter().enumerate() {
            if r.engines[..k].contains(&a) {
                return Err(format!("engine {} plays two seats", a.saturating_add(1)));
            }
        }
        if let Some(x) = r.result.iter().find(|x| !(0.0..=1.0).contains(*x)) {
            return Err(format!(
                "the result {:?} has {}, not a reward from 0 to 1",
                r.result, x
            ));
        }
        let sum: f32 = r.result.iter().sum();
        if (sum - 1.0).abs() > RESULT_SUM_TOLERANCE {
            return Err(format!(
                "'result' is {:?}, summing to {}, not 1 (the seats share a game's point)",
                r.result, sum
            ));
        }
        if !TERMINATIONS.contains(&r.termination.as_str()) {
            return Err(format!(
                "'termination' is '{}', not one of {}",
                r.termination,
                TERMINATIONS.join(", ")
            ));
        }
        if let Some(o) = r.offender.filter(|&o| o >= players) {
            return Err(format!(
                "the offender is seat {} of its {} seats",
                o.saturating_add(1),
                players
            ));
        }
        Ok(())
    }

    /// The seat count of the record's game with its rule options.
    fn players(&mut self, r: &GameRecord) -> Result<usize, String> {
        if let Some(&(_, _, n)) = self
            .seats
            .iter()
            .find(|(g, o, _)| *g == r.game_name && *o == r.options)
        {
            return Ok(n);
        }
        let entry = games::resolve(Some(&r.game_name))?;
        let mut def = GameDef::from_entry(entry);
        for (k, v) in &r.options {
            def.set_option(k, v)
                .map_err(|e| format!("option {}={}: {}", k, v, e))?;
        }
        let n = def
            .start(None)
            .map_err(|e| format!("{} with its options does not start: {}", r.game_name, e))?
            .players();
        self.seats.push((r.game_name.clone(), r.options.clone(), n));
        Ok(n)
    }
}

/// `s` on one line (a record's strings may hold line breaks), cut to 300 characters.
fn one_line(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    crate::truncate_to(&flat, 300)
}

/// Whether a record written before format 3 (which has no `started`) is of a game that never got
/// under way: lost by a crash or no answer at the start, before any move (the referee's reason
/// then says "at the start").
fn ended_at_the_start(rec: &GameRecord) -> bool {
    use termination::{CRASH, NO_ANSWER};
    rec.moves.is_empty()
        && rec.offender.is_some()
        && (rec.termination == CRASH || rec.termination == NO_ANSWER)
        && rec.reason.contains(" at the start")
}

/// The records of several files of one match, in game order: they must be of one game with the
/// same options and engines, and no game may appear twice (shards are disjoint).
pub fn merge(paths: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    Ok(merge_placed(paths)?.into_iter().map(|p| p.rec).collect())
}

/// A record with its place: file and line.
struct Placed<'a> {
    rec: GameRecord,
    path: &'a Path,
    line: usize,
}

impl Placed<'_> {
    fn place(&self) -> String {
        format!("{}:{}", self.path.display(), self.line)
    }
}

/// [`merge`], each record with its place.
fn merge_placed(paths: &[PathBuf]) -> Result<Vec<Placed<'_>>, String> {
    let mut by_game: BTreeMap<usize, Placed> = BTreeMap::new();
    // Each engine's limits, from the first record that seats it.
    let mut limits: BTreeMap<usize, String> = BTreeMap::new();
    for p in paths {
        for (line, rec) in read_lines(p)? {
            if let Some(e) = other_limits(&rec, &mut limits) {
                return Err(format!("{}: {}: not one match", p.display(), e));
            }
            if let Some(Placed { rec: first, .. }) = by_game.values().next() {
                if rec.game_name != first.game_name || rec.options != first.options {
                    return Err(format!(
                        "{}: game {} is {} with other options than the files before it: not one match",
                        p.display(),
                        rec.game + 1,
                        rec.game_name
                    ));
                }
                if rec.planned.is_some() && first.planned.is_some() && rec.planned != first.planned
                {
                    return Err(format!(
                        "{}: game {} is one of {} games, the files before it of {}: not one match",
                        p.display(),
                        rec.game + 1,
                        rec.planned.unwrap_or(0),
                        first.planned.unwrap_or(0)
                    ));
                }
                if rec.seed != first.seed {
                    let seed = |s: Option<u64>| s.map_or("none".to_string(), |s| s.to_string());
                    return Err(format!(
                        "{}: game {} was played with seed {}, the files before it with {}: not one match",
                        p.display(),
                        rec.game + 1,
                        seed(rec.seed),
                        seed(first.seed)
                    ));
                }
            }
            if let Some(other) = by_game.get(&rec.game) {
                return Err(format!(
                    "game {} appears twice ({} and {}): give each shard's file once",
                    rec.game + 1,
                    other.path.display(),
                    p.display()
                ));
            }
            by_game.insert(rec.game, Placed { rec, path: p, line });
        }
    }
    if by_game.is_empty() {
        return Err("no games in the given files".into());
    }
    Ok(by_game.into_values().collect())
}

/// How a match seats its engines (as `quatre match` plans it): `pairings` sets of engines fill
/// the seats — one when `engines` equals the seats, else every set (round-robin) or engine 1 with
/// every set of the others (gauntlet), in lexicographic order — each playing `per_pairing`
/// consecutive games in rotation groups of `players` games, seats rotated.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    engines: usize,
    players: usize,
    gauntlet: bool,
    pairings: usize,
    per_pairing: usize,
}

impl Layout {
    /// The rotation groups of the match, numbered from 0 without a gap.
    fn groups(&self) -> usize {
        self.pairings * self.per_pairing.div_ceil(self.players)
    }

    /// The field of `r` this layout would have written otherwise ("engines" or "group"), if any.
    fn misfit(&self, r: &GameRecord) -> Option<&'static str> {
        let n = self.players;
        let (p, k) = (r.game / self.per_pairing, r.game % self.per_pairing);
        let mut pairing = r.engines.clone();
        pairing.sort_unstable();
        let rank = if self.gauntlet {
            if pairing.first() != Some(&0) {
                return Some("engines");
            }
            let rest: Vec<usize> = pairing[1..].iter().map(|e| e - 1).collect();
            lex_rank(&rest, self.engines - 1)
        } else {
            lex_rank(&pairing, self.engines)
        };
        // The pairing's engine j sits at seat (j + rot) % n.
        let rot = k % n;
        if rank != Some(p) || (0..n).any(|s| r.engines[s] != pairing[(s + n - rot) % n]) {
            return Some("engines");
        }
        if r.group != p * self.per_pairing.div_ceil(n) + k / n {
            return Some("group");
        }
        None
    }
}

/// `n` choose `k`, saturated at `u128::MAX`.
fn binom(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let mut c: u128 = 1;
    for i in 0..k.min(n - k) {
        match c.checked_mul((n - i) as u128) {
            Some(x) => c = x / (i as u128 + 1),
            None => return u128::MAX,
        }
    }
    c
}

/// The position of the ascending `set` among the sets of its size drawn from `0..universe`, in
/// lexicographic order; None when it is not such a set.
fn lex_rank(set: &[usize], universe: usize) -> Option<usize> {
    let (mut rank, mut next) = (0u128, 0);
    for (i, &c) in set.iter().enumerate() {
        if c >= universe || c < next {
            return None;
        }
        for x in next..c {
            rank = rank.saturating_add(binom(universe - 1 - x, set.len() - 1 - i));
        }
        next = c + 1;
    }
    usize::try_from(rank).ok()
}

/// The smallest `n >= lo` with `n` choose `k` = `d`, if any (`d` at most [`MAX_GAMES`]).
fn binom_inverse(d: usize, k: usize, lo: usize) -> Option<usize> {
    match k {
        0 => (d == 1).then_some(lo),
        1 => (d >= lo).then_some(d),
        _ => {
            let mut n = lo.max(k);
            while binom(n, k) < d as u128 {
                n += 1;
            }
            (binom(n, k) == d as u128).then_some(n)
        }
    }
}

/// The layouts of a match of `planned` games on `players` seats with at least `engines` engines
/// (a file may lack the games of some), fewest pairings first.
fn layouts(engines: usize, players: usize, planned: usize) -> Vec<Layout> {
    let mut divisors: Vec<usize> = (1..)
        .take_while(|i| i * i <= planned)
        .filter(|i| planned.is_multiple_of(*i))
        .flat_map(|i| [i, planned / i])
        .collect();
    divisors.sort_unstable();
    divisors.dedup();
    let lo = engines.max(players);
    let mut out = Vec::new();
    for d in divisors {
        let per_pairing = planned / d;
        let layout = |engines, gauntlet| Layout {
            engines,
            players,
            gauntlet,
            pairings: d,
            per_pairing,
        };
        if let Some(e) = binom_inverse(d, players, lo) {
            out.push(layout(e, false));
        }
        // A gauntlet of as many engines as seats is the one pairing above.
        if let Some(e) = binom_inverse(d, players - 1, lo - 1).map(|e| e + 1) {
            if e > players {
                out.push(layout(e, true));
            }
        }
    }
    out
}

/// The layout of the match whose games are `placed` (when they carry its planned game count):
/// the first under which every record's engines, seats and group are the ones `quatre match`
/// gives its game. None a record does not fit is an error naming it and the field; an engine
/// index past the others' would otherwise make a two-engine match a round-robin.
fn layout(placed: &[Placed], engines: usize) -> Result<Option<Layout>, String> {
    let players = placed[0].rec.seats.len();
    let planned = placed
        .iter()
        .map(|p| p.rec.planned)
        .collect::<Option<Vec<_>>>();
    let Some(planned) = planned.and_then(|v| v.into_iter().max()) else {
        return Ok(None);
    };
    if players < 2 {
        return Ok(None);
    }
    let candidates = layouts(engines, players, planned);
    if let Some(l) = candidates
        .iter()
        .find(|l| placed.iter().all(|p| l.misfit(&p.rec).is_none()))
    {
        return Ok(Some(*l));
    }
    // The record to name: the first that misfits the layout most records fit; without one, the
    // first record of the highest engine.
    let best = candidates
        .iter()
        .max_by_key(|l| {
            (
                placed.iter().filter(|p| l.misfit(&p.rec).is_none()).count(),
                std::cmp::Reverse(l.pairings),
            )
        })
        .and_then(|l| placed.iter().find_map(|p| l.misfit(&p.rec).map(|f| (p, f))));
    let (p, field) = best.unwrap_or_else(|| {
        let top = placed
            .iter()
            .find(|p| p.rec.engines.contains(&(engines - 1)))
            .unwrap_or(&placed[0]);
        (top, "engines")
    });
    let value = if field == "group" {
        p.rec.group.to_string()
    } else {
        format!("{:?}", p.rec.engines)
    };
    Err(format!(
        "{}: '{}' is {} in game {}, which no match of {} games of these engines gives it ({} or more engines on {} seats: one pairing, a round-robin or a gauntlet): not one match",
        p.place(),
        field,
        value,
        p.rec.game + 1,
        planned,
        engines,
        players
    ))
}

/// The limits of each seat of a record: its `tc` names them per seat (`p1 nodes 100; p2 nodes
/// 200`) when the engines had their own, else one text is every seat's.
fn seat_limits(rec: &GameRecord) -> Vec<String> {
    let parts: Vec<&str> = rec.tc.split("; ").collect();
    let per_seat: Option<Vec<String>> = (parts.len() == rec.seats.len() && parts.len() > 1)
        .then(|| {
            parts
                .iter()
                .enumerate()
                .map(|(i, t)| t.strip_prefix(&format!("p{} ", i + 1)).map(String::from))
                .collect()
        })
        .flatten();
    per_seat.unwrap_or_else(|| vec![rec.tc.clone(); rec.seats.len()])
}

/// Whether the record gives an engine other limits than the records before it (`limits`, by
/// engine index, which learns the engines met for the first time): the sentence saying so.
fn other_limits(rec: &GameRecord, limits: &mut BTreeMap<usize, String>) -> Option<String> {
    let seats = seat_limits(rec);
    for (&e, tc) in rec.engines.iter().zip(&seats) {
        match limits.get(&e) {
            Some(before) if before != tc => {
                // One limit for every engine: the records' `tc` alone tell it.
                let uniform = limits.values().all(|l| l == before) && seats.iter().all(|s| s == tc);
                return Some(if uniform {
                    format!(
                        "game {} was played with limits '{}', the files before it with '{}'",
                        rec.game + 1,
                        tc,
                        before
                    )
                } else {
                    format!(
                        "game {} gives engine {} the limits '{}', the files before it '{}'",
                        rec.game + 1,
                        e + 1,
                        tc,
                        before
                    )
                });
            }
            Some(_) => {}
            None => {
                limits.insert(e, tc.clone());
            }
        }
    }
    None
}

/// The engines' names by engine index, from the records (each record names the engine at each
/// seat); an index named differently in two records is an error.
fn engine_names(records: &[GameRecord]) -> Result<(Vec<String>, Vec<usize>), String> {
    let mut names: BTreeMap<usize, &String> = BTreeMap::new();
    for r in records {
        for (&e, name) in r.engines.iter().zip(&r.seats) {
            match names.get(&e) {
                Some(n) if *n != name => {
                    return Err(format!(
                        "engine {} is '{}' in one game and '{}' in game {}: not one match",
                        e + 1,
                        n,
                        name,
                        r.game + 1
                    ))
                }
                _ => {
                    names.insert(e, name);
                }
            }
        }
    }
    // The engines are numbered from 1; one that plays in none of these games (a shard of a
    // round-robin may seat only engines 3 and 4) is named as such, and the caller decides
    // whether the match explains it.
    // (An index far past the others is refused before anything is sized by it.)
    let count = names.keys().next_back().map_or(0, |&e| e + 1);
    if count > names.len() && count > MAX_ENGINES {
        let gap = (0..).find(|i| !names.contains_key(i)).unwrap_or(0);
        return Err(format!("engine {} plays in none of the games", gap + 1));
    }
    let gaps: Vec<usize> = (0..count).filter(|i| !names.contains_key(i)).collect();
    let all = (0..count)
        .map(|i| match names.get(&i) {
            Some(n) => (*n).clone(),
            None => format!("engine {} (no game here)", i + 1),
        })
        .collect();
    Ok((all, gaps))
}

/// What `quatre stats` found in the files.
#[derive(Clone, Debug)]
pub struct StatsReport {
    /// The table, as `quatre match` prints it (with a line on missing games when there are).
    pub table: String,
    /// Games in the files.
    pub games: usize,
    /// Games that did not start (an engine failed to start): no results.
    pub not_started: usize,
    /// Games of the match that are in none of the files, as runs `(first, last)` of 0-based
    /// game numbers (known when the records carry the match's planned game count; else the gaps
    /// below the highest game number).
    pub missing: Vec<(usize, usize)>,
}

/// `quatre stats`: the table of the games in `paths` (one match, possibly in shards), with an
/// SPRT when `sprt` is given, and which of the match's games or shards are missing.
pub fn stats(paths: &[PathBuf], sprt: Option<&str>) -> Result<StatsReport, String> {
    let placed = merge_placed(paths)?;
    let records: Vec<GameRecord> = placed.iter().map(|p| p.rec.clone()).collect();
    let (engines, gaps) = engine_names(&records)?;
    let first = &records[0];
    let players = first.seats.len();
    if records.iter().any(|r| r.seats.len() != players) {
        return Err("the games do not all have the same number of seats: not one match".into());
    }
    // An engine absent from every game is only explained by a match whose layout the records
    // carry (a shard of a round-robin); without one it is a record's mistake.
    let gap_error = |gap: usize| format!("engine {} plays in none of the games", gap + 1);
    let layout = match (layout(&placed, engines.len()), gaps.first()) {
        (Ok(Some(l)), _) => Some(l),
        (Ok(None) | Err(_), Some(&gap)) => return Err(gap_error(gap)),
        (r, None) => r?,
    };
    let sprt = sprt.map(Sprt::parse).transpose()?;
    // The SPRT tests engine 1 against one opponent set: as `quatre match`, one pairing only.
    let pairings = layout.map_or(1, |l| l.pairings);
    if sprt.is_some() && (engines.len() > players || pairings > 1) {
        return Err(format!(
            "--sprt needs as many engines as seats (one pairing): these games have {} engines on {} seats",
            layout.map_or(engines.len(), |l| l.engines),
            players
        ));
    }
    let mut tally = Tally::new(players, engines.len());
    for r in &records {
        tally.add(r);
    }
    let played: Vec<&GameRecord> = records.iter().filter(|r| r.started).collect();
    let llr = sprt.map(|sp| sp.llr(&tally.group_bins, players));
    let verdict: Option<Verdict> = match (sprt, llr) {
        (Some(sp), Some(l)) => sp.verdict(l),
        _ => None,
    };
    let ratings = (players > 2 || engines.len() > players).then(|| {
        stats::weng_lin(
            engines.len(),
            played.iter().map(|r| (&r.engines[..], &r.result[..])),
        )
    });
    let planned = records.iter().filter_map(|r| r.planned).max();
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
        games: planned.unwrap_or(records.len()),
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
    // Without the planned count, the games are counted against those in the files (which do
    // not say how many the match has).
    let count = match planned {
        Some(p) => format!("{} games of {} played", tally.games(), p),
        None => format!(
            "{} games played of the {} in the files",
            tally.games(),
            records.len()
        ),
    };
    let mut table = summary_counting(
        &heading,
        &tally,
        &count,
        llr,
        verdict,
        ratings.as_deref(),
        Duration::ZERO,
    );
    let (missing, line) = missing_games(&records, planned, layout);
    table += &line;
    Ok(StatsReport {
        table,
        games: records.len(),
        not_started: tally.not_started(),
        missing,
    })
}

/// The runs `(first, last)` of the numbers from `lo` below `end` that are not in `present`,
/// found from `present` alone (nothing is sized by `end`).
fn gaps(present: &std::collections::BTreeSet<usize>, lo: usize, end: usize) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut next = lo;
    for &p in present.range(lo..end) {
        if p > next {
            runs.push((next, p - 1));
        }
        next = p + 1;
    }
    if next < end {
        runs.push((next, end - 1));
    }
    runs
}

/// The games of the match in none of the files, as runs `(first, last)` of 0-based game
/// numbers, and the line that says which (empty when none is): with the planned game count
/// every game below it, else the gaps below the highest game number; and the shards of
/// `--shard I/N` without a game in the files.
fn missing_games(
    records: &[GameRecord],
    planned: Option<usize>,
    layout: Option<Layout>,
) -> (Vec<(usize, usize)>, String) {
    let present: std::collections::BTreeSet<usize> = records.iter().map(|r| r.game).collect();
    let end = planned.unwrap_or_else(|| present.last().map_or(0, |g| g + 1));
    let missing = gaps(&present, 0, end);
    let count: usize = missing.iter().map(|(a, b)| b - a + 1).sum();
    // Shards: the N of the sharded records (when they agree), and the I that have a game.
    let ns: std::collections::BTreeSet<usize> = records
        .iter()
        .filter_map(|r| r.shard.map(|s| s[1]))
        .collect();
    let shards_missing: Vec<(usize, usize)> = match (ns.len(), ns.first()) {
        (1, Some(&n)) => {
            let seen: std::collections::BTreeSet<usize> = records
                .iter()
                .filter_map(|r| r.shard.map(|s| s[0]))
                .collect();
            // Shard I plays the groups g with g mod N = I − 1: those past the match's groups
            // play nothing and miss nothing. (Without the layout, every game's group is below
            // the last game's number.)
            let groups = layout.map_or(end, |l| l.groups());
            gaps(&seen, 1, n.min(groups) + 1)
        }
        _ => Vec::new(),
    };
    if missing.is_empty() && shards_missing.is_empty() {
        return (missing, String::new());
    }
    let mut line = match planned {
        Some(p) => format!(
            "Missing: {} of the match's {} games are in none of the files: {}",
            count,
            p,
            ranges(&missing)
        ),
        None => format!(
            "Missing: {} games below the last one are in none of the files: {} (these records do not say how many games the match planned)",
            count,
            ranges(&missing)
        ),
    };
    if !shards_missing.is_empty() {
        let n = ns.first().copied().unwrap_or(0);
        let count: usize = shards_missing.iter().map(|(a, b)| b - a + 1).sum();
        let mut names: Vec<String> = shards_missing
            .iter()
            .flat_map(|&(a, b)| a..=b)
            .take(12)
            .map(|i| format!("{}/{}", i, n))
            .collect();
        if count > 12 {
            names.push(format!("… ({} shards in all)", count));
        }
        line += &format!(
            "; no game of shard{} {}",
            if count == 1 { "" } else { "s" },
            names.join(", ")
        );
    }
    line.push('\n');
    (missing, line)
}

/// Runs of game numbers (0-based, ascending) as 1-based ranges: `3–4, 7, 9–12`; after 12
/// ranges, `…`.
fn ranges(runs: &[(usize, usize)]) -> String {
    let mut parts: Vec<String> = runs
        .iter()
        .take(12)
        .map(|&(lo, hi)| {
            if lo == hi {
                format!("game {}", lo + 1)
            } else {
                format!("games {}–{}", lo + 1, hi + 1)
            }
        })
        .collect();
    if runs.len() > 12 {
        parts.push(format!("… ({} ranges in all)", runs.len()));
    }
    parts.join(", ")
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
