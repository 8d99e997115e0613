//! Learning from play (docs/learning.md): `selfplay.rs` is `quatre selfplay`, the engine
//! playing itself to make training data; `format.rs` is that data's file format, its writer and
//! its reader.

pub mod format;
pub mod selfplay;

pub use selfplay::{run, SelfplayArgs};
