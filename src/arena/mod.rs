//! `quatre match`: engine-vs-engine matches with a referee.
//!
//! - [`player`]: external engines (UCI/UGI over pipes, each read on its own thread, every wait
//!   with a timeout) and built-in players;
//! - [`referee`]: one game — the true state, legality, clocks, faults, the game record;
//! - [`stats`]: Elo, error bars, LOS, the pentanomial GSPRT;
//! - this module: the schedule (rotated seats, paired openings, seeds), the worker threads, the
//!   progress line, the final table and the `--out` file.
//!
//! See `docs/arena.md` for the user's view.

pub mod adjudicate;
pub mod openings;
pub mod player;
pub mod records;
pub mod referee;
mod resume;
pub mod stats;
mod table;

use crate::game::rng_from_seed;
use crate::games;
use player::{EngineKind, EngineSpec, Proto};
use referee::{GameDef, GameRecord, Job, Played, RefereeConfig, TimeControl};
use stats::{EloEstimate, Sprt, Verdict};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;
use table::{games_count, progress_line, summary_counting, Heading, Tally};

/// `quatre match` arguments (`--game` is the global flag).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// An engine: an external command with its arguments (`"./quatre option.Threads=1"`) or a
    /// built-in player (`builtin:random`, `builtin:mcts`, `builtin:alphabeta`,
    /// `builtin:baseline`). `option.Name=Value` tokens become `setoption` lines (search
    /// parameters for built-ins), `name=N` names it, `proto=uci|ugi` picks the handshake,
    /// `tc=BASE+INC` gives it its own clock, `nodes=N` its own node limit. At least one per seat; more make a round-robin or
    /// a gauntlet (`--tournament`).
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    pub engines: Vec<String>,
    /// A rule option of the game, `Name=Value` (repeatable): sent to every engine and used by
    /// the referee.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Clock per seat: base+increment in seconds (`10+0.1`).
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node limit per move (sent as `go nodes N`).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move (sent as `go depth N`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds an engine may exceed its clock or movetime before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin: u64,
    /// Longest wait for a move (ms) when no clock or movetime bounds it, and for each handshake
    /// step; an engine silent that long loses with "no answer".
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub timeout: u64,
    /// With more engines than seats: `round-robin` (every set of engines that fills the seats
    /// plays, the default) or `gauntlet` (engine 1 against every set of the others).
    #[arg(long, value_name = "FORMAT")]
    pub tournament: Option<String>,
    /// Number of games (default: one game per seat rotation, 2 for two-seat games); with more
    /// engines than seats, games per pairing.
    #[arg(long)]
    pub games: Option<usize>,
    /// Games played at once, 1 to 256 (each on its own thread with its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: usize,
    /// Openings from a file, one per line: `startpos [moves …]` or `<position text> [moves …]`
    /// (see `quatre openings`). Each group of games (seats rotated) plays one line.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// How groups take the file's lines: sequential (group g plays line g, cycling) or random
    /// (drawn from the match seed).
    /// (default sequential; only with --openings).
    #[arg(long, value_name = "ORDER")]
    pub openings_order: Option<String>,
    /// Random legal moves that open each group of games (default 4 for perfect-information
    /// games, 0 for hidden-information ones; 0 with --openings, which it cannot be combined with).
    #[arg(long, value_name = "K")]
    pub opening_plies: Option<usize>,
    /// Seed of the whole match (openings, deals, built-in players); random when absent (it is
    /// printed, so any match can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play only slice I of N of the match (`2/8`): the games whose rotation group is I − 1
    /// modulo N. With the same `--seed` and options, the N shards together play exactly the games
    /// of the unsharded match; `quatre stats` merges their `--out` files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Stop early on a verdict: `elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic]` (with
    /// `--shard` the LLR is shown but the shard plays all its games: the verdict comes from
    /// `quatre stats --sprt` on the merged files).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Write every game as one JSON object per line to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// With `--out`: keep the games the file already holds (a match stopped or killed part-way,
    /// run again with the same command) and play the others; the table and `--sprt` count every
    /// game. Each recorded game must be the one this match plays under its number (same seed,
    /// game, options, engines, limits, games and shard); one that did not start is played
    /// again, a last line cut short dropped. Without `--seed`, the file's seed is taken.
    #[arg(long)]
    pub resume: bool,
    /// End games early by the engines' own scores: `draw=CP/K[/PLY]` (every engine within ±CP
    /// centipawns for its last K moves, after PLY plies) and/or `win=CP/K` (one engine at least
    /// +CP for its last K moves while every other is at most −CP), e.g. `draw=10/8/80,win=600/4`.
    #[arg(long, value_name = "RULES")]
    pub adjudicate: Option<String>,
    /// Draw a game after this many plies (including the opening), whatever the rules say.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// Handshake for external engines that do not say `proto=`: uci or ugi (default: uci for
    /// two-seat games, ugi for more).
    #[arg(long)]
    pub proto: Option<String>,
    /// Log every line sent to and received from engines (and their stderr) on stderr.
    #[arg(long)]
    pub verbose: bool,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

/// Parses `match` arguments (without the leading `match`), for tests and embedding.
pub fn parse_args<I, S>(args: I) -> Result<MatchArgs, String>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    parse_subcommand("match", args)
}

/// Parses the arguments of subcommand `name` (without the leading name) into its argument
/// struct, as the command line would, for tests and embedding.
pub fn parse_subcommand<A, I, S>(name: &'static str, args: I) -> Result<A, String>
where
    A: clap::Args,
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let mut v: Vec<std::ffi::OsString> = vec![name.into()];
    v.extend(args.into_iter().map(Into::into));
    let m = A::augment_args(clap::Command::new(name))
        .try_get_matches_from(v)
        .map_err(|e| e.to_string())?;
    A::from_arg_matches(&m).map_err(|e| e.to_string())
}

/// SplitMix64 of `a` combined with `b`: independent-looking seeds from one match seed.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `quatre match`: plays the match and prints the table on stdout.
pub fn run(game: Option<&str>, args: &MatchArgs) -> Result<(), String> {
    let entry = games::resolve(game)?;
    let report = run_match(GameDef::from_entry(entry), args)?;
    let mut out = std::io::stdout().lock();
    match out
        .write_all(report.summary.as_bytes())
        .and_then(|()| out.flush())
    {
        // The reader went away (`quatre match … | head -1`): it has what it wanted, and the
        // games are in --out if one was given.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write the table: {}", e)),
        Ok(()) => Ok(()),
    }?;
    // Games that did not start are no results: the match is incomplete.
    match report.not_started {
        0 => Ok(()),
        k => Err(not_started_error(k, report.records.len())),
    }
}

/// The error of a match or of game files with `k` of `games` games that did not start.
pub fn not_started_error(k: usize, games: usize) -> String {
    format!(
        "{} of the {} games did not start (an engine failed to start; see the table): they are no results",
        k, games
    )
}

/// Writes to stderr, if it can still be written: a closed stderr must not stop a match.
fn to_stderr(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
}

/// What a finished match hands back.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Every game, in game order.
    pub records: Vec<GameRecord>,
    /// The engines' display names, in `--engine` order.
    pub engines: Vec<String>,
    /// The final table (what `quatre match` prints).
    pub summary: String,
    /// Engine 1 against the field.
    pub elo: Option<EloEstimate>,
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
    pub seed: u64,
    /// Weng-Lin ratings per engine (`--engine` order) for games of more than two seats.
    pub ratings: Option<Vec<stats::MultiRating>>,
    /// Games that did not start (an engine failed to start): recorded, but no results.
    pub not_started: usize,
}

/// Everything fixed for a match.
struct Plan {
    /// The engines of each pairing (one pairing, every engine, when there are as many engines
    /// as seats), and how many games each pairing plays.
    pairings: Vec<Vec<usize>>,
    per_pairing: usize,
    /// The opening file's lines and how groups take them.
    openings: Option<(Vec<openings::Opening>, openings::Order)>,
    /// The game numbers this run plays (every game, or a shard's), in order.
    indices: Vec<usize>,
    /// The number of games of the whole match (every shard's).
    planned: usize,
    heading: Heading,
    def: GameDef,
    engines: Vec<EngineSpec>,
    players: usize,
    concurrency: usize,
    opening_plies: usize,
    chance: bool,
    seed: u64,
    cfg: RefereeConfig,
    sprt: Option<Sprt>,
}

fn plan(mut def: GameDef, args: &MatchArgs) -> Result<Plan, String> {
    for o in &args.options {
        let (n, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option takes NAME=VALUE, not '{}'", o))?;
        def.set_option(n.trim(), v.trim())?;
    }
    let probe = def
        .start(None)
        .map_err(|e| format!("cannot start {}: {}", def.name, e))?;
    let players = probe.players();
    let hidden = probe.hidden_information();
    let chance = def.start(Some(1))?.to_text() != def.start(Some(2))?.to_text();

    let engines = engine_specs(&def, &args.engines, players, probe.as_ref())?;
    let tc = time_control(
        args,
        engines.iter().all(|e| e.tc.is_some() || e.nodes.is_some()),
    )?;
    let proto = match args.proto.as_deref().map(|p| p.to_ascii_lowercase()) {
        None => {
            if players == 2 {
                Proto::Uci
            } else {
                Proto::Ugi
            }
        }
        Some(p) if p == "uci" => Proto::Uci,
        Some(p) if p == "ugi" => Proto::Ugi,
        Some(p) => return Err(format!("--proto is uci or ugi, not '{}'", p)),
    };
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        mix(t, std::process::id() as u64) % 1_000_000_000
    });
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let per_pairing = args.games.unwrap_or(players);
    if per_pairing == 0 {
        return Err("--games must be at least 1".into());
    }
    let pairings = pairings(engines.len(), players, args.tournament.as_deref())?;
    if sprt.is_some() && pairings.len() > 1 {
        return Err("--sprt needs as many engines as seats (one pairing)".into());
    }
    let games = per_pairing.saturating_mul(pairings.len());
    if games > records::MAX_GAMES {
        let how = if pairings.len() > 1 {
            format!(" ({} pairings of {})", pairings.len(), per_pairing)
        } else {
            String::new()
        };
        return Err(format!(
            "--games: {} games{}, more than the {} a match may have",
            games,
            how,
            records::MAX_GAMES
        ));
    }
    let book = opening_book(args, &def)?;
    let opening_plies = match book {
        Some(_) => 0,
        None => args.opening_plies.unwrap_or(if hidden { 0 } else { 4 }),
    };
    if let Some(m) = args.max_plies {
        // The opening's plies count: a limit within them draws games no engine moved in.
        let longest = match &book {
            Some((lines, _)) => lines.iter().map(|o| o.moves.len()).max().unwrap_or(0),
            None => opening_plies,
        };
        if m == 0 {
            return Err("--max-plies must be at least 1".into());
        }
        if m <= longest {
            return Err(format!(
                "--max-plies {} ends games within their opening of {} plies, before an engine moves: give more than {}",
                m, longest, longest
            ));
        }
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let indices: Vec<usize> = (0..games)
        .filter(|i| {
            let group =
                (i / per_pairing) * per_pairing.div_ceil(players) + (i % per_pairing) / players;
            shard.is_none_or(|(k, n)| group % n == k - 1)
        })
        .collect();
    if opening_plies > 0 {
        // Draw every random opening this run plays now (each job draws its own again, the same
        // way): one too long for the game is refused before any game starts.
        let locals: std::collections::BTreeSet<usize> = indices
            .iter()
            .map(|i| (i % per_pairing) / players)
            .collect();
        for local in locals {
            group_opening(&def, seed, chance, local, opening_plies)?;
        }
    }
    let heading = Heading {
        title: "Match",
        game: def.name.clone(),
        options: def
            .given_options
            .iter()
            .map(|(k, v)| format!("{}={}", k, v))
            .collect(),
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        players,
        games: indices.len(),
        shard,
        limits: limits_text(&tc, &engines),
        opening: match (&args.openings, &book) {
            (Some(path), Some((lines, order))) => format!(
                "openings {} ({} lines, {})",
                path.display(),
                lines.len(),
                order.name()
            ),
            _ => format!("opening {} plies", opening_plies),
        },
        seed: Some(seed),
        sprt,
    };
    Ok(Plan {
        pairings,
        per_pairing,
        openings: book,
        indices,
        planned: games,
        heading,
        def,
        engines,
        players,
        concurrency: args.concurrency,
        opening_plies,
        chance,
        seed,
        cfg: RefereeConfig {
            tc,
            max_plies: args.max_plies,
            proto,
            handshake_timeout_ms: args.timeout.max(1),
            grace_ms: 1000,
            verbose: args.verbose,
            match_seed: Some(seed),
            adjudicate: args
                .adjudicate
                .as_deref()
                .map(adjudicate::Adjudication::parse)
                .transpose()?,
        },
        sprt,
    })
}

/// The pairings of a match of `engines` engines on `seats` seats: one (every engine) when they
/// are as many; else every `seats`-subset (round-robin) or engine 1 with every
/// (`seats` − 1)-subset of the others (gauntlet), in lexicographic order.
fn pairings(engines: usize, seats: usize, format: Option<&str>) -> Result<Vec<Vec<usize>>, String> {
    fn subsets(from: &[usize], k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for (i, &x) in from.iter().enumerate() {
            for mut rest in subsets(&from[i + 1..], k - 1) {
                rest.insert(0, x);
                out.push(rest);
            }
        }
        out
    }
    let all: Vec<usize> = (0..engines).collect();
    // The format is checked even when one pairing makes it moot.
    let gauntlet = match format.map(|f| f.to_ascii_lowercase()) {
        None => false,
        Some(f) if f == "round-robin" || f == "roundrobin" => false,
        Some(f) if f == "gauntlet" => true,
        Some(_) => {
            return Err(format!(
                "--tournament is round-robin or gauntlet, not '{}'",
                format.unwrap_or_default()
            ))
        }
    };
    if engines == seats {
        Ok(vec![all])
    } else if gauntlet {
        Ok(subsets(&all[1..], seats - 1)
            .into_iter()
            .map(|mut s| {
                s.insert(0, 0);
                s
            })
            .collect())
    } else {
        Ok(subsets(&all, seats))
    }
}

/// `--openings FILE` with its order, checked against the game; None for random openings.
fn opening_book(
    args: &MatchArgs,
    def: &GameDef,
) -> Result<Option<(Vec<openings::Opening>, openings::Order)>, String> {
    let order = openings::Order::parse(args.openings_order.as_deref().unwrap_or("sequential"))?;
    let Some(path) = &args.openings else {
        if args.openings_order.is_some() {
            return Err(
                "--openings-order orders the lines of --openings FILE: give the file".into(),
            );
        }
        return Ok(None);
    };
    if args.opening_plies.is_some_and(|k| k > 0) {
        return Err("--openings and --opening-plies: give one of them".into());
    }
    Ok(Some((openings::load(path, def)?, order)))
}

/// The limits of a move for the table: the match's, and the engines' own (tc=, nodes=).
fn limits_text(tc: &TimeControl, engines: &[EngineSpec]) -> String {
    let own: Vec<String> = engines
        .iter()
        .filter(|e| e.tc.is_some() || e.nodes.is_some())
        .map(|e| format!("{} {}", e.name, tc.for_engine(e).describe()))
        .collect();
    match (tc.describe(), own.is_empty()) {
        (d, true) => d,
        (d, false) if d.is_empty() => own.join("; "),
        (d, false) => format!("{} (own limits: {})", d, own.join("; ")),
    }
}

/// `--shard I/N`: 1 ≤ I ≤ N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "--shard takes I/N with 1 ≤ I ≤ N (e.g. 2/8), not '{}'",
            text
        )
    };
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<usize>().map_err(|_| bad())?,
        n.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The `--engine` specs, one per seat, checked against the game (a baseline player needs a game
/// that has one), with distinct names for the table (`name#2`…).
fn engine_specs(
    def: &GameDef,
    specs: &[String],
    players: usize,
    probe: &dyn games::AnyGame,
) -> Result<Vec<EngineSpec>, String> {
    let mut engines = specs
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < players {
        return Err(format!(
            "{} with these options has {} seats: give at least {} --engine (got {})",
            def.name,
            players,
            players,
            engines.len()
        ));
    }
    for e in &engines {
        if e.kind == EngineKind::Builtin(player::BuiltinKind::Baseline)
            && probe.baseline_move(&mut rng_from_seed(1)).is_none()
            && !probe.status().is_over()
        {
            return Err(format!("{} has no baseline player", def.name));
        }
    }
    // Distinct names for the table: a name given with name= is kept (two alike are refused);
    // an engine named after its command takes the first `#2`, `#3`… no other engine has.
    let mut used: Vec<String> = Vec::new();
    for e in engines.iter().filter(|e| e.named) {
        if used.contains(&e.name) {
            return Err(format!(
                "two engines are named '{}': give each its own name=",
                e.name
            ));
        }
        used.push(e.name.clone());
    }
    for e in engines.iter_mut().filter(|e| !e.named) {
        let base = e.name.clone();
        let mut k = 2;
        while used.contains(&e.name) {
            e.name = format!("{}#{}", base, k);
            k += 1;
        }
        used.push(e.name.clone());
    }
    // A built-in player's `Eval net` (or `Policy net`) needs a net that fits the game played:
    // refused before any game where none does. With an external engine, which may not know the
    // game, the game may be played under the rules such an engine reads
    // (`GameDef::for_foreign_engines`): a net that fits those passes here, and each game checks
    // its own rules once its engines have started (`referee::play`).
    let foreign_probe = match def.for_foreign_engines() {
        Some((foreign, _))
            if engines
                .iter()
                .any(|e| matches!(e.kind, EngineKind::External { .. })) =>
        {
            Some(foreign.start(None)?)
        }
        _ => None,
    };
    for e in &engines {
        if let Err(why) = e.check_game(probe) {
            if foreign_probe
                .as_ref()
                .is_none_or(|f| e.check_game(f.as_ref()).is_err())
            {
                return Err(why);
            }
        }
    }
    Ok(engines)
}

/// The limits of every move from `--tc`, `--movetime`, `--nodes` and `--depth` (at least one).
fn time_control(args: &MatchArgs, every_engine_has_tc: bool) -> Result<TimeControl, String> {
    let mut tc = TimeControl {
        margin_ms: args.margin,
        timeout_ms: args.timeout.max(1),
        movetime_ms: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        ..Default::default()
    };
    if let Some(t) = &args.tc {
        let (b, i) = TimeControl::parse_tc(t)?;
        tc.base_ms = Some(b);
        tc.inc_ms = i;
    }
    for (flag, v) in [
        ("--movetime", args.movetime),
        ("--nodes", args.nodes),
        ("--depth", args.depth.map(u64::from)),
    ] {
        if v == Some(0) {
            return Err(format!("{} must be at least 1", flag));
        }
    }
    let none = tc.base_ms.is_none() && tc.movetime_ms.is_none() && tc.nodes.is_none();
    if none && tc.depth.is_none() && !every_engine_has_tc {
        return Err(
            "give a limit per move: --tc BASE+INC, --movetime MS, --nodes N or --depth N (or tc= in every --engine)".into(),
        );
    }
    Ok(tc)
}

/// The draws [`opening`] makes before it gives up.
const OPENING_TRIES: u64 = 100;

/// The random opening of a group: `plies` random legal moves from the start (dealt from
/// `deal`), drawn again (up to [`OPENING_TRIES`] times) when the game ends inside the opening;
/// an error when every draw ended inside it (the opening is too long for the game).
pub fn opening(
    def: &GameDef,
    deal: Option<u64>,
    plies: usize,
    seed: u64,
) -> Result<Vec<String>, String> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    random_line(def.start(deal)?.as_ref(), plies, seed)
}

/// `plies` random legal moves from `from`, drawn from `seed` as [`opening`] draws them (again,
/// up to [`OPENING_TRIES`] times, when the game ends inside them).
pub fn random_line(
    from: &dyn games::AnyGame,
    plies: usize,
    seed: u64,
) -> Result<Vec<String>, String> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    for attempt in 0..OPENING_TRIES {
        let mut rng = rng_from_seed(mix(seed, attempt));
        let mut g = from.clone_box();
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies && !g.status().is_over() {
            let Some(m) = g.random_move(&mut rng) else {
                break;
            };
            g.play_text(&m)?;
            moves.push(m);
        }
        if !g.status().is_over() && moves.len() == plies {
            return Ok(moves);
        }
    }
    Err(format!(
        "{} ended within {} random plies in each of {} tries: ask for fewer plies",
        from.name(),
        plies,
        OPENING_TRIES
    ))
}

/// The deal seed of the `local`-th rotation group of every pairing (games with chance in their
/// start; None for the others).
fn group_deal(seed: u64, chance: bool, local: usize) -> Option<u64> {
    chance.then(|| mix(seed, 2 * local as u64 + 1) >> 1)
}

/// The random opening of the `local`-th rotation group of every pairing.
fn group_opening(
    def: &GameDef,
    seed: u64,
    chance: bool,
    local: usize,
    plies: usize,
) -> Result<Vec<String>, String> {
    opening(
        def,
        group_deal(seed, chance, local),
        plies,
        mix(seed, 2 * local as u64 + 2),
    )
    .map_err(|e| format!("--opening-plies {}: {}", plies, e))
}

impl Plan {
    fn job(&self, index: usize) -> Result<Job, String> {
        let n = self.players;
        // Pairing p plays its games in rotation groups; every pairing plays the same openings
        // (group `local` of each pairing starts alike).
        let (p, k) = (index / self.per_pairing, index % self.per_pairing);
        let local = k / n;
        let group = p * self.per_pairing.div_ceil(n) + local;
        let rot = k % n;
        let pairing = &self.pairings[p];
        let mut deal_seed = group_deal(self.seed, self.chance, local);
        let (start, opening) = match &self.openings {
            Some((book, order)) => {
                let o = &book[order.pick(book.len(), local, self.seed)];
                if o.start.is_some() {
                    // The line's position is the whole start: no deal.
                    deal_seed = None;
                }
                (o.start.clone(), o.moves.clone())
            }
            None => (
                None,
                group_opening(&self.def, self.seed, self.chance, local, self.opening_plies)?,
            ),
        };
        Ok(Job {
            index,
            group,
            // The pairing's engine j sits at seat (j + rot) % n.
            seats: (0..n).map(|s| pairing[(s + n - rot) % n]).collect(),
            deal_seed,
            start,
            opening,
            seed: mix(self.seed ^ 0x5EE_D0FA_2E7A, index as u64),
        })
    }
}

/// Plays a match of `def` as `args` say, and returns the records and the table. Runs the games
/// on `--concurrency` threads; prints the progress line on stderr (unless `--quiet`) and writes
/// `--out` as games finish (in game order).
pub fn run_match(def: GameDef, args: &MatchArgs) -> Result<MatchReport, String> {
    let resume_from = match (args.resume, args.out.as_deref()) {
        (false, _) => None,
        (true, None) => return Err("--resume needs --out, the game file to finish".into()),
        (true, Some(p)) => Some(p),
    };
    // A match resumed without --seed plays on with the seed its file was started with.
    let seeded;
    let args = match resume_from {
        Some(p) if args.seed.is_none() => match resume::file_seed(p)? {
            Some(seed) => {
                seeded = MatchArgs {
                    seed: Some(seed),
                    ..args.clone()
                };
                &seeded
            }
            None => args,
        },
        _ => args,
    };
    let mut plan = plan(def, args)?;
    let kept = match resume_from {
        Some(p) => resume::kept(&plan, p)?,
        None => resume::Kept::default(),
    };
    let mut tally = Tally::new(plan.players, plan.engines.len());
    let mut llr = None;
    let mut verdict = None;
    for rec in &kept.records {
        if tally.add(rec) {
            sprt_step(&plan, &tally, &mut llr, &mut verdict);
        }
    }
    let done: std::collections::BTreeSet<usize> = kept.records.iter().map(|r| r.game).collect();
    plan.indices.retain(|i| !done.contains(i));
    if verdict.is_some() {
        // The kept games already decide the SPRT.
        plan.indices.clear();
    }
    let resumed = kept.records.len();
    if let (Some(p), false) = (resume_from, args.quiet) {
        to_stderr(&format!(
            "{}\n",
            resume::notice(p, &kept, plan.indices.len())
        ));
    }
    let plan = Arc::new(plan);
    let mut file = GameFile::create(args.out.as_deref(), plan.indices.clone(), kept.records)?;
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(usize, Result<Played, String>)>();
    let (workers, acks) = spawn_workers(&plan, &stop, tx)?;

    let tty = std::io::stderr().is_terminal();
    let mut error = None;
    for (w, r) in rx {
        // The worker waits for this before it takes another game, so that a game decided on
        // here (an SPRT's verdict, a failure) stops the match before the next one starts:
        // with one thread the same seed gives the same file (docs/arena.md, SPRT).
        let ack = &acks[w];
        let mut rec = match r {
            Ok(Played {
                record,
                unstartable,
            }) => {
                if let Some((e, why)) = unstartable {
                    // Every game would be lost the same way: stop, and say why (the game,
                    // lost by a crash at the start, is still recorded).
                    stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(format!(
                        "engine {} ({}): {}",
                        e + 1,
                        plan.engines[e].name,
                        why
                    ));
                }
                record
            }
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                error.get_or_insert(e);
                let _ = ack.send(());
                continue;
            }
        };
        rec.planned = Some(plan.planned);
        rec.shard = plan.heading.shard.map(|(i, n)| [i, n]);
        if !rec.started && tally.games() == 0 {
            // The engines have not started once: every game would most likely fail the same
            // way, so stop rather than record a match of games that were never played.
            stop.store(true, Ordering::Relaxed);
            let e = rec.offender.map(|s| rec.engines[s]);
            error.get_or_insert(match e {
                Some(e) => format!(
                    "engine {} ({}) did not start in game {}: {}; no game was played",
                    e + 1,
                    plan.engines[e].name,
                    rec.game + 1,
                    rec.reason
                ),
                None => format!("game {} did not start: {}", rec.game + 1, rec.reason),
            });
        }
        if tally.add(&rec) && sprt_step(&plan, &tally, &mut llr, &mut verdict) {
            stop.store(true, Ordering::Relaxed);
        }
        if !args.quiet {
            let line = progress_line(&plan.heading, &tally, llr, started, resumed);
            if tty {
                to_stderr(&format!("\r\x1b[2K{}", line));
            } else {
                to_stderr(&format!("{}\n", line));
            }
        }
        file.add(rec)?;
        let _ = ack.send(());
    }
    if !args.quiet && tty {
        to_stderr("\n");
    }
    for w in workers {
        let _ = w.join();
    }
    let mut records = file.finish()?;
    if !records.is_sorted_by_key(|r| r.game) {
        // Games played again (not started, or after a gap) came after the kept ones: the file
        // is put in game order, as the match run at once writes it.
        records.sort_by_key(|r| r.game);
        if let (Some(p), true) = (args.out.as_deref(), resumed > 0) {
            rewrite(p, &records)?;
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    let ratings = (plan.players > 2 || plan.pairings.len() > 1).then(|| {
        let games = records
            .iter()
            .filter(|r| r.started)
            .map(|r| (&r.engines[..], &r.result[..]));
        stats::weng_lin(plan.engines.len(), games)
    });
    let mut count = games_count(&plan.heading, &tally);
    if resumed > 0 {
        count += &format!(" ({} of them kept from the file resumed)", resumed);
    }
    let text = summary_counting(
        &plan.heading,
        &tally,
        &count,
        llr,
        verdict,
        ratings.as_deref(),
        started.elapsed(),
    );
    Ok(MatchReport {
        records,
        engines: plan.engines.iter().map(|e| e.name.clone()).collect(),
        summary: text,
        elo: tally.elo(),
        llr,
        verdict,
        seed: plan.seed,
        ratings,
        not_started: tally.not_started(),
    })
}

/// Updates the SPRT's LLR (and its verdict) after a rotation group completes; true when the
/// verdict is in and the match stops. A shard sees part of the match: its LLR is shown, the
/// verdict is the merge's.
fn sprt_step(
    plan: &Plan,
    tally: &Tally,
    llr: &mut Option<f64>,
    verdict: &mut Option<Verdict>,
) -> bool {
    let Some(sp) = plan.sprt else {
        return false;
    };
    let l = sp.llr(&tally.group_bins, plan.players);
    *llr = Some(l);
    if verdict.is_none() && plan.heading.shard.is_none() {
        *verdict = sp.verdict(l);
        return verdict.is_some();
    }
    false
}

/// Starts `--concurrency` threads that take the next game number, play it and send its record
/// with the worker's number, until every game is played or `stop` is set. After each record a
/// worker waits for its acknowledgement (the second list: one sender a worker) before it looks
/// at `stop` again.
#[allow(clippy::type_complexity)]
fn spawn_workers(
    plan: &Arc<Plan>,
    stop: &Arc<AtomicBool>,
    tx: mpsc::Sender<(usize, Result<Played, String>)>,
) -> Result<(Vec<std::thread::JoinHandle<()>>, Vec<mpsc::Sender<()>>), String> {
    let next = Arc::new(AtomicUsize::new(0));
    // Whether a game has got under way (its engines started).
    let played = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    let mut acks = Vec::new();
    for w in 0..plan.concurrency.min(plan.indices.len()) {
        let (plan, next, stop, tx) = (plan.clone(), next.clone(), stop.clone(), tx.clone());
        let played = played.clone();
        let (ack_tx, ack_rx) = mpsc::channel::<()>();
        acks.push(ack_tx);
        workers.push(
            std::thread::Builder::new()
                .name(format!("arena {}", w))
                .spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = plan.indices.get(k) else {
                        return;
                    };
                    let r = plan
                        .job(i)
                        .and_then(|job| referee::play(&plan.def, &plan.engines, &job, &plan.cfg));
                    match &r {
                        Ok(p) if p.record.started => played.store(true, Ordering::Relaxed),
                        // A program that cannot be run, or engines that have never started
                        // yet: no more games, each would fail the same way.
                        Ok(p) if p.unstartable.is_some() || !played.load(Ordering::Relaxed) => {
                            stop.store(true, Ordering::Relaxed)
                        }
                        _ => {}
                    }
                    if tx.send((w, r)).is_err() || ack_rx.recv().is_err() {
                        return;
                    }
                })
                .map_err(|e| format!("cannot start a worker thread: {}", e))?,
        );
    }
    Ok((workers, acks))
}

/// The records of a match in game order, written to `--out` (one JSON object per line) as soon
/// as every earlier game is in, whatever order the concurrent games finish in.
struct GameFile {
    out: Option<std::io::BufWriter<std::fs::File>>,
    pending: BTreeMap<usize, GameRecord>,
    /// The game numbers in the order they are written, and how many are written.
    order: Vec<usize>,
    next: usize,
    records: Vec<GameRecord>,
}

impl GameFile {
    /// The file at `path` holding `kept` (a resumed match's games, written first), to which the
    /// games of `order` are added.
    fn create(
        path: Option<&std::path::Path>,
        order: Vec<usize>,
        kept: Vec<GameRecord>,
    ) -> Result<GameFile, String> {
        let out = match path {
            Some(p) => Some(std::io::BufWriter::new(if kept.is_empty() {
                std::fs::File::create(p)
                    .map_err(|e| format!("cannot write {}: {}", p.display(), e))?
            } else {
                rewrite(p, &kept)?
            })),
            None => None,
        };
        Ok(GameFile {
            out,
            pending: BTreeMap::new(),
            order,
            next: 0,
            records: kept,
        })
    }

    fn write(&mut self, rec: GameRecord) -> Result<(), String> {
        if let Some(f) = self.out.as_mut() {
            let line = serde_json::to_string(&rec).map_err(|e| e.to_string())?;
            writeln!(f, "{}", line)
                .and_then(|_| f.flush())
                .map_err(|e| format!("cannot write the game file: {}", e))?;
        }
        self.records.push(rec);
        Ok(())
    }

    /// A finished game: written with every following one already in.
    fn add(&mut self, rec: GameRecord) -> Result<(), String> {
        self.pending.insert(rec.game, rec);
        while let Some(rec) = self
            .order
            .get(self.next)
            .and_then(|g| self.pending.remove(g))
        {
            self.write(rec)?;
            self.next += 1;
        }
        Ok(())
    }

    /// The match is over: games after a gap (a stopped match) are still recorded.
    fn finish(mut self) -> Result<Vec<GameRecord>, String> {
        for (_, rec) in std::mem::take(&mut self.pending) {
            self.write(rec)?;
        }
        Ok(self.records)
    }
}

/// Writes `kept` to `path` through a file beside it renamed over it (a resumed file never
/// holds less than it did, whenever the match is stopped), then opens it to add games. A
/// symbolic link is followed (the file it names is replaced, the link kept), and the file keeps
/// its permissions.
fn rewrite(path: &std::path::Path, kept: &[GameRecord]) -> Result<std::fs::File, String> {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut name = path.as_os_str().to_owned();
    name.push(".resuming");
    let tmp = PathBuf::from(name);
    let cannot = |e: std::io::Error| format!("cannot write {}: {}", tmp.display(), e);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(cannot)?);
    for rec in kept {
        let line = serde_json::to_string(rec).map_err(|e| e.to_string())?;
        writeln!(f, "{}", line).map_err(cannot)?;
    }
    let f = f.into_inner().map_err(|e| cannot(e.into_error()))?;
    if let Ok(m) = std::fs::metadata(&path) {
        f.set_permissions(m.permissions()).map_err(cannot)?;
    }
    f.sync_all().map_err(cannot)?;
    std::fs::rename(&tmp, &path)
        .map_err(|e| format!("cannot replace {}: {}", path.display(), e))?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot write {}: {}", path.display(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_parse() {
        let a = parse_args([
            "--engine",
            "builtin:mcts option.Threads=1",
            "--engine",
            "builtin:random",
            "--tc",
            "10+0.1",
            "--sprt",
            "elo0=0,elo1=10",
            "--games",
            "8",
        ])
        .unwrap();
        assert_eq!(a.engines.len(), 2);
        assert_eq!(a.margin, 100);
        assert_eq!(a.games, Some(8));
        assert!(parse_args(["--tc", "1"]).is_err());
    }

    #[test]
    fn seeds_mix() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(0, 1), mix(1, 0));
        assert_eq!(mix(7, 3), mix(7, 3));
    }
}
