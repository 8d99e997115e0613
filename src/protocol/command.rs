//! Parsing a protocol line into a [`Command`]. Every malformed line becomes an `Err` with a
//! message a person can act on — except a malformed `position`, which becomes a `Position`
//! with [`PositionSpec::Refused`], so that it leaves no position, as a refused position does;
//! nothing here panics.

use crate::search::Limits;

#[derive(Clone, Debug, PartialEq)]
pub enum PositionSpec {
    /// `startpos`, optionally dealt from a seed (games with chance).
    Start { seed: Option<u64> },
    /// `fen <text>`: the game's position text.
    Text(String),
    /// A `position` line that could not be read (the message says why): it is refused like
    /// a position the game rejects, in its turn among the other commands, so the engine keeps
    /// no position after it.
    Refused(String),
}

#[derive(Clone, Debug)]
pub enum Command {
    Uci,
    Ugi,
    /// `debug on` / `debug off`.
    Debug(bool),
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: String,
    },
    Position {
        spec: PositionSpec,
        moves: Vec<String>,
    },
    /// `go`; `warnings` are tokens that were not understood and were ignored.
    Go {
        limits: Limits,
        warnings: Vec<String>,
    },
    Stop,
    PonderHit,
    Quit,
    Display,
    Moves,
    Perft {
        depth: u32,
    },
    Eval,
    Query(Query),
    /// A `query` that is not one (unknown, malformed): answered, in its turn among the commands
    /// waiting, with this error and `response none`.
    BadQuery(String),
    Help,
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    GameOver,
    /// `query p<k>turn`: is it seat k-1's turn?
    Turn(usize),
    Result,
}

/// Parses one line (already stripped of its line ending).
pub fn parse(line: &str) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return Ok(Command::Nothing);
    };
    let rest = &tokens[1..];
    let cmd = first.to_ascii_lowercase();
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!(
                "'{}' takes no arguments, got '{}'",
                first,
                rest.join(" ")
            ))
        }
    };
    match cmd.as_str() {
        "uci" => no_args(Command::Uci),
        "ugi" => no_args(Command::Ugi),
        "isready" => no_args(Command::IsReady),
        "debug" => match rest {
            [w] if w.eq_ignore_ascii_case("on") => Ok(Command::Debug(true)),
            [w] if w.eq_ignore_ascii_case("off") => Ok(Command::Debug(false)),
            _ => Err("usage: debug on | debug off".into()),
        },
        "ucinewgame" | "uginewgame" => no_args(Command::NewGame),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => Ok(parse_go(rest)),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" | "exit" => no_args(Command::Quit),
        "d" | "display" => no_args(Command::Display),
        "moves" => no_args(Command::Moves),
        "eval" => no_args(Command::Eval),
        "help" => Ok(Command::Help),
        "perft" => match rest {
            [d] => d
                .parse::<u32>()
                .ok()
                .filter(|&d| d <= 20)
                .map(|depth| Command::Perft { depth })
                .ok_or_else(|| format!("perft takes a depth from 0 to 20, not '{}'", d)),
            _ => Err("usage: perft <depth>".into()),
        },
        "query" => parse_query(rest),
        _ => Err(format!(
            "unknown command '{}' (try 'help')",
            truncate(first)
        )),
    }
}

fn truncate(s: &str) -> String {
    crate::truncate_to(s, 40)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    if rest.first().map(|t| t.to_ascii_lowercase()) != Some("name".into()) {
        return Err("usage: setoption name <name> [value <value>]".into());
    }
    let vpos = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let name_tokens = &rest[1..vpos.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let value = match vpos {
        Some(p) => rest[p + 1..].join(" "),
        None => String::new(),
    };
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

/// `position …`: always a `Position` command; a line that cannot be read gives
/// [`PositionSpec::Refused`], so that it leaves no position, like any refused position.
fn parse_position(rest: &[&str]) -> Result<Command, String> {
    Ok(
        read_position_args(rest).unwrap_or_else(|e| Command::Position {
            spec: PositionSpec::Refused(e),
            moves: Vec::new(),
        }),
    )
}

fn read_position_args(rest: &[&str]) -> Result<Command, String> {
    let usage = "usage: position startpos [seed <n>] [moves <m1> <m2> …] | position fen <text> [moves <m1> …]";
    let Some(kind) = rest.first() else {
        return Err(usage.into());
    };
    let mpos = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    if mpos == Some(0) {
        return Err(format!(
            "position: 'moves' needs a position before it; {}",
            usage
        ));
    }
    let body = &rest[1..mpos.unwrap_or(rest.len())];
    let moves: Vec<String> = match mpos {
        Some(p) => rest[p + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let spec = match kind.to_ascii_lowercase().as_str() {
        "startpos" => match body {
            [] => PositionSpec::Start { seed: None },
            [s, n] if s.eq_ignore_ascii_case("seed") => PositionSpec::Start {
                seed: Some(n.parse().map_err(|_| {
                    format!("position startpos seed takes an integer, not '{}'", n)
                })?),
            },
            _ => {
                return Err(format!(
                    "unexpected '{}' after startpos; {}",
                    body.join(" "),
                    usage
                ))
            }
        },
        "fen" => {
            if body.is_empty() {
                return Err("position fen: the position text is missing".into());
            }
            PositionSpec::Text(body.join(" "))
        }
        _ => {
            // Quoted as the client wrote it (the match above ignores case).
            return Err(format!(
                "position: expected 'startpos' or 'fen', not '{}'; {}",
                truncate(kind),
                usage
            ));
        }
    };
    Ok(Command::Position { spec, moves })
}

/// The search time given to a `go` whose limits could not be read (and that gave no other
/// limit and did not say `infinite`): it must end by itself.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

/// Parses `go` arguments; never fails — tokens it cannot use are returned as warnings, and a
/// `go` that asked for a limit it did not spell right searches [`FALLBACK_MOVETIME_MS`] rather
/// than for ever (the last warning says so).
pub fn parse_go(rest: &[&str]) -> Command {
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let takes_value = GO_VALUE_FIELDS.contains(&key.as_str()) || seat_field(&key).is_some();
        if takes_value {
            let Some(v) = rest.get(i + 1) else {
                warnings.push(format!("'{}' needs a value", key));
                break;
            };
            let is_clock = matches!(key.as_str(), "wtime" | "btime")
                || matches!(seat_field(&key), Some((_, false)));
            let parsed = match v.parse::<i64>() {
                // Clocks can go negative in some GUIs when a flag falls: read as 0.
                Ok(n) if n < 0 && is_clock => Ok(0),
                Ok(n) if n < 0 => Err("a negative number"),
                Ok(n) if key == "movestogo" && n == 0 => Err("0 moves (at least 1)"),
                Ok(n) => Ok(n as u64),
                Err(_) if is_integer_text(v) => Err("too large"),
                Err(_) => Err("not an integer"),
            };
            match parsed {
                Err(why) => {
                    warnings.push(format!("'{} {}': {}", key, truncate(v), why));
                }
                Ok(n) => match key.as_str() {
                    "wtime" => limits.time[0] = Some(n),
                    "btime" => limits.time[1] = Some(n),
                    "winc" => limits.inc[0] = Some(n),
                    "binc" => limits.inc[1] = Some(n),
                    "movestogo" => limits.movestogo = Some(n),
                    "movetime" => limits.movetime = Some(n),
                    "depth" => limits.depth = Some(n.clamp(1, 127) as u32),
                    "nodes" => limits.nodes = Some(n.max(1)),
                    "mate" if n >= 1 => limits.mate = Some(n.min(63) as u32),
                    "mate" => {
                        warnings.push(format!("'mate {}': a mate takes at least 1 move", v));
                    }
                    _ => match seat_field(&key) {
                        Some((seat, true)) => limits.inc[seat] = Some(n),
                        Some((seat, false)) => limits.time[seat] = Some(n),
                        None => {}
                    },
                },
            }
            i += 2;
        } else {
            match key.as_str() {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    // The moves run to the next keyword (or the end of the line).
                    i += 1;
                    while i < rest.len() && !is_go_keyword(&rest[i].to_ascii_lowercase()) {
                        limits.searchmoves.push(rest[i].to_string());
                        i += 1;
                    }
                    if limits.searchmoves.is_empty() {
                        warnings.push("'searchmoves' names no move; searching every move".into());
                    }
                    continue;
                }
                _ => warnings.push(format!("unknown go parameter '{}'", truncate(&key))),
            }
            i += 1;
        }
    }
    // Increments or `movestogo` without a clock time describe no time to think: rather than
    // search until `stop`, such a `go` gets the fallback time.
    let clockless = limits.time.iter().all(|t| t.is_none())
        && (limits.inc.iter().any(|t| t.is_some()) || limits.movestogo.is_some());
    if clockless && !limits.infinite && limits.is_unlimited() {
        limits.movetime = Some(FALLBACK_MOVETIME_MS);
        warnings.push(format!(
            "increments and movestogo need a clock time (wtime, btime, p<k>time); searching {} ms instead",
            FALLBACK_MOVETIME_MS
        ));
    }
    // Bare `go` searches until `stop` (UCI); a `go` with anything the engine could not use must
    // end by itself unless it said `infinite`.
    if !warnings.is_empty() && !limits.infinite && limits.is_unlimited() {
        limits.movetime = Some(FALLBACK_MOVETIME_MS);
        warnings.push(format!(
            "no usable limit, searching {} ms instead",
            FALLBACK_MOVETIME_MS
        ));
    }
    Command::Go { limits, warnings }
}

/// An optional minus sign and digits only: an integer, however large.
fn is_integer_text(v: &str) -> bool {
    let digits = v.strip_prefix('-').unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The `go` fields followed by a number (besides `p<k>time`, `p<k>inc`).
const GO_VALUE_FIELDS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
];

/// Words that start a new field of `go` (and so end a `searchmoves` list).
fn is_go_keyword(t: &str) -> bool {
    GO_VALUE_FIELDS.contains(&t)
        || matches!(t, "infinite" | "ponder" | "searchmoves")
        || seat_field(t).is_some()
}

/// `p<k>time` → (k-1, false), `p<k>inc` → (k-1, true), for k in 1..=4.
fn seat_field(key: &str) -> Option<(usize, bool)> {
    let rest = key.strip_prefix('p')?;
    let digit = rest.chars().next()?.to_digit(10)? as usize;
    if !(1..=4).contains(&digit) {
        return None;
    }
    match &rest[1..] {
        "time" => Some((digit - 1, false)),
        "inc" => Some((digit - 1, true)),
        _ => None,
    }
}

fn parse_query(rest: &[&str]) -> Result<Command, String> {
    let usage = "usage: query gameover | query p1turn (… p4turn) | query result";
    match rest {
        [q] => {
            let q = q.to_ascii_lowercase();
            match q.as_str() {
                "gameover" => Ok(Command::Query(Query::GameOver)),
                "result" => Ok(Command::Query(Query::Result)),
                _ => {
                    let seat = q
                        .strip_prefix('p')
                        .and_then(|r| r.strip_suffix("turn"))
                        .and_then(|d| d.parse::<usize>().ok());
                    match seat {
                        Some(k) if (1..=4).contains(&k) => Ok(Command::Query(Query::Turn(k - 1))),
                        _ => Err(format!("unknown query '{}'; {}", truncate(&q), usage)),
                    }
                }
            }
        }
        _ => Err(usage.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position text sent without `fen` is refused with the client's own words (case kept).
    #[test]
    fn a_position_without_fen_is_quoted_as_sent() {
        let Ok(Command::Position {
            spec: PositionSpec::Refused(e),
            ..
        }) = parse("position 1,bK,6/8 w aaa")
        else {
            panic!("not refused")
        };
        assert!(e.contains("not '1,bK,6/8'"), "{}", e);
    }

    #[test]
    fn go_reads_uci_and_ugi_clock_fields() {
        let Command::Go { limits, warnings } =
            parse("go wtime 1000 btime 2000 winc 10 binc 20 p3time 5 p4inc 7 movestogo 9").unwrap()
        else {
            panic!()
        };
        assert!(warnings.is_empty());
        assert_eq!(limits.time, [Some(1000), Some(2000), Some(5), None]);
        assert_eq!(limits.inc, [Some(10), Some(20), None, Some(7)]);
        assert_eq!(limits.movestogo, Some(9));
    }

    #[test]
    fn go_reports_negative_and_oversized_numbers() {
        for (line, why) in [
            ("go movetime -5", "'movetime -5': a negative number"),
            ("go depth -1", "'depth -1': a negative number"),
            ("go nodes -100", "'nodes -100': a negative number"),
            ("go mate -2", "'mate -2': a negative number"),
            ("go wtime 100 winc -50", "'winc -50': a negative number"),
            (
                "go wtime 100 movestogo 0",
                "'movestogo 0': 0 moves (at least 1)",
            ),
            (
                "go wtime 100 movestogo -3",
                "'movestogo -3': a negative number",
            ),
            (
                "go movetime 18446744073709551615",
                "'movetime 18446744073709551615': too large",
            ),
            ("go nodes 1e6", "'nodes 1e6': not an integer"),
        ] {
            let Command::Go { warnings, limits } = parse(line).unwrap() else {
                panic!()
            };
            assert_eq!(warnings[0], why, "{}", line);
            assert!(!limits.is_unlimited(), "{} must end by itself", line);
            assert_eq!(limits.inc[0], None, "{}", line);
            assert_eq!(limits.movestogo, None, "{}", line);
        }
        // A clock gone negative (a GUI whose flag fell) is read as 0, without a word.
        let Command::Go { warnings, limits } = parse("go wtime -20 btime 500 p3time -1").unwrap()
        else {
            panic!()
        };
        assert!(warnings.is_empty());
        assert_eq!(limits.time, [Some(0), Some(500), Some(0), None]);
    }

    #[test]
    fn go_reports_what_it_ignores() {
        let Command::Go { warnings, limits } = parse("go movetime abc depth 3 frobnicate").unwrap()
        else {
            panic!()
        };
        assert_eq!(warnings.len(), 2);
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.movetime, None, "depth 3 is a usable limit");
    }

    #[test]
    fn a_go_with_an_unreadable_limit_still_ends_by_itself() {
        for line in [
            "go movetime abc",
            "go depth banana",
            "go nodes",
            "go mate 0",
            "go wtime x btime y",
        ] {
            let Command::Go { limits, warnings } = parse(line).unwrap() else {
                panic!()
            };
            assert_eq!(limits.movetime, Some(FALLBACK_MOVETIME_MS), "{}", line);
            assert!(!limits.is_unlimited(), "{}", line);
            assert!(warnings.last().unwrap().contains("instead"), "{}", line);
        }
        // Bare `go` and `go infinite` keep their UCI meaning: search until `stop`.
        for line in ["go", "go infinite", "go infinite movetime x"] {
            let Command::Go { limits, .. } = parse(line).unwrap() else {
                panic!()
            };
            assert!(limits.is_unlimited(), "{}", line);
        }
    }

    #[test]
    fn increments_or_movestogo_without_a_clock_get_the_fallback_time() {
        for line in [
            "go winc 100",
            "go movestogo 10",
            "go winc 100 binc 100",
            "go p3inc 5",
        ] {
            let Command::Go { limits, warnings } = parse(line).unwrap() else {
                panic!()
            };
            assert_eq!(limits.movetime, Some(FALLBACK_MOVETIME_MS), "{}", line);
            assert!(warnings.last().unwrap().contains("clock time"), "{}", line);
        }
        // With a clock, another limit, or `infinite`, nothing is added.
        for line in [
            "go wtime 100 winc 100",
            "go winc 100 depth 3",
            "go infinite movestogo 5",
        ] {
            let Command::Go { limits, warnings } = parse(line).unwrap() else {
                panic!()
            };
            assert_eq!(limits.movetime, None, "{}", line);
            assert!(warnings.is_empty(), "{}", line);
        }
    }

    #[test]
    fn debug_takes_on_or_off() {
        assert!(matches!(parse("debug on").unwrap(), Command::Debug(true)));
        assert!(matches!(parse("DEBUG Off").unwrap(), Command::Debug(false)));
        assert!(parse("debug").is_err());
        assert!(parse("debug maybe").is_err());
    }

    /// Thousands of random `go` lines: each parses, and none searches for ever unless it said
    /// `infinite` or was a clean UCI `go` with no limit.
    #[test]
    fn no_random_go_line_searches_for_ever_unasked() {
        let words = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
            "mate",
            "infinite",
            "ponder",
            "searchmoves",
            "p3time",
            "p2inc",
            "e2e4",
            "abc",
            "-5",
            "0",
            "7",
            "99999999999999999999999",
            "",
            "banana",
            "1e3",
            "d2d4",
        ];
        let mut seed = 7u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let n = (next() % 6) as usize;
            let toks: Vec<&str> = (0..n)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect();
            let line = format!("go {}", toks.join(" "));
            let Command::Go { limits, warnings } = parse(&line).unwrap() else {
                panic!("{}", line)
            };
            if limits.is_unlimited() {
                assert!(
                    limits.infinite || warnings.is_empty(),
                    "'{}' would search for ever: {:?}",
                    line,
                    warnings
                );
            }
        }
    }

    #[test]
    fn go_reads_mate_searchmoves_and_ponder() {
        let Command::Go { limits, warnings } =
            parse("go ponder wtime 100 searchmoves e2e4 d2d4 mate 3 btime 200").unwrap()
        else {
            panic!()
        };
        assert!(warnings.is_empty(), "{:?}", warnings);
        assert!(limits.ponder);
        assert_eq!(limits.mate, Some(3));
        assert_eq!(limits.max_depth(), Some(5));
        assert_eq!(limits.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(limits.time[1], Some(200));
    }

    #[test]
    fn setoption_names_may_have_spaces_and_values_may_be_empty() {
        match parse("setoption name Clear Hash").unwrap() {
            Command::SetOption { name, value } => {
                assert_eq!((name.as_str(), value.as_str()), ("Clear Hash", ""))
            }
            _ => panic!(),
        }
        match parse("SETOPTION name threads VALUE 2").unwrap() {
            Command::SetOption { name, value } => {
                assert_eq!((name.as_str(), value.as_str()), ("threads", "2"))
            }
            _ => panic!(),
        }
    }

    #[test]
    fn position_forms() {
        match parse("position fen a b c moves x y").unwrap() {
            Command::Position {
                spec: PositionSpec::Text(t),
                moves,
            } => {
                assert_eq!(t, "a b c");
                assert_eq!(moves, vec!["x", "y"]);
            }
            _ => panic!(),
        }
        assert!(matches!(
            parse("position startpos seed 7").unwrap(),
            Command::Position {
                spec: PositionSpec::Start { seed: Some(7) },
                ..
            }
        ));
        // A malformed `position` is a refused one (it clears the position in its turn).
        for bad in [
            "position",
            "position fen",
            "position fen moves e2e4",
            "position startpos seed x",
            "position startpos seed",
            "position startpos extra",
            "position startpos seed 5 seed 6",
            "position bogus",
            "position moves e2e4",
        ] {
            match parse(bad) {
                Ok(Command::Position {
                    spec: PositionSpec::Refused(why),
                    moves,
                }) => assert!(!why.is_empty() && moves.is_empty(), "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn queries_and_errors() {
        assert!(matches!(
            parse("query p2turn").unwrap(),
            Command::Query(Query::Turn(1))
        ));
        assert!(parse("query p5turn").is_err());
        assert!(parse("query").is_err());
        assert!(parse("frobnicate").is_err());
        assert!(parse("isready now").is_err());
        assert!(parse("perft x").is_err());
        assert!(matches!(parse("   ").unwrap(), Command::Nothing));
    }
}
