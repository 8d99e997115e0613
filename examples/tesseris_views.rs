//! Along recorded tesseris games (`quatre match --out`), at every turn of the engine named on
//! the command line: the game number, the ply, the observation that seat was given, the same
//! observation with every other hand's cards written out (what a seat seeing the other hands
//! would know; the deck stays unknown) and the move played, tab-separated. Used by
//! docs/tools/tesseris_choices.py to compare a search's choices with and without the hands in
//! view (docs/results.md, 2026-12-05 (late morning)).
//!
//! cargo run --release --example tesseris_views -- games.jsonl mcts > views.tsv
use quatre::game::{Game, RuleOptions};
use quatre::games::tesseris::Tesseris;
use std::io::BufRead;

/// The value of `key` (e.g. `hands=`) in a position text.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    let rest = &text[text.find(key).map_or(text.len(), |i| i + key.len())..];
    &rest[..rest.find(' ').unwrap_or(rest.len())]
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, who] = &args[..] else {
        return Err("usage: tesseris_views GAMES.jsonl ENGINE_NAME".into());
    };
    let f = std::fs::File::open(file).map_err(|e| format!("{}: {}", file, e))?;
    let opts = RuleOptions::of::<Tesseris>();
    for (number, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let (Some(start), Some(seats), Some(moves)) = (
            v["start"].as_str(),
            v["seats"].as_array(),
            v["moves"].as_array(),
        ) else {
            continue; // the match's header
        };
        let mut g = Tesseris::from_text(start, &opts)?;
        for (ply, m) in moves.iter().enumerate() {
            let m = m.as_str().ok_or("a move is not text")?;
            let s = g.to_move();
            if seats[s].as_str() == Some(who.as_str()) {
                let seen = g.observation_text(s);
                let full = g.to_text();
                let real: Vec<&str> = field(&full, "hands=").split('/').collect();
                let shown: Vec<&str> = field(&seen, "hands=").split('/').collect();
                let open: Vec<String> = (0..real.len())
                    .map(|t| {
                        if t == s {
                            return shown[t].to_string();
                        }
                        // A full state's card is written with who knows it (`O5@2!`): the card
                        // is its first two characters.
                        let cards: Vec<&str> = real[t].split(',').map(|c| &c[..2]).collect();
                        cards.join(",")
                    })
                    .collect();
                let open_text = seen.replace(
                    &format!("hands={}", shown.join("/")),
                    &format!("hands={}", open.join("/")),
                );
                println!("{}\t{}\t{}\t{}\t{}", number, ply, seen, open_text, m);
            }
            g.play(g.parse_move(m)?);
        }
    }
    Ok(())
}
