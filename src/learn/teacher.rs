//! `quatre label --teacher`: positions scored by another engine (an external UCI or UGI
//! engine, or a built-in player with other options) instead of quatre's own search. On
//! `Boards=1x1` a chess engine such as Stockfish knows chess far better than any evaluation
//! quatre learns from its own games (docs/learning.md, "A teacher's scores"): its scores are
//! the targets the self-play trap cannot bend.
//!
//! The teachers are started as the arena starts its players (the same engine specs, handshake
//! and faults) and kept in a pool: a game takes one, sends it `ucinewgame` (a built-in one drops
//! its tables) and gives it back when done, so a game's labels do not depend on the games
//! labelled before it or on `--concurrency`. A teacher searches each position to `--nodes`
//! (`go nodes N`); an engine that searches one thread to a node count answers the same each
//! time, as Stockfish does.

use super::format::Score;
use crate::arena::adjudicate::MATE_CP;
use crate::arena::player::{self, EngineSpec, Fault, Player, Proto, Request, Setup};
use crate::arena::referee::{go_line, with_moves, GameDef};
use crate::games::AnyGame;
use crate::search::Limits;
use std::sync::Mutex;
use std::time::Duration;

/// How long a teacher may take to answer `uci`/`isready` (start, new game).
const HANDSHAKE: Duration = Duration::from_secs(30);
/// How long a teacher may search one position before it counts as hanging: a node count ends
/// any search long before (Stockfish: 100,000 nodes in about a tenth of a second).
const SEARCH_WAIT: Duration = Duration::from_secs(600);
const STOP_GRACE: Duration = Duration::from_secs(10);

/// The pool of teacher engines of one `quatre label` run.
pub struct Teachers {
    spec: EngineSpec,
    game: String,
    /// The records' rule options, sent to a teacher that knows the game.
    options: Vec<(String, String)>,
    nodes: u64,
    idle: Mutex<Vec<Box<dyn Player>>>,
}

/// A searched position: the teacher's move and its score from the mover's view.
pub struct Label {
    pub mv: String,
    pub score: Score,
}

impl Teachers {
    /// Starts one teacher from `spec_text` (`quatre match --engine`'s syntax) to check that it
    /// runs and can read games under `def`'s rules: a chess engine (one that declares no `Game`
    /// option) only games played under the rules it reads (`Promotions=chess` on 1x1).
    pub fn start(spec_text: &str, def: &GameDef, nodes: u64) -> Result<Teachers, String> {
        let spec = EngineSpec::parse(spec_text).map_err(|e| format!("--teacher: {}", e))?;
        if spec.nodes.is_some() || spec.tc.is_some() {
            return Err(format!(
                "--teacher '{}': a teacher searches each position to --nodes; leave out its nodes= and tc=",
                spec_text
            ));
        }
        // A built-in teacher's `Eval net` (or `Policy net`) needs a net that fits the records.
        spec.check_game(def.start(Some(1))?.as_ref())
            .map_err(|e| format!("--teacher: {}", e))?;
        let t = Teachers {
            spec,
            game: def.name.clone(),
            options: def.option_pairs(),
            nodes,
            idle: Mutex::new(Vec::new()),
        };
        let mut first = t.fresh()?;
        let unreadable = def.unreadable_by_foreign_engines();
        if !first.knows_game() && !unreadable.is_empty() {
            first.finish();
            let rules: Vec<String> = unreadable
                .iter()
                .map(|(k, v)| format!("{}={}", k, v))
                .collect();
            return Err(format!(
                "--teacher '{}' does not know {} (it declares no Game option): it reads only games played under {}, and these records were not",
                t.spec.name,
                def.name,
                rules.join(", ")
            ));
        }
        t.idle.lock().unwrap_or_else(|e| e.into_inner()).push(first);
        Ok(t)
    }

    fn fresh(&self) -> Result<Box<dyn Player>, String> {
        let setup = Setup {
            game: &self.game,
            rule_options: &self.options,
            proto: Proto::Uci,
            seed: 1,
            handshake_timeout: HANDSHAKE,
            label: format!("teacher {}", self.spec.name),
            verbose: false,
        };
        player::start(&self.spec, &setup).map_err(|f| self.fault(&f, "at its start"))
    }

    fn fault(&self, f: &Fault, when: &str) -> String {
        let why = match f {
            Fault::NoAnswer(s) | Fault::Crash(s) | Fault::CannotStart(s) => s,
        };
        format!("the teacher {} failed {}: {}", self.spec.name, when, why)
    }

    /// A teacher for one game, fresh from `ucinewgame`.
    pub fn take(&self) -> Result<Box<dyn Player>, String> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut t = match idle {
            Some(t) => t,
            None => self.fresh()?,
        };
        if let Err(f) = t.new_game(HANDSHAKE) {
            t.finish();
            return Err(self.fault(&f, "at a new game"));
        }
        Ok(t)
    }

    /// Gives back a teacher whose game is done.
    pub fn give_back(&self, t: Box<dyn Player>) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(t);
    }

    /// The teacher's move and score for `state`, reached from the records' `start` by `moves`.
    /// Its move must be legal in `state`: one that is not means the teacher read another
    /// position (a start text it does not know, a move it read otherwise).
    pub fn label(
        &self,
        t: &mut dyn Player,
        start: &str,
        moves: &[String],
        state: &dyn AnyGame,
        place: &str,
    ) -> Result<Label, String> {
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let req = Request {
            position: with_moves(format!("position fen {}", start), moves),
            go: go_line(&limits, state.players()),
            limits,
            state,
            wait: SEARCH_WAIT,
            grace: STOP_GRACE,
        };
        let a = t
            .go(&req)
            .map_err(|f| self.fault(&f, &format!("on {}", place)))?;
        let mut after = state.clone_box();
        if after.play_text(&a.mv).is_err() {
            return Err(format!(
                "{}: the teacher {} answered '{}', not a legal move here ({}): it does not read this position as quatre does",
                place,
                self.spec.name,
                a.mv,
                state.to_text()
            ));
        }
        Ok(Label {
            mv: a.mv,
            score: score_of(a.score),
        })
    }

    /// Ends every teacher.
    pub fn finish(&self) {
        for mut t in self
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            t.finish();
        }
    }
}

/// An `info` score as the arena reads it (centipawns, a mate as ±(`MATE_CP` − moves)) in the
/// data's terms.
fn score_of(s: Option<i32>) -> Score {
    match s {
        None => Score::None,
        Some(c) if c > MATE_CP / 2 => Score::Mate(MATE_CP - c),
        Some(c) if c < -MATE_CP / 2 => Score::Mate(-MATE_CP - c),
        Some(c) => Score::Cp(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_read_back_as_the_info_line_gave_them() {
        use crate::arena::adjudicate::info_score;
        for (line, want) in [
            ("info depth 9 score cp -37 nodes 10", Score::Cp(-37)),
            ("info depth 9 score mate 3 nodes 10", Score::Mate(3)),
            ("info depth 9 score mate -2 nodes 10", Score::Mate(-2)),
        ] {
            assert_eq!(score_of(info_score(line)), want, "{}", line);
        }
        assert_eq!(score_of(None), Score::None);
    }
}
