//! The self-play data format, version 1 (docs/learning.md): plain text, one line per game
//! followed by one line per searched position, fields separated by tabs.
//!
//! ```text
//! quatre-selfplay/1 <TAB> game <TAB> options <TAB> seed=S <TAB> index=I <TAB> nodes=K <TAB> start=… <TAB> result=r1,r2… <TAB> plies=P <TAB> positions=M <TAB> reason=…
//! ply <TAB> seat <TAB> score <TAB> move <TAB> position text
//! …
//! ```
//!
//! Every game carries its own header line, so a file is any sequence of whole games: the shards
//! of a run concatenate to the unsharded file byte for byte, and any subset of games is a file.

use std::io::BufRead;

/// The first field of a game line, with the format version.
pub const MAGIC: &str = "quatre-selfplay/1";
/// What every version's game line starts with.
const MAGIC_PREFIX: &str = "quatre-selfplay/";

/// A searched score from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (MCTS: its mean reward mapped to centipawns by the search).
    Cp(i32),
    /// Mate in this many moves: positive = the mover mates.
    Mate(i32),
    /// The search gave no score (written `-`).
    None,
}

impl Score {
    /// From the search's report.
    pub fn from_search(s: Option<crate::search::Score>) -> Score {
        match s {
            Some(crate::search::Score::Cp(c)) => Score::Cp(c),
            Some(crate::search::Score::Mate(m)) => Score::Mate(m),
            None => Score::None,
        }
    }

    /// As centipawns for adjudication (a mate as ±[`MATE_CP`](crate::arena::adjudicate::MATE_CP)
    /// less its distance), None when there is no score.
    pub fn centipawns(self) -> Option<i32> {
        use crate::arena::adjudicate::MATE_CP;
        match self {
            Score::Cp(c) => Some(c),
            Score::Mate(m) if m > 0 => Some(MATE_CP - m),
            Score::Mate(m) => Some(-MATE_CP - m),
            Score::None => None,
        }
    }

    fn write(self, out: &mut String) {
        use std::fmt::Write;
        let _ = match self {
            Score::Cp(c) => write!(out, "{}", c),
            Score::Mate(m) => write!(out, "#{}", m),
            Score::None => write!(out, "-"),
        };
    }

    fn parse(s: &str) -> Result<Score, String> {
        let bad = || format!("bad score '{}'", s);
        match s {
            "-" => Ok(Score::None),
            _ => match s.strip_prefix('#') {
                Some(m) => m.parse().map(Score::Mate).map_err(|_| bad()),
                None => s.parse().map(Score::Cp).map_err(|_| bad()),
            },
        }
    }
}

/// One searched position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// Plies played from the game's start (random opening plies included) before this position.
    pub ply: usize,
    /// The seat to move, 0-based (written 1-based, as `p1`).
    pub seat: usize,
    /// The search's score from the mover's view.
    pub score: Score,
    /// The move the search chose, in the game's notation (self-play: the move played).
    pub mv: String,
    /// The position: the game's full position text (`Game::to_text`).
    pub text: String,
}

/// One game: what it was played under, how it ended, and its searched positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    pub game: String,
    /// Every rule option, `(name, value)` in the game's order.
    pub options: Vec<(String, String)>,
    /// The run's seed (`--seed`).
    pub seed: u64,
    /// The game's number in the run (0-based); its own seed is derived from (seed, index).
    pub index: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// How the game began: `random:K` (K random plies), `openings:L` (line L of the opening file,
    /// 1-based) or `openings:L+random:K`; for `quatre label`, `record:NAME:N` (game N of the
    /// match whose file is named NAME).
    pub start: String,
    /// Each seat's final reward (sums to 1: 1 a win, 0 a loss, 0.5 each in a two-seat draw).
    pub result: Vec<f32>,
    /// Plies the game lasted.
    pub plies: usize,
    /// Why it ended (the rules' reason, a cap, or an adjudication).
    pub reason: String,
    pub positions: Vec<Position>,
}

impl GameData {
    /// Appends the game's lines (header, then one per position) to `out`.
    pub fn write(&self, out: &mut String) {
        use std::fmt::Write;
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{}={}", k, v))
            .collect();
        let result: Vec<String> = self.result.iter().map(|r| r.to_string()).collect();
        let _ = writeln!(
            out,
            "{}\t{}\t{}\tseed={}\tindex={}\tnodes={}\tstart={}\tresult={}\tplies={}\tpositions={}\treason={}",
            MAGIC,
            self.game,
            options.join(","),
            self.seed,
            self.index,
            self.nodes,
            self.start,
            result.join(","),
            self.plies,
            self.positions.len(),
            clean(&self.reason),
        );
        for p in &self.positions {
            let _ = write!(out, "{}\t{}\t", p.ply, p.seat + 1);
            p.score.write(out);
            let _ = writeln!(out, "\t{}\t{}", clean(&p.mv), clean(&p.text));
        }
    }

    /// The game's lines as a string.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
}

/// A field as written: tabs and line breaks (which no game's texts hold) become spaces.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// Parses a game line; returns the game (without positions) and how many positions follow.
fn parse_header(line: &str) -> Result<(GameData, usize), String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f[0] != MAGIC {
        return Err(match f[0].strip_prefix(MAGIC_PREFIX) {
            Some(v) => format!("format version {} (this build reads {})", v, MAGIC),
            None => format!("expected a game line starting with {}", MAGIC),
        });
    }
    if f.len() != 11 {
        return Err(format!("a game line has 11 fields, this one {}", f.len()));
    }
    let options = match f[2] {
        "" => Vec::new(),
        o => o
            .split(',')
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("bad rule option '{}'", kv))
            })
            .collect::<Result<_, _>>()?,
    };
    let field = |i: usize, key: &str| -> Result<&str, String> {
        f[i].strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .ok_or_else(|| format!("field {} should be {}=…, not '{}'", i + 1, key, f[i]))
    };
    let num = |i: usize, key: &str| -> Result<u64, String> {
        let v = field(i, key)?;
        v.parse()
            .map_err(|_| format!("{}={}: not a whole number", key, v))
    };
    let result = parse_result(field(7, "result")?)?;
    let count = num(9, "positions")? as usize;
    let g = GameData {
        game: f[1].to_string(),
        options,
        seed: num(3, "seed")?,
        index: num(4, "index")? as usize,
        nodes: num(5, "nodes")?,
        start: field(6, "start")?.to_string(),
        result,
        plies: num(8, "plies")? as usize,
        reason: field(10, "reason")?.to_string(),
        positions: Vec::with_capacity(count),
    };
    Ok((g, count))
}

/// How far the results' sum may be from 1: three-way shares written as `0.33333334` sum to
/// 1.0000001.
const RESULT_SUM_TOLERANCE: f32 = 1e-3;

/// A game line's `result=` value: each seat's reward, a number from 0 to 1, the rewards
/// summing to 1 (a game's points are shared out). Anything else (`nan`, `2,0`, `0.5,0.4`) is
/// refused: a trainer would learn it as is.
fn parse_result(s: &str) -> Result<Vec<f32>, String> {
    let result = s
        .split(',')
        .map(|r| match r.parse::<f32>() {
            Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
            Ok(_) => Err(format!(
                "result {}: each seat's result is a number from 0 to 1, not '{}'",
                s, r
            )),
            Err(_) => Err(format!("result {}: bad result '{}'", s, r)),
        })
        .collect::<Result<Vec<f32>, String>>()?;
    if result.len() < 2 {
        return Err(format!(
            "result {}: a result for each seat (two or more), comma-separated",
            s
        ));
    }
    let sum: f32 = result.iter().sum();
    if (sum - 1.0).abs() > RESULT_SUM_TOLERANCE {
        return Err(format!(
            "result {}: the seats' results sum to {}, not 1 (a win is 1,0, a draw 0.5,0.5)",
            s, sum
        ));
    }
    Ok(result)
}

fn parse_position(line: &str, players: usize) -> Result<Position, String> {
    let f: Vec<&str> = line.splitn(5, '\t').collect();
    if f.len() != 5 {
        return Err(format!(
            "a position line has 5 fields, this one {}",
            f.len()
        ));
    }
    let seat: usize = f[1].parse().map_err(|_| format!("bad seat '{}'", f[1]))?;
    if seat == 0 || seat > players {
        return Err(format!("seat {} in a game of {} seats", seat, players));
    }
    Ok(Position {
        ply: f[0].parse().map_err(|_| format!("bad ply '{}'", f[0]))?,
        seat: seat - 1,
        score: Score::parse(f[2])?,
        mv: f[3].to_string(),
        text: f[4].to_string(),
    })
}

/// Reads a file's games one at a time (a data set can be larger than memory). Errors name the
/// line.
pub struct Reader<R: BufRead> {
    lines: std::io::Lines<R>,
    line_no: usize,
}

impl<R: BufRead> Reader<R> {
    pub fn new(r: R) -> Self {
        Reader {
            lines: r.lines(),
            line_no: 0,
        }
    }

    /// The lines read so far: after a game, the line of its last position (its game line is
    /// `line() - positions.len()`).
    pub fn line(&self) -> usize {
        self.line_no
    }

    fn next_line(&mut self) -> Option<Result<String, String>> {
        let l = self.lines.next()?;
        self.line_no += 1;
        Some(l.map_err(|e| format!("line {}: {}", self.line_no, e)))
    }

    fn next_game(&mut self) -> Option<Result<GameData, String>> {
        let line = match self.next_line()? {
            Ok(l) => l,
            Err(e) => return Some(Err(e)),
        };
        let at = self.line_no;
        let (mut g, count) = match parse_header(&line) {
            Ok(h) => h,
            Err(e) => return Some(Err(format!("line {}: {}", at, e))),
        };
        for _ in 0..count {
            let line = match self.next_line() {
                Some(Ok(l)) => l,
                Some(Err(e)) => return Some(Err(e)),
                None => {
                    return Some(Err(format!(
                        "line {}: the game has {} positions, the file ends after {}",
                        at,
                        count,
                        g.positions.len()
                    )))
                }
            };
            match parse_position(&line, g.result.len()) {
                Ok(p) => g.positions.push(p),
                Err(e) => return Some(Err(format!("line {}: {}", self.line_no, e))),
            }
        }
        Some(Ok(g))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameData, String>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// Every game of a data file. Errors name the file and the line.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameData>, String> {
    Ok(read_file_at(path)?.into_iter().map(|(g, _)| g).collect())
}

/// Where a game was read: its file (as the user named it) and the line of its game line
/// (1-based). Its positions follow it, so position `k` (0-based) is on line `line + 1 + k`:
/// messages about a game or a position can name the file and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: std::sync::Arc<str>,
    pub line: usize,
}

impl Origin {
    /// `FILE: line N`, the game line.
    pub fn game(&self) -> String {
        format!("{}: line {}", self.file, self.line)
    }

    /// `FILE: line N`, the line of the game's position `k` (0-based).
    pub fn position(&self, k: usize) -> String {
        format!("{}: line {}", self.file, self.line + 1 + k)
    }
}

/// Where game `gd` (or, with `pos`, its position of that index) is, for messages: the file and
/// line when it was read from one (`origin`), else its index and seed (data built in memory).
/// A position is named with its ply too: `FILE: line N (ply P)`.
pub fn place(gd: &GameData, origin: Option<&Origin>, pos: Option<usize>) -> String {
    let ply = |k: usize| gd.positions.get(k).map_or(k, |p| p.ply);
    match (origin, pos) {
        (Some(o), None) => o.game(),
        (Some(o), Some(k)) => format!("{} (ply {})", o.position(k), ply(k)),
        (None, None) => format!("game {} of seed {}", gd.index, gd.seed),
        (None, Some(k)) => format!("game {} of seed {} ply {}", gd.index, gd.seed, ply(k)),
    }
}

/// Refuses a game given twice (one file twice, or a run's shard files with their merged file):
/// training would count its positions twice. The same game is the same game line and the same
/// position lines, byte for byte (another file of the same games, e.g. searched again by
/// `quatre label --data` or mirrored, differs in its header or its positions and is kept).
pub fn check_each_once<'a>(
    games: impl IntoIterator<Item = (&'a GameData, &'a Origin)>,
) -> Result<(), String> {
    use std::collections::HashMap;
    use std::hash::{Hash, Hasher};
    let mut seen: HashMap<u64, (&GameData, &Origin)> = HashMap::new();
    // A game that wrote no position carries no data: two such games of the same header
    // (e.g. two `label` runs on records of one name) are not a repeat that matters.
    for (g, o) in games.into_iter().filter(|(g, _)| !g.positions.is_empty()) {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&g.game, &g.options, g.seed, g.index, g.nodes, &g.start).hash(&mut h);
        g.result.iter().for_each(|r| r.to_bits().hash(&mut h));
        (g.plies, &g.reason, g.positions.len()).hash(&mut h);
        for p in &g.positions {
            (p.ply, p.seat, &p.mv, &p.text).hash(&mut h);
            p.score.hash(&mut h);
        }
        match seen.entry(h.finish()) {
            std::collections::hash_map::Entry::Occupied(e) if e.get().0 == g => {
                let before = e.get().1;
                return Err(format!(
                    "{}: game index={} seed={} is {} line {} again: give each game once (a run's shards or its merged file, not both)",
                    o.game(),
                    g.index,
                    g.seed,
                    before.file,
                    before.line
                ));
            }
            // Another game of the same hash (a chance of one in 2^64): not a repeat.
            std::collections::hash_map::Entry::Occupied(_) => {}
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert((g, o));
            }
        }
    }
    Ok(())
}

/// Every game of a data file with where it was read. Errors name the file and the line.
pub fn read_file_at(path: &std::path::Path) -> Result<Vec<(GameData, Origin)>, String> {
    let f =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let file: std::sync::Arc<str> = path.display().to_string().into();
    let mut r = Reader::new(std::io::BufReader::new(f));
    let mut games = Vec::new();
    while let Some(g) = r.next() {
        let g = g.map_err(|e| format!("{}: {}", file, e))?;
        let line = r.line() - g.positions.len();
        games.push((
            g,
            Origin {
                file: file.clone(),
                line,
            },
        ));
    }
    Ok(games)
}

/// Every game of a data set held in memory.
pub fn read_str(text: &str) -> Result<Vec<GameData>, String> {
    Reader::new(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameData {
        GameData {
            game: "threechess".into(),
            options: vec![("MaxPlies".into(), "300".into())],
            seed: 7,
            index: 3,
            nodes: 200,
            start: "random:4".into(),
            result: vec![1.0 / 3.0; 3],
            plies: 6,
            reason: "MaxPlies".into(),
            positions: vec![
                Position {
                    ply: 4,
                    seat: 1,
                    score: Score::Mate(-2),
                    mv: "a1b2".into(),
                    text: "x y z".into(),
                },
                Position {
                    ply: 5,
                    seat: 2,
                    score: Score::None,
                    mv: "c3".into(),
                    text: "w".into(),
                },
            ],
        }
    }

    #[test]
    fn a_game_round_trips_and_a_cut_file_is_an_error() {
        let g = sample();
        let text = g.to_text() + &g.to_text();
        let back = read_str(&text).unwrap();
        assert_eq!(back, vec![g.clone(), g.clone()]);
        let cut: String = text.lines().take(2).map(|l| format!("{}\n", l)).collect();
        assert!(read_str(&cut).unwrap_err().contains("file ends"));
        let v2 = text.replacen("quatre-selfplay/1", "quatre-selfplay/2", 1);
        assert!(read_str(&v2).unwrap_err().contains("version 2"));
        assert_eq!(Score::parse("#-3"), Ok(Score::Mate(-3)));
        assert!(Score::parse("3x").is_err());
    }

    /// A result is each seat's share of the game's points: a number from 0 to 1, the shares
    /// summing to 1. Anything else is refused with its line (a trainer would learn it as is).
    #[test]
    fn results_that_are_not_shares_of_one_are_refused() {
        let text = sample().to_text();
        let third = "result=0.33333334,0.33333334,0.33333334";
        assert!(text.contains(third), "{}", text);
        for (bad, says) in [
            ("result=nan,nan,nan", "from 0 to 1, not 'nan'"),
            ("result=inf,0,0", "from 0 to 1, not 'inf'"),
            ("result=2,0,0", "from 0 to 1, not '2'"),
            ("result=-0.5,1,0.5", "from 0 to 1, not '-0.5'"),
            ("result=0.5,0.25,0", "sum to 0.75, not 1"),
            ("result=1,1,0", "sum to 2, not 1"),
            ("result=1", "a result for each seat"),
            ("result=x,0,1", "bad result 'x'"),
        ] {
            let e = read_str(&text.replacen(third, bad, 1)).unwrap_err();
            assert!(
                e.starts_with("line 1: ") && e.contains(says),
                "{}: {}",
                bad,
                e
            );
        }
        for good in [
            "result=1,0,0",
            "result=0,0.5,0.5",
            "result=0.3334,0.3333,0.3333",
        ] {
            assert!(read_str(&text.replacen(third, good, 1)).is_ok(), "{}", good);
        }
    }

    /// The same game twice is refused; two games that wrote no position are not (they carry no
    /// data, and two `label` runs may give such games the same header).
    #[test]
    fn a_game_is_refused_twice_unless_it_wrote_nothing() {
        let at = |line| Origin {
            file: "a.txt".into(),
            line,
        };
        let g = sample();
        let (o1, o2) = (at(1), at(9));
        let e = check_each_once([(&g, &o1), (&g, &o2)]).unwrap_err();
        assert!(e.contains("is a.txt line 1 again"), "{}", e);
        let empty = GameData {
            positions: Vec::new(),
            ..sample()
        };
        assert!(check_each_once([(&empty, &o1), (&empty, &o2)]).is_ok());
    }
}
