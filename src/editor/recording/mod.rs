//! A game's recording in the editor: opened from a file or received live ([`model`], no egui), and its
//! panel ([`panel`]).

pub mod model;
pub mod panel;

pub use model::{Origin, QueryFilter, QueryShape, RecordingSession, query_shape};
