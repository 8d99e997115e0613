//! What a search reports, as protocol text: `info` lines for reports, `info string` for notes.
//! The one place that knows the `info` line's format (see protocol.md, "info").

use crate::search::{Event, Report, Score};

/// The protocol lines of one search event.
pub fn lines(e: &Event) -> Vec<String> {
    match *e {
        Event::Report(r) => report_lines(r),
        Event::Unscored { report, mv } => vec![unscored_line(report, mv)],
        Event::Note(s) => vec![format!("info string {}", s)],
        Event::Problem(s) => vec![format!("info string error: {}", super::error_text(s))],
        Event::Candidate {
            mv,
            visits,
            availability,
            reward,
        } => vec![format!(
            "info string candidate {} visits {} availability {} reward {:.4}",
            mv, visits, availability, reward
        )],
    }
}

/// Each seat's expected share of the points (more than two seats):
/// `info string shares p1 0.412 p2 0.305 p3 0.283`.
pub fn shares_line(shares: &[f64]) -> String {
    let each: Vec<String> = shares
        .iter()
        .enumerate()
        .map(|(s, v)| format!("p{} {:.3}", s + 1, v))
        .collect();
    format!("info string shares {}", each.join(" "))
}

/// The report's elapsed milliseconds and nodes per second.
pub fn time_and_nps(r: &Report) -> (u64, u64) {
    let ms = r.elapsed.as_millis() as u64;
    (
        ms,
        (r.nodes * 1000).checked_div(ms).unwrap_or(r.nodes * 1000),
    )
}

/// The `info` lines of a report, one per multipv slot.
pub fn report_lines(r: &Report) -> Vec<String> {
    let (ms, nps) = time_and_nps(r);
    r.lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let score = match l.score {
                Score::Cp(c) => format!("cp {}", c),
                Score::Mate(m) => format!("mate {}", m),
            };
            let wdl = l
                .wdl
                .map(|(w, d, lo)| format!(" wdl {} {} {}", w, d, lo))
                .unwrap_or_default();
            format!(
                "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} time {} hashfull {} pv {}",
                r.depth.max(1),
                r.seldepth.max(r.depth).max(1),
                i + 1,
                score,
                wdl,
                r.nodes,
                nps,
                ms,
                r.hashfull,
                l.pv.join(" ")
            )
        })
        .collect()
}

/// An `info` line for a search stopped before it scored any move: counts and the move it plays.
pub fn unscored_line(r: &Report, mv: &str) -> String {
    let (ms, nps) = time_and_nps(r);
    format!(
        "info depth {} nodes {} nps {} time {} pv {}",
        r.depth.max(1),
        r.nodes,
        nps,
        ms,
        mv
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Line;
    use std::time::Duration;

    #[test]
    fn a_report_is_one_info_line_per_slot_with_every_field() {
        let r = Report {
            depth: 3,
            seldepth: 7,
            nodes: 5000,
            elapsed: Duration::from_millis(250),
            hashfull: 12,
            lines: vec![
                Line {
                    pv: vec!["e2e4".into(), "e7e5".into()],
                    score: Score::Cp(31),
                    wdl: Some((300, 650, 50)),
                    visits: None,
                    reward: None,
                },
                Line {
                    pv: vec!["d2d4".into()],
                    score: Score::Mate(-2),
                    wdl: None,
                    visits: None,
                    reward: None,
                },
            ],
        };
        assert_eq!(
            lines(&Event::Report(&r)),
            vec![
                "info depth 3 seldepth 7 multipv 1 score cp 31 wdl 300 650 50 nodes 5000 nps 20000 time 250 hashfull 12 pv e2e4 e7e5",
                "info depth 3 seldepth 7 multipv 2 score mate -2 nodes 5000 nps 20000 time 250 hashfull 12 pv d2d4",
            ]
        );
        assert_eq!(lines(&Event::Note("hi")), vec!["info string hi"]);
        assert_eq!(
            lines(&Event::Problem("no threads")),
            vec!["info string error: no threads"]
        );
        assert_eq!(
            lines(&Event::Unscored {
                report: &r,
                mv: "a2a3"
            }),
            vec!["info depth 3 nodes 5000 nps 20000 time 250 pv a2a3"]
        );
    }
}
