//! Options as the protocol shows them: `option` lines, the rule options of every game listed
//! once, and (re-exported) the engine options table of `search::params`.

pub use crate::game::GAME_DEFAULT;
use crate::game::{OptionKind, OptionSpec};
pub use crate::search::params::{
    apply, default_threads, engine_specs, set, DEFAULT_MOVE_OVERHEAD_MS,
};

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

/// Whether a rule option takes [`GAME_DEFAULT`] (-1) for each game's own default: one that games
/// share with different defaults or bounds, listed with min -1 ([`rule_specs`]). Every other
/// option is listed with its own range, which -1 is outside of.
pub fn takes_game_default(name: &str) -> bool {
    rule_specs().iter().any(|s| {
        s.name.eq_ignore_ascii_case(name) && matches!(s.kind, OptionKind::Spin { min: -1, .. })
    })
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
