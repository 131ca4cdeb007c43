//! A game's recording in the editor: opened from a file or received live ([`model`], no egui).

pub mod model;

pub use model::{Origin, QueryFilter, QueryShape, RecordingSession, query_shape};
