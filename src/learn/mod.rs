//! Learning from play (docs/learning.md): `format.rs` is the self-play data's file format,
//! `net.rs` a learned evaluation's file and integer inference, `train.rs` the trainer.

pub mod cli;
pub mod format;
pub mod net;
pub mod train;

use crate::game::Game;

/// A game's input features for a learned evaluation: sparse, absolute (the same whoever is
/// to move; the side to move is a feature), each an index below `feature_count`.
pub trait NetInput: Game {
    /// The feature set's name, version and the rule options it depends on (e.g.
    /// `hyperchess-3x3/1`): a net trained on one set is refused for another.
    fn feature_set(&self) -> String;
    /// How many features the set has.
    fn feature_count(&self) -> usize;
    /// Appends the position's active features to `out`.
    fn features(&self, out: &mut Vec<u32>);
}
