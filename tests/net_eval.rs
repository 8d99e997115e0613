//! A net's evaluation as the searches and the protocol see it: lazy evaluation against a
//! window (`deepening::window_eval`) and the protocol's `eval`.

use quatre::game::{rng_from_seed, Game, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::learn::net::{Net, BASE_HAND};
use rand::Rng;

mod common;
use common::first_scores;

/// Checks `window_eval` against the net's score on positions of random games of `G` for each
/// shipped net of the game: the bounds of the correction hold, and for windows around the score
/// the lazy evaluation lands on the same side of the window as the net, and is the net's score
/// inside it.
fn lazy_evaluation_agrees_with_the_net<G: Game>(opts: &RuleOptions, net: &Net, games: usize) {
    use quatre::search::deepening::{bounded_eval, window_eval};
    let mut rng = rng_from_seed(17);
    let (mut buf, mut lazy, mut evals) = (Vec::new(), 0, 0);
    for _ in 0..games {
        let mut g = G::start(opts).unwrap();
        for _ in 0..rng.random_range(0..160) {
            match g.random_move(&mut rng, &mut buf) {
                Some(m) if g.status() == quatre::game::Status::Ongoing => g.play(m),
                _ => break,
            }
        }
        for seat in 0..g.players() {
            let real = bounded_eval(&g, seat, Some(net));
            let hand = net.base_score(&g, seat);
            let (lo, hi) = net.correction_range(seat);
            assert!(
                hand + lo <= real && real <= hand + hi,
                "{} not in {} + [{}, {}]",
                real,
                hand,
                lo,
                hi
            );
            for d in [-5000, -400, -120, -30, -1, 0, 1, 30, 120, 400, 5000] {
                for width in [1, 50, 600] {
                    let alpha = real + d - width / 2;
                    let beta = alpha + width;
                    let w = window_eval(&g, seat, Some(net), alpha, beta);
                    evals += 1;
                    if w != real {
                        lazy += 1;
                    }
                    assert_eq!(
                        w >= beta,
                        real >= beta,
                        "{} {} ({}, {})",
                        w,
                        real,
                        alpha,
                        beta
                    );
                    assert_eq!(
                        w <= alpha,
                        real <= alpha,
                        "{} {} ({}, {})",
                        w,
                        real,
                        alpha,
                        beta
                    );
                    if alpha < real && real < beta {
                        assert_eq!(w, real);
                    }
                }
            }
        }
    }
    // The test means something only if some windows were answered without the net.
    assert!(lazy > 0 && lazy < evals, "{} of {} lazy", lazy, evals);
}

#[test]
fn lazy_evaluation_lands_on_the_nets_side_of_every_window() {
    use quatre::games::rithmomachia::Rithmomachia;
    use quatre::games::threechess::Threechess;
    use quatre::learn::builtin::net;
    let hc = RuleOptions::of::<Hyperchess>();
    let g = Hyperchess::start(&hc).unwrap();
    let shipped = net("hyperchess", &g.feature_set().unwrap()).unwrap();
    lazy_evaluation_agrees_with_the_net::<Hyperchess>(&hc, shipped, 20);
    let ro = RuleOptions::of::<Rithmomachia>();
    let g = Rithmomachia::start(&ro).unwrap();
    let shipped = net("rithmomachia", &g.feature_set().unwrap()).unwrap();
    lazy_evaluation_agrees_with_the_net::<Rithmomachia>(&ro, shipped, 40);
    let to = RuleOptions::of::<Threechess>();
    let g = Threechess::start(&to).unwrap();
    let shipped = net("threechess", &g.feature_set().unwrap()).unwrap();
    lazy_evaluation_agrees_with_the_net::<Threechess>(&to, shipped, 40);
    // A net of large random weights (corrections of thousands of cp) on 1x1.
    let one = hc.clone().with("Boards", "1x1");
    let g = Hyperchess::start(&one).unwrap();
    let net = quatre::learn::net::FloatNet::new(g.feature_count(), 8, 1, 3.0, 5)
        .quantize(
            "hyperchess",
            &g.feature_set().unwrap(),
            400.0,
            String::new(),
        )
        .with_base(BASE_HAND);
    lazy_evaluation_agrees_with_the_net::<Hyperchess>(&one, &net, 60);
}

#[test]
fn eval_shows_the_evaluation_the_searches_use() {
    let opts = RuleOptions::of::<Hyperchess>();
    let g = Hyperchess::start(&opts).unwrap();
    let net = quatre::learn::builtin::net("hyperchess", &g.feature_set().unwrap()).unwrap();
    let session = |eval: &str| {
        common::script_output(
            &[],
            &format!(
                "setoption name Eval value {}\nposition startpos\neval\n\
                 setoption name Boards value 2x1\nposition startpos\neval\n",
                eval
            ),
        )
    };
    // 3x3 has a shipped net: its score, then the hand evaluation's.
    let with_net = format!(
        "info string eval {} cp for p1 (static evaluation, net hyperchess-3x3/3; hand {} cp)",
        net.evaluate(&g, 0),
        g.evaluate(0)
    );
    let by_hand = format!(
        "info string eval {} cp for p1 (static evaluation, hand)",
        g.evaluate(0)
    );
    let one = Hyperchess::start(&opts.clone().with("Boards", "2x1")).unwrap();
    let one_by_hand = format!(
        "info string eval {} cp for p1 (static evaluation, hand)",
        one.evaluate(0)
    );
    for eval in ["auto", "net"] {
        let out = session(eval);
        assert!(out.contains(&with_net), "{}:\n{}", with_net, out);
        assert!(out.contains(&one_by_hand), "{}", out);
        // Asked for a net where none fits, it says so as `go` would; `auto` says nothing.
        let errors = out
            .matches("info string error: Eval net: no built-in net")
            .count();
        assert_eq!(errors, (eval == "net") as usize, "{}", out);
    }
    let out = session("hand");
    assert!(
        out.contains(&by_hand) && out.contains(&one_by_hand),
        "{}",
        out
    );
    assert!(!out.contains("error"), "{}", out);
}

/// `Eval auto` with an `EvalFile` that does not fit the game (here rithmomachia's net in a
/// hyperchess session) searches with the game's shipped net, as `Eval net` without a file does,
/// not by hand, and says once a `go` (and at `eval`) that it passes the file over; where no
/// shipped net fits either (2x1) it evaluates by hand and says that.
#[test]
fn eval_auto_passes_over_an_eval_file_that_does_not_fit_for_the_shipped_net() {
    use quatre::games::rithmomachia::Rithmomachia;
    let r = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
    let rith = quatre::learn::builtin::net("rithmomachia", &r.feature_set().unwrap()).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("net-eval-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rithmomachia.net");
    std::fs::write(&file, rith.to_bytes()).unwrap();
    let session = |setup: &str| {
        common::script_output(
            &[],
            &format!(
                "setoption name Threads value 1\n{}position startpos\ngo depth 3\neval\n\
                 setoption name Boards value 2x1\nposition startpos\ngo depth 2\neval\n",
                setup
            ),
        )
    };
    let foreign = session(&format!(
        "setoption name EvalFile value {}\n",
        file.display()
    ));
    let shipped = session("setoption name Eval value net\n");
    let hand = session("setoption name Eval value hand\n");
    assert!(!first_scores(&foreign).is_empty());
    assert_eq!(
        first_scores(&foreign),
        first_scores(&shipped),
        "{}",
        foreign
    );
    assert_ne!(first_scores(&foreign), first_scores(&hand), "{}", foreign);
    assert!(!foreign.contains("error"), "{}", foreign);
    let why = "info string EvalFile does not fit: the net is for rithmomachia \
               (rithmomachia-remove-corps-N12/1), not for hyperchess";
    let on_3x3 = format!(
        "{} (hyperchess-3x3/3); Eval auto uses the shipped net hyperchess-3x3/3",
        why
    );
    let on_2x1 = format!("{} (hyperchess-2x1/3); Eval auto evaluates by hand", why);
    // Once at each `go` and each `eval`.
    assert_eq!(foreign.matches(&on_3x3).count(), 2, "{}", foreign);
    assert_eq!(foreign.matches(&on_2x1).count(), 2, "{}", foreign);
    assert_eq!(
        foreign.matches("EvalFile does not fit").count(),
        4,
        "{}",
        foreign
    );
    assert!(
        foreign.contains("(static evaluation, net hyperchess-3x3/3; hand "),
        "{}",
        foreign
    );
    // The shipped net's session says nothing of the kind.
    assert!(!shipped.contains("EvalFile does not fit"), "{}", shipped);
}
