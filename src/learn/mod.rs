//! Learning from play (docs/learning.md): `selfplay.rs` is `quatre selfplay`, the engine
//! playing itself to make training data; `format.rs` is that data's file format, its writer and
//! its reader; `train.rs` the trainer and `cli.rs` `quatre train`; `net.rs` a learned
//! evaluation's file and its integer inference.

pub mod cli;
pub mod format;
pub mod net;
pub mod selfplay;
pub mod train;

pub use selfplay::{run, SelfplayArgs};

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
