use quatre::game::*;
use quatre::games::tesseris::*;

fn opts(players: usize) -> RuleOptions {
    RuleOptions::of::<Tesseris>().with("Players", &players.to_string())
}

#[test]
fn smoke() {
    let g = Tesseris::start(&opts(2)).unwrap();
    println!(
        "{}\n{}\n{}",
        g.to_text(),
        g.observation_text(0),
        g.display()
    );
    let mut rng = rng_from_seed(1);
    let mut buf = Vec::new();
    for p in 2..=4 {
        let mut tot = 0;
        let mut draws = 0;
        for s in 0..20 {
            let mut g = Tesseris::start_with_seed(&opts(p), s).unwrap();
            tot += random_playout(&mut g, &mut rng, 100000, &mut buf);
            if let Status::Over(o) = g.status() {
                if o.reason == "MaxPlies" {
                    draws += 1
                }
            }
        }
        println!("{} players: avg plies {} maxplies {}", p, tot / 20, draws);
    }
}
