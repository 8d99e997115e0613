//! The registry: the only place that knows every ruleset. It turns a game's name into an
//! [`AnyGame`] — an object-safe, text-level view of a [`Game`] that the protocol and the arena use,
//! while searches stay generic and monomorphised per game behind it.

pub mod hyperchess;
pub mod rithmomachia;
pub mod tesseract;
pub mod tesseris;
pub mod threechess;

use crate::game::{perft, perft_divide, Game, GameRng, OptionSpec, RuleOptions, Seat, Status};
use crate::render::DrawOptions;
use crate::search::{self, Context, Control, Event, Limits, Report, SearchParams};
use std::sync::atomic::AtomicBool;

/// What a search hands back, in text.
#[derive(Clone, Debug)]
pub struct SearchSummary {
    /// The move chosen, or None when there is no legal move.
    pub best: Option<String>,
    pub nodes: u64,
    pub report: Option<Report>,
}

/// A game state of any ruleset, seen through text: what the protocol and the arena need.
pub trait AnyGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    fn options(&self) -> &RuleOptions;
    fn to_text(&self) -> String;
    fn display(&self) -> String;
    fn hash(&self) -> u64;
    fn players(&self) -> usize;
    fn to_move(&self) -> Seat;
    fn status(&self) -> Status;
    fn hidden_information(&self) -> bool;
    fn observation_text(&self, seat: Seat) -> String;
    /// See [`Game::observer`].
    fn observer(&self) -> Option<Seat>;
    /// Every legal move in the protocol's notation.
    fn legal_moves(&self) -> Vec<String>;
    /// The legal moves an engine that does not know the game can read
    /// ([`Game::foreign_engine_reads`]), in the order of `legal_moves` — None when that is every
    /// legal move (or none of them: a list cannot be empty).
    fn foreign_readable_moves(&self) -> Option<Vec<String>>;
    fn foreign_engines_play(&self) -> bool;
    /// Plays a move given as text, if it is legal; otherwise says why and changes nothing.
    fn play_text(&mut self, mv: &str) -> Result<(), String>;
    /// See [`Game::play_through_draw`].
    fn play_through_draw(&mut self) -> Option<&'static str>;
    fn perft(&self, depth: u32) -> u64;
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Per-move perft, each root move's count handed to `each` as soon as it is known; stops
    /// (returning false) once `stop` is set.
    fn perft_divide_until(
        &self,
        depth: u32,
        stop: &AtomicBool,
        each: &mut dyn FnMut(String, u64),
    ) -> bool;
    fn evaluate(&self, seat: Seat) -> i32;
    fn random_move(&self, rng: &mut GameRng) -> Option<String>;
    fn baseline_move(&self, rng: &mut GameRng) -> Option<String>;
    /// Searches this position (blocking) and returns the chosen move; `events` hears what the
    /// search reports as it runs (`&|_| {}` to hear nothing).
    fn search(
        &self,
        params: &SearchParams,
        limits: &Limits,
        stop: &AtomicBool,
        events: &(dyn Fn(Event) + Sync),
    ) -> SearchSummary {
        self.search_controlled(params, limits, Control::new(stop), events)
    }
    /// [`search`](Self::search) with the caller's full control: pondering, when the clock
    /// started, an extra safety margin.
    fn search_controlled(
        &self,
        params: &SearchParams,
        limits: &Limits,
        control: Control,
        events: &(dyn Fn(Event) + Sync),
    ) -> SearchSummary;
    /// A picture of the position (SVG); see [`crate::render`].
    fn svg(&self, opts: &DrawOptions) -> String;
    /// The cells a legal move touches, in click order (see [`crate::render`]).
    fn move_cells(&self, mv: &str) -> Result<Vec<String>, String>;
    /// What a person calls `seat` ("White", "Black"…).
    fn seat_name(&self, seat: Seat) -> String;
    /// Random playout throughput: plays `games` random games of at most `max_plies` plies from
    /// this position, returning the number of moves played.
    fn random_playouts(&self, games: usize, max_plies: usize, seed: u64) -> u64;
    /// See [`Game::feature_set`].
    fn feature_set(&self) -> Option<String>;
    /// See [`Game::feature_count`].
    fn feature_count(&self) -> usize;
    /// The position's active features ([`Game::features`]).
    fn features(&self) -> Vec<u32>;
    /// See [`Game::move_feature_set`].
    fn move_feature_set(&self) -> Option<String>;
    /// See [`Game::move_feature_count`].
    fn move_feature_count(&self) -> usize;
    /// Each seat's expected share of the points, learned: the shipped net's prediction
    /// ([`Net::shares`](crate::learn::net::Net::shares)) at the end of `line` (moves as text,
    /// played from here as far as they are legal). None for two seats (a score says it) and
    /// where no shipped net fits the game and rule set.
    fn shares(&self, line: &[String]) -> Option<Vec<f64>>;
    /// The static evaluation for the side to move as the searches see it under `params`'
    /// `Eval` and `EvalFile` (the protocol's `eval`).
    fn static_eval(&self, params: &SearchParams) -> StaticEval;
    /// See [`SearchParams::check_learned`]: whether `Eval net` and `Policy net` have a net and
    /// a policy that fit this game, rule set and seats.
    fn check_learned(&self, params: &SearchParams) -> Result<(), String>;
}

/// A position's static evaluation for the side to move (`AnyGame::static_eval`).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticEval {
    pub seat: Seat,
    /// The hand evaluation.
    pub hand: i32,
    /// The net's evaluation and its feature set where the searches would use a net; `Err`
    /// with why, where `Eval net` asked for one and none fits (the searches then evaluate by
    /// hand); None where they evaluate by hand as asked.
    pub net: Option<Result<(i32, String), String>>,
    /// With `Eval auto`, why `EvalFile`'s net is passed over and what evaluates instead
    /// ([`SearchParams::eval_file_note`]).
    pub note: Option<String>,
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<G: Game> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn options(&self) -> &RuleOptions {
        Game::options(self)
    }
    fn to_text(&self) -> String {
        Game::to_text(self)
    }
    fn display(&self) -> String {
        Game::display(self)
    }
    fn hash(&self) -> u64 {
        Game::hash(self)
    }
    fn players(&self) -> usize {
        Game::players(self)
    }
    fn to_move(&self) -> Seat {
        Game::to_move(self)
    }
    fn status(&self) -> Status {
        Game::status(self)
    }
    fn hidden_information(&self) -> bool {
        G::hidden_information()
    }
    fn observation_text(&self, seat: Seat) -> String {
        Game::observation_text(self, seat)
    }
    fn observer(&self) -> Option<Seat> {
        Game::observer(self)
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut v = Vec::new();
        Game::legal_moves(self, &mut v);
        v.into_iter().map(|m| self.format_move(m)).collect()
    }
    fn foreign_engines_play(&self) -> bool {
        Game::foreign_engines_play(self)
    }
    fn foreign_readable_moves(&self) -> Option<Vec<String>> {
        let mut v = Vec::new();
        Game::legal_moves(self, &mut v);
        let all = v.len();
        v.retain(|&m| self.foreign_engine_reads(m));
        (!v.is_empty() && v.len() < all)
            .then(|| v.into_iter().map(|m| self.format_move(m)).collect())
    }
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        if let Status::Over(o) = Game::status(self) {
            return Err(format!(
                "move {} after the end of the game ({})",
                text, o.reason
            ));
        }
        let m = self
            .parse_move(text)
            .map_err(|e| format!("bad move '{}': {}", text, e))?;
        let mut v = Vec::new();
        Game::legal_moves(self, &mut v);
        if !v.contains(&m) {
            return Err(format!(
                "illegal move '{}' in this position ({} legal moves)",
                text,
                v.len()
            ));
        }
        self.play(m);
        Ok(())
    }
    fn play_through_draw(&mut self) -> Option<&'static str> {
        Game::play_through_draw(self)
    }
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft_divide(self, depth)
    }
    fn perft_divide_until(
        &self,
        depth: u32,
        stop: &AtomicBool,
        each: &mut dyn FnMut(String, u64),
    ) -> bool {
        // Perft counts what the move rules give: the draw rules are off from the root on.
        let mut root = self.clone();
        root.ignore_draw_rules();
        let mut moves = Vec::new();
        Game::legal_moves(&root, &mut moves);
        for m in moves {
            let mut c = root.clone();
            c.play(m);
            match crate::game::perft_until(&c, depth.saturating_sub(1), stop) {
                Some(n) => each(root.format_move(m), n),
                None => return false,
            }
        }
        true
    }
    fn evaluate(&self, seat: Seat) -> i32 {
        Game::evaluate(self, seat)
    }
    fn random_move(&self, rng: &mut GameRng) -> Option<String> {
        let mut buf = Vec::new();
        Game::random_move(self, rng, &mut buf).map(|m| self.format_move(m))
    }
    fn baseline_move(&self, rng: &mut GameRng) -> Option<String> {
        Game::baseline_move(self, rng).map(|m| self.format_move(m))
    }
    fn search_controlled(
        &self,
        params: &SearchParams,
        limits: &Limits,
        control: Control,
        events: &(dyn Fn(Event) + Sync),
    ) -> SearchSummary {
        let ctx = Context::new(params, limits, control, events, Game::to_move(self));
        let o = search::search(self, &ctx);
        SearchSummary {
            best: o.best.map(|m| self.format_move(m)),
            nodes: o.nodes,
            report: o.report,
        }
    }
    fn svg(&self, opts: &DrawOptions) -> String {
        Game::svg(self, opts)
    }
    fn seat_name(&self, seat: Seat) -> String {
        Game::seat_name(self, seat)
    }
    fn move_cells(&self, text: &str) -> Result<Vec<String>, String> {
        let m = self
            .parse_move(text)
            .map_err(|e| format!("bad move '{}': {}", text, e))?;
        let mut moves = Vec::new();
        Game::legal_moves(self, &mut moves);
        if !moves.contains(&m) {
            return Err(format!("'{}' is not a legal move in this position", text));
        }
        Ok(Game::move_cells(self, m))
    }
    fn random_playouts(&self, games: usize, max_plies: usize, seed: u64) -> u64 {
        let mut rng = crate::game::rng_from_seed(seed);
        let mut buf = Vec::new();
        let mut total = 0;
        for _ in 0..games {
            let mut g = if G::hidden_information() {
                self.determinize(Game::to_move(self), &mut rng)
            } else {
                self.clone()
            };
            total += crate::game::random_playout(&mut g, &mut rng, max_plies, &mut buf) as u64;
        }
        total
    }
    fn feature_set(&self) -> Option<String> {
        Game::feature_set(self)
    }
    fn feature_count(&self) -> usize {
        Game::feature_count(self)
    }
    fn move_feature_set(&self) -> Option<String> {
        Game::move_feature_set(self)
    }
    fn move_feature_count(&self) -> usize {
        Game::move_feature_count(self)
    }
    fn features(&self) -> Vec<u32> {
        let mut v = Vec::new();
        Game::features(self, &mut v);
        v
    }
    fn static_eval(&self, params: &SearchParams) -> StaticEval {
        use crate::search::deepening::bounded_eval;
        let seat = Game::to_move(self);
        StaticEval {
            seat,
            hand: bounded_eval(self, seat, None),
            net: params.net_for(self).map(|found| {
                found.map(|n| (bounded_eval(self, seat, Some(n)), n.header.features.clone()))
            }),
            note: params.eval_file_note(self),
        }
    }
    fn check_learned(&self, params: &SearchParams) -> Result<(), String> {
        params.check_learned(self)
    }
    fn shares(&self, line: &[String]) -> Option<Vec<f64>> {
        if Game::players(self) <= 2 {
            return None;
        }
        let net = crate::learn::builtin::net(G::NAME, &Game::feature_set(self)?)?;
        net.fits(self).ok()?;
        let mut end = self.clone();
        for mv in line {
            if AnyGame::play_text(&mut end, mv).is_err() {
                break;
            }
        }
        Some(net.shares(&end))
    }
}

/// Builds a game's start position (dealt from a seed where the game has chance).
type StartFn = fn(&RuleOptions, Option<u64>) -> Result<Box<dyn AnyGame>, String>;
/// Builds a game's position from its text.
type FromTextFn = fn(&str, &RuleOptions) -> Result<Box<dyn AnyGame>, String>;

/// One ruleset in the registry.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    pub rule_options: fn() -> &'static [OptionSpec],
    start: StartFn,
    from_text: FromTextFn,
}

impl Entry {
    /// The start position (dealt from `seed` where the game has chance).
    pub fn start(&self, opts: &RuleOptions, seed: Option<u64>) -> Result<Box<dyn AnyGame>, String> {
        (self.start)(opts, seed)
    }
    /// A position from its text.
    pub fn from_text(&self, text: &str, opts: &RuleOptions) -> Result<Box<dyn AnyGame>, String> {
        (self.from_text)(text, opts)
    }
    /// Every rule option at its default.
    pub fn default_options(&self) -> RuleOptions {
        RuleOptions::defaults((self.rule_options)())
    }
}

fn entry<G: Game>() -> Entry {
    Entry {
        name: G::NAME,
        rule_options: G::rule_options,
        start: |o, seed| {
            let g = match seed {
                Some(s) => G::start_with_seed(o, s)?,
                None => G::start(o)?,
            };
            Ok(Box::new(g) as Box<dyn AnyGame>)
        },
        from_text: |t, o| Ok(Box::new(G::from_text(t, o)?) as Box<dyn AnyGame>),
    }
}

/// Every ruleset, in the order the protocol lists them (the first is the default).
pub fn all() -> Vec<Entry> {
    vec![
        entry::<hyperchess::Hyperchess>(),
        entry::<rithmomachia::Rithmomachia>(),
        entry::<tesseract::Tesseract>(),
        entry::<tesseris::Tesseris>(),
        entry::<threechess::Threechess>(),
    ]
}

/// The ruleset named `name` (case-insensitive).
pub fn find(name: &str) -> Option<Entry> {
    all()
        .into_iter()
        .find(|e| e.name.eq_ignore_ascii_case(name))
}

/// The ruleset named `name`, or the default one (the first) for None; an unknown name is an
/// error that lists the games.
pub fn resolve(name: Option<&str>) -> Result<Entry, String> {
    match name {
        Some(n) => find(n.trim())
            .ok_or_else(|| format!("unknown game '{}'; games: {}", n.trim(), names().join(", "))),
        None => all()
            .first()
            .copied()
            .ok_or_else(|| "no game is compiled in".into()),
    }
}

/// Names of every ruleset.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|e| e.name).collect()
}
