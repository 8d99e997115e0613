//! `quatre selfplay`: the engine plays itself at a fixed node count and every searched position
//! is written with the search's score, the move played and the game's result (docs/learning.md).
//!
//! Determinism: each game is a function of (seed, its index, the options) alone — one search
//! thread, a node limit, the random opening plies, the deal and every search's seed derived from
//! (seed, index) — and games are written in index order whatever `--concurrency` is. A shard
//! plays a contiguous block of indices, so the shards' files concatenate to the unsharded file.

use super::format::{GameData, Position, Score};
use crate::arena::adjudicate::Adjudication;
use crate::arena::openings::{self, Opening};
use crate::arena::player::BUILTIN_HASH_MB;
use crate::arena::referee::GameDef;
use crate::arena::{mix, parse_shard};
use crate::games::{self, AnyGame};
use crate::search::{params, Chosen, Control, Limits, Memory, SearchParams};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// `quatre selfplay` arguments (`--game` is the global flag).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SelfplayArgs {
    /// A rule option of the game, `Name=Value` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Games in the whole run (a shard plays its block of them).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=100_000_000))]
    pub games: u64,
    /// Nodes per move (MCTS: playouts): alpha-beta for two seats, Best-Reply Search for
    /// threechess, ISMCTS for tesseris, as `Algorithm=auto` picks.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..))]
    pub nodes: u64,
    /// Playout cap randomization (KataGo's): a move is searched with `--nodes` and written
    /// with probability `--full-share`, else searched with this many nodes and played without
    /// being written. The games (one label each, the result) come several times faster; the
    /// written positions keep the full search's score.
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..))]
    pub fast_nodes: Option<u64>,
    /// With `--fast-nodes`: the share of moves searched with `--nodes` and written.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "P",
        default_value_t = 0.25
    )]
    pub full_share: f64,
    /// Seed of the run: game i's openings, deal and searches are drawn from (seed, i).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    /// Random legal plies that open each game (default 4 for perfect-information games, 0 for
    /// tesseris, whose deal varies the games; 0 with --openings, after whose line they are
    /// played).
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..))]
    pub random_plies: Option<usize>,
    /// Openings from a file (`quatre openings`, as `match --openings`): game i plays the file's
    /// opening i modulo their number, then --random-plies. With alpha-beta or Best-Reply
    /// Search, more games than openings need --random-plies (else repeats are copies).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// End games early by the search's scores, as `match --adjudicate`:
    /// `draw=CP/K[/PLY],win=CP/K` (the result recorded is the adjudication's).
    #[arg(long, value_name = "RULES")]
    pub adjudicate: Option<String>,
    /// Draw a game after this many plies (opening included), whatever the rules say.
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..))]
    pub max_plies: Option<usize>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The flags `quatre selfplay` and `quatre label` share: the shard, the searches and the file.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// Only block I of N of the run's games (`3/100`, 1 ≤ I ≤ N): the files of shards 1…N,
    /// concatenated in order, are the unsharded run's file byte for byte.
    #[arg(long, allow_hyphen_values = true, value_name = "I/N")]
    pub shard: Option<String>,
    /// Games played or labelled at once, one search thread each (default: every core). The
    /// file is the same whatever this is.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=1024))]
    pub concurrency: Option<u64>,
    /// A search option, `Name=Value` as the protocol's `setoption` (repeatable), e.g.
    /// `Hash=16`. `Threads` above 1 makes the file depend on timing.
    #[arg(long = "search-option", value_name = "NAME=VALUE")]
    pub search_options: Vec<String>,
    /// The data file to write (written as FILE.partial, renamed when the run is complete).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// No line per game on stderr (the summary is still printed).
    #[arg(long)]
    pub quiet: bool,
}

/// Parses `selfplay` arguments (without the leading `selfplay`), for tests and embedding.
pub fn parse_args<I, S>(args: I) -> Result<SelfplayArgs, String>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    crate::arena::parse_subcommand("selfplay", args)
}

/// Everything a game needs, fixed for the run.
struct Plan {
    def: GameDef,
    seed: u64,
    nodes: u64,
    /// `--fast-nodes` and `--full-share`.
    fast: Option<(u64, f64)>,
    params: SearchParams,
    book: Option<Vec<Opening>>,
    random_plies: usize,
    /// Whether the start position is dealt (tesseris): each game then gets its own deal.
    chance: bool,
    hidden: bool,
    adjudicate: Option<Adjudication>,
    max_plies: Option<usize>,
}

/// What a finished run did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub games: usize,
    pub positions: u64,
    pub seconds: f64,
}

impl Plan {
    fn new(game: Option<&str>, a: &SelfplayArgs) -> Result<Plan, String> {
        let mut def = GameDef::from_entry(games::resolve(game)?);
        for o in &a.options {
            let (n, v) = o
                .split_once('=')
                .ok_or_else(|| format!("--option takes NAME=VALUE, not '{}'", o))?;
            def.set_option(n.trim(), v.trim())?;
        }
        let params = search_params(&a.run.search_options)?;
        let start = def.start(Some(1))?;
        // `Eval net` or `Policy net` with nothing that fits these rules would search by hand
        // without a word: refused before any game.
        start.check_learned(&params)?;
        let hidden = start.hidden_information();
        let chance = start.to_text() != def.start(Some(2))?.to_text();
        let book = match &a.openings {
            Some(path) => Some(openings::load(path, &def)?),
            None => None,
        };
        let random_plies = match book {
            Some(_) => a.random_plies.unwrap_or(0),
            None => a.random_plies.unwrap_or(if hidden { 0 } else { 4 }),
        };
        // Alpha-beta and Best-Reply Search draw nothing: on one thread at a fixed node count a
        // game that repeats an opening repeats its game move for move (a copy that training's
        // split may put on both sides). Random plies after each opening make repeats differ;
        // so do `--fast-nodes` (which moves are searched in full is drawn from the game's
        // seed) and more threads; MCTS's searches (and tesseris' deals) differ by the seeds.
        let repeats_copy = a.fast_nodes.is_none() && params.threads <= 1;
        if let (Some(b), Some(path), 0, true) = (&book, &a.openings, random_plies, repeats_copy) {
            let chosen = Chosen::of(params.algorithm, start.players(), hidden);
            if a.games > b.len() as u64 && matches!(chosen, Chosen::AlphaBeta | Chosen::Brs) {
                return Err(format!(
                    "--openings {} holds {} openings for {} games: {} would play each repeated opening's game again move for move; give as many openings as games, or --random-plies K to play K random plies after each opening",
                    path.display(),
                    b.len(),
                    a.games,
                    match chosen {
                        Chosen::Brs => "Best-Reply Search",
                        _ => "alpha-beta",
                    }
                ));
            }
        }
        // The cap counts the opening's plies: at or below them no position is searched, and
        // each game would be written as a draw of positions=0 at more plies than the cap.
        if let Some(m) = a.max_plies {
            let (opening, what) = match &book {
                Some(b) => {
                    let used = &b[..b.len().min(a.games as usize)];
                    let longest = used.iter().map(|o| o.moves.len()).max().unwrap_or(0);
                    (longest, "the longest opening of --openings".to_string())
                }
                None => (0, String::new()),
            };
            let plies = opening + random_plies;
            if m <= plies {
                let what = match (what.is_empty(), random_plies) {
                    (true, _) => format!("--random-plies {}", random_plies),
                    (false, 0) => what,
                    (false, k) => format!("{} and --random-plies {}", what, k),
                };
                return Err(format!(
                    "--max-plies {} leaves no ply to search: a game opens with {} plies ({}); give a cap above {}",
                    m, plies, what, plies
                ));
            }
        }
        if a.fast_nodes.is_some() && !(a.full_share > 0.0 && a.full_share <= 1.0) {
            return Err(format!(
                "--full-share must be above 0 and at most 1, not {}",
                a.full_share
            ));
        }
        if a.fast_nodes.is_some_and(|f| f >= a.nodes) {
            return Err(format!(
                "--fast-nodes {} must be below --nodes {}",
                a.fast_nodes.unwrap_or(0),
                a.nodes
            ));
        }
        Ok(Plan {
            seed: a.seed,
            nodes: a.nodes,
            fast: a.fast_nodes.map(|f| (f, a.full_share)),
            params,
            book,
            random_plies,
            chance,
            hidden,
            adjudicate: a
                .adjudicate
                .as_deref()
                .map(Adjudication::parse)
                .transpose()?,
            max_plies: a.max_plies,
            def,
        })
    }

    /// Plays game `index` of the run.
    /// `searched` counts the positions searched (for the progress lines).
    fn play(
        &self,
        index: usize,
        abort: &AtomicBool,
        searched: &AtomicU64,
    ) -> Result<GameData, String> {
        let gseed = mix(self.seed, index as u64);
        let mut deal = self.chance.then(|| mix(gseed, 1) >> 1);
        // The opening: the file's line (index modulo their number), then the random plies,
        // drawn from (seed, index).
        let (start, mut moves, line) = match &self.book {
            Some(book) => {
                let o = &book[index % book.len()];
                if o.start.is_some() {
                    deal = None; // the line's position is the whole start
                }
                (
                    o.start.clone(),
                    o.moves.clone(),
                    Some(index % book.len() + 1),
                )
            }
            None => (None, Vec::new(), None),
        };
        let mut state = match &start {
            Some(t) => self.def.from_text(t)?,
            None => self.def.start(deal)?,
        };
        for m in &moves {
            state.play_text(m)?;
        }
        let random = crate::arena::random_line(state.as_ref(), self.random_plies, mix(gseed, 2))
            .map_err(|e| match line {
                Some(l) => format!(
                    "--random-plies {} after opening {}: {}",
                    self.random_plies, l, e
                ),
                None => format!("--random-plies {}: {}", self.random_plies, e),
            })?;
        for m in &random {
            state.play_text(m)?;
        }
        let how = match line {
            Some(l) if random.is_empty() => format!("openings:{}", l),
            Some(l) => format!("openings:{}+random:{}", l, random.len()),
            None => format!("random:{}", random.len()),
        };
        moves.extend(random);
        let players = state.players();
        let full = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let fast = Limits {
            nodes: self.fast.map(|(f, _)| f),
            ..Limits::default()
        };
        let memory = Memory::default();
        let mut params = self.params.clone();
        let mut ply = moves.len();
        let mut scores: Vec<Vec<Option<i32>>> = vec![Vec::new(); players];
        let mut positions = Vec::new();
        let (result, reason) = loop {
            if let crate::game::Status::Over(o) = state.status() {
                break (o.rewards[..players].to_vec(), o.reason.to_string());
            }
            if let Some(m) = self.max_plies.filter(|&m| ply >= m) {
                break (
                    vec![1.0 / players as f32; players],
                    format!("selfplay --max-plies {}", m),
                );
            }
            if let Some((r, why)) = self.adjudicate.and_then(|a| a.verdict(&scores, ply)) {
                break (r, why.replacen("arena adjudication", "adjudication", 1));
            }
            if abort.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
            let seat = state.to_move();
            params.seed = mix(gseed, 3 + ply as u64) >> 1;
            // Drawn from (seed, index, ply): the same moves are full searches whatever the
            // concurrency or the shard.
            let written = self.fast.is_none_or(|(_, share)| drawn(gseed, ply, share));
            let limits = if written { &full } else { &fast };
            let (mv, score) = search_for_mover(
                &self.def,
                self.hidden,
                state.as_ref(),
                &params,
                limits,
                &memory,
            )?;
            let mv = mv
                .ok_or_else(|| format!("game {}: no move from the search at ply {}", index, ply))?;
            scores[seat].push(score.centipawns());
            if written {
                searched.fetch_add(1, Ordering::Relaxed);
                positions.push(Position {
                    ply,
                    seat,
                    score,
                    mv: mv.clone(),
                    text: state.to_text(),
                });
            }
            state
                .play_text(&mv)
                .map_err(|e| format!("game {} ply {}: {}", index, ply, e))?;
            ply += 1;
        };
        Ok(GameData {
            game: self.def.name.clone(),
            options: self.def.option_pairs(),
            seed: self.seed,
            index,
            nodes: self.nodes,
            start: how,
            result,
            plies: ply,
            reason,
            positions,
        })
    }
}

/// One thread's search settings for a run: the protocol's defaults with the built-in players'
/// table size, then `--search-option NAME=VALUE`s.
pub(super) fn search_params(options: &[String]) -> Result<SearchParams, String> {
    let mut params = SearchParams {
        threads: 1,
        hash_mb: BUILTIN_HASH_MB,
        ..SearchParams::default()
    };
    for o in options {
        let (n, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--search-option takes NAME=VALUE, not '{}'", o))?;
        params::set(&mut params, n.trim(), v.trim())
            .map_err(|e| format!("--search-option {}: {}", o, e))?;
    }
    Ok(params)
}

/// Whether the position at `ply` of the game seeded `gseed` is among the `share` searched and
/// written: a draw from (seed, game, ply) alone, so the same whatever the concurrency or shard.
pub(super) fn drawn(gseed: u64, ply: usize, share: f64) -> bool {
    let draw = (mix(gseed, (1 << 32) + ply as u64) >> 11) as f64;
    draw / ((1u64 << 53) as f64) < share
}

/// Searches `state` for its seat to move as the arena's players do: from what the seat may know
/// (its observation) in a game that hides information. The best move (None when the search
/// gave none) and the score from the mover's view.
pub(super) fn search_for_mover(
    def: &GameDef,
    hidden: bool,
    state: &dyn AnyGame,
    params: &SearchParams,
    limits: &Limits,
    memory: &Memory,
) -> Result<(Option<String>, Score), String> {
    let view: Option<Box<dyn AnyGame>> = match hidden {
        true => Some(def.from_text(&state.observation_text(state.to_move()))?),
        false => None,
    };
    let view = view.as_deref().unwrap_or(state);
    let stop = AtomicBool::new(false);
    let control = Control {
        memory: Some(memory),
        ..Control::new(&stop)
    };
    let r = view.search_controlled(params, limits, control, &|_| {});
    let score = Score::from_search(r.report.and_then(|r| r.lines.first().map(|l| l.score)));
    Ok((r.best, score))
}

/// The games of block `k` of `n` (1-based) of a run of `games`: contiguous, in order.
pub fn shard_range(games: usize, shard: Option<(usize, usize)>) -> std::ops::Range<usize> {
    match shard {
        None => 0..games,
        Some((k, n)) => (k - 1) * games / n..k * games / n,
    }
}

/// `quatre selfplay`: plays the run (or its shard), writes the file, prints a summary on stderr.
pub fn run(game: Option<&str>, a: &SelfplayArgs) -> Result<Summary, String> {
    let plan = Plan::new(game, a)?;
    let play = |i: usize, abort: &AtomicBool, searched: &AtomicU64| plan.play(i, abort, searched);
    write_games("selfplay", &a.run, a.games as usize, &play)
}

/// Plays (or labels) the games of the run's shard (of `games`) with `play` and writes them to
/// `run.out` in index order, through `out.partial`, renamed once every game is written (removed
/// on an error); `what` names the subcommand in the progress lines and the summary, printed on
/// stderr.
pub(super) fn write_games(
    what: &str,
    run: &RunArgs,
    games: usize,
    play: &PlayFn,
) -> Result<Summary, String> {
    let shard = run.shard.as_deref().map(parse_shard).transpose()?;
    let range = shard_range(games, shard);
    let (out_path, concurrency, quiet) = (&run.out, run.concurrency, run.quiet);
    let concurrency = concurrency.map(|c| c as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    // Refused before any game: the rename at the end would fail after every game was played.
    if out_path.is_dir() {
        return Err(format!(
            "--out {}: is a directory; give the data file's path",
            out_path.display()
        ));
    }
    let partial = partial_path(out_path);
    let file = std::fs::File::create(&partial)
        .map_err(|e| format!("cannot write {}: {}", partial.display(), e))?;
    let mut out = std::io::BufWriter::new(file);
    let t0 = Instant::now();
    let mut written = 0u64;
    let each = &mut |g: &GameData| {
        out.write_all(g.to_text().as_bytes())
            .map_err(|e| format!("cannot write {}: {}", partial.display(), e))?;
        written += g.positions.len() as u64;
        if !quiet {
            let secs = t0.elapsed().as_secs_f64();
            eprintln!(
                "{}: game {} ({} of {}): {} positions, {} plies, result {} ({}); {} positions in {:.1} s ({:.0}/hour)",
                what,
                g.index + 1,
                g.index + 1 - range.start,
                range.len(),
                g.positions.len(),
                g.plies,
                g.result
                    .iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join("-"),
                g.reason,
                written,
                secs,
                written as f64 * 3600.0 / secs.max(1e-9),
            );
        }
        Ok(())
    };
    let r = play_all(what, play, range.clone(), concurrency, quiet, each);
    let r = r.and_then(|s| {
        out.flush()
            .map_err(|e| format!("cannot write {}: {}", partial.display(), e))?;
        Ok(s)
    });
    drop(out);
    let positions = match r {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, out_path).map_err(|e| {
        format!(
            "cannot rename {} to {}: {}",
            partial.display(),
            out_path.display(),
            e
        )
    })?;
    let s = Summary {
        games: range.len(),
        positions,
        seconds: t0.elapsed().as_secs_f64(),
    };
    eprintln!(
        "{}: {} games, {} positions in {:.1} s ({:.0} positions/hour, {} at once) -> {}",
        what,
        s.games,
        s.positions,
        s.seconds,
        s.positions as f64 * 3600.0 / s.seconds.max(1e-9),
        concurrency,
        out_path.display()
    );
    Ok(s)
}

/// Game `i` of a run, played or labelled: it checks the abort flag between searches and counts
/// the positions it searches (for the progress lines).
pub(super) type PlayFn<'a> =
    dyn Fn(usize, &AtomicBool, &AtomicU64) -> Result<GameData, String> + Sync + 'a;

/// Where a run writes until it is complete.
pub fn partial_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}

/// Plays (`play`) the games of `range` on `concurrency` threads and hands each to `each` in index order;
/// returns the positions written. The first error stops every thread. Unless `quiet`, a line
/// every 10 s says how many positions were searched (games can be long).
fn play_all(
    what: &str,
    play: &PlayFn,
    range: std::ops::Range<usize>,
    concurrency: usize,
    quiet: bool,
    each: &mut dyn FnMut(&GameData) -> Result<(), String>,
) -> Result<u64, String> {
    use std::collections::BTreeMap;
    use std::sync::mpsc;
    let next = AtomicUsize::new(range.start);
    let abort = AtomicBool::new(false);
    let searched = AtomicU64::new(0);
    let t0 = Instant::now();
    let (tx, rx) = mpsc::channel::<(usize, Result<GameData, String>)>();
    std::thread::scope(|s| {
        for _ in 0..concurrency.min(range.len()).max(1) {
            let tx = tx.clone();
            let (next, abort, searched, end) = (&next, &abort, &searched, range.end);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= end || abort.load(Ordering::Relaxed) {
                    break;
                }
                if tx.send((i, play(i, abort, searched))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish out of order; write them in order.
        let mut pending = BTreeMap::new();
        let mut expected = range.start;
        let mut positions = 0u64;
        let mut failure = None;
        loop {
            let (i, r) = match rx.recv_timeout(std::time::Duration::from_secs(10)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if !quiet {
                        let (n, secs) =
                            (searched.load(Ordering::Relaxed), t0.elapsed().as_secs_f64());
                        eprintln!(
                            "{}: {} positions searched in {:.0} s ({:.0}/hour), {} games written",
                            what,
                            n,
                            secs,
                            n as f64 * 3600.0 / secs.max(1e-9),
                            expected - range.start
                        );
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            pending.insert(i, r);
            while let Some(r) = pending.remove(&expected) {
                let done = r.and_then(|g| {
                    positions += g.positions.len() as u64;
                    each(&g)
                });
                if let Err(e) = done {
                    abort.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
                expected += 1;
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(positions),
        }
    })
}
