//! Zobrist keys: deterministic pseudo-random 64-bit numbers, the same on every machine and run,
//! so that hashes (and the searches that use them) are reproducible.

/// SplitMix64 finaliser: a well-mixed 64-bit value for any input.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key for feature `index` of the table named by `salt` (use a different salt per game and
/// per kind of feature, e.g. `key(0x4859_5045, piece * squares + square)`).
pub const fn key(salt: u64, index: u64) -> u64 {
    splitmix64(splitmix64(salt) ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// A table of `n` keys for `salt`, to be built once (e.g. in a `OnceLock`) by a game.
pub fn table(salt: u64, n: usize) -> Vec<u64> {
    (0..n as u64).map(|i| key(salt, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn keys_are_distinct_and_stable() {
        let t = table(1, 10_000);
        let mut s = t.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), t.len());
        assert_eq!(key(1, 0), t[0]);
        assert_ne!(key(1, 5), key(2, 5));
    }
}
