//! quatre: a headless game-AI engine for four unusual games, speaking a UCI/UGI-style protocol.
pub mod game;
pub mod games;
pub mod zobrist;
