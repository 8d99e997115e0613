//! The nets that ship in the binary (`EvalFile` empty): data files under `nets/`, read with
//! `include_bytes!` and parsed once, on first use, by the same reader as a file (its header
//! and checksum checked). A net searches by default (`Eval auto`) once it beats the hand
//! evaluation in the arena (docs/learning.md, "Evidence"); a net may also ship for what it
//! predicts alone (chess for three's readable shares) and search only when asked (`Eval net`).

use super::net::Net;
use super::policy::Policy;
use std::sync::OnceLock;

/// A shipped net's bytes, and whether `Eval auto` searches with it.
struct Shipped {
    bytes: &'static [u8],
    auto: bool,
}

/// Hyperchess 3x3 (`hyperchess-3x3/3` features, a residual net on the hand evaluation, 4,100
/// self-play games): +214 Elo at equal nodes, searches by default. Hyperchess 1x1 with its own
/// promotions (`hyperchess-1x1/3`, residual, 28,800 self-play games, half of them played by
/// the first 1x1 net): +149 Elo over the hand evaluation at equal nodes, +64 over the first net
/// at equal nodes and +80 at 100 ms a move; searches by default. With chess's promotions
/// (`Promotions=chess`, chess: `hyperchess-1x1/5`, pieces and attack maps) a residual net on
/// chess's hand evaluation (itself fitted to Stockfish's scores), trained on Stockfish's scores
/// of game positions and of their siblings (positions one random quiet move away, which a
/// search visits), with weight decay to keep its corrections smooth (`nets/README.md`): +53 Elo
/// at equal nodes over the net before it (pieces alone, itself +44 over the hand evaluation).
/// In self-play at equal time it stands ahead of the hand evaluation within the error (+21.4,
/// 95%: −2.3 … +45.3, over 634 games at 5 s + 0.05 s), and against Stockfish 15.1 at Skill
/// Level 8 (5 s + 0.05 s) it scored better in four paired gauntlets of five, 38.3% over 600
/// games against 33.1% over 500 (docs/results.md, 2026-12-01 (morning)); searches by
/// default. Rithmomachia with its default rules (`rithmomachia-remove-corps-N12/1`, residual,
/// 7,600 self-play games, 3,400 of them played by earlier nets): +127 Elo over the hand
/// evaluation at equal nodes (the 6,200-game net before it: +60, and about +115 at 100 ms a
/// move); searches by default.
/// Tesseract (`tesseract/3`: version 2's places plus each Tesseract's neighbours, the captures
/// on offer and the moves; residual, 20,400 self-play games): +155 Elo over the hand
/// evaluation at equal nodes (the `tesseract/2` net before it: +95); searches by default. Chess for three (`threechess/1`, an output per seat, 4,800
/// games, 1,300 of them played by the net before it, one epoch): predicts results better than
/// the hand evaluation (held-out loss 0.04687 against 0.05164) and gives the readable shares of
/// `info string shares`; Best-Reply Search with it against two with the hand evaluation takes
/// a reward share of 0.464 over 720 games at equal nodes and 0.432 over 120 at 100 ms a move
/// (chance 0.333); searches by default.
const SHIPPED: &[Shipped] = &[
    Shipped {
        bytes: include_bytes!("../../nets/hyperchess-3x3.net"),
        auto: true,
    },
    Shipped {
        bytes: include_bytes!("../../nets/hyperchess-1x1.net"),
        auto: true,
    },
    Shipped {
        bytes: include_bytes!("../../nets/hyperchess-1x1-chess.net"),
        auto: true,
    },
    Shipped {
        bytes: include_bytes!("../../nets/rithmomachia.net"),
        auto: true,
    },
    Shipped {
        bytes: include_bytes!("../../nets/tesseract.net"),
        auto: true,
    },
    Shipped {
        bytes: include_bytes!("../../nets/threechess.net"),
        auto: true,
    },
];

fn all() -> &'static [(Net, bool)] {
    static NETS: OnceLock<Vec<(Net, bool)>> = OnceLock::new();
    NETS.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|s| {
                let net = Net::from_bytes(s.bytes).expect("a shipped net reads (tests/learn.rs)");
                (net, s.auto)
            })
            .collect()
    })
}

/// The shipped net for `game` with feature set `features`, if there is one.
pub fn net(game: &str, features: &str) -> Option<&'static Net> {
    all()
        .iter()
        .map(|(n, _)| n)
        .find(|n| n.header.game == game && n.header.features == features)
}

/// The shipped net `Eval auto` searches with for `game` and `features`: one proven in the
/// arena.
pub fn auto_net(game: &str, features: &str) -> Option<&'static Net> {
    all()
        .iter()
        .find(|(n, auto)| *auto && n.header.game == game && n.header.features == features)
        .map(|(n, _)| n)
}

/// Every shipped net's game and feature set, for messages.
pub fn list() -> Vec<String> {
    all()
        .iter()
        .map(|(n, _)| n.header.features.clone())
        .collect()
}

/// A shipped move policy, and whether `Policy auto` orders MCTS's moves by it.
pub struct ShippedPolicy {
    pub policy: Policy,
    pub auto: bool,
}

/// Chess for three (`threechess-moves/2`, a hidden layer of 16 units, 1,500 self-play games of
/// Best-Reply Search at 4,000 nodes, its choices the targets; nets/README.md): MCTS with it and
/// `PolicyWeight` 30 against two Best-Reply Searches at 100 ms a move took a reward share of
/// 0.332 over 96 games (seeds 9–12), and a run of the same command 0.347 on seeds 5–8, where the
/// linear `threechess-moves/1` policy before it took 0.257 and the hand order 0.174
/// (docs/results.md, 2026-12-06 (afternoon)); MCTS orders by it by default.
const SHIPPED_POLICIES: &[(&[u8], bool)] = &[(include_bytes!("../../nets/threechess.pol"), true)];

fn policies() -> &'static [ShippedPolicy] {
    static POLICIES: OnceLock<Vec<ShippedPolicy>> = OnceLock::new();
    POLICIES.get_or_init(|| {
        SHIPPED_POLICIES
            .iter()
            .map(|&(bytes, auto)| ShippedPolicy {
                policy: Policy::from_bytes(bytes)
                    .expect("a shipped policy reads (tests/policy.rs)"),
                auto,
            })
            .collect()
    })
}

/// The shipped policy for `game` with move feature set `features`, if there is one.
pub fn policy(game: &str, features: &str) -> Option<&'static ShippedPolicy> {
    policies()
        .iter()
        .find(|p| p.policy.header.game == game && p.policy.header.features == features)
}
