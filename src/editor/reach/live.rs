//! The overlay kept in step with the document, once a frame: a finished build taken (shown when it maps the
//! document as it is, dropped when an edit overtook it) and the next one started; the place a top-down click
//! names; the status bar's line.

use std::sync::Arc;
use std::time::Duration;

use egui::{RichText, Ui};
use glam::{Vec2, Vec3};

use super::geometry::FloorInfo;
use super::model::{Polled, ReachOverlay, ReachRequest};
use crate::editor::document::{DocKey, Document};
use crate::editor::theme;
use crate::scene::Scene;
use crate::shape::Ray;

impl ReachOverlay {
    /// Keep the map in step with `doc`: take a finished build and, when `build` (the map is needed and no
    /// drag is under way) and the revision has settled ([`ReachOverlay::settled`]), start the next one, sharing `scene` when it is the document's at this key. Never
    /// waits for a build; while one runs, the frame asks to be drawn again soon (the status bar's spinner,
    /// and the result when it comes). Returns the status line when a new map answered the clicked spot.
    pub fn refresh(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        scene: Option<&(DocKey, Arc<Scene>)>,
        build: bool,
    ) -> Option<String> {
        let key = doc.key();
        let mut status = None;
        if self.poll(key) == Polled::Shown {
            if self.target().is_some() {
                // The spot clicked is asked again of the new map.
                status = Some(super::panel::target_text(self));
            }
            ctx.request_repaint();
        }
        let settled = self.settled(key, std::time::Instant::now());
        if build && self.wants_build(key) && settled {
            match scene {
                // The scene the editor already built at this revision, shared.
                Some((k, scene)) if *k == key => {
                    let mut request = ReachRequest::of(doc, scene.clone());
                    // The map shown is made again only where the edits since reached.
                    request.base = self.shown().cloned();
                    self.start(key, move || request.build());
                }
                // Else the level is copied and its scene built on the builder's thread too.
                _ => {
                    let level = doc.level().clone();
                    let mut r = ReachRequest::of(doc, Arc::new(Scene::default()));
                    r.base = self.shown().cloned();
                    self.start(key, move || {
                        r.scene = Arc::new(Scene::build(&level));
                        r.build()
                    });
                    return status;
                }
            }
        }
        if self.building().is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if build && !settled {
            // A frame when the burst's last revision has stood long enough to be mapped.
            ctx.request_repaint_after(super::model::SETTLE);
        }
        status
    }

    /// The feet of the place the top-down view shows at floor point `w`, else the surface of `scene` under
    /// it (`skin` over it; the floor at 0 when there is none).
    #[must_use]
    pub fn spot(&self, w: Vec2, scene: &Scene, skin: f32) -> Vec3 {
        if let Some(d) = self.data()
            && let Some(p) = d.geometry.place_at(w, self.floor)
        {
            return p.feet;
        }
        let top = scene.bounds().map_or(10.0, |b| b.max.y + 1.0);
        scene
            .cast_ray(&Ray::new(Vec3::new(w.x, top, w.y), Vec3::NEG_Y), 1e5)
            .map_or(Vec3::new(w.x, 0.0, w.y), |h| h.point + Vec3::Y * skin)
    }

    /// The status bar's reachability part: a spinner while a map is made, then what it found, or why there
    /// is none.
    pub fn status_ui(&self, ui: &mut Ui) {
        if let Some((_, running)) = self.building() {
            ui.spinner();
            ui.label(format!("mapping reach… {:.1} s", running.as_secs_f32()));
        } else if let Some(b) = self.shown() {
            match &b.outcome {
                Ok(d) => {
                    ui.label(summary(self, d.geometry.floors.iter()))
                        .on_hover_text(format!(
                            "the map took {:.2} s{} ({} places, {} reached)",
                            b.seconds,
                            if d.updated {
                                ", made again where the edit reached"
                            } else {
                                ""
                            },
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
fn summary<'a>(o: &ReachOverlay, floors: impl Iterator<Item = &'a FloorInfo>) -> String {
    let (standable, reached) =
        floors.fold((0.0, 0.0), |(s, r), f| (s + f.standable, r + f.reached));
    let out = o.data().map_or(0, |d| d.geometry.labels.len());
    format!("reach: {reached:.0} of {standable:.0} m² reached · {out} blockers")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::{Edit, Object};
    use crate::level::Level;
    use std::time::Instant;

    /// Refresh as the editor does each frame (a frame every millisecond) until the overlay shows the map
    /// of the document as it is; the time it took.
    fn until_current(o: &mut ReachOverlay, ctx: &egui::Context, doc: &Document) -> Duration {
        let began = Instant::now();
        let scene = (doc.key(), Arc::new(Scene::build(doc.level())));
        while !o.is_current(doc.key()) {
            assert!(began.elapsed() < Duration::from_secs(60), "no map");
            let _ = o.refresh(ctx, doc, Some(&scene), true);
            std::thread::sleep(Duration::from_millis(1));
        }
        began.elapsed()
    }

    /// Edit → overlay updated on the playground: a stair box raised by 5 cm, twenty times, each timed
    /// from the edit to the frame that shows the new map (the scene built on the frame, as the editor
    /// does). Prints the figures; run with `--ignored --nocapture` (in release for the real figure).
    #[test]
    #[ignore = "timing: run by hand"]
    fn edit_to_overlay_on_the_playground() {
        let level = Level::from_ron_str(include_str!("../../../levels/playground.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut doc = Document::new(level, None);
        let ctx = egui::Context::default();
        let mut o = ReachOverlay::default();
        o.on = true;
        let first = until_current(&mut o, &ctx, &doc);
        let mut times = Vec::new();
        for k in 0..20 {
            raise(&mut doc, if k % 2 == 0 { 0.05 } else { -0.05 });
            times.push(until_current(&mut o, &ctx, &doc).as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let map = o.shown().map_or(0.0, |b| b.seconds * 1e3);
        println!(
            "first map {:.0} ms; edit → overlay: median {:.0} ms, worst {:.0} ms (the map alone {map:.0} ms)",
            first.as_secs_f64() * 1e3,
            times[times.len() / 2],
            times[times.len() - 1]
        );
        // Bursts: five edits 40 ms apart (a wheel turned), timed from the last one.
        let mut bursts = Vec::new();
        for _ in 0..6 {
            for k in 0..5 {
                raise(&mut doc, if k % 2 == 0 { 0.05 } else { -0.05 });
                let scene = (doc.key(), Arc::new(Scene::build(doc.level())));
                let t = Instant::now();
                while t.elapsed() < Duration::from_millis(40) {
                    let _ = o.refresh(&ctx, &doc, Some(&scene), true);
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            bursts.push(until_current(&mut o, &ctx, &doc).as_secs_f64() * 1e3);
        }
        bursts.sort_by(f64::total_cmp);
        println!(
            "after a burst of five edits 40 ms apart → overlay: median {:.0} ms, worst {:.0} ms",
            bursts[bursts.len() / 2],
            bursts[bursts.len() - 1]
        );
    }

    /// What a map answers, for comparing two (the seconds aside).
    fn answers(map: &crate::character::ReachMap) -> impl PartialEq + std::fmt::Debug {
        let mut stats = *map.stats();
        stats.seconds = 0.0;
        (
            map.places().collect::<Vec<_>>(),
            map.reached_places().collect::<Vec<_>>(),
            map.unreachable_places().to_vec(),
            map.start(),
            stats,
        )
    }

    /// The overlay after each edit (each map made from the one before) shows the map a fresh
    /// `Level::reach_map` makes of the edited level.
    #[test]
    fn the_overlay_after_an_edit_is_the_fresh_map() {
        let level = Level::from_ron_str(
            r"(version: 2, aabbs: [
                (id: 1, min: (-4.0, -0.2, -4.0), max: (4.0, 0.0, 4.0)),
                (id: 2, min: (1.0, 0.0, -2.0), max: (2.0, 0.3, -1.0)),
                (id: 3, min: (1.0, 0.0, 1.0), max: (3.0, 0.6, 3.0)),
            ],
            walker: (position: (-3.0, -3.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut doc = Document::new(level, None);
        let ctx = egui::Context::default();
        let mut o = ReachOverlay::default();
        o.on = true;
        let _ = until_current(&mut o, &ctx, &doc);
        for (k, dy) in [(1, 0.3), (2, -0.35), (1, -0.3)] {
            let mut b = doc.level().aabbs[k].clone();
            b.max.y += dy;
            doc.apply(
                "raise",
                Edit {
                    replace: vec![Object::Aabb(b)],
                    ..Edit::default()
                },
            );
            let _ = until_current(&mut o, &ctx, &doc);
            let shown = o.data().unwrap_or_else(|| panic!("a map"));
            assert!(shown.updated, "made from the map before");
            let fresh = doc
                .level()
                .reach_map(&Scene::build(doc.level()), &Default::default())
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(answers(&shown.map), answers(&fresh), "after {k} by {dy}");
        }
    }

    fn raise(doc: &mut Document, dy: f32) {
        let mut b = doc.level().aabbs[3].clone();
        b.max.y += dy;
        doc.apply(
            "raise",
            Edit {
                replace: vec![Object::Aabb(b)],
                ..Edit::default()
            },
        );
    }
}
