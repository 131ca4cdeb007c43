//! Where the level's character can go, in the editor: the reachability overlay of both views (View →
//! Reachability overlay, M), the Reach tool's clicked spot with its path or blocker, and the path walked by
//! the character in the 3D preview.
//!
//! - [`model`] (no egui): the overlay's state; the map built on a thread of its own from a snapshot of the
//!   document, keyed by its [`crate::editor::document::DocKey`], a superseded build dropped; the clicked
//!   spot.
//! - [`geometry`] (no egui): a map's drawing, made once per map on the builder's thread: places by column
//!   and floor, the top-down view's runs of cells, the 3D preview's translucent cells, the blockers' labels.
//! - [`live`]: the map kept in step with the document each frame, the clicked place, the status line.
//! - `paint`: the top-down view's overlay, its legend and labels; `panel`: the Reach tab.

pub mod geometry;
pub mod live;
pub mod model;
pub(crate) mod paint;
pub(crate) mod panel;

pub use panel::ReachTab;

pub use geometry::{FloorView, ReachGeometry};
pub use model::{ReachBuilt, ReachData, ReachOverlay, ReachRequest, Target, TargetView};

/// The floor view a [`crate::editor::command::Command::ReachFloor`] names: `None` is the reached place on
/// top of each column, `Some(k)` floor `k`.
#[must_use]
pub fn floor_view(floor: Option<usize>) -> FloorView {
    floor.map_or(FloorView::ReachedOnTop, FloorView::Floor)
}

/// The command's name for a floor view (the inverse of [`floor_view`]).
#[must_use]
pub fn floor_index(f: FloorView) -> Option<usize> {
    match f {
        FloorView::ReachedOnTop => None,
        FloorView::Floor(k) => Some(k),
    }
}

/// The floor view's name in menus: "Reached on top", "Floor 1 (0.00–2.50 m)".
#[must_use]
pub fn floor_name(f: FloorView, heights: Option<(f32, f32)>) -> String {
    match (f, heights) {
        (FloorView::ReachedOnTop, _) => "Reached on top".into(),
        (FloorView::Floor(k), Some((lo, hi))) => format!("Floor {} ({lo:.1}–{hi:.1} m)", k + 1),
        (FloorView::Floor(k), None) => format!("Floor {}", k + 1),
    }
}
