//! The nets that ship in the binary (`EvalFile` empty): data files under `nets/`, read with
//! `include_bytes!` and parsed once, on first use, by the same reader as a file (its header
//! and checksum checked). A net ships once it beats the hand evaluation in the arena
//! (docs/learning.md, "Evidence").

use super::net::Net;
use std::sync::OnceLock;

/// Each shipped net's bytes: hyperchess 3x3 (`hyperchess-3x3/3` features, a residual net on the
/// hand evaluation, 4,100 self-play games).
const SHIPPED: &[&[u8]] = &[include_bytes!("../../nets/hyperchess-3x3.net")];

fn all() -> &'static [Net] {
    static NETS: OnceLock<Vec<Net>> = OnceLock::new();
    NETS.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|b| Net::from_bytes(b).expect("a shipped net reads (tests/learn.rs)"))
            .collect()
    })
}

/// The shipped net for `game` with feature set `features`, if there is one.
pub fn net(game: &str, features: &str) -> Option<&'static Net> {
    all()
        .iter()
        .find(|n| n.header.game == game && n.header.features == features)
}

/// Every shipped net's game and feature set, for messages.
pub fn list() -> Vec<String> {
    all().iter().map(|n| n.header.features.clone()).collect()
}
