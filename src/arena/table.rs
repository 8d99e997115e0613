//! The match's results table: the running tally of every game (per engine, per seat, engine 1
//! against the field, rotation groups for the pentanomial and nElo), the progress line and the
//! final summary.

use super::referee::{self, GameRecord};
use super::stats::{self, EloEstimate, Sprt, Verdict};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

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
    /// Its per-game scores against the field, binned as `Tally::game_bins`.
    bins: Vec<f64>,
}

impl EngineTally {
    /// Its reward share: its points over the points its games gave out (every game gives 1,
    /// split among the seats by their rewards), i.e. its mean reward.
    fn share(&self) -> f64 {
        self.reward / self.games.max(1) as f64
    }

    /// Its mean score against the field.
    fn score_vs_field(&self) -> f64 {
        self.score / self.games.max(1) as f64
    }
}

#[derive(Clone, Debug)]
pub(super) struct Tally {
    players: usize,
    engines: Vec<EngineTally>,
    /// Engine 1's per-game scores: bins 0, 1/(2(N-1)), …, 1.
    game_bins: Vec<f64>,
    /// Engine 1's head-to-head comparisons with each other seat.
    h2h: [usize; 3],
    /// Rotation groups in progress: (games, sum of engine 1's scores).
    open_groups: HashMap<usize, (usize, f64)>,
    /// Complete groups binned by engine 1's mean score (the pentanomial for two seats).
    pub(super) group_bins: Vec<f64>,
    endings: BTreeMap<String, usize>,
    /// Games played (games that did not start are not).
    games: usize,
    /// Games that never got under way (an engine failed to start): their game number, the
    /// engine that failed and why. They are left out of every figure.
    not_started: Vec<(usize, String, String)>,
}

/// The Elo of per-game scores counted in equal bins from 0 to 1.
fn elo_of_bins(bins: &[f64]) -> Option<EloEstimate> {
    let last = bins.len() - 1;
    let hist: Vec<(f64, f64)> = bins
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last as f64, c))
        .collect();
    stats::elo_estimate(&hist)
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
    pub(super) fn new(players: usize, engines: usize) -> Tally {
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
                    bins: vec![0.0; 2 * (players.max(2) - 1) + 1],
                };
                engines
            ],
            game_bins: vec![0.0; 2 * (players.max(2) - 1) + 1],
            h2h: [0; 3],
            open_groups: HashMap::new(),
            group_bins: vec![0.0; stats::group_bins(players)],
            endings: BTreeMap::new(),
            games: 0,
            not_started: Vec::new(),
        }
    }

    /// Adds a game; returns true when it completed a rotation group. A game that did not start
    /// is only noted: it is no result.
    pub(super) fn add(&mut self, rec: &GameRecord) -> bool {
        if !rec.started {
            let who = rec
                .offender
                .and_then(|s| rec.seats.get(s).cloned())
                .unwrap_or_else(|| "an engine".into());
            self.not_started.push((rec.game, who, rec.reason.clone()));
            return false;
        }
        self.games += 1;
        let n = self.players;
        let ending = if rec.termination == referee::termination::RULES {
            rec.reason.clone()
        } else {
            rec.termination.clone()
        };
        *self.endings.entry(ending).or_default() += 1;
        let mut e1_score = None;
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
            let last = t.bins.len() - 1;
            t.bins[((s * last as f64).round() as usize).min(last)] += 1.0;
            if rec.offender == Some(seat) {
                *t.faults.entry(rec.termination.clone()).or_default() += 1;
            }
            if e == 0 {
                e1_score = Some(s);
                for (h, w) in self.h2h.iter_mut().zip(wdl) {
                    *h += w;
                }
            }
        }
        // Engine 1's bins and groups: only its own games (a round-robin has others).
        let Some(e1_score) = e1_score else {
            return false;
        };
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

    /// Games played.
    pub(super) fn games(&self) -> usize {
        self.games
    }

    /// Games that did not start (an engine failed to start).
    pub(super) fn not_started(&self) -> usize {
        self.not_started.len()
    }

    pub(super) fn elo(&self) -> Option<EloEstimate> {
        elo_of_bins(&self.game_bins)
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

/// What the table says besides the tally: the match's description.
pub struct Heading {
    /// "Match" for a match being played, "Games" for game files read back.
    pub title: &'static str,
    pub game: String,
    /// Rule options as `Name=Value`.
    pub options: Vec<String>,
    /// Engine names, in `--engine` order.
    pub engines: Vec<String>,
    pub players: usize,
    /// Games planned (in this shard).
    pub games: usize,
    pub shard: Option<(usize, usize)>,
    /// The limits of each move (the time control's description).
    pub limits: String,
    /// Where the games start: `opening 4 plies`, `openings FILE (N lines, sequential)`.
    pub opening: String,
    pub seed: Option<u64>,
    pub sprt: Option<Sprt>,
}

/// The progress line; `resumed` of the games counted were kept from a resumed file (the
/// time left is reckoned from the others).
pub(super) fn progress_line(
    h: &Heading,
    t: &Tally,
    llr: Option<f64>,
    started: Instant,
    resumed: usize,
) -> String {
    let e1 = &t.engines[0];
    let figure = if h.players > 2 {
        format!("reward share {:.1}%", 100.0 * e1.share())
    } else {
        format!("{:.1}%", 100.0 * e1.score / e1.games.max(1) as f64)
    };
    let mut s = format!(
        "[{}/{}] {}: +{} ={} -{} ({})",
        t.games, h.games, h.engines[0], e1.wins, e1.draws, e1.losses, figure
    );
    if !t.not_started.is_empty() {
        s += &format!(" not started {}", t.not_started.len());
    }
    if let Some(e) = t.elo() {
        if e.elo.is_infinite() {
            s += &format!(" Elo {}", fmt_elo(e.elo));
        } else {
            s += &format!(" Elo {} ± {:.0}", fmt_elo(e.elo), e.error);
        }
    }
    if let (Some(l), Some(sp)) = (llr, h.sprt) {
        let (lo, hi) = sp.bounds();
        s += &format!(" LLR {:.2} [{:.2}, {:.2}]", l, lo, hi);
    }
    let played = t.games.saturating_sub(resumed);
    if t.games < h.games && played > 0 {
        let el = started.elapsed();
        let left = el.mul_f64((h.games - t.games) as f64 / played as f64);
        s += &format!(" ETA {}", fmt_duration(left));
    }
    s
}

/// The summary with `count` in place of the first line's count of games (`3 games of 6 played`,
/// [`games_count`]).
pub(super) fn summary_counting(
    h: &Heading,
    t: &Tally,
    count: &str,
    llr: Option<f64>,
    verdict: Option<Verdict>,
    ratings: Option<&[stats::MultiRating]>,
    elapsed: Duration,
) -> String {
    let mut out = header(h, count, elapsed);
    out += &not_started_line(t);
    out += &engine_rows(h, t);
    out += &elo_line(h, t);
    if let Some(r) = ratings {
        out += &ratings_line(h, r);
    }
    out += &groups_line(h, t);
    out += &sprt_line(h, llr, verdict);
    out += &endings_line(t);
    out
}

/// The games played against the games planned (in the shard): `3 games of 6 played`.
pub(super) fn games_count(h: &Heading, t: &Tally) -> String {
    let shard = match h.shard {
        Some((i, n)) => format!(" (shard {}/{})", i, n),
        None => String::new(),
    };
    format!("{} games of {}{} played", t.games, h.games, shard)
}

/// The first line: game, options, `count` (the games played), limits, opening, seed, time taken.
fn header(h: &Heading, count: &str, elapsed: Duration) -> String {
    let opts = if h.options.is_empty() {
        String::new()
    } else {
        format!(" ({})", h.options.join(" "))
    };
    let seed = match h.seed {
        Some(s) => format!(", seed {}", s),
        None => String::new(),
    };
    let time = if elapsed.is_zero() {
        String::new()
    } else {
        format!(", {}", fmt_duration(elapsed))
    };
    format!(
        "{}: {}{} — {}, {}, {}{}{}\n",
        h.title, h.game, opts, count, h.limits, h.opening, seed, time
    )
}

/// Games that did not start, when there are any: how many, which engine failed, and why.
fn not_started_line(t: &Tally) -> String {
    if t.not_started.is_empty() {
        return String::new();
    }
    // Grouped by the engine that failed, each with its first game and reason.
    let mut by_engine: BTreeMap<&str, (usize, usize, &str)> = BTreeMap::new();
    for (game, who, why) in &t.not_started {
        by_engine
            .entry(who)
            .and_modify(|e| e.0 += 1)
            .or_insert((1, *game, why));
    }
    let parts: Vec<String> = by_engine
        .iter()
        .map(|(who, (n, game, why))| {
            format!(
                "{} failed to start in {} (first in game {}: {})",
                who,
                if *n == 1 {
                    "1 game".to_string()
                } else {
                    format!("{} games", n)
                },
                game + 1,
                why
            )
        })
        .collect();
    format!(
        "Not started: {} game{}, left out of the results: {}\n",
        t.not_started.len(),
        if t.not_started.len() == 1 { "" } else { "s" },
        parts.join("; ")
    )
}

/// One row per engine: games, W/D/L, then for two seats its score and mean reward, for more
/// its reward share and score against the field; Elo against the field with several opponents,
/// W/D/L per seat, faults.
fn engine_rows(h: &Heading, t: &Tally) -> String {
    let mut out = String::new();
    let n = h.players;
    let w = h
        .engines
        .iter()
        .map(|e| e.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    // Two seats: score = reward share, the usual 1 / ½ / 0. More: the reward share (what the
    // engine took of the points) first, and the pairwise score against the field.
    let (c1, c2) = if n > 2 {
        ("Reward share", "Score vs field")
    } else {
        ("Score", "Reward")
    };
    let (w1, w2) = if n > 2 {
        (c1.len() + 1, c2.len() + 1)
    } else {
        (7, 7)
    };
    out += &format!(
        "{:>2} {:<w$} {:>5} {:>5} {:>5} {:>5} {:>w1$} {:>w2$}",
        "#",
        "Engine",
        "Games",
        "W",
        "D",
        "L",
        c1,
        c2,
        w = w
    );
    // Several opponents: each engine's Elo against the field it met.
    let elo_column = h.engines.len() > 2;
    if elo_column {
        out += &format!("  {:>15}", "Elo vs field");
    }
    for s in 0..n {
        out += &format!("  {:>11}", format!("p{} W/D/L", s + 1));
    }
    out += "  Faults\n";
    for (i, (e, name)) in t.engines.iter().zip(&h.engines).enumerate() {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let (v1, v2) = if n > 2 {
            (pct(e.share()), pct(e.score_vs_field()))
        } else {
            (pct(e.score_vs_field()), format!("{:.3}", e.share()))
        };
        out += &format!(
            "{:>2} {:<w$} {:>5} {:>5} {:>5} {:>5} {:>w1$} {:>w2$}",
            i + 1,
            name,
            e.games,
            e.wins,
            e.draws,
            e.losses,
            v1,
            v2,
            w = w
        );
        if elo_column {
            let text = match elo_of_bins(&e.bins) {
                Some(x) if x.elo.is_finite() && x.error.is_finite() => {
                    format!("{} ± {:.0}", fmt_elo(x.elo), x.error)
                }
                Some(x) => fmt_elo(x.elo),
                None => "-".into(),
            };
            out += &format!("  {:>15}", text);
        }
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
    if n > 2 {
        out += &format!(
            "Reward share: the engine's points per game, each game giving 1 point (a win alone 1, \
             a win or draw shared by k seats 1/k each, a loss 0): {:.1}% for equal players. Score vs field: \
             its comparisons with every other seat (1 ahead, ½ level, 0 behind).\n",
            100.0 / n as f64
        );
    }
    out
}

/// Engine 1's Elo against the other engine (two seats) or the field, with LOS and draw ratio.
fn elo_line(h: &Heading, t: &Tally) -> String {
    let mut out = String::new();
    let n = h.players;
    let who = if n == 2 && h.engines.len() == 2 {
        format!("{} vs {}", h.engines[0], h.engines[1])
    } else {
        format!("{} vs the field", h.engines[0])
    };
    match t.elo() {
        Some(e) => {
            let draws = if n == 2 {
                format!(
                    ", draw ratio {:.1}%",
                    100.0 * t.engines[0].draws as f64 / t.engines[0].games.max(1) as f64
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
    out
}

/// The Weng-Lin rating of every engine (games of more than two seats), best first.
fn ratings_line(h: &Heading, ratings: &[stats::MultiRating]) -> String {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| ratings[b].mu.total_cmp(&ratings[a].mu));
    let parts: Vec<String> = order
        .iter()
        .map(|&i| {
            format!(
                "{} {:.1} ± {:.1}",
                h.engines[i], ratings[i].mu, ratings[i].sigma
            )
        })
        .collect();
    format!(
        "Weng-Lin rating (OpenSkill; μ ± σ, prior 25 ± 8.3, games ranked by reward): {}\n",
        parts.join(", ")
    )
}

/// The pentanomial of game pairs (two seats) or the count of complete rotation groups, with nElo.
fn groups_line(h: &Heading, t: &Tally) -> String {
    let mut out = String::new();
    let n = h.players;
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
    out
}

/// The SPRT's state, when the match runs one.
fn sprt_line(h: &Heading, llr: Option<f64>, verdict: Option<Verdict>) -> String {
    let mut out = String::new();
    if let Some(sp) = h.sprt {
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
    out
}

/// How the games ended, by kind (nothing when no game was played).
fn endings_line(t: &Tally) -> String {
    let mut out = String::new();
    if t.endings.is_empty() {
        return out;
    }
    let endings: Vec<String> = t
        .endings
        .iter()
        .map(|(k, v)| format!("{} {}", k, v))
        .collect();
    out += &format!("Endings: {}\n", endings.join(", "));
    out
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
}
