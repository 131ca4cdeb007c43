//! The level's character in the editor: walked in the 3D preview's Walk mode ([`model`], no egui: the body,
//! fixed steps, the ring of the last moves; [`follow`] and [`path`], no egui: walking a reachability path), the Character
//! tab ([`panel`]), one move's workings as tables ([`workings`], shared with the Recording tab) and the marks
//! a move leaves in both views ([`marks`], no egui). [`walk`] turns the keys into steps each frame.

pub mod follow;
pub mod marks;
pub mod model;
pub mod panel;
pub mod path;
pub mod ride;
pub mod walk;
pub mod workings;

pub use marks::{MarkKind, MoveMarks};
pub use model::{Body, CharacterWalk, MoveEntry, Physics, TickInput};
