//! Navigation in the editor: the runtime's [`NavMap`](crate::nav::NavMap) as an overlay of both views (View →
//! Navigation overlay, N) for a chosen agent size (the level's character, or a size added in the panel), a
//! start and a goal Shift+clicked in either view with the path between them, and an agent walking it in the 3D
//! preview as a game's would ([`Body::step`](crate::character::Body::step) with
//! [`NavPath::steer`](crate::nav::NavPath::steer) at 60 Hz).
//!
//! - [`model`] (no egui): the overlay's state; the map built on a thread of its own and, after an edit,
//!   updated there with [`NavMap::update`](crate::nav::NavMap::update) over the box the edit touched.
//! - [`geometry`] (no egui): a map's drawing (places, the walkable grid, jump arcs) and a path's pieces.
//! - [`walker`] (no egui): the agent walking the path.
//! - [`live`]: the map kept in step with the document each frame, the walker stepped, the status line.
//! - [`command`] (no egui): the navigation commands on the feature's state.
//! - [`paint`]: the top-down view's overlay; [`panel`]: the agent sizes and the path, beside the inspector.

pub mod command;
pub mod geometry;
pub mod live;
pub mod model;
pub mod paint;
pub mod panel;
pub mod spot;
pub mod walker;

pub use model::{AgentSize, NavOverlay, Route};
pub use walker::{NavWalker, WalkState};

/// The walking agent's colour.
pub const AGENT_RGBA: [u8; 4] = [255, 140, 40, 255];

/// The navigation feature's state: the overlay and its top-down drawing as last made.
#[derive(Default)]
pub struct Nav {
    /// The overlay: map, agents, ends, path, walker.
    pub overlay: NavOverlay,
    /// The chosen agent's places as last drawn from above.
    pub paint: paint::NavPaintCache,
    /// The size being typed in the panel for a new agent.
    pub new_size: AgentSize,
}

/// The status line for the route: the path's links and length, or why there is none.
#[must_use]
pub fn route_text(o: &NavOverlay) -> String {
    let Some(r) = &o.route else {
        return String::new();
    };
    let at = |p: glam::Vec3| format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z);
    match (&r.path, o.data()) {
        (_, None) => "navigation: no map yet; the path shows when it is ready".into(),
        (None, Some(_)) if o.is_asking() => format!(
            "navigation: finding the path for agent {} from {} to {}…",
            r.agent + 1,
            at(r.from),
            at(r.to)
        ),
        (Some(p), Some(_)) => {
            let count = |k: geometry::LinkKind| {
                p.links
                    .iter()
                    .filter(|l| geometry::LinkKind::of(l) == k)
                    .count()
            };
            // A ride is a run of ride links (boarding, then the ride itself).
            let kinds: Vec<_> = p.links.iter().map(geometry::LinkKind::of).collect();
            let rides = kinds
                .iter()
                .enumerate()
                .filter(|&(i, k)| {
                    *k == geometry::LinkKind::Ride
                        && (i == 0 || kinds[i - 1] != geometry::LinkKind::Ride)
                })
                .count();
            let n = |k: usize, one: &str, many: &str| {
                format!("{k} {}", if k == 1 { one } else { many })
            };
            format!(
                "navigation path: {}, {:.1} m ({}, {}, {}) from {} to {}",
                n(p.points.len(), "point", "points"),
                p.length(),
                n(count(geometry::LinkKind::Drop), "drop", "drops"),
                n(count(geometry::LinkKind::Jump), "jump", "jumps"),
                n(rides, "ride", "rides"),
                at(r.from),
                at(r.to)
            )
        }
        (None, Some(_)) => format!(
            "navigation: no path for agent {} from {} to {} (unreachable, in the air or inside something)",
            r.agent + 1,
            at(r.from),
            at(r.to)
        ),
    }
}
