//! Every user action as a value: a [`Command`] with its name, shortcuts and help, run by the app
//! (`EditorApp::run_command`). The menus, the F1 shortcut list, the tool palette and the debugger's buttons
//! are generated from [`Command::ALL`], so a menu item and its shortcut cannot drift apart (rerun's
//! `UICommand`, the egui demo app's `Command`).
//! The module sits under every feature: its vocabulary (the tools, the debugger's overlays, the 3D
//! camera modes) lives here, so a feature, a panel or a view can hand the app a `Command` without
//! importing the app.

use std::path::PathBuf;

use egui::{Key, KeyboardShortcut};

use crate::editor::document::LabelledEdit;
use crate::editor::document::sector::Which;
pub use crate::editor::modes::{Builder, CameraMode, Overlay, Tool};
pub use crate::editor::shortcut::Spec;
use crate::editor::shortcut::{alt, ctrl, ctrl_shift, plain, shift, spec};

/// Which way a nudge moves the selection (screen directions in the top-down view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// −x.
    Left,
    /// +x.
    Right,
    /// −z (up the screen).
    Up,
    /// +z.
    Down,
}

/// A user action: a menu item, a shortcut, a palette or toolbar button.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// File → New.
    New,
    /// File → Open….
    Open,
    /// File → Open Recent → a file.
    OpenRecent(PathBuf),
    /// File → Open Recent → Clear the list.
    ClearRecent,
    /// File → Save.
    Save,
    /// File → Save As….
    SaveAs,
    /// File → Export….
    Export,
    /// File → Import mesh (OBJ, glTF)….
    ImportObj,
    /// File → Open Recording… (a game's flight recording).
    OpenRecording,
    /// File → Listen for a game (the live link), or stop.
    ListenForGame,
    /// File → Quit.
    Quit,
    /// Edit → Undo.
    Undo,
    /// Edit → Redo.
    Redo,
    /// Go to a step of the history (0: as opened).
    GoToHistory(usize),
    /// Apply an edit as one undo step (what the inspector's fields and the tools ask for).
    Apply(Box<LabelledEdit>),
    /// Edit → Cut.
    Cut,
    /// Edit → Copy.
    Copy,
    /// Edit → Paste (what the editor copied last).
    Paste,
    /// Paste level RON text from the system clipboard.
    PasteText(String),
    /// Edit → Duplicate.
    Duplicate,
    /// Edit → Delete.
    Delete,
    /// Backspace: the last vertex of the wall chain, or the selection.
    DeleteBack,
    /// Edit → Select All.
    SelectAll,
    /// Esc: cancel the drawing or gesture, else clear the selection.
    Cancel,
    /// Move the selection by the snap step (×10 when `big`).
    Nudge(Dir, bool),
    /// Finish the wall chain.
    FinishChain,
    /// Keep the probe ray as a probe object of the level.
    KeepProbe,
    /// Raise (`true`) or lower the selected sectors' floors or ceilings by the snap step.
    SectorHeight(Which, bool),
    /// Join the two selected sectors (they share an edge) into one.
    JoinSectors,
    /// The Build tool with this builder (a key per builder).
    SetBuilder(Builder),
    /// Build with the Build tool's builder over the run dragged from the first point to the second.
    BuildAt(glam::Vec2, glam::Vec2),
    /// Build with the Build tool's builder on the selected sectors (stairs or a ramp on one, a doorway
    /// between two rooms).
    BuildSelected,
    /// View → Frame All.
    FrameAll,
    /// View → Frame Selection.
    FrameSelection,
    /// View → 3D preview.
    Toggle3d,
    /// View → Snap to grid.
    ToggleSnap,
    /// Halve the snap step.
    HalveSnap,
    /// Double the snap step.
    DoubleSnap,
    /// View → History panel.
    ToggleHistory,
    /// View → the lower panel.
    ToggleLowerPanel,
    /// View → Debugger overlays → one overlay.
    ToggleOverlay(Overlay),
    /// View → Reachability overlay.
    ToggleReach,
    /// Show the path to a spot (feet), or what keeps it out (a click with the Reach tool).
    ReachTo(glam::Vec3),
    /// Walk the shown path with the level's character in the 3D preview.
    WalkReachPath,
    /// Forget the spot clicked with the Reach tool.
    ClearReachPath,
    /// Which places of a column the reachability overlay shows from above.
    /// `None`: the reached place on top of each column; `Some(k)`: floor `k`.
    ReachFloor(Option<usize>),
    /// View → Navigation overlay.
    ToggleNav,
    /// A navigation end (feet): the start, or the goal when a start waits (Shift+click with the overlay on).
    NavPoint(glam::Vec3),
    /// The navigation agent drawn and asked for paths (0: the level's character).
    NavAgent(usize),
    /// Add a navigation agent size: radius and height, metres.
    NavAddAgent(f32, f32),
    /// The navigation agent walks the shown path again.
    WalkNavPath,
    /// Forget the navigation start, goal and path.
    ClearNavPath,
    /// Pick a tool.
    SetTool(Tool),
    /// Play or pause the simulation.
    PlayPause,
    /// One step forward.
    Step,
    /// One step back.
    StepBack,
    /// Back to frame 0.
    Restart,
    /// The 3D preview's camera: Orbit, Walk (the level's character), Walker (the seeds' walker), Follow ball.
    SetCamera(CameraMode),
    /// Walk mode: freeze or unfreeze the character.
    CharacterPause,
    /// Walk mode: select the character's move before the selected one.
    CharacterStepBack,
    /// Walk mode: select the next move (at the newest, a paused character makes one more).
    CharacterStepForward,
    /// Walk mode: the character back at the walker's start, its moves cleared.
    CharacterRestart,
    /// The walk camera behind the character instead of at its eyes.
    ThirdPerson,
    /// Help → Keyboard shortcuts.
    Shortcuts,
}

impl Command {
    /// Every command that the F1 list shows and the shortcut dispatcher knows, in the list's order.
    pub const ALL: &[Command] = &[
        Command::New,
        Command::Open,
        Command::Save,
        Command::SaveAs,
        Command::Export,
        Command::ImportObj,
        Command::OpenRecording,
        Command::ListenForGame,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::Cut,
        Command::Copy,
        Command::Paste,
        Command::Duplicate,
        Command::Delete,
        Command::DeleteBack,
        Command::SelectAll,
        Command::Cancel,
        Command::Nudge(Dir::Left, false),
        Command::Nudge(Dir::Right, false),
        Command::Nudge(Dir::Up, false),
        Command::Nudge(Dir::Down, false),
        Command::Nudge(Dir::Left, true),
        Command::Nudge(Dir::Right, true),
        Command::Nudge(Dir::Up, true),
        Command::Nudge(Dir::Down, true),
        Command::FinishChain,
        Command::SectorHeight(Which::Floor, true),
        Command::SectorHeight(Which::Floor, false),
        Command::SectorHeight(Which::Ceiling, true),
        Command::SectorHeight(Which::Ceiling, false),
        Command::JoinSectors,
        Command::SetBuilder(Builder::Stairs),
        Command::SetBuilder(Builder::Ramp),
        Command::SetBuilder(Builder::Room),
        Command::SetBuilder(Builder::Doorway),
        Command::ToggleSnap,
        Command::HalveSnap,
        Command::DoubleSnap,
        Command::FrameAll,
        Command::FrameSelection,
        Command::Toggle3d,
        Command::ToggleReach,
        Command::WalkReachPath,
        Command::ClearReachPath,
        Command::ToggleNav,
        Command::WalkNavPath,
        Command::ClearNavPath,
        Command::PlayPause,
        Command::Step,
        Command::StepBack,
        Command::Restart,
        Command::CharacterPause,
        Command::CharacterStepBack,
        Command::CharacterStepForward,
        Command::CharacterRestart,
        Command::ThirdPerson,
        Command::SetTool(Tool::Select),
        Command::SetTool(Tool::Wall),
        Command::SetTool(Tool::Ball),
        Command::SetTool(Tool::Triangle),
        Command::SetTool(Tool::Plane),
        Command::SetTool(Tool::Cylinder),
        Command::SetTool(Tool::Box),
        Command::SetTool(Tool::Walker),
        Command::SetTool(Tool::Probe),
        Command::SetTool(Tool::Entity),
        Command::SetTool(Tool::Trigger),
        Command::SetTool(Tool::Reach),
        Command::SetTool(Tool::Sector),
        Command::SetTool(Tool::Build),
        Command::SetTool(Tool::Mover),
        Command::Shortcuts,
    ];

    /// Name, shortcuts and help.
    #[must_use]
    pub fn spec(&self) -> Spec {
        const JOIN: &[KeyboardShortcut] = &[ctrl(Key::J)];
        match self {
            Command::SetTool(t) => t.spec(),
            Command::Nudge(d, big) => nudge_spec(*d, *big),
            Command::ToggleOverlay(o) => spec(o.name(), &[], "Show or hide this overlay"),
            Command::SectorHeight(w, up) => sector_height_spec(*w, *up),
            Command::JoinSectors => spec(
                "Join sectors",
                JOIN,
                "Join the two selected sectors, which share an edge, into one",
            ),
            Command::SetBuilder(b) => b.spec(),
            Command::BuildAt(..) => spec(
                "Build here",
                &[],
                "Build with the Build tool's builder over the dragged run",
            ),
            Command::BuildSelected => spec(
                "Build on the selection",
                &[],
                "Stairs or a ramp on the selected sector, a doorway between the two selected rooms (Enter with the Build tool)",
            ),
            _ => self
                .file_or_edit_spec()
                .or_else(|| self.character_spec())
                .or_else(|| self.reach_spec())
                .or_else(|| self.nav_spec())
                .unwrap_or_else(|| self.view_spec()),
        }
    }

    fn file_or_edit_spec(&self) -> Option<Spec> {
        const N: &[KeyboardShortcut] = &[ctrl(Key::N)];
        const O: &[KeyboardShortcut] = &[ctrl(Key::O)];
        const SHIFT_O: &[KeyboardShortcut] = &[ctrl_shift(Key::O)];
        const S: &[KeyboardShortcut] = &[ctrl(Key::S)];
        const SHIFT_S: &[KeyboardShortcut] = &[ctrl_shift(Key::S)];
        const E: &[KeyboardShortcut] = &[ctrl(Key::E)];
        const I: &[KeyboardShortcut] = &[ctrl(Key::I)];
        const Q: &[KeyboardShortcut] = &[ctrl(Key::Q)];
        const Z: &[KeyboardShortcut] = &[ctrl(Key::Z)];
        const REDO: &[KeyboardShortcut] = &[ctrl_shift(Key::Z), ctrl(Key::Y)];
        const X: &[KeyboardShortcut] = &[ctrl(Key::X)];
        const C: &[KeyboardShortcut] = &[ctrl(Key::C)];
        const V: &[KeyboardShortcut] = &[ctrl(Key::V)];
        const D: &[KeyboardShortcut] = &[ctrl(Key::D)];
        const A: &[KeyboardShortcut] = &[ctrl(Key::A)];
        const DEL: &[KeyboardShortcut] = &[plain(Key::Delete)];
        const BACK: &[KeyboardShortcut] = &[plain(Key::Backspace)];
        const ESC: &[KeyboardShortcut] = &[plain(Key::Escape)];
        const ENTER: &[KeyboardShortcut] = &[plain(Key::Enter)];
        Some(match self {
            Command::New => spec("New", N, "New level"),
            Command::Open => spec("Open…", O, "Open a level"),
            Command::OpenRecent(_) => spec("Open recent", &[], "Open this level again"),
            Command::ClearRecent => spec("Clear the list", &[], "Forget the recent files"),
            Command::Save => spec("Save", S, "Save the level (atomically)"),
            Command::SaveAs => spec("Save As…", SHIFT_S, "Save the level under another name"),
            Command::Export => spec(
                "Export…",
                E,
                "Export the game-ready level (refused while it has errors)",
            ),
            Command::ImportObj => spec(
                "Import mesh (OBJ, glTF)…",
                I,
                "Import a Wavefront OBJ or glTF 2.0 (.gltf, .glb) file as meshes",
            ),
            Command::OpenRecording => spec(
                "Open Recording…",
                SHIFT_O,
                "Open a game's flight recording: its frames and queries, asked again of this level",
            ),
            Command::ListenForGame => spec(
                "Listen for a game",
                &[],
                "Receive a running game's frames live (port 47474 on this machine); again to stop",
            ),
            Command::Quit => spec("Quit", Q, "Quit (asks when there are unsaved changes)"),
            Command::Undo => spec("Undo", Z, "Undo the last step"),
            Command::Redo => spec("Redo", REDO, "Redo the step undone last"),
            Command::GoToHistory(_) => spec("Go to step", &[], "Undo or redo up to this step"),
            Command::Apply(_) => spec("Edit", &[], "Apply an edit as one undo step"),
            Command::Cut => spec("Cut", X, "Cut objects as RON (the system clipboard)"),
            Command::Copy => spec("Copy", C, "Copy objects as RON (the system clipboard)"),
            Command::Paste => spec("Paste", V, "Paste objects under the cursor"),
            Command::PasteText(_) => spec("Paste", &[], "Paste objects from the clipboard"),
            Command::Duplicate => spec("Duplicate", D, "Duplicate the selection"),
            Command::Delete => spec("Delete", DEL, "Delete the selection"),
            Command::DeleteBack => spec(
                "Remove last vertex",
                BACK,
                "Remove the wall chain's last vertex; with no chain, delete the selection",
            ),
            Command::SelectAll => spec("Select All", A, "Select every object"),
            Command::Cancel => spec(
                "Cancel",
                ESC,
                "Cancel a drawing or drag; otherwise clear the selection",
            ),
            Command::FinishChain => spec("Finish chain", ENTER, "Finish a wall chain"),
            Command::KeepProbe => spec(
                "Keep this ray as a probe object",
                &[],
                "Add the probe ray to the level as a probe object",
            ),
            _ => return None,
        })
    }

    fn view_spec(&self) -> Spec {
        const HOME: &[KeyboardShortcut] = &[plain(Key::Home)];
        const F: &[KeyboardShortcut] = &[plain(Key::F)];
        const F3: &[KeyboardShortcut] = &[plain(Key::F3)];
        const G: &[KeyboardShortcut] = &[plain(Key::G)];
        const OPEN: &[KeyboardShortcut] = &[plain(Key::OpenBracket)];
        const CLOSE: &[KeyboardShortcut] = &[plain(Key::CloseBracket)];
        const SPACE: &[KeyboardShortcut] = &[plain(Key::Space)];
        const PERIOD: &[KeyboardShortcut] = &[plain(Key::Period)];
        const COMMA: &[KeyboardShortcut] = &[plain(Key::Comma)];
        const F1: &[KeyboardShortcut] = &[plain(Key::F1)];
        match self {
            Command::FrameAll => spec("Frame All", HOME, "Frame everything"),
            Command::FrameSelection => spec("Frame Selection", F, "Frame the selection"),
            Command::Toggle3d => spec("3D preview", F3, "Show / hide the 3D preview"),
            Command::ToggleSnap => spec("Snap to grid", G, "Toggle grid snapping"),
            Command::HalveSnap => spec("Finer snap", OPEN, "Halve the snap step"),
            Command::DoubleSnap => spec("Coarser snap", CLOSE, "Double the snap step"),
            Command::ToggleHistory => spec("History panel", &[], "Show / hide the history"),
            Command::ToggleLowerPanel => spec(
                "Problems, events and plots panel",
                &[],
                "Show / hide the lower panel",
            ),
            Command::PlayPause => spec("Play", SPACE, "Play / pause the simulation (tap)"),
            Command::Step => spec("Step", PERIOD, "Step forward one frame"),
            Command::StepBack => spec("Step back", COMMA, "Step back one frame"),
            Command::Restart => spec("Restart", &[], "Back to frame 0 of the recording"),
            Command::Shortcuts => spec("Keyboard shortcuts", F1, "This list"),
            _ => spec("?", &[], ""),
        }
    }

    /// Whether the command runs while a text field has the keyboard (file commands and help do; editing
    /// keys belong to the field).
    #[must_use]
    pub fn while_typing(&self) -> bool {
        matches!(
            self,
            Command::New
                | Command::Open
                | Command::Save
                | Command::SaveAs
                | Command::Export
                | Command::ImportObj
                | Command::OpenRecording
                | Command::Quit
                | Command::Shortcuts
        )
    }

    /// Whether walking in the 3D preview takes this command's keys (W A S D and the arrows) while the
    /// pointer is over it.
    #[must_use]
    pub fn yields_to_walking(&self) -> bool {
        matches!(self, Command::SetTool(_) | Command::Nudge(..))
    }
}

fn sector_height_spec(w: Which, up: bool) -> Spec {
    const FU: &[KeyboardShortcut] = &[plain(Key::PageUp)];
    const FD: &[KeyboardShortcut] = &[plain(Key::PageDown)];
    const CU: &[KeyboardShortcut] = &[shift(Key::PageUp)];
    const CD: &[KeyboardShortcut] = &[shift(Key::PageDown)];
    match (w, up) {
        (Which::Floor, true) => spec(
            "Raise floors",
            FU,
            "Raise the selected sectors' floors by the snap step",
        ),
        (Which::Floor, false) => spec(
            "Lower floors",
            FD,
            "Lower the selected sectors' floors by the snap step",
        ),
        (Which::Ceiling, true) => spec(
            "Raise ceilings",
            CU,
            "Raise the selected sectors' ceilings by the snap step",
        ),
        (Which::Ceiling, false) => spec(
            "Lower ceilings",
            CD,
            "Lower the selected sectors' ceilings by the snap step",
        ),
    }
}

fn nudge_spec(d: Dir, big: bool) -> Spec {
    const L: &[KeyboardShortcut] = &[plain(Key::ArrowLeft)];
    const R: &[KeyboardShortcut] = &[plain(Key::ArrowRight)];
    const U: &[KeyboardShortcut] = &[plain(Key::ArrowUp)];
    const D: &[KeyboardShortcut] = &[plain(Key::ArrowDown)];
    const BL: &[KeyboardShortcut] = &[shift(Key::ArrowLeft)];
    const BR: &[KeyboardShortcut] = &[shift(Key::ArrowRight)];
    const BU: &[KeyboardShortcut] = &[shift(Key::ArrowUp)];
    const BD: &[KeyboardShortcut] = &[shift(Key::ArrowDown)];
    let help = if big {
        "Nudge the selection by ten snap steps"
    } else {
        "Nudge the selection by the snap step"
    };
    let (name, keys) = match (d, big) {
        (Dir::Left, false) => ("Nudge left", L),
        (Dir::Right, false) => ("Nudge right", R),
        (Dir::Up, false) => ("Nudge up", U),
        (Dir::Down, false) => ("Nudge down", D),
        (Dir::Left, true) => ("Nudge left ×10", BL),
        (Dir::Right, true) => ("Nudge right ×10", BR),
        (Dir::Up, true) => ("Nudge up ×10", BU),
        (Dir::Down, true) => ("Nudge down ×10", BD),
    };
    spec(name, keys, help)
}

/// Pointer gestures for the F1 list: not commands (they depend on where the pointer is), listed with them.
pub const POINTER_HELP: &[(&str, &str)] = &[
    ("Shift (held)", "Suspend snapping while placing"),
    (
        "Wheel / middle or right drag / Space+drag",
        "Zoom about the cursor / pan",
    ),
    (
        "3D: drag / right-drag / wheel",
        "Orbit camera: rotate / pan / zoom; a click selects (Shift toggles), the Probe tool casts",
    ),
    (
        "3D Walk: W A S D or arrows, E, drag",
        "Move the level's character (pointer over the preview; Shift runs) / jump / look around",
    ),
    (
        "Reach tool: click (top-down or 3D)",
        "The path from the walker start to the spot, or what keeps it out",
    ),
    (
        "Navigation overlay on: Shift+click (top-down or 3D)",
        "The path's start, then its goal: the agent walks it in the 3D preview",
    ),
    (
        "3D Walker: W A S D or arrows, drag",
        "Walk the seeds' walker (pointer over the preview; Shift runs) / look around",
    ),
];

impl Command {
    /// The reachability commands' names, keys and help.
    fn reach_spec(&self) -> Option<Spec> {
        const M: &[KeyboardShortcut] = &[plain(Key::M)];
        const WALK: &[KeyboardShortcut] = &[shift(Key::H)];
        const CLEAR: &[KeyboardShortcut] = &[alt(Key::H)];
        Some(match self {
            Command::ToggleReach => spec(
                "Reachability overlay",
                M,
                "Where the character can go from the walker start (green), can stand but not go (orange), what stops it",
            ),
            Command::ReachTo(_) => spec(
                "Show the path",
                &[],
                "The path from the walker start to this spot, or what keeps it out",
            ),
            Command::WalkReachPath => spec(
                "Walk the path",
                WALK,
                "The character walks the shown path in the 3D preview, one move_character a step (a key takes over)",
            ),
            Command::ClearReachPath => spec(
                "Clear the path",
                CLEAR,
                "Forget the spot clicked with the Reach tool",
            ),
            Command::ReachFloor(_) => spec(
                "Reachability floor",
                &[],
                "Which places the top-down view shows in a column: the reached one on top, or one floor",
            ),
            _ => return None,
        })
    }
}

impl Command {
    /// The navigation commands' names, keys and help.
    fn nav_spec(&self) -> Option<Spec> {
        const N: &[KeyboardShortcut] = &[plain(Key::N)];
        const WALK: &[KeyboardShortcut] = &[shift(Key::N)];
        const CLEAR: &[KeyboardShortcut] = &[alt(Key::N)];
        Some(match self {
            Command::ToggleNav => spec(
                "Navigation overlay",
                N,
                "Where an agent can stand, its jump links, and paths: Shift+click a start and a goal in either view",
            ),
            Command::NavPoint(_) => spec(
                "Navigation end",
                &[],
                "The path's start, or its goal when a start waits",
            ),
            Command::NavAgent(_) => spec(
                "Navigation agent",
                &[],
                "The agent size drawn and asked for paths",
            ),
            Command::NavAddAgent(..) => spec(
                "Add agent size",
                &[],
                "Another agent size (radius, height) in the same map",
            ),
            Command::WalkNavPath => spec(
                "Walk the navigation path",
                WALK,
                "The agent walks the shown path again in the 3D preview (Body::step with steer, 60 Hz)",
            ),
            Command::ClearNavPath => spec(
                "Clear the navigation path",
                CLEAR,
                "Forget the navigation start, goal and path",
            ),
            _ => return None,
        })
    }
}

impl Command {
    /// The camera and character commands' names, keys and help.
    fn character_spec(&self) -> Option<Spec> {
        const Q: &[KeyboardShortcut] = &[plain(Key::Q)];
        const BACK: &[KeyboardShortcut] = &[alt(Key::Comma)];
        const FORWARD: &[KeyboardShortcut] = &[alt(Key::Period)];
        const F4: &[KeyboardShortcut] = &[plain(Key::F4)];
        Some(match self {
            Command::SetCamera(CameraMode::Orbit) => spec(
                "Orbit",
                &[],
                "Drag to orbit, right-drag to pan, wheel to zoom",
            ),
            Command::SetCamera(CameraMode::Walk) => spec(
                "Walk",
                &[],
                "Walk as the level's character (gravity, steps, slopes): W A S D with the pointer over the view, Shift runs, E jumps, drag looks",
            ),
            Command::SetCamera(CameraMode::Walker) => spec(
                "Walker",
                &[],
                "Walk as the seeds' walker (Stop / Slide / Ghost, the walk test against triangles): W A S D with the pointer over the view, drag looks",
            ),
            Command::SetCamera(CameraMode::Follow) => spec(
                "Follow ball",
                &[],
                "Behind the selected ball (or the first), looking along its velocity",
            ),
            Command::CharacterPause => spec(
                "Pause character",
                Q,
                "Walk mode: freeze or unfreeze the character (its moves stay in the Character tab)",
            ),
            Command::CharacterStepBack => spec(
                "Previous move",
                BACK,
                "Walk mode: select the character's move before the selected one",
            ),
            Command::CharacterStepForward => spec(
                "Next move",
                FORWARD,
                "Walk mode: select the next move; at the newest, a paused character makes one more",
            ),
            Command::CharacterRestart => spec(
                "Back to start",
                &[],
                "Walk mode: the character back at the walker's start, its moves cleared",
            ),
            Command::ThirdPerson => spec(
                "Third person",
                F4,
                "Walk mode: the camera behind the character (its capsule in view) instead of at its eyes",
            ),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_commands_share_a_shortcut() {
        let mut seen: Vec<(KeyboardShortcut, &str)> = Vec::new();
        for c in Command::ALL {
            let s = c.spec();
            for k in s.keys {
                if let Some((_, other)) = seen.iter().find(|(o, _)| o == k) {
                    panic!("{} and {} share {k:?}", s.name, other);
                }
                seen.push((*k, s.name));
            }
        }
        let keyless: Vec<&str> = Command::ALL
            .iter()
            .filter(|c| c.spec().keys.is_empty())
            .map(|c| c.spec().name)
            .collect();
        assert_eq!(keyless, ["Listen for a game", "Restart", "Back to start"]);
    }

    #[test]
    fn every_command_has_a_name_and_help() {
        for c in Command::ALL
            .iter()
            .cloned()
            .chain(Overlay::ALL.iter().map(|o| Command::ToggleOverlay(*o)))
        {
            let s = c.spec();
            assert!(s.name != "?" && !s.help.is_empty(), "{c:?}");
        }
    }

    #[test]
    fn every_tool_has_a_command() {
        for t in Tool::ALL {
            assert!(Command::ALL.contains(&Command::SetTool(*t)), "{t:?}");
        }
    }
}
