//! The editor's vocabulary of modes, beside the commands that switch them: the palette's tools (each with its
//! name, key and help, as a command has), the Build tool's builders, the 3D preview's cameras and the
//! debugger's overlays. A feature, a panel or a view names them without importing the app.

use egui::{Key, KeyboardShortcut};

use crate::editor::shortcut::{Spec, plain, spec};

/// The tools of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Pick, box-select, move, rotate.
    Select,
    /// Click-click wall chains.
    Wall,
    /// Click to place, drag to set the velocity.
    Ball,
    /// Three clicks.
    Triangle,
    /// Click: the floor plane; drag: a vertical plane through the line.
    Plane,
    /// Click the centre, drag the radius.
    Cylinder,
    /// Drag a rectangle.
    Box,
    /// Click to place the walker's start, drag to face.
    Walker,
    /// Drag a ray: every hit, and the slab intervals of each box.
    Probe,
    /// Click to place an entity of the palette's type, drag to face it.
    Entity,
    /// Click a box, sphere or prism trigger volume.
    Trigger,
    /// Click a spot: the character's path to it, or what keeps it out.
    Reach,
    /// Click a greybox sector's outline; fill a loop of sector edges; split by a line.
    Sector,
    /// Greybox builders: stairs, a ramp, a room, a doorway over a dragged run or the selection.
    Build,
    /// Pick an object (a sector's floor or ceiling) and click its path's points: a mover.
    Mover,
}

/// The builders of the Build tool, in the order its key cycles them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Builder {
    /// N step sectors up the dragged run.
    #[default]
    Stairs,
    /// One sloped sector up the dragged run.
    Ramp,
    /// One room: a floor and a ceiling over the dragged rectangle.
    Room,
    /// A low-ceiling sector in the wall between two rooms.
    Doorway,
}

impl Builder {
    /// Every builder, in the cycle's order.
    pub const ALL: [Builder; 4] = [
        Builder::Stairs,
        Builder::Ramp,
        Builder::Room,
        Builder::Doorway,
    ];

    /// As the panel shows it.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The next builder of the cycle.
    #[must_use]
    pub fn next(self) -> Self {
        match self {
            Builder::Stairs => Builder::Ramp,
            Builder::Ramp => Builder::Room,
            Builder::Room => Builder::Doorway,
            Builder::Doorway => Builder::Stairs,
        }
    }

    /// The builder's name, key and help (its `SetBuilder` command's).
    #[must_use]
    pub fn spec(self) -> Spec {
        const K1: &[KeyboardShortcut] = &[plain(Key::Num1)];
        const K2: &[KeyboardShortcut] = &[plain(Key::Num2)];
        const K3: &[KeyboardShortcut] = &[plain(Key::Num3)];
        const K4: &[KeyboardShortcut] = &[plain(Key::Num4)];
        match self {
            Builder::Stairs => spec(
                "Stairs",
                K1,
                "Build tool, stairs: drag the run from the floor it starts on; N steps to the total rise (or the floor beyond its end)",
            ),
            Builder::Ramp => spec(
                "Ramp",
                K2,
                "Build tool, ramp: drag the run up the slope; by degrees or to the floor beyond its end",
            ),
            Builder::Room => spec(
                "Room",
                K3,
                "Build tool, room: drag a rectangle; a floor and a ceiling, welded to the rooms it touches",
            ),
            Builder::Doorway => spec(
                "Doorway",
                K4,
                "Build tool, doorway: drag across the wall two rooms share (or select both and press Enter)",
            ),
        }
    }
}

impl Tool {
    /// Every tool, in the palette's order.
    pub const ALL: &[Tool] = &[
        Tool::Select,
        Tool::Wall,
        Tool::Ball,
        Tool::Triangle,
        Tool::Plane,
        Tool::Cylinder,
        Tool::Box,
        Tool::Walker,
        Tool::Probe,
        Tool::Entity,
        Tool::Trigger,
        Tool::Reach,
        Tool::Sector,
        Tool::Build,
        Tool::Mover,
    ];

    /// The palette's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// Which camera the 3D preview uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CameraMode {
    /// Orbit about a target: drag rotates, wheel zooms, right/middle drag pans.
    #[default]
    Orbit,
    /// The level's character: a capsule with gravity moved by `move_character` (W A S D, E jumps), seen from
    /// its eyes or from behind; drag looks.
    Walk,
    /// First person as the seeds' walker: W A S D moves against walls and triangles (Stop / Slide / Ghost),
    /// drag looks.
    Walker,
    /// Behind a ball, looking along its velocity (seed 004's "hook" camera).
    Follow,
}

/// A debugger overlay that View → Debugger overlays toggles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Contact points of the current step.
    Contacts,
    /// Contact normals.
    Normals,
    /// Ball velocities.
    Velocities,
    /// Trails and time-of-impact markers.
    Trails,
    /// A flash at each contact.
    Flashes,
    /// Broadphase bounds.
    Bounds,
    /// Wall collision radii.
    WallRadii,
}

impl Overlay {
    /// Every overlay, in the menu's order.
    pub const ALL: &[Overlay] = &[
        Overlay::Contacts,
        Overlay::Normals,
        Overlay::Velocities,
        Overlay::Trails,
        Overlay::Flashes,
        Overlay::Bounds,
        Overlay::WallRadii,
    ];

    /// As the menu shows it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Overlay::Contacts => "Contact points",
            Overlay::Normals => "Contact normals",
            Overlay::Velocities => "Velocities",
            Overlay::Trails => "Trails and time-of-impact markers",
            Overlay::Flashes => "Contact flashes",
            Overlay::Bounds => "Broadphase bounds",
            Overlay::WallRadii => "Wall collision radii",
        }
    }
}

impl Tool {
    /// The tool's palette entry: name, key and help.
    #[must_use]
    pub fn spec(self) -> Spec {
        const S: &[KeyboardShortcut] = &[plain(Key::S)];
        const W: &[KeyboardShortcut] = &[plain(Key::W)];
        const B: &[KeyboardShortcut] = &[plain(Key::B)];
        const T: &[KeyboardShortcut] = &[plain(Key::T)];
        const P: &[KeyboardShortcut] = &[plain(Key::P)];
        const C: &[KeyboardShortcut] = &[plain(Key::C)];
        const X: &[KeyboardShortcut] = &[plain(Key::X)];
        const K: &[KeyboardShortcut] = &[plain(Key::K)];
        const R: &[KeyboardShortcut] = &[plain(Key::R)];
        const E: &[KeyboardShortcut] = &[plain(Key::E)];
        const V: &[KeyboardShortcut] = &[plain(Key::V)];
        const H: &[KeyboardShortcut] = &[plain(Key::H)];
        const O: &[KeyboardShortcut] = &[plain(Key::O)];
        const U: &[KeyboardShortcut] = &[plain(Key::U)];
        const L: &[KeyboardShortcut] = &[plain(Key::L)];
        match self {
            Tool::Select => spec(
                "Select",
                S,
                "Click, box-select (Shift adds, Ctrl removes), drag to move",
            ),
            Tool::Wall => spec(
                "Wall",
                W,
                "Click-click a chain; Enter, right-click or double-click ends; Backspace removes the last vertex; Esc cancels",
            ),
            Tool::Ball => spec(
                "Ball",
                B,
                "Click to place; drag to set its velocity (the arrow is one second of motion)",
            ),
            Tool::Triangle => spec(
                "Triangle",
                T,
                "Three clicks on the floor; set heights in the inspector",
            ),
            Tool::Plane => spec(
                "Plane",
                P,
                "Click: the floor plane y = 0; drag: a vertical plane through the line",
            ),
            Tool::Cylinder => spec(
                "Cylinder",
                C,
                "Click the centre and drag the radius; as tall as the default wall height",
            ),
            Tool::Box => spec(
                "Box",
                X,
                "Drag a rectangle, 1 m tall (AABB, or OBB with a rotation handle)",
            ),
            Tool::Walker => spec(
                "Walker",
                K,
                "Click to place the walker's start; drag to set its facing",
            ),
            Tool::Probe => spec(
                "Probe",
                R,
                "Drag a ray at the probe height: every hit and each box's slab intervals (Probe tab)",
            ),
            Tool::Entity => spec(
                "Entity",
                E,
                "Click to place an entity of the chosen type; drag to set its facing (types: Entity types tab)",
            ),
            Tool::Trigger => spec(
                "Trigger",
                V,
                "A trigger volume: box (two corners), sphere (centre, then a point on it) or prism (click its corners; the first again, Enter or a double-click closes)",
            ),
            Tool::Reach => spec(
                "Reach",
                H,
                "Click a spot in either view: the character's path to it, or what keeps it out",
            ),
            Tool::Sector => spec(
                "Sector",
                O,
                "Click a sector's points, close on the first (or Enter); double-click in a loop of edges fills it; 2 points + Enter split; Alt+click adds a vertex",
            ),
            Tool::Build => spec(
                "Build",
                U,
                "Greybox builders (U again: the next; 1-4: stairs, ramp, room, doorway): drag a run, or select sectors and press Enter",
            ),
            Tool::Mover => spec(
                "Mover",
                L,
                "Click an object to move (a sector's floor; Alt+click its ceiling), then its path's points; Enter adds the mover, Backspace removes the last point, Esc cancels; heights, speed and start in the inspector",
            ),
        }
    }
}
