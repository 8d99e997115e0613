//! `quatre train-policy`: fits a move policy (`policy.rs`) to the moves the self-play searches
//! chose (docs/learning.md, "The policy"), on every core.
//!
//! Each searched position gives one example: its legal moves, each described by its move
//! features, and the move the search played. The policy's logit for a move is the sum of its
//! features' weights, plus with `--hidden H` a hidden layer's (`policy::logit`); the loss is
//! the cross-entropy of the softmax over the position's moves against the move played,
//! minimised by Adam (the learning rate falling linearly to a tenth) with L2 decay. One game in
//! twenty is held out; beside the policy's loss and how often its first choice is the searched
//! move (top 1, and among its first three), the same figures are given for the order MCTS
//! widens in without a policy (`Game::move_priority`, stable) and for choosing uniformly.

use super::format::{place, GameData, Origin};
use super::policy::{logit, softmax, weights_len, Policy, PolicyHeader, MAX_HIDDEN};
use super::train::{check_seat, legal_move};
use crate::game::{Game, RuleOptions};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// `quatre train-policy` arguments (`--game` is the global flag: optional, the data names its
/// game).
#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Self-play files (`quatre selfplay --out`), all of one game and rule set.
    #[arg(long = "data", value_name = "FILE", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the policy.
    #[arg(long, value_name = "POLICY")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=1000))]
    pub epochs: u64,
    /// Adam's learning rate at the start (it falls linearly to a tenth).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.01)]
    pub lr: f32,
    /// L2 decay of the weights, per step, times the learning rate.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0001)]
    pub decay: f32,
    /// Positions per batch.
    #[arg(long, allow_negative_numbers = true, default_value_t = 512, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=1_000_000))]
    pub batch: u64,
    /// Seed of the shuffles (and of the hidden layer's first weights).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    /// Hidden units (0: a linear policy).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(0..=MAX_HIDDEN as i64))]
    pub hidden: u64,
    /// Start from this policy (a file `quatre train-policy` wrote, e.g. the shipped one) rather
    /// than from fresh weights: the next generation, trained on more games. It must be of the
    /// data's game and move feature set, with `--hidden` units exactly; its held-out figures
    /// are given before training.
    #[arg(long, value_name = "POLICY")]
    pub init: Option<PathBuf>,
}

/// Positions ready to train on: each one's moves, their features and the searched move.
#[derive(Default)]
pub struct PolicyData {
    /// Every move's features, one move after the other.
    feats: Vec<u32>,
    /// Move `j`'s features are `feats[move_off[j]..move_off[j + 1]]`.
    move_off: Vec<u32>,
    /// Position `i`'s moves are `pos_off[i]..pos_off[i + 1]`.
    pos_off: Vec<u32>,
    /// The index (among its position's moves) of the move the search played.
    target: Vec<u32>,
    /// Where that move stands in `move_priority`'s stable order (0 = first).
    priority_rank: Vec<u32>,
    held_out: Vec<bool>,
    pub feature_set: String,
    pub inputs: usize,
    /// Positions left out (game over, a single legal move).
    pub skipped: usize,
}

/// One game's examples, built on its own thread.
#[derive(Default)]
struct Part {
    feats: Vec<u32>,
    moves_feats: Vec<u32>,
    moves: Vec<u32>,
    target: Vec<u32>,
    rank: Vec<u32>,
    held_out: Vec<bool>,
    /// The move feature set, its inputs and where its first position was read.
    set: Option<(String, usize, String)>,
    skipped: usize,
}

/// Game `gd`'s examples; `origin`, where it was read, names it in errors.
fn game_part<G: Game>(gd: &GameData, origin: Option<&Origin>) -> Result<Part, String> {
    let at = |pos: Option<usize>| place(gd, origin, pos);
    let mut part = Part::default();
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
    let held_out = (gd.seed ^ gd.index as u64).is_multiple_of(20);
    let mut moves = Vec::new();
    for (k, p) in gd.positions.iter().enumerate() {
        let g = G::from_text(&p.text, &opts)
            .map_err(|e| format!("{}: the position does not load: {}", at(Some(k)), e))?;
        check_seat(&g, p.seat).map_err(|e| format!("{}: {}", at(Some(k)), e))?;
        if g.status().is_over() {
            part.skipped += 1;
            continue;
        }
        // The example's target: a move of the position's, or the data is not what it says.
        let played =
            legal_move(&g, &p.mv, &mut moves).map_err(|e| format!("{}: {}", at(Some(k)), e))?;
        let t = moves
            .iter()
            .position(|&x| x == played)
            .expect("a legal move is among the legal moves");
        if moves.len() < 2 {
            part.skipped += 1;
            continue;
        }
        let Some(set) = g.move_feature_set() else {
            return Err(format!("{} has no move features yet", G::NAME));
        };
        match &part.set {
            None => part.set = Some((set, g.move_feature_count(), at(Some(k)))),
            Some((s, _, first)) if *s != set => {
                return Err(format!(
                    "{}: a position of move feature set {} among positions of {} ({}): train one policy per rule set",
                    at(Some(k)),
                    set,
                    s,
                    first
                ))
            }
            _ => {}
        }
        for &m in &moves {
            g.move_features(m, &mut part.feats);
            part.moves_feats.push(part.feats.len() as u32);
        }
        part.moves.push(moves.len() as u32);
        part.target.push(t as u32);
        // MCTS's order without a policy: move_priority, highest first, stable.
        let key = g.move_priority(moves[t]);
        let rank = moves
            .iter()
            .enumerate()
            .filter(|&(j, &m)| {
                let k = g.move_priority(m);
                k > key || (k == key && j < t)
            })
            .count();
        part.rank.push(rank as u32);
        part.held_out.push(held_out);
    }
    Ok(part)
}

impl PolicyData {
    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The examples of `games` (all of game `G`), built in parallel. Errors name a game by
    /// its index and seed.
    pub fn of<G: Game>(games: &[GameData]) -> Result<PolicyData, String> {
        Self::of_read::<G>(games, &[])
    }

    /// [`of`](Self::of) for games read from files, `origins[i]` where `games[i]` was read (or
    /// none): errors name the file and the line.
    pub fn of_read<G: Game>(games: &[GameData], origins: &[Origin]) -> Result<PolicyData, String> {
        // Every game's part, then the first error in the data's order (not whichever thread
        // failed first): the same message for the same data.
        let parts: Vec<Result<Part, String>> = games
            .par_iter()
            .enumerate()
            .map(|(i, g)| game_part::<G>(g, origins.get(i)))
            .collect();
        let parts: Vec<Part> = parts.into_iter().collect::<Result<_, _>>()?;
        let mut d = PolicyData {
            move_off: vec![0],
            pos_off: vec![0],
            ..Default::default()
        };
        let mut first = String::new();
        for p in parts {
            if let Some((set, n, at)) = p.set {
                if d.feature_set.is_empty() {
                    d.feature_set = set;
                    d.inputs = n;
                    first = at;
                } else if set != d.feature_set {
                    return Err(format!(
                        "{}: a position of move feature set {} among positions of {} ({}): train one policy per rule set",
                        at, set, d.feature_set, first
                    ));
                }
            }
            let base = d.feats.len() as u32;
            d.feats.extend_from_slice(&p.feats);
            d.move_off.extend(p.moves_feats.iter().map(|&o| base + o));
            for &n in &p.moves {
                let last = *d.pos_off.last().expect("starts with 0");
                d.pos_off.push(last + n);
            }
            d.target.extend(p.target);
            d.priority_rank.extend(p.rank);
            d.held_out.extend(p.held_out);
            d.skipped += p.skipped;
        }
        Ok(d)
    }

    fn moves(&self, i: usize) -> std::ops::Range<usize> {
        self.pos_off[i] as usize..self.pos_off[i + 1] as usize
    }

    fn move_feats(&self, j: usize) -> &[u32] {
        &self.feats[self.move_off[j] as usize..self.move_off[j + 1] as usize]
    }

    /// Position `i`'s move logits under `w` (`h` hidden units), into `out`; each move's hidden
    /// sums before the ReLU into `pre` (`h` a move).
    fn logits(&self, w: &[f32], h: usize, i: usize, out: &mut Vec<f32>, pre: &mut Vec<f32>) {
        out.clear();
        pre.clear();
        let mut a = [0.0; MAX_HIDDEN];
        for j in self.moves(i) {
            out.push(logit(w, self.inputs, h, self.move_feats(j), &mut a));
            pre.extend_from_slice(&a[..h]);
        }
    }

    /// Adds to `g` the gradient of position `i`'s loss under `w` (`h` hidden units), and
    /// returns that loss (the cross-entropy of the searched move). `buf` and `pre` are scratch.
    fn gradient(
        &self,
        w: &[f32],
        h: usize,
        i: usize,
        g: &mut [f32],
        buf: &mut Vec<f32>,
        pre: &mut Vec<f32>,
    ) -> f64 {
        self.logits(w, h, i, buf, pre);
        softmax(buf);
        let t = self.target[i] as usize;
        let loss = -(buf[t].max(1e-12) as f64).ln();
        let inputs = self.inputs;
        let out_at = inputs + inputs * h + h;
        for (k, j) in self.moves(i).enumerate() {
            let e = buf[k] - (k == t) as u32 as f32;
            if e.abs() <= 1e-7 {
                continue;
            }
            for &f in self.move_feats(j) {
                g[f as usize] += e;
            }
            if h == 0 {
                continue;
            }
            // Back through the hidden layer: the output weights see the units' values, the
            // units that are on pass the error to their bias and to the embeddings of the
            // move's features.
            let mut delta = [0.0f32; MAX_HIDDEN];
            for u in 0..h {
                let a = pre[k * h + u];
                if a > 0.0 {
                    g[out_at + u] += e * a;
                    delta[u] = e * w[out_at + u];
                    g[out_at - h + u] += delta[u];
                }
            }
            for &f in self.move_feats(j) {
                let row = inputs + f as usize * h;
                g[row..row + h]
                    .iter_mut()
                    .zip(&delta[..h])
                    .for_each(|(x, y)| *x += y);
            }
        }
        loss
    }
}

/// Held-out figures of one way of choosing moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scores {
    /// Mean cross-entropy (nats).
    pub loss: f64,
    /// How often the first choice is the searched move.
    pub top1: f64,
    /// How often the searched move is among the first three.
    pub top3: f64,
}

/// The policy `w`'s (`h` hidden units) figures over the positions `which` keeps.
fn evaluate(d: &PolicyData, w: &[f32], h: usize, which: impl Fn(usize) -> bool + Sync) -> Scores {
    let (n, loss, t1, t3) = (0..d.len())
        .into_par_iter()
        .filter(|&i| which(i))
        .map_init(
            || (Vec::new(), Vec::new()),
            |(buf, pre), i| {
                d.logits(w, h, i, buf, pre);
                let t = d.target[i] as usize;
                let lt = buf[t];
                // The target's place in MCTS's widening order: higher logits first, ties in the
                // order of the legal moves (a stable sort).
                let above = buf
                    .iter()
                    .enumerate()
                    .filter(|&(j, &l)| l > lt || (l == lt && j < t))
                    .count();
                softmax(buf);
                (
                    1usize,
                    -(buf[t].max(1e-12) as f64).ln(),
                    (above == 0) as usize,
                    (above < 3) as usize,
                )
            },
        )
        .reduce(
            || (0, 0.0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3),
        );
    let n = n.max(1) as f64;
    Scores {
        loss: loss / n,
        top1: t1 as f64 / n,
        top3: t3 as f64 / n,
    }
}

/// What training gave.
pub struct Trained {
    pub weights: Vec<f32>,
    pub policy: Scores,
    pub priority: Scores,
    pub uniform_loss: f64,
    pub train_positions: usize,
    pub val_positions: usize,
}

/// Positions a thread sums at a time within a batch (the unit that keeps training
/// deterministic).
const SLICE: usize = 32;

/// Trains a policy on `d`, calling `each_epoch(epoch, training loss, held-out scores)`; from
/// `init`'s weights (of `d`'s inputs and `a.hidden` units, as in the file) if given.
pub fn train(
    d: &PolicyData,
    a: &PolicyArgs,
    init: Option<&[f32]>,
    mut each_epoch: impl FnMut(usize, f64, Scores),
) -> Trained {
    let (n, h) = (d.inputs, a.hidden as usize);
    assert!(
        h <= MAX_HIDDEN,
        "at most {MAX_HIDDEN} hidden units, not {h}"
    );
    let total = weights_len(n, h);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed);
    // The linear part starts at 0; the hidden layer's embeddings and outputs small and random
    // (all at 0 would never move), its biases a little above 0 (most units on).
    let mut w = vec![0.0f32; total];
    if let Some(i) = init {
        assert_eq!(
            i.len(),
            total,
            "the initial policy's shape is not the one trained"
        );
        w.copy_from_slice(i);
    } else if h > 0 {
        use rand::Rng;
        for x in &mut w[n..n + n * h] {
            *x = rng.random_range(-0.1..0.1);
        }
        w[n + n * h..n + n * h + h].fill(0.1);
        for x in &mut w[n + n * h + h..] {
            *x = rng.random_range(-0.1..0.1);
        }
    }
    let n = total;
    let (mut m1, mut m2) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut train_idx: Vec<usize> = (0..d.len()).filter(|&i| !d.held_out[i]).collect();
    let batch = a.batch as usize;
    let steps_total = (a.epochs as usize * train_idx.len().div_ceil(batch)).max(1);
    let mut step = 0usize;
    for epoch in 1..=a.epochs as usize {
        train_idx.shuffle(&mut rng);
        let mut loss_sum = 0.0f64;
        for chunk in train_idx.chunks(batch) {
            // Each slice of the batch summed on one thread, the slices then added in their
            // order: the same policy from the same data and seed whatever the number of cores.
            let parts: Vec<(Vec<f32>, f64)> = chunk
                .par_chunks(SLICE)
                .map(|slice| {
                    let (mut g, mut l) = (vec![0.0f32; n], 0.0f64);
                    let (mut buf, mut pre) = (Vec::new(), Vec::new());
                    for &i in slice {
                        l += d.gradient(&w, h, i, &mut g, &mut buf, &mut pre);
                    }
                    (g, l)
                })
                .collect();
            let mut parts = parts.into_iter();
            let (mut grad, mut loss) = parts.next().expect("a batch is not empty");
            for (g, l) in parts {
                grad.iter_mut().zip(&g).for_each(|(x, y)| *x += y);
                loss += l;
            }
            loss_sum += loss;
            step += 1;
            let lr = a.lr * (1.0 - 0.9 * step as f32 / steps_total as f32);
            let scale = 1.0 / chunk.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
            for k in 0..n {
                let g = grad[k] * scale;
                m1[k] = b1 * m1[k] + (1.0 - b1) * g;
                m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
                w[k] -= lr * ((m1[k] / c1) / ((m2[k] / c2).sqrt() + eps) + a.decay * w[k]);
            }
        }
        let val = evaluate(d, &w, h, |i| d.held_out[i]);
        each_epoch(epoch, loss_sum / train_idx.len().max(1) as f64, val);
    }
    let held: Vec<usize> = (0..d.len()).filter(|&i| d.held_out[i]).collect();
    let hn = held.len().max(1) as f64;
    let priority = Scores {
        loss: f64::NAN,
        top1: held.iter().filter(|&&i| d.priority_rank[i] == 0).count() as f64 / hn,
        top3: held.iter().filter(|&&i| d.priority_rank[i] < 3).count() as f64 / hn,
    };
    let uniform_loss = held
        .iter()
        .map(|&i| (d.moves(i).len() as f64).ln())
        .sum::<f64>()
        / hn;
    Trained {
        policy: evaluate(d, &w, h, |i| d.held_out[i]),
        weights: w,
        priority,
        uniform_loss,
        train_positions: train_idx.len(),
        val_positions: held.len(),
    }
}

/// Runs `quatre train-policy`, printing progress with `say`.
pub fn run(game: Option<&str>, a: &PolicyArgs, say: &dyn Fn(&str)) -> Result<(), String> {
    if !(a.lr > 0.0 && a.lr < 10.0) {
        return Err(format!("--lr must be above 0 and below 10, not {}", a.lr));
    }
    if !(a.decay >= 0.0 && a.decay < 1.0) {
        return Err(format!(
            "--decay must be at least 0 and below 1, not {}",
            a.decay
        ));
    }
    super::cli::check_output("--out", &a.out, &a.data)?;
    // A policy to start from is read before the data, which can take minutes (its game and
    // move features are checked against the data once read).
    let init = match &a.init {
        Some(path) => Some(initial_policy(path, a)?),
        None => None,
    };
    let t0 = Instant::now();
    let data = super::cli::read_games(&a.data, game)?;
    match data.name.as_str() {
        "hyperchess" => run_game::<crate::games::hyperchess::Hyperchess>(&data, a, init, t0, say),
        "threechess" => run_game::<crate::games::threechess::Threechess>(&data, a, init, t0, say),
        other => Err(format!(
            "no move features for {} yet (games with them: hyperchess, threechess)",
            other
        )),
    }
}

fn run_game<G: Game>(
    data: &super::cli::Games,
    a: &PolicyArgs,
    init: Option<Policy>,
    t0: Instant,
    say: &dyn Fn(&str),
) -> Result<(), String> {
    let games = &data.games;
    let d = PolicyData::of_read::<G>(games, &data.origins)?;
    if d.is_empty() {
        return Err("no position to train on (every one was left out)".into());
    }
    say(&format!(
        "{} games, {} positions ({} moves; {} left out), move feature set {} ({} inputs), read in {:.1} s",
        games.len(),
        d.len(),
        d.pos_off.last().copied().unwrap_or(0),
        d.skipped,
        d.feature_set,
        d.inputs,
        t0.elapsed().as_secs_f64()
    ));
    // With no game held out there are no held-out figures: said before training, and `-`
    // (not 0) wherever they would be.
    let held_out = d.held_out.iter().any(|&h| h);
    if !held_out {
        say(&super::cli::no_game_held_out(games.len(), "policy"));
    }
    // The policy to start from, once it fits the data; its held-out figures first.
    let init = init
        .zip(a.init.as_deref())
        .map(|(p, path)| fits_data(p, path, G::NAME, &d))
        .transpose()?;
    let init_scores = init
        .as_ref()
        .filter(|_| held_out)
        .map(|w| evaluate(&d, w, a.hidden as usize, |i| d.held_out[i]));
    if let (Some(v), Some(path)) = (init_scores, &a.init) {
        say(&format!(
            "held out, before training: {} loss {:.4}, top 1 {:.1}%, top 3 {:.1}%",
            path.display(),
            v.loss,
            100.0 * v.top1,
            100.0 * v.top3
        ));
    }
    let t1 = Instant::now();
    let tr = train(&d, a, init.as_deref(), |e, l, v| {
        say(&format!(
            "epoch {:>3}  training loss {:.4}  {}  ({:.1} s)",
            e,
            l,
            if held_out {
                format!(
                    "held-out loss {:.4}  top 1 {:.1}%  top 3 {:.1}%",
                    v.loss,
                    100.0 * v.top1,
                    100.0 * v.top3
                )
            } else {
                "held-out loss -".to_string()
            },
            t1.elapsed().as_secs_f64()
        ))
    });
    if held_out {
        say(&format!(
            "held-out positions {}: policy loss {:.4}, top 1 {:.1}%, top 3 {:.1}%; move_priority's order top 1 {:.1}%, top 3 {:.1}%; uniform loss {:.4}",
            tr.val_positions,
            tr.policy.loss,
            100.0 * tr.policy.top1,
            100.0 * tr.policy.top3,
            100.0 * tr.priority.top1,
            100.0 * tr.priority.top3,
            tr.uniform_loss
        ));
    } else {
        say("no game held out: the last epoch's policy, its held-out loss not known");
    }
    let held = if held_out {
        format!(
            "held-out loss {:.4} (uniform {:.4}), top 1 {:.1}%",
            tr.policy.loss,
            tr.uniform_loss,
            100.0 * tr.policy.top1
        )
    } else {
        "no game held out".to_string()
    };
    let policy = Policy {
        header: PolicyHeader {
            game: G::NAME.to_string(),
            features: d.feature_set.clone(),
            inputs: d.inputs as u32,
            hidden: a.hidden as u32,
            note: format!(
                "{} positions of {} games, {} hidden units, {} epochs, lr {}, decay {}, batch {}, seed {}; {}",
                tr.train_positions,
                games.len(),
                a.hidden,
                a.epochs,
                a.lr,
                a.decay,
                a.batch,
                a.seed,
                held
            ) + &match (&a.init, init_scores) {
                (Some(p), Some(v)) => {
                    format!("; started from {} (held-out loss {:.4})", p.display(), v.loss)
                }
                (Some(p), None) => format!("; started from {}", p.display()),
                _ => String::new(),
            },
        },
        weights: tr.weights,
    };
    let bytes = policy.to_bytes();
    super::cli::write_atomically(&a.out, &bytes)?;
    say(&format!(
        "wrote {} ({} bytes) in {:.1} s",
        a.out.display(),
        bytes.len(),
        t0.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// `--init`: the policy at `path`, once it is known to have `--hidden` units.
fn initial_policy(path: &std::path::Path, a: &PolicyArgs) -> Result<Policy, String> {
    let p = super::policy::load(&path.to_string_lossy()).map_err(|e| format!("--init {}", e))?;
    if p.header.hidden as u64 != a.hidden {
        return Err(format!(
            "--init {}: {} hidden units: give --hidden {}",
            path.display(),
            p.header.hidden,
            p.header.hidden
        ));
    }
    Ok(p)
}

/// `--init`'s policy `p` (read from `path`) as weights, once it fits the data: `game`, its move
/// feature set and inputs.
fn fits_data(
    p: Policy,
    path: &std::path::Path,
    game: &str,
    d: &PolicyData,
) -> Result<Vec<f32>, String> {
    let h = &p.header;
    let file = (h.game.as_str(), h.features.as_str(), h.inputs as usize);
    let data = (game, d.feature_set.as_str(), d.inputs);
    match super::cli::misfit("a policy", "move feature set", file, data) {
        Some(w) => Err(format!("--init {}: {}", path.display(), w)),
        None => Ok(p.weights),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gradient of a policy with a hidden layer matches the loss's finite differences, for
    /// every kind of weight (linear, embedding, bias, output).
    #[test]
    fn the_hidden_layers_gradient_matches_finite_differences() {
        // Two positions of three and two moves over five features.
        let d = PolicyData {
            feats: vec![0, 1, 1, 2, 3, 4, 0, 2, 4, 1, 3],
            move_off: vec![0, 2, 4, 6, 9, 11],
            pos_off: vec![0, 3, 5],
            target: vec![1, 0],
            priority_rank: vec![0, 0],
            held_out: vec![false, false],
            feature_set: "test/1".into(),
            inputs: 5,
            skipped: 0,
        };
        let h = 3;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        use rand::Rng;
        let w: Vec<f32> = (0..weights_len(5, h))
            .map(|_| rng.random_range(-1.0..1.0))
            .collect();
        let (mut buf, mut pre) = (Vec::new(), Vec::new());
        let loss = |w: &[f32]| -> f64 {
            let mut g = vec![0.0; w.len()];
            let (mut b, mut p) = (Vec::new(), Vec::new());
            (0..2)
                .map(|i| d.gradient(w, h, i, &mut g, &mut b, &mut p))
                .sum()
        };
        let mut g = vec![0.0; w.len()];
        for i in 0..2 {
            d.gradient(&w, h, i, &mut g, &mut buf, &mut pre);
        }
        let eps = 1e-2f32;
        for k in 0..w.len() {
            let (mut up, mut down) = (w.clone(), w.clone());
            up[k] += eps;
            down[k] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * eps as f64);
            assert!(
                (numeric - g[k] as f64).abs() < 2e-3,
                "weight {k}: analytic {} numeric {numeric}",
                g[k]
            );
        }
        assert!(
            g[5..].iter().any(|&x| x.abs() > 1e-3),
            "the hidden layer learns"
        );
    }
}
