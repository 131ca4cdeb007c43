//! The overlay kept in step with the document, once a frame: a finished build taken, the next one started
//! (an update of the last map when there is one), the agent stepped; the status bar's word.

use std::sync::Arc;
use std::time::Duration;

use egui::{RichText, Ui};

use super::model::{Made, NavOverlay};
use super::walker::WalkState;
use crate::editor::document::{DocKey, Document};
use crate::editor::theme;
use crate::scene::Scene;

impl NavOverlay {
    /// Keep the map in step with `doc`: take a finished build and, when `build` (the overlay is on and no
    /// drag is under way) and the revision has settled, start the next, sharing `scene` when it is the
    /// document's at this key. Never waits for a build: while one runs, the frame asks to be drawn again
    /// soon. Returns the status line when a new map answered the path asked for.
    pub fn refresh(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        scene: Option<&(DocKey, Arc<Scene>)>,
        build: bool,
    ) -> Option<String> {
        let key = doc.key();
        let mut status = None;
        if self.poll() {
            if self.route.is_some() {
                status = Some(super::route_text(self));
            }
            ctx.request_repaint();
        }
        let settled = self.settled(key, std::time::Instant::now());
        if build && settled && self.wants_build(doc) {
            match scene {
                Some((k, scene)) if *k == key => {
                    let request = self.request(doc, scene.clone());
                    self.start(key, move || request.build());
                }
                // Else the scene is built on the builder's thread too.
                _ => {
                    let level = doc.level().clone();
                    let mut r = self.request(doc, Arc::new(Scene::default()));
                    self.start(key, move || {
                        r.scene = Arc::new(Scene::build(&level));
                        r.build()
                    });
                }
            }
        }
        if self.building().is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if build && !settled {
            ctx.request_repaint_after(super::model::SETTLE);
        }
        status
    }

    /// Step the walking agent by the frame's time in `scene` (the level's at this revision) under
    /// `gravity`; a frame is asked for while it walks. Returns the status line when it arrived or gave up.
    pub fn walk_frame(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        gravity: glam::Vec3,
    ) -> Option<String> {
        let cell = self.data().map_or(0.25, |d| d.geometry.cell);
        let w = self.walker.as_mut()?;
        if w.state != WalkState::Walking {
            return None;
        }
        let dt = ctx.input(|i| i.stable_dt);
        if w.advance(dt, scene, gravity, cell) {
            ctx.request_repaint();
            return None;
        }
        Some(match w.state {
            WalkState::Arrived(t) => format!("navigation: the agent arrived in {t:.1} s"),
            _ => format!(
                "navigation: the agent did not arrive in {:.1} s (the level changed under it?)",
                w.time
            ),
        })
    }

    /// The status bar's navigation part: a spinner while a map is made, then what it holds, or why there
    /// is none.
    pub fn status_ui(&self, ui: &mut Ui) {
        if let Some(running) = self.building() {
            ui.spinner();
            let verb = if self.shown().is_some() {
                "updating"
            } else {
                "building"
            };
            ui.label(format!("navigation {verb}… {:.1} s", running.as_secs_f32()));
        } else if let Some(b) = self.shown() {
            match &b.outcome {
                Ok(d) => {
                    let how = match d.made {
                        Made::Baked => "baked",
                        Made::Updated(_) => "updated",
                        Made::Kept => "kept",
                    };
                    ui.label(format!(
                        "navigation: {} places · {} jumps",
                        d.geometry.places, d.geometry.jumps
                    ))
                    .on_hover_text(format!(
                        "{how} in {:.2} s for {} agent sizes",
                        b.seconds,
                        d.geometry.agents.len()
                    ));
                }
                Err(e) => {
                    ui.label(RichText::new(format!("navigation: {e}")).color(theme::WARNING_TEXT));
                }
            }
        }
        ui.separator();
    }
}
