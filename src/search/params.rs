//! Engine settings that shape a search, and the one table of engine options: each option's
//! name, type, default and range (shown by the protocol as an `option` line) and what it changes
//! in [`SearchParams`]. The protocol, the command line and the arena's built-in players all set
//! parameters through this table, and `SearchParams::default()` is every option at its default.

#[cfg(doc)]
use super::Tuning;
use crate::game::{OptionKind, OptionSpec};

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Alpha-beta where it applies (two seats, no hidden information), else MCTS: at equal time
    /// alpha-beta beat MCTS in every two-seat board game (0–20, 2–38 and 1–39 in half-points).
    /// With more than two seats and perfect information (threechess), Best-Reply Search: at
    /// 5,000 nodes a move it scored 0.875 alone against two MCTS players and 1.0 as a pair.
    Auto,
    Mcts,
    AlphaBeta,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Mcts => "mcts",
            Algorithm::AlphaBeta => "alphabeta",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Some(Algorithm::Auto),
            "mcts" => Some(Algorithm::Mcts),
            "alphabeta" | "ab" => Some(Algorithm::AlphaBeta),
            _ => None,
        }
    }
}

/// Engine settings that shape a search (the protocol's engine options).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub threads: usize,
    /// Memory for the tree / transposition table, in MiB.
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub multipv: usize,
    pub seed: u64,
    /// Milliseconds kept in hand for communication delays.
    pub move_overhead_ms: u64,
    /// MCTS: random plies played from a new leaf before the evaluation scores it (0 = score the
    /// leaf directly); None = the game's own measured choice ([`Tuning::rollout_plies`]).
    pub rollout_plies: Option<usize>,
    /// MCTS tree depth cap (0 = none); None = the game's own choice ([`Tuning::tree_depth`]).
    pub tree_depth: Option<usize>,
    /// MCTS, two seats with perfect information: weight (percent) of the implicit minimax value
    /// of the evaluation against the mean reward in selection (Lanctot et al. 2014); 0 = off.
    /// None = the game's own measured choice ([`Tuning::minimax_weight`]).
    pub minimax_weight: Option<u32>,
    /// MCTS, perfect information (any number of seats): progressive widening. A node visited n
    /// times considers its first `1 + Widening/10 · √n` children in `move_priority` order; 0 =
    /// all. None = the game's own measured choice ([`Tuning::widening`]).
    pub widening: Option<u32>,
    /// MCTS, two seats with perfect information: plies of a captures-only search (quiescence)
    /// that scores a new leaf instead of the rollout; 0 = rollout and evaluation. None = the
    /// game's own measured choice ([`Tuning::leaf_search`]).
    pub leaf_search: Option<usize>,
    /// MCTS: the UCB exploration constant, in hundredths; None = the game's own choice
    /// ([`Tuning::exploration`]).
    pub exploration: Option<u32>,
    /// MCTS, perfect information: progressive widening at the root too (true)
    /// or every root move from the start; None = the game's own choice ([`Tuning::widen_root`]).
    pub widen_root: Option<bool>,
    /// MCTS: the evaluation lead worth 10-to-1 odds when an evaluation becomes a reward; None
    /// = a net's own scale, or the game's choice ([`Tuning::value_scale`]).
    pub value_scale: Option<u32>,
    /// `UCI_ShowWDL`: alpha-beta adds win/draw/loss estimates to its `info` lines.
    pub show_wdl: bool,
    /// `Eval`: the hand evaluation, a learned net (`EvalFile`'s, else the game's built-in
    /// one), or `auto`: the net where one fits, else the hand evaluation.
    pub eval: EvalChoice,
    /// The net `EvalFile` loaded (None: the built-in net of the game and rule set, if any).
    pub eval_file: Option<std::sync::Arc<crate::learn::net::Net>>,
    /// `Policy`: whether MCTS orders and biases its moves by a learned move policy
    /// (`PolicyFile`'s or a shipped one) instead of by `move_priority` alone.
    pub policy: EvalChoice,
    /// The policy `PolicyFile` loaded.
    pub policy_file: Option<std::sync::Arc<crate::learn::policy::Policy>>,
    /// MCTS with a policy: the weight, in hundredths, of the prior's term in selection
    /// (`weight · prior · √N / (1 + n)`, added to UCB); 0 = the policy orders moves only; None
    /// = the game's own, as measured ([`Tuning::policy_weight`](super::tuning::Tuning)).
    pub policy_weight: Option<u32>,
    /// `Ponder`: the GUI will ponder; on a clock the soft time limit grows by a quarter
    /// ([`time::budget_of`](super::time::budget_of)).
    pub ponder: bool,
    /// Not an engine option: alpha-beta and Best-Reply Search without any pruning that can
    /// change the value they find (selective pruning and extensions, delta pruning, the table's
    /// score cutoffs, BRS's quiescence width and killer-chosen default moves), so that a search
    /// of depth d gives exactly plain minimax's (best-reply's) value on the same leaves: for
    /// tests that compare them.
    pub exact: bool,
}

impl Default for SearchParams {
    /// Every engine option at its default (see [`engine_specs`]).
    fn default() -> Self {
        let mut p = SearchParams {
            threads: 1,
            hash_mb: 1,
            algorithm: Algorithm::Auto,
            multipv: 1,
            seed: 0,
            move_overhead_ms: 0,
            rollout_plies: None,
            tree_depth: None,
            minimax_weight: None,
            widening: None,
            leaf_search: None,
            exploration: None,
            widen_root: None,
            value_scale: None,
            show_wdl: false,
            eval: EvalChoice::Auto,
            eval_file: None,
            policy: EvalChoice::Auto,
            policy_file: None,
            policy_weight: None,
            ponder: false,
            exact: false,
        };
        for s in engine_specs() {
            apply(&mut p, s.name, &s.default_text());
        }
        p
    }
}

/// The engine options, in the order the protocol lists them. (`Game` and `Clear Hash` are the
/// protocol's own.)
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
        OptionSpec {
            name: "MinimaxWeight",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 100,
            },
        },
        OptionSpec {
            name: "Widening",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 10_000,
            },
        },
        OptionSpec {
            name: "LeafSearch",
            // The leaf search does not look at the clock: a bound keeps each leaf short
            // (at most 8 noisy moves a ply).
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 8,
            },
        },
        OptionSpec {
            name: "WidenRoot",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 1,
            },
        },
        OptionSpec {
            name: "Eval",
            kind: OptionKind::Combo {
                default: "auto",
                vars: &["auto", "hand", "net"],
            },
        },
        OptionSpec {
            name: "EvalFile",
            kind: OptionKind::String { default: "" },
        },
        OptionSpec {
            name: "Exploration",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 1000,
            },
        },
        OptionSpec {
            name: "ValueScale",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 1_000_000,
            },
        },
        OptionSpec {
            name: "Policy",
            kind: OptionKind::Combo {
                default: "auto",
                vars: &["auto", "hand", "net"],
            },
        },
        OptionSpec {
            name: "PolicyFile",
            kind: OptionKind::String { default: "" },
        },
        OptionSpec {
            name: "PolicyWeight",
            kind: OptionKind::Spin {
                default: -1,
                min: -1,
                max: 10_000,
            },
        },
    ]
}

impl SearchParams {
    /// The move policy MCTS uses: with `Policy net`, `PolicyFile`'s if one is loaded, else the
    /// shipped policy of `g`'s game and move feature set, or why not (MCTS then orders moves by
    /// `move_priority`); with `Policy auto`, `PolicyFile`'s if it fits `g`, else the shipped
    /// policy that beat the hand order for `g`'s game, else None; with `Policy hand`, None.
    pub fn policy_for<G: crate::game::Game>(
        &self,
        g: &G,
    ) -> Option<Result<&crate::learn::policy::Policy, String>> {
        let shipped = || {
            let set = g.move_feature_set()?;
            crate::learn::builtin::policy(G::NAME, &set)
        };
        match self.policy {
            EvalChoice::Hand => None,
            EvalChoice::Net => Some(match self.policy_file.as_deref().or_else(|| shipped().map(|s| &s.policy)) {
                Some(p) => p.fits(g).map(|()| p),
                None => Err(format!(
                    "no built-in policy for {} ({}): set PolicyFile to a policy from quatre train-policy",
                    G::NAME,
                    g.move_feature_set()
                        .unwrap_or_else(|| "no move features yet".into())
                )),
            }),
            EvalChoice::Auto => match self.policy_file.as_deref().filter(|p| p.fits(g).is_ok()) {
                Some(p) => Some(Ok(p)),
                None => shipped()
                    .filter(|p| p.auto && p.policy.fits(g).is_ok())
                    .map(|p| Ok(&p.policy)),
            },
        }
    }

    /// The net the searches evaluate with: with `Eval net`, the net if one is at hand for `g`,
    /// otherwise why not (the searches then use the hand evaluation); with `Eval auto`,
    /// `EvalFile`'s net if it fits, else the shipped net `Eval auto` uses for `g`'s game and
    /// rule set, else None (the hand evaluation; [`SearchParams::eval_file_note`] says when an
    /// `EvalFile` was passed over); with `Eval hand`, None.
    pub fn net_for<G: crate::game::Game>(
        &self,
        g: &G,
    ) -> Option<Result<&crate::learn::net::Net, String>> {
        match self.eval {
            EvalChoice::Hand => None,
            EvalChoice::Net => Some(match &self.eval_file {
                Some(n) => n.fits(g).map(|()| n.as_ref()),
                None => {
                    let set = g.feature_set().unwrap_or_default();
                    match crate::learn::builtin::net(G::NAME, &set) {
                        Some(n) => n.fits(g).map(|()| n),
                        None => Err(format!(
                            "no built-in net for {} ({}; built-in nets: {}): set EvalFile to a net from quatre train",
                            G::NAME,
                            if set.is_empty() { "no input features yet" } else { &set },
                            crate::learn::builtin::list().join(", ")
                        )),
                    }
                }
            }),
            EvalChoice::Auto => match self.eval_file.as_deref().map(|n| (n, n.fits(g))) {
                Some((n, Ok(()))) => Some(Ok(n)),
                _ => Self::auto_shipped(g).map(Ok),
            },
        }
    }

    /// Whether the searches of `g` would have what `Eval net` and `Policy net` ask for: a net
    /// (and, where the search chosen for `g` reads one, a policy) that fits `g`'s game, rule
    /// set and seats. Otherwise why not, as the searches would say it in their `info string
    /// error` before they evaluate (or order moves) by hand: for the callers that throw the
    /// searches' words away (built-in players, `quatre selfplay`, `quatre label`) and refuse
    /// before they play instead.
    pub fn check_learned<G: crate::game::Game>(&self, g: &G) -> Result<(), String> {
        if let Some(Err(why)) = self.net_for(g) {
            return Err(format!("Eval net: {}", why));
        }
        let chosen = super::Chosen::of(self.algorithm, g.players(), G::hidden_information());
        if !chosen.uses_policy() {
            return Ok(());
        }
        if let Some(Err(why)) = self.policy_for(g) {
            return Err(format!("Policy net: {}", why));
        }
        Ok(())
    }

    /// The shipped net `Eval auto` searches with for `g`'s game and rule set, if one fits.
    fn auto_shipped<G: crate::game::Game>(g: &G) -> Option<&'static crate::learn::net::Net> {
        let set = g.feature_set()?;
        crate::learn::builtin::auto_net(G::NAME, &set).filter(|n| n.fits(g).is_ok())
    }

    /// With `Policy auto`, a `PolicyFile` whose policy does not fit `g` (another game or move
    /// feature set): why, and what MCTS orders moves by instead (the shipped policy of `g`'s
    /// game, or the hand order), for an `info string` at an MCTS `go`.
    pub fn policy_file_note<G: crate::game::Game>(&self, g: &G) -> Option<String> {
        if self.policy != EvalChoice::Auto {
            return None;
        }
        let why = self.policy_file.as_ref()?.fits(g).err()?;
        Some(format!(
            "PolicyFile does not fit: {}; Policy auto {}",
            why,
            match self.policy_for(g) {
                Some(Ok(p)) => format!("uses the shipped policy {}", p.header.features),
                _ => "orders moves by hand".to_string(),
            }
        ))
    }

    /// With `Eval auto`, an `EvalFile` whose net does not fit `g` (another game, board, rule
    /// set or seat count): why, and what the searches evaluate with instead (the shipped net
    /// of `g`'s game and rule set, or the hand evaluation), for an `info string` at `go`.
    pub fn eval_file_note<G: crate::game::Game>(&self, g: &G) -> Option<String> {
        if self.eval != EvalChoice::Auto {
            return None;
        }
        let why = self.eval_file.as_ref()?.fits(g).err()?;
        Some(format!(
            "EvalFile does not fit: {}; Eval auto {}",
            why,
            match Self::auto_shipped(g) {
                Some(n) => format!("uses the shipped net {}", n.header.features),
                None => "evaluates by hand".to_string(),
            }
        ))
    }
}

/// The `Eval` option, and the `Policy` option (read "policy" for "net" and "the hand order"
/// for "the hand evaluation").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// A learned net where one fits the game and rule set (`EvalFile`'s, else a built-in
    /// one that beat the hand evaluation in the arena), else the hand evaluation.
    Auto,
    Hand,
    Net,
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
        "minimaxweight" => params.minimax_weight = u32::try_from(int()).ok().map(|w| w.min(100)),
        "widening" => params.widening = u32::try_from(int()).ok(),
        "leafsearch" => params.leaf_search = usize::try_from(int()).ok(),
        "exploration" => params.exploration = u32::try_from(int()).ok(),
        "valuescale" => params.value_scale = u32::try_from(int()).ok().filter(|&s| s > 0),
        "widenroot" => params.widen_root = (int() >= 0).then_some(int() == 1),
        "uci_showwdl" => params.show_wdl = value == "true",
        "eval" => {
            params.eval = match value.to_ascii_lowercase().as_str() {
                "net" => EvalChoice::Net,
                "hand" => EvalChoice::Hand,
                _ => EvalChoice::Auto,
            }
        }
        // A file is loaded (and refused) by `set`; the empty value is the built-in net.
        "evalfile" if value.is_empty() => params.eval_file = None,
        "evalfile" => {}
        "policy" => {
            params.policy = match value.to_ascii_lowercase().as_str() {
                "net" => EvalChoice::Net,
                "hand" => EvalChoice::Hand,
                _ => EvalChoice::Auto,
            }
        }
        "policyfile" if value.is_empty() => params.policy_file = None,
        "policyfile" => {}
        "policyweight" => params.policy_weight = u32::try_from(int()).ok(),
        "ponder" => params.ponder = value == "true",
        _ => return false,
    }
    true
}

/// Sets engine option `name` (case-insensitive) to `value`, checked against its type and range.
pub fn set(params: &mut SearchParams, name: &str, value: &str) -> Result<(), String> {
    let specs = engine_specs();
    let spec = specs
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            format!(
                "unknown engine option '{}' (options: {})",
                name,
                specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
            )
        })?;
    let v = spec.validate(value)?;
    if spec.name == "EvalFile" && !v.is_empty() {
        // A missing, damaged or foreign file leaves the net in use as it was.
        let net = crate::learn::net::load(&v).map_err(|e| format!("EvalFile: {}", e))?;
        params.eval_file = Some(std::sync::Arc::new(net));
    }
    if spec.name == "PolicyFile" && !v.is_empty() {
        let policy = crate::learn::policy::load(&v).map_err(|e| format!("PolicyFile: {}", e))?;
        params.policy_file = Some(std::sync::Arc::new(policy));
    }
    apply(params, spec.name, &v);
    Ok(())
}
