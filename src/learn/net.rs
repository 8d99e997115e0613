//! A learned evaluation: the network file (data with a versioned header, never code) and its
//! integer inference.
//!
//! The net: a game's sparse input features (`NetInput`) → one hidden layer of `hidden` units
//! (clipped ReLU) → `outputs` logits. With two seats there is one output, seat 0's expected
//! reward as a logit; the engine's score for seat 0 is that logit times `eval_scale` (the scale
//! `K` at which `σ(score/K)` predicts results, fitted on the training data), negated for seat 1.
//! With more seats there is one output per seat, seat `s`'s expected reward as a logit, and
//! seat `s`'s score is output `s`'s logit times `eval_scale`.
//!
//! File layout (all integers little-endian):
//!
//! ```text
//! "QUATRNET"                 8 bytes, the magic
//! version                    u32 (this build writes and reads FORMAT_VERSION)
//! header length              u32, then the header: JSON (`Header`)
//! w1                         inputs × hidden i16, feature-major, scaled by qa
//! b1                         hidden i16, scaled by qa (the clipped ReLU's ceiling: 1.0 → qa)
//! w2                         outputs × hidden i16, scaled by qb
//! b2                         outputs i32, scaled by qa × qb
//! checksum                   u64, FNV-1a of every byte before it
//! ```

use crate::game::{Game, Seat};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

pub const MAGIC: &[u8; 8] = b"QUATRNET";
pub const FORMAT_VERSION: u32 = 3;
/// The oldest version this build still reads (version 1 had no `base`: its nets are whole).
pub const OLDEST_VERSION: u32 = 1;
/// The clipped ReLU's ceiling in the quantized hidden layer (1.0 in the float net) in versions
/// 1 and 2, whose hidden weights and biases all have this scale. Version 3 lets each net
/// have its own, `QA · 2^s` (`QA_SHIFTS`), the largest its weights fit an i16 at: trained
/// input weights are mostly below 2/255, which this scale rounds to 0 or ±1.
pub const QA: i32 = 255;
/// The shifts a version-3 net's `qa` may have over `QA`.
pub const QA_SHIFTS: std::ops::RangeInclusive<u32> = 0..=6;
/// The output weights' scale.
pub const QB: i32 = 512;
/// Weights are kept within ±CLIP while training so that `CLIP · QA · 2^6` fits an i16.
pub const CLIP: f32 = 1.98;

/// What a net is for and how it was made: read before any weight, so that a net of another
/// game, feature set or shape is refused with a message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The game's registry name.
    pub game: String,
    /// The feature set and the rule options it depends on (`NetInput::feature_set`).
    pub features: String,
    pub inputs: u32,
    pub hidden: u32,
    pub outputs: u32,
    pub qa: i32,
    pub qb: i32,
    /// Engine score units per unit of output logit.
    pub eval_scale: f32,
    /// How it was trained (data, epochs, loss), for people.
    #[serde(default)]
    pub note: String,
    /// What the net's output is added to: empty, the net is the whole evaluation; `hand`, the
    /// net is a correction learned on top of the game's hand evaluation (score = hand +
    /// logit × eval_scale). Since version 2.
    #[serde(default)]
    pub base: String,
}

/// `Header::base` of a net that corrects the hand evaluation.
pub const BASE_HAND: &str = "hand";

/// The float net the trainer works on.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    /// `inputs × hidden`, feature-major.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `outputs × hidden`.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl FloatNet {
    /// Small random weights from `seed` (uniform, scaled by the fan-in): `active` is the mean
    /// number of active features in a position (a hyperchess 3x3 position has hundreds), so
    /// that a hidden sum starts within the clipped ReLU's range rather than saturated.
    pub fn new(inputs: usize, hidden: usize, outputs: usize, active: f32, seed: u64) -> FloatNet {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let a = 0.5 / active.max(1.0).sqrt();
        let b = 1.0 / (hidden as f32).sqrt();
        FloatNet {
            inputs,
            hidden,
            outputs,
            w1: (0..inputs * hidden)
                .map(|_| rng.random_range(-a..a))
                .collect(),
            b1: vec![0.5; hidden],
            w2: (0..outputs * hidden)
                .map(|_| rng.random_range(-b..b))
                .collect(),
            b2: vec![0.0; outputs],
        }
    }

    /// This net with `hidden` units (at least its own), scoring every position as it did: its
    /// units come first, the new ones get random input weights (as [`FloatNet::new`]'s, from
    /// `active` and `seed`) and output weights of zero, so training grows them from there
    /// (`quatre train --init` with a larger `--hidden`).
    pub fn widened(&self, hidden: usize, active: f32, seed: u64) -> FloatNet {
        assert!(hidden >= self.hidden, "a net is widened, not narrowed");
        if hidden == self.hidden {
            return self.clone();
        }
        let (h0, k) = (self.hidden, self.outputs);
        let mut n = FloatNet::new(self.inputs, hidden, k, active, seed);
        for f in 0..self.inputs {
            n.w1[f * hidden..][..h0].copy_from_slice(&self.w1[f * h0..][..h0]);
        }
        n.b1[..h0].copy_from_slice(&self.b1);
        for o in 0..k {
            let row = &mut n.w2[o * hidden..][..hidden];
            row[..h0].copy_from_slice(&self.w2[o * h0..][..h0]);
            row[h0..].iter_mut().for_each(|w| *w = 0.0);
        }
        n.b2.copy_from_slice(&self.b2);
        n
    }

    /// The hidden sums of a position's active features.
    pub fn accumulate(&self, features: &[u32], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[f as usize * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output logits of a position.
    pub fn forward(&self, features: &[u32], out: &mut [f32]) {
        let mut acc = vec![0.0; self.hidden];
        self.accumulate(features, &mut acc);
        for (o, out) in out.iter_mut().enumerate() {
            let w = &self.w2[o * self.hidden..][..self.hidden];
            *out = self.b2[o]
                + acc
                    .iter()
                    .zip(w)
                    .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                    .sum::<f32>();
        }
    }

    /// The integer net for `game`'s feature set `features`, its output logit worth
    /// `eval_scale` engine units; `note` says how it was made. The net is the whole evaluation;
    /// `Net::with_base` makes it a correction.
    pub fn quantize(&self, game: &str, features: &str, eval_scale: f32, note: String) -> Net {
        // The finest hidden scale at which every input weight and hidden bias fits an i16.
        let largest = self
            .w1
            .iter()
            .map(|w| w.clamp(-CLIP, CLIP).abs())
            .chain(self.b1.iter().map(|b| b.abs()))
            .fold(0.0f32, f32::max);
        let qa = QA_SHIFTS
            .rev()
            .map(|s| QA << s)
            .find(|&qa| largest * qa as f32 <= 32767.0)
            .unwrap_or(QA);
        self.quantize_with(qa, game, features, eval_scale, note)
    }

    /// The net at hidden scale `qa` (tests: what the scale of versions 1 and 2 kept).
    #[cfg(test)]
    fn quantize_at(&self, qa: i32) -> Net {
        self.quantize_with(qa, "hyperchess", "test/1", 400.0, String::new())
    }

    /// [`FloatNet::quantize`] at hidden scale `qa` (versions 1 and 2 had `QA` only); `qa`
    /// must be one [`Net::from_bytes`] reads, and the weights fit an i16 at it.
    pub fn quantize_with(
        &self,
        qa: i32,
        game: &str,
        features: &str,
        eval_scale: f32,
        note: String,
    ) -> Net {
        let header = Header {
            game: game.to_string(),
            features: features.to_string(),
            inputs: self.inputs as u32,
            hidden: self.hidden as u32,
            outputs: self.outputs as u32,
            qa,
            qb: QB,
            eval_scale,
            note,
            base: String::new(),
        };
        let q = |v: f32, s: i32| (v.clamp(-CLIP, CLIP) * s as f32).round() as i16;
        Net {
            id: new_id(),
            range: Vec::new(),
            folded: std::sync::OnceLock::new(),
            header,
            w1: self.w1.iter().map(|&w| q(w, qa)).collect(),
            // A bias may exceed the clip; it only has to fit an i16 at scale qa.
            b1: self
                .b1
                .iter()
                .map(|&b| (b * qa as f32).round().clamp(-32768.0, 32767.0) as i16)
                .collect(),
            w2: self.w2.iter().map(|&w| q(w, QB)).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b * (qa * QB) as f32).round() as i32)
                .collect(),
        }
        .with_ranges()
    }
}

/// A quantized net, as loaded from a file.
#[derive(Clone)]
pub struct Net {
    pub header: Header,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: Vec<i32>,
    /// Which input weights these are, for the threads' incremental hidden sums (`infer.rs`):
    /// given when the weights are made or read, never twice (a clone shares its weights' id).
    id: u64,
    /// per output, the least and greatest logit its weights can give (`correction_range`).
    range: Vec<(f32, f32)>,
    /// The rows of the game's words of bits (`folded_rows`), made on first use.
    folded: std::sync::OnceLock<Option<Vec<i16>>>,
}

/// Two nets are equal when their headers and weights are (whatever their ids).
impl PartialEq for Net {
    fn eq(&self, o: &Net) -> bool {
        self.header == o.header
            && self.w1 == o.w1
            && self.b1 == o.b1
            && self.w2 == o.w2
            && self.b2 == o.b2
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A net id not given before (0 is none).
fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({:?})", self.header)
    }
}

/// Reads a net file.
pub fn load(path: &str) -> Result<Net, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {}", path, e))?;
    Net::from_bytes(&bytes).map_err(|e| format!("{}: {}", path, e))
}

pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Reads little-endian values off the front of a byte slice.
pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(format!("the file ends inside the {} (truncated)", what));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    pub(super) fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, String> {
        let b = self.take(n * 2, what)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
    fn i32s(&mut self, n: usize, what: &str) -> Result<Vec<i32>, String> {
        let b = self.take(n * 4, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect())
    }
}

/// The largest net a file may describe (inputs × hidden weights): a header cannot make the
/// engine allocate more than this.
const MAX_WEIGHTS: u64 = 64 << 20;

impl Net {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(64 + 2 * self.w1.len());
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let header = serde_json::to_vec(&self.header).expect("a header serialises");
        v.extend_from_slice(&(header.len() as u32).to_le_bytes());
        v.extend_from_slice(&header);
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            v.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Reads a net file, refusing (with what is wrong) anything but a whole, intact net of a
    /// format this build reads.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err("not a quatre net (no QUATRNET magic)".into());
        }
        let mut r = Reader(&bytes[8..]);
        let version = r.u32("version")?;
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(format!(
                "net format version {} (this build reads versions {} to {})",
                version, OLDEST_VERSION, FORMAT_VERSION
            ));
        }
        let hlen = r.u32("header length")? as usize;
        let header: Header = serde_json::from_slice(r.take(hlen, "header")?)
            .map_err(|e| format!("bad net header: {}", e))?;
        let (i, h, o) = (
            header.inputs as u64,
            header.hidden as u64,
            header.outputs as u64,
        );
        if i == 0 || h == 0 || o == 0 || i * h > MAX_WEIGHTS || h > 4096 || o > 16 {
            return Err(format!(
                "net shape {}×{}×{} out of range (at most {} input weights, 4096 hidden units, 16 outputs)",
                i, h, o, MAX_WEIGHTS
            ));
        }
        // Versions 1 and 2 have one hidden scale; version 3 one of QA's doublings.
        let qa_ok = if version < 3 {
            header.qa == QA
        } else {
            QA_SHIFTS.clone().any(|s| header.qa == QA << s)
        };
        if !qa_ok || header.qb != QB {
            return Err(format!(
                "net quantized with qa {} qb {} (this build reads qa {} (version 3: {} times a power of two up to {}) and qb {})",
                header.qa, header.qb, QA, QA, 1 << QA_SHIFTS.end(), QB
            ));
        }
        if !(header.eval_scale.is_finite() && header.eval_scale > 0.0) {
            return Err(format!("bad eval_scale {}", header.eval_scale));
        }
        if !(header.base.is_empty() || header.base == BASE_HAND) {
            return Err(format!(
                "net base {:?} (this build knows none or {:?})",
                header.base, BASE_HAND
            ));
        }
        let (i, h, o) = (i as usize, h as usize, o as usize);
        let w1 = r.i16s(i * h, "input weights")?;
        let b1 = r.i16s(h, "hidden biases")?;
        let w2 = r.i16s(o * h, "output weights")?;
        let b2 = r.i32s(o, "output biases")?;
        let body = bytes.len() - r.0.len();
        let sum = u64::from_le_bytes(
            r.take(8, "checksum")?
                .try_into()
                .expect("eight bytes were taken"),
        );
        if !r.0.is_empty() {
            return Err(format!(
                "{} bytes after the checksum (not a net of this shape)",
                r.0.len()
            ));
        }
        if sum != fnv1a(&bytes[..body]) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        Ok(Net {
            id: new_id(),
            range: Vec::new(),
            folded: std::sync::OnceLock::new(),
            header,
            w1,
            b1,
            w2,
            b2,
        }
        .with_ranges())
    }

    /// The net with its outputs' ranges computed (`correction_range`).
    fn with_ranges(mut self) -> Net {
        let h = self.hidden();
        self.range = (0..self.header.outputs as usize)
            .map(|o| {
                // A hidden unit's activation lies in 0 ..= qa: each weight adds at most qa
                // times itself where positive, at least that where negative.
                let qa = self.header.qa as i64;
                let w = &self.w2[o * h..][..h];
                let (mut lo, mut hi) = (self.b2[o] as i64, self.b2[o] as i64);
                for &w in w {
                    let x = w as i64 * qa;
                    if x > 0 {
                        hi += x;
                    } else {
                        lo += x;
                    }
                }
                let unit = (qa * QB as i64) as f32;
                (lo as f32 / unit, hi as f32 / unit)
            })
            .collect();
        self
    }

    /// The least and greatest value [`Net::evaluate`]'s score can differ from a residual net's
    /// [`Net::base_score`] by for `seat`, in the engine's units, whatever the position: the
    /// output's weights bound its logit (each hidden unit is clipped to 0 ..= 1), with a unit's
    /// slack for rounding. A search that only asks whether the score is below, within or above
    /// its window need not run the net when the base alone answers (`deepening::window_eval`).
    pub fn correction_range(&self, seat: Seat) -> (i32, i32) {
        let (o, negate) = self.output_of(seat);
        let (lo, hi) = self.range[o];
        let k = self.header.eval_scale;
        let (lo, hi) = ((lo * k).floor() as i32 - 1, (hi * k).ceil() as i32 + 1);
        if negate {
            (-hi, -lo)
        } else {
            (lo, hi)
        }
    }

    pub fn inputs(&self) -> usize {
        self.header.inputs as usize
    }

    /// The same net with its output added to `base` (`BASE_HAND`, or empty for none).
    pub fn with_base(mut self, base: &str) -> Net {
        self.header.base = base.to_string();
        self
    }

    pub fn hidden(&self) -> usize {
        self.header.hidden as usize
    }

    /// The float net these weights came from, as near as the integers keep it (each weight
    /// is its integer over the scale it was multiplied by): where `quatre train --init`
    /// starts. Quantizing it again gives these weights back.
    pub fn to_float(&self) -> FloatNet {
        let (qa, qb) = (self.header.qa as f32, self.header.qb as f32);
        FloatNet {
            inputs: self.header.inputs as usize,
            hidden: self.header.hidden as usize,
            outputs: self.header.outputs as usize,
            w1: self.w1.iter().map(|&w| w as f32 / qa).collect(),
            b1: self.b1.iter().map(|&b| b as f32 / qa).collect(),
            w2: self.w2.iter().map(|&w| w as f32 / qb).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b as f64 / (qa * qb) as f64) as f32)
                .collect(),
        }
    }

    /// This net's weights' id (see `infer.rs`).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Every feature's input weights, feature after feature (`row`).
    pub(crate) fn rows(&self) -> &[i16] {
        &self.w1
    }

    /// Feature `f`'s input weights, one per hidden unit.
    #[inline]
    pub(crate) fn row(&self, f: u32) -> &[i16] {
        let h = self.hidden();
        &self.w1[f as usize * h..][..h]
    }

    /// The hidden sums of a position's active features (each index below `inputs`), afresh.
    #[inline]
    pub fn accumulate(&self, features: &[u32], acc: &mut [i32]) {
        for (a, &b) in acc.iter_mut().zip(&self.b1) {
            *a = b as i32;
        }
        super::infer::apply_rows(acc, &self.w1, &[], features);
    }

    /// A row per bit of `g`'s words of bits (`Game::feature_words`), each the sum of the rows
    /// of the features the bit stands for (`Game::word_features`): the hidden sums of a
    /// position are the biases plus the rows of its set bits, exactly those of its features.
    /// Made on the first call (a net serves one feature set, whose bits mean the same for every
    /// position). None where the game gives no words, or where a sum leaves the i16 range (never
    /// for a net `quatre train` made at scale `QA`: its weights stay within ±CLIP·QA, 505; a
    /// finer scale may leave it, and the search lists features).
    pub fn folded_rows<G: Game>(&self, g: &G) -> Option<&[i16]> {
        self.folded
            .get_or_init(|| {
                let (h, bits) = (self.hidden(), g.feature_word_bits());
                if bits == 0 {
                    return None;
                }
                let mut out = vec![0i16; bits * h];
                let (mut feats, mut sum) = (Vec::new(), vec![0i32; h]);
                for (bit, row) in out.chunks_mut(h).enumerate() {
                    feats.clear();
                    g.word_features(bit, &mut feats);
                    sum.fill(0);
                    for &f in &feats {
                        if f as usize >= self.inputs() {
                            return None;
                        }
                        super::infer::add_row(&mut sum, self.row(f), 1);
                    }
                    for (r, &v) in row.iter_mut().zip(&sum) {
                        *r = i16::try_from(v).ok()?;
                    }
                }
                Some(out)
            })
            .as_deref()
    }

    /// Output `o`'s logit from the hidden sums.
    #[inline]
    pub fn output(&self, acc: &[i32], o: usize) -> f32 {
        let (h, qa) = (self.hidden(), self.header.qa);
        let w = &self.w2[o * h..][..h];
        // Exact. At scale QA in i32 over 128 units (each product is within 255 · 2^15), then
        // in i64: the inner sums vectorise; a finer scale's products (up to 2^29) in i64.
        let sum: i64 = if qa == QA {
            acc.chunks(128)
                .zip(w.chunks(128))
                .map(|(a, w)| {
                    a.iter()
                        .zip(w)
                        .map(|(&a, &w)| a.clamp(0, QA) * w as i32)
                        .sum::<i32>() as i64
                })
                .sum()
        } else {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| a.clamp(0, qa) as i64 * w as i64)
                .sum()
        };
        // qa · qb is at most 2^23: exact in an f32.
        (sum + self.b2[o] as i64) as f32 / (qa * QB) as f32
    }

    /// Output `o`'s logit for a position's features, building the hidden sums afresh.
    pub fn logit(&self, features: &[u32], o: usize) -> f32 {
        let mut acc = vec![0; self.hidden()];
        self.accumulate(features, &mut acc);
        self.output(&acc, o)
    }
}

/// The largest score a net gives (in the engine's units): far from the searches' mate scores.
pub const EVAL_LIMIT: f32 = 100_000.0;

impl Net {
    /// Whether this net was trained for positions like `g` (its game and feature set); the
    /// error says what differs.
    pub fn fits<G: Game>(&self, g: &G) -> Result<(), String> {
        let set = g.feature_set();
        if self.header.game != G::NAME || set.as_deref() != Some(self.header.features.as_str()) {
            return Err(match set.as_deref() {
                // The same game, another board size or rule set: name both feature sets.
                Some(ours) if self.header.game == G::NAME => format!(
                    "the net reads {} features ({}), this position's are {} (another board or rule set)",
                    self.header.game, self.header.features, ours
                ),
                _ => format!(
                    "the net is for {} ({}), not for {} ({})",
                    self.header.game,
                    self.header.features,
                    G::NAME,
                    set.as_deref().unwrap_or("no input features yet")
                ),
            });
        }
        if self.header.outputs as usize != Net::outputs_for(g.players()) {
            return Err(format!(
                "a net of {} outputs for {} seats (a net has one output for two seats, one per seat for more)",
                self.header.outputs,
                g.players()
            ));
        }
        if g.feature_count() != self.inputs() {
            return Err(format!(
                "the net has {} inputs, the feature set {}",
                self.inputs(),
                g.feature_count()
            ));
        }
        Ok(())
    }

    /// The outputs of a net for a game of `players` seats: one (seat 0's value) for two seats,
    /// one per seat (seat `s`'s value) for more.
    pub fn outputs_for(players: usize) -> usize {
        if players == 2 {
            1
        } else {
            players
        }
    }

    /// The logit of an even position for a net of `outputs` outputs: `logit(1/N)` = −ln(N − 1)
    /// for one output per seat of N, 0 for two seats (one output). The trainer maps scores to
    /// probabilities as `σ(score/K + offset)`, so that an even position is worth 1/N to each
    /// seat as the results say; the engine's score is the logit less it, times K.
    pub fn logit_offset(outputs: usize) -> f32 {
        if outputs > 1 {
            -((outputs - 1) as f32).ln()
        } else {
            0.0
        }
    }

    /// Which output scores `seat`, and whether it is negated (seat 1 of two).
    fn output_of(&self, seat: Seat) -> (usize, bool) {
        if self.header.outputs == 1 {
            (0, seat != 0)
        } else {
            (seat, false)
        }
    }

    /// The net's score of `g` for `seat`, in the engine's units; `fits` must hold. Two seats:
    /// the one output is seat 0's, negated for seat 1; more seats: output `seat`.
    /// The hidden sums are updated from this thread's last position for this net
    /// (`infer::with_sums`): the same score as [`Net::evaluate_afresh`], cheaper.
    pub fn evaluate<G: Game>(&self, g: &G, seat: Seat) -> i32 {
        let (o, negate) = self.output_of(seat);
        let logit = super::infer::with_sums(self, g, |acc| self.output(acc, o));
        self.score(g, o, negate, logit, None)
    }

    /// Whether this net corrects the hand evaluation (`base` = `hand`): its score is the hand
    /// evaluation's plus a correction.
    pub fn is_residual(&self) -> bool {
        self.header.base == BASE_HAND
    }

    /// A residual net's base for `seat`: the hand evaluation its score corrects, as
    /// [`Net::evaluate`] reads it (seat 0's, negated for seat 1 of two).
    pub fn base_score<G: Game>(&self, g: &G, seat: Seat) -> i32 {
        let (o, negate) = self.output_of(seat);
        let h = g.evaluate(o);
        if negate {
            -h
        } else {
            h
        }
    }

    /// [`Net::evaluate`] of a residual net given its [`Net::base_score`] for `seat` (so that a
    /// caller who looked at the base first does not compute it twice): the same score.
    pub fn evaluate_on<G: Game>(&self, g: &G, seat: Seat, base: i32) -> i32 {
        let (o, negate) = self.output_of(seat);
        let logit = super::infer::with_sums(self, g, |acc| self.output(acc, o));
        self.score(g, o, negate, logit, Some(if negate { -base } else { base }))
    }

    /// [`Net::evaluate`] with the hidden sums built afresh from the position's features.
    pub fn evaluate_afresh<G: Game>(&self, g: &G, seat: Seat) -> i32 {
        let mut feats = Vec::new();
        g.features(&mut feats);
        let (o, negate) = self.output_of(seat);
        self.score(g, o, negate, self.logit(&feats, o), None)
    }

    /// Each seat's expected share of the points in `g` as the net predicts it (`fits` must
    /// hold; more than two seats): seat `s`'s score `v` read back as the trainer mapped it,
    /// `σ(v/K + logit(1/N))`, the N values scaled to sum to 1. A finished game's shares are
    /// its rewards.
    pub fn shares<G: Game>(&self, g: &G) -> Vec<f64> {
        let n = g.players();
        if let crate::game::Status::Over(o) = g.status() {
            return o.rewards[..n].iter().map(|&r| r as f64).collect();
        }
        let k = self.header.eval_scale as f64;
        let offset = Net::logit_offset(self.header.outputs as usize) as f64;
        let p: Vec<f64> = (0..n)
            .map(|s| {
                let v = self.evaluate_afresh(g, s) as f64;
                1.0 / (1.0 + (-(v / k + offset)).exp())
            })
            .collect();
        let sum: f64 = p.iter().sum();
        p.iter().map(|x| x / sum.max(f64::MIN_POSITIVE)).collect()
    }

    /// The score of a position whose output `o` (seat `o`'s value) has logit `logit`,
    /// negated for the other seat of two; `hand`, the hand evaluation for seat `o` where the
    /// caller has it.
    fn score<G: Game>(&self, g: &G, o: usize, negate: bool, logit: f32, hand: Option<i32>) -> i32 {
        let v = if self.is_residual() {
            // A correction of the hand evaluation's logit, which holds the offset.
            logit * self.header.eval_scale + hand.unwrap_or_else(|| g.evaluate(o)) as f32
        } else if self.header.outputs > 1 {
            (logit - Net::logit_offset(self.header.outputs as usize)) * self.header.eval_scale
        } else {
            logit * self.header.eval_scale
        };
        let v = v.clamp(-EVAL_LIMIT, EVAL_LIMIT).round() as i32;
        if negate {
            -v
        } else {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit's folded row is the sum of its features' rows, and the hidden sums of a
    /// position's bits are those of its features (one board and the grid of nine); a net whose
    /// sums leave the i16 range folds to nothing (the search then lists features).
    #[test]
    fn folded_rows_sum_the_rows_of_the_bits_features() {
        use crate::game::{Game, RuleOptions};
        use crate::games::hyperchess::Hyperchess;
        for (boards, seed) in [("1x1", 2), ("3x3", 3)] {
            let g =
                Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", boards)).unwrap();
            let set = g.feature_set().unwrap();
            let f = FloatNet::new(g.feature_count(), 8, 1, 30.0, seed);
            let n = f.quantize("hyperchess", &set, 400.0, String::new());
            let rows = n.folded_rows(&g).expect("the pieces fold");
            assert_eq!(rows.len(), g.feature_word_bits() * 8);
            let (mut words, mut feats) = (Vec::new(), Vec::new());
            assert!(g.feature_words(&mut words));
            g.features(&mut feats);
            let mut from_bits = vec![0i32; 8];
            n.accumulate(&[], &mut from_bits);
            for (i, &w) in words.iter().enumerate() {
                for bit in (0..64).filter(|b| w >> b & 1 == 1) {
                    super::super::infer::add_row(
                        &mut from_bits,
                        &rows[(i * 64 + bit) * 8..][..8],
                        1,
                    );
                }
            }
            let mut from_feats = vec![0i32; 8];
            n.accumulate(&feats, &mut from_feats);
            assert_eq!(from_bits, from_feats, "{boards}");
            let mut big = n.clone();
            big.w1.iter_mut().for_each(|w| *w = 20_000);
            big.folded = std::sync::OnceLock::new();
            assert!(big.folded_rows(&g).is_none());
        }
    }

    #[test]
    fn file_round_trips_and_refuses_damage() {
        let f = FloatNet::new(50, 8, 1, 30.0, 1);
        let n = f.quantize("hyperchess", "test/1", 400.0, String::new());
        let bytes = n.to_bytes();
        assert_eq!(Net::from_bytes(&bytes).unwrap(), n);
        for cut in [0, 7, 12, 20, bytes.len() / 2, bytes.len() - 1] {
            assert!(Net::from_bytes(&bytes[..cut]).is_err(), "cut at {}", cut);
        }
        let mut bad = bytes.clone();
        let k = bad.len() - 20;
        bad[k] ^= 1;
        assert!(Net::from_bytes(&bad).unwrap_err().contains("checksum"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Net::from_bytes(&longer).is_err());
        // A version after this build's is refused, with its number.
        let mut newer = bytes;
        newer[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        let e = Net::from_bytes(&newer).unwrap_err();
        assert!(
            e.contains(&format!("version {}", FORMAT_VERSION + 1)),
            "{}",
            e
        );
    }

    #[test]
    fn a_net_back_to_float_quantizes_to_itself() {
        let mut f = FloatNet::new(200, 16, 1, 30.0, 9);
        f.b2[0] = -0.37;
        f.w2.iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w += i as f32 * 0.01);
        let n = f.quantize("hyperchess", "test/1", 400.0, String::new());
        let back = n.to_float();
        assert_eq!((back.inputs, back.hidden, back.outputs), (200, 16, 1));
        let again = back.quantize("hyperchess", "test/1", 400.0, String::new());
        assert!(again == n, "the weights changed on the way back");
    }

    /// A widened net scores every position as the net it grew from, and keeps its units first.
    #[test]
    fn a_widened_net_scores_as_the_net_it_grew_from() {
        let mut f = FloatNet::new(120, 8, 2, 30.0, 4);
        f.w2.iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w += i as f32 * 0.03);
        f.b2 = vec![0.2, -0.1];
        let w = f.widened(32, 30.0, 5);
        assert_eq!((w.inputs, w.hidden, w.outputs), (120, 32, 2));
        assert_eq!(&w.w1[32 * 7..][..8], &f.w1[8 * 7..][..8]);
        assert!(w.w1[32 * 7 + 8..][..24].iter().any(|&x| x != 0.0));
        let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
        for k in 0..40u32 {
            let feats: Vec<u32> = (0..25).map(|i| (i * 11 + k * 7) % 120).collect();
            f.forward(&feats, &mut a);
            w.forward(&feats, &mut b);
            for o in 0..2 {
                assert!((a[o] - b[o]).abs() < 1e-5, "{:?} against {:?}", a, b);
            }
        }
        let same = f.widened(8, 30.0, 5);
        assert_eq!(
            (same.w1, same.b1, same.w2, same.b2),
            (f.w1, f.b1, f.w2, f.b2)
        );
    }

    /// Trained input weights are small (mostly below 2/255): a net gets the finest hidden
    /// scale its weights fit an i16 at, and keeps them; a version-2 file (scale QA) still
    /// reads, and a version-2 file of another scale does not.
    #[test]
    fn small_weights_get_a_fine_scale_and_old_files_still_read() {
        let mut f = FloatNet::new(300, 16, 1, 30.0, 11);
        f.w1.iter_mut().for_each(|w| *w *= 0.05);
        f.w2.iter_mut().for_each(|w| *w = w.signum() * 1.9);
        let n = f.quantize("hyperchess", "test/1", 400.0, String::new());
        assert_eq!(n.header.qa, QA << 6);
        let mut out = [0.0];
        let (mut worst_fine, mut worst_coarse) = (0.0f32, 0.0f32);
        for k in 0..50u32 {
            let feats: Vec<u32> = (0..30).map(|i| (i * 7 + k * 13) % 300).collect();
            f.forward(&feats, &mut out);
            worst_fine = worst_fine.max((n.logit(&feats, 0) - out[0]).abs());
            let q = f.quantize_at(QA).logit(&feats, 0);
            worst_coarse = worst_coarse.max((q - out[0]).abs());
        }
        assert!(worst_fine < 0.002, "fine scale off by {worst_fine}");
        assert!(
            worst_coarse > 10.0 * worst_fine,
            "{worst_coarse} against {worst_fine}"
        );
        // Version 2: the format of the nets shipped before version 3, scale QA only.
        let as_version_2 = |net: &Net| {
            let mut v = net.to_bytes();
            v[8..12].copy_from_slice(&2u32.to_le_bytes());
            let body = v.len() - 8;
            let sum = fnv1a(&v[..body]);
            v[body..].copy_from_slice(&sum.to_le_bytes());
            v
        };
        let read = Net::from_bytes(&as_version_2(&f.quantize_at(QA))).unwrap();
        assert_eq!(read.header.qa, QA);
        let e = Net::from_bytes(&as_version_2(&n)).unwrap_err();
        assert!(e.contains("qa 16320"), "{e}");
    }

    #[test]
    fn quantized_agrees_with_float() {
        let f = FloatNet::new(200, 32, 1, 30.0, 7);
        let n = f.quantize("hyperchess", "test/1", 400.0, String::new());
        let mut out = [0.0];
        for k in 0..50u32 {
            let feats: Vec<u32> = (0..30).map(|i| (i * 7 + k * 13) % 200).collect();
            f.forward(&feats, &mut out);
            let q = n.logit(&feats, 0);
            assert!(
                (q - out[0]).abs() < 0.02,
                "float {} quantized {}",
                out[0],
                q
            );
        }
    }
}
