//! quatre: a headless game-AI engine for four unusual games, speaking a UCI/UGI-style protocol.
pub mod analyse;
pub mod arena;
pub mod bench;
pub mod game;
pub mod games;
pub mod learn;
pub mod protocol;
pub mod render;
pub mod search;
pub mod serve;
pub mod zobrist;

/// `s` cut to `max` characters, `…` marking a cut: what a client or a file sent, quoted in an
/// error line (the protocol, the web server, the record reader).
pub fn truncate_to(s: &str, max: usize) -> String {
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max).collect::<String>())
    } else {
        s.to_string()
    }
}
