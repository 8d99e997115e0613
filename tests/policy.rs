//! The learned move policy: its move features, training on a fixture whose moves follow a
//! rule, `quatre train-policy` and MCTS with `Policy net` through the binary.

use quatre::game::{rng_from_seed, Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::learn::format::{GameData, Position, Score};
use quatre::learn::policy::Policy;
use quatre::learn::policy_train::{train, PolicyArgs, PolicyData};
use rand::Rng;

mod common;

/// Random games on one board in which the mover plays a king move whenever it has one (a
/// random one of them), else a random move: a rule the policy can learn from move features.
fn fixture(games: usize, seed: u64) -> Vec<GameData> {
    let opts = RuleOptions::of::<Hyperchess>().with("Boards", "1x1");
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    (0..games)
        .map(|index| {
            let mut g = Hyperchess::start(&opts).unwrap();
            let mut positions = Vec::new();
            for ply in 0..rng.random_range(20..60) {
                if g.status().is_over() {
                    break;
                }
                g.legal_moves(&mut moves);
                let kings: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| g.piece_at(m.from()) & 7 == quatre::games::hyperchess::KING)
                    .collect();
                let pool = if kings.is_empty() { &moves } else { &kings };
                let m = pool[rng.random_range(0..pool.len())];
                positions.push(Position {
                    ply,
                    seat: g.to_move(),
                    score: Score::Cp(0),
                    mv: g.format_move(m),
                    text: g.to_text(),
                });
                g.play(m);
            }
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
                result: vec![0.5, 0.5],
                plies: positions.len(),
                reason: "fixture".into(),
                positions,
            }
        })
        .collect()
}

fn args(epochs: u64) -> PolicyArgs {
    PolicyArgs {
        data: Vec::new(),
        out: "unused".into(),
        epochs,
        lr: 0.05,
        decay: 0.0,
        batch: 64,
        seed: 1,
        hidden: 0,
        init: None,
    }
}

#[test]
fn move_features_are_in_range_and_tell_moves_apart() {
    for boards in ["1x1", "3x3"] {
        let opts = RuleOptions::of::<Hyperchess>().with("Boards", boards);
        let mut g = Hyperchess::start(&opts).unwrap();
        assert_eq!(
            g.move_feature_set(),
            Some(format!("hyperchess-moves-{}/3", boards))
        );
        let mut rng = rng_from_seed(9);
        let mut moves = Vec::new();
        for _ in 0..80 {
            if g.status().is_over() {
                break;
            }
            g.legal_moves(&mut moves);
            let mut seen = std::collections::HashSet::new();
            for &m in &moves {
                let mut f = Vec::new();
                g.move_features(m, &mut f);
                assert_eq!(f.len(), 11, "eleven features a move");
                assert!(f.iter().all(|&x| (x as usize) < g.move_feature_count()));
                // The origin and destination features name the move on a board of the grid.
                seen.insert((f[0], f[1], f[2]));
            }
            assert_eq!(seen.len(), moves.len(), "{}", g.to_text());
            let m = moves[rng.random_range(0..moves.len())];
            g.play(m);
        }
    }
}

#[test]
fn a_policy_learns_which_moves_are_played() {
    let data = fixture(200, 3);
    let d = PolicyData::of::<Hyperchess>(&data).unwrap();
    assert!(d.len() > 3000, "{} positions", d.len());
    // Linear, and with a hidden layer.
    for hidden in [0, 8] {
        let tr = train(&d, &PolicyArgs { hidden, ..args(4) }, None, |_, _, _| {});
        // Held out: far below choosing uniformly, and far more often right than
        // move_priority's order (which knows nothing of kings).
        assert!(
            tr.policy.loss < 0.75 * tr.uniform_loss,
            "hidden {hidden}: policy {} uniform {}",
            tr.policy.loss,
            tr.uniform_loss
        );
        assert!(
            tr.policy.top1 > tr.priority.top1 + 0.15,
            "hidden {hidden}: policy {:?} priority {:?}",
            tr.policy,
            tr.priority
        );
        assert_eq!(
            tr.weights.len(),
            quatre::learn::policy::weights_len(d.inputs, hidden as usize)
        );
    }
}

/// Training gives the same policy, bit for bit, on one thread and on three (the batch's
/// slices are added in their order), with a hidden layer too.
#[test]
fn training_does_not_depend_on_the_number_of_threads() {
    let data = fixture(40, 5);
    let d = PolicyData::of::<Hyperchess>(&data).unwrap();
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                train(
                    &d,
                    &PolicyArgs {
                        hidden: 4,
                        ..args(2)
                    },
                    None,
                    |_, _, _| {},
                )
                .weights
            })
    };
    assert_eq!(on(1), on(3));
}

/// `quatre train-policy` writes a policy that MCTS loads with `Policy net` and `PolicyFile`;
/// a missing file, no file at all and data of a game without move features are refused with
/// one line each, and every `go` still answers.
#[test]
fn quatre_train_policy_writes_a_policy_that_mcts_uses() {
    let dir = std::env::temp_dir().join(format!("quatre-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.txt");
    let mut text = String::new();
    for g in fixture(30, 4) {
        g.write(&mut text);
    }
    std::fs::write(&data, &text).unwrap();
    let pol = dir.join("p.pol");
    let run = common::run_cli;
    let out = run(&[
        "train-policy",
        "--data",
        data.to_str().unwrap(),
        "--out",
        pol.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "4",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", err);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("move_priority's order top 1"), "{}", said);
    let p = Policy::from_bytes(&std::fs::read(&pol).unwrap()).unwrap();
    assert_eq!(p.header.features, "hyperchess-moves-1x1/3");
    assert_eq!(p.header.hidden, 4, "a hidden layer of 4 units");
    // The next generation from it (`--init`): its held-out loss is said before training and
    // is the one it was written with; training starts from its weights (at a learning rate
    // of 1e-6 they stay where they were, where fresh ones would start at 0 or at random); a
    // policy of other hidden units is refused.
    let next = dir.join("next.pol");
    let again = |extra: &[&str]| {
        let mut v = vec![
            "train-policy",
            "--data",
            data.to_str().unwrap(),
            "--epochs",
            "1",
            "--init",
            pol.to_str().unwrap(),
        ];
        v.extend(extra);
        run(&v)
    };
    let out = again(&[
        "--hidden",
        "4",
        "--lr",
        "0.000001",
        "--out",
        next.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said2 = String::from_utf8_lossy(&out.stdout);
    let loss_of = |text: &str, key: &str| -> String {
        let at = text
            .find(key)
            .unwrap_or_else(|| panic!("{}: {}", key, text))
            + key.len();
        text[at..]
            .split([',', ' '])
            .find(|w| !w.is_empty())
            .unwrap()
            .to_string()
    };
    assert!(said2.contains("held out, before training: "), "{}", said2);
    assert_eq!(
        loss_of(&said2, &format!("{} loss ", pol.display())),
        loss_of(&said, "policy loss ")
    );
    let p2 = Policy::from_bytes(&std::fs::read(&next).unwrap()).unwrap();
    assert!(
        p2.header.note.contains("started from"),
        "{}",
        p2.header.note
    );
    assert_eq!(p2.weights.len(), p.weights.len());
    let moved = p2
        .weights
        .iter()
        .zip(&p.weights)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    let size = p.weights.iter().map(|w| w.abs()).fold(0.0f32, f32::max);
    assert!(
        moved < 1e-3 && size > 0.05,
        "moved {} of weights up to {}",
        moved,
        size
    );
    let shipped = format!("{}/nets/threechess.pol", env!("CARGO_MANIFEST_DIR"));
    let v = [
        "train-policy",
        "--data",
        data.to_str().unwrap(),
        "--init",
        &shipped,
        "--hidden",
        "16",
        "--out",
        next.to_str().unwrap(),
    ];
    let err = String::from_utf8_lossy(&run(&v).stderr).to_string();
    assert!(
        err.contains("a policy of threechess, not hyperchess"),
        "{}",
        err
    );
    let out = again(&["--hidden", "8", "--out", next.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("4 hidden units: give --hidden 4"),
        "{}",
        err
    );
    let out = run(&[
        "train-policy",
        "--game",
        "tesseract",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.join("x.pol").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(!dir.join("x.pol").exists());

    let search = "position startpos\ngo nodes 300\n";
    let head = "setoption name Boards value 1x1\nsetoption name Algorithm value mcts\nsetoption name Threads value 1\n";
    let script = format!(
        "{head}setoption name Policy value net\n{search}setoption name PolicyFile value {}\n{search}setoption name PolicyFile value {}\n{search}",
        pol.display(),
        dir.join("missing.pol").display()
    );
    let s = common::script_output(&[], &script);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        3,
        "{}",
        s
    );
    let errors: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{}", s);
    // Before a file: the search orders moves by hand and says why.
    assert!(
        errors[0].contains("Policy net: no built-in policy"),
        "{}",
        s
    );
    // A missing file is refused at once, and the loaded policy stays (no error at the `go`).
    assert!(errors[1].contains("PolicyFile") && errors[1].contains("missing.pol"));
    let after_missing = s.rsplit("bestmove").nth(1).unwrap();
    assert!(!after_missing.contains("Policy net:"), "{}", s);
    // Alpha-beta reads no policy: `Policy net` without one says nothing there.
    let s = common::script_output(
        &[],
        &format!(
            "{}setoption name Algorithm value alphabeta\nsetoption name Policy value net\n{search}",
            head
        ),
    );
    assert!(
        s.contains("bestmove") && !s.contains("info string"),
        "{}",
        s
    );
    // Chess for three with that (hyperchess) policy file: `Policy auto` passes it over for the
    // shipped policy and says so, at MCTS's `go` only; `Policy hand` says nothing.
    let script = format!(
        "setoption name Game value threechess\nsetoption name Threads value 1\nsetoption name PolicyFile value {}\nposition startpos\ngo nodes 300\nsetoption name Algorithm value mcts\ngo nodes 300\nsetoption name Policy value hand\ngo nodes 300\n",
        pol.display()
    );
    let s = common::script_output(&[], &script);
    let notes: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("PolicyFile does not fit"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", s);
    assert!(
        notes[0].starts_with("info string PolicyFile does not fit: the policy is for hyperchess")
            && notes[0].ends_with("Policy auto uses the shipped policy threechess-moves/2"),
        "{}",
        s
    );
    assert_eq!(
        s.lines().filter(|l| l.starts_with("bestmove")).count(),
        3,
        "{}",
        s
    );
    assert!(!s.contains("error"), "{}", s);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Chess for three's move features: eleven a move, in range, the origin, destination and
/// promotion features naming the move, and the check features agreeing with the rules: a move
/// that the features say checks the next seat leaves that seat in check when it moves next.
#[test]
fn threechess_move_features_name_moves_and_see_checks() {
    use quatre::games::threechess::{Threechess, ALIVE};
    let opts = RuleOptions::of::<Threechess>();
    let mut rng = rng_from_seed(5);
    let mut moves = Vec::new();
    let (mut checks_seen, mut positions) = (0, 0);
    for _ in 0..30 {
        let mut g = Threechess::start(&opts).unwrap();
        assert_eq!(g.move_feature_set().as_deref(), Some("threechess-moves/2"));
        for _ in 0..200 {
            if g.status().is_over() {
                break;
            }
            positions += 1;
            g.legal_moves(&mut moves);
            let mover = g.to_move();
            let mut seen = std::collections::HashSet::new();
            let mut f = Vec::new();
            for &m in &moves {
                f.clear();
                g.move_features(m, &mut f);
                assert_eq!(f.len(), 11, "eleven features a move");
                assert!(f.iter().all(|&x| (x as usize) < g.move_feature_count()));
                seen.insert((f[0], f[1], f[3]));
                if m.recover() != quatre::games::threechess::NO_SQ {
                    continue;
                }
                let next = (mover + 1) % 3;
                let check_bit = f[9] % 2 == 1; // the block starts at a multiple of 4
                let mut child = g.clone();
                child.play(m);
                if child.to_move() != next || child.seat_state(next) != ALIVE {
                    continue;
                }
                if check_bit {
                    checks_seen += 1;
                    assert!(child.in_check(), "{} {}", g.to_text(), g.format_move(m));
                }
            }
            assert_eq!(
                seen.len(),
                moves
                    .iter()
                    .map(|m| (m.from(), m.to(), m.promo()))
                    .collect::<std::collections::HashSet<_>>()
                    .len(),
                "{}",
                g.to_text()
            );
            let m = moves[rng.random_range(0..moves.len())];
            g.play(m);
        }
    }
    assert!(
        positions > 2000 && checks_seen > 50,
        "{positions} positions, {checks_seen} checks"
    );
}

/// Chess for three ships a move policy: `Policy auto` (the default) orders MCTS's moves by it,
/// `Policy hand` by `move_priority`, `Policy net` by it too; hyperchess ships none, so `auto`
/// orders by hand there and `net` says why it cannot. Its weight in selection is the game's
/// unless `PolicyWeight` says otherwise.
#[test]
fn threechess_ships_a_policy_that_policy_auto_uses() {
    use quatre::games::threechess::Threechess;
    use quatre::search::{params, SearchParams, Tuning};
    let tc = Threechess::start(&RuleOptions::of::<Threechess>()).unwrap();
    let hc = Hyperchess::start(&RuleOptions::of::<Hyperchess>()).unwrap();
    let mut p = SearchParams::default();
    let shipped = |p: &SearchParams| match p.policy_for(&tc) {
        Some(Ok(pol)) => pol.header.features.clone(),
        other => panic!("{:?}", other.map(|r| r.map(|_| ()))),
    };
    assert_eq!(shipped(&p), "threechess-moves/2");
    assert!(p.policy_for(&hc).is_none());
    assert_eq!(p.policy_weight, None);
    assert_eq!(Tuning::for_game("threechess").policy_weight, 30);
    assert_eq!(Tuning::for_game("hyperchess").policy_weight, 0);
    params::set(&mut p, "Policy", "hand").unwrap();
    assert!(p.policy_for(&tc).is_none());
    params::set(&mut p, "Policy", "net").unwrap();
    assert_eq!(shipped(&p), "threechess-moves/2");
    match p.policy_for(&hc) {
        Some(Err(e)) => assert!(e.starts_with("no built-in policy for hyperchess"), "{e}"),
        _ => panic!("hyperchess has no shipped policy"),
    }
    params::set(&mut p, "PolicyWeight", "0").unwrap();
    assert_eq!(p.policy_weight, Some(0));
    params::set(&mut p, "PolicyWeight", "-1").unwrap();
    assert_eq!(p.policy_weight, None);
}
