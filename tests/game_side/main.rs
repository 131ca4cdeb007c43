//! The game side, in one test binary (each `tests/*.rs` file is a binary linked with the whole crate, so the
//! areas added together share one): the whole-level `Scene`, the flight recorder and its file format and live
//! link, the example game with `replay` and `info`, game data in levels, and levels in version control.

mod game;
mod game_data;
mod record;
mod ride;
mod scene;
mod vcs;
