//! The desktop level editor (feature `editor`): an eframe/egui app over the runtime's public API.
//!
//! Where things live (ARCHITECTURE.md says why):
//! - [`app`]: the window: [`app::EditorApp`], every user action as an [`app::Command`], menus, files,
//!   autosave, dialogs and panels.
//! - [`document`]: the edited level, its selection and undo history (no egui).
//! - [`tools`]: what the pointer does in the top-down view for each tool of the palette; [`modes`]: the
//!   names of the modes commands switch (the palette's tools, the builders, the cameras, the overlays);
//!   [`shortcut`]: the face (name, keys, help) both commands and modes carry.
//! - [`view2d`]: the top-down view (camera, batched drawing, floor footprints, the drawn scene).
//! - [`view3d`]: the 3D preview (panel, CPU scene and cameras, wgpu renderer).
//! - [`debugger`]: the step debugger's recording (no egui), its panel, and its overlays for both views.
//! - [`analysis`]: the probe ray, the SAT report and the seed texts' variants compared.
//! - [`character`]: the level's character walked in the 3D preview, the Character tab and a move's workings.
//! - [`reach`]: where the character can go: the reachability overlay, the clicked spot's path or blocker.
//! - [`greybox`]: greybox sectors: the storey filter and the sectors' edges by cooked kind (their edits are
//!   `document::sector`'s).
//! - [`inspector`]: the selection's fields; [`theme`]: the editor's colours.

pub mod analysis;
pub mod app;
pub mod character;
pub mod command;
pub mod debugger;
pub mod document;
pub mod draw;
pub mod entity_types;
pub mod greybox;
pub mod heights;
pub mod inspector;
pub mod job;
pub mod modes;
pub mod movers;
pub mod nav;
pub mod reach;
pub mod recording;
pub mod shortcut;
pub mod theme;
pub mod tools;
pub mod view2d;
pub mod view3d;

use std::path::Path;

pub use app::{Command, EditorApp, EditorOptions, Tool};

/// Whether a graphical session is reachable (X11 or Wayland on Unix; always on other systems).
#[must_use]
pub fn display_available() -> bool {
    if cfg!(all(unix, not(target_os = "macos"))) {
        ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
    } else {
        true
    }
}

/// Open the editor window on `file` (or the built-in level) and run until it closes.
///
/// # Errors
/// A message when there is no display or the window cannot be created.
pub fn run(file: Option<&Path>) -> Result<(), String> {
    if !display_available() {
        return Err(
            "no display: the editor needs a graphical session (DISPLAY or WAYLAND_DISPLAY is not set).\n\
             Headless, use the command-line tools instead: `collidoscope check LEVEL`, \
             `collidoscope simulate LEVEL`, `collidoscope --help`."
                .into(),
        );
    }
    let file = file.map(Path::to_path_buf);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Collidoscope")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        app::APP_ID,
        options,
        Box::new(move |cc| {
            Ok(Box::new(EditorApp::start(
                cc,
                file.as_deref(),
                EditorOptions::default(),
            )))
        }),
    )
    .map_err(|e| {
        format!(
            "cannot open the editor window: {e}\nHeadless, use the command-line tools instead: \
             `collidoscope check LEVEL`, `collidoscope --help`."
        )
    })
}
