//! Engine options (not rules): shown as `option` lines, set with `setoption`.

use crate::game::{OptionKind, OptionSpec};
use crate::search::{Algorithm, SearchParams};

/// The options every game shares. `Game` is added by the protocol with the registry's names.
pub fn engine_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "Threads",
            kind: OptionKind::Spin {
                default: default_threads() as i64,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "Hash",
            kind: OptionKind::Spin {
                default: 64,
                min: 1,
                max: 65536,
            },
        },
        OptionSpec {
            name: "Algorithm",
            kind: OptionKind::Combo {
                default: "auto",
                vars: &["auto", "mcts", "alphabeta"],
            },
        },
        OptionSpec {
            name: "MultiPV",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "Seed",
            kind: OptionKind::Spin {
                default: 0,
                min: 0,
                // GUIs read spin bounds as 32-bit signed integers.
                max: i32::MAX as i64,
            },
        },
        OptionSpec {
            name: "MoveOverhead",
            kind: OptionKind::Spin {
                default: DEFAULT_MOVE_OVERHEAD_MS as i64,
                min: 0,
                max: 10_000,
            },
        },
        OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        },
        OptionSpec {
            name: "UCI_ShowWDL",
            kind: OptionKind::Check { default: false },
        },
        OptionSpec {
            name: "RolloutPlies",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 10_000,
            },
        },
        OptionSpec {
            name: "TreeDepth",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 10_000,
            },
        },
    ]
}

/// The value of a rule option shared by games with different defaults (`MaxPlies`) that
/// stands for each game's own default.
pub const GAME_DEFAULT: &str = "-1";

/// The rule options of every game, each name once, in registry order. A spin option that games
/// share with different defaults or bounds is listed with default -1 (each game's own default)
/// and the widest bounds; each game still checks a value against its own.
pub fn rule_specs() -> Vec<OptionSpec> {
    let mut out: Vec<OptionSpec> = Vec::new();
    for e in crate::games::all() {
        for s in (e.rule_options)() {
            match out.iter_mut().find(|o| o.name.eq_ignore_ascii_case(s.name)) {
                None => out.push(*s),
                Some(o) => {
                    if let (
                        OptionKind::Spin { default, min, max },
                        OptionKind::Spin {
                            default: d2,
                            min: m2,
                            max: x2,
                        },
                    ) = (o.kind, s.kind)
                    {
                        if (default, min, max) != (d2, m2, x2) {
                            o.kind = OptionKind::Spin {
                                default: -1,
                                min: -1,
                                max: max.max(x2),
                            };
                        }
                    }
                }
            }
        }
    }
    out
}

/// Milliseconds kept in hand for the time between the engine's answer and the client's clock
/// (pipes, scheduling on a busy machine); the engine adds what it measures on top.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// Every core this machine has: the engine's mission is to use them all unless told otherwise.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(256)
}

/// Applies one validated engine option to the search parameters. Returns false for a name that
/// is not an engine option.
pub fn apply(params: &mut SearchParams, name: &str, value: &str) -> bool {
    let int = || value.parse::<i64>().unwrap_or(0);
    match name.to_ascii_lowercase().as_str() {
        "threads" => params.threads = int().max(1) as usize,
        "hash" => params.hash_mb = int().max(1) as usize,
        "algorithm" => params.algorithm = Algorithm::parse(value).unwrap_or(Algorithm::Auto),
        "multipv" => params.multipv = int().max(1) as usize,
        "seed" => params.seed = int() as u64,
        "moveoverhead" => params.move_overhead_ms = int() as u64,
        "rolloutplies" => params.rollout_plies = usize::try_from(int()).ok(),
        "treedepth" => params.tree_depth = usize::try_from(int()).ok(),
        "uci_showwdl" => params.show_wdl = value == "true",
        // The GUI says whether it will send `go ponder`; nothing to set.
        "ponder" => {}
        _ => return false,
    }
    true
}

/// The `option` line of a spec, as UCI prints it.
pub fn option_line(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Check { default } => {
            format!("option name {} type check default {}", spec.name, default)
        }
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {} min {} max {}",
            spec.name, default, min, max
        ),
        OptionKind::Combo { default, vars } => {
            let v: Vec<String> = vars.iter().map(|v| format!("var {}", v)).collect();
            format!(
                "option name {} type combo default {} {}",
                spec.name,
                default,
                v.join(" ")
            )
        }
        OptionKind::String { default } => {
            format!(
                "option name {} type string default {}",
                spec.name,
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            )
        }
    }
}
