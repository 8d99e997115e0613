//! Fits the weights of hyperchess's one-board evaluation (`src/games/hyperchess/chess_eval.rs`)
//! to scored positions, and writes them as `chess_weights.rs` (the method:
//! `src/games/hyperchess/chess_fit.rs`; the data and the command that made the shipped weights:
//! docs/learning.md, "The 1x1 hand evaluation").
//!
//! ```sh
//! cargo run --release --example tune_chess_eval -- [--lambda L] [--epochs E] [--scale S] \
//!     [--l2 X] [--min-count N] [--out src/games/hyperchess/chess_weights.rs] DATA…
//! ```

use quatre::games::hyperchess::chess_fit::{self, FitData, FitOptions};

fn main() {
    if let Err(e) = run() {
        eprintln!("tune_chess_eval: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut o = FitOptions::default();
    let mut out = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    let number = |name: &str, v: Option<String>| -> Result<f64, String> {
        v.ok_or(format!("{name} needs a value"))?
            .parse()
            .map_err(|e| format!("{name}: {e}"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--lambda" => o.lambda = number(&a, args.next())?,
            "--epochs" => o.epochs = number(&a, args.next())? as usize,
            "--scale" => o.scale = number(&a, args.next())?,
            "--l2" => o.l2 = number(&a, args.next())?,
            "--min-count" => o.min_count = number(&a, args.next())? as usize,
            "--out" => out = Some(args.next().ok_or("--out needs a path")?),
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        return Err("no data files given".into());
    }
    let mut data = FitData::default();
    for f in &files {
        let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
        data.read(std::io::BufReader::new(file), f)?;
    }
    let (games, train, held) = data.counts();
    eprintln!("{games} games, {train} positions kept for training, {held} held out");
    let (constant, build) = data.baselines(&o);
    eprintln!("held-out loss: a constant {constant:.5}, the build's evaluation {build:.5}");
    let w = chess_fit::fit(&data, &o, &mut |line| eprintln!("{line}"));
    if let Some(path) = out {
        let how = vec![
            format!(
                "--lambda {} --epochs {} --scale {} --l2 {} --min-count {}",
                o.lambda, o.epochs, o.scale, o.l2, o.min_count
            ),
            format!(
                "on {} data files: {games} games, {train} training positions, held-out loss {:.5}.",
                files.len(),
                data.held_out_loss(&o, &w)
            ),
        ];
        std::fs::write(&path, chess_fit::weights_source(&w, &how))
            .map_err(|e| format!("{path}: {e}"))?;
        eprintln!("wrote {path}");
    }
    Ok(())
}
