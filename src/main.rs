//! The `quatre` command: the protocol loop by default; `analyse`, `perft`, `bench`, `match`,
//! `selfplay` and the other subcommands.

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand};
use quatre::games::{self, AnyGame};
use quatre::protocol;
use quatre::search::{params, Limits, SearchParams};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

// Output. A closed stdout (`quatre perft … | head -1`: the reader has what it wanted) ends the
// command quietly and successfully, like a command killed by SIGPIPE but without the noise.
// SIGPIPE itself stays ignored (Rust's default) rather than reset to "terminate": `quatre match`
// writes to engines' pipes, and an engine that exits must cost that engine its game (a write
// error), not kill the arena.

/// Prints `line` on stdout; ends the process when stdout cannot be written (see above).
fn say(line: &str) {
    let r = {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", line).and_then(|()| out.flush())
    };
    if let Err(e) = r {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        note(&format!("error: cannot write the output: {}", e));
        std::process::exit(2);
    }
}

/// Prints `line` on stderr, if stderr can still be written.
fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "{}", line);
}

/// `--threads` (as the protocol's Threads option): 1 to 256.
fn threads_parser() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(1..=256)
}

#[derive(Parser)]
#[command(
    name = "quatre",
    version,
    about = "A game-AI engine for hyperchess, rithmomachia, tesseract, tesseris and threechess.\n\
With no subcommand it speaks the UCI/UGI-style protocol on stdin/stdout (see protocol.md)."
)]
struct Cli {
    /// The ruleset to load (hyperchess, rithmomachia, tesseract, tesseris, threechess).
    #[arg(long, global = true)]
    game: Option<String>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Analyse a position: its diagram, the search's info lines, a summary and the best move
    /// (or JSON with --json; a picture with --svg).
    Analyse(AnalyseArgs),
    /// Count the leaves of the legal-move tree.
    Perft(PerftArgs),
    /// Fixed benchmark: perft, random playouts, MCTS and alpha-beta on each game.
    Bench(BenchArgs),
    /// Play engines against each other with a referee (see `quatre match --help`).
    Match(quatre::arena::MatchArgs),
    /// Draw a position as an SVG picture (stdout, or --out FILE): the last of --moves highlighted,
    /// optionally an arrow for a move.
    Draw(DrawArgs),
    /// Serve a board in the browser: play the engine, see its analysis, replay match files.
    Serve(ServeArgs),
    /// Write an opening file for `match --openings`: distinct random openings, optionally balanced.
    Openings(OpeningsArgs),
    /// The results table of recorded games (`match --out` files; the shards of one match merge),
    /// naming the games or shards missing; fails when games did not start.
    Stats(StatsArgs),
    /// A recorded game (`match --out` file) move by move, with a diagram after each move.
    Replay(ReplayArgs),
    /// Training data: the engine plays itself at a fixed node count and writes every searched
    /// position with its score, the move and the game's result (see docs/learning.md).
    Selfplay(quatre::learn::SelfplayArgs),
    /// Training data from recorded games (`match --out` files, e.g. against another engine):
    /// the engine searches the positions along them and writes each with its score and move
    /// and the game's result, as selfplay does (see docs/learning.md).
    Label(quatre::learn::label::LabelArgs),
    /// Train a learned evaluation (a net file) on self-play data (docs/learning.md).
    Train(quatre::learn::cli::TrainArgs),
    /// Train a move policy (MCTS's priors) on the moves the self-play searches chose
    /// (docs/learning.md, "The policy").
    TrainPolicy(quatre::learn::policy_train::PolicyArgs),
}

#[derive(Args)]
struct DrawArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The seat whose view is drawn (1 = p1): the board faces it, and hidden-information games
    /// show that seat's hand; default: the board as the notation writes it, the seat to move's hand
    /// (a tesseris observation: its own seat's).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4))]
    seat: Option<u64>,
    /// A move to draw as an arrow (a legal move of the drawn position).
    #[arg(long, value_name = "MOVE")]
    arrow: Option<String>,
    /// Draw the board from the other side (board games; a tesseris picture faces --seat).
    #[arg(long)]
    flip: bool,
    /// Write the picture to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (localhost by default; 0.0.0.0 opens it to the network).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
}

#[derive(Args)]
struct OpeningsArgs {
    /// Plies of each opening (random legal moves from the start position).
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Number of openings.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    count: u64,
    /// Seed of the random moves (the same seed, the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep only openings a search scores within ±CP centipawns for the side to move.
    #[arg(long, value_name = "CP")]
    balanced: Option<i32>,
    /// Depth of that search (alpha-beta, one thread).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// A rule option, `Name=Value` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

#[derive(Args)]
struct StatsArgs {
    /// Game files of one match (e.g. every shard's `--out`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<std::path::PathBuf>,
    /// Also run this SPRT on the games: `elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=logistic]`.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
}

#[derive(Args)]
struct ReplayArgs {
    /// A game file (`match --out`).
    #[arg(value_name = "FILE")]
    file: std::path::PathBuf,
    /// The game to replay, by its number in the match (1-based; default: the file's first).
    #[arg(long = "number", value_name = "N")]
    number: Option<usize>,
    /// Also write the picture of every position to this folder (ply-000.svg, ply-001.svg…).
    #[arg(long, value_name = "DIR")]
    svg: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct PositionArgs {
    /// Position text (the game's FEN-like format); the start position when absent.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play from the position, space-separated.
    #[arg(long, default_value = "")]
    moves: String,
    /// Seed for the deal of games with chance (tesseris).
    #[arg(long)]
    deal: Option<u64>,
    /// A rule option, `Name=Value` (repeatable), e.g. `--option Boards=1x1`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

#[derive(Args)]
struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Milliseconds to think (default 1000 when no other limit is given).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(0..))]
    movetime: Option<u64>,
    /// Plies to search (alpha-beta, Best-Reply Search; MCTS: the mean depth of its tree).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<u32>::new().range(0..=u32::MAX as i64))]
    depth: Option<u32>,
    /// Nodes to search (MCTS: playouts); with --threads 1, the same answer on every run.
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(0..))]
    nodes: Option<u64>,
    /// Search threads, 1 to 256 (default: every core).
    #[arg(long, value_parser = threads_parser())]
    threads: Option<usize>,
    /// auto (alpha-beta for two-seat games of perfect information, else MCTS), mcts or alphabeta.
    #[arg(long, default_value = "auto")]
    algorithm: String,
    /// The evaluation, as the protocol's Eval option: auto (the shipped net where one beat the
    /// hand evaluation, else the hand evaluation), hand or net.
    #[arg(long, default_value = "auto")]
    eval: String,
    /// Best lines to report, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    multipv: usize,
    /// Seed of the search's random choices (MCTS), 0 to 2147483647 (the protocol's Seed).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=2147483647))]
    seed: u64,
    /// Memory for the search, MiB (1 to 65536, as the protocol's Hash option).
    #[arg(long, default_value_t = 64, value_parser = RangedU64ValueParser::<usize>::new().range(1..=65536))]
    hash: usize,
    /// Also give win/draw/loss figures for alpha-beta scores (the protocol's UCI_ShowWDL).
    #[arg(long)]
    wdl: bool,
    /// Print one JSON object per line instead of text (see docs/analysis.md).
    #[arg(long)]
    json: bool,
    /// Write a picture of the position (SVG) with the best move's arrow to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies, 0 to 20 (as the protocol's `perft`).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// One line per root move.
    #[arg(long)]
    divide: bool,
}

#[derive(Args)]
struct BenchArgs {
    /// Search threads for the MCTS and alpha-beta items, 1 to 256 (Best-Reply Search, chess for
    /// three's alpha-beta, runs one; its items say so).
    #[arg(long, default_value_t = 1, value_parser = threads_parser())]
    threads: usize,
    /// MCTS playouts per search item (at least 1).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    playouts: u64,
    /// Also measure MCTS's speedup from 1 to --threads threads (at least 2), searching this many
    /// ms (1 to 600000), in five rounds: medians at equal playouts (1 thread's time for as many
    /// playouts as the threads made) and at equal time (playouts/s), beside the machine's own
    /// figure (as many separate 1-thread searches at once).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    scaling: Option<u64>,
}

/// Writes a command's output to stdout; a reader that went away (`| head`) ends it quietly.
fn emit(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {}", e))
        }
        _ => Ok(()),
    }
}

fn draw(game: &Option<String>, a: &DrawArgs) -> Result<(), String> {
    let (g, highlight) = load_with_last(game, &a.position)?;
    let seat = match a.seat {
        Some(s) if s as usize > g.players() => {
            return Err(format!("--seat {}: this game has {} seats", s, g.players()))
        }
        s => s.map(|s| s as usize - 1),
    };
    let arrow = match &a.arrow {
        Some(m) => g
            .move_cells(m)
            .map_err(|e| format!("--arrow {}: {}", m, e))?,
        None => Vec::new(),
    };
    let picture = g.svg(&quatre::render::DrawOptions {
        seat,
        highlight,
        arrow,
        flip: a.flip,
    });
    match &a.out {
        Some(p) => {
            std::fs::write(p, picture).map_err(|e| format!("cannot write {}: {}", p.display(), e))
        }
        None => emit(&picture),
    }
}

fn openings(game: &Option<String>, a: &OpeningsArgs) -> Result<(), String> {
    use quatre::arena::openings::{generate, GenerateArgs};
    let mut def = quatre::arena::referee::GameDef::from_entry(games::resolve(game.as_deref())?);
    for o in &a.options {
        let (n, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option takes NAME=VALUE, not '{}'", o))?;
        def.set_option(n.trim(), v.trim())?;
    }
    let args = GenerateArgs {
        plies: a.plies,
        count: a.count as usize,
        seed: a.seed,
        balanced: a.balanced,
        depth: a.depth,
    };
    let book = generate(&def, &args)?;
    // The header is the command that writes this file again: every argument that changes it.
    let mut out = format!(
        "# quatre openings --game {}{} --plies {} --count {} --seed {}{}\n",
        def.name,
        def.given_options
            .iter()
            .map(|(k, v)| format!(" --option {}={}", k, v))
            .collect::<String>(),
        a.plies,
        a.count,
        a.seed,
        a.balanced
            .map(|c| format!(" --balanced {} --depth {}", c, a.depth))
            .unwrap_or_default()
    );
    for o in &book {
        out += &o.line();
        out.push('\n');
    }
    emit(&out)
}

/// `quatre stats`: the table; games that did not start make it an error (after the table).
fn stats(a: &StatsArgs) -> Result<(), String> {
    let r = quatre::arena::records::stats(&a.files, a.sprt.as_deref())?;
    emit(&r.table)?;
    match r.not_started {
        0 => Ok(()),
        k => Err(quatre::arena::not_started_error(k, r.games)),
    }
}

fn load(game: &Option<String>, p: &PositionArgs) -> Result<Box<dyn AnyGame>, String> {
    load_with_last(game, p).map(|(g, _)| g)
}

/// The position, and the cells of the last move of `--moves` (to highlight in a picture).
fn load_with_last(
    game: &Option<String>,
    p: &PositionArgs,
) -> Result<(Box<dyn AnyGame>, Vec<String>), String> {
    let entry = games::resolve(game.as_deref())?;
    let mut opts = entry.default_options();
    for o in &p.options {
        let (n, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option takes NAME=VALUE, not '{}'", o))?;
        opts.set_given(n.trim(), v.trim())?;
    }
    let mut g = match &p.fen {
        Some(t) => entry
            .from_text(t, &opts)
            .map_err(|e| format!("bad position: {}", e))?,
        None => entry.start(&opts, p.deal)?,
    };
    let moves: Vec<&str> = p.moves.split_whitespace().collect();
    let start = g.clone();
    // The list played as the protocol plays it: on past the draws the rules declare by
    // themselves (said on stderr), a refused move named by its place in the list.
    const LISTER: &str = "'quatre perft 1'";
    if let Some((_, note)) = quatre::protocol::play_list(g.as_mut(), &moves, LISTER)? {
        eprintln!("note: {}", note);
    }
    // The cells of the last move, known only before it is played.
    let mut last = Vec::new();
    if let Some((m, rest)) = moves.split_last() {
        let mut before = start;
        quatre::protocol::play_list(before.as_mut(), rest, LISTER)?;
        while before.play_through_draw().is_some() {}
        last = before.move_cells(m).unwrap_or_default();
    }
    Ok((g, last))
}

fn analyse(game: &Option<String>, a: &AnalyseArgs) -> Result<(), String> {
    let (g, highlight) = load_with_last(game, &a.position)?;
    // The same table, checks and defaults as the protocol's setoption.
    let mut params = SearchParams::default();
    let mut set = |name: &str, value: String| {
        params::set(&mut params, name, &value)
            .map_err(|e| format!("--{}: {}", name.to_ascii_lowercase(), e))
    };
    set("Algorithm", a.algorithm.clone())?;
    set("Eval", a.eval.clone())?;
    if let Some(t) = a.threads {
        set("Threads", t.to_string())?;
    }
    set("Hash", a.hash.to_string())?;
    set("MultiPV", a.multipv.to_string())?;
    set("Seed", a.seed.to_string())?;
    set("UCI_ShowWDL", a.wdl.to_string())?;
    let mut limits = Limits {
        movetime: a.movetime,
        depth: a.depth,
        nodes: a.nodes,
        ..Default::default()
    };
    if limits.movetime.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
        limits.movetime = Some(1000);
    }
    let req = quatre::analyse::Request {
        game: g.as_ref(),
        params,
        limits,
        format: if a.json {
            quatre::analyse::Format::Json
        } else {
            quatre::analyse::Format::Human
        },
        svg: a.svg.clone(),
        highlight,
    };
    quatre::analyse::run(&req, &say)
}

fn perft(game: &Option<String>, a: &PerftArgs) -> Result<(), String> {
    let g = load(game, &a.position)?;
    let t0 = std::time::Instant::now();
    let total = if a.divide && a.depth > 0 {
        // Each root move's line as soon as it is counted.
        let mut t = 0;
        let never = AtomicBool::new(false);
        g.perft_divide_until(a.depth, &never, &mut |m, n| {
            say(&format!("{}: {}", m, n));
            t += n;
        });
        t
    } else {
        g.perft(a.depth)
    };
    let ms = t0.elapsed().as_millis().max(1) as u64;
    say(&format!("nodes {}", total));
    note(&format!(
        "time {} ms, {} nodes/s",
        ms,
        (total as u128 * 1000 / ms as u128) as u64
    ));
    Ok(())
}

/// The command line, read as clap reads it with two manners of the engine's own: a negative
/// number is a value (`--movetime -5` gets the option's own range message, not "unexpected
/// argument"), and a refused command line is one `error: …` line (exit status 2), as every other
/// error of this program; `--help` and `--version` print as usual.
fn parse_cli() -> Result<Cli, ExitCode> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command().mut_subcommands(|s| s.allow_negative_numbers(true));
    let refused = |e: clap::Error| {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            // As clap exits: help and version on stdout with status 0, help for a missing
            // subcommand on stderr with status 2.
            e.exit()
        }
        // The message up to its first blank line, joined: a missing argument's names and an
        // option's possible values follow the first line (the usage and tips, after the blank
        // line, are left to --help).
        let text = e.render().to_string();
        let body: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        note(&body.join(" "));
        ExitCode::from(2)
    };
    let matches = command.try_get_matches().map_err(refused)?;
    Cli::from_arg_matches(&matches).map_err(refused)
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let r = match &cli.command {
        None => protocol::run_stdio(cli.game.as_deref()),
        Some(Cmd::Analyse(a)) => analyse(&cli.game, a),
        Some(Cmd::Perft(a)) => perft(&cli.game, a),
        Some(Cmd::Bench(b)) => quatre::bench::run(cli.game.as_deref(), b.threads, b.playouts, &say)
            .and_then(|_| match b.scaling {
                Some(ms) => quatre::bench::scaling(cli.game.as_deref(), b.threads, ms, &say),
                None => Ok(()),
            }),
        Some(Cmd::Match(m)) => quatre::arena::run(cli.game.as_deref(), m),
        Some(Cmd::Draw(a)) => draw(&cli.game, a),
        Some(Cmd::Serve(a)) => quatre::serve::run(&a.host, a.port, cli.game.as_deref()),
        Some(Cmd::Openings(a)) => openings(&cli.game, a),
        // Records name their game: a --game there would be a question the command ignores.
        Some(Cmd::Stats(_) | Cmd::Replay(_)) if cli.game.is_some() => Err(
            "--game does not apply here: the records name their game (each record's \"game_name\")"
                .to_string(),
        ),
        Some(Cmd::Stats(a)) => stats(a),
        Some(Cmd::Replay(a)) => quatre::arena::records::replay(&a.file, a.number, a.svg.as_deref())
            .and_then(|t| emit(&t)),
        Some(Cmd::Selfplay(a)) => quatre::learn::run(cli.game.as_deref(), a).map(|_| ()),
        Some(Cmd::Label(a)) => quatre::learn::label::run(cli.game.as_deref(), a).map(|_| ()),
        Some(Cmd::Train(a)) => quatre::learn::cli::run(cli.game.as_deref(), a, &say),
        Some(Cmd::TrainPolicy(a)) => quatre::learn::policy_train::run(cli.game.as_deref(), a, &say),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("error: {}", e));
            ExitCode::from(2)
        }
    }
}
