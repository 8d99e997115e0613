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

pub mod player;
pub mod referee;
pub mod stats;

use crate::game::rng_from_seed;
use crate::games;
use player::{EngineKind, EngineSpec, Proto};
use referee::{GameDef, GameRecord, Job, Played, RefereeConfig, TimeControl};
use stats::{EloEstimate, Sprt, Verdict};
use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// `quatre match` arguments (`--game` is the global flag).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// An engine: an external command with its arguments (`"./quatre option.Threads=1"`) or a
    /// built-in player (`builtin:random`, `builtin:mcts`, `builtin:alphabeta`,
    /// `builtin:baseline`). `option.Name=Value` tokens become `setoption` lines (search
    /// parameters for built-ins), `name=N` names it, `proto=uci|ugi` picks the handshake.
    /// One per seat of the game (2 to 4).
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
    /// Number of games (default: one game per seat rotation, 2 for two-seat games).
    #[arg(long)]
    pub games: Option<usize>,
    /// Games played at once (each on its own thread with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Random legal moves that open each group of games (default 4 for perfect-information
    /// games, 0 for hidden-information ones).
    #[arg(long, value_name = "K")]
    pub opening_plies: Option<usize>,
    /// Seed of the whole match (openings, deals, built-in players); random when absent (it is
    /// printed, so any match can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop early on a verdict: `elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic]`.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Write every game as one JSON object per line to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
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
    #[derive(clap::Parser)]
    struct Wrap {
        #[command(flatten)]
        a: MatchArgs,
    }
    use clap::Parser;
    let mut v: Vec<std::ffi::OsString> = vec!["match".into()];
    v.extend(args.into_iter().map(Into::into));
    Wrap::try_parse_from(v)
        .map(|w| w.a)
        .map_err(|e| e.to_string())
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
    }
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
}

/// Everything fixed for a match.
struct Plan {
    def: GameDef,
    engines: Vec<EngineSpec>,
    players: usize,
    games: usize,
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

    let mut engines = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() != players {
        return Err(format!(
            "{} with these options has {} seats: give {} --engine (got {})",
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
    // Distinct names for the table.
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut k = 2;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            engines[i].name = format!("{}#{}", base, k);
            k += 1;
        }
    }

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
    if tc.base_ms.is_none() && tc.movetime_ms.is_none() && tc.nodes.is_none() && tc.depth.is_none()
    {
        return Err(
            "give a limit per move: --tc BASE+INC, --movetime MS, --nodes N or --depth N".into(),
        );
    }
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
    let games = args.games.unwrap_or(players);
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    Ok(Plan {
        def,
        engines,
        players,
        games,
        concurrency: args.concurrency.clamp(1, 256),
        opening_plies: args.opening_plies.unwrap_or(if hidden { 0 } else { 4 }),
        chance,
        seed,
        cfg: RefereeConfig {
            tc,
            max_plies: args.max_plies,
            proto,
            handshake_timeout_ms: args.timeout.max(1),
            grace_ms: 1000,
            verbose: args.verbose,
        },
        sprt,
    })
}

/// The random opening of a group: `plies` random legal moves from the start (dealt from
/// `deal`), drawn again (up to 100 times) when the game ends inside the opening.
fn opening(
    def: &GameDef,
    deal: Option<u64>,
    plies: usize,
    seed: u64,
) -> Result<Vec<String>, String> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    for attempt in 0..100 {
        let mut rng = rng_from_seed(mix(seed, attempt));
        let mut g = def.start(deal)?;
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
    Ok(Vec::new())
}

impl Plan {
    fn job(&self, index: usize) -> Result<Job, String> {
        let n = self.players;
        let group = index / n;
        let rot = index % n;
        let deal_seed = self
            .chance
            .then(|| mix(self.seed, 2 * group as u64 + 1) >> 1);
        let opening = opening(
            &self.def,
            deal_seed,
            self.opening_plies,
            mix(self.seed, 2 * group as u64 + 2),
        )?;
        Ok(Job {
            index,
            group,
            // Engine e sits at seat (e + rot) % n.
            seats: (0..n).map(|s| (s + n - rot) % n).collect(),
            deal_seed,
            opening,
            seed: mix(self.seed ^ 0x5EE_D0FA_2E7A, index as u64),
        })
    }
}

/// Results so far, per engine and for engine 1 against the field.
#[derive(Clone, Debug)]
struct EngineTally {
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    reward: f64,
    /// Sum of per-game scores against the field.
    score: f64,
    /// W/D/L per seat.
    per_seat: Vec<[usize; 3]>,
    faults: BTreeMap<String, usize>,
}

#[derive(Clone, Debug)]
struct Tally {
    players: usize,
    engines: Vec<EngineTally>,
    /// Engine 1's per-game scores: bins 0, 1/(2(N-1)), …, 1.
    game_bins: Vec<f64>,
    /// Engine 1's head-to-head comparisons with each other seat.
    h2h: [usize; 3],
    /// Rotation groups in progress: (games, sum of engine 1's scores).
    open_groups: HashMap<usize, (usize, f64)>,
    /// Complete groups binned by engine 1's mean score (the pentanomial for two seats).
    group_bins: Vec<f64>,
    endings: BTreeMap<String, usize>,
    games: usize,
}

/// Score of the engine at `seat` against the other seats: mean of 1 / 0.5 / 0 comparisons.
fn score_vs_field(result: &[f32], seat: usize) -> (f64, [usize; 3]) {
    let mut wdl = [0; 3];
    let mut s = 0.0;
    for (j, &r) in result.iter().enumerate() {
        if j == seat {
            continue;
        }
        let d = result[seat] - r;
        if d > 1e-4 {
            wdl[0] += 1;
            s += 1.0;
        } else if d < -1e-4 {
            wdl[2] += 1;
        } else {
            wdl[1] += 1;
            s += 0.5;
        }
    }
    (s / (result.len() - 1).max(1) as f64, wdl)
}

impl Tally {
    fn new(players: usize, engines: usize) -> Tally {
        Tally {
            players,
            engines: vec![
                EngineTally {
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    reward: 0.0,
                    score: 0.0,
                    per_seat: vec![[0; 3]; players],
                    faults: BTreeMap::new(),
                };
                engines
            ],
            game_bins: vec![0.0; 2 * (players.max(2) - 1) + 1],
            h2h: [0; 3],
            open_groups: HashMap::new(),
            group_bins: vec![0.0; stats::group_bins(players)],
            endings: BTreeMap::new(),
            games: 0,
        }
    }

    /// Adds a game; returns true when it completed a rotation group.
    fn add(&mut self, rec: &GameRecord) -> bool {
        self.games += 1;
        let n = self.players;
        let ending = if rec.termination == referee::termination::RULES {
            rec.reason.clone()
        } else {
            rec.termination.clone()
        };
        *self.endings.entry(ending).or_default() += 1;
        let mut e1_score = 0.0;
        for (seat, &e) in rec.engines.iter().enumerate() {
            let t = &mut self.engines[e];
            let r = rec.result.get(seat).copied().unwrap_or(0.0);
            t.games += 1;
            t.reward += r as f64;
            let k = if r >= 0.999 {
                0
            } else if r <= 1e-4 {
                2
            } else {
                1
            };
            match k {
                0 => t.wins += 1,
                1 => t.draws += 1,
                _ => t.losses += 1,
            }
            t.per_seat[seat][k] += 1;
            let (s, wdl) = score_vs_field(&rec.result, seat);
            t.score += s;
            if rec.offender == Some(seat) {
                *t.faults.entry(rec.termination.clone()).or_default() += 1;
            }
            if e == 0 {
                e1_score = s;
                for (h, w) in self.h2h.iter_mut().zip(wdl) {
                    *h += w;
                }
            }
        }
        let bins = self.game_bins.len() - 1;
        self.game_bins[((e1_score * bins as f64).round() as usize).min(bins)] += 1.0;
        let g = self.open_groups.entry(rec.group).or_insert((0, 0.0));
        g.0 += 1;
        g.1 += e1_score;
        if g.0 == n {
            let mean = g.1 / n as f64;
            self.open_groups.remove(&rec.group);
            self.group_bins[stats::group_bin(mean, n)] += 1.0;
            true
        } else {
            false
        }
    }

    fn elo(&self) -> Option<EloEstimate> {
        let bins = self.game_bins.len() - 1;
        let hist: Vec<(f64, f64)> = self
            .game_bins
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / bins as f64, c))
            .collect();
        stats::elo_estimate(&hist)
    }

    fn los(&self) -> f64 {
        stats::los(self.h2h[0] as f64, self.h2h[2] as f64)
    }

    fn complete_groups(&self) -> f64 {
        self.group_bins.iter().sum()
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", x + 0.0)
    }
}

fn elo_text(e: &EloEstimate) -> String {
    if e.elo.is_infinite() {
        let bound = if e.elo > 0.0 { e.lower } else { e.upper };
        format!("{} (95% bound {})", fmt_elo(e.elo), fmt_elo(bound))
    } else {
        format!(
            "{} ± {:.1} (95%: {} … {})",
            fmt_elo(e.elo),
            e.error,
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        )
    }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}s", s)
    }
}

fn progress_line(plan: &Plan, t: &Tally, llr: Option<f64>, started: Instant) -> String {
    let e1 = &t.engines[0];
    let mut s = format!(
        "[{}/{}] {}: +{} ={} -{} ({:.1}%)",
        t.games,
        plan.games,
        plan.engines[0].name,
        e1.wins,
        e1.draws,
        e1.losses,
        100.0 * e1.score / e1.games.max(1) as f64
    );
    if let Some(e) = t.elo() {
        if e.elo.is_infinite() {
            s += &format!(" Elo {}", fmt_elo(e.elo));
        } else {
            s += &format!(" Elo {} ± {:.0}", fmt_elo(e.elo), e.error);
        }
    }
    if let (Some(l), Some(sp)) = (llr, plan.sprt) {
        let (lo, hi) = sp.bounds();
        s += &format!(" LLR {:.2} [{:.2}, {:.2}]", l, lo, hi);
    }
    if t.games < plan.games && t.games > 0 {
        let el = started.elapsed();
        let left = el.mul_f64((plan.games - t.games) as f64 / t.games as f64);
        s += &format!(" ETA {}", fmt_duration(left));
    }
    s
}

fn summary(
    plan: &Plan,
    t: &Tally,
    llr: Option<f64>,
    verdict: Option<Verdict>,
    elapsed: Duration,
) -> String {
    let mut out = String::new();
    let n = plan.players;
    let opts: Vec<String> = plan
        .def
        .given_options
        .iter()
        .map(|(k, v)| format!("{}={}", k, v))
        .collect();
    out += &format!(
        "Match: {}{} — {} games of {} played, {}, opening {} plies, seed {}, {}\n",
        plan.def.name,
        if opts.is_empty() {
            String::new()
        } else {
            format!(" ({})", opts.join(" "))
        },
        t.games,
        plan.games,
        plan.cfg.tc.describe(),
        plan.opening_plies,
        plan.seed,
        fmt_duration(elapsed)
    );
    let w = plan
        .engines
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    out += &format!(
        "{:>2} {:<w$} {:>5} {:>5} {:>5} {:>5} {:>7} {:>7}",
        "#",
        "Engine",
        "Games",
        "W",
        "D",
        "L",
        "Score",
        "Reward",
        w = w
    );
    for s in 0..n {
        out += &format!("  {:>11}", format!("p{} W/D/L", s + 1));
    }
    out += "  Faults\n";
    for (i, (e, spec)) in t.engines.iter().zip(&plan.engines).enumerate() {
        out += &format!(
            "{:>2} {:<w$} {:>5} {:>5} {:>5} {:>5} {:>6.1}% {:>7.3}",
            i + 1,
            spec.name,
            e.games,
            e.wins,
            e.draws,
            e.losses,
            100.0 * e.score / e.games.max(1) as f64,
            e.reward / e.games.max(1) as f64,
            w = w
        );
        for s in &e.per_seat {
            out += &format!("  {:>11}", format!("{}/{}/{}", s[0], s[1], s[2]));
        }
        let faults: Vec<String> = e
            .faults
            .iter()
            .map(|(k, v)| format!("{} {}", k, v))
            .collect();
        out += &format!(
            "  {}\n",
            if faults.is_empty() {
                "-".to_string()
            } else {
                faults.join(", ")
            }
        );
    }
    let who = if n == 2 {
        format!("{} vs {}", plan.engines[0].name, plan.engines[1].name)
    } else {
        format!("{} vs the field", plan.engines[0].name)
    };
    match t.elo() {
        Some(e) => {
            let draws = if n == 2 {
                format!(
                    ", draw ratio {:.1}%",
                    100.0 * t.engines[0].draws as f64 / t.games.max(1) as f64
                )
            } else {
                String::new()
            };
            out += &format!(
                "Elo ({}): {}, LOS {:.1}%{}\n",
                who,
                elo_text(&e),
                100.0 * t.los(),
                draws
            );
        }
        None => out += "Elo: no games\n",
    }
    let groups = t.complete_groups();
    if groups > 0.0 {
        if n == 2 {
            out += &format!(
                "Pentanomial (game pairs, engine 1 scoring 0, 0.5, 1, 1.5, 2): [{}]",
                t.group_bins
                    .iter()
                    .map(|c| format!("{}", *c as u64))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        } else {
            out += &format!("Rotation groups complete: {}", groups as u64);
        }
        if let Some((ne, err)) = stats::normalized_elo(&t.group_bins, n) {
            out += &format!(", nElo {:+.1} ± {:.1}", ne, err);
        }
        out += "\n";
    }
    if let Some(sp) = plan.sprt {
        let (lo, hi) = sp.bounds();
        let state = match verdict {
            Some(Verdict::H1) => "H1 accepted (elo1)".to_string(),
            Some(Verdict::H0) => "H0 accepted (elo0)".to_string(),
            None => "no verdict yet".to_string(),
        };
        out += &format!(
            "SPRT {}: LLR {:.2} [{:.2}, {:.2}] — {}\n",
            sp.describe(),
            llr.unwrap_or(0.0),
            lo,
            hi,
            state
        );
    }
    let endings: Vec<String> = t
        .endings
        .iter()
        .map(|(k, v)| format!("{} {}", k, v))
        .collect();
    out += &format!("Endings: {}\n", endings.join(", "));
    out
}

/// Plays a match of `def` as `args` say, and returns the records and the table. Runs the games
/// on `--concurrency` threads; prints the progress line on stderr (unless `--quiet`) and writes
/// `--out` as games finish (in game order).
pub fn run_match(def: GameDef, args: &MatchArgs) -> Result<MatchReport, String> {
    let plan = Arc::new(plan(def, args)?);
    let mut out = match &args.out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {}", p.display(), e))?,
        )),
        None => None,
    };
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<Played, String>>();
    let mut workers = Vec::new();
    for w in 0..plan.concurrency.min(plan.games) {
        let (plan, next, stop, tx) = (plan.clone(), next.clone(), stop.clone(), tx.clone());
        workers.push(
            std::thread::Builder::new()
                .name(format!("arena {}", w))
                .spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= plan.games {
                        return;
                    }
                    let r = plan
                        .job(i)
                        .and_then(|job| referee::play(&plan.def, &plan.engines, &job, &plan.cfg));
                    if matches!(&r, Ok(p) if p.unstartable.is_some()) {
                        // No more games: each would fail the same way.
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send(r).is_err() {
                        return;
                    }
                })
                .map_err(|e| format!("cannot start a worker thread: {}", e))?,
        );
    }
    drop(tx);

    let tty = std::io::stderr().is_terminal();
    let mut tally = Tally::new(plan.players, plan.engines.len());
    let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut next_to_write = 0;
    let mut records = Vec::new();
    let mut llr = None;
    let mut verdict = None;
    let mut error = None;
    for r in rx {
        let rec = match r {
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
                continue;
            }
        };
        if tally.add(&rec) {
            if let Some(sp) = plan.sprt {
                let l = sp.llr(&tally.group_bins, plan.players);
                llr = Some(l);
                if verdict.is_none() {
                    verdict = sp.verdict(l);
                    if verdict.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        if !args.quiet {
            let line = progress_line(&plan, &tally, llr, started);
            if tty {
                to_stderr(&format!("\r\x1b[2K{}", line));
            } else {
                to_stderr(&format!("{}\n", line));
            }
        }
        pending.insert(rec.game, rec);
        while let Some(rec) = pending.remove(&next_to_write) {
            if let Some(f) = out.as_mut() {
                let line = serde_json::to_string(&rec).map_err(|e| e.to_string())?;
                writeln!(f, "{}", line)
                    .and_then(|_| f.flush())
                    .map_err(|e| format!("cannot write the game file: {}", e))?;
            }
            records.push(rec);
            next_to_write += 1;
        }
    }
    if !args.quiet && tty {
        to_stderr("\n");
    }
    for w in workers {
        let _ = w.join();
    }
    // Games after a gap (a stopped match) are still recorded.
    for (_, rec) in std::mem::take(&mut pending) {
        if let Some(f) = out.as_mut() {
            let line = serde_json::to_string(&rec).map_err(|e| e.to_string())?;
            writeln!(f, "{}", line).map_err(|e| format!("cannot write the game file: {}", e))?;
        }
        records.push(rec);
    }
    if let Some(f) = out.as_mut() {
        f.flush()
            .map_err(|e| format!("cannot write the game file: {}", e))?;
    }
    if let Some(e) = error {
        return Err(e);
    }
    let text = summary(&plan, &tally, llr, verdict, started.elapsed());
    Ok(MatchReport {
        records,
        engines: plan.engines.iter().map(|e| e.name.clone()).collect(),
        summary: text,
        elo: tally.elo(),
        llr,
        verdict,
        seed: plan.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_scores() {
        assert_eq!(score_vs_field(&[1.0, 0.0], 0), (1.0, [1, 0, 0]));
        assert_eq!(score_vs_field(&[0.5, 0.5], 1), (0.5, [0, 1, 0]));
        // Three seats, seat 0 shares the win with seat 2.
        let (s, wdl) = score_vs_field(&[0.5, 0.0, 0.5], 0);
        assert_eq!(wdl, [1, 1, 0]);
        assert!((s - 0.75).abs() < 1e-9);
    }

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
