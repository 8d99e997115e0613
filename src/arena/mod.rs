//! Engine-vs-engine matches with a referee (being written: see issue 6).
#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

pub fn run(_game: Option<&str>, _args: &MatchArgs) -> Result<(), String> {
    Err("quatre match is not implemented yet".into())
}
