//! `quatre train`: fits a net (`net.rs`) to self-play data (`format.rs`) on the CPU, on every
//! core.
//!
//! The target of a position, from seat 0's view: `λ·result + (1−λ)·σ(score/K)`, where `result`
//! is seat 0's final reward, `score` the search's score for seat 0 and `K` the scale at which
//! `σ(score/K)` best predicts the results on the training games (Texel's method). The loss is
//! the mean squared error between `σ(output)` and the target; Adam with weight clipping, the
//! learning rate falling linearly to a tenth over the epochs. One game in twenty is held out to
//! measure the loss on games the net never saw, beside the same loss of the hand evaluation
//! (`σ(evaluate/K_hand)`, its own scale fitted the same way).
//!
//! With more than two seats the net has an output per seat (`Net::outputs_for`) and each
//! output its own target. The data holds only the mover's search score, so the mover's output
//! has the target above (from the mover's view) and the others follow [`Others`]: their
//! result alone at weight λ, or the blend with their hand evaluation in place of a score.
//! The loss is the weighted mean over the outputs.

use super::format::{place, GameData, Origin};
use super::net::{FloatNet, Net, CLIP};
use crate::game::{Game, RuleOptions};
use rayon::prelude::*;

/// Positions ready to train on: each one's active features, target and what it came from.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position's features, one after the other.
    pub feats: Vec<u32>,
    /// Position `i`'s features are `feats[offsets[i]..offsets[i + 1]]`.
    pub offsets: Vec<u32>,
    /// The net's outputs (`Net::outputs_for` the games' seats): 1 for two seats (seat 0's
    /// value), one per seat for more; 0 before any game is added.
    pub outputs: usize,
    /// The final reward in the position's game of each output's seat: `outputs` a position
    /// (entry `i · outputs + o`).
    pub result: Vec<f32>,
    /// The search's score for the seat of output `scored[i]`, in the engine's units: seat 0's
    /// with two seats (the mover's score turned), the mover's with more.
    pub score: Vec<f32>,
    pub scored: Vec<u8>,
    /// The hand evaluation of each output's seat: `outputs` a position, as `result`.
    pub hand: Vec<f32>,
    /// More than two seats: each output's seat's search score at its own next turn in the
    /// game (the next kept position, within two plies, where that seat is to move), NaN where
    /// there is none (and for the mover's own output): `outputs` a position, as `result`.
    pub next: Vec<f32>,
    /// Whether the position's game is held out for validation.
    pub held_out: Vec<bool>,
    /// `NetInput::feature_set` of the positions (all the same).
    pub feature_set: String,
    pub inputs: usize,
    /// Positions read and left out (game over, in check, a capture played, no score).
    pub skipped: usize,
    /// The first game's seats and where it was read, and where the first kept position was:
    /// for messages about data that does not go with them.
    first_game: (usize, String),
    first_position: String,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    fn features(&self, i: usize) -> &[u32] {
        &self.feats[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Adds the positions of `games` (all of game `G`). With `quiet`, positions in check and
    /// positions whose searched move was noisy (a capture, a promotion) are left out: a static
    /// evaluation cannot see what such a move wins. Errors name the game by its index and seed.
    pub fn add<G: Game>(&mut self, games: &[GameData], quiet: bool) -> Result<(), String> {
        self.add_read::<G>(games, &[], quiet)
    }

    /// [`add`](Self::add) for games read from files, `origins[i]` where `games[i]` was read
    /// (or none: data built in memory): errors name the file and the line.
    pub fn add_read<G: Game>(
        &mut self,
        games: &[GameData],
        origins: &[Origin],
        quiet: bool,
    ) -> Result<(), String> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let mut moves = Vec::new();
        for (i, gd) in games.iter().enumerate() {
            let origin = origins.get(i);
            let at = |pos: Option<usize>| place(gd, origin, pos);
            if gd.game != G::NAME {
                return Err(format!(
                    "{}: a game of {} in data for {}",
                    at(None),
                    gd.game,
                    G::NAME
                ));
            }
            let mut opts = RuleOptions::of::<G>();
            for (k, v) in &gd.options {
                opts.set(k, v).map_err(|e| format!("{}: {}", at(None), e))?;
            }
            let outputs = Net::outputs_for(gd.result.len());
            if self.outputs == 0 {
                self.outputs = outputs;
                self.first_game = (gd.result.len(), at(None));
            } else if outputs != self.outputs {
                return Err(format!(
                    "{}: a game of {} seats among games of {} ({}): train one net per seat count",
                    at(None),
                    gd.result.len(),
                    self.first_game.0,
                    self.first_game.1
                ));
            }
            // Held out by game, not by position: the positions of one game are alike.
            let held_out = (gd.seed ^ gd.index as u64).is_multiple_of(20);
            let first = self.score.len();
            let mut plies = Vec::new();
            for (k, p) in gd.positions.iter().enumerate() {
                let Some(cp) = p.score.centipawns() else {
                    self.skipped += 1;
                    continue;
                };
                let g = G::from_text(&p.text, &opts)
                    .map_err(|e| format!("{}: the position does not load: {}", at(Some(k)), e))?;
                if g.players() != gd.result.len() {
                    return Err(format!(
                        "{}: a position of {} seats in a game of {} results ({})",
                        at(Some(k)),
                        g.players(),
                        gd.result.len(),
                        at(None)
                    ));
                }
                // The score is turned to seat 0's view by the seat column: it must be the
                // position's mover.
                check_seat(&g, p.seat).map_err(|e| format!("{}: {}", at(Some(k)), e))?;
                if g.status().is_over() {
                    self.skipped += 1;
                    continue;
                }
                // The filter of noisy moves reads the move: it must be one of the position's.
                let mv = legal_move(&g, &p.mv, &mut moves)
                    .map_err(|e| format!("{}: {}", at(Some(k)), e))?;
                if quiet && ((G::HAS_CHECK && g.in_check()) || g.is_noisy(mv)) {
                    self.skipped += 1;
                    continue;
                }
                let Some(set) = g.feature_set() else {
                    return Err(format!("{} has no input features yet", G::NAME));
                };
                if self.feature_set.is_empty() {
                    self.feature_set = set;
                    self.inputs = g.feature_count();
                    self.first_position = at(Some(k));
                } else if set != self.feature_set {
                    return Err(format!(
                        "{}: a position of feature set {} among positions of {} ({}): train one net per rule set",
                        at(Some(k)),
                        set,
                        self.feature_set,
                        self.first_position
                    ));
                }
                let start = self.feats.len();
                g.features(&mut self.feats);
                debug_assert!(self.feats[start..]
                    .iter()
                    .all(|&f| (f as usize) < self.inputs));
                self.offsets.push(self.feats.len() as u32);
                if outputs == 1 {
                    let sign = if p.seat == 0 { 1.0 } else { -1.0 };
                    self.score.push(sign * cp as f32);
                    self.scored.push(0);
                } else {
                    self.score.push(cp as f32);
                    self.scored.push(p.seat as u8);
                }
                for o in 0..outputs {
                    self.hand.push(g.evaluate(o) as f32);
                    self.result.push(gd.result[o]);
                    self.next.push(f32::NAN);
                }
                self.held_out.push(held_out);
                plies.push(p.ply);
            }
            if outputs > 1 {
                self.link_next_turns(first, &plies);
            }
        }
        Ok(())
    }

    /// Fills `next` for the positions from `first` on (one game's, at `plies`): for each seat
    /// not to move, the score of the next kept position within two plies where it moves.
    fn link_next_turns(&mut self, first: usize, plies: &[usize]) {
        let k = self.outputs;
        for a in 0..plies.len() {
            for b in a + 1..plies.len() {
                if plies[b] > plies[a] + 2 {
                    break;
                }
                let (i, j) = (first + a, first + b);
                let seat = self.scored[j] as usize;
                if seat != self.scored[i] as usize && self.next[i * k + seat].is_nan() {
                    self.next[i * k + seat] = self.score[j];
                }
            }
        }
    }
}

/// Whether `seat`, a data line's seat column, is the mover of its position `g`.
pub(super) fn check_seat<G: Game>(g: &G, seat: usize) -> Result<(), String> {
    if g.to_move() == seat {
        Ok(())
    } else {
        Err(format!(
            "the position's seat to move is p{}, the data says p{}",
            g.to_move() + 1,
            seat + 1
        ))
    }
}

/// A data line's move column as a legal move of its position `g` (`buf`: scratch for the
/// legal moves, which it holds after the call).
pub(super) fn legal_move<G: Game>(
    g: &G,
    text: &str,
    buf: &mut Vec<G::Move>,
) -> Result<G::Move, String> {
    let m = g
        .parse_move(text)
        .map_err(|e| format!("the move '{}' does not parse: {}", text, e))?;
    g.legal_moves(buf);
    if buf.contains(&m) {
        Ok(m)
    } else {
        Err(format!(
            "the move '{}' is not legal in the position ({} legal moves)",
            text,
            buf.len()
        ))
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `x/k + offset`: a score as a logit (`offset`: `Net::logit_offset`, 0 for two seats).
#[inline]
fn as_logit(x: f32, k: f32, offset: f32) -> f32 {
    if offset == 0.0 {
        x / k
    } else {
        x / k + offset
    }
}

/// A fitted scale above this says that the data's results do not follow its scores (every
/// game drawn, say, or too few games): a lead of 1,000 would be worth under 52.5%. Training
/// then uses [`DEFAULT_SCALE`] instead of a scale that would turn the net's outputs into scores
/// of tens of thousands.
pub const MAX_SCALE: f32 = 10_000.0;

/// The protocol's own mapping of a score to a win probability, `1/(1+10^(−cp/400))`, as `K`.
pub const DEFAULT_SCALE: f32 = 400.0 / std::f32::consts::LN_10;

/// `k` if it is a scale the data could fit ([`MAX_SCALE`]), else [`DEFAULT_SCALE`]: the
/// scale and whether it is `k`.
pub fn usable_scale(k: f32) -> (f32, bool) {
    if k <= MAX_SCALE {
        (k, true)
    } else {
        (DEFAULT_SCALE, false)
    }
}

/// The scale `K` at which `σ(x/K + offset)` best predicts `result` (least squares), over the
/// positions `use_it` keeps; golden-section search on `ln K` between 1 and 100,000.
pub fn fit_scale(
    x: &[f32],
    result: &[f32],
    offset: f32,
    use_it: impl Fn(usize) -> bool + Sync,
) -> f32 {
    let err = |k: f32| -> f64 {
        ordered_sum(x.len(), |range| {
            range
                .filter(|&i| use_it(i))
                .map(|i| {
                    let d = (sigmoid(as_logit(x[i], k, offset)) - result[i]) as f64;
                    d * d
                })
                .sum()
        })
    };
    let (mut a, mut b) = (1f32.ln(), 100_000f32.ln());
    let phi = 0.618_034f32;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if err(c.exp()) < err(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the game's result in the target (the rest: the search's score).
    pub lambda: f32,
    pub seed: u64,
    /// Learn a correction added to the hand evaluation (`σ(hand/K_hand + output)`) rather
    /// than the whole evaluation: the net starts where the hand evaluation is.
    pub residual: bool,
    /// Decoupled weight decay of the input weights, per step, times the learning rate.
    pub weight_decay: f32,
    /// With more than two seats: the targets of the outputs of the seats not to move.
    pub others: Others,
    /// Start from this net instead of random weights (`quatre train --init`), with the engine
    /// units its output logit is worth: its shape must be the one trained (`hidden`, the
    /// data's inputs and outputs) and, when `residual`, it must be a correction too. Its
    /// output weights are rescaled to this data's scale, so that it starts out giving the
    /// scores it gave.
    pub init: Option<(FloatNet, f32)>,
}

/// What the outputs of the seats not to move learn, with more than two seats (the data holds
/// only the mover's search score).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Others {
    /// Their game result alone, at weight λ: the result term of the mover's target, without
    /// a score term.
    Result,
    /// `λ·result + (1−λ)·σ(hand/K_hand)`: their hand evaluation in place of a search score.
    Hand,
    /// Their own search score at their next turn ([`Dataset::next`]), blended with the result
    /// as the mover's is; the result alone at weight λ where the data has no such turn.
    Next,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 64,
            epochs: 10,
            batch: 256,
            lr: 0.0003,
            lambda: 0.5,
            seed: 1,
            residual: false,
            weight_decay: 0.0,
            others: Others::Result,
            init: None,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    /// Mean loss over the epoch's training batches.
    pub train: f64,
    /// Loss on the held-out games after the epoch (0 when none is held out:
    /// `Trained::val_positions` is 0).
    pub val: f64,
}

/// What training gives: the net, the scale of the scores and the curve.
pub struct Trained {
    /// The net of the epoch with the lowest held-out loss.
    pub net: FloatNet,
    /// That epoch (1-based).
    pub best_epoch: usize,
    /// The net's output logit times `scale` is in the engine's units: `K` of the search's
    /// scores, or of the hand evaluation for a residual net.
    pub scale: f32,
    /// Whether the net is a correction of the hand evaluation.
    pub residual: bool,
    pub hand_scale: f32,
    /// False when the results did not fit a scale (of the scores or of the hand evaluation)
    /// and [`DEFAULT_SCALE`] stood in ([`usable_scale`]).
    pub scales_fitted: bool,
    /// The hand evaluation's loss on the held-out games (the bar the net should pass).
    pub hand_val: f64,
    /// The loss of always answering the mean target (what knowing nothing scores).
    pub constant_val: f64,
    /// With an initial net (`TrainConfig::init`), its loss on the held-out games (None when
    /// no game is held out).
    pub init_val: Option<f64>,
    /// The loss on the held-out games of the integer net the engine reads (`net` quantized
    /// and read back): what rounding the weights costs.
    pub quantized_val: f64,
    /// With more than two seats, held-out figures the same whatever `Others` (None when no
    /// game is held out).
    pub seats_val: Option<SeatsVal>,
    pub curve: Vec<Epoch>,
    pub train_positions: usize,
    pub val_positions: usize,
}

/// Held-out losses of a net with an output per seat (more than two seats), each beside the
/// hand evaluation's (`σ(hand/K_hand)`), on targets that do not depend on `Others`.
#[derive(Clone, Copy, Debug)]
pub struct SeatsVal {
    /// The mover's output against its target.
    pub mover: f64,
    pub mover_hand: f64,
    /// The other seats' outputs against their results alone.
    pub others: f64,
    pub others_hand: f64,
}

/// Gradients of one share of a batch.
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn new(net: &FloatNet) -> Grad {
        Grad {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.hidden],
            w2: vec![0.0; net.w2.len()],
            b2: vec![0.0; net.outputs],
            loss: 0.0,
        }
    }
    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.loss = 0.0;
    }
}

/// Adam's moments of one tensor.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, clip: Option<f32>) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..w.len() {
            let gi = g[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * gi;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * gi * gi;
            let upd = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] -= upd;
            if let Some(c) = clip {
                w[i] = w[i].clamp(-c, c);
            }
        }
    }
}

/// What one position's outputs are trained towards: per output (entry `i · outputs + o`) the
/// logit its output is added to (`base`), the target and the weight of its squared error.
struct Targets<'a> {
    base: &'a [f32],
    target: &'a [f32],
    weight: &'a [f32],
}

impl Targets<'_> {
    /// The total weight of the entries of positions `idx`.
    fn weight_of(&self, idx: &[usize], outputs: usize) -> f64 {
        idx.iter()
            .flat_map(|&i| &self.weight[i * outputs..][..outputs])
            .map(|&w| w as f64)
            .sum()
    }
}

/// Adds position `i`'s weighted loss and gradients to `g`; `acc` and `da` are scratch of one
/// value per hidden unit.
fn backprop(
    net: &FloatNet,
    feats: &[u32],
    i: usize,
    t: &Targets,
    acc: &mut [f32],
    da: &mut [f32],
    g: &mut Grad,
) {
    let h = net.hidden;
    net.accumulate(feats, acc);
    for o in 0..net.outputs {
        let j = i * net.outputs + o;
        let (target, weight) = (t.target[j], t.weight[j]);
        let w2 = &net.w2[o * h..][..h];
        let mut x = t.base[j] + net.b2[o];
        for (a, w) in acc.iter().zip(w2) {
            x += a.clamp(0.0, 1.0) * w;
        }
        let p = sigmoid(x);
        g.loss += (weight * (p - target) * (p - target)) as f64;
        let d = weight * 2.0 * (p - target) * p * (1.0 - p);
        g.b2[o] += d;
        let gw2 = &mut g.w2[o * h..][..h];
        for (((a, gw), w), da) in acc.iter().zip(gw2).zip(w2).zip(da.iter_mut()) {
            *gw += d * a.clamp(0.0, 1.0);
            // The clipped ReLU passes a gradient only between its bounds.
            let back = if *a > 0.0 && *a < 1.0 { d * w } else { 0.0 };
            *da = if o == 0 { back } else { *da + back };
        }
    }
    for (gb, da) in g.b1.iter_mut().zip(da.iter()) {
        *gb += da;
    }
    for &f in feats {
        let row = &mut g.w1[f as usize * h..][..h];
        for (gw, da) in row.iter_mut().zip(da.iter()) {
            *gw += da;
        }
    }
}

/// The weighted mean loss of `net` over positions `idx` (each output added to its base).
fn loss_of(net: &FloatNet, ds: &Dataset, idx: &[usize], t: &Targets) -> f64 {
    let k = net.outputs;
    let total = t.weight_of(idx, k);
    if total <= 0.0 {
        return 0.0;
    }
    let sum = ordered_sum(idx.len(), |range| {
        let mut out = vec![0.0f32; k];
        let mut s = 0.0;
        for &i in &idx[range] {
            net.forward(ds.features(i), &mut out);
            for (o, &y) in out.iter().enumerate() {
                let j = i * k + o;
                let d = (sigmoid(t.base[j] + y) - t.target[j]) as f64;
                s += t.weight[j] as f64 * d * d;
            }
        }
        s
    });
    sum / total
}

/// The sum of `part` over `0..n` cut into fixed ranges, on every core, added in order: the
/// same bits however the threads share the work (rayon's own `sum` splits by load, and a
/// fitted scale or a loss that differs in its last bits made a re-run train another net).
fn ordered_sum(n: usize, part: impl Fn(std::ops::Range<usize>) -> f64 + Sync) -> f64 {
    const RANGE: usize = 4096;
    let parts: Vec<f64> = (0..n.div_ceil(RANGE))
        .into_par_iter()
        .map(|c| part(c * RANGE..((c + 1) * RANGE).min(n)))
        .collect();
    parts.iter().sum()
}

/// Trains a net on `ds`, calling `progress` after each epoch.
pub fn train(ds: &Dataset, cfg: &TrainConfig, mut progress: impl FnMut(&Epoch)) -> Trained {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let n = ds.len();
    // Outputs per position; entry `i · k + o` of `result`, `hand` and the targets is output o's.
    let k = ds.outputs.max(1);
    let train_idx: Vec<usize> = (0..n).filter(|&i| !ds.held_out[i]).collect();
    let val_idx: Vec<usize> = (0..n).filter(|&i| ds.held_out[i]).collect();
    let scored = |i: usize| i * k + ds.scored[i] as usize;
    let scored_result: Vec<f32> = (0..n).map(|i| ds.result[scored(i)]).collect();
    // An even position is worth 1/N to each of N seats: scores become logits around
    // logit(1/N) (0 with two seats).
    let offset = Net::logit_offset(k);
    let (scale, scale_fitted) = usable_scale(fit_scale(&ds.score, &scored_result, offset, |i| {
        !ds.held_out[i]
    }));
    let (hand_scale, hand_scale_fitted) =
        usable_scale(fit_scale(&ds.hand, &ds.result, offset, |j| {
            !ds.held_out[j / k]
        }));
    let lambda = cfg.lambda;
    let blend =
        |x: f32, k: f32, r: f32| lambda * r + (1.0 - lambda) * sigmoid(as_logit(x, k, offset));
    // The scored output's target blends the search's score and the result; the others' (more
    // than two seats) follow `cfg.others`.
    let mut target = vec![0.0; n * k];
    let mut weight = vec![1.0; n * k];
    for i in 0..n {
        for o in 0..k {
            let j = i * k + o;
            target[j] = if j == scored(i) {
                blend(ds.score[i], scale, ds.result[j])
            } else {
                match cfg.others {
                    Others::Hand => blend(ds.hand[j], hand_scale, ds.result[j]),
                    Others::Next if !ds.next[j].is_nan() => blend(ds.next[j], scale, ds.result[j]),
                    Others::Result | Others::Next => {
                        weight[j] = lambda;
                        ds.result[j]
                    }
                }
            };
        }
    }
    let mse = |pred: &dyn Fn(usize) -> f32, target: &[f32], weight: &[f32]| -> f64 {
        let (mut s, mut total) = (0.0f64, 0.0f64);
        for &i in &val_idx {
            for j in i * k..(i + 1) * k {
                s += weight[j] as f64 * ((pred(j) - target[j]) as f64).powi(2);
                total += weight[j] as f64;
            }
        }
        if total > 0.0 {
            s / total
        } else {
            0.0
        }
    };
    let hand_pred = |j: usize| sigmoid(as_logit(ds.hand[j], hand_scale, offset));
    let hand_val = mse(&hand_pred, &target, &weight);
    // The mean target of each output over the training positions.
    let mean: Vec<f32> = (0..k)
        .map(|o| {
            let (mut s, mut total) = (0.0f64, 0.0f64);
            for &i in &train_idx {
                s += weight[i * k + o] as f64 * target[i * k + o] as f64;
                total += weight[i * k + o] as f64;
            }
            if total > 0.0 {
                (s / total) as f32
            } else {
                0.0
            }
        })
        .collect();
    let constant_val = mse(&|j| mean[j % k], &target, &weight);
    // A residual net's output adds to the hand evaluation's logit; it starts at zero (output
    // weights zero) so that training starts from the hand evaluation's loss.
    let base: Vec<f32> = if cfg.residual {
        ds.hand
            .iter()
            .map(|&h| as_logit(h, hand_scale, offset))
            .collect()
    } else {
        vec![0.0; n * k]
    };
    let targets = Targets {
        base: &base,
        target: &target,
        weight: &weight,
    };

    let active = ds.feats.len() as f32 / n.max(1) as f32;
    let out_scale = if cfg.residual { hand_scale } else { scale };
    let mut net = match &cfg.init {
        Some((init, init_scale)) => {
            assert!(
                init.inputs == ds.inputs && init.hidden <= cfg.hidden && init.outputs == k,
                "the initial net's shape is not the one trained"
            );
            // Logit × scale is what the engine scores: keep each score where it was.
            let r = init_scale / out_scale;
            let mut n = init.widened(cfg.hidden, active, cfg.seed);
            n.w2.iter_mut().chain(n.b2.iter_mut()).for_each(|w| *w *= r);
            n
        }
        None => {
            let mut n = FloatNet::new(ds.inputs, cfg.hidden, k, active, cfg.seed);
            if cfg.residual {
                n.w2.iter_mut().for_each(|w| *w = 0.0);
            }
            n
        }
    };
    // Where training starts, on the held-out games: the initial net's loss (none without
    // held-out games).
    let init_val =
        (cfg.init.is_some() && !val_idx.is_empty()).then(|| loss_of(&net, ds, &val_idx, &targets));
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(&net)).collect();
    let mut total = Grad::new(&net);
    let (mut a_w1, mut a_b1, mut a_w2, mut a_b2) = (
        Adam::new(net.w1.len()),
        Adam::new(net.hidden),
        Adam::new(net.w2.len()),
        Adam::new(k),
    );
    let train_weight = targets.weight_of(&train_idx, k);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut order = train_idx.clone();
    let mut curve = Vec::new();
    let mut t = 0;
    let mut best: Option<(f64, usize, FloatNet)> = None;
    let batches = order.len().div_ceil(cfg.batch.max(1)).max(1);
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let mut train_loss = 0.0;
        for (b, batch) in order.chunks(cfg.batch.max(1)).enumerate() {
            let progress_frac = ((epoch - 1) * batches + b) as f32 / (cfg.epochs * batches) as f32;
            let lr = cfg.lr * (1.0 - 0.9 * progress_frac);
            let share = batch.len().div_ceil(threads);
            grads
                .par_iter_mut()
                .zip(batch.par_chunks(share.max(1)))
                .for_each(|(g, part)| {
                    g.clear();
                    let mut acc = vec![0.0; net.hidden];
                    let mut da = vec![0.0; net.hidden];
                    for &i in part {
                        backprop(&net, ds.features(i), i, &targets, &mut acc, &mut da, g);
                    }
                });
            total.clear();
            let used = batch.len().div_ceil(share.max(1));
            for g in &grads[..used] {
                total
                    .w1
                    .par_iter_mut()
                    .zip(&g.w1)
                    .for_each(|(a, b)| *a += b);
                for (a, b) in total.b1.iter_mut().zip(&g.b1) {
                    *a += b;
                }
                for (a, b) in total.w2.iter_mut().zip(&g.w2) {
                    *a += b;
                }
                for (a, b) in total.b2.iter_mut().zip(&g.b2) {
                    *a += b;
                }
                total.loss += g.loss;
            }
            let m = 1.0 / batch.len() as f32;
            total.w1.par_iter_mut().for_each(|x| *x *= m);
            total
                .b1
                .iter_mut()
                .chain(total.w2.iter_mut())
                .chain(total.b2.iter_mut())
                .for_each(|x| *x *= m);
            train_loss += total.loss;
            t += 1;
            if cfg.weight_decay > 0.0 {
                let keep = 1.0 - lr * cfg.weight_decay;
                net.w1.par_iter_mut().for_each(|w| *w *= keep);
            }
            a_w1.step(&mut net.w1, &total.w1, lr, t, Some(CLIP));
            a_b1.step(&mut net.b1, &total.b1, lr, t, None);
            a_w2.step(&mut net.w2, &total.w2, lr, t, Some(CLIP));
            a_b2.step(&mut net.b2, &total.b2, lr, t, None);
        }
        let e = Epoch {
            epoch,
            train: if train_weight > 0.0 {
                train_loss / train_weight
            } else {
                0.0
            },
            val: loss_of(&net, ds, &val_idx, &targets),
        };
        progress(&e);
        if best.as_ref().is_none_or(|(v, _, _)| e.val < *v) {
            best = Some((e.val, epoch, net.clone()));
        }
        curve.push(e);
    }
    // The epoch whose net did best on the held-out games (early stopping); with no held-out
    // game, the last.
    let (best_epoch, net) = match best {
        Some((_, epoch, n)) if !val_idx.is_empty() => (epoch, n),
        _ => (cfg.epochs, net),
    };
    // The mover's output alone, and the others' against their results alone: targets the
    // same whatever `cfg.others`.
    let seats_val = (k > 1 && !val_idx.is_empty()).then(|| {
        let mover: Vec<f32> = (0..n * k)
            .map(|j| if j == scored(j / k) { 1.0 } else { 0.0 })
            .collect();
        let others: Vec<f32> = mover.iter().map(|w| 1.0 - w).collect();
        let t = Targets {
            weight: &mover,
            ..targets
        };
        let r = Targets {
            target: &ds.result,
            weight: &others,
            ..targets
        };
        SeatsVal {
            mover: loss_of(&net, ds, &val_idx, &t),
            mover_hand: mse(&hand_pred, &target, &mover),
            others: loss_of(&net, ds, &val_idx, &r),
            others_hand: mse(&hand_pred, &ds.result, &others),
        }
    });
    let quantized_val = loss_of(
        &net.quantize("", "", out_scale, String::new()).to_float(),
        ds,
        &val_idx,
        &targets,
    );
    Trained {
        net,
        best_epoch,
        scale: out_scale,
        residual: cfg.residual,
        init_val,
        quantized_val,
        hand_scale,
        scales_fitted: scale_fitted && hand_scale_fitted,
        hand_val,
        constant_val,
        seats_val,
        curve,
        train_positions: train_idx.len(),
        val_positions: val_idx.len(),
    }
}

/// The loss curve as an SVG picture: training and held-out loss by epoch, with the hand
/// evaluation's held-out loss as a dashed line. With no game held out, the training loss
/// alone, and the legend says why.
pub fn curve_svg(tr: &Trained, title: &str) -> String {
    use std::fmt::Write;
    let held = tr.val_positions > 0;
    let (w, h, l, r, top, bot) = (640.0, 380.0, 70.0, 20.0, 40.0, 72.0);
    let mut vals: Vec<f64> = tr.curve.iter().map(|e| e.train).collect();
    if held {
        vals.extend(tr.curve.iter().map(|e| e.val));
        vals.push(tr.hand_val);
    }
    let hi = vals.iter().cloned().fold(f64::MIN, f64::max) * 1.05;
    let lo = vals.iter().cloned().fold(f64::MAX, f64::min) * 0.95;
    let n = tr.curve.len().max(2) as f64;
    let x = |e: f64| l + (e - 1.0) / (n - 1.0) * (w - l - r);
    let y = |v: f64| top + (hi - v) / (hi - lo).max(1e-12) * (h - top - bot);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\
<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\
<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
        w / 2.0,
        title
    );
    let _ = write!(
        s,
        "<line x1=\"{l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/><line x1=\"{l}\" y1=\"{top}\" x2=\"{l}\" y2=\"{}\" stroke=\"black\"/>",
        h - bot,
        w - r,
        h - bot,
        h - bot
    );
    for k in 0..=4 {
        let v = lo + (hi - lo) * k as f64 / 4.0;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.4}</text>",
            l - 6.0,
            y(v) + 4.0,
            v
        );
    }
    for e in &tr.curve {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x(e.epoch as f64),
            h - bot + 16.0,
            e.epoch
        );
    }
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">epoch</text>",
        (l + w - r) / 2.0,
        h - bot + 32.0
    );
    /// A curve: its name, its colour and its value at an epoch.
    type Curve = (&'static str, &'static str, fn(&Epoch) -> f64);
    let lines: [Curve; 2] = [
        ("training loss", "#1f77b4", |e: &Epoch| e.train),
        ("held-out loss", "#d62728", |e: &Epoch| e.val),
    ];
    for &(name, color, f) in &lines[..if held { 2 } else { 1 }] {
        let pts: Vec<String> = tr
            .curve
            .iter()
            .map(|e| format!("{:.1},{:.1}", x(e.epoch as f64), y(f(e))))
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>",
            pts.join(" ")
        );
        let _ = name;
    }
    if held {
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#2ca02c\" stroke-dasharray=\"6 4\" stroke-width=\"2\"/>",
            y(tr.hand_val),
            w - r
        );
    } else {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">no game held out: no held-out loss</text>",
            l + 190.0,
            h - 8.0
        );
    }
    let legend = [
        ("training loss", "#1f77b4"),
        ("held-out loss", "#d62728"),
        ("hand evaluation, held out", "#2ca02c"),
    ];
    for (i, (name, color)) in legend[..if held { 3 } else { 1 }].iter().enumerate() {
        // One row under the axis, so that no line of the plot runs through it.
        let xx = l + 190.0 * i as f64;
        let yy = h - 12.0;
        let _ = write!(
            s,
            "<line x1=\"{xx}\" y1=\"{yy}\" x2=\"{}\" y2=\"{yy}\" stroke=\"{color}\" stroke-width=\"2\"{}/><text x=\"{}\" y=\"{}\">{name}</text>",
            xx + 25.0,
            if i == 2 { " stroke-dasharray=\"6 4\"" } else { "" },
            xx + 30.0,
            yy + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sum over every core has the same bits whatever the number of threads (a re-run of
    /// `quatre train` on a busy machine wrote another net when it had not).
    #[test]
    fn ordered_sums_do_not_depend_on_the_threads() {
        let x: Vec<f64> = (0..50_000u64)
            .map(|i| ((i * 2_654_435_761) % 1_000_003) as f64 * 1e-7 + 1e-12 * i as f64)
            .collect();
        let sum = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| ordered_sum(x.len(), |r| x[r].iter().sum()))
        };
        let one = sum(1);
        for threads in [2, 3, 7] {
            assert_eq!(sum(threads).to_bits(), one.to_bits(), "{threads} threads");
        }
        let plain: f64 = x.iter().sum();
        assert!((one - plain).abs() < 1e-9 * plain.abs());
    }

    /// Three seats: an even position is worth a third, so scores are fitted as logits around
    /// logit(1/3); the scale of results made that way is found again (without the offset the
    /// fit could not reach them: σ(0) is a half).
    #[test]
    fn three_seat_scores_are_logits_around_a_third() {
        let offset = Net::logit_offset(3);
        assert!((sigmoid(offset) - 1.0 / 3.0).abs() < 1e-6);
        assert_eq!(Net::logit_offset(1), 0.0);
        let x: Vec<f32> = (-200..=200).map(|i| i as f32 * 10.0).collect();
        let r: Vec<f32> = x.iter().map(|&x| sigmoid(x / 500.0 + offset)).collect();
        let k = fit_scale(&x, &r, offset, |_| true);
        assert!((k - 500.0).abs() < 1.0, "{}", k);
        let err = |off: f32, k: f32| -> f32 {
            x.iter()
                .zip(&r)
                .map(|(&x, &r)| (sigmoid(as_logit(x, k, off)) - r).powi(2))
                .sum()
        };
        let k0 = fit_scale(&x, &r, 0.0, |_| true);
        assert!(
            err(0.0, k0) > 100.0 * err(offset, k).max(1e-9),
            "{}",
            err(0.0, k0)
        );
    }
}
