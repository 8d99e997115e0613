//! Fitting the weights of the one-board evaluation ([`chess_eval`]) to scored positions:
//! Texel's method, as chess engines tune their hand evaluations. The data are `quatre label` or
//! `quatre selfplay` files (docs/learning.md, "The file format") of `Boards=1x1` games: each
//! position's score from the mover's view, the move searched and the game's result. The command
//! is `examples/tune_chess_eval.rs`; it writes `chess_weights.rs`.
//!
//! The model is the evaluation itself: each feature's middlegame and endgame weights, blended by
//! the material phase. Adam on mini-batches fits them to the mean squared error between
//! `sigmoid(eval / scale)` and `(1 − λ)·sigmoid(score / scale) + λ·result` (the mover's score and
//! result seen from White), over the positions whose searched move neither captures nor
//! promotes and whose mover is not in check (as `quatre train` filters). Every twentieth game is
//! held out. Deterministic: the same data and options give the same weights.

use super::chess_eval::{self, Sink, COUNT, PHASE_MAX};
use super::Hyperchess;
use crate::game::{Game, RuleOptions};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::BufRead;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The weight of the game's result in the target (0: the searched scores alone).
    pub lambda: f64,
    pub epochs: usize,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f64,
    /// L2 pull of every weight but material's towards 0, per mini-batch step.
    pub l2: f64,
    /// Features seen in fewer training positions keep weight 0 (their weights would be noise:
    /// a king on its eighth row in the middlegame).
    pub min_count: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            lambda: 0.0,
            epochs: 12,
            scale: 200.0,
            l2: 1e-9,
            min_count: 300,
        }
    }
}

struct Position {
    /// Range into the feature arrays.
    start: u32,
    end: u32,
    phase: i32,
    /// The searched score (centipawns) and the game's result (1, ½, 0), both White's.
    score: f64,
    result: f64,
    /// The build's evaluation (its weights), White's.
    build: i32,
}

/// Positions read for a fit, as their features.
#[derive(Default)]
pub struct FitData {
    idx: Vec<u16>,
    val: Vec<i16>,
    train: Vec<Position>,
    held: Vec<Position>,
    games: usize,
}

struct Collect<'a>(&'a mut Vec<u16>, &'a mut Vec<i16>);
impl Sink for Collect<'_> {
    fn add(&mut self, f: usize, v: i32) {
        self.0.push(f as u16);
        self.1.push(v as i16);
    }
}

impl FitData {
    /// Games read, training positions, held-out positions.
    pub fn counts(&self) -> (usize, usize, usize) {
        (self.games, self.train.len(), self.held.len())
    }

    /// Reads a data file's games of hyperchess on one board (other games are skipped; `name`
    /// is for messages).
    pub fn read(&mut self, r: impl BufRead, name: &str) -> Result<(), String> {
        let opts = RuleOptions::of::<Hyperchess>()
            .with("Boards", "1x1")
            .with("Promotions", "chess");
        let mut result = None;
        let mut held = false;
        for line in r.lines() {
            let line = line.map_err(|e| format!("{name}: {e}"))?;
            let fields: Vec<&str> = line.split('\t').collect();
            if fields[0].starts_with("quatre-selfplay/") {
                self.games += 1;
                held = self.games.is_multiple_of(20);
                let one_board = fields.get(2).is_some_and(|o| o.contains("Boards=1x1"));
                result = fields
                    .iter()
                    .find_map(|f| f.strip_prefix("result="))
                    .and_then(|r| r.split(',').next()?.parse::<f64>().ok())
                    .filter(|_| fields.get(1) == Some(&"hyperchess") && one_board);
                continue;
            }
            let (Some(white_result), [_, seat, score, mv, text]) = (result, fields.as_slice())
            else {
                continue;
            };
            let Ok(score) = score.parse::<f64>() else {
                continue; // a mate or no score
            };
            let Ok(g) = Hyperchess::from_text(text, &opts) else {
                continue;
            };
            if g.in_check() || g.parse_move(mv).map_or(true, |m| g.is_noisy(m)) {
                continue;
            }
            let start = self.idx.len() as u32;
            chess_eval::terms(&g, &mut Collect(&mut self.idx, &mut self.val));
            let p = Position {
                start,
                end: self.idx.len() as u32,
                phase: chess_eval::phase(&g),
                score: if *seat == "1" { score } else { -score },
                result: white_result,
                build: g.evaluate(0),
            };
            if held {
                self.held.push(p);
            } else {
                self.train.push(p);
            }
        }
        Ok(())
    }

    fn eval(&self, w: &[[f64; 2]], p: &Position) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for i in p.start as usize..p.end as usize {
            let x = w[self.idx[i] as usize];
            mg += x[0] * self.val[i] as f64;
            eg += x[1] * self.val[i] as f64;
        }
        let ph = p.phase as f64 / PHASE_MAX as f64;
        mg * ph + eg * (1.0 - ph)
    }

    /// The held-out loss of the weights `w`.
    pub fn held_out_loss(&self, o: &FitOptions, w: &[[f64; 2]]) -> f64 {
        loss(&self.held, o, |p| self.eval(w, p))
    }

    /// The held-out loss of a constant 0 and of the build's evaluation.
    pub fn baselines(&self, o: &FitOptions) -> (f64, f64) {
        (
            loss(&self.held, o, |_| 0.0),
            loss(&self.held, o, |p| p.build as f64),
        )
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn target(p: &Position, o: &FitOptions) -> f64 {
    (1.0 - o.lambda) * sigmoid(p.score / o.scale) + o.lambda * p.result
}

fn loss(set: &[Position], o: &FitOptions, eval: impl Fn(&Position) -> f64) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|p| (sigmoid(eval(p) / o.scale) - target(p, o)).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

/// Material alone (the start of a fit): P 100, N 300, B 330, R 500, Q 900, G 300.
pub fn material_weights() -> Vec<[f64; 2]> {
    let mut w = vec![[0.0; 2]; COUNT];
    for (i, v) in [100.0, 300.0, 330.0, 500.0, 900.0, 300.0]
        .iter()
        .enumerate()
    {
        w[chess_eval::MATERIAL + i] = [*v, *v];
    }
    w
}

/// Fits the weights from material alone; `log` hears a line per epoch.
pub fn fit(data: &FitData, o: &FitOptions, log: &mut dyn FnMut(String)) -> Vec<[f64; 2]> {
    let mut w = material_weights();
    let mut seen = vec![0usize; COUNT];
    for p in &data.train {
        for j in p.start as usize..p.end as usize {
            seen[data.idx[j] as usize] += 1;
        }
    }
    let material = chess_eval::MATERIAL..chess_eval::MATERIAL + 6;
    let frozen: Vec<bool> = (0..COUNT)
        .map(|f| !material.contains(&f) && seen[f] < o.min_count)
        .collect();
    log(format!(
        "{} of {COUNT} features seen in fewer than {} positions: kept at 0",
        frozen.iter().filter(|&&f| f).count(),
        o.min_count
    ));
    // Adam on mini-batches, the learning rate stepped down over the epochs.
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m1 = vec![[0.0f64; 2]; COUNT];
    let mut m2 = vec![[0.0f64; 2]; COUNT];
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..data.train.len()).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for epoch in 0..o.epochs {
        let lr = if epoch < o.epochs / 2 {
            2.0
        } else if epoch < o.epochs * 5 / 6 {
            0.5
        } else {
            0.1
        };
        order.shuffle(&mut rng);
        for chunk in order.chunks(4096) {
            let mut grad = vec![[0.0f64; 2]; COUNT];
            for &i in chunk {
                let p = &data.train[i];
                let s = sigmoid(data.eval(&w, p) / o.scale);
                let d = 2.0 * (s - target(p, o)) * s * (1.0 - s) / o.scale;
                let ph = p.phase as f64 / PHASE_MAX as f64;
                for j in p.start as usize..p.end as usize {
                    let g = &mut grad[data.idx[j] as usize];
                    let v = data.val[j] as f64 * d;
                    g[0] += v * ph;
                    g[1] += v * (1.0 - ph);
                }
            }
            t += 1;
            let n = chunk.len() as f64;
            for f in (0..COUNT).filter(|&f| !frozen[f]) {
                for k in 0..2 {
                    let decay = if material.contains(&f) {
                        0.0
                    } else {
                        o.l2 * w[f][k]
                    };
                    let g = grad[f][k] / n + decay;
                    m1[f][k] = b1 * m1[f][k] + (1.0 - b1) * g;
                    m2[f][k] = b2 * m2[f][k] + (1.0 - b2) * g * g;
                    let mh = m1[f][k] / (1.0 - b1.powi(t));
                    let vh = m2[f][k] / (1.0 - b2.powi(t));
                    w[f][k] -= lr * mh / (vh.sqrt() + eps);
                }
            }
        }
        log(format!(
            "epoch {}: training loss {:.5}, held-out loss {:.5}",
            epoch + 1,
            loss(&data.train, o, |p| data.eval(&w, p)),
            data.held_out_loss(o, &w)
        ));
    }
    // The guard: no chess position has one (Stockfish does not play it). Where the data showed
    // none, it takes the knight's weights — on one board both are worth about three pawns and
    // step to at most eight squares — a prior until data with guards is fitted.
    let mut guard = vec![(chess_eval::MATERIAL + 5, chess_eval::MATERIAL + 1)];
    guard.extend((0..64).map(|s| (chess_eval::PST + 5 * 64 + s, chess_eval::PST + 64 + s)));
    guard.extend((0..9).map(|i| (chess_eval::MOB_G + i, chess_eval::MOB_N + i)));
    for block in [
        chess_eval::THREAT_PAWN,
        chess_eval::THREAT_MINOR,
        chess_eval::THREAT_ROOK,
    ] {
        guard.push((block + 5, block + 1));
    }
    let unseen: Vec<(usize, usize)> = guard.into_iter().filter(|&(g, _)| seen[g] == 0).collect();
    for &(g, n) in &unseen {
        w[g] = w[n];
    }
    log(format!(
        "{} guard weights unseen in the data: the knight's",
        unseen.len()
    ));
    w
}

/// The source of `chess_weights.rs` for the weights `w`; `how` (comment lines) says how they
/// were made.
pub fn weights_source(w: &[[f64; 2]], how: &[String]) -> String {
    let mut s = String::new();
    s += "//! The weights of `chess_eval.rs`'s features, [middlegame, endgame] in centipawns, written\n";
    s += "//! by `examples/tune_chess_eval.rs` (docs/learning.md, \"The 1x1 hand evaluation\"):\n";
    for line in how {
        s += &format!("//! {line}\n");
    }
    s += "//! Regenerate it rather than edit it.\n\n";
    s += "use super::chess_eval::COUNT;\n\npub static W: [[i16; 2]; COUNT] = [\n";
    for x in w {
        let r = |v: f64| v.round().clamp(-32000.0, 32000.0) as i16;
        s += &format!("    [{}, {}],\n", r(x[0]), r(x[1]));
    }
    s += "];\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameRng, Status};

    /// A data file of random one-board games whose scores are a known function of the
    /// position: 60 a pawn ahead and 20 for the side to move, from the mover's view.
    fn fixture(games: usize) -> String {
        let opts = RuleOptions::of::<Hyperchess>()
            .with("Boards", "1x1")
            .with("Promotions", "chess");
        let mut rng = GameRng::seed_from_u64(7);
        let mut out = String::new();
        let mut buf = Vec::new();
        for i in 0..games {
            out += &format!(
                "quatre-selfplay/1\thyperchess\tBoards=1x1,MaxPlies=0,Promotions=chess\tseed=7\t\
                 index={i}\tnodes=1\tstart=random:0\tresult=0.5,0.5\tplies=60\tpositions=60\t\
                 reason=test\n"
            );
            // From the rules' 1x1 start (guards on d1 and d8), where this fixture was made:
            // random games from chess's start reach the endgame phase too rarely to pin the
            // pawn's endgame weight.
            let mut g = Hyperchess::from_text(
                "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w - - 0 1",
                &opts,
            )
            .unwrap();
            for ply in 0..60 {
                if g.status() != Status::Ongoing {
                    break;
                }
                let Some(m) = g.random_move(&mut rng, &mut buf) else {
                    break;
                };
                let pawns = g.counts[0][PAWN as usize] as i32 - g.counts[1][PAWN as usize] as i32;
                let white = 60 * pawns + if g.side == 0 { 20 } else { -20 };
                let mover = if g.side == 0 { white } else { -white };
                let seat = g.side + 1;
                out += &format!(
                    "{ply}\t{seat}\t{mover}\t{}\t{}\n",
                    g.format_move(m),
                    g.to_text()
                );
                g.play(m);
            }
        }
        out
    }

    use super::super::PAWN;

    #[test]
    fn fitting_finds_the_scores_and_lowers_the_loss() {
        let mut data = FitData::default();
        data.read(fixture(200).as_bytes(), "fixture").unwrap();
        let (games, train, held) = data.counts();
        assert_eq!(games, 200);
        assert!(train > 2000 && held > 100, "{train} {held}");
        // (Two batches an epoch here: many epochs.)
        let o = FitOptions {
            epochs: 200,
            min_count: 0,
            ..FitOptions::default()
        };
        let before = data.held_out_loss(&o, &material_weights());
        let w = fit(&data, &o, &mut |_| {});
        let after = data.held_out_loss(&o, &w);
        assert!(after < before / 10.0, "{before} -> {after}");
        let tempo = w[chess_eval::TEMPO];
        assert!((tempo[0] - 20.0).abs() < 8.0, "{tempo:?}");
        let pawn = w[chess_eval::MATERIAL];
        assert!((pawn[1] - 60.0).abs() < 15.0, "{pawn:?}");
        // Deterministic.
        assert_eq!(fit(&data, &o, &mut |_| {}), w);
        // The source reads back as the weights, rounded.
        let src = weights_source(&w, &["test".to_string()]);
        assert_eq!(src.matches("    [").count(), COUNT);
    }
}
