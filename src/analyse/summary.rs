//! The summary a person reads at the end of `quatre analyse`: best move, score in the game's
//! terms, depth and counts, principal variation, and each `--multipv` line.

use super::{Seen, Setting};
use crate::game::Status;
use crate::games::AnyGame;
use crate::search::{Chosen, Line, Score};

/// The score of a line for a person, from the view of the side to move: a forced win or loss in
/// N moves, a win probability (MCTS, two seats), a share of the reward (MCTS, more seats), or an
/// evaluation in pawns (alpha-beta, Best-Reply Search), with the protocol's figure in brackets.
pub fn score_text(l: &Line, s: &Setting) -> String {
    let who = format!("p{}", s.seat + 1);
    let mut t = match (l.score, l.reward) {
        (Score::Mate(m), _) if m > 0 => {
            format!("{} wins in {} move{} (mate {})", who, m, plural(m), m)
        }
        (Score::Mate(m), _) => format!(
            "{} loses in {} move{} (mate {})",
            who,
            m.unsigned_abs(),
            plural(m),
            m
        ),
        (Score::Cp(_), Some(r)) if s.players > 2 => format!(
            "reward share {:.3} for {} (an even share is {:.3})",
            r,
            who,
            1.0 / s.players as f64
        ),
        (Score::Cp(c), Some(r)) => {
            format!("win probability {:.1}% for {} (cp {})", r * 100.0, who, c)
        }
        (Score::Cp(c), None) => format!("{:+.2} for {} (cp {})", c as f64 / 100.0, who, c),
    };
    if let Some((w, d, lo)) = l.wdl {
        t.push_str(&format!(
            ", win/draw/loss {:.1}/{:.1}/{:.1}%",
            w as f64 / 10.0,
            d as f64 / 10.0,
            lo as f64 / 10.0
        ));
    }
    t
}

fn plural(m: i32) -> &'static str {
    if m.unsigned_abs() == 1 {
        ""
    } else {
        "s"
    }
}

/// The summary block (without the final `bestmove` line).
pub fn lines(
    s: &Setting,
    g: &dyn AnyGame,
    best: Option<&str>,
    seen: Option<&Seen>,
    svg: Option<&str>,
) -> Vec<String> {
    let mcts = matches!(s.algorithm, Chosen::Mcts | Chosen::Ismcts);
    let mut out = vec![
        String::new(),
        format!(
            "Analysis of {} with p{} to move: {} on {} thread{}",
            g.name(),
            s.seat + 1,
            s.algorithm.name(),
            s.threads,
            if s.threads == 1 { "" } else { "s" }
        ),
    ];
    let row = |k: &str, v: String| format!("  {:<11}{}", k, v);
    let Some(best) = best else {
        let why = match g.status() {
            Status::Over(o) => format!("none: the game is over ({})", o.reason),
            Status::Ongoing => "none: no legal move".to_string(),
        };
        out.push(row("best move", why));
        if let Some(p) = svg {
            out.push(row("picture", p.to_string()));
        }
        return out;
    };
    out.push(row("best move", best.to_string()));
    let report = seen.map(Seen::report);
    let lines = match seen {
        Some(Seen::Scored(r)) => &r.lines[..],
        _ => &[],
    };
    let first = lines
        .first()
        .filter(|l| l.pv.first().map(String::as_str) == Some(best));
    out.push(row(
        "score",
        match first {
            Some(l) => score_text(l, s),
            None => "not scored (the search stopped before it scored this move)".into(),
        },
    ));
    if let Some(shares) = seen.and_then(|x| x.shares(g)) {
        let each: Vec<String> = shares
            .iter()
            .enumerate()
            .map(|(i, v)| format!("p{} {:.1}%", i + 1, v * 100.0))
            .collect();
        out.push(row(
            "shares",
            format!(
                "{} (learned: each seat's expected share of the points at the end of the line)",
                each.join(", ")
            ),
        ));
    }
    if let Some(r) = report {
        let (depth, seldepth) = (r.depth.max(1), r.seldepth.max(r.depth).max(1));
        let depth = if mcts {
            format!(
                "{} (mean depth of the playouts in the tree), seldepth {}",
                depth, seldepth
            )
        } else {
            format!("{}, seldepth {}", depth, seldepth)
        };
        out.push(row("depth", depth));
        let (ms, nps) = crate::protocol::info::time_and_nps(r);
        out.push(row(
            "searched",
            format!(
                "{} {} in {:.3} s, {} per second",
                r.nodes,
                if mcts { "playouts" } else { "nodes" },
                ms as f64 / 1000.0,
                nps
            ),
        ));
    }
    let pv = first
        .map(|l| l.pv.join(" "))
        .unwrap_or_else(|| best.to_string());
    out.push(row("pv", pv));
    if lines.len() > 1 {
        let width = lines
            .iter()
            .filter_map(|l| l.pv.first())
            .map(|m| m.len())
            .max();
        for (i, l) in lines.iter().enumerate() {
            let visits = l
                .visits
                .map(|v| format!(", {} visits", v))
                .unwrap_or_default();
            out.push(row(
                &format!("line {}", i + 1),
                format!(
                    "{:<w$}  {}{}  pv {}",
                    l.pv.first().map(String::as_str).unwrap_or("?"),
                    score_text(l, s),
                    visits,
                    l.pv.join(" "),
                    w = width.unwrap_or(0)
                ),
            ));
        }
    }
    if let Some(p) = svg {
        out.push(row("picture", p.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(players: usize) -> Setting {
        Setting {
            seat: 0,
            players,
            algorithm: Chosen::AlphaBeta,
            threads: 1,
        }
    }

    fn line(score: Score, reward: Option<f64>, wdl: Option<(u32, u32, u32)>) -> Line {
        Line {
            pv: vec!["m".into()],
            score,
            wdl,
            visits: None,
            reward,
        }
    }

    fn report(lines: Vec<Line>) -> crate::search::Report {
        crate::search::Report {
            depth: 4,
            seldepth: 9,
            nodes: 12_000,
            elapsed: std::time::Duration::from_millis(1500),
            hashfull: 0,
            lines,
        }
    }

    #[test]
    fn the_summary_has_a_row_for_each_figure_and_each_line() {
        let g = crate::games::find("tesseract").unwrap();
        let g = g.start(&g.default_options(), None).unwrap();
        let mut second = line(Score::Cp(-30), None, None);
        second.pv = vec!["P@d3".into(), "P@d13".into()];
        let mut first = line(Score::Cp(40), None, None);
        first.pv = vec!["P@c3".into(), "P@c13".into()];
        let seen = Seen::Scored(report(vec![first, second]));
        let s = setting(2);
        assert_eq!(
            lines(&s, g.as_ref(), Some("P@c3"), Some(&seen), Some("x.svg")),
            vec![
                "",
                "Analysis of tesseract with p1 to move: alphabeta on 1 thread",
                "  best move  P@c3",
                "  score      +0.40 for p1 (cp 40)",
                "  depth      4, seldepth 9",
                "  searched   12000 nodes in 1.500 s, 8000 per second",
                "  pv         P@c3 P@c13",
                "  line 1     P@c3  +0.40 for p1 (cp 40)  pv P@c3 P@c13",
                "  line 2     P@d3  -0.30 for p1 (cp -30)  pv P@d3 P@d13",
                "  picture    x.svg",
            ]
        );
        // Stopped before any move was scored: the move, without a score.
        let seen = Seen::Unscored(report(Vec::new()), "P@e3".into());
        let out = lines(&s, g.as_ref(), Some("P@e3"), Some(&seen), None);
        assert_eq!(
            out[3],
            "  score      not scored (the search stopped before it scored this move)"
        );
        assert_eq!(out[6], "  pv         P@e3");
        // No move at all.
        let out = lines(&s, g.as_ref(), None, None, None);
        assert_eq!(out.last().unwrap(), "  best move  none: no legal move");
    }

    #[test]
    fn scores_read_in_the_games_terms() {
        let two = setting(2);
        let t = |l: Line| score_text(&l, &two);
        assert_eq!(t(line(Score::Cp(125), None, None)), "+1.25 for p1 (cp 125)");
        assert_eq!(t(line(Score::Cp(-7), None, None)), "-0.07 for p1 (cp -7)");
        assert_eq!(
            t(line(Score::Mate(1), None, None)),
            "p1 wins in 1 move (mate 1)"
        );
        assert_eq!(
            t(line(Score::Mate(-3), None, None)),
            "p1 loses in 3 moves (mate -3)"
        );
        assert_eq!(
            t(line(Score::Cp(95), Some(0.6321), None)),
            "win probability 63.2% for p1 (cp 95)"
        );
        assert_eq!(
            t(line(Score::Cp(0), None, Some((119, 762, 119)))),
            "+0.00 for p1 (cp 0), win/draw/loss 11.9/76.2/11.9%"
        );
        assert_eq!(
            score_text(&line(Score::Cp(-40), Some(0.2), None), &setting(4)),
            "reward share 0.200 for p1 (an even share is 0.250)"
        );
    }
}
