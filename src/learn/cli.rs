//! `quatre train`: reads self-play files, trains a net, writes it (docs/learning.md).

use super::format::{self, GameData, Origin};
use super::net::{Net, BASE_HAND};
use super::selfplay::partial_path;
use super::train::{curve_svg, train, Dataset, Others, TrainConfig};
use crate::game::Game;
use std::path::PathBuf;
use std::time::Instant;

/// `quatre train` arguments (`--game` is the global flag: optional, the data names its game).
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Self-play files (`quatre selfplay --out`), all of one game and rule set.
    #[arg(long = "data", value_name = "FILE", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the net.
    #[arg(long, value_name = "NET")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=10_000))]
    pub epochs: u64,
    /// Hidden units.
    #[arg(long, allow_negative_numbers = true, default_value_t = 64, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=4096))]
    pub hidden: u64,
    /// Weight of the game's result in the target (0 to 1; the rest is the search's score).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.5)]
    pub lambda: f32,
    /// Adam's learning rate at the start (it falls linearly to a tenth).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0003)]
    pub lr: f32,
    /// Positions per batch.
    #[arg(long, allow_negative_numbers = true, default_value_t = 256, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=1_000_000))]
    pub batch: u64,
    /// Seed of the initial weights and of the shuffles.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    /// Train on every position, also those in check or whose searched move was a capture or
    /// a promotion (left out by default: a static evaluation cannot see what they win).
    #[arg(long)]
    pub all_positions: bool,
    /// Learn a correction of the hand evaluation (the engine adds the net's output to it)
    /// rather than the whole evaluation: training starts from the hand evaluation's loss.
    #[arg(long)]
    pub residual: bool,
    /// Decoupled weight decay of the input weights (0: none; try 0.1 to 10 on small data).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// More than two seats: what the outputs of the seats not to move learn (the data holds
    /// only the mover's search score): `result`, their game result alone at weight λ; `hand`,
    /// λ·result + (1 − λ)·σ(hand evaluation / K_hand); `next`, the search score of the seat's
    /// own next turn in the game (within two plies) blended with the result as the mover's is,
    /// else the result alone at weight λ.
    #[arg(long, default_value = "result", value_parser = ["result", "hand", "next"])]
    pub others: String,
    /// Draw the loss curve into this SVG file.
    #[arg(long, value_name = "SVG")]
    pub curve: Option<PathBuf>,
    /// Start from this net (a file `quatre train` wrote, e.g. the shipped one) rather than
    /// from random weights: the next generation of a net, trained on new games. It must be
    /// of the data's game and feature set, with `--hidden` units or fewer (a smaller net is
    /// widened: its units first, the new ones adding nothing until trained) and, with
    /// `--residual`, a correction of the hand evaluation (and without it, not).
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
}

/// Runs `quatre train`, printing progress with `say`.
pub fn run(game: Option<&str>, a: &TrainArgs, say: &dyn Fn(&str)) -> Result<(), String> {
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err(format!(
            "--lambda must be between 0 and 1, not {}",
            a.lambda
        ));
    }
    if !(a.weight_decay >= 0.0 && a.weight_decay < 1000.0) {
        return Err(format!(
            "--weight-decay must be at least 0 and below 1000, not {}",
            a.weight_decay
        ));
    }
    if !(a.lr > 0.0 && a.lr < 1.0) {
        return Err(format!("--lr must be above 0 and below 1, not {}", a.lr));
    }
    check_output("--out", &a.out, &a.data)?;
    if let Some(c) = &a.curve {
        if c == &a.out {
            return Err(format!(
                "--curve and --out name the same file, {}",
                c.display()
            ));
        }
        check_output("--curve", c, &a.data)?;
    }
    let t0 = Instant::now();
    let data = read_games(&a.data, game)?;
    use crate::games::{
        hyperchess::Hyperchess, rithmomachia::Rithmomachia, tesseract::Tesseract,
        tesseris::Tesseris, threechess::Threechess,
    };
    match data.name.as_str() {
        "hyperchess" => run_game::<Hyperchess>(&data, a, t0, say),
        "rithmomachia" => run_game::<Rithmomachia>(&data, a, t0, say),
        "tesseract" => run_game::<Tesseract>(&data, a, t0, say),
        "tesseris" => run_game::<Tesseris>(&data, a, t0, say),
        "threechess" => run_game::<Threechess>(&data, a, t0, say),
        other => Err(format!("no input features for {}", other)),
    }
}

/// The games of the self-play files `data`, each with where it was read, and the name of
/// their game (which `game`, when given, must be; every game must be of it).
pub(super) fn read_games(data: &[PathBuf], game: Option<&str>) -> Result<Games, String> {
    let mut games: Vec<GameData> = Vec::new();
    let mut origins: Vec<Origin> = Vec::new();
    for f in data {
        for (g, o) in format::read_file_at(f)? {
            games.push(g);
            origins.push(o);
        }
    }
    let name = match (game, games.first()) {
        (_, None) => return Err("the data holds no game".into()),
        (Some(want), Some(g)) if want != g.game => {
            return Err(format!(
                "--game {} but the data is of {} ({})",
                want,
                g.game,
                origins[0].game()
            ))
        }
        (_, Some(g)) => g.game.clone(),
    };
    format::check_each_once(games.iter().zip(&origins))?;
    if let Some(i) = games.iter().position(|g| g.game != name) {
        return Err(format!(
            "{}: a game of {} among games of {} ({}): train on one game at a time",
            origins[i].game(),
            games[i].game,
            name,
            origins[0].game()
        ));
    }
    Ok(Games {
        games,
        origins,
        name,
    })
}

/// The games a training run reads: each with where it was read (its file and line), and the
/// name of their game.
pub(super) struct Games {
    pub games: Vec<GameData>,
    pub origins: Vec<Origin>,
    pub name: String,
}

fn run_game<G: Game>(
    data: &Games,
    a: &TrainArgs,
    t0: Instant,
    say: &dyn Fn(&str),
) -> Result<(), String> {
    let games = &data.games;
    let mut ds = Dataset::default();
    ds.add_read::<G>(games, &data.origins, !a.all_positions)?;
    if ds.is_empty() {
        return Err("no position to train on (every one was left out)".into());
    }
    say(&format!(
        "{} games, {} positions kept ({} left out), feature set {} ({} inputs), read in {:.1} s",
        games.len(),
        ds.len(),
        ds.skipped,
        ds.feature_set,
        ds.inputs,
        t0.elapsed().as_secs_f64()
    ));
    let init = match &a.init {
        Some(path) => Some(initial_net(path, G::NAME, &ds, a)?),
        None => None,
    };
    let cfg = TrainConfig {
        init,
        hidden: a.hidden as usize,
        epochs: a.epochs as usize,
        batch: a.batch as usize,
        lr: a.lr,
        lambda: a.lambda,
        seed: a.seed,
        residual: a.residual,
        weight_decay: a.weight_decay,
        others: match a.others.as_str() {
            "hand" => Others::Hand,
            "next" => Others::Next,
            _ => Others::Result,
        },
    };
    // With no game held out there is no held-out loss: said before training, and `-` (not 0)
    // wherever one would be.
    let held_out = ds.held_out.iter().any(|&h| h);
    if !held_out {
        say(&no_game_held_out(games.len(), "net"));
    }
    let t1 = Instant::now();
    let tr = train(&ds, &cfg, |e| {
        say(&format!(
            "epoch {:>3}  training loss {:.5}  held-out loss {}  ({:.1} s)",
            e.epoch,
            e.train,
            if held_out {
                format!("{:.5}", e.val)
            } else {
                "-".to_string()
            },
            t1.elapsed().as_secs_f64()
        ))
    });
    let last = tr.curve[tr.best_epoch - 1].val;
    if !tr.scales_fitted {
        say(&format!(
            "warning: the games' results do not follow the scores (every game drawn, or too few games): no score scale fits them, and the protocol's 1/(1+10^(-cp/400)) stands in (K {:.1}); for a net that learns from results, play more games or decisive ones (`selfplay --adjudicate`)",
            crate::learn::train::DEFAULT_SCALE
        ));
    }
    if tr.val_positions == 0 {
        say(&format!(
            "no game held out: the last epoch's net, its held-out loss not known; score scale K {:.1} (hand {:.1})",
            tr.scale, tr.hand_scale
        ));
    } else {
        say(&format!(
            "held-out positions {}: net {:.5} (epoch {}, the best; {:.5} as the integers written), hand evaluation {:.5}, a constant {:.5}; score scale K {:.1} (hand {:.1})",
            tr.val_positions, last, tr.best_epoch, tr.quantized_val, tr.hand_val, tr.constant_val, tr.scale, tr.hand_scale
        ));
    }
    if let (Some(v), Some(path)) = (tr.init_val, &a.init) {
        say(&format!(
            "held out, before training: {} {:.5}",
            path.display(),
            v
        ));
    }
    if let Some(v) = tr.seats_val {
        say(&format!(
            "held out, the same whatever --others: the mover's output on its target: net {:.5}, hand evaluation {:.5}; the other seats' outputs on their results: net {:.5}, hand evaluation {:.5}",
            v.mover, v.mover_hand, v.others, v.others_hand
        ));
    }
    let held = if tr.val_positions == 0 {
        "no game held out".to_string()
    } else {
        format!(
            "held-out loss {:.5} ({:.5} as integers; hand {:.5})",
            last, tr.quantized_val, tr.hand_val
        )
    };
    let net: Net = tr.net.quantize(G::NAME, &ds.feature_set, tr.scale, format!(
            "{} positions of {} games, epoch {} of {}, hidden {}, lambda {}, lr {}, batch {}, weight decay {}, seed {}{}; {}",
            tr.train_positions, games.len(), tr.best_epoch, a.epochs, a.hidden, a.lambda, a.lr, a.batch, a.weight_decay, a.seed,
            if tr.residual { ", residual on the hand evaluation" } else { "" }, held
        ) + &match (&a.init, tr.init_val) {
            (Some(p), Some(v)) => format!("; started from {} (held-out loss {:.5})", p.display(), v),
            (Some(p), None) => format!("; started from {}", p.display()),
            _ => String::new(),
        } + &if ds.outputs > 1 { format!("; an output per seat, the others' targets: {}", a.others) } else { String::new() });
    let net = if tr.residual {
        net.with_base(BASE_HAND)
    } else {
        net
    };
    write_atomically(&a.out, &net.to_bytes())?;
    say(&format!(
        "wrote {} ({} bytes) in {:.1} s",
        a.out.display(),
        net.to_bytes().len(),
        t0.elapsed().as_secs_f64()
    ));
    if let Some(c) = &a.curve {
        let title = format!(
            "{}: {} positions, hidden {}",
            ds.feature_set, tr.train_positions, a.hidden
        );
        write_atomically(c, curve_svg(&tr, &title).as_bytes())?;
        say(&format!("wrote the loss curve to {}", c.display()));
    }
    Ok(())
}

/// The warning, before training, that none of the `games` was held out (one in twenty is,
/// chosen by its seed and index): there will be no held-out loss, and the last epoch's `what`
/// (net, policy) is written.
pub(super) fn no_game_held_out(games: usize, what: &str) -> String {
    format!(
        "warning: no game held out (one in twenty is, chosen by its seed and index; {} gave none): the last epoch's {} is written, and its loss on unseen games is not known",
        if games == 1 {
            "the one game".to_string()
        } else {
            format!("these {} games", games)
        },
        what
    )
}

/// `--init`: the net at `path` as floats, with its score scale, once it is known to fit the
/// data (`game`, its feature set, inputs and outputs) and the arguments (at most `--hidden`
/// units, `--residual`).
fn initial_net(
    path: &std::path::Path,
    game: &str,
    ds: &Dataset,
    a: &TrainArgs,
) -> Result<(super::net::FloatNet, f32), String> {
    let net = super::net::load(&path.to_string_lossy()).map_err(|e| format!("--init {}", e))?;
    let h = &net.header;
    let file = (h.game.as_str(), h.features.as_str(), h.inputs as usize);
    let data = (game, ds.feature_set.as_str(), ds.inputs);
    // Its own shape against the data's outputs and the arguments.
    let shape = if h.outputs as usize != ds.outputs.max(1) {
        Some(format!(
            "{} outputs, the data needs {}",
            h.outputs,
            ds.outputs.max(1)
        ))
    } else if h.hidden as u64 > a.hidden {
        Some(format!(
            "{} hidden units: give --hidden {} or more",
            h.hidden, h.hidden
        ))
    } else if net.is_residual() != a.residual {
        Some(if a.residual {
            "a whole evaluation, not a correction: leave out --residual".to_string()
        } else {
            "a correction of the hand evaluation: give --residual".to_string()
        })
    } else {
        None
    };
    let why = misfit("a net", "feature set", file, data).or(shape);
    match why {
        Some(w) => Err(format!("--init {}: {}", path.display(), w)),
        None => Ok((net.to_float(), h.eval_scale)),
    }
}

/// Why a learned file (`what`: "a net", "a policy") of a game, reading a feature set (`set`:
/// its kind) with so many inputs, does not fit data of a game, feature set and inputs; None
/// when it does (`--init`'s checks, before its own).
pub(super) fn misfit(
    what: &str,
    set: &str,
    (game, features, inputs): (&str, &str, usize),
    (data_game, data_features, data_inputs): (&str, &str, usize),
) -> Option<String> {
    if game != data_game {
        Some(format!("{} of {}, not {}", what, game, data_game))
    } else if features != data_features || inputs != data_inputs {
        Some(format!(
            "{} {} ({} inputs), the data's is {} ({} inputs)",
            set, features, inputs, data_features, data_inputs
        ))
    } else {
        None
    }
}

/// Writes `bytes` to a temporary file beside `path`, `path` with `.partial` added (as
/// `selfplay` names its own: `x.net` and `x.pol` in one folder do not share one), then renames
/// it: a killed run leaves no half-written net.
pub(super) fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = partial_path(path);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {}", tmp.display(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {}", path.display(), e))
}

/// Refuses, before any work, an output (`flag`'s `path`) that could not be written at the
/// end: a folder, or a file in a folder that does not exist or cannot be written; or one of
/// the `data` files, which the output would replace. The temporary file [`write_atomically`]
/// writes is created (and removed if it was not there).
pub(super) fn check_output(
    flag: &str,
    path: &std::path::Path,
    data: &[PathBuf],
) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{} {}: a folder, not a file", flag, path.display()));
    }
    let real = std::fs::canonicalize(path).ok();
    let same = |d: &PathBuf| d == path || real.is_some() && std::fs::canonicalize(d).ok() == real;
    if data.iter().any(same) {
        return Err(format!(
            "{} {}: a --data file, which it would replace",
            flag,
            path.display()
        ));
    }
    let tmp = partial_path(path);
    let existed = tmp.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&tmp)
        .map_err(|e| {
            format!(
                "{} {}: cannot write {}: {}",
                flag,
                path.display(),
                tmp.display(),
                e
            )
        })?;
    if !existed {
        let _ = std::fs::remove_file(&tmp);
    }
    Ok(())
}
