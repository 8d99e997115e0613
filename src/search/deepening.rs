//! What the two alpha-beta searches (alpha-beta for two seats, Best-Reply Search for three)
//! share around their iterative deepening: decisive scores and their `Score`, the text of a
//! principal variation, when a proven mate ends the search, and the last report before
//! `bestmove`.

use super::{Context, Event, Report, Score};
use crate::game::Game;

/// A win at the root (mate for alpha-beta); a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are decisive (a proven win or loss within 1000 plies).
pub const MATE_BOUND: i32 = MATE - 1000;

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
/// N or fewer is proven. (A fixed `depth` or an infinite search still goes on.)
pub fn mate_ends_search(ctx: &Context, last: Option<&Report>) -> bool {
    let Some(Score::Mate(m)) = last.and_then(|r| r.lines.first()).map(|l| l.score) else {
        return false;
    };
    let asked = ctx.limits.mate.is_some_and(|n| m > 0 && m as u32 <= n);
    asked || (ctx.limits.depth.is_none() && !ctx.limits.is_unlimited())
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
