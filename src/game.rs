//! The one trait every ruleset implements, and what goes with it: seats, results, rule options,
//! the random-number generator games and searches share, and generic helpers (perft, random
//! playouts, invariant checks) that every game's tests reuse.
//!
//! Design: think of OpenSpiel's `State`. A value of a `Game` type is a whole game state; `play`
//! applies a legal move in place (copy-make: searches clone). Chance is resolved inside `play` from
//! randomness the state itself carries (e.g. the deck order and a seed for steals in tesseris), so
//! `play` is deterministic given the state. Hidden information is handled by determinization: a
//! seat's search plays on `determinize(observer, rng)`, a full state consistent with what that seat
//! knows, with the hidden cards (and the state's future randomness) drawn afresh.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;

/// A seat at the table: 0 is the side the rules move first ("p1" on the protocol).
pub type Seat = usize;
/// The most seats any ruleset has.
pub const MAX_SEATS: usize = 4;

/// The random-number generator used by games (chance, determinization) and searches.
/// Seeded explicitly everywhere so that `Seed` + `Threads=1` reproduces a search exactly.
pub type GameRng = rand::rngs::SmallRng;

/// Makes a [`GameRng`] from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    use rand::SeedableRng;
    GameRng::seed_from_u64(seed)
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Reward of each seat (`0..players`), summing to 1: a lone winner gets 1, the others 0;
    /// winners who tie share the 1 equally (a two-player draw is 0.5 each). Unused seats are 0.
    pub rewards: [f32; MAX_SEATS],
    /// A short reason a person can read: "checkmate", "stalemate", "threefold repetition",
    /// "MaxPlies", "tesseract captured", "target reached", …
    pub reason: &'static str,
}

impl Outcome {
    /// `seat` wins alone in a game of `players` seats.
    pub fn win(seat: Seat, reason: &'static str) -> Self {
        let mut rewards = [0.0; MAX_SEATS];
        rewards[seat] = 1.0;
        Outcome { rewards, reason }
    }
    /// Every one of the `players` seats shares equally (a draw).
    pub fn draw(players: usize, reason: &'static str) -> Self {
        let mut rewards = [0.0; MAX_SEATS];
        for r in rewards.iter_mut().take(players) {
            *r = 1.0 / players as f32;
        }
        Outcome { rewards, reason }
    }
    /// The seats in `winners` share the win.
    pub fn shared(winners: &[Seat], reason: &'static str) -> Self {
        let mut rewards = [0.0; MAX_SEATS];
        for &s in winners {
            rewards[s] = 1.0 / winners.len() as f32;
        }
        Outcome { rewards, reason }
    }
    /// The lone winner, if exactly one seat has reward 1.
    pub fn winner(&self) -> Option<Seat> {
        self.rewards.iter().position(|&r| r >= 0.999)
    }
}

/// Whether the game goes on. A finished game has no legal moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

impl Status {
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }
}

/// The type and range of a rule option (shown as a UCI `option` line).
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    String {
        default: &'static str,
    },
}

/// One rule option of a game (e.g. hyperchess `Boards`, rithmomachia `Victory`).
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// As shown to the user (`MaxPlies`); matched case-insensitively.
    pub name: &'static str,
    pub kind: OptionKind,
}

impl OptionSpec {
    pub fn default_text(&self) -> String {
        match self.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::String { default } => default.to_string(),
        }
    }

    /// Checks `value` against the option's type and range; returns it normalised
    /// (`true`/`false`, a decimal integer, a combo value in its canonical spelling).
    pub fn validate(&self, value: &str) -> Result<String, String> {
        let v = value.trim();
        match self.kind {
            OptionKind::Check { .. } => match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok("true".into()),
                "false" | "0" | "off" | "no" => Ok("false".into()),
                _ => Err(format!(
                    "option {} takes true or false, not '{}'",
                    self.name, v
                )),
            },
            OptionKind::Spin { min, max, .. } => match v.parse::<i64>() {
                Ok(n) if n >= min && n <= max => Ok(n.to_string()),
                Ok(n) => Err(format!(
                    "option {} must be between {} and {}, not {}",
                    self.name, min, max, n
                )),
                Err(_) => Err(format!(
                    "option {} takes an integer, not '{}'",
                    self.name, v
                )),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|c| c.eq_ignore_ascii_case(v))
                .map(|c| c.to_string())
                .ok_or_else(|| {
                    format!(
                        "option {} takes one of {}, not '{}'",
                        self.name,
                        vars.join(" | "),
                        v
                    )
                }),
            // `<empty>` is how `uci` lists an empty default (as Stockfish does); a GUI that
            // sends the listed default back means the empty string.
            OptionKind::String { .. } if v == "<empty>" => Ok(String::new()),
            OptionKind::String { .. } => Ok(v.to_string()),
        }
    }
}

/// The rule options of one game, all present (defaults filled in) and valid.
#[derive(Clone, Debug)]
pub struct RuleOptions {
    specs: &'static [OptionSpec],
    values: BTreeMap<String, String>,
}

/// The most distinct sets of rule options [`RuleOptions::intern`] keeps in one process (each a
/// few hundred bytes; a session or a match uses one or two).
pub const MAX_INTERNED: usize = 4096;

/// Two sets are equal when they are of the same game's options (the same declaration) with the
/// same values.
impl PartialEq for RuleOptions {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.specs, other.specs) && self.values == other.values
    }
}

impl Eq for RuleOptions {}

impl Hash for RuleOptions {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.specs.as_ptr().hash(state);
        self.values.hash(state);
    }
}

/// The value of a rule option that stands for the game's own default: the protocol lists an
/// option that games share with different defaults (`MaxPlies`) with this default, and
/// [`RuleOptions::set_given`] takes it for such an option only (for any other, -1 is outside
/// the range the option list gives, and refused as such).
pub const GAME_DEFAULT: &str = "-1";

impl RuleOptions {
    /// Every option at its default.
    pub fn defaults(specs: &'static [OptionSpec]) -> Self {
        let values = specs
            .iter()
            .map(|s| (s.name.to_ascii_lowercase(), s.default_text()))
            .collect();
        RuleOptions { specs, values }
    }

    /// Defaults for game `G`.
    pub fn of<G: Game>() -> Self {
        Self::defaults(G::rule_options())
    }

    /// Sets an option by name (case-insensitive), checking the value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec = self
            .spec(name)
            .ok_or_else(|| format!("no rule option named '{}'", name))?;
        let v = spec.validate(value)?;
        self.values.insert(spec.name.to_ascii_lowercase(), v);
        Ok(())
    }

    /// Sets an option as a user gives it (the protocol's `setoption`, the command line's
    /// `--option`): [`GAME_DEFAULT`] restores the game's own default where the option list
    /// offers it (an option listed with min -1, see
    /// [`takes_game_default`](crate::protocol::options::takes_game_default)); any other value is
    /// checked as [`set`](Self::set) does.
    pub fn set_given(&mut self, name: &str, value: &str) -> Result<(), String> {
        match self.spec(name) {
            Some(spec)
                if value.trim() == GAME_DEFAULT
                    && crate::protocol::options::takes_game_default(spec.name) =>
            {
                self.set(name, &spec.default_text())
            }
            _ => self.set(name, value),
        }
    }

    /// Builder form of [`set`](Self::set) for tests: panics on a bad name or value.
    pub fn with(mut self, name: &str, value: &str) -> Self {
        if let Err(e) = self.set(name, value) {
            panic!("{}", e);
        }
        self
    }

    pub fn spec(&self, name: &str) -> Option<&'static OptionSpec> {
        self.specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub fn specs(&self) -> &'static [OptionSpec] {
        self.specs
    }

    /// The value of an option as text (its default if never set; "" for an unknown name).
    pub fn text(&self, name: &str) -> &str {
        self.values
            .get(&name.to_ascii_lowercase())
            .map(|s| s.as_str())
            .unwrap_or("")
    }

    /// The value of a spin option (0 for an unknown name).
    pub fn int(&self, name: &str) -> i64 {
        self.text(name).parse().unwrap_or(0)
    }

    /// The value of a check option (false for an unknown name).
    pub fn flag(&self, name: &str) -> bool {
        self.text(name) == "true"
    }

    /// A `'static` copy of these options, made once per distinct set of values and shared by
    /// every state built with them: cloning a state then copies a pointer, with no allocation
    /// and no reference count that search threads would contend on.
    ///
    /// The copies live as long as the process (any state may point at one), so their number is
    /// bounded: past [`MAX_INTERNED`] distinct sets a new one is refused with an error (the sets
    /// already made stay usable), and a client sending ever new values (`setoption`, `quatre
    /// serve`) cannot grow memory or slow the look-up (a hash set) without bound. Only valid
    /// sets reach here: [`set`](Self::set) checks every value against the game's declaration.
    pub fn intern(&self) -> Result<&'static RuleOptions, String> {
        use std::collections::HashSet;
        use std::sync::{Mutex, OnceLock};
        static INTERNED: OnceLock<Mutex<HashSet<&'static RuleOptions>>> = OnceLock::new();
        let mut all = INTERNED
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(&o) = all.get(self) {
            return Ok(o);
        }
        if all.len() >= MAX_INTERNED {
            return Err(format!(
                "too many distinct sets of rule options in this process ({}); use one already used",
                MAX_INTERNED
            ));
        }
        let o: &'static RuleOptions = Box::leak(Box::new(self.clone()));
        all.insert(o);
        Ok(o)
    }

    /// `(name, value)` of every option, in spec order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> + '_ {
        self.specs.iter().map(move |s| (s.name, self.text(s.name)))
    }
}

/// A ruleset. Searches are generic over it and monomorphised per game.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move, small and cheap to copy. For tesseris a move is a whole turn (discard + draw).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The name the protocol loads the ruleset by (`hyperchess`, …).
    const NAME: &'static str;

    /// The rule options, each shown as an `option` line and set with `setoption`.
    fn rule_options() -> &'static [OptionSpec];

    /// The start position under these options. For games with chance (tesseris) this deals
    /// from a fixed default seed; see [`start_with_seed`](Self::start_with_seed).
    fn start(opts: &RuleOptions) -> Result<Self, String>;

    /// The start position, dealing/shuffling from `seed` where the game has chance.
    fn start_with_seed(opts: &RuleOptions, _seed: u64) -> Result<Self, String> {
        Self::start(opts)
    }

    /// Parses a position text (the game's FEN-like format; for hidden-information games a seat's
    /// observation). Errors say what is wrong in words a person can act on.
    fn from_text(text: &str, opts: &RuleOptions) -> Result<Self, String>;

    /// The position text; `from_text(to_text())` gives back the same position and hash.
    fn to_text(&self) -> String;

    /// The position drawn for a person (several lines, no trailing newline): the `d` command.
    fn display(&self) -> String;

    /// The rule options this state was built with.
    fn options(&self) -> &RuleOptions;

    /// Number of seats (2 for the board games, 2..4 for tesseris).
    fn players(&self) -> usize;

    /// The seat to move.
    fn to_move(&self) -> Seat;

    /// Clears `out` and fills it with every legal move (none once the game is over).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// How many legal moves there are (perft's last ply). `buf` is scratch space; a game may
    /// count without listing.
    fn count_legal_moves(&self, buf: &mut Vec<Self::Move>) -> usize {
        self.legal_moves(buf);
        buf.len()
    }

    /// Applies a legal move (the caller guarantees legality; an illegal one may corrupt the state
    /// but must not cause undefined behaviour).
    fn play(&mut self, mv: Self::Move);

    /// Ongoing or over, with per-seat rewards. Must be cheap: searches call it at every node.
    fn status(&self) -> Status;

    /// Zobrist hash, kept incrementally by `play`.
    fn hash(&self) -> u64;

    /// The same hash computed from scratch (tests check `hash() == full_hash()`).
    fn full_hash(&self) -> u64;

    /// Parses a move string in this position's context. It need not check legality (the caller
    /// looks the result up in `legal_moves`), but must reject malformed text with a clear error.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// The move in the protocol's notation; `parse_move(format_move(m)) == m` for legal `m`.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Heuristic value of the position for `seat`, in centipawn-like units: 100 ≈ a pawn in chess;
    /// +400 should mean roughly 10:1 odds of winning (searches map it to a probability with
    /// 1 / (1 + 10^(-v/400))). Positive is good for `seat`.
    fn evaluate(&self, seat: Seat) -> i32;

    /// Every seat's [`Game::evaluate`] at once, into `out[..players()]`: the same values, for
    /// the searches that want them all (MCTS's rewards). A game whose evaluation of one seat
    /// weighs the others' anyway (chess for three: a seat's strength against the others')
    /// gives them for the price of one.
    fn evaluate_all(&self, out: &mut [i32; MAX_SEATS]) {
        for (s, v) in out.iter_mut().enumerate().take(self.players()) {
            *v = self.evaluate(s as Seat);
        }
    }

    /// Ordering hint for alpha-beta: higher first (captures, promotions, …).
    fn move_priority(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// The size of this game's dense move index space under this position's rule options
    /// (e.g. hyperchess's depends on `Boards`, tesseris's on `Players` and `FullDeck`): every
    /// [`move_index`](Self::move_index) is below it. A policy's output layer or a table of
    /// per-move statistics has this many entries.
    fn move_index_count(&self) -> usize;

    /// A dense index of legal move `mv`, in `0..move_index_count()`: distinct legal moves of a
    /// position get distinct indices, and the index depends only on what the move's notation
    /// says: the same move text gives the same index in every position under the same rule
    /// options, as a policy head's output would (and in the five games here, two different
    /// texts never share one). Cheap: no allocation, no move generation. For a move that is
    /// not legal here it is still below the count, but may share an index with a legal one.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// Whether an engine that does not know this game can read `mv` — a chess engine playing
    /// hyperchess on one board cannot read a promotion to a guard. When a seat of an arena game
    /// is such an engine, the arena asks the other seats for such moves only (`go searchmoves`;
    /// docs/arena.md, "Engines that do not know the game").
    fn foreign_engine_reads(&self, _mv: Self::Move) -> bool {
        true
    }

    /// Whether an engine that does not know this game (one that declares no `Game` option: a
    /// chess engine) can play it at all: hyperchess on one board is chess without castling;
    /// no other game here is chess, so the arena refuses such an engine before its first game.
    fn foreign_engines_play(&self) -> bool {
        false
    }

    /// Whether alpha-beta's quiescence search should look at this move (captures and the like).
    fn is_noisy(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Quiescence pruning hints for a noisy move: the most it can gain in [`Game::evaluate`]'s
    /// units (the captured piece's value plus a promotion's gain), and whether it likely loses
    /// material (a piece taking a cheaper one that is defended). None: no hint, and quiescence
    /// prunes nothing.
    fn noisy_estimate(&self, _mv: Self::Move) -> Option<(i32, bool)> {
        None
    }

    /// Static exchange evaluation: what `mv` wins (positive) or loses (negative) in
    /// [`Game::noisy_estimate`]'s units once both sides have captured on its target square as
    /// suits them (a quiet move: at most 0). None where the game gives none; then alpha-beta
    /// prunes nothing by it.
    fn exchange(&self, _mv: Self::Move) -> Option<i32> {
        None
    }

    /// The legal moves that are noisy ([`Game::is_noisy`]), in the order `legal_moves` lists
    /// them (quiescence search). A game may generate them without the quiet ones.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&m| self.is_noisy(m));
    }

    /// Whether `in_check` can ever be true: alpha-beta then plays a move before deciding to
    /// prune it (a move that gives check is never pruned), which costs a copy and a `play`.
    const HAS_CHECK: bool = false;

    /// Whether the side to move is in check (games with a royal piece). Alpha-beta neither
    /// reduces nor prunes a move that gives check, and makes no null move when in check.
    fn in_check(&self) -> bool {
        false
    }

    /// The position with the turn passed to the other seat and nothing else changed, for
    /// alpha-beta's null-move pruning; None where a pass would mislead the search (in check,
    /// during setup, when zugzwang is likely) or the game does not support it.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// One uniformly random legal move, or None if there is none. `buf` is scratch space.
    /// Games override this when they can do it faster than generating every move.
    fn random_move(&self, rng: &mut GameRng, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        use rand::Rng;
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// The name under which the search's tables ([`crate::search::tuning`]) keep what was
    /// measured for this rule set: the game's name, or a variant of it whose search was
    /// measured apart (hyperchess on one board, `hyperchess-1x1`, and with chess's promotions,
    /// which is chess with its own evaluation, `hyperchess-1x1-chess`).
    fn tuning_name(&self) -> &'static str {
        Self::NAME
    }

    /// MCTS's rollout length when the `RolloutPlies` option leaves it to the game: `tuned`, the
    /// game's measured choice, unless it measured another for these options (tesseris: 4 plies
    /// with 2 seats, 8 with more).
    fn default_rollout_plies(&self, tuned: usize) -> usize {
        tuned
    }

    /// How many plies an MCTS rollout from this state plays, given the search's `plies`: the
    /// same unless the game knows better (tesseris plays a round that can end the game out).
    fn rollout_plies(&self, plies: usize) -> usize {
        plies
    }

    /// The move MCTS rollouts play from a new leaf: a random one unless the game knows a cheap
    /// policy that scores leaves better (tesseris plays its rule-based player there).
    fn rollout_move(&self, rng: &mut GameRng, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.random_move(rng, buf)
    }

    /// True for games where seats hold hidden information (tesseris).
    fn hidden_information() -> bool {
        false
    }

    /// What `seat` knows, as a position text `from_text` accepts.
    fn observation_text(&self, _seat: Seat) -> String {
        self.to_text()
    }

    /// The seat whose observation this state is (some cards hidden from it), or None for a
    /// full state.
    fn observer(&self) -> Option<Seat> {
        None
    }

    /// A full state consistent with everything `observer` knows, hidden cards and future chance
    /// drawn from `rng`. Identity for perfect-information games. Must read nothing `observer`
    /// cannot know (so two states that look the same to `observer` give identical results for
    /// identical `rng` streams).
    fn determinize(&self, _observer: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    /// A rule-based player's choice, for games that have a baseline opponent (tesseris).
    fn baseline_move(&self, _rng: &mut GameRng) -> Option<Self::Move> {
        None
    }

    /// A picture of this position (SVG): see [`crate::render`]. The default draws the text
    /// diagram of [`display`](Self::display).
    fn svg(&self, _opts: &crate::render::DrawOptions) -> String {
        crate::render::text_picture(&self.display())
    }

    /// What a person calls `seat` ("White", "Black"…): the web board's seat list and verdicts.
    /// The default is "seat N" (1-based).
    fn seat_name(&self, seat: Seat) -> String {
        format!("seat {}", seat + 1)
    }

    /// The cells a move touches, in the order a person clicks them (from, then to; a drop's
    /// reserve, then its target): names of `data-cell` elements of [`svg`](Self::svg). Empty
    /// when the game's picture has no cells for it.
    fn move_cells(&self, _mv: Self::Move) -> Vec<String> {
        Vec::new()
    }

    /// A chess GUI treats repetition, the 100-ply rule and a move cap as claims, not as the end,
    /// and sends the moves that follow. If this state is over by such an automatic draw
    /// (repetition, the 100-ply rule, `MaxPlies`), it goes on instead: that draw no longer ends
    /// it (repetitions and the 100-ply count start again from here; `MaxPlies` no longer
    /// applies), and its name is returned. Any other state is left as it is (None).
    fn play_through_draw(&mut self) -> Option<&'static str> {
        None
    }

    /// Turns the draw rules off in this state and in every state played from it: repetition,
    /// the ply-count rules (hyperchess's 100 plies, threechess's 150), bare kings and `MaxPlies`
    /// no longer end the game, and a draw by one of them in this state is lifted. The ends the
    /// move rules give (mate, stalemate, a victory, a deal's end) stay. Perft calls it on its
    /// root, since it counts what the move rules give, as chess's perft does. Every game with a
    /// draw rule must implement it.
    fn ignore_draw_rules(&mut self) {}

    /// The learned evaluation's input features (docs/learning.md): the feature set's name, its
    /// version and the rule options it depends on (e.g. `hyperchess-3x3/1`; a net trained on
    /// one set is refused for another), or None where the game has none yet.
    fn feature_set(&self) -> Option<String> {
        None
    }

    /// How many features the set has (every index `features` gives is below it).
    fn feature_count(&self) -> usize {
        0
    }

    /// Appends the position's active features to `out`: sparse and absolute (the same whoever
    /// asks; the side to move is a feature).
    fn features(&self, _out: &mut Vec<u32>) {}

    /// Whether `features` lists them in increasing order (equal ones next to each other): the
    /// learned evaluation then updates its hidden sums by the difference of two sorted lists
    /// (`learn::infer`), else by what lies between their common beginning and end.
    fn features_sorted(&self) -> bool {
        false
    }

    /// The position as words of bits, appended to `out`, where the game can give it so: each
    /// bit stands for a few features (`word_features`), the same ones whatever else is set. The
    /// learned evaluation then folds each bit's rows into one (`Net::folded_rows`) and updates
    /// its hidden sums by the bits that changed, without listing features (`learn::infer`).
    /// False (and nothing appended) where the game gives none.
    fn feature_words(&self, _out: &mut Vec<u64>) -> bool {
        false
    }

    /// This position's ply (plies played since the position the client gave) and the hash of
    /// the position before the last move, where the game keeps them: the learned evaluation
    /// then updates its hidden sums from the parent's, one move away, rather than from the
    /// last position it evaluated (`learn::infer`). Only speed depends on it: a wrong parent
    /// costs more rows, never a wrong sum. `None` where the game keeps none, or at ply 0.
    fn lineage(&self) -> Option<(u32, u64)> {
        None
    }

    /// How many bits `feature_words` gives (0 where it gives none).
    fn feature_word_bits(&self) -> usize {
        0
    }

    /// Appends the features bit `bit` of `feature_words` stands for.
    fn word_features(&self, _bit: usize, _out: &mut Vec<u32>) {}

    /// The learned policy's move features (docs/learning.md, "The policy"): the set's name and
    /// version with the rule options it depends on (e.g. `hyperchess-moves-3x3/3`), or None
    /// where the game has none yet.
    fn move_feature_set(&self) -> Option<String> {
        None
    }

    /// How many move features the set has.
    fn move_feature_count(&self) -> usize {
        0
    }

    /// Appends the active features of legal move `mv` in this state to `out` (a policy's logit
    /// for the move is the sum of their weights).
    fn move_features(&self, _mv: Self::Move, _out: &mut Vec<u32>) {}
}

/// Counts the leaf nodes of the legal-move tree to `depth` (bulk-counted at depth 1). As in
/// chess, perft counts what the move rules give: the draw rules (repetition, ply counts, bare
/// kings, `MaxPlies`) do not end its tree, mate, stalemate and the other ends do
/// ([`Game::ignore_draw_rules`]).
pub fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut root = g.clone();
    root.ignore_draw_rules();
    perft_from(&root, depth)
}

/// [`perft`] of a state whose draw rules are already off.
fn perft_from<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move list and one child state per ply, reused: allocating a list per node cost a
    // seventh of the time, and `clone_from` may copy less than a whole state.
    let mut bufs: Vec<(Vec<G::Move>, G)> = (0..depth)
        .map(|_| (Vec::with_capacity(64), g.clone()))
        .collect();
    perft_with(g, depth, &mut bufs)
}

fn perft_with<G: Game>(g: &G, depth: u32, bufs: &mut [(Vec<G::Move>, G)]) -> u64 {
    let ((moves, child), rest) = bufs.split_first_mut().expect("a buffer per ply");
    if depth == 1 {
        return g.count_legal_moves(moves) as u64;
    }
    g.legal_moves(moves);
    let mut total = 0;
    for &m in moves.iter() {
        child.clone_from(g);
        child.play(m);
        total += perft_with(child, depth - 1, rest);
    }
    total
}

/// [`perft`] that gives up once `stop` is set (checked at every interior node): None then.
pub fn perft_until<G: Game>(
    g: &G,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    let mut root = g.clone();
    root.ignore_draw_rules();
    perft_from_until(&root, depth, stop)
}

fn perft_from_until<G: Game>(
    g: &G,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth <= 2 {
        return Some(perft_from(g, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut total = 0;
    for &m in &moves {
        let mut c = g.clone();
        c.play(m);
        total += perft_from_until(&c, depth - 1, stop)?;
    }
    Some(total)
}

/// Per-move perft: `(move text, count)` for each legal move, in generation order.
pub fn perft_divide<G: Game>(g: &G, depth: u32) -> Vec<(String, u64)> {
    let mut root = g.clone();
    root.ignore_draw_rules();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = root.clone();
            c.play(m);
            (
                root.format_move(m),
                if depth <= 1 {
                    1
                } else {
                    perft_from(&c, depth - 1)
                },
            )
        })
        .collect()
}

/// Plays uniformly random moves until the game ends or `max_plies` moves were made; returns the
/// number of moves played.
pub fn random_playout<G: Game>(
    g: &mut G,
    rng: &mut GameRng,
    max_plies: usize,
    buf: &mut Vec<G::Move>,
) -> usize {
    playout(g, rng, max_plies, buf, G::random_move)
}

/// Plays the moves `policy` picks until the game ends or `max_plies` moves were made; returns
/// the number of moves played.
pub fn playout<G: Game>(
    g: &mut G,
    rng: &mut GameRng,
    max_plies: usize,
    buf: &mut Vec<G::Move>,
    policy: impl Fn(&G, &mut GameRng, &mut Vec<G::Move>) -> Option<G::Move>,
) -> usize {
    let mut n = 0;
    while n < max_plies && !g.status().is_over() {
        match policy(g, rng, buf) {
            Some(m) => g.play(m),
            None => break,
        }
        n += 1;
    }
    n
}

/// The invariants every ruleset must keep, checked over `games` random games of at most
/// `max_plies` plies from `start` (returns the first violation, for a test to report):
/// - the incremental hash equals the from-scratch hash after every move;
/// - every legal move's text parses back to the same move, and moves are distinct;
/// - the position text round-trips (same text, same hash) for perfect-information games;
/// - a finished game has no legal moves, an ongoing one has at least one;
/// - `random_move` only returns legal moves.
pub fn check_invariants<G: Game>(
    start: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> Result<(), String> {
    use rand::Rng;
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    for game in 0..games {
        let mut g = start.clone();
        for ply in 0..max_plies {
            let ctx = |what: String| {
                format!(
                    "game {} ply {}: {} (position {})",
                    game,
                    ply,
                    what,
                    g.to_text()
                )
            };
            let mut all = [0; MAX_SEATS];
            g.evaluate_all(&mut all);
            for (s, &v) in all.iter().enumerate().take(g.players()) {
                if v != g.evaluate(s as Seat) {
                    return Err(ctx(format!(
                        "evaluate_all gives seat {} {}, evaluate {}",
                        s,
                        v,
                        g.evaluate(s as Seat)
                    )));
                }
            }
            if g.hash() != g.full_hash() {
                return Err(ctx(format!(
                    "incremental hash {:x} != full hash {:x}",
                    g.hash(),
                    g.full_hash()
                )));
            }
            if !G::hidden_information() {
                let text = g.to_text();
                let back = G::from_text(&text, g.options())
                    .map_err(|e| ctx(format!("from_text failed: {}", e)))?;
                if back.to_text() != text {
                    return Err(ctx(format!(
                        "position text does not round-trip: {} -> {}",
                        text,
                        back.to_text()
                    )));
                }
                if back.hash() != g.hash() {
                    return Err(ctx("hash differs after position text round trip".into()));
                }
            }
            if let Some(n) = g.null_move() {
                if n.hash() != n.full_hash() || n.hash() == g.hash() {
                    return Err(ctx("null move: wrong incremental hash".into()));
                }
                if n.to_move() == g.to_move() || G::HAS_CHECK && n.in_check() {
                    return Err(ctx("null move: the turn did not pass cleanly".into()));
                }
                let text = n.to_text();
                let back = G::from_text(&text, n.options()).map_err(|e| {
                    ctx(format!(
                        "null move gives a position text not read back: {}",
                        e
                    ))
                })?;
                if back.hash() != n.hash() {
                    return Err(ctx("null move: hash differs after a text round trip".into()));
                }
            }
            g.legal_moves(&mut moves);
            let counted = g.count_legal_moves(&mut buf);
            if counted != moves.len() {
                return Err(ctx(format!(
                    "count_legal_moves says {} but legal_moves lists {}",
                    counted,
                    moves.len()
                )));
            }
            g.noisy_moves(&mut buf);
            if !buf
                .iter()
                .copied()
                .eq(moves.iter().copied().filter(|&m| g.is_noisy(m)))
            {
                return Err(ctx(format!(
                    "noisy_moves {:?} are not the noisy ones of legal_moves, in order",
                    buf
                )));
            }
            let over = g.status().is_over();
            if over && !moves.is_empty() {
                return Err(ctx("finished game has legal moves".into()));
            }
            if !over && moves.is_empty() {
                return Err(ctx("ongoing game has no legal move".into()));
            }
            if over {
                break;
            }
            for (i, &m) in moves.iter().enumerate() {
                let s = g.format_move(m);
                match g.parse_move(&s) {
                    Ok(p) if p == m => {}
                    Ok(p) => {
                        return Err(ctx(format!(
                            "move {} parses back to a different move {:?} != {:?}",
                            s, p, m
                        )))
                    }
                    Err(e) => return Err(ctx(format!("move {} does not parse back: {}", s, e))),
                }
                if moves[..i].contains(&m) {
                    return Err(ctx(format!("move {} generated twice", s)));
                }
            }
            if let Some(r) = g.random_move(&mut rng, &mut buf) {
                if !moves.contains(&r) {
                    return Err(ctx(format!(
                        "random_move gave an illegal move {}",
                        g.format_move(r)
                    )));
                }
            }
            let m = moves[rng.random_range(0..moves.len())];
            g.play(m);
        }
    }
    Ok(())
}
