//! The learned evaluation's pieces: input features, training on a small fixture, the net
//! file through `quatre train`.

use quatre::game::{rng_from_seed, Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::learn::format::{GameData, Position, Score};
use quatre::learn::net::{Net, BASE_HAND};
use quatre::learn::train::{train, Dataset, TrainConfig, DEFAULT_SCALE, MAX_SCALE};
use rand::Rng;

mod common;

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

use common::script_output as engine_output;
use common::{first_scores, with_field};

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
            // Three features a piece (on its board, which board, anywhere), one for Black to move.
            assert_eq!(f.len(), 3 * pieces + black, "{}", g.to_text());
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                break;
            };
            g.play(m);
        }
        assert_eq!(
            g.feature_set(),
            Some(format!("hyperchess-{}/3", boards)),
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
        ..TrainConfig::default()
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

/// Every game drawn: the results fit no score scale (the fit would run to its bound, 100,000,
/// and the net's outputs to scores of tens of thousands), so the protocol's scale stands in
/// and the net's scores stay those of a position, not of a mate.
#[test]
fn drawn_games_fit_no_scale_and_the_protocols_stands_in() {
    let mut data = fixture(120, 3);
    for g in &mut data {
        g.result = vec![0.5, 0.5];
    }
    let mut ds = Dataset::default();
    ds.add::<Hyperchess>(&data, true).unwrap();
    let cfg = TrainConfig {
        hidden: 8,
        epochs: 2,
        ..TrainConfig::default()
    };
    let tr = train(&ds, &cfg, |_| {});
    assert!(!tr.scales_fitted);
    assert_eq!(tr.scale, DEFAULT_SCALE);
    assert_eq!(tr.hand_scale, DEFAULT_SCALE);
    assert!((DEFAULT_SCALE - 173.72).abs() < 0.01, "{}", DEFAULT_SCALE);
    let net = tr
        .net
        .quantize("hyperchess", &ds.feature_set, tr.scale, String::new());
    let net = Net::from_bytes(&net.to_bytes()).unwrap();
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let start = Hyperchess::start(&opts).unwrap();
    let cp = net.evaluate(&start, 0);
    assert!(cp.abs() < 1000, "{} at the start", cp);
    // Games whose results follow the scores fit their own scale.
    let tr = train(
        &{
            let mut ds = Dataset::default();
            ds.add::<Hyperchess>(&fixture(120, 3), true).unwrap();
            ds
        },
        &cfg,
        |_| {},
    );
    assert!(tr.scales_fitted);
    assert!(
        tr.scale < MAX_SCALE && tr.scale != DEFAULT_SCALE,
        "{}",
        tr.scale
    );
}

/// A warm start (`--init`) begins where the net it starts from ended: the same held-out loss
/// on the same data, whatever the data's score scale, and no worse after an epoch at a small
/// learning rate.
#[test]
fn training_from_a_net_starts_at_its_loss() {
    let data = fixture(300, 11);
    let mut ds = Dataset::default();
    ds.add::<Hyperchess>(&data, true).unwrap();
    for residual in [false, true] {
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 4,
            lr: 0.003,
            lambda: 0.5,
            residual,
            ..TrainConfig::default()
        };
        let first = train(&ds, &cfg, |_| {});
        let best = first.curve[first.best_epoch - 1].val;
        let net = first
            .net
            .quantize("hyperchess", &ds.feature_set, first.scale, String::new());
        let start_of = |init: quatre::learn::net::FloatNet, scale: f32| {
            let cfg = TrainConfig {
                init: Some((init, scale)),
                epochs: 1,
                lr: 0.0003,
                ..cfg.clone()
            };
            let tr = train(&ds, &cfg, |_| {});
            (tr.init_val.unwrap(), tr)
        };
        let (start, next) = start_of(net.to_float(), first.scale);
        assert!(
            (start - best).abs() < 0.01 * best,
            "residual {}: started at {} where the net ended at {}",
            residual,
            start,
            best
        );
        // A net whose logits were worth half as many engine units starts as that net with
        // its output weights halved: the same scores.
        let mut halved = net.to_float();
        halved
            .w2
            .iter_mut()
            .chain(halved.b2.iter_mut())
            .for_each(|w| *w *= 0.5);
        let (a, _) = start_of(halved, first.scale);
        let (b, _) = start_of(net.to_float(), first.scale * 0.5);
        assert!((a - b).abs() < 1e-6 * a, "{} against {}", a, b);
        assert!((a - start).abs() > 1e-4 * start, "halving changed nothing");
        assert!(
            next.curve[0].val < best * 1.01,
            "{:?} from {}",
            next.curve,
            best
        );
    }
}

#[test]
fn a_residual_net_corrects_the_hand_evaluation() {
    let data = fixture(300, 11);
    let mut ds = Dataset::default();
    ds.add::<Hyperchess>(&data, true).unwrap();
    let cfg = TrainConfig {
        hidden: 16,
        epochs: 4,
        lr: 0.001,
        lambda: 0.5,
        residual: true,
        ..TrainConfig::default()
    };
    let tr = train(&ds, &cfg, |_| {});
    // It starts from the hand evaluation (a whole net starts from nothing and does worse):
    // its best held-out loss is the hand evaluation's or lower.
    let best = tr.curve[tr.best_epoch - 1].val;
    assert!(
        best <= tr.hand_val * 1.02,
        "residual {} against the hand evaluation's {}",
        best,
        tr.hand_val
    );
    assert_eq!(tr.scale, tr.hand_scale);
    let net = tr
        .net
        .quantize("hyperchess", &ds.feature_set, tr.scale, String::new())
        .with_base(BASE_HAND);
    let net = Net::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(net.header.base, BASE_HAND);
    // The engine's score is the hand evaluation plus the net's logit times the hand scale.
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    for gd in data.iter().take(10) {
        for p in &gd.positions {
            let g = Hyperchess::from_text(&p.text, &opts).unwrap();
            let mut f = Vec::new();
            g.features(&mut f);
            let want = g.evaluate(0) as f32 + net.logit(&f, 0) * tr.hand_scale;
            for seat in 0..2 {
                let sign = if seat == 0 { 1.0 } else { -1.0 };
                assert!((net.evaluate(&g, seat) as f32 - sign * want).abs() <= 1.0);
            }
        }
    }
    // With nothing learned (output weights zero), it is the hand evaluation exactly.
    let mut zero = tr.net.clone();
    zero.w2.iter_mut().for_each(|w| *w = 0.0);
    zero.b2[0] = 0.0;
    let zero = zero
        .quantize("hyperchess", &ds.feature_set, 1.0, String::new())
        .with_base(BASE_HAND);
    let g = Hyperchess::start(&opts).unwrap();
    assert_eq!(zero.evaluate(&g, 0), g.evaluate(0));
}

#[test]
fn version_1_net_files_still_load_as_whole_nets() {
    // Versions 1 and 2 had one hidden scale, QA.
    let net = quatre::learn::net::FloatNet::new(5, 2, 1, 1.0, 1).quantize_with(
        quatre::learn::net::QA,
        "hyperchess",
        "hyperchess-1x1/2",
        100.0,
        String::new(),
    );
    // A version-1 file: the same layout, version 1, a header without `base`.
    let mut v2 = net.to_bytes();
    let hlen = u32::from_le_bytes(v2[12..16].try_into().unwrap()) as usize;
    let header = String::from_utf8(v2[16..16 + hlen].to_vec()).unwrap();
    let old = header.replace(",\"base\":\"\"", "");
    assert_ne!(old, header, "the header names its base: {}", header);
    let mut v1 = b"QUATRNET".to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&(old.len() as u32).to_le_bytes());
    v1.extend_from_slice(old.as_bytes());
    v2.truncate(v2.len() - 8);
    v1.extend_from_slice(&v2[16 + hlen..]);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &v1 {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    v1.extend_from_slice(&h.to_le_bytes());
    let back = Net::from_bytes(&v1).unwrap();
    assert_eq!(back.header.base, "");
    assert_eq!(back, net);
    // A version this build does not know is refused with what it reads.
    let mut v9 = v1.clone();
    v9[8..12].copy_from_slice(&9u32.to_le_bytes());
    let e = Net::from_bytes(&v9).unwrap_err();
    assert!(
        e.contains("version 9") && e.contains("versions 1 to 3"),
        "{}",
        e
    );
}

/// A scratch folder named `name`, with `games` games of [`fixture`] (seed 2) written in it as
/// `d.txt`: the folder, the data file and its text.
fn fixture_file(name: &str, games: usize) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.txt");
    let mut text = String::new();
    for g in fixture(games, 2) {
        g.write(&mut text);
    }
    std::fs::write(&data, &text).unwrap();
    (dir, data, text)
}

/// The standard output of a run that must have succeeded (else its standard error is shown).
fn succeeded(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `quatre train` on `data` into `net`, 2 epochs of 8 hidden units.
fn train_small(data: &std::path::Path, net: &std::path::Path) -> std::process::Output {
    common::run_cli(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
    ])
}

#[test]
fn quatre_train_writes_a_net_and_refuses_bad_data() {
    let (dir, data, text) = fixture_file("quatre-train", 40);
    let net = dir.join("n.net");
    let run = common::run_cli;
    succeeded(&train_small(&data, &net));
    let n = Net::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(n.header.features, "hyperchess-1x1/3");
    assert_eq!(n.hidden(), 8);
    // The next generation starts from that net: it says where the held-out loss began.
    let next = dir.join("m.net");
    let init_args = |init: &str, hidden: &str, residual: bool| {
        let mut v = vec![
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            next.to_str().unwrap(),
            "--epochs",
            "1",
            "--hidden",
            hidden,
            "--init",
            init,
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        if residual {
            v.push("--residual".into());
        }
        v
    };
    let args = init_args(net.to_str().unwrap(), "8", false);
    let said = succeeded(&run(&args.iter().map(|s| s.as_str()).collect::<Vec<_>>()));
    assert!(said.contains("held out, before training"), "{}", said);
    let before = |said: &str| {
        said.lines()
            .find(|l| l.contains("held out, before training"))
            .map(|l| l.rsplit(' ').next().unwrap().to_string())
    };
    let narrow_before = before(&said);
    let m = Net::from_bytes(&std::fs::read(&next).unwrap()).unwrap();
    assert!(m.header.note.contains("started from"), "{}", m.header.note);
    std::fs::remove_file(&next).unwrap();
    // A wider net grows from it (its units first, the new ones added).
    let args = init_args(net.to_str().unwrap(), "16", false);
    let said = succeeded(&run(&args.iter().map(|s| s.as_str()).collect::<Vec<_>>()));
    assert_eq!(before(&said), narrow_before, "{}", said);
    let m = Net::from_bytes(&std::fs::read(&next).unwrap()).unwrap();
    assert_eq!(m.hidden(), 16);
    std::fs::remove_file(&next).unwrap();
    // A net of another shape, kind, game or feature set, or no net: one error, no net written.
    let shipped = |f: &str| format!("{}/nets/{}", env!("CARGO_MANIFEST_DIR"), f);
    let (tc, hc3) = (shipped("threechess.net"), shipped("hyperchess-3x3.net"));
    for (init, hidden, residual, says) in [
        (net.to_str().unwrap(), "4", false, "give --hidden 8 or more"),
        (
            tc.as_str(),
            "32",
            true,
            "a net of threechess, not hyperchess",
        ),
        (
            hc3.as_str(),
            "32",
            true,
            "feature set hyperchess-3x3/3 (1037 inputs), the data's is hyperchess-1x1/3 (925 inputs)",
        ),
        (net.to_str().unwrap(), "8", true, "leave out --residual"),
        (data.to_str().unwrap(), "8", false, "--init"),
        ("/nonexistent/n.net", "8", false, "cannot read"),
    ] {
        let args = init_args(init, hidden, residual);
        let out = run(&args.iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--init {} --hidden {}", init, hidden);
        assert!(err.contains(says), "{}: {}", says, err);
        assert!(!next.exists());
    }
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

/// Too few games for one to be held out: the run says so before training rather than print
/// a held-out loss of 0 (in each epoch's line, the net's note, the curve, the `--init` line),
/// and writes the last epoch's net; `train-policy` the same.
#[test]
fn quatre_train_says_when_no_game_is_held_out() {
    let (dir, data, _) = fixture_file("quatre-train-few", 2);
    let (net, curve) = (dir.join("n.net"), dir.join("c.svg"));
    let d = data.to_str().unwrap();
    let said = succeeded(&common::run_cli(&[
        "train",
        "--data",
        d,
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--curve",
        curve.to_str().unwrap(),
    ]));
    let warned = said.find("warning: no game held out").expect(&said);
    assert!(
        warned < said.find("epoch   1").expect(&said),
        "up front: {}",
        said
    );
    let epochs: Vec<&str> = said.lines().filter(|l| l.starts_with("epoch")).collect();
    assert_eq!(epochs.len(), 2, "{}", said);
    assert!(
        epochs.iter().all(|l| l.contains("held-out loss -  (")),
        "{}",
        said
    );
    assert!(!said.contains("0.00000"), "{}", said);
    assert!(!said.contains("held-out positions"), "{}", said);
    let n = Net::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert!(
        n.header.note.ends_with("; no game held out") && !n.header.note.contains("0.00000"),
        "{}",
        n.header.note
    );
    // The curve: the training loss alone, no held-out line drawn at 0.
    let svg = std::fs::read_to_string(&curve).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 1, "{}", svg);
    assert!(!svg.contains("stroke-dasharray"), "{}", svg);
    assert!(!svg.contains(">held-out loss<"), "{}", svg);
    assert!(svg.contains("no game held out"), "{}", svg);
    // From that net: no held-out loss before training either.
    let next = dir.join("m.net");
    let said = succeeded(&common::run_cli(&[
        "train",
        "--data",
        d,
        "--out",
        next.to_str().unwrap(),
        "--epochs",
        "1",
        "--hidden",
        "8",
        "--init",
        net.to_str().unwrap(),
    ]));
    assert!(!said.contains("before training"), "{}", said);
    assert!(!said.contains("0.00000"), "{}", said);
    let m = Net::from_bytes(&std::fs::read(&next).unwrap()).unwrap();
    assert!(
        m.header.note.contains("no game held out; started from")
            && !m.header.note.contains("0.00000"),
        "{}",
        m.header.note
    );
    // train-policy.
    let pol = dir.join("p.pol");
    let said = succeeded(&common::run_cli(&[
        "train-policy",
        "--data",
        d,
        "--out",
        pol.to_str().unwrap(),
        "--epochs",
        "2",
    ]));
    let warned = said.find("warning: no game held out").expect(&said);
    assert!(
        warned < said.find("epoch   1").expect(&said),
        "up front: {}",
        said
    );
    assert!(
        !said.contains("0.0%") && !said.contains("0.0000 "),
        "{}",
        said
    );
    assert!(!said.contains("held-out positions"), "{}", said);
    let p = quatre::learn::policy::Policy::from_bytes(&std::fs::read(&pol).unwrap()).unwrap();
    assert!(
        p.header.note.ends_with("; no game held out"),
        "{}",
        p.header.note
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With a game held out, the curve draws the held-out loss and the hand evaluation's.
#[test]
fn the_loss_curve_draws_the_held_out_losses_when_a_game_is_held_out() {
    let (dir, data, _) = fixture_file("quatre-train-curve", 40);
    let (net, curve) = (dir.join("n.net"), dir.join("c.svg"));
    succeeded(&common::run_cli(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "8",
        "--curve",
        curve.to_str().unwrap(),
    ]));
    let svg = std::fs::read_to_string(&curve).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2, "{}", svg);
    assert!(svg.contains(">held-out loss<") && svg.contains("stroke-dasharray"));
    assert!(!svg.contains("no game held out"), "{}", svg);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `quatre CMD --data DATA… --out OUT EXTRA…`, which must fail without writing OUT; its
/// stderr.
fn refused(cmd: &str, data: &[&str], out: &std::path::Path, extra: &[&str]) -> String {
    let args = [
        &[cmd, "--data"][..],
        data,
        &["--out", out.to_str().unwrap()],
        extra,
    ]
    .concat();
    failed(&common::run_cli(&args), out)
}

/// The standard error of a run that must have failed without writing `out`.
fn failed(out: &std::process::Output, net: &std::path::Path) -> String {
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!net.exists(), "no file written on an error");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Data that does not go together or does not load is refused by `train` and `train-policy`
/// with one line naming the file and the line (and the first game's, for a mix), the file
/// named once: a position that does not load, an unknown rule option, another game, another
/// seat count, another rule set, a cut file.
#[test]
fn quatre_train_names_the_file_and_line_of_bad_data() {
    let (dir, data, text) = fixture_file("quatre-train-lines", 3);
    let d = data.display().to_string();
    let (net, pol) = (dir.join("n.net"), dir.join("p.pol"));
    let both = |files: &[&std::path::Path], want: &str| {
        let mut args = vec!["--data"];
        args.extend(files.iter().map(|f| f.to_str().unwrap()));
        for (cmd, out) in [("train", &net), ("train-policy", &pol)] {
            let mut a = vec![cmd];
            a.extend(&args);
            a.extend(["--out", out.to_str().unwrap(), "--epochs", "1"]);
            let err = failed(&common::run_cli(&a), out);
            assert!(
                err.starts_with(want),
                "{}: want '{}', got {}",
                cmd,
                want,
                err
            );
            assert_eq!(err.lines().count(), 1, "{}", err);
        }
    };
    // Line 3 is the first game's second position (ply 1).
    std::fs::write(&data, with_field(&text, 3, 4, "xx")).unwrap();
    both(
        &[&data],
        &format!("error: {}: line 3 (ply 1): the position does not load: ", d),
    );
    std::fs::write(&data, with_field(&text, 1, 2, "Bogus=1x1")).unwrap();
    both(
        &[&data],
        &format!("error: {}: line 1: no rule option named 'Bogus'", d),
    );
    let second = 1
        + text
            .lines()
            .skip(1)
            .position(|l| l.starts_with("quatre-selfplay/1"))
            .unwrap()
        + 1;
    std::fs::write(&data, with_field(&text, second, 7, "result=0.4,0.3,0.3")).unwrap();
    train_refuses(
        &[&data],
        &net,
        &format!(
            "error: {}: line {}: a game of 3 seats among games of 2 ({}: line 1)",
            d, second, d
        ),
    );
    std::fs::write(&data, &text).unwrap();
    // Another game: chess for three after chess.
    let three = dir.join("three.txt");
    let mut t = String::new();
    for g in three_fixture(1, 5) {
        g.write(&mut t);
    }
    std::fs::write(&three, &t).unwrap();
    both(
        &[&data, &three],
        &format!(
            "error: {}: line 1: a game of threechess among games of hyperchess ({}: line 1)",
            three.display(),
            d
        ),
    );
    // Another rule set: hyperchess on 3x3 after 1x1 (positions of another feature set).
    let grid = dir.join("grid.txt");
    succeeded(&common::run_cli(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "20",
        "--max-plies",
        "8",
        "--seed",
        "1",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        grid.to_str().unwrap(),
    ]));
    let first_pos = format!("{}: line 2 (ply 0)", d);
    let train = refused("train", &[&d, grid.to_str().unwrap()], &net, &[]);
    assert!(
        train.starts_with(&format!("error: {}: line 2 (ply 4): a position of feature set hyperchess-3x3/3 among positions of hyperchess-1x1/3 ({})", grid.display(), first_pos)),
        "{}",
        train
    );
    let policy = refused("train-policy", &[&d, grid.to_str().unwrap()], &pol, &[]);
    assert!(
        policy.starts_with(&format!("error: {}: line 2 (ply 4): a position of move feature set hyperchess-moves-3x3/3 among positions of hyperchess-moves-1x1/3 ({})", grid.display(), first_pos)),
        "{}",
        policy
    );
    // A cut file: the file named once.
    let cut: String = text.lines().take(4).map(|l| format!("{}\n", l)).collect();
    std::fs::write(&data, cut).unwrap();
    both(&[&data], &format!("error: {}: line 1: the game has ", d));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `train` alone refused `files`, naming `want` (a mix of seat counts: `train-policy` reads
/// only the positions, not the results).
fn train_refuses(files: &[&std::path::Path], net: &std::path::Path, want: &str) {
    let mut a = vec!["train", "--data"];
    a.extend(files.iter().map(|f| f.to_str().unwrap()));
    a.extend(["--out", net.to_str().unwrap(), "--epochs", "1"]);
    let err = failed(&common::run_cli(&a), net);
    assert!(err.starts_with(want), "want '{}', got {}", want, err);
}

/// Results that are not shares of one game's points (not a number, above 1, not summing to 1)
/// are refused by `train` and `train-policy` naming the file and line, rather than trained on
/// (a NaN result made a NaN net, written with exit 0).
#[test]
fn quatre_train_refuses_results_that_are_not_shares() {
    let (dir, data, text) = fixture_file("quatre-train-results", 3);
    let net = dir.join("n.net");
    for bad in ["result=nan,nan", "result=2,0", "result=0.5,0.4"] {
        std::fs::write(&data, with_field(&text, 1, 7, bad)).unwrap();
        let err = failed(&train_small(&data, &net), &net);
        let want = format!("error: {}: line 1: result {}", data.display(), &bad[7..]);
        assert!(err.starts_with(&want), "{}: {}", bad, err);
        let pol = dir.join("p.pol");
        let err = refused("train-policy", &[data.to_str().unwrap()], &pol, &[]);
        assert!(err.starts_with(&want), "{}: {}", bad, err);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A seat column that is not the position's side to move (the score is turned to seat 0's
/// view by it: the target was flipped) and a move that does not parse or is not legal there
/// (the capture filter read it as quiet; `train-policy` left the position out without a word)
/// are refused by `train` and `train-policy`, naming the file and line.
#[test]
fn quatre_train_refuses_seats_and_moves_the_position_contradicts() {
    let (dir, data, text) = fixture_file("quatre-train-moves", 3);
    let d = data.display().to_string();
    let (net, pol) = (dir.join("n.net"), dir.join("p.pol"));
    // Line 3 is the first game's second position: ply 1, Black (p2) to move.
    assert!(
        text.lines().nth(2).unwrap().starts_with("1\t2\t"),
        "{}",
        text
    );
    for (field, value, says) in [
        (
            1,
            "1",
            "the position's seat to move is p2, the data says p1",
        ),
        (3, "ZZ9", "the move 'ZZ9' does not parse: "),
        (3, "a1a8", "the move 'a1a8' is not legal in the position"),
    ] {
        std::fs::write(&data, with_field(&text, 3, field, value)).unwrap();
        let want = format!("error: {}: line 3 (ply 1): {}", d, says);
        for (cmd, out) in [("train", &net), ("train-policy", &pol)] {
            let err = refused(cmd, &[&d], out, &["--epochs", "1"]);
            assert!(err.starts_with(&want), "{} {}: {}", cmd, value, err);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game given twice (a file twice, or a run's shard with its merged file) is refused by
/// `train` and `train-policy` as `label` refuses a record given twice (it trained on the
/// doubled data without a word); the same games with other scores (searched again, as
/// `label --data` gives them) are other games and train.
#[test]
fn quatre_train_refuses_a_game_given_twice() {
    let (dir, data, text) = fixture_file("quatre-train-twice", 3);
    let d = data.display().to_string();
    let (net, pol) = (dir.join("n.net"), dir.join("p.pol"));
    // The first game alone, as a shard of the run that `d.txt` merges.
    let second = 1 + text
        .lines()
        .skip(1)
        .position(|l| l.starts_with("quatre-selfplay/1"))
        .unwrap();
    let shard = dir.join("shard.txt");
    let first: String = text
        .lines()
        .take(second)
        .map(|l| format!("{}\n", l))
        .collect();
    std::fs::write(&shard, &first).unwrap();
    let s = shard.display().to_string();
    for (files, want) in [
        (
            [d.as_str(), d.as_str()],
            format!(
                "error: {}: line 1: game index=0 seed=2 is {} line 1 again: give each game once",
                d, d
            ),
        ),
        (
            [s.as_str(), d.as_str()],
            format!(
                "error: {}: line 1: game index=0 seed=2 is {} line 1 again: give each game once",
                d, s
            ),
        ),
    ] {
        for (cmd, out) in [("train", &net), ("train-policy", &pol)] {
            let mut a = vec![cmd, "--data"];
            a.extend(files);
            a.extend(["--out", out.to_str().unwrap(), "--epochs", "1"]);
            let err = failed(&common::run_cli(&a), out);
            assert!(err.starts_with(&want), "{} {:?}: {}", cmd, files, err);
        }
    }
    // The same games scored otherwise: not a repeat.
    let rescored = dir.join("rescored.txt");
    let other: String = text
        .lines()
        .map(|l| match l.splitn(4, '\t').collect::<Vec<_>>()[..] {
            [ply, seat, _, rest] if !l.starts_with("quatre-selfplay/") => {
                format!("{}\t{}\t17\t{}\n", ply, seat, rest)
            }
            _ => format!("{}\n", l),
        })
        .collect();
    std::fs::write(&rescored, other).unwrap();
    let said = succeeded(&common::run_cli(&[
        "train",
        "--data",
        &d,
        rescored.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "1",
        "--hidden",
        "4",
    ]));
    assert!(said.contains("6 games"), "{}", said);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output that cannot be written is refused before the data is read (it failed after the
/// whole training, `cannot write /nonexist/o.partial`), in one line; a folder as `--out` or
/// `--curve` too (it left `outdir.partial` behind). The temporary file is the output's name
/// with `.partial` added, as docs/learning.md says (it was `o.partial` for `o.net`, shared
/// by `train --out x.net` and `train-policy --out x.pol`).
#[test]
fn quatre_train_checks_its_outputs_before_reading_the_data() {
    let (dir, data, _) = fixture_file("quatre-train-outputs", 3);
    let d = data.to_str().unwrap();
    let train = |out: &std::path::Path, curve: Option<&std::path::Path>| {
        let mut a = vec![
            "train",
            "--data",
            d,
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "1",
            "--hidden",
            "4",
        ];
        if let Some(c) = curve {
            a.extend(["--curve", c.to_str().unwrap()]);
        }
        common::run_cli(&a)
    };
    let policy = |out: &std::path::Path| {
        common::run_cli(&[
            "train-policy",
            "--data",
            d,
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "1",
        ])
    };
    let refused = |out: std::process::Output, want: &str| {
        assert!(!out.status.success());
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.is_empty(), "nothing read nor trained: {}", said);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{}", err);
        assert!(err.starts_with(want), "want '{}', got {}", want, err);
    };
    let missing = dir.join("no-such-folder").join("o.net");
    let m = missing.display();
    refused(
        train(&missing, None),
        &format!("error: --out {}: cannot write {}.partial: ", m, m),
    );
    let missing_pol = dir.join("no-such-folder").join("o.pol");
    refused(
        policy(&missing_pol),
        &format!("error: --out {}: cannot write ", missing_pol.display()),
    );
    let net = dir.join("n.net");
    refused(
        train(&net, Some(&missing)),
        &format!("error: --curve {}: cannot write ", m),
    );
    let folder = dir.join("outdir.net");
    std::fs::create_dir(&folder).unwrap();
    let f = folder.display();
    refused(
        train(&folder, None),
        &format!("error: --out {}: a folder, not a file", f),
    );
    refused(
        train(&net, Some(&folder)),
        &format!("error: --curve {}: a folder, not a file", f),
    );
    refused(policy(&folder), &format!("error: --out {}: a folder", f));
    refused(
        train(&net, Some(&net)),
        "error: --curve and --out name the same file",
    );
    // A data file as the output: the net (or the curve) would replace the data.
    let again = format!("error: --out {}: a --data file, which it would replace", d);
    refused(train(&data, None), &again);
    refused(policy(&data), &again);
    refused(
        train(&net, Some(&data)),
        &format!(
            "error: --curve {}: a --data file, which it would replace",
            d
        ),
    );
    assert!(data.is_file());
    assert!(!dir.join("outdir.partial").exists() && !dir.join("outdir.net.partial").exists());
    assert!(!net.exists());
    // The temporary file is `x.net.partial`: a folder named `x.partial` is in nobody's way,
    // and one named `x.net.partial` is found before training.
    let x = dir.join("x.net");
    std::fs::create_dir(dir.join("x.partial")).unwrap();
    succeeded(&train(&x, None));
    assert!(x.is_file());
    let pol = dir.join("x.pol");
    succeeded(&policy(&pol));
    assert!(pol.is_file());
    std::fs::create_dir(dir.join("x.net.partial")).unwrap();
    refused(
        train(&x, None),
        &format!(
            "error: --out {}: cannot write {}.partial: ",
            x.display(),
            x.display()
        ),
    );
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
    let session = |eval: &str, algorithm: &str, go: &str| {
        let script = format!(
            "setoption name Boards value 1x1\nsetoption name Threads value 1\n\
             setoption name Algorithm value {}\n\
             setoption name EvalFile value {}\nsetoption name Eval value {}\n\
             position startpos moves e2e4 d7d5\n{}\n\
             setoption name EvalFile value {}\ngo depth 1\n\
             setoption name Boards value 2x1\nposition startpos\ngo depth 1\n",
            algorithm,
            path.display(),
            eval,
            go,
            dir.join("missing.net").display()
        );
        engine_output(&["--game", "hyperchess"], &script)
    };
    // Per search: the two errors the script asks for (the missing file, the net of another
    // board) and no other; the first search's scores are the net's, not the hand
    // evaluation's: alpha-beta's, and MCTS's, which scores its leaves with the net as well
    // (one thread, a node count: the same tree every run, so only the evaluation can make the
    // scores differ).
    for (algorithm, go) in [("alphabeta", "go depth 2"), ("mcts", "go nodes 300")] {
        let net = session("net", algorithm, go);
        let hand = session("hand", algorithm, go);
        assert_eq!(net.matches("bestmove ").count(), 3, "{}", net);
        assert_eq!(net.matches("info string error").count(), 2, "{}", net);
        assert_eq!(net.matches("EvalFile: cannot read").count(), 1, "{}", net);
        assert_eq!(
            net.matches("Eval net: the net reads hyperchess features (hyperchess-1x1/3), this position's are hyperchess-2x1/3 (another board or rule set)")
                .count(),
            1,
            "{}",
            net
        );
        assert!(!hand.contains("Eval net"), "{}", hand);
        assert!(!first_scores(&net).is_empty());
        assert_ne!(
            first_scores(&net),
            first_scores(&hand),
            "{}: net:\n{}\nhand:\n{}",
            algorithm,
            net,
            hand
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hyperchess_3x3_ships_a_net_that_eval_net_and_auto_use_without_a_file() {
    // The shipped net reads (header, checksum) and is for the default rule set.
    let g = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let set = g.feature_set().unwrap();
    let net = quatre::learn::builtin::net("hyperchess", &set).expect("a shipped 3x3 net");
    net.fits(&g).unwrap();
    assert_eq!(net.header.base, BASE_HAND);
    let session = |eval: &str| {
        let script = format!(
            "setoption name Threads value 1\nsetoption name Eval value {}\n\
             position startpos moves AbI1AcI3 AbI8AcI6\ngo nodes 3000\n\
             setoption name Boards value 2x1\nposition startpos\ngo nodes 100\n",
            eval
        );
        engine_output(&[], &script)
    };
    let (net, hand) = (session("net"), session("hand"));
    assert!(!first_scores(&net).is_empty());
    assert_ne!(
        first_scores(&net),
        first_scores(&hand),
        "net:\n{}\nhand:\n{}",
        net,
        hand
    );
    // 3x3 has its net; 2x1 has none, and says so once.
    assert_eq!(net.matches("info string error").count(), 1, "{}", net);
    assert!(
        net.contains(
            "no built-in net for hyperchess (hyperchess-2x1/3; built-in nets: hyperchess-3x3/3, "
        ),
        "{}",
        net
    );
    assert!(!hand.contains("error"), "{}", hand);
    // `Eval auto`, the default: the net on 3x3, the hand evaluation on 2x1, without a word;
    // a session that never sets Eval is the same.
    let auto = session("auto");
    assert_eq!(first_scores(&auto), first_scores(&net), "{}", auto);
    assert!(!auto.contains("error"), "{}", auto);
    let default = engine_output(
        &[],
        "setoption name Threads value 1\nposition startpos moves AbI1AcI3 AbI8AcI6\ngo nodes 3000\n",
    );
    assert_eq!(first_scores(&default), first_scores(&net), "{}", default);
}

/// Hyperchess `Boards=1x1` (chess) ships a net too, which `Eval auto` searches with.
#[test]
fn hyperchess_1x1_ships_a_net_that_eval_auto_uses() {
    shipped_net_searches_under::<Hyperchess>(
        "hyperchess",
        &[("Boards", "1x1")],
        " moves e2e4 e7e5",
        true,
    );
}

/// Chess (`Boards=1x1 Promotions=chess`) ships its own net, on chess's evaluation, which
/// `Eval net` and `Eval auto` search with without a file and without a word (it scores better
/// than the hand evaluation against Stockfish).
#[test]
fn chess_on_one_board_ships_a_net_that_eval_auto_uses() {
    shipped_net_searches_under::<Hyperchess>(
        "hyperchess",
        &[("Boards", "1x1"), ("Promotions", "chess")],
        " moves e2e4 e7e5",
        true,
    );
}

/// The start position of `game` (default rules) has a shipped residual net, and `Eval auto`
/// searches with it (the same scores as `Eval net` without a file, not those of `Eval hand`).
fn eval_auto_searches_with_the_shipped_net<G: Game>(game: &str) {
    shipped_net_searches_under::<G>(game, &[], "", true);
}

/// Under the rule options `rules`, from the start and then `moves` (`" moves …"` or empty):
/// `game` has a shipped residual net, which `Eval net` searches with without a file and
/// without a word (not the scores of `Eval hand`), and which `Eval auto` searches with too
/// when `auto` (the same scores as `Eval net`), else not (those of `Eval hand`).
fn shipped_net_searches_under<G: Game>(
    game: &str,
    rules: &[(&str, &str)],
    moves: &str,
    auto: bool,
) {
    let mut opts = RuleOptions::of::<G>();
    let mut setup = format!("setoption name Game value {}\n", game);
    for (k, v) in rules {
        opts = opts.with(k, v);
        setup.push_str(&format!("setoption name {} value {}\n", k, v));
    }
    let g = G::start(&opts).unwrap();
    let net = quatre::learn::builtin::net(game, &g.feature_set().unwrap()).expect("a shipped net");
    net.fits(&g).unwrap();
    assert_eq!(net.header.base, BASE_HAND);
    let session = |eval: &str| {
        engine_output(
            &[],
            &format!(
                "{}setoption name Threads value 1\n\
                 setoption name Eval value {}\nposition startpos{}\ngo nodes 3000\n",
                setup, eval, moves
            ),
        )
    };
    let (with_auto, hand, net) = (session("auto"), session("hand"), session("net"));
    assert!(
        !with_auto.contains("error") && !net.contains("error"),
        "{}\n{}",
        with_auto,
        net
    );
    assert_ne!(first_scores(&net), first_scores(&hand), "{}\n{}", net, hand);
    let want = if auto { &net } else { &hand };
    assert_eq!(
        first_scores(&with_auto),
        first_scores(want),
        "Eval auto {} the shipped net\n{}\n{}",
        if auto { "searches with" } else { "leaves out" },
        with_auto,
        want
    );
}

#[test]
fn rithmomachia_ships_a_net_for_its_default_rules_that_eval_auto_uses() {
    eval_auto_searches_with_the_shipped_net::<quatre::games::rithmomachia::Rithmomachia>(
        "rithmomachia",
    );
    // Another rule set has no net: auto evaluates by hand without a word.
    let other = engine_output(
        &[],
        "setoption name Game value rithmomachia\nsetoption name Threads value 1\n\
         setoption name Captures value convert\nposition startpos\ngo nodes 300\n",
    );
    assert!(
        !other.contains("error") && other.contains("bestmove"),
        "{}",
        other
    );
}

/// Tesseract ships a net (every rule set: its features do not depend on them).
#[test]
fn tesseract_ships_a_net_that_eval_auto_uses() {
    eval_auto_searches_with_the_shipped_net::<quatre::games::tesseract::Tesseract>("tesseract");
}

/// Chess for three ships a net that `Eval auto` (the default) searches with (a gain in the
/// arena at equal nodes and at equal time), and every report is followed by `info string
/// shares`, three shares summing to 1. Two seats get none.
#[test]
fn threechess_ships_a_net_that_eval_auto_searches_with_and_that_gives_its_shares() {
    eval_auto_searches_with_the_shipped_net::<quatre::games::threechess::Threechess>("threechess");
    let auto = engine_output(
        &[],
        "setoption name Game value threechess\nsetoption name Threads value 1\n\
         position startpos\ngo depth 3\n",
    );
    let reports = auto.lines().filter(|l| l.starts_with("info depth")).count();
    let shares: Vec<Vec<f64>> = auto
        .lines()
        .filter_map(|l| l.strip_prefix("info string shares "))
        .map(|r| {
            let w: Vec<&str> = r.split(' ').collect();
            assert_eq!((w[0], w[2], w[4]), ("p1", "p2", "p3"), "{}", r);
            [w[1], w[3], w[5]]
                .iter()
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(shares.len(), reports, "{}", auto);
    for s in &shares {
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 0.002, "{:?}", s);
    }
    let two = engine_output(
        &[],
        "setoption name Threads value 1\nposition startpos\ngo depth 2\n",
    );
    assert!(!two.contains("shares"), "{}", two);
}

/// Random games of chess for three, each position scored by the mover's hand evaluation, each
/// game won by the seat the hand evaluation favours at its end.
fn three_fixture(games: usize, seed: u64) -> Vec<GameData> {
    use quatre::games::threechess::Threechess;
    let opts = RuleOptions::of::<Threechess>();
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    (0..games)
        .map(|index| {
            let mut g = Threechess::start(&opts).unwrap();
            let mut positions = Vec::new();
            for ply in 0..rng.random_range(20..120) {
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
            let best = (0..3).max_by_key(|&s| g.evaluate(s)).unwrap();
            let mut result = vec![0.0; 3];
            result[best] = 1.0;
            GameData {
                game: "threechess".into(),
                options: opts
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                seed,
                index,
                nodes: 1,
                start: "random:0".into(),
                result,
                plies: positions.len(),
                reason: "fixture".into(),
                positions,
            }
        })
        .collect()
}

/// A net for three seats has an output per seat: its file round-trips, it fits chess for three
/// and nothing else, seat s's score is output s's, and with nothing learned on top of the hand
/// evaluation it is the hand evaluation of every seat exactly; the incremental sums give the
/// scores built afresh.
#[test]
fn three_seat_nets_score_each_seat_with_its_own_output() {
    use quatre::games::threechess::Threechess;
    use quatre::learn::net::FloatNet;
    let opts = RuleOptions::of::<Threechess>();
    let start = Threechess::start(&opts).unwrap();
    let inputs = start.feature_count();
    let float = FloatNet::new(inputs, 16, 3, 30.0, 3);
    let net = float.quantize("threechess", "threechess/1", 300.0, String::new());
    assert_eq!(net.header.outputs, 3);
    let back = Net::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back, net);
    net.fits(&start).unwrap();
    // One output for three seats, three for two: refused, with the counts.
    let one = FloatNet::new(inputs, 4, 1, 30.0, 3).quantize(
        "threechess",
        "threechess/1",
        1.0,
        String::new(),
    );
    let e = one.fits(&start).unwrap_err();
    assert!(e.contains("1 outputs for 3 seats"), "{}", e);
    let hc = Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", "1x1")).unwrap();
    let three_for_two = FloatNet::new(hc.feature_count(), 4, 3, 30.0, 3).quantize(
        "hyperchess",
        &hc.feature_set().unwrap(),
        1.0,
        String::new(),
    );
    let e = three_for_two.fits(&hc).unwrap_err();
    assert!(e.contains("3 outputs for 2 seats"), "{}", e);

    let mut zero = float.clone();
    zero.w2.iter_mut().for_each(|w| *w = 0.0);
    zero.b2.iter_mut().for_each(|b| *b = 0.0);
    let zero = zero
        .quantize("threechess", "threechess/1", 300.0, String::new())
        .with_base(BASE_HAND);
    let mut rng = rng_from_seed(9);
    let mut buf = Vec::new();
    let (mut positions, mut seats_differ) = (0, 0);
    for _ in 0..20 {
        let mut g = start.clone();
        loop {
            let mut f = Vec::new();
            g.features(&mut f);
            let scores: Vec<i32> = (0..3).map(|s| net.evaluate(&g, s)).collect();
            for (s, &score) in scores.iter().enumerate() {
                // An even position's logit is logit(1/3): the score is the logit less it.
                let want = ((net.logit(&f, s) + 2f32.ln()) * 300.0).round() as i32;
                assert_eq!(score, want, "seat {} of {}", s, g.to_text());
                assert_eq!(net.evaluate_afresh(&g, s), score);
                assert_eq!(zero.evaluate(&g, s), g.evaluate(s), "{}", g.to_text());
            }
            seats_differ += (scores[0] != scores[1] || scores[1] != scores[2]) as usize;
            positions += 1;
            match g.random_move(&mut rng, &mut buf) {
                Some(m) if positions % 200 != 199 => g.play(m),
                _ => break,
            }
        }
    }
    assert!(positions > 500, "{} positions", positions);
    assert!(
        seats_differ > positions / 2,
        "{} of {}",
        seats_differ,
        positions
    );
}

/// `--others next`: a seat not to move learns its own search score at its next turn, the next
/// kept position within two plies where it is to move; none for the mover itself, nor past the
/// game's last position.
#[test]
fn three_seat_next_turn_targets_are_each_seats_own_next_score() {
    use quatre::games::threechess::Threechess;
    let data = three_fixture(40, 7);
    let mut ds = Dataset::default();
    // Every position kept (none is over, all have a score): the dataset follows the data.
    ds.add::<Threechess>(&data, false).unwrap();
    let positions: usize = data.iter().map(|gd| gd.positions.len()).sum();
    assert_eq!(ds.len(), positions);
    assert_eq!(ds.next.len(), 3 * positions);
    let (mut base, mut linked, mut unlinked) = (0, 0, 0);
    for gd in &data {
        let ps = &gd.positions;
        for (a, p) in ps.iter().enumerate() {
            for o in 0..3 {
                let want = if o == p.seat {
                    None
                } else {
                    ps[a + 1..]
                        .iter()
                        .take_while(|q| q.ply <= p.ply + 2)
                        .find(|q| q.seat == o)
                        .map(|q| q.score.centipawns().unwrap() as f32)
                };
                let got = ds.next[(base + a) * 3 + o];
                match want {
                    Some(v) => {
                        assert_eq!(got, v, "game {} ply {} seat {}", gd.index, p.ply, o);
                        linked += 1;
                    }
                    None => {
                        assert!(got.is_nan(), "game {} ply {} seat {}", gd.index, p.ply, o);
                        unlinked += 1;
                    }
                }
            }
        }
        base += ps.len();
    }
    // Three live seats take turns: each other seat moves within two plies, but at the end.
    assert!(
        linked > 4 * (unlinked - positions),
        "{} {}",
        linked,
        unlinked
    );
}

/// Training on three-seat data: an output per seat, the results of every seat kept, the
/// mover's output measured alone; a residual net starts at the hand evaluation's loss and its
/// best epoch keeps it; the three choices of the others' targets give different targets, the
/// mover's the same.
#[test]
fn three_seat_training_has_an_output_per_seat() {
    use quatre::games::threechess::Threechess;
    use quatre::learn::train::Others;
    let data = three_fixture(200, 5);
    let mut ds = Dataset::default();
    ds.add::<Threechess>(&data, true).unwrap();
    assert_eq!(ds.outputs, 3);
    assert!(ds.len() > 2000, "{} positions", ds.len());
    assert_eq!(ds.result.len(), 3 * ds.len());
    assert_eq!(ds.hand.len(), 3 * ds.len());
    let mut mover = Vec::new();
    for others in [Others::Result, Others::Hand, Others::Next] {
        let cfg = TrainConfig {
            hidden: 8,
            epochs: 2,
            lr: 0.001,
            lambda: 0.5,
            residual: true,
            others,
            ..TrainConfig::default()
        };
        let tr = train(&ds, &cfg, |_| {});
        assert_eq!(tr.net.outputs, 3);
        let best = tr.curve[tr.best_epoch - 1].val;
        assert!(
            best <= tr.hand_val * 1.02,
            "{} against {}",
            best,
            tr.hand_val
        );
        let v = tr
            .seats_val
            .expect("three seats: the mover's and the others' losses");
        mover.push((v.mover_hand, tr.hand_val, v.others_hand));
    }
    // The mover's target is the same (up to the order of rayon's sums in the scales' fits),
    // the others' differ.
    assert!((mover[0].0 - mover[1].0).abs() < 1e-6, "{:?}", mover);
    assert!((mover[0].2 - mover[1].2).abs() < 1e-6, "{:?}", mover);
    assert_ne!(mover[0].1, mover[1].1);
    assert!((mover[0].0 - mover[2].0).abs() < 1e-6, "{:?}", mover);
    assert_ne!(mover[0].1, mover[2].1);
    // Two-seat data: one output, no separate mover's figure.
    let mut two = Dataset::default();
    two.add::<Hyperchess>(&fixture(20, 3), true).unwrap();
    assert_eq!(two.outputs, 1);
    let tr = train(
        &two,
        &TrainConfig {
            hidden: 4,
            epochs: 1,
            ..TrainConfig::default()
        },
        |_| {},
    );
    assert!(tr.seats_val.is_none());
}

/// The engine searches chess for three with a three-output net: Best-Reply Search and MCTS
/// (whose rewards take every seat's score) give the net's scores, not the hand evaluation's,
/// with no error; a net of one output (two seats) is refused with why, and the search
/// evaluates by hand.
#[test]
fn the_engine_searches_chess_for_three_with_a_net() {
    use quatre::games::threechess::Threechess;
    let dir = std::env::temp_dir().join(format!("quatre-threenet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ds = Dataset::default();
    ds.add::<Threechess>(&three_fixture(40, 7), true).unwrap();
    let tr = train(
        &ds,
        &TrainConfig {
            hidden: 8,
            epochs: 2,
            ..TrainConfig::default()
        },
        |_| {},
    );
    let path = dir.join("t.net");
    let net = tr
        .net
        .quantize("threechess", &ds.feature_set, tr.scale, String::new());
    std::fs::write(&path, net.to_bytes()).unwrap();
    let session = |eval: &str, algorithm: &str, go: &str| {
        let script = format!(
            "setoption name Threads value 1\nsetoption name Algorithm value {}\n\
             setoption name EvalFile value {}\nsetoption name Eval value {}\n\
             position startpos moves g2h2 c4d4\n{}\n",
            algorithm,
            path.display(),
            eval,
            go
        );
        engine_output(&["--game", "threechess"], &script)
    };
    for (algorithm, go) in [("alphabeta", "go depth 2"), ("mcts", "go nodes 300")] {
        let with_net = session("net", algorithm, go);
        let hand = session("hand", algorithm, go);
        assert_eq!(with_net.matches("bestmove ").count(), 1, "{}", with_net);
        assert!(!with_net.contains("error"), "{}", with_net);
        assert!(!first_scores(&with_net).is_empty(), "{}", with_net);
        assert_ne!(
            first_scores(&with_net),
            first_scores(&hand),
            "{}: net:\n{}\nhand:\n{}",
            algorithm,
            with_net,
            hand
        );
    }
    // A net with one output for chess for three.
    let one = quatre::learn::net::FloatNet::new(ds.inputs, 4, 1, 30.0, 1).quantize(
        "threechess",
        &ds.feature_set,
        100.0,
        String::new(),
    );
    std::fs::write(&path, one.to_bytes()).unwrap();
    let out = session("net", "alphabeta", "go depth 1");
    assert!(
        out.contains("info string error: Eval net: a net of 1 outputs for 3 seats"),
        "{}",
        out
    );
    assert_eq!(out.matches("bestmove ").count(), 1, "{}", out);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How well chess for three's learned shares (`info string shares`) are calibrated, on games the
/// shipped net never saw: for every written position of the self-play files named by
/// `QUATRE_SHARES_DATA` (space-separated), each seat's predicted share at that position against
/// the seat's result, in ten bins of the prediction; and the Brier score beside an even third's
/// and the hand evaluation's (its shares read with the same offset and the scale that fits these
/// data best). Not run by default (it needs data: docs/learning.md, "Readable shares"):
/// `QUATRE_SHARES_DATA="tc/shard-0030.txt …" cargo test --release --test learn -- --ignored
/// --nocapture shares_are_calibrated`.
#[test]
#[ignore]
fn shares_are_calibrated() {
    let paths = std::env::var("QUATRE_SHARES_DATA").expect("QUATRE_SHARES_DATA: self-play files");
    let entry = quatre::games::find("threechess").unwrap();
    let opts = entry.default_options();
    // (predicted share, hand evaluation, result) per seat and position.
    let mut rows: Vec<(f64, f64, f64)> = Vec::new();
    let mut games = 0;
    for p in paths.split_whitespace() {
        for g in quatre::learn::format::read_file(std::path::Path::new(p)).unwrap() {
            games += 1;
            for pos in &g.positions {
                let state = entry.from_text(&pos.text, &opts).unwrap();
                let shares = state
                    .shares(&[])
                    .expect("a shipped net for chess for three");
                for (s, &share) in shares.iter().enumerate() {
                    rows.push((share, state.evaluate(s) as f64, g.result[s] as f64));
                }
            }
        }
    }
    assert!(!rows.is_empty());
    let brier = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
        rows.iter().map(|r| (f(r) - r.2).powi(2)).sum::<f64>() / rows.len() as f64
    };
    let offset = -(2f64).ln();
    let hand_at = |k: f64| move |r: &(f64, f64, f64)| 1.0 / (1.0 + (-(r.1 / k + offset)).exp());
    let hand_k = (1..=60)
        .map(|i| i as f64 * 50.0)
        .min_by(|&a, &b| brier(&hand_at(a)).total_cmp(&brier(&hand_at(b))))
        .unwrap();
    println!(
        "{} games, {} seat-positions: Brier score net {:.4}, hand evaluation {:.4} (K {}), an even third {:.4}",
        games,
        rows.len(),
        brier(&|r| r.0),
        brier(&hand_at(hand_k)),
        hand_k,
        brier(&|_| 1.0 / 3.0)
    );
    println!("predicted share | seat-positions | mean predicted | mean result");
    for b in 0..10 {
        let (lo, hi) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
        let bin: Vec<&(f64, f64, f64)> = rows
            .iter()
            .filter(|r| r.0 >= lo && (r.0 < hi || b == 9))
            .collect();
        if bin.is_empty() {
            continue;
        }
        let n = bin.len() as f64;
        println!(
            "{:.1}–{:.1} | {} | {:.3} | {:.3}",
            lo,
            hi,
            bin.len(),
            bin.iter().map(|r| r.0).sum::<f64>() / n,
            bin.iter().map(|r| r.2).sum::<f64>() / n
        );
    }
}
