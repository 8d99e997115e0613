//! `quatre label`: training data from recorded games (`quatre match --out` files). Each game is
//! replayed through the rules; the engine searches the positions along it at a fixed node
//! count, from the mover's view, and writes them in the self-play data format
//! ([`super::format`]) with the search's score and move and the game's result.
//!
//! With `--teacher` another engine scores the positions instead ([`super::teacher`]).
//!
//! Self-play data teaches a net what wins against the engine itself. Games against other
//! engines (or people) carry results the engine's own play cannot produce: the way out of
//! nets that win in self-play and lose elsewhere (docs/learning.md, "The self-play trap").
//!
//! Determinism: as `quatre selfplay`, each game's file lines are a function of (seed, the
//! game's place among the kept records, the records), so shards concatenate to the unsharded
//! file whatever `--concurrency` is.

use super::format::{place, GameData, Origin, Position};
use super::selfplay::{drawn, search_for_mover, search_params, write_games, RunArgs, Summary};
use super::teacher::Teachers;
use crate::arena::mix;
use crate::arena::referee::{GameDef, GameRecord};
use crate::games;
use crate::search::{Limits, Memory, SearchParams};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// `quatre label` arguments (`--game`, the global flag, if given, must be the records' game).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LabelArgs {
    /// Game files written by `quatre match --out` (repeatable), read in the order given. Every
    /// game must be of one game with the same rule options.
    #[arg(
        long = "records",
        value_name = "FILE",
        num_args = 1..,
        required_unless_present = "data",
        conflicts_with = "data"
    )]
    pub records: Vec<PathBuf>,
    /// Instead of records, data files (`quatre selfplay`'s or `quatre label`'s): their positions
    /// searched again at `--nodes` (e.g. deeper), each game keeping its result.
    #[arg(long = "data", value_name = "FILE", num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Scores the positions with this engine instead of quatre's own search: an engine as
    /// `quatre match --engine` takes one (`"/usr/games/stockfish option.Threads=1"`,
    /// `"builtin:alphabeta option.Eval=hand"`), each position searched to `--nodes` (`go nodes
    /// N`) after `ucinewgame` at each game's start; a record's position is sent as its start and
    /// moves, a data file's as its text. The data keep its move and score.
    #[arg(long, value_name = "ENGINE")]
    pub teacher: Option<String>,
    /// Nodes per searched position (MCTS: playouts), searched as `quatre selfplay` does.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..))]
    pub nodes: u64,
    /// The share of each game's positions searched and written (0 < P ≤ 1), drawn from the
    /// seed, the game and the ply.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "P",
        default_value_t = 1.0
    )]
    pub share: f64,
    /// Seed of the run (the searches' seeds and which positions `--share` keeps).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Parses `label` arguments (without the leading `label`), for tests and embedding.
pub fn parse_args<I, S>(args: I) -> Result<LabelArgs, String>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    crate::arena::parse_subcommand("label", args)
}

/// A record kept for labelling, with where it came from: `from` for the data's `start=`
/// (`record:NAME:N`, the file's name and the match's game number), `place` for messages (the
/// file's path and the game number).
struct Kept {
    rec: GameRecord,
    from: String,
    place: String,
}

/// The records to label, in order: every game of the files but those that did not start or
/// ended by a fault (a time forfeit, an illegal move, a crash, no answer), whose result says
/// who erred rather than who stood better. Returns them with the number left out. A game given
/// twice (one file twice, or a match's shards with their merged file) is refused.
fn kept_records(files: &[PathBuf]) -> Result<(Vec<Kept>, usize), String> {
    use std::collections::HashMap;
    let mut kept = Vec::new();
    let mut left_out = 0;
    let mut seen: HashMap<(Option<u64>, usize, String, Vec<String>), String> = HashMap::new();
    for f in files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().replace(['\t', '\n', '\r'], " "))
            .unwrap_or_default();
        for rec in crate::arena::records::read(f)? {
            let place = format!("{} game {}", f.display(), rec.game + 1);
            let key = (rec.seed, rec.game, rec.start.clone(), rec.moves.clone());
            if let Some(before) = seen.insert(key, place.clone()) {
                return Err(format!(
                    "{} is {} again: give each game once (a match's shards or its merged file, not both)",
                    place, before
                ));
            }
            if !rec.started || rec.offender.is_some() {
                left_out += 1;
                continue;
            }
            let from = format!("record:{}:{}", name, rec.game + 1);
            kept.push(Kept { rec, from, place });
        }
    }
    Ok((kept, left_out))
}

/// Replays a kept record through the rules without searching, so that a bad record is refused
/// before any search: every move must be legal, and the game must end where and as the record
/// says (over with the record's result when the rules ended it, still going when an
/// adjudication or a move cap did, at the record's final position).
fn check_record(def: &GameDef, k: &Kept) -> Result<(), String> {
    use crate::arena::referee::termination;
    use crate::game::Status;
    let rec = &k.rec;
    let mut state = def
        .from_text(&rec.start)
        .map_err(|e| format!("{}: the start position does not load: {}", k.place, e))?;
    for (ply, mv) in rec.opening.iter().chain(&rec.moves).enumerate() {
        if let Status::Over(_) = state.status() {
            return Err(format!(
                "{}: the game is over at ply {} but the record goes on ('{}')",
                k.place, ply, mv
            ));
        }
        state
            .play_text(mv)
            .map_err(|e| format!("{} ply {}: {}", k.place, ply, e))?;
    }
    let end = state.to_text();
    if !rec.end.is_empty() && end != rec.end {
        // Both texts, so that a record of another build (other rules, another text format)
        // shows where it differs.
        return Err(format!(
            "{}: its moves lead to another position than the record's end (replayed: '{}'; recorded: '{}')",
            k.place, end, rec.end
        ));
    }
    match (state.status(), rec.termination == termination::RULES) {
        (Status::Over(o), true) => {
            let n = rec.result.len();
            let rewards = &o.rewards[..n.min(o.rewards.len())];
            if rewards.len() != n
                || rewards
                    .iter()
                    .zip(&rec.result)
                    .any(|(a, b)| (a - b).abs() > 1e-4)
            {
                return Err(format!(
                    "{}: the rules give the result {:?}, the record {:?}",
                    k.place, rewards, rec.result
                ));
            }
        }
        (Status::Ongoing, true) => {
            return Err(format!(
                "{}: the record says the rules ended it, but after its moves the game goes on",
                k.place
            ))
        }
        (Status::Over(_), false) => {
            return Err(format!(
                "{}: the rules ended the game, but the record says '{}'",
                k.place, rec.termination
            ))
        }
        (Status::Ongoing, false) => {}
    }
    Ok(())
}

/// `quatre label`: labels the kept games of the records (or a shard of them), writes the data
/// file and prints a summary on stderr.
pub fn run(game: Option<&str>, a: &LabelArgs) -> Result<Summary, String> {
    if !(a.share > 0.0 && a.share <= 1.0) {
        return Err(format!(
            "--share must be above 0 and at most 1, not {}",
            a.share
        ));
    }
    let params = search_params(&a.run.search_options)?;
    if !a.data.is_empty() {
        return relabel(game, a, params);
    }
    let (kept, left_out) = kept_records(&a.records)?;
    let first = kept.first().ok_or_else(|| {
        format!(
            "the records hold no game to label: {} left out (not started, or ended by a fault)",
            left_out
        )
    })?;
    let mut def = game_def(game, &first.rec.game_name, "records")?;
    for (k, v) in &first.rec.options {
        def.set_option(k, v)
            .map_err(|e| format!("{}: option {}={}: {}", first.place, k, v, e))?;
    }
    for k in &kept {
        if k.rec.game_name != first.rec.game_name {
            return Err(format!(
                "{} is a game of {}, {} of {}: label one game at a time",
                k.place, k.rec.game_name, first.place, first.rec.game_name
            ));
        }
        if k.rec.options != first.rec.options {
            let differ: Vec<String> = k
                .rec
                .options
                .iter()
                .filter(|(n, v)| first.rec.options.get(*n) != Some(v))
                .map(|(n, v)| {
                    let was = first.rec.options.get(n).map_or("unset", |s| s.as_str());
                    format!("{}={} (not {})", n, v, was)
                })
                .collect();
            return Err(format!(
                "{} has other rule options than {}: {}; label one set of options at a time",
                k.place,
                first.place,
                differ.join(", ")
            ));
        }
        check_record(&def, k)?;
    }
    let hidden = check_search(a, &def, &params)?;
    let teachers = start_teachers(a, &def, hidden)?;
    if left_out > 0 {
        eprintln!(
            "label: {} of {} games left out (not started, or ended by a fault)",
            left_out,
            left_out + kept.len()
        );
    }
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let play = |i: usize, abort: &AtomicBool, searched: &AtomicU64| -> Result<GameData, String> {
        let Kept { rec, from, place } = &kept[i];
        let gseed = mix(a.seed, i as u64);
        let mut state = def
            .from_text(&rec.start)
            .map_err(|e| format!("{}: the start position does not load: {}", place, e))?;
        let memory = Memory::default();
        let mut params = params.clone();
        let mut positions = Vec::new();
        // The run's teachers and the one this game took.
        let mut teacher = match &teachers {
            Some(ts) => Some((ts, ts.take()?)),
            None => None,
        };
        let history: Vec<String> = rec.opening.iter().chain(&rec.moves).cloned().collect();
        for (ply, mv) in history.iter().enumerate() {
            if abort.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
            // The opening's plies are not the players' choices: searched by no one, not written.
            if ply >= rec.opening.len() && drawn(gseed, ply, a.share) {
                let (best, score) = match &mut teacher {
                    Some((ts, t)) => {
                        let at = format!("{} ply {}", place, ply);
                        let l =
                            ts.label(&mut **t, &rec.start, &history[..ply], state.as_ref(), &at)?;
                        (Some(l.mv), l.score)
                    }
                    None => {
                        params.seed = mix(gseed, 3 + ply as u64) >> 1;
                        search_for_mover(&def, hidden, state.as_ref(), &params, &limits, &memory)?
                    }
                };
                searched.fetch_add(1, Ordering::Relaxed);
                // The search's own move, as in self-play data: the score is its line's, and
                // training leaves out positions whose searched move captures or promotes.
                let best =
                    best.ok_or_else(|| format!("{} ply {}: no move from the search", place, ply))?;
                positions.push(Position {
                    ply,
                    seat: state.to_move(),
                    score,
                    mv: best,
                    text: state.to_text(),
                });
            }
            state
                .play_text(mv)
                .map_err(|e| format!("{} ply {}: {}", place, ply, e))?;
        }
        if let Some((ts, t)) = teacher {
            ts.give_back(t);
        }
        Ok(GameData {
            game: def.name.clone(),
            options: def.option_pairs(),
            seed: a.seed,
            index: i,
            nodes: a.nodes,
            start: from.clone(),
            result: rec.result.clone(),
            plies: rec.opening.len() + rec.moves.len(),
            reason: rec.reason.replace(['\t', '\n', '\r'], " "),
            positions,
        })
    };
    let done = write_games("label", &a.run, kept.len(), &play);
    if let Some(ts) = &teachers {
        ts.finish();
    }
    done
}

/// Whether games of `def` hide information; and, where quatre's own search labels them (no
/// `--teacher`), refuses `Eval net` or `Policy net` with nothing that fits `def`'s rules,
/// which would search by hand without a word.
fn check_search(a: &LabelArgs, def: &GameDef, params: &SearchParams) -> Result<bool, String> {
    let start = def.start(Some(1))?;
    if a.teacher.is_none() {
        start.check_learned(params)?;
    }
    Ok(start.hidden_information())
}

/// `--teacher`'s engines for games of `def`, if asked for (refused for hidden information).
fn start_teachers(a: &LabelArgs, def: &GameDef, hidden: bool) -> Result<Option<Teachers>, String> {
    match &a.teacher {
        Some(_) if hidden => Err(format!(
            "--teacher: {} hides information, and a teacher would be shown whole positions; label its games with quatre's own search (leave out --teacher)",
            def.name
        )),
        Some(spec) => Ok(Some(Teachers::start(spec, def, a.nodes)?)),
        None => Ok(None),
    }
}

/// The definition of the data's game `name`; `--game`, when given, must name it.
fn game_def(asked: Option<&str>, name: &str, what: &str) -> Result<GameDef, String> {
    let def = GameDef::from_entry(games::resolve(Some(name))?);
    if let Some(g) = asked {
        let asked = games::resolve(Some(g))?;
        if asked.name != def.name {
            return Err(format!(
                "--game {} but the {} are games of {}",
                asked.name, what, def.name
            ));
        }
    }
    Ok(def)
}

/// `quatre label --data`: the positions of data files searched again at `--nodes` (a deeper
/// search's labels for positions already played). Each game keeps its header (result, start,
/// plies, reason) with the run's seed, its place among the games as index and the new node
/// count; a `--share` of its positions, drawn as for records, get the new search's (or the
/// teacher's) score and move. A position is searched from its text alone, as training reads it.
fn relabel(game: Option<&str>, a: &LabelArgs, params: SearchParams) -> Result<Summary, String> {
    let mut data: Vec<(GameData, Origin)> = Vec::new();
    for f in &a.data {
        data.extend(super::format::read_file_at(f)?);
    }
    super::format::check_each_once(data.iter().map(|(g, o)| (g, o)))?;
    let (first, first_origin) = data
        .first()
        .ok_or_else(|| "the data files hold no game".to_string())?;
    let first_place = first_origin.game();
    let mut def = game_def(game, &first.game, "data files")?;
    for (k, v) in &first.options {
        def.set_option(k, v)
            .map_err(|e| format!("{}: option {}={}: {}", first_place, k, v, e))?;
    }
    if let Some((_, origin)) = data
        .iter()
        .find(|(g, _)| g.game != first.game || g.options != first.options)
    {
        return Err(format!(
            "{}: another game or other rule options than {}: label one set of options at a time",
            origin.game(),
            first_place
        ));
    }
    let hidden = check_search(a, &def, &params)?;
    let teachers = start_teachers(a, &def, hidden)?;
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let play = |i: usize, abort: &AtomicBool, searched: &AtomicU64| -> Result<GameData, String> {
        let (g, origin) = &data[i];
        let gseed = mix(a.seed, i as u64);
        let memory = Memory::default();
        let mut params = params.clone();
        let mut positions = Vec::new();
        let mut teacher = match &teachers {
            Some(ts) => Some((ts, ts.take()?)),
            None => None,
        };
        for (k, p) in g
            .positions
            .iter()
            .enumerate()
            .filter(|(_, p)| drawn(gseed, p.ply, a.share))
        {
            if abort.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
            let place = place(g, Some(origin), Some(k));
            let state = def
                .from_text(&p.text)
                .map_err(|e| format!("{}: the position does not load: {}", place, e))?;
            if state.to_move() != p.seat {
                return Err(format!(
                    "{}: the position's seat to move is p{}, the data says p{}",
                    place,
                    state.to_move() + 1,
                    p.seat + 1
                ));
            }
            let (best, score) = match &mut teacher {
                Some((ts, t)) => {
                    let l = ts.label(&mut **t, &p.text, &[], state.as_ref(), &place)?;
                    (Some(l.mv), l.score)
                }
                None => {
                    params.seed = mix(gseed, 3 + p.ply as u64) >> 1;
                    search_for_mover(&def, hidden, state.as_ref(), &params, &limits, &memory)?
                }
            };
            searched.fetch_add(1, Ordering::Relaxed);
            let best = best.ok_or_else(|| format!("{}: no move from the search", place))?;
            positions.push(Position {
                ply: p.ply,
                seat: p.seat,
                score,
                mv: best,
                text: p.text.clone(),
            });
        }
        if let Some((ts, t)) = teacher {
            ts.give_back(t);
        }
        Ok(GameData {
            seed: a.seed,
            index: i,
            nodes: a.nodes,
            positions,
            ..g.clone()
        })
    };
    let done = write_games("label", &a.run, data.len(), &play);
    if let Some(ts) = &teachers {
        ts.finish();
    }
    done
}
