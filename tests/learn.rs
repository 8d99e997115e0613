//! The learned evaluation's pieces: input features, training on a small fixture, the net
//! file through `quatre train`.

use quatre::game::{rng_from_seed, Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::learn::format::{GameData, Position, Score};
use quatre::learn::net::Net;
use quatre::learn::train::{train, Dataset, TrainConfig};
use rand::Rng;

/// Random games on one board, scored by the hand evaluation, each game's result decided by the
/// material on the board at its end: a fixture where the evaluation predicts the result.
fn fixture(games: usize, seed: u64) -> Vec<GameData> {
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    (0..games)
        .map(|index| {
            let mut g = Hyperchess::start(&opts).unwrap();
            let mut positions = Vec::new();
            let plies = rng.random_range(20..80);
            for ply in 0..plies {
                if g.status().is_over() {
                    break;
                }
                let Some(m) = g.random_move(&mut rng, &mut buf) else {
                    break;
                };
                positions.push(Position {
                    ply,
                    seat: g.to_move(),
                    score: Score::Cp(g.evaluate(g.to_move())),
                    mv: g.format_move(m),
                    text: g.to_text(),
                });
                g.play(m);
            }
            let e = g.evaluate(0);
            let r = if e > 150 {
                1.0
            } else if e < -150 {
                0.0
            } else {
                0.5
            };
            GameData {
                game: "hyperchess".into(),
                options: opts
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                seed,
                index,
                nodes: 1,
                start: "random:0".into(),
                result: vec![r, 1.0 - r],
                plies: positions.len(),
                reason: "fixture".into(),
                positions,
            }
        })
        .collect()
}

#[test]
fn hyperchess_features_name_every_piece_and_the_side_to_move() {
    for boards in ["1x1", "3x3"] {
        let opts = RuleOptions::of::<Hyperchess>().with("Boards", boards);
        let mut g = Hyperchess::start(&opts).unwrap();
        let mut rng = rng_from_seed(3);
        let mut buf = Vec::new();
        for _ in 0..60 {
            let mut f = Vec::new();
            g.features(&mut f);
            assert!(f.iter().all(|&x| (x as usize) < g.feature_count()));
            let text = g.to_text();
            let placement = text.split(' ').next().unwrap();
            let pieces = placement
                .chars()
                .filter(|c| c.is_ascii_alphabetic())
                .count();
            let black = (g.to_move() == 1) as usize;
            // Three features a piece (on the grid, on its board, anywhere), one for Black to move.
            assert_eq!(f.len(), 3 * pieces + black, "{}", g.to_text());
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            g.play(m);
        }
        assert_eq!(
            g.feature_set(),
            Some(format!("hyperchess-{}/2", boards)),
            "the set names the grid"
        );
    }
}

#[test]
fn training_lowers_the_loss_below_a_constant_on_a_small_fixture() {
    let data = fixture(300, 11);
    let mut ds = Dataset::default();
    ds.add::<Hyperchess>(&data, true).unwrap();
    assert!(ds.len() > 3000, "{} positions", ds.len());
    let cfg = TrainConfig {
        hidden: 16,
        epochs: 6,
        batch: 256,
        lr: 0.01,
        lambda: 0.0,
        seed: 5,
    };
    let tr = train(&ds, &cfg, |_| {});
    let first = tr.curve[0];
    let last = *tr.curve.last().unwrap();
    assert!(last.train < first.train, "{:?}", tr.curve);
    assert!(
        last.val < 0.7 * tr.constant_val,
        "held-out loss {} against a constant's {}",
        last.val,
        tr.constant_val
    );
    // The quantized net gives the float net's outputs.
    let net = tr
        .net
        .quantize("hyperchess", &ds.feature_set, tr.scale, String::new());
    let net = Net::from_bytes(&net.to_bytes()).unwrap();
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let mut worst = 0f32;
    for gd in data.iter().take(20) {
        for p in &gd.positions {
            let g = Hyperchess::from_text(&p.text, &opts).unwrap();
            let mut f = Vec::new();
            g.features(&mut f);
            let mut out = [0.0];
            tr.net.forward(&f, &mut out);
            worst = worst.max((out[0] - net.logit(&f, 0)).abs());
        }
    }
    assert!(worst < 0.05, "quantized and float nets differ by {}", worst);
}

#[test]
fn quatre_train_writes_a_net_and_refuses_bad_data() {
    let dir = std::env::temp_dir().join(format!("quatre-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.txt");
    let mut text = String::new();
    for g in fixture(40, 2) {
        g.write(&mut text);
    }
    std::fs::write(&data, &text).unwrap();
    let net = dir.join("n.net");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n = Net::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(n.header.features, "hyperchess-1x1/2");
    assert_eq!(n.hidden(), 8);
    // Another game's name, a damaged file: an error, no net.
    let out = run(&[
        "train",
        "--game",
        "tesseract",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.join("x.net").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("hyperchess"));
    std::fs::write(&data, &text[..text.len() / 2]).unwrap();
    let out = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.join("y.net").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(!dir.join("y.net").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `Eval net` with `EvalFile`, as a GUI sends them: the searches evaluate with the net; a
/// missing file and a net of another rule set get one error line each, and every `go` still
/// answers.
#[test]
fn the_engine_searches_with_a_net_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("quatre-evalnet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = fixture(60, 4);
    let mut ds = Dataset::default();
    ds.add::<Hyperchess>(&data, true).unwrap();
    let tr = train(
        &ds,
        &TrainConfig {
            hidden: 8,
            epochs: 2,
            ..TrainConfig::default()
        },
        |_| {},
    );
    let path = dir.join("n.net");
    std::fs::write(
        &path,
        tr.net
            .quantize("hyperchess", &ds.feature_set, tr.scale, String::new())
            .to_bytes(),
    )
    .unwrap();
    let session = |eval: &str| {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quatre"))
            .args(["--game", "hyperchess"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let script = format!(
            "setoption name Boards value 1x1\nsetoption name Threads value 1\n\
             setoption name EvalFile value {}\nsetoption name Eval value {}\n\
             position startpos moves e2e4 d7d5\ngo depth 2\n\
             setoption name EvalFile value {}\ngo depth 1\n\
             setoption name Boards value 2x1\nposition startpos\ngo depth 1\n",
            path.display(),
            eval,
            dir.join("missing.net").display()
        );
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let net = session("net");
    let hand = session("hand");
    assert_eq!(net.matches("bestmove ").count(), 3, "{}", net);
    assert_eq!(net.matches("EvalFile: cannot read").count(), 1, "{}", net);
    assert_eq!(
        net.matches("Eval net: the net is for hyperchess (hyperchess-1x1/2), not for hyperchess (hyperchess-2x1/2)")
            .count(),
        1,
        "{}",
        net
    );
    assert!(!hand.contains("Eval net"), "{}", hand);
    // The first search's scores are the net's, not the hand evaluation's.
    let scores = |s: &str| -> Vec<String> {
        s.lines()
            .take_while(|l| !l.starts_with("bestmove"))
            .filter_map(|l| l.split(" score ").nth(1))
            .map(|r| r.split(" nodes").next().unwrap().to_string())
            .collect()
    };
    assert!(!scores(&net).is_empty());
    assert_ne!(
        scores(&net),
        scores(&hand),
        "net:\n{}\nhand:\n{}",
        net,
        hand
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
