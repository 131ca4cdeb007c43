//! The editor's colours, in one place: the selection, faults, problem severities and each kind of object,
//! shared by the top-down view, the 3D preview and the panels.

use egui::Color32;

use crate::editor::document::Kind;

/// Selected objects (outline, fill tint, the rotation handle, the chosen SAT axis).
pub const SELECTED: Color32 = Color32::from_rgb(255, 160, 40);
/// Objects with an error, in the 3D preview.
pub const FAULTY: Color32 = Color32::from_rgb(235, 70, 70);
/// Error text (problems list, status bar, debugger messages).
pub const ERROR_TEXT: Color32 = Color32::from_rgb(255, 100, 100);
/// Warning text.
pub const WARNING_TEXT: Color32 = Color32::from_rgb(230, 190, 80);
/// The 3D preview's solids while the reachability overlay is on (its green and orange must read over them).
pub const REACH_NEUTRAL: Color32 = Color32::from_rgb(150, 152, 158);
/// A recorded answer that the edited level changes (the Recording tab's list, details and timeline).
pub const CHANGED: Color32 = Color32::from_rgb(255, 90, 90);

/// Base colours per kind.
pub mod palette {
    use egui::Color32;
    /// Walls.
    pub const WALL: Color32 = Color32::from_rgb(220, 220, 230);
    /// Wall collision radius outlines.
    pub const WALL_RADIUS: Color32 = Color32::from_rgb(90, 140, 220);
    /// Triangles.
    pub const TRIANGLE: Color32 = Color32::from_rgb(120, 200, 140);
    /// Balls.
    pub const BALL: Color32 = Color32::from_rgb(240, 200, 80);
    /// Planes.
    pub const PLANE: Color32 = Color32::from_rgb(170, 130, 220);
    /// Cylinders.
    pub const CYLINDER: Color32 = Color32::from_rgb(90, 200, 210);
    /// Boxes.
    pub const BOX: Color32 = Color32::from_rgb(220, 130, 90);
    /// Meshes.
    pub const MESH: Color32 = Color32::from_rgb(150, 160, 120);
    /// Probes.
    pub const PROBE: Color32 = Color32::from_rgb(230, 100, 200);
    /// The walker.
    pub const WALKER: Color32 = Color32::from_rgb(100, 230, 120);
    /// The level's character, drawn at the walker's start (the 3D preview's `CHARACTER_RGBA`).
    pub const CHARACTER: Color32 = Color32::from_rgb(255, 110, 230);
    /// Entities whose type has no colour of its own.
    pub const ENTITY: Color32 = Color32::from_rgb(250, 120, 120);
    /// Trigger volumes.
    pub const TRIGGER: Color32 = Color32::from_rgb(80, 220, 200);
    /// Greybox sectors (filled by floor height where the view shades by height).
    pub const SECTOR: Color32 = Color32::from_rgb(170, 175, 190);
}

/// The colour of an object of `kind`.
#[must_use]
pub fn base_color(kind: Kind) -> Color32 {
    match kind {
        Kind::Wall => palette::WALL,
        Kind::Triangle => palette::TRIANGLE,
        Kind::Ball => palette::BALL,
        Kind::Plane => palette::PLANE,
        Kind::Cylinder => palette::CYLINDER,
        Kind::Aabb | Kind::Obb => palette::BOX,
        Kind::Mesh => palette::MESH,
        Kind::Probe => palette::PROBE,
        Kind::Entity => palette::ENTITY,
        Kind::Trigger => palette::TRIGGER,
        Kind::Sector => palette::SECTOR,
    }
}

/// The colour of an entity of type `type_name` in `level`: its type's colour, else [`palette::ENTITY`].
#[must_use]
pub fn entity_color(level: &crate::level::Level, type_name: &str) -> Color32 {
    level
        .entity_type(type_name)
        .and_then(|t| t.color)
        .map_or(palette::ENTITY, |(r, g, b)| Color32::from_rgb(r, g, b))
}
