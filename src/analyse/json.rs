//! `quatre analyse --json`: one JSON object per line, modelled on KataGo's analysis engine (a
//! `moveInfos` list per candidate line and a `rootInfo` with the totals). Every field is
//! described in docs/analysis.md; the objects are built here and serialised by serde.

use super::{Candidate, Seen, Setting};
use crate::search::{Line, Report, Score};
use serde::Serialize;
use std::collections::BTreeMap;

/// A score from the view of the side to move: `{"cp": 25}` or `{"mate": -3}`.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum JsonScore {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for JsonScore {
    fn from(s: Score) -> Self {
        match s {
            Score::Cp(c) => JsonScore::Cp(c),
            Score::Mate(m) => JsonScore::Mate(m),
        }
    }
}

/// One candidate line (one `multipv` slot).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    /// 0 for the best line, then 1, 2… (`multipv` minus one).
    pub order: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<JsonScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winrate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_share: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl: Option<[u32; 3]>,
    pub pv: Vec<String>,
}

/// The totals of the search so far.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    /// `p1`, `p2`…: the seat to move, as the protocol names it.
    pub current_player: String,
    /// The seat to move, counted from 1.
    pub seat: usize,
    pub players: usize,
    pub algorithm: &'static str,
    pub nodes: u64,
    pub depth: u32,
    pub seldepth: u32,
    pub nps: u64,
    #[serde(rename = "time_ms")]
    pub time_ms: u64,
    pub hashfull: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<JsonScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winrate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_share: Option<f64>,
    /// More than two seats: each seat's learned share of the points at the end of the best
    /// line, seat 1 first (the shipped net's prediction; absent where none fits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares: Option<Vec<f64>>,
}

/// An object printed while the search runs: after each alpha-beta iteration, about once a second
/// for MCTS.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Update {
    pub is_during_search: bool,
    pub move_infos: Vec<MoveInfo>,
    pub root_info: RootInfo,
}

/// An ISMCTS root move: visits, in how many determinizations it was legal, mean reward.
#[derive(Serialize, Debug)]
pub struct JsonCandidate {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u64,
    pub availability: u32,
    pub reward: f64,
}

/// The last object: the answer.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Final {
    pub is_final: bool,
    pub is_during_search: bool,
    pub game: &'static str,
    /// Every rule option of the game, by name (with the position, what reloads it).
    pub options: BTreeMap<&'static str, String>,
    /// The analysed position's text (after `--moves`).
    pub position: String,
    /// The move chosen; null when there is no legal move.
    pub bestmove: Option<String>,
    /// The reason the game is over, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_over: Option<String>,
    pub move_infos: Vec<MoveInfo>,
    pub root_info: RootInfo,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<JsonCandidate>,
    /// Where `--svg` wrote the picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// A remark from the search (the protocol's `info string`), or a problem it worked around.
#[derive(Serialize, Debug)]
pub enum Remark<'a> {
    #[serde(rename = "note")]
    Note(&'a str),
    #[serde(rename = "warning")]
    Warning(&'a str),
}

/// Win rate and reward share of a line: MCTS's mean reward (the win rate with two seats, the
/// share of the reward with more), or from the win/draw/loss figures when the search gave them.
fn rates(l: &Line, players: usize) -> (Option<f64>, Option<f64>) {
    match (l.reward, l.wdl) {
        (Some(r), _) if players > 2 => (None, Some(round4(r))),
        (Some(r), _) => (Some(round4(r)), None),
        (None, Some((w, d, _))) => (Some(round4((w as f64 + d as f64 / 2.0) / 1000.0)), None),
        (None, None) => (None, None),
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The candidate lines of a report; a search stopped before it scored a move has only that move.
pub fn move_infos(seen: &Seen, players: usize) -> Vec<MoveInfo> {
    match seen {
        Seen::Scored(r) => r
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let (winrate, reward_share) = rates(l, players);
                MoveInfo {
                    mv: l.pv.first().cloned().unwrap_or_default(),
                    order: i,
                    visits: l.visits,
                    score: Some(l.score.into()),
                    winrate,
                    reward_share,
                    wdl: l.wdl.map(|(w, d, lo)| [w, d, lo]),
                    pv: l.pv.clone(),
                }
            })
            .collect(),
        Seen::Unscored(_, mv) => vec![MoveInfo {
            mv: mv.clone(),
            order: 0,
            visits: None,
            score: None,
            winrate: None,
            reward_share: None,
            wdl: None,
            pv: vec![mv.clone()],
        }],
    }
}

/// The totals of a report, with the best line's score (and, in `g`, its shares).
pub fn root_info(seen: Option<&Seen>, s: &Setting, g: &dyn crate::games::AnyGame) -> RootInfo {
    let empty = Report {
        depth: 0,
        seldepth: 0,
        nodes: 0,
        elapsed: Default::default(),
        hashfull: 0,
        lines: Vec::new(),
    };
    let r = seen.map(Seen::report).unwrap_or(&empty);
    let (time_ms, nps) = crate::protocol::info::time_and_nps(r);
    let best = r.lines.first();
    let (winrate, reward_share) = best.map(|l| rates(l, s.players)).unwrap_or_default();
    RootInfo {
        current_player: format!("p{}", s.seat + 1),
        seat: s.seat + 1,
        players: s.players,
        algorithm: s.algorithm.name(),
        nodes: r.nodes,
        // As the `info` lines give them.
        depth: if seen.is_some() { r.depth.max(1) } else { 0 },
        seldepth: if seen.is_some() {
            r.seldepth.max(r.depth).max(1)
        } else {
            0
        },
        nps,
        time_ms,
        hashfull: r.hashfull,
        score: best.map(|l| l.score.into()),
        winrate,
        reward_share,
        shares: seen
            .and_then(|x| x.shares(g))
            .map(|v| v.into_iter().map(round4).collect()),
    }
}

pub fn candidates(c: &[Candidate]) -> Vec<JsonCandidate> {
    c.iter()
        .map(|c| JsonCandidate {
            mv: c.mv.clone(),
            visits: c.visits,
            availability: c.availability,
            reward: round4(c.reward),
        })
        .collect()
}

/// One line of JSON.
pub fn to_line<T: Serialize>(v: &T) -> String {
    // The structures above hold only strings, numbers, booleans and lists: they always serialise.
    serde_json::to_string(v).unwrap_or_else(|e| {
        serde_json::json!({ "warning": format!("cannot serialise: {}", e) }).to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Chosen;
    use std::time::Duration;

    /// A position for the fields that need one (two seats: no shares).
    fn game() -> Box<dyn crate::games::AnyGame> {
        let e = crate::games::find("hyperchess").unwrap();
        e.start(&e.default_options(), None).unwrap()
    }

    fn setting(players: usize, algorithm: Chosen) -> Setting {
        Setting {
            seat: 1,
            players,
            algorithm,
            threads: 1,
        }
    }

    fn report(lines: Vec<Line>) -> Report {
        Report {
            depth: 0,
            seldepth: 0,
            nodes: 1500,
            elapsed: Duration::from_millis(3),
            hashfull: 7,
            lines,
        }
    }

    fn line(pv: &[&str], score: Score, visits: Option<u64>, reward: Option<f64>) -> Line {
        Line {
            pv: pv.iter().map(|s| s.to_string()).collect(),
            score,
            wdl: None,
            visits,
            reward,
        }
    }

    #[test]
    fn an_update_has_the_katago_like_fields() {
        let r = report(vec![
            line(&["a", "b"], Score::Cp(120), Some(900), Some(0.66666)),
            line(&["c"], Score::Mate(-2), Some(10), Some(0.1)),
        ]);
        let s = setting(2, Chosen::Mcts);
        let seen = Seen::Scored(r);
        let u = Update {
            is_during_search: true,
            move_infos: move_infos(&seen, 2),
            root_info: root_info(Some(&seen), &s, &*game()),
        };
        assert_eq!(
            to_line(&u),
            r#"{"isDuringSearch":true,"moveInfos":[{"move":"a","order":0,"visits":900,"score":{"cp":120},"winrate":0.6667,"pv":["a","b"]},{"move":"c","order":1,"visits":10,"score":{"mate":-2},"winrate":0.1,"pv":["c"]}],"rootInfo":{"currentPlayer":"p2","seat":2,"players":2,"algorithm":"mcts","nodes":1500,"depth":1,"seldepth":1,"nps":500000,"time_ms":3,"hashfull":7,"score":{"cp":120},"winrate":0.6667}}"#
        );
    }

    #[test]
    fn more_seats_give_a_reward_share_and_wdl_gives_a_winrate() {
        let mut l = line(&["a"], Score::Cp(-50), Some(5), Some(0.3));
        assert_eq!(rates(&l, 3), (None, Some(0.3)));
        l.reward = None;
        assert_eq!(rates(&l, 2), (None, None));
        l.wdl = Some((300, 500, 200));
        assert_eq!(rates(&l, 2), (Some(0.55), None));
    }

    #[test]
    fn an_unscored_search_lists_its_move_without_a_score() {
        let seen = Seen::Unscored(report(Vec::new()), "x1".into());
        let infos = move_infos(&seen, 2);
        assert_eq!(to_line(&infos), r#"[{"move":"x1","order":0,"pv":["x1"]}]"#);
        let root = root_info(Some(&seen), &setting(2, Chosen::AlphaBeta), &*game());
        assert_eq!(root.score, None);
        assert_eq!(root.nodes, 1500);
        // Before any report: zeros.
        let root = root_info(None, &setting(3, Chosen::Brs), &*game());
        assert_eq!((root.nodes, root.depth, root.players), (0, 0, 3));
        assert_eq!(to_line(&Remark::Note("hi")), r#"{"note":"hi"}"#);
        assert_eq!(to_line(&Remark::Warning("oh")), r#"{"warning":"oh"}"#);
    }

    /// Chess for three's root info has each seat's learned share at the end of the best line,
    /// summing to 1; a finished line's shares are the game's rewards.
    #[test]
    fn three_seats_have_learned_shares() {
        let e = crate::games::find("threechess").unwrap();
        let g = e.start(&e.default_options(), None).unwrap();
        let s = Setting {
            seat: 0,
            players: 3,
            algorithm: Chosen::Brs,
            threads: 1,
        };
        let seen = Seen::Scored(report(vec![line(
            &["c2c3", "b4c3"],
            Score::Cp(-30),
            None,
            None,
        )]));
        let shares = root_info(Some(&seen), &s, &*g).shares.expect("shares");
        assert_eq!(shares.len(), 3);
        assert!(
            (shares.iter().sum::<f64>() - 1.0).abs() < 1e-3,
            "{:?}",
            shares
        );
        assert!(shares.iter().all(|&x| x > 0.0 && x < 1.0), "{:?}", shares);
        // The line is played: its end is what the net scores (not the root).
        let root_only = Seen::Scored(report(vec![line(&[], Score::Cp(0), None, None)]));
        assert_ne!(root_info(Some(&root_only), &s, &*g).shares, Some(shares));
        // Two seats: none.
        assert_eq!(
            root_info(Some(&seen), &setting(2, Chosen::AlphaBeta), &*game()).shares,
            None
        );
    }
}
