//! `quatre analyse`: searches one position and says what it found, for a person (the position's
//! diagram, the live `info` lines, a summary, `bestmove`) or for a program (`--json`: one object
//! per update and a final one), and draws the position with the best move's arrow (`--svg`).
//! The formats are described in docs/analysis.md.

pub mod json;
pub mod summary;

use crate::game::Status;
use crate::games::AnyGame;
use crate::protocol;
use crate::render::DrawOptions;
use crate::search::{Chosen, Event, Limits, Report, SearchParams};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Who reads the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The diagram, the `info` lines, a summary and `bestmove`.
    Human,
    /// One JSON object per line.
    Json,
}

/// One analysis to run.
pub struct Request<'a> {
    pub game: &'a dyn AnyGame,
    pub params: SearchParams,
    pub limits: Limits,
    pub format: Format,
    /// Where to write the picture of the position with the best move's arrow.
    pub svg: Option<String>,
    /// Cells to highlight in the picture: the last move played to reach the position.
    pub highlight: Vec<String>,
}

/// What the output needs to know about the search besides its reports.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// The seat to move (from 0).
    pub seat: usize,
    pub players: usize,
    pub algorithm: Chosen,
    pub threads: usize,
}

/// The last thing the search reported.
#[derive(Clone, Debug)]
pub enum Seen {
    /// A report with its scored lines.
    Scored(Report),
    /// The search was stopped before it scored a move: the counts and the move it plays.
    Unscored(Report, String),
}

impl Seen {
    pub fn report(&self) -> &Report {
        match self {
            Seen::Scored(r) | Seen::Unscored(r, _) => r,
        }
    }

    /// Each seat's learned share of the points at the end of the best line (more than two
    /// seats, where a shipped net fits: [`AnyGame::shares`]).
    pub fn shares(&self, g: &dyn AnyGame) -> Option<Vec<f64>> {
        match self {
            Seen::Scored(r) => g.shares(&r.lines.first()?.pv),
            Seen::Unscored(..) => None,
        }
    }
}

/// An ISMCTS root move as the search reported it.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mv: String,
    pub visits: u64,
    pub availability: u32,
    pub reward: f64,
}

/// Runs the analysis, writing each output line through `out`.
pub fn run(req: &Request, out: &(dyn Fn(&str) + Sync)) -> Result<(), String> {
    // Where the rules drew by themselves (repetition, the 100-ply rule, MaxPlies), the analysis
    // searches on, as the protocol's `go` does for a chess GUI.
    let mut owned = req.game.clone_box();
    let mut drawn = Vec::new();
    while let Some(reason) = owned.play_through_draw() {
        drawn.push(reason);
    }
    let g: &dyn AnyGame = owned.as_ref();
    // Create the picture's file first: a path that cannot be written fails before the search.
    let mut svg_file = match &req.svg {
        Some(p) => Some(
            std::fs::File::create(p).map_err(|e| format!("--svg: cannot create '{}': {}", p, e))?,
        ),
        None => None,
    };
    let setting = Setting {
        seat: g.to_move(),
        players: g.players(),
        algorithm: Chosen::of(req.params.algorithm, g.players(), g.hidden_information()),
        threads: req.params.threads,
    };
    let human = req.format == Format::Human;
    if human {
        for l in protocol::display_lines(g) {
            out(&l);
        }
    }
    for reason in drawn {
        let note = format!(
            "the rules drew this game here ({}); searching on as asked",
            reason
        );
        out(&event_text(&Event::Note(&note), req.format, &setting, g).join("\n"));
    }
    if let Status::Over(o) = g.status() {
        let note = format!("game over ({})", o.reason);
        out(&event_text(&Event::Note(&note), req.format, &setting, g).join("\n"));
    }
    let last: Mutex<Option<Seen>> = Mutex::new(None);
    let candidates: Mutex<Vec<Candidate>> = Mutex::new(Vec::new());
    // MCTS hands a decided position to alpha-beta: from its note on, the depths, nodes and
    // lines are alpha-beta's, and the output says so.
    let handed = AtomicBool::new(false);
    let setting_now = || {
        if handed.load(Ordering::Relaxed) {
            Setting {
                algorithm: Chosen::AlphaBeta,
                ..setting
            }
        } else {
            setting
        }
    };
    let events = |e: Event| {
        if matches!(e, Event::Note(n) if n == crate::search::mcts::HANDED_TO_ALPHABETA) {
            handed.store(true, Ordering::Relaxed);
        }
        for l in event_text(&e, req.format, &setting_now(), g) {
            out(&l);
        }
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        match e {
            Event::Report(r) => *last = Some(Seen::Scored(r.clone())),
            Event::Unscored { report, mv } => {
                *last = Some(Seen::Unscored(report.clone(), mv.to_string()))
            }
            Event::Candidate {
                mv,
                visits,
                availability,
                reward,
            } => candidates
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(Candidate {
                    mv: mv.to_string(),
                    visits,
                    availability,
                    reward,
                }),
            Event::Note(_) | Event::Problem(_) => {}
        }
    };
    // The table alpha-beta and Best-Reply Search use, allocated and mapped before the clock
    // starts, as the protocol readies it on `isready`: mapping 64 MiB on the search's clock
    // took more than a 50 ms search.
    let memory = crate::search::Memory::default();
    if matches!(setting.algorithm, Chosen::AlphaBeta | Chosen::Brs) {
        crate::search::tt::prepare(&memory, req.params.hash_mb, req.params.threads);
    }
    let stop = AtomicBool::new(false);
    let control = crate::search::Control {
        memory: Some(&memory),
        ..crate::search::Control::new(&stop)
    };
    let result = g.search_controlled(&req.params, &req.limits, control, &events);
    let seen = last.into_inner().unwrap_or_else(|e| e.into_inner());
    let candidates = candidates.into_inner().unwrap_or_else(|e| e.into_inner());
    let best = result.best;
    if let (Some(f), Some(path)) = (svg_file.as_mut(), &req.svg) {
        let opts = DrawOptions {
            arrow: best
                .as_deref()
                .and_then(|b| g.move_cells(b).ok())
                .unwrap_or_default(),
            highlight: req.highlight.clone(),
            ..Default::default()
        };
        f.write_all(g.svg(&opts).as_bytes())
            .and_then(|()| f.flush())
            .map_err(|e| format!("--svg: cannot write '{}': {}", path, e))?;
    }
    if human {
        for l in summary::lines(
            &setting_now(),
            g,
            best.as_deref(),
            seen.as_ref(),
            req.svg.as_deref(),
        ) {
            out(&l);
        }
        out(&format!("bestmove {}", best.as_deref().unwrap_or("0000")));
    } else {
        let fin = json::Final {
            is_final: true,
            is_during_search: false,
            game: g.name(),
            options: g
                .options()
                .iter()
                .map(|(n, v)| (n, v.to_string()))
                .collect(),
            position: g.to_text(),
            bestmove: best,
            game_over: match g.status() {
                Status::Over(o) => Some(o.reason.to_string()),
                Status::Ongoing => None,
            },
            move_infos: seen
                .as_ref()
                .map(|s| json::move_infos(s, setting.players))
                .unwrap_or_default(),
            root_info: json::root_info(seen.as_ref(), &setting_now(), g),
            candidates: json::candidates(&candidates),
            svg: req.svg.clone(),
        };
        out(&json::to_line(&fin));
    }
    Ok(())
}

/// The output lines of one search event: the protocol's `info` lines for a person, a JSON object
/// for a program (ISMCTS candidates are gathered into the final object instead).
fn event_text(e: &Event, format: Format, s: &Setting, g: &dyn AnyGame) -> Vec<String> {
    if format == Format::Human {
        let mut lines = protocol::info::lines(e);
        if let Event::Report(r) = e {
            let shares = r.lines.first().and_then(|l| g.shares(&l.pv));
            lines.extend(shares.map(|s| protocol::info::shares_line(&s)));
        }
        return lines;
    }
    let update = |seen: Seen| {
        json::to_line(&json::Update {
            is_during_search: true,
            move_infos: json::move_infos(&seen, s.players),
            root_info: json::root_info(Some(&seen), s, g),
        })
    };
    match *e {
        Event::Report(r) => vec![update(Seen::Scored(r.clone()))],
        Event::Unscored { report, mv } => vec![update(Seen::Unscored(report.clone(), mv.into()))],
        Event::Note(t) => vec![json::to_line(&json::Remark::Note(t))],
        Event::Problem(t) => vec![json::to_line(&json::Remark::Warning(t))],
        Event::Candidate { .. } => Vec::new(),
    }
}
