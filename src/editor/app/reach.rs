//! Reachability in the editor's frame: its commands (the overlay, the Reach tool's spot, walking the path,
//! clearing it, the floor shown), the map kept in step with the document off the UI thread, and its line in
//! the status bar.

use std::sync::Arc;
use std::time::Duration;

use egui::{RichText, Ui};
use glam::{Vec2, Vec3};

use super::EditorApp;
use crate::editor::command::Command;
use crate::editor::reach::ReachOverlay;
use crate::editor::reach::model::{Polled, ReachRequest};
use crate::editor::theme;
use crate::editor::tools::{Gesture, Tool};
use crate::editor::view3d::scene::CameraMode;
use crate::scene::Scene;
use crate::shape::Ray;

impl EditorApp {
    /// Whether a map is wanted: the overlay is on, or the Reach tool is in hand.
    fn reach_wanted(&self) -> bool {
        self.reach.on || self.tools.tool == Tool::Reach
    }

    /// Whether the map is kept in step with the document: when it is shown, or when the level has entities
    /// that must be reached (their problems go to the Problems panel, as `collidoscope check --reach` finds).
    fn reach_needed(&self) -> bool {
        self.reach_wanted() || self.doc.level().must_reach_entities().next().is_some()
    }

    /// Keep the map in step with the document: take a finished build (shown when it maps the document as it
    /// is, dropped when an edit overtook it) and start the next one. Never waits for a build; while one runs,
    /// the frame asks to be drawn again soon (the status bar's spinner, and the result when it comes).
    pub(crate) fn refresh_reach(&mut self, ctx: &egui::Context) {
        let key = self.doc.key();
        if self.reach.poll(key) == Polled::Shown {
            if self.reach.target().is_some() {
                // The spot clicked is asked again of the new map.
                self.status = crate::editor::reach::panel::target_text(&self.reach);
            }
            ctx.request_repaint();
        }
        // A live drag changes the level every frame: map it when the gesture ends.
        let dragging = matches!(
            self.tools.gesture,
            Some(Gesture::Move { .. } | Gesture::Rotate { .. })
        );
        if self.reach_needed() && !dragging && self.reach.wants_build(key) {
            let request = match &self.level_scene {
                // The scene the editor already built at this revision, shared.
                Some((k, scene)) if *k == key => ReachRequest::of(&self.doc, scene.clone()),
                // Else the level is copied and its scene built on the builder's thread too.
                _ => {
                    let level = self.doc.level().clone();
                    let mut r = ReachRequest::of(&self.doc, Arc::new(Scene::default()));
                    self.reach.start(key, move || {
                        r.scene = Arc::new(Scene::build(&level));
                        r.build()
                    });
                    return;
                }
            };
            self.reach.start(key, move || request.build());
        }
        if self.reach.building().is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// Run a reachability command (the Reach tool's too: it turns the overlay on and opens the Reach tab).
    pub(super) fn run_reach_command(&mut self, command: Command) {
        match command {
            Command::ToggleReach => {
                self.reach.on = !self.reach.on;
                self.status = if self.reach.on {
                    "reachability overlay on: green is reached from the walker start, orange can be stood on but not reached".into()
                } else {
                    "reachability overlay off".into()
                };
            }
            Command::ReachTo(to) => {
                if !self.reach.on {
                    self.reach.on = true;
                }
                self.reach.set_target(to);
                self.status = crate::editor::reach::panel::target_text(&self.reach);
            }
            Command::WalkReachPath => self.walk_reach_path(),
            Command::ClearReachPath if self.reach.clear_target() => {
                self.status = "path cleared".into();
            }
            Command::ReachFloor(f) => self.reach.floor = crate::editor::reach::floor_view(f),
            Command::SetTool(Tool::Reach) => {
                self.set_tool(Tool::Reach);
                self.reach.on = true;
                self.panels.tab = crate::editor::debugger::panel::Tab::Reach;
                self.panels.show_problems = true;
                self.panels.lower_collapsed = false;
            }
            _ => {}
        }
    }

    /// Walk the shown path with the level's character in the 3D preview.
    fn walk_reach_path(&mut self) {
        let key = self.doc.key();
        let path = match self.reach.path_to_walk(key) {
            Ok(p) => p.to_vec(),
            Err(why) => {
                self.status = why.into();
                return;
            }
        };
        let scene = self.level_scene();
        let c = crate::editor::document::character::effective(self.doc.level());
        let v = &mut self.view3d;
        v.open = true;
        v.set_camera(CameraMode::Walk, &self.doc, &scene);
        v.walk_path(path, &c);
        self.status =
            "the character walks the path in the 3D preview (third person; F4 for its eyes)".into();
    }

    /// The feet of the place the top-down view shows at floor point `w`, else the surface under it (the
    /// floor at 0 when there is none).
    pub(crate) fn reach_spot(&mut self, w: Vec2) -> Vec3 {
        if let Some(d) = self.reach.data()
            && let Some(p) = d.geometry.place_at(w, self.reach.floor)
        {
            return p.feet;
        }
        let scene = self.level_scene();
        let top = scene.bounds().map_or(10.0, |b| b.max.y + 1.0);
        let skin = crate::editor::document::character::effective(self.doc.level()).skin;
        scene
            .cast_ray(&Ray::new(Vec3::new(w.x, top, w.y), Vec3::NEG_Y), 1e5)
            .map_or(Vec3::new(w.x, 0.0, w.y), |h| h.point + Vec3::Y * skin)
    }

    /// The status bar's reachability part: a spinner while a map is made, then what it found, or why there
    /// is none.
    pub(crate) fn reach_status(&self, ui: &mut Ui) {
        if !self.reach_wanted() {
            return;
        }
        if let Some((_, running)) = self.reach.building() {
            ui.spinner();
            ui.label(format!("mapping reach… {:.1} s", running.as_secs_f32()));
        } else if let Some(b) = self.reach.shown() {
            match &b.outcome {
                Ok(d) => {
                    ui.label(reach_summary(&self.reach, d.geometry.floors.iter()))
                        .on_hover_text(format!(
                            "the map took {:.2} s ({} places, {} reached)",
                            b.seconds,
                            d.map.stats().places,
                            d.map.stats().reached
                        ));
                }
                Err(e) => {
                    ui.label(RichText::new(format!("reach: {e}")).color(theme::WARNING_TEXT));
                }
            }
        }
        ui.separator();
    }
}

/// "reach: 902 of 968 m² reached · 12 blockers".
fn reach_summary<'a>(
    o: &ReachOverlay,
    floors: impl Iterator<Item = &'a crate::editor::reach::geometry::FloorInfo>,
) -> String {
    let (standable, reached) =
        floors.fold((0.0, 0.0), |(s, r), f| (s + f.standable, r + f.reached));
    let out = o.data().map_or(0, |d| d.geometry.labels.len());
    format!("reach: {reached:.0} of {standable:.0} m² reached · {out} blockers")
}
