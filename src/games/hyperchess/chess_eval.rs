//! The evaluation of hyperchess on one board (`Boards=1x1`): there the game is chess (with guards
//! where the position has them), and this is a classical chess evaluation — tapered between the
//! middlegame and the endgame by the material on the board — whose weights were fitted to
//! Stockfish's scores of recorded positions (Texel's method: the tuner is
//! `examples/tune_chess_eval.rs`, its output `chess_weights.rs`; docs/learning.md, "The 1x1
//! hand evaluation").
//!
//! Its terms ([`terms`]) are features, each counted for White minus Black (Black's squares
//! mirrored): piece-square tables and material; mobility by piece type (squares reached that
//! hold no own piece and no enemy pawn attacks); passed pawns by rank, with the kings' distances
//! to the square in front and whether it is blocked; isolated, doubled and connected pawns; the
//! bishop pair; rooks on open and half-open files; the king's pawn shelter and open files
//! beside it; the danger to the king (how many enemy pieces attack the squares around it, and
//! how strong they are), and the safe squares from which each enemy piece type could check;
//! threats (pieces attacked by pawns, by minor pieces, by rooks; pieces attacked and not
//! defended); the side to move. The nine-board grid keeps `eval.rs`'s evaluation.

use super::plane::{self, bit, squares};
use super::*;

/// The phase of a full board (knight, bishop, guard 1, rook 2, queen 4): the middlegame weight
/// of a term is `phase / PHASE_MAX`, the endgame's the rest.
pub const PHASE_MAX: i32 = 24;

/// Feature blocks (offsets into the weights).
pub const PST: usize = 0;
pub const MATERIAL: usize = PST + 7 * 64;
pub const MOB_N: usize = MATERIAL + 6;
pub const MOB_B: usize = MOB_N + 9;
pub const MOB_R: usize = MOB_B + 14;
pub const MOB_Q: usize = MOB_R + 15;
pub const MOB_G: usize = MOB_Q + 28;
pub const PASSED: usize = MOB_G + 9;
pub const PASSED_OWN_KING: usize = PASSED + 8;
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
pub const PASSED_BLOCKED: usize = PASSED_ENEMY_KING + 1;
pub const ISOLATED: usize = PASSED_BLOCKED + 1;
pub const DOUBLED: usize = ISOLATED + 1;
pub const CONNECTED: usize = DOUBLED + 1;
pub const BISHOP_PAIR: usize = CONNECTED + 8;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
pub const SHIELD_NEAR: usize = ROOK_HALF_OPEN + 1;
pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
pub const KING_OPEN_FILES: usize = SHIELD_FAR + 1;
/// King danger: (attackers, capped at 4) × 8 + (attack units, capped at 15) / 2.
pub const DANGER: usize = KING_OPEN_FILES + 1;
/// Safe checks available to the enemy: knight, bishop, rook, queen.
pub const SAFE_CHECK: usize = DANGER + 5 * 8;
/// Enemy pieces (by type, pawn to guard) attacked by a pawn, by a knight or bishop, by a rook.
pub const THREAT_PAWN: usize = SAFE_CHECK + 4;
pub const THREAT_MINOR: usize = THREAT_PAWN + 6;
pub const THREAT_ROOK: usize = THREAT_MINOR + 6;
pub const HANGING: usize = THREAT_ROOK + 6;
pub const TEMPO: usize = HANGING + 1;
/// The number of features (and of weight pairs).
pub const COUNT: usize = TEMPO + 1;

/// Where [`terms`] puts each feature: `add(f, v)` counts feature `f` `v` times (White's
/// features positive, Black's negative).
pub trait Sink {
    fn add(&mut self, f: usize, v: i32);
    /// The attacks `terms` found, by colour and piece type (index 0 unused).
    fn attacks(&mut self, _g: &Hyperchess, _att: &[[u64; 8]; 2]) {}
}

thread_local! {
    /// The attack maps of the position this thread evaluated last (by its hash): a learned
    /// evaluation's attack inputs (`attack_maps`) are the hand evaluation's own attacks, which
    /// a residual net's search has just computed.
    static LAST_ATTACKS: std::cell::Cell<(u64, [u64; 12])> =
        const { std::cell::Cell::new((0, [0; 12])) };
    /// This thread's last evaluations ([`EvalCache`]).
    static EVAL_CACHE: std::cell::RefCell<EvalCache> = std::cell::RefCell::new(EvalCache::new());
}

/// Slots of [`EvalCache`]: 2¹⁷ of 8 bytes, 1 MiB a thread.
const EVAL_CACHE_BITS: u32 = 17;

/// The evaluations a thread computed last, by position, direct-mapped: a search evaluates
/// many positions more than once (a node's pruning, then its quiescence's standing pat; the
/// same position by another order of moves). In a chess middlegame search about one
/// evaluation in six is found here (15–19% for 2¹⁶–2¹⁸ slots, 12% for 2¹⁴). A slot keeps the
/// hash's low 32 bits (the slot is the high ones) and White's score; the evaluation reads only
/// what the hash covers (the pieces and the side to move), so a hit is the same number (but for
/// another position whose hash agrees in 49 bits: once in 2³² lookups of a slot's other
/// positions, one evaluation's worth of error).
struct EvalCache(Vec<u64>);

impl EvalCache {
    fn new() -> Self {
        // An empty slot holds all ones, which `get` never takes for a hit (an entry that
        // happens to be all ones, a score of −1, is only evaluated again).
        EvalCache(vec![u64::MAX; 1 << EVAL_CACHE_BITS])
    }

    fn slot(hash: u64) -> usize {
        (hash >> (64 - EVAL_CACHE_BITS)) as usize
    }

    fn get(&self, hash: u64) -> Option<i32> {
        let e = self.0[Self::slot(hash)];
        (e as u32 == hash as u32 && e != u64::MAX).then_some((e >> 32) as i32)
    }

    fn put(&mut self, hash: u64, v: i32) {
        self.0[Self::slot(hash)] = ((v as u32 as u64) << 32) | hash as u32 as u64;
    }
}

/// The twelve maps of [`attack_maps`] from `terms`' attacks.
fn maps_of(att: &[[u64; 8]; 2]) -> [u64; 12] {
    let mut out = [0u64; 12];
    for col in 0..2 {
        for (i, t) in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
            .into_iter()
            .enumerate()
        {
            out[col * 6 + i] = att[col][t as usize];
        }
    }
    out
}

/// The material phase: 0 (kings and pawns) to [`PHASE_MAX`] (the full armies).
pub fn phase(g: &Hyperchess) -> i32 {
    let c = &g.counts;
    let n = |t: u8| (c[0][t as usize] + c[1][t as usize]) as i32;
    (n(KNIGHT) + n(BISHOP) + n(GUARD) + 2 * n(ROOK) + 4 * n(QUEEN)).min(PHASE_MAX)
}

/// White's score in centipawns by the fitted weights, from this thread's [`EvalCache`] when it
/// has the position. (Inlined into `eval.rs`'s caller, which is compiled with the popcnt
/// instruction where the CPU has it.)
#[inline(always)]
pub fn evaluate_white(g: &Hyperchess) -> i32 {
    if let Some(v) = EVAL_CACHE.with_borrow(|c| c.get(g.hash)) {
        return v;
    }
    let v = evaluate_white_afresh(g);
    EVAL_CACHE.with_borrow_mut(|c| c.put(g.hash, v));
    v
}

/// [`evaluate_white`] computed from the position's terms.
#[inline(always)]
fn evaluate_white_afresh(g: &Hyperchess) -> i32 {
    // Both weights of a feature in one i64 (the middlegame's in the high half), so that a term
    // costs one multiply and one add: exact, since each half's sum stays far within an i32.
    struct Acc(i64);
    impl Sink for Acc {
        #[inline(always)]
        fn add(&mut self, f: usize, v: i32) {
            self.0 += PACKED[f] * v as i64;
        }
        #[inline(always)]
        fn attacks(&mut self, g: &Hyperchess, att: &[[u64; 8]; 2]) {
            LAST_ATTACKS.set((g.hash, maps_of(att)));
        }
    }
    let mut acc = Acc(0);
    terms(g, &mut acc);
    let eg = acc.0 as i32;
    let mg = ((acc.0 - eg as i64) >> 32) as i32;
    let p = phase(g);
    (mg * p + eg * (PHASE_MAX - p)) / PHASE_MAX
}

/// The weights, [middlegame, endgame], packed as `middlegame · 2³² + endgame`.
static PACKED: [i64; COUNT] = {
    let w = &super::chess_weights::W;
    let mut out = [0i64; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = ((w[i][0] as i64) << 32) + w[i][1] as i64;
        i += 1;
    }
    out
};

/// The squares attacked by the pawns of `col` in `pawns`.
#[inline(always)]
fn pawn_attacks(col: usize, pawns: u64) -> u64 {
    let (west, east) = (pawns & !plane::FILE_A, pawns & !plane::FILE_H);
    if col == 0 {
        (west << 7) | (east << 9)
    } else {
        (west >> 9) | (east >> 7)
    }
}

/// The squares in front of `s` (rows beyond its own, towards `col`'s promotion row).
#[inline(always)]
fn ahead(col: usize, s: usize) -> u64 {
    let row = s / 8;
    if col == 0 {
        u64::MAX.checked_shl(8 * (row as u32 + 1)).unwrap_or(0)
    } else {
        (1u64 << (8 * row)) - 1
    }
}

/// The files (whole columns) that hold a square of `set`.
#[inline(always)]
fn files_of(set: u64) -> u64 {
    let mut x = set;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    (x & plane::RANK_1) * plane::FILE_A
}

/// The file of `f` and the files beside it.
#[inline(always)]
fn files_around(f: usize) -> u64 {
    let file = plane::FILE_A << f;
    file | ((file << 1) & !plane::FILE_A) | ((file >> 1) & !plane::FILE_H)
}

/// The squares a piece of type `t` (not a pawn) on `s` attacks.
#[inline(always)]
fn attacks(t: u8, s: usize, occ: u64) -> u64 {
    match t {
        KNIGHT => plane::KNIGHT[s],
        BISHOP => plane::bishop(s, occ),
        ROOK => plane::rook(s, occ),
        QUEEN => plane::rook(s, occ) | plane::bishop(s, occ),
        _ => plane::KING[s],
    }
}

fn dist(a: usize, b: usize) -> i32 {
    let (ax, ay, bx, by) = (a % 8, a / 8, b % 8, b / 8);
    ax.abs_diff(bx).max(ay.abs_diff(by)) as i32
}

/// The squares each colour's pawns, knights, bishops, rooks, queens and king attack (White's
/// six maps, then Black's): the learned evaluation's attack inputs (`features.rs`).
pub(super) fn attack_maps(g: &Hyperchess) -> [u64; 12] {
    let (hash, maps) = LAST_ATTACKS.get();
    if hash == g.hash {
        return maps;
    }
    computed_attack_maps(g)
}

/// [`attack_maps`] computed afresh.
fn computed_attack_maps(g: &Hyperchess) -> [u64; 12] {
    let bb = &g.bb[0];
    let occ = bb[0] | bb[8];
    let mut out = [0u64; 12];
    for col in 0..2 {
        let side = bb[col << 3];
        out[col * 6] = pawn_attacks(col, bb[PAWN as usize] & side);
        for (i, t) in [KNIGHT, BISHOP, ROOK, QUEEN, KING].into_iter().enumerate() {
            out[col * 6 + 1 + i] =
                squares(bb[t as usize] & side).fold(0, |a, s| a | attacks(t, s, occ));
        }
    }
    out
}

/// Attack units of a piece type on the king's zone (knight, bishop, rook, queen, guard).
const UNITS: [i32; 8] = [0, 0, 2, 2, 3, 5, 2, 0];

/// Every term of `g` into `sink`. One board only (`Boards=1x1`).
#[inline(always)]
pub fn terms(g: &Hyperchess, sink: &mut impl Sink) {
    let bb = &g.bb[0];
    let occ = bb[0] | bb[8];
    let side = [bb[0], bb[8]];
    let of = |col: usize, t: u8| bb[t as usize] & side[col];
    let pawns = [of(0, PAWN), of(1, PAWN)];
    let pawn_att = [pawn_attacks(0, pawns[0]), pawn_attacks(1, pawns[1])];
    // Attacks by colour and piece type, and by colour in all; each king's zone (its square and
    // those around it) and the enemy pieces attacking it, with their units.
    let mut att = [[0u64; 8]; 2];
    let mut all = [0u64; 2];
    let zone = [0, 1].map(|c| {
        let k = g.king[c] as usize % 64;
        plane::KING[k] | bit(k)
    });
    let mut attackers = [0usize; 2];
    let mut units = [0i32; 2];
    for col in 0..2 {
        let sign = if col == 0 { 1 } else { -1 };
        let mirror = if col == 0 { 0 } else { 56 };
        let mob_area = !side[col] & !pawn_att[1 - col];
        att[col][PAWN as usize] = pawn_att[col];
        for t in PAWN..=KING {
            let set = of(col, t);
            for s in squares(set) {
                sink.add(PST + (t as usize - 1) * 64 + (s ^ mirror), sign);
                if t == PAWN {
                    continue;
                }
                let a = attacks(t, s, occ);
                att[col][t as usize] |= a;
                if t != KING && a & zone[1 - col] != 0 {
                    attackers[1 - col] += 1;
                    units[1 - col] += UNITS[t as usize];
                }
                let n = (a & mob_area).count_ones() as usize;
                let block = match t {
                    KNIGHT => Some((MOB_N, 8)),
                    BISHOP => Some((MOB_B, 13)),
                    ROOK => Some((MOB_R, 14)),
                    QUEEN => Some((MOB_Q, 27)),
                    GUARD => Some((MOB_G, 8)),
                    _ => None,
                };
                if let Some((base, max)) = block {
                    sink.add(base + n.min(max), sign);
                }
            }
        }
        all[col] = att[col].iter().fold(0, |a, &b| a | b);
    }
    sink.attacks(g, &att);
    for t in PAWN..=GUARD {
        let n = g.counts[0][t as usize] as i32 - g.counts[1][t as usize] as i32;
        if n != 0 {
            sink.add(MATERIAL + t as usize - 1, n);
        }
    }
    for col in 0..2 {
        let sign = if col == 0 { 1 } else { -1 };
        let them = 1 - col;
        let own_king = g.king[col] as usize % 64;
        let enemy_king = g.king[them] as usize % 64;
        // Pawns.
        for s in squares(pawns[col]) {
            let f = s % 8;
            let rel = if col == 0 { s / 8 } else { 7 - s / 8 };
            let front = ahead(col, s);
            let adjacent = files_around(f) & !(plane::FILE_A << f);
            if pawns[col] & adjacent == 0 {
                sink.add(ISOLATED, sign);
            }
            if pawns[col] & front & (plane::FILE_A << f) != 0 {
                sink.add(DOUBLED, sign);
            }
            let row = plane::RANK_1 << (8 * (s / 8));
            let supported = plane::PAWN_ATT[them][s] & pawns[col] != 0;
            if supported || pawns[col] & adjacent & row != 0 {
                sink.add(CONNECTED + rel, sign);
            }
            if pawns[them] & front & files_around(f) == 0 {
                sink.add(PASSED + rel, sign);
                let w = rel as i32 - 2;
                if w > 0 {
                    let stop = if col == 0 { s + 8 } else { s - 8 };
                    sink.add(PASSED_OWN_KING, sign * w * dist(own_king, stop));
                    sink.add(PASSED_ENEMY_KING, sign * w * dist(enemy_king, stop));
                    if occ & bit(stop) != 0 {
                        sink.add(PASSED_BLOCKED, sign * w);
                    }
                }
            }
        }
        if g.counts[col][BISHOP as usize] >= 2 {
            sink.add(BISHOP_PAIR, sign);
        }
        for s in squares(of(col, ROOK)) {
            let file = plane::FILE_A << (s % 8);
            if (pawns[0] | pawns[1]) & file == 0 {
                sink.add(ROOK_OPEN, sign);
            } else if pawns[col] & file == 0 {
                sink.add(ROOK_HALF_OPEN, sign);
            }
        }
        // The king: its shelter, the open files beside it, the danger around it.
        let k = own_king;
        let around = files_around(k % 8);
        let row = k / 8;
        let shelter_row = |d: usize| -> u64 {
            let r = if col == 0 {
                row + d
            } else {
                row.wrapping_sub(d)
            };
            if r < 8 {
                plane::RANK_1 << (8 * r)
            } else {
                0
            }
        };
        sink.add(
            SHIELD_NEAR,
            sign * (pawns[col] & around & shelter_row(1)).count_ones() as i32,
        );
        sink.add(
            SHIELD_FAR,
            sign * (pawns[col] & around & shelter_row(2)).count_ones() as i32,
        );
        // The files beside the king (one bit a file, the first row's) that hold no own pawn.
        let open = (around & !files_of(pawns[col]) & plane::RANK_1).count_ones() as i32;
        sink.add(KING_OPEN_FILES, sign * open);
        sink.add(
            DANGER + attackers[col].min(4) * 8 + units[col].min(15) as usize / 2,
            sign,
        );
        let safe = !side[them] & !all[col];
        let (rook_lines, bishop_lines) = (plane::rook(k, occ), plane::bishop(k, occ));
        let checks = [
            plane::KNIGHT[k] & att[them][KNIGHT as usize],
            bishop_lines & att[them][BISHOP as usize],
            rook_lines & att[them][ROOK as usize],
            (rook_lines | bishop_lines) & att[them][QUEEN as usize],
        ];
        for (i, c) in checks.iter().enumerate() {
            let n = (c & safe).count_ones() as i32;
            if n != 0 {
                sink.add(SAFE_CHECK + i, sign * n);
            }
        }
        // Threats against the enemy's pieces.
        let minors = att[col][KNIGHT as usize] | att[col][BISHOP as usize];
        let rooks = att[col][ROOK as usize];
        let defended_by_pawn = pawn_att[them];
        for t in PAWN..=GUARD {
            let victims = of(them, t);
            if victims == 0 {
                continue;
            }
            let i = t as usize - 1;
            if t != PAWN {
                let n = (victims & pawn_att[col]).count_ones() as i32;
                if n != 0 {
                    sink.add(THREAT_PAWN + i, sign * n);
                }
            }
            let n = (victims & minors & !defended_by_pawn).count_ones() as i32;
            if n != 0 {
                sink.add(THREAT_MINOR + i, sign * n);
            }
            let n = (victims & rooks & !defended_by_pawn).count_ones() as i32;
            if n != 0 {
                sink.add(THREAT_ROOK + i, sign * n);
            }
        }
        let loose = (side[them] & !pawns[them] & !of(them, KING)) & all[col] & !all[them];
        if loose != 0 {
            sink.add(HANGING, sign * loose.count_ones() as i32);
        }
    }
    sink.add(TEMPO, if g.side == 0 { 1 } else { -1 });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleOptions};

    fn one_board(text: &str) -> Hyperchess {
        Hyperchess::from_text(text, &super::super::chess_options()).unwrap()
    }

    struct Features(Vec<i32>);
    impl Sink for Features {
        fn add(&mut self, f: usize, v: i32) {
            self.0[f] += v;
        }
    }

    fn features(text: &str) -> Vec<i32> {
        let mut f = Features(vec![0; COUNT]);
        terms(&one_board(text), &mut f);
        f.0
    }

    /// Swaps the colours of a position text (rows mirrored, cases swapped, the side to move).
    fn mirrored(text: &str) -> String {
        let mut parts: Vec<String> = text.split(' ').map(str::to_string).collect();
        let rows: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        parts[0] = rows.join("/");
        parts[1] = if parts[1] == "w" { "b" } else { "w" }.to_string();
        parts[3] = "-".to_string();
        parts.join(" ")
    }

    const POSITIONS: [&str; 4] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
        "r3k2r/pp1n1ppp/2pbpn2/q7/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 0 10",
        "8/5pk1/6p1/1P6/8/6P1/5PK1/8 w - - 0 40",
        "2r3k1/1q3ppp/p2p4/1p1Pp3/4P1n1/P1N2PQ1/1PP3PP/1K1R4 b - - 0 25",
    ];

    /// `files_of` marks exactly the files that hold a square of the set, and the count of
    /// open files beside a king it gives is the file-by-file count, on random bitboards.
    #[test]
    fn files_of_marks_the_files_of_a_set() {
        use rand::Rng;
        let mut rng = crate::game::rng_from_seed(9);
        for _ in 0..20_000 {
            let set: u64 = rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>();
            let want = (0..8)
                .filter(|&f| set & (plane::FILE_A << f) != 0)
                .fold(0, |a, f| a | plane::FILE_A << f);
            assert_eq!(files_of(set), want, "{:x}", set);
            let k = rng.random_range(0..64usize);
            let around = files_around(k % 8);
            let by_file = (0..8)
                .filter(|&f| around & (plane::FILE_A << f) != 0)
                .filter(|&f| set & (plane::FILE_A << f) == 0)
                .count() as u32;
            assert_eq!(
                (around & !files_of(set) & plane::RANK_1).count_ones(),
                by_file
            );
        }
    }

    #[test]
    fn the_evaluation_is_symmetric_between_the_colours() {
        for p in POSITIONS {
            let (a, b) = (features(p), features(&mirrored(p)));
            let neg: Vec<i32> = b.iter().map(|v| -v).collect();
            assert_eq!(a, neg, "{p}");
            let (ga, gb) = (one_board(p), one_board(&mirrored(p)));
            assert_eq!(evaluate_white(&ga), -evaluate_white(&gb), "{p}");
        }
    }

    /// The attack maps a net reads after the hand evaluation (the ones it left behind) are
    /// those computed afresh, over random games; and unevaluated positions are not mistaken
    /// for the last evaluated one.
    #[test]
    fn attack_maps_left_by_the_evaluation_are_the_positions() {
        let mut g = one_board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        let start = g.clone();
        let mut rng = crate::game::rng_from_seed(11);
        let mut buf = Vec::new();
        let mut n = 0;
        for _ in 0..40 {
            g.clone_from(&start);
            for _ in 0..200 {
                evaluate_white(&g);
                assert_eq!(attack_maps(&g), computed_attack_maps(&g), "{}", g.to_text());
                let Some(m) = g.random_move(&mut rng, &mut buf) else {
                    break;
                };
                g.play(m);
                assert_eq!(attack_maps(&g), computed_attack_maps(&g), "{}", g.to_text());
                n += 1;
            }
        }
        assert!(n > 2_000, "{n}");
    }

    /// The evaluation read from the thread's cache is the one computed afresh: over random
    /// games, each position evaluated twice (the second from the cache) and again as games
    /// come back to it (every game starts from the same position, and the short ones share
    /// their first moves).
    #[test]
    fn cached_evaluations_are_the_fresh_ones() {
        let start = one_board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        let mut g = start.clone();
        let mut rng = crate::game::rng_from_seed(12);
        let mut buf = Vec::new();
        let (mut n, mut hits) = (0, 0);
        for _ in 0..60 {
            g.clone_from(&start);
            for _ in 0..150 {
                hits += EVAL_CACHE.with_borrow(|c| c.get(g.hash)).is_some() as usize;
                let fresh = evaluate_white_afresh(&g);
                assert_eq!(evaluate_white(&g), fresh, "{}", g.to_text());
                assert_eq!(evaluate_white(&g), fresh, "{}", g.to_text());
                n += 1;
                let Some(m) = g.random_move(&mut rng, &mut buf) else {
                    break;
                };
                g.play(m);
            }
        }
        assert!(
            n > 3_000 && hits >= 60,
            "{n} positions, {hits} found in the cache"
        );
        // A slot holds one position: another with the same slot replaces it.
        let mut c = EvalCache::new();
        c.put(5, 17);
        assert_eq!(c.get(5), Some(17));
        assert_eq!(c.get(6), None, "another position of the slot");
        c.put(7, -3);
        assert_eq!((c.get(7), c.get(5)), (Some(-3), None));
        assert_eq!(EvalCache::new().get(u64::MAX), None, "an empty slot");
    }

    #[test]
    fn only_chess_rules_evaluate_as_chess_and_have_their_own_net() {
        use crate::learn::builtin::{auto_net, net};
        let chess = one_board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        assert!(chess.plays_chess());
        assert_eq!(chess.feature_set().as_deref(), Some("hyperchess-1x1/5"));
        // Chess's net corrects chess's evaluation (the other 1x1 net corrects hyperchess's),
        // and `Eval auto` searches with it.
        let shipped = net("hyperchess", "hyperchess-1x1/5").expect("chess's shipped net");
        assert!(shipped.is_residual());
        assert!(
            auto_net("hyperchess", "hyperchess-1x1/5").is_some_and(|a| std::ptr::eq(a, shipped))
        );
        assert_eq!(chess.evaluate(0), evaluate_white(&chess));
        // Hyperchess's own promotions on one board keep its evaluation and its net.
        let own =
            Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", "1x1")).unwrap();
        assert!(!own.plays_chess());
        assert_eq!(own.feature_set().as_deref(), Some("hyperchess-1x1/3"));
        assert!(auto_net("hyperchess", "hyperchess-1x1/3").is_some());
        let nine = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
        assert!(!nine.plays_chess());
    }

    #[test]
    fn the_fitted_weights_score_material_and_a_level_start() {
        let start = evaluate_white(&one_board(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ));
        assert!(start.abs() < 60, "{start}");
        // Hyperchess's own start on one board (guards for the queens) is level too.
        let guards = evaluate_white(&one_board(
            "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w - - 0 1",
        ));
        assert!(guards.abs() < 60, "{guards}");
        // Black without a knight, then without its queen.
        let knight = evaluate_white(&one_board(
            "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ));
        let queen = evaluate_white(&one_board(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ));
        assert!(knight > start + 150, "{start} {knight}");
        assert!(queen > knight + 200, "{knight} {queen}");
        // A pawn from promotion, the kings far: a won endgame for White.
        let pawn = evaluate_white(&one_board("8/1P6/8/8/8/8/6k1/K7 w - - 0 1"));
        assert!(pawn > 150, "{pawn}");
    }

    #[test]
    fn the_terms_see_what_the_position_holds() {
        // The start: no passed pawns, both bishop pairs, nothing hanging, White to move.
        let f = features("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        assert!(f[PASSED..PASSED + 8].iter().all(|&v| v == 0));
        assert_eq!(f[BISHOP_PAIR], 0);
        assert_eq!(f[TEMPO], 1);
        // A White passed pawn on b5 (rank 5: relative row 4), Black's king two squares from b6.
        let f = features(POSITIONS[2]);
        assert_eq!(f[PASSED + 4], 1);
        assert_eq!(f[PASSED_ENEMY_KING], 2 * 5);
        // Black's knight on g4 is attacked by the pawn on f3 and defended by nothing; no White
        // piece is loose.
        let f = features(POSITIONS[3]);
        assert_eq!(f[HANGING], 1);
        assert_eq!(f[THREAT_PAWN + KNIGHT as usize - 1], 1);
        assert_eq!(phase(&one_board(POSITIONS[0])), PHASE_MAX);
        assert_eq!(phase(&one_board(POSITIONS[2])), 0);
    }
}
