//! The plugin in headless apps (`MinimalPlugins`, the asset plugin on a temporary folder, level files edited
//! on disk), in one test binary (each `tests/*.rs` file links the whole of Bevy again): spawning and
//! components from fields, hot reload, the level's queries, characters and triggers, the flight recorder,
//! and the example game.

#![allow(clippy::unwrap_used)]

mod characters;
mod common;
mod example;
mod greybox;
mod loading;
mod movers;
mod nav;
mod queries;
mod recorder;
mod reload;
mod spawning;
