//! A learned move policy: a scorer over a game's move features (`Game::move_features`), whose
//! softmax over the legal moves gives MCTS its priors (docs/learning.md, "The policy"). Data
//! with a versioned header, never code, like the nets (`net.rs`).
//!
//! A move's logit is the sum of its features' weights (the linear part) and, with a hidden
//! layer of `hidden` units, `out · relu(bias + Σ embedding[feature])`: the hidden layer reads
//! the features together (a capture *and* an attacked destination), which the linear part
//! cannot.
//!
//! File layout (all integers little-endian):
//!
//! ```text
//! "QUATRPOL"                 8 bytes, the magic
//! version                    u32: 1 without a hidden layer, 2 with one (this build reads both)
//! header length              u32, then the header: JSON (`PolicyHeader`)
//! weights                    f32s: inputs (linear), then with a hidden layer inputs × hidden
//!                            (the embeddings, one row a feature), hidden (bias), hidden (out)
//! checksum                   u64, FNV-1a of every byte before it
//! ```

use super::net::{fnv1a, Reader};
use crate::game::Game;
use serde::{Deserialize, Serialize};

pub const POLICY_MAGIC: &[u8; 8] = b"QUATRPOL";
/// The newest format this build reads and writes (a policy without a hidden layer is written
/// as version 1, which older builds read).
pub const POLICY_VERSION: u32 = 2;

/// The most hidden units a policy may have.
pub const MAX_HIDDEN: usize = 64;

/// What a policy is for and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyHeader {
    /// The game's registry name.
    pub game: String,
    /// The move feature set (`Game::move_feature_set`).
    pub features: String,
    pub inputs: u32,
    /// Hidden units (0: linear; version 1 files have none).
    #[serde(default)]
    pub hidden: u32,
    /// How it was trained, for people.
    #[serde(default)]
    pub note: String,
}

/// A move policy: one weight per move feature, and the hidden layer's (`weights_len`).
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub header: PolicyHeader,
    pub weights: Vec<f32>,
}

/// The most move features a policy file may have.
const MAX_INPUTS: u32 = 16 << 20;

impl Policy {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(64 + 4 * self.weights.len());
        v.extend_from_slice(POLICY_MAGIC);
        let version: u32 = if self.header.hidden == 0 { 1 } else { 2 };
        v.extend_from_slice(&version.to_le_bytes());
        let header = serde_json::to_vec(&self.header).expect("a header serialises");
        v.extend_from_slice(&(header.len() as u32).to_le_bytes());
        v.extend_from_slice(&header);
        for w in &self.weights {
            v.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Reads a policy file, refusing (with what is wrong) anything but a whole, intact policy
    /// of a format this build reads.
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, String> {
        if bytes.len() < 8 || &bytes[..8] != POLICY_MAGIC {
            return Err("not a quatre policy (no QUATRPOL magic)".into());
        }
        let mut r = Reader(&bytes[8..]);
        let version = r.u32("version")?;
        if version == 0 || version > POLICY_VERSION {
            return Err(format!(
                "policy format version {} (this build reads versions 1 to {})",
                version, POLICY_VERSION
            ));
        }
        let hlen = r.u32("header length")? as usize;
        let header: PolicyHeader = serde_json::from_slice(r.take(hlen, "header")?)
            .map_err(|e| format!("bad policy header: {}", e))?;
        if header.inputs == 0 || header.inputs > MAX_INPUTS {
            return Err(format!(
                "policy of {} inputs (1 to {})",
                header.inputs, MAX_INPUTS
            ));
        }
        if header.hidden as usize > MAX_HIDDEN || (version == 1 && header.hidden != 0) {
            return Err(format!(
                "policy of {} hidden units in a version {} file (version 1: none; version 2: at most {})",
                header.hidden, version, MAX_HIDDEN
            ));
        }
        let weights: Vec<f32> = r
            .take(
                weights_len(header.inputs as usize, header.hidden as usize) * 4,
                "weights",
            )?
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect();
        if let Some(w) = weights.iter().find(|w| !w.is_finite()) {
            return Err(format!("a weight is not a number ({})", w));
        }
        let body = bytes.len() - r.0.len();
        let sum = u64::from_le_bytes(r.take(8, "checksum")?.try_into().expect("eight bytes"));
        if !r.0.is_empty() {
            return Err(format!(
                "{} bytes after the checksum (not a policy of this shape)",
                r.0.len()
            ));
        }
        if sum != fnv1a(&bytes[..body]) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        Ok(Policy { header, weights })
    }

    /// Whether this policy was trained for positions like `g` (its game and move feature set).
    pub fn fits<G: Game>(&self, g: &G) -> Result<(), String> {
        let set = g.move_feature_set();
        if self.header.game != G::NAME || set.as_deref() != Some(self.header.features.as_str()) {
            return Err(format!(
                "the policy is for {} ({}), not for {} ({})",
                self.header.game,
                self.header.features,
                G::NAME,
                set.as_deref().unwrap_or("no move features yet")
            ));
        }
        if g.move_feature_count() != self.header.inputs as usize {
            return Err(format!(
                "the policy has {} inputs, the move feature set {}",
                self.header.inputs,
                g.move_feature_count()
            ));
        }
        Ok(())
    }

    /// The logit of a move whose features are `feats`.
    #[inline]
    pub fn logit(&self, feats: &[u32]) -> f32 {
        let (n, h) = (self.header.inputs as usize, self.header.hidden as usize);
        match h {
            // No hidden sums to keep: a linear policy pays for no scratch.
            0 => logit(&self.weights, n, 0, feats, &mut []),
            // The widths trained so far, as arrays of a known size: the same sums in the same
            // order, without the loops' bounds checks and remainders (hyperchess's priors at the
            // start took 30% of MCTS's time in the generic one).
            16 => logit_of_width::<16>(&self.weights, n, feats),
            32 => logit_of_width::<32>(&self.weights, n, feats),
            _ => logit(&self.weights, n, h, feats, &mut [0.0; MAX_HIDDEN]),
        }
    }

    /// The priors of `moves` (legal in `g`) into `out`: the softmax of their logits, in their
    /// order. `feats` is scratch.
    pub fn priors<G: Game>(
        &self,
        g: &G,
        moves: &[G::Move],
        feats: &mut Vec<u32>,
        out: &mut Vec<f32>,
    ) {
        out.clear();
        out.extend(moves.iter().map(|&m| {
            feats.clear();
            g.move_features(m, feats);
            self.logit(feats)
        }));
        softmax(out);
    }
}

/// How many weights a policy of `inputs` features and `hidden` units has.
pub fn weights_len(inputs: usize, hidden: usize) -> usize {
    inputs
        + if hidden == 0 {
            0
        } else {
            inputs * hidden + 2 * hidden
        }
}

/// The logit of a move whose features are `feats` under the weights `w` of a policy of `n`
/// inputs and `h` hidden units (layout as in the file); the hidden units' sums before the
/// ReLU are left in `pre[..h]` (for training).
#[inline]
pub fn logit(w: &[f32], n: usize, h: usize, feats: &[u32], pre: &mut [f32]) -> f32 {
    let linear: f32 = feats.iter().map(|&f| w[f as usize]).sum();
    if h == 0 {
        return linear;
    }
    let (emb, rest) = w[n..].split_at(n * h);
    let (bias, out) = rest.split_at(h);
    let pre = &mut pre[..h];
    pre.copy_from_slice(bias);
    for &f in feats {
        let row = &emb[f as usize * h..(f as usize + 1) * h];
        pre.iter_mut().zip(row).for_each(|(a, r)| *a += r);
    }
    linear + relu_dot(pre, out)
}

/// The output layer: the hidden sums' ReLUs weighted by `out`, added in order.
#[inline]
fn relu_dot(pre: &[f32], out: &[f32]) -> f32 {
    pre.iter()
        .zip(out)
        .map(|(a, o)| a.max(0.0) * o)
        .sum::<f32>()
}

/// [`logit`] for `H` hidden units, adding in the same order (the same value to the bit).
#[inline]
fn logit_of_width<const H: usize>(w: &[f32], n: usize, feats: &[u32]) -> f32 {
    let linear: f32 = feats.iter().map(|&f| w[f as usize]).sum();
    let (emb, rest) = w[n..].split_at(n * H);
    let mut pre: [f32; H] = rest[..H].try_into().expect("the biases");
    let out: &[f32; H] = rest[H..2 * H].try_into().expect("the output weights");
    for &f in feats {
        let row: &[f32; H] = emb[f as usize * H..(f as usize + 1) * H]
            .try_into()
            .expect("a feature's row");
        for (a, r) in pre.iter_mut().zip(row) {
            *a += r;
        }
    }
    linear + relu_dot(&pre, out)
}

/// Turns logits into probabilities in place.
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in x.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in x.iter_mut() {
        *v /= sum;
    }
}

/// Reads a policy file.
pub fn load(path: &str) -> Result<Policy, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {}", path, e))?;
    Policy::from_bytes(&bytes).map_err(|e| format!("{}: {}", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_file_round_trips_and_refuses_damage() {
        let p = Policy {
            header: PolicyHeader {
                game: "hyperchess".into(),
                features: "test/1".into(),
                inputs: 5,
                hidden: 0,
                note: "n".into(),
            },
            weights: vec![0.5, -1.0, 2.0, 0.0, 3.25],
        };
        let bytes = p.to_bytes();
        assert_eq!(Policy::from_bytes(&bytes).unwrap(), p);
        for cut in [0, 7, 12, 20, bytes.len() - 1] {
            assert!(Policy::from_bytes(&bytes[..cut]).is_err(), "cut at {}", cut);
        }
        let mut bad = bytes.clone();
        let k = bad.len() - 12;
        bad[k] ^= 1;
        assert!(Policy::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert_eq!(&bytes[8..12], &1u32.to_le_bytes(), "linear: version 1");
        let mut newer = bytes;
        newer[8..12].copy_from_slice(&(POLICY_VERSION + 1).to_le_bytes());
        assert!(Policy::from_bytes(&newer)
            .unwrap_err()
            .contains(&format!("version {}", POLICY_VERSION + 1)));
    }

    #[test]
    fn a_hidden_layer_round_trips_and_adds_its_relu_sum() {
        let (n, h) = (3, 2);
        // Linear 0.5, −1, 2; embeddings (1, −1), (2, 0), (0, 3); bias (0.5, 0); out (1, 2).
        let weights = vec![
            0.5, -1.0, 2.0, 1.0, -1.0, 2.0, 0.0, 0.0, 3.0, 0.5, 0.0, 1.0, 2.0,
        ];
        assert_eq!(weights.len(), weights_len(n, h));
        let p = Policy {
            header: PolicyHeader {
                game: "threechess".into(),
                features: "test/1".into(),
                inputs: n as u32,
                hidden: h as u32,
                note: String::new(),
            },
            weights,
        };
        let bytes = p.to_bytes();
        assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "hidden: version 2");
        assert_eq!(Policy::from_bytes(&bytes).unwrap(), p);
        // Features 0 and 1: linear −0.5; pre (0.5 + 1 + 2, 0 − 1 + 0) = (3.5, −1) → relu (3.5, 0).
        assert_eq!(p.logit(&[0, 1]), -0.5 + 3.5);
        // Features 0 and 2: linear 2.5; pre (1.5, 2) → 1.5 + 4.
        assert_eq!(p.logit(&[0, 2]), 2.5 + 1.5 + 4.0);
        // Too many hidden units, or a hidden layer in a version 1 file: refused.
        let mut v1 = bytes.clone();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(Policy::from_bytes(&v1)
            .unwrap_err()
            .contains("hidden units"));
    }

    /// The widths with arrays of their own give the generic sums' values to the bit (so MCTS
    /// grows the same trees), on random weights and feature lists.
    #[test]
    fn the_fixed_widths_add_as_the_generic_logit_does() {
        use rand::Rng;
        let mut rng = crate::game::rng_from_seed(5);
        for h in [16, 32] {
            let n = 50;
            let w: Vec<f32> = (0..weights_len(n, h))
                .map(|_| rng.random_range(-1.0..1.0))
                .collect();
            let p = Policy {
                header: PolicyHeader {
                    game: "hyperchess".into(),
                    features: "test/1".into(),
                    inputs: n as u32,
                    hidden: h as u32,
                    note: String::new(),
                },
                weights: w.clone(),
            };
            for _ in 0..200 {
                let feats: Vec<u32> = (0..rng.random_range(1..15))
                    .map(|_| rng.random_range(0..n as u32))
                    .collect();
                let want = logit(&w, n, h, &feats, &mut [0.0; MAX_HIDDEN]);
                assert_eq!(
                    p.logit(&feats).to_bits(),
                    want.to_bits(),
                    "{} {:?}",
                    h,
                    feats
                );
            }
        }
    }

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let mut x = vec![1.0, 3.0, -2.0, 3.0];
        softmax(&mut x);
        assert!((x.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(x[1] > x[0] && x[0] > x[2] && x[1] == x[3]);
    }
}
