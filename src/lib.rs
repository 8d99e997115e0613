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
