//! Adjudication by the engines' own scores (`--adjudicate`), as cutechess's `-draw` and
//! `-resign` do: a game whose engines all agree it is dead even, or all agree one of them has
//! won, is ended early so a long match spends its time on games that are still open.

/// A mate score as centipawns: beyond any material count.
pub const MATE_CP: i32 = 100_000;

/// `--adjudicate draw=CP/K[/PLY],win=CP/K`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Draw when every seat's last K scores are within ±CP (and at least PLY plies were played).
    pub draw: Option<(i32, usize, usize)>,
    /// Win for a seat whose last K scores are all ≥ +CP while every other seat's last K scores
    /// are all ≤ −CP.
    pub win: Option<(i32, usize)>,
}

impl Adjudication {
    pub fn parse(text: &str) -> Result<Adjudication, String> {
        let bad = |why: &str| {
            format!(
                "--adjudicate takes draw=CP/K[/PLY] and/or win=CP/K separated by ',' (e.g. draw=10/8/80,win=600/4): {} in '{}'",
                why, text
            )
        };
        let num = |s: &str, what: &str| -> Result<usize, String> {
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{} '{}' is not a whole number", what, s)))
        };
        let mut a = Adjudication::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| bad("no '='"))?;
            let f: Vec<&str> = value.split('/').collect();
            let given = match key.trim() {
                "draw" => a.draw.is_some(),
                "win" => a.win.is_some(),
                _ => false,
            };
            if given {
                return Err(bad(&format!("'{}' is given twice", key.trim())));
            }
            match (key.trim(), f.len()) {
                ("draw", 2 | 3) => {
                    let cp = num(f[0], "CP")? as i32;
                    let k = num(f[1], "K")?;
                    let ply = if f.len() == 3 { num(f[2], "PLY")? } else { 0 };
                    if k == 0 {
                        return Err(bad("K must be at least 1"));
                    }
                    a.draw = Some((cp, k, ply));
                }
                ("win", 2) => {
                    let cp = num(f[0], "CP")? as i32;
                    let k = num(f[1], "K")?;
                    if k == 0 || cp == 0 {
                        return Err(bad("CP and K must be at least 1"));
                    }
                    a.win = Some((cp, k));
                }
                ("draw" | "win", _) => {
                    return Err(bad(&format!("'{}' has the wrong number of fields", part)))
                }
                (k, _) => return Err(bad(&format!("unknown rule '{}'", k))),
            }
        }
        if a.draw.is_none() && a.win.is_none() {
            return Err(bad("no rule"));
        }
        Ok(a)
    }

    /// The verdict after a move, from each seat's scores so far (one per move it made, None when
    /// it gave none) and the plies played: the rewards and a reason, or None to play on.
    pub fn verdict(&self, scores: &[Vec<Option<i32>>], plies: usize) -> Option<(Vec<f32>, String)> {
        let n = scores.len();
        let last = |seat: usize, k: usize| -> Option<Vec<i32>> {
            let s = &scores[seat];
            if s.len() < k {
                return None;
            }
            s[s.len() - k..].iter().copied().collect()
        };
        if let Some((cp, k)) = self.win {
            for w in 0..n {
                let won = last(w, k).is_some_and(|v| v.iter().all(|&x| x >= cp));
                let lost = (0..n)
                    .filter(|&o| o != w)
                    .all(|o| last(o, k).is_some_and(|v| v.iter().all(|&x| x <= -cp)));
                if won && lost {
                    let mut r = vec![0.0; n];
                    r[w] = 1.0;
                    return Some((
                        r,
                        format!(
                            "arena adjudication: p{} scored at least +{} cp for {} moves and every opponent at most -{} cp",
                            w + 1,
                            cp,
                            k,
                            cp
                        ),
                    ));
                }
            }
        }
        if let Some((cp, k, ply)) = self.draw {
            let even = (0..n).all(|s| last(s, k).is_some_and(|v| v.iter().all(|x| x.abs() <= cp)));
            if plies >= ply && even {
                return Some((
                    vec![1.0 / n as f32; n],
                    format!(
                        "arena adjudication: every engine scored within ±{} cp for {} moves",
                        cp, k
                    ),
                ));
            }
        }
        None
    }
}

/// The score of an `info` line (`score cp X` or `score mate N`), as centipawns from the side to
/// move's view (a mate as ±[`MATE_CP`]).
pub fn info_score(line: &str) -> Option<i32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|x| *x == "score")?;
    let v: i32 = w.get(i + 2)?.parse().ok()?;
    match *w.get(i + 1)? {
        "cp" => Some(v),
        "mate" if v > 0 => Some(MATE_CP - v),
        "mate" => Some(-MATE_CP - v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_refuse() {
        let a = Adjudication::parse("draw=10/8/80,win=600/4").unwrap();
        assert_eq!(a.draw, Some((10, 8, 80)));
        assert_eq!(a.win, Some((600, 4)));
        assert_eq!(
            Adjudication::parse("draw=5/3").unwrap().draw,
            Some((5, 3, 0))
        );
        for bad in [
            "",
            "draw",
            "draw=10",
            "win=600/0",
            "lose=1/2",
            "draw=a/3",
            "win=1/2/3",
        ] {
            assert!(Adjudication::parse(bad).is_err(), "{}", bad);
        }
    }

    #[test]
    fn verdicts_need_every_seat_to_agree() {
        let a = Adjudication::parse("draw=10/2/4,win=500/2").unwrap();
        let s = |v: &[&[Option<i32>]]| v.iter().map(|x| x.to_vec()).collect::<Vec<_>>();
        // Both even for two moves each, but too early, then late enough.
        let even = s(&[&[Some(3), Some(-5)], &[Some(0), Some(9)]]);
        assert!(a.verdict(&even, 3).is_none());
        assert_eq!(a.verdict(&even, 4).unwrap().0, vec![0.5, 0.5]);
        // One side silent (no score): no verdict.
        assert!(a
            .verdict(&s(&[&[Some(3), None], &[Some(0), Some(9)]]), 9)
            .is_none());
        // A win needs the loser to agree.
        let win = s(&[&[Some(600), Some(MATE_CP - 3)], &[Some(-700), Some(-800)]]);
        assert_eq!(a.verdict(&win, 9).unwrap().0, vec![1.0, 0.0]);
        let disputed = s(&[&[Some(600), Some(700)], &[Some(-700), Some(20)]]);
        assert!(a.verdict(&disputed, 9).is_none());
    }

    #[test]
    fn info_lines_give_scores() {
        assert_eq!(
            info_score("info depth 3 score cp -42 nodes 10 pv e2e4"),
            Some(-42)
        );
        assert_eq!(
            info_score("info depth 9 score mate 2 pv a b c"),
            Some(MATE_CP - 2)
        );
        assert_eq!(info_score("info depth 9 score mate -1"), Some(-MATE_CP + 1));
        assert_eq!(info_score("info string score cp"), None);
        assert_eq!(info_score("info depth 1 nodes 5"), None);
    }
}
