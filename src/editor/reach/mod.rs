//! Where the level's character can go, in the editor: the reachability overlay of both views (View →
//! Reachability overlay, M), the Reach tool's clicked spot with its path or blocker, and the path walked by
//! the character in the 3D preview.
//!
//! - [`model`] (no egui): the overlay's state; the map built on a thread of its own from a snapshot of the
//!   document, keyed by its [`crate::editor::document::DocKey`], a superseded build dropped; the clicked
//!   spot.
//! - [`geometry`] (no egui): a map's drawing, made once per map on the builder's thread: places by column
//!   and floor, the top-down view's runs of cells, the 3D preview's translucent cells, the blockers' labels.
//! - `paint`: the top-down view's overlay, its legend and labels; `panel`: the Reach tab.

pub mod geometry;
pub mod model;
pub(crate) mod paint;
pub(crate) mod panel;

pub use geometry::{FloorView, ReachGeometry};
pub use model::{ReachBuilt, ReachData, ReachOverlay, ReachRequest, Target, TargetView};
