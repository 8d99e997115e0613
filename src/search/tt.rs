//! What the transposition tables of the alpha-beta searches share: the bound an entry's score
//! is, and how decisive scores (mate, win) are stored. Each search keeps its own table layout:
//! alpha-beta a lockless table shared by its Lazy SMP threads, Best-Reply Search a plain one.

/// What an entry's score says about the position's value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value itself (a principal-variation node).
    Exact = 0,
    /// At least the score (a cutoff: a move this good was found).
    Lower = 1,
    /// At most the score (every move failed low).
    Upper = 2,
}

impl Bound {
    /// The bound of a node's best score against the window it was searched with
    /// (`alpha0` as it was on entry).
    pub fn of(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// The bound stored as two bits (as `Bound as u64` packs it).
    pub fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

/// A score to store at `ply`: decisive scores (beyond `decisive`, e.g. mate in N plies from the
/// root) become distances from this node, so the entry is right wherever it is probed.
pub fn to_tt(score: i32, ply: usize, decisive: i32) -> i32 {
    if score > decisive {
        score + ply as i32
    } else if score < -decisive {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`]: a stored score seen from `ply`.
pub fn from_tt(score: i32, ply: usize, decisive: i32) -> i32 {
    if score > decisive {
        score - ply as i32
    } else if score < -decisive {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores_round_trip_through_any_ply() {
        for s in [-999_990, -5, 0, 7, 998_999, 999_500] {
            for ply in [0, 3, 40] {
                assert_eq!(from_tt(to_tt(s, ply, 999_000), ply, 999_000), s);
            }
        }
        // A mate 3 plies from a node found 10 plies deep is stored as mate-from-node.
        assert_eq!(to_tt(1_000_000 - 13, 10, 999_000), 1_000_000 - 3);
    }

    #[test]
    fn bounds_pack_in_two_bits() {
        for b in [Bound::Exact, Bound::Lower, Bound::Upper] {
            assert_eq!(Bound::from_bits(b as u64), b);
        }
    }
}
