//! The character controller: hand-worked moves, the guarantees as properties over random levels, the sample
//! playground.
#![allow(clippy::unwrap_used)]

mod allocations;
mod body;
mod common;
mod crate_corner_bounce;
mod guarantees;
mod hand_worked;
mod jump_riser;
mod movers;
mod nav;
mod playground;
mod reach;
mod reach_maps;
mod risers;
mod rounded;
mod triggers;
