//! A game's recording in the editor: opened from a file or received live ([`model`], no egui; [`live`]: the
//! file opened, the live link polled, the queries asked again), and its panel ([`panel`]).

pub mod live;
pub mod model;
pub mod panel;

pub use model::{Origin, QueryFilter, QueryShape, RecordingSession, query_shape};
