//! Match statistics: Elo from a score with 95% error bars, likelihood of superiority, and the
//! generalized SPRT on pentanomial (game-pair) frequencies the way fishtest computes it
//! (`server/fishtest/stats/LLRcalc.py`: `LLR_normalized` and `LLR_logistic`).
//!
//! Scores are always "engine 1 against the field": in a two-seat game a win is 1, a draw 0.5 and a
//! loss 0; with N seats engine 1 is compared with each other seat (1 if its reward is higher, 0.5
//! if equal, 0 if lower) and the game's score is the mean of those comparisons, so equal engines
//! score 0.5 whatever N is.

/// The 97.5% quantile of the standard normal distribution (two-sided 95% intervals).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: `800 / ln 10` (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Logistic Elo difference for an expected score `s` in (0, 1): `-400 log10(1/s - 1)`.
/// Gives ±infinity at 1 and 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, from the complementary one below (absolute error under 1.2e-7).
pub fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// Complementary error function (Chebyshev fit, fractional error under 1.2e-7 everywhere).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Standard normal cumulative distribution.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Likelihood of superiority from wins and losses (draws do not count), as cutechess computes
/// it: `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`. 0.5 with no decisive game.
pub fn los(wins: f64, losses: f64) -> f64 {
    if wins + losses <= 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((wins - losses) / (2.0 * (wins + losses)).sqrt()))
    }
}

/// Mean and variance of a distribution given as `(value, weight)` pairs (weights need not sum
/// to 1). Returns (0, 0) for an empty one.
pub fn mean_var(samples: &[(f64, f64)]) -> (f64, f64) {
    let n: f64 = samples.iter().map(|&(_, w)| w).sum();
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let mu = samples.iter().map(|&(v, w)| v * w).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|&(v, w)| w * (v - mu) * (v - mu))
        .sum::<f64>()
        / n;
    (mu, var)
}

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    pub elo: f64,
    /// 95% bounds of the Elo difference.
    pub lower: f64,
    pub upper: f64,
    /// Half the width of the interval (the "±" figure); infinite when the score is 0 or 1.
    pub error: f64,
    /// Number of games.
    pub games: f64,
}

/// Elo and 95% error bars from per-game scores, given as a histogram `(score, games)`: the
/// normal interval `mu ± 1.96 sigma / sqrt(n)` on the score mapped through the logistic curve
/// (as cutechess does for W/D/L). When every game scored the same `s` (all won, all lost, all
/// drawn) the interval degenerates to a point; it is then the exact binomial one: at 95% a
/// game of another score has a chance of at most `q = 1 − 0.025^(1/n)` (no such game in `n`),
/// and the score lies from `s(1 − q)` (every other game lost) to `s + q(1 − s)` (won); for
/// all won that is the bound `0.025^(1/n)`.
pub fn elo_estimate(hist: &[(f64, f64)]) -> Option<EloEstimate> {
    let n: f64 = hist.iter().map(|&(_, w)| w).sum();
    if n <= 0.0 {
        return None;
    }
    let (mu, var) = mean_var(hist);
    let elo = elo_from_score(mu);
    let (lo, hi) = if var <= 1e-12 {
        let q = 1.0 - 0.025f64.powf(1.0 / n);
        (mu * (1.0 - q), mu + q * (1.0 - mu))
    } else {
        let se = (var / n).sqrt();
        (mu - Z95 * se, mu + Z95 * se)
    };
    let lower = elo_from_score(lo.clamp(0.0, 1.0));
    let upper = elo_from_score(hi.clamp(0.0, 1.0));
    Some(EloEstimate {
        score: mu,
        elo,
        lower,
        upper,
        error: (upper - lower) / 2.0,
        games: n,
    })
}

/// W/D/L convenience for [`elo_estimate`].
pub fn elo_wdl(wins: f64, draws: f64, losses: f64) -> Option<EloEstimate> {
    elo_estimate(&[(1.0, wins), (0.5, draws), (0.0, losses)])
}

// --- GSPRT (fishtest's LLRcalc) --------------------------------------------------------------

/// A probability distribution on scores: `(value, probability)`, values ascending.
type Pdf = Vec<(f64, f64)>;

/// Frequencies of the possible unit scores `0, 1/(k-1), …, 1` to a pdf, zero counts replaced by
/// 1e-3 (fishtest's `regularize` + `results_to_pdf`). Returns (number of units, pdf).
fn results_to_pdf(counts: &[f64]) -> (f64, Pdf) {
    let reg: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let n: f64 = reg.iter().sum();
    let l = reg.len();
    let pdf = reg
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / (l - 1) as f64, c / n))
        .collect();
    (n, pdf)
}

fn pdf_stats(pdf: &[(f64, f64)]) -> (f64, f64) {
    mean_var(pdf)
}

/// Solves `sum_i p_i a_i / (1 + x a_i) = 0` for x in (-1/max a, -1/min a) (the function is
/// decreasing there, so bisection is exact to the last bits). None when the a_i do not straddle 0.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let v = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let w = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if !(v < 0.0 && w > 0.0) {
        return None;
    }
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / w + eps, -1.0 / v - eps);
    let f = |x: f64| pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-16 * (1.0 + mid.abs()) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Maximum-likelihood distribution with expectation `s` given the empirical `pdfhat`.
fn mle_expected(pdfhat: &[(f64, f64)], s: f64) -> Option<Pdf> {
    let shifted: Pdf = pdfhat.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        pdfhat
            .iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// Maximum-likelihood distribution with t-value `(mu - reference) / sigma == t` given `pdfhat`
/// (normalized_elo_practical.pdf, section 4.1), by the same fixed-point iteration as fishtest.
fn mle_t_value(pdfhat: &[(f64, f64)], reference: f64, t: f64) -> Option<Pdf> {
    let n = pdfhat.len();
    let mut mle: Pdf = pdfhat.iter().map(|&(a, _)| (a, 1.0 / n as f64)).collect();
    for _ in 0..10 {
        let prev = mle.clone();
        let (mu, var) = pdf_stats(&mle);
        let sigma = var.sqrt();
        let shifted: Pdf = pdfhat
            .iter()
            .map(|&(a, p)| {
                let d = (mu - a) / sigma;
                (a - reference - t * sigma * (1.0 + d * d) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted)?;
        mle = (0..n)
            .map(|i| (pdfhat[i].0, pdfhat[i].1 / (1.0 + x * shifted[i].0)))
            .collect();
        let change = (0..n)
            .map(|i| (prev[i].1 - mle[i].1).abs())
            .fold(0.0, f64::max);
        if change < 1e-9 {
            break;
        }
    }
    Some(mle)
}

/// Expected log-likelihood ratio per unit of `pdf1` against `pdf0` under `pdf`.
fn llr_per_unit(pdf: &[(f64, f64)], pdf0: &[(f64, f64)], pdf1: &[(f64, f64)]) -> f64 {
    (0..pdf.len())
        .map(|i| pdf[i].1 * (pdf1[i].1.ln() - pdf0[i].1.ln()))
        .sum()
}

/// fishtest's `LLR_logistic`: the generalized log-likelihood ratio of the scores `counts` (the
/// frequencies of unit scores `0, 1/(k-1), …, 1`: L/D/W for k = 3, the five pair results
/// LL, LD+DL, LW+DD+WL, DW+WD, WW for k = 5) for "logistic Elo = elo1" against "= elo0".
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[f64]) -> f64 {
    let (n, pdf) = results_to_pdf(counts);
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    match (mle_expected(&pdf, s0), mle_expected(&pdf, s1)) {
        (Some(p0), Some(p1)) => n * llr_per_unit(&pdf, &p0, &p1),
        _ => 0.0,
    }
}

/// fishtest's `LLR_normalized`: the generalized log-likelihood ratio for "normalized Elo = nelo1"
/// against "= nelo0", where `counts` are the frequencies of unit scores (as in
/// [`llr_logistic`]) and each unit is the mean of `games_per_unit` games (1 for L/D/W, 2 for
/// pentanomial pairs: the t-value of a unit is the per-game one times sqrt(games_per_unit)).
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[f64], games_per_unit: usize) -> f64 {
    let scale = (games_per_unit.max(1) as f64).sqrt();
    let (t0, t1) = (nelo0 / NELO_PER_T * scale, nelo1 / NELO_PER_T * scale);
    let (n, pdf) = results_to_pdf(counts);
    match (mle_t_value(&pdf, 0.5, t0), mle_t_value(&pdf, 0.5, t1)) {
        (Some(p0), Some(p1)) => n * llr_per_unit(&pdf, &p0, &p1),
        _ => 0.0,
    }
}

/// Normalized Elo (per game) and its 95% error from unit-score frequencies (as in
/// [`llr_normalized`]): `(mu - 0.5) / sigma_per_game * 800 / ln 10`.
pub fn normalized_elo(counts: &[f64], games_per_unit: usize) -> Option<(f64, f64)> {
    let units: f64 = counts.iter().sum();
    if units < 2.0 {
        return None;
    }
    let l = counts.len();
    let hist: Vec<(f64, f64)> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / (l - 1) as f64, c))
        .collect();
    let (mu, var) = mean_var(&hist);
    if var <= 0.0 {
        return None;
    }
    let sigma_pg = (var * games_per_unit.max(1) as f64).sqrt();
    let nelo = (mu - 0.5) / sigma_pg * NELO_PER_T;
    let err = Z95 * (var / units).sqrt() / sigma_pg * NELO_PER_T;
    Some((nelo, err))
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// fishtest's default: normalized Elo (t-value based).
    Normalized,
    /// Logistic (BayesElo-free, "classic") Elo.
    Logistic,
}

/// A sequential probability ratio test: `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0 (elo = elo0) accepted: the LLR fell to the lower bound.
    H0,
    /// H1 (elo = elo1) accepted: the LLR reached the upper bound.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=normalized|logistic]` (any order, each key once;
    /// alpha and beta default to 0.05, the model to normalized as on fishtest).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let mut sp = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        };
        let mut seen: Vec<String> = Vec::new();
        for part in s.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, not '{}'", part))?;
            let k = k.trim().to_ascii_lowercase();
            let v = v.trim();
            if seen.contains(&k) {
                return Err(format!("--sprt: {} is given twice", k));
            }
            seen.push(k.clone());
            if k == "model" {
                sp.model = match v.to_ascii_lowercase().as_str() {
                    "normalized" | "normalised" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => {
                        return Err(format!(
                            "--sprt: model is normalized or logistic, not '{}'",
                            v
                        ))
                    }
                };
                continue;
            }
            let x: f64 = v
                .parse()
                .map_err(|_| format!("--sprt: {} takes a number, not '{}'", k, v))?;
            match k.as_str() {
                "elo0" => sp.elo0 = x,
                "elo1" => sp.elo1 = x,
                "alpha" => sp.alpha = x,
                "beta" => sp.beta = x,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{}' (elo0, elo1, alpha, beta, model)",
                        k
                    ))
                }
            }
        }
        if sp.elo0.is_nan() || sp.elo1.is_nan() {
            return Err(
                "--sprt needs elo0 and elo1, e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05".into(),
            );
        }
        if sp.elo0 >= sp.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                sp.elo0, sp.elo1
            ));
        }
        for (name, p) in [("alpha", sp.alpha), ("beta", sp.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {} must be in (0, 0.5), not {}", name, p));
            }
        }
        Ok(sp)
    }

    /// Wald's bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of unit-score frequencies (pentanomial pairs: 5 counts, `games_per_unit` 2).
    pub fn llr(&self, counts: &[f64], games_per_unit: usize) -> f64 {
        if counts.iter().sum::<f64>() <= 0.0 {
            return 0.0;
        }
        match self.model {
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, counts, games_per_unit),
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, counts),
        }
    }

    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(Verdict::H1)
        } else if llr <= lo {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    pub fn describe(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={} ({} Elo)",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                EloModel::Normalized => "normalized",
                EloModel::Logistic => "logistic",
            }
        )
    }
}

/// Number of distinct unit scores when a unit is a rotation group of `players` games scored
/// against the field: each game's score is a multiple of 1/(2(N-1)), the group mean a multiple
/// of 1/(2N(N-1)). 5 for two players (the pentanomial).
pub fn group_bins(players: usize) -> usize {
    let n = players.max(2);
    2 * n * (n - 1) + 1
}

/// The bin of a group's mean score (see [`group_bins`]).
pub fn group_bin(mean: f64, players: usize) -> usize {
    let k = group_bins(players) - 1;
    ((mean.clamp(0.0, 1.0) * k as f64).round() as usize).min(k)
}

/// A rating fitted to results of games with more than two seats: Weng-Lin (the Bayesian
/// online ranking behind OpenSkill, from the `skillratings` crate), each game a ranking of its
/// seats by reward (equal rewards share a rank). Every engine starts at μ 25, σ 25/3; the games
/// are taken in game order, so the same records give the same ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiRating {
    /// The estimated skill.
    pub mu: f64,
    /// Its uncertainty (one standard deviation).
    pub sigma: f64,
}

/// Weng-Lin ratings of `engines` engines from games given as (engine of each seat, reward of
/// each seat).
pub fn weng_lin<'a>(
    engines: usize,
    games: impl IntoIterator<Item = (&'a [usize], &'a [f32])>,
) -> Vec<MultiRating> {
    use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
    use skillratings::MultiTeamOutcome;
    let config = WengLinConfig::new();
    let mut r = vec![WengLinRating::new(); engines];
    for (seats, rewards) in games {
        if seats.len() != rewards.len() || seats.len() < 2 || seats.iter().any(|&e| e >= engines) {
            continue;
        }
        // Rank 1 = the best reward; ties share a rank.
        let rank = |i: usize| 1 + rewards.iter().filter(|&&x| x > rewards[i]).count();
        let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|&e| [r[e]]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .enumerate()
            .map(|(i, t)| (&t[..], MultiTeamOutcome::new(rank(i))))
            .collect();
        let out = weng_lin_multi_team(&input, &config);
        for (i, &e) in seats.iter().enumerate() {
            r[e] = out[i][0];
        }
    }
    r.iter()
        .map(|x| MultiRating {
            mu: x.rating,
            sigma: x.uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_from_score_known_values() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn error_bars_match_cutechess_formula() {
        // Reference values computed with cutechess's EloCalculation formulas.
        let e = elo_wdl(60.0, 20.0, 20.0).unwrap();
        assert!(close(e.elo, 147.190_714, 1e-5), "{:?}", e);
        assert!(close(e.error, 66.013_381, 1e-4), "{:?}", e);
        let e = elo_wdl(100.0, 50.0, 50.0).unwrap();
        assert!(close(e.elo, 88.739_500, 1e-5));
        assert!(close(e.error, 42.843_033, 1e-4));
        let e = elo_wdl(30.0, 40.0, 30.0).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.error, 53.157_980, 1e-4));
        let e = elo_wdl(5.0, 90.0, 5.0).unwrap();
        assert!(close(e.error, 21.561_523, 1e-4));
        assert!(elo_wdl(0.0, 0.0, 0.0).is_none());
    }

    #[test]
    fn a_clean_sweep_has_an_exact_lower_bound() {
        let e = elo_wdl(200.0, 0.0, 0.0).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        // 0.025^(1/200) = 0.98172… → +692.05 Elo
        assert!(close(e.lower, 692.049_690, 1e-3), "{:?}", e);
        let e = elo_wdl(0.0, 0.0, 10.0).unwrap();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert!(close(
            e.upper,
            elo_from_score(1.0 - 0.025f64.powf(0.1)),
            1e-9
        ));
    }

    /// Every game drawn (or every game the same score against the field) is not a point
    /// estimate: the interval is the exact bound on how often another score may come.
    #[test]
    fn games_all_of_one_score_get_the_exact_interval_not_a_point() {
        let q = 1.0 - 0.025f64.powf(0.25);
        let e = elo_wdl(0.0, 4.0, 0.0).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(
            close(e.lower, elo_from_score(0.5 * (1.0 - q)), 1e-9),
            "{:?}",
            e
        );
        assert!(
            close(e.upper, elo_from_score(0.5 + 0.5 * q), 1e-9),
            "{:?}",
            e
        );
        assert!(e.error > 100.0, "{:?}", e);
        let third = elo_estimate(&[(1.0 / 3.0, 4.0)]).unwrap();
        assert!(
            third.lower < third.elo && third.elo < third.upper,
            "{:?}",
            third
        );
        // More such games, a narrower interval.
        assert!(elo_wdl(0.0, 400.0, 0.0).unwrap().error < e.error / 10.0);
    }

    #[test]
    fn los_known_values() {
        assert!(close(los(60.0, 20.0), 0.999_996_13, 1e-7));
        assert!(close(los(100.0, 50.0), 0.999_977_72, 1e-7));
        assert!(close(los(30.0, 30.0), 0.5, 1e-7));
        assert!(close(los(0.0, 0.0), 0.5, 1e-9));
        // W - L = sqrt(2 (W + L)) → 0.5 (1 + erf(1)) = 0.9213503964748575
        assert!(close(los(6.0, 2.0), 0.921_350_396_474_857_5, 2e-7));
        assert!(close(phi(1.959_963_984_540_054), 0.975, 2e-7));
    }

    #[test]
    fn llr_matches_fishtest_llrcalc() {
        // Reference values from fishtest's LLRcalc.py (LLR_normalized / LLR_logistic).
        let r5 = [39.0, 8843.0, 26675.0, 9240.0, 44.0];
        assert!(close(llr_normalized(0.5, 2.5, &r5, 2), 2.941_675_208, 1e-5));
        assert!(close(llr_logistic(0.5, 2.5, &r5), 0.555_517_069, 1e-5));
        let r3 = [22569.0, 44137.0, 22976.0];
        assert!(close(llr_normalized(0.5, 2.5, &r3, 1), 1.058_825_494, 1e-5));
        assert!(close(llr_logistic(0.5, 2.5, &r3), 0.224_606_493, 1e-5));
        let p = [10.0, 20.0, 40.0, 25.0, 5.0];
        assert!(close(
            llr_normalized(0.0, 10.0, &p, 2),
            -0.282_112_916,
            1e-5
        ));
        assert!(close(llr_logistic(0.0, 10.0, &p), -0.437_486_233, 1e-5));
        // Zero bins are regularized as fishtest does.
        let z = [0.0, 3.0, 10.0, 5.0, 2.0];
        assert!(close(llr_normalized(0.0, 5.0, &z, 2), 0.146_460_481, 1e-5));
        assert!(close(llr_logistic(0.0, 5.0, &z), 0.249_311_996, 1e-5));
        let t = [100.0, 50.0, 120.0];
        assert!(close(llr_normalized(-1.0, 4.0, &t, 1), 0.302_084_070, 1e-5));
    }

    #[test]
    fn sprt_parse_bounds_and_verdicts() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979, 1e-8));
        assert!(close(hi, 2.944_438_979, 1e-8));
        assert_eq!(s.verdict(3.0), Some(Verdict::H1));
        assert_eq!(s.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(s.verdict(0.0), None);
        assert_eq!(
            Sprt::parse("elo1=5, elo0=-1, model=logistic")
                .unwrap()
                .model,
            EloModel::Logistic
        );
        assert!(Sprt::parse("elo0=10,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        // A lopsided pentanomial quickly accepts H1; an even one with many pairs accepts H0.
        assert_eq!(
            s.verdict(s.llr(&[0.0, 0.0, 6.0, 30.0, 90.0], 2)),
            Some(Verdict::H1)
        );
        assert_eq!(
            s.verdict(s.llr(&[600.0, 1200.0, 2400.0, 1200.0, 600.0], 2)),
            Some(Verdict::H0)
        );
    }

    #[test]
    fn groups_of_n_players_have_a_fixed_lattice() {
        assert_eq!(group_bins(2), 5);
        assert_eq!(group_bins(3), 13);
        assert_eq!(group_bins(4), 25);
        assert_eq!(group_bin(0.75, 2), 3);
        assert_eq!(group_bin(1.0, 3), 12);
        assert_eq!(group_bin(0.5, 4), 12);
    }

    #[test]
    fn normalized_elo_is_zero_for_a_symmetric_pentanomial() {
        let (n, e) = normalized_elo(&[10.0, 20.0, 40.0, 20.0, 10.0], 2).unwrap();
        assert!(close(n, 0.0, 1e-9));
        assert!(e > 0.0);
    }

    #[test]
    fn weng_lin_ranks_a_consistent_winner_first() {
        // Engine 0 always wins, 1 and 2 share the rest; seats rotate.
        let seats = [[0usize, 1, 2], [1, 2, 0], [2, 0, 1]];
        let mut games: Vec<(Vec<usize>, Vec<f32>)> = Vec::new();
        for k in 0..30 {
            let s = seats[k % 3].to_vec();
            let rewards = s.iter().map(|&e| if e == 0 { 1.0 } else { 0.0 }).collect();
            games.push((s, rewards));
        }
        let r = weng_lin(3, games.iter().map(|(s, w)| (&s[..], &w[..])));
        assert!(
            r[0].mu > 30.0 && r[1].mu < 25.0 && r[2].mu < 25.0,
            "{:?}",
            r
        );
        assert!((r[1].mu - r[2].mu).abs() < 1.0, "{:?}", r);
        assert!(r.iter().all(|x| x.sigma < 25.0 / 3.0));
        // No games: the prior.
        let none = weng_lin(2, std::iter::empty());
        assert_eq!(
            none[0],
            MultiRating {
                mu: 25.0,
                sigma: 25.0 / 3.0
            }
        );
    }
}
