//! A net's incremental inference (`src/learn/infer.rs`): the hidden sums a thread updates from
//! the last position it evaluated equal the sums built afresh, exactly, over thousands of
//! positions of random games per game visited in a random walk (mostly a ply forward or back,
//! sometimes a jump to another position or another game), for random nets of a few widths,
//! residual and not (an output per seat for chess for three and four-seat tesseris); and nets used by turns on one
//! thread each get their own sums.

use quatre::game::{playout, rng_from_seed, Game, GameRng, RuleOptions};
use quatre::games::hyperchess::Hyperchess;
use quatre::games::rithmomachia::Rithmomachia;
use quatre::games::tesseract::Tesseract;
use quatre::games::threechess::Threechess;
use quatre::learn::infer;
use quatre::learn::net::{FloatNet, Net, BASE_HAND};
use rand::Rng;

/// Every position of `games` random games from `start` (each at most `plies` plies), game by
/// game.
fn random_games<G: Game>(start: &G, games: usize, plies: usize, seed: u64) -> Vec<Vec<G>> {
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    (0..games)
        .map(|_| {
            let seen = std::cell::RefCell::new(Vec::new());
            let mut g = start.clone();
            playout(&mut g, &mut rng, plies, &mut buf, |g, rng, buf| {
                seen.borrow_mut().push(g.clone());
                g.random_move(rng, buf)
            });
            let mut seen = seen.into_inner();
            seen.push(g);
            seen
        })
        .collect()
}

/// A random net for `G`'s features and seats; `base` as `Net::with_base`.
fn random_net<G: Game>(g: &G, hidden: usize, seed: u64, base: &str) -> Net {
    let mut f = Vec::new();
    g.features(&mut f);
    let outputs = Net::outputs_for(g.players());
    FloatNet::new(g.feature_count(), hidden, outputs, f.len() as f32, seed)
        .quantize(
            G::NAME,
            &g.feature_set().expect("the game has features"),
            400.0,
            String::new(),
        )
        .with_base(base)
}

/// The next position of a random walk over `games`: mostly a ply forward or back, sometimes the
/// same position again, another position of the same game or of another game.
fn step<G>(games: &[Vec<G>], at: (usize, usize), rng: &mut GameRng) -> (usize, usize) {
    let (i, j) = at;
    let last = games[i].len() - 1;
    match rng.random_range(0..20) {
        0 => (i, j),
        1 => (i, rng.random_range(0..=last)),
        2 => {
            let i = rng.random_range(0..games.len());
            (i, rng.random_range(0..games[i].len()))
        }
        3..=7 => (i, j.saturating_sub(1)),
        _ => (i, (j + 1).min(last)),
    }
}

/// Checks `net`'s incremental sums and scores against afresh ones at `g`.
fn check_at<G: Game>(net: &Net, g: &G, seat: usize) {
    let mut feats = Vec::new();
    g.features(&mut feats);
    let mut fresh = vec![0; net.hidden()];
    net.accumulate(&feats, &mut fresh);
    let kept = infer::with_sums(net, g, |s| s.to_vec());
    assert_eq!(kept, fresh, "hidden sums differ at {}", g.to_text());
    assert_eq!(
        net.evaluate(g, seat),
        net.evaluate_afresh(g, seat),
        "scores differ at {}",
        g.to_text()
    );
}

/// Walks `steps` positions of `games` with a random net of each width in `widths`, residual
/// and not, checking each; more than `ratio` times as many sums must have been updated as
/// rebuilt (3 unless the game's features change wholesale from one ply to the next).
fn walk<G: Game>(games: &[Vec<G>], widths: &[usize], steps: usize, seed: u64) {
    walk_updating(games, widths, steps, seed, 3)
}

/// [`walk`] with the share of updates `ratio` asks for.
fn walk_updating<G: Game>(games: &[Vec<G>], widths: &[usize], steps: usize, seed: u64, ratio: u64) {
    let mut rng = rng_from_seed(seed);
    for (k, &hidden) in widths.iter().enumerate() {
        for base in ["", BASE_HAND] {
            let net = random_net(&games[0][0], hidden, seed + k as u64, base);
            let before = infer::stats();
            let mut at = (0, 0);
            for _ in 0..steps {
                at = step(games, at, &mut rng);
                let g = &games[at.0][at.1];
                check_at(&net, g, rng.random_range(0..g.players()));
            }
            let after = infer::stats();
            let (updates, rebuilds) = (
                after.updates - before.updates,
                after.rebuilds - before.rebuilds,
            );
            // Each position is evaluated twice (`with_sums`, then `evaluate`): the second time
            // the sums change by nothing.
            assert_eq!(updates + rebuilds, 2 * steps as u64);
            assert!(
                updates > ratio * rebuilds && rebuilds > 0,
                "{} updated, {} rebuilt: the walk's small steps should update",
                updates,
                rebuilds
            );
        }
    }
}

fn hyperchess(boards: &str) -> Hyperchess {
    Hyperchess::start(&RuleOptions::of::<Hyperchess>().with("Boards", boards)).unwrap()
}

#[test]
fn incremental_sums_equal_afresh_on_hyperchess_1x1() {
    let games = random_games(&hyperchess("1x1"), 30, 200, 1);
    walk(&games, &[1, 16, 33, 256], 3000, 11);
}

/// Chess on one board gives its features as words of bits (`Game::feature_words`): the sums
/// follow the bits that changed.
#[test]
fn incremental_sums_equal_afresh_on_chess() {
    let chess = Hyperchess::start(
        &RuleOptions::of::<Hyperchess>()
            .with("Boards", "1x1")
            .with("Promotions", "chess"),
    )
    .unwrap();
    assert!(chess.feature_words(&mut Vec::new()));
    let games = random_games(&chess, 30, 200, 12);
    let before = infer::stats();
    walk(&games, &[1, 16, 32, 256], 3000, 13);
    // The walk mostly steps to a neighbouring ply, so many updates start from the parent's
    // sums in the per-ply stack (`Game::lineage`), and the sums still equal afresh ones.
    let parents = infer::stats().parents - before.parents;
    assert!(
        parents > 4 * 3000 / 4,
        "{} updates from the parent",
        parents
    );
}

/// The grid's nine boards give their pieces as words of bits too (a word per board, colour and
/// type): the sums follow the bits that changed, from the parent's where the stack has it.
#[test]
fn incremental_sums_equal_afresh_on_hyperchess_3x3() {
    let games = random_games(&hyperchess("3x3"), 8, 300, 2);
    let before = infer::stats();
    walk(&games, &[8, 32, 256], 2000, 12);
    let parents = infer::stats().parents - before.parents;
    assert!(
        parents > 3 * 2000 / 4,
        "{} updates from the parent",
        parents
    );
}

#[test]
fn incremental_sums_equal_afresh_on_rithmomachia() {
    let start = Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap();
    let games = random_games(&start, 20, 200, 3);
    walk(&games, &[1, 32, 100], 3000, 13);
}

#[test]
fn incremental_sums_equal_afresh_on_tesseract() {
    let start = Tesseract::start(&RuleOptions::of::<Tesseract>()).unwrap();
    let games = random_games(&start, 20, 200, 4);
    // `tesseract/3`'s captures and moves are counted by colour × whether that side is to
    // move, which flips at every ply: a one-ply step changes most of them, and the sums are
    // rebuilt about as often as updated (3,453 updates, 2,547 rebuilds over 3,000 steps, half
    // the updates being the second look at a position). They must still be equal.
    walk_updating(&games, &[1, 32, 100], 3000, 14, 1);
}

/// Tesseris, two seats and four (an output per seat), from dealt starts.
#[test]
fn incremental_sums_equal_afresh_on_tesseris() {
    use quatre::games::tesseris::Tesseris;
    for (players, seed) in [("2", 6), ("4", 7)] {
        let opts = RuleOptions::of::<Tesseris>().with("Players", players);
        let start = Tesseris::start_with_seed(&opts, seed).unwrap();
        let games = random_games(&start, 20, 200, seed);
        walk(&games, &[1, 32, 100], 3000, 10 + seed);
    }
}

/// Three seats: a net of an output per seat, each seat scored with its own.
#[test]
fn incremental_sums_equal_afresh_on_threechess() {
    let start = Threechess::start(&RuleOptions::of::<Threechess>()).unwrap();
    let games = random_games(&start, 20, 200, 5);
    walk(&games, &[1, 32, 100], 3000, 15);
}

/// Nets used by turns on one thread: two of one game and shape, one of another game, and more
/// nets than a thread keeps sums for (so that some are dropped and made again), and a net read
/// back from its bytes (a new net with the same weights). Each gets its own sums every time.
#[test]
fn nets_used_by_turns_each_get_their_own_sums() {
    let hc = random_games(&hyperchess("1x1"), 10, 150, 5);
    let ri = random_games(
        &Rithmomachia::start(&RuleOptions::of::<Rithmomachia>()).unwrap(),
        10,
        150,
        6,
    );
    let hc_nets: Vec<Net> = (0..5)
        .map(|k| {
            random_net(
                &hc[0][0],
                24,
                100 + k,
                if k % 2 == 0 { "" } else { BASE_HAND },
            )
        })
        .collect();
    let reread = Net::from_bytes(&hc_nets[0].to_bytes()).unwrap();
    let ri_net = random_net(&ri[0][0], 24, 200, "");
    let mut rng = rng_from_seed(7);
    let (mut a, mut b) = ((0, 0), (0, 0));
    for n in 0..3000 {
        a = step(&hc, a, &mut rng);
        b = step(&ri, b, &mut rng);
        // Two nets by turns most of the time, now and then all of them.
        let used = if n % 50 < 40 { 2 } else { hc_nets.len() };
        check_at(&hc_nets[n % used], &hc[a.0][a.1], n % 2);
        check_at(&ri_net, &ri[b.0][b.1], n % 2);
        if n % 7 == 0 {
            check_at(&reread, &hc[a.0][a.1], 0);
        }
    }
}

/// On another thread, a net's sums start afresh: the thread's own sums, not another's.
#[test]
fn each_thread_keeps_its_own_sums() {
    let games = random_games(&hyperchess("1x1"), 4, 100, 8);
    let net = random_net(&games[0][0], 16, 9, "");
    let run = |from: usize| {
        for j in (from..games[1].len()).step_by(3) {
            check_at(&net, &games[1][j], 0);
        }
    };
    run(0);
    std::thread::scope(|s| {
        s.spawn(|| run(1));
        s.spawn(|| run(2));
    });
    run(1);
}
