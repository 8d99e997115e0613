//! What the two alpha-beta searches (alpha-beta for two seats, Best-Reply Search for three)
//! share around their iterative deepening: decisive scores and their `Score`, the text of a
//! principal variation, when a proven mate ends the search, and the last report before
//! `bestmove`.

use super::{Context, Event, Report, Score};
use crate::game::{Game, Seat};

/// A win at the root (mate for alpha-beta); a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are decisive (a proven win or loss within 1000 plies).
pub const MATE_BOUND: i32 = MATE - 1000;

/// A bound of the searches' windows beyond every score, decisive ones included.
pub const INF: i32 = 2_000_000;

/// Evaluations are kept within ±this, below the decisive scores: a won position outranks any
/// material lead (a 3x3 hyperchess army is worth about 60,000 cp).
pub const EVAL_LIMIT: i32 = MATE_BOUND - 1;

/// `g`'s evaluation for `seat`, kept below the decisive scores ([`EVAL_LIMIT`]). Every search
/// that mixes evaluations with won or lost scores (alpha-beta, Best-Reply Search, MCTS's leaf
/// search) takes its evaluations through here.
/// With a learned `net` (`Eval net`), the net's evaluation.
pub fn bounded_eval<G: Game>(g: &G, seat: Seat, net: Option<&crate::learn::net::Net>) -> i32 {
    match net {
        Some(n) => n.evaluate(g, seat),
        None => g.evaluate(seat),
    }
    .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// [`bounded_eval`] for a search that only asks where the score stands against its window
/// (`alpha`, `beta`). With a residual net (a correction of the hand evaluation) whose
/// correction cannot bring the hand evaluation into the window (its weights bound it:
/// `Net::correction_range`), the bound the correction proves — at or above `beta` (a lower
/// bound), or at or below `alpha` (an upper bound) — without running the net: lazy evaluation,
/// as chess engines did for their costlier terms, here with no guess (a fifth to two fifths of
/// a net search's time is the net, docs/learning.md). Otherwise, and without a net or with a
/// whole one, exactly [`bounded_eval`].
pub fn window_eval<G: Game>(
    g: &G,
    seat: Seat,
    net: Option<&crate::learn::net::Net>,
    alpha: i32,
    beta: i32,
) -> i32 {
    LazyEval::new(g, seat, net).within(g, alpha, beta)
}

/// A node's evaluation for one seat, asked lazily ([`window_eval`]'s reasoning) as often as a
/// search likes: with a residual net the hand evaluation and the bounds of the net's correction
/// are computed once, the net runs at most once, and only when a question's answer needs it.
pub struct LazyEval<'n> {
    net: Option<&'n crate::learn::net::Net>,
    seat: Seat,
    /// The hand evaluation a residual net corrects.
    hand: i32,
    /// Bounds of the evaluation (equal, the evaluation, once it is known).
    lo: i32,
    hi: i32,
}

impl<'n> LazyEval<'n> {
    /// The bounds of `g`'s evaluation for `seat`: the evaluation itself without a net or with
    /// a whole one, the hand evaluation plus the correction's range with a residual net.
    pub fn new<G: Game>(g: &G, seat: Seat, net: Option<&'n crate::learn::net::Net>) -> Self {
        match net {
            Some(n) if n.is_residual() => {
                let hand = n.base_score(g, seat);
                let (lo, hi) = n.correction_range(seat);
                // The net clamps its scores as it does (a monotone map keeps the bounds).
                let limit = crate::learn::net::EVAL_LIMIT as i32;
                let bound = |c: i32| hand.saturating_add(c).clamp(-limit, limit);
                LazyEval {
                    net,
                    seat,
                    hand,
                    lo: bound(lo),
                    hi: bound(hi),
                }
            }
            _ => {
                let e = bounded_eval(g, seat, net);
                LazyEval {
                    net: None,
                    seat,
                    hand: e,
                    lo: e,
                    hi: e,
                }
            }
        }
    }

    /// The evaluation where it lies within (`alpha`, `beta`); else a bound that shows it does
    /// not: at or above `beta` (a lower bound) or at or below `alpha` (an upper bound).
    pub fn within<G: Game>(&mut self, g: &G, alpha: i32, beta: i32) -> i32 {
        if self.lo >= beta {
            self.lo
        } else if self.hi <= alpha {
            self.hi
        } else {
            self.exact(g)
        }
        .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The evaluation itself ([`bounded_eval`]'s), running the net if it has not run.
    pub fn exact<G: Game>(&mut self, g: &G) -> i32 {
        if let Some(n) = self.net.take() {
            let e = n.evaluate_on(g, self.seat, self.hand);
            (self.lo, self.hi) = (e, e);
        }
        self.lo.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Scale of a shared result: a share `r` of `n` seats scores (r·n − 1) · SHARE cp.
const SHARE: f32 = 1000.0;

/// The score of a finished game for a seat whose reward is `reward`, `ply` plies from the root
/// of the search: a win `MATE - ply` (sooner is better), a loss `-(MATE - ply)`, a draw 0 and a
/// result shared among `players` seats (r·n − 1)·1000 (three seats: two sharing score +500).
/// The one mapping of results to scores of alpha-beta, Best-Reply Search and MCTS's leaf search.
pub fn terminal_score(reward: f32, players: usize, ply: usize) -> i32 {
    if reward > 0.99 {
        MATE - ply as i32
    } else if reward < 0.01 {
        -(MATE - ply as i32)
    } else {
        ((reward * players as f32 - 1.0) * SHARE) as i32
    }
}

/// A score for the protocol: decisive scores as moves to mate (positive: the side to move
/// wins), the rest in centipawns.
pub fn score_of(s: i32) -> Score {
    if s > MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s < -MATE_BOUND {
        Score::Mate(-((MATE + s + 1) / 2))
    } else {
        Score::Cp(s)
    }
}

/// The moves of `pv` as text, played from `root` (stopping where the game ends).
pub fn pv_texts<G: Game>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut g = root.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &m in pv {
        if g.status().is_over() {
            break;
        }
        texts.push(g.format_move(m));
        g.play(m);
    }
    texts
}

/// A forced mate found: deeper search will not change the move; `go mate N` ends once a mate in
/// N or fewer is proven. Under other limits (not a fixed `depth`, not until `stop`) a mate ends
/// the search only once the completed depth reaches its length in plies: a longer one was read
/// from the table, whose scores forget the path (a position's mate in 12, found before, holds
/// whether or not the line repeats), and an engine that trusted it at depth 1 shuffled a won
/// rook ending into a threefold repetition in 1 ms a move (Stockfish gauntlet of 2026-12-01).
pub fn mate_ends_search(ctx: &Context, last: Option<&Report>) -> bool {
    let Some(r) = last else {
        return false;
    };
    let Some(Score::Mate(m)) = r.lines.first().map(|l| l.score) else {
        return false;
    };
    let asked = ctx.limits.mate.is_some_and(|n| m > 0 && m as u32 <= n);
    asked || (within_depth(m, r.depth) && ctx.limits.depth.is_none() && !ctx.limits.is_unlimited())
}

/// Whether a mate in `m` moves (negative: being mated) fits in `depth` plies: 2m − 1 plies to
/// give it, 2m to be given it.
fn within_depth(m: i32, depth: u32) -> bool {
    let plies = if m > 0 { 2 * m - 1 } else { -2 * m };
    depth as i64 >= plies.max(1) as i64
}

/// The last word before bestmove: the best completed line with the final counts (or, when
/// `stop` came before the first iteration ended, the move found best so far, unscored).
pub fn last_word(
    ctx: &Context,
    last: Option<&mut Report>,
    nodes: u64,
    hashfull: u32,
    seldepth: u32,
    best: Option<String>,
) {
    match last {
        Some(r) if nodes != r.nodes => {
            r.nodes = nodes;
            r.elapsed = ctx.start.elapsed();
            r.hashfull = hashfull;
            ctx.report(r);
        }
        Some(_) => {}
        None => {
            if let Some(mv) = best {
                let r = Report {
                    depth: 1,
                    seldepth,
                    nodes,
                    elapsed: ctx.start.elapsed(),
                    hashfull,
                    lines: Vec::new(),
                };
                (ctx.events)(Event::Unscored {
                    report: &r,
                    mv: &mv,
                });
            }
        }
    }
}

/// One reusable child state per ply, for the searches that walk a tree depth first: a child
/// is `clone_from` its parent into the state its ply used last (which may copy less than a
/// whole state: hyperchess copies only its grid's boards and the hashes the repetition rule
/// reads) instead of a fresh `clone` per node. The place where, later, incremental work
/// (a learned evaluation's accumulator) goes from parent to child.
pub struct States<G>(Vec<Option<Box<G>>>);

impl<G: Game> Default for States<G> {
    fn default() -> Self {
        States(Vec::new())
    }
}

impl<G: Game> States<G> {
    /// `g` after `m`, in ply `ply`'s state, taken out of the stack while the caller uses it:
    /// give it back with [`States::put`] (a state not given back is only allocated afresh).
    #[inline]
    pub fn child(&mut self, ply: usize, g: &G, m: G::Move) -> Box<G> {
        let mut c = match self.0.get_mut(ply).and_then(Option::take) {
            Some(mut c) => {
                G::clone_from(&mut c, g);
                c
            }
            None => Box::new(g.clone()),
        };
        c.play(m);
        c
    }

    /// Gives ply `ply`'s state back for the next child at that ply.
    #[inline]
    pub fn put(&mut self, ply: usize, c: Box<G>) {
        if self.0.len() <= ply {
            self.0.resize_with(ply + 1, || None);
        }
        self.0[ply] = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::within_depth;

    #[test]
    fn a_mate_ends_a_timed_search_once_the_depth_holds_its_plies() {
        assert!(within_depth(1, 1));
        assert!(!within_depth(3, 4));
        assert!(within_depth(3, 5));
        assert!(
            !within_depth(12, 1),
            "a table's mate in 12 at depth 1 is not proven"
        );
        assert!(!within_depth(-2, 3));
        assert!(within_depth(-2, 4));
        assert!(within_depth(-1, 2));
    }
}
