//! A net's hidden sums kept up to date from one evaluation to the next (docs/learning.md, "The
//! net"). Each thread keeps, per net, the last position's features and their hidden sums. A
//! search evaluates positions a few moves apart one after the other, so most features stay: the
//! sums change by the rows of the features that came and went (the difference of the two
//! multisets), which costs a few rows where building them afresh costs one row per active
//! feature (about 860 on a hyperchess 3x3 position). The sums are integers, so either way gives
//! exactly the same ones.

use super::net::Net;
use crate::game::Game;
use std::cell::{Cell, RefCell};

/// Nets whose sums a thread keeps at once (a thread that alternates between two nets keeps
/// both; a fifth replaces the one used longest ago).
const KEPT: usize = 4;

/// One thread's last evaluated position for one net.
#[derive(Default)]
struct Sums {
    /// The net's id (`Net::id`); 0 while none, or while an update is under way (so that an
    /// update cut short by a panic is never reused).
    net: u64,
    /// The last position's features, as `Game::features` gave them.
    feats: Vec<u32>,
    /// The hidden sums of `feats`: the biases plus their rows.
    acc: Vec<i32>,
    /// Scratch, zero between updates: per feature, copies in the last position less copies in
    /// the new one (a multiset: hyperchess gives a piece kind's material feature once a piece).
    delta: Vec<i32>,
    /// Scratch: the new position's features; the features of the last and of the new one left
    /// unpaired (`unpaired`), then the rows to take away and to add (`apply_rows`); the changes
    /// (feature, copies gained) where the features are counted.
    next: Vec<u32>,
    gone: Vec<u32>,
    came: Vec<u32>,
    changes: Vec<(u32, i32)>,
    /// Where the game gives its features as words of bits (`Game::feature_words`): the last
    /// position's, and scratch for the new one's.
    words: Vec<u64>,
    next_words: Vec<u64>,
    /// Where the game gives its ply and its parent's hash (`Game::lineage`), the words and sums
    /// of the last position evaluated at each ply modulo [`PLIES`], as NNUE's accumulator
    /// stack: a position's sums are then updated from its parent's, one move away, rather than
    /// from the last position evaluated (a sibling or a cousin, two or more moves away).
    /// `ply_keys[i]` is the hash of the position kept in slot `i`, `None` while it holds none.
    ply_keys: Vec<Option<u64>>,
    ply_words: Vec<u64>,
    ply_acc: Vec<i32>,
}

/// Slots of the per-ply stack (`Sums::ply_keys`): deeper than a search's path from its root.
const PLIES: usize = 64;

thread_local! {
    static SUMS: RefCell<Vec<Sums>> = const { RefCell::new(Vec::new()) };
    static STATS: Cell<Stats> = const {
        Cell::new(Stats {
            updates: 0,
            rebuilds: 0,
            parents: 0,
            rows: 0,
        })
    };
}

/// How this thread's hidden sums were made so far: by updating the last position's (`updates`)
/// or afresh (`rebuilds`); how many updates started from the parent's sums in the per-ply
/// stack (`parents`), and how many rows (of features, or of bits where the game gives words)
/// all of them added or took away (`rows`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub updates: u64,
    pub rebuilds: u64,
    pub parents: u64,
    pub rows: u64,
}

/// This thread's counts of updated and rebuilt hidden sums.
pub fn stats() -> Stats {
    STATS.with(|s| s.get())
}

/// Adds `k` copies of `row` to `acc`.
#[inline]
pub(crate) fn add_row(acc: &mut [i32], row: &[i16], k: i32) {
    match k {
        1 => acc.iter_mut().zip(row).for_each(|(a, &w)| *a += w as i32),
        -1 => acc.iter_mut().zip(row).for_each(|(a, &w)| *a -= w as i32),
        _ => acc
            .iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a += k * w as i32),
    }
}

/// Takes the rows of `gone` away from `acc` and adds those of `came` (a row listed twice
/// counts twice): row `i` is `rows[i * h..][..h]`, `h` being `acc`'s length. With 32 hidden
/// units, or 64, the sums stay in registers from the first row to the last, eight lanes a step
/// on x86-64 CPUs with AVX2 (asked at run time; the build targets plain x86-64); a multiple of
/// 64 units (the shipped chess net has 128) goes 64 at a time the same way, each block's rows
/// read with the full row's stride; other sizes go row by row through memory. Integers: the
/// same sums either way.
pub(crate) fn apply_rows(acc: &mut [i32], rows: &[i16], gone: &[u32], came: &[u32]) {
    let h = acc.len();
    match h {
        32 => in_registers::<32>(acc.try_into().unwrap(), Cols::all(rows, h), gone, came),
        _ if h.is_multiple_of(64) => {
            for (b, block) in acc.chunks_exact_mut(64).enumerate() {
                in_registers::<64>(
                    block.try_into().unwrap(),
                    Cols::block(rows, h, b),
                    gone,
                    came,
                )
            }
        }
        _ => {
            for &r in gone {
                add_row(acc, &rows[r as usize * h..][..h], -1);
            }
            for &r in came {
                add_row(acc, &rows[r as usize * h..][..h], 1);
            }
        }
    }
}

/// Columns `at..` of rows `stride` long: the part of each row one block of hidden sums reads.
#[derive(Clone, Copy)]
struct Cols<'a> {
    rows: &'a [i16],
    stride: usize,
    at: usize,
}

impl<'a> Cols<'a> {
    /// Whole rows `h` long.
    fn all(rows: &'a [i16], h: usize) -> Cols<'a> {
        Cols {
            rows,
            stride: h,
            at: 0,
        }
    }

    /// Block `b` of 64 columns of rows `h` long.
    fn block(rows: &'a [i16], h: usize, b: usize) -> Cols<'a> {
        Cols {
            rows,
            stride: h,
            at: b * 64,
        }
    }

    /// Row `r`'s `H` columns.
    #[inline(always)]
    fn row<const H: usize>(self, r: u32) -> &'a [i16; H] {
        self.rows[r as usize * self.stride + self.at..][..H]
            .try_into()
            .unwrap()
    }
}

/// [`apply_rows`] for a block of `H` hidden units, with AVX2 where the CPU has it.
fn in_registers<const H: usize>(acc: &mut [i32; H], cols: Cols, gone: &[u32], came: &[u32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { in_registers_avx2::<H>(acc, cols, gone, came) };
        return;
    }
    in_registers_body::<H>(acc, cols, gone, came)
}

/// [`in_registers_body`] compiled for AVX2; callers check that the CPU has it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn in_registers_avx2<const H: usize>(
    acc: &mut [i32; H],
    cols: Cols,
    gone: &[u32],
    came: &[u32],
) {
    in_registers_body::<H>(acc, cols, gone, came)
}

/// The sums copied into a local array (which the compiler keeps in registers), every row
/// applied to it, then copied back.
#[inline(always)]
fn in_registers_body<const H: usize>(acc: &mut [i32; H], cols: Cols, gone: &[u32], came: &[u32]) {
    let mut a = *acc;
    for &r in gone {
        let row = cols.row::<H>(r);
        for j in 0..H {
            a[j] -= row[j] as i32;
        }
    }
    for &r in came {
        let row = cols.row::<H>(r);
        for j in 0..H {
            a[j] += row[j] as i32;
        }
    }
    *acc = a;
}

/// How many leading elements `a` and `b` share, compared eight at a time where they can be.
fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many trailing elements `a` and `b` share.
fn common_suffix(a: &[u32], b: &[u32]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    while i + 8 <= n && a[n - i - 8..n - i] == b[n - i - 8..n - i] {
        i += 8;
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

/// The longest middle (both lists' features between their common beginning and end) whose
/// features are counted without pairing runs first: counting is a few operations a feature,
/// pairing more (measured on hyperchess 1x1, where a move's middle is up to about 200).
const COUNT_DIRECTLY: usize = 256;

/// How far past a difference `unpaired` looks for the lists to agree again: a few pieces'
/// features (a hyperchess piece has three).
const LOOK: usize = 8;

/// How many differences `unpaired` looks past before it leaves the rest of both lists unpaired
/// (to be counted): where a move changes features all along the lists (tesseract's distances
/// to a Tesseract that moved, its move counts by side to move), each look costs more than
/// counting what it would pair, while a hyperchess move leaves a few differences.
const LOOKS: usize = 8;

/// Pairs equal elements of `a` and `b` in their order, a run at a time: after a difference it
/// looks up to [`LOOK`] elements ahead in each for the nearest place where two elements in a row
/// agree, and goes on from there; after [`LOOKS`] differences it stops pairing. Appends what
/// it left unpaired to `a_left` and `b_left`. A
/// pair is two equal features, one in each list, so pairing them leaves the difference of the
/// two multisets as it was, whatever was paired: only how many are left depends on it.
fn unpaired(a: &[u32], b: &[u32], a_left: &mut Vec<u32>, b_left: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    let mut looks = 0;
    let agree = |i: usize, j: usize| {
        a[i] == b[j] && (i + 1 == a.len() || j + 1 == b.len() || a[i + 1] == b[j + 1])
    };
    'pairing: while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            let run = common_prefix(&a[i..], &b[j..]);
            i += run;
            j += run;
            continue;
        }
        looks += 1;
        if looks > LOOKS {
            break;
        }
        for skip in 1..=2 * LOOK {
            for di in skip.saturating_sub(LOOK)..=skip.min(LOOK) {
                let dj = skip - di;
                if i + di < a.len() && j + dj < b.len() && agree(i + di, j + dj) {
                    a_left.extend_from_slice(&a[i..i + di]);
                    b_left.extend_from_slice(&b[j..j + dj]);
                    i += di;
                    j += dj;
                    continue 'pairing;
                }
            }
        }
        a_left.push(a[i]);
        b_left.push(b[j]);
        i += 1;
        j += 1;
    }
    a_left.extend_from_slice(&a[i..]);
    b_left.extend_from_slice(&b[j..]);
}

/// Counts one update of this thread's hidden sums, or one rebuild, that added or took away
/// `rows` rows.
fn count(rebuild: bool, rows: usize) {
    STATS.with(|s| {
        let mut t = s.get();
        if rebuild {
            t.rebuilds += 1;
        } else {
            t.updates += 1;
        }
        t.rows += rows as u64;
        s.set(t)
    });
}

/// Counts one update started from the parent's sums.
fn count_parent() {
    STATS.with(|s| {
        let mut t = s.get();
        t.parents += 1;
        s.set(t)
    });
}

/// The difference of two sorted lists taken as multisets: the elements of `a` that `b` lacks
/// in `gone`, those of `b` that `a` lacks in `came` (both cleared first).
fn sorted_difference(a: &[u32], b: &[u32], gone: &mut Vec<u32>, came: &mut Vec<u32>) {
    gone.clear();
    came.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                gone.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                came.push(b[j]);
                j += 1;
            }
        }
    }
    gone.extend_from_slice(&a[i..]);
    came.extend_from_slice(&b[j..]);
}

impl Sums {
    fn reset(&mut self, net: &Net) {
        self.feats.clear();
        self.words.clear();
        self.ply_keys.clear();
        self.delta.clear();
        self.delta.resize(net.inputs(), 0);
        // The sums of no feature: the biases.
        self.acc.resize(net.hidden(), 0);
        net.accumulate(&[], &mut self.acc);
        self.net = net.id();
    }

    /// Makes these the sums of the position in `next_words` for `net`: the folded `rows`
    /// (`Net::folded_rows`) of the bits that came and went since `words`, or afresh after a
    /// reset.
    fn update_words(&mut self, net: &Net, rows: &[i16]) {
        // Afresh (from the biases, against no bits) only after a reset: positions a search
        // evaluates one after the other differ by a few bits, and counting them first (a
        // popcount a word, in software on this build's target) cost more than it saved.
        let rebuild = self.words.len() != self.next_words.len();
        if rebuild {
            net.accumulate(&[], &mut self.acc);
            self.words.clear();
            self.words.resize(self.next_words.len(), 0);
        }
        // The bits that went and came (into lists sized for every bit once, so that writing
        // one needs no room check), then their rows in one pass.
        let n = self.next_words.len();
        for list in [&mut self.gone, &mut self.came] {
            if list.len() < n * 64 {
                list.resize(n * 64, 0);
            }
        }
        let (gone, came) = (&mut self.gone[..], &mut self.came[..]);
        let (mut g, mut c) = (0, 0);
        for (i, (&o, &w)) in self.words.iter().zip(&self.next_words).enumerate() {
            let changed = o ^ w;
            if changed == 0 {
                continue;
            }
            let base = (i * 64) as u32;
            let mut bits = o & changed;
            while bits != 0 {
                gone[g] = base + bits.trailing_zeros();
                g += 1;
                bits &= bits - 1;
            }
            let mut bits = w & changed;
            while bits != 0 {
                came[c] = base + bits.trailing_zeros();
                c += 1;
                bits &= bits - 1;
            }
        }
        apply_rows(&mut self.acc, rows, &gone[..g], &came[..c]);
        count(rebuild, g + c);
        std::mem::swap(&mut self.words, &mut self.next_words);
        self.net = net.id();
    }

    /// Where the per-ply stack keeps the parent (hash `parent`) of a position at `ply`, with
    /// words as many as the new position's: starts from its words and sums instead of the last
    /// position's. Either is correct (the update adds the rows of every bit that differs); the
    /// parent is one move away.
    fn start_at_parent(&mut self, ply: u32, parent: u64) {
        let n = self.next_words.len();
        let i = (ply as usize + PLIES - 1) % PLIES;
        if self.words.len() != n
            || self.ply_words.len() != PLIES * n
            || self.ply_keys.get(i) != Some(&Some(parent))
        {
            return;
        }
        let h = self.acc.len();
        self.words.copy_from_slice(&self.ply_words[i * n..][..n]);
        self.acc.copy_from_slice(&self.ply_acc[i * h..][..h]);
        count_parent();
    }

    /// Keeps the words and sums just made, of the position of hash `key` at `ply`, in the
    /// per-ply stack (sized, and emptied, when the number of words or hidden units changes).
    fn keep(&mut self, ply: u32, key: u64) {
        let (n, h) = (self.words.len(), self.acc.len());
        if self.ply_keys.len() != PLIES
            || self.ply_words.len() != PLIES * n
            || self.ply_acc.len() != PLIES * h
        {
            self.ply_keys.clear();
            self.ply_keys.resize(PLIES, None);
            self.ply_words.clear();
            self.ply_words.resize(PLIES * n, 0);
            self.ply_acc.clear();
            self.ply_acc.resize(PLIES * h, 0);
        }
        let i = ply as usize % PLIES;
        self.ply_words[i * n..][..n].copy_from_slice(&self.words);
        self.ply_acc[i * h..][..h].copy_from_slice(&self.acc);
        self.ply_keys[i] = Some(key);
    }

    /// Makes these the sums of `g`'s features (each below the net's inputs) for `net`.
    fn update<G: Game>(&mut self, net: &Net, g: &G) {
        if self.net != net.id() {
            self.reset(net);
        }
        self.net = 0;
        self.next_words.clear();
        if let Some(rows) = net.folded_rows(g) {
            if g.feature_words(&mut self.next_words) {
                let lineage = g.lineage();
                if let Some((ply, parent)) = lineage {
                    self.start_at_parent(ply, parent);
                }
                self.update_words(net, rows);
                if let Some((ply, _)) = lineage {
                    self.keep(ply, g.hash());
                }
                return;
            }
        }
        let (next, delta, changes) = (&mut self.next, &mut self.delta, &mut self.changes);
        let (gone, came) = (&mut self.gone, &mut self.came);
        next.clear();
        g.features(next);
        // What a few moves changed lies between the lists' common beginning and common end,
        // which cancel out.
        let old = &self.feats[..];
        let p = common_prefix(old, next);
        let s = common_suffix(&old[p..], &next[p..]);
        let (old, new) = (&old[p..old.len() - s], &next[p..next.len() - s]);
        changes.clear();
        let mut changed = 0usize;
        if g.features_sorted() {
            // Two sorted lists: their difference in one walk (a feature whose count changed by
            // two comes twice, so its row is added twice).
            sorted_difference(old, new, gone, came);
            changed = gone.len() + came.len();
        } else {
            // Other games list their features in an order of their own (by place): within the
            // middle, runs the two lists share. A short middle is counted as it is (the counts
            // cancel what the two share); a long one is paired run by run first, so that fewer
            // features are counted.
            let (old, new) = if old.len() + new.len() <= COUNT_DIRECTLY {
                (old, new)
            } else {
                gone.clear();
                came.clear();
                unpaired(old, new, gone, came);
                (&gone[..], &came[..])
            };
            for &f in old {
                delta[f as usize] += 1;
            }
            for &f in new {
                delta[f as usize] -= 1;
            }
            // Each feature whose count changed, taken once (its delta then back to zero).
            for &f in old.iter().chain(new) {
                let d = &mut delta[f as usize];
                if *d != 0 {
                    changes.push((f, -*d));
                    changed += d.unsigned_abs() as usize;
                    *d = 0;
                }
            }
            // As lists of rows to take away and to add, a row once per copy.
            gone.clear();
            came.clear();
            for &(f, k) in changes.iter() {
                let list = if k < 0 { &mut *gone } else { &mut *came };
                list.extend(std::iter::repeat_n(f, k.unsigned_abs() as usize));
            }
        }
        // A row costs the same added or taken away: update while that is the fewer rows.
        let rebuild = changed > next.len() / 2;
        if rebuild {
            net.accumulate(next, &mut self.acc);
        } else {
            apply_rows(&mut self.acc, net.rows(), &self.gone, &self.came);
        }
        count(rebuild, if rebuild { next.len() } else { changed });
        std::mem::swap(&mut self.feats, &mut self.next);
        self.net = net.id();
    }
}

/// Calls `f` with the hidden sums of `g`'s features for `net` (`net.fits(g)` must hold), made
/// from this thread's last position for `net` where that is cheaper than afresh.
pub fn with_sums<G: Game, R>(net: &Net, g: &G, f: impl FnOnce(&[i32]) -> R) -> R {
    SUMS.with(|kept| {
        let mut kept = kept.borrow_mut();
        let i = match kept.iter().position(|s| s.net == net.id()) {
            Some(i) => i,
            None if kept.len() < KEPT => {
                kept.push(Sums::default());
                kept.len() - 1
            }
            // The last one is the one used longest ago (see below).
            None => KEPT - 1,
        };
        // The most recently used first.
        kept[..=i].rotate_right(1);
        let s = &mut kept[0];
        s.update(net, g);
        f(&s.acc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Multiset `a` less multiset `b`: feature → copies (nonzero only).
    fn difference(a: &[u32], b: &[u32]) -> BTreeMap<u32, i32> {
        let mut d = BTreeMap::new();
        for &f in a {
            *d.entry(f).or_insert(0) += 1;
        }
        for &f in b {
            *d.entry(f).or_insert(0) -= 1;
        }
        d.retain(|_, c| *c != 0);
        d
    }

    /// Rows applied in registers (32 units, 64 and its multiples, with AVX2 where this CPU
    /// has it, and the portable body) give the sums row by row does, over the whole i16 range
    /// and rows listed more than once.
    #[test]
    fn rows_applied_at_once_equal_row_by_row() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for h in [8, 32, 48, 64, 128, 192] {
            let rows: Vec<i16> = (0..40 * h).map(|_| rng.random()).collect();
            for _ in 0..200 {
                let start: Vec<i32> = (0..h)
                    .map(|_| rng.random_range(-1 << 20..1 << 20))
                    .collect();
                let gone: Vec<u32> = (0..rng.random_range(0..12))
                    .map(|_| rng.random_range(0..40))
                    .collect();
                let came: Vec<u32> = (0..rng.random_range(0..12))
                    .map(|_| rng.random_range(0..40))
                    .collect();
                let mut want = start.clone();
                for &r in &gone {
                    add_row(&mut want, &rows[r as usize * h..][..h], -1);
                }
                for &r in &came {
                    add_row(&mut want, &rows[r as usize * h..][..h], 1);
                }
                let mut got = start.clone();
                apply_rows(&mut got, &rows, &gone, &came);
                assert_eq!(got, want, "h {h}");
                if h == 32 {
                    let mut body: [i32; 32] = start.clone().try_into().unwrap();
                    in_registers_body::<32>(&mut body, Cols::all(&rows, 32), &gone, &came);
                    assert_eq!(&body[..], &want[..]);
                }
                if h.is_multiple_of(64) {
                    let mut body = start.clone();
                    for (b, block) in body.chunks_exact_mut(64).enumerate() {
                        let block: &mut [i32; 64] = block.try_into().unwrap();
                        in_registers_body::<64>(block, Cols::block(&rows, h, b), &gone, &came);
                    }
                    assert_eq!(body, want, "h {h}, the portable body");
                }
            }
        }
    }

    #[test]
    fn unpaired_keeps_the_difference_and_pairs_shifted_runs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            // A list of a few values (repeats likely), and a copy with a few edits.
            let n = rng.random_range(0..60);
            let a: Vec<u32> = (0..n).map(|_| rng.random_range(0..12)).collect();
            let mut b = a.clone();
            for _ in 0..rng.random_range(0..4) {
                let k = rng.random_range(0..=b.len());
                match rng.random_range(0..3) {
                    0 if k < b.len() => {
                        b.remove(k);
                    }
                    1 if k < b.len() => b[k] = rng.random_range(0..12),
                    _ => b.insert(k, rng.random_range(0..12)),
                }
            }
            let (mut al, mut bl) = (Vec::new(), Vec::new());
            unpaired(&a, &b, &mut al, &mut bl);
            assert_eq!(difference(&al, &bl), difference(&a, &b), "{:?} {:?}", a, b);
        }
        // A piece (three features) moving from the front to the back of a list: the run
        // between is paired though it moved by three places.
        let a: Vec<u32> = (0..90).collect();
        let mut b: Vec<u32> = (3..90).collect();
        b.extend([100, 101, 102]);
        let (mut al, mut bl) = (Vec::new(), Vec::new());
        unpaired(&a, &b, &mut al, &mut bl);
        assert_eq!((al, bl), (vec![0, 1, 2], vec![100, 101, 102]));
    }
}
