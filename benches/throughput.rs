//! `cargo bench`: move generation (perft), random playouts, MCTS and alpha-beta on every game,
//! alpha-beta with nets on the games with features, then MCTS throughput with 1 and 2 threads.
//! The same items as `quatre bench --scaling 2000`.

fn main() {
    // cargo passes `--bench`; a game name may follow to bench only that game.
    let game = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let print = |s: &str| println!("{}", s);
    println!(
        "machine: {} cores",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    if let Err(e) = quatre::bench::run(game.as_deref(), 1, 20_000, &print) {
        eprintln!("error: {}", e);
    }
    if let Err(e) = quatre::bench::scaling(game.as_deref(), 2, 2000, &print) {
        eprintln!("error: {}", e);
    }
}
