use quatre::game::*;
use quatre::games::hyperchess::*;

fn opts(boards: &str) -> RuleOptions {
    RuleOptions::of::<Hyperchess>().with("Boards", boards)
}

#[test]
fn quick() {
    let g = Hyperchess::from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", &opts("1x1")).unwrap();
    for d in 1..=4 { println!("{} {}", d, perft(&g, d)); }
    let g = Hyperchess::start(&opts("3x3")).unwrap();
    println!("{}", g.display());
    println!("{}", g.to_text());
    for d in 1..=2 { println!("{} {}", d, perft(&g, d)); }
}
