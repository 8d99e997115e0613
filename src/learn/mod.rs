//! Learning from play (docs/learning.md): `selfplay.rs` is `quatre selfplay`, the engine
//! playing itself to make training data, and `label.rs` `quatre label`, the same data from
//! recorded games (`teacher.rs`: scored by another engine); `format.rs` is that data's file
//! format, its writer and its reader; `train.rs` the trainer and `cli.rs` `quatre train`;
//! `net.rs` a learned evaluation's file and its integer inference, `infer.rs` the hidden sums
//! each thread keeps up to date from one evaluation to the next; `builtin.rs` the nets that
//! ship in the binary;
//! `policy.rs` a learned move policy (MCTS's priors) and `policy_train.rs` `quatre train-policy`.

pub mod builtin;
pub mod cli;
pub mod format;
pub mod infer;
pub mod label;
pub mod net;
pub mod policy;
pub mod policy_train;
pub mod selfplay;
pub mod teacher;
pub mod train;

pub use selfplay::{run, SelfplayArgs};
